/* rearrange.c (autograd): FlipBackward0, RollBackward0 and RepeatBackward0 with torch's formulas
 * (derivatives.yaml: grad.flip(dims), grad.roll(-shifts, dims), repeat_backward), written with the ops
 * themselves (csrc/ops/rearrange.c) so they run on every device and record under create_graph.
 * node->mask: flip's dims; ints[0], ints[1]: the counts of the numbers in extra (bytes of int64: roll's
 * shifts then dims, repeat's repeats). */
#include "record.h"

#include <string.h>

#include "../ops/rearrange.h"
#include "../ops/reduce.h"
#include "ops_for_grad.h"

static int
put(PyObject **out, T *r)
{
    *out = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static const int64_t *
numbers(const mt_node *node)
{
    return (const int64_t *)PyBytes_AS_STRING(node->extra);
}

static int
flip_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    int64_t dims[MT_MAX_DIMS];
    int n = 0;

    for (int d = 0; d < 64; d++) {
        if (node->mask >> d & 1) {
            dims[n++] = d;
        }
    }
    return put(&out[0], (T *)mt_flip((T *)grads[0], n, dims));
}

static int
roll_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    int64_t shifts[MT_MAX_DIMS];
    int n = (int)node->ints[0], ndims = (int)node->ints[1];
    const int64_t *v = numbers(node);

    for (int i = 0; i < n; i++) {
        shifts[i] = v[i] == INT64_MIN ? v[i] : -v[i];
    }
    return put(&out[0], (T *)mt_roll((T *)grads[0], n, shifts, ndims, v + n));
}

/* torch's repeat_backward: zeros when a repeat is 0; the leading (added) dims summed away one at a time,
 * then grad as [r0, s0, r1, s1, ...] (an r only where it is not 1) summed over the repeats at once */
static int
repeat_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    const mt_input_meta *m = &node->meta[0];
    T *grad = (T *)grads[0];
    const int64_t *repeats = numbers(node);
    int n = (int)node->ints[0], lead = n - m->ndim, nw = 0;
    int64_t wide[MT_MAX_DIMS];
    uint64_t mask = 0;
    T *g, *r;

    for (int d = 0; d < n; d++) {
        if (repeats[d] == 0) {
            return put(&out[0], mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)));
        }
    }
    Py_INCREF(grad);
    g = grad;
    for (int d = 0; d < lead && g != NULL; d++) {
        Py_SETREF(g, mt_g_sum_dims(g, 1, 0));
    }
    for (int d = 0; d < m->ndim; d++) {
        if (repeats[lead + d] != 1) {
            mask |= 1ull << nw;
            wide[nw++] = repeats[lead + d];
        }
        wide[nw++] = m->sizes[d];
    }
    r = g != NULL ? mt_g_reshape(g, nw, wide) : NULL;
    Py_XDECREF(g);
    if (r != NULL && mask != 0) {
        Py_SETREF(r, mt_g_sum_dims(r, mask, 0));
    }
    return put(&out[0], r);
}

static mt_derivative rows[] = {
    [MT_AG_FLIP] = {"FlipBackward0", flip_backward, NULL},
    [MT_AG_ROLL] = {"RollBackward0", roll_backward, NULL},
    [MT_AG_REPEAT] = {"RepeatBackward0", repeat_backward, NULL},
};

int
mt_ag_rearrange(mt_ag_rearrange_kind kind, mt_TensorObject *t, mt_TensorObject *result, uint64_t mask, int n,
                const int64_t *ints, const int64_t *dims)
{
    mt_TensorObject *in[1] = {t};
    int ndims = dims != NULL ? n : 0;
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    node = mt_ag_node(&rows[kind], 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->mask = mask;
    node->ints[0] = n;
    node->ints[1] = ndims;
    if (kind != MT_AG_FLIP) {
        node->extra = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(int64_t) * (size_t)(n + ndims)));
        if (node->extra == NULL) {
            rc = -1;
        }
        else {
            memcpy(PyBytes_AS_STRING(node->extra), ints, sizeof(int64_t) * (size_t)n);
            if (ndims > 0) {
                memcpy(PyBytes_AS_STRING(node->extra) + sizeof(int64_t) * (size_t)n, dims,
                       sizeof(int64_t) * (size_t)ndims);
            }
        }
    }
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}
