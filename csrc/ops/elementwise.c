/* PLACEHOLDER: replaced by the engineer who owns this file. */
#include "../core/tensor.h"
#include "methods.h"
PyMethodDef mt_elementwise_tensor_methods[] = {{NULL}};
PyMethodDef mt_elementwise_functions[] = {{NULL}};
#define NI2(name) PyObject *name(PyObject *a, PyObject *b) { Py_RETURN_NOTIMPLEMENTED; }
NI2(mt_nb_add) NI2(mt_nb_subtract) NI2(mt_nb_multiply) NI2(mt_nb_true_divide)
NI2(mt_nb_inplace_add) NI2(mt_nb_inplace_subtract) NI2(mt_nb_inplace_multiply) NI2(mt_nb_inplace_true_divide)
PyObject *mt_nb_negative(PyObject *a) { PyErr_SetString(PyExc_NotImplementedError, "neg"); return NULL; }
PyObject *mt_nb_absolute(PyObject *a) { PyErr_SetString(PyExc_NotImplementedError, "abs"); return NULL; }
PyObject *mt_tensor_richcompare(PyObject *a, PyObject *b, int op) { Py_RETURN_NOTIMPLEMENTED; }
