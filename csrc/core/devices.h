/* devices.h: which CUDA devices exist and how to reach them. Chooses the device runtime (the simulated
 * GPU when MINITORCH_SIMULATE_GPU is set, else the CUDA runtime in a CUDA build, else none), performs
 * torch's lazy initialisation with torch's errors, keeps the current device, and owns one caching
 * allocator per device. Ops ask it two things: may this device's memory be touched by host code (CPU
 * and the simulated GPU: yes; that picks the device's kernels), and where do bytes come from and go to,
 * kernels' temporaries included. */
#ifndef MT_DEVICES_H
#define MT_DEVICES_H

#include <Python.h>
#include <stddef.h>

#include "device.h"
#include "storage.h"

/* Never raises; 0 when there is no usable device. */
int mt_cuda_device_count(void);

/* torch.cuda._lazy_init: raises AssertionError (CPU build), RuntimeError (no driver / no GPUs). */
int mt_cuda_lazy_init(void);
int mt_cuda_is_initialized(void);

/* 1 when tensors on device d live in host memory (CPU, simulated GPU; never meta, which has none). */
int mt_device_is_host_memory(mt_device d);

/* Resolves a device a user asked for into a tensor device: "cuda" gets the current index; checks that
 * the CUDA device exists (lazy init first; AcceleratorError "CUDA error: invalid device ordinal"). */
int mt_device_resolve(mt_device requested, mt_device *out);

int mt_cuda_current_device(void);   /* after lazy init */
int mt_cuda_set_device(int index);  /* -1 with an exception */

/* Raw device memory through the device's caching allocator. NULL with an exception on failure. */
void *mt_cuda_malloc(int index, size_t nbytes);
void mt_cuda_free(int index, void *ptr);

/* mt_cuda_malloc without Python exceptions, for a kernel's temporaries on a device already in use:
 * MT_ALLOC_OK with *ptr set, or the caching allocator's error code (alloc/caching_allocator.h) with
 * torch's message in errbuf. A caller holding the GIL keeps it: an op reads its operands' geometry
 * before it allocates its output and relies on it after, so no other thread may run in between (one
 * could give an operand another shape with t.data = x); the allocator never waits for the GIL. */
int mt_cuda_malloc_raw(int index, size_t nbytes, void **ptr, char *errbuf, size_t errlen);

/* Copies between host and device memory or between devices; blocking, with the GIL released while a
 * device is involved. dst_owner and src_owner are the storages dst and src lie in (NULL for memory the
 * caller keeps alive by other means, such as a bytes object it holds): they are held until the GIL is
 * back, since another thread may meanwhile give their tensor another storage (t.data = x), which would
 * otherwise free memory under the copy. Copying into the meta device does nothing; copying out of it
 * raises torch's NotImplementedError "Cannot copy out of meta tensor; no data!". -1 with an exception. */
int mt_memcpy(void *dst, mt_device dst_dev, mt_storage *dst_owner, const void *src, mt_device src_dev,
              mt_storage *src_owner, size_t nbytes);

/* 1 when the CUDA devices are the simulated GPU. */
int mt_cuda_is_simulated(void);

/* The device runtime after torch's lazy initialisation (NULL with its exception), for the bindings that
 * drive the runtime directly (streams and events); mt_cuda_runtime_error raises AcceleratorError
 * "CUDA error: <the runtime's text>" for one of its error codes and returns NULL. */
struct mt_runtime;
const struct mt_runtime *mt_cuda_initialized_runtime(void);
PyObject *mt_cuda_runtime_error(int err);

/* minitorch.OutOfMemoryError and minitorch.AcceleratorError (both RuntimeError subclasses). */
extern PyObject *mt_OutOfMemoryError;
extern PyObject *mt_AcceleratorError;

/* The private functions behind minitorch.cuda (_cuda_getDeviceCount, _cuda_memoryStats, ...). */
extern PyMethodDef mt_cuda_functions[];

int mt_devices_init(PyObject *module);

#endif
