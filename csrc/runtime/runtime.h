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
#define MT_RT_ERROR_INVALID_DEVICE 101    /* cudaErrorInvalidDevice: "invalid device ordinal" */
#define MT_RT_ERROR_NOT_SUPPORTED 801     /* cudaErrorNotSupported */
#define MT_RT_ERROR_INVALID_CONFIG 10001  /* minitorch's own: a malformed MINITORCH_* setting */

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

#ifdef __cplusplus
}
#endif

#endif /* MT_RUNTIME_H */
