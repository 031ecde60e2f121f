/* index_key.h: Tensor.__getitem__ and __setitem__ (Tensor's mp_subscript / mp_ass_subscript slots). */
#ifndef MT_INDEX_KEY_H
#define MT_INDEX_KEY_H

#include <Python.h>

PyObject *mt_tensor_getitem(PyObject *self, PyObject *index);
int mt_tensor_setitem(PyObject *self, PyObject *index, PyObject *value);

#endif
