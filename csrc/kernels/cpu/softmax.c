/* softmax.c (cpu): torch's CPU kernels for softmax and log_softmax, forward and backward, in their order of
 * operations, so that the results are torch's bit for bit under each CPU capability (found by comparing
 * bits with torch 2.13's x86 build: row lengths 1 to 300 and longer, other dims, thread counts, each
 * capability). The sections below say how the float16/bfloat16 rows, the other dims and the backward
 * passes go. Over a contiguous last dim, float32 and float64 (_vec_softmax_lastdim and
 * _vec_log_softmax_lastdim, aten/src/ATen/native/cpu/SoftMaxKernel.cpp, and the vec::reduce_all /
 * map_reduce_all / map helpers they call), each row on its own:
 *  - the max, then the sum of e = exp(x - max), each folded in torch's vector lanes: the first whole
 *    vector, then one vector at a time, the tail's elements into the first lanes; then the lanes into
 *    one value: float32 under AVX2 and AVX-512 by halves (lane i with lane i + W/2, then W/4, ... ;
 *    torch's VecReduceAllSIMD), otherwise in lane order. A row shorter than a vector is folded from its
 *    first element in order. The vectors are 64 bytes under AVX-512, 32 otherwise.
 *  - the max of two is torch's vec::maximum: a NaN in either gives a NaN (all bits set under AVX2 and
 *    AVX-512), otherwise a > b ? a : b.
 *  - exp and log are SLEEF's (Sleef_exp*_u10, Sleef_log*_u10) under AVX2 and AVX-512, the tail's elements
 *    included (vec::map loads a short last vector), and the C library's in the portable build
 *    (ATEN_CPU_CAPABILITY=default).
 *  - softmax: e * (1 / sum); log_softmax: (x - max) - log(sum).
 * Rows are independent, so how they are split among threads changes nothing. The build compiles C in ISO
 * mode, which contracts no multiply-add: fmaf/fma are SLEEF's fused steps or those torch's build fuses,
 * every other step rounds where it is written. One thing is not torch's: where two different NaNs meet
 * in a sum or a product (a softmax row holding a NaN or an inf, under AVX2 or AVX-512), which one's sign
 * and payload the result carries follows how torch's compiler ordered each instruction's operands; the
 * result is a NaN either way. */
#include "softmax.h"

#include <float.h>
#include <math.h>

#include "../op_math.h"
#include "cpu_features.h"
#include "parallel.h"

/* ---- SLEEF's log ---------------------------------------------------------------------------------- */

/* Sleef_logf*_u10 and Sleef_logd*_u10 with fused multiply-adds (xlogf_u1 / xlog_u1 of SLEEF's
 * sleefsimdsp.c and sleefsimddp.c, with its double-float and double-double steps): d = m 2^e with m in
 * [0.75, 1.5); x = (m - 1) / (m + 1) as a pair; log d = e ln 2 + 2x + x^3 P(x^2), summed as pairs. A NaN
 * comes back as it went in under AVX-512 (its vfixupimm keeps the computed value, which carries the NaN)
 * and as the default quiet NaN under AVX2; 0 gives -inf, +inf itself, a negative number NaN.
 * S, T as in op_math.h; F the C library's suffix; U the unsigned type of T's bits, MANT its mantissa bits,
 * EXP_MASK and BIAS its exponent's; T_MIN the smallest normal; QNAN the default quiet NaN's bits; LN2_HI
 * and LN2_LO ln 2 as a pair; POLY the polynomial in x2 (and x2's powers x4, x8). */
#define SLEEF_LOG(S, T, F, U, MANT, EXP_MASK, BIAS, T_MIN, QNAN, LN2_HI, LN2_LO, POLY)                 \
    static T                                                                                           \
    sleef_log##F(T d, int avx512)                                                                      \
    {                                                                                                  \
        T m, ef, sx, sy, ax, ay, bx, by, v, t, qx, qy, u, x2, x4, x8, r, w, hx, hy, px, py;            \
        int tiny, e;                                                                                   \
        if (isnan(d)) {                                                                                \
            return avx512 ? d : mt_from_bits_##S(QNAN);                                                \
        }                                                                                              \
        if (d <= 0 || isinf(d)) {                                                                      \
            return d == 0 ? -INFINITY : d > 0 ? d : mt_from_bits_##S(QNAN);                            \
        }                                                                                              \
        tiny = d < T_MIN;                                                                              \
        if (tiny) {                                                                                    \
            d *= (T)18446744073709551616.0; /* 2^64 */                                                 \
        }                                                                                              \
        e = (int)((mt_bits_##S(d * ((T)1 / (T)0.75)) >> MANT) & EXP_MASK) - BIAS;                      \
        m = mt_from_bits_##S(mt_bits_##S(d) + ((U)(int64_t)-e << MANT));                               \
        ef = (T)(tiny ? e - 64 : e);                                                                   \
        /* (LN2_HI, LN2_LO) * e as a pair */                                                           \
        sx = LN2_HI * ef;                                                                              \
        sy = fma##F(LN2_LO, ef, fma##F(LN2_HI, ef, -sx));                                              \
        /* m - 1 and m + 1 as exact pairs */                                                           \
        ax = -1 + m;                                                                                   \
        v = ax - -1;                                                                                   \
        ay = (-1 - (ax - v)) + (m - v);                                                                \
        bx = 1 + m;                                                                                    \
        v = bx - 1;                                                                                    \
        by = (1 - (bx - v)) + (m - v);                                                                 \
        /* their quotient as a pair */                                                                 \
        t = 1 / bx;                                                                                    \
        qx = ax * t;                                                                                   \
        u = fma##F(t, ax, -qx);                                                                        \
        v = fma##F(-by, t, fma##F(-bx, t, 1));                                                         \
        qy = fma##F(qx, v, fma##F(ay, t, u));                                                          \
        x2 = qx * qx;                                                                                  \
        x4 = x2 * x2;                                                                                  \
        x8 = x4 * x4;                                                                                  \
        (void)x8;                                                                                      \
        t = POLY;                                                                                      \
        /* s + 2x, then + x^3 t */                                                                     \
        hx = qx * 2;                                                                                   \
        hy = qy * 2;                                                                                   \
        px = sx + hx;                                                                                  \
        py = (((sx - px) + hx) + sy) + hy;                                                             \
        w = (x2 * qx) * t;                                                                             \
        r = px + w;                                                                                    \
        py = ((px - r) + w) + py;                                                                      \
        return r + py;                                                                                 \
    }

/* float: Horner's scheme */
SLEEF_LOG(f32, float, f, uint32_t, 23, 0xff, 0x7f, FLT_MIN, 0x7fc00000u, 0.69314718246459960938f,
          -1.904654323148236017e-09f, fmaf(fmaf(0.3027294874f, x2, 0.3996108174f), x2, 0.6666694880f))
/* double: SLEEF's POLY7, Estrin's scheme in its grouping */
SLEEF_LOG(f64, double, , uint64_t, 52, 0x7ff, 0x3ff, DBL_MIN, 0x7ff8000000000000ull, 0.693147180559945286226764,
          2.319046813846299558417771e-17,
          fma(x8, fma(x4, 0.1532076988502701353e+0, fma(x2, 0.1525629051003428716e+0, 0.1818605932937785996e+0)),
              fma(x4, fma(x2, 0.2222214519839380009e+0, 0.2857142932794299317e+0),
                  fma(x2, 0.3999999999635251990e+0, 0.6666666666667333541e+0))))

/* ---- the rows ------------------------------------------------------------------------------------- */

typedef struct {
    int log;
    const void *in;
    void *out;
    int64_t n;
    mt_torch_cpu cpu;
} softmax_job;

/* Per dtype S (C type T, C library suffix F): the max of two, the lane folds, exp(x - max) over a row,
 * and the row job. */
#define SOFTMAX_ROWS(S, T, F, ALL_ONES)                                                            \
    static inline T max_of_##S(T a, T b, int vec)                                                  \
    {                                                                                              \
        if (vec && (isnan(a) || isnan(b))) {                                                       \
            return mt_from_bits_##S(ALL_ONES);                                                     \
        }                                                                                          \
        return isnan(a) ? a : a > b ? a : b;                                                       \
    }                                                                                              \
    static inline T fold_##S(T a, T b, int is_max, int vec)                                        \
    {                                                                                              \
        return is_max ? max_of_##S(a, b, vec) : a + b;                                             \
    }                                                                                              \
    /* torch's reduce_all over n elements in vectors of `lanes` (vec: AVX2 or AVX-512) */          \
    static T reduce_row_##S(const T *x, int64_t n, int lanes, int is_max, int vec)                 \
    {                                                                                              \
        T acc[64 / sizeof(T)];                                                                     \
        int64_t d;                                                                                 \
        int l;                                                                                     \
        if (n < lanes) {                                                                           \
            T a = x[0];                                                                            \
            for (d = 1; d < n; d++) {                                                              \
                a = fold_##S(a, x[d], is_max, vec);                                                \
            }                                                                                      \
            return a;                                                                              \
        }                                                                                          \
        for (l = 0; l < lanes; l++) {                                                              \
            acc[l] = x[l];                                                                         \
        }                                                                                          \
        for (d = lanes; d < n; d += lanes) {                                                       \
            int64_t k = n - d < lanes ? n - d : lanes;                                             \
            for (l = 0; l < k; l++) {                                                              \
                acc[l] = fold_##S(acc[l], x[d + l], is_max, vec);                                  \
            }                                                                                      \
        }                                                                                          \
        if (vec && sizeof(T) == 4) {                                                               \
            for (int h = lanes / 2; h > 0; h /= 2) {                                               \
                for (l = 0; l < h; l++) {                                                          \
                    acc[l] = fold_##S(acc[l], acc[l + h], is_max, vec);                            \
                }                                                                                  \
            }                                                                                      \
            return acc[0];                                                                         \
        }                                                                                          \
        for (l = 1; l < lanes; l++) {                                                              \
            acc[0] = fold_##S(acc[0], acc[l], is_max, vec);                                        \
        }                                                                                          \
        return acc[0];                                                                             \
    }                                                                                              \
    MT_CPU_TARGET_CLONES_WIDE static void                                                          \
    exp_shifted_##S(const T *x, T max, T *e, int64_t n)                                            \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) {                                                          \
            e[i] = mt_vexp_##S(x[i] - max);                                                        \
        }                                                                                          \
    }                                                                                              \
    static void                                                                                    \
    rows_##S(void *ctx, int64_t begin, int64_t end)                                                \
    {                                                                                              \
        const softmax_job *job = ctx;                                                              \
        const int64_t n = job->n;                                                                  \
        const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;                                          \
        const int lanes = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / (int)sizeof(T);            \
        for (int64_t row = begin; row < end; row++) {                                              \
            const T *x = (const T *)job->in + row * n;                                             \
            T *out = (T *)job->out + row * n;                                                      \
            T max = reduce_row_##S(x, n, lanes, 1, vec), sum;                                      \
            int64_t i;                                                                             \
            if (vec) {                                                                             \
                exp_shifted_##S(x, max, out, n);                                                   \
            }                                                                                      \
            else {                                                                                 \
                for (i = 0; i < n; i++) {                                                          \
                    out[i] = exp##F(x[i] - max);                                                   \
                }                                                                                  \
            }                                                                                      \
            sum = reduce_row_##S(out, n, lanes, 0, vec);                                           \
            if (job->log) {                                                                        \
                T lse = vec ? sleef_log##F(sum, job->cpu == MT_TORCH_CPU_AVX512) : log##F(sum);    \
                for (i = 0; i < n; i++) {                                                          \
                    out[i] = (x[i] - max) - lse;                                                   \
                }                                                                                  \
            }                                                                                      \
            else {                                                                                 \
                T r = (T)1 / sum;                                                                  \
                for (i = 0; i < n; i++) {                                                          \
                    out[i] = out[i] * r;                                                           \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

SOFTMAX_ROWS(f32, float, f, 0xffffffffu)
SOFTMAX_ROWS(f64, double, , 0xffffffffffffffffull)

/* ---- float16 and bfloat16 rows -------------------------------------------------------------------- */

/* torch's reduced-precision kernels compute in float32 vectors of fl lanes (16 under AVX-512, 8 otherwise)
 * and read the input as 16-bit vectors of 2 fl elements, each converted to two float vectors (exactly).
 * exp_r16 is the vector exp (SLEEF's, or the C library's lane by lane in the portable build). */
static inline float
exp_r16(float x, int vec)
{
    return vec ? mt_vexp_f32(x) : expf(x);
}

/* the lanes acc[0..fl) folded into one: by halves under AVX2 and AVX-512, otherwise in lane order */
static float
fold_lanes_r16(float *acc, int fl, int is_max, int vec)
{
    int l, h;

    if (vec) {
        for (h = fl / 2; h > 0; h /= 2) {
            for (l = 0; l < h; l++) {
                acc[l] = fold_f32(acc[l], acc[l + h], is_max, vec);
            }
        }
        return acc[0];
    }
    for (l = 1; l < fl; l++) {
        acc[0] = fold_f32(acc[0], acc[l], is_max, vec);
    }
    return acc[0];
}

/* softmax (torch's _vec_softmax_lastdim for a type whose opmath type is float): the max in fl lanes over
 * the whole 16-bit vectors, then std::max over the tail (which skips a NaN there); the sum of
 * e = exp(x - max) in fl lanes over the whole float vectors, then one by one over the tail with the C
 * library's expf; each e times 1 / sum, rounded once. e is computed again for the output rather than kept
 * in a float buffer: the same function of the same value, so the same bits. */
static void
softmax_row_r16(mt_dtype dt, const uint16_t *x, uint16_t *out, int64_t n, int fl, int vec)
{
    float acc[16], max, sum, r;
    int64_t d, whole;
    int l;

    for (l = 0; l < fl; l++) {
        acc[l] = -INFINITY;
    }
    whole = n - n % (2 * fl);
    for (d = 0; d < whole; d += 2 * fl) {
        for (l = 0; l < fl; l++) {
            acc[l] = max_of_f32(acc[l], mt_reduced_to_float(dt, x[d + l]), vec);
        }
        for (l = 0; l < fl; l++) {
            acc[l] = max_of_f32(acc[l], mt_reduced_to_float(dt, x[d + fl + l]), vec);
        }
    }
    max = fold_lanes_r16(acc, fl, 1, vec);
    for (; d < n; d++) {
        float v = mt_reduced_to_float(dt, x[d]);
        max = max < v ? v : max;
    }
    for (l = 0; l < fl; l++) {
        acc[l] = 0;
    }
    whole = n - n % fl;
    for (d = 0; d < whole; d += fl) {
        for (l = 0; l < fl; l++) {
            acc[l] += exp_r16(mt_reduced_to_float(dt, x[d + l]) - max, vec);
        }
    }
    sum = fold_lanes_r16(acc, fl, 0, vec);
    for (; d < n; d++) {
        sum += expf(mt_reduced_to_float(dt, x[d]) - max);
    }
    r = 1 / sum;
    for (d = 0; d < n; d++) {
        float v = mt_reduced_to_float(dt, x[d]) - max;
        out[d] = mt_float_to_reduced(dt, (d < whole ? exp_r16(v, vec) : expf(v)) * r);
    }
}

enum { R16_MAP_NONE, R16_MAP_EXP, R16_MAP_TIMES };

/* torch's reduce_all / map_reduce_all / map2_reduce_all for a 16-bit type (functional_bfloat16.h) over
 * x[0..n): map (R16_MAP_NONE: the identity, R16_MAP_EXP: exp(x - shift), R16_MAP_TIMES: x * y) then fold
 * (max or +) in two float vectors acc0, acc1 fed a 16-bit vector at a time, a short last vector into its
 * first lanes; acc1 folded into acc0, then acc0's lanes as
 * fold_lanes_r16 does. A row shorter than a 16-bit vector: its second float vector folded into the first
 * one's lanes, then the lanes in order. */
static float
reduce_row_r16(mt_dtype dt, const uint16_t *x, const uint16_t *y, int64_t n, int fl, int is_max, int map,
               float shift, int vec)
{
    float acc0[16] = {0}, acc1[16];
    int64_t d, k;
    int l;

#define R16_AT(i)                                                                                       \
    (map == R16_MAP_EXP     ? exp_r16(mt_reduced_to_float(dt, x[i]) - shift, vec)                           \
     : map == R16_MAP_TIMES ? mt_reduced_to_float(dt, x[i]) * mt_reduced_to_float(dt, y[i])                 \
                            : mt_reduced_to_float(dt, x[i]))
    if (n < 2 * fl) {
        for (l = 0; l < fl && l < n; l++) {
            acc0[l] = R16_AT(l);
        }
        if (n <= fl) {
            for (l = 1; l < n; l++) {
                acc0[0] = fold_f32(acc0[0], acc0[l], is_max, vec);
            }
            return acc0[0];
        }
        for (l = 0; l < n - fl; l++) {
            acc0[l] = fold_f32(acc0[l], R16_AT(fl + l), is_max, vec);
        }
        for (l = 1; l < fl; l++) {
            acc0[0] = fold_f32(acc0[0], acc0[l], is_max, vec);
        }
        return acc0[0];
    }
    for (l = 0; l < fl; l++) {
        acc0[l] = R16_AT(l);
        acc1[l] = R16_AT(fl + l);
    }
    for (d = 2 * fl; d < n; d += 2 * fl) {
        k = n - d < 2 * fl ? n - d : 2 * fl;
        for (l = 0; l < fl && l < k; l++) {
            acc0[l] = fold_f32(acc0[l], R16_AT(d + l), is_max, vec);
        }
        for (l = 0; l < k - fl; l++) {
            acc1[l] = fold_f32(acc1[l], R16_AT(d + fl + l), is_max, vec);
        }
    }
#undef R16_AT
    for (l = 0; l < fl; l++) {
        acc0[l] = fold_f32(acc0[l], acc1[l], is_max, vec);
    }
    return fold_lanes_r16(acc0, fl, is_max, vec);
}

/* log_softmax (torch's serial_vec_log_softmax_lastdim_range for a 16-bit type): the max and the sum of
 * exp(x - max) by reduce_row_r16, each kept in a 16-bit buffer (so the sum is rounded), log of the rounded
 * sum rounded again, then (x - max) - lse in float, rounded once. */
static void
log_softmax_row_r16(mt_dtype dt, const uint16_t *x, uint16_t *out, int64_t n, int fl, mt_torch_cpu cpu)
{
    const int vec = cpu != MT_TORCH_CPU_DEFAULT;
    float max, sum, lse;
    int64_t d;

    max = reduce_row_r16(dt, x, NULL, n, fl, 1, R16_MAP_NONE, 0, vec);
    max = mt_reduced_to_float(dt, mt_float_to_reduced(dt, max));
    sum = reduce_row_r16(dt, x, NULL, n, fl, 0, R16_MAP_EXP, max, vec);
    sum = mt_reduced_to_float(dt, mt_float_to_reduced(dt, sum));
    lse = vec ? sleef_logf(sum, cpu == MT_TORCH_CPU_AVX512) : logf(sum);
    lse = mt_reduced_to_float(dt, mt_float_to_reduced(dt, lse));
    for (d = 0; d < n; d++) {
        out[d] = mt_float_to_reduced(dt, (mt_reduced_to_float(dt, x[d]) - max) - lse);
    }
}

typedef struct {
    softmax_job base;
    mt_dtype dtype;
} softmax_r16_job;

static void
rows_r16(void *ctx, int64_t begin, int64_t end)
{
    const softmax_r16_job *job = ctx;
    const int64_t n = job->base.n;
    const mt_torch_cpu cpu = job->base.cpu;
    const int fl = cpu == MT_TORCH_CPU_AVX512 ? 16 : 8;

    for (int64_t row = begin; row < end; row++) {
        const uint16_t *x = (const uint16_t *)job->base.in + row * n;
        uint16_t *out = (uint16_t *)job->base.out + row * n;
        if (job->base.log) {
            log_softmax_row_r16(job->dtype, x, out, n, fl, cpu);
        }
        else {
            softmax_row_r16(job->dtype, x, out, n, fl, cpu != MT_TORCH_CPU_DEFAULT);
        }
    }
}

int
mt_cpu_softmax_lastdim(int log, mt_dtype dtype, const void *in, void *out, int64_t rows, int64_t n)
{
    softmax_job job = {log, in, out, n, mt_cpu_torch_capability()};
    /* about GRAIN_SIZE elements' work per chunk, counting an exp as a few operations */
    int64_t grain = MT_PARALLEL_GRAIN_SIZE / (16 * n) > 1 ? MT_PARALLEL_GRAIN_SIZE / (16 * n) : 1;

    if (dtype == MT_FLOAT16 || dtype == MT_BFLOAT16) {
        softmax_r16_job rjob = {job, dtype};
        mt_parallel_for(rows, grain, 0, rows_r16, &rjob);
        return 0;
    }
    if (dtype != MT_FLOAT32 && dtype != MT_FLOAT64) {
        return -1;
    }
    mt_parallel_for(rows, grain, 0, dtype == MT_FLOAT32 ? rows_f32 : rows_f64, &job);
    return 0;
}

/* ---- other dims: float32 and float64 ------------------------------------------------------------- */

/* torch's _vec_softmax and _vec_logsoftmax (serial_vec_logsoftmax_range) for a dim followed by `inner`
 * elements: each of the outer * inner columns of n elements (stride inner) on its own.
 *  - softmax: torch's threads take the columns in equal ranges (at::parallel_for's split, grain 0); in its
 *    range a thread takes W columns at a time (W a vector's lanes) while W of them are left in both the
 *    row of inner and the range, each lane: the max by vec::maximum, e = exp(x - max) by the vector exp,
 *    summed from 0, then e / sum; the other columns one by one with std::max (which skips a NaN), the C
 *    library's exp and e / sum. Which columns a vector takes depends on the thread count, so the split is
 *    torch's, whatever minitorch's pool does.
 *  - log_softmax: the row of inner in chunks of at most 128 KiB / (n * sizeof(T)) columns (a multiple of W);
 *    in a chunk the first columns in whole vectors, the rest one by one: the max as x > max ? x : max,
 *    the sum of exp(x - max) (the vector exp in the vectors, the C library's after them), log(sum) by the
 *    vector log on every column, then (x - max) - log(sum). No thread sees another's chunk. */
typedef struct {
    int log;
    const void *in;
    void *out;
    int64_t n, inner, piece, total, chunk, num_chunks;
    mt_torch_cpu cpu;
    mt_dtype dtype;
} softmax_dim_job;

#define SOFTMAX_DIM(S, T, F)                                                                            \
    static void                                                                                         \
    softmax_cols_##S(const softmax_dim_job *job, int64_t begin, int64_t end)                            \
    {                                                                                                   \
        const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;                                               \
        const int64_t w = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / (int64_t)sizeof(T);             \
        const int64_t n = job->n, inner = job->inner;                                                   \
        int64_t idx = begin, d, c, cols;                                                                \
        while (idx < end) {                                                                             \
            int vector = idx % inner + w <= inner && idx + w <= end;                                    \
            cols = vector ? w : idx + w > end ? end - idx : inner - idx % inner;                        \
            for (c = idx; c < idx + cols; c++) {                                                        \
                const T *x = (const T *)job->in + c / inner * n * inner + c % inner;                    \
                T *y = (T *)job->out + c / inner * n * inner + c % inner;                               \
                T max = x[0], sum = 0;                                                                  \
                for (d = 1; d < n; d++) {                                                               \
                    max = vector ? max_of_##S(max, x[d * inner], vec)                                   \
                                 : (max < x[d * inner] ? x[d * inner] : max);                           \
                }                                                                                       \
                for (d = 0; d < n; d++) {                                                               \
                    T v = x[d * inner] - max;                                                           \
                    y[d * inner] = vector && vec ? mt_vexp_##S(v) : exp##F(v);                          \
                    sum = sum + y[d * inner];                                                           \
                }                                                                                       \
                for (d = 0; d < n; d++) {                                                               \
                    y[d * inner] = y[d * inner] / sum;                                                  \
                }                                                                                       \
            }                                                                                           \
            idx += cols;                                                                                \
        }                                                                                               \
    }                                                                                                   \
    static void                                                                                         \
    log_softmax_chunk_##S(const softmax_dim_job *job, int64_t task)                                     \
    {                                                                                                   \
        const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;                                               \
        const int64_t w = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / (int64_t)sizeof(T);             \
        const int64_t n = job->n, inner = job->inner, first = task % job->num_chunks * job->chunk;      \
        const int64_t size = job->chunk < inner - first ? job->chunk : inner - first;                   \
        int64_t d, c;                                                                                   \
        for (c = 0; c < size; c++) {                                                                    \
            const int64_t at = task / job->num_chunks * n * inner + first + c;                          \
            const T *x = (const T *)job->in + at;                                                       \
            T *y = (T *)job->out + at;                                                                  \
            T max = -INFINITY, sum = 0, lse;                                                            \
            for (d = 0; d < n; d++) {                                                                   \
                max = x[d * inner] > max ? x[d * inner] : max;                                          \
            }                                                                                           \
            for (d = 0; d < n; d++) {                                                                   \
                T v = x[d * inner] - max;                                                               \
                sum += c < size - size % w && vec ? mt_vexp_##S(v) : exp##F(v);                         \
            }                                                                                           \
            lse = vec ? sleef_log##F(sum, job->cpu == MT_TORCH_CPU_AVX512) : log##F(sum);               \
            for (d = 0; d < n; d++) {                                                                   \
                y[d * inner] = (x[d * inner] - max) - lse;                                              \
            }                                                                                           \
        }                                                                                               \
    }                                                                                                   \
    static void                                                                                         \
    dim_pieces_##S(void *ctx, int64_t begin, int64_t end)                                               \
    {                                                                                                   \
        const softmax_dim_job *job = ctx;                                                               \
        for (int64_t p = begin; p < end; p++) {                                                         \
            if (job->log) {                                                                             \
                log_softmax_chunk_##S(job, p);                                                          \
            }                                                                                           \
            else {                                                                                      \
                int64_t stop = (p + 1) * job->piece < job->total ? (p + 1) * job->piece : job->total;   \
                softmax_cols_##S(job, p * job->piece, stop);                                            \
            }                                                                                           \
        }                                                                                               \
    }

SOFTMAX_DIM(f32, float, f)
SOFTMAX_DIM(f64, double, )

/* softmax of float16 and bfloat16 along another dim (torch's _vec_softmax for them): as softmax_cols_f32
 * in vectors of 2 W lanes (one 16-bit vector), in float32, rounded once; the columns one by one round
 * each e to the dtype, then divide it by the sum of the unrounded ones. */
static void
softmax_cols_r16(const softmax_dim_job *job, int64_t begin, int64_t end)
{
    const mt_dtype dt = job->dtype;
    const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;
    const int64_t w = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / 2;
    const int64_t n = job->n, inner = job->inner;
    int64_t idx = begin, d, c, cols;

    while (idx < end) {
        int vector = idx % inner + w <= inner && idx + w <= end;
        cols = vector ? w : idx + w > end ? end - idx : inner - idx % inner;
        for (c = idx; c < idx + cols; c++) {
            const uint16_t *x = (const uint16_t *)job->in + c / inner * n * inner + c % inner;
            uint16_t *y = (uint16_t *)job->out + c / inner * n * inner + c % inner;
            float max = mt_reduced_to_float(dt, x[0]), sum = 0;
            for (d = 1; d < n; d++) {
                float v = mt_reduced_to_float(dt, x[d * inner]);
                max = vector ? max_of_f32(max, v, vec) : (max < v ? v : max);
            }
            for (d = 0; d < n; d++) {
                float v = mt_reduced_to_float(dt, x[d * inner]) - max;
                sum = sum + (vector && vec ? mt_vexp_f32(v) : expf(v));
            }
            for (d = 0; d < n; d++) {
                float v = mt_reduced_to_float(dt, x[d * inner]) - max;
                float e = !vector ? mt_reduced_to_float(dt, mt_float_to_reduced(dt, expf(v)))
                          : vec   ? mt_vexp_f32(v)
                                  : expf(v);
                y[d * inner] = mt_float_to_reduced(dt, e / sum);
            }
        }
        idx += cols;
    }
}

/* log_softmax of float16 and bfloat16 along another dim (torch's serial_vec_logsoftmax_range for them,
 * LogSoftmaxKernelImpl.h): as log_softmax_chunk_f32 on the values converted to float (the chunk's whole
 * 16-bit vectors with SLEEF's exp, the rest with the C library's), (x - max) - log(sum) in float32 rounded
 * once: nothing is rounded to the 16-bit dtype on the way. */
static void
log_softmax_chunk_r16(const softmax_dim_job *job, int64_t task)
{
    const mt_dtype dt = job->dtype;
    const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;
    const int64_t w = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / 2;
    const int64_t n = job->n, inner = job->inner, first = task % job->num_chunks * job->chunk;
    const int64_t size = job->chunk < inner - first ? job->chunk : inner - first;

    for (int64_t c = 0; c < size; c++) {
        const int64_t at = task / job->num_chunks * n * inner + first + c;
        const uint16_t *x = (const uint16_t *)job->in + at;
        uint16_t *y = (uint16_t *)job->out + at;
        float max = -INFINITY, sum = 0, lse;
        int64_t d;

        for (d = 0; d < n; d++) {
            float v = mt_reduced_to_float(dt, x[d * inner]);
            max = v > max ? v : max;
        }
        for (d = 0; d < n; d++) {
            float v = mt_reduced_to_float(dt, x[d * inner]) - max;
            sum += c < size - size % w && vec ? mt_vexp_f32(v) : expf(v);
        }
        lse = vec ? sleef_logf(sum, job->cpu == MT_TORCH_CPU_AVX512) : logf(sum);
        for (d = 0; d < n; d++) {
            y[d * inner] = mt_float_to_reduced(dt, (mt_reduced_to_float(dt, x[d * inner]) - max) - lse);
        }
    }
}

static void
dim_pieces_r16(void *ctx, int64_t begin, int64_t end)
{
    const softmax_dim_job *job = ctx;

    for (int64_t p = begin; p < end; p++) {
        if (job->log) {
            log_softmax_chunk_r16(job, p);
        }
        else {
            int64_t stop = (p + 1) * job->piece < job->total ? (p + 1) * job->piece : job->total;
            softmax_cols_r16(job, p * job->piece, stop);
        }
    }
}

int
mt_cpu_softmax_dim(int log, mt_dtype dtype, const void *in, void *out, int64_t outer, int64_t n, int64_t inner)
{
    softmax_dim_job job = {log, in, out, n, inner, 0, outer * inner, 0, 0, mt_cpu_torch_capability(), dtype};
    const int64_t size = (int64_t)mt_dtype_size(dtype);
    const int64_t w = (job.cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / size;
    int64_t threads = mt_parallel_get_num_threads(), tasks, most;

    if (!mt_dtype_is_floating(dtype)) {
        return -1;
    }
    if (log) {
        /* torch's vec_logsoftmax_chunk_size_and_num_chunks */
        most = 128 * 1024 / n / size > w ? 128 * 1024 / n / size : w;
        most = most / w * w;
        job.chunk = most < inner ? most : inner;
        job.num_chunks = (inner + job.chunk - 1) / job.chunk;
        tasks = outer * job.num_chunks;
    }
    else {
        /* at::parallel_for's split of [0, total) among torch's threads: equal ranges, the last shorter */
        job.piece = job.total > 1 && threads > 1 ? (job.total + threads - 1) / threads : job.total;
        tasks = (job.total + job.piece - 1) / job.piece;
    }
    mt_parallel_for(tasks, 1, 0,
                    dtype == MT_FLOAT32   ? dim_pieces_f32
                    : dtype == MT_FLOAT64 ? dim_pieces_f64
                                          : dim_pieces_r16,
                    &job);
    return 0;
}

/* ---- the backward passes -------------------------------------------------------------------------- */

/* torch's _vec_host_softmax_backward_lastdim: per row, from the gradient g and the forward's result o,
 *   softmax:     sum = the sum of g * o (the products folded as the forward's sum), then (g - sum) * o
 *   log_softmax: sum = the sum of g, then g - exp(o) * sum, exp the vector one (SLEEF's; the C library's in
 *                the portable build) on every element, the tail's too.
 * float16 and bfloat16 compute in float32 (the sum unrounded) and round each result once. */
typedef struct {
    int log;
    const void *grad, *res;
    void *gin;
    int64_t n, inner, chunk, num_chunks; /* the last three for another dim */
    mt_torch_cpu cpu;
    mt_dtype dtype;
} softmax_bw_job;

#define SOFTMAX_BW_ROWS(S, T, F)                                                                   \
    /* log_softmax's g - exp(o) * sum with the vector exp, a loop the compiler vectorises */        \
    MT_CPU_TARGET_CLONES_WIDE static void                                                          \
    log_bw_vexp_##S(const T *g, const T *o, T sum, T *gi, int64_t n)                               \
    {                                                                                              \
        for (int64_t i = 0; i < n; i++) {                                                          \
            gi[i] = fma##F(-mt_vexp_##S(o[i]), sum, g[i]);                                         \
        }                                                                                          \
    }                                                                                              \
    static void                                                                                    \
    bw_rows_##S(void *ctx, int64_t begin, int64_t end)                                             \
    {                                                                                              \
        const softmax_bw_job *job = ctx;                                                           \
        const int64_t n = job->n;                                                                  \
        const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;                                          \
        const int lanes = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / (int)sizeof(T);            \
        for (int64_t row = begin; row < end; row++) {                                              \
            const T *g = (const T *)job->grad + row * n, *o = (const T *)job->res + row * n;       \
            T *gi = (T *)job->gin + row * n, sum;                                                  \
            int64_t i;                                                                             \
            if (job->log) {                                                                        \
                sum = reduce_row_##S(g, n, lanes, 0, vec);                                         \
                if (vec) {                                                                         \
                    log_bw_vexp_##S(g, o, sum, gi, n);                                             \
                    continue;                                                                      \
                }                                                                                  \
                for (i = 0; i < n; i++) {                                                          \
                    gi[i] = g[i] - exp##F(o[i]) * sum;                                             \
                }                                                                                  \
                continue;                                                                          \
            }                                                                                      \
            for (i = 0; i < n; i++) {                                                              \
                gi[i] = g[i] * o[i];                                                               \
            }                                                                                      \
            sum = reduce_row_##S(gi, n, lanes, 0, vec);                                            \
            for (i = 0; i < n; i++) {                                                              \
                gi[i] = (g[i] - sum) * o[i];                                                       \
            }                                                                                      \
        }                                                                                          \
    }

SOFTMAX_BW_ROWS(f32, float, f)
SOFTMAX_BW_ROWS(f64, double, )

static void
bw_rows_r16(void *ctx, int64_t begin, int64_t end)
{
    const softmax_bw_job *job = ctx;
    const mt_dtype dt = job->dtype;
    const int64_t n = job->n;
    const int vec = job->cpu != MT_TORCH_CPU_DEFAULT;
    const int fl = job->cpu == MT_TORCH_CPU_AVX512 ? 16 : 8;

    for (int64_t row = begin; row < end; row++) {
        const uint16_t *g = (const uint16_t *)job->grad + row * n, *o = (const uint16_t *)job->res + row * n;
        uint16_t *gi = (uint16_t *)job->gin + row * n;
        float sum;
        int64_t i;
        if (job->log) {
            sum = reduce_row_r16(dt, g, NULL, n, fl, 0, R16_MAP_NONE, 0, vec);
            for (i = 0; i < n; i++) {
                float gf = mt_reduced_to_float(dt, g[i]), e = exp_r16(mt_reduced_to_float(dt, o[i]), vec);
                gi[i] = mt_float_to_reduced(dt, vec ? fmaf(-e, sum, gf) : gf - e * sum);
            }
            continue;
        }
        sum = reduce_row_r16(dt, g, o, n, fl, 0, R16_MAP_TIMES, 0, vec);
        for (i = 0; i < n; i++) {
            gi[i] = mt_float_to_reduced(dt, (mt_reduced_to_float(dt, g[i]) - sum) * mt_reduced_to_float(dt, o[i]));
        }
    }
}

int
mt_cpu_softmax_backward_lastdim(int log, mt_dtype dtype, const void *grad, const void *result, void *grad_in,
                                int64_t rows, int64_t n)
{
    softmax_bw_job job = {log, grad, result, grad_in, n, 1, 0, 0, mt_cpu_torch_capability(), dtype};
    int64_t grain = MT_PARALLEL_GRAIN_SIZE / (16 * n) > 1 ? MT_PARALLEL_GRAIN_SIZE / (16 * n) : 1;

    if (!mt_dtype_is_floating(dtype)) {
        return -1;
    }
    mt_parallel_for(rows, grain, 0,
                    dtype == MT_FLOAT32   ? bw_rows_f32
                    : dtype == MT_FLOAT64 ? bw_rows_f64
                                          : bw_rows_r16,
                    &job);
    return 0;
}

/* torch's _vec_softmax_backward and _vec_log_softmax_backward for another dim: the row of inner in chunks
 * of at most 128 KiB / (n * sizeof(T)) columns (a multiple of the vector's W lanes; 16-bit dtypes: of
 * their 2 W-lane vectors, in float32), each column on its own: sum = the sum over the dim of g * y
 * (softmax) or of g (log_softmax), then y * (g - sum), or g - exp(y) * sum with the vector exp in a
 * chunk's whole vectors and the C library's after them. The x86 build fuses each product into the sum or
 * the difference it feeds (not the portable one). */

#define LOAD_f32(p, i) (((const float *)(p))[i])
#define LOAD_f64(p, i) (((const double *)(p))[i])
#define LOAD_r16(p, i) mt_reduced_to_float(job->dtype, ((const uint16_t *)(p))[i])
#define STORE_f32(p, i, v) (((float *)(p))[i] = (v))
#define STORE_f64(p, i, v) (((double *)(p))[i] = (v))
#define STORE_r16(p, i, v) (((uint16_t *)(p))[i] = mt_float_to_reduced(job->dtype, (v)))

/* S names the loads and stores, T the type computed in, F the C library's suffix, VE the vector exp */
#define SOFTMAX_BW_DIM(S, T, F, VE)                                                                    \
    static void                                                                                        \
    bw_dim_chunks_##S(void *ctx, int64_t begin, int64_t end)                                           \
    {                                                                                                  \
        const softmax_bw_job *job = ctx;                                                           \
        const int fuse = job->cpu != MT_TORCH_CPU_DEFAULT;                                             \
        const int64_t w = (job->cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / (int64_t)sizeof(T)           \
                          * (job->dtype == MT_FLOAT16 || job->dtype == MT_BFLOAT16 ? 2 : 1);           \
        const int64_t n = job->n, inner = job->inner;                                                  \
        for (int64_t task = begin; task < end; task++) {                                               \
            const int64_t first = task % job->num_chunks * job->chunk;                                 \
            const int64_t size = job->chunk < inner - first ? job->chunk : inner - first;              \
            for (int64_t c = 0; c < size; c++) {                                                       \
                const int64_t at = task / job->num_chunks * n * inner + first + c;                     \
                const int vector = c < size - size % w;                                                \
                T sum = 0;                                                                             \
                int64_t d;                                                                             \
                for (d = 0; d < n; d++) {                                                              \
                    T g = LOAD_##S(job->grad, at + d * inner), y = LOAD_##S(job->res, at + d * inner);  \
                    sum = job->log ? sum + g : fuse ? fma##F(g, y, sum) : sum + g * y;                 \
                }                                                                                      \
                for (d = 0; d < n; d++) {                                                              \
                    T g = LOAD_##S(job->grad, at + d * inner), y = LOAD_##S(job->res, at + d * inner);  \
                    T e = vector && fuse ? VE(y) : exp##F(y);                                          \
                    T r = !job->log ? y * (g - sum) : fuse ? fma##F(-e, sum, g) : g - e * sum;         \
                    STORE_##S(job->gin, at + d * inner, r);                                            \
                }                                                                                      \
            }                                                                                          \
        }                                                                                              \
    }

SOFTMAX_BW_DIM(f32, float, f, mt_vexp_f32)
SOFTMAX_BW_DIM(f64, double, , mt_vexp_f64)
SOFTMAX_BW_DIM(r16, float, f, mt_vexp_f32)

int
mt_cpu_softmax_backward_dim(int log, mt_dtype dtype, const void *grad, const void *result, void *grad_in,
                            int64_t outer, int64_t n, int64_t inner)
{
    softmax_bw_job job = {log, grad, result, grad_in, n, inner, 0, 0, mt_cpu_torch_capability(), dtype};
    const int64_t size = (int64_t)mt_dtype_size(dtype);
    const int64_t w = (job.cpu == MT_TORCH_CPU_AVX512 ? 64 : 32) / size;
    int64_t most;

    if (!mt_dtype_is_floating(dtype)) {
        return -1;
    }
    /* torch's chunk of the inner columns: 128 KiB of the dtype over the dim, whole vectors */
    most = 128 * 1024 / n / size > w ? 128 * 1024 / n / size : w;
    most = most / w * w;
    job.chunk = most < inner ? most : inner;
    job.num_chunks = (inner + job.chunk - 1) / job.chunk;
    mt_parallel_for(outer * job.num_chunks, 1, 0,
                    dtype == MT_FLOAT32   ? bw_dim_chunks_f32
                    : dtype == MT_FLOAT64 ? bw_dim_chunks_f64
                                          : bw_dim_chunks_r16,
                    &job);
    return 0;
}
