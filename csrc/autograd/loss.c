/* loss.c (autograd): the derivative of nll_loss (NllLossBackward0, and NllLoss2DBackward0 for a 4-d input),
 * torch's nll_loss_backward: each row's gradient, -grad times its class weight (over the kept rows' total
 * weight for a mean), placed at the row's target class; zeros elsewhere and in the rows whose target was
 * ignored. Written with minitorch's ops (scatter places the values), so it runs on every device and records
 * its own nodes under create_graph=True. The node keeps what the forward computed (ops/loss.c): the rows'
 * classes, which rows were kept, their weights and the total weight, each only when the loss had it. */
#include "record.h"

#include "../ops/compose.h"
#include "../ops/gather.h"
#include "../ops/loss.h"
#include "../ops/shape.h"
#include "formula.h"
#include "ops_for_grad.h"

/* the saved slots; node->flag has bit i set when slot i holds a tensor */
enum { SAVED_CLASSES, SAVED_KEPT, SAVED_WEIGHTS, SAVED_TOTAL, N_SAVED };

static int
nll_loss_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_temps s = {{NULL}, 0};
    T *grad = (T *)grads[0], *saved[N_SAVED] = {NULL, NULL, NULL, NULL};
    const mt_input_meta *m = &node->meta[0];
    int reduction = (int)node->ints[0];
    int64_t rows = node->ints[1], rows_shape[2] = {node->ints[1], node->ints[2]};
    mt_scalar no_value = {0};
    T *values, *index = NULL, *grad_in = NULL;

    for (int i = 0; i < N_SAVED; i++) {
        if ((node->flag >> i & 1) && (saved[i] = mt_keep(&s, mt_ag_unpack(node, i))) == NULL) {
            mt_temps_drop(&s);
            return -1;
        }
    }
    if (reduction == MT_LOSS_NONE) {
        values = mt_keep(&s, mt_c_unary(MT_UNARY_NEG, mt_keep(&s, mt_g_reshape(grad, 1, &rows))));
    }
    else {
        T *scaled = reduction == MT_LOSS_MEAN ? mt_keep(&s, mt_g_div(grad, saved[SAVED_TOTAL])) : grad;
        values = mt_keep(&s, mt_g_expand(mt_keep(&s, mt_c_unary(MT_UNARY_NEG, scaled)), 1, &rows));
    }
    if (saved[SAVED_WEIGHTS] != NULL) {
        values = mt_keep(&s, mt_g_mul(saved[SAVED_WEIGHTS], values));
    }
    if (saved[SAVED_KEPT] != NULL) {
        values = mt_keep(&s, mt_c_where_else_number(saved[SAVED_KEPT], values, 0.0));
    }
    /* the rows' values go along dim 1 of zeros shaped as the input (a 1-d input: as its one row), each at its
     * class */
    if (m->ndim == 4) {
        int64_t one_class[4] = {m->sizes[0], 1, m->sizes[2], m->sizes[3]};
        index = mt_keep(&s, mt_g_reshape(saved[SAVED_CLASSES], 4, one_class));
        values = mt_keep(&s, mt_g_reshape(values, 4, one_class));
        grad_in = mt_keep(&s, mt_g_zeros(4, m->sizes, grad->dtype, mt_tensor_device(grad)));
    }
    else {
        index = mt_keep(&s, mt_unsqueeze(saved[SAVED_CLASSES], 1));
        values = values != NULL ? mt_keep(&s, mt_unsqueeze(values, 1)) : NULL;
        grad_in = mt_keep(&s, mt_g_zeros(2, rows_shape, grad->dtype, mt_tensor_device(grad)));
    }
    if (index != NULL && values != NULL && grad_in != NULL) {
        no_value.kind = MT_INT64;
        grad_in = mt_keep(&s, (T *)mt_scatter(grad_in, 1, index, values, no_value, MT_INDEX_DIM_COPY, 0, 0, 1));
    }
    if (m->ndim == 1) {
        grad_in = mt_keep(&s, mt_g_reshape(grad_in, 1, m->sizes));
    }
    Py_XINCREF(grad_in);
    out[0] = (PyObject *)grad_in;
    mt_temps_drop(&s);
    return out[0] != NULL ? 0 : -1;
}

static mt_derivative d_nll_loss = {"NllLossBackward0", nll_loss_backward, NULL};
static mt_derivative d_nll_loss2d = {"NllLoss2DBackward0", nll_loss_backward, NULL};

int
mt_ag_nll_loss(mt_TensorObject *input, int reduction, mt_TensorObject *classes, mt_TensorObject *kept,
               mt_TensorObject *weights, mt_TensorObject *total, mt_TensorObject *result)
{
    mt_TensorObject *parts[N_SAVED] = {classes, kept, weights, total};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &input)) {
        return 0;
    }
    node = mt_ag_node(input->ndim == 4 ? &d_nll_loss2d : &d_nll_loss, 1, &input, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = reduction;
    node->ints[1] = classes->sizes[0];
    node->ints[2] = input->sizes[input->ndim == 1 ? 0 : 1];
    rc = mt_ag_set_output(node, result, 0);
    for (int i = 0; i < N_SAVED && rc == 0; i++) {
        if (parts[i] != NULL) {
            node->flag |= 1 << i;
            rc = mt_ag_save(node, i, parts[i], 0);
        }
    }
    Py_DECREF(node);
    return rc;
}
