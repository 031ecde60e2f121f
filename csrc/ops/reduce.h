/* reduce.h: the reductions' C entry points: C values in (the tensor, the dims, keepdim, dtype), a new tensor
 * out, with torch's checks and messages in torch's order. Their Python forms are rows of
 * csrc/python/ops.def (csrc/python/reduce.c reads the arguments). */
#ifndef MT_REDUCE_H
#define MT_REDUCE_H

#include <Python.h>

#include "../core/tensor.h"

/* The reductions, as the op table's codes name them. */
typedef enum {
    MT_REDUCTION_SUM,
    MT_REDUCTION_MEAN,
    MT_REDUCTION_MAX,
    MT_REDUCTION_MIN,
    MT_REDUCTION_ALL,
    MT_REDUCTION_ANY,
    MT_REDUCTION_ARGMAX,
    MT_REDUCTION_ARGMIN
} mt_reduction;

/* sum, mean, max, min, all or any of t over the `ndims` dims in `dims` (dims NULL: over every dim), the
 * reduced dims kept with size 1 when keepdim; dtype (sum and mean; MT_NUM_DTYPES: none) is the result's.
 * torch's order: mean's dtype rule, then every dim's range, then repeats. An empty list of dims reduces
 * every dim for sum and mean and none for all and any, as in torch. */
PyObject *mt_reduce(mt_reduction kind, mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim,
                    mt_dtype dtype);

/* torch's mean() dtype rule (mean_dim's meta function; nanmean's too, under its own name): the result
 * dtype (dtype when has_dtype, else t's) must be floating. It comes before any check of the dims; `meta`
 * words it as torch's Python meta function for mean does (torch/_refs: the dtype as torch.int64), which
 * checks it after the dims. 0 or -1. */
int mt_reduce_check_mean_dtype(const char *fname, const mt_TensorObject *t, int has_dtype, mt_dtype dtype,
                               int meta);

/* max(dim) / min(dim): (values, indices), which the op table names return_types.max/min. */
PyObject *mt_reduce_max_dim(int is_max, mt_TensorObject *t, int64_t dim, int keepdim);

/* argmax/argmin along dim, or over the flattened tensor when !has_dim. */
PyObject *mt_reduce_argmax(int is_max, mt_TensorObject *t, int has_dim, int64_t dim, int keepdim);

/* The dims as a mask over a tensor of `ndim` dims on `device`, with torch's errors in torch's order (every
 * dim's range, then repeats, in the device's wording; a 0-d tensor takes 0 and -1, and its mask is empty).
 * 0 or -1. */
int mt_reduce_dims_mask(mt_device device, const int64_t *dims, int64_t count, int ndim, uint64_t *mask);

/* linalg.vector_norm's reduction of a finite order `ord` over the dims in mask (no checks: the caller's),
 * computed by the device's own kernel as torch's CPU kernel computes it (kernels/cpu/reduce.c), in t's
 * dtype: torch's kernel reduces the input converted to the result's dtype. The kernel is the CPU's (and
 * so the simulated GPU's): mt_reduce_vector_norm_available says whether t's device and dtype have it; a
 * CUDA device and meta do not, and the caller composes the norm from other ops there. */
int mt_reduce_vector_norm_available(const mt_TensorObject *t, double ord);
mt_TensorObject *mt_reduce_vector_norm(mt_TensorObject *t, double ord, uint64_t mask, int keepdim);

/* prod of t converted to the floating `dtype` (as torch's self.to(dtype): its strides kept), over every dim
 * or (has_dim) the wrapped `dim`, by the device's own kernel, multiplied in that dtype in torch's CPU order
 * (kernels/cpu/reduce.c); as for the vector norm, mt_reduce_prod_available says whether t's device (the
 * CPU, and so the simulated GPU) has it for `dtype`; elsewhere the caller multiplies along lines. */
int mt_reduce_prod_available(const mt_TensorObject *t, mt_dtype dtype);
mt_TensorObject *mt_reduce_prod(mt_TensorObject *t, mt_dtype dtype, int has_dim, int dim, int keepdim);

/* nll_loss's totals as torch's CPU kernel adds them: a tensor [sum of the kept rows' losses, sum of their class
 * weights (or, weight NULL, their count)] of loss's dtype, from loss (the picked losses, each -input[i, t[i]]
 * times its class weight), weight (those class weights, or NULL) and kept (bool: the rows whose target is not
 * ignore_index, or NULL), contiguous 1-D tensors of one length and device (a SystemError otherwise). None (a
 * new reference) where the device has no such kernel (a CUDA device, meta) or the dtype is not floating. */
PyObject *mt_reduce_nll_sum(mt_TensorObject *loss, mt_TensorObject *weight, mt_TensorObject *kept);

#endif
