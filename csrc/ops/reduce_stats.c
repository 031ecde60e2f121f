/* reduce_stats.c: the reductions torch builds from others (reduce_stats.h): logsumexp, amax/amin,
 * aminmax, nansum/nanmean, var/std/var_mean/std_mean and linalg.vector_norm. It owns their checks,
 * messages and warnings and the steps of each computation, as torch's CPU code takes them; the steps are
 * minitorch's own ops run below autograd (compose.h), so every device computes them with its kernels
 * (vector_norm's reduction is the CPU's own norm kernel where the device has it, reduce.h), and each op
 * records one node of torch's name (autograd/reduce_stats.c; nanmean is torch's composition and records
 * nansum's node and div's). It never touches elements itself. */
#include "reduce_stats.h"

#include <math.h>

#include "../autograd/record.h"
#include "compose.h"
#include "reduce.h"
#include "copy.h"
#include "shape.h"
#include "../core/warn.h"

static uint64_t
every_dim(int ndim)
{
    return ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ndim) - 1);
}

/* dims NULL (dim=None) or empty: every dim, as torch's reductions take an empty list */
static int
reduce_mask(const mt_TensorObject *t, const int64_t *dims, int64_t ndims, uint64_t *mask)
{
    if (dims == NULL || ndims == 0) {
        *mask = every_dim(t->ndim);
        return 0;
    }
    return mt_reduce_dims_mask(mt_tensor_device(t), dims, ndims, t->ndim, mask);
}

static int
result_sizes(const mt_TensorObject *t, uint64_t mask, int keepdim, int64_t *sizes)
{
    int n = 0;

    for (int d = 0; d < t->ndim; d++) {
        if (!(mask >> d & 1)) {
            sizes[n++] = t->sizes[d];
        }
        else if (keepdim) {
            sizes[n++] = 1;
        }
    }
    return n;
}

/* r viewed without the size-1 dims in mask (r has them, keepdim); r itself when keepdim */
static mt_TensorObject *
drop_dims(mt_TensorObject *r, const mt_TensorObject *t, uint64_t mask, int keepdim)
{
    int64_t sizes[MT_MAX_DIMS];
    int n;

    if (r == NULL) {
        return NULL;
    }
    if (keepdim) {
        Py_INCREF(r);
        return r;
    }
    n = result_sizes(t, mask, 0, sizes);
    return mt_view(r, n, sizes);
}

static mt_TensorObject *
to_dtype(mt_TensorObject *t, mt_dtype dtype)
{
    if (t == NULL) {
        return NULL;
    }
    if (t->dtype == dtype) {
        Py_INCREF(t);
        return t;
    }
    return (mt_TensorObject *)mt_to(t, NULL, dtype, 0, 0, MT_PRESERVE_FORMAT);
}

/* Releases the n temporaries (NULL ones skipped). */
static void
release(int n, mt_TensorObject **ts)
{
    for (int i = 0; i < n; i++) {
        Py_XDECREF(ts[i]);
    }
}

/* ---- logsumexp ------------------------------------------------------------------------------------- */

/* torch's logsumexp: maxes = amax(x, dims, keepdim=True), with +-inf replaced by 0; then
 * log(sum(exp(x - maxes))) + maxes. An empty input is log(sum(exp(x))). */
static mt_TensorObject *
logsumexp_compute(mt_TensorObject *x, uint64_t mask, int keepdim, mt_dtype sum_dtype)
{
    mt_TensorObject *s[8] = {NULL};
    mt_TensorObject *r;

    if (mt_tensor_numel(x) == 0) {
        s[0] = mt_c_reduce(MT_REDUCTION_SUM, (s[1] = mt_c_unary(MT_UNARY_EXP, x)), mask, keepdim);
        r = mt_c_unary(MT_UNARY_LOG, s[0]);
        release(2, s);
        return r;
    }
    s[0] = mt_c_reduce(MT_REDUCTION_MAX, x, mask, 1);
    s[1] = mt_c_binary_number(MT_BINARY_EQ, (s[2] = mt_c_unary(MT_UNARY_ABS, s[0])), INFINITY);
    s[3] = mt_c_where_number(s[1], 0.0, s[0]);
    s[4] = mt_c_unary(MT_UNARY_EXP, (s[5] = mt_c_binary(MT_BINARY_SUB, x, s[3])));
    if (s[4] != NULL && sum_dtype != s[4]->dtype) {
        Py_SETREF(s[4], to_dtype(s[4], sum_dtype));     /* logsumexp_out's sum_out into out's dtype */
    }
    s[6] = mt_c_unary(MT_UNARY_LOG, (s[7] = mt_c_reduce(MT_REDUCTION_SUM, s[4], mask, keepdim)));
    Py_XSETREF(s[3], drop_dims(s[3], x, mask, keepdim));
    r = mt_c_binary(MT_BINARY_ADD, s[6], s[3]);
    release(8, s);
    return r;
}

PyObject *
mt_logsumexp(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype out_dtype)
{
    uint64_t mask;
    mt_TensorObject *x, *r = NULL;

    if (reduce_mask(t, dims, ndims, &mask) < 0) {
        return NULL;
    }
    /* integers and bool are converted to the default float dtype first, as torch does */
    MT_BELOW_AUTOGRAD(x = to_dtype(t, mt_dtype_is_floating(t->dtype) ? t->dtype : MT_FLOAT32));
    if (x == NULL) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = logsumexp_compute(x, mask, keepdim, out_dtype == MT_NUM_DTYPES ? x->dtype : out_dtype));
    if (r != NULL && mt_ag_reduce_stats(MT_AG_LOGSUMEXP, x, mask, keepdim, 0, 0.0, r, NULL) < 0) {
        Py_CLEAR(r);
    }
    Py_DECREF(x);
    return (PyObject *)r;
}

/* ---- amax, amin -------------------------------------------------------------------------------------- */

PyObject *
mt_amax(int is_max, mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim)
{
    const char *name = is_max ? "amax" : "amin";
    uint64_t mask;
    mt_TensorObject *r = NULL;

    if (reduce_mask(t, dims, ndims, &mask) < 0) {
        return NULL;
    }
    if (mt_tensor_numel(t) == 0) {
        int64_t sizes[MT_MAX_DIMS];

        if (dims == NULL || ndims == 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                         "reduction dim with the 'dim' argument.",
                         name);
            return NULL;
        }
        for (int d = 0; d < t->ndim; d++) {
            if ((mask >> d & 1) && t->sizes[d] == 0) {
                PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.", name, d);
                return NULL;
            }
        }
        return (PyObject *)mt_tensor_empty(result_sizes(t, mask, keepdim, sizes), sizes, t->dtype,
                                           mt_tensor_device(t));
    }
    MT_BELOW_AUTOGRAD(r = mt_c_reduce(is_max ? MT_REDUCTION_MAX : MT_REDUCTION_MIN, t, mask, keepdim));
    if (r != NULL && mt_ag_reduce_stats(is_max ? MT_AG_AMAX : MT_AG_AMIN, t, mask, keepdim, 0, 0.0, r, NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

/* ---- aminmax ----------------------------------------------------------------------------------------- */


PyObject *
mt_aminmax(mt_TensorObject *t, int has_dim, int64_t dim_arg, int keepdim)
{
    uint64_t mask;
    int dim = 0;
    int64_t sizes[MT_MAX_DIMS];
    mt_TensorObject *lo = NULL, *hi = NULL;

    if (has_dim) {
        if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
            return NULL;
        }
        mask = t->ndim > 0 ? (uint64_t)1 << dim : 0;
        if (t->ndim > 0 && t->sizes[dim] == 0) {
            PyErr_Format(PyExc_IndexError, "aminmax: Expected reduction dim %d to have non-zero size.", dim);
            return NULL;
        }
    }
    else {
        mask = every_dim(t->ndim);
        if (mt_tensor_numel(t) == 0) {
            PyErr_SetString(PyExc_RuntimeError,
                            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                            "identity.");
            return NULL;
        }
    }
    if (mt_tensor_numel(t) == 0) {
        int n = result_sizes(t, mask, keepdim, sizes);
        lo = mt_tensor_empty(n, sizes, t->dtype, mt_tensor_device(t));
        hi = lo != NULL ? mt_tensor_empty(n, sizes, t->dtype, mt_tensor_device(t)) : NULL;
    }
    else {
        MT_BELOW_AUTOGRAD(lo = mt_c_reduce(MT_REDUCTION_MIN, t, mask, keepdim);
                          hi = lo != NULL ? mt_c_reduce(MT_REDUCTION_MAX, t, mask, keepdim) : NULL);
    }
    if (hi == NULL || mt_ag_reduce_stats(MT_AG_AMINMAX, t, mask, keepdim, 0, 0.0, lo, hi) < 0) {
        Py_XDECREF(lo);
        Py_XDECREF(hi);
        return NULL;
    }
    {
        mt_TensorObject *pair[2] = {lo, hi};
        return mt_tuple_of(pair, 2);
    }
}

/* ---- nansum, nanmean ----------------------------------------------------------------------------------- */

/* sum() of t with its NaNs replaced by 0 (torch's kernel skips them: the same sums) */
static mt_TensorObject *
nansum_compute(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype)
{
    mt_TensorObject *s[2] = {NULL};
    mt_TensorObject *x = t, *r;

    if (mt_dtype_is_floating(t->dtype)) {
        x = s[1] = mt_c_where_number((s[0] = mt_c_binary(MT_BINARY_NE, t, t)), 0.0, t);
        if (x == NULL) {
            release(2, s);
            return NULL;
        }
    }
    r = (mt_TensorObject *)mt_reduce(MT_REDUCTION_SUM, x, dims, ndims, keepdim, dtype);
    release(2, s);
    return r;
}

PyObject *
mt_nansum(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype)
{
    uint64_t mask;
    mt_TensorObject *r = NULL;

    if (reduce_mask(t, dims, ndims, &mask) < 0) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = nansum_compute(t, dims, ndims, keepdim, dtype));
    if (r != NULL && mt_ag_reduce_stats(MT_AG_NANSUM, t, mask, keepdim, 0, 0.0, r, NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

PyObject *
mt_nanmean(mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype)
{
    mt_TensorObject *s[3] = {NULL};
    PyObject *sum, *r;
    mt_cx_operand a, b;

    if (!mt_dtype_is_floating(t->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "nanmean(): expected input to have floating point or complex dtype but got %s",
                     mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (mt_reduce_check_mean_dtype("nanmean", t, dtype != MT_NUM_DTYPES, dtype, 0) < 0) {
        return NULL;
    }
    /* factor = isnan(t).logical_not_().sum(dim, keepdim) */
    MT_BELOW_AUTOGRAD(s[0] = mt_c_binary(MT_BINARY_EQ, t, t);
                      s[1] = s[0] != NULL ? (mt_TensorObject *)mt_reduce(MT_REDUCTION_SUM, s[0], dims, ndims, keepdim,
                                                                          MT_NUM_DTYPES)
                                          : NULL);
    if (s[1] == NULL) {
        release(3, s);
        return NULL;
    }
    sum = mt_nansum(t, dims, ndims, keepdim, dtype);
    if (sum == NULL) {
        release(3, s);
        return NULL;
    }
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.op.tensor = (mt_TensorObject *)sum;
    b.op.tensor = s[1];
    r = mt_binary("div", MT_BINARY_DIV, &a, &b, NULL, NULL);
    Py_DECREF(sum);
    release(3, s);
    return r;
}

/* ---- var, std ------------------------------------------------------------------------------------------ */

/* Two passes in float64 (torch's CPU kernels accumulate float32 in double too): the mean, then the sum
 * of squared deviations over max(0, N - correction). *mean_out (when not NULL) gets the mean in the
 * result's layout. */
static mt_TensorObject *
var_compute(int take_sqrt, mt_TensorObject *t, uint64_t mask, int keepdim, double divisor, mt_TensorObject **mean_out)
{
    mt_TensorObject *s[6] = {NULL};
    mt_TensorObject *r;

    s[0] = to_dtype(t, MT_FLOAT64);
    s[1] = mt_c_reduce(MT_REDUCTION_MEAN, s[0], mask, 1);
    s[2] = mt_c_binary(MT_BINARY_SUB, s[0], s[1]);
    s[3] = mt_c_reduce(MT_REDUCTION_SUM, (s[4] = mt_c_binary(MT_BINARY_MUL, s[2], s[2])), mask, keepdim);
    s[5] = mt_c_binary_number(MT_BINARY_DIV, s[3], divisor);
    if (take_sqrt) {
        Py_XSETREF(s[5], mt_c_std_sqrt(s[5]));       /* torch's kernel takes std::sqrt of each variance */
    }
    r = to_dtype(s[5], t->dtype);
    if (mean_out != NULL && r != NULL) {
        mt_TensorObject *m = drop_dims(s[1], t, mask, keepdim);
        *mean_out = to_dtype(m, t->dtype);
        Py_XDECREF(m);
        if (*mean_out == NULL) {
            Py_CLEAR(r);
        }
    }
    release(6, s);
    return r;
}

PyObject *
mt_var(int take_sqrt, int with_mean, mt_TensorObject *t, const int64_t *dims, int64_t ndims, double correction,
       int keepdim)
{
    static const char *const names[2][2] = {{"var", "std"}, {"var_mean", "std_mean"}};
    const char *name = names[with_mean != 0][take_sqrt != 0];
    uint64_t mask;
    int64_t sizes[MT_MAX_DIMS], out_numel = 1;
    int n;
    double factor, dof;
    mt_TensorObject *r = NULL, *mean = NULL;
    mt_TensorObject *items[2];
    int meta = mt_tensor_device(t).type == MT_DEVICE_META;

    /* torch's meta var and std (torch/_refs) take integers, keeping their dtype; var_mean and std_mean
     * then fail in their mean */
    if (!mt_dtype_is_floating(t->dtype) && !meta) {
        PyErr_Format(PyExc_RuntimeError, "%s only support floating point and complex dtypes",
                     with_mean ? name : "std and var");
        return NULL;
    }
    if (reduce_mask(t, dims, ndims, &mask) < 0) {
        return NULL;
    }
    n = result_sizes(t, mask, keepdim, sizes);
    for (int d = 0; d < n; d++) {
        out_numel *= sizes[d];
    }
    /* torch's reduction factor: the input's elements per output element */
    factor = out_numel == 0 ? 0.0 : (double)mt_tensor_numel(t) / (double)out_numel;
    dof = factor - correction;
    if (dof <= 0.0 && mt_warn_format(PyExc_UserWarning,
                                     "%s(): degrees of freedom is <= 0. Correction should be strictly less than the "
                                     "reduction factor (input numel divided by output numel).", name) < 0) {
        return NULL;
    }
    if (meta && with_mean && mt_reduce_check_mean_dtype("mean", t, 0, t->dtype, 1) < 0) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = var_compute(take_sqrt, t, mask, keepdim, dof > 0.0 ? dof : 0.0,
                                      with_mean ? &mean : NULL));
    if (r == NULL) {
        return NULL;
    }
    if (mt_ag_reduce_stats(take_sqrt ? (with_mean ? MT_AG_STD_MEAN : MT_AG_STD) : (with_mean ? MT_AG_VAR_MEAN : MT_AG_VAR),
                           t, mask, keepdim, dims == NULL, correction, r, mean) < 0) {
        Py_DECREF(r);
        Py_XDECREF(mean);
        return NULL;
    }
    if (!with_mean) {
        return (PyObject *)r;
    }
    items[0] = r;
    items[1] = mean;
    return mt_tuple_of(items, 2);
}

/* ---- linalg.vector_norm ------------------------------------------------------------------------------- */

/* Whether every dim in mask has size 1 (a 0-d tensor, or dims of size 1): torch's linalg_vector_norm then
 * returns abs(x) (x != 0 for the order 0) instead of reducing. */
static int
reduces_one_element(const mt_TensorObject *t, uint64_t mask)
{
    for (int d = 0; d < t->ndim; d++) {
        if ((mask >> d & 1) && t->sizes[d] != 1) {
            return 0;
        }
    }
    return 1;
}

/* The norm in `dtype`, below autograd: torch's reduction of x converted to dtype. On the CPU (and the
 * simulated GPU) a finite order is the device's norm kernel, torch's CPU kernel's arithmetic; elsewhere,
 * and for +-inf, it is composed of minitorch's ops, float16 and bfloat16 in float32 with the norm rounded
 * once. */
static mt_TensorObject *
vector_norm_compute(mt_TensorObject *t, double ord, uint64_t mask, int keepdim, mt_dtype dtype)
{
    mt_TensorObject *s[6] = {NULL};
    mt_TensorObject *x, *r;

    if (reduces_one_element(t, mask)) {
        x = (s[0] = to_dtype(t, dtype));
        s[1] = ord == 0.0 ? to_dtype((s[2] = mt_c_binary_number(MT_BINARY_NE, x, 0.0)), dtype)
                          : mt_c_unary(MT_UNARY_ABS, x);
        s[3] = s[1] != NULL ? mt_contiguous(s[1], MT_CONTIGUOUS_FORMAT) : NULL;
        r = drop_dims(s[3], t, mask, keepdim);
        release(6, s);
        return r;
    }
    if (mt_reduce_vector_norm_available(t, ord)) {
        x = (s[0] = to_dtype(t, dtype));
        r = x != NULL ? mt_reduce_vector_norm(x, ord, mask, keepdim) : NULL;
        release(6, s);
        return r;
    }
    x = (s[5] = to_dtype(t, mt_dtype_compute(dtype)));
    if (x == NULL) {
        r = NULL;
    }
    else if (ord == 0.0) {
        /* the count of nonzero elements, in x's dtype */
        s[0] = to_dtype((s[1] = mt_c_binary_number(MT_BINARY_NE, x, 0.0)), x->dtype);
        r = mt_c_reduce(MT_REDUCTION_SUM, s[0], mask, keepdim);
    }
    else if (ord == 1.0) {
        r = mt_c_reduce(MT_REDUCTION_SUM, (s[0] = mt_c_unary(MT_UNARY_ABS, x)), mask, keepdim);
    }
    else if (ord == 2.0) {
        s[0] = mt_c_reduce(MT_REDUCTION_SUM, (s[1] = mt_c_binary(MT_BINARY_MUL, x, x)), mask, keepdim);
        r = mt_c_std_sqrt(s[0]);      /* torch's kernel takes std::sqrt of each sum */
    }
    else if (isinf(ord)) {
        r = mt_tensor_numel(x) == 0
                ? mt_c_reduce(MT_REDUCTION_SUM, x, mask, keepdim)   /* an empty result (checked) */
                : mt_c_reduce(ord > 0 ? MT_REDUCTION_MAX : MT_REDUCTION_MIN, (s[0] = mt_c_unary(MT_UNARY_ABS, x)),
                              mask, keepdim);
    }
    else {
        s[0] = mt_c_binary_number(MT_BINARY_POW, (s[1] = mt_c_unary(MT_UNARY_ABS, x)), ord);
        s[2] = mt_c_reduce(MT_REDUCTION_SUM, s[0], mask, keepdim);
        r = mt_c_binary_number(MT_BINARY_POW, s[2], 1.0 / ord);
    }
    if (r != NULL && r->dtype != dtype) {
        Py_SETREF(r, to_dtype(r, dtype));
    }
    release(6, s);
    return r;
}

/* ord as C++'s stream writes a double: 2, -0.5, inf */
static void
format_ord(double ord, char *buf, size_t size)
{
    if (isinf(ord)) {
        snprintf(buf, size, "%sinf", ord < 0 ? "-" : "");
    }
    else {
        snprintf(buf, size, "%g", ord);
    }
}

PyObject *
mt_vector_norm(mt_TensorObject *t, double ord, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype)
{
    uint64_t mask;
    mt_TensorObject *r = NULL;
    mt_dtype result_dtype;
    char ord_text[32];

    if (!mt_dtype_is_floating(t->dtype)) {
        PyErr_Format(PyExc_RuntimeError,
                     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
                     mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (dtype != MT_NUM_DTYPES && !mt_dtype_is_floating(dtype)) {
        PyErr_Format(PyExc_RuntimeError, "linalg.vector_norm: dtype should be floating point or complex, but got %s",
                     mt_dtype_scalar_name(dtype));
        return NULL;
    }
    if (dtype != MT_NUM_DTYPES && t->dtype == MT_FLOAT64 && dtype == MT_FLOAT32) {
        PyErr_Format(PyExc_RuntimeError,
                     "linalg.vector_norm: the dtype of the input (%s) should be convertible without narrowing to "
                     "the specified dtype (%s)",
                     mt_dtype_scalar_name(t->dtype), mt_dtype_scalar_name(dtype));
        return NULL;
    }
    if (reduce_mask(t, dims, ndims, &mask) < 0) {
        return NULL;
    }
    if (mt_tensor_numel(t) == 0 && (ord < 0.0 || ord == INFINITY)) {
        format_ord(ord, ord_text, sizeof ord_text);
        if (dims == NULL || ndims == 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "linalg.vector_norm cannot compute the %s norm on an empty tensor because the operation "
                         "does not have an identity",
                         ord_text);
            return NULL;
        }
        for (int d = 0; d < t->ndim; d++) {
            if ((mask >> d & 1) && t->sizes[d] == 0) {
                /* torch's message has no space before "because" */
                PyErr_Format(PyExc_RuntimeError,
                             "linalg.vector_norm cannot compute the %s norm on the dimension %d"
                             "because this dimension is empty and the operation does not have an identity",
                             ord_text, d);
                return NULL;
            }
        }
    }
    result_dtype = dtype != MT_NUM_DTYPES ? dtype : t->dtype;
    MT_BELOW_AUTOGRAD(r = vector_norm_compute(t, ord, mask, keepdim, result_dtype));
    if (r != NULL && mt_ag_reduce_stats(MT_AG_VECTOR_NORM, t, mask, keepdim, dims == NULL, ord, r, NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}
