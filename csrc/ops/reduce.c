/* PLACEHOLDER: replaced by the engineer who owns this file. */
#include "../core/tensor.h"
#include "methods.h"
PyMethodDef mt_reduce_tensor_methods[] = {{NULL}};
PyMethodDef mt_reduce_functions[] = {{NULL}};
int mt_reduce_init(PyObject *module) { return 0; }
