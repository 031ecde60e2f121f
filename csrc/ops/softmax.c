/* softmax.c: softmax and log_softmax along one dim (softmax.h). It owns torch's checks and messages (the
 * dim's range, then the kernel's dtype error, whose name says whether torch would take its last-dim
 * kernel) and the computation. The floating dtypes over the last dim run the backend's last-dim kernel
 * where the device has one (the host's: torch's CPU kernel, bit for bit, kernels/cpu/softmax.c). Everything
 * else follows torch's CPU kernel's steps with minitorch's own ops run below autograd, so every device
 * computes it with its kernels: the max along the dim subtracted, exp, the sum, then a division (or, on
 * torch's last-dim path, a product with the sum's reciprocal); log_softmax is x - max - log(sum). One node
 * (SoftmaxBackward0 / LogSoftmaxBackward0) is recorded for the whole. */
#include "softmax.h"

#include "../autograd/record.h"
#include "compose.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "shape.h"

/* a call on this many elements or more releases the GIL while the host kernel runs */
#define SOFTMAX_GIL_RELEASE_NUMEL 32768

static mt_TensorObject *composed_softmax(int log, mt_TensorObject *input, int dim, int lastdim);

/* float16 and bfloat16 where no last-dim kernel runs (another dim, a CUDA device): torch's CPU kernels
 * compute in float32 and round the result once, with roundings on the way, as its kernels keep a value in
 * a buffer of the input's dtype: the last-dim log_softmax rounds log(sum), the other softmax rounds each
 * exp(x - max) (divided by the float32 sum of the unrounded ones). */
static mt_TensorObject *
reduced_softmax_compute(int log, mt_TensorObject *input, int dim, int lastdim)
{
    mt_TensorObject *x, *r = NULL, *max = NULL, *e = NULL, *sum = NULL, *lse = NULL, *tmp = NULL, *shifted = NULL;

    x = mt_copy_to(input, MT_FLOAT32, mt_tensor_device(input));
    if (x == NULL) {
        return NULL;
    }
    if (lastdim != log) {
        /* last-dim softmax, other-dim log_softmax: float32 throughout */
        tmp = composed_softmax(log, x, dim, lastdim);
    }
    else if (!log) {
        max = mt_c_reduce(MT_REDUCTION_MAX, x, (uint64_t)1 << dim, 1);
        shifted = max != NULL ? mt_c_binary(MT_BINARY_SUB, x, max) : NULL;
        e = shifted != NULL ? mt_c_unary(MT_UNARY_EXP, shifted) : NULL;
        sum = e != NULL ? mt_c_reduce(MT_REDUCTION_SUM, e, (uint64_t)1 << dim, 1) : NULL;
        if (sum != NULL) {
            mt_TensorObject *rounded = mt_copy_to(e, input->dtype, mt_tensor_device(e));
            Py_SETREF(e, rounded != NULL ? mt_copy_to(rounded, MT_FLOAT32, mt_tensor_device(rounded)) : NULL);
            Py_XDECREF(rounded);
            tmp = e != NULL ? mt_c_binary(MT_BINARY_DIV, e, sum) : NULL;
        }
    }
    else {
        max = mt_c_reduce(MT_REDUCTION_MAX, x, (uint64_t)1 << dim, 1);
        shifted = max != NULL ? mt_c_binary(MT_BINARY_SUB, x, max) : NULL;
        e = shifted != NULL ? mt_c_unary(MT_UNARY_EXP, shifted) : NULL;
        sum = e != NULL ? mt_c_reduce(MT_REDUCTION_SUM, e, (uint64_t)1 << dim, 1) : NULL;
        lse = sum != NULL ? mt_c_unary(MT_UNARY_LOG, sum) : NULL;
        if (lse != NULL) {
            mt_TensorObject *rounded = mt_copy_to(lse, input->dtype, mt_tensor_device(lse));
            Py_DECREF(lse);
            lse = rounded != NULL ? mt_copy_to(rounded, MT_FLOAT32, mt_tensor_device(rounded)) : NULL;
            Py_XDECREF(rounded);
            tmp = lse != NULL ? mt_c_binary(MT_BINARY_SUB, shifted, lse) : NULL;
        }
    }
    if (tmp != NULL) {
        r = mt_copy_to(tmp, input->dtype, mt_tensor_device(tmp));
    }
    Py_XDECREF(tmp);
    Py_XDECREF(max);
    Py_XDECREF(shifted);
    Py_XDECREF(e);
    Py_XDECREF(sum);
    Py_XDECREF(lse);
    Py_DECREF(x);
    return r;
}

/* Whether the device's backend computes this softmax itself: any floating dtype, over any dim. */
static int
kernel_available(int log, const mt_TensorObject *input, int lastdim)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(input));

    if (be == NULL) {
        PyErr_Clear();
        return 0;
    }
    (void)log;
    return (lastdim ? be->softmax_lastdim != NULL : be->softmax_dim != NULL) && mt_dtype_is_floating(input->dtype);
}

/* The sizes before dim (outer) and after it (inner) of t; n the dim's (1 for a 0-d t). */
static void
split_at_dim(const mt_TensorObject *t, int dim, int64_t *outer, int64_t *n, int64_t *inner)
{
    *outer = *inner = *n = 1;
    for (int d = 0; d < t->ndim; d++) {
        int64_t *at = d < dim ? outer : d > dim ? inner : n;
        *at *= t->sizes[d];
    }
}

/* The backend's kernel (the last dim's or another's) on a contiguous copy of input. */
static mt_TensorObject *
backend_kernel(int log, mt_TensorObject *input, int dim, int lastdim)
{
    const mt_TensorObject *operands[2];
    mt_TensorObject *x, *out;
    int64_t outer, n, inner;
    int rc;

    x = mt_contiguous(input, MT_CONTIGUOUS_FORMAT);
    if (x == NULL) {
        return NULL;
    }
    out = mt_tensor_empty(x->ndim, x->sizes, x->dtype, mt_tensor_device(x));
    if (out == NULL) {
        Py_DECREF(x);
        return NULL;
    }
    split_at_dim(x, dim, &outer, &n, &inner);
    operands[0] = out;
    operands[1] = x;
    if (lastdim) {
        MT_RUN_BACKEND(rc, mt_tensor_device(x), mt_tensor_numel(x) >= SOFTMAX_GIL_RELEASE_NUMEL, operands, 2,
                       softmax_lastdim, log, x->dtype, mt_tensor_data(x), mt_tensor_data(out), outer, n);
    }
    else {
        MT_RUN_BACKEND(rc, mt_tensor_device(x), mt_tensor_numel(x) >= SOFTMAX_GIL_RELEASE_NUMEL, operands, 2,
                       softmax_dim, log, x->dtype, mt_tensor_data(x), mt_tensor_data(out), outer, n, inner);
    }
    Py_DECREF(x);
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

int
mt_softmax_backward_kernel(int log, mt_TensorObject *grad, mt_TensorObject *result, int dim, mt_TensorObject **out)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(result));
    const mt_TensorObject *operands[3];
    mt_TensorObject *g, *r, *gi = NULL;
    int lastdim = result->ndim == 0 || dim == result->ndim - 1;
    int64_t outer, n, inner;
    int rc = -1;

    *out = NULL;
    if (be == NULL) {
        PyErr_Clear();
        return 0;
    }
    if ((lastdim ? be->softmax_backward_lastdim == NULL : be->softmax_backward_dim == NULL) ||
        grad->dtype != result->dtype || !mt_dtype_is_floating(result->dtype) || mt_tensor_numel(result) == 0 ||
        !mt_device_equal(mt_tensor_device(grad), mt_tensor_device(result))) {
        return 0;
    }
    split_at_dim(result, dim, &outer, &n, &inner);
    g = mt_contiguous(grad, MT_CONTIGUOUS_FORMAT);
    r = g != NULL ? mt_contiguous(result, MT_CONTIGUOUS_FORMAT) : NULL;
    if (r != NULL) {
        gi = mt_tensor_empty(r->ndim, r->sizes, r->dtype, mt_tensor_device(r));
    }
    if (gi != NULL) {
        operands[0] = gi;
        operands[1] = g;
        operands[2] = r;
        if (lastdim) {
            MT_RUN_BACKEND(rc, mt_tensor_device(r), mt_tensor_numel(r) >= SOFTMAX_GIL_RELEASE_NUMEL, operands, 3,
                           softmax_backward_lastdim, log, r->dtype, mt_tensor_data(g), mt_tensor_data(r),
                           mt_tensor_data(gi), outer, n);
        }
        else {
            MT_RUN_BACKEND(rc, mt_tensor_device(r), mt_tensor_numel(r) >= SOFTMAX_GIL_RELEASE_NUMEL, operands, 3,
                           softmax_backward_dim, log, r->dtype, mt_tensor_data(g), mt_tensor_data(r),
                           mt_tensor_data(gi), outer, n, inner);
        }
    }
    Py_XDECREF(g);
    Py_XDECREF(r);
    if (rc < 0) {
        Py_XDECREF(gi);
        return -1;
    }
    *out = gi;
    return 0;
}

/* The steps of torch's CPU kernel as minitorch's ops, on a contiguous copy of a non-empty input. */
static mt_TensorObject *
composed_softmax(int log, mt_TensorObject *input, int dim, int lastdim)
{
    mt_TensorObject *x, *max = NULL, *shifted = NULL, *e = NULL, *sum = NULL, *r = NULL, *tmp = NULL;

    x = mt_contiguous(input, MT_CONTIGUOUS_FORMAT);
    if (x == NULL) {
        return NULL;
    }
    max = mt_c_reduce(MT_REDUCTION_MAX, x, (uint64_t)1 << dim, 1);
    shifted = mt_c_binary(MT_BINARY_SUB, x, max);
    e = mt_c_unary(MT_UNARY_EXP, shifted);
    sum = mt_c_reduce(MT_REDUCTION_SUM, e, (uint64_t)1 << dim, 1);
    if (log) {
        tmp = mt_c_unary(MT_UNARY_LOG, sum);
        r = mt_c_binary(MT_BINARY_SUB, shifted, tmp);
    }
    else if (lastdim) {
        tmp = mt_c_unary(MT_UNARY_RECIPROCAL, sum);
        r = mt_c_binary(MT_BINARY_MUL, e, tmp);
    }
    else {
        r = mt_c_binary(MT_BINARY_DIV, e, sum);
    }
    Py_XDECREF(max);
    Py_XDECREF(shifted);
    Py_XDECREF(e);
    Py_XDECREF(sum);
    Py_XDECREF(tmp);
    Py_DECREF(x);
    return r;
}

/* The computation, with grad mode off (the caller records the node). dim is wrapped. Like torch's kernel
 * it works on a contiguous copy of a strided input, so the result is contiguous. */
static mt_TensorObject *
softmax_compute(int log, mt_TensorObject *input, int dim, int lastdim)
{
    if (mt_tensor_numel(input) == 0) {
        return mt_tensor_empty(input->ndim, input->sizes, input->dtype, mt_tensor_device(input));
    }
    if (kernel_available(log, input, lastdim)) {
        return backend_kernel(log, input, dim, lastdim);
    }
    if (mt_dtype_is_reduced_floating(input->dtype)) {
        return reduced_softmax_compute(log, input, dim, lastdim);
    }
    return composed_softmax(log, input, dim, lastdim);
}

/* torch's _softmax / _log_softmax on x (already of the result's dtype). */
static PyObject *
softmax_impl(int log, mt_TensorObject *x, int64_t dim_arg)
{
    int dim, lastdim;
    mt_TensorObject *r = NULL;

    if (mt_wrap_dim(dim_arg, x->ndim, &dim) < 0) {
        return NULL;
    }
    /* torch takes its last-dim kernel for the last dim (and a 0-d tensor), its strided one otherwise */
    lastdim = x->ndim == 0 || dim == x->ndim - 1;
    if (!mt_dtype_is_floating(x->dtype) && mt_tensor_numel(x) > 0) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s%s_kernel_impl\" not implemented for '%s'",
                     log ? "log_softmax" : "softmax", lastdim ? "_lastdim" : "", mt_dtype_scalar_name(x->dtype));
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = softmax_compute(log, x, x->ndim > 0 ? dim : 0, lastdim));
    if (r != NULL && mt_ag_softmax(log, x, dim, r) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

PyObject *
mt_softmax(int log, mt_TensorObject *t, int64_t dim, mt_dtype dtype)
{
    mt_TensorObject *x;
    PyObject *r;

    if (dtype == MT_NUM_DTYPES || dtype == t->dtype) {
        return softmax_impl(log, t, dim);
    }
    x = (mt_TensorObject *)mt_to(t, NULL, dtype, 0, 0, MT_PRESERVE_FORMAT);
    if (x == NULL) {
        return NULL;
    }
    r = softmax_impl(log, x, dim);
    Py_DECREF(x);
    return r;
}

PyObject *
mt_softmax_internal(int log, mt_TensorObject *t, int64_t dim, int half_to_float)
{
    if (half_to_float) {
        /* torch's message names softmax for log_softmax too */
        PyErr_SetString(PyExc_RuntimeError, "softmax with half to float conversion is not supported on CPU");
        return NULL;
    }
    return softmax_impl(log, t, dim);
}
