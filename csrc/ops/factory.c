/* factory.c: the functions that make new tensors from nothing but arguments: zeros, ones, empty, full,
 * arange, eye, the *_like forms, and the random factories with the generators behind them (torch's
 * mt19937 on the CPU; a Philox stream, the same on the simulated GPU and in the CUDA kernels, for CUDA
 * devices: host loops for the simulated GPU's host memory, the device kernels of kernels/cuda for a real
 * GPU's). Argument parsing follows torch's signatures and messages. */
#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/philox.h"
#include "../kernels/cpu/rng.h"
#include "../kernels/cuda/cuda_kernels.h"
#include "copy.h"
#include "methods.h"

#include <math.h>
#include <string.h>

static mt_cpu_generator cpu_generator;
static int cpu_generator_ready = 0;

/* The CUDA generator: a seed and an offset that advances by the counters each call consumes. */
static uint64_t cuda_seed = MT_CPU_DEFAULT_SEED;
static uint64_t cuda_offset = 0;

static mt_cpu_generator *
default_generator(void)
{
    if (!cpu_generator_ready) {
        /* torch seeds its global CPU generator from /dev/urandom; manual_seed makes it repeatable */
        mt_cpu_generator_init(&cpu_generator, mt_cpu_nondeterministic_seed());
        cpu_generator_ready = 1;
    }
    return &cpu_generator;
}

/* ---- keyword arguments shared by the factories ------------------------------------------------ */

typedef struct {
    int has_dtype;
    mt_dtype dtype;
    int has_device;
    mt_device device;
    int requires_grad;
} factory_options;

/* Parses dtype=, device=, requires_grad= and ignores layout=/pin_memory=/memory_format=/generator=.
 * `allowed` lists the extra keywords (e.g. "size") this function handles itself; their values are
 * returned in `extra` in the same order. */
static int
parse_factory_kwargs(const char *fname, PyObject *const *kwvalues, PyObject *kwnames, factory_options *opt,
                     const char *const *allowed, PyObject **extra)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;

    opt->has_dtype = 0;
    opt->has_device = 0;
    opt->requires_grad = 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        PyObject *value = kwvalues[i];
        int matched = 0;
        if (allowed != NULL) {
            for (int k = 0; allowed[k] != NULL; k++) {
                if (PyUnicode_CompareWithASCIIString(key, allowed[k]) == 0) {
                    extra[k] = value;
                    matched = 1;
                    break;
                }
            }
        }
        if (matched) {
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
            if (value != Py_None) {
                if (!mt_Dtype_Check(value) && value != (PyObject *)&PyFloat_Type &&
                    value != (PyObject *)&PyLong_Type && value != (PyObject *)&PyBool_Type) {
                    PyErr_Format(PyExc_TypeError, "%s(): argument 'dtype' must be torch.dtype, not %s", fname,
                                 Py_TYPE(value)->tp_name);
                    return -1;
                }
                if (mt_dtype_from_object(value, &opt->dtype) < 0) {
                    return -1;
                }
                opt->has_dtype = 1;
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "device") == 0) {
            if (value != Py_None) {
                if (mt_device_from_object(value, &opt->device) < 0) {
                    return -1;
                }
                opt->has_device = 1;
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "requires_grad") == 0) {
            opt->requires_grad = PyObject_IsTrue(value);
            if (opt->requires_grad < 0) {
                return -1;
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "layout") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "pin_memory") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "memory_format") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "generator") == 0) {
            /* strided layout and the default generator are the only ones minitorch has */
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
    }
    return 0;
}

/* Allocates the result of a factory: resolves the device, checks requires_grad. */
static mt_TensorObject *
factory_empty(int ndim, const int64_t *sizes, mt_dtype dtype, const factory_options *opt)
{
    mt_device device = mt_cpu_device();
    mt_TensorObject *t;

    if (opt->has_device && mt_device_resolve(opt->device, &device) < 0) {
        return NULL;
    }
    if (opt->requires_grad && !mt_dtype_is_floating(dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    t = mt_tensor_empty(ndim, sizes, dtype, device);
    if (t != NULL) {
        t->requires_grad = opt->requires_grad;
    }
    return t;
}

static PyObject *
filled(mt_TensorObject *t, mt_scalar value)
{
    if (t == NULL) {
        return NULL;
    }
    if (mt_fill_(t, value) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

/* zeros/ones/empty(*size, dtype=None, device=None, requires_grad=False) */
static PyObject *
sized_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int fill,
              double value)
{
    static const char *const allowed[] = {"size", "out", NULL};
    PyObject *extra[2] = {NULL, NULL};
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_TensorObject *t;
    mt_scalar s;

    if (parse_factory_kwargs(fname, args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    if (extra[0] != NULL) {
        if (nargs > 0) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'size'", fname);
            return NULL;
        }
        if (mt_parse_size_object(fname, extra[0], sizes, &ndim) < 0) {
            return NULL;
        }
    }
    else if (mt_parse_size_args(fname, args, nargs, sizes, &ndim) < 0) {
        return NULL;
    }
    if (fill && strcmp(fname, "zeros") == 0) {
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] < 0) {
                PyErr_SetString(PyExc_RuntimeError, "zeros: Dimension size must be non-negative.");
                return NULL;
            }
        }
    }
    t = factory_empty(ndim, sizes, opt.has_dtype ? opt.dtype : mt_default_float_dtype(), &opt);
    if (!fill || t == NULL) {
        return (PyObject *)t;
    }
    s.kind = MT_FLOAT64;
    s.v.d = value;
    return filled(t, s);
}

static PyObject *
mt_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return sized_factory("zeros", args, nargs, kwnames, 1, 0.0);
}

static PyObject *
mt_ones(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return sized_factory("ones", args, nargs, kwnames, 1, 1.0);
}

static PyObject *
mt_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return sized_factory("empty", args, nargs, kwnames, 0, 0.0);
}

static int
fill_value_arg(const char *fname, PyObject *obj, mt_scalar *out)
{
    int r;
    if (mt_Tensor_Check(obj) && ((mt_TensorObject *)obj)->ndim == 0) {
        PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
        if (item == NULL) {
            return -1;
        }
        r = mt_scalar_from_object(item, out);
        Py_DECREF(item);
    }
    else {
        r = mt_scalar_from_object(obj, out);
    }
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'fill_value' (position 2) must be Number, not %s", fname,
                     Py_TYPE(obj)->tp_name);
    }
    return r == 1 ? 0 : -1;
}

static mt_dtype
scalar_default_dtype(mt_scalar s)
{
    return s.kind == MT_FLOAT64 ? mt_default_float_dtype() : s.kind;
}

static PyObject *
mt_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"size", "fill_value", "out", NULL};
    PyObject *extra[3] = {NULL, NULL, NULL};
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_scalar value;
    PyObject *size_obj, *value_obj;

    if (parse_factory_kwargs("full", args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    size_obj = nargs > 0 ? args[0] : extra[0];
    value_obj = nargs > 1 ? args[1] : extra[1];
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "full() takes 2 positional arguments but %zd were given", nargs);
        return NULL;
    }
    if (size_obj == NULL || value_obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "full() missing required arguments: 'size' and 'fill_value'");
        return NULL;
    }
    if (mt_parse_size_object("full", size_obj, sizes, &ndim) < 0 || fill_value_arg("full", value_obj, &value) < 0) {
        return NULL;
    }
    return filled(factory_empty(ndim, sizes, opt.has_dtype ? opt.dtype : scalar_default_dtype(value), &opt), value);
}

static PyObject *
like_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int kind)
{
    /* kind: 0 empty, 1 zeros, 2 ones, 3 full, 4 rand, 5 randn */
    static const char *const allowed[] = {"input", "fill_value", NULL};
    PyObject *extra[2] = {NULL, NULL};
    factory_options opt;
    mt_TensorObject *like;
    mt_TensorObject *t;
    PyObject *input;
    mt_scalar value;

    if (parse_factory_kwargs(fname, args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    input = nargs > 0 ? args[0] : extra[0];
    if (input == NULL || !mt_Tensor_Check(input)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' (position 1) must be Tensor, not %s", fname,
                     input ? Py_TYPE(input)->tp_name : "nothing");
        return NULL;
    }
    like = (mt_TensorObject *)input;
    if (!opt.has_device) {
        opt.has_device = 1;
        opt.device = mt_tensor_device(like);
    }
    {
        mt_device device;
        mt_dtype dtype = opt.has_dtype ? opt.dtype : like->dtype;
        if (mt_device_resolve(opt.device, &device) < 0) {
            return NULL;
        }
        if (opt.requires_grad && !mt_dtype_is_floating(dtype)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Only Tensors of floating point and complex dtype can require gradients");
            return NULL;
        }
        t = mt_tensor_empty_preserving(like, dtype, device);
        if (t == NULL) {
            return NULL;
        }
        t->requires_grad = opt.requires_grad;
    }
    switch (kind) {
    case 0:
        return (PyObject *)t;
    case 1:
    case 2:
        value.kind = MT_INT64;
        value.v.i = kind == 2;
        return filled(t, value);
    case 3: {
        PyObject *v = nargs > 1 ? args[1] : extra[1];
        if (v == NULL) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_TypeError, "full_like() missing required argument 'fill_value'");
            return NULL;
        }
        if (fill_value_arg(fname, v, &value) < 0) {
            Py_DECREF(t);
            return NULL;
        }
        return filled(t, value);
    }
    default:
        Py_DECREF(t);
        PyErr_SetString(PyExc_RuntimeError, "unknown factory");
        return NULL;
    }
}

static PyObject *
mt_zeros_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return like_factory("zeros_like", args, nargs, kwnames, 1);
}

static PyObject *
mt_ones_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return like_factory("ones_like", args, nargs, kwnames, 2);
}

static PyObject *
mt_empty_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return like_factory("empty_like", args, nargs, kwnames, 0);
}

static PyObject *
mt_full_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return like_factory("full_like", args, nargs, kwnames, 3);
}

/* ---- arange and eye ----------------------------------------------------------------------------- */

static int
number_arg(const char *fname, const char *name, int pos, PyObject *obj, mt_scalar *out)
{
    int r;
    if (mt_Tensor_Check(obj) && ((mt_TensorObject *)obj)->ndim == 0) {
        PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
        if (item == NULL) {
            return -1;
        }
        r = mt_scalar_from_object(item, out);
        Py_DECREF(item);
    }
    else {
        r = mt_scalar_from_object(obj, out);
    }
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Number, not %s", fname, name, pos,
                     Py_TYPE(obj)->tp_name);
    }
    return r == 1 ? 0 : -1;
}

static PyObject *
mt_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"start", "end", "step", "out", NULL};
    PyObject *extra[4] = {NULL, NULL, NULL, NULL};
    PyObject *start_obj = NULL, *end_obj = NULL, *step_obj = NULL;
    mt_scalar start = {MT_INT64, {0}}, end, step = {MT_INT64, {1}};
    factory_options opt;
    mt_dtype dtype;
    double dstart, dend, dstep, dsize;
    int64_t size;
    mt_TensorObject *t;

    if (parse_factory_kwargs("arange", args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "arange() takes at most 3 positional arguments (%zd given)", nargs);
        return NULL;
    }
    if (nargs == 1) {
        end_obj = args[0];
    }
    else if (nargs >= 2) {
        start_obj = args[0];
        end_obj = args[1];
        if (nargs == 3) {
            step_obj = args[2];
        }
    }
    if (extra[0] != NULL) {
        start_obj = extra[0];
    }
    if (extra[1] != NULL) {
        end_obj = extra[1];
    }
    if (extra[2] != NULL) {
        step_obj = extra[2];
    }
    if (end_obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "arange() missing required argument 'end'");
        return NULL;
    }
    if ((start_obj && number_arg("arange", "start", 1, start_obj, &start) < 0) ||
        number_arg("arange", "end", start_obj ? 2 : 1, end_obj, &end) < 0 ||
        (step_obj && number_arg("arange", "step", 3, step_obj, &step) < 0)) {
        return NULL;
    }
    if (opt.has_dtype) {
        dtype = opt.dtype;
    }
    else if (start.kind == MT_FLOAT64 || end.kind == MT_FLOAT64 || step.kind == MT_FLOAT64) {
        dtype = mt_default_float_dtype();
    }
    else {
        dtype = MT_INT64;
    }
    dstart = mt_scalar_to_double(start);
    dend = mt_scalar_to_double(end);
    dstep = mt_scalar_to_double(step);
    if (!isfinite(dstart) || !isfinite(dend)) {
        PyErr_Format(PyExc_RuntimeError, "unsupported range: %R -> %R", start_obj ? start_obj : PyLong_FromLong(0),
                     end_obj);
        return NULL;
    }
    if (dstep == 0.0) {
        PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
        return NULL;
    }
    if ((dstep > 0 && dend < dstart) || (dstep < 0 && dend > dstart)) {
        PyErr_SetString(PyExc_RuntimeError, "upper bound and lower bound inconsistent with step sign");
        return NULL;
    }
    if (mt_dtype_is_floating(dtype) || start.kind == MT_FLOAT64 || end.kind == MT_FLOAT64 ||
        step.kind == MT_FLOAT64) {
        dsize = ceil((dend - dstart) / dstep);
    }
    else {
        /* integer arithmetic, as torch does for integral arguments */
        int64_t s = mt_scalar_to_int64(start), e = mt_scalar_to_int64(end), st = mt_scalar_to_int64(step);
        dsize = (double)((e - s) / st + (((e - s) % st) != 0));
    }
    if (!(dsize >= 0 && dsize <= 9.2e18)) {
        PyErr_SetString(PyExc_RuntimeError, "invalid size, possible overflow?");
        return NULL;
    }
    size = (int64_t)dsize;
    opt.requires_grad = opt.requires_grad && mt_dtype_is_floating(dtype) ? opt.requires_grad : opt.requires_grad;
    {
        mt_TensorObject *host = factory_empty(1, &size, dtype, &(factory_options){0});
        if (host == NULL) {
            return NULL;
        }
        /* values are start + i * step, computed in the accumulate type (double or int64) */
        for (int64_t i = 0; i < size; i++) {
            mt_scalar v;
            if (mt_dtype_is_floating(dtype)) {
                v.kind = MT_FLOAT64;
                v.v.d = dstart + (double)i * dstep;
            }
            else if (start.kind == MT_FLOAT64 || step.kind == MT_FLOAT64) {
                v.kind = MT_FLOAT64;
                v.v.d = dstart + (double)i * dstep;
            }
            else {
                v.kind = MT_INT64;
                v.v.i = mt_scalar_to_int64(start) + i * mt_scalar_to_int64(step);
            }
            mt_scalar_store(v, dtype, mt_tensor_data(host) + i * (int64_t)mt_dtype_size(dtype));
        }
        if (!opt.has_device || opt.device.type == MT_DEVICE_CPU) {
            if (opt.requires_grad && !mt_dtype_is_floating(dtype)) {
                Py_DECREF(host);
                PyErr_SetString(PyExc_RuntimeError,
                                "Only Tensors of floating point and complex dtype can require gradients");
                return NULL;
            }
            host->requires_grad = opt.requires_grad;
            return (PyObject *)host;
        }
        t = factory_empty(1, &size, dtype, &opt);
        if (t != NULL && mt_copy_(t, host) < 0) {
            Py_CLEAR(t);
        }
        Py_DECREF(host);
        return (PyObject *)t;
    }
}

static PyObject *
mt_eye(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"n", "m", "out", NULL};
    PyObject *extra[3] = {NULL, NULL, NULL};
    factory_options opt;
    PyObject *n_obj, *m_obj;
    long long n, mm;
    int64_t sizes[2];
    mt_TensorObject *t;
    mt_scalar zero = {MT_INT64, {0}};
    mt_scalar one = {MT_INT64, {1}};

    if (parse_factory_kwargs("eye", args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    n_obj = nargs > 0 ? args[0] : extra[0];
    m_obj = nargs > 1 ? args[1] : extra[1];
    if (n_obj == NULL || !PyLong_Check(n_obj) || (m_obj != NULL && m_obj != Py_None && !PyLong_Check(m_obj))) {
        PyErr_SetString(PyExc_TypeError, "eye(): argument 'n' must be int");
        return NULL;
    }
    n = PyLong_AsLongLong(n_obj);
    mm = (m_obj == NULL || m_obj == Py_None) ? n : PyLong_AsLongLong(m_obj);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_RuntimeError, "n must be greater or equal to 0, got %lld", n);
        return NULL;
    }
    if (mm < 0) {
        PyErr_Format(PyExc_RuntimeError, "m must be greater or equal to 0, got %lld", mm);
        return NULL;
    }
    sizes[0] = n;
    sizes[1] = mm;
    t = factory_empty(2, sizes, opt.has_dtype ? opt.dtype : mt_default_float_dtype(), &opt);
    if (t == NULL || mt_fill_(t, zero) < 0) {
        Py_XDECREF(t);
        return NULL;
    }
    {
        /* the diagonal is a strided view: stride m + 1 over min(n, m) elements */
        int64_t len = n < mm ? n : mm;
        int64_t stride = mm + 1;
        mt_TensorObject *diag = mt_tensor_new_view(t, 1, &len, &stride, 0);
        if (diag == NULL || mt_fill_(diag, one) < 0) {
            Py_XDECREF(diag);
            Py_DECREF(t);
            return NULL;
        }
        Py_DECREF(diag);
    }
    return (PyObject *)t;
}

/* ---- random numbers ------------------------------------------------------------------------------- */

typedef enum { RANDOM_UNIFORM, RANDOM_NORMAL, RANDOM_INT } random_kind;

static mt_rng_dtype
rng_dtype(mt_dtype d)
{
    switch (d) {
    case MT_BOOL:
        return MT_RNG_BOOL;
    case MT_INT32:
        return MT_RNG_INT32;
    case MT_INT64:
        return MT_RNG_INT64;
    case MT_FLOAT32:
        return MT_RNG_FLOAT32;
    default:
        return MT_RNG_FLOAT64;
    }
}

/* Fills a new contiguous tensor. CPU tensors use torch's generator; CUDA tensors the Philox stream. */
static int
random_fill(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high)
{
    int64_t n = mt_tensor_numel(t);
    void *out = mt_tensor_data(t);
    mt_device device = mt_tensor_device(t);
    int err = MT_RNG_OK;

    if (device.type == MT_DEVICE_CPU) {
        mt_cpu_generator *g = default_generator();
        switch (kind) {
        case RANDOM_UNIFORM:
            if (t->dtype == MT_FLOAT32) {
                mt_cpu_rand_float(g, out, n);
            }
            else {
                mt_cpu_rand_double(g, out, n);
            }
            break;
        case RANDOM_NORMAL:
            if (t->dtype == MT_FLOAT32) {
                mt_cpu_randn_float(g, out, n);
            }
            else {
                mt_cpu_randn_double(g, out, n);
            }
            break;
        case RANDOM_INT:
            err = mt_cpu_randint(g, rng_dtype(t->dtype), out, n, low, high);
            break;
        }
    }
    else if (!mt_device_is_host_memory(device)) {
        /* a real GPU: the Philox kernels fill t in place (t is a new contiguous tensor) */
        uint64_t blocks = 0;
        int r;
        switch (kind) {
        case RANDOM_UNIFORM:
            r = mt_cuda_philox_uniform(t, cuda_seed, cuda_offset, 0.0, 1.0, &blocks);
            break;
        case RANDOM_NORMAL:
            r = mt_cuda_philox_normal(t, cuda_seed, cuda_offset, 0.0, 1.0, &blocks);
            break;
        default:
            r = mt_cuda_philox_randint(t, cuda_seed, cuda_offset, low, high, &blocks);
            break;
        }
        if (r < 0) {
            return -1;
        }
        cuda_offset += blocks;
    }
    else {
        /* the simulated GPU: the same Philox values computed by host loops in its host memory */
        uint64_t blocks = 0;
        switch (kind) {
        case RANDOM_UNIFORM:
            blocks = t->dtype == MT_FLOAT32 ? mt_philox_rand_float(cuda_seed, cuda_offset, out, n)
                                            : mt_philox_rand_double(cuda_seed, cuda_offset, out, n);
            break;
        case RANDOM_NORMAL:
            blocks = t->dtype == MT_FLOAT32 ? mt_philox_randn_float(cuda_seed, cuda_offset, out, n)
                                            : mt_philox_randn_double(cuda_seed, cuda_offset, out, n);
            break;
        case RANDOM_INT:
            if (t->dtype == MT_INT64) {
                blocks = mt_philox_randint_int64(cuda_seed, cuda_offset, out, n, low, high);
            }
            else {
                /* draw int64 values, then convert: the same numbers for every dtype */
                mt_TensorObject *wide = mt_tensor_empty(t->ndim, t->sizes, MT_INT64, mt_cpu_device());
                if (wide == NULL) {
                    return -1;
                }
                blocks = mt_philox_randint_int64(cuda_seed, cuda_offset, (int64_t *)mt_tensor_data(wide), n, low, high);
                mt_cpu_cast(out, t->dtype, (int64_t)mt_dtype_size(t->dtype), mt_tensor_data(wide), MT_INT64, 8, n);
                Py_DECREF(wide);
            }
            break;
        }
        /* each call consumes fresh Philox blocks, so successive calls never overlap */
        cuda_offset += blocks;
    }
    if (err == MT_RNG_ERR_RANGE) {
        /* only reachable for float dtypes, whose bounds torch first rounds inwards */
        mt_rng_randint_bounds(rng_dtype(t->dtype), &low, &high);
        PyErr_Format(PyExc_RuntimeError,
                     "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                     "from=%lld >= to=%lld",
                     (long long)low, (long long)high);
        return -1;
    }
    return 0;
}

static PyObject *
random_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, random_kind kind)
{
    static const char *const allowed[] = {"size", "out", NULL};
    PyObject *extra[2] = {NULL, NULL};
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_dtype dtype;
    mt_TensorObject *t;

    if (parse_factory_kwargs(fname, args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    if (extra[0] != NULL) {
        if (mt_parse_size_object(fname, extra[0], sizes, &ndim) < 0) {
            return NULL;
        }
    }
    else if (mt_parse_size_args(fname, args, nargs, sizes, &ndim) < 0) {
        return NULL;
    }
    dtype = opt.has_dtype ? opt.dtype : mt_default_float_dtype();
    if (!mt_dtype_is_floating(dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     kind == RANDOM_UNIFORM ? "check_uniform_bounds" : "normal_kernel_cpu",
                     mt_dtype_scalar_name(dtype));
        return NULL;
    }
    t = factory_empty(ndim, sizes, dtype, &opt);
    if (t == NULL) {
        return NULL;
    }
    if (random_fill(t, kind, 0, 0) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static PyObject *
mt_rand(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return random_factory("rand", args, nargs, kwnames, RANDOM_UNIFORM);
}

static PyObject *
mt_randn(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return random_factory("randn", args, nargs, kwnames, RANDOM_NORMAL);
}

static int
int_arg(const char *fname, const char *name, int pos, PyObject *obj, int64_t *out)
{
    int overflow = 0;
    long long v;
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be int, not %s", fname, name, pos,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
        return -1;
    }
    *out = v;
    return 0;
}

static int
randint_bounds_fit(mt_dtype dtype, int64_t low, int64_t high)
{
    /* torch checks that from and to - 1 are representable in the result dtype */
    const char *type_name = NULL;
    int64_t min = INT64_MIN, max = INT64_MAX;
    switch (dtype) {
    case MT_BOOL:
        min = 0;
        max = 1;
        type_name = "bool";
        break;
    case MT_INT32:
        min = INT32_MIN;
        max = INT32_MAX;
        type_name = "int";
        break;
    case MT_FLOAT32:
        min = -(INT64_C(1) << 24);
        max = INT64_C(1) << 24;
        type_name = "float";
        break;
    case MT_FLOAT64:
        min = -(INT64_C(1) << 53);
        max = INT64_C(1) << 53;
        type_name = "double";
        break;
    default:
        return 0;
    }
    if (low < min || low > max) {
        PyErr_Format(PyExc_RuntimeError, "from is out of bounds for %s", type_name);
        return -1;
    }
    if (high - 1 < min || high - 1 > max) {
        PyErr_Format(PyExc_RuntimeError, "to - 1 is out of bounds for %s", type_name);
        return -1;
    }
    return 0;
}

static PyObject *
mt_randint(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"low", "high", "size", "out", NULL};
    PyObject *extra[4] = {NULL, NULL, NULL, NULL};
    PyObject *low_obj = NULL, *high_obj = NULL, *size_obj = NULL;
    int64_t low = 0, high;
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_dtype dtype;
    mt_TensorObject *t;

    if (parse_factory_kwargs("randint", args + nargs, kwnames, &opt, allowed, extra) < 0) {
        return NULL;
    }
    if (nargs == 3) {
        low_obj = args[0];
        high_obj = args[1];
        size_obj = args[2];
    }
    else if (nargs == 2) {
        if (extra[2] != NULL) {
            low_obj = args[0];
            high_obj = args[1];
        }
        else {
            high_obj = args[0];
            size_obj = args[1];
        }
    }
    else if (nargs == 1) {
        high_obj = args[0];
    }
    if (extra[0] != NULL) {
        low_obj = extra[0];
    }
    if (extra[1] != NULL) {
        high_obj = extra[1];
    }
    if (extra[2] != NULL) {
        size_obj = extra[2];
    }
    if (high_obj == NULL || size_obj == NULL || nargs > 3) {
        if (nargs >= 1 && size_obj == NULL && nargs < 3) {
            PyErr_Format(PyExc_TypeError, "randint(): argument 'size' (position %zd) must be tuple of ints, not %s",
                         nargs, Py_TYPE(args[nargs - 1])->tp_name);
        }
        else {
            PyErr_SetString(PyExc_TypeError, "randint() missing required arguments 'high' and 'size'");
        }
        return NULL;
    }
    if (!PyTuple_Check(size_obj) && !PyList_Check(size_obj)) {
        PyErr_Format(PyExc_TypeError, "randint(): argument 'size' (position %d) must be tuple of ints, not %s",
                     low_obj ? 3 : 2, Py_TYPE(size_obj)->tp_name);
        return NULL;
    }
    if ((low_obj != NULL && int_arg("randint", "low", 1, low_obj, &low) < 0) ||
        int_arg("randint", "high", low_obj ? 2 : 1, high_obj, &high) < 0 ||
        mt_parse_size_object("randint", size_obj, sizes, &ndim) < 0) {
        return NULL;
    }
    dtype = opt.has_dtype ? opt.dtype : MT_INT64;
    if (low >= high) {
        PyErr_Format(PyExc_RuntimeError, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)low, (long long)high);
        return NULL;
    }
    if (randint_bounds_fit(dtype, low, high) < 0) {
        return NULL;
    }
    t = factory_empty(ndim, sizes, dtype, &opt);
    if (t == NULL) {
        return NULL;
    }
    if (random_fill(t, RANDOM_INT, low, high) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static PyObject *
random_like(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, random_kind kind)
{
    factory_options opt;
    mt_TensorObject *like, *t;

    if (nargs < 1 || !mt_Tensor_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' (position 1) must be Tensor", fname);
        return NULL;
    }
    if (parse_factory_kwargs(fname, args + nargs, kwnames, &opt, NULL, NULL) < 0) {
        return NULL;
    }
    like = (mt_TensorObject *)args[0];
    if (!opt.has_device) {
        opt.has_device = 1;
        opt.device = mt_tensor_device(like);
    }
    if (!opt.has_dtype) {
        opt.dtype = like->dtype;
    }
    if (!mt_dtype_is_floating(opt.dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     kind == RANDOM_UNIFORM ? "check_uniform_bounds" : "normal_kernel_cpu",
                     mt_dtype_scalar_name(opt.dtype));
        return NULL;
    }
    t = factory_empty(like->ndim, like->sizes, opt.dtype, &opt);
    if (t != NULL && random_fill(t, kind, 0, 0) < 0) {
        Py_CLEAR(t);
    }
    return (PyObject *)t;
}

static PyObject *
mt_rand_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return random_like("rand_like", args, nargs, kwnames, RANDOM_UNIFORM);
}

static PyObject *
mt_randn_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return random_like("randn_like", args, nargs, kwnames, RANDOM_NORMAL);
}

static int
seed_arg(PyObject *obj, uint64_t *seed)
{
    /* torch accepts [-2**63, 2**64); a negative seed s means s + 2**64 */
    int overflow = 0;
    long long v;
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(index);
        Py_DECREF(index);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
            return -1;
        }
        *seed = u;
        return 0;
    }
    Py_DECREF(index);
    if (overflow < 0) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    *seed = (uint64_t)v;
    return 0;
}

static PyObject *
py_manual_seed(PyObject *m, PyObject *arg)
{
    uint64_t seed;
    if (seed_arg(arg, &seed) < 0) {
        return NULL;
    }
    mt_cpu_generator_manual_seed(default_generator(), seed);
    cuda_seed = seed;
    cuda_offset = 0;
    Py_RETURN_NONE;
}

static PyObject *
py_initial_seed(PyObject *m, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(mt_cpu_generator_initial_seed(default_generator()));
}

static PyObject *
py_seed(PyObject *m, PyObject *unused)
{
    uint64_t seed = mt_cpu_nondeterministic_seed();
    mt_cpu_generator_manual_seed(default_generator(), seed);
    cuda_seed = seed;
    cuda_offset = 0;
    return PyLong_FromUnsignedLongLong(seed);
}

static PyObject *
py_get_rng_state(PyObject *m, PyObject *unused)
{
    uint8_t state[MT_CPU_RNG_STATE_BYTES];
    mt_cpu_generator_get_state(default_generator(), state);
    return PyBytes_FromStringAndSize((const char *)state, sizeof(state));
}

static PyObject *
py_set_rng_state(PyObject *m, PyObject *arg)
{
    char *bytes;
    Py_ssize_t n;
    int err;
    if (PyBytes_AsStringAndSize(arg, &bytes, &n) < 0) {
        return NULL;
    }
    err = mt_cpu_generator_set_state(default_generator(), (const uint8_t *)bytes, n);
    if (err == MT_RNG_ERR_SIZE) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected a CPUGeneratorImplState of size %d but found the input RNG state size to be %zd",
                     MT_CPU_RNG_STATE_BYTES, n);
        return NULL;
    }
    if (err != MT_RNG_OK) {
        PyErr_SetString(PyExc_RuntimeError, "Invalid mt19937 state");
        return NULL;
    }
    Py_RETURN_NONE;
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef mt_factory_functions[] = {
    {"zeros", FASTCALL(mt_zeros), "zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor"},
    {"ones", FASTCALL(mt_ones), "ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor"},
    {"empty", FASTCALL(mt_empty), "empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor\n\n"
                                  "A tensor whose values are whatever the memory held."},
    {"full", FASTCALL(mt_full), "full(size, fill_value, dtype=None, device=None) -> Tensor"},
    {"zeros_like", FASTCALL(mt_zeros_like), "zeros_like(input, dtype=None, device=None) -> Tensor"},
    {"ones_like", FASTCALL(mt_ones_like), "ones_like(input, dtype=None, device=None) -> Tensor"},
    {"empty_like", FASTCALL(mt_empty_like), "empty_like(input, dtype=None, device=None) -> Tensor"},
    {"full_like", FASTCALL(mt_full_like), "full_like(input, fill_value, dtype=None, device=None) -> Tensor"},
    {"arange", FASTCALL(mt_arange), "arange(start=0, end, step=1, dtype=None, device=None) -> Tensor"},
    {"eye", FASTCALL(mt_eye), "eye(n, m=None, dtype=None, device=None) -> Tensor"},
    {"rand", FASTCALL(mt_rand), "rand(*size, dtype=None, device=None) -> Tensor\n\nUniform on [0, 1)."},
    {"randn", FASTCALL(mt_randn), "randn(*size, dtype=None, device=None) -> Tensor\n\nStandard normal."},
    {"randint", FASTCALL(mt_randint), "randint(low=0, high, size, dtype=torch.int64, device=None) -> Tensor"},
    {"rand_like", FASTCALL(mt_rand_like), "rand_like(input, dtype=None, device=None) -> Tensor"},
    {"randn_like", FASTCALL(mt_randn_like), "randn_like(input, dtype=None, device=None) -> Tensor"},
    {"_manual_seed", py_manual_seed, METH_O, NULL},
    {"_initial_seed", py_initial_seed, METH_NOARGS, NULL},
    {"_seed", py_seed, METH_NOARGS, NULL},
    {"_get_rng_state", py_get_rng_state, METH_NOARGS, NULL},
    {"_set_rng_state", py_set_rng_state, METH_O, NULL},
    {NULL},
};

/* ---- in-place fills: Tensor.fill_, zero_, uniform_, normal_, random_ ---------------------------- */

static int
double_arg(PyObject *obj, const char *fname, const char *name, double *out)
{
    mt_scalar s;
    int r = mt_scalar_from_object(obj, &s);
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be float, not %s", fname, name, Py_TYPE(obj)->tp_name);
    }
    if (r != 1) {
        return -1;
    }
    *out = mt_scalar_to_double(s);
    return 0;
}

/* Runs `fill` on a contiguous buffer for t: t's own memory when it is contiguous, otherwise a
 * contiguous tensor on t's device copied into t afterwards. */
typedef int (*contiguous_fill_fn)(mt_TensorObject *dst, void *ctx);

static int
fill_via_contiguous(mt_TensorObject *t, contiguous_fill_fn fill, void *ctx)
{
    mt_TensorObject *tmp;
    int r;
    if (mt_tensor_is_contiguous(t)) {
        return fill(t, ctx);
    }
    tmp = mt_tensor_empty(t->ndim, t->sizes, t->dtype, mt_tensor_device(t));
    if (tmp == NULL) {
        return -1;
    }
    r = fill(tmp, ctx);
    if (r == 0) {
        r = mt_copy_(t, tmp);
    }
    Py_DECREF(tmp);
    return r;
}

typedef struct {
    double a, b;
} two_doubles;

static int
uniform_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type == MT_DEVICE_CPU) {
        if (t->dtype == MT_FLOAT32) {
            mt_cpu_uniform_float(default_generator(), (float *)mt_tensor_data(t), n, p->a, p->b);
        }
        else {
            mt_cpu_uniform_double(default_generator(), (double *)mt_tensor_data(t), n, p->a, p->b);
        }
    }
    else if (!mt_device_is_host_memory(mt_tensor_device(t))) {
        uint64_t blocks = 0;
        if (mt_cuda_philox_uniform(t, cuda_seed, cuda_offset, p->a, p->b, &blocks) < 0) {
            return -1;
        }
        cuda_offset += blocks;
    }
    else if (t->dtype == MT_FLOAT32) {
        cuda_offset += mt_philox_uniform_fill_float(cuda_seed, cuda_offset, (float *)mt_tensor_data(t), n, p->a, p->b);
    }
    else {
        cuda_offset += mt_philox_uniform_fill_double(cuda_seed, cuda_offset, (double *)mt_tensor_data(t), n, p->a, p->b);
    }
    return 0;
}

static int
normal_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type == MT_DEVICE_CPU) {
        if (t->dtype == MT_FLOAT32) {
            mt_cpu_normal_float(default_generator(), (float *)mt_tensor_data(t), n, p->a, p->b, 1);
        }
        else {
            mt_cpu_normal_double(default_generator(), (double *)mt_tensor_data(t), n, p->a, p->b, 1);
        }
    }
    else if (!mt_device_is_host_memory(mt_tensor_device(t))) {
        uint64_t blocks = 0;
        if (mt_cuda_philox_normal(t, cuda_seed, cuda_offset, p->a, p->b, &blocks) < 0) {
            return -1;
        }
        cuda_offset += blocks;
    }
    else if (t->dtype == MT_FLOAT32) {
        cuda_offset += mt_philox_normal_fill_float(cuda_seed, cuda_offset, (float *)mt_tensor_data(t), n, (float)p->a,
                                                   (float)p->b);
    }
    else {
        cuda_offset += mt_philox_normal_fill_double(cuda_seed, cuda_offset, (double *)mt_tensor_data(t), n, p->a, p->b);
    }
    return 0;
}

static int
parse_two_doubles(const char *fname, const char *n0, double d0, const char *n1, double d1, PyObject *const *args,
                  Py_ssize_t nargs, PyObject *kwnames, two_doubles *out)
{
    PyObject *vals[2] = {nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    out->a = d0;
    out->b = d1;
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 2 arguments (%zd given)", fname, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(key, n0) == 0) {
            vals[0] = args[nargs + i];
        }
        else if (PyUnicode_CompareWithASCIIString(key, n1) == 0) {
            vals[1] = args[nargs + i];
        }
        else if (PyUnicode_CompareWithASCIIString(key, "generator") != 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
    }
    if ((vals[0] && double_arg(vals[0], fname, n0, &out->a) < 0) || (vals[1] && double_arg(vals[1], fname, n1, &out->b) < 0)) {
        return -1;
    }
    return 0;
}

static PyObject *
tensor_uniform_(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    two_doubles p;
    if (parse_two_doubles("uniform_", "from", 0.0, "to", 1.0, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    if (!mt_dtype_is_floating(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"check_uniform_bounds\" not implemented for '%s'",
                     mt_dtype_scalar_name(self->dtype));
        return NULL;
    }
    if (!(p.a <= p.b)) {
        char msg[160];
        /* C++ streams print doubles like %g */
        snprintf(msg, sizeof(msg), "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", p.a, p.b);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    if (fill_via_contiguous(self, uniform_fill, &p) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *
tensor_normal_(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    two_doubles p;
    if (parse_two_doubles("normal_", "mean", 0.0, "std", 1.0, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    if (!mt_dtype_is_floating(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"normal_kernel_cpu\" not implemented for '%s'",
                     mt_dtype_scalar_name(self->dtype));
        return NULL;
    }
    if (p.b < 0) {
        char msg[96];
        snprintf(msg, sizeof(msg), "normal expects std >= 0.0, but found std %g", p.b);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    if (!mt_tensor_is_contiguous(self) && mt_tensor_device(self).type == MT_DEVICE_CPU) {
        /* torch draws one value at a time for non-contiguous tensors */
        mt_TensorObject *tmp = mt_tensor_empty(self->ndim, self->sizes, self->dtype, mt_cpu_device());
        int r;
        if (tmp == NULL) {
            return NULL;
        }
        if (self->dtype == MT_FLOAT32) {
            mt_cpu_normal_float(default_generator(), (float *)mt_tensor_data(tmp), mt_tensor_numel(tmp), p.a, p.b, 0);
        }
        else {
            mt_cpu_normal_double(default_generator(), (double *)mt_tensor_data(tmp), mt_tensor_numel(tmp), p.a, p.b, 0);
        }
        r = mt_copy_(self, tmp);
        Py_DECREF(tmp);
        if (r < 0) {
            return NULL;
        }
    }
    else if (fill_via_contiguous(self, normal_fill, &p) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *
tensor_fill_(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_scalar value;
    PyObject *v = nargs > 0 ? args[0] : NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) == 1 &&
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "value") == 0) {
        v = args[nargs];
    }
    if (v == NULL) {
        PyErr_SetString(PyExc_TypeError, "fill_() missing 1 required positional argument: 'value'");
        return NULL;
    }
    if (mt_Tensor_Check(v) && ((mt_TensorObject *)v)->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.",
                     ((mt_TensorObject *)v)->ndim);
        return NULL;
    }
    if (fill_value_arg("fill_", v, &value) < 0 || mt_fill_(self, value) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *
tensor_zero_(mt_TensorObject *self, PyObject *unused)
{
    mt_scalar zero = {MT_INT64, {0}};
    if (mt_fill_(self, zero) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

PyMethodDef mt_factory_tensor_methods[] = {
    {"uniform_", FASTCALL(tensor_uniform_), "uniform_(from=0, to=1) -> Tensor\n\nFills self with uniform values in [from, to)."},
    {"normal_", FASTCALL(tensor_normal_), "normal_(mean=0, std=1) -> Tensor\n\nFills self with normal values."},
    {"fill_", FASTCALL(tensor_fill_), "fill_(value) -> Tensor\n\nSets every element to value."},
    {"zero_", (PyCFunction)tensor_zero_, METH_NOARGS, "zero_() -> Tensor\n\nSets every element to zero."},
    {NULL},
};
