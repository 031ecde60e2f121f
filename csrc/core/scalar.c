/* scalar.c: converting between Python numbers, C scalars and single tensor elements. */
#include "scalar.h"

#include <float.h>
#include <math.h>
#include <string.h>

int
mt_scalar_from_object(PyObject *obj, mt_scalar *out)
{
    out->is_uint64 = 0;
    if (PyBool_Check(obj)) {
        out->kind = MT_BOOL;
        out->v.i = obj == Py_True;
        return 1;
    }
    if (PyLong_Check(obj)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow) {
            /* like torch's Scalar: past int64 an int is held as a uint64, past that it fails */
            unsigned long long u;
            if (overflow < 0) {
                PyErr_SetString(PyExc_OverflowError, "can't convert negative int to unsigned");
                return -1;
            }
            u = PyLong_AsUnsignedLongLong(obj);
            if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_SetString(PyExc_OverflowError, "int too big to convert");
                return -1;
            }
            out->kind = MT_INT64;
            out->v.i = (int64_t)u;
            out->is_uint64 = 1;
            return 1;
        }
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        out->kind = MT_INT64;
        out->v.i = v;
        return 1;
    }
    if (PyFloat_Check(obj)) {
        out->kind = MT_FLOAT64;
        out->v.d = PyFloat_AS_DOUBLE(obj);
        return 1;
    }
    /* NumPy scalars and other numbers: integers first (they have __index__), then floats */
    if (Py_TYPE(obj)->tp_as_number != NULL && !PySequence_Check(obj)) {
        PyNumberMethods *nb = Py_TYPE(obj)->tp_as_number;
        if (nb->nb_index != NULL) {
            PyObject *i = PyNumber_Index(obj);
            int r;
            if (i == NULL) {
                return -1;
            }
            r = mt_scalar_from_object(i, out);
            Py_DECREF(i);
            if (r == 1 && strcmp(Py_TYPE(obj)->tp_name, "numpy.bool") == 0) {
                out->kind = MT_BOOL;
            }
            return r;
        }
        if (nb->nb_float != NULL) {
            double d = PyFloat_AsDouble(obj);
            if (d == -1.0 && PyErr_Occurred()) {
                return -1;
            }
            out->kind = MT_FLOAT64;
            out->v.d = d;
            return 1;
        }
    }
    return 0;
}

/* double -> int64 without undefined behaviour: mt_double_to_int64 (scalar_type.h) gives what the x86
 * conversion instruction (and so torch's static_cast there) gives for NaN and out-of-range values,
 * INT64_MIN. Callers that must refuse such values (torch's "value cannot be converted to type int64_t
 * without overflow") check before storing. */
#define double_to_int64 mt_double_to_int64

const char *
mt_scalar_checked_type_name(mt_dtype d)
{
    switch (d) {
    case MT_BOOL:
        return "bool";
    case MT_UINT8:
        return "uint8_t";
    case MT_INT8:
        return "int8_t";
    case MT_INT16:
        return "int16_t";
    case MT_INT32:
        return "int";
    case MT_INT64:
        return "int64_t";
    case MT_FLOAT32:
        return "float";
    case MT_FLOAT16:
        return "c10::Half";
    case MT_BFLOAT16:
        return "c10::BFloat16";
    default:
        return "double";
    }
}

int
mt_scalar_checked(mt_scalar s, mt_dtype d, mt_scalar *out)
{
    int overflow = 0;
    int64_t lo, hi;

    *out = s;
    if (d == MT_BOOL || s.kind == MT_BOOL) {
        return 0;
    }
    if (s.kind == MT_FLOAT64) {
        double f = s.v.d;
        switch (d) {
        case MT_UINT8:
        case MT_INT8:
        case MT_INT16:
        case MT_INT32:
            mt_dtype_int_range(d, &lo, &hi);
            overflow = isnan(f) || f < (double)lo || f > (double)hi;
            break;
        case MT_INT64:
            /* compared in double, as c10 does: 2.0**63 itself passes */
            overflow = isnan(f) || f < -9223372036854775808.0 || f > 9223372036854775808.0;
            break;
        case MT_FLOAT32:
            overflow = isfinite(f) && (f < -FLT_MAX || f > FLT_MAX);
            break;
        case MT_FLOAT16:
            overflow = isfinite(f) && (f < -65504.0 || f > 65504.0);
            break;
        case MT_BFLOAT16:
            /* the largest finite bfloat16, 0x7f7f */
            overflow = isfinite(f) && (f < -3.3895313892515355e+38 || f > 3.3895313892515355e+38);
            break;
        default:
            break;
        }
    }
    else if (s.is_uint64) {
        /* a uint64 past int64: too big for every integer dtype and float16, exact (rounded) for the
         * other floating ones */
        if (mt_dtype_is_integral(d, 0) || d == MT_FLOAT16) {
            overflow = 1;
        }
        else {
            out->kind = MT_FLOAT64;
            out->v.d = (double)(uint64_t)s.v.i;
            out->is_uint64 = 0;
        }
    }
    else if (d == MT_FLOAT16) {
        /* c10 compares an int with Half's largest finite value: 65519 fails, though it would round to it */
        overflow = s.v.i > 65504 || s.v.i < -65504;
    }
    else if (mt_dtype_is_integral(d, 0) && d != MT_INT64) {
        mt_dtype_int_range(d, &lo, &hi);
        /* c10 lets a negative int wrap into an unsigned dtype down to -max (uint8: -255 is 1) */
        overflow = s.v.i > hi || s.v.i < (lo == 0 ? -hi : lo);
    }
    return overflow ? mt_value_overflow_error(mt_scalar_checked_type_name(d)) : 0;
}

int
mt_value_overflow_error(const char *type_name)
{
    PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow", type_name);
    return -1;
}

#define STORE_AS(D) (*(D *)dst = s.kind == MT_FLOAT64 ? MT_FLOAT_TO_INT(D, s.v.d) : (D)s.v.i)

void
mt_scalar_store(mt_scalar s, mt_dtype d, void *dst)
{
    switch (d) {
    case MT_BOOL:
        *(uint8_t *)dst = s.kind == MT_FLOAT64 ? (s.v.d != 0.0) : (s.v.i != 0);
        break;
    case MT_UINT8:
        STORE_AS(uint8_t);
        break;
    case MT_INT8:
        STORE_AS(int8_t);
        break;
    case MT_INT16:
        STORE_AS(int16_t);
        break;
    case MT_INT32:
        STORE_AS(int32_t);
        break;
    case MT_INT64:
        *(int64_t *)dst = s.kind == MT_FLOAT64 ? double_to_int64(s.v.d) : s.v.i;
        break;
    case MT_FLOAT32:
        *(float *)dst = s.kind == MT_FLOAT64 ? (float)s.v.d : s.is_uint64 ? (float)(uint64_t)s.v.i : (float)s.v.i;
        break;
    case MT_FLOAT64:
        *(double *)dst = mt_scalar_to_double(s);
        break;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        /* through float32, as c10::Half(double) and c10::Half(int64_t) convert */
        *(uint16_t *)dst = mt_float_to_reduced(d, s.kind == MT_FLOAT64 ? (float)s.v.d
                                                  : s.is_uint64 ? (float)(uint64_t)s.v.i : (float)s.v.i);
        break;
    default:
        break;
    }
}

mt_scalar
mt_scalar_load(mt_dtype d, const void *src)
{
    mt_scalar s;
    s.is_uint64 = 0;
    switch (d) {
    case MT_BOOL:
        s.kind = MT_BOOL;
        s.v.i = *(const uint8_t *)src != 0;
        break;
    case MT_UINT8:
        s.kind = MT_INT64;
        s.v.i = *(const uint8_t *)src;
        break;
    case MT_INT8:
        s.kind = MT_INT64;
        s.v.i = *(const int8_t *)src;
        break;
    case MT_INT16:
        s.kind = MT_INT64;
        s.v.i = *(const int16_t *)src;
        break;
    case MT_INT32:
        s.kind = MT_INT64;
        s.v.i = *(const int32_t *)src;
        break;
    case MT_INT64:
        s.kind = MT_INT64;
        s.v.i = *(const int64_t *)src;
        break;
    case MT_FLOAT32:
        s.kind = MT_FLOAT64;
        s.v.d = *(const float *)src;
        break;
    case MT_FLOAT16:
    case MT_BFLOAT16:
        s.kind = MT_FLOAT64;
        s.v.d = mt_reduced_to_float(d, *(const uint16_t *)src);
        break;
    default:
        s.kind = MT_FLOAT64;
        s.v.d = *(const double *)src;
        break;
    }
    return s;
}

PyObject *
mt_scalar_to_object(mt_scalar s)
{
    switch (s.kind) {
    case MT_BOOL:
        return PyBool_FromLong((long)s.v.i);
    case MT_INT64:
        return s.is_uint64 ? PyLong_FromUnsignedLongLong((uint64_t)s.v.i) : PyLong_FromLongLong(s.v.i);
    default:
        return PyFloat_FromDouble(s.v.d);
    }
}

int
mt_raise_long_overflow(void)
{
    PyErr_SetString(PyExc_ValueError, MT_LONG_OVERFLOW);
    return -1;
}

int
mt_unpack_long(PyObject *obj, int64_t *out)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);

    if (overflow) {
        return mt_raise_long_overflow();
    }
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}
