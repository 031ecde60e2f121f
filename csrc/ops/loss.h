/* loss.h: the losses computed in C (csrc/ops/loss.c): nll_loss. nn.functional checks their arguments with
 * torch's messages and calls these with plain values. */
#ifndef MT_OPS_LOSS_H
#define MT_OPS_LOSS_H

#include <Python.h>
#include <stdint.h>

#include "../core/tensor.h"

/* The reductions as torch's kernels number them (torch.nn._reduction). */
enum { MT_LOSS_NONE, MT_LOSS_MEAN, MT_LOSS_SUM };

/* torch's nll_loss of input (N, C) or (C) against target (N) or () (NllLossBackward0), and nll_loss2d of
 * input (N, C, H, W) against target (N, H, W) (NllLoss2DBackward0): -input[i, target[i]] times the class
 * weight (weight NULL: 1), reduced. `ignoring`: a target may equal ignore_index, and such rows are left out
 * (0 without reduction); 0 when the caller knows none does. The caller has checked the shapes, the
 * target's dtype and its values (each in [0, C) or ignore_index). New reference, or NULL. */
PyObject *mt_nll_loss(mt_TensorObject *input, mt_TensorObject *target, mt_TensorObject *weight, int reduction,
                      int ignoring, int64_t ignore_index);

#endif
