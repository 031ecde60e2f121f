// window.cu: the CUDA kernels of convolution and pooling's windows (im2col, col2im, max pooling;
// kernel_types.h's mt_window_args) and their C-callable launcher (cuda_kernels.h). Reference:
// csrc/kernels/cpu/window.c, whose values these kernels give bit for bit: im2col moves elements; col2im
// gives each image element one thread that adds its windows' columns in increasing kernel offset, the
// order the host adds them in (rounding to the dtype after each addition, as the host does); max pooling
// gives each window one thread that walks it in the host's order. Every position is checked against the
// image. Built like kernels.cu (see its header).

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cuda_kernels.h"

namespace {

// the geometry as three dims, the leading missing ones of size 1 (window.c's geometry3)
struct Geometry {
    int64_t size[3], out[3], kernel[3], stride[3], padding[3], dilation[3];
    int64_t image_numel, k_count, l_count;
};

Geometry
geometry_of(const mt_window_args *a)
{
    Geometry g;
    int lead = 3 - a->dims;
    for (int d = 0; d < 3; d++) {
        int s = d - lead;
        g.size[d] = s >= 0 ? a->size[s] : 1;
        g.out[d] = s >= 0 ? a->out_size[s] : 1;
        g.kernel[d] = s >= 0 ? a->kernel[s] : 1;
        g.stride[d] = s >= 0 ? a->stride[s] : 1;
        g.padding[d] = s >= 0 ? a->padding[s] : 0;
        g.dilation[d] = s >= 0 ? a->dilation[s] : 1;
    }
    g.image_numel = g.size[0] * g.size[1] * g.size[2];
    g.k_count = g.kernel[0] * g.kernel[1] * g.kernel[2];
    g.l_count = g.out[0] * g.out[1] * g.out[2];
    return g;
}

struct F32 {
    typedef float T;
    typedef float A;
    static __device__ A load(T v) { return v; }
    static __device__ T store(A v) { return v; }
    static __device__ A lowest() { return -INFINITY; }
};
struct F64 {
    typedef double T;
    typedef double A;
    static __device__ A load(T v) { return v; }
    static __device__ T store(A v) { return v; }
    static __device__ A lowest() { return -INFINITY; }
};
struct F16 {
    typedef uint16_t T;
    typedef float A;
    static __device__ A load(T v) { return mt_half_to_float(v); }
    static __device__ T store(A v) { return mt_float_to_half(v); }
    static __device__ A lowest() { return -INFINITY; }
};
struct BF16 {
    typedef uint16_t T;
    typedef float A;
    static __device__ A load(T v) { return mt_bfloat16_to_float(v); }
    static __device__ T store(A v) { return mt_float_to_bfloat16(v); }
    static __device__ A lowest() { return -INFINITY; }
};
// the integer dtypes (max pooling only): compared as they are, starting below every value
template <typename I, int64_t Lowest>
struct Int {
    typedef I T;
    typedef I A;
    static __device__ A load(T v) { return v; }
    static __device__ T store(A v) { return v; }
    static __device__ A lowest() { return (A)Lowest; }
};

struct B8 {
    typedef uint8_t T;
    typedef int A;
    static __device__ A load(T v) { return v; }
    static __device__ T store(A v) { return (T)(v != 0); }
    static __device__ A lowest() { return 0; }
};

// one thread per column element (plane, k, l)
template <typename E>
__global__ void
unfold_kernel(const Geometry g, const E *image, E *cols, E fill, int64_t total)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        int64_t l = i % g.l_count, rest = i / g.l_count;
        int64_t k = rest % g.k_count, plane = rest / g.k_count;
        int64_t w[3] = {l / (g.out[1] * g.out[2]), (l / g.out[2]) % g.out[1], l % g.out[2]};
        int64_t kk[3] = {k / (g.kernel[1] * g.kernel[2]), (k / g.kernel[2]) % g.kernel[1], k % g.kernel[2]};
        int64_t offset = 0;
        bool inside = true;
        for (int d = 0; d < 3; d++) {
            int64_t p = w[d] * g.stride[d] - g.padding[d] + kk[d] * g.dilation[d];
            inside = inside && p >= 0 && p < g.size[d];
            offset = offset * g.size[d] + p;
        }
        cols[i] = inside ? image[plane * g.image_numel + offset] : fill;
    }
}

// one thread per image element: its windows' columns added in increasing kernel offset
template <typename Tr>
__global__ void
fold_kernel(const Geometry g, typename Tr::T *image, const typename Tr::T *cols, int64_t total)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        int64_t plane = i / g.image_numel, e = i % g.image_numel;
        int64_t pos[3] = {e / (g.size[1] * g.size[2]), (e / g.size[2]) % g.size[1], e % g.size[2]};
        const typename Tr::T *col = cols + plane * g.k_count * g.l_count;
        typename Tr::T v = image[i];
        for (int64_t k = 0; k < g.k_count; k++) {
            int64_t kk[3] = {k / (g.kernel[1] * g.kernel[2]), (k / g.kernel[2]) % g.kernel[1], k % g.kernel[2]};
            int64_t l = 0;
            bool hit = true;
            for (int d = 0; d < 3; d++) {
                int64_t start = pos[d] + g.padding[d] - kk[d] * g.dilation[d];
                int64_t w = start >= 0 ? start / g.stride[d] : -1;
                hit = hit && start >= 0 && w * g.stride[d] == start && w < g.out[d];
                l = l * g.out[d] + (hit ? w : 0);
            }
            if (hit) {
                v = Tr::store(Tr::load(v) + Tr::load(col[k * g.l_count + l]));
            }
        }
        image[i] = v;
    }
}

// one thread per window (plane, l): torch's max pooling window walked in the host's order
template <typename Tr>
__global__ void
max_pool_kernel(const Geometry g, const typename Tr::T *image, typename Tr::T *values, int64_t *indices,
                int64_t total)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        int64_t l = i % g.l_count, plane = i / g.l_count;
        int64_t w[3] = {l / (g.out[1] * g.out[2]), (l / g.out[2]) % g.out[1], l % g.out[2]};
        int64_t s[3], e[3];
        for (int d = 0; d < 3; d++) {
            int64_t start = w[d] * g.stride[d] - g.padding[d];
            int64_t end = start + (g.kernel[d] - 1) * g.dilation[d] + 1;
            e[d] = end < g.size[d] ? end : g.size[d];
            while (start < 0) {
                start += g.dilation[d];
            }
            s[d] = start;
        }
        const typename Tr::T *plane_image = image + plane * g.image_numel;
        int64_t best = (s[0] * g.size[1] + s[1]) * g.size[2] + s[2];
        typename Tr::A top = Tr::lowest();
        for (int64_t i0 = s[0]; i0 < e[0]; i0 += g.dilation[0]) {
            for (int64_t i1 = s[1]; i1 < e[1]; i1 += g.dilation[1]) {
                int64_t row = (i0 * g.size[1] + i1) * g.size[2];
                for (int64_t i2 = s[2]; i2 < e[2]; i2 += g.dilation[2]) {
                    typename Tr::A v = Tr::load(plane_image[row + i2]);
                    if (v > top || v != v) {
                        top = v;
                        best = row + i2;
                    }
                }
            }
        }
        values[i] = Tr::store(top);
        indices[i] = best;
    }
}

template <typename E>
int
launch_unfold(int device, const Geometry &g, const mt_window_args *a, int64_t total)
{
    E fill;
    memcpy(&fill, a->fill.bytes, sizeof(E));
    unfold_kernel<E><<<mt_cuda_grid_for(device, total), 256>>>(g, reinterpret_cast<const E *>(a->image),
                                                                 reinterpret_cast<E *>(a->cols), fill, total);
    return (int)cudaGetLastError();
}

template <typename Tr>
int
launch_computing(int device, const Geometry &g, const mt_window_args *a)
{
    typedef typename Tr::T T;
    if (a->op == MT_WINDOW_FOLD) {
        int64_t total = a->planes * g.image_numel;
        fold_kernel<Tr><<<mt_cuda_grid_for(device, total), 256>>>(g, reinterpret_cast<T *>(a->image),
                                                                     reinterpret_cast<const T *>(a->cols), total);
    }
    else {
        int64_t total = a->planes * g.l_count;
        max_pool_kernel<Tr><<<mt_cuda_grid_for(device, total), 256>>>(
            g, reinterpret_cast<const T *>(a->image), reinterpret_cast<T *>(a->cols), a->indices, total);
    }
    return (int)cudaGetLastError();
}

}  // namespace

extern "C" int
mt_cuda_launch_window(int device, const mt_window_args *a)
{
    int err = mt_cuda_select_device(device);
    if (err != 0) {
        return err;
    }
    Geometry g = geometry_of(a);
    if (a->planes <= 0 || g.l_count <= 0) {
        return 0;
    }
    if (a->op == MT_WINDOW_UNFOLD) {
        int64_t total = a->planes * g.k_count * g.l_count;
        switch (mt_dtype_size(a->dtype)) {
        case 1:
            return launch_unfold<uint8_t>(device, g, a, total);
        case 2:
            return launch_unfold<uint16_t>(device, g, a, total);
        case 4:
            return launch_unfold<uint32_t>(device, g, a, total);
        default:
            return launch_unfold<uint64_t>(device, g, a, total);
        }
    }
    switch (a->dtype) {
    case MT_BOOL:
        return a->op == MT_WINDOW_FOLD ? launch_computing<B8>(device, g, a) : (int)cudaErrorInvalidValue;
    case MT_UINT8:
        return a->op == MT_WINDOW_MAX_POOL ? launch_computing<Int<uint8_t, 0>>(device, g, a) : (int)cudaErrorInvalidValue;
    case MT_INT8:
        return a->op == MT_WINDOW_MAX_POOL ? launch_computing<Int<int8_t, INT8_MIN>>(device, g, a)
                                           : (int)cudaErrorInvalidValue;
    case MT_INT16:
        return a->op == MT_WINDOW_MAX_POOL ? launch_computing<Int<int16_t, INT16_MIN>>(device, g, a)
                                           : (int)cudaErrorInvalidValue;
    case MT_INT32:
        return a->op == MT_WINDOW_MAX_POOL ? launch_computing<Int<int32_t, INT32_MIN>>(device, g, a)
                                           : (int)cudaErrorInvalidValue;
    case MT_INT64:
        return a->op == MT_WINDOW_MAX_POOL ? launch_computing<Int<int64_t, INT64_MIN>>(device, g, a)
                                           : (int)cudaErrorInvalidValue;
    case MT_FLOAT32:
        return launch_computing<F32>(device, g, a);
    case MT_FLOAT64:
        return launch_computing<F64>(device, g, a);
    case MT_FLOAT16:
        return launch_computing<F16>(device, g, a);
    case MT_BFLOAT16:
        return launch_computing<BF16>(device, g, a);
    default:
        return (int)cudaErrorInvalidValue;
    }
}
