/* interop.c: zero-copy exchange of tensor memory with other libraries: NumPy (Tensor.numpy, __array__,
 * __array_wrap__, from_numpy), DLPack (Tensor.__dlpack__, __dlpack_device__, from_dlpack, to_dlpack)
 * and the buffer protocol (memoryview(t)). Every path shares memory instead of copying it and ties the
 * lifetimes together: an exported array or capsule holds a reference on the tensor's storage, and an
 * imported one becomes a storage whose release hook gives the memory back to its owner (Py_DECREF of
 * the array, or the DLPack deleter), taking the GIL first. Messages and check order follow torch
 * (torch/csrc/utils/tensor_numpy.cpp, torch/_tensor.py, torch/utils/dlpack.py). NumPy is never
 * imported here except by Tensor.numpy() and __array__ themselves, which must return arrays; an
 * ndarray is recognised only when numpy is already in sys.modules. The simulated GPU never takes part
 * in DLPack: its "device" memory is host memory, and describing it as kDLCUDA would be a lie that a
 * consumer would act on. This file computes nothing on tensor data; copies go through ops/copy.c. */
#include "interop.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../autograd/autograd.h"
#include "../core/devices.h"
#include "../core/warn.h"
#include "../ops/copy.h"
#include "../ops/dispatch.h"
#include "argparse.h"
#include "dlpack_abi.h"

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* The dtypes minitorch has, in the order torch lists its own in from_numpy's TypeError. */
#define SUPPORTED_TYPES "float64, float32, float16, int64, int32, int16, int8, uint8, and bool"

#if PY_BIG_ENDIAN
#define NATIVE_ORDER '>'
#else
#define NATIVE_ORDER '<'
#endif

/* ---- dtypes as the other libraries name them ---------------------------------------------------- */

/* The buffer-protocol format (struct module codes) of each dtype. */
static const char *
buffer_format(mt_dtype d)
{
    switch (d) {
    case MT_BOOL:
        return "?";
    case MT_UINT8:
        return "B";
    case MT_INT8:
        return "b";
    case MT_INT16:
        return "h";
    case MT_INT32:
        return "i";
    case MT_INT64:
        return "q";
    case MT_FLOAT32:
        return "f";
    case MT_FLOAT16:
        return "e";
    case MT_BFLOAT16:
        return "H"; /* no struct code has bfloat16: its bits */
    default:
        return "d";
    }
}

/* NumPy's array-interface type string: "<f4", "|b1", ... */
static void
numpy_typestr(mt_dtype d, char *buf)
{
    size_t size = mt_dtype_size(d);
    buf[0] = size == 1 ? '|' : NATIVE_ORDER;
    buf[1] = d == MT_BOOL ? 'b' : d == MT_UINT8 ? 'u' : mt_dtype_is_floating(d) ? 'f' : 'i';
    buf[2] = (char)('0' + size);
    buf[3] = '\0';
}

static DLDataType
dlpack_dtype(mt_dtype d)
{
    DLDataType t;
    t.code = d == MT_BOOL ? kDLBool : d == MT_UINT8 ? kDLUInt : d == MT_BFLOAT16 ? kDLBfloat
             : mt_dtype_is_floating(d) ? kDLFloat : kDLInt;
    t.bits = (uint8_t)(8 * mt_dtype_size(d));
    t.lanes = 1;
    return t;
}

/* The minitorch dtype of a DLPack element type; -1 with a BufferError when there is none. */
static int
dtype_from_dlpack(DLDataType t, mt_dtype *out)
{
    static const char *const code_names[] = {"int", "uint", "float", "opaque handle ", "bfloat", "complex", "bool"};
    if (t.lanes != 1) {
        PyErr_Format(PyExc_BufferError, "minitorch does not support DLPack vector types (lanes=%u)",
                     (unsigned)t.lanes);
        return -1;
    }
    if (t.code == kDLBool && t.bits == 8) {
        *out = MT_BOOL;
        return 0;
    }
    if (t.code == kDLInt && (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) {
        *out = t.bits == 8 ? MT_INT8 : t.bits == 16 ? MT_INT16 : t.bits == 32 ? MT_INT32 : MT_INT64;
        return 0;
    }
    if (t.code == kDLUInt && t.bits == 8) {
        *out = MT_UINT8;
        return 0;
    }
    if (t.code == kDLFloat && (t.bits == 16 || t.bits == 32 || t.bits == 64)) {
        *out = t.bits == 16 ? MT_FLOAT16 : t.bits == 32 ? MT_FLOAT32 : MT_FLOAT64;
        return 0;
    }
    if (t.code == kDLBfloat && t.bits == 16) {
        *out = MT_BFLOAT16;
        return 0;
    }
    if (t.code < sizeof(code_names) / sizeof(code_names[0])) {
        PyErr_Format(PyExc_BufferError,
                     "can't convert a DLPack tensor of type %s%u. The only supported types are: " SUPPORTED_TYPES ".",
                     code_names[t.code], (unsigned)t.bits);
    }
    else {
        PyErr_Format(PyExc_BufferError,
                     "can't convert a DLPack tensor of type code %u (%u bits). The only supported types are: "
                     SUPPORTED_TYPES ".",
                     (unsigned)t.code, (unsigned)t.bits);
    }
    return -1;
}

/* ---- NumPy without importing it ------------------------------------------------------------------- */

/* numpy.ndarray itself (borrowed), or NULL while numpy is not imported. Only a static type passes: the
 * real ndarray is one, and what it records about an array cannot be redefined from Python. Kept once
 * found (a static type is never freed), so that `t == x` pays nothing for asking. */
static PyTypeObject *
ndarray_type(void)
{
    static PyTypeObject *found = NULL;
    PyObject *np;
    PyObject *ndarray;

    if (found != NULL) {
        return found;
    }
    np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy"); /* borrowed */
    if (np == NULL) {
        return NULL;
    }
    ndarray = PyObject_GetAttrString(np, "ndarray");
    if (ndarray == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (PyType_Check(ndarray) && !(((PyTypeObject *)ndarray)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        found = (PyTypeObject *)ndarray; /* keeps the reference */
        return found;
    }
    Py_DECREF(ndarray);
    return NULL;
}

int
mt_is_ndarray(PyObject *obj)
{
    PyTypeObject *ndarray = ndarray_type();
    return ndarray != NULL && PyObject_TypeCheck(obj, ndarray);
}

/* NumPy's PyArrayInterface, the C side of the array interface protocol (a stable, documented layout). */
typedef struct {
    int two;
    int nd;
    char typekind;
    int itemsize;
    int flags;
    Py_intptr_t *shape;
    Py_intptr_t *strides;
    void *data;
    PyObject *descr;
} numpy_array_interface;

#define NUMPY_NOTSWAPPED 0x0200
#define NUMPY_WRITEABLE 0x0400

/* `name` of numpy.ndarray, read through ndarray's own descriptor (never the instance's type, whose
 * class may redefine it). New reference. */
static PyObject *
ndarray_own_attribute(PyTypeObject *ndarray, PyObject *array, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)ndarray, name);
    PyObject *value = NULL;

    if (descr == NULL) {
        return NULL;
    }
    if (!Py_IS_TYPE(descr, &PyGetSetDescr_Type) || Py_TYPE(descr)->tp_descr_get == NULL) {
        PyErr_Format(PyExc_TypeError, "numpy.ndarray.%s is not NumPy's own descriptor", name);
    }
    else {
        value = Py_TYPE(descr)->tp_descr_get(descr, array, (PyObject *)Py_TYPE(array));
    }
    Py_DECREF(descr);
    return value;
}

int
mt_ndarray_fields_get(PyObject *array, mt_ndarray_fields *out)
{
    /* torch reads PyArray_DIMS, PyArray_STRIDES, PyArray_DATA and the descr of the array; a subclass's
     * shape/strides/dtype/__array_interface__ properties change none of them. Neither does this: it reads
     * the same fields through numpy.ndarray's own __array_struct__ (and flags, for what torch's
     * PyArray_ISWRITEABLE sees), never an instance attribute. */
    PyTypeObject *ndarray = ndarray_type();
    PyObject *capsule = NULL, *flags = NULL, *num = NULL;
    numpy_array_interface *inter;
    long flag_bits;
    int r = -1;

    if (ndarray == NULL || !PyObject_TypeCheck(array, ndarray)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(array)->tp_name);
        return -1;
    }
    capsule = ndarray_own_attribute(ndarray, array, "__array_struct__");
    if (capsule == NULL) {
        goto done;
    }
    inter = PyCapsule_CheckExact(capsule) ? PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)) : NULL;
    if (inter == NULL || inter->two != 2 || PyCapsule_GetContext(capsule) != array) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "numpy array's __array_struct__ is not NumPy's");
        goto done;
    }
    if (inter->nd < 0 || inter->nd > MT_MAX_DIMS) {
        mt_raise_too_many_dims(inter->nd);
        goto done;
    }
    out->ndim = inter->nd;
    for (int i = 0; i < inter->nd; i++) {
        out->sizes[i] = (int64_t)inter->shape[i];
    }
    if (inter->nd > 0 && inter->strides == NULL) {
        /* the protocol's "C-contiguous" */
        int64_t stride = inter->itemsize;
        for (int i = inter->nd - 1; i >= 0; i--) {
            out->strides[i] = stride;
            stride = (int64_t)((uint64_t)stride * (uint64_t)out->sizes[i]); /* checked later, as a geometry */
        }
    }
    else {
        for (int i = 0; i < inter->nd; i++) {
            out->strides[i] = (int64_t)inter->strides[i];
        }
    }
    out->kind = inter->typekind;
    out->itemsize = inter->itemsize;
    out->native = (inter->flags & NUMPY_NOTSWAPPED) != 0;
    out->data = inter->data;
    /* __array_struct__ exports a warn-on-write array as read-only; the flags say what torch sees */
    flags = ndarray_own_attribute(ndarray, array, "flags");
    num = flags != NULL ? PyObject_GetAttrString(flags, "num") : NULL;
    flag_bits = num != NULL ? PyLong_AsLong(num) : -1;
    if (flag_bits == -1 && PyErr_Occurred()) {
        goto done;
    }
    out->writeable = (flag_bits & NUMPY_WRITEABLE) != 0;
    r = 0;

done:
    Py_XDECREF(capsule);
    Py_XDECREF(flags);
    Py_XDECREF(num);
    return r;
}

int
mt_ndarray_check_layout(const mt_ndarray_fields *f, int64_t itemsize)
{
    for (int i = 0; i < f->ndim; i++) {
        if (itemsize > 0 && f->strides[i] % itemsize != 0) {
            PyErr_SetString(PyExc_ValueError,
                            "given numpy array strides not a multiple of the element byte size. Copy the numpy "
                            "array to reallocate the memory.");
            return -1;
        }
    }
    for (int i = 0; i < f->ndim; i++) {
        if (f->strides[i] < 0) {
            PyErr_SetString(PyExc_ValueError,
                            "At least one stride in the given numpy array is negative, and tensors with negative "
                            "strides are not currently supported. (You can probably work around this by making a "
                            "copy of your array  with array.copy().) ");
            return -1;
        }
    }
    if (!f->native) {
        PyErr_SetString(PyExc_ValueError,
                        "given numpy array has byte order different from the native byte order. Conversion "
                        "between byte orders is currently not supported.");
        return -1;
    }
    return 0;
}

PyObject *
mt_ndarray_dtype(PyObject *array)
{
    PyTypeObject *ndarray = ndarray_type();
    if (ndarray == NULL || !PyObject_TypeCheck(array, ndarray)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(array)->tp_name);
        return NULL;
    }
    return ndarray_own_attribute(ndarray, array, "dtype");
}

/* The name torch gives a NumPy dtype in its messages: its scalar type, numpy.uint16 or numpy.str_. */
const char *
mt_numpy_dtype_name(PyObject *np_dtype, PyObject **keep)
{
    PyObject *type_obj = PyObject_GetAttrString(np_dtype, "type");
    *keep = type_obj;
    if (type_obj == NULL) {
        return NULL;
    }
    return PyType_Check(type_obj) ? ((PyTypeObject *)type_obj)->tp_name : Py_TYPE(type_obj)->tp_name;
}

/* Releases a storage wrapping memory owned by a Python object (an ndarray): drops the reference. The
 * last tensor may go away on any thread that holds a tensor, so the GIL is taken here. */
static void
release_python_owner(mt_storage *s)
{
    PyGILState_STATE gil;
    if (!Py_IsInitialized()) {
        return; /* interpreter gone: the memory went with it */
    }
    gil = PyGILState_Ensure();
    Py_XDECREF((PyObject *)s->ctx);
    PyGILState_Release(gil);
}

/* The minitorch dtype of an array's element kind and size, or -1 with torch's TypeError naming
 * minitorch's dtypes (and NumPy's scalar type: numpy.uint16, numpy.str_, numpy.object_). */
static int
dtype_from_numpy(PyObject *array, char kind, int itemsize, mt_dtype *out)
{
    PyObject *np_dtype, *keep = NULL;
    const char *name;

    if (kind == 'b' && itemsize == 1) {
        *out = MT_BOOL;
        return 0;
    }
    if (kind == 'i' && (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8)) {
        *out = itemsize == 1 ? MT_INT8 : itemsize == 2 ? MT_INT16 : itemsize == 4 ? MT_INT32 : MT_INT64;
        return 0;
    }
    if (kind == 'u' && itemsize == 1) {
        *out = MT_UINT8;
        return 0;
    }
    if (kind == 'f' && (itemsize == 2 || itemsize == 4 || itemsize == 8)) {
        *out = itemsize == 2 ? MT_FLOAT16 : itemsize == 4 ? MT_FLOAT32 : MT_FLOAT64;
        return 0;
    }
    np_dtype = mt_ndarray_dtype(array);
    name = np_dtype != NULL ? mt_numpy_dtype_name(np_dtype, &keep) : NULL;
    if (name != NULL) {
        PyErr_Format(PyExc_TypeError,
                     "can't convert np.ndarray of type %s. The only supported types are: " SUPPORTED_TYPES ".", name);
    }
    Py_XDECREF(np_dtype);
    Py_XDECREF(keep);
    return -1;
}

int
mt_raise_for_numpy_dtype_gap(PyObject *array)
{
    /* the dtypes torch.from_numpy converts (numpy_dtype_to_aten) that minitorch has not */
    mt_ndarray_fields f;
    PyObject *np_dtype, *keep = NULL;
    const char *name;
    int gap;

    if (!mt_is_ndarray(array)) {
        return 0;
    }
    if (mt_ndarray_fields_get(array, &f) < 0) {
        return -1;
    }
    switch (f.kind) {
    case 'u':
        gap = f.itemsize == 2 || f.itemsize == 4 || f.itemsize == 8;
        break;
    case 'c':
        gap = f.itemsize == 8 || f.itemsize == 16;
        break;
    default:
        gap = 0;
        break;
    }
    if (!gap) {
        return 0;
    }
    np_dtype = mt_ndarray_dtype(array);
    name = np_dtype != NULL ? mt_numpy_dtype_name(np_dtype, &keep) : NULL;
    if (name != NULL) {
        /* NotImplementedError: torch would make a tensor of it (README, Known differences) */
        PyErr_Format(PyExc_NotImplementedError,
                     "can't convert np.ndarray of type %s, which minitorch does not support. The only supported "
                     "types are: " SUPPORTED_TYPES ".",
                     name);
    }
    Py_XDECREF(np_dtype);
    Py_XDECREF(keep);
    return name != NULL ? 1 : -1;
}

/* torch warns once per process (TORCH_WARN_ONCE) when it shares a read-only array's memory. */
static int readonly_warned = 0;

static int
warn_not_writeable(void)
{
    if (readonly_warned) {
        return 0;
    }
    readonly_warned = 1;
    return mt_warn(PyExc_UserWarning,
                   "The given NumPy array is not writable, and minitorch does not support non-writable tensors. This "
                   "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                   "to protect its data or make it writable before converting it to a tensor. This type of warning "
                   "will be suppressed for the rest of this program.");
}

mt_storage *
mt_storage_adopt(mt_storage *wrapped, size_t itemsize)
{
    /* Memory from outside at an address that is not a multiple of its element size (a NumPy view at a
     * byte offset, a capsule's byte_offset) cannot be read in place: every kernel, host or CUDA, loads
     * whole elements, which is undefined behaviour in C there and faults on the GPU. torch shares such
     * memory; minitorch copies the bytes the view spans into aligned storage of its own (README, Known
     * differences), so values, shape and strides are the same and only the sharing is lost. */
    mt_storage *copy;

    if ((uintptr_t)wrapped->data % (uintptr_t)(itemsize ? itemsize : 1) == 0) {
        mt_storage_incref(wrapped);
        return wrapped;
    }
    copy = mt_storage_new(wrapped->nbytes, wrapped->device);
    if (copy == NULL) {
        return NULL;
    }
    if (mt_memcpy(copy->data, copy->device, NULL, wrapped->data, wrapped->device, NULL, wrapped->nbytes) < 0) {
        mt_storage_decref(copy);
        return NULL;
    }
    return copy;
}

mt_TensorObject *
mt_tensor_from_numpy(PyObject *array)
{
    mt_ndarray_fields f;
    mt_dtype dtype;
    int64_t itemsize;
    size_t extent;
    mt_storage *wrapped, *storage;
    mt_TensorObject *t;

    if (!mt_is_ndarray(array)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(array)->tp_name);
        return NULL;
    }
    if (mt_ndarray_fields_get(array, &f) < 0) {
        return NULL;
    }
    if (!f.writeable && warn_not_writeable() < 0) {
        return NULL;
    }
    /* torch 2.13's order: dtype, stride multiples, negative strides, byte order */
    if (dtype_from_numpy(array, f.kind, f.itemsize, &dtype) < 0) {
        return NULL;
    }
    itemsize = (int64_t)mt_dtype_size(dtype);
    if (mt_ndarray_check_layout(&f, itemsize) < 0) {
        return NULL;
    }
    for (int i = 0; i < f.ndim; i++) {
        f.strides[i] /= itemsize;
    }
    /* NumPy keeps its fields consistent, but np.lib.stride_tricks.as_strided writes whatever it is told */
    if (mt_check_external_geometry(PyExc_ValueError, f.data, SIZE_MAX, 0, f.ndim, f.sizes, f.strides,
                                   (size_t)itemsize, &extent) < 0) {
        return NULL;
    }
    /* the storage keeps the array, and so its memory, alive */
    wrapped = mt_storage_wrap(f.data, extent, mt_cpu_device(), release_python_owner, array);
    if (wrapped == NULL) {
        return NULL;
    }
    Py_INCREF(array);
    storage = mt_storage_adopt(wrapped, (size_t)itemsize);
    mt_storage_decref(wrapped);
    if (storage == NULL) {
        return NULL;
    }
    t = mt_tensor_from_storage(storage, f.ndim, f.sizes, f.strides, 0, dtype);
    mt_storage_decref(storage);
    return t;
}

/* ---- torch.frombuffer: memory of any object with the buffer protocol ---------------------------------- */

/* Releases a storage over a Py_buffer (ctx: the view, heap-allocated), with the GIL, as release_python_owner. */
static void
release_buffer_view(mt_storage *s)
{
    PyGILState_STATE gil;
    if (!Py_IsInitialized()) {
        return;
    }
    gil = PyGILState_Ensure();
    PyBuffer_Release((Py_buffer *)s->ctx);
    PyGILState_Release(gil);
    PyMem_RawFree(s->ctx);
}

static int buffer_readonly_warned = 0;

/* _C._frombuffer(buffer, dtype, count, offset): torch.frombuffer below its signature (minitorch/_composite.py
 * parses it; asarray of a buffer comes here too). A 1-d CPU tensor over `count` elements of the buffer's
 * memory from byte `offset` (count -1: all that follow), which the tensor keeps alive; torch's checks, in
 * its order and words. A read-only buffer is shared too, after torch's once-per-process warning. */
static PyObject *
function_frombuffer(PyObject *module, PyObject *args)
{
    PyObject *obj, *dtype_obj;
    long long count, offset, len, elsize, actual;
    mt_dtype dtype;
    Py_buffer *view;
    mt_storage *wrapped, *storage;
    mt_TensorObject *t = NULL;
    int64_t size, stride = 1;

    (void)module;
    if (!PyArg_ParseTuple(args, "OOLL:_frombuffer", &obj, &dtype_obj, &count, &offset) ||
        mt_dtype_from_object(dtype_obj, &dtype) < 0) {
        return NULL;
    }
    /* (a minitorch tensor exports its memory, which torch's does not: torch refuses one here) */
    if (!PyObject_CheckBuffer(obj) || mt_Tensor_Check(obj)) {
        PyErr_SetString(PyExc_ValueError, "object does not implement Python buffer protocol.");
        return NULL;
    }
    view = PyMem_RawMalloc(sizeof(Py_buffer));
    if (view == NULL) {
        return PyErr_NoMemory();
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
            PyErr_Clear();
            PyMem_RawFree(view);
            PyErr_SetString(PyExc_RuntimeError, "could not retrieve buffer from object");
            return NULL;
        }
        if (!buffer_readonly_warned) {
            buffer_readonly_warned = 1;
            if (mt_warn(PyExc_UserWarning,
                        "The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
                        "means you can write to the underlying (supposedly non-writable) buffer using the tensor. "
                        "You may want to copy the buffer to protect its data or make it writable before converting "
                        "it to a tensor. This type of warning will be suppressed for the rest of this program.") < 0) {
                goto fail;
            }
        }
    }
    len = (long long)view->len;
    elsize = (long long)mt_dtype_size(dtype);
    if (len <= 0 || count == 0) {
        PyErr_Format(PyExc_ValueError, "both buffer length (%lld) and count (%lld) must not be 0", len, count);
        goto fail;
    }
    if (offset < 0 || offset >= len) {
        PyErr_Format(PyExc_ValueError,
                     "offset (%lld bytes) must be non-negative and no greater than buffer length (%lld bytes) minus 1",
                     offset, len);
        goto fail;
    }
    if (count < 0 && (len - offset) % elsize != 0) {
        PyErr_Format(PyExc_ValueError,
                     "buffer length (%lld bytes) after offset (%lld bytes) must be a multiple of element size (%lld)",
                     len - offset, offset, elsize);
        goto fail;
    }
    actual = count < 0 ? (len - offset) / elsize : count;
    if (actual > (len - offset) / elsize) {
        PyErr_Format(PyExc_ValueError,
                     "requested buffer length (%lld * %lld bytes) after offset (%lld bytes) must not be greater than "
                     "actual buffer length (%lld bytes)", actual, elsize, offset, len);
        goto fail;
    }
    wrapped = mt_storage_wrap((char *)view->buf + offset, (size_t)(actual * elsize), mt_cpu_device(),
                              release_buffer_view, view);
    if (wrapped == NULL) {
        goto fail;
    }
    /* the view is the storage's from here on */
    storage = mt_storage_adopt(wrapped, (size_t)elsize);
    mt_storage_decref(wrapped);
    if (storage != NULL) {
        size = actual;
        t = mt_tensor_from_storage(storage, 1, &size, &stride, 0, dtype);
        mt_storage_decref(storage);
    }
    return (PyObject *)t;

fail:
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    return NULL;
}

/* The base object of arrays made by Tensor.numpy(): it holds the tensor's storage and describes the
 * view through NumPy's array interface, so numpy.asarray(owner) wraps the memory without copying. */
typedef struct {
    PyObject_HEAD
    mt_storage *storage;
    PyObject *interface;    /* the __array_interface__ dict */
} ArrayOwnerObject;

static void
array_owner_dealloc(ArrayOwnerObject *self)
{
    Py_XDECREF(self->interface);
    if (self->storage != NULL) {
        mt_storage_unexport(self->storage);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
array_owner_interface_get(ArrayOwnerObject *self, void *closure)
{
    if (self->interface == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__array_interface__");
        return NULL;
    }
    Py_INCREF(self->interface);
    return self->interface;
}

static PyGetSetDef array_owner_getset[] = {
    {"__array_interface__", (getter)array_owner_interface_get, NULL,
     "NumPy's description of the shared memory (shape, strides, typestr, data).", NULL},
    {NULL},
};

static PyTypeObject ArrayOwnerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch._C._TensorMemory",
    .tp_basicsize = sizeof(ArrayOwnerObject),
    .tp_dealloc = (destructor)array_owner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keeps a tensor's memory alive for the NumPy arrays that view it (their .base).",
    .tp_getset = array_owner_getset,
};

static PyObject *
int64_tuple(int n, const int64_t *values, int64_t scale)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        /* in unsigned arithmetic: a dim of size 1 may carry any stride (x[0:1:2**62]), whose byte stride
         * wraps as in torch's tensor_to_numpy; NumPy never steps along it */
        PyObject *v = PyLong_FromLongLong((long long)((uint64_t)values[i] * (uint64_t)scale));
        if (v == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, v);
    }
    return tuple;
}

static PyObject *
import_numpy(void)
{
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL && PyErr_ExceptionMatches(PyExc_ImportError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_RuntimeError, "Numpy is not available");
    }
    return np;
}

PyObject *
mt_tensor_to_numpy(mt_TensorObject *t, int force)
{
    static int owner_ready = 0;
    mt_device device = mt_tensor_device(t);
    mt_TensorObject *host = NULL;
    ArrayOwnerObject *owner = NULL;
    PyObject *np = NULL;
    PyObject *shape = NULL, *strides = NULL;
    PyObject *result = NULL;
    char typestr[4];

    if (!force) {
        if (device.type != MT_DEVICE_CPU) {
            char name[32];
            mt_device_format(device, name, sizeof(name));
            PyErr_Format(PyExc_TypeError,
                         "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                         "host memory first.",
                         name);
            return NULL;
        }
        if (mt_requires_grad(t)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
            return NULL;
        }
    }
    if (t->dtype == MT_BFLOAT16) {
        /* NumPy has no bfloat16 */
        PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
        return NULL;
    }
    np = import_numpy();
    if (np == NULL) {
        return NULL;
    }
    if (!owner_ready) {
        if (PyType_Ready(&ArrayOwnerType) < 0) {
            goto error;
        }
        owner_ready = 1;
    }
    /* force=True: torch's tensor.detach().cpu(), which shares a CPU tensor's memory */
    if (device.type == MT_DEVICE_CPU) {
        Py_INCREF(t);
        host = t;
    }
    else {
        host = mt_copy_to(t, t->dtype, mt_cpu_device());
        if (host == NULL) {
            goto error;
        }
    }
    owner = PyObject_New(ArrayOwnerObject, &ArrayOwnerType);
    if (owner == NULL) {
        goto error;
    }
    owner->storage = host->storage;
    mt_storage_export(owner->storage);
    owner->interface = NULL;
    numpy_typestr(host->dtype, typestr);
    shape = int64_tuple(host->ndim, host->sizes, 1);
    strides = int64_tuple(host->ndim, host->strides, (int64_t)mt_dtype_size(host->dtype));
    if (shape == NULL || strides == NULL) {
        goto error;
    }
    owner->interface = Py_BuildValue("{s:O,s:O,s:s,s:(NO),s:i}", "shape", shape, "strides", strides, "typestr",
                                     typestr, "data", PyLong_FromVoidPtr(mt_tensor_data(host)), Py_False,
                                     "version", 3);
    if (owner->interface == NULL) {
        goto error;
    }
    result = PyObject_CallMethod(np, "asarray", "O", (PyObject *)owner);

error:
    Py_XDECREF(np);
    Py_XDECREF(host);
    Py_XDECREF(owner);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return result;
}

/* _C._tensor_array(tensor, dtype, copy): Tensor.__array__ (minitorch/_tensor.py) below its signature.
 * NumPy 2 passes dtype and copy; copy=False must not copy, copy=True always does. */
static PyObject *
tensor_array(PyObject *module, PyObject *args)
{
    mt_TensorObject *self;
    PyObject *dtype, *copy_obj;
    PyObject *array;
    PyObject *result;
    int copy = -1; /* None */

    if (!PyArg_ParseTuple(args, "O!OO:_tensor_array", mt_TensorTypePtr, &self, &dtype, &copy_obj)) {
        return NULL;
    }
    if (copy_obj != Py_None && (copy = PyObject_IsTrue(copy_obj)) < 0) {
        return NULL;
    }
    array = mt_tensor_to_numpy(self, 0);
    if (array == NULL) {
        return NULL;
    }
    if (dtype == Py_None) {
        if (copy != 1) {
            return array;
        }
        result = PyObject_CallMethod(array, "copy", NULL);
        Py_DECREF(array);
        return result;
    }
    {
        PyObject *astype = PyObject_GetAttrString(array, "astype");
        PyObject *kwargs = Py_BuildValue("{s:O}", "copy", copy == 1 ? Py_True : Py_False);
        PyObject *posargs = PyTuple_Pack(1, dtype);
        result = astype != NULL && kwargs != NULL && posargs != NULL ? PyObject_Call(astype, posargs, kwargs) : NULL;
        Py_XDECREF(astype);
        Py_XDECREF(kwargs);
        Py_XDECREF(posargs);
    }
    if (result != NULL && copy == 0 && result != array) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an array as requested.");
    }
    Py_DECREF(array);
    return result;
}

/* _C._array_wrap(array): Tensor.__array_wrap__ (minitorch/_tensor.py) below its signature. NumPy ufuncs
 * applied to tensors return tensors (torch: torch.from_numpy(result), bool as uint8). */
static PyObject *
tensor_array_wrap(PyObject *module, PyObject *array)
{
    PyObject *result;

    result = (PyObject *)mt_tensor_from_numpy(array);
    if (result != NULL && ((mt_TensorObject *)result)->dtype == MT_BOOL) {
        /* torch's __array_wrap__ turns a bool array into uint8 first (array.astype("uint8")) */
        Py_SETREF(result, mt_to((mt_TensorObject *)result, NULL, MT_UINT8, 1, 0, MT_CONTIGUOUS_FORMAT));
    }
    if (result == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        /* np.multiply(t, 1j): torch returns a complex tensor, minitorch cannot make one */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        if (mt_raise_for_numpy_dtype_gap(array) == 0) {
            PyErr_Restore(type, value, tb);
        }
        else {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
    }
    return result;
}

static PyObject *
function_from_numpy(PyObject *module, PyObject *array)
{
    return (PyObject *)mt_tensor_from_numpy(array);
}

/* ---- the buffer protocol --------------------------------------------------------------------------- */

/* Lives in Py_buffer.internal: the shape and byte strides the buffer points at, and a reference on the
 * storage, so that the memory outlives the export even if the tensor's .data is replaced. */
typedef struct {
    mt_storage *storage;
    Py_ssize_t dims[]; /* ndim sizes, then ndim strides in bytes */
} buffer_internal;

int
mt_tensor_getbuffer(PyObject *obj, Py_buffer *view, int flags)
{
    mt_TensorObject *self = (mt_TensorObject *)obj;
    mt_device device = mt_tensor_device(self);
    size_t itemsize = mt_dtype_size(self->dtype);
    int nontrivial_dims = 0;
    buffer_internal *internal;
    Py_ssize_t stride;

    if (device.type == MT_DEVICE_META) {
        /* torch's tensors have no buffer protocol: memoryview's own refusal, as a meta tensor has no bytes */
        const char *type_name = strrchr(Py_TYPE(obj)->tp_name, '.');
        PyErr_Format(PyExc_TypeError, "memoryview: a bytes-like object is required, not '%.200s'",
                     type_name != NULL ? type_name + 1 : Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (device.type != MT_DEVICE_CPU) {
        char name[32];
        mt_device_format(device, name, sizeof(name));
        PyErr_Format(PyExc_BufferError,
                     "can't export a %s tensor through the buffer protocol: its memory is not host memory. Use "
                     "Tensor.cpu() to copy the tensor to host memory first.",
                     name);
        return -1;
    }
    if (mt_requires_grad(self)) {
        PyErr_SetString(PyExc_BufferError, "Can't export tensors that require gradient, use tensor.detach()");
        return -1;
    }
    if (!mt_tensor_is_contiguous(self)) {
        PyErr_SetString(PyExc_BufferError,
                        "can't export a non-contiguous tensor through the buffer protocol. Use "
                        "Tensor.contiguous() to make a contiguous copy first.");
        return -1;
    }
    for (int i = 0; i < self->ndim; i++) {
        nontrivial_dims += self->sizes[i] != 1;
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && nontrivial_dims > 1 && mt_tensor_numel(self) > 0) {
        PyErr_SetString(PyExc_BufferError, "minitorch tensors are row-major (C-contiguous), not Fortran-contiguous");
        return -1;
    }
    internal = PyMem_Malloc(sizeof(buffer_internal) + sizeof(Py_ssize_t) * 2 * (size_t)(self->ndim + 1));
    if (internal == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    internal->storage = self->storage;
    mt_storage_export(internal->storage);
    /* row-major strides (a size-1 dim may carry any stride in a contiguous tensor: normalise it) */
    stride = (Py_ssize_t)itemsize;
    for (int i = self->ndim - 1; i >= 0; i--) {
        internal->dims[i] = (Py_ssize_t)self->sizes[i];
        internal->dims[self->ndim + i] = stride;
        stride *= self->sizes[i] > 1 ? (Py_ssize_t)self->sizes[i] : 1;
    }
    view->buf = mt_tensor_data(self);
    view->obj = obj;
    Py_INCREF(obj);
    view->len = (Py_ssize_t)(mt_tensor_numel(self) * (int64_t)itemsize);
    view->readonly = 0;
    view->itemsize = (Py_ssize_t)itemsize;
    view->format = (flags & PyBUF_FORMAT) ? (char *)buffer_format(self->dtype) : NULL;
    if (flags & PyBUF_ND) {
        view->ndim = self->ndim;
        view->shape = internal->dims;
        view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? internal->dims + self->ndim : NULL;
    }
    else {
        /* a plain byte buffer was asked for */
        view->ndim = 1;
        view->shape = NULL;
        view->strides = NULL;
    }
    view->suboffsets = NULL;
    view->internal = internal;
    return 0;
}

void
mt_tensor_releasebuffer(PyObject *obj, Py_buffer *view)
{
    buffer_internal *internal = view->internal;
    if (internal != NULL) {
        mt_storage_unexport(internal->storage);
        PyMem_Free(internal);
        view->internal = NULL;
    }
}

/* ---- DLPack: export -------------------------------------------------------------------------------- */

static const char simulated_export_message[] =
    "can't export a tensor on minitorch's simulated GPU through DLPack: its memory is host memory, not CUDA "
    "memory. Use Tensor.cpu() (or dl_device=(1, 0)) to export a copy in host memory.";

/* What a capsule made by __dlpack__ points at: the managed tensor (one of the two layouts), its shape
 * and strides, and a reference on the storage whose memory it describes. One malloc'ed block, freed by
 * the deleter, which any thread may call. */
typedef struct {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } managed;
    mt_storage *storage;
    int64_t dims[]; /* ndim sizes, then ndim strides (elements) */
} export_context;

static void
export_context_free(export_context *ctx)
{
    if (Py_IsInitialized()) {
        PyGILState_STATE gil = PyGILState_Ensure();
        mt_storage_unexport(ctx->storage);
        PyGILState_Release(gil);
    }
    free(ctx);
}

static void
export_deleter_legacy(DLManagedTensor *self)
{
    export_context_free((export_context *)self->manager_ctx);
}

static void
export_deleter_versioned(DLManagedTensorVersioned *self)
{
    export_context_free((export_context *)self->manager_ctx);
}

/* A capsule's destructor frees the managed tensor only if no consumer took it (renamed it "used_..."). */
static void
capsule_destructor_legacy(PyObject *capsule)
{
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
        if (m != NULL && m->deleter != NULL) {
            m->deleter(m);
        }
    }
}

static void
capsule_destructor_versioned(PyObject *capsule)
{
    if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, "dltensor_versioned");
        if (m != NULL && m->deleter != NULL) {
            m->deleter(m);
        }
    }
}

static DLDevice
dlpack_device_of(mt_device d)
{
    DLDevice out;
    out.device_type = d.type == MT_DEVICE_CUDA ? kDLCUDA : kDLCPU;
    out.device_id = d.type == MT_DEVICE_CUDA ? d.index : 0;
    return out;
}

/* A capsule describing `t`'s memory (no copy). */
static PyObject *
capsule_for_tensor(mt_TensorObject *t, int versioned, int copied)
{
    export_context *ctx;
    DLTensor *dl;
    PyObject *capsule;

    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        /* DLPack has no device without memory */
        PyErr_SetString(PyExc_BufferError, "Cannot pack tensors on meta");
        return NULL;
    }
    ctx = malloc(sizeof(export_context) + sizeof(int64_t) * 2 * (size_t)t->ndim);
    if (ctx == NULL) {
        return PyErr_NoMemory();
    }
    memset(&ctx->managed, 0, sizeof(ctx->managed));
    ctx->storage = t->storage;
    mt_storage_export(ctx->storage);
    if (t->ndim > 0) {
        memcpy(ctx->dims, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
        memcpy(ctx->dims + t->ndim, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    }
    if (versioned) {
        ctx->managed.versioned.version.major = DLPACK_MAJOR_VERSION;
        ctx->managed.versioned.version.minor = DLPACK_MINOR_VERSION;
        ctx->managed.versioned.manager_ctx = ctx;
        ctx->managed.versioned.deleter = export_deleter_versioned;
        ctx->managed.versioned.flags = copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0;
        dl = &ctx->managed.versioned.dl_tensor;
    }
    else {
        ctx->managed.legacy.manager_ctx = ctx;
        ctx->managed.legacy.deleter = export_deleter_legacy;
        dl = &ctx->managed.legacy.dl_tensor;
    }
    /* like torch: data points at the first element, byte_offset stays 0 */
    dl->data = mt_tensor_data(t);
    dl->device = dlpack_device_of(mt_tensor_device(t));
    dl->ndim = t->ndim;
    dl->dtype = dlpack_dtype(t->dtype);
    dl->shape = ctx->dims;
    dl->strides = ctx->dims + t->ndim;
    dl->byte_offset = 0;
    if (versioned) {
        capsule = PyCapsule_New(&ctx->managed.versioned, "dltensor_versioned", capsule_destructor_versioned);
    }
    else {
        capsule = PyCapsule_New(&ctx->managed.legacy, "dltensor", capsule_destructor_legacy);
    }
    if (capsule == NULL) {
        export_context_free(ctx);
    }
    return capsule;
}

/* Parses an optional (int, int) tuple argument. 0 (absent/None), 1 (filled) or -1. An int past long is
 * clamped to LONG_MIN/LONG_MAX with *overflowed set (the callers decide what that means), so that no
 * OverflowError escapes where torch compares Python ints or raises its own error. */
static int
parse_int_pair(const char *what, PyObject *obj, long *first, long *second, int *overflowed)
{
    long *out[2] = {first, second};

    *overflowed = 0;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of two ints or None, not %s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        int overflow = 0;
        *out[i] = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(obj, i), &overflow);
        if (*out[i] == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow) {
            *out[i] = overflow > 0 ? LONG_MAX : LONG_MIN;
            *overflowed = i + 1;
        }
    }
    return 1;
}

/* Makes a device's earlier work visible to a consumer's CUDA stream. minitorch issues all its work on
 * the legacy default stream, so the consumer's legacy default stream (1) needs nothing; any other
 * stream gets a device synchronisation (the device layer's _cuda_synchronize). */
static int
sync_for_consumer_stream(int device_index)
{
    for (PyMethodDef *m = mt_cuda_functions; m->ml_name != NULL; m++) {
        if (strcmp(m->ml_name, "_cuda_synchronize") == 0) {
            PyObject *index = PyLong_FromLong(device_index);
            PyObject *r;
            if (index == NULL) {
                return -1;
            }
            r = m->ml_meth(NULL, index);
            Py_DECREF(index);
            Py_XDECREF(r);
            return r == NULL ? -1 : 0;
        }
    }
    return 0;
}

/* The checks of Tensor.__dlpack__ (minitorch/_tensor.py) before it calls _to_dlpack, in torch's order: the
 * gradient, the device index, the consumer's stream (torch/_tensor.py). */
static PyObject *
dlpack_check(PyObject *module, PyObject *args)
{
    mt_TensorObject *self;
    PyObject *stream;
    mt_device own;

    if (!PyArg_ParseTuple(args, "O!O:_dlpack_check", mt_TensorTypePtr, &self, &stream)) {
        return NULL;
    }
    own = mt_tensor_device(self);
    if (mt_requires_grad(self)) {
        PyErr_SetString(PyExc_BufferError, "Can't export tensors that require gradient, use tensor.detach()");
        return NULL;
    }
    if (own.type == MT_DEVICE_CUDA && own.index != mt_cuda_current_device()) {
        PyErr_Format(PyExc_BufferError,
                     "Can't export tensors on a different CUDA device index. Expected: %d. Current device: %d.",
                     own.index, mt_cuda_current_device());
        return NULL;
    }
    if (stream != Py_None && !PyLong_CheckExact(stream)) {
        PyErr_SetString(PyExc_TypeError, "stream must be ``int`` or ``none``");
        return NULL;
    }
    if (own.type == MT_DEVICE_CPU) {
        /* torch: `stream is not None and stream != -1`, for any int (2**70 included) */
        int overflow = 0;
        long s = stream == Py_None ? -1 : PyLong_AsLongAndOverflow(stream, &overflow);
        if (s == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow || s != -1) {
            PyErr_SetString(PyExc_AssertionError, "stream should be None on cpu.");
            return NULL;
        }
    }
    else {
        long s = stream == Py_None ? 1 : PyLong_AsLong(stream);
        if (s == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (s == 2) {
            PyErr_SetString(PyExc_BufferError, "per-thread default stream is not supported.");
            return NULL;
        }
        if (s == 0) {
            PyErr_SetString(PyExc_AssertionError, "unsupported stream on CUDA: 0.");
            return NULL;
        }
        if (s != -1 && s != 1 && sync_for_consumer_stream(own.index) < 0) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

/* torch._C._to_dlpack and _to_dlpack_versioned (torch/csrc/Module.cpp): one parser, named _to_dlpack in
 * both, as torch's messages name it. The capsule shares the tensor's data with no history (a tensor that
 * requires grad is exported by torch.to_dlpack; Tensor.__dlpack__ refused it before). */
static PyObject *
to_dlpack(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int versioned)
{
    static mt_parser parser = MT_PARSER("_to_dlpack(Tensor data, *, IntArrayRef? dl_device=None, bool? copy=None)");
    mt_parsed p;
    mt_TensorObject *t, *data, *src;
    mt_device own, target;
    int copy = -1, copied = 0, moving;
    PyObject *capsule;

    if (mt_parse(&parser, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    t = p.arg[0].tensor;
    own = mt_tensor_device(t);
    target = own;
    if (p.arg[2].obj != NULL) {
        copy = p.arg[2].b;
    }
    if (p.arg[1].obj != NULL && p.arg[1].nints != 0) {
        int dl_type;
        int64_t dl_index;
        if (p.arg[1].nints != 2) {
            mt_parsed_clear(&p);
            PyErr_SetString(PyExc_RuntimeError, "dl_device must be either None or a tuple of ints");
            return NULL;
        }
        /* torch casts the type to DLDeviceType (32 bits) */
        dl_type = (int)(int32_t)p.arg[1].ints[0];
        dl_index = p.arg[1].ints[1];
        if (dl_type == kDLCPU) {
            target = mt_cpu_device();
        }
        else if (dl_type == kDLCUDA) {
            /* an index past int (2**40) must not wrap onto a real device: clamped, it is refused below */
            target.type = MT_DEVICE_CUDA;
            target.index = dl_index > INT_MAX ? INT_MAX : dl_index < INT_MIN ? INT_MIN : (int)dl_index;
        }
        else {
            mt_parsed_clear(&p);
            PyErr_Format(PyExc_BufferError, "Unsupported device_type: %d", dl_type);
            return NULL;
        }
    }
    mt_parsed_clear(&p);
    moving = !mt_device_equal(target, own);
    if (moving && copy == 0) {
        char from[32], to[32];
        mt_device_format(own, from, sizeof(from));
        mt_device_format(target, to, sizeof(to));
        PyErr_Format(PyExc_BufferError, "can't export a %s tensor to %s without a copy, and copy=False was given",
                     from, to);
        return NULL;
    }
    /* the simulated GPU never shows up in a capsule; a host copy of its tensor may */
    if ((own.type == MT_DEVICE_CUDA || target.type == MT_DEVICE_CUDA) && mt_cuda_is_simulated() &&
        target.type != MT_DEVICE_CPU) {
        PyErr_SetString(PyExc_BufferError, simulated_export_message);
        return NULL;
    }
    data = mt_tensor_new_view(t, t->ndim, t->sizes, t->strides, t->offset);
    if (data == NULL) {
        return NULL;
    }
    if (moving || copy == 1) {
        if (moving && mt_device_resolve(target, &target) < 0) {
            Py_DECREF(data);
            return NULL;
        }
        src = mt_copy_to(data, data->dtype, target);
        Py_DECREF(data);
        if (src == NULL) {
            return NULL;
        }
        copied = 1;
    }
    else {
        src = data;
    }
    capsule = capsule_for_tensor(src, versioned, copied);
    Py_DECREF(src);
    return capsule;
}

static PyObject *
function_to_dlpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return to_dlpack(args, nargs, kwnames, 0);
}

static PyObject *
function_to_dlpack_versioned(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return to_dlpack(args, nargs, kwnames, 1);
}

static PyObject *
tensor_dlpack_device(mt_TensorObject *self, PyObject *unused)
{
    mt_device d = mt_tensor_device(self);
    if (d.type == MT_DEVICE_CUDA) {
        return Py_BuildValue("(ii)", (int)kDLCUDA, d.index);
    }
    if (d.type == MT_DEVICE_META) {
        PyErr_SetString(PyExc_ValueError, "Unknown device type meta for Dlpack");
        return NULL;
    }
    /* torch reports pinned host memory as kDLCUDAHost; the simulated GPU has no such thing */
    if (self->storage->pinned && !mt_cuda_is_simulated()) {
        return Py_BuildValue("(ii)", (int)kDLCUDAHost, 0);
    }
    return Py_BuildValue("(ii)", (int)kDLCPU, 0);
}

/* ---- DLPack: import -------------------------------------------------------------------------------- */

static const char invalid_capsule_message[] =
    "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only once, so you "
    "might have already constructed a tensor from it once.";

/* Storage release hooks for imported memory: hand it back through the producer's deleter. */
static void
release_dlpack_legacy(mt_storage *s)
{
    DLManagedTensor *m = s->ctx;
    if (m->deleter != NULL && Py_IsInitialized()) {
        PyGILState_STATE gil = PyGILState_Ensure();
        m->deleter(m);
        PyGILState_Release(gil);
    }
}

static void
release_dlpack_versioned(mt_storage *s)
{
    DLManagedTensorVersioned *m = s->ctx;
    if (m->deleter != NULL && Py_IsInitialized()) {
        PyGILState_STATE gil = PyGILState_Ensure();
        m->deleter(m);
        PyGILState_Release(gil);
    }
}

mt_TensorObject *
mt_tensor_from_dlpack_capsule(PyObject *capsule)
{
    int versioned;
    void *managed;
    DLTensor *dl;
    mt_dtype dtype;
    mt_device device;
    int64_t strides[MT_MAX_DIMS];
    int64_t numel;
    size_t extent;
    mt_storage *wrapped, *storage;
    mt_TensorObject *t;

    if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, "dltensor_versioned");
        if (m == NULL) {
            return NULL;
        }
        if (m->version.major != DLPACK_MAJOR_VERSION) {
            /* nothing past `flags` may be read; the capsule's destructor still frees it */
            PyErr_Format(PyExc_BufferError,
                         "the DLPack tensor has version %u.%u, but minitorch supports major version %d only",
                         (unsigned)m->version.major, (unsigned)m->version.minor, DLPACK_MAJOR_VERSION);
            return NULL;
        }
        versioned = 1;
        managed = m;
        dl = &m->dl_tensor;
    }
    else if (PyCapsule_IsValid(capsule, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
        if (m == NULL) {
            return NULL;
        }
        versioned = 0;
        managed = m;
        dl = &m->dl_tensor;
    }
    else {
        PyErr_SetString(PyExc_RuntimeError, invalid_capsule_message);
        return NULL;
    }
    /* everything is checked before the capsule is marked used */
    if (dtype_from_dlpack(dl->dtype, &dtype) < 0) {
        return NULL;
    }
    if (dl->ndim < 0 || dl->ndim > MT_MAX_DIMS) {
        PyErr_Format(PyExc_BufferError, "minitorch supports tensors of at most %d dimensions, got %d", MT_MAX_DIMS,
                     (int)dl->ndim);
        return NULL;
    }
    if (dl->ndim > 0 && dl->shape == NULL) {
        PyErr_SetString(PyExc_BufferError, "the DLPack tensor has no shape");
        return NULL;
    }
    for (int i = 0; i < dl->ndim; i++) {
        if (dl->shape[i] < 0) {
            /* torch's own error (at::from_blob checks the sizes first) */
            (void)mt_check_sizes(dl->ndim, dl->shape, dtype, &numel);
            return NULL;
        }
    }
    if (dl->strides != NULL) {
        for (int i = 0; i < dl->ndim; i++) {
            if (dl->strides[i] < 0 && dl->shape[i] > 1) {
                PyErr_SetString(PyExc_BufferError,
                                "At least one stride in the given DLPack tensor is negative, and tensors with "
                                "negative strides are not currently supported.");
                return NULL;
            }
            /* a negative stride over a dim of size <= 1 is never used */
            strides[i] = dl->strides[i] < 0 ? 0 : dl->strides[i];
        }
    }
    else {
        /* compact row-major (legacy producers may leave strides NULL); a product past int64 is left to
         * the geometry check below, as an overflow */
        int64_t stride = 1;
        for (int i = dl->ndim - 1; i >= 0; i--) {
            strides[i] = stride;
            if (__builtin_mul_overflow(stride, dl->shape[i] > 1 ? dl->shape[i] : 1, &stride)) {
                stride = INT64_MAX;
            }
        }
    }
    switch ((int)dl->device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
        device = mt_cpu_device();
        break;
    case kDLCUDA: {
        mt_device requested = {MT_DEVICE_CUDA, (int)dl->device.device_id};
        if (mt_cuda_is_simulated()) {
            PyErr_SetString(PyExc_BufferError,
                            "can't import CUDA memory through DLPack while minitorch's CUDA devices are the "
                            "simulated GPU (MINITORCH_SIMULATE_GPU): its kernels run on the host and cannot "
                            "read GPU memory.");
            return NULL;
        }
        if (mt_device_resolve(requested, &device) < 0) {
            return NULL;
        }
        break;
    }
    default:
        PyErr_Format(PyExc_BufferError, "Unsupported device_type: %d", (int)dl->device.device_type);
        return NULL;
    }
    /* a hand-made capsule can say anything: byte_offset = 2**63, shapes whose products overflow, NULL
     * data behind elements. None of it may reach pointer arithmetic. */
    if (mt_check_external_geometry(PyExc_BufferError, dl->data, SIZE_MAX, dl->byte_offset, dl->ndim, dl->shape,
                                   strides, mt_dtype_size(dtype), &extent) < 0) {
        return NULL;
    }
    wrapped = mt_storage_wrap((char *)dl->data + (size_t)dl->byte_offset, extent, device,
                              versioned ? release_dlpack_versioned : release_dlpack_legacy, managed);
    if (wrapped == NULL) {
        return NULL;
    }
    storage = mt_storage_adopt(wrapped, mt_dtype_size(dtype));
    if (storage == NULL) {
        wrapped->release = NULL; /* not consumed: the capsule's destructor still owns the managed tensor */
        mt_storage_decref(wrapped);
        return NULL;
    }
    t = mt_tensor_from_storage(storage, dl->ndim, dl->shape, strides, 0, dtype);
    if (t == NULL || PyCapsule_SetName(capsule, versioned ? "used_dltensor_versioned" : "used_dltensor") < 0) {
        /* not consumed: the capsule's destructor still owns the managed tensor */
        wrapped->release = NULL;
        Py_XDECREF(t);
        mt_storage_decref(storage);
        mt_storage_decref(wrapped);
        return NULL;
    }
    mt_storage_decref(storage);
    /* consumed: a copy (misaligned memory) gives the producer's memory back right away */
    mt_storage_decref(wrapped);
    return t;
}

/* Calls obj.__dlpack__(**kwargs), dropping keywords an older producer does not know, in torch's order
 * (max_version, then copy, then dl_device). *handled_copy says whether `copy` reached the producer. */
static PyObject *
call_producer(PyObject *obj, PyObject *kwargs, int *handled_copy)
{
    static const char *const drop_order[] = {"max_version", "copy", "dl_device", NULL};
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
    PyObject *empty = NULL;
    PyObject *capsule = NULL;

    *handled_copy = 1;
    if (method == NULL) {
        return NULL;
    }
    empty = PyTuple_New(0);
    if (empty == NULL) {
        goto done;
    }
    for (int attempt = 0;; attempt++) {
        capsule = PyObject_Call(method, empty, kwargs);
        if (capsule != NULL || drop_order[attempt] == NULL || !PyErr_ExceptionMatches(PyExc_TypeError)) {
            break;
        }
        PyErr_Clear();
        if (PyDict_DelItemString(kwargs, drop_order[attempt]) < 0) {
            PyErr_Clear();
        }
        if (strcmp(drop_order[attempt], "copy") == 0) {
            *handled_copy = 0;
        }
    }
done:
    Py_DECREF(method);
    Py_XDECREF(empty);
    return capsule;
}

/* _C._from_dlpack(ext_tensor, device, copy): from_dlpack (minitorch/utils/dlpack.py) below its signature */
static PyObject *
function_from_dlpack(PyObject *module, PyObject *args)
{
    PyObject *ext, *device_obj, *copy_obj;
    PyObject *ext_device = NULL, *kwargs = NULL, *capsule = NULL, *value = NULL;
    mt_TensorObject *t = NULL;
    mt_device target = mt_cpu_device();
    int cross_device = 0, handled_copy = 1, has_dlpack, overflowed;
    long ext_type = 0, ext_index = 0;

    if (!PyArg_ParseTuple(args, "OOO:_from_dlpack", &ext, &device_obj, &copy_obj)) {
        return NULL;
    }
    has_dlpack = PyObject_HasAttrString(ext, "__dlpack__");
    if (!has_dlpack) {
        if (device_obj != Py_None || copy_obj != Py_None) {
            PyErr_SetString(PyExc_AssertionError,
                            "device and copy kwargs not supported when ext_tensor is already a DLPack capsule.");
            return NULL;
        }
        return (PyObject *)mt_tensor_from_dlpack_capsule(ext);
    }
    /* torch.utils.dlpack.from_dlpack's protocol */
    ext_device = PyObject_CallMethod(ext, "__dlpack_device__", NULL);
    if (ext_device == NULL) {
        goto error;
    }
    if (parse_int_pair("__dlpack_device__()", ext_device, &ext_type, &ext_index, &overflowed) < 0) {
        goto error;
    }
    kwargs = Py_BuildValue("{s:(ii)}", "max_version", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
    if (kwargs == NULL) {
        goto error;
    }
    if (copy_obj != Py_None && PyDict_SetItemString(kwargs, "copy", copy_obj) < 0) {
        goto error;
    }
    if (device_obj != Py_None) {
        mt_device requested;
        DLDevice want;
        if (mt_device_from_object(device_obj, &requested) < 0 || mt_device_resolve(requested, &target) < 0) {
            goto error;
        }
        want = dlpack_device_of(target);
        cross_device = ext_type != (long)want.device_type || ext_index != (long)want.device_id;
        if (!cross_device) {
            value = Py_BuildValue("(ii)", (int)want.device_type, (int)want.device_id);
            if (value == NULL || PyDict_SetItemString(kwargs, "dl_device", value) < 0) {
                goto error;
            }
        }
        else if (copy_obj == Py_False) {
            PyErr_Format(PyExc_ValueError,
                         "cannot move DLPack tensor from device %R to (%d, %d) without copying. Set copy=None or "
                         "copy=True.",
                         ext_device, (int)want.device_type, (int)want.device_id);
            goto error;
        }
    }
    if (ext_type == kDLCUDA || ext_type == kDLROCM) {
        /* minitorch works on the legacy default stream; the array API numbers it 1 for CUDA */
        value = PyLong_FromLong(1);
        if (value == NULL || PyDict_SetItemString(kwargs, "stream", value) < 0) {
            goto error;
        }
    }
    capsule = call_producer(ext, kwargs, &handled_copy);
    if (capsule == NULL) {
        goto error;
    }
    t = mt_tensor_from_dlpack_capsule(capsule);
    if (t == NULL) {
        goto error;
    }
    if ((copy_obj == Py_True && !handled_copy && !cross_device) || cross_device) {
        mt_TensorObject *moved = mt_copy_to(t, t->dtype, cross_device ? target : mt_tensor_device(t));
        Py_DECREF(t);
        t = moved;
    }

error:
    Py_XDECREF(ext_device);
    Py_XDECREF(kwargs);
    Py_XDECREF(capsule);
    Py_XDECREF(value);
    return (PyObject *)t;
}

/* ---- tables ---------------------------------------------------------------------------------------- */

PyMethodDef mt_interop_tensor_methods[] = {
    {"__dlpack_device__", (PyCFunction)tensor_dlpack_device, METH_NOARGS,
     "__dlpack_device__() -> (int, int)\n\n"
     "The DLPack device type and index of the tensor's memory: (1, 0) for the CPU, (2, index) for CUDA."},
    {NULL},
};

PyMethodDef mt_interop_functions[] = {
    {"from_numpy", (PyCFunction)function_from_numpy, METH_O,
     "from_numpy(ndarray) -> Tensor\n\n"
     "A CPU tensor that shares the NumPy array's memory (same shape, strides and dtype): writes on either\n"
     "side are seen by the other, and the tensor keeps the array alive. Supported dtypes: " SUPPORTED_TYPES
     ".\nNegative strides and non-native byte order raise ValueError, as in torch."},
    {"_from_dlpack", (PyCFunction)function_from_dlpack, METH_VARARGS,
     "_from_dlpack(ext_tensor, device, copy) -> Tensor\n\n"
     "from_dlpack (minitorch/utils/dlpack.py) below its signature."},
    {"_dlpack_check", (PyCFunction)dlpack_check, METH_VARARGS,
     "_dlpack_check(tensor, stream) -> None\n\n"
     "Tensor.__dlpack__'s checks (minitorch/_tensor.py) before its _to_dlpack call."},
    {"_to_dlpack", FASTCALL(function_to_dlpack),
     "_to_dlpack(data, *, dl_device=None, copy=None) -> PyCapsule\n\n"
     "A legacy DLPack capsule (\"dltensor\") sharing the tensor's memory; pass it to from_dlpack once."},
    {"_to_dlpack_versioned", FASTCALL(function_to_dlpack_versioned),
     "_to_dlpack_versioned(data, *, dl_device=None, copy=None) -> PyCapsule\n\n"
     "A DLPack 1.0 capsule (\"dltensor_versioned\") sharing the tensor's memory; pass it to from_dlpack once."},
    {"_frombuffer", (PyCFunction)function_frombuffer, METH_VARARGS,
     "_frombuffer(buffer, dtype, count, offset) -> Tensor\n\n"
     "torch.frombuffer below its signature: a 1-d CPU tensor sharing the buffer's memory."},
    {"_tensor_array", (PyCFunction)tensor_array, METH_VARARGS,
     "_tensor_array(tensor, dtype, copy) -> numpy.ndarray\n\n"
     "Tensor.__array__ (minitorch/_tensor.py) below its signature."},
    {"_array_wrap", (PyCFunction)tensor_array_wrap, METH_O,
     "_array_wrap(array) -> Tensor\n\n"
     "Tensor.__array_wrap__ (minitorch/_tensor.py) below its signature: from_numpy, bool arrays as uint8."},
    {NULL},
};
