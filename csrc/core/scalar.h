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
} mt_scalar;

/* 1 and *out set if obj is a Python bool/int/float (or a NumPy scalar of those kinds, via the number
 * protocol), 0 if it is not a number (no exception), -1 with an exception (e.g. int overflow:
 * "Overflow when unpacking long"). Tensors are not scalars here. */
int mt_scalar_from_object(PyObject *obj, mt_scalar *out);

static inline double
mt_scalar_to_double(mt_scalar s)
{
    return s.kind == MT_FLOAT64 ? s.v.d : (double)s.v.i;
}

static inline int64_t
mt_scalar_to_int64(mt_scalar s)
{
    return s.kind == MT_FLOAT64 ? (int64_t)s.v.d : s.v.i;
}

/* Writes the scalar converted to dtype `d` into `dst` (C conversion rules, like torch's casts). */
void mt_scalar_store(mt_scalar s, mt_dtype d, void *dst);

/* Reads one element of dtype `d` as a scalar of the matching kind. */
mt_scalar mt_scalar_load(mt_dtype d, const void *src);

/* New Python object (bool/int/float) for the scalar. */
PyObject *mt_scalar_to_object(mt_scalar s);

#endif
