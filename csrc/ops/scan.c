/* scan.c: cumsum, cumprod, prod, cummax/cummin and logcumsumexp (scan.h). It owns their dtype rules and
 * checks, lays the input out as contiguous lines along the dim (outer, n, inner) and calls the device's
 * line kernels (backend.h's scan; kernels/lines.h does one line, accumulating as torch's CPU kernels do).
 * It never touches elements itself. */
#include "scan.h"

#include "../autograd/record.h"
#include "dispatch.h"
#include "runner.h"
#include "copy.h"
#include "reduce.h"
#include "shape.h"

/* Lines of at least this many elements in all run with the GIL released. */
#define SCAN_GIL_RELEASE_NUMEL 32768

/* torch's rule for cumsum/cumprod/prod without dtype=: integers and bool accumulate in int64 */
static mt_dtype
accumulate_dtype(const mt_TensorObject *t, mt_dtype dtype)
{
    if (dtype != MT_NUM_DTYPES) {
        return dtype;
    }
    return mt_dtype_is_floating(t->dtype) ? t->dtype : MT_INT64;
}

/* t converted to dtype and made contiguous (a new reference) */
static mt_TensorObject *
contiguous_as(mt_TensorObject *t, mt_dtype dtype)
{
    mt_TensorObject *c, *r;

    c = mt_contiguous(t, MT_CONTIGUOUS_FORMAT);
    if (c == NULL || c->dtype == dtype) {
        return c;
    }
    r = mt_copy_to(c, dtype, mt_tensor_device(c));
    Py_DECREF(c);
    return r;
}

/* A float32 result of a float16 or bfloat16 scan rounded to that dtype (float32 is torch's CPU
 * accumulator for both): steals `out`, returns a new reference (NULL passes through). */
static mt_TensorObject *
rounded_to(mt_TensorObject *out, mt_dtype dtype)
{
    mt_TensorObject *r;

    if (out == NULL || out->dtype == dtype) {
        return out;
    }
    r = mt_copy_to(out, dtype, mt_tensor_device(out));
    Py_DECREF(out);
    return r;
}

/* Runs the scan kernel over x (contiguous) along dim into out (contiguous, of x's sizes, or of the lines'
 * (outer, inner) when args->total) and, for cummax/cummin, indices (int64, of x's sizes; else NULL).
 * 0 or -1. */
static int
run_scan_into(mt_TensorObject *x, int dim, mt_scan_args *args, mt_TensorObject *out, mt_TensorObject *indices)
{
    const mt_TensorObject *operands[3] = {out, x, indices};
    int r;

    if (mt_backend_for(mt_tensor_device(x)) == NULL) {
        return -1;
    }
    mt_lines_along(x, dim, &args->outer, &args->n, &args->inner);
    if (mt_tensor_numel(out) == 0) {
        return 0;
    }
    args->dtype = x->dtype;
    args->in = mt_tensor_data(x);
    args->out = mt_tensor_data(out);
    args->indices = indices != NULL ? (int64_t *)mt_tensor_data(indices) : NULL;
    MT_RUN_BACKEND(r, mt_tensor_device(x), mt_tensor_numel(x) >= SCAN_GIL_RELEASE_NUMEL, operands,
                   indices != NULL ? 3 : 2, scan, args);
    return r;
}

static int
run_scan(mt_TensorObject *x, int dim, mt_scan_args *args, mt_TensorObject *out)
{
    return run_scan_into(x, dim, args, out, NULL);
}

mt_TensorObject *
mt_scan_along(mt_TensorObject *t, int dim, mt_scan_op op, int reverse, int exclusive)
{
    mt_TensorObject *x = mt_contiguous(t, MT_CONTIGUOUS_FORMAT), *out;
    mt_scan_args args;

    if (x == NULL) {
        return NULL;
    }
    out = mt_tensor_empty(x->ndim, x->sizes, x->dtype, mt_tensor_device(x));
    memset(&args, 0, sizeof args);
    args.op = op;
    args.reverse = reverse;
    args.exclusive = exclusive;
    if (out != NULL && run_scan(x, dim, &args, out) < 0) {
        Py_CLEAR(out);
    }
    Py_DECREF(x);
    return out;
}

PyObject *
mt_cumulative(mt_scan_op op, mt_TensorObject *t, int64_t dim_arg, mt_dtype dtype)
{
    int dim;
    mt_TensorObject *x = NULL, *out = NULL;

    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(x = contiguous_as(t, mt_dtype_compute(accumulate_dtype(t, dtype))));
    if (x == NULL) {
        return NULL;
    }
    out = mt_scan_along(x, t->ndim > 0 ? dim : 0, op, 0, 0);
    Py_DECREF(x);
    out = rounded_to(out, accumulate_dtype(t, dtype));
    if (out != NULL && mt_ag_scan(op == MT_SCAN_SUM ? MT_AG_CUMSUM : MT_AG_CUMPROD, t, dim, 0, out, NULL) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

/* prod on a device without its own product kernel: the total of each line of the scan kernel, in the
 * compute dtype (double for a float32), rounded once */
static mt_TensorObject *
prod_along_lines(mt_TensorObject *t, int has_dim, int dim, int keepdim, mt_dtype acc_dtype)
{
    int n = 0;
    int64_t sizes[MT_MAX_DIMS];
    mt_TensorObject *x = NULL, *flat = NULL, *out = NULL;
    mt_scan_args args;

    MT_BELOW_AUTOGRAD(x = contiguous_as(t, mt_dtype_compute(acc_dtype)));
    if (x == NULL) {
        return NULL;
    }
    if (!has_dim) {
        /* every element: one line */
        int64_t numel = mt_tensor_numel(x);
        flat = mt_view(x, 1, &numel);
        dim = 0;
    }
    else {
        for (int d = 0; d < t->ndim; d++) {
            if (d != dim) {
                sizes[n++] = t->sizes[d];
            }
            else if (keepdim) {
                sizes[n++] = 1;
            }
        }
        flat = x;
        Py_INCREF(flat);
    }
    if (flat != NULL) {
        out = mt_tensor_empty(n, sizes, x->dtype, mt_tensor_device(x));
        memset(&args, 0, sizeof args);
        args.op = MT_SCAN_PROD;
        args.total = 1;
        if (out != NULL && run_scan(flat, flat->ndim > 0 ? dim : 0, &args, out) < 0) {
            Py_CLEAR(out);
        }
        out = rounded_to(out, acc_dtype);
    }
    Py_XDECREF(flat);
    Py_DECREF(x);
    return out;
}

PyObject *
mt_prod(mt_TensorObject *t, int has_dim, int64_t dim_arg, int keepdim, mt_dtype dtype)
{
    int dim = 0;
    mt_dtype acc_dtype = accumulate_dtype(t, dtype);
    mt_TensorObject *out;

    if (has_dim && mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (mt_reduce_prod_available(t, acc_dtype)) {
        /* the host's kernel multiplies in the dtype, as torch's CPU kernel */
        MT_BELOW_AUTOGRAD(out = mt_reduce_prod(t, acc_dtype, has_dim, dim, keepdim));
    }
    else {
        out = prod_along_lines(t, has_dim, dim, keepdim, acc_dtype);
    }
    if (out != NULL && mt_ag_scan(has_dim ? MT_AG_PROD_DIM : MT_AG_PROD, t, dim, keepdim, out, NULL) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

/* ---- cummax, cummin ---------------------------------------------------------------------------------- */

PyObject *
mt_cummax(int is_max, mt_TensorObject *t, int64_t dim_arg)
{
    const char *name = is_max ? "cummax" : "cummin";
    int dim = 0;
    mt_TensorObject *x = NULL, *values = NULL, *indices = NULL;
    mt_scan_args args;

    if (t->ndim == 0) {
        if (dim_arg != 0 && dim_arg != -1) {
            PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim -1 or 0 for scalar but got %lld", name,
                         (long long)dim_arg);
            return NULL;
        }
    }
    else if (mt_tensor_numel(t) > 0 && mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    /* float16 and bfloat16 lines run in float32 (each value goes back unchanged) */
    MT_BELOW_AUTOGRAD(x = contiguous_as(t, mt_dtype_compute(t->dtype)));
    if (x == NULL) {
        return NULL;
    }
    values = mt_tensor_empty(x->ndim, x->sizes, x->dtype, mt_tensor_device(x));
    indices = values != NULL ? mt_tensor_empty(x->ndim, x->sizes, MT_INT64, mt_tensor_device(x)) : NULL;
    memset(&args, 0, sizeof args);
    args.op = is_max ? MT_SCAN_MAX : MT_SCAN_MIN;
    if (indices == NULL || run_scan_into(x, dim, &args, values, indices) < 0) {
        goto error;
    }
    Py_CLEAR(x);
    values = rounded_to(values, t->dtype);
    if (values == NULL || mt_ag_scan(is_max ? MT_AG_CUMMAX : MT_AG_CUMMIN, t, dim, 0, values, indices) < 0) {
        goto error;
    }
    {
        mt_TensorObject *pair[2] = {values, indices};
        return mt_tuple_of(pair, 2);
    }

error:
    Py_XDECREF(x);
    Py_XDECREF(values);
    Py_XDECREF(indices);
    return NULL;
}

/* ---- logcumsumexp ------------------------------------------------------------------------------------ */

PyObject *
mt_logcumsumexp(mt_TensorObject *t, int64_t dim_arg)
{
    int dim;
    mt_TensorObject *x = NULL, *out = NULL;

    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (!mt_dtype_is_floating(t->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"logcumsumexp_out_cpu\" not implemented for '%s'",
                     mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    MT_BELOW_AUTOGRAD(x = contiguous_as(t, mt_dtype_compute(t->dtype)));
    if (x == NULL) {
        return NULL;
    }
    out = mt_scan_along(x, t->ndim > 0 ? dim : 0, MT_SCAN_LOGADDEXP, 0, 0);
    Py_DECREF(x);
    out = rounded_to(out, t->dtype);
    if (out != NULL && mt_ag_scan(MT_AG_LOGCUMSUMEXP, t, dim, 0, out, NULL) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

/* ---- minitorch.return_types.cummax / cummin ---------------------------------------------------------- */
