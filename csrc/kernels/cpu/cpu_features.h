/* cpu_features.h: which x86 instruction-set extensions the running CPU has, for the host kernels compiled
 * twice (a portable version, and a clone with __attribute__((target(...))) chosen at run time). Where the
 * compiler has no such clones (not GCC or clang, not x86), MT_CPU_CLONES is undefined and only the
 * portable versions exist. */
#ifndef MT_KERNELS_CPU_FEATURES_H
#define MT_KERNELS_CPU_FEATURES_H

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
#endif

#endif
