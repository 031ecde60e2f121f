/* reduce.c: the reductions: sum and mean (over dims, keepdim, dtype=), max/min (whole tensor; along a dim
 * as (values, indices)), all/any and argmax/argmin, as C entry points (reduce.h; their Python forms are
 * rows of csrc/python/ops.def). It owns torch's dtype rules and error messages and the result shapes;
 * the reduction itself is the device's
 * backend's (kernels/backend.h). It never touches elements itself. */
#include "reduce.h"
#include <math.h>
#include <string.h>

#include "copy.h"
#include "../autograd/record.h"
#include "dispatch.h"
#include "runner.h"
#include "shape.h"

/* Reductions over this many elements run with the GIL released (their threads need no Python). */
#define REDUCE_GIL_RELEASE_NUMEL 32768


/* ---- dims ------------------------------------------------------------------------------------------ */

/* The dims as a mask over a tensor of `ndim` dims, with torch's errors in torch's order: every dim is
 * range-checked before any is checked for repeats (a 0-d tensor takes 0 and -1, once). No dims leave the
 * mask empty. A repeat is worded as the device words it: torch's meta functions (torch/_refs'
 * reduction_dims) do not name the dim. */
int
mt_reduce_dims_mask(mt_device device, const int64_t *dims, int64_t count, int ndim, uint64_t *mask)
{
    uint64_t seen = 0;
    int wrapped;

    for (int64_t i = 0; i < count; i++) {
        if (mt_wrap_dim(dims[i], ndim, &wrapped) < 0) {
            return -1;
        }
    }
    for (int64_t i = 0; i < count; i++) {
        mt_wrap_dim(dims[i], ndim, &wrapped);
        if (seen & ((uint64_t)1 << wrapped)) {
            if (device.type == MT_DEVICE_META) {
                PyErr_SetString(PyExc_RuntimeError, "duplicate value in the list of dims");
            }
            else {
                PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims", wrapped);
            }
            return -1;
        }
        seen |= (uint64_t)1 << wrapped;
    }
    /* a 0-d tensor has nothing to reduce */
    *mask = ndim > 0 ? seen : 0;
    return 0;
}

/* ---- shared pieces of the drivers ---------------------------------------------------------------- */

/* A kernel's view of t: its own copy of t's sizes and strides (in `geometry`, 2 * MT_MAX_DIMS), since a
 * kernel that runs with the GIL released must not read arrays another thread may rewrite (t.data = x). */
static void
reduce_input_from_tensor(mt_reduce_input *in, int64_t *geometry, const mt_TensorObject *t)
{
    memcpy(geometry, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(geometry + MT_MAX_DIMS, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    in->ndim = t->ndim;
    in->sizes = geometry;
    in->strides = geometry + MT_MAX_DIMS;
    in->data = mt_tensor_data(t);
    in->dtype = t->dtype;
}

/* The result shape: reduced dims removed, or kept with size 1. */
static int
result_shape(const mt_TensorObject *t, uint64_t mask, int keepdim, int64_t *sizes)
{
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (mask & ((uint64_t)1 << d)) {
            if (keepdim) {
                sizes[n++] = 1;
            }
        }
        else {
            sizes[n++] = t->sizes[d];
        }
    }
    return n;
}

static uint64_t
all_dims_mask(int ndim)
{
    return ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ndim) - 1);
}

/* t converted to `dtype` like torch's self.to(dtype): a dense tensor keeps its strides, so the sum
 * visits elements in the same order as torch. */
static mt_TensorObject *
cast_for_reduction(mt_TensorObject *t, mt_dtype dtype)
{
    mt_TensorObject *dst;

    if (t->dtype == dtype) {
        Py_INCREF(t);
        return t;
    }
    dst = mt_tensor_empty_preserving(t, dtype, mt_tensor_device(t));
    if (dst == NULL) {
        return NULL;
    }
    if (mt_copy_(dst, t) < 0) {
        Py_DECREF(dst);
        return NULL;
    }
    return dst;
}

/* ---- drivers ------------------------------------------------------------------------------------- */

typedef mt_reduction reduce_kind;
#define KIND_SUM MT_REDUCTION_SUM
#define KIND_MEAN MT_REDUCTION_MEAN
#define KIND_MAX MT_REDUCTION_MAX
#define KIND_MIN MT_REDUCTION_MIN
#define KIND_ALL MT_REDUCTION_ALL
#define KIND_ANY MT_REDUCTION_ANY

int
mt_reduce_check_mean_dtype(const char *fname, const mt_TensorObject *t, int has_dtype, mt_dtype dtype, int meta)
{
    mt_dtype result = has_dtype ? dtype : t->dtype;

    if (mt_dtype_is_floating(result)) {
        return 0;
    }
    PyErr_Format(PyExc_RuntimeError,
                 "%s(): could not infer output dtype. %s dtype must be either a floating point or complex dtype. "
                 "Got: %s%s",
                 fname, has_dtype ? "Optional" : "Input", meta ? "minitorch." : "",
                 meta ? mt_dtype_name(result) : mt_dtype_scalar_name(result));
    return -1;
}

/* sum/mean/max()/min()/all/any over the dims in mask (mean: after mt_reduce_check_mean_dtype). */
static PyObject *
reduce_impl(const char *fname, reduce_kind kind, mt_TensorObject *t, uint64_t mask, int keepdim, int has_dtype,
            mt_dtype dtype)
{
    mt_dtype out_dtype = t->dtype, kernel_dtype;
    mt_reduce_op op;
    mt_TensorObject *src = NULL;
    mt_TensorObject *out = NULL;
    int64_t sizes[MT_MAX_DIMS];
    int n;
    mt_reduce_input in;
    int64_t geometry[2 * MT_MAX_DIMS];
    const mt_TensorObject *operands[2];
    char *out_data;
    int rc;

    if (mt_backend_for(mt_tensor_device(t)) == NULL) {
        return NULL;
    }
    switch (kind) {
    case KIND_SUM:
        op = MT_REDUCE_SUM;
        out_dtype = has_dtype ? dtype : (mt_dtype_is_floating(t->dtype) ? t->dtype : MT_INT64);
        break;
    case KIND_MEAN:
        /* the entry point ran mt_reduce_check_mean_dtype: out_dtype is floating */
        op = MT_REDUCE_SUM;
        out_dtype = has_dtype ? dtype : t->dtype;
        break;
    case KIND_MAX:
    case KIND_MIN:
        op = kind == KIND_MAX ? MT_REDUCE_MAX : MT_REDUCE_MIN;
        if (mt_tensor_numel(t) == 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                         "reduction dim with the 'dim' argument.",
                         fname);
            return NULL;
        }
        break;
    case KIND_ALL:
    default:
        /* torch keeps uint8 for a uint8 input (the kernels write 0 or 1 bytes either way) */
        op = kind == KIND_ALL ? MT_REDUCE_ALL : MT_REDUCE_ANY;
        out_dtype = t->dtype == MT_UINT8 ? MT_UINT8 : MT_BOOL;
        break;
    }
    /* the kernels reduce in the output's dtype: a sum of another dtype is cast first, as torch's
     * make_reduction does. float16 and bfloat16 reduce in float32 (torch's CPU accumulates there; its
     * mean divides the float32 sum) and the result is rounded once. */
    kernel_dtype = mt_dtype_compute(out_dtype);
    if (op == MT_REDUCE_SUM) {
        src = cast_for_reduction(t, kernel_dtype);
    }
    else if (mt_dtype_is_reduced_floating(t->dtype)) {
        src = cast_for_reduction(t, MT_FLOAT32);
    }
    else {
        src = t;
        Py_INCREF(src);
    }
    if (src == NULL) {
        return NULL;
    }
    n = result_shape(t, mask, keepdim, sizes);
    out = mt_tensor_empty(n, sizes, kernel_dtype, mt_tensor_device(t));
    if (out == NULL) {
        goto error;
    }
    reduce_input_from_tensor(&in, geometry, src);
    out_data = mt_tensor_data(out);
    operands[0] = out;
    operands[1] = src;
    MT_RUN_BACKEND(rc, mt_tensor_device(t), mt_tensor_numel(src) >= REDUCE_GIL_RELEASE_NUMEL, operands, 2, reduce, op,
                   &in, mask, keepdim, kind == KIND_MEAN, out_data);
    if (rc < 0) {
        goto error;
    }
    if (kernel_dtype != out_dtype) {
        mt_TensorObject *rounded = mt_copy_to(out, out_dtype, mt_tensor_device(out));
        Py_DECREF(out);
        out = rounded;
        if (out == NULL) {
            goto error;
        }
    }
    Py_DECREF(src);
    return (PyObject *)out;

error:
    Py_XDECREF(src);
    Py_XDECREF(out);
    return NULL;
}

/* argmax/argmin through the device's kernels. */
static int
arg_reduce(const mt_TensorObject *t, int is_max, const mt_reduce_input *in, int dim, char *values,
           int64_t *indices)
{
    int r;

    MT_RUN_BACKEND(r, mt_tensor_device(t), 0, NULL, 0, arg_reduce, is_max, in, dim, values, indices);
    return r;
}

/* max(dim)/min(dim): the (values, indices) named tuple. */
static PyObject *
max_dim_impl(const char *fname, int is_max, mt_TensorObject *t, int64_t dim_arg, int keepdim)
{
    int dim;
    int64_t sizes[MT_MAX_DIMS];
    int n;
    mt_TensorObject *values = NULL;
    mt_TensorObject *indices = NULL;
    mt_TensorObject *src = NULL;
    mt_reduce_input in;
    int64_t geometry[2 * MT_MAX_DIMS];
    uint64_t mask;

    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (t->ndim > 0 && t->sizes[dim] == 0) {
        PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.", fname, dim);
        return NULL;
    }
    mask = t->ndim > 0 ? (uint64_t)1 << dim : 0;
    n = result_shape(t, mask, keepdim, sizes);
    /* float16 and bfloat16 compare as float32 (the same order; the values convert back exactly) */
    src = cast_for_reduction(t, mt_dtype_compute(t->dtype));
    if (src == NULL) {
        goto error;
    }
    values = mt_tensor_empty(n, sizes, src->dtype, mt_tensor_device(t));
    if (values == NULL) {
        goto error;
    }
    indices = mt_tensor_empty(n, sizes, MT_INT64, mt_tensor_device(t));
    if (indices == NULL) {
        goto error;
    }
    if (mt_tensor_numel(values) > 0) {
        reduce_input_from_tensor(&in, geometry, src);
        if (arg_reduce(src, is_max, &in, t->ndim > 0 ? dim : -1, mt_tensor_data(values),
                       (int64_t *)mt_tensor_data(indices)) < 0) {
            goto error;
        }
    }
    if (values->dtype != t->dtype) {
        mt_TensorObject *rounded = mt_copy_to(values, t->dtype, mt_tensor_device(values));
        Py_DECREF(values);
        values = rounded;
        if (values == NULL) {
            goto error;
        }
    }
    Py_CLEAR(src);
    {
        mt_TensorObject *pair[2] = {values, indices};
        return mt_tuple_of(pair, 2);
    }

error:
    Py_XDECREF(src);
    Py_XDECREF(values);
    Py_XDECREF(indices);
    return NULL;
}

/* argmax/argmin; has_dim 0 means over the flattened tensor. */
static PyObject *
argmax_impl(const char *fname, int is_max, mt_TensorObject *t, int has_dim, int64_t dim_arg, int keepdim)
{
    int dim = -1;
    int64_t sizes[MT_MAX_DIMS];
    int n = 0;
    mt_TensorObject *out = NULL;
    mt_reduce_input in;
    int64_t geometry[2 * MT_MAX_DIMS];

    if (t->dtype == MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "%s(): does not support bool input", fname);
        return NULL;
    }
    if (has_dim) {
        if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
            return NULL;
        }
        if (t->ndim > 0 && t->sizes[dim] == 0) {
            PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.", fname, dim);
            return NULL;
        }
        n = result_shape(t, t->ndim > 0 ? (uint64_t)1 << dim : 0, keepdim, sizes);
        if (t->ndim == 0) {
            dim = -1;
        }
    }
    else {
        if (mt_tensor_numel(t) == 0) {
            PyErr_Format(PyExc_IndexError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0.", fname);
            return NULL;
        }
        if (keepdim) {
            n = result_shape(t, all_dims_mask(t->ndim), 1, sizes);
        }
    }
    out = mt_tensor_empty(n, sizes, MT_INT64, mt_tensor_device(t));
    if (out == NULL) {
        return NULL;
    }
    if (mt_tensor_numel(out) > 0) {
        /* float16 and bfloat16 compare as float32 (the same order) */
        mt_TensorObject *src = cast_for_reduction(t, mt_dtype_compute(t->dtype));
        int rc = -1;
        if (src != NULL) {
            reduce_input_from_tensor(&in, geometry, src);
            rc = arg_reduce(src, is_max, &in, dim, NULL, (int64_t *)mt_tensor_data(out));
            Py_DECREF(src);
        }
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return (PyObject *)out;
}

/* ---- C entry points ------------------------------------------------------------------------------- */

static const char *const reduction_names[] = {"sum", "mean", "max", "min", "all", "any", "argmax", "argmin"};

PyObject *
mt_reduce(mt_reduction kind, mt_TensorObject *t, const int64_t *dims, int64_t ndims, int keepdim, mt_dtype dtype)
{
    int has_dtype = dtype != MT_NUM_DTYPES;
    int meta = mt_tensor_device(t).type == MT_DEVICE_META;
    uint64_t mask;
    PyObject *r;

    /* the CPU and cuda kernels check mean's dtype before its dims, torch's meta function after them */
    if (kind == KIND_MEAN && !meta && mt_reduce_check_mean_dtype("mean", t, has_dtype, dtype, meta) < 0) {
        return NULL;
    }
    if (dims == NULL || (ndims == 0 && (kind == KIND_SUM || kind == KIND_MEAN))) {
        /* sum(dim=()) reduces everything, like dim=None; all(dim=()) reduces nothing */
        mask = all_dims_mask(t->ndim);
    }
    else if (mt_reduce_dims_mask(mt_tensor_device(t), dims, ndims, t->ndim, &mask) < 0) {
        return NULL;
    }
    if (kind == KIND_MEAN && meta && mt_reduce_check_mean_dtype("mean", t, has_dtype, dtype, meta) < 0) {
        return NULL;
    }
    r = reduce_impl(reduction_names[kind], kind, t, mask, keepdim, has_dtype, has_dtype ? dtype : MT_FLOAT32);
    if (r != NULL && kind <= KIND_MIN) {
        static const mt_ag_reduction ag_kinds[] = {MT_AG_SUM, MT_AG_MEAN, MT_AG_MAX, MT_AG_MIN};
        if (mt_ag_reduce(ag_kinds[kind], t, dims == NULL, mask, keepdim, (mt_TensorObject *)r) < 0) {
            Py_CLEAR(r);
        }
    }
    return r;
}

PyObject *
mt_reduce_max_dim(int is_max, mt_TensorObject *t, int64_t dim, int keepdim)
{
    PyObject *r = max_dim_impl(is_max ? "max" : "min", is_max, t, dim, keepdim);

    if (r != NULL && mt_ag_max_dim(is_max, t, dim, keepdim, (mt_TensorObject *)PyTuple_GET_ITEM(r, 0),
                                   (mt_TensorObject *)PyTuple_GET_ITEM(r, 1)) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt_reduce_argmax(int is_max, mt_TensorObject *t, int has_dim, int64_t dim, int keepdim)
{
    return argmax_impl(is_max ? "argmax" : "argmin", is_max, t, has_dim, dim, keepdim);
}

/* ---- the host's own kernels: vector norm, product, nll_loss's sum ------------------------------- */

typedef enum { HOST_NORM, HOST_PROD, HOST_NLL_SUM } host_kernel;

/* whether t's device has the kernel (its backend's entry) and dtype is a floating one */
static int
host_kernel_available(const mt_TensorObject *t, host_kernel kernel, mt_dtype dtype)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(t));

    if (be == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (kernel == HOST_NORM ? be->vector_norm == NULL : kernel == HOST_PROD ? be->prod == NULL : be->nll_sum == NULL) {
        return 0;
    }
    return dtype == MT_FLOAT32 || dtype == MT_FLOAT64 || mt_dtype_is_reduced_floating(dtype);
}

/* the kernel's result in t's dtype over the dims in mask: prod, or the vector norm of order ord */
static mt_TensorObject *
host_kernel_reduce(mt_TensorObject *t, host_kernel kernel, double ord, uint64_t mask, int keepdim)
{
    int64_t sizes[MT_MAX_DIMS];
    int64_t geometry[2 * MT_MAX_DIMS];
    const mt_TensorObject *operands[2];
    mt_reduce_input in;
    mt_TensorObject *out;
    int large = mt_tensor_numel(t) >= REDUCE_GIL_RELEASE_NUMEL;
    int rc;

    out = mt_tensor_empty(result_shape(t, mask, keepdim, sizes), sizes, t->dtype, mt_tensor_device(t));
    if (out == NULL) {
        return NULL;
    }
    reduce_input_from_tensor(&in, geometry, t);
    operands[0] = out;
    operands[1] = t;
    if (kernel == HOST_PROD) {
        MT_RUN_BACKEND(rc, mt_tensor_device(t), large, operands, 2, prod, &in, mask, keepdim, mt_tensor_data(out));
    }
    else {
        MT_RUN_BACKEND(rc, mt_tensor_device(t), large, operands, 2, vector_norm, &in, ord, mask, keepdim,
                       mt_tensor_data(out));
    }
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

int
mt_reduce_vector_norm_available(const mt_TensorObject *t, double ord)
{
    return isfinite(ord) && host_kernel_available(t, HOST_NORM, t->dtype);
}

mt_TensorObject *
mt_reduce_vector_norm(mt_TensorObject *t, double ord, uint64_t mask, int keepdim)
{
    return host_kernel_reduce(t, HOST_NORM, ord, mask, keepdim);
}

int
mt_reduce_prod_available(const mt_TensorObject *t, mt_dtype dtype)
{
    return host_kernel_available(t, HOST_PROD, dtype);
}

mt_TensorObject *
mt_reduce_prod(mt_TensorObject *t, mt_dtype dtype, int has_dim, int dim, int keepdim)
{
    uint64_t mask = !has_dim ? all_dims_mask(t->ndim) : t->ndim > 0 ? (uint64_t)1 << dim : 0;
    mt_TensorObject *src = cast_for_reduction(t, dtype);
    mt_TensorObject *out = src != NULL ? host_kernel_reduce(src, HOST_PROD, 0.0, mask, has_dim && keepdim) : NULL;

    Py_XDECREF(src);
    return out;
}

/* whether part is a contiguous 1-D tensor of `dtype` with loss's length and device */
static int
nll_part_fits(const mt_TensorObject *part, const mt_TensorObject *loss, mt_dtype dtype)
{
    return part->ndim == 1 && mt_tensor_is_contiguous(part) && part->dtype == dtype &&
           mt_tensor_numel(part) == mt_tensor_numel(loss) &&
           mt_device_equal(mt_tensor_device(part), mt_tensor_device(loss));
}

PyObject *
mt_reduce_nll_sum(mt_TensorObject *loss, mt_TensorObject *weight, mt_TensorObject *kept)
{
    int64_t n = mt_tensor_numel(loss), two = 2;
    const mt_TensorObject *operands[4];
    mt_TensorObject *out;
    int rc;

    if (!nll_part_fits(loss, loss, loss->dtype) || (weight != NULL && !nll_part_fits(weight, loss, loss->dtype)) ||
        (kept != NULL && !nll_part_fits(kept, loss, MT_BOOL))) {
        /* ops/loss.c passes only such tensors */
        PyErr_SetString(PyExc_SystemError, "nll_loss's sum: the losses, the weights and the kept flags must be "
                                           "contiguous 1-D tensors of one length and device");
        return NULL;
    }
    if (!host_kernel_available(loss, HOST_NLL_SUM, loss->dtype)) {
        Py_RETURN_NONE;
    }
    out = mt_tensor_empty(1, &two, loss->dtype, mt_tensor_device(loss));
    if (out == NULL) {
        return NULL;
    }
    operands[0] = out;
    operands[1] = loss;
    operands[2] = weight;
    operands[3] = kept;
    MT_RUN_BACKEND(rc, mt_tensor_device(loss), 0, operands, 4, nll_sum, loss->dtype, mt_tensor_data(loss),
                   weight != NULL ? mt_tensor_data(weight) : NULL,
                   kept != NULL ? (const uint8_t *)mt_tensor_data(kept) : NULL, n, mt_tensor_data(out));
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}
