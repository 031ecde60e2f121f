/* addmm.c: torch.addmm, beta * input + alpha * (mat1 @ mat2), which is what nn.Linear computes for 2-D
 * inputs, and its family addmv (mat @ vec), addr (the outer product vec1 vec2^T), baddbmm (batch1 @ batch2
 * per batch) and addbmm (the batches' products summed), as C entry points (matmul.h; their Python forms are
 * rows of csrc/python/ops.def). It owns their checks in torch's order with torch's messages (device check
 * of the CUDA wrapper, dtypes, ranks, shapes, input broadcasting) and their in-place forms; the products
 * come from matmul.c and the scaling and the sum from the elementwise layer. */
#include <Python.h>

#include <stdio.h>
#include <string.h>

#include "../core/scalar.h"
#include "../autograd/record.h"
#include "../core/tensor.h"
#include "../autograd/autograd.h"
#include "copy.h"
#include "dispatch.h"
#include "elementwise.h"
#include "matmul.h"
#include "shape.h"

/* alpha and beta take the result's type: an integral addmm truncates a float alpha, as torch does */
static mt_cx_operand
scalar_for(mt_scalar s, mt_dtype dtype)
{
    mt_cx_operand o;

    memset(&o, 0, sizeof o);
    if (!mt_dtype_is_floating(dtype) && s.kind == MT_FLOAT64) {
        s.kind = MT_INT64;
        s.v.i = (int64_t)s.v.d;
    }
    o.op.scalar = s;
    return o;
}

/* a * b for a tensor and a number, or a + b for two tensors */
static PyObject *
apply(mt_binary_op op, PyObject *a, const mt_cx_operand *b)
{
    mt_cx_operand x;

    memset(&x, 0, sizeof x);
    x.op.tensor = (mt_TensorObject *)a;
    return mt_binary(mt_binary_op_name(op), op, &x, b, NULL, NULL);
}

static int
scalar_is(mt_scalar s, double value)
{
    return mt_scalar_to_double(s) == value;
}

static PyObject *combine(mt_TensorObject *expanded, PyObject *product, mt_scalar beta, mt_scalar alpha,
                         mt_dtype dtype);
static PyObject *in_float32(mt_TensorObject *self, mt_TensorObject *a, mt_TensorObject *b, int ndim,
                            const int64_t *sizes, mt_scalar beta, mt_scalar alpha, int torch_gemm);
static int torch_uses_cublaslt(const mt_TensorObject *self, const mt_TensorObject *mat1, const mt_TensorObject *mat2,
                               mt_scalar beta);

typedef PyObject *(*compute_fn)(mt_TensorObject *, mt_TensorObject *, mt_TensorObject *, mt_scalar, mt_scalar);

/* torch's meta addmm and addmv are decompositions that compute in their operands' promoted dtype
 * (pw_cast_for_opmath): `compute` on meta operands cast to it (no data to convert). */
static PyObject *
promoted(compute_fn compute, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *c, mt_scalar beta,
         mt_scalar alpha)
{
    mt_dtype dtype = mt_promote_types(mt_promote_types(a->dtype, b->dtype), c->dtype);
    mt_TensorObject *ca = mt_copy_to(a, dtype, mt_tensor_device(a));
    mt_TensorObject *cb = ca != NULL ? mt_copy_to(b, dtype, mt_tensor_device(b)) : NULL;
    mt_TensorObject *cc = cb != NULL ? mt_copy_to(c, dtype, mt_tensor_device(c)) : NULL;
    PyObject *r = cc != NULL ? compute(ca, cb, cc, beta, alpha) : NULL;

    Py_XDECREF(ca);
    Py_XDECREF(cb);
    Py_XDECREF(cc);
    return r;
}

static PyObject *
addmm_compute(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha)
{
    static const char *const names[3] = {"self", "mat1", "mat2"};
    mt_TensorObject *const tensors[3] = {self, mat1, mat2};
    char msg[200];
    int64_t sizes[2];
    mt_TensorObject *expanded = NULL;
    PyObject *product = NULL;
    int meta = 0, cuda = 0;

    for (int i = 0; i < 3; i++) {
        meta |= mt_tensor_device(tensors[i]).type == MT_DEVICE_META;
        cuda |= mt_tensor_device(tensors[i]).type == MT_DEVICE_CUDA;
    }
    meta &= !cuda;
    /* a meta operand sends the call to torch's meta decomposition, whose mm lets a CPU matrix through: only
     * its sum with self checks a device (below) */
    if (!meta && mt_matmul_check_devices("wrapper_CUDA_addmm", 3, tensors, names) < 0) {
        return NULL;
    }
    if (!meta && (self->dtype != mat2->dtype || mat1->dtype != mat2->dtype)) {
        /* addmm's meta function, before ranks and shapes: self against mat2 first, then mat1 */
        int self_differs = self->dtype != mat2->dtype;
        PyErr_Format(PyExc_RuntimeError, "%s and mat2 must have the same dtype, but got %s and %s",
                     self_differs ? "self" : "mat1", mt_dtype_scalar_name(self_differs ? self->dtype : mat1->dtype),
                     mt_dtype_scalar_name(mat2->dtype));
        return NULL;
    }
    if (meta) {
        /* torch decomposes a meta addmm: mm (its result where mat1 lives), then (beta not 0) the product +
         * beta * self, broadcast, then the two on one device (a CPU scalar self goes with any) */
        int64_t product_sizes[2], common[MT_MAX_DIMS];
        const int ndims[2] = {2, self->ndim};
        const int64_t *const shapes[2] = {product_sizes, self->sizes};
        int n;
        if (mt_meta_mm_check(mat1->ndim, mat1->sizes, mat2->ndim, mat2->sizes) < 0) {
            return NULL;
        }
        product_sizes[0] = mat1->sizes[0];
        product_sizes[1] = mat2->sizes[1];
        if (mt_scalar_to_double(beta) != 0
            && (mt_broadcast_shapes_on(mt_meta_device(), 2, ndims, shapes, &n, common) < 0
                || (!mt_device_equal(mt_tensor_device(self), mt_tensor_device(mat1))
                    && !(mt_tensor_device(self).type == MT_DEVICE_CPU && self->ndim == 0)
                    && mt_raise_meta_device_mismatch(mt_tensor_device(mat1), mt_tensor_device(self)) < 0))) {
            return NULL;
        }
        if (self->dtype != mat2->dtype || mat1->dtype != mat2->dtype) {
            return promoted(addmm_compute, self, mat1, mat2, beta, alpha);
        }
    }
    if (mat1->ndim != 2 || mat2->ndim != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s must be a matrix, got %d-D tensor", mat1->ndim != 2 ? "mat1" : "mat2",
                     mat1->ndim != 2 ? mat1->ndim : mat2->ndim);
        return NULL;
    }
    if (mat1->sizes[1] != mat2->sizes[0]) {
        snprintf(msg, sizeof msg, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                 (long long)mat1->sizes[0], (long long)mat1->sizes[1], (long long)mat2->sizes[0],
                 (long long)mat2->sizes[1]);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    sizes[0] = mat1->sizes[0];
    sizes[1] = mat2->sizes[1];
    if (mt_dtype_is_reduced_floating(mat2->dtype)) {
        return in_float32(self, mat1, mat2, 2, sizes, beta, alpha, !torch_uses_cublaslt(self, mat1, mat2, beta));
    }
    if (sizes[0] * sizes[1] > 0) {
        /* the kernel reads beta and alpha in the result's dtype (float16 and bfloat16: in_float32),
         * with c10's overflow check */
        mt_scalar unused;
        if (mt_scalar_checked(beta, mat2->dtype, &unused) < 0 || mt_scalar_checked(alpha, mat2->dtype, &unused) < 0) {
            return NULL;
        }
    }
    /* torch's meta addmm (its decomposition) never looks at self when beta is 0: nothing to expand */
    expanded = meta && (mt_scalar_to_double(beta) == 0 || !mt_device_equal(mt_tensor_device(self),
                                                                             mt_tensor_device(mat1)))
                   ? mt_tensor_empty(2, sizes, mat2->dtype, mt_tensor_device(mat1))
                   : mt_expand(self, 2, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    product = mt_matmul(mat1, mat2);
    if (product == NULL) {
        Py_DECREF(expanded);
        return NULL;
    }
    return combine(expanded, product, beta, alpha, mat2->dtype);
}

/* beta * expanded + alpha * product (a number times a tensor, then the sum; beta == 0 leaves expanded out,
 * NaN and inf included, as BLAS does). Steals expanded and product. */
static PyObject *
combine(mt_TensorObject *expanded, PyObject *product, mt_scalar beta, mt_scalar alpha, mt_dtype dtype)
{
    PyObject *scaled = NULL;
    PyObject *result = NULL;

    if (!scalar_is(alpha, 1.0)) {
        mt_cx_operand a = scalar_for(alpha, dtype);
        Py_SETREF(product, apply(MT_BINARY_MUL, product, &a));
        if (product == NULL) {
            goto done;
        }
    }
    if (scalar_is(beta, 0.0)) {
        /* beta == 0 ignores the input entirely (even NaN or inf in it), as BLAS does */
        result = product;
        product = NULL;
        goto done;
    }
    if (!scalar_is(beta, 1.0)) {
        mt_cx_operand b = scalar_for(beta, dtype);
        scaled = apply(MT_BINARY_MUL, (PyObject *)expanded, &b);
        if (scaled == NULL) {
            goto done;
        }
    }
    else {
        scaled = (PyObject *)expanded;
        Py_INCREF(scaled);
    }
    {
        mt_cx_operand p;
        memset(&p, 0, sizeof p);
        p.op.tensor = (mt_TensorObject *)product;
        result = apply(MT_BINARY_ADD, scaled, &p);
    }

done:
    Py_XDECREF(expanded);
    Py_XDECREF(product);
    Py_XDECREF(scaled);
    return result;
}

/* beta and alpha read in the result's dtype, with c10's overflow check (when there is a result) */
static int
check_scalars(mt_scalar beta, mt_scalar alpha, mt_dtype dtype)
{
    mt_scalar unused;
    return mt_scalar_checked(beta, dtype, &unused) < 0 || mt_scalar_checked(alpha, dtype, &unused) < 0 ? -1 : 0;
}

/* float16 and bfloat16 (the checks passed; the result has shape `sizes`): torch's kernels compute
 * beta * input + alpha * (a @ b) in float32 and round each result once. The product comes in float32 from
 * the 16-bit operands (mt_matmul_reduced_in_float32: on a CUDA device cuBLAS reads them as they are),
 * the input is taken to float32, and the scaling and the sum run in float32 before one rounding copy. */
static PyObject *
in_float32(mt_TensorObject *self, mt_TensorObject *a, mt_TensorObject *b, int ndim, const int64_t *sizes,
           mt_scalar beta, mt_scalar alpha, int torch_gemm)
{
    mt_TensorObject *s32 = NULL;
    mt_TensorObject *expanded = NULL;
    mt_TensorObject *product = NULL;
    PyObject *r32 = NULL;
    PyObject *result = NULL;
    int64_t numel = 1;

    for (int i = 0; i < ndim; i++) {
        numel *= sizes[i];
    }
    if (numel > 0 && check_scalars(beta, alpha, MT_FLOAT32) < 0) {
        return NULL;
    }
    s32 = mt_copy_to(self, MT_FLOAT32, mt_tensor_device(self));
    expanded = s32 != NULL ? mt_expand(s32, ndim, sizes) : NULL;
    product = expanded != NULL ? mt_matmul_reduced_in_float32(a, b, torch_gemm) : NULL;
    if (product != NULL) {
        /* combine steals both */
        r32 = combine(expanded, (PyObject *)product, beta, alpha, MT_FLOAT32);
        expanded = NULL;
    }
    if (r32 != NULL) {
        result = (PyObject *)mt_copy_to((mt_TensorObject *)r32, b->dtype, mt_tensor_device((mt_TensorObject *)r32));
    }
    Py_XDECREF(s32);
    Py_XDECREF(expanded);
    Py_XDECREF(r32);
    return result;
}

/* Whether torch's addmm_out_cuda_impl takes its cuBLASLt path (isInputCompliesAddmmCudaLt, CUDA 12.1 and
 * later), where the float16 and bfloat16 reduction settings are cuBLASLt preferences rather than the math
 * mode and the split-k error of its cuBLAS GEMM: beta 1, a contiguous bias that is 1-D once squeezed and
 * as long as a row of the result, operands with more than one row and column, and a contiguous result
 * that is not the input (an in-place addmm_'s input is a matrix of more than one row, never such a bias;
 * an out= tensor is taken to be contiguous). */
static int
torch_uses_cublaslt(const mt_TensorObject *self, const mt_TensorObject *mat1, const mt_TensorObject *mat2,
                    mt_scalar beta)
{
    int dims = 0;

    for (int i = 0; i < self->ndim; i++) {
        dims += self->sizes[i] != 1;
    }
    return scalar_is(beta, 1.0) && mt_tensor_is_contiguous(self) && (self->ndim == 1 || dims == 1) &&
           self->ndim > 0 && self->sizes[self->ndim - 1] == mat2->sizes[1] && mat1->sizes[0] > 1 &&
           mat1->sizes[1] > 1 && mat2->sizes[0] > 1 && mat2->sizes[1] > 1;
}

static int
not_for_bool(const char *kernel, mt_dtype dtype)
{
    if (dtype == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for 'Bool'", kernel);
        return -1;
    }
    return 0;
}

/* ---- addmv -------------------------------------------------------------------------------------------- */

static PyObject *
addmv_compute(mt_TensorObject *self, mt_TensorObject *mat, mt_TensorObject *vec, mt_scalar beta, mt_scalar alpha)
{
    static const char *const names[3] = {"self", "mat", "vec"};
    mt_TensorObject *const tensors[3] = {self, mat, vec};
    mt_TensorObject *expanded;
    PyObject *product;
    int64_t m;

    if (mt_matmul_check_devices("wrapper_CUDA_addmv", 3, tensors, names) < 0) {
        return NULL;
    }
    if (mt_tensor_device(mat).type == MT_DEVICE_META) {
        /* torch's decomposition: the dtypes first, in Python's names, then mv's checks */
        if (self->dtype != mat->dtype || mat->dtype != vec->dtype) {
            PyErr_Format(PyExc_RuntimeError,
                         "addmv input tensors must have the same dtype, but got minitorch.%s, minitorch.%s, and "
                         "minitorch.%s",
                         mt_dtype_name(self->dtype), mt_dtype_name(mat->dtype), mt_dtype_name(vec->dtype));
            return NULL;
        }
        if (mt_meta_mv_check(mat->ndim, mat->sizes, vec->ndim, vec->sizes) < 0) {
            return NULL;
        }
    }
    if (mat->ndim != 2 || vec->ndim != 1 || self->ndim > 1) {
        PyErr_Format(PyExc_RuntimeError, "vector + matrix @ vector expected, got %d, %d, %d", self->ndim, mat->ndim,
                     vec->ndim);
        return NULL;
    }
    if (mat->sizes[1] != vec->sizes[0] || !(mt_tensor_numel(self) == mat->sizes[0] || mt_tensor_numel(self) == 1)) {
        PyErr_Format(PyExc_RuntimeError, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                     (long long)(self->ndim > 0 ? self->sizes[0] : 1), (long long)mat->sizes[0],
                     (long long)mat->sizes[1], (long long)vec->sizes[0]);
        return NULL;
    }
    if (self->dtype != mat->dtype || mat->dtype != vec->dtype) {
        PyErr_Format(PyExc_RuntimeError, "addmv input tensors must have the same dtype, but got %s, %s, and %s",
                     mt_dtype_scalar_name(self->dtype), mt_dtype_scalar_name(mat->dtype),
                     mt_dtype_scalar_name(vec->dtype));
        return NULL;
    }
    if (not_for_bool("addmv_impl_cpu", mat->dtype) < 0) {
        return NULL;
    }
    m = mat->sizes[0];
    if (mt_dtype_is_reduced_floating(mat->dtype)) {
        /* torch's gemv of these dtypes is its cuBLAS GEMM */
        return in_float32(self, mat, vec, 1, &m, beta, alpha, 1);
    }
    if (m > 0 && check_scalars(beta, alpha, mat->dtype) < 0) {
        return NULL;
    }
    expanded = mt_expand(self, 1, &m);
    if (expanded == NULL) {
        return NULL;
    }
    product = mt_matmul_op(MT_MM_MV, mat, vec, NULL);
    if (product == NULL) {
        Py_DECREF(expanded);
        return NULL;
    }
    return combine(expanded, product, beta, alpha, mat->dtype);
}

/* ---- addr --------------------------------------------------------------------------------------------- */

/* a number as a 0-d tensor of the result's dtype, as torch's kernel reads beta and alpha (scalar_t) */
static mt_TensorObject *
as_dtype(mt_scalar s, mt_dtype dtype, mt_device device)
{
    mt_TensorObject *t = mt_tensor_empty(0, NULL, dtype, device);

    if (t != NULL && mt_fill_(t, s) < 0) {
        Py_CLEAR(t);
    }
    return t;
}

static PyObject *
tensor_op(mt_binary_op op, PyObject *a, mt_TensorObject *b)
{
    mt_cx_operand y;

    memset(&y, 0, sizeof y);
    y.op.tensor = b;
    return apply(op, a, &y);
}

static int
check_addr_scalar(mt_dtype dtype, mt_scalar s, const char *name)
{
    if (s.kind == MT_BOOL && dtype != MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "Boolean %s only supported for Boolean results.", name);
        return -1;
    }
    if (!mt_dtype_is_floating(dtype) && s.kind == MT_FLOAT64) {
        PyErr_Format(PyExc_RuntimeError, "For integral input tensors, argument %s must not be a floating point number.",
                     name);
        return -1;
    }
    return 0;
}

/* torch's addr kernel, element by element in the common dtype: alpha * vec1 * vec2, plus beta * self unless
 * beta is 0 (bool: `and` and `or`) */
static PyObject *
addr_compute(mt_TensorObject *self, mt_TensorObject *vec1, mt_TensorObject *vec2, mt_scalar beta, mt_scalar alpha)
{
    mt_TensorObject *const tensors[3] = {self, vec1, vec2};
    int64_t sizes[2], col[2];
    mt_operand ops[3];
    mt_dtype dtype;
    mt_device device;
    mt_TensorObject *expanded = NULL, *v1 = NULL, *v2 = NULL, *col1 = NULL, *a = NULL, *b = NULL;
    PyObject *prod = NULL, *result = NULL;
    mt_scalar beta_in;

    for (int i = 0; i < 2; i++) {
        mt_TensorObject *v = i == 0 ? vec1 : vec2;
        if (v->ndim != 1) {
            PyErr_Format(PyExc_RuntimeError, "addr: Expected 1-D argument vec%d, but got %d-D", i + 1, v->ndim);
            return NULL;
        }
    }
    sizes[0] = vec1->sizes[0];
    sizes[1] = vec2->sizes[0];
    expanded = mt_expand(self, 2, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    memset(ops, 0, sizeof ops);
    ops[0].tensor = self;
    ops[1].tensor = vec1;
    ops[2].tensor = vec2;
    dtype = mt_result_type(3, ops);
    if (mt_check_same_device(NULL, 3, tensors, &device) < 0 || check_addr_scalar(dtype, beta, "beta") < 0 ||
        check_addr_scalar(dtype, alpha, "alpha") < 0) {
        goto done;
    }
    /* the operands in the common dtype (promote_inputs_to_common_dtype) */
    v1 = mt_copy_to(vec1, dtype, device);
    v2 = v1 != NULL ? mt_copy_to(vec2, dtype, device) : NULL;
    Py_SETREF(expanded, v2 != NULL ? mt_copy_to(expanded, dtype, device) : NULL);
    col[0] = sizes[0];
    col[1] = 1;
    col1 = expanded != NULL ? mt_view(v1, 2, col) : NULL;
    a = col1 != NULL ? as_dtype(alpha, dtype, device) : NULL;
    b = a != NULL ? as_dtype(beta, dtype, device) : NULL;
    if (b == NULL) {
        goto done;
    }
    /* alpha * vec1 * vec2, left to right */
    prod = tensor_op(MT_BINARY_MUL, (PyObject *)col1, a);
    Py_SETREF(prod, prod != NULL ? tensor_op(MT_BINARY_MUL, prod, v2) : NULL);
    if (prod == NULL) {
        goto done;
    }
    beta_in = beta;
    if (mt_scalar_checked(beta, dtype, &beta_in) < 0) {
        goto done;
    }
    if (mt_scalar_to_double(beta_in) == 0.0) {
        /* the element-wise product alone, in the full shape */
        result = (PyObject *)mt_expand((mt_TensorObject *)prod, 2, sizes);
        if (result != NULL) {
            Py_SETREF(result, (PyObject *)mt_clone_in_format((mt_TensorObject *)result, MT_CONTIGUOUS_FORMAT));
        }
        goto done;
    }
    {
        PyObject *scaled = tensor_op(MT_BINARY_MUL, (PyObject *)b, expanded);
        result = scaled != NULL ? tensor_op(MT_BINARY_ADD, scaled, (mt_TensorObject *)prod) : NULL;
        Py_XDECREF(scaled);
    }

done:
    Py_XDECREF(expanded);
    Py_XDECREF(v1);
    Py_XDECREF(v2);
    Py_XDECREF(col1);
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(prod);
    return result;
}

/* ---- baddbmm, addbmm ---------------------------------------------------------------------------------- */

/* t.size(dim) as torch reads it: IndexError "Dimension out of range ..." for a dim t does not have */
static int
size_at(mt_TensorObject *t, int dim, int64_t *out)
{
    int d;

    if (mt_wrap_dim(dim, t->ndim, &d) < 0) {
        return -1;
    }
    *out = t->sizes[d];
    return 0;
}

static PyObject *
baddbmm_compute(mt_TensorObject *self, mt_TensorObject *batch1, mt_TensorObject *batch2, mt_scalar beta,
                mt_scalar alpha)
{
    static const char *const names[3] = {"self", "batch1", "batch2"};
    mt_TensorObject *const tensors[3] = {self, batch1, batch2};
    int64_t sizes[3];
    mt_TensorObject *expanded;
    PyObject *product;
    int meta = mt_tensor_device(batch1).type == MT_DEVICE_META;

    if (mt_matmul_check_devices("wrapper_CUDA_baddbmm", 3, tensors, names) < 0) {
        return NULL;
    }
    if (size_at(batch1, 0, &sizes[0]) < 0 || size_at(batch1, 1, &sizes[1]) < 0 || size_at(batch2, 2, &sizes[2]) < 0) {
        return NULL;
    }
    expanded = mt_expand(self, 3, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    if (!meta && self->dtype != batch1->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s",
                     mt_dtype_c_name(self->dtype), mt_dtype_c_name(batch1->dtype), mt_dtype_c_name(batch2->dtype));
        goto error;
    }
    if (batch1->ndim != 3 || batch2->ndim != 3) {
        PyErr_Format(PyExc_RuntimeError, "batch%d must be a 3D tensor", batch1->ndim != 3 ? 1 : 2);
        goto error;
    }
    if (meta && (self->dtype != batch1->dtype || batch1->dtype != batch2->dtype)) {
        /* torch's meta function: the three dtypes after the ranks, in Python's names */
        PyErr_Format(PyExc_RuntimeError,
                     "Input dtypes must be the same, got: input: minitorch.%s, batch1: minitorch.%s, batch2: "
                     "minitorch.%s",
                     mt_dtype_name(self->dtype), mt_dtype_name(batch1->dtype), mt_dtype_name(batch2->dtype));
        goto error;
    }
    if (batch2->sizes[0] != batch1->sizes[0] || batch2->sizes[1] != batch1->sizes[2]) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, "
                     "%lld].",
                     (long long)batch1->sizes[0], (long long)batch1->sizes[2], (long long)batch2->sizes[0],
                     (long long)batch2->sizes[1]);
        goto error;
    }
    if (batch2->dtype != batch1->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", mt_dtype_scalar_name(batch1->dtype),
                     mt_dtype_scalar_name(batch2->dtype));
        goto error;
    }
    if (!meta && not_for_bool("baddbmm", batch1->dtype) < 0) {
        goto error;
    }
    if (mt_dtype_is_reduced_floating(batch1->dtype)) {
        /* torch's batched GEMM */
        Py_DECREF(expanded);
        return in_float32(self, batch1, batch2, 3, sizes, beta, alpha, 0);
    }
    if (sizes[0] * sizes[1] * sizes[2] > 0 && check_scalars(beta, alpha, batch1->dtype) < 0) {
        goto error;
    }
    product = mt_matmul_op(MT_MM_BMM, batch1, batch2, NULL);
    if (product == NULL) {
        goto error;
    }
    return combine(expanded, product, beta, alpha, batch1->dtype);

error:
    Py_DECREF(expanded);
    return NULL;
}

/* torch's addbmm: self broadcast to the product's shape, then one addmm_ per batch, beta on the first */
static PyObject *
addbmm_compute(mt_TensorObject *self, mt_TensorObject *batch1, mt_TensorObject *batch2, mt_scalar beta,
               mt_scalar alpha)
{
    int64_t sizes[2], nb;
    mt_TensorObject *expanded;
    PyObject *result;
    mt_scalar one;

    if (size_at(batch1, 1, &sizes[0]) < 0 || size_at(batch2, 2, &sizes[1]) < 0) {
        return NULL;
    }
    expanded = mt_expand(self, 2, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    if (batch1->ndim != 3 || batch2->ndim != 3) {
        PyErr_Format(PyExc_RuntimeError, "batch%d must be a 3D tensor", batch1->ndim != 3 ? 1 : 2);
        Py_DECREF(expanded);
        return NULL;
    }
    if (batch1->sizes[0] != batch2->sizes[0]) {
        PyErr_Format(PyExc_RuntimeError, "batch1 and batch2 must have same number of batches, got %lld and %lld",
                     (long long)batch1->sizes[0], (long long)batch2->sizes[0]);
        Py_DECREF(expanded);
        return NULL;
    }
    if (batch1->sizes[2] != batch2->sizes[1]) {
        PyErr_Format(PyExc_RuntimeError, "Incompatible matrix sizes for bmm (%lldx%lld and %lldx%lld)",
                     (long long)batch1->sizes[1], (long long)batch1->sizes[2], (long long)batch2->sizes[1],
                     (long long)batch2->sizes[2]);
        Py_DECREF(expanded);
        return NULL;
    }
    nb = batch1->sizes[0];
    if (mt_tensor_device(batch1).type == MT_DEVICE_META) {
        /* torch's meta function: self's dtype, the operands' unchecked */
        Py_DECREF(expanded);
        return (PyObject *)mt_tensor_empty(2, sizes, self->dtype, mt_tensor_device(batch1));
    }
    if (nb == 0) {
        /* no batch: beta * self, or zeros when beta is 0 */
        if (scalar_is(beta, 0.0)) {
            result = (PyObject *)mt_tensor_empty(2, sizes, self->dtype, mt_tensor_device(self));
            if (result != NULL) {
                mt_scalar zero;
                memset(&zero, 0, sizeof zero);
                zero.kind = MT_INT64;
                if (mt_fill_((mt_TensorObject *)result, zero) < 0) {
                    Py_CLEAR(result);
                }
            }
        }
        else {
            mt_cx_operand b = scalar_for(beta, self->dtype);
            result = apply(MT_BINARY_MUL, (PyObject *)expanded, &b);
        }
        Py_DECREF(expanded);
        return result;
    }
    memset(&one, 0, sizeof one);
    one.kind = MT_INT64;
    one.v.i = 1;
    result = (PyObject *)expanded;
    for (int64_t i = 0; i < nb && result != NULL; i++) {
        mt_TensorObject *m1 = mt_select(batch1, 0, i);
        mt_TensorObject *m2 = m1 != NULL ? mt_select(batch2, 0, i) : NULL;
        PyObject *next = m2 != NULL ? addmm_compute((mt_TensorObject *)result, m1, m2, i == 0 ? beta : one, alpha)
                                    : NULL;
        Py_XDECREF(m1);
        Py_XDECREF(m2);
        Py_SETREF(result, next);
    }
    return result;
}

/* ---- the family's entry point ------------------------------------------------------------------------- */

static const compute_fn computes[] = {addmm_compute, addmv_compute, addr_compute, baddbmm_compute,
                                      addbmm_compute};

static int
check_same_shape(mt_TensorObject *self, mt_TensorObject *r)
{
    char a[1024], b[1024];

    if (self->ndim == r->ndim && memcmp(self->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim) == 0) {
        return 0;
    }
    mt_format_shape(self->ndim, self->sizes, a, sizeof a);
    mt_format_shape(r->ndim, r->sizes, b, sizeof b);
    PyErr_Format(PyExc_RuntimeError, "Bad in-place call: input tensor size %s and output tensor size %s should match",
                 a, b);
    return -1;
}

PyObject *
mt_addmm_family(mt_addmm_kind kind, mt_TensorObject *self, mt_TensorObject *a, mt_TensorObject *b, mt_scalar beta,
                mt_scalar alpha, int inplace)
{
    PyObject *r;

    if (inplace && kind == MT_ADDMM_R && self->ndim != 2) {
        PyErr_Format(PyExc_RuntimeError, "%dD tensor expected, got %dD tensor for input", 2, self->ndim);
        return NULL;
    }
    /* the parts (expand, the product, mul, add) compute below autograd: the op records one node */
    MT_BELOW_AUTOGRAD(r = computes[kind](self, a, b, beta, alpha));
    if (r == NULL) {
        return NULL;
    }
    if (inplace) {
        mt_TensorObject *t = (mt_TensorObject *)r;
        int rc = check_same_shape(self, t);
        if (rc == 0 && t->dtype != self->dtype) {
            rc = mt_check_can_cast(mt_tensor_device(self), t->dtype, self->dtype);
        }
        if (rc == 0) {
            rc = mt_ag_check_inplace(self);
        }
        if (rc == 0) {
            MT_BELOW_AUTOGRAD(rc = mt_copy_(self, t));
        }
        Py_DECREF(r);
        if (rc < 0 || mt_ag_bump(self) < 0) {
            return NULL;
        }
        Py_INCREF(self);
        r = (PyObject *)self;
    }
    if (mt_ag_addmm_family(kind, self, a, b, beta, alpha, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt_addmm(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha)
{
    return mt_addmm_family(MT_ADDMM_MM, self, mat1, mat2, beta, alpha, 0);
}
