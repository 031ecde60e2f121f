/* size.c: minitorch.Size, a tuple subclass for shapes (repr "minitorch.Size([2, 3])", numel(), slices
 * that stay Sizes), like torch.Size. */
#include "scalar.h"
#include "tensor.h"

static PyTypeObject mt_SizeType;

PyObject *
mt_size_new(int ndim, const int64_t *sizes)
{
    PyObject *t = PyTuple_Type.tp_alloc(&mt_SizeType, ndim);
    if (t == NULL) {
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *
size_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *seq = NULL;
    PyObject *tuple;
    PyObject *result;
    Py_ssize_t n;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0) {
        /* a tuple subclass: torch.Size(x=1) fails as tuple(x=1) does (it was accepted and ignored) */
        PyErr_SetString(PyExc_TypeError, "tuple() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "|O:Size", &seq)) {
        return NULL;
    }
    tuple = seq ? PySequence_Tuple(seq) : PyTuple_New(0);
    if (tuple == NULL) {
        return NULL;
    }
    n = PyTuple_GET_SIZE(tuple);
    result = PyTuple_Type.tp_alloc(type, n);
    if (result == NULL) {
        Py_DECREF(tuple);
        return NULL;
    }
    /* torch's THPSize_pynew: ints are kept, anything else goes through __index__ (0-d integer tensors,
     * NumPy ints, True), and a failure of that is torch's TypeError naming the item */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, i);
        PyObject *index = NULL;
        if (PyLong_Check(item) && !PyBool_Check(item)) {
            index = item;
            Py_INCREF(index);
        }
        else if (Py_TYPE(item)->tp_as_number != NULL && Py_TYPE(item)->tp_as_number->nb_index != NULL) {
            index = PyNumber_Index(item);
        }
        if (index == NULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                         Py_TYPE(item)->tp_name);
            Py_DECREF(tuple);
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, index);
    }
    Py_DECREF(tuple);
    /* an int past int64 is kept, as torch keeps it; repr and numel, which unpack each dimension, refuse it */
    return result;
}

/* Dimension i as torch unpacks it (an int64): 0, or -1 with torch's ValueError for an int past int64 (a
 * Size holds any int, as torch's does). */
static int
size_dim(PyObject *self, Py_ssize_t i, long long *v)
{
    int64_t d;

    if (mt_unpack_long(PyTuple_GET_ITEM(self, i), &d) < 0) {
        return -1;
    }
    *v = d;
    return 0;
}

static PyObject *
size_repr(PyObject *self)
{
    Py_ssize_t n = PyTuple_GET_SIZE(self);
    PyObject *list;
    PyObject *inner;
    PyObject *result;

    /* torch's THPSize_repr unpacks every dimension: one past int64 (Size([2**70])) is its ValueError */
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v;
        if (size_dim(self, i, &v) < 0) {
            return NULL;
        }
    }
    list = PySequence_List(self);
    if (list == NULL) {
        return NULL;
    }
    inner = PyObject_Repr(list);
    Py_DECREF(list);
    if (inner == NULL) {
        return NULL;
    }
    result = PyUnicode_FromFormat("minitorch.Size(%U)", inner);
    Py_DECREF(inner);
    return result;
}

static PyObject *
size_numel(PyObject *self, PyObject *unused)
{
    /* torch multiplies int64s and lets the product wrap (Size([2**62, 4]).numel() == 0); done in
     * unsigned arithmetic because signed overflow is undefined in C. An element outside int64 (a Size
     * can hold any int) used to leave an exception set behind a returned value (SystemError). */
    uint64_t numel = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); i++) {
        long long v;
        if (size_dim(self, i, &v) < 0) {
            return NULL;
        }
        numel *= (uint64_t)v;
    }
    return PyLong_FromLongLong((long long)numel);
}

static PyObject *
size_subscript(PyObject *self, PyObject *key)
{
    PyObject *result = PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
    if (result != NULL && PySlice_Check(key)) {
        PyObject *as_size = PyObject_CallOneArg((PyObject *)&mt_SizeType, result);
        Py_DECREF(result);
        return as_size;
    }
    return result;
}

static PyObject *
size_reduce(PyObject *self, PyObject *unused)
{
    PyObject *tuple = PySequence_Tuple(self);
    if (tuple == NULL) {
        return NULL;
    }
    return Py_BuildValue("O(N)", (PyObject *)Py_TYPE(self), tuple);
}

static PyObject *
size_add(PyObject *a, PyObject *b)
{
    /* Size + tuple and tuple + Size stay Sizes, as in torch */
    PyObject *joined;
    PyObject *result;
    if (!PyTuple_Check(a) || !PyTuple_Check(b)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    joined = PySequence_Concat(a, b);
    if (joined == NULL) {
        return NULL;
    }
    result = PyObject_CallOneArg((PyObject *)&mt_SizeType, joined);
    Py_DECREF(joined);
    return result;
}

static PyObject *
size_multiply(PyObject *a, PyObject *b)
{
    /* Size * n and n * Size stay Sizes, as in torch; a non-int count is left to tuple's own error */
    PyObject *size = PyObject_TypeCheck(a, &mt_SizeType) ? a : b;
    PyObject *count = size == a ? b : a;
    PyObject *repeated;
    PyObject *result;
    Py_ssize_t n;

    if (!PyIndex_Check(count)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    n = PyNumber_AsSsize_t(count, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    repeated = PyTuple_Type.tp_as_sequence->sq_repeat(size, n);
    if (repeated == NULL) {
        return NULL;
    }
    result = PyObject_CallOneArg((PyObject *)&mt_SizeType, repeated);
    Py_DECREF(repeated);
    return result;
}

static PyNumberMethods size_as_number = {
    .nb_add = size_add,
    .nb_multiply = size_multiply,
};

static PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "The number of elements a tensor of this shape holds."},
    {"__reduce__", size_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMappingMethods size_as_mapping = {
    .mp_subscript = size_subscript,
};

static PyTypeObject mt_SizeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.Size",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_TUPLE_SUBCLASS,
    .tp_new = size_new,
    .tp_repr = size_repr,
    .tp_methods = size_methods,
    .tp_as_mapping = &size_as_mapping,
    .tp_as_number = &size_as_number,
    .tp_doc = "The shape of a tensor: a tuple of ints.",
};

int
mt_size_init(PyObject *module)
{
    mt_SizeType.tp_base = &PyTuple_Type;
    if (PyType_Ready(&mt_SizeType) < 0) {
        return -1;
    }
    Py_INCREF(&mt_SizeType);
    if (PyModule_AddObject(module, "Size", (PyObject *)&mt_SizeType) < 0) {
        Py_DECREF(&mt_SizeType);
        return -1;
    }
    return 0;
}
