/* memory_format.c: the memory_format singletons and their argument parsing, and each format's stride
 * rules on plain geometry (sizes and strides arrays): c10's channels-last stride orders and checks. It
 * owns no tensor and allocates none; tensor.c builds tensors in a format from these strides. */
#include "memory_format.h"

#include "scalar_type.h"

typedef struct {
    PyObject_HEAD
    mt_memory_format id;
} mt_MemoryFormatObject;

static const struct {
    const char *name;      /* the module attribute */
    const char *c10_name;  /* c10's operator<< name, used in torch's messages */
    int rank;              /* the rank a channels-last format requires; 0 for any */
} format_table[MT_NUM_MEMORY_FORMATS] = {
    [MT_CONTIGUOUS_FORMAT] = {"contiguous_format", "Contiguous", 0},
    [MT_PRESERVE_FORMAT] = {"preserve_format", "Preserve", 0},
    [MT_CHANNELS_LAST] = {"channels_last", "ChannelsLast", 4},
    [MT_CHANNELS_LAST_3D] = {"channels_last_3d", "ChannelsLast3d", 5},
};

static mt_MemoryFormatObject format_objects[MT_NUM_MEMORY_FORMATS];

const char *
mt_memory_format_c10_name(mt_memory_format format)
{
    return format_table[format].c10_name;
}

mt_memory_format
mt_memory_format_of(PyObject *obj)
{
    return ((mt_MemoryFormatObject *)obj)->id;
}

/* The dims of `format`'s layout from the innermost out: the last dim first for contiguous_format; for a
 * channels-last format the channels, then width (and depth), then height, then the batch. */
static void
layout_order(mt_memory_format format, int ndim, int *order)
{
    static const int order_2d[4] = {1, 3, 2, 0};
    static const int order_3d[5] = {1, 4, 3, 2, 0};

    for (int k = 0; k < ndim; k++) {
        if (format == MT_CHANNELS_LAST) {
            order[k] = order_2d[k];
        }
        else if (format == MT_CHANNELS_LAST_3D) {
            order[k] = order_3d[k];
        }
        else {
            order[k] = ndim - 1 - k;
        }
    }
}

static int
is_channels_last(mt_memory_format format)
{
    return format == MT_CHANNELS_LAST || format == MT_CHANNELS_LAST_3D;
}

int
mt_memory_format_strides(mt_memory_format format, int ndim, const int64_t *sizes, int64_t *strides)
{
    int order[MT_MAX_DIMS];
    int64_t stride = 1;

    if (is_channels_last(format) && ndim != format_table[format].rank) {
        PyErr_Format(PyExc_RuntimeError, "required rank %d tensor to use %s format", format_table[format].rank,
                     format_table[format].name);
        return -1;
    }
    layout_order(format, ndim, order);
    for (int k = 0; k < ndim; k++) {
        int d = order[k];
        strides[d] = stride;
        /* row-major strides skip size-0 and size-1 dims; c10's channels-last ones multiply the sizes as
         * they are, so an empty dim zeroes the strides outside it. A stride past int64 is c10's
         * empty_tensor_restride error (an empty tensor's sizes can be that large: (0, 2**40, 2**40)). */
        if (k + 1 < ndim
            && __builtin_mul_overflow(stride, is_channels_last(format) || sizes[d] > 1 ? sizes[d] : 1, &stride)) {
            PyErr_SetString(PyExc_RuntimeError, "Stride calculation overflowed");
            return -1;
        }
    }
    return 0;
}

int
mt_memory_format_is_contiguous(mt_memory_format format, int ndim, const int64_t *sizes, const int64_t *strides)
{
    int order[MT_MAX_DIMS];
    int64_t expected = 1;

    if (is_channels_last(format)) {
        /* c10's compute_channels_last_contiguous_2d/3d, with no exception for empty tensors */
        if (ndim != format_table[format].rank) {
            return 0;
        }
    }
    else {
        /* torch's default contiguity (asked for preserve_format too); an empty tensor is contiguous */
        format = MT_CONTIGUOUS_FORMAT;
        for (int d = 0; d < ndim; d++) {
            if (sizes[d] == 0) {
                return 1;
            }
        }
    }
    layout_order(format, ndim, order);
    for (int k = 0; k < ndim; k++) {
        int d = order[k];
        /* size-1 dims may have any stride */
        if (sizes[d] != 1) {
            if (strides[d] != expected) {
                return 0;
            }
            expected *= sizes[d];
        }
    }
    return 1;
}

/* c10's is_channels_last_strides_2d_s4 / _3d_s5: the strides grow along the channels-last order. A
 * zero channel stride, an empty dim, or a batch stride tied with the channel stride (an N111 tensor,
 * or one sliced down to it) count as contiguous. */
static int
strides_like(mt_memory_format format, const int64_t *sizes, const int64_t *strides)
{
    int order[MT_MAX_DIMS];
    int ndim = format_table[format].rank;
    int64_t min = 0;

    if (strides[1] == 0) {
        return 0;
    }
    layout_order(format, ndim, order);
    for (int k = 0; k < ndim; k++) {
        int d = order[k];
        if (sizes[d] == 0 || strides[d] < min) {
            return 0;
        }
        if (d == 0 && min == strides[1]) {
            return 0;
        }
        min = strides[d];
        if (sizes[d] > 1) {
            min *= sizes[d];
        }
    }
    return 1;
}

mt_memory_format
mt_memory_format_suggest(int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (ndim == 4 && strides_like(MT_CHANNELS_LAST, sizes, strides)) {
        return MT_CHANNELS_LAST;
    }
    if (ndim == 5 && strides_like(MT_CHANNELS_LAST_3D, sizes, strides)) {
        return MT_CHANNELS_LAST_3D;
    }
    return MT_CONTIGUOUS_FORMAT;
}

static PyObject *
format_repr(mt_MemoryFormatObject *self)
{
    return PyUnicode_FromFormat("minitorch.%s", format_table[self->id].name);
}

static PyObject *
format_reduce(mt_MemoryFormatObject *self, PyObject *unused)
{
    /* pickles (and copies) as the module attribute: the singletons stay singletons */
    return PyUnicode_FromString(format_table[self->id].name);
}

static PyMethodDef format_methods[] = {
    {"__reduce__", (PyCFunction)format_reduce, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject mt_MemoryFormatType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.memory_format",
    .tp_basicsize = sizeof(mt_MemoryFormatObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)format_repr,
    .tp_methods = format_methods,
    .tp_doc = "How a tensor's elements are laid out in memory (minitorch.contiguous_format, "
              "minitorch.channels_last, ...).",
};

int
mt_memory_format_init(PyObject *module)
{
    if (PyType_Ready(&mt_MemoryFormatType) < 0) {
        return -1;
    }
    for (int f = 0; f < MT_NUM_MEMORY_FORMATS; f++) {
        /* static singletons, never deallocated */
        PyObject *obj = (PyObject *)&format_objects[f];
        Py_SET_TYPE(obj, &mt_MemoryFormatType);
        Py_SET_REFCNT(obj, 1);
        format_objects[f].id = (mt_memory_format)f;
        Py_INCREF(obj);
        if (PyModule_AddObject(module, format_table[f].name, obj) < 0) {
            Py_DECREF(obj);
            return -1;
        }
    }
    Py_INCREF(&mt_MemoryFormatType);
    if (PyModule_AddObject(module, "memory_format", (PyObject *)&mt_MemoryFormatType) < 0) {
        Py_DECREF(&mt_MemoryFormatType);
        return -1;
    }
    return 0;
}
