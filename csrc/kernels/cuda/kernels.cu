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
// storing, with C's conversions as the host cast kernel (csrc/kernels/cpu/cast.c) uses them. What an
// op computes on one element is not written here: the kernels call op_math.h's functions, which the
// host kernels instantiate too. Templates are kept few on purpose (one per compute dtype, times two geometry capacities) because
// every instantiation is compiled once per GPU architecture. Geometry structs are passed by value as
// __grid_constant__ parameters (no per-launch device buffer); at MT_MAX_DIMS they stay under the 4 KB
// classic parameter limit (2.1 KB for three operands).

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "cuda_kernels.h"
#include "../cpu/philox.h"
#include "../op_math.h"

extern "C" {
int64_t mt_cuda_kernel_paths[MT_CUDA_PATH_COUNT];
}

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

// Makes `device` current for the launch. cudaGetDevice reads the thread's state; cudaSetDevice is called
// only when another device is current, so a launch on the current device costs no driver call for it.
int
select_device(int device)
{
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && current == device) {
        return 0;
    }
    cudaError_t err = cudaSetDevice(device);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
    }
    return (int)err;
}

void
count_path(mt_cuda_path path)
{
    mt_cuda_kernel_paths[path]++;
}

// The launch check every launcher ends with: a bad configuration or a missing kernel image (no SASS
// for this GPU and no PTX it can JIT) is reported here; clearing keeps the error from sticking.
int
launch_status(void)
{
    return (int)cudaGetLastError();
}

// ---- element access with C's conversions (reference: csrc/kernels/cpu/cast.c) ----------------
// uint8_t stands for bool and only for bool: converting to it means "!= 0" (NaN is true). uint8 is
// mt_u8 (scalar_type.h). A floating value converts to an integer type as torch's x86 CPU build gives it
// (MT_FLOAT_TO_INT), so that the device's bits are the host's.

template <typename To>
struct Convert {
    template <typename From>
    static __host__ __device__ __forceinline__ To
    from(From v)
    {
        if constexpr (std::is_floating_point<From>::value && !std::is_floating_point<To>::value) {
            return MT_FLOAT_TO_INT(To, v);
        }
        else {
            return static_cast<To>(v);
        }
    }
};

template <>
struct Convert<uint8_t> {
    template <typename From>
    static __host__ __device__ __forceinline__ uint8_t
    from(From v)
    {
        return v != From(0);
    }
};

// float16 and bfloat16 elements are 16-bit patterns read and written through float (scalar_type.h's
// conversions, the host's): the kernels compute them in float32, as the op layer asks.
template <typename T>
__host__ __device__ __forceinline__ T
load_as(const char *p, mt_dtype dtype)
{
    if (mt_dtype_is_reduced_floating(dtype)) {
        return Convert<T>::from(mt_reduced_to_float(dtype, *reinterpret_cast<const uint16_t *>(p)));
    }
    MT_DISPATCH_DTYPE(dtype, S, return Convert<T>::from(*reinterpret_cast<const S *>(p)))
    return T(0);
}

template <typename T>
__device__ __forceinline__ void
store_as(char *p, mt_dtype dtype, T v)
{
    if (mt_dtype_is_reduced_floating(dtype)) {
        *reinterpret_cast<uint16_t *>(p) = mt_float_to_reduced(dtype, Convert<float>::from(v));
        return;
    }
    MT_DISPATCH_DTYPE(dtype, S, *reinterpret_cast<S *>(p) = Convert<S>::from(v))
}

// ---- elementwise geometry ------------------------------------------------------------------------

template <int NOPS, int MAXD>
struct Geo {
    static constexpr int kMaxDims = MAXD;
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
make_geo(const mt_iter *src)
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

// The strided path of an elementwise launcher: launch(grid, geo) queues the kernel for a geometry of NOPS
// operands, the small argument struct when the dims allow (decltype(geo)::kMaxDims says which; a launch's
// template arguments hold no parentheses, for tests/c/cuda_emu/rewrite.py).
template <int NOPS, typename Launch>
int
launch_strided(int device, const mt_iter *src, Launch launch)
{
    count_path(MT_CUDA_PATH_STRIDED);
    unsigned grid = grid_for(device, src->numel);
    if (src->ndim <= kSmallDims) {
        launch(grid, make_geo<NOPS, kSmallDims>(src));
    }
    else {
        launch(grid, make_geo<NOPS, MT_MAX_DIMS>(src));
    }
    return launch_status();
}

// ---- the contiguous fast path of binary, unary, cast and fill ----------------------------------------
//
// When every operand is dense in the same order (after dropping size-1 dims and merging the others, as
// mt_iter_coalesce does) or one value for all elements (a host value passed by value, or a device
// element read once per thread), the op runs over flat indices with no offset arithmetic. The op and
// the dtypes are template arguments (a functor below), so the loop holds no switch; each thread moves
// kUnroll vectors of 16 bytes (of the widest operand) per operand per step. Operands whose addresses
// are equally misaligned for the vector width get a scalar head (the peel) before the vectors and a
// scalar tail after them; operands misaligned to each other (x[1:] + y) run the same kernel with no
// vector part. Which combinations get a kernel: each op on same-dtype operands with the natural output
// dtype, every cast pair, same-dtype copies and fills by element size; everything else takes the
// strided kernels above. That is about a hundred small kernels per architecture; more combinations
// (mixed dtypes) would multiply it, which is why they stay on the strided path.

template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
    T v[N];
};

constexpr int kUnroll = 2;
constexpr int kVectorBytes = 16;

enum { kDense = 0, kValue = 1, kDeviceScalar = 2 };

template <typename In>
struct Contig {
    char *out;
    const char *in[2];
    int mode[2];        // kDense, kValue (value[k]) or kDeviceScalar (one element at in[k])
    In value[2];
    int64_t n;
    int64_t head;       // scalar elements before the first vector
    int64_t nvec;       // whole vectors after them
};

// elements per vector: 16 bytes of the wider of the two element types
template <typename In, typename Out>
struct VectorWidth {
    static constexpr int value = kVectorBytes / (int)(sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out));
};

// The functors: In and Out element types, kInputs operands, one element's result (op_math.h's).
template <int OP, typename T>
struct BinaryF {
    typedef T In;
    typedef T Out;
    static constexpr int kInputs = 2;
    T alpha;
    __device__ __forceinline__ T operator()(T x, T y) const { return mt_binary((mt_binary_op)OP, x, y, alpha); }
};

template <int OP, typename T>
struct CompareF {
    typedef T In;
    typedef uint8_t Out;
    static constexpr int kInputs = 2;
    __device__ __forceinline__ uint8_t operator()(T x, T y) const { return mt_compare((mt_binary_op)OP, x, y); }
};

template <int OP, typename T>
struct UnaryF {
    typedef T In;
    typedef T Out;
    static constexpr int kInputs = 1;
    __device__ __forceinline__ T operator()(T x, T) const { return mt_unary((mt_unary_op)OP, x); }
};

// Any arithmetic binary op, chosen at run time: one kernel per dtype for the ops without a kernel of their
// own (pow, the divisions, atan2), as UnaryAnyF below.
template <typename T>
struct BinaryAnyF {
    typedef T In;
    typedef T Out;
    static constexpr int kInputs = 2;
    mt_binary_op op;
    T alpha;
    __device__ __forceinline__ T operator()(T x, T y) const { return mt_binary(op, x, y, alpha); }
};

// Any op with a bool result, chosen at run time: the logical ops (the comparisons have kernels of their own).
template <typename T>
struct CompareAnyF {
    typedef T In;
    typedef uint8_t Out;
    static constexpr int kInputs = 2;
    mt_binary_op op;
    __device__ __forceinline__ uint8_t operator()(T x, T y) const { return mt_compare(op, x, y); }
};

// Any unary op, chosen at run time: one kernel per dtype for the ops without a kernel of their own
// below (most of op_math.h's list), so a new unary op adds no instantiation.
template <typename T>
struct UnaryAnyF {
    typedef T In;
    typedef T Out;
    static constexpr int kInputs = 1;
    mt_unary_op op;
    __device__ __forceinline__ T operator()(T x, T) const { return mt_unary(op, x); }
};

template <typename D, typename S>
struct CastF {
    typedef S In;
    typedef D Out;
    static constexpr int kInputs = 1;
    __device__ __forceinline__ D operator()(S x, S) const { return Convert<D>::from(x); }
};

// same-dtype copies and fills move bits: U is the unsigned type of the element size
template <typename U>
struct BitsF {
    typedef U In;
    typedef U Out;
    static constexpr int kInputs = 1;
    __device__ __forceinline__ U operator()(U x, U) const { return x; }
};

template <typename U>
struct FillF {
    typedef U In;
    typedef U Out;
    static constexpr int kInputs = 0;
    U value;
    __device__ __forceinline__ U operator()(U, U) const { return value; }
};

// A float16 or bfloat16 element (D: MT_FLOAT16 or MT_BFLOAT16) as the contiguous path moves it: 16 bits,
// eight to a vector.
template <int D>
struct Reduced {
    uint16_t bits;
    Reduced() = default;
    __host__ __device__ explicit Reduced(int zero) : bits((uint16_t)zero) {}
};

// A float functor F over float16/bfloat16 storage, as the strided kernels compute those dtypes: each
// element widened to float, F applied in float, the result rounded back once (a comparison's bool stays
// bool). An operand that is a host value keeps the float the op layer converted it to (value[k]), so it
// is not rounded to 16 bits first, as in the strided kernel.
template <int D, typename F>
struct WidenedF {
    typedef Reduced<D> In;
    typedef typename std::conditional<std::is_same<typename F::Out, uint8_t>::value, uint8_t, Reduced<D>>::type Out;
    static constexpr int kInputs = F::kInputs;
    F f;
    float value[2];
    int is_value[2];
    __device__ __forceinline__ static uint8_t narrow(uint8_t r) { return r; }
    __device__ __forceinline__ static Reduced<D> narrow(float r)
    {
        Reduced<D> out;
        out.bits = mt_float_to_reduced((mt_dtype)D, r);
        return out;
    }
    __device__ __forceinline__ Out operator()(In x, In y) const
    {
        float a = is_value[0] ? value[0] : mt_reduced_to_float((mt_dtype)D, x.bits);
        float b = is_value[1] ? value[1] : mt_reduced_to_float((mt_dtype)D, y.bits);
        return narrow(f(a, b));
    }
};

// How a fast-path dispatcher turns a functor over T into the kernel's functor: Plain keeps it (operands
// of dtype T), Widen<D> wraps it in WidenedF (float16/bfloat16 operands computed in float).
struct Plain {
    template <typename T>
    using In = T;
    template <typename F>
    const F &operator()(const F &f) const { return f; }
};

template <int D>
struct Widen {
    template <typename T>
    using In = Reduced<D>;
    float value[2];
    int is_value[2];
    template <typename F>
    WidenedF<D, F> operator()(const F &f) const
    {
        WidenedF<D, F> w;
        w.f = f;
        for (int k = 0; k < 2; k++) {
            w.value[k] = value[k];
            w.is_value[k] = is_value[k];
        }
        return w;
    }
};

template <typename F>
__global__ void __launch_bounds__(kThreads)
contig_kernel(const Contig<typename F::In> g, const F f)
{
    typedef typename F::In In;
    typedef typename F::Out Out;
    constexpr int N = F::kInputs;
    constexpr int V = VectorWidth<In, Out>::value;
    In s[2] = {In(0), In(0)};
#pragma unroll
    for (int k = 0; k < N; k++) {
        s[k] = g.mode[k] == kDeviceScalar ? *reinterpret_cast<const In *>(g.in[k]) : g.value[k];
    }
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;

    // the vectors: kUnroll of them per operand loaded before any is used
    const Vec<In, V> *vin[2];
#pragma unroll
    for (int k = 0; k < 2; k++) {
        vin[k] = reinterpret_cast<const Vec<In, V> *>(g.in[k] + g.head * (int64_t)sizeof(In));
    }
    Vec<Out, V> *vout = reinterpret_cast<Vec<Out, V> *>(g.out + g.head * (int64_t)sizeof(Out));
    // the grid-stride loops stay loops: unrolled, their trip count would cost a 64-bit division, a call
    // whose saved registers ptxas spills
#pragma unroll 1
    for (int64_t v0 = tid; v0 < g.nvec; v0 += step * kUnroll) {
        Vec<In, V> x[kUnroll][2];
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            int64_t v = v0 + u * step;
#pragma unroll
            for (int k = 0; k < N; k++) {
                if (v < g.nvec && g.mode[k] == kDense) {
                    x[u][k] = vin[k][v];
                }
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            int64_t v = v0 + u * step;
            if (v < g.nvec) {
                Vec<Out, V> y;
#pragma unroll
                for (int e = 0; e < V; e++) {
                    In a = N > 0 && g.mode[0] == kDense ? x[u][0].v[e] : s[0];
                    In b = N > 1 && g.mode[1] == kDense ? x[u][1].v[e] : s[1];
                    y.v[e] = f(a, b);
                }
                vout[v] = y;
            }
        }
    }

    // the head and the tail, element by element
    const int64_t body_end = g.head + g.nvec * V;
    const int64_t rest = g.head + (g.n - body_end);
#pragma unroll 1
    for (int64_t j = tid; j < rest; j += step) {
        int64_t i = j < g.head ? j : body_end + (j - g.head);
        In a = N > 0 && g.mode[0] == kDense ? reinterpret_cast<const In *>(g.in[0])[i] : s[0];
        In b = N > 1 && g.mode[1] == kDense ? reinterpret_cast<const In *>(g.in[1])[i] : s[1];
        reinterpret_cast<Out *>(g.out)[i] = f(a, b);
    }
}

// Whether every operand of g is dense in iteration order (stride = its element size along the merged
// dims) or the same element throughout (stride 0); is_value[k] marks operands that are host values
// (no pointer). Fills `modes` (operand 0 is the output and must be dense).
bool
contiguous_operands(const mt_iter *g, int nops, const int *elem_size, const int *is_value, int *modes)
{
    for (int k = 0; k < nops; k++) {
        if (is_value[k]) {
            modes[k] = kValue;
            continue;
        }
        int64_t expected = elem_size[k];
        bool dense = true, scalar = true;
        for (int d = 0; d < g->ndim; d++) {
            if (g->shape[d] == 1) {
                continue;
            }
            dense = dense && g->strides[k][d] == expected;
            scalar = scalar && g->strides[k][d] == 0;
            expected *= g->shape[d];
        }
        if (dense) {
            modes[k] = kDense;
        }
        else if (scalar && k > 0) {
            modes[k] = kDeviceScalar;
        }
        else {
            return false;
        }
    }
    return true;
}

// Launches F over the contiguous geometry: g.out, g.in, g.mode, g.value and g.n filled by the caller.
template <typename F>
int
launch_contig(int device, Contig<typename F::In> g, const F &f)
{
    typedef typename F::In In;
    typedef typename F::Out Out;
    constexpr int V = VectorWidth<In, Out>::value;
    // one misalignment (in elements, modulo the vector width) shared by every dense operand, or none
    int64_t mis = -1;
    bool aligned = true;
    for (int k = -1; k < F::kInputs; k++) {
        if (k >= 0 && g.mode[k] != kDense) {
            continue;
        }
        uintptr_t addr = k < 0 ? (uintptr_t)g.out : (uintptr_t)g.in[k];
        size_t size = k < 0 ? sizeof(Out) : sizeof(In);
        if (addr % size != 0) {
            aligned = false;
            break;
        }
        int64_t m = (int64_t)((addr / size) % V);
        if (mis >= 0 && m != mis) {
            aligned = false;
            break;
        }
        mis = m;
    }
    if (aligned) {
        g.head = (V - (mis < 0 ? 0 : mis)) % V;
        if (g.head > g.n) {
            g.head = g.n;
        }
        g.nvec = (g.n - g.head) / V;
    }
    else {
        g.head = g.n;
        g.nvec = 0;
    }
    count_path(g.nvec > 0 ? MT_CUDA_PATH_CONTIG_VECTOR : MT_CUDA_PATH_CONTIG_SCALAR);
    int64_t scalars = g.n - g.nvec * V;
    int64_t vectors = (g.nvec + kUnroll - 1) / kUnroll;
    contig_kernel<F><<<grid_for(device, vectors > scalars ? vectors : scalars), kThreads>>>(g, f);
    return launch_status();
}

constexpr int kNotFast = -1;   // a fast-path dispatcher's answer for a combination it has no kernel for

// the arithmetic ops a dtype has (op_math.h's families): bool (uint8_t) lacks SUB, the integers lack DIV
template <int OP, typename T>
struct HasBinaryOp {
    static constexpr bool value = OP == MT_BINARY_ADD || OP == MT_BINARY_MUL || OP == MT_BINARY_MAXIMUM ||
                                  OP == MT_BINARY_MINIMUM || (OP == MT_BINARY_SUB && !std::is_same<T, uint8_t>::value) ||
                                  (OP == MT_BINARY_DIV && T(0.5) != T(0));
};

template <int OP, typename T, typename W>
int
fast_binary_op(int device, const Contig<typename W::template In<T>> &g, T alpha, const W &wrap)
{
    if constexpr (MT_BINARY_IS_COMPARISON(OP)) {
        return launch_contig(device, g, wrap(CompareF<OP, T>()));
    }
    else if constexpr (HasBinaryOp<OP, T>::value) {
        BinaryF<OP, T> f;
        f.alpha = alpha;
        return launch_contig(device, g, wrap(f));
    }
    else {
        return kNotFast;
    }
}

// The binary op pp->op over contiguous operands g (of W's element type for T): a kernel of its own for
// the common ops, one run-time switch for the rest.
template <typename T, typename W>
int
fast_binary_ops(int device, const Contig<typename W::template In<T>> &g, const mt_cuda_binary_params *pp, T alpha,
                const W &wrap)
{
    switch (pp->op) {
#define MT_FAST_BINARY_CASE_(OP)                                                                     \
    case OP:                                                                                         \
        return fast_binary_op<OP, T>(device, g, alpha, wrap);
        MT_FAST_BINARY_CASE_(MT_BINARY_ADD)
        MT_FAST_BINARY_CASE_(MT_BINARY_SUB)
        MT_FAST_BINARY_CASE_(MT_BINARY_MUL)
        MT_FAST_BINARY_CASE_(MT_BINARY_DIV)
        MT_FAST_BINARY_CASE_(MT_BINARY_MAXIMUM)
        MT_FAST_BINARY_CASE_(MT_BINARY_MINIMUM)
        MT_FAST_BINARY_CASE_(MT_BINARY_EQ)
        MT_FAST_BINARY_CASE_(MT_BINARY_NE)
        MT_FAST_BINARY_CASE_(MT_BINARY_LT)
        MT_FAST_BINARY_CASE_(MT_BINARY_LE)
        MT_FAST_BINARY_CASE_(MT_BINARY_GT)
        MT_FAST_BINARY_CASE_(MT_BINARY_GE)
#undef MT_FAST_BINARY_CASE_
    default: {
        if (MT_BINARY_IS_COMPARISON(pp->op)) {
            CompareAnyF<T> c;
            c.op = pp->op;
            return launch_contig(device, g, wrap(c));
        }
        BinaryAnyF<T> f;
        f.op = pp->op;
        f.alpha = alpha;
        return launch_contig(device, g, wrap(f));
    }
    }
}

// Float16/bfloat16 operands of a float op (the op layer computes them in float32): every operand that is
// not a host value of dtype D, the output D (bool for a comparison).
template <int D>
int
fast_binary_widened(int device, const mt_iter *src, const mt_cuda_binary_params *pp, const float value[2],
                    float alpha)
{
    const bool compare = MT_BINARY_IS_COMPARISON(pp->op);
    if (pp->out_dtype != (compare ? MT_BOOL : (mt_dtype)D)) {
        return kNotFast;
    }
    for (int k = 0; k < 2; k++) {
        if (!pp->in_is_value[k] && pp->in_dtype[k] != (mt_dtype)D) {
            return kNotFast;
        }
    }
    const int sizes[3] = {compare ? 1 : 2, 2, 2};
    const int is_value[3] = {0, pp->in_is_value[0], pp->in_is_value[1]};
    int modes[3];
    if (!contiguous_operands(src, 3, sizes, is_value, modes)) {
        return kNotFast;
    }
    Contig<Reduced<D>> g;
    Widen<D> wrap;
    g.out = src->data[0];
    g.n = src->numel;
    for (int k = 0; k < 2; k++) {
        g.in[k] = src->data[k + 1];
        g.mode[k] = modes[k + 1];
        g.value[k] = Reduced<D>(0);
        wrap.value[k] = value[k];
        wrap.is_value[k] = modes[k + 1] == kValue;
    }
    return fast_binary_ops<float>(device, g, pp, alpha, wrap);
}

template <typename T>
int
fast_binary(int device, const mt_iter *src, const mt_cuda_binary_params *pp, const T value[2], T alpha)
{
    if constexpr (std::is_same<T, float>::value) {
        // the 16-bit floating dtypes: their own storage, float arithmetic
        for (int k = 0; k < 2; k++) {
            if (!pp->in_is_value[k] && pp->in_dtype[k] == MT_FLOAT16) {
                return fast_binary_widened<MT_FLOAT16>(device, src, pp, value, alpha);
            }
            if (!pp->in_is_value[k] && pp->in_dtype[k] == MT_BFLOAT16) {
                return fast_binary_widened<MT_BFLOAT16>(device, src, pp, value, alpha);
            }
        }
    }
    const bool compare = MT_BINARY_IS_COMPARISON(pp->op);
    if (pp->in_dtype[0] != pp->dtype || pp->in_dtype[1] != pp->dtype ||
        pp->out_dtype != (compare ? MT_BOOL : pp->dtype)) {
        return kNotFast;
    }
    const int size = (int)sizeof(T);
    const int sizes[3] = {compare ? 1 : size, size, size};
    const int is_value[3] = {0, pp->in_is_value[0], pp->in_is_value[1]};
    int modes[3];
    if (!contiguous_operands(src, 3, sizes, is_value, modes)) {
        return kNotFast;
    }
    Contig<T> g;
    g.out = src->data[0];
    g.n = src->numel;
    for (int k = 0; k < 2; k++) {
        g.in[k] = src->data[k + 1];
        g.mode[k] = modes[k + 1];
        g.value[k] = value[k];
    }
    return fast_binary_ops<T>(device, g, pp, alpha, Plain());
}

template <int OP, typename T, typename W>
int
fast_unary_op(int device, const Contig<typename W::template In<T>> &g, const W &wrap)
{
    constexpr bool floating = T(0.5) != T(0);
    if constexpr (floating || OP == MT_UNARY_NEG || OP == MT_UNARY_ABS || OP == MT_UNARY_RELU) {
        return launch_contig(device, g, wrap(UnaryF<OP, T>()));
    }
    else {
        return kNotFast;
    }
}

// The unary op p->op over a contiguous operand: p->dtype's elements (Plain) or, for a float op, float16 or
// bfloat16 ones (Widen<D>).
template <typename T, typename W>
int
fast_unary_as(int device, const mt_iter *src, const mt_cuda_unary_params *p, int elem_size, const W &wrap)
{
    typedef typename W::template In<T> In;
    const int sizes[2] = {elem_size, elem_size};
    const int is_value[2] = {0, 0};
    int modes[2];
    if (!contiguous_operands(src, 2, sizes, is_value, modes)) {
        return kNotFast;
    }
    Contig<In> g;
    g.out = src->data[0];
    g.in[0] = src->data[1];
    g.in[1] = NULL;
    g.mode[0] = modes[1];
    g.mode[1] = kValue;
    g.value[0] = g.value[1] = In(0);
    g.n = src->numel;
    switch (p->op) {
#define MT_FAST_UNARY_CASE_(OP)                                                                      \
    case OP:                                                                                         \
        return fast_unary_op<OP, T>(device, g, wrap);
        MT_FAST_UNARY_CASE_(MT_UNARY_NEG)
        MT_FAST_UNARY_CASE_(MT_UNARY_ABS)
        MT_FAST_UNARY_CASE_(MT_UNARY_RELU)
        MT_FAST_UNARY_CASE_(MT_UNARY_EXP)
        MT_FAST_UNARY_CASE_(MT_UNARY_LOG)
        MT_FAST_UNARY_CASE_(MT_UNARY_SQRT)
        MT_FAST_UNARY_CASE_(MT_UNARY_RECIPROCAL)
#undef MT_FAST_UNARY_CASE_
    default: {
        UnaryAnyF<T> f;
        f.op = p->op;
        return launch_contig(device, g, wrap(f));
    }
    }
}

template <typename T>
int
fast_unary(int device, const mt_iter *src, const mt_cuda_unary_params *p)
{
    if constexpr (std::is_same<T, float>::value) {
        // float16/bfloat16 in and out, computed in float
        if (p->in_dtype == p->out_dtype && mt_dtype_is_reduced_floating(p->in_dtype)) {
            Widen<MT_FLOAT16> half;
            Widen<MT_BFLOAT16> bf16;
            half.is_value[0] = half.is_value[1] = bf16.is_value[0] = bf16.is_value[1] = 0;
            half.value[0] = half.value[1] = bf16.value[0] = bf16.value[1] = 0.0f;
            return p->in_dtype == MT_FLOAT16 ? fast_unary_as<float>(device, src, p, 2, half)
                                             : fast_unary_as<float>(device, src, p, 2, bf16);
        }
    }
    if (p->in_dtype != p->dtype || p->out_dtype != p->dtype) {
        return kNotFast;
    }
    return fast_unary_as<T>(device, src, p, (int)sizeof(T), Plain());
}

// A one-input functor over a contiguous copy (operand 1 dense or one device element).
template <typename F>
int
fast_one_input(int device, const mt_iter *src, const F &f)
{
    const int sizes[2] = {(int)sizeof(typename F::Out), (int)sizeof(typename F::In)};
    const int is_value[2] = {0, 0};
    int modes[2];
    if (!contiguous_operands(src, 2, sizes, is_value, modes)) {
        return kNotFast;
    }
    Contig<typename F::In> g;
    g.out = src->data[0];
    g.in[0] = src->data[1];
    g.in[1] = NULL;
    g.mode[0] = modes[1];
    g.mode[1] = kValue;
    g.value[0] = g.value[1] = typename F::In(0);
    g.n = src->numel;
    return launch_contig(device, g, f);
}

template <typename D>
int
fast_cast_to(int device, const mt_iter *src, mt_dtype src_dtype)
{
    // equal dtypes are copies of bits (BitsF), so CastF<D, D> is never instantiated
    MT_DISPATCH_DTYPE(src_dtype, S, if constexpr (!std::is_same<D, S>::value) {
        return fast_one_input(device, src, CastF<D, S>());
    })
    return kNotFast;
}

// Casts into or out of float16/bfloat16 go through float, as cast_kernel's load_as/store_as do.
template <typename T>
__device__ __forceinline__ float
widen_to_float(T x)
{
    return Convert<float>::from(x);
}

template <int D>
__device__ __forceinline__ float
widen_to_float(Reduced<D> x)
{
    return mt_reduced_to_float((mt_dtype)D, x.bits);
}

template <typename T>
struct NarrowFromFloat {
    __device__ __forceinline__ static T from(float v) { return Convert<T>::from(v); }
};

template <int D>
struct NarrowFromFloat<Reduced<D>> {
    __device__ __forceinline__ static Reduced<D> from(float v)
    {
        Reduced<D> r;
        r.bits = mt_float_to_reduced((mt_dtype)D, v);
        return r;
    }
};

template <typename D, typename S>
struct ViaFloatCastF {
    typedef S In;
    typedef D Out;
    static constexpr int kInputs = 1;
    __device__ __forceinline__ D operator()(S x, S) const { return NarrowFromFloat<D>::from(widen_to_float(x)); }
};

template <typename D, typename S>
int
fast_cast_pair(int device, const mt_iter *src)
{
    if constexpr ((sizeof(D) == 2 || sizeof(S) == 2) && !std::is_same<D, S>::value) {
        return fast_one_input(device, src, ViaFloatCastF<D, S>());
    }
    else {
        return kNotFast;
    }
}

// A contiguous cast into D from the floating dtype src_dtype (float16, bfloat16, float32 or float64).
template <typename D>
int
fast_cast_into(int device, const mt_iter *src, mt_dtype src_dtype)
{
    switch (src_dtype) {
    case MT_FLOAT16:
        return fast_cast_pair<D, Reduced<MT_FLOAT16>>(device, src);
    case MT_BFLOAT16:
        return fast_cast_pair<D, Reduced<MT_BFLOAT16>>(device, src);
    case MT_FLOAT32:
        return fast_cast_pair<D, float>(device, src);
    case MT_FLOAT64:
        return fast_cast_pair<D, double>(device, src);
    default:
        return kNotFast;
    }
}

// A contiguous cast between two different floating dtypes, at least one of them 16-bit (the other casts
// are fast_cast_to's); kNotFast for any other pair.
int
fast_cast_widened(int device, const mt_iter *src, mt_dtype dst_dtype, mt_dtype src_dtype)
{
    switch (dst_dtype) {
    case MT_FLOAT16:
        return fast_cast_into<Reduced<MT_FLOAT16>>(device, src, src_dtype);
    case MT_BFLOAT16:
        return fast_cast_into<Reduced<MT_BFLOAT16>>(device, src, src_dtype);
    case MT_FLOAT32:
        return fast_cast_into<float>(device, src, src_dtype);
    case MT_FLOAT64:
        return fast_cast_into<double>(device, src, src_dtype);
    default:
        return kNotFast;
    }
}

template <typename U>
int
fast_fill(int device, const mt_iter *src, U bits)
{
    const int sizes[1] = {(int)sizeof(U)};
    const int is_value[1] = {0};
    int modes[1];
    if (!contiguous_operands(src, 1, sizes, is_value, modes)) {
        return kNotFast;
    }
    Contig<U> g;
    g.out = src->data[0];
    g.in[0] = g.in[1] = NULL;
    g.mode[0] = g.mode[1] = kValue;
    g.value[0] = g.value[1] = U(0);
    g.n = src->numel;
    FillF<U> f;
    f.value = bits;
    return launch_contig(device, g, f);
}

// ---- binary ops (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_binary) -----------------------

template <typename T>
struct BinaryArgs {
    mt_binary_op op;
    mt_dtype out_dtype;
    mt_dtype in_dtype[2];
    int in_is_value[2];
    T in_value[2];
    T alpha;
};

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
        if (MT_BINARY_IS_COMPARISON(p.op)) {
            store_as<uint8_t>(g.data[0] + off[0], p.out_dtype, mt_compare(p.op, x, y));
        }
        else {
            store_as<T>(g.data[0] + off[0], p.out_dtype, mt_binary(p.op, x, y, p.alpha));
        }
    }
}

template <typename T>
int
launch_binary_typed(int device, const mt_iter *src, const mt_cuda_binary_params *pp)
{
    BinaryArgs<T> p;
    p.op = pp->op;
    p.out_dtype = pp->out_dtype;
    for (int k = 0; k < 2; k++) {
        p.in_dtype[k] = pp->in_dtype[k];
        p.in_is_value[k] = pp->in_is_value[k];
        // a value passed by value is converted here, on the host, with the device's conversions
        p.in_value[k] = pp->in_is_value[k] ? load_as<T>(reinterpret_cast<const char *>(pp->in_value[k].bytes),
                                                        pp->in_dtype[k])
                                           : T(0);
    }
    if (mt_dtype_is_floating(pp->dtype)) {
        p.alpha = static_cast<T>(pp->alpha_f);
    }
    else {
        p.alpha = Convert<T>::from(pp->alpha_i);
    }
    int fast = fast_binary<T>(device, src, pp, p.in_value, p.alpha);
    if (fast != kNotFast) {
        return fast;
    }
    return launch_strided<3>(device, src, [&](unsigned grid, auto g) {
        constexpr int D = decltype(g)::kMaxDims;
        binary_kernel<T, D><<<grid, kThreads>>>(g, src->numel, p);
    });
}

// ---- where (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_where) ------------------------------
// One kernel per element size (the values move as bits), over the strided geometry only.

template <typename U>
struct WhereArgs {
    int is_value[3];
    U value[3];     // value[0]: the condition (0 or 1)
};

template <typename U, int MAXD>
__global__ void
where_kernel(const __grid_constant__ Geo<4, MAXD> g, int64_t n, const __grid_constant__ WhereArgs<U> p)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[4];
        offsets<4, MAXD>(g, i, off);
        bool c = p.is_value[0] ? p.value[0] != 0 : *reinterpret_cast<const uint8_t *>(g.data[1] + off[1]) != 0;
        int k = c ? 1 : 2;
        U v = p.is_value[k] ? p.value[k] : *reinterpret_cast<const U *>(g.data[k + 1] + off[k + 1]);
        *reinterpret_cast<U *>(g.data[0] + off[0]) = v;
    }
}

template <typename U>
int
launch_where_typed(int device, const mt_iter *src, const mt_cuda_where_params *pp)
{
    WhereArgs<U> p;
    for (int k = 0; k < 3; k++) {
        p.is_value[k] = pp->is_value[k];
        p.value[k] = U(0);
        if (pp->is_value[k]) {
            memcpy(&p.value[k], pp->value[k].bytes, k == 0 ? 1 : sizeof(U));
        }
    }
    return launch_strided<4>(device, src, [&](unsigned grid, auto g) {
        constexpr int D = decltype(g)::kMaxDims;
        where_kernel<U, D><<<grid, kThreads>>>(g, src->numel, p);
    });
}

// ---- fma (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_fma) --------------------------------

template <typename T>
struct FmaArgs {
    int is_value[3];
    T value[3];
};

template <typename T, int MAXD>
__global__ void
fma_kernel(const __grid_constant__ Geo<4, MAXD> g, int64_t n, const __grid_constant__ FmaArgs<T> p)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[4];
        T v[3];
        offsets<4, MAXD>(g, i, off);
        for (int k = 0; k < 3; k++) {
            v[k] = p.is_value[k] ? p.value[k] : *reinterpret_cast<const T *>(g.data[k + 1] + off[k + 1]);
        }
        *reinterpret_cast<T *>(g.data[0] + off[0]) = mt_muladd(v[0], v[1], v[2]);
    }
}

template <typename T>
int
launch_fma_typed(int device, const mt_iter *src, const mt_cuda_fma_params *pp)
{
    FmaArgs<T> p;
    for (int k = 0; k < 3; k++) {
        p.is_value[k] = pp->is_value[k];
        p.value[k] = T(0);
        if (pp->is_value[k]) {
            memcpy(&p.value[k], pp->value[k].bytes, sizeof(T));
        }
    }
    return launch_strided<4>(device, src, [&](unsigned grid, auto g) {
        constexpr int D = decltype(g)::kMaxDims;
        fma_kernel<T, D><<<grid, kThreads>>>(g, src->numel, p);
    });
}

// ---- unary ops (reference: csrc/kernels/cpu/elementwise.c, mt_cpu_unary) -------------------------

template <typename T, int MAXD>
__global__ void
unary_kernel(const __grid_constant__ Geo<2, MAXD> g, int64_t n, mt_unary_op op, mt_dtype out_dtype, mt_dtype in_dtype)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[2];
        offsets<2, MAXD>(g, i, off);
        T x = load_as<T>(g.data[1] + off[1], in_dtype);
        store_as<T>(g.data[0] + off[0], out_dtype, mt_unary(op, x));
    }
}

template <typename T>
int
launch_unary_typed(int device, const mt_iter *src, const mt_cuda_unary_params *p)
{
    int fast = fast_unary<T>(device, src, p);
    if (fast != kNotFast) {
        return fast;
    }
    return launch_strided<2>(device, src, [&](unsigned grid, auto g) {
        constexpr int D = decltype(g)::kMaxDims;
        unary_kernel<T, D><<<grid, kThreads>>>(g, src->numel, p->op, p->out_dtype, p->in_dtype);
    });
}

// ---- copy with conversion (reference: csrc/kernels/cpu/cast.c) and fill ----------------------

// Moves one element of itemsize 8, 4, 2 or 1 bytes as bits (a NaN's payload survives, as memcpy keeps it).
__device__ __forceinline__ void
copy_bits(char *d, const char *s, int itemsize)
{
    if (itemsize == 8) {
        *reinterpret_cast<uint64_t *>(d) = *reinterpret_cast<const uint64_t *>(s);
    }
    else if (itemsize == 4) {
        *reinterpret_cast<uint32_t *>(d) = *reinterpret_cast<const uint32_t *>(s);
    }
    else if (itemsize == 2) {
        *reinterpret_cast<uint16_t *>(d) = *reinterpret_cast<const uint16_t *>(s);
    }
    else {
        *d = *s;
    }
}

template <int MAXD>
__global__ void
cast_kernel(const __grid_constant__ Geo<2, MAXD> g, int64_t n, mt_dtype dst_dtype, mt_dtype src_dtype, int itemsize)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t off[2];
        offsets<2, MAXD>(g, i, off);
        char *d = g.data[0] + off[0];
        const char *s = g.data[1] + off[1];
        if (dst_dtype == src_dtype) {
            copy_bits(d, s, itemsize);
            continue;
        }
        if (mt_dtype_is_reduced_floating(dst_dtype)) {
            store_as<float>(d, dst_dtype, load_as<float>(s, src_dtype));
            continue;
        }
        MT_DISPATCH_DTYPE(dst_dtype, D, *reinterpret_cast<D *>(d) = load_as<D>(s, src_dtype))
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
        else if (itemsize == 2) {
            *reinterpret_cast<uint16_t *>(d) = (uint16_t)bits;
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
    int64_t out_shape[MT_MAX_DIMS];
    int64_t out_strides[MT_MAX_DIMS];
    int64_t red_shape[MT_MAX_DIMS];
    int64_t red_strides[MT_MAX_DIMS];
};

struct RedArgs {
    mt_reduce_op op;
    mt_dtype in_dtype;
    mt_dtype out_dtype;
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
red_identity(mt_reduce_op op)
{
    Acc<A> a;
    a.v = (op == MT_REDUCE_ALL) ? A(1) : A(0);
    a.i = -1;
    return a;
}

// Combines two partial results (op_math.h's steps). MAX/MIN and ARG*: the winner by argmax's rule
// applied in index order (a NaN wins; ties and NaNs keep the lower index), so the result does not
// depend on how the elements were split among threads.
template <typename A>
__device__ __forceinline__ Acc<A>
red_combine(mt_reduce_op op, Acc<A> a, Acc<A> b)
{
    switch (op) {
    case MT_REDUCE_SUM:
        a.v = mt_sum(a.v, b.v);
        return a;
    case MT_REDUCE_ALL:
        a.v = mt_all_step(a.v, b.v);
        return a;
    case MT_REDUCE_ANY:
        a.v = mt_any_step(a.v, b.v);
        return a;
    default: {
        if (a.i < 0) {
            return b;
        }
        if (b.i < 0) {
            return a;
        }
        const Acc<A> &first = a.i <= b.i ? a : b;
        const Acc<A> &later = a.i <= b.i ? b : a;
        return mt_arg_better(op == MT_REDUCE_MAX || op == MT_REDUCE_ARGMAX, later.v, first.v) ? later : first;
    }
    }
}

template <typename A>
__device__ __forceinline__ void
red_write(const RedArgs &p, int64_t o, Acc<A> acc)
{
    switch (p.op) {
    case MT_REDUCE_SUM: {
        A v = acc.v;
        if (p.mean_factor != 0.0) {
            v = v * static_cast<A>(p.mean_factor);
        }
        store_as<A>(p.values + o * mt_dtype_size(p.out_dtype), p.out_dtype, v);
        break;
    }
    case MT_REDUCE_ALL:
    case MT_REDUCE_ANY:
        reinterpret_cast<uint8_t *>(p.values)[o] = acc.v ? 1 : 0;
        break;
    default:
        if (p.indices != NULL) {
            p.indices[o] = acc.i;
        }
        if (p.values != NULL) {
            store_as<A>(p.values + o * mt_dtype_size(p.out_dtype), p.out_dtype, acc.v);
        }
        break;
    }
}

// Reduces the G values of a group held in buf[base .. base+G) into buf[base]; every thread of the
// block calls it (it synchronizes).
template <typename A>
__device__ __forceinline__ void
group_reduce(mt_reduce_op op, Acc<A> *buf, int group, int lane)
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
    const bool track_index = p.op != MT_REDUCE_SUM && p.op != MT_REDUCE_ALL && p.op != MT_REDUCE_ANY;
    Acc<A> acc = red_identity<A>(p.op);

    if (active) {
        const char *base = p.data;
        int64_t obase = row_major_offset(o, g.out_ndim, g.out_shape, g.out_strides);
        int64_t r0 = (int64_t)split * p.chunk;
        int64_t r1 = r0 + p.chunk < p.reduced ? r0 + p.chunk : p.reduced;
        int isize = (int)mt_dtype_size(p.in_dtype);
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
    mt_dtype d = p->op == MT_REDUCE_SUM ? p->out_dtype : p->in_dtype;
    if (p->op == MT_REDUCE_ALL || p->op == MT_REDUCE_ANY) {
        return ACC_BOOL;
    }
    switch (d) {
    case MT_FLOAT32:
        return ACC_FLOAT;
    case MT_FLOAT64:
        return ACC_DOUBLE;
    case MT_BOOL:
        return p->op == MT_REDUCE_SUM ? ACC_INT64 : ACC_BOOL;
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

// ---- sums over contiguous rows and columns -------------------------------------------------------
//
// A sum (or mean) whose reduced dims merge into one (R elements, stride rs) and whose output dims are
// rows (rs == 1: A rows anywhere in memory) or columns (an inner output dim of stride 1 and B elements,
// under at most one more output dim of A) takes one of two kernels with the dtypes fixed at compile time
// and vector loads; any other reduction, and MAX/MIN/ALL/ANY/ARG*, take the general kernel above.
//   rows:    a group of 32..256 threads per row (warp shuffles, then shared memory across the warps);
//            each thread peels to 16-byte alignment and then reads whole vectors;
//   columns: a block of 32 x 8 threads covers 32 (or 32 vectors of) neighbouring outputs; the 8 rows of
//            threads take every 8th reduced element and are summed in shared memory in a fixed order.
// When these give too few blocks to fill the GPU, the reduced range is split across gridDim.y and each
// split's partial sums go to scratch memory (rows: [A][nsplit]; columns: [nsplit][A*B]); the second pass
// is the same kernel reading the partials (In = Acc) and writing the result. The accumulator is torch's
// CUDA one: float for float32 (op_math.h's float sum), double for float64, int64 (wrapping) for
// integers; the output dtype is the accumulator's. The summation order is fixed by the launch plan, so
// results repeat run to run.

struct SumGeo {
    int kind;           // 0: not this path; 1: rows; 2: columns
    int64_t a, r, b;    // A, R, B
    int64_t a_stride;   // elements between rows (rows) or between groups of B columns (columns)
    int64_t r_stride;   // elements between reduced elements (1 for rows)
};

struct SumPlan {
    SumGeo geo;
    int group;          // rows: threads per row
    int vec;            // columns: 1 when the columns are read as vectors
    int nsplit;
    int64_t chunk;      // reduced elements per split
    int64_t col_blocks; // columns: blocks across one group of B columns
    unsigned grid_x;
    size_t acc_size;
};

struct SumArgs {
    const char *data;
    char *out;
    int64_t a, r, b, a_stride, r_stride;
    int group;
    int vec;
    int nsplit;
    int64_t chunk;
    int64_t col_blocks;
    double mean_factor;   // applied by the pass that writes the result (0: none)
};

// The sum of v over the `group` threads (a multiple of 32 up to kThreads, the same for the whole block),
// valid in the group's first thread. Every thread of the block calls it, once per kernel.
template <typename Acc>
__device__ __forceinline__ Acc
group_sum(Acc v, int group)
{
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
        v = mt_sum(v, __shfl_down_sync(0xffffffffu, v, o));
    }
    if (group == 32) {
        return v;
    }
    __shared__ Acc warp_sums[kThreads / 32];
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) {
        warp_sums[warp] = v;
    }
    __syncthreads();
    Acc r = Acc(0);
    if (threadIdx.x % group == 0) {
        for (int w = 0; w < group / 32; w++) {
            r = mt_sum(r, warp_sums[warp + w]);
        }
    }
    return r;
}

template <typename Acc>
__device__ __forceinline__ Acc
sum_result(const SumArgs &p, Acc v)
{
    return p.mean_factor != 0.0 ? v * static_cast<Acc>(p.mean_factor) : v;
}

template <typename In, typename Acc>
__global__ void __launch_bounds__(kThreads)
sum_rows_kernel(const SumArgs p)
{
    constexpr int V = kVectorBytes / (int)sizeof(In);
    const int group = p.group;
    const int lane = threadIdx.x % group;
    const int64_t row = (int64_t)blockIdx.x * (kThreads / group) + threadIdx.x / group;
    Acc acc = Acc(0);
    if (row < p.a) {
        const int64_t r0 = (int64_t)blockIdx.y * p.chunk;
        const int64_t len = (r0 + p.chunk < p.r ? r0 + p.chunk : p.r) - r0;
        const In *x = reinterpret_cast<const In *>(p.data) + row * p.a_stride + r0;
        uintptr_t addr = (uintptr_t)x;
        int64_t head = addr % sizeof(In) != 0 ? len : (int64_t)((kVectorBytes - addr % kVectorBytes) % kVectorBytes / sizeof(In));
        if (head > len) {
            head = len;
        }
        for (int64_t j = lane; j < head; j += group) {
            acc = mt_sum(acc, static_cast<Acc>(x[j]));
        }
        const int64_t nvec = (len - head) / V;
        const Vec<In, V> *xv = reinterpret_cast<const Vec<In, V> *>(x + head);
        Acc part[V];
#pragma unroll
        for (int e = 0; e < V; e++) {
            part[e] = Acc(0);
        }
        for (int64_t v = lane; v < nvec; v += group) {
            Vec<In, V> t = xv[v];
#pragma unroll
            for (int e = 0; e < V; e++) {
                part[e] = mt_sum(part[e], static_cast<Acc>(t.v[e]));
            }
        }
#pragma unroll
        for (int e = 0; e < V; e++) {
            acc = mt_sum(acc, part[e]);
        }
        for (int64_t j = head + nvec * V + lane; j < len; j += group) {
            acc = mt_sum(acc, static_cast<Acc>(x[j]));
        }
    }
    acc = group_sum<Acc>(acc, group);
    if (row < p.a && lane == 0) {
        Acc *out = reinterpret_cast<Acc *>(p.out);
        if (p.nsplit == 1) {
            out[row] = sum_result<Acc>(p, acc);
        }
        else {
            out[row * p.nsplit + blockIdx.y] = acc;
        }
    }
}

template <typename In, typename Acc>
__global__ void __launch_bounds__(kThreads)
sum_columns_kernel(const SumArgs p)
{
    constexpr int V = kVectorBytes / (int)sizeof(In);
    constexpr int kRows = kThreads / 32;
    __shared__ Acc parts[kRows][32 * V];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t a = blockIdx.x / p.col_blocks;
    const int width = p.vec ? V : 1;
    const int64_t b0 = ((int64_t)(blockIdx.x % p.col_blocks) * 32 + tx) * width;
    const int64_t r0 = (int64_t)blockIdx.y * p.chunk;
    const int64_t r1 = r0 + p.chunk < p.r ? r0 + p.chunk : p.r;
    const In *base = reinterpret_cast<const In *>(p.data) + a * p.a_stride + b0;
    Acc acc[V];
#pragma unroll
    for (int e = 0; e < V; e++) {
        acc[e] = Acc(0);
    }
    if (b0 < p.b) {
        if (p.vec) {
            for (int64_t r = r0 + ty; r < r1; r += kRows) {
                Vec<In, V> t = *reinterpret_cast<const Vec<In, V> *>(base + r * p.r_stride);
#pragma unroll
                for (int e = 0; e < V; e++) {
                    acc[e] = mt_sum(acc[e], static_cast<Acc>(t.v[e]));
                }
            }
        }
        else {
            for (int64_t r = r0 + ty; r < r1; r += kRows) {
                acc[0] = mt_sum(acc[0], static_cast<Acc>(base[r * p.r_stride]));
            }
        }
    }
#pragma unroll
    for (int e = 0; e < V; e++) {
        parts[ty][tx * V + e] = acc[e];
    }
    __syncthreads();
    if (ty == 0 && b0 < p.b) {
        Acc *out = reinterpret_cast<Acc *>(p.out);
        const int64_t outputs = p.a * p.b;
        for (int e = 0; e < width; e++) {
            Acc sum = Acc(0);
            for (int y = 0; y < kRows; y++) {
                sum = mt_sum(sum, parts[y][tx * V + e]);
            }
            const int64_t o = a * p.b + b0 + e;
            if (p.nsplit == 1) {
                out[o] = sum_result<Acc>(p, sum);
            }
            else {
                out[(int64_t)blockIdx.y * outputs + o] = sum;
            }
        }
    }
}

// Drops size-1 dims and merges neighbours that step through memory as one dim (outermost first).
int
merge_dims(int n, const int64_t *shape, const int64_t *strides, int64_t *mshape, int64_t *mstrides)
{
    int m = 0;
    for (int d = 0; d < n; d++) {
        if (shape[d] == 1) {
            continue;
        }
        if (m > 0 && mstrides[m - 1] == strides[d] * shape[d]) {
            mshape[m - 1] *= shape[d];
            mstrides[m - 1] = strides[d];
            continue;
        }
        mshape[m] = shape[d];
        mstrides[m] = strides[d];
        m++;
    }
    return m;
}

// The (in, accumulator) dtype pairs with a sum kernel: 0 for none, else a small number naming the pair.
enum { SUM_NONE, SUM_F32, SUM_F64, SUM_I64, SUM_I32_I64 };

int
sum_types(const mt_cuda_reduce_params *p)
{
    if (p->op != MT_REDUCE_SUM) {
        return SUM_NONE;
    }
    if (p->in_dtype == MT_FLOAT32 && p->out_dtype == MT_FLOAT32) {
        return SUM_F32;
    }
    if (p->in_dtype == MT_FLOAT64 && p->out_dtype == MT_FLOAT64) {
        return SUM_F64;
    }
    if (p->in_dtype == MT_INT64 && p->out_dtype == MT_INT64) {
        return SUM_I64;
    }
    if (p->in_dtype == MT_INT32 && p->out_dtype == MT_INT64) {
        return SUM_I32_I64;
    }
    return SUM_NONE;
}

SumGeo
sum_geo(const mt_cuda_reduce_params *p)
{
    SumGeo g;
    int64_t oshape[MT_MAX_DIMS], ostrides[MT_MAX_DIMS], rshape[MT_MAX_DIMS], rstrides[MT_MAX_DIMS];
    g.kind = 0;
    if (sum_types(p) == SUM_NONE) {
        return g;
    }
    int no = merge_dims(p->out_ndim, p->out_shape, p->out_strides, oshape, ostrides);
    int nr = merge_dims(p->red_ndim, p->red_shape, p->red_strides, rshape, rstrides);
    if (nr != 1 || rshape[0] <= 0) {
        return g;
    }
    g.r = rshape[0];
    g.r_stride = rstrides[0];
    if (g.r_stride == 1 && no <= 1) {
        g.kind = 1;
        g.a = no == 1 ? oshape[0] : 1;
        g.a_stride = no == 1 ? ostrides[0] : 0;
        g.b = 1;
    }
    else if (g.r_stride != 1 && (no == 1 || no == 2) && ostrides[no - 1] == 1) {
        g.kind = 2;
        g.b = oshape[no - 1];
        g.a = no == 2 ? oshape[0] : 1;
        g.a_stride = no == 2 ? ostrides[0] : 0;
    }
    return g;
}

// The launch plan of a sum on this path; plan.geo.kind == 0 when it does not apply.
SumPlan
plan_sum(int device, const mt_cuda_reduce_params *p)
{
    SumPlan plan;
    plan.geo = sum_geo(p);
    plan.nsplit = 1;
    if (plan.geo.kind == 0) {
        return plan;
    }
    const SumGeo &g = plan.geo;
    const int types = sum_types(p);
    const int in_size = (int)mt_dtype_size(p->in_dtype);
    const int v = kVectorBytes / in_size;
    const int64_t target = (int64_t)sm_count(device) * 8;   // blocks for about one full wave
    int64_t blocks, nsplit = 1;
    plan.acc_size = types == SUM_F32 ? sizeof(float) : 8;
    plan.group = 32;
    plan.vec = 0;
    plan.col_blocks = 1;
    if (g.kind == 1) {
        while (plan.group < kThreads && (int64_t)plan.group * v * 8 < g.r) {
            plan.group *= 2;
        }
        int64_t per_block = kThreads / plan.group;
        blocks = (g.a + per_block - 1) / per_block;
        if (blocks < target && g.r > (int64_t)plan.group * v * 32) {
            nsplit = (target + blocks - 1) / blocks;
            int64_t by_work = g.r / ((int64_t)plan.group * v * 16);
            nsplit = nsplit < by_work ? nsplit : by_work;
        }
    }
    else {
        plan.vec = v > 1 && g.b % v == 0 && (uintptr_t)p->data % kVectorBytes == 0 && g.a_stride % v == 0 &&
                   g.r_stride % v == 0;
        int64_t width = plan.vec ? v : 1;
        plan.col_blocks = (g.b + 32 * width - 1) / (32 * width);
        blocks = g.a * plan.col_blocks;
        if (blocks < target && g.r > (int64_t)(kThreads / 32) * 64) {
            nsplit = (target + blocks - 1) / blocks;
            int64_t by_work = g.r / ((kThreads / 32) * 32);
            nsplit = nsplit < by_work ? nsplit : by_work;
        }
    }
    if (blocks > 0x7fffffff) {
        plan.geo.kind = 0;
        return plan;
    }
    nsplit = nsplit < 1 ? 1 : (nsplit > 1024 ? 1024 : nsplit);
    plan.chunk = (g.r + nsplit - 1) / nsplit;
    if (g.kind == 1) {
        plan.chunk = (plan.chunk + v - 1) / v * v;   // every split but the first starts aligned like the first
    }
    plan.nsplit = (int)((g.r + plan.chunk - 1) / plan.chunk);
    plan.grid_x = (unsigned)blocks;
    return plan;
}

size_t
sum_scratch_bytes(const SumPlan &plan)
{
    return plan.nsplit > 1 ? (size_t)(plan.geo.a * plan.geo.b) * (size_t)plan.nsplit * plan.acc_size : 0;
}

template <typename In, typename Acc>
int
launch_sum(const SumPlan &plan, const mt_cuda_reduce_params *p, void *scratch)
{
    const SumGeo &g = plan.geo;
    const bool split = plan.nsplit > 1;
    SumArgs args;
    args.data = p->data;
    args.out = split ? static_cast<char *>(scratch) : p->values;
    args.a = g.a;
    args.r = g.r;
    args.b = g.b;
    args.a_stride = g.a_stride;
    args.r_stride = g.r_stride;
    args.group = plan.group;
    args.vec = plan.vec;
    args.nsplit = plan.nsplit;
    args.chunk = plan.chunk;
    args.col_blocks = plan.col_blocks;
    args.mean_factor = split ? 0.0 : p->mean_factor;
    dim3 grid(plan.grid_x, (unsigned)plan.nsplit);
    if (g.kind == 1) {
        count_path(MT_CUDA_PATH_REDUCE_ROWS);
        sum_rows_kernel<In, Acc><<<grid, kThreads>>>(args);
    }
    else {
        count_path(MT_CUDA_PATH_REDUCE_COLUMNS);
        dim3 block(32, kThreads / 32);
        sum_columns_kernel<In, Acc><<<grid, block>>>(args);
    }
    int err = launch_status();
    if (err != 0 || !split) {
        return err;
    }
    // the second pass: the partial sums are a sum of the same kind, read from scratch
    count_path(MT_CUDA_PATH_REDUCE_SECOND_PASS);
    SumArgs fin = args;
    constexpr int v = kVectorBytes / (int)sizeof(Acc);
    fin.data = static_cast<const char *>(scratch);
    fin.out = p->values;
    fin.nsplit = 1;
    fin.chunk = plan.nsplit;
    fin.r = plan.nsplit;
    fin.mean_factor = p->mean_factor;
    if (g.kind == 1) {
        fin.a_stride = plan.nsplit;
        fin.r_stride = 1;
        fin.group = 32;
        sum_rows_kernel<Acc, Acc><<<(unsigned)((g.a + kThreads / 32 - 1) / (kThreads / 32)), kThreads>>>(fin);
    }
    else {
        const int64_t outputs = g.a * g.b;
        fin.a = 1;
        fin.b = outputs;
        fin.a_stride = 0;
        fin.r_stride = outputs;
        fin.vec = v > 1 && outputs % v == 0;
        const int64_t width = fin.vec ? v : 1;
        fin.col_blocks = (outputs + 32 * width - 1) / (32 * width);
        dim3 block(32, kThreads / 32);
        sum_columns_kernel<Acc, Acc><<<(unsigned)fin.col_blocks, block>>>(fin);
    }
    return launch_status();
}

int
launch_sum_typed(const SumPlan &plan, const mt_cuda_reduce_params *p, void *scratch)
{
    switch (sum_types(p)) {
    case SUM_F32:
        return launch_sum<float, float>(plan, p, scratch);
    case SUM_F64:
        return launch_sum<double, double>(plan, p, scratch);
    case SUM_I64:
        return launch_sum<int64_t, int64_t>(plan, p, scratch);
    default:
        return launch_sum<int32_t, int64_t>(plan, p, scratch);
    }
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
philox_randint_kernel(char *out, mt_dtype dtype, int64_t n, uint64_t seed, uint64_t offset, uint64_t range, int64_t low)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int size = (int)mt_dtype_size(dtype);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t v = mt_philox_randint(seed, offset, (uint64_t)i, range, low);
        store_as<int64_t>(out + i * size, dtype, v);
    }
}

// ---- advanced indexing (reference: csrc/kernels/cpu/index.c, mt_cpu_index) ------------------------
// One thread per element (o, b, a); the element is moved as bits.

__global__ void
index_kernel(const __grid_constant__ mt_cuda_index_params p, int64_t n, int64_t nafter)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t a = i % nafter;
        int64_t ob = i / nafter;
        int64_t b = ob % p.nb;
        int64_t o = ob / p.nb;
        int64_t s = p.offsets[b];
        int64_t x = p.offsets[p.nb + b];
        for (int d = p.ndim - 1; d >= p.nbefore; d--) {
            int64_t q = a / p.shape[d];
            s += (a - q * p.shape[d]) * p.self_strides[d];
            x += (a - q * p.shape[d]) * p.other_strides[d];
            a = q;
        }
        for (int d = p.nbefore - 1; d >= 0; d--) {
            int64_t q = o / p.shape[d];
            s += (o - q * p.shape[d]) * p.self_strides[d];
            x += (o - q * p.shape[d]) * p.other_strides[d];
            o = q;
        }
        char *t = p.self + s * p.itemsize;
        if (!p.scatter) {
            copy_bits(p.other + x * p.itemsize, t, p.itemsize);
        }
        else if (p.other_is_value) {
            copy_bits(t, reinterpret_cast<const char *>(p.value.bytes), p.itemsize);
        }
        else {
            copy_bits(t, p.other + x * p.itemsize, p.itemsize);
        }
    }
}

}  // namespace

// ---- the C-callable launchers (cuda_kernels.h) ---------------------------------------------------

extern "C" int
mt_cuda_launch_binary(int device, const mt_iter *g, const mt_cuda_binary_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    MT_DISPATCH_DTYPE(p->dtype, T, return launch_binary_typed<T>(device, g, p))
    return (int)cudaErrorInvalidValue;
}

extern "C" int
mt_cuda_launch_where(int device, const mt_iter *g, const mt_cuda_where_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    switch (p->itemsize) {
    case 1:
        return launch_where_typed<uint8_t>(device, g, p);
    case 2:
        return launch_where_typed<uint16_t>(device, g, p);
    case 4:
        return launch_where_typed<uint32_t>(device, g, p);
    default:
        return launch_where_typed<uint64_t>(device, g, p);
    }
}

extern "C" int
mt_cuda_launch_fma(int device, const mt_iter *g, const mt_cuda_fma_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    return p->dtype == MT_FLOAT32 ? launch_fma_typed<float>(device, g, p) : launch_fma_typed<double>(device, g, p);
}

int
mt_cuda_launch_unary(int device, const mt_iter *g, const mt_cuda_unary_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    switch (p->dtype) {
    case MT_BOOL: // the bitwise and predicate ops (op_math.h: MT_UNARY_BOOL_OPS)
        return launch_unary_typed<uint8_t>(device, g, p);
    case MT_UINT8:
        return launch_unary_typed<mt_u8>(device, g, p);
    case MT_INT8:
        return launch_unary_typed<int8_t>(device, g, p);
    case MT_INT16:
        return launch_unary_typed<int16_t>(device, g, p);
    case MT_INT32:
        return launch_unary_typed<int32_t>(device, g, p);
    case MT_INT64:
        return launch_unary_typed<int64_t>(device, g, p);
    case MT_FLOAT32:
        return launch_unary_typed<float>(device, g, p);
    case MT_FLOAT64:
        return launch_unary_typed<double>(device, g, p);
    default:
        return (int)cudaErrorInvalidValue;
    }
}

extern "C" int
mt_cuda_launch_cast(int device, const mt_iter *g, mt_dtype dst_dtype, mt_dtype src_dtype)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    int fast = kNotFast;
    if (dst_dtype == src_dtype) {
        switch (mt_dtype_size(dst_dtype)) {
        case 8:
            fast = fast_one_input(device, g, BitsF<uint64_t>());
            break;
        case 4:
            fast = fast_one_input(device, g, BitsF<uint32_t>());
            break;
        case 2:
            fast = fast_one_input(device, g, BitsF<uint16_t>());
            break;
        default:
            fast = fast_one_input(device, g, BitsF<uint8_t>());
            break;
        }
    }
    else if (mt_dtype_is_reduced_floating(dst_dtype) || mt_dtype_is_reduced_floating(src_dtype)) {
        fast = fast_cast_widened(device, g, dst_dtype, src_dtype);
    }
    else {
        MT_DISPATCH_DTYPE(dst_dtype, D, fast = fast_cast_to<D>(device, g, src_dtype))
    }
    if (fast != kNotFast) {
        return fast;
    }
    int itemsize = (int)mt_dtype_size(dst_dtype);
    return launch_strided<2>(device, g, [&](unsigned grid, auto geo) {
        constexpr int D = decltype(geo)::kMaxDims;
        cast_kernel<D><<<grid, kThreads>>>(geo, g->numel, dst_dtype, src_dtype, itemsize);
    });
}

extern "C" int
mt_cuda_launch_fill(int device, const mt_iter *g, size_t itemsize, mt_value value)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    uint64_t bits = 0;
    for (size_t i = 0; i < itemsize && i < 8; i++) {
        bits |= (uint64_t)value.bytes[i] << (8 * i);   // little-endian, as both host and GPU are
    }
    int fast = itemsize == 8 ? fast_fill<uint64_t>(device, g, bits)
               : itemsize == 4 ? fast_fill<uint32_t>(device, g, (uint32_t)bits)
               : itemsize == 2 ? fast_fill<uint16_t>(device, g, (uint16_t)bits)
                               : fast_fill<uint8_t>(device, g, (uint8_t)bits);
    if (fast != kNotFast) {
        return fast;
    }
    return launch_strided<1>(device, g, [&](unsigned grid, auto geo) {
        constexpr int D = decltype(geo)::kMaxDims;
        fill_kernel<D><<<grid, kThreads>>>(geo, g->numel, (int)itemsize, bits);
    });
}

extern "C" size_t
mt_cuda_reduce_scratch_bytes(int device, const mt_cuda_reduce_params *p)
{
    SumPlan sum = plan_sum(device, p);
    if (sum.geo.kind != 0) {
        return sum_scratch_bytes(sum);
    }
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
    SumPlan sum = plan_sum(device, p);
    if (sum.geo.kind != 0) {
        if (sum.nsplit > 1 && scratch == NULL) {
            return (int)cudaErrorInvalidValue;
        }
        return launch_sum_typed(sum, p, scratch);
    }
    count_path(MT_CUDA_PATH_REDUCE_GENERAL);
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
mt_cuda_launch_philox_uniform(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                              double from, double to)
{
    int err = select_device(device);
    if (err != 0 || n <= 0) {
        return err;
    }
    if (dtype == MT_FLOAT32) {
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
mt_cuda_launch_philox_normal(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                             double mean, double std)
{
    int err = select_device(device);
    if (err != 0 || n <= 0) {
        return err;
    }
    if (dtype == MT_FLOAT32) {
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
mt_cuda_launch_philox_randint(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
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

extern "C" int
mt_cuda_launch_index(int device, const mt_cuda_index_params *p)
{
    int err = select_device(device);
    int64_t nbefore = 1, nafter = 1;
    if (err != 0) {
        return err;
    }
    for (int d = 0; d < p->nbefore; d++) {
        nbefore *= p->shape[d];
    }
    for (int d = p->nbefore; d < p->ndim; d++) {
        nafter *= p->shape[d];
    }
    int64_t n = nbefore * p->nb * nafter;
    if (n <= 0) {
        return 0;
    }
    index_kernel<<<grid_for(device, n), kThreads>>>(*p, n, nafter);
    return launch_status();
}

extern "C" unsigned
mt_cuda_grid_for(int device, int64_t work_items)
{
    return grid_for(device, work_items);
}

extern "C" int
mt_cuda_select_device(int device)
{
    return select_device(device);
}
