/* softmax.c (cpu): torch's CPU kernels for softmax and log_softmax over a contiguous last dim, float32 and
 * float64 (_vec_softmax_lastdim and _vec_log_softmax_lastdim, aten/src/ATen/native/cpu/SoftMaxKernel.cpp,
 * and the vec::reduce_all / map_reduce_all / map helpers they call), in their order of operations, so
 * that the results are torch's bit for bit under each CPU capability (found by comparing bits with torch
 * 2.13's x86 build, row lengths 1 to 300 and longer, each capability). Each row, on its own:
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
 * mode, which contracts no multiply-add: fmaf/fma are SLEEF's fused steps, every other step rounds where
 * it is written. One thing is not torch's: where two different NaNs meet in a sum or a product (a softmax
 * row holding a NaN or an inf, under AVX2 or AVX-512), which one's sign and payload the result carries
 * follows how torch's compiler ordered each instruction's operands; the result is a NaN either way. */
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

int
mt_cpu_softmax_lastdim(int log, mt_dtype dtype, const void *in, void *out, int64_t rows, int64_t n)
{
    softmax_job job = {log, in, out, n, mt_cpu_torch_capability()};
    /* about GRAIN_SIZE elements' work per chunk, counting an exp as a few operations */
    int64_t grain = MT_PARALLEL_GRAIN_SIZE / (16 * n) > 1 ? MT_PARALLEL_GRAIN_SIZE / (16 * n) : 1;

    if (dtype != MT_FLOAT32 && dtype != MT_FLOAT64) {
        return -1;
    }
    mt_parallel_for(rows, grain, 0, dtype == MT_FLOAT32 ? rows_f32 : rows_f64, &job);
    return 0;
}
