/* sleef_log1p_exp2.h: SLEEF's log1p and exp2 (Sleef_log1pf*_u10, Sleef_log1pd*_u10, Sleef_exp2f*_u10,
 * Sleef_exp2d*_u10 as built for AVX2 and AVX-512, with fused multiply-adds), which torch's vectorised CPU
 * kernels call on whole vectors (logaddexp's and logaddexp2's; kernels/cpu/elementwise.c chooses which
 * elements take them). Part of op_math.h, which includes it after its vector exp; never included alone.
 * Host only: CUDA devices keep CUDA's log1p and exp2. Each step rounds as SLEEF's does, so the values are
 * SLEEF's bit for bit; this file holds no state and loops over no memory.
 *
 * log1p(d): with 1 + d = 2^e m' (m' in [0.75, 1.5), e from the exponent of (1 + d) / 0.75), m = d 2^-e +
 * (2^-e - 1) is m' - 1 (one fused step, exact enough that small d keeps its digits); x = m / (2 + m) in
 * double-float (a pair hi + lo); log1p(d) = e ln 2 + 2x + x^3 P(x^2), the first terms kept as pairs and
 * summed last; then SLEEF's special cases: d < -1 gives NaN, -1 -inf, -0.0 itself. Written for the
 * arguments logaddexp gives it, -1 <= d <= 1 and NaN: SLEEF's other branches are left out (its log for d
 * past about 1e38, and its scaling of a subnormal 1 + d, which no float/double d gives).
 *
 * exp2(d): n = rint(d), s = d - n (exact), 2^s as a polynomial in s (Horner's scheme for float, Estrin's
 * for double in SLEEF's grouping), ended with a fused u s + 1, then times 2^n applied in two halves as in
 * mt_vexp_f32. Past SLEEF's thresholds: inf at d >= 128 (1024), 0 below -150 (-2000). */
#ifndef MT_KERNELS_SLEEF_LOG1P_EXP2_H
#define MT_KERNELS_SLEEF_LOG1P_EXP2_H

/* ---- double-float and double-double steps (SLEEF's df.h/dd.h, their fused-multiply-add forms) -------- */

/* a pair hi + lo standing for one number with twice the precision */
#define MT_SLEEF_PAIR(S, T)                                                                        \
    typedef struct {                                                                               \
        T hi, lo;                                                                                  \
    } mt_sleef_pair_##S;                                                                           \
    /* x + y, |x| >= |y| */                                                                        \
    static inline mt_sleef_pair_##S mt_sleef_add_##S(T x, T y)                                     \
    {                                                                                              \
        mt_sleef_pair_##S r;                                                                       \
        r.hi = x + y;                                                                              \
        r.lo = (x - r.hi) + y;                                                                     \
        return r;                                                                                  \
    }                                                                                              \
    /* pair + pair, |x| >= |y| */                                                                  \
    static inline mt_sleef_pair_##S mt_sleef_add_pairs_##S(mt_sleef_pair_##S x, mt_sleef_pair_##S y) \
    {                                                                                              \
        mt_sleef_pair_##S r;                                                                       \
        r.hi = x.hi + y.hi;                                                                        \
        r.lo = (((x.hi - r.hi) + y.hi) + x.lo) + y.lo;                                             \
        return r;                                                                                  \
    }                                                                                              \
    /* pair + number, |x| >= |y| */                                                                \
    static inline mt_sleef_pair_##S mt_sleef_add_pair_##S(mt_sleef_pair_##S x, T y)                \
    {                                                                                              \
        mt_sleef_pair_##S r;                                                                       \
        r.hi = x.hi + y;                                                                           \
        r.lo = ((x.hi - r.hi) + y) + x.lo;                                                         \
        return r;                                                                                  \
    }                                                                                              \
    /* pair * number */                                                                            \
    static inline mt_sleef_pair_##S mt_sleef_mul_##S(mt_sleef_pair_##S x, T y)                     \
    {                                                                                              \
        mt_sleef_pair_##S r;                                                                       \
        r.hi = x.hi * y;                                                                           \
        r.lo = mt_sleef_fma_##S(x.lo, y, mt_sleef_fma_##S(x.hi, y, -r.hi));                        \
        return r;                                                                                  \
    }                                                                                              \
    /* n / d, with 1 / d.hi correctly rounded (a division, as SLEEF's x86 reciprocal) */           \
    static inline mt_sleef_pair_##S mt_sleef_div_##S(mt_sleef_pair_##S n, mt_sleef_pair_##S d)     \
    {                                                                                              \
        const T t = (T)1 / d.hi;                                                                   \
        mt_sleef_pair_##S q;                                                                       \
        T u;                                                                                       \
        q.hi = n.hi * t;                                                                           \
        u = mt_sleef_fma_##S(t, n.hi, -q.hi);                                                      \
        q.lo = mt_sleef_fma_##S(-d.lo, t, mt_sleef_fma_##S(-d.hi, t, (T)1));                       \
        q.lo = mt_sleef_fma_##S(q.hi, q.lo, mt_sleef_fma_##S(n.lo, t, u));                         \
        return q;                                                                                  \
    }

#define mt_sleef_fma_f32 fmaf
#define mt_sleef_fma_f64 fma
MT_SLEEF_PAIR(f32, float)
MT_SLEEF_PAIR(f64, double)

/* ---- log1p ------------------------------------------------------------------------------------------ */

static inline float
mt_vlog1p_f32(float d)
{
    const float dp1 = d + 1.0f;
    /* e: the exponent of (1 + d) / 0.75 (1 / 0.75 rounded to float first, as SLEEF writes it) */
    const int e = (int)((mt_bits_f32(dp1 * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
    const float t = mt_from_bits_f32((uint32_t)(0x7f - e) << 23);
    const float m = fmaf(d, t, t - 1.0f);
    const mt_sleef_pair_f32 ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    const mt_sleef_pair_f32 m_pair = {m, 0.0f};
    mt_sleef_pair_f32 s = mt_sleef_mul_f32(ln2, (float)e), x, two_x;
    float x2, p, r;

    x = mt_sleef_div_f32(m_pair, mt_sleef_add_f32(2.0f, m));
    x2 = x.hi * x.hi;
    p = fmaf(fmaf(0.3027294874f, x2, 0.3996108174f), x2, 0.6666694880f);
    two_x.hi = x.hi * 2.0f;
    two_x.lo = x.lo * 2.0f;
    s = mt_sleef_add_pairs_f32(s, two_x);
    s = mt_sleef_add_pair_f32(s, x2 * x.hi * p);
    /* selects, not branches, so that GCC vectorises a loop of these */
    r = s.hi + s.lo;
    r = d < -1.0f ? NAN : r;
    r = d == -1.0f ? -INFINITY : r;
    return mt_bits_f32(d) == 0x80000000u ? -0.0f : r;
}

static inline double
mt_vlog1p_f64(double d)
{
    const double dp1 = d + 1.0;
    const int e = (int)((mt_bits_f64(dp1 * (1.0 / 0.75)) >> 52) & 0x7ff) - 0x3ff;
    const double t = mt_from_bits_f64((uint64_t)(0x3ff - e) << 52);
    const double m = fma(d, t, t - 1.0);
    const mt_sleef_pair_f64 ln2 = {0.693147180559945286226764, 2.319046813846299558417771e-17};
    const mt_sleef_pair_f64 m_pair = {m, 0.0};
    mt_sleef_pair_f64 s = mt_sleef_mul_f64(ln2, (double)e), x, two_x;
    double x2, x4, x8, p, r;

    x = mt_sleef_div_f64(m_pair, mt_sleef_add_f64(2.0, m));
    x2 = x.hi * x.hi;
    x4 = x2 * x2;
    x8 = x4 * x4;
    /* SLEEF's Estrin grouping of its degree-6 polynomial in x^2 */
    p = fma(x8, fma(x4, 0.1532076988502701353e+0, fma(x2, 0.1525629051003428716e+0, 0.1818605932937785996e+0)),
            fma(x4, fma(x2, 0.2222214519839380009e+0, 0.2857142932794299317e+0),
                fma(x2, 0.3999999999635251990e+0, 0.6666666666667333541e+0)));
    two_x.hi = x.hi * 2.0;
    two_x.lo = x.lo * 2.0;
    s = mt_sleef_add_pairs_f64(s, two_x);
    s = mt_sleef_add_pair_f64(s, x2 * x.hi * p);
    r = s.hi + s.lo;
    r = d < -1.0 || d != d ? NAN : r;
    r = d == -1.0 ? -INFINITY : r;
    return mt_bits_f64(d) == 0x8000000000000000ull ? -0.0 : r;
}

/* ---- exp2 ------------------------------------------------------------------------------------------- */

/* the range checks and the choice of the result are masks on the bits, as in mt_vexp_f32 */
static inline float
mt_vexp2_f32(float d)
{
    const uint32_t b = mt_bits_f32(d);
    /* all ones where -150 <= d < 128 (a NaN is neither) */
    const uint32_t in_range = (uint32_t) - (int32_t)(((int32_t)b < (int32_t)0x43000000) & (b <= 0xc3160000u));
    const uint32_t is_nan = (uint32_t) - (int32_t)((b & 0x7fffffffu) > 0x7f800000u);
    const uint32_t negative = (uint32_t)((int32_t)b >> 31);
    const uint32_t outside = (b & is_nan) | (~is_nan & ~negative & 0x7f800000u);
    float n, s, u;
    int q;

    d = mt_from_bits_f32(b & in_range);
    n = rintf(d);
    q = (int)n;
    s = d - n;
    /* the coefficients are double literals rounded to float, as SLEEF passes them */
    u = (float)0.1535920892e-3;
    u = fmaf(u, s, (float)0.1339262701e-2);
    u = fmaf(u, s, (float)0.9618384764e-2);
    u = fmaf(u, s, (float)0.5550347269e-1);
    u = fmaf(u, s, (float)0.2402264476e+0);
    u = fmaf(u, s, (float)0.6931471825e+0);
    u = fmaf(u, s, 1.0f);
    u = u * mt_from_bits_f32((uint32_t)((q >> 1) + 0x7f) << 23) *
        mt_from_bits_f32((uint32_t)(q - (q >> 1) + 0x7f) << 23);
    return mt_from_bits_f32((mt_bits_f32(u) & in_range) | (outside & ~in_range));
}

static inline double
mt_vexp2_f64(double d)
{
    const uint64_t b = mt_bits_f64(d);
    uint64_t outside;
    /* -2000 <= d < 1024 (the largest double below 1024) */
    const uint64_t in_range = mt_exp_range_f64(b, 0x408fffffffffffffull, 0xc09f400000000000ull, &outside);
    double n, s, s2, s4, s8, u;
    int q;

    d = mt_from_bits_f64(b & in_range);
    n = rint(d);
    q = (int)n;
    s = d - n;
    s2 = s * s;
    s4 = s2 * s2;
    s8 = s4 * s4;
    u = fma(s8, fma(s, +0.4434359082926529454e-9, +0.7073164598085707425e-8),
            fma(s4,
                fma(s2, fma(s, +0.1017819260921760451e-6, +0.1321543872511327615e-5),
                    fma(s, +0.1525273353517584730e-4, +0.1540353045101147808e-3)),
                fma(s2, fma(s, +0.1333355814670499073e-2, +0.9618129107597600536e-2),
                    fma(s, +0.5550410866482046596e-1, +0.2402265069591012214e+0))));
    u = fma(u, s, +0.6931471805599452862e+0);
    u = fma(u, s, 1.0);
    u = u * mt_from_bits_f64((uint64_t)(int64_t)((q >> 1) + 0x3ff) << 52) *
        mt_from_bits_f64((uint64_t)(int64_t)(q - (q >> 1) + 0x3ff) << 52);
    return mt_from_bits_f64((mt_bits_f64(u) & in_range) | (outside & ~in_range));
}

#endif
