/* copy.c: moving and converting tensor data: copy_ (broadcast, dtype conversion, across devices,
 * non_blocking from pinned memory), fill, and the Tensor methods built on them: to, cpu, cuda, float,
 * double, int, long, bool, type_as. Elements are converted and filled by the cast and fill kernels of
 * the device's backend (kernels/backend.h), which for host memory read both sides at once; bytes cross
 * between devices in one transfer through the device layer (devices.h), or, for non_blocking copies
 * from or to pinned memory, as one asynchronous copy of the CUDA runtime. */
#include "copy.h"

#include <string.h>

#include "../core/devices.h"
#include "../runtime/runtime.h"
#include "dispatch.h"
#include "methods.h"
#include "shape.h"

/* dst := src (already of dst's broadcast shape) by the cast kernel of one backend that reads both. */
static int
copy_kernel(const mt_backend *be, mt_TensorObject *dst, mt_TensorObject *src)
{
    mt_iter it;
    mt_kctx ctx;

    mt_iter_init(&it, dst->ndim, dst->sizes);
    mt_iter_add_tensor(&it, dst);
    mt_iter_add_tensor(&it, src);
    mt_iter_coalesce(&it);
    if (it.numel == 0) {
        return 0;
    }
    mt_kctx_init(&ctx, mt_tensor_device(dst));
    return mt_kernel_result(&ctx, be->cast(&ctx, &it, dst->dtype, src->dtype));
}

static int
check_copy_shapes(mt_TensorObject *dst, mt_TensorObject *src)
{
    int64_t shape[MT_MAX_DIMS];
    int n;

    if (mt_broadcast_shapes(dst->ndim, dst->sizes, src->ndim, src->sizes, &n, shape) < 0) {
        return -1;
    }
    if (n != dst->ndim || memcmp(shape, dst->sizes, sizeof(int64_t) * (size_t)n) != 0) {
        char a[1024], b[1024];
        mt_format_shape(dst->ndim, dst->sizes, a, sizeof(a));
        mt_format_shape(n, shape, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
        return -1;
    }
    return 0;
}

/* A new tensor on `device` with layout's sizes and `dtype`, laid out like `layout` when that is dense (so
 * that its bytes line up with a dense tensor of that layout), contiguous otherwise. */
static mt_TensorObject *
empty_in_layout(const mt_TensorObject *layout, mt_dtype dtype, mt_device device)
{
    if (mt_tensor_is_non_overlapping_and_dense(layout)) {
        int64_t numel = mt_tensor_numel(layout);
        mt_storage *storage = mt_storage_new((size_t)numel * mt_dtype_size(dtype), device);
        mt_TensorObject *t;
        if (storage == NULL) {
            return NULL;
        }
        t = mt_tensor_from_storage(storage, layout->ndim, layout->sizes, layout->strides, 0, dtype);
        mt_storage_decref(storage);
        return t;
    }
    return mt_tensor_empty(layout->ndim, layout->sizes, dtype, device);
}

/* 1 when the bytes of src, read in memory order, are dst's bytes: both dense with the same sizes,
 * strides and dtype (contiguous tensors are the common case). Dense tensors start at their data
 * pointer, since minitorch strides are never negative. */
static int
same_dense_bytes(const mt_TensorObject *dst, const mt_TensorObject *src)
{
    return dst->dtype == src->dtype && dst->ndim == src->ndim &&
           memcmp(dst->sizes, src->sizes, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
           memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
           mt_tensor_is_non_overlapping_and_dense(dst);
}

/* Converts/broadcasts src into dst where both live on the same device (or both in host memory). */
static int
convert_on_device(mt_TensorObject *dst, mt_TensorObject *src)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(dst));
    return be == NULL ? -1 : copy_kernel(be, dst, src);
}

static int
is_pinned_storage(const mt_TensorObject *t)
{
    return t->storage->pinned;
}

/* Moves the bytes of dense `from` into the same-layout `to` across devices. With non_blocking and a
 * pinned host side the copy is queued on the device's stream and this returns at once (torch's
 * non_blocking); the pinned block is marked as in use until the copy is done. */
static int
transfer(mt_TensorObject *to, mt_TensorObject *from, int non_blocking)
{
    mt_device td = mt_tensor_device(to);
    mt_device fd = mt_tensor_device(from);
    size_t nbytes = (size_t)mt_tensor_numel(to) * mt_dtype_size(to->dtype);

#ifdef MINITORCH_WITH_CUDA
    if (non_blocking && !mt_cuda_is_simulated() && nbytes > 0 && (td.type == MT_DEVICE_CPU) != (fd.type == MT_DEVICE_CPU)) {
        int h2d = td.type == MT_DEVICE_CUDA;
        mt_TensorObject *host = h2d ? from : to;
        int device = h2d ? td.index : fd.index;
        if (is_pinned_storage(host)) {
            int err = mt_cuda_memcpy_async(mt_tensor_data(to), td.index, mt_tensor_data(from), fd.index, nbytes,
                                           h2d ? MT_MEMCPY_HOST_TO_DEVICE : MT_MEMCPY_DEVICE_TO_HOST);
            if (err == MT_RT_SUCCESS) {
                err = mt_cuda_host_record(mt_tensor_data(host), device);
            }
            if (err != MT_RT_SUCCESS) {
                mt_kstatus st;
                mt_kstatus_set(&st, MT_KSTATUS_CUDA_ERROR, err, "%s", mt_cuda_runtime()->error_string(err));
                return mt_raise_kstatus(&st);
            }
            return 0;
        }
    }
#else
    (void)non_blocking;
#endif
    return mt_memcpy(mt_tensor_data(to), td, mt_tensor_data(from), fd, nbytes);
}

int
mt_copy_nonblocking_(mt_TensorObject *dst, mt_TensorObject *src, int non_blocking)
{
    mt_device dd = mt_tensor_device(dst);
    mt_device sd = mt_tensor_device(src);
    mt_TensorObject *staged = NULL;
    mt_TensorObject *landing = NULL;
    const mt_backend *be, *src_be;
    int r = -1;

    if (check_copy_shapes(dst, src) < 0) {
        return -1;
    }
    if (mt_tensor_numel(dst) == 0) {
        return 0;
    }
    be = mt_backend_for(dd);
    src_be = mt_backend_for(sd);
    if (be == NULL || src_be == NULL) {
        return -1;
    }
    if (be == src_be && (be->host_memory || mt_device_equal(dd, sd))) {
        /* one kernel reads src and writes dst: strides, broadcasting and dtypes in one pass. Views of
         * one storage go through a copy first (the kernel's elements are written in no set order); a
         * host copy's temporary is CPU memory, which takes nothing from a simulated device */
        if (dst->storage == src->storage && src != dst) {
            mt_TensorObject *tmp =
                mt_tensor_empty(src->ndim, src->sizes, src->dtype, be->host_memory ? mt_cpu_device() : sd);
            if (tmp == NULL) {
                return -1;
            }
            r = copy_kernel(be, tmp, src);
            if (r == 0) {
                r = copy_kernel(be, dst, tmp);
            }
            Py_DECREF(tmp);
            return r;
        }
        return copy_kernel(be, dst, src);
    }
    /* Across devices (host <-> CUDA, or two CUDA devices): make the source's bytes match dst's layout
     * and dtype on the source's side, move them in one transfer, and scatter them into dst on its own
     * side when dst is not dense. */
    if (same_dense_bytes(dst, src)) {
        staged = src;
        Py_INCREF(staged);
    }
    else {
        staged = empty_in_layout(dst, dst->dtype, sd);
        if (staged == NULL) {
            return -1;
        }
        if (convert_on_device(staged, src) < 0) {
            goto done;
        }
    }
    if (mt_tensor_is_non_overlapping_and_dense(dst)) {
        r = transfer(dst, staged, non_blocking);
    }
    else {
        landing = empty_in_layout(staged, dst->dtype, dd);
        if (landing == NULL) {
            goto done;
        }
        r = transfer(landing, staged, 0);
        if (r == 0) {
            r = convert_on_device(dst, landing);
        }
    }

done:
    Py_XDECREF(landing);
    Py_XDECREF(staged);
    return r;
}

int
mt_copy_(mt_TensorObject *dst, mt_TensorObject *src)
{
    return mt_copy_nonblocking_(dst, src, 0);
}

int
mt_fill_(mt_TensorObject *dst, mt_scalar value)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(dst));
    mt_value one;
    mt_iter it;
    mt_kctx ctx;

    if (be == NULL) {
        return -1;
    }
    /* the value converted once; the fill kernel writes its bits through dst's strides */
    mt_scalar_store(value, dst->dtype, one.bytes);
    mt_iter_init(&it, dst->ndim, dst->sizes);
    mt_iter_add_tensor(&it, dst);
    mt_iter_coalesce(&it);
    if (it.numel == 0) {
        return 0;
    }
    mt_kctx_init(&ctx, mt_tensor_device(dst));
    return mt_kernel_result(&ctx, be->fill(&ctx, &it, dst->dtype, one));
}

static mt_TensorObject *
copy_to(mt_TensorObject *src, mt_dtype dtype, mt_device device, int non_blocking, mt_memory_format format)
{
    mt_TensorObject *dst = mt_tensor_empty_in_format(src, dtype, device, format);
    if (dst == NULL) {
        return NULL;
    }
    if (mt_copy_nonblocking_(dst, src, non_blocking) < 0) {
        Py_DECREF(dst);
        return NULL;
    }
    return dst;
}

mt_TensorObject *
mt_copy_to(mt_TensorObject *src, mt_dtype dtype, mt_device device)
{
    return copy_to(src, dtype, device, 0, MT_PRESERVE_FORMAT);
}

mt_TensorObject *
mt_host_readable(mt_TensorObject *t)
{
    if (mt_device_is_host_memory(mt_tensor_device(t))) {
        Py_INCREF(t);
        return t;
    }
    return mt_copy_to(t, t->dtype, mt_cpu_device());
}

/* ---- Tensor methods ------------------------------------------------------------------------------ */

/* torch's "argument 'x' (position i) must be T, not U" (no position for a keyword argument). */
static PyObject *
arg_type_error(const char *fname, const char *name, Py_ssize_t pos, const char *want, PyObject *obj)
{
    mt_arg_type_error(fname, name, pos, want, obj);
    return NULL;
}

/* torch's "received an invalid combination of arguments" for a parser with one visible signature. */
static PyObject *
invalid_arguments(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                  const char *signature)
{
    return mt_invalid_combination(fname, args, nargs, kwnames, 0, signature);
}

/* Finds keyword `name` among the FASTCALL keywords: its value, or NULL. */
static PyObject *
keyword_value(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *name)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), name) == 0) {
            return args[nargs + i];
        }
    }
    return NULL;
}

/* The first keyword not in `names` (NULL-terminated), or NULL. */
static PyObject *
unknown_keyword(PyObject *kwnames, const char *const *names)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        int known = 0;
        for (int k = 0; names[k] != NULL; k++) {
            if (PyUnicode_CompareWithASCIIString(key, names[k]) == 0) {
                known = 1;
                break;
            }
        }
        if (!known) {
            return key;
        }
    }
    return NULL;
}

/* memory_format= of the conversions: a minitorch.memory_format, or None for preserve_format. */
static int
check_memory_format(const char *fname, PyObject *value, mt_memory_format *format)
{
    return mt_memory_format_arg(value, fname, 1, MT_PRESERVE_FORMAT, format);
}

/* The parser of cpu(), float(), ...: (*, memory_format=None), checked in torch's order (too many
 * positionals, the memory_format type, then unknown keywords). 0 or -1. */
static int
parse_memory_format_only(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         mt_memory_format *format)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *key;

    if (nargs > 0) {
        PyErr_Format(PyExc_TypeError, "%s() takes 0 positional arguments but %zd %s given", fname, nargs,
                     nargs == 1 ? "was" : "were");
        return -1;
    }
    if (check_memory_format(fname, keyword_value(args, nargs, kwnames, "memory_format"), format) < 0) {
        return -1;
    }
    key = unknown_keyword(kwnames, names);
    if (key != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
        return -1;
    }
    return 0;
}

/* copy_ from a Python number: torch wraps it as a 0-d tensor (double, int64 or bool; a complex keeps its
 * real part, with torch's warning) and copies that with the copy kernel's conversions. Returns the new
 * 0-d host tensor, made for a copy into `self`, or NULL. */
static mt_TensorObject *
wrap_number(mt_TensorObject *self, PyObject *obj)
{
    mt_scalar s;
    mt_TensorObject *src;
    int64_t no_sizes = 0;

    if (PyComplex_Check(obj)) {
        Py_complex z = PyComplex_AsCComplex(obj);
        if (self->dtype == MT_BOOL) {
            s.kind = MT_BOOL;
            s.v.i = z.real != 0.0 || z.imag != 0.0;
        }
        else {
            if (PyErr_WarnEx(PyExc_UserWarning, "Casting complex values to real discards the imaginary part",
                             1) < 0) {
                return NULL;
            }
            s.kind = MT_FLOAT64;
            s.v.d = z.real;
        }
        s.is_uint64 = 0;
    }
    else if (mt_scalar_from_object(obj, &s) < 0) {
        return NULL;
    }
    if (s.is_uint64 && mt_dtype_is_floating(self->dtype)) {
        /* torch's uint64 tensor converts exactly; its int64 bits serve the integer dtypes and bool */
        s.kind = MT_FLOAT64;
        s.v.d = (double)(uint64_t)s.v.i;
        s.is_uint64 = 0;
    }
    src = mt_tensor_empty(0, &no_sizes, s.kind, mt_cpu_device());
    if (src != NULL) {
        mt_scalar_store(s, s.kind, mt_tensor_data(src));
    }
    return src;
}

static int
is_python_number(PyObject *obj)
{
    mt_scalar unused;
    int r;
    if (PyComplex_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj)) {
        return 1;
    }
    if (mt_Tensor_Check(obj)) {
        return 0;
    }
    /* NumPy scalars and other numbers; whatever goes wrong reading one is reported by the copy */
    r = mt_scalar_from_object(obj, &unused);
    if (r < 0) {
        PyErr_Clear();
        return 1;
    }
    return r;
}

/* torch's is_same / is_same_data shortcut of copy_: src is self, or a view with self's exact layout */
static int
same_data(const mt_TensorObject *a, const mt_TensorObject *b)
{
    return a == b || (a->storage == b->storage && a->dtype == b->dtype && a->ndim == b->ndim &&
                      mt_tensor_data(a) == mt_tensor_data(b) &&
                      memcmp(a->sizes, b->sizes, sizeof(int64_t) * (size_t)a->ndim) == 0 &&
                      memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) == 0);
}

static PyObject *
tensor_copy_(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"other", "non_blocking", NULL};
    static const char *const signature = "(Tensor other, bool non_blocking = False)";
    PyObject *src = nargs > 0 ? args[0] : NULL;
    PyObject *non_blocking_obj = nargs > 1 ? args[1] : NULL;
    PyObject *kw_src = keyword_value(args, nargs, kwnames, "other");
    PyObject *kw_non_blocking = keyword_value(args, nargs, kwnames, "non_blocking");
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *key;
    int non_blocking = 0;

    /* torch's parser: the argument count, each parameter in order (duplicate, missing, type), and
     * unknown keywords last */
    if (nargs + nkw > 2 || nargs + nkw == 0) {
        return invalid_arguments("copy_", args, nargs, kwnames, signature);
    }
    if ((src != NULL && kw_src != NULL) || (non_blocking_obj != NULL && kw_non_blocking != NULL)) {
        PyErr_Format(PyExc_TypeError, "copy_() got multiple values for argument '%s'",
                     src != NULL && kw_src != NULL ? "other" : "non_blocking");
        return NULL;
    }
    if (src == NULL) {
        src = kw_src;
    }
    if (src == NULL) {
        PyErr_SetString(PyExc_TypeError, "copy_() missing 1 required positional arguments: \"other\"");
        return NULL;
    }
    if (!mt_Tensor_Check(src) && !is_python_number(src)) {
        return arg_type_error("copy_", "other", kw_src != NULL ? 0 : 1, "Tensor", src);
    }
    if (non_blocking_obj == NULL && kw_non_blocking != NULL) {
        non_blocking_obj = kw_non_blocking;
        if (!PyBool_Check(non_blocking_obj)) {
            return arg_type_error("copy_", "non_blocking", 0, "bool", non_blocking_obj);
        }
    }
    else if (non_blocking_obj != NULL && !PyBool_Check(non_blocking_obj)) {
        return arg_type_error("copy_", "non_blocking", 2, "bool", non_blocking_obj);
    }
    key = unknown_keyword(kwnames, names);
    if (key != NULL) {
        PyErr_Format(PyExc_TypeError, "copy_() got an unexpected keyword argument '%U'", key);
        return NULL;
    }
    non_blocking = non_blocking_obj == Py_True;
    if (mt_Tensor_Check(src)) {
        Py_INCREF(src);
    }
    else if ((src = (PyObject *)wrap_number(self, src)) == NULL) {
        return NULL;
    }
    /* TensorIterator refuses to write an expanded tensor, or one that shares some but not all of src's
     * memory (before it looks at shapes), unless src is self's own data, which copy_ returns at once */
    if (!same_data(self, (mt_TensorObject *)src) &&
        (mt_check_no_internal_overlap(self) < 0 || mt_check_no_partial_overlap(self, (mt_TensorObject *)src) < 0 ||
         mt_copy_nonblocking_(self, (mt_TensorObject *)src, non_blocking) < 0)) {
        Py_DECREF(src);
        return NULL;
    }
    Py_DECREF(src);
    Py_INCREF(self);
    return (PyObject *)self;
}

/* Returns self when nothing would change (torch's to_will_alias: same dtype and device, no copy=True,
 * and memory_format preserve_format or the one self's strides already suggest), else a converted copy
 * laid out in `format`; non_blocking makes a copy from pinned host memory asynchronous (see transfer). */
static PyObject *
to_impl(mt_TensorObject *self, int has_device, mt_device device, int has_dtype, mt_dtype dtype, int copy,
        int non_blocking, mt_memory_format format)
{
    mt_device target = mt_tensor_device(self);
    mt_dtype target_dtype = has_dtype ? dtype : self->dtype;

    if (has_device) {
        if (mt_device_resolve(device, &target) < 0) {
            return NULL;
        }
    }
    if (!copy && target_dtype == self->dtype && mt_device_equal(target, mt_tensor_device(self)) &&
        (format == MT_PRESERVE_FORMAT || mt_memory_format_suggest(self->ndim, self->sizes, self->strides) == format)) {
        Py_INCREF(self);
        return (PyObject *)self;
    }
    return (PyObject *)copy_to(self, target_dtype, target, non_blocking, format);
}

static PyObject *
to_invalid_arguments(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return mt_invalid_combination("to", args, nargs, kwnames, 1,
                                  " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = "
                                  "False, bool copy = False, *, torch.memory_format memory_format = None)\n"
                                  " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
                                  "torch.memory_format memory_format = None)\n"
                                  " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
                                  "torch.memory_format memory_format = None)\n");
}

static int
is_device_like(PyObject *o)
{
    return mt_Device_Check(o) || PyUnicode_Check(o) || (PyLong_Check(o) && !PyBool_Check(o));
}

static PyObject *
tensor_to(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *device_obj = NULL, *dtype_obj = NULL, *copy_obj = NULL, *non_blocking_obj = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    Py_ssize_t pos = 0;
    int has_device = 0, has_dtype = 0, copy = 0, non_blocking = 0;
    mt_device device = mt_cpu_device();
    mt_dtype dtype = self->dtype;
    mt_memory_format format = MT_PRESERVE_FORMAT;

    /* positional forms: (device, dtype, non_blocking, copy) | (dtype, non_blocking, copy) | (tensor, ...) */
    if (nargs > 0) {
        PyObject *first = args[0];
        if (mt_Tensor_Check(first)) {
            mt_TensorObject *other = (mt_TensorObject *)first;
            has_device = has_dtype = 1;
            device = mt_tensor_device(other);
            dtype = other->dtype;
            pos = 1;
        }
        else if (mt_Dtype_Check(first)) {
            dtype_obj = first;
            pos = 1;
        }
        else if (is_device_like(first) || first == Py_None) {
            /* the (device, dtype, non_blocking, copy) form; None means "unchanged" */
            device_obj = first;
            pos = 1;
            if (nargs > 1 && (mt_Dtype_Check(args[1]) || args[1] == Py_None)) {
                dtype_obj = args[1];
                pos = 2;
            }
        }
        else {
            return to_invalid_arguments(args, nargs, kwnames);
        }
        /* what is left: non_blocking, copy */
        if (nargs - pos > 2) {
            return to_invalid_arguments(args, nargs, kwnames);
        }
        for (Py_ssize_t i = pos; i < nargs; i++) {
            if (!PyBool_Check(args[i])) {
                return to_invalid_arguments(args, nargs, kwnames);
            }
        }
        if (nargs - pos >= 1) {
            non_blocking_obj = args[pos];
        }
        if (nargs - pos == 2) {
            copy_obj = args[pos + 1];
        }
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        PyObject *value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(key, "device") == 0) {
            device_obj = value;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
            dtype_obj = value;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "copy") == 0) {
            copy_obj = value;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "non_blocking") == 0) {
            non_blocking_obj = value;
        }
        else if (PyUnicode_CompareWithASCIIString(key, "memory_format") == 0) {
            if (value != Py_None && !PyObject_TypeCheck(value, &mt_MemoryFormatType)) {
                return to_invalid_arguments(args, nargs, kwnames);
            }
            if (check_memory_format("to", value, &format) < 0) {
                return NULL;
            }
        }
        else {
            PyErr_Format(PyExc_TypeError, "to() got an unexpected keyword argument '%U'", key);
            return NULL;
        }
    }
    if (device_obj != NULL && device_obj != Py_None) {
        if (mt_device_from_object(device_obj, &device) < 0) {
            return NULL;
        }
        has_device = 1;
    }
    if (dtype_obj != NULL && dtype_obj != Py_None) {
        if (mt_dtype_from_object(dtype_obj, &dtype) < 0) {
            return NULL;
        }
        has_dtype = 1;
    }
    if (copy_obj != NULL) {
        copy = PyObject_IsTrue(copy_obj);
        if (copy < 0) {
            return NULL;
        }
    }
    if (non_blocking_obj != NULL) {
        non_blocking = PyObject_IsTrue(non_blocking_obj);
        if (non_blocking < 0) {
            return NULL;
        }
    }
    return to_impl(self, has_device, device, has_dtype, dtype, copy, non_blocking, format);
}

static PyObject *
tensor_cpu(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    mt_memory_format format;

    if (parse_memory_format_only("cpu", args, nargs, kwnames, &format) < 0) {
        return NULL;
    }
    return to_impl(self, 1, mt_cpu_device(), 0, self->dtype, 0, 0, format);
}

/* cuda(device=None, non_blocking=False, *, memory_format=None), parsed as torch's parser does: the
 * argument count, then each parameter's type in order, unknown keywords last, and only then the
 * device itself. */
static PyObject *
tensor_cuda(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"device", "non_blocking", "memory_format", NULL};
    static const char *const params[] = {"device", "non_blocking"};
    PyObject *values[2] = {nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    Py_ssize_t positions[2] = {1, 2};
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    mt_device device = {MT_DEVICE_CUDA, -1};
    mt_memory_format format;
    PyObject *key;

    if (nargs + nkw > 3) {
        return invalid_arguments("cuda", args, nargs, kwnames,
                                 "(torch.device device = None, bool non_blocking = False, *, "
                                 "torch.memory_format memory_format = None)");
    }
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "cuda() takes from 0 to 2 positional arguments but %zd were given", nargs);
        return NULL;
    }
    for (int k = 0; k < 2; k++) {
        PyObject *kw = keyword_value(args, nargs, kwnames, params[k]);
        if (kw != NULL) {
            if (values[k] != NULL) {
                PyErr_Format(PyExc_TypeError, "cuda() got multiple values for argument '%s'", params[k]);
                return NULL;
            }
            values[k] = kw;
            positions[k] = 0;
        }
    }
    if (values[0] != NULL && values[0] != Py_None && !mt_Device_Check(values[0]) && !PyUnicode_Check(values[0]) &&
        !(PyLong_Check(values[0]) && !PyBool_Check(values[0]))) {
        return arg_type_error("cuda", "device", positions[0], "torch.device", values[0]);
    }
    if (values[1] != NULL && !PyBool_Check(values[1])) {
        return arg_type_error("cuda", "non_blocking", positions[1], "bool", values[1]);
    }
    if (check_memory_format("cuda", keyword_value(args, nargs, kwnames, "memory_format"), &format) < 0) {
        return NULL;
    }
    key = unknown_keyword(kwnames, names);
    if (key != NULL) {
        PyErr_Format(PyExc_TypeError, "cuda() got an unexpected keyword argument '%U'", key);
        return NULL;
    }
    if (values[0] != NULL && values[0] != Py_None) {
        if (mt_device_from_object(values[0], &device) < 0) {
            return NULL;
        }
        if (device.type != MT_DEVICE_CUDA) {
            PyErr_SetString(PyExc_RuntimeError, "Invalid device, must be cuda device");
            return NULL;
        }
    }
    return to_impl(self, 1, device, 0, self->dtype, 0, values[1] == Py_True, format);
}

#define DTYPE_METHOD(NAME, DTYPE)                                                                     \
    static PyObject *tensor_##NAME(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,  \
                                   PyObject *kwnames)                                                \
    {                                                                                                \
        mt_memory_format format;                                                                     \
        if (parse_memory_format_only(#NAME, args, nargs, kwnames, &format) < 0) {                    \
            return NULL;                                                                             \
        }                                                                                            \
        return to_impl(self, 0, mt_cpu_device(), 1, DTYPE, 0, 0, format);                            \
    }

DTYPE_METHOD(float, MT_FLOAT32)
DTYPE_METHOD(double, MT_FLOAT64)
DTYPE_METHOD(int, MT_INT32)
DTYPE_METHOD(long, MT_INT64)
DTYPE_METHOD(bool, MT_BOOL)

static PyObject *
tensor_type_as(mt_TensorObject *self, PyObject *other)
{
    if (!mt_Tensor_Check(other)) {
        PyErr_Format(PyExc_TypeError, "type_as(): argument 'other' (position 1) must be Tensor, not %s",
                     Py_TYPE(other)->tp_name);
        return NULL;
    }
    return to_impl(self, 1, mt_tensor_device((mt_TensorObject *)other), 1, ((mt_TensorObject *)other)->dtype, 0, 0,
                   MT_PRESERVE_FORMAT);
}

/* "torch.FloatTensor", "torch.cuda.LongTensor", ...: the dtype and device type a legacy tensor type name
 * stands for (torch's options_from_string). 0, or -1 with torch's ValueError. */
static int
parse_type_name(PyObject *name, mt_dtype *dtype, int *cuda)
{
    static const mt_dtype dtypes[] = {MT_BOOL, MT_INT32, MT_INT64, MT_FLOAT32, MT_FLOAT64};
    const char *text = PyUnicode_AsUTF8(name);
    const char *rest;

    if (text == NULL) {
        return -1;
    }
    rest = strncmp(text, "torch.", 6) == 0 ? text + 6 : NULL;
    *cuda = rest != NULL && strncmp(rest, "cuda.", 5) == 0;
    if (*cuda) {
        rest += 5;
    }
    for (size_t k = 0; rest != NULL && k < sizeof(dtypes) / sizeof(dtypes[0]); k++) {
        const char *scalar = mt_dtype_scalar_name(dtypes[k]);
        size_t n = strlen(scalar);
        if (strncmp(rest, scalar, n) == 0 && strcmp(rest + n, "Tensor") == 0) {
            *dtype = dtypes[k];
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "invalid type: '%s'", text);
    return -1;
}

/* type(dtype=None, non_blocking=False, *, memory_format=None): with no dtype the legacy type name
 * ("torch.FloatTensor"); with a dtype, to(dtype); with a type name, its dtype and device type (so
 * "torch.cuda.FloatTensor" moves a CPU tensor to the current CUDA device). */
static PyObject *
tensor_type(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dtype", "non_blocking", "memory_format", NULL};
    PyObject *dtype_obj, *non_blocking_obj, *key;
    mt_memory_format format;
    mt_device device = mt_tensor_device(self);
    mt_dtype dtype;
    int cuda;

    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "type() takes from 0 to 2 positional arguments but %zd were given", nargs);
        return NULL;
    }
    dtype_obj = nargs > 0 ? args[0] : keyword_value(args, nargs, kwnames, "dtype");
    non_blocking_obj = nargs > 1 ? args[1] : keyword_value(args, nargs, kwnames, "non_blocking");
    if (non_blocking_obj != NULL && !PyBool_Check(non_blocking_obj)) {
        return arg_type_error("type", "non_blocking", nargs > 1 ? 2 : 0, "bool", non_blocking_obj);
    }
    if (check_memory_format("type", keyword_value(args, nargs, kwnames, "memory_format"), &format) < 0) {
        return NULL;
    }
    key = unknown_keyword(kwnames, names);
    if (key != NULL) {
        PyErr_Format(PyExc_TypeError, "type() got an unexpected keyword argument '%U'", key);
        return NULL;
    }
    if (dtype_obj == NULL || dtype_obj == Py_None) {
        char buf[64];
        mt_tensor_type_string(self, buf, sizeof(buf));
        return PyUnicode_FromString(buf);
    }
    if (mt_Dtype_Check(dtype_obj)) {
        dtype = ((mt_DtypeObject *)dtype_obj)->id;
    }
    else if (PyUnicode_Check(dtype_obj) || PyType_Check(dtype_obj)) {
        /* a class names a type by its name; minitorch.Tensor stands for the default one, FloatTensor */
        PyObject *name;
        int r;
        if (PyUnicode_Check(dtype_obj)) {
            name = dtype_obj;
            Py_INCREF(name);
        }
        else {
            name = PyUnicode_FromString((PyTypeObject *)dtype_obj == &mt_TensorType
                                            ? "torch.FloatTensor"
                                            : ((PyTypeObject *)dtype_obj)->tp_name);
        }
        r = name != NULL ? parse_type_name(name, &dtype, &cuda) : -1;
        Py_XDECREF(name);
        if (r < 0) {
            return NULL;
        }
        if (cuda != (device.type == MT_DEVICE_CUDA)) {
            device.type = cuda ? MT_DEVICE_CUDA : MT_DEVICE_CPU;
            device.index = -1;
        }
    }
    else {
        PyErr_SetString(PyExc_TypeError, "dtype must be a type, str, or dtype object");
        return NULL;
    }
    return to_impl(self, 1, device, 1, dtype, 0, non_blocking_obj == Py_True, format);
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef mt_copy_tensor_methods[] = {
    {"copy_", FASTCALL(tensor_copy_), "copy_(other, non_blocking=False) -> Tensor\n\n"
                                      "Copies other's values (a tensor or a number) into self (broadcasting, "
                                      "converting dtype and device)."},
    {"to", FASTCALL(tensor_to), "to(device=None, dtype=None, non_blocking=False, copy=False) -> Tensor\n"
                                "to(dtype, non_blocking=False, copy=False) -> Tensor\n"
                                "to(other, non_blocking=False, copy=False) -> Tensor\n\n"
                                "The tensor on another device and/or dtype; self when nothing changes."},
    {"cpu", FASTCALL(tensor_cpu), "cpu(*, memory_format=None) -> Tensor\n\n"
                                  "A copy in host memory (self if already there)."},
    {"cuda", FASTCALL(tensor_cuda), "cuda(device=None, non_blocking=False) -> Tensor\n\n"
                                    "A copy on a CUDA device (self if already there)."},
    {"float", FASTCALL(tensor_float), "self.to(minitorch.float32)"},
    {"double", FASTCALL(tensor_double), "self.to(minitorch.float64)"},
    {"int", FASTCALL(tensor_int), "self.to(minitorch.int32)"},
    {"long", FASTCALL(tensor_long), "self.to(minitorch.int64)"},
    {"bool", FASTCALL(tensor_bool), "self.to(minitorch.bool)"},
    {"type_as", (PyCFunction)tensor_type_as, METH_O, "self.to(other)"},
    {"type", FASTCALL(tensor_type), "type(dtype=None, non_blocking=False) -> str or Tensor\n\n"
                                    "The legacy type name ('torch.FloatTensor') without a dtype; otherwise the "
                                    "tensor converted to that dtype or type name."},
    {NULL},
};
