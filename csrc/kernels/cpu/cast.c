/* cast.c: the host cast kernel (see cast.h). Equal dtypes copy bits (a NaN's payload survives, as
 * memcpy keeps it); other pairs convert element by element in one typed loop per pair, floating to
 * integer as torch's x86 CPU build does (MT_FLOAT_TO_INT, scalar_type.h). It must not
 * raise, allocate or know about tensors and devices. */
#include "cast.h"

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

/* float16 and bfloat16 convert through float32 (c10::Half's constructors take a float; its value is a
 * float), in blocks on the stack */
#define REDUCED_BLOCK 256

static void
cast_reduced(char *dst, mt_dtype dst_dtype, int64_t dst_stride, const char *src, mt_dtype src_dtype,
             int64_t src_stride, int64_t n)
{
    float buf[REDUCED_BLOCK];

    for (int64_t start = 0; start < n; start += REDUCED_BLOCK) {
        int64_t m = n - start < REDUCED_BLOCK ? n - start : REDUCED_BLOCK;
        const char *s = src + start * src_stride;
        char *d = dst + start * dst_stride;
        if (mt_dtype_is_reduced_floating(src_dtype)) {
            for (int64_t i = 0; i < m; i++) {
                buf[i] = mt_reduced_to_float(src_dtype, *(const uint16_t *)(s + i * src_stride));
            }
        }
        else {
            mt_cpu_cast((char *)buf, MT_FLOAT32, 4, s, src_dtype, src_stride, m);
        }
        if (mt_dtype_is_reduced_floating(dst_dtype)) {
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
