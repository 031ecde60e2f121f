/* reduce_stats.c (python): the binding of the rows of ops.def for the reductions built from others
 * (logsumexp, amax, amin, aminmax, nansum, nanmean, var, std, var_mean, std_mean, linalg_vector_norm). The overload that matched
 * says how var/std got their correction: unbiased= (1 or 0) or correction= (1 when None). The parser read
 * every argument's type and value; out= is refused, then the op runs its own checks. */
#include "../ops/reduce_stats.h"
#include "bind.h"

enum {
    R_INPUT,
    R_DIM,
    R_KEEPDIM,
    R_UNBIASED,
    R_CORRECTION,
    R_ORD,
    R_DTYPE,
    R_OUT
};

static const char *const stats_roles[] = {"input", "dim", "keepdim", "unbiased", "correction", "ord", "dtype",
                                          "out", NULL};

static PyObject *
stats_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *dim = mt_call_arg(c, R_DIM);
    const mt_arg *keepdim = mt_call_arg(c, R_KEEPDIM);
    const mt_arg *unbiased = mt_call_arg(c, R_UNBIASED);
    const mt_arg *correction = mt_call_arg(c, R_CORRECTION);
    const mt_arg *ord = mt_call_arg(c, R_ORD);
    const mt_arg *dtype = mt_call_arg(c, R_DTYPE);
    int kd = keepdim != NULL && keepdim->b;
    /* dim=None: NULL; a list (possibly empty) otherwise */
    const int64_t *dims = dim != NULL && dim->obj != NULL ? dim->ints : NULL;
    int64_t ndims = dims != NULL ? dim->nints : 0;
    double corr = 1.0;

    if (mt_bind_refuse_out(c, R_OUT) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_STATS_LOGSUMEXP:
        return mt_logsumexp(t, dim->ints, dim->nints, kd, c->out_dtype);
    case MT_STATS_AMAX:
    case MT_STATS_AMIN:
        /* dim=[] (the default): every dim */
        return mt_amax(c->code == MT_STATS_AMAX, t, dims, ndims, kd);
    case MT_STATS_AMINMAX:
        return mt_aminmax(t, dim != NULL && dim->obj != NULL, dim != NULL ? dim->i : 0, kd);
    case MT_STATS_NANSUM:
    case MT_STATS_NANMEAN:
        return (c->code == MT_STATS_NANSUM ? mt_nansum : mt_nanmean)(t, dims, ndims, kd,
                                                                    dtype != NULL ? dtype->dtype : MT_NUM_DTYPES);
    case MT_STATS_VECTOR_NORM:
        if (ord != NULL && ord->is_complex) {
            PyErr_SetString(PyExc_RuntimeError, "linalg.vector_norm: Expected a non-complex scalar as the order of norm.");
            return NULL;
        }
        return mt_vector_norm(t, ord != NULL ? mt_scalar_to_double(ord->scalar) : 2.0, dims, ndims, kd,
                              dtype != NULL ? dtype->dtype : MT_NUM_DTYPES);
    default:
        if (unbiased != NULL) {
            corr = unbiased->b ? 1.0 : 0.0;
        }
        else if (correction != NULL && correction->obj != NULL) {
            corr = mt_scalar_to_double(correction->scalar);
        }
        return mt_var(c->code == MT_STATS_STD || c->code == MT_STATS_STD_MEAN,
                      c->code == MT_STATS_VAR_MEAN || c->code == MT_STATS_STD_MEAN, t, dims, ndims, corr, kd);
    }
}

const mt_binding mt_binding_reduce_stats = {stats_call, NULL, stats_roles};
