/* factory.c: the functions that make new tensors from nothing but arguments: zeros, ones, empty, full,
 * arange, eye, the *_like forms, the random factories (randperm included) and the in-place fills of Tensor
 * (random_ included), drawn from the generators of csrc/core/generator.c (torch's mt19937 on the CPU; a
 * Philox stream per CUDA device and per Generator('cuda') object, filled by the device's backend: host loops
 * for the simulated GPU's host memory, the CUDA kernels for a real GPU's, the same values either way). Each
 * is a row of the op table: csrc/python/factory.c reads the arguments and calls the entry points of
 * factory.h with C values; torch's checks and messages on those values (the generator's device type
 * included) are here. */
#include "../core/devices.h"
#include "../core/generator.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/philox.h"
#include "../kernels/cpu/ranges.h"
#include "../kernels/cpu/rng.h"
#include "convert.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "factory.h"

#include "../autograd/record.h"
#include "../core/warn.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* torch's check_generator: a generator given to a draw must be of the result's device type (only the type:
 * a Generator('cuda:1') draws for cuda:0 too). A meta result draws nothing and checks nothing, as torch's. */
static int
check_generator_device(mt_generator gen, mt_device device)
{
    if (gen.cuda != NULL && device.type == MT_DEVICE_CPU) {
        PyErr_SetString(PyExc_RuntimeError, "Expected a 'cpu' device type for generator but found 'cuda'");
        return -1;
    }
    if (gen.cpu != NULL && device.type == MT_DEVICE_CUDA) {
        PyErr_SetString(PyExc_RuntimeError, "Expected a 'cuda' device type for generator but found 'cpu'");
        return -1;
    }
    return 0;
}

/* ---- zeros, ones, empty, full and their *_like forms ---------------------------------------------- */

static int
refuse_requires_grad(int requires_grad, mt_dtype dtype)
{
    if (requires_grad && !mt_dtype_is_floating(dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        return -1;
    }
    return 0;
}

/* The options' dtype, or `dflt` when none was given. */
static mt_dtype
options_dtype(const mt_factory_options *opt, mt_dtype dflt)
{
    return opt->dtype != MT_NUM_DTYPES ? opt->dtype : dflt;
}

/* Allocates the result of a factory: resolves the device, checks requires_grad. */
static mt_TensorObject *
factory_empty(int ndim, const int64_t *sizes, mt_dtype dtype, const mt_factory_options *opt)
{
    mt_device device = mt_cpu_device();
    mt_TensorObject *t;

    if (opt->has_device && mt_device_resolve(opt->device, &device) < 0) {
        return NULL;
    }
    if (refuse_requires_grad(opt->requires_grad, dtype) < 0) {
        return NULL;
    }
    t = mt_tensor_empty_format(ndim, sizes, dtype, device, opt->memory_format);
    if (t != NULL) {
        t->requires_grad = opt->requires_grad;
    }
    return t;
}

/* Allocates the result of a *_like factory: like's size and layout (in the options' memory format), its
 * dtype and device unless the options give them. */
static mt_TensorObject *
like_empty(mt_TensorObject *like, mt_dtype dtype, const mt_factory_options *opt)
{
    mt_device device;
    mt_TensorObject *t;

    if (mt_device_resolve(opt->has_device ? opt->device : mt_tensor_device(like), &device) < 0 ||
        refuse_requires_grad(opt->requires_grad, dtype) < 0) {
        return NULL;
    }
    t = mt_tensor_empty_in_format(like, dtype, device, opt->memory_format);
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

static mt_scalar
int_scalar(int64_t v)
{
    mt_scalar s = {MT_INT64, {0}};
    s.v.i = v;
    return s;
}

PyObject *
mt_factory_sized(mt_factory_fill fill, int ndim, const int64_t *sizes, const mt_factory_options *opt)
{
    mt_TensorObject *t;

    if (opt->memory_format == MT_PRESERVE_FORMAT) {
        PyErr_Format(PyExc_RuntimeError, "unsupported memory format %s", mt_memory_format_c10_name(opt->memory_format));
        return NULL;
    }
    if (fill == MT_FACTORY_ZEROS) {
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] < 0) {
                PyErr_SetString(PyExc_RuntimeError, "zeros: Dimension size must be non-negative.");
                return NULL;
            }
        }
    }
    t = factory_empty(ndim, sizes, options_dtype(opt, mt_default_float_dtype()), opt);
    if (fill == MT_FACTORY_EMPTY || t == NULL) {
        return (PyObject *)t;
    }
    return filled(t, int_scalar(fill == MT_FACTORY_ONES));
}

PyObject *
mt_factory_like(mt_factory_fill fill, mt_TensorObject *like, const mt_factory_options *opt)
{
    mt_TensorObject *t = like_empty(like, options_dtype(opt, like->dtype), opt);

    if (fill == MT_FACTORY_EMPTY || t == NULL) {
        return (PyObject *)t;
    }
    return filled(t, int_scalar(fill == MT_FACTORY_ONES));
}

PyObject *
mt_factory_new(mt_factory_fill fill, mt_TensorObject *self, int ndim, const int64_t *sizes,
               const mt_factory_options *opt)
{
    mt_factory_options own = *opt;
    mt_TensorObject *t;

    /* torch's new_zeros and new_ones are empty() then a fill: no zeros() size check of their own */
    own.dtype = options_dtype(opt, self->dtype);
    if (!own.has_device) {
        own.has_device = 1;
        own.device = mt_tensor_device(self);
    }
    t = factory_empty(ndim, sizes, own.dtype, &own);
    if (fill == MT_FACTORY_EMPTY || t == NULL) {
        return (PyObject *)t;
    }
    return filled(t, int_scalar(fill == MT_FACTORY_ONES));
}

int
mt_fill_checks(mt_dtype dtype, int64_t numel, mt_device device)
{
    return !(numel == 1 && device.type == MT_DEVICE_CPU && mt_dtype_is_reduced_floating(dtype));
}

/* torch's checked conversion of a value filled into `numel` elements of dtype `d` on `device` (see
 * mt_scalar_checked and mt_fill_checks); a complex value fits a real dtype only when its imaginary part is 0
 * (bool takes any). */
static int
checked_fill_value(const mt_factory_number *n, mt_dtype d, int64_t numel, mt_device device, mt_scalar *out)
{
    mt_scalar s = n->value;

    *out = s;
    if (n->imag != 0.0) {
        if (d != MT_BOOL) {
            return mt_value_overflow_error(mt_scalar_checked_type_name(d));
        }
        s.kind = MT_BOOL;
        s.v.i = 1;
    }
    return mt_fill_checks(d, numel, device) ? mt_scalar_checked(s, d, out) : 0;
}

PyObject *
mt_factory_full(int ndim, const int64_t *sizes, const mt_factory_number *value, const mt_factory_options *opt)
{
    mt_dtype dtype;
    mt_scalar v;
    int64_t numel;

    if (opt->dtype == MT_NUM_DTYPES && value->is_complex) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "full(): a complex fill_value makes a complex64 tensor, which minitorch does not support; "
                        "pass a real dtype= to convert it");
        return NULL;
    }
    /* the value's own dtype: bool, int64, or the default float dtype for a float */
    dtype = options_dtype(opt, value->value.kind == MT_FLOAT64 ? mt_default_float_dtype() : value->value.kind);
    numel = 1;
    for (int d = 0; d < ndim; d++) {
        numel = sizes[d] == 1 ? numel : 2;    /* one element or not is all mt_fill_checks asks */
    }
    if (checked_fill_value(value, dtype, numel, opt->has_device ? opt->device : mt_cpu_device(), &v) < 0) {
        return NULL;
    }
    return filled(factory_empty(ndim, sizes, dtype, opt), v);
}

PyObject *
mt_factory_new_full(mt_TensorObject *self, int ndim, const int64_t *sizes, const mt_factory_number *value,
                    const mt_factory_options *opt)
{
    mt_factory_options own = *opt;

    own.dtype = options_dtype(opt, self->dtype);
    if (!own.has_device) {
        own.has_device = 1;
        own.device = mt_tensor_device(self);
    }
    return mt_factory_full(ndim, sizes, value, &own);
}

PyObject *
mt_factory_full_like(mt_TensorObject *like, const mt_factory_number *value, const mt_factory_options *opt)
{
    mt_dtype dtype = options_dtype(opt, like->dtype);
    mt_device device;
    mt_scalar v;

    /* torch resolves the device before it converts the value */
    if (mt_device_resolve(opt->has_device ? opt->device : mt_tensor_device(like), &device) < 0 ||
        checked_fill_value(value, dtype, mt_tensor_numel(like), device, &v) < 0) {
        return NULL;
    }
    return filled(like_empty(like, dtype, opt), v);
}

static mt_scalar
int64_scalar(int64_t v)
{
    mt_scalar sc;
    sc.kind = MT_INT64;
    sc.v.i = v;
    sc.is_uint64 = 0;
    return sc;
}

/* ---- arange and eye ----------------------------------------------------------------------------- */

/* How C++ streams print a double (torch's messages): %g. */
static void
format_double(char *buf, size_t size, double d)
{
    snprintf(buf, size, "%g", d);
}

/* Resolves the options' device (torch allocates the result, checking it, before a kernel runs). */
static int
check_device(const mt_factory_options *opt)
{
    mt_device resolved;

    return opt->has_device ? mt_device_resolve(opt->device, &resolved) : 0;
}

/* The tensor a range factory computed on the host, on the options' device (copied there when that is not
 * the cpu), with requires_grad set. Steals host. */
static PyObject *
on_options_device(mt_TensorObject *host, const mt_factory_options *opt)
{
    mt_TensorObject *t;

    if (!opt->has_device || opt->device.type == MT_DEVICE_CPU) {
        host->requires_grad = opt->requires_grad;
        return (PyObject *)host;
    }
    t = factory_empty(host->ndim, host->sizes, host->dtype, opt);
    if (t != NULL && mt_copy_(t, host) < 0) {
        Py_CLEAR(t);
    }
    Py_DECREF(host);
    return (PyObject *)t;
}

/* A Scalar argument converted to `d` as torch's Scalar::to checks it (a complex one with an imaginary
 * part never fits a real type). */
static int
number_to(const mt_factory_number *n, mt_dtype d, mt_scalar *out)
{
    if (n->imag != 0.0) {
        return mt_value_overflow_error(mt_scalar_checked_type_name(d));
    }
    return mt_scalar_checked(n->value, d, out);
}

PyObject *
mt_factory_arange(const mt_factory_number *start_n, const mt_factory_number *end_n, const mt_factory_number *step_n,
                  const mt_factory_options *opt)
{
    mt_scalar start = start_n->value, end = end_n->value, step = step_n->value;
    int any_float = start.kind == MT_FLOAT64 || end.kind == MT_FLOAT64 || step.kind == MT_FLOAT64;
    mt_dtype dtype = options_dtype(opt, any_float ? mt_default_float_dtype() : MT_INT64);
    int floating = mt_dtype_is_floating(dtype);
    double dstart, dend, dstep, dsize;
    mt_scalar xstart, xstep;
    int64_t size;
    mt_TensorObject *host;

    if (check_device(opt) < 0) {
        return NULL;
    }
    if (dtype == MT_BOOL) {
        /* torch's kernel dispatch has no bool arange */
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for 'Bool'",
                     opt->has_device && opt->device.type != MT_DEVICE_CPU ? "arange_cuda" : "arange_cpu");
        return NULL;
    }
    /* arange_check_bounds: the arguments as doubles */
    {
        mt_scalar d[3];
        const mt_factory_number *given[3] = {start_n, end_n, step_n};
        for (int k = 0; k < 3; k++) {
            if (number_to(given[k], MT_FLOAT64, &d[k]) < 0) {
                return NULL;
            }
        }
        dstart = mt_scalar_to_double(d[0]);
        dend = mt_scalar_to_double(d[1]);
        dstep = mt_scalar_to_double(d[2]);
    }
    if (!(dstep > 0 || dstep < 0)) {
        PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
        return NULL;
    }
    if (!isfinite(dstart) || !isfinite(dend)) {
        char a[32], b[32];
        format_double(a, sizeof a, dstart);
        format_double(b, sizeof b, dend);
        PyErr_Format(PyExc_RuntimeError, "unsupported range: %s -> %s", a, b);
        return NULL;
    }
    if (!((dstep > 0 && dend >= dstart) || (dstep < 0 && dend <= dstart))) {
        PyErr_SetString(PyExc_RuntimeError, "upper bound and lower bound inconsistent with step sign");
        return NULL;
    }
    if (dtype == MT_INT64) {
        /* int64 sizes in int64 arithmetic (wrapping), on the bounds truncated to integers */
        mt_scalar xend;
        int64_t s, e, st, sgn;
        if (number_to(start_n, MT_INT64, &xstart) < 0 || number_to(end_n, MT_INT64, &xend) < 0 ||
            number_to(step_n, MT_INT64, &xstep) < 0) {
            return NULL;
        }
        s = mt_scalar_to_int64(xstart);
        e = mt_scalar_to_int64(xend);
        st = mt_scalar_to_int64(xstep);
        if (st == 0) {
            PyErr_SetString(PyExc_ValueError, "step must be nonzero");
            return NULL;
        }
        sgn = (st > 0) - (st < 0);
        dsize = (double)((int64_t)((uint64_t)e - (uint64_t)s + (uint64_t)st - (uint64_t)sgn) / st);
    }
    else {
        dsize = ceil((dend - dstart) / dstep);
    }
    if (!(dsize >= 0 && dsize <= (double)INT64_MAX)) {
        PyErr_SetString(PyExc_RuntimeError, "invalid size, possible overflow?");
        return NULL;
    }
    size = (int64_t)dsize;
    /* the kernel reads start and step in the accumulate type: double, or int64 for integer dtypes */
    if (number_to(start_n, floating ? MT_FLOAT64 : MT_INT64, &xstart) < 0 ||
        number_to(step_n, floating ? MT_FLOAT64 : MT_INT64, &xstep) < 0) {
        return NULL;
    }
    if (refuse_requires_grad(opt->requires_grad, dtype) < 0) {
        return NULL;
    }
    host = mt_tensor_empty_format(1, &size, dtype, mt_cpu_device(), MT_CONTIGUOUS_FORMAT);
    if (host == NULL) {
        return NULL;
    }
    if (floating) {
        mt_cpu_arange_float(mt_tensor_data(host), dtype, mt_scalar_to_double(xstart), mt_scalar_to_double(xstep), size);
    }
    else {
        mt_cpu_arange_int(mt_tensor_data(host), dtype, mt_scalar_to_int64(xstart), mt_scalar_to_int64(xstep), size);
    }
    return on_options_device(host, opt);
}

/* ---- linspace and logspace ---------------------------------------------------------------------- */

/* logspace's exponents as torch's CPU kernel takes them: start and end in double, and their difference in
 * the dtype (an integer one wraps, as torch's does) */
static void
logspace_span(mt_dtype dtype, mt_scalar start, mt_scalar end, double *s, double *e, double *span)
{
    if (dtype == MT_FLOAT32) {
        float fs = (float)mt_scalar_to_double(start), fe = (float)mt_scalar_to_double(end);
        *s = fs;
        *e = fe;
        *span = (double)(fe - fs);
    }
    else if (mt_dtype_is_reduced_floating(dtype)) {
        float fs = mt_reduced_to_float(dtype, mt_float_to_reduced(dtype, (float)mt_scalar_to_double(start)));
        float fe = mt_reduced_to_float(dtype, mt_float_to_reduced(dtype, (float)mt_scalar_to_double(end)));
        *s = fs;
        *e = fe;
        *span = (double)mt_reduced_to_float(dtype, mt_float_to_reduced(dtype, fe - fs));
    }
    else if (dtype == MT_FLOAT64) {
        *s = mt_scalar_to_double(start);
        *e = mt_scalar_to_double(end);
        *span = *e - *s;
    }
    else {
        int64_t is = mt_scalar_to_int64(start), ie = mt_scalar_to_int64(end);
        mt_value wrapped;
        *s = (double)is;
        *e = (double)ie;
        mt_scalar_store(int64_scalar((int64_t)((uint64_t)ie - (uint64_t)is)), dtype, &wrapped);
        *span = mt_scalar_to_double(mt_scalar_load(dtype, &wrapped));
    }
}

PyObject *
mt_factory_linspace(const mt_factory_number *start, const mt_factory_number *end, int64_t steps, int log,
                    double base, const mt_factory_options *opt)
{
    const char *fn = log ? "logspace" : "linspace";
    mt_dtype dtype = options_dtype(opt, mt_default_float_dtype());
    mt_scalar s, e;
    mt_TensorObject *host;

    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    if (start->is_complex || end->is_complex) {
        if (opt->dtype == MT_NUM_DTYPES) {
            PyErr_Format(PyExc_NotImplementedError,
                         "%s(): complex start or end makes a complex tensor, which minitorch does not support", fn);
        }
        else {
            PyErr_Format(PyExc_RuntimeError,
                         "torch.%s(): inferred dtype c10::complex<%s> can't be safely cast to passed dtype %s", fn,
                         mt_default_float_dtype() == MT_FLOAT64 ? "double" : "float", mt_dtype_scalar_name(dtype));
        }
        return NULL;
    }
    if (steps < 2) {
        mt_factory_number first = *start;
        mt_scalar v;
        if (log) {
            /* one element: base ** start, in double */
            first.value.kind = MT_FLOAT64;
            first.value.v.d = pow(base, mt_scalar_to_double(start->value));
            first.value.is_uint64 = 0;
        }
        if (steps == 0) {
            return (PyObject *)factory_empty(1, &steps, dtype, opt);
        }
        if (check_device(opt) < 0 ||
            checked_fill_value(&first, dtype, steps, opt->has_device ? opt->device : mt_cpu_device(), &v) < 0) {
            return NULL;
        }
        return filled(factory_empty(1, &steps, dtype, opt), v);
    }
    if (check_device(opt) < 0) {
        return NULL;
    }
    if (dtype == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for 'Bool'", fn,
                     opt->has_device && opt->device.type != MT_DEVICE_CPU ? "cuda" : "cpu");
        return NULL;
    }
    if (mt_scalar_checked(start->value, dtype, &s) < 0 || mt_scalar_checked(end->value, dtype, &e) < 0 ||
        refuse_requires_grad(opt->requires_grad, dtype) < 0) {
        return NULL;
    }
    host = mt_tensor_empty_format(1, &steps, dtype, mt_cpu_device(), MT_CONTIGUOUS_FORMAT);
    if (host == NULL) {
        return NULL;
    }
    if (log) {
        double ls, le, span;
        logspace_span(dtype, s, e, &ls, &le, &span);
        mt_cpu_logspace(mt_tensor_data(host), dtype, ls, le, span, steps, base);
    }
    else if (mt_dtype_is_floating(dtype)) {
        mt_cpu_linspace(mt_tensor_data(host), dtype, mt_scalar_to_double(s), mt_scalar_to_double(e), steps);
    }
    else {
        /* start and end were checked to fit the dtype */
        mt_cpu_linspace(mt_tensor_data(host), dtype, (double)mt_scalar_to_int64(s), (double)mt_scalar_to_int64(e),
                        steps);
    }
    return on_options_device(host, opt);
}

PyObject *
mt_factory_eye(int64_t n, int64_t m, const mt_factory_options *opt)
{
    int64_t sizes[2] = {n, m};
    mt_TensorObject *t;

    if (n < 0) {
        PyErr_Format(PyExc_RuntimeError, "n must be greater or equal to 0, got %lld", (long long)n);
        return NULL;
    }
    if (m < 0) {
        PyErr_Format(PyExc_RuntimeError, "m must be greater or equal to 0, got %lld", (long long)m);
        return NULL;
    }
    t = (mt_TensorObject *)filled(factory_empty(2, sizes, options_dtype(opt, mt_default_float_dtype()), opt),
                                  int_scalar(0));
    if (t != NULL) {
        /* the diagonal is a strided view: stride m + 1 over min(n, m) elements */
        int64_t len = n < m ? n : m;
        int64_t stride = m + 1;
        mt_TensorObject *diag = mt_tensor_new_view(t, 1, &len, &stride, 0);
        if (diag == NULL || mt_fill_(diag, int_scalar(1)) < 0) {
            Py_XDECREF(diag);
            Py_DECREF(t);
            return NULL;
        }
        Py_DECREF(diag);
    }
    return (PyObject *)t;
}

/* ---- random numbers ------------------------------------------------------------------------------- */

typedef enum { RANDOM_UNIFORM = MT_RANDOM_UNIFORM, RANDOM_NORMAL = MT_RANDOM_NORMAL, RANDOM_INT } random_kind;

static mt_rng_dtype
rng_dtype(mt_dtype d)
{
    switch (d) {
    case MT_BOOL:
        return MT_RNG_BOOL;
    case MT_UINT8:
        return MT_RNG_UINT8;
    case MT_INT8:
        return MT_RNG_INT8;
    case MT_INT16:
        return MT_RNG_INT16;
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

/* Fills dense t (in memory order) from the Philox stream of a CUDA generator (gen's, else t's device's
 * default one) with the kernels of t's device: the GPU's, or the same values from the host loops for the
 * simulated GPU. Each fill consumes fresh blocks of the stream, so successive calls never overlap. */
static int
philox_fill(mt_TensorObject *t, mt_generator given, mt_philox_kind kind, double a, double b, int64_t low,
            int64_t high)
{
    mt_device device = mt_tensor_device(t);
    mt_cuda_generator unused = {0, 0}; /* the meta device's fill draws nothing and has no generator */
    mt_cuda_generator *gen = &unused;
    mt_philox_fill fill;
    uint64_t blocks = 0;
    int r;

    if (device.type == MT_DEVICE_CUDA && (gen = mt_cuda_generator_or_default(given, device)) == NULL) {
        return -1;
    }
    fill.kind = kind;
    fill.dtype = t->dtype;
    fill.out = mt_tensor_data(t);
    fill.n = mt_tensor_numel(t);
    fill.seed = gen->seed;
    fill.offset = gen->offset;
    fill.a = a;
    fill.b = b;
    fill.low = low;
    fill.high = high;
    MT_RUN_BACKEND(r, mt_tensor_device(t), 0, NULL, 0, philox, &fill, &blocks);
    if (r < 0) {
        return -1;
    }
    gen->offset += blocks;
    return 0;
}

static int random_fill(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high, mt_generator gen);

/* float16 and bfloat16 draw as float32 (torch's CPU and CUDA transforms compute in float) and round:
 * t is filled from a float32 tensor of its layout. */
static int
random_fill_reduced(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high, mt_generator gen)
{
    mt_TensorObject *tmp = mt_tensor_empty_preserving(t, MT_FLOAT32, mt_tensor_device(t));
    int r;

    if (tmp == NULL) {
        return -1;
    }
    if (kind == RANDOM_NORMAL && mt_tensor_device(t).type == MT_DEVICE_CPU) {
        /* torch's 16-bit normal fill draws its uniforms block by block */
        r = check_generator_device(gen, mt_tensor_device(t));
        if (r == 0) {
            mt_cpu_normal_float(mt_cpu_generator_or_default(gen), (float *)mt_tensor_data(tmp),
                                mt_tensor_numel(tmp), 0.0, 1.0,
                                mt_tensor_is_contiguous(t) ? MT_NORMAL_FILL_16BIT : MT_NORMAL_ONE_AT_A_TIME);
        }
    }
    else {
        r = random_fill(tmp, kind, low, high, gen);
    }
    if (r == 0) {
        r = mt_copy_(t, tmp);
    }
    Py_DECREF(tmp);
    return r;
}

/* Fills a new contiguous tensor. CPU tensors use torch's generator; CUDA tensors the Philox stream. */
static int
random_fill(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high, mt_generator gen)
{
    int64_t n = mt_tensor_numel(t);
    void *out = mt_tensor_data(t);
    mt_cpu_generator *g;
    int err = MT_RNG_OK;

    if (check_generator_device(gen, mt_tensor_device(t)) < 0) {
        return -1;
    }
    if (mt_dtype_is_reduced_floating(t->dtype)) {
        return random_fill_reduced(t, kind, low, high, gen);
    }
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return kind == RANDOM_UNIFORM  ? philox_fill(t, gen, MT_PHILOX_UNIFORM, 0.0, 1.0, 0, 0)
               : kind == RANDOM_NORMAL ? philox_fill(t, gen, MT_PHILOX_NORMAL, 0.0, 1.0, 0, 0)
                                       : philox_fill(t, gen, MT_PHILOX_RANDINT, 0.0, 0.0, low, high);
    }
    g = mt_cpu_generator_or_default(gen);
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
        /* a dense permuted result (randn_like of a permuted input) takes torch's one-at-a-time path */
        if (t->dtype == MT_FLOAT32) {
            mt_cpu_normal_float(g, out, n, 0.0, 1.0,
                                mt_tensor_is_contiguous(t) ? MT_NORMAL_FILL : MT_NORMAL_ONE_AT_A_TIME);
        }
        else {
            mt_cpu_normal_double(g, out, n, 0.0, 1.0,
                                 mt_tensor_is_contiguous(t) ? MT_NORMAL_FILL : MT_NORMAL_ONE_AT_A_TIME);
        }
        break;
    case RANDOM_INT:
        err = mt_cpu_randint(g, rng_dtype(t->dtype), out, n, low, high);
        break;
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

/* The one message of a random factory or fill given an integer or bool dtype. */
static int
refuse_non_floating(mt_random_kind kind, mt_dtype dtype)
{
    if (!mt_dtype_is_floating(dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     kind == MT_RANDOM_UNIFORM ? "check_uniform_bounds" : "normal_kernel_cpu",
                     mt_dtype_scalar_name(dtype));
        return -1;
    }
    return 0;
}

/* Fills t and returns it, or drops it (NULL) when the fill fails. */
static PyObject *
randomized(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high, mt_generator gen)
{
    if (t != NULL && random_fill(t, kind, low, high, gen) < 0) {
        Py_CLEAR(t);
    }
    return (PyObject *)t;
}

PyObject *
mt_factory_random(mt_random_kind kind, int ndim, const int64_t *sizes, const mt_factory_options *opt)
{
    mt_dtype dtype = options_dtype(opt, mt_default_float_dtype());

    if (refuse_non_floating(kind, dtype) < 0) {
        return NULL;
    }
    return randomized(factory_empty(ndim, sizes, dtype, opt), (random_kind)kind, 0, 0, opt->generator);
}

PyObject *
mt_factory_random_like(mt_random_kind kind, mt_TensorObject *like, const mt_factory_options *opt)
{
    mt_dtype dtype = options_dtype(opt, like->dtype);

    if (refuse_non_floating(kind, dtype) < 0) {
        return NULL;
    }
    /* torch's rand_like keeps the input's layout (preserve_format) and fills it in memory order */
    return randomized(like_empty(like, dtype, opt), (random_kind)kind, 0, 0, opt->generator);
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
    case MT_UINT8:
    case MT_INT8:
    case MT_INT16:
    case MT_INT32:
        min = dtype == MT_UINT8 ? 0 : dtype == MT_INT8 ? INT8_MIN : dtype == MT_INT16 ? INT16_MIN : INT32_MIN;
        max = dtype == MT_UINT8 ? UINT8_MAX : dtype == MT_INT8 ? INT8_MAX : dtype == MT_INT16 ? INT16_MAX : INT32_MAX;
        type_name = mt_dtype_c_name(dtype);
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
    {
        const char *names[2] = {"from", "to - 1"};
        int64_t ends[2] = {low, high - 1};
        int digits = dtype == MT_FLOAT32 ? 24 : 53;
        for (int k = 0; k < 2; k++) {
            if (ends[k] >= min && ends[k] <= max) {
                continue;
            }
            /* a float only warns: its integers are exact within +-2^digits */
            if (mt_dtype_is_floating(dtype)) {
                if (mt_warn_format(PyExc_UserWarning,
                                   "%s is out of bounds [-(2^%d), 2^%d]. Due to precision limitations %s can support "
                                   "discrete uniform distribution only within this range. This warning will become "
                                   "an error in version 1.7 release, please fix the code in advance", names[k],
                                   digits, digits, type_name) < 0) {
                    return -1;
                }
                continue;
            }
            PyErr_Format(PyExc_RuntimeError, "%s is out of bounds for %s", names[k], type_name);
            return -1;
        }
    }
    return 0;
}

PyObject *
mt_factory_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, const mt_factory_options *opt)
{
    mt_dtype dtype = options_dtype(opt, MT_INT64);

    if (low >= high) {
        PyErr_Format(PyExc_RuntimeError, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)low, (long long)high);
        return NULL;
    }
    if (randint_bounds_fit(dtype, low, high) < 0) {
        return NULL;
    }
    return randomized(factory_empty(ndim, sizes, dtype, opt), RANDOM_INT, low, high, opt->generator);
}

PyObject *
mt_factory_randperm(int64_t n, const mt_factory_options *opt)
{
    mt_dtype dtype = options_dtype(opt, MT_INT64);
    mt_TensorObject *t, *host;
    int r = 0;

    /* torch allocates the result first (a negative n fails there), then checks n and the dtype */
    t = factory_empty(1, &n, dtype, opt);
    if (t == NULL) {
        return NULL;
    }
    if (dtype == MT_BOOL) {
        PyErr_SetString(PyExc_NotImplementedError, "\"randperm\" not implemented for 'Bool'");
        goto error;
    }
    /* torch's check_supported_max_int_with_precision: every value must be exact in the dtype */
    if ((dtype == MT_FLOAT32 && n > (INT64_C(1) << 24) + 1) || (dtype == MT_FLOAT64 && n > (INT64_C(1) << 53) + 1)) {
        PyErr_Format(PyExc_RuntimeError, "n cannot be greater than 2^%d+1 for %s type.", dtype == MT_FLOAT32 ? 24 : 53,
                     dtype == MT_FLOAT32 ? "Float" : "Double");
        goto error;
    }
    if (mt_dtype_is_integral(dtype, 0) && n > 0) {
        /* the largest value, n - 1, converted to the dtype with c10's overflow check */
        mt_scalar largest;
        if (mt_scalar_checked(int64_scalar(n - 1), dtype, &largest) < 0) {
            goto error;
        }
    }
    if (check_generator_device(opt->generator, mt_tensor_device(t)) < 0) {
        goto error;
    }
    /* a meta result has no values to draw, and draws none from the generator, as torch's */
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        return (PyObject *)t;
    }
    if (dtype == MT_INT64 && mt_tensor_device(t).type == MT_DEVICE_CPU) {
        mt_cpu_randperm(mt_cpu_generator_or_default(opt->generator), (int64_t *)mt_tensor_data(t), n);
        return (PyObject *)t;
    }
    host = mt_tensor_empty_format(1, &n, MT_INT64, mt_cpu_device(), MT_CONTIGUOUS_FORMAT);
    if (host == NULL) {
        goto error;
    }
    /* torch's CUDA randperm sorts 0..n-1 by random keys from a CUDA generator (Randperm.cu: the keys'
     * random_ and get_generator_or_default<CUDAGeneratorImpl>), so a CPU generator= is refused above and a
     * CUDA one is used as torch uses it. Without generator= a CUDA device's permutation is drawn on the host
     * from the CPU's default generator (the CPU's values: README, Known differences). */
    if (opt->generator.cuda != NULL) {
        mt_cuda_generator *gen = opt->generator.cuda;
        uint64_t blocks;
        r = mt_philox_randperm(gen->seed, gen->offset, (int64_t *)mt_tensor_data(host), n, &blocks);
        if (r < 0) {
            PyErr_NoMemory();
        }
        gen->offset += blocks;
    }
    else {
        mt_cpu_randperm(mt_cpu_generator_or_default(opt->generator), (int64_t *)mt_tensor_data(host), n);
    }
    if (r < 0 || mt_copy_(t, host) < 0) {
        Py_DECREF(host);
        goto error;
    }
    Py_DECREF(host);
    return (PyObject *)t;

error:
    Py_DECREF(t);
    return NULL;
}

/* ---- in-place fills: Tensor.fill_, zero_, uniform_, normal_ ------------------------------------- */


/* Runs `fill`, which writes a dense buffer front to back, so that t's elements get the values in
 * torch's iteration order, which is memory order: t's own memory when t is dense (a transposed or
 * channels-last tensor included), otherwise a dense buffer in t's dim order copied into t. */
typedef int (*dense_fill_fn)(mt_TensorObject *dst, void *ctx);

static int
fill_in_memory_order(mt_TensorObject *t, dense_fill_fn fill, void *ctx)
{
    mt_TensorObject *tmp;
    int r;
    /* float16 and bfloat16 draw as float32, rounded (random_fill_reduced) */
    if (mt_tensor_is_non_overlapping_and_dense(t) && !mt_dtype_is_reduced_floating(t->dtype)) {
        return fill(t, ctx);
    }
    tmp = mt_tensor_empty_preserving(t, mt_dtype_compute(t->dtype), mt_tensor_device(t));
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
    int normal_path; /* normal_: the fill torch takes for self (rng.h's MT_NORMAL_*) */
    mt_generator gen;
} two_doubles;

static int
uniform_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return philox_fill(t, p->gen, MT_PHILOX_UNIFORM, p->a, p->b, 0, 0);
    }
    if (t->dtype == MT_FLOAT32) {
        mt_cpu_uniform_float(mt_cpu_generator_or_default(p->gen), (float *)mt_tensor_data(t), n, p->a, p->b);
    }
    else {
        mt_cpu_uniform_double(mt_cpu_generator_or_default(p->gen), (double *)mt_tensor_data(t), n, p->a, p->b);
    }
    return 0;
}

static int
normal_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return philox_fill(t, p->gen, MT_PHILOX_NORMAL, p->a, p->b, 0, 0);
    }
    if (t->dtype == MT_FLOAT32) {
        mt_cpu_normal_float(mt_cpu_generator_or_default(p->gen), (float *)mt_tensor_data(t), n, p->a, p->b,
                            p->normal_path);
    }
    else {
        mt_cpu_normal_double(mt_cpu_generator_or_default(p->gen), (double *)mt_tensor_data(t), n, p->a, p->b,
                             p->normal_path);
    }
    return 0;
}


/* self after an in-place fill: its version bumped and, when it is in the autograd graph, torch's node
 * for the fill (its gradient is zero; a 0-d value tensor gets the sum of self's). */
static PyObject *
after_fill(mt_ag_fill_kind kind, mt_TensorObject *self, mt_TensorObject *value)
{
    if (mt_ag_bump(self) < 0 || mt_ag_fill(kind, self, value) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

PyObject *
mt_tensor_uniform_(mt_TensorObject *self, double from, double to, mt_generator gen)
{
    two_doubles p = {from, to, 1, gen};

    if (mt_ag_check_inplace(self) < 0 || refuse_non_floating(MT_RANDOM_UNIFORM, self->dtype) < 0 ||
        check_generator_device(gen, mt_tensor_device(self)) < 0) {
        return NULL;
    }
    /* torch's check_uniform_bounds: both ends within the dtype's range, in order, and a span it can hold */
    {
        double max = self->dtype == MT_FLOAT32 ? (double)FLT_MAX : DBL_MAX;
        const char *names[2] = {"from", "to"};
        double ends[2] = {from, to};
        char msg[256];
        for (int k = 0; k < 2; k++) {
            if (!(ends[k] >= -max && ends[k] <= max)) {
                PyErr_Format(PyExc_RuntimeError, "%s is out of bounds for %s", names[k],
                             self->dtype == MT_FLOAT32 ? "float" : "double");
                return NULL;
            }
        }
        /* C++ streams print doubles like %g */
        if (!(from <= to)) {
            snprintf(msg, sizeof(msg), "uniform_ expects to return a [from, to) range, but found from=%g > to=%g",
                     from, to);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
        if (!(to - from <= max)) {
            snprintf(msg, sizeof(msg),
                     "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=%g and from=%g which "
                     "result in to-from to exceed the limit",
                     mt_dtype_scalar_name(self->dtype), to, from);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
    }
    /* the kernel's TensorIterator refuses an expanded self */
    if (mt_check_no_internal_overlap(self) < 0 || fill_in_memory_order(self, uniform_fill, &p) < 0) {
        return NULL;
    }
    return after_fill(MT_AG_FILL_UNIFORM, self, NULL);
}

PyObject *
mt_tensor_normal_(mt_TensorObject *self, double mean, double std, mt_generator gen)
{
    two_doubles p = {mean, std, 1, gen};

    if (mt_ag_check_inplace(self) < 0 || refuse_non_floating(MT_RANDOM_NORMAL, self->dtype) < 0 ||
        check_generator_device(gen, mt_tensor_device(self)) < 0) {
        return NULL;
    }
    if (std < 0) {
        char msg[96];
        snprintf(msg, sizeof(msg), "normal expects std >= 0.0, but found std %g", std);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    /* the kernel's TensorIterator refuses an expanded self */
    if (mt_check_no_internal_overlap(self) < 0) {
        return NULL;
    }
    /* torch draws one value at a time for a non-contiguous self, and 16-bit uniforms block by block */
    p.normal_path = !mt_tensor_is_contiguous(self)                ? MT_NORMAL_ONE_AT_A_TIME
                    : mt_dtype_is_reduced_floating(self->dtype) ? MT_NORMAL_FILL_16BIT
                                                                : MT_NORMAL_FILL;
    if (fill_in_memory_order(self, normal_fill, &p) < 0) {
        return NULL;
    }
    return after_fill(MT_AG_FILL_NORMAL, self, NULL);
}

PyObject *
mt_tensor_fill_number_(mt_TensorObject *self, const mt_factory_number *value)
{
    mt_scalar v;

    if (mt_ag_check_inplace(self) < 0 ||
        checked_fill_value(value, self->dtype, mt_tensor_numel(self), mt_tensor_device(self), &v) < 0 ||
        mt_fill_(self, v) < 0) {
        return NULL;
    }
    return after_fill(MT_AG_FILL_NUMBER, self, NULL);
}

/* fill_(Tensor value): a 0-d value on self's device is copied in as copy_ would (so an expanded self is
 * refused); one on another device is read as a number. */
PyObject *
mt_tensor_fill_tensor_(mt_TensorObject *self, mt_TensorObject *value)
{
    mt_factory_number n = {{MT_INT64, {0}}, 0.0, 0};
    PyObject *item;
    int r;

    if (value->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", value->ndim);
        return NULL;
    }
    if (mt_device_equal(mt_tensor_device(self), mt_tensor_device(value))) {
        if (mt_ag_check_inplace(self) < 0 || mt_check_no_internal_overlap(self) < 0 || mt_copy_(self, value) < 0) {
            return NULL;
        }
        return after_fill(MT_AG_FILL_TENSOR, self, value);
    }
    item = mt_tensor_item(value);
    if (item == NULL) {
        return NULL;
    }
    r = mt_scalar_from_object(item, &n.value);
    Py_DECREF(item);
    return r < 0 ? NULL : mt_tensor_fill_number_(self, &n);
}

PyObject *
mt_tensor_zero_(mt_TensorObject *self)
{
    if (mt_ag_check_inplace(self) < 0 || mt_fill_(self, int_scalar(0)) < 0) {
        return NULL;
    }
    return after_fill(MT_AG_FILL_ZERO, self, NULL);
}

/* Draws for random_ into dense t (memory order): [low, high] (high inclusive), or every value random_()
 * gives (full). The CUDA devices use the Philox stream's randint over the same bounds. */
typedef struct {
    int full;
    int64_t low, high_inclusive;
    mt_generator gen;
} random_bounds;

static int
random_bounds_fill(mt_TensorObject *t, void *ctx)
{
    random_bounds *b = ctx;
    mt_rng_dtype d = rng_dtype(t->dtype);
    mt_cpu_generator *g;

    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        /* the stream's randint takes [low, high): the top value is left out only for int64's full range */
        int64_t high = b->high_inclusive == INT64_MAX ? INT64_MAX : b->high_inclusive + 1;
        return philox_fill(t, b->gen, MT_PHILOX_RANDINT, 0.0, 0.0, b->low, high);
    }
    g = mt_cpu_generator_or_default(b->gen);
    if (b->full) {
        mt_cpu_random_full(g, d, mt_tensor_data(t), mt_tensor_numel(t));
    }
    else {
        mt_cpu_random_from(g, d, mt_tensor_data(t), mt_tensor_numel(t), b->low, b->high_inclusive);
    }
    return 0;
}

/* The largest value random_(from, None) may give: the dtype's maximum, 2^digits for a float. */
static int64_t
random_to_inclusive(mt_dtype dtype)
{
    switch (dtype) {
    case MT_BOOL:
        return 1;
    case MT_UINT8:
        return UINT8_MAX;
    case MT_INT8:
        return INT8_MAX;
    case MT_INT16:
        return INT16_MAX;
    case MT_INT32:
        return INT32_MAX;
    case MT_FLOAT32:
        return INT64_C(1) << 24;
    case MT_FLOAT64:
        return INT64_C(1) << 53;
    case MT_FLOAT16:
        return INT64_C(1) << 11;
    case MT_BFLOAT16:
        return INT64_C(1) << 8;
    default:
        return INT64_MAX;
    }
}

PyObject *
mt_tensor_random_(mt_TensorObject *self, int has_from, int64_t from, int has_to, int64_t to, mt_generator gen)
{
    random_bounds b = {0, 0, 0, gen};
    mt_ag_fill_kind node = !has_from ? MT_AG_FILL_RANDOM : has_from == 2 ? MT_AG_FILL_RANDOM_TO
                                                                         : MT_AG_FILL_RANDOM_FROM;

    if (mt_ag_check_inplace(self) < 0 || check_generator_device(gen, mt_tensor_device(self)) < 0) {
        return NULL;
    }
    if (!has_from) {
        /* float16 and bfloat16 draw as float32 (fill_in_memory_order) in [0, 2**digits]: torch's
         * V % (2**digits + 1) of the same 32-bit draws */
        b.full = !mt_dtype_is_reduced_floating(self->dtype);
        b.high_inclusive = random_to_inclusive(self->dtype);
    }
    else if (has_to) {
        if (from >= to) {
            PyErr_Format(PyExc_RuntimeError,
                         "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld", (long long)from,
                         (long long)to);
            return NULL;
        }
        if (randint_bounds_fit(self->dtype, from, to) < 0) {
            return NULL;
        }
        b.low = from;
        b.high_inclusive = to - 1;
        if (mt_dtype_is_floating(self->dtype)) {
            /* torch moves a float's bounds inwards where the neighbours round past them */
            int64_t low = from, high = to;
            mt_rng_randint_bounds(rng_dtype(self->dtype), &low, &high);
            if (low >= high) {
                PyErr_Format(PyExc_RuntimeError,
                             "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                             "from=%lld >= to=%lld",
                             (long long)low, (long long)high);
                return NULL;
            }
            b.low = low;
            b.high_inclusive = high - 1;
        }
    }
    else if (from == INT64_MIN) {
        /* random_(-2**63, None): the full 64-bit range, for int64, float and double only */
        if (self->dtype == MT_BOOL) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "\"random_full_64_bits_range_kernel_cpu\" not implemented for 'Bool'");
            return NULL;
        }
        if (self->dtype != MT_INT64 && !mt_dtype_is_floating(self->dtype)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
            return NULL;
        }
        b.low = INT64_MIN;
        b.high_inclusive = INT64_MAX;
    }
    else {
        int64_t to_inc = random_to_inclusive(self->dtype);
        if (from > to_inc) {
            PyErr_Format(PyExc_RuntimeError,
                         "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
                         "dtype, but got from=%lld > to_inc=%lld",
                         (long long)from, (long long)to_inc);
            return NULL;
        }
        if (randint_bounds_fit(self->dtype, from, to_inc == INT64_MAX ? to_inc : to_inc + 1) < 0) {
            return NULL;
        }
        b.low = from;
        b.high_inclusive = to_inc;
    }
    if (mt_check_no_internal_overlap(self) < 0 || fill_in_memory_order(self, random_bounds_fill, &b) < 0) {
        return NULL;
    }
    return after_fill(node, self, NULL);
}
