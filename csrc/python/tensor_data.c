/* tensor_data.c: minitorch.tensor(data) and the way back (Tensor.tolist; the methods tolist and item).
 * It reproduces torch/csrc/utils/tensor_new.cpp: the shape comes from the first element at each depth
 * (compute_sizes), the dtype from every element (infer_scalar_type, folded with torch's promotion
 * table, which here also covers the NumPy dtypes minitorch cannot store, so that [1, np.uint8(2)] is
 * int64 as in torch), then each element is stored with torch's checked conversions and errors. NumPy
 * is never imported: arrays and scalars are recognised only when the numpy module is already loaded,
 * and read through their `dtype` attribute and the buffer protocol. This file owns no dtype casting
 * between tensors and no device transfers: the built CPU tensor goes through mt_copy_to (ops/copy.c),
 * device arguments are resolved by the device layer (devices.c), and one element becomes a Python
 * number in ops/convert.c (mt_element_to_object, mt_tensor_item). */
#include "tensor_data.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/warn.h"
#include "../ops/convert.h"
#include "../ops/copy.h"
#include "interop.h"

/* torch's MAX_DIMS in compute_sizes: deeper nesting is "too many dimensions". minitorch itself stores
 * at most MT_MAX_DIMS, checked once the shape is known. */
#define TORCH_MAX_DIMS 128

/* ---- the dtypes data can have ----------------------------------------------------------------------
 * Inference works on torch's dtypes, not minitorch's: a NumPy scalar or array may bring uint8 or
 * uint16, which promote to something minitorch has in most lists. Only the final dtype must exist. */

typedef enum {
    KIND_BOOL = 0,
    KIND_UINT8,
    KIND_INT8,
    KIND_INT16,
    KIND_INT32,
    KIND_INT64,
    KIND_FLOAT16,
    KIND_FLOAT32,
    KIND_FLOAT64,
    KIND_COMPLEX64,
    KIND_COMPLEX128,
    KIND_UINT16,
    KIND_UINT32,
    KIND_UINT64,
    KIND_BFLOAT16,
    KIND_COUNT
} data_kind;

typedef struct {
    const char *name;        /* torch.<name> */
    const char *scalar_name; /* c10::toString(ScalarType), used in the promotion error */
    int dtype;               /* the mt_dtype, or -1 where minitorch has none */
} kind_info;

static const kind_info kinds[KIND_COUNT] = {
    [KIND_BOOL] = {"bool", "Bool", MT_BOOL},
    [KIND_UINT8] = {"uint8", "Byte", MT_UINT8},
    [KIND_INT8] = {"int8", "Char", MT_INT8},
    [KIND_INT16] = {"int16", "Short", MT_INT16},
    [KIND_INT32] = {"int32", "Int", MT_INT32},
    [KIND_INT64] = {"int64", "Long", MT_INT64},
    [KIND_FLOAT16] = {"float16", "Half", MT_FLOAT16},
    [KIND_FLOAT32] = {"float32", "Float", MT_FLOAT32},
    [KIND_FLOAT64] = {"float64", "Double", MT_FLOAT64},
    [KIND_COMPLEX64] = {"complex64", "ComplexFloat", -1},
    [KIND_COMPLEX128] = {"complex128", "ComplexDouble", -1},
    [KIND_UINT16] = {"uint16", "UInt16", -1},
    [KIND_UINT32] = {"uint32", "UInt32", -1},
    [KIND_UINT64] = {"uint64", "UInt64", -1},
    [KIND_BFLOAT16] = {"bfloat16", "BFloat16", MT_BFLOAT16},
};

/* torch.promote_types over the kinds above, printed by torch 2.13 itself; -1 where torch raises
 * (the barebones unsigned types promote only with floats and themselves). */
#define NO (-1)
static const signed char kind_promote[KIND_COUNT][KIND_COUNT] = {
    /*              b   u8  i8  i16 i32 i64 f16 f32 f64 c64 c128 u16 u32 u64 bf16 */
    [KIND_BOOL] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_UINT8] = {1, 1, 3, 3, 4, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_INT8] = {2, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_INT16] = {3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_INT32] = {4, 4, 4, 4, 4, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_INT64] = {5, 5, 5, 5, 5, 5, 6, 7, 8, 9, 10, NO, NO, NO, 14},
    [KIND_FLOAT16] = {6, 6, 6, 6, 6, 6, 6, 7, 8, 9, 10, 6, 6, 6, 7},
    [KIND_FLOAT32] = {7, 7, 7, 7, 7, 7, 7, 7, 8, 9, 10, 7, 7, 7, 7},
    [KIND_FLOAT64] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 10, 10, 8, 8, 8, 8},
    [KIND_COMPLEX64] = {9, 9, 9, 9, 9, 9, 9, 9, 10, 9, 10, NO, NO, NO, 9},
    [KIND_COMPLEX128] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, NO, NO, NO, 10},
    [KIND_UINT16] = {NO, NO, NO, NO, NO, NO, 6, 7, 8, NO, NO, 11, NO, NO, 14},
    [KIND_UINT32] = {NO, NO, NO, NO, NO, NO, 6, 7, 8, NO, NO, NO, 12, NO, 14},
    [KIND_UINT64] = {NO, NO, NO, NO, NO, NO, 6, 7, 8, NO, NO, NO, NO, 13, 14},
    [KIND_BFLOAT16] = {14, 14, 14, 14, 14, 14, 7, 7, 8, 9, 10, 14, 14, 14, 14},
};
#undef NO

static int
kind_of_dtype(mt_dtype d)
{
    switch (d) {
    case MT_BOOL:
        return KIND_BOOL;
    case MT_UINT8:
        return KIND_UINT8;
    case MT_INT8:
        return KIND_INT8;
    case MT_INT16:
        return KIND_INT16;
    case MT_INT32:
        return KIND_INT32;
    case MT_INT64:
        return KIND_INT64;
    case MT_FLOAT32:
        return KIND_FLOAT32;
    case MT_FLOAT16:
        return KIND_FLOAT16;
    case MT_BFLOAT16:
        return KIND_BFLOAT16;
    default:
        return KIND_FLOAT64;
    }
}

static int
default_float_kind(void)
{
    return kind_of_dtype(mt_default_float_dtype());
}

static int
promote_kinds(int a, int b, int *out)
{
    int r = kind_promote[a][b];
    if (r < 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s and %s",
                     kinds[a].scalar_name, kinds[b].scalar_name);
        return -1;
    }
    *out = r;
    return 0;
}

/* The inferred dtype must be one minitorch stores; torch would build e.g. a uint16 tensor here. */
static int
dtype_of_kind(int kind, mt_dtype *out)
{
    if (kinds[kind].dtype < 0) {
        /* NotImplementedError: torch would return a tensor, so this is a gap of minitorch (README.md,
         * "Known differences": the dtypes minitorch has), not a misuse */
        PyErr_Format(PyExc_NotImplementedError,
                     "minitorch.tensor(): the data has dtype torch.%s, which minitorch does not support; pass "
                     "dtype= (float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8 or bool) to convert it",
                     kinds[kind].name);
        return -1;
    }
    *out = (mt_dtype)kinds[kind].dtype;
    return 0;
}

/* ---- NumPy without importing it -------------------------------------------------------------------- */

/* Strong references taken the first time numpy is seen in sys.modules; before that no NumPy object
 * can exist, so "not loaded" simply means "not an array". */
static PyObject *numpy_ndarray = NULL;
static PyObject *numpy_generic = NULL;
static PyObject *numpy_bool = NULL;

static void
numpy_refresh(void)
{
    PyObject *np;
    PyObject *ndarray = NULL;
    PyObject *generic = NULL;
    PyObject *bool_type = NULL;

    if (numpy_ndarray != NULL) {
        return;
    }
    np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy"); /* borrowed */
    if (np == NULL) {
        return;
    }
    ndarray = PyObject_GetAttrString(np, "ndarray");
    generic = PyObject_GetAttrString(np, "generic");
    bool_type = PyObject_GetAttrString(np, "bool_");
    if (ndarray == NULL || generic == NULL || bool_type == NULL || !PyType_Check(ndarray) ||
        !PyType_Check(generic) || !PyType_Check(bool_type)) {
        /* a half-imported or unusual numpy: treat its objects like any other Python object */
        PyErr_Clear();
        Py_XDECREF(ndarray);
        Py_XDECREF(generic);
        Py_XDECREF(bool_type);
        return;
    }
    numpy_ndarray = ndarray;
    numpy_generic = generic;
    numpy_bool = bool_type;
}

static int
is_ndarray(PyObject *obj)
{
    return numpy_ndarray != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)numpy_ndarray);
}

static int
is_numpy_scalar(PyObject *obj)
{
    return numpy_generic != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)numpy_generic);
}

static int
is_numpy_bool(PyObject *obj)
{
    return numpy_bool != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)numpy_bool);
}

/* torch's numpy_dtype_to_aten, from a NumPy dtype's kind and itemsize; `dtype` (a numpy.dtype) only
 * names the type in the TypeError for kinds torch has no dtype for. */
static int
numpy_kind(char kind, long itemsize, PyObject *dtype, int *out)
{
    PyObject *keep = NULL;
    const char *name;
    int result;

    switch (kind) {
    case 'b':
        result = itemsize == 1 ? KIND_BOOL : -1;
        break;
    case 'i':
        result = itemsize == 1 ? KIND_INT8 : itemsize == 2 ? KIND_INT16 : itemsize == 4 ? KIND_INT32
                                                              : itemsize == 8 ? KIND_INT64 : -1;
        break;
    case 'u':
        result = itemsize == 1 ? KIND_UINT8 : itemsize == 2 ? KIND_UINT16 : itemsize == 4 ? KIND_UINT32
                                                               : itemsize == 8 ? KIND_UINT64 : -1;
        break;
    case 'f':
        result = itemsize == 2 ? KIND_FLOAT16 : itemsize == 4 ? KIND_FLOAT32 : itemsize == 8 ? KIND_FLOAT64 : -1;
        break;
    case 'c':
        result = itemsize == 8 ? KIND_COMPLEX64 : itemsize == 16 ? KIND_COMPLEX128 : -1;
        break;
    default:
        result = -1;
        break;
    }
    if (result >= 0) {
        *out = result;
        return 0;
    }
    /* torch names the NumPy scalar type: numpy.str_, numpy.object_, numpy.longdouble */
    name = mt_numpy_dtype_name(dtype, &keep);
    if (name != NULL) {
        PyErr_Format(PyExc_TypeError,
                     "can't convert np.ndarray of type %s. The only supported types are: float64, float32, "
                     "float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
                     "and bool.",
                     name);
    }
    Py_XDECREF(keep);
    return -1;
}

/* The kind of a NumPy scalar (its dtype attribute) or array (what NumPy records, as torch reads it). */
static int
numpy_object_kind(PyObject *obj, int *out)
{
    PyObject *dtype = NULL, *kind_obj = NULL, *size_obj = NULL;
    const char *kind = "";
    long itemsize = 0;
    int r = -1;

    if (is_ndarray(obj)) {
        mt_ndarray_fields f;
        if (mt_ndarray_fields_get(obj, &f) < 0 || (dtype = mt_ndarray_dtype(obj)) == NULL) {
            return -1;
        }
        r = numpy_kind(f.kind, f.itemsize, dtype, out);
        Py_DECREF(dtype);
        return r;
    }
    dtype = PyObject_GetAttrString(obj, "dtype");
    if (dtype == NULL || (kind_obj = PyObject_GetAttrString(dtype, "kind")) == NULL ||
        (size_obj = PyObject_GetAttrString(dtype, "itemsize")) == NULL) {
        goto done;
    }
    itemsize = PyLong_AsLong(size_obj);
    if (itemsize == -1 && PyErr_Occurred()) {
        goto done;
    }
    kind = PyUnicode_Check(kind_obj) ? PyUnicode_AsUTF8(kind_obj) : "";
    if (kind == NULL) {
        goto done;
    }
    r = numpy_kind(kind[0], itemsize, dtype, out);

done:
    Py_XDECREF(dtype);
    Py_XDECREF(kind_obj);
    Py_XDECREF(size_obj);
    return r;
}

/* ---- shape and dtype inference (compute_sizes, infer_scalar_type) ----------------------------------- */

/* A Tensor is never a sequence here: torch's Tensor fails PySequence_Check, so a Tensor element ends
 * the shape walk and is treated as one scalar (an n-d one later fails in __index__/__float__). */
static int
is_data_sequence(PyObject *obj)
{
    return !mt_Tensor_Check(obj) && PySequence_Check(obj);
}

/* Follows element 0 down while it is a sequence. sizes has room for TORCH_MAX_DIMS + 1. */
static int
compute_sizes(PyObject *data, int64_t *sizes, int *ndim)
{
    PyObject *seq = data;
    int n = 0;

    Py_INCREF(seq);
    while (is_data_sequence(seq)) {
        Py_ssize_t length = PySequence_Length(seq);
        PyObject *first;
        if (length < 0) {
            goto error;
        }
        sizes[n++] = (int64_t)length;
        if (n > TORCH_MAX_DIMS) {
            PyErr_Format(PyExc_ValueError, "too many dimensions '%s'", Py_TYPE(seq)->tp_name);
            goto error;
        }
        if (length == 0) {
            break;
        }
        first = PySequence_GetItem(seq, 0);
        if (first == NULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "could not determine the shape of object type '%s'",
                         Py_TYPE(seq)->tp_name);
            goto error;
        }
        Py_DECREF(seq);
        seq = first;
    }
    Py_DECREF(seq);
    *ndim = n;
    return 0;

error:
    Py_DECREF(seq);
    return -1;
}

static int infer_kind(PyObject *obj, int *out);

static int
infer_sequence_kind(PyObject *seq, int *out)
{
    Py_ssize_t length = PySequence_Length(seq);
    int float_kind = default_float_kind();
    int acc = -1;

    if (length < 0) {
        return -1;
    }
    if (length == 0) {
        /* NumPy's rule, with the default dtype in place of float64 */
        *out = default_float_kind();
        return 0;
    }
    if (Py_EnterRecursiveCall(" while inferring the dtype of tensor data")) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        PyObject *item;
        int k;
        int r;
        /* lists and tuples are read in place (a list that shrank meanwhile gets GetItem's IndexError) */
        if (PyList_CheckExact(seq) && i < PyList_GET_SIZE(seq)) {
            item = PyList_GET_ITEM(seq, i);
            Py_INCREF(item);
        }
        else if (PyTuple_CheckExact(seq)) {
            item = PyTuple_GET_ITEM(seq, i);
            Py_INCREF(item);
        }
        else {
            item = PySequence_GetItem(seq, i);
            if (item == NULL) {
                goto error;
            }
        }
        if (item == seq) {
            Py_DECREF(item);
            PyErr_SetString(PyExc_TypeError, "new(): self-referential lists are incompatible");
            goto error;
        }
        /* exact floats and ints, the bulk of real data, skip the full chain of checks */
        if (PyFloat_CheckExact(item)) {
            k = float_kind;
            r = 0;
        }
        else if (PyLong_CheckExact(item)) {
            k = KIND_INT64;
            r = 0;
        }
        else {
            r = infer_kind(item, &k);
        }
        Py_DECREF(item);
        if (r < 0) {
            goto error;
        }
        if (acc < 0) {
            acc = k;
        }
        else if (promote_kinds(acc, k, &acc) < 0) {
            goto error;
        }
        if (acc == KIND_COMPLEX128) {
            /* nothing promotes past it (torch stops here too) */
            break;
        }
    }
    Py_LeaveRecursiveCall();
    *out = acc;
    return 0;

error:
    Py_LeaveRecursiveCall();
    return -1;
}

/* torch's infer_scalar_type, in torch's order of checks. */
static int
infer_kind(PyObject *obj, int *out)
{
    if (PyFloat_CheckExact(obj)) {
        *out = default_float_kind();
        return 0;
    }
    if (PyLong_CheckExact(obj)) {
        *out = KIND_INT64;
        return 0;
    }
    if (PyBool_Check(obj)) {
        *out = KIND_BOOL;
        return 0;
    }
    /* before the float check: numpy.float64 is a float subclass but keeps its own dtype */
    if (is_ndarray(obj) || is_numpy_scalar(obj)) {
        return numpy_object_kind(obj, out);
    }
    if (PyFloat_Check(obj)) {
        *out = default_float_kind();
        return 0;
    }
    if (PyLong_Check(obj)) {
        *out = KIND_INT64;
        return 0;
    }
    if (PyComplex_Check(obj)) {
        *out = mt_default_float_dtype() == MT_FLOAT64 ? KIND_COMPLEX128 : KIND_COMPLEX64;
        return 0;
    }
    if (mt_Tensor_Check(obj)) {
        *out = kind_of_dtype(((mt_TensorObject *)obj)->dtype);
        return 0;
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PySequence_Check(obj)) {
        return infer_sequence_kind(obj, out);
    }
    PyErr_Format(PyExc_RuntimeError, "Could not infer dtype of %s", Py_TYPE(obj)->tp_name);
    return -1;
}

/* ---- storing elements (recursive_store, store_scalar) ----------------------------------------------- */

static int
overflow_error(mt_dtype dtype)
{
    return mt_value_overflow_error(mt_dtype_name(dtype));
}

/* c10::checked_convert<intN_t>(double): NaN and values outside [lowest, max] (compared in double) are
 * errors, and 2**63 itself passes the check and lands on INT64_MIN as torch's x86 build does. */
static int
double_to_integer(double v, mt_dtype dtype, int64_t *out)
{
    int64_t lo, hi;

    if (dtype != MT_INT64) {
        mt_dtype_int_range(dtype, &lo, &hi);
        if (isnan(v) || v < (double)lo || v > (double)hi) {
            return overflow_error(dtype);
        }
        *out = (int64_t)v;
        return 0;
    }
    if (isnan(v) || v < -9223372036854775808.0 || v > 9223372036854775807.0) {
        return overflow_error(dtype);
    }
    *out = v >= 9223372036854775808.0 ? INT64_MIN : (int64_t)v;
    return 0;
}

/* torch::utils::store_scalar for minitorch's dtypes, with the exact-type cases first for speed. */
static int
store_scalar(char *dst, mt_dtype dtype, PyObject *obj)
{
    switch (dtype) {
    case MT_FLOAT16:
    case MT_BFLOAT16:
    case MT_FLOAT32:
    case MT_FLOAT64: {
        double v;
        if (PyFloat_Check(obj)) {
            v = PyFloat_AS_DOUBLE(obj);
        }
        else {
            /* ints (OverflowError past 1e308), __float__, then __index__: "must be real number, not X" */
            v = PyFloat_AsDouble(obj);
            if (v == -1.0 && PyErr_Occurred()) {
                return -1;
            }
        }
        if (dtype == MT_FLOAT32) {
            *(float *)dst = (float)v;
        }
        else if (mt_dtype_is_reduced_floating(dtype)) {
            *(uint16_t *)dst = mt_float_to_reduced(dtype, (float)v);
        }
        else {
            *(double *)dst = v;
        }
        return 0;
    }
    case MT_UINT8:
    case MT_INT8:
    case MT_INT16:
    case MT_INT32:
    case MT_INT64: {
        int64_t v, lo, hi;
        /* unpackIntegral: floats are truncated after a range check, everything else needs __index__ */
        if (PyFloat_Check(obj)) {
            if (double_to_integer(PyFloat_AS_DOUBLE(obj), dtype, &v) < 0) {
                return -1;
            }
        }
        else {
            if (mt_unpack_long(obj, &v) < 0) {
                return -1;
            }
            if (dtype != MT_INT64) {
                /* c10's overflows(): a negative int wraps into uint8 down to -255 */
                mt_dtype_int_range(dtype, &lo, &hi);
                if (v > hi || v < (lo == 0 ? -hi : lo)) {
                    return overflow_error(dtype);
                }
            }
        }
        switch (dtype) {
        case MT_UINT8:
            *(uint8_t *)dst = (uint8_t)v;
            break;
        case MT_INT8:
            *(int8_t *)dst = (int8_t)v;
            break;
        case MT_INT16:
            *(int16_t *)dst = (int16_t)v;
            break;
        case MT_INT32:
            *(int32_t *)dst = (int32_t)v;
            break;
        default:
            *(int64_t *)dst = v;
            break;
        }
        return 0;
    }
    case MT_BOOL:
    default: {
        /* THPUtils_unpackNumberAsBool: an overflowing int is simply true */
        int overflow = 0;
        long long v;
        if (PyFloat_Check(obj)) {
            *(uint8_t *)dst = PyFloat_AS_DOUBLE(obj) != 0.0;
            return 0;
        }
        if (is_numpy_bool(obj)) {
            /* numpy.bool has no __index__; torch reads its truth value */
            int truth = PyObject_IsTrue(obj);
            if (truth < 0) {
                return -1;
            }
            *(uint8_t *)dst = (uint8_t)truth;
            return 0;
        }
        v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        *(uint8_t *)dst = (v != 0 || overflow != 0);
        return 0;
    }
    }
}

static const char list_of_ndarrays_warning[] =
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list "
    "to a single numpy.ndarray with numpy.array() before converting to a tensor.";

/* TORCH_WARN_ONCE: once per process */
static int warned_list_of_ndarrays = 0;

/* An element that converts without running Python code (no __float__ or __index__ to call). */
static int
is_plain_number(PyObject *obj)
{
    return PyFloat_CheckExact(obj) || PyLong_CheckExact(obj) || PyBool_Check(obj);
}

static int
store_recursive(char *data, const int64_t *sizes, const int64_t *strides, int ndim, int dim, mt_dtype dtype,
                PyObject *obj)
{
    PyObject *seq;
    PyObject *snapshot = NULL;
    PyObject **items;
    int64_t n;
    int own_list;

    if (dim == ndim) {
        return store_scalar(data, dtype, obj);
    }
    n = sizes[dim];
    /* for a Tensor this iterates its first dimension (a 0-d one is "not a sequence"), as in torch */
    seq = PySequence_Fast(obj, "not a sequence");
    if (seq == NULL) {
        return -1;
    }
    /* torch checks the length once, here, then reads the item array the list had at this moment. The
     * conversions below may run Python code (__index__, __float__, a nested sequence's __len__) that
     * changes the list: replacing an item in place is seen, as in torch, but a list emptied or regrown
     * meanwhile has had its item array freed, which torch goes on reading. Here the items are kept in a
     * snapshot, taken before the first Python code can run, and read from it once the list no longer
     * has that array. (A tuple cannot change; any other sequence was copied by PySequence_Fast.) */
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)", (long long)n, dim,
                     PySequence_Fast_GET_SIZE(seq));
        goto error;
    }
    items = PySequence_Fast_ITEMS(seq);
    own_list = seq == obj && PyList_Check(seq);
    for (int64_t i = 0; i < n; i++) {
        PyObject *item;
        int r;
        if (!own_list || (PySequence_Fast_ITEMS(seq) == items && i < PyList_GET_SIZE(seq))) {
            item = items[i];
        }
        else if (snapshot != NULL) {
            item = PyTuple_GET_ITEM(snapshot, i);
        }
        else {
            /* unreachable: the list cannot change before Python code runs, and the snapshot is taken
             * before any can */
            PyErr_SetString(PyExc_RuntimeError, "tensor(): the list changed while it was read");
            goto error;
        }
        if (own_list && snapshot == NULL && (dim + 1 < ndim || !is_plain_number(item))) {
            /* no Python code has run since the length check: the array is still the one it was */
            snapshot = PyList_AsTuple(seq);
            if (snapshot == NULL) {
                goto error;
            }
        }
        if (!warned_list_of_ndarrays && is_ndarray(item)) {
            warned_list_of_ndarrays = 1;
            Py_INCREF(item);
            r = mt_warn(PyExc_UserWarning, list_of_ndarrays_warning);
            Py_DECREF(item);
            if (r < 0) {
                goto error;
            }
            /* a warning filter is Python code too */
            if (own_list && !(PySequence_Fast_ITEMS(seq) == items && i < PyList_GET_SIZE(seq))) {
                item = PyTuple_GET_ITEM(snapshot, i);
            }
        }
        Py_INCREF(item);
        r = store_recursive(data + i * strides[dim], sizes, strides, ndim, dim + 1, dtype, item);
        Py_DECREF(item);
        if (r < 0) {
            goto error;
        }
    }
    Py_XDECREF(snapshot);
    Py_DECREF(seq);
    return 0;

error:
    Py_XDECREF(snapshot);
    Py_DECREF(seq);
    return -1;
}

/* ---- NumPy arrays (tensor_from_numpy) --------------------------------------------------------------- */

/* One element of a NumPy buffer as a scalar, read with memcpy because NumPy data may be unaligned. */
static mt_scalar
read_numpy_element(const char *p, int kind, mt_dtype target)
{
    mt_scalar s = {MT_INT64, {0}};
    switch (kind) {
    case KIND_BOOL: {
        uint8_t v;
        memcpy(&v, p, 1);
        s.kind = MT_BOOL;
        s.v.i = v != 0;
        break;
    }
    case KIND_UINT8: {
        uint8_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_INT8: {
        int8_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_INT16: {
        int16_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_UINT16: {
        uint16_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_INT32: {
        int32_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_UINT32: {
        uint32_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_INT64: {
        int64_t v;
        memcpy(&v, p, sizeof(v));
        s.v.i = v;
        break;
    }
    case KIND_UINT64: {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        if (mt_dtype_is_floating(target)) {
            /* keep values past 2**63 exact-ish for a float target instead of wrapping */
            s.kind = MT_FLOAT64;
            s.v.d = (double)v;
        }
        else {
            s.v.i = (int64_t)v;
        }
        break;
    }
    case KIND_FLOAT16: {
        uint16_t v;
        memcpy(&v, p, sizeof(v));
        s.kind = MT_FLOAT64;
        s.v.d = mt_half_to_float(v);
        break;
    }
    case KIND_FLOAT32: {
        float v;
        memcpy(&v, p, sizeof(v));
        s.kind = MT_FLOAT64;
        s.v.d = v;
        break;
    }
    default: {
        double v;
        memcpy(&v, p, sizeof(v));
        s.kind = MT_FLOAT64;
        s.v.d = v;
        break;
    }
    }
    return s;
}

/* A new CPU tensor with the array's values; checks in tensor_from_numpy's order. The geometry is what
 * NumPy records (never the instance's shape/strides/dtype attributes) and is checked like any geometry
 * from outside before it is read. */
static mt_TensorObject *
tensor_from_ndarray(PyObject *arr, const mt_dtype *dtype)
{
    mt_ndarray_fields f;
    PyObject *np_dtype = NULL;
    int kind;
    long itemsize;
    mt_dtype target;
    mt_TensorObject *result = NULL;
    mt_TensorObject *src = NULL;
    mt_storage *storage = NULL;

    if (mt_ndarray_fields_get(arr, &f) < 0) {
        goto error;
    }
    itemsize = f.itemsize;
    if (mt_ndarray_check_layout(&f, itemsize) < 0) {
        goto error;
    }
    np_dtype = mt_ndarray_dtype(arr);
    if (np_dtype == NULL || numpy_kind(f.kind, itemsize, np_dtype, &kind) < 0) {
        goto error;
    }
    if (dtype != NULL && kind != KIND_COMPLEX64 && kind != KIND_COMPLEX128) {
        target = *dtype;
    }
    else if (dtype_of_kind(kind, &target) < 0) {
        goto error;
    }
    {
        /* View the array's memory as a tensor (no release hook: the view lives only inside this call,
         * while the caller holds the array). The result keeps a dense permuted layout like torch's
         * .to(copy=True) (a transposed array gives a transposed tensor) and is compact otherwise. */
        int64_t elem_strides[MT_MAX_DIMS];
        size_t extent = 0;
        int64_t numel = 1;
        int direct = kinds[kind].dtype >= 0 && (uintptr_t)f.data % (uintptr_t)itemsize == 0;
        for (int i = 0; i < f.ndim; i++) {
            elem_strides[i] = f.strides[i] / itemsize;
        }
        if (mt_check_external_geometry(PyExc_ValueError, f.data, SIZE_MAX, 0, f.ndim, f.sizes, elem_strides,
                                       (size_t)itemsize, &extent) < 0) {
            goto error;
        }
        for (int i = 0; i < f.ndim; i++) {
            numel *= f.sizes[i];
        }
        storage = mt_storage_wrap(f.data, extent, mt_cpu_device(), NULL, NULL);
        if (storage == NULL) {
            goto error;
        }
        /* for a dtype minitorch lacks the view only carries the geometry, so its dtype is a stand-in */
        src = mt_tensor_from_storage(storage, f.ndim, f.sizes, elem_strides, 0,
                                     direct ? (mt_dtype)kinds[kind].dtype : target);
        if (src == NULL) {
            goto error;
        }
        if (direct) {
            /* the common case: copy.c converts and lays out */
            result = mt_copy_to(src, target, mt_cpu_device());
            if (result == NULL) {
                goto error;
            }
        }
        else {
            /* dtypes minitorch lacks, or unaligned data: convert element by element (memcpy reads) */
            int64_t index[MT_MAX_DIMS];
            size_t out_size = mt_dtype_size(target);
            char *out;
            result = mt_tensor_empty_preserving(src, target, mt_cpu_device());
            if (result == NULL) {
                goto error;
            }
            out = mt_tensor_data(result);
            memset(index, 0, sizeof(index));
            for (int64_t e = 0; e < numel; e++) {
                const char *p = (const char *)f.data;
                int64_t q = 0;
                for (int i = 0; i < f.ndim; i++) {
                    p += index[i] * f.strides[i];
                    q += index[i] * result->strides[i];
                }
                mt_scalar_store(read_numpy_element(p, kind, target), target, out + (size_t)q * out_size);
                for (int i = f.ndim - 1; i >= 0; i--) {
                    if (++index[i] < f.sizes[i]) {
                        break;
                    }
                    index[i] = 0;
                }
            }
        }
    }
    Py_XDECREF(src);
    mt_storage_decref(storage);
    Py_DECREF(np_dtype);
    return result;

error:
    Py_XDECREF(result);
    Py_XDECREF(src);
    if (storage != NULL) {
        mt_storage_decref(storage);
    }
    Py_XDECREF(np_dtype);
    return NULL;
}

/* ---- building a tensor from data -------------------------------------------------------------------- */

static mt_TensorObject *
tensor_from_sequence(PyObject *data, const mt_dtype *dtype)
{
    int64_t sizes[TORCH_MAX_DIMS + 1];
    int64_t strides[TORCH_MAX_DIMS + 1];
    int ndim = 0;
    mt_dtype target;
    mt_TensorObject *t;
    size_t itemsize;

    if (compute_sizes(data, sizes, &ndim) < 0) {
        return NULL;
    }
    if (dtype != NULL) {
        target = *dtype;
    }
    else {
        int kind;
        if (infer_kind(data, &kind) < 0 || dtype_of_kind(kind, &target) < 0) {
            return NULL;
        }
    }
    if (ndim > MT_MAX_DIMS) {
        mt_raise_too_many_dims(ndim);
        return NULL;
    }
    t = mt_tensor_empty(ndim, sizes, target, mt_cpu_device());
    if (t == NULL) {
        return NULL;
    }
    if (mt_tensor_numel(t) == 0) {
        /* torch stores nothing, so [[], [1]] is a (2, 0) tensor and never sees the ragged row */
        return t;
    }
    itemsize = mt_dtype_size(target);
    for (int i = 0; i < ndim; i++) {
        strides[i] = t->strides[i] * (int64_t)itemsize;
    }
    if (store_recursive(mt_tensor_data(t), sizes, strides, ndim, 0, target, data) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return t;
}

mt_TensorObject *
mt_tensor_from_data(PyObject *data, const mt_dtype *dtype)
{
    if (PyUnicode_Check(data) || PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (mt_Tensor_Check(data)) {
        mt_TensorObject *src = (mt_TensorObject *)data;
        return mt_copy_to(src, dtype != NULL ? *dtype : src->dtype, mt_cpu_device());
    }
    numpy_refresh();
    if (is_ndarray(data)) {
        return tensor_from_ndarray(data, dtype);
    }
    return tensor_from_sequence(data, dtype);
}

/* ---- minitorch.tensor ------------------------------------------------------------------------------- */

/* %s: how the tensor was constructed (torch.tensor, or tensor.new_tensor) */
static const char copy_construct_warning[] =
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than %s(sourceTensor).";

/* pin_memory=True: pinned host memory needs an accelerator, as in torch. Pinning itself belongs to
 * Tensor.pin_memory(); while no pinned allocator exists the tensor stays pageable, as the factories'
 * pin_memory= does (the values and the device are the same either way). */
static mt_TensorObject *
pin_host_tensor(mt_TensorObject *t)
{
    PyObject *pinned;
    if (mt_cuda_device_count() == 0) {
#ifdef MINITORCH_WITH_CUDA
        /* torch's CUDA build initialises CUDA to pin: without a usable GPU, that error */
        if (mt_cuda_lazy_init() < 0) {
            return NULL;
        }
#endif
        PyErr_SetString(PyExc_RuntimeError,
                        "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
                        "is available on this system.");
        return NULL;
    }
    if (PyObject_HasAttrString((PyObject *)Py_TYPE(t), "pin_memory") == 0) {
        Py_INCREF(t);
        return t;
    }
    pinned = PyObject_CallMethod((PyObject *)t, "pin_memory", NULL);
    if (pinned != NULL && !mt_Tensor_Check(pinned)) {
        Py_DECREF(pinned);
        PyErr_SetString(PyExc_TypeError, "Tensor.pin_memory() did not return a Tensor");
        return NULL;
    }
    return (mt_TensorObject *)pinned;
}

/* The device layer's resolution; "cpu:0" and "cpu" are the same place for a tensor. */
static int
resolve_device(mt_device requested, mt_device *out)
{
    if (mt_device_resolve(requested, out) < 0) {
        return -1;
    }
    if (out->type == MT_DEVICE_CPU) {
        *out = mt_cpu_device();
    }
    return 0;
}

PyObject *
mt_tensor_new(PyObject *data, mt_dtype dtype, int has_device, mt_device device, int pin_memory, int requires_grad,
              int new_tensor)
{
    int have_dtype = dtype != MT_NUM_DTYPES;
    mt_TensorObject *result = NULL;
    mt_TensorObject *moved = NULL;

    if (mt_Tensor_Check(data)) {
        mt_TensorObject *src = (mt_TensorObject *)data;
        mt_device target = mt_tensor_device(src);
        if (mt_warn_format(PyExc_UserWarning, copy_construct_warning,
                           new_tensor ? "tensor.new_tensor" : "torch.tensor") < 0) {
            return NULL;
        }
        if (pin_memory) {
            PyErr_SetString(PyExc_RuntimeError, "Can't pin tensor constructed from a variable");
            return NULL;
        }
        /* a tensor stays on its own device unless one is asked for; the copy is always made */
        if (has_device && resolve_device(device, &target) < 0) {
            return NULL;
        }
        result = mt_copy_to(src, have_dtype ? dtype : src->dtype, target);
        if (result == NULL) {
            return NULL;
        }
    }
    else {
        numpy_refresh();
        if (pin_memory && is_ndarray(data)) {
            PyErr_SetString(PyExc_RuntimeError, "Can't pin tensor constructed from numpy");
            return NULL;
        }
        result = mt_tensor_from_data(data, have_dtype ? &dtype : NULL);
        if (result == NULL) {
            return NULL;
        }
        if (pin_memory) {
            mt_TensorObject *pinned = pin_host_tensor(result);
            Py_DECREF(result);
            result = pinned;
            if (result == NULL) {
                return NULL;
            }
        }
        /* torch builds on the CPU, then initialises the device (lazily, with its errors) and moves */
        if (has_device) {
            mt_device target;
            if (resolve_device(device, &target) < 0) {
                goto error;
            }
            if (!mt_device_equal(target, mt_tensor_device(result))) {
                moved = mt_copy_to(result, result->dtype, target);
                if (moved == NULL) {
                    goto error;
                }
                Py_DECREF(result);
                result = moved;
            }
        }
    }
    if (requires_grad && !mt_dtype_is_floating(result->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        goto error;
    }
    result->requires_grad = requires_grad;
    return (PyObject *)result;

error:
    Py_XDECREF(result);
    return NULL;
}

/* ---- tolist ---------------------------------------------------------------------------------------- */

/* The innermost dimension: one loop per dtype so the switch is not paid per element. */
static int
fill_row(PyObject *list, const char *p, int64_t n, int64_t step, mt_dtype dtype)
{
    PyObject *v;
    switch (dtype) {
    case MT_BOOL:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = *(const uint8_t *)p ? Py_True : Py_False;
            Py_INCREF(v);
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_UINT8:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyLong_FromLong((long)*(const uint8_t *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_INT8:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyLong_FromLong((long)*(const int8_t *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_INT16:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyLong_FromLong((long)*(const int16_t *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_INT32:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyLong_FromLong((long)*(const int32_t *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_INT64:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyLong_FromLongLong((long long)*(const int64_t *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_FLOAT32:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyFloat_FromDouble((double)*(const float *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyFloat_FromDouble((double)mt_reduced_to_float(dtype, *(const uint16_t *)p));
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    default:
        for (int64_t i = 0; i < n; i++, p += step) {
            v = PyFloat_FromDouble(*(const double *)p);
            if (v == NULL) {
                return -1;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
        }
        return 0;
    }
}

/* One pass over a strided host tensor; strides in bytes. A list left partly filled on error holds
 * NULL slots, which list deallocation tolerates. */
static PyObject *
tolist_recursive(const char *data, mt_dtype dtype, int ndim, const int64_t *sizes, const int64_t *strides, int dim)
{
    PyObject *list;
    int64_t n;

    if (dim == ndim) {
        return mt_element_to_object(data, dtype);
    }
    n = sizes[dim];
    list = PyList_New((Py_ssize_t)n);
    if (list == NULL) {
        return NULL;
    }
    if (dim == ndim - 1) {
        if (fill_row(list, data, n, strides[dim], dtype) < 0) {
            goto error;
        }
        return list;
    }
    for (int64_t i = 0; i < n; i++) {
        PyObject *child = tolist_recursive(data + i * strides[dim], dtype, ndim, sizes, strides, dim + 1);
        if (child == NULL) {
            goto error;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, child);
    }
    return list;

error:
    Py_DECREF(list);
    return NULL;
}

PyObject *
mt_tensor_tolist(mt_TensorObject *t)
{
    int64_t strides[MT_MAX_DIMS];
    size_t itemsize = mt_dtype_size(t->dtype);
    mt_TensorObject *host = mt_host_readable(t);
    PyObject *result;

    if (host == NULL) {
        return NULL;
    }
    for (int i = 0; i < host->ndim; i++) {
        /* a dim of size 1 may carry any stride (x[0:1:2**62]); it is never stepped, and its byte stride
         * would overflow */
        strides[i] = host->sizes[i] > 1 ? host->strides[i] * (int64_t)itemsize : 0;
    }
    result = tolist_recursive(mt_tensor_data(host), host->dtype, host->ndim, host->sizes, strides, 0);
    Py_DECREF(host);
    return result;
}

static PyObject *
tensor_tolist(mt_TensorObject *self, PyObject *unused)
{
    return mt_tensor_tolist(self);
}

static PyObject *
tensor_item(mt_TensorObject *self, PyObject *unused)
{
    return mt_tensor_item(self);
}

PyMethodDef mt_tensor_data_methods[] = {
    {"tolist", (PyCFunction)tensor_tolist, METH_NOARGS,
     "tolist() -> list or number\n\nThe values as nested lists of Python numbers (a number for a 0-d tensor)."},
    {"item", (PyCFunction)tensor_item, METH_NOARGS,
     "item() -> number\n\nThe value of a one-element tensor as a Python bool, int or float."},
    {NULL},
};

