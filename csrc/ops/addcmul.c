/* addcmul.c: addcmul, addcdiv and lerp, the ops torch computes with a fused multiply-add: input + value *
 * tensor1 * tensor2 (or / tensor2), and self + weight * (end - self). Each is written with the elementwise ops
 * (elementwise.h) in the order torch's kernels evaluate it, fma(value * t1, t2, input), each step rounded in
 * the common dtype as torch's kernel computes in it: operands of another dtype are converted first, and
 * value is converted to that dtype (truncated for integers, as torch's Scalar::to does). This file owns
 * torch's checks for the three ops; it never touches elements. */
#include "elementwise.h"

#include <math.h>

#include "../autograd/record.h"

#include "../core/tensor.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "shape.h"

/* torch's refusal of integer addcdiv. Its CPU kernel joins these parts with one space more after the first;
 * its meta function raises them as a tuple, which Python prints as one ('...', '...'). */
static const char *const integer_addcdiv_parts[] = {
    "Integer division with addcdiv is no longer supported, and in a future ",
    "release addcdiv will perform a true division of tensor1 and tensor2. ",
    "The historic addcdiv behavior can be implemented as ",
    "(input + value * minitorch.trunc(tensor1 / tensor2)).to(input.dtype) ",
    "for integer inputs and as ",
    "(input + value * tensor1 / tensor2) for float inputs. ",
    "The future addcdiv behavior is just the latter implementation: ",
    "(input + value * tensor1 / tensor2), for all dtypes.",
};

/* raises the refusal in the CPU kernel's words or (meta) as the meta function's tuple; returns -1 */
static int
raise_integer_addcdiv(int meta)
{
    size_t n = sizeof integer_addcdiv_parts / sizeof integer_addcdiv_parts[0];
    char msg[1024];
    size_t len = 0;

    len += (size_t)snprintf(msg, sizeof msg, "%s", meta ? "('" : "");
    for (size_t i = 0; i < n && len < sizeof msg; i++) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", integer_addcdiv_parts[i],
                                !meta ? (i == 0 ? " " : "") : (i + 1 < n ? "', '" : "')"));
    }
    PyErr_SetString(PyExc_RuntimeError, msg);
    return -1;
}

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

/* float16 and bfloat16: torch's addcmul, addcdiv and lerp kernels compute in float32 and round each
 * result once. r32 (stolen; NULL passes through), the float32 result, rounded to `dtype`: into self in
 * place, else a new tensor. */
static PyObject *
rounded_result(PyObject *r32, mt_dtype dtype, mt_TensorObject *self_out)
{
    PyObject *r;

    if (r32 == NULL) {
        return NULL;
    }
    if (self_out != NULL) {
        r = mt_copy_(self_out, (mt_TensorObject *)r32) < 0 ? NULL : (Py_INCREF(self_out), (PyObject *)self_out);
    }
    else {
        r = (PyObject *)mt_copy_to((mt_TensorObject *)r32, dtype, mt_tensor_device((mt_TensorObject *)r32));
    }
    Py_DECREF(r32);
    return r;
}

static PyObject *
binary_tensors(mt_binary_op op, mt_TensorObject *a, const mt_cx_operand *b, mt_TensorObject *self_out)
{
    mt_cx_operand x;

    x.is_complex = 0;
    x.op.tensor = a;
    return mt_binary(mt_binary_op_name(op), op, &x, b, NULL, self_out);
}

/* base + coeff * t, as torch's kernels compute it: with the multiply and the add fused, one rounding (they
 * are compiled with contraction, so even their scalar tails are fma(coeff, t, base)): the backend's fma
 * kernel for float32 and float64; integers (exact either way, wrapping) as a multiply and an add. coeff
 * is a tensor or a number, and base, t and coeff are already in `dtype`; the sum is written into out
 * (NULL: a new tensor), converted to its dtype. */
static PyObject *
multiply_add(mt_TensorObject *base, const mt_cx_operand *coeff, mt_TensorObject *t, mt_TensorObject *out,
             mt_dtype dtype)
{
    mt_TensorObject *tensors[3] = {base, coeff->op.tensor, t};  /* self first: its device is the expected one */
    mt_operand ops[3] = {coeff->op, {t, {0}}, {base, {0}}};
    mt_pointwise_input in[3];
    mt_pointwise_kernel kernel = {MT_POINTWISE_FMA};
    mt_device device;
    mt_TensorObject *sum;
    int ndim;
    int64_t shape[MT_MAX_DIMS];

    if (dtype != MT_FLOAT32 && dtype != MT_FLOAT64) {
        mt_cx_operand rhs;
        PyObject *product = binary_tensors(MT_BINARY_MUL, t, coeff, NULL), *r;
        if (product == NULL) {
            return NULL;
        }
        rhs.is_complex = 0;
        rhs.op.tensor = (mt_TensorObject *)product;
        r = binary_tensors(MT_BINARY_ADD, base, &rhs, out);
        Py_DECREF(product);
        return r;
    }
    if (mt_check_same_device(out, 3, tensors, &device) < 0 ||
        mt_broadcast_shapes(base->ndim, base->sizes, t->ndim, t->sizes, &ndim, shape) < 0 ||
        (coeff->op.tensor != NULL &&
         mt_broadcast_shapes(ndim, shape, coeff->op.tensor->ndim, coeff->op.tensor->sizes, &ndim, shape) < 0)) {
        return NULL;
    }
    if (out != NULL) {
        if (mt_check_out_shape(mt_tensor_device(out), out, ndim, shape) < 0 || mt_check_no_internal_overlap(out) < 0 ||
            mt_check_can_cast(mt_tensor_device(out), dtype, out->dtype) < 0) {
            return NULL;
        }
        for (int k = 0; k < 3; k++) {
            if (tensors[k] != NULL && mt_check_no_partial_overlap(out, tensors[k]) < 0) {
                return NULL;
            }
        }
    }
    for (int k = 0; k < 3; k++) {
        mt_pointwise_input_init(&in[k], &ops[k], dtype, device);
    }
    kernel.args.fma_dtype = dtype;
    sum = mt_run_pointwise(out != NULL && out->dtype == dtype ? out : NULL, dtype, ndim, shape, 3, in, dtype, device,
                           &kernel);
    if (sum == NULL || out == NULL || sum == out) {
        return (PyObject *)sum;
    }
    /* an output of another dtype (float32 self, float64 operands): the sum converted into it */
    if (mt_copy_(out, sum) < 0) {
        Py_DECREF(sum);
        return NULL;
    }
    Py_DECREF(sum);
    Py_INCREF(out);
    return (PyObject *)out;
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

    if (kind == MT_ADDCDIV && mt_tensor_device(self).type == MT_DEVICE_META) {
        /* torch's meta function refuses integer operands only: bool ones divide as floats there */
        if (mt_dtype_is_integral(t1->dtype, 0) && mt_dtype_is_integral(t2->dtype, 0)) {
            raise_integer_addcdiv(1);
            return NULL;
        }
    }
    else if (kind == MT_ADDCDIV && !mt_dtype_is_floating(t1->dtype) && !mt_dtype_is_floating(t2->dtype)) {
        raise_integer_addcdiv(0);
        return NULL;
    }
    if (mt_broadcast_operands(3, (mt_TensorObject *const[]){self, t1, t2}, &ndim, shape) < 0) {
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
        mt_value_overflow_error(mt_scalar_checked_type_name(common));
        return NULL;
    }
    if (inplace && mt_tensor_device(self).type == MT_DEVICE_META && !mt_can_cast(common, self->dtype)) {
        /* torch's meta addcmul_ and addcdiv_ write any result into self: an integer self stays one */
        if (mt_check_out_shape(mt_tensor_device(self), self, ndim, shape) < 0) {
            return NULL;
        }
        Py_INCREF(self);
        return (PyObject *)self;
    }
    /* the kernel reads value in its computation's dtype with c10's overflow check: float32 for float16
     * and bfloat16, checked by the float32 computation below */
    if (!mt_dtype_is_reduced_floating(common)) {
        mt_scalar unused;
        if (mt_scalar_checked(value, common, &unused) < 0) {
            return NULL;
        }
    }
    if (mt_dtype_is_reduced_floating(common)) {
        mt_TensorObject *s32 = as_dtype(self, MT_FLOAT32);
        c1 = s32 != NULL ? as_dtype(t1, MT_FLOAT32) : NULL;
        c2 = c1 != NULL ? as_dtype(t2, MT_FLOAT32) : NULL;
        if (c2 != NULL) {
            result = rounded_result(addcmul_compute(kind, s32, c1, c2, value, 0, 0), common, inplace ? self : NULL);
        }
        Py_XDECREF(s32);
        goto done;
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
    if (kind == MT_ADDCMUL) {
        mt_TensorObject *base = as_dtype(self, common);
        mt_cx_operand coeff;
        if (base != NULL) {
            coeff.is_complex = 0;
            coeff.op.tensor = (mt_TensorObject *)scaled;
            result = multiply_add(base, &coeff, c2, inplace ? self : NULL, common);
            Py_DECREF(base);
        }
        goto done;
    }
    rhs.is_complex = 0;
    rhs.op.tensor = c2;
    product = binary_tensors(MT_BINARY_DIV, (mt_TensorObject *)scaled, &rhs, NULL);
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

/* ---- lerp ---------------------------------------------------------------------------------------------- */

static int
check_lerp_dtype(const mt_TensorObject *self, const mt_TensorObject *t, const char *name)
{
    if (t->dtype == self->dtype) {
        return 0;
    }
    if (mt_tensor_device(self).type == MT_DEVICE_META) {
        /* torch's meta function (lerp's in torch/_meta_registrations.py) names Python's dtypes */
        PyErr_Format(PyExc_RuntimeError, "expected dtype minitorch.%s for `%s`, but got dtype minitorch.%s",
                     mt_dtype_name(self->dtype), name, mt_dtype_name(t->dtype));
        return -1;
    }
    PyErr_Format(PyExc_RuntimeError, "expected dtype %s for `%s` but got dtype %s", mt_dtype_c_name(self->dtype),
                 name, mt_dtype_c_name(t->dtype));
    return -1;
}

/* torch's lerp kernel: with d = end - self, self + w * d where |w| < 0.5, else end + (w - 1) * d (one fused
 * multiply-add either way, w and w - 1 in the tensors' dtype), so that lerp(a, b, 1) is exactly b. A number
 * weight picks its branch once; a tensor weight per element. */
static PyObject *
lerp_compute(mt_TensorObject *self, mt_TensorObject *end, mt_TensorObject *weight, mt_scalar w, int w_complex,
             int inplace)
{
    mt_dtype dtype = self->dtype;
    mt_device device = mt_tensor_device(self);
    mt_TensorObject *devices[3] = {self, end, weight};
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    mt_cx_operand rhs, coeff;
    PyObject *d = NULL, *small = NULL, *wm1 = NULL, *coeff_t = NULL, *base = NULL, *result = NULL;
    mt_TensorObject *wt = NULL;
    mt_scalar converted;

    if (check_lerp_dtype(self, end, "end") < 0 ||
        (weight != NULL && weight->ndim != 0 && check_lerp_dtype(self, weight, "weight") < 0)) {
        return NULL;
    }
    /* a 0-dim weight on the CPU may serve tensors on any device, as torch's CPU scalars do */
    if (mt_check_same_device(NULL, weight != NULL && !(weight->ndim == 0 && mt_tensor_device(weight).type ==
                                                       MT_DEVICE_CPU) ? 3 : 2, devices, &device) < 0 ||
        mt_broadcast_operands(weight != NULL ? 3 : 2, devices, &ndim, shape) < 0 ||
        (inplace && mt_check_out_shape(mt_tensor_device(self), self, ndim, shape) < 0)) {
        return NULL;
    }
    if (!mt_dtype_is_floating(dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     weight != NULL ? "lerp_kernel_tensor" : "lerp_kernel_scalar", mt_dtype_scalar_name(dtype));
        return NULL;
    }
    if (weight == NULL && w_complex) {
        mt_value_overflow_error(mt_scalar_checked_type_name(dtype));
        return NULL;
    }
    /* a number weight is read in the computation's dtype, with c10's overflow check: float32 for float16 and
     * bfloat16, checked by the float32 computation below */
    if (weight == NULL && !mt_dtype_is_reduced_floating(dtype) && mt_scalar_checked(w, dtype, &converted) < 0) {
        return NULL;
    }
    if (mt_dtype_is_reduced_floating(dtype)) {
        mt_TensorObject *s32 = as_dtype(self, MT_FLOAT32);
        mt_TensorObject *e32 = s32 != NULL ? as_dtype(end, MT_FLOAT32) : NULL;
        wt = e32 != NULL && weight != NULL ? as_dtype(weight, MT_FLOAT32) : NULL;
        if (e32 != NULL && (weight == NULL || wt != NULL)) {
            result = rounded_result(lerp_compute(s32, e32, wt, w, 0, 0), dtype, inplace ? self : NULL);
        }
        Py_XDECREF(s32);
        Py_XDECREF(e32);
        goto done;
    }
    rhs.is_complex = 0;
    rhs.op.tensor = self;
    d = binary_tensors(MT_BINARY_SUB, end, &rhs, NULL);
    if (d == NULL) {
        goto done;
    }
    coeff.is_complex = 0;
    if (weight == NULL) {
        /* w in the dtype (float32: rounded), then w - 1 in the dtype */
        double v = mt_scalar_to_double(converted);
        if (dtype == MT_FLOAT32) {
            v = (double)(float)v;
        }
        coeff.op.tensor = NULL;
        coeff.op.scalar.kind = MT_FLOAT64;
        coeff.op.scalar.is_uint64 = 0;
        coeff.op.scalar.v.d = fabs(v) < 0.5 ? v : dtype == MT_FLOAT32 ? (double)((float)v - 1.0f) : v - 1.0;
        result = multiply_add(fabs(v) < 0.5 ? self : end, &coeff, (mt_TensorObject *)d, inplace ? self : NULL,
                              dtype);
        goto done;
    }
    /* a tensor weight: coeff = where(|w| < 0.5, w, w - 1), base = where(|w| < 0.5, self, end) */
    wt = mt_copy_to(weight, dtype, device);
    if (wt == NULL) {
        goto done;
    }
    {
        mt_operand half = {NULL, {0}}, one = {NULL, {0}}, a, b;
        mt_cx_operand x, h;
        PyObject *absw = mt_unary(MT_UNARY_ABS, wt, 0);
        if (absw == NULL) {
            goto done;
        }
        half.scalar.kind = MT_FLOAT64;
        half.scalar.v.d = 0.5;
        h.is_complex = 0;
        h.op = half;
        small = binary_tensors(MT_BINARY_LT, (mt_TensorObject *)absw, &h, NULL);
        Py_DECREF(absw);
        one.scalar.kind = MT_INT64;
        one.scalar.v.i = 1;
        x.is_complex = 0;
        x.op = one;
        wm1 = small != NULL ? binary_tensors(MT_BINARY_SUB, wt, &x, NULL) : NULL;
        if (wm1 == NULL) {
            goto done;
        }
        a.tensor = wt;
        b.tensor = (mt_TensorObject *)wm1;
        coeff_t = mt_where((mt_TensorObject *)small, &a, &b);
        a.tensor = self;
        b.tensor = end;
        base = coeff_t != NULL ? mt_where((mt_TensorObject *)small, &a, &b) : NULL;
        if (base == NULL) {
            goto done;
        }
    }
    coeff.op.tensor = (mt_TensorObject *)coeff_t;
    result = multiply_add((mt_TensorObject *)base, &coeff, (mt_TensorObject *)d, inplace ? self : NULL, dtype);
done:
    Py_XDECREF(d);
    Py_XDECREF(small);
    Py_XDECREF(wm1);
    Py_XDECREF(coeff_t);
    Py_XDECREF(base);
    Py_XDECREF(wt);
    return result;
}

PyObject *
mt_lerp(mt_TensorObject *self, mt_TensorObject *end, mt_TensorObject *weight, mt_scalar w, int w_complex,
        int inplace)
{
    PyObject *r;
    mt_TensorObject *original = NULL;

    if (inplace) {
        if (mt_ag_check_inplace(self) < 0) {
            return NULL;
        }
        /* the weight's gradient reads self's old value */
        if (mt_ag_lerp_needs_original(weight) && (original = mt_clone(self)) == NULL) {
            return NULL;
        }
    }
    MT_BELOW_AUTOGRAD(r = lerp_compute(self, end, weight, w, w_complex, inplace));
    if (r != NULL && mt_ag_lerp(self, end, weight, w, (mt_TensorObject *)r, original) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(original);
    return r;
}
