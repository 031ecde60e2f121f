/* autograd_type.h: autograd's Python face (csrc/python/autograd_type.c): the Node type, the tensor's autograd
 * attributes and methods (installed by tensor_type.c), grad mode and the engine's entry for the module. */
#ifndef MT_AUTOGRAD_TYPE_H
#define MT_AUTOGRAD_TYPE_H

#include <Python.h>

#include "../core/tensor.h"

PyObject *mt_tensor_grad_get(mt_TensorObject *self, void *closure);
int mt_tensor_grad_set(mt_TensorObject *self, PyObject *value, void *closure);
PyObject *mt_tensor_grad_fn_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_is_leaf_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_requires_grad_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_retains_grad_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_backward_hooks_get(mt_TensorObject *self, void *closure);
int mt_tensor_backward_hooks_set(mt_TensorObject *self, PyObject *value, void *closure);
PyObject *mt_tensor_base_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_version_get(mt_TensorObject *self, void *closure);
PyObject *mt_tensor_output_nr_get(mt_TensorObject *self, void *closure);

/* requires_grad = flag (the attribute, from_method 0) or requires_grad_(flag) (from_method 1), with
 * torch's rules and messages for each. 0 or -1. */
int mt_tensor_set_requires_grad(mt_TensorObject *self, int flag, int from_method);

PyObject *mt_tensor_detach(mt_TensorObject *self, PyObject *unused);
PyObject *mt_tensor_detach_(mt_TensorObject *self, PyObject *unused);
PyObject *mt_tensor_retain_grad(mt_TensorObject *self, PyObject *unused);
PyObject *mt_tensor_is_view(mt_TensorObject *self, PyObject *unused);

/* .data: a tensor over the same memory, outside the graph, with a version counter of its own. */
PyObject *mt_tensor_data_alias(mt_TensorObject *self);

extern PyMethodDef mt_autograd_functions[];

/* Creates the Node type (minitorch._C._Node). 0 or -1. */
int mt_autograd_init(PyObject *module);

#endif
