/* storage.h: a reference-counted buffer of bytes on one device, shared by a tensor and all of its
 * views. A storage knows who frees its memory (the release hook) but nothing about shapes or dtypes.
 * Reference counts are changed only with the GIL held. */
#ifndef MT_STORAGE_H
#define MT_STORAGE_H

#include <Python.h>
#include <stddef.h>

#include "device.h"

typedef struct mt_storage mt_storage;

struct mt_storage {
    Py_ssize_t refcount;
    void *data;
    size_t nbytes;
    mt_device device;
    void (*release)(mt_storage *self);   /* frees `data` (not the struct) */
    void *ctx;                            /* for `release`: e.g. an owner object */
    int pinned;                           /* host memory from the pinned allocator */
    int inference;                        /* made under inference_mode: its tensors are inference tensors */
    Py_ssize_t exports;                   /* NumPy arrays, memoryviews and DLPack capsules over `data` */
    mt_storage *retired;                  /* buffers replaced (grown, shared) while exported: kept until
                                           * the last export goes (a chain of storages holding them) */
};

/* Allocates `nbytes` on `device` (CPU memory is 64-byte aligned; CUDA memory comes from the device's
 * caching allocator). Returns NULL with a Python exception (MemoryError, OutOfMemoryError, ...). */
mt_storage *mt_storage_new(size_t nbytes, mt_device device);

/* Wraps memory owned by someone else; `release(storage)` is called when the last user goes away. */
mt_storage *mt_storage_wrap(void *data, size_t nbytes, mt_device device,
                            void (*release)(mt_storage *), void *ctx);

static inline void
mt_storage_incref(mt_storage *s)
{
    s->refcount++;
}

void mt_storage_decref(mt_storage *s);

/* Whether the storages made from now on by this thread are inference storages (torch's inference tensors:
 * every tensor made under inference_mode, except views of other tensors; autograd's mt_set_inference_mode
 * keeps this in step). Returns the previous setting. */
int mt_storage_set_inference(int enabled);

/* The setting of mt_storage_set_inference (inference_mode on this thread). */
int mt_storage_inference_enabled(void);

/* A reference held by something that reads `data` directly (a NumPy array, a memoryview, a DLPack
 * capsule): a buffer grown or moved to shared memory under it stays alive, for it, until the last such
 * reference goes (mt_storage_unexport: it drops the reference too). */
void mt_storage_export(mt_storage *s);
void mt_storage_unexport(mt_storage *s);

/* torch's StorageImpl resize for Tensor.resize_: grows the buffer to `nbytes` in place (the struct and
 * every view of it stay; the old bytes are copied to the front of the new buffer), or does nothing when it
 * is large enough already. Storages minitorch did not allocate (NumPy's, DLPack's, a file mapping) raise
 * torch's RuntimeError "Trying to resize storage that is not resizable". 0, or -1 with an exception. */
int mt_storage_grow(mt_storage *s, size_t nbytes);

/* torch's UntypedStorage.resize_: the storage made `nbytes` long in place. Growing is mt_storage_grow;
 * shrinking keeps the buffer (only the size changes), so that tensors still reaching past the new end
 * read old bytes, never freed memory (torch's smaller buffer leaves them reading out of bounds). 0, or -1
 * with an exception. */
int mt_storage_resize(mt_storage *s, size_t nbytes);

/* torch's share_memory_ of a host storage: its bytes moved into shared memory (an anonymous MAP_SHARED
 * mapping, which the processes forked afterwards share with this one), in place: the struct and every view
 * of it stay, as mt_storage_grow's. A no-op when already there; a shared storage cannot grow. 0, or -1 with
 * an exception. */
int mt_storage_share(mt_storage *s);

/* 1 when s is in shared memory (mt_storage_share's), else 0. */
int mt_storage_is_shared(const mt_storage *s);

#endif
