/* loss.c: nll_loss (loss.h), as torch's CPU kernels compute it (LossNLL.cpp for (N, C) and (C) inputs,
 * LossNLL2d.cpp for (N, C, H, W)). Every position is a row of a (rows, C) view of the input (a 4-d input's
 * channels moved last, so the rows run in torch's (n, h, w) order), and its loss is picked with gather:
 * -input[i, target[i]], times the class weight, 0 for a row whose target is ignore_index. The sums of the
 * kept rows' losses and of their weights come from the backend's nll_sum where the device has one (the
 * host's: the cascade of partial sums both torch kernels add with, bit for bit), as plain sums elsewhere;
 * a mean divides the one by the other. The steps are minitorch's own ops run below autograd, so every
 * device computes it; one node is recorded for the whole (autograd/loss.c). */
#include "loss.h"

#include <string.h>

#include "../autograd/formula.h"
#include "../autograd/ops_for_grad.h"
#include "../autograd/record.h"
#include "compose.h"
#include "copy.h"
#include "gather.h"
#include "matmul.h"
#include "reduce.h"
#include "shape.h"

/* The parts of a (rows, C) nll_loss that its backward needs too. */
typedef struct {
    mt_TensorObject *classes;   /* (rows,) int64: each row's target, 0 for an ignored one */
    mt_TensorObject *kept;      /* (rows,) bool: the rows not ignored; NULL when none is */
    mt_TensorObject *w;         /* (rows,) of input's dtype: each row's weight (0 when ignored); NULL: all 1 */
    mt_TensorObject *total;     /* 0-d: the sum of the kept rows' weights (mean), else NULL */
} nll_parts;

/* `n` as a 0-d tensor of dtype on device: torch's count of the kept rows, which its kernel holds in the
 * input's dtype (so a float16 count is rounded) */
static mt_TensorObject *
count_tensor(int64_t n, mt_dtype dtype, mt_device device)
{
    mt_TensorObject *zero = mt_g_zeros(0, NULL, dtype, device);
    mt_TensorObject *r = mt_c_binary_number(MT_BINARY_ADD, zero, (double)n);

    Py_XDECREF(zero);
    return r;
}

/* The sums of the kept rows' losses and of their weights: [0] and [1] of the backend's kernel, or sums.
 * 0 or -1. */
static int
nll_totals(mt_temps *s, mt_TensorObject *losses, const nll_parts *p, mt_TensorObject **loss_total,
           mt_TensorObject **weight_total)
{
    PyObject *both = mt_reduce_nll_sum(losses, p->w, p->kept);

    if (both == NULL) {
        return -1;
    }
    if (both != Py_None) {
        mt_TensorObject *pair = mt_keep(s, (mt_TensorObject *)both), *first, *second;

        first = mt_keep(s, mt_select(pair, 0, 0));
        second = first != NULL ? mt_keep(s, mt_select(pair, 0, 1)) : NULL;
        *loss_total = second != NULL ? mt_keep(s, mt_clone(first)) : NULL;
        *weight_total = *loss_total != NULL ? mt_keep(s, mt_clone(second)) : NULL;
        return *weight_total != NULL ? 0 : -1;
    }
    Py_DECREF(both);
    /* an ignored row's loss is 0 already; its weight too */
    *loss_total = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, losses, 1, 0));
    if (p->w != NULL) {
        *weight_total = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, p->w, 1, 0));
    }
    else if (p->kept != NULL) {
        mt_TensorObject *ones = mt_keep(s, mt_copy_to(p->kept, losses->dtype, mt_tensor_device(losses)));
        *weight_total = mt_keep(s, mt_c_reduce(MT_REDUCTION_SUM, ones, 1, 0));
    }
    else {
        *weight_total = mt_keep(s, count_tensor(mt_tensor_numel(losses), losses->dtype, mt_tensor_device(losses)));
    }
    return *loss_total != NULL && *weight_total != NULL ? 0 : -1;
}

/* The loss of rows (R, C) against targets (R,), below autograd: the per-row losses in out_shape without
 * reduction, the reduced loss otherwise; the parts (their references in s) for the node. */
static mt_TensorObject *
nll_rows(mt_temps *s, mt_TensorObject *rows, mt_TensorObject *targets, mt_TensorObject *weight, int reduction,
         int ignoring, int64_t ignore_index, int out_ndim, const int64_t *out_shape, nll_parts *p)
{
    int64_t n = targets->sizes[0];
    mt_TensorObject *index, *picked, *losses, *loss_total = NULL, *weight_total = NULL;

    p->classes = targets;
    if (ignoring) {
        mt_scalar ignored = {.kind = MT_INT64, .v.i = ignore_index};

        p->kept = mt_keep(s, mt_c_binary_scalar(MT_BINARY_NE, targets, ignored));
        /* an ignored row picks class 0 (and, below, the weight 0) */
        p->classes = mt_keep(s, mt_c_binary(MT_BINARY_MUL, targets, p->kept));
    }
    if (p->classes == NULL) {
        return NULL;
    }
    if (weight != NULL) {
        /* the weight has the input's dtype and device (nll_arguments_fit) */
        p->w = mt_keep(s, (mt_TensorObject *)mt_index_select(weight, 0, p->classes));
        if (ignoring) {
            p->w = mt_keep(s, mt_c_where_else_number(p->kept, p->w, 0.0));
        }
        if (p->w == NULL) {
            return NULL;
        }
    }
    index = mt_keep(s, mt_unsqueeze(p->classes, 1));
    picked = index != NULL ? mt_keep(s, (mt_TensorObject *)mt_gather(rows, 1, index)) : NULL;
    losses = mt_keep(s, mt_c_unary(MT_UNARY_NEG, mt_keep(s, mt_g_reshape(picked, 1, &n))));
    if (p->w != NULL) {
        losses = mt_keep(s, mt_c_binary(MT_BINARY_MUL, losses, p->w));
    }
    if (ignoring) {
        /* torch writes 0 for an ignored row */
        losses = mt_keep(s, mt_c_where_else_number(p->kept, losses, 0.0));
    }
    if (losses == NULL) {
        return NULL;
    }
    if (reduction == MT_LOSS_NONE) {
        return mt_reshape(losses, out_ndim, out_shape);
    }
    if (nll_totals(s, losses, p, &loss_total, &weight_total) < 0) {
        return NULL;
    }
    if (reduction == MT_LOSS_SUM) {
        Py_INCREF(loss_total);
        return loss_total;
    }
    p->total = weight_total;
    return mt_c_binary(MT_BINARY_DIV, loss_total, weight_total);
}

/* whether the arguments have the shapes, dtypes and device nn.functional checked (the op's own callers;
 * anything else is refused before it reaches a kernel) */
static int
nll_arguments_fit(const mt_TensorObject *input, const mt_TensorObject *target, const mt_TensorObject *weight)
{
    mt_device device = mt_tensor_device(input);
    int64_t classes = input->ndim == 1 ? input->sizes[0] : input->ndim > 1 ? input->sizes[1] : 0;

    if (!mt_dtype_is_floating(input->dtype) || target->dtype != MT_INT64 ||
        !mt_device_equal(mt_tensor_device(target), device)) {
        return 0;
    }
    if (weight != NULL && (weight->ndim != 1 || weight->sizes[0] != classes || weight->dtype != input->dtype ||
                           !mt_device_equal(mt_tensor_device(weight), device))) {
        return 0;
    }
    switch (input->ndim) {
    case 1:
        return mt_tensor_numel(target) == 1 && target->ndim <= 1;
    case 2:
        return target->ndim == 1 && target->sizes[0] == input->sizes[0];
    case 4:
        return target->ndim == 3 && target->sizes[0] == input->sizes[0] && target->sizes[1] == input->sizes[2] &&
               target->sizes[2] == input->sizes[3];
    default:
        return 0;
    }
}

/* nll_loss below autograd: input as (rows, C) rows and targets (rows,) (a 1-d input is one row, whose
 * unreduced loss is 0-d; a 4-d one has a row per (n, h, w)). */
static mt_TensorObject *
nll_compute(mt_temps *s, mt_TensorObject *input, mt_TensorObject *target, mt_TensorObject *weight, int reduction,
            int ignoring, int64_t ignore_index, nll_parts *p)
{
    mt_TensorObject *rows = input, *targets = target;
    int64_t out_shape[3] = {input->sizes[0], 0, 0}, one = 1, minus_one = -1;
    int out_ndim = 1;

    if (input->ndim == 1) {
        rows = mt_keep(s, mt_unsqueeze(input, 0));
        targets = mt_keep(s, mt_reshape(target, 1, &one));
        out_ndim = 0;
    }
    else if (input->ndim == 4) {
        int64_t rows_shape[2] = {-1, input->sizes[1]}, to_last[4] = {0, 2, 3, 1};

        rows = mt_keep(s, mt_g_reshape(mt_keep(s, mt_permute(input, 4, to_last)), 2, rows_shape));
        targets = mt_keep(s, mt_reshape(target, 1, &minus_one));
        out_ndim = 3;
        out_shape[1] = input->sizes[2];
        out_shape[2] = input->sizes[3];
    }
    if (rows == NULL || targets == NULL) {
        return NULL;
    }
    return nll_rows(s, rows, targets, weight, reduction, ignoring, ignore_index, out_ndim, out_shape, p);
}

PyObject *
mt_nll_loss(mt_TensorObject *input, mt_TensorObject *target, mt_TensorObject *weight, int reduction, int ignoring,
            int64_t ignore_index)
{
    mt_temps s = {{NULL}, 0};
    nll_parts p = {NULL, NULL, NULL, NULL};
    mt_TensorObject *r;

    /* the device check of torch's generated CUDA wrappers (nll_loss_forward is a structured kernel,
     * nll_loss2d_forward is not) */
    if (mt_matmul_check_devices(input->ndim == 4 ? "wrapper_CUDA__nll_loss2d_forward" : "wrapper_CUDA_nll_loss_forward",
                                weight != NULL ? 3 : 2, (mt_TensorObject *[]){input, target, weight},
                                (const char *const[]){"self", "target", "weight"}) < 0) {
        return NULL;
    }
    if (!nll_arguments_fit(input, target, weight)) {
        PyErr_SetString(PyExc_ValueError, "_nll_loss: input (N, C), (C) or (N, C, H, W) of a floating dtype, target "
                                          "int64 of its shape without C, weight None or (C) of input's dtype, on "
                                          "input's device");
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = nll_compute(&s, input, target, weight, reduction, ignoring, ignore_index, &p));
    if (r != NULL && mt_ag_nll_loss(input, reduction, p.classes, p.kept, p.w, p.total, r) < 0) {
        Py_CLEAR(r);
    }
    mt_temps_drop(&s);
    return (PyObject *)r;
}
