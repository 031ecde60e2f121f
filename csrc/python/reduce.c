/* reduce.c (python): the binding of the reduction rows of ops.def (sum, mean, max, min, all, any, argmax,
 * argmin). The overload that matched decides the op: max(input, other) is torch.maximum, max(input, dim) the
 * (values, indices) reduction, max(input) the whole-tensor one. Every argument's type and value was read by
 * the parser (torch's order: types, then the values, so a dim past int64 is its ValueError); out= is
 * refused next, then the op runs its own checks. */
#include "../ops/elementwise.h"
#include "../ops/reduce.h"
#include "bind.h"

enum {
    R_INPUT,
    R_DIM,
    R_KEEPDIM,
    R_DTYPE,
    R_OTHER,
    R_OUT
};

static const char *const reduce_roles[] = {"input", "dim", "keepdim", "dtype", "other", "out", NULL};

static PyObject *
reduce_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *dim = mt_call_arg(c, R_DIM);
    const mt_arg *keepdim = mt_call_arg(c, R_KEEPDIM);
    const mt_arg *dtype = mt_call_arg(c, R_DTYPE);
    const mt_arg *other = mt_call_arg(c, R_OTHER);
    int kd = keepdim != NULL && keepdim->b;

    if (mt_bind_refuse_out(c, R_OUT) < 0) {
        return NULL;
    }
    switch ((mt_reduction)c->code) {
    case MT_REDUCTION_MAX:
    case MT_REDUCTION_MIN:
        if (other != NULL) {
            mt_cx_operand a = {{t}}, b = {{other->tensor}};
            return mt_binary(c->name, c->code == MT_REDUCTION_MAX ? MT_BINARY_MAXIMUM : MT_BINARY_MINIMUM, &a, &b,
                             NULL, NULL);
        }
        if (dim != NULL) {
            return mt_reduce_max_dim(c->code == MT_REDUCTION_MAX, t, dim->i, kd);
        }
        return mt_reduce((mt_reduction)c->code, t, NULL, 0, 0, MT_NUM_DTYPES);
    case MT_REDUCTION_ARGMAX:
    case MT_REDUCTION_ARGMIN:
        return mt_reduce_argmax(c->code == MT_REDUCTION_ARGMAX, t, dim != NULL && dim->obj != NULL,
                                dim != NULL ? dim->i : 0, kd);
    default:
        if (dim == NULL || dim->obj == NULL) {
            return mt_reduce((mt_reduction)c->code, t, NULL, 0, kd, dtype != NULL ? dtype->dtype : MT_NUM_DTYPES);
        }
        if (c->overload == 2) {
            /* all/any(input, int dim), should the parser ever pick it (the overload before it takes an
             * int as a list of one) */
            return mt_reduce((mt_reduction)c->code, t, &dim->i, 1, kd, MT_NUM_DTYPES);
        }
        return mt_reduce((mt_reduction)c->code, t, dim->ints, dim->nints, kd,
                         dtype != NULL ? dtype->dtype : MT_NUM_DTYPES);
    }
}

const mt_binding mt_binding_reduce = {reduce_call, NULL, reduce_roles};
