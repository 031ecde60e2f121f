/* elementwise.c: host kernels for binary and unary elementwise ops (see elementwise.h). Each (op, dtype)
 * pair is one typed inner function, chosen once per call outside the loop; inside it, the common
 * stride patterns (all contiguous, one side a broadcast scalar) get their own plain loops that the
 * compiler can vectorise, and everything else takes a strided loop. Operands of another dtype are
 * converted in small stack blocks by the cast kernel (cast.c). Ops over more than MT_PARALLEL_GRAIN_SIZE
 * elements are cut into ranges for the host thread pool (every element is computed the same way on
 * any thread). This file must not raise, allocate tensors
 * or know about devices: it only computes. Integer arithmetic is done in unsigned types so that
 * overflow wraps like torch's instead of being undefined behaviour. */
#include "elementwise.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "cast.h"
#include "parallel.h"

/* The typed loops are compiled three times, for AVX-512, AVX2 and the baseline ISA, and the CPU picks
 * one when the module loads (GCC function multi-versioning). Every op here is one correctly rounded
 * IEEE operation per element (no contraction: the build is ISO C, where -ffp-contract=off), so the
 * wider vectors change speed, never results. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define EW_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define EW_CLONES
#endif

typedef void (*binary_inner_fn)(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb,
                                int64_t n, const mt_binary_kernel_args *args);
typedef void (*unary_inner_fn)(char *out, const char *in, int64_t so, int64_t si, int64_t n);

/* ---- loop skeletons ------------------------------------------------------------------------------ */

/* The four stride patterns of a binary loop. EXPR computes an output from `x` (from a) and `y`. */
#define BINARY_LOOPS(TI, TO, EXPR)                                                                   \
    do {                                                                                           \
        if (so == (int64_t)sizeof(TO) && sa == (int64_t)sizeof(TI) && sb == (int64_t)sizeof(TI)) { \
            TO *o_ = (TO *)out;                                                                    \
            const TI *a_ = (const TI *)a;                                                          \
            const TI *b_ = (const TI *)b;                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI x = a_[i];                                                                      \
                TI y = b_[i];                                                                      \
                o_[i] = (EXPR);                                                                    \
            }                                                                                      \
        }                                                                                          \
        else if (so == (int64_t)sizeof(TO) && sa == (int64_t)sizeof(TI) && sb == 0) {              \
            TO *o_ = (TO *)out;                                                                    \
            const TI *a_ = (const TI *)a;                                                          \
            const TI y = *(const TI *)b;                                                           \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI x = a_[i];                                                                      \
                o_[i] = (EXPR);                                                                    \
            }                                                                                      \
        }                                                                                          \
        else if (so == (int64_t)sizeof(TO) && sa == 0 && sb == (int64_t)sizeof(TI)) {              \
            TO *o_ = (TO *)out;                                                                    \
            const TI x = *(const TI *)a;                                                           \
            const TI *b_ = (const TI *)b;                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI y = b_[i];                                                                      \
                o_[i] = (EXPR);                                                                    \
            }                                                                                      \
        }                                                                                          \
        else {                                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI x = *(const TI *)(a + i * sa);                                                  \
                TI y = *(const TI *)(b + i * sb);                                                  \
                *(TO *)(out + i * so) = (EXPR);                                                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define UNARY_LOOPS(TI, TO, EXPR)                                                                    \
    do {                                                                                           \
        if (so == (int64_t)sizeof(TO) && si == (int64_t)sizeof(TI)) {                              \
            TO *o_ = (TO *)out;                                                                    \
            const TI *i_ = (const TI *)in;                                                         \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI x = i_[i];                                                                      \
                o_[i] = (EXPR);                                                                    \
            }                                                                                      \
        }                                                                                          \
        else {                                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                TI x = *(const TI *)(in + i * si);                                                 \
                *(TO *)(out + i * so) = (EXPR);                                                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define BINARY_FN(NAME, TI, TO, EXPR)                                                                \
    EW_CLONES static void NAME(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb,  \
                     int64_t n, const mt_binary_kernel_args *args)                                 \
    {                                                                                              \
        (void)args;                                                                                \
        BINARY_LOOPS(TI, TO, EXPR);                                                                \
    }

#define UNARY_FN(NAME, TI, TO, EXPR)                                                                 \
    EW_CLONES static void NAME(char *out, const char *in, int64_t so, int64_t si, int64_t n)                 \
    {                                                                                              \
        UNARY_LOOPS(TI, TO, EXPR);                                                                 \
    }

/* ---- typed kernels ------------------------------------------------------------------------------- */

/* Wrapping integer arithmetic through the unsigned type U. */
#define WRAP_ADD(T, U, x, y) ((T)((U)(x) + (U)(y)))
#define WRAP_SUB(T, U, x, y) ((T)((U)(x) - (U)(y)))
#define WRAP_MUL(T, U, x, y) ((T)((U)(x) * (U)(y)))

/* add with alpha: a plain loop for alpha == 1 (the common case), else a + alpha * b. Floating types
 * use a fused multiply-add there, as torch's vectorised CPU kernel does, so the rounding matches. */
#define INT_ADD_FN(NAME, T, U)                                                                       \
    EW_CLONES static void NAME(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb,  \
                     int64_t n, const mt_binary_kernel_args *args)                                 \
    {                                                                                              \
        const U alpha = (U)(T)args->alpha.i;                                                       \
        if (alpha == 1) {                                                                          \
            BINARY_LOOPS(T, T, WRAP_ADD(T, U, x, y));                                              \
        }                                                                                          \
        else {                                                                                     \
            BINARY_LOOPS(T, T, (T)((U)x + alpha * (U)y));                                          \
        }                                                                                          \
    }

#define FLOAT_ADD_FN(NAME, T, FMA)                                                                   \
    EW_CLONES static void NAME(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb,  \
                     int64_t n, const mt_binary_kernel_args *args)                                 \
    {                                                                                              \
        const T alpha = (T)args->alpha.d;                                                          \
        if (alpha == (T)1) {                                                                       \
            BINARY_LOOPS(T, T, x + y);                                                             \
        }                                                                                          \
        else {                                                                                     \
            BINARY_LOOPS(T, T, FMA(y, alpha, x));                                                  \
        }                                                                                          \
    }

EW_CLONES static void
bool_add(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb, int64_t n,
         const mt_binary_kernel_args *args)
{
    /* bool arithmetic as C++ does it: a + alpha * b is true when anything is nonzero */
    const uint8_t alpha = args->alpha.i != 0;
    BINARY_LOOPS(uint8_t, uint8_t, (uint8_t)(x | (alpha & y)));
}

INT_ADD_FN(i32_add, int32_t, uint32_t)
INT_ADD_FN(i64_add, int64_t, uint64_t)
FLOAT_ADD_FN(f32_add, float, fmaf)
FLOAT_ADD_FN(f64_add, double, fma)

BINARY_FN(i32_sub, int32_t, int32_t, WRAP_SUB(int32_t, uint32_t, x, y))
BINARY_FN(i64_sub, int64_t, int64_t, WRAP_SUB(int64_t, uint64_t, x, y))
BINARY_FN(f32_sub, float, float, x - y)
BINARY_FN(f64_sub, double, double, x - y)

BINARY_FN(bool_mul, uint8_t, uint8_t, (uint8_t)(x & y))
BINARY_FN(i32_mul, int32_t, int32_t, WRAP_MUL(int32_t, uint32_t, x, y))
BINARY_FN(i64_mul, int64_t, int64_t, WRAP_MUL(int64_t, uint64_t, x, y))
BINARY_FN(f32_mul, float, float, x * y)
BINARY_FN(f64_mul, double, double, x * y)

BINARY_FN(f32_div, float, float, x / y)
BINARY_FN(f64_div, double, double, x / y)

/* torch.maximum/minimum propagate NaN from either side */
BINARY_FN(bool_max, uint8_t, uint8_t, (uint8_t)(x | y))
BINARY_FN(i32_max, int32_t, int32_t, x > y ? x : y)
BINARY_FN(i64_max, int64_t, int64_t, x > y ? x : y)
BINARY_FN(f32_max, float, float, (x != x || x > y) ? x : y)
BINARY_FN(f64_max, double, double, (x != x || x > y) ? x : y)
BINARY_FN(bool_min, uint8_t, uint8_t, (uint8_t)(x & y))
BINARY_FN(i32_min, int32_t, int32_t, x < y ? x : y)
BINARY_FN(i64_min, int64_t, int64_t, x < y ? x : y)
BINARY_FN(f32_min, float, float, (x != x || x < y) ? x : y)
BINARY_FN(f64_min, double, double, (x != x || x < y) ? x : y)

#define COMPARE_FNS(SUFFIX, T)                                                                       \
    BINARY_FN(SUFFIX##_eq, T, uint8_t, (uint8_t)(x == y))                                          \
    BINARY_FN(SUFFIX##_ne, T, uint8_t, (uint8_t)(x != y))                                          \
    BINARY_FN(SUFFIX##_lt, T, uint8_t, (uint8_t)(x < y))                                           \
    BINARY_FN(SUFFIX##_le, T, uint8_t, (uint8_t)(x <= y))                                          \
    BINARY_FN(SUFFIX##_gt, T, uint8_t, (uint8_t)(x > y))                                           \
    BINARY_FN(SUFFIX##_ge, T, uint8_t, (uint8_t)(x >= y))

COMPARE_FNS(bool, uint8_t)
COMPARE_FNS(i32, int32_t)
COMPARE_FNS(i64, int64_t)
COMPARE_FNS(f32, float)
COMPARE_FNS(f64, double)

#define COMPARE_ROW(SUFFIX) \
    SUFFIX##_eq, SUFFIX##_ne, SUFFIX##_lt, SUFFIX##_le, SUFFIX##_gt, SUFFIX##_ge

/* NULL where the op layer never asks (it promotes or raises first). */
static const binary_inner_fn binary_table[MT_NUM_DTYPES][MT_BINARY_NUM_OPS] = {
    [MT_BOOL] = {bool_add, NULL, bool_mul, NULL, bool_max, bool_min, COMPARE_ROW(bool)},
    [MT_INT32] = {i32_add, i32_sub, i32_mul, NULL, i32_max, i32_min, COMPARE_ROW(i32)},
    [MT_INT64] = {i64_add, i64_sub, i64_mul, NULL, i64_max, i64_min, COMPARE_ROW(i64)},
    [MT_FLOAT32] = {f32_add, f32_sub, f32_mul, f32_div, f32_max, f32_min, COMPARE_ROW(f32)},
    [MT_FLOAT64] = {f64_add, f64_sub, f64_mul, f64_div, f64_max, f64_min, COMPARE_ROW(f64)},
};

UNARY_FN(i32_neg, int32_t, int32_t, (int32_t)(0u - (uint32_t)x))
UNARY_FN(i64_neg, int64_t, int64_t, (int64_t)(0u - (uint64_t)x))
UNARY_FN(f32_neg, float, float, -x)
UNARY_FN(f64_neg, double, double, -x)
UNARY_FN(i32_abs, int32_t, int32_t, x < 0 ? (int32_t)(0u - (uint32_t)x) : x)
UNARY_FN(i64_abs, int64_t, int64_t, x < 0 ? (int64_t)(0u - (uint64_t)x) : x)
UNARY_FN(f32_abs, float, float, fabsf(x))
UNARY_FN(f64_abs, double, double, fabs(x))
UNARY_FN(i32_relu, int32_t, int32_t, x < 0 ? 0 : x)
UNARY_FN(i64_relu, int64_t, int64_t, x < 0 ? 0 : x)
UNARY_FN(f32_relu, float, float, x < 0 ? 0.0f : x)
UNARY_FN(f64_relu, double, double, x < 0 ? 0.0 : x)
UNARY_FN(f32_exp, float, float, expf(x))
UNARY_FN(f64_exp, double, double, exp(x))
UNARY_FN(f32_log, float, float, logf(x))
UNARY_FN(f64_log, double, double, log(x))
UNARY_FN(f32_sqrt, float, float, sqrtf(x))
UNARY_FN(f64_sqrt, double, double, sqrt(x))
UNARY_FN(f32_reciprocal, float, float, 1.0f / x)
UNARY_FN(f64_reciprocal, double, double, 1.0 / x)

static const unary_inner_fn unary_table[MT_NUM_DTYPES][MT_UNARY_NUM_OPS] = {
    [MT_BOOL] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    [MT_INT32] = {i32_neg, i32_abs, i32_relu, NULL, NULL, NULL, NULL},
    [MT_INT64] = {i64_neg, i64_abs, i64_relu, NULL, NULL, NULL, NULL},
    [MT_FLOAT32] = {f32_neg, f32_abs, f32_relu, f32_exp, f32_log, f32_sqrt, f32_reciprocal},
    [MT_FLOAT64] = {f64_neg, f64_abs, f64_relu, f64_exp, f64_log, f64_sqrt, f64_reciprocal},
};

/* ---- drivers: block-wise conversion of operands of another dtype ---------------------------------- */

#define BLOCK 256

typedef union {
    double d[BLOCK];
    int64_t i[BLOCK];
} block_buffer;

typedef struct {
    binary_inner_fn fn;
    const mt_binary_kernel_args *args;
    mt_dtype natural_out;
    int convert;            /* any operand needs converting */
} binary_ctx;

/* Points *p at n elements of `dtype` read from (src, stride) of `src_dtype`; converts into buf when
 * the dtypes differ. A broadcast operand (stride 0) is converted once and stays stride 0. */
static void
stage_input(char **p, int64_t *stride, mt_dtype src_dtype, mt_dtype dtype, block_buffer *buf, int64_t n)
{
    if (src_dtype == dtype) {
        return;
    }
    if (*stride == 0) {
        mt_cpu_cast((char *)buf, dtype, 0, *p, src_dtype, 0, 1);
        *p = (char *)buf;
        return;
    }
    mt_cpu_cast((char *)buf, dtype, (int64_t)mt_dtype_size(dtype), *p, src_dtype, *stride, n);
    *p = (char *)buf;
    *stride = (int64_t)mt_dtype_size(dtype);
}

static void
binary_loop(char **data, const int64_t *strides, int64_t n, void *vctx)
{
    const binary_ctx *ctx = vctx;
    const mt_binary_kernel_args *args = ctx->args;
    block_buffer abuf, bbuf, obuf;
    int64_t nat_size = (int64_t)mt_dtype_size(ctx->natural_out);

    if (!ctx->convert) {
        ctx->fn(data[0], data[1], data[2], strides[0], strides[1], strides[2], n, args);
        return;
    }
    for (int64_t start = 0; start < n; start += BLOCK) {
        int64_t m = n - start < BLOCK ? n - start : BLOCK;
        char *o = data[0] + start * strides[0];
        char *a = data[1] + start * strides[1];
        char *b = data[2] + start * strides[2];
        int64_t sa = strides[1];
        int64_t sb = strides[2];
        stage_input(&a, &sa, args->a_dtype, args->dtype, &abuf, m);
        stage_input(&b, &sb, args->b_dtype, args->dtype, &bbuf, m);
        if (args->out_dtype != ctx->natural_out) {
            ctx->fn((char *)&obuf, a, b, nat_size, sa, sb, m, args);
            mt_cpu_cast(o, args->out_dtype, strides[0], (char *)&obuf, ctx->natural_out, nat_size, m);
        }
        else {
            ctx->fn(o, a, b, strides[0], sa, sb, m, args);
        }
    }
}

void
mt_cpu_binary(const mt_iter *it, const mt_binary_kernel_args *args)
{
    binary_ctx ctx;

    ctx.fn = binary_table[args->dtype][args->op];
    ctx.args = args;
    ctx.natural_out = MT_BINARY_IS_COMPARISON(args->op) ? MT_BOOL : args->dtype;
    ctx.convert = args->a_dtype != args->dtype || args->b_dtype != args->dtype ||
                  args->out_dtype != ctx.natural_out;
    if (ctx.fn == NULL) {
        return;
    }
    mt_iter_run_parallel(it, binary_loop, &ctx);
}

void
mt_cpu_binary_contiguous(const mt_binary_kernel_args *args, char *out, const char *a, const char *b, int64_t n)
{
    binary_inner_fn fn = binary_table[args->dtype][args->op];
    int64_t size = (int64_t)mt_dtype_size(args->dtype);
    mt_iter it;

    if (fn == NULL) {
        return;
    }
    if (n <= MT_PARALLEL_GRAIN_SIZE) {
        /* tiny operands: straight to the typed loop */
        fn(out, a, b, MT_BINARY_IS_COMPARISON(args->op) ? 1 : size, size, size, n, args);
        return;
    }
    it.ndim = 1;
    it.nops = 3;
    it.numel = n;
    it.shape[0] = n;
    it.data[0] = out;
    it.data[1] = (char *)a;
    it.data[2] = (char *)b;
    it.strides[0][0] = MT_BINARY_IS_COMPARISON(args->op) ? 1 : size;
    it.strides[1][0] = size;
    it.strides[2][0] = size;
    mt_cpu_binary(&it, args);
}

typedef struct {
    unary_inner_fn fn;
    const mt_unary_kernel_args *args;
} unary_ctx;

static void
unary_loop(char **data, const int64_t *strides, int64_t n, void *vctx)
{
    const unary_ctx *ctx = vctx;
    const mt_unary_kernel_args *args = ctx->args;
    block_buffer ibuf, obuf;
    int64_t size = (int64_t)mt_dtype_size(args->dtype);

    if (args->in_dtype == args->dtype && args->out_dtype == args->dtype) {
        ctx->fn(data[0], data[1], strides[0], strides[1], n);
        return;
    }
    for (int64_t start = 0; start < n; start += BLOCK) {
        int64_t m = n - start < BLOCK ? n - start : BLOCK;
        char *o = data[0] + start * strides[0];
        char *in = data[1] + start * strides[1];
        int64_t si = strides[1];
        stage_input(&in, &si, args->in_dtype, args->dtype, &ibuf, m);
        if (args->out_dtype != args->dtype) {
            ctx->fn((char *)&obuf, in, size, si, m);
            mt_cpu_cast(o, args->out_dtype, strides[0], (char *)&obuf, args->dtype, size, m);
        }
        else {
            ctx->fn(o, in, strides[0], si, m);
        }
    }
}

void
mt_cpu_unary(const mt_iter *it, const mt_unary_kernel_args *args)
{
    unary_ctx ctx;

    ctx.fn = unary_table[args->dtype][args->op];
    ctx.args = args;
    if (ctx.fn == NULL) {
        return;
    }
    mt_iter_run_parallel(it, unary_loop, &ctx);
}
