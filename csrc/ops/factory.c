/* factory.c: the functions that make new tensors from nothing but arguments: zeros, ones, empty, full,
 * arange, eye, the *_like forms, and the random factories with the generators behind them (torch's
 * mt19937 on the CPU; a Philox stream for CUDA devices, filled by the device's backend: host loops for
 * the simulated GPU's host memory, the CUDA kernels for a real GPU's, the same values either way).
 * zeros, ones, empty and their *_like forms are rows of the op table (csrc/python/factory.c reads their
 * arguments and calls the entry points of factory.h); the others still read theirs here, in torch's
 * messages, until they move there too. */
#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/rng.h"
#include "convert.h"
#include "copy.h"
#include "dispatch.h"
#include "factory.h"
#include "methods.h"

#include <float.h>
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

/* ---- sizes given as Python objects (factory.h) -------------------------------------------------- */

static int parse_size_items(const char *fname, PyObject *seq, int64_t *sizes, int *ndim);

int
mt_parse_size_object(const char *fname, PyObject *obj, int64_t *sizes, int *ndim)
{
    PyObject *seq;
    int r;

    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'size' (position 1) must be tuple of ints, not %s", fname,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    /* Read a snapshot: an item's __index__ is Python code that may shrink the list while it is read
     * (zeros([Evil(), 2]) with a list-clearing __index__ read freed memory and crashed). The tuple
     * owns its items, so they stay alive whatever happens to the list. */
    if (PyList_Check(obj)) {
        seq = PyList_AsTuple(obj);
        if (seq == NULL) {
            return -1;
        }
    }
    else {
        seq = obj;
        Py_INCREF(seq);
    }
    r = parse_size_items(fname, seq, sizes, ndim);
    Py_DECREF(seq);
    return r;
}

static int
parse_size_items(const char *fname, PyObject *seq, int64_t *sizes, int *ndim)
{
    Py_ssize_t n;

    n = PySequence_Fast_GET_SIZE(seq);
    if (n > MT_MAX_DIMS) {
        return mt_raise_too_many_dims((long long)n);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        long long v;
        int overflow = 0;
        if (mt_Tensor_Check(item) && ((mt_TensorObject *)item)->ndim == 0 &&
            mt_dtype_is_integral(((mt_TensorObject *)item)->dtype, 0)) {
            PyObject *value = mt_tensor_item((mt_TensorObject *)item);
            if (value == NULL) {
                return -1;
            }
            v = PyLong_AsLongLong(value);
            Py_DECREF(value);
        }
        else if (!PyLong_Check(item) || PyBool_Check(item)) {
            PyObject *index = NULL;
            if (!PyBool_Check(item) && !PyFloat_Check(item) && Py_TYPE(item)->tp_as_number != NULL &&
                Py_TYPE(item)->tp_as_number->nb_index != NULL) {
                index = PyNumber_Index(item);
            }
            if (index == NULL) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "%s(): argument 'size' failed to unpack the object at pos %zd with error \"type "
                             "must be tuple of ints,but got %s\"",
                             fname, i + 1, Py_TYPE(item)->tp_name);
                return -1;
            }
            v = PyLong_AsLongLongAndOverflow(index, &overflow);
            Py_DECREF(index);
        }
        else {
            v = PyLong_AsLongLongAndOverflow(item, &overflow);
        }
        if (overflow) {
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument 'size' failed to unpack the object at pos %zd with error \"Overflow "
                         "when unpacking long long\"",
                         fname, i + 1);
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        sizes[i] = v;
    }
    *ndim = (int)n;
    return 0;
}

int
mt_parse_size_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *ndim)
{
    if (nargs > 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]))) {
        PyErr_Format(PyExc_TypeError, "%s() takes 1 positional argument but %zd were given", fname, nargs);
        return -1;
    }
    if (nargs == 1 && !PyLong_Check(args[0])) {
        if (PyTuple_Check(args[0]) || PyList_Check(args[0])) {
            return mt_parse_size_object(fname, args[0], sizes, ndim);
        }
        if (!(Py_TYPE(args[0])->tp_as_number != NULL && Py_TYPE(args[0])->tp_as_number->nb_index != NULL &&
              !PyFloat_Check(args[0]) && !mt_Tensor_Check(args[0]))) {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'size' (position 1) must be tuple of ints, not %s",
                         fname, Py_TYPE(args[0])->tp_name);
            return -1;
        }
    }
    if (nargs > MT_MAX_DIMS) {
        return mt_raise_too_many_dims((long long)nargs);
    }
    {
        /* varargs: f(2, 3) is f((2, 3)) */
        PyObject *tuple = PyTuple_New(nargs);
        int r;
        if (tuple == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < nargs; i++) {
            if (!PyLong_Check(args[i]) &&
                !(mt_Tensor_Check(args[i]) || (Py_TYPE(args[i])->tp_as_number != NULL &&
                                               Py_TYPE(args[i])->tp_as_number->nb_index != NULL &&
                                               !PyFloat_Check(args[i])))) {
                PyErr_Format(PyExc_TypeError,
                             "%s(): argument 'size' must be tuple of ints, but found element of type %s at pos %zd",
                             fname, Py_TYPE(args[i])->tp_name, i);
                Py_DECREF(tuple);
                return -1;
            }
            Py_INCREF(args[i]);
            PyTuple_SET_ITEM(tuple, i, args[i]);
        }
        r = mt_parse_size_object(fname, tuple, sizes, ndim);
        Py_DECREF(tuple);
        return r;
    }
}

/* ---- keyword arguments shared by the factories ------------------------------------------------ */

/* The signatures torch lists in "received an invalid combination of arguments" for the factories it
 * overloads (the others name the bad argument). */
#define FACTORY_KWARGS "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, " \
                       "bool pin_memory = False, bool requires_grad = False)\n"
static const char rand_signatures[] =
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, " FACTORY_KWARGS
    " * (tuple of ints size, *, Tensor out = None, " FACTORY_KWARGS;
static const char eye_signatures[] = " * (int n, *, Tensor out = None, " FACTORY_KWARGS
                                     " * (int n, int m, *, Tensor out = None, " FACTORY_KWARGS;
static const char arange_signatures[] =
    " * (Number end, *, Tensor out = None, " FACTORY_KWARGS " * (Number start, Number end, *, " FACTORY_KWARGS
    " * (Number start, Number end, Number step = 1, *, Tensor out = None, " FACTORY_KWARGS;
static const char randint_signatures[] =
    " * (int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, " FACTORY_KWARGS
    " * (int high, tuple of ints size, *, Tensor out = None, " FACTORY_KWARGS
    " * (int low, int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, " FACTORY_KWARGS
    " * (int low, int high, tuple of ints size, *, Tensor out = None, " FACTORY_KWARGS;
static const char rand_like_signatures[] =
    " * (Tensor input, *, torch.Generator generator, torch.memory_format memory_format = None, " FACTORY_KWARGS
    " * (Tensor input, *, torch.memory_format memory_format = None, " FACTORY_KWARGS;
static const char fill_signatures[] = " * (Tensor value)\n * (Number value)\n";

/* torch's TypeError for a call no signature of an overloaded function accepts. Returns NULL. */
static PyObject *
invalid_combination(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *signatures)
{
    return mt_invalid_combination(fname, args, nargs, kwnames, 1, signatures);
}

static int
missing_argument(const char *fname, const char *name)
{
    PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"%s\"", fname, name);
    return -1;
}

typedef struct {
    int has_dtype;
    mt_dtype dtype;
    int has_device;
    mt_device device;
    int requires_grad;
    mt_memory_format memory_format;  /* the result's layout: contiguous_format unless memory_format= said */
    PyObject *device_obj;   /* borrowed: device= as given; factory_finish parses it */
    PyObject *out;          /* borrowed: out= as given (a Tensor), refused by factory_finish */
    PyObject *unknown;      /* borrowed: the first unknown keyword; factory_finish raises it */
} factory_options;

/* Reads dtype=, device=, requires_grad=, out= (when `takes_out`: only its type; factory_finish refuses a
 * tensor) and ignores layout=/pin_memory=/generator=.
 * `allowed` lists the extra keywords (e.g. "size") this function handles itself; their values are
 * returned in `extra` in the same order. Like torch's parser this only checks the keywords' types; the
 * device is parsed and unknown keywords are refused by factory_finish, once the caller has checked its
 * own arguments. `signatures` is the overload list of an overloaded function (its type errors are
 * "invalid combination" errors), NULL for the others. */
static int
parse_factory_kwargs(const char *fname, const char *signatures, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, factory_options *opt, const char *const *allowed, int takes_out,
                     PyObject **extra)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *const *kwvalues = args + nargs;

    opt->has_dtype = 0;
    opt->has_device = 0;
    opt->requires_grad = 0;
    opt->memory_format = MT_CONTIGUOUS_FORMAT;
    opt->device_obj = NULL;
    opt->out = NULL;
    opt->unknown = NULL;
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
        if (takes_out && PyUnicode_CompareWithASCIIString(key, "out") == 0) {
            if (value != Py_None) {
                if (!mt_Tensor_Check(value) && signatures != NULL) {
                    invalid_combination(fname, args, nargs, kwnames, signatures);
                    return -1;
                }
                opt->out = value; /* factory_finish refuses it (a non-tensor with torch's TypeError) */
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
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
                if (!mt_Device_Check(value) && !PyUnicode_Check(value) &&
                    !(PyLong_Check(value) && !PyBool_Check(value))) {
                    if (signatures != NULL) {
                        invalid_combination(fname, args, nargs, kwnames, signatures);
                        return -1;
                    }
                    return mt_arg_type_error(fname, "device", 0, "torch.device", value);
                }
                opt->device_obj = value;
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "requires_grad") == 0) {
            if (value != Py_None && !PyBool_Check(value)) {
                if (signatures != NULL) {
                    invalid_combination(fname, args, nargs, kwnames, signatures);
                    return -1;
                }
                return mt_arg_type_error(fname, "requires_grad", 0, "bool", value);
            }
            opt->requires_grad = value == Py_True;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "layout") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "pin_memory") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "generator") == 0) {
            /* strided layout and the default generator are the only ones minitorch has */
        }
        else if (opt->unknown == NULL) {
            opt->unknown = key;
        }
    }
    return 0;
}

/* The end of argument parsing, after the caller checked its own arguments: refuses an unknown
 * keyword, then parses device= (torch reads the device only once every argument's type is right). */
static int
factory_finish(const char *fname, factory_options *opt)
{
    if (opt->unknown != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, opt->unknown);
        return -1;
    }
    if (opt->device_obj != NULL) {
        if (mt_device_from_object(opt->device_obj, &opt->device) < 0) {
            return -1;
        }
        opt->has_device = 1;
    }
    /* torch writes into out= (resizing it); a new tensor that ignored it would be a silent wrong answer */
    return mt_check_out_tensor(fname, opt->out);
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
    t = mt_tensor_empty_format(ndim, sizes, dtype, device, opt->memory_format);
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

/* *size as torch reads it: mt_parse_size_args, plus a lone one-element integer tensor standing for
 * one size (torch.zeros(torch.tensor(2)) is torch.zeros(2)). */
static int
factory_size_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *ndim)
{
    if (nargs == 1 && mt_Tensor_Check(args[0]) && mt_tensor_numel((mt_TensorObject *)args[0]) == 1 &&
        mt_dtype_is_integral(((mt_TensorObject *)args[0])->dtype, 1)) {
        PyObject *item, *tuple;
        int r;
        if (((mt_TensorObject *)args[0])->dtype == MT_BOOL) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message "
                            "be improved?  If so, please report an enhancement request to PyTorch.)");
            return -1;
        }
        item = mt_tensor_item((mt_TensorObject *)args[0]);
        if (item == NULL) {
            return -1;
        }
        tuple = PyTuple_Pack(1, item);
        Py_DECREF(item);
        if (tuple == NULL) {
            return -1;
        }
        r = mt_parse_size_object(fname, tuple, sizes, ndim);
        Py_DECREF(tuple);
        return r;
    }
    return mt_parse_size_args(fname, args, nargs, sizes, ndim);
}

/* memory_format= of empty and the *_like factories: a minitorch.memory_format or None (then `dflt`). */
static int
memory_format_kwarg(const char *fname, PyObject *value, mt_memory_format dflt, mt_memory_format *out)
{
    return mt_memory_format_arg(value, fname, 1, dflt, out);
}

/* The options as the op table's bindings give them, in this file's form. */
static void
options_from(const mt_factory_options *o, factory_options *opt)
{
    opt->has_dtype = o->dtype != MT_NUM_DTYPES;
    opt->dtype = o->dtype;
    opt->has_device = o->has_device;
    opt->device = o->device;
    opt->requires_grad = o->requires_grad;
    opt->memory_format = o->memory_format;
    opt->device_obj = NULL;
    opt->out = NULL;
    opt->unknown = NULL;
}

PyObject *
mt_factory_sized(mt_factory_fill fill, int ndim, const int64_t *sizes, const mt_factory_options *o)
{
    factory_options opt;
    mt_TensorObject *t;
    mt_scalar s = {MT_FLOAT64, {0}};

    options_from(o, &opt);
    if (opt.memory_format == MT_PRESERVE_FORMAT) {
        PyErr_Format(PyExc_RuntimeError, "unsupported memory format %s", mt_memory_format_c10_name(opt.memory_format));
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
    t = factory_empty(ndim, sizes, opt.has_dtype ? opt.dtype : mt_default_float_dtype(), &opt);
    if (fill == MT_FACTORY_EMPTY || t == NULL) {
        return (PyObject *)t;
    }
    s.v.d = fill == MT_FACTORY_ONES ? 1.0 : 0.0;
    return filled(t, s);
}

/* A fill value: a Python number (a complex one with its imaginary part in *imag) or a 0-d tensor's
 * value. 1 with *out set, 0 when obj is neither (no exception), -1 with an exception. */
static int
number_value(PyObject *obj, mt_scalar *out, double *imag)
{
    int r;
    *imag = 0.0;
    if (PyComplex_Check(obj)) {
        Py_complex z = PyComplex_AsCComplex(obj);
        out->kind = MT_FLOAT64;
        out->v.d = z.real;
        out->is_uint64 = 0;
        *imag = z.imag;
        return 1;
    }
    if (mt_Tensor_Check(obj) && ((mt_TensorObject *)obj)->ndim == 0) {
        PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
        if (item == NULL) {
            return -1;
        }
        r = mt_scalar_from_object(item, out);
        Py_DECREF(item);
        return r;
    }
    return mt_scalar_from_object(obj, out);
}

/* torch's checked conversion of a fill value to the dtype it fills (see mt_scalar_checked); a complex
 * value fits a real dtype only when its imaginary part is 0 (bool takes any). */
static int
checked_fill_value(mt_scalar s, double imag, mt_dtype d, mt_scalar *out)
{
    if (imag != 0.0) {
        if (d != MT_BOOL) {
            PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                         mt_scalar_checked_type_name(d));
            return -1;
        }
        s.kind = MT_BOOL;
        s.v.i = 1;
    }
    return mt_scalar_checked(s, d, out);
}

static int
fill_value_arg(const char *fname, PyObject *obj, int pos, mt_scalar *out, double *imag)
{
    int r = number_value(obj, out, imag);
    if (r == 0) {
        mt_arg_type_error(fname, "fill_value", pos, "Number", obj);
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
    static const char *const allowed[] = {"size", "fill_value", NULL};
    PyObject *extra[3] = {NULL, NULL, NULL};
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_scalar value;
    double imag;
    mt_dtype dtype;
    PyObject *size_obj, *value_obj;

    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "full() takes 2 positional arguments but %zd were given", nargs);
        return NULL;
    }
    if (parse_factory_kwargs("full", NULL, args, nargs, kwnames, &opt, allowed, 1, extra) < 0) {
        return NULL;
    }
    size_obj = nargs > 0 ? args[0] : extra[0];
    value_obj = nargs > 1 ? args[1] : extra[1];
    if (size_obj == NULL) {
        if (value_obj == NULL) {
            PyErr_SetString(PyExc_TypeError, "full() missing 2 required positional argument: \"size\", \"fill_value\"");
        }
        else {
            missing_argument("full", "size");
        }
        return NULL;
    }
    /* the parser checks size's type before it misses fill_value, but minitorch's dimension limit
     * comes after both */
    if (value_obj == NULL && (PyTuple_Check(size_obj) || PyList_Check(size_obj))) {
        missing_argument("full", "fill_value");
        return NULL;
    }
    if (mt_parse_size_object("full", size_obj, sizes, &ndim) < 0) {
        return NULL;
    }
    if (value_obj == NULL) {
        missing_argument("full", "fill_value");
        return NULL;
    }
    if (fill_value_arg("full", value_obj, nargs > 1 ? 2 : 0, &value, &imag) < 0 || factory_finish("full", &opt) < 0) {
        return NULL;
    }
    if (!opt.has_dtype && PyComplex_Check(value_obj)) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "full(): a complex fill_value makes a complex64 tensor, which minitorch does not support; "
                        "pass a real dtype= to convert it");
        return NULL;
    }
    dtype = opt.has_dtype ? opt.dtype : scalar_default_dtype(value);
    if (checked_fill_value(value, imag, dtype, &value) < 0) {
        return NULL;
    }
    return filled(factory_empty(ndim, sizes, dtype, &opt), value);
}

/* The result of a *_like factory once its arguments are read: kind 0 empty, 1 zeros, 2 ones, 3 full (with
 * value and imag). */
static PyObject *
like_result(mt_TensorObject *like, factory_options *o, int kind, mt_scalar value, double imag)
{
    factory_options opt = *o;
    mt_TensorObject *t;

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
        if (kind == 3 && checked_fill_value(value, imag, dtype, &value) < 0) {
            return NULL;
        }
        if (opt.requires_grad && !mt_dtype_is_floating(dtype)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Only Tensors of floating point and complex dtype can require gradients");
            return NULL;
        }
        t = mt_tensor_empty_in_format(like, dtype, device, opt.memory_format);
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
        value.is_uint64 = 0;
        return filled(t, value);
    default:
        return filled(t, value);
    }
}

PyObject *
mt_factory_like(mt_factory_fill fill, mt_TensorObject *like, const mt_factory_options *o)
{
    factory_options opt;
    mt_scalar none = {MT_INT64, {0}};

    options_from(o, &opt);
    return like_result(like, &opt, fill == MT_FACTORY_EMPTY ? 0 : fill == MT_FACTORY_ZEROS ? 1 : 2, none, 0.0);
}

static PyObject *
like_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int kind)
{
    /* kind: 0 empty, 1 zeros, 2 ones, 3 full */
    static const char *const allowed_full[] = {"input", "fill_value", "memory_format", NULL};
    static const char *const allowed[] = {"input", "memory_format", NULL};
    PyObject *extra[3] = {NULL, NULL, NULL};
    Py_ssize_t max_positional = kind == 3 ? 2 : 1;
    factory_options opt;
    mt_TensorObject *like;
    PyObject *input;
    PyObject *value_obj = NULL;
    mt_scalar value = {MT_INT64, {0}};
    double imag = 0.0;

    /* torch's order: the positional count, then input, fill_value and the keywords' types, then
     * unknown keywords, then the device */
    if (nargs > max_positional) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional argument%s but %zd were given", fname,
                     max_positional, max_positional == 1 ? "" : "s", nargs);
        return NULL;
    }
    if (parse_factory_kwargs(fname, NULL, args, nargs, kwnames, &opt, kind == 3 ? allowed_full : allowed, 0,
                             extra) < 0) {
        return NULL;
    }
    if (nargs > 0 && extra[0] != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'input'", fname);
        return NULL;
    }
    input = nargs > 0 ? args[0] : extra[0];
    if (input == NULL) {
        missing_argument(fname, "input");
        return NULL;
    }
    if (!mt_Tensor_Check(input)) {
        mt_arg_type_error(fname, "input", nargs > 0 ? 1 : 0, "Tensor", input);
        return NULL;
    }
    like = (mt_TensorObject *)input;
    if (kind == 3) {
        if (nargs > 1 && extra[1] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'fill_value'", fname);
            return NULL;
        }
        value_obj = nargs > 1 ? args[1] : extra[1];
        if (value_obj == NULL) {
            missing_argument(fname, "fill_value");
            return NULL;
        }
        if (fill_value_arg(fname, value_obj, nargs > 1 ? 2 : 0, &value, &imag) < 0) {
            return NULL;
        }
    }
    if (memory_format_kwarg(fname, extra[kind == 3 ? 2 : 1], MT_PRESERVE_FORMAT, &opt.memory_format) < 0 ||
        factory_finish(fname, &opt) < 0) {
        return NULL;
    }
    return like_result(like, &opt, kind, value, imag);
}

static PyObject *
mt_full_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return like_factory("full_like", args, nargs, kwnames, 3);
}

/* ---- arange and eye ----------------------------------------------------------------------------- */

/* A Number argument of arange: a Python number (a complex one with its imaginary part in *imag) or a
 * 0-d tensor's value. 0, or -1 with torch's TypeError. */
static int
number_arg(const char *fname, const char *name, int pos, PyObject *obj, mt_scalar *out, double *imag)
{
    int r = number_value(obj, out, imag);
    if (r == 0) {
        mt_arg_type_error(fname, name, pos, "Number", obj);
    }
    return r == 1 ? 0 : -1;
}

static PyObject *
mt_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"start", "end", "step", NULL};
    PyObject *extra[4] = {NULL, NULL, NULL, NULL};
    PyObject *start_obj = NULL, *end_obj = NULL, *step_obj = NULL;
    mt_scalar start = {MT_INT64, {0}}, end, step = {MT_INT64, {1}};
    mt_scalar *values[3] = {&start, &end, &step};
    double imags[3] = {0.0, 0.0, 0.0};
    factory_options opt;
    mt_dtype dtype;
    double dstart, dend, dstep, dsize;
    int64_t size;
    mt_TensorObject *t;

    if (parse_factory_kwargs("arange", arange_signatures, args, nargs, kwnames, &opt, allowed, 1, extra) < 0) {
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
    if ((start_obj && number_arg("arange", "start", 1, start_obj, &start, &imags[0]) < 0) ||
        number_arg("arange", "end", start_obj ? 2 : 1, end_obj, &end, &imags[1]) < 0 ||
        (step_obj && number_arg("arange", "step", 3, step_obj, &step, &imags[2]) < 0)) {
        return NULL;
    }
    if (factory_finish("arange", &opt) < 0) {
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
    if (opt.has_device) {
        /* the result is allocated (its device checked) before the kernel runs */
        mt_device resolved;
        if (mt_device_resolve(opt.device, &resolved) < 0) {
            return NULL;
        }
    }
    if (dtype == MT_BOOL) {
        /* torch's kernel dispatch has no bool arange */
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for 'Bool'",
                     opt.has_device && opt.device.type != MT_DEVICE_CPU ? "arange_cuda" : "arange_cpu");
        return NULL;
    }
    /* the bounds are read in the accumulate type (int64 or double), checked as torch's Scalar::to does */
    for (int k = 0; k < 3; k++) {
        mt_dtype acc = mt_dtype_is_floating(dtype) ? MT_FLOAT64 : MT_INT64;
        if (imags[k] != 0.0) {
            PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                         mt_scalar_checked_type_name(MT_FLOAT64));
            return NULL;
        }
        if (mt_scalar_checked(*values[k], acc, values[k]) < 0) {
            return NULL;
        }
    }
    dstart = mt_scalar_to_double(start);
    dend = mt_scalar_to_double(end);
    dstep = mt_scalar_to_double(step);
    if (!isfinite(dstart) || !isfinite(dend)) {
        if (start_obj != NULL) {
            PyErr_Format(PyExc_RuntimeError, "unsupported range: %R -> %R", start_obj, end_obj);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "unsupported range: 0 -> %R", end_obj);
        }
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
            mt_scalar v = {MT_INT64, {0}};
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

/* An int argument of eye: a Python int (or an object with __index__, not bool) or a one-element integer
 * tensor. 1 with *out set, 0 when obj is not an int (no exception), -1 with torch's ValueError for a
 * value past int64. */
static int
eye_int(PyObject *obj, long long *out)
{
    PyObject *index;
    int overflow = 0;

    if (mt_Tensor_Check(obj)) {
        mt_TensorObject *t = (mt_TensorObject *)obj;
        if (mt_tensor_numel(t) != 1 || !mt_dtype_is_integral(t->dtype, 0)) {
            return 0;
        }
        index = mt_tensor_item(t);
    }
    else if (PyBool_Check(obj) || PyFloat_Check(obj) || Py_TYPE(obj)->tp_as_number == NULL ||
             Py_TYPE(obj)->tp_as_number->nb_index == NULL) {
        return 0;
    }
    else {
        index = PyNumber_Index(obj);
    }
    if (index == NULL) {
        return -1;
    }
    *out = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    return *out == -1 && PyErr_Occurred() ? -1 : 1;
}

/* eye(n, *, ...) and eye(n, m, *, ...): torch overloads them, so only a call that one signature alone
 * could take gets a specific message. */
static PyObject *
mt_eye(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const allowed[] = {"n", "m", NULL};
    PyObject *extra[3] = {NULL, NULL, NULL};
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    factory_options opt;
    PyObject *n_obj, *m_obj;
    long long n, mm;
    int r;
    int64_t sizes[2];
    mt_TensorObject *t;
    mt_scalar zero = {MT_INT64, {0}};
    mt_scalar one = {MT_INT64, {1}};

    if (nargs > 2) {
        return invalid_combination("eye", args, nargs, kwnames, eye_signatures);
    }
    if (parse_factory_kwargs("eye", eye_signatures, args, nargs, kwnames, &opt, allowed, 1, extra) < 0) {
        return NULL;
    }
    if ((nargs > 0 && extra[0] != NULL) || (nargs > 1 && extra[1] != NULL)) {
        PyErr_Format(PyExc_TypeError, "eye() got multiple values for argument '%s'",
                     nargs > 0 && extra[0] != NULL ? "n" : "m");
        return NULL;
    }
    n_obj = nargs > 0 ? args[0] : extra[0];
    m_obj = nargs > 1 ? args[1] : extra[1];
    if (n_obj == NULL) {
        if (nargs + nkw == 1) {
            missing_argument("eye", "n");
            return NULL;
        }
        return invalid_combination("eye", args, nargs, kwnames, eye_signatures);
    }
    r = eye_int(n_obj, &n);
    if (r == 0) {
        if (nargs + nkw == 1) {
            mt_arg_type_error("eye", "n", nargs > 0 ? 1 : 0, "int", n_obj);
            return NULL;
        }
        return invalid_combination("eye", args, nargs, kwnames, eye_signatures);
    }
    if (r < 0) {
        return NULL;
    }
    mm = n;
    if (m_obj != NULL) {
        /* m=None matches neither signature */
        r = eye_int(m_obj, &mm);
        if (r == 0) {
            return invalid_combination("eye", args, nargs, kwnames, eye_signatures);
        }
        if (r < 0) {
            return NULL;
        }
    }
    if (factory_finish("eye", &opt) < 0) {
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

/* Fills dense t (in memory order) from the CUDA devices' Philox stream with the kernels of t's device:
 * the GPU's, or the same values from the host loops for the simulated GPU. Each fill consumes fresh
 * blocks of the stream, so successive calls never overlap. */
static int
philox_fill(mt_TensorObject *t, mt_philox_kind kind, double a, double b, int64_t low, int64_t high)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(t));
    mt_philox_fill fill;
    uint64_t blocks = 0;
    mt_kctx ctx;

    if (be == NULL) {
        return -1;
    }
    fill.kind = kind;
    fill.dtype = t->dtype;
    fill.out = mt_tensor_data(t);
    fill.n = mt_tensor_numel(t);
    fill.seed = cuda_seed;
    fill.offset = cuda_offset;
    fill.a = a;
    fill.b = b;
    fill.low = low;
    fill.high = high;
    mt_kctx_init(&ctx, mt_tensor_device(t));
    if (mt_kernel_result(&ctx, be->philox(&ctx, &fill, &blocks)) < 0) {
        return -1;
    }
    cuda_offset += blocks;
    return 0;
}

/* Fills a new contiguous tensor. CPU tensors use torch's generator; CUDA tensors the Philox stream. */
static int
random_fill(mt_TensorObject *t, random_kind kind, int64_t low, int64_t high)
{
    int64_t n = mt_tensor_numel(t);
    void *out = mt_tensor_data(t);
    mt_cpu_generator *g;
    int err = MT_RNG_OK;

    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return kind == RANDOM_UNIFORM  ? philox_fill(t, MT_PHILOX_UNIFORM, 0.0, 1.0, 0, 0)
               : kind == RANDOM_NORMAL ? philox_fill(t, MT_PHILOX_NORMAL, 0.0, 1.0, 0, 0)
                                       : philox_fill(t, MT_PHILOX_RANDINT, 0.0, 0.0, low, high);
    }
    g = default_generator();
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
            mt_cpu_normal_float(g, out, n, 0.0, 1.0, mt_tensor_is_contiguous(t));
        }
        else {
            mt_cpu_normal_double(g, out, n, 0.0, 1.0, mt_tensor_is_contiguous(t));
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

static PyObject *
random_factory(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, random_kind kind)
{
    static const char *const allowed[] = {"size", NULL};
    PyObject *extra[2] = {NULL, NULL};
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_dtype dtype;
    mt_TensorObject *t;

    if (parse_factory_kwargs(fname, rand_signatures, args, nargs, kwnames, &opt, allowed, 1, extra) < 0) {
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
    else if (nargs == 0) {
        return invalid_combination(fname, args, nargs, kwnames, rand_signatures);
    }
    else if (factory_size_args(fname, args, nargs, sizes, &ndim) < 0) {
        return NULL;
    }
    if (factory_finish(fname, &opt) < 0) {
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
        /* torch's THPUtils_unpackLong */
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
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
    static const char *const allowed[] = {"low", "high", "size", NULL};
    PyObject *extra[4] = {NULL, NULL, NULL, NULL};
    PyObject *low_obj = NULL, *high_obj = NULL, *size_obj = NULL;
    int64_t low = 0, high;
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    factory_options opt;
    mt_dtype dtype;
    mt_TensorObject *t;

    if (nargs > 3) {
        return invalid_combination("randint", args, nargs, kwnames, randint_signatures);
    }
    if (parse_factory_kwargs("randint", randint_signatures, args, nargs, kwnames, &opt, allowed, 1,
                             extra) < 0) {
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
    if (high_obj == NULL || size_obj == NULL) {
        Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        if (high_obj != NULL && nargs + nkw >= 2) {
            /* torch's parser finds one signature of that many arguments and names what it misses */
            missing_argument("randint", "size");
            return NULL;
        }
        return invalid_combination("randint", args, nargs, kwnames, randint_signatures);
    }
    if (!PyTuple_Check(size_obj) && !PyList_Check(size_obj)) {
        PyErr_Format(PyExc_TypeError, "randint(): argument 'size' (position %d) must be tuple of ints, not %s",
                     low_obj ? 3 : 2, Py_TYPE(size_obj)->tp_name);
        return NULL;
    }
    if ((low_obj != NULL && int_arg("randint", "low", 1, low_obj, &low) < 0) ||
        int_arg("randint", "high", low_obj ? 2 : 1, high_obj, &high) < 0 ||
        mt_parse_size_object("randint", size_obj, sizes, &ndim) < 0 || factory_finish("randint", &opt) < 0) {
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
    static const char *const allowed[] = {"input", "memory_format", NULL};
    PyObject *extra[2] = {NULL, NULL};
    PyObject *input;
    factory_options opt;
    mt_TensorObject *like, *t;
    mt_device device;

    /* torch overloads rand_like/randn_like (with and without generator=): any bad call is an
     * "invalid combination" */
    if (nargs > 1) {
        return invalid_combination(fname, args, nargs, kwnames, rand_like_signatures);
    }
    if (parse_factory_kwargs(fname, rand_like_signatures, args, nargs, kwnames, &opt, allowed, 0, extra) < 0) {
        return NULL;
    }
    input = nargs > 0 ? args[0] : extra[0];
    if (input == NULL || !mt_Tensor_Check(input) || (nargs > 0 && extra[0] != NULL)) {
        return invalid_combination(fname, args, nargs, kwnames, rand_like_signatures);
    }
    if ((extra[1] != NULL && extra[1] != Py_None && !PyObject_TypeCheck(extra[1], &mt_MemoryFormatType))) {
        return invalid_combination(fname, args, nargs, kwnames, rand_like_signatures);
    }
    if (memory_format_kwarg(fname, extra[1], MT_PRESERVE_FORMAT, &opt.memory_format) < 0 ||
        factory_finish(fname, &opt) < 0) {
        return NULL;
    }
    like = (mt_TensorObject *)input;
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
    if (opt.requires_grad && !mt_dtype_is_floating(opt.dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    if (mt_device_resolve(opt.device, &device) < 0) {
        return NULL;
    }
    /* torch's rand_like keeps the input's layout (preserve_format) and fills it in memory order */
    t = mt_tensor_empty_in_format(like, opt.dtype, device, opt.memory_format);
    if (t == NULL) {
        return NULL;
    }
    t->requires_grad = opt.requires_grad;
    if (random_fill(t, kind, 0, 0) < 0) {
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
    {"full", FASTCALL(mt_full), "full(size, fill_value, dtype=None, device=None) -> Tensor"},
    {"full_like", FASTCALL(mt_full_like), "full_like(input, fill_value, dtype=None, device=None) -> Tensor"},
    {"arange", FASTCALL(mt_arange), "arange(start=0, end, step=1, dtype=None, device=None) -> Tensor"},
    {"eye", FASTCALL(mt_eye), "eye(n, m=n, *, dtype=None, device=None, requires_grad=False) -> Tensor"},
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

/* A float argument as torch's parser reads one: a Python number (an int of any size, as a double) or a
 * 0-d tensor that does not require grad (float(tensor)). pos 0: given by keyword. */
static int
double_arg(PyObject *obj, const char *fname, const char *name, int pos, double *out)
{
    mt_scalar s;
    int r;

    if (mt_Tensor_Check(obj)) {
        mt_TensorObject *t = (mt_TensorObject *)obj;
        PyObject *item;
        if (t->ndim != 0 || t->requires_grad) {
            return mt_arg_type_error(fname, name, pos, "float", obj);
        }
        item = mt_tensor_item(t);
        if (item == NULL) {
            return -1;
        }
        *out = PyFloat_AsDouble(item);
        Py_DECREF(item);
        return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
    }
    if (PyLong_Check(obj) || PyFloat_Check(obj)) {
        /* OverflowError "int too large to convert to float" past the double range, as in torch */
        *out = PyFloat_AsDouble(obj);
        return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
    }
    r = PyComplex_Check(obj) ? 0 : mt_scalar_from_object(obj, &s);
    if (r == 0) {
        return mt_arg_type_error(fname, name, pos, "float", obj);
    }
    if (r < 0) {
        return -1;
    }
    *out = mt_scalar_to_double(s);
    return 0;
}

/* Runs `fill`, which writes a dense buffer front to back, so that t's elements get the values in
 * torch's iteration order, which is memory order: t's own memory when t is dense (a transposed or
 * channels-last tensor included), otherwise a dense buffer in t's dim order copied into t. */
typedef int (*dense_fill_fn)(mt_TensorObject *dst, void *ctx);

static int
fill_in_memory_order(mt_TensorObject *t, dense_fill_fn fill, void *ctx)
{
    mt_TensorObject *tmp;
    int r;
    if (mt_tensor_is_non_overlapping_and_dense(t)) {
        return fill(t, ctx);
    }
    tmp = mt_tensor_empty_preserving(t, t->dtype, mt_tensor_device(t));
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
    int contiguous;  /* normal_: whether self is contiguous (torch's vectorised path) */
} two_doubles;

static int
uniform_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return philox_fill(t, MT_PHILOX_UNIFORM, p->a, p->b, 0, 0);
    }
    if (t->dtype == MT_FLOAT32) {
        mt_cpu_uniform_float(default_generator(), (float *)mt_tensor_data(t), n, p->a, p->b);
    }
    else {
        mt_cpu_uniform_double(default_generator(), (double *)mt_tensor_data(t), n, p->a, p->b);
    }
    return 0;
}

static int
normal_fill(mt_TensorObject *t, void *ctx)
{
    two_doubles *p = ctx;
    int64_t n = mt_tensor_numel(t);
    if (mt_tensor_device(t).type != MT_DEVICE_CPU) {
        return philox_fill(t, MT_PHILOX_NORMAL, p->a, p->b, 0, 0);
    }
    if (t->dtype == MT_FLOAT32) {
        mt_cpu_normal_float(default_generator(), (float *)mt_tensor_data(t), n, p->a, p->b, p->contiguous);
    }
    else {
        mt_cpu_normal_double(default_generator(), (double *)mt_tensor_data(t), n, p->a, p->b, p->contiguous);
    }
    return 0;
}

static int
parse_two_doubles(const char *fname, const char *n0, double d0, const char *n1, double d1, PyObject *const *args,
                  Py_ssize_t nargs, PyObject *kwnames, two_doubles *out)
{
    PyObject *vals[2] = {nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    int positions[2] = {1, 2};
    PyObject *unknown = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    out->a = d0;
    out->b = d1;
    out->contiguous = 1;
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes from 0 to 2 positional arguments but %zd were given", fname, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        int k = PyUnicode_CompareWithASCIIString(key, n0) == 0   ? 0
                : PyUnicode_CompareWithASCIIString(key, n1) == 0 ? 1
                                                                  : -1;
        if (k >= 0) {
            if (vals[k] != NULL) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, k == 0 ? n0 : n1);
                return -1;
            }
            vals[k] = args[nargs + i];
            positions[k] = 0;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "generator") != 0 && unknown == NULL) {
            unknown = key;
        }
    }
    if ((vals[0] && double_arg(vals[0], fname, n0, positions[0], &out->a) < 0) ||
        (vals[1] && double_arg(vals[1], fname, n1, positions[1], &out->b) < 0)) {
        return -1;
    }
    if (unknown != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, unknown);
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
    /* torch's check_uniform_bounds: both ends within the dtype's range, in order, and a span it can hold */
    {
        double max = self->dtype == MT_FLOAT32 ? (double)FLT_MAX : DBL_MAX;
        const char *names[2] = {"from", "to"};
        double ends[2] = {p.a, p.b};
        char msg[256];
        for (int k = 0; k < 2; k++) {
            if (!(ends[k] >= -max && ends[k] <= max)) {
                PyErr_Format(PyExc_RuntimeError, "%s is out of bounds for %s", names[k],
                             self->dtype == MT_FLOAT32 ? "float" : "double");
                return NULL;
            }
        }
        /* C++ streams print doubles like %g */
        if (!(p.a <= p.b)) {
            snprintf(msg, sizeof(msg), "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", p.a,
                     p.b);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
        if (!(p.b - p.a <= max)) {
            snprintf(msg, sizeof(msg),
                     "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=%g and from=%g which "
                     "result in to-from to exceed the limit",
                     mt_dtype_scalar_name(self->dtype), p.b, p.a);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
    }
    /* the kernel's TensorIterator refuses an expanded self */
    if (mt_check_no_internal_overlap(self) < 0 || fill_in_memory_order(self, uniform_fill, &p) < 0) {
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
    /* the kernel's TensorIterator refuses an expanded self */
    if (mt_check_no_internal_overlap(self) < 0) {
        return NULL;
    }
    /* torch draws one value at a time for a non-contiguous self */
    p.contiguous = mt_tensor_is_contiguous(self);
    if (fill_in_memory_order(self, normal_fill, &p) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

/* fill_(value): torch overloads it for a Tensor value (a 0-d tensor, copied in as copy_ would, so an
 * expanded self is refused) and a Number value (converted with torch's overflow check). */
static PyObject *
tensor_fill_(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *v;
    mt_scalar value;
    double imag;
    int r;

    if (nargs + nkw != 1 ||
        (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "value") != 0)) {
        return invalid_combination("fill_", args, nargs, kwnames, fill_signatures);
    }
    v = args[0];
    if (mt_Tensor_Check(v)) {
        mt_TensorObject *tv = (mt_TensorObject *)v;
        if (tv->ndim != 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", tv->ndim);
            return NULL;
        }
        if (mt_device_equal(mt_tensor_device(self), mt_tensor_device(tv))) {
            if (mt_check_no_internal_overlap(self) < 0 || mt_copy_(self, tv) < 0) {
                return NULL;
            }
            Py_INCREF(self);
            return (PyObject *)self;
        }
        /* a value on another device is read as a number */
    }
    r = number_value(v, &value, &imag);
    if (r == 0) {
        return invalid_combination("fill_", args, nargs, kwnames, fill_signatures);
    }
    if (r < 0 || checked_fill_value(value, imag, self->dtype, &value) < 0 || mt_fill_(self, value) < 0) {
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
