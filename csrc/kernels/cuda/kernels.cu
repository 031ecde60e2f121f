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

#include "cuda_kernels.h"
#include "../cpu/philox.h"
#include "../op_math.h"

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

// ---- element access with C's conversions (reference: csrc/kernels/cpu/cast.c) ----------------
// uint8_t stands for bool and only for bool: converting to it means "!= 0" (NaN is true).

template <typename To>
struct Convert {
    template <typename From>
    static __host__ __device__ __forceinline__ To
    from(From v)
    {
        return static_cast<To>(v);
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

template <typename T>
__host__ __device__ __forceinline__ T
load_as(const char *p, mt_dtype dtype)
{
    MT_DISPATCH_DTYPE(dtype, S, return Convert<T>::from(*reinterpret_cast<const S *>(p)))
    return T(0);
}

template <typename T>
__device__ __forceinline__ void
store_as(char *p, mt_dtype dtype, T v)
{
    MT_DISPATCH_DTYPE(dtype, S, *reinterpret_cast<S *>(p) = Convert<S>::from(v))
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
    unsigned grid = grid_for(device, src->numel);
    if (src->ndim <= kSmallDims) {
        binary_kernel<T, kSmallDims><<<grid, kThreads>>>(make_geo<3, kSmallDims>(src), src->numel, p);
    }
    else {
        binary_kernel<T, MT_MAX_DIMS><<<grid, kThreads>>>(make_geo<3, MT_MAX_DIMS>(src), src->numel, p);
    }
    return launch_status();
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
    unsigned grid = grid_for(device, src->numel);
    if (src->ndim <= kSmallDims) {
        unary_kernel<T, kSmallDims><<<grid, kThreads>>>(make_geo<2, kSmallDims>(src), src->numel, p->op,
                                                        p->out_dtype, p->in_dtype);
    }
    else {
        unary_kernel<T, MT_MAX_DIMS><<<grid, kThreads>>>(make_geo<2, MT_MAX_DIMS>(src), src->numel,
                                                              p->op, p->out_dtype, p->in_dtype);
    }
    return launch_status();
}

// ---- copy with conversion (reference: csrc/kernels/cpu/cast.c) and fill ----------------------

// Moves one element of itemsize 8, 4 or 1 bytes as bits (a NaN's payload survives, as memcpy keeps it).
__device__ __forceinline__ void
copy_bits(char *d, const char *s, int itemsize)
{
    if (itemsize == 8) {
        *reinterpret_cast<uint64_t *>(d) = *reinterpret_cast<const uint64_t *>(s);
    }
    else if (itemsize == 4) {
        *reinterpret_cast<uint32_t *>(d) = *reinterpret_cast<const uint32_t *>(s);
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
mt_cuda_launch_unary(int device, const mt_iter *g, const mt_cuda_unary_params *p)
{
    int err = select_device(device);
    if (err != 0 || g->numel <= 0) {
        return err;
    }
    switch (p->dtype) {
    case MT_INT32:
        return launch_unary_typed<int32_t>(device, g, p);
    case MT_INT64:
        return launch_unary_typed<int64_t>(device, g, p);
    case MT_FLOAT32:
        return launch_unary_typed<float>(device, g, p);
    case MT_FLOAT64:
        return launch_unary_typed<double>(device, g, p);
    default: // the op layer rejects bool before any kernel
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
    unsigned grid = grid_for(device, g->numel);
    int itemsize = (int)mt_dtype_size(dst_dtype);
    if (g->ndim <= kSmallDims) {
        cast_kernel<kSmallDims><<<grid, kThreads>>>(make_geo<2, kSmallDims>(g), g->numel, dst_dtype, src_dtype,
                                                    itemsize);
    }
    else {
        cast_kernel<MT_MAX_DIMS><<<grid, kThreads>>>(make_geo<2, MT_MAX_DIMS>(g), g->numel, dst_dtype,
                                                          src_dtype, itemsize);
    }
    return launch_status();
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
    unsigned grid = grid_for(device, g->numel);
    if (g->ndim <= kSmallDims) {
        fill_kernel<kSmallDims><<<grid, kThreads>>>(make_geo<1, kSmallDims>(g), g->numel, (int)itemsize, bits);
    }
    else {
        fill_kernel<MT_MAX_DIMS><<<grid, kThreads>>>(make_geo<1, MT_MAX_DIMS>(g), g->numel, (int)itemsize,
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
