/* inplace_view.c: the in-place view ops (inplace_view.h). Each computes the out-of-place view below
 * autograd (its checks and messages are the view op's), then moves that geometry into self: same storage
 * and offset, new sizes and strides, one version bump. torch checks an in-place op's autograd rules
 * first (a leaf that requires grad, a view of one), so that comes before the view's own errors; the node
 * is made before the geometry changes, since its input is self as it was. */
#include "inplace_view.h"

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "shape.h"

static mt_TensorObject *
view_of(mt_TensorObject *self, int code, int ndims, const int64_t *dims)
{
    switch (code) {
    case MT_INPLACE_VIEW_SQUEEZE:
        return mt_squeeze(self, ndims, dims);
    case MT_INPLACE_VIEW_UNSQUEEZE:
        return mt_unsqueeze(self, dims[0]);
    case MT_INPLACE_VIEW_T:
        return mt_t(self);
    default:
        return mt_transpose(self, dims[0], dims[1]);
    }
}

/* self takes the view v's geometry (sizes, strides and offset: an in-place view of squeeze_ and kin keeps
 * self's offset, as_strided_ may move it), one version bump, and node (NULL when no autograd) as its
 * history. Steals v and node; returns a new reference to self, or NULL. */
static PyObject *
become_view(mt_TensorObject *self, mt_TensorObject *v, mt_node *node)
{
    PyObject *result = NULL;

    if (mt_tensor_set_geometry(self, v->ndim, v->sizes, v->strides) == 0 && mt_ag_bump(self) == 0) {
        self->offset = v->offset;
        if (node == NULL || mt_ag_set_output(node, self, 0) == 0) {
            Py_INCREF(self);
            result = (PyObject *)self;
        }
    }
    Py_DECREF(v);
    Py_XDECREF(node);
    return result;
}

PyObject *
mt_inplace_view(mt_TensorObject *self, int code, int ndims, const int64_t *dims, int one_dim)
{
    mt_TensorObject *in[1] = {self};
    mt_TensorObject *v;
    mt_node *node = NULL;
    int needed = mt_ag_needed(1, in);

    if (needed && mt_ag_check_inplace(self) < 0) {
        return NULL;
    }
    if (code == MT_INPLACE_VIEW_T && self->ndim > 2) {
        /* t()'s check, naming the in-place form as torch's does */
        PyErr_Format(PyExc_RuntimeError, "t_() expects a tensor with <= 2 dimensions, but self is %dD", self->ndim);
        return NULL;
    }
    MT_BELOW_AUTOGRAD(v = view_of(self, code, ndims, dims));
    if (v == NULL) {
        return NULL;
    }
    if (needed && (node = mt_ag_inplace_view_node(code, self, ndims, dims, one_dim)) == NULL) {
        Py_DECREF(v);
        return NULL;
    }
    return become_view(self, v, node);
}

PyObject *
mt_as_strided_inplace(mt_TensorObject *self, int n, const int64_t *sizes, int nstrides, const int64_t *strides,
                      int has_offset, int64_t offset)
{
    mt_TensorObject *in[1] = {self};
    mt_TensorObject *v;
    mt_node *node = NULL;
    int needed = mt_ag_needed(1, in);

    if (needed && mt_ag_check_inplace(self) < 0) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(v = mt_as_strided(self, n, sizes, nstrides, strides, has_offset, offset));
    if (v == NULL) {
        return NULL;
    }
    if (needed && (node = mt_ag_as_strided_node(1, self, v)) == NULL) {
        Py_DECREF(v);
        return NULL;
    }
    return become_view(self, v, node);
}

PyObject *
mt_set_(mt_TensorObject *self, mt_TensorObject *source, int64_t offset, int n, const int64_t *sizes, int nstrides,
        const int64_t *strides)
{
    mt_TensorObject *in[2] = {self, source};

    if (mt_ag_needed(2, in) && mt_ag_check_inplace(self) < 0) {
        return NULL;
    }
    if (mt_set_storage_geometry(self, source->storage, offset, n, sizes, nstrides, strides) < 0 ||
        mt_ag_bump(self) < 0 || mt_ag_set_(self, source) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}
