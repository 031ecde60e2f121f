/* cpu_features.h: which x86 instruction-set extensions the running CPU has, for the host kernels compiled
 * twice (a portable version, and a clone with __attribute__((target(...))) chosen at run time). Where the
 * compiler has no such clones (not GCC or clang, not x86), MT_CPU_CLONES is undefined and only the
 * portable versions exist. */
#ifndef MT_KERNELS_CPU_FEATURES_H
#define MT_KERNELS_CPU_FEATURES_H

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MT_CPU_CLONES 1

enum {
    MT_CPU_FMA = 1,     /* fused multiply-add */
    MT_CPU_F16C = 2     /* AVX and F16C: eight float16 <-> float32 conversions at a time */
};

/* The MT_CPU_* bits the CPU has. Each file caches its own answer: a benign race, as every thread computes
 * the same one. */
static inline int
mt_cpu_features(void)
{
    static int features = -1;
    if (features < 0) {
        __builtin_cpu_init();
        features = (__builtin_cpu_supports("fma") ? MT_CPU_FMA : 0) |
                   (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c") ? MT_CPU_F16C : 0);
    }
    return features;
}

/* The vector width, in bytes, of torch's CPU kernels on this CPU (its DispatchStub capability): 64 with
 * AVX-512 (VL, BW and DQ) and FMA, 32 with AVX2 and FMA, else 0 (torch's portable kernels, whose vector
 * math is the C library's, element by element). ATEN_CPU_CAPABILITY ("avx512", "avx2", "default")
 * overrides it, as it does torch's choice. For the kernels whose values depend on which elements torch
 * computes in whole vectors (sigmoid's exp). */
static inline int
mt_cpu_torch_vector_bytes(void)
{
    static int bytes = -1;
    if (bytes < 0) {
        const char *env = getenv("ATEN_CPU_CAPABILITY");
        int b;
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma")) {
            b = 64;
        }
        else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            b = 32;
        }
        else {
            b = 0;
        }
        if (env != NULL && strcmp(env, "avx512") == 0) {
            b = 64;
        }
        else if (env != NULL && strcmp(env, "avx2") == 0) {
            b = 32;
        }
        else if (env != NULL && strcmp(env, "default") == 0) {
            b = 0;
        }
        bytes = b;
    }
    return bytes;
}
#else
static inline int
mt_cpu_torch_vector_bytes(void)
{
    return 0;
}
#endif

#endif
