/* addcmul.c: addcmul and addcdiv, input + value * tensor1 * tensor2 (or / tensor2), written with the
 * elementwise ops (elementwise.h) in the order torch's kernels evaluate it, ((value * t1) * t2) + input,
 * each step rounded in the common dtype of the three tensors as torch's kernel computes in it: operands of
 * another dtype are converted first, and value is converted to that dtype (truncated for integers, as
 * torch's Scalar::to does). This file owns torch's checks for the two ops; it never touches elements. */
#include "elementwise.h"

#include "../autograd/record.h"

#include "../core/tensor.h"
#include "copy.h"
#include "dispatch.h"

static const char *const integer_addcdiv_message =
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
    "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
    "* minitorch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
    "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
    "* tensor1 / tensor2), for all dtypes.";

/* t in dtype (a new reference): t itself, or a converted copy */
static mt_TensorObject *
as_dtype(mt_TensorObject *t, mt_dtype dtype)
{
    if (t->dtype == dtype) {
        Py_INCREF(t);
        return t;
    }
    return mt_copy_to(t, dtype, mt_tensor_device(t));
}

static PyObject *
binary_tensors(mt_binary_op op, mt_TensorObject *a, const mt_cx_operand *b, mt_TensorObject *self_out)
{
    mt_cx_operand x;

    x.is_complex = 0;
    x.op.tensor = a;
    return mt_binary(mt_binary_op_name(op), op, &x, b, NULL, self_out);
}

/* the C++ type torch's Scalar::to names in its overflow message */
static const char *
cpp_type(mt_dtype dtype)
{
    return dtype == MT_FLOAT32 ? "float" : dtype == MT_FLOAT64 ? "double" : dtype == MT_INT32 ? "int" : "int64_t";
}

/* torch's addcmul kernel is compiled with its multiply and add fused: fma(value * t1, t2, input). In
 * float32 the fused result is the float64 one rounded once more (the product of two floats is exact in
 * double; a double rounding could differ only on an exact float32 tie, 2**-29 of the time): scaled *
 * t2 + input computed in float64 and converted. In float64 minitorch rounds twice, within 1 ulp
 * (README, "Known differences"). */
static PyObject *
fused_float32(mt_TensorObject *self, mt_TensorObject *scaled, mt_TensorObject *t2, int inplace)
{
    mt_TensorObject *a = as_dtype(scaled, MT_FLOAT64);
    mt_TensorObject *b = a != NULL ? as_dtype(t2, MT_FLOAT64) : NULL;
    mt_TensorObject *base = b != NULL ? as_dtype(self, MT_FLOAT64) : NULL;
    PyObject *product = NULL, *sum = NULL, *result = NULL;
    mt_cx_operand rhs;

    if (base == NULL || (inplace && mt_check_can_cast(MT_FLOAT32, self->dtype) < 0)) {
        goto done;
    }
    rhs.is_complex = 0;
    rhs.op.tensor = b;
    product = binary_tensors(MT_BINARY_MUL, a, &rhs, NULL);
    if (product == NULL) {
        goto done;
    }
    rhs.op.tensor = (mt_TensorObject *)product;
    /* in place, the float64 sum is written into self (its shape checked, rounded to float32 on the way) */
    sum = binary_tensors(MT_BINARY_ADD, base, &rhs, inplace ? self : NULL);
    if (sum != NULL) {
        result = inplace ? (Py_INCREF(sum), sum)
                         : (PyObject *)mt_copy_to((mt_TensorObject *)sum, MT_FLOAT32, mt_tensor_device(self));
    }
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(base);
    Py_XDECREF(product);
    Py_XDECREF(sum);
    return result;
}

static PyObject *
addcmul_compute(mt_addc_kind kind, mt_TensorObject *self, mt_TensorObject *t1, mt_TensorObject *t2, mt_scalar value,
                int value_complex, int inplace)
{
    mt_operand ops[3] = {{self, {0}}, {t1, {0}}, {t2, {0}}};
    mt_dtype common;
    mt_TensorObject *c1 = NULL, *c2 = NULL;
    PyObject *scaled = NULL, *product = NULL, *result = NULL;
    mt_cx_operand v, rhs;
    int ndim;
    int64_t shape[MT_MAX_DIMS];

    if (kind == MT_ADDCDIV && !mt_dtype_is_floating(t1->dtype) && !mt_dtype_is_floating(t2->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, integer_addcdiv_message);
        return NULL;
    }
    if (mt_broadcast_shapes(self->ndim, self->sizes, t1->ndim, t1->sizes, &ndim, shape) < 0 ||
        mt_broadcast_shapes(ndim, shape, t2->ndim, t2->sizes, &ndim, shape) < 0) {
        return NULL;
    }
    common = mt_result_type(3, ops);
    if (common == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%s_out\" not implemented for 'Bool'",
                     kind == MT_ADDCMUL ? "addcmul" : "addcdiv",
                     mt_tensor_device(self).type == MT_DEVICE_CPU ? "cpu" : "cuda");
        return NULL;
    }
    if (value_complex) {
        PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow", cpp_type(common));
        return NULL;
    }
    v.is_complex = 0;
    v.op.tensor = NULL;
    if (mt_dtype_is_floating(common)) {
        v.op.scalar.kind = MT_FLOAT64;
        v.op.scalar.is_uint64 = 0;
        v.op.scalar.v.d = mt_scalar_to_double(value);
    }
    else {
        v.op.scalar.kind = MT_INT64;
        v.op.scalar.is_uint64 = 0;
        v.op.scalar.v.i = mt_scalar_to_int64(value);
    }
    c1 = as_dtype(t1, common);
    c2 = c1 != NULL ? as_dtype(t2, common) : NULL;
    if (c2 == NULL) {
        goto done;
    }
    scaled = binary_tensors(MT_BINARY_MUL, c1, &v, NULL);
    if (scaled == NULL) {
        goto done;
    }
    if (kind == MT_ADDCMUL && common == MT_FLOAT32) {
        result = fused_float32(self, (mt_TensorObject *)scaled, c2, inplace);
        goto done;
    }
    rhs.is_complex = 0;
    rhs.op.tensor = c2;
    product = binary_tensors(kind == MT_ADDCMUL ? MT_BINARY_MUL : MT_BINARY_DIV, (mt_TensorObject *)scaled, &rhs,
                             NULL);
    if (product == NULL) {
        goto done;
    }
    rhs.op.tensor = (mt_TensorObject *)product;
    if (inplace) {
        result = binary_tensors(MT_BINARY_ADD, self, &rhs, self);
    }
    else {
        mt_TensorObject *base = as_dtype(self, common);
        if (base != NULL) {
            result = binary_tensors(MT_BINARY_ADD, base, &rhs, NULL);
            Py_DECREF(base);
        }
    }
done:
    Py_XDECREF(c1);
    Py_XDECREF(c2);
    Py_XDECREF(scaled);
    Py_XDECREF(product);
    return result;
}

PyObject *
mt_addcmul(mt_addc_kind kind, mt_TensorObject *self, mt_TensorObject *t1, mt_TensorObject *t2, mt_scalar value,
           int value_complex, int inplace)
{
    PyObject *r;

    if (inplace && mt_ag_check_inplace(self) < 0) {
        return NULL;
    }
    /* its parts compute below autograd: addcmul records one node of its own */
    MT_BELOW_AUTOGRAD(r = addcmul_compute(kind, self, t1, t2, value, value_complex, inplace));
    if (r != NULL && mt_ag_addc(kind == MT_ADDCDIV, self, t1, t2, value, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}
