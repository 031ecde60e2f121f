/* sleef_pow.h: SLEEF's float pow (Sleef_powf*_u10 as built for AVX2 and AVX-512, with fused multiply-adds),
 * which torch's CPU `x ** number` calls on the whole vectors of a contiguous run (kernels/cpu/elementwise.c
 * chooses which elements take it). Part of op_math.h, after sleef_log1p_exp2.h, whose double-float steps it
 * shares; never included alone. Host only. Each step rounds as SLEEF's does, so the values are SLEEF's bit
 * for bit (a NaN result is SLEEF's all-ones NaN); this file holds no state and loops over no memory.
 *
 * pow(x, y) = exp(y log |x|) with log |x| a double-float (logk: |x| = m 2^e, m in [0.75, 1.5), x' = (m - 1) /
 * (m + 1) in double-float, log = e ln 2 + 2x' + x'^3 (P(x'^2) + c)), the product y log |x| a double-float,
 * and exp of it (expk: q = rint(d / ln 2), s = d - q ln 2 in two double-float steps, 1 + s + s^2 P(s),
 * times 2^q as SLEEF's ldexp applies it). Then SLEEF's signs and special cases: a negative x takes the sign
 * of an odd integer y and gives NaN for a fractional one; an infinite y gives 0, 1 or inf by |x| against 1;
 * a zero or infinite x gives 0 or inf with an odd y's sign; NaN in, NaN out; y = 0 or x = 1 give 1. */
#ifndef MT_KERNELS_SLEEF_POW_H
#define MT_KERNELS_SLEEF_POW_H

/* the double-float steps SLEEF's pow adds to sleef_log1p_exp2.h's (df.h's names in the comments) */

/* x + y of two numbers in either order (dfadd2_vf2_vf_vf) */
static inline mt_sleef_pair_f32
mt_sleef_add2_f32(float x, float y)
{
    mt_sleef_pair_f32 r;
    const float v = (r.hi = x + y) - x;
    r.lo = (x - (r.hi - v)) + (y - v);
    return r;
}

/* pair + number in either order (dfadd2_vf2_vf2_vf) */
static inline mt_sleef_pair_f32
mt_sleef_add2_pair_f32(mt_sleef_pair_f32 x, float y)
{
    mt_sleef_pair_f32 r;
    const float v = (r.hi = x.hi + y) - x.hi;
    r.lo = ((x.hi - (r.hi - v)) + (y - v)) + x.lo;
    return r;
}

/* pair + pair in either order (dfadd2_vf2_vf2_vf2) */
static inline mt_sleef_pair_f32
mt_sleef_add2_pairs_f32(mt_sleef_pair_f32 x, mt_sleef_pair_f32 y)
{
    mt_sleef_pair_f32 r;
    const float v = (r.hi = x.hi + y.hi) - x.hi;
    r.lo = ((x.hi - (r.hi - v)) + (y.hi - v)) + (x.lo + y.lo);
    return r;
}

/* number + pair, |x| >= |y| (dfadd_vf2_vf_vf2) */
static inline mt_sleef_pair_f32
mt_sleef_add_to_pair_f32(float x, mt_sleef_pair_f32 y)
{
    mt_sleef_pair_f32 r;
    r.hi = x + y.hi;
    r.lo = ((x - r.hi) + y.hi) + y.lo;
    return r;
}

/* pair * pair (dfmul_vf2_vf2_vf2) */
static inline mt_sleef_pair_f32
mt_sleef_mul_pairs_f32(mt_sleef_pair_f32 x, mt_sleef_pair_f32 y)
{
    mt_sleef_pair_f32 r;
    r.hi = x.hi * y.hi;
    r.lo = fmaf(x.hi, y.lo, fmaf(x.lo, y.hi, fmaf(x.hi, y.hi, -r.hi)));
    return r;
}

/* pair^2 (dfsqu_vf2_vf2) */
static inline mt_sleef_pair_f32
mt_sleef_square_f32(mt_sleef_pair_f32 x)
{
    mt_sleef_pair_f32 r;
    r.hi = x.hi * x.hi;
    r.lo = fmaf(x.hi + x.hi, x.lo, fmaf(x.hi, x.hi, -r.hi));
    return r;
}

/* SLEEF's vldexp_vf_vf_vi2: x 2^q with 2^q applied as four equal factors and a fifth, in wrapping int32
 * arithmetic (q = INT32_MIN, a conversion past the int range, gives inf) */
static inline float
mt_sleef_ldexp_f32(float x, int32_t q)
{
    int32_t m = q >> 31;
    float u;

    m = (int32_t)((uint32_t)(((int32_t)((uint32_t)m + (uint32_t)q) >> 6) - m) << 4);
    q = (int32_t)((uint32_t)q - ((uint32_t)m << 2));
    m += 0x7f;
    m = m > 0 ? m : 0;
    m = m > 0xff ? 0xff : m;
    u = mt_from_bits_f32((uint32_t)m << 23);
    x = x * u * u * u * u;
    return x * mt_from_bits_f32((uint32_t)(q + 0x7f) << 23);
}

/* logkf: log d as a pair, for d >= 0 (zero, inf and NaN give what the caller replaces) */
static inline mt_sleef_pair_f32
mt_sleef_logk_f32(float d)
{
    const mt_sleef_pair_f32 ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    const mt_sleef_pair_f32 c = {0.66666662693023681640625f, 3.69183861259614332084311e-09f};
    const int tiny = d < 1.17549435e-38f;
    int32_t e;
    float m, t;
    mt_sleef_pair_f32 x, x2, s, two_x;

    d = tiny ? d * 18446744073709551616.0f : d; /* 2^64 */
    e = (int32_t)((mt_bits_f32(d * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
    m = mt_from_bits_f32(mt_bits_f32(d) + ((uint32_t)-e << 23));
    e = tiny ? e - 64 : e;
    x = mt_sleef_div_f32(mt_sleef_add2_f32(-1.0f, m), mt_sleef_add2_f32(1.0f, m));
    x2 = mt_sleef_square_f32(x);
    t = (float)0.240320354700088500976562;
    t = fmaf(t, x2.hi, (float)0.285112679004669189453125);
    t = fmaf(t, x2.hi, (float)0.400007992982864379882812);
    s = mt_sleef_mul_f32(ln2, (float)e);
    two_x.hi = x.hi * 2.0f;
    two_x.lo = x.lo * 2.0f;
    s = mt_sleef_add_pairs_f32(s, two_x);
    return mt_sleef_add_pairs_f32(
        s, mt_sleef_mul_pairs_f32(mt_sleef_mul_pairs_f32(x2, x), mt_sleef_add2_pairs_f32(mt_sleef_mul_f32(x2, t), c)));
}

/* expkf: exp of a pair, as a float */
static inline float
mt_sleef_expk_f32(mt_sleef_pair_f32 d)
{
    const float u0 = (d.hi + d.lo) * 1.442695040888963407359924681001892137426645954152985934135449406931f;
    /* cvtps2dq: round to nearest even, INT32_MIN past the int range and for NaN */
    const int32_t q = fabsf(u0) < 2147483648.0f ? (int32_t)rintf(u0) : INT32_MIN;
    mt_sleef_pair_f32 s, t;
    float u;

    s = mt_sleef_add2_pair_f32(d, (float)q * -0.693145751953125f);
    s = mt_sleef_add2_pair_f32(s, (float)q * -1.428606765330187045e-06f);
    u = s.hi + s.lo;
    s.lo = (s.hi - u) + s.lo;
    s.hi = u;
    u = 0.00136324646882712841033936f;
    u = fmaf(u, s.hi, 0.00836596917361021041870117f);
    u = fmaf(u, s.hi, 0.0416710823774337768554688f);
    u = fmaf(u, s.hi, 0.166665524244308471679688f);
    u = fmaf(u, s.hi, 0.499999850988388061523438f);
    t = mt_sleef_add_pairs_f32(s, mt_sleef_mul_f32(mt_sleef_square_f32(s), u));
    t = mt_sleef_add_to_pair_f32(1.0f, t);
    u = mt_sleef_ldexp_f32(t.hi + t.lo, q);
    return d.hi < -104.0f ? 0.0f : u;
}

/* Sleef_powf_u10 */
static inline float
mt_vpow_f32(float x, float y)
{
    const float ay = fabsf(y);
    const int y_is_int = truncf(y) == y || ay > (float)(1 << 24);
    /* cvttps2dq: INT32_MIN past the int range (even), as SLEEF's vtruncate_vi2_vf */
    const int32_t y_trunc = ay < 2147483648.0f ? (int32_t)y : INT32_MIN;
    const int y_is_odd = (y_trunc & 1) == 1 && y_is_int && ay < (float)(1 << 24);
    const float ax = fabsf(x);
    float r = mt_sleef_expk_f32(mt_sleef_mul_f32(mt_sleef_logk_f32(ax), y));
    float efx;

    r = r != r ? INFINITY : r;
    r *= x > 0.0f ? 1.0f : y_is_int ? (y_is_odd ? -1.0f : 1.0f) : NAN;
    efx = mt_from_bits_f32(mt_bits_f32(ax - 1.0f) ^ (mt_bits_f32(y) & 0x80000000u));
    if (isinf(y)) {
        r = efx < 0.0f ? 0.0f : efx == 0.0f ? 1.0f : INFINITY;
    }
    if (isinf(x) || x == 0.0f) {
        r = (y_is_odd ? copysignf(1.0f, x) : 1.0f) * ((x == 0.0f ? -y : y) < 0.0f ? 0.0f : INFINITY);
    }
    if (x != x || y != y) {
        r = mt_from_bits_f32(0xffffffffu);
    }
    return y == 0.0f || x == 1.0f ? 1.0f : r;
}

#endif
