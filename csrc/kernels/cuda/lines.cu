// lines.cu: the CUDA kernels along one dim (cuda_kernels.h's mt_cuda_launch_scan / mt_cuda_launch_sort).
//
// One thread per line: each runs the same per-line code as the host kernels (kernels/lines.h; the CPU
// reference is csrc/kernels/cpu/lines.c), so a scan, a product or a sort gives the CPU's bits on the GPU.
// A line is sequential work, which suits the short lines of the ops a learner calls (cumsum over a dim
// of a batch, sorting rows); a launch covers every line with a grid-stride loop. The sort's scratch runs
// are device memory the caller passes in (2 * n values and 2 * n indices per line).

#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_kernels.h"
#include "../lines.h"

namespace {

constexpr int kLineThreads = 128;

int
select_line_device(int device)
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

unsigned
line_grid(int64_t lines)
{
    int64_t blocks = (lines + kLineThreads - 1) / kLineThreads;
    if (blocks > 65535) {
        blocks = 65535;
    }
    return blocks < 1 ? 1u : (unsigned)blocks;
}

#define MT_SCAN_KERNEL_(S, T, ACC)                                                                 \
    __global__ void scan_kernel_##S(const mt_scan_args a)                                         \
    {                                                                                              \
        const int64_t lines = a.outer * a.inner;                                                   \
        const int64_t step = (int64_t)gridDim.x * blockDim.x;                                      \
        for (int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; l < lines; l += step) {   \
            int64_t o = l / a.inner, i = l % a.inner;                                              \
            const T *line = (const T *)a.in + o * a.n * a.inner + i;                               \
            if (a.total) {                                                                         \
                mt_scan_line_##S(&a, line, a.inner, (T *)a.out + l, 0, NULL);                      \
            }                                                                                      \
            else {                                                                                 \
                int64_t base = o * a.n * a.inner + i;                                              \
                mt_scan_line_##S(&a, line, a.inner, (T *)a.out + base, a.inner,                    \
                                 a.indices != NULL ? a.indices + base : NULL);                     \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    __global__ void sort_kernel_##S(const mt_sort_args a, T *runs, int64_t *idx)                   \
    {                                                                                              \
        const int64_t lines = a.outer * a.inner;                                                   \
        const int64_t step = (int64_t)gridDim.x * blockDim.x;                                      \
        for (int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; l < lines; l += step) {   \
            int64_t o = l / a.inner, i = l % a.inner;                                              \
            int64_t base = o * a.n * a.inner + i;                                                  \
            T *va = runs + l * 2 * a.n;                                                            \
            int64_t *ia = idx + l * 2 * a.n;                                                       \
            mt_sort_line_##S(&a, (const T *)a.in + base, a.inner, (T *)a.values + base, a.indices + base, \
                             va, ia, va + a.n, ia + a.n);                                          \
        }                                                                                          \
    }

MT_LINE_TYPES(MT_SCAN_KERNEL_)

}  // namespace

extern "C" int
mt_cuda_launch_scan(int device, const mt_scan_args *a)
{
    int err = select_line_device(device);
    int64_t lines = a->outer * a->inner;
    if (err != 0 || lines <= 0) {
        return err;
    }
    switch (a->dtype) {
    case MT_BOOL:
        scan_kernel_b8<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_UINT8:
        scan_kernel_u8<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_INT8:
        scan_kernel_i8<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_INT16:
        scan_kernel_i16<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_INT32:
        scan_kernel_i32<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_INT64:
        scan_kernel_i64<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_FLOAT32:
        scan_kernel_f32<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    case MT_FLOAT64:
        scan_kernel_f64<<<line_grid(lines), kLineThreads>>>(*a);
        break;
    default:
        return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}

extern "C" int
mt_cuda_launch_sort(int device, const mt_sort_args *a, void *runs, int64_t *idx)
{
    int err = select_line_device(device);
    int64_t lines = a->outer * a->inner;
    if (err != 0 || lines <= 0 || a->n <= 0) {
        return err;
    }
    switch (a->dtype) {
    case MT_BOOL:
        sort_kernel_b8<<<line_grid(lines), kLineThreads>>>(*a, (uint8_t *)runs, idx);
        break;
    case MT_UINT8:
        sort_kernel_u8<<<line_grid(lines), kLineThreads>>>(*a, (uint8_t *)runs, idx);
        break;
    case MT_INT8:
        sort_kernel_i8<<<line_grid(lines), kLineThreads>>>(*a, (int8_t *)runs, idx);
        break;
    case MT_INT16:
        sort_kernel_i16<<<line_grid(lines), kLineThreads>>>(*a, (int16_t *)runs, idx);
        break;
    case MT_INT32:
        sort_kernel_i32<<<line_grid(lines), kLineThreads>>>(*a, (int32_t *)runs, idx);
        break;
    case MT_INT64:
        sort_kernel_i64<<<line_grid(lines), kLineThreads>>>(*a, (int64_t *)runs, idx);
        break;
    case MT_FLOAT32:
        sort_kernel_f32<<<line_grid(lines), kLineThreads>>>(*a, (float *)runs, idx);
        break;
    case MT_FLOAT64:
        sort_kernel_f64<<<line_grid(lines), kLineThreads>>>(*a, (double *)runs, idx);
        break;
    default:
        return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
}
