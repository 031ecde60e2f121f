/* gather.c (autograd): the nodes of the indexing ops along one dim, with torch's names and formulas
 * (derivatives.yaml: gather_backward, index_select_backward, the scatter rows): each formula runs the
 * ops themselves (csrc/ops/gather.c), so it works on every device and records under create_graph. The
 * index is saved in slot 0, the dim in ints[0], alpha in scalars[0]. */
#include "record.h"

#include <string.h>

#include "../ops/gather.h"
#include "ops_for_grad.h"

#define NEEDS(node, i) ((node)->next[i].node != NULL)

static int
put(PyObject **out, T *r)
{
    *out = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static mt_scalar
zero_scalar(void)
{
    mt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = MT_INT64;
    return s;
}

/* zeros of input i's shape in grad's dtype and device, with grad added in along dim at index: by
 * scatter_add (gather's backward) or index_add_ (index_select's). */
static T *
into_zeros(const mt_node *node, T *grad, T *index, int vector)
{
    const mt_input_meta *m = &node->meta[0];
    T *z = mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad));
    mt_scalar one = zero_scalar();
    T *r;

    if (z == NULL) {
        return NULL;
    }
    one.v.i = 1;
    r = vector ? (T *)mt_index_add(z, node->ints[0], index, grad, one, 1)
               : (T *)mt_scatter(z, node->ints[0], index, grad, zero_scalar(), MT_INDEX_DIM_ADD, 0, 1, 1);
    Py_DECREF(z);
    return r;
}

static int
gather_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *index = mt_ag_unpack(node, 0);
    int rc;

    if (index == NULL) {
        return -1;
    }
    rc = put(&out[0], into_zeros(node, (T *)grads[0], index, 0));
    Py_DECREF(index);
    return rc;
}

static int
index_select_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *index = mt_ag_unpack(node, 0);
    int rc;

    if (index == NULL) {
        return -1;
    }
    rc = put(&out[0], into_zeros(node, (T *)grads[0], index, 1));
    Py_DECREF(index);
    return rc;
}

/* scatter (src or value) and scatter_add: self's gradient is grad with the scattered positions zeroed
 * (scatter) or grad itself (scatter_add); src's is grad gathered at the index. node->flag: the kind. */
static int
scatter_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *index = mt_ag_unpack(node, 0);
    int rc = 0;

    if (index == NULL) {
        return -1;
    }
    if (NEEDS(node, 0)) {
        if (node->flag == MT_AG_SCATTER_ADD) {
            Py_INCREF(grad);
            out[0] = (PyObject *)grad;
        }
        else {
            rc = put(&out[0], (T *)mt_scatter(grad, node->ints[0], index, NULL, zero_scalar(), MT_INDEX_DIM_COPY, 0, 0,
                                              0));
        }
    }
    if (rc == 0 && node->num_inputs > 1 && NEEDS(node, 1)) {
        rc = put(&out[1], (T *)mt_gather(grad, node->ints[0], index));
    }
    Py_DECREF(index);
    return rc;
}

/* index_add: self's gradient is grad; source's is grad selected at the index (in source's shape: a 0-d
 * source takes the one element), times alpha. */
static int
index_add_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *index = mt_ag_unpack(node, 0);
    int rc = 0;

    if (index == NULL) {
        return -1;
    }
    if (NEEDS(node, 0)) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    if (NEEDS(node, 1)) {
        const mt_input_meta *m = &node->meta[1];
        T *sel = (T *)mt_index_select(grad, node->ints[0], index);
        T *r = sel != NULL ? mt_g_reshape(sel, m->ndim, m->sizes) : NULL;
        Py_XDECREF(sel);
        if (r != NULL && mt_scalar_to_double(node->scalars[0]) != 1.0) {
            Py_SETREF(r, mt_g_mul_scalar(r, node->scalars[0]));
        }
        rc = put(&out[1], r);
    }
    Py_DECREF(index);
    return rc;
}

/* torch records scatter(reduce=) with its NotImplemented node, whose backward raises this */
static int
scatter_reduce_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    (void)node;
    (void)grads;
    (void)out;
    PyErr_SetString(PyExc_RuntimeError, "derivative for aten::scatter is not implemented");
    return -1;
}

static mt_derivative d_gather = {"GatherBackward0", gather_backward, NULL};
static mt_derivative d_index_select = {"IndexSelectBackward0", index_select_backward, NULL};
static mt_derivative d_index_add = {"IndexAddBackward0", index_add_backward, NULL};
static mt_derivative scatter_rows[] = {
    [MT_AG_SCATTER_SRC] = {"ScatterBackward0", scatter_backward, NULL},
    [MT_AG_SCATTER_VALUE] = {"ScatterBackward1", scatter_backward, NULL},
    [MT_AG_SCATTER_ADD] = {"ScatterAddBackward0", scatter_backward, NULL},
    [MT_AG_SCATTER_REDUCE] = {"NotImplemented", scatter_reduce_backward, NULL},
};

/* One node of d over the n inputs (self first), saving index; result is self for an in-place op. */
static int
record(mt_derivative *d, int flag, int n, mt_TensorObject *const *in, int64_t dim, mt_TensorObject *index,
       mt_scalar alpha, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(d, n, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = dim;
    node->flag = flag;
    node->scalars[0] = alpha;
    rc = mt_ag_save(node, 0, index, 0);
    if (rc == 0) {
        rc = result == in[0] ? mt_ag_set_inplace_output(node, result, n, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_gather(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *result)
{
    return record(&d_gather, 0, 1, &self, dim, index, zero_scalar(), result);
}

int
mt_ag_scatter(mt_ag_scatter_kind kind, mt_TensorObject *self, int64_t dim, mt_TensorObject *index,
              mt_TensorObject *src, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, src};
    return record(&scatter_rows[kind], kind, src != NULL ? 2 : 1, in, dim, index, zero_scalar(), result);
}

int
mt_ag_index_select(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *result)
{
    return record(&d_index_select, 0, 1, &self, dim, index, zero_scalar(), result);
}

int
mt_ag_index_add(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source, mt_scalar alpha,
                mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, source};
    return record(&d_index_add, 0, 2, in, dim, index, alpha, result);
}
