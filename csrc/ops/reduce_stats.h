/* reduce_stats.h: the reductions built from other ops: logsumexp, amax/amin, aminmax, nansum, nanmean,
 * var/std (and var_mean, std_mean) and linalg.vector_norm, as C entry points with torch's checks and
 * messages in torch's order. Their Python forms are rows of csrc/python/ops.def (csrc/python/reduce_stats.c reads the arguments). In
 * each, dims NULL means torch's dim=None (every dim). */
#ifndef MT_REDUCE_STATS_H
#define MT_REDUCE_STATS_H

#include <Python.h>

#include "../core/tensor.h"

/* The op table's codes for the family's rows. */
enum {
    MT_STATS_LOGSUMEXP,
    MT_STATS_AMAX,
    MT_STATS_AMIN,
    MT_STATS_VAR,
    MT_STATS_STD,
    MT_STATS_VAR_MEAN,
    MT_STATS_STD_MEAN,
    MT_STATS_VECTOR_NORM,
    MT_STATS_NANSUM,
    MT_STATS_NANMEAN,
    MT_STATS_AMINMAX
};

/* log(sum(exp(t))) over dims, as torch computes it (the max subtracted first); integer and bool inputs are
 * converted to float32 first. out_dtype: an out= tensor's floating dtype, which the sum, the log and the
 * addition of the max are computed in (logsumexp_out's sum_out), or MT_NUM_DTYPES. */
PyObject *mt_logsumexp(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype out_dtype);

/* amax (is_max 1) / amin over dims (none: every dim). */
PyObject *mt_amax(int is_max, mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim);

/* nansum: sum() with NaNs counted as 0 (NansumBackward0); dtype MT_NUM_DTYPES: sum's rule. */
PyObject *mt_nansum(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype);

/* nanmean: torch's composition, nansum(t, dims, keepdim, dtype) / (the count of non-NaN elements), so it
 * records DivBackward0 over NansumBackward0. */
PyObject *mt_nanmean(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype);

/* aminmax over every dim (has_dim 0) or along dim: (min, max) (return_types.aminmax by the op table)
 * (AminmaxBackward0). */
PyObject *mt_aminmax(mt_TensorObject *t, int has_dim, int64_t dim, int keepdim);


/* var / std (take_sqrt) over dims with `correction`; with_mean: the tuple (var or std, mean). */
PyObject *mt_var(int take_sqrt, int with_mean, mt_TensorObject *t, const int64_t *dims, int64_t ndims,
                 double correction, int keepdim);

/* linalg.vector_norm(t, ord, dims, keepdim, dtype) (dtype MT_NUM_DTYPES: t's). */
PyObject *mt_vector_norm(mt_TensorObject *t, double ord, const int64_t *dims, int64_t ndims, int keepdim,
                         mt_dtype dtype);

#endif
