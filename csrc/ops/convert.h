/* convert.h: moving values between Python objects and tensors: minitorch.tensor(data) (nested
 * sequences, scalars, tensors, NumPy arrays and scalars, with torch's shape and dtype inference and its
 * errors) and back again (tolist, item). The Python-facing entry points are the tables declared in
 * methods.h (mt_convert_functions, mt_convert_tensor_methods); this header exposes the C building blocks
 * for other op files and the bindings (item, as_tensor, interop). */
#ifndef MT_CONVERT_H
#define MT_CONVERT_H

#include <Python.h>

#include "../core/tensor.h"

/* A new CPU tensor holding `data` exactly as torch.tensor(data, dtype=...) would build it, before any
 * device move or requires_grad: `dtype` NULL means infer it. A Tensor as data is copied (no warning is
 * emitted here); a NumPy array keeps its dtype. NULL with torch's exception otherwise. */
mt_TensorObject *mt_tensor_from_data(PyObject *data, const mt_dtype *dtype);

/* The Python scalar held by a 1-element tensor (copying from the device if needed). */
PyObject *mt_tensor_item(mt_TensorObject *t);

/* Tensor.tolist(): nested lists of Python bool/int/float (a scalar for a 0-d tensor); copies to the
 * host first when the tensor's memory is not host memory. */
PyObject *mt_tensor_tolist(mt_TensorObject *t);

#endif
