/* cuda_ops.c: the op-level entry points of the CUDA kernels (cuda_kernels.h, part 2). It translates
 * minitorch's kernel descriptions (an mt_iter, an mt_reduce_input, a tensor) into the plain structs the
 * launchers in kernels.cu take, borrows scratch memory from the caching allocator, and turns a launch
 * error into torch's exception. It holds no arithmetic and never touches element data. In a CPU-only
 * build the same functions exist and raise, so callers need no #ifdef. */
#include "cuda_kernels.h"

#include <math.h>
#include <string.h>

#include "../../core/devices.h"
#include "../../runtime/runtime.h"
#include "../cpu/philox.h"

#ifdef MINITORCH_WITH_CUDA

int
mt_cuda_raise(int err)
{
    const char *text = mt_cuda_runtime()->error_string(err);
    /* torch's C10_CUDA_CHECK text; AcceleratorError is a RuntimeError, as torch.AcceleratorError */
    PyErr_Format(mt_AcceleratorError,
                 "CUDA error: %s\n"
                 "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace "
                 "below might be incorrect.\n"
                 "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
                 "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
                 text != NULL ? text : "unknown error");
    return -1;
}

static int
checked(int err)
{
    return err == MT_RT_SUCCESS ? 0 : mt_cuda_raise(err);
}

/* A copy of the iterator for a launcher, which takes at most MT_CUDA_MAX_OPS operands. */
static int
geometry_from_iter(const mt_iter *it, mt_iter *g)
{
    if (it->nops > MT_CUDA_MAX_OPS) {
        PyErr_SetString(PyExc_RuntimeError, "minitorch internal error: CUDA kernel geometry too large");
        return -1;
    }
    *g = *it;
    return 0;
}

int
mt_cuda_binary(int device, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values)
{
    mt_iter g;
    mt_cuda_binary_params p;

    if (geometry_from_iter(it, &g) < 0) {
        return -1;
    }
    memset(&p, 0, sizeof(p));
    p.op = args->op;
    p.dtype = args->dtype;
    p.out_dtype = args->out_dtype;
    p.in_dtype[0] = args->a_dtype;
    p.in_dtype[1] = args->b_dtype;
    for (int k = 0; k < 2; k++) {
        if (host_values & (1u << (k + 1))) {
            /* a host element: read it now and pass it by value; the kernel never sees the pointer */
            p.in_is_value[k] = 1;
            memcpy(p.in_value[k].bytes, it->data[k + 1], mt_dtype_size(p.in_dtype[k]));
            g.data[k + 1] = NULL;
            for (int d = 0; d < g.ndim; d++) {
                g.strides[k + 1][d] = 0;
            }
        }
    }
    if (mt_dtype_is_floating(args->dtype)) {
        p.alpha_f = args->alpha.d;
    }
    else {
        p.alpha_i = args->alpha.i;
    }
    return checked(mt_cuda_launch_binary(device, &g, &p));
}

int
mt_cuda_unary(int device, const mt_iter *it, const mt_unary_kernel_args *args)
{
    mt_iter g;
    mt_cuda_unary_params p;

    if (geometry_from_iter(it, &g) < 0) {
        return -1;
    }
    p.op = args->op;
    p.dtype = args->dtype;
    p.out_dtype = args->out_dtype;
    p.in_dtype = args->in_dtype;
    return checked(mt_cuda_launch_unary(device, &g, &p));
}

int
mt_cuda_copy(mt_TensorObject *dst, mt_TensorObject *src)
{
    mt_iter it;
    mt_iter g;

    mt_iter_init(&it, dst->ndim, dst->sizes);
    mt_iter_add(&it, mt_tensor_data(dst), dst->ndim, dst->sizes, dst->strides, mt_dtype_size(dst->dtype));
    mt_iter_add(&it, mt_tensor_data(src), src->ndim, src->sizes, src->strides, mt_dtype_size(src->dtype));
    mt_iter_coalesce(&it);
    if (it.numel == 0) {
        return 0;
    }
    if (geometry_from_iter(&it, &g) < 0) {
        return -1;
    }
    return checked(mt_cuda_launch_cast(mt_tensor_device(dst).index, &g, dst->dtype, src->dtype));
}

int
mt_cuda_fill(mt_TensorObject *t, const void *value)
{
    mt_iter it;
    mt_iter g;
    mt_value v;
    size_t size = mt_dtype_size(t->dtype);

    mt_iter_init(&it, t->ndim, t->sizes);
    mt_iter_add(&it, mt_tensor_data(t), t->ndim, t->sizes, t->strides, size);
    mt_iter_coalesce(&it);
    if (it.numel == 0) {
        return 0;
    }
    if (geometry_from_iter(&it, &g) < 0) {
        return -1;
    }
    memset(&v, 0, sizeof(v));
    memcpy(v.bytes, value, size);
    return checked(mt_cuda_launch_fill(mt_tensor_device(t).index, &g, size, v));
}

/* Appends dim (size, stride) to a list, dropping size-1 dims and merging it into the previous one when
 * the pair steps through memory as one dim (row-major order is kept, so linear indices stay valid). */
static void
push_dim(int *n, int64_t *shape, int64_t *strides, int64_t size, int64_t stride)
{
    if (size == 1) {
        return;
    }
    if (*n > 0 && strides[*n - 1] == stride * size && size != 0 && shape[*n - 1] != 0) {
        shape[*n - 1] *= size;
        strides[*n - 1] = stride;
        return;
    }
    shape[*n] = size;
    strides[*n] = stride;
    (*n)++;
}

static int
run_reduce(int device, mt_cuda_reduce_params *p)
{
    size_t scratch_bytes = mt_cuda_reduce_scratch_bytes(device, p);
    void *scratch = NULL;
    int err;

    if (scratch_bytes > 0) {
        /* partial results of long reductions: caching-allocator memory, as torch's reductions take it */
        scratch = mt_cuda_malloc(device, scratch_bytes);
        if (scratch == NULL) {
            return -1;
        }
    }
    err = mt_cuda_launch_reduce(device, p, scratch);
    /* the kernels are queued on the one stream every later use of this block also runs on */
    mt_cuda_free(device, scratch);
    return checked(err);
}

static void
split_dims(mt_cuda_reduce_params *p, const mt_reduce_input *in, uint64_t mask)
{
    p->out_ndim = 0;
    p->red_ndim = 0;
    for (int d = 0; d < in->ndim; d++) {
        if (mask & ((uint64_t)1 << d)) {
            push_dim(&p->red_ndim, p->red_shape, p->red_strides, in->sizes[d], in->strides[d]);
        }
        else {
            push_dim(&p->out_ndim, p->out_shape, p->out_strides, in->sizes[d], in->strides[d]);
        }
    }
}

int
mt_cuda_reduce(int device, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int mean, char *out,
               mt_dtype out_dtype)
{
    mt_cuda_reduce_params *p;
    int64_t outputs = 1, numel = 1;
    int rc;

    for (int d = 0; d < in->ndim; d++) {
        numel *= in->sizes[d];
        if (!(mask & ((uint64_t)1 << d))) {
            outputs *= in->sizes[d];
        }
    }
    if (outputs == 0) {
        return 0;
    }
    p = PyMem_RawCalloc(1, sizeof(*p));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->op = op;
    p->in_dtype = in->dtype;
    p->out_dtype = out_dtype;
    p->data = in->data;
    p->values = out;
    split_dims(p, in, mask);
    if (mean) {
        /* torch's CUDA mean: the sum times (outputs / inputs) computed in the accumulation type,
         * which for float32 is float (MeanOps' factor); 0/0 makes an empty mean NaN */
        if (out_dtype == MT_FLOAT32) {
            p->mean_factor = (double)((float)outputs / (float)numel);
        }
        else {
            p->mean_factor = (double)outputs / (double)numel;
        }
        if (numel == 0) {
            p->mean_factor = NAN; /* an empty mean is NaN, as torch fills it */
        }
    }
    rc = run_reduce(device, p);
    PyMem_RawFree(p);
    return rc;
}

int
mt_cuda_arg_reduce(int device, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    mt_cuda_reduce_params *p;
    uint64_t mask = dim < 0 ? (in->ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << in->ndim) - 1)) : (uint64_t)1 << dim;
    int rc;

    p = PyMem_RawCalloc(1, sizeof(*p));
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    p->op = is_max ? MT_REDUCE_ARGMAX : MT_REDUCE_ARGMIN;
    p->in_dtype = in->dtype;
    p->out_dtype = in->dtype;
    p->data = in->data;
    p->values = values;
    p->indices = indices;
    split_dims(p, in, mask);
    rc = run_reduce(device, p);
    PyMem_RawFree(p);
    return rc;
}

/* The Philox kernels write a dense buffer front to back (memory order), so any dense layout will do. */
static int
check_contiguous(const mt_TensorObject *t)
{
    if (!mt_tensor_is_non_overlapping_and_dense(t)) {
        PyErr_SetString(PyExc_RuntimeError, "minitorch internal error: Philox fills need a dense tensor");
        return -1;
    }
    return 0;
}

int
mt_cuda_philox_uniform(mt_TensorObject *t, uint64_t seed, uint64_t offset, double from, double to, uint64_t *blocks)
{
    int64_t n = mt_tensor_numel(t);
    if (check_contiguous(t) < 0) {
        return -1;
    }
    *blocks = t->dtype == MT_FLOAT32 ? mt_philox_blocks_32(n) : mt_philox_blocks_64(n);
    return checked(mt_cuda_launch_philox_uniform(mt_tensor_device(t).index, t->dtype, mt_tensor_data(t), n,
                                                 seed, offset, from, to));
}

int
mt_cuda_philox_normal(mt_TensorObject *t, uint64_t seed, uint64_t offset, double mean, double std, uint64_t *blocks)
{
    int64_t n = mt_tensor_numel(t);
    if (check_contiguous(t) < 0) {
        return -1;
    }
    *blocks = t->dtype == MT_FLOAT32 ? mt_philox_blocks_32(n) : mt_philox_blocks_64(n);
    return checked(mt_cuda_launch_philox_normal(mt_tensor_device(t).index, t->dtype, mt_tensor_data(t), n,
                                                seed, offset, mean, std));
}

int
mt_cuda_philox_randint(mt_TensorObject *t, uint64_t seed, uint64_t offset, int64_t low, int64_t high,
                       uint64_t *blocks)
{
    int64_t n = mt_tensor_numel(t);
    if (check_contiguous(t) < 0) {
        return -1;
    }
    *blocks = low < high ? mt_philox_blocks_randint(n, (uint64_t)high - (uint64_t)low) : 0;
    return checked(mt_cuda_launch_philox_randint(mt_tensor_device(t).index, t->dtype, mt_tensor_data(t), n,
                                                 seed, offset, low, high));
}

#else /* a CPU-only build: nothing lives in real device memory, so none of these is reachable */

static int
not_compiled(void)
{
    PyErr_SetString(PyExc_AssertionError, "minitorch not compiled with CUDA enabled");
    return -1;
}

int
mt_cuda_raise(int err)
{
    (void)err;
    return not_compiled();
}

int
mt_cuda_binary(int device, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values)
{
    return not_compiled();
}

int
mt_cuda_unary(int device, const mt_iter *it, const mt_unary_kernel_args *args)
{
    return not_compiled();
}

int
mt_cuda_copy(mt_TensorObject *dst, mt_TensorObject *src)
{
    return not_compiled();
}

int
mt_cuda_fill(mt_TensorObject *t, const void *value)
{
    return not_compiled();
}

int
mt_cuda_reduce(int device, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int mean, char *out,
               mt_dtype out_dtype)
{
    return not_compiled();
}

int
mt_cuda_arg_reduce(int device, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    return not_compiled();
}

int
mt_cuda_philox_uniform(mt_TensorObject *t, uint64_t seed, uint64_t offset, double from, double to, uint64_t *blocks)
{
    return not_compiled();
}

int
mt_cuda_philox_normal(mt_TensorObject *t, uint64_t seed, uint64_t offset, double mean, double std, uint64_t *blocks)
{
    return not_compiled();
}

int
mt_cuda_philox_randint(mt_TensorObject *t, uint64_t seed, uint64_t offset, int64_t low, int64_t high,
                       uint64_t *blocks)
{
    return not_compiled();
}

#endif /* MINITORCH_WITH_CUDA */
