/* The device-runtime interface: one struct of function pointers per device kind (the CUDA runtime in
 * cuda_runtime.c, host memory in simulated.c) supplying only raw device malloc/free, copies, memset,
 * synchronize, properties and memory info. It owns the error-code convention shared by every runtime
 * and nothing else: no caching, no statistics, no Python, and no CUDA header may appear here, so that
 * the caching allocator and the op layer above stay device-agnostic and build on any machine. */
#ifndef MT_RUNTIME_H
#define MT_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes. 0 is success; every other value is runtime-specific and is turned into text with the
 * runtime's error_string. The few codes the layers above must tell apart use cudaError_t's numbering,
 * so cuda_runtime.c can pass CUDA's codes through unchanged and the simulated runtime can return the
 * same numbers. MT_RT_ERROR_MEMORY_ALLOCATION is the one that matters most: the caching allocator
 * reacts to it by freeing its cache and retrying, and reports out-of-memory if the retry fails. */
#define MT_RT_SUCCESS 0
#define MT_RT_ERROR_INVALID_VALUE 1       /* cudaErrorInvalidValue: "invalid argument" */
#define MT_RT_ERROR_MEMORY_ALLOCATION 2   /* cudaErrorMemoryAllocation: "out of memory" */
#define MT_RT_ERROR_NO_DEVICE 100         /* cudaErrorNoDevice */
#define MT_RT_ERROR_INVALID_HANDLE 400    /* cudaErrorInvalidResourceHandle */
#define MT_RT_ERROR_NOT_READY 600         /* cudaErrorNotReady: queued work has not finished */
#define MT_RT_ERROR_INVALID_DEVICE 101    /* cudaErrorInvalidDevice: "invalid device ordinal" */
#define MT_RT_ERROR_NOT_SUPPORTED 801     /* cudaErrorNotSupported */
#define MT_RT_ERROR_INVALID_CONFIG 10001  /* minitorch's own: a malformed MINITORCH_* setting */

/* Event flags, cudaEvent*'s values. */
#define MT_EVENT_BLOCKING_SYNC 0x01
#define MT_EVENT_DISABLE_TIMING 0x02
#define MT_EVENT_INTERPROCESS 0x04

typedef enum mt_memcpy_kind {
    MT_MEMCPY_HOST_TO_DEVICE = 1,
    MT_MEMCPY_DEVICE_TO_HOST = 2,
    MT_MEMCPY_DEVICE_TO_DEVICE = 3
} mt_memcpy_kind;

/* What torch.cuda.get_device_properties shows. Sizes in bytes. */
typedef struct mt_device_properties {
    char name[256];
    int major;
    int minor;
    size_t total_memory;
    int multi_processor_count;
    int l2_cache_size;
    unsigned char uuid[16];
} mt_device_properties;

/* One device kind. Every function returns MT_RT_SUCCESS or an error code for error_string, and takes
 * the device index it acts on (the runtime switches to that device itself, so callers never track a
 * "current device" for it). All functions are safe to call from several threads at once. */
typedef struct mt_runtime {
    const char *name;     /* "cuda" or "simulated", for messages and the build report */
    int host_accessible;  /* 1 when device memory is host memory (CPU kernels may run on it) */
    int (*device_count)(int *count);
    /* Raw allocation, no caching, at least 256-byte aligned (cudaMalloc's guarantee). size 0
     * succeeds with *ptr == NULL (as cudaMalloc does). Out of device memory is
     * MT_RT_ERROR_MEMORY_ALLOCATION and leaves *ptr NULL. */
    int (*malloc)(int device, void **ptr, size_t size);
    /* free(NULL) succeeds. ptr must come from this runtime's malloc on the same device. */
    int (*free)(int device, void *ptr);
    /* Copies nbytes; the index of a host side is ignored. Device-to-device copies between two
     * devices are peer copies. Returns when the copy is complete (synchronous, like cudaMemcpy). */
    int (*memcpy)(void *dst, int dst_device, const void *src, int src_device, size_t nbytes,
                  mt_memcpy_kind kind);
    int (*memset)(int device, void *ptr, int value, size_t nbytes);
    int (*synchronize)(int device);
    int (*get_properties)(int device, mt_device_properties *props);
    /* Like cudaMemGetInfo: free and total device memory in bytes. */
    int (*mem_get_info)(int device, size_t *free_bytes, size_t *total_bytes);
    /* Never NULL; a static string (cudaGetErrorString's wording where one exists). */
    const char *(*error_string)(int err);
    /* Streams and events, for torch.cuda.Stream and torch.cuda.Event. A stream is an opaque handle,
     * NULL being the device's default stream; streams are made once and never destroyed (torch keeps
     * a pool of them, and so does minitorch.cuda). An event is an opaque handle made with MT_EVENT_*
     * flags on a device and recorded on a stream of that device. *done is set to 1 when the work
     * queued before (on the stream, or before the event's last record) has finished, else 0.
     * event_elapsed_time fails with MT_RT_ERROR_INVALID_HANDLE when an event was never recorded or
     * keeps no time, and with MT_RT_ERROR_NOT_READY when one has not completed. */
    int (*stream_priority_range)(int device, int *least, int *greatest);
    int (*stream_create)(int device, int priority, void **stream);
    int (*stream_synchronize)(int device, void *stream);
    int (*stream_query)(int device, void *stream, int *done);
    int (*stream_wait_event)(int device, void *stream, void *event);
    int (*event_create)(int device, unsigned int flags, void **event);
    int (*event_destroy)(int device, void *event);
    int (*event_record)(int device, void *event, void *stream);
    int (*event_query)(void *event, int *done);
    int (*event_synchronize)(void *event);
    int (*event_elapsed_time)(void *start, void *end, float *ms);
} mt_runtime;

/* The simulated GPU (simulated.c): N devices backed by host memory, N from MINITORCH_SIMULATE_GPU.
 *
 * mt_simulated_requested() reads the environment once (the first call wins, like torch's device
 * count) and returns: 0 when MINITORCH_SIMULATE_GPU is unset, empty or "0" (no simulation); N >= 1
 * for a positive integer N; -1 when it or MINITORCH_SIMULATE_GPU_MEMORY is malformed. With -1 the
 * runtime still exists, every call on it fails with MT_RT_ERROR_INVALID_CONFIG, and
 * mt_simulated_config_error() says what is wrong (NULL when nothing is). */
int mt_simulated_requested(void);
const char *mt_simulated_config_error(void);
const mt_runtime *mt_simulated_runtime(void);

/* Parses a memory size as MINITORCH_SIMULATE_GPU_MEMORY accepts it: plain bytes, or a number (a
 * decimal fraction is allowed) followed by B, KiB/MiB/GiB/TiB (powers of 1024) or KB/MB/GB/TB
 * (powers of 1000), case-insensitive, spaces allowed around the number and unit. Returns 0 and sets
 * *out, or -1 for a malformed, zero or overflowing value. Exported for tests. */
int mt_parse_memory_size(const char *text, size_t *out);

/* The CUDA runtime (cuda_runtime.c, CUDA builds only). Besides its mt_runtime table it offers what
 * only a real GPU has, each returning MT_RT_SUCCESS or a cudaError_t code unless said otherwise:
 *   versions            cudaDriverGetVersion (0 when no driver can be loaded) and
 *                       cudaRuntimeGetVersion (e.g. 13000); never fail, return 0 on error;
 *   current device      cudaSetDevice for libraries that act on the calling thread's device (cuBLAS);
 *   pinned host memory  cudaHostAlloc behind a small caching pool (torch's CachingHostAllocator,
 *                       simplified: sizes rounded up to a power of two, freed blocks reused, never
 *                       returned to the driver); mt_cuda_host_alloc returns NULL and sets *err on
 *                       failure; mt_cuda_host_free takes only pointers it handed out (others are
 *                       ignored); mt_cuda_is_pinned answers for any address inside a pinned block;
 *   async copies        cudaMemcpyAsync on the device's legacy default stream, the stream every
 *                       minitorch kernel and cuBLAS call runs on, so they are ordered with them
 *                       (the streams of the table above are blocking streams, ordered with it too);
 *                       mt_cuda_host_record marks the pinned block holding `ptr` as used by the
 *                       work queued so far on `device`: the pool reuses it only once that is done. */
#ifdef MINITORCH_WITH_CUDA
const mt_runtime *mt_cuda_runtime(void);
int mt_cuda_driver_version(void);
int mt_cuda_runtime_version(void);
int mt_cuda_set_current_device(int device);
void *mt_cuda_host_alloc(size_t size, int *err);
void mt_cuda_host_free(void *ptr);
int mt_cuda_is_pinned(const void *ptr);
int mt_cuda_memcpy_async(void *dst, int dst_device, const void *src, int src_device, size_t nbytes,
                         mt_memcpy_kind kind);
int mt_cuda_host_record(const void *ptr, int device);
int mt_cuda_stream_synchronize(int device);
#endif

#ifdef __cplusplus
}
#endif

#endif /* MT_RUNTIME_H */
