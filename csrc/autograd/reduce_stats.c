/* reduce_stats.c (autograd): the derivatives of logsumexp, amax/amin, aminmax, nansum, var/std,
 * var_mean/std_mean and linalg.vector_norm, as torch's FunctionsManual.cpp writes them (logsumexp_backward,
 * scale_grad_by_count, nansum_backward, var_backward, std_backward, var_mean_backward, std_mean_backward,
 * norm_backward), and what those ops record: the input and the result(s), the dims (a mask), keepdim, and
 * the correction or ord. */
#include "record.h"

#include <math.h>

#include "../ops/compose.h"
#include "formula.h"
#include "ops_for_grad.h"

#define NEEDS(node, i) ((node)->next[i].node != NULL)

/* grad (or the result) with the reduced dims put back, unless keepdim (torch's restore_reduced_dims /
 * unsqueeze_multiple) */
static T *
restore(mt_temps *s, const mt_node *node, T *g)
{
    if (g == NULL) {
        return NULL;
    }
    if (node->flag) {
        return g;
    }
    return mt_keep(s, mt_g_unsqueeze_dims(g, node->mask, node->meta[0].ndim));
}

static double
reduced_numel(const mt_node *node)
{
    const mt_input_meta *m = &node->meta[0];
    double n = 1.0;

    for (int d = 0; d < m->ndim; d++) {
        if (node->ints[0] || (node->mask >> d & 1)) {
            n *= (double)m->sizes[d];
        }
    }
    return n;
}

/* torch's scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result) == self, dims):
 * the gradient of amax/amin shared evenly among the elements equal to the extreme */
static T *
share_among_ties(mt_temps *s, const mt_node *node, T *grad, T *self, T *result)
{
    T *mask = mt_keep(s, mt_c_binary(MT_BINARY_EQ, restore(s, node, result), self));
    T *count = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, mask, node->mask, 1));

    return mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_binary(MT_BINARY_DIV, restore(s, node, grad), count)),
                                  mask));
}

/* torch's var_backward(grad, self, dim, correction, keepdim) */
static T *
var_backward_of(mt_temps *s, const mt_node *node, T *grad, T *self)
{
    double correction = mt_scalar_to_double(node->scalars[0]);
    T *mean;

    if (grad == NULL || self == NULL) {
        return NULL;
    }
    if (self->ndim == 0 || node->ints[0]) {
        double dof = reduced_numel(node) - correction;
        mean = mt_keep(s, mt_c_reduce(MT_REDUCTION_MEAN, self, node->mask, 0));
        if (dof <= 0) {
            return mt_keep(s, mt_c_binary(MT_BINARY_MUL, grad,
                                       mt_keep(s, mt_c_where_numbers(mt_keep(s, mt_c_binary(MT_BINARY_EQ, self, mean)), NAN,
                                                             INFINITY))));
        }
        return mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_binary_number(MT_BINARY_MUL, grad, 2.0 / dof)),
                                   mt_keep(s, mt_c_binary(MT_BINARY_SUB, self, mean))));
    }
    if (!node->flag && self->ndim > 1) {
        grad = mt_keep(s, mt_g_unsqueeze_dims(grad, node->mask, self->ndim));
    }
    mean = mt_keep(s, mt_c_reduce(MT_REDUCTION_MEAN, self, node->mask, 1));
    return mt_keep(s, mt_c_binary(MT_BINARY_MUL,
                               mt_keep(s, mt_c_binary_number(MT_BINARY_MUL, grad, 2.0 / (reduced_numel(node) - correction))),
                               mt_keep(s, mt_c_binary(MT_BINARY_SUB, self, mean))));
}

/* torch's std_backward: var_backward of (grad / (result * 2)) with 0 where result is 0 */
static T *
std_backward_of(mt_temps *s, const mt_node *node, T *grad, T *self, T *result)
{
    T *g = mt_keep(s, mt_c_binary(MT_BINARY_DIV, grad, mt_keep(s, mt_c_binary_number(MT_BINARY_MUL, result, 2.0))));

    g = mt_keep(s, mt_c_where_number(mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, result, 0.0)), 0.0, g));
    return var_backward_of(s, node, g, self);
}

/* torch's mean_backward: grad put back and expanded, over the reduced count */
static T *
mean_backward_of(mt_temps *s, const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    T *g = node->ints[0] ? grad : restore(s, node, grad);

    g = mt_keep(s, g != NULL ? mt_g_expand(g, m->ndim, m->sizes) : NULL);
    return mt_keep(s, mt_c_binary_number(MT_BINARY_DIV, g, reduced_numel(node)));
}

/* torch's norm_backward for linalg.vector_norm */
static T *
norm_backward_of(mt_temps *s, const mt_node *node, T *grad, T *self, T *norm)
{
    double p = mt_scalar_to_double(node->scalars[0]);
    T *scaled, *scale;

    if (self->ndim != 0) {
        grad = restore(s, node, grad);
        norm = restore(s, node, norm);
    }
    if (p == 0.0) {
        return NULL;
    }
    if (p == 1.0) {
        return mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_unary(MT_UNARY_SIGN, self)), grad));
    }
    if (p == 2.0) {
        T *q = mt_keep(s, mt_c_binary(MT_BINARY_DIV, self, norm));
        q = mt_keep(s, mt_c_where_number(mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, norm, 0.0)), 0.0, q));
        return mt_keep(s, mt_c_binary(MT_BINARY_MUL, grad, q));
    }
    if (isinf(p)) {
        T *a = mt_keep(s, mt_c_unary(MT_UNARY_ABS, self));
        T *mask = mt_keep(s, mt_c_binary(MT_BINARY_MAXIMUM, mt_keep(s, mt_c_binary(MT_BINARY_EQ, a, norm)),
                                      mt_keep(s, mt_c_binary(MT_BINARY_NE, a, a))));
        T *count = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, mask, node->ints[0] ? node->mask : node->mask, 1));
        T *share = mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_binary(MT_BINARY_DIV, grad, count)), mask));
        return mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_unary(MT_UNARY_SIGN, self)), share));
    }
    if (p < 1.0) {
        T *pw = mt_keep(s, mt_c_binary_number(MT_BINARY_POW, mt_keep(s, mt_c_unary(MT_UNARY_ABS, self)), p - 1.0));
        pw = mt_keep(s, mt_c_where_number(mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, self, 0.0)), 0.0, pw));
        scaled = mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_unary(MT_UNARY_SIGN, self)), pw));
        return mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_binary(MT_BINARY_MUL, scaled, grad)),
                                   mt_keep(s, mt_c_binary_number(MT_BINARY_POW, norm, 1.0 - p))));
    }
    if (p < 2.0) {
        scaled = mt_keep(s, mt_c_binary(MT_BINARY_MUL, mt_keep(s, mt_c_unary(MT_UNARY_SIGN, self)),
                                     mt_keep(s, mt_c_binary_number(MT_BINARY_POW, mt_keep(s, mt_c_unary(MT_UNARY_ABS, self)),
                                                                p - 1.0))));
    }
    else {
        scaled = mt_keep(s, mt_c_binary(MT_BINARY_MUL, self,
                                     mt_keep(s, mt_c_binary_number(MT_BINARY_POW, mt_keep(s, mt_c_unary(MT_UNARY_ABS, self)),
                                                                p - 2.0))));
    }
    scale = mt_keep(s, mt_c_binary(MT_BINARY_DIV, grad, mt_keep(s, mt_c_binary_number(MT_BINARY_POW, norm, p - 1.0))));
    scale = mt_keep(s, mt_c_where_number(mt_keep(s, mt_c_binary_number(MT_BINARY_EQ, norm, 0.0)), 0.0, scale));
    return mt_keep(s, mt_c_binary(MT_BINARY_MUL, scaled, scale));
}

static int
stats_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_ag_reduce_stat kind = (mt_ag_reduce_stat)node->ints[1];
    mt_temps s = {{0}, 0};
    T *grad = (T *)grads[0], *self, *result = NULL, *r = NULL;
    int failed;

    self = mt_keep(&s, mt_ag_unpack(node, 0));
    failed = self == NULL;
    if (!failed && node->saved[1].saved) {
        result = mt_keep(&s, mt_ag_unpack(node, 1));
        failed = result == NULL;
    }
    if (failed) {
        mt_temps_drop(&s);
        return -1;
    }
    switch (kind) {
    case MT_AG_LOGSUMEXP:
        r = mt_c_binary(MT_BINARY_MUL, restore(&s, node, grad),
                        mt_keep(&s, mt_c_unary(MT_UNARY_EXP,
                                            mt_keep(&s, mt_c_binary(MT_BINARY_SUB, self, restore(&s, node, result))))));
        break;
    case MT_AG_AMAX:
    case MT_AG_AMIN:
        r = share_among_ties(&s, node, grad, self, result);
        Py_XINCREF(r);
        break;
    case MT_AG_NANSUM:
        /* nansum_backward(grad.to(self's dtype)): the gradient put back and expanded, 0 at the NaNs */
        grad = mt_keep(&s, mt_g_to(grad, self->dtype, mt_tensor_device(self)));
        r = mt_c_binary(MT_BINARY_MUL, restore(&s, node, grad), mt_keep(&s, mt_c_binary(MT_BINARY_EQ, self, self)));
        break;
    case MT_AG_AMINMAX: {
        /* each defined output's share, summed (min's first) */
        T *a = NULL, *b = NULL, *max = mt_keep(&s, mt_ag_unpack(node, 2));
        if (max == NULL) {
            break;
        }
        if (grads[0] != NULL && (a = share_among_ties(&s, node, (T *)grads[0], self, result)) == NULL) {
            break;
        }
        if (grads[1] != NULL && (b = share_among_ties(&s, node, (T *)grads[1], self, max)) == NULL) {
            break;
        }
        r = a != NULL && b != NULL ? mt_c_binary(MT_BINARY_ADD, a, b) : a != NULL ? a : b;
        if (r == a || r == b) {
            Py_XINCREF(r);
        }
        break;
    }
    case MT_AG_VAR:
        r = var_backward_of(&s, node, grad, self);
        Py_XINCREF(r);
        break;
    case MT_AG_STD:
        r = std_backward_of(&s, node, grad, self, result);
        Py_XINCREF(r);
        break;
    case MT_AG_VAR_MEAN:
    case MT_AG_STD_MEAN: {
        T *a = NULL, *b = NULL;
        if (grads[0] != NULL) {
            a = kind == MT_AG_VAR_MEAN ? var_backward_of(&s, node, grad, self)
                                       : std_backward_of(&s, node, grad, self, result);
            if (a == NULL) {
                break;
            }
        }
        if (grads[1] != NULL) {
            b = mean_backward_of(&s, node, (T *)grads[1]);
            if (b == NULL) {
                break;
            }
        }
        r = a != NULL && b != NULL ? mt_c_binary(MT_BINARY_ADD, a, b) : a != NULL ? a : b;
        if (r == a || r == b) {
            Py_XINCREF(r);
        }
        if (r == NULL && (a != NULL || b != NULL)) {
            break;
        }
        mt_temps_drop(&s);
        out[0] = (PyObject *)r;
        return 0;
    }
    case MT_AG_VECTOR_NORM:
        r = norm_backward_of(&s, node, grad, self, result);
        if (r == NULL && !PyErr_Occurred()) {
            /* ord 0: no gradient, as in torch */
            mt_temps_drop(&s);
            return 0;
        }
        /* a dtype= result: the gradient in the input's dtype */
        r = r != NULL ? mt_g_to(r, self->dtype, mt_tensor_device(self)) : NULL;
        break;
    }
    mt_temps_drop(&s);
    out[0] = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_derivative rows[] = {
    {"LogsumexpBackward0", stats_backward, NULL}, {"AmaxBackward0", stats_backward, NULL},
    {"AminBackward0", stats_backward, NULL},      {"VarBackward0", stats_backward, NULL},
    {"StdBackward0", stats_backward, NULL},       {"VarMeanBackward0", stats_backward, NULL},
    {"StdMeanBackward0", stats_backward, NULL},   {"LinalgVectorNormBackward0", stats_backward, NULL},
    {"NansumBackward0", stats_backward, NULL},    {"AminmaxBackward0", stats_backward, NULL},
};

int
mt_ag_reduce_stats(mt_ag_reduce_stat kind, mt_TensorObject *t, uint64_t mask, int keepdim, int all, double number,
                   mt_TensorObject *result, mt_TensorObject *result2)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &t)) {
        return 0;
    }
    node = mt_ag_node(&rows[kind], 1, &t, result2 != NULL ? 2 : 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = all;
    node->ints[1] = kind;
    node->mask = mask;
    node->flag = keepdim;
    node->scalars[0].kind = MT_FLOAT64;
    node->scalars[0].v.d = number;
    rc = mt_ag_save(node, 0, t, 0);
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    if (rc == 0 && result2 != NULL) {
        rc = mt_ag_set_output(node, result2, 1);
    }
    if (rc == 0 && kind != MT_AG_VAR && kind != MT_AG_VAR_MEAN && kind != MT_AG_NANSUM) {
        rc = mt_ag_save(node, 1, result, 1);
    }
    if (rc == 0 && kind == MT_AG_AMINMAX) {
        rc = mt_ag_save(node, 2, result2, 1);
    }
    Py_DECREF(node);
    return rc;
}
