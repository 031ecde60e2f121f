/* storage.c: allocation and release of the byte buffers behind tensors. Host memory is 64-byte
 * aligned (for SIMD kernels); device memory comes from the device layer's caching allocator; a meta
 * storage has a size and no buffer. */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1      /* madvise under -std=c11 */
#endif
#include "storage.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#if !defined(_WIN32)
#include <string.h>
#include <sys/mman.h>
#endif

#include "devices.h"

/* Host buffers of at least this size are 2 MiB aligned and advised to use transparent huge pages, as
 * NumPy does for its arrays: a fresh multi-megabyte output then takes a few hundred page faults instead
 * of thousands, which otherwise cost more than the op that fills it. */
#define HOST_HUGE_BYTES ((size_t)4 << 20)
#define HOST_HUGE_ALIGN ((size_t)2 << 20)

/* ---- freed large host buffers kept for reuse ---------------------------------------------------------
 * A training step frees and allocates buffers of the same sizes again and again. From glibc, each
 * buffer of more than a few hundred KiB comes back as fresh pages (the heap top was trimmed, or the
 * block was mmap()ed and unmapped), and their page faults cost more than the op that fills the buffer.
 * So up to HOST_CACHE_BYTES of freed buffers of at least HOST_CACHE_MIN bytes are kept, each for the
 * next allocation of exactly its size (torch's CPU builds leave this to the system allocator, which
 * behaves the same way there). Sanitizer builds keep none, so every free reaches the sanitizer. */
#if defined(__SANITIZE_ADDRESS__)
#define HOST_CACHE_SLOTS 0
#else
#define HOST_CACHE_SLOTS 32
#endif
#define HOST_CACHE_MIN ((size_t)256 << 10)
#define HOST_CACHE_BYTES ((size_t)256 << 20)

typedef struct {
    void *data, *base;
    size_t rounded;
} cached_block;

static cached_block host_cache[HOST_CACHE_SLOTS + 1];
static int host_cached;
static size_t host_cached_bytes;
static pthread_mutex_t host_cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* a kept buffer of exactly `rounded` bytes (the newest), or NULL */
static void *
cache_take(size_t rounded, void **base)
{
    void *data = NULL;

    if (rounded < HOST_CACHE_MIN || HOST_CACHE_SLOTS == 0) {
        return NULL;
    }
    pthread_mutex_lock(&host_cache_lock);
    for (int i = host_cached - 1; i >= 0; i--) {
        if (host_cache[i].rounded == rounded) {
            data = host_cache[i].data;
            *base = host_cache[i].base;
            host_cached_bytes -= rounded;
            host_cache[i] = host_cache[--host_cached];
            break;
        }
    }
    pthread_mutex_unlock(&host_cache_lock);
    return data;
}

/* 1 when the buffer was kept, 0 when the caller must free it */
static int
cache_keep(void *data, void *base, size_t rounded)
{
    int kept = 0;

    if (rounded < HOST_CACHE_MIN || HOST_CACHE_SLOTS == 0) {
        return 0;
    }
    pthread_mutex_lock(&host_cache_lock);
    if (host_cached < HOST_CACHE_SLOTS && host_cached_bytes + rounded <= HOST_CACHE_BYTES) {
        host_cache[host_cached].data = data;
        host_cache[host_cached].base = base;
        host_cache[host_cached].rounded = rounded;
        host_cached++;
        host_cached_bytes += rounded;
        kept = 1;
    }
    pthread_mutex_unlock(&host_cache_lock);
    return kept;
}

/* whole 64-byte lines (aligned_alloc needs a multiple of the alignment); never 0 bytes; 0 on overflow */
static size_t
host_rounded(size_t nbytes)
{
    size_t rounded = (nbytes + 63) & ~(size_t)63;

    return rounded < nbytes ? 0 : rounded ? rounded : 64;
}

/* Smaller buffers come from plain malloc, aligned by hand (*base is what to free): glibc's aligned
 * allocator costs several times malloc's fast path, which dominates the time of ops on tiny tensors. */
static void *
host_alloc(size_t rounded, void **base)
{
    void *data;

    *base = NULL;
    data = cache_take(rounded, base);
    if (data != NULL) {
        return data;
    }
    if (rounded < HOST_HUGE_BYTES) {
        char *p = malloc(rounded + 64);
        if (p == NULL) {
            return NULL;
        }
        *base = p;
        return p + (64 - ((uintptr_t)p & 63));
    }
    data = aligned_alloc(HOST_HUGE_ALIGN, (rounded + HOST_HUGE_ALIGN - 1) & ~(HOST_HUGE_ALIGN - 1));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (data != NULL) {
        (void)madvise(data, rounded & ~(HOST_HUGE_ALIGN - 1), MADV_HUGEPAGE);
    }
#endif
    return data;
}

static void
release_host(mt_storage *s)
{
    if (!cache_keep(s->data, s->ctx, host_rounded(s->nbytes))) {
        free(s->ctx != NULL ? s->ctx : s->data);
    }
}

static void
release_cuda(mt_storage *s)
{
    mt_cuda_free(s->device.index, s->data);
}

#if !defined(_WIN32)
/* shared memory (mt_storage_share): ctx holds the mapping's length */
static void
release_shared(mt_storage *s)
{
    munmap(s->data, (size_t)(uintptr_t)s->ctx);
}
#endif

static _Thread_local int making_inference;

int
mt_storage_set_inference(int enabled)
{
    int prev = making_inference;
    making_inference = enabled;
    return prev;
}

int
mt_storage_inference_enabled(void)
{
    return making_inference;
}

mt_storage *
mt_storage_wrap(void *data, size_t nbytes, mt_device device, void (*release)(mt_storage *), void *ctx)
{
    mt_storage *s = PyMem_RawMalloc(sizeof(mt_storage));
    if (s == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    s->refcount = 1;
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    s->release = release;
    s->ctx = ctx;
    s->pinned = 0;
    s->inference = making_inference;
    s->exports = 0;
    s->retired = NULL;
    return s;
}

mt_storage *
mt_storage_new(size_t nbytes, mt_device device)
{
    void *data = NULL;
    void *base = NULL;
    mt_storage *s;

    if (device.type == MT_DEVICE_CPU) {
        size_t rounded = host_rounded(nbytes);
        if (rounded == 0) {
            PyErr_NoMemory();
            return NULL;
        }
        data = host_alloc(rounded, &base);
        if (data == NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: "
                         "you tried to allocate %zu bytes.",
                         nbytes);
            return NULL;
        }
        s = mt_storage_wrap(data, nbytes, device, release_host, base);
        if (s == NULL) {
            free(base != NULL ? base : data);
        }
        return s;
    }
    if (device.type == MT_DEVICE_CUDA) {
        if (nbytes > 0) {
            data = mt_cuda_malloc(device.index, nbytes);
            if (data == NULL) {
                return NULL;
            }
        }
        s = mt_storage_wrap(data, nbytes, device, nbytes > 0 ? release_cuda : NULL, NULL);
        if (s == NULL && data != NULL) {
            mt_cuda_free(device.index, data);
        }
        return s;
    }
    if (device.type == MT_DEVICE_META) {
        /* torch's meta storage: its size in bytes and no memory (data_ptr() is 0) */
        return mt_storage_wrap(NULL, nbytes, device, NULL, NULL);
    }
    PyErr_SetString(PyExc_RuntimeError, "minitorch tensors can only live on cpu, cuda or meta devices");
    return NULL;
}

/* `old` (a storage holding the buffer s had) released, or kept on s's chain while s is exported */
static void
retire(mt_storage *s, mt_storage *old)
{
    if (s->exports > 0) {
        old->retired = s->retired;
        s->retired = old;
    }
    else {
        mt_storage_decref(old);
    }
}

int
mt_storage_is_shared(const mt_storage *s)
{
#if !defined(_WIN32)
    return s->release == release_shared;
#else
    (void)s;
    return 0;
#endif
}

int
mt_storage_share(mt_storage *s)
{
#if !defined(_WIN32)
    size_t length = s->nbytes > 0 ? s->nbytes : 1;
    void *data;
    mt_storage *old;

    if (mt_storage_is_shared(s)) {
        return 0;
    }
    data = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) {
        PyErr_Format(PyExc_RuntimeError, "unable to mmap %zu bytes of shared memory", length);
        return -1;
    }
    if (s->nbytes > 0) {
        memcpy(data, s->data, s->nbytes);
    }
    /* the struct keeps its identity (views share it); the old buffer leaves in `old` */
    old = mt_storage_wrap(s->data, s->nbytes, s->device, s->release, s->ctx);
    if (old == NULL) {
        munmap(data, length);
        return -1;
    }
    s->data = data;
    s->ctx = (void *)(uintptr_t)length;
    s->release = release_shared;
    s->pinned = 0;
    retire(s, old);
    return 0;
#else
    (void)s;
    PyErr_SetString(PyExc_RuntimeError, "share_memory_: shared memory needs a POSIX system");
    return -1;
#endif
}

int
mt_storage_grow(mt_storage *s, size_t nbytes)
{
    return nbytes <= s->nbytes ? 0 : mt_storage_resize(s, nbytes);
}

int
mt_storage_resize(mt_storage *s, size_t nbytes)
{
    mt_storage *fresh;
    void *data;
    void *ctx;
    void (*release)(mt_storage *);

    if (s->device.type == MT_DEVICE_META && s->data == NULL) {
        s->nbytes = nbytes;
        return 0;
    }
    if (s->release != release_host && s->release != release_cuda && !(s->release == NULL && s->nbytes == 0)) {
        PyErr_SetString(PyExc_RuntimeError, "Trying to resize storage that is not resizable");
        return -1;
    }
    if (nbytes <= s->nbytes) {
        /* a smaller storage keeps its buffer (torch moves to a smaller one): tensors on it that reach past
         * the new end read old bytes instead of memory that is no longer theirs */
        s->nbytes = nbytes;
        return 0;
    }
    fresh = mt_storage_new(nbytes, s->device);
    if (fresh == NULL) {
        return -1;
    }
    if (s->nbytes > 0 && mt_memcpy(fresh->data, s->device, fresh, s->data, s->device, s, s->nbytes) < 0) {
        mt_storage_decref(fresh);
        return -1;
    }
    /* the struct keeps its identity (views share it); the old buffer (and its size) leaves with `fresh` */
    data = s->data;
    ctx = s->ctx;
    release = s->release;
    s->data = fresh->data;
    s->ctx = fresh->ctx;
    s->release = fresh->release;
    fresh->nbytes = s->nbytes;
    s->nbytes = nbytes;
    fresh->data = data;
    fresh->ctx = ctx;
    fresh->release = release;
    retire(s, fresh);
    return 0;
}

void
mt_storage_decref(mt_storage *s)
{
    if (--s->refcount == 0) {
        if (s->release != NULL) {
            s->release(s);
        }
        if (s->retired != NULL) {
            mt_storage_decref(s->retired);
        }
        PyMem_RawFree(s);
    }
}

void
mt_storage_export(mt_storage *s)
{
    s->exports++;
    mt_storage_incref(s);
}

void
mt_storage_unexport(mt_storage *s)
{
    if (--s->exports == 0 && s->retired != NULL) {
        mt_storage *retired = s->retired;
        s->retired = NULL;
        mt_storage_decref(retired);
    }
    mt_storage_decref(s);
}
