/* softmax.c (autograd): the derivatives of softmax and log_softmax (SoftmaxBackward0, LogSoftmaxBackward0)
 * and what those ops record. Both save only their result, as torch's do, and compute torch's
 * _softmax_backward_data / _log_softmax_backward_data:
 *   softmax:     (grad - sum(grad * result, dim)) * result
 *   log_softmax: grad - exp(result) * sum(grad, dim)
 * when nothing is to be recorded, with the device's backward kernels (torch's CPU kernels for the last
 * dim and the others, bit for bit); otherwise with minitorch's ops (so they run on every device and record their
 * own nodes under create_graph=True). */
#include "record.h"

#include "../ops/compose.h"
#include "../ops/softmax.h"
#include "ops_for_grad.h"

static int
softmax_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *result = mt_ag_unpack(node, 0);
    uint64_t mask = result != NULL && result->ndim > 0 ? (uint64_t)1 << node->ints[0] : 0;
    T *prod = NULL, *sum = NULL, *diff = NULL, *e = NULL, *r = NULL;

    if (result == NULL) {
        return -1;
    }
    if (!mt_ag_needed(2, (T *[]){grad, result})) {
        int rc = mt_softmax_backward_kernel((int)node->ints[1], grad, result, (int)node->ints[0], &r);
        if (rc < 0 || r != NULL) {
            Py_DECREF(result);
            out[0] = (PyObject *)r;
            return rc;
        }
    }
    if (node->ints[1]) {
        /* log_softmax */
        sum = mt_c_reduce(MT_REDUCTION_SUM, grad, mask, 1);
        e = mt_c_unary(MT_UNARY_EXP, result);
        prod = mt_c_binary(MT_BINARY_MUL, e, sum);
        r = mt_c_binary(MT_BINARY_SUB, grad, prod);
    }
    else {
        prod = mt_c_binary(MT_BINARY_MUL, grad, result);
        sum = mt_c_reduce(MT_REDUCTION_SUM, prod, mask, 1);
        diff = mt_c_binary(MT_BINARY_SUB, grad, sum);
        r = mt_c_binary(MT_BINARY_MUL, diff, result);
    }
    Py_XDECREF(prod);
    Py_XDECREF(sum);
    Py_XDECREF(diff);
    Py_XDECREF(e);
    Py_DECREF(result);
    out[0] = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_derivative d_softmax = {"SoftmaxBackward0", softmax_backward, NULL};
static mt_derivative d_log_softmax = {"LogSoftmaxBackward0", softmax_backward, NULL};

int
mt_ag_softmax(int log, mt_TensorObject *t, int dim, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &t)) {
        return 0;
    }
    node = mt_ag_node(log ? &d_log_softmax : &d_softmax, 1, &t, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = dim;
    node->ints[1] = log;
    rc = mt_ag_set_output(node, result, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 0, result, 1);
    }
    Py_DECREF(node);
    return rc;
}
