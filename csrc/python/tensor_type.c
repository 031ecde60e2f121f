/* tensor_type.c: the Python face of minitorch.Tensor: the heap type built at module init, its properties
 * (shape, dtype, device, T, data, ...), the small methods that read geometry (size, stride, dim,
 * is_contiguous, ...), Python's protocols (len, iter, bool/float/int/index, format, hash, repr through
 * minitorch._tensor_str), pickling and copying, names torch has and minitorch lacks, and the assembly of
 * Tensor's method table (its own methods, then the op table's from bind.c) and operator slots. The tensor object itself (lifetime, geometry, constructors)
 * is csrc/core/tensor.c; the ops compute. */
#include "tensor_type.h"

#include <stddef.h>
#include <string.h>
#include <structmember.h>

#include "../autograd/autograd.h"
#include "../core/devices.h"
#include "../core/layout.h"
#include "../core/tensor.h"
#include "../ops/convert.h"
#include "../ops/copy.h"
#include "../ops/inplace_view.h"
#include "../ops/shape.h"
#include "argparse.h"
#include "autograd_type.h"
#include "bind.h"
#include "index_key.h"
#include "interop.h"
#include "tensor_data.h"

/* ---- properties -------------------------------------------------------------------------------- */

/* The tensor's Size. Sizes are immutable and a tensor's geometry changes only through
 * mt_tensor_set_geometry, so one Size object serves every call (x.shape in a loop costs no allocation). */
static PyObject *
tensor_shape(mt_TensorObject *self)
{
    if (self->shape == NULL) {
        self->shape = mt_size_new(self->ndim, self->sizes);
        if (self->shape == NULL) {
            return NULL;
        }
    }
    Py_INCREF(self->shape);
    return self->shape;
}

static PyObject *
tensor_shape_get(mt_TensorObject *self, void *closure)
{
    return tensor_shape(self);
}

static PyObject *
tensor_dtype_get(mt_TensorObject *self, void *closure)
{
    PyObject *d = mt_dtype_object(self->dtype);
    Py_INCREF(d);
    return d;
}

static PyObject *
tensor_device_get(mt_TensorObject *self, void *closure)
{
    return mt_device_new(mt_tensor_device(self));
}

static PyObject *
tensor_is_cuda_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(mt_tensor_device(self).type == MT_DEVICE_CUDA);
}

static PyObject *
tensor_is_meta_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(mt_tensor_device(self).type == MT_DEVICE_META);
}

static PyObject *
tensor_layout_get(mt_TensorObject *self, void *closure)
{
    return mt_layout_strided();
}

static PyObject *
tensor_is_cpu_get(mt_TensorObject *self, void *closure)
{
    return PyBool_FromLong(mt_tensor_device(self).type == MT_DEVICE_CPU);
}

static PyObject *
tensor_ndim_get(mt_TensorObject *self, void *closure)
{
    return PyLong_FromLong(self->ndim);
}

static int
tensor_requires_grad_set(mt_TensorObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot delete requires_grad");
        return -1;
    }
    if (!PyBool_Check(value)) {
        /* torch's THPVariable_set_requires_grad: a RuntimeError, worded exactly so */
        PyErr_SetString(PyExc_RuntimeError, "requires_grad must be a bool");
        return -1;
    }
    return mt_tensor_set_requires_grad(self, value == Py_True, 0);
}

static PyObject *
tensor_itemsize_get(mt_TensorObject *self, void *closure)
{
    return PyLong_FromSize_t(mt_dtype_size(self->dtype));
}

static PyObject *
tensor_nbytes_get(mt_TensorObject *self, void *closure)
{
    /* in uint64 as torch's size_t nbytes: an expanded view of 2**61 float32s has 2**63 bytes (and
     * signed overflow is undefined behaviour) */
    return PyLong_FromUnsignedLongLong((unsigned long long)mt_tensor_numel(self) *
                                       (unsigned long long)mt_dtype_size(self->dtype));
}

static PyObject *
tensor_T_get(mt_TensorObject *self, void *closure)
{
    /* reversed dims: for <= 2-D, what torch users know as .T (torch's numpy_T is a permute) */
    int64_t dims[MT_MAX_DIMS];
    for (int i = 0; i < self->ndim; i++) {
        dims[i] = self->ndim - 1 - i;
    }
    return (PyObject *)mt_permute(self, self->ndim, dims);
}

static PyObject *
tensor_data_get(mt_TensorObject *self, void *closure)
{
    return mt_tensor_data_alias(self);
}

static int
tensor_data_set(mt_TensorObject *self, PyObject *value, void *closure)
{
    /* param.data = other: swap the storage and geometry, keep the object (nn.Module moves rely on it) */
    mt_TensorObject *src;

    if (value == NULL || !mt_Tensor_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "data must be a Tensor");
        return -1;
    }
    src = (mt_TensorObject *)value;
    if (self->requires_grad && !mt_dtype_is_floating(src->dtype)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "data set to a tensor that requires gradients must be floating point or complex dtype");
        return -1;
    }
    if (mt_tensor_rebind(self, src->storage, src->offset, src->ndim, src->sizes, src->strides) < 0) {
        return -1;
    }
    self->dtype = src->dtype;
    return 0;
}

static PyGetSetDef tensor_getset[] = {
    {"shape", (getter)tensor_shape_get, NULL, "The tensor's shape, a minitorch.Size.", NULL},
    {"dtype", (getter)tensor_dtype_get, NULL, "The element type.", NULL},
    {"device", (getter)tensor_device_get, NULL, "Where the tensor lives: cpu or cuda:N.", NULL},
    {"is_cuda", (getter)tensor_is_cuda_get, NULL, "True if the tensor lives on a CUDA device.", NULL},
    {"is_cpu", (getter)tensor_is_cpu_get, NULL, "True if the tensor lives in host memory.", NULL},
    {"is_meta", (getter)tensor_is_meta_get, NULL, "True if the tensor is on the meta device (no data).", NULL},
    {"layout", (getter)tensor_layout_get, NULL, "How the elements are addressed: minitorch.strided.", NULL},
    {"ndim", (getter)tensor_ndim_get, NULL, "The number of dimensions.", NULL},
    {"requires_grad", (getter)mt_tensor_requires_grad_get, (setter)tensor_requires_grad_set,
     "Whether autograd records the ops on this tensor (a leaf's flag, or having a grad_fn).", NULL},
    {"itemsize", (getter)tensor_itemsize_get, NULL, "Bytes per element.", NULL},
    {"nbytes", (getter)tensor_nbytes_get, NULL, "Bytes of the elements viewed by this tensor.", NULL},
    {"T", (getter)tensor_T_get, NULL, "The tensor with its dimensions reversed.", NULL},
    {"data", (getter)tensor_data_get, (setter)tensor_data_set, "The tensor's values, as a tensor.", NULL},
    {"grad", (getter)mt_tensor_grad_get, (setter)mt_tensor_grad_set,
     "The gradient backward() accumulated into this tensor, or None.", NULL},
    {"grad_fn", (getter)mt_tensor_grad_fn_get, NULL, "The autograd node that made this tensor (None for a leaf).",
     NULL},
    {"is_leaf", (getter)mt_tensor_is_leaf_get, NULL, "True unless an op recorded by autograd made this tensor.", NULL},
    {"retains_grad", (getter)mt_tensor_retains_grad_get, NULL, "True after retain_grad() on a non-leaf.", NULL},
    {"_backward_hooks", (getter)mt_tensor_backward_hooks_get, (setter)mt_tensor_backward_hooks_set, NULL, NULL},
    {"_base", (getter)mt_tensor_base_get, NULL, "The tensor this one is a view of, or None.", NULL},
    {"_version", (getter)mt_tensor_version_get, NULL, "How many in-place changes this memory has seen.", NULL},
    {"output_nr", (getter)mt_tensor_output_nr_get, NULL, "Which output of its grad_fn this tensor is.", NULL},
    {"__dict__", mt_tensor_dict_get, PyObject_GenericSetDict, "The tensor's own attributes.", NULL},
    {NULL},
};

/* ---- small methods ---------------------------------------------------------------------------- */

/* size(dim=None) and stride(dim=None): the whole tuple, or one dim's value */
static PyObject *
geometry_query(mt_TensorObject *self, const int64_t *values, mt_parser *parser, PyObject *const *args,
               Py_ssize_t nargs, PyObject *kwnames)
{
    mt_parsed p;
    int d;

    if (nargs == 0 && kwnames == NULL) {
        p.arg[0].obj = NULL;
    }
    else if (mt_parse(parser, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    if (p.arg[0].obj == NULL) {
        if (values == self->sizes) {
            return tensor_shape(self);
        }
        PyObject *t = PyTuple_New(self->ndim);
        if (t == NULL) {
            return NULL;
        }
        for (int i = 0; i < self->ndim; i++) {
            PyObject *v = PyLong_FromLongLong(values[i]);
            if (v == NULL) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, i, v);
        }
        return t;
    }
    if (self->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", p.arg[0].i);
        return NULL;
    }
    if (mt_wrap_dim(p.arg[0].i, self->ndim, &d) < 0) {
        return NULL;
    }
    return PyLong_FromLongLong(values[d]);
}

static PyObject *
tensor_size(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static mt_parser parser = MT_PARSER("size(int64_t? dim=None)");
    return geometry_query(self, self->sizes, &parser, args, nargs, kwnames);
}

static PyObject *
tensor_stride(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static mt_parser parser = MT_PARSER("stride(int64_t? dim=None)");
    return geometry_query(self, self->strides, &parser, args, nargs, kwnames);
}

static PyObject *
tensor_dim(mt_TensorObject *self, PyObject *unused)
{
    return PyLong_FromLong(self->ndim);
}

static PyObject *
tensor_numel(mt_TensorObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(mt_tensor_numel(self));
}

static PyObject *
tensor_element_size(mt_TensorObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(mt_dtype_size(self->dtype));
}

static PyObject *
tensor_storage_offset(mt_TensorObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(self->offset);
}

static PyObject *
tensor_data_ptr(mt_TensorObject *self, PyObject *unused)
{
    return PyLong_FromVoidPtr(mt_tensor_data(self));
}

static PyObject *
tensor_get_device(mt_TensorObject *self, PyObject *unused)
{
    mt_device d = mt_tensor_device(self);
    return PyLong_FromLong(d.type == MT_DEVICE_CUDA ? d.index : -1);
}

static PyObject *
tensor_is_floating_point(mt_TensorObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_dtype_is_floating(self->dtype));
}

static PyObject *
tensor_is_signed(mt_TensorObject *self, PyObject *unused)
{
    return PyBool_FromLong(mt_dtype_is_signed(self->dtype));
}

/* The binding of Tensor's own rows of ops.def (is_contiguous, requires_grad_). */
enum {
    A_MEMORY_FORMAT,
    A_REQUIRES_GRAD
};

static const char *const attr_roles[] = {"memory_format", "requires_grad", NULL};

static PyObject *
attr_call(const mt_call *c)
{
    mt_TensorObject *self = c->self;

    if (c->code == MT_ATTR_IS_CONTIGUOUS) {
        return PyBool_FromLong(mt_memory_format_is_contiguous(mt_call_arg(c, A_MEMORY_FORMAT)->memory_format,
                                                              self->ndim, self->sizes, self->strides));
    }
    if (c->code == MT_ATTR_IS_INFERENCE) {
        return PyBool_FromLong(mt_tensor_is_inference(self));
    }
    /* requires_grad_'s rules and wording (autograd_type.c) */
    if (mt_tensor_set_requires_grad(self, mt_call_arg(c, A_REQUIRES_GRAD)->b, 1) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

const mt_binding mt_binding_tensor_attr = {attr_call, NULL, attr_roles};

static PyObject *
tensor_new_dunder(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    /* Tensor(...) is legacy in torch; subclasses (nn.Parameter) are created via _make_subclass */
    PyErr_SetString(PyExc_TypeError,
                    "minitorch.Tensor cannot be constructed directly; use minitorch.tensor(data) or a factory");
    return NULL;
}

static PyObject *
tensor_make_subclass(PyObject *unused, PyObject *const *args, Py_ssize_t nargs)
{
    /* Tensor._make_subclass(cls, data, requires_grad): an object of `cls` viewing data's storage */
    PyTypeObject *cls;
    mt_TensorObject *src;
    mt_TensorObject *t;
    int requires_grad = 0;

    if (nargs < 2 || !PyType_Check(args[0]) || !PyType_IsSubtype((PyTypeObject *)args[0], &mt_TensorType) ||
        !mt_Tensor_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_make_subclass(cls, data, requires_grad=False)");
        return NULL;
    }
    cls = (PyTypeObject *)args[0];
    src = (mt_TensorObject *)args[1];
    if (nargs > 2) {
        requires_grad = PyObject_IsTrue(args[2]);
        if (requires_grad < 0) {
            return NULL;
        }
    }
    t = mt_tensor_alloc(cls);
    if (t == NULL) {
        return NULL;
    }
    if (mt_tensor_set_geometry(t, src->ndim, src->sizes, src->strides) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    mt_storage_incref(src->storage);
    t->storage = src->storage;
    t->offset = src->offset;
    t->dtype = src->dtype;
    if (requires_grad && !mt_dtype_is_floating(t->dtype)) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_RuntimeError, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    if (requires_grad && mt_ag_check_inference_requires_grad(t) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    t->requires_grad = requires_grad;
    return (PyObject *)t;
}

/* ---- Python protocols -------------------------------------------------------------------------- */

static PyObject *tensor_str_fn = NULL;

static PyObject *
tensor_repr(mt_TensorObject *self)
{
    /* formatting follows torch/_tensor_str.py and lives in Python (minitorch/_tensor_str.py) */
    if (tensor_str_fn == NULL) {
        PyObject *mod = PyImport_ImportModule("minitorch._tensor_str");
        if (mod == NULL) {
            return NULL;
        }
        tensor_str_fn = PyObject_GetAttrString(mod, "_str");
        Py_DECREF(mod);
        if (tensor_str_fn == NULL) {
            return NULL;
        }
    }
    return PyObject_CallOneArg(tensor_str_fn, (PyObject *)self);
}

/* ---- names torch.Tensor has and minitorch lacks ----------------------------------------------- */

/* minitorch._missing.tensor_attribute_message, imported at the first failed lookup of a public name
 * (as tensor_str_fn is at the first repr), so that `import minitorch` loads neither it nor the list of
 * torch's names behind it. */
static PyObject *missing_attribute_fn = NULL;

/* Asks minitorch/_missing.py for the message about `name`, which the lookup did not find on `self`:
 * *message is a new str when torch.Tensor has the name, else NULL. A failure while asking leaves
 * *message NULL, so that the caller raises the plain AttributeError (getattr(t, name, default) must
 * not see another error), except for an exception that is not an Exception (KeyboardInterrupt), which
 * is kept and returns -1. */
static int
tensor_missing_attribute_message(PyObject *self, PyObject *name, PyObject **message)
{
    *message = NULL;
    if (missing_attribute_fn == NULL) {
        PyObject *mod = PyImport_ImportModule("minitorch._missing");
        if (mod == NULL) {
            goto error;
        }
        missing_attribute_fn = PyObject_GetAttrString(mod, "tensor_attribute_message");
        Py_DECREF(mod);
        if (missing_attribute_fn == NULL) {
            goto error;
        }
    }
    *message = PyObject_CallFunctionObjArgs(missing_attribute_fn, (PyObject *)Py_TYPE(self), name, NULL);
    if (*message == NULL) {
        goto error;
    }
    if (!PyUnicode_Check(*message)) {
        Py_CLEAR(*message); /* None: torch lacks the name too */
    }
    return 0;

error:
    if (!PyErr_ExceptionMatches(PyExc_Exception)) {
        return -1;
    }
    PyErr_Clear();
    return 0;
}

/* Tensor.__getattr__, which Python calls only after the ordinary lookup failed (and never for a
 * successful one, whose method loads CPython still specializes). It raises Python's own AttributeError,
 * with the sentence saying that PyTorch has the name when torch.Tensor does. Names starting with "_"
 * (the probes of copy, pickle and NumPy) are answered at once. */
static PyObject *
tensor_getattr(PyObject *self, PyObject *name)
{
    PyObject *message = NULL;
    Py_ssize_t length;

    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "attribute name must be string, not '%.200s'", Py_TYPE(name)->tp_name);
        return NULL;
    }
    length = PyUnicode_GetLength(name);
    if (length < 0) {
        return NULL;
    }
    if (length > 0 && PyUnicode_ReadChar(name, 0) != '_' &&
        tensor_missing_attribute_message(self, name, &message) < 0) {
        return NULL;
    }
    if (message != NULL) {
        PyErr_SetObject(PyExc_AttributeError, message);
        Py_DECREF(message);
    }
    else {
        /* CPython's text for a missing attribute */
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%U'", Py_TYPE(self)->tp_name, name);
    }
    return NULL;
}

/* Python 3.12 and newer keep their specialized method loads on a type with __getattr__; 3.11 and older
 * fall back to a generic lookup for every method call (t.dim() 16 -> 60 ns, t.to('cpu') 37 -> 80 ns),
 * too high a price for a message, so there a missing Tensor attribute keeps Python's plain one. */
#if PY_VERSION_HEX >= 0x030C0000
#define MT_TENSOR_GETATTR 1
#endif

/* Fills tp_getattro from the __getattr__ that tp_methods put in the type's dict: PyType_FromSpec wires
 * only Py_tp_* slots, while assigning a dunder, as a class statement does, installs CPython's own
 * dispatcher (generic lookup, then __getattr__ on failure). That dispatcher, unlike a custom C
 * tp_getattro, keeps the specialized method loads of CPython 3.12+, so `t.size()` costs what it did. */
static int
tensor_install_getattr(PyTypeObject *type)
{
    PyObject *getattr = PyObject_GetAttrString((PyObject *)type, "__getattr__");
    int status;

    if (getattr == NULL) {
        return -1;
    }
    status = PyObject_SetAttrString((PyObject *)type, "__getattr__", getattr);
    Py_DECREF(getattr);
    return status;
}

static Py_ssize_t
tensor_length(mt_TensorObject *self)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)self->sizes[0];
}

static PyObject *
tensor_iter(mt_TensorObject *self)
{
    /* torch's Tensor.__iter__ is iter(self.unbind(0)): the rows are unbind's views, with its
     * UnbindBackward0 node when self requires grad */
    PyObject *rows;
    PyObject *it;
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
        return NULL;
    }
    rows = mt_unbind(self, 0);
    if (rows == NULL) {
        return NULL;
    }
    it = PyObject_GetIter(rows);
    Py_DECREF(rows);
    return it;
}

static int
tensor_bool(mt_TensorObject *self)
{
    int64_t n = mt_tensor_numel(self);
    PyObject *v;
    int r;
    if (n != 1) {
        if (n == 0) {
            PyErr_SetString(PyExc_RuntimeError, "Boolean value of Tensor with no values is ambiguous");
        }
        else {
            PyErr_SetString(PyExc_RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
        }
        return -1;
    }
    v = mt_tensor_item(self);
    if (v == NULL) {
        return -1;
    }
    r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* float(t) and int(t): the single element as a Python number, converted by `convert` */
static PyObject *
single_element_number(mt_TensorObject *self, PyObject *(*convert)(PyObject *))
{
    PyObject *v;
    PyObject *result;
    if (mt_tensor_numel(self) != 1) {
        PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
        return NULL;
    }
    v = mt_tensor_item(self);
    if (v == NULL) {
        return NULL;
    }
    result = convert(v);
    Py_DECREF(v);
    return result;
}

static PyObject *
tensor_float(mt_TensorObject *self)
{
    return single_element_number(self, PyNumber_Float);
}

static PyObject *
tensor_int(mt_TensorObject *self)
{
    return single_element_number(self, PyNumber_Long);
}

static PyObject *
tensor_index(mt_TensorObject *self)
{
    if (mt_tensor_numel(self) != 1 || !mt_dtype_is_integral(self->dtype, 1)) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    return tensor_int(self);
}

static PyObject *
tensor_format(mt_TensorObject *self, PyObject *spec)
{
    /* torch formats a 0-d tensor as its Python scalar (f"{t:.2f}" works), unless it is a meta tensor;
     * others via str() */
    PyObject *value;
    PyObject *result;
    if (self->ndim == 0 && Py_TYPE(self) == &mt_TensorType && mt_tensor_device(self).type != MT_DEVICE_META) {
        value = mt_tensor_item(self);
    }
    else {
        /* torch falls back to object.__format__, which takes only an empty spec */
        if (!PyUnicode_Check(spec) || PyUnicode_GET_LENGTH(spec) > 0) {
            PyErr_Format(PyExc_TypeError, "unsupported format string passed to %s.__format__",
                         Py_TYPE(self)->tp_name);
            return NULL;
        }
        value = PyObject_Str((PyObject *)self);
    }
    if (value == NULL) {
        return NULL;
    }
    result = PyObject_Format(value, spec);
    Py_DECREF(value);
    return result;
}

static Py_hash_t
tensor_hash(mt_TensorObject *self)
{
    /* tensors hash by identity, like torch's (== is elementwise, so value hashing is impossible) */
    Py_hash_t h = (Py_hash_t)((uintptr_t)self >> 4);
    return h == -1 ? -2 : h;
}

/* ---- storages for pickling and copying ------------------------------------------------------------
 * torch's pickling and deepcopy live in Python (torch/_tensor.py); minitorch's port is
 * minitorch/_serialization.py, which owns the rules (what a pickle holds, which tensors share a storage
 * afterwards). These private methods give it a tensor's storage as a whole: an identity, its bytes, a copy,
 * and views of it with a geometry that is checked like any geometry from outside. */

static PyObject *serialization_module = NULL;

/* minitorch._serialization.<name>, imported at the first pickle or copy (as _tensor_str at the first
 * repr). New reference. */
static PyObject *
serialization_function(const char *name)
{
    if (serialization_module == NULL) {
        serialization_module = PyImport_ImportModule("minitorch._serialization");
        if (serialization_module == NULL) {
            return NULL;
        }
    }
    return PyObject_GetAttrString(serialization_module, name);
}

static PyObject *
tensor_reduce_ex(mt_TensorObject *self, PyObject *protocol)
{
    PyObject *fn = serialization_function("reduce_tensor");
    PyObject *result;
    if (fn == NULL) {
        return NULL;
    }
    result = PyObject_CallFunctionObjArgs(fn, (PyObject *)self, protocol, NULL);
    Py_DECREF(fn);
    return result;
}

static PyObject *
tensor_deepcopy(mt_TensorObject *self, PyObject *memo)
{
    PyObject *fn = serialization_function("deepcopy_tensor");
    PyObject *result;
    if (fn == NULL) {
        return NULL;
    }
    result = PyObject_CallFunctionObjArgs(fn, (PyObject *)self, memo, NULL);
    Py_DECREF(fn);
    return result;
}

static PyObject *
tensor_storage_key(mt_TensorObject *self, PyObject *unused)
{
    /* the storage's identity while it lives (two tensors share memory exactly when their keys match) */
    return PyLong_FromVoidPtr(self->storage);
}

static PyObject *
tensor_storage_nbytes(mt_TensorObject *self, PyObject *unused)
{
    /* the size of the whole storage in bytes (what save writes for it), without copying it */
    (void)unused;
    return PyLong_FromSize_t(self->storage->nbytes);
}

static PyObject *
tensor_storage_bytes(mt_TensorObject *self, PyObject *unused)
{
    /* every byte of the storage, copied to the host */
    mt_storage *s = self->storage;
    PyObject *bytes;

    if (s->nbytes > (size_t)PY_SSIZE_T_MAX) {
        return PyErr_NoMemory();
    }
    if (mt_device_is_host_memory(s->device)) {
        return PyBytes_FromStringAndSize(s->data, (Py_ssize_t)s->nbytes);
    }
    bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)s->nbytes);
    if (bytes != NULL &&
        mt_memcpy(PyBytes_AS_STRING(bytes), mt_cpu_device(), NULL, s->data, s->device, s, s->nbytes) < 0) {
        Py_CLEAR(bytes);
    }
    return bytes;
}

/* A tensor of exact type Tensor over `storage` with the given geometry, which is checked against the
 * storage first (RuntimeError, as torch's set_). */
static mt_TensorObject *
checked_view(mt_storage *storage, mt_dtype dtype, int ndim, const int64_t *sizes, const int64_t *strides,
             int64_t offset)
{
    size_t itemsize = mt_dtype_size(dtype);
    uint64_t byte_offset;

    if (offset < 0) {
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)offset);
        return NULL;
    }
    if (__builtin_mul_overflow((uint64_t)offset, (uint64_t)itemsize, &byte_offset)) {
        byte_offset = UINT64_MAX;
    }
    if (mt_check_external_geometry(PyExc_RuntimeError, storage->data, storage->nbytes, byte_offset, ndim, sizes,
                                   strides, itemsize, NULL) < 0) {
        return NULL;
    }
    return mt_tensor_from_storage(storage, ndim, sizes, strides, offset, dtype);
}

static PyObject *
tensor_storage_copy(mt_TensorObject *self, PyObject *unused)
{
    /* the same geometry on a copy of the whole storage (same device): what deepcopy makes of the first
     * tensor it meets on a storage */
    mt_storage *s = self->storage;
    mt_storage *copy = mt_storage_new(s->nbytes, s->device);
    mt_TensorObject *t;

    if (copy == NULL) {
        return NULL;
    }
    if (mt_memcpy(copy->data, copy->device, NULL, s->data, s->device, s, s->nbytes) < 0) {
        mt_storage_decref(copy);
        return NULL;
    }
    t = checked_view(copy, self->dtype, self->ndim, self->sizes, self->strides, self->offset);
    mt_storage_decref(copy);
    return (PyObject *)t;
}

static PyObject *
tensor_storage_view(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* _storage_view(storage_offset, size, stride, dtype=None): another view of self's storage (its elements
     * read as dtype, self's by default), read as torch's set_ reads its geometry (set_'s messages, without
     * its storage argument) */
    static mt_parser parser =
        MT_PARSER("set_(SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride, ScalarType? dtype=None)");
    mt_parsed p;
    PyObject *view = NULL;

    if (mt_parse(&parser, args, nargs, NULL, &p) < 0) {
        return NULL;
    }
    if (p.arg[2].nints != p.arg[1].nints) {
        PyErr_Format(PyExc_RuntimeError, "unequal size length (%d) and stride length (%d)", p.arg[1].nints,
                     p.arg[2].nints);
    }
    else {
        view = (PyObject *)checked_view(self->storage, p.arg[3].obj == NULL ? self->dtype : p.arg[3].dtype,
                                        p.arg[1].nints, p.arg[1].ints, p.arg[2].ints, p.arg[0].i);
    }
    mt_parsed_clear(&p);
    return view;
}

static PyObject *
tensor_set_storage(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* _set_(source, storage_offset, size, stride=None): torch's set_ onto the storage of the tensor `source`
     * (minitorch/storage.py's Tensor.set_ parses the public forms and calls this) */
    static mt_parser parser = MT_PARSER(
        "set_(Tensor source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef? stride=None)");
    mt_parsed p;
    PyObject *result;

    if (mt_parse(&parser, args, nargs, NULL, &p) < 0) {
        return NULL;
    }
    result = mt_set_(self, p.arg[0].tensor, p.arg[1].i, p.arg[2].nints, p.arg[2].ints, p.arg[3].nints,
                     p.arg[3].obj == NULL ? NULL : p.arg[3].ints);
    mt_parsed_clear(&p);
    return result;
}

static PyObject *
tensor_storage_resize(mt_TensorObject *self, PyObject *arg)
{
    /* _storage_resize_(nbytes): the storage's buffer replaced by one of nbytes (UntypedStorage.resize_) */
    Py_ssize_t nbytes = PyNumber_AsSsize_t(arg, PyExc_OverflowError);

    if (nbytes == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (nbytes < 0) {
        PyErr_Format(PyExc_RuntimeError, "new_size must be non-negative, but got %zd", nbytes);
        return NULL;
    }
    if (mt_storage_resize(self->storage, (size_t)nbytes) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static void
release_storage_slice(mt_storage *s)
{
    mt_storage_unexport((mt_storage *)s->ctx);
}

static PyObject *
tensor_storage_slice(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* _storage_slice(start, stop): a uint8 tensor over a new storage that is bytes [start, stop) of self's
     * (UntypedStorage's slice: the memory is shared, and the bytes stay alive while the slice lives, even
     * if self's storage is resized); 0 <= start <= stop <= nbytes, checked by the caller and again here */
    mt_storage *parent = self->storage, *slice;
    mt_TensorObject *t;
    Py_ssize_t start, stop;
    int64_t size, stride = 1;

    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "_storage_slice(start, stop)");
        return NULL;
    }
    start = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    stop = start == -1 && PyErr_Occurred() ? -1 : PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0 || stop < start || (size_t)stop > parent->nbytes) {
        PyErr_Format(PyExc_IndexError, "bytes [%zd, %zd) are not within the storage's %zu", start, stop,
                     parent->nbytes);
        return NULL;
    }
    if (parent->data == NULL) {
        slice = mt_storage_new((size_t)(stop - start), parent->device);    /* meta: no bytes to share */
    }
    else {
        slice = mt_storage_wrap((char *)parent->data + start, (size_t)(stop - start), parent->device,
                                release_storage_slice, parent);
        if (slice != NULL) {
            slice->pinned = parent->pinned;
            mt_storage_export(parent);
        }
    }
    if (slice == NULL) {
        return NULL;
    }
    size = stop - start;
    t = mt_tensor_from_storage(slice, 1, &size, &stride, 0, MT_UINT8);
    mt_storage_decref(slice);
    return (PyObject *)t;
}

static PyObject *
tensor_from_storage_bytes(PyObject *unused, PyObject *const *args, Py_ssize_t nargs)
{
    /* Tensor._from_storage_bytes(data, dtype, device): a 1-d tensor over a new storage on `device`
     * holding `data` (the bytes of a pickled storage); its views come from _storage_view */
    mt_dtype dtype;
    mt_device requested, device;
    mt_storage *storage;
    mt_TensorObject *t;
    int64_t size, stride = 1;
    Py_ssize_t nbytes;

    if (nargs != 3 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_from_storage_bytes(data: bytes, dtype, device)");
        return NULL;
    }
    if (mt_dtype_from_object(args[1], &dtype) < 0 || mt_device_from_object(args[2], &requested) < 0 ||
        mt_device_resolve(requested, &device) < 0) {
        return NULL;
    }
    if (device.type == MT_DEVICE_CPU) {
        device = mt_cpu_device();
    }
    nbytes = PyBytes_GET_SIZE(args[0]);
    storage = mt_storage_new((size_t)nbytes, device);
    if (storage == NULL) {
        return NULL;
    }
    if (mt_memcpy(storage->data, device, NULL, PyBytes_AS_STRING(args[0]), mt_cpu_device(), NULL,
                  (size_t)nbytes) < 0) {
        mt_storage_decref(storage);
        return NULL;
    }
    size = (int64_t)((size_t)nbytes / mt_dtype_size(dtype));
    t = mt_tensor_from_storage(storage, 1, &size, &stride, 0, dtype);
    mt_storage_decref(storage);
    return (PyObject *)t;
}

static PyObject *
tensor_numpy(mt_TensorObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static mt_parser parser = MT_PARSER("numpy(*, bool force=False)");
    mt_parsed p;

    if (nargs == 0 && kwnames == NULL) {
        return mt_tensor_to_numpy(self, 0);
    }
    if (mt_parse(&parser, args, nargs, kwnames, &p) < 0) {
        return NULL;
    }
    return mt_tensor_to_numpy(self, p.arg[0].b);
}

static PyMethodDef tensor_own_methods[] = {
    {"size", (PyCFunction)(void (*)(void))tensor_size, METH_FASTCALL | METH_KEYWORDS,
     "size(dim=None) -> Size or int\n\nThe shape, or the length of one dimension."},
    {"stride", (PyCFunction)(void (*)(void))tensor_stride, METH_FASTCALL | METH_KEYWORDS,
     "stride(dim=None) -> tuple or int\n\nSteps in elements between neighbours along each dimension."},
    {"dim", (PyCFunction)tensor_dim, METH_NOARGS, "dim() -> int\n\nThe number of dimensions."},
    {"ndimension", (PyCFunction)tensor_dim, METH_NOARGS, "Alias of dim()."},
    {"numel", (PyCFunction)tensor_numel, METH_NOARGS, "numel() -> int\n\nThe number of elements."},
    {"nelement", (PyCFunction)tensor_numel, METH_NOARGS, "Alias of numel()."},
    {"element_size", (PyCFunction)tensor_element_size, METH_NOARGS, "Bytes per element."},
    {"storage_offset", (PyCFunction)tensor_storage_offset, METH_NOARGS,
     "The offset of the first element in the storage, in elements."},
    {"data_ptr", (PyCFunction)tensor_data_ptr, METH_NOARGS, "The address of the first element."},
    {"get_device", (PyCFunction)tensor_get_device, METH_NOARGS, "The CUDA device index, or -1 on the CPU."},
    {"is_floating_point", (PyCFunction)tensor_is_floating_point, METH_NOARGS, "True for float dtypes."},
    {"is_signed", (PyCFunction)tensor_is_signed, METH_NOARGS, "True for dtypes with negative values (not bool or uint8)."},
    {"numpy", (PyCFunction)(void (*)(void))tensor_numpy, METH_FASTCALL | METH_KEYWORDS,
     "numpy(*, force=False) -> numpy.ndarray\n\n"
     "The tensor's values as a NumPy array that shares its memory: writes on either side are seen by the\n"
     "other, and the array keeps the memory alive. Only CPU tensors that do not require grad, unless\n"
     "force=True (which copies to the host first when needed)."},
    {"detach", (PyCFunction)mt_tensor_detach, METH_NOARGS,
     "A new tensor sharing the values and the version counter, outside the autograd graph."},
    {"detach_", (PyCFunction)mt_tensor_detach_, METH_NOARGS, "Takes this tensor out of the autograd graph."},
    {"retain_grad", (PyCFunction)mt_tensor_retain_grad, METH_NOARGS,
     "Makes backward() fill .grad of this non-leaf tensor too."},
    {"_is_view", (PyCFunction)mt_tensor_is_view, METH_NOARGS, "True if this tensor is a view of another."},
    {"_make_subclass", (PyCFunction)(void (*)(void))tensor_make_subclass, METH_FASTCALL | METH_STATIC, NULL},
    {"__reduce_ex__", (PyCFunction)tensor_reduce_ex, METH_O, NULL},
    {"__deepcopy__", (PyCFunction)tensor_deepcopy, METH_O, NULL},
    {"_storage_key", (PyCFunction)tensor_storage_key, METH_NOARGS, NULL},
    {"_storage_nbytes", (PyCFunction)tensor_storage_nbytes, METH_NOARGS, NULL},
    {"_storage_bytes", (PyCFunction)tensor_storage_bytes, METH_NOARGS, NULL},
    {"_storage_copy", (PyCFunction)tensor_storage_copy, METH_NOARGS, NULL},
    {"_storage_view", (PyCFunction)(void (*)(void))tensor_storage_view, METH_FASTCALL, NULL},
    {"_set_", (PyCFunction)(void (*)(void))tensor_set_storage, METH_FASTCALL, NULL},
    {"_storage_resize_", (PyCFunction)tensor_storage_resize, METH_O, NULL},
    {"_storage_slice", (PyCFunction)(void (*)(void))tensor_storage_slice, METH_FASTCALL, NULL},
    {"_from_storage_bytes", (PyCFunction)(void (*)(void))tensor_from_storage_bytes, METH_FASTCALL | METH_STATIC,
     NULL},
    {"__format__", (PyCFunction)tensor_format, METH_O, NULL},
#ifdef MT_TENSOR_GETATTR
    {"__getattr__", (PyCFunction)tensor_getattr, METH_O,
     "Called after a failed lookup: AttributeError, saying so when PyTorch has the name."},
#endif
    {NULL},
};

/* tp_methods is assembled at init from tensor_own_methods, the op table's methods and the Python-data and interop tables */
static PyMethodDef *tensor_all_methods = NULL;

static PyMethodDef *
concat_method_tables(PyMethodDef *const *tables, size_t ntables)
{
    size_t count = 0;
    size_t k = 0;
    PyMethodDef *all;

    for (size_t t = 0; t < ntables; t++) {
        for (PyMethodDef *m = tables[t]; m->ml_name != NULL; m++) {
            count++;
        }
    }
    all = PyMem_Calloc(count + 1, sizeof(PyMethodDef));
    if (all == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (size_t t = 0; t < ntables; t++) {
        for (PyMethodDef *m = tables[t]; m->ml_name != NULL; m++) {
            all[k++] = *m;
        }
    }
    return all;
}

PyMethodDef *
mt_concat_method_tables(PyMethodDef *const *tables, size_t ntables)
{
    return concat_method_tables(tables, ntables);
}

PyDoc_STRVAR(tensor_doc,
             "A multi-dimensional array of one dtype on one device (cpu or cuda), like torch.Tensor.\n\n"
             "Create tensors with minitorch.tensor(data) or factories such as minitorch.zeros(2, 3).");

static PyMemberDef tensor_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(mt_TensorObject, weakreflist), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(mt_TensorObject, dict), READONLY, NULL},
    {NULL},
};

/* A heap type, so that Python's own messages name it 'Tensor' (as torch's do) while its repr is
 * <class 'minitorch.Tensor'>. tp_methods and the operator slots are filled in at init. */
static PyType_Slot tensor_slots[] = {
    {Py_tp_dealloc, mt_tensor_dealloc},
    {Py_tp_repr, tensor_repr},
    {Py_tp_hash, tensor_hash},
    {Py_tp_doc, (void *)tensor_doc},
    {Py_tp_traverse, mt_tensor_traverse},
    {Py_tp_clear, mt_tensor_clear},
    {Py_tp_iter, tensor_iter},
    {Py_tp_getset, tensor_getset},
    {Py_tp_setattro, mt_tensor_setattro},
    {Py_tp_members, tensor_members},
    {Py_tp_new, tensor_new_dunder},
    {Py_nb_bool, tensor_bool},
    {Py_nb_float, tensor_float},
    {Py_nb_int, tensor_int},
    {Py_nb_index, tensor_index},
    {Py_sq_length, tensor_length},
    {Py_mp_length, tensor_length},
    {Py_mp_subscript, mt_tensor_getitem},
    {Py_mp_ass_subscript, mt_tensor_setitem},
    {Py_bf_getbuffer, mt_tensor_getbuffer},
    {Py_bf_releasebuffer, mt_tensor_releasebuffer},
    {Py_tp_methods, NULL},
    {0, NULL},
};

#define TENSOR_FIXED_SLOTS (sizeof(tensor_slots) / sizeof(tensor_slots[0]) - 1)

/* tensor_slots and the operator slots of the op table (mt_bind_tensor_slots), assembled at init */
static PyType_Slot tensor_all_slots[TENSOR_FIXED_SLOTS + MT_BIND_MAX_SLOTS + 1];

static PyType_Spec tensor_spec = {
    .name = "minitorch.Tensor",
    .basicsize = sizeof(mt_TensorObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = tensor_all_slots,
};

int
mt_tensor_init(PyObject *module)
{
    PyMethodDef *tables[] = {
        tensor_own_methods,
        mt_bind_tensor_methods(),
        mt_tensor_data_methods,
        mt_interop_tensor_methods,
    };
    if (mt_tensor_core_init() < 0) {
        return -1;
    }
    tensor_all_methods = concat_method_tables(tables, sizeof(tables) / sizeof(tables[0]));
    if (tensor_all_methods == NULL) {
        return -1;
    }
    for (PyType_Slot *slot = tensor_slots; slot->slot != 0; slot++) {
        if (slot->slot == Py_tp_methods) {
            slot->pfunc = tensor_all_methods;
        }
    }
    memcpy(tensor_all_slots, tensor_slots, sizeof(PyType_Slot) * TENSOR_FIXED_SLOTS);
    mt_bind_tensor_slots(tensor_all_slots + TENSOR_FIXED_SLOTS, MT_BIND_MAX_SLOTS);
    mt_TensorTypePtr = (PyTypeObject *)PyType_FromSpec(&tensor_spec);
    if (mt_TensorTypePtr == NULL) {
        return -1;
    }
    /* as for classes defined in Python: messages use the bare name, repr uses __module__ */
    mt_TensorTypePtr->tp_name = "Tensor";
#ifdef MT_TENSOR_GETATTR
    if (tensor_install_getattr(mt_TensorTypePtr) < 0) {
        return -1;
    }
#endif
    Py_INCREF(&mt_TensorType);
    if (PyModule_AddObject(module, "Tensor", (PyObject *)&mt_TensorType) < 0) {
        Py_DECREF(&mt_TensorType);
        return -1;
    }
    return 0;
}

