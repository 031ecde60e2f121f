/* softmax.c (python): the binding of the softmax rows of ops.def (softmax, log_softmax and torch's
 * _softmax, _log_softmax). The parser read every argument's type and value; out= is refused, then the op
 * runs its own checks (csrc/ops/softmax.c). */
#include "../ops/softmax.h"
#include "bind.h"

enum {
    R_INPUT,
    R_DIM,
    R_DTYPE,
    R_HALF_TO_FLOAT,
    R_OUT
};

static const char *const softmax_roles[] = {"input", "dim", "dtype", "half_to_float", "out", NULL};

static PyObject *
softmax_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, R_INPUT)->tensor;
    int64_t dim = mt_call_arg(c, R_DIM)->i;
    const mt_arg *dtype = mt_call_arg(c, R_DTYPE);
    const mt_arg *half_to_float = mt_call_arg(c, R_HALF_TO_FLOAT);
    int log = c->code == MT_SOFTMAX_LOG || c->code == MT_SOFTMAX_INTERNAL_LOG;

    if (mt_bind_refuse_out(c, R_OUT) < 0) {
        return NULL;
    }
    if (c->code == MT_SOFTMAX_INTERNAL || c->code == MT_SOFTMAX_INTERNAL_LOG) {
        return mt_softmax_internal(log, t, dim, half_to_float->b);
    }
    return mt_softmax(log, t, dim, dtype != NULL ? dtype->dtype : MT_NUM_DTYPES);
}

const mt_binding mt_binding_softmax = {softmax_call, NULL, softmax_roles};
