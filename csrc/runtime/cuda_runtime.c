/* cuda_runtime.c: the device runtime for real NVIDIA GPUs, an mt_runtime over the CUDA runtime API
 * (streams and events included), and the few things only a real GPU has (versions, pinned host memory,
 * async copies; runtime.h). It is the only C file that includes a CUDA header, and it is compiled only in CUDA builds. It passes
 * cudaError_t codes through unchanged (runtime.h's codes use the same numbers) and clears CUDA's
 * sticky last-error state after each failure it reports, so a failed call never poisons the next
 * one. It must stay a thin wrapper: no caching of device memory (the caching allocator does that),
 * no Python, no kernels. Every function may be called from any thread; CUDA's current device is per
 * thread, so each call that acts on a device selects it first. */
#ifdef MINITORCH_WITH_CUDA

#include "runtime.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Returns err after clearing CUDA's per-thread last error, which a failed call leaves behind. */
static int
cleared(cudaError_t err)
{
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
    }
    return (int)err;
}

static int
select_device(int device)
{
    return cleared(cudaSetDevice(device));
}

static int
cuda_device_count(int *count)
{
    /* cudaGetDeviceCount leaves *count untouched on failure (measured: error 35 without a driver) */
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    *count = err == cudaSuccess ? n : 0;
    return cleared(err);
}

static int
cuda_malloc(int device, void **ptr, size_t size)
{
    cudaError_t err;
    int rc;

    *ptr = NULL;
    if (size == 0) {
        return MT_RT_SUCCESS;
    }
    rc = select_device(device);
    if (rc != MT_RT_SUCCESS) {
        return rc;
    }
    err = cudaMalloc(ptr, size);
    if (err != cudaSuccess) {
        *ptr = NULL;
        /* out of memory must read as MT_RT_ERROR_MEMORY_ALLOCATION: the allocator frees its cache
         * and retries on exactly that code (cudaErrorMemoryAllocation is 2 as well) */
        return cleared(err) == (int)cudaErrorMemoryAllocation ? MT_RT_ERROR_MEMORY_ALLOCATION : (int)err;
    }
    return MT_RT_SUCCESS;
}

static int
cuda_free(int device, void *ptr)
{
    int rc;

    if (ptr == NULL) {
        return MT_RT_SUCCESS;
    }
    rc = select_device(device);
    if (rc != MT_RT_SUCCESS) {
        return rc;
    }
    return cleared(cudaFree(ptr));
}

static int
cuda_memcpy(void *dst, int dst_device, const void *src, int src_device, size_t nbytes, mt_memcpy_kind kind)
{
    int rc;

    if (nbytes == 0) {
        return MT_RT_SUCCESS;
    }
    switch (kind) {
    case MT_MEMCPY_HOST_TO_DEVICE:
        rc = select_device(dst_device);
        return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemcpy(dst, src, nbytes, cudaMemcpyHostToDevice));
    case MT_MEMCPY_DEVICE_TO_HOST:
        rc = select_device(src_device);
        return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToHost));
    case MT_MEMCPY_DEVICE_TO_DEVICE:
        if (dst_device == src_device) {
            rc = select_device(dst_device);
            return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToDevice));
        }
        /* across devices: a peer copy (staged through the host by the driver when peer access is off);
         * cudaMemcpyPeer is asynchronous with respect to the host for device memory, so wait for it
         * to keep this function's "complete on return" contract */
        rc = select_device(dst_device);
        if (rc == MT_RT_SUCCESS) {
            rc = cleared(cudaMemcpyPeer(dst, dst_device, src, src_device, nbytes));
        }
        if (rc == MT_RT_SUCCESS) {
            rc = cleared(cudaDeviceSynchronize());
        }
        return rc;
    default:
        return MT_RT_ERROR_INVALID_VALUE;
    }
}

static int
cuda_memset(int device, void *ptr, int value, size_t nbytes)
{
    int rc;

    if (nbytes == 0) {
        return MT_RT_SUCCESS;
    }
    rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemset(ptr, value, nbytes));
}

static int
cuda_synchronize(int device)
{
    int rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaDeviceSynchronize());
}

static int
cuda_get_properties(int device, mt_device_properties *props)
{
    struct cudaDeviceProp p;
    cudaError_t err;

    memset(&p, 0, sizeof(p));
    err = cudaGetDeviceProperties(&p, device);
    if (err != cudaSuccess) {
        return cleared(err);
    }
    memset(props, 0, sizeof(*props));
    snprintf(props->name, sizeof(props->name), "%s", p.name);
    props->major = p.major;
    props->minor = p.minor;
    props->total_memory = p.totalGlobalMem;
    props->multi_processor_count = p.multiProcessorCount;
    props->l2_cache_size = p.l2CacheSize;
    memcpy(props->uuid, p.uuid.bytes, sizeof(props->uuid));
    return MT_RT_SUCCESS;
}

static int
cuda_mem_get_info(int device, size_t *free_bytes, size_t *total_bytes)
{
    int rc = select_device(device);
    *free_bytes = 0;
    *total_bytes = 0;
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemGetInfo(free_bytes, total_bytes));
}

static const char *
cuda_error_string(int err)
{
    if (err == MT_RT_ERROR_INVALID_CONFIG) {
        return "invalid minitorch configuration";
    }
    return cudaGetErrorString((cudaError_t)err);
}

/* ---- streams and events ------------------------------------------------------------------------
 *
 * Every minitorch kernel, copy and cuBLAS call runs on the legacy default stream (NULL). The streams
 * made here are blocking streams (cudaStreamDefault, not torch's cudaStreamNonBlocking), so CUDA
 * orders them with that stream: an event recorded on one of them comes after the work queued before
 * it, wherever minitorch queued it, and a wait on one delays the legacy stream's later work. Work is
 * therefore never concurrent across streams, but every ordering torch promises holds. To keep "the
 * stream's work has finished" true of that work too, synchronize and query look at the legacy
 * stream as well as the named one. */

static int
cuda_stream_priority_range(int device, int *least, int *greatest)
{
    int rc = select_device(device);
    *least = 0;
    *greatest = 0;
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaDeviceGetStreamPriorityRange(least, greatest));
}

static int
cuda_stream_create(int device, int priority, void **stream)
{
    cudaStream_t s = NULL;
    int rc = select_device(device);

    *stream = NULL;
    if (rc == MT_RT_SUCCESS) {
        rc = cleared(cudaStreamCreateWithPriority(&s, cudaStreamDefault, priority));
    }
    if (rc == MT_RT_SUCCESS) {
        *stream = (void *)s;
    }
    return rc;
}

static int
cuda_stream_synchronize(int device, void *stream)
{
    int rc = select_device(device);
    if (rc == MT_RT_SUCCESS && stream != NULL) {
        rc = cleared(cudaStreamSynchronize((cudaStream_t)stream));
    }
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaStreamSynchronize(0));
}

/* The answer of cudaStreamQuery or cudaEventQuery: cudaErrorNotReady is "not done", not an error. */
static int
ready_answer(cudaError_t err, int *done)
{
    *done = err == cudaSuccess;
    if (err == cudaErrorNotReady) {
        (void)cleared(err);
        return MT_RT_SUCCESS;
    }
    return cleared(err);
}

static int
cuda_stream_query(int device, void *stream, int *done)
{
    int rc = select_device(device);
    *done = 0;
    if (rc == MT_RT_SUCCESS && stream != NULL) {
        rc = ready_answer(cudaStreamQuery((cudaStream_t)stream), done);
        if (rc != MT_RT_SUCCESS || !*done) {
            return rc;
        }
    }
    return rc != MT_RT_SUCCESS ? rc : ready_answer(cudaStreamQuery(0), done);
}

static int
cuda_stream_wait_event(int device, void *stream, void *event)
{
    int rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)event, 0));
}

static int
cuda_event_create(int device, unsigned int flags, void **event)
{
    cudaEvent_t e = NULL;
    int rc = select_device(device);

    *event = NULL;
    if (rc == MT_RT_SUCCESS) {
        rc = cleared(cudaEventCreateWithFlags(&e, flags));
    }
    if (rc == MT_RT_SUCCESS) {
        *event = (void *)e;
    }
    return rc;
}

static int
cuda_event_destroy(int device, void *event)
{
    /* on its own device, so that no other device gets a context just for this */
    int rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaEventDestroy((cudaEvent_t)event));
}

static int
cuda_event_record(int device, void *event, void *stream)
{
    int rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaEventRecord((cudaEvent_t)event, (cudaStream_t)stream));
}

static int
cuda_event_query(void *event, int *done)
{
    return ready_answer(cudaEventQuery((cudaEvent_t)event), done);
}

static int
cuda_event_synchronize(void *event)
{
    return cleared(cudaEventSynchronize((cudaEvent_t)event));
}

static int
cuda_event_elapsed_time(void *start, void *end, float *ms)
{
    *ms = 0.0f;
    return cleared(cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end));
}

static const mt_runtime cuda_runtime_table = {
    .name = "cuda",
    .host_accessible = 0,
    .device_count = cuda_device_count,
    .malloc = cuda_malloc,
    .free = cuda_free,
    .memcpy = cuda_memcpy,
    .memset = cuda_memset,
    .synchronize = cuda_synchronize,
    .get_properties = cuda_get_properties,
    .mem_get_info = cuda_mem_get_info,
    .error_string = cuda_error_string,
    .stream_priority_range = cuda_stream_priority_range,
    .stream_create = cuda_stream_create,
    .stream_synchronize = cuda_stream_synchronize,
    .stream_query = cuda_stream_query,
    .stream_wait_event = cuda_stream_wait_event,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_record = cuda_event_record,
    .event_query = cuda_event_query,
    .event_synchronize = cuda_event_synchronize,
    .event_elapsed_time = cuda_event_elapsed_time,
};

const mt_runtime *
mt_cuda_runtime(void)
{
    return &cuda_runtime_table;
}

int
mt_cuda_driver_version(void)
{
    int v = 0;
    if (cudaDriverGetVersion(&v) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return v;
}

int
mt_cuda_runtime_version(void)
{
    int v = 0;
    if (cudaRuntimeGetVersion(&v) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return v;
}

int
mt_cuda_set_current_device(int device)
{
    return select_device(device);
}

int
mt_cuda_memcpy_async(void *dst, int dst_device, const void *src, int src_device, size_t nbytes,
                     mt_memcpy_kind kind)
{
    enum cudaMemcpyKind ck;
    int device;
    int rc;

    if (nbytes == 0) {
        return MT_RT_SUCCESS;
    }
    switch (kind) {
    case MT_MEMCPY_HOST_TO_DEVICE:
        ck = cudaMemcpyHostToDevice;
        device = dst_device;
        break;
    case MT_MEMCPY_DEVICE_TO_HOST:
        ck = cudaMemcpyDeviceToHost;
        device = src_device;
        break;
    case MT_MEMCPY_DEVICE_TO_DEVICE:
        if (dst_device != src_device) {
            rc = select_device(dst_device);
            return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, 0));
        }
        ck = cudaMemcpyDeviceToDevice;
        device = dst_device;
        break;
    default:
        return MT_RT_ERROR_INVALID_VALUE;
    }
    rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaMemcpyAsync(dst, src, nbytes, ck, 0));
}

int
mt_cuda_stream_synchronize(int device)
{
    int rc = select_device(device);
    return rc != MT_RT_SUCCESS ? rc : cleared(cudaStreamSynchronize(0));
}

/* ---- pinned host memory: a small caching pool ---------------------------------------------------
 *
 * cudaHostAlloc is slow (it pins pages and maps them for every device), so freed blocks are kept and
 * reused, as torch's CachingHostAllocator does. Simplifications: sizes round up to a power of two
 * (at least 512 bytes) and a free block is reused only for a request of the same rounded size; blocks
 * are never given back to the driver (the process exit does that). A block that an asynchronous copy
 * still reads or writes carries an event (mt_cuda_host_record); it is not handed out again until the
 * event has completed, so freeing a pinned tensor right after copy_(..., non_blocking=True) is safe. */

#define HOST_MIN_SHIFT 9
#define HOST_BUCKETS 64

typedef struct host_block {
    void *ptr;
    size_t size;                /* the rounded size */
    int in_use;
    int has_event;
    cudaEvent_t event;
    int event_device;
    struct host_block *next_free;   /* the bucket's free list */
    struct host_block *next_all;    /* every block, for lookups */
} host_block;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_block *host_free_lists[HOST_BUCKETS];
static host_block *host_all_blocks;

static int
host_bucket(size_t size, size_t *rounded)
{
    int shift = HOST_MIN_SHIFT;
    while (shift < HOST_BUCKETS - 1 && ((size_t)1 << shift) < size) {
        shift++;
    }
    *rounded = (size_t)1 << shift;
    return shift;
}

/* 1 when no queued copy still uses the block. Called with host_lock held. */
static int
host_block_ready(host_block *b)
{
    cudaError_t err;
    if (!b->has_event) {
        return 1;
    }
    err = cudaEventQuery(b->event);
    if (err == cudaSuccess) {
        b->has_event = 0;
        return 1;
    }
    (void)cudaGetLastError(); /* cudaErrorNotReady is not an error worth keeping */
    return 0;
}

void *
mt_cuda_host_alloc(size_t size, int *err)
{
    size_t rounded;
    int bucket;
    host_block **link;
    host_block *b;
    void *ptr = NULL;
    cudaError_t cerr;

    *err = MT_RT_SUCCESS;
    if (size > ((size_t)1 << (HOST_BUCKETS - 2))) {
        *err = MT_RT_ERROR_MEMORY_ALLOCATION;
        return NULL;
    }
    bucket = host_bucket(size, &rounded);
    pthread_mutex_lock(&host_lock);
    for (link = &host_free_lists[bucket]; *link != NULL; link = &(*link)->next_free) {
        if (host_block_ready(*link)) {
            b = *link;
            *link = b->next_free;
            b->next_free = NULL;
            b->in_use = 1;
            pthread_mutex_unlock(&host_lock);
            return b->ptr;
        }
    }
    pthread_mutex_unlock(&host_lock);

    /* Portable: usable with every device, like torch's pinned memory */
    cerr = cudaHostAlloc(&ptr, rounded, cudaHostAllocPortable);
    if (cerr != cudaSuccess) {
        *err = cleared(cerr) == (int)cudaErrorMemoryAllocation ? MT_RT_ERROR_MEMORY_ALLOCATION : (int)cerr;
        return NULL;
    }
    b = calloc(1, sizeof(*b));
    if (b == NULL) {
        cudaFreeHost(ptr);
        *err = MT_RT_ERROR_MEMORY_ALLOCATION;
        return NULL;
    }
    b->ptr = ptr;
    b->size = rounded;
    b->in_use = 1;
    pthread_mutex_lock(&host_lock);
    b->next_all = host_all_blocks;
    host_all_blocks = b;
    pthread_mutex_unlock(&host_lock);
    return ptr;
}

/* The block whose range holds ptr, or NULL. Called with host_lock held. */
static host_block *
host_find(const void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    for (host_block *b = host_all_blocks; b != NULL; b = b->next_all) {
        if (p >= (uintptr_t)b->ptr && p < (uintptr_t)b->ptr + b->size) {
            return b;
        }
    }
    return NULL;
}

void
mt_cuda_host_free(void *ptr)
{
    host_block *b;
    size_t rounded;
    int bucket;

    if (ptr == NULL) {
        return;
    }
    pthread_mutex_lock(&host_lock);
    b = host_find(ptr);
    if (b != NULL && b->ptr == ptr && b->in_use) {
        bucket = host_bucket(b->size, &rounded);
        b->in_use = 0;
        b->next_free = host_free_lists[bucket];
        host_free_lists[bucket] = b;
    }
    pthread_mutex_unlock(&host_lock);
}

int
mt_cuda_host_record(const void *ptr, int device)
{
    host_block *b;
    int rc = MT_RT_SUCCESS;

    pthread_mutex_lock(&host_lock);
    b = host_find(ptr);
    if (b != NULL) {
        rc = select_device(device);
        if (rc == MT_RT_SUCCESS && b->has_event && b->event_device != device) {
            /* an event records on its own device's stream: wait for the old one, take a new one */
            cudaEventSynchronize(b->event);
            cudaEventDestroy(b->event);
            b->has_event = 0;
        }
        if (rc == MT_RT_SUCCESS && !b->has_event) {
            rc = cleared(cudaEventCreateWithFlags(&b->event, cudaEventDisableTiming));
            if (rc == MT_RT_SUCCESS) {
                b->has_event = 1;
                b->event_device = device;
            }
        }
        if (rc == MT_RT_SUCCESS) {
            rc = cleared(cudaEventRecord(b->event, 0));
        }
    }
    pthread_mutex_unlock(&host_lock);
    return rc;
}

int
mt_cuda_is_pinned(const void *ptr)
{
    struct cudaPointerAttributes attr;
    int found;

    if (ptr == NULL) {
        return 0;
    }
    pthread_mutex_lock(&host_lock);
    found = host_find(ptr) != NULL;
    pthread_mutex_unlock(&host_lock);
    if (found) {
        return 1;
    }
    /* memory pinned by someone else (cudaHostRegister, another library) counts too, as in torch */
    memset(&attr, 0, sizeof(attr));
    if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return attr.type == cudaMemoryTypeHost;
}

#endif /* MINITORCH_WITH_CUDA */
