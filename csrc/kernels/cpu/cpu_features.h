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
    MT_CPU_FMA = 1      /* fused multiply-add */
};

/* The MT_CPU_* bits the CPU has. Each file caches its own answer: a benign race, as every thread computes
 * the same one. */
static inline int
mt_cpu_features(void)
{
    static int features = -1;
    if (features < 0) {
        __builtin_cpu_init();
        features = __builtin_cpu_supports("fma") ? MT_CPU_FMA : 0;
    }
    return features;
}


/* The widest vector instruction set the hand-written host kernels (the GEMM micro-kernels, the float16 and
 * bfloat16 element-wise loops) may use: AVX-512 (F, BW, DQ and VL, with FMA and F16C), else AVX2 (with FMA
 * and F16C), else none. MINITORCH_CPU_ISA=generic|avx2 caps it (tests use it to run every path). */
typedef enum { MT_CPU_ISA_GENERIC = 0, MT_CPU_ISA_AVX2 = 1, MT_CPU_ISA_AVX512 = 2 } mt_cpu_isa;

static inline mt_cpu_isa
mt_cpu_isa_level(void)
{
    static int level = -1;
    if (level < 0) {
        const char *cap = getenv("MINITORCH_CPU_ISA");
        int l = MT_CPU_ISA_GENERIC;
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")) {
            l = MT_CPU_ISA_AVX2;
            if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
                l = MT_CPU_ISA_AVX512;
            }
        }
        if (cap != NULL && strcmp(cap, "generic") == 0) {
            l = MT_CPU_ISA_GENERIC;
        }
        else if (cap != NULL && strcmp(cap, "avx2") == 0 && l > MT_CPU_ISA_AVX2) {
            l = MT_CPU_ISA_AVX2;
        }
        level = l;
    }
    return (mt_cpu_isa)level;
}

/* Whether the CPU is not Intel's: torch's MKL then takes its generic SSE kernels, whose float32 sqrt is not
 * the correctly rounded one (op_math.h, mt_sqrt_as_mkl_f32). */
static inline int
mt_cpu_mkl_generic(void)
{
    static int generic = -1;
    if (generic < 0) {
        __builtin_cpu_init();
        generic = !__builtin_cpu_is("intel");
    }
    return generic;
}

#endif

/* A loop the compiler vectorises, compiled twice, for x86-64-v3 (AVX2 with FMA) and the baseline ISA, the
 * CPU picking one when the module loads (GCC function multi-versioning). GCC before 12 has no x86-64-v3
 * clone and keeps AVX2 alone. Elsewhere one portable version. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && __GNUC__ >= 12
#define MT_CPU_TARGET_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MT_CPU_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MT_CPU_TARGET_CLONES
#endif

/* The same with a third clone for x86-64-v4 (AVX-512), for the few loops that are bound by arithmetic, not
 * memory (a vectorised exp): twice the lanes there, where the element-wise loops gain nothing. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && __GNUC__ >= 12
#define MT_CPU_TARGET_CLONES_WIDE __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MT_CPU_TARGET_CLONES_WIDE MT_CPU_TARGET_CLONES
#endif

/* torch's CPU capability on this CPU (the choice of its DispatchStub, aten/src/ATen/native/DispatchStub.cpp):
 * AVX-512 with VL, BW, DQ and FMA; else AVX2 with FMA; else its portable kernels. ATEN_CPU_CAPABILITY
 * ("avx512", "avx2", "default") overrides the choice, as it does torch's. For the kernels whose values
 * follow torch's vectorised code paths: the random number generators, and sigmoid's exp. */
typedef enum { MT_TORCH_CPU_DEFAULT, MT_TORCH_CPU_AVX2, MT_TORCH_CPU_AVX512 } mt_torch_cpu;

static inline mt_torch_cpu
mt_cpu_torch_capability(void)
{
    static int capability = -1;
    if (capability < 0) {
        const char *env = getenv("ATEN_CPU_CAPABILITY");
        int c = MT_TORCH_CPU_DEFAULT;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
        /* the init call makes the check safe even from a library constructor */
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma")) {
            c = MT_TORCH_CPU_AVX512;
        }
        else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            c = MT_TORCH_CPU_AVX2;
        }
#elif defined(_M_X64)
        c = MT_TORCH_CPU_AVX2;
#endif
        /* torch reads the same variable, lower case only */
        if (env != NULL && strcmp(env, "avx512") == 0) {
            c = MT_TORCH_CPU_AVX512;
        }
        else if (env != NULL && strcmp(env, "avx2") == 0) {
            c = MT_TORCH_CPU_AVX2;
        }
        else if (env != NULL && strcmp(env, "default") == 0) {
            c = MT_TORCH_CPU_DEFAULT;
        }
        capability = c;
    }
    return (mt_torch_cpu)capability;
}

/* The width, in bytes, of torch's vectors under that capability: 64, 32, or 0 for the portable kernels,
 * whose vector math is the C library's, element by element. */
static inline int
mt_cpu_torch_vector_bytes(void)
{
    mt_torch_cpu c = mt_cpu_torch_capability();
    return c == MT_TORCH_CPU_AVX512 ? 64 : c == MT_TORCH_CPU_AVX2 ? 32 : 0;
}

#endif
