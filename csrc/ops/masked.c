/* masked.c: masked_fill, masked_select, masked_scatter and take, with torch's checks and messages. They are composed
 * from device-generic pieces: where() against the value as a 0-d tensor of self's dtype (masked_fill),
 * advanced indexing with the broadcast mask (masked_select; masked_scatter writes the source's first
 * elements through it), gather over the flattened tensor with the
 * index values checked and wrapped on the host (take). Each computes below autograd and records torch's
 * node (MaskedFillBackward0/1, MaskedSelectBackward0, MaskedScatterBackward0, TakeBackward0: autograd/gather.c). This file owns
 * these ops' semantics, not kernels or argument parsing. */
#include "masked.h"

#include <string.h>

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "../core/device.h"
#include "../core/dtype.h"
#include "convert.h"
#include "copy.h"
#include "dispatch.h"
#include "elementwise.h"
#include "gather.h"
#include "index.h"
#include "reduce.h"
#include "shape.h"
#include "../core/warn.h"

typedef mt_TensorObject T;

/* torch's name of a dtype in masked_fill_'s message (caffe2's TypeMeta names: the C++ type's). */
#define type_meta_name mt_dtype_c_name

static int
check_bool_mask(T *mask, const char *message_prefix)
{
    if (mask->dtype == MT_BOOL) {
        return 0;
    }
    if (message_prefix != NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s%s", message_prefix, type_meta_name(mask->dtype));
    }
    else {
        PyErr_SetString(PyExc_RuntimeError, "masked_select: expected BoolTensor for mask");
    }
    return -1;
}

/* ---- masked_fill ------------------------------------------------------------------------------------ */

/* The value as a 0-d tensor of self's dtype on self's device. A value tensor is read as its item first,
 * as torch's kernel does, with the same overflow check as a number. */
static T *
fill_value(T *self, T *value_tensor, mt_scalar value)
{
    T *v;

    if (value_tensor != NULL) {
        PyObject *item = mt_tensor_item(value_tensor);
        int ok = item != NULL ? mt_scalar_from_object(item, &value) : -1;

        Py_XDECREF(item);
        if (ok < 0 || mt_scalar_checked(value, self->dtype, &value) < 0) {
            return NULL;
        }
        return mt_copy_to(value_tensor, self->dtype, mt_tensor_device(self));
    }
    if (mt_scalar_checked(value, self->dtype, &value) < 0) {
        return NULL;
    }
    v = mt_tensor_empty(0, NULL, self->dtype, mt_tensor_device(self));
    if (v != NULL && mt_fill_(v, value) < 0) {
        Py_CLEAR(v);
    }
    return v;
}

int
mt_check_masked_fill_mask(T *mask)
{
    return check_bool_mask(mask, "masked_fill_ only supports boolean masks, but got mask with dtype ");
}

PyObject *
mt_masked_fill(T *self, T *mask, T *value_tensor, mt_scalar value, int inplace)
{
    int nout;
    int64_t shape[MT_MAX_DIMS];
    T *v = NULL, *r = NULL;
    mt_operand a, b;

    if (mt_check_masked_fill_mask(mask) < 0) {
        return NULL;
    }
    if (value_tensor != NULL && value_tensor->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                     value_tensor->ndim);
        return NULL;
    }
    /* the operands in the order torch's kernels broadcast them: (self, mask) in place, else (mask, self), on
     * the meta device (mask, value, self) */
    if (inplace ? mt_broadcast_operands(2, (T *const[]){self, mask}, &nout, shape) < 0
                : mt_broadcast_operands(3, (T *const[]){mask, NULL, self}, &nout, shape) < 0) {
        return NULL;
    }
    if (inplace) {
        if (nout != self->ndim || memcmp(shape, self->sizes, sizeof(int64_t) * (size_t)nout) != 0) {
            char a1[1024], a2[1024];
            mt_format_shape(self->ndim, self->sizes, a1, sizeof(a1));
            mt_format_shape(nout, shape, a2, sizeof(a2));
            PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a1, a2);
            return NULL;
        }
        if (mt_ag_check_inplace(self) < 0) {
            return NULL;
        }
    }
    v = fill_value(self, value_tensor, value);
    if (v == NULL) {
        return NULL;
    }
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.tensor = v;
    b.tensor = self;
    MT_BELOW_AUTOGRAD(r = (T *)mt_where(mask, &a, &b));
    Py_DECREF(v);
    if (r == NULL) {
        return NULL;
    }
    if (inplace) {
        int rc;
        MT_BELOW_AUTOGRAD(rc = mt_copy_(self, r));
        Py_DECREF(r);
        if (rc < 0 || mt_ag_bump(self) < 0) {
            return NULL;
        }
        Py_INCREF(self);
        r = self;
    }
    if (mt_ag_masked_fill(self, mask, value_tensor, r) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

/* ---- masked_select ---------------------------------------------------------------------------------- */

PyObject *
mt_masked_select(T *self, T *mask)
{
    int nout;
    int64_t shape[MT_MAX_DIMS];
    T *s = NULL, *m = NULL, *r = NULL;

    if (check_bool_mask(mask, NULL) < 0 ||
        mt_broadcast_shapes(mask->ndim, mask->sizes, self->ndim, self->sizes, &nout, shape) < 0) {
        return NULL;
    }
    if (mt_tensor_device(self).type == MT_DEVICE_META || mt_tensor_device(mask).type == MT_DEVICE_META) {
        /* its length is the mask's count of true elements: torch has no meta kernel for it */
        mt_raise_no_meta_kernel("aten::masked_select");
        return NULL;
    }
    MT_BELOW_AUTOGRAD({
        s = mt_expand(self, nout, shape);
        m = s != NULL ? mt_expand(mask, nout, shape) : NULL;
        r = m != NULL ? (T *)mt_index_by_mask(s, m) : NULL;
    });
    Py_XDECREF(s);
    if (r != NULL && mt_ag_masked_select(self, m, r) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(m);
    return (PyObject *)r;
}

/* ---- masked_scatter ---------------------------------------------------------------------------------- */

/* The number of True elements of a bool tensor, or -1. */
static int64_t
count_true(T *mask)
{
    PyObject *sum, *item;
    int64_t n = -1;

    MT_BELOW_AUTOGRAD(sum = mt_reduce(MT_REDUCTION_SUM, mask, NULL, 0, 0, MT_NUM_DTYPES));
    item = sum != NULL ? mt_tensor_item((T *)sum) : NULL;
    if (item != NULL) {
        n = PyLong_AsLongLong(item);
    }
    Py_XDECREF(item);
    Py_XDECREF(sum);
    return n;
}

/* torch's masked_scatter: self (and the mask) broadcast together, cloned contiguous, then
 * masked_scatter_; masked_scatter_: the mask expanded to self's shape, and source's first elements
 * written in row-major order where it is True (torch's kernel iterates linearly). */
PyObject *
mt_masked_scatter(T *self, T *mask, T *source, int inplace)
{
    int nout = self->ndim;
    int64_t shape[MT_MAX_DIMS];
    T *target = NULL, *m = NULL, *flat = NULL, *head = NULL, *values = NULL;
    int64_t n, numel = mt_tensor_numel(source);
    int rc = -1;

    if (inplace) {
        if (mt_check_no_internal_overlap(self) < 0) {
            return NULL;
        }
        memcpy(shape, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    }
    else if (mt_broadcast_shapes(mask->ndim, mask->sizes, self->ndim, self->sizes, &nout, shape) < 0) {
        return NULL;
    }
    if (self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError, "masked_scatter: expected self and source to have same dtypes but got%s and %s",
                     mt_dtype_scalar_name(self->dtype), mt_dtype_scalar_name(source->dtype));
        return NULL;
    }
    MT_BELOW_AUTOGRAD(m = mt_expand(mask, nout, shape));
    if (m == NULL) {
        return NULL;
    }
    if (mask->dtype == MT_UINT8 &&
        mt_warn(PyExc_UserWarning, "masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
                                   "deprecated,please use a mask with dtype torch.bool instead.") < 0) {
        goto done;
    }
    if (mask->dtype != MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype %s",
                     mt_dtype_scalar_name(mask->dtype));
        goto done;
    }
    if (inplace && mt_ag_check_inplace(self) < 0) {
        goto done;
    }
    n = count_true(m);
    if (n < 0) {
        goto done;
    }
    if (numel < n) {
        PyErr_SetString(PyExc_RuntimeError, "Number of elements of source < number of ones in mask");
        goto done;
    }
    MT_BELOW_AUTOGRAD({
        if (inplace) {
            Py_INCREF(self);
            target = self;
        }
        else {
            T *e = mt_expand(self, nout, shape);
            target = e != NULL ? mt_clone_in_format(e, MT_CONTIGUOUS_FORMAT) : NULL;
            Py_XDECREF(e);
        }
        /* a copy of source's first n elements: source may share memory with self */
        flat = target != NULL ? mt_reshape(source, 1, &numel) : NULL;
        head = flat != NULL ? mt_narrow(flat, 0, 0, n) : NULL;
        values = head != NULL ? mt_clone_in_format(head, MT_CONTIGUOUS_FORMAT) : NULL;
        rc = values != NULL && n > 0 ? mt_index_put_by_mask(target, m, values) : (values != NULL ? 0 : -1);
    });
    if (rc == 0 && inplace) {
        rc = mt_ag_bump(self);
    }
    if (rc == 0) {
        rc = mt_ag_masked_scatter(self, m, source, target);
    }

done:
    Py_XDECREF(m);
    Py_XDECREF(flat);
    Py_XDECREF(head);
    Py_XDECREF(values);
    if (rc < 0) {
        Py_XDECREF(target);
        return NULL;
    }
    return (PyObject *)target;
}

/* ---- take ------------------------------------------------------------------------------------------- */

PyObject *
mt_take(T *self, T *index)
{
    int64_t numel = mt_tensor_numel(self), n = mt_tensor_numel(index);
    mt_device device = mt_tensor_device(self);
    T *host = NULL, *contig = NULL, *wrapped = NULL, *flat = NULL, *r = NULL;
    mt_TensorObject *in[2] = {self, index};
    mt_device common;
    int64_t *w;

    if (index->dtype != MT_INT64) {
        /* torch's meta function (meta_take) names the dtype as Python prints it */
        PyErr_Format(PyExc_RuntimeError, "take(): Expected a long tensor for index, but got %s%s",
                     device.type == MT_DEVICE_META ? "minitorch." : "",
                     device.type == MT_DEVICE_META ? mt_dtype_name(index->dtype) : mt_dtype_scalar_name(index->dtype));
        return NULL;
    }
    if (mt_check_same_device(NULL, 2, in, &common) < 0) {
        return NULL;
    }
    if (numel == 0 && n > 0) {
        PyErr_SetString(PyExc_IndexError, "take(): tried to take from an empty tensor");
        return NULL;
    }
    /* the index values, checked and wrapped, as a 1-D int64 tensor on self's device; a meta index has
     * none, and torch's meta kernel checks none */
    if (mt_tensor_device(index).type == MT_DEVICE_META) {
        wrapped = mt_reshape(index, 1, &n);
        if (wrapped == NULL) {
            return NULL;
        }
        goto gather;
    }
    host = mt_host_readable(index);
    contig = host != NULL ? mt_tensor_contiguous(host) : NULL;
    Py_XDECREF(host);
    if (contig == NULL) {
        return NULL;
    }
    wrapped = mt_tensor_empty(1, &n, MT_INT64, mt_cpu_device());
    if (wrapped == NULL) {
        Py_DECREF(contig);
        return NULL;
    }
    w = (int64_t *)mt_tensor_data(wrapped);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ((const int64_t *)mt_tensor_data(contig))[i];
        if (v < -numel || v >= numel) {
            PyErr_Format(PyExc_IndexError, "out of range: tried to access index %lld on a tensor of %lld elements.",
                         (long long)v, (long long)numel);
            Py_DECREF(contig);
            Py_DECREF(wrapped);
            return NULL;
        }
        w[i] = v < 0 ? v + numel : v;
    }
    Py_DECREF(contig);
    if (device.type != MT_DEVICE_CPU) {
        Py_SETREF(wrapped, mt_copy_to(wrapped, MT_INT64, device));
        if (wrapped == NULL) {
            return NULL;
        }
    }
gather:
    MT_BELOW_AUTOGRAD({
        flat = mt_reshape(self, 1, &numel);
        T *g = flat != NULL ? (T *)mt_gather(flat, 0, wrapped) : NULL;
        r = g != NULL ? mt_view(g, index->ndim, index->sizes) : NULL;
        Py_XDECREF(g);
    });
    Py_XDECREF(flat);
    if (r != NULL && mt_ag_take(self, wrapped, r) < 0) {
        Py_CLEAR(r);
    }
    Py_DECREF(wrapped);
    return (PyObject *)r;
}
