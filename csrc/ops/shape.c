/* shape.c: the shape ops. Views that only rewrite geometry (view, reshape, t, transpose, permute,
 * unsqueeze, squeeze, flatten, unflatten, expand, narrow, select, unbind, chunk, split) share their
 * base's storage; clone and contiguous copy; cat/stack/hstack/vstack build a new tensor from copies.
 * Every stride rule is torch's (computeStride for view, inferExpandGeometry for expand, preserve_format
 * for clone) so that .stride() and is_contiguous() print what torch prints. This file never touches
 * element data itself: copies go through copy.c (mt_copy_, mt_memcpy), and it never reaches into
 * another op file's tables. */
#include "shape.h"

#include <string.h>

#include "../core/devices.h"
#include "copy.h"
#include "dispatch.h"
#include "methods.h"

/* ---- argument parsing (torch's python_arg_parser messages) -------------------------------------- */

/* One call of a Python entry point. `fn` is 1 when it was called as torch.<name>(input, ...): torch
 * then counts `input` as position 1, so every position in a message moves by one. */
typedef struct {
    const char *fname;
    int fn;
} call_ctx;

static const char *
type_name(PyObject *obj)
{
    return mt_arg_type_name(obj);
}

/* torch's parser: positional arguments first, then keywords; a missing required argument is reported
 * before a keyword that repeats a positional one. `out` gets borrowed references or NULL. */
static int
collect_args(const call_ctx *c, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             const char *const *names, int npos, int nrequired, PyObject **out)
{
    int nnames = 0;
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    int missing = 0;

    while (names[nnames] != NULL) {
        out[nnames] = NULL;
        nnames++;
    }
    if (nargs > npos) {
        int lo = nrequired + c->fn, hi = npos + c->fn;
        Py_ssize_t given = nargs + c->fn;
        if (lo == hi) {
            PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd %s given", c->fname, hi,
                         hi == 1 ? "" : "s", given, given == 1 ? "was" : "were");
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s() takes from %d to %d positional arguments but %zd %s given",
                         c->fname, lo, hi, given, given == 1 ? "was" : "were");
        }
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        out[i] = args[i];
    }
    for (int j = (int)nargs; j < nnames; j++) {
        for (Py_ssize_t k = 0; k < nkw; k++) {
            if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), names[j]) == 0) {
                out[j] = args[nargs + k];
            }
        }
        if (out[j] == NULL && j < nrequired) {
            missing++;
        }
    }
    if (missing > 0) {
        /* torch's wording, including its singular/plural mix-up */
        PyObject *msg = PyUnicode_FromFormat("%s() missing %d required positional argument%s: ", c->fname,
                                             missing, missing == 1 ? "s" : "");
        int first = 1;
        if (msg == NULL) {
            return -1;
        }
        for (int j = (int)nargs; j < nrequired; j++) {
            if (out[j] == NULL) {
                PyObject *part = PyUnicode_FromFormat("%s\"%s\"", first ? "" : ", ", names[j]);
                if (part == NULL) {
                    Py_DECREF(msg);
                    return -1;
                }
                PyUnicode_AppendAndDel(&msg, part);
                if (msg == NULL) {
                    return -1;
                }
                first = 0;
            }
        }
        PyErr_SetObject(PyExc_TypeError, msg);
        Py_DECREF(msg);
        return -1;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int j = 0; j < nnames; j++) {
            if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0) {
                found = j;
                break;
            }
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", c->fname, key);
            return -1;
        }
        if (found < nargs) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", c->fname, key);
            return -1;
        }
    }
    return 0;
}

/* 1 if obj is what torch's parser takes as an int: a Python int (not bool), a 0-d integral tensor or
 * an object with __index__ that is not a float or bool (NumPy integers). */
static int
is_int_like(PyObject *obj)
{
    if (PyBool_Check(obj)) {
        return 0;
    }
    if (PyLong_Check(obj)) {
        return 1;
    }
    if (mt_Tensor_Check(obj)) {
        mt_TensorObject *t = (mt_TensorObject *)obj;
        return t->ndim == 0 && mt_dtype_is_integral(t->dtype, 0);
    }
    if (PyFloat_Check(obj)) {
        return 0;
    }
    return Py_TYPE(obj)->tp_as_number != NULL && Py_TYPE(obj)->tp_as_number->nb_index != NULL &&
           strcmp(Py_TYPE(obj)->tp_name, "numpy.bool") != 0 && strcmp(Py_TYPE(obj)->tp_name, "numpy.bool_") != 0;
}

/* The value of an int-like argument. An int outside int64 raises what torch's THPUtils_unpackLong
 * raises, ValueError("Overflow when unpacking long long"), not CPython's OverflowError. */
static int
int_value(PyObject *obj, int64_t *out)
{
    long long v;
    int overflow = 0;
    if (mt_Tensor_Check(obj)) {
        PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
        if (item == NULL) {
            return -1;
        }
        v = PyLong_AsLongLongAndOverflow(item, &overflow);
        Py_DECREF(item);
    }
    else if (PyLong_Check(obj)) {
        v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    }
    else {
        PyObject *idx = PyNumber_Index(obj);
        if (idx == NULL) {
            return -1;
        }
        v = PyLong_AsLongLongAndOverflow(idx, &overflow);
        Py_DECREF(idx);
    }
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

/* An element of an int list: torch reports an overflow there as a TypeError of its list parser. */
static int
int_list_item(const call_ctx *c, const char *argname, PyObject *obj, Py_ssize_t pos, int64_t *out)
{
    if (int_value(obj, out) < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument '%s' failed to unpack the object at pos %zd with error \"Overflow when "
                         "unpacking long long\"",
                         c->fname, argname, pos);
        }
        return -1;
    }
    return 0;
}

/* An int argument at index `i` of the collected arguments (position i+1 when given positionally). */
static int
parse_int(const call_ctx *c, const char *argname, PyObject *obj, int positional_index, int64_t *out)
{
    if (!is_int_like(obj)) {
        if (positional_index >= 0) {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be int, not %s", c->fname, argname,
                         positional_index + 1 + c->fn, type_name(obj));
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be int, not %s", c->fname, argname,
                         type_name(obj));
        }
        return -1;
    }
    return int_value(obj, out);
}

/* A collected argument: out[i] given positionally when i < nargs. */
#define POS(i) ((Py_ssize_t)(i) < nargs ? (int)(i) : -1)

/* torch's TypeError for an `int[]` argument that is not a tuple of ints; -1. */
static int
raise_not_int_tuple(const call_ctx *c, const char *argname, PyObject *obj, int positional_index)
{
    if (positional_index >= 0) {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be tuple of ints, not %s", c->fname,
                     argname, positional_index + 1 + c->fn, type_name(obj));
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be tuple of ints, not %s", c->fname, argname,
                     type_name(obj));
    }
    return -1;
}

/* A tuple/list/Size of ints (an int alone counts as a one-element list, like torch's IntArrayRef). */
static int
parse_int_list(const call_ctx *c, const char *argname, PyObject *obj, int positional_index, int64_t *vals,
               int *n)
{
    Py_ssize_t len;
    if (is_int_like(obj)) {
        /* an `int[1]` parameter given one int (squeeze(dim)): torch unpacks it as an int */
        *n = 1;
        return int_value(obj, &vals[0]);
    }
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        return raise_not_int_tuple(c, argname, obj, positional_index);
    }
    len = PySequence_Fast_GET_SIZE(obj);
    if (len > MT_MAX_DIMS) {
        return mt_raise_too_many_dims((long long)len);
    }
    {
        /* a snapshot: an item's __index__ may shrink the list while it is read (that crashed) */
        PyObject *items = PyList_Check(obj) ? PyList_AsTuple(obj) : (Py_INCREF(obj), obj);
        int r = 0;
        if (items == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < len && r == 0; i++) {
            PyObject *item = PyTuple_GET_ITEM(items, i);
            if (!is_int_like(item)) {
                PyErr_Format(PyExc_TypeError,
                             "%s(): argument '%s' failed to unpack the object at pos %zd with error \"type must be "
                             "tuple of ints,but got %s\"",
                             c->fname, argname, i + 1, type_name(item));
                r = -1;
            }
            else {
                r = int_list_item(c, argname, item, i + 1, &vals[i]);
            }
        }
        Py_DECREF(items);
        if (r < 0) {
            return -1;
        }
    }
    *n = (int)len;
    return 0;
}

/* An `int[]` parameter of a torch.<name>(input, ...) function form (reshape's shape, permute's dims,
 * broadcast_to's size): unlike `int[1]` parameters and the method forms' varargs, torch's parser does
 * not take a bare int there, so torch.reshape(t, 6) is a TypeError, not a reshape to [6]. */
static int
parse_int_array(const call_ctx *c, const char *argname, PyObject *obj, int positional_index, int64_t *vals, int *n)
{
    if (is_int_like(obj) && !mt_Tensor_Check(obj)) {
        return raise_not_int_tuple(c, argname, obj, positional_index);
    }
    return parse_int_list(c, argname, obj, positional_index, vals, n);
}

/* torch's `int[] size` parameters that also accept varargs: f(2, 3), f((2, 3)), f([2, 3]), f(Size),
 * or f(size=...). `kwname` is the parameter's name. */
static int
parse_size_varargs(const call_ctx *c, const char *kwname, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames, int required, int64_t *vals, int *n, int *given)
{
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    *given = 1;
    if (nargs == 0) {
        PyObject *value = NULL;
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            if (PyUnicode_CompareWithASCIIString(key, kwname) != 0) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", c->fname, key);
                return -1;
            }
            value = args[k];
        }
        if (value == NULL) {
            if (required) {
                PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"%s\"", c->fname,
                             kwname);
                return -1;
            }
            *given = 0;
            *n = 0;
            return 0;
        }
        return parse_int_list(c, kwname, value, -1, vals, n);
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        if (PyUnicode_CompareWithASCIIString(key, kwname) == 0) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", c->fname, key);
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", c->fname, key);
        }
        return -1;
    }
    if (nargs == 1) {
        if (is_int_like(args[0])) {
            /* f(6): varargs of one int, unpacked as a list element */
            *n = 1;
            return int_list_item(c, kwname, args[0], 1, &vals[0]);
        }
        return parse_int_list(c, kwname, args[0], 0, vals, n);
    }
    if (nargs > MT_MAX_DIMS) {
        return mt_raise_too_many_dims((long long)nargs);
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (!is_int_like(args[i])) {
            if (i == 0) {
                PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument but %zd were given", c->fname,
                             1 + c->fn, nargs + c->fn);
            }
            else {
                PyErr_Format(PyExc_TypeError,
                             "%s(): argument '%s' failed to unpack the object at pos %zd with error \"type must be "
                             "tuple of ints,but got %s\"",
                             c->fname, kwname, i + 1, type_name(args[i]));
            }
            return -1;
        }
        if (int_list_item(c, kwname, args[i], i + 1, &vals[i]) < 0) {
            return -1;
        }
    }
    *n = (int)nargs;
    return 0;
}

/* One overload in torch's "received an invalid combination of arguments" message. */
typedef struct {
    const char *text;       /* "int dim", "" */
    const char *param;      /* its parameter's name, NULL when it has none */
    int nparams;
} signature;

static void
append_type(PyObject **msg, PyObject *obj)
{
    PyObject *part = PyUnicode_FromString(type_name(obj));
    if (part == NULL) {
        Py_CLEAR(*msg);
        return;
    }
    PyUnicode_AppendAndDel(msg, part);
}

static void
append_text(PyObject **msg, const char *text)
{
    PyObject *part = PyUnicode_FromString(text);
    if (part == NULL) {
        Py_CLEAR(*msg);
        return;
    }
    PyUnicode_AppendAndDel(msg, part);
}

/* torch's parser error for functions with several overloads (view, squeeze). It names the reasons
 * only in the simple cases torch does: one positional argument, or keywords alone. */
static void
invalid_combination(const call_ctx *c, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const signature *sigs, int nsigs)
{
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *msg = PyUnicode_FromFormat("%s() received an invalid combination of arguments - got (", c->fname);
    PyObject *got = PyUnicode_FromString("");
    int total = (int)nargs + (c->fn ? 1 : 0);

    if (got == NULL) {
        Py_XDECREF(msg);
        return;
    }
    if (c->fn) {
        append_text(&got, "Tensor");
    }
    for (Py_ssize_t i = 0; i < nargs && got != NULL; i++) {
        if (i > 0 || c->fn) {
            append_text(&got, ", ");
        }
        if (got != NULL) {
            append_type(&got, args[i]);
        }
    }
    for (Py_ssize_t k = 0; k < nkw && got != NULL; k++) {
        PyObject *part;
        if (total > 0) {
            part = PyUnicode_FromFormat(", %U=%s", PyTuple_GET_ITEM(kwnames, k), type_name(args[nargs + k]));
        }
        else {
            part = PyUnicode_FromFormat("%U=%s, ", PyTuple_GET_ITEM(kwnames, k), type_name(args[nargs + k]));
        }
        if (part == NULL) {
            Py_CLEAR(got);
            break;
        }
        PyUnicode_AppendAndDel(&got, part);
    }
    if (msg == NULL || got == NULL) {
        Py_XDECREF(msg);
        Py_XDECREF(got);
        return;
    }
    PyUnicode_Append(&msg, got);
    append_text(&msg, "), but expected one of:\n");
    for (int i = 0; i < nsigs && msg != NULL; i++) {
        PyObject *line = PyUnicode_FromFormat(" * (%s)\n", sigs[i].text);
        if (line == NULL) {
            Py_CLEAR(msg);
            break;
        }
        PyUnicode_AppendAndDel(&msg, line);
        if (msg == NULL) {
            break;
        }
        if (!c->fn && nargs == 1 && nkw == 0) {
            line = PyUnicode_FromFormat("      didn't match because some of the arguments have invalid types: (!%s!)\n",
                                        type_name(args[0]));
        }
        else if (c->fn && nargs == 1 && nkw == 0 && sigs[i].nparams == 2) {
            line = PyUnicode_FromFormat(
                "      didn't match because some of the arguments have invalid types: (Tensor, !%s!)\n",
                type_name(args[0]));
        }
        else if (nargs == 0 && nkw == 1 && !c->fn) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, 0);
            if (sigs[i].param != NULL && PyUnicode_CompareWithASCIIString(key, sigs[i].param) == 0) {
                line = PyUnicode_FromFormat(
                    "      didn't match because some of the arguments have invalid types: (!%U=%s!, )\n", key,
                    type_name(args[0]));
            }
            else {
                line = PyUnicode_FromFormat("      didn't match because some of the keywords were incorrect: %U\n",
                                            key);
            }
        }
        else {
            continue;
        }
        if (line == NULL) {
            Py_CLEAR(msg);
            break;
        }
        PyUnicode_AppendAndDel(&msg, line);
    }
    Py_DECREF(got);
    if (msg != NULL) {
        PyErr_SetObject(PyExc_TypeError, msg);
        Py_DECREF(msg);
    }
}

static int
parse_tensor_arg(const call_ctx *c, const char *argname, PyObject *obj, int positional_index, mt_TensorObject **out)
{
    if (!mt_Tensor_Check(obj)) {
        if (positional_index >= 0) {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s", c->fname,
                         argname, positional_index + 1 + c->fn, type_name(obj));
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", c->fname, argname,
                         type_name(obj));
        }
        return -1;
    }
    *out = (mt_TensorObject *)obj;
    return 0;
}

/* ---- geometry rules -------------------------------------------------------------------------------- */

void
mt_tensor_type_string(const mt_TensorObject *t, char *buf, size_t len)
{
    snprintf(buf, len, "torch.%s%sTensor", mt_tensor_device(t).type == MT_DEVICE_CUDA ? "cuda." : "",
             mt_dtype_scalar_name(t->dtype));
}

int
mt_compute_view_strides(int old_ndim, const int64_t *old_sizes, const int64_t *old_strides, int new_ndim,
                        const int64_t *new_sizes, int64_t *new_strides)
{
    /* at::detail::computeStride: the new shape must split or merge dims only inside "chunks" of the old
     * tensor whose dims are contiguous with each other. */
    int64_t numel = 1;
    int view_d;
    int64_t chunk_base_stride;
    int64_t tensor_numel = 1;
    int64_t view_numel = 1;

    if (old_ndim == 0) {
        for (int d = 0; d < new_ndim; d++) {
            new_strides[d] = 1;
        }
        return 1;
    }
    for (int d = 0; d < old_ndim; d++) {
        numel *= old_sizes[d];
    }
    if (numel == 0) {
        int same = old_ndim == new_ndim;
        for (int d = 0; same && d < old_ndim; d++) {
            same = old_sizes[d] == new_sizes[d];
        }
        if (same) {
            memcpy(new_strides, old_strides, sizeof(int64_t) * (size_t)old_ndim);
            return 1;
        }
        /* arbitrary when empty: torch uses the strides resize would give */
        for (int d = new_ndim - 1; d >= 0; d--) {
            if (d == new_ndim - 1) {
                new_strides[d] = 1;
            }
            else {
                new_strides[d] = (new_sizes[d + 1] > 1 ? new_sizes[d + 1] : 1) * new_strides[d + 1];
            }
        }
        return 1;
    }
    view_d = new_ndim - 1;
    chunk_base_stride = old_strides[old_ndim - 1];
    for (int tensor_d = old_ndim - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= old_sizes[tensor_d];
        if (tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                              old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= new_sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) {
                return 0;
            }
            if (tensor_d > 0) {
                chunk_base_stride = old_strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

int
mt_infer_size(int ndim, int64_t *sizes, int64_t numel)
{
    int64_t newsize = 1;
    int infer = -1;
    int overflow = 0;
    char shape[1024];

    for (int d = 0; d < ndim; d++) {
        if (sizes[d] == -1) {
            if (infer >= 0) {
                PyErr_SetString(PyExc_RuntimeError, "only one dimension can be inferred");
                return -1;
            }
            infer = d;
        }
        else if (sizes[d] >= 0) {
            if (__builtin_mul_overflow(newsize, sizes[d], &newsize)) {
                overflow = 1;
            }
        }
        else {
            mt_format_shape(ndim, sizes, shape, sizeof(shape));
            PyErr_Format(PyExc_RuntimeError, "invalid shape dimension %lld at index %d of shape %s",
                         (long long)sizes[d], d, shape);
            return -1;
        }
    }
    if (!overflow && (numel == newsize || (infer >= 0 && newsize > 0 && numel % newsize == 0))) {
        if (infer >= 0) {
            if (newsize == 0) {
                mt_format_shape(ndim, sizes, shape, sizeof(shape));
                PyErr_Format(PyExc_RuntimeError,
                             "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension "
                             "size -1 can be any value and is ambiguous",
                             shape);
                return -1;
            }
            sizes[infer] = numel / newsize;
        }
        return 0;
    }
    mt_format_shape(ndim, sizes, shape, sizeof(shape));
    PyErr_Format(PyExc_RuntimeError, "shape '%s' is invalid for input of size %lld", shape, (long long)numel);
    return -1;
}

/* A new copy on t's device laid out in `format` (clone(memory_format=...) for every format but
 * preserve_format); always a copy, unlike mt_tensor_contiguous. */
static mt_TensorObject *
copy_in_format(mt_TensorObject *t, mt_memory_format format)
{
    mt_TensorObject *c = mt_tensor_empty_in_format(t, t->dtype, mt_tensor_device(t), format);
    if (c != NULL && mt_copy_(c, t) < 0) {
        Py_CLEAR(c);
    }
    return c;
}

/* A new row-major copy (clone(memory_format=torch.contiguous_format)), unlike mt_copy_to always
 * row-major. */
static mt_TensorObject *
contiguous_copy(mt_TensorObject *t)
{
    return copy_in_format(t, MT_CONTIGUOUS_FORMAT);
}

static void
contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = stride;
        stride *= sizes[d] > 1 ? sizes[d] : 1;
    }
}

/* ---- view ops (C entry points) -------------------------------------------------------------------- */

mt_TensorObject *
mt_alias(mt_TensorObject *t)
{
    return mt_tensor_new_view(t, t->ndim, t->sizes, t->strides, t->offset);
}

mt_TensorObject *
mt_view(mt_TensorObject *t, int ndim, const int64_t *sizes_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];

    memcpy(sizes, sizes_in, sizeof(int64_t) * (size_t)ndim);
    if (mt_infer_size(ndim, sizes, mt_tensor_numel(t)) < 0) {
        return NULL;
    }
    if (!mt_compute_view_strides(t->ndim, t->sizes, t->strides, ndim, sizes, strides)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "view size is not compatible with input tensor's size and stride (at least one dimension "
                        "spans across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return mt_tensor_new_view(t, ndim, sizes, strides, t->offset);
}

mt_TensorObject *
mt_reshape(mt_TensorObject *t, int ndim, const int64_t *sizes_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    mt_TensorObject *copy, *result;

    memcpy(sizes, sizes_in, sizeof(int64_t) * (size_t)ndim);
    if (mt_infer_size(ndim, sizes, mt_tensor_numel(t)) < 0) {
        return NULL;
    }
    if (mt_compute_view_strides(t->ndim, t->sizes, t->strides, ndim, sizes, strides)) {
        return mt_tensor_new_view(t, ndim, sizes, strides, t->offset);
    }
    /* torch: _unsafe_view(self.clone(contiguous_format), shape) */
    copy = contiguous_copy(t);
    if (copy == NULL) {
        return NULL;
    }
    contiguous_strides(ndim, sizes, strides);
    result = mt_tensor_new_view(copy, ndim, sizes, strides, copy->offset);
    Py_DECREF(copy);
    return result;
}

mt_TensorObject *
mt_expand(mt_TensorObject *t, int ndim, const int64_t *target)
{
    /* at::native::expand and inferExpandGeometry */
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    char tname[64], a[1024], b[1024];

    if (ndim < t->ndim) {
        mt_tensor_type_string(t, tname, sizeof(tname));
        mt_format_shape(t->ndim, t->sizes, a, sizeof(a));
        mt_format_shape(ndim, target, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError,
                     "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the "
                     "number of dimensions in the tensor (%d)",
                     tname, a, b, ndim, t->ndim);
        return NULL;
    }
    if (t->ndim == 0) {
        for (int i = 0; i < ndim; i++) {
            sizes[i] = target[i];
            strides[i] = 0;
        }
    }
    else {
        for (int i = ndim - 1; i >= 0; i--) {
            int offset = ndim - 1 - i;
            int dim = t->ndim - 1 - offset;
            int64_t size = dim >= 0 ? t->sizes[dim] : 1;
            int64_t stride = dim >= 0 ? t->strides[dim] : sizes[i + 1] * strides[i + 1];
            int64_t want = target[i];
            if (want == -1) {
                if (dim < 0) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "The expanded size of the tensor (%lld) isn't allowed in a leading, non-existing "
                                 "dimension %d",
                                 (long long)want, i);
                    return NULL;
                }
                want = size;
            }
            if (size != want) {
                if (size != 1) {
                    mt_format_shape(ndim, target, a, sizeof(a));
                    mt_format_shape(t->ndim, t->sizes, b, sizeof(b));
                    PyErr_Format(PyExc_RuntimeError,
                                 "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                                 "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                 (long long)want, (long long)size, i, a, b);
                    return NULL;
                }
                size = want;
                stride = 0;
            }
            sizes[i] = size;
            strides[i] = stride;
        }
    }
    {
        /* a view's element count must fit in int64 like any tensor's (torch's safe_compute_numel):
         * ones([1] * 64).expand(*[2] * 64) has 2**64 elements, and numel() overflowed (undefined
         * behaviour) everywhere that view was used */
        int64_t numel = 1;
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] < 0 || __builtin_mul_overflow(numel, sizes[i], &numel)) {
                /* what as_strided reports for a negative size or an overflowing count */
                PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
                return NULL;
            }
        }
    }
    return mt_tensor_new_view(t, ndim, sizes, strides, t->offset);
}

mt_TensorObject *
mt_unsqueeze(mt_TensorObject *t, int64_t dim_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim;

    if (mt_wrap_dim(dim_in, t->ndim + 1, &dim) < 0) {
        return NULL;
    }
    if (t->ndim + 1 > MT_MAX_DIMS) {
        /* the loop below writes t->ndim + 1 entries of fixed MT_MAX_DIMS arrays: a 64-dim input used
         * to overflow them (unsqueeze, stack) and crash */
        mt_raise_too_many_dims(t->ndim + 1);
        return NULL;
    }
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == dim) {
            sizes[i] = 1;
            strides[i] = dim >= t->ndim ? 1 : t->sizes[dim] * t->strides[dim];
        }
        else {
            sizes[i] = t->sizes[j];
            strides[i] = t->strides[j];
            j++;
        }
    }
    return mt_tensor_new_view(t, t->ndim + 1, sizes, strides, t->offset);
}

mt_TensorObject *
mt_transpose(mt_TensorObject *t, int64_t dim0_in, int64_t dim1_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim0, dim1;

    if (mt_wrap_dim(dim0_in, t->ndim, &dim0) < 0 || mt_wrap_dim(dim1_in, t->ndim, &dim1) < 0) {
        return NULL;
    }
    if (t->ndim == 0 || dim0 == dim1) {
        return mt_alias(t);
    }
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[dim0] = t->sizes[dim1];
    sizes[dim1] = t->sizes[dim0];
    strides[dim0] = t->strides[dim1];
    strides[dim1] = t->strides[dim0];
    return mt_tensor_new_view(t, t->ndim, sizes, strides, t->offset);
}

mt_TensorObject *
mt_permute(mt_TensorObject *t, int ndims, const int64_t *dims)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    char seen[MT_MAX_DIMS] = {0};

    if (ndims != t->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
                     "the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                     t->ndim, ndims);
        return NULL;
    }
    for (int i = 0; i < ndims; i++) {
        int d;
        if (mt_wrap_dim(dims[i], t->ndim, &d) < 0) {
            return NULL;
        }
        if (seen[d]) {
            PyErr_SetString(PyExc_RuntimeError, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = 1;
        sizes[i] = t->sizes[d];
        strides[i] = t->strides[d];
    }
    return mt_tensor_new_view(t, ndims, sizes, strides, t->offset);
}

mt_TensorObject *
mt_select(mt_TensorObject *t, int64_t dim_in, int64_t index)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim;
    int64_t size;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    size = t->sizes[dim];
    if (index < -size || index >= size) {
        char shape[1024];
        mt_format_shape(t->ndim, t->sizes, shape, sizeof(shape));
        PyErr_Format(PyExc_IndexError, "select(): index %lld out of range for tensor of size %s at dimension %d",
                     (long long)index, shape, dim);
        return NULL;
    }
    if (index < 0) {
        index += size;
    }
    for (int i = 0, j = 0; i < t->ndim; i++) {
        if (i != dim) {
            sizes[j] = t->sizes[i];
            strides[j] = t->strides[i];
            j++;
        }
    }
    return mt_tensor_new_view(t, t->ndim - 1, sizes, strides, t->offset + index * t->strides[dim]);
}

mt_TensorObject *
mt_slice(mt_TensorObject *t, int dim, int64_t start, int64_t stop, int64_t step)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int64_t size = t->sizes[dim];
    int64_t len;

    /* at::slice's clamping (get_slice_bounds) */
    if (start < 0) {
        start += size;
    }
    if (stop < 0) {
        stop += size;
    }
    if (start < 0) {
        start = 0;
    }
    else if (start >= size) {
        start = size;
    }
    if (stop < start) {
        stop = start;
    }
    else if (stop >= size) {
        stop = size;
    }
    len = stop - start;
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    /* written so that a step near 2**63 overflows nothing (len + step - 1 did, and stride * step
     * was signed overflow: t[0:1:2**62] returned a view with a wrapped stride) */
    sizes[dim] = len == 0 ? 0 : (len - 1) / step + 1;
    if (__builtin_mul_overflow(t->strides[dim], step, &strides[dim])) {
        /* torch computes the wrapped stride and as_strided rejects it when negative */
        char buf[1024];
        strides[dim] = (int64_t)((uint64_t)t->strides[dim] * (uint64_t)step);
        mt_format_shape(t->ndim, strides, buf, sizeof(buf));
        if (strides[dim] < 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "as_strided: Negative strides are not supported at the moment, got strides: %s", buf);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "slice step %lld overflows the stride of dimension %d",
                         (long long)step, dim);
        }
        return NULL;
    }
    return mt_tensor_new_view(t, t->ndim, sizes, strides, t->offset + start * t->strides[dim]);
}

static mt_TensorObject *
narrow_impl(mt_TensorObject *t, int64_t dim_in, int64_t start, int64_t length)
{
    int dim;
    int64_t size;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (length < 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow(): length must be non-negative.");
        return NULL;
    }
    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    size = t->sizes[dim];
    if (start < -size || start > size) {
        PyErr_Format(PyExc_IndexError, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-size, (long long)size, (long long)start);
        return NULL;
    }
    if (start < 0) {
        start += size;
    }
    if (start > size - length) {
        PyErr_Format(PyExc_RuntimeError, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                     (long long)start, (long long)length, (long long)size);
        return NULL;
    }
    return mt_slice(t, dim, start, start + length, 1);
}

mt_TensorObject *
mt_clone(mt_TensorObject *t)
{
    mt_device device = mt_tensor_device(t);
    mt_TensorObject *out = mt_tensor_empty_preserving(t, t->dtype, device);
    int64_t numel = mt_tensor_numel(t);

    if (out == NULL || numel == 0) {
        return out;
    }
    if (mt_tensor_is_non_overlapping_and_dense(t)) {
        /* the same dense layout on both sides: one block copy, which also works device to device */
        if (mt_memcpy(mt_tensor_data(out), device, NULL, mt_tensor_data(t), device, t->storage,
                      (size_t)numel * mt_dtype_size(t->dtype)) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (mt_copy_(out, t) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ---- cat and friends --------------------------------------------------------------------------------- */

static int
cat_should_skip(const mt_TensorObject *t)
{
    /* legacy: 1-D empty tensors were the only empty tensors once, and cat still ignores them */
    return t->ndim == 1 && t->sizes[0] == 0;
}

mt_TensorObject *
mt_cat(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim_in)
{
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    int dim = (int)dim_in;
    Py_ssize_t valid = n;
    mt_dtype dtype;
    mt_device device;
    mt_TensorObject *out = NULL;
    int64_t offset = 0;

    for (Py_ssize_t i = 0; i < n; i++) {
        if (tensors[i]->ndim == 0) {
            PyErr_Format(PyExc_RuntimeError, "zero-dimensional tensor (at position %zd) cannot be concatenated", i);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!cat_should_skip(tensors[i])) {
            if (mt_wrap_dim(dim_in, tensors[i]->ndim, &dim) < 0) {
                return NULL;
            }
            break;
        }
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    device = mt_tensor_device(tensors[0]);
    for (Py_ssize_t i = 1; i < n; i++) {
        mt_device d = mt_tensor_device(tensors[i]);
        if (!mt_device_equal(d, device)) {
            char a[32], b[32];
            mt_device_format(d, a, sizeof(a));
            mt_device_format(device, b, sizeof(b));
            PyErr_Format(PyExc_RuntimeError,
                         "Expected all tensors to be on the same device, but got tensors is on %s, different from "
                         "other tensors on %s (when checking argument in method wrapper_%s_cat)",
                         a, b, (d.type == MT_DEVICE_CUDA || device.type == MT_DEVICE_CUDA) ? "CUDA" : "CPU");
            return NULL;
        }
    }
    dtype = tensors[0]->dtype;
    for (Py_ssize_t i = 1; i < n; i++) {
        dtype = mt_promote_types(dtype, tensors[i]->dtype);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!cat_should_skip(tensors[i])) {
            valid = i;
            break;
        }
    }
    if (valid < n) {
        const mt_TensorObject *first = tensors[valid];
        int64_t total = 0;
        ndim = first->ndim;
        for (Py_ssize_t i = 0; i < n; i++) {
            const mt_TensorObject *t = tensors[i];
            if (cat_should_skip(t)) {
                continue;
            }
            if (t->ndim != ndim) {
                PyErr_Format(PyExc_RuntimeError, "Tensors must have same number of dimensions: got %d and %d", ndim,
                             t->ndim);
                return NULL;
            }
            for (int d = 0; d < ndim; d++) {
                if (d != dim && t->sizes[d] != first->sizes[d]) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "Sizes of tensors must match except in dimension %d. Expected size %lld but got "
                                 "size %lld for tensor number %zd in the list.",
                                 dim, (long long)first->sizes[d], (long long)t->sizes[d], i);
                    return NULL;
                }
            }
            if (__builtin_add_overflow(total, t->sizes[dim], &total)) {
                /* cat of expanded views of 2**62 elements: the sum wrapped (undefined behaviour) into
                 * a negative size */
                PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
                return NULL;
            }
        }
        memcpy(sizes, first->sizes, sizeof(int64_t) * (size_t)ndim);
        sizes[dim] = total;
    }
    else {
        ndim = 1;
        sizes[0] = 0;
        dim = 0;
    }
    /* each part is copied into its slice of the result by the device's cast kernel */
    out = mt_tensor_empty(ndim, sizes, dtype, device);
    if (out == NULL) {
        return NULL;
    }
    if (valid < n) {
        for (Py_ssize_t i = 0; i < n; i++) {
            mt_TensorObject *t = tensors[i];
            mt_TensorObject *part;
            int r;
            if (cat_should_skip(t) || t->sizes[dim] == 0) {
                continue;
            }
            part = mt_slice(out, dim, offset, offset + t->sizes[dim], 1);
            if (part == NULL) {
                goto error;
            }
            r = mt_copy_(part, t);
            Py_DECREF(part);
            if (r < 0) {
                goto error;
            }
            offset += t->sizes[dim];
        }
    }
    return out;

error:
    Py_XDECREF(out);
    return NULL;
}

/* Borrowed tensors from a tuple/list argument, with torch's messages. `items` needs room for len. */
static int
parse_tensor_list(const call_ctx *c, PyObject *obj, int positional, PyObject **holder, Py_ssize_t *n,
                  mt_TensorObject ***items)
{
    PyObject *seq;
    Py_ssize_t len;

    *holder = NULL;
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        if (positional) {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s",
                         c->fname, type_name(obj));
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'tensors' must be tuple of Tensors, not %s", c->fname,
                         type_name(obj));
        }
        return -1;
    }
    /* a tuple snapshot: a list could change while the copies run */
    seq = PySequence_Tuple(obj);
    if (seq == NULL) {
        return -1;
    }
    len = PyTuple_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!mt_Tensor_Check(item)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument 0, but got %s", i,
                         type_name(item));
            Py_DECREF(seq);
            return -1;
        }
    }
    *holder = seq;
    *n = len;
    *items = (mt_TensorObject **)&PyTuple_GET_ITEM(seq, 0);
    return 0;
}

static PyObject *
cat_entry(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tensors", "dim", "axis", "out", NULL};
    call_ctx c = {fname, 0};
    PyObject *a[4];
    PyObject *holder = NULL;
    mt_TensorObject **items = NULL;
    Py_ssize_t n = 0;
    int64_t dim = 0;
    PyObject *result;

    if (collect_args(&c, args, nargs, kwnames, names, 2, 1, a) < 0) {
        return NULL;
    }
    if (a[1] != NULL && a[2] != NULL) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'dim'", fname);
        return NULL;
    }
    if (a[2] != NULL) {
        a[1] = a[2];
    }
    if (parse_tensor_list(&c, a[0], nargs > 0, &holder, &n, &items) < 0) {
        return NULL;
    }
    if ((a[1] != NULL && parse_int(&c, "dim", a[1], POS(1), &dim) < 0) || mt_check_out_tensor(fname, a[3]) < 0) {
        Py_DECREF(holder);
        return NULL;
    }
    result = (PyObject *)mt_cat(n, items, dim);
    Py_DECREF(holder);
    return result;
}

static PyObject *
fn_cat(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return cat_entry("cat", args, nargs, kwnames);
}

static PyObject *
fn_concat(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return cat_entry("concat", args, nargs, kwnames);
}

static PyObject *
fn_concatenate(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return cat_entry("concatenate", args, nargs, kwnames);
}

/* The tensors of a stack-like call, each viewed through `prepare` (unsqueeze, atleast_2d...). */
static PyObject *
cat_of_views(Py_ssize_t n, mt_TensorObject *const *items, int64_t dim, int mode, int stack_dim)
{
    mt_TensorObject *views[256] = {NULL};
    mt_TensorObject **v = views;
    PyObject *result = NULL;
    Py_ssize_t made = 0;

    if (n > (Py_ssize_t)(sizeof(views) / sizeof(views[0]))) {
        v = PyMem_Malloc(sizeof(mt_TensorObject *) * (size_t)n);
        if (v == NULL) {
            return PyErr_NoMemory();
        }
    }
    for (; made < n; made++) {
        mt_TensorObject *t = items[made];
        mt_TensorObject *view;
        if (mode == 0) {
            /* stack: a new dim of size 1 at stack_dim */
            view = mt_unsqueeze(t, stack_dim);
        }
        else if (mode == 1) {
            /* atleast_1d */
            view = t->ndim == 0 ? mt_unsqueeze(t, 0) : mt_alias(t);
        }
        else {
            /* atleast_2d */
            if (t->ndim == 0) {
                int64_t one[2] = {1, 1};
                view = mt_view(t, 2, one);
            }
            else if (t->ndim == 1) {
                view = mt_unsqueeze(t, 0);
            }
            else {
                view = mt_alias(t);
            }
        }
        if (view == NULL) {
            goto done;
        }
        v[made] = view;
    }
    if (mode == 1) {
        dim = v[0]->ndim == 1 ? 0 : 1;
    }
    result = (PyObject *)mt_cat(n, v, dim);

done:
    for (Py_ssize_t i = 0; i < made; i++) {
        Py_DECREF(v[i]);
    }
    if (v != views) {
        PyMem_Free(v);
    }
    return result;
}

static PyObject *
fn_stack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tensors", "dim", "axis", "out", NULL};
    call_ctx c = {"stack", 0};
    PyObject *a[4];
    PyObject *holder = NULL;
    mt_TensorObject **items = NULL;
    Py_ssize_t n = 0;
    int64_t dim = 0;
    int wrapped;
    PyObject *result = NULL;

    if (collect_args(&c, args, nargs, kwnames, names, 2, 1, a) < 0) {
        return NULL;
    }
    if (a[1] != NULL && a[2] != NULL) {
        PyErr_SetString(PyExc_TypeError, "stack() got multiple values for argument 'dim'");
        return NULL;
    }
    if (a[2] != NULL) {
        a[1] = a[2];
    }
    if (parse_tensor_list(&c, a[0], nargs > 0, &holder, &n, &items) < 0) {
        return NULL;
    }
    if ((a[1] != NULL && parse_int(&c, "dim", a[1], POS(1), &dim) < 0) || mt_check_out_tensor("stack", a[3]) < 0) {
        goto done;
    }
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "stack expects a non-empty TensorList");
        goto done;
    }
    if (mt_wrap_dim(dim, items[0]->ndim + 1, &wrapped) < 0) {
        goto done;
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        int same = items[i]->ndim == items[0]->ndim;
        for (int d = 0; same && d < items[0]->ndim; d++) {
            same = items[i]->sizes[d] == items[0]->sizes[d];
        }
        if (!same) {
            char s0[1024], s1[1024];
            mt_format_shape(items[0]->ndim, items[0]->sizes, s0, sizeof(s0));
            mt_format_shape(items[i]->ndim, items[i]->sizes, s1, sizeof(s1));
            PyErr_Format(PyExc_RuntimeError,
                         "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %zd", s0,
                         s1, i);
            goto done;
        }
    }
    result = cat_of_views(n, items, wrapped, 0, wrapped);

done:
    Py_DECREF(holder);
    return result;
}

static PyObject *
hvstack(const char *fname, int mode, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tensors", "out", NULL};
    call_ctx c = {fname, 0};
    PyObject *a[2];
    PyObject *holder = NULL;
    mt_TensorObject **items = NULL;
    Py_ssize_t n = 0;
    PyObject *result = NULL;

    if (collect_args(&c, args, nargs, kwnames, names, 1, 1, a) < 0) {
        return NULL;
    }
    if (parse_tensor_list(&c, a[0], nargs > 0, &holder, &n, &items) < 0) {
        return NULL;
    }
    if (mt_check_out_tensor(fname, a[1]) < 0) {
        Py_DECREF(holder);
        return NULL;
    }
    if (n == 0) {
        PyErr_Format(PyExc_RuntimeError, "%s expects a non-empty TensorList", fname);
    }
    else {
        result = cat_of_views(n, items, 0, mode, 0);
    }
    Py_DECREF(holder);
    return result;
}

static PyObject *
fn_hstack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return hvstack("hstack", 1, args, nargs, kwnames);
}

static PyObject *
fn_vstack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return hvstack("vstack", 2, args, nargs, kwnames);
}

/* ---- Python entry points: one implementation serves Tensor.<op> and torch.<op> ------------------- */

typedef PyObject *(*shape_impl)(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames);

/* torch.<op>(input, ...): finds `input` (positional or keyword) and calls the method implementation
 * with the remaining arguments. */
static PyObject *
call_function(const char *fname, shape_impl impl, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
              const char *first_name)
{
    call_ctx c = {fname, 1};
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *input = NULL;
    mt_TensorObject *self;
    PyObject *stack_args[16];
    PyObject **rest = stack_args;
    PyObject *rest_kw = NULL;
    PyObject *result = NULL;
    Py_ssize_t k_input = -1;

    if (nargs > 0) {
        input = args[0];
    }
    else {
        for (Py_ssize_t k = 0; k < nkw; k++) {
            if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), first_name) == 0) {
                input = args[k];
                k_input = k;
            }
        }
    }
    if (input == NULL) {
        /* torch names every missing required argument; the method implementation knows the rest */
        PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"%s\"", fname, first_name);
        return NULL;
    }
    {
        /* `input` itself is position 1 */
        call_ctx c_input = {fname, 0};
        if (parse_tensor_arg(&c_input, first_name, input, nargs > 0 ? 0 : -1, &self) < 0) {
            return NULL;
        }
    }
    if (k_input < 0) {
        return impl(&c, self, args + 1, nargs - 1, kwnames);
    }
    /* `input` came as a keyword: rebuild the vector without it */
    if (nkw > (Py_ssize_t)(sizeof(stack_args) / sizeof(stack_args[0]))) {
        rest = PyMem_Malloc(sizeof(PyObject *) * (size_t)nkw);
        if (rest == NULL) {
            return PyErr_NoMemory();
        }
    }
    rest_kw = PyTuple_New(nkw - 1);
    if (rest_kw == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0, j = 0; k < nkw; k++) {
        if (k == k_input) {
            continue;
        }
        rest[j] = args[k];
        Py_INCREF(PyTuple_GET_ITEM(kwnames, k));
        PyTuple_SET_ITEM(rest_kw, j, PyTuple_GET_ITEM(kwnames, k));
        j++;
    }
    result = impl(&c, self, rest, 0, nkw > 1 ? rest_kw : NULL);

done:
    Py_XDECREF(rest_kw);
    if (rest != stack_args) {
        PyMem_Free(rest);
    }
    return result;
}

#define METHOD_AND_FUNCTION(NAME, IMPL, FIRST)                                                                \
    static PyObject *method_##NAME(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,           \
                                   PyObject *kwnames)                                                         \
    {                                                                                                         \
        call_ctx c = {#NAME, 0};                                                                              \
        return IMPL(&c, self, args, nargs, kwnames);                                                          \
    }                                                                                                         \
    static PyObject *function_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs,              \
                                     PyObject *kwnames)                                                       \
    {                                                                                                         \
        return call_function(#NAME, IMPL, args, nargs, kwnames, FIRST);                                       \
    }

#define METHOD_ONLY(NAME, IMPL)                                                                               \
    static PyObject *method_##NAME(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,           \
                                   PyObject *kwnames)                                                         \
    {                                                                                                         \
        call_ctx c = {#NAME, 0};                                                                              \
        return IMPL(&c, self, args, nargs, kwnames);                                                          \
    }

/* A tuple of tensors from an array of new references (stolen, also on failure). */
static PyObject *
tuple_of(mt_TensorObject **items, Py_ssize_t n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_XDECREF(items[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, (PyObject *)items[i]);
    }
    return tuple;
}

/* Tensor.view(dtype): the same bytes read as another dtype (at::native::view_dtype). With a different
 * element size the last dim must be dense and is rescaled. */
static PyObject *
view_dtype(mt_TensorObject *self, mt_dtype dtype)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int64_t old_size = (int64_t)mt_dtype_size(self->dtype), new_size = (int64_t)mt_dtype_size(dtype);
    int64_t offset = self->offset;
    int n = self->ndim;
    const char *from = mt_dtype_scalar_name(self->dtype), *to = mt_dtype_scalar_name(dtype);

    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)n);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)n);
    if (old_size != new_size) {
        if (n == 0) {
            PyErr_Format(PyExc_RuntimeError, "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                         from, to);
            return NULL;
        }
        if (old_size > new_size) {
            int64_t ratio = old_size / new_size;
            if (strides[n - 1] != 1) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                             from, to, (long long)strides[n - 1]);
                return NULL;
            }
            sizes[n - 1] *= ratio;
            offset *= ratio;
            for (int d = 0; d < n - 1; d++) {
                strides[d] *= ratio;
            }
        }
        else {
            int64_t ratio = new_size / old_size;
            if (sizes[n - 1] % ratio != 0) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.size(-1) must be divisible by %lld to view %s as %s (different element sizes), "
                             "but got %lld",
                             (long long)ratio, from, to, (long long)sizes[n - 1]);
                return NULL;
            }
            if (offset % ratio != 0) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.storage_offset() must be divisible by %lld to view %s as %s (different element "
                             "sizes), but got %lld",
                             (long long)ratio, from, to, (long long)offset);
                return NULL;
            }
            if (strides[n - 1] != 1) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                             from, to, (long long)strides[n - 1]);
                return NULL;
            }
            for (int d = 0; d < n - 1; d++) {
                if (strides[d] % ratio != 0) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "self.stride(%d) must be divisible by %lld to view %s as %s (different element "
                                 "sizes), but got %lld",
                                 d, (long long)ratio, from, to, (long long)strides[d]);
                    return NULL;
                }
                strides[d] /= ratio;
            }
            sizes[n - 1] /= ratio;
            offset /= ratio;
        }
        strides[n - 1] = 1;
    }
    return (PyObject *)mt_tensor_from_storage(self->storage, n, sizes, strides, offset, dtype);
}

static PyObject *
impl_view(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int64_t sizes[MT_MAX_DIMS];
    int n, given;
    Py_ssize_t nkw0 = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    if (nargs == 1 && nkw0 == 0 && mt_Dtype_Check(args[0])) {
        return view_dtype(self, ((mt_DtypeObject *)args[0])->id);
    }
    if (nargs == 0 && nkw0 == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "dtype") == 0 &&
        mt_Dtype_Check(args[0])) {
        return view_dtype(self, ((mt_DtypeObject *)args[0])->id);
    }
    {
        static const signature sigs[] = {{"torch.dtype dtype", "dtype", 1}, {"tuple of ints size", "size", 1}};
        Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
        int plain = 0;
        /* the forms torch's parser takes for `int... size`; the rest get its two-overload message */
        if (nkw == 0 && nargs > 0) {
            plain = is_int_like(args[0]) || (nargs == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0])));
        }
        else if (nkw == 1 && nargs == 0) {
            plain = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "size") == 0;
        }
        if (!plain) {
            invalid_combination(c, args, nargs, kwnames, sigs, 2);
            return NULL;
        }
    }
    if (parse_size_varargs(c, "size", args, nargs, kwnames, 1, sizes, &n, &given) < 0) {
        return NULL;
    }
    return (PyObject *)mt_view(self, n, sizes);
}

static PyObject *
impl_reshape(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int64_t sizes[MT_MAX_DIMS];
    int n, given;

    if (c->fn) {
        /* torch.reshape(input, shape): shape is one argument, not varargs */
        static const char *const names[] = {"shape", NULL};
        PyObject *a[1];
        if (collect_args(c, args, nargs, kwnames, names, 1, 1, a) < 0 ||
            parse_int_array(c, "shape", a[0], POS(0), sizes, &n) < 0) {
            return NULL;
        }
    }
    else if (parse_size_varargs(c, "shape", args, nargs, kwnames, 1, sizes, &n, &given) < 0) {
        return NULL;
    }
    return (PyObject *)mt_reshape(self, n, sizes);
}

static PyObject *
impl_view_as(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"other", NULL};
    PyObject *a[1];
    mt_TensorObject *other;

    if (collect_args(c, args, nargs, kwnames, names, 1, 1, a) < 0 ||
        parse_tensor_arg(c, "other", a[0], POS(0), &other) < 0) {
        return NULL;
    }
    if (strcmp(c->fname, "view_as") == 0) {
        return (PyObject *)mt_view(self, other->ndim, other->sizes);
    }
    if (strcmp(c->fname, "reshape_as") == 0) {
        return (PyObject *)mt_reshape(self, other->ndim, other->sizes);
    }
    return (PyObject *)mt_expand(self, other->ndim, other->sizes);
}

static PyObject *
impl_expand(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int64_t sizes[MT_MAX_DIMS];
    int n, given;
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    if (c->fn) {
        /* torch.broadcast_to(input, size) */
        static const char *const names[] = {"size", NULL};
        PyObject *a[1];
        if (collect_args(c, args, nargs, kwnames, names, 1, 1, a) < 0 ||
            parse_int_array(c, "size", a[0], POS(0), sizes, &n) < 0) {
            return NULL;
        }
        return (PyObject *)mt_expand(self, n, sizes);
    }
    /* Tensor.expand(*sizes, implicit=False): `implicit` is an autograd detail without effect here */
    if (nkw > 0 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, nkw - 1), "implicit") == 0) {
        PyObject *kw = PyTuple_GetSlice(kwnames, 0, nkw - 1);
        int r;
        if (kw == NULL) {
            return NULL;
        }
        r = parse_size_varargs(c, "size", args, nargs, nkw > 1 ? kw : NULL, 1, sizes, &n, &given);
        Py_DECREF(kw);
        if (r < 0) {
            return NULL;
        }
    }
    else if (parse_size_varargs(c, "size", args, nargs, kwnames, 1, sizes, &n, &given) < 0) {
        return NULL;
    }
    return (PyObject *)mt_expand(self, n, sizes);
}

static PyObject *
impl_t(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {NULL};
    PyObject *a[1];

    if (collect_args(c, args, nargs, kwnames, names, 0, 0, a) < 0) {
        return NULL;
    }
    if (self->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", self->ndim);
        return NULL;
    }
    return (PyObject *)mt_transpose(self, 0, self->ndim < 2 ? 0 : 1);
}

static PyObject *
transpose_common(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, const char *const *names)
{
    PyObject *a[2];
    int64_t d0, d1;

    if (collect_args(c, args, nargs, kwnames, names, 2, 2, a) < 0 || parse_int(c, names[0], a[0], POS(0), &d0) < 0 ||
        parse_int(c, names[1], a[1], POS(1), &d1) < 0) {
        return NULL;
    }
    return (PyObject *)mt_transpose(self, d0, d1);
}

static PyObject *
impl_transpose(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim0", "dim1", NULL};
    return transpose_common(c, self, args, nargs, kwnames, names);
}

static PyObject *
impl_swapaxes(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"axis0", "axis1", NULL};
    return transpose_common(c, self, args, nargs, kwnames, names);
}

static PyObject *
impl_permute(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int64_t dims[MT_MAX_DIMS];
    int n, given;

    if (c->fn) {
        static const char *const names[] = {"dims", NULL};
        PyObject *a[1];
        if (collect_args(c, args, nargs, kwnames, names, 1, 1, a) < 0 ||
            parse_int_array(c, "dims", a[0], POS(0), dims, &n) < 0) {
            return NULL;
        }
    }
    else if (parse_size_varargs(c, "dims", args, nargs, kwnames, 1, dims, &n, &given) < 0) {
        return NULL;
    }
    return (PyObject *)mt_permute(self, n, dims);
}

static PyObject *
impl_unsqueeze(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    int64_t dim;

    if (collect_args(c, args, nargs, kwnames, names, 1, 1, a) < 0 || parse_int(c, "dim", a[0], POS(0), &dim) < 0) {
        return NULL;
    }
    return (PyObject *)mt_unsqueeze(self, dim);
}

/* squeeze over the dims flagged in `mask` (all size-1 dims when mask is NULL). */
static mt_TensorObject *
squeeze_mask(mt_TensorObject *t, const char *mask)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int n = 0;

    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 1 && (mask == NULL || mask[d])) {
            continue;
        }
        sizes[n] = t->sizes[d];
        strides[n] = t->strides[d];
        n++;
    }
    return mt_tensor_new_view(t, n, sizes, strides, t->offset);
}

static PyObject *
impl_squeeze(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int64_t dims[MT_MAX_DIMS];
    char mask[MT_MAX_DIMS] = {0};
    int n = 0, given = 0;

    static const signature method_sigs[] = {{"", NULL, 0}, {"int dim", "dim", 1}, {"tuple of ints dim", "dim", 1}};
    static const signature function_sigs[] = {
        {"Tensor input", NULL, 1}, {"Tensor input, int dim", "dim", 2}, {"Tensor input, tuple of ints dim", "dim", 2}};
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *only = NULL;

    /* one argument that is neither an int nor a sequence of them matches none of torch's overloads */
    if (nargs == 1 && nkw == 0) {
        only = args[0];
    }
    else if (nargs == 0 && nkw == 1) {
        only = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "dim") == 0 ? args[0] : Py_None;
    }
    if ((only != NULL && !is_int_like(only) && !PyTuple_Check(only) && !PyList_Check(only)) ||
        (c->fn && nargs > 1)) {
        invalid_combination(c, args, nargs, kwnames, c->fn ? function_sigs : method_sigs, 3);
        return NULL;
    }
    if (c->fn) {
        static const char *const names[] = {"dim", NULL};
        PyObject *a[1];
        if (collect_args(c, args, nargs, kwnames, names, 1, 0, a) < 0) {
            return NULL;
        }
        if (a[0] != NULL) {
            given = 1;
            if (parse_int_list(c, "dim", a[0], POS(0), dims, &n) < 0) {
                return NULL;
            }
        }
    }
    else if (only != NULL && is_int_like(only)) {
        /* the `int dim` overload: an overflowing int is torch's ValueError, not a list-unpack error */
        given = 1;
        n = 1;
        if (int_value(only, &dims[0]) < 0) {
            return NULL;
        }
    }
    else if (parse_size_varargs(c, "dim", args, nargs, kwnames, 0, dims, &n, &given) < 0) {
        return NULL;
    }
    if (!given) {
        return (PyObject *)squeeze_mask(self, NULL);
    }
    for (int i = 0; i < n; i++) {
        int d;
        if (mt_wrap_dim(dims[i], self->ndim, &d) < 0) {
            return NULL;
        }
        if (mask[d]) {
            PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims", d);
            return NULL;
        }
        mask[d] = 1;
    }
    return (PyObject *)squeeze_mask(self, mask);
}

static PyObject *
impl_flatten(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"start_dim", "end_dim", NULL};
    PyObject *a[2];
    int64_t start = 0, end = -1;
    int s, e;
    int64_t sizes[MT_MAX_DIMS];
    int n = 0;

    if (collect_args(c, args, nargs, kwnames, names, 2, 0, a) < 0) {
        return NULL;
    }
    if ((a[0] != NULL && parse_int(c, "start_dim", a[0], POS(0), &start) < 0) ||
        (a[1] != NULL && parse_int(c, "end_dim", a[1], POS(1), &end) < 0)) {
        return NULL;
    }
    if (mt_wrap_dim(start, self->ndim, &s) < 0 || mt_wrap_dim(end, self->ndim, &e) < 0) {
        return NULL;
    }
    if (s > e) {
        PyErr_SetString(PyExc_RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (self->ndim == 0) {
        int64_t one = 1;
        return (PyObject *)mt_reshape(self, 1, &one);
    }
    if (s == e) {
        /* torch returns self itself here */
        Py_INCREF(self);
        return (PyObject *)self;
    }
    for (int d = 0; d < s; d++) {
        sizes[n++] = self->sizes[d];
    }
    sizes[n] = 1;
    for (int d = s; d <= e; d++) {
        sizes[n] *= self->sizes[d];
    }
    n++;
    for (int d = e + 1; d < self->ndim; d++) {
        sizes[n++] = self->sizes[d];
    }
    return (PyObject *)mt_reshape(self, n, sizes);
}

static PyObject *
impl_unflatten(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", "sizes", NULL};
    PyObject *a[2];
    int64_t dim_in;
    int dim;
    int64_t parts[MT_MAX_DIMS], sizes[MT_MAX_DIMS];
    int nparts, n = 0;

    if (collect_args(c, args, nargs, kwnames, names, 2, 2, a) < 0 || parse_int(c, "dim", a[0], POS(0), &dim_in) < 0) {
        return NULL;
    }
    if (is_int_like(a[1])) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'sizes' (position %d) must be tuple of ints, not int", c->fname,
                     2 + c->fn);
        return NULL;
    }
    if (parse_int_list(c, "sizes", a[1], POS(1), parts, &nparts) < 0) {
        return NULL;
    }
    if (mt_wrap_dim(dim_in, self->ndim, &dim) < 0) {
        return NULL;
    }
    if (nparts == 0) {
        PyErr_SetString(PyExc_RuntimeError, "unflatten: sizes must be non-empty");
        return NULL;
    }
    if (self->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "unflatten got an unexpected error:\nDimension specified as %lld but tensor has no dimensions",
                     (long long)dim_in);
        return NULL;
    }
    if (self->ndim - 1 + nparts > MT_MAX_DIMS) {
        mt_raise_too_many_dims(self->ndim - 1 + nparts);
        return NULL;
    }
    if (mt_infer_size(nparts, parts, self->sizes[dim]) < 0) {
        PyObject *type, *value, *tb;
        char shape[1024];
        PyErr_Fetch(&type, &value, &tb);
        {
            PyObject *text = value != NULL ? PyObject_Str(value) : NULL;
            const char *msg = text != NULL ? PyUnicode_AsUTF8(text) : NULL;
            if (msg != NULL && strstr(msg, "is invalid for input of size") != NULL) {
                mt_format_shape(nparts, parts, shape, sizeof(shape));
                PyErr_Format(PyExc_RuntimeError,
                             "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%lld) in the "
                             "input tensor",
                             shape, dim, (long long)self->sizes[dim]);
            }
            else if (msg != NULL) {
                PyErr_Format(PyExc_RuntimeError, "unflatten got an unexpected error:\n%s", msg);
            }
            Py_XDECREF(text);
        }
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    for (int d = 0; d < dim; d++) {
        sizes[n++] = self->sizes[d];
    }
    for (int i = 0; i < nparts; i++) {
        sizes[n++] = parts[i];
    }
    for (int d = dim + 1; d < self->ndim; d++) {
        sizes[n++] = self->sizes[d];
    }
    return (PyObject *)mt_view(self, n, sizes);
}

static PyObject *
impl_clone(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    mt_memory_format format;

    if (collect_args(c, args, nargs, kwnames, names, 0, 0, a) < 0 ||
        mt_memory_format_arg(a[0], "clone", 1, MT_PRESERVE_FORMAT, &format) < 0) {
        return NULL;
    }
    if (format == MT_PRESERVE_FORMAT) {
        return (PyObject *)mt_clone(self);
    }
    return (PyObject *)copy_in_format(self, format);
}

static PyObject *
impl_contiguous(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    static const char *const names[] = {"memory_format", NULL};
    PyObject *a[1];
    mt_memory_format format;

    if (collect_args(c, args, nargs, kwnames, names, 0, 0, a) < 0 ||
        mt_memory_format_arg(a[0], "contiguous", 0, MT_CONTIGUOUS_FORMAT, &format) < 0) {
        return NULL;
    }
    if (mt_memory_format_is_contiguous(format, self->ndim, self->sizes, self->strides)) {
        Py_INCREF(self);
        return (PyObject *)self;
    }
    if (format == MT_PRESERVE_FORMAT) {
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    return (PyObject *)copy_in_format(self, format);
}

static PyObject *
impl_narrow(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", "start", "length", NULL};
    PyObject *a[3];
    int64_t dim, start, length;

    if (collect_args(c, args, nargs, kwnames, names, 3, 3, a) < 0 || parse_int(c, "dim", a[0], POS(0), &dim) < 0) {
        return NULL;
    }
    if (mt_Tensor_Check(a[1]) && !is_int_like(a[1])) {
        PyErr_SetString(PyExc_RuntimeError, "start must be an 0-dim integral Tensor.");
        return NULL;
    }
    if (parse_int(c, "start", a[1], POS(1), &start) < 0 || parse_int(c, "length", a[2], POS(2), &length) < 0) {
        return NULL;
    }
    return (PyObject *)narrow_impl(self, dim, start, length);
}

static PyObject *
impl_select(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", "index", NULL};
    PyObject *a[2];
    int64_t dim, index;

    if (collect_args(c, args, nargs, kwnames, names, 2, 2, a) < 0 || parse_int(c, "dim", a[0], POS(0), &dim) < 0 ||
        parse_int(c, "index", a[1], POS(1), &index) < 0) {
        return NULL;
    }
    return (PyObject *)mt_select(self, dim, index);
}

/* size(dim) with torch's "Dimension specified as 0 but tensor has no dimensions" for 0-d tensors. */
static int
dim_size(mt_TensorObject *t, int64_t dim_in, int *dim)
{
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dim_in);
        return -1;
    }
    return mt_wrap_dim(dim_in, t->ndim, dim);
}

static PyObject *
impl_unbind(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dim", NULL};
    PyObject *a[1];
    int64_t dim_in = 0;
    int dim;
    int64_t n;
    PyObject *tuple;

    if (collect_args(c, args, nargs, kwnames, names, 1, 0, a) < 0 ||
        (a[0] != NULL && parse_int(c, "dim", a[0], POS(0), &dim_in) < 0)) {
        return NULL;
    }
    if (dim_size(self, dim_in, &dim) < 0) {
        return NULL;
    }
    n = self->sizes[dim];
    tuple = PyTuple_New((Py_ssize_t)n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        mt_TensorObject *part = mt_select(self, dim, i);
        if (part == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
    }
    return tuple;
}

/* split_with_sizes over a wrapped dim. */
static PyObject *
split_sizes(mt_TensorObject *self, int dim, int n, const int64_t *sizes)
{
    mt_TensorObject *parts[MT_MAX_DIMS * 4];
    mt_TensorObject **p = parts;
    int64_t start = 0;
    PyObject *result;

    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0) {
            char s[1024];
            mt_format_shape(n, sizes, s, sizeof(s));
            PyErr_Format(PyExc_RuntimeError,
                         "split_with_sizes expects split_sizes have only non-negative entries, but got "
                         "split_sizes=%s",
                         s);
            return NULL;
        }
    }
    if (n > (int)(sizeof(parts) / sizeof(parts[0]))) {
        p = PyMem_Malloc(sizeof(mt_TensorObject *) * (size_t)n);
        if (p == NULL) {
            return PyErr_NoMemory();
        }
    }
    for (int i = 0; i < n; i++) {
        p[i] = mt_slice(self, dim, start, start + sizes[i], 1);
        if (p[i] == NULL) {
            for (int j = 0; j < i; j++) {
                Py_DECREF(p[j]);
            }
            result = NULL;
            goto done;
        }
        start += sizes[i];
    }
    if (start != self->sizes[dim]) {
        char s[1024];
        mt_format_shape(n, sizes, s, sizeof(s));
        for (int j = 0; j < n; j++) {
            Py_DECREF(p[j]);
        }
        PyErr_Format(PyExc_RuntimeError,
                     "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension "
                     "%d), but got split_sizes=%s",
                     (long long)self->sizes[dim], dim, s);
        result = NULL;
        goto done;
    }
    result = tuple_of(p, n);

done:
    if (p != parts) {
        PyMem_Free(p);
    }
    return result;
}

/* split(split_size) over a wrapped dim: equal parts, the last one smaller. */
static PyObject *
split_equal(mt_TensorObject *self, int dim, int64_t split_size)
{
    int64_t dim_size_v = self->sizes[dim];
    int64_t num_splits = 1;
    int64_t last;
    PyObject *tuple;

    if (split_size < 0) {
        PyErr_Format(PyExc_RuntimeError, "split expects split_size be non-negative, but got split_size=%lld",
                     (long long)split_size);
        return NULL;
    }
    if (split_size == 0 && dim_size_v != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                     (long long)dim_size_v);
        return NULL;
    }
    if (split_size != 0) {
        num_splits = (dim_size_v + split_size - 1) / split_size;
        if (num_splits < 1) {
            num_splits = 1;
        }
    }
    last = split_size - (split_size * num_splits - dim_size_v);
    tuple = PyTuple_New((Py_ssize_t)num_splits);
    if (tuple == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < num_splits; i++) {
        int64_t length = i < num_splits - 1 ? split_size : last;
        mt_TensorObject *part = narrow_impl(self, dim, i * split_size, length);
        if (part == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
    }
    return tuple;
}

static PyObject *
impl_split(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    /* Tensor.split(split_size, dim=0); torch.split(tensor, split_size_or_sections, dim=0) */
    static const char *const method_names[] = {"split_size", "dim", NULL};
    static const char *const function_names[] = {"split_size_or_sections", "dim", NULL};
    PyObject *a[2];
    int64_t dim_in = 0;
    int dim;

    if (!c->fn && kwnames != NULL) {
        /* Tensor.split is a Python function in torch: Python's own keyword message */
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            if (PyUnicode_CompareWithASCIIString(key, "split_size") != 0 &&
                PyUnicode_CompareWithASCIIString(key, "dim") != 0) {
                PyErr_Format(PyExc_TypeError, "Tensor.split() got an unexpected keyword argument '%U'", key);
                return NULL;
            }
        }
    }
    if (collect_args(c, args, nargs, kwnames, c->fn ? function_names : method_names, 2, 1, a) < 0 ||
        (a[1] != NULL && parse_int(c, "dim", a[1], POS(1), &dim_in) < 0)) {
        return NULL;
    }
    if (is_int_like(a[0]) || (mt_Tensor_Check(a[0]) && mt_tensor_numel((mt_TensorObject *)a[0]) == 1)) {
        /* torch's Tensor.split tries int(split_size) first, so a one-element tensor of any dtype is a
         * split size (int(tensor(1.5)) == 1) */
        int64_t split_size;
        if (mt_Tensor_Check(a[0]) && !is_int_like(a[0])) {
            PyObject *as_int = PyNumber_Long(a[0]);
            int r;
            if (as_int == NULL) {
                return NULL;
            }
            r = int_value(as_int, &split_size);
            Py_DECREF(as_int);
            if (r < 0) {
                return NULL;
            }
        }
        else if (int_value(a[0], &split_size) < 0) {
            return NULL;
        }
        if (self->ndim == 0) {
            PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
            return NULL;
        }
        if (dim_size(self, dim_in, &dim) < 0) {
            return NULL;
        }
        return split_equal(self, dim, split_size);
    }
    {
        call_ctx cs = {"split_with_sizes", 0};
        int64_t sizes[MT_MAX_DIMS * 4];
        int n;
        if (!PyTuple_Check(a[0]) && !PyList_Check(a[0])) {
            PyErr_Format(PyExc_TypeError,
                         "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not %s",
                         type_name(a[0]));
            return NULL;
        }
        if (PySequence_Fast_GET_SIZE(a[0]) > MT_MAX_DIMS * 4) {
            /* a limit of minitorch, not a misuse: torch splits into any number of sections */
            PyErr_SetString(PyExc_NotImplementedError, "minitorch splits into at most 256 sections");
            return NULL;
        }
        {
            /* parse without the dims limit of parse_int_list, from a snapshot (see parse_int_list) */
            Py_ssize_t len = PySequence_Fast_GET_SIZE(a[0]);
            PyObject *items = PyList_Check(a[0]) ? PyList_AsTuple(a[0]) : (Py_INCREF(a[0]), a[0]);
            int r = 0;
            if (items == NULL) {
                return NULL;
            }
            for (Py_ssize_t i = 0; i < len && r == 0; i++) {
                PyObject *item = PyTuple_GET_ITEM(items, i);
                if (!is_int_like(item)) {
                    PyErr_Format(PyExc_TypeError,
                                 "%s(): argument 'split_sizes' failed to unpack the object at pos %zd with error "
                                 "\"type must be tuple of ints,but got %s\"",
                                 cs.fname, i + 1, type_name(item));
                    r = -1;
                }
                else {
                    r = int_value(item, &sizes[i]);
                }
            }
            Py_DECREF(items);
            if (r < 0) {
                return NULL;
            }
            n = (int)len;
        }
        if (self->ndim == 0) {
            PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
            return NULL;
        }
        if (dim_size(self, dim_in, &dim) < 0) {
            return NULL;
        }
        return split_sizes(self, dim, n, sizes);
    }
}

static PyObject *
impl_chunk(const call_ctx *c, mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"chunks", "dim", NULL};
    PyObject *a[2];
    int64_t chunks, dim_in = 0;
    int dim;
    int64_t dim_size_v, split_size;

    if (collect_args(c, args, nargs, kwnames, names, 2, 1, a) < 0 ||
        parse_int(c, "chunks", a[0], POS(0), &chunks) < 0 ||
        (a[1] != NULL && parse_int(c, "dim", a[1], POS(1), &dim_in) < 0)) {
        return NULL;
    }
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "chunk expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (chunks <= 0) {
        PyErr_Format(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
        return NULL;
    }
    if (mt_wrap_dim(dim_in, self->ndim, &dim) < 0) {
        return NULL;
    }
    dim_size_v = self->sizes[dim];
    split_size = (dim_size_v + chunks - 1) / chunks;
    if (split_size == 0 && dim_size_v == 0) {
        /* `chunks` empty parts: split would give only one */
        PyObject *tuple;
        if (chunks > 1 << 20) {
            PyErr_SetString(PyExc_RuntimeError, "minitorch: too many chunks");
            return NULL;
        }
        tuple = PyTuple_New((Py_ssize_t)chunks);
        if (tuple == NULL) {
            return NULL;
        }
        for (int64_t i = 0; i < chunks; i++) {
            mt_TensorObject *part = mt_slice(self, dim, 0, 0, 1);
            if (part == NULL) {
                Py_DECREF(tuple);
                return NULL;
            }
            PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
        }
        return tuple;
    }
    return split_equal(self, dim, split_size);
}

/* Tensor methods */
METHOD_AND_FUNCTION(reshape, impl_reshape, "input")
METHOD_AND_FUNCTION(t, impl_t, "input")
METHOD_AND_FUNCTION(transpose, impl_transpose, "input")
METHOD_AND_FUNCTION(swapaxes, impl_swapaxes, "input")
METHOD_AND_FUNCTION(swapdims, impl_transpose, "input")
METHOD_AND_FUNCTION(permute, impl_permute, "input")
METHOD_AND_FUNCTION(unsqueeze, impl_unsqueeze, "input")
METHOD_AND_FUNCTION(squeeze, impl_squeeze, "input")
METHOD_AND_FUNCTION(flatten, impl_flatten, "input")
METHOD_AND_FUNCTION(unflatten, impl_unflatten, "input")
METHOD_AND_FUNCTION(clone, impl_clone, "input")
METHOD_AND_FUNCTION(narrow, impl_narrow, "input")
METHOD_AND_FUNCTION(select, impl_select, "input")
METHOD_AND_FUNCTION(unbind, impl_unbind, "input")
METHOD_AND_FUNCTION(chunk, impl_chunk, "input")
METHOD_AND_FUNCTION(split, impl_split, "tensor")
METHOD_ONLY(view, impl_view)
METHOD_ONLY(view_as, impl_view_as)
METHOD_ONLY(reshape_as, impl_view_as)
METHOD_ONLY(expand_as, impl_view_as)
METHOD_ONLY(expand, impl_expand)
METHOD_ONLY(contiguous, impl_contiguous)

static PyObject *
function_broadcast_to(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return call_function("broadcast_to", impl_expand, args, nargs, kwnames, "input");
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef mt_shape_tensor_methods[] = {
    {"view", FASTCALL(method_view),
     "view(*shape) -> Tensor\nview(dtype) -> Tensor\n\nThe same data with another shape (one size may be -1), or "
     "the same bytes as another dtype; shares storage. Fails when the strides cannot express the shape (use "
     "reshape)."},
    {"view_as", FASTCALL(method_view_as), "view_as(other) -> Tensor\n\nself.view(other.size())."},
    {"reshape", FASTCALL(method_reshape),
     "reshape(*shape) -> Tensor\n\nA view with the new shape when possible, else a contiguous copy."},
    {"reshape_as", FASTCALL(method_reshape_as), "reshape_as(other) -> Tensor\n\nself.reshape(other.size())."},
    {"t", FASTCALL(method_t), "t() -> Tensor\n\nTransposes dims 0 and 1 of a tensor with at most 2 dims (a view)."},
    {"transpose", FASTCALL(method_transpose),
     "transpose(dim0, dim1) -> Tensor\n\nA view with dims dim0 and dim1 swapped."},
    {"swapaxes", FASTCALL(method_swapaxes), "swapaxes(axis0, axis1) -> Tensor\n\nAlias of transpose."},
    {"swapdims", FASTCALL(method_swapdims), "swapdims(dim0, dim1) -> Tensor\n\nAlias of transpose."},
    {"permute", FASTCALL(method_permute), "permute(*dims) -> Tensor\n\nA view with the dims reordered."},
    {"unsqueeze", FASTCALL(method_unsqueeze), "unsqueeze(dim) -> Tensor\n\nA view with a new dim of size 1."},
    {"squeeze", FASTCALL(method_squeeze),
     "squeeze(dim=None) -> Tensor\n\nA view without dims of size 1 (all, one, or a tuple of them)."},
    {"flatten", FASTCALL(method_flatten),
     "flatten(start_dim=0, end_dim=-1) -> Tensor\n\nMerges dims start_dim..end_dim into one (view when possible)."},
    {"unflatten", FASTCALL(method_unflatten),
     "unflatten(dim, sizes) -> Tensor\n\nSplits dim into several dims with the given sizes (a view)."},
    {"expand", FASTCALL(method_expand),
     "expand(*sizes) -> Tensor\n\nA view that repeats size-1 dims (stride 0); -1 keeps a size."},
    {"expand_as", FASTCALL(method_expand_as), "expand_as(other) -> Tensor\n\nself.expand(other.size())."},
    {"contiguous", FASTCALL(method_contiguous),
     "contiguous(memory_format=torch.contiguous_format) -> Tensor\n\nself if contiguous, else a contiguous copy."},
    {"clone", FASTCALL(method_clone),
     "clone(*, memory_format=torch.preserve_format) -> Tensor\n\nA copy with its own storage on the same device."},
    {"narrow", FASTCALL(method_narrow),
     "narrow(dim, start, length) -> Tensor\n\nA view of `length` entries of dim from start."},
    {"select", FASTCALL(method_select), "select(dim, index) -> Tensor\n\nA view of one index of dim (dim removed)."},
    {"unbind", FASTCALL(method_unbind), "unbind(dim=0) -> tuple\n\nAll slices along dim, as views."},
    {"chunk", FASTCALL(method_chunk), "chunk(chunks, dim=0) -> tuple\n\nAt most `chunks` views of equal size."},
    {"split", FASTCALL(method_split),
     "split(split_size, dim=0) -> tuple\n\nViews of split_size entries each, or of the given list of sizes."},
    {NULL},
};

PyMethodDef mt_shape_functions[] = {
    {"reshape", FASTCALL(function_reshape), "reshape(input, shape) -> Tensor"},
    {"t", FASTCALL(function_t), "t(input) -> Tensor"},
    {"transpose", FASTCALL(function_transpose), "transpose(input, dim0, dim1) -> Tensor"},
    {"swapaxes", FASTCALL(function_swapaxes), "swapaxes(input, axis0, axis1) -> Tensor"},
    {"swapdims", FASTCALL(function_swapdims), "swapdims(input, dim0, dim1) -> Tensor"},
    {"permute", FASTCALL(function_permute), "permute(input, dims) -> Tensor"},
    {"unsqueeze", FASTCALL(function_unsqueeze), "unsqueeze(input, dim) -> Tensor"},
    {"squeeze", FASTCALL(function_squeeze), "squeeze(input, dim=None) -> Tensor"},
    {"flatten", FASTCALL(function_flatten), "flatten(input, start_dim=0, end_dim=-1) -> Tensor"},
    {"unflatten", FASTCALL(function_unflatten), "unflatten(input, dim, sizes) -> Tensor"},
    {"broadcast_to", FASTCALL(function_broadcast_to), "broadcast_to(input, size) -> Tensor (input.expand(size))"},
    {"clone", FASTCALL(function_clone), "clone(input, *, memory_format=torch.preserve_format) -> Tensor"},
    {"narrow", FASTCALL(function_narrow), "narrow(input, dim, start, length) -> Tensor"},
    {"select", FASTCALL(function_select), "select(input, dim, index) -> Tensor"},
    {"unbind", FASTCALL(function_unbind), "unbind(input, dim=0) -> tuple"},
    {"chunk", FASTCALL(function_chunk), "chunk(input, chunks, dim=0) -> tuple"},
    {"split", FASTCALL(function_split), "split(tensor, split_size_or_sections, dim=0) -> tuple"},
    {"cat", FASTCALL(fn_cat),
     "cat(tensors, dim=0) -> Tensor\n\nJoins tensors along an existing dim (dtypes promoted; 1-D empty tensors "
     "are skipped, as in torch)."},
    {"concat", FASTCALL(fn_concat), "Alias of cat."},
    {"concatenate", FASTCALL(fn_concatenate), "Alias of cat."},
    {"stack", FASTCALL(fn_stack), "stack(tensors, dim=0) -> Tensor\n\nJoins equal-shaped tensors along a new dim."},
    {"hstack", FASTCALL(fn_hstack), "hstack(tensors) -> Tensor\n\nJoins along dim 1 (dim 0 for 1-D tensors)."},
    {"vstack", FASTCALL(fn_vstack), "vstack(tensors) -> Tensor\n\nJoins along dim 0 after atleast_2d."},
    {NULL},
};
