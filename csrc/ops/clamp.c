/* clamp.c: clamp/clip, clamp_min and clamp_max, composites of the NaN-propagating maximum and minimum
 * (elementwise.h), which compute what torch's clamp kernels compute: min(max(x, lo), hi), a NaN bound or
 * element giving NaN, lo > hi giving hi. This file owns torch's checks and dtype rules for the two
 * overloads: number bounds promote only a non-floating input (torch's manual promotion in the clamp
 * meta function), refuse a promotion in place with their own message and have no bool kernel; tensor
 * bounds promote and broadcast as any binary op. It never touches elements itself. */
#include "elementwise.h"

#include "../autograd/record.h"
#include "shape.h"

#include "../core/tensor.h"
#include "dispatch.h"

/* torch names the C++ type of an integer tensor in the in-place message of the number overload */
static const char *
cpp_type_name(mt_dtype dtype)
{
    return mt_dtype_is_floating(dtype) ? mt_dtype_scalar_name(dtype) : mt_dtype_c_name(dtype);
}

/* The number overload's checks (torch's clamp meta function, then its kernels' dtype dispatch). */
static int
clamp_scalar_check(mt_clamp_kind kind, mt_TensorObject *t, const mt_cx_operand *lo, const mt_cx_operand *hi,
                   int inplace)
{
    static const char *const kernel_names[] = {"clamp_scalar", "clamp_min_scalar", "clamp_max_scalar"};
    mt_operand ops[3];
    int n = 0;
    mt_dtype result = t->dtype;
    int which = kind != MT_CLAMP ? (int)kind : lo == NULL ? 2 : hi == NULL ? 1 : 0;

    ops[n++].tensor = t;
    if (lo != NULL) {
        ops[n++] = lo->op;
    }
    if (hi != NULL) {
        ops[n++] = hi->op;
    }
    if (!mt_dtype_is_floating(result)) {
        result = mt_result_type(n, ops);
        if (inplace && result != t->dtype && mt_tensor_device(t).type == MT_DEVICE_META) {
            return mt_check_can_cast(mt_tensor_device(t), result, t->dtype);
        }
        if (inplace && result != t->dtype) {
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                         mt_dtype_scalar_name(result), cpp_type_name(t->dtype));
            return -1;
        }
    }
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        return 0;   /* torch's meta function has no kernel to dispatch and reads no bound */
    }
    if (result == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for 'Bool'", kernel_names[which],
                     mt_tensor_device(t).type == MT_DEVICE_CPU ? "cpu" : "cuda");
        return -1;
    }
    /* the kernels read each number bound in the result's dtype, with c10's overflow check */
    for (int k = 1; k < n; k++) {
        mt_scalar unused;
        if (ops[k].tensor == NULL && mt_scalar_checked(ops[k].scalar, result, &unused) < 0) {
            return -1;
        }
    }
    return 0;
}

/* 1 when min(low, hi) for a number hi has low's dtype, so it may be written over low */
static int
low_keeps_dtype(mt_TensorObject *low, const mt_cx_operand *hi)
{
    mt_operand ops[2] = {{low, {0}}, hi->op};
    return mt_result_type(2, ops) == low->dtype;
}

static PyObject *
clamp_compute(mt_clamp_kind kind, mt_TensorObject *t, const mt_cx_operand *lo, const mt_cx_operand *hi, int scalars,
              int inplace)
{
    mt_cx_operand self_op;
    PyObject *low, *result;
    mt_TensorObject *out = inplace ? t : NULL;

    if (lo == NULL && hi == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "minitorch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    if ((lo != NULL && lo->is_complex) || (hi != NULL && hi->is_complex)) {
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    if (scalars && clamp_scalar_check(kind, t, lo, hi, inplace) < 0) {
        return NULL;
    }
    if (!scalars && lo != NULL && hi != NULL) {
        /* torch's clamp kernel for two tensor bounds has no bool case (one bound is maximum or minimum) */
        mt_operand ops[3] = {{t, {0}}, lo->op, hi->op};
        if (mt_result_type(3, ops) == MT_BOOL) {
            PyErr_Format(PyExc_NotImplementedError, "\"clamp_%s\" not implemented for 'Bool'",
                         mt_tensor_device(t).type == MT_DEVICE_CPU ? "cpu" : "cuda");
            return NULL;
        }
    }
    self_op.is_complex = 0;
    self_op.op.tensor = t;
    if (hi == NULL) {
        return mt_binary("clamp", MT_BINARY_MAXIMUM, &self_op, lo, NULL, out);
    }
    if (lo == NULL) {
        return mt_binary("clamp", MT_BINARY_MINIMUM, &self_op, hi, NULL, out);
    }
    low = mt_binary("clamp", MT_BINARY_MAXIMUM, &self_op, lo, NULL, NULL);
    if (low == NULL) {
        return NULL;
    }
    self_op.op.tensor = (mt_TensorObject *)low;
    if (out == NULL && scalars && low_keeps_dtype((mt_TensorObject *)low, hi)) {
        /* the maximum is a new tensor of the result's dtype and shape: the minimum overwrites it (one
         * pass less, and out= takes the maximum's place with no copy after) */
        out = (mt_TensorObject *)low;
    }
    result = mt_binary("clamp", MT_BINARY_MINIMUM, &self_op, hi, NULL, out);
    Py_DECREF(low);
    return result;
}

PyObject *
mt_clamp(mt_clamp_kind kind, mt_TensorObject *t, const mt_cx_operand *lo, const mt_cx_operand *hi, int scalars,
         int inplace)
{
    mt_TensorObject *in[3] = {t, lo != NULL ? lo->op.tensor : NULL, hi != NULL ? hi->op.tensor : NULL};
    mt_TensorObject *original = NULL;
    PyObject *r;

    if (inplace && mt_ag_check_inplace(t) < 0) {
        return NULL;
    }
    if (inplace && mt_ag_needed(3, in)) {
        /* the formula reads the input, which clamp_ overwrites */
        original = mt_clone(t);
        if (original == NULL) {
            return NULL;
        }
    }
    /* its parts (maximum, minimum) compute below autograd: clamp records one node of its own */
    MT_BELOW_AUTOGRAD(r = clamp_compute(kind, t, lo, hi, scalars, inplace));
    if (r != NULL) {
        mt_ag_bound low = {lo != NULL, lo != NULL ? lo->op.tensor : NULL, {MT_INT64, {0}, 0}};
        mt_ag_bound high = {hi != NULL, hi != NULL ? hi->op.tensor : NULL, {MT_INT64, {0}, 0}};
        if (lo != NULL && lo->op.tensor == NULL) {
            low.number = lo->op.scalar;
        }
        if (hi != NULL && hi->op.tensor == NULL) {
            high.number = hi->op.scalar;
        }
        if (mt_ag_clamp((int)kind, t, original != NULL ? original : t, &low, &high, scalars, (mt_TensorObject *)r) < 0) {
            Py_CLEAR(r);
        }
    }
    Py_XDECREF(original);
    return r;
}
