/* reduce.c: the reductions as Python sees them: sum and mean (dims as an int, a tuple or None,
 * keepdim, dtype=), max/min (whole tensor; along a dim as the named tuple
 * minitorch.return_types.max/min; of two tensors as torch.maximum/minimum), all/any and
 * argmax/argmin, as Tensor methods and module functions. It owns argument parsing, torch's dtype
 * rules and error messages, the result shapes and the return_types module; the reduction itself is
 * the device's backend's (kernels/backend.h). It never touches elements itself. */
#include <string.h>

#include "copy.h"
#include "dispatch.h"
#include "elementwise.h"
#include "methods.h"

/* Reductions over this many elements run with the GIL released (their threads need no Python). */
#define REDUCE_GIL_RELEASE_NUMEL 32768

static PyTypeObject *return_type_max = NULL;
static PyTypeObject *return_type_min = NULL;

/* ---- argument helpers ---------------------------------------------------------------------------- */

/* An int argument as torch's parser takes it: a Python int (not a bool) or anything with __index__. */
static int
is_int_arg(PyObject *obj)
{
    if (PyBool_Check(obj) || mt_Tensor_Check(obj)) {
        return 0;
    }
    return PyLong_Check(obj) ||
           (Py_TYPE(obj)->tp_as_number != NULL && Py_TYPE(obj)->tp_as_number->nb_index != NULL);
}

/* An int argument's value, unpacked like torch's parser (THPUtils_unpackLong): past int64 it is
 * ValueError "Overflow when unpacking long long". */
static int
int_arg_value(PyObject *obj, int64_t *out)
{
    PyObject *i = PyNumber_Index(obj);
    long long v;
    int overflow = 0;

    if (i == NULL) {
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow != 0) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
        return -1;
    }
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

/* torch's parser reads a dim argument in two steps, and so does minitorch: the overload match looks at
 * its type only (an int, or a tuple/list that is empty or starts with an int: later items are checked
 * as they are unpacked), and after every argument matched the values are unpacked. The op then checks
 * them against the tensor (mean's dtype rule comes first). */

/* 1 when obj matches `int[] dim`, 0 when it does not (no exception). Runs no Python code. */
static int
dim_arg_matches(PyObject *obj)
{
    if (is_int_arg(obj)) {
        return 1;
    }
    if (PyTuple_Check(obj) || PyList_Check(obj)) {
        return PySequence_Fast_GET_SIZE(obj) == 0 || is_int_arg(PySequence_Fast_ITEMS(obj)[0]);
    }
    return 0;
}

/* The unpacked dims, in the order given. */
typedef struct {
    Py_ssize_t count;       /* dims given: 0 for an empty tuple */
    int64_t *dims;          /* `local`, or a PyMem buffer for a long list (dim_values_clear frees it) */
    int64_t local[8];
} dim_values;

static void
dim_values_clear(dim_values *dv)
{
    if (dv->dims != dv->local) {
        PyMem_Free(dv->dims);
    }
    dv->dims = dv->local;
    dv->count = 0;
}

/* Unpacks a dim argument that dim_arg_matches() accepted into *out (dim_values_clear it afterwards,
 * also after an error). A tuple or list is read from a snapshot: an item's __index__ may change the
 * list while it is read. 0 or -1. */
static int
unpack_dims(const char *fname, PyObject *obj, dim_values *out)
{
    PyObject *items;
    Py_ssize_t n;

    out->count = 0;
    out->dims = out->local;
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        if (int_arg_value(obj, &out->dims[0]) < 0) {
            return -1;
        }
        out->count = 1;
        return 0;
    }
    items = PySequence_Tuple(obj);
    if (items == NULL) {
        return -1;
    }
    n = PyTuple_GET_SIZE(items);
    if (n > (Py_ssize_t)(sizeof(out->local) / sizeof(out->local[0]))) {
        out->dims = PyMem_Malloc((size_t)n * sizeof(int64_t));
        if (out->dims == NULL) {
            out->dims = out->local;
            Py_DECREF(items);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        PyObject *index;
        long long v;
        int overflow = 0;

        /* past the first item a bool is an int here, as in torch */
        if (mt_Tensor_Check(item) || !(PyLong_Check(item) || (Py_TYPE(item)->tp_as_number != NULL &&
                                                              Py_TYPE(item)->tp_as_number->nb_index != NULL))) {
            goto not_int;
        }
        index = PyNumber_Index(item);
        if (index == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                goto not_int;
            }
            goto error;
        }
        v = PyLong_AsLongLongAndOverflow(index, &overflow);
        Py_DECREF(index);
        if (overflow != 0) {
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument 'dim' failed to unpack the object at pos %zd with error \"Overflow when "
                         "unpacking long long\"",
                         fname, i + 1);
            goto error;
        }
        if (v == -1 && PyErr_Occurred()) {
            goto error;
        }
        out->dims[i] = v;
        continue;

    not_int:
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument 'dim' failed to unpack the object at pos %zd with error \"type must be tuple "
                     "of ints,but got %s\"",
                     fname, i + 1, mt_arg_type_name(item));
        goto error;
    }
    Py_DECREF(items);
    out->count = n;
    return 0;

error:
    Py_DECREF(items);
    return -1;
}

/* The unpacked dims as a mask over a tensor of `ndim` dims, with torch's errors in torch's order: every
 * dim is range-checked before any is checked for repeats (a 0-d tensor takes 0 and -1, once). No dims
 * (sum(dim=())) leave the mask empty. */
static int
dims_mask(const dim_values *dv, int ndim, uint64_t *mask)
{
    uint64_t seen = 0;
    int wrapped;

    for (Py_ssize_t i = 0; i < dv->count; i++) {
        if (mt_wrap_dim(dv->dims[i], ndim, &wrapped) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < dv->count; i++) {
        mt_wrap_dim(dv->dims[i], ndim, &wrapped);
        if (seen & ((uint64_t)1 << wrapped)) {
            PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims", wrapped);
            return -1;
        }
        seen |= (uint64_t)1 << wrapped;
    }
    /* a 0-d tensor has nothing to reduce */
    *mask = ndim > 0 ? seen : 0;
    return 0;
}

static int
parse_keepdim(const char *fname, PyObject *obj, int position, int *out)
{
    if (obj == NULL) {
        *out = 0;
        return 0;
    }
    if (!PyBool_Check(obj)) {
        if (position > 0) {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'keepdim' (position %d) must be bool, not %s", fname,
                         position, mt_arg_type_name(obj));
        }
        else {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'keepdim' must be bool, not %s", fname,
                         mt_arg_type_name(obj));
        }
        return -1;
    }
    *out = obj == Py_True;
    return 0;
}

static PyObject *
invalid_combination(const char *fname, const char *expected, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    return mt_invalid_combination(fname, args, nargs, kwnames, 1, expected);
}

static const char sum_method_sigs[] =
    " * (*, torch.dtype dtype = None)\n"
    " * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n";
static const char sum_function_sigs[] =
    " * (Tensor input, *, torch.dtype dtype = None)\n"
    " * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n";
static const char mean_function_sigs[] =
    " * (Tensor input, *, torch.dtype dtype = None, Tensor out = None)\n"
    " * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n";
static const char max_method_sigs[] = " * ()\n * (Tensor other)\n * (int dim, bool keepdim = False)\n";
static const char max_function_sigs[] =
    " * (Tensor input, *, Tensor out = None)\n"
    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)\n";
static const char all_method_sigs[] =
    " * ()\n * (tuple of ints dim = None, bool keepdim = False)\n * (int dim, bool keepdim = False)\n";
static const char all_function_sigs[] =
    " * (Tensor input, *, Tensor out = None)\n"
    " * (Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)\n"
    " * (Tensor input, int dim, bool keepdim = False, *, Tensor out = None)\n";

/* The arguments of one reduction call, gathered from a method (self) or a function (input). */
typedef struct {
    PyObject *input;
    PyObject *dim;
    PyObject *keepdim;
    PyObject *dtype;
    PyObject *other;
    PyObject *out;
    int keepdim_position;   /* position of keepdim when given positionally, else 0 */
} reduce_args;

/* Collects (input,) dim, keepdim, dtype, other, out, with torch's numpy aliases axis/keepdims. */
static int
collect_reduce_args(const char *fname, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, int max_positional, reduce_args *r)
{
    static const char *const names[] = {"input", "dim", "keepdim", "dtype", "other", "out", "axis", "keepdims",
                                        NULL};
    PyObject *slots[8];
    /* a method has no positional `input`: shift its positional arguments by one */
    int shift = self != NULL ? 1 : 0;
    PyObject *shifted[8];
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    memset(r, 0, sizeof(*r));
    if (nargs > max_positional) {
        return -2;
    }
    if (nargs + shift + nkw > 8) {
        return -2;
    }
    shifted[0] = self;
    for (Py_ssize_t i = 0; i < nargs + nkw; i++) {
        shifted[i + shift] = args[i];
    }
    if (mt_collect_args(fname, shifted, nargs + shift, kwnames, names, 3, slots) < 0) {
        return -1;
    }
    if (shift && slots[0] != self) {
        /* input= given to a method */
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'input'", fname);
        return -1;
    }
    if (slots[6] != NULL) {
        if (slots[1] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'dim'", fname);
            return -1;
        }
        slots[1] = slots[6];
    }
    if (slots[7] != NULL) {
        if (slots[2] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'keepdim'", fname);
            return -1;
        }
        slots[2] = slots[7];
    }
    r->input = slots[0];
    r->dim = slots[1];
    r->keepdim = slots[2];
    r->dtype = slots[3];
    r->other = slots[4];
    r->out = slots[5];
    r->keepdim_position = nargs + shift >= 3 ? 2 + (1 - shift) : 0;
    return 0;
}

static int
check_input_tensor(const char *fname, PyObject *input)
{
    if (input == NULL) {
        PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"input\"", fname);
        return -1;
    }
    if (!mt_Tensor_Check(input)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'input' (position 1) must be Tensor, not %s", fname,
                     mt_arg_type_name(input));
        return -1;
    }
    return 0;
}

/* ---- shared pieces of the drivers ---------------------------------------------------------------- */

static void
reduce_input_from_tensor(mt_reduce_input *in, const mt_TensorObject *t)
{
    in->ndim = t->ndim;
    in->sizes = t->sizes;
    in->strides = t->strides;
    in->data = mt_tensor_data(t);
    in->dtype = t->dtype;
}

/* The result shape: reduced dims removed, or kept with size 1. */
static int
result_shape(const mt_TensorObject *t, uint64_t mask, int keepdim, int64_t *sizes)
{
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (mask & ((uint64_t)1 << d)) {
            if (keepdim) {
                sizes[n++] = 1;
            }
        }
        else {
            sizes[n++] = t->sizes[d];
        }
    }
    return n;
}

static uint64_t
all_dims_mask(int ndim)
{
    return ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ndim) - 1);
}

/* t converted to `dtype` like torch's self.to(dtype): a dense tensor keeps its strides, so the sum
 * visits elements in the same order as torch. */
static mt_TensorObject *
cast_for_reduction(mt_TensorObject *t, mt_dtype dtype)
{
    mt_TensorObject *dst;

    if (t->dtype == dtype) {
        Py_INCREF(t);
        return t;
    }
    if (!mt_tensor_is_contiguous(t) && mt_tensor_is_non_overlapping_and_dense(t)) {
        int64_t numel = mt_tensor_numel(t);
        mt_storage *storage = mt_storage_new((size_t)numel * mt_dtype_size(dtype), mt_tensor_device(t));
        if (storage == NULL) {
            return NULL;
        }
        dst = mt_tensor_from_storage(storage, t->ndim, t->sizes, t->strides, 0, dtype);
        mt_storage_decref(storage);
    }
    else {
        dst = mt_tensor_empty(t->ndim, t->sizes, dtype, mt_tensor_device(t));
    }
    if (dst == NULL) {
        return NULL;
    }
    if (mt_copy_(dst, t) < 0) {
        Py_DECREF(dst);
        return NULL;
    }
    return dst;
}

/* ---- drivers ------------------------------------------------------------------------------------- */

typedef enum {
    KIND_SUM,
    KIND_MEAN,
    KIND_MAX,
    KIND_MIN,
    KIND_ALL,
    KIND_ANY
} reduce_kind;

/* torch's mean() dtype rule (mean_dim's meta function): the result dtype must be floating. It comes
 * before any check of the dims. 0 or -1. */
static int
check_mean_dtype(const mt_TensorObject *t, int has_dtype, mt_dtype dtype)
{
    mt_dtype result = has_dtype ? dtype : t->dtype;

    if (mt_dtype_is_floating(result)) {
        return 0;
    }
    PyErr_Format(PyExc_RuntimeError,
                 "mean(): could not infer output dtype. %s dtype must be either a floating point or complex dtype. "
                 "Got: %s",
                 has_dtype ? "Optional" : "Input", mt_dtype_scalar_name(result));
    return -1;
}

/* sum/mean/max()/min()/all/any over the dims in mask (mean: after check_mean_dtype). */
static PyObject *
reduce_impl(const char *fname, reduce_kind kind, mt_TensorObject *t, uint64_t mask, int keepdim, int has_dtype,
            mt_dtype dtype)
{
    mt_dtype out_dtype = t->dtype;
    mt_reduce_op op;
    mt_TensorObject *src = NULL;
    mt_TensorObject *out = NULL;
    int64_t sizes[MT_MAX_DIMS];
    int n;
    const mt_backend *be = mt_backend_for(mt_tensor_device(t));
    mt_reduce_input in;
    mt_kctx ctx;
    int rc;

    if (be == NULL) {
        return NULL;
    }
    switch (kind) {
    case KIND_SUM:
        op = MT_REDUCE_SUM;
        out_dtype = has_dtype ? dtype : (mt_dtype_is_floating(t->dtype) ? t->dtype : MT_INT64);
        break;
    case KIND_MEAN:
        /* the entry point ran check_mean_dtype: out_dtype is floating */
        op = MT_REDUCE_SUM;
        out_dtype = has_dtype ? dtype : t->dtype;
        break;
    case KIND_MAX:
    case KIND_MIN:
        op = kind == KIND_MAX ? MT_REDUCE_MAX : MT_REDUCE_MIN;
        if (mt_tensor_numel(t) == 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                         "reduction dim with the 'dim' argument.",
                         fname);
            return NULL;
        }
        break;
    case KIND_ALL:
        op = MT_REDUCE_ALL;
        out_dtype = MT_BOOL;
        break;
    default:
        op = MT_REDUCE_ANY;
        out_dtype = MT_BOOL;
        break;
    }
    /* the kernels reduce in the output's dtype: a sum of another dtype is cast first, as torch's
     * make_reduction does */
    if (op == MT_REDUCE_SUM) {
        src = cast_for_reduction(t, out_dtype);
    }
    else {
        src = t;
        Py_INCREF(src);
    }
    if (src == NULL) {
        return NULL;
    }
    n = result_shape(t, mask, keepdim, sizes);
    out = mt_tensor_empty(n, sizes, out_dtype, mt_tensor_device(t));
    if (out == NULL) {
        goto error;
    }
    reduce_input_from_tensor(&in, src);
    mt_kctx_init(&ctx, mt_tensor_device(t));
    MT_RUN_KERNEL(be, mt_tensor_numel(src) >= REDUCE_GIL_RELEASE_NUMEL,
                  rc = be->reduce(&ctx, op, &in, mask, keepdim, kind == KIND_MEAN, mt_tensor_data(out)));
    if (mt_kernel_result(&ctx, rc) < 0) {
        goto error;
    }
    Py_DECREF(src);
    return (PyObject *)out;

error:
    Py_XDECREF(src);
    Py_XDECREF(out);
    return NULL;
}

/* argmax/argmin through the device's kernels. */
static int
arg_reduce(const mt_TensorObject *t, int is_max, const mt_reduce_input *in, int dim, char *values,
           int64_t *indices)
{
    const mt_backend *be = mt_backend_for(mt_tensor_device(t));
    mt_kctx ctx;

    if (be == NULL) {
        return -1;
    }
    mt_kctx_init(&ctx, mt_tensor_device(t));
    return mt_kernel_result(&ctx, be->arg_reduce(&ctx, is_max, in, dim, values, indices));
}

/* max(dim)/min(dim): the (values, indices) named tuple. */
static PyObject *
max_dim_impl(const char *fname, int is_max, mt_TensorObject *t, int64_t dim_arg, int keepdim)
{
    int dim;
    int64_t sizes[MT_MAX_DIMS];
    int n;
    mt_TensorObject *values = NULL;
    mt_TensorObject *indices = NULL;
    PyObject *result = NULL;
    mt_reduce_input in;
    uint64_t mask;

    if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (t->ndim > 0 && t->sizes[dim] == 0) {
        PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.", fname, dim);
        return NULL;
    }
    mask = t->ndim > 0 ? (uint64_t)1 << dim : 0;
    n = result_shape(t, mask, keepdim, sizes);
    values = mt_tensor_empty(n, sizes, t->dtype, mt_tensor_device(t));
    if (values == NULL) {
        goto error;
    }
    indices = mt_tensor_empty(n, sizes, MT_INT64, mt_tensor_device(t));
    if (indices == NULL) {
        goto error;
    }
    if (mt_tensor_numel(values) > 0) {
        reduce_input_from_tensor(&in, t);
        if (arg_reduce(t, is_max, &in, t->ndim > 0 ? dim : -1, mt_tensor_data(values),
                       (int64_t *)mt_tensor_data(indices)) < 0) {
            goto error;
        }
    }
    result = PyStructSequence_New(is_max ? return_type_max : return_type_min);
    if (result == NULL) {
        goto error;
    }
    PyStructSequence_SetItem(result, 0, (PyObject *)values);
    PyStructSequence_SetItem(result, 1, (PyObject *)indices);
    return result;

error:
    Py_XDECREF(values);
    Py_XDECREF(indices);
    return NULL;
}

/* argmax/argmin; has_dim 0 means over the flattened tensor. */
static PyObject *
argmax_impl(const char *fname, int is_max, mt_TensorObject *t, int has_dim, int64_t dim_arg, int keepdim)
{
    int dim = -1;
    int64_t sizes[MT_MAX_DIMS];
    int n = 0;
    mt_TensorObject *out = NULL;
    mt_reduce_input in;

    if (t->dtype == MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "%s(): does not support bool input", fname);
        return NULL;
    }
    if (has_dim) {
        if (mt_wrap_dim(dim_arg, t->ndim, &dim) < 0) {
            return NULL;
        }
        if (t->ndim > 0 && t->sizes[dim] == 0) {
            PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.", fname, dim);
            return NULL;
        }
        n = result_shape(t, t->ndim > 0 ? (uint64_t)1 << dim : 0, keepdim, sizes);
        if (t->ndim == 0) {
            dim = -1;
        }
    }
    else {
        if (mt_tensor_numel(t) == 0) {
            PyErr_Format(PyExc_IndexError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0.", fname);
            return NULL;
        }
        if (keepdim) {
            n = result_shape(t, all_dims_mask(t->ndim), 1, sizes);
        }
    }
    out = mt_tensor_empty(n, sizes, MT_INT64, mt_tensor_device(t));
    if (out == NULL) {
        return NULL;
    }
    if (mt_tensor_numel(out) > 0) {
        reduce_input_from_tensor(&in, t);
        if (arg_reduce(t, is_max, &in, dim, NULL, (int64_t *)mt_tensor_data(out)) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return (PyObject *)out;
}

/* ---- entry points -------------------------------------------------------------------------------- */

/* The entry points check their arguments in the order of torch's parser: every argument's type (the
 * overload match: keepdim before any dim value), then the dim values (ValueError past int64), then
 * out=, which minitorch refuses; the op's own checks (dtype, then dim ranges) come last. */

/* sum and mean share one signature: (dim=None, keepdim=False, *, dtype=None). */
static PyObject *
sum_mean_entry(const char *fname, reduce_kind kind, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    reduce_args r;
    mt_TensorObject *t;
    uint64_t mask;
    dim_values dv = {0};
    int keepdim = 0, has_dtype = 0, has_dims = 0, rc;
    mt_dtype dtype = MT_FLOAT32;
    const char *sigs = self != NULL ? sum_method_sigs : (kind == KIND_MEAN ? mean_function_sigs : sum_function_sigs);

    if (self != NULL && nargs == 0 && kwnames == NULL) {
        t = (mt_TensorObject *)self;
        if (kind == KIND_MEAN && check_mean_dtype(t, 0, dtype) < 0) {
            return NULL;
        }
        return reduce_impl(fname, kind, t, all_dims_mask(t->ndim), 0, 0, dtype);
    }
    rc = collect_reduce_args(fname, self, args, nargs, kwnames, self != NULL ? 2 : 3, &r);
    if (rc == -2 || (rc == 0 && r.other != NULL)) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    if (rc < 0 || check_input_tensor(fname, r.input) < 0) {
        return NULL;
    }
    t = (mt_TensorObject *)r.input;
    if (r.dtype != NULL && r.dtype != Py_None) {
        if (!mt_Dtype_Check(r.dtype) && !PyType_Check(r.dtype)) {
            return invalid_combination(fname, sigs, args, nargs, kwnames);
        }
        if (mt_dtype_from_object(r.dtype, &dtype) < 0) {
            return NULL;
        }
        has_dtype = 1;
    }
    if (r.dim == NULL || r.dim == Py_None) {
        if (r.keepdim != NULL && r.dim == NULL) {
            /* keepdim without dim matches no overload */
            return invalid_combination(fname, sigs, args, nargs, kwnames);
        }
    }
    else if (dim_arg_matches(r.dim)) {
        has_dims = 1;
    }
    else {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    if (parse_keepdim(fname, r.keepdim, r.keepdim_position, &keepdim) < 0) {
        return NULL;
    }
    if (has_dims && unpack_dims(fname, r.dim, &dv) < 0) {
        goto error;
    }
    if (mt_check_out_none(fname, r.out) < 0 || (kind == KIND_MEAN && check_mean_dtype(t, has_dtype, dtype) < 0)) {
        goto error;
    }
    /* sum(dim=()) reduces everything, like dim=None */
    if (dv.count == 0) {
        mask = all_dims_mask(t->ndim);
    }
    else if (dims_mask(&dv, t->ndim, &mask) < 0) {
        goto error;
    }
    dim_values_clear(&dv);
    return reduce_impl(fname, kind, t, mask, keepdim, has_dtype, dtype);

error:
    dim_values_clear(&dv);
    return NULL;
}

/* max/min: (), (Tensor other), (int dim, bool keepdim=False). */
static PyObject *
max_min_entry(const char *fname, int is_max, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
    reduce_args r;
    mt_TensorObject *t;
    int keepdim = 0, rc;
    int64_t dim;
    const char *sigs = self != NULL ? max_method_sigs : max_function_sigs;

    if (self != NULL && nargs == 0 && kwnames == NULL) {
        t = (mt_TensorObject *)self;
        return reduce_impl(fname, is_max ? KIND_MAX : KIND_MIN, t, all_dims_mask(t->ndim), 0, 0, MT_FLOAT32);
    }
    rc = collect_reduce_args(fname, self, args, nargs, kwnames, self != NULL ? 2 : 3, &r);
    if (rc == -2 || (rc == 0 && r.dtype != NULL)) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    if (rc < 0 || check_input_tensor(fname, r.input) < 0) {
        return NULL;
    }
    t = (mt_TensorObject *)r.input;
    /* a tensor in the dim position is the `other` overload */
    if (r.dim != NULL && mt_Tensor_Check(r.dim) && r.other == NULL && r.keepdim == NULL) {
        r.other = r.dim;
        r.dim = NULL;
    }
    if (r.other != NULL) {
        if (r.dim != NULL || r.keepdim != NULL || !mt_Tensor_Check(r.other)) {
            return invalid_combination(fname, sigs, args, nargs, kwnames);
        }
        if (mt_check_out_none(fname, r.out) < 0) {
            return NULL;
        }
        return mt_elementwise_binary(is_max ? MT_BINARY_MAXIMUM : MT_BINARY_MINIMUM, (PyObject *)t, r.other);
    }
    if (r.dim == NULL) {
        if (r.keepdim != NULL) {
            return invalid_combination(fname, sigs, args, nargs, kwnames);
        }
        if (mt_check_out_none(fname, r.out) < 0) {
            return NULL;
        }
        return reduce_impl(fname, is_max ? KIND_MAX : KIND_MIN, t, all_dims_mask(t->ndim), 0, 0, MT_FLOAT32);
    }
    if (!is_int_arg(r.dim)) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    if (parse_keepdim(fname, r.keepdim, r.keepdim_position, &keepdim) < 0 || int_arg_value(r.dim, &dim) < 0 ||
        mt_check_out_none(fname, r.out) < 0) {
        return NULL;
    }
    return max_dim_impl(fname, is_max, t, dim, keepdim);
}

/* all/any: (), (int or tuple of ints dim, bool keepdim=False). */
static PyObject *
all_any_entry(const char *fname, reduce_kind kind, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
    reduce_args r;
    mt_TensorObject *t;
    uint64_t mask;
    dim_values dv = {0};
    int keepdim = 0, rc;
    const char *sigs = self != NULL ? all_method_sigs : all_function_sigs;

    if (self != NULL && nargs == 0 && kwnames == NULL) {
        t = (mt_TensorObject *)self;
        return reduce_impl(fname, kind, t, all_dims_mask(t->ndim), 0, 0, MT_BOOL);
    }
    rc = collect_reduce_args(fname, self, args, nargs, kwnames, self != NULL ? 2 : 3, &r);
    if (rc == -2 || (rc == 0 && (r.dtype != NULL || r.other != NULL))) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    if (rc < 0 || check_input_tensor(fname, r.input) < 0) {
        return NULL;
    }
    t = (mt_TensorObject *)r.input;
    if (r.keepdim != NULL && !PyBool_Check(r.keepdim)) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    keepdim = r.keepdim == Py_True;
    if (r.dim == NULL || r.dim == Py_None) {
        if (mt_check_out_none(fname, r.out) < 0) {
            return NULL;
        }
        return reduce_impl(fname, kind, t, all_dims_mask(t->ndim), keepdim, 0, MT_BOOL);
    }
    if (!dim_arg_matches(r.dim)) {
        return invalid_combination(fname, sigs, args, nargs, kwnames);
    }
    /* unlike sum, all(dim=()) reduces nothing: an empty mask */
    if (unpack_dims(fname, r.dim, &dv) < 0 || mt_check_out_none(fname, r.out) < 0 ||
        dims_mask(&dv, t->ndim, &mask) < 0) {
        dim_values_clear(&dv);
        return NULL;
    }
    dim_values_clear(&dv);
    return reduce_impl(fname, kind, t, mask, keepdim, 0, MT_BOOL);
}

/* argmax/argmin: (dim=None, keepdim=False). */
static PyObject *
argmax_entry(const char *fname, int is_max, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    reduce_args r;
    mt_TensorObject *t;
    int keepdim = 0, rc;
    int64_t dim = 0;
    int has_dim = 0;

    if (self != NULL && nargs == 0 && kwnames == NULL) {
        return argmax_impl(fname, is_max, (mt_TensorObject *)self, 0, 0, 0);
    }
    rc = collect_reduce_args(fname, self, args, nargs, kwnames, self != NULL ? 2 : 3, &r);
    if (rc == -2) {
        PyErr_Format(PyExc_TypeError, "%s() takes from %d to %d positional arguments but %zd were given", fname,
                     self != NULL ? 0 : 1, self != NULL ? 2 : 3, nargs);
        return NULL;
    }
    if (rc == 0 && (r.dtype != NULL || r.other != NULL)) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname,
                     r.dtype != NULL ? "dtype" : "other");
        return NULL;
    }
    if (rc < 0 || check_input_tensor(fname, r.input) < 0) {
        return NULL;
    }
    t = (mt_TensorObject *)r.input;
    if (r.dim != NULL && r.dim != Py_None) {
        if (!is_int_arg(r.dim)) {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'dim' (position 1) must be int, not %s", fname,
                         mt_arg_type_name(r.dim));
            return NULL;
        }
        has_dim = 1;
    }
    if (parse_keepdim(fname, r.keepdim, r.keepdim_position, &keepdim) < 0 ||
        (has_dim && int_arg_value(r.dim, &dim) < 0) || mt_check_out_none(fname, r.out) < 0) {
        return NULL;
    }
    return argmax_impl(fname, is_max, t, has_dim, dim, keepdim);
}

#define ENTRY_PAIR(NAME, CALL)                                                                       \
    static PyObject *tensor_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                   PyObject *kwnames)                                              \
    {                                                                                              \
        return CALL(self);                                                                         \
    }                                                                                              \
    static PyObject *func_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs,        \
                                 PyObject *kwnames)                                                \
    {                                                                                              \
        (void)module;                                                                              \
        return CALL(NULL);                                                                         \
    }

#define CALL_SUM(S) sum_mean_entry("sum", KIND_SUM, S, args, nargs, kwnames)
#define CALL_MEAN(S) sum_mean_entry("mean", KIND_MEAN, S, args, nargs, kwnames)
#define CALL_MAX(S) max_min_entry("max", 1, S, args, nargs, kwnames)
#define CALL_MIN(S) max_min_entry("min", 0, S, args, nargs, kwnames)
#define CALL_ALL(S) all_any_entry("all", KIND_ALL, S, args, nargs, kwnames)
#define CALL_ANY(S) all_any_entry("any", KIND_ANY, S, args, nargs, kwnames)
#define CALL_ARGMAX(S) argmax_entry("argmax", 1, S, args, nargs, kwnames)
#define CALL_ARGMIN(S) argmax_entry("argmin", 0, S, args, nargs, kwnames)

ENTRY_PAIR(sum, CALL_SUM)
ENTRY_PAIR(mean, CALL_MEAN)
ENTRY_PAIR(max, CALL_MAX)
ENTRY_PAIR(min, CALL_MIN)
ENTRY_PAIR(all, CALL_ALL)
ENTRY_PAIR(any, CALL_ANY)
ENTRY_PAIR(argmax, CALL_ARGMAX)
ENTRY_PAIR(argmin, CALL_ARGMIN)

#define FASTCALL_KW (METH_FASTCALL | METH_KEYWORDS)
#define METHOD(NAME, DOC) {#NAME, (PyCFunction)(void (*)(void))tensor_##NAME, FASTCALL_KW, DOC}
#define FUNCTION(NAME, DOC) {#NAME, (PyCFunction)(void (*)(void))func_##NAME, FASTCALL_KW, DOC}

PyMethodDef mt_reduce_tensor_methods[] = {
    METHOD(sum, "sum(dim=None, keepdim=False, *, dtype=None) -> Tensor\n\n"
                "Sum over all elements or the given dims; integer and bool inputs give int64."),
    METHOD(mean, "mean(dim=None, keepdim=False, *, dtype=None) -> Tensor\n\nMean of a floating tensor."),
    METHOD(max, "max() -> Tensor; max(dim, keepdim=False) -> (values, indices); max(other) -> Tensor"),
    METHOD(min, "min() -> Tensor; min(dim, keepdim=False) -> (values, indices); min(other) -> Tensor"),
    METHOD(all, "all(dim=None, keepdim=False) -> Tensor\n\nTrue where every element is nonzero."),
    METHOD(any, "any(dim=None, keepdim=False) -> Tensor\n\nTrue where some element is nonzero."),
    METHOD(argmax, "argmax(dim=None, keepdim=False) -> Tensor\n\nIndex of the first maximum."),
    METHOD(argmin, "argmin(dim=None, keepdim=False) -> Tensor\n\nIndex of the first minimum."),
    {NULL, NULL, 0, NULL},
};

PyMethodDef mt_reduce_functions[] = {
    FUNCTION(sum, "sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor"),
    FUNCTION(mean, "mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor"),
    FUNCTION(max, "max(input) / max(input, dim, keepdim=False) / max(input, other)"),
    FUNCTION(min, "min(input) / min(input, dim, keepdim=False) / min(input, other)"),
    FUNCTION(all, "all(input, dim=None, keepdim=False) -> Tensor"),
    FUNCTION(any, "any(input, dim=None, keepdim=False) -> Tensor"),
    FUNCTION(argmax, "argmax(input, dim=None, keepdim=False) -> Tensor"),
    FUNCTION(argmin, "argmin(input, dim=None, keepdim=False) -> Tensor"),
    {NULL, NULL, 0, NULL},
};

/* ---- minitorch.return_types ---------------------------------------------------------------------- */

static PyStructSequence_Field return_fields[] = {
    {"values", "the extreme values"},
    {"indices", "their indices along the reduced dim"},
    {NULL, NULL},
};

static PyStructSequence_Desc max_desc = {"minitorch.return_types.max", "max(dim) result: (values, indices)",
                                         return_fields, 2};
static PyStructSequence_Desc min_desc = {"minitorch.return_types.min", "min(dim) result: (values, indices)",
                                         return_fields, 2};

/* torch's returned_structseq_repr: one field per line. */
static PyObject *
return_types_repr(PyObject *self)
{
    PyObject *r0 = NULL, *r1 = NULL, *result = NULL;

    r0 = PyObject_Repr(PyStructSequence_GetItem(self, 0));
    if (r0 == NULL) {
        goto error;
    }
    r1 = PyObject_Repr(PyStructSequence_GetItem(self, 1));
    if (r1 == NULL) {
        goto error;
    }
    result = PyUnicode_FromFormat("%s(\nvalues=%U,\nindices=%U)", Py_TYPE(self)->tp_name, r0, r1);

error:
    Py_XDECREF(r0);
    Py_XDECREF(r1);
    return result;
}

/* PyModule_AddObjectRef, which Python 3.9 lacks: adds obj without stealing the caller's reference. */
static int
add_object_ref(PyObject *module, const char *name, PyObject *obj)
{
    Py_INCREF(obj);
    if (PyModule_AddObject(module, name, obj) < 0) {
        Py_DECREF(obj);
        return -1;
    }
    return 0;
}

int
mt_reduce_init(PyObject *module)
{
    PyObject *rt = NULL;
    PyObject *modules;

    return_type_max = PyStructSequence_NewType(&max_desc);
    if (return_type_max == NULL) {
        goto error;
    }
    return_type_max->tp_repr = return_types_repr;
    return_type_min = PyStructSequence_NewType(&min_desc);
    if (return_type_min == NULL) {
        goto error;
    }
    return_type_min->tp_repr = return_types_repr;
    rt = PyModule_New("minitorch.return_types");
    if (rt == NULL) {
        goto error;
    }
    if (add_object_ref(rt, "max", (PyObject *)return_type_max) < 0 ||
        add_object_ref(rt, "min", (PyObject *)return_type_min) < 0 ||
        add_object_ref(module, "return_types", rt) < 0) {
        goto error;
    }
    /* `import minitorch.return_types` finds it without a Python file */
    modules = PyImport_GetModuleDict();
    if (PyDict_SetItemString(modules, "minitorch.return_types", rt) < 0) {
        goto error;
    }
    Py_DECREF(rt);
    return 0;

error:
    Py_XDECREF(rt);
    return -1;
}
