/* pinned.c: page-locked ("pinned") host memory as torch exposes it: Tensor.pin_memory() and
 * Tensor.is_pinned(). A pinned tensor is an ordinary CPU tensor whose storage comes from the CUDA
 * runtime's pinned pool (runtime.h: mt_cuda_host_alloc); its storage is flagged `pinned`, which is what
 * copy_'s non_blocking path looks at. On the simulated GPU there is no page locking to do: the storage
 * is plain aligned host memory carrying the flag, so programs behave the same. Without any accelerator
 * both methods answer as torch does on a machine without one. This file allocates and flags; copying
 * is copy.c's; the arguments are read by the op table (csrc/python/pinned.c binds the two rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/tensor.h"
#include "../runtime/runtime.h"
#include "copy.h"
#include "pinned.h"
#include "shape.h"
#include "../core/warn.h"

#ifdef MINITORCH_WITH_CUDA
static void
release_pinned(mt_storage *s)
{
    mt_cuda_host_free(s->data);
}
#endif

static void
release_pinned_simulated(mt_storage *s)
{
    free(s->data);
}

/* A pinned host storage of nbytes (at least one byte is allocated). NULL with an exception. */
static mt_storage *
pinned_storage_new(size_t nbytes)
{
    void *data = NULL;
    mt_storage *s;
    void (*release)(mt_storage *) = release_pinned_simulated;
    size_t alloc = nbytes > 0 ? nbytes : 1;

    if (mt_cuda_is_simulated()) {
        size_t rounded = (alloc + 63) & ~(size_t)63;
        data = rounded >= alloc ? aligned_alloc(64, rounded) : NULL;
        if (data == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    else {
#ifdef MINITORCH_WITH_CUDA
        int err = MT_RT_SUCCESS;
        data = mt_cuda_host_alloc(alloc, &err);
        if (data == NULL) {
            if (err == MT_RT_ERROR_MEMORY_ALLOCATION) {
                PyErr_Format(PyExc_RuntimeError, "CUDA error: out of memory (pinning %zu bytes of host memory)",
                             nbytes);
            }
            else {
                PyErr_Format(mt_AcceleratorError, "CUDA error: %s", mt_cuda_runtime()->error_string(err));
            }
            return NULL;
        }
        release = release_pinned;
#else
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return NULL;
#endif
    }
    s = mt_storage_wrap(data, nbytes, mt_cpu_device(), release, NULL);
    if (s == NULL) {
        mt_storage tmp;
        tmp.data = data;
        release(&tmp);
        return NULL;
    }
    s->pinned = 1;
    return s;
}

static int
tensor_is_pinned_flag(const mt_TensorObject *t)
{
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return 0;
    }
    if (t->storage->pinned) {
        return 1;
    }
#ifdef MINITORCH_WITH_CUDA
    /* memory another library pinned; asked only once CUDA is up, so that is_pinned() never starts it */
    if (mt_cuda_is_initialized() && !mt_cuda_is_simulated() && t->storage->data != NULL) {
        return mt_cuda_is_pinned(t->storage->data);
    }
#endif
    return 0;
}

/* torch's deprecation of the device argument (aten/src/ATen/native/Memory.cpp). 0 or -1. */
static int
warn_device_deprecated(const char *fname)
{
    char msg[128];
    snprintf(msg, sizeof msg, "The argument 'device' of Tensor.%s() is deprecated. Please do not pass this argument.",
             fname);
    return mt_warn(PyExc_DeprecationWarning, msg);
}

int
mt_tensor_is_pinned(mt_TensorObject *self, const mt_device *device)
{
    if (device != NULL && warn_device_deprecated("is_pinned") < 0) {
        return -1;
    }
    return tensor_is_pinned_flag(self);
}

PyObject *
mt_tensor_pin_memory(mt_TensorObject *self, const mt_device *device)
{
    mt_TensorObject *pinned;
    mt_storage *storage;
    size_t nbytes;
    int64_t extent = 0;
    int r;

    /* torch's pin_memory: its own warning, then is_pinned(device) (which warns too), then _pin_memory */
    if (device != NULL && warn_device_deprecated("pin_memory") < 0) {
        return NULL;
    }
    r = mt_tensor_is_pinned(self, device);
    if (r != 0) {
        if (r < 0) {
            return NULL;
        }
        Py_INCREF(self);
        return (PyObject *)self;
    }
    if (device != NULL && device->type == MT_DEVICE_CPU) {
        PyErr_SetString(PyExc_RuntimeError, "CPU device type not an accelerator.");
        return NULL;
    }
    if (mt_tensor_device(self).type != MT_DEVICE_CPU) {
        char name[64];
        mt_tensor_type_string(self, name, sizeof(name));
        PyErr_Format(PyExc_RuntimeError, "cannot pin '%s' only dense CPU tensors can be pinned", name);
        return NULL;
    }
    if (mt_cuda_device_count() == 0) {
        /* torch on a machine without an accelerator: its CUDA build initialises CUDA first and gives that
         * error (no driver, no GPU); its CPU build has no accelerator at all */
#ifdef MINITORCH_WITH_CUDA
        if (mt_cuda_lazy_init() < 0) {
            return NULL;
        }
#endif
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return NULL;
    }
    /* torch's _pin_memory: a storage spanning the same strides, then copy_ */
    if (mt_tensor_numel(self) > 0) {
        extent = 1;
        for (int d = 0; d < self->ndim; d++) {
            extent += (self->sizes[d] - 1) * self->strides[d];
        }
    }
    nbytes = (size_t)extent * mt_dtype_size(self->dtype);
    storage = pinned_storage_new(nbytes);
    if (storage == NULL) {
        return NULL;
    }
    pinned = mt_tensor_from_storage(storage, self->ndim, self->sizes, self->strides, 0, self->dtype);
    mt_storage_decref(storage);
    if (pinned == NULL) {
        return NULL;
    }
    if (mt_copy_(pinned, self) < 0) {
        Py_DECREF(pinned);
        return NULL;
    }
    pinned->requires_grad = self->requires_grad;
    return (PyObject *)pinned;
}
