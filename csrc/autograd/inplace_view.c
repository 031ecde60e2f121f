/* inplace_view.c (autograd): the nodes of the in-place view ops (csrc/ops/inplace_view.c), with torch's
 * names: SqueezeBackward3 / 4 / 5 for squeeze_() / squeeze_(dim) / squeeze_(dims), UnsqueezeBackward1,
 * TBackward1 and TransposeBackward1 (swapdims_ and swapaxes_ are transpose_). The gradient goes back
 * through the inverse view: reshaped to self's old sizes for squeeze_, squeezed at the dim for
 * unsqueeze_, transposed back for t_ and transpose_. */
#include "record.h"

#include "../ops/inplace_view.h"
#include "../ops/shape.h"
#include "ops_for_grad.h"

static int
inplace_view_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_TensorObject *grad = (mt_TensorObject *)grads[0];
    const mt_input_meta *m = &node->meta[0];
    mt_TensorObject *r;
    int64_t dim = node->ints[0];

    switch (node->flag) {
    case MT_INPLACE_VIEW_SQUEEZE:
        r = mt_g_reshape(grad, m->ndim, m->sizes);
        break;
    case MT_INPLACE_VIEW_UNSQUEEZE:
        r = mt_squeeze(grad, 1, &dim);
        break;
    case MT_INPLACE_VIEW_T:
        r = mt_t(grad);
        break;
    default:
        r = mt_transpose(grad, node->ints[0], node->ints[1]);
        break;
    }
    out[0] = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_derivative d_squeeze_all = {"SqueezeBackward3", inplace_view_backward, NULL};
static mt_derivative d_squeeze_dim = {"SqueezeBackward4", inplace_view_backward, NULL};
static mt_derivative d_squeeze_dims = {"SqueezeBackward5", inplace_view_backward, NULL};
static mt_derivative d_unsqueeze = {"UnsqueezeBackward1", inplace_view_backward, NULL};
static mt_derivative d_t = {"TBackward1", inplace_view_backward, NULL};
static mt_derivative d_transpose = {"TransposeBackward1", inplace_view_backward, NULL};

mt_node *
mt_ag_inplace_view_node(int code, mt_TensorObject *self, int ndims, const int64_t *dims, int one_dim)
{
    mt_TensorObject *in[1] = {self};
    mt_derivative *d;
    mt_node *node;

    switch (code) {
    case MT_INPLACE_VIEW_SQUEEZE:
        d = ndims < 0 ? &d_squeeze_all : one_dim ? &d_squeeze_dim : &d_squeeze_dims;
        break;
    case MT_INPLACE_VIEW_UNSQUEEZE:
        d = &d_unsqueeze;
        break;
    case MT_INPLACE_VIEW_T:
        d = &d_t;
        break;
    default:
        d = &d_transpose;
        break;
    }
    node = mt_ag_node(d, 1, in, 1);
    if (node == NULL) {
        return NULL;
    }
    node->flag = code;
    if (code == MT_INPLACE_VIEW_UNSQUEEZE) {
        /* the new dim's place in the result (unsqueeze wraps over ndim + 1) */
        int64_t dim = dims[0];
        node->ints[0] = dim < 0 ? dim + self->ndim + 1 : dim;
    }
    else if (code == MT_INPLACE_VIEW_TRANSPOSE) {
        node->ints[0] = dims[0];
        node->ints[1] = dims[1];
    }
    return node;
}
