// kernels.cu: minitorch's CUDA kernels and their C-callable launchers (declared in cuda_kernels.h).
//
// Built by setup.py with nvcc (-O3, SASS for each target arch plus PTX for the newest; no fast math:
// the Philox normals need IEEE division and sqrt, and no flush-to-zero). Each kernel names its CPU
// reference; GPU results are tested against it (tests/test_cuda_kernels.py on a GPU; without one,
// tests/test_cuda_emulation.py runs this file on the host against references). The launchers take plain
// data only, select the device, queue the kernel on the legacy default stream, check the launch with
// cudaGetLastError and return the cudaError_t code: no exceptions, no exit(), no synchronization.
//
// Shapes: elementwise loops use mt_iter's geometry (dims innermost first, byte strides); every kernel
// is a grid-stride loop over 64-bit element indices, so any size works with a capped grid. Operand
// dtypes that differ from the compute dtype are converted element by element while loading and
// storing, with C's conversions as the host cast kernel (csrc/kernels/cpu/cast.c) uses them.
// Templates are kept few on purpose (one per compute dtype, times two geometry capacities) because
// every instantiation is compiled once per GPU architecture. Geometry structs are passed by value as
// __grid_constant__ parameters (no per-launch device buffer); at MT_MAX_DIMS they stay under the 4 KB
// classic parameter limit (2.1 KB for three operands).

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "cuda_kernels.h"
#include "../cpu/philox.h"

namespace {

constexpr int kThreads = 256;
constexpr int kSmallDims = 4;   // geometries with at most this many dims get a small argument struct

// ---- device facts ------------------------------------------------------------------------------

int
sm_count(int device)
{
    static int cache[64];   // a benign race: every thread stores the same value
    if (device >= 0 && device < 64 && cache[device] > 0) {
        return cache[device];
    }
    int n = 0;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n <= 0) {
        (void)cudaGetLastError();
        n = 16;
    }
    if (device >= 0 && device < 64) {
        cache[device] = n;
    }
    return n;
}

unsigned
grid_for(int device, int64_t work_items)
{
    int64_t blocks = (work_items + kThreads - 1) / kThreads;
    int64_t cap = (int64_t)sm_count(device) * 32;
    if (blocks > cap) {
        blocks = cap;
    }
    return blocks < 1 ? 1u : (unsigned)blocks;
}

int
select_device(int device)
{
    cudaError_t err = cudaSetDevice(device);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
    }
    return (int)err;
}

// The launch check every launcher ends with: a bad configuration or a missing kernel image (no SASS
// for this GPU and no PTX it can JIT) is reported here; clearing keeps the error from sticking.
int
launch_status(void)
{
    return (int)cudaGetLastError();
}

__host__ __device__ __forceinline__ int
dtype_size(int dtype)
{
    return dtype == MT_CUDA_BOOL ? 1 : (dtype == MT_CUDA_INT32 || dtype == MT_CUDA_FLOAT32) ? 4 : 8;
}

// ---- element access with C's conversions (reference: csrc/kernels/cpu/cast.c) ----------------
// uint8_t stands for bool and only for bool: converting to it means "!= 0" (NaN is true).

template <typename To, typename From>
__device__ __forceinline__ To
convert(From v)
{
    return static_cast<To>(v);
}

template <> __device__ __forceinline__ uint8_t convert<uint8_t, uint8_t>(uint8_t v) { return v; }
template <> __device__ __forceinline__ uint8_t convert<uint8_t, int32_t>(int32_t v) { return v != 0; }
template <> __device__ __forceinline__ uint8_t convert<uint8_t, int64_t>(int64_t v) { return v != 0; }
template <> __device__ __forceinline__ uint8_t convert<uint8_t, float>(float v) { return v != 0.0f; }
template <> __device__ __forceinline__ uint8_t convert<uint8_t, double>(double v) { return v != 0.0; }

template <typename T>
__device__ __forceinline__ T
load_as(const char *p, int dtype)
{
    switch (dtype) {
    case MT_CUDA_BOOL:
        return convert<T>(*reinterpret_cast<const uint8_t *>(p));
    case MT_CUDA_INT32:
        return convert<T>(*reinterpret_cast<const int32_t *>(p));
    case MT_CUDA_INT64:
        return convert<T>(*reinterpret_cast<const int64_t *>(p));
    case MT_CUDA_FLOAT32:
        return convert<T>(*reinterpret_cast<const float *>(p));
    default:
        return convert<T>(*reinterpret_cast<const double *>(p));
    }
}

template <typename T>
__device__ __forceinline__ void
store_as(char *p, int dtype, T v)
{
    switch (dtype) {
    case MT_CUDA_BOOL:
        *reinterpret_cast<uint8_t *>(p) = convert<uint8_t>(v);
        break;
    case MT_CUDA_INT32:
        *reinterpret_cast<int32_t *>(p) = convert<int32_t>(v);
        break;
    case MT_CUDA_INT64:
        *reinterpret_cast<int64_t *>(p) = convert<int64_t>(v);
        break;
    case MT_CUDA_FLOAT32:
        *reinterpret_cast<float *>(p) = convert<float>(v);
        break;
    default:
        *reinterpret_cast<double *>(p) = convert<double>(v);
        break;
    }
}

// The same conversions on the host, for values passed by value (they must match the device's).
template <typename T>
T
host_value_as(const mt_cuda_value &v, int dtype)
{
    switch (dtype) {
    case MT_CUDA_BOOL:
        return static_cast<T>(v.b);
    case MT_CUDA_INT32:
        return static_cast<T>(v.i32);
    case MT_CUDA_INT64:
        return static_cast<T>(v.i64);
    case MT_CUDA_FLOAT32:
        return static_cast<T>(v.f32);
    default:
        return static_cast<T>(v.f64);
    }
}

template <>
uint8_t
host_value_as<uint8_t>(const mt_cuda_value &v, int dtype)
{
    switch (dtype) {
    case MT_CUDA_BOOL:
        return v.b;
    case MT_CUDA_INT32:
        return v.i32 != 0;
    case MT_CUDA_INT64:
        return v.i64 != 0;
    case MT_CUDA_FLOAT32:
        return v.f32 != 0.0f;
    default:
        return v.f64 != 0.0;
    }
}

// ---- elementwise geometry ------------------------------------------------------------------------

template <int NOPS, int MAXD>
struct Geo {
    int ndim;
    int64_t shape[MAXD];
    int64_t strides[NOPS][MAXD];
    char *data[NOPS];
};

// Byte offsets of element i for each operand; dims innermost first (mt_iter's order).
template <int NOPS, int MAXD>
__device__ __forceinline__ void
offsets(const Geo<NOPS, MAXD> &g, int64_t i, int64_t off[NOPS])
{
#pragma unroll
    for (int k = 0; k < NOPS; k++) {
        off[k] = 0;
    }
    for (int d = 0; d < MAXD; d++) {
        if (d == g.ndim - 1) {
#pragma unroll
            for (int k = 0; k < NOPS; k++) {
                off[k] += i * g.strides[k][d];
            }
            break;
        }
        int64_t q = i / g.shape[d];
        int64_t idx = i - q * g.shape[d];
#pragma unroll
        for (int k = 0; k < NOPS; k++) {
            off[k] += idx * g.strides[k][d];
        }
        i = q;
    }
}

template <int NOPS, int MAXD>
Geo<NOPS, MAXD>
make_geo(const mt_cuda_geometry *src)
{
    Geo<NOPS, MAXD> g;
    g.ndim = src->ndim > 0 ? src->ndim : 1;
    for (int d = 0; d < g.ndim; d++) {
        g.shape[d] = src->ndim > 0 ? src->shape[d] : 1;
        for (int k = 0; k < NOPS; k++) {
            g.strides[k][d] = src->ndim > 0 ? src->strides[k][d] : 0;
        }
    }
    for (int k = 0; k < NOPS; k++) {
        g.data[k] = src->data[k];
    }
    return g;
}

// ---- binary ops (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_binary) -----------------------

template <typename T> struct Wrap { using U = T; };
template <> struct Wrap<int32_t> { using U = uint32_t; };
template <> struct Wrap<int64_t> { using U = uint64_t; };

template <typename T>
struct BinaryArgs {
    int op;
    int out_dtype;
    int in_dtype[2];
    int in_is_value[2];
    T in_value[2];
    T alpha;
};

template <typename T>
__device__ __forceinline__ bool
is_nan(T v)
{
    return v != v;
}

// Arithmetic in T; integers wrap (unsigned arithmetic), as in the CPU kernel.
template <typename T>
__device__ __forceinline__ T
arith(int op, T x, T y, T alpha)
{
    using U = typename Wrap<T>::U;
    switch (op) {
    case MT_CUDA_ADD:
        return alpha == T(1) ? T(U(x) + U(y)) : T(U(x) + U(alpha) * U(y));
    case MT_CUDA_SUB:
        return T(U(x) - U(y));
    case MT_CUDA_MUL:
        return T(U(x) * U(y));
    case MT_CUDA_DIV:
        return x / y;
    case MT_CUDA_MAXIMUM:
        return (is_nan(x) || x > y) ? x : y;
    default: // MT_CUDA_MINIMUM
        return (is_nan(x) || x < y) ? x : y;
    }
}

// float and double: a + alpha * b is one fused multiply-add, as torch's vectorised CPU kernel does.
template <>
__device__ __forceinline__ float
arith<float>(int op, float x, float y, float alpha)
{
    switch (op) {
    case MT_CUDA_ADD:
        return alpha == 1.0f ? x + y : fmaf(y, alpha, x);
    case MT_CUDA_SUB:
        return x - y;
    case MT_CUDA_MUL:
        return x * y;
    case MT_CUDA_DIV:
        return x / y;
    case MT_CUDA_MAXIMUM:
        return (is_nan(x) || x > y) ? x : y;
    default:
        return (is_nan(x) || x < y) ? x : y;
    }
}

template <>
__device__ __forceinline__ double
arith<double>(int op, double x, double y, double alpha)
{
    switch (op) {
    case MT_CUDA_ADD:
        return alpha == 1.0 ? x + y : fma(y, alpha, x);
    case MT_CUDA_SUB:
        return x - y;
    case MT_CUDA_MUL:
        return x * y;
    case MT_CUDA_DIV:
        return x / y;
    case MT_CUDA_MAXIMUM:
        return (is_nan(x) || x > y) ? x : y;
    default:
        return (is_nan(x) || x < y) ? x : y;
    }
}

// bool arithmetic as C++ does it on 0/1 values: a + alpha*b is "or", a*b is "and".
template <>
__device__ __forceinline__ uint8_t
arith<uint8_t>(int op, uint8_t x, uint8_t y, uint8_t alpha)
{
    switch (op) {
    case MT_CUDA_ADD:
        return (uint8_t)(x | (alpha & y));
    case MT_CUDA_MUL:
    case MT_CUDA_MINIMUM:
        return (uint8_t)(x & y);
    default: // MAXIMUM (sub and div never reach bool)
        return (uint8_t)(x | y);
    }
}

template <typename T>
__device__ __forceinline__ uint8_t
compare(int op, T x, T y)
{
    switch (op) {
    case MT_CUDA_EQ:
        return x == y;
    case MT_CUDA_NE:
        return x != y;
    case MT_CUDA_LT:
        return x < y;
    case MT_CUDA_LE:
        return x <= y;
    case MT_CUDA_GT:
        return x > y;
    default:
        return x >= y;
    }
}

template <typename T, int MAXD>
__global__ void
binary_kernel(const __grid_constant__ Geo<3, MAXD> g, int64_t n, const __grid_constant__ BinaryArgs<T> p)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[3];
        offsets<3, MAXD>(g, i, off);
        T x = p.in_is_value[0] ? p.in_value[0] : load_as<T>(g.data[1] + off[1], p.in_dtype[0]);
        T y = p.in_is_value[1] ? p.in_value[1] : load_as<T>(g.data[2] + off[2], p.in_dtype[1]);
        if (p.op >= MT_CUDA_EQ) {
            store_as<uint8_t>(g.data[0] + off[0], p.out_dtype, compare<T>(p.op, x, y));
        }
        else {
            store_as<T>(g.data[0] + off[0], p.out_dtype, arith<T>(p.op, x, y, p.alpha));
        }
    }
}

template <typename T>
int
launch_binary_typed(int device, const mt_cuda_geometry *src, const mt_cuda_binary_params *pp)
{
    BinaryArgs<T> p;
    p.op = pp->op;
    p.out_dtype = pp->out_dtype;
    for (int k = 0; k < 2; k++) {
        p.in_dtype[k] = pp->in_dtype[k];
        p.in_is_value[k] = pp->in_is_value[k];
        p.in_value[k] = pp->in_is_value[k] ? host_value_as<T>(pp->in_value[k], pp->in_dtype[k]) : T(0);
    }
    if (pp->dtype == MT_CUDA_FLOAT32 || pp->dtype == MT_CUDA_FLOAT64) {
        p.alpha = static_cast<T>(pp->alpha_f);
    }
    else if (pp->dtype == MT_CUDA_BOOL) {
        p.alpha = static_cast<T>(pp->alpha_i != 0);
    }
    else {
        p.alpha = static_cast<T>(pp->alpha_i);
    }
    unsigned grid = grid_for(device, src->numel);
    if (src->ndim <= kSmallDims) {
        binary_kernel<T, kSmallDims><<<grid, kThreads>>>(make_geo<3, kSmallDims>(src), src->numel, p);
    }
    else {
        binary_kernel<T, MT_CUDA_MAX_DIMS><<<grid, kThreads>>>(make_geo<3, MT_CUDA_MAX_DIMS>(src), src->numel, p);
    }
    return launch_status();
}

// ---- unary ops (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_unary) -------------------------

template <typename T>
__device__ __forceinline__ T
unary_apply(int op, T x)
{
    using U = typename Wrap<T>::U;
    switch (op) {
    case MT_CUDA_NEG:
        return T(U(0) - U(x));
    case MT_CUDA_ABS:
        return x < T(0) ? T(U(0) - U(x)) : x;
    default: // RELU (the floating-only ops never reach integer dtypes)
        return x < T(0) ? T(0) : x;
    }
}

template <>
__device__ __forceinline__ float
unary_apply<float>(int op, float x)
{
    switch (op) {
    case MT_CUDA_NEG:
        return -x;
    case MT_CUDA_ABS:
        return fabsf(x);
    case MT_CUDA_RELU:
        return x < 0.0f ? 0.0f : x;   // keeps NaN and -0.0, as torch
    case MT_CUDA_EXP:
        return expf(x);
    case MT_CUDA_LOG:
        return logf(x);
    case MT_CUDA_SQRT:
        return sqrtf(x);
    default:
        return 1.0f / x;
    }
}

template <>
__device__ __forceinline__ double
unary_apply<double>(int op, double x)
{
    switch (op) {
    case MT_CUDA_NEG:
        return -x;
    case MT_CUDA_ABS:
        return fabs(x);
    case MT_CUDA_RELU:
        return x < 0.0 ? 0.0 : x;
    case MT_CUDA_EXP:
        return exp(x);
    case MT_CUDA_LOG:
        return log(x);
    case MT_CUDA_SQRT:
        return sqrt(x);
    default:
        return 1.0 / x;
    }
}

template <typename T, int MAXD>
__global__ void
unary_kernel(const __grid_constant__ Geo<2, MAXD> g, int64_t n, int op, int out_dtype, int in_dtype)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[2];
        offsets<2, MAXD>(g, i, off);
        T x = load_as<T>(g.data[1] + off[1], in_dtype);
        store_as<T>(g.data[0] + off[0], out_dtype, unary_apply<T>(op, x));
    }
}

template <typename T>
int
launch_unary_typed(int device, const mt_cuda_geometry *src, const mt_cuda_unary_params *p)
{
    unsigned grid = grid_for(device, src->numel);
    if (src->ndim <= kSmallDims) {
        unary_kernel<T, kSmallDims><<<grid, kThreads>>>(make_geo<2, kSmallDims>(src), src->numel, p->op,
                                                        p->out_dtype, p->in_dtype);
    }
    else {
        unary_kernel<T, MT_CUDA_MAX_DIMS><<<grid, kThreads>>>(make_geo<2, MT_CUDA_MAX_DIMS>(src), src->numel,
                                                              p->op, p->out_dtype, p->in_dtype);
    }
    return launch_status();
}

// ---- copy with conversion (reference: csrc/kernels/cpu/cast.c) and fill ----------------------

template <int MAXD>
__global__ void
cast_kernel(const __grid_constant__ Geo<2, MAXD> g, int64_t n, int dst_dtype, int src_dtype, int itemsize)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[2];
        offsets<2, MAXD>(g, i, off);
        char *d = g.data[0] + off[0];
        const char *s = g.data[1] + off[1];
        if (dst_dtype == src_dtype) {
            // bits, not values: a NaN's payload survives, as memcpy keeps it on the host
            if (itemsize == 8) {
                *reinterpret_cast<uint64_t *>(d) = *reinterpret_cast<const uint64_t *>(s);
            }
            else if (itemsize == 4) {
                *reinterpret_cast<uint32_t *>(d) = *reinterpret_cast<const uint32_t *>(s);
            }
            else {
                *reinterpret_cast<uint8_t *>(d) = *reinterpret_cast<const uint8_t *>(s);
            }
            continue;
        }
        switch (dst_dtype) {
        case MT_CUDA_BOOL:
            *reinterpret_cast<uint8_t *>(d) = load_as<uint8_t>(s, src_dtype);
            break;
        case MT_CUDA_INT32:
            *reinterpret_cast<int32_t *>(d) = load_as<int32_t>(s, src_dtype);
            break;
        case MT_CUDA_INT64:
            *reinterpret_cast<int64_t *>(d) = load_as<int64_t>(s, src_dtype);
            break;
        case MT_CUDA_FLOAT32:
            *reinterpret_cast<float *>(d) = load_as<float>(s, src_dtype);
            break;
        default:
            *reinterpret_cast<double *>(d) = load_as<double>(s, src_dtype);
            break;
        }
    }
}

template <int MAXD>
__global__ void
fill_kernel(const __grid_constant__ Geo<1, MAXD> g, int64_t n, int itemsize, uint64_t bits)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[1];
        offsets<1, MAXD>(g, i, off);
        char *d = g.data[0] + off[0];
        if (itemsize == 8) {
            *reinterpret_cast<uint64_t *>(d) = bits;
        }
        else if (itemsize == 4) {
            *reinterpret_cast<uint32_t *>(d) = (uint32_t)bits;
        }
        else {
            *reinterpret_cast<uint8_t *>(d) = (uint8_t)bits;
        }
    }
}

// ---- reductions (reference: csrc/kernels/cpu/reduce.c, mt_cpu_reduce and mt_cpu_arg_reduce) -------
//
// Each output is reduced by a group of G threads (G a power of two up to 256; G = 1 when the
// reduction runs across the fastest-moving memory, so that neighbouring threads read neighbouring
// outputs' elements). Long reductions with few outputs are split across `nsplit` blocks per output;
// their partial results go to scratch memory and a second kernel combines them. The combination
// order is fixed by the launch plan, so results are reproducible run to run. Accumulators: float32
// sums in float (as torch's CUDA sum), float64 in double, integer sums in int64 (wrapping); MAX/MIN
// keep (value, index) pairs with argmax's rules: NaN wins, ties and NaNs keep the lower index.

struct RedGeo {
    int out_ndim;
    int red_ndim;
    int64_t out_shape[MT_CUDA_MAX_DIMS];
    int64_t out_strides[MT_CUDA_MAX_DIMS];
    int64_t red_shape[MT_CUDA_MAX_DIMS];
    int64_t red_strides[MT_CUDA_MAX_DIMS];
};

struct RedArgs {
    int op;
    int in_dtype;
    int out_dtype;
    int group;          // G
    int nsplit;
    int64_t outputs;    // O
    int64_t reduced;    // R
    int64_t chunk;      // reduced elements per split
    double mean_factor;
    const char *data;
    char *values;
    int64_t *indices;
    void *scratch;
};

template <typename A>
struct Acc {
    A v;
    int64_t i;  // MAX/MIN/ARG*: the index, -1 for "nothing yet"
};

// Row-major offset (in elements) of linear index r over (shape, strides).
__device__ __forceinline__ int64_t
row_major_offset(int64_t r, int ndim, const int64_t *shape, const int64_t *strides)
{
    int64_t off = 0;
    for (int d = ndim - 1; d > 0; d--) {
        int64_t q = r / shape[d];
        off += (r - q * shape[d]) * strides[d];
        r = q;
    }
    return ndim > 0 ? off + r * strides[0] : 0;
}

template <typename A>
__device__ __forceinline__ Acc<A>
red_identity(int op)
{
    Acc<A> a;
    a.v = (op == MT_CUDA_ALL) ? A(1) : A(0);
    a.i = -1;
    return a;
}

template <typename A>
__device__ __forceinline__ A
wrapping_add(A x, A y)
{
    return x + y;
}

template <>
__device__ __forceinline__ int64_t
wrapping_add<int64_t>(int64_t x, int64_t y)
{
    return (int64_t)((uint64_t)x + (uint64_t)y);
}

template <typename A>
__device__ __forceinline__ Acc<A>
red_combine(int op, Acc<A> a, Acc<A> b)
{
    switch (op) {
    case MT_CUDA_SUM:
        a.v = wrapping_add<A>(a.v, b.v);
        return a;
    case MT_CUDA_ALL:
        a.v = (a.v && b.v) ? A(1) : A(0);
        return a;
    case MT_CUDA_ANY:
        a.v = (a.v || b.v) ? A(1) : A(0);
        return a;
    default: {
        // MAX/ARGMAX and MIN/ARGMIN: the winner, NaN first, lower index on ties
        if (a.i < 0) {
            return b;
        }
        if (b.i < 0) {
            return a;
        }
        bool an = is_nan(a.v), bn = is_nan(b.v);
        if (an || bn) {
            if (an && bn) {
                return a.i <= b.i ? a : b;
            }
            return an ? a : b;
        }
        bool is_max = op == MT_CUDA_MAX || op == MT_CUDA_ARGMAX;
        if (a.v == b.v) {
            return a.i <= b.i ? a : b;
        }
        return ((a.v > b.v) == is_max) ? a : b;
    }
    }
}

template <typename A>
__device__ __forceinline__ void
red_write(const RedArgs &p, int64_t o, Acc<A> acc)
{
    switch (p.op) {
    case MT_CUDA_SUM: {
        A v = acc.v;
        if (p.mean_factor != 0.0) {
            v = v * static_cast<A>(p.mean_factor);
        }
        store_as<A>(p.values + o * dtype_size(p.out_dtype), p.out_dtype, v);
        break;
    }
    case MT_CUDA_ALL:
    case MT_CUDA_ANY:
        reinterpret_cast<uint8_t *>(p.values)[o] = acc.v ? 1 : 0;
        break;
    default:
        if (p.indices != NULL) {
            p.indices[o] = acc.i;
        }
        if (p.values != NULL) {
            store_as<A>(p.values + o * dtype_size(p.out_dtype), p.out_dtype, acc.v);
        }
        break;
    }
}

// Reduces the G values of a group held in buf[base .. base+G) into buf[base]; every thread of the
// block calls it (it synchronizes).
template <typename A>
__device__ __forceinline__ void
group_reduce(int op, Acc<A> *buf, int group, int lane)
{
    __syncthreads();
    for (int s = group / 2; s > 0; s /= 2) {
        if (lane < s) {
            buf[threadIdx.x] = red_combine<A>(op, buf[threadIdx.x], buf[threadIdx.x + s]);
        }
        __syncthreads();
    }
}

template <typename A>
__global__ void
reduce_kernel(const __grid_constant__ RedGeo g, const __grid_constant__ RedArgs p)
{
    __shared__ Acc<A> buf[kThreads];
    const int group = p.group;
    const int lane = threadIdx.x % group;
    const int64_t o = (int64_t)blockIdx.x * (blockDim.x / group) + threadIdx.x / group;
    const int split = blockIdx.y;
    const bool active = o < p.outputs;
    const bool track_index = p.op != MT_CUDA_SUM && p.op != MT_CUDA_ALL && p.op != MT_CUDA_ANY;
    Acc<A> acc = red_identity<A>(p.op);

    if (active) {
        const char *base = p.data;
        int64_t obase = row_major_offset(o, g.out_ndim, g.out_shape, g.out_strides);
        int64_t r0 = (int64_t)split * p.chunk;
        int64_t r1 = r0 + p.chunk < p.reduced ? r0 + p.chunk : p.reduced;
        int isize = dtype_size(p.in_dtype);
        for (int64_t r = r0 + lane; r < r1; r += group) {
            int64_t off = obase + row_major_offset(r, g.red_ndim, g.red_shape, g.red_strides);
            Acc<A> e;
            e.v = load_as<A>(base + off * isize, p.in_dtype);
            e.i = track_index ? r : 0;
            acc = red_combine<A>(p.op, acc, e);
        }
    }
    if (group > 1) {
        buf[threadIdx.x] = acc;
        group_reduce<A>(p.op, buf, group, lane);
        acc = buf[threadIdx.x];
    }
    if (active && lane == 0) {
        if (p.nsplit == 1) {
            red_write<A>(p, o, acc);
        }
        else {
            reinterpret_cast<Acc<A> *>(p.scratch)[o * p.nsplit + split] = acc;
        }
    }
}

// Combines the nsplit partial results of each output (one group per output).
template <typename A>
__global__ void
reduce_finish_kernel(const __grid_constant__ RedArgs p, int group)
{
    __shared__ Acc<A> buf[kThreads];
    const int lane = threadIdx.x % group;
    const int64_t o = (int64_t)blockIdx.x * (blockDim.x / group) + threadIdx.x / group;
    const bool active = o < p.outputs;
    Acc<A> acc = red_identity<A>(p.op);
    if (active) {
        const Acc<A> *parts = reinterpret_cast<const Acc<A> *>(p.scratch) + o * p.nsplit;
        for (int s = lane; s < p.nsplit; s += group) {
            acc = red_combine<A>(p.op, acc, parts[s]);
        }
    }
    buf[threadIdx.x] = acc;
    group_reduce<A>(p.op, buf, group, lane);
    if (active && lane == 0) {
        red_write<A>(p, o, buf[threadIdx.x]);
    }
}

// ---- reduction launch plan -----------------------------------------------------------------------

enum { ACC_FLOAT, ACC_DOUBLE, ACC_INT64, ACC_BOOL };

int
acc_kind(const mt_cuda_reduce_params *p)
{
    int d = p->op == MT_CUDA_SUM ? p->out_dtype : p->in_dtype;
    if (p->op == MT_CUDA_ALL || p->op == MT_CUDA_ANY) {
        return ACC_BOOL;
    }
    switch (d) {
    case MT_CUDA_FLOAT32:
        return ACC_FLOAT;
    case MT_CUDA_FLOAT64:
        return ACC_DOUBLE;
    case MT_CUDA_BOOL:
        return p->op == MT_CUDA_SUM ? ACC_INT64 : ACC_BOOL;
    default:
        return ACC_INT64;
    }
}

struct RedPlan {
    int group;
    int nsplit;
    int64_t chunk;
    int64_t outputs;
    int64_t reduced;
    unsigned grid_x;
};

constexpr size_t kAccBytes = 16;   // sizeof(Acc<A>) for every A (an 8-byte-aligned pair)

RedPlan
plan_reduce(int device, const mt_cuda_reduce_params *p)
{
    RedPlan plan;
    int64_t smallest = INT64_MAX;
    int innermost_reduced = 0;

    plan.outputs = 1;
    plan.reduced = 1;
    for (int d = 0; d < p->out_ndim; d++) {
        plan.outputs *= p->out_shape[d];
        int64_t s = p->out_strides[d] < 0 ? -p->out_strides[d] : p->out_strides[d];
        if (p->out_shape[d] > 1 && s < smallest) {
            smallest = s;
            innermost_reduced = 0;
        }
    }
    for (int d = 0; d < p->red_ndim; d++) {
        plan.reduced *= p->red_shape[d];
        int64_t s = p->red_strides[d] < 0 ? -p->red_strides[d] : p->red_strides[d];
        if (p->red_shape[d] > 1 && s < smallest) {
            smallest = s;
            innermost_reduced = 1;
        }
    }
    // a group of threads per output when the reduction runs along memory (coalesced reads within the
    // group); one thread per output otherwise (coalesced reads across neighbouring outputs)
    plan.group = 1;
    if (innermost_reduced || plan.outputs == 1) {
        while (plan.group < plan.reduced && plan.group < kThreads) {
            plan.group *= 2;
        }
    }
    int64_t per_block = kThreads / plan.group;
    int64_t blocks_out = (plan.outputs + per_block - 1) / per_block;
    int64_t target = (int64_t)sm_count(device) * 16;
    int64_t nsplit = 1;
    if (blocks_out < target && plan.reduced > (int64_t)plan.group * 64) {
        nsplit = (target + blocks_out - 1) / blocks_out;
        int64_t by_work = plan.reduced / ((int64_t)plan.group * 64);
        if (nsplit > by_work) {
            nsplit = by_work;
        }
        if (nsplit > 1024) {
            nsplit = 1024;
        }
        if (nsplit < 1) {
            nsplit = 1;
        }
    }
    plan.chunk = plan.reduced > 0 ? (plan.reduced + nsplit - 1) / nsplit : 0;
    plan.nsplit = plan.chunk > 0 ? (int)((plan.reduced + plan.chunk - 1) / plan.chunk) : 1;
    plan.grid_x = (unsigned)(blocks_out > 0 ? blocks_out : 1);
    return plan;
}

template <typename A>
int
launch_reduce_typed(const RedGeo &g, const RedArgs &args, const RedPlan &plan)
{
    dim3 grid(plan.grid_x, (unsigned)plan.nsplit);
    reduce_kernel<A><<<grid, kThreads>>>(g, args);
    int err = launch_status();
    if (err != 0 || plan.nsplit == 1) {
        return err;
    }
    int group = 1;
    while (group < plan.nsplit && group < kThreads) {
        group *= 2;
    }
    int64_t per_block = kThreads / group;
    unsigned blocks = (unsigned)((plan.outputs + per_block - 1) / per_block);
    reduce_finish_kernel<A><<<blocks, kThreads>>>(args, group);
    return launch_status();
}

// ---- Philox random fills (reference: csrc/kernels/cpu/philox.c; the stream: philox.h) -------------
// One thread per Philox block, each writing the elements of its block, exactly as the host loops do.

__global__ void
philox_uniform_f32_kernel(float *out, int64_t n, uint64_t seed, uint64_t offset, float from, float range)
{
    const int64_t blocks = (int64_t)mt_philox_blocks_32(n);
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += step) {
        float v[4];
        mt_philox_uniform4_float(seed, offset, (uint64_t)b, v);
        for (int k = 0; k < 4 && b * 4 + k < n; k++) {
            out[b * 4 + k] = fmaf(v[k], range, from);
        }
    }
}

__global__ void
philox_uniform_f64_kernel(double *out, int64_t n, uint64_t seed, uint64_t offset, double from, double range)
{
    const int64_t blocks = (int64_t)mt_philox_blocks_64(n);
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += step) {
        double v[2];
        mt_philox_uniform2_double(seed, offset, (uint64_t)b, v);
        for (int k = 0; k < 2 && b * 2 + k < n; k++) {
            out[b * 2 + k] = fma(v[k], range, from);
        }
    }
}

__global__ void
philox_normal_f32_kernel(float *out, int64_t n, uint64_t seed, uint64_t offset, float mean, float std)
{
    const int64_t blocks = (int64_t)mt_philox_blocks_32(n);
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += step) {
        float v[4];
        mt_philox_normal4_float(seed, offset, (uint64_t)b, mean, std, v);
        for (int k = 0; k < 4 && b * 4 + k < n; k++) {
            out[b * 4 + k] = v[k];
        }
    }
}

__global__ void
philox_normal_f64_kernel(double *out, int64_t n, uint64_t seed, uint64_t offset, double mean, double std)
{
    const int64_t blocks = (int64_t)mt_philox_blocks_64(n);
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < blocks; b += step) {
        double v[2];
        mt_philox_normal2_double(seed, offset, (uint64_t)b, mean, std, v);
        for (int k = 0; k < 2 && b * 2 + k < n; k++) {
            out[b * 2 + k] = v[k];
        }
    }
}

// Integers: element i is low + draw, as int64; stored in the tensor's dtype with the cast's rules.
__global__ void
philox_randint_kernel(char *out, int dtype, int64_t n, uint64_t seed, uint64_t offset, uint64_t range, int64_t low)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int size = dtype_size(dtype);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t v = mt_philox_randint(seed, offset, (uint64_t)i, range, low);
        store_as<int64_t>(out + i * size, dtype, v);
    }
}

}  // namespace

// ---- the C-callable launchers (cuda_kernels.h) ---------------------------------------------------

extern "C" int
mt_cuda_launch_binary(int device, const mt_cuda_geometry *g, const mt_cuda_binary_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    switch (p->dtype) {
    case MT_CUDA_BOOL:
        return launch_binary_typed<uint8_t>(device, g, p);
    case MT_CUDA_INT32:
        return launch_binary_typed<int32_t>(device, g, p);
    case MT_CUDA_INT64:
        return launch_binary_typed<int64_t>(device, g, p);
    case MT_CUDA_FLOAT32:
        return launch_binary_typed<float>(device, g, p);
    case MT_CUDA_FLOAT64:
        return launch_binary_typed<double>(device, g, p);
    default:
        return (int)cudaErrorInvalidValue;
    }
}

extern "C" int
mt_cuda_launch_unary(int device, const mt_cuda_geometry *g, const mt_cuda_unary_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    switch (p->dtype) {
    case MT_CUDA_INT32:
        return launch_unary_typed<int32_t>(device, g, p);
    case MT_CUDA_INT64:
        return launch_unary_typed<int64_t>(device, g, p);
    case MT_CUDA_FLOAT32:
        return launch_unary_typed<float>(device, g, p);
    case MT_CUDA_FLOAT64:
        return launch_unary_typed<double>(device, g, p);
    default: // the op layer rejects bool before any kernel
        return (int)cudaErrorInvalidValue;
    }
}

extern "C" int
mt_cuda_launch_cast(int device, const mt_cuda_geometry *g, int dst_dtype, int src_dtype)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    unsigned grid = grid_for(device, g->numel);
    int itemsize = dtype_size(dst_dtype);
    if (g->ndim <= kSmallDims) {
        cast_kernel<kSmallDims><<<grid, kThreads>>>(make_geo<2, kSmallDims>(g), g->numel, dst_dtype, src_dtype,
                                                    itemsize);
    }
    else {
        cast_kernel<MT_CUDA_MAX_DIMS><<<grid, kThreads>>>(make_geo<2, MT_CUDA_MAX_DIMS>(g), g->numel, dst_dtype,
                                                          src_dtype, itemsize);
    }
    return launch_status();
}

extern "C" int
mt_cuda_launch_fill(int device, const mt_cuda_geometry *g, size_t itemsize, mt_cuda_value value)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    uint64_t bits = 0;
    for (size_t i = 0; i < itemsize && i < 8; i++) {
        bits |= (uint64_t)value.bytes[i] << (8 * i);   // little-endian, as both host and GPU are
    }
    unsigned grid = grid_for(device, g->numel);
    if (g->ndim <= kSmallDims) {
        fill_kernel<kSmallDims><<<grid, kThreads>>>(make_geo<1, kSmallDims>(g), g->numel, (int)itemsize, bits);
    }
    else {
        fill_kernel<MT_CUDA_MAX_DIMS><<<grid, kThreads>>>(make_geo<1, MT_CUDA_MAX_DIMS>(g), g->numel, (int)itemsize,
                                                          bits);
    }
    return launch_status();
}

extern "C" size_t
mt_cuda_reduce_scratch_bytes(int device, const mt_cuda_reduce_params *p)
{
    RedPlan plan = plan_reduce(device, p);
    return plan.nsplit > 1 ? (size_t)plan.outputs * (size_t)plan.nsplit * kAccBytes : 0;
}

extern "C" int
mt_cuda_launch_reduce(int device, const mt_cuda_reduce_params *p, void *scratch)
{
    int err = select_device(device);
    if (err != 0) {
        return err;
    }
    static_assert(sizeof(Acc<float>) == kAccBytes && sizeof(Acc<double>) == kAccBytes &&
                      sizeof(Acc<int64_t>) == kAccBytes && sizeof(Acc<uint8_t>) == kAccBytes,
                  "scratch entries are 16 bytes");
    RedPlan plan = plan_reduce(device, p);
    if (plan.outputs <= 0) {
        return 0;
    }
    if (plan.nsplit > 1 && scratch == NULL) {
        return (int)cudaErrorInvalidValue;
    }
    RedGeo g;
    g.out_ndim = p->out_ndim;
    g.red_ndim = p->red_ndim;
    for (int d = 0; d < p->out_ndim; d++) {
        g.out_shape[d] = p->out_shape[d];
        g.out_strides[d] = p->out_strides[d];
    }
    for (int d = 0; d < p->red_ndim; d++) {
        g.red_shape[d] = p->red_shape[d];
        g.red_strides[d] = p->red_strides[d];
    }
    RedArgs args;
    args.op = p->op;
    args.in_dtype = p->in_dtype;
    args.out_dtype = p->out_dtype;
    args.group = plan.group;
    args.nsplit = plan.nsplit;
    args.outputs = plan.outputs;
    args.reduced = plan.reduced;
    args.chunk = plan.chunk;
    args.mean_factor = p->mean_factor;
    args.data = p->data;
    args.values = p->values;
    args.indices = p->indices;
    args.scratch = scratch;
    switch (acc_kind(p)) {
    case ACC_FLOAT:
        return launch_reduce_typed<float>(g, args, plan);
    case ACC_DOUBLE:
        return launch_reduce_typed<double>(g, args, plan);
    case ACC_INT64:
        return launch_reduce_typed<int64_t>(g, args, plan);
    default:
        return launch_reduce_typed<uint8_t>(g, args, plan);
    }
}

extern "C" int
mt_cuda_launch_philox_uniform(int device, int dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                              double from, double to)
{
    int err = select_device(device);
    if (err != 0 || n <= 0) {
        return err;
    }
    if (dtype == MT_CUDA_FLOAT32) {
        // the host loop's arithmetic: from and the range rounded to float first
        float f = (float)from;
        float range = (float)to - f;
        philox_uniform_f32_kernel<<<grid_for(device, (int64_t)mt_philox_blocks_32(n)), kThreads>>>(
            (float *)out, n, seed, offset, f, range);
    }
    else {
        philox_uniform_f64_kernel<<<grid_for(device, (int64_t)mt_philox_blocks_64(n)), kThreads>>>(
            (double *)out, n, seed, offset, from, to - from);
    }
    return launch_status();
}

extern "C" int
mt_cuda_launch_philox_normal(int device, int dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                             double mean, double std)
{
    int err = select_device(device);
    if (err != 0 || n <= 0) {
        return err;
    }
    if (dtype == MT_CUDA_FLOAT32) {
        philox_normal_f32_kernel<<<grid_for(device, (int64_t)mt_philox_blocks_32(n)), kThreads>>>(
            (float *)out, n, seed, offset, (float)mean, (float)std);
    }
    else {
        philox_normal_f64_kernel<<<grid_for(device, (int64_t)mt_philox_blocks_64(n)), kThreads>>>(
            (double *)out, n, seed, offset, mean, std);
    }
    return launch_status();
}

extern "C" int
mt_cuda_launch_philox_randint(int device, int dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                              int64_t low, int64_t high)
{
    int err = select_device(device);
    if (err != 0 || n <= 0 || low >= high) {
        return err;
    }
    uint64_t range = (uint64_t)high - (uint64_t)low;
    philox_randint_kernel<<<grid_for(device, n), kThreads>>>((char *)out, dtype, n, seed, offset, range, low);
    return launch_status();
}
