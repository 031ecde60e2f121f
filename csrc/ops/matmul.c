/* matmul.c: torch.matmul (and the @ operator), torch.mm, torch.bmm, torch.mv and torch.dot, as C entry points
 * (matmul.h; their Python forms are rows of csrc/python/ops.def). It owns torch's dispatch among these ops
 * (matmul's rules for 1-D, 2-D and batched operands, including which shapes fold into one mm), their checks in torch's order with torch's messages (device, shape,
 * dtype, and the "not implemented for 'Bool'" kernel errors), and the translation of any operands, views
 * included, into one strided GEMM descriptor. It must not do arithmetic itself (the device's backend's
 * gemm does: kernels/cpu/gemm.c, kernels/cuda/cublas.c) or copy operands to make them contiguous: every
 * layout torch accepts is passed to the kernel by its strides.
 *
 * The checks run on geometries (mm_geom: sizes, strides, dtype, device) instead of tensor objects, so
 * that the intermediate views torch builds on the way (unsqueeze, mT, reshape, expand) cost nothing
 * here; only the messages depend on them. The computation never uses those views: whichever path torch
 * takes, result[..., i, j] = sum_k a[..., i, k] * b[..., k, j] with broadcast batch dims, which the
 * executor hands to the kernel in one call. */
#include "matmul.h"
#include "out.h"

#include <stdio.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/scalar.h"

#include "../autograd/record.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "shape.h"

/* Products below this many multiply-adds keep the GIL: releasing and re-taking it costs more. */
#define MATMUL_GIL_RELEASE_MACS 32768.0

/* ---- geometries ------------------------------------------------------------------------------------ */

typedef struct {
    int ndim;
    int64_t sizes[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS];
    mt_dtype dtype;
    mt_device device;
    int requires_grad;
} mm_geom;

static void
geom_from_tensor(const mt_TensorObject *t, mm_geom *g)
{
    g->ndim = t->ndim;
    for (int i = 0; i < t->ndim; i++) {
        g->sizes[i] = t->sizes[i];
        g->strides[i] = t->strides[i];
    }
    g->dtype = t->dtype;
    g->device = mt_tensor_device(t);
    g->requires_grad = t->requires_grad;
}

static int64_t
geom_numel(const mm_geom *g)
{
    int64_t n = 1;

    for (int i = 0; i < g->ndim; i++) {
        n *= g->sizes[i];
    }
    return n;
}

/* torch's contiguous strides: a size-1 or size-0 dim does not scale the strides outside it. */
static void
contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    int64_t stride = 1;

    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = stride;
        stride *= sizes[i] > 1 ? sizes[i] : 1;
    }
}

/* Tensor.unsqueeze(dim): the new dim's stride is size * stride of the dim it precedes (1 at the end). */
static void
geom_unsqueeze(mm_geom *g, int dim)
{
    int64_t stride = dim >= g->ndim ? 1 : g->sizes[dim] * g->strides[dim];

    for (int i = g->ndim; i > dim; i--) {
        g->sizes[i] = g->sizes[i - 1];
        g->strides[i] = g->strides[i - 1];
    }
    g->sizes[dim] = 1;
    g->strides[dim] = stride;
    g->ndim++;
}

/* Tensor.mT (and t() for a matrix): swaps the last two dims. */
static void
geom_transpose_last(mm_geom *g)
{
    int a = g->ndim - 2;
    int b = g->ndim - 1;
    int64_t s = g->sizes[a];
    int64_t st = g->strides[a];

    g->sizes[a] = g->sizes[b];
    g->strides[a] = g->strides[b];
    g->sizes[b] = s;
    g->strides[b] = st;
}

/* Tensor.squeeze(0) of a size-1 leading dim. */
static void
geom_squeeze0(mm_geom *g)
{
    for (int i = 1; i < g->ndim; i++) {
        g->sizes[i - 1] = g->sizes[i];
        g->strides[i - 1] = g->strides[i];
    }
    g->ndim--;
}

/* Tensor.expand(sizes) (torch's inferExpandGeometry) to a shape already known to be compatible: an
 * expanded dim gets stride 0, a new leading dim of size 1 the stride of a contiguous dim over the ones
 * after it. */
static void
geom_expand(mm_geom *g, int ndim, const int64_t *sizes)
{
    int64_t new_sizes[MT_MAX_DIMS];
    int64_t new_strides[MT_MAX_DIMS];

    for (int i = ndim - 1; i >= 0; i--) {
        int dim = g->ndim - (ndim - i);
        int64_t size = dim >= 0 ? g->sizes[dim] : 1;
        int64_t stride = dim >= 0 ? g->strides[dim]
                                  : (i + 1 < ndim ? new_sizes[i + 1] * new_strides[i + 1] : 1);
        if (size != sizes[i]) {
            size = sizes[i];
            stride = 0;
        }
        new_sizes[i] = size;
        new_strides[i] = stride;
    }
    g->ndim = ndim;
    memcpy(g->sizes, new_sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(g->strides, new_strides, sizeof(int64_t) * (size_t)ndim);
}

/* Tensor.reshape(sizes): a view with torch's computeStride strides when one exists, else (torch copies)
 * the contiguous strides of the copy. The element count is known to match. */
static void
geom_reshape(mm_geom *g, int ndim, const int64_t *sizes)
{
    int64_t newstride[MT_MAX_DIMS];
    int64_t numel = geom_numel(g);
    int view_d = ndim - 1;
    int64_t chunk_base_stride;
    int64_t tensor_numel = 1;
    int64_t view_numel = 1;
    int ok = 1;

    if (g->ndim == 0) {
        for (int i = 0; i < ndim; i++) {
            newstride[i] = 1;
        }
        goto done;
    }
    if (numel == 0) {
        int same = g->ndim == ndim;
        for (int i = 0; same && i < ndim; i++) {
            same = g->sizes[i] == sizes[i];
        }
        if (same) {
            memcpy(newstride, g->strides, sizeof(int64_t) * (size_t)ndim);
        }
        else {
            contiguous_strides(ndim, sizes, newstride);
        }
        goto done;
    }
    chunk_base_stride = g->strides[g->ndim - 1];
    for (int tensor_d = g->ndim - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= g->sizes[tensor_d];
        if (tensor_d == 0
            || (g->sizes[tensor_d - 1] != 1
                && g->strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
                newstride[view_d] = view_numel * chunk_base_stride;
                view_numel *= sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) {
                ok = 0;
                break;
            }
            if (tensor_d > 0) {
                chunk_base_stride = g->strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if (!ok || view_d != -1) {
        contiguous_strides(ndim, sizes, newstride);
    }
done:
    g->ndim = ndim;
    memcpy(g->sizes, sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(g->strides, newstride, sizeof(int64_t) * (size_t)ndim);
}

/* ---- plans: torch's checks, in torch's order ----------------------------------------------------------
 *
 * A plan records the result's dtype and device and, separately, the error a kernel would raise (the
 * "not implemented for 'Bool'" family): torch raises those only after the out= tensor was checked, so
 * the caller raises them after its own out= checks. Everything else is raised at once. */

typedef struct {
    mt_dtype dtype;
    mt_device device;
    PyObject *kernel_exc;       /* borrowed exception type, NULL when the kernel would run */
    char kernel_msg[320];
    int out_resize;             /* out= must be resized (resize_output) to out_sizes before the result */
    int out_warned;             /* ... and resize_output's warning was given already (matmul's own resize) */
    int out_ndim;
    int64_t out_sizes[MT_MAX_DIMS];
    int torch_gemm;             /* torch's CUDA kernel is its non-batched cuBLAS GEMM (mm, mv): mt_gemm_desc */
} mm_plan;

static void
plan_kernel_error(mm_plan *plan, PyObject *exc, const char *fmt, const char *a, const char *b)
{
    plan->kernel_exc = exc;
    snprintf(plan->kernel_msg, sizeof plan->kernel_msg, fmt, a, b);
}

static void
plan_not_implemented(mm_plan *plan, const char *kernel, mt_dtype dtype)
{
    plan_kernel_error(plan, PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kernel,
                      mt_dtype_scalar_name(dtype));
}

static int
raise_runtime(const char *msg)
{
    PyErr_SetString(PyExc_RuntimeError, msg);
    return -1;
}

static int
is_cuda(const mm_geom *g)
{
    return g->device.type == MT_DEVICE_CUDA;
}

/* The device check torch's generated CUDA wrappers make (c10::impl::check_and_update_common_device): it
 * runs when any argument is a CUDA tensor (the call then dispatches to CUDA); the first argument's
 * device is the reference and the first argument that differs is named. A meta tensor next to a CPU one
 * raises the meta kernels' device error (torch's meta mm lets a CPU matrix through and reads nothing;
 * its CPU kernel would read the meta tensor's missing memory). */
static int
check_same_device(const char *method, int n, const mm_geom *const *args, const char *const *names)
{
    char ref[32];
    char other[32];
    char msg[320];
    int any_cuda = 0;

    for (int i = 0; i < n; i++) {
        any_cuda |= args[i]->device.type != MT_DEVICE_CPU;
    }
    if (!any_cuda) {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if (!mt_device_equal(args[i]->device, args[0]->device)) {
            if (args[i]->device.type == MT_DEVICE_META || args[0]->device.type == MT_DEVICE_META) {
                return mt_raise_meta_device_mismatch(args[0]->device, args[i]->device);
            }
            mt_device_format(args[0]->device, ref, sizeof ref);
            mt_device_format(args[i]->device, other, sizeof other);
            snprintf(msg, sizeof msg,
                     "Expected all tensors to be on the same device, but got %s is on %s, different from "
                     "other tensors on %s (when checking argument in method %s)",
                     names[i], other, ref, method);
            return raise_runtime(msg);
        }
    }
    return 0;
}

/* structured kernels' resize_out: the out= tensor must have the result's dtype and device. */
static int
check_out_dtype_device(const mm_geom *out, mt_dtype dtype, mt_device device)
{
    return mt_out_check_dtype_device(out->dtype, out->device, dtype, device);
}

/* An out= tensor of another shape is resized, as torch's resize_output does (warning when it had
 * elements), once the checks of the op that resizes it have passed: the first (outermost) shape asked for
 * is recorded in the plan. matmul's own resize (warn_now) comes before the checks of the mm, mv or bmm it
 * then runs, so its warning is given at once. 0, or -1 when the warning became an error. */
static int
check_out_shape(const mm_geom *out, int ndim, const int64_t *sizes, mm_plan *plan, int warn_now)
{
    int same = out->ndim == ndim;

    for (int i = 0; same && i < ndim; i++) {
        same = out->sizes[i] == sizes[i];
    }
    if (!same && !plan->out_resize && warn_now && geom_numel(out) != 0) {
        if (mt_warn_out_resized(out->ndim, out->sizes, ndim, sizes) < 0) {
            return -1;
        }
        plan->out_warned = 1;
    }
    if (!same && !plan->out_resize) {
        plan->out_resize = 1;
        plan->out_ndim = ndim;
        for (int i = 0; i < ndim; i++) {
            plan->out_sizes[i] = sizes[i];
        }
    }
    return 0;
}

/* out= as the op sees it after that resize: `sizes`, dense, with out's dtype and device */
static mm_geom
out_geom(const mm_geom *out, int ndim, const int64_t *sizes)
{
    mm_geom g = *out;
    int64_t stride = 1;

    g.ndim = ndim;
    for (int i = ndim - 1; i >= 0; i--) {
        g.sizes[i] = sizes[i];
        g.strides[i] = stride;
        stride *= sizes[i] > 1 ? sizes[i] : 1;
    }
    return g;
}

int
mt_meta_mm_check(int a_ndim, const int64_t *a, int b_ndim, const int64_t *b)
{
    if (a_ndim != 2) {
        return raise_runtime("a must be 2D");
    }
    if (b_ndim != 2) {
        return raise_runtime("b must be 2D");
    }
    if (a[1] != b[0]) {
        PyErr_Format(PyExc_RuntimeError, "a and b must have same reduction dim, but got [%lld, %lld] X [%lld, %lld].",
                     (long long)a[0], (long long)a[1], (long long)b[0], (long long)b[1]);
        return -1;
    }
    return 0;
}

int
mt_meta_mv_check(int mat_ndim, const int64_t *mat, int vec_ndim, const int64_t *vec)
{
    if (mat_ndim != 2 || vec_ndim != 1) {
        PyErr_Format(PyExc_RuntimeError, "matrix @ vector expected, got %d, %d", mat_ndim, vec_ndim);
        return -1;
    }
    if (mat[1] != vec[0]) {
        PyErr_Format(PyExc_RuntimeError, "size mismatch, got input (%lldx%lld), vec (%lld)", (long long)mat[0],
                     (long long)mat[1], (long long)vec[0]);
        return -1;
    }
    return 0;
}

/* A meta tensor next to a CPU one, with no out: torch's meta mm and bmm run (the Meta key wins the dispatch)
 * and, checking no devices, make their result where the operand they copy it from lives. */
static int
meta_next_to_cpu(const mm_geom *a, const mm_geom *b, const mm_geom *out)
{
    mt_device_type ta = a->device.type;
    mt_device_type tb = b->device.type;

    return out == NULL
           && ((ta == MT_DEVICE_META && tb == MT_DEVICE_CPU) || (ta == MT_DEVICE_CPU && tb == MT_DEVICE_META));
}

/* torch.mm: TORCH_META_FUNC(mm) (dims, shapes), then addmm_impl_cpu_ / addmm_out_cuda_impl (dtypes,
 * shortcuts, dispatch); on the meta device torch's meta_mm first, which makes self's dtype and device. */
static int
plan_mm(const mm_geom *self, const mm_geom *mat2, const mm_geom *out, mm_plan *plan)
{
    char msg[200];
    int64_t rsizes[2];
    int rc;

    int meta = self->device.type == MT_DEVICE_META || mat2->device.type == MT_DEVICE_META;

    plan->torch_gemm = 1;
    if (meta_next_to_cpu(self, mat2, out)) {
        rc = 0;
    }
    else if (out != NULL) {
        const mm_geom *args[3] = {out, self, mat2};
        const char *names[3] = {"out", "self", "mat2"};
        rc = check_same_device("wrapper_CUDA_mm_out_out", 3, args, names);
    }
    else {
        const mm_geom *args[2] = {self, mat2};
        const char *names[2] = {"self", "mat2"};
        rc = check_same_device("wrapper_CUDA_mm", 2, args, names);
    }
    if (rc < 0) {
        return -1;
    }
    if (meta && mt_meta_mm_check(self->ndim, self->sizes, mat2->ndim, mat2->sizes) < 0) {
        return -1;
    }
    if (self->ndim != 2) {
        return raise_runtime("self must be a matrix");
    }
    if (mat2->ndim != 2) {
        return raise_runtime("mat2 must be a matrix");
    }
    if (self->sizes[1] != mat2->sizes[0]) {
        snprintf(msg, sizeof msg, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                 (long long)self->sizes[0], (long long)self->sizes[1], (long long)mat2->sizes[0],
                 (long long)mat2->sizes[1]);
        return raise_runtime(msg);
    }
    plan->dtype = self->dtype;
    plan->device = self->device;
    if (out != NULL) {
        rsizes[0] = self->sizes[0];
        rsizes[1] = mat2->sizes[1];
        if (check_out_dtype_device(out, plan->dtype, plan->device) < 0
            || check_out_shape(out, 2, rsizes, plan, 0) < 0) {
            return -1;
        }
    }
    if (meta) {
        return 0;   /* torch's meta_mm: self's dtype, whatever mat2's (no kernel to dispatch) */
    }
    /* the kernels check the dtypes first (each in its own words), then return early for empty results
     * and k == 0 (zeros), then dispatch on the dtype */
    if (self->dtype != mat2->dtype) {
        plan_kernel_error(plan, PyExc_RuntimeError,
                          is_cuda(self) ? "expected mat1 and mat2 to have the same dtype, but got: %s != %s"
                                        : "expected m1 and m2 to have the same dtype, but got: %s != %s",
                          mt_dtype_c_name(self->dtype), mt_dtype_c_name(mat2->dtype));
        return 0;
    }
    if (self->sizes[0] == 0 || mat2->sizes[1] == 0 || self->sizes[1] == 0) {
        return 0;
    }
    if (is_cuda(self)) {
        if (!mt_dtype_is_floating(self->dtype)) {
            plan_not_implemented(plan, "addmm_cuda", self->dtype);
        }
    }
    else if (self->dtype == MT_BOOL) {
        plan_not_implemented(plan, "addmm_impl_cpu_", self->dtype);
    }
    return 0;
}

/* aten's bmm_out_or_baddbmm_ stride test: is each matrix of the batch row- or column-major? */
static int
batch_items_contiguous_or_transposed(const mm_geom *t)
{
    const int64_t *sizes = t->sizes;
    const int64_t *strides = t->strides;

    return (strides[2] == 1 && (sizes[1] == 1 || strides[1] >= sizes[2]))
           || (strides[1] == 1 && (sizes[2] == 1 || strides[2] >= sizes[1]));
}

/* torch.bmm: common_checks_baddbmm_bmm (the result takes batch2's dtype), then bmm_out_or_baddbmm_ on the
 * CPU or baddbmm_out_cuda_impl. On the CPU, which error mixed dtypes give depends on the path aten takes:
 * a naive loop for products under 400 multiply-adds per matrix (it reads batch1's type and finds the
 * result's), the MKL batched GEMM for float results whose matrices are row- or column-major (it reads
 * the result's type and finds batch1's), and per-matrix addmm otherwise (its own dtype check). */
static int
plan_bmm(const mm_geom *b1, const mm_geom *b2, const mm_geom *out, mm_plan *plan)
{
    char msg[200];
    int64_t rsizes[3];
    int rc;

    int meta = b1->device.type == MT_DEVICE_META || b2->device.type == MT_DEVICE_META;

    plan->torch_gemm = 0;       /* torch's batched GEMM */
    if (meta_next_to_cpu(b1, b2, out)) {
        rc = 0;
    }
    else if (out != NULL) {
        const mm_geom *args[3] = {out, b1, b2};
        const char *names[3] = {"out", "self", "mat2"};
        rc = check_same_device("wrapper_CUDA_bmm_out_out", 3, args, names);
    }
    else {
        const mm_geom *args[2] = {b1, b2};
        const char *names[2] = {"self", "mat2"};
        rc = check_same_device("wrapper_CUDA_bmm", 2, args, names);
    }
    if (rc < 0) {
        return -1;
    }
    if (b1->ndim != 3) {
        return raise_runtime("batch1 must be a 3D tensor");
    }
    if (b2->ndim != 3) {
        return raise_runtime("batch2 must be a 3D tensor");
    }
    if (meta && b1->dtype != b2->dtype) {
        /* torch's meta function checks the dtypes before the sizes, naming them as Python does */
        snprintf(msg, sizeof msg, "expected scalar type minitorch.%s but found minitorch.%s", mt_dtype_name(b1->dtype),
                 mt_dtype_name(b2->dtype));
        return raise_runtime(msg);
    }
    if (b2->sizes[0] != b1->sizes[0] || b2->sizes[1] != b1->sizes[2]) {
        snprintf(msg, sizeof msg,
                 "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: "
                 "[%lld, %lld].",
                 (long long)b1->sizes[0], (long long)b1->sizes[2], (long long)b2->sizes[0],
                 (long long)b2->sizes[1]);
        return raise_runtime(msg);
    }
    plan->dtype = b2->dtype;
    plan->device = b2->device;     /* batch2.new_empty: b1's too, but on meta next to a CPU batch */
    if (out != NULL) {
        rsizes[0] = b1->sizes[0];
        rsizes[1] = b1->sizes[1];
        rsizes[2] = b2->sizes[2];
        if (check_out_dtype_device(out, plan->dtype, plan->device) < 0
            || check_out_shape(out, 3, rsizes, plan, 0) < 0) {
            return -1;
        }
    }
    if (b1->sizes[0] == 0 || b1->sizes[1] == 0 || b2->sizes[2] == 0 || b1->sizes[2] == 0 || meta) {
        return 0;
    }
    if (is_cuda(b1)) {
        if (!mt_dtype_is_floating(b1->dtype)) {
            plan_not_implemented(plan, "baddbmm_cuda", b1->dtype);
        }
        else if (b1->dtype != b2->dtype) {
            plan_kernel_error(plan, PyExc_RuntimeError, "expected scalar type %s but found %s",
                              mt_dtype_scalar_name(b1->dtype), mt_dtype_scalar_name(b2->dtype));
        }
        return 0;
    }
    if ((double)b1->sizes[2] * (double)b1->sizes[1] * (double)b2->sizes[2] < 400.0) {
        if (b1->dtype == MT_BOOL) {
            plan_not_implemented(plan, "bmm", b1->dtype);
        }
        else if (b1->dtype != b2->dtype) {
            plan_kernel_error(plan, PyExc_RuntimeError, "expected scalar type %s but found %s",
                              mt_dtype_scalar_name(b1->dtype), mt_dtype_scalar_name(b2->dtype));
        }
    }
    else if (mt_dtype_is_floating(b2->dtype) && batch_items_contiguous_or_transposed(b1)
             && batch_items_contiguous_or_transposed(b2)) {
        if (b1->dtype != b2->dtype) {
            plan_kernel_error(plan, PyExc_RuntimeError, "expected scalar type %s but found %s",
                              mt_dtype_scalar_name(b2->dtype), mt_dtype_scalar_name(b1->dtype));
        }
    }
    else if (b1->dtype != b2->dtype) {
        plan_kernel_error(plan, PyExc_RuntimeError,
                          "expected m1 and m2 to have the same dtype, but got: %s != %s",
                          mt_dtype_c_name(b1->dtype), mt_dtype_c_name(b2->dtype));
    }
    else if (b1->dtype == MT_BOOL) {
        plan_not_implemented(plan, "addmm_impl_cpu_", b1->dtype);
    }
    return 0;
}

/* torch.mv: `result = empty({self.size(0)}, vec.options()); addmv_(result, self, vec, 0, 1)`, so the
 * result (named "input" and "self" in the messages) has vec's dtype and device. With out=, mv_out is
 * addmv_out(out, out, self, vec) and out plays that part. */
static int
plan_mv(const mm_geom *mat, const mm_geom *vec, const mm_geom *out, mm_plan *plan)
{
    char msg[200];
    mm_geom input;
    int rc;

    plan->torch_gemm = 1;       /* torch's gemv of a 16-bit dtype is its GEMM */
    if (mat->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return -1;
    }
    /* addmv's self: (mv_out) out itself when it has one element or one per row, the cases where it can
     * play that part; otherwise a fresh [rows] tensor, and out is resized afterwards */
    input.ndim = 1;
    input.sizes[0] = mat->sizes[0];
    input.strides[0] = 1;
    input.dtype = vec->dtype;
    input.device = vec->device;
    input.requires_grad = 0;
    if (out != NULL) {
        const mm_geom *args[4] = {out, &input, mat, vec};
        const char *names[4] = {"out", "self", "mat", "vec"};
        if (out->ndim <= 1 && (geom_numel(out) == mat->sizes[0] || geom_numel(out) == 1)) {
            input = *out;
        }
        rc = check_same_device("wrapper_CUDA_addmv_out_out", 4, args, names);
    }
    else if (meta_next_to_cpu(mat, vec, NULL)) {
        /* torch's meta mv is a decomposition: its shape checks, then its product of mat and vec checks vec
         * against mat */
        if (mt_meta_mv_check(mat->ndim, mat->sizes, vec->ndim, vec->sizes) < 0) {
            return -1;
        }
        return mt_raise_meta_device_mismatch(mat->device, vec->device);
    }
    else {
        {
            const mm_geom *args[3] = {&input, mat, vec};
            const char *names[3] = {"self", "mat", "vec"};
            rc = check_same_device("wrapper_CUDA_addmv_", 3, args, names);
        }
    }
    if (rc < 0) {
        return -1;
    }
    if (mat->device.type == MT_DEVICE_META && mt_meta_mv_check(mat->ndim, mat->sizes, vec->ndim, vec->sizes) < 0) {
        return -1;
    }
    if (!(mat->ndim == 2 && vec->ndim == 1 && input.ndim <= 1)) {
        snprintf(msg, sizeof msg, "vector + matrix @ vector expected, got %d, %d, %d", input.ndim,
                 mat->ndim, vec->ndim);
        return raise_runtime(msg);
    }
    if (!(mat->sizes[1] == vec->sizes[0]
          && (mat->sizes[0] == geom_numel(&input) || geom_numel(&input) == 1))) {
        if (input.ndim == 0) {
            PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
            return -1;
        }
        snprintf(msg, sizeof msg, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                 (long long)input.sizes[0], (long long)mat->sizes[0], (long long)mat->sizes[1],
                 (long long)vec->sizes[0]);
        return raise_runtime(msg);
    }
    if (mat->device.type == MT_DEVICE_META) {
        /* torch's meta mv is a decomposition computing in the promoted dtype, with no dtype check */
        plan->dtype = mt_promote_types(mat->dtype, vec->dtype);
        plan->device = vec->device;
        return 0;
    }
    if (input.dtype != mat->dtype || mat->dtype != vec->dtype) {
        snprintf(msg, sizeof msg, "addmv input tensors must have the same dtype, but got %s, %s, and %s",
                 mt_dtype_scalar_name(input.dtype), mt_dtype_scalar_name(mat->dtype),
                 mt_dtype_scalar_name(vec->dtype));
        return raise_runtime(msg);
    }
    plan->dtype = vec->dtype;
    plan->device = vec->device;
    if (out != NULL) {
        if (check_out_dtype_device(out, plan->dtype, plan->device) < 0
            || check_out_shape(out, 1, mat->sizes, plan, 0) < 0) {
            return -1;
        }
    }
    /* an empty matrix gives zeros (or nothing) before the dtype dispatch */
    if (mat->sizes[0] == 0 || mat->sizes[1] == 0) {
        return 0;
    }
    if (is_cuda(mat)) {
        if (!mt_dtype_is_floating(mat->dtype)) {
            plan_not_implemented(plan, "addmv_impl_cuda", mat->dtype);
        }
    }
    else if (mat->dtype == MT_BOOL) {
        plan_not_implemented(plan, "addmv_impl_cpu", mat->dtype);
    }
    return 0;
}

/* dot's errors: at once, or with out= (dot_out resizes out before its dtype check and dot_check) raised
 * after the resize, as the plan's kernel error. 0 when deferred, else -1. */
static int
dot_error(const mm_geom *out, mm_plan *plan, const char *msg)
{
    if (out == NULL) {
        return raise_runtime(msg);
    }
    plan_kernel_error(plan, PyExc_RuntimeError, "%s%s", msg, "");
    return 0;
}

/* torch.dot: dot_check in Blas.cpp (dims, dtype, size), then the dtype dispatch, which has no shortcut
 * for empty vectors. dot_out checks out first (its device, resize_output, its dtype), then computes dot. */
static int
plan_dot(const mm_geom *self, const mm_geom *other, const mm_geom *out, mm_plan *plan)
{
    char msg[300];

    plan->torch_gemm = 0;       /* torch's dot is cublasDotEx */
    if (out != NULL) {
        if (!mt_device_equal(out->device, self->device) || !mt_device_equal(self->device, other->device)) {
            char d0[32];
            char d1[32];
            char d2[32];
            mt_device_format(out->device, d0, sizeof d0);
            mt_device_format(self->device, d1, sizeof d1);
            mt_device_format(other->device, d2, sizeof d2);
            snprintf(msg, sizeof msg,
                     "dot: Expected the output and input tensors to be on the same device, but got the "
                     "output tensor on %s, the 'input' tensor on %s, and the 'other' tensor on %s",
                     d0, d1, d2);
            return raise_runtime(msg);
        }
        if (check_out_shape(out, 0, NULL, plan, 0) < 0) {
            return -1;
        }
        if (out->dtype != self->dtype) {
            snprintf(msg, sizeof msg, "result dtype %s does not match input dtype %s",
                     mt_dtype_scalar_name(out->dtype), mt_dtype_scalar_name(self->dtype));
            return dot_error(out, plan, msg);
        }
    }
    else {
        const mm_geom *args[2] = {self, other};
        const char *names[2] = {"self", "tensor"};
        if (check_same_device("wrapper_CUDA__dot", 2, args, names) < 0) {
            return -1;
        }
    }
    if (self->ndim != 1 || other->ndim != 1) {
        snprintf(msg, sizeof msg, "1D tensors expected, but got %dD and %dD tensors", self->ndim,
                 other->ndim);
        return dot_error(out, plan, msg);
    }
    if (self->dtype != other->dtype) {
        /* torch's meta check (_refs' _dot_check) prints the dtypes' Python names */
        int meta = self->device.type == MT_DEVICE_META;
        snprintf(msg, sizeof msg, "dot : expected both vectors to have same dtype, but found %s%s and %s%s",
                 meta ? "minitorch." : "", meta ? mt_dtype_name(self->dtype) : mt_dtype_scalar_name(self->dtype),
                 meta ? "minitorch." : "", meta ? mt_dtype_name(other->dtype) : mt_dtype_scalar_name(other->dtype));
        return dot_error(out, plan, msg);
    }
    if (self->sizes[0] != other->sizes[0]) {
        /* the meta check's text runs "the" and "same" together */
        snprintf(msg, sizeof msg,
                 "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the%snumber "
                 "of elements, but got %lld and %lld elements respectively",
                 (long long)self->sizes[0], (long long)other->sizes[0],
                 self->device.type == MT_DEVICE_META ? "same " : " same ", (long long)self->sizes[0],
                 (long long)other->sizes[0]);
        return dot_error(out, plan, msg);
    }
    plan->dtype = self->dtype;
    plan->device = self->device;
    if (is_cuda(self)) {
        if (!mt_dtype_is_floating(self->dtype)) {
            plan_not_implemented(plan, "dot", self->dtype);
        }
    }
    else if (self->dtype == MT_BOOL && self->device.type != MT_DEVICE_META) {
        plan_not_implemented(plan, "dot", self->dtype);
    }
    return 0;
}

/* matmul's choice between one mm/mv over folded batch rows and a bmm (LinearAlgebra.cpp should_fold). */
static int
should_fold(const mm_geom *tensor1, const mm_geom *tensor2, int has_out)
{
    int tensor1_larger = tensor1->ndim >= tensor2->ndim;
    mm_geom t1 = tensor1_larger ? *tensor1 : *tensor2;
    int dim_t2 = tensor1_larger ? tensor2->ndim : tensor1->ndim;
    int t2_requires_grad = tensor1_larger ? tensor2->requires_grad : tensor1->requires_grad;

    if (!tensor1_larger) {
        geom_transpose_last(&t1);
    }
    if (!(t1.ndim >= 3 && dim_t2 <= 2)) {
        return 0;
    }
    if (t2_requires_grad && !has_out) {
        return 1;
    }
    if (tensor1->ndim == 2) {
        return 0;
    }
    if (geom_numel(&t1) == 0) {
        return 1;
    }
    for (int i = 0; i < t1.ndim - 2; i++) {
        if (t1.strides[i] != t1.strides[i + 1] * t1.sizes[i + 1]) {
            return 0;
        }
    }
    return 1;
}

/* torch.matmul (LinearAlgebra.cpp _matmul_impl): the same sequence of ops on the same intermediate
 * shapes, so that every error is the one torch raises. `out` has matmul's output shape when given. */
static int
plan_matmul(const mm_geom *tensor1, const mm_geom *tensor2, const mm_geom *out, mm_plan *plan)
{
    char msg[200];
    int dim1 = tensor1->ndim;
    int dim2 = tensor2->ndim;
    int has_out = out != NULL;

    if (dim1 == 0 || dim2 == 0) {
        snprintf(msg, sizeof msg, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                 dim1, dim2);
        return raise_runtime(msg);
    }
    if (has_out && (tensor1->requires_grad || tensor2->requires_grad || out->requires_grad)) {
        return mt_out_refuse_grad("matmul");
    }
    if (dim1 == 1 && dim2 == 1) {
        return plan_dot(tensor1, tensor2, out, plan);
    }
    if (dim1 == 2 && dim2 == 1) {
        return plan_mv(tensor1, tensor2, out, plan);
    }
    if (dim1 == 1 && dim2 == 2) {
        /* mm_out(out, tensor1.unsqueeze(0), tensor2).squeeze_(0): out is resized to [1, n] (torch
         * warns, since it had elements) and squeezed back */
        mm_geom row = *tensor1;
        mm_geom out2;
        geom_unsqueeze(&row, 0);
        if (out != NULL) {
            int64_t rs[2] = {1, tensor2->sizes[1]};
            (void)check_out_shape(out, 2, rs, plan, 0);   /* [n] becomes [1, n], squeezed back after */
            out2 = out_geom(out, 2, rs);
            return plan_mm(&row, tensor2, &out2, plan);
        }
        return plan_mm(&row, tensor2, NULL, plan);
    }
    if (dim1 == 2 && dim2 == 2) {
        return plan_mm(tensor1, tensor2, out, plan);
    }
    if (should_fold(tensor1, tensor2, has_out)) {
        /* one mm (or mv) with the batch dims of the larger operand folded into its rows; when the
         * larger operand is the second one it is used transposed */
        int transpose = dim2 > dim1;
        mm_geom t1 = transpose ? *tensor2 : *tensor1;
        mm_geom t2 = transpose ? *tensor1 : *tensor2;
        mm_geom out2;
        int64_t folded[2];
        folded[0] = 1;
        if (transpose) {
            geom_transpose_last(&t1);
            if (dim1 == 2) {
                geom_transpose_last(&t2);
            }
        }
        for (int i = 0; i < t1.ndim - 1; i++) {
            folded[0] *= t1.sizes[i];
        }
        folded[1] = t1.sizes[t1.ndim - 1];
        if (out != NULL) {
            /* matmul resizes out to its output shape, then passes a 2-D (or 1-D) view of it on; with
             * out= torch never folds a transposed product */
            int64_t osizes[MT_MAX_DIMS];
            for (int i = 0; i < t1.ndim - 1; i++) {
                osizes[i] = t1.sizes[i];
            }
            if (t2.ndim == 2) {
                osizes[t1.ndim - 1] = t2.sizes[1];
            }
            if (check_out_shape(out, t1.ndim - 1 + (t2.ndim == 2), osizes, plan, 1) < 0) {
                return -1;
            }
            osizes[0] = folded[0];
            osizes[1] = t2.sizes[t2.ndim - 1];
            out2 = out_geom(out, t2.ndim, osizes);
        }
        geom_reshape(&t1, 2, folded);
        if (t2.ndim == 2) {
            return plan_mm(&t1, &t2, out != NULL ? &out2 : NULL, plan);
        }
        return plan_mv(&t1, &t2, out != NULL ? &out2 : NULL, plan);
    }
    if (dim1 == 3 && dim2 == 3 && tensor1->sizes[0] != tensor2->sizes[0]) {
        if (tensor1->sizes[0] == 1 && tensor1->requires_grad) {
            mm_geom s = *tensor1;
            geom_squeeze0(&s);
            return plan_matmul(&s, tensor2, out, plan);
        }
        if (tensor2->sizes[0] == 1 && tensor2->requires_grad) {
            mm_geom s = *tensor2;
            geom_squeeze0(&s);
            return plan_matmul(tensor1, &s, out, plan);
        }
    }
    {
        /* bmm over the broadcast batch, each operand expanded to it and reshaped to 3-D */
        int64_t n = dim1 > 1 ? tensor1->sizes[dim1 - 2] : 1;
        int64_t m1 = tensor1->sizes[dim1 - 1];
        int nb1 = dim1 > 2 ? dim1 - 2 : 0;
        int64_t m2 = dim2 > 1 ? tensor2->sizes[dim2 - 2] : tensor2->sizes[0];
        int64_t p = dim2 > 1 ? tensor2->sizes[dim2 - 1] : 1;
        int nb2 = dim2 > 2 ? dim2 - 2 : 0;
        int nbatch;
        int64_t batch[MT_MAX_DIMS + 2];
        int64_t product = 1;
        int64_t shape[3];
        mm_geom e1 = *tensor1;
        mm_geom e2 = *tensor2;
        mm_geom out3;

        if (mt_broadcast_shapes(nb1, tensor1->sizes, nb2, tensor2->sizes, &nbatch, batch) < 0) {
            return -1;
        }
        for (int i = 0; i < nbatch; i++) {
            product *= batch[i];
        }
        batch[nbatch] = n;
        batch[nbatch + 1] = m1;
        geom_expand(&e1, nbatch + 2, batch);
        shape[0] = product;
        shape[1] = n;
        shape[2] = m1;
        geom_reshape(&e1, 3, shape);
        if (dim2 == 1) {
            batch[nbatch] = m2;
            geom_expand(&e2, nbatch + 1, batch);
            shape[1] = m2;
            geom_reshape(&e2, 2, shape);
            geom_unsqueeze(&e2, 2);
        }
        else {
            batch[nbatch] = m2;
            batch[nbatch + 1] = p;
            geom_expand(&e2, nbatch + 2, batch);
            shape[1] = m2;
            shape[2] = p;
            geom_reshape(&e2, 3, shape);
        }
        if (out != NULL) {
            int64_t osizes[MT_MAX_DIMS + 2];
            int on = nbatch;
            memcpy(osizes, batch, sizeof(int64_t) * (size_t)nbatch);
            if (dim1 > 1) {
                osizes[on++] = n;
            }
            if (dim2 > 1) {
                osizes[on++] = p;
            }
            if (check_out_shape(out, on, osizes, plan, 1) < 0) {
                return -1;
            }
            shape[1] = n;
            shape[2] = p;
            out3 = out_geom(out, 3, shape);
        }
        return plan_bmm(&e1, &e2, out != NULL ? &out3 : NULL, plan);
    }
}

/* ---- execution ------------------------------------------------------------------------------------ */

/* The shape torch.matmul returns (and mm, bmm, mv, dot as its special cases): the broadcast batch dims,
 * then a's rows unless a is 1-D, then b's columns unless b is 1-D. Called once the checks passed. */
static int
matmul_shape(const mt_TensorObject *a, const mt_TensorObject *b, int *ndim, int64_t *sizes)
{
    int nb1 = a->ndim > 2 ? a->ndim - 2 : 0;
    int nb2 = b->ndim > 2 ? b->ndim - 2 : 0;
    int n;

    if (mt_broadcast_shapes(nb1, a->sizes, nb2, b->sizes, &n, sizes) < 0) {
        return -1;
    }
    if (a->ndim > 1) {
        sizes[n++] = a->sizes[a->ndim - 2];
    }
    if (b->ndim > 1) {
        sizes[n++] = b->sizes[b->ndim - 1];
    }
    *ndim = n;
    return 0;
}

/* Merges batch dims that every operand steps through uniformly, drops size-1 ones, and folds a batch
 * that B does not vary over into the rows of A and C when they are evenly spaced: one large GEMM instead
 * of many small ones, with B packed once. */
static void
desc_coalesce(mt_gemm_desc *d)
{
    int n = 0;

    for (int i = 0; i < d->nbatch; i++) {
        if (d->batch_sizes[i] == 1) {
            continue;
        }
        if (n > 0 && d->a_bs[n - 1] == d->a_bs[i] * d->batch_sizes[i]
            && d->b_bs[n - 1] == d->b_bs[i] * d->batch_sizes[i]
            && d->c_bs[n - 1] == d->c_bs[i] * d->batch_sizes[i]) {
            d->batch_sizes[n - 1] *= d->batch_sizes[i];
            d->a_bs[n - 1] = d->a_bs[i];
            d->b_bs[n - 1] = d->b_bs[i];
            d->c_bs[n - 1] = d->c_bs[i];
            continue;
        }
        d->batch_sizes[n] = d->batch_sizes[i];
        d->a_bs[n] = d->a_bs[i];
        d->b_bs[n] = d->b_bs[i];
        d->c_bs[n] = d->c_bs[i];
        n++;
    }
    d->nbatch = n;
    if (n == 1 && d->b_bs[0] == 0 && d->m == 1) {
        /* one row per matrix: the row stride is free, so the batch stride becomes it */
        d->a_rs = d->a_bs[0];
        d->c_rs = d->c_bs[0];
        d->m = d->batch_sizes[0];
        d->nbatch = 0;
    }
    else if (n == 1 && d->b_bs[0] == 0 && d->a_bs[0] == d->m * d->a_rs && d->c_bs[0] == d->m * d->c_rs) {
        d->m *= d->batch_sizes[0];
        d->nbatch = 0;
    }
}

static int
zero_fill(mt_TensorObject *r)
{
    mt_scalar zero = {MT_INT64, {0}};
    return mt_fill_(r, zero);
}

static int matmul_execute(const mt_TensorObject *a, const mt_TensorObject *b, mt_TensorObject *r, int torch_gemm);

/* Products of the narrow dtypes, computed in a wider one (`wide`) and stored back (r may have that dtype
 * already). uint8, int8 and int16: torch's kernels accumulate in the element type, wrapping; wrapping
 * arithmetic keeps the low bits of every sum and product, so computing in int32 and keeping the low bits
 * gives the same values with the int32 kernels. float16 and bfloat16 on a backend whose gemm does not
 * take them (the host's, the simulated GPU's): torch's CPU accumulates in float32 and rounds each result
 * once, which the float32 kernels and a rounding copy do. */
static int
matmul_execute_narrow(const mt_TensorObject *a, const mt_TensorObject *b, mt_TensorObject *r, mt_dtype wide)
{
    mt_TensorObject *a32 = mt_copy_to((mt_TensorObject *)a, wide, mt_tensor_device(a));
    mt_TensorObject *b32 = a32 != NULL ? mt_copy_to((mt_TensorObject *)b, wide, mt_tensor_device(b)) : NULL;
    mt_TensorObject *r32 = NULL;
    int rc = -1;

    if (b32 != NULL && r->dtype == wide) {
        rc = matmul_execute(a32, b32, r, 0);
    }
    else if (b32 != NULL) {
        r32 = mt_tensor_empty(r->ndim, r->sizes, wide, mt_tensor_device(r));
        if (r32 != NULL && matmul_execute(a32, b32, r32, 0) == 0) {
            rc = mt_copy_(r, r32);
        }
    }
    Py_XDECREF(a32);
    Py_XDECREF(b32);
    Py_XDECREF(r32);
    return rc;
}

/* result[..., i, j] = sum_k a[..., i, k] * b[..., k, j], a 1-D `a` read as one row and a 1-D `b` as one
 * column, batch dims broadcast; `r` has matmul_shape(a, b) and a's dtype, or float32 for float16 or
 * bfloat16 operands (their products unrounded). a, b and r are referenced by the caller for the whole
 * call, so the GIL can be released while the kernel runs. torch_gemm: mt_gemm_desc's. */
static int
matmul_execute(const mt_TensorObject *a, const mt_TensorObject *b, mt_TensorObject *r, int torch_gemm)
{
    mt_gemm_desc d;
    int a_mat = a->ndim > 1;
    int b_mat = b->ndim > 1;
    int nb1 = a->ndim > 2 ? a->ndim - 2 : 0;
    int nb2 = b->ndim > 2 ? b->ndim - 2 : 0;
    mt_device device = mt_tensor_device(r);
    const mt_TensorObject *operands[3] = {r, a, b};
    double macs;
    int rc;

    if (mt_tensor_numel(r) == 0 || device.type == MT_DEVICE_META || mt_tensor_device(a).type == MT_DEVICE_META
        || mt_tensor_device(b).type == MT_DEVICE_META) {
        return 0;   /* no data; a CPU result next to a meta operand stays as torch leaves it, unwritten */
    }
    if (a->sizes[a->ndim - 1] == 0) {
        return zero_fill(r);
    }
    if (a->dtype != b->dtype || a->dtype == MT_BOOL
        || (r->dtype != a->dtype && !(mt_dtype_is_reduced_floating(a->dtype) && r->dtype == MT_FLOAT32))) {
        /* unreachable: the plans raise for these before any product is attempted */
        return raise_runtime("minitorch internal error: matmul operands and result differ in dtype");
    }
    if (mt_dtype_is_integral(a->dtype, 0) && mt_dtype_size(a->dtype) < 4) {
        return matmul_execute_narrow(a, b, r, MT_INT32);
    }
    if (mt_dtype_is_reduced_floating(a->dtype)) {
        /* the backend's gemm multiplies the 16-bit operands where it can (cuBLAS's GemmEx), with no float32
         * copies, as torch's CUDA kernels do */
        const mt_backend *be = mt_backend_for(device);
        if (be == NULL) {
            return -1;
        }
        if (!be->gemm_takes_reduced) {
            return matmul_execute_narrow(a, b, r, MT_FLOAT32);
        }
    }
    /* every field the kernels read is set below (the batch arrays up to nbatch): no 2 KiB memset */
    d.dtype = a->dtype;
    d.c_dtype = r->dtype;
    d.torch_gemm = torch_gemm;
    d.m = a_mat ? a->sizes[a->ndim - 2] : 1;
    d.k = a->sizes[a->ndim - 1];
    d.n = b_mat ? b->sizes[b->ndim - 1] : 1;
    d.a = mt_tensor_data(a);
    d.a_rs = a_mat ? a->strides[a->ndim - 2] : 0;
    d.a_cs = a->strides[a->ndim - 1];
    d.b = mt_tensor_data(b);
    d.b_rs = b_mat ? b->strides[b->ndim - 2] : b->strides[0];
    d.b_cs = b_mat ? b->strides[b->ndim - 1] : 0;
    d.c = mt_tensor_data(r);
    d.c_rs = a_mat ? r->strides[r->ndim - 1 - b_mat] : 0;
    d.c_cs = b_mat ? r->strides[r->ndim - 1] : 0;
    d.nbatch = r->ndim - a_mat - b_mat;
    if (d.nbatch > MT_GEMM_MAX_BATCH_DIMS) {
        return raise_runtime("matmul: too many batch dimensions");
    }
    for (int i = 0; i < d.nbatch; i++) {
        int ia = i - (d.nbatch - nb1);
        int ib = i - (d.nbatch - nb2);
        d.batch_sizes[i] = r->sizes[i];
        d.a_bs[i] = ia >= 0 && a->sizes[ia] != 1 ? a->strides[ia] : 0;
        d.b_bs[i] = ib >= 0 && b->sizes[ib] != 1 ? b->strides[ib] : 0;
        d.c_bs[i] = r->strides[i];
    }
    desc_coalesce(&d);

    macs = (double)d.m * (double)d.n * (double)d.k;
    for (int i = 0; i < d.nbatch; i++) {
        macs *= (double)d.batch_sizes[i];
    }
    MT_RUN_BACKEND(rc, device, macs >= MATMUL_GIL_RELEASE_MACS, operands, 3, gemm, &d);
    return rc;
}

/* ---- the ops ---------------------------------------------------------------------------------------- */

typedef mt_mm_op mm_op;

static const char *const op_names[] = {"matmul", "mm", "bmm", "mv", "dot"};

/* Plans, checks out=, raises the kernel's error if any, computes. New reference or NULL. */
static PyObject *
matmul_compute(mm_op op, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *out)
{
    mm_geom ga;
    mm_geom gb;
    mm_geom gout;
    mm_geom *pout = NULL;
    mm_plan plan;
    int ndim = 0;
    int64_t sizes[MT_MAX_DIMS + 2];
    mt_TensorObject *result = NULL;
    int rc;

    if ((op == MT_MM_MATMUL || op == MT_MM_MM) && out == NULL && a->ndim == 2 && b->ndim == 2 && a->dtype == b->dtype &&
        a->dtype != MT_BOOL && a->sizes[1] == b->sizes[0] && mt_tensor_device(a).type == MT_DEVICE_CPU &&
        mt_tensor_device(b).type == MT_DEVICE_CPU) {
        /* the common case, two CPU matrices that fit: every check below would pass, so skip planning */
        sizes[0] = a->sizes[0];
        sizes[1] = b->sizes[1];
        result = mt_tensor_empty(2, sizes, a->dtype, mt_tensor_device(a));
        if (result == NULL || matmul_execute(a, b, result, 1) < 0) {
            goto error;
        }
        return (PyObject *)result;
    }
    geom_from_tensor(a, &ga);
    geom_from_tensor(b, &gb);
    memset(&plan, 0, sizeof plan);
    if (out != NULL) {
        geom_from_tensor(out, &gout);
        pout = &gout;
        if (op != MT_MM_MATMUL && (mt_requires_grad(a) || mt_requires_grad(b) || mt_requires_grad(out))) {
            mt_out_refuse_grad(op_names[op]);
            return NULL;
        }
        if ((ga.device.type == MT_DEVICE_META || gb.device.type == MT_DEVICE_META || gout.device.type == MT_DEVICE_META)
            && ga.device.type != MT_DEVICE_CUDA && gb.device.type != MT_DEVICE_CUDA) {
            /* a meta operand (or out) runs torch's meta functions and decompositions of these ops, which write
             * out through their out_wrapper, wanting the result's dtype */
            PyObject *r = mt_out_check_meta_device(a, out) == 0 ? matmul_compute(op, a, b, NULL) : NULL;
            PyObject *written = r != NULL ? mt_out_write_wrapped(out, (mt_TensorObject *)r, 1) : NULL;
            Py_XDECREF(r);
            return written;
        }
    }
    switch (op) {
    case MT_MM_MATMUL:
        rc = plan_matmul(&ga, &gb, pout, &plan);
        break;
    case MT_MM_MM:
        rc = plan_mm(&ga, &gb, pout, &plan);
        break;
    case MT_MM_BMM:
        rc = plan_bmm(&ga, &gb, pout, &plan);
        break;
    case MT_MM_MV:
        rc = plan_mv(&ga, &gb, pout, &plan);
        break;
    default:
        rc = plan_dot(&ga, &gb, pout, &plan);
        break;
    }
    if (rc < 0) {
        return NULL;
    }
    /* out is resized once the meta checks passed, before the kernel's own errors */
    if (out != NULL && plan.out_resize
        && (plan.out_warned ? mt_resize_(out, plan.out_ndim, plan.out_sizes, MT_NUM_MEMORY_FORMATS)
                            : mt_resize_output(out, plan.out_ndim, plan.out_sizes)) < 0) {
        return NULL;
    }
    if (plan.kernel_exc != NULL) {
        PyErr_SetString(plan.kernel_exc, plan.kernel_msg);
        return NULL;
    }
    if (matmul_shape(a, b, &ndim, sizes) < 0) {
        return NULL;
    }
    result = mt_tensor_empty(ndim, sizes, plan.dtype, plan.device);
    if (result == NULL) {
        goto error;
    }
    if (matmul_execute(a, b, result, plan.torch_gemm) < 0) {
        goto error;
    }
    if (out != NULL) {
        if ((out->ndim != ndim || memcmp(out->sizes, sizes, sizeof(int64_t) * (size_t)ndim) != 0)
            && mt_resize_(out, ndim, sizes, MT_NUM_MEMORY_FORMATS) < 0) {
            goto error;     /* matmul of a vector and a matrix: out's [1, n] squeezed back to [n] */
        }
        if (mt_copy_(out, result) < 0) {
            goto error;
        }
        Py_DECREF(result);
        Py_INCREF(out);
        return (PyObject *)out;
    }
    return (PyObject *)result;

error:
    Py_XDECREF(result);
    return NULL;
}

/* ---- autograd: matmul as torch composes it, each part recording its node ----------------------------- */

/* torch's _unsafe_view: a view of a fresh result, recorded as UnsafeViewBackward0 */
static PyObject *
unsafe_view(PyObject *r, int ndim, const int64_t *sizes)
{
    mt_TensorObject *v = NULL;

    if (r == NULL) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(v = mt_view((mt_TensorObject *)r, ndim, sizes));
    if (v != NULL) {
        Py_CLEAR(v->base);      /* not a view for autograd: in-place ops on it are fine */
    }
    if (v != NULL && mt_ag_view(MT_AG_UNSAFE_VIEW, (mt_TensorObject *)r, v, 0, NULL) < 0) {
        Py_CLEAR(v);
    }
    Py_DECREF(r);
    return (PyObject *)v;
}

/* at::native::matmul's cases beyond mm, mv and dot, as torch computes them when autograd records: 1-D @
 * 2-D is unsqueeze, mm, squeeze_; an N-D input times a matrix or vector is folded into one mm or mv;
 * everything else is broadcast into one bmm. */
static PyObject *
matmul_composite(mt_TensorObject *a, mt_TensorObject *b)
{
    int64_t shape[MT_MAX_DIMS + 2], sizes[MT_MAX_DIMS + 2];
    int nshape = 0;
    PyObject *r = NULL;
    mt_TensorObject *x = NULL, *y = NULL;

    if (a->ndim == 1 && b->ndim == 2) {
        int64_t zero = 0;
        x = mt_unsqueeze(a, 0);
        r = x != NULL ? mt_matmul_op(MT_MM_MM, x, b, NULL) : NULL;
        Py_XDECREF(x);
        if (r != NULL) {
            mt_TensorObject *sq = NULL;
            MT_BELOW_AUTOGRAD(sq = mt_squeeze((mt_TensorObject *)r, 1, &zero));
            if (sq != NULL && mt_ag_view(MT_AG_SQUEEZE_DIM_INPLACE, (mt_TensorObject *)r, sq, 0, NULL) < 0) {
                Py_CLEAR(sq);
            }
            Py_SETREF(r, (PyObject *)sq);
        }
        return r;
    }
    if (a->ndim >= 3 && (b->ndim == 1 || b->ndim == 2)) {
        int64_t rows = 1, folded[2];
        for (int d = 0; d < a->ndim - 1; d++) {
            shape[nshape++] = a->sizes[d];
            rows *= a->sizes[d];
        }
        if (b->ndim == 2) {
            shape[nshape++] = b->sizes[1];
        }
        folded[0] = rows;
        folded[1] = a->sizes[a->ndim - 1];
        x = mt_reshape(a, 2, folded);
        r = x != NULL ? mt_matmul_op(b->ndim == 2 ? MT_MM_MM : MT_MM_MV, x, b, NULL) : NULL;
        Py_XDECREF(x);
        return unsafe_view(r, nshape, shape);
    }
    {
        /* batched: both broadcast to the batch shape and flattened into one bmm */
        int64_t n = a->ndim > 1 ? a->sizes[a->ndim - 2] : 1, m1 = a->sizes[a->ndim - 1];
        int64_t m2 = b->ndim > 1 ? b->sizes[b->ndim - 2] : b->sizes[0], p = b->ndim > 1 ? b->sizes[b->ndim - 1] : 1;
        int na = a->ndim > 2 ? a->ndim - 2 : 0, nb = b->ndim > 2 ? b->ndim - 2 : 0, nbatch;
        int64_t batch = 1, three[3];
        mt_TensorObject *xe = NULL, *ye = NULL;

        if (mt_broadcast_shapes(na, a->sizes, nb, b->sizes, &nbatch, shape) < 0) {
            return NULL;
        }
        for (int d = 0; d < nbatch; d++) {
            batch *= shape[d];
        }
        memcpy(sizes, shape, sizeof(int64_t) * (size_t)nbatch);
        sizes[nbatch] = n;
        sizes[nbatch + 1] = m1;
        xe = mt_expand(a, nbatch + 2, sizes);
        three[0] = batch;
        three[1] = n;
        three[2] = m1;
        x = xe != NULL ? mt_reshape(xe, 3, three) : NULL;
        sizes[nbatch] = m2;
        sizes[nbatch + 1] = p;
        ye = x != NULL ? mt_expand(b, b->ndim == 1 ? nbatch + 1 : nbatch + 2, sizes) : NULL;
        three[1] = m2;
        three[2] = p;
        if (ye != NULL && b->ndim == 1) {
            mt_TensorObject *flat = mt_reshape(ye, 2, three);
            y = flat != NULL ? mt_unsqueeze(flat, 2) : NULL;
            Py_XDECREF(flat);
        }
        else if (ye != NULL) {
            y = mt_reshape(ye, 3, three);
        }
        r = y != NULL ? mt_matmul_op(MT_MM_BMM, x, y, NULL) : NULL;
        Py_XDECREF(xe);
        Py_XDECREF(ye);
        Py_XDECREF(x);
        Py_XDECREF(y);
        nshape = nbatch;
        if (a->ndim > 1) {
            shape[nshape++] = n;
        }
        if (b->ndim > 1) {
            shape[nshape++] = p;
        }
        if (r != NULL && b->ndim == 1) {
            int64_t last = -1;
            mt_TensorObject *sq = mt_squeeze((mt_TensorObject *)r, 1, &last);
            Py_SETREF(r, (PyObject *)sq);
        }
        return unsafe_view(r, nshape, shape);
    }
}

PyObject *
mt_matmul_op(mm_op op, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *out)
{
    mt_TensorObject *in[2] = {a, b};
    mt_ag_product kind;
    PyObject *r;

    if (out != NULL || !mt_ag_needed(2, in)) {
        return matmul_compute(op, a, b, out);
    }
    switch (op) {
    case MT_MM_MM:
        kind = MT_AG_MM;
        break;
    case MT_MM_BMM:
        kind = MT_AG_BMM;
        break;
    case MT_MM_MV:
        kind = MT_AG_MV;
        break;
    case MT_MM_DOT:
        kind = MT_AG_DOT;
        break;
    default:
        if (a->ndim == 1 && b->ndim == 1) {
            kind = MT_AG_DOT;
        }
        else if (a->ndim == 2 && b->ndim == 1) {
            kind = MT_AG_MV;
        }
        else if (a->ndim == 2 && b->ndim == 2) {
            kind = MT_AG_MM;
        }
        else if (a->ndim == 0 || b->ndim == 0) {
            return matmul_compute(op, a, b, out);   /* torch's error for 0-d operands */
        }
        else {
            return matmul_composite(a, b);
        }
    }
    MT_BELOW_AUTOGRAD(r = matmul_compute(op, a, b, out));
    if (r != NULL && mt_ag_product_op(kind, a, b, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt_matmul(mt_TensorObject *a, mt_TensorObject *b)
{
    return mt_matmul_op(MT_MM_MATMUL, a, b, NULL);
}

mt_TensorObject *
mt_matmul_reduced_in_float32(const mt_TensorObject *a, const mt_TensorObject *b, int torch_gemm)
{
    int ndim = 0;
    int64_t sizes[MT_MAX_DIMS + 2];
    mt_TensorObject *r;

    if (matmul_shape(a, b, &ndim, sizes) < 0) {
        return NULL;
    }
    r = mt_tensor_empty(ndim, sizes, MT_FLOAT32, mt_tensor_device(a));
    if (r != NULL && matmul_execute(a, b, r, torch_gemm) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

int
mt_matmul_check_devices(const char *method, int n, mt_TensorObject *const *tensors, const char *const *names)
{
    mm_geom geoms[4];
    const mm_geom *args[4];

    for (int i = 0; i < n && i < 4; i++) {
        geom_from_tensor(tensors[i], &geoms[i]);
        args[i] = &geoms[i];
    }
    return check_same_device(method, n < 4 ? n : 4, args, names);
}
