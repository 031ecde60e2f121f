/* pinned.c: page-locked ("pinned") host memory as torch exposes it: Tensor.pin_memory() and
 * Tensor.is_pinned(), with torch's checks, warnings and messages; and shared memory: Tensor.share_memory_()
 * and Tensor.is_shared() (csrc/core/storage.c moves the bytes). A pinned tensor is an ordinary CPU
 * tensor over a pinned storage (csrc/core/pinned_storage.c: the runtime's pinned pool, or flagged host
 * memory on the simulated GPU), which is what copy_'s non_blocking path looks at. Without any
 * accelerator both methods answer as torch does on a machine without one. Copying is copy.c's; the
 * arguments are read by the op table (csrc/python/pinned.c binds the two rows). */
#include <stdio.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/pinned_storage.h"
#include "../core/tensor.h"
#include "copy.h"
#include "pinned.h"
#include "shape.h"
#include "../core/warn.h"

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
    return mt_tensor_device(self).type == MT_DEVICE_CPU && mt_storage_is_pinned(self->storage);
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
    storage = mt_pinned_storage_new(nbytes);
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

PyObject *
mt_tensor_share_memory_(mt_TensorObject *self)
{
    mt_device device = mt_tensor_device(self);

    if (device.type == MT_DEVICE_META) {
        PyErr_SetString(PyExc_RuntimeError, "_share_fd_: only available on CPU");
        return NULL;
    }
    if (device.type == MT_DEVICE_CPU && mt_storage_share(self->storage) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

int
mt_tensor_is_shared(mt_TensorObject *self)
{
    mt_device device = mt_tensor_device(self);

    return device.type == MT_DEVICE_CUDA || (device.type == MT_DEVICE_CPU && mt_storage_is_shared(self->storage));
}
