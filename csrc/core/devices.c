/* devices.c: the device layer between storages and device runtimes (see devices.h). It picks the
 * runtime once (simulated GPU if MINITORCH_SIMULATE_GPU is set, else CUDA in a CUDA build, else none),
 * performs torch's lazy CUDA initialisation with torch's errors, holds the current device and one
 * caching allocator per device, exposes the raw facts minitorch.cuda is built from as private functions
 * of minitorch._C, and lends the kernels what they cannot reach themselves (device memory for
 * temporaries without Python errors, Python's import path for finding cuBLAS). It never includes a CUDA
 * header. */
#include "devices.h"
#include "scalar.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../alloc/caching_allocator.h"
#include "../kernels/cuda/cublas.h"
#include "../kernels/cuda/cudnn.h"
#include "../runtime/runtime.h"

#ifdef MINITORCH_WITH_CUDA
const mt_runtime *mt_cuda_runtime(void);
/* cudaGetDeviceCount's answer when no driver can be loaded, and the driver version it reports */
int mt_cuda_driver_version(void);
#endif

/* cudaErrorInsufficientDriver: what the CUDA runtime says on a machine without a driver */
#define RT_ERROR_INSUFFICIENT_DRIVER 35

PyObject *mt_OutOfMemoryError = NULL;
PyObject *mt_AcceleratorError = NULL;

static const mt_runtime *runtime = NULL;
static int runtime_chosen = 0;
static int initialized = 0;
static int in_bad_fork = 0;
static int num_devices = 0;
/* minitorch.cuda's queue of calls made before initialisation (torch's _lazy_call), run once when it ends */
static PyObject *init_hook = NULL;
static mt_caching_allocator **allocators = NULL;
static _Thread_local int current_device = 0;

static const mt_runtime *
get_runtime(void)
{
    if (!runtime_chosen) {
        runtime_chosen = 1;
        if (mt_simulated_requested() != 0) {
            runtime = mt_simulated_runtime();
        }
        else {
#ifdef MINITORCH_WITH_CUDA
            runtime = mt_cuda_runtime();
#else
            runtime = NULL;
#endif
        }
    }
    return runtime;
}

int
mt_cuda_is_simulated(void)
{
    const mt_runtime *rt = get_runtime();
    return rt != NULL && rt == mt_simulated_runtime();
}

int
mt_cuda_device_count(void)
{
    const mt_runtime *rt = get_runtime();
    int count = 0;
    if (initialized) {
        return num_devices;
    }
    if (rt == NULL || rt->device_count(&count) != MT_RT_SUCCESS || count < 0) {
        return 0;
    }
    return count;
}

int
mt_cuda_is_initialized(void)
{
    return initialized && !in_bad_fork;
}

static void
after_fork_in_child(void)
{
    /* a CUDA context does not survive fork; torch refuses to use CUDA in the child */
    if (initialized) {
        in_bad_fork = 1;
    }
}

/* Runs the hook once, whichever call initialised CUDA (a cuda tensor's creation included). It runs with CUDA
 * already initialised, so calls it makes that need CUDA do not start another initialisation; its error
 * (torch's DeferredCudaCallError) is the initialising call's error. */
static int
run_init_hook(void)
{
    PyObject *hook = init_hook, *r;

    if (hook == NULL) {
        return 0;
    }
    init_hook = NULL;
    r = PyObject_CallNoArgs(hook);
    Py_DECREF(hook);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

int
mt_cuda_lazy_init(void)
{
    const mt_runtime *rt;
    int count = 0;
    int err;
    const char *no_cache_env;
    int no_caching;

    if (in_bad_fork) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you "
                        "must use the 'spawn' start method");
        return -1;
    }
    if (initialized) {
        return 0;
    }
    rt = get_runtime();
    if (rt == NULL) {
        PyErr_SetString(PyExc_AssertionError, "minitorch not compiled with CUDA enabled");
        return -1;
    }
    if (rt == mt_simulated_runtime() && mt_simulated_config_error() != NULL) {
        PyErr_Format(PyExc_RuntimeError, "minitorch simulated GPU: %s", mt_simulated_config_error());
        return -1;
    }
    err = rt->device_count(&count);
    if (err == RT_ERROR_INSUFFICIENT_DRIVER) {
#ifdef MINITORCH_WITH_CUDA
        int driver = mt_cuda_driver_version();
#else
        int driver = 0;
#endif
        if (driver <= 0) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
                            "installed a driver from http://www.nvidia.com/Download/index.aspx");
        }
        else {
            PyErr_Format(PyExc_RuntimeError,
                         "The NVIDIA driver on your system is too old (found version %d). Please update your "
                         "GPU driver by downloading and installing a new version from the URL: "
                         "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org "
                         "to install a PyTorch version that has been compiled with your version of the CUDA "
                         "driver.",
                         driver);
        }
        return -1;
    }
    if (err == MT_RT_ERROR_NO_DEVICE || (err == MT_RT_SUCCESS && count <= 0)) {
        PyErr_SetString(PyExc_RuntimeError, "No CUDA GPUs are available");
        return -1;
    }
    if (err != MT_RT_SUCCESS) {
        PyErr_Format(mt_AcceleratorError, "CUDA error: %s", rt->error_string(err));
        return -1;
    }
    no_cache_env = getenv("MINITORCH_NO_CUDA_MEMORY_CACHING");
    no_caching = no_cache_env != NULL && strcmp(no_cache_env, "") != 0 && strcmp(no_cache_env, "0") != 0;
    allocators = PyMem_RawCalloc((size_t)count, sizeof(*allocators));
    if (allocators == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < count; i++) {
        allocators[i] = mt_caching_allocator_new(rt, i, no_caching);
        if (allocators[i] == NULL) {
            for (int j = 0; j < i; j++) {
                mt_caching_allocator_destroy(allocators[j]);
            }
            PyMem_RawFree(allocators);
            allocators = NULL;
            PyErr_NoMemory();
            return -1;
        }
    }
    num_devices = count;
    initialized = 1;
    return run_init_hook();
}

const mt_runtime *
mt_cuda_initialized_runtime(void)
{
    return mt_cuda_lazy_init() < 0 ? NULL : runtime;
}

PyObject *
mt_cuda_runtime_error(int err)
{
    PyErr_Format(mt_AcceleratorError, "CUDA error: %s", runtime->error_string(err));
    return NULL;
}

int
mt_device_is_host_memory(mt_device d)
{
    if (d.type == MT_DEVICE_CPU) {
        return 1;
    }
    return d.type == MT_DEVICE_CUDA && get_runtime() != NULL && get_runtime()->host_accessible;
}

#define INVALID_ORDINAL                                                                             \
    "CUDA error: invalid device ordinal\n"                                                         \
    "GPU device may be out of range, do you have enough GPUs?\n"                                   \
    "For more detailed error information, run with CUDA_LOG_FILE=stderr\n"                         \
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"

static int
invalid_ordinal(void)
{
    PyErr_SetString(mt_AcceleratorError, INVALID_ORDINAL);
    return -1;
}

int
mt_device_resolve(mt_device requested, mt_device *out)
{
    if (requested.type == MT_DEVICE_CPU) {
        *out = mt_cpu_device();
        return 0;
    }
    if (requested.type == MT_DEVICE_META) {
        *out = mt_meta_device();
        return 0;
    }
    if (requested.type != MT_DEVICE_CUDA) {
        char name[64];
        mt_device_format(requested, name, sizeof(name));
        PyErr_Format(PyExc_RuntimeError, "minitorch tensors can live on cpu, cuda or meta devices, not '%s'", name);
        return -1;
    }
    if (mt_cuda_lazy_init() < 0) {
        return -1;
    }
    out->type = MT_DEVICE_CUDA;
    out->index = requested.index < 0 ? current_device : requested.index;
    if (out->index >= num_devices) {
        return invalid_ordinal();
    }
    return 0;
}

int
mt_cuda_current_device(void)
{
    return current_device;
}

int
mt_cuda_set_device(int index)
{
    if (mt_cuda_lazy_init() < 0) {
        return -1;
    }
    if (index < 0) {
        return 0;
    }
    if (index >= num_devices) {
        return invalid_ordinal();
    }
    current_device = index;
    return 0;
}

int
mt_cuda_malloc_raw(int index, size_t nbytes, void **ptr, char *errbuf, size_t errlen)
{
    int err;

    *ptr = NULL;
    if (!initialized || in_bad_fork || index < 0 || index >= num_devices) {
        snprintf(errbuf, errlen, "%s", INVALID_ORDINAL);
        return MT_ALLOC_ERR_RUNTIME;
    }
    /* with the GIL, if the caller holds it (devices.h says why) */
    err = mt_caching_allocator_malloc(allocators[index], nbytes, ptr, errbuf, errlen);
    return err;
}

void *
mt_cuda_malloc(int index, size_t nbytes)
{
    char errbuf[1024];
    void *ptr = NULL;
    int err;

    if (mt_cuda_lazy_init() < 0) {
        return NULL;
    }
    if (index < 0 || index >= num_devices) {
        invalid_ordinal();
        return NULL;
    }
    err = mt_cuda_malloc_raw(index, nbytes, &ptr, errbuf, sizeof(errbuf));
    if (err == MT_ALLOC_OK) {
        return ptr;
    }
    if (err == MT_ALLOC_ERR_OOM) {
        PyErr_SetString(mt_OutOfMemoryError, errbuf);
    }
    else if (err == MT_ALLOC_ERR_HOST_MEMORY) {
        PyErr_NoMemory();
    }
    else {
        PyErr_SetString(mt_AcceleratorError, errbuf);
    }
    return NULL;
}

void
mt_cuda_free(int index, void *ptr)
{
    if (ptr == NULL || allocators == NULL || in_bad_fork) {
        return;
    }
    /* a failure here cannot be reported (we are in a deallocator); the allocator keeps the message */
    mt_caching_allocator_free(allocators[index], ptr);
}

int
mt_memcpy(void *dst, mt_device dst_dev, mt_storage *dst_owner, const void *src, mt_device src_dev,
          mt_storage *src_owner, size_t nbytes)
{
    const mt_runtime *rt = get_runtime();
    mt_memcpy_kind kind;
    int device;
    int err;

    /* a meta tensor has no bytes: nothing leaves it, not even none (torch refuses an empty one too), and
     * anything may be written into it */
    if (dst_dev.type == MT_DEVICE_META) {
        return 0;
    }
    if (src_dev.type == MT_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return -1;
    }
    if (nbytes == 0) {
        return 0;
    }
    if (dst_dev.type == MT_DEVICE_CPU && src_dev.type == MT_DEVICE_CPU) {
        memcpy(dst, src, nbytes);
        return 0;
    }
    if (rt == NULL) {
        PyErr_SetString(PyExc_AssertionError, "minitorch not compiled with CUDA enabled");
        return -1;
    }
    if (dst_dev.type == MT_DEVICE_CUDA && src_dev.type == MT_DEVICE_CUDA) {
        kind = MT_MEMCPY_DEVICE_TO_DEVICE;
        device = dst_dev.index;
    }
    else if (dst_dev.type == MT_DEVICE_CUDA) {
        kind = MT_MEMCPY_HOST_TO_DEVICE;
        device = dst_dev.index;
    }
    else {
        kind = MT_MEMCPY_DEVICE_TO_HOST;
        device = src_dev.index;
    }
    (void)device;
    if (dst_owner != NULL) {
        mt_storage_incref(dst_owner);
    }
    if (src_owner != NULL) {
        mt_storage_incref(src_owner);
    }
    Py_BEGIN_ALLOW_THREADS
    err = rt->memcpy(dst, dst_dev.index, src, src_dev.index, nbytes, kind);
    Py_END_ALLOW_THREADS
    if (dst_owner != NULL) {
        mt_storage_decref(dst_owner);
    }
    if (src_owner != NULL) {
        mt_storage_decref(src_owner);
    }
    if (err != MT_RT_SUCCESS) {
        PyErr_Format(mt_AcceleratorError, "CUDA error: %s", rt->error_string(err));
        return -1;
    }
    return 0;
}

/* ---- minitorch._C._cuda_* : the raw facts behind minitorch.cuda ------------------------------- */

static int
device_arg(PyObject *arg, int *index)
{
    /* None means the current device; ints, 'cuda:1' and device objects name one */
    mt_device d;
    if (arg == Py_None) {
        *index = current_device;
        return 0;
    }
    if (mt_device_from_object(arg, &d) < 0) {
        return -1;
    }
    if (d.type != MT_DEVICE_CUDA) {
        PyErr_Format(PyExc_ValueError, "Expected a cuda device, but got: %S", arg);
        return -1;
    }
    *index = d.index < 0 ? current_device : d.index;
    return 0;
}

static PyObject *
py_device_count(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(mt_cuda_device_count());
}

static PyObject *
py_is_compiled(PyObject *self, PyObject *unused)
{
#ifdef MINITORCH_WITH_CUDA
    Py_RETURN_TRUE;
#else
    return PyBool_FromLong(get_runtime() != NULL);
#endif
}

static PyObject *
py_is_simulated(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_cuda_is_simulated());
}

static PyObject *
py_lazy_init(PyObject *self, PyObject *unused)
{
    if (mt_cuda_lazy_init() < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _cuda_setInitHook(callable): called once, right after CUDA's initialisation (see run_init_hook). */
static PyObject *
py_set_init_hook(PyObject *self, PyObject *hook)
{
    if (!PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "_cuda_setInitHook expects a callable");
        return NULL;
    }
    Py_INCREF(hook);
    Py_XSETREF(init_hook, hook);
    Py_RETURN_NONE;
}

static PyObject *
py_is_initialized(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_cuda_is_initialized());
}

static PyObject *
py_current_device(PyObject *self, PyObject *unused)
{
    if (mt_cuda_lazy_init() < 0) {
        return NULL;
    }
    return PyLong_FromLong(current_device);
}

static PyObject *
py_set_device(PyObject *self, PyObject *arg)
{
    int64_t index;
    /* torch's THPUtils_unpackLong: its ValueError for an int outside int64 */
    if (mt_unpack_long(arg, &index) < 0) {
        return NULL;
    }
    if (mt_cuda_set_device((int)index) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static int
checked_index(PyObject *arg, int *index)
{
    if (mt_cuda_lazy_init() < 0 || device_arg(arg, index) < 0) {
        return -1;
    }
    if (*index < 0 || *index >= num_devices) {
        return invalid_ordinal();
    }
    return 0;
}

static PyObject *
py_get_device_properties(PyObject *self, PyObject *arg)
{
    mt_device_properties p;
    int index;
    int err;

    if (checked_index(arg, &index) < 0) {
        return NULL;
    }
    memset(&p, 0, sizeof(p));
    err = runtime->get_properties(index, &p);
    if (err != MT_RT_SUCCESS) {
        PyErr_Format(mt_AcceleratorError, "CUDA error: %s", runtime->error_string(err));
        return NULL;
    }
    return Py_BuildValue("{s:s,s:i,s:i,s:K,s:i,s:i,s:y#}", "name", p.name, "major", p.major, "minor", p.minor,
                         "total_memory", (unsigned long long)p.total_memory, "multi_processor_count",
                         p.multi_processor_count, "L2_cache_size", p.l2_cache_size, "uuid", (const char *)p.uuid,
                         (Py_ssize_t)16);
}

static PyObject *
py_mem_get_info(PyObject *self, PyObject *arg)
{
    size_t free_bytes = 0, total = 0;
    int index;
    int err;

    if (checked_index(arg, &index) < 0) {
        return NULL;
    }
    err = runtime->mem_get_info(index, &free_bytes, &total);
    if (err != MT_RT_SUCCESS) {
        PyErr_Format(mt_AcceleratorError, "CUDA error: %s", runtime->error_string(err));
        return NULL;
    }
    return Py_BuildValue("(KK)", (unsigned long long)free_bytes, (unsigned long long)total);
}

static PyObject *
py_synchronize(PyObject *self, PyObject *arg)
{
    int index;
    int err;
    if (checked_index(arg, &index) < 0) {
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    err = runtime->synchronize(index);
    Py_END_ALLOW_THREADS
    if (err != MT_RT_SUCCESS) {
        PyErr_Format(mt_AcceleratorError, "CUDA error: %s", runtime->error_string(err));
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
invalid_stats_device(int index)
{
    /* the allocator's own check (torch's NativeCachingAllocator::assertValidDevice) */
    PyErr_Format(PyExc_RuntimeError, "Invalid device argument %d: did you call init?", index);
    return NULL;
}

static int
add_stat(PyObject *dict, const char *name, const mt_stat *stat)
{
    static const char *pools[MT_STAT_TYPES] = {"all", "small_pool", "large_pool"};
    static const char *fields[4] = {"current", "peak", "allocated", "freed"};
    char key[128];
    for (int p = 0; p < MT_STAT_TYPES; p++) {
        const int64_t values[4] = {stat[p].current, stat[p].peak, stat[p].allocated, stat[p].freed};
        for (int f = 0; f < 4; f++) {
            PyObject *v = PyLong_FromLongLong(values[f]);
            int r;
            snprintf(key, sizeof(key), "%s.%s.%s", name, pools[p], fields[f]);
            if (v == NULL) {
                return -1;
            }
            r = PyDict_SetItemString(dict, key, v);
            Py_DECREF(v);
            if (r < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int
add_int(PyObject *dict, const char *key, int64_t value)
{
    PyObject *v = PyLong_FromLongLong(value);
    int r;
    if (v == NULL) {
        return -1;
    }
    r = PyDict_SetItemString(dict, key, v);
    Py_DECREF(v);
    return r;
}

static PyObject *
py_memory_stats(PyObject *self, PyObject *arg)
{
    /* a flat dict with torch's memory_stats() keys; empty before CUDA is initialised, like torch */
    mt_allocator_stats s;
    PyObject *dict = PyDict_New();
    int index;

    if (dict == NULL) {
        return NULL;
    }
    if (!mt_cuda_is_initialized()) {
        return dict;
    }
    if (device_arg(arg, &index) < 0) {
        Py_DECREF(dict);
        return NULL;
    }
    if (index < 0 || index >= num_devices) {
        Py_DECREF(dict);
        return invalid_stats_device(index);
    }
    mt_caching_allocator_get_stats(allocators[index], &s);
    if (add_stat(dict, "active", s.active) < 0 || add_stat(dict, "active_bytes", s.active_bytes) < 0 ||
        add_stat(dict, "allocated_bytes", s.allocated_bytes) < 0 || add_stat(dict, "allocation", s.allocation) < 0 ||
        add_stat(dict, "inactive_split", s.inactive_split) < 0 ||
        add_stat(dict, "inactive_split_bytes", s.inactive_split_bytes) < 0 ||
        add_stat(dict, "requested_bytes", s.requested_bytes) < 0 ||
        add_stat(dict, "reserved_bytes", s.reserved_bytes) < 0 || add_stat(dict, "segment", s.segment) < 0 ||
        add_int(dict, "num_alloc_retries", s.num_alloc_retries) < 0 || add_int(dict, "num_ooms", s.num_ooms) < 0 ||
        add_int(dict, "num_oom_rejections", 0) < 0 ||
        add_int(dict, "num_sync_all_streams", s.num_sync_all_streams) < 0 ||
        add_int(dict, "num_device_alloc", s.num_device_alloc) < 0 ||
        add_int(dict, "num_device_free", s.num_device_free) < 0 ||
        add_int(dict, "oversize_allocations.current", s.oversize_allocations.current) < 0 ||
        add_int(dict, "oversize_allocations.peak", s.oversize_allocations.peak) < 0 ||
        add_int(dict, "oversize_allocations.allocated", s.oversize_allocations.allocated) < 0 ||
        add_int(dict, "oversize_allocations.freed", s.oversize_allocations.freed) < 0 ||
        add_int(dict, "oversize_segments.current", s.oversize_segments.current) < 0 ||
        add_int(dict, "oversize_segments.peak", s.oversize_segments.peak) < 0 ||
        add_int(dict, "oversize_segments.allocated", s.oversize_segments.allocated) < 0 ||
        add_int(dict, "oversize_segments.freed", s.oversize_segments.freed) < 0 ||
        add_int(dict, "max_split_size", s.max_split_size) < 0) {
        Py_DECREF(dict);
        return NULL;
    }
    return dict;
}

static PyObject *
py_empty_cache(PyObject *self, PyObject *unused)
{
    char errbuf[512];
    if (!mt_cuda_is_initialized()) {
        Py_RETURN_NONE;
    }
    for (int i = 0; i < num_devices; i++) {
        int err;
        Py_BEGIN_ALLOW_THREADS
        err = mt_caching_allocator_empty_cache(allocators[i]);
        Py_END_ALLOW_THREADS
        if (err != MT_ALLOC_OK) {
            mt_caching_allocator_last_error(allocators[i], errbuf, sizeof(errbuf));
            PyErr_SetString(mt_AcceleratorError, errbuf);
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
py_reset_peak(PyObject *self, PyObject *arg)
{
    int index;
    if (!mt_cuda_is_initialized()) {
        PyErr_SetString(PyExc_RuntimeError, "invalid argument to reset_peak_memory_stats");
        return NULL;
    }
    if (device_arg(arg, &index) < 0) {
        return NULL;
    }
    if (index < 0 || index >= num_devices) {
        return invalid_stats_device(index);
    }
    mt_caching_allocator_reset_peak(allocators[index]);
    Py_RETURN_NONE;
}

static PyObject *
py_reset_accumulated(PyObject *self, PyObject *arg)
{
    int index;
    if (!mt_cuda_is_initialized()) {
        PyErr_SetString(PyExc_RuntimeError, "invalid argument to reset_accumulated_memory_stats");
        return NULL;
    }
    if (device_arg(arg, &index) < 0) {
        return NULL;
    }
    if (index < 0 || index >= num_devices) {
        return invalid_stats_device(index);
    }
    mt_caching_allocator_reset_accumulated(allocators[index]);
    Py_RETURN_NONE;
}

static PyObject *
py_runtime_info(PyObject *self, PyObject *unused)
{
    const mt_runtime *rt = get_runtime();
    const char *err = mt_simulated_config_error();
    return Py_BuildValue("{s:s,s:O,s:s}", "runtime", rt ? rt->name : "none", "simulated",
                         mt_cuda_is_simulated() ? Py_True : Py_False, "config_error", err ? err : "");
}

/* Versions for `python -m minitorch` and minitorch.version: None where this build has no CUDA. */
static PyObject *
py_runtime_version(PyObject *self, PyObject *unused)
{
#ifdef MINITORCH_WITH_CUDA
    return PyLong_FromLong(mt_cuda_runtime_version());
#else
    Py_RETURN_NONE;
#endif
}

static PyObject *
py_driver_version(PyObject *self, PyObject *unused)
{
#ifdef MINITORCH_WITH_CUDA
    return PyLong_FromLong(mt_cuda_driver_version());
#else
    Py_RETURN_NONE;
#endif
}

/* cuBLAS's version ("12.8.4"); loads cuBLAS if the first CUDA matmul has not yet. None without it. */
static PyObject *
py_cublas_version(PyObject *self, PyObject *unused)
{
    const char *v = mt_cublas_version_string();
    if (v == NULL || v[0] == '\0') {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(v);
}

/* cuDNN's cudnnGetVersion() (91002); loads cuDNN if no CUDA convolution has. None without it, under the
 * simulated GPU and in a build without CUDA. */
static PyObject *
py_cudnn_version(PyObject *self, PyObject *unused)
{
    long v = mt_cudnn_version();
    if (v <= 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(v);
}

/* torch.backends.cuda.matmul.allow_tf32 */
static PyObject *
py_get_allow_tf32(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_cuda_get_allow_tf32());
}

static PyObject *
py_set_allow_tf32(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg)) {
        PyErr_Format(PyExc_RuntimeError, "set_allow_tf32_cublas expects a bool, but got %s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    mt_cuda_set_allow_tf32(arg == Py_True);
    Py_RETURN_NONE;
}

/* torch.backends.cuda.matmul.allow_fp16/bf16_reduced_precision_reduction and their _split_k halves: torch's
 * _C pairs, a getter giving (allow_reduced_precision, allow_splitk) and a setter taking the first and
 * optionally the second (None: allowed), with torch's messages */
static PyObject *
reduction_get(mt_dtype dtype)
{
    int reduced = 0, splitk = 0;

    mt_cuda_get_reduced_precision_reduction(dtype, &reduced, &splitk);
    return PyTuple_Pack(2, reduced ? Py_True : Py_False, splitk ? Py_True : Py_False);
}

static PyObject *
reduction_set(mt_dtype dtype, const char *setter, PyObject *args)
{
    PyObject *reduced = NULL;
    PyObject *splitk = Py_None;

    if (!PyArg_ParseTuple(args, "O|O", &reduced, &splitk)) {
        return NULL;
    }
    if (!PyBool_Check(reduced)) {
        PyErr_Format(PyExc_RuntimeError, "%s expects a bool for allow_reduced_precision, but got %s", setter,
                     Py_TYPE(reduced)->tp_name);
        return NULL;
    }
    if (splitk != Py_None && !PyBool_Check(splitk)) {
        PyErr_Format(PyExc_RuntimeError, "%s expects a bool for allow_splitk, but got %s", setter,
                     Py_TYPE(splitk)->tp_name);
        return NULL;
    }
    if (mt_cuda_set_reduced_precision_reduction(dtype, reduced == Py_True, splitk != Py_False) < 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "allow_splitk=False is not supported when reduced precision reductions are enabled");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
py_get_fp16_reduction(PyObject *self, PyObject *unused)
{
    return reduction_get(MT_FLOAT16);
}

static PyObject *
py_set_fp16_reduction(PyObject *self, PyObject *args)
{
    return reduction_set(MT_FLOAT16, "set_allow_fp16_reduction_cublas", args);
}

static PyObject *
py_get_bf16_reduction(PyObject *self, PyObject *unused)
{
    return reduction_get(MT_BFLOAT16);
}

static PyObject *
py_set_bf16_reduction(PyObject *self, PyObject *args)
{
    return reduction_set(MT_BFLOAT16, "set_allow_bf16_reduction_cublas", args);
}

/* torch.backends.cuda.matmul.allow_fp16_accumulation */
static PyObject *
py_get_fp16_accumulation(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_cuda_get_allow_fp16_accumulation());
}

static PyObject *
py_set_fp16_accumulation(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg)) {
        PyErr_Format(PyExc_RuntimeError, "set_allow_fp16_accumulation_cublas expects a bool, but got %s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    mt_cuda_set_allow_fp16_accumulation(arg == Py_True);
    Py_RETURN_NONE;
}

PyMethodDef mt_cuda_functions[] = {
    {"_cuda_getDeviceCount", py_device_count, METH_NOARGS, NULL},
    {"_cuda_isCompiled", py_is_compiled, METH_NOARGS, NULL},
    {"_cuda_isSimulated", py_is_simulated, METH_NOARGS, NULL},
    {"_cuda_init", py_lazy_init, METH_NOARGS, NULL},
    {"_cuda_isInitialized", py_is_initialized, METH_NOARGS, NULL},
    {"_cuda_setInitHook", py_set_init_hook, METH_O, NULL},
    {"_cuda_getDevice", py_current_device, METH_NOARGS, NULL},
    {"_cuda_setDevice", py_set_device, METH_O, NULL},
    {"_cuda_getDeviceProperties", py_get_device_properties, METH_O, NULL},
    {"_cuda_memGetInfo", py_mem_get_info, METH_O, NULL},
    {"_cuda_synchronize", py_synchronize, METH_O, NULL},
    {"_cuda_memoryStats", py_memory_stats, METH_O, NULL},
    {"_cuda_emptyCache", py_empty_cache, METH_NOARGS, NULL},
    {"_cuda_resetPeakMemoryStats", py_reset_peak, METH_O, NULL},
    {"_cuda_resetAccumulatedMemoryStats", py_reset_accumulated, METH_O, NULL},
    {"_cuda_runtimeInfo", py_runtime_info, METH_NOARGS, NULL},
    {"_cuda_runtimeVersion", py_runtime_version, METH_NOARGS, NULL},
    {"_cuda_driverVersion", py_driver_version, METH_NOARGS, NULL},
    {"_cublas_version", py_cublas_version, METH_NOARGS, NULL},
    {"_cudnn_version", py_cudnn_version, METH_NOARGS, NULL},
    {"_get_cublas_allow_tf32", py_get_allow_tf32, METH_NOARGS, NULL},
    {"_set_cublas_allow_tf32", py_set_allow_tf32, METH_O, NULL},
    {"_get_cublas_allow_fp16_reduced_precision_reduction", py_get_fp16_reduction, METH_NOARGS, NULL},
    {"_set_cublas_allow_fp16_reduced_precision_reduction", py_set_fp16_reduction, METH_VARARGS, NULL},
    {"_get_cublas_allow_bf16_reduced_precision_reduction", py_get_bf16_reduction, METH_NOARGS, NULL},
    {"_set_cublas_allow_bf16_reduced_precision_reduction", py_set_bf16_reduction, METH_VARARGS, NULL},
    {"_get_cublas_allow_fp16_accumulation", py_get_fp16_accumulation, METH_NOARGS, NULL},
    {"_set_cublas_allow_fp16_accumulation", py_set_fp16_accumulation, METH_O, NULL},
    {NULL},
};

/* sys.path[index] for cuBLAS's and cuDNN's loaders, which cannot ask Python itself (kernels/cuda/cublas.h). */
static int
sys_path_entry(size_t index, char *buf, size_t len)
{
    PyObject *sys_path = PySys_GetObject("path"); /* borrowed */
    const char *dir;

    if (sys_path == NULL || !PyList_Check(sys_path) || index >= (size_t)PyList_GET_SIZE(sys_path)) {
        return 0;
    }
    dir = PyUnicode_Check(PyList_GET_ITEM(sys_path, index)) ? PyUnicode_AsUTF8(PyList_GET_ITEM(sys_path, index))
                                                             : NULL;
    if (dir == NULL) {
        PyErr_Clear();
        return -1;
    }
    snprintf(buf, len, "%s", dir);
    return 1;
}

int
mt_devices_init(PyObject *module)
{
    static int atfork_registered = 0;
    mt_OutOfMemoryError = PyErr_NewExceptionWithDoc(
        "minitorch.OutOfMemoryError", "Raised when a CUDA device runs out of memory.", PyExc_RuntimeError, NULL);
    mt_AcceleratorError = PyErr_NewExceptionWithDoc(
        "minitorch.AcceleratorError", "Raised when the device runtime reports an error.", PyExc_RuntimeError, NULL);
    if (mt_OutOfMemoryError == NULL || mt_AcceleratorError == NULL) {
        return -1;
    }
    Py_INCREF(mt_OutOfMemoryError);
    Py_INCREF(mt_AcceleratorError);
    if (PyModule_AddObject(module, "OutOfMemoryError", mt_OutOfMemoryError) < 0 ||
        PyModule_AddObject(module, "AcceleratorError", mt_AcceleratorError) < 0) {
        return -1;
    }
    if (!atfork_registered) {
        pthread_atfork(NULL, NULL, after_fork_in_child);
        atfork_registered = 1;
    }
    mt_cublas_set_path_hook(sys_path_entry);
    mt_cudnn_set_path_hook(sys_path_entry);
    return 0;
}
