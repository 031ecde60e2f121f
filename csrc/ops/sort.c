/* sort.c: sort, argsort and topk (sort.h). It owns their checks and messages, the result layouts (sort's
 * values and indices keep the input's layout, as torch's empty_like does; topk's are contiguous); the
 * sorting is the device's line kernels' (backend.h's sort: a stable merge sort per line,
 * NaN above every number). topk is the first k of that sort, so with sorted=False it still returns them in
 * sorted order, where torch's CPU kernel leaves them in std::nth_element's order. Their gradients need a
 * scatter along the dim: the nodes are recorded with torch's names and their backward raises
 * NotImplementedError until that op exists. */
#include "sort.h"

#include "../autograd/record.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "reduce.h"
#include "shape.h"

#define SORT_GIL_RELEASE_NUMEL 32768



/* Sorts every line of t along dim (wrapped) into new contiguous values and indices of t's sizes. */
static int
sort_lines(mt_TensorObject *t, int dim, int descending, mt_TensorObject **values, mt_TensorObject **indices)
{
    mt_TensorObject *x = NULL, *v = NULL, *i = NULL;
    const mt_TensorObject *operands[3];
    mt_sort_args args;
    int rc = -1;

    if (mt_backend_for(mt_tensor_device(t)) == NULL) {
        return -1;
    }
    if (mt_dtype_is_reduced_floating(t->dtype)) {
        /* float16 and bfloat16 sort as float32 (the same order; the values convert back exactly) */
        x = mt_copy_to(t, MT_FLOAT32, mt_tensor_device(t));
        if (x != NULL) {
            Py_SETREF(x, mt_contiguous(x, MT_CONTIGUOUS_FORMAT));
        }
    }
    else {
        x = mt_contiguous(t, MT_CONTIGUOUS_FORMAT);
    }
    if (x == NULL) {
        return -1;
    }
    v = mt_tensor_empty(x->ndim, x->sizes, x->dtype, mt_tensor_device(x));
    i = mt_tensor_empty(x->ndim, x->sizes, MT_INT64, mt_tensor_device(x));
    if (v == NULL || i == NULL) {
        goto done;
    }
    memset(&args, 0, sizeof args);
    args.dtype = x->dtype;
    args.descending = descending;
    mt_lines_along(x, dim, &args.outer, &args.n, &args.inner);
    if (mt_tensor_numel(x) > 0) {
        args.in = mt_tensor_data(x);
        args.values = mt_tensor_data(v);
        args.indices = (int64_t *)mt_tensor_data(i);
        operands[0] = v;
        operands[1] = i;
        operands[2] = x;
        MT_RUN_BACKEND(rc, mt_tensor_device(x), mt_tensor_numel(x) >= SORT_GIL_RELEASE_NUMEL, operands, 3, sort,
                       &args);
        if (rc < 0) {
            goto done;
        }
    }
    if (v->dtype != t->dtype) {
        Py_SETREF(v, mt_copy_to(v, t->dtype, mt_tensor_device(v)));
        if (v == NULL) {
            rc = -1;
            goto done;
        }
    }
    *values = v;
    *indices = i;
    v = i = NULL;
    rc = 0;

done:
    Py_XDECREF(x);
    Py_XDECREF(v);
    Py_XDECREF(i);
    return rc;
}

/* src copied into a new tensor laid out like `like` (torch's empty_like), or src itself when it already is */
static mt_TensorObject *
in_layout_of(mt_TensorObject *src, const mt_TensorObject *like)
{
    mt_TensorObject *dst;

    if (mt_tensor_is_contiguous(like)) {
        Py_INCREF(src);
        return src;
    }
    dst = mt_tensor_empty_preserving(like, src->dtype, mt_tensor_device(src));
    if (dst != NULL && mt_copy_(dst, src) < 0) {
        Py_CLEAR(dst);
    }
    return dst;
}

/* (values, indices), both references stolen */
static PyObject *
pair(mt_TensorObject *values, mt_TensorObject *indices)
{
    mt_TensorObject *items[2] = {values, indices};
    return mt_tuple_of(items, 2);
}

/* sort's values and indices in t's layout; no node recorded */
static int
sorted_like(mt_TensorObject *t, int64_t dim_arg, int descending, mt_TensorObject **values, mt_TensorObject **indices)
{
    mt_TensorObject *v = NULL, *i = NULL;
    int dim;

    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0 || sort_lines(t, t->ndim > 0 ? dim : 0, descending, &v, &i) < 0) {
        return -1;
    }
    *values = in_layout_of(v, t);
    *indices = in_layout_of(i, t);
    Py_DECREF(v);
    Py_DECREF(i);
    if (*values == NULL || *indices == NULL) {
        Py_CLEAR(*values);
        Py_CLEAR(*indices);
        return -1;
    }
    return 0;
}

PyObject *
mt_sort(mt_TensorObject *t, int64_t dim, int descending, int has_stable)
{
    mt_TensorObject *values, *indices;

    if (sorted_like(t, dim, descending, &values, &indices) < 0) {
        return NULL;
    }
    if (mt_ag_sort(has_stable ? MT_AG_SORT_STABLE : MT_AG_SORT, t, dim, values, indices) < 0) {
        Py_DECREF(values);
        Py_DECREF(indices);
        return NULL;
    }
    return pair(values, indices);
}

PyObject *
mt_argsort(mt_TensorObject *t, int64_t dim, int descending)
{
    mt_TensorObject *values, *indices;

    if (sorted_like(t, dim, descending, &values, &indices) < 0) {
        return NULL;
    }
    Py_DECREF(values);
    return (PyObject *)indices;
}

PyObject *
mt_topk(mt_TensorObject *t, int64_t k, int64_t dim_arg, int largest, int sorted)
{
    mt_TensorObject *v = NULL, *i = NULL, *values = NULL, *indices = NULL;
    int dim;
    int64_t size;

    (void)sorted; /* the first k of a full sort are sorted either way */
    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    size = t->ndim > 0 ? t->sizes[dim] : 1;
    if (mt_tensor_device(t).type == MT_DEVICE_META && (k < 0 || k > size)) {
        /* torch's meta function (topk_meta) checks k >= 0 with torch._check's default message */
        PyErr_SetString(PyExc_RuntimeError,
                        k < 0 ? "Expected cond to be True, but got False. (Could this error message be improved? If so, "
                                "please report an enhancement request to PyTorch.)"
                              : "k not in range for dimension");
        return NULL;
    }
    if (k < 0 || k > size) {
        PyErr_SetString(PyExc_RuntimeError, "selected index k out of range");
        return NULL;
    }
    if (t->dtype == MT_BOOL && mt_tensor_device(t).type == MT_DEVICE_CPU) {
        PyErr_SetString(PyExc_RuntimeError, "topk does not support bool dtypes on CPU");
        return NULL;
    }
    if (sort_lines(t, t->ndim > 0 ? dim : 0, largest, &v, &i) < 0) {
        return NULL;
    }
    if (t->ndim > 0) {
        mt_TensorObject *nv = mt_narrow(v, dim, 0, k), *ni = mt_narrow(i, dim, 0, k);
        values = nv != NULL ? mt_contiguous(nv, MT_CONTIGUOUS_FORMAT) : NULL;
        indices = ni != NULL ? mt_contiguous(ni, MT_CONTIGUOUS_FORMAT) : NULL;
        Py_XDECREF(nv);
        Py_XDECREF(ni);
        Py_DECREF(v);
        Py_DECREF(i);
    }
    else {
        values = v;
        indices = i;
    }
    if (values == NULL || indices == NULL || mt_ag_sort(MT_AG_TOPK, t, dim, values, indices) < 0) {
        Py_XDECREF(values);
        Py_XDECREF(indices);
        return NULL;
    }
    return pair(values, indices);
}
