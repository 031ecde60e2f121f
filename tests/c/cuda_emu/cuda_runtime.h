// A stand-in for the CUDA runtime header that lets csrc/kernels/cuda/kernels.cu run on the host, for
// machines without a GPU (tests/test_cuda_emulation.py). Kernels become ordinary functions; a launch
// (rewritten from `k<<<grid, block>>>(args)` to `emu_launch(grid, block, [=] { k(args); })` by the
// test) runs every block in turn, each block's threads as real threads so that __syncthreads is a real
// barrier and __shared__ (a function-local static) is shared by the block. It checks the kernels'
// indexing, conversions and reduction plans, not GPU behaviour (memory model, math-library ulps,
// performance), and it is no part of minitorch.
#ifndef MT_CUDA_EMU_RUNTIME_H
#define MT_CUDA_EMU_RUNTIME_H

#include <barrier>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __grid_constant__
#define __shared__ static

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct emu_uint3 {
    unsigned x, y, z;
};

inline thread_local emu_uint3 threadIdx;
inline thread_local emu_uint3 blockIdx;
inline emu_uint3 blockDim;
inline emu_uint3 gridDim;
inline std::barrier<> *emu_block_barrier = nullptr;

inline void
__syncthreads()
{
    emu_block_barrier->arrive_and_wait();
}

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorInvalidConfiguration = 9,
} cudaError_t;

enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

inline int emu_last_error = 0;
inline int emu_launches = 0;

inline cudaError_t
cudaSetDevice(int)
{
    return cudaSuccess;
}

inline cudaError_t
cudaGetLastError()
{
    cudaError_t e = (cudaError_t)emu_last_error;
    emu_last_error = 0;
    return e;
}

inline cudaError_t
cudaDeviceGetAttribute(int *value, cudaDeviceAttr, int)
{
    *value = 2; // a tiny GPU keeps the emulated grids small
    return cudaSuccess;
}

// The threads of one block: created once per block size and reused for every block of every launch
// (creating 256 threads per block would dominate the run time).
struct EmuBlockPool {
    unsigned size;
    std::barrier<> start;
    std::barrier<> done;
    std::barrier<> sync;            // __syncthreads
    std::function<void()> body;
    unsigned bx = 0, by = 0;
    bool quit = false;
    std::vector<std::thread> workers;

    explicit EmuBlockPool(unsigned n)
        : size(n), start((std::ptrdiff_t)n + 1), done((std::ptrdiff_t)n + 1), sync((std::ptrdiff_t)n)
    {
        for (unsigned t = 0; t < n; t++) {
            workers.emplace_back([this, t] {
                for (;;) {
                    start.arrive_and_wait();
                    if (quit) {
                        return;
                    }
                    threadIdx = {t, 0, 0};
                    blockIdx = {bx, by, 0};
                    body();
                    done.arrive_and_wait();
                }
            });
        }
    }

    ~EmuBlockPool()
    {
        quit = true;
        start.arrive_and_wait();
        for (auto &w : workers) {
            w.join();
        }
    }
};

inline std::unique_ptr<EmuBlockPool> emu_pool;

template <typename F>
void
emu_launch(dim3 grid, dim3 block, F body)
{
    emu_launches++;
    if (grid.x == 0 || block.x == 0 || block.x > 1024 || grid.y > 65535) {
        emu_last_error = cudaErrorInvalidConfiguration;
        return;
    }
    if (!emu_pool || emu_pool->size != block.x) {
        emu_pool.reset();
        emu_pool = std::make_unique<EmuBlockPool>(block.x);
    }
    gridDim = {grid.x, grid.y, grid.z};
    blockDim = {block.x, block.y, block.z};
    emu_block_barrier = &emu_pool->sync;
    emu_pool->body = body;
    for (unsigned by = 0; by < grid.y; by++) {
        for (unsigned bx = 0; bx < grid.x; bx++) {
            emu_pool->bx = bx;
            emu_pool->by = by;
            emu_pool->start.arrive_and_wait();
            emu_pool->done.arrive_and_wait();
        }
    }
}

#endif
