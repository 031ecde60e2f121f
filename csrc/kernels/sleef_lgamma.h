/* sleef_lgamma.h: lgamma for float and double as torch's x86 CPU kernel computes it (part of op_math.h,
 * which includes it; never included alone). torch's lgamma runs every element of a float or double tensor,
 * the tail of a run and strided elements included (copied into a buffer first), through SLEEF's vector
 * lgamma (Sleef_lgammaf8_u10 / Sleef_lgammaf16_u10, Sleef_lgammad4_u10 / Sleef_lgammad8_u10; float16 and
 * bfloat16 go through the float one and are rounded); the C library's lgamma differs from it in the last
 * bit on about a third of the values, and by far more right next to lgamma's zeros (1, 2 and the negative
 * ones), where the result is tiny. This file reproduces SLEEF's algorithm (xlgammaf_u1,
 * xlgamma_u1: the reflection below 0.5, the shift by a few steps of the recurrence, then Stirling's series or
 * a minimax polynomial near 1 and 2, summed in double-float or double-double arithmetic, with its
 * coefficients), one element at a time, with a fused multiply-add exactly where the AVX2 and AVX-512 builds
 * (FMA) have one. Host only (op_math.h leaves it out of CUDA code: a CUDA device keeps CUDA's lgamma, as
 * torch's CUDA kernel does). It holds no state and loops over no memory. */
#ifndef MT_KERNELS_SLEEF_LGAMMA_H
#define MT_KERNELS_SLEEF_LGAMMA_H

/* ---- double-float and double-double arithmetic: a value as hi + lo, SLEEF's df.h and dd.h with FMA ---- */

typedef struct {
    float hi, lo;
} mt_float2;

typedef struct {
    double hi, lo;
} mt_double2;

/* sum: the exact sum of two numbers of any magnitudes (SLEEF's "add2"); add: the cheaper sum for |x| >= |y|;
 * prod: the exact product of two numbers */
#define MT_TWO_(S, T, F, TWO)                                                                      \
    static inline TWO mt_two_##S(T hi, T lo)                                                       \
    {                                                                                              \
        TWO r = {hi, lo};                                                                          \
        return r;                                                                                  \
    }                                                                                              \
    static inline TWO mt_two_neg_##S(TWO x)                                                        \
    {                                                                                              \
        return mt_two_##S(-x.hi, -x.lo);                                                           \
    }                                                                                              \
    static inline TWO mt_two_normalize_##S(TWO t)                                                  \
    {                                                                                              \
        T hi = t.hi + t.lo;                                                                        \
        return mt_two_##S(hi, (t.hi - hi) + t.lo);                                                 \
    }                                                                                              \
    static inline TWO mt_two_scale_##S(TWO d, T s)                                                 \
    {                                                                                              \
        return mt_two_##S(d.hi * s, d.lo * s);                                                     \
    }                                                                                              \
    static inline TWO mt_two_sum_##S(T x, T y)                                                     \
    {                                                                                              \
        T hi = x + y, v = hi - x;                                                                  \
        return mt_two_##S(hi, (x - (hi - v)) + (y - v));                                           \
    }                                                                                              \
    static inline TWO mt_two_scalar_add_##S(T x, TWO y)                                            \
    {                                                                                              \
        T hi = x + y.hi, v = hi - x;                                                               \
        return mt_two_##S(hi, ((x - (hi - v)) + (y.hi - v)) + y.lo);                               \
    }                                                                                              \
    static inline TWO mt_two_add_scalar_##S(TWO x, T y)                                            \
    {                                                                                              \
        T hi = x.hi + y, v = hi - x.hi;                                                            \
        return mt_two_##S(hi, ((x.hi - (hi - v)) + (y - v)) + x.lo);                               \
    }                                                                                              \
    static inline TWO mt_two_add2_##S(TWO x, TWO y)                                                \
    {                                                                                              \
        T hi = x.hi + y.hi, v = hi - x.hi;                                                         \
        return mt_two_##S(hi, ((x.hi - (hi - v)) + (y.hi - v)) + (x.lo + y.lo));                   \
    }                                                                                              \
    static inline TWO mt_two_add_##S(TWO x, TWO y)                                                 \
    {                                                                                              \
        T hi = x.hi + y.hi;                                                                        \
        return mt_two_##S(hi, (((x.hi - hi) + y.hi) + x.lo) + y.lo);                               \
    }                                                                                              \
    static inline TWO mt_two_prod_##S(T x, T y)                                                    \
    {                                                                                              \
        T hi = x * y;                                                                              \
        return mt_two_##S(hi, fma##F(x, y, -hi));                                                  \
    }                                                                                              \
    static inline TWO mt_two_mul_scalar_##S(TWO x, T y)                                            \
    {                                                                                              \
        T hi = x.hi * y;                                                                           \
        return mt_two_##S(hi, fma##F(x.lo, y, fma##F(x.hi, y, -hi)));                              \
    }                                                                                              \
    static inline TWO mt_two_mul_##S(TWO x, TWO y)                                                 \
    {                                                                                              \
        T hi = x.hi * y.hi;                                                                        \
        return mt_two_##S(hi, fma##F(x.hi, y.lo, fma##F(x.lo, y.hi, fma##F(x.hi, y.hi, -hi))));    \
    }                                                                                              \
    static inline TWO mt_two_square_##S(TWO x)                                                     \
    {                                                                                              \
        T hi = x.hi * x.hi;                                                                        \
        return mt_two_##S(hi, fma##F(x.hi + x.hi, x.lo, fma##F(x.hi, x.hi, -hi)));                 \
    }                                                                                              \
    static inline TWO mt_two_div_##S(TWO n, TWO d)                                                 \
    {                                                                                              \
        T t = (T)1 / d.hi, hi = n.hi * t;                                                          \
        T u = fma##F(t, n.hi, -hi);                                                                \
        T lo = fma##F(-d.lo, t, fma##F(-d.hi, t, (T)1));                                           \
        return mt_two_##S(hi, fma##F(hi, lo, fma##F(n.lo, t, u)));                                 \
    }
MT_TWO_(f32, float, f, mt_float2)
MT_TWO_(f64, double, , mt_double2)

/* a double constant split into two floats */
static inline mt_float2
mt_two_of_double_f32(double d)
{
    return mt_two_f32((float)d, (float)(d - (double)(float)d));
}

/* ---- float ------------------------------------------------------------------------------------------ */

/* log of a positive double-float: x = (m - 1) / (m + 1) with m the mantissa scaled into [0.75, 1.5), then
 * 2 atanh(x) as a series, plus e ln 2. The exponent and 2^-e are made from the bits as SLEEF does (no
 * subnormal or overflow handling: the callers' values stay far from both). */
static inline mt_float2
mt_sleef_log2k_f32(mt_float2 d)
{
    float scaled = d.hi * (1.0f / 0.75f);
    int32_t e = (int32_t)((mt_bits_f32(scaled) >> 23) & 0xffu) - 0x7f;
    float pow2 = mt_from_bits_f32((uint32_t)(0x7f - e) << 23);
    mt_float2 m = mt_two_scale_f32(d, pow2), x, x2, s;
    float t;

    x = mt_two_div_f32(mt_two_add_scalar_f32(m, -1.0f), mt_two_add_scalar_f32(m, 1.0f));
    x2 = mt_two_square_f32(x);
    t = 0.2392828464508056640625f;
    t = fmaf(t, x2.hi, 0.28518211841583251953125f);
    t = fmaf(t, x2.hi, 0.400005877017974853515625f);
    t = fmaf(t, x2.hi, 0.666666686534881591796875f);
    s = mt_two_mul_scalar_f32(mt_two_f32(0.69314718246459960938f, -1.904654323148236017e-09f), (float)e);
    s = mt_two_add_f32(s, mt_two_scale_f32(x, 2.0f));
    return mt_two_add_f32(s, mt_two_mul_scalar_f32(mt_two_mul_f32(x2, x), t));
}

/* sin(pi d) for |d| < 4096 as a double-float: d reduced to a quarter period around a multiple of 1/2 */
static inline mt_float2
mt_sleef_sinpik_f32(float d)
{
    float u = d * 4.0f, s, t;
    int32_t q = (int32_t)u;
    int cosine;
    mt_float2 x, s2;

    q = (int32_t)(((uint32_t)q + (((uint32_t)q >> 31) ^ 1u)) & ~1u);
    cosine = (q & 2) != 0;
    s = u - (float)q;
    t = s;
    s = s * s;
    s2 = mt_two_prod_f32(t, t);
    u = cosine ? -0.2430611801e-7f : 0.3093842054e-6f;
    u = fmaf(u, s, cosine ? 0.3590577080e-5f : -0.3657307388e-4f);
    u = fmaf(u, s, cosine ? -0.3259917721e-3f : 0.2490393585e-2f);
    /* double-float constants given as doubles, rounded to float as SLEEF passes them */
    x = mt_two_scalar_add_f32(u * s, cosine ? mt_two_f32((float)0.015854343771934509277,
                                                         (float)4.4940051354032242811e-10)
                                            : mt_two_f32((float)-0.080745510756969451904,
                                                         (float)-1.3373665339076936258e-09));
    x = mt_two_add2_f32(mt_two_mul_f32(s2, x), cosine ? mt_two_f32((float)-0.30842512845993041992,
                                                                   (float)-9.0728339030733922277e-09)
                                                      : mt_two_f32((float)0.78539818525314331055,
                                                                   (float)-2.1857338617566484855e-08));
    x = mt_two_mul_f32(x, cosine ? s2 : mt_two_f32(t, 0.0f));
    if (cosine) {
        x = mt_two_add_scalar_f32(x, 1.0f);
    }
    if (q & 4) {
        x = mt_two_neg_f32(x);
    }
    return x;
}

/* lgamma(a) = *log_part + log|*ratio| (SLEEF's gammafk). Where a < 0.5, the reflection: log(pi) minus the
 * log part of 1 - a, the ratio divided by sin(pi a). For 2.3 <= x <= 7, x(x + 1)(x + 2) goes into the ratio
 * and x moves up by 3; from 2.3 on, Stirling's series (x - 0.5) log x - x + log(2 pi) / 2 with a polynomial
 * in 1/x; below, a polynomial in x - 1 (x <= 1.2) or x - 2. Tiny |a|: 1 / (a 2^60) and log 2^60. */
static inline void
mt_sleef_gammak_f32(float a, mt_float2 *log_part, mt_float2 *ratio)
{
    const int tiny = fabsf(a) < 1e-30f, reflect = a < 0.5f;
    mt_float2 x, y, z, clc, clln = mt_two_f32(1.0f, 0.0f), clld = mt_two_f32(1.0f, 0.0f);
    int near1, stirling;
    float t, u;

    x = tiny ? mt_two_f32(0.0f, 0.0f) : reflect ? mt_two_sum_f32(1.0f, -a) : mt_two_f32(a, 0.0f);
    near1 = 0.5f <= x.hi && x.hi <= 1.2f;
    stirling = 2.3f <= x.hi;
    if (stirling && x.hi <= 7.0f) {
        y = mt_two_normalize_f32(mt_two_mul_f32(mt_two_add_scalar_f32(x, 1.0f), x));
        clln = mt_two_normalize_f32(mt_two_mul_f32(mt_two_add_scalar_f32(x, 2.0f), y));
        x = mt_two_add_scalar_f32(x, 3.0f);
    }
    t = stirling ? 1.0f / x.hi : mt_two_normalize_f32(mt_two_add_scalar_f32(x, near1 ? -1.0f : -2.0f)).hi;
    /* the Stirling coefficients are doubles rounded to float, as SLEEF passes them */
#define MT_COEF_(s, one, two) (stirling ? (float)(s) : near1 ? (one) : (two))
    u = MT_COEF_(+0.000839498720672087279971000786, +0.9435157776e+0f, +0.1102489550e-3f);
    u = fmaf(u, t, MT_COEF_(-5.17179090826059219329394422e-05, +0.8670063615e+0f, +0.8160019934e-4f));
    u = fmaf(u, t, MT_COEF_(-0.000592166437353693882857342347, +0.4826702476e+0f, +0.1528468856e-3f));
    u = fmaf(u, t, MT_COEF_(+6.97281375836585777403743539e-05, -0.8855129778e-1f, -0.2355068718e-3f));
    u = fmaf(u, t, MT_COEF_(+0.000784039221720066627493314301, +0.1013825238e+0f, +0.4962242092e-3f));
    u = fmaf(u, t, MT_COEF_(-0.000229472093621399176949318732, -0.1493408978e+0f, -0.1193488017e-2f));
    u = fmaf(u, t, MT_COEF_(-0.002681327160493827160473958490, +0.1697509140e+0f, +0.2891599433e-2f));
    u = fmaf(u, t, MT_COEF_(+0.003472222222222222222175164840, -0.2072454542e+0f, -0.7385451812e-2f));
    u = fmaf(u, t, MT_COEF_(+0.083333333333333333335592087900, +0.2705872357e+0f, +0.2058077045e-1f));
#undef MT_COEF_
    if (stirling) {
        y = mt_two_mul_f32(mt_two_add_scalar_f32(x, -0.5f), mt_sleef_log2k_f32(x));
        y = mt_two_add2_f32(y, mt_two_neg_f32(x));
        clc = mt_two_add2_f32(y, mt_two_of_double_f32(0.91893853320467278056)); /* log(2 pi) / 2 */
        clld = mt_two_add_scalar_f32(mt_two_prod_f32(u, t), 1.0f);
    } else {
        z = mt_two_add_scalar_f32(mt_two_prod_f32(u, t), near1 ? -0.400686534596170958447352690395e+0f
                                                               : -0.673523028297382446749257758235e-1f);
        z = mt_two_add_scalar_f32(mt_two_mul_scalar_f32(z, t), near1 ? +0.822466960142643054450325495997e+0f
                                                                     : +0.322467033928981157743538726901e+0f);
        z = mt_two_add_scalar_f32(mt_two_mul_scalar_f32(z, t), near1 ? -0.577215665946766039837398973297e+0f
                                                                     : +0.422784335087484338986941629852e+0f);
        clc = mt_two_mul_scalar_f32(z, t);
    }
    if (tiny) {
        *log_part = mt_two_of_double_f32(41.58883083359671856503); /* log(2^60) */
        *ratio = mt_two_div_f32(mt_two_f32(1.0f, 0.0f), mt_two_f32(a * (1.15292150460684697600e18f), 0.0f));
    } else if (reflect) {
        float r = a - 4096.0f * truncf(a * (1.0f / 4096.0f));
        /* log(pi) */
        *log_part = mt_two_add2_f32(mt_two_of_double_f32(1.1447298858494001639), mt_two_neg_f32(clc));
        *ratio = mt_two_div_f32(clln, mt_two_mul_f32(clld, mt_sleef_sinpik_f32(r)));
    } else {
        *log_part = clc;
        *ratio = mt_two_div_f32(clld, clln);
    }
}

/* ---- double ----------------------------------------------------------------------------------------- */

/* as mt_sleef_log2k_f32, with a longer series (in Estrin's scheme, as SLEEF evaluates it) */
static inline mt_double2
mt_sleef_log2k_f64(mt_double2 d)
{
    double scaled = d.hi * (1.0 / 0.75);
    int64_t e = (int64_t)((mt_bits_f64(scaled) >> 52) & 0x7ffu) - 0x3ff;
    double pow2 = mt_from_bits_f64((uint64_t)(0x3ff - e) << 52);
    mt_double2 m = mt_two_scale_f64(d, pow2), x, x2, s;
    double x4, x8, t;

    x = mt_two_div_f64(mt_two_add_scalar_f64(m, -1.0), mt_two_add_scalar_f64(m, 1.0));
    x2 = mt_two_square_f64(x);
    /* Estrin's scheme in SLEEF's grouping, then one Horner step */
    x4 = x2.hi * x2.hi;
    x8 = x4 * x4;
    t = fma(x8,
            fma(x4, 0.13860436390467167910856, fma(x2.hi, 0.131699838841615374240845, 0.153914168346271945653214)),
            fma(x4, fma(x2.hi, 0.181816523941564611721589, 0.22222224632662035403996),
                fma(x2.hi, 0.285714285511134091777308, 0.400000000000914013309483)));
    t = fma(t, x2.hi, 0.666666666666664853302393);
    s = mt_two_mul_scalar_f64(mt_two_f64(0.693147180559945286226764, 2.319046813846299558417771e-17), (double)e);
    s = mt_two_add_f64(s, mt_two_scale_f64(x, 2.0));
    return mt_two_add_f64(s, mt_two_mul_scalar_f64(mt_two_mul_f64(x2, x), t));
}

/* sin(pi d) for |d| < 2^28 */
static inline mt_double2
mt_sleef_sinpik_f64(double d)
{
    double u = d * 4.0, s, t;
    int32_t q = (int32_t)((uint32_t)(int32_t)rint(u + 0.5) & ~1u);
    const int cosine = (q & 2) != 0;
    mt_double2 x, s2;

    s = u - (double)q;
    t = s;
    s = s * s;
    s2 = mt_two_prod_f64(t, t);
    u = cosine ? 9.94480387626843774090208e-16 : -2.02461120785182399295868e-14;
    u = fma(u, s, cosine ? -3.89796226062932799164047e-13 : 6.948218305801794613277840e-12);
    u = fma(u, s, cosine ? 1.150115825399960352669010e-10 : -1.75724749952853179952664e-09);
    u = fma(u, s, cosine ? -2.46113695010446974953590e-08 : 3.133616889668683928784220e-07);
    u = fma(u, s, cosine ? 3.590860448590527540050620e-06 : -3.65762041821615519203610e-05);
    u = fma(u, s, cosine ? -0.000325991886927389905997954 : 0.0024903945701927185027435600);
    x = mt_two_scalar_add_f64(u * s,
                              cosine ? mt_two_f64(0.0158543442438155018914259, -1.04693272280631521908845e-18)
                                     : mt_two_f64(-0.0807455121882807852484731, 3.61852475067037104849987e-18));
    x = mt_two_add2_f64(mt_two_mul_f64(s2, x),
                        cosine ? mt_two_f64(-0.308425137534042437259529, -1.95698492133633550338345e-17)
                               : mt_two_f64(0.785398163397448278999491, 3.06287113727155002607105e-17));
    x = mt_two_mul_f64(x, cosine ? s2 : mt_two_f64(t, 0.0));
    if (cosine) {
        x = mt_two_add_scalar_f64(x, 1.0);
    }
    if (q & 4) {
        x = mt_two_neg_f64(x);
    }
    return x;
}

/* as mt_sleef_gammak_f32 (SLEEF's gammak): x(x + 1)...(x + 4) and a shift by 5 for 2.3 <= x <= 7, the
 * polynomial in x - 1 up to 1.1, reduction by 2^28 for sin, 1 / (a 2^120) for |a| < 1e-306 */
static inline void
mt_sleef_gammak_f64(double a, mt_double2 *log_part, mt_double2 *ratio)
{
    const int tiny = fabs(a) < 1e-306, reflect = a < 0.5;
    mt_double2 x, y, z, clc, clln = mt_two_f64(1.0, 0.0), clld = mt_two_f64(1.0, 0.0);
    int near1, stirling;
    double t, u;

    x = tiny ? mt_two_f64(0.0, 0.0) : reflect ? mt_two_sum_f64(1.0, -a) : mt_two_f64(a, 0.0);
    near1 = 0.5 <= x.hi && x.hi <= 1.1;
    stirling = 2.3 <= x.hi;
    if (stirling && x.hi <= 7.0) {
        y = mt_two_normalize_f64(mt_two_mul_f64(mt_two_add_scalar_f64(x, 1.0), x));
        y = mt_two_normalize_f64(mt_two_mul_f64(mt_two_add_scalar_f64(x, 2.0), y));
        y = mt_two_normalize_f64(mt_two_mul_f64(mt_two_add_scalar_f64(x, 3.0), y));
        clln = mt_two_normalize_f64(mt_two_mul_f64(mt_two_add_scalar_f64(x, 4.0), y));
        x = mt_two_add_scalar_f64(x, 5.0);
    }
    t = stirling ? 1.0 / x.hi : mt_two_normalize_f64(mt_two_add_scalar_f64(x, near1 ? -1.0 : -2.0)).hi;
#define MT_COEF_(s, one, two) (stirling ? (s) : near1 ? (one) : (two))
    u = MT_COEF_(-156.801412704022726379848862, +0.2947916772827614196e+2, +0.7074816000864609279e-7);
    u = fma(u, t, MT_COEF_(+1.120804464289911606838558160000, +0.1281459691827820109e+3, +0.4009244333008730443e-6));
    u = fma(u, t, MT_COEF_(+13.39798545514258921833306020000, +0.2617544025784515043e+3, +0.1040114641628246946e-5));
    u = fma(u, t, MT_COEF_(-0.116546276599463200848033357000, +0.3287022855685790432e+3, +0.1508349150733329167e-5));
    u = fma(u, t, MT_COEF_(-1.391801093265337481495562410000, +0.2818145867730348186e+3, +0.1288143074933901020e-5));
    u = fma(u, t, MT_COEF_(+0.015056113040026424412918973400, +0.1728670414673559605e+3, +0.4744167749884993937e-6));
    u = fma(u, t, MT_COEF_(+0.179540117061234856098844714000, +0.7748735764030416817e+2, -0.6554816306542489902e-7));
    u = fma(u, t, MT_COEF_(-0.002481743600264997730942489280, +0.2512856643080930752e+2, -0.3189252471452599844e-6));
    u = fma(u, t, MT_COEF_(-0.029527880945699120504851034100, +0.5766792106140076868e+1, +0.1358883821470355377e-6));
    u = fma(u, t, MT_COEF_(+0.000540164767892604515196325186, +0.7270275473996180571e+0, -0.4343931277157336040e-6));
    u = fma(u, t, MT_COEF_(+0.006403362833808069794787256200, +0.8396709124579147809e-1, +0.9724785897406779555e-6));
    u = fma(u, t, MT_COEF_(-0.000162516262783915816896611252, -0.8211558669746804595e-1, -0.2036886057225966011e-5));
    u = fma(u, t, MT_COEF_(-0.001914438498565477526465972390, +0.6828831828341884458e-1, +0.4373363141819725815e-5));
    u = fma(u, t, MT_COEF_(+7.20489541602001055898311517e-05, -0.7712481339961671511e-1, -0.9439951268304008677e-5));
    u = fma(u, t, MT_COEF_(+0.000839498720672087279971000786, +0.8337492023017314957e-1, +0.2050727030376389804e-4));
    u = fma(u, t, MT_COEF_(-5.17179090826059219329394422e-05, -0.9094964931456242518e-1, -0.4492620183431184018e-4));
    u = fma(u, t, MT_COEF_(-0.000592166437353693882857342347, +0.1000996313575929358e+0, +0.9945751236071875931e-4));
    u = fma(u, t, MT_COEF_(+6.97281375836585777403743539e-05, -0.1113342861544207724e+0, -0.2231547599034983196e-3));
    u = fma(u, t, MT_COEF_(+0.000784039221720066627493314301, +0.1255096673213020875e+0, +0.5096695247101967622e-3));
    u = fma(u, t, MT_COEF_(-0.000229472093621399176949318732, -0.1440498967843054368e+0, -0.1192753911667886971e-2));
    u = fma(u, t, MT_COEF_(-0.002681327160493827160473958490, +0.1695571770041949811e+0, +0.2890510330742210310e-2));
    u = fma(u, t, MT_COEF_(+0.003472222222222222222175164840, -0.2073855510284092762e+0, -0.7385551028674461858e-2));
    u = fma(u, t, MT_COEF_(+0.083333333333333333335592087900, +0.2705808084277815939e+0, +0.2058080842778455335e-1));
#undef MT_COEF_
    if (stirling) {
        y = mt_two_mul_f64(mt_two_add_scalar_f64(x, -0.5), mt_sleef_log2k_f64(x));
        y = mt_two_add2_f64(y, mt_two_neg_f64(x));
        clc = mt_two_add2_f64(y, mt_two_f64(0.91893853320467278056, -3.8782941580672414498e-17)); /* log(2 pi) / 2 */
        clld = mt_two_add_scalar_f64(mt_two_prod_f64(u, t), 1.0);
    } else {
        z = mt_two_add_scalar_f64(mt_two_prod_f64(u, t),
                                  near1 ? -0.4006856343865314862e+0 : -0.6735230105319810201e-1);
        z = mt_two_add_scalar_f64(mt_two_mul_scalar_f64(z, t),
                                  near1 ? +0.8224670334241132030e+0 : +0.3224670334241132030e+0);
        z = mt_two_add_scalar_f64(mt_two_mul_scalar_f64(z, t),
                                  near1 ? -0.5772156649015328655e+0 : +0.4227843350984671345e+0);
        clc = mt_two_mul_scalar_f64(z, t);
    }
    if (tiny) {
        *log_part = mt_two_f64(83.1776616671934334590333, 3.67103459631568507221878e-15); /* log(2^120) */
        *ratio = mt_two_div_f64(mt_two_f64(1.0, 0.0), mt_two_f64(a * 1.329227995784915872903807060280344576e36, 0.0));
    } else if (reflect) {
        double r = a - 268435456.0 * trunc(a * (1.0 / 268435456.0));
        /* log(pi) */
        *log_part = mt_two_add2_f64(mt_two_f64(1.1447298858494001639, 1.026595116270782638e-17), mt_two_neg_f64(clc));
        *ratio = mt_two_div_f64(clln, mt_two_mul_f64(clld, mt_sleef_sinpik_f64(r)));
    } else {
        *log_part = clc;
        *ratio = mt_two_div_f64(clld, clln);
    }
}

/* ---- lgamma: log_part + log|ratio| ----------------------------------------------------------------- */

/* inf at +-inf, 0 and the negative integers (every float below -2^23, double below -2^52, is one), and where
 * the sum overflowed to NaN */
#define MT_SLEEF_LGAMMA_(S, T, F, TWO)                                                             \
    static inline T mt_sleef_lgamma_##S(T a)                                                       \
    {                                                                                              \
        TWO log_part, ratio, y;                                                                    \
        T r;                                                                                       \
                                                                                                   \
        if (isinf(a) || (a <= (T)0 && a == trunc##F(a))) {                                         \
            return (T)INFINITY;                                                                    \
        }                                                                                          \
        mt_sleef_gammak_##S(a, &log_part, &ratio);                                                 \
        if (signbit(ratio.hi)) {                                                                   \
            ratio = mt_two_neg_##S(ratio);                                                         \
        }                                                                                          \
        y = mt_two_add2_##S(log_part, mt_sleef_log2k_##S(ratio));                                  \
        r = y.hi + y.lo;                                                                           \
        return isnan(r) && !isnan(a) ? (T)INFINITY : r;                                            \
    }
MT_SLEEF_LGAMMA_(f32, float, f, mt_float2)
MT_SLEEF_LGAMMA_(f64, double, , mt_double2)

#endif
