/* interop.h: sharing tensor memory with other libraries without copying it: NumPy (Tensor.numpy,
 * from_numpy, __array__), DLPack (Tensor.__dlpack__, __dlpack_device__, from_dlpack, to_dlpack) and
 * Python's buffer protocol (memoryview(t)): the method tables and slot functions Tensor and the module
 * take in, and the building blocks tensor(data) and the binary ops use (tensor_data.c, elementwise.c). */
#ifndef MT_INTEROP_H
#define MT_INTEROP_H

#include <Python.h>

#include <stdint.h>

#include "../core/tensor.h"

/* 1 if obj is a numpy.ndarray (or a subclass); 0 while numpy is not imported. Never raises. */
int mt_is_ndarray(PyObject *obj);

/* What NumPy itself records about an array (PyArray_DIMS, PyArray_STRIDES, PyArray_DATA, the descr and
 * flags), read through numpy.ndarray's own descriptors: a subclass that redefines shape, strides, dtype
 * or __array_interface__ changes nothing here, as in torch. Nothing is checked: callers run
 * mt_check_external_geometry before building on it. */
typedef struct {
    int ndim;
    int64_t sizes[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS];   /* in bytes */
    char kind;                      /* NumPy's dtype kind: 'b', 'i', 'u', 'f', 'c', ... */
    int itemsize;
    int native;                     /* native byte order (or byte order does not apply) */
    int writeable;
    void *data;
} mt_ndarray_fields;

/* Fills `out` for an ndarray; TypeError for anything else. 0 or -1. */
int mt_ndarray_fields_get(PyObject *array, mt_ndarray_fields *out);

/* torch's checks of the array's layout (tensor_from_numpy), in its order: every stride a multiple of the
 * element's `itemsize` bytes, none negative, native byte order. 0, or -1 with torch's ValueError. */
int mt_ndarray_check_layout(const mt_ndarray_fields *f, int64_t itemsize);

/* The array's numpy.dtype (through ndarray's own descriptor), for messages. New reference. */
PyObject *mt_ndarray_dtype(PyObject *array);

/* torch's name for a numpy.dtype in messages ("numpy.uint16"); *keep gets the reference that keeps the
 * returned text alive (Py_XDECREF it after use). NULL with an exception. */
const char *mt_numpy_dtype_name(PyObject *np_dtype, PyObject **keep);

/* A storage for memory adopted from outside (`wrapped`, made by mt_storage_wrap): `wrapped` itself (new
 * reference) when its address is a multiple of `itemsize`, else a new aligned storage holding a copy of
 * its bytes (kernels load whole elements). NULL with an exception. */
mt_storage *mt_storage_adopt(mt_storage *wrapped, size_t itemsize);

/* For an ndarray of a dtype torch converts to a tensor and minitorch has not (uint8, float16,
 * complex64, ...): raises NotImplementedError naming it and returns 1. 0 without an exception for any
 * other object; -1 on error. */
int mt_raise_for_numpy_dtype_gap(PyObject *array);

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

/* numpy, __array__, __array_wrap__, __dlpack__, __dlpack_device__ (Tensor methods); from_numpy,
 * from_dlpack, to_dlpack (module functions); the buffer protocol (Tensor's bf_getbuffer/bf_releasebuffer
 * slots). */
extern PyMethodDef mt_interop_tensor_methods[];
extern PyMethodDef mt_interop_functions[];
int mt_tensor_getbuffer(PyObject *self, Py_buffer *view, int flags);
void mt_tensor_releasebuffer(PyObject *self, Py_buffer *view);

#endif
