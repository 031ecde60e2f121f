/* backend.c: the meta backend (kernels/backend.h), for tensors on torch's meta device, which have a
 * shape, strides and a dtype but no memory. The op layer has already made each output with torch's shape,
 * dtype and strides and raised torch's errors before it calls an entry, so every entry here succeeds
 * without reading or writing anything: an op on meta tensors is its checks and its output's geometry.
 * It must not touch the pointers it is given (they are NULL plus an offset). */
#include "../backend.h"

static int
meta_binary(mt_kctx *ctx, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values)
{
    (void)ctx, (void)it, (void)args, (void)host_values;
    return 0;
}

static int
meta_unary(mt_kctx *ctx, const mt_iter *it, const mt_unary_kernel_args *args)
{
    (void)ctx, (void)it, (void)args;
    return 0;
}

static int
meta_where(mt_kctx *ctx, const mt_iter *it, int itemsize, unsigned host_values)
{
    (void)ctx, (void)it, (void)itemsize, (void)host_values;
    return 0;
}

static int
meta_fma(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, unsigned host_values)
{
    (void)ctx, (void)it, (void)dtype, (void)host_values;
    return 0;
}

static int
meta_cast(mt_kctx *ctx, const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype)
{
    (void)ctx, (void)it, (void)dst_dtype, (void)src_dtype;
    return 0;
}

static int
meta_fill(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, mt_value value)
{
    (void)ctx, (void)it, (void)dtype, (void)value;
    return 0;
}

static int
meta_reduce(mt_kctx *ctx, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean,
            char *out)
{
    (void)ctx, (void)op, (void)in, (void)mask, (void)keepdim, (void)mean, (void)out;
    return 0;
}

static int
meta_arg_reduce(mt_kctx *ctx, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    (void)ctx, (void)is_max, (void)in, (void)dim, (void)values, (void)indices;
    return 0;
}

static int
meta_gemm(mt_kctx *ctx, const mt_gemm_desc *desc)
{
    (void)ctx, (void)desc;
    return 0;
}

/* no numbers are drawn, so the stream does not move */
static int
meta_philox(mt_kctx *ctx, const mt_philox_fill *fill, uint64_t *blocks)
{
    (void)ctx, (void)fill;
    *blocks = 0;
    return 0;
}

static int
meta_index(mt_kctx *ctx, const mt_index_args *args)
{
    (void)ctx, (void)args;
    return 0;
}

static int
meta_scan(mt_kctx *ctx, const mt_scan_args *args)
{
    (void)ctx, (void)args;
    return 0;
}

static int
meta_sort(mt_kctx *ctx, const mt_sort_args *args)
{
    (void)ctx, (void)args;
    return 0;
}

static int
meta_index_dim(mt_kctx *ctx, const mt_index_dim_args *args)
{
    (void)ctx, (void)args;
    return 0;
}

static int
meta_window(mt_kctx *ctx, const mt_window_args *args)
{
    (void)ctx, (void)args;
    return 0;
}

const mt_backend mt_meta_backend = {
    .name = "meta",
    .host_memory = 0,
    .binary = meta_binary,
    .unary = meta_unary,
    .where = meta_where,
    .fma = meta_fma,
    .cast = meta_cast,
    .fill = meta_fill,
    .reduce = meta_reduce,
    .arg_reduce = meta_arg_reduce,
    .gemm = meta_gemm,
    .philox = meta_philox,
    .gather = meta_index,
    .scatter = meta_index,
    .scan = meta_scan,
    .sort = meta_sort,
    .index_dim = meta_index_dim,
    .window = meta_window,
};
