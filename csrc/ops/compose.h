/* compose.h: short calls on tensors for the ops that are compositions of other ops (softmax.c,
 * reduce_stats.c): each is the public op itself, so a composite runs on every device with the same
 * kernels. A NULL argument gives NULL (its error is already set), so a chain of steps needs one check at
 * its end; each returns a new reference or NULL with an exception. A composite runs them below autograd
 * and records one node for itself. */
#ifndef MT_OPS_COMPOSE_H
#define MT_OPS_COMPOSE_H

#include <Python.h>
#include <string.h>

#include "../core/tensor.h"
#include "elementwise.h"
#include "reduce.h"

static inline mt_TensorObject *
mt_c_binary(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b)
{
    mt_cx_operand x, y;

    if (a == NULL || b == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.tensor = a;
    y.op.tensor = b;
    return (mt_TensorObject *)mt_binary(mt_binary_op_name(op), op, &x, &y, NULL, NULL);
}

/* a OP the number s */
static inline mt_TensorObject *
mt_c_binary_scalar(mt_binary_op op, mt_TensorObject *a, mt_scalar s)
{
    mt_cx_operand x, y;

    if (a == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.tensor = a;
    y.op.scalar = s;
    return (mt_TensorObject *)mt_binary(mt_binary_op_name(op), op, &x, &y, NULL, NULL);
}

/* a OP number (a float number: an integer tensor gives the default float dtype where torch's would) */
static inline mt_TensorObject *
mt_c_binary_number(mt_binary_op op, mt_TensorObject *a, double v)
{
    mt_scalar s;

    memset(&s, 0, sizeof s);
    s.kind = MT_FLOAT64;
    s.v.d = v;
    return mt_c_binary_scalar(op, a, s);
}

static inline mt_TensorObject *
mt_c_unary(mt_unary_op op, mt_TensorObject *a)
{
    return a != NULL ? (mt_TensorObject *)mt_unary(op, a, 0) : NULL;
}

/* std::sqrt of each element, correctly rounded (mt_std_sqrt) */
static inline mt_TensorObject *
mt_c_std_sqrt(mt_TensorObject *a)
{
    return a != NULL ? (mt_TensorObject *)mt_std_sqrt(a) : NULL;
}

/* where(cond, v, a) with a number v */
static inline mt_TensorObject *
mt_c_where_number(mt_TensorObject *cond, double v, mt_TensorObject *a)
{
    mt_operand x, y;

    if (cond == NULL || a == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.scalar.kind = MT_FLOAT64;
    x.scalar.v.d = v;
    y.tensor = a;
    return (mt_TensorObject *)mt_where_cast(cond, &x, &y);
}

/* where(cond, a, v) with a number v */
static inline mt_TensorObject *
mt_c_where_else_number(mt_TensorObject *cond, mt_TensorObject *a, double v)
{
    mt_operand x, y;

    if (cond == NULL || a == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.tensor = a;
    y.scalar.kind = MT_FLOAT64;
    y.scalar.v.d = v;
    return (mt_TensorObject *)mt_where_cast(cond, &x, &y);
}

/* where(cond, a, b) with numbers a and b (the default float dtype) */
static inline mt_TensorObject *
mt_c_where_numbers(mt_TensorObject *cond, double a, double b)
{
    mt_operand x, y;

    if (cond == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.scalar.kind = MT_FLOAT64;
    x.scalar.v.d = a;
    y.scalar.kind = MT_FLOAT64;
    y.scalar.v.d = b;
    return (mt_TensorObject *)mt_where_cast(cond, &x, &y);
}

/* a reduction over the dims in mask (the dims, as mt_reduce takes them) */
static inline mt_TensorObject *
mt_c_reduce(mt_reduction kind, mt_TensorObject *a, uint64_t mask, int keepdim)
{
    int64_t dims[64];
    int n = 0;

    if (a == NULL) {
        return NULL;
    }
    for (int d = 0; d < a->ndim; d++) {
        if (mask >> d & 1) {
            dims[n++] = d;
        }
    }
    /* no dims (a 0-d tensor): the whole tensor */
    return (mt_TensorObject *)mt_reduce(kind, a, n > 0 ? dims : NULL, n, keepdim, MT_NUM_DTYPES);
}

#endif
