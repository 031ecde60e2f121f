/* elementwise.h: entry points of the elementwise op layer for other op files (reduce.c's
 * torch.max(a, b) is torch.maximum). The Python-facing tables and number slots are declared in
 * methods.h. */
#ifndef MT_ELEMENTWISE_H
#define MT_ELEMENTWISE_H

#include <Python.h>

#include "../kernels/cpu/elementwise.h"

/* torch.<op>(a, b) for a and b each a Tensor or a Python number (at least one should be a Tensor).
 * Returns a new tensor, or NULL with torch's exception. Comparisons give bool tensors. */
PyObject *mt_elementwise_binary(mt_binary_op op, PyObject *a, PyObject *b);

#endif
