/* PyTorch's CPU generator: mt19937 plus the transforms of torch's CPU distribution kernels.
 *
 * This file owns the arithmetic behind rng.h and nothing else: no tensors, no Python, no
 * locking, no allocation. Every formula follows what torch 2.13's compiled kernels do, down to
 * which multiplies the compiler fused into adds (the AVX2 kernels were built with FMA
 * contraction, so those spots are explicit fma calls here) and which libm function is called
 * in which precision; tests/test_rng_c.py holds the bit patterns torch produced. It must not
 * let the compiler contract anything else (see the pragma below) and must not call exit().
 */

/* Implicit a*b+c contraction would silently change bits on builds that enable FMA
 * (-march=native); every fused operation torch performs is spelled out with fma(). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "rng.h"

#include "cpu_features.h"
#include "philox.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MT_MT19937_M 397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER_MASK 0x80000000u
#define MT_LOWER_MASK 0x7fffffffu

/* c10::pi<double> */
#define MT_PI 3.14159265358979323846

/* ---- mt19937 ----------------------------------------------------------------------------- */

static void
engine_seed(mt_cpu_generator *g, uint64_t seed)
{
    int j;
    g->seed = seed;
    /* torch keeps the 64-bit seed for initial_seed() but initialises from the low word */
    g->state[0] = (uint32_t)(seed & 0xffffffffu);
    for (j = 1; j < MT_MT19937_N; j++) {
        uint32_t prev = g->state[j - 1];
        g->state[j] = 1812433253u * (prev ^ (prev >> 30)) + (uint32_t)j;
    }
    /* left = 1 makes the first draw regenerate the whole block, as torch's engine does */
    g->left = 1;
    g->next = 0;
}

static uint32_t
engine_twist_word(uint32_t u, uint32_t v)
{
    uint32_t mixed = (u & MT_UPPER_MASK) | (v & MT_LOWER_MASK);
    return (mixed >> 1) ^ ((v & 1u) ? MT_MATRIX_A : 0u);
}

static void
engine_next_state(mt_cpu_generator *g)
{
    uint32_t *s = g->state;
    int k;
    for (k = 0; k < MT_MT19937_N - MT_MT19937_M; k++) {
        s[k] = s[k + MT_MT19937_M] ^ engine_twist_word(s[k], s[k + 1]);
    }
    for (; k < MT_MT19937_N - 1; k++) {
        s[k] = s[k + MT_MT19937_M - MT_MT19937_N] ^ engine_twist_word(s[k], s[k + 1]);
    }
    s[MT_MT19937_N - 1] = s[MT_MT19937_M - 1] ^ engine_twist_word(s[MT_MT19937_N - 1], s[0]);
    g->left = MT_MT19937_N;
    g->next = 0;
}

static inline uint32_t
engine_draw(mt_cpu_generator *g)
{
    uint32_t y;
    if (--g->left == 0) {
        engine_next_state(g);
    }
    y = g->state[g->next++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static inline uint64_t
engine_draw64(mt_cpu_generator *g)
{
    /* two separate statements: the first draw is the high word */
    uint64_t hi = engine_draw(g);
    uint64_t lo = engine_draw(g);
    return (hi << 32) | lo;
}

/* ---- seeding ----------------------------------------------------------------------------- */

mt_cpu_capability
mt_cpu_detect_capability(void)
{
    /* torch's generators take one vectorised path under AVX2 and AVX-512 alike */
    return mt_cpu_torch_capability() == MT_TORCH_CPU_DEFAULT ? MT_CPU_CAPABILITY_DEFAULT : MT_CPU_CAPABILITY_AVX2;
}

void
mt_cpu_generator_init(mt_cpu_generator *g, uint64_t seed)
{
    memset(g, 0, sizeof(*g));
    g->capability = mt_cpu_detect_capability();
    mt_cpu_generator_manual_seed(g, seed);
}

void
mt_cpu_generator_init_default(mt_cpu_generator *g)
{
    mt_cpu_generator_init(g, MT_CPU_DEFAULT_SEED);
}

void
mt_cpu_generator_manual_seed(mt_cpu_generator *g, uint64_t seed)
{
    g->has_next_double_normal = 0;
    g->next_double_normal = 0.0;
    g->has_next_float_normal = 0;
    g->next_float_normal = 0.0f;
    engine_seed(g, seed);
}

uint64_t
mt_cpu_generator_initial_seed(const mt_cpu_generator *g)
{
    return g->seed;
}

uint64_t
mt_cpu_nondeterministic_seed(void)
{
    uint64_t s = 0;
    unsigned char buf[8];
    FILE *f = fopen("/dev/urandom", "rb");
    if (f != NULL) {
        size_t got = fread(buf, 1, sizeof(buf), f);
        fclose(f);
        if (got == sizeof(buf)) {
            memcpy(&s, buf, sizeof(s));
            return s;
        }
    }
    /* No urandom (e.g. Windows): torch uses a high-resolution clock there; mix what C has. */
    s = (uint64_t)time(NULL) * UINT64_C(0x9E3779B97F4A7C15);
    s ^= (uint64_t)clock() + UINT64_C(0xBF58476D1CE4E5B9) + (s << 6) + (s >> 2);
    s ^= (uint64_t)(uintptr_t)&s;
    return s;
}

/* ---- raw draws --------------------------------------------------------------------------- */

uint32_t
mt_cpu_random(mt_cpu_generator *g)
{
    return engine_draw(g);
}

uint64_t
mt_cpu_random64(mt_cpu_generator *g)
{
    return engine_draw64(g);
}

/* ---- state bytes ------------------------------------------------------------------------- */

/* Offsets in torch's CPUGeneratorImplState (LP64 layout, little-endian). */
#define ST_SEED 0          /* uint64 the_initial_seed */
#define ST_LEFT 8          /* int left */
#define ST_SEEDED 12       /* int seeded */
#define ST_NEXT 16         /* uint64 next */
#define ST_STATE 24        /* uint64 state[624] */
#define ST_NORMAL_X 5016   /* double, unused */
#define ST_NORMAL_Y 5024   /* double: the cached double normal */
#define ST_NORMAL_RHO 5032 /* double, unused */
#define ST_NORMAL_VALID 5040 /* int */
#define ST_FLOAT_NORMAL 5048 /* float */
#define ST_FLOAT_VALID 5052  /* bool */

static void
put_le(uint8_t *p, uint64_t v, int nbytes)
{
    int i;
    for (i = 0; i < nbytes; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t
get_le(const uint8_t *p, int nbytes)
{
    uint64_t v = 0;
    int i;
    for (i = nbytes - 1; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

void
mt_cpu_generator_get_state(const mt_cpu_generator *g, uint8_t out[MT_CPU_RNG_STATE_BYTES])
{
    int j;
    uint64_t dbits;
    uint32_t fbits;
    memset(out, 0, MT_CPU_RNG_STATE_BYTES);
    put_le(out + ST_SEED, g->seed, 8);
    put_le(out + ST_LEFT, (uint32_t)g->left, 4);
    put_le(out + ST_SEEDED, 1, 4);
    put_le(out + ST_NEXT, g->next, 8);
    for (j = 0; j < MT_MT19937_N; j++) {
        put_le(out + ST_STATE + 8 * j, g->state[j], 8);
    }
    if (g->has_next_double_normal) {
        memcpy(&dbits, &g->next_double_normal, 8);
        put_le(out + ST_NORMAL_Y, dbits, 8);
        put_le(out + ST_NORMAL_VALID, 1, 4);
    }
    if (g->has_next_float_normal) {
        memcpy(&fbits, &g->next_float_normal, 4);
        put_le(out + ST_FLOAT_NORMAL, fbits, 4);
        out[ST_FLOAT_VALID] = 1;
    }
}

int
mt_cpu_generator_set_state(mt_cpu_generator *g, const uint8_t *bytes, int64_t nbytes)
{
    int32_t left, seeded;
    uint32_t next;
    uint64_t dbits;
    uint32_t fbits;
    int j;
    if (nbytes != MT_CPU_RNG_STATE_BYTES) {
        return MT_RNG_ERR_SIZE;
    }
    left = (int32_t)(uint32_t)get_le(bytes + ST_LEFT, 4);
    seeded = (int32_t)(uint32_t)get_le(bytes + ST_SEEDED, 4);
    next = (uint32_t)get_le(bytes + ST_NEXT, 8); /* torch truncates the legacy 64-bit field */
    if (seeded == 0 || left <= 0 || left > MT_MT19937_N || next > MT_MT19937_N) {
        return MT_RNG_ERR_INVALID;
    }
    g->seed = get_le(bytes + ST_SEED, 8);
    g->left = left;
    g->next = next;
    for (j = 0; j < MT_MT19937_N; j++) {
        g->state[j] = (uint32_t)get_le(bytes + ST_STATE + 8 * j, 8);
    }
    g->has_next_double_normal = get_le(bytes + ST_NORMAL_VALID, 4) != 0;
    dbits = get_le(bytes + ST_NORMAL_Y, 8);
    memcpy(&g->next_double_normal, &dbits, 8);
    if (!g->has_next_double_normal) {
        g->next_double_normal = 0.0;
    }
    g->has_next_float_normal = bytes[ST_FLOAT_VALID] != 0;
    fbits = (uint32_t)get_le(bytes + ST_FLOAT_NORMAL, 4);
    memcpy(&g->next_float_normal, &fbits, 4);
    if (!g->has_next_float_normal) {
        g->next_float_normal = 0.0f;
    }
    return MT_RNG_OK;
}

/* ---- uniform ----------------------------------------------------------------------------- */

/* at::uniform_real_distribution: mask to the mantissa width, scale by 2^-digits. */
static inline float
draw_unit_float(mt_cpu_generator *g)
{
    return (float)(engine_draw(g) & 0xFFFFFFu) * 5.9604644775390625e-8f;
}

static inline double
draw_unit_double(mt_cpu_generator *g)
{
    return (double)(engine_draw64(g) & UINT64_C(0x1FFFFFFFFFFFFF))
           * 1.1102230246251565404236316680908203125e-16;
}

void
mt_cpu_rand_float(mt_cpu_generator *g, float *out, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        out[i] = draw_unit_float(g);
    }
}

void
mt_cpu_rand_double(mt_cpu_generator *g, double *out, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        out[i] = draw_unit_double(g);
    }
}

/* a * b + c as torch's build computes it: one rounding where the compiler fused it (the AVX2
 * and AVX-512 builds), two in the DEFAULT build. */
static inline float
madd_float(int fused, float a, float b, float c)
{
    if (fused) {
        return fmaf(a, b, c);
    }
    return a * b + c;
}

static inline double
madd_double(int fused, double a, double b, double c)
{
    if (fused) {
        return fma(a, b, c);
    }
    return a * b + c;
}

static inline int
fuses(const mt_cpu_generator *g)
{
    return g->capability == MT_CPU_CAPABILITY_AVX2;
}

void
mt_cpu_uniform_float(mt_cpu_generator *g, float *out, int64_t n, double from, double to)
{
    float f = (float)from;
    float range = (float)to - f;
    int fused = fuses(g);
    int64_t i;
    float t = (float)to;
    for (i = 0; i < n; i++) {
        /* torch keeps [from, to) half-open: a value that rounds up to `to` becomes `from` */
        float v = madd_float(fused, draw_unit_float(g), range, f);
        out[i] = v == t ? f : v;
    }
}

void
mt_cpu_uniform_double(mt_cpu_generator *g, double *out, int64_t n, double from, double to)
{
    double range = to - from;
    int fused = fuses(g);
    int64_t i;
    for (i = 0; i < n; i++) {
        double v = madd_double(fused, draw_unit_double(g), range, from);
        out[i] = v == to ? from : v;
    }
}

/* ---- normal: one at a time (numel < 16, or not contiguous) ------------------------------- */

/* at::normal_distribution<double>, which torch uses for every dtype on this path: Box-Muller
 * from two 64-bit uniforms, the sine sample cached on the generator for the next call (and
 * dropped only by manual_seed or set_state). */
static double
normal_one(mt_cpu_generator *g, double mean, double std)
{
    double u1, u2, r, theta;
    int fused = fuses(g);
    if (g->has_next_double_normal) {
        g->has_next_double_normal = 0;
        return madd_double(fused, g->next_double_normal, std, mean);
    }
    u1 = draw_unit_double(g);
    u2 = draw_unit_double(g);
    r = sqrt(-2.0 * log1p(-u2));
    theta = 2.0 * MT_PI * u1;
    g->next_double_normal = r * sin(theta);
    g->has_next_double_normal = 1;
    return madd_double(fused, r * cos(theta), std, mean);
}

/* ---- normal: torch's fill for contiguous tensors of >= 16 elements ----------------------- */

/* Box-Muller on a block of 16 uniforms: element j and j+8 share a radius (from 1 - u[j]) and
 * an angle (from u[j+8]). This is normal_fill_16_AVX2, one lane at a time; the final
 * multiply-add is the kernel's explicit _mm256_fmadd_ps. */
static void
fill16_float_avx2(float *d, float mean, float std)
{
    const float two_pi = (float)(2.0f * MT_PI);
    int j;
    for (j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(-2.0f * mt_cephes_logf(u1));
        float s, c;
        mt_cephes_sincosf(two_pi * u2, &s, &c);
        d[j] = fmaf(radius * c, std, mean);
        d[j + 8] = fmaf(radius * s, std, mean);
    }
}

/* normal_fill_16<float> of torch's DEFAULT build: the angle is computed in double
 * (2.0f * pi<double> promotes) but stored as float, then float libm. The mean/std step is a
 * single rounding even in that build (measured against torch 2.13 with
 * ATEN_CPU_CAPABILITY=default, unlike uniform_ and the one-at-a-time path). */
static void
fill16_float_default(float *d, float mean, float std)
{
    int j;
    for (j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(-2.0f * logf(u1));
        float theta = (float)(2.0 * MT_PI * (double)u2);
        d[j] = fmaf(radius * cosf(theta), std, mean);
        d[j + 8] = fmaf(radius * sinf(theta), std, mean);
    }
}

/* normal_fill_16<double>, both builds: libm in double, one rounding for the mean/std step. */
static void
fill16_double(double *d, double mean, double std)
{
    int j;
    for (j = 0; j < 8; j++) {
        double u1 = 1.0 - d[j];
        double u2 = d[j + 8];
        double radius = sqrt(-2.0 * log(u1));
        double theta = 2.0 * MT_PI * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

/* The transform of `blocks` consecutive blocks of 16 uniforms, in place. */
static void
blocks16_float(float *d, int64_t blocks, float mean, float std, int avx2)
{
    int64_t b;
    for (b = 0; b < blocks; b++) {
        if (avx2) {
            fill16_float_avx2(d + 16 * b, mean, std);
        } else {
            fill16_float_default(d + 16 * b, mean, std);
        }
    }
}

static void
blocks16_double(double *d, int64_t blocks, double mean, double std)
{
    int64_t b;
    for (b = 0; b < blocks; b++) {
        fill16_double(d + 16 * b, mean, std);
    }
}

/* Without FMA in the compiler's target, every fma()/fmaf() is a libm call, which makes the
 * float32 transform ten times slower than torch. On x86 the transforms are compiled a second
 * time with FMA enabled (flatten pulls the Cephes helpers in) and chosen at run time when the
 * CPU has FMA. fma is exactly rounded either way, so both versions give the same bits. */
#ifdef MT_CPU_CLONES

__attribute__((target("fma"), flatten)) static void
blocks16_float_fma(float *d, int64_t blocks, float mean, float std, int avx2)
{
    blocks16_float(d, blocks, mean, std, avx2);
}

__attribute__((target("fma"), flatten)) static void
blocks16_double_fma(double *d, int64_t blocks, double mean, double std)
{
    blocks16_double(d, blocks, mean, std);
}
#endif

static void
transform16_float(float *d, int64_t blocks, float mean, float std, int avx2)
{
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        blocks16_float_fma(d, blocks, mean, std, avx2);
        return;
    }
#endif
    blocks16_float(d, blocks, mean, std, avx2);
}

static void
transform16_double(double *d, int64_t blocks, double mean, double std)
{
#ifdef MT_CPU_CLONES
    if ((mt_cpu_features() & MT_CPU_FMA)) {
        blocks16_double_fma(d, blocks, mean, std);
        return;
    }
#endif
    blocks16_double(d, blocks, mean, std);
}

/* Uniforms for the first `drawn` elements (float32: all n; float16 and bfloat16: the whole blocks),
 * Box-Muller in blocks of 16, and when n is not a multiple of 16 the last 16 elements redrawn from
 * fresh uniforms and transformed again (so they overlap the last full block). The normal cache is
 * neither read nor written. */
static void
normal_fill_float(mt_cpu_generator *g, float *out, int64_t n, int64_t drawn, float mean, float std)
{
    int64_t i;
    int avx2 = g->capability == MT_CPU_CAPABILITY_AVX2;
    for (i = 0; i < drawn; i++) {
        out[i] = draw_unit_float(g);
    }
    transform16_float(out, n / 16, mean, std, avx2);
    if (n % 16 != 0) {
        float *tail = out + n - 16;
        for (i = 0; i < 16; i++) {
            tail[i] = draw_unit_float(g);
        }
        transform16_float(tail, 1, mean, std, avx2);
    }
}

static void
normal_fill_double(mt_cpu_generator *g, double *out, int64_t n, double mean, double std)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        out[i] = draw_unit_double(g);
    }
    transform16_double(out, n / 16, mean, std);
    if (n % 16 != 0) {
        double *tail = out + n - 16;
        for (i = 0; i < 16; i++) {
            tail[i] = draw_unit_double(g);
        }
        transform16_double(tail, 1, mean, std);
    }
}

void
mt_cpu_normal_float(mt_cpu_generator *g, float *out, int64_t n, double mean, double std, int path)
{
    int64_t i;
    if (n >= 16 && path != MT_NORMAL_ONE_AT_A_TIME) {
        normal_fill_float(g, out, n, path == MT_NORMAL_FILL_16BIT ? n - n % 16 : n, (float)mean, (float)std);
        return;
    }
    for (i = 0; i < n; i++) {
        out[i] = (float)normal_one(g, mean, std);
    }
}

void
mt_cpu_normal_double(mt_cpu_generator *g, double *out, int64_t n, double mean, double std, int path)
{
    int64_t i;
    if (n >= 16 && path != MT_NORMAL_ONE_AT_A_TIME) {
        normal_fill_double(g, out, n, mean, std);
        return;
    }
    for (i = 0; i < n; i++) {
        out[i] = normal_one(g, mean, std);
    }
}

void
mt_cpu_randn_float(mt_cpu_generator *g, float *out, int64_t n)
{
    mt_cpu_normal_float(g, out, n, 0.0, 1.0, MT_NORMAL_FILL);
}

void
mt_cpu_randn_double(mt_cpu_generator *g, double *out, int64_t n)
{
    mt_cpu_normal_double(g, out, n, 0.0, 1.0, MT_NORMAL_FILL);
}

/* ---- integers ---------------------------------------------------------------------------- */

/* float -> int64 as x86's cvttss2si/cvttsd2si does it (out of range gives INT64_MIN), which
 * is what torch's static_cast compiles to; C leaves that case undefined. */
static int64_t
trunc_to_int64(double x)
{
    if (!(x > -9223372036854775808.0 && x < 9223372036854775808.0)) {
        return INT64_MIN;
    }
    return (int64_t)x;
}

static int64_t
round_trip_int64(int64_t v, int digits)
{
    return digits == 24 ? trunc_to_int64((double)(float)v) : trunc_to_int64((double)v);
}

static int
floor_log2_abs(int64_t v)
{
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n = 0;
    while (a >>= 1) {
        n++;
    }
    return n;
}

void
mt_rng_randint_bounds(mt_rng_dtype dtype, int64_t *low, int64_t *high)
{
    int digits;
    int64_t from = *low, to = *high, moved;
    if (dtype == MT_RNG_FLOAT32) {
        digits = 24;
    } else if (dtype == MT_RNG_FLOAT64) {
        digits = 53;
    } else {
        return;
    }
    /* torch's update_from / update_to (aten/src/ATen/native/DistributionTemplates.h): pull a
     * bound inwards by one float spacing when its neighbour rounds past it. Unsigned adds
     * stand in for torch's int64 +-1, which cannot overflow for bounds torch accepts. */
    moved = round_trip_int64((int64_t)((uint64_t)from + 1u), digits);
    if (moved < from) {
        int n = floor_log2_abs((int64_t)((uint64_t)from + 1u));
        from = (int64_t)((uint64_t)moved + (UINT64_C(1) << (n - digits + 1)));
    }
    moved = round_trip_int64((int64_t)((uint64_t)to - 1u), digits);
    if (moved >= to) {
        int n = floor_log2_abs((int64_t)((uint64_t)to - 1u));
        to = (int64_t)((uint64_t)moved - (UINT64_C(1) << (n - digits + 1)));
    }
    *low = from;
    *high = to;
}

/* Stores one drawn integer as `dtype`, as torch's static_cast from int64 does. */
static inline void
store_int(mt_rng_dtype dtype, void *out, int64_t i, int64_t x)
{
    switch (dtype) {
    case MT_RNG_BOOL:
        ((uint8_t *)out)[i] = x != 0;
        break;
    case MT_RNG_UINT8:
        ((uint8_t *)out)[i] = (uint8_t)x;
        break;
    case MT_RNG_INT8:
        ((int8_t *)out)[i] = (int8_t)x;
        break;
    case MT_RNG_INT16:
        ((int16_t *)out)[i] = (int16_t)x;
        break;
    case MT_RNG_INT32:
        ((int32_t *)out)[i] = (int32_t)x;
        break;
    case MT_RNG_INT64:
        ((int64_t *)out)[i] = x;
        break;
    case MT_RNG_FLOAT32:
        ((float *)out)[i] = (float)x;
        break;
    default:
        ((double *)out)[i] = (double)x;
        break;
    }
}

/* uniform_int_from_to_distribution: (draw % range) + low, computed in uint64 and cast through
 * int64 to the output type. A range of 2^28 or more takes a 64-bit draw (torch's bound for
 * keeping the modulo skew small), anything smaller one 32-bit draw, for every dtype. range 0
 * stands for 2^64: torch's full 64-bit range, the draw itself reinterpreted as int64 (no base). */
static void
random_in_range(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n, int64_t low, uint64_t range)
{
    int wide = range == 0 || range >= (UINT64_C(1) << 28);
    int64_t i;
    for (i = 0; i < n; i++) {
        uint64_t v = wide ? engine_draw64(g) : (uint64_t)engine_draw(g);
        store_int(dtype, out, i, range == 0 ? (int64_t)v : (int64_t)((v % range) + (uint64_t)low));
    }
}

int
mt_cpu_randint(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n, int64_t low,
               int64_t high)
{
    if ((int)dtype < (int)MT_RNG_BOOL || (int)dtype > (int)MT_RNG_FLOAT64) {
        return MT_RNG_ERR_DTYPE;
    }
    if (low >= high) {
        return MT_RNG_ERR_RANGE;
    }
    mt_rng_randint_bounds(dtype, &low, &high);
    if (low >= high) {
        return MT_RNG_ERR_RANGE;
    }
    random_in_range(g, dtype, out, n, low, (uint64_t)high - (uint64_t)low);
    return MT_RNG_OK;
}

int
mt_cpu_random_from(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n, int64_t low,
                   int64_t high_inclusive)
{
    if ((int)dtype < (int)MT_RNG_BOOL || (int)dtype > (int)MT_RNG_FLOAT64) {
        return MT_RNG_ERR_DTYPE;
    }
    if (low == INT64_MIN && high_inclusive == INT64_MAX) {
        random_in_range(g, dtype, out, n, low, 0);
        return MT_RNG_OK;
    }
    if (low > high_inclusive) {
        return MT_RNG_ERR_RANGE;
    }
    random_in_range(g, dtype, out, n, low, (uint64_t)high_inclusive - (uint64_t)low + 1u);
    return MT_RNG_OK;
}

/* Tensor.random_() without bounds: torch's uniform_int transformation. int64 and float64 take
 * a 64-bit draw, the other dtypes a 32-bit one; integers keep draw % (max + 1), floats draw %
 * (2^digits + 1), bool the draw's low bit. */
int
mt_cpu_random_full(mt_cpu_generator *g, mt_rng_dtype dtype, void *out, int64_t n)
{
    int64_t i;
    uint64_t mod;
    switch (dtype) {
    case MT_RNG_BOOL:
        mod = 2;
        break;
    case MT_RNG_UINT8:
        mod = UINT64_C(256);
        break;
    case MT_RNG_INT8:
        mod = UINT64_C(128);
        break;
    case MT_RNG_INT16:
        mod = UINT64_C(32768);
        break;
    case MT_RNG_INT32:
        mod = UINT64_C(2147483648);
        break;
    case MT_RNG_INT64:
        mod = UINT64_C(9223372036854775808);
        break;
    case MT_RNG_FLOAT32:
        mod = (UINT64_C(1) << 24) + 1u;
        break;
    case MT_RNG_FLOAT64:
        mod = (UINT64_C(1) << 53) + 1u;
        break;
    default:
        return MT_RNG_ERR_DTYPE;
    }
    for (i = 0; i < n; i++) {
        int wide = dtype == MT_RNG_INT64 || dtype == MT_RNG_FLOAT64;
        uint64_t v = wide ? engine_draw64(g) : (uint64_t)engine_draw(g);
        store_int(dtype, out, i, (int64_t)(v % mod));
    }
    return MT_RNG_OK;
}

/* randperm_cpu: for n below UINT32_MAX / 20, the identity shuffled front to back by swapping
 * element i with one of i..n-1 picked by a 32-bit draw % (n - i); for larger n the inside-out
 * Fisher-Yates with 64-bit draws (element i placed at draw % (i + 1), what was there moved to
 * the end). */
void
mt_cpu_randperm(mt_cpu_generator *g, int64_t *out, int64_t n)
{
    int64_t i;
    if (n < (int64_t)(UINT32_MAX / 20u)) {
        for (i = 0; i < n; i++) {
            out[i] = i;
        }
        for (i = 0; i < n - 1; i++) {
            int64_t z = (int64_t)(engine_draw(g) % (uint64_t)(n - i));
            int64_t save = out[i];
            out[i] = out[z + i];
            out[z + i] = save;
        }
        return;
    }
    for (i = 0; i < n; i++) {
        int64_t z = (int64_t)(engine_draw64(g) % (uint64_t)(i + 1));
        out[i] = out[z];
        out[z] = i;
    }
}

int
mt_cpu_randint_int64(mt_cpu_generator *g, int64_t *out, int64_t n, int64_t low, int64_t high)
{
    return mt_cpu_randint(g, MT_RNG_INT64, out, n, low, high);
}
