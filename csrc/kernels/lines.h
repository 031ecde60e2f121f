/* lines.h: the work on one line along a dim (kernel_types.h's mt_scan_args, mt_sort_args), as MT_HD
 * functions per C type that the host kernels (cpu/lines.c) and the device kernels (cuda/lines.cu) both
 * call, so a line gives the same bits on every device (the philox.h pattern).
 *
 * Scans accumulate as torch's CPU kernels do (aten/native/cpu/ReduceOpsKernel.cpp's cumsum/cumprod and
 * logcumsumexp: acc_type, which is double for float32), sequentially from one end, so cumsum, cumprod and
 * logcumsumexp are torch's CPU values bit for bit; cummax/cummin follow ReduceOps.cpp's
 * cummax_cummin_helper. Integer arithmetic wraps (it is done in uint64), as torch's does in practice.
 * Sorts are a bottom-up merge sort (stable) on two scratch runs of n values and n indices.
 *
 * This header must not include Python or CUDA headers. */
#ifndef MT_KERNELS_LINES_H
#define MT_KERNELS_LINES_H

#include <math.h>
#include <stdint.h>

#include "../core/scalar_type.h"
#include "kernel_types.h"

/* X(S, T, ACC): the dtypes the line kernels take, their C type and the accumulator type of a scan */
#define MT_LINE_TYPES(X)                                                                           \
    X(b8, uint8_t, int64_t) X(u8, uint8_t, int64_t) X(i8, int8_t, int64_t) X(i16, int16_t, int64_t)   \
    X(i32, int32_t, int64_t) X(i64, int64_t, int64_t) X(f32, float, double) X(f64, double, double)

static inline MT_HD int64_t
mt_line_add_i(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline MT_HD int64_t
mt_line_mul_i(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static inline MT_HD double
mt_line_add_d(double a, double b)
{
    return a + b;
}

static inline MT_HD double
mt_line_mul_d(double a, double b)
{
    return a * b;
}

/* ACC is an integer type when 0.5 converts to 0 */
#define MT_LINE_ADD(ACC, a, b) ((ACC)0.5 == 0 ? (ACC)mt_line_add_i((int64_t)(a), (int64_t)(b))                    \
                                              : (ACC)mt_line_add_d((double)(a), (double)(b)))
#define MT_LINE_MUL(ACC, a, b) ((ACC)0.5 == 0 ? (ACC)mt_line_mul_i((int64_t)(a), (int64_t)(b))                    \
                                              : (ACC)mt_line_mul_d((double)(a), (double)(b)))

/* a NaN orders above every number: x "less than" y in ascending order */
#define MT_LINE_LESS(x, y) ((x) < (y) || ((x) == (x) && (y) != (y)))

/* torch's _log_add_exp_helper (aten/native/LogAddExp.h) in double: std::min/std::max's NaN rules, and x
 * itself when both are the same infinity */
static inline MT_HD double
mt_line_log_add_exp(double x, double y)
{
    double lo = y != y ? y : (y < x ? y : x);
    double hi = y != y ? y : (x < y ? y : x);

    if (lo != hi || isfinite(lo)) {
        return hi + log1p(exp(lo - hi));
    }
    return x;
}

#define MT_LINE_FUNCS_(S, T, ACC)                                                                  \
    /* one line of a scan: in and out step `step` elements apart (out's and indices' step: ostep) */ \
    static inline MT_HD void mt_scan_line_##S(const mt_scan_args *a, const T *in, int64_t step, T *out,  \
                                              int64_t ostep, int64_t *indices)                     \
    {                                                                                              \
        int prod = a->op == MT_SCAN_PROD;                                                          \
        if (a->op == MT_SCAN_MAX || a->op == MT_SCAN_MIN) {                                        \
            /* torch's cummax_cummin_helper: a NaN always takes over, then stays; ties move on */  \
            int is_max = a->op == MT_SCAN_MAX;                                                     \
            T best = in[0];                                                                        \
            int64_t at = 0;                                                                        \
            for (int64_t i = 0; i < a->n; i++) {                                                   \
                T x = in[i * step];                                                                \
                if (x != x || (best == best && (is_max ? x >= best : x <= best))) {                \
                    best = x;                                                                      \
                    at = i;                                                                        \
                }                                                                                  \
                out[i * ostep] = best;                                                             \
                indices[i * ostep] = at;                                                           \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (a->op == MT_SCAN_LOGADDEXP) {                                                          \
            double acc = -INFINITY;                                                                \
            for (int64_t k = 0; k < a->n; k++) {                                                   \
                int64_t i = a->reverse ? a->n - 1 - k : k;                                         \
                acc = mt_line_log_add_exp((double)in[i * step], acc);                              \
                out[i * ostep] = (T)acc;                                                           \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        ACC acc = prod ? (ACC)1 : (ACC)0;                                                          \
        for (int64_t k = 0; k < a->n; k++) {                                                       \
            int64_t i = a->reverse ? a->n - 1 - k : k;                                             \
            ACC x = (ACC)in[i * step];                                                             \
            if (a->exclusive && !a->total) {                                                       \
                out[i * ostep] = (T)acc;                                                           \
            }                                                                                      \
            acc = prod ? MT_LINE_MUL(ACC, acc, x) : MT_LINE_ADD(ACC, acc, x);                      \
            if (!a->exclusive && !a->total) {                                                      \
                out[i * ostep] = (T)acc;                                                           \
            }                                                                                      \
        }                                                                                          \
        if (a->total) {                                                                            \
            out[0] = (T)acc;                                                                       \
        }                                                                                          \
    }                                                                                              \
    /* one line of a sort: runs va/ia and vb/ib of n each are scratch */                           \
    static inline MT_HD void mt_sort_line_##S(const mt_sort_args *a, const T *in, int64_t step, T *values, \
                                              int64_t *indices, T *va, int64_t *ia, T *vb, int64_t *ib) \
    {                                                                                              \
        int64_t n = a->n;                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            va[i] = in[i * step];                                                                  \
            ia[i] = i;                                                                             \
        }                                                                                          \
        for (int64_t width = 1; width < n; width *= 2) {                                           \
            for (int64_t lo = 0; lo < n; lo += 2 * width) {                                        \
                int64_t mid = lo + width < n ? lo + width : n;                                     \
                int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;                              \
                int64_t p = lo, q = mid, o = lo;                                                   \
                while (p < mid && q < hi) {                                                        \
                    /* the right run's element goes first only when it strictly precedes */        \
                    int right = a->descending ? MT_LINE_LESS(va[p], va[q]) : MT_LINE_LESS(va[q], va[p]); \
                    if (right) {                                                                   \
                        vb[o] = va[q];                                                             \
                        ib[o++] = ia[q++];                                                         \
                    }                                                                              \
                    else {                                                                         \
                        vb[o] = va[p];                                                             \
                        ib[o++] = ia[p++];                                                         \
                    }                                                                              \
                }                                                                                  \
                while (p < mid) {                                                                  \
                    vb[o] = va[p];                                                                 \
                    ib[o++] = ia[p++];                                                             \
                }                                                                                  \
                while (q < hi) {                                                                   \
                    vb[o] = va[q];                                                                 \
                    ib[o++] = ia[q++];                                                             \
                }                                                                                  \
            }                                                                                      \
            {                                                                                      \
                T *tv = va;                                                                        \
                int64_t *ti = ia;                                                                  \
                va = vb;                                                                           \
                ia = ib;                                                                           \
                vb = tv;                                                                           \
                ib = ti;                                                                           \
            }                                                                                      \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            values[i * step] = va[i];                                                              \
            indices[i * step] = ia[i];                                                             \
        }                                                                                          \
    }

MT_LINE_TYPES(MT_LINE_FUNCS_)

#endif
