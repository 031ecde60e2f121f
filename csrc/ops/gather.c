/* gather.c: the indexing ops along one dim: gather, scatter (a tensor or a number, reduce='add' /
 * 'multiply'), scatter_add, scatter_reduce, index_select, index_add, index_reduce, index_fill, index_copy,
 * put (over the flattened tensor) and their in-place forms, with torch's checks and
 * messages (ATen's ScatterGatherChecks.h and TensorAdvancedIndexing.cpp). Each op describes its loop to
 * the device's index_dim kernel (kernels/kernel_types.h, mt_index_dim_args); the index values are read
 * on the host and checked first, so a bad index raises torch's error on every device and no kernel ever
 * sees one. Out-of-place results are new contiguous tensors, as torch's. Each op records its autograd
 * node (autograd/gather.c). This file owns these ops' semantics, not argument parsing or kernels. */
#include "gather.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "../core/device.h"
#include "../core/dtype.h"
#include "convert.h"
#include "copy.h"
#include "dispatch.h"
#include "runner.h"
#include "elementwise.h"
#include "index.h"

typedef mt_TensorObject T;

/* A tensor's sizes and strides with at least one dim: a 0-d tensor is one element of size 1 (torch's
 * ensure_nonempty_dim / ensure_nonempty_size). */
typedef struct {
    int ndim;
    int64_t sizes[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS];
} geometry;

static void
geometry_of(const T *t, geometry *g)
{
    if (t->ndim == 0) {
        g->ndim = 1;
        g->sizes[0] = 1;
        g->strides[0] = 0;
        return;
    }
    g->ndim = t->ndim;
    memcpy(g->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(g->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
}

static int
nonempty_ndim(const T *t)
{
    return t->ndim > 0 ? t->ndim : 1;
}

static int
is_meta(const T *t)
{
    return mt_tensor_device(t).type == MT_DEVICE_META;
}

/* t's shape as torch's messages print it: "[2, 3]" from its C++ checks, "torch.Size([2, 3])" from its
 * meta functions (torch/_meta_registrations.py and torch/_refs print a tensor's .shape). */
static void
message_shape(const T *t, int meta, char *buf, size_t len)
{
    char shape[512];

    mt_format_shape(t->ndim, t->sizes, shape, sizeof(shape));
    snprintf(buf, len, meta ? "minitorch.Size(%s)" : "%s", shape);
}

static int
is_index_dtype(const T *index)
{
    return index->dtype == MT_INT64 || index->dtype == MT_INT32;
}

/* torch's Python decompositions of index_add, index_copy and index_fill (the meta device's) take a
 * 0-d or 1-d index. */
static int
meta_index_dims_check(const T *index)
{
    if (index->ndim > 1) {
        PyErr_Format(PyExc_RuntimeError, "Index should have dimension 1 or 0 (got %d)", index->ndim);
        return -1;
    }
    return 0;
}

/* ---- the index values --------------------------------------------------------------------------- */

/* The index's values as a contiguous int64 tensor in host memory (new reference). */
static T *
index_on_host(T *index)
{
    T *host = mt_host_readable(index);
    T *r;

    if (host == NULL) {
        return NULL;
    }
    if (host->dtype != MT_INT64) {
        Py_SETREF(host, mt_copy_to(host, MT_INT64, mt_tensor_device(host)));
        if (host == NULL) {
            return NULL;
        }
    }
    r = mt_tensor_contiguous(host);
    Py_DECREF(host);
    return r;
}

/* The position (row-major) of the first index value outside [0, size), or -1 when all are inside;
 * *values is the host copy (new reference, for the caller's message). */
static int64_t
first_out_of_range(T *index, int64_t size, T **values)
{
    const int64_t *v;
    int64_t n;

    if (mt_tensor_device(index).type == MT_DEVICE_META) {
        /* no values to check, as torch's meta kernels check none */
        Py_INCREF(index);
        *values = index;
        return -1;
    }
    *values = index_on_host(index);
    if (*values == NULL) {
        return -2;
    }
    v = (const int64_t *)mt_tensor_data(*values);
    n = mt_tensor_numel(*values);
    for (int64_t i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] >= size) {
            return i;
        }
    }
    return -1;
}

/* torch's message for gather, scatter and index_add: RuntimeError "index 5 is out of bounds for
 * dimension 0 with size 3". 0, or -1 with it raised. */
static int
check_index_values(T *index, int dim, int64_t size)
{
    T *values;
    int64_t bad = first_out_of_range(index, size, &values);

    if (bad == -2) {
        return -1;
    }
    if (bad >= 0) {
        PyErr_Format(PyExc_RuntimeError, "index %lld is out of bounds for dimension %d with size %lld",
                     (long long)((const int64_t *)mt_tensor_data(values))[bad], dim, (long long)size);
    }
    Py_DECREF(values);
    return bad >= 0 ? -1 : 0;
}

/* ---- running the kernel -------------------------------------------------------------------------- */

/* t on `device` (a new reference): t itself, or a copy of it there (a 0-d CPU tensor next to a device
 * tensor), in `dtype`. */
static T *
on_device(T *t, mt_dtype dtype, mt_device device)
{
    if (t->dtype == dtype && mt_device_equal(mt_tensor_device(t), device)) {
        Py_INCREF(t);
        return t;
    }
    return mt_copy_to(t, dtype, device);
}

/* Fills the loop of `it` (the iteration geometry) into a: dst over the same dims with dst_g's strides,
 * src over src_g's (NULL: the value), the index over index_strides; the indexed side's stride at dim
 * moves to indexed_stride. */
static void
describe(mt_index_dim_args *a, const geometry *it, int dim, T *dst, const geometry *dst_g, T *src,
         const geometry *src_g, T *index, const int64_t *index_strides, int indexed_dst)
{
    const geometry *indexed = indexed_dst ? dst_g : src_g;

    a->ndim = it->ndim;
    a->dim = dim;
    memcpy(a->shape, it->sizes, sizeof(int64_t) * (size_t)it->ndim);
    a->dtype = dst->dtype;
    a->indexed_dst = indexed_dst;
    a->indexed_size = indexed->sizes[dim];
    a->indexed_stride = indexed->strides[dim];
    a->dst = mt_tensor_data(dst);
    memcpy(a->dst_strides, dst_g->strides, sizeof(int64_t) * (size_t)it->ndim);
    a->src = src != NULL ? mt_tensor_data(src) : NULL;
    if (src != NULL) {
        memcpy(a->src_strides, src_g->strides, sizeof(int64_t) * (size_t)it->ndim);
    }
    else {
        memset(a->src_strides, 0, sizeof(int64_t) * (size_t)it->ndim);
    }
    if (indexed_dst) {
        a->dst_strides[dim] = 0;
    }
    else {
        a->src_strides[dim] = 0;
    }
    a->index = (const int64_t *)mt_tensor_data(index);
    memcpy(a->index_strides, index_strides, sizeof(int64_t) * (size_t)it->ndim);
}

static int
run(const mt_index_dim_args *a, T *dst, T *src, T *index)
{
    mt_device device = mt_tensor_device(dst);
    const mt_TensorObject *operands[3] = {dst, src, index};
    int64_t numel = 1;
    int r;

    if (mt_backend_for(device) == NULL) {
        return -1;
    }
    for (int d = 0; d < a->ndim; d++) {
        numel *= a->shape[d];
    }
    if (numel == 0) {
        return 0;
    }
    MT_RUN_BACKEND(r, device, numel >= 65536, operands, 3, index_dim, a);
    return r;
}

/* A new contiguous tensor of `sizes` with self's dtype and device. */
static T *
new_result(T *self, int ndim, const int64_t *sizes)
{
    return mt_tensor_empty_format(ndim, sizes, self->dtype, mt_tensor_device(self), MT_CONTIGUOUS_FORMAT);
}

/* The tensor an in-place form writes (self, checked) or a contiguous copy of self (out of place). */
static T *
target_of(T *self, int inplace)
{
    T *r;

    if (inplace) {
        if (mt_ag_check_inplace(self) < 0 || mt_check_no_internal_overlap(self) < 0) {
            return NULL;
        }
        Py_INCREF(self);
        return self;
    }
    r = new_result(self, self->ndim, self->sizes);
    if (r != NULL && mt_copy_(r, self) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

static int
same_devices(T *self, T *index, T *src)
{
    mt_TensorObject *in[3] = {self, index, src};
    mt_device common;

    return mt_check_same_device(NULL, src != NULL ? 3 : 2, in, &common);
}

/* ---- gather -------------------------------------------------------------------------------------- */

/* The strides of a 1-D index over an iteration of ndim dims: its own along dim, 0 elsewhere. */
static void
vector_index_strides(const T *index, int ndim, int dim, int64_t *strides)
{
    memset(strides, 0, sizeof(int64_t) * (size_t)ndim);
    strides[dim] = index->ndim == 1 ? index->strides[0] : 0;
}

/* out := self's elements picked along dim by index (gather's copy; `vector`: index_select's 1-D index,
 * read along dim only). Steals out: returns it, or NULL with the exception. */
static T *
copy_along(T *out, T *self, const geometry *sg, int dim, T *index, int vector)
{
    geometry rg, ig;
    int64_t istrides[MT_MAX_DIMS];
    mt_index_dim_args a;
    T *dindex;

    if (out == NULL || mt_tensor_numel(out) == 0) {
        return out;
    }
    dindex = on_device(index, MT_INT64, mt_tensor_device(self));
    if (dindex == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    geometry_of(out, &rg);
    geometry_of(dindex, &ig);
    if (vector) {
        vector_index_strides(dindex, rg.ndim, dim, istrides);
    }
    describe(&a, &rg, dim, out, &rg, self, sg, dindex, vector ? istrides : ig.strides, 0);
    a.mode = MT_INDEX_DIM_COPY;
    if (run(&a, out, self, dindex) < 0) {
        Py_CLEAR(out);
    }
    Py_DECREF(dindex);
    return out;
}

PyObject *
mt_gather(T *self, int64_t dim_arg, T *index)
{
    geometry sg, ig;
    T *out;
    int dim;

    if (mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 || same_devices(self, index, NULL) < 0) {
        return NULL;
    }
    if (mt_tensor_numel(index) > 0) {
        if (!is_index_dtype(index)) {
            /* torch's meta function names the dtype */
            PyErr_Format(PyExc_RuntimeError, "gather(): Expected dtype int32/int64 for index%s%s",
                         is_meta(self) ? ", but got minitorch." : "", is_meta(self) ? mt_dtype_name(index->dtype) : "");
            return NULL;
        }
        if (nonempty_ndim(index) != nonempty_ndim(self)) {
            PyErr_SetString(PyExc_RuntimeError, "Index tensor must have the same number of dimensions as input tensor");
            return NULL;
        }
        geometry_of(self, &sg);
        geometry_of(index, &ig);
        for (int d = 0; d < sg.ndim; d++) {
            if (d != dim && ig.sizes[d] > sg.sizes[d]) {
                char a1[600], a2[600];
                message_shape(index, is_meta(self), a1, sizeof(a1));
                message_shape(self, is_meta(self), a2, sizeof(a2));
                PyErr_Format(PyExc_RuntimeError,
                             "Size does not match at dimension %d expected index %s to be no larger than self %s "
                             "apart from dimension %d",
                             d, a1, a2, dim);
                return NULL;
            }
        }
        if (check_index_values(index, dim, sg.sizes[dim]) < 0) {
            return NULL;
        }
    }
    out = copy_along(new_result(self, index->ndim, index->sizes), self, &sg, dim, index, 0);
    if (out != NULL && mt_ag_gather(self, dim, index, out) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

/* ---- scatter, scatter_add ---------------------------------------------------------------------------- */

/* torch's scatter checks (ScatterGatherChecks.h): dtypes and shapes, then (check_values) the index
 * values; scatter_reduce checks its reduce= between the two. torch's meta function (scatter_shape_check
 * in torch/_meta_registrations.py) checks nothing more for an empty index, compares the index with self
 * and then with src, and words those two messages apart. */
static int
scatter_checks(T *self, int dim, T *index, T *src, int check_values)
{
    geometry sg, ig, xg;
    int meta = is_meta(self), wrong_self = 0, wrong_src = 0;
    char a1[600], a2[600], a3[600];

    if (!is_index_dtype(index)) {
        PyErr_SetString(PyExc_RuntimeError, "scatter(): Expected dtype int32/int64 for index");
        return -1;
    }
    if (src != NULL && src->dtype != self->dtype) {
        PyErr_SetString(PyExc_RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype");
        return -1;
    }
    if (mt_tensor_numel(index) == 0 && meta) {
        return 0;
    }
    if (mt_tensor_numel(index) > 0 && nonempty_ndim(self) != nonempty_ndim(index)) {
        PyErr_SetString(PyExc_RuntimeError, "Index tensor must have the same number of dimensions as self tensor");
        return -1;
    }
    geometry_of(self, &sg);
    geometry_of(index, &ig);
    for (int d = 0; d < ig.ndim && meta; d++) {
        wrong_self |= d != dim && ig.sizes[d] > sg.sizes[d];
    }
    if (wrong_self) {
        message_shape(index, meta, a1, sizeof(a1));
        message_shape(self, meta, a2, sizeof(a2));
        PyErr_Format(PyExc_RuntimeError, "Expected index %s to be no larger than self %s apart from dimension %d",
                     a1, a2, dim);
        return -1;
    }
    if (src != NULL && nonempty_ndim(src) != nonempty_ndim(index)) {
        PyErr_SetString(PyExc_RuntimeError, "Index tensor must have the same number of dimensions as src tensor");
        return -1;
    }
    if (mt_tensor_numel(index) == 0) {
        return 0;
    }
    if (src != NULL) {
        geometry_of(src, &xg);
    }
    for (int d = 0; d < ig.ndim; d++) {
        wrong_self |= !meta && d != dim && ig.sizes[d] > sg.sizes[d];
        wrong_src |= src != NULL && ig.sizes[d] > xg.sizes[d];
    }
    if (wrong_self || wrong_src) {
        message_shape(index, meta, a1, sizeof(a1));
        message_shape(self, meta, a2, sizeof(a2));
        if (src != NULL) {
            message_shape(src, meta, a3, sizeof(a3));
        }
        if (meta) {
            PyErr_Format(PyExc_RuntimeError, "Expected index %s to be no larger than src %s", a1, a3);
        }
        else if (src != NULL) {
            PyErr_Format(PyExc_RuntimeError,
                         "Expected index %s to be no larger than self %s apart from dimension %d and to be no larger "
                         "size than src %s",
                         a1, a2, dim, a3);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "Expected index %s to be no larger than self %s apart from dimension %d",
                         a1, a2, dim);
        }
        return -1;
    }
    return check_values ? check_index_values(index, dim, sg.sizes[dim]) : 0;
}

/* float16 and bfloat16 sums (scatter_add, index_add into more than one dim with alpha 1): torch's CPU kernels
 * accumulate them in float32 and round each element once. *work := a float32 copy of target and *src a
 * float32 copy of itself (the caller copies *work back into target); otherwise *work stays target. */
static int
widen_for_sums(T **work, T *target, T **src)
{
    T *wide;

    if (!mt_dtype_is_reduced_floating(target->dtype) || *src == NULL) {
        return 0;
    }
    wide = mt_copy_to(*src, MT_FLOAT32, mt_tensor_device(*src));
    if (wide == NULL) {
        return -1;
    }
    Py_SETREF(*src, wide);
    *work = mt_copy_to(target, MT_FLOAT32, mt_tensor_device(target));
    return *work != NULL ? 0 : -1;
}

PyObject *
mt_scatter(T *self, int64_t dim_arg, T *index, T *src, mt_scalar value, mt_index_dim_mode mode, int reduced, int add,
           int inplace)
{
    geometry tg, ig, xg;
    T *target = NULL, *dindex = NULL, *dsrc = NULL, *work = NULL;
    mt_index_dim_args a;
    int dim;

    if (mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 || same_devices(self, index, src) < 0 ||
        scatter_checks(self, dim, index, src, 1) < 0) {
        return NULL;
    }
    if (inplace && src != NULL && mt_check_no_overlap(self, src) < 0) {
        return NULL;
    }
    target = target_of(self, inplace);
    if (target == NULL) {
        return NULL;
    }
    work = target;
    if (mt_tensor_numel(index) > 0) {
        mt_device device = mt_tensor_device(target);
        /* the kernel reads a number in self's dtype, with c10's overflow check */
        if (src == NULL && mt_scalar_checked(value, target->dtype, &value) < 0) {
            goto error;
        }
        dindex = on_device(index, MT_INT64, device);
        dsrc = src != NULL ? on_device(src, src->dtype, device) : NULL;
        if (dindex == NULL || (src != NULL && dsrc == NULL)) {
            goto error;
        }
        if (add && widen_for_sums(&work, target, &dsrc) < 0) {
            goto error;
        }
        geometry_of(work, &tg);
        geometry_of(dindex, &ig);
        if (dsrc != NULL) {
            geometry_of(dsrc, &xg);
        }
        describe(&a, &ig, dim, work, &tg, dsrc, &xg, dindex, ig.strides, 1);
        a.mode = add ? MT_INDEX_DIM_ADD : mode;
        if (dsrc == NULL) {
            memset(&a.value, 0, sizeof(a.value));
            mt_scalar_store(value, work->dtype, a.value.bytes);
        }
        if (run(&a, work, dsrc, dindex) < 0 || (work != target && mt_copy_(target, work) < 0)) {
            goto error;
        }
    }
    if (work != target) {
        Py_DECREF(work);
    }
    Py_XDECREF(dindex);
    Py_XDECREF(dsrc);
    if (inplace && mt_ag_bump(target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    if (mt_ag_scatter(add ? MT_AG_SCATTER_ADD : reduced ? MT_AG_SCATTER_REDUCE : src != NULL ? MT_AG_SCATTER_SRC
                                                                                        : MT_AG_SCATTER_VALUE,
                      self, dim, index, src, target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    return (PyObject *)target;

error:
    if (work != NULL && work != target) {
        Py_DECREF(work);
    }
    Py_XDECREF(dindex);
    Py_XDECREF(dsrc);
    Py_DECREF(target);
    return NULL;
}

/* ---- index_select, index_add ------------------------------------------------------------------------- */

/* index_select on the meta device as torch's meta function computes it (meta_index_select in
 * torch/_meta_registrations.py): self's shape with the index's element count along dim, and no check of
 * the index's dtype or dims; dim is not wrapped, so one past either end is Python's list error. */
static PyObject *
meta_index_select(T *self, int64_t dim_arg, T *index)
{
    int64_t sizes[MT_MAX_DIMS];
    T *out;
    int dim = 0;

    if (same_devices(self, index, NULL) < 0) {
        return NULL;
    }
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim > 0) {
        if (dim_arg < -self->ndim || dim_arg >= self->ndim) {
            PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
            return NULL;
        }
        dim = (int)(dim_arg < 0 ? dim_arg + self->ndim : dim_arg);
        sizes[dim] = mt_tensor_numel(index);
    }
    out = new_result(self, self->ndim, sizes);
    if (out != NULL && mt_ag_index_select(self, dim, index, out) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

PyObject *
mt_index_select(T *self, int64_t dim_arg, T *index)
{
    geometry sg;
    int64_t sizes[MT_MAX_DIMS];
    T *out, *values = NULL;
    int64_t n = mt_tensor_numel(index), bad;
    int dim;

    if (is_meta(self)) {
        return meta_index_select(self, dim_arg, index);
    }
    if (mt_wrap_dim(dim_arg, self->ndim, &dim) < 0) {
        return NULL;
    }
    if (index->ndim > 1) {
        PyErr_SetString(PyExc_IndexError, "index_select(): Index is supposed to be a vector");
        return NULL;
    }
    if (!is_index_dtype(index)) {
        PyErr_SetString(PyExc_RuntimeError, "index_select(): Expected dtype int32 or int64 for index");
        return NULL;
    }
    if (same_devices(self, index, NULL) < 0) {
        return NULL;
    }
    geometry_of(self, &sg);
    bad = first_out_of_range(index, sg.sizes[dim], &values);
    if (bad == -2) {
        return NULL;
    }
    if (bad >= 0) {
        /* torch's CPU kernels word it by path: the copy along dim 0 (or of a vector), the gather of the
         * other dims */
        if (self->ndim > 1 && dim > 0) {
            PyErr_Format(PyExc_RuntimeError, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld",
                         (long long)((const int64_t *)mt_tensor_data(values))[bad], (long long)sg.sizes[dim]);
        }
        else {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
        }
        Py_DECREF(values);
        return NULL;
    }
    Py_DECREF(values);
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim > 0) {
        sizes[dim] = n;
    }
    else if (n != 1) {
        PyErr_SetString(PyExc_IndexError, "index_select(): Index to scalar can have only 1 value");
        return NULL;
    }
    out = copy_along(new_result(self, self->ndim, sizes), self, &sg, dim, index, 1);
    if (out != NULL && mt_ag_index_select(self, dim, index, out) < 0) {
        Py_CLEAR(out);
    }
    return (PyObject *)out;
}

/* index_add_'s checks (torch's index_func_meta_impl, `name` the op in its messages), then (check_values)
 * the index values. */
static int
index_add_checks(T *self, int dim, T *index, T *source, const char *name, int check_values)
{
    int64_t n = mt_tensor_numel(index);
    int64_t along = source->ndim == 0 ? 1 : source->sizes[dim < source->ndim ? dim : 0];
    int same = source->ndim == self->ndim;

    if (index->ndim > 1) {
        char s[512];
        mt_format_shape(index->ndim, index->sizes, s, sizeof(s));
        PyErr_Format(PyExc_IndexError,
                     "%s(): Index is supposed to be a vector, but got dim: %d with type: %s and size: %s", name,
                     index->ndim, mt_dtype_scalar_name(index->dtype), s);
        return -1;
    }
    if (!is_index_dtype(index)) {
        PyErr_Format(PyExc_RuntimeError, "%s(): Expected dtype int32/int64 for index but got: %s", name,
                     mt_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError, "%s(): self (%s) and source (%s) must have the same scalar type", name,
                     mt_dtype_scalar_name(self->dtype), mt_dtype_scalar_name(source->dtype));
        return -1;
    }
    if (!(dim == 0 || dim < source->ndim)) {
        PyErr_Format(PyExc_RuntimeError, "%s(): Indexing dim %d is out of bounds of the source tensor with dim %d", name,
                     dim, source->ndim);
        return -1;
    }
    if (n != along) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s(): Number of indices (%lld) should be equal to source.size(dim): (%lld), for dim: %d", name,
                     (long long)n, (long long)along, dim);
        return -1;
    }
    for (int d = 0; same && d < self->ndim; d++) {
        if (d != dim && self->sizes[d] != source->sizes[d]) {
            same = 0;
        }
    }
    if (!same) {
        char a1[512], a2[512];
        mt_format_shape(self->ndim, self->sizes, a1, sizeof(a1));
        mt_format_shape(source->ndim, source->sizes, a2, sizeof(a2));
        PyErr_Format(PyExc_RuntimeError,
                     "source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                     "self.shape = %s source.shape = %s",
                     a1, a2);
        return -1;
    }
    return check_values ? check_index_values(index, dim, self->ndim == 0 ? 1 : self->sizes[dim]) : 0;
}

/* index_add's checks on the meta device, as torch's Python decomposition (_index_add in
 * torch/_decomp/decompositions.py) makes them: the index's dims, its element count against source's
 * along dim, and alpha's Python type against self's; neither the index's dtype nor the other dims of
 * source are checked. */
static int
meta_index_add_checks(T *self, int dim, T *index, T *source, mt_scalar alpha)
{
    /* Python's types in torch's order of "weakly lesser" (utils.is_weakly_lesser_type) */
    static const char *const types[] = {"bool", "int", "float"};
    int64_t n = index->ndim == 1 ? index->sizes[0] : 1, along = 1;
    int self_type = self->dtype == MT_BOOL ? 0 : mt_dtype_is_floating(self->dtype) ? 2 : 1;
    int alpha_type = alpha.kind == MT_BOOL ? 0 : alpha.kind == MT_INT64 ? 1 : 2;
    int source_dim;

    if (meta_index_dims_check(index) < 0) {
        return -1;
    }
    if (source->ndim > 0) {
        if (mt_wrap_dim(dim, source->ndim, &source_dim) < 0) {
            return -1;
        }
        along = source->sizes[source_dim];
    }
    if (n != along) {
        PyErr_Format(PyExc_RuntimeError, "Number of indices (%lld) should be equal to tensor.size(dim) (%lld), for dim=%d",
                     (long long)n, (long long)along, dim);
        return -1;
    }
    if (mt_scalar_to_double(alpha) != 1.0 && self_type > 0 && alpha_type > self_type) {
        PyErr_Format(PyExc_RuntimeError, "alpha argument of type <class '%s'> cannot be safely cast to type <class '%s'>!",
                     types[alpha_type], types[self_type]);
        return -1;
    }
    return 0;
}

/* source * alpha in source's dtype, computed below autograd (the node is index_add's own); NULL with
 * *skip set when alpha is 0 for bool (nothing is added); source itself when alpha is 1. */
static T *
scaled_source(T *source, mt_scalar alpha, int *skip)
{
    mt_value v;
    mt_scalar a;
    T *r = NULL;

    *skip = 0;
    /* the kernel reads alpha in the dtype, with c10's overflow check */
    if (mt_scalar_checked(alpha, source->dtype, &alpha) < 0) {
        return NULL;
    }
    memset(&v, 0, sizeof v);
    mt_scalar_store(alpha, source->dtype, v.bytes);
    a = mt_scalar_load(source->dtype, v.bytes);
    if (mt_scalar_to_double(a) == 1.0 || (source->dtype == MT_BOOL && mt_scalar_to_double(a) != 0.0)) {
        Py_INCREF(source);
        return source;
    }
    if (source->dtype == MT_BOOL) {
        *skip = 1;
        return NULL;
    }
    {
        mt_cx_operand x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        x.op.tensor = source;
        y.op.scalar = a;
        MT_BELOW_AUTOGRAD(r = (T *)mt_binary("mul", MT_BINARY_MUL, &x, &y, NULL, NULL));
    }
    return r;
}

/* index_add, and (for_put) index_put_'s accumulation: every sum in the dtype, in index order, as torch's
 * serial CPU loop `*dst += *src` adds, and neither a version bump nor a node (index_put_ makes its own) */
static PyObject *
index_add_impl(T *self, int64_t dim_arg, T *index, T *source, mt_scalar alpha, int inplace, int for_put)
{
    geometry tg, xg;
    int64_t istrides[MT_MAX_DIMS];
    T *target = NULL, *dindex = NULL, *dsrc = NULL, *scaled = NULL;
    mt_index_dim_args a;
    /* a meta result has nothing to compute */
    int dim, skip = is_meta(self) && !for_put;

    if (mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 || same_devices(self, index, source) < 0 ||
        (skip ? meta_index_add_checks(self, dim, index, source, alpha)
              : index_add_checks(self, dim, index, source, "index_add_", 1)) < 0) {
        return NULL;
    }
    if (inplace && mt_check_no_overlap(self, source) < 0) {
        return NULL;
    }
    target = target_of(self, inplace);
    if (target == NULL) {
        return NULL;
    }
    scaled = skip ? NULL : scaled_source(source, alpha, &skip);
    if (scaled == NULL && !skip) {
        goto error;
    }
    if (!skip && mt_tensor_numel(source) > 0) {
        mt_device device = mt_tensor_device(target);
        T *work = target;
        int rc;
        dindex = on_device(index, MT_INT64, device);
        dsrc = on_device(scaled, scaled->dtype, device);
        if (dindex == NULL || dsrc == NULL) {
            goto error;
        }
        /* float16 or bfloat16 with alpha other than 1, or into a 1-D target: each sum in the dtype, as
         * torch's CPU loop adds */
        if (!for_put && target->ndim > 1 && scaled == source && widen_for_sums(&work, target, &dsrc) < 0) {
            goto error;
        }
        geometry_of(work, &tg);
        geometry_of(dsrc, &xg);
        vector_index_strides(dindex, xg.ndim, dim, istrides);
        describe(&a, &xg, dim, work, &tg, dsrc, &xg, dindex, istrides, 1);
        a.mode = MT_INDEX_DIM_ADD;
        rc = run(&a, work, dsrc, dindex);
        if (rc == 0 && work != target) {
            rc = mt_copy_(target, work);
        }
        if (work != target) {
            Py_DECREF(work);
        }
        if (rc < 0) {
            goto error;
        }
    }
    Py_XDECREF(dindex);
    Py_XDECREF(dsrc);
    Py_XDECREF(scaled);
    if (for_put) {
        return (PyObject *)target;
    }
    if (inplace && mt_ag_bump(target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    if (mt_ag_index_add(self, dim, index, source, alpha, target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    return (PyObject *)target;

error:
    Py_XDECREF(dindex);
    Py_XDECREF(dsrc);
    Py_XDECREF(scaled);
    Py_DECREF(target);
    return NULL;
}

PyObject *
mt_index_add(T *self, int64_t dim, T *index, T *source, mt_scalar alpha, int inplace)
{
    return index_add_impl(self, dim, index, source, alpha, inplace, 0);
}

int
mt_index_add_each_(T *self, int64_t dim, T *index, T *source)
{
    mt_scalar one;
    PyObject *r;

    memset(&one, 0, sizeof one);
    one.kind = MT_INT64;
    one.v.i = 1;
    r = index_add_impl(self, dim, index, source, one, 1, 1);
    Py_XDECREF(r);
    return r != NULL ? 0 : -1;
}

/* ---- index_fill, index_copy ------------------------------------------------------------------------- */

/* The index's values as a contiguous int64 host tensor (new reference), each checked against
 * [-size, size) when `wrap` (negative values then count from the end, as index_fill_'s kernel reads
 * them) or [0, size); a value outside raises IndexError "<prefix>index 5 is out of bounds for dimension
 * 1 with size 4", or with prefix NULL (put_ into a tensor of `size` elements) "out of range: tried to access
 * index 10 on a tensor of 6 elements.". */
static T *
checked_vector_index(T *index, int dim, int64_t size, int wrap, const char *prefix)
{
    T *values = index_on_host(index);
    int64_t *v;
    int64_t n;

    if (values == NULL) {
        return NULL;
    }
    if (wrap && values == index) {
        /* the values are rewritten below: never in the caller's tensor */
        Py_SETREF(values, mt_copy_to(index, MT_INT64, mt_tensor_device(index)));
        if (values == NULL) {
            return NULL;
        }
    }
    v = (int64_t *)mt_tensor_data(values);
    n = mt_tensor_numel(values);
    for (int64_t i = 0; i < n; i++) {
        if (v[i] >= size || v[i] < (wrap ? -size : 0)) {
            if (prefix == NULL) {
                PyErr_Format(PyExc_IndexError, "out of range: tried to access index %lld on a tensor of %lld elements.",
                             (long long)v[i], (long long)size);
            }
            else {
                PyErr_Format(PyExc_IndexError, "%sindex %lld is out of bounds for dimension %d with size %lld", prefix,
                             (long long)v[i], dim, (long long)size);
            }
            Py_DECREF(values);
            return NULL;
        }
        if (v[i] < 0) {
            v[i] += size;
        }
    }
    return values;
}

/* target's entries along dim at the (checked, host) index set to source's (COPY) or to `value` (source
 * NULL): the loop runs over source's geometry, or over target's with dim's extent the index count. */
static int
write_along_dim(T *target, int dim, T *host_index, T *source, mt_scalar value)
{
    mt_device device = mt_tensor_device(target);
    geometry tg, it;
    int64_t istrides[MT_MAX_DIMS];
    mt_index_dim_args a;
    T *dindex, *dsrc = NULL;
    int rc = -1;

    if (mt_tensor_numel(host_index) == 0) {
        return 0;
    }
    dindex = on_device(host_index, MT_INT64, device);
    if (dindex == NULL) {
        return -1;
    }
    if (source != NULL) {
        dsrc = on_device(source, target->dtype, device);
        if (dsrc == NULL) {
            goto done;
        }
    }
    geometry_of(target, &tg);
    if (dsrc != NULL) {
        geometry_of(dsrc, &it);
    }
    else {
        it = tg;
        it.sizes[dim] = mt_tensor_numel(host_index);
    }
    vector_index_strides(dindex, it.ndim, dim, istrides);
    describe(&a, &it, dim, target, &tg, dsrc, &it, dindex, istrides, 1);
    a.mode = MT_INDEX_DIM_COPY;
    if (dsrc == NULL) {
        memset(&a.value, 0, sizeof(a.value));
        mt_scalar_store(value, target->dtype, a.value.bytes);
    }
    rc = run(&a, target, dsrc, dindex);

done:
    Py_DECREF(dindex);
    Py_XDECREF(dsrc);
    return rc;
}

static int
compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The index's distinct values, ascending, as a 1-D int64 tensor on `device`: what index_fill's node
 * saves. torch's backward selects the value's gradient at _unique(index), so a repeated position counts
 * once, and a negative one makes that index_select raise as torch's does. */
static T *
distinct_positions(T *index, mt_device device)
{
    T *host = index_on_host(index);
    T *sorted = host != NULL ? mt_copy_to(host, MT_INT64, mt_tensor_device(host)) : NULL;
    int64_t n = mt_tensor_numel(index), kept = 0;
    T *r;
    int64_t *v;

    Py_XDECREF(host);
    if (sorted == NULL) {
        return NULL;
    }
    v = (int64_t *)mt_tensor_data(sorted);
    qsort(v, (size_t)n, sizeof(int64_t), compare_int64);
    for (int64_t i = 0; i < n; i++) {
        if (kept == 0 || v[i] != v[kept - 1]) {
            v[kept++] = v[i];
        }
    }
    r = mt_tensor_empty(1, &kept, MT_INT64, device);
    if (r != NULL && kept > 0) {
        int64_t one = 1;
        T *head = mt_tensor_new_view(sorted, 1, &kept, &one, 0);
        if (head == NULL || mt_copy_(r, head) < 0) {
            Py_CLEAR(r);
        }
        Py_XDECREF(head);
    }
    Py_DECREF(sorted);
    return r;
}

/* index_fill's target: self, after autograd's check and torch's deprecation warning for an expanded
 * tensor (index_fill_ writes anyway); out of place, a clone of self in its layout (preserve_format). */
static T *
fill_target(T *self, int inplace)
{
    T *r;

    if (inplace) {
        if (mt_ag_check_inplace(self) < 0 || mt_warn_expanded(self, "index_fill_", "tensor[mask] = scalar") < 0) {
            return NULL;
        }
        Py_INCREF(self);
        return self;
    }
    r = mt_tensor_empty_preserving(self, self->dtype, mt_tensor_device(self));
    if (r != NULL && mt_copy_(r, self) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* index_fill on the meta device, as torch's Python decomposition (_index_fill in torch/_refs) computes
 * it: the index's dims and the value tensor's are checked, dim against self's shape as a Python list
 * (a 0-d self taken as 1-d) without torch's message, and nothing else (not the index's dtype). */
static PyObject *
meta_index_fill(T *self, int64_t dim_arg, T *index, T *value_tensor, int inplace)
{
    int ndim = nonempty_ndim(self);
    T *target;

    if (meta_index_dims_check(index) < 0) {
        return NULL;
    }
    if (value_tensor != NULL && value_tensor->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError, "Only supports 0-dimensional value tensor. Got a tensor with %d dimensions.",
                     value_tensor->ndim);
        return NULL;
    }
    if (dim_arg < -ndim || dim_arg >= ndim) {
        PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
        return NULL;
    }
    if (same_devices(self, index, NULL) < 0 || (inplace && mt_check_no_overlap(self, index) < 0)) {
        return NULL;
    }
    target = fill_target(self, inplace);
    if (target == NULL || (inplace && mt_ag_bump(target) < 0)) {
        Py_XDECREF(target);
        return NULL;
    }
    {
        /* the index stands for the distinct positions: there are no values to read */
        T *in[2] = {self, value_tensor};
        if (mt_ag_needed(value_tensor != NULL ? 2 : 1, in) &&
            mt_ag_index_fill(self, dim_arg < 0 ? dim_arg + ndim : dim_arg, index, value_tensor, target) < 0) {
            Py_DECREF(target);
            return NULL;
        }
    }
    return (PyObject *)target;
}

PyObject *
mt_index_fill(T *self, int64_t dim_arg, T *index, T *value_tensor, mt_scalar value, int inplace)
{
    T *target = NULL, *host_index = NULL;
    int dim;

    if (is_meta(self)) {
        return meta_index_fill(self, dim_arg, index, value_tensor, inplace);
    }
    if (value_tensor != NULL) {
        PyObject *item;
        int ok;
        if (value_tensor->ndim != 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                         value_tensor->ndim);
            return NULL;
        }
        item = mt_tensor_item(value_tensor);
        ok = item != NULL ? mt_scalar_from_object(item, &value) : -1;
        Py_XDECREF(item);
        if (ok < 0) {
            return NULL;
        }
    }
    if (index->dtype != MT_INT64) {
        PyErr_SetString(PyExc_IndexError, "index_fill_(): Expected dtype int64 for index.");
        return NULL;
    }
    if (same_devices(self, index, NULL) < 0) {
        return NULL;
    }
    if (inplace && mt_check_no_overlap(self, index) < 0) {
        return NULL;
    }
    if (mt_wrap_dim(dim_arg, nonempty_ndim(self), &dim) < 0) {
        return NULL;
    }
    if (index->ndim > 1) {
        PyErr_SetString(PyExc_RuntimeError, "Index has to be a vector/scalar");
        return NULL;
    }
    /* the kernel reads the value in self's dtype, with c10's overflow check */
    if (mt_scalar_checked(value, self->dtype, &value) < 0) {
        return NULL;
    }
    host_index = checked_vector_index(index, dim, self->ndim == 0 ? 1 : self->sizes[dim], 1, "");
    if (host_index == NULL) {
        return NULL;
    }
    target = fill_target(self, inplace);
    if (target == NULL || write_along_dim(target, dim, host_index, NULL, value) < 0) {
        goto error;
    }
    if (inplace && mt_ag_bump(target) < 0) {
        goto error;
    }
    {
        T *in[2] = {self, value_tensor};
        if (mt_ag_needed(value_tensor != NULL ? 2 : 1, in)) {
            T *positions = distinct_positions(index, mt_tensor_device(self));
            int rc = positions != NULL ? mt_ag_index_fill(self, dim, positions, value_tensor, target) : -1;
            Py_XDECREF(positions);
            if (rc < 0) {
                goto error;
            }
        }
    }
    Py_DECREF(host_index);
    return (PyObject *)target;

error:
    Py_XDECREF(host_index);
    Py_XDECREF(target);
    return NULL;
}

static mt_scalar
zero_value(void)
{
    mt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = MT_INT64;
    return s;
}

/* "2 4": a slice shape as torch's index_copy_ message prints a std::vector */
static void
format_slice(const T *t, int dim, char *buf, size_t len)
{
    size_t used = 0;
    int first = 1;

    buf[0] = '\0';
    for (int d = 0; d < t->ndim && used < len; d++) {
        if (d == dim) {
            continue;
        }
        used += (size_t)snprintf(buf + used, len - used, first ? "%lld" : " %lld", (long long)t->sizes[d]);
        first = 0;
    }
}

/* t's sizes without dim (t.shape[:dim] + t.shape[dim + 1:], none for a 0-d t) into sizes; their count */
static int
sizes_without(const T *t, int dim, int64_t *sizes)
{
    int n = 0;

    for (int d = 0; d < t->ndim; d++) {
        if (d != dim) {
            sizes[n++] = t->sizes[d];
        }
    }
    return n;
}

/* A slice's sizes (sizes_without's) as Python prints them: "torch.Size([3])", or "()" for a 0-d
 * tensor's (of `ndim` dims). */
static void
format_meta_slice(int ndim, int n, const int64_t *sizes, char *buf, size_t len)
{
    char shape[512];

    if (ndim == 0) {
        snprintf(buf, len, "()");
        return;
    }
    mt_format_shape(n, sizes, shape, sizeof(shape));
    snprintf(buf, len, "minitorch.Size(%s)", shape);
}

/* index_copy's checks: torch's CPU and cuda kernels', or on the meta device its Python decomposition's
 * (_index_copy in torch/_decomp/decompositions.py), which raises RuntimeErrors, prints the slices as a
 * Size and checks neither the index's dtype nor source's. */
static int
index_copy_checks(T *self, int dim, T *index, T *source)
{
    int64_t n = mt_tensor_numel(index), a[MT_MAX_DIMS], b[MT_MAX_DIMS];
    int na = sizes_without(self, dim, a), nb = sizes_without(source, dim, b), meta = is_meta(self);
    PyObject *shape_error = meta ? PyExc_RuntimeError : PyExc_IndexError;

    if (meta && (same_devices(self, index, source) < 0 || meta_index_dims_check(index) < 0)) {
        return -1;
    }
    if (index->ndim >= 2) {
        PyErr_Format(PyExc_IndexError, "index_copy_(): Index should have dimension 1 or 0 (got %d)", index->ndim);
        return -1;
    }
    if (source->ndim == 0 && n != 1) {
        PyErr_Format(shape_error, "index_copy_(): When source is scalar, index should have one element (got %lld)",
                     (long long)n);
        return -1;
    }
    if (source->ndim != self->ndim && source->ndim != 0 && self->ndim != 0) {
        PyErr_Format(shape_error,
                     "index_copy_(): When source and destination are not scalars, their dimensionality must match. "
                     "Source dimensionality (%d), destination dimensionality (%d)",
                     source->ndim, self->ndim);
        return -1;
    }
    if (!meta && index->dtype != MT_INT64) {
        PyErr_Format(PyExc_RuntimeError, "index_copy_(): Expected a long tensor for index, but got %s",
                     mt_dtype_scalar_name(index->dtype));
        return -1;
    }
    if (!meta && self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
                     mt_dtype_scalar_name(self->dtype), mt_dtype_scalar_name(source->dtype));
        return -1;
    }
    if (!meta && same_devices(self, index, source) < 0) {
        return -1;
    }
    /* the sizes of each without dim (a 0-d tensor has none) */
    if (na != nb || memcmp(a, b, sizeof(int64_t) * (size_t)na) != 0) {
        char s1[600], s2[600];
        if (meta) {
            format_meta_slice(self->ndim, na, a, s1, sizeof(s1));
            format_meta_slice(source->ndim, nb, b, s2, sizeof(s2));
        }
        else {
            format_slice(self, dim, s1, sizeof(s1));
            format_slice(source, dim, s2, sizeof(s2));
        }
        PyErr_Format(PyExc_RuntimeError,
                     "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
                     "%s at dimension %d and source slice shape: %s at dimension 0.",
                     s1, dim, s2);
        return -1;
    }
    if (source->ndim > 0 && n != source->sizes[dim]) {
        PyErr_Format(shape_error, "index_copy_(): Number of indices (%lld) should be equal to source.size(dim) (%lld)",
                     (long long)n, (long long)source->sizes[dim]);
        return -1;
    }
    return 0;
}

PyObject *
mt_index_copy(T *self, int64_t dim_arg, T *index, T *source, int inplace)
{
    T *target = NULL, *host_index = NULL, *src = NULL;
    int dim, meta = is_meta(self);

    if (mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 || index_copy_checks(self, dim, index, source) < 0) {
        return NULL;
    }
    /* a meta result has nothing to write */
    if (!meta) {
        host_index = checked_vector_index(index, dim, self->ndim == 0 ? 1 : self->sizes[dim], 0, "index_copy_(): ");
        if (host_index == NULL) {
            return NULL;
        }
    }
    target = target_of(self, inplace);
    if (target == NULL ||
        (inplace && (mt_check_no_overlap(target, index) < 0 || mt_check_no_overlap(target, source) < 0))) {
        goto error;
    }
    /* a source sharing self's memory in a layout the overlap check does not judge is read before any
     * write */
    if (inplace && target->storage == source->storage) {
        src = mt_copy_to(source, source->dtype, mt_tensor_device(source));
    }
    else {
        Py_INCREF(source);
        src = source;
    }
    if (src == NULL || (!meta && write_along_dim(target, dim, host_index, src, zero_value()) < 0)) {
        goto error;
    }
    Py_CLEAR(src);
    Py_CLEAR(host_index);
    if (inplace && mt_ag_bump(target) < 0) {
        goto error;
    }
    if (mt_ag_index_copy(self, dim, index, source, target) < 0) {
        goto error;
    }
    return (PyObject *)target;

error:
    Py_XDECREF(src);
    Py_XDECREF(host_index);
    Py_XDECREF(target);
    return NULL;
}

/* ---- scatter_reduce, index_reduce, put ---------------------------------------------------------------- */

static mt_scalar
int_value(int64_t v)
{
    mt_scalar s = zero_value();
    s.v.i = v;
    return s;
}

/* What a place starts from when include_self=False, before the values reduce into it (torch's init
 * values): 0 for sum and mean, 1 for prod, the dtype's lowest (-inf) for amax and highest (inf) for amin. */
static mt_scalar
reduction_start(mt_index_dim_mode mode, mt_dtype dtype)
{
    mt_scalar s = zero_value();
    int64_t lo, hi;
    int top = mode == MT_INDEX_DIM_AMIN;

    if (mode == MT_INDEX_DIM_MULTIPLY) {
        s.v.i = 1;
    }
    else if (mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) {
        if (mt_dtype_is_floating(dtype)) {
            s.kind = MT_FLOAT64;
            s.v.d = top ? INFINITY : -INFINITY;
        }
        else if (dtype == MT_BOOL) {
            s.v.i = top;
        }
        else if (dtype == MT_INT64) {
            s.v.i = top ? INT64_MAX : INT64_MIN;
        }
        else {
            mt_dtype_int_range(dtype, &lo, &hi);
            s.v.i = top ? hi : lo;
        }
    }
    return s;
}

/* target (mode)= src along dim at the device index, over the iteration geometry `it` with the index's
 * strides `istrides`; src NULL: `value` at every such place instead. */
static int
combine_along(T *target, int dim, T *dindex, const geometry *it, const int64_t *istrides, T *src,
              const geometry *src_g, mt_scalar value, mt_index_dim_mode mode)
{
    geometry tg;
    mt_index_dim_args a;

    geometry_of(target, &tg);
    describe(&a, it, dim, target, &tg, src, src_g, dindex, istrides, 1);
    a.mode = mode;
    if (src == NULL) {
        memset(&a.value, 0, sizeof(a.value));
        mt_scalar_store(value, target->dtype, a.value.bytes);
    }
    return run(&a, target, src, dindex);
}

/* reduce='mean': target divided by the count of values that reached each place (self's own value counts
 * once with include_self; a place none reached keeps its value), as torch's out.div_(count), floor
 * division for the integer dtypes. The counts are in target's dtype, float16 and bfloat16 ones counted in
 * float32 and rounded once when `widen` (as torch's scatter_add_ and index_add_ into more than one dim
 * count them). */
static int
divide_by_counts(T *target, int dim, T *dindex, const geometry *it, const int64_t *istrides, int include_self,
                 int widen)
{
    int wide = widen && mt_dtype_is_reduced_floating(target->dtype);
    T *count = mt_tensor_empty_format(target->ndim, target->sizes, wide ? MT_FLOAT32 : target->dtype,
                                      mt_tensor_device(target), MT_CONTIGUOUS_FORMAT);
    PyObject *r = NULL;
    mt_cx_operand x, y;

    if (count == NULL || mt_fill_(count, int_value(1)) < 0 ||
        (!include_self &&
         combine_along(count, dim, dindex, it, istrides, NULL, NULL, int_value(0), MT_INDEX_DIM_COPY) < 0) ||
        combine_along(count, dim, dindex, it, istrides, NULL, NULL, int_value(1), MT_INDEX_DIM_ADD) < 0) {
        Py_XDECREF(count);
        return -1;
    }
    if (wide) {
        Py_SETREF(count, mt_copy_to(count, target->dtype, mt_tensor_device(target)));
        if (count == NULL) {
            return -1;
        }
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.tensor = target;
    y.op.tensor = count;
    MT_BELOW_AUTOGRAD(r = mt_dtype_is_floating(target->dtype) ? mt_binary("div", MT_BINARY_DIV, &x, &y, NULL, target)
                                                              : mt_div_rounding("div", 0, &x, &y, target));
    Py_DECREF(count);
    Py_XDECREF(r);
    return r != NULL ? 0 : -1;
}

/* scatter_reduce's reduce= (torch's get_reduction_enum, which also takes 'max' and 'min'; on `meta` its
 * meta function's get_operator_enum, which does not): 0 with the kernel's mode and *mean, or -1 with
 * torch's error. */
static int
scatter_reduction(const char *reduce, int meta, mt_index_dim_mode *mode, int *mean)
{
    *mean = strcmp(reduce, "mean") == 0;
    if (*mean || strcmp(reduce, "sum") == 0) {
        *mode = MT_INDEX_DIM_ADD;
    }
    else if (strcmp(reduce, "prod") == 0) {
        *mode = MT_INDEX_DIM_MULTIPLY;
    }
    else if (strcmp(reduce, "amax") == 0 || (!meta && strcmp(reduce, "max") == 0)) {
        *mode = MT_INDEX_DIM_AMAX;
    }
    else if (strcmp(reduce, "amin") == 0 || (!meta && strcmp(reduce, "min") == 0)) {
        *mode = MT_INDEX_DIM_AMIN;
    }
    else if (meta) {
        /* torch's meta function (get_operator_enum) takes only the five it names */
        PyErr_SetString(PyExc_RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin.");
        return -1;
    }
    else {
        PyErr_Format(PyExc_RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got %s", reduce);
        return -1;
    }
    return 0;
}

static int
refuse_dtype(const char *kernel, mt_dtype dtype)
{
    PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kernel, mt_dtype_scalar_name(dtype));
    return -1;
}

/* The reduction into target (self or its copy) that scatter_reduce and index_reduce share: the places
 * the index reaches start from reduction_start when !include_self, src's values combine into them in
 * row-major order (over `it`), and mean divides by the counts. `widen`: sums and products of float16 and
 * bfloat16 accumulate in float32 and round once (scatter_reduce's CPU kernel); otherwise every step
 * rounds to the dtype (index_reduce's; a CUDA device refuses those, as index_add_'s). */
static int
reduce_into(T *target, int dim, T *dindex, const geometry *it, const int64_t *istrides, T *src,
            mt_index_dim_mode mode, int mean, int include_self, int widen)
{
    T *work = target, *dsrc = on_device(src, src->dtype, mt_tensor_device(target));
    geometry xg;
    int rc = -1;

    if (dsrc == NULL) {
        return -1;
    }
    /* amax and amin pick one of the values, so float32 copies give the same bits (and a CUDA device has no
     * 16-bit kernel for them) */
    if ((widen || mode == MT_INDEX_DIM_AMAX || mode == MT_INDEX_DIM_AMIN) && widen_for_sums(&work, target, &dsrc) < 0) {
        goto done;
    }
    geometry_of(dsrc, &xg);
    if (!include_self && combine_along(work, dim, dindex, it, istrides, NULL, NULL,
                                       reduction_start(mode, work->dtype), MT_INDEX_DIM_COPY) < 0) {
        goto done;
    }
    if (combine_along(work, dim, dindex, it, istrides, dsrc, &xg, zero_value(), mode) < 0 ||
        (work != target && mt_copy_(target, work) < 0)) {
        goto done;
    }
    /* the counts are scatter_add's / index_add's sums, which widen into more than one dim */
    rc = mean ? divide_by_counts(target, dim, dindex, it, istrides, include_self, widen || target->ndim > 1) : 0;

done:
    if (work != target) {
        Py_DECREF(work);
    }
    Py_DECREF(dsrc);
    return rc;
}

/* The reduction of scatter_reduce (vector 0: the index has src's dims) or index_reduce (vector 1: a 1-D
 * index along dim) into target, the version bump of an in-place form and the node (naming: as
 * mt_ag_reduce_along's). 0 or -1. */
static int
reduce_and_record(T *self, T *original, T *target, int dim, T *index, T *src, mt_index_dim_mode mode, int mean,
                  int naming, int include_self, int vector, int inplace)
{
    geometry it;
    int64_t istrides[MT_MAX_DIMS];
    int rc = 0;

    if (mt_tensor_numel(index) > 0) {
        T *dindex = on_device(index, MT_INT64, mt_tensor_device(target));
        if (dindex == NULL) {
            return -1;
        }
        geometry_of(vector ? src : dindex, &it);
        if (vector) {
            vector_index_strides(dindex, it.ndim, dim, istrides);
        }
        else {
            memcpy(istrides, it.strides, sizeof(int64_t) * (size_t)it.ndim);
        }
        rc = reduce_into(target, dim, dindex, &it, istrides, src, mode, mean, include_self, !vector);
        Py_DECREF(dindex);
    }
    if (rc == 0 && inplace) {
        rc = mt_ag_bump(target);
    }
    if (rc == 0) {
        rc = mt_ag_reduce_along(vector, original, self, dim, index, src, mode, naming, include_self, target);
    }
    return rc;
}

/* self's values as the node of a reduction needs them (torch's original_self): *original NULL when no node
 * is recorded, self out of place, a copy made before an in-place form writes. 0 or -1. */
static int
original_for_grad(T *self, T *src, int inplace, T **original)
{
    T *in[2] = {self, src};

    *original = NULL;
    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    if (!inplace) {
        Py_INCREF(self);
        *original = self;
        return 0;
    }
    *original = mt_copy_to(self, self->dtype, mt_tensor_device(self));
    return *original != NULL ? 0 : -1;
}

PyObject *
mt_scatter_reduce(T *self, int64_t dim_arg, T *index, T *src, const char *reduce, int include_self, int inplace)
{
    T *target, *original = NULL;
    mt_index_dim_mode mode;
    int mean, dim, empty = mt_tensor_numel(index) == 0;

    /* autograd's check of an in-place write comes first, as torch's VariableType runs it before the op */
    if ((inplace && mt_ag_check_inplace(self) < 0) || mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 ||
        same_devices(self, index, src) < 0 || scatter_checks(self, dim, index, src, 0) < 0 ||
        scatter_reduction(reduce, is_meta(self), &mode, &mean) < 0) {
        return NULL;
    }
    if (inplace && mt_check_no_overlap(self, src) < 0) {
        return NULL;
    }
    if (!empty) {
        geometry sg;
        geometry_of(self, &sg);
        /* torch's kernel refuses bool means before its loop reads an index; include_self=False's fill
         * reads them first */
        if (mean && self->dtype == MT_BOOL && include_self) {
            return refuse_dtype("scatter_gather_tensor_cpu_reduce_mean", MT_BOOL), NULL;
        }
        if (check_index_values(index, dim, sg.sizes[dim]) < 0) {
            return NULL;
        }
        if (mean && self->dtype == MT_BOOL) {
            return refuse_dtype("scatter_gather_tensor_cpu_reduce_mean", MT_BOOL), NULL;
        }
    }
    if (original_for_grad(self, src, inplace, &original) < 0) {
        return NULL;
    }
    target = target_of(self, inplace);
    /* 'max' and 'min' name amax and amin, which torch's backward then refuses (naming 2) */
    if (target == NULL ||
        reduce_and_record(self, original, target, dim, index, src, mode, mean,
                          mean ? 1 : (strcmp(reduce, "max") == 0 || strcmp(reduce, "min") == 0) ? 2 : 0,
                          include_self, 0, inplace) < 0) {
        Py_XDECREF(original);
        Py_XDECREF(target);
        return NULL;
    }
    Py_XDECREF(original);
    return (PyObject *)target;
}

/* index_reduce's reduce= (prod, mean, amax or amin): 0 with the kernel's mode and *mean, or -1. */
static int
index_reduction(const char *reduce, mt_index_dim_mode *mode, int *mean)
{
    *mean = strcmp(reduce, "mean") == 0;
    if (strcmp(reduce, "sum") != 0 && scatter_reduction(reduce, 0, mode, mean) == 0 && strcmp(reduce, "max") != 0 &&
        strcmp(reduce, "min") != 0) {
        return 0;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_RuntimeError, "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.",
                 reduce);
    return -1;
}

PyObject *
mt_index_reduce(T *self, int64_t dim_arg, T *index, T *source, const char *reduce, int include_self, int inplace)
{
    static int warned = 0;
    T *target, *host_index, *original = NULL;
    mt_index_dim_mode mode;
    int mean, dim;
    int64_t size;

    if ((inplace && mt_ag_check_inplace(self) < 0) || index_reduction(reduce, &mode, &mean) < 0 ||
        mt_wrap_dim(dim_arg, self->ndim, &dim) < 0 ||
        same_devices(self, index, source) < 0 || index_add_checks(self, dim, index, source, "index_reduce_", 0) < 0) {
        return NULL;
    }
    if (!warned) {
        warned = 1;
        if (PyErr_WarnEx(PyExc_UserWarning, "index_reduce() is in beta and the API may change at any time.", 1) < 0) {
            return NULL;
        }
    }
    if (self->dtype == MT_BOOL) {
        return refuse_dtype(include_self ? "index_func_" : "index_reduce_func_exclude_input_init", MT_BOOL), NULL;
    }
    if (inplace && mt_check_no_overlap(self, source) < 0) {
        return NULL;
    }
    size = self->ndim == 0 ? 1 : self->sizes[dim];
    /* include_self=False fills the places first as index_fill_ does (its check and message, negative
     * values counting from the end); the reduction then refuses any value outside [0, size) */
    if (!include_self) {
        host_index = checked_vector_index(index, dim, size, 1, "");
        Py_XDECREF(host_index);
        if (host_index == NULL) {
            return NULL;
        }
    }
    {
        T *values;
        int64_t bad = first_out_of_range(index, size, &values);
        if (bad == -2) {
            return NULL;
        }
        Py_DECREF(values);
        if (bad >= 0) {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
            return NULL;
        }
    }
    if (original_for_grad(self, source, inplace, &original) < 0) {
        return NULL;
    }
    target = target_of(self, inplace);
    if (target == NULL ||
        reduce_and_record(self, original, target, dim, index, source, mode, mean, mean, include_self, 1, inplace) < 0) {
        Py_XDECREF(original);
        Py_XDECREF(target);
        return NULL;
    }
    Py_XDECREF(original);
    return (PyObject *)target;
}

/* put_: self's elements, counted row-major (whatever its strides), at the index's positions (negative
 * ones from the end) set to source's, in the order of both flattened (a repeated position keeps the last
 * write), or with accumulate summed into them in that order (float16 and bfloat16 rounded at each sum, as
 * torch's serial accumulate loop). The work is done on a flat contiguous view of self, or of its copy. */
PyObject *
mt_put(T *self, T *index, T *source, int accumulate, int inplace)
{
    int64_t numel = mt_tensor_numel(self), n = mt_tensor_numel(index), one = 1;
    T *target = NULL, *host = NULL, *work = NULL, *flat = NULL, *dindex = NULL, *line = NULL;

    if (inplace && mt_ag_check_inplace(self) < 0) {
        return NULL;
    }
    if (index->dtype != MT_INT64) {
        PyErr_Format(PyExc_RuntimeError, "put_(): Expected a long tensor for index, but got %s",
                     mt_dtype_scalar_name(index->dtype));
        return NULL;
    }
    if (self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "put_(): self and source expected to have the same dtype, but got self.dtype = %s and "
                     "source.dtype = %s",
                     mt_dtype_scalar_name(self->dtype), mt_dtype_scalar_name(source->dtype));
        return NULL;
    }
    if (same_devices(self, index, source) < 0) {
        return NULL;
    }
    if (n != mt_tensor_numel(source)) {
        PyErr_Format(PyExc_IndexError,
                     "put_(): Expected source and index to have the same number of elements, but got "
                     "source.numel() = %lld, index.numel() = %lld",
                     (long long)mt_tensor_numel(source), (long long)n);
        return NULL;
    }
    if (numel == 0 && n != 0) {
        PyErr_SetString(PyExc_IndexError, "put_(): Tried to put elements into an empty tensor");
        return NULL;
    }
    if (inplace && (mt_check_no_internal_overlap(self) < 0 || mt_check_no_overlap(self, index) < 0 ||
                    mt_check_no_overlap(self, source) < 0)) {
        return NULL;
    }
    if (n > 0) {
        host = checked_vector_index(index, 0, numel, 1, NULL);
        if (host == NULL) {
            return NULL;
        }
    }
    if (inplace) {
        Py_INCREF(self);
        target = self;
    }
    else {
        target = mt_tensor_empty_preserving(self, self->dtype, mt_tensor_device(self));
        if (target != NULL && mt_copy_(target, self) < 0) {
            Py_CLEAR(target);
        }
    }
    if (target == NULL) {
        goto error;
    }
    if (n > 0) {
        mt_device device = mt_tensor_device(target);
        geometry it;
        int64_t istrides[1] = {1};
        T *src_c;
        work = mt_tensor_contiguous(target);
        flat = work != NULL ? mt_tensor_new_view(work, 1, &numel, &one, work->offset) : NULL;
        dindex = on_device(host, MT_INT64, device);
        src_c = on_device(source, source->dtype, device);
        if (src_c != NULL) {
            Py_SETREF(src_c, mt_tensor_contiguous(src_c));
        }
        line = src_c != NULL ? mt_tensor_new_view(src_c, 1, &n, &one, src_c->offset) : NULL;
        Py_XDECREF(src_c);
        if (flat == NULL || dindex == NULL || line == NULL) {
            goto error;
        }
        geometry_of(line, &it);
        if (combine_along(flat, 0, dindex, &it, istrides, line, &it, zero_value(),
                          accumulate ? MT_INDEX_DIM_ADD : MT_INDEX_DIM_COPY) < 0 ||
            (work != target && mt_copy_(target, work) < 0)) {
            goto error;
        }
    }
    Py_XDECREF(host);
    Py_XDECREF(work);
    Py_XDECREF(flat);
    Py_XDECREF(dindex);
    Py_XDECREF(line);
    if (inplace && mt_ag_bump(target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    if (mt_ag_put(self, index, source, accumulate, target) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    return (PyObject *)target;

error:
    Py_XDECREF(host);
    Py_XDECREF(work);
    Py_XDECREF(flat);
    Py_XDECREF(dindex);
    Py_XDECREF(line);
    Py_XDECREF(target);
    return NULL;
}
