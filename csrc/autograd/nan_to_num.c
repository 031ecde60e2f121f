/* nan_to_num.c (autograd): the derivative of nan_to_num (NanToNumBackward0, torch's
 * `grad * at::isfinite(self)`: the gradient passes where the input was a finite number), saving the input
 * (for nan_to_num_, its value before the op). bitwise_*, logical_* and the is* predicates record nothing:
 * their outputs are not differentiable in torch. */
#include "record.h"

#include "../ops/compose.h"
#include "ops_for_grad.h"

static int
nan_to_num_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *self = mt_ag_unpack(node, 0);
    T *finite = mt_c_unary(MT_UNARY_ISFINITE, self);
    T *r = mt_c_binary(MT_BINARY_MUL, (T *)grads[0], finite);

    Py_XDECREF(finite);
    Py_XDECREF(self);
    out[0] = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_derivative d_nan_to_num = {"NanToNumBackward0", nan_to_num_backward, NULL};

int
mt_ag_nan_to_num_needs_original(mt_TensorObject *t)
{
    return mt_ag_needed(1, &t);
}

int
mt_ag_nan_to_num(mt_TensorObject *self, mt_TensorObject *t, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &t)) {
        return 0;
    }
    node = mt_ag_node(&d_nan_to_num, 1, &t, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_save(node, 0, self, 0);
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, 1, &t) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}
