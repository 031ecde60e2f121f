/* gather.c (autograd): the nodes of the ops that read or write through indices, with torch's names and
 * formulas (derivatives.yaml and FunctionsManual.cpp): gather, scatter, scatter_add, index_select,
 * index_add, index_fill, index_copy, scatter_reduce, index_reduce, put (GatherBackward0, ...), max(dim)/min(dim) (value_selecting_reduction_backward), advanced
 * indexing x[idx] and x[idx] = v (IndexBackward0, IndexPutBackward0), masked_fill, masked_select and
 * take. Every formula places or picks gradients with those ops themselves (csrc/ops/gather.c, index_add_
 * above all), so it works on every device and records under create_graph. The index (or mask, or
 * positions) is saved in slot 0, the dim in ints[0], alpha in scalars[0]. */
#include "record.h"

#include <string.h>

#include "../ops/copy.h"
#include "../ops/elementwise.h"
#include "../ops/gather.h"
#include "../ops/index.h"
#include "../ops/masked.h"
#include "../ops/reduce.h"
#include "../ops/shape.h"
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

/* gather and index_select (node->flag 1: index is a vector along dim): grad added into zeros of the input's
 * shape at the index. */
static int
gathered_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *index = mt_ag_unpack(node, 0);
    int rc;

    if (index == NULL) {
        return -1;
    }
    rc = put(&out[0], into_zeros(node, (T *)grads[0], index, node->flag));
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

/* index_add, index_fill and index_copy (node->flag: which): self's gradient is grad itself (index_add) or
 * grad with the written entries zeroed; the source's is grad selected at the index, in source's shape
 * (a 0-d source takes the one element), times alpha for index_add, and summed for index_fill's 0-d value
 * tensor (IndexFillBackward1). Slot 0: the index (index_fill's: its distinct values). */
enum { INDEX_ADD, INDEX_FILL, INDEX_COPY };

static int
index_dim_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *index = mt_ag_unpack(node, 0);
    int rc = 0;

    if (index == NULL) {
        return -1;
    }
    if (NEEDS(node, 0) && node->flag == INDEX_ADD) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    else if (NEEDS(node, 0)) {
        rc = put(&out[0], (T *)mt_index_fill(grad, node->ints[0], index, NULL, zero_scalar(), 0));
    }
    if (rc == 0 && node->num_inputs > 1 && NEEDS(node, 1)) {
        const mt_input_meta *m = &node->meta[1];
        T *sel = (T *)mt_index_select(grad, node->ints[0], index);
        T *r = NULL;
        if (sel != NULL && node->flag == INDEX_FILL) {
            r = (T *)mt_reduce(MT_REDUCTION_SUM, sel, NULL, 0, 0, MT_NUM_DTYPES);
        }
        else if (sel != NULL) {
            r = mt_g_reshape(sel, m->ndim, m->sizes);
        }
        Py_XDECREF(sel);
        if (r != NULL && node->flag == INDEX_ADD && mt_scalar_to_double(node->scalars[0]) != 1.0) {
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

/* ---- scatter_reduce, index_reduce: torch's scatter_reduce_backward / index_reduce_backward ----------- */

/* The two formulas are one with (scatter_add, gather, scatter(value)) for the 1-D index's (index_add,
 * index_select, index_fill): node->flag 1. ints: dim, the kernel's mode, the naming (1 mean, 2 'max' or
 * 'min'), include_self. Slots: 0 the
 * index, 1 self as it was, 2 src, 3 the result. */
typedef struct {
    mt_node *node;
    T *index;
    int vector;
} along;

static mt_scalar
number(int64_t v)
{
    mt_scalar s = zero_scalar();
    s.v.i = v;
    return s;
}

/* a + b placed along dim at the index (scatter_add / index_add) */
static T *
along_add(const along *g, T *a, T *b)
{
    return g->vector ? (T *)mt_index_add(a, g->node->ints[0], g->index, b, number(1), 0)
                     : (T *)mt_scatter(a, g->node->ints[0], g->index, b, zero_scalar(), MT_INDEX_DIM_ADD, 0, 1, 0);
}

/* a's entries the index picks (gather / index_select) */
static T *
along_pick(const along *g, T *a)
{
    return g->vector ? (T *)mt_index_select(a, g->node->ints[0], g->index)
                     : (T *)mt_gather(a, g->node->ints[0], g->index);
}

/* a with the places the index reaches set to 0 */
static T *
along_zero(const along *g, T *a)
{
    return g->vector ? (T *)mt_index_fill(a, g->node->ints[0], g->index, NULL, zero_scalar(), 0)
                     : (T *)mt_scatter(a, g->node->ints[0], g->index, NULL, zero_scalar(), MT_INDEX_DIM_COPY, 0, 0, 0);
}

/* the op again, out of place, on other values */
static T *
along_reduce(const along *g, T *self, T *src)
{
    static const char *const names[] = {"sum", "sum", "prod", "amax", "amin"};
    const char *reduce = g->node->ints[2] == 1 ? "mean" : names[g->node->ints[1]];
    return g->vector ? (T *)mt_index_reduce(self, g->node->ints[0], g->index, src, reduce, (int)g->node->ints[3], 0)
                     : (T *)mt_scatter_reduce(self, g->node->ints[0], g->index, src, reduce, (int)g->node->ints[3], 0);
}

/* a with `value` where mask is true (masked_fill) */
static T *
filled(T *a, T *mask, int64_t value)
{
    return mask != NULL ? (T *)mt_masked_fill(a, mask, NULL, number(value), 0) : NULL;
}

/* a == number, bool */
static T *
equals(T *a, int64_t value)
{
    T *n = mt_g_zeros(0, NULL, a->dtype, mt_tensor_device(a));
    T *r = NULL;

    if (n != NULL && (value == 0 || mt_fill_(n, number(value)) == 0)) {
        r = mt_g_eq(a, n);
    }
    Py_XDECREF(n);
    return r;
}

/* a number's tensor of t's shape, dtype and device */
static T *
full_like(T *t, int64_t value)
{
    T *r = mt_g_zeros(t->ndim, t->sizes, t->dtype, mt_tensor_device(t));
    if (r != NULL && value != 0 && mt_fill_(r, number(value)) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* the counts of reduce='mean' (self's own counting once with include_self), at least 1 */
static T *
mean_counts(const along *g, T *grad, T *src)
{
    T *start = full_like(grad, g->node->ints[3] ? 1 : 0), *ones = full_like(src, 1);
    T *n = start != NULL && ones != NULL ? along_add(g, start, ones) : NULL;
    T *none = n != NULL ? equals(n, 0) : NULL;
    T *r = filled(n, none, 1);

    Py_XDECREF(start);
    Py_XDECREF(ones);
    Py_XDECREF(n);
    Py_XDECREF(none);
    return r;
}

/* amax / amin: the gradient split evenly among the values equal to the result at each place */
static int
extreme_backward(const along *g, T *grad, T *self, T *src, T *result, T **gs, T **gsrc)
{
    T *value = along_pick(g, result);
    T *self_eq = mt_g_eq(self, result), *src_eq = value != NULL ? mt_g_eq(src, value) : NULL;
    T *self_is = self_eq != NULL ? mt_g_to(self_eq, self->dtype, mt_tensor_device(self)) : NULL;
    T *src_is = src_eq != NULL ? mt_g_to(src_eq, self->dtype, mt_tensor_device(self)) : NULL;
    T *n = self_is != NULL && src_is != NULL ? along_add(g, self_is, src_is) : NULL;
    T *share = n != NULL ? mt_g_div(grad, n) : NULL;
    T *picked = share != NULL ? along_pick(g, share) : NULL;

    *gs = share != NULL ? mt_g_mul(self_is, share) : NULL;
    *gsrc = picked != NULL ? mt_g_mul(src_is, picked) : NULL;
    Py_XDECREF(value);
    Py_XDECREF(self_eq);
    Py_XDECREF(src_eq);
    Py_XDECREF(self_is);
    Py_XDECREF(src_is);
    Py_XDECREF(n);
    Py_XDECREF(share);
    Py_XDECREF(picked);
    return *gs != NULL && *gsrc != NULL ? 0 : -1;
}

/* prod: the product of the others at each place, computed again with zeros masked so that a single zero
 * passes its gradient on */
static int
prod_backward(const along *g, T *grad, T *self, T *src, T *result, T **gs, T **gsrc)
{
    T *self_zero = equals(self, 0), *src_zero = equals(src, 0);
    T *masked_self = filled(self, self_zero, 1);
    T *msr = masked_self != NULL ? along_reduce(g, masked_self, src) : NULL;
    T *gm = msr != NULL ? mt_g_mul(grad, msr) : NULL;
    T *zeros_in = src_zero != NULL ? mt_g_to(src_zero, self->dtype, mt_tensor_device(self)) : NULL;
    T *z = full_like(self, 0);
    T *counted = zeros_in != NULL && z != NULL ? along_add(g, z, zeros_in) : NULL;
    T *num_zeros = counted != NULL ? along_pick(g, counted) : NULL;
    T *one_zero = num_zeros != NULL ? equals(num_zeros, 1) : NULL;
    T *single = one_zero != NULL && src_zero != NULL ? mt_g_mul(src_zero, one_zero) : NULL;
    T *masked_src = filled(src, single, 1);
    T *msrc_result = masked_src != NULL ? along_reduce(g, self, masked_src) : NULL;
    T *ga = msrc_result != NULL ? mt_g_mul(grad, msrc_result) : NULL;
    T *pa = ga != NULL ? along_pick(g, ga) : NULL;
    T *gr = mt_g_mul(grad, result);
    T *pr = gr != NULL ? along_pick(g, gr) : NULL;
    T *src_ones = filled(src, src_zero, 1);
    T *pb = pr != NULL && src_ones != NULL ? mt_g_div(pr, src_ones) : NULL;

    *gs = gm != NULL ? mt_g_div(gm, masked_self) : NULL;
    *gsrc = NULL;
    if (single != NULL && pa != NULL && pb != NULL) {
        mt_operand x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        x.tensor = pa;
        y.tensor = pb;
        *gsrc = (T *)mt_where(single, &x, &y);
    }
    Py_XDECREF(self_zero);
    Py_XDECREF(src_zero);
    Py_XDECREF(masked_self);
    Py_XDECREF(msr);
    Py_XDECREF(gm);
    Py_XDECREF(zeros_in);
    Py_XDECREF(z);
    Py_XDECREF(counted);
    Py_XDECREF(num_zeros);
    Py_XDECREF(one_zero);
    Py_XDECREF(single);
    Py_XDECREF(masked_src);
    Py_XDECREF(msrc_result);
    Py_XDECREF(ga);
    Py_XDECREF(pa);
    Py_XDECREF(gr);
    Py_XDECREF(pr);
    Py_XDECREF(src_ones);
    Py_XDECREF(pb);
    if (*gs == NULL || *gsrc == NULL) {
        Py_CLEAR(*gs);
        Py_CLEAR(*gsrc);
        return -1;
    }
    return 0;
}

static int
reduce_along_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *self = NULL, *src = NULL, *result = NULL, *gs = NULL, *gsrc = NULL;
    along g;
    int mode = (int)node->ints[1], rc = -1;

    g.node = node;
    g.vector = node->flag;
    g.index = mt_ag_unpack(node, 0);
    self = g.index != NULL ? mt_ag_unpack(node, 1) : NULL;
    src = self != NULL ? mt_ag_unpack(node, 2) : NULL;
    result = src != NULL ? mt_ag_unpack(node, 3) : NULL;
    if (result == NULL) {
        goto done;
    }
    if (node->ints[2] == 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got %s.",
                     mode == MT_INDEX_DIM_AMAX ? "max" : "min");
        goto done;
    }
    if (node->ints[2] == 1) {
        T *n = mean_counts(&g, grad, src);
        T *pg = n != NULL ? along_pick(&g, grad) : NULL;
        T *pn = pg != NULL ? along_pick(&g, n) : NULL;
        gs = pn != NULL ? mt_g_div(grad, n) : NULL;
        gsrc = gs != NULL ? mt_g_div(pg, pn) : NULL;
        Py_XDECREF(n);
        Py_XDECREF(pg);
        Py_XDECREF(pn);
        if (gsrc == NULL) {
            goto done;
        }
    }
    else if (mode == MT_INDEX_DIM_ADD) {
        Py_INCREF(grad);
        gs = grad;
        gsrc = along_pick(&g, grad);
        if (gsrc == NULL) {
            goto done;
        }
    }
    else if (mode == MT_INDEX_DIM_MULTIPLY) {
        if (prod_backward(&g, grad, self, src, result, &gs, &gsrc) < 0) {
            goto done;
        }
    }
    else if (extreme_backward(&g, grad, self, src, result, &gs, &gsrc) < 0) {
        goto done;
    }
    if (!node->ints[3]) {
        Py_SETREF(gs, along_zero(&g, gs));
        if (gs == NULL) {
            goto done;
        }
    }
    rc = 0;
    if (NEEDS(node, 0)) {
        out[0] = (PyObject *)gs;
        gs = NULL;
    }
    if (NEEDS(node, 1)) {
        out[1] = (PyObject *)gsrc;
        gsrc = NULL;
    }

done:
    Py_XDECREF(gs);
    Py_XDECREF(gsrc);
    Py_XDECREF(g.index);
    Py_XDECREF(self);
    Py_XDECREF(src);
    Py_XDECREF(result);
    return rc;
}

/* put: self's gradient is grad (accumulate) or grad with the written places zeroed; source's is grad taken
 * at the index, in source's shape. Slot 0: the index; node->flag: accumulate. */
static int
put_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *index = mt_ag_unpack(node, 0);
    int rc = 0;

    if (index == NULL) {
        return -1;
    }
    if (NEEDS(node, 0) && node->flag) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    else if (NEEDS(node, 0)) {
        const mt_input_meta *m = &node->meta[1];
        T *z = mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad));
        rc = put(&out[0], z != NULL ? (T *)mt_put(grad, index, z, 0, 0) : NULL);
        Py_XDECREF(z);
    }
    if (rc == 0 && NEEDS(node, 1)) {
        const mt_input_meta *m = &node->meta[1];
        T *taken = (T *)mt_take(grad, index);
        rc = put(&out[1], taken != NULL ? mt_g_reshape(taken, m->ndim, m->sizes) : NULL);
        Py_XDECREF(taken);
    }
    Py_DECREF(index);
    return rc;
}

static mt_derivative d_reduce_along[2] = {{"ScatterReduceBackward0", reduce_along_backward, NULL},
                                          {"IndexReduceBackward0", reduce_along_backward, NULL}};
static mt_derivative d_put = {"PutBackward0", put_backward, NULL};

static mt_derivative d_gather = {"GatherBackward0", gathered_backward, NULL};
static mt_derivative d_index_select = {"IndexSelectBackward0", gathered_backward, NULL};
static mt_derivative d_index_add = {"IndexAddBackward0", index_dim_backward, NULL};
static mt_derivative d_index_fill[2] = {{"IndexFillBackward0", index_dim_backward, NULL},
                                        {"IndexFillBackward1", index_dim_backward, NULL}};
static mt_derivative d_index_copy = {"IndexCopyBackward0", index_dim_backward, NULL};
static mt_derivative scatter_rows[] = {
    [MT_AG_SCATTER_SRC] = {"ScatterBackward0", scatter_backward, NULL},
    [MT_AG_SCATTER_VALUE] = {"ScatterBackward1", scatter_backward, NULL},
    [MT_AG_SCATTER_ADD] = {"ScatterAddBackward0", scatter_backward, NULL},
    [MT_AG_SCATTER_REDUCE] = {"NotImplemented", scatter_reduce_backward, NULL},
};

/* torch's value_selecting_reduction_backward: zeros of the input's shape with grad scattered to the
 * indices along dim (both unsqueezed there first unless keepdim). */
static int
max_dim_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    const mt_input_meta *m = &node->meta[0];
    T *grad = (T *)grads[0];
    T *indices = mt_ag_unpack(node, 0);
    T *g = NULL, *z = NULL;
    int64_t dim = node->ints[0];
    int rc;

    if (indices == NULL) {
        return -1;
    }
    if (!node->flag && m->ndim > 0) {
        g = mt_unsqueeze(grad, dim);
        Py_SETREF(indices, mt_unsqueeze(indices, dim));
    }
    else {
        Py_INCREF(grad);
        g = grad;
    }
    z = g != NULL && indices != NULL ? mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)) : NULL;
    rc = put(&out[0], z != NULL ? (T *)mt_scatter(z, dim, indices, g, zero_scalar(), MT_INDEX_DIM_COPY, 0, 0, 1)
                                : NULL);
    Py_XDECREF(z);
    Py_XDECREF(g);
    Py_XDECREF(indices);
    return rc;
}

static mt_derivative d_max_dim[2] = {{"MinBackward0", max_dim_backward, NULL}, {"MaxBackward0", max_dim_backward, NULL}};
static mt_derivative d_sorting[3] = {
    [MT_AG_SORT] = {"SortBackward0", max_dim_backward, NULL},
    [MT_AG_SORT_STABLE] = {"SortBackward1", max_dim_backward, NULL},
    [MT_AG_TOPK] = {"TopkBackward0", max_dim_backward, NULL},
};

/* A node whose values were picked from t along dim at `indices` (the gradient goes back there). */
static int
record_selecting(mt_derivative *d, mt_TensorObject *t, int64_t dim, int keepdim, mt_TensorObject *values,
                 mt_TensorObject *indices)
{
    mt_TensorObject *in[1] = {t};
    mt_node *node;
    int wrapped, rc;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    if (mt_wrap_dim(dim, t->ndim, &wrapped) < 0) {
        return -1;
    }
    node = mt_ag_node(d, 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = wrapped;
    node->flag = keepdim;
    rc = mt_ag_save(node, 0, indices, 0);
    if (rc == 0) {
        rc = mt_ag_set_output(node, values, 0);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_max_dim(int is_max, mt_TensorObject *t, int64_t dim, int keepdim, mt_TensorObject *values,
              mt_TensorObject *indices)
{
    return record_selecting(&d_max_dim[is_max != 0], t, dim, keepdim, values, indices);
}

int
mt_ag_sort(mt_ag_sort_kind kind, mt_TensorObject *t, int64_t dim, mt_TensorObject *values, mt_TensorObject *indices)
{
    return record_selecting(&d_sorting[kind], t, dim, 1, values, indices);
}

/* ---- advanced indexing: IndexBackward0, IndexPutBackward0 ------------------------------------------------ */

/* The geometry a node of advanced indexing keeps: ints[0..3] the plan's before, nidx, bndim and
 * permuted; extra the bytes of int64 of the permutation (when permuted) then the broadcast index shape;
 * slot 0 the positions. */
typedef struct {
    int n, before, nidx, after;
    int64_t base[MT_MAX_DIMS];          /* t's sizes in the base's (permuted) order */
    int64_t block[MT_MAX_DIMS];         /* base with the indexed dims as one: before, N, after */
    int64_t per_position[MT_MAX_DIMS];  /* before, nb, after */
    const int64_t *perm;                /* NULL: not permuted */
    const int64_t *bshape;              /* bndim sizes */
    int bndim;
    int64_t nb;
} index_geometry;

/* 0, or 1 when the gradient is all zeros (an empty t or no index position): nothing to place. */
static int
index_geometry_of(const mt_node *node, const T *positions, index_geometry *g)
{
    const mt_input_meta *m = &node->meta[0];
    int64_t numel = 1;

    g->n = m->ndim;
    g->before = (int)node->ints[0];
    g->nidx = (int)node->ints[1];
    g->after = g->n - g->before - g->nidx;
    g->perm = node->ints[3] ? (const int64_t *)PyBytes_AS_STRING(node->extra) : NULL;
    g->bndim = (int)node->ints[2];
    g->bshape = (const int64_t *)PyBytes_AS_STRING(node->extra) + (node->ints[3] ? g->n : 0);
    g->nb = mt_tensor_numel(positions);
    for (int d = 0; d < g->n; d++) {
        g->base[d] = m->sizes[g->perm != NULL ? g->perm[d] : d];
        numel *= m->sizes[d] == 0 ? 0 : 1;
    }
    if (numel == 0 || g->nb == 0) {
        return 1;
    }
    memcpy(g->block, g->base, sizeof(int64_t) * (size_t)g->before);
    memcpy(g->per_position, g->base, sizeof(int64_t) * (size_t)g->before);
    g->block[g->before] = 1;
    for (int k = 0; k < g->nidx; k++) {
        g->block[g->before] *= g->base[g->before + k];     /* <= numel of a non-empty t: no overflow */
    }
    g->per_position[g->before] = g->nb;
    memcpy(g->block + g->before + 1, g->base + g->before + g->nidx, sizeof(int64_t) * (size_t)g->after);
    memcpy(g->per_position + g->before + 1, g->base + g->before + g->nidx, sizeof(int64_t) * (size_t)g->after);
    return 0;
}

/* A tensor in the base's order (its sizes g->base) back in t's order, contiguous. Steals r. */
static T *
to_input_order(const index_geometry *g, T *r)
{
    int64_t inverse[MT_MAX_DIMS];
    T *v;

    if (r == NULL || g->perm == NULL) {
        return r;
    }
    for (int d = 0; d < g->n; d++) {
        inverse[g->perm[d]] = d;
    }
    v = mt_permute(r, g->n, inverse);
    Py_DECREF(r);
    r = v != NULL ? mt_g_clone_contiguous(v) : NULL;
    Py_XDECREF(v);
    return r;
}

/* grad (t's shape, t's order) as the block tensor: base order, indexed dims as one. */
static T *
grad_as_block(const index_geometry *g, T *grad)
{
    T *p = g->perm != NULL ? mt_permute(grad, g->n, g->perm) : (Py_INCREF(grad), grad);
    T *r = p != NULL ? mt_g_reshape(p, g->before + 1 + g->after, g->block) : NULL;

    Py_XDECREF(p);
    return r;
}

static T *
zeros_of_input(const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    return mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad));
}

static int
no_formula(void)
{
    PyErr_SetString(PyExc_NotImplementedError,
                    "the derivative of indexing with 0-dimensional bool masks alone is not implemented in minitorch "
                    "yet");
    return -1;
}

static int index_put_backward(mt_node *node, PyObject *const *grads, PyObject **out);
static mt_derivative d_index_put_impl = {"IndexPutImplBackward0", index_put_backward, NULL};

/* IndexBackward0's result r under create_graph: torch's _index_put_impl_(zeros, indices, grad,
 * accumulate=True), whose node takes the zeros (no edge) and grad, with the geometry of `from`. */
static int
record_index_put_impl(const mt_node *from, T *grad, T *positions, T *r)
{
    mt_TensorObject *in[2] = {r, grad};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(&d_index_put_impl, 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    memcpy(node->ints, from->ints, sizeof(node->ints));
    node->flag = 1;     /* accumulate=True */
    Py_INCREF(from->extra);
    node->extra = from->extra;
    rc = mt_ag_save(node, 0, positions, 0);
    if (rc == 0) {
        rc = mt_ag_set_output(node, r, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* torch's index_backward: zeros of t's shape with grad added at the indexed places (repeated ones add
 * up), here an index_add_ along the indexed block. */
static int
index_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *positions = mt_ag_unpack(node, 0);
    T *z = NULL, *gv = NULL, *r = NULL;
    index_geometry g;
    mt_scalar one = zero_scalar();

    if (positions == NULL) {
        return -1;
    }
    if (node->ints[1] == 0) {
        Py_DECREF(positions);
        return no_formula();
    }
    if (index_geometry_of(node, positions, &g)) {
        Py_DECREF(positions);
        return put(&out[0], zeros_of_input(node, grad));
    }
    one.v.i = 1;
    /* computed below autograd: under create_graph the result is torch's one IndexPutImplBackward0 */
    MT_BELOW_AUTOGRAD({
        z = mt_g_zeros(g.before + 1 + g.after, g.block, grad->dtype, mt_tensor_device(grad));
        gv = mt_g_reshape(grad, g.before + 1 + g.after, g.per_position);
        if (z != NULL && gv != NULL) {
            T *added = (T *)mt_index_add(z, g.before, positions, gv, one, 1);
            r = added != NULL ? mt_g_reshape(added, g.n, g.base) : NULL;
            Py_XDECREF(added);
        }
        r = to_input_order(&g, r);
    });
    Py_XDECREF(z);
    Py_XDECREF(gv);
    if (r != NULL && record_index_put_impl(node, grad, positions, r) < 0) {
        Py_CLEAR(r);
    }
    Py_DECREF(positions);
    return put(&out[0], r);
}

/* index_put_: t's gradient is grad with the written places zeroed (grad itself with accumulate=True,
 * node->flag), value's the gradient at those places (the engine sums it back to value's shape). */
static int
index_put_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *positions = mt_ag_unpack(node, 0);
    T *block = NULL;
    index_geometry g;
    int rc = 0;

    if (positions == NULL) {
        return -1;
    }
    if (node->ints[1] == 0) {
        Py_DECREF(positions);
        return no_formula();
    }
    if (index_geometry_of(node, positions, &g)) {
        Py_DECREF(positions);
        if (NEEDS(node, 0)) {
            Py_INCREF(grad);
            out[0] = (PyObject *)grad;
        }
        if (NEEDS(node, 1)) {
            const mt_input_meta *m = &node->meta[1];
            return put(&out[1], mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)));
        }
        return 0;
    }
    block = grad_as_block(&g, grad);
    if (block == NULL) {
        Py_DECREF(positions);
        return -1;
    }
    if (NEEDS(node, 0) && node->flag) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    else if (NEEDS(node, 0)) {
        /* the positions along the block's indexed dim, expanded over the other dims, scatter zeros */
        int64_t ones[MT_MAX_DIMS];
        T *p1, *pe, *r = NULL;
        for (int d = 0; d < g.before + 1 + g.after; d++) {
            ones[d] = d == g.before ? g.nb : 1;
        }
        p1 = mt_g_reshape(positions, g.before + 1 + g.after, ones);
        pe = mt_g_expand(p1, g.before + 1 + g.after, g.per_position);
        if (pe != NULL) {
            T *z = (T *)mt_scatter(block, g.before, pe, NULL, zero_scalar(), MT_INDEX_DIM_COPY, 0, 0, 0);
            r = z != NULL ? mt_g_reshape(z, g.n, g.base) : NULL;
            Py_XDECREF(z);
        }
        Py_XDECREF(p1);
        Py_XDECREF(pe);
        rc = put(&out[0], to_input_order(&g, r));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        /* in the result's shape, before | broadcast index dims | after (base order), which the engine
         * sums back to value's */
        int64_t shape[MT_MAX_DIMS];
        T *sel = (T *)mt_index_select(block, g.before, positions);
        memcpy(shape, g.base, sizeof(int64_t) * (size_t)g.before);
        memcpy(shape + g.before, g.bshape, sizeof(int64_t) * (size_t)g.bndim);
        memcpy(shape + g.before + g.bndim, g.base + g.before + g.nidx, sizeof(int64_t) * (size_t)g.after);
        rc = put(&out[1], sel != NULL ? mt_g_reshape(sel, g.before + g.bndim + g.after, shape) : NULL);
        Py_XDECREF(sel);
    }
    Py_DECREF(block);
    Py_DECREF(positions);
    return rc;
}

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
    return record(&d_index_select, 1, 1, &self, dim, index, zero_scalar(), result);
}

int
mt_ag_index_add(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source, mt_scalar alpha,
                mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, source};
    return record(&d_index_add, INDEX_ADD, 2, in, dim, index, alpha, result);
}

int
mt_ag_index_fill(mt_TensorObject *self, int64_t dim, mt_TensorObject *positions, mt_TensorObject *value_tensor,
                 mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, value_tensor};
    return record(&d_index_fill[value_tensor != NULL], INDEX_FILL, value_tensor != NULL ? 2 : 1, in, dim, positions,
                  zero_scalar(), result);
}

int
mt_ag_index_copy(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                 mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, source};
    return record(&d_index_copy, INDEX_COPY, 2, in, dim, index, zero_scalar(), result);
}

static mt_derivative d_index = {"IndexBackward0", index_backward, NULL};
static mt_derivative d_index_put = {"IndexPutBackward0", index_put_backward, NULL};

static int
record_index(mt_derivative *d, int n, mt_TensorObject *const *in, mt_TensorObject *result,
             const mt_ag_index_plan *plan, mt_TensorObject *positions)
{
    mt_node *node;
    int perm_n = plan->permuted ? in[0]->ndim : 0;
    int64_t geometry[2 * MT_MAX_DIMS];
    int rc;

    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(d, n, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = plan->before;
    node->ints[1] = plan->nidx;
    node->ints[2] = plan->bndim;
    node->ints[3] = plan->permuted;
    node->flag = plan->accumulate;
    if (perm_n > 0) {
        memcpy(geometry, plan->perm, sizeof(int64_t) * (size_t)perm_n);
    }
    node->extra = PyBytes_FromStringAndSize(
        (const char *)geometry, (Py_ssize_t)(sizeof(int64_t) * (size_t)(perm_n + plan->bndim)));
    rc = node->extra != NULL ? 0 : -1;
    if (rc == 0 && plan->bndim > 0) {
        /* the broadcast index shape: the result's dims after `before` (IndexBackward0) */
        const int64_t *bshape = plan->bshape;
        memcpy(PyBytes_AS_STRING(node->extra) + sizeof(int64_t) * (size_t)perm_n, bshape,
               sizeof(int64_t) * (size_t)plan->bndim);
    }
    if (rc == 0) {
        rc = mt_ag_save(node, 0, positions, 0);
    }
    if (rc == 0) {
        rc = result == in[0] ? mt_ag_set_inplace_output(node, result, n, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_index(mt_TensorObject *t, mt_TensorObject *result, const mt_ag_index_plan *plan, mt_TensorObject *positions)
{
    return record_index(&d_index, 1, &t, result, plan, positions);
}

int
mt_ag_index_put(mt_TensorObject *t, mt_TensorObject *value, const mt_ag_index_plan *plan, mt_TensorObject *positions,
                mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {t, value};
    return record_index(&d_index_put, 2, in, result, plan, positions);
}

/* ---- masked_fill, masked_select, take -------------------------------------------------------------------- */

/* masked_fill: self's gradient is grad with the filled places zeroed (the engine sums it back to self's
 * shape), the value's the sum of grad at them (torch's masked_fill_backward). Slot 0: the mask. */
static int
masked_fill_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *mask = mt_ag_unpack(node, 0);
    int rc = 0;

    if (mask == NULL) {
        return -1;
    }
    if (NEEDS(node, 0)) {
        rc = put(&out[0], (T *)mt_masked_fill(grad, mask, NULL, zero_scalar(), 0));
    }
    if (rc == 0 && node->num_inputs > 1 && NEEDS(node, 1)) {
        T *sel = (T *)mt_masked_select(grad, mask);
        rc = put(&out[1], sel != NULL ? (T *)mt_reduce(MT_REDUCTION_SUM, sel, NULL, 0, 0, MT_NUM_DTYPES) : NULL);
        Py_XDECREF(sel);
    }
    Py_DECREF(mask);
    return rc;
}

/* masked_select: zeros of the broadcast shape with grad put at the mask's places (the engine sums it
 * back to self's shape). Slot 0: the broadcast mask. */
static int
masked_select_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *mask = mt_ag_unpack(node, 0);
    T *z;

    if (mask == NULL) {
        return -1;
    }
    z = mt_g_zeros(mask->ndim, mask->sizes, grad->dtype, mt_tensor_device(grad));
    if (z != NULL && mt_index_put_by_mask(z, mask, grad) < 0) {
        Py_CLEAR(z);
    }
    Py_DECREF(mask);
    return put(&out[0], z);
}

/* masked_scatter: self's gradient is grad with the written places zeroed (the engine sums it back to
 * self's shape), source's grad at those places in order, padded with zeros to source's size and viewed
 * in its shape (torch's masked_scatter_backward). Slot 0: the expanded mask. */
static int
masked_scatter_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    T *mask = mt_ag_unpack(node, 0);
    int rc = 0;

    if (mask == NULL) {
        return -1;
    }
    if (NEEDS(node, 0)) {
        rc = put(&out[0], (T *)mt_masked_fill(grad, mask, NULL, zero_scalar(), 0));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        const mt_input_meta *m = &node->meta[1];
        int64_t numel = 1, n;
        T *sel = (T *)mt_masked_select(grad, mask), *r = NULL;
        for (int d = 0; d < m->ndim; d++) {
            numel *= m->sizes[d];
        }
        n = sel != NULL ? mt_tensor_numel(sel) : 0;
        if (sel != NULL && numel > n) {
            int64_t rest = numel - n;
            T *z = mt_g_zeros(1, &rest, grad->dtype, mt_tensor_device(grad));
            T *parts[2] = {sel, z};
            r = z != NULL ? mt_cat(2, parts, 0) : NULL;
            Py_XDECREF(z);
        }
        else if (sel != NULL) {
            Py_INCREF(sel);
            r = sel;
        }
        rc = put(&out[1], r != NULL ? mt_g_reshape(r, m->ndim, m->sizes) : NULL);
        Py_XDECREF(r);
        Py_XDECREF(sel);
    }
    Py_DECREF(mask);
    return rc;
}

/* take: zeros of self's shape with grad added at the positions (torch's put_(index, grad, accumulate=True)).
 * Slot 0: the flattened positions. */
static int
take_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    const mt_input_meta *m = &node->meta[0];
    T *grad = (T *)grads[0];
    T *positions = mt_ag_unpack(node, 0);
    int64_t numel = 1, n;
    mt_scalar one = zero_scalar();
    T *z, *g, *r = NULL;

    if (positions == NULL) {
        return -1;
    }
    for (int d = 0; d < m->ndim; d++) {
        numel *= m->sizes[d];
    }
    n = mt_tensor_numel(positions);
    one.v.i = 1;
    z = mt_g_zeros(1, &numel, grad->dtype, mt_tensor_device(grad));
    g = mt_g_reshape(grad, 1, &n);
    if (z != NULL && g != NULL) {
        T *added = (T *)mt_index_add(z, 0, positions, g, one, 1);
        r = added != NULL ? mt_g_reshape(added, m->ndim, m->sizes) : NULL;
        Py_XDECREF(added);
    }
    Py_XDECREF(z);
    Py_XDECREF(g);
    Py_DECREF(positions);
    return put(&out[0], r);
}

static mt_derivative d_masked_fill[2] = {{"MaskedFillBackward0", masked_fill_backward, NULL},
                                         {"MaskedFillBackward1", masked_fill_backward, NULL}};
static mt_derivative d_masked_select = {"MaskedSelectBackward0", masked_select_backward, NULL};
static mt_derivative d_take = {"TakeBackward0", take_backward, NULL};
static mt_derivative d_masked_scatter = {"MaskedScatterBackward0", masked_scatter_backward, NULL};

int
mt_ag_masked_scatter(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *source, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, source};
    return record(&d_masked_scatter, 0, 2, in, 0, mask, zero_scalar(), result);
}

int
mt_ag_masked_fill(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *value_tensor, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, value_tensor};
    return record(&d_masked_fill[value_tensor != NULL], 0, value_tensor != NULL ? 2 : 1, in, 0, mask, zero_scalar(),
                  result);
}

int
mt_ag_masked_select(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *result)
{
    return record(&d_masked_select, 0, 1, &self, 0, mask, zero_scalar(), result);
}

int
mt_ag_take(mt_TensorObject *self, mt_TensorObject *positions, mt_TensorObject *result)
{
    return record(&d_take, 0, 1, &self, 0, positions, zero_scalar(), result);
}

int
mt_ag_reduce_along(int vector, mt_TensorObject *original, mt_TensorObject *self, int64_t dim, mt_TensorObject *index,
                   mt_TensorObject *src, int mode, int naming, int include_self, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, src};
    mt_node *node;
    int rc;

    if (original == NULL) {
        return 0;
    }
    node = mt_ag_node(&d_reduce_along[vector != 0], 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->flag = vector != 0;
    node->ints[0] = dim;
    node->ints[1] = mode;
    node->ints[2] = naming;
    node->ints[3] = include_self;
    rc = mt_ag_save(node, 0, index, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 1, original, 0);
    }
    if (rc == 0) {
        rc = mt_ag_save(node, 2, src, 0);
    }
    if (rc == 0) {
        rc = result == self ? mt_ag_set_inplace_output(node, result, 2, in) : mt_ag_set_output(node, result, 0);
    }
    if (rc == 0) {
        rc = mt_ag_save(node, 3, result, 1);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_put(mt_TensorObject *self, mt_TensorObject *index, mt_TensorObject *source, int accumulate,
          mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, source};
    return record(&d_put, accumulate, 2, in, 0, index, zero_scalar(), result);
}
