/* linalg.c: det, slogdet, inv_ex, solve_ex, svd, qr, eigh, cholesky_ex, solve_triangular, the LU family
 * (lu_factor_ex, lu_solve, lu_unpack's permutation), householder_product and the LDL family (ldl_factor_ex,
 * ldl_solve) (linalg.h). It owns torch's checks and
 * messages for them (in torch's order: the matrix shape, then the dtype, then the op's own arguments), the
 * batching, solve's vector-or-matrix rule and batch broadcasting, the info tensors and the _LinAlgError a
 * singular or NaN input raises. The numbers come from the host kernels (csrc/kernels/cpu/linalg.c) in
 * float64: every input goes through the copy machinery to a contiguous float64 host tensor and every result
 * back to the input's dtype and device (so float32 is computed in double and rounded once, and a CUDA
 * tensor's matrices are solved on the host, as torch itself does small ones through MAGMA). Matrix results
 * are laid out column-major in their last two dims, as LAPACK leaves torch's. No autograd here:
 * minitorch/_linalg.py records the nodes. */
#include "linalg.h"

#include "../kernels/cpu/linalg.h"
#include "copy.h"
#include "dispatch.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static PyObject *linalg_error = NULL;   /* minitorch._C._LinAlgError */

/* ---- checks ------------------------------------------------------------------------------------------ */

static int
check_matrix(const mt_TensorObject *t, const char *fn, const char *arg)
{
    if (t->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: The input tensor %s must have at least 2 dimensions.", fn, arg);
        return -1;
    }
    return 0;
}

static int
check_square(const mt_TensorObject *A, const char *fn)
{
    if (check_matrix(A, fn, "A") < 0) {
        return -1;
    }
    if (A->sizes[A->ndim - 1] != A->sizes[A->ndim - 2]) {
        PyErr_Format(PyExc_RuntimeError, "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
                     fn, (long long)A->sizes[A->ndim - 2], (long long)A->sizes[A->ndim - 1]);
        return -1;
    }
    return 0;
}

/* torch's meta functions (Python) print a dtype as torch.int64 where ATen's checks print Long (logdet, a
 * composite, keeps ATen's checks on meta) */
static void
format_dtype(const mt_TensorObject *A, const char *fn, char *buf, size_t len)
{
    if (mt_tensor_device(A).type == MT_DEVICE_META && strcmp(fn, "logdet") != 0) {
        snprintf(buf, len, "torch.%s", mt_dtype_name(A->dtype));
    }
    else {
        snprintf(buf, len, "%s", mt_dtype_scalar_name(A->dtype));
    }
}

/* ... and a size as torch.Size([3]) where ATen prints [3] */
static void
format_size(const mt_TensorObject *A, char *buf, size_t len)
{
    char shape[240];

    mt_format_shape(A->ndim, A->sizes, shape, sizeof shape);
    snprintf(buf, len, mt_tensor_device(A).type == MT_DEVICE_META ? "torch.Size(%s)" : "%s", shape);
}

static int
check_floating(const mt_TensorObject *A, const char *fn)
{
    char name[32];

    if (!mt_dtype_is_floating(A->dtype)) {
        format_dtype(A, fn, name, sizeof name);
        PyErr_Format(PyExc_RuntimeError, "%s: Expected a floating point or complex tensor as input. Got %s", fn, name);
        return -1;
    }
    return 0;
}

/* checkFloatingOrComplex without its low-precision dtypes (the ops that have no float16/bfloat16 path) */
static int
check_floating_full(const mt_TensorObject *A, const char *fn)
{
    char name[32];

    if (check_floating(A, fn) < 0) {
        return -1;
    }
    if (mt_dtype_is_reduced_floating(A->dtype)) {
        format_dtype(A, fn, name, sizeof name);
        PyErr_Format(PyExc_RuntimeError, "%s: Low precision dtypes not supported. Got %s", fn, name);
        return -1;
    }
    return 0;
}

/* check_square as torch's meta functions make it for A on the meta device (squareCheckInputs: an
 * AssertionError for too few dims), ATen's words elsewhere */
static int
check_square_input(const mt_TensorObject *A, const char *fn)
{
    if (mt_tensor_device(A).type == MT_DEVICE_META && A->ndim < 2 && strcmp(fn, "logdet") != 0) {
        PyErr_Format(PyExc_AssertionError, "%s: The input tensor must have at least 2 dimensions, got %d", fn,
                     A->ndim);
        return -1;
    }
    return check_square(A, fn);
}

/* The kernels torch dispatches to LAPACK take float32 and float64 (and complex) only: its dispatch error
 * "\"cholesky_cpu\" not implemented for 'Half'" otherwise (a meta function dispatches on no dtype). */
static int
check_lapack_dtype(mt_dtype dtype, const char *kernel, mt_device device)
{
    if (dtype == MT_FLOAT32 || dtype == MT_FLOAT64 || device.type == MT_DEVICE_META) {
        return 0;
    }
    PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for '%s'", kernel,
                 device.type == MT_DEVICE_CPU ? "cpu" : "cuda", mt_dtype_scalar_name(dtype));
    return -1;
}

/* The number of matrices of t the kernels compute: the product of all but the last two sizes, or none on
 * the meta device, where every op here makes its results' shapes, dtypes and strides only (as torch's meta
 * functions do) and no check that reads values runs. */
static int64_t
batch_count(const mt_TensorObject *t)
{
    int64_t count = 1;
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        return 0;
    }
    for (int d = 0; d < t->ndim - 2; d++) {
        count *= t->sizes[d];
    }
    return count;
}

/* torch's _linalg_check_errors: an error of `type` (_LinAlgError for most) for the first failed matrix,
 * "(Batch element i): " after the api name when the input is a batch. */
static void
raise_batch_error(PyObject *type, const char *api, int batched, int64_t index, const char *what)
{
    if (batched) {
        PyErr_Format(type, "%s: (Batch element %lld): %s", api, (long long)index, what);
    }
    else {
        PyErr_Format(type, "%s: %s", api, what);
    }
}

static void
raise_linalg_error(const char *api, int batched, int64_t index, const char *what)
{
    raise_batch_error(linalg_error, api, batched, index, what);
}

/* ---- host copies and results -------------------------------------------------------------------------- */

/* t's values in `dtype` on `device`, laid out row-major (contiguous): mt_copy_to would keep a transposed
 * input's permuted layout, and the kernels read rows. */
static mt_TensorObject *
copy_contiguous(mt_TensorObject *t, mt_dtype dtype, mt_device device)
{
    mt_TensorObject *out = mt_tensor_empty(t->ndim, t->sizes, dtype, device);
    if (out != NULL && mt_copy_(out, t) < 0) {
        Py_CLEAR(out);
    }
    return out;
}

/* Where the float64 working copies of t live: the host, or the meta device for a meta t (no data). */
static mt_device
work_device(const mt_TensorObject *t)
{
    return mt_tensor_device(t).type == MT_DEVICE_META ? mt_tensor_device(t) : mt_cpu_device();
}

static mt_TensorObject *
host_f64(mt_TensorObject *t)
{
    return copy_contiguous(t, MT_FLOAT64, work_device(t));
}

/* A new float64 host tensor of t's batch shape followed by the given trailing sizes. */
static mt_TensorObject *
host_batch_empty(const mt_TensorObject *t, int ntrail, int64_t r, int64_t c, mt_dtype dtype)
{
    int64_t sizes[MT_MAX_DIMS];
    int nb = t->ndim - 2;

    for (int d = 0; d < nb; d++) {
        sizes[d] = t->sizes[d];
    }
    if (ntrail >= 1) {
        sizes[nb] = r;
    }
    if (ntrail >= 2) {
        sizes[nb + 1] = c;
    }
    return mt_tensor_empty(nb + ntrail, sizes, dtype, work_device(t));
}

/* host's values in `dtype` on `device` (a new tensor); colmajor: the last two dims laid out column-major
 * (strides 1 and rows), as LAPACK leaves torch's matrix results. Steals host. */
static mt_TensorObject *
to_result(mt_TensorObject *host, mt_dtype dtype, mt_device device, int colmajor)
{
    mt_TensorObject *src = host, *out = NULL;
    int nd = host->ndim;

    if (colmajor && nd >= 2) {
        src = mt_transpose(host, -2, -1);
        if (src == NULL) {
            Py_DECREF(host);
            return NULL;
        }
    }
    out = copy_contiguous(src, dtype, device);
    if (out != NULL && src != host) {
        /* out holds host's transpose contiguously: give it host's shape with column-major strides */
        int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
        memcpy(sizes, host->sizes, (size_t)nd * sizeof(int64_t));
        memcpy(strides, out->strides, (size_t)nd * sizeof(int64_t));
        strides[nd - 2] = out->strides[nd - 1];
        strides[nd - 1] = out->strides[nd - 2];
        if (mt_tensor_set_geometry(out, nd, sizes, strides) < 0) {
            Py_CLEAR(out);
        }
    }
    if (src != host) {
        Py_DECREF(src);
    }
    Py_DECREF(host);
    return out;
}

/* An empty (0,) tensor of dtype on device: the factors an op was asked not to compute. */
static mt_TensorObject *
empty_factor(mt_dtype dtype, mt_device device)
{
    int64_t zero = 0;
    return mt_tensor_empty(1, &zero, dtype, device);
}

/* The tuple of an op's n host float64 results, each moved to `dtype` on `device` (bit i of colmajor: res[i]
 * column-major in its last two dims), or torch's empty tensor for a factor not computed (res[i] NULL).
 * Steals res. */
static PyObject *
pack_results(int n, mt_TensorObject **res, unsigned colmajor, mt_dtype dtype, mt_device device)
{
    for (int i = 0; i < n; i++) {
        res[i] = res[i] != NULL ? to_result(res[i], dtype, device, (colmajor >> i) & 1) : empty_factor(dtype, device);
        if (res[i] == NULL) {
            for (int j = 0; j < n; j++) {
                Py_XDECREF(res[j]);
            }
            return NULL;
        }
    }
    return mt_tuple_of(res, n);
}

/* The tuple (factor, pivots, info) of a pivoted factorisation from its host results: the float64 factor
 * moved to `dtype` on `device` column-major, the int32 pivots and info to `device`. Steals res. */
static PyObject *
pack_factorization(mt_TensorObject **res, mt_dtype dtype, mt_device device)
{
    for (int i = 0; i < 3; i++) {
        res[i] = to_result(res[i], i == 0 ? dtype : MT_INT32, device, i == 0);
        if (res[i] == NULL) {
            for (int j = i + 1; j < 3; j++) {
                Py_DECREF(res[j]);
            }
            for (int j = 0; j < i; j++) {
                Py_DECREF(res[j]);
            }
            return NULL;
        }
    }
    return mt_tuple_of(res, 3);
}

/* A kernel's -1: it had no scratch memory. */
static int
kernel_status(int rc)
{
    if (rc < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ---- det and slogdet ------------------------------------------------------------------------------------ */

/* det = (-1)^(row swaps) * prod(diag(U)) of each matrix's LU factorisation; 1 for 0 x 0. */
PyObject *
mt_linalg_det(mt_TensorObject *A)
{
    mt_TensorObject *x = NULL, *out = NULL;

    if (check_square_input(A, "linalg.det") < 0 || check_floating(A, "linalg.det") < 0 ||
        (mt_tensor_numel(A) > 0 && check_lapack_dtype(A->dtype, "lu", mt_tensor_device(A)) < 0)) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    x = host_f64(A);
    out = x != NULL ? host_batch_empty(A, 0, 0, 0, MT_FLOAT64) : NULL;
    if (out == NULL || kernel_status(mt_cpu_det_batch((double *)mt_tensor_data(x), n, batch,
                                                      (double *)mt_tensor_data(out))) < 0) {
        goto error;
    }
    Py_DECREF(x);
    return (PyObject *)to_result(out, A->dtype, mt_tensor_device(A), 0);
error:
    Py_XDECREF(x);
    Py_XDECREF(out);
    return NULL;
}

PyObject *
mt_linalg_slogdet(mt_TensorObject *A, int logdet)
{
    const char *fn = logdet ? "logdet" : "linalg.slogdet";
    mt_TensorObject *x = NULL, *res[2] = {NULL, NULL};

    if (check_square_input(A, fn) < 0 || check_floating_full(A, fn) < 0) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    x = host_f64(A);
    res[0] = x != NULL ? host_batch_empty(A, 0, 0, 0, MT_FLOAT64) : NULL;
    res[1] = res[0] != NULL ? host_batch_empty(A, 0, 0, 0, MT_FLOAT64) : NULL;
    if (res[1] == NULL || kernel_status(mt_cpu_slogdet_batch((double *)mt_tensor_data(x), n, batch,
                                                             (double *)mt_tensor_data(res[0]),
                                                             (double *)mt_tensor_data(res[1]))) < 0) {
        goto error;
    }
    Py_DECREF(x);
    return pack_results(2, res, 0, A->dtype, mt_tensor_device(A));
error:
    Py_XDECREF(x);
    Py_XDECREF(res[0]);
    Py_XDECREF(res[1]);
    return NULL;
}

/* ---- inv_ex and solve_ex ------------------------------------------------------------------------------ */

static const char singular_inv[] =
    "The diagonal element %lld is zero, the inversion could not be completed because the input matrix is "
    "singular.";
static const char singular_solve[] = "The solver failed because the input matrix is singular.";

/* The results of inv_ex / solve_ex: result and int32 info moved to `device`, or the _LinAlgError. */
static PyObject *
finish_solve(mt_TensorObject *result, mt_TensorObject *info, int check_errors, const char *api, int batched,
             int inverse, mt_dtype dtype, mt_device device, int colmajor)
{
    mt_TensorObject *res[2];

    if (check_errors && mt_tensor_device(info).type != MT_DEVICE_META) {
        const int32_t *in = (const int32_t *)mt_tensor_data(info);
        int64_t count = mt_tensor_numel(info);
        for (int64_t b = 0; b < count; b++) {
            if (in[b] != 0) {
                if (inverse) {
                    char what[200];
                    snprintf(what, sizeof what, singular_inv, (long long)in[b]);
                    raise_linalg_error(api, batched, b, what);
                }
                else {
                    raise_linalg_error(api, batched, b, singular_solve);
                }
                Py_DECREF(result);
                Py_DECREF(info);
                return NULL;
            }
        }
    }
    res[0] = to_result(result, dtype, device, colmajor);
    if (res[0] == NULL) {
        Py_DECREF(info);
        return NULL;
    }
    res[1] = to_result(info, MT_INT32, device, 0);
    if (res[1] == NULL) {
        Py_DECREF(res[0]);
        return NULL;
    }
    return mt_tuple_of(res, 2);
}

PyObject *
mt_linalg_inv_ex(mt_TensorObject *A, int check_errors, const char *api_name)
{
    mt_TensorObject *x = NULL, *out = NULL, *info = NULL;

    /* torch's meta function names linalg.inv_ex */
    const char *fn = mt_tensor_device(A).type == MT_DEVICE_META ? "linalg.inv_ex" : "linalg.inv";
    if (check_square_input(A, fn) < 0 || check_floating_full(A, fn) < 0) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    x = host_f64(A);
    out = x != NULL ? host_batch_empty(A, 2, n, n, MT_FLOAT64) : NULL;
    info = out != NULL ? host_batch_empty(A, 0, 0, 0, MT_INT32) : NULL;
    if (info == NULL || kernel_status(mt_cpu_inv_batch((double *)mt_tensor_data(x), n, batch,
                                                       (double *)mt_tensor_data(out),
                                                       (int32_t *)mt_tensor_data(info))) < 0) {
        goto error;
    }
    Py_DECREF(x);
    return finish_solve(out, info, check_errors, api_name, A->ndim > 2, 1, A->dtype, mt_tensor_device(A), 1);
error:
    Py_XDECREF(x);
    Py_XDECREF(out);
    Py_XDECREF(info);
    return NULL;
}

/* torch's checkInputsSolver, after A's and B's own shape checks: B's rows (left: A X = B) or columns
 * (X A = B) must be A's order n. */
static int
check_solver_shapes(const char *fn, int64_t n, const mt_TensorObject *B, int left)
{
    int64_t br = B->sizes[B->ndim - 2], bc = B->sizes[B->ndim - 1];

    if (left ? n != br : n != bc) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)", fn,
                     left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)br, (long long)bc);
        return -1;
    }
    return 0;
}

/* The matrices of A and B expanded to their common batch shape (nbatch dims), as contiguous float64 host
 * copies: *xa and *xb (new references), or -1 with both NULL. */
static int
host_f64_broadcast(mt_TensorObject *A, mt_TensorObject *B, int nbatch, const int64_t *batch_shape,
                   mt_TensorObject **xa, mt_TensorObject **xb)
{
    int64_t sizes[MT_MAX_DIMS];
    mt_TensorObject *Ae, *Be;

    *xa = *xb = NULL;
    memcpy(sizes, batch_shape, (size_t)nbatch * sizeof(int64_t));
    memcpy(sizes + nbatch, A->sizes + A->ndim - 2, 2 * sizeof(int64_t));
    Ae = mt_expand(A, nbatch + 2, sizes);
    memcpy(sizes + nbatch, B->sizes + B->ndim - 2, 2 * sizeof(int64_t));
    Be = Ae != NULL ? mt_expand(B, nbatch + 2, sizes) : NULL;
    *xa = Be != NULL ? host_f64(Ae) : NULL;
    *xb = *xa != NULL ? host_f64(Be) : NULL;
    Py_XDECREF(Ae);
    Py_XDECREF(Be);
    if (*xb == NULL) {
        Py_CLEAR(*xa);
        return -1;
    }
    return 0;
}

/* torch's linalg_solve_is_vector_rhs: B is a vector (batch) when it is 1-D, or has A's batch shape with
 * one dim less. */
static int
solve_is_vector_rhs(const mt_TensorObject *A, const mt_TensorObject *B)
{
    if (B->ndim == 1) {
        return 1;
    }
    if (A->ndim - 1 != B->ndim) {
        return 0;
    }
    for (int d = 0; d < B->ndim; d++) {
        if (B->sizes[d] != A->sizes[d]) {
            return 0;
        }
    }
    return 1;
}

PyObject *
mt_linalg_solve_ex(mt_TensorObject *A, mt_TensorObject *B, int left, int check_errors, const char *api_name)
{
    const char *fn = "linalg.solve";
    mt_TensorObject *Bm = NULL, *xa = NULL, *xb = NULL, *out = NULL, *info = NULL;
    mt_TensorObject *operands[2] = {A, B};
    int64_t batch_shape[MT_MAX_DIMS];
    int nbatch;
    mt_device device;

    if (check_floating(A, fn) < 0) {
        return NULL;
    }
    if (A->dtype != B->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead",
                     fn, mt_dtype_scalar_name(A->dtype), mt_dtype_scalar_name(B->dtype));
        return NULL;
    }
    if (mt_check_same_device(NULL, 2, operands, &device) < 0) {
        return NULL;
    }
    int vector_case = solve_is_vector_rhs(A, B);
    Bm = vector_case ? mt_unsqueeze(B, -1) : (Py_INCREF(B), B);
    if (Bm == NULL) {
        return NULL;
    }
    if (check_square_input(A, fn) < 0 || check_matrix(Bm, fn, "B") < 0) {
        goto error;
    }
    int64_t n = A->sizes[A->ndim - 1];
    int64_t br = Bm->sizes[Bm->ndim - 2], bc = Bm->sizes[Bm->ndim - 1];
    if (check_solver_shapes(fn, n, Bm, left) < 0) {
        goto error;
    }
    if (mt_broadcast_shapes(Bm->ndim - 2, Bm->sizes, A->ndim - 2, A->sizes, &nbatch, batch_shape) < 0) {
        goto error;
    }
    if (!left && vector_case) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Vector broadcasting of the left hand side is not supported for left=False. In this case "
                     "linalg.solve is equivalent to B / A.squeeze(-1)", fn);
        goto error;
    }
    if (mt_tensor_numel(A) > 0 && check_lapack_dtype(A->dtype, "lu", device) < 0) {
        goto error;     /* its LU factorisation's dispatch */
    }
    info = host_f64_broadcast(A, Bm, nbatch, batch_shape, &xa, &xb) == 0 ? host_batch_empty(xa, 0, 0, 0, MT_INT32)
                                                                         : NULL;
    if (info == NULL ||
        kernel_status(mt_cpu_solve_batch((double *)mt_tensor_data(xa), (double *)mt_tensor_data(xb), n,
                                         left ? bc : br, left, batch_count(xa), (int32_t *)mt_tensor_data(info))) < 0) {
        goto error;
    }
    int batched = nbatch > 0;
    if (vector_case) {
        int64_t last = -1;
        out = mt_squeeze(xb, 1, &last);     /* a view: to_result copies it out */
        Py_CLEAR(xb);
        if (out == NULL) {
            goto error;
        }
    }
    else {
        out = xb;
        xb = NULL;
    }
    Py_DECREF(Bm);
    Py_DECREF(xa);
    /* torch lays the result out column-major in its last two dims for left=True (a batch of vectors
     * included), row-major for left=False */
    return finish_solve(out, info, check_errors, api_name, batched, 0, A->dtype, device, left);
error:
    Py_XDECREF(Bm);
    Py_XDECREF(xa);
    Py_XDECREF(xb);
    Py_XDECREF(out);
    Py_XDECREF(info);
    return NULL;
}

/* ---- svd ---------------------------------------------------------------------------------------------- */

PyObject *
mt_linalg_svd(mt_TensorObject *A, int full_matrices, int compute_uv)
{
    const char *fn = "linalg.svd";
    mt_TensorObject *x = NULL, *res[3] = {NULL, NULL, NULL};
    mt_device device = mt_tensor_device(A);

    if (check_matrix(A, fn, "A") < 0 || check_floating(A, fn) < 0 ||
        (mt_tensor_numel(A) > 0 && check_lapack_dtype(A->dtype, "linalg_svd", device) < 0)) {
        return NULL;
    }
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n;
    int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
    int64_t batch = batch_count(A);
    x = host_f64(A);
    if (x == NULL) {
        return NULL;
    }
    const double *a = (const double *)mt_tensor_data(x);
    int64_t bad = mt_cpu_first_nan_matrix(a, m * n, batch);
    if (bad >= 0) {
        raise_linalg_error(fn, A->ndim > 2, bad,
                           "The algorithm failed to converge because the input matrix contained non-finite values.");
        goto error;
    }
    res[1] = host_batch_empty(A, 1, k, 0, MT_FLOAT64);
    if (res[1] == NULL) {
        goto error;
    }
    if (compute_uv) {
        res[0] = host_batch_empty(A, 2, m, ucols, MT_FLOAT64);
        res[2] = res[0] != NULL ? host_batch_empty(A, 2, vrows, n, MT_FLOAT64) : NULL;
        if (res[2] == NULL) {
            goto error;
        }
    }
    int has_work = k > 0 || (compute_uv && (m * ucols > 0 || vrows * n > 0));
    if (kernel_status(mt_cpu_svd_batch(a, m, n, has_work ? batch : 0, (double *)mt_tensor_data(res[1]),
                                       compute_uv ? (double *)mt_tensor_data(res[0]) : NULL, ucols,
                                       compute_uv ? (double *)mt_tensor_data(res[2]) : NULL, vrows)) < 0) {
        goto error;
    }
    Py_DECREF(x);
    /* U and Vh column-major, as LAPACK leaves them; torch's meta function makes Vh row-major */
    return pack_results(3, res, device.type == MT_DEVICE_META ? 1 : 5, A->dtype, device);
error:
    Py_XDECREF(x);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(res[i]);
    }
    return NULL;
}

/* ---- qr ----------------------------------------------------------------------------------------------- */

PyObject *
mt_linalg_qr(mt_TensorObject *A, const char *mode)
{
    const char *fn = "linalg.qr";
    mt_TensorObject *x = NULL, *res[2] = {NULL, NULL};
    mt_device device = mt_tensor_device(A);
    int compute_q, complete;

    if (check_matrix(A, fn, "A") < 0 || check_floating(A, fn) < 0) {
        return NULL;
    }
    if (strcmp(mode, "reduced") == 0 || strcmp(mode, "complete") == 0 || strcmp(mode, "r") == 0) {
        compute_q = strcmp(mode, "r") != 0;
        complete = strcmp(mode, "complete") == 0;
    }
    else {
        PyErr_Format(PyExc_RuntimeError,
                     "qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'",
                     mode);
        return NULL;
    }
    if (check_lapack_dtype(A->dtype, "geqrf", device) < 0) {
        return NULL;
    }
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n;
    int64_t qcols = complete ? m : k, rrows = complete ? m : k;
    int64_t batch = batch_count(A);
    /* the results first (the largest first), so that sizes too large fail before any copying */
    if (compute_q) {
        res[0] = host_batch_empty(A, 2, m, qcols, MT_FLOAT64);
        if (res[0] == NULL) {
            goto error;
        }
    }
    res[1] = host_batch_empty(A, 2, rrows, n, MT_FLOAT64);
    x = res[1] != NULL ? host_f64(A) : NULL;
    if (x == NULL) {
        goto error;
    }
    /* a batch loop only when there are elements to write (so the batch is bounded by memory) */
    int has_work = rrows * n > 0 || (compute_q && m * qcols > 0);
    if (kernel_status(mt_cpu_qr_batch((double *)mt_tensor_data(x), m, n, has_work ? batch : 0,
                                      (double *)mt_tensor_data(res[1]), rrows,
                                      compute_q ? (double *)mt_tensor_data(res[0]) : NULL, qcols)) < 0) {
        goto error;
    }
    Py_DECREF(x);
    return pack_results(2, res, 3, A->dtype, device);
error:
    Py_XDECREF(x);
    Py_XDECREF(res[0]);
    Py_XDECREF(res[1]);
    return NULL;
}

/* ---- eigh --------------------------------------------------------------------------------------------- */

PyObject *
mt_linalg_eigh(mt_TensorObject *A, const char *uplo, int compute_v)
{
    const char *fn = "linalg.eigh";
    mt_TensorObject *x = NULL, *res[2] = {NULL, NULL};
    mt_device device = mt_tensor_device(A);
    int upper;

    if (check_square_input(A, fn) < 0) {
        return NULL;
    }
    if (strlen(uplo) == 1 && (uplo[0] == 'U' || uplo[0] == 'u' || uplo[0] == 'L' || uplo[0] == 'l')) {
        upper = uplo[0] == 'U' || uplo[0] == 'u';
    }
    else {
        PyErr_Format(PyExc_RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got %s", uplo);
        return NULL;
    }
    if (!mt_dtype_is_floating(A->dtype) && device.type != MT_DEVICE_META) {
        PyErr_Format(PyExc_NotImplementedError, "\"linalg_eigh_%s\" not implemented for '%s'",
                     device.type == MT_DEVICE_CPU ? "cpu" : "cuda", mt_dtype_scalar_name(A->dtype));
        return NULL;
    }
    if (mt_tensor_numel(A) > 0 && check_lapack_dtype(A->dtype, "linalg_eigh", device) < 0) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    x = host_f64(A);
    res[0] = x != NULL ? host_batch_empty(A, 1, n, 0, MT_FLOAT64) : NULL;
    if (res[0] == NULL) {
        goto error;
    }
    if (compute_v) {
        res[1] = host_batch_empty(A, 2, n, n, MT_FLOAT64);
        if (res[1] == NULL) {
            goto error;
        }
    }
    if (kernel_status(mt_cpu_eigh_batch((double *)mt_tensor_data(x), n, batch, upper, (double *)mt_tensor_data(res[0]),
                                        compute_v ? (double *)mt_tensor_data(res[1]) : NULL)) < 0) {
        goto error;
    }
    Py_DECREF(x);
    return pack_results(2, res, 2, A->dtype, device);
error:
    Py_XDECREF(x);
    Py_XDECREF(res[0]);
    Py_XDECREF(res[1]);
    return NULL;
}

/* ---- cholesky_ex and solve_triangular ------------------------------------------------------------ */

PyObject *
mt_linalg_cholesky_ex(mt_TensorObject *A, int upper, int check_errors, const char *api_name)
{
    /* the checks name linalg.cholesky, or torch.cholesky's own name */
    const char *fn = strcmp(api_name, "cholesky") == 0 ? "cholesky" : "linalg.cholesky";
    mt_TensorObject *x = NULL, *info = NULL;

    /* torch.cholesky has no floating check of its own; an empty input returns before torch's LAPACK
     * dispatch */
    if (check_square_input(A, fn) < 0 || (fn[0] == 'l' && check_floating(A, fn) < 0) ||
        (mt_tensor_numel(A) > 0 && check_lapack_dtype(A->dtype, "cholesky", mt_tensor_device(A)) < 0)) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    x = host_f64(A);
    info = x != NULL ? host_batch_empty(A, 0, 0, 0, MT_INT32) : NULL;
    if (info == NULL || kernel_status(mt_cpu_cholesky_batch((double *)mt_tensor_data(x), n, batch, upper,
                                                            (int32_t *)mt_tensor_data(info))) < 0) {
        Py_XDECREF(x);
        Py_XDECREF(info);
        return NULL;
    }
    if (check_errors) {
        const int32_t *in = (const int32_t *)mt_tensor_data(info);
        for (int64_t b = 0; b < batch; b++) {
            if (in[b] != 0) {
                char what[200];
                snprintf(what, sizeof what,
                         "The factorization could not be completed because the input is not positive-definite "
                         "(the leading minor of order %lld is not positive-definite).", (long long)in[b]);
                raise_linalg_error(api_name, A->ndim > 2, b, what);
                Py_DECREF(x);
                Py_DECREF(info);
                return NULL;
            }
        }
    }
    return finish_solve(x, info, 0, api_name, A->ndim > 2, 0, A->dtype, mt_tensor_device(A), 1);
}

PyObject *
mt_linalg_solve_triangular(mt_TensorObject *A, mt_TensorObject *B, int upper, int left, int unitriangular)
{
    const char *fn = "linalg.solve_triangular";
    mt_TensorObject *xa = NULL, *xb = NULL;
    mt_TensorObject *operands[2] = {A, B};
    int64_t batch_shape[MT_MAX_DIMS];
    int nbatch;
    mt_device device;

    if (check_square_input(A, fn) < 0 || check_matrix(B, fn, "B") < 0) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1];
    if (check_solver_shapes(fn, n, B, left) < 0 ||
        mt_broadcast_shapes(B->ndim - 2, B->sizes, A->ndim - 2, A->sizes, &nbatch, batch_shape) < 0 ||
        mt_check_same_device(NULL, 2, operands, &device) < 0 ||
        /* torch's kernel dispatches on A's dtype, the solution's; B is converted to it */
        check_lapack_dtype(A->dtype, "triangular_solve", device) < 0 ||
        host_f64_broadcast(A, B, nbatch, batch_shape, &xa, &xb) < 0) {
        return NULL;
    }
    int64_t k = left ? B->sizes[B->ndim - 1] : B->sizes[B->ndim - 2];
    if (kernel_status(mt_cpu_triangular_solve_batch((double *)mt_tensor_data(xa), (double *)mt_tensor_data(xb), n, k,
                                                    upper, left, unitriangular, batch_count(xa))) < 0) {
        Py_CLEAR(xb);
    }
    Py_DECREF(xa);
    /* torch lays the solution out column-major in its last two dims */
    return xb != NULL ? (PyObject *)to_result(xb, A->dtype, device, 1) : NULL;
}

/* ---- the LU family: lu_factor_ex, lu_solve, lu_unpack's permutation ----------------------------- */

PyObject *
mt_linalg_lu_factor_ex(mt_TensorObject *A, int pivot, int check_errors, const char *api_name)
{
    mt_TensorObject *x = NULL, *res[3] = {NULL, NULL, NULL};
    mt_device device = mt_tensor_device(A);

    if (A->ndim < 2) {
        char shape[256];
        format_size(A, shape, sizeof shape);
        /* torch's meta function names torch.lu_factor, linalg.lu its own */
        PyErr_Format(PyExc_RuntimeError, "%s: Expected tensor with 2 or more dimensions. Got size: %s instead",
                     strcmp(api_name, "linalg.lu") == 0 ? "linalg.lu" : "torch.lu_factor", shape);
        return NULL;
    }
    /* an empty input returns before the kernel's dtype dispatch and the pivot check */
    if (mt_tensor_numel(A) > 0) {
        if (check_lapack_dtype(A->dtype, "lu", device) < 0) {
            return NULL;
        }
        if (!pivot && device.type == MT_DEVICE_CPU) {
            PyErr_SetString(PyExc_RuntimeError, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
            return NULL;
        }
    }
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n, batch = batch_count(A);
    x = host_f64(A);
    res[1] = x != NULL ? host_batch_empty(A, 1, k, 0, MT_INT32) : NULL;
    res[2] = res[1] != NULL ? host_batch_empty(A, 0, 0, 0, MT_INT32) : NULL;
    if (res[2] == NULL ||
        kernel_status(mt_cpu_lu_factor_batch((double *)mt_tensor_data(x), m, n, k > 0 ? batch : 0, pivot,
                                             (int32_t *)mt_tensor_data(res[1]),
                                             (int32_t *)mt_tensor_data(res[2]))) < 0) {
        goto error;
    }
    if (k == 0 && batch > 0) {
        memset(mt_tensor_data(res[2]), 0, (size_t)batch * sizeof(int32_t));
    }
    if (check_errors) {
        const int32_t *info = (const int32_t *)mt_tensor_data(res[2]);
        for (int64_t b = 0; b < batch; b++) {
            if (info[b] != 0) {
                char what[300];
                snprintf(what, sizeof what,
                         "U[%d,%d] is zero and using it on lu_solve would result in a division by zero. If you "
                         "still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                         "linalg.lu_factor_ex(A, pivot)", (int)info[b], (int)info[b]);
                /* a plain RuntimeError, not _LinAlgError, as torch's */
                raise_batch_error(PyExc_RuntimeError, api_name, A->ndim > 2, b, what);
                goto error;
            }
        }
    }
    res[0] = x;
    return pack_factorization(res, A->dtype, device);
error:
    Py_XDECREF(x);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(res[i]);
    }
    return NULL;
}

/* pivots (*, n) must have the factorisation's (*, n, n) shape less its last dim: torch's words, the factor
 * named (LU, LD). */
static int
check_pivots_shape(const char *fn, const char *factor_name, const mt_TensorObject *factor,
                   const mt_TensorObject *pivots)
{
    if (pivots->ndim != factor->ndim - 1 ||
        memcmp(pivots->sizes, factor->sizes, (size_t)pivots->ndim * sizeof(int64_t)) != 0) {
        char shape[256];
        mt_format_shape(pivots->ndim, pivots->sizes, shape, sizeof shape);
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Expected %s.shape[:-1] and pivots.shape to be the same, but got pivots with shape %s "
                     "instead", fn, factor_name, shape);
        return -1;
    }
    return 0;
}

/* pivots as a contiguous int32 host tensor of the given batch shape followed by its own last size. */
static mt_TensorObject *
host_pivots(mt_TensorObject *pivots, int nbatch, const int64_t *batch_shape)
{
    int64_t sizes[MT_MAX_DIMS];
    mt_TensorObject *expanded, *out;

    memcpy(sizes, batch_shape, (size_t)nbatch * sizeof(int64_t));
    sizes[nbatch] = pivots->sizes[pivots->ndim - 1];
    expanded = mt_expand(pivots, nbatch + 1, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    out = copy_contiguous(expanded, MT_INT32, work_device(pivots));
    Py_DECREF(expanded);
    return out;
}

PyObject *
mt_linalg_lu_solve(mt_TensorObject *LU, mt_TensorObject *pivots, mt_TensorObject *B, int left, int adjoint)
{
    const char *fn = "linalg.lu_solve";
    mt_TensorObject *Bt = NULL, *xa = NULL, *xb = NULL, *xp = NULL, *result = NULL;
    mt_TensorObject *operands[3] = {LU, pivots, B};
    int64_t batch_shape[MT_MAX_DIMS];
    int nbatch;
    mt_device device;

    if (check_floating(LU, "torch.linalg.lu_solve") < 0) {
        return NULL;
    }
    if (LU->dtype != B->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Expected LU and B to have the same dtype, but found LU of type %s and B of type %s instead",
                     fn, mt_dtype_scalar_name(LU->dtype), mt_dtype_scalar_name(B->dtype));
        return NULL;
    }
    if (pivots->dtype != MT_INT32) {
        PyErr_Format(PyExc_RuntimeError, "%s: pivots should be a Tensor of scalar type torch.int32", fn);
        return NULL;
    }
    if (check_square(LU, "torch.linalg.lu_solve") < 0 || check_matrix(B, fn, "B") < 0) {
        return NULL;
    }
    int64_t n = LU->sizes[LU->ndim - 1];
    if (check_solver_shapes(fn, n, B, left) < 0) {
        return NULL;
    }
    if (pivots->ndim == 0 || pivots->sizes[pivots->ndim - 1] != n) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Number of pivots per batch should be same as the dimension of the matrix", fn);
        return NULL;
    }
    if (check_pivots_shape(fn, "LU", LU, pivots) < 0) {
        return NULL;
    }
    if (mt_broadcast_shapes(B->ndim - 2, B->sizes, LU->ndim - 2, LU->sizes, &nbatch, batch_shape) < 0 ||
        mt_check_same_device(NULL, 3, operands, &device) < 0 ||
        check_lapack_dtype(LU->dtype, "linalg.lu_solve", device) < 0) {
        return NULL;
    }
    /* X A = B is A^T X^T = B^T (and X A^T = B is A X^T = B^T): solve for B^T, a host (n x k) row-major copy */
    Bt = left ? (Py_INCREF(B), B) : mt_transpose(B, -2, -1);
    if (Bt == NULL || host_f64_broadcast(LU, Bt, nbatch, batch_shape, &xa, &xb) < 0) {
        goto error;
    }
    xp = host_pivots(pivots, nbatch, batch_shape);
    if (xp == NULL) {
        goto error;
    }
    int64_t k = Bt->sizes[Bt->ndim - 1];
    int rc = mt_cpu_lu_solve_batch((const double *)mt_tensor_data(xa), (const int32_t *)mt_tensor_data(xp), n,
                                   (double *)mt_tensor_data(xb), k, left ? adjoint : !adjoint,
                                   n > 0 && k > 0 ? batch_count(xa) : 0);
    if (rc == -2) {
        /* LAPACK's getrs would read outside the matrix */
        PyErr_Format(PyExc_RuntimeError, "%s: pivots must be between 1 and LU.size(-2) inclusive", fn);
        goto error;
    }
    if (kernel_status(rc) < 0) {
        goto error;
    }
    if (left) {
        result = to_result(xb, LU->dtype, device, 1);
    }
    else {
        /* torch lays the solution of X A = B out row-major: xb holds its transpose row-major */
        mt_TensorObject *view = mt_transpose(xb, -2, -1);
        Py_DECREF(xb);
        result = view != NULL ? to_result(view, LU->dtype, device, 0) : NULL;
    }
    xb = NULL;
error:
    Py_XDECREF(Bt);
    Py_XDECREF(xa);
    Py_XDECREF(xb);
    Py_XDECREF(xp);
    return (PyObject *)result;
}

PyObject *
mt_linalg_lu_unpack_pivots(mt_TensorObject *LU, mt_TensorObject *pivots, int unpack_pivots)
{
    mt_TensorObject *xp = NULL, *P = NULL;
    mt_device device = mt_tensor_device(LU);

    if (LU->ndim < 2) {
        char shape[256];
        format_size(LU, shape, sizeof shape);
        PyErr_Format(PyExc_RuntimeError, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: %s "
                     "instead", shape);
        return NULL;
    }
    if (!unpack_pivots) {
        return (PyObject *)empty_factor(LU->dtype, device);
    }
    /* the pivots are checked only when they are unpacked */
    if (pivots->dtype != MT_INT32) {
        PyErr_SetString(PyExc_RuntimeError,
                        "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                        "Note: this function is intended to be used with the output produced by "
                        "torch.linalg.lu_factor");
        return NULL;
    }
    if (pivots->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "torch.lu_unpack: LU_pivots must have at least 1 dimension");
        return NULL;
    }
    int64_t m = LU->sizes[LU->ndim - 2], npiv = pivots->sizes[pivots->ndim - 1];
    P = host_batch_empty(LU, 2, m, m, MT_FLOAT64);
    if (P == NULL) {
        return NULL;
    }
    if (mt_tensor_numel(P) == 0) {
        /* no permutation to write: torch reads no pivots */
        return (PyObject *)to_result(P, LU->dtype, device, 0);
    }
    xp = host_pivots(pivots, LU->ndim - 2, LU->sizes);
    if (xp == NULL) {
        goto error;
    }
    int rc = mt_cpu_lu_permutation_batch((const int32_t *)mt_tensor_data(xp), npiv, m, batch_count(LU),
                                         (double *)mt_tensor_data(P));
    if (rc == -2) {
        PyErr_SetString(PyExc_RuntimeError, "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive."
                        "Did you properly pass the result of lu_factor?");
        goto error;
    }
    if (kernel_status(rc) < 0) {
        goto error;
    }
    Py_DECREF(xp);
    return (PyObject *)to_result(P, LU->dtype, device, 0);
error:
    Py_XDECREF(xp);
    Py_XDECREF(P);
    return NULL;
}

/* torch's checkSameDevice: t (named `name`) on input's device */
static int
check_same_device(const char *fn, const mt_TensorObject *t, const char *name, const mt_TensorObject *input)
{
    char a[32], b[32];

    if (mt_device_equal(mt_tensor_device(t), mt_tensor_device(input))) {
        return 0;
    }
    mt_device_format(mt_tensor_device(t), a, sizeof a);
    mt_device_format(mt_tensor_device(input), b, sizeof b);
    PyErr_Format(PyExc_RuntimeError, "%s: Expected %s and input tensors to be on the same device, but got %s on %s "
                 "and input on %s", fn, name, name, a, b);
    return -1;
}

/* ---- householder_product (orgqr) ------------------------------------------------------------------------- */

PyObject *
mt_linalg_householder_product(mt_TensorObject *A, mt_TensorObject *tau)
{
    const char *fn = "torch.linalg.householder_product";
    mt_TensorObject *x = NULL, *xt = NULL;
    mt_device device = mt_tensor_device(A);

    if (A->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: input must have at least 2 dimensions.", fn);
        return NULL;
    }
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
    if (m < n) {
        PyErr_Format(PyExc_RuntimeError, "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", fn);
        return NULL;
    }
    if (tau->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -1 but tensor has no dimensions");
        return NULL;
    }
    int64_t k = tau->sizes[tau->ndim - 1];
    if (n < k) {
        PyErr_Format(PyExc_RuntimeError, "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", fn);
        return NULL;
    }
    if (A->ndim - tau->ndim != 1) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Expected tau to have one dimension less than input, but got tau.ndim equal to %d and "
                     "input.ndim is equal to %d", fn, tau->ndim, A->ndim);
        return NULL;
    }
    if (A->ndim > 2 && memcmp(A->sizes, tau->sizes, (size_t)(A->ndim - 2) * sizeof(int64_t)) != 0) {
        char shape[256];
        mt_format_shape(tau->ndim - 1, tau->sizes, shape, sizeof shape);
        PyErr_Format(PyExc_RuntimeError,
                     "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s", fn, shape);
        return NULL;
    }
    if (tau->dtype != A->dtype) {
        PyErr_Format(PyExc_RuntimeError, "%s: tau dtype %s does not match input dtype %s", fn,
                     mt_dtype_scalar_name(tau->dtype), mt_dtype_scalar_name(A->dtype));
        return NULL;
    }
    if (check_same_device(fn, tau, "tau", A) < 0 || check_lapack_dtype(A->dtype, "orgqr", device) < 0) {
        return NULL;
    }
    x = host_f64(A);
    xt = x != NULL ? copy_contiguous(tau, MT_FLOAT64, work_device(tau)) : NULL;
    if (xt == NULL || kernel_status(mt_cpu_householder_product_batch((double *)mt_tensor_data(x), m, n,
                                                                      n > 0 ? batch_count(A) : 0,
                                                                      (const double *)mt_tensor_data(xt), k)) < 0) {
        Py_XDECREF(x);
        Py_XDECREF(xt);
        return NULL;
    }
    Py_DECREF(xt);
    return (PyObject *)to_result(x, A->dtype, device, 1);
}

/* ---- geqrf, ormqr --------------------------------------------------------------------------------------- */

PyObject *
mt_linalg_geqrf(mt_TensorObject *A)
{
    mt_TensorObject *res[2] = {NULL, NULL};
    mt_device device = mt_tensor_device(A);

    if (device.type == MT_DEVICE_META) {
        mt_raise_no_meta_kernel("aten::geqrf"); /* torch has no meta function for geqrf */
        return NULL;
    }
    if (A->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, "torch.geqrf: input must have at least 2 dimensions.");
        return NULL;
    }
    if (check_lapack_dtype(A->dtype, "geqrf", device) < 0) {
        return NULL;
    }
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n;
    res[1] = host_batch_empty(A, 1, k, 0, MT_FLOAT64);
    res[0] = res[1] != NULL ? host_f64(A) : NULL;
    if (res[0] == NULL || kernel_status(mt_cpu_geqrf_batch((double *)mt_tensor_data(res[0]), m, n,
                                                           k > 0 ? batch_count(A) : 0,
                                                           (double *)mt_tensor_data(res[1]))) < 0) {
        Py_XDECREF(res[0]);
        Py_XDECREF(res[1]);
        return NULL;
    }
    return pack_results(2, res, 1, A->dtype, device);
}

/* ormqr's checks of the sizes, in torch's order for its kernels or, with a meta operand, its meta function's */
static int
check_ormqr_sizes(const mt_TensorObject *A, const mt_TensorObject *tau, const mt_TensorObject *C, int left, int meta)
{
    int cond = left ? -2 : -1;
    int64_t side = C->sizes[C->ndim + cond];

    /* the meta function compares tau's size first, the kernels other's */
    if ((meta || side == A->sizes[A->ndim - 2]) && tau->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -1 but tensor has no dimensions");
        return -1;
    }
    if (meta && side < tau->sizes[tau->ndim - 1]) {
        PyErr_Format(PyExc_RuntimeError, "torch.ormqr: other.shape[%d] must be greater than or equal to "
                     "tau.shape[-1]", cond);
        return -1;
    }
    if (side != A->sizes[A->ndim - 2]) {
        PyErr_Format(PyExc_RuntimeError, "torch.ormqr: other.shape[%d] must be equal to input.shape[-2]", cond);
        return -1;
    }
    int64_t k = tau->sizes[tau->ndim - 1], n = A->sizes[A->ndim - 1];
    if (meta ? k > n : k != (side < n ? side : n)) {
        if (meta) {
            PyErr_SetString(PyExc_RuntimeError,
                            "torch.ormqr: tau.shape[-1] must be less than or equal to input.shape[-1]");
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "torch.ormqr: tau.shape[-1] must be equal to min(other.shape[%d], "
                         "input.shape[-1])", cond);
        }
        return -1;
    }
    if (A->ndim - tau->ndim != 1) {
        PyErr_Format(PyExc_RuntimeError, "torch.ormqr: Expected tau to have one dimension less than input, but got "
                     "tau.ndim equal to %d and input.ndim is equal to %d", tau->ndim, A->ndim);
        return -1;
    }
    if (A->ndim != C->ndim) {
        PyErr_Format(PyExc_RuntimeError, "torch.ormqr: Expected other to have the same number of dimensions as "
                     "input, but got other.ndim equal to %d and input.ndim is equal to %d", C->ndim, A->ndim);
        return -1;
    }
    for (int i = 0; i < 2 && A->ndim > 2; i++) {
        const mt_TensorObject *t = i == 0 ? tau : C;
        if (memcmp(A->sizes, t->sizes, (size_t)(A->ndim - 2) * sizeof(int64_t)) != 0) {
            char shape[256];
            mt_format_shape(A->ndim - 2, t->sizes, shape, sizeof shape);
            /* (the meta function prints a torch.Size) */
            PyErr_Format(PyExc_RuntimeError, "torch.ormqr: Expected batch dimensions of %s to be equal to "
                         "input.shape[:-2], but got %s%s%s", i == 0 ? "tau" : "other", meta ? "torch.Size(" : "",
                         shape, meta ? ")" : "");
            return -1;
        }
    }
    return 0;
}

PyObject *
mt_linalg_ormqr(mt_TensorObject *A, mt_TensorObject *tau, mt_TensorObject *C, int left, int transpose)
{
    const char *fn = "torch.ormqr";
    mt_TensorObject *xa = NULL, *xt = NULL, *xc = NULL;
    mt_device device = mt_tensor_device(A);
    int meta = device.type == MT_DEVICE_META || mt_tensor_device(tau).type == MT_DEVICE_META
               || mt_tensor_device(C).type == MT_DEVICE_META;

    if (A->ndim < 2 || C->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "torch.ormqr: %s must have at least 2 dimensions.",
                     A->ndim < 2 ? "input" : "other");
        return NULL;
    }
    if (check_ormqr_sizes(A, tau, C, left, meta) < 0) {
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        const mt_TensorObject *t = i == 0 ? tau : C;
        if (t->dtype != A->dtype) {
            /* the meta function prints torch.dtype's names, the kernels ScalarType's */
            PyErr_Format(PyExc_RuntimeError, "torch.ormqr: Expected input and %s to have the same dtype, but input "
                         "has dtype%s%s and %s has dtype %s%s", i == 0 ? "tau" : "other", meta ? " torch." : "",
                         meta ? mt_dtype_name(A->dtype) : mt_dtype_scalar_name(A->dtype), i == 0 ? "tau" : "other", meta ? "torch." : "",
                         meta ? mt_dtype_name(t->dtype) : mt_dtype_scalar_name(t->dtype));
            return NULL;
        }
    }
    if (check_same_device(fn, tau, "tau", A) < 0 || check_same_device(fn, C, "other", A) < 0 ||
        check_lapack_dtype(A->dtype, "ormqr", device) < 0) {
        return NULL;
    }
    int64_t nq = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = tau->sizes[tau->ndim - 1];
    int64_t m = C->sizes[C->ndim - 2], cn = C->sizes[C->ndim - 1];
    xc = host_f64(C);
    xa = xc != NULL ? host_f64(A) : NULL;
    xt = xa != NULL ? copy_contiguous(tau, MT_FLOAT64, work_device(tau)) : NULL;
    if (xt == NULL || kernel_status(mt_cpu_ormqr_batch((const double *)mt_tensor_data(xa), nq, n,
                                                       m * cn > 0 ? batch_count(A) : 0,
                                                       (const double *)mt_tensor_data(xt), k,
                                                       (double *)mt_tensor_data(xc), m, cn, left, transpose)) < 0) {
        Py_XDECREF(xa);
        Py_XDECREF(xt);
        Py_XDECREF(xc);
        return NULL;
    }
    Py_DECREF(xa);
    Py_DECREF(xt);
    return (PyObject *)to_result(xc, A->dtype, device, 1);
}

/* ---- ldl_factor_ex, ldl_solve (sytrf, sytrs) ---------------------------------------------------------- */

PyObject *
mt_linalg_ldl_factor_ex(mt_TensorObject *A, int check_errors, const char *api_name)
{
    const char *fn = "torch.linalg.ldl_factor_ex";
    mt_TensorObject *res[3] = {NULL, NULL, NULL};
    mt_device device = mt_tensor_device(A);

    if (check_square(A, fn) < 0 || check_floating(A, fn) < 0) {
        return NULL;
    }
    int64_t n = A->sizes[A->ndim - 1], batch = batch_count(A);
    res[1] = host_batch_empty(A, 1, n, 0, MT_INT32);
    res[2] = res[1] != NULL ? host_batch_empty(A, 0, 0, 0, MT_INT32) : NULL;
    if (res[2] == NULL) {
        goto error;
    }
    /* an empty input returns before the kernel's dtype dispatch, with info 0 */
    if (mt_tensor_numel(A) == 0) {
        if (batch > 0) {
            memset(mt_tensor_data(res[2]), 0, (size_t)batch * sizeof(int32_t));
        }
    }
    else if (check_lapack_dtype(A->dtype, "ldl_factor_kernel", device) < 0) {
        goto error;
    }
    res[0] = host_f64(A);
    if (res[0] == NULL || kernel_status(mt_cpu_ldl_factor_batch((double *)mt_tensor_data(res[0]), n,
                                                                n > 0 ? batch : 0, (int32_t *)mt_tensor_data(res[1]),
                                                                (int32_t *)mt_tensor_data(res[2]))) < 0) {
        goto error;
    }
    if (check_errors) {
        const int32_t *info = (const int32_t *)mt_tensor_data(res[2]);
        for (int64_t b = 0; b < batch; b++) {
            if (info[b] > 0) {
                /* torch's _linalg_check_errors knows no words for sytrf's info: its internal assert's */
                PyErr_Format(PyExc_RuntimeError,
                             "false INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native/"
                             "BatchLinearAlgebra.cpp\":1642, please report a bug to PyTorch. %s: Unknown error "
                             "code: %d.", api_name, (int)info[b]);
                goto error;
            }
        }
    }
    return pack_factorization(res, A->dtype, device);
error:
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(res[i]);
    }
    return NULL;
}

PyObject *
mt_linalg_ldl_solve(mt_TensorObject *LD, mt_TensorObject *pivots, mt_TensorObject *B)
{
    const char *fn = "torch.linalg.ldl_solve";
    mt_TensorObject *xa = NULL, *xb = NULL, *xp = NULL;
    int64_t batch_shape[MT_MAX_DIMS];
    int nbatch;
    mt_device device = mt_tensor_device(LD);

    if (check_square(LD, fn) < 0 || check_floating(LD, fn) < 0) {
        return NULL;
    }
    /* torch's linearSolveCheckInputs(B, LD) */
    if (!mt_device_equal(mt_tensor_device(B), device)) {
        char a[32], b[32];
        mt_device_format(mt_tensor_device(B), a, sizeof a);
        mt_device_format(device, b, sizeof b);
        PyErr_Format(PyExc_RuntimeError, "Expected b and A to be on the same device, but found b on %s and A on %s "
                     "instead.", a, b);
        return NULL;
    }
    if (B->dtype != LD->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected b and A to have the same dtype, but found b of type %s and A of "
                     "type %s instead.", mt_dtype_scalar_name(B->dtype), mt_dtype_scalar_name(LD->dtype));
        return NULL;
    }
    int64_t n = LD->sizes[LD->ndim - 1];
    if (B->ndim < 2) {
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got -2)",
                     B->ndim == 0 ? -1 : -B->ndim, B->ndim == 0 ? 0 : B->ndim - 1);
        return NULL;
    }
    if (B->sizes[B->ndim - 2] != n) {
        PyErr_Format(PyExc_RuntimeError, "Incompatible matrix sizes for %s: each A matrix is %lld by %lld but each b "
                     "matrix is %lld by %lld", fn, (long long)n, (long long)n, (long long)B->sizes[B->ndim - 2],
                     (long long)B->sizes[B->ndim - 1]);
        return NULL;
    }
    if (check_pivots_shape(fn, "LD", LD, pivots) < 0) {
        return NULL;
    }
    if (!mt_dtype_is_integral(pivots->dtype, 0)) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected pivots to be integers. Got %s", fn,
                     mt_dtype_scalar_name(pivots->dtype));
        return NULL;
    }
    if (mt_broadcast_shapes(B->ndim - 2, B->sizes, LD->ndim - 2, LD->sizes, &nbatch, batch_shape) < 0) {
        return NULL;
    }
    int64_t k = B->sizes[B->ndim - 1];
    if (mt_tensor_numel(LD) > 0 && mt_tensor_numel(B) > 0 &&
        check_lapack_dtype(LD->dtype, "ldl_solve_kernel", device) < 0) {
        return NULL;
    }
    if (host_f64_broadcast(LD, B, nbatch, batch_shape, &xa, &xb) < 0) {
        return NULL;
    }
    xp = host_pivots(pivots, nbatch, batch_shape);
    if (xp == NULL) {
        goto error;
    }
    /* torch's checks of the pivots' values, each over all of them, before sytrs */
    const int32_t *pv = (const int32_t *)mt_tensor_data(xp);
    int64_t npv = mt_tensor_device(xp).type == MT_DEVICE_META ? 0 : mt_tensor_numel(xp);
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < npv; i++) {
            int64_t mag = pv[i] < 0 ? -(int64_t)pv[i] : pv[i];
            if (pass == 0 ? mag < 1 : mag > n) {
                PyErr_Format(PyExc_RuntimeError, "Pivots given to ldl_solve must all satisfy |pivot| %s. Did you "
                             "properly pass the result of ldl_factor?", pass == 0 ? ">= 1" : "<= LD.size(-2)");
                goto error;
            }
        }
    }
    int rc = mt_cpu_ldl_solve_batch((const double *)mt_tensor_data(xa), (const int32_t *)mt_tensor_data(xp), n,
                                    (double *)mt_tensor_data(xb), k, n > 0 && k > 0 ? batch_count(xa) : 0);
    if (kernel_status(rc) < 0) {
        goto error;
    }
    Py_DECREF(xa);
    Py_DECREF(xp);
    return (PyObject *)to_result(xb, LD->dtype, device, 1);
error:
    Py_XDECREF(xa);
    Py_XDECREF(xb);
    Py_XDECREF(xp);
    return NULL;
}

int
mt_linalg_init(PyObject *module)
{
    linalg_error = PyErr_NewExceptionWithDoc(
        "minitorch._C._LinAlgError",
        "Raised by minitorch.linalg for a singular matrix or an input it cannot converge on (torch's "
        "torch.linalg.LinAlgError).",
        PyExc_RuntimeError, NULL);
    if (linalg_error == NULL) {
        return -1;
    }
    Py_INCREF(linalg_error);
    if (PyModule_AddObject(module, "_LinAlgError", linalg_error) < 0) {
        Py_DECREF(linalg_error);
        return -1;
    }
    return 0;
}
