/* cast.c: the host cast kernel (see cast.h). Equal dtypes copy bits (a NaN's payload survives, as
 * memcpy keeps it); other pairs convert element by element in one typed loop per pair, floating to
 * integer as torch's x86 CPU build does (MT_FLOAT_TO_INT, scalar_type.h). It must not
 * raise, allocate or know about tensors and devices. */
#include "cast.h"

#include "cpu_features.h"

#include <string.h>

/* dense runs get their own loop, which the compiler vectorises */
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
        else {                                                                                       \
            for (int64_t i = 0; i < n; i++) {                                                        \
                S v = *(const S *)(src + i * src_stride);                                            \
                *(D *)(dst + i * dst_stride) = CONVERT;                                              \
            }                                                                                        \
        }                                                                                            \
    } while (0)

/* ---- float16 and bfloat16 <-> float32, dense runs -------------------------------------------------- */

/* Plain C loops the compiler vectorises (bfloat16's conversions are integer arithmetic), twice: with AVX2
 * float32 to bfloat16 takes a third of the baseline's time (its packing of 32-bit lanes into 16 is one
 * instruction there, several shuffles in SSE2). */
MT_CPU_TARGET_CLONES static void
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

MT_CPU_TARGET_CLONES static void
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

/* x86's F16C instructions convert eight float16 values at a time with the same rounding (to nearest
 * even, subnormals kept, overflow to infinity). A NaN is the one difference: the instruction keeps the
 * payload's top bits where c10's conversion (mt_float_to_half) gives the quiet NaN 0x7e00 with the sign,
 * so lanes holding a NaN are redone by mt_float_to_half. Chosen at run time when the CPU has F16C. */
#ifdef MT_CPU_CLONES
#include <immintrin.h>

__attribute__((target("avx,f16c"))) static void
half_to_float_f16c(float *out, const uint16_t *in, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + i))));
    }
    for (; i < n; i++) {
        out[i] = mt_half_to_float(in[i]);
    }
}

__attribute__((target("avx,f16c"))) static void
float_to_half_f16c(uint16_t *out, const float *in, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(in + i);
        _mm_storeu_si128((__m128i *)(out + i), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        if (_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)) != 0) {
            for (int k = 0; k < 8; k++) {
                out[i + k] = mt_float_to_half(in[i + k]);
            }
        }
    }
    for (; i < n; i++) {
        out[i] = mt_float_to_half(in[i]);
    }
}
#endif

static void
reduced_to_float(mt_dtype d, float *out, const uint16_t *in, int64_t n)
{
#ifdef MT_CPU_CLONES
    if (d == MT_FLOAT16 && (mt_cpu_features() & MT_CPU_F16C)) {
        half_to_float_f16c(out, in, n);
        return;
    }
#endif
    reduced_to_float_dense(d, out, in, n);
}

static void
float_to_reduced(mt_dtype d, uint16_t *out, const float *in, int64_t n)
{
#ifdef MT_CPU_CLONES
    if (d == MT_FLOAT16 && (mt_cpu_features() & MT_CPU_F16C)) {
        float_to_half_f16c(out, in, n);
        return;
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
