/* cast.c: the host cast kernel (see cast.h). Equal dtypes copy bits (a NaN's payload survives, as
 * memcpy keeps it); other pairs convert element by element in one typed loop per pair, floating to
 * integer as torch's x86 CPU build does (MT_FLOAT_TO_INT, scalar_type.h). It must not
 * raise, allocate or know about tensors and devices. */
#include "cast.h"

#include "cpu_features.h"
#include "half_simd.h"

#include <string.h>

/* dense runs get their own loop, which the compiler vectorises; so does one value written to a dense run
 * (a fill, a broadcast), converted once */
#define CAST_LOOP(D, S, CONVERT)                                                                     \
    do {                                                                                             \
        if (dst_stride == (int64_t)sizeof(D) && src_stride == (int64_t)sizeof(S)) {                  \
            D *d_ = (D *)dst;                                                                        \
            const S *s_ = (const S *)src;                                                            \
            for (int64_t i = 0; i < n; i++) {                                                        \
                S v = s_[i];                                                                         \
                d_[i] = CONVERT;                                                                     \
            }                                                                                        \
        }                                                                                            \
        else if (dst_stride == (int64_t)sizeof(D) && src_stride == 0) {                              \
            D *d_ = (D *)dst;                                                                        \
            S v = *(const S *)src;                                                                   \
            D one_ = CONVERT;                                                                        \
            for (int64_t i = 0; i < n; i++) {                                                        \
                d_[i] = one_;                                                                        \
            }                                                                                        \
        }                                                                                            \
        else {                                                                                       \
            for (int64_t i = 0; i < n; i++) {                                                        \
                S v = *(const S *)(src + i * src_stride);                                            \
                *(D *)(dst + i * dst_stride) = CONVERT;                                              \
            }                                                                                        \
        }                                                                                            \
    } while (0)

/* ---- float16 and bfloat16 <-> float32, dense runs -------------------------------------------------- */

/* Plain C loops (the compiler vectorises bfloat16's, which are integer arithmetic): the conversions of CPUs
 * without AVX2, and of the last few elements of a run on the others */
static void
reduced_to_float_dense(mt_dtype d, float *out, const uint16_t *in, int64_t n)
{
    if (d == MT_BFLOAT16) {
        for (int64_t i = 0; i < n; i++) {
            out[i] = mt_bfloat16_to_float(in[i]);
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        out[i] = mt_half_to_float(in[i]);
    }
}

static void
float_to_reduced_dense(mt_dtype d, uint16_t *out, const float *in, int64_t n)
{
    if (d == MT_BFLOAT16) {
        for (int64_t i = 0; i < n; i++) {
            out[i] = mt_float_to_bfloat16(in[i]);
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        out[i] = mt_float_to_half(in[i]);
    }
}

/* With AVX-512 or AVX2 the dense runs convert 16 or 8 values at a time with half_simd.h's instructions
 * (float16's conversion instructions; bfloat16's shifts and rounding on 32-bit lanes), the rest as above. */
#ifdef MT_CPU_CLONES
#define SIMD_CONVERSIONS(ISA, W)                                                                     \
    __attribute__((target(R16_##ISA))) static void reduced_to_float_##ISA(mt_dtype d, float *out,     \
                                                                       const uint16_t *in, int64_t n) \
    {                                                                                                \
        int64_t i = 0;                                                                               \
        for (; i + (W) <= n; i += (W)) {                                                             \
            r16_load_##ISA(d, out + i, in + i);                                                      \
        }                                                                                            \
        reduced_to_float_dense(d, out + i, in + i, n - i);                                           \
    }                                                                                                \
    __attribute__((target(R16_##ISA))) static void float_to_reduced_##ISA(mt_dtype d, uint16_t *out,  \
                                                                       const float *in, int64_t n)   \
    {                                                                                                \
        int64_t i = 0;                                                                               \
        for (; i + (W) <= n; i += (W)) {                                                             \
            r16_store_##ISA(d, out + i, in + i);                                                     \
        }                                                                                            \
        float_to_reduced_dense(d, out + i, in + i, n - i);                                           \
    }
SIMD_CONVERSIONS(V4, 16)
SIMD_CONVERSIONS(V3, 8)
#endif

static void
reduced_to_float(mt_dtype d, float *out, const uint16_t *in, int64_t n)
{
#ifdef MT_CPU_CLONES
    switch (mt_cpu_isa_level()) {
    case MT_CPU_ISA_AVX512:
        reduced_to_float_V4(d, out, in, n);
        return;
    case MT_CPU_ISA_AVX2:
        reduced_to_float_V3(d, out, in, n);
        return;
    default:
        break;
    }
#endif
    reduced_to_float_dense(d, out, in, n);
}

static void
float_to_reduced(mt_dtype d, uint16_t *out, const float *in, int64_t n)
{
#ifdef MT_CPU_CLONES
    switch (mt_cpu_isa_level()) {
    case MT_CPU_ISA_AVX512:
        float_to_reduced_V4(d, out, in, n);
        return;
    case MT_CPU_ISA_AVX2:
        float_to_reduced_V3(d, out, in, n);
        return;
    default:
        break;
    }
#endif
    float_to_reduced_dense(d, out, in, n);
}

/* float16 and bfloat16 convert through float32 (c10::Half's constructors take a float; its value is a
 * float), in blocks on the stack */
#define REDUCED_BLOCK 256

static void
cast_reduced(char *dst, mt_dtype dst_dtype, int64_t dst_stride, const char *src, mt_dtype src_dtype,
             int64_t src_stride, int64_t n)
{
    float buf[REDUCED_BLOCK];

    if (mt_dtype_is_reduced_floating(src_dtype) && src_stride == 2 && dst_dtype == MT_FLOAT32 && dst_stride == 4) {
        reduced_to_float(src_dtype, (float *)dst, (const uint16_t *)src, n);
        return;
    }
    if (mt_dtype_is_reduced_floating(dst_dtype) && dst_stride == 2 && src_dtype == MT_FLOAT32 && src_stride == 4) {
        float_to_reduced(dst_dtype, (uint16_t *)dst, (const float *)src, n);
        return;
    }
    for (int64_t start = 0; start < n; start += REDUCED_BLOCK) {
        int64_t m = n - start < REDUCED_BLOCK ? n - start : REDUCED_BLOCK;
        const char *s = src + start * src_stride;
        char *d = dst + start * dst_stride;
        if (mt_dtype_is_reduced_floating(src_dtype) && src_stride == 2) {
            reduced_to_float(src_dtype, buf, (const uint16_t *)s, m);
        }
        else if (mt_dtype_is_reduced_floating(src_dtype)) {
            for (int64_t i = 0; i < m; i++) {
                buf[i] = mt_reduced_to_float(src_dtype, *(const uint16_t *)(s + i * src_stride));
            }
        }
        else {
            mt_cpu_cast((char *)buf, MT_FLOAT32, 4, s, src_dtype, src_stride, m);
        }
        if (mt_dtype_is_reduced_floating(dst_dtype) && dst_stride == 2) {
            float_to_reduced(dst_dtype, (uint16_t *)d, buf, m);
        }
        else if (mt_dtype_is_reduced_floating(dst_dtype)) {
            for (int64_t i = 0; i < m; i++) {
                *(uint16_t *)(d + i * dst_stride) = mt_float_to_reduced(dst_dtype, buf[i]);
            }
        }
        else {
            mt_cpu_cast(d, dst_dtype, dst_stride, (const char *)buf, MT_FLOAT32, 4, m);
        }
    }
}

void
mt_cpu_cast(char *dst, mt_dtype dst_dtype, int64_t dst_stride, const char *src, mt_dtype src_dtype,
            int64_t src_stride, int64_t n)
{
    size_t size = mt_dtype_size(dst_dtype);

    if (dst_dtype == src_dtype) {
        if (dst_stride == (int64_t)size && src_stride == (int64_t)size) {
            memcpy(dst, src, (size_t)n * size);
            return;
        }
        switch (size) {
        case 1:
            CAST_LOOP(uint8_t, uint8_t, v);
            return;
        case 2:
            CAST_LOOP(uint16_t, uint16_t, v);
            return;
        case 4:
            CAST_LOOP(uint32_t, uint32_t, v);
            return;
        default:
            CAST_LOOP(uint64_t, uint64_t, v);
            return;
        }
    }
    if (mt_dtype_is_reduced_floating(dst_dtype) || mt_dtype_is_reduced_floating(src_dtype)) {
        if (src_stride == 0 && n > 1) {
            /* a broadcast value: converted once */
            cast_reduced(dst, dst_dtype, 0, src, src_dtype, 0, 1);
            mt_cpu_cast(dst + dst_stride, dst_dtype, dst_stride, dst, dst_dtype, 0, n - 1);
            return;
        }
        cast_reduced(dst, dst_dtype, dst_stride, src, src_dtype, src_stride, n);
        return;
    }
    if (dst_dtype == MT_BOOL) {
        MT_DISPATCH_DTYPE(src_dtype, S, CAST_LOOP(uint8_t, S, (uint8_t)(v != 0)))
        return;
    }
    if (mt_dtype_is_floating(src_dtype) && !mt_dtype_is_floating(dst_dtype)) {
        MT_DISPATCH_DTYPE(dst_dtype, D, MT_DISPATCH_DTYPE(src_dtype, S, CAST_LOOP(D, S, MT_FLOAT_TO_INT(D, v))))
        return;
    }
    MT_DISPATCH_DTYPE(dst_dtype, D, MT_DISPATCH_DTYPE(src_dtype, S, CAST_LOOP(D, S, (D)v)))
}
