/* scan.c (autograd): the derivatives of cumsum, cumprod, prod, cummax/cummin and logcumsumexp
 * (CumsumBackward0, CumprodBackward0, ProdBackward0, ProdBackward1, CummaxBackward0, CumminBackward0,
 * LogcumsumexpBackward0), as torch's FunctionsManual.cpp writes them, and what those ops record (the
 * input, the result, cummax's indices, the dim, keepdim). The reversed and exclusive running sums and products the
 * formulas need come from the scan kernels directly (ops/scan.h's mt_scan_along: the bits of torch's
 * flip/cumsum/flip); under create_graph=True, on a tensor with history, from the public ops instead, so that
 * the gradient keeps its history for the next order (scan_for_grad). */
#include "record.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "../ops/compose.h"
#include "../ops/convert.h"
#include "../ops/copy.h"
#include "../ops/gather.h"
#include "../ops/rearrange.h"
#include "../ops/scan.h"
#include "../ops/shape.h"
#include "formula.h"
#include "ops_for_grad.h"

/* mt_scan_along of x for a formula. Under create_graph (grad mode on in a backward) with x carrying history,
 * torch's own composition, each step recorded: flip, then the exclusive form's shift (the op's identity
 * first, the last element dropped), cumsum / cumprod / logcumsumexp, flip back. */
static T *
scan_for_grad(mt_temps *s, T *x, int dim, mt_scan_op op, int reverse, int exclusive)
{
    int64_t d = dim, one = 1;
    T *y = x;

    if (x == NULL || !mt_grad_enabled() || !(x->requires_grad || x->grad_fn != NULL)) {
        return mt_keep(s, x != NULL ? mt_scan_along(x, dim, op, reverse, exclusive) : NULL);
    }
    if (x->ndim == 0) {
        T *line = mt_keep(s, mt_g_reshape(x, 1, &one));
        return mt_keep(s, mt_g_reshape(scan_for_grad(s, line, 0, op, reverse, exclusive), 0, NULL));
    }
    if (reverse) {
        y = mt_keep(s, (T *)mt_flip(y, 1, &d));
    }
    if (exclusive && y != NULL && y->sizes[dim] > 0) {
        int64_t sizes[MT_MAX_DIMS];
        mt_scalar identity;
        memcpy(sizes, y->sizes, (size_t)y->ndim * sizeof(int64_t));
        sizes[dim] = 1;
        memset(&identity, 0, sizeof identity);
        identity.kind = MT_FLOAT64;
        identity.v.d = op == MT_SCAN_PROD ? 1.0 : op == MT_SCAN_LOGADDEXP ? -INFINITY : 0.0;
        T *parts[2] = {mt_keep(s, mt_g_zeros(y->ndim, sizes, y->dtype, mt_tensor_device(y))),
                       mt_keep(s, mt_narrow(y, dim, 0, y->sizes[dim] - 1))};
        y = parts[0] != NULL && parts[1] != NULL && mt_fill_(parts[0], identity) == 0
                ? mt_keep(s, mt_cat(2, parts, dim))
                : NULL;
    }
    if (y != NULL) {
        y = mt_keep(s, (T *)(op == MT_SCAN_LOGADDEXP ? mt_logcumsumexp(y, dim)
                                                      : mt_cumulative(op, y, dim, MT_NUM_DTYPES)));
    }
    if (reverse && y != NULL) {
        y = mt_keep(s, (T *)mt_flip(y, 1, &d));
    }
    return y;
}

/* How many elements of t are 0 (at most 2: "several"), or -1 with an exception */
static int
has_zero(mt_TensorObject *t)
{
    mt_TensorObject *eq = mt_c_binary_number(MT_BINARY_EQ, t, 0.0);
    mt_TensorObject *any = eq != NULL ? (mt_TensorObject *)mt_reduce(MT_REDUCTION_SUM, eq, NULL, 0, 0, MT_NUM_DTYPES)
                                      : NULL;
    PyObject *item = any != NULL ? mt_tensor_item(any) : NULL;
    long long count = item != NULL ? PyLong_AsLongLong(item) : -1;
    int r = count < 0 ? -1 : count > 2 ? 2 : (int)count;

    Py_XDECREF(item);
    Py_XDECREF(any);
    Py_XDECREF(eq);
    return r;
}

/* torch's prod_safe_zeros_backward along dim: grad * (the product of the elements before each one times
 * the product of those after it) */
static T *
prod_safe_zeros(mt_temps *s, T *grad, T *input, int dim)
{
    T *before = scan_for_grad(s, input, dim, MT_SCAN_PROD, 0, 1);
    T *after = scan_for_grad(s, input, dim, MT_SCAN_PROD, 1, 1);

    return mt_keep(s, mt_c_binary(MT_BINARY_MUL, grad, mt_keep(s, mt_c_binary(MT_BINARY_MUL, before, after))));
}

/* torch's cumprod_backward (its O(n) form for inputs with zeros: before each line's first zero the
 * plain formula, at it the sum over the rest of the line with that zero taken as 1, after it 0) */
static T *
cumprod_backward_of(mt_temps *s, T *grad, T *input, T *output, int dim)
{
    T *w = mt_keep(s, mt_c_binary(MT_BINARY_MUL, output, grad));
    T *is_zero, *count, *before, *first, *part1, *x1, *cp, *tail, *sum, *part2;
    int z;

    if (w == NULL) {
        return NULL;
    }
    z = has_zero(input);
    if (z < 0) {
        return NULL;
    }
    if (!z) {
        return mt_keep(s, mt_c_binary(MT_BINARY_DIV, scan_for_grad(s, w, dim, MT_SCAN_SUM, 1, 0), input));
    }
    is_zero = mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, input, 0.0));
    count = scan_for_grad(s, mt_keep(s, is_zero != NULL ? mt_copy_to(is_zero, MT_INT64, mt_tensor_device(is_zero)) : NULL),
                          dim, MT_SCAN_SUM, 0, 0);
    before = mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, count, 0.0));
    first = mt_keep(s, mt_c_binary(MT_BINARY_MUL, is_zero, mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, count, 1.0))));
    part1 = mt_keep(s, mt_c_where_else_number(
                           before,
                           mt_keep(s, mt_c_binary(MT_BINARY_DIV,
                                                  scan_for_grad(s, mt_keep(s, mt_c_where_else_number(before, w, 0.0)),
                                                                dim, MT_SCAN_SUM, 1, 0),
                                                  /* (1 where masked, as torch: no 0 / 0 for a second order) */
                                                  mt_keep(s, mt_c_where_else_number(before, input, 1.0)))),
                           0.0));
    x1 = mt_keep(s, mt_c_where_number(first, 1.0, input));
    cp = scan_for_grad(s, x1, dim, MT_SCAN_PROD, 0, 0);
    tail = mt_keep(s, mt_c_where_else_number(mt_keep(s, mt_c_binary_number(MT_BINARY_GE, count, 1.0)),
                                             mt_keep(s, mt_c_binary(MT_BINARY_MUL, grad, cp)), 0.0));
    sum = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, tail, input->ndim > 0 ? (uint64_t)1 << dim : 0, 1));
    part2 = mt_keep(s, mt_c_where_else_number(first, mt_keep(s, sum != NULL ? mt_g_expand(sum, input->ndim, input->sizes)
                                                                          : NULL),
                                              0.0));
    return mt_keep(s, mt_c_binary(MT_BINARY_ADD, part1, part2));
}

/* torch's cummaxmin_backward: zeros of the input's shape with grad added in at the indices along dim */
static T *
cummaxmin_backward_of(mt_temps *s, T *grad, T *indices, const mt_input_meta *m, int dim)
{
    T *z = mt_keep(s, mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)));
    mt_scalar zero;

    memset(&zero, 0, sizeof zero);
    zero.kind = MT_INT64;
    return mt_keep(s, z != NULL ? (T *)mt_scatter(z, dim, indices, grad, zero, MT_INDEX_DIM_ADD, 0, 1, 1) : NULL);
}

/* flip(logcumsumexp(flip(x, dim), dim), dim), with logcumsumexp's float32 lines for float16/bfloat16 */
static T *
reverse_logcumsumexp(mt_temps *s, T *x, int dim)
{
    T *w = x != NULL && mt_dtype_is_reduced_floating(x->dtype)
               ? mt_keep(s, mt_g_to(x, MT_FLOAT32, mt_tensor_device(x)))
               : x;
    T *r = scan_for_grad(s, w, dim, MT_SCAN_LOGADDEXP, 1, 0);

    return r != NULL && r->dtype != x->dtype ? mt_keep(s, mt_g_to(r, x->dtype, mt_tensor_device(r))) : r;
}

/* torch's logcumsumexp_backward for real dtypes: the positive and the negative parts of grad in log space */
static T *
logcumsumexp_backward_of(mt_temps *s, T *grad, T *self, T *result, int dim)
{
    double lowest = grad->dtype == MT_FLOAT64 ? -DBL_MAX : grad->dtype == MT_FLOAT16 ? -65504.0
                    : grad->dtype == MT_BFLOAT16 ? -3.38953138925153547590470800371487866880e+38 : -FLT_MAX;
    T *log_abs = mt_keep(s, mt_c_unary(MT_UNARY_LOG, mt_keep(s, mt_c_unary(MT_UNARY_ABS, grad))));
    T *pos = mt_keep(s, mt_c_where_else_number(mt_keep(s, mt_c_binary_number(MT_BINARY_GT, grad, 0.0)), log_abs,
                                               lowest));
    T *neg = mt_keep(s, mt_c_where_else_number(mt_keep(s, mt_c_binary_number(MT_BINARY_LT, grad, 0.0)), log_abs,
                                               lowest));
    T *rev_pos = reverse_logcumsumexp(s, mt_keep(s, mt_c_binary(MT_BINARY_SUB, pos, result)), dim);
    T *rev_neg = reverse_logcumsumexp(s, mt_keep(s, mt_c_binary(MT_BINARY_SUB, neg, result)), dim);
    T *out_pos = mt_keep(s, mt_c_unary(MT_UNARY_EXP, mt_keep(s, mt_c_binary(MT_BINARY_ADD, rev_pos, self))));
    T *out_neg = mt_keep(s, mt_c_unary(MT_UNARY_EXP, mt_keep(s, mt_c_binary(MT_BINARY_ADD, rev_neg, self))));

    return mt_keep(s, mt_c_binary(MT_BINARY_SUB, out_pos, out_neg));
}

static int
scan_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_ag_scan_kind kind = (mt_ag_scan_kind)node->ints[1];
    int dim = (int)node->ints[0];
    mt_temps s = {{0}, 0};
    T *grad = (T *)grads[0], *self, *result = NULL, *input, *r = NULL;
    const mt_input_meta *m = &node->meta[0];
    int64_t numel = 1, size = 1;

    self = mt_keep(&s, mt_ag_unpack(node, 0));
    if (self != NULL && node->saved[1].saved) {
        result = mt_keep(&s, mt_ag_unpack(node, 1));
        if (result == NULL) {
            self = NULL;
        }
    }
    if (self == NULL) {
        mt_temps_drop(&s);
        return -1;
    }
    for (int d = 0; d < m->ndim; d++) {
        numel *= m->sizes[d];
    }
    size = m->ndim > 0 ? m->sizes[dim] : 1;
    /* the formulas compute in the result's dtype (a dtype= result); the gradient goes back in self's */
    input = mt_keep(&s, mt_g_to(self, grad->dtype, mt_tensor_device(grad)));
    switch (kind) {
    case MT_AG_CUMSUM:
        r = numel <= 1 || size == 1 ? grad : scan_for_grad(&s, grad, dim, MT_SCAN_SUM, 1, 0);
        break;
    case MT_AG_CUMPROD:
        r = numel <= 1 || size == 1 ? grad : cumprod_backward_of(&s, grad, input, result, dim);
        break;
    case MT_AG_CUMMAX:
    case MT_AG_CUMMIN: {
        T *indices = mt_keep(&s, mt_ag_unpack(node, 2));
        r = numel == 0 || m->ndim == 0 || indices == NULL ? (indices != NULL ? grad : NULL)
                                                         : cummaxmin_backward_of(&s, grad, indices, m, dim);
        break;
    }
    case MT_AG_LOGCUMSUMEXP:
        r = numel == 0 || m->ndim == 0 ? grad : logcumsumexp_backward_of(&s, grad, input, result, dim);
        break;
    case MT_AG_PROD:
    case MT_AG_PROD_DIM: {
        int z;
        if (m->ndim == 0) {
            r = grad;
            break;
        }
        if (kind == MT_AG_PROD_DIM && !node->flag) {
            grad = mt_keep(&s, mt_unsqueeze(grad, dim));
            result = mt_keep(&s, result != NULL ? mt_unsqueeze(result, dim) : NULL);
        }
        z = input != NULL ? has_zero(input) : -1;
        if (z < 0) {
            break;
        }
        if (!z) {
            r = mt_keep(&s, mt_c_binary(MT_BINARY_MUL, grad, mt_keep(&s, mt_c_binary(MT_BINARY_DIV, result, input))));
        }
        else if (kind == MT_AG_PROD && z > 1 && !mt_grad_enabled()) {
            /* two zeros or more: every gradient is 0 (torch skips the products, so no -0.0) */
            r = mt_keep(&s, mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)));
        }
        else if (kind == MT_AG_PROD) {
            int64_t flat = numel;
            T *g = prod_safe_zeros(&s, grad, mt_keep(&s, mt_view(input, 1, &flat)), 0);
            r = mt_keep(&s, g != NULL ? mt_view(g, m->ndim, m->sizes) : NULL);
        }
        else {
            r = prod_safe_zeros(&s, grad, input, dim);
        }
        break;
    }
    }
    r = r != NULL ? mt_g_to(r, m->dtype, m->device) : NULL;
    mt_temps_drop(&s);
    out[0] = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_derivative rows[] = {
    {"CumsumBackward0", scan_backward, NULL},
    {"CumprodBackward0", scan_backward, NULL},
    {"ProdBackward0", scan_backward, NULL},
    {"ProdBackward1", scan_backward, NULL},
    {"CummaxBackward0", scan_backward, NULL},
    {"CumminBackward0", scan_backward, NULL},
    {"LogcumsumexpBackward0", scan_backward, NULL},
};

int
mt_ag_scan(mt_ag_scan_kind kind, mt_TensorObject *t, int dim, int keepdim, mt_TensorObject *result,
           mt_TensorObject *indices)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &t)) {
        return 0;
    }
    node = mt_ag_node(&rows[kind], 1, &t, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = dim;
    node->ints[1] = kind;
    node->flag = keepdim;
    rc = mt_ag_save(node, 0, t, 0);
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    if (rc == 0 && kind != MT_AG_CUMSUM && kind != MT_AG_CUMMAX && kind != MT_AG_CUMMIN) {
        rc = mt_ag_save(node, 1, result, 1);
    }
    if (rc == 0 && indices != NULL) {
        rc = mt_ag_save(node, 2, indices, 0);
    }
    Py_DECREF(node);
    return rc;
}
