/* layout.h: the `minitorch.layout` type and its one object, minitorch.strided (every minitorch tensor is
 * strided: sizes, strides and an offset into a storage; torch's sparse layouts are not part of minitorch). */
#ifndef MT_LAYOUT_H
#define MT_LAYOUT_H

#include <Python.h>

extern PyTypeObject mt_LayoutType;

/* Registers the type and adds minitorch.layout and minitorch.strided to `module`. 0 or -1. */
int mt_layout_init(PyObject *module);

/* New reference to minitorch.strided (Tensor.layout). */
PyObject *mt_layout_strided(void);

#endif
