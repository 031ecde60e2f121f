/* gather.c: the host loop of gather, scatter (and scatter_reduce's reductions), scatter_add, index_select, index_add_ and index_reduce_ (see gather.h and
 * mt_index_dim_args): the positions in row-major order (the innermost dim as a tight line, an odometer
 * over the others), so repeated indices combine in the order torch's CPU kernels combine them. Integer sums and products wrap as two's complement
 * (computed unsigned), bool sums are `or` and bool products `and`. Large loops are shared among the
 * pool's threads along a dim other than the indexed one (index_dim_part), which keeps that order. It must
 * not raise, check index values beyond skipping those out of range, or know about tensors and devices. */
#include "gather.h"

#include <string.h>

#include "parallel.h"

/* amax / amin as torch's ReduceMaximum / ReduceMinimum: std::max(*d, s) keeps *d unless it is less (a NaN
 * already there stays), and a NaN in s always wins */
#define TAKES(mode, d, s) ((mode) == MT_INDEX_DIM_AMAX ? (d) < (s) : (s) < (d))

#define COMBINE_INT(S, T, U)                                                                       \
    static inline void combine_##S(T *d, T s, mt_index_dim_mode mode)                              \
    {                                                                                              \
        if (mode == MT_INDEX_DIM_ADD) {                                                            \
            *d = (T)((U)*d + (U)s);                                                                \
        }                                                                                          \
        else if (mode == MT_INDEX_DIM_MULTIPLY) {                                                  \
            *d = (T)((U)*d * (U)s);                                                                \
        }                                                                                          \
        else if (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) {                         \
            *d = TAKES(mode, *d, s) ? s : *d;                                                           \
        }                                                                                          \
        else {                                                                                     \
            *d = s;                                                                                \
        }                                                                                          \
    }
#define COMBINE_FLOAT(S, T)                                                                        \
    static inline void combine_##S(T *d, T s, mt_index_dim_mode mode)                              \
    {                                                                                              \
        *d = mode == MT_INDEX_DIM_ADD        ? *d + s                                              \
             : mode == MT_INDEX_DIM_MULTIPLY ? *d * s                                              \
             : (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) ? (s != s || TAKES(mode, *d, s) ? s : *d) \
                                                                       : s;                        \
    }

COMBINE_INT(u8, uint8_t, unsigned int)
COMBINE_INT(i8, int8_t, unsigned int)
COMBINE_INT(i16, int16_t, unsigned int)
COMBINE_INT(i32, int32_t, uint32_t)
COMBINE_INT(i64, int64_t, uint64_t)
COMBINE_FLOAT(f32, float)
COMBINE_FLOAT(f64, double)

/* float16 and bfloat16: each sum or product computed in float32 and rounded, as torch's Half arithmetic */
#define COMBINE_REDUCED(S, D)                                                                      \
    static inline void combine_##S(uint16_t *d, uint16_t s, mt_index_dim_mode mode)                \
    {                                                                                              \
        float x = mt_reduced_to_float(D, *d);                                                      \
        float y = mt_reduced_to_float(D, s);                                                       \
        *d = mode == MT_INDEX_DIM_ADD        ? mt_float_to_reduced(D, x + y)                       \
             : mode == MT_INDEX_DIM_MULTIPLY ? mt_float_to_reduced(D, x * y)                       \
             : (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN)                            \
                 ? (y != y || TAKES(mode, x, y) ? s : *d)                                          \
                 : s;                                                                              \
    }

COMBINE_REDUCED(f16, MT_FLOAT16)
COMBINE_REDUCED(bf16, MT_BFLOAT16)

static inline void
combine_b8(uint8_t *d, uint8_t s, mt_index_dim_mode mode)
{
    *d = (mode == MT_INDEX_DIM_ADD || mode == MT_INDEX_DIM_AMAX)        ? (uint8_t)(*d || s)
         : (mode == MT_INDEX_DIM_MULTIPLY || mode == MT_INDEX_DIM_AMIN) ? (uint8_t)(*d && s)
                                                                       : s;
}

/* One line along the innermost dim (n elements from the current offsets), with the mode fixed so that
 * the compiler drops the other combinations from the loop. */
#define INDEX_DIM_LINE(S, T, MODE)                                                                   \
    for (int64_t j = 0; j < inner; j++) {                                                          \
        int64_t v = a->index[ix + j * istep];                                                      \
        if (v >= 0 && v < a->indexed_size) {                                                       \
            int64_t moved = v * a->indexed_stride;                                                 \
            T *d = (T *)a->dst + dx + j * dstep + (a->indexed_dst ? moved : 0);                    \
            T s = a->src == NULL ? value : ((const T *)a->src)[sx + j * sstep + (a->indexed_dst ? 0 : moved)]; \
            combine_##S(d, s, MODE);                                                               \
        }                                                                                          \
    }

/* the lines in row-major order: an odometer over every dim but the innermost */
#define INDEX_DIM_LOOP(S, T)                                                                         \
    do {                                                                                           \
        T value;                                                                                   \
        memcpy(&value, a->value.bytes, sizeof(T));                                                 \
        for (int64_t n = 0; n < numel; n += inner) {                                               \
            if (a->mode == MT_INDEX_DIM_ADD) {                                                     \
                INDEX_DIM_LINE(S, T, MT_INDEX_DIM_ADD)                                             \
            }                                                                                      \
            else if (a->mode == MT_INDEX_DIM_MULTIPLY) {                                           \
                INDEX_DIM_LINE(S, T, MT_INDEX_DIM_MULTIPLY)                                        \
            }                                                                                      \
            else if (a->mode == MT_INDEX_DIM_AMAX) {                                               \
                INDEX_DIM_LINE(S, T, MT_INDEX_DIM_AMAX)                                            \
            }                                                                                      \
            else if (a->mode == MT_INDEX_DIM_AMIN) {                                               \
                INDEX_DIM_LINE(S, T, MT_INDEX_DIM_AMIN)                                            \
            }                                                                                      \
            else {                                                                                 \
                INDEX_DIM_LINE(S, T, MT_INDEX_DIM_COPY)                                            \
            }                                                                                      \
            for (int d = a->ndim - 2; d >= 0; d--) {                                               \
                dx += a->dst_strides[d];                                                           \
                sx += a->src_strides[d];                                                           \
                ix += a->index_strides[d];                                                         \
                if (++pos[d] < a->shape[d]) {                                                      \
                    break;                                                                         \
                }                                                                                  \
                dx -= a->dst_strides[d] * a->shape[d];                                             \
                sx -= a->src_strides[d] * a->shape[d];                                             \
                ix -= a->index_strides[d] * a->shape[d];                                           \
                pos[d] = 0;                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void
index_dim_serial(const mt_index_dim_args *a)
{
    int64_t pos[MT_MAX_DIMS] = {0};
    int64_t numel = 1, dx = 0, sx = 0, ix = 0;
    const int last = a->ndim - 1;
    const int64_t inner = a->shape[last], dstep = a->dst_strides[last], sstep = a->src_strides[last];
    const int64_t istep = a->index_strides[last];

    for (int d = 0; d < a->ndim; d++) {
        numel *= a->shape[d];
    }
    if (numel == 0) {
        return;
    }
    switch (a->dtype) {
    case MT_BOOL:
        INDEX_DIM_LOOP(b8, uint8_t);
        break;
    case MT_UINT8:
        INDEX_DIM_LOOP(u8, uint8_t);
        break;
    case MT_INT8:
        INDEX_DIM_LOOP(i8, int8_t);
        break;
    case MT_INT16:
        INDEX_DIM_LOOP(i16, int16_t);
        break;
    case MT_INT32:
        INDEX_DIM_LOOP(i32, int32_t);
        break;
    case MT_INT64:
        INDEX_DIM_LOOP(i64, int64_t);
        break;
    case MT_FLOAT32:
        INDEX_DIM_LOOP(f32, float);
        break;
    case MT_FLOAT64:
        INDEX_DIM_LOOP(f64, double);
        break;
    case MT_FLOAT16:
        INDEX_DIM_LOOP(f16, uint16_t);
        break;
    case MT_BFLOAT16:
        INDEX_DIM_LOOP(bf16, uint16_t);
        break;
    default:
        break;
    }
}

/* ---- the threads' shares ---------------------------------------------------------------------------- */

/* Positions that differ along a dim other than `dim` never reach the same destination element (the index
 * replaces only the coordinate along `dim`), so the outermost other dim with a nonzero destination stride
 * is divided among the pool's threads: each destination element still receives its values in row-major
 * order, from one thread, and the results do not depend on the number of threads. */
typedef struct {
    const mt_index_dim_args *a;
    int split;
} index_dim_job;

static void
index_dim_part(void *ctx, int64_t begin, int64_t end)
{
    const index_dim_job *j = (const index_dim_job *)ctx;
    mt_index_dim_args part = *j->a;
    int s = j->split;
    size_t item = mt_dtype_size(part.dtype);

    part.shape[s] = end - begin;
    part.dst += (size_t)(begin * part.dst_strides[s]) * item;
    if (part.src != NULL) {
        part.src += (size_t)(begin * part.src_strides[s]) * item;
    }
    part.index += begin * part.index_strides[s];
    index_dim_serial(&part);
}

void
mt_cpu_index_dim(const mt_index_dim_args *a)
{
    int64_t numel = 1;
    int split = -1;

    for (int d = 0; d < a->ndim; d++) {
        numel *= a->shape[d];
        if (split < 0 && d != a->dim && a->shape[d] > 1 && a->dst_strides[d] != 0) {
            split = d;
        }
    }
    if (split < 0 || numel <= MT_PARALLEL_GRAIN_SIZE) {
        index_dim_serial(a);
        return;
    }
    index_dim_job job = {a, split};
    int64_t per = numel / a->shape[split];     /* positions per step along the split dim */
    int64_t grain = (MT_PARALLEL_GRAIN_SIZE + per - 1) / per;

    mt_parallel_for(a->shape[split], grain, 0, index_dim_part, &job);
}
