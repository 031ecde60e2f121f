/* half_simd.h: float16 and bfloat16 to float32 and back with x86 vector instructions, for the host kernels
 * that convert dense runs themselves (cast.c's dense conversions, elementwise.c's fused 16-bit loops).
 * r16_load_V4/r16_store_V4 take 16 values (AVX-512), r16_load_V3/r16_store_V3 8 (AVX2 with F16C); a
 * caller compiles them into a function with the matching target (R16_V4, R16_V3) and picks it by
 * mt_cpu_isa_level() (cpu_features.h). Their results are mt_half_to_float/mt_bfloat16_to_float's and
 * mt_float_to_half/mt_float_to_bfloat16's, bit for bit: to nearest even, subnormals kept, overflow to
 * infinity, and a NaN becomes c10's quiet NaN (the float16 instruction keeps the payload's top bits
 * instead, so a group holding a NaN is rounded again by the scalar function). Only where MT_CPU_CLONES
 * is defined (x86 with GCC or clang). */
#ifndef MT_KERNELS_CPU_HALF_SIMD_H
#define MT_KERNELS_CPU_HALF_SIMD_H

#include "cpu_features.h"

#ifdef MT_CPU_CLONES
#include <immintrin.h>
#include <stdint.h>

#include "../../core/scalar_type.h"

#define R16_V4 "avx512f,avx512bw,avx512dq,avx512vl,fma,f16c"
#define R16_V3 "avx2,fma,f16c"

/* 16 float16 or bfloat16 values from p as float32 into buf, and buf rounded into p */
__attribute__((target(R16_V4), always_inline)) static inline void
r16_load_V4(mt_dtype d, float *buf, const uint16_t *p)
{
    __m256i h = _mm256_loadu_si256((const __m256i *)p);
    if (d == MT_FLOAT16) {
        _mm512_storeu_ps(buf, _mm512_cvtph_ps(h));
    }
    else {
        _mm512_storeu_si512(buf, _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
}

__attribute__((target(R16_V4), always_inline)) static inline void
r16_store_V4(mt_dtype d, uint16_t *p, const float *buf)
{
    __m512 x = _mm512_loadu_ps(buf);
    __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    if (d == MT_FLOAT16) {
        _mm256_storeu_si256((__m256i *)p, _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        if (nan) {
            for (int k = 0; k < 16; k++) {
                p[k] = mt_float_to_half(buf[k]);
            }
        }
    }
    else {
        __m512i u = _mm512_castps_si512(x);
        __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
        __m512i r = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff))), 16);
        r = _mm512_mask_mov_epi32(r, nan, _mm512_set1_epi32(0x7fc0));
        _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(r));
    }
}

/* the same for 8 values */
__attribute__((target(R16_V3), always_inline)) static inline void
r16_load_V3(mt_dtype d, float *buf, const uint16_t *p)
{
    __m128i h = _mm_loadu_si128((const __m128i *)p);
    if (d == MT_FLOAT16) {
        _mm256_storeu_ps(buf, _mm256_cvtph_ps(h));
    }
    else {
        _mm256_storeu_si256((__m256i *)buf, _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    }
}

__attribute__((target(R16_V3), always_inline)) static inline void
r16_store_V3(mt_dtype d, uint16_t *p, const float *buf)
{
    __m256 x = _mm256_loadu_ps(buf);
    __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
    if (d == MT_FLOAT16) {
        _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        if (_mm256_movemask_ps(nan) != 0) {
            for (int k = 0; k < 8; k++) {
                p[k] = mt_float_to_half(buf[k]);
            }
        }
    }
    else {
        __m256i u = _mm256_castps_si256(x);
        __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
        __m256i r = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff))), 16);
        r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7fc0), _mm256_castps_si256(nan));
        /* the eight 32-bit lanes (each below 2^16) packed to 16 bits, in order */
        r = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08);
        _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(r));
    }
}

#endif
#endif
