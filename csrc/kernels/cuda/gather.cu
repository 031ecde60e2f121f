// gather.cu: the CUDA kernel of the indexing ops along one dim (gather, scatter and its reductions,
// scatter_reduce, scatter_add, index_select, index_add_, index_reduce_) and its C-callable launcher (cuda_kernels.h). Reference:
// csrc/kernels/cpu/gather.c (mt_cpu_index_dim), whose row-major order this kernel keeps where it
// matters: a scatter (the indexed side is dst) gives each line along `dim` one thread that walks it in
// order, so no two threads write one element, repeated indices add and overwrite in the host's order
// and the values are the host's bits, without atomics; a gather (the indexed side is src) takes one
// thread per element. Index values outside [0, indexed_size) are skipped (the op layer rejects them
// first): no write or read ever leaves the tensors. Built like kernels.cu (see its header).

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "cuda_kernels.h"

namespace {

// amax / amin as the host's (csrc/kernels/cpu/gather.c): *d stays unless s beats it, a NaN in s wins
template <typename T>
__device__ __forceinline__ T
pick(T d, T s, mt_index_dim_mode mode)
{
    return (s != s || (mode == MT_INDEX_DIM_AMAX ? d < s : s < d)) ? s : d;
}

template <typename T>
__device__ __forceinline__ void
combine(T *d, T s, mt_index_dim_mode mode)
{
    *d = mode == MT_INDEX_DIM_ADD        ? T(*d + s)
       : mode == MT_INDEX_DIM_MULTIPLY ? T(*d * s)
       : (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) ? pick<T>(*d, s, mode) : s;
}

// the host's wrapping integer arithmetic and bool's or / and (csrc/kernels/cpu/gather.c)
template <>
__device__ __forceinline__ void
combine<int32_t>(int32_t *d, int32_t s, mt_index_dim_mode mode)
{
    *d = mode == MT_INDEX_DIM_ADD ? (int32_t)((uint32_t)*d + (uint32_t)s)
       : mode == MT_INDEX_DIM_MULTIPLY ? (int32_t)((uint32_t)*d * (uint32_t)s)
       : (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) ? pick<int32_t>(*d, s, mode) : s;
}

template <>
__device__ __forceinline__ void
combine<int64_t>(int64_t *d, int64_t s, mt_index_dim_mode mode)
{
    *d = mode == MT_INDEX_DIM_ADD ? (int64_t)((uint64_t)*d + (uint64_t)s)
       : mode == MT_INDEX_DIM_MULTIPLY ? (int64_t)((uint64_t)*d * (uint64_t)s)
       : (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) ? pick<int64_t>(*d, s, mode) : s;
}

template <>
__device__ __forceinline__ void
combine<uint8_t>(uint8_t *d, uint8_t s, mt_index_dim_mode mode)
{
    *d = (mode == MT_INDEX_DIM_ADD || mode == MT_INDEX_DIM_AMAX) ? (uint8_t)(*d || s)
       : (mode == MT_INDEX_DIM_MULTIPLY || mode == MT_INDEX_DIM_AMIN) ? (uint8_t)(*d && s) : s;
}

// Work item i: a line along dim (a scatter: `line` = shape[dim]) or one element (a gather: `line` = 1).
template <typename T>
__global__ void
index_dim_kernel(const __grid_constant__ mt_index_dim_args p, int64_t items, int64_t line)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    T value;
    memcpy(&value, p.value.bytes, sizeof(T));
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < items; i += step) {
        int64_t rest = i, dx = 0, sx = 0, ix = 0;
        for (int d = p.ndim - 1; d >= 0; d--) {
            int64_t extent = (d == p.dim && line > 1) ? 1 : p.shape[d];
            int64_t q = rest / extent;
            int64_t c = rest - q * extent;
            dx += c * p.dst_strides[d];
            sx += c * p.src_strides[d];
            ix += c * p.index_strides[d];
            rest = q;
        }
        for (int64_t j = 0; j < line; j++) {
            int64_t v = p.index[ix + j * p.index_strides[p.dim]];
            if (v >= 0 && v < p.indexed_size) {
                int64_t moved = v * p.indexed_stride;
                T *dst = reinterpret_cast<T *>(p.dst) + dx + j * p.dst_strides[p.dim] + (p.indexed_dst ? moved : 0);
                T s = p.src == nullptr
                          ? value
                          : reinterpret_cast<const T *>(p.src)[sx + j * p.src_strides[p.dim] + (p.indexed_dst ? 0 : moved)];
                combine<T>(dst, s, p.mode);
            }
        }
    }
}

template <typename T>
int
launch_index_dim_typed(int device, const mt_index_dim_args *p, int64_t items, int64_t line)
{
    index_dim_kernel<T><<<mt_cuda_grid_for(device, items), 256>>>(*p, items, line);
    return (int)cudaGetLastError();
}

}  // namespace

extern "C" int
mt_cuda_launch_index_dim(int device, const mt_index_dim_args *p)
{
    int err = mt_cuda_select_device(device);
    int64_t numel = 1;
    if (err != 0) {
        return err;
    }
    for (int d = 0; d < p->ndim; d++) {
        numel *= p->shape[d];
    }
    if (numel <= 0) {
        return 0;
    }
    int64_t line = p->indexed_dst ? p->shape[p->dim] : 1;
    int64_t items = numel / line;
    MT_DISPATCH_DTYPE(p->dtype, T, return launch_index_dim_typed<T>(device, p, items, line))
    return (int)cudaErrorInvalidValue;
}
