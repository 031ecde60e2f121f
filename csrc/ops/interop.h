/* interop.h: sharing tensor memory with other libraries without copying it: NumPy (Tensor.numpy,
 * from_numpy, __array__), DLPack (Tensor.__dlpack__, __dlpack_device__, from_dlpack, to_dlpack) and
 * Python's buffer protocol (memoryview(t)). The Python-facing entry points are the tables and slot
 * functions declared in methods.h; this header exposes the C building blocks for other op files. */
#ifndef MT_INTEROP_H
#define MT_INTEROP_H

#include <Python.h>

#include "../core/tensor.h"

/* torch.from_numpy: a CPU tensor that shares the array's memory and keeps the array alive. NULL with
 * torch's exception (TypeError for non-arrays and unsupported dtypes, ValueError for strides and byte
 * order). */
mt_TensorObject *mt_tensor_from_numpy(PyObject *array);

/* Tensor.numpy(force=...): a NumPy array sharing the tensor's memory (a host copy first when `force`
 * and the tensor is not on the CPU). Imports numpy. */
PyObject *mt_tensor_to_numpy(mt_TensorObject *t, int force);

/* Consumes a DLPack capsule ("dltensor_versioned" or legacy "dltensor"): a tensor wrapping the
 * producer's memory whose storage calls the producer's deleter when released. The capsule is renamed
 * "used_..." only on success, so a capsule that could not be imported is still freed by its own
 * destructor. */
mt_TensorObject *mt_tensor_from_dlpack_capsule(PyObject *capsule);

#endif
