/* PyTorch's CPU random number generator, bit for bit (torch 2.13, x86-64 and others).
 *
 * This header owns the CPU generator: the mt19937 engine as torch seeds and steps it, the
 * normal-sample cache, the 5056-byte state torch.get_rng_state() returns, and the transforms
 * torch's CPU kernels apply for rand/uniform_, randn/normal_ and randint/random_(from, to).
 * It writes plain arrays of values; it must not know about tensors, strides, dtype objects,
 * Python, locks or CUDA. The op layer decides the shape, checks the arguments (raising torch's
 * errors) and serialises calls on one generator; csrc/core/generator.c owns the process-wide
 * default generator.
 * CUDA-device tensors use the Philox stream in philox.h instead.
 *
 * Which path torch takes, and so which function to call:
 *   rand / uniform_     mt_cpu_rand_* / mt_cpu_uniform_*, one draw per element in torch's
 *                       iteration order (see below).
 *   randn / normal_     a contiguous tensor with numel >= 16 takes torch's vectorised fill;
 *                       anything else (numel < 16, or not contiguous) takes the one-at-a-time
 *                       Box-Muller with a cached second sample. mt_cpu_normal_* picks by
 *                       (n, path). float16 and bfloat16 fill float32 values, which the op
 *                       layer rounds, drawing their uniforms block by block.
 *   randint / random_   mt_cpu_randint: one 32-bit draw per element when high - low < 2^28,
 *                       else one 64-bit draw, whatever the output dtype.
 * Iteration order: element order for a contiguous tensor; for other layouts torch's
 * TensorIterator order, which for a dense permuted tensor (e.g. a transpose) is memory order
 * (checked against torch: torch.empty(5, 4).t().normal_() holds the sequence in storage
 * order). The caller writes the n values through its strides in that order.
 *
 * Build note: this file's arithmetic must stay IEEE (no -ffast-math). Intended multiply-adds
 * are explicit fma calls; rng.c turns implicit contraction off.
 */
#ifndef MT_KERNELS_CPU_RNG_H
#define MT_KERNELS_CPU_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The seed of a fresh torch.Generator() (and of older torch's default generator). torch 2.13
 * seeds its *default* CPU generator from /dev/urandom at first use instead; core/generator.c
 * gets that behaviour from mt_cpu_nondeterministic_seed(). */
#define MT_CPU_DEFAULT_SEED UINT64_C(67280421310721)
#define MT_MT19937_N 624
/* sizeof(at::detail::CPUGeneratorImplState) on LP64: torch.get_rng_state().numel() */
#define MT_CPU_RNG_STATE_BYTES 5056

/* Which of torch's CPU kernel builds to reproduce. torch compiles its distribution kernels
 * once per CPU capability and picks one at run time, and the builds differ in bits: the AVX2
 * and AVX-512 builds fuse multiply-adds (uniform_'s scaling, normal_'s mean/std) and turn
 * float32 uniforms into normals with avx_mathfun's Cephes log/sincos; the DEFAULT build rounds
 * uniform_'s and the one-at-a-time normal's multiply-add twice and uses libm's logf/cosf/sinf
 * for the float32 fill. (AVX-512 machines run the AVX2 normal kernel: torch registers none
 * for AVX-512.) Both were measured against torch 2.13, the DEFAULT one with
 * ATEN_CPU_CAPABILITY=default. */
typedef enum mt_cpu_capability {
    MT_CPU_CAPABILITY_AVX2 = 0,     /* x86-64 with AVX2 and FMA: every current x86 CPU */
    MT_CPU_CAPABILITY_DEFAULT = 1   /* ATEN_CPU_CAPABILITY=default, and non-x86 machines */
} mt_cpu_capability;

typedef struct mt_cpu_generator {
    uint64_t seed;                  /* initial_seed(); mt19937 itself uses its low 32 bits */
    uint32_t state[MT_MT19937_N];
    int32_t left;                   /* counts down to the next twist; 1..624 */
    uint32_t next;                  /* index of the next state word to temper */
    int has_next_double_normal;     /* Box-Muller's spare (sine) sample, used by every dtype */
    double next_double_normal;
    int has_next_float_normal;      /* never filled by the CPU kernels; kept for set/get_state */
    float next_float_normal;
    mt_cpu_capability capability;   /* set by init from the running CPU; not in the state bytes */
} mt_cpu_generator;

/* Output element types for mt_cpu_randint. */
typedef enum mt_rng_dtype {
    MT_RNG_BOOL = 0,
    MT_RNG_UINT8,
    MT_RNG_INT8,
    MT_RNG_INT16,
    MT_RNG_INT32,
    MT_RNG_INT64,
    MT_RNG_FLOAT32,
    MT_RNG_FLOAT64
} mt_rng_dtype;

/* Return codes. */
#define MT_RNG_OK 0
#define MT_RNG_ERR_RANGE (-1)     /* low >= high: torch raises "random_ expects 'from' to be
                                     less than 'to', but got from=L >= to=H" */
#define MT_RNG_ERR_DTYPE (-2)     /* not one of mt_rng_dtype */
#define MT_RNG_ERR_SIZE (-3)      /* set_state: "Expected a CPUGeneratorImplState of size 5056
                                     but found the input RNG state size to be N" */
#define MT_RNG_ERR_INVALID (-4)   /* set_state: "Invalid mt19937 state" */

/* ---- seeding ---------------------------------------------------------------------------- */

/* A generator seeded with `seed`, like torch.Generator().manual_seed(seed). */
void mt_cpu_generator_init(mt_cpu_generator *g, uint64_t seed);
/* Seeded with MT_CPU_DEFAULT_SEED, like a fresh torch.Generator(). */
void mt_cpu_generator_init_default(mt_cpu_generator *g);
/* torch.manual_seed for this generator: mt19937 is seeded from the low 32 bits (torch's
 * init_with_uint32), initial_seed() keeps all 64, and both cached normals are dropped. The
 * Python layer maps negative seeds as torch does (s + 2^64) before calling. */
void mt_cpu_generator_manual_seed(mt_cpu_generator *g, uint64_t seed);
uint64_t mt_cpu_generator_initial_seed(const mt_cpu_generator *g);
/* 64 bits from /dev/urandom (what torch seeds its default CPU generator with), falling back to
 * the clock where there is no /dev/urandom. */
uint64_t mt_cpu_nondeterministic_seed(void);
/* The capability torch picks on this machine: AVX2 on x86-64 with AVX2 and FMA unless
 * ATEN_CPU_CAPABILITY=default is set, DEFAULT elsewhere. init stores it in g->capability;
 * tests may overwrite that field to check the other build. */
mt_cpu_capability mt_cpu_detect_capability(void);

/* ---- raw draws -------------------------------------------------------------------------- */

uint32_t mt_cpu_random(mt_cpu_generator *g);    /* one mt19937 output */
uint64_t mt_cpu_random64(mt_cpu_generator *g);  /* (first draw << 32) | second draw */

/* ---- state bytes (torch.get_rng_state / set_rng_state) ---------------------------------- */

/* Writes torch's CPUGeneratorImplState layout (little-endian LP64), padding zeroed. */
void mt_cpu_generator_get_state(const mt_cpu_generator *g, uint8_t out[MT_CPU_RNG_STATE_BYTES]);
/* Loads such bytes; MT_RNG_ERR_SIZE or MT_RNG_ERR_INVALID leave g unchanged. */
int mt_cpu_generator_set_state(mt_cpu_generator *g, const uint8_t *bytes, int64_t nbytes);

/* ---- distributions ---------------------------------------------------------------------- */

/* torch.rand: [0, 1). float32 uses the low 24 bits of one 32-bit draw, float64 the low 53
 * bits of one 64-bit draw. */
void mt_cpu_rand_float(mt_cpu_generator *g, float *out, int64_t n);
void mt_cpu_rand_double(mt_cpu_generator *g, double *out, int64_t n);
/* Tensor.uniform_(from, to): the same draw u scaled in the tensor's type as u * (to - from)
 * + from, from/to first rounded to it (one fma in the AVX2 build). The caller has checked
 * from <= to. */
void mt_cpu_uniform_float(mt_cpu_generator *g, float *out, int64_t n, double from, double to);
void mt_cpu_uniform_double(mt_cpu_generator *g, double *out, int64_t n, double from,
                           double to);

/* torch.randn of a contiguous tensor of n elements. */
void mt_cpu_randn_float(mt_cpu_generator *g, float *out, int64_t n);
void mt_cpu_randn_double(mt_cpu_generator *g, double *out, int64_t n);
/* Which fill torch's normal kernel takes for a tensor of at least 16 elements: */
enum {
    MT_NORMAL_ONE_AT_A_TIME = 0, /* not contiguous: one Box-Muller draw per element, in iteration order */
    MT_NORMAL_FILL = 1,          /* contiguous: uniforms for every element, then blocks of 16 */
    MT_NORMAL_FILL_16BIT = 2     /* contiguous float16/bfloat16 (float32 values, rounded by the caller):
                                  * uniforms for the whole blocks of 16 only */
};
/* Tensor.normal_(mean, std) on n elements, by `path` above (fewer than 16 elements are always one at a
 * time). The caller has checked std >= 0. */
void mt_cpu_normal_float(mt_cpu_generator *g, float *out, int64_t n, double mean, double std,
                         int path);
void mt_cpu_normal_double(mt_cpu_generator *g, double *out, int64_t n, double mean,
                          double std, int path);

/* torch.randint(low, high, ...) / random_(low, high): n values in [low, high) written to out
 * as `dtype` (bool is 1 byte). For float32/float64 the bounds are first moved inwards as
 * torch's update_from/update_to do (mt_rng_randint_bounds). Each value is
 * low + draw % (high - low), the draw being 32 bits when high - low < 2^28 and 64 bits
 * otherwise (torch 2.13's rule; older torch switched at 2^32). The caller has checked that
 * [low, high) fits the dtype as torch does (check_from_to_in_range); MT_RNG_ERR_RANGE means
 * low >= high, before or after the float adjustment. */
int mt_cpu_randint(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n, int64_t low,
                   int64_t high);
/* The bounds torch really uses for a floating dtype (unchanged for integer dtypes), for the
 * op layer's "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype,
 * but got from=L >= to=H" message. */
void mt_rng_randint_bounds(mt_rng_dtype dtype, int64_t *low, int64_t *high);
/* random_(from, None): values in [low, high_inclusive] as randint draws them; the pair
 * (INT64_MIN, INT64_MAX) is torch's full 64-bit range (a 64-bit draw as int64). */
int mt_cpu_random_from(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n, int64_t low,
                       int64_t high_inclusive);
/* random_() without bounds: [0, max] for integers (bool: 0 or 1), [0, 2^digits] for floats. */
int mt_cpu_random_full(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n);
/* torch.randperm(n) on the CPU: a permutation of 0..n-1 as int64. */
void mt_cpu_randperm(mt_cpu_generator *g, int64_t *out, int64_t n);
int mt_cpu_randint_int64(mt_cpu_generator *g, int64_t *out, int64_t n, int64_t low,
                         int64_t high);

#ifdef __cplusplus
}
#endif

#endif /* MT_KERNELS_CPU_RNG_H */
