/* copy.c (python): the binding of the conversion rows of ops.def: Tensor.to, cpu, cuda, float, double, int,
 * long, bool, type_as, type and copy_, each a form of the two C entry points of csrc/ops/copy.h (to and
 * copy_). It owns what the arguments mean beyond their types: memory_format=None is preserve_format, cuda()
 * wants a CUDA device, type() reads torch's legacy type names ("torch.cuda.FloatTensor") and classes. */
#include <string.h>

#include "../core/dtype.h"
#include "../ops/copy.h"
#include "../ops/shape.h"
#include "bind.h"

enum {
    C_SELF,
    C_DEVICE,
    C_DTYPE,
    C_OTHER,
    C_NON_BLOCKING,
    C_COPY,
    C_MEMORY_FORMAT
};

/* async= is the deprecated spelling of non_blocking= (torch's |deprecated overloads) */
static const char *const copy_roles[] = {"self", "device", "dtype", "tensor|other", "non_blocking|async", "copy",
                                         "memory_format", NULL};

static int
flag(const mt_call *c, int role)
{
    const mt_arg *a = mt_call_arg(c, role);
    return a != NULL && a->b;
}

/* memory_format=None (or omitted) is preserve_format */
static mt_memory_format
memory_format(const mt_call *c)
{
    const mt_arg *a = mt_call_arg(c, C_MEMORY_FORMAT);
    return a != NULL && a->obj != NULL ? a->memory_format : MT_PRESERVE_FORMAT;
}

/* "torch.FloatTensor", "torch.cuda.LongTensor", ...: the dtype and device type a legacy tensor type name
 * stands for (torch's options_from_string). 0, or -1 with torch's ValueError. */
static int
parse_type_name(PyObject *name, mt_dtype *dtype, int *cuda)
{
    static const mt_dtype dtypes[] = {MT_BOOL, MT_UINT8, MT_INT8, MT_INT16, MT_INT32, MT_INT64, MT_FLOAT32, MT_FLOAT64,
                                      MT_FLOAT16, MT_BFLOAT16};
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
 * ("torch.FloatTensor"); with a dtype, to(dtype); with a type name or a class, its dtype and device type
 * (so "torch.cuda.FloatTensor" moves a CPU tensor to the current CUDA device). */
static PyObject *
type_call(const mt_call *c, mt_TensorObject *self)
{
    PyObject *dtype_obj = mt_call_given(c, C_DTYPE);
    mt_device device = mt_tensor_device(self);
    mt_dtype dtype;
    int cuda;

    if (dtype_obj == NULL) {
        char buf[64];
        if (device.type == MT_DEVICE_META) {
            return PyUnicode_FromFormat("torch.meta.%sTensor", mt_dtype_scalar_name(self->dtype));
        }
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
    return mt_to(self, &device, dtype, 0, flag(c, C_NON_BLOCKING), memory_format(c));
}

static PyObject *
copy_call(const mt_call *c)
{
    static const mt_dtype method_dtypes[] = {
        [MT_COPY_FLOAT] = MT_FLOAT32, [MT_COPY_DOUBLE] = MT_FLOAT64, [MT_COPY_INT] = MT_INT32, [MT_COPY_LONG] = MT_INT64,
        [MT_COPY_BOOL] = MT_BOOL, [MT_COPY_BYTE] = MT_UINT8, [MT_COPY_CHAR] = MT_INT8, [MT_COPY_SHORT] = MT_INT16,
        [MT_COPY_HALF] = MT_FLOAT16, [MT_COPY_BFLOAT16] = MT_BFLOAT16,
    };
    mt_TensorObject *self = c->self;
    const mt_arg *other = mt_call_arg(c, C_OTHER);
    mt_device device;

    switch (c->code) {
    case MT_COPY_TO:
        if (other != NULL && other->tensor == NULL) {
            /* to(number): torch reads the number as a 0-d CPU tensor (float64, int64 or bool) */
            if (other->is_complex) {
                PyErr_SetString(PyExc_NotImplementedError,
                                "to(): a complex number gives a complex128 result, which minitorch does not support "
                                "(it has no complex dtype)");
                return NULL;
            }
            device = mt_cpu_device();
            return mt_to(self, &device, other->scalar.kind, flag(c, C_COPY), flag(c, C_NON_BLOCKING),
                         memory_format(c));
        }
        if (other != NULL) {
            /* to(tensor): its device and dtype */
            device = mt_tensor_device(other->tensor);
            return mt_to(self, &device, other->tensor->dtype, flag(c, C_COPY), flag(c, C_NON_BLOCKING),
                         memory_format(c));
        }
        {
            const mt_arg *dev = mt_call_arg(c, C_DEVICE);
            const mt_arg *dtype = mt_call_arg(c, C_DTYPE);
            int has_device = dev != NULL && dev->obj != NULL;
            if (has_device) {
                device = dev->device;
            }
            return mt_to(self, has_device ? &device : NULL, dtype != NULL ? dtype->dtype : MT_NUM_DTYPES,
                         flag(c, C_COPY), flag(c, C_NON_BLOCKING), memory_format(c));
        }
    case MT_COPY_CPU:
        device = mt_cpu_device();
        return mt_to(self, &device, MT_NUM_DTYPES, 0, 0, memory_format(c));
    case MT_COPY_CUDA: {
        const mt_arg *dev = mt_call_arg(c, C_DEVICE);
        device.type = MT_DEVICE_CUDA;
        device.index = -1;
        if (dev->obj != NULL) {
            device = dev->device;
            if (device.type != MT_DEVICE_CUDA) {
                PyErr_SetString(PyExc_RuntimeError, "Invalid device, must be cuda device");
                return NULL;
            }
        }
        return mt_to(self, &device, MT_NUM_DTYPES, 0, flag(c, C_NON_BLOCKING), memory_format(c));
    }
    case MT_COPY_TYPE_AS:
        device = mt_tensor_device(other->tensor);
        return mt_to(self, &device, other->tensor->dtype, 0, 0, MT_PRESERVE_FORMAT);
    case MT_COPY_TYPE:
        return type_call(c, self);
    case MT_COPY_COPY_:
        return mt_tensor_copy_(self, other->tensor, other->scalar, other->is_complex, other->imag,
                               flag(c, C_NON_BLOCKING));
    default:
        return mt_to(self, NULL, method_dtypes[c->code], 0, 0, memory_format(c));
    }
}

const mt_binding mt_binding_copy = {copy_call, NULL, copy_roles};
