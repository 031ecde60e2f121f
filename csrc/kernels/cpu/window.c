/* window.c (cpu): im2col, col2im and max pooling, the windows behind convolution and pooling
 * (kernel_types.h, mt_window_args). Every geometry is taken as three spatial dims (the missing leading
 * ones of size 1), and the innermost dim is walked as a row: a window row whose outer positions fall in
 * the padding is filled (or skipped) whole, and with stride 1 the part of a row inside the image is one
 * memcpy. Images are independent, so the planes (and, for im2col, each plane's kernel offsets) are
 * divided among the pool's threads; col2im adds one plane's columns in (k, l) order, as torch's CPU
 * col2im does, so its sums are torch's. */
#include "window.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "parallel.h"

/* the geometry as three dims, the leading missing ones of size 1 */
typedef struct {
    int64_t size[3], out[3], kernel[3], stride[3], padding[3], dilation[3];
    int64_t image_numel, k_count, l_count;
} geometry3;

static void
geometry_of(const mt_window_args *a, geometry3 *g)
{
    int lead = 3 - a->dims;

    for (int d = 0; d < 3; d++) {
        int s = d - lead;
        g->size[d] = s >= 0 ? a->size[s] : 1;
        g->out[d] = s >= 0 ? a->out_size[s] : 1;
        g->kernel[d] = s >= 0 ? a->kernel[s] : 1;
        g->stride[d] = s >= 0 ? a->stride[s] : 1;
        g->padding[d] = s >= 0 ? a->padding[s] : 0;
        g->dilation[d] = s >= 0 ? a->dilation[s] : 1;
    }
    g->image_numel = g->size[0] * g->size[1] * g->size[2];
    g->k_count = g->kernel[0] * g->kernel[1] * g->kernel[2];
    g->l_count = g->out[0] * g->out[1] * g->out[2];
}

/* The image position of window w's element k along dim d (may be outside [0, size)). */
static inline int64_t
position(const geometry3 *g, int d, int64_t w, int64_t k)
{
    return w * g->stride[d] - g->padding[d] + k * g->dilation[d];
}

/* The windows w of the innermost dim whose element k is inside the image: [*lo, *hi). */
static void
inside_range(const geometry3 *g, int64_t k, int64_t *lo, int64_t *hi)
{
    int64_t first = g->dilation[2] * k - g->padding[2];    /* position of window 0 */
    int64_t s = g->stride[2];
    int64_t a = first >= 0 ? 0 : (-first + s - 1) / s;                  /* first w with position >= 0 */
    int64_t b = first >= g->size[2] ? 0 : (g->size[2] - 1 - first) / s + 1; /* first w past the end */

    *lo = a < g->out[2] ? a : g->out[2];
    *hi = b < g->out[2] ? b : g->out[2];
    if (*hi < *lo) {
        *hi = *lo;
    }
}

/* one of the four floating dtypes' kernels, or NULL for another dtype */
static mt_parallel_range_fn
floating_kernel(mt_dtype dtype, mt_parallel_range_fn f32, mt_parallel_range_fn f64, mt_parallel_range_fn f16,
                mt_parallel_range_fn bf16)
{
    switch (dtype) {
    case MT_FLOAT32:
        return f32;
    case MT_FLOAT64:
        return f64;
    case MT_FLOAT16:
        return f16;
    case MT_BFLOAT16:
        return bf16;
    default:
        return NULL;
    }
}

/* ---- im2col ---------------------------------------------------------------------------------------- */

typedef struct {
    const mt_window_args *a;
    geometry3 g;
    size_t item;
} unfold_job;

/* n elements of `item` bytes: dst[i] := fill, or dst[i] := src[i * step] (element steps), with the
 * element type known to the compiler, so that neither loop calls memcpy per element */
#define ROW_LOOPS(T)                                                                                       \
    static void fill_##T(char *dst, int64_t n, const mt_value *fill)                                       \
    {                                                                                                      \
        T v;                                                                                               \
        memcpy(&v, fill->bytes, sizeof v);                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                                  \
            ((T *)dst)[i] = v;                                                                             \
        }                                                                                                  \
    }                                                                                                      \
    static void strided_##T(char *dst, const char *src, int64_t n, int64_t step)                           \
    {                                                                                                      \
        for (int64_t i = 0; i < n; i++) {                                                                  \
            ((T *)dst)[i] = ((const T *)src)[i * step];                                                    \
        }                                                                                                  \
    }
ROW_LOOPS(uint8_t)
ROW_LOOPS(uint16_t)
ROW_LOOPS(uint32_t)
ROW_LOOPS(uint64_t)

static void
fill_row(char *dst, int64_t n, const mt_value *fill, size_t item)
{
    switch (item) {
    case 1:
        fill_uint8_t(dst, n, fill);
        break;
    case 2:
        fill_uint16_t(dst, n, fill);
        break;
    case 4:
        fill_uint32_t(dst, n, fill);
        break;
    default:
        fill_uint64_t(dst, n, fill);
        break;
    }
}

static void
strided_row(char *dst, const char *src, int64_t n, int64_t step, size_t item)
{
    switch (item) {
    case 1:
        strided_uint8_t(dst, src, n, step);
        break;
    case 2:
        strided_uint16_t(dst, src, n, step);
        break;
    case 4:
        strided_uint32_t(dst, src, n, step);
        break;
    default:
        strided_uint64_t(dst, src, n, step);
        break;
    }
}

/* Whether a column row of kernel offset k2 can be copied as shifted_block does: windows that step by one
 * element along the two inner dims, as many of them along the innermost dim as the image is wide (a
 * 'same' convolution), and an offset less than a row. */
static int
shifts_whole_rows(const geometry3 *g, int64_t k2)
{
    int64_t shift = position(g, 2, 0, k2);

    return g->stride[1] == 1 && g->stride[2] == 1 && g->out[2] == g->size[2] && shift > -g->size[2] &&
           shift < g->size[2];
}

/* The window rows w1 in [a, b) of one w0 at kernel offsets (k1, k2) when they read consecutive image rows
 * (shifts_whole_rows): one copy of the image rows shifted by the offset, then the columns the shift
 * brought in from the neighbouring rows set to the fill ([0, lo) and [hi, width) of every row). */
static void
shifted_block(const unfold_job *j, char *dst, const char *src, int64_t rows, int64_t k2, int64_t lo, int64_t hi)
{
    const geometry3 *g = &j->g;
    size_t item = j->item;
    int64_t width = g->size[2], count = rows * width, shift = position(g, 2, 0, k2);
    int64_t first = shift < 0 ? -shift : 0, last = shift > 0 ? count - shift : count;

    memcpy(dst + (size_t)first * item, src + (size_t)(first + shift) * item, (size_t)(last - first) * item);
    for (int64_t r = 0; r < rows; r++, dst += (size_t)width * item) {
        fill_row(dst, lo, &j->a->fill, item);
        fill_row(dst + (size_t)hi * item, width - hi, &j->a->fill, item);
    }
}

/* rows = (plane, k) pairs, each one row of L columns */
static void
unfold_rows(void *ctx, int64_t begin, int64_t end)
{
    const unfold_job *j = (const unfold_job *)ctx;
    const geometry3 *g = &j->g;
    size_t item = j->item;

    for (int64_t row = begin; row < end; row++) {
        int64_t plane = row / g->k_count, k = row % g->k_count;
        int64_t k2 = k % g->kernel[2], k1 = (k / g->kernel[2]) % g->kernel[1], k0 = k / (g->kernel[2] * g->kernel[1]);
        const char *image = j->a->image + (size_t)(plane * g->image_numel) * item;
        char *dst = j->a->cols + (size_t)(row * g->l_count) * item;
        int64_t lo, hi;

        inside_range(g, k2, &lo, &hi);
        if (shifts_whole_rows(g, k2)) {
            /* the window rows inside the image along dim 1: w1 in [a, b) */
            int64_t first = position(g, 1, 0, k1), a = first < 0 ? -first : 0;
            int64_t b = g->size[1] - first < g->out[1] ? g->size[1] - first : g->out[1];
            size_t plane_row = (size_t)g->out[2] * item;

            b = b > a ? b : a;
            for (int64_t w0 = 0; w0 < g->out[0]; w0++, dst += (size_t)g->out[1] * plane_row) {
                int64_t i0 = position(g, 0, w0, k0);
                if (i0 < 0 || i0 >= g->size[0] || a == b) {
                    fill_row(dst, g->out[1] * g->out[2], &j->a->fill, item);
                    continue;
                }
                fill_row(dst, a * g->out[2], &j->a->fill, item);
                shifted_block(j, dst + a * plane_row,
                              image + (size_t)((i0 * g->size[1] + a + first) * g->size[2]) * item, b - a, k2, lo, hi);
                fill_row(dst + b * plane_row, (g->out[1] - b) * g->out[2], &j->a->fill, item);
            }
            continue;
        }
        for (int64_t w0 = 0; w0 < g->out[0]; w0++) {
            int64_t i0 = position(g, 0, w0, k0);
            for (int64_t w1 = 0; w1 < g->out[1]; w1++, dst += (size_t)g->out[2] * item) {
                int64_t i1 = position(g, 1, w1, k1);
                if (i0 < 0 || i0 >= g->size[0] || i1 < 0 || i1 >= g->size[1]) {
                    fill_row(dst, g->out[2], &j->a->fill, item);
                    continue;
                }
                const char *src = image + (size_t)((i0 * g->size[1] + i1) * g->size[2]) * item;
                fill_row(dst, lo, &j->a->fill, item);
                if (g->stride[2] == 1) {
                    memcpy(dst + (size_t)lo * item, src + (size_t)position(g, 2, lo, k2) * item,
                           (size_t)(hi - lo) * item);
                }
                else {
                    strided_row(dst + (size_t)lo * item, src + (size_t)position(g, 2, lo, k2) * item, hi - lo,
                                g->stride[2], item);
                }
                fill_row(dst + (size_t)hi * item, g->out[2] - hi, &j->a->fill, item);
            }
        }
    }
}

/* ---- col2im ---------------------------------------------------------------------------------------- */

typedef struct {
    const mt_window_args *a;
    geometry3 g;
} fold_job;

/* image[pos] += col for each window element inside the image, one plane after another (bool: or); a
 * window row with stride 1 is a dense run the compiler vectorises (each image element of a row gets one
 * addition, so the order of the sums is unchanged) */
#define FOLD_PLANES(NAME, T, LOAD, STORE)                                                                  \
    static inline void NAME##_row(T *restrict dst, const T *restrict col, int64_t n, int64_t step)         \
    {                                                                                                      \
        if (step == 1) {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                              \
                dst[i] = STORE(LOAD(dst[i]) + LOAD(col[i]));                                               \
            }                                                                                              \
            return;                                                                                        \
        }                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                  \
            dst[i * step] = STORE(LOAD(dst[i * step]) + LOAD(col[i]));                                     \
        }                                                                                                  \
    }                                                                                                      \
    MT_CPU_TARGET_CLONES static void NAME(void *ctx, int64_t begin, int64_t end)                           \
    {                                                                                                      \
        const fold_job *j = (const fold_job *)ctx;                                                         \
        const geometry3 *g = &j->g;                                                                        \
        for (int64_t plane = begin; plane < end; plane++) {                                                \
            T *image = (T *)j->a->image + plane * g->image_numel;                                          \
            const T *col = (const T *)j->a->cols + plane * g->k_count * g->l_count;                        \
            for (int64_t k = 0; k < g->k_count; k++) {                                                     \
                int64_t k2 = k % g->kernel[2], k1 = (k / g->kernel[2]) % g->kernel[1];                     \
                int64_t k0 = k / (g->kernel[2] * g->kernel[1]);                                            \
                int64_t lo, hi;                                                                            \
                inside_range(g, k2, &lo, &hi);                                                             \
                for (int64_t w0 = 0; w0 < g->out[0]; w0++) {                                               \
                    int64_t i0 = position(g, 0, w0, k0);                                                   \
                    for (int64_t w1 = 0; w1 < g->out[1]; w1++, col += g->out[2]) {                         \
                        int64_t i1 = position(g, 1, w1, k1);                                               \
                        if (i0 < 0 || i0 >= g->size[0] || i1 < 0 || i1 >= g->size[1]) {                    \
                            continue;                                                                      \
                        }                                                                                  \
                        T *dst = image + (i0 * g->size[1] + i1) * g->size[2] + position(g, 2, lo, k2);     \
                        NAME##_row(dst, col + lo, hi - lo, g->stride[2]);                                  \
                    }                                                                                      \
                }                                                                                          \
            }                                                                                              \
        }                                                                                                  \
    }

#define AS_IS(x) (x)
#define HALF_LOAD(x) mt_half_to_float(x)
#define HALF_STORE(x) mt_float_to_half(x)
#define BF16_LOAD(x) mt_bfloat16_to_float(x)
#define BF16_STORE(x) mt_float_to_bfloat16(x)
FOLD_PLANES(fold_f32, float, AS_IS, (float))
FOLD_PLANES(fold_f64, double, AS_IS, AS_IS)
FOLD_PLANES(fold_f16, uint16_t, HALF_LOAD, HALF_STORE)
FOLD_PLANES(fold_bf16, uint16_t, BF16_LOAD, BF16_STORE)
#define BOOL_STORE(x) (uint8_t)((x) != 0)
FOLD_PLANES(fold_b8, uint8_t, AS_IS, BOOL_STORE)

/* ---- max pooling ----------------------------------------------------------------------------------- */

/* torch's max pooling window along dim d: the first position inside the image (the start stepped by
 * the dilation past the padding) and the end, clamped to the image; one table per dim, filled once */
typedef struct {
    const mt_window_args *a;
    geometry3 g;
    int64_t *start[3], *end[3];
} pool_job;

static void
window_bounds(const geometry3 *g, int d, int64_t *start, int64_t *end)
{
    for (int64_t w = 0; w < g->out[d]; w++) {
        int64_t s = w * g->stride[d] - g->padding[d];
        int64_t e = s + (g->kernel[d] - 1) * g->dilation[d] + 1;

        end[w] = e < g->size[d] ? e : g->size[d];
        if (s < 0) {
            s += (-s + g->dilation[d] - 1) / g->dilation[d] * g->dilation[d];
        }
        start[w] = s;
    }
}

/* Window by window, in torch's order inside each (rows, then the innermost dim), the running maximum
 * and its position in registers and chosen without a branch on the data (a branch per element would
 * be mispredicted half the time on random values). */
#define MAX_POOL_PLANES(NAME, T, ACC, LOWEST, LOAD, STORE)                                                 \
    static void NAME(void *ctx, int64_t begin, int64_t end)                                                \
    {                                                                                                      \
        const pool_job *j = (const pool_job *)ctx;                                                         \
        const geometry3 *g = &j->g;                                                                        \
        const int64_t d0 = g->dilation[0], d1 = g->dilation[1], d2 = g->dilation[2];                       \
        const int64_t size1 = g->size[1], size2 = g->size[2];                                              \
        for (int64_t plane = begin; plane < end; plane++) {                                                \
            const T *image = (const T *)j->a->image + plane * g->image_numel;                              \
            T *values = (T *)j->a->cols + plane * g->l_count;                                              \
            int64_t *indices = j->a->indices + plane * g->l_count;                                         \
            for (int64_t w0 = 0; w0 < g->out[0]; w0++) {                                                   \
                int64_t s0 = j->start[0][w0], e0 = j->end[0][w0];                                          \
                for (int64_t w1 = 0; w1 < g->out[1]; w1++) {                                               \
                    int64_t s1 = j->start[1][w1], e1 = j->end[1][w1];                                      \
                    for (int64_t w2 = 0; w2 < g->out[2]; w2++, values++, indices++) {                      \
                        int64_t s2 = j->start[2][w2], e2 = j->end[2][w2];                                  \
                        int64_t best = (s0 * size1 + s1) * size2 + s2;                                     \
                        ACC top = LOWEST;                                                                  \
                        for (int64_t i0 = s0; i0 < e0; i0 += d0) {                                         \
                            for (int64_t i1 = s1; i1 < e1; i1 += d1) {                                     \
                                int64_t row = (i0 * size1 + i1) * size2;                                   \
                                for (int64_t i2 = s2; i2 < e2; i2 += d2) {                                 \
                                    ACC v = LOAD(image[row + i2]);                                         \
                                    int take = (v > top) | (v != v);                                       \
                                    top = take ? v : top;                                                  \
                                    best = take ? row + i2 : best;                                         \
                                }                                                                          \
                            }                                                                              \
                        }                                                                                  \
                        *values = STORE(top);                                                              \
                        *indices = best;                                                                   \
                    }                                                                                      \
                }                                                                                          \
            }                                                                                              \
        }                                                                                                  \
    }

MAX_POOL_PLANES(max_pool_f32, float, float, -INFINITY, AS_IS, AS_IS)

/* The commonest pooling (float32, 2x2 windows with stride 2 inside the image, as MaxPool2d(2)): each
 * window's four elements compared in torch's order with the kernel's shape known, so that the loop over
 * a row's windows vectorises (compiled for AVX2 and the baseline, picked when the module loads:
 * MT_CPU_TARGET_CLONES; the same comparisons, so the same values and indices). */
MT_CPU_TARGET_CLONES static void
max_pool_2x2_rows(const float *restrict image, float *restrict values, int64_t *restrict indices, int64_t rows,
                  int64_t out_w, int64_t width)
{
    for (int64_t r = 0; r < rows; r++, values += out_w, indices += out_w) {
        const float *r0 = image + 2 * r * width, *r1 = r0 + width;
        for (int64_t w = 0; w < out_w; w++) {
            float a = r0[2 * w], b = r0[2 * w + 1], c = r1[2 * w], d = r1[2 * w + 1];
            int64_t at = 2 * r * width + 2 * w;
            float top = a;
            int64_t best = at;
            int take = (b > top) | (b != b);
            top = take ? b : top;
            best = take ? at + 1 : best;
            take = (c > top) | (c != c);
            top = take ? c : top;
            best = take ? at + width : best;
            take = (d > top) | (d != d);
            top = take ? d : top;
            best = take ? at + width + 1 : best;
            values[w] = top;
            indices[w] = best;
        }
    }
}

static void
max_pool_2x2_f32(void *ctx, int64_t begin, int64_t end)
{
    const pool_job *j = (const pool_job *)ctx;
    const geometry3 *g = &j->g;

    for (int64_t plane = begin; plane < end; plane++) {
        max_pool_2x2_rows((const float *)j->a->image + plane * g->image_numel,
                          (float *)j->a->cols + plane * g->l_count, j->a->indices + plane * g->l_count,
                          g->out[1], g->out[2], g->size[2]);
    }
}

/* 1 when a pooling is max_pool_2x2_f32's case */
static int
is_2x2_pooling(const mt_window_args *a, const geometry3 *g)
{
    return a->dtype == MT_FLOAT32 && g->size[0] == 1 && g->kernel[0] == 1 && g->out[0] == 1 && g->kernel[1] == 2 &&
           g->kernel[2] == 2 && g->stride[1] == 2 && g->stride[2] == 2 && g->padding[1] == 0 && g->padding[2] == 0 &&
           g->dilation[1] == 1 && g->dilation[2] == 1 && 2 * g->out[1] <= g->size[1] && 2 * g->out[2] <= g->size[2];
}
MAX_POOL_PLANES(max_pool_f64, double, double, -INFINITY, AS_IS, AS_IS)
MAX_POOL_PLANES(max_pool_f16, uint16_t, float, -INFINITY, HALF_LOAD, HALF_STORE)
MAX_POOL_PLANES(max_pool_bf16, uint16_t, float, -INFINITY, BF16_LOAD, BF16_STORE)
MAX_POOL_PLANES(max_pool_u8, uint8_t, uint8_t, 0, AS_IS, AS_IS)
MAX_POOL_PLANES(max_pool_i8, int8_t, int8_t, INT8_MIN, AS_IS, AS_IS)
MAX_POOL_PLANES(max_pool_i16, int16_t, int16_t, INT16_MIN, AS_IS, AS_IS)
MAX_POOL_PLANES(max_pool_i32, int32_t, int32_t, INT32_MIN, AS_IS, AS_IS)
MAX_POOL_PLANES(max_pool_i64, int64_t, int64_t, INT64_MIN, AS_IS, AS_IS)

/* the max pooling kernel of a dtype (torch's: every dtype but bool) */
static mt_parallel_range_fn
max_pool_kernel(mt_dtype dtype)
{
    switch (dtype) {
    case MT_UINT8:
        return max_pool_u8;
    case MT_INT8:
        return max_pool_i8;
    case MT_INT16:
        return max_pool_i16;
    case MT_INT32:
        return max_pool_i32;
    case MT_INT64:
        return max_pool_i64;
    default:
        return floating_kernel(dtype, max_pool_f32, max_pool_f64, max_pool_f16, max_pool_bf16);
    }
}

/* ---- the entry ------------------------------------------------------------------------------------- */

int
mt_cpu_window(const mt_window_args *a)
{
    fold_job job;
    pool_job pool;
    int64_t per_plane, table = 0;
    mt_parallel_range_fn fn;
    int64_t *bounds;

    job.a = a;
    geometry_of(a, &job.g);
    if (a->planes <= 0 || job.g.l_count <= 0) {
        return 0;
    }
    per_plane = job.g.k_count * job.g.l_count;
    if (a->op == MT_WINDOW_UNFOLD) {
        unfold_job u = {a, job.g, mt_dtype_size(a->dtype)};
        mt_parallel_for(a->planes * job.g.k_count, MT_PARALLEL_GRAIN_SIZE / job.g.l_count + 1, 0, unfold_rows, &u);
        return 0;
    }
    if (a->op == MT_WINDOW_FOLD) {
        fn = a->dtype == MT_BOOL ? fold_b8 : floating_kernel(a->dtype, fold_f32, fold_f64, fold_f16, fold_bf16);
        if (fn == NULL) {
            return -1;
        }
        mt_parallel_for(a->planes, MT_PARALLEL_GRAIN_SIZE / per_plane + 1, 0, fn, &job);
        return 0;
    }
    fn = is_2x2_pooling(a, &job.g) ? max_pool_2x2_f32 : max_pool_kernel(a->dtype);
    if (fn == NULL) {
        return -1;
    }
    for (int d = 0; d < 3; d++) {
        table += 2 * job.g.out[d];
    }
    bounds = (int64_t *)malloc(sizeof(int64_t) * (size_t)table);
    if (bounds == NULL) {
        return -2;
    }
    pool.a = a;
    pool.g = job.g;
    for (int64_t d = 0, at = 0; d < 3; d++) {
        pool.start[d] = bounds + at;
        pool.end[d] = bounds + at + job.g.out[d];
        at += 2 * job.g.out[d];
        window_bounds(&job.g, (int)d, pool.start[d], pool.end[d]);
    }
    mt_parallel_for(a->planes, MT_PARALLEL_GRAIN_SIZE / per_plane + 1, 0, fn, &pool);
    free(bounds);
    return 0;
}
