/* window.c: im2col, col2im and max pooling with indices, the tensor ops under convolution and pooling
 * (window.h). Each checks that the geometry describes windows at all (the callers in
 * minitorch/nn/_conv.py have already raised torch's errors for the public functions), lays out a
 * contiguous input, allocates the contiguous result and hands the plain geometry to the device's window
 * kernel (kernels/kernel_types.h, mt_window_args). This file owns these ops' shapes, not argument
 * parsing, autograd or kernels. */
#include "window.h"

#include <string.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "factory.h"

typedef mt_TensorObject T;

static int
positive_list(const char *what, int dims, const int64_t *values, int64_t least)
{
    for (int d = 0; d < dims; d++) {
        if (values[d] < least) {
            PyErr_Format(PyExc_RuntimeError, "%s must be at least %lld along every dim, but got %lld", what,
                         (long long)least, (long long)values[d]);
            return -1;
        }
    }
    return 0;
}

/* The geometry's own checks, and a's fields from it and from the image's spatial sizes. */
static int
describe(mt_window_args *a, mt_window_op op, const mt_window_geometry *g, int64_t planes, const int64_t *size,
         mt_dtype dtype)
{
    if (g->dims < 1 || g->dims > MT_WINDOW_MAX_DIMS) {
        PyErr_Format(PyExc_RuntimeError, "windows have 1 to %d spatial dims, but got %d", MT_WINDOW_MAX_DIMS,
                     g->dims);
        return -1;
    }
    if (positive_list("kernel_size", g->dims, g->kernel, 1) < 0 ||
        positive_list("stride", g->dims, g->stride, 1) < 0 ||
        positive_list("dilation", g->dims, g->dilation, 1) < 0 ||
        positive_list("padding", g->dims, g->padding, 0) < 0 ||
        positive_list("the windows' count", g->dims, g->out_size, 0) < 0 ||
        positive_list("the image size", g->dims, size, 0) < 0) {
        return -1;
    }
    if ((op == MT_WINDOW_FOLD && !mt_dtype_is_floating(dtype) && dtype != MT_BOOL) ||
        (op == MT_WINDOW_MAX_POOL && dtype == MT_BOOL)) {
        PyErr_Format(PyExc_RuntimeError, "\"%s\" not implemented for '%s'",
                     op == MT_WINDOW_FOLD ? "col2im" : "max_pool", mt_dtype_scalar_name(dtype));
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->op = op;
    a->dtype = dtype;
    a->dims = g->dims;
    a->planes = planes;
    for (int d = 0; d < g->dims; d++) {
        a->size[d] = size[d];
        a->out_size[d] = g->out_size[d];
        a->kernel[d] = g->kernel[d];
        a->stride[d] = g->stride[d];
        a->padding[d] = g->padding[d];
        a->dilation[d] = g->dilation[d];
    }
    return 0;
}

/* the product of n values, or -1 with RuntimeError when it overflows int64 */
static int
product(int n, const int64_t *values, int64_t *out)
{
    int64_t p = 1;

    for (int i = 0; i < n; i++) {
        if (__builtin_mul_overflow(p, values[i], &p)) {
            PyErr_SetString(PyExc_RuntimeError, "the window geometry's element count overflows int64");
            return -1;
        }
    }
    *out = p;
    return 0;
}

static int
run(const mt_window_args *a, T *first, T *second, T *third, int64_t work)
{
    mt_device device = mt_tensor_device(first);
    const T *operands[3] = {first, second, third};
    int r;

    if (mt_backend_for(device) == NULL) {
        return -1;
    }
    if (work == 0) {
        return 0;
    }
    MT_RUN_BACKEND(r, device, work >= 65536, operands, 3, window, a);
    return r;
}

/* input must be (N, C, *spatial) with g->dims spatial dims */
static int
check_image(const T *input, const mt_window_geometry *g)
{
    if (input->ndim != g->dims + 2) {
        PyErr_Format(PyExc_RuntimeError, "expected a %d-D input (N, C and %d spatial dims), but got a %d-D one",
                     g->dims + 2, g->dims, input->ndim);
        return -1;
    }
    return 0;
}

PyObject *
mt_im2col(T *input, const mt_window_geometry *g, mt_scalar fill)
{
    mt_window_args a;
    int64_t sizes[3], k, l, rows;
    T *image, *cols;

    if (check_image(input, g) < 0 ||
        describe(&a, MT_WINDOW_UNFOLD, g, input->sizes[0] * input->sizes[1], input->sizes + 2, input->dtype) < 0 ||
        product(g->dims, g->kernel, &k) < 0 || product(g->dims, g->out_size, &l) < 0) {
        return NULL;
    }
    if (__builtin_mul_overflow(input->sizes[1], k, &rows)) {
        return PyErr_Format(PyExc_RuntimeError, "the window geometry's element count overflows int64");
    }
    sizes[0] = input->sizes[0];
    sizes[1] = rows;
    sizes[2] = l;
    mt_scalar_store(fill, input->dtype, a.fill.bytes);
    image = mt_tensor_contiguous(input);
    if (image == NULL) {
        return NULL;
    }
    cols = mt_tensor_empty(3, sizes, input->dtype, mt_tensor_device(input));
    if (cols == NULL) {
        Py_DECREF(image);
        return NULL;
    }
    a.image = mt_tensor_data(image);
    a.cols = mt_tensor_data(cols);
    if (run(&a, cols, image, NULL, mt_tensor_numel(cols)) < 0) {
        Py_DECREF(cols);
        cols = NULL;
    }
    Py_DECREF(image);
    return (PyObject *)cols;
}

PyObject *
mt_col2im(T *cols, const int64_t *image_size, const mt_window_geometry *g)
{
    mt_window_args a;
    int64_t sizes[2 + MT_WINDOW_MAX_DIMS], k, l;
    T *columns, *image;
    PyObject *zeroed;

    if (cols->ndim != 3) {
        return PyErr_Format(PyExc_RuntimeError, "expected 3-D columns (N, C * K, L), but got a %d-D tensor",
                            cols->ndim);
    }
    if (describe(&a, MT_WINDOW_FOLD, g, 0, image_size, cols->dtype) < 0 || product(g->dims, g->kernel, &k) < 0 ||
        product(g->dims, g->out_size, &l) < 0) {
        return NULL;
    }
    if (cols->sizes[1] % k != 0 || cols->sizes[2] != l) {
        return PyErr_Format(PyExc_RuntimeError,
                            "columns of shape [%lld, %lld, %lld] do not hold %lld kernel offsets of %lld windows",
                            (long long)cols->sizes[0], (long long)cols->sizes[1], (long long)cols->sizes[2],
                            (long long)k, (long long)l);
    }
    sizes[0] = cols->sizes[0];
    sizes[1] = cols->sizes[1] / k;
    memcpy(sizes + 2, image_size, sizeof(int64_t) * (size_t)g->dims);
    a.planes = sizes[0] * sizes[1];
    columns = mt_tensor_contiguous(cols);
    if (columns == NULL) {
        return NULL;
    }
    image = mt_tensor_empty(2 + g->dims, sizes, cols->dtype, mt_tensor_device(cols));
    zeroed = image != NULL ? mt_tensor_zero_(image) : NULL;
    if (zeroed == NULL) {
        Py_XDECREF(image);
        Py_DECREF(columns);
        return NULL;
    }
    Py_DECREF(zeroed);
    a.image = mt_tensor_data(image);
    a.cols = mt_tensor_data(columns);
    if (run(&a, image, columns, NULL, mt_tensor_numel(columns)) < 0) {
        Py_DECREF(image);
        image = NULL;
    }
    Py_DECREF(columns);
    return (PyObject *)image;
}

PyObject *
mt_max_pool_with_indices(T *input, const mt_window_geometry *g)
{
    mt_window_args a;
    int64_t sizes[2 + MT_WINDOW_MAX_DIMS];
    T *image, *values = NULL, *indices = NULL;
    PyObject *result = NULL;

    if (check_image(input, g) < 0 ||
        describe(&a, MT_WINDOW_MAX_POOL, g, input->sizes[0] * input->sizes[1], input->sizes + 2, input->dtype) < 0) {
        return NULL;
    }
    sizes[0] = input->sizes[0];
    sizes[1] = input->sizes[1];
    memcpy(sizes + 2, g->out_size, sizeof(int64_t) * (size_t)g->dims);
    image = mt_tensor_contiguous(input);
    if (image == NULL) {
        return NULL;
    }
    values = mt_tensor_empty(2 + g->dims, sizes, input->dtype, mt_tensor_device(input));
    indices = values != NULL ? mt_tensor_empty(2 + g->dims, sizes, MT_INT64, mt_tensor_device(input)) : NULL;
    if (indices != NULL) {
        a.image = mt_tensor_data(image);
        a.cols = mt_tensor_data(values);
        a.indices = (int64_t *)mt_tensor_data(indices);
        if (run(&a, values, indices, image, mt_tensor_numel(values)) == 0) {
            result = PyTuple_Pack(2, (PyObject *)values, (PyObject *)indices);
        }
    }
    Py_XDECREF(values);
    Py_XDECREF(indices);
    Py_DECREF(image);
    return result;
}
