/* Philox4x32-10 random streams for tensors on CUDA devices (real or simulated).
 *
 * This header owns the stream definition: how (seed, offset, element index) maps to a value,
 * for uniform, normal and integer draws in float32 and float64, and the small math routines
 * (logarithm, sine/cosine) those draws need. Everything a kernel calls is a `static inline`
 * MT_HD function so that the CUDA kernel (csrc/kernels/cuda/) and the host fill loops in
 * philox.c run the very same code and produce the same bits. It must not hold state, include
 * CUDA or Python headers, call the C library's log/sin/cos (their results differ between glibc
 * and CUDA), or leave a multiply feeding an add where a compiler could fuse it differently on
 * the two sides: every multiply-add that is meant is written as an explicit fma, and nothing
 * else is a fusable pattern. It does not reproduce torch's CUDA values (those depend on the
 * launch grid of the GPU they ran on); it reproduces itself on every device.
 *
 * Stream layout (the contract the .cu kernel must keep):
 *   key      = (low 32 bits of seed, high 32 bits of seed)
 *   block b  = Philox4x32-10 of the counter (lo32(offset + b), hi32(offset + b), 0, 0), four
 *              32-bit words w0..w3. `offset` counts blocks, not elements.
 *   float32 uniform, element i:  block i/4, word i%4: (w & 0xFFFFFF) * 2^-24        -> [0, 1)
 *   float64 uniform, element i:  block i/2, words 2k and 2k+1 (k = i%2) as the 64-bit
 *                                v = w_2k << 32 | w_2k+1: (v & (2^53 - 1)) * 2^-53  -> [0, 1)
 *   uniform_(from, to):          fma(u, to - from, from) in the element type
 *   float32 normal, element i:   block i/4; pair k = (i%4)/2: radius from word 2k as
 *                                sqrt(-2 log(((w & 0xFFFFFF) + 1) * 2^-24)), angle 2 pi u
 *                                from word 2k+1; even i takes the cosine, odd i the sine;
 *                                then fma(z, std, mean)
 *   float64 normal, element i:   block i/2; words 0,1 give the radius (53 bits, plus one, so
 *                                never log 0) and words 2,3 the angle; even i cosine, odd i
 *                                sine; then fma(z, std, mean)
 *   integer in [low, high):      range = high - low as uint64; range < 2^28: block i/4,
 *                                word i%4, (w % range) + low; otherwise the float64 uniform's
 *                                64-bit v, (v % range) + low (torch's CPU rule and threshold).
 *                                For float outputs adjust low/high first with
 *                                mt_rng_randint_bounds (rng.h), as the CPU path does.
 * A fill of n elements consumes mt_philox_blocks_*(n) blocks, which every fill function in
 * philox.c returns; the caller adds that to its generator's offset after the call, so that
 * the next call starts on fresh counters. Blocks used: ceil(n/4) for the 32-bit-word kinds
 * (float32 uniform and normal, randint with range < 2^28), ceil(n/2) for the 64-bit ones.
 *
 * Build: the .cu must not use --use_fast_math (it needs IEEE sqrt and division and no
 * flush-to-zero); nvcc's default --fmad=true is fine, because no multiply here feeds an add
 * (checked: the PTX is the same with --fmad=false, up to .rn suffixes).
 */
#ifndef MT_KERNELS_CPU_PHILOX_H
#define MT_KERNELS_CPU_PHILOX_H

#include <stdint.h>
#include <math.h>

#include "../../core/scalar_type.h" /* MT_HD */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the Philox4x32-10 block function ---------------------------------------------------- */

/* Constants from Salmon et al., "Parallel random numbers: as easy as 1, 2, 3" (SC11). */
#define MT_PHILOX_M0 0xD2511F53u
#define MT_PHILOX_M1 0xCD9E8D57u
#define MT_PHILOX_W0 0x9E3779B9u
#define MT_PHILOX_W1 0xBB67AE85u

typedef struct mt_philox4 {
    uint32_t w[4];
} mt_philox4;

static inline MT_HD uint32_t
mt_philox_mulhi(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
#endif
}

/* One Philox round: two 32x32->64 multiplies whose halves are mixed with the key. */
static inline MT_HD void
mt_philox_round(uint32_t c[4], uint32_t k0, uint32_t k1)
{
    uint32_t hi0 = mt_philox_mulhi(MT_PHILOX_M0, c[0]);
    uint32_t lo0 = MT_PHILOX_M0 * c[0];
    uint32_t hi1 = mt_philox_mulhi(MT_PHILOX_M1, c[2]);
    uint32_t lo1 = MT_PHILOX_M1 * c[2];
    uint32_t n0 = hi1 ^ c[1] ^ k0;
    uint32_t n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
}

/* Philox4x32 with 10 rounds on an arbitrary 128-bit counter and 64-bit key; checked against
 * the Random123 known-answer vectors in tests/c/rng_check.c. */
static inline MT_HD mt_philox4
mt_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1)
{
    mt_philox4 r;
    int i;
    r.w[0] = c0;
    r.w[1] = c1;
    r.w[2] = c2;
    r.w[3] = c3;
    for (i = 0; i < 10; i++) {
        if (i > 0) {
            k0 += MT_PHILOX_W0;
            k1 += MT_PHILOX_W1;
        }
        mt_philox_round(r.w, k0, k1);
    }
    return r;
}

/* Block `block` of the stream (seed, offset): the counter is offset + block as 64 bits. */
static inline MT_HD mt_philox4
mt_philox_block(uint64_t seed, uint64_t offset, uint64_t block)
{
    uint64_t ctr = offset + block;
    return mt_philox4x32_10((uint32_t)ctr, (uint32_t)(ctr >> 32), 0u, 0u,
                            (uint32_t)seed, (uint32_t)(seed >> 32));
}

static inline MT_HD uint64_t
mt_philox_blocks_32(int64_t n)
{
    return n <= 0 ? 0 : ((uint64_t)n + 3u) / 4u;
}

static inline MT_HD uint64_t
mt_philox_blocks_64(int64_t n)
{
    return n <= 0 ? 0 : ((uint64_t)n + 1u) / 2u;
}

/* ---- turning words into uniforms (torch's masking: keep the low mantissa-width bits) ----- */

static inline MT_HD float
mt_philox_word_to_float(uint32_t w)
{
    /* 2^-24 scaling of an integer below 2^24 is exact, so no rounding can reach 1.0. */
    return (float)(w & 0xFFFFFFu) * 5.9604644775390625e-8f;
}

static inline MT_HD double
mt_philox_words_to_double(uint32_t hi, uint32_t lo)
{
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (double)(v & 0x1FFFFFFFFFFFFFull) * 1.1102230246251565404236316680908203125e-16;
}

/* ---- float32 log and sincos: Cephes' single-precision algorithms ------------------------- */

/* These reproduce, operation by operation, the AVX2 log/sincos torch uses to turn uniforms
 * into normals for float32 tensors of 16 or more elements (aten/src/ATen/native/cpu/
 * avx_mathfun.h compiled by GCC with FMA contraction), so the CPU generator in rng.c uses them
 * too. Constants are given as double literals converted to float, as torch's tables are. Each
 * fma below stands where GCC fused a multiply into the following add; every other multiply
 * feeds only multiplies or a sqrt. Valid for x > 0 (log) and 0 <= x < 2^23 (sincos). */

static inline MT_HD float
mt_float_from_bits(uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    union {
        uint32_t u;
        float f;
    } v;
    v.u = b;
    return v.f;
#endif
}

static inline MT_HD uint32_t
mt_float_bits(float f)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    union {
        uint32_t u;
        float f;
    } v;
    v.f = f;
    return v.u;
#endif
}

static inline MT_HD float
mt_cephes_logf(float x)
{
    const float sqrthf = (float)0.707106781186547524;
    const float p0 = (float)7.0376836292E-2;
    const float p1 = (float)-1.1514610310E-1;
    const float p2 = (float)1.1676998740E-1;
    const float p3 = (float)-1.2420140846E-1;
    const float p4 = (float)1.4249322787E-1;
    const float p5 = (float)-1.6668057665E-1;
    const float p6 = (float)2.0000714765E-1;
    const float p7 = (float)-2.4999993993E-1;
    const float p8 = (float)3.3333331174E-1;
    const float q1 = (float)-2.12194440e-4;
    const float q2 = (float)0.693359375;
    const float min_norm = mt_float_from_bits(0x00800000u);
    uint32_t bits;
    float e, m, y, z;
    int invalid = !(x > 0.0f);

    if (x < min_norm) {
        x = min_norm; /* the vector code clamps denormals (and non-positives) the same way */
    }
    bits = mt_float_bits(x);
    e = (float)((int32_t)(bits >> 23) - 0x7f);
    e = e + 1.0f;
    m = mt_float_from_bits((bits & ~0x7f800000u) | 0x3f000000u); /* mantissa in [0.5, 1) */
    if (m < sqrthf) {
        e = e - 1.0f;
        m = (m - 1.0f) + m;
    } else {
        m = m - 1.0f;
    }
    z = m * m;
    y = fmaf(p0, m, p1);
    y = fmaf(y, m, p2);
    y = fmaf(y, m, p3);
    y = fmaf(y, m, p4);
    y = fmaf(y, m, p5);
    y = fmaf(y, m, p6);
    y = fmaf(y, m, p7);
    y = fmaf(y, m, p8);
    y = y * m;
    y = fmaf(y, z, e * q1);
    y = fmaf(-z, 0.5f, y);
    m = m + y;
    m = fmaf(e, q2, m);
    if (invalid) {
        return mt_float_from_bits(0xffffffffu); /* all-ones NaN, like OR-ing the mask in */
    }
    return m;
}

/* sin and cos of x >= 0 at once; octant reduction by 4/pi and a three-part pi/4. */
static inline MT_HD void
mt_cephes_sincosf(float x, float *s, float *c)
{
    const float fopi = (float)1.27323954473516;
    const float dp1 = (float)-0.78515625;
    const float dp2 = (float)-2.4187564849853515625e-4;
    const float dp3 = (float)-3.77489497744594108e-8;
    const float sp0 = (float)-1.9515295891E-4;
    const float sp1 = (float)8.3321608736E-3;
    const float sp2 = (float)-1.6666654611E-1;
    const float cp0 = (float)2.443315711809948E-005;
    const float cp1 = (float)-1.388731625493765E-003;
    const float cp2 = (float)4.166664568298827E-002;
    uint32_t sign_sin = mt_float_bits(x) & 0x80000000u;
    uint32_t sign_cos;
    int32_t j;
    float ax = mt_float_from_bits(mt_float_bits(x) & 0x7fffffffu);
    float y, z, ycos, ysin, rs, rc;

    j = (int32_t)(ax * fopi);
    j = (j + 1) & ~1;
    y = (float)j;
    sign_sin ^= ((uint32_t)j & 4u) << 29;
    sign_cos = ((~(uint32_t)(j - 2)) & 4u) << 29;

    ax = fmaf(y, dp1, ax);
    ax = fmaf(y, dp2, ax);
    ax = fmaf(y, dp3, ax);

    z = ax * ax;
    ycos = fmaf(cp0, z, cp1);
    ycos = fmaf(ycos, z, cp2);
    ycos = ycos * z;
    ycos = fmaf(ycos, z, -(z * 0.5f));
    ycos = ycos + 1.0f;

    ysin = fmaf(sp0, z, sp1);
    ysin = fmaf(ysin, z, sp2);
    ysin = ysin * z;
    ysin = fmaf(ysin, ax, ax);

    if ((j & 2) == 0) {
        rs = ysin;
        rc = ycos;
    } else {
        rs = ycos;
        rc = ysin;
    }
    *s = mt_float_from_bits(mt_float_bits(rs) ^ sign_sin);
    *c = mt_float_from_bits(mt_float_bits(rc) ^ sign_cos);
}

/* ---- float64 log and sincos for the Philox double normals -------------------------------- */

/* Plain argument reduction plus Taylor/atanh series, every multiply-add an explicit fma and
 * the one division correctly rounded on both host and GPU. Accurate to about 1 ulp, which is
 * all a random normal needs; what matters is that host and device agree bit for bit. */

static inline MT_HD double
mt_double_from_bits(uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)b);
#else
    union {
        uint64_t u;
        double d;
    } v;
    v.u = b;
    return v.d;
#endif
}

static inline MT_HD uint64_t
mt_double_bits(double d)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(d);
#else
    union {
        uint64_t u;
        double d;
    } v;
    v.d = d;
    return v.u;
#endif
}

/* log(x) for normal x > 0. */
static inline MT_HD double
mt_philox_log(double x)
{
    const double ln2_hi = 0.6931471803691238;    /* 32 bits of ln 2: e * ln2_hi is exact */
    const double ln2_lo = 1.9082149292705877e-10;
    const double sqrt2 = 1.4142135623730951;
    uint64_t bits = mt_double_bits(x);
    int32_t e = (int32_t)((bits >> 52) & 0x7ff) - 1023;
    double m = mt_double_from_bits((bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
    double f, s, s2, p, lm, de;

    if (m > sqrt2) {
        m = m * 0.5;
        e = e + 1;
    }
    f = m - 1.0;
    s = f / (2.0 + f);               /* log(m) = 2 atanh(s) */
    s2 = s * s;
    p = 2.0 / 23.0;
    p = fma(p, s2, 2.0 / 21.0);
    p = fma(p, s2, 2.0 / 19.0);
    p = fma(p, s2, 2.0 / 17.0);
    p = fma(p, s2, 2.0 / 15.0);
    p = fma(p, s2, 2.0 / 13.0);
    p = fma(p, s2, 2.0 / 11.0);
    p = fma(p, s2, 2.0 / 9.0);
    p = fma(p, s2, 2.0 / 7.0);
    p = fma(p, s2, 2.0 / 5.0);
    p = fma(p, s2, 2.0 / 3.0);
    p = p * s2;
    lm = fma(p, s, 2.0 * s);         /* 2s + s^3 * (2/3 + ...) */
    de = (double)e;
    return fma(de, ln2_hi, fma(de, ln2_lo, lm));
}

/* sin and cos of 0 <= x < 8: quadrant reduction by a three-part pi/2. */
static inline MT_HD void
mt_philox_sincos(double x, double *s, double *c)
{
    const double two_over_pi = 0.6366197723675814;
    const double pio2_1 = 1.5707963267341256;        /* 33 bits: q * pio2_1 is exact */
    const double pio2_2 = 6.077100506303966e-11;     /* next 33 bits */
    const double pio2_3 = 2.0222662487959506e-21;
    int32_t q = (int32_t)fma(x, two_over_pi, 0.5);
    double dq = (double)q;
    double r, r2, ps, pc, ks, kc;

    r = fma(-dq, pio2_1, x);
    r = fma(-dq, pio2_2, r);
    r = fma(-dq, pio2_3, r);
    r2 = r * r;
    /* sin r = r + r^3 * (-1/3! + r^2/5! - ...) up to r^17 */
    ps = 1.0 / 355687428096000.0;
    ps = fma(ps, r2, -1.0 / 1307674368000.0);
    ps = fma(ps, r2, 1.0 / 6227020800.0);
    ps = fma(ps, r2, -1.0 / 39916800.0);
    ps = fma(ps, r2, 1.0 / 362880.0);
    ps = fma(ps, r2, -1.0 / 5040.0);
    ps = fma(ps, r2, 1.0 / 120.0);
    ps = fma(ps, r2, -1.0 / 6.0);
    ps = ps * r2;
    ks = fma(ps, r, r);
    /* cos r = 1 - r^2/2 + r^4 * (1/4! - r^2/6! + ...) up to r^18 */
    pc = -1.0 / 6402373705728000.0;
    pc = fma(pc, r2, 1.0 / 20922789888000.0);
    pc = fma(pc, r2, -1.0 / 87178291200.0);
    pc = fma(pc, r2, 1.0 / 479001600.0);
    pc = fma(pc, r2, -1.0 / 3628800.0);
    pc = fma(pc, r2, 1.0 / 40320.0);
    pc = fma(pc, r2, -1.0 / 720.0);
    pc = fma(pc, r2, 1.0 / 24.0);
    pc = pc * r2;
    kc = fma(pc, r2, fma(r2, -0.5, 1.0));
    switch (q & 3) {
    case 0:
        *s = ks;
        *c = kc;
        break;
    case 1:
        *s = kc;
        *c = -ks;
        break;
    case 2:
        *s = -ks;
        *c = -kc;
        break;
    default:
        *s = -kc;
        *c = ks;
        break;
    }
}

/* ---- one block's worth of each distribution ---------------------------------------------- */

static inline MT_HD void
mt_philox_uniform4_float(uint64_t seed, uint64_t offset, uint64_t block, float out[4])
{
    mt_philox4 r = mt_philox_block(seed, offset, block);
    int k;
    for (k = 0; k < 4; k++) {
        out[k] = mt_philox_word_to_float(r.w[k]);
    }
}

static inline MT_HD void
mt_philox_uniform2_double(uint64_t seed, uint64_t offset, uint64_t block, double out[2])
{
    mt_philox4 r = mt_philox_block(seed, offset, block);
    out[0] = mt_philox_words_to_double(r.w[0], r.w[1]);
    out[1] = mt_philox_words_to_double(r.w[2], r.w[3]);
}

/* Box-Muller on two words: the radius word is made (0, 1] so the log stays finite. */
static inline MT_HD void
mt_philox_box_muller_float(uint32_t wr, uint32_t wa, float *z_cos, float *z_sin)
{
    const float two_pi = (float)6.283185307179586;
    float u1 = (float)((wr & 0xFFFFFFu) + 1u) * 5.9604644775390625e-8f;
    float u2 = mt_philox_word_to_float(wa);
    float radius = sqrtf(-2.0f * mt_cephes_logf(u1));
    float sn, cs;
    mt_cephes_sincosf(two_pi * u2, &sn, &cs);
    *z_cos = radius * cs;
    *z_sin = radius * sn;
}

static inline MT_HD void
mt_philox_normal4_float(uint64_t seed, uint64_t offset, uint64_t block, float mean, float std,
                        float out[4])
{
    mt_philox4 r = mt_philox_block(seed, offset, block);
    float a, b, c, d;
    mt_philox_box_muller_float(r.w[0], r.w[1], &a, &b);
    mt_philox_box_muller_float(r.w[2], r.w[3], &c, &d);
    out[0] = fmaf(a, std, mean);
    out[1] = fmaf(b, std, mean);
    out[2] = fmaf(c, std, mean);
    out[3] = fmaf(d, std, mean);
}

static inline MT_HD void
mt_philox_normal2_double(uint64_t seed, uint64_t offset, uint64_t block, double mean,
                         double std, double out[2])
{
    const double two_pi = 6.283185307179586;
    mt_philox4 r = mt_philox_block(seed, offset, block);
    uint64_t v = ((uint64_t)r.w[0] << 32) | r.w[1];
    double u1 = (double)((v & 0x1FFFFFFFFFFFFFull) + 1u) * 1.1102230246251565404236316680908203125e-16;
    double u2 = mt_philox_words_to_double(r.w[2], r.w[3]);
    double radius = sqrt(-2.0 * mt_philox_log(u1));
    double sn, cs;
    mt_philox_sincos(two_pi * u2, &sn, &cs);
    out[0] = fma(radius * cs, std, mean);
    out[1] = fma(radius * sn, std, mean);
}

/* ---- single elements: what element i of a fill holds ------------------------------------- */

static inline MT_HD float
mt_philox_uniform_float(uint64_t seed, uint64_t offset, uint64_t i)
{
    mt_philox4 r = mt_philox_block(seed, offset, i / 4u);
    return mt_philox_word_to_float(r.w[i % 4u]);
}

static inline MT_HD double
mt_philox_uniform_double(uint64_t seed, uint64_t offset, uint64_t i)
{
    double v[2];
    mt_philox_uniform2_double(seed, offset, i / 2u, v);
    return v[i % 2u];
}

static inline MT_HD float
mt_philox_normal_float(uint64_t seed, uint64_t offset, uint64_t i, float mean, float std)
{
    float v[4];
    mt_philox_normal4_float(seed, offset, i / 4u, mean, std, v);
    return v[i % 4u];
}

static inline MT_HD double
mt_philox_normal_double(uint64_t seed, uint64_t offset, uint64_t i, double mean, double std)
{
    double v[2];
    mt_philox_normal2_double(seed, offset, i / 2u, mean, std, v);
    return v[i % 2u];
}

/* low + a draw in [0, range); range = (uint64)high - (uint64)low, nonzero. The result is the
 * int64 value; callers convert it to the tensor's dtype exactly as torch does (a cast). */
static inline MT_HD int64_t
mt_philox_randint(uint64_t seed, uint64_t offset, uint64_t i, uint64_t range, int64_t low)
{
    mt_philox4 r;
    uint64_t v;
    if (range < (1ull << 28)) {
        r = mt_philox_block(seed, offset, i / 4u);
        v = r.w[i % 4u];
    } else {
        r = mt_philox_block(seed, offset, i / 2u);
        v = ((uint64_t)r.w[2u * (i % 2u)] << 32) | r.w[2u * (i % 2u) + 1u];
    }
    return (int64_t)((v % range) + (uint64_t)low);
}

static inline MT_HD uint64_t
mt_philox_blocks_randint(int64_t n, uint64_t range)
{
    return range < (1ull << 28) ? mt_philox_blocks_32(n) : mt_philox_blocks_64(n);
}

/* ---- host fill loops (philox.c) ----------------------------------------------------------- */

/* Each fills out[0..n) with elements 0..n-1 of the stream (seed, offset) and returns the
 * number of blocks consumed, which the caller adds to its offset. */
uint64_t mt_philox_rand_float(uint64_t seed, uint64_t offset, float *out, int64_t n);
uint64_t mt_philox_rand_double(uint64_t seed, uint64_t offset, double *out, int64_t n);
uint64_t mt_philox_uniform_fill_float(uint64_t seed, uint64_t offset, float *out, int64_t n,
                                      double from, double to);
uint64_t mt_philox_uniform_fill_double(uint64_t seed, uint64_t offset, double *out, int64_t n,
                                       double from, double to);
uint64_t mt_philox_randn_float(uint64_t seed, uint64_t offset, float *out, int64_t n);
uint64_t mt_philox_randn_double(uint64_t seed, uint64_t offset, double *out, int64_t n);
uint64_t mt_philox_normal_fill_float(uint64_t seed, uint64_t offset, float *out, int64_t n,
                                     double mean, double std);
uint64_t mt_philox_normal_fill_double(uint64_t seed, uint64_t offset, double *out, int64_t n,
                                      double mean, double std);
/* Integers in [low, high) written as int64; returns blocks used, or 0 with nothing written
 * when low >= high (the caller raises torch's error before getting here). */
uint64_t mt_philox_randint_int64(uint64_t seed, uint64_t offset, int64_t *out, int64_t n,
                                 int64_t low, int64_t high);
/* An int64 key and its position, ordered by key, then by position (a stable order for qsort) by
 * mt_key_position_compare: randperm orders its indices by random keys so, and the CUDA backend a
 * scatter's offsets. */
typedef struct {
    int64_t key, position;
} mt_key_position;
int mt_key_position_compare(const void *a, const void *b);
/* torch's CUDA randperm: out := 0..n-1 ordered by one int64 key per index, the stream's integers over
 * [INT64_MIN, INT64_MAX) (torch's random_ of the keys), in a stable order (equal keys, about n^2 / 2^65
 * likely, keep their order where torch shuffles them). Sets *blocks to the blocks consumed; 0, or -1
 * with nothing drawn when the keys cannot be allocated. */
int mt_philox_randperm(uint64_t seed, uint64_t offset, int64_t *out, int64_t n, uint64_t *blocks);

#ifdef __cplusplus
}
#endif

#endif /* MT_KERNELS_CPU_PHILOX_H */
