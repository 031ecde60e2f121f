/* cudnn_conv.c: torch's cudnn_convolution and its backward passes as tensor ops (cudnn_conv.h): the checks
 * that the operands are floating tensors of one real CUDA device with the geometry's shapes, contiguous
 * operands, the result's allocation, and the call of cuDNN (csrc/kernels/cuda/cudnn.c) with the device's
 * caching allocator for its workspace. The public checks and messages of convolution are
 * minitorch/nn/_conv.py's (which only comes here after them); this file records no node. */
#include "cudnn_conv.h"

#include <string.h>

#include "../core/devices.h"
#include "../kernels/cuda/cudnn.h"
#include "copy.h"
#include "dispatch.h"
#include "factory.h"

typedef mt_TensorObject T;

/* a tensor of the convolution: floating, on the first one's device, a real CUDA device's memory */
static int
check_operand(const char *name, const T *t, const T *first, int ndim)
{
    mt_device d = mt_tensor_device(t);

    if (d.type != MT_DEVICE_CUDA || mt_device_is_host_memory(d)) {
        PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must be a tensor of a CUDA device with cuDNN", name);
        return -1;
    }
    if (t != first && (d.index != mt_tensor_device(first).index || t->dtype != first->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must have the dtype and device of the other operand",
                     name);
        return -1;
    }
    if (t->dtype != MT_FLOAT32 && t->dtype != MT_FLOAT64 && t->dtype != MT_FLOAT16 && t->dtype != MT_BFLOAT16) {
        PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must be float32, float64, float16 or bfloat16", name);
        return -1;
    }
    if (t->ndim != ndim) {
        PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must have %d dims, but has %d", name, ndim, t->ndim);
        return -1;
    }
    return 0;
}

/* Runs the pass: conv's x, w, y are filled from the three tensors (the result among them, allocated
 * here from `result_size`); returns the result. */
static PyObject *
run_pass(mt_cudnn_pass pass, T *first, T *second, const int64_t *result_size, const mt_cudnn_args *a)
{
    mt_cudnn_conv conv;
    mt_kctx ctx;
    T *x = NULL, *w = NULL, *y = NULL, *result = NULL;
    T *given[2] = {NULL, NULL};
    int ndim = a->dims + 2, rc;

    if (a->dims < 1 || a->dims > MT_CUDNN_MAX_DIMS) {
        return PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: 1 to 3 spatial dims, but got %d", a->dims);
    }
    if (mt_cudnn_version() <= 0) {
        return PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: cuDNN is not available");
    }
    if (check_operand(pass == MT_CUDNN_BACKWARD_DATA ? "grad_output" : "input", first, first, ndim) < 0 ||
        check_operand(pass == MT_CUDNN_FORWARD ? "weight" : pass == MT_CUDNN_BACKWARD_DATA ? "weight" : "input",
                      second, first, ndim) < 0) {
        return NULL;
    }
    given[0] = mt_tensor_contiguous(first);
    given[1] = given[0] != NULL ? mt_tensor_contiguous(second) : NULL;
    if (given[1] == NULL) {
        goto done;
    }
    result = mt_tensor_empty(ndim, result_size, first->dtype, mt_tensor_device(first));
    if (result == NULL) {
        goto done;
    }
    switch (pass) {
    case MT_CUDNN_FORWARD:
        x = given[0], w = given[1], y = result;
        break;
    case MT_CUDNN_BACKWARD_DATA:
        y = given[0], w = given[1], x = result;
        break;
    default:
        y = given[0], x = given[1], w = result;
        break;
    }
    memset(&conv, 0, sizeof(conv));
    conv.pass = pass;
    conv.dtype = first->dtype;
    conv.dims = a->dims;
    memcpy(conv.x_size, x->sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(conv.w_size, w->sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(conv.y_size, y->sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(conv.padding, a->padding, sizeof(int64_t) * (size_t)a->dims);
    memcpy(conv.stride, a->stride, sizeof(int64_t) * (size_t)a->dims);
    memcpy(conv.dilation, a->dilation, sizeof(int64_t) * (size_t)a->dims);
    conv.groups = a->groups;
    conv.benchmark = a->benchmark;
    conv.deterministic = a->deterministic;
    conv.allow_tf32 = a->allow_tf32;
    conv.x = mt_tensor_data(x);
    conv.w = mt_tensor_data(w);
    conv.y = mt_tensor_data(y);
    if (mt_tensor_numel(x) == 0 || mt_tensor_numel(w) == 0 || mt_tensor_numel(y) == 0) {
        /* nothing to convolve: a gradient over no element is zeros, which cuDNN refuses to be asked for */
        PyObject *zeroed = mt_tensor_zero_(result);
        if (zeroed == NULL) {
            Py_CLEAR(result);
        }
        Py_XDECREF(zeroed);
        goto done;
    }
    mt_kctx_init(&ctx, mt_tensor_device(first));
    rc = mt_cudnn_convolution(&ctx, &conv);
    if (mt_kernel_result(&ctx, rc) < 0) {
        Py_CLEAR(result);
    }
done:
    Py_XDECREF(given[0]);
    Py_XDECREF(given[1]);
    return (PyObject *)result;
}

static int
check_size(const char *name, const int64_t *size, int n, const mt_cudnn_args *a)
{
    if (n != a->dims + 2) {
        PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must have %d values, but has %d", name, a->dims + 2, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (size[i] < 0) {
            PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: %s must not be negative", name);
            return -1;
        }
    }
    return 0;
}

PyObject *
mt_cudnn_convolution_forward(T *input, T *weight, const mt_cudnn_args *a)
{
    int64_t out[2 + MT_CUDNN_MAX_DIMS];

    if (a->dims < 1 || a->dims > MT_CUDNN_MAX_DIMS || input->ndim != a->dims + 2 || weight->ndim != a->dims + 2) {
        return PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: input and weight must have %d dims", a->dims + 2);
    }
    out[0] = input->sizes[0];
    out[1] = weight->sizes[0];
    for (int d = 0; d < a->dims; d++) {
        int64_t span = a->dilation[d] * (weight->sizes[2 + d] - 1) + 1;
        int64_t room = input->sizes[2 + d] + 2 * a->padding[d] - span;
        if (room < 0 || a->stride[d] < 1) {
            return PyErr_Format(PyExc_RuntimeError, "cudnn_convolution: the kernel does not fit the padded input");
        }
        out[2 + d] = room / a->stride[d] + 1;
    }
    return run_pass(MT_CUDNN_FORWARD, input, weight, out, a);
}

PyObject *
mt_cudnn_convolution_backward(const int64_t *size, int ndim, T *grad_output, T *other, int of_weight,
                              const mt_cudnn_args *a)
{
    if (check_size(of_weight ? "weight_size" : "input_size", size, ndim, a) < 0) {
        return NULL;
    }
    return run_pass(of_weight ? MT_CUDNN_BACKWARD_FILTER : MT_CUDNN_BACKWARD_DATA, grad_output, other, size, a);
}
