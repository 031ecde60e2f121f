/* A stand-in for the CUDA runtime header, for machines without a GPU. It is no part of minitorch.
 *
 * Two users:
 *   - tests/test_cuda_emulation.py compiles csrc/kernels/cuda/kernels.cu with the host C++ compiler
 *     (launches rewritten by tests/c/cuda_emu/rewrite.py from `k<<<grid, block>>>(args);` to
 *     `emu_launch(grid, block, [=] { k(args); })`) and checks the kernels against references;
 *   - the emulated-CUDA build of the whole extension (setup.py with MINITORCH_CUDA=emulate) compiles
 *     csrc/runtime/cuda_runtime.c (C) against it too.
 * Everything declared here is implemented by tests/c/cuda_emu/emu_runtime.cpp (a shared library in the
 * emulated build): N devices (MINITORCH_EMU_CUDA_DEVICES, default 1) whose memory is mapped PROT_NONE
 * except while an emulated kernel, copy, memset or the fake cuBLAS runs on it, so a host-side
 * dereference of a device pointer crashes at once. Kernels become ordinary functions; a launch is queued
 * (as on a GPU, the host does not wait for it; CUDA_LAUNCH_BLOCKING=1 runs it at once) and runs at the
 * next synchronizing call, its blocks one after another, each CUDA thread of a block as a fiber
 * (ucontext) that __syncthreads, __syncwarp and the warp shuffles switch away from (a barrier is
 * released when every live thread of the block, or of the warp, has reached it), so barriers, shuffles
 * and __shared__ (a function-local static) behave. It
 * checks indexing, conversions, reduction plans and the host/device discipline of the C code, not GPU
 * behaviour (memory model, math-library ulps, asynchrony, performance).
 *
 * The C part (types and functions) is usable from C11; the kernel-side part needs C++17. */
#ifndef MT_CUDA_EMU_RUNTIME_H
#define MT_CUDA_EMU_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaError_t, numbered as CUDA numbers them (the subset the emulation returns) */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorNotSupported = 801
} cudaError_t;

enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

typedef struct CUuuid_st {
    char bytes[16];
} cudaUUID_t;

/* the fields minitorch reads, plus a few for realism; not the real struct's layout */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    size_t totalGlobalMem;
    int major;
    int minor;
    int multiProcessorCount;
    int l2CacheSize;
    int maxThreadsPerBlock;
    int warpSize;
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

typedef struct emu_stream *cudaStream_t;
typedef struct emu_event *cudaEvent_t;

#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01

cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t err);
const char *cudaGetErrorName(cudaError_t err);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t count,
                                cudaStream_t stream);
cudaError_t cudaMemset(void *ptr, int value, size_t count);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr);

/* ---- the emulation's own interface ---------------------------------------------------------------- */

/* Kernel launches counted since the process started (tests/c/cuda_emu_check.cpp reads it). */
extern int emu_launches;
/* The calling thread's current device. */
int emu_current_device(void);
/* Brackets host code that acts as device code on `device`'s memory (the fake cuBLAS): the device's
 * memory is readable and writable in between, and every other emulated device operation waits. */
void emu_device_access_begin(int device);
void emu_device_access_end(void);
/* 1 when [ptr, ptr + nbytes) lies inside one live allocation of `device` (-1: any device). */
int emu_is_device_range(const void *ptr, size_t nbytes, int device);
/* Queues a kernel on the current device's stream: gx * gy * gz blocks of bx * by * bz threads,
 * calling body(arg) once per CUDA thread when it runs; destroy(arg) afterwards (the C++ emu_launch
 * below wraps a lambda). A bad configuration is reported by cudaGetLastError, at once. */
void emu_launch_raw(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                    void (*body)(void *), void *arg, void (*destroy)(void *));
/* __syncthreads; __syncwarp; a shuffle: offers `mine` to the lanes of the caller's warp and returns in
 * `theirs` what lane src_lane offered (mine when that lane is out of range or has returned) */
void emu_syncthreads(void);
void emu_syncwarp(void);
void emu_warp_exchange(const void *mine, void *theirs, size_t nbytes, int src_lane);

#ifdef __cplusplus
}
#endif

/* ---- kernel-side emulation (C++ only) -------------------------------------------------------------- */
#ifdef __cplusplus

#include <cmath>
#include <cstdint>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __grid_constant__
#define __shared__ static
#define __launch_bounds__(...)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct emu_uint3 {
    unsigned x, y, z;
};

/* Set by the runtime before each switch into a CUDA thread's fiber (launches are serialized). */
extern "C" emu_uint3 threadIdx;
extern "C" emu_uint3 blockIdx;
extern "C" emu_uint3 blockDim;
extern "C" emu_uint3 gridDim;

inline void
__syncthreads()
{
    emu_syncthreads();
}

inline void
__syncwarp(unsigned mask = 0xffffffffu)
{
    (void)mask;
    emu_syncwarp();
}

inline int
emu_lane(void)
{
    return (int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32);
}

// a shuffle within segments of `width` lanes: v of lane src, or the caller's own v when src lies outside
// the caller's segment
template <typename T>
T
emu_shuffle(T v, int lane, int src, int width)
{
    if (src < lane / width * width || src >= lane / width * width + width) {
        src = lane;
    }
    T r;
    emu_warp_exchange(&v, &r, sizeof(T), src);
    return r;
}

template <typename T>
T
__shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32)
{
    (void)mask;
    return emu_shuffle(v, emu_lane(), emu_lane() + (int)delta, width);
}

template <typename T>
T
__shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32)
{
    (void)mask;
    return emu_shuffle(v, emu_lane(), emu_lane() ^ lane_mask, width);
}

template <typename F>
void
emu_launch(dim3 grid, dim3 block, F body)
{
    emu_launch_raw(grid.x, grid.y, grid.z, block.x, block.y, block.z,
                   [](void *f) { (*static_cast<F *>(f))(); }, new F(body),
                   [](void *f) { delete static_cast<F *>(f); });
}

#endif /* __cplusplus */

#endif /* MT_CUDA_EMU_RUNTIME_H */
