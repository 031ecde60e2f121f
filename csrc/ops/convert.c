/* convert.c: one element of a tensor as a Python number (bool, int or float), read from the host
 * (a copy of the one element when the tensor's memory is not host memory): Tensor.item, and the
 * elements of tolist and the op files that need a tensor's value as a number. */
#include "convert.h"

#include <stdint.h>

#include "copy.h"

PyObject *
mt_element_to_object(const char *p, mt_dtype dtype)
{
    switch (dtype) {
    case MT_BOOL:
        return PyBool_FromLong(*(const uint8_t *)p != 0);
    case MT_UINT8:
        return PyLong_FromLong((long)*(const uint8_t *)p);
    case MT_INT8:
        return PyLong_FromLong((long)*(const int8_t *)p);
    case MT_INT16:
        return PyLong_FromLong((long)*(const int16_t *)p);
    case MT_INT32:
        return PyLong_FromLong((long)*(const int32_t *)p);
    case MT_INT64:
        return PyLong_FromLongLong((long long)*(const int64_t *)p);
    case MT_FLOAT32:
        return PyFloat_FromDouble((double)*(const float *)p);
    case MT_FLOAT16:
    case MT_BFLOAT16:
        return PyFloat_FromDouble((double)mt_reduced_to_float(dtype, *(const uint16_t *)p));
    default:
        return PyFloat_FromDouble(*(const double *)p);
    }
}

PyObject *
mt_tensor_item(mt_TensorObject *t)
{
    int64_t numel = mt_tensor_numel(t);
    mt_TensorObject *host;
    PyObject *result;

    if (numel != 1) {
        PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar",
                     (long long)numel);
        return NULL;
    }
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor.item() cannot be called on meta tensors");
        return NULL;
    }
    host = mt_host_readable(t);
    if (host == NULL) {
        return NULL;
    }
    result = mt_element_to_object(mt_tensor_data(host), host->dtype);
    Py_DECREF(host);
    return result;
}
