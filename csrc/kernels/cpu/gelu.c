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
 * numel / threads past 16384 elements), the backward with torch's default grain. This file must not
 * raise, allocate or know about devices. */
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
static inline float
gelu_f32(float x, int tanh_form, int vec)
{
    if (tanh_form) {
        const float beta = (float)GELU_BETA, kappa = (float)GELU_KAPPA;
        float inner = beta * fmaf(kappa, x * x * x, x);
        return 0.5f * x * (1.0f + (vec ? mt_sleef_tanh_f32(inner) : tanhf(inner)));
    }
    return x * 0.5f * (1.0f + (vec ? mt_torch_erf_vec_f32(x * (float)GELU_SQRT1_2) : erff(x * (float)GELU_SQRT1_2)));
}

/* the portable build's: nothing fused, no vector functions */
static inline float
gelu_plain_f32(float x, int tanh_form)
{
    if (tanh_form) {
        float inner = (float)GELU_BETA * (x + (float)GELU_KAPPA * (x * x * x));
        return 0.5f * x * (1.0f + tanhf(inner));
    }
    return x * 0.5f * (1.0f + erff(x * (float)GELU_SQRT1_2));
}

static inline float
gelu_backward_f32(float dy, float x, int tanh_form, int vec, int fused, float pdf, int pdf_fused)
{
    if (tanh_form) {
        const float beta = (float)GELU_BETA, kappa = (float)GELU_KAPPA, three_kappa = 3.0f * (float)GELU_KAPPA;
        float x_sq = x * x, inner, t, left;
        if (!fused) {
            inner = beta * (x + kappa * (x_sq * x));
            t = tanhf(inner);
            left = 0.5f * x;
            return dy * (0.5f * (1.0f + t) + left * (1.0f - t * t) * (beta * (1.0f + three_kappa * x_sq)));
        }
        inner = beta * fmaf(kappa, x_sq * x, x);
        t = vec ? mt_sleef_tanh_f32(inner) : tanhf(inner);
        left = 0.5f * x;
        /* left_derivative + right_derivative: the compiler fuses the first product, 0.5 (1 + t) */
        return dy * fmaf(0.5f, 1.0f + t, left * fmaf(-t, t, 1.0f) * (beta * fmaf(three_kappa, x_sq, 1.0f)));
    }
    {
        float cdf = 0.5f * (1.0f + (vec ? mt_torch_erf_vec_f32(x * (float)GELU_SQRT1_2) : erff(x * (float)GELU_SQRT1_2)));
        float e = pdf * (vec ? mt_vexp_f32(x * x * -0.5f) : expf(x * x * -0.5f));
        /* fused in float's vector lambda only (as torch's build compiles the three) */
        return dy * (vec && pdf_fused ? fmaf(x, e, cdf) : cdf + x * e);
    }
}

static inline double
gelu_f64(double x, int tanh_form, int vec, int fused)
{
    if (tanh_form) {
        double cube = x * x * x;
        double inner = GELU_BETA * (fused ? fma(GELU_KAPPA, cube, x) : x + GELU_KAPPA * cube);
        return 0.5 * x * (1.0 + (vec ? mt_sleef_tanh_f64(inner) : tanh(inner)));
    }
    return x * 0.5 * (1.0 + (vec ? mt_sleef_erf_f64(x * GELU_SQRT1_2) : erf(x * GELU_SQRT1_2)));
}

static inline double
gelu_backward_f64(double dy, double x, int tanh_form, int vec, int fused)
{
    if (tanh_form) {
        const double three_kappa = 3.0 * GELU_KAPPA;
        double x_sq = x * x, inner, t, left;
        if (!fused) {
            inner = GELU_BETA * (x + GELU_KAPPA * (x_sq * x));
            t = tanh(inner);
            left = 0.5 * x;
            return dy * (0.5 * (1.0 + t) + left * (1.0 - t * t) * (GELU_BETA * (1.0 + three_kappa * x_sq)));
        }
        inner = GELU_BETA * fma(GELU_KAPPA, x_sq * x, x);
        t = vec ? mt_sleef_tanh_f64(inner) : tanh(inner);
        left = 0.5 * x;
        return dy * fma(0.5, 1.0 + t, left * fma(-t, t, 1.0) * (GELU_BETA * fma(three_kappa, x_sq, 1.0)));
    }
    {
        double cdf = 0.5 * (1.0 + (vec ? mt_sleef_erf_f64(x * GELU_SQRT1_2) : erf(x * GELU_SQRT1_2)));
        double e = GELU_PDF * (vec ? mt_vexp_f64(x * x * -0.5) : exp(x * x * -0.5));
        return dy * (vec ? fma(x, e, cdf) : cdf + x * e);
    }
}

/* ---- the loop ---------------------------------------------------------------------------------------- */

typedef struct {
    const mt_gelu_kernel_args *args;
    int vector_bytes;   /* torch's vector width under its capability; 0: the portable kernels */
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
            *(double *)out = args->backward
                                 ? gelu_backward_f64(*(const double *)(data[1] + i * strides[1]), x, tanh_form, vec, fused)
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
                r = fused ? gelu_f32(x, tanh_form, vec) : gelu_plain_f32(x, tanh_form);
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
    if (!args->backward && it->numel > GELU_MIN_ELEMENTS_FOR_MULTI_THREADING) {
        grain = it->numel / mt_parallel_get_num_threads();
    }
    mt_iter_run_parallel_as_torch_grain(it, grain, gelu_run, &ctx);
    return 0;
}
