/* backend.c: the cpu backend (kernels/backend.h): the host kernels behind one table, for memory the
 * host can address, which is the CPU's and the simulated GPU's. Each entry forwards to its kernel
 * (elementwise.c, cast.c, reduce.c, softmax.c, gelu.c, gemm.c, philox.c, index.c, lines.c, gather.c,
 * window.c) and turns the failures host kernels have (no memory for scratch, no kernel for a dtype) into
 * a status. It must not raise, touch Python or tensor objects, or compute anything of its own. */
#include "../backend.h"

#include <stdlib.h>

#include "cast.h"
#include "elementwise.h"
#include "gelu.h"
#include "gemm.h"
#include "gather.h"
#include "index.h"
#include "lines.h"
#include "philox.h"
#include "reduce.h"
#include "softmax.h"
#include "window.h"

static int
cpu_binary(mt_kctx *ctx, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values)
{
    (void)host_values; /* host values are host memory like everything else here */
    if (mt_kstatus_reduced_refused(ctx, "binary", args->dtype) < 0) {
        return -1;
    }
    mt_cpu_binary(it, args);
    return 0;
}

static int
cpu_unary(mt_kctx *ctx, const mt_iter *it, const mt_unary_kernel_args *args)
{
    if (mt_kstatus_reduced_refused(ctx, "unary", args->dtype) < 0) {
        return -1;
    }
    mt_cpu_unary(it, args);
    return 0;
}

static int
cpu_where(mt_kctx *ctx, const mt_iter *it, int itemsize, unsigned host_values)
{
    (void)ctx;
    (void)host_values;
    mt_cpu_where(it, itemsize);
    return 0;
}

static int
cpu_fma(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, unsigned host_values)
{
    (void)host_values;
    if (mt_kstatus_reduced_refused(ctx, "fma", dtype) < 0) {
        return -1;
    }
    mt_cpu_fma(it, dtype);
    return 0;
}

/* cast and fill: the cast kernel over the iterator on the calling thread (copies are memory-bound);
 * a fill is a cast from one value read with stride 0 */
typedef struct {
    mt_dtype dst;
    mt_dtype src;
    const char *value;          /* fill: the value; cast: NULL (operand 1 is the source) */
} cast_job;

static void
cast_loop(char **data, const int64_t *strides, int64_t n, void *vjob)
{
    const cast_job *job = vjob;
    if (job->value != NULL) {
        mt_cpu_cast(data[0], job->dst, strides[0], job->value, job->src, 0, n);
    }
    else {
        mt_cpu_cast(data[0], job->dst, strides[0], data[1], job->src, strides[1], n);
    }
}

static int
cpu_cast(mt_kctx *ctx, const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype)
{
    cast_job job = {dst_dtype, src_dtype, NULL};
    (void)ctx;
    mt_iter_run(it, cast_loop, &job);
    return 0;
}

static int
cpu_fill(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, mt_value value)
{
    cast_job job = {dtype, dtype, (const char *)value.bytes};
    (void)ctx;
    mt_iter_run(it, cast_loop, &job);
    return 0;
}

static int
cpu_reduce(mt_kctx *ctx, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean, char *out)
{
    if (mt_kstatus_reduced_refused(ctx, "reduce", in->dtype) < 0) {
        return -1;
    }
    mt_cpu_reduce(op, in, mask, keepdim, mean, out);
    return 0;
}

static int
cpu_arg_reduce(mt_kctx *ctx, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    if (mt_kstatus_reduced_refused(ctx, "arg_reduce", in->dtype) < 0) {
        return -1;
    }
    mt_cpu_arg_reduce(is_max, in, dim, values, indices);
    return 0;
}

static int
cpu_vector_norm(mt_kctx *ctx, const mt_reduce_input *in, double ord, uint64_t mask, int keepdim, char *out)
{
    if (mt_cpu_vector_norm(in, ord, mask, keepdim, out) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no vector norm kernel for this dtype or order");
    }
    return 0;
}

static int
cpu_prod(mt_kctx *ctx, const mt_reduce_input *in, uint64_t mask, int keepdim, char *out)
{
    if (mt_cpu_prod(in, mask, keepdim, out) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no prod kernel for this dtype");
    }
    return 0;
}

static int
cpu_nll_sum(mt_kctx *ctx, mt_dtype dtype, const char *loss, const char *weight, const uint8_t *kept, int64_t n,
            char *out)
{
    if (mt_cpu_nll_sum(dtype, loss, weight, kept, n, out) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no nll_loss sum for this dtype");
    }
    return 0;
}

static int
cpu_gelu(mt_kctx *ctx, const mt_iter *it, const mt_gelu_kernel_args *args)
{
    if (mt_cpu_gelu(it, args) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no gelu kernel for this dtype");
    }
    return 0;
}

static int
cpu_softmax_lastdim(mt_kctx *ctx, int log, mt_dtype dtype, const void *in, void *out, int64_t rows, int64_t n)
{
    if (mt_cpu_softmax_lastdim(log, dtype, in, out, rows, n) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no softmax kernel for this dtype");
    }
    return 0;
}

static int
cpu_softmax_dim(mt_kctx *ctx, int log, mt_dtype dtype, const void *in, void *out, int64_t outer, int64_t n,
                int64_t inner)
{
    if (mt_cpu_softmax_dim(log, dtype, in, out, outer, n, inner) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no softmax kernel for this dtype");
    }
    return 0;
}

static int
cpu_softmax_backward_lastdim(mt_kctx *ctx, int log, mt_dtype dtype, const void *grad, const void *result,
                             void *grad_in, int64_t rows, int64_t n)
{
    if (mt_cpu_softmax_backward_lastdim(log, dtype, grad, result, grad_in, rows, n) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no softmax kernel for this dtype");
    }
    return 0;
}

static int
cpu_softmax_backward_dim(mt_kctx *ctx, int log, mt_dtype dtype, const void *grad, const void *result, void *grad_in,
                         int64_t outer, int64_t n, int64_t inner)
{
    if (mt_cpu_softmax_backward_dim(log, dtype, grad, result, grad_in, outer, n, inner) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no softmax kernel for this dtype");
    }
    return 0;
}

static int
cpu_gemm(mt_kctx *ctx, const mt_gemm_desc *desc)
{
    if (mt_kstatus_reduced_refused(ctx, "gemm", desc->dtype) < 0) {
        return -1;
    }
    if (mt_cpu_gemm(desc) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory to pack GEMM operands");
    }
    return 0;
}

/* The Philox stream's host loops: the simulated GPU's random numbers, the same bits as the CUDA kernels'. */
static int
cpu_philox(mt_kctx *ctx, const mt_philox_fill *f, uint64_t *blocks)
{
    if (f->kind != MT_PHILOX_RANDINT && mt_kstatus_reduced_refused(ctx, "philox", f->dtype) < 0) {
        return -1;
    }
    switch (f->kind) {
    case MT_PHILOX_UNIFORM:
        *blocks = f->dtype == MT_FLOAT32 ? mt_philox_uniform_fill_float(f->seed, f->offset, f->out, f->n, f->a, f->b)
                                         : mt_philox_uniform_fill_double(f->seed, f->offset, f->out, f->n, f->a, f->b);
        return 0;
    case MT_PHILOX_NORMAL:
        *blocks = f->dtype == MT_FLOAT32 ? mt_philox_normal_fill_float(f->seed, f->offset, f->out, f->n, f->a, f->b)
                                         : mt_philox_normal_fill_double(f->seed, f->offset, f->out, f->n, f->a, f->b);
        return 0;
    default:
        if (f->dtype == MT_INT64) {
            *blocks = mt_philox_randint_int64(f->seed, f->offset, f->out, f->n, f->low, f->high);
            return 0;
        }
        {
            /* draw int64 values, then convert: the same numbers for every dtype */
            int64_t *wide = malloc((size_t)(f->n > 0 ? f->n : 1) * sizeof(int64_t));
            if (wide == NULL) {
                return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for random integers");
            }
            *blocks = mt_philox_randint_int64(f->seed, f->offset, wide, f->n, f->low, f->high);
            mt_cpu_cast(f->out, f->dtype, (int64_t)mt_dtype_size(f->dtype), (const char *)wide, MT_INT64, 8, f->n);
            free(wide);
        }
        return 0;
    }
}

static int
cpu_index(mt_kctx *ctx, const mt_index_args *args, int scatter)
{
    if (mt_cpu_index(args, scatter) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for index offsets");
    }
    return 0;
}

static int
cpu_gather(mt_kctx *ctx, const mt_index_args *args)
{
    return cpu_index(ctx, args, 0);
}

static int
cpu_scatter(mt_kctx *ctx, const mt_index_args *args)
{
    /* a value passed by value is host memory here like everything else: other strides are 0 */
    return cpu_index(ctx, args, 1);
}

static int
cpu_scan(mt_kctx *ctx, const mt_scan_args *args)
{
    if (mt_kstatus_reduced_refused(ctx, "scan", args->dtype) < 0) {
        return -1;
    }
    if (mt_cpu_scan(args) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no scan kernel for this dtype");
    }
    return 0;
}

static int
cpu_sort(mt_kctx *ctx, const mt_sort_args *args)
{
    if (mt_kstatus_reduced_refused(ctx, "sort", args->dtype) < 0) {
        return -1;
    }
    if (mt_cpu_sort(args) < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for a sort's scratch runs");
    }
    return 0;
}

static int
cpu_index_dim(mt_kctx *ctx, const mt_index_dim_args *args)
{
    (void)ctx;
    mt_cpu_index_dim(args);
    return 0;
}

static int
cpu_window(mt_kctx *ctx, const mt_window_args *args)
{
    int rc = mt_cpu_window(args);

    if (rc == -2) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_NO_MEMORY, 0, "no memory for the pooling windows' bounds");
    }
    if (rc < 0) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no window kernel for this dtype");
    }
    return 0;
}

static int
cpu_sgd_step(mt_kctx *ctx, const mt_iter *it, const mt_sgd_step_args *args)
{
    if (args->dtype != MT_FLOAT32 && args->dtype != MT_FLOAT64) {
        return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "no SGD step kernel for this dtype");
    }
    mt_cpu_sgd_step(it, args);
    return 0;
}

const mt_backend mt_cpu_backend = {
    .name = "cpu",
    .host_memory = 1,
    .binary = cpu_binary,
    .unary = cpu_unary,
    .where = cpu_where,
    .fma = cpu_fma,
    .cast = cpu_cast,
    .fill = cpu_fill,
    .reduce = cpu_reduce,
    .vector_norm = cpu_vector_norm,
    .prod = cpu_prod,
    .nll_sum = cpu_nll_sum,
    .softmax_lastdim = cpu_softmax_lastdim,
    .softmax_dim = cpu_softmax_dim,
    .gelu = cpu_gelu,
    .softmax_backward_lastdim = cpu_softmax_backward_lastdim,
    .softmax_backward_dim = cpu_softmax_backward_dim,
    .arg_reduce = cpu_arg_reduce,
    .gemm = cpu_gemm,
    .philox = cpu_philox,
    .gather = cpu_gather,
    .scatter = cpu_scatter,
    .scan = cpu_scan,
    .sort = cpu_sort,
    .index_dim = cpu_index_dim,
    .window = cpu_window,
    .sgd_step = cpu_sgd_step,
};
