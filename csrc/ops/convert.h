/* convert.h: one element of a tensor as a Python number (Tensor.item, the elements of tolist, and the op
 * files that need a tensor's value as a number). minitorch.tensor(data) and tolist itself are in
 * csrc/python/tensor_data.c. */
#ifndef MT_CONVERT_H
#define MT_CONVERT_H

#include <Python.h>

#include "../core/tensor.h"

/* The element of dtype `dtype` at `p` (host memory) as a Python bool, int or float. New reference. */
PyObject *mt_element_to_object(const char *p, mt_dtype dtype);

/* The Python scalar held by a 1-element tensor (copying from the device if needed). */
PyObject *mt_tensor_item(mt_TensorObject *t);

#endif
