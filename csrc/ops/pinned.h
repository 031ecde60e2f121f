/* pinned.h: page-locked and shared host memory, the C entry points of Tensor.pin_memory, is_pinned,
 * share_memory_ and is_shared (rows of the op table, bound in csrc/python/pinned.c). */
#ifndef MT_PINNED_H
#define MT_PINNED_H

#include <Python.h>

#include "../core/device.h"
#include "../core/tensor.h"

/* is_pinned(device): 1 when self's storage is pinned host memory, else 0; -1 with an exception (the
 * DeprecationWarning torch gives for a device, turned into an error). `device` NULL: none was given. */
int mt_tensor_is_pinned(mt_TensorObject *self, const mt_device *device);

/* pin_memory(device): self when already pinned, else a copy in pinned host memory (with torch's errors:
 * a CPU device, a CUDA tensor, no accelerator). New reference or NULL. */
PyObject *mt_tensor_pin_memory(mt_TensorObject *self, const mt_device *device);

/* share_memory_(): self, its storage moved into shared memory (mt_storage_share) when it is host memory;
 * torch's error on the meta device. New reference or NULL. */
PyObject *mt_tensor_share_memory_(mt_TensorObject *self);

/* is_shared(): 1 for a storage in shared memory or on a CUDA device, else 0. */
int mt_tensor_is_shared(mt_TensorObject *self);

#endif
