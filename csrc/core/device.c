/* device.c: the `minitorch.device` type. Parsing, printing, equality and hashing follow c10::Device
 * and torch/csrc/Device.cpp exactly, errors included. A device object may name any of torch's device
 * types (torch.device('mps') is a valid object); only cpu, cuda and meta can hold tensors, which is checked
 * where tensors are made, not here. Its constructor, which reads Python arguments, is
 * csrc/python/device_type.c's. */
#include "device.h"
#include "devices.h"
#include "scalar.h"

#include <string.h>

/* The device types torch's parser accepts, in the order its error message lists them, with
 * c10::DeviceType's numeric values (used by the hash). A type's place here is its mt_device_type. */
static const struct {
    const char *name;
    int c10_value;
} device_types[] = {
    {"cpu", 0}, {"cuda", 1}, {"ipu", 18}, {"xpu", 12}, {"mkldnn", 2}, {"opengl", 3}, {"opencl", 4},
    {"ideep", 5}, {"hip", 6}, {"ve", 16}, {"fpga", 7}, {"maia", 8}, {"xla", 9}, {"lazy", 17},
    {"vulkan", 10}, {"mps", 13}, {"meta", 14}, {"hpu", 15}, {"mtia", 19}, {"privateuseone", 20},
};
#define NUM_DEVICE_TYPES ((int)(sizeof(device_types) / sizeof(device_types[0])))

void
mt_device_format(mt_device d, char *buf, size_t len)
{
    if (d.index >= 0) {
        snprintf(buf, len, "%s:%d", device_types[d.type].name, d.index);
    }
    else {
        snprintf(buf, len, "%s", device_types[d.type].name);
    }
}

static int
parse_type(const char *s, Py_ssize_t n, int *out)
{
    for (int i = 0; i < NUM_DEVICE_TYPES; i++) {
        if ((Py_ssize_t)strlen(device_types[i].name) == n && strncmp(device_types[i].name, s, (size_t)n) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

int
mt_device_index_checked(int64_t index, int *out)
{
    if (index < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Device index must not be negative");
        return -1;
    }
    if (index > 127) {
        PyErr_Format(PyExc_RuntimeError, "Device index must be at most 127 (a device index is an int8), got %lld",
                     (long long)index);
        return -1;
    }
    *out = (int)index;
    return 0;
}

/* A device index given as a Python int (torch's THPUtils_unpackLong, then mt_device_index_checked). */
static int
index_from_long(PyObject *obj, int *out)
{
    int64_t index;

    if (mt_unpack_long(obj, &index) < 0) {
        return -1;
    }
    return mt_device_index_checked(index, out);
}

/* Parses "type" or "type:index" like c10::Device(const std::string&). */
static int
parse_device_string(PyObject *str, mt_device *out)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(str, &len);
    Py_ssize_t type_len = 0;

    if (s == NULL) {
        return -1;
    }
    if (len == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Device string must not be empty");
        return -1;
    }
    while (type_len < len && ((s[type_len] >= 'a' && s[type_len] <= 'z') ||
                              (s[type_len] >= 'A' && s[type_len] <= 'Z') || s[type_len] == '_')) {
        type_len++;
    }
    if (type_len == 0) {
        goto invalid;
    }
    out->index = -1;
    if (type_len < len) {
        /* the rest must be ":" followed by 0 or a number without a leading zero */
        const char *p = s + type_len + 1;
        Py_ssize_t digits = len - type_len - 1;
        long long index = 0;
        if (s[type_len] != ':' || digits <= 0 || digits > 9 || (p[0] == '0' && digits > 1)) {
            goto invalid;
        }
        for (Py_ssize_t i = 0; i < digits; i++) {
            if (p[i] < '0' || p[i] > '9') {
                goto invalid;
            }
            index = index * 10 + (p[i] - '0');
        }
        if (index > 127) {
            /* c10 stores the index in an int8 */
            goto invalid;
        }
        out->index = (int)index;
    }
    if (parse_type(s, type_len, &out->type) < 0) {
        PyObject *name = PyUnicode_FromStringAndSize(s, type_len);
        if (name != NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
                         "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
                         "device string: %U",
                         name);
            Py_DECREF(name);
        }
        return -1;
    }
    return 0;

invalid:
    PyErr_Format(PyExc_RuntimeError, "Invalid device string: '%s'", s);
    return -1;
}

int
mt_device_from_object(PyObject *obj, mt_device *out)
{
    if (mt_Device_Check(obj)) {
        *out = ((mt_DeviceObject *)obj)->device;
        return 0;
    }
    if (PyUnicode_Check(obj)) {
        return parse_device_string(obj, out);
    }
    if (PyLong_Check(obj) && !PyBool_Check(obj)) {
        /* an int means an index on the accelerator, i.e. CUDA: a CUDA build has one whether or not a GPU
         * is there (as torch's CUDA build); a CPU-only build only on the simulated GPU */
        int index;
        if (index_from_long(obj, &index) < 0) {
            return -1;
        }
#ifndef MINITORCH_WITH_CUDA
        if (mt_cuda_device_count() == 0) {
            PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
            return -1;
        }
#endif
        out->type = MT_DEVICE_CUDA;
        out->index = index;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "Expected a torch.device, a string or an integer, but got %s",
                 Py_TYPE(obj)->tp_name);
    return -1;
}

PyObject *
mt_device_new(mt_device d)
{
    mt_DeviceObject *self = PyObject_New(mt_DeviceObject, &mt_DeviceType);
    if (self != NULL) {
        self->device = d;
    }
    return (PyObject *)self;
}

static PyObject *
device_repr(mt_DeviceObject *self)
{
    if (self->device.index >= 0) {
        return PyUnicode_FromFormat("device(type='%s', index=%d)", device_types[self->device.type].name,
                                    self->device.index);
    }
    return PyUnicode_FromFormat("device(type='%s')", device_types[self->device.type].name);
}

static PyObject *
device_str(mt_DeviceObject *self)
{
    char buf[64];
    mt_device_format(self->device, buf, sizeof(buf));
    return PyUnicode_FromString(buf);
}

static Py_hash_t
device_hash(mt_DeviceObject *self)
{
    /* c10's std::hash<Device>: type in the high bits, the index as an unsigned byte in the low bits */
    Py_hash_t h = ((Py_hash_t)device_types[self->device.type].c10_value << 16) |
                  (Py_hash_t)(uint8_t)(int8_t)self->device.index;
    return h == -1 ? -2 : h;
}

static PyObject *
device_richcompare(PyObject *a, PyObject *b, int op)
{
    int equal;

    if (!mt_Device_Check(a) || !mt_Device_Check(b)) {
        if (op == Py_EQ) {
            Py_RETURN_FALSE;
        }
        if (op == Py_NE) {
            Py_RETURN_TRUE;
        }
        PyErr_SetString(PyExc_TypeError, "comparison not implemented");
        return NULL;
    }
    equal = mt_device_equal(((mt_DeviceObject *)a)->device, ((mt_DeviceObject *)b)->device);
    if (op == Py_EQ) {
        return PyBool_FromLong(equal);
    }
    if (op == Py_NE) {
        return PyBool_FromLong(!equal);
    }
    PyErr_SetString(PyExc_TypeError, "comparison not implemented");
    return NULL;
}

static PyObject *
device_type_get(mt_DeviceObject *self, void *closure)
{
    return PyUnicode_FromString(device_types[self->device.type].name);
}

static PyObject *
device_index_get(mt_DeviceObject *self, void *closure)
{
    if (self->device.index < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(self->device.index);
}

static PyObject *
device_reduce(mt_DeviceObject *self, PyObject *unused)
{
    PyObject *type = device_type_get(self, NULL);
    PyObject *result;
    if (type == NULL) {
        return NULL;
    }
    if (self->device.index >= 0) {
        result = Py_BuildValue("O(Ni)", (PyObject *)Py_TYPE(self), type, self->device.index);
    }
    else {
        result = Py_BuildValue("O(N)", (PyObject *)Py_TYPE(self), type);
    }
    return result;
}

/* ---- the factories' default device: torch.set_default_device (the base) and `with torch.device(...)`
 * blocks (a stack above it), per thread as torch's device modes are. */

#define DEVICE_CONTEXT_DEPTH 256

static _Thread_local int base_set;
static _Thread_local mt_device base_device;
static _Thread_local int context_depth;
static _Thread_local mt_device context_stack[DEVICE_CONTEXT_DEPTH];

int
mt_default_device(mt_device *out)
{
    if (context_depth > 0) {
        *out = context_stack[context_depth - 1];
        return 1;
    }
    if (base_set) {
        *out = base_device;
        return 1;
    }
    return 0;
}

static PyObject *
device_enter(mt_DeviceObject *self, PyObject *unused)
{
    if (context_depth == DEVICE_CONTEXT_DEPTH) {
        PyErr_Format(PyExc_RuntimeError, "minitorch: `with device(...)` blocks nest at most %d deep",
                     DEVICE_CONTEXT_DEPTH);
        return NULL;
    }
    context_stack[context_depth++] = self->device;
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *
device_exit(mt_DeviceObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (context_depth > 0) {
        context_depth--;
    }
    Py_RETURN_NONE;
}

static PyObject *
set_default_device(PyObject *module, PyObject *obj)
{
    mt_device d;

    if (obj == Py_None) {
        base_set = 0;
        Py_RETURN_NONE;
    }
    if (mt_device_from_object(obj, &d) < 0) {
        return NULL;
    }
    base_device = d;
    base_set = 1;
    Py_RETURN_NONE;
}

static PyObject *
get_default_device(PyObject *module, PyObject *unused)
{
    mt_device d;

    if (!mt_default_device(&d)) {
        Py_RETURN_NONE;
    }
    return mt_device_new(d);
}

PyMethodDef mt_default_device_functions[] = {
    {"_set_default_device", set_default_device, METH_O,
     "_set_default_device(device)\n\nThe device the factories use when not given one (None: the CPU)."},
    {"_default_device", get_default_device, METH_NOARGS,
     "_default_device() -> device or None\n\nThe device the factories use when not given one, as set (the "
     "innermost `with device(...)` block first); None for the CPU by default."},
    {NULL},
};

static PyGetSetDef device_getset[] = {
    {"type", (getter)device_type_get, NULL, "The device type: 'cpu', 'cuda', ...", NULL},
    {"index", (getter)device_index_get, NULL, "The device index, or None.", NULL},
    {NULL},
};

static PyMethodDef device_methods[] = {
    {"__reduce__", (PyCFunction)device_reduce, METH_NOARGS, NULL},
    {"__enter__", (PyCFunction)device_enter, METH_NOARGS,
     "Makes this device the factories' default inside the `with` block."},
    {"__exit__", (PyCFunction)(void (*)(void))device_exit, METH_FASTCALL, NULL},
    {NULL},
};

PyDoc_STRVAR(device_doc,
             "device(type, index=None)\n\n"
             "Where a tensor lives: 'cpu' or 'cuda:N'. Parsed, printed and compared like torch.device.");

PyTypeObject mt_DeviceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.device",
    .tp_basicsize = sizeof(mt_DeviceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)device_repr,
    .tp_str = (reprfunc)device_str,
    .tp_hash = (hashfunc)device_hash,
    .tp_richcompare = device_richcompare,
    .tp_getset = device_getset,
    .tp_methods = device_methods,
    .tp_doc = device_doc,
};

int
mt_device_init(PyObject *module)
{
    if (PyType_Ready(&mt_DeviceType) < 0) {
        return -1;
    }
    Py_INCREF(&mt_DeviceType);
    if (PyModule_AddObject(module, "device", (PyObject *)&mt_DeviceType) < 0) {
        Py_DECREF(&mt_DeviceType);
        return -1;
    }
    return 0;
}
