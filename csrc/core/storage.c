/* storage.c: allocation and release of the byte buffers behind tensors. Host memory is 64-byte
 * aligned (for SIMD kernels); device memory comes from the device layer's caching allocator. */
#include "storage.h"

#include <stdlib.h>

#include "devices.h"

static void
release_host(mt_storage *s)
{
    free(s->data);
}

static void
release_cuda(mt_storage *s)
{
    mt_cuda_free(s->device.index, s->data);
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
    return s;
}

mt_storage *
mt_storage_new(size_t nbytes, mt_device device)
{
    void *data = NULL;
    mt_storage *s;

    if (device.type == MT_DEVICE_CPU) {
        /* aligned_alloc needs a multiple of the alignment; never ask for 0 bytes */
        size_t rounded = (nbytes + 63) & ~(size_t)63;
        if (rounded < nbytes) {
            PyErr_NoMemory();
            return NULL;
        }
        data = aligned_alloc(64, rounded ? rounded : 64);
        if (data == NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: "
                         "you tried to allocate %zu bytes.",
                         nbytes);
            return NULL;
        }
        s = mt_storage_wrap(data, nbytes, device, release_host, NULL);
        if (s == NULL) {
            free(data);
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
    PyErr_SetString(PyExc_RuntimeError, "minitorch tensors can only live on cpu or cuda devices");
    return NULL;
}

void
mt_storage_decref(mt_storage *s)
{
    if (--s->refcount == 0) {
        if (s->release != NULL) {
            s->release(s);
        }
        PyMem_RawFree(s);
    }
}
