/* gelu.c (cpu): torch's CPU kernels for gelu and its gradient, so that the values are torch 2.13's bit for
 * bit (checked against its x86 build: tests/test_nn_functional.py). torch runs them through cpu_kernel_vec
 * (aten/src/ATen/native/cpu/Activation.cpp and Gelu.h), which splits each run of TensorIterator's loop:
 *  - a run whose output is dense and whose inputs are dense (or one of them a single broadcast number)
 *    goes two vectors at a time (32 or 64 bytes each under AVX2 or AVX-512) through the vector lambda,
 *    whose erf is torch's own (mt_torch_erf_vec_f32) for float and SLEEF's for double, whose tanh and exp
 *    are SLEEF's (sleef_tanh_erf.h, op_math.h), every multiply and add rounded on its own;
 *  - the rest of the run, and runs of other strides, go element by element through the scalar lambda,
 *    with the C library's erf, tanh and exp, the multiply-adds its compiler fuses fused (the AVX2 and
 *    AVX-512 kernels are built with FMA; the portable ones fuse nothing and have no vector body).
 * float16 and bfloat16 are computed in float (each vector of them as two float vectors) and rounded once;
 * the scalar gradient of approximate='none' multiplies its constant out in float, the vector one takes it
 * rounded from double. The forward splits the elements among threads as torch does for gelu (a grain of
 * numel / threads past 16384 elements), the backward with torch's default grain. The calls torch hands to
 * oneDNN instead (the op layer says which: mt_gelu_kernel_args.onednn) take oneDNN's arithmetic, below.
 * This file must not raise, allocate or know about devices. */
#include "gelu.h"

#include <math.h>

#include "../op_math.h"
#include "../sleef_tanh_erf.h"
#include "cpu_features.h"
#include "parallel.h"

/* torch's GELU_MIN_ELEMENTS_FOR_MULTI_THREADING */
#define GELU_MIN_ELEMENTS_FOR_MULTI_THREADING 16384

/* the constants as torch's kernels compute them (M_SQRT1_2, M_2_SQRTPI, M_SQRT2 spelled out) */
#define GELU_SQRT1_2 0.70710678118654752440
#define GELU_2_SQRTPI 1.12837916709551257390
#define GELU_SQRT2 1.41421356237309504880
#define GELU_BETA (GELU_SQRT2 * GELU_2_SQRTPI * 0.5)    /* sqrt(2 / pi), the tanh form's */
#define GELU_KAPPA 0.044715
#define GELU_PDF (GELU_2_SQRTPI * GELU_SQRT1_2 * 0.5)   /* 1 / sqrt(2 pi), the gradient's */

/* ---- one element ------------------------------------------------------------------------------------ */

/* vec: the vector lambda's tanh, erf and exp (SLEEF's, torch's erf) in place of the C library's; fused:
 * the multiply-adds the FMA builds' compiler contracts (in both lambdas: the vector operators are plain
 * arithmetic on GCC's vector types), none in the portable build; pdf: the gradient's 1 / sqrt(2 pi), and
 * pdf_fused: whether the gradient's last x pdf + cdf is fused in the vector lambda (float and double: yes,
 * the 16-bit dtypes' lambda: no; the scalar lambdas: no). Which steps are fused was found by comparing
 * bits with torch's build. */
#define GELU_FNS(S, T, F, VEC_TANH, VEC_ERF, VEC_EXP)                                            \
    static inline T gelu_##S(T x, int tanh_form, int vec, int fused)                               \
    {                                                                                              \
        if (tanh_form) {                                                                           \
            const T beta = (T)GELU_BETA, kappa = (T)GELU_KAPPA, cube = x * x * x;                   \
            T inner = beta * (fused ? fma##F(kappa, cube, x) : x + kappa * cube);                  \
            return (T)0.5 * x * ((T)1 + (vec ? VEC_TANH(inner) : tanh##F(inner)));                 \
        }                                                                                          \
        return x * (T)0.5 *                                                                        \
               ((T)1 + (vec ? VEC_ERF(x * (T)GELU_SQRT1_2) : erf##F(x * (T)GELU_SQRT1_2)));        \
    }                                                                                              \
    static inline T gelu_backward_##S(T dy, T x, int tanh_form, int vec, int fused, T pdf, int pdf_fused) \
    {                                                                                              \
        if (tanh_form) {                                                                           \
            const T beta = (T)GELU_BETA, kappa = (T)GELU_KAPPA, three_kappa = (T)3 * (T)GELU_KAPPA; \
            const T x_sq = x * x, left = (T)0.5 * x;                                               \
            T t;                                                                                   \
            if (!fused) {                                                                          \
                t = tanh##F(beta * (x + kappa * (x_sq * x)));                                      \
                return dy * ((T)0.5 * ((T)1 + t) +                                                 \
                             left * ((T)1 - t * t) * (beta * ((T)1 + three_kappa * x_sq)));        \
            }                                                                                      \
            t = beta * fma##F(kappa, x_sq * x, x);                                                 \
            t = vec ? VEC_TANH(t) : tanh##F(t);                                                    \
            /* left_derivative + right_derivative: the compiler fuses the first product */         \
            return dy * fma##F((T)0.5, (T)1 + t,                                                   \
                               left * fma##F(-t, t, (T)1) * (beta * fma##F(three_kappa, x_sq, (T)1))); \
        }                                                                                          \
        {                                                                                          \
            const T cdf =                                                                          \
                (T)0.5 * ((T)1 + (vec ? VEC_ERF(x * (T)GELU_SQRT1_2) : erf##F(x * (T)GELU_SQRT1_2))); \
            const T e = pdf * (vec ? VEC_EXP(x * x * (T)-0.5) : exp##F(x * x * (T)-0.5));          \
            return dy * (vec && pdf_fused ? fma##F(x, e, cdf) : cdf + x * e);                      \
        }                                                                                          \
    }
GELU_FNS(f32, float, f, mt_sleef_tanh_f32, mt_torch_erf_vec_f32, mt_vexp_f32)
GELU_FNS(f64, double, , mt_sleef_tanh_f64, mt_sleef_erf_f64, mt_vexp_f64)

/* ---- oneDNN's gelu_erf ------------------------------------------------------------------------------ */

/* torch hands approximate='none' on a contiguous float32 (and, on an AVX-512 CPU, bfloat16) input of two or
 * more elements to oneDNN's eltwise gelu_erf (aten/src/ATen/native/Activation.cpp, use_mkldnn), whose JIT
 * kernels (jit_uni_eltwise_injector.cpp) compute every element the same way, in float:
 *  - forward on AVX-512: x (1 + sign(x) P_i(|x|)) / 2, P_i one of 25 minimax polynomials of degree 5 picked
 *    by the bits of |x| (two mantissa bits per binade), P = 1 past 5.54;
 *  - forward below AVX-512 and the gradient: Abramowitz and Stegun's erf with oneDNN's own exp
 *    (onednn_exp_f32). */
static const uint32_t onednn_erf_pol[6][25] = {
    {0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb, 0x3867a213,
     0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9,
     0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000, 0x00000000},
    {0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40, 0x3f4c146a,
     0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704,
     0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000, 0x3f800000},
    {0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960, 0x3b6e5491,
     0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3,
     0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000, 0x00000000},
    {0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a, 0xbe124df8,
     0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1,
     0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000, 0x00000000},
    {0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712, 0x3c6c5840,
     0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48,
     0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000, 0x00000000},
    {0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b, 0x3c2a7935,
     0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76,
     0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000, 0x00000000}};

/* the Abramowitz and Stegun constants as oneDNN stores them: p, 1 / sqrt(2), 1 / sqrt(pi), a1 .. a5 */
#define ONEDNN_AS_P 0x3ea7ba05u
#define ONEDNN_ONE_OVER_SQRT2 0x3f3504f3u
#define ONEDNN_ONE_OVER_SQRTPI 0x3f106ebau
static const uint32_t onednn_as_pol[5] = {0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22};

/* oneDNN's exp: n = floor(x log2(e) + 1/2), r = x - n ln 2 (fused), a degree-5 polynomial, times 2^(n-1)
 * and 2; 0 below log(FLT_MIN), x clamped to log(FLT_MAX) */
static inline float
onednn_exp_f32(float x)
{
    static const uint32_t pol[5] = {0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce};
    const float lo = mt_from_bits_f32(0xc2aeac50u), hi = mt_from_bits_f32(0x42b17218u);
    const int underflow = x < lo;
    float r, fx, p, scale;
    int n;

    x = x < hi ? x : hi;    /* vminps/vmaxps: a NaN x gives the bound */
    x = x > lo ? x : lo;
    fx = floorf(x * mt_from_bits_f32(0x3fb8aa3bu) + 0.5f);
    r = fmaf(-fx, mt_from_bits_f32(0x3f317218u), x);
    n = (int)(fx - 1.0f);
    scale = underflow ? 0.0f : mt_from_bits_f32((uint32_t)(n + 127) << 23);
    p = mt_from_bits_f32(pol[4]);
    for (int k = 3; k >= 0; k--) {
        p = fmaf(p, r, mt_from_bits_f32(pol[k]));
    }
    p = fmaf(p, r, 1.0f);
    return p * scale * 2.0f;
}

/* Abramowitz and Stegun's erf of x / sqrt(2) as oneDNN's kernels compute it, with the pieces the gradient
 * reuses: *r = x / sqrt(2), *q = exp(-r^2) */
static inline float
onednn_as_erf_f32(float x, float *r, float *q)
{
    float w, e, pol;
    uint32_t sign;

    *r = x * mt_from_bits_f32(ONEDNN_ONE_OVER_SQRT2);
    *q = onednn_exp_f32(-(*r * *r));
    sign = mt_bits_f32(*r) & 0x80000000u;
    w = 1.0f / fmaf(mt_from_bits_f32(ONEDNN_AS_P), fabsf(*r), 1.0f);
    e = -*q * w;
    pol = mt_from_bits_f32(onednn_as_pol[4]);
    for (int k = 3; k >= 0; k--) {
        pol = fmaf(pol, w, mt_from_bits_f32(onednn_as_pol[k]));
    }
    return mt_from_bits_f32(mt_bits_f32(fmaf(e, pol, 1.0f)) ^ sign);
}

static inline float
onednn_gelu_f32(float x, int avx512)
{
    if (avx512) {
        const uint32_t sign = mt_bits_f32(x) & 0x80000000u;
        const float a = fabsf(x);
        int32_t i = (int32_t)(mt_bits_f32(a) + 0xc21fffffu) >> 21;
        float p;

        i = i < 1 ? 1 : i > 24 ? 24 : i;
        if (mt_from_bits_f32(0x40b15ceeu) < a) {
            i = 23;
        }
        p = mt_from_bits_f32(onednn_erf_pol[5][i]);
        for (int k = 4; k >= 0; k--) {
            p = fmaf(p, a, mt_from_bits_f32(onednn_erf_pol[k][i]));
        }
        p = mt_from_bits_f32(mt_bits_f32(p) ^ sign) + 1.0f;
        return x * p * 0.5f;
    }
    {
        float r, q, half = x * 0.5f, erf = onednn_as_erf_f32(x, &r, &q);
        return fmaf(erf, half, half);
    }
}

static inline float
onednn_gelu_backward_f32(float dy, float x)
{
    float r, q, erf = onednn_as_erf_f32(x, &r, &q);
    float t = r * mt_from_bits_f32(ONEDNN_ONE_OVER_SQRTPI) * q;
    return dy * fmaf(erf, 0.5f, t + 0.5f);
}

/* whether oneDNN takes its AVX-512 kernels here (avx512_core: F, BW, VL and DQ) */
static int
onednn_avx512(void)
{
#if defined(MT_CPU_CLONES)
    static int has = -1;
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
              __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    }
    return has;
#else
    return 0;
#endif
}

/* ---- the loop ---------------------------------------------------------------------------------------- */

typedef struct {
    const mt_gelu_kernel_args *args;
    int vector_bytes;   /* torch's vector width under its capability; 0: the portable kernels */
    int onednn;         /* oneDNN's gelu_erf computes every element; 2: its AVX-512 forward */
} gelu_ctx;

static inline float
load_float(mt_dtype dtype, const char *p)
{
    if (dtype == MT_FLOAT32) {
        return *(const float *)p;
    }
    return mt_reduced_to_float(dtype, *(const uint16_t *)p);
}

static inline void
store_float(mt_dtype dtype, char *p, float v)
{
    if (dtype == MT_FLOAT32) {
        *(float *)p = v;
    }
    else {
        *(uint16_t *)p = mt_float_to_reduced(dtype, v);
    }
}

/* One run of n elements: the first nvec through the vector lambda, the rest through the scalar one. */
static void
gelu_run(char **data, const int64_t *strides, int64_t n, void *vctx)
{
    const gelu_ctx *ctx = vctx;
    const mt_gelu_kernel_args *args = ctx->args;
    const mt_dtype dtype = args->dtype;
    const int64_t size = (int64_t)mt_dtype_size(dtype);
    const int tanh_form = args->tanh, fused = ctx->vector_bytes > 0;
    const int x_op = args->backward ? 2 : 1;
    int64_t nvec = 0;
    int dense;

    if (ctx->onednn) {
        for (int64_t i = 0; i < n; i++) {
            float x = load_float(dtype, data[x_op] + i * strides[x_op]);
            store_float(dtype, data[0] + i * strides[0],
                        args->backward ? onednn_gelu_backward_f32(load_float(dtype, data[1] + i * strides[1]), x)
                                       : onednn_gelu_f32(x, ctx->onednn == 2));
        }
        return;
    }
    if (args->backward) {
        /* both inputs dense, or exactly one of them a broadcast number and the other dense */
        dense = strides[0] == size && ((strides[1] == size && strides[2] == size) ||
                                       (strides[1] == 0 && strides[2] == size) ||
                                       (strides[1] == size && strides[2] == 0));
    }
    else {
        dense = strides[0] == size && (strides[1] == size || strides[1] == 0);
    }
    if (dense && ctx->vector_bytes > 0) {
        int64_t unit = 2 * (int64_t)ctx->vector_bytes / size;
        nvec = n - n % unit;
    }
    for (int64_t i = 0; i < n; i++) {
        const int vec = i < nvec;
        char *out = data[0] + i * strides[0];
        const char *xp = data[x_op] + i * strides[x_op];
        if (dtype == MT_FLOAT64) {
            double x = *(const double *)xp;
            *(double *)out = args->backward ? gelu_backward_f64(*(const double *)(data[1] + i * strides[1]), x,
                                                                tanh_form, vec, fused, GELU_PDF, 1)
                                            : gelu_f64(x, tanh_form, vec, fused);
        }
        else {
            float x = load_float(dtype, xp), r;
            if (args->backward) {
                /* the 16-bit dtypes' scalar constant: float(M_2_SQRTPI) * float(M_SQRT1_2) * 0.5f */
                float pdf = dtype != MT_FLOAT32 && !vec ? (float)GELU_2_SQRTPI * (float)GELU_SQRT1_2 * 0.5f
                                                        : (float)GELU_PDF;
                r = gelu_backward_f32(load_float(dtype, data[1] + i * strides[1]), x, tanh_form, vec, fused, pdf,
                                      dtype == MT_FLOAT32);
            }
            else {
                r = gelu_f32(x, tanh_form, vec, fused);
            }
            store_float(dtype, out, r);
        }
    }
}

int
mt_cpu_gelu(const mt_iter *it, const mt_gelu_kernel_args *args)
{
    gelu_ctx ctx;
    int64_t grain = MT_PARALLEL_GRAIN_SIZE;

    if (!mt_dtype_is_floating(args->dtype)) {
        return -1;
    }
    ctx.args = args;
    ctx.vector_bytes = mt_cpu_torch_vector_bytes();
    ctx.onednn = 0;
    if (args->onednn && (args->dtype == MT_FLOAT32 || onednn_avx512())) {
        ctx.onednn = onednn_avx512() ? 2 : 1;
    }
    if (!args->backward && it->numel > GELU_MIN_ELEMENTS_FOR_MULTI_THREADING) {
        grain = it->numel / mt_parallel_get_num_threads();
    }
    mt_iter_run_parallel_as_torch_grain(it, grain, gelu_run, &ctx);
    return 0;
}
