/* PLACEHOLDER: replaced by the engineer who owns this file. */
#include "../core/tensor.h"
#include "methods.h"
PyObject *mt_tensor_getitem(PyObject *self, PyObject *index) { PyErr_SetString(PyExc_NotImplementedError, "getitem"); return NULL; }
int mt_tensor_setitem(PyObject *self, PyObject *index, PyObject *value) { PyErr_SetString(PyExc_NotImplementedError, "setitem"); return -1; }
