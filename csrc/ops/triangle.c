/* triangle.c: tril, triu (and their in-place forms) and diag: ops that keep or place the elements on one
 * side of, or on, a diagonal of a matrix. They are composed from device-generic pieces (a copy into a new
 * tensor, fills and copies of strided views of it), so they run on every device with no kernel of their
 * own; the values are exactly the input's elements and zeros, as torch's. Autograd's nodes are torch's
 * (derivatives.c). This file owns the checks and messages of these ops, not the Python argument parsing. */
#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "copy.h"
#include "shape.h"

static mt_scalar
zero_scalar(void)
{
    mt_scalar s = {MT_INT64, {0}};
    return s;
}

/* Zeros the part of the matrices of t (its last two dims) above diagonal k (upper 0: tril) or below it
 * (upper 1: triu), one fill per row of the strided view of that row's part. */
static int
zero_outside(mt_TensorObject *t, int upper, int64_t k)
{
    int nd = t->ndim;
    int64_t rows = t->sizes[nd - 2], cols = t->sizes[nd - 1];
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];

    for (int d = 0; d < nd - 2; d++) {
        sizes[d] = t->sizes[d];
        strides[d] = t->strides[d];
    }
    strides[nd - 2] = t->strides[nd - 1];
    /* past the matrix, every diagonal is the same (and i + k cannot overflow) */
    k = k > cols ? cols : k < -rows - 1 ? -rows - 1 : k;
    for (int64_t i = 0; i < rows; i++) {
        /* tril keeps columns j <= i + k of row i; triu keeps j >= i + k */
        int64_t first = upper ? 0 : i + k + 1;
        int64_t stop = upper ? i + k : cols;
        mt_TensorObject *part;
        first = first < 0 ? 0 : first > cols ? cols : first;
        stop = stop < 0 ? 0 : stop > cols ? cols : stop;
        if (stop <= first) {
            continue;
        }
        sizes[nd - 2] = stop - first;
        part = mt_tensor_new_view(t, nd - 1, sizes, strides,
                                  t->offset + i * t->strides[nd - 2] + first * t->strides[nd - 1]);
        if (part == NULL || mt_fill_(part, zero_scalar()) < 0) {
            Py_XDECREF(part);
            return -1;
        }
        Py_DECREF(part);
    }
    return 0;
}

PyObject *
mt_triangle(mt_TensorObject *t, int upper, int64_t diagonal, int inplace)
{
    mt_TensorObject *r;

    if (t->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: input tensor must have at least 2 dimensions", upper ? "triu" : "tril");
        return NULL;
    }
    if (inplace) {
        if (mt_ag_check_inplace(t) < 0 || zero_outside(t, upper, diagonal) < 0 || mt_ag_bump(t) < 0) {
            return NULL;
        }
        r = t;
        Py_INCREF(r);
    }
    else {
        /* a contiguous result, as torch's */
        r = mt_tensor_empty_format(t->ndim, t->sizes, t->dtype, mt_tensor_device(t), MT_CONTIGUOUS_FORMAT);
        if (r == NULL || mt_copy_(r, t) < 0 || zero_outside(r, upper, diagonal) < 0) {
            Py_XDECREF(r);
            return NULL;
        }
    }
    if (mt_ag_triangle(upper, t, diagonal, r) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

/* The k-th diagonal of the last two dims of a rows x cols tensor t, as a strided view (length 0 when k is
 * past the matrix). */
static mt_TensorObject *
diagonal_view(mt_TensorObject *t, int64_t k)
{
    int64_t rows = t->sizes[0], cols = t->sizes[1];
    int64_t len;
    int64_t stride = t->strides[0] + t->strides[1];
    int64_t offset = t->offset;

    if (k >= cols || k <= -rows) {
        len = 0;
        return mt_tensor_new_view(t, 1, &len, &stride, offset);
    }
    len = k >= 0 ? (rows < cols - k ? rows : cols - k) : (rows + k < cols ? rows + k : cols);
    if (len <= 0) {
        len = 0;
    }
    else {
        offset += k >= 0 ? k * t->strides[1] : -k * t->strides[0];
    }
    return mt_tensor_new_view(t, 1, &len, &stride, offset);
}

mt_TensorObject *
mt_diag_embed_2d(mt_TensorObject *v, int64_t rows, int64_t cols, int64_t k)
{
    int64_t sizes[2] = {rows, cols};
    mt_TensorObject *r = mt_tensor_empty_format(2, sizes, v->dtype, mt_tensor_device(v), MT_CONTIGUOUS_FORMAT);
    mt_TensorObject *d;

    if (r == NULL || mt_fill_(r, zero_scalar()) < 0) {
        Py_XDECREF(r);
        return NULL;
    }
    d = diagonal_view(r, k);
    if (d == NULL || mt_copy_(d, v) < 0) {
        Py_XDECREF(d);
        Py_DECREF(r);
        return NULL;
    }
    Py_DECREF(d);
    return r;
}

PyObject *
mt_diag(mt_TensorObject *t, int64_t diagonal)
{
    mt_TensorObject *r;

    if (t->ndim == 1) {
        /* a square matrix with t on its diagonal-th diagonal */
        /* n wraps as torch's int64 arithmetic does; c10::SymInt cannot hold the most negative sizes */
        uint64_t magnitude = diagonal >= 0 ? (uint64_t)diagonal : (uint64_t)0 - (uint64_t)diagonal;
        int64_t n = (int64_t)((uint64_t)t->sizes[0] + magnitude);
        if (n < -(INT64_C(1) << 62)) {
            PyErr_Format(PyExc_RuntimeError, "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
                         (long long)n);
            return NULL;
        }
        r = mt_diag_embed_2d(t, n, n, diagonal);
    }
    else if (t->ndim == 2) {
        /* a copy of the diagonal */
        mt_TensorObject *d = diagonal_view(t, diagonal);
        r = d == NULL ? NULL
                      : mt_tensor_empty_format(1, d->sizes, t->dtype, mt_tensor_device(t), MT_CONTIGUOUS_FORMAT);
        if (r != NULL && mt_copy_(r, d) < 0) {
            Py_CLEAR(r);
        }
        Py_XDECREF(d);
    }
    else {
        PyErr_Format(PyExc_RuntimeError, "diag(): Supports 1D or 2D tensors. Got %dD", t->ndim);
        return NULL;
    }
    if (r != NULL && mt_ag_diag(t, diagonal, r) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}
