/* sleef_tanh_erf.h: the vector tanh and erf torch's x86 CPU kernels call, one element at a time, for gelu
 * (kernels/cpu/gelu.c, which includes it after op_math.h; never included alone): SLEEF's tanh
 * (Sleef_tanhf8_u10 / Sleef_tanhf16_u10, Sleef_tanhd4_u10 / Sleef_tanhd8_u10) and double erf
 * (Sleef_erfd4_u10 / Sleef_erfd8_u10) as built for AVX2 and AVX-512 (fused multiply-adds), and torch's own
 * float erf (Vectorized<float>::erf in vec256_float.h / vec512_float.h: Abramowitz and Stegun's 7.1.26
 * with SLEEF's exp). Each step rounds as theirs does, so the values are theirs bit for bit; the C library's
 * tanhf, tanh and erff differ from them in the last bit on some inputs, which gelu's products can carry.
 * The double-float and double-double steps are sleef_lgamma.h's (SLEEF's df.h/dd.h with FMA). Host only;
 * this file holds no state and loops over no memory.
 *
 * tanh(x): e^|x| as a pair (SLEEF's expk2: n = rint(|x| / ln 2), s = |x| - n ln 2 in pairs, a polynomial
 * in s, 1 + s + s^2 P(s) summed in pairs, scaled by 2^n), then (e - 1/e) / (e + 1/e) in pairs, the sign
 * of x put back; 1 past |x| = 8.66 (float) or 18.71 (double), NaN for NaN.
 * erf(x) for a double: |x| <= 2.5: 1 - 1 / (1 + x Q(x))^16 (Q a polynomial in pairs, the 16th power by
 * four squarings); 2.5 < |x| < 6: 1 - exp(x R(x)) (SLEEF's expk of a pair); 1 from 6 on; x 2 / sqrt(pi)
 * below 1e-8. */
#ifndef MT_KERNELS_SLEEF_TANH_ERF_H
#define MT_KERNELS_SLEEF_TANH_ERF_H

/* x + y (a number and a pair, |x| >= |y|): SLEEF's dfadd_vf2_vf_vf2 / ddadd_vd2_vd_vd2 */
static inline mt_float2
mt_two_scalar_add_fast_f32(float x, mt_float2 y)
{
    float hi = x + y.hi;
    return mt_two_f32(hi, ((x - hi) + y.hi) + y.lo);
}

static inline mt_double2
mt_two_scalar_add_fast_f64(double x, mt_double2 y)
{
    double hi = x + y.hi;
    return mt_two_f64(hi, ((x - hi) + y.hi) + y.lo);
}

/* 1 / d as a pair: SLEEF's dfrec_vf2_vf2 / ddrec_vd2_vd2 */
static inline mt_float2
mt_two_rec_f32(mt_float2 d)
{
    float s = 1.0f / d.hi;
    return mt_two_f32(s, s * fmaf(-d.lo, s, fmaf(-d.hi, s, 1.0f)));
}

static inline mt_double2
mt_two_rec_f64(mt_double2 d)
{
    double s = 1.0 / d.hi;
    return mt_two_f64(s, s * fma(-d.lo, s, fma(-d.hi, s, 1.0)));
}

/* x 2^q as SLEEF's vldexp2 computes it: two multiplications by halves of the power */
static inline float
mt_sleef_ldexp2_f32(float x, int q)
{
    return x * mt_from_bits_f32((uint32_t)((q >> 1) + 0x7f) << 23) *
           mt_from_bits_f32((uint32_t)(q - (q >> 1) + 0x7f) << 23);
}

static inline double
mt_sleef_ldexp2_f64(double x, int q)
{
    return x * mt_from_bits_f64((uint64_t)(int64_t)((q >> 1) + 0x3ff) << 52) *
           mt_from_bits_f64((uint64_t)(int64_t)(q - (q >> 1) + 0x3ff) << 52);
}

/* ---- tanh ------------------------------------------------------------------------------------------- */

/* e^y as a pair for 0 <= y <= 9 (SLEEF's expk2f) */
static inline mt_float2
mt_sleef_expk2_f32(float y)
{
    int q = (int)rintf(y * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    mt_float2 s, t;
    float u;

    s = mt_two_add_scalar_f32(mt_two_f32(y, 0.0f), (float)q * -0.693145751953125f);
    s = mt_two_add_scalar_f32(s, (float)q * -1.428606765330187045e-06f);
    u = 0.1980960224e-3f;
    u = fmaf(u, s.hi, 0.1394256484e-2f);
    u = fmaf(u, s.hi, 0.8333456703e-2f);
    u = fmaf(u, s.hi, 0.4166637361e-1f);
    t = mt_two_add_scalar_f32(mt_two_mul_scalar_f32(s, u), 0.166666659414234244790680580464e+0f);
    t = mt_two_add_scalar_f32(mt_two_mul_f32(s, t), 0.5f);
    t = mt_two_add2_f32(s, mt_two_mul_f32(mt_two_square_f32(s), t));
    t = mt_two_scalar_add_fast_f32(1.0f, t);
    return mt_two_f32(mt_sleef_ldexp2_f32(t.hi, q), mt_sleef_ldexp2_f32(t.lo, q));
}

static inline float
mt_sleef_tanh_f32(float x)
{
    float y = fabsf(x), r;
    mt_float2 d, e;

    if (isnan(x)) {
        return mt_from_bits_f32(0xffffffffu);
    }
    if (!(y <= 8.664339742f)) {
        return copysignf(1.0f, x);
    }
    d = mt_sleef_expk2_f32(y);
    e = mt_two_rec_f32(d);
    d = mt_two_div_f32(mt_two_add_f32(d, mt_two_neg_f32(e)), mt_two_add_f32(d, e));
    r = d.hi + d.lo;
    return isnan(r) ? copysignf(1.0f, x) : mt_from_bits_f32(mt_bits_f32(r) ^ (mt_bits_f32(x) & 0x80000000u));
}

/* e^d as a pair for a pair 0 <= d <= 19 (SLEEF's expk2) */
static inline mt_double2
mt_sleef_expk2_f64(double y)
{
    double dq = rint(y * 1.442695040888963407359924681001892137426645954152985934135449406931), u, s8;
    int q = (int)dq;
    mt_double2 s, s2, s4, t;

    s = mt_two_add_scalar_f64(mt_two_f64(y, 0.0), dq * -.69314718055966295651160180568695068359375);
    s = mt_two_add_scalar_f64(s, dq * -.28235290563031577122588448175013436025525412068e-12);
    s2 = mt_two_square_f64(s);
    s4 = mt_two_square_f64(s2);
    s8 = s4.hi * s4.hi;
    u = fma(s8, fma(s.hi, +0.1602472219709932072e-9, +0.2092255183563157007e-8),
            fma(s4.hi,
                fma(s2.hi, fma(s.hi, +0.2505230023782644465e-7, +0.2755724800902135303e-6),
                    fma(s.hi, +0.2755731892386044373e-5, +0.2480158735605815065e-4)),
                fma(s2.hi, fma(s.hi, +0.1984126984148071858e-3, +0.1388888888886763255e-2),
                    fma(s.hi, +0.8333333333333347095e-2, +0.4166666666666669905e-1))));
    t = mt_two_scalar_add_fast_f64(0.5, mt_two_mul_scalar_f64(s, +0.1666666666666666574e+0));
    t = mt_two_scalar_add_fast_f64(1.0, mt_two_mul_f64(t, s));
    t = mt_two_scalar_add_fast_f64(1.0, mt_two_mul_f64(t, s));
    t = mt_two_add_f64(t, mt_two_mul_scalar_f64(s4, u));
    return mt_two_f64(mt_sleef_ldexp2_f64(t.hi, q), mt_sleef_ldexp2_f64(t.lo, q));
}

static inline double
mt_sleef_tanh_f64(double x)
{
    double y = fabs(x), r;
    mt_double2 d, e;

    if (isnan(x)) {
        return mt_from_bits_f64(0xffffffffffffffffull);
    }
    if (!(y <= 18.714973875)) {
        return copysign(1.0, x);
    }
    d = mt_sleef_expk2_f64(y);
    e = mt_two_rec_f64(d);
    d = mt_two_div_f64(mt_two_add2_f64(d, mt_two_neg_f64(e)), mt_two_add2_f64(d, e));
    r = d.hi + d.lo;
    return isnan(r) ? copysign(1.0, x)
                    : mt_from_bits_f64(mt_bits_f64(r) ^ (mt_bits_f64(x) & 0x8000000000000000ull));
}

/* ---- erf -------------------------------------------------------------------------------------------- */

/* torch's Vectorized<float>::erf: sign(x) (1 - t P(t) e^(-x^2)), t = 1 / (1 + p |x|), with fused steps
 * where its intrinsics fuse them and SLEEF's exp (mt_vexp_f32) */
static inline float
mt_torch_erf_vec_f32(float x)
{
    const uint32_t sign = mt_bits_f32(x) & 0x80000000u;
    float a = fabsf(x), t, r, e;

    t = 1.0f / fmaf(0.3275911f, a, 1.0f);
    r = fmaf(1.061405429f, t, -1.453152027f);
    r = fmaf(r, t, 1.421413741f);
    r = fmaf(r, t, -0.284496736f);
    r = fmaf(r, t, 0.254829592f);
    e = -mt_vexp_f32(-(x * x));
    return mt_from_bits_f32(mt_bits_f32(fmaf(e * t, r, 1.0f)) ^ sign);
}

/* x + y z for a number x and pairs y, z (SLEEF's ddmla_vd2_vd_vd2_vd2) */
static inline mt_double2
mt_two_mla_f64(double x, mt_double2 y, mt_double2 z)
{
    return mt_two_add_f64(z, mt_two_mul_scalar_f64(y, x));
}

/* e^d of a pair d, -1000 < d <= 0 (SLEEF's expk) */
static inline double
mt_sleef_expk_f64(mt_double2 d)
{
    double u = (d.hi + d.lo) * 1.442695040888963407359924681001892137426645954152985934135449406931;
    double dq = rint(u), s2, s4, s8;
    int q = (int)dq;
    mt_double2 s, t;

    s = mt_two_add_scalar_f64(d, dq * -.69314718055966295651160180568695068359375);
    s = mt_two_add_scalar_f64(s, dq * -.28235290563031577122588448175013436025525412068e-12);
    s = mt_two_normalize_f64(s);
    s2 = s.hi * s.hi;
    s4 = s2 * s2;
    s8 = s4 * s4;
    u = fma(s8, fma(s.hi, 2.51069683420950419527139e-08, 2.76286166770270649116855e-07),
            fma(s4,
                fma(s2, fma(s.hi, 2.75572496725023574143864e-06, 2.48014973989819794114153e-05),
                    fma(s.hi, 0.000198412698809069797676111, 0.0013888888939977128960529)),
                fma(s2, fma(s.hi, 0.00833333333332371417601081, 0.0416666666665409524128449),
                    fma(s.hi, 0.166666666666666740681535, 0.500000000000000999200722))));
    t = mt_two_scalar_add_fast_f64(1.0, s);
    t = mt_two_add_f64(t, mt_two_mul_scalar_f64(mt_two_square_f64(s), u));
    u = mt_sleef_ldexp2_f64(t.hi + t.lo, q);
    return d.hi < -1000 ? 0.0 : u;
}

/* Estrin's scheme of SLEEF's POLY4 and POLY8 over x, x2, x4 (c[0] the highest coefficient) */
#define MT_POLY4(x, x2, c) fma(x2, fma(x, (c)[0], (c)[1]), fma(x, (c)[2], (c)[3]))
#define MT_POLY8(x, x2, x4, c) fma(x4, MT_POLY4(x, x2, c), MT_POLY4(x, x2, (c) + 4))

static inline double
mt_sleef_erf_f64(double a)
{
    /* the coefficients of the two ranges, highest first (21 numbers, then three pairs) */
    static const double near[21] = {
        -0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11,
        +0.1186474230821585259e-10, -0.8499973178354613440e-10, +0.4507647462598841629e-9,
        -0.1808044474288848915e-8,  +0.5435081826716212389e-8,  -0.1143939895758628484e-7,
        +0.1215442362680889243e-7,  +0.1669878756181250355e-7,  -0.9808074602255194288e-7,
        +0.1389000557865837204e-6,  +0.2945514529987331866e-6,  -0.1842918273003998283e-5,
        +0.3417987836115362136e-5,  +0.3860236356493129101e-5,  -0.3309403072749947546e-4,
        +0.1060862922597579532e-3,  +0.2323253155213076174e-3,  +0.1490149719145544729e-3};
    static const double far[21] = {
        -0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14,
        +0.5029618322872872715e-13, -0.1025221466851463164e-11, +0.1573695559331945583e-10,
        -0.1884658558040203709e-9,  +0.1798167853032159309e-8,  -0.1380745342355033142e-7,
        +0.8525705726469103499e-7,  -0.4160448058101303405e-6,  +0.1517272660008588485e-5,
        -0.3341634127317201697e-5,  -0.2515023395879724513e-5,  +0.6539731269664907554e-4,
        -0.3551065097428388658e-3,  +0.1210736097958368864e-2,  -0.2605566912579998680e-2,
        +0.1252823202436093193e-2,  +0.1820191395263313222e-1,  -0.1021557155453465954e+0};
    static const double near_pairs[6] = {0.0092877958392275604405, 7.9287559463961107493e-19,
                                         0.042275531758784692937,  1.3785226620501016138e-19,
                                         0.07052369794346953491,   9.5846628070792092842e-19};
    static const double far_pairs[6] = {-0.63691044383641748361, -2.4249477526539431839e-17,
                                        -1.1282926061803961737,  -6.2970338860410996505e-17,
                                        -1.2261313785184804967e-05, -5.5329707514490107044e-22};
    double x = fabs(a), x2, x4, x8, x16, t, z;
    const double *c, *p;
    mt_double2 t2;
    int close;

    if (isnan(a)) {
        return a + a;
    }
    if (a == 0.0) {
        return a;
    }
    if (x >= 6.0) {
        return copysign(1.0, a);
    }
    close = x <= 2.5;
    c = close ? near : far;
    p = close ? near_pairs : far_pairs;
    x2 = x * x;
    x4 = x2 * x2;
    x8 = x4 * x4;
    x16 = x8 * x8;
    t = fma(x16, fma(x4, c[0], MT_POLY4(x, x2, c + 1)),
            fma(x8, MT_POLY8(x, x2, x4, c + 5), MT_POLY8(x, x2, x4, c + 13)));
    /* poly4dd: (x^2) (x t + p0) + (x p1 + p2) in pairs */
    t2 = mt_two_mla_f64(x * x, mt_two_mla_f64(x, mt_two_f64(t, 0.0), mt_two_f64(p[0], p[1])),
                        mt_two_mla_f64(x, mt_two_f64(p[2], p[3]), mt_two_f64(p[4], p[5])));
    if (close) {
        t2 = mt_two_scalar_add_fast_f64(1.0, mt_two_mul_scalar_f64(t2, x));
        t2 = mt_two_square_f64(t2);
        t2 = mt_two_square_f64(t2);
        t2 = mt_two_square_f64(t2);
        t2 = mt_two_square_f64(t2);
        t2 = mt_two_rec_f64(t2);
    }
    else {
        t2 = mt_two_f64(mt_sleef_expk_f64(t2), 0.0);
    }
    t2 = mt_two_add_scalar_f64(t2, -1.0);
    z = -(t2.hi + t2.lo);
    if (x < 1e-8) {
        z = x * 1.12837916709551262756245475959;
    }
    return mt_from_bits_f64(mt_bits_f64(z) ^ (mt_bits_f64(a) & 0x8000000000000000ull));
}

#undef MT_POLY4
#undef MT_POLY8

#endif
