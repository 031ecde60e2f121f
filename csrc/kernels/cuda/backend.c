/* backend.c: the cuda backend (kernels/backend.h): the table of CUDA kernels for the memory of a real
 * CUDA device. Each entry translates a kernel description (an mt_iter, an mt_reduce_input, a Philox
 * fill, an index plan) into the plain structs the launchers in kernels.cu take, borrows temporary
 * device memory through the call context, and turns a launch error into a status. It holds no
 * arithmetic, never touches element data and never raises. In a build without CUDA the table is NULL. */
#include "../backend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/runtime.h"
#include "../cpu/philox.h"
#include "cublas.h"
#include "cuda_kernels.h"

#ifdef MINITORCH_WITH_CUDA

static int
launched(mt_kctx *ctx, int err)
{
    const char *text;

    if (err == MT_RT_SUCCESS) {
        return 0;
    }
    text = mt_cuda_runtime()->error_string(err);
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_CUDA_ERROR, err, "%s", text != NULL ? text : "unknown error");
}

static int
check_operands(mt_kctx *ctx, const mt_iter *it)
{
    if (it->nops > MT_CUDA_MAX_OPS) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0,
                              "minitorch internal error: CUDA kernel geometry too large");
    }
    return 0;
}

/* Input k of g (operand k + 1), when bit k + 1 of host_values marks it a host element: read it now into
 * *value (size bytes) and drop it from g, so the kernel gets it by value and never sees the pointer.
 * Returns 1 for a host element, else 0. */
static int
take_host_value(mt_iter *g, unsigned host_values, int k, size_t size, mt_value *value)
{
    if (!(host_values & (1u << (k + 1)))) {
        return 0;
    }
    memcpy(value->bytes, g->data[k + 1], size);
    g->data[k + 1] = NULL;
    for (int d = 0; d < g->ndim; d++) {
        g->strides[k + 1][d] = 0;
    }
    return 1;
}

static int
cuda_binary(mt_kctx *ctx, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values)
{
    mt_iter g;
    mt_cuda_binary_params p;

    if (check_operands(ctx, it) < 0 || mt_kstatus_reduced_refused(ctx, "binary", args->dtype) < 0) {
        return -1;
    }
    g = *it;
    memset(&p, 0, sizeof(p));
    p.op = args->op;
    p.dtype = args->dtype;
    p.out_dtype = args->out_dtype;
    p.in_dtype[0] = args->a_dtype;
    p.in_dtype[1] = args->b_dtype;
    for (int k = 0; k < 2; k++) {
        p.in_is_value[k] = take_host_value(&g, host_values, k, mt_dtype_size(p.in_dtype[k]), &p.in_value[k]);
    }
    if (mt_dtype_is_floating(args->dtype)) {
        p.alpha_f = args->alpha.d;
    }
    else {
        p.alpha_i = args->alpha.i;
    }
    return launched(ctx, mt_cuda_launch_binary(ctx->device, &g, &p));
}

static int
cuda_where(mt_kctx *ctx, const mt_iter *it, int itemsize, unsigned host_values)
{
    mt_iter g = *it;
    mt_cuda_where_params p;

    memset(&p, 0, sizeof(p));
    p.itemsize = itemsize;
    for (int k = 0; k < 3; k++) {
        p.is_value[k] = take_host_value(&g, host_values, k, k == 0 ? 1 : (size_t)itemsize, &p.value[k]);
    }
    return launched(ctx, mt_cuda_launch_where(ctx->device, &g, &p));
}

static int
cuda_fma(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, unsigned host_values)
{
    mt_iter g = *it;
    mt_cuda_fma_params p;

    memset(&p, 0, sizeof(p));
    p.dtype = dtype;
    for (int k = 0; k < 3; k++) {
        p.is_value[k] = take_host_value(&g, host_values, k, mt_dtype_size(dtype), &p.value[k]);
    }
    return launched(ctx, mt_cuda_launch_fma(ctx->device, &g, &p));
}

static int
cuda_unary(mt_kctx *ctx, const mt_iter *it, const mt_unary_kernel_args *args)
{
    mt_cuda_unary_params p;

    if (check_operands(ctx, it) < 0 || mt_kstatus_reduced_refused(ctx, "unary", args->dtype) < 0) {
        return -1;
    }
    p.op = args->op;
    p.dtype = args->dtype;
    p.out_dtype = args->out_dtype;
    p.in_dtype = args->in_dtype;
    return launched(ctx, mt_cuda_launch_unary(ctx->device, it, &p));
}

static int
cuda_cast(mt_kctx *ctx, const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype)
{
    if (check_operands(ctx, it) < 0) {
        return -1;
    }
    return launched(ctx, mt_cuda_launch_cast(ctx->device, it, dst_dtype, src_dtype));
}

static int
cuda_fill(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, mt_value value)
{
    return launched(ctx, mt_cuda_launch_fill(ctx->device, it, mt_dtype_size(dtype), value));
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

/* Fills *p with the launch parameters of a reduction of `in` over the dims in `mask` (on the caller's
 * stack: a launch allocates nothing on the host). */
static void
reduce_params(mt_cuda_reduce_params *p, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, char *values)
{
    memset(p, 0, sizeof(*p));
    p->op = op;
    p->in_dtype = in->dtype;
    p->out_dtype = (op == MT_REDUCE_ALL || op == MT_REDUCE_ANY) ? MT_BOOL : in->dtype;
    p->data = in->data;
    p->values = values;
    for (int d = 0; d < in->ndim; d++) {
        if (mask & ((uint64_t)1 << d)) {
            push_dim(&p->red_ndim, p->red_shape, p->red_strides, in->sizes[d], in->strides[d]);
        }
        else {
            push_dim(&p->out_ndim, p->out_shape, p->out_strides, in->sizes[d], in->strides[d]);
        }
    }
}

/* Launches the reduction with its scratch memory (partial results of long reductions). */
static int
run_reduce(mt_kctx *ctx, const mt_cuda_reduce_params *p)
{
    size_t scratch_bytes = mt_cuda_reduce_scratch_bytes(ctx->device, p);
    void *scratch = NULL;
    int rc;

    if (scratch_bytes > 0 && ctx->scratch_alloc(ctx->device, scratch_bytes, &scratch, &ctx->status) < 0) {
        return -1;
    }
    rc = launched(ctx, mt_cuda_launch_reduce(ctx->device, p, scratch));
    /* the kernels are queued on the one stream every later use of this block also runs on */
    if (scratch != NULL) {
        ctx->scratch_free(ctx->device, scratch);
    }
    return rc;
}

static int
cuda_reduce(mt_kctx *ctx, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean,
            char *out)
{
    mt_cuda_reduce_params p;
    int64_t outputs = 1, numel = 1;

    (void)keepdim;
    if (mt_kstatus_reduced_refused(ctx, "reduce", in->dtype) < 0) {
        return -1;
    }
    for (int d = 0; d < in->ndim; d++) {
        numel *= in->sizes[d];
        if (!(mask & ((uint64_t)1 << d))) {
            outputs *= in->sizes[d];
        }
    }
    if (outputs == 0) {
        return 0;
    }
    reduce_params(&p, op, in, mask, out);
    if (mean) {
        /* torch's CUDA mean: the sum times (outputs / inputs) computed in the accumulation type,
         * which for float32 is float (MeanOps' factor); an empty mean is NaN, as torch fills it */
        if (in->dtype == MT_FLOAT32) {
            p.mean_factor = (double)((float)outputs / (float)numel);
        }
        else {
            p.mean_factor = (double)outputs / (double)numel;
        }
        if (numel == 0) {
            p.mean_factor = NAN;
        }
    }
    return run_reduce(ctx, &p);
}

static int
cuda_arg_reduce(mt_kctx *ctx, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    uint64_t mask = dim < 0 ? (in->ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << in->ndim) - 1)) : (uint64_t)1 << dim;
    mt_cuda_reduce_params p;

    if (mt_kstatus_reduced_refused(ctx, "arg_reduce", in->dtype) < 0) {
        return -1;
    }
    reduce_params(&p, is_max ? MT_REDUCE_ARGMAX : MT_REDUCE_ARGMIN, in, mask, values);
    p.indices = indices;
    return run_reduce(ctx, &p);
}

static int
cuda_philox(mt_kctx *ctx, const mt_philox_fill *f, uint64_t *blocks)
{
    if (mt_kstatus_reduced_refused(ctx, "philox", f->dtype) < 0) {
        return -1;
    }
    switch (f->kind) {
    case MT_PHILOX_UNIFORM:
        *blocks = f->dtype == MT_FLOAT32 ? mt_philox_blocks_32(f->n) : mt_philox_blocks_64(f->n);
        return launched(ctx, mt_cuda_launch_philox_uniform(ctx->device, f->dtype, f->out, f->n, f->seed, f->offset,
                                                           f->a, f->b));
    case MT_PHILOX_NORMAL:
        *blocks = f->dtype == MT_FLOAT32 ? mt_philox_blocks_32(f->n) : mt_philox_blocks_64(f->n);
        return launched(ctx, mt_cuda_launch_philox_normal(ctx->device, f->dtype, f->out, f->n, f->seed, f->offset,
                                                          f->a, f->b));
    default:
        *blocks = f->low < f->high ? mt_philox_blocks_randint(f->n, (uint64_t)f->high - (uint64_t)f->low) : 0;
        return launched(ctx, mt_cuda_launch_philox_randint(ctx->device, f->dtype, f->out, f->n, f->seed, f->offset,
                                                           f->low, f->high));
    }
}

/* For a scatter, the positions whose self offset comes again later are dropped (the device's threads
 * write in no set order; the host loop's last write is the one that stays). Writes the kept positions'
 * offsets into `table` (self offsets, then other offsets, `*kept` each). */
static int
offset_table(mt_kctx *ctx, const mt_index_args *g, int scatter, int64_t **table, int64_t *kept)
{
    mt_key_position *keys = NULL;
    int64_t m = 0;

    *table = malloc(sizeof(int64_t) * 2 * (size_t)g->nb);
    if (*table == NULL) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for index offsets");
    }
    if (!scatter) {
        memcpy(*table, g->self_offsets, sizeof(int64_t) * (size_t)g->nb);
        memcpy(*table + g->nb, g->other_offsets, sizeof(int64_t) * (size_t)g->nb);
        *kept = g->nb;
        return 0;
    }
    keys = malloc(sizeof(mt_key_position) * (size_t)g->nb);
    if (keys == NULL) {
        free(*table);
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for index offsets");
    }
    for (int64_t b = 0; b < g->nb; b++) {
        keys[b].key = g->self_offsets[b];
        keys[b].position = b;
    }
    qsort(keys, (size_t)g->nb, sizeof(mt_key_position), mt_key_position_compare);
    for (int64_t i = 0; i < g->nb; i++) {
        if (i + 1 == g->nb || keys[i + 1].key != keys[i].key) {
            (*table)[m] = keys[i].key;
            (*table)[g->nb + m] = g->other_offsets[keys[i].position];
            m++;
        }
    }
    /* the other offsets follow the self offsets directly */
    memmove(*table + m, *table + g->nb, sizeof(int64_t) * (size_t)m);
    free(keys);
    *kept = m;
    return 0;
}

/* Gather or scatter: the offset table goes to device memory (one synchronous copy, ordered after the
 * work queued before it), then one kernel moves the elements. */
static int
cuda_index(mt_kctx *ctx, const mt_index_args *g, int scatter)
{
    mt_cuda_index_params *p;
    int64_t *table = NULL;
    void *device_table = NULL;
    int64_t kept = 0;
    int rc = -1;

    if (g->nb == 0) {
        return 0;
    }
    p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for an index kernel's parameters");
    }
    if (offset_table(ctx, g, scatter, &table, &kept) < 0) {
        free(p);
        return -1;
    }
    if (ctx->scratch_alloc(ctx->device, sizeof(int64_t) * 2 * (size_t)kept, &device_table, &ctx->status) < 0) {
        goto done;
    }
    if (launched(ctx, mt_cuda_runtime()->memcpy(device_table, ctx->device, table, 0, sizeof(int64_t) * 2 * (size_t)kept,
                                                MT_MEMCPY_HOST_TO_DEVICE)) < 0) {
        goto done;
    }
    p->self = g->self;
    p->other = g->other;
    p->itemsize = (int)mt_dtype_size(g->dtype);
    p->scatter = scatter;
    if (scatter && g->other_is_value) {
        /* a host element: read it now and pass it by value; the kernel never sees the pointer */
        p->other_is_value = 1;
        memcpy(p->value.bytes, g->other, (size_t)p->itemsize);
        p->other = NULL;
    }
    p->nb = kept;
    p->offsets = device_table;
    p->ndim = g->ndim;
    p->nbefore = g->nbefore;
    memcpy(p->shape, g->shape, sizeof(int64_t) * (size_t)g->ndim);
    memcpy(p->self_strides, g->self_strides, sizeof(int64_t) * (size_t)g->ndim);
    memcpy(p->other_strides, g->other_strides, sizeof(int64_t) * (size_t)g->ndim);
    rc = launched(ctx, mt_cuda_launch_index(ctx->device, p));

done:
    /* the kernel is queued on the one stream every later use of this block also runs on */
    if (device_table != NULL) {
        ctx->scratch_free(ctx->device, device_table);
    }
    free(table);
    free(p);
    return rc;
}

static int
cuda_gather(mt_kctx *ctx, const mt_index_args *args)
{
    return cuda_index(ctx, args, 0);
}

static int
cuda_scatter(mt_kctx *ctx, const mt_index_args *args)
{
    return cuda_index(ctx, args, 1);
}

static int
cuda_scan(mt_kctx *ctx, const mt_scan_args *args)
{
    if (mt_kstatus_reduced_refused(ctx, "scan", args->dtype) < 0) {
        return -1;
    }
    return launched(ctx, mt_cuda_launch_scan(ctx->device, args));
}

/* The scratch runs (2 * n values and indices per line) come from the device's caching allocator and go
 * back after the launch: the kernel is queued on the one stream every later use of the block runs on. */
static int
cuda_sort(mt_kctx *ctx, const mt_sort_args *args)
{
    int64_t lines = args->outer * args->inner;
    size_t per_line = 2 * (size_t)args->n;
    void *runs = NULL, *idx = NULL;
    int rc = -1;

    if (mt_kstatus_reduced_refused(ctx, "sort", args->dtype) < 0) {
        return -1;
    }
    if (lines <= 0 || args->n <= 0) {
        return 0;
    }
    if (ctx->scratch_alloc(ctx->device, per_line * (size_t)lines * mt_dtype_size(args->dtype), &runs, &ctx->status) < 0 ||
        ctx->scratch_alloc(ctx->device, per_line * (size_t)lines * sizeof(int64_t), &idx, &ctx->status) < 0) {
        goto done;
    }
    rc = launched(ctx, mt_cuda_launch_sort(ctx->device, args, runs, (int64_t *)idx));

done:
    if (runs != NULL) {
        ctx->scratch_free(ctx->device, runs);
    }
    if (idx != NULL) {
        ctx->scratch_free(ctx->device, idx);
    }
    return rc;
}

static int
cuda_index_dim(mt_kctx *ctx, const mt_index_dim_args *args)
{
    if (mt_dtype_is_reduced_floating(args->dtype)) {
        /* float16 and bfloat16 elements move as their bits; sums and products have no kernel here */
        mt_index_dim_args bits = *args;
        if (args->mode != MT_INDEX_DIM_COPY) {
            return mt_kstatus_reduced_refused(ctx, "index_dim", args->dtype);
        }
        bits.dtype = MT_INT16;
        return launched(ctx, mt_cuda_launch_index_dim(ctx->device, &bits));
    }
    return launched(ctx, mt_cuda_launch_index_dim(ctx->device, args));
}

static int
cuda_window(mt_kctx *ctx, const mt_window_args *args)
{
    return launched(ctx, mt_cuda_launch_window(ctx->device, args));
}

static const mt_backend cuda_backend = {
    .name = "cuda",
    .host_memory = 0,
    .gemm_takes_reduced = 1,
    .binary = cuda_binary,
    .unary = cuda_unary,
    .where = cuda_where,
    .fma = cuda_fma,
    .cast = cuda_cast,
    .fill = cuda_fill,
    .reduce = cuda_reduce,
    .arg_reduce = cuda_arg_reduce,
    .gemm = mt_cuda_gemm,
    .philox = cuda_philox,
    .gather = cuda_gather,
    .scatter = cuda_scatter,
    .scan = cuda_scan,
    .sort = cuda_sort,
    .index_dim = cuda_index_dim,
    .window = cuda_window,
};

const mt_backend *const mt_cuda_backend = &cuda_backend;

#else /* a build without CUDA: no CUDA device can exist, and the op layer finds no table for one */

const mt_backend *const mt_cuda_backend = NULL;

#endif /* MINITORCH_WITH_CUDA */
