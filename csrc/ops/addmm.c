/* addmm.c: torch.addmm and Tensor.addmm, beta * input + alpha * (mat1 @ mat2), which is what
 * nn.Linear computes for 2-D inputs. It owns addmm's argument parsing and its checks in torch's order
 * with torch's messages (device check of the CUDA wrapper, dtypes, matrix ranks, shapes, input
 * broadcasting); the product comes from matmul.c and the scaling and the sum from the elementwise layer. */
#include <Python.h>

#include <stdio.h>

#include "../core/scalar.h"
#include "../core/tensor.h"
#include "elementwise.h"
#include "matmul.h"
#include "methods.h"
#include "shape.h"

static int
scalar_kwarg(PyObject *obj, const char *name, mt_scalar *out)
{
    int r = mt_scalar_from_object(obj, out);
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "addmm(): argument '%s' must be Number, not %s", name, Py_TYPE(obj)->tp_name);
    }
    return r == 1 ? 0 : -1;
}

/* alpha and beta take the result's type: an integral addmm truncates a float alpha, as torch does */
static PyObject *
scalar_for(mt_scalar s, mt_dtype dtype)
{
    if (!mt_dtype_is_floating(dtype) && s.kind == MT_FLOAT64) {
        s.kind = MT_INT64;
        s.v.i = (int64_t)s.v.d;
    }
    return mt_scalar_to_object(s);
}

static int
scalar_is(mt_scalar s, double value)
{
    return mt_scalar_to_double(s) == value;
}

static PyObject *
addmm_impl(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha)
{
    static const char *const names[3] = {"self", "mat1", "mat2"};
    mt_TensorObject *const tensors[3] = {self, mat1, mat2};
    char msg[200];
    int64_t sizes[2];
    mt_TensorObject *expanded = NULL;
    PyObject *product = NULL;
    PyObject *scaled = NULL;
    PyObject *result = NULL;

    if (mt_matmul_check_devices("wrapper_CUDA_addmm", 3, tensors, names) < 0) {
        return NULL;
    }
    if (self->dtype != mat2->dtype || mat1->dtype != mat2->dtype) {
        /* addmm's meta function, before ranks and shapes: self against mat2 first, then mat1 */
        int self_differs = self->dtype != mat2->dtype;
        PyErr_Format(PyExc_RuntimeError, "%s and mat2 must have the same dtype, but got %s and %s",
                     self_differs ? "self" : "mat1", mt_dtype_scalar_name(self_differs ? self->dtype : mat1->dtype),
                     mt_dtype_scalar_name(mat2->dtype));
        return NULL;
    }
    if (mat1->ndim != 2 || mat2->ndim != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s must be a matrix, got %d-D tensor", mat1->ndim != 2 ? "mat1" : "mat2",
                     mat1->ndim != 2 ? mat1->ndim : mat2->ndim);
        return NULL;
    }
    if (mat1->sizes[1] != mat2->sizes[0]) {
        snprintf(msg, sizeof msg, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                 (long long)mat1->sizes[0], (long long)mat1->sizes[1], (long long)mat2->sizes[0],
                 (long long)mat2->sizes[1]);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    sizes[0] = mat1->sizes[0];
    sizes[1] = mat2->sizes[1];
    expanded = mt_expand(self, 2, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    product = mt_matmul(mat1, mat2);
    if (product == NULL) {
        goto done;
    }
    if (!scalar_is(alpha, 1.0)) {
        PyObject *a = scalar_for(alpha, mat2->dtype);
        PyObject *p = a ? mt_elementwise_binary(MT_BINARY_MUL, product, a) : NULL;
        Py_XDECREF(a);
        Py_SETREF(product, p);
        if (product == NULL) {
            goto done;
        }
    }
    if (scalar_is(beta, 0.0)) {
        /* beta == 0 ignores the input entirely (even NaN or inf in it), as BLAS does */
        result = product;
        product = NULL;
        goto done;
    }
    if (!scalar_is(beta, 1.0)) {
        PyObject *b = scalar_for(beta, mat2->dtype);
        scaled = b ? mt_elementwise_binary(MT_BINARY_MUL, (PyObject *)expanded, b) : NULL;
        Py_XDECREF(b);
        if (scaled == NULL) {
            goto done;
        }
    }
    else {
        scaled = (PyObject *)expanded;
        Py_INCREF(scaled);
    }
    result = mt_elementwise_binary(MT_BINARY_ADD, scaled, product);

done:
    Py_XDECREF(expanded);
    Py_XDECREF(product);
    Py_XDECREF(scaled);
    return result;
}

/* Fills self/mat1/mat2/beta/alpha from (input, mat1, mat2, *, beta=1, alpha=1) with `first` already
 * bound (the Tensor method form) or not. */
static PyObject *
addmm_entry(PyObject *first, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const positional[3] = {"input", "mat1", "mat2"};
    PyObject *tensors[3] = {first, NULL, NULL};
    int start = first != NULL ? 1 : 0;
    mt_scalar beta = {MT_INT64, {1}};
    mt_scalar alpha = {MT_INT64, {1}};
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;

    if (nargs > 3 - start) {
        PyErr_Format(PyExc_TypeError, "addmm() takes %d positional arguments but %zd were given", 3 - start, nargs);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        tensors[start + i] = args[i];
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i);
        PyObject *value = args[nargs + i];
        int matched = 0;
        for (int k = start; k < 3; k++) {
            if (PyUnicode_CompareWithASCIIString(key, positional[k]) == 0) {
                tensors[k] = value;
                matched = 1;
            }
        }
        if (matched) {
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "beta") == 0) {
            if (scalar_kwarg(value, "beta", &beta) < 0) {
                return NULL;
            }
        }
        else if (PyUnicode_CompareWithASCIIString(key, "alpha") == 0) {
            if (scalar_kwarg(value, "alpha", &alpha) < 0) {
                return NULL;
            }
        }
        else {
            PyErr_Format(PyExc_TypeError, "addmm() got an unexpected keyword argument '%U'", key);
            return NULL;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (tensors[k] == NULL || !mt_Tensor_Check(tensors[k])) {
            PyErr_Format(PyExc_TypeError, "addmm(): argument '%s' (position %d) must be Tensor, not %s", positional[k],
                         k + 1, tensors[k] != NULL ? Py_TYPE(tensors[k])->tp_name : "nothing");
            return NULL;
        }
    }
    return addmm_impl((mt_TensorObject *)tensors[0], (mt_TensorObject *)tensors[1], (mt_TensorObject *)tensors[2],
                      beta, alpha);
}

static PyObject *
addmm_function(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return addmm_entry(NULL, args, nargs, kwnames);
}

static PyObject *
tensor_addmm(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return addmm_entry(self, args, nargs, kwnames);
}

PyDoc_STRVAR(addmm_doc, "addmm(input, mat1, mat2, *, beta=1, alpha=1) -> Tensor\n\n"
                        "beta * input + alpha * (mat1 @ mat2), with input broadcast to the product's shape.");

PyMethodDef mt_addmm_functions[] = {
    {"addmm", (PyCFunction)(void (*)(void))addmm_function, METH_FASTCALL | METH_KEYWORDS, addmm_doc},
    {NULL, NULL, 0, NULL},
};

PyMethodDef mt_addmm_tensor_methods[] = {
    {"addmm", (PyCFunction)(void (*)(void))tensor_addmm, METH_FASTCALL | METH_KEYWORDS,
     "addmm(mat1, mat2, *, beta=1, alpha=1) -> Tensor\n\nSee minitorch.addmm()."},
    {NULL, NULL, 0, NULL},
};
