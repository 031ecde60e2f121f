/* op_math.h: what each elementwise and reduction op computes on one element, written once for the
 * host kernels (kernels/cpu/) and the CUDA kernels (kernels/cuda/kernels.cu): the op enums, and one
 * MT_HD static inline function per op and C type (the pattern philox.h uses), with torch's semantics:
 *
 *   - integers wrap around on overflow: the arithmetic is done in the unsigned type of the same width
 *     (so it is defined behaviour in C), as torch's results wrap;
 *   - add with alpha is a + alpha * b; for float and double, one fused multiply-add when alpha != 1,
 *     as torch's vectorised CPU kernel rounds it (alpha 1 is a plain sum, which is the same value);
 *   - bool arithmetic is C++'s on 0/1 values: a + alpha * b is "or", a * b and min are "and", max "or";
 *   - maximum/minimum propagate a NaN from either side; relu keeps NaN and -0.0 (x < 0 ? 0 : x);
 *   - integer neg and abs wrap (the most negative value stays itself);
 *   - bitwise ops: bool's are the logical ones on 0/1; shifts are torch's CPU kernels' (a negative
 *     amount or one of at least the width gives 0 for <<, the sign fill for >>; << is done unsigned);
 *   - logical ops and the predicates (isnan, isinf, ...) treat any nonzero value, NaN included, as
 *     true; the predicates return 1 or 0 in their input's type, stored converted (bool, or in place
 *     the input's dtype);
 *   - reductions: sums wrap for integers; max/min/argmax/argmin let a NaN win, and ties keep the
 *     element seen first (the running max/min of the host kernels lets a later equal value win, which
 *     is what torch's CPU max() gives for signed zeros).
 *
 * The families of functions are named by the dtype suffixes of core/scalar_type.h (mt_add_f32, ...);
 * mt_binary_<sfx>, mt_compare_<sfx> and mt_unary_<sfx> select an op at run time (the CUDA kernels
 * keep one kernel per dtype, the op a runtime switch, to limit instantiations per architecture), and
 * the host kernels instantiate one loop per (op, dtype) from the same lists. C++ sees every function
 * also as one overloaded name (mt_binary, mt_sum, ...), so templates over the element type can call
 * them. This file must not include Python or CUDA headers, hold state or loop over memory: kernels own
 * the loops, the memory access and the dtype conversions. The build is ISO C (no contraction of a
 * multiply into an add), so each function rounds as written on both sides. */
#ifndef MT_KERNELS_OP_MATH_H
#define MT_KERNELS_OP_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core/scalar_type.h"

/* ---- the ops ------------------------------------------------------------------------------------- */

typedef enum {
    MT_BINARY_ADD = 0,      /* out = a + alpha * b (alpha in the compute dtype) */
    MT_BINARY_SUB,          /* out = a - b (sub with alpha != 1 is ADD with -alpha, as in torch) */
    MT_BINARY_MUL,
    MT_BINARY_DIV,          /* floating dtypes only */
    MT_BINARY_MAXIMUM,      /* NaN-propagating, like torch.maximum */
    MT_BINARY_MINIMUM,
    MT_BINARY_POW,          /* int and floating dtypes: torch's powi for integers, pow for floats */
    MT_BINARY_FMOD,         /* int and floating dtypes: C's % and fmod */
    MT_BINARY_REMAINDER,    /* int and floating dtypes: Python's %, the sign of the divisor */
    MT_BINARY_FLOOR_DIVIDE, /* int and floating dtypes: Python's // */
    MT_BINARY_ATAN2,        /* floating dtypes only (integer and bool inputs computed in the default float dtype) */
    MT_BINARY_XLOGY,        /* x * log(y), 0 where x is 0 (y not NaN); as atan2 */
    MT_BINARY_COPYSIGN,     /* |x| with y's sign bit; as atan2 */
    MT_BINARY_HYPOT,        /* floating dtypes only (torch has no integer kernel: an error) */
    MT_BINARY_LOGADDEXP,    /* log(exp(x) + exp(y)), as torch's CPU kernel; as hypot */
    MT_BINARY_LOGADDEXP2,   /* log2(2^x + 2^y); as hypot */
    MT_BINARY_FMAX,         /* every dtype: the C library's fmax/fmin (a NaN loses), max/min otherwise */
    MT_BINARY_FMIN,
    MT_BINARY_HEAVISIDE,    /* every dtype: other where x is 0, else x > 0 (the op layer wants one dtype) */
    MT_BINARY_NEXTAFTER,    /* floating dtypes only (an error for the others, as hypot) */
    MT_BINARY_NEXTAFTER_HALF,     /* the kernels' nextafter of float16 (bfloat16) values widened to float: */
    MT_BINARY_NEXTAFTER_BFLOAT16, /* the next value of that dtype (the op layer picks these for NEXTAFTER) */
    MT_BINARY_GCD,          /* integer dtypes only (torch's dispatch error for floating and bool) */
    MT_BINARY_LCM,
    MT_BINARY_SPECIAL_XLOG1PY, /* x * log1p(y), 0 where x is 0 (y not NaN); as atan2 */
    MT_BINARY_SPECIAL_ZETA, /* the Hurwitz zeta function; as atan2 */
    MT_BINARY_BITWISE_AND,  /* bool and integer dtypes: &, |, ^ */
    MT_BINARY_BITWISE_OR,
    MT_BINARY_BITWISE_XOR,
    MT_BINARY_LSHIFT,       /* integer dtypes only: torch's CPU shifts (an amount outside the width: 0) */
    MT_BINARY_RSHIFT,       /* (an amount outside the width: the sign fill) */
    MT_BINARY_EQ,           /* comparisons and logical ops: bool output */
    MT_BINARY_NE,
    MT_BINARY_LT,
    MT_BINARY_LE,
    MT_BINARY_GT,
    MT_BINARY_GE,
    MT_BINARY_LOGICAL_AND,  /* every dtype: x != 0 and y != 0 (a NaN is true) */
    MT_BINARY_LOGICAL_OR,
    MT_BINARY_LOGICAL_XOR,
    MT_BINARY_NUM_OPS
} mt_binary_op;

#define MT_BINARY_IS_COMPARISON(op) ((op) >= MT_BINARY_EQ)
/* the ops computed in a floating dtype whose integer and bool inputs promote to the default float dtype
 * (torch's int-to-float rule), and those that have floating kernels only (torch's dispatch error) */
#define MT_BINARY_PROMOTES_TO_FLOAT(op)                                                            \
    ((op) == MT_BINARY_DIV || (op) == MT_BINARY_ATAN2 || (op) == MT_BINARY_XLOGY || (op) == MT_BINARY_COPYSIGN || \
     (op) == MT_BINARY_SPECIAL_XLOG1PY || (op) == MT_BINARY_SPECIAL_ZETA)
#define MT_BINARY_IS_FLOAT_ONLY(op)                                                                \
    (((op) >= MT_BINARY_HYPOT && (op) <= MT_BINARY_LOGADDEXP2) || (op) == MT_BINARY_NEXTAFTER)
#define MT_BINARY_IS_INTEGER_ONLY(op) ((op) == MT_BINARY_GCD || (op) == MT_BINARY_LCM)

/* The unary ops, in two lists (X(OP, name, S) for MT_UNARY_OP and mt_name_S, S a dtype suffix): those
 * with integer kernels (on floats too), then those computed in a floating dtype only, whose integer and
 * bool inputs the op layer promotes to the default float dtype (torch's int-to-float rule). The enum is
 * their concatenation, so a new op is one X(...) entry here and its element function below. */
#define MT_LIBM_ROUNDING_OPS(X, S) X(FLOOR, floor, S) X(CEIL, ceil, S) X(TRUNC, trunc, S)
#define MT_ROUNDING_OPS(X, S) MT_LIBM_ROUNDING_OPS(X, S) X(ROUND, round, S)
#define MT_UNARY_INT_OPS(X, S)                                                                     \
    X(NEG, neg, S) X(ABS, abs, S) X(RELU, relu, S) X(SQUARE, square, S) X(SIGN, sign, S)           \
    X(SGN, sgn, S)                                                                                 \
    MT_ROUNDING_OPS(X, S)
/* float-only ops whose element function is the C library's function of the same name (sinf, sin), and
 * those the host computes with the C library's function of the next wider type (see below) */
#define MT_UNARY_LIBM_PLAIN_OPS(X, S)                                                              \
    X(LOG, log, S) X(SQRT, sqrt, S) X(COS, cos, S) X(TAN, tan, S) X(ASIN, asin, S)                 \
    X(ACOS, acos, S) X(ATAN, atan, S) X(COSH, cosh, S) X(ASINH, asinh, S) X(ACOSH, acosh, S)       \
    X(EXP2, exp2, S) X(EXPM1, expm1, S) X(LOG2, log2, S) X(LOG1P, log1p, S) X(ERF, erf, S)
/* of those, the ones a float32 takes on the host in a form the compiler vectorises (below) */
#define MT_UNARY_LIBM_VEC_OPS(X, S) X(EXP, exp, S) X(SIN, sin, S)
#define MT_UNARY_LIBM_SAME_OPS(X, S) MT_UNARY_LIBM_VEC_OPS(X, S) MT_UNARY_LIBM_PLAIN_OPS(X, S)
#define MT_UNARY_LIBM_WIDE_OPS(X, S)                                                               \
    X(SINH, sinh, S) X(TANH, tanh, S) X(ATANH, atanh, S) X(LOG10, log10, S) X(ERFC, erfc, S)
#define MT_UNARY_LIBM_OPS(X, S) MT_UNARY_LIBM_SAME_OPS(X, S) MT_UNARY_LIBM_WIDE_OPS(X, S)
/* float-only ops with a definition of their own (below) */
#define MT_UNARY_OWN_FLOAT_OPS(X, S)                                                               \
    X(RECIPROCAL, reciprocal, S) X(SIGMOID, sigmoid, S) X(RSQRT, rsqrt, S) X(ERFINV, erfinv, S)    \
    X(FRAC, frac, S) X(DEG2RAD, deg2rad, S) X(RAD2DEG, rad2deg, S) X(SINC, sinc, S)                \
    X(LOGIT, logit, S) X(LGAMMA, lgamma, S) X(DIGAMMA, digamma, S) X(TRIGAMMA, trigamma, S)       \
    MT_UNARY_SPECIAL_OPS(X, S)
/* of those, the special functions of special_math.h (torch's names: special_i0e is torch.special.i0e) */
#define MT_UNARY_SPECIAL_OPS(X, S)                                                                 \
    X(I0, i0, S) X(SPECIAL_I0E, special_i0e, S) X(SPECIAL_I1, special_i1, S)                       \
    X(SPECIAL_I1E, special_i1e, S) X(SPECIAL_NDTRI, special_ndtri, S)                              \
    X(SPECIAL_LOG_NDTR, special_log_ndtr, S) X(SPECIAL_ERFCX, special_erfcx, S)                    \
    X(SPECIAL_ENTR, special_entr, S)
#define MT_UNARY_FLOAT_ONLY_OPS(X, S) MT_UNARY_LIBM_OPS(X, S) MT_UNARY_OWN_FLOAT_OPS(X, S)
/* bool and integer dtypes only (a floating input is torch's "not implemented" error) */
#define MT_UNARY_BITS_OPS(X, S) X(BITWISE_NOT, bitwise_not, S)
/* every dtype, computed in the input's: 1 or 0 in that dtype, which the output (bool, or self's dtype in
 * place) takes converted */
#define MT_UNARY_PREDICATE_OPS(X, S)                                                               \
    X(LOGICAL_NOT, logical_not, S) X(ISNAN, isnan, S) X(ISINF, isinf, S) X(ISFINITE, isfinite, S)  \
    X(ISPOSINF, isposinf, S) X(ISNEGINF, isneginf, S) X(ISREAL, isreal, S) X(SIGNBIT, signbit, S)

#define MT_UNARY_ENUM_(OP, name, S) MT_UNARY_##OP,
#define MT_COUNT_(OP, name, S) +1

typedef enum {
    MT_UNARY_INT_OPS(MT_UNARY_ENUM_, _)
    MT_UNARY_FLOAT_ONLY_OPS(MT_UNARY_ENUM_, _)
    MT_UNARY_BITS_OPS(MT_UNARY_ENUM_, _)
    MT_UNARY_PREDICATE_OPS(MT_UNARY_ENUM_, _)
    MT_UNARY_NUM_OPS
} mt_unary_op;

/* the float-only ops are the enum's second group, the predicates its last */
#define MT_UNARY_NUM_INT_OPS (0 MT_UNARY_INT_OPS(MT_COUNT_, _))
#define MT_UNARY_IS_FLOAT_ONLY(op)                                                                 \
    ((int)(op) >= MT_UNARY_NUM_INT_OPS && (int)(op) < MT_UNARY_BITWISE_NOT)
#define MT_UNARY_IS_PREDICATE(op) ((int)(op) >= MT_UNARY_LOGICAL_NOT)

typedef enum {
    MT_REDUCE_SUM = 0,      /* out dtype == in dtype (the op layer casts first) */
    MT_REDUCE_MAX,          /* same dtype; NaN propagates; needs at least one element */
    MT_REDUCE_MIN,
    MT_REDUCE_ALL,          /* bool out, any in dtype */
    MT_REDUCE_ANY,
    MT_REDUCE_ARGMAX,       /* int64 indices (and optionally the values): the arg_reduce kernels */
    MT_REDUCE_ARGMIN
} mt_reduce_op;

/* Which two-operand ops besides ADD (which also takes alpha) and the comparisons each dtype family
 * has, and which unary ops: X(OP, name, S) for MT_BINARY_OP / MT_UNARY_OP and mt_name_S, S a dtype
 * suffix. The op layer promotes or raises before any other combination reaches a kernel. */
#define MT_BINARY_LOGIC_OPS(X, S)                                                                  \
    X(BITWISE_AND, bitwise_and, S) X(BITWISE_OR, bitwise_or, S) X(BITWISE_XOR, bitwise_xor, S)
#define MT_BINARY_BOOL_OPS(X, S)                                                                   \
    X(MUL, mul, S) X(MAXIMUM, maximum, S) X(MINIMUM, minimum, S) X(FMAX, fmax, S) X(FMIN, fmin, S) \
    X(HEAVISIDE, heaviside, S) MT_BINARY_LOGIC_OPS(X, S)
#define MT_BINARY_ARITH_OPS(X, S)                                                                  \
    X(SUB, sub, S) X(MUL, mul, S) X(MAXIMUM, maximum, S) X(MINIMUM, minimum, S) X(POW, pow, S)     \
    X(FMOD, fmod, S) X(REMAINDER, remainder, S) X(FLOOR_DIVIDE, floor_divide, S) X(FMAX, fmax, S)  \
    X(FMIN, fmin, S) X(HEAVISIDE, heaviside, S)
#define MT_BINARY_INT_OPS(X, S)                                                                    \
    MT_BINARY_ARITH_OPS(X, S) MT_BINARY_LOGIC_OPS(X, S) X(LSHIFT, lshift, S) X(RSHIFT, rshift, S)  \
    X(GCD, gcd, S) X(LCM, lcm, S)
#define MT_BINARY_FLOAT_OPS(X, S)                                                                  \
    MT_BINARY_ARITH_OPS(X, S) X(DIV, div, S) X(ATAN2, atan2, S) X(XLOGY, xlogy, S)                 \
    X(COPYSIGN, copysign, S) X(HYPOT, hypot, S) X(LOGADDEXP, logaddexp, S)                         \
    X(LOGADDEXP2, logaddexp2, S) X(NEXTAFTER, nextafter, S) X(SPECIAL_XLOG1PY, special_xlog1py, S)  \
    X(SPECIAL_ZETA, special_zeta, S) X(NEXTAFTER_HALF, nextafter_half, S)                         \
    X(NEXTAFTER_BFLOAT16, nextafter_bfloat16, S)
/* the ops with a bool output, every dtype */
#define MT_COMPARE_OPS(X, S)                                                                       \
    X(EQ, eq, S) X(NE, ne, S) X(LT, lt, S) X(LE, le, S) X(GT, gt, S) X(GE, ge, S)                  \
    X(LOGICAL_AND, logical_and, S) X(LOGICAL_OR, logical_or, S) X(LOGICAL_XOR, logical_xor, S)
/* the unary ops each dtype family has */
#define MT_UNARY_BOOL_OPS(X, S) MT_UNARY_BITS_OPS(X, S) MT_UNARY_PREDICATE_OPS(X, S)
#define MT_UNARY_INTEGER_OPS(X, S) MT_UNARY_INT_OPS(X, S) MT_UNARY_BOOL_OPS(X, S)
#define MT_UNARY_FLOAT_OPS(X, S)                                                                   \
    MT_UNARY_INT_OPS(X, S) MT_UNARY_FLOAT_ONLY_OPS(X, S) MT_UNARY_PREDICATE_OPS(X, S)
/* every unary op, for tables by op */
#define MT_UNARY_ALL_OPS(X, S)                                                                     \
    MT_UNARY_INT_OPS(X, S) MT_UNARY_FLOAT_ONLY_OPS(X, S) MT_UNARY_BOOL_OPS(X, S)
#define MT_NO_OPS(X, S)

/* the cases of the runtime op switches below */
#define MT_BINARY_CASE_(OP, name, S)                                                               \
    case MT_BINARY_##OP:                                                                           \
        return mt_##name##_##S(x, y);
#define MT_UNARY_CASE_(OP, name, S)                                                                \
    case MT_UNARY_##OP:                                                                            \
        return mt_##name##_##S(x);

/* ---- bool ---------------------------------------------------------------------------------------- */

static inline MT_HD uint8_t
mt_add_b8(uint8_t x, uint8_t y, uint8_t alpha)
{
    return (uint8_t)(x | (alpha & y));
}

static inline MT_HD uint8_t
mt_mul_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x & y);
}

static inline MT_HD uint8_t
mt_maximum_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x | y);
}

static inline MT_HD uint8_t
mt_minimum_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x & y);
}

static inline MT_HD uint8_t
mt_fmax_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x | y);
}

static inline MT_HD uint8_t
mt_fmin_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x & y);
}

static inline MT_HD uint8_t
mt_heaviside_b8(uint8_t x, uint8_t y)
{
    return x != 0 ? (uint8_t)1 : y;
}

/* bool's bitwise ops are the logical ones on 0/1 (~True is False) */
static inline MT_HD uint8_t
mt_bitwise_and_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x & y);
}

static inline MT_HD uint8_t
mt_bitwise_or_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x | y);
}

static inline MT_HD uint8_t
mt_bitwise_xor_b8(uint8_t x, uint8_t y)
{
    return (uint8_t)(x ^ y);
}

static inline MT_HD uint8_t
mt_bitwise_not_b8(uint8_t x)
{
    return (uint8_t)!x;
}

/* ---- integers: wrapping arithmetic through the unsigned type U ----------------------------------- */

#define MT_INT_MATH(S, T, U)                                                                       \
    static inline MT_HD T mt_add_##S(T x, T y, T alpha)                                            \
    {                                                                                              \
        return (T)((U)x + (U)alpha * (U)y);                                                        \
    }                                                                                              \
    static inline MT_HD T mt_sub_##S(T x, T y)                                                     \
    {                                                                                              \
        return (T)((U)x - (U)y);                                                                   \
    }                                                                                              \
    static inline MT_HD T mt_mul_##S(T x, T y)                                                     \
    {                                                                                              \
        return (T)((U)x * (U)y);                                                                   \
    }                                                                                              \
    static inline MT_HD T mt_maximum_##S(T x, T y)                                                 \
    {                                                                                              \
        return x > y ? x : y;                                                                      \
    }                                                                                              \
    static inline MT_HD T mt_minimum_##S(T x, T y)                                                 \
    {                                                                                              \
        return x < y ? x : y;                                                                      \
    }                                                                                              \
    static inline MT_HD T mt_fmax_##S(T x, T y) /* no NaN among integers: max and min */           \
    {                                                                                              \
        return x > y ? x : y;                                                                      \
    }                                                                                              \
    static inline MT_HD T mt_fmin_##S(T x, T y)                                                    \
    {                                                                                              \
        return x < y ? x : y;                                                                      \
    }                                                                                              \
    static inline MT_HD T mt_heaviside_##S(T x, T y)                                               \
    {                                                                                              \
        return x == 0 ? y : (T)(x > 0);                                                            \
    }                                                                                              \
    static inline MT_HD T mt_neg_##S(T x)                                                          \
    {                                                                                              \
        return (T)((U)0 - (U)x);                                                                   \
    }                                                                                              \
    static inline MT_HD T mt_abs_##S(T x)                                                          \
    {                                                                                              \
        return (int64_t)x < 0 ? (T)((U)0 - (U)x) : x;                                              \
    }                                                                                              \
    static inline MT_HD T mt_relu_##S(T x)                                                         \
    {                                                                                              \
        return (int64_t)x < 0 ? (T)0 : x;                                                          \
    }                                                                                              \
    static inline MT_HD T mt_square_##S(T x)                                                       \
    {                                                                                              \
        return (T)((U)x * (U)x);                                                                   \
    }                                                                                              \
    /* torch's powi: negative exponents give 0 except for bases 1 and -1 */                        \
    static inline MT_HD T mt_pow_##S(T x, T y)                                                     \
    {                                                                                              \
        U result = 1, base = (U)x;                                                                 \
        if ((int64_t)y < 0) {                                                                      \
            return x == 1 ? (T)1 : (int64_t)x == -1 ? (T)((y & 1) ? -1 : 1) : (T)0;                \
        }                                                                                          \
        while (y) {                                                                                \
            if (y & 1) {                                                                           \
                result *= base;                                                                    \
            }                                                                                      \
            y /= 2;                                                                                \
            base *= base;                                                                          \
        }                                                                                          \
        return (T)result;                                                                          \
    }                                                                                              \
    /* The divisions: a zero divisor gives 0 (the op layer raises torch's ZeroDivisionError for the \
     * CPU first; a GPU does not trap) and -1 wraps, where C's division would trap. */             \
    static inline MT_HD T mt_fmod_##S(T x, T y)                                                    \
    {                                                                                              \
        return (y == 0 || (int64_t)y == -1) ? (T)0 : (T)(x % y);                                   \
    }                                                                                              \
    static inline MT_HD T mt_remainder_##S(T x, T y)                                               \
    {                                                                                              \
        T r = mt_fmod_##S(x, y);                                                                   \
        return (r != 0 && (((int64_t)r < 0) != ((int64_t)y < 0))) ? (T)((U)r + (U)y) : r;          \
    }                                                                                              \
    static inline MT_HD T mt_floor_divide_##S(T x, T y)                                            \
    {                                                                                              \
        T q;                                                                                       \
        if (y == 0 || (int64_t)y == -1) {                                                          \
            return y == 0 ? (T)0 : (T)((U)0 - (U)x);                                               \
        }                                                                                          \
        q = (T)(x / y);                                                                            \
        return (((int64_t)x < 0) != ((int64_t)y < 0) && q * y != x) ? (T)(q - 1) : q;              \
    }                                                                                              \
    static inline MT_HD T mt_sign_##S(T x)                                                         \
    {                                                                                              \
        return (T)((x > 0) - ((int64_t)x < 0));                                                    \
    }                                                                                              \
    static inline MT_HD T mt_sgn_##S(T x) /* sgn is sign for real numbers (it differs for complex) */ \
    {                                                                                              \
        return mt_sign_##S(x);                                                                     \
    }                                                                                              \
    static inline MT_HD T mt_bitwise_and_##S(T x, T y)                                             \
    {                                                                                              \
        return (T)(x & y);                                                                         \
    }                                                                                              \
    static inline MT_HD T mt_bitwise_or_##S(T x, T y)                                              \
    {                                                                                              \
        return (T)(x | y);                                                                         \
    }                                                                                              \
    static inline MT_HD T mt_bitwise_xor_##S(T x, T y)                                             \
    {                                                                                              \
        return (T)(x ^ y);                                                                         \
    }                                                                                              \
    static inline MT_HD T mt_bitwise_not_##S(T x)                                                  \
    {                                                                                              \
        return (T)~x;                                                                              \
    }                                                                                              \
    /* torch's CPU shift kernels: a negative or too wide amount shifts everything out (left: 0;    \
     * right: the sign fill, as a shift by width - 1); the left shift is done unsigned, as torch's */ \
    static inline MT_HD T mt_lshift_##S(T x, T y)                                                  \
    {                                                                                              \
        return ((int64_t)y < 0 || (int64_t)y >= (int64_t)(8 * sizeof(T))) ? (T)0 : (T)((U)x << y); \
    }                                                                                              \
    static inline MT_HD T mt_rshift_##S(T x, T y) /* the widest shift: width - 1, or width unsigned */ \
    {                                                                                              \
        const int max_ = (int)(8 * sizeof(T)) - ((T)-1 < (T)1);                                    \
        return (T)(x >> (((int64_t)y < 0 || (int64_t)y >= max_) ? max_ : (int)y));                 \
    }                                                                                              \
    /* torch's calc_gcd: Euclid on the magnitudes (the most negative value stays itself, as        \
     * torch's abs leaves it); lcm is |a / gcd * b|, 0 when the gcd is */                          \
    static inline MT_HD T mt_gcd_##S(T x, T y)                                                     \
    {                                                                                              \
        T a = mt_abs_##S(x), b = mt_abs_##S(y);                                                    \
        while (a != 0) {                                                                           \
            T c = a;                                                                               \
            a = mt_fmod_##S(b, a);                                                                 \
            b = c;                                                                                 \
        }                                                                                          \
        return b;                                                                                  \
    }                                                                                              \
    static inline MT_HD T mt_lcm_##S(T x, T y)                                                     \
    {                                                                                              \
        T g = mt_gcd_##S(x, y);                                                                    \
        return g == 0 ? (T)0 : mt_abs_##S(mt_mul_##S((T)(x / g), y));                              \
    }

/* rounding an integer is the integer (torch copies the input) */
#define MT_CTYPE_u8 uint8_t
#define MT_CTYPE_i8 int8_t
#define MT_CTYPE_i16 int16_t
#define MT_CTYPE_i32 int32_t
#define MT_CTYPE_i64 int64_t
#define MT_INT_ROUNDING_(OP, name, S)                                                              \
    static inline MT_HD MT_CTYPE_##S mt_##name##_##S(MT_CTYPE_##S x)                               \
    {                                                                                              \
        return x;                                                                                  \
    }

/* the types narrower than int compute in unsigned int (C promotes them to int, where a product could
 * overflow); their results are the low bits, as in the narrow unsigned type */
MT_INT_MATH(u8, uint8_t, unsigned int)
MT_INT_MATH(i8, int8_t, unsigned int)
MT_INT_MATH(i16, int16_t, unsigned int)
MT_INT_MATH(i32, int32_t, uint32_t)
MT_INT_MATH(i64, int64_t, uint64_t)
MT_ROUNDING_OPS(MT_INT_ROUNDING_, u8)
MT_ROUNDING_OPS(MT_INT_ROUNDING_, i8)
MT_ROUNDING_OPS(MT_INT_ROUNDING_, i16)
MT_ROUNDING_OPS(MT_INT_ROUNDING_, i32)
MT_ROUNDING_OPS(MT_INT_ROUNDING_, i64)

/* ---- float and double ---------------------------------------------------------------------------- */

/* nextafter of two float16 or bfloat16 values (d) given as floats: the neighbour of x towards y in d, as
 * c10's nextafter of those types steps the 16-bit pattern (musl's algorithm): a NaN gives x + y, equal
 * patterns x, from a zero the smallest subnormal with y's sign (y itself when both are zeros). */
static inline MT_HD float
mt_nextafter_reduced(mt_dtype d, float x, float y)
{
    uint16_t from, to, mag_from, mag_to;

    if (x != x || y != y) {
        return x + y;
    }
    from = mt_float_to_reduced(d, x);
    to = mt_float_to_reduced(d, y);
    if (from == to) {
        return x;
    }
    mag_from = (uint16_t)(from & 0x7fffu);
    mag_to = (uint16_t)(to & 0x7fffu);
    if (mag_from == 0) {
        if (mag_to == 0) {
            return y;
        }
        from = (uint16_t)((to & 0x8000u) | 1u);
    }
    else if (mag_from > mag_to || ((from ^ to) & 0x8000u)) {
        from--;
    }
    else {
        from++;
    }
    return mt_reduced_to_float(d, from);
}

/* F is the C library's suffix for T (f for float, nothing for double): FN##F names sinf or sin. The
 * arithmetic ops are one correctly rounded IEEE operation; the others are written as torch's scalar
 * CPU kernels compute them, with the C library's functions (torch's x86 builds use Intel MKL's VML and
 * SLEEF's vector functions instead, which differ in the last bit or two: README, "Known
 * differences"). round is nearbyint (half to even), sign is (0 < x) - (x < 0) (NaN and -0.0
 * give +0.0), frac is x - trunc(x), sigmoid 1 / (1 + exp(-x)), rsqrt 1 / sqrt(x), square x * x. */
#define MT_FLOAT_MATH(S, T, F)                                                                     \
    static inline MT_HD T mt_add_##S(T x, T y, T alpha)                                            \
    {                                                                                              \
        return alpha == (T)1 ? x + y : fma##F(y, alpha, x);                                        \
    }                                                                                              \
    /* x * y + z rounded once: the multiply-add torch's compilers make of addcmul's and lerp's     \
     * self + value * t1 * t2 (the fma kernel's element) */                                        \
    static inline MT_HD T mt_muladd_##S(T x, T y, T z)                                             \
    {                                                                                              \
        return fma##F(x, y, z);                                                                    \
    }                                                                                              \
    static inline MT_HD T mt_sub_##S(T x, T y)                                                     \
    {                                                                                              \
        return x - y;                                                                              \
    }                                                                                              \
    static inline MT_HD T mt_mul_##S(T x, T y)                                                     \
    {                                                                                              \
        return x * y;                                                                              \
    }                                                                                              \
    static inline MT_HD T mt_div_##S(T x, T y)                                                     \
    {                                                                                              \
        return x / y;                                                                              \
    }                                                                                              \
    static inline MT_HD T mt_maximum_##S(T x, T y)                                                 \
    {                                                                                              \
        return (x != x || x > y) ? x : y;                                                          \
    }                                                                                              \
    static inline MT_HD T mt_minimum_##S(T x, T y)                                                 \
    {                                                                                              \
        return (x != x || x < y) ? x : y;                                                          \
    }                                                                                              \
    static inline MT_HD T mt_remainder_##S(T x, T y)                                               \
    {                                                                                              \
        T r = fmod##F(x, y);                                                                       \
        return (r != (T)0 && ((y < (T)0) != (r < (T)0))) ? r + y : r;                              \
    }                                                                                              \
    /* torch's div_floor_floating (c10/util/generic_math.h) */                                     \
    static inline MT_HD T mt_floor_divide_##S(T x, T y)                                            \
    {                                                                                              \
        T r, q, f;                                                                                 \
        if (y == (T)0) {                                                                           \
            return x / y;                                                                          \
        }                                                                                          \
        r = fmod##F(x, y);                                                                         \
        q = (x - r) / y;                                                                           \
        if (r != (T)0 && ((y < (T)0) != (r < (T)0))) {                                             \
            q -= (T)1;                                                                             \
        }                                                                                          \
        if (q == (T)0) {                                                                           \
            return copysign##F((T)0, x / y);                                                       \
        }                                                                                          \
        f = floor##F(q);                                                                           \
        return q - f > (T)0.5 ? f + (T)1 : f;                                                      \
    }                                                                                              \
    static inline MT_HD T mt_neg_##S(T x)                                                          \
    {                                                                                              \
        return -x;                                                                                 \
    }                                                                                              \
    static inline MT_HD T mt_abs_##S(T x)                                                          \
    {                                                                                              \
        return fabs##F(x);                                                                         \
    }                                                                                              \
    static inline MT_HD T mt_relu_##S(T x)                                                         \
    {                                                                                              \
        return x < (T)0 ? (T)0 : x;                                                                \
    }                                                                                              \
    static inline MT_HD T mt_square_##S(T x)                                                       \
    {                                                                                              \
        return x * x;                                                                              \
    }                                                                                              \
    static inline MT_HD T mt_sign_##S(T x)                                                         \
    {                                                                                              \
        return (T)((T)(x > (T)0) - (T)(x < (T)0));                                                 \
    }                                                                                              \
    static inline MT_HD T mt_sgn_##S(T x)                                                          \
    {                                                                                              \
        return mt_sign_##S(x);                                                                     \
    }                                                                                              \
    static inline MT_HD T mt_round_##S(T x)                                                        \
    {                                                                                              \
        return nearbyint##F(x);                                                                    \
    }                                                                                              \
    static inline MT_HD T mt_reciprocal_##S(T x)                                                   \
    {                                                                                              \
        return (T)1 / x;                                                                           \
    }                                                                                              \
    static inline MT_HD T mt_sigmoid_##S(T x)                                                      \
    {                                                                                              \
        return (T)1 / ((T)1 + exp##F(-x));                                                         \
    }                                                                                              \
    static inline MT_HD T mt_rsqrt_##S(T x)                                                        \
    {                                                                                              \
        return (T)1 / sqrt##F(x);                                                                  \
    }                                                                                              \
    static inline MT_HD T mt_frac_##S(T x)                                                         \
    {                                                                                              \
        return x - trunc##F(x);                                                                    \
    }                                                                                              \
    /* the binary ops of torch's scalar CPU loops (BinaryOpsKernel.cpp), in the same steps */      \
    static inline MT_HD T mt_xlogy_##S(T x, T y)                                                   \
    {                                                                                              \
        if (y != y) {                                                                              \
            return (T)NAN;                                                                         \
        }                                                                                          \
        return x == (T)0 ? (T)0 : x * log##F(y);                                                   \
    }                                                                                              \
    static inline MT_HD T mt_copysign_##S(T x, T y)                                                \
    {                                                                                              \
        return copysign##F(x, y);                                                                  \
    }                                                                                              \
    static inline MT_HD T mt_hypot_##S(T x, T y)                                                   \
    {                                                                                              \
        return hypot##F(x, y);                                                                     \
    }                                                                                              \
    /* max(x, y) + log1p(exp(-|x - y|)); two equal infinities are themselves (inf - inf is NaN) */ \
    static inline MT_HD T mt_logaddexp_##S(T x, T y)                                               \
    {                                                                                              \
        if (x == y && (x - x) != (x - x)) {                                                        \
            return x;                                                                              \
        }                                                                                          \
        return (x < y ? y : x) + log1p##F(exp##F(-fabs##F(x - y)));                                \
    }                                                                                              \
    static inline MT_HD T mt_logaddexp2_##S(T x, T y)                                              \
    {                                                                                              \
        if (x == y && (x - x) != (x - x)) {                                                        \
            return x;                                                                              \
        }                                                                                          \
        return (x < y ? y : x) + log1p##F(exp2##F(-fabs##F(x - y))) * (T)1.4426950408889634;       \
    }                                                                                              \
    /* fmax, fmin: a NaN loses to a number; of equal values (-0.0, 0.0), x (torch's CPU loop) */  \
    static inline MT_HD T mt_fmax_##S(T x, T y)                                                    \
    {                                                                                              \
        return (x != x || x < y) ? y : x;                                                          \
    }                                                                                              \
    static inline MT_HD T mt_fmin_##S(T x, T y)                                                    \
    {                                                                                              \
        return (x != x || y < x) ? y : x;                                                          \
    }                                                                                              \
    static inline MT_HD T mt_heaviside_##S(T x, T y) /* a NaN x: 0 (NaN > 0 is false) */           \
    {                                                                                              \
        return x == (T)0 ? y : (T)(x > (T)0);                                                      \
    }                                                                                              \
    static inline MT_HD T mt_nextafter_##S(T x, T y)                                               \
    {                                                                                              \
        return nextafter##F(x, y);                                                                 \
    }                                                                                              \
    static inline MT_HD T mt_nextafter_half_##S(T x, T y)                                          \
    {                                                                                              \
        return (T)mt_nextafter_reduced(MT_FLOAT16, (float)x, (float)y);                            \
    }                                                                                              \
    static inline MT_HD T mt_nextafter_bfloat16_##S(T x, T y)                                      \
    {                                                                                              \
        return (T)mt_nextafter_reduced(MT_BFLOAT16, (float)x, (float)y);                           \
    }

MT_FLOAT_MATH(f32, float, f)
MT_FLOAT_MATH(f64, double, )

/* ---- torch's vector exp, for sigmoid and logaddexp on the host -------------------------------------- */

/* torch's CPU sigmoid is 1 / (1 + exp(-x)) in the input's float type, with SLEEF's exp (Sleef_expf*_u10,
 * Sleef_expd*_u10, fused multiply-adds on AVX2 and AVX-512) on the whole vectors of a contiguous run and
 * the C library's exp on the rest (kernels/cpu/elementwise.c chooses which element takes which). The two
 * exps differ in the last bit, which 1 / (1 + e) can double. mt_vexp_f32/f64 compute what SLEEF's do:
 * n = rint(x / ln 2); r = x - n ln 2 in two fused steps with ln 2 split in two; exp(r) as a polynomial
 * (Horner's scheme for float; Estrin's for double, in SLEEF's grouping); then 2^n, applied in two halves
 * so that a result near the subnormals rounds as SLEEF's. Inputs past the range give 0 or inf at SLEEF's
 * thresholds. Host only: CUDA devices keep CUDA's exp, as torch's CUDA kernel does. */
static inline uint32_t
mt_bits_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

static inline float
mt_from_bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

static inline uint64_t
mt_bits_f64(double f)
{
    uint64_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

static inline double
mt_from_bits_f64(uint64_t b)
{
    double f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

/* The range checks and the choice of the result are masks on the bits, not comparisons of floats and
 * branches: GCC vectorises a loop of these only so. A float's bits, read as a signed integer, order the
 * positive values; read as unsigned, the negative ones. */
static inline float
mt_vexp_f32(float d)
{
    const uint32_t b = mt_bits_f32(d);
    /* all ones where -104 <= d <= 100 (a NaN is neither) */
    const uint32_t in_range = (uint32_t) - (int32_t)(((int32_t)b <= (int32_t)0x42c80000) & (b <= 0xc2d00000u));
    const uint32_t is_nan = (uint32_t) - (int32_t)((b & 0x7fffffffu) > 0x7f800000u);
    const uint32_t negative = (uint32_t)((int32_t)b >> 31);
    /* outside the range: the NaN itself, 0 below, inf above */
    const uint32_t outside = (b & is_nan) | (~is_nan & ~negative & 0x7f800000u);
    float x = mt_from_bits_f32(b & in_range), s, u;
    int q;

    q = (int)rintf(x * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    s = fmaf((float)q, -0.693145751953125f, x);
    s = fmaf((float)q, -1.428606765330187045e-06f, s);
    /* the coefficients are double literals rounded to float, as SLEEF passes them */
    u = (float)0.000198527617612853646278381;
    u = fmaf(u, s, (float)0.00139304355252534151077271);
    u = fmaf(u, s, (float)0.00833336077630519866943359);
    u = fmaf(u, s, (float)0.0416664853692054748535156);
    u = fmaf(u, s, (float)0.166666671633720397949219);
    u = fmaf(u, s, 0.5f);
    u = 1.0f + fmaf(s * s, u, s);
    u = u * mt_from_bits_f32((uint32_t)((q >> 1) + 0x7f) << 23) *
        mt_from_bits_f32((uint32_t)(q - (q >> 1) + 0x7f) << 23);
    return mt_from_bits_f32((mt_bits_f32(u) & in_range) | (outside & ~in_range));
}

/* For an exp of a double's bits b: all ones where -lo <= b's value <= hi (lo_bits, hi_bits: the bits of
 * -lo and hi; a NaN is neither), and in *outside the result past that range: the NaN itself, 0 below, inf
 * above. */
static inline uint64_t
mt_exp_range_f64(uint64_t b, uint64_t hi_bits, uint64_t lo_bits, uint64_t *outside)
{
    const uint64_t is_nan = (uint64_t) - (int64_t)((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull);
    const uint64_t negative = (uint64_t)((int64_t)b >> 63);

    *outside = (b & is_nan) | (~is_nan & ~negative & 0x7ff0000000000000ull);
    return (uint64_t) - (int64_t)(((int64_t)b <= (int64_t)hi_bits) & (b <= lo_bits));
}

static inline double
mt_vexp_f64(double d)
{
    const uint64_t b = mt_bits_f64(d);
    uint64_t outside;
    /* -1000 <= d <= 709.782712893384 (log of the largest double, where SLEEF gives inf) */
    const uint64_t in_range = mt_exp_range_f64(b, 0x40862e42fefa39efull, 0xc08f400000000000ull, &outside);
    double x = mt_from_bits_f64(b & in_range), t, s, s2, s4, s8, u;
    int q;

    t = rint(x * 1.442695040888963407359924681001892137426645954152985934135449406931);
    q = (int)t;
    s = fma(t, -.69314718055966295651160180568695068359375, x);
    s = fma(t, -.28235290563031577122588448175013436025525412068e-12, s);
    s2 = s * s;
    s4 = s2 * s2;
    s8 = s4 * s4;
    u = fma(s8, fma(s, 0.2081276378237164457e-8, 0.2511210703042288022e-7),
            fma(s4,
                fma(s2, fma(s, 0.2755762628169491192e-6, 0.2755723402025388239e-5),
                    fma(s, 0.2480158687479686264e-4, 0.1984126989855865850e-3)),
                fma(s2, fma(s, 0.1388888888914497797e-2, 0.8333333333314938210e-2),
                    fma(s, 0.4166666666666602598e-1, 0.1666666666666669072e+0))));
    u = fma(u, s, 0.5);
    u = fma(u, s, 1.0);
    u = fma(u, s, 1.0);
    u = u * mt_from_bits_f64((uint64_t)(int64_t)((q >> 1) + 0x3ff) << 52) *
        mt_from_bits_f64((uint64_t)(int64_t)(q - (q >> 1) + 0x3ff) << 52);
    return mt_from_bits_f64((mt_bits_f64(u) & in_range) | (outside & ~in_range));
}

/* sigmoid as torch's vector loop computes it */
static inline float
mt_sigmoid_vec_f32(float x)
{
    return 1.0f / (1.0f + mt_vexp_f32(-x));
}

static inline double
mt_sigmoid_vec_f64(double x)
{
    return 1.0 / (1.0 + mt_vexp_f64(-x));
}

/* SLEEF's log1p and exp2, for logaddexp and logaddexp2 on the host */
#include "sleef_log1p_exp2.h"
/* SLEEF's float pow, for a float32 tensor ** a number on the host */
#include "sleef_pow.h"

/* logaddexp and logaddexp2 as torch's vector loop computes them: max + log1p(exp(-|x - y|)) (exp2, and
 * the log1p times 1 / ln 2 in one fused step) with SLEEF's functions; the max propagates a NaN (which the
 * sum would anyway); two equal infinities are themselves (a select, so that loops of these vectorise) */
#define MT_LOGADDEXP_VEC(S, T, F, INV_LN2)                                                        \
    static inline T mt_logaddexp_vec_##S(T x, T y)                                                 \
    {                                                                                              \
        const T r = (x < y ? y : x) + mt_vlog1p_##S(mt_vexp_##S(-fabs##F(x - y)));                 \
        return x == y && (x - x) != (x - x) ? x : r;                                               \
    }                                                                                              \
    static inline T mt_logaddexp2_vec_##S(T x, T y)                                                \
    {                                                                                              \
        const T r = fma##F(mt_vlog1p_##S(mt_vexp2_##S(-fabs##F(x - y))), INV_LN2, x < y ? y : x);  \
        return x == y && (x - x) != (x - x) ? x : r;                                               \
    }                                                                                              \
    /* logaddexp2 as the scalar loop of torch's AVX2 and AVX-512 kernels computes it: the C library's \
     * functions, the last multiply-add fused as in the vector loop */                             \
    static inline T mt_logaddexp2_fused_##S(T x, T y)                                              \
    {                                                                                              \
        if (x == y && (x - x) != (x - x)) {                                                        \
            return x;                                                                              \
        }                                                                                          \
        return fma##F(log1p##F(exp2##F(-fabs##F(x - y))), INV_LN2, x < y ? y : x);                \
    }
MT_LOGADDEXP_VEC(f32, float, f, (float)1.4426950408889634)
MT_LOGADDEXP_VEC(f64, double, , 1.4426950408889634)

/* erfinv: torch's x86 builds compute it with MKL's vdErfInv/vsErfInv (within 1 ulp); its portable
 * calc_erfinv (ATen/native/Math.h) is hundreds of ulps off near +-1 in double. This keeps calc_erfinv's
 * rational first guess and refines it with Newton steps, on erfc(x) = 1 - |y| (exact for |y| >= 0.5) in
 * the tails, where erf(x) - y would cancel; float32 is computed in double and rounded once. */
static inline MT_HD double
mt_erfinv_f64(double y)
{
    const double two_over_sqrt_pi = 1.1283791670955126;
    double y_abs = fabs(y), x, z, w;

    if (y_abs > 1.0 || y != y) {
        return (double)NAN;
    }
    if (y_abs == 1.0) {
        return copysign((double)INFINITY, y);
    }
    if (y_abs <= 0.7) {
        z = y * y;
        x = y * (((-0.140543331 * z + 0.914624893) * z - 1.645349621) * z + 0.886226899) /
            ((((0.012229801 * z - 0.329097515) * z + 1.442710462) * z - 2.118377725) * z + 1.0);
        for (int i = 0; i < 3; i++) {
            x = x - (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
        }
        return x;
    }
    w = 1.0 - y_abs;
    z = sqrt(-log(w / 2.0));
    x = (((1.641345311 * z + 3.429567803) * z - 1.624906493) * z - 1.970840454) /
        ((1.637067800 * z + 3.543889200) * z + 1.0);
    for (int i = 0; i < 3; i++) {
        x = x + (erfc(x) - w) / (two_over_sqrt_pi * exp(-x * x));
    }
    return copysign(x, y);
}

static inline MT_HD float
mt_erfinv_f32(float y)
{
    return (float)mt_erfinv_f64((double)y);
}

/* deg2rad and rad2deg: torch's x * (pi / 180) and x * (180 / pi), the constant rounded to the dtype */
static inline MT_HD float
mt_deg2rad_f32(float x)
{
    return x * (float)0.017453292519943295769236907684886127134428718885417;
}

static inline MT_HD double
mt_deg2rad_f64(double x)
{
    return x * 0.017453292519943295769236907684886127134428718885417;
}

static inline MT_HD float
mt_rad2deg_f32(float x)
{
    return x * (float)57.295779513082320876798154814105170332405472466564;
}

static inline MT_HD double
mt_rad2deg_f64(double x)
{
    return x * 57.295779513082320876798154814105170332405472466564;
}

/* sinc: torch's sin(pi x) / (pi x), 1 at 0, in the dtype (its scalar CPU loop, the C library's sin) */
static inline MT_HD float
mt_sinc_f32(float x)
{
    float product = (float)3.14159265358979323846 * x;
    return x == 0.0f ? 1.0f : sinf(product) / product;
}

static inline MT_HD double
mt_sinc_f64(double x)
{
    double product = 3.14159265358979323846 * x;
    return x == 0.0 ? 1.0 : sin(product) / product;
}

/* logit without eps: log(x / (1 - x)) (inf at 1), torch's loop; eps clamps x first (the op layer) */
static inline MT_HD float
mt_logit_f32(float x)
{
    return x == 1.0f ? (float)INFINITY : logf(x / (1.0f - x));
}

static inline MT_HD double
mt_logit_f64(double x)
{
    return x == 1.0 ? (double)INFINITY : log(x / (1.0 - x));
}

/* xlogy, floor_divide and logit of float16 and bfloat16 (d) as torch's CPU kernels compute them: in c10's
 * 16-bit arithmetic, whose operators and math functions return the 16-bit type, so each step is rounded
 * to d (the result too, by the caller's store). torch's floor_divide by a single value (a number, or a
 * tensor TensorIterator sees as a scalar) reads it in float32 and rounds nothing on the way: not these. */
static inline MT_HD float
mt_xlogy_reduced(mt_dtype d, float x, float y)
{
    if (y != y || x == 0.0f) {
        return mt_xlogy_f32(x, y);
    }
    return x * mt_round_to_reduced(d, logf(y));
}

static inline MT_HD float
mt_floor_divide_reduced(mt_dtype d, float x, float y)
{
    float r, q, f;
    if (y == 0.0f) {
        return x / y;
    }
    r = fmodf(x, y);
    q = mt_round_to_reduced(d, mt_round_to_reduced(d, x - r) / y);
    if (r != 0.0f && ((y < 0.0f) != (r < 0.0f))) {
        q = mt_round_to_reduced(d, q - 1.0f);
    }
    if (q == 0.0f) {
        return copysignf(0.0f, x / y);
    }
    f = floorf(q);
    return mt_round_to_reduced(d, q - f) > 0.5f ? f + 1.0f : f;
}

static inline MT_HD float
mt_logit_reduced(mt_dtype d, float x)
{
    return x == 1.0f ? (float)INFINITY : logf(mt_round_to_reduced(d, x / mt_round_to_reduced(d, 1.0f - x)));
}

#if !defined(__CUDACC__)
#include "cpu/cpu_features.h"
#include "sleef_lgamma.h"
#endif

/* lgamma: on the host SLEEF's, which torch's vectorised CPU kernels (AVX2, AVX-512) call on every element
 * (sleef_lgamma.h), or the C library's under ATEN_CPU_CAPABILITY=default, whose portable kernel calls
 * std::lgamma; a CUDA device keeps CUDA's, as torch's CUDA kernel does */
static inline MT_HD float
mt_lgamma_f32(float x)
{
#if defined(__CUDACC__)
    return lgammaf(x);
#else
    return mt_cpu_torch_capability() == MT_TORCH_CPU_DEFAULT ? lgammaf(x) : mt_sleef_lgamma_f32(x);
#endif
}

static inline MT_HD double
mt_lgamma_f64(double x)
{
#if defined(__CUDACC__)
    return lgamma(x);
#else
    return mt_cpu_torch_capability() == MT_TORCH_CPU_DEFAULT ? lgamma(x) : mt_sleef_lgamma_f64(x);
#endif
}

/* digamma and trigamma: torch's calc_digamma and calc_trigamma (ATen/native/Math.h, from Cephes): the
 * reflection for negative x, the recurrence up to 10 (digamma) or by 6 steps (trigamma), then the asymptotic
 * series; float32 in float with the reflection's tangent in double, as torch's */
#define MT_DIGAMMA_SERIES_(S, T)                                                                   \
    static inline MT_HD T mt_digamma_series_##S(T z) /* Cephes' polevl(z, A, 6), from 0 * z + A[0] */ \
    {                                                                                              \
        T result = (T)0 * z + (T)8.33333333333333333333E-2;                                        \
        result = result * z + (T)-2.10927960927960927961E-2;                                       \
        result = result * z + (T)7.57575757575757575758E-3;                                        \
        result = result * z + (T)-4.16666666666666666667E-3;                                       \
        result = result * z + (T)3.96825396825396825397E-3;                                       \
        result = result * z + (T)-8.33333333333333333333E-3;                                       \
        return result * z + (T)8.33333333333333333333E-2;                                          \
    }
MT_DIGAMMA_SERIES_(f32, float)
MT_DIGAMMA_SERIES_(f64, double)

static inline MT_HD double
mt_digamma_f64(double x)
{
    double result = 0.0;

    if (x == 0.0) {
        return copysign((double)INFINITY, -x);
    }
    if (x < 0.0) {
        double q, r;
        if (x == trunc(x)) {
            return (double)NAN;
        }
        r = modf(x, &q);
        return mt_digamma_f64(1.0 - x) - 3.14159265358979323846 / tan(3.14159265358979323846 * r);
    }
    while (x < 10.0) {
        result -= 1.0 / x;
        x += 1.0;
    }
    if (x == 10.0) {
        return result + 2.25175258906672110764;
    }
    if (x < 1.0e17) {
        double z = 1.0 / (x * x);
        return result + log(x) - (0.5 / x) - z * mt_digamma_series_f64(z);
    }
    return result + log(x) - (0.5 / x);
}

static inline MT_HD float
mt_digamma_f32(float x)
{
    float result = 0.0f;

    if (x == 0.0f) {
        return copysignf((float)INFINITY, -x);
    }
    if (x < 0.0f) {
        double q, r;
        if (x == truncf(x)) {
            return (float)NAN;
        }
        r = modf((double)x, &q);
        return mt_digamma_f32(1.0f - x) - (float)(3.14159265358979323846 / tan(3.14159265358979323846 * r));
    }
    while (x < 10.0f) {
        result -= 1.0f / x;
        x += 1.0f;
    }
    if (x == 10.0f) {
        return result + 2.25175258906672110764f;
    }
    if (x < 1.0e17f) {
        float z = 1.0f / (x * x);
        return result + logf(x) - (0.5f / x) - z * mt_digamma_series_f32(z);
    }
    return result + logf(x) - (0.5f / x);
}

#define MT_TRIGAMMA_(S, T, F)                                                                      \
    static inline MT_HD T mt_trigamma_##S(T x)                                                     \
    {                                                                                              \
        T sign = 1, result = 0, ixx;                                                               \
        if (x < (T)0.5) {                                                                          \
            const T sin_pi_x = sin##F((T)3.14159265358979323846 * x);                              \
            sign = -1;                                                                             \
            result -= ((T)3.14159265358979323846 * (T)3.14159265358979323846) /                    \
                      (sin_pi_x * sin_pi_x);                                                       \
            x = 1 - x;                                                                             \
        }                                                                                          \
        for (int i = 0; i < 6; ++i) {                                                              \
            result += 1 / (x * x);                                                                 \
            x += 1;                                                                                \
        }                                                                                          \
        ixx = 1 / (x * x);                                                                         \
        /* the sixths, thirtieths and forty-seconds in T, as torch's float version (1.f/6) */      \
        result += (1 + 1 / (2 * x) + ixx * ((T)1 / 6 - ixx * ((T)1 / 30 - ixx * ((T)1 / 42)))) / x;\
        return sign * result;                                                                      \
    }
MT_TRIGAMMA_(f32, float, f)
MT_TRIGAMMA_(f64, double, )

/* the float-only ops and the rounding ops (but round) that are the C library's function */
#define MT_LIBM_F32_(OP, name, S)                                                                  \
    static inline MT_HD float mt_##name##_f32(float x)                                             \
    {                                                                                              \
        return name##f(x);                                                                         \
    }
#define MT_LIBM_F64_(OP, name, S)                                                                  \
    static inline MT_HD double mt_##name##_f64(double x)                                           \
    {                                                                                              \
        return name(x);                                                                            \
    }
MT_UNARY_LIBM_PLAIN_OPS(MT_LIBM_F32_, f32)
MT_UNARY_LIBM_SAME_OPS(MT_LIBM_F64_, f64)

/* exp and sin of a float32 on the host: torch's x86 build computes them with MKL's VML, vectorised and
 * nearly correctly rounded; the C library's expf and sinf are one call per element, 2-3 times slower than
 * torch's and NumPy's loops. Both are computed here in double by loops the compiler vectorises and rounded
 * once, so nearly correctly rounded too: against torch's on every float, never more than 1 ulp apart, and
 * apart on fewer floats than expf and sinf are (exp: 2,990,187 of 2^32, expf 3,017,141; sin: 1.13%
 * against 1.15%). exp is mt_exp_to_f32 (below); sin reduces x by pi/2 and evaluates the sine or cosine
 * polynomial (mt_sin_small_f32); beyond MT_SIN_SMALL_F32 (and for inf and NaN) the C library's sinf takes
 * over. A CUDA device keeps CUDA's expf and sinf, as torch's CUDA kernels. */
#define MT_SIN_SMALL_F32 1048576.0f

/* sin(x) for 0 < |x| <= MT_SIN_SMALL_F32; any other x (zeros, inf and NaN too) comes back unchanged, for a
 * second pass to finish (every result of the first kind is within [-1, 1], so |result| > 1 or NaN marks it).
 * Branch-free, so that GCC vectorises a loop of it. The reduction: q = nearest integer to x * 2/pi, then
 * r = x - q * pi/2 with pi/2 split in two doubles, the first product subtracted exactly (x has 24 bits,
 * q * P1's lowest bit is 2^-52 and |r| < 1, so the first fused step is exact). The polynomials are the
 * classic minimax ones for sin and cos on [-pi/4, pi/4] (errors near 2^-58). */
static inline float
mt_sin_small_f32(float x)
{
    const double p1 = 1.57079632679489655800e+00;   /* pi/2 rounded to double */
    const double p2 = 6.12323399573676603587e-17;   /* pi/2 - p1 */
    /* a zero comes back as itself: r + r^3 p(r^2) would turn -0.0 into +0.0 */
    const uint32_t small = (uint32_t) - (int32_t)(((mt_bits_f32(x) & 0x7fffffffu) - 1u) < 0x49800000u);
    const double xd = (double)mt_from_bits_f32(mt_bits_f32(x) & small);
    /* q = rint(xd * 2/pi) by adding 1.5 * 2^52, whose last bits are then q's (no conversion to an
     * integer, which AVX2 lacks for doubles) */
    const double shifted = fma(xd, 6.36619772367581382433e-01, 6755399441055744.0);
    const double q = shifted - 6755399441055744.0;
    const uint64_t n = mt_bits_f64(shifted);
    const double r = fma(-q, p2, fma(-q, p1, xd));
    const double z = r * r;
    double s = 1.58969099521155010221e-10, c = -1.13596475577881948265e-11;
    uint64_t odd;
    uint32_t f;

    s = fma(s, z, -2.50507602534068634195e-08);
    s = fma(s, z, 2.75573137070700676789e-06);
    s = fma(s, z, -1.98412698298579493134e-04);
    s = fma(s, z, 8.33333333332248946124e-03);
    s = fma(s, z, -1.66666666666666324348e-01);
    s = fma(r * z, s, r);
    c = fma(c, z, 2.08757232129817482790e-09);
    c = fma(c, z, -2.75573143513906633035e-07);
    c = fma(c, z, 2.48015872894767294178e-05);
    c = fma(c, z, -1.38888888888741095749e-03);
    c = fma(c, z, 4.16666666666666019037e-02);
    c = fma(z * z, c, fma(z, -0.5, 1.0));
    /* quadrant n: sin r, cos r, -sin r, -cos r */
    odd = (uint64_t) - (int64_t)(n & 1);
    f = mt_bits_f32((float)mt_from_bits_f64(((mt_bits_f64(c) & odd) | (mt_bits_f64(s) & ~odd)) ^ ((n & 2) << 62)));
    return mt_from_bits_f32((f & small) | (mt_bits_f32(x) & ~small));
}

/* exp(w) for a result that ends as a float (exp and pow of float32 on the host, below): n = rint(w / ln 2)
 * by adding 1.5 * 2^52 (no conversion to an integer, which AVX2 lacks for doubles), r = w - n ln 2 with
 * ln 2 split in two (the first product exact), exp(r) by its Taylor series to r^11 (|r| <= ln 2 / 2: error
 * near 2^-47), and 2^n from n's bits. Past [-110, 100] (where a float is 0 or inf anyway): 0, inf, or the
 * NaN itself. Branch-free, masks on the bits as mt_vexp_f32. */
static inline double
mt_exp_to_f32(double w)
{
    const uint64_t b = mt_bits_f64(w);
    uint64_t outside;
    /* -110 <= w <= 100 */
    const uint64_t in_range = mt_exp_range_f64(b, 0x4059000000000000ull, 0xc05b800000000000ull, &outside);
    const double x = mt_from_bits_f64(b & in_range);
    const double shifted = fma(x, 1.44269504088896338700e+00, 6755399441055744.0);
    const double q = shifted - 6755399441055744.0;
    const double r = fma(q, -1.90821492927058770002e-10, fma(q, -6.93147180369123816490e-01, x));
    double p = 2.505210838544171877505e-08;

    p = fma(p, r, 2.755731922398589065256e-07);
    p = fma(p, r, 2.755731922398589065256e-06);
    p = fma(p, r, 2.480158730158730158730e-05);
    p = fma(p, r, 1.984126984126984126984e-04);
    p = fma(p, r, 1.388888888888888888889e-03);
    p = fma(p, r, 8.333333333333333333333e-03);
    p = fma(p, r, 4.166666666666666666667e-02);
    p = fma(p, r, 1.666666666666666666667e-01);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    p = p * mt_from_bits_f64((mt_bits_f64(shifted) + 1023u) << 52);
    return mt_from_bits_f64((mt_bits_f64(p) & in_range) | (outside & ~in_range));
}

/* log |x| in double for a normal, finite float x (the float pow below): e ln 2 + log m for |x| = m 2^e, m in
 * [sqrt(1/2), sqrt(2)), log m = 2s + s R(s^2) for s = (m - 1) / (m + 1) (the classic minimax R, error near
 * 2^-58). Branch-free. */
static inline double
mt_log_abs_f32(float x)
{
    const uint32_t b = mt_bits_f32(x) & 0x7fffffffu;
    const uint32_t mant = b & 0x007fffffu;
    /* all ones where the mantissa is at least sqrt(2)'s: m is then halved and e one more */
    const uint32_t halve = (uint32_t) - (int32_t)(mant >= 0x3504f3u);
    const double e = (double)((int32_t)(b >> 23) - 127 + (int32_t)(halve & 1u));
    const double m = (double)mt_from_bits_f32(mant | (0x3f800000u - (halve & 0x00800000u)));
    const double s = (m - 1.0) / (m + 1.0);
    const double z = s * s;
    double r = 1.479819860511658591e-01;

    r = fma(r, z, 1.531383769920937332e-01);
    r = fma(r, z, 1.818357216161805012e-01);
    r = fma(r, z, 2.222219843214978396e-01);
    r = fma(r, z, 2.857142874366239149e-01);
    r = fma(r, z, 3.999999999940941908e-01);
    r = fma(r, z, 6.666666666666735130e-01) * z;
    return fma(e, 6.93147180559945286227e-01, fma(s, r, 2.0 * s));
}

/* pow(x, y) of floats for a normal, finite x and a finite y, in double and rounded once (so within 1 ulp of
 * torch's SLEEF powf, whose error is under 1 ulp): exp(y log |x|), negated for a negative x and an odd y,
 * NaN for a negative x and a fractional y. The float kernel computes it in two passes over a block, so
 * that each loop's constants stay in registers (one fused loop ran 1.7 times slower):
 * y_log_x = y * mt_log_abs_f32(x), then mt_pow_from_log_f32(y_log_x, x, y). Branch-free; the other x and
 * y (zeros, subnormals, inf, NaN) are the caller's: mt_pow_fast_applies_f32 says which. */
static inline float
mt_pow_from_log_f32(double y_log_x, float x, float y)
{
    const float power = (float)mt_exp_to_f32(y_log_x);
    /* an odd y: an integer below 2^24 in magnitude (larger floats are even), its last bit set */
    const uint32_t below_2_24 = (uint32_t) - (int32_t)((mt_bits_f32(y) & 0x7fffffffu) < 0x4b800000u);
    const float y_small = mt_from_bits_f32(mt_bits_f32(y) & below_2_24);
    const uint32_t odd = (uint32_t)(y_small == rintf(y_small)) & (uint32_t)(int32_t)y_small & 1u;
    const uint32_t sign = mt_bits_f32(x) & (odd << 31);
    const uint32_t nan = (uint32_t) - (int32_t)((mt_bits_f32(x) >> 31) & (uint32_t)(y != rintf(y)));

    return mt_from_bits_f32((mt_bits_f32(power) ^ sign) | (nan & 0x7fc00000u));
}

/* x and y take mt_pow_from_log_f32 */
static inline int
mt_pow_fast_applies_f32(float x, float y)
{
    return ((mt_bits_f32(x) & 0x7fffffffu) - 0x00800000u < 0x7f000000u) &
           ((mt_bits_f32(y) & 0x7fffffffu) < 0x7f800000u);
}

#if defined(__CUDA_ARCH__)
MT_UNARY_LIBM_VEC_OPS(MT_LIBM_F32_, f32)
#else
static inline MT_HD float
mt_exp_f32(float x)
{
    return (float)mt_exp_to_f32((double)x);
}

static inline MT_HD float
mt_sin_f32(float x)
{
    return fabsf(x) <= MT_SIN_SMALL_F32 ? mt_sin_small_f32(x) : sinf(x);
}
#endif

/* sqrt as torch's x86 CPU build computes it on a CPU not made by Intel (the host kernel decides where:
 * kernels/cpu/elementwise.c). torch's kernel calls MKL's vsSqrt/vdSqrt, and MKL runs its generic SSE kernels
 * on such CPUs, which start from the rsqrtps instruction's estimate y of 1/sqrt(x) and are not correctly
 * rounded:
 *   - float: a Newton step on s = x y and h = y / 2 together, then one correction of s, each operation a
 *     separate float rounding: s = x y; h = y / 2; r = 1/2 - s h; s' = s + s r; h' = h + h r;
 *     result s' + (x - s' s') h'. Within 0.75 ulp; about one float in six rounds the other way.
 *   - double: y from the float estimate of x's mantissa (23 bits, scaled into [1, 4) by the parity of x's
 *     exponent), scaled back by 2^(-k) through the exponent bits; e = 1 - x y^2 in two parts (x split after
 *     26 bits); a degree-4 polynomial p(e) ~ (1 - e)^(-1/2) - 1 (MKL's coefficients, below); result
 *     x_hi y + (x_lo y + (p y) x). About one double in seventy rounds the other way.
 * Adam's, RMSprop's and Adagrad's updates carry these roundings into the parameters. MKL gives zeros,
 * subnormals, the largest values (where the products would overflow), inf, NaN and negatives to a correctly
 * rounded path, as here. Equal to torch's on all 2^32 floats and on 12M doubles of every bit pattern on the
 * CPU where they were checked (tests/test_math_ops.py checks both, and the optimizers, wherever torch runs
 * these kernels). Host x86 only: rsqrtps's estimate is the CPU's own table, and the instruction is x86's. */
#if !defined(__CUDACC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
#include <emmintrin.h>
#define MT_SQRT_AS_MKL 1
static inline float
mt_rsqrt_estimate_f32(float x)
{
    return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
}

static inline float
mt_sqrt_as_mkl_f32(float x)
{
    if (mt_bits_f32(x) - 0x00800000u > 0x7f7ff000u - 0x00800000u) {
        return sqrtf(x);
    }
    const float y = mt_rsqrt_estimate_f32(x);
    const float s = x * y, h = y * 0.5f;
    const float r = 0.5f - s * h;
    const float s1 = s + s * r, h1 = h + h * r;
    return s1 + (x - s1 * s1) * h1;
}

static inline double
mt_sqrt_as_mkl_f64(double x)
{
    const uint64_t b = mt_bits_f64(x);
    /* the fast path takes positive normal x below 2^1022 (the high word in [0x00100000, 0x7fcfffff]) */
    if ((uint32_t)(b >> 32) - 0x00100000u > 0x7fcfffffu - 0x00100000u) {
        return sqrt(x);
    }
    /* the mantissa as a float in [1, 2) for an even power of two, [2, 4) for an odd one */
    const uint64_t odd = ~b & 0x0010000000000000ull;
    const uint32_t m = (uint32_t)(((b & 0x001fffffe0000000ull) | (odd + 0x07f0000000000000ull)) >> 29);
    float mf;
    memcpy(&mf, &m, sizeof mf);
    /* 2^(-k) for x = m 4^k */
    const double scale = mt_from_bits_f64((odd - (b & 0x7ff0000000000000ull) + 0xbfd0000000000000ull) >> 1);
    const double y = (double)mt_rsqrt_estimate_f32(mf) * scale;
    const double t = y * y;
    const double x_hi = mt_from_bits_f64(b & 0xfffffffff8000000ull);
    const double x_lo = x - x_hi;
    const double e = (1.0 - t * x_hi) - t * x_lo;
    const double p = ((((e * mt_from_bits_f64(0x3fd1800032338cbbull)) + mt_from_bits_f64(0x3fd40000b13001d9ull)) * e +
                      mt_from_bits_f64(0x3fd80000000000f6ull)) * e + mt_from_bits_f64(0x3fdffffffffffe71ull)) * e;
    return x_hi * y + (x_lo * y + (p * y) * x);
}
#endif

/* sinh, tanh, atanh, log10 and erfc: the C library's float and double functions are up to 2 or 3 ulp
 * from the true value (glibc), and torch's x86 CPU results (MKL's VML, SLEEF) within 1 ulp of it, so the
 * two could be 3 apart. The host computes a float in double and a double in long double, each rounded
 * once: within 1 ulp of torch's (tests/test_math_ops.py). A CUDA device keeps CUDA's float and double
 * functions, as torch's CUDA kernels. */
#if defined(__CUDA_ARCH__)
#define MT_LIBM_WIDE_F32_(OP, name, S) MT_LIBM_F32_(OP, name, S)
#define MT_LIBM_WIDE_F64_(OP, name, S) MT_LIBM_F64_(OP, name, S)
#else
#define MT_LIBM_WIDE_F32_(OP, name, S)                                                             \
    static inline MT_HD float mt_##name##_f32(float x)                                             \
    {                                                                                              \
        return (float)name((double)x);                                                             \
    }
#define MT_LIBM_WIDE_F64_(OP, name, S)                                                             \
    static inline MT_HD double mt_##name##_f64(double x)                                           \
    {                                                                                              \
        return (double)name##l((long double)x);                                                    \
    }
#endif
MT_UNARY_LIBM_WIDE_OPS(MT_LIBM_WIDE_F32_, f32)
MT_UNARY_LIBM_WIDE_OPS(MT_LIBM_WIDE_F64_, f64)
MT_LIBM_ROUNDING_OPS(MT_LIBM_F32_, f32)
MT_LIBM_ROUNDING_OPS(MT_LIBM_F64_, f64)

/* the floating binary ops that are the C library's function of two arguments */
#define MT_BINARY_LIBM_OPS(X, S) X(POW, pow, S) X(ATAN2, atan2, S) X(FMOD, fmod, S)
#define MT_LIBM2_F32_(OP, name, S)                                                                 \
    static inline MT_HD float mt_##name##_f32(float x, float y)                                    \
    {                                                                                              \
        return name##f(x, y);                                                                      \
    }
#define MT_LIBM2_F64_(OP, name, S)                                                                 \
    static inline MT_HD double mt_##name##_f64(double x, double y)                                 \
    {                                                                                              \
        return name(x, y);                                                                         \
    }
MT_BINARY_LIBM_OPS(MT_LIBM2_F32_, f32)
MT_BINARY_LIBM_OPS(MT_LIBM2_F64_, f64)

/* ---- comparisons and reduction steps, every dtype ------------------------------------------------ */

/* mt_sum_<sfx>(acc, x): the sum step (bool: "or", as a bool sum in bool). mt_max_step/mt_min_step:
 * the running max/min (a NaN sticks; a later equal value replaces the one held). mt_arg_max_better /
 * mt_arg_min_better(v, best): does v, seen after best, replace it (a NaN beats everything but an
 * earlier NaN; ties keep best). mt_all_step / mt_any_step fold x != 0 into a bool. */
#define MT_COMMON_MATH(S, T, SUM)                                                                  \
    static inline MT_HD uint8_t mt_eq_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x == y);                                                                  \
    }                                                                                              \
    static inline MT_HD uint8_t mt_ne_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x != y);                                                                  \
    }                                                                                              \
    static inline MT_HD uint8_t mt_lt_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x < y);                                                                   \
    }                                                                                              \
    static inline MT_HD uint8_t mt_le_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x <= y);                                                                  \
    }                                                                                              \
    static inline MT_HD uint8_t mt_gt_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x > y);                                                                   \
    }                                                                                              \
    static inline MT_HD uint8_t mt_ge_##S(T x, T y)                                                \
    {                                                                                              \
        return (uint8_t)(x >= y);                                                                  \
    }                                                                                              \
    static inline MT_HD uint8_t mt_logical_and_##S(T x, T y)                                       \
    {                                                                                              \
        return (uint8_t)(x != 0 && y != 0);                                                        \
    }                                                                                              \
    static inline MT_HD uint8_t mt_logical_or_##S(T x, T y)                                        \
    {                                                                                              \
        return (uint8_t)(x != 0 || y != 0);                                                        \
    }                                                                                              \
    static inline MT_HD uint8_t mt_logical_xor_##S(T x, T y)                                       \
    {                                                                                              \
        return (uint8_t)((x != 0) != (y != 0));                                                    \
    }                                                                                              \
    /* the predicates, 1 or 0 in T: x - x is NaN for an infinity or a NaN and 0 for every other    \
     * number (integers included) */                                                               \
    static inline MT_HD T mt_logical_not_##S(T x)                                                  \
    {                                                                                              \
        return (T)(x == 0);                                                                        \
    }                                                                                              \
    static inline MT_HD T mt_isnan_##S(T x)                                                        \
    {                                                                                              \
        return (T)(x != x);                                                                        \
    }                                                                                              \
    static inline MT_HD T mt_isfinite_##S(T x)                                                     \
    {                                                                                              \
        return (T)((x - x) == (x - x));                                                            \
    }                                                                                              \
    static inline MT_HD T mt_isinf_##S(T x)                                                        \
    {                                                                                              \
        return (T)(x == x && (x - x) != (x - x));                                                  \
    }                                                                                              \
    static inline MT_HD T mt_isposinf_##S(T x)                                                     \
    {                                                                                              \
        return (T)(x > 0 && (x - x) != (x - x));                                                   \
    }                                                                                              \
    static inline MT_HD T mt_isneginf_##S(T x)                                                     \
    {                                                                                              \
        return (T)(!(x > 0) && x == x && (x - x) != (x - x)); /* no x < 0: T may be unsigned */    \
    }                                                                                              \
    static inline MT_HD T mt_isreal_##S(T x) /* every real dtype's element is real */              \
    {                                                                                              \
        (void)x;                                                                                   \
        return (T)1;                                                                               \
    }                                                                                              \
    static inline MT_HD T mt_signbit_##S(T x) /* (a double holds every value's sign, -0.0 and NaNs too) */ \
    {                                                                                              \
        return (T)(signbit((double)x) != 0);                                                       \
    }                                                                                              \
    static inline MT_HD uint8_t mt_compare_##S(mt_binary_op op, T x, T y)                          \
    {                                                                                              \
        switch (op) {                                                                              \
            MT_COMPARE_OPS(MT_BINARY_CASE_, S)                                                     \
        default:                                                                                   \
            return 0;                                                                              \
        }                                                                                          \
    }                                                                                              \
    static inline MT_HD T mt_sum_##S(T acc, T x)                                                   \
    {                                                                                              \
        return SUM;                                                                                \
    }                                                                                              \
    static inline MT_HD T mt_max_step_##S(T acc, T x)                                              \
    {                                                                                              \
        return (x != x || x >= acc) ? x : acc;                                                     \
    }                                                                                              \
    static inline MT_HD T mt_min_step_##S(T acc, T x)                                              \
    {                                                                                              \
        return (x != x || x <= acc) ? x : acc;                                                     \
    }                                                                                              \
    static inline MT_HD int mt_arg_max_better_##S(T v, T best)                                     \
    {                                                                                              \
        return v > best || (v != v && best == best);                                               \
    }                                                                                              \
    static inline MT_HD int mt_arg_min_better_##S(T v, T best)                                     \
    {                                                                                              \
        return v < best || (v != v && best == best);                                               \
    }                                                                                              \
    static inline MT_HD uint8_t mt_all_step_##S(uint8_t acc, T x)                                  \
    {                                                                                              \
        return (uint8_t)(acc & (x != 0));                                                          \
    }                                                                                              \
    static inline MT_HD uint8_t mt_any_step_##S(uint8_t acc, T x)                                  \
    {                                                                                              \
        return (uint8_t)(acc | (x != 0));                                                          \
    }

MT_COMMON_MATH(b8, uint8_t, (uint8_t)(acc | x))
MT_COMMON_MATH(u8, uint8_t, (uint8_t)((unsigned int)acc + (unsigned int)x))
MT_COMMON_MATH(i8, int8_t, (int8_t)((unsigned int)acc + (unsigned int)x))
MT_COMMON_MATH(i16, int16_t, (int16_t)((unsigned int)acc + (unsigned int)x))
MT_COMMON_MATH(i32, int32_t, (int32_t)((uint32_t)acc + (uint32_t)x))
MT_COMMON_MATH(i64, int64_t, (int64_t)((uint64_t)acc + (uint64_t)x))
MT_COMMON_MATH(f32, float, acc + x)
MT_COMMON_MATH(f64, double, acc + x)

/* the special functions: i0, i0e, i1, i1e, ndtri, log_ndtr, erfcx, entr, xlog1py, zeta */
#include "special_math.h"

/* ---- the ops by number: mt_binary_<sfx>, mt_unary_<sfx> ------------------------------------------ */

/* ADD and the family's other arithmetic ops (comparisons: mt_compare_<sfx>); an op the family lacks
 * returns x (the op layer never asks). */
#define MT_BY_OP(S, T, BINARY_OPS, UNARY_OPS)                                                      \
    static inline MT_HD T mt_binary_##S(mt_binary_op op, T x, T y, T alpha)                        \
    {                                                                                              \
        switch (op) {                                                                              \
        case MT_BINARY_ADD:                                                                        \
            return mt_add_##S(x, y, alpha);                                                        \
            BINARY_OPS(MT_BINARY_CASE_, S)                                                         \
        default:                                                                                   \
            return x;                                                                              \
        }                                                                                          \
    }                                                                                              \
    static inline MT_HD T mt_unary_##S(mt_unary_op op, T x)                                        \
    {                                                                                              \
        switch (op) {                                                                              \
            UNARY_OPS(MT_UNARY_CASE_, S)                                                           \
        default:                                                                                   \
            return x;                                                                              \
        }                                                                                          \
    }

MT_BY_OP(b8, uint8_t, MT_BINARY_BOOL_OPS, MT_UNARY_BOOL_OPS)
MT_BY_OP(u8, uint8_t, MT_BINARY_INT_OPS, MT_UNARY_INTEGER_OPS)
MT_BY_OP(i8, int8_t, MT_BINARY_INT_OPS, MT_UNARY_INTEGER_OPS)
MT_BY_OP(i16, int16_t, MT_BINARY_INT_OPS, MT_UNARY_INTEGER_OPS)
MT_BY_OP(i32, int32_t, MT_BINARY_INT_OPS, MT_UNARY_INTEGER_OPS)
MT_BY_OP(i64, int64_t, MT_BINARY_INT_OPS, MT_UNARY_INTEGER_OPS)
MT_BY_OP(f32, float, MT_BINARY_FLOAT_OPS, MT_UNARY_FLOAT_OPS)
MT_BY_OP(f64, double, MT_BINARY_FLOAT_OPS, MT_UNARY_FLOAT_OPS)

/* ---- C++: one overloaded name per function, for templates over the element type ------------------ */

/* (uint8's C++ type is mt_u8, scalar_type.h: its overloads convert to and from the u8 family's uint8_t) */

#ifdef __cplusplus
#define MT_OVERLOADS_(S, T)                                                                        \
    static inline MT_HD T mt_binary(mt_binary_op op, T x, T y, T alpha)                            \
    {                                                                                              \
        return (T)mt_binary_##S(op, x, y, alpha);                                                  \
    }                                                                                              \
    static inline MT_HD uint8_t mt_compare(mt_binary_op op, T x, T y)                              \
    {                                                                                              \
        return mt_compare_##S(op, x, y);                                                           \
    }                                                                                              \
    static inline MT_HD T mt_unary(mt_unary_op op, T x)                                            \
    {                                                                                              \
        return (T)mt_unary_##S(op, x);                                                             \
    }                                                                                              \
    static inline MT_HD T mt_sum(T acc, T x)                                                       \
    {                                                                                              \
        return (T)mt_sum_##S(acc, x);                                                              \
    }                                                                                              \
    static inline MT_HD int mt_arg_better(int is_max, T v, T best)                                 \
    {                                                                                              \
        return is_max ? mt_arg_max_better_##S(v, best) : mt_arg_min_better_##S(v, best);           \
    }                                                                                              \
    static inline MT_HD uint8_t mt_all_step(uint8_t acc, T x)                                      \
    {                                                                                              \
        return mt_all_step_##S(acc, x);                                                            \
    }                                                                                              \
    static inline MT_HD uint8_t mt_any_step(uint8_t acc, T x)                                      \
    {                                                                                              \
        return mt_any_step_##S(acc, x);                                                            \
    }
#define MT_OVERLOADS_X_(DTYPE, T, S) MT_OVERLOADS_(S, T)
MT_FOR_EACH_DTYPE(MT_OVERLOADS_X_)
static inline MT_HD float
mt_muladd(float x, float y, float z)
{
    return mt_muladd_f32(x, y, z);
}
static inline MT_HD double
mt_muladd(double x, double y, double z)
{
    return mt_muladd_f64(x, y, z);
}
#endif

#endif
