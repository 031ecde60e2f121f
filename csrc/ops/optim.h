/* optim.h: the optimizers' fused updates (csrc/ops/optim.c), which minitorch/optim calls where one pass
 * over the memory gives the bits torch's sequence of ops gives. They record no autograd node (optimizers
 * step under no_grad). */
#ifndef MT_OPS_OPTIM_H
#define MT_OPS_OPTIM_H

#include <Python.h>

#include "../core/tensor.h"
#include "../kernels/kernel_types.h"

/* torch.optim.SGD's update of one parameter after its first step (kernel_types.h, mt_sgd_step_args), in
 * place: param, grad and buf (the momentum buffer; NULL exactly when args.momentum is 0) of one shape, one
 * device and one dtype, float32 or float64 (args.dtype is filled in here). Py_True when done; Py_False,
 * with nothing written, when grad is buf's memory (the ops must then run one by one); NULL with an
 * exception. */
PyObject *mt_sgd_step(mt_TensorObject *param, mt_TensorObject *grad, mt_TensorObject *buf, mt_sgd_step_args args);

#endif
