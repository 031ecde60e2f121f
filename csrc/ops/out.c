/* out.c: torch's out= protocol and Tensor.resize_ (out.h). Ops write an out= tensor the way torch's
 * structured kernels and TensorIterator do, told apart only by the dtype rule; the rest (the autograd
 * refusal, the device, resize_output and its warning, the copy into out's strides) is this one path. */
#include "out.h"

#include <string.h>

#include "../autograd/autograd.h"
#include "../core/dtype.h"
#include "copy.h"
#include "dispatch.h"
#include "../core/warn.h"

int
mt_resize_(mt_TensorObject *t, int ndim, const int64_t *sizes, mt_memory_format format)
{
    int64_t strides[MT_MAX_DIMS];
    int64_t numel;
    int64_t need;
    size_t itemsize = mt_dtype_size(t->dtype);
    int same = t->ndim == ndim && (ndim == 0 || memcmp(t->sizes, sizes, sizeof(int64_t) * (size_t)ndim) == 0);

    if (mt_requires_grad(t)) {
        PyErr_SetString(PyExc_RuntimeError, "cannot resize variables that require grad");
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            /* c10's safe_multiplies_u64 over the sizes as unsigned numbers, in torch's resize_ */
            PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
            return -1;
        }
    }
    if (mt_check_sizes(ndim, sizes, t->dtype, &numel) < 0) {
        return -1;
    }
    if (same && format == MT_NUM_MEMORY_FORMATS) {
        return 0;
    }
    if (mt_memory_format_strides(format == MT_NUM_MEMORY_FORMATS ? MT_CONTIGUOUS_FORMAT : format, ndim,
                                 sizes, strides) < 0) {
        return -1;
    }
    if (numel > 0) {
        if (__builtin_add_overflow(t->offset, numel, &need) || (uint64_t)need > SIZE_MAX / itemsize) {
            PyErr_SetString(PyExc_RuntimeError, "Storage size calculation overflowed");
            return -1;
        }
        if (mt_storage_grow(t->storage, (size_t)need * itemsize) < 0) {
            return -1;
        }
    }
    return mt_tensor_set_geometry(t, ndim, sizes, strides);
}

int
mt_warn_out_resized(int from_ndim, const int64_t *from_sizes, int ndim, const int64_t *sizes)
{
    char from[256];
    char to[256];
    char msg[1024];

    mt_format_shape(from_ndim, from_sizes, from, sizeof from);
    mt_format_shape(ndim, sizes, to, sizeof to);
    snprintf(msg, sizeof msg,
             "An output with one or more elements was resized since it had shape %s, which does not match the "
             "required output shape %s. This behavior is deprecated, and in a future PyTorch release outputs will "
             "not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing "
             "it, inplace, to zero elements with t.resize_(0).",
             from, to);
    return mt_warn(PyExc_UserWarning, msg);
}

int
mt_resize_output(mt_TensorObject *out, int ndim, const int64_t *sizes)
{
    if (out->ndim == ndim && (ndim == 0 || memcmp(out->sizes, sizes, sizeof(int64_t) * (size_t)ndim) == 0)) {
        return 0;
    }
    if (mt_tensor_numel(out) != 0 && mt_warn_out_resized(out->ndim, out->sizes, ndim, sizes) < 0) {
        return -1;
    }
    return mt_resize_(out, ndim, sizes, MT_NUM_MEMORY_FORMATS);
}

int
mt_out_check_dtype_device(mt_dtype out_dtype, mt_device out_device, mt_dtype dtype, mt_device device)
{
    char want[32];
    char got[32];

    if (out_dtype != dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype %s, but got %s instead",
                     mt_dtype_c_name(dtype), mt_dtype_c_name(out_dtype));
        return -1;
    }
    if (!mt_device_equal(out_device, device)) {
        mt_device_format(device, want, sizeof want);
        mt_device_format(out_device, got, sizeof got);
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have device %s, but got %s instead", want, got);
        return -1;
    }
    return 0;
}

int
mt_out_refuse_grad(const char *op)
{
    PyErr_Format(PyExc_RuntimeError,
                 "%s(): functions with out=... arguments don't support automatic differentiation, but one of the "
                 "arguments requires grad.",
                 op);
    return -1;
}

int
mt_out_check_grad(const char *op, PyObject *result, const mt_TensorObject *out)
{
    int needs = out->requires_grad;

    if (!mt_grad_enabled()) {
        return 0;
    }
    if (!needs && result != NULL && mt_Tensor_Check(result)) {
        needs = ((mt_TensorObject *)result)->requires_grad || ((mt_TensorObject *)result)->grad_fn != NULL;
    }
    return needs ? mt_out_refuse_grad(op) : 0;
}

/* the dtype rule of the op's kind, on the result's dtype `r` */
static int
check_rule(const mt_TensorObject *out, mt_dtype r, mt_out_rule rule, const char *message)
{
    char msg[512];

    switch (rule) {
    case MT_OUT_CAST:
    case MT_OUT_ITER:
        if (message != NULL && r != out->dtype && !mt_can_cast(r, out->dtype)) {
            PyErr_SetString(PyExc_RuntimeError, message);
            return -1;
        }
        return mt_check_can_cast(mt_tensor_device(out), r, out->dtype);
    case MT_OUT_CAT:
        if (r != out->dtype && !mt_can_cast(r, out->dtype)) {
            PyErr_Format(PyExc_TypeError, "torch.cat(): input types can't be cast to the desired output type %s",
                         mt_dtype_scalar_name(out->dtype));
            return -1;
        }
        return 0;
    case MT_OUT_SAME:
        return mt_out_check_dtype_device(out->dtype, mt_tensor_device(out), r, mt_tensor_device(out));
    default:
        if (out->dtype == r) {
            return 0;
        }
        snprintf(msg, sizeof msg, message, mt_dtype_scalar_name(r), mt_dtype_scalar_name(out->dtype));
        PyErr_SetString(PyExc_RuntimeError, msg);
        return -1;
    }
}

int
mt_out_check_meta_device(const mt_TensorObject *from, const mt_TensorObject *out)
{
    char want[32];
    char got[32];

    if (mt_device_equal(mt_tensor_device(from), mt_tensor_device(out))) {
        return 0;
    }
    mt_device_format(mt_tensor_device(from), want, sizeof want);
    mt_device_format(mt_tensor_device(out), got, sizeof got);
    PyErr_Format(PyExc_RuntimeError,
                 "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!", want, got);
    return -1;
}

PyObject *
mt_out_write_wrapped(mt_TensorObject *out, mt_TensorObject *r, int exact)
{
    mt_device meta = {MT_DEVICE_META, -1};

    if (mt_resize_output(out, r->ndim, r->sizes) < 0 || mt_out_check_meta_device(r, out) < 0) {
        return NULL;
    }
    if (exact && r->dtype != out->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype minitorch.%s but got minitorch.%s instead",
                     mt_dtype_name(r->dtype), mt_dtype_name(out->dtype));
        return NULL;
    }
    if (!exact && mt_check_can_cast(meta, r->dtype, out->dtype) < 0) {
        return NULL;
    }
    if (r != out && mt_tensor_device(r).type != MT_DEVICE_META && mt_copy_(out, r) < 0) {
        return NULL;
    }
    if (mt_tensor_bump_version(out) < 0) {
        return NULL;
    }
    Py_INCREF(out);
    return (PyObject *)out;
}

PyObject *
mt_out_write(mt_TensorObject *out, PyObject *result, mt_out_rule rule, const char *message, mt_out_meta meta)
{
    mt_TensorObject *r;
    mt_device common;

    if (!mt_Tensor_Check(result)) {
        PyErr_SetString(PyExc_TypeError, "out=: the op's result is not a tensor");
        return NULL;
    }
    r = (mt_TensorObject *)result;
    if (meta != MT_OUT_META_KERNEL
        && (mt_tensor_device(r).type == MT_DEVICE_META || mt_tensor_device(out).type == MT_DEVICE_META)) {
        return mt_out_write_wrapped(out, r, meta == MT_OUT_META_EXACT);
    }
    if (check_rule(out, r->dtype, rule, message) < 0) {
        return NULL;
    }
    if (rule == MT_OUT_CAST || rule == MT_OUT_ITER || rule == MT_OUT_CAT) {
        if (!mt_device_equal(mt_tensor_device(out), mt_tensor_device(r))
            && mt_check_same_device(out, 1, &r, &common) < 0) {
            return NULL;
        }
    }
    else if (mt_out_check_dtype_device(out->dtype, mt_tensor_device(out), out->dtype, mt_tensor_device(r)) < 0) {
        return NULL;
    }
    if (rule == MT_OUT_ITER && r->dtype != out->dtype && mt_tensor_numel(out) != 0
        && (out->ndim != r->ndim || memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim) != 0)
        && mt_warn_out_resized(out->ndim, out->sizes, r->ndim, r->sizes) < 0) {
        return NULL;
    }
    if (r != out && (mt_resize_output(out, r->ndim, r->sizes) < 0 || mt_copy_(out, r) < 0)) {
        return NULL;
    }
    if (mt_tensor_bump_version(out) < 0) {
        return NULL;
    }
    Py_INCREF(out);
    return (PyObject *)out;
}
