/* optim.c (python): the binding of the optimizers' rows of ops.def (_sgd_step, the fused update
 * minitorch/optim/sgd.py calls). The parser read every value; the op checks the tensors (csrc/ops/optim.c). */
#include "../ops/optim.h"
#include "bind.h"

enum {
    R_PARAM,
    R_GRAD,
    R_MOMENTUM_BUFFER,
    R_WEIGHT_DECAY,
    R_MOMENTUM,
    R_LR,
    R_DAMPENING,
    R_NESTEROV,
    R_MAXIMIZE
};

static const char *const optim_roles[] = {"param", "grad", "momentum_buffer", "weight_decay", "momentum", "lr",
                                          "dampening", "nesterov", "maximize", NULL};

static PyObject *
optim_call(const mt_call *c)
{
    const mt_arg *buf = mt_call_arg(c, R_MOMENTUM_BUFFER);
    mt_sgd_step_args args;

    args.dtype = MT_FLOAT32;
    args.weight_decay = mt_call_arg(c, R_WEIGHT_DECAY)->d;
    args.momentum = mt_call_arg(c, R_MOMENTUM)->d;
    args.lr = mt_call_arg(c, R_LR)->d;
    args.dampening = mt_call_arg(c, R_DAMPENING)->d;
    args.nesterov = mt_call_arg(c, R_NESTEROV)->b;
    args.maximize = mt_call_arg(c, R_MAXIMIZE)->b;
    return mt_sgd_step(mt_call_arg(c, R_PARAM)->tensor, mt_call_arg(c, R_GRAD)->tensor,
                       buf->obj != NULL ? buf->tensor : NULL, args);
}

const mt_binding mt_binding_optim = {optim_call, NULL, optim_roles};
