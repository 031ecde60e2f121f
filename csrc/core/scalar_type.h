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

/* Order matters: promotion (dtype.c) takes the larger of two, and the tables below follow it. */
typedef enum {
    MT_BOOL = 0,
    MT_INT32,
    MT_INT64,
    MT_FLOAT32,
    MT_FLOAT64,
    MT_NUM_DTYPES
} mt_dtype;

/* One element of any dtype, bit for bit (bool is a byte holding 0 or 1). */
typedef union {
    uint8_t b;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    unsigned char bytes[8];
} mt_value;

static inline MT_HD size_t
mt_dtype_size(mt_dtype d)
{
    return d == MT_BOOL ? 1 : (d == MT_INT32 || d == MT_FLOAT32) ? 4 : 8;
}

static inline MT_HD int
mt_dtype_is_floating(mt_dtype d)
{
    return d == MT_FLOAT32 || d == MT_FLOAT64;
}

static inline MT_HD int
mt_dtype_is_integral(mt_dtype d, int include_bool)
{
    return d == MT_INT32 || d == MT_INT64 || (include_bool && d == MT_BOOL);
}

/* X(DTYPE, C type, suffix) for every dtype, in enum order: for tables with one entry per dtype and
 * for families of typed functions (the suffixes name them: mt_add_f32, ...). uint8_t stands for bool
 * and only for bool. */
#define MT_FOR_EACH_DTYPE(X)                                                                       \
    X(MT_BOOL, uint8_t, b8)                                                                        \
    X(MT_INT32, int32_t, i32)                                                                      \
    X(MT_INT64, int64_t, i64)                                                                      \
    X(MT_FLOAT32, float, f32)                                                                      \
    X(MT_FLOAT64, double, f64)

/* Runs the statement (any tokens, commas included) with T naming the C type of `dtype`; nothing for
 * an unknown dtype. Usable in C, C++ and CUDA device code; `break` inside leaves the switch. */
#define MT_DISPATCH_DTYPE(dtype, T, ...)                                                           \
    switch (dtype) {                                                                               \
    case MT_BOOL: {                                                                                \
        typedef uint8_t T;                                                                         \
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
