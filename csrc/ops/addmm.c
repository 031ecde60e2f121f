/* addmm.c: torch.addmm, beta * input + alpha * (mat1 @ mat2), which is what nn.Linear computes for 2-D
 * inputs, as a C entry point (matmul.h; its Python forms are rows of csrc/python/ops.def). It owns addmm's
 * checks in torch's order with torch's messages (device check of the CUDA wrapper, dtypes, matrix ranks,
 * shapes, input broadcasting); the product comes from matmul.c and the scaling and the sum from the
 * elementwise layer. */
#include <Python.h>

#include <stdio.h>
#include <string.h>

#include "../core/scalar.h"
#include "../autograd/record.h"
#include "../core/tensor.h"
#include "copy.h"
#include "elementwise.h"
#include "matmul.h"
#include "shape.h"

/* alpha and beta take the result's type: an integral addmm truncates a float alpha, as torch does */
static mt_cx_operand
scalar_for(mt_scalar s, mt_dtype dtype)
{
    mt_cx_operand o;

    memset(&o, 0, sizeof o);
    if (!mt_dtype_is_floating(dtype) && s.kind == MT_FLOAT64) {
        s.kind = MT_INT64;
        s.v.i = (int64_t)s.v.d;
    }
    o.op.scalar = s;
    return o;
}

/* a * b for a tensor and a number, or a + b for two tensors */
static PyObject *
apply(mt_binary_op op, PyObject *a, const mt_cx_operand *b)
{
    mt_cx_operand x;

    memset(&x, 0, sizeof x);
    x.op.tensor = (mt_TensorObject *)a;
    return mt_binary(mt_binary_op_name(op), op, &x, b, NULL, NULL);
}

static int
scalar_is(mt_scalar s, double value)
{
    return mt_scalar_to_double(s) == value;
}

static PyObject *
addmm_compute(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha)
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
    if (mt_dtype_is_reduced_floating(mat2->dtype)) {
        /* float16 and bfloat16: torch computes beta * input + alpha * (mat1 @ mat2) in float32 and rounds
         * each result once */
        mt_TensorObject *s32 = mt_copy_to(self, MT_FLOAT32, mt_tensor_device(self));
        mt_TensorObject *a32 = s32 != NULL ? mt_copy_to(mat1, MT_FLOAT32, mt_tensor_device(mat1)) : NULL;
        mt_TensorObject *b32 = a32 != NULL ? mt_copy_to(mat2, MT_FLOAT32, mt_tensor_device(mat2)) : NULL;
        PyObject *r32 = b32 != NULL ? addmm_compute(s32, a32, b32, beta, alpha) : NULL;
        if (r32 != NULL) {
            result = (PyObject *)mt_copy_to((mt_TensorObject *)r32, mat2->dtype,
                                            mt_tensor_device((mt_TensorObject *)r32));
            Py_DECREF(r32);
        }
        Py_XDECREF(s32);
        Py_XDECREF(a32);
        Py_XDECREF(b32);
        return result;
    }
    sizes[0] = mat1->sizes[0];
    sizes[1] = mat2->sizes[1];
    if (sizes[0] * sizes[1] > 0) {
        /* the kernel reads beta and alpha in the result's dtype (float32 for float16 and bfloat16, above),
         * with c10's overflow check */
        mt_scalar unused;
        if (mt_scalar_checked(beta, mat2->dtype, &unused) < 0 || mt_scalar_checked(alpha, mat2->dtype, &unused) < 0) {
            return NULL;
        }
    }
    expanded = mt_expand(self, 2, sizes);
    if (expanded == NULL) {
        return NULL;
    }
    product = mt_matmul(mat1, mat2);
    if (product == NULL) {
        goto done;
    }
    if (!scalar_is(alpha, 1.0)) {
        mt_cx_operand a = scalar_for(alpha, mat2->dtype);
        Py_SETREF(product, apply(MT_BINARY_MUL, product, &a));
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
        mt_cx_operand b = scalar_for(beta, mat2->dtype);
        scaled = apply(MT_BINARY_MUL, (PyObject *)expanded, &b);
        if (scaled == NULL) {
            goto done;
        }
    }
    else {
        scaled = (PyObject *)expanded;
        Py_INCREF(scaled);
    }
    {
        mt_cx_operand p;
        memset(&p, 0, sizeof p);
        p.op.tensor = (mt_TensorObject *)product;
        result = apply(MT_BINARY_ADD, scaled, &p);
    }

done:
    Py_XDECREF(expanded);
    Py_XDECREF(product);
    Py_XDECREF(scaled);
    return result;
}

PyObject *
mt_addmm(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha)
{
    PyObject *r;

    /* its parts (expand, mm, mul, add) compute below autograd: addmm records one AddmmBackward0 */
    MT_BELOW_AUTOGRAD(r = addmm_compute(self, mat1, mat2, beta, alpha));
    if (r != NULL && mt_ag_addmm(self, mat1, mat2, beta, alpha, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}
