/* PLACEHOLDER: replaced by the engineer who owns this file. */
#include "../core/tensor.h"
#include "methods.h"
PyMethodDef mt_matmul_tensor_methods[] = {{NULL}};
PyMethodDef mt_matmul_functions[] = {{NULL}};
PyObject *mt_nb_matrix_multiply(PyObject *a, PyObject *b) { Py_RETURN_NOTIMPLEMENTED; }
