/* pinned_storage.c: page-locked host storage (pinned_storage.h): its allocation from the CUDA runtime's
 * pinned pool or, on the simulated GPU, aligned host memory, its release, and whether memory is pinned.
 * It knows nothing of tensors; copying into the storage is ops/copy.c's. */
#include "pinned_storage.h"

#include <stdlib.h>

#include "devices.h"
#include "../runtime/runtime.h"

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

mt_storage *
mt_pinned_storage_new(size_t nbytes)
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

int
mt_storage_is_pinned(const mt_storage *s)
{
    if (s->pinned) {
        return 1;
    }
#ifdef MINITORCH_WITH_CUDA
    /* memory another library pinned; asked only once CUDA is up, so that is_pinned() never starts it */
    if (mt_cuda_is_initialized() && !mt_cuda_is_simulated() && s->data != NULL) {
        return mt_cuda_is_pinned(s->data);
    }
#endif
    return 0;
}
