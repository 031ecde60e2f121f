/* reduce.c: host reduction kernels (see reduce.h). Float sums are where torch's results depend on the
 * order of additions, and users compare printed sums digit for digit, so this file reproduces torch's
 * CPU algorithm step by step: the reduction TensorIterator's dim order (reduced dims first, then by
 * stride) and dim merging, its 2-D loop splitting, the cascade sum of
 * aten/src/ATen/native/cpu/SumKernel.cpp with torch's 32-byte vectors emulated lane by lane, and, for
 * 32768+ elements, the per-thread split of TensorIteratorReduce.cpp for torch's thread count
 * (get_num_threads): the pieces of that split write separate outputs, so they run on the host thread
 * pool's threads in any order and the rounding stays torch's. Other reductions are exact in any order;
 * they follow the same iteration and the same split; their per-element steps, and argmax's rule, are
 * op_math.h's. A mean is torch's CPU mean: the sum, then a division by the count. This file must not
 * raise, allocate tensors or know about devices. */
#include "reduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cpu_features.h"
#include "parallel.h"

/* at::internal::GRAIN_SIZE: below this many elements torch reduces on one thread */
#define GRAIN_SIZE MT_PARALLEL_GRAIN_SIZE

/* ---- torch's configuration: thread count -------------------------------------------------------- */

int
mt_cpu_torch_threads(void)
{
    /* torch splits a sum per intra-op thread; minitorch's setting is torch's (parallel.h) */
    return mt_parallel_get_num_threads();
}

/* ---- torch's reduction TensorIterator ------------------------------------------------------------ */

typedef struct {
    int ndim;
    int64_t shape[MT_MAX_DIMS];         /* dim 0 is the fastest after reordering */
    int64_t stride[2][MT_MAX_DIMS];     /* bytes; operand 0 is the output, 1 the input */
    char *data[2];
} red_iter;

/* One call covers size0 x size1 elements; strides = {out0, in0, out1, in1} in bytes. */
typedef void (*loop2d_fn)(char **data, const int64_t *strides, int64_t size0, int64_t size1, void *ctx);

static int64_t
iter_numel(const red_iter *it)
{
    int64_t n = 1;
    for (int d = 0; d < it->ndim; d++) {
        n *= it->shape[d];
    }
    return n;
}

/* should_swap of TensorIteratorBase::reorder_dimensions for a reduction (output first). */
static int
reduce_should_swap(const red_iter *it, int d0, int d1)
{
    for (int arg = 0; arg < 2; arg++) {
        int64_t s0 = it->stride[arg][d0];
        int64_t s1 = it->stride[arg][d1];
        if (arg == 0 && ((s0 == 0) != (s1 == 0))) {
            return s1 == 0 ? 1 : -1;
        }
        if (s0 == 0 || s1 == 0) {
            continue;
        }
        if (s0 < s1) {
            return -1;
        }
        if (s0 > s1) {
            return 1;
        }
        if (it->shape[d0] > it->shape[d1]) {
            return 1;
        }
    }
    return 0;
}

static void
reorder_dims(red_iter *it)
{
    int n = it->ndim;
    int perm[MT_MAX_DIMS];
    red_iter tmp;

    if (n <= 1) {
        return;
    }
    for (int i = 0; i < n; i++) {
        perm[i] = n - 1 - i;
    }
    for (int i = 1; i < n; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int cmp = reduce_should_swap(it, perm[dim0], perm[dim1]);
            if (cmp > 0) {
                int t = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = t;
                dim1 = dim0;
            }
            else if (cmp < 0) {
                break;
            }
        }
    }
    tmp = *it;
    for (int i = 0; i < n; i++) {
        it->shape[i] = tmp.shape[perm[i]];
        it->stride[0][i] = tmp.stride[0][perm[i]];
        it->stride[1][i] = tmp.stride[1][perm[i]];
    }
}

/* TensorIteratorBase::coalesce_dimensions */
static void
coalesce_dims(red_iter *it)
{
    int prev = 0;

    if (it->ndim <= 1) {
        return;
    }
    for (int d = 1; d < it->ndim; d++) {
        int64_t s0 = it->shape[prev];
        int64_t s1 = it->shape[d];
        int can = s0 == 1 || s1 == 1;
        if (!can) {
            can = 1;
            for (int a = 0; a < 2; a++) {
                if (s0 * it->stride[a][prev] != it->stride[a][d]) {
                    can = 0;
                }
            }
        }
        if (can) {
            if (it->shape[prev] == 1) {
                it->stride[0][prev] = it->stride[0][d];
                it->stride[1][prev] = it->stride[1][d];
            }
            it->shape[prev] *= it->shape[d];
        }
        else {
            prev++;
            if (prev != d) {
                it->stride[0][prev] = it->stride[0][d];
                it->stride[1][prev] = it->stride[1][d];
                it->shape[prev] = it->shape[d];
            }
        }
    }
    it->ndim = prev + 1;
}

/* Builds the iterator torch builds for reduce_op(viewed_result, input): the output is a contiguous
 * tensor of the result shape; reduced dims get stride 0 (keepdim: they keep their size-1 stride,
 * which torch zeroes where the input dim is larger than 1). */
static void
red_iter_build(red_iter *it, char *out, size_t out_size, const mt_reduce_input *in, uint64_t mask, int keepdim)
{
    int n = in->ndim;
    int64_t rsizes[MT_MAX_DIMS], rstrides[MT_MAX_DIMS];
    int rn = 0, r = 0;
    int64_t stride = 1;
    size_t in_size = mt_dtype_size(in->dtype);

    for (int d = 0; d < n; d++) {
        if (mask & ((uint64_t)1 << d)) {
            if (keepdim) {
                rsizes[rn++] = 1;
            }
        }
        else {
            rsizes[rn++] = in->sizes[d];
        }
    }
    for (int i = rn - 1; i >= 0; i--) {
        rstrides[i] = stride;
        stride *= rsizes[i] > 1 ? rsizes[i] : 1;
    }
    it->ndim = n;
    it->data[0] = out;
    it->data[1] = (char *)in->data;
    for (int d = 0; d < n; d++) {
        int64_t osize, ostride;
        if (mask & ((uint64_t)1 << d)) {
            osize = 1;
            ostride = keepdim ? rstrides[r++] : 0;
        }
        else {
            osize = in->sizes[d];
            ostride = rstrides[r++];
        }
        it->shape[d] = in->sizes[d];
        it->stride[0][d] = (osize == 1 && in->sizes[d] != 1) ? 0 : ostride * (int64_t)out_size;
        it->stride[1][d] = in->strides[d] * (int64_t)in_size;
    }
    reorder_dims(it);
    coalesce_dims(it);
}

static void
get_strides4(const red_iter *it, int64_t strides[4])
{
    strides[0] = it->ndim > 0 ? it->stride[0][0] : 0;
    strides[1] = it->ndim > 0 ? it->stride[1][0] : 0;
    strides[2] = it->ndim > 1 ? it->stride[0][1] : 0;
    strides[3] = it->ndim > 1 ? it->stride[1][1] : 0;
}

/* at::internal::serial_for_each with DimCounter: 2-D steps over the linear range [begin, end). */
static void
serial_for_each(const red_iter *it, loop2d_fn loop, void *ctx, int64_t begin, int64_t end)
{
    int64_t strides[4];
    char *ptrs[2];
    int n = it->ndim;

    if (end <= begin) {
        return;
    }
    get_strides4(it, strides);
    if (n <= 1) {
        int64_t s0 = n == 1 ? it->stride[0][0] : 0;
        int64_t s1 = n == 1 ? it->stride[1][0] : 0;
        ptrs[0] = it->data[0] + begin * s0;
        ptrs[1] = it->data[1] + begin * s1;
        loop(ptrs, strides, end - begin, 1, ctx);
        return;
    }
    {
        int64_t values[MT_MAX_DIMS];
        int64_t offset = begin;
        int64_t linear = begin;
        for (int d = 0; d < n; d++) {
            values[d] = 0;
            if (it->shape[d] > 0) {
                values[d] = linear % it->shape[d];
                linear /= it->shape[d];
            }
        }
        while (offset < end) {
            int64_t step0, step1 = 1;
            ptrs[0] = it->data[0];
            ptrs[1] = it->data[1];
            for (int d = 0; d < n; d++) {
                ptrs[0] += values[d] * it->stride[0][d];
                ptrs[1] += values[d] * it->stride[1][d];
            }
            step0 = it->shape[0] - values[0];
            if (end - offset < step0) {
                step0 = end - offset;
            }
            if (step0 == it->shape[0]) {
                step1 = it->shape[1] - values[1];
                if ((end - offset) / it->shape[0] < step1) {
                    step1 = (end - offset) / it->shape[0];
                }
            }
            loop(ptrs, strides, step0, step1, ctx);
            /* DimCounter::increment */
            offset += step0 * step1;
            {
                int64_t overflow = step0;
                int i = 0;
                if (step1 != 1) {
                    i = 1;
                    overflow = step1;
                }
                for (; i < n && overflow > 0; i++) {
                    int64_t value = values[i] + overflow;
                    if (value >= it->shape[i]) {
                        overflow = 1;
                        value -= it->shape[i];
                    }
                    else {
                        overflow = 0;
                    }
                    values[i] = value;
                }
            }
        }
    }
}

static int64_t
divup(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* One virtual thread of parallel_reduce: a range of the linear index space (two-pass) or a sub-iterator
 * over a slice of one kept dim (dim split), each writing outputs no other task writes. */
typedef struct {
    const red_iter *it;
    loop2d_fn loop;
    void *ctx;
    /* two-pass */
    char *buffer;
    size_t elem;
    int64_t chunk;
    int64_t numel;
    /* dim split */
    int dim;
    int64_t cols;
    int64_t col_chunk;
    int round_cols;
    int64_t mult;
    int used;
} reduce_tasks;

static void
two_pass_task(void *vctx, int64_t begin, int64_t end)
{
    const reduce_tasks *t = vctx;

    for (int64_t v = begin; v < end; v++) {
        int64_t b = v * t->chunk;
        red_iter sub = *t->it;
        if (b >= t->numel) {
            continue;
        }
        sub.data[0] = t->buffer + (size_t)v * t->elem;
        serial_for_each(&sub, t->loop, t->ctx, b, b + t->chunk < t->numel ? b + t->chunk : t->numel);
    }
}

static void
dim_split_task(void *vctx, int64_t begin, int64_t end)
{
    const reduce_tasks *t = vctx;

    for (int64_t v = begin; v < end; v++) {
        int64_t b = v * t->col_chunk;
        int64_t e;
        red_iter sub;
        if (b >= t->cols) {
            continue;
        }
        e = b + t->col_chunk < t->cols ? b + t->col_chunk : t->cols;
        if (t->round_cols && t->used > 1) {
            b -= b % t->mult;
            if (e != t->cols) {
                e -= e % t->mult;
            }
        }
        if (b == e) {
            continue;
        }
        sub = *t->it;
        sub.shape[t->dim] = e - b;
        sub.data[0] += t->it->stride[0][t->dim] * b;
        sub.data[1] += t->it->stride[1][t->dim] * b;
        serial_for_each(&sub, t->loop, t->ctx, 0, iter_numel(&sub));
    }
}

/* TensorIteratorBase::parallel_reduce for `nthreads` threads. torch's split into per-thread pieces (and
 * so its rounding) is reproduced exactly for `nthreads` virtual threads; the pieces write disjoint
 * outputs, so they run on the pool's real threads in any order. `out_numel` is the number of output
 * elements; `elem` the output element size; the partial results of a two-pass reduction are combined by
 * `loop` with `final_ctx`, reading them as `out_dtype`. */
static void
parallel_reduce(const red_iter *it, loop2d_fn loop, void *ctx, void *final_ctx, mt_dtype out_dtype,
                int64_t out_numel, size_t elem, const mt_reduce_input *in, int nthreads)
{
    int64_t numel = iter_numel(it);
    reduce_tasks tasks;

    if (numel < GRAIN_SIZE || nthreads == 1) {
        serial_for_each(it, loop, ctx, 0, numel);
        return;
    }
    memset(&tasks, 0, sizeof tasks);
    tasks.it = it;
    tasks.loop = loop;
    tasks.ctx = ctx;
    if (out_numel == 1) {
        /* two_pass_reduction: one partial result per thread, then a reduction of the partials */
        char buffer[256 * 8];
        int64_t used = nthreads < divup(numel, GRAIN_SIZE) ? nthreads : divup(numel, GRAIN_SIZE);
        int64_t bstride = 1;
        int64_t tcount;
        mt_reduce_input partials;
        red_iter final_it;
        int tmax = nthreads < 256 ? nthreads : 256;

        for (int t = 0; t < tmax; t++) {
            memcpy(buffer + (size_t)t * elem, it->data[0], elem);
        }
        tasks.buffer = buffer;
        tasks.elem = elem;
        tasks.numel = numel;
        tasks.chunk = divup(numel, used);
        mt_parallel_for(used < tmax ? used : tmax, 1, nthreads, two_pass_task, &tasks);
        tcount = tmax;
        partials.ndim = 1;
        partials.sizes = &tcount;
        partials.strides = &bstride;
        partials.data = buffer;
        partials.dtype = out_dtype;
        red_iter_build(&final_it, it->data[0], elem, &partials, 1, 0);
        serial_for_each(&final_it, loop, final_ctx, 0, iter_numel(&final_it));
        return;
    }
    {
        /* parallel_dim_reduction: split the outermost large-enough kept dim between the threads */
        int dim = it->ndim - 1;
        int best = it->ndim - 1;
        size_t in_elem = mt_dtype_size(in->dtype);

        for (dim = it->ndim - 1; dim >= 0; dim--) {
            int reduced = it->stride[0][dim] == 0 && it->shape[dim] > 1;
            if (reduced) {
                break;
            }
            if (it->shape[dim] >= nthreads) {
                best = dim;
                break;
            }
            if (it->shape[dim] > it->shape[best]) {
                best = dim;
            }
        }
        tasks.dim = best;
        tasks.cols = it->shape[best];
        tasks.round_cols = it->stride[1][best] == (int64_t)in_elem;
        tasks.used = (int)(tasks.cols > 1 ? (nthreads < tasks.cols ? nthreads : tasks.cols) : 1);
        tasks.col_chunk = divup(tasks.cols, tasks.used);
        tasks.mult = 128 / (int64_t)in_elem;
        mt_parallel_for(tasks.used, 1, nthreads, dim_split_task, &tasks);
    }
}

/* ---- torch's cascade sum (SumKernel.cpp), generated for float and double and each SIMD width ----- */

/* c10::utils::CeilLog2 */
static int64_t
ceil_log2(int64_t x)
{
    int64_t r = 0;
    if (x <= 2) {
        return 1;
    }
    x -= 1;
    while (x > 0) {
        r++;
        x >>= 1;
    }
    return r;
}

#define NLEVELS 4

/* multi_row_sum with nrows = 4 scalar columns, row_sum, and their W-lane vector forms; then the four
 * loop shapes and the 2-D loop of cascade_sum. T is the element type, W the lanes per vector. */
#define DEFINE_CASCADE(SFX, T, W)                                                                  \
    static void SFX##_mrs(const char *in, int64_t row_stride, int64_t col_stride, int64_t size,    \
                          T ret[4])                                                                \
    {                                                                                              \
        int64_t lp = ceil_log2(size) / NLEVELS;                                                    \
        const int64_t level_power = lp > 4 ? lp : 4;                                               \
        const int64_t level_step = (int64_t)1 << level_power;                                      \
        const int64_t level_mask = level_step - 1;                                                 \
        T acc[NLEVELS][4];                                                                         \
        int64_t i = 0;                                                                             \
        memset(acc, 0, sizeof(acc));                                                               \
        for (; i + level_step <= size;) {                                                          \
            for (int64_t j = 0; j < level_step; ++j, ++i) {                                        \
                const char *base = in + i * row_stride;                                            \
                for (int k = 0; k < 4; k++) {                                                      \
                    acc[0][k] += *(const T *)(base + k * col_stride);                              \
                }                                                                                  \
            }                                                                                      \
            for (int j = 1; j < NLEVELS; ++j) {                                                    \
                for (int k = 0; k < 4; k++) {                                                      \
                    acc[j][k] += acc[j - 1][k];                                                    \
                    acc[j - 1][k] = (T)0;                                                          \
                }                                                                                  \
                if ((i & (level_mask << (j * level_power))) != 0) {                                \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (; i < size; ++i) {                                                                    \
            const char *base = in + i * row_stride;                                                \
            for (int k = 0; k < 4; k++) {                                                          \
                acc[0][k] += *(const T *)(base + k * col_stride);                                  \
            }                                                                                      \
        }                                                                                          \
        for (int j = 1; j < NLEVELS; ++j) {                                                        \
            for (int k = 0; k < 4; k++) {                                                          \
                acc[0][k] += acc[j][k];                                                            \
            }                                                                                      \
        }                                                                                          \
        for (int k = 0; k < 4; k++) {                                                              \
            ret[k] = acc[0][k];                                                                    \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static T SFX##_row_sum(const char *in, int64_t stride, int64_t size)                           \
    {                                                                                              \
        const int64_t size_ilp = size / 4;                                                         \
        T p[4];                                                                                    \
        SFX##_mrs(in, stride * 4, stride, size_ilp, p);                                            \
        for (int64_t i = size_ilp * 4; i < size; ++i) {                                            \
            p[0] += *(const T *)(in + i * stride);                                                 \
        }                                                                                          \
        for (int k = 1; k < 4; k++) {                                                              \
            p[0] += p[k];                                                                          \
        }                                                                                          \
        return p[0];                                                                               \
    }                                                                                              \
                                                                                                   \
    /* vector elements: W contiguous lanes at base + k * col_stride */                             \
    static void SFX##_mrs_vec(const char *in, int64_t row_stride, int64_t col_stride, int64_t size, \
                              T ret[4][W])                                                         \
    {                                                                                              \
        int64_t lp = ceil_log2(size) / NLEVELS;                                                    \
        const int64_t level_power = lp > 4 ? lp : 4;                                               \
        const int64_t level_step = (int64_t)1 << level_power;                                      \
        const int64_t level_mask = level_step - 1;                                                 \
        T acc[NLEVELS][4][W];                                                                      \
        int64_t i = 0;                                                                             \
        memset(acc, 0, sizeof(acc));                                                               \
        for (; i + level_step <= size;) {                                                          \
            for (int64_t j = 0; j < level_step; ++j, ++i) {                                        \
                const char *base = in + i * row_stride;                                            \
                for (int k = 0; k < 4; k++) {                                                      \
                    const T *v = (const T *)(base + k * col_stride);                               \
                    for (int l = 0; l < W; l++) {                                                  \
                        acc[0][k][l] += v[l];                                                      \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            for (int j = 1; j < NLEVELS; ++j) {                                                    \
                for (int k = 0; k < 4; k++) {                                                      \
                    for (int l = 0; l < W; l++) {                                                  \
                        acc[j][k][l] += acc[j - 1][k][l];                                          \
                        acc[j - 1][k][l] = (T)0;                                                   \
                    }                                                                              \
                }                                                                                  \
                if ((i & (level_mask << (j * level_power))) != 0) {                                \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (; i < size; ++i) {                                                                    \
            const char *base = in + i * row_stride;                                                \
            for (int k = 0; k < 4; k++) {                                                          \
                const T *v = (const T *)(base + k * col_stride);                                   \
                for (int l = 0; l < W; l++) {                                                      \
                    acc[0][k][l] += v[l];                                                          \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (int j = 1; j < NLEVELS; ++j) {                                                        \
            for (int k = 0; k < 4; k++) {                                                          \
                for (int l = 0; l < W; l++) {                                                      \
                    acc[0][k][l] += acc[j][k][l];                                                  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        memcpy(ret, acc[0], sizeof(T) * 4 * W);                                                    \
    }                                                                                              \
                                                                                                   \
    static void SFX##_row_sum_vec(const char *in, int64_t stride, int64_t size, T out[W])          \
    {                                                                                              \
        const int64_t size_ilp = size / 4;                                                         \
        T p[4][W];                                                                                 \
        SFX##_mrs_vec(in, stride * 4, stride, size_ilp, p);                                        \
        for (int64_t i = size_ilp * 4; i < size; ++i) {                                            \
            const T *v = (const T *)(in + i * stride);                                             \
            for (int l = 0; l < W; l++) {                                                          \
                p[0][l] += v[l];                                                                   \
            }                                                                                      \
        }                                                                                          \
        for (int k = 1; k < 4; k++) {                                                              \
            for (int l = 0; l < W; l++) {                                                          \
                p[0][l] += p[k][l];                                                                \
            }                                                                                      \
        }                                                                                          \
        memcpy(out, p[0], sizeof(T) * W);                                                          \
    }                                                                                              \
                                                                                                   \
    static void SFX##_store(char *out, int64_t stride, int64_t index, T value)                     \
    {                                                                                              \
        *(T *)(out + index * stride) += value;                                                     \
    }                                                                                              \
                                                                                                   \
    static void SFX##_cascade_loop(char **data, const int64_t *strides, int64_t size0,             \
                                   int64_t size1, void *ctx)                                       \
    {                                                                                              \
        int64_t in_strides[2] = {strides[1], strides[3]};                                          \
        int64_t out_strides[2] = {strides[0], strides[2]};                                         \
        int64_t out_stride;                                                                        \
        (void)ctx;                                                                                 \
        if (out_strides[0] != 0 && out_strides[1] == 0) {                                          \
            int64_t t;                                                                             \
            t = in_strides[0], in_strides[0] = in_strides[1], in_strides[1] = t;                   \
            t = out_strides[0], out_strides[0] = out_strides[1], out_strides[1] = t;               \
            t = size0, size0 = size1, size1 = t;                                                   \
        }                                                                                          \
        if (out_strides[0] != 0 && out_strides[1] != 0) {                                          \
            /* not a true reduction: out += in elementwise, in the original dim order */           \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                char *o = data[0] + j * strides[2];                                                \
                const char *x = data[1] + j * strides[3];                                          \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    *(T *)(o + i * strides[0]) += *(const T *)(x + i * strides[1]);                \
                }                                                                                  \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        out_stride = out_strides[1];                                                               \
        if (in_strides[0] == (int64_t)sizeof(T) && size0 >= W) {                                   \
            /* vectorized_inner_sum */                                                             \
            const int64_t vec_size = size0 / W;                                                    \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                const char *row = data[1] + j * in_strides[1];                                     \
                T vacc[W];                                                                         \
                T fin = 0;                                                                         \
                SFX##_row_sum_vec(row, (int64_t)sizeof(T) * W, vec_size, vacc);                    \
                for (int64_t k = vec_size * W; k < size0; k++) {                                   \
                    fin += ((const T *)row)[k];                                                    \
                }                                                                                  \
                for (int l = 0; l < W; l++) {                                                      \
                    fin += vacc[l];                                                                \
                }                                                                                  \
                SFX##_store(data[0], out_stride, j, fin);                                          \
            }                                                                                      \
        }                                                                                          \
        else if (in_strides[1] == (int64_t)sizeof(T) && size1 >= W) {                              \
            /* vectorized_outer_sum */                                                             \
            int64_t j = 0;                                                                         \
            for (; j + 4 * W <= size1; j += 4 * W) {                                               \
                T sums[4][W];                                                                      \
                SFX##_mrs_vec(data[1] + j * (int64_t)sizeof(T), in_strides[0],                     \
                              (int64_t)sizeof(T) * W, size0, sums);                                \
                for (int i = 0; i < 4; i++) {                                                      \
                    for (int l = 0; l < W; l++) {                                                  \
                        SFX##_store(data[0], out_stride, j + i * W + l, sums[i][l]);               \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            for (; j + W <= size1; j += W) {                                                       \
                T sums[W];                                                                         \
                SFX##_row_sum_vec(data[1] + j * (int64_t)sizeof(T), in_strides[0], size0, sums);   \
                for (int l = 0; l < W; l++) {                                                      \
                    SFX##_store(data[0], out_stride, j + l, sums[l]);                              \
                }                                                                                  \
            }                                                                                      \
            for (; j < size1; j++) {                                                               \
                T ans = SFX##_row_sum(data[1] + j * (int64_t)sizeof(T), in_strides[0], size0);     \
                SFX##_store(data[0], out_stride, j, ans);                                          \
            }                                                                                      \
        }                                                                                          \
        else if (in_strides[0] < in_strides[1]) {                                                  \
            /* scalar_inner_sum */                                                                 \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                T ans = SFX##_row_sum(data[1] + j * in_strides[1], in_strides[0], size0);          \
                SFX##_store(data[0], out_stride, j, ans);                                          \
            }                                                                                      \
        }                                                                                          \
        else {                                                                                     \
            /* scalar_outer_sum */                                                                 \
            int64_t j = 0;                                                                         \
            for (; j + 3 < size1; j += 4) {                                                        \
                T sums[4];                                                                         \
                SFX##_mrs(data[1] + j * in_strides[1], in_strides[0], in_strides[1], size0, sums); \
                for (int k = 0; k < 4; k++) {                                                      \
                    SFX##_store(data[0], out_stride, j + k, sums[k]);                              \
                }                                                                                  \
            }                                                                                      \
            for (; j < size1; j++) {                                                               \
                T ans = SFX##_row_sum(data[1] + j * in_strides[1], in_strides[0], size0);          \
                SFX##_store(data[0], out_stride, j, ans);                                          \
            }                                                                                      \
        }                                                                                          \
    }

/* torch registers its sum kernel without an AVX-512 variant (REGISTER_DISPATCH), so AVX-512 machines
 * run the AVX2 build: 32-byte vectors everywhere (the DEFAULT build uses 32 bytes as well). */
DEFINE_CASCADE(f32, float, 8)
DEFINE_CASCADE(f64, double, 4)

/* ---- max/min of a contiguous run, in SIMD-friendly lanes ----------------------------------------- */

/* The extreme of n >= 1 contiguous elements: 16 independent lanes of "v > acc ? v : acc" (the
 * maxps/minps pattern the compiler vectorises) and a separate NaN flag per lane. Any NaN makes the
 * result NaN. Used for long runs only; short ones keep the plain sequential loop. */
#define EXT_LANES 16
#define DEFINE_EXTREME_RUN(SFX, T, M, CMP)                                                         \
    static T SFX(const T *x, int64_t n, int *has_nan)                                              \
    {                                                                                              \
        T acc[EXT_LANES];                                                                          \
        M nan[EXT_LANES];                                                                          \
        int64_t i = 0;                                                                             \
        T best;                                                                                    \
        int any_nan = 0;                                                                           \
        for (int l = 0; l < EXT_LANES; l++) {                                                      \
            acc[l] = x[0];                                                                         \
            nan[l] = 0;                                                                            \
        }                                                                                          \
        for (; i + EXT_LANES <= n; i += EXT_LANES) {                                               \
            for (int l = 0; l < EXT_LANES; l++) {                                                  \
                T v = x[i + l];                                                                    \
                acc[l] = v CMP acc[l] ? v : acc[l];                                                \
                nan[l] |= (M)(v != v);                                                             \
            }                                                                                      \
        }                                                                                          \
        best = acc[0];                                                                             \
        for (int l = 0; l < EXT_LANES; l++) {                                                      \
            any_nan |= nan[l];                                                                     \
            best = acc[l] CMP best ? acc[l] : best;                                                \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            T v = x[i];                                                                            \
            any_nan |= v != v;                                                                     \
            best = v CMP best ? v : best;                                                          \
        }                                                                                          \
        *has_nan = any_nan;                                                                        \
        return best;                                                                               \
    }

/* M: a NaN-flag type as wide as T, so that flags and values share vector lanes */
DEFINE_EXTREME_RUN(b8_max_run, uint8_t, uint8_t, >)
DEFINE_EXTREME_RUN(b8_min_run, uint8_t, uint8_t, <)
DEFINE_EXTREME_RUN(u8_max_run, uint8_t, uint8_t, >)
DEFINE_EXTREME_RUN(u8_min_run, uint8_t, uint8_t, <)
DEFINE_EXTREME_RUN(i8_max_run, int8_t, int8_t, >)
DEFINE_EXTREME_RUN(i8_min_run, int8_t, int8_t, <)
DEFINE_EXTREME_RUN(i16_max_run, int16_t, int16_t, >)
DEFINE_EXTREME_RUN(i16_min_run, int16_t, int16_t, <)
DEFINE_EXTREME_RUN(i32_max_run, int32_t, int32_t, >)
DEFINE_EXTREME_RUN(i32_min_run, int32_t, int32_t, <)
DEFINE_EXTREME_RUN(i64_max_run, int64_t, int64_t, >)
DEFINE_EXTREME_RUN(i64_min_run, int64_t, int64_t, <)
#if defined(__SSE2__)
/* The compiler does not vectorise the float selects above (they are not IEEE max), so the float runs
 * use SSE2 directly: maxps(v, acc) is exactly "v > acc ? v : acc" per lane, and cmpunord collects NaNs. */
#define DEFINE_EXTREME_RUN_SSE(SFX, T, V, W, LOADU, SET1, OP, CMPUNORD, OR, ZERO, MOVEMASK, STOREU, CMP) \
    static T SFX(const T *x, int64_t n, int *has_nan)                                              \
    {                                                                                              \
        V a0 = SET1(x[0]), a1 = a0, a2 = a0, a3 = a0;                                              \
        V u = ZERO();                                                                              \
        T lanes[4 * W];                                                                            \
        int64_t i = 0;                                                                             \
        T best;                                                                                    \
        int any_nan;                                                                               \
        for (; i + 4 * W <= n; i += 4 * W) {                                                       \
            V v0 = LOADU(x + i), v1 = LOADU(x + i + W), v2 = LOADU(x + i + 2 * W);                 \
            V v3 = LOADU(x + i + 3 * W);                                                           \
            a0 = OP(v0, a0);                                                                       \
            a1 = OP(v1, a1);                                                                       \
            a2 = OP(v2, a2);                                                                       \
            a3 = OP(v3, a3);                                                                       \
            u = OR(u, OR(CMPUNORD(v0, v1), CMPUNORD(v2, v3)));                                     \
        }                                                                                          \
        any_nan = MOVEMASK(u) != 0;                                                                \
        STOREU(lanes, a0);                                                                         \
        STOREU(lanes + W, a1);                                                                     \
        STOREU(lanes + 2 * W, a2);                                                                 \
        STOREU(lanes + 3 * W, a3);                                                                 \
        best = lanes[0];                                                                           \
        for (int l = 0; l < 4 * W; l++) {                                                          \
            best = lanes[l] CMP best ? lanes[l] : best;                                            \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            T v = x[i];                                                                            \
            any_nan |= v != v;                                                                     \
            best = v CMP best ? v : best;                                                          \
        }                                                                                          \
        *has_nan = any_nan;                                                                        \
        return best;                                                                               \
    }

DEFINE_EXTREME_RUN_SSE(f32_max_run, float, __m128, 4, _mm_loadu_ps, _mm_set1_ps, _mm_max_ps, _mm_cmpunord_ps,
                       _mm_or_ps, _mm_setzero_ps, _mm_movemask_ps, _mm_storeu_ps, >)
DEFINE_EXTREME_RUN_SSE(f32_min_run, float, __m128, 4, _mm_loadu_ps, _mm_set1_ps, _mm_min_ps, _mm_cmpunord_ps,
                       _mm_or_ps, _mm_setzero_ps, _mm_movemask_ps, _mm_storeu_ps, <)
DEFINE_EXTREME_RUN_SSE(f64_max_run, double, __m128d, 2, _mm_loadu_pd, _mm_set1_pd, _mm_max_pd, _mm_cmpunord_pd,
                       _mm_or_pd, _mm_setzero_pd, _mm_movemask_pd, _mm_storeu_pd, >)
DEFINE_EXTREME_RUN_SSE(f64_min_run, double, __m128d, 2, _mm_loadu_pd, _mm_set1_pd, _mm_min_pd, _mm_cmpunord_pd,
                       _mm_or_pd, _mm_setzero_pd, _mm_movemask_pd, _mm_storeu_pd, <)
#else
DEFINE_EXTREME_RUN(f32_max_run, float, int32_t, >)
DEFINE_EXTREME_RUN(f32_min_run, float, int32_t, <)
DEFINE_EXTREME_RUN(f64_max_run, double, int64_t, >)
DEFINE_EXTREME_RUN(f64_min_run, double, int64_t, <)
#endif

/* runs shorter than this take the sequential loop, whose tie rules torch's results were checked on */
#define LONG_RUN 64

/* ---- order-independent reductions ---------------------------------------------------------------- */

typedef struct {
    mt_reduce_op op;
    mt_dtype dtype;     /* the input dtype */
} simple_ctx;

/* BODY updates the accumulator `acc` (type TO) with the input element `x` (type T). A run that feeds a
 * single output (output stride 0) keeps its accumulator in a register. */
#define SIMPLE_LOOP(T, TO, BODY)                                                                   \
    do {                                                                                           \
        for (int64_t j = 0; j < size1; j++) {                                                      \
            char *o_ = data[0] + j * strides[2];                                                   \
            const char *x_ = data[1] + j * strides[3];                                             \
            if (strides[0] == 0) {                                                                 \
                TO acc = *(TO *)o_;                                                                \
                if (strides[1] == (int64_t)sizeof(T)) {                                            \
                    const T *xs_ = (const T *)x_;                                                  \
                    for (int64_t i = 0; i < size0; i++) {                                          \
                        T x = xs_[i];                                                              \
                        BODY;                                                                      \
                    }                                                                              \
                }                                                                                  \
                else {                                                                             \
                    for (int64_t i = 0; i < size0; i++) {                                          \
                        T x = *(const T *)(x_ + i * strides[1]);                                   \
                        BODY;                                                                      \
                    }                                                                              \
                }                                                                                  \
                *(TO *)o_ = acc;                                                                   \
            }                                                                                      \
            else {                                                                                 \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    TO *op_ = (TO *)(o_ + i * strides[0]);                                         \
                    TO acc = *op_;                                                                 \
                    T x = *(const T *)(x_ + i * strides[1]);                                       \
                    BODY;                                                                          \
                    *op_ = acc;                                                                    \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* One switch case per dtype of a loop whose step is op_math.h's STEP_<sfx>(acc, x); TO is the
 * accumulator's (the output's) type: bool for all/any, the element type otherwise. */
#define STEP_CASE(DT, T, S, TO, STEP)                                                              \
    case DT:                                                                                       \
        SIMPLE_LOOP(T, TO, acc = STEP##_##S(acc, x));                                              \
        break;
#define ALL_CASE(DT, T, S) STEP_CASE(DT, T, S, uint8_t, mt_all_step)
#define ANY_CASE(DT, T, S) STEP_CASE(DT, T, S, uint8_t, mt_any_step)
#define MAX_CASE(DT, T, S) STEP_CASE(DT, T, S, T, mt_max_step)
#define MIN_CASE(DT, T, S) STEP_CASE(DT, T, S, T, mt_min_step)
/* integer and bool sums: wrapping arithmetic is associative, so any order is torch's (float sums take
 * the cascade above and never get here) */
#define SUM_CASE(DT, T, S)                                                                         \
    case DT:                                                                                       \
        if (!mt_dtype_is_floating(DT)) {                                                           \
            SIMPLE_LOOP(T, T, acc = mt_sum_##S(acc, x));                                           \
        }                                                                                          \
        break;

/* Long contiguous runs into one output each: the lane kernels, then the sequential rule against the
 * value already in the output. */
static void
extreme_runs(int is_max, mt_dtype dtype, char **data, const int64_t *strides, int64_t size0, int64_t size1)
{
    for (int64_t j = 0; j < size1; j++) {
        char *o = data[0] + j * strides[2];
        const char *x = data[1] + j * strides[3];
        int nan = 0;
        switch (dtype) {
#define EXTREME_CASE(DT, T, S)                                                                     \
        case DT: {                                                                                 \
            const T *run = (const T *)x;                                                           \
            T v = is_max ? S##_max_run(run, size0, &nan) : S##_min_run(run, size0, &nan);          \
            if (mt_dtype_is_floating(DT) && nan) {                                                 \
                v = (T)NAN;                                                                        \
            }                                                                                      \
            *(T *)o = is_max ? mt_max_step_##S(*(T *)o, v) : mt_min_step_##S(*(T *)o, v);          \
            break;                                                                                 \
        }
            MT_FOR_EACH_DTYPE(EXTREME_CASE)
#undef EXTREME_CASE
        default:
            break;
        }
    }
}

static void
simple_loop(char **data, const int64_t *strides, int64_t size0, int64_t size1, void *vctx)
{
    const simple_ctx *c = vctx;

    if ((c->op == MT_REDUCE_MAX || c->op == MT_REDUCE_MIN) && strides[0] == 0 && size0 >= LONG_RUN &&
        strides[1] == (int64_t)mt_dtype_size(c->dtype)) {
        extreme_runs(c->op == MT_REDUCE_MAX, c->dtype, data, strides, size0, size1);
        return;
    }
    switch (c->op) {
    case MT_REDUCE_ALL:
        switch (c->dtype) {
            MT_FOR_EACH_DTYPE(ALL_CASE)
        default:
            break;
        }
        break;
    case MT_REDUCE_ANY:
        switch (c->dtype) {
            MT_FOR_EACH_DTYPE(ANY_CASE)
        default:
            break;
        }
        break;
    case MT_REDUCE_MAX:
        switch (c->dtype) {
            MT_FOR_EACH_DTYPE(MAX_CASE)
        default:
            break;
        }
        break;
    case MT_REDUCE_MIN:
        switch (c->dtype) {
            MT_FOR_EACH_DTYPE(MIN_CASE)
        default:
            break;
        }
        break;
    case MT_REDUCE_SUM:
        switch (c->dtype) {
            MT_FOR_EACH_DTYPE(SUM_CASE)
        default:
            break;
        }
        break;
    default:
        break;
    }
}

/* Writes the identity (or the starting value) of `op` into each of n output elements. */
static void
fill_identity(mt_reduce_op op, mt_dtype dtype, char *out, int64_t n)
{
    size_t size = mt_dtype_size(dtype);
    char one[8];

    memset(one, 0, sizeof(one));
    switch (op) {
    case MT_REDUCE_ALL:
        one[0] = 1;
        break;
    case MT_REDUCE_MAX:
    case MT_REDUCE_MIN: {
        int mx = op == MT_REDUCE_MAX;
        switch (dtype) {
        case MT_BOOL:
            one[0] = mx ? 0 : 1;
            break;
        case MT_UINT8:
            one[0] = mx ? 0 : (char)UINT8_MAX;
            break;
        case MT_INT8: {
            int8_t v = mx ? INT8_MIN : INT8_MAX;
            memcpy(one, &v, sizeof(v));
            break;
        }
        case MT_INT16: {
            int16_t v = mx ? INT16_MIN : INT16_MAX;
            memcpy(one, &v, sizeof(v));
            break;
        }
        case MT_INT32: {
            int32_t v = mx ? INT32_MIN : INT32_MAX;
            memcpy(one, &v, sizeof(v));
            break;
        }
        case MT_INT64: {
            int64_t v = mx ? INT64_MIN : INT64_MAX;
            memcpy(one, &v, sizeof(v));
            break;
        }
        case MT_FLOAT32: {
            float v = mx ? -INFINITY : INFINITY;
            memcpy(one, &v, sizeof(v));
            break;
        }
        default: {
            double v = mx ? -INFINITY : INFINITY;
            memcpy(one, &v, sizeof(v));
            break;
        }
        }
        break;
    }
    default:
        break;
    }
    for (int64_t i = 0; i < n; i++) {
        memcpy(out + (size_t)i * size, one, size);
    }
}

static void
reduce_into(mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, char *out)
{
    red_iter it;
    mt_dtype out_dtype = (op == MT_REDUCE_ALL || op == MT_REDUCE_ANY) ? MT_BOOL : in->dtype;
    size_t out_size = mt_dtype_size(out_dtype);
    int64_t out_numel = 1;

    for (int d = 0; d < in->ndim; d++) {
        if (!(mask & ((uint64_t)1 << d))) {
            out_numel *= in->sizes[d];
        }
    }
    fill_identity(op, out_dtype, out, out_numel);
    if (out_numel == 0) {
        return;
    }
    red_iter_build(&it, out, out_size, in, mask, keepdim);
    if (iter_numel(&it) == 0) {
        return;
    }
    if (op == MT_REDUCE_SUM && mt_dtype_is_floating(in->dtype)) {
        loop2d_fn fn = in->dtype == MT_FLOAT32 ? f32_cascade_loop : f64_cascade_loop;
        parallel_reduce(&it, fn, NULL, NULL, out_dtype, out_numel, out_size, in, mt_cpu_torch_threads());
        return;
    }
    {
        /* exact in any order: split like a sum (the pieces' results combine with the same rule) */
        simple_ctx ctx = {op, in->dtype};
        simple_ctx final_ctx = {op, out_dtype};
        parallel_reduce(&it, simple_loop, &ctx, &final_ctx, out_dtype, out_numel, out_size, in,
                        mt_cpu_torch_threads());
    }
}

/* torch's CPU mean: the sum, then div_ by the number of reduced elements rounded to the dtype (0/0 makes
 * an empty mean NaN). */
#define MEAN_CASE(DT, T, S)                                                                        \
    case DT:                                                                                       \
        if (mt_dtype_is_floating(DT)) {                                                            \
            T c = (T)count;                                                                        \
            for (int64_t i = 0; i < out_numel; i++) {                                              \
                ((T *)out)[i] = ((T *)out)[i] / c;                                                 \
            }                                                                                      \
        }                                                                                          \
        break;

void
mt_cpu_reduce(mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean, char *out)
{
    int64_t count = 1, out_numel = 1;

    reduce_into(op, in, mask, keepdim, out);
    if (!mean) {
        return;
    }
    for (int d = 0; d < in->ndim; d++) {
        if (mask & ((uint64_t)1 << d)) {
            count *= in->sizes[d];
        }
        else {
            out_numel *= in->sizes[d];
        }
    }
    switch (in->dtype) {
        MT_FOR_EACH_DTYPE(MEAN_CASE)
    default:
        break;
    }
}

/* ---- torch's product (ReduceOpsKernel.cpp's prod_kernel_impl, cpu/Reduce.h's binary_kernel_reduce_vec) */

/* torch multiplies in the input's dtype (a float16 or bfloat16 product is rounded to it at every step),
 * in the order of binary_kernel_reduce_vec with its 32-byte vectors (the prod kernel has no AVX-512
 * build, and the default build's vectors are 32 bytes too): a run contiguous in the reduced dim is
 * multiplied in 4 vectors of lanes (W lanes each) over whole groups of 4 W elements, the 4 vectors
 * combined as (v0 * v1) * (v2 * v3), the lanes folded left to right into the output, and the leftover
 * elements multiplied in one by one; when the kept dim is the contiguous one, each column of a group of
 * 4 W columns is multiplied down the rows, then into its output; every other layout, element by element
 * into each output. Here a product is a float (or double) that MUL rounds as the dtype does. */
#define PROD_LOOP_(S, T, V, LOAD, STORE, MUL)                                                      \
    static void prod_loop_##S(char **data, const int64_t *strides, int64_t size0, int64_t size1, void *ctx) \
    {                                                                                              \
        enum { W = 32 / (int)sizeof(T), G = 4 * W };                                               \
        V acc[G];                                                                                  \
        (void)ctx;                                                                                 \
        if (strides[0] == 0 && strides[1] == (int64_t)sizeof(T)) {                                 \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                T *o = (T *)(data[0] + j * strides[2]);                                            \
                const T *x = (const T *)(data[1] + j * strides[3]);                                \
                int64_t groups = size0 / G;                                                        \
                V r = LOAD(*o);                                                                    \
                if (groups > 0) {                                                                  \
                    for (int k = 0; k < G; k++) {                                                  \
                        acc[k] = LOAD(x[k]);                                                       \
                    }                                                                              \
                    for (int64_t i = 1; i < groups; i++) {                                         \
                        for (int k = 0; k < G; k++) {                                              \
                            acc[k] = MUL(acc[k], LOAD(x[i * G + k]));                              \
                        }                                                                          \
                    }                                                                              \
                    for (int k = 0; k < W; k++) {                                                  \
                        acc[k] = MUL(MUL(acc[k], acc[W + k]), MUL(acc[2 * W + k], acc[3 * W + k])); \
                    }                                                                              \
                    for (int k = 1; k < W; k++) {                                                  \
                        acc[0] = MUL(acc[0], acc[k]);                                              \
                    }                                                                              \
                    r = MUL(r, acc[0]);                                                            \
                }                                                                                  \
                for (int64_t i = groups * G; i < size0; i++) {                                     \
                    r = MUL(r, LOAD(x[i]));                                                        \
                }                                                                                  \
                *o = STORE(r);                                                                     \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (strides[0] == 0 && strides[2] == (int64_t)sizeof(T) && strides[3] == (int64_t)sizeof(T) && size0 > 0) { \
            int64_t c = 0;                                                                         \
            for (; c + G <= size1; c += G) {                                                       \
                T *o = (T *)data[0] + c;                                                           \
                for (int k = 0; k < G; k++) {                                                      \
                    acc[k] = LOAD(((const T *)data[1])[c + k]);                                    \
                }                                                                                  \
                for (int64_t i = 1; i < size0; i++) {                                              \
                    const T *row = (const T *)(data[1] + i * strides[1]) + c;                      \
                    for (int k = 0; k < G; k++) {                                                  \
                        acc[k] = MUL(acc[k], LOAD(row[k]));                                        \
                    }                                                                              \
                }                                                                                  \
                for (int k = 0; k < G; k++) {                                                  \
                    o[k] = STORE(MUL(acc[k], LOAD(o[k])));                                         \
                }                                                                                  \
            }                                                                                      \
            for (; c < size1; c++) {                                                               \
                T *o = (T *)data[0] + c;                                                           \
                V r = LOAD(*o);                                                                    \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    r = MUL(r, LOAD(*((const T *)(data[1] + i * strides[1]) + c)));                \
                }                                                                                  \
                *o = STORE(r);                                                                     \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t j = 0; j < size1; j++) {                                                      \
            for (int64_t i = 0; i < size0; i++) {                                                  \
                T *o = (T *)(data[0] + j * strides[2] + i * strides[0]);                           \
                *o = STORE(MUL(LOAD(*o), LOAD(*(const T *)(data[1] + j * strides[3] + i * strides[1])))); \
            }                                                                                      \
        }                                                                                          \
    }

#define PROD_SAME(x) (x)
#define PROD_MUL(a, b) ((a) * (b))
#define PROD_F16_LOAD(v) mt_half_to_float(v)
#define PROD_F16_MUL(a, b) mt_half_to_float(mt_float_to_half((a) * (b)))
#define PROD_BF16_LOAD(v) mt_bfloat16_to_float(v)
#define PROD_BF16_MUL(a, b) mt_bfloat16_to_float(mt_float_to_bfloat16((a) * (b)))
PROD_LOOP_(f32, float, float, PROD_SAME, PROD_SAME, PROD_MUL)
PROD_LOOP_(f64, double, double, PROD_SAME, PROD_SAME, PROD_MUL)
PROD_LOOP_(f16, uint16_t, float, PROD_F16_LOAD, mt_float_to_half, PROD_F16_MUL)
PROD_LOOP_(bf16, uint16_t, float, PROD_BF16_LOAD, mt_float_to_bfloat16, PROD_BF16_MUL)

int
mt_cpu_prod(const mt_reduce_input *in, uint64_t mask, int keepdim, char *out)
{
    red_iter it;
    loop2d_fn loop;
    size_t elem = mt_dtype_size(in->dtype);
    int64_t out_numel = 1;
    char one[8];

    switch (in->dtype) {
    case MT_FLOAT32:
        loop = prod_loop_f32;
        *(float *)one = 1.0f;
        break;
    case MT_FLOAT64:
        loop = prod_loop_f64;
        *(double *)one = 1.0;
        break;
    case MT_FLOAT16:
        loop = prod_loop_f16;
        *(uint16_t *)one = mt_float_to_half(1.0f);
        break;
    case MT_BFLOAT16:
        loop = prod_loop_bf16;
        *(uint16_t *)one = mt_float_to_bfloat16(1.0f);
        break;
    default:
        return -1;
    }
    for (int d = 0; d < in->ndim; d++) {
        if (!(mask & ((uint64_t)1 << d))) {
            out_numel *= in->sizes[d];
        }
    }
    /* binary_kernel_reduce_vec fills the output with the identity first */
    for (int64_t i = 0; i < out_numel; i++) {
        memcpy(out + (size_t)i * elem, one, elem);
    }
    if (out_numel == 0) {
        return 0;
    }
    red_iter_build(&it, out, elem, in, mask, keepdim);
    if (iter_numel(&it) > 0) {
        parallel_reduce(&it, loop, NULL, NULL, in->dtype, out_numel, elem, in, mt_cpu_torch_threads());
    }
    return 0;
}

/* ---- nll_loss's sum (LossNLL.cpp's nll_loss_out_frame) ------------------------------------------- */

/* torch adds the picked losses of a (N, C) or (C) nll_loss in the input's dtype (a float16 or bfloat16 sum
 * rounded at every step) through a cascade of 8 partial sums: each kept row's loss goes into the first;
 * after a kept row whose index has its low `level` bits zero, the first moves into the second, and so on up
 * while the next `level` bits are zero too (an ignored row moves nothing). The total is the partials added
 * in order. The weights taken are summed the same way; without class weights torch counts the kept rows. */
#define NLL_SUM_(S, T, V, LOAD, STORE, ADD)                                                        \
    static void nll_sum_##S(const T *loss, const T *weight, const uint8_t *kept, int64_t n, T *out) \
    {                                                                                              \
        int level = 4;                                                                             \
        int64_t mask, count = 0;                                                                   \
        V l[8] = {0}, w[8] = {0}, total = 0, total_weight = 0;                                     \
        if (n > 1) {                                                                               \
            int log2 = 64 - __builtin_clzll((unsigned long long)(n - 1));                          \
            level = log2 / 8 > 4 ? log2 / 8 : 4;                                                   \
        }                                                                                          \
        mask = ((int64_t)1 << level) - 1;                                                          \
        for (int64_t b = 0; b < n; b++) {                                                          \
            if (kept != NULL && !kept[b]) {                                                        \
                continue;                                                                          \
            }                                                                                      \
            count++;                                                                               \
            l[0] = ADD(l[0], LOAD(loss[b]));                                                       \
            if (weight != NULL) {                                                                  \
                w[0] = ADD(w[0], LOAD(weight[b]));                                                 \
            }                                                                                      \
            for (int j = 0; j + 1 < 8 && (b & (mask << (j * level))) == 0; j++) {                  \
                l[j + 1] = ADD(l[j + 1], l[j]);                                                    \
                w[j + 1] = ADD(w[j + 1], w[j]);                                                    \
                l[j] = 0;                                                                          \
                w[j] = 0;                                                                          \
            }                                                                                      \
        }                                                                                          \
        for (int j = 0; j < 8; j++) {                                                              \
            total = ADD(total, l[j]);                                                              \
            total_weight = ADD(total_weight, w[j]);                                                \
        }                                                                                          \
        out[0] = STORE(total);                                                                     \
        out[1] = weight != NULL ? STORE(total_weight) : STORE((V)count);                           \
    }

#define NLL_ADD(a, b) ((a) + (b))
#define NLL_F16_ADD(a, b) mt_half_to_float(mt_float_to_half((a) + (b)))
#define NLL_BF16_ADD(a, b) mt_bfloat16_to_float(mt_float_to_bfloat16((a) + (b)))
NLL_SUM_(f32, float, float, PROD_SAME, PROD_SAME, NLL_ADD)
NLL_SUM_(f64, double, double, PROD_SAME, PROD_SAME, NLL_ADD)
NLL_SUM_(f16, uint16_t, float, PROD_F16_LOAD, mt_float_to_half, NLL_F16_ADD)
NLL_SUM_(bf16, uint16_t, float, PROD_BF16_LOAD, mt_float_to_bfloat16, NLL_BF16_ADD)

int
mt_cpu_nll_sum(mt_dtype dtype, const char *loss, const char *weight, const uint8_t *kept, int64_t n, char *out)
{
    switch (dtype) {
    case MT_FLOAT32:
        nll_sum_f32((const float *)loss, (const float *)weight, kept, n, (float *)out);
        return 0;
    case MT_FLOAT64:
        nll_sum_f64((const double *)loss, (const double *)weight, kept, n, (double *)out);
        return 0;
    case MT_FLOAT16:
        nll_sum_f16((const uint16_t *)loss, (const uint16_t *)weight, kept, n, (uint16_t *)out);
        return 0;
    case MT_BFLOAT16:
        nll_sum_bf16((const uint16_t *)loss, (const uint16_t *)weight, kept, n, (uint16_t *)out);
        return 0;
    default:
        return -1;
    }
}

/* ---- argmax / argmin, max / min with indices ----------------------------------------------------- */

#define ARG_SCAN(T, BETTER)                                                                        \
    do {                                                                                           \
        const char *p = base;                                                                      \
        T best = *(const T *)p;                                                                    \
        int64_t bi = 0;                                                                            \
        for (int64_t i = 1; i < n; i++) {                                                          \
            T v = *(const T *)(p + i * stride);                                                    \
            if (BETTER) {                                                                          \
                best = v;                                                                          \
                bi = i;                                                                            \
            }                                                                                      \
        }                                                                                          \
        if (values != NULL) {                                                                      \
            ((T *)values)[k] = best;                                                               \
        }                                                                                          \
        indices[k] = bi;                                                                           \
    } while (0)

/* Scans n elements from base with a byte stride and stores the winner at output position k. */
/* The first index of the extreme of a long contiguous run: the lane kernel finds the value, a second
 * pass its first occurrence (the first NaN when there is one). Same result as the sequential scan. */
#define ARG_FAST(T, MAXF, MINF)                                                                    \
    do {                                                                                           \
        const T *x = (const T *)base;                                                              \
        int nan = 0;                                                                               \
        T v = is_max ? MAXF(x, n, &nan) : MINF(x, n, &nan);                                        \
        int64_t i = 0;                                                                             \
        if (nan) {                                                                                 \
            while (x[i] == x[i]) {                                                                 \
                i++;                                                                               \
            }                                                                                      \
        }                                                                                          \
        else {                                                                                     \
            while (x[i] != v) {                                                                    \
                i++;                                                                               \
            }                                                                                      \
        }                                                                                          \
        if (values != NULL) {                                                                      \
            ((T *)values)[k] = x[i];                                                               \
        }                                                                                          \
        indices[k] = i;                                                                            \
    } while (0)

/* argmax's rule (op_math.h): a NaN beats everything but an earlier NaN; ties keep the earlier index */
#define ARG_FAST_CASE(DT, T, S)                                                                    \
    case DT:                                                                                       \
        ARG_FAST(T, S##_max_run, S##_min_run);                                                     \
        return;
/* one case of a switch on the dtype: LOOP (ARG_SCAN or ARG_ROWS) with op_math.h's rule, `v` the new
 * element and BEST the one held */
#define ARG_CASE(LOOP, DT, T, S, BEST)                                                             \
    case DT:                                                                                       \
        if (is_max) {                                                                              \
            LOOP(T, mt_arg_max_better_##S(v, BEST));                                               \
        }                                                                                          \
        else {                                                                                     \
            LOOP(T, mt_arg_min_better_##S(v, BEST));                                               \
        }                                                                                          \
        break;
#define ARG_SCAN_CASE(DT, T, S) ARG_CASE(ARG_SCAN, DT, T, S, best)

static void
arg_scan(int is_max, mt_dtype dtype, const char *base, int64_t stride, int64_t n, char *values,
         int64_t *indices, int64_t k)
{
    if (n >= LONG_RUN && stride == (int64_t)mt_dtype_size(dtype)) {
        switch (dtype) {
            MT_FOR_EACH_DTYPE(ARG_FAST_CASE)
        default:
            return;
        }
    }
    switch (dtype) {
        MT_FOR_EACH_DTYPE(ARG_SCAN_CASE)
    default:
        break;
    }
}

/* Row-major contiguous, ignoring the strides of size-1 dims. */
static int
geometry_is_contiguous(int n, const int64_t *sizes, const int64_t *strides)
{
    int64_t expected = 1;
    for (int d = n - 1; d >= 0; d--) {
        if (sizes[d] != 1 && strides[d] != expected) {
            return 0;
        }
        expected *= sizes[d];
    }
    return 1;
}

/* ARG_ROWS: for a contiguous input reduced along a dim that is not the innermost, walk the dim in
 * the outer loop and update a whole contiguous block of outputs per step. Each output still sees its
 * elements in index order with the sequential rule, so the result equals the per-output scan; the
 * memory is read once, in order. */
#define ARG_ROWS(T, BETTER)                                                                        \
    do {                                                                                           \
        for (int64_t o = 0; o < outer; o++) {                                                      \
            const T *blk = (const T *)in->data + o * len * inner;                                  \
            T *bv = (T *)best + o * inner;                                                         \
            int64_t *bi = indices + o * inner;                                                     \
            for (int64_t j = 0; j < inner; j++) {                                                  \
                bv[j] = blk[j];                                                                    \
                bi[j] = 0;                                                                         \
            }                                                                                      \
            for (int64_t i = 1; i < len; i++) {                                                    \
                const T *row = blk + i * inner;                                                    \
                for (int64_t j = 0; j < inner; j++) {                                              \
                    T v = row[j];                                                                  \
                    T b = bv[j];                                                                   \
                    if (BETTER) {                                                                  \
                        bv[j] = v;                                                                 \
                        bi[j] = i;                                                                 \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define ARG_ROWS_CASE(DT, T, S) ARG_CASE(ARG_ROWS, DT, T, S, b)

/* 0 when done; -1 when no scratch memory could be had (the caller then scans per output). */
static int
arg_reduce_rows(int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    int64_t outer = 1, inner = 1, len = in->sizes[dim];
    size_t size = mt_dtype_size(in->dtype);
    char *best = values;

    for (int d = 0; d < dim; d++) {
        outer *= in->sizes[d];
    }
    for (int d = dim + 1; d < in->ndim; d++) {
        inner *= in->sizes[d];
    }
    if (best == NULL) {
        best = malloc((size_t)(outer * inner) * size + 1);
        if (best == NULL) {
            return -1;
        }
    }
    switch (in->dtype) {
        MT_FOR_EACH_DTYPE(ARG_ROWS_CASE)
    default:
        break;
    }
    if (best != values) {
        free(best);
    }
    return 0;
}

void
mt_cpu_arg_reduce(int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices)
{
    size_t size = mt_dtype_size(in->dtype);
    int n = in->ndim;

    if (dim < 0) {
        /* the flattened tensor in row-major order: a contiguous input is one scan */
        int64_t numel = 1;
        for (int d = 0; d < n; d++) {
            numel *= in->sizes[d];
        }
        if (geometry_is_contiguous(n, in->sizes, in->strides)) {
            arg_scan(is_max, in->dtype, in->data, (int64_t)size, numel, values, indices, 0);
            return;
        }
        {
            /* gather in logical order through a small odometer, one scan per innermost row */
            int64_t counter[MT_MAX_DIMS];
            int64_t inner = n > 0 ? in->sizes[n - 1] : 1;
            int64_t inner_stride = n > 0 ? in->strides[n - 1] * (int64_t)size : 0;
            int64_t rows = inner > 0 ? numel / inner : 0;
            int64_t best_index = 0;
            char best_value[8];
            int have = 0;
            memset(counter, 0, sizeof(counter));
            for (int64_t r = 0; r < rows; r++) {
                const char *p = in->data;
                char v[8];
                int64_t idx;
                for (int d = 0; d < n - 1; d++) {
                    p += counter[d] * in->strides[d] * (int64_t)size;
                }
                arg_scan(is_max, in->dtype, p, inner_stride, inner, v, &idx, 0);
                if (!have) {
                    memcpy(best_value, v, size);
                    best_index = idx;
                    have = 1;
                }
                else {
                    /* compare this row's winner with the best so far (earlier rows win ties) */
                    char pair[16];
                    int64_t pi = 0;
                    memcpy(pair, best_value, size);
                    memcpy(pair + size, v, size);
                    arg_scan(is_max, in->dtype, pair, (int64_t)size, 2, NULL, &pi, 0);
                    if (pi == 1) {
                        memcpy(best_value, v, size);
                        best_index = r * inner + idx;
                    }
                }
                for (int d = n - 2; d >= 0; d--) {
                    if (++counter[d] < in->sizes[d]) {
                        break;
                    }
                    counter[d] = 0;
                }
            }
            if (values != NULL) {
                memcpy(values, best_value, size);
            }
            indices[0] = best_index;
        }
        return;
    }
    if (dim < n - 1 && geometry_is_contiguous(n, in->sizes, in->strides) &&
        arg_reduce_rows(is_max, in, dim, values, indices) == 0) {
        return;
    }
    {
        /* one scan along `dim` per output element, output elements in row-major order */
        int64_t counter[MT_MAX_DIMS];
        int64_t len = in->sizes[dim];
        int64_t stride = in->strides[dim] * (int64_t)size;
        int64_t outn = 1;
        memset(counter, 0, sizeof(counter));
        for (int d = 0; d < n; d++) {
            if (d != dim) {
                outn *= in->sizes[d];
            }
        }
        for (int64_t k = 0; k < outn; k++) {
            const char *p = in->data;
            for (int d = 0; d < n; d++) {
                if (d != dim) {
                    p += counter[d] * in->strides[d] * (int64_t)size;
                }
            }
            arg_scan(is_max, in->dtype, p, stride, len, values, indices, k);
            for (int d = n - 1; d >= 0; d--) {
                if (d == dim) {
                    continue;
                }
                if (++counter[d] < in->sizes[d]) {
                    break;
                }
                counter[d] = 0;
            }
        }
    }
}

/* ---- vector norms: torch's norm kernel (linalg.vector_norm) -------------------------------------- */

/* torch's CPU norm_stub (norm_kernel_tensor_iterator_impl, aten/src/ATen/native/cpu/ReduceOpsKernel.cpp)
 * for a finite order, on the reduction iterator of mt_cpu_reduce. Its operations, as torch 2.13's x86 build
 * compiled them (found by comparing bits with it, row lengths 1 to 300, each CPU capability):
 *  - order 2 over one reduced dim that comes first with unit input stride (is_reduce_lastdim), for
 *    float32, float64 and bfloat16: each row adds the squares into the lanes of a 32-byte vector (8 float
 *    lanes, 4 double; bfloat16 converts 16 elements to two float vectors per step), a product and a sum
 *    rounded apart; the lanes are added in order into lane 0; the elements past the last whole step
 *    follow one at a time; then std::sqrt. The vectors are 32 bytes under every capability (AVX-512's
 *    too). Under AVX2 and AVX-512 the compiler fused the last elements' `acc += x * x` into one rounding,
 *    except float32's first 4 of 4 to 7 (a 4-lane product, then 4 additions) and bfloat16's; the
 *    portable build (ATEN_CPU_CAPABILITY=default) fuses nothing.
 *  - otherwise (float16 always; any order but 2): binary_kernel_reduce with NormTwoOps, NormOneOps,
 *    NormZeroOps or NormOps: each output is a plain sequential sum in the iterator's order, in float for
 *    the 16-bit dtypes, nothing fused, then sqrt (NormOps: pow(acc, 1 / p), p in the accumulator's type).
 *    One output over GRAIN_SIZE or more elements is summed in torch's per-thread pieces, each from 0,
 *    and the pieces' sums are added in order.
 * The build compiles C in ISO mode, which contracts no `a + x * x` into a fused multiply-add: each step
 * below rounds where it is written to, and fmaf/fma are the fused ones. */

typedef enum { NORM_ZERO, NORM_ONE, NORM_TWO, NORM_POW } norm_kind;

/* Outputs side by side along the fastest kept dim are summed together, each in its own order, so that a
 * reduction down the columns reads memory row by row. */
#define NORM_BLOCK 16

typedef struct {
    const red_iter *it;
    int nr;             /* the leading dims of `it` that are reduced */
    int64_t reduced;    /* the elements each output reduces */
    int64_t inner;      /* the outputs along the fastest kept dim (dim nr), 1 when none is kept */
    int64_t blocks;     /* the units of work: blocks of up to NORM_BLOCK of them, times the other kept dims */
    mt_dtype dtype;
    norm_kind kind;
    double p;
    int lastdim;        /* the vectorised path */
    int fused_tail;
    double partial[256];
} norm_job;

/* acc[k] + f(x) for the n elements of each of the B outputs, output k's elements at x + k * ostride, stride
 * bytes apart, each output's in order; ACC the accumulator type, LOAD one element as ACC. The steps of
 * NormTwoOps, NormOneOps, NormZeroOps and NormOps: */
#define TWO_STEP(Q, A, ACC, LOAD, POW, FABS) do { ACC v_ = LOAD(Q); (A) = (A) + v_ * v_; } while (0)
#define ONE_STEP(Q, A, ACC, LOAD, POW, FABS) ((A) = (A) + FABS(LOAD(Q)))
#define ZERO_STEP(Q, A, ACC, LOAD, POW, FABS) ((A) = (A) + (LOAD(Q) == (ACC)0 ? (ACC)0 : (ACC)1))
#define POW_STEP(Q, A, ACC, LOAD, POW, FABS) ((A) = (A) + POW(FABS(LOAD(Q)), (ACC)p))
#define NORM_LOOP(STEP, ACC, LOAD, POW, FABS)                                                      \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const char *row = x + i * stride;                                                          \
        for (int k = 0; k < B; k++) {                                                              \
            STEP(row + k * ostride, acc[k], ACC, LOAD, POW, FABS);                                 \
        }                                                                                          \
    }
#define NORM_STEPS(ACC, LOAD, POW, FABS)                                                            \
    do {                                                                                           \
        switch (kind) {                                                                            \
        case NORM_TWO:                                                                             \
            NORM_LOOP(TWO_STEP, ACC, LOAD, POW, FABS)                                              \
            break;                                                                                 \
        case NORM_ONE:                                                                             \
            NORM_LOOP(ONE_STEP, ACC, LOAD, POW, FABS)                                              \
            break;                                                                                 \
        case NORM_ZERO:                                                                            \
            NORM_LOOP(ZERO_STEP, ACC, LOAD, POW, FABS)                                             \
            break;                                                                                 \
        default:                                                                                   \
            NORM_LOOP(POW_STEP, ACC, LOAD, POW, FABS)                                              \
            break;                                                                                 \
        }                                                                                          \
    } while (0)
#define LOAD_F32(q) (*(const float *)(q))
#define LOAD_F64(q) (*(const double *)(q))
#define LOAD_BF16(q) mt_bfloat16_to_float(*(const uint16_t *)(q))
#define LOAD_F16(q) mt_half_to_float(*(const uint16_t *)(q))

/* The accumulators travel as doubles between runs (a float one converts there and back exactly). */
static void
norm_run(mt_dtype dtype, norm_kind kind, double p, const char *x, int64_t stride, int64_t n, int64_t ostride,
         int B, double *accs)
{
    if (dtype == MT_FLOAT64) {
        double *acc = accs;
        NORM_STEPS(double, LOAD_F64, pow, fabs);
        return;
    }
    {
        float acc[NORM_BLOCK];
        for (int k = 0; k < B; k++) {
            acc[k] = (float)accs[k];
        }
        if (dtype == MT_FLOAT32) {
            NORM_STEPS(float, LOAD_F32, powf, fabsf);
        }
        else if (dtype == MT_BFLOAT16) {
            NORM_STEPS(float, LOAD_BF16, powf, fabsf);
        }
        else {
            NORM_STEPS(float, LOAD_F16, powf, fabsf);
        }
        for (int k = 0; k < B; k++) {
            accs[k] = acc[k];
        }
    }
}

/* The reduced elements [begin, end) of B outputs (torch's serial_for_each order: dim 0 fastest) added to
 * acc[0 .. B-1]; base points at the first output's first element, output k's at base + k * ostride. */
static void
norm_walk(const norm_job *job, const char *base, int64_t begin, int64_t end, int64_t ostride, int B, double *acc)
{
    const red_iter *it = job->it;
    int64_t idx[MT_MAX_DIMS];
    int64_t lin = begin;
    const char *x = base;

    if (job->nr == 0) {
        if (begin < end) {
            norm_run(job->dtype, job->kind, job->p, base, 0, 1, ostride, B, acc);
        }
        return;
    }
    for (int d = 0; d < job->nr; d++) {
        idx[d] = lin % it->shape[d];
        lin /= it->shape[d];
        x += idx[d] * it->stride[1][d];
    }
    while (begin < end) {
        int64_t n = it->shape[0] - idx[0];
        if (n > end - begin) {
            n = end - begin;
        }
        norm_run(job->dtype, job->kind, job->p, x, it->stride[1][0], n, ostride, B, acc);
        begin += n;
        idx[0] += n;
        x += n * it->stride[1][0];
        for (int d = 0; d + 1 < job->nr && idx[d] == it->shape[d]; d++) {
            x += it->stride[1][d + 1] - idx[d] * it->stride[1][d];
            idx[d] = 0;
            idx[d + 1]++;
        }
    }
}

/* One row of the vectorised 2-norm: LANES lanes of T, then the tail, whose first GROUP elements (when the
 * tail has that many) the compiler left unfused; the others are fused when fused_tail. */
#define DEFINE_NORM2_ROW(NAME, T, LANES, GROUP, FMA, SQRT)                                         \
    static T NAME(const T *x, int64_t n, int fused_tail)                                           \
    {                                                                                              \
        T acc[LANES] = {0};                                                                        \
        T s;                                                                                       \
        int64_t d = 0;                                                                             \
        for (; d + LANES <= n; d += LANES) {                                                       \
            for (int j = 0; j < LANES; j++) {                                                      \
                acc[j] = acc[j] + x[d + j] * x[d + j];                                             \
            }                                                                                      \
        }                                                                                          \
        s = acc[0];                                                                                \
        for (int j = 1; j < LANES; j++) {                                                          \
            s = s + acc[j];                                                                        \
        }                                                                                          \
        if (fused_tail && GROUP > 0 && n - d >= GROUP) {                                           \
            for (int k = 0; k < GROUP; k++, d++) {                                                 \
                s = s + x[d] * x[d];                                                               \
            }                                                                                      \
        }                                                                                          \
        for (; d < n; d++) {                                                                       \
            s = fused_tail ? FMA(x[d], x[d], s) : s + x[d] * x[d];                                 \
        }                                                                                          \
        return SQRT(s);                                                                            \
    }

DEFINE_NORM2_ROW(norm2_row_f32, float, 8, 4, fmaf, sqrtf)
DEFINE_NORM2_ROW(norm2_row_f64, double, 4, 0, fma, sqrt)

static float
norm2_row_bf16(const uint16_t *x, int64_t n)
{
    float acc[8] = {0};
    float s;
    int64_t d = 0;

    for (; d + 16 <= n; d += 16) {
        for (int h = 0; h < 16; h += 8) {
            for (int j = 0; j < 8; j++) {
                float v = mt_bfloat16_to_float(x[d + h + j]);
                acc[j] = acc[j] + v * v;
            }
        }
    }
    s = acc[0];
    for (int j = 1; j < 8; j++) {
        s = s + acc[j];
    }
    for (; d < n; d++) {
        float v = mt_bfloat16_to_float(x[d]);
        s = s + v * v;
    }
    return sqrtf(s);
}

static void
norm_fill(mt_dtype dtype, double v, char *out)
{
    if (dtype == MT_FLOAT64) {
        *(double *)out = v;
    }
    else if (dtype == MT_FLOAT32) {
        *(float *)out = (float)v;
    }
    else {
        *(uint16_t *)out = mt_float_to_reduced(dtype, (float)v);
    }
}

/* The value an output holds from its accumulated sum (NormTwoOps's sqrt, NormOps's root, or the sum). */
static void
norm_store(const norm_job *job, double acc, char *out)
{
    if (job->dtype == MT_FLOAT64) {
        norm_fill(MT_FLOAT64, job->kind == NORM_TWO ? sqrt(acc) : job->kind == NORM_POW ? pow(acc, 1.0 / job->p) : acc,
                  out);
        return;
    }
    {
        float a = (float)acc;
        norm_fill(job->dtype, job->kind == NORM_TWO ? sqrtf(a) : job->kind == NORM_POW ? powf(a, 1.0f / (float)job->p) : a,
                  out);
    }
}

/* Blocks [begin, end) of outputs (each output on its own: any order, any thread). */
static void
norm_outputs(void *vjob, int64_t begin, int64_t end)
{
    const norm_job *job = vjob;
    const red_iter *it = job->it;
    int64_t per_row = divup(job->inner, NORM_BLOCK);

    for (int64_t b = begin; b < end; b++) {
        const char *x = it->data[1];
        char *out = it->data[0];
        int64_t first = b % per_row * NORM_BLOCK, lin = b / per_row;
        int B = (int)(job->inner - first < NORM_BLOCK ? job->inner - first : NORM_BLOCK);
        int64_t in_step = job->nr < it->ndim ? it->stride[1][job->nr] : 0;
        int64_t out_step = job->nr < it->ndim ? it->stride[0][job->nr] : 0;
        double acc[NORM_BLOCK] = {0};

        x += first * in_step;
        out += first * out_step;
        for (int d = job->nr + 1; d < it->ndim; d++) {
            int64_t i = lin % it->shape[d];
            lin /= it->shape[d];
            x += i * it->stride[1][d];
            out += i * it->stride[0][d];
        }
        if (!job->lastdim) {
            norm_walk(job, x, 0, job->reduced, in_step, B, acc);
        }
        for (int k = 0; k < B; k++, x += in_step, out += out_step) {
            int64_t n = it->shape[0];
            if (!job->lastdim) {
                norm_store(job, acc[k], out);
            }
            else if (job->dtype == MT_FLOAT32) {
                *(float *)out = norm2_row_f32((const float *)x, n, job->fused_tail);
            }
            else if (job->dtype == MT_FLOAT64) {
                *(double *)out = norm2_row_f64((const double *)x, n, job->fused_tail);
            }
            else {
                *(uint16_t *)out = mt_float_to_bfloat16(norm2_row_bf16((const uint16_t *)x, n));
            }
        }
    }
}

/* One piece of binary_kernel_reduce's split of a single output (at::parallel_for's chunk for thread t). */
typedef struct {
    norm_job *job;
    int64_t chunk;
} norm_split;

static void
norm_pieces(void *vsplit, int64_t begin, int64_t end)
{
    norm_split *s = vsplit;

    for (int64_t t = begin; t < end; t++) {
        int64_t b = t * s->chunk;
        int64_t e = b + s->chunk < s->job->reduced ? b + s->chunk : s->job->reduced;
        norm_walk(s->job, s->job->it->data[1], b, e, 0, 1, &s->job->partial[t]);
    }
}

int
mt_cpu_vector_norm(const mt_reduce_input *in, double ord, uint64_t mask, int keepdim, char *out)
{
    red_iter it;
    norm_job job_storage;
    norm_job *job = &job_storage;
    size_t elem = mt_dtype_size(in->dtype);
    int64_t out_numel = 1, outputs;
    int reduce_dims = 0;

    if (!(in->dtype == MT_FLOAT32 || in->dtype == MT_FLOAT64 || in->dtype == MT_FLOAT16 ||
          in->dtype == MT_BFLOAT16) || !isfinite(ord)) {
        return -1;
    }
    memset(job, 0, sizeof *job);
    for (int d = 0; d < in->ndim; d++) {
        if (!(mask & ((uint64_t)1 << d))) {
            out_numel *= in->sizes[d];
        }
    }
    red_iter_build(&it, out, elem, in, mask, keepdim);
    job->it = &it;
    job->dtype = in->dtype;
    job->p = ord;
    job->kind = ord == 0.0 ? NORM_ZERO : ord == 1.0 ? NORM_ONE : ord == 2.0 ? NORM_TWO : NORM_POW;
    job->fused_tail = mt_cpu_torch_capability() != MT_TORCH_CPU_DEFAULT;
    if (iter_numel(&it) == 0) {
        /* torch fills an empty reduction's outputs with 0 (inf for a negative order) */
        for (int64_t i = 0; i < out_numel; i++) {
            norm_fill(in->dtype, ord < 0.0 ? INFINITY : 0.0, out + (size_t)i * elem);
        }
        return 0;
    }
    job->nr = 0;
    while (job->nr < it.ndim && it.stride[0][job->nr] == 0) {
        job->nr++;
    }
    for (int d = 0; d < it.ndim; d++) {
        reduce_dims += it.stride[0][d] == 0;
    }
    job->reduced = 1;
    for (int d = 0; d < job->nr; d++) {
        job->reduced *= it.shape[d];
    }
    outputs = iter_numel(&it) / job->reduced;
    job->lastdim = job->kind == NORM_TWO && in->dtype != MT_FLOAT16 && reduce_dims == 1 && job->nr == 1 &&
                   it.shape[0] > 1 && it.stride[1][0] == (int64_t)elem;
    if (!job->lastdim && outputs == 1 && job->reduced >= GRAIN_SIZE && mt_cpu_torch_threads() > 1) {
        /* binary_kernel_reduce: at::parallel_for's chunks, one accumulator per thread, combined in order */
        int threads = mt_cpu_torch_threads();
        int64_t tasks = divup(job->reduced, GRAIN_SIZE);
        norm_split split;
        double total = 0.0;
        if (tasks > threads) {
            tasks = threads;
        }
        if (tasks > 256) {
            tasks = 256;
        }
        split.job = job;
        split.chunk = divup(job->reduced, tasks);
        mt_parallel_for(tasks, 1, threads, norm_pieces, &split);
        for (int64_t t = 0; t < tasks; t++) {
            total = job->dtype == MT_FLOAT64 ? total + job->partial[t] : (double)((float)total + (float)job->partial[t]);
        }
        norm_store(job, total, it.data[0]);
        return 0;
    }
    job->inner = job->nr < it.ndim ? it.shape[job->nr] : 1;
    job->blocks = outputs / job->inner * divup(job->inner, NORM_BLOCK);
    mt_parallel_for(job->blocks, job->reduced * NORM_BLOCK >= GRAIN_SIZE ? 1 : GRAIN_SIZE / (job->reduced * NORM_BLOCK),
                    0, norm_outputs, job);
    return 0;
}
