/* scalar_type.h: the element types as plain data, for every layer down to the kernels and the CUDA
 * code: the dtype enum, each dtype's size and category, MT_MAX_DIMS, one element of any dtype
 * (mt_value), and MT_DISPATCH_DTYPE, the one switch from a dtype to its C type. It must stay free of
 * Python and CUDA headers (kernels.cu includes it), hold no state and define nothing that needs a
 * source file: the Python dtype objects, names and promotion rules live in dtype.h. */
#ifndef MT_SCALAR_TYPE_H
#define MT_SCALAR_TYPE_H

#include <stddef.h>
#include <stdint.h>

/* Host-and-device functions: compiled for both sides by nvcc, plain C elsewhere. */
#ifdef __CUDACC__
#define MT_HD __host__ __device__
#else
#define MT_HD
#endif

/* torch has no fixed limit; minitorch keeps one so that shapes fit in fixed arrays on the stack. */
#define MT_MAX_DIMS 64

/* Ordered by category and width (bool, the integers, the floating dtypes), then the two 16-bit floating
 * dtypes (float16, bfloat16), which came later: tables indexed by dtype keep their old rows. Promotion is
 * dtype.c's table, not this order (uint8 with int8 gives int16). */
typedef enum {
    MT_BOOL = 0,
    MT_UINT8,
    MT_INT8,
    MT_INT16,
    MT_INT32,
    MT_INT64,
    MT_FLOAT32,
    MT_FLOAT64,
    MT_FLOAT16,
    MT_BFLOAT16,
    MT_NUM_DTYPES
} mt_dtype;

/* One element of any dtype, bit for bit (bool is a byte holding 0 or 1). */
typedef union {
    uint8_t b;
    uint8_t u8;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    uint16_t f16;   /* float16 and bfloat16: their bit patterns (below) */
    uint16_t bf16;
    unsigned char bytes[8];
} mt_value;

static inline MT_HD size_t
mt_dtype_size(mt_dtype d)
{
    return d <= MT_INT8 ? 1
           : (d == MT_INT16 || d == MT_FLOAT16 || d == MT_BFLOAT16) ? 2
           : (d == MT_INT32 || d == MT_FLOAT32) ? 4
                                                : 8;
}

static inline MT_HD int
mt_dtype_is_floating(mt_dtype d)
{
    return d == MT_FLOAT32 || d == MT_FLOAT64 || d == MT_FLOAT16 || d == MT_BFLOAT16;
}

/* float16 and bfloat16: stored in 16 bits, computed in float32 (torch's opmath type). The kernels have
 * no arithmetic of these two dtypes: the op layer gives them float32 as the compute dtype, and the loads
 * and stores convert (below), so each result is float32's rounded once to the 16-bit dtype. */
static inline MT_HD int
mt_dtype_is_reduced_floating(mt_dtype d)
{
    return d == MT_FLOAT16 || d == MT_BFLOAT16;
}

/* the dtype a kernel computes `d` in */
static inline MT_HD mt_dtype
mt_dtype_compute(mt_dtype d)
{
    return mt_dtype_is_reduced_floating(d) ? MT_FLOAT32 : d;
}

/* ---- the 16-bit floating formats as bit patterns ------------------------------------------------- */
/* C has no portable half type, so float16 and bfloat16 elements are uint16_t bit patterns, converted
 * by these functions (plain C, C++ and CUDA device code). They are torch's (c10/util/Half.h's
 * fp16_ieee_from/to_fp32_value, BFloat16.h's round_to_nearest_even): round to nearest even, overflow
 * to infinity, subnormals kept, a NaN stays a quiet NaN (bfloat16's is 0x7fc0, as torch's). A double
 * converts through float32, as c10::Half(double) does. */
typedef union {
    float f;
    uint32_t u;
} mt_f32_bits_;

static inline MT_HD float
mt_f32_from_bits_(uint32_t u)
{
    mt_f32_bits_ b;
    b.u = u;
    return b.f;
}

static inline MT_HD uint32_t
mt_f32_to_bits_(float f)
{
    mt_f32_bits_ b;
    b.f = f;
    return b.u;
}

static inline MT_HD float
mt_half_to_float(uint16_t h)
{
    const uint32_t w = (uint32_t)h << 16;
    const uint32_t sign = w & 0x80000000u;
    const uint32_t two_w = w + w;
    const float normalized = mt_f32_from_bits_((two_w >> 4) + (0xE0u << 23)) * 1.925929944387236e-34f; /* 2**-112 */
    const float denormalized = mt_f32_from_bits_((two_w >> 17) | (126u << 23)) - 0.5f;
    const uint32_t result =
        sign | (two_w < (1u << 27) ? mt_f32_to_bits_(denormalized) : mt_f32_to_bits_(normalized));
    return mt_f32_from_bits_(result);
}

static inline MT_HD uint16_t
mt_float_to_half(float f)
{
    const uint32_t w = mt_f32_to_bits_(f);
    const uint32_t shl1_w = w + w;
    const uint32_t sign = w & 0x80000000u;
    uint32_t bias = shl1_w & 0xFF000000u;
    float base = (mt_f32_from_bits_(w & 0x7fffffffu) * 5.192296858534828e+33f) /* 2**112 */
                 * 7.703719777548943e-34f;                                        /* 2**-110 */
    uint32_t bits;

    if (bias < 0x71000000u) {
        bias = 0x71000000u;
    }
    base = mt_f32_from_bits_((bias >> 1) + 0x07800000u) + base;
    bits = mt_f32_to_bits_(base);
    return (uint16_t)((sign >> 16) |
                      (shl1_w > 0xFF000000u ? 0x7E00u : ((bits >> 13) & 0x7C00u) + (bits & 0x0FFFu)));
}

static inline MT_HD float
mt_bfloat16_to_float(uint16_t b)
{
    return mt_f32_from_bits_((uint32_t)b << 16);
}

static inline MT_HD uint16_t
mt_float_to_bfloat16(float f)
{
    const uint32_t u = mt_f32_to_bits_(f);

    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return 0x7fc0;
    }
    return (uint16_t)((u + (((u >> 16) & 1u) + 0x7fffu)) >> 16);
}

/* a 16-bit floating element (dtype MT_FLOAT16 or MT_BFLOAT16) as float, and back */
static inline MT_HD float
mt_reduced_to_float(mt_dtype d, uint16_t v)
{
    return d == MT_FLOAT16 ? mt_half_to_float(v) : mt_bfloat16_to_float(v);
}

static inline MT_HD uint16_t
mt_float_to_reduced(mt_dtype d, float f)
{
    return d == MT_FLOAT16 ? mt_float_to_half(f) : mt_float_to_bfloat16(f);
}

/* f rounded to the 16-bit floating dtype d, as float: one step of c10's Half/BFloat16 arithmetic */
static inline MT_HD float
mt_round_to_reduced(mt_dtype d, float f)
{
    return mt_reduced_to_float(d, mt_float_to_reduced(d, f));
}

static inline MT_HD int
mt_dtype_is_integral(mt_dtype d, int include_bool)
{
    return (d >= MT_UINT8 && d <= MT_INT64) || (include_bool && d == MT_BOOL);
}

/* torch's dtype.is_signed: every dtype but bool and uint8 */
static inline MT_HD int
mt_dtype_is_signed(mt_dtype d)
{
    return d != MT_BOOL && d != MT_UINT8;
}

/* Floating to integer conversions as torch's x86 CPU build gives them (C leaves a value out of the
 * target's range undefined): the conversion instruction returns the "integer indefinite" value
 * (INT64_MIN, INT32_MIN) for NaN, infinities and values out of its range. torch converts to int64 and
 * uint8 through the 64-bit instruction, to int32, int16 and int8 through the 32-bit one, and keeps the
 * low bits; MT_FLOAT_TO_INT(D, v) does the same without undefined behaviour (the narrowing of an
 * integer keeps the low bits with every compiler minitorch supports). */
static inline MT_HD int64_t
mt_double_to_int64(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
        return INT64_MIN;
    }
    return (int64_t)v;
}

static inline MT_HD int32_t
mt_double_to_int32(double v)
{
    if (!(v > -2147483649.0 && v < 2147483648.0)) {
        return INT32_MIN;
    }
    return (int32_t)v;
}

#define MT_FLOAT_TO_INT(D, v)                                                                      \
    ((D)((sizeof(D) == 8 || (D)-1 > (D)0) ? mt_double_to_int64((double)(v))                        \
                                          : (int64_t)mt_double_to_int32((double)(v))))

/* The C type of uint8 elements. C++ (the CUDA kernels) sees uint8_t as bool's, so uint8 gets a type
 * of its own there: an enum over unsigned char is a distinct type with uint8_t's size, values and
 * wrapping arithmetic (it converts to int, and back with an explicit cast), so overloads and template
 * specialisations on uint8_t stay bool's. */
#ifdef __cplusplus
enum mt_u8 : unsigned char {};
#define MT_U8_CTYPE mt_u8
#else
#define MT_U8_CTYPE uint8_t
#endif

/* The range of an integer dtype narrower than int64 (int32 for any other dtype). */
static inline MT_HD void
mt_dtype_int_range(mt_dtype d, int64_t *lo, int64_t *hi)
{
    switch (d) {
    case MT_UINT8:
        *lo = 0;
        *hi = UINT8_MAX;
        break;
    case MT_INT8:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        break;
    case MT_INT16:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        break;
    default:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        break;
    }
}

/* X(DTYPE, C type, suffix) for every dtype with arithmetic of its own (all but float16 and bfloat16,
 * which kernels compute as float32 and only load and store), in enum order: for tables with one entry per dtype and
 * for families of typed functions (the suffixes name them: mt_add_f32, ...). In C, uint8_t is the C
 * type of both bool and uint8 (the suffix, b8 or u8, tells the families apart); C++ code gets the
 * distinct type mt_u8 for uint8 (above), so that templates over the element type can tell them apart. */
#define MT_FOR_EACH_DTYPE(X)                                                                       \
    X(MT_BOOL, uint8_t, b8)                                                                        \
    X(MT_UINT8, MT_U8_CTYPE, u8)                                                                   \
    X(MT_INT8, int8_t, i8)                                                                         \
    X(MT_INT16, int16_t, i16)                                                                      \
    X(MT_INT32, int32_t, i32)                                                                      \
    X(MT_INT64, int64_t, i64)                                                                      \
    X(MT_FLOAT32, float, f32)                                                                      \
    X(MT_FLOAT64, double, f64)

/* Runs the statement (any tokens, commas included) with T naming the C type of `dtype`; nothing for
 * an unknown dtype, float16 and bfloat16 (MT_FOR_EACH_DTYPE's dtypes only). Usable in C, C++ and CUDA device code; `break` inside leaves the switch. */
#define MT_DISPATCH_DTYPE(dtype, T, ...)                                                           \
    switch (dtype) {                                                                               \
    case MT_BOOL: {                                                                                \
        typedef uint8_t T;                                                                         \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_UINT8: {                                                                               \
        typedef MT_U8_CTYPE T;                                                                     \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_INT8: {                                                                                \
        typedef int8_t T;                                                                          \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_INT16: {                                                                               \
        typedef int16_t T;                                                                         \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_INT32: {                                                                               \
        typedef int32_t T;                                                                         \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_INT64: {                                                                               \
        typedef int64_t T;                                                                         \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_FLOAT32: {                                                                             \
        typedef float T;                                                                           \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    case MT_FLOAT64: {                                                                             \
        typedef double T;                                                                          \
        __VA_ARGS__;                                                                               \
        break;                                                                                     \
    }                                                                                              \
    default:                                                                                       \
        break;                                                                                     \
    }

#endif
