/* elementwise.c: host kernels for binary and unary elementwise ops (see elementwise.h). Each (op, dtype)
 * pair is one typed inner function instantiated from the scalar definitions the CUDA kernels use too
 * (kernels/op_math.h), chosen once per call outside the loop; inside it, the common stride patterns
 * (all contiguous, one side a broadcast scalar) get their own plain loops that the compiler can
 * vectorise, and everything else takes a strided loop. Operands of another dtype are converted in
 * small stack blocks by the cast kernel (cast.c), except the common float16/bfloat16 ops on dense runs,
 * whose loops convert with vector instructions themselves (the fused 16-bit loops below). Ops over more than MT_PARALLEL_GRAIN_SIZE elements
 * are cut into ranges for the host thread pool (every element is computed the same way on any
 * thread). This file must not raise, allocate tensors or know about devices, and must not define
 * arithmetic of its own: it only runs op_math.h's over memory. */
#include "elementwise.h"

#include <stddef.h>
#include <stdint.h>

#include "cast.h"
#include "cpu_features.h"
#include "half_simd.h"
#include "parallel.h"

/* The typed loops are compiled twice, for x86-64-v3 (AVX2 with FMA) and the baseline ISA, and the CPU
 * picks one when the module loads (MT_CPU_TARGET_CLONES, cpu_features.h). Every op here is one correctly rounded
 * IEEE operation per element (no contraction: the build is ISO C, where -ffp-contract=off), so the wider
 * vectors change speed, never results. The FMA in the first clone matters for add with alpha (fmaf, as
 * torch rounds it): without the instruction every element is a call into the C library, 30x slower
 * (SGD's param.add_(buf, alpha=-lr) on 100,000 floats: 190 us against torch's 7). GCC before 12 has no
 * x86-64-v3 clone and keeps AVX2 alone. An AVX-512 clone was measured and dropped: no op got faster on an
 * AVX-512 machine (4096 and 65536 elements, float32/float64/int64), and it cost 40% of this file's
 * compile time, the build's longest step. */
#define EW_CLONES MT_CPU_TARGET_CLONES

typedef void (*binary_inner_fn)(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb,
                                int64_t n, const mt_binary_kernel_args *args);
typedef void (*unary_inner_fn)(char *out, const char *in, int64_t so, int64_t si, int64_t n);

/* ---- loop skeletons ------------------------------------------------------------------------------ */

/* The four stride patterns of a binary loop. EXPR computes an output from `x` (from a) and `y`. */
#define BINARY_LOOPS(TI, TO, EXPR)                                                                 \
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

#define UNARY_LOOPS(TI, TO, EXPR)                                                                  \
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

#define BINARY_FN(NAME, TI, TO, EXPR)                                                              \
    EW_CLONES static void NAME(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb, \
                     int64_t n, const mt_binary_kernel_args *args)                                 \
    {                                                                                              \
        (void)args;                                                                                \
        BINARY_LOOPS(TI, TO, EXPR);                                                                \
    }

#define UNARY_FN(NAME, TI, TO, EXPR)                                                               \
    EW_CLONES static void NAME(char *out, const char *in, int64_t so, int64_t si, int64_t n)       \
    {                                                                                              \
        UNARY_LOOPS(TI, TO, EXPR);                                                                 \
    }

/* ---- typed kernels: one per (op, dtype), from the scalar definitions in op_math.h ----------------- */

#define ctype_b8 uint8_t
#define ctype_u8 uint8_t
#define ctype_i8 int8_t
#define ctype_i16 int16_t
#define ctype_i32 int32_t
#define ctype_i64 int64_t
#define ctype_f32 float
#define ctype_f64 double

/* add with alpha: a plain loop for alpha == 1 (the common case, and the same values), else the general
 * form (for float and double a fused multiply-add, as torch's vectorised CPU kernel rounds it) */
#define ADD_FN(S, ALPHA)                                                                           \
    EW_CLONES static void S##_add(char *out, const char *a, const char *b, int64_t so, int64_t sa, \
                                  int64_t sb, int64_t n, const mt_binary_kernel_args *args)        \
    {                                                                                              \
        const ctype_##S alpha = (ctype_##S)(ALPHA);                                                \
        if (alpha == (ctype_##S)1) {                                                               \
            BINARY_LOOPS(ctype_##S, ctype_##S, mt_add_##S(x, y, (ctype_##S)1));                    \
        }                                                                                          \
        else {                                                                                     \
            BINARY_LOOPS(ctype_##S, ctype_##S, mt_add_##S(x, y, alpha));                           \
        }                                                                                          \
    }
#define ARITH_FN(OP, name, S) BINARY_FN(S##_##name, ctype_##S, ctype_##S, mt_##name##_##S(x, y))
#define COMPARE_FN(OP, name, S) BINARY_FN(S##_##name, ctype_##S, uint8_t, mt_##name##_##S(x, y))
#define UNARY_OP_FN(OP, name, S) UNARY_FN(S##_##name, ctype_##S, ctype_##S, mt_##name##_##S(x))

ADD_FN(b8, args->alpha.i != 0)
ADD_FN(u8, args->alpha.i)
ADD_FN(i8, args->alpha.i)
ADD_FN(i16, args->alpha.i)
ADD_FN(i32, args->alpha.i)
ADD_FN(i64, args->alpha.i)
ADD_FN(f32, args->alpha.d)
ADD_FN(f64, args->alpha.d)
MT_BINARY_BOOL_OPS(ARITH_FN, b8)
MT_BINARY_INT_OPS(ARITH_FN, u8)
MT_BINARY_INT_OPS(ARITH_FN, i8)
MT_BINARY_INT_OPS(ARITH_FN, i16)
MT_BINARY_INT_OPS(ARITH_FN, i32)
MT_BINARY_INT_OPS(ARITH_FN, i64)
MT_BINARY_FLOAT_OPS(ARITH_FN, f32)
MT_BINARY_FLOAT_OPS(ARITH_FN, f64)
MT_COMPARE_OPS(COMPARE_FN, b8)
MT_COMPARE_OPS(COMPARE_FN, u8)
MT_COMPARE_OPS(COMPARE_FN, i8)
MT_COMPARE_OPS(COMPARE_FN, i16)
MT_COMPARE_OPS(COMPARE_FN, i32)
MT_COMPARE_OPS(COMPARE_FN, i64)
MT_COMPARE_OPS(COMPARE_FN, f32)
MT_COMPARE_OPS(COMPARE_FN, f64)
MT_UNARY_BOOL_OPS(UNARY_OP_FN, b8)
MT_UNARY_INTEGER_OPS(UNARY_OP_FN, u8)
MT_UNARY_INTEGER_OPS(UNARY_OP_FN, i8)
MT_UNARY_INTEGER_OPS(UNARY_OP_FN, i16)
MT_UNARY_INTEGER_OPS(UNARY_OP_FN, i32)
MT_UNARY_INTEGER_OPS(UNARY_OP_FN, i64)
MT_UNARY_FLOAT_OPS(UNARY_OP_FN, f32)
MT_UNARY_FLOAT_OPS(UNARY_OP_FN, f64)

/* How many elements of a run of n torch's vector loop takes (the rest are its scalar loop's): the whole
 * pairs of vectors of elements of `size` bytes where the run is one it vectorises (`dense`: the output and
 * every input dense, or an input one broadcast number), none under the portable kernels. */
static inline int64_t
torch_vector_elements(int64_t n, int64_t size, int dense)
{
    int64_t unit = 2 * (int64_t)mt_cpu_torch_vector_bytes() / size;
    return unit > 0 && dense ? n - n % unit : 0;
}

/* sigmoid on float and double, where values depend on the loop: torch's CPU loop computes a contiguous
 * run (output dense, input dense or one broadcast number) two vectors at a time with its vector exp
 * (op_math.h, mt_sigmoid_vec_*) and the rest of the run with the C library's, and other strides element
 * by element with the C library's. mt_cpu_unary gives these the ranges torch's threads take
 * (mt_iter_run_parallel_as_torch), so every element takes the exp torch's takes. */
#define SIGMOID_FN(S, T)                                                                           \
    EW_CLONES static void S##_sigmoid_as_torch(char *out, const char *in, int64_t so, int64_t si,  \
                                               int64_t n)                                          \
    {                                                                                              \
        int64_t nvec = torch_vector_elements(                                                      \
            n, sizeof(T), so == (int64_t)sizeof(T) && (si == (int64_t)sizeof(T) || si == 0));      \
        for (int64_t i = 0; i < nvec; i++) {                                                       \
            ((T *)out)[i] = mt_sigmoid_vec_##S(*(const T *)(in + i * si));                         \
        }                                                                                          \
        out += nvec * so;                                                                          \
        in += nvec * si;                                                                           \
        n -= nvec;                                                                                 \
        UNARY_LOOPS(T, T, mt_sigmoid_##S(x));                                                      \
    }
SIGMOID_FN(f32, float)
SIGMOID_FN(f64, double)

/* exp of float16 and bfloat16, computed in float32 and rounded to the 16-bit dtype: SLEEF's float exp
 * (mt_vexp_f32), which torch's kernel for these dtypes calls on every element. It is 1 ulp from the float32
 * exp above on some floats, but rounded to either 16-bit dtype it gives the same value on all 65,536 inputs
 * (and torch's), in half the time. */
MT_CPU_TARGET_CLONES_WIDE static void
f32_exp_to_reduced(char *out, const char *in, int64_t so, int64_t si, int64_t n)
{
    UNARY_LOOPS(float, float, mt_vexp_f32(x));
}

/* entr and xlog1py of float16 and bfloat16 (special_math.h): the log rounded to the 16-bit dtype, as
 * torch's kernels take it */
UNARY_FN(f32_entr_of_half, float, float, mt_special_entr_reduced(MT_FLOAT16, x))
UNARY_FN(f32_entr_of_bfloat16, float, float, mt_special_entr_reduced(MT_BFLOAT16, x))
BINARY_FN(f32_xlog1py_of_reduced, float, float, mt_special_xlog1py_reduced(args->out_dtype, x, y))
/* xlogy, floor_divide and logit of float16 and bfloat16 (op_math.h): each step rounded to the 16-bit dtype */
BINARY_FN(f32_xlogy_of_reduced, float, float, mt_xlogy_reduced(args->out_dtype, x, y))
BINARY_FN(f32_floor_divide_of_reduced, float, float, mt_floor_divide_reduced(args->out_dtype, x, y))
UNARY_FN(f32_logit_of_half, float, float, mt_logit_reduced(MT_FLOAT16, x))
UNARY_FN(f32_logit_of_bfloat16, float, float, mt_logit_reduced(MT_BFLOAT16, x))

#if defined(MT_SQRT_AS_MKL) && defined(MT_CPU_CLONES)
/* sqrt of a float32 or double for the CPU device on a CPU not made by Intel: MKL's, which torch's kernel
 * calls (op_math.h, mt_sqrt_as_mkl_*), on every element whatever the strides, as torch copies strided
 * elements into a buffer for MKL */
static void
f32_sqrt_as_mkl(char *out, const char *in, int64_t so, int64_t si, int64_t n)
{
    UNARY_LOOPS(float, float, mt_sqrt_as_mkl_f32(x));
}

static void
f64_sqrt_as_mkl(char *out, const char *in, int64_t so, int64_t si, int64_t n)
{
    UNARY_LOOPS(double, double, mt_sqrt_as_mkl_f64(x));
}
#endif

/* exp of a float32 (op_math.h): arithmetic in double lanes, with the AVX-512 clone too */
MT_CPU_TARGET_CLONES_WIDE static void
f32_exp_wide(char *out, const char *in, int64_t so, int64_t si, int64_t n)
{
    UNARY_LOOPS(float, float, mt_exp_f32(x));
}

/* sin of a float32 (op_math.h): over a contiguous run, a vectorised pass of mt_sin_small_f32, then a pass
 * that gives the elements it left unchanged (|x| past MT_SIN_SMALL_F32, inf, NaN: the only results outside
 * [-1, 1]) to the C library's sinf; other strides element by element. In place too: the second pass reads
 * what the first left. */
MT_CPU_TARGET_CLONES_WIDE static void
f32_sin_two_pass(char *out, const char *in, int64_t so, int64_t si, int64_t n)
{
    if (so == (int64_t)sizeof(float) && si == (int64_t)sizeof(float)) {
        float *o = (float *)out;
        const float *x = (const float *)in;
        for (int64_t i = 0; i < n; i++) {
            o[i] = mt_sin_small_f32(x[i]);
        }
        for (int64_t i = 0; i < n; i++) {
            if (!(fabsf(o[i]) <= 1.0f)) {
                o[i] = sinf(o[i]);
            }
        }
        return;
    }
    UNARY_LOOPS(float, float, mt_sin_f32(x));
}

/* elements per block where a loop goes through a buffer (pow below, the conversion drivers) */
#define BLOCK 256

/* pow of float32s (op_math.h), a block at a time: a vectorised pass of y log |x| into a buffer, one of
 * mt_pow_from_log_f32, a pass that gives the elements these do not take (zeros, subnormals, inf, NaN) to
 * the C library's powf, then the buffer out; every stride, in place too (each block is read before it is
 * written). */
#define POW_LOG_PASS(X, Y)                                                                         \
    for (int64_t i = 0; i < m; i++) {                                                              \
        t[i] = (double)(Y) * mt_log_abs_f32(X);                                                    \
    }                                                                                              \
    for (int64_t i = 0; i < m; i++) {                                                              \
        r[i] = mt_pow_from_log_f32(t[i], (X), (Y));                                                \
    }
MT_CPU_TARGET_CLONES_WIDE static void
f32_pow_passes(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb, int64_t n,
               const mt_binary_kernel_args *args)
{
    double t[BLOCK];
    float r[BLOCK];

    (void)args;
    for (int64_t start = 0; start < n; start += BLOCK) {
        const int64_t m = n - start < BLOCK ? n - start : BLOCK;
        const char *ab = a + start * sa, *bb = b + start * sb;
        const float *xs = (const float *)ab, *ys = (const float *)bb;
        char *ob = out + start * so;

        if (sa == (int64_t)sizeof(float) && sb == 0) {
            const float y = *ys;
            POW_LOG_PASS(xs[i], y);
        }
        else if (sa == (int64_t)sizeof(float) && sb == (int64_t)sizeof(float)) {
            POW_LOG_PASS(xs[i], ys[i]);
        }
        else {
            POW_LOG_PASS(*(const float *)(ab + i * sa), *(const float *)(bb + i * sb));
        }
        for (int64_t i = 0; i < m; i++) {
            const float x = *(const float *)(ab + i * sa), y = *(const float *)(bb + i * sb);
            if (!mt_pow_fast_applies_f32(x, y)) {
                r[i] = powf(x, y);
            }
        }
        if (so == (int64_t)sizeof(float)) {
            memcpy(ob, r, (size_t)m * sizeof(float));
        }
        else {
            for (int64_t i = 0; i < m; i++) {
                *(float *)(ob + i * so) = r[i];
            }
        }
    }
}
#undef POW_LOG_PASS

/* pow of a float32 tensor by a Python number as torch's CPU loop computes it (kernel_types.h): over a
 * contiguous run (output and base dense), two vectors at a time with the exponent rounded to float (b) by
 * torch's SLEEF powf (op_math.h, mt_vpow_f32: its bits); the rest of the run, and other strides,
 * as std::pow(float, double): the C library's pow of the double exponent, rounded. mt_cpu_binary gives it
 * the ranges torch's threads take (mt_iter_run_parallel_as_torch), so each element takes the exponent
 * torch's takes (a number such as 0.3 is not a float, and x^0.3f is x^0.3 times x^(0.3f - 0.3)). */
EW_CLONES static void
f32_pow_number_as_torch(char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb, int64_t n,
                        const mt_binary_kernel_args *args)
{
    const int64_t nvec =
        torch_vector_elements(n, sizeof(float), so == (int64_t)sizeof(float) && sa == (int64_t)sizeof(float));

    for (int64_t i = 0; i < nvec; i++) {
        ((float *)out)[i] = mt_vpow_f32(((const float *)a)[i], *(const float *)(b + i * sb));
    }
    for (int64_t i = nvec; i < n; i++) {
        *(float *)(out + i * so) = (float)pow((double)*(const float *)(a + i * sa), args->pow_number);
    }
}

/* SLEEF's functions are too long for GCC to inline into a loop on its own (float64 logaddexp2's stayed a
 * call, 8 times slower): `flatten` inlines them, so that the loops vectorise */
#if defined(__GNUC__)
#define LOGADDEXP_FLATTEN __attribute__((flatten))
#else
#define LOGADDEXP_FLATTEN
#endif

/* logaddexp and logaddexp2 on float and double, where values depend on the loop as sigmoid's do: torch's
 * CPU loop computes a contiguous run (output dense, each input dense or one broadcast number) two vectors
 * at a time with SLEEF's exp (exp2) and log1p (op_math.h, mt_logaddexp*_vec_*) and the rest of the run, and
 * other strides, with the C library's. Its AVX2 and AVX-512 kernels fuse logaddexp2's last multiply-add in
 * the scalar loop too (the compiler contracts it: FUSED_EXPR); the portable ones fuse nothing (PLAIN_EXPR).
 * mt_cpu_binary gives these the ranges torch's threads take (mt_iter_run_parallel_as_torch). */
#define LOGADDEXP_FN(S, T, NAME, VECTOR_EXPR, FUSED_EXPR, PLAIN_EXPR)                            \
    EW_CLONES LOGADDEXP_FLATTEN static void S##_##NAME##_as_torch(                                 \
        char *out, const char *a, const char *b, int64_t so, int64_t sa, int64_t sb, int64_t n,    \
        const mt_binary_kernel_args *args)                                                         \
    {                                                                                              \
        const int64_t size = (int64_t)sizeof(T);                                                   \
        const int64_t nvec = torch_vector_elements(                                                \
            n, size, so == size && (sa == size || sa == 0) && (sb == size || sb == 0) && sa + sb > 0); \
        const int64_t rest = n - nvec;                                                             \
        (void)args;                                                                                \
        n = nvec;                                                                                  \
        BINARY_LOOPS(T, T, VECTOR_EXPR);                                                           \
        out += nvec * so;                                                                          \
        a += nvec * sa;                                                                            \
        b += nvec * sb;                                                                            \
        n = rest;                                                                                  \
        if (mt_cpu_torch_vector_bytes() > 0) {                                                     \
            BINARY_LOOPS(T, T, FUSED_EXPR);                                                        \
        }                                                                                          \
        else {                                                                                     \
            BINARY_LOOPS(T, T, PLAIN_EXPR);                                                        \
        }                                                                                          \
    }
LOGADDEXP_FN(f32, float, logaddexp, mt_logaddexp_vec_f32(x, y), mt_logaddexp_f32(x, y), mt_logaddexp_f32(x, y))
LOGADDEXP_FN(f64, double, logaddexp, mt_logaddexp_vec_f64(x, y), mt_logaddexp_f64(x, y), mt_logaddexp_f64(x, y))
LOGADDEXP_FN(f32, float, logaddexp2, mt_logaddexp2_vec_f32(x, y), mt_logaddexp2_fused_f32(x, y),
             mt_logaddexp2_f32(x, y))
LOGADDEXP_FN(f64, double, logaddexp2, mt_logaddexp2_vec_f64(x, y), mt_logaddexp2_fused_f64(x, y),
             mt_logaddexp2_f64(x, y))

/* whether logaddexp(2) runs in torch's kernel for float16 or bfloat16: both operands of that dtype */
static int
logaddexp_is_reduced(const mt_binary_kernel_args *args)
{
    return (args->op == MT_BINARY_LOGADDEXP || args->op == MT_BINARY_LOGADDEXP2) &&
           mt_dtype_is_reduced_floating(args->a_dtype) && args->b_dtype == args->a_dtype;
}

/* the loop above for logaddexp or logaddexp2 of float or double, or NULL */
static binary_inner_fn
logaddexp_as_torch_for(const mt_binary_kernel_args *args)
{
    if ((args->op != MT_BINARY_LOGADDEXP && args->op != MT_BINARY_LOGADDEXP2) || logaddexp_is_reduced(args)) {
        return NULL;
    }
    if (args->dtype != MT_FLOAT32 && args->dtype != MT_FLOAT64) {
        return NULL;
    }
    if (args->op == MT_BINARY_LOGADDEXP) {
        return args->dtype == MT_FLOAT32 ? f32_logaddexp_as_torch : f64_logaddexp_as_torch;
    }
    return args->dtype == MT_FLOAT32 ? f32_logaddexp2_as_torch : f64_logaddexp2_as_torch;
}

/* The tables: NULL where a family has no such op (the op layer promotes or raises first). */
#define BINARY_ENTRY(OP, name, S) [MT_BINARY_##OP] = S##_##name,
#define UNARY_ENTRY(OP, name, S) [MT_UNARY_##OP] = S##_##name,
#define BINARY_ROW(S, OPS) {[MT_BINARY_ADD] = S##_add, OPS(BINARY_ENTRY, S) MT_COMPARE_OPS(BINARY_ENTRY, S)}

static const binary_inner_fn binary_table[MT_NUM_DTYPES][MT_BINARY_NUM_OPS] = {
    [MT_BOOL] = BINARY_ROW(b8, MT_BINARY_BOOL_OPS),
    [MT_UINT8] = BINARY_ROW(u8, MT_BINARY_INT_OPS),
    [MT_INT8] = BINARY_ROW(i8, MT_BINARY_INT_OPS),
    [MT_INT16] = BINARY_ROW(i16, MT_BINARY_INT_OPS),
    [MT_INT32] = BINARY_ROW(i32, MT_BINARY_INT_OPS),
    [MT_INT64] = BINARY_ROW(i64, MT_BINARY_INT_OPS),
    /* the last entry replaces the list's pow */
    [MT_FLOAT32] = {[MT_BINARY_ADD] = f32_add, MT_BINARY_FLOAT_OPS(BINARY_ENTRY, f32)
                        MT_COMPARE_OPS(BINARY_ENTRY, f32)[MT_BINARY_POW] = f32_pow_passes},
    [MT_FLOAT64] = BINARY_ROW(f64, MT_BINARY_FLOAT_OPS),
};

static const unary_inner_fn unary_table[MT_NUM_DTYPES][MT_UNARY_NUM_OPS] = {
    [MT_BOOL] = {MT_UNARY_BOOL_OPS(UNARY_ENTRY, b8)},
    [MT_UINT8] = {MT_UNARY_INTEGER_OPS(UNARY_ENTRY, u8)},
    [MT_INT8] = {MT_UNARY_INTEGER_OPS(UNARY_ENTRY, i8)},
    [MT_INT16] = {MT_UNARY_INTEGER_OPS(UNARY_ENTRY, i16)},
    [MT_INT32] = {MT_UNARY_INTEGER_OPS(UNARY_ENTRY, i32)},
    [MT_INT64] = {MT_UNARY_INTEGER_OPS(UNARY_ENTRY, i64)},
    /* the last entries replace the list's exp and sin */
    [MT_FLOAT32] = {MT_UNARY_FLOAT_OPS(UNARY_ENTRY, f32)[MT_UNARY_EXP] = f32_exp_wide,
                    [MT_UNARY_SIN] = f32_sin_two_pass},
    [MT_FLOAT64] = {MT_UNARY_FLOAT_OPS(UNARY_ENTRY, f64)},
};

/* ---- float16 and bfloat16 dense runs: converted, computed and rounded in registers ---------------- */

/* A float16 or bfloat16 op whose operands and result share the 16-bit dtype and lie dense (or one of a
 * binary op's operands is a broadcast number) runs here instead of through the block buffers: each group
 * of W elements is converted to float32 in vector registers (F16C's or AVX-512's conversion instructions
 * for float16, a 16-bit shift for bfloat16), computed by the op's float32 function from op_math.h, and
 * rounded back as mt_float_to_half/mt_float_to_bfloat16 round (to nearest even; a NaN becomes c10's
 * quiet NaN, which the instruction would not give, so groups holding one are rounded by the scalar
 * function). The values are those of the block path, element for element; only the passes over memory
 * go. Compiled for AVX-512 (W = 16) and for AVX2 with F16C (W = 8); CPUs with neither take the block
 * path. */
#ifdef MT_CPU_CLONES
/* a fused loop: see R16_FN */
typedef void (*r16_fn)(mt_dtype d, uint16_t *o, const uint16_t *a, const uint16_t *b, int64_t sa, int64_t sb,
                       int64_t n, float alpha, float a0, float b0);

/* o[i] = EXPR(x = a[i], y = b[i]) over n elements, sa and sb 1 (dense) or 0 (a broadcast number, given as a0 or
 * b0: an element of the dtype, or a float32 number as mul and div read one): a block of
 * R16_BLOCK elements at a time is converted W at a time with ISA's instructions into stack buffers (in L1),
 * computed by a loop the compiler vectorises, and rounded back W at a time; the last n % W elements by the
 * scalar conversions. The body is instantiated for each dtype (the conversions are chosen outside the
 * loops). `alpha` is add's. A unary op is the same loop with EXPR of x alone (b is a, sb 0). */
#define R16_BLOCK 256
#define R16_FN(NAME, ISA, W, EXPR)                                                          \
    __attribute__((target(R16_##ISA), always_inline)) static inline void NAME##_body(              \
        const mt_dtype d, uint16_t *o, const uint16_t *a, const uint16_t *b, int64_t sa, int64_t sb, \
        int64_t n, float alpha, float a0, float b0)                                                \
    {                                                                                              \
        float xs[R16_BLOCK], ys[R16_BLOCK], rs[R16_BLOCK];                                         \
        int64_t i = 0;                                                                             \
        (void)alpha;                                                                               \
        for (int k = 0; k < R16_BLOCK; k++) {                                                      \
            xs[k] = a0;                                                                            \
            ys[k] = b0;                                                                            \
        }                                                                                          \
        while (i + W <= n) {                                                                       \
            const int64_t m = (n - i) / W * W < R16_BLOCK ? (n - i) / W * W : R16_BLOCK;           \
            for (int64_t k = 0; sa && k < m; k += W) {                                             \
                r16_load_##ISA(d, xs + k, a + i + k);                                              \
            }                                                                                      \
            for (int64_t k = 0; sb && k < m; k += W) {                                             \
                r16_load_##ISA(d, ys + k, b + i + k);                                              \
            }                                                                                      \
            for (int64_t k = 0; k < m; k++) {                                                      \
                const float x = xs[k], y = ys[k];                                                  \
                (void)y;                                                                           \
                rs[k] = (EXPR);                                                                    \
            }                                                                                      \
            for (int64_t k = 0; k < m; k += W) {                                                   \
                r16_store_##ISA(d, o + i + k, rs + k);                                             \
            }                                                                                      \
            i += m;                                                                                \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            const float x = sa ? mt_reduced_to_float(d, a[i]) : a0;                                \
            const float y = sb ? mt_reduced_to_float(d, b[i]) : b0;                                \
            (void)y;                                                                               \
            o[i] = mt_float_to_reduced(d, (EXPR));                                                 \
        }                                                                                          \
    }                                                                                              \
    __attribute__((target(R16_##ISA))) static void NAME(mt_dtype d, uint16_t *o, const uint16_t *a,  \
                                                        const uint16_t *b, int64_t sa, int64_t sb,  \
                                                        int64_t n, float alpha, float a0, float b0) \
    {                                                                                              \
        if (d == MT_FLOAT16) {                                                                     \
            NAME##_body(MT_FLOAT16, o, a, b, sa, sb, n, alpha, a0, b0);                            \
        }                                                                                          \
        else {                                                                                     \
            NAME##_body(MT_BFLOAT16, o, a, b, sa, sb, n, alpha, a0, b0);                           \
        }                                                                                          \
    }

/* The ops with a fused loop: the arithmetic a training step runs most (sub is add with alpha -1), and the
 * unary ops of activations. Each EXPR is the float32 function the block path runs for the op (exp: the
 * vector exp of f32_exp_to_reduced). */
#define R16_BINARY_OPS(X) X(ADD, mt_add_f32(x, y, alpha)) X(MUL, mt_mul_f32(x, y)) X(DIV, mt_div_f32(x, y))
#define R16_UNARY_OPS(X)                                                                           \
    X(RELU, mt_relu_f32(x)) X(NEG, mt_neg_f32(x)) X(ABS, mt_abs_f32(x)) X(EXP, mt_vexp_f32(x))       \
    X(SQRT, mt_sqrt_f32(x))

#define R16_BINARY_DEFS(OP, EXPR) R16_FN(r16_##OP##_v4, V4, 16, EXPR) R16_FN(r16_##OP##_v3, V3, 8, EXPR)
#define R16_UNARY_DEFS(OP, EXPR) R16_FN(r16u_##OP##_v4, V4, 16, EXPR) R16_FN(r16u_##OP##_v3, V3, 8, EXPR)
R16_BINARY_OPS(R16_BINARY_DEFS)
R16_UNARY_OPS(R16_UNARY_DEFS)

#define R16_BINARY_V4(OP, EXPR) [MT_BINARY_##OP] = r16_##OP##_v4,
#define R16_BINARY_V3(OP, EXPR) [MT_BINARY_##OP] = r16_##OP##_v3,
#define R16_UNARY_V4(OP, EXPR) [MT_UNARY_##OP] = r16u_##OP##_v4,
#define R16_UNARY_V3(OP, EXPR) [MT_UNARY_##OP] = r16u_##OP##_v3,
static const r16_fn r16_binary_table[2][MT_BINARY_NUM_OPS] = {
    {R16_BINARY_OPS(R16_BINARY_V4)}, {R16_BINARY_OPS(R16_BINARY_V3)}};
static const r16_fn r16_unary_table[2][MT_UNARY_NUM_OPS] = {
    {R16_UNARY_OPS(R16_UNARY_V4)}, {R16_UNARY_OPS(R16_UNARY_V3)}};

/* 0: AVX-512's table, 1: AVX2's, -1: neither (the block path) */
static int
r16_isa(void)
{
    mt_cpu_isa level = mt_cpu_isa_level();
    return level == MT_CPU_ISA_AVX512 ? 0 : level == MT_CPU_ISA_AVX2 ? 1 : -1;
}

/* the fused loop for a binary or unary op whose result and operands are of one 16-bit dtype (a binary op's
 * operand may be a float32 number instead: binary_loop checks that it is broadcast), or NULL */
static r16_fn
r16_binary_for(mt_binary_op op, mt_dtype compute, mt_dtype a, mt_dtype b, mt_dtype out)
{
    int isa = r16_isa();
    if (isa < 0 || compute != MT_FLOAT32 || !mt_dtype_is_reduced_floating(out) || (a != out && a != MT_FLOAT32) ||
        (b != out && b != MT_FLOAT32) || (a == MT_FLOAT32 && b == MT_FLOAT32)) {
        return NULL;
    }
    return r16_binary_table[isa][op];
}

/* a broadcast operand's value as the fused loops take it */
static float
r16_scalar(mt_dtype dtype, const char *p)
{
    return dtype == MT_FLOAT32 ? *(const float *)p : mt_reduced_to_float(dtype, *(const uint16_t *)p);
}

static r16_fn
r16_unary_for(mt_unary_op op, mt_dtype compute, mt_dtype in, mt_dtype out)
{
    int isa = r16_isa();
    if (isa < 0 || compute != MT_FLOAT32 || !mt_dtype_is_reduced_floating(out) || in != out) {
        return NULL;
    }
    return r16_unary_table[isa][op];
}
#endif

/* ---- drivers: block-wise conversion of operands of another dtype ---------------------------------- */

typedef union {
    double d[BLOCK];
    int64_t i[BLOCK];
} block_buffer;

typedef struct {
    binary_inner_fn fn;
    const mt_binary_kernel_args *args;
    mt_dtype natural_out;
    int convert;            /* any operand needs converting */
#ifdef MT_CPU_CLONES
    r16_fn r16;             /* the fused 16-bit loop for the op, or NULL */
#endif
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
#ifdef MT_CPU_CLONES
    if (ctx->r16 != NULL && strides[0] == 2 && (strides[1] == 0 || (strides[1] == 2 && args->a_dtype != MT_FLOAT32)) &&
        (strides[2] == 0 || (strides[2] == 2 && args->b_dtype != MT_FLOAT32))) {
        const float a0 = strides[1] == 0 ? r16_scalar(args->a_dtype, data[1]) : 0.0f;
        const float b0 = strides[2] == 0 ? r16_scalar(args->b_dtype, data[2]) : 0.0f;
        ctx->r16(args->out_dtype, (uint16_t *)data[0], (const uint16_t *)data[1], (const uint16_t *)data[2],
                 strides[1] / 2, strides[2] / 2, n, (float)args->alpha.d, a0, b0);
        return;
    }
#endif
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

/* logaddexp and logaddexp2 of two float16 (or two bfloat16) operands as torch's kernel for these dtypes
 * computes them: in float, SLEEF's functions on the whole pairs of vectors of the 16-bit dtype (twice as
 * many elements as float's) of a contiguous run, the C library's on the rest (the float loop's choices
 * otherwise), each result rounded to the 16-bit dtype (and then converted to another output dtype). */
EW_CLONES static void
r16_logaddexp_loop(char **data, const int64_t *strides, int64_t n, void *vctx)
{
    const mt_binary_kernel_args *args = ((const binary_ctx *)vctx)->args;
    const mt_dtype r = args->a_dtype;
    const int64_t so = strides[0], sa = strides[1], sb = strides[2];
    const int64_t nvec = torch_vector_elements(n, 2,
                                               so == (int64_t)mt_dtype_size(args->out_dtype) &&
                                                   (sa == 2 || sa == 0) && (sb == 2 || sb == 0) && sa + sb > 0);
    const int two = args->op == MT_BINARY_LOGADDEXP2, fused = mt_cpu_torch_vector_bytes() > 0;

    for (int64_t i = 0; i < n; i++) {
        const float x = mt_reduced_to_float(r, *(const uint16_t *)(data[1] + i * sa));
        const float y = mt_reduced_to_float(r, *(const uint16_t *)(data[2] + i * sb));
        const uint16_t v = mt_float_to_reduced(
            r, i < nvec ? (two ? mt_logaddexp2_vec_f32(x, y) : mt_logaddexp_vec_f32(x, y))
                        : (!two ? mt_logaddexp_f32(x, y)
                                : fused ? mt_logaddexp2_fused_f32(x, y) : mt_logaddexp2_f32(x, y)));
        if (args->out_dtype == r) {
            *(uint16_t *)(data[0] + i * so) = v;
        }
        else {
            mt_cpu_cast(data[0] + i * so, args->out_dtype, 0, (const char *)&v, r, 0, 1);
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
#ifdef MT_CPU_CLONES
    ctx.r16 = r16_binary_for(args->op, args->dtype, args->a_dtype, args->b_dtype, args->out_dtype);
#endif
    if (ctx.fn == NULL) {
        return;
    }
    if (mt_dtype_is_reduced_floating(args->out_dtype)) {
        if (args->op == MT_BINARY_SPECIAL_XLOG1PY) {
            ctx.fn = f32_xlog1py_of_reduced;
        }
        else if (args->op == MT_BINARY_XLOGY) {
            ctx.fn = f32_xlogy_of_reduced;
        }
        else if (args->op == MT_BINARY_FLOOR_DIVIDE && args->dtype == MT_FLOAT32 && !args->scalar_b) {
            ctx.fn = f32_floor_divide_of_reduced;
        }
    }
    if (logaddexp_as_torch_for(args) != NULL || logaddexp_is_reduced(args)) {
        ctx.fn = logaddexp_as_torch_for(args);
        mt_iter_run_parallel_as_torch(it, ctx.fn != NULL ? binary_loop : r16_logaddexp_loop, &ctx);
        return;
    }
    if (args->op == MT_BINARY_POW && args->dtype == MT_FLOAT32 && args->pow_by_number) {
        ctx.fn = f32_pow_number_as_torch;
        mt_iter_run_parallel_as_torch(it, binary_loop, &ctx);
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
    if (logaddexp_as_torch_for(args) != NULL) {
        fn = logaddexp_as_torch_for(args);
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
#ifdef MT_CPU_CLONES
    r16_fn r16;             /* the fused 16-bit loop for the op, or NULL */
#endif
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
#ifdef MT_CPU_CLONES
    if (ctx->r16 != NULL && strides[0] == 2 && strides[1] == 2) {
        ctx->r16(args->out_dtype, (uint16_t *)data[0], (const uint16_t *)data[1], (const uint16_t *)data[1], 1, 0,
                 n, 1.0f, 0.0f, 0.0f);
        return;
    }
#endif
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
#ifdef MT_CPU_CLONES
    ctx.r16 = r16_unary_for(args->op, args->dtype, args->in_dtype, args->out_dtype);
#endif
    if (args->op == MT_UNARY_SIGMOID && (args->dtype == MT_FLOAT32 || args->dtype == MT_FLOAT64)) {
        ctx.fn = args->dtype == MT_FLOAT32 ? f32_sigmoid_as_torch : f64_sigmoid_as_torch;
        mt_iter_run_parallel_as_torch(it, unary_loop, &ctx);
        return;
    }
    if (ctx.fn == NULL) {
        return;
    }
    if (args->op == MT_UNARY_SPECIAL_ENTR && mt_dtype_is_reduced_floating(args->out_dtype)) {
        ctx.fn = args->out_dtype == MT_FLOAT16 ? f32_entr_of_half : f32_entr_of_bfloat16;
    }
    if (args->op == MT_UNARY_LOGIT && mt_dtype_is_reduced_floating(args->out_dtype) && args->in_dtype == args->out_dtype) {
        ctx.fn = args->out_dtype == MT_FLOAT16 ? f32_logit_of_half : f32_logit_of_bfloat16;
    }
    if (args->op == MT_UNARY_EXP && args->dtype == MT_FLOAT32 && mt_dtype_is_reduced_floating(args->in_dtype) &&
        args->out_dtype == args->in_dtype) {
        ctx.fn = f32_exp_to_reduced;
    }
#if defined(MT_SQRT_AS_MKL) && defined(MT_CPU_CLONES)
    /* float16 and bfloat16 do not go through MKL: their float32 sqrt is the correctly rounded one */
    if (args->op == MT_UNARY_SQRT && (args->dtype == MT_FLOAT32 || args->dtype == MT_FLOAT64) && args->torch_cpu &&
        !mt_dtype_is_reduced_floating(args->in_dtype) && mt_cpu_mkl_generic()) {
        ctx.fn = args->dtype == MT_FLOAT32 ? f32_sqrt_as_mkl : f64_sqrt_as_mkl;
    }
#endif
    mt_iter_run_parallel(it, unary_loop, &ctx);
}

/* ---- the SGD step: torch.optim.SGD's sequence of ops, one pass over the memory ------------------- */

/* torch's single-tensor SGD runs up to five ops over a parameter (neg, add, mul_, add_, add_), each a pass
 * over the memory. Here one loop runs them all on each element in turn, in torch's order and each with
 * op_math.h's function for that op (the same roundings, so the same bits), and reads the buffer and the
 * parameter after the op before wrote them, as torch's next op does (a parameter that is a view of the
 * same elements as its buffer gets torch's values too). The options are constants in each contiguous loop
 * (one loop per combination), which the compiler vectorises without a branch inside; other strides take
 * one loop that tests them. The numbers are converted to the dtype as torch's ops convert them (from
 * double, to nearest), 1 - dampening and -lr computed in double first, as Python computes them. */
#define SGD_ELEMENT(S, IP, IG, IB, MAXIMIZE, DECAY, MOMENTUM, NESTEROV)                            \
    do {                                                                                           \
        ctype_##S g_ = grad[IG];                                                                   \
        if (MAXIMIZE) {                                                                            \
            g_ = mt_neg_##S(g_);                                                                   \
        }                                                                                          \
        if (DECAY) {                                                                               \
            g_ = mt_add_##S(g_, param[IP], weight_decay);                                          \
        }                                                                                          \
        if (MOMENTUM) {                                                                            \
            buf[IB] = mt_add_##S(mt_mul_##S(buf[IB], momentum), g_, dampened);                     \
            g_ = (NESTEROV) ? mt_add_##S(g_, buf[IB], momentum) : buf[IB];                         \
        }                                                                                          \
        param[IP] = mt_add_##S(param[IP], g_, neg_lr);                                             \
    } while (0)

#define SGD_CONTIGUOUS(S, MAXIMIZE, DECAY, MOMENTUM, NESTEROV)                                     \
    for (int64_t i = 0; i < n; i++) {                                                              \
        SGD_ELEMENT(S, i, i, i, MAXIMIZE, DECAY, MOMENTUM, NESTEROV);                              \
    }                                                                                              \
    break

/* case (maximize | decay << 1 | momentum << 2 | nesterov << 3): nesterov comes with momentum */
#define SGD_CASES(S, MAXIMIZE)                                                                     \
    case (MAXIMIZE) | 0: SGD_CONTIGUOUS(S, MAXIMIZE, 0, 0, 0);                                     \
    case (MAXIMIZE) | 2: SGD_CONTIGUOUS(S, MAXIMIZE, 1, 0, 0);                                     \
    case (MAXIMIZE) | 4: SGD_CONTIGUOUS(S, MAXIMIZE, 0, 1, 0);                                     \
    case (MAXIMIZE) | 6: SGD_CONTIGUOUS(S, MAXIMIZE, 1, 1, 0);                                     \
    case (MAXIMIZE) | 12: SGD_CONTIGUOUS(S, MAXIMIZE, 0, 1, 1);                                    \
    case (MAXIMIZE) | 14: SGD_CONTIGUOUS(S, MAXIMIZE, 1, 1, 1)

#define SGD_STEP_FN(S)                                                                             \
    EW_CLONES static void S##_sgd_step(char **data, const int64_t *strides, int64_t n, void *vargs) \
    {                                                                                              \
        const mt_sgd_step_args *args = vargs;                                                      \
        const int decay = args->weight_decay != 0.0, has_momentum = args->momentum != 0.0;        \
        const int nesterov = has_momentum && args->nesterov, maximize = args->maximize != 0;      \
        const ctype_##S weight_decay = (ctype_##S)args->weight_decay;                              \
        const ctype_##S momentum = (ctype_##S)args->momentum;                                      \
        const ctype_##S dampened = (ctype_##S)(1.0 - args->dampening);                             \
        const ctype_##S neg_lr = (ctype_##S)(-args->lr);                                           \
        const int64_t size = (int64_t)sizeof(ctype_##S);                                           \
        const int64_t sp = strides[0] / size, sg = strides[1] / size;                              \
        const int64_t sb = has_momentum ? strides[2] / size : 0;                                   \
        ctype_##S *param = (ctype_##S *)data[0];                                                   \
        const ctype_##S *grad = (const ctype_##S *)data[1];                                        \
        ctype_##S *buf = has_momentum ? (ctype_##S *)data[2] : NULL;                               \
        if (sp == 1 && sg == 1 && (sb == 1 || !has_momentum)) {                                    \
            switch (maximize | decay << 1 | has_momentum << 2 | nesterov << 3) {                   \
                SGD_CASES(S, 0);                                                                   \
                SGD_CASES(S, 1);                                                                   \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            SGD_ELEMENT(S, i * sp, i * sg, i * sb, maximize, decay, has_momentum, nesterov);       \
        }                                                                                          \
    }

SGD_STEP_FN(f32)
SGD_STEP_FN(f64)

void
mt_cpu_sgd_step(const mt_iter *it, const mt_sgd_step_args *args)
{
    mt_iter_run_parallel(it, args->dtype == MT_FLOAT32 ? f32_sgd_step : f64_sgd_step, (void *)args);
}

/* ---- fma: a * b + c rounded once (mt_muladd) ------------------------------------------------------- */

#define MULADD_FN(S, T)                                                                            \
    EW_CLONES static void S##_muladd(char **data, const int64_t *strides, int64_t n, void *ctx)   \
    {                                                                                              \
        (void)ctx;                                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T a = *(const T *)(data[1] + i * strides[1]), b = *(const T *)(data[2] + i * strides[2]); \
            T c = *(const T *)(data[3] + i * strides[3]);                                          \
            *(T *)(data[0] + i * strides[0]) = mt_muladd_##S(a, b, c);                             \
        }                                                                                          \
    }

MULADD_FN(f32, float)
MULADD_FN(f64, double)

void
mt_cpu_fma(const mt_iter *it, mt_dtype dtype)
{
    mt_iter_run_parallel(it, dtype == MT_FLOAT32 ? f32_muladd : f64_muladd, NULL);
}

/* ---- where: a selection of bits, any dtype of one element size ------------------------------------- */

/* Both operands are read and one kept without a branch on the condition (a branch per element is
 * mispredicted half the time on a random mask); dense operands (or a broadcast number) get a loop the
 * compiler vectorises. */
#define WHERE_FN(NAME, U)                                                                          \
    EW_CLONES static void NAME(char **data, const int64_t *strides, int64_t n, void *ctx)         \
    {                                                                                              \
        (void)ctx;                                                                                 \
        if (strides[0] == sizeof(U) && strides[1] == 1 && (strides[2] == sizeof(U) || strides[2] == 0) && \
            (strides[3] == sizeof(U) || strides[3] == 0)) {                                        \
            U *restrict o = (U *)data[0];                                                          \
            const uint8_t *restrict c = (const uint8_t *)data[1];                                  \
            const U *a = (const U *)data[2], *b = (const U *)data[3];                              \
            const int64_t sa = strides[2] / (int64_t)sizeof(U), sb = strides[3] / (int64_t)sizeof(U); \
            for (int64_t i = 0; i < n; i++) {                                                      \
                U x = a[i * sa], y = b[i * sb];                                                    \
                o[i] = c[i] ? x : y;                                                               \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            U x = *(const U *)(data[2] + i * strides[2]), y = *(const U *)(data[3] + i * strides[3]); \
            *(U *)(data[0] + i * strides[0]) = *(const uint8_t *)(data[1] + i * strides[1]) ? x : y; \
        }                                                                                          \
    }

WHERE_FN(where_1, uint8_t)
WHERE_FN(where_2, uint16_t)
WHERE_FN(where_4, uint32_t)
WHERE_FN(where_8, uint64_t)

void
mt_cpu_where(const mt_iter *it, int itemsize)
{
    mt_iter_run_parallel(it, itemsize == 1 ? where_1 : itemsize == 2 ? where_2 : itemsize == 4 ? where_4 : where_8,
                         NULL);
}
