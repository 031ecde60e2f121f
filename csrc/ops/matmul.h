/* matmul.h: what csrc/ops/matmul.c offers besides its method tables (declared in methods.h): the C entry
 * point for other ops (nn.Linear's forward can call it without building Python arguments), and the
 * device check the ops built on matmul share. */
#ifndef MT_MATMUL_H
#define MT_MATMUL_H

#include <Python.h>

#include "../core/tensor.h"

/* torch.matmul(a, b) with torch's dispatch to dot/mv/mm/bmm, checks and messages. New reference, or NULL
 * with an exception. */
PyObject *mt_matmul(mt_TensorObject *a, mt_TensorObject *b);

/* The device check of torch's generated CUDA wrappers, for the ops built on matmul (addmm): when any of
 * the (at most 4) tensors is on CUDA, the first one's device is the reference and the first that differs
 * is named with `names[i]` and `method` ("wrapper_CUDA_addmm"). 0 or -1 with torch's RuntimeError. */
int mt_matmul_check_devices(const char *method, int n, mt_TensorObject *const *tensors, const char *const *names);

#endif
