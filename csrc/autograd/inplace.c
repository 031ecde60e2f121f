/* inplace.c: an in-place op on a view, as torch records it (torch/csrc/autograd/functions/tensor.cpp,
 * CopySlices). Writing through a view changes its base, so the base's history changes: the base gets a
 * CopySlices node whose backward takes the base's gradient, runs the op's own formula on the part the view
 * covers, writes the result back into that part and sends the whole on to the base's old history (and the
 * op's other inputs their gradients). The view itself becomes a view of the rebased base again: an
 * AsStridedBackward0 node that puts its gradient into a zero tensor shaped like the base. Only the geometry
 * of base and view is kept (no tensor), so no node holds the base it belongs to. */
#include "autograd.h"

#include <string.h>

#include "../ops/copy.h"
#include "../ops/shape.h"
#include "ops_for_grad.h"

/* The geometry in node->extra (bytes of int64): base ndim, base strides, view ndim, view sizes, view
 * strides, view offset from the base's first element. The base's sizes are the node's meta[0]. */
typedef struct {
    int base_ndim;
    const int64_t *base_strides;
    int view_ndim;
    const int64_t *view_sizes, *view_strides;
    int64_t view_offset;
} geometry;

static PyObject *
geometry_pack(const mt_TensorObject *base, const mt_TensorObject *view)
{
    size_t n = 3 + (size_t)base->ndim + 2 * (size_t)view->ndim;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(int64_t)));
    int64_t *p;

    if (bytes == NULL) {
        return NULL;
    }
    p = (int64_t *)PyBytes_AS_STRING(bytes);
    *p++ = base->ndim;
    memcpy(p, base->strides, sizeof(int64_t) * (size_t)base->ndim);
    p += base->ndim;
    *p++ = view->ndim;
    memcpy(p, view->sizes, sizeof(int64_t) * (size_t)view->ndim);
    p += view->ndim;
    memcpy(p, view->strides, sizeof(int64_t) * (size_t)view->ndim);
    p += view->ndim;
    *p = view->offset - base->offset;
    return bytes;
}

static geometry
geometry_read(PyObject *bytes)
{
    const int64_t *p = (const int64_t *)PyBytes_AS_STRING(bytes);
    geometry g;

    g.base_ndim = (int)*p++;
    g.base_strides = p;
    p += g.base_ndim;
    g.view_ndim = (int)*p++;
    g.view_sizes = p;
    p += g.view_ndim;
    g.view_strides = p;
    p += g.view_ndim;
    g.view_offset = *p;
    return g;
}

/* Zeros laid out as the base was (its sizes from meta, its strides from g), holding grad's dtype and
 * device. A new reference or NULL. */
static mt_TensorObject *
base_like(const mt_input_meta *m, const geometry *g, const mt_TensorObject *grad)
{
    int64_t extent = 1;
    mt_storage *storage;
    mt_TensorObject *z;
    mt_scalar zero;

    for (int d = 0; d < m->ndim; d++) {
        if (m->sizes[d] == 0) {
            extent = 0;
            break;
        }
        extent += (m->sizes[d] - 1) * g->base_strides[d];
    }
    storage = mt_storage_new((size_t)extent * mt_dtype_size(grad->dtype), mt_tensor_device(grad));
    if (storage == NULL) {
        return NULL;
    }
    z = mt_tensor_from_storage(storage, m->ndim, m->sizes, g->base_strides, 0, grad->dtype);
    mt_storage_decref(storage);
    memset(&zero, 0, sizeof zero);
    zero.kind = MT_INT64;
    if (z == NULL || mt_fill_(z, zero) < 0) {
        Py_XDECREF(z);
        return NULL;
    }
    return z;
}

/* The view's part of a tensor laid out as the base, as an autograd view of it (as_strided): under
 * create_graph the copies into it are recorded, so the gradients computed here have history. */
static mt_TensorObject *
view_part(mt_TensorObject *base, const geometry *g)
{
    return mt_as_strided(base, g->view_ndim, g->view_sizes, g->view_ndim, g->view_strides, 1, g->view_offset);
}

/* dst.copy_(src) as the public op (recorded under create_graph); 0 or -1 */
static int
recorded_copy(mt_TensorObject *dst, mt_TensorObject *src)
{
    mt_TensorObject *copied = mt_g_copy_(dst, src);

    Py_XDECREF(copied);
    return copied != NULL ? 0 : -1;
}

/* ---- CopySlices ------------------------------------------------------------------------------------ */

/* extra is (the op's own node, the geometry); its formula runs on the view's part of the base's gradient */
static int
copy_slices_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_node *fn = (mt_node *)PyTuple_GET_ITEM(node->extra, 0);
    geometry g = geometry_read(PyTuple_GET_ITEM(node->extra, 1));
    mt_TensorObject *grad = (mt_TensorObject *)grads[0], *part = NULL, *result, *slice;
    PyObject *fn_grads[1], *small[8], **fn_out = small;
    int rc = -1;

    result = base_like(&node->meta[0], &g, grad);
    if (result == NULL) {
        return -1;
    }
    if (recorded_copy(result, grad) < 0 || (part = view_part(result, &g)) == NULL) {
        goto done;
    }
    slice = mt_g_clone_contiguous(part);
    if (slice == NULL) {
        goto done;
    }
    if (fn->num_inputs > 8) {
        fn_out = PyMem_Calloc((size_t)fn->num_inputs, sizeof(PyObject *));
        if (fn_out == NULL) {
            Py_DECREF(slice);
            PyErr_NoMemory();
            goto done;
        }
    }
    else {
        memset(small, 0, sizeof small);
    }
    fn_grads[0] = (PyObject *)slice;
    rc = fn->fn->apply(fn, fn_grads, fn_out);
    Py_DECREF(slice);
    if (rc == 0) {
        /* the op's gradient for the view's old value goes back into the view's part of the base */
        mt_TensorObject *value = (mt_TensorObject *)fn_out[0];
        if (value == NULL) {
            value = mt_g_zeros(part->ndim, part->sizes, part->dtype, mt_tensor_device(part));
            rc = value != NULL ? recorded_copy(part, value) : -1;
            Py_XDECREF(value);
        }
        else {
            rc = recorded_copy(part, value);
        }
    }
    if (rc == 0) {
        Py_INCREF(result);
        out[0] = (PyObject *)result;
        for (int i = 1; i < fn->num_inputs; i++) {
            out[i] = fn_out[i];
            fn_out[i] = NULL;
        }
    }
    for (int i = 0; i < fn->num_inputs; i++) {
        Py_XDECREF(fn_out[i]);
    }
    if (fn_out != small) {
        PyMem_Free(fn_out);
    }

done:
    Py_XDECREF(part);
    Py_DECREF(result);
    return rc;
}

/* the view's gradient placed into zeros shaped like the base */
static int
as_strided_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    geometry g = geometry_read(node->extra);
    mt_TensorObject *part = NULL, *z = base_like(&node->meta[0], &g, (mt_TensorObject *)grads[0]);

    if (z == NULL) {
        return -1;
    }
    if ((part = view_part(z, &g)) == NULL || recorded_copy(part, (mt_TensorObject *)grads[0]) < 0) {
        Py_XDECREF(part);
        Py_DECREF(z);
        return -1;
    }
    Py_DECREF(part);
    out[0] = (PyObject *)z;
    return 0;
}

static mt_derivative d_copy_slices = {"CopySlices", copy_slices_backward, NULL};
static mt_derivative d_as_strided = {"AsStridedBackward0", as_strided_backward, NULL};

int
mt_ag_set_inplace_output(mt_node *node, mt_TensorObject *self, int n, mt_TensorObject *const *inputs)
{
    mt_TensorObject *base = (mt_TensorObject *)self->base;
    mt_TensorObject **with_base = NULL;
    mt_node *slices = NULL, *view_node = NULL;
    PyObject *geom = NULL;
    int rc = -1;

    if (base == NULL) {
        return mt_ag_set_output(node, self, 0);
    }
    if (!mt_dtype_is_floating(self->dtype)) {
        return 0;
    }
    /* CopySlices over the base's old history and the op's other inputs */
    with_base = PyMem_Calloc((size_t)n + 1, sizeof(mt_TensorObject *));
    if (with_base == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(with_base, inputs, sizeof(mt_TensorObject *) * (size_t)n);
    with_base[0] = base;
    slices = mt_ag_node(&d_copy_slices, n, with_base, 1);
    geom = slices != NULL ? geometry_pack(base, self) : NULL;
    if (geom == NULL) {
        goto done;
    }
    slices->extra = PyTuple_Pack(2, (PyObject *)node, geom);
    if (slices->extra == NULL || mt_ag_set_output(slices, base, 0) < 0) {
        goto done;
    }
    /* the view: AsStridedBackward0 over the rebased base */
    view_node = mt_ag_node(&d_as_strided, 1, with_base, 1);
    if (view_node == NULL) {
        goto done;
    }
    view_node->extra = geom;
    geom = NULL;
    rc = mt_ag_set_output(view_node, self, 0);

done:
    PyMem_Free(with_base);
    Py_XDECREF(geom);
    Py_XDECREF(slices);
    Py_XDECREF(view_node);
    return rc;
}
