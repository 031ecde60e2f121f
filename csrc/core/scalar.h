/* scalar.h: a Python number held in C (bool, int or float), as torch's "wrapped number". Used for
 * scalar operands of ops, fill values and item(). */
#ifndef MT_SCALAR_H
#define MT_SCALAR_H

#include <Python.h>
#include <stdint.h>

#include "dtype.h"

typedef struct {
    mt_dtype kind;          /* MT_BOOL, MT_INT64 or MT_FLOAT64: the Python type it came from */
    union {
        int64_t i;          /* MT_BOOL (0/1) and MT_INT64 */
        double d;           /* MT_FLOAT64 */
    } v;
    /* 1 for a Python int in [2**63, 2**64) (kind MT_INT64): v.i holds its bits, so integer arithmetic
     * wraps as torch's uint64 Scalar does, while the conversions below read its true value. Set by
     * mt_scalar_from_object and mt_scalar_load; an mt_scalar built by hand must zero it (an
     * initializer such as {MT_INT64, {1}} does). mt_scalar_store reads it for the floating dtypes
     * (an integer dtype keeps the low bits either way). */
    int is_uint64;
} mt_scalar;

/* 1 and *out set if obj is a Python bool/int/float (or a NumPy scalar of those kinds, via the number
 * protocol), 0 if it is not a number (no exception), -1 with an exception. Like torch's Scalar, an int
 * in [2**63, 2**64) is kept as a uint64 (is_uint64); past that OverflowError "int too big to convert",
 * below -2**63 OverflowError "can't convert negative int to unsigned". Tensors are not scalars here. */
int mt_scalar_from_object(PyObject *obj, mt_scalar *out);

static inline double
mt_scalar_to_double(mt_scalar s)
{
    if (s.kind == MT_FLOAT64) {
        return s.v.d;
    }
    return s.kind == MT_INT64 && s.is_uint64 ? (double)(uint64_t)s.v.i : (double)s.v.i;
}

static inline int64_t
mt_scalar_to_int64(mt_scalar s)
{
    return s.kind == MT_FLOAT64 ? (int64_t)s.v.d : s.v.i;
}

/* torch's checked conversion of a Scalar to a tensor's dtype (c10::checked_convert, as fill_ and full
 * use it): -1 with RuntimeError "value cannot be converted to type int64_t without overflow" when s
 * does not fit `d` (NaN or out of range for an integer dtype, a finite value past float's range for
 * float32, an int past 65504 for float16; bool never fails); 0 otherwise, with *out set to s in a form mt_scalar_store converts
 * exactly (a uint64 int becomes its double for a floating `d`). */
int mt_scalar_checked(mt_scalar s, mt_dtype d, mt_scalar *out);

/* The name torch's checked conversion gives dtype `d` in its message: "int64_t", "float", ... */
const char *mt_scalar_checked_type_name(mt_dtype d);

/* torch's RuntimeError "value cannot be converted to type <type_name> without overflow" (c10's checked
 * conversion; a complex number with an imaginary part for a real dtype gets it too). Returns -1. */
int mt_value_overflow_error(const char *type_name);

/* torch's THPUtils_unpackLong: obj (an int, or anything with __index__) as an int64. 0, or -1 with the
 * exception: for an int outside int64, torch's ValueError (MT_LONG_OVERFLOW), not CPython's
 * OverflowError. */
#define MT_LONG_OVERFLOW "Overflow when unpacking long long"
int mt_unpack_long(PyObject *obj, int64_t *out);

/* Raises torch's ValueError MT_LONG_OVERFLOW (for a caller that read the int itself). Returns -1. */
int mt_raise_long_overflow(void);

/* Writes the scalar converted to dtype `d` into `dst` (C conversion rules, like torch's casts). */
void mt_scalar_store(mt_scalar s, mt_dtype d, void *dst);

/* Reads one element of dtype `d` as a scalar of the matching kind. */
mt_scalar mt_scalar_load(mt_dtype d, const void *src);

/* New Python object (bool/int/float) for the scalar. */
PyObject *mt_scalar_to_object(mt_scalar s);

#endif
