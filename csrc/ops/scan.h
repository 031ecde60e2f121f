/* scan.h: cumsum, cumprod, prod, cummax/cummin and logcumsumexp (the running and whole products and sums,
 * the running extremes and log-sum-exps along a dim) as C entry points, with torch's dtype rules, checks and messages. Their Python forms are rows of
 * csrc/python/ops.def (csrc/python/scan.c reads the arguments). */
#ifndef MT_SCAN_H
#define MT_SCAN_H

#include <Python.h>

#include "../core/tensor.h"
#include "../kernels/kernel_types.h"

/* The op table's codes for the family's rows. */
enum {
    MT_SCAN_CUMSUM,
    MT_SCAN_CUMPROD,
    MT_SCAN_PRODUCT,
    MT_SCAN_CUMMAX,
    MT_SCAN_CUMMIN,
    MT_SCAN_LOGCUMSUMEXP
};

/* cumsum (op MT_SCAN_SUM) / cumprod (MT_SCAN_PROD) of t along dim; dtype (MT_NUM_DTYPES: none) is the
 * result's (integers and bool give int64 otherwise). Records CumsumBackward0 / CumprodBackward0. */
PyObject *mt_cumulative(mt_scan_op op, mt_TensorObject *t, int64_t dim, mt_dtype dtype);

/* prod of every element (has_dim 0: ProdBackward0) or along dim (ProdBackward1), with dtype as cumsum. */
PyObject *mt_prod(mt_TensorObject *t, int has_dim, int64_t dim, int keepdim, mt_dtype dtype);

/* cummax (is_max 1) / cummin of t along dim: (values, indices) (return_types.cummax/cummin by the op table), with
 * torch's rules (a NaN takes over and stays; ties move the index on). Records CummaxBackward0 /
 * CumminBackward0. */
PyObject *mt_cummax(int is_max, mt_TensorObject *t, int64_t dim);

/* logcumsumexp of a floating t along dim (LogcumsumexpBackward0), accumulated in double as torch's CPU. */
PyObject *mt_logcumsumexp(mt_TensorObject *t, int64_t dim);

/* For formulas: the running sum or product of t along dim (wrapped), from the end when reverse, leaving
 * each element out when exclusive; t's dtype, contiguous, and no node recorded. */
mt_TensorObject *mt_scan_along(mt_TensorObject *t, int dim, mt_scan_op op, int reverse, int exclusive);

#endif
