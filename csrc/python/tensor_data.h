/* tensor_data.h: moving values between Python objects and tensors: minitorch.tensor(data) (nested
 * sequences, scalars, tensors, NumPy arrays and scalars, with torch's shape and dtype inference and its
 * errors; a row of the op table, bound in factory.c) and back again (tolist, item: the method table
 * below). */
#ifndef MT_TENSOR_DATA_H
#define MT_TENSOR_DATA_H

#include <Python.h>

#include "../core/tensor.h"

/* A new CPU tensor holding `data` exactly as torch.tensor(data, dtype=...) would build it, before any
 * device move or requires_grad: `dtype` NULL means infer it. A Tensor as data is copied (no warning is
 * emitted here); a NumPy array keeps its dtype. NULL with torch's exception otherwise. */
mt_TensorObject *mt_tensor_from_data(PyObject *data, const mt_dtype *dtype);

/* minitorch.tensor(data, dtype=, device=, pin_memory=, requires_grad=) once the parser has read the
 * options (dtype MT_NUM_DTYPES: inferred; device: when has_device). A new reference, or NULL with torch's
 * exception (the copy-construct UserWarning for a Tensor as data, pinning refused for a Tensor or an
 * ndarray, requires_grad on a non-float dtype). new_tensor: called as Tensor.new_tensor (the warning names
 * it). */
PyObject *mt_tensor_new(PyObject *data, mt_dtype dtype, int has_device, mt_device device, int pin_memory,
                        int requires_grad, int new_tensor);

/* Tensor.tolist(): nested lists of Python bool/int/float (a scalar for a 0-d tensor); copies to the
 * host first when the tensor's memory is not host memory. */
PyObject *mt_tensor_tolist(mt_TensorObject *t);

/* Tensor's tolist and item methods (NULL-terminated; Tensor's tp_methods take them in). */
extern PyMethodDef mt_tensor_data_methods[];

#endif
