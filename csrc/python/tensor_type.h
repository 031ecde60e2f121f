/* tensor_type.h: the Python type of minitorch.Tensor (csrc/python/tensor_type.c), created at module init
 * after the op table (bind.c) is built, since its methods and operator slots come from it. */
#ifndef MT_TENSOR_TYPE_H
#define MT_TENSOR_TYPE_H

#include <Python.h>

/* Creates minitorch.Tensor (mt_TensorType) and adds it to the module. 0 or -1. */
int mt_tensor_init(PyObject *module);

/* One NULL-terminated method table from several (for the module's and Tensor's tables), alive for the
 * process; NULL with MemoryError. */
PyMethodDef *mt_concat_method_tables(PyMethodDef *const *tables, size_t ntables);

#endif
