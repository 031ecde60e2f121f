/* scan.c (python): the binding of the rows of ops.def for cumsum, cumprod, prod, cummax, cummin and
 * logcumsumexp. The parser read
 * every argument's type and value; out= is refused, then the op runs its own checks (csrc/ops/scan.c). */
#include "../ops/scan.h"
#include "bind.h"

enum {
    R_INPUT,
    R_DIM,
    R_KEEPDIM,
    R_DTYPE,
    R_OUT
};

static const char *const scan_roles[] = {"input", "dim", "keepdim", "dtype", "out", NULL};

static PyObject *
scan_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *dim = mt_call_arg(c, R_DIM);
    const mt_arg *keepdim = mt_call_arg(c, R_KEEPDIM);
    const mt_arg *dtype = mt_call_arg(c, R_DTYPE);
    mt_dtype dt = dtype != NULL ? dtype->dtype : MT_NUM_DTYPES;

    if (mt_bind_refuse_out(c, R_OUT) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_SCAN_CUMSUM:
        return mt_cumulative(MT_SCAN_SUM, t, dim->i, dt);
    case MT_SCAN_CUMPROD:
        return mt_cumulative(MT_SCAN_PROD, t, dim->i, dt);
    case MT_SCAN_CUMMAX:
    case MT_SCAN_CUMMIN:
        return mt_cummax(c->code == MT_SCAN_CUMMAX, t, dim->i);
    case MT_SCAN_LOGCUMSUMEXP:
        return mt_logcumsumexp(t, dim->i);
    default:
        return mt_prod(t, dim != NULL, dim != NULL ? dim->i : 0, keepdim != NULL && keepdim->b, dt);
    }
}

const mt_binding mt_binding_scan = {scan_call, NULL, scan_roles};
