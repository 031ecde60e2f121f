// Runs minitorch's CUDA kernels (csrc/kernels/cuda/kernels.cu) and its cuBLAS translation
// (csrc/kernels/cuda/cublas.c) on the host, for machines without a GPU; built and run by
// tests/test_cuda_emulation.py, which rewrites kernel launches for tests/c/cuda_emu/cuda_runtime.h and
// provides a host cuBLAS (tests/c/fake_cublas.c). Each check compares against a reference written here
// independently, on odd shapes, strided and broadcast operands. Usage: cuda_emu_check kernels|cublas|
// nocublas. Prints "ok N" or the failures, and exits non-zero on any failure.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels_emu.inc" // kernels.cu with its launches rewritten (includes cuda_kernels.h, philox.h)
#include "kernels/cpu/gemm.h"
extern "C" {
#include "kernels/cpu/index.h"
}
#include "kernels/cuda/cublas.h"
#include "runtime/runtime.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                                                                  \
    do {                                                                                                  \
        checks++;                                                                                         \
        if (!(cond)) {                                                                                    \
            failures++;                                                                                   \
            if (failures <= 40) {                                                                         \
                std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                                          \
                std::printf(__VA_ARGS__);                                                                 \
                std::printf("\n");                                                                        \
            }                                                                                             \
        }                                                                                                 \
    } while (0)

static const int kSizes[MT_NUM_DTYPES] = {1, 1, 1, 2, 4, 8, 4, 8, 2, 2};
static_assert(MT_NUM_DTYPES == 10 && MT_INT16 == 3 && MT_FLOAT64 == 7 && MT_BFLOAT16 == 9,
              "kSizes follows the dtype enum");

// ---- geometry built the way mt_iter builds it (innermost first, byte strides), without coalescing ----

struct Operand {
    char *data;
    std::vector<int64_t> strides; // elements, outermost first; 0 = broadcast
    int dtype;
};

static mt_iter
make_geometry(const std::vector<int64_t> &shape, const std::vector<Operand> &ops)
{
    mt_iter g;
    std::memset(&g, 0, sizeof(g));
    int n = (int)shape.size();
    g.ndim = n;
    g.nops = (int)ops.size();
    g.numel = 1;
    for (int d = 0; d < n; d++) {
        g.shape[d] = shape[n - 1 - d];
        g.numel *= shape[d];
        for (size_t k = 0; k < ops.size(); k++) {
            g.strides[k][d] = ops[k].strides[n - 1 - d] * kSizes[ops[k].dtype];
        }
    }
    for (size_t k = 0; k < ops.size(); k++) {
        g.data[k] = ops[k].data;
    }
    return g;
}

// element i (row-major over shape) of an operand: its byte offset
static int64_t
offset_of(int64_t i, const std::vector<int64_t> &shape, const Operand &op)
{
    int64_t off = 0;
    for (int d = (int)shape.size() - 1; d >= 0; d--) {
        off += (i % shape[d]) * op.strides[d];
        i /= shape[d];
    }
    return off * kSizes[op.dtype];
}

// values as doubles / bit patterns
static double
get(const char *p, int dtype)
{
    switch (dtype) {
    case MT_BOOL:
    case MT_UINT8:
        return *(const uint8_t *)p;
    case MT_INT8:
        return *(const int8_t *)p;
    case MT_INT16:
        return *(const int16_t *)p;
    case MT_INT32:
        return *(const int32_t *)p;
    case MT_INT64:
        return (double)*(const int64_t *)p;
    case MT_FLOAT32:
        return *(const float *)p;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        return mt_reduced_to_float((mt_dtype)dtype, *(const uint16_t *)p);
    default:
        return *(const double *)p;
    }
}

static void
put(char *p, int dtype, double v)
{
    switch (dtype) {
    case MT_BOOL:
        *(uint8_t *)p = v != 0;
        break;
    case MT_UINT8:
        *(uint8_t *)p = MT_FLOAT_TO_INT(uint8_t, v);
        break;
    case MT_INT8:
        *(int8_t *)p = MT_FLOAT_TO_INT(int8_t, v);
        break;
    case MT_INT16:
        *(int16_t *)p = MT_FLOAT_TO_INT(int16_t, v);
        break;
    case MT_INT32:
        *(int32_t *)p = (int32_t)v;
        break;
    case MT_INT64:
        *(int64_t *)p = (int64_t)v;
        break;
    case MT_FLOAT32:
        *(float *)p = (float)v;
        break;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        *(uint16_t *)p = mt_float_to_reduced((mt_dtype)dtype, (float)v);
        break;
    default:
        *(double *)p = v;
        break;
    }
}

static bool
same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// ---- cast / copy ----------------------------------------------------------------------------------------

// the host cast's rule (csrc/kernels/cpu/cast.c): C conversions, bool = (v != 0), a float to a small
// integer as torch's x86 build converts it (MT_FLOAT_TO_INT), which also wraps integers that overflow
static double
cast_value(double v, int to)
{
    switch (to) {
    case MT_BOOL:
        return v != 0;
    case MT_UINT8:
        return (double)MT_FLOAT_TO_INT(uint8_t, v);
    case MT_INT8:
        return (double)MT_FLOAT_TO_INT(int8_t, v);
    case MT_INT16:
        return (double)MT_FLOAT_TO_INT(int16_t, v);
    case MT_INT32:
        return (double)(int32_t)v;
    case MT_INT64:
        return (double)(int64_t)v;
    case MT_FLOAT32:
        return (double)(float)v;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        /* through float32, as c10::Half(double) */
        return mt_reduced_to_float((mt_dtype)to, mt_float_to_reduced((mt_dtype)to, (float)v));
    default:
        return v;
    }
}

static void
check_cast()
{
    const double values[] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.75, 123456.0, -7.0, 0.5, 3.0, 1e6, -1e6};
    const int nvalues = sizeof(values) / sizeof(values[0]);
    // a transposed (5 x 3) view of a 3 x 5 source, copied into a contiguous 5 x 3 destination
    for (int from = 0; from < MT_NUM_DTYPES; from++) {
        for (int to = 0; to < MT_NUM_DTYPES; to++) {
            std::vector<char> src(15 * 8), dst(15 * 8, 0x7f);
            for (int i = 0; i < 15; i++) {
                double v = values[i % nvalues];
                if (from == MT_BOOL) {
                    v = v != 0;
                }
                put(&src[i * kSizes[from]], from, v);
            }
            std::vector<int64_t> shape = {5, 3};
            Operand d = {dst.data(), {3, 1}, to};
            Operand s = {src.data(), {1, 5}, from};
            mt_iter g = make_geometry(shape, {d, s});
            int err = mt_cuda_launch_cast(0, &g, (mt_dtype)to, (mt_dtype)from);
            CHECK(err == 0, "cast launch %d", err);
            for (int i = 0; i < 15; i++) {
                double want = cast_value(get(src.data() + offset_of(i, shape, s), from), to);
                double got = get(dst.data() + offset_of(i, shape, d), to);
                CHECK(same(got, want), "cast %d->%d element %d: got %g want %g", from, to, i, got, want);
            }
        }
    }
    // same dtype copies bits (a NaN payload survives); broadcast source (stride 0) into 4 dims
    {
        uint32_t payload = 0x7fc01234u;
        std::vector<float> src(2);
        std::memcpy(&src[0], &payload, 4);
        src[1] = -1.5f;
        std::vector<float> dst(2 * 3 * 4 * 5);
        std::vector<int64_t> shape = {2, 3, 4, 5};
        Operand d = {(char *)dst.data(), {60, 20, 5, 1}, MT_FLOAT32};
        Operand s = {(char *)src.data(), {1, 0, 0, 0}, MT_FLOAT32};
        mt_iter g = make_geometry(shape, {d, s});
        CHECK(mt_cuda_launch_cast(0, &g, MT_FLOAT32, MT_FLOAT32) == 0, "broadcast copy launch");
        uint32_t bits;
        std::memcpy(&bits, &dst[17], 4);
        CHECK(bits == payload, "NaN payload %08x", bits);
        CHECK(dst[60 + 59] == -1.5f, "broadcast value %g", dst[119]);
    }
    // more than kSmallDims dims (the 64-dim geometry)
    {
        std::vector<int64_t> shape = {2, 1, 3, 1, 2, 3};
        std::vector<int64_t> sstr = {1, 1, 2, 1, 6, 12}; // a permuted source
        std::vector<int64_t> dstr = {18, 18, 6, 6, 3, 1};
        std::vector<int64_t> src(36), dst(36, -1);
        for (int i = 0; i < 36; i++) {
            src[i] = i * 7 - 3;
        }
        Operand d = {(char *)dst.data(), dstr, MT_INT64};
        Operand s = {(char *)src.data(), sstr, MT_INT64};
        mt_iter g = make_geometry(shape, {d, s});
        CHECK(mt_cuda_launch_cast(0, &g, MT_FLOAT64, MT_INT64) == 0, "6-d cast launch");
        for (int i = 0; i < 36; i++) {
            double got = *(double *)((char *)dst.data() + offset_of(i, shape, {nullptr, dstr, MT_FLOAT64}));
            double want = (double)*(int64_t *)((char *)src.data() + offset_of(i, shape, s));
            CHECK(got == want, "6-d cast element %d: %g %g", i, got, want);
        }
    }
}

// ---- fill -----------------------------------------------------------------------------------------------

static void
check_fill()
{
    // every other column of a 4 x 6 int32 matrix
    std::vector<int32_t> m(24, 5);
    std::vector<int64_t> shape = {4, 3};
    Operand o = {(char *)m.data(), {6, 2}, MT_INT32};
    mt_iter g = make_geometry(shape, {o});
    mt_value v;
    std::memset(&v, 0, sizeof(v));
    v.i32 = -42;
    CHECK(mt_cuda_launch_fill(0, &g, 4, v) == 0, "fill launch");
    for (int i = 0; i < 24; i++) {
        CHECK(m[i] == ((i % 2) == 0 ? -42 : 5), "fill element %d = %d", i, m[i]);
    }
    // an empty fill launches nothing
    int before = emu_launches;
    g.numel = 0;
    CHECK(mt_cuda_launch_fill(0, &g, 4, v) == 0 && emu_launches == before, "empty fill");
}

// ---- binary and unary -------------------------------------------------------------------------------

static double
ref_binary(int op, int dtype, double x, double y, double alpha)
{
    // computed in the compute dtype with torch's rules; integers wrap
    auto wrap = [&](double v) { return cast_value(v, dtype); };
    if (op >= MT_BINARY_EQ) {
        switch (op) {
        case MT_BINARY_EQ: return x == y;
        case MT_BINARY_NE: return x != y;
        case MT_BINARY_LT: return x < y;
        case MT_BINARY_LE: return x <= y;
        case MT_BINARY_GT: return x > y;
        default: return x >= y;
        }
    }
    if (dtype == MT_BOOL) {
        switch (op) {
        case MT_BINARY_ADD: return (x != 0) || (alpha != 0 && y != 0);
        case MT_BINARY_MUL:
        case MT_BINARY_MINIMUM: return (x != 0) && (y != 0);
        default: return (x != 0) || (y != 0);
        }
    }
    if (dtype == MT_FLOAT32) {
        float fx = (float)x, fy = (float)y, fa = (float)alpha;
        switch (op) {
        case MT_BINARY_ADD: return fa == 1.0f ? fx + fy : std::fmaf(fy, fa, fx);
        case MT_BINARY_SUB: return fx - fy;
        case MT_BINARY_MUL: return fx * fy;
        case MT_BINARY_DIV: return fx / fy;
        case MT_BINARY_MAXIMUM: return (std::isnan(fx) || fx > fy) ? fx : fy;
        default: return (std::isnan(fx) || fx < fy) ? fx : fy;
        }
    }
    if (dtype == MT_FLOAT64) {
        switch (op) {
        case MT_BINARY_ADD: return alpha == 1.0 ? x + y : std::fma(y, alpha, x);
        case MT_BINARY_SUB: return x - y;
        case MT_BINARY_MUL: return x * y;
        case MT_BINARY_DIV: return x / y;
        case MT_BINARY_MAXIMUM: return (std::isnan(x) || x > y) ? x : y;
        default: return (std::isnan(x) || x < y) ? x : y;
        }
    }
    // integers (small values here, so the arithmetic is exact in double before wrapping)
    switch (op) {
    case MT_BINARY_ADD: return wrap(x + alpha * y);
    case MT_BINARY_SUB: return wrap(x - y);
    case MT_BINARY_MUL: return wrap(x * y);
    case MT_BINARY_MAXIMUM: return x > y ? x : y;
    default: return x < y ? x : y;
    }
}

static void
check_binary()
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> small(-9, 9);
    // out (3, 4, 5) = a (3, 1, 5) op b (4, 5), a read through a transposed layout
    std::vector<int64_t> shape = {3, 4, 5};
    for (int dtype = 0; dtype < MT_NUM_DTYPES; dtype++) {
        if (mt_dtype_is_reduced_floating((mt_dtype)dtype)) {
            continue; // no kernel computes in them: check_reduced below
        }
        // the ops with a reference here (the math ops of op_math.h: tests/test_math_ops.py in this build)
        for (int op : {MT_BINARY_ADD, MT_BINARY_SUB, MT_BINARY_MUL, MT_BINARY_DIV, MT_BINARY_MAXIMUM, MT_BINARY_MINIMUM,
                       MT_BINARY_EQ, MT_BINARY_NE, MT_BINARY_LT, MT_BINARY_LE, MT_BINARY_GT, MT_BINARY_GE}) {
            bool floating = dtype >= MT_FLOAT32;
            if ((op == MT_BINARY_SUB && dtype == MT_BOOL) || (op == MT_BINARY_DIV && !floating)) {
                continue;
            }
            for (int variant = 0; variant < 4; variant++) {
                // variant 0: plain; 1: b is a host value; 2: add/sub with alpha (a in int32 converted);
                // 3: the output stored as float64 and a read as int32 (conversions on load and store)
                int out_dtype = op >= MT_BINARY_EQ ? MT_BOOL : dtype;
                int a_dtype = dtype, b_dtype = dtype;
                if (variant == 3 && dtype != MT_BOOL) {
                    out_dtype = MT_FLOAT64;
                    a_dtype = MT_INT32;
                }
                std::vector<char> a(15 * 8), b(20 * 8), out(60 * 8);
                for (int i = 0; i < 15; i++) {
                    double v = small(rng);
                    if (floating && i == 3) {
                        v = NAN;
                    }
                    if (floating && i == 4) {
                        v = 0.0;
                    }
                    put(&a[i * kSizes[a_dtype]], a_dtype, a_dtype == MT_BOOL ? (v > 0) : (a_dtype == MT_INT32 ? std::trunc(std::isnan(v) ? 0 : v) : v));
                }
                for (int i = 0; i < 20; i++) {
                    double v = small(rng) + (floating ? 0.25 : 0);
                    put(&b[i * kSizes[b_dtype]], b_dtype, b_dtype == MT_BOOL ? (v > 0) : v);
                }
                Operand o = {out.data(), {20, 5, 1}, out_dtype};
                Operand oa = {a.data(), {1, 0, 3}, a_dtype}; // a[i][0][j] at i + 3j
                Operand ob = {b.data(), {0, 5, 1}, b_dtype};
                mt_iter g = make_geometry(shape, {o, oa, ob});
                mt_cuda_binary_params p;
                std::memset(&p, 0, sizeof(p));
                p.op = (mt_binary_op)op;
                p.dtype = (mt_dtype)dtype;
                p.out_dtype = (mt_dtype)out_dtype;
                p.in_dtype[0] = (mt_dtype)a_dtype;
                p.in_dtype[1] = (mt_dtype)b_dtype;
                double alpha = 1.0;
                if (variant == 2 && (op == MT_BINARY_ADD)) {
                    alpha = dtype == MT_BOOL ? 1 : (floating ? 0.5 : 3);
                }
                p.alpha_f = alpha;
                p.alpha_i = (int64_t)alpha;
                double host_b = 0;
                if (variant == 1) {
                    host_b = dtype == MT_BOOL ? 1 : (floating ? -2.5 : -3);
                    p.in_is_value[1] = 1;
                    put((char *)p.in_value[1].bytes, b_dtype, host_b);
                    g.data[2] = nullptr;
                }
                int err = mt_cuda_launch_binary(0, &g, &p);
                CHECK(err == 0, "binary launch %d", err);
                for (int i = 0; i < 60; i++) {
                    double x = cast_value(get(a.data() + offset_of(i, shape, oa), a_dtype), dtype);
                    double y = variant == 1 ? cast_value(host_b, b_dtype) : get(b.data() + offset_of(i, shape, ob), b_dtype);
                    double want = cast_value(ref_binary(op, dtype, x, y, alpha), op >= MT_BINARY_EQ ? MT_BOOL : dtype);
                    want = cast_value(want, out_dtype);
                    double got = get(out.data() + offset_of(i, shape, o), out_dtype);
                    CHECK(same(got, want), "binary op %d dtype %d variant %d element %d: %g op %g got %g want %g", op,
                          dtype, variant, i, x, y, got, want);
                }
            }
        }
    }
    // integer wrap-around: int32 max + 1
    {
        int32_t a = 2147483647, b = 1, out = 0;
        std::vector<int64_t> shape1 = {1};
        mt_iter g = make_geometry(shape1, {{(char *)&out, {1}, 1}, {(char *)&a, {1}, 1}, {(char *)&b, {1}, 1}});
        mt_cuda_binary_params p;
        std::memset(&p, 0, sizeof(p));
        p.op = MT_BINARY_ADD;
        p.dtype = p.out_dtype = p.in_dtype[0] = p.in_dtype[1] = MT_INT32;
        p.alpha_i = 1;
        mt_cuda_launch_binary(0, &g, &p);
        CHECK(out == INT32_MIN, "int32 wrap %d", out);
    }
}

// float16 and bfloat16: loaded and stored as 16-bit patterns around float32 arithmetic (the op layer's
// compute dtype for them), each result rounded once, as the host's kernels give it
static void
check_reduced()
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> dist(-9.0, 9.0);
    std::vector<int64_t> shape = {3, 4, 5};
    for (int dtype : {MT_FLOAT16, MT_BFLOAT16}) {
        for (int op : {MT_BINARY_ADD, MT_BINARY_SUB, MT_BINARY_MUL, MT_BINARY_DIV, MT_BINARY_MAXIMUM, MT_BINARY_LT}) {
            std::vector<char> a(3 * 5 * 2), b(4 * 5 * 2), out(60 * 2);
            for (int i = 0; i < 15; i++) {
                put(&a[i * 2], dtype, dist(rng));
            }
            for (int i = 0; i < 20; i++) {
                put(&b[i * 2], dtype, dist(rng));
            }
            int out_dtype = op >= MT_BINARY_EQ ? MT_BOOL : dtype;
            Operand o = {out.data(), {20, 5, 1}, out_dtype};
            Operand oa = {a.data(), {1, 0, 3}, dtype};
            Operand ob = {b.data(), {0, 5, 1}, dtype};
            mt_iter g = make_geometry(shape, {o, oa, ob});
            mt_cuda_binary_params p;
            std::memset(&p, 0, sizeof(p));
            p.op = (mt_binary_op)op;
            p.dtype = MT_FLOAT32;
            p.out_dtype = (mt_dtype)out_dtype;
            p.in_dtype[0] = p.in_dtype[1] = (mt_dtype)dtype;
            p.alpha_f = 1.0;
            CHECK(mt_cuda_launch_binary(0, &g, &p) == 0, "reduced binary launch");
            for (int i = 0; i < 60; i++) {
                double x = get(a.data() + offset_of(i, shape, oa), dtype);
                double y = get(b.data() + offset_of(i, shape, ob), dtype);
                double want = cast_value(ref_binary(op, MT_FLOAT32, x, y, 1.0), out_dtype);
                double got = get(out.data() + offset_of(i, shape, o), out_dtype);
                CHECK(same(got, want), "reduced binary op %d dtype %d element %d: got %g want %g", op, dtype, i,
                      got, want);
            }
        }
        // unary: neg and sqrt, a transposed read
        for (int op : {MT_UNARY_NEG, MT_UNARY_SQRT}) {
            std::vector<int64_t> shape2 = {4, 6};
            std::vector<char> in(24 * 2), out(24 * 2);
            for (int i = 0; i < 24; i++) {
                put(&in[i * 2], dtype, std::fabs(dist(rng)));
            }
            Operand o = {out.data(), {6, 1}, dtype};
            Operand s = {in.data(), {1, 4}, dtype};
            mt_iter g = make_geometry(shape2, {o, s});
            mt_cuda_unary_params p = {(mt_unary_op)op, MT_FLOAT32, (mt_dtype)dtype, (mt_dtype)dtype};
            CHECK(mt_cuda_launch_unary(0, &g, &p) == 0, "reduced unary launch");
            for (int i = 0; i < 24; i++) {
                float x = (float)get(in.data() + offset_of(i, shape2, s), dtype);
                double want = cast_value(op == MT_UNARY_NEG ? -x : std::sqrt(x), dtype);
                double got = get(out.data() + offset_of(i, shape2, o), dtype);
                CHECK(same(got, want), "reduced unary op %d dtype %d element %d: got %g want %g", op, dtype, i, got,
                      want);
            }
        }
    }
    // the conversions themselves: round to nearest even, overflow, subnormals, NaN
    CHECK(mt_float_to_half(65519.0f) == 0x7bff && mt_float_to_half(65520.0f) == 0x7c00, "half overflow");
    CHECK(mt_float_to_half(1.0f + 1.0f / 2048.0f) == 0x3c00, "half tie to even");
    CHECK(mt_float_to_half(5.960464477539063e-08f) == 0x0001, "half smallest subnormal");
    CHECK((mt_float_to_half(NAN) & 0x7fff) == 0x7e00 && mt_float_to_bfloat16(NAN) == 0x7fc0, "NaN stays quiet");
    CHECK(mt_float_to_bfloat16(1.00390625f) == 0x3f80 && mt_float_to_bfloat16(1.01171875f) == 0x3f82,
          "bfloat16 ties to even");
    CHECK(mt_half_to_float(0x0001) == 5.960464477539063e-08f && mt_half_to_float(0xfc00) == -INFINITY,
          "half to float");
}

static void
check_unary()
{
    std::vector<int64_t> shape = {4, 6};
    for (int dtype = MT_UINT8; dtype < MT_NUM_DTYPES; dtype++) {
        if (mt_dtype_is_reduced_floating((mt_dtype)dtype)) {
            continue; // no kernel computes in them: check_reduced below
        }
        bool floating = dtype >= MT_FLOAT32;
        for (int op : {MT_UNARY_NEG, MT_UNARY_ABS, MT_UNARY_RELU, MT_UNARY_EXP, MT_UNARY_LOG, MT_UNARY_SQRT,
                       MT_UNARY_RECIPROCAL}) {
            if (!floating && MT_UNARY_IS_FLOAT_ONLY(op)) {
                continue;
            }
            std::vector<char> in(24 * 8), out(24 * 8);
            for (int i = 0; i < 24; i++) {
                double v = (i - 11) * (floating ? 0.75 : 1.0);
                if (floating && i == 5) {
                    v = -0.0;
                }
                put(&in[i * kSizes[dtype]], dtype, v);
            }
            Operand o = {out.data(), {6, 1}, dtype};
            Operand s = {in.data(), {1, 4}, dtype}; // transposed read
            mt_iter g = make_geometry(shape, {o, s});
            mt_cuda_unary_params p = {(mt_unary_op)op, (mt_dtype)dtype, (mt_dtype)dtype, (mt_dtype)dtype};
            CHECK(mt_cuda_launch_unary(0, &g, &p) == 0, "unary launch");
            for (int i = 0; i < 24; i++) {
                double x = get(in.data() + offset_of(i, shape, s), dtype);
                double want;
                if (dtype == MT_FLOAT32) {
                    float f = (float)x;
                    switch (op) {
                    case MT_UNARY_NEG: want = -f; break;
                    case MT_UNARY_ABS: want = std::fabs(f); break;
                    case MT_UNARY_RELU: want = f < 0 ? 0.0f : f; break;
                    case MT_UNARY_EXP: want = std::exp(f); break;
                    case MT_UNARY_LOG: want = std::log(f); break;
                    case MT_UNARY_SQRT: want = std::sqrt(f); break;
                    default: want = 1.0f / f; break;
                    }
                }
                else {
                    switch (op) {
                    case MT_UNARY_NEG: want = -x; break;
                    case MT_UNARY_ABS: want = std::fabs(x); break;
                    case MT_UNARY_RELU: want = x < 0 ? 0.0 : x; break;
                    case MT_UNARY_EXP: want = std::exp(x); break;
                    case MT_UNARY_LOG: want = std::log(x); break;
                    case MT_UNARY_SQRT: want = std::sqrt(x); break;
                    default: want = 1.0 / x; break;
                    }
                    if (!floating && want == 0) {
                        want = 0; // integers have no -0
                    }
                }
                want = cast_value(want, dtype);
                double got = get(out.data() + offset_of(i, shape, o), dtype);
                CHECK(same(got, want), "unary op %d dtype %d element %d: f(%g) got %g want %g", op, dtype, i, x, got,
                      want);
            }
        }
    }
}

// ---- reductions -------------------------------------------------------------------------------------------

struct ReduceCase {
    std::vector<int64_t> sizes;   // input sizes (outermost first)
    std::vector<int64_t> strides; // elements
    uint64_t mask;                // reduced dims
};

// the launcher's parameters, built the way the cuda backend (backend.c) builds them (no dim merging here, on purpose)
static mt_cuda_reduce_params
reduce_params(const ReduceCase &c, int op, int in_dtype, int out_dtype, const char *data, char *values,
              int64_t *indices)
{
    mt_cuda_reduce_params p;
    std::memset(&p, 0, sizeof(p));
    p.op = (mt_reduce_op)op;
    p.in_dtype = (mt_dtype)in_dtype;
    p.out_dtype = (mt_dtype)out_dtype;
    p.data = data;
    p.values = values;
    p.indices = indices;
    for (size_t d = 0; d < c.sizes.size(); d++) {
        if (c.mask & (1ull << d)) {
            p.red_shape[p.red_ndim] = c.sizes[d];
            p.red_strides[p.red_ndim++] = c.strides[d];
        }
        else {
            p.out_shape[p.out_ndim] = c.sizes[d];
            p.out_strides[p.out_ndim++] = c.strides[d];
        }
    }
    return p;
}

static int
run_reduce(const mt_cuda_reduce_params &p)
{
    size_t bytes = mt_cuda_reduce_scratch_bytes(0, &p);
    std::vector<char> scratch(bytes + 16);
    return mt_cuda_launch_reduce(0, &p, bytes ? scratch.data() : nullptr);
}

// the (output, reduced) element offsets of a case, both row-major
static void
split_offsets(const ReduceCase &c, std::vector<int64_t> &outs, std::vector<int64_t> &reds)
{
    std::vector<int64_t> os, ost, rs, rst;
    for (size_t d = 0; d < c.sizes.size(); d++) {
        ((c.mask & (1ull << d)) ? rs : os).push_back(c.sizes[d]);
        ((c.mask & (1ull << d)) ? rst : ost).push_back(c.strides[d]);
    }
    auto enumerate = [](const std::vector<int64_t> &shape, const std::vector<int64_t> &strides,
                        std::vector<int64_t> &res) {
        int64_t n = 1;
        for (auto s : shape) {
            n *= s;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t off = 0, r = i;
            for (int d = (int)shape.size() - 1; d >= 0; d--) {
                off += (r % shape[d]) * strides[d];
                r /= shape[d];
            }
            res.push_back(off);
        }
    };
    enumerate(os, ost, outs);
    enumerate(rs, rst, reds);
}

static void
check_reduce_case(const ReduceCase &c, const std::vector<double> &input, int in_dtype, const char *label)
{
    int64_t extent = 1;
    for (size_t d = 0; d < c.sizes.size(); d++) {
        extent += (c.sizes[d] - 1) * c.strides[d];
    }
    std::vector<char> data((size_t)extent * 8 + 8);
    for (int64_t i = 0; i < extent; i++) {
        put(&data[i * kSizes[in_dtype]], in_dtype, input[i % input.size()]);
    }
    std::vector<int64_t> outs, reds;
    split_offsets(c, outs, reds);
    size_t no = outs.size();
    bool floating = in_dtype >= MT_FLOAT32;

    // SUM (and mean), in the accumulation dtype
    {
        int out_dtype = floating ? in_dtype : MT_INT64;
        std::vector<char> out(no * 8);
        mt_cuda_reduce_params p = reduce_params(c, MT_REDUCE_SUM, in_dtype, out_dtype, data.data(), out.data(), nullptr);
        double factor = floating && no > 0 ? (double)no / (double)(no * reds.size()) : 0.0;
        p.mean_factor = factor;
        CHECK(run_reduce(p) == 0, "%s sum launch", label);
        for (size_t o = 0; o < no; o++) {
            double want = 0, mag = 0;
            for (auto r : reds) {
                double v = get(&data[(outs[o] + r) * kSizes[in_dtype]], in_dtype);
                want += v;
                mag += std::fabs(v);
            }
            if (factor != 0) {
                want *= factor;
                mag *= factor;
            }
            double got = get(&out[o * kSizes[out_dtype]], out_dtype);
            double tol = floating ? (in_dtype == MT_FLOAT32 ? 2e-6 : 1e-14) * (mag + 1) * std::log2(reds.size() + 2.0) : 0;
            CHECK(std::fabs(got - want) <= tol || same(got, want), "%s sum[%zu] got %.9g want %.9g", label, o, got, want);
        }
    }
    // MAX / MIN values and ARGMAX / ARGMIN (values and indices): exact
    if (!reds.empty()) {
        for (int op : {MT_REDUCE_MAX, MT_REDUCE_MIN, MT_REDUCE_ARGMAX, MT_REDUCE_ARGMIN}) {
            std::vector<char> values(no * 8);
            std::vector<int64_t> indices(no, -7);
            bool arg = op == MT_REDUCE_ARGMAX || op == MT_REDUCE_ARGMIN;
            mt_cuda_reduce_params p =
                reduce_params(c, op, in_dtype, in_dtype, data.data(), values.data(), arg ? indices.data() : nullptr);
            CHECK(run_reduce(p) == 0, "%s max/min launch", label);
            bool is_max = op == MT_REDUCE_MAX || op == MT_REDUCE_ARGMAX;
            for (size_t o = 0; o < no; o++) {
                // the first NaN wins; else the first extreme value
                int64_t best = -1;
                double bv = 0;
                for (size_t r = 0; r < reds.size(); r++) {
                    double v = get(&data[(outs[o] + reds[r]) * kSizes[in_dtype]], in_dtype);
                    if (best < 0) {
                        best = (int64_t)r;
                        bv = v;
                        continue;
                    }
                    if (std::isnan(bv)) {
                        break;
                    }
                    if (std::isnan(v) || (is_max ? v > bv : v < bv)) {
                        best = (int64_t)r;
                        bv = v;
                    }
                }
                double got = get(&values[o * kSizes[in_dtype]], in_dtype);
                CHECK(same(got, bv), "%s op %d value[%zu] got %g want %g", label, op, o, got, bv);
                if (arg) {
                    CHECK(indices[o] == best, "%s op %d index[%zu] got %lld want %lld", label, op, o,
                          (long long)indices[o], (long long)best);
                }
            }
        }
    }
    // ALL / ANY
    for (int op : {MT_REDUCE_ALL, MT_REDUCE_ANY}) {
        std::vector<uint8_t> out(no, 7);
        mt_cuda_reduce_params p = reduce_params(c, op, in_dtype, MT_BOOL, data.data(), (char *)out.data(), nullptr);
        CHECK(run_reduce(p) == 0, "%s all/any launch", label);
        for (size_t o = 0; o < no; o++) {
            bool want = op == MT_REDUCE_ALL;
            for (auto r : reds) {
                bool v = get(&data[(outs[o] + r) * kSizes[in_dtype]], in_dtype) != 0;
                want = op == MT_REDUCE_ALL ? (want && v) : (want || v);
            }
            CHECK(out[o] == (want ? 1 : 0), "%s op %d [%zu] got %d want %d", label, op, o, out[o], want);
        }
    }
}

static void
check_reductions()
{
    std::mt19937 rng(11);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> ties(-3, 3);
    std::vector<double> values(4099), tied(997), with_nan(211), bools(53);
    for (auto &v : values) {
        v = normal(rng);
    }
    for (auto &v : tied) {
        v = ties(rng);
    }
    for (size_t i = 0; i < with_nan.size(); i++) {
        with_nan[i] = (i % 37 == 5 || i % 41 == 9) ? NAN : ties(rng) * 0.5;
    }
    for (size_t i = 0; i < bools.size(); i++) {
        bools[i] = (i % 13 == 0) ? 0 : 1;
    }
    std::vector<ReduceCase> cases = {
        {{7, 13}, {13, 1}, 1},           // over dim 0 (one thread per output)
        {{7, 13}, {13, 1}, 2},           // over dim 1 (a group per output)
        {{7, 13}, {13, 1}, 3},           // everything
        {{7, 13}, {1, 7}, 2},            // a transposed input
        {{5, 3, 11}, {33, 11, 1}, 5},    // dims 0 and 2
        {{1, 9, 1}, {9, 1, 9}, 2},       // size-1 dims around
        {{100003}, {1}, 1},              // long: split across blocks
        {{20011, 3}, {3, 1}, 1},         // long, one thread per output, split
        {{3, 20011}, {20011, 1}, 2},     // long rows
        {{4, 0, 3}, {3, 3, 1}, 2},       // empty reduction
        {{}, {}, 0},                     // a 0-d tensor
    };
    for (auto &c : cases) {
        char label[64];
        std::snprintf(label, sizeof(label), "case %zu", &c - cases.data());
        for (int dtype : {MT_FLOAT32, MT_FLOAT64}) {
            check_reduce_case(c, values, dtype, label);
            check_reduce_case(c, with_nan, dtype, label);
        }
        check_reduce_case(c, tied, MT_INT32, label);
        check_reduce_case(c, tied, MT_INT64, label);
        check_reduce_case(c, bools, MT_BOOL, label);
    }
    // integer sums wrap in int64
    {
        std::vector<int64_t> big = {INT64_MAX, 1, 5};
        int64_t out = 0;
        ReduceCase c = {{3}, {1}, 1};
        mt_cuda_reduce_params p = reduce_params(c, MT_REDUCE_SUM, MT_INT64, MT_INT64, (char *)big.data(),
                                                (char *)&out, nullptr);
        run_reduce(p);
        CHECK(out == INT64_MIN + 5, "int64 wrap %lld", (long long)out);
    }
    // an empty mean is NaN (sum 0 times a NaN factor)
    {
        float data = 1, out = 0;
        ReduceCase c = {{2, 0}, {1, 1}, 2};
        mt_cuda_reduce_params p = reduce_params(c, MT_REDUCE_SUM, MT_FLOAT32, MT_FLOAT32, (char *)&data,
                                                (char *)&out, nullptr);
        float outs[2] = {1, 1};
        p.values = (char *)outs;
        p.mean_factor = NAN;
        run_reduce(p);
        CHECK(std::isnan(outs[0]) && std::isnan(outs[1]), "empty mean %g %g", outs[0], outs[1]);
    }
}

// ---- Philox: the kernels against the host loops of csrc/kernels/cpu/philox.c --------------------------

static void
check_philox()
{
    const uint64_t seeds[] = {0, 42, 0x123456789abcdefull};
    const int64_t sizes[] = {1, 3, 4, 5, 17, 1001};
    for (uint64_t seed : seeds) {
        for (int64_t n : sizes) {
            uint64_t offset = 5 + (uint64_t)n;
            std::vector<float> fa(n), fb(n);
            std::vector<double> da(n), db(n);
            mt_philox_uniform_fill_float(seed, offset, fa.data(), n, -2.0, 3.0);
            mt_cuda_launch_philox_uniform(0, MT_FLOAT32, fb.data(), n, seed, offset, -2.0, 3.0);
            CHECK(std::memcmp(fa.data(), fb.data(), n * 4) == 0, "uniform f32 seed %llu n %lld", (unsigned long long)seed,
                  (long long)n);
            mt_philox_uniform_fill_double(seed, offset, da.data(), n, 0.0, 1.0);
            mt_cuda_launch_philox_uniform(0, MT_FLOAT64, db.data(), n, seed, offset, 0.0, 1.0);
            CHECK(std::memcmp(da.data(), db.data(), n * 8) == 0, "uniform f64 n %lld", (long long)n);
            mt_philox_normal_fill_float(seed, offset, fa.data(), n, 1.5, 0.25);
            mt_cuda_launch_philox_normal(0, MT_FLOAT32, fb.data(), n, seed, offset, 1.5, 0.25);
            CHECK(std::memcmp(fa.data(), fb.data(), n * 4) == 0, "normal f32 n %lld", (long long)n);
            mt_philox_normal_fill_double(seed, offset, da.data(), n, 0.0, 1.0);
            mt_cuda_launch_philox_normal(0, MT_FLOAT64, db.data(), n, seed, offset, 0.0, 1.0);
            CHECK(std::memcmp(da.data(), db.data(), n * 8) == 0, "normal f64 n %lld", (long long)n);
            for (int64_t high : {int64_t(7), int64_t(1) << 40}) {
                std::vector<int64_t> ia(n), ib(n);
                std::vector<int32_t> i32(n);
                std::vector<float> f32(n);
                mt_philox_randint_int64(seed, offset, ia.data(), n, -3, high);
                mt_cuda_launch_philox_randint(0, MT_INT64, ib.data(), n, seed, offset, -3, high);
                CHECK(ia == ib, "randint int64 high %lld n %lld", (long long)high, (long long)n);
                mt_cuda_launch_philox_randint(0, MT_INT32, i32.data(), n, seed, offset, -3, high);
                mt_cuda_launch_philox_randint(0, MT_FLOAT32, f32.data(), n, seed, offset, -3, high);
                for (int64_t i = 0; i < n; i++) {
                    CHECK(i32[i] == (int32_t)ia[i] && f32[i] == (float)ia[i], "randint conversions %lld", (long long)i);
                }
            }
        }
    }
}

// ---- advanced indexing: the index kernel against the host loop (csrc/kernels/cpu/index.c) ----------------

// self: [4, 6, 5] elements of `itemsize` bytes, dim 1 indexed by `idx` (broadcast positions b); the rest
// dims are 0 (before, size 4) and 2 (after, size 5); other is [4, nb, 5], contiguous or a broadcast value
static void
index_case(int itemsize, const std::vector<int64_t> &idx, int scatter, int by_value, const char *label)
{
    mt_dtype dtype = itemsize == 1 ? MT_BOOL : itemsize == 4 ? MT_INT32 : MT_INT64;
    int64_t nb = (int64_t)idx.size();
    std::vector<unsigned char> self(4 * 6 * 5 * itemsize), other(4 * nb * 5 * itemsize);
    std::mt19937 rng((unsigned)(itemsize * 7 + nb + scatter * 3 + by_value));
    for (auto &x : self) {
        x = (unsigned char)(itemsize == 1 ? rng() % 2 : rng());
    }
    for (auto &x : other) {
        x = (unsigned char)(itemsize == 1 ? rng() % 2 : rng());
    }
    std::vector<int64_t> offsets(2 * nb);
    for (int64_t b = 0; b < nb; b++) {
        offsets[b] = idx[b] * 5;                // self stride of dim 1
        offsets[nb + b] = by_value ? 0 : b * 5; // other stride of the index dim
    }
    mt_index_args a;
    std::memset(&a, 0, sizeof(a));
    a.dtype = dtype;
    a.other_is_value = by_value;
    a.nb = nb;
    a.self_offsets = offsets.data();
    a.other_offsets = offsets.data() + nb;
    a.ndim = 2;
    a.nbefore = 1;
    a.shape[0] = 4;
    a.shape[1] = 5;
    a.self_strides[0] = 30;
    a.self_strides[1] = 1;
    a.other_strides[0] = by_value ? 0 : nb * 5;
    a.other_strides[1] = by_value ? 0 : 1;
    std::vector<unsigned char> want_self = self, want_other = other, got_self = self, got_other = other;
    a.self = (char *)want_self.data();
    a.other = (char *)want_other.data();
    CHECK(mt_cpu_index(&a, scatter) == 0, "%s: host loop", label);
    mt_cuda_index_params p;
    std::memset(&p, 0, sizeof(p));
    p.self = (char *)got_self.data();
    p.other = by_value ? nullptr : (char *)got_other.data();
    p.itemsize = itemsize;
    p.scatter = scatter;
    p.other_is_value = by_value;
    if (by_value) {
        std::memcpy(p.value.bytes, got_other.data(), (size_t)itemsize);
    }
    p.nb = nb;
    p.offsets = offsets.data();
    p.ndim = a.ndim;
    p.nbefore = a.nbefore;
    for (int d = 0; d < a.ndim; d++) {
        p.shape[d] = a.shape[d];
        p.self_strides[d] = a.self_strides[d];
        p.other_strides[d] = a.other_strides[d];
    }
    CHECK(mt_cuda_launch_index(0, &p) == 0, "%s: launch", label);
    CHECK(got_self == want_self, "%s: self differs from the host loop's", label);
    CHECK(got_other == want_other, "%s: other differs from the host loop's", label);
}

static void
check_index()
{
    for (int itemsize : {1, 4, 8}) {
        index_case(itemsize, {3, 0, 5, 1}, 0, 0, "gather");
        index_case(itemsize, {2, 2, 2}, 0, 0, "gather of a repeated index");
        index_case(itemsize, {4, 1, 0}, 1, 0, "scatter");
        index_case(itemsize, {5, 3}, 1, 1, "scatter of a value");
    }
    index_case(4, {}, 0, 0, "no positions");
}

// ---- cuBLAS translation (csrc/kernels/cuda/cublas.c) on the host cuBLAS --------------------------------

static int stub_major[8] = {8, 9, 7, 12, 8, 8, 8, 8};
static long long device_bytes = 0;

// the call context's scratch memory, as the op layer's comes from the caching allocator
static int
stub_scratch_alloc(int device, size_t nbytes, void **ptr, mt_kstatus *st)
{
    (void)device;
    (void)st;
    device_bytes += (long long)nbytes;
    *ptr = std::malloc(nbytes + 8);
    std::memset(*ptr, 0xcd, nbytes + 8); // garbage, as fresh device memory is
    return 0;
}

static void
stub_scratch_free(int device, void *ptr)
{
    (void)device;
    std::free(ptr);
}

static mt_kctx
make_ctx(int device)
{
    mt_kctx ctx;
    std::memset(&ctx, 0, sizeof(ctx));
    ctx.device = device;
    ctx.scratch_alloc = stub_scratch_alloc;
    ctx.scratch_free = stub_scratch_free;
    return ctx;
}

// a failed call's status as the op layer words it (without the hint lines of a CUDA error)
static std::string
status_text(const mt_kctx &ctx)
{
    std::string message = ctx.status.message;
    return ctx.status.kind == MT_KSTATUS_CUDA_ERROR ? "CUDA error: " + message : message;
}

static mt_kctx last_ctx; // the context of the last gemm_case

extern "C" {

int
mt_cuda_set_current_device(int device)
{
    return device >= 0 && device < 8 ? 0 : 101;
}

static int current_props_device = 0;

static int
stub_get_properties(int device, mt_device_properties *props)
{
    std::memset(props, 0, sizeof(*props));
    props->major = stub_major[device];
    current_props_device = device;
    return 0;
}

static const char *
stub_error_string(int err)
{
    return err == 101 ? "invalid device ordinal" : "unknown error";
}

static mt_runtime stub_runtime;

const mt_runtime *
mt_cuda_runtime(void)
{
    stub_runtime.name = "stub";
    stub_runtime.get_properties = stub_get_properties;
    stub_runtime.error_string = stub_error_string;
    return &stub_runtime;
}
}

struct Mat {
    std::vector<double> storage;
    int64_t offset;
};

// A[batch..][i][j] = storage[offset + sum(batch_idx * bs) + i * rs + j * cs]; C of c_dtype (-1: dtype).
// The values (halves and quarters, sums of at most 33 products) make every float sum exact, so the
// reference is the exact product rounded once to C's dtype, whatever order cuBLAS adds in.
static void
gemm_case(int device, int dtype, int64_t m, int64_t n, int64_t k, int64_t a_rs, int64_t a_cs, int64_t b_rs,
          int64_t b_cs, int64_t c_rs, int64_t c_cs, std::vector<int64_t> batch, std::vector<int64_t> a_bs,
          std::vector<int64_t> b_bs, std::vector<int64_t> c_bs, const char *label, int c_dtype = -1,
          int torch_gemm = 1)
{
    int size = (int)mt_dtype_size((mt_dtype)dtype);
    int c_size;

    if (c_dtype < 0) {
        c_dtype = dtype;
    }
    c_size = (int)mt_dtype_size((mt_dtype)c_dtype);
    auto extent = [&](int64_t rows, int64_t cols, int64_t rs, int64_t cs, const std::vector<int64_t> &bs) {
        int64_t e = 1 + (rows - 1) * rs + (cols - 1) * cs;
        for (size_t d = 0; d < batch.size(); d++) {
            e += (batch[d] - 1) * bs[d];
        }
        return e;
    };
    int64_t ea = extent(m, k, a_rs, a_cs, a_bs), eb = extent(k, n, b_rs, b_cs, b_bs), ec = extent(m, n, c_rs, c_cs, c_bs);
    std::vector<char> A(ea * size), B(eb * size), C(ec * c_size, 0);
    std::mt19937 rng((unsigned)(m * 131 + n * 17 + k));
    std::uniform_int_distribution<int> vals(-4, 4);
    for (int64_t i = 0; i < ea; i++) {
        put(&A[i * size], dtype, vals(rng) * 0.5);
    }
    for (int64_t i = 0; i < eb; i++) {
        put(&B[i * size], dtype, vals(rng) * 0.25);
    }
    mt_gemm_desc d;
    std::memset(&d, 0, sizeof(d));
    d.dtype = (mt_dtype)dtype;
    d.c_dtype = (mt_dtype)c_dtype;
    d.torch_gemm = torch_gemm;
    d.m = m;
    d.n = n;
    d.k = k;
    d.a = A.data();
    d.a_rs = a_rs;
    d.a_cs = a_cs;
    d.b = B.data();
    d.b_rs = b_rs;
    d.b_cs = b_cs;
    d.c = C.data();
    d.c_rs = c_rs;
    d.c_cs = c_cs;
    d.nbatch = (int)batch.size();
    for (size_t i = 0; i < batch.size(); i++) {
        d.batch_sizes[i] = batch[i];
        d.a_bs[i] = a_bs[i];
        d.b_bs[i] = b_bs[i];
        d.c_bs[i] = c_bs[i];
    }
    last_ctx = make_ctx(device);
    if (mt_cuda_gemm(&last_ctx, &d) != 0) {
        CHECK(false, "%s: mt_cuda_gemm failed: %s", label, status_text(last_ctx).c_str());
        return;
    }
    int64_t nb = 1;
    for (auto b : batch) {
        nb *= b;
    }
    for (int64_t t = 0; t < nb; t++) {
        int64_t oa = 0, ob = 0, oc = 0, r = t;
        for (int dd = (int)batch.size() - 1; dd >= 0; dd--) {
            int64_t idx = r % batch[dd];
            r /= batch[dd];
            oa += idx * a_bs[dd];
            ob += idx * b_bs[dd];
            oc += idx * c_bs[dd];
        }
        for (int64_t i = 0; i < m; i++) {
            for (int64_t j = 0; j < n; j++) {
                double want = 0;
                for (int64_t p = 0; p < k; p++) {
                    want += get(&A[(oa + i * a_rs + p * a_cs) * size], dtype) * get(&B[(ob + p * b_rs + j * b_cs) * size], dtype);
                }
                char rounded[8];
                put(rounded, c_dtype, want);
                want = get(rounded, c_dtype);
                double got = get(&C[(oc + i * c_rs + j * c_cs) * c_size], c_dtype);
                CHECK(got == want, "%s batch %lld C[%lld][%lld] got %g want %g", label, (long long)t, (long long)i,
                      (long long)j, got, want);
            }
        }
    }
}

// A 2x2 @ 2x2 product of `dtype` over the caller's host arrays, for the error paths
static mt_gemm_desc
tiny_desc(mt_dtype dtype, void *a, void *b, void *c)
{
    mt_gemm_desc d;
    std::memset(&d, 0, sizeof(d));
    d.dtype = d.c_dtype = dtype;
    d.torch_gemm = 1;
    d.m = d.n = d.k = 2;
    d.a = a;
    d.b = b;
    d.c = c;
    d.a_rs = d.b_rs = d.c_rs = 2;
    d.a_cs = d.b_cs = d.c_cs = 1;
    return d;
}

static void
check_cublas()
{
    void *lib = dlopen("libcublas.so." MT_EMU_CUDA_MAJOR, RTLD_NOW);
    CHECK(lib != nullptr, "the fake cuBLAS is not on LD_LIBRARY_PATH");
    if (lib == nullptr) {
        return;
    }
    auto last_ws = (size_t(*)(void))dlsym(lib, "fake_cublas_last_workspace_size");
    auto last_math = (int (*)(void))dlsym(lib, "fake_cublas_last_math_mode");
    auto fail_next = (void (*)(int))dlsym(lib, "fake_cublas_fail_next");
    auto last_function = (const char *(*)(void))dlsym(lib, "fake_cublas_last_function");
    auto last_ab_type = (int (*)(void))dlsym(lib, "fake_cublas_last_ab_type");
    auto last_c_type = (int (*)(void))dlsym(lib, "fake_cublas_last_c_type");
    auto last_compute = (int (*)(void))dlsym(lib, "fake_cublas_last_compute_type");
    auto last_call_math = (int (*)(void))dlsym(lib, "fake_cublas_last_call_math_mode");

    for (int dtype : {MT_FLOAT32, MT_FLOAT64, MT_FLOAT16, MT_BFLOAT16}) {
        // plain row-major products, odd sizes
        gemm_case(0, dtype, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "row-major 3x7 @ 7x5");
        gemm_case(0, dtype, 1, 1, 1, 1, 1, 1, 1, 1, 1, {}, {}, {}, {}, "1x1x1");
        gemm_case(0, dtype, 17, 9, 33, 33, 1, 9, 1, 9, 1, {}, {}, {}, {}, "17x33 @ 33x9");
        // transposed operands (a.t(), b.t() views)
        gemm_case(0, dtype, 4, 6, 5, 1, 4, 6, 1, 6, 1, {}, {}, {}, {}, "a column-major");
        gemm_case(0, dtype, 4, 6, 5, 5, 1, 1, 5, 6, 1, {}, {}, {}, {}, "b column-major");
        gemm_case(0, dtype, 4, 6, 5, 1, 4, 1, 5, 6, 1, {}, {}, {}, {}, "both column-major");
        // a column-major output (a transposed result view)
        gemm_case(0, dtype, 4, 6, 5, 5, 1, 6, 1, 1, 4, {}, {}, {}, {}, "C column-major");
        // steps in both dims: packed first
        gemm_case(0, dtype, 3, 4, 5, 10, 2, 8, 2, 4, 1, {}, {}, {}, {}, "strided A and B");
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 8, 2, {}, {}, {}, {}, "strided C");
        // vectors: dot (m = n = 1 with zero strides) and mv
        gemm_case(0, dtype, 1, 1, 9, 0, 1, 1, 0, 0, 0, {}, {}, {}, {}, "dot");
        gemm_case(0, dtype, 5, 1, 9, 9, 1, 1, 0, 1, 0, {}, {}, {}, {}, "mv");
        gemm_case(0, dtype, 1, 5, 9, 0, 1, 5, 1, 0, 1, {}, {}, {}, {}, "vm");
        // a broadcast operand (expand): stride 0 in a matrix dim with size > 1
        gemm_case(0, dtype, 3, 4, 5, 0, 1, 4, 1, 4, 1, {}, {}, {}, {}, "expanded A rows");
        // batches: one dim, broadcast, two dims, transposed inside the batch
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 4, 1, {6}, {15}, {20}, {12}, "bmm");
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 4, 1, {6}, {0}, {20}, {12}, "broadcast A batch");
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 4, 1, {2, 3}, {45, 15}, {0, 20}, {36, 12}, "two batch dims");
        gemm_case(0, dtype, 3, 4, 5, 1, 3, 4, 1, 4, 1, {6}, {15}, {20}, {12}, "transposed A in a batch");
        gemm_case(0, dtype, 3, 4, 5, 10, 2, 4, 1, 4, 1, {2}, {40}, {20}, {12}, "packed A in a batch");
        gemm_case(0, dtype, 3, 4, 5, 10, 2, 4, 1, 4, 1, {2}, {0}, {20}, {12}, "packed broadcast A");
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 8, 2, {2}, {15}, {20}, {24}, "packed C in a batch");
    }
    // float16 and bfloat16 through cublasGemmEx: the 16-bit types, float32 accumulation, C of their
    // dtype or float32 (torch's gemm<Half, float>), the batched form for a batch
    for (int dtype : {MT_FLOAT16, MT_BFLOAT16}) {
        int type = dtype == MT_FLOAT16 ? 2 : 14;
        gemm_case(0, dtype, 17, 9, 33, 33, 1, 9, 1, 9, 1, {}, {}, {}, {}, "16-bit 17x33 @ 33x9");
        CHECK(std::string(last_function()) == "cublasGemmEx" && last_ab_type() == type && last_c_type() == type &&
                  last_compute() == 68,
              "16-bit call %s %d %d %d", last_function(), last_ab_type(), last_c_type(), last_compute());
        gemm_case(0, dtype, 17, 9, 33, 33, 1, 9, 1, 9, 1, {}, {}, {}, {}, "16-bit with a float32 C", MT_FLOAT32);
        CHECK(last_ab_type() == type && last_c_type() == 0, "float32 C: %d %d", last_ab_type(), last_c_type());
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 8, 2, {2}, {15}, {20}, {24}, "16-bit packed float32 C", MT_FLOAT32);
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 4, 1, {6}, {15}, {20}, {12}, "16-bit bmm", -1, 0);
        CHECK(std::string(last_function()) == "cublasGemmStridedBatchedEx" && last_ab_type() == type,
              "16-bit batched call %s %d", last_function(), last_ab_type());
    }
    // the reduction settings: torch's GEMM (not its batched one) disallows reduced-precision reductions
    // through the math mode and restores the default after; no split-k is torch's error
    for (int dtype : {MT_FLOAT16, MT_BFLOAT16}) {
        gemm_case(0, dtype, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "16-bit default settings");
        CHECK(last_call_math() == 0 && last_math() == 0, "default settings: %d %d", last_call_math(), last_math());
        CHECK(mt_cuda_set_reduced_precision_reduction((mt_dtype)dtype, 1, 0) == -1, "(True, False) is refused");
        CHECK(mt_cuda_set_reduced_precision_reduction((mt_dtype)dtype, 0, 1) == 0, "(False, True)");
        gemm_case(0, dtype, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "reduced precision disallowed");
        CHECK(last_call_math() == 16 && last_math() == 0, "disallowed: %d %d", last_call_math(), last_math());
        gemm_case(0, dtype, 3, 4, 5, 5, 1, 4, 1, 4, 1, {6}, {15}, {20}, {12}, "batched: settings unused", -1, 0);
        CHECK(last_call_math() == 0, "batched: %d", last_call_math());
        mt_cuda_set_reduced_precision_reduction((mt_dtype)dtype, 0, 0);
        {
            std::vector<uint16_t> a(4), b(4), c(4);
            mt_gemm_desc d = tiny_desc((mt_dtype)dtype, a.data(), b.data(), c.data());
            mt_kctx ctx = make_ctx(0);
            CHECK(mt_cuda_gemm(&ctx, &d) == -1, "no split-k: -1");
            CHECK(status_text(ctx) == "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction(..., "
                                      "allow_splitk=False) requires the cuBLASLt backend",
                  "no split-k: %s", status_text(ctx).c_str());
            d.torch_gemm = 0;
            ctx = make_ctx(0);
            CHECK(mt_cuda_gemm(&ctx, &d) == 0, "no split-k, batched GEMM: runs");
            d.torch_gemm = 1;
            fail_next(13);
            mt_cuda_set_reduced_precision_reduction((mt_dtype)dtype, 1, 1);
            ctx = make_ctx(0);
            CHECK(mt_cuda_gemm(&ctx, &d) == -1, "a failing GemmEx returns -1");
            CHECK(status_text(ctx) ==
                      (dtype == MT_FLOAT16
                           ? "CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, "
                             "n, k, alpha_ptr, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, beta_ptr, c, std::is_same_v<C_Dtype, "
                             "float> ? CUDA_R_32F : CUDA_R_16F, ldc, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"
                           : "CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, "
                             "n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, "
                             "std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16BF, ldc, compute_type, "
                             "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"),
                  "GemmEx error text: %s", status_text(ctx).c_str());
        }
    }
    // float16 accumulation: compute type 16F with a float16 C on a device of compute capability 7 or more
    mt_cuda_set_allow_fp16_accumulation(1);
    gemm_case(0, MT_FLOAT16, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "float16 accumulation");
    CHECK(last_compute() == 64, "float16 accumulation: compute type %d", last_compute());
    gemm_case(0, MT_FLOAT16, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "float16 accumulation, float32 C", MT_FLOAT32);
    CHECK(last_compute() == 68, "a float32 C accumulates in float32: %d", last_compute());
    gemm_case(0, MT_BFLOAT16, 3, 5, 7, 7, 1, 5, 1, 5, 1, {}, {}, {}, {}, "bfloat16 ignores float16 accumulation");
    CHECK(last_compute() == 68, "bfloat16: compute type %d", last_compute());
    mt_cuda_set_allow_fp16_accumulation(0);
    // the workspace: torch's sizes by compute capability, and CUBLAS_WORKSPACE_CONFIG
    CHECK(last_ws() == 8519680, "workspace on an sm_80 device: %zu", last_ws());
    long long before = device_bytes;
    gemm_case(1, MT_FLOAT32, 2, 2, 2, 2, 1, 2, 1, 2, 1, {}, {}, {}, {}, "device 1");
    CHECK(last_ws() == 33554432 && device_bytes - before >= 33554432, "workspace on an sm_90 device: %zu", last_ws());
    setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:2:16:8", 1);
    gemm_case(2, MT_FLOAT32, 2, 2, 2, 2, 1, 2, 1, 2, 1, {}, {}, {}, {}, "device 2");
    CHECK(last_ws() == 4096 * 1024 * 2 + 16 * 1024 * 8, "CUBLAS_WORKSPACE_CONFIG :4096:2:16:8 -> %zu", last_ws());
    setenv("CUBLAS_WORKSPACE_CONFIG", "nonsense", 1);
    gemm_case(3, MT_FLOAT32, 2, 2, 2, 2, 1, 2, 1, 2, 1, {}, {}, {}, {}, "device 3");
    CHECK(last_ws() == 33554432, "unparseable config on sm_120 -> the default, %zu", last_ws());
    CHECK(std::string(last_ctx.status.warning) ==
              "Could not parse CUBLAS_WORKSPACE_CONFIG, using default workspace size of 33554432 bytes.",
          "the warning left for the op layer: %s", last_ctx.status.warning);
    unsetenv("CUBLAS_WORKSPACE_CONFIG");
    // TF32 switches the math mode
    mt_cuda_set_allow_tf32(1);
    gemm_case(0, MT_FLOAT32, 2, 2, 2, 2, 1, 2, 1, 2, 1, {}, {}, {}, {}, "tf32");
    CHECK(last_math() == 3, "TF32 math mode %d", last_math());
    mt_cuda_set_allow_tf32(0);
    gemm_case(0, MT_FLOAT32, 2, 2, 2, 2, 1, 2, 1, 2, 1, {}, {}, {}, {}, "default math");
    CHECK(last_math() == 0, "default math mode %d", last_math());
    // a failing cuBLAS call becomes torch's RuntimeError text
    {
        std::vector<float> a(4), b(4), c(4);
        mt_gemm_desc d = tiny_desc(MT_FLOAT32, a.data(), b.data(), c.data());
        fail_next(13);
        mt_kctx ctx = make_ctx(0);
        CHECK(mt_cuda_gemm(&ctx, &d) == -1, "a failing sgemm returns -1");
        std::string text = status_text(ctx);
        CHECK(text == "CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, "
                      "k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
              "error text: %s", text.c_str());
        ctx = make_ctx(9);
        CHECK(mt_cuda_gemm(&ctx, &d) == -1, "a bad device returns -1");
        text = status_text(ctx);
        CHECK(text == "CUDA error: invalid device ordinal", "bad device: %s", text.c_str());
    }
    CHECK(std::string(mt_cublas_version_string()) == "12.8.4", "version %s", mt_cublas_version_string());
}

static void
check_no_cublas()
{
    std::vector<float> a(4), b(4), c(4);
    mt_gemm_desc d = tiny_desc(MT_FLOAT32, a.data(), b.data(), c.data());
    mt_kctx ctx = make_ctx(0);
    CHECK(mt_cuda_gemm(&ctx, &d) == -1, "no cuBLAS: -1");
    std::string text = status_text(ctx);
    CHECK(text.rfind("minitorch could not load cuBLAS, which CUDA matmul needs (tried libcublas.so." MT_EMU_CUDA_MAJOR,
                     0) == 0,
          "message: %s", text.c_str());
    CHECK(std::string(mt_cublas_version_string()).empty(), "no version without cuBLAS");
}

int
main(int argc, char **argv)
{
    std::string mode = argc > 1 ? argv[1] : "kernels";
    if (mode == "kernels") {
        check_cast();
        check_fill();
        check_binary();
        check_reduced();
        check_unary();
        check_reductions();
        check_philox();
        check_index();
    }
    else if (mode == "cublas") {
        check_cublas();
    }
    else if (mode == "nocublas") {
        check_no_cublas();
    }
    else {
        std::printf("usage: %s kernels|cublas|nocublas\n", argv[0]);
        return 2;
    }
    if (failures) {
        std::printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    std::printf("ok %d\n", checks);
    return 0;
}
