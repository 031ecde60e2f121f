/* shape.c: the shape ops. Views that only rewrite geometry (view, reshape, t, transpose, permute,
 * unsqueeze, squeeze, flatten, unflatten, expand, narrow, select, unbind, chunk, split) share their
 * base's storage; clone and contiguous copy; cat/stack/hstack/vstack build a new tensor from copies.
 * Every stride rule is torch's (computeStride for view, inferExpandGeometry for expand, preserve_format
 * for clone) so that .stride() and is_contiguous() print what torch prints. This file never touches
 * element data itself: copies go through copy.c (mt_copy_, mt_memcpy). Its entry points take C values
 * (csrc/python/shape.c reads the Python arguments) and raise torch's op-level messages. */
#include "shape.h"

#include "../autograd/record.h"

#include <string.h>

#include "../core/devices.h"
#include "copy.h"
#include "dispatch.h"

/* ---- geometry rules -------------------------------------------------------------------------------- */

void
mt_tensor_type_string(const mt_TensorObject *t, char *buf, size_t len)
{
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        /* c10's toString for a backend without a legacy tensor type */
        snprintf(buf, len, "Meta%sType", mt_dtype_scalar_name(t->dtype));
        return;
    }
    snprintf(buf, len, "torch.%s%sTensor", mt_tensor_device(t).type == MT_DEVICE_CUDA ? "cuda." : "",
             mt_dtype_scalar_name(t->dtype));
}

int
mt_compute_view_strides(int old_ndim, const int64_t *old_sizes, const int64_t *old_strides, int new_ndim,
                        const int64_t *new_sizes, int64_t *new_strides)
{
    /* at::detail::computeStride: the new shape must split or merge dims only inside "chunks" of the old
     * tensor whose dims are contiguous with each other. */
    int64_t numel = 1;
    int view_d;
    int64_t chunk_base_stride;
    int64_t tensor_numel = 1;
    int64_t view_numel = 1;

    if (old_ndim == 0) {
        for (int d = 0; d < new_ndim; d++) {
            new_strides[d] = 1;
        }
        return 1;
    }
    for (int d = 0; d < old_ndim; d++) {
        numel *= old_sizes[d];
    }
    if (numel == 0) {
        int same = old_ndim == new_ndim;
        for (int d = 0; same && d < old_ndim; d++) {
            same = old_sizes[d] == new_sizes[d];
        }
        if (same) {
            memcpy(new_strides, old_strides, sizeof(int64_t) * (size_t)old_ndim);
            return 1;
        }
        /* arbitrary when empty: torch uses the strides resize would give */
        for (int d = new_ndim - 1; d >= 0; d--) {
            if (d == new_ndim - 1) {
                new_strides[d] = 1;
            }
            else {
                new_strides[d] = (new_sizes[d + 1] > 1 ? new_sizes[d + 1] : 1) * new_strides[d + 1];
            }
        }
        return 1;
    }
    view_d = new_ndim - 1;
    chunk_base_stride = old_strides[old_ndim - 1];
    for (int tensor_d = old_ndim - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= old_sizes[tensor_d];
        if (tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                              old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= new_sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) {
                return 0;
            }
            if (tensor_d > 0) {
                chunk_base_stride = old_strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

int
mt_infer_size(int ndim, int64_t *sizes, int64_t numel)
{
    int64_t newsize = 1;
    int infer = -1;
    int overflow = 0;
    char shape[1024];

    for (int d = 0; d < ndim; d++) {
        if (sizes[d] == -1) {
            if (infer >= 0) {
                PyErr_SetString(PyExc_RuntimeError, "only one dimension can be inferred");
                return -1;
            }
            infer = d;
        }
        else if (sizes[d] >= 0) {
            if (__builtin_mul_overflow(newsize, sizes[d], &newsize)) {
                overflow = 1;
            }
        }
        else {
            mt_format_shape(ndim, sizes, shape, sizeof(shape));
            PyErr_Format(PyExc_RuntimeError, "invalid shape dimension %lld at index %d of shape %s",
                         (long long)sizes[d], d, shape);
            return -1;
        }
    }
    if (!overflow && (numel == newsize || (infer >= 0 && newsize > 0 && numel % newsize == 0))) {
        if (infer >= 0) {
            if (newsize == 0) {
                mt_format_shape(ndim, sizes, shape, sizeof(shape));
                PyErr_Format(PyExc_RuntimeError,
                             "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension "
                             "size -1 can be any value and is ambiguous",
                             shape);
                return -1;
            }
            sizes[infer] = numel / newsize;
        }
        return 0;
    }
    mt_format_shape(ndim, sizes, shape, sizeof(shape));
    PyErr_Format(PyExc_RuntimeError, "shape '%s' is invalid for input of size %lld", shape, (long long)numel);
    return -1;
}

/* A new copy on t's device laid out in `format` (clone(memory_format=...) for every format but
 * preserve_format); always a copy, unlike mt_tensor_contiguous. */
static mt_TensorObject *
copy_in_format(mt_TensorObject *t, mt_memory_format format)
{
    mt_TensorObject *c = mt_tensor_empty_in_format(t, t->dtype, mt_tensor_device(t), format);
    if (c != NULL && mt_copy_(c, t) < 0) {
        Py_CLEAR(c);
    }
    return c;
}

/* A new row-major copy (clone(memory_format=torch.contiguous_format)), unlike mt_copy_to always
 * row-major. */
static mt_TensorObject *
contiguous_copy(mt_TensorObject *t)
{
    return copy_in_format(t, MT_CONTIGUOUS_FORMAT);
}

static void
contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    int64_t stride = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = stride;
        stride *= sizes[d] > 1 ? sizes[d] : 1;
    }
}

/* ---- view ops (C entry points) -------------------------------------------------------------------- */

/* r (a new reference or NULL) with autograd's node for the view op on t recorded. */
static mt_TensorObject *
recorded(mt_ag_view_kind kind, mt_TensorObject *t, mt_TensorObject *r, int n, const int64_t *ints)
{
    if (r != NULL && mt_ag_view(kind, t, r, n, ints) < 0) {
        Py_CLEAR(r);
    }
    return r;
}


mt_TensorObject *
mt_alias(mt_TensorObject *t)
{
    return recorded(MT_AG_ALIAS, t, mt_tensor_new_view(t, t->ndim, t->sizes, t->strides, t->offset), 0, NULL);
}

mt_TensorObject *
mt_view(mt_TensorObject *t, int ndim, const int64_t *sizes_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];

    if (ndim > 0) {
        memcpy(sizes, sizes_in, sizeof(int64_t) * (size_t)ndim);   /* a 0-d shape may come as NULL */
    }
    if (mt_infer_size(ndim, sizes, mt_tensor_numel(t)) < 0) {
        return NULL;
    }
    if (!mt_compute_view_strides(t->ndim, t->sizes, t->strides, ndim, sizes, strides)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "view size is not compatible with input tensor's size and stride (at least one dimension "
                        "spans across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return recorded(MT_AG_VIEW, t, mt_tensor_new_view(t, ndim, sizes, strides, t->offset), 0, NULL);
}

mt_TensorObject *
mt_reshape(mt_TensorObject *t, int ndim, const int64_t *sizes_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    mt_TensorObject *copy, *result;

    if (ndim > 0) {
        memcpy(sizes, sizes_in, sizeof(int64_t) * (size_t)ndim);   /* a 0-d shape may come as NULL */
    }
    if (mt_infer_size(ndim, sizes, mt_tensor_numel(t)) < 0) {
        return NULL;
    }
    if (mt_compute_view_strides(t->ndim, t->sizes, t->strides, ndim, sizes, strides)) {
        return recorded(MT_AG_VIEW, t, mt_tensor_new_view(t, ndim, sizes, strides, t->offset), 0, NULL);
    }
    /* torch: _unsafe_view(self.clone(contiguous_format), shape) */
    copy = recorded(MT_AG_CLONE, t, contiguous_copy(t), 0, NULL);
    if (copy == NULL) {
        return NULL;
    }
    contiguous_strides(ndim, sizes, strides);
    result = mt_tensor_new_view(copy, ndim, sizes, strides, copy->offset);
    if (result != NULL) {
        Py_CLEAR(result->base);     /* _unsafe_view of a fresh copy: not a view of anything */
    }
    result = recorded(MT_AG_UNSAFE_VIEW, copy, result, 0, NULL);
    Py_DECREF(copy);
    return result;
}

mt_TensorObject *
mt_expand(mt_TensorObject *t, int ndim, const int64_t *target)
{
    /* at::native::expand and inferExpandGeometry */
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    char tname[64], a[1024], b[1024];

    if (ndim < t->ndim) {
        mt_tensor_type_string(t, tname, sizeof(tname));
        mt_format_shape(t->ndim, t->sizes, a, sizeof(a));
        mt_format_shape(ndim, target, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError,
                     "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the "
                     "number of dimensions in the tensor (%d)",
                     tname, a, b, ndim, t->ndim);
        return NULL;
    }
    if (t->ndim == 0) {
        for (int i = 0; i < ndim; i++) {
            sizes[i] = target[i];
            strides[i] = 0;
        }
    }
    else {
        for (int i = ndim - 1; i >= 0; i--) {
            int offset = ndim - 1 - i;
            int dim = t->ndim - 1 - offset;
            int64_t size = dim >= 0 ? t->sizes[dim] : 1;
            int64_t stride = dim >= 0 ? t->strides[dim] : sizes[i + 1] * strides[i + 1];
            int64_t want = target[i];
            if (want == -1) {
                if (dim < 0) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "The expanded size of the tensor (%lld) isn't allowed in a leading, non-existing "
                                 "dimension %d",
                                 (long long)want, i);
                    return NULL;
                }
                want = size;
            }
            if (size != want) {
                if (size != 1) {
                    mt_format_shape(ndim, target, a, sizeof(a));
                    mt_format_shape(t->ndim, t->sizes, b, sizeof(b));
                    PyErr_Format(PyExc_RuntimeError,
                                 "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                                 "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                 (long long)want, (long long)size, i, a, b);
                    return NULL;
                }
                size = want;
                stride = 0;
            }
            sizes[i] = size;
            strides[i] = stride;
        }
    }
    {
        /* a view's element count must fit in int64 like any tensor's (torch's safe_compute_numel):
         * ones([1] * 64).expand(*[2] * 64) has 2**64 elements, and numel() overflowed (undefined
         * behaviour) everywhere that view was used */
        int64_t numel = 1;
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] < 0 || __builtin_mul_overflow(numel, sizes[i], &numel)) {
                /* what as_strided reports for a negative size or an overflowing count */
                PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
                return NULL;
            }
        }
    }
    return recorded(MT_AG_EXPAND, t, mt_tensor_new_view(t, ndim, sizes, strides, t->offset), 0, NULL);
}

mt_TensorObject *
mt_unsqueeze(mt_TensorObject *t, int64_t dim_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim;

    if (mt_wrap_dim(dim_in, t->ndim + 1, &dim) < 0) {
        return NULL;
    }
    if (t->ndim + 1 > MT_MAX_DIMS) {
        /* the loop below writes t->ndim + 1 entries of fixed MT_MAX_DIMS arrays: a 64-dim input used
         * to overflow them (unsqueeze, stack) and crash */
        mt_raise_too_many_dims(t->ndim + 1);
        return NULL;
    }
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == dim) {
            sizes[i] = 1;
            strides[i] = dim >= t->ndim ? 1 : t->sizes[dim] * t->strides[dim];
        }
        else {
            sizes[i] = t->sizes[j];
            strides[i] = t->strides[j];
            j++;
        }
    }
    {
        int64_t wrapped = dim;
        return recorded(MT_AG_UNSQUEEZE, t, mt_tensor_new_view(t, t->ndim + 1, sizes, strides, t->offset), 1,
                        &wrapped);
    }
}

static mt_TensorObject *
transpose_impl(mt_TensorObject *t, int64_t dim0_in, int64_t dim1_in)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim0, dim1;

    if (mt_wrap_dim(dim0_in, t->ndim, &dim0) < 0 || mt_wrap_dim(dim1_in, t->ndim, &dim1) < 0) {
        return NULL;
    }
    if (t->ndim == 0 || dim0 == dim1) {
        return mt_alias(t);
    }
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[dim0] = t->sizes[dim1];
    sizes[dim1] = t->sizes[dim0];
    strides[dim0] = t->strides[dim1];
    strides[dim1] = t->strides[dim0];
    return mt_tensor_new_view(t, t->ndim, sizes, strides, t->offset);
}

static mt_TensorObject *
permute_impl(mt_TensorObject *t, int ndims, const int64_t *dims)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    char seen[MT_MAX_DIMS] = {0};

    if (ndims != t->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
                     "the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                     t->ndim, ndims);
        return NULL;
    }
    for (int i = 0; i < ndims; i++) {
        int d;
        if (mt_wrap_dim(dims[i], t->ndim, &d) < 0) {
            return NULL;
        }
        if (seen[d]) {
            PyErr_SetString(PyExc_RuntimeError, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = 1;
        sizes[i] = t->sizes[d];
        strides[i] = t->strides[d];
    }
    return mt_tensor_new_view(t, ndims, sizes, strides, t->offset);
}

static mt_TensorObject *
select_impl(mt_TensorObject *t, int64_t dim_in, int64_t index)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int dim;
    int64_t size;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    size = t->sizes[dim];
    if (index < -size || index >= size) {
        char shape[1024];
        mt_format_shape(t->ndim, t->sizes, shape, sizeof(shape));
        PyErr_Format(PyExc_IndexError, "select(): index %lld out of range for tensor of size %s at dimension %d",
                     (long long)index, shape, dim);
        return NULL;
    }
    if (index < 0) {
        index += size;
    }
    for (int i = 0, j = 0; i < t->ndim; i++) {
        if (i != dim) {
            sizes[j] = t->sizes[i];
            strides[j] = t->strides[i];
            j++;
        }
    }
    return mt_tensor_new_view(t, t->ndim - 1, sizes, strides, t->offset + index * t->strides[dim]);
}

/* dims d1 != d2, wrapped */
static mt_TensorObject *
diagonal_impl(mt_TensorObject *t, int64_t offset, int d1, int d2)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    /* sizes are non-negative, so neither difference overflows */
    int64_t len = offset >= 0 ? t->sizes[d2] - offset : t->sizes[d1] + offset;
    int64_t other = offset >= 0 ? t->sizes[d1] : t->sizes[d2];
    int64_t start = t->offset;
    int j = 0;

    len = len < 0 ? 0 : len > other ? other : len;
    if (len > 0) {
        /* an empty diagonal keeps the offset, as torch's */
        start += offset >= 0 ? offset * t->strides[d2] : -offset * t->strides[d1];
    }
    for (int i = 0; i < t->ndim; i++) {
        if (i != d1 && i != d2) {
            sizes[j] = t->sizes[i];
            strides[j] = t->strides[i];
            j++;
        }
    }
    sizes[j] = len;
    strides[j] = t->strides[d1] + t->strides[d2];
    return mt_tensor_new_view(t, t->ndim - 1, sizes, strides, start);
}

static mt_TensorObject *
slice_impl(mt_TensorObject *t, int dim, int64_t start, int64_t stop, int64_t step)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int64_t size = t->sizes[dim];
    int64_t len;

    /* at::slice's clamping (get_slice_bounds) */
    if (start < 0) {
        start += size;
    }
    if (stop < 0) {
        stop += size;
    }
    if (start < 0) {
        start = 0;
    }
    else if (start >= size) {
        start = size;
    }
    if (stop < start) {
        stop = start;
    }
    else if (stop >= size) {
        stop = size;
    }
    len = stop - start;
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    /* written so that a step near 2**63 overflows nothing (len + step - 1 did, and stride * step
     * was signed overflow: t[0:1:2**62] returned a view with a wrapped stride) */
    sizes[dim] = len == 0 ? 0 : (len - 1) / step + 1;
    if (__builtin_mul_overflow(t->strides[dim], step, &strides[dim])) {
        /* torch computes the wrapped stride and as_strided rejects it when negative */
        char buf[1024];
        strides[dim] = (int64_t)((uint64_t)t->strides[dim] * (uint64_t)step);
        mt_format_shape(t->ndim, strides, buf, sizeof(buf));
        if (strides[dim] < 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "as_strided: Negative strides are not supported at the moment, got strides: %s", buf);
        }
        else {
            PyErr_Format(PyExc_RuntimeError, "slice step %lld overflows the stride of dimension %d",
                         (long long)step, dim);
        }
        return NULL;
    }
    return mt_tensor_new_view(t, t->ndim, sizes, strides, t->offset + start * t->strides[dim]);
}

mt_TensorObject *
mt_narrow(mt_TensorObject *t, int64_t dim_in, int64_t start, int64_t length)
{
    int dim;
    int64_t size;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (length < 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow(): length must be non-negative.");
        return NULL;
    }
    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    size = t->sizes[dim];
    if (start < -size || start > size) {
        PyErr_Format(PyExc_IndexError, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-size, (long long)size, (long long)start);
        return NULL;
    }
    if (start < 0) {
        start += size;
    }
    if (start > size - length) {
        PyErr_Format(PyExc_RuntimeError, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                     (long long)start, (long long)length, (long long)size);
        return NULL;
    }
    return mt_slice(t, dim, start, start + length, 1);
}

/* at::detail::computeStorageNbytes: the bytes a geometry spans from its first element (0 when a size is
 * 0), in uint64 as torch computes it, so that a negative size or stride overflows into torch's error. */
static int
storage_nbytes(int n, const int64_t *sizes, const int64_t *strides, size_t itemsize, int64_t *nbytes)
{
    uint64_t size = 1, strided;
    int overflowed = 0;

    for (int d = 0; d < n; d++) {
        if (sizes[d] == 0) {
            *nbytes = 0;
            return 0;
        }
        overflowed |= __builtin_mul_overflow((uint64_t)strides[d], (uint64_t)(sizes[d] - 1), &strided);
        overflowed |= __builtin_add_overflow(size, strided, &size);
    }
    overflowed |= __builtin_mul_overflow(size, (uint64_t)itemsize, &size);
    if (overflowed || size > (uint64_t)INT64_MAX) {
        char a[1024], b[1024];
        mt_format_shape(n, sizes, a, sizeof(a));
        mt_format_shape(n, strides, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError, "Storage size calculation overflowed with sizes=%s and strides=%s", a, b);
        return -1;
    }
    *nbytes = (int64_t)size;
    return 0;
}

int
mt_check_strided_geometry(int nsizes, const int64_t *sizes, int nstrides, const int64_t *strides, size_t itemsize,
                          int64_t *nbytes)
{
    if (nsizes != nstrides) {
        PyErr_Format(PyExc_RuntimeError, "dimensionality of sizes (%d) must match dimensionality of strides (%d)",
                     nsizes, nstrides);
        return -1;
    }
    for (int d = 0; d < nsizes; d++) {
        if (sizes[d] < 0) {
            char a[1024];
            mt_format_shape(nsizes, sizes, a, sizeof(a));
            PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: %s",
                         (long long)sizes[d], a);
            return -1;
        }
    }
    if (nsizes > MT_MAX_DIMS) {
        return mt_raise_too_many_dims(nsizes);
    }
    return storage_nbytes(nsizes, sizes, strides, itemsize, nbytes);
}

/* torch's checkInBoundsForStorage message: the geometry (nstrides 0 prints the strides a call left out as
 * torch does, []) needs nbytes from the offset on, more than `storage` holds. Returns NULL. */
static void *
out_of_bounds(int n, const int64_t *sizes, int nstrides, const int64_t *strides, int64_t offset, size_t itemsize,
              int64_t nbytes, const mt_storage *storage)
{
    char a[1024], b[1024];

    mt_format_shape(n, sizes, a, sizeof(a));
    mt_format_shape(nstrides, strides, b, sizeof(b));
    PyErr_Format(PyExc_RuntimeError,
                 "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu requiring a storage "
                 "size of %lld are out of bounds for storage of size %zu",
                 a, b, (long long)offset, itemsize, (long long)(nbytes + offset * (int64_t)itemsize), storage->nbytes);
    return NULL;
}

int
mt_set_storage_geometry(mt_TensorObject *self, mt_storage *storage, int64_t offset, int n, const int64_t *sizes,
                        int nstrides, const int64_t *strides)
{
    int64_t own[MT_MAX_DIMS], nbytes;
    size_t itemsize = mt_dtype_size(self->dtype);
    mt_device device = mt_tensor_device(self);
    int same;

    if (!mt_device_equal(device, storage->device)) {
        char have[64], want[64];
        mt_device_format(device, have, sizeof(have));
        mt_device_format(storage->device, want, sizeof(want));
        PyErr_Format(PyExc_RuntimeError,
                     "Attempted to set the storage of a tensor on device \"%s\" to a storage on different device "
                     "\"%s\".  This is no longer allowed; the devices must match.", have, want);
        return -1;
    }
    if (offset < 0) {
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)offset);
        return -1;
    }
    if (strides != NULL && nstrides != n) {
        PyErr_Format(PyExc_RuntimeError, "unequal size length (%d) and stride length (%d)", n, nstrides);
        return -1;
    }
    if (n > MT_MAX_DIMS) {
        return mt_raise_too_many_dims(n);
    }
    for (int d = 0; d < n; d++) {
        if (sizes[d] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
            return -1;
        }
    }
    /* torch's resize_impl_: the geometry self already has is kept as it is (its strides too, when none are
     * given) and checked against the storage; any other grows the storage to hold it */
    same = n == self->ndim && memcmp(sizes, self->sizes, sizeof(int64_t) * (size_t)n) == 0 &&
           (strides == NULL || memcmp(strides, self->strides, sizeof(int64_t) * (size_t)n) == 0);
    if (strides == NULL) {
        int64_t step = 1;
        for (int d = n - 1; d >= 0; d--) {
            own[d] = step;
            step *= sizes[d] > 1 ? sizes[d] : 1;
        }
        nstrides = 0;
    }
    if (storage_nbytes(n, sizes, strides != NULL ? strides : own, itemsize, &nbytes) < 0) {
        return -1;
    }
    if (nbytes != 0) {
        uint64_t end;
        if (__builtin_mul_overflow((uint64_t)offset, (uint64_t)itemsize, &end) ||
            __builtin_add_overflow(end, (uint64_t)nbytes, &end) || end > (uint64_t)PTRDIFF_MAX) {
            PyErr_SetString(PyExc_RuntimeError, "Storage size calculation overflowed");
            return -1;
        }
        if (same && storage->device.type != MT_DEVICE_META) {
            if (end > storage->nbytes) {
                out_of_bounds(n, sizes, nstrides, strides != NULL ? strides : own, offset, itemsize, nbytes, storage);
                return -1;
            }
        }
        else if (mt_storage_grow(storage, (size_t)end) < 0) {
            return -1;
        }
    }
    if (same && strides == NULL) {
        memcpy(own, self->strides, sizeof(int64_t) * (size_t)n);
    }
    return mt_tensor_rebind(self, storage, offset, n, sizes, strides != NULL ? strides : own);
}

/* torch's setStrided: the view of t's storage with these sizes, strides and offset (at::as_strided's
 * checks in its order: lengths, negative strides, the storage's bounds, the offset). Below autograd. */
static mt_TensorObject *
as_strided_impl(mt_TensorObject *t, int n, const int64_t *sizes, int nstrides, const int64_t *strides,
                int64_t offset)
{
    size_t itemsize = mt_dtype_size(t->dtype);
    int64_t nbytes;

    if (n != nstrides) {
        PyErr_SetString(PyExc_RuntimeError, "mismatch in length of strides and shape");
        return NULL;
    }
    for (int d = 0; d < n; d++) {
        if (strides[d] < 0) {
            char buf[1024];
            mt_format_shape(n, strides, buf, sizeof(buf));
            PyErr_Format(PyExc_RuntimeError,
                         "as_strided: Negative strides are not supported at the moment, got strides: %s", buf);
            return NULL;
        }
    }
    if (n > MT_MAX_DIMS) {
        mt_raise_too_many_dims(n);
        return NULL;
    }
    if (storage_nbytes(n, sizes, strides, itemsize, &nbytes) < 0) {
        return NULL;
    }
    /* a meta tensor has no storage to check against, as torch's meta as_strided */
    if (nbytes != 0 && t->storage != NULL && mt_tensor_device(t).type != MT_DEVICE_META &&
        (uint64_t)nbytes + (uint64_t)(offset * (int64_t)itemsize) > (uint64_t)t->storage->nbytes) {
        return out_of_bounds(n, sizes, n, strides, offset, itemsize, nbytes, t->storage);
    }
    if (offset < 0) {
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)offset);
        return NULL;
    }
    return mt_tensor_new_view(t, n, sizes, strides, offset);
}

/* at::unfold: windows of `size` every `step` along dim as a new last dim (a 0-d tensor counts as one
 * element); dim is wrapped into *wrapped. */
static mt_TensorObject *
unfold_impl(mt_TensorObject *t, int64_t dim_in, int64_t size, int64_t step, int *wrapped)
{
    int64_t sizes[MT_MAX_DIMS + 1], strides[MT_MAX_DIMS + 1];
    int dim;
    int64_t max_size;

    if (mt_wrap_dim(dim_in, t->ndim > 0 ? t->ndim : 1, &dim) < 0) {
        return NULL;
    }
    *wrapped = dim;
    max_size = t->ndim == 0 ? 1 : t->sizes[dim];
    if (size > max_size) {
        PyErr_Format(PyExc_RuntimeError, "maximum size for tensor at dimension %d is %lld but size is %lld", dim,
                     (long long)max_size, (long long)size);
        return NULL;
    }
    if (size < 0) {
        PyErr_Format(PyExc_RuntimeError, "size is %lld but must be >= 0", (long long)size);
        return NULL;
    }
    if (step <= 0) {
        PyErr_Format(PyExc_RuntimeError, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[t->ndim] = size;
    strides[t->ndim] = t->ndim == 0 ? 1 : t->strides[dim];
    if (dim < t->ndim) {
        sizes[dim] = (sizes[dim] - size) / step + 1;
        strides[dim] *= step;
    }
    return as_strided_impl(t, t->ndim + 1, sizes, t->ndim + 1, strides, t->offset);
}

static mt_TensorObject *
clone_impl(mt_TensorObject *t)
{
    mt_device device = mt_tensor_device(t);
    mt_TensorObject *out = mt_tensor_empty_preserving(t, t->dtype, device);
    int64_t numel = mt_tensor_numel(t);

    if (out == NULL || numel == 0) {
        return out;
    }
    if (mt_tensor_is_non_overlapping_and_dense(t)) {
        /* the same dense layout on both sides: one block copy, which also works device to device */
        if (mt_memcpy(mt_tensor_data(out), device, NULL, mt_tensor_data(t), device, t->storage,
                      (size_t)numel * mt_dtype_size(t->dtype)) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (mt_copy_(out, t) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ---- cat and friends --------------------------------------------------------------------------------- */

static int
cat_should_skip(const mt_TensorObject *t)
{
    /* legacy: 1-D empty tensors were the only empty tensors once, and cat still ignores them */
    return t->ndim == 1 && t->sizes[0] == 0;
}

/* torch's meta cat (_refs' cat, then prims' _cat_meta) on n shapes: the rank of each shape that is not 1-D
 * against the first such, a 1-D one of another rank must be empty; the empty 1-D ones are left out and the
 * others' sizes compared with the first left in (numbered among those left in). 0 or -1 raised. */
static const char cat_meta_rank_message[] =
    "Number of dimensions of tensors must match.  Expected %d-D tensors, but got %d-D for tensor number %zd in the "
    "list";

static int
cat_meta_check(Py_ssize_t n, const int *ndims, const int64_t *const *shapes, int64_t dim_in)
{
    Py_ssize_t example = -1, first = -1, k = 0;
    int dim;

    for (Py_ssize_t i = 0; i < n; i++) {
        if (ndims[i] == 1) {
            continue;
        }
        if (example < 0) {
            example = i;
        }
        else if (ndims[i] != ndims[example]) {
            break;
        }
    }
    for (Py_ssize_t i = example + 1; example >= 0 && i < n; i++) {
        if (ndims[i] != 1 && ndims[i] != ndims[example]) {
            PyErr_Format(PyExc_RuntimeError, cat_meta_rank_message, ndims[example], ndims[i], i);
            return -1;
        }
    }
    example = example < 0 ? 0 : example;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (ndims[i] != ndims[example] && (ndims[i] != 1 || shapes[i][0] != 0)) {
            PyErr_Format(PyExc_RuntimeError, cat_meta_rank_message, ndims[example], ndims[i], i);
            return -1;
        }
        if (first < 0 && !(ndims[i] == 1 && shapes[i][0] == 0)) {
            first = i;
        }
    }
    if (first < 0) {
        return 0;
    }
    if (mt_wrap_dim(dim_in, ndims[first], &dim) < 0) {
        return -1;
    }
    if (ndims[first] == 0) {
        /* prims' cat sets the cat dim of a 0-dim shape */
        PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
        return -1;
    }
    for (Py_ssize_t i = first; i < n; i++) {
        if (ndims[i] == 1 && shapes[i][0] == 0) {
            continue;
        }
        for (int d = 0; d < ndims[first]; d++) {
            if (d != dim && shapes[i][d] != shapes[first][d]) {
                PyErr_Format(PyExc_RuntimeError,
                             "Sizes of tensors must match except in dimension %d. Expected %lld in dimension %d but "
                             "got %lld for tensor number %zd in the list",
                             dim, (long long)shapes[first][d], d, (long long)shapes[i][d], k);
                return -1;
            }
        }
        k++;
    }
    return 0;
}

/* cat_meta_check on the tensors' shapes, or with the last dim of each (unsqueezed to `unsqueeze` + 1 dims,
 * `unsqueeze` >= 0) for stack at the end, when all are on the meta device; other devices: 0, the usual
 * checks raise. */
/* a slot of `grown` holds a shape with the stacked dim added: one more than a tensor's dims */
#define GROWN_DIMS (MT_MAX_DIMS + 1)

static int
cat_meta_check_tensors(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim, int unsqueeze)
{
    int *ndims;
    const int64_t **shapes;
    int64_t *grown = NULL;
    int rc = -1;

    for (Py_ssize_t i = 0; i < n; i++) {
        if (mt_tensor_device(tensors[i]).type != MT_DEVICE_META) {
            return 0;
        }
    }
    ndims = PyMem_Malloc(sizeof(int) * (size_t)n + 1);
    shapes = PyMem_Malloc(sizeof(int64_t *) * (size_t)n + 1);
    if (unsqueeze >= 0) {
        grown = PyMem_Malloc(sizeof(int64_t) * GROWN_DIMS * (size_t)n + 1);
    }
    if (ndims == NULL || shapes == NULL || (unsqueeze >= 0 && grown == NULL)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        ndims[i] = tensors[i]->ndim;
        shapes[i] = tensors[i]->sizes;
        if (unsqueeze >= 0) {
            int at;
            if (mt_wrap_dim(unsqueeze, tensors[i]->ndim + 1, &at) < 0) {
                goto done;
            }
            memcpy(grown + GROWN_DIMS * i, tensors[i]->sizes, sizeof(int64_t) * (size_t)tensors[i]->ndim);
            memmove(grown + GROWN_DIMS * i + at + 1, grown + GROWN_DIMS * i + at,
                    sizeof(int64_t) * (size_t)(tensors[i]->ndim - at));
            grown[GROWN_DIMS * i + at] = 1;
            ndims[i] = tensors[i]->ndim + 1;
            shapes[i] = grown + GROWN_DIMS * i;
        }
    }
    rc = cat_meta_check(n, ndims, shapes, dim);
done:
    PyMem_Free(ndims);
    PyMem_Free(shapes);
    PyMem_Free(grown);
    return rc;
}

static mt_TensorObject *
cat_impl(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim_in)
{
    int64_t sizes[MT_MAX_DIMS];
    int ndim;
    int dim = (int)dim_in;
    Py_ssize_t valid = n;
    mt_dtype dtype;
    mt_device device;
    mt_TensorObject *out = NULL;
    int64_t offset = 0;

    if (cat_meta_check_tensors(n, tensors, dim_in, -1) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (tensors[i]->ndim == 0) {
            PyErr_Format(PyExc_RuntimeError, "zero-dimensional tensor (at position %zd) cannot be concatenated", i);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!cat_should_skip(tensors[i])) {
            if (mt_wrap_dim(dim_in, tensors[i]->ndim, &dim) < 0) {
                return NULL;
            }
            break;
        }
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    device = mt_tensor_device(tensors[0]);
    for (Py_ssize_t i = 1; i < n; i++) {
        mt_device d = mt_tensor_device(tensors[i]);
        if (!mt_device_equal(d, device)) {
            char a[32], b[32];
            if (d.type == MT_DEVICE_META || device.type == MT_DEVICE_META) {
                mt_raise_meta_device_mismatch(device, d);
                return NULL;
            }
            mt_device_format(d, a, sizeof(a));
            mt_device_format(device, b, sizeof(b));
            PyErr_Format(PyExc_RuntimeError,
                         "Expected all tensors to be on the same device, but got tensors is on %s, different from "
                         "other tensors on %s (when checking argument in method wrapper_%s_cat)",
                         a, b, (d.type == MT_DEVICE_CUDA || device.type == MT_DEVICE_CUDA) ? "CUDA" : "CPU");
            return NULL;
        }
    }
    dtype = tensors[0]->dtype;
    for (Py_ssize_t i = 1; i < n; i++) {
        dtype = mt_promote_types(dtype, tensors[i]->dtype);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!cat_should_skip(tensors[i])) {
            valid = i;
            break;
        }
    }
    if (valid < n) {
        const mt_TensorObject *first = tensors[valid];
        int64_t total = 0;
        ndim = first->ndim;
        for (Py_ssize_t i = 0; i < n; i++) {
            const mt_TensorObject *t = tensors[i];
            if (cat_should_skip(t)) {
                continue;
            }
            if (t->ndim != ndim) {
                PyErr_Format(PyExc_RuntimeError, "Tensors must have same number of dimensions: got %d and %d", ndim,
                             t->ndim);
                return NULL;
            }
            for (int d = 0; d < ndim; d++) {
                if (d != dim && t->sizes[d] != first->sizes[d]) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "Sizes of tensors must match except in dimension %d. Expected size %lld but got "
                                 "size %lld for tensor number %zd in the list.",
                                 dim, (long long)first->sizes[d], (long long)t->sizes[d], i);
                    return NULL;
                }
            }
            if (__builtin_add_overflow(total, t->sizes[dim], &total)) {
                /* cat of expanded views of 2**62 elements: the sum wrapped (undefined behaviour) into
                 * a negative size */
                PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
                return NULL;
            }
        }
        memcpy(sizes, first->sizes, sizeof(int64_t) * (size_t)ndim);
        sizes[dim] = total;
    }
    else {
        ndim = 1;
        sizes[0] = 0;
        dim = 0;
    }
    /* each part is copied into its slice of the result by the device's cast kernel */
    out = mt_tensor_empty(ndim, sizes, dtype, device);
    if (out == NULL) {
        return NULL;
    }
    if (valid < n) {
        for (Py_ssize_t i = 0; i < n; i++) {
            mt_TensorObject *t = tensors[i];
            mt_TensorObject *part;
            int r;
            if (cat_should_skip(t) || t->sizes[dim] == 0) {
                continue;
            }
            part = mt_slice(out, dim, offset, offset + t->sizes[dim], 1);
            if (part == NULL) {
                goto error;
            }
            r = mt_copy_(part, t);
            Py_DECREF(part);
            if (r < 0) {
                goto error;
            }
            offset += t->sizes[dim];
        }
    }
    return out;

error:
    Py_XDECREF(out);
    return NULL;
}

static mt_TensorObject *
cat_of_views(Py_ssize_t n, mt_TensorObject *const *items, int64_t dim, int mode, int stack_dim)
{
    mt_TensorObject *views[256] = {NULL};
    mt_TensorObject **v = views;
    mt_TensorObject *result = NULL;
    Py_ssize_t made = 0;

    if (n > (Py_ssize_t)(sizeof(views) / sizeof(views[0]))) {
        v = PyMem_Malloc(sizeof(mt_TensorObject *) * (size_t)n);
        if (v == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    for (; made < n; made++) {
        mt_TensorObject *t = items[made];
        mt_TensorObject *view;
        if (mode == 0) {
            /* stack: a new dim of size 1 at stack_dim */
            view = mt_unsqueeze(t, stack_dim);
        }
        else if (mode == 1) {
            /* atleast_1d */
            view = t->ndim == 0 ? mt_unsqueeze(t, 0) : mt_alias(t);
        }
        else {
            /* atleast_2d */
            if (t->ndim == 0) {
                int64_t one[2] = {1, 1};
                view = mt_view(t, 2, one);
            }
            else if (t->ndim == 1) {
                view = mt_unsqueeze(t, 0);
            }
            else {
                view = mt_alias(t);
            }
        }
        if (view == NULL) {
            goto done;
        }
        v[made] = view;
    }
    if (mode == 1) {
        dim = v[0]->ndim == 1 ? 0 : 1;
    }
    result = mt_cat(n, v, dim);

done:
    for (Py_ssize_t i = 0; i < made; i++) {
        Py_DECREF(v[i]);
    }
    if (v != views) {
        PyMem_Free(v);
    }
    return result;
}


/* ---- the views and joins with their own checks (C entry points) ---------------------------------- */

PyObject *
mt_tuple_of(mt_TensorObject **items, Py_ssize_t n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_XDECREF(items[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, (PyObject *)items[i]);
    }
    return tuple;
}

/* Tensor.view(dtype): the same bytes read as another dtype (at::native::view_dtype). With a different
 * element size the last dim must be dense and is rescaled. */
mt_TensorObject *
mt_view_dtype(mt_TensorObject *self, mt_dtype dtype)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int64_t old_size = (int64_t)mt_dtype_size(self->dtype), new_size = (int64_t)mt_dtype_size(dtype);
    int64_t offset = self->offset;
    int n = self->ndim;
    const char *from = mt_dtype_scalar_name(self->dtype), *to = mt_dtype_scalar_name(dtype);

    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)n);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)n);
    if (old_size != new_size) {
        if (n == 0) {
            PyErr_Format(PyExc_RuntimeError, "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                         from, to);
            return NULL;
        }
        if (old_size > new_size) {
            int64_t ratio = old_size / new_size;
            if (strides[n - 1] != 1) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                             from, to, (long long)strides[n - 1]);
                return NULL;
            }
            sizes[n - 1] *= ratio;
            offset *= ratio;
            for (int d = 0; d < n - 1; d++) {
                strides[d] *= ratio;
            }
        }
        else {
            int64_t ratio = new_size / old_size;
            if (sizes[n - 1] % ratio != 0) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.size(-1) must be divisible by %lld to view %s as %s (different element sizes), "
                             "but got %lld",
                             (long long)ratio, from, to, (long long)sizes[n - 1]);
                return NULL;
            }
            if (offset % ratio != 0) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.storage_offset() must be divisible by %lld to view %s as %s (different element "
                             "sizes), but got %lld",
                             (long long)ratio, from, to, (long long)offset);
                return NULL;
            }
            if (strides[n - 1] != 1) {
                PyErr_Format(PyExc_RuntimeError,
                             "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                             from, to, (long long)strides[n - 1]);
                return NULL;
            }
            for (int d = 0; d < n - 1; d++) {
                if (strides[d] % ratio != 0) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "self.stride(%d) must be divisible by %lld to view %s as %s (different element "
                                 "sizes), but got %lld",
                                 d, (long long)ratio, from, to, (long long)strides[d]);
                    return NULL;
                }
                strides[d] /= ratio;
            }
            sizes[n - 1] /= ratio;
            offset /= ratio;
        }
        strides[n - 1] = 1;
    }
    return mt_tensor_from_storage(self->storage, n, sizes, strides, offset, dtype);
}

/* squeeze over the dims flagged in `mask` (all size-1 dims when mask is NULL). */
static mt_TensorObject *
squeeze_mask(mt_TensorObject *t, const char *mask)
{
    int64_t sizes[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int n = 0;

    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 1 && (mask == NULL || mask[d])) {
            continue;
        }
        sizes[n] = t->sizes[d];
        strides[n] = t->strides[d];
        n++;
    }
    return mt_tensor_new_view(t, n, sizes, strides, t->offset);
}

/* size(dim) with torch's "Dimension specified as 0 but tensor has no dimensions" for 0-d tensors. */
static int
dim_size(mt_TensorObject *t, int64_t dim_in, int *dim)
{
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dim_in);
        return -1;
    }
    return mt_wrap_dim(dim_in, t->ndim, dim);
}

/* split_with_sizes over a wrapped dim. */
static PyObject *
split_sizes(mt_TensorObject *self, int dim, int n, const int64_t *sizes)
{
    mt_TensorObject *parts[MT_MAX_DIMS * 4];
    mt_TensorObject **p = parts;
    int64_t start = 0;
    PyObject *result;

    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0) {
            char s[1024];
            mt_format_shape(n, sizes, s, sizeof(s));
            PyErr_Format(PyExc_RuntimeError,
                         "split_with_sizes expects split_sizes have only non-negative entries, but got "
                         "split_sizes=%s",
                         s);
            return NULL;
        }
    }
    if (n > (int)(sizeof(parts) / sizeof(parts[0]))) {
        p = PyMem_Malloc(sizeof(mt_TensorObject *) * (size_t)n);
        if (p == NULL) {
            return PyErr_NoMemory();
        }
    }
    for (int i = 0; i < n; i++) {
        p[i] = mt_slice(self, dim, start, start + sizes[i], 1);
        if (p[i] == NULL) {
            for (int j = 0; j < i; j++) {
                Py_DECREF(p[j]);
            }
            result = NULL;
            goto done;
        }
        start += sizes[i];
    }
    if (start != self->sizes[dim]) {
        char s[1024];
        mt_format_shape(n, sizes, s, sizeof(s));
        for (int j = 0; j < n; j++) {
            Py_DECREF(p[j]);
        }
        PyErr_Format(PyExc_RuntimeError,
                     "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension "
                     "%d), but got split_sizes=%s",
                     (long long)self->sizes[dim], dim, s);
        result = NULL;
        goto done;
    }
    result = mt_tuple_of(p, n);

done:
    if (p != parts) {
        PyMem_Free(p);
    }
    return result;
}


static PyObject *
split_equal(mt_TensorObject *self, int dim, int64_t split_size)
{
    int64_t dim_size_v = self->sizes[dim];
    int64_t num_splits = 1;
    int64_t last;
    PyObject *tuple;

    if (split_size < 0) {
        PyErr_Format(PyExc_RuntimeError, "split expects split_size be non-negative, but got split_size=%lld",
                     (long long)split_size);
        return NULL;
    }
    if (split_size == 0 && dim_size_v != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                     (long long)dim_size_v);
        return NULL;
    }
    if (split_size != 0) {
        num_splits = (dim_size_v + split_size - 1) / split_size;
        if (num_splits < 1) {
            num_splits = 1;
        }
    }
    last = split_size - (split_size * num_splits - dim_size_v);
    tuple = PyTuple_New((Py_ssize_t)num_splits);
    if (tuple == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < num_splits; i++) {
        int64_t length = i < num_splits - 1 ? split_size : last;
        mt_TensorObject *part = mt_narrow(self, dim, i * split_size, length);
        if (part == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
    }
    return tuple;
}

static mt_TensorObject *
t_impl(mt_TensorObject *t)
{
    if (t->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        return NULL;
    }
    return mt_transpose(t, 0, t->ndim < 2 ? 0 : 1);
}

static mt_TensorObject *
squeeze_impl(mt_TensorObject *t, int ndims, const int64_t *dims)
{
    char mask[MT_MAX_DIMS] = {0};

    if (ndims < 0) {
        return squeeze_mask(t, NULL);
    }
    for (int i = 0; i < ndims; i++) {
        int d;
        if (mt_wrap_dim(dims[i], t->ndim, &d) < 0) {
            return NULL;
        }
        if (mask[d]) {
            PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims", d);
            return NULL;
        }
        mask[d] = 1;
    }
    return squeeze_mask(t, mask);
}

mt_TensorObject *
mt_flatten(mt_TensorObject *t, int64_t start_dim, int64_t end_dim)
{
    int64_t sizes[MT_MAX_DIMS];
    int s, e, n = 0;

    if (mt_wrap_dim(start_dim, t->ndim, &s) < 0 || mt_wrap_dim(end_dim, t->ndim, &e) < 0) {
        return NULL;
    }
    if (s > e) {
        PyErr_SetString(PyExc_RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (t->ndim == 0) {
        int64_t one = 1;
        return mt_reshape(t, 1, &one);
    }
    if (s == e) {
        /* torch returns self itself here */
        Py_INCREF(t);
        return t;
    }
    for (int d = 0; d < s; d++) {
        sizes[n++] = t->sizes[d];
    }
    sizes[n] = 1;
    for (int d = s; d <= e; d++) {
        sizes[n] *= t->sizes[d];
    }
    n++;
    for (int d = e + 1; d < t->ndim; d++) {
        sizes[n++] = t->sizes[d];
    }
    return mt_reshape(t, n, sizes);
}

mt_TensorObject *
mt_unflatten(mt_TensorObject *t, int64_t dim_in, int nparts, const int64_t *parts_in)
{
    int64_t parts[MT_MAX_DIMS], sizes[MT_MAX_DIMS];
    int dim, n = 0;

    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (nparts == 0) {
        PyErr_SetString(PyExc_RuntimeError, "unflatten: sizes must be non-empty");
        return NULL;
    }
    if (t->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "unflatten got an unexpected error:\nDimension specified as %lld but tensor has no dimensions",
                     (long long)dim_in);
        return NULL;
    }
    if (t->ndim - 1 + nparts > MT_MAX_DIMS) {
        mt_raise_too_many_dims(t->ndim - 1 + nparts);
        return NULL;
    }
    memcpy(parts, parts_in, sizeof(int64_t) * (size_t)nparts);
    if (mt_infer_size(nparts, parts, t->sizes[dim]) < 0) {
        PyObject *type, *value, *tb;
        char shape[1024];
        PyErr_Fetch(&type, &value, &tb);
        {
            PyObject *text = value != NULL ? PyObject_Str(value) : NULL;
            const char *msg = text != NULL ? PyUnicode_AsUTF8(text) : NULL;
            if (msg != NULL && strstr(msg, "is invalid for input of size") != NULL) {
                mt_format_shape(nparts, parts, shape, sizeof(shape));
                PyErr_Format(PyExc_RuntimeError,
                             "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%lld) in the "
                             "input tensor",
                             shape, dim, (long long)t->sizes[dim]);
            }
            else if (msg != NULL) {
                PyErr_Format(PyExc_RuntimeError, "unflatten got an unexpected error:\n%s", msg);
            }
            Py_XDECREF(text);
        }
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    for (int d = 0; d < dim; d++) {
        sizes[n++] = t->sizes[d];
    }
    for (int i = 0; i < nparts; i++) {
        sizes[n++] = parts[i];
    }
    for (int d = dim + 1; d < t->ndim; d++) {
        sizes[n++] = t->sizes[d];
    }
    return mt_view(t, n, sizes);
}

static mt_TensorObject *
clone_in_format_impl(mt_TensorObject *t, mt_memory_format format)
{
    if (format == MT_PRESERVE_FORMAT) {
        return mt_clone(t);
    }
    return copy_in_format(t, format);
}

mt_TensorObject *
mt_contiguous(mt_TensorObject *t, mt_memory_format format)
{
    if (mt_memory_format_is_contiguous(format, t->ndim, t->sizes, t->strides)) {
        Py_INCREF(t);
        return t;
    }
    if (format == MT_PRESERVE_FORMAT) {
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    return mt_clone_in_format(t, format);
}

static PyObject *
unbind_impl(mt_TensorObject *t, int64_t dim_in)
{
    int dim;
    int64_t n;
    PyObject *tuple;

    if (dim_size(t, dim_in, &dim) < 0) {
        return NULL;
    }
    n = t->sizes[dim];
    tuple = PyTuple_New((Py_ssize_t)n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        mt_TensorObject *part = mt_select(t, dim, i);
        if (part == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
    }
    return tuple;
}

static PyObject *
split_impl(mt_TensorObject *t, int64_t split_size, int64_t dim_in)
{
    int dim;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (dim_size(t, dim_in, &dim) < 0) {
        return NULL;
    }
    return split_equal(t, dim, split_size);
}

static PyObject *
split_with_sizes_impl(mt_TensorObject *t, int n, const int64_t *sizes, int64_t dim_in)
{
    int dim;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (dim_size(t, dim_in, &dim) < 0) {
        return NULL;
    }
    return split_sizes(t, dim, n, sizes);
}

static PyObject *
chunk_impl(mt_TensorObject *t, int64_t chunks, int64_t dim_in)
{
    int dim;
    int64_t dim_size_v, split_size;

    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "chunk expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (chunks <= 0) {
        PyErr_Format(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
        return NULL;
    }
    if (mt_wrap_dim(dim_in, t->ndim, &dim) < 0) {
        return NULL;
    }
    dim_size_v = t->sizes[dim];
    split_size = (dim_size_v + chunks - 1) / chunks;
    if (split_size == 0 && dim_size_v == 0) {
        /* `chunks` empty parts: split would give only one */
        PyObject *tuple;
        if (chunks > 1 << 20) {
            PyErr_SetString(PyExc_RuntimeError, "minitorch: too many chunks");
            return NULL;
        }
        tuple = PyTuple_New((Py_ssize_t)chunks);
        if (tuple == NULL) {
            return NULL;
        }
        for (int64_t i = 0; i < chunks; i++) {
            mt_TensorObject *part = mt_slice(t, dim, 0, 0, 1);
            if (part == NULL) {
                Py_DECREF(tuple);
                return NULL;
            }
            PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, (PyObject *)part);
        }
        return tuple;
    }
    return split_equal(t, dim, split_size);
}

static mt_TensorObject *
stack_impl(Py_ssize_t n, mt_TensorObject *const *items, int64_t dim)
{
    int wrapped;

    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "stack expects a non-empty TensorList");
        return NULL;
    }
    if (mt_wrap_dim(dim, items[0]->ndim + 1, &wrapped) < 0) {
        return NULL;
    }
    /* torch's meta stack (_refs' stack): at the last dim a cat of the unsqueezed tensors, with cat's checks */
    if (wrapped == items[0]->ndim && cat_meta_check_tensors(n, items, wrapped, wrapped) < 0) {
        return NULL;
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        int same = items[i]->ndim == items[0]->ndim;
        for (int d = 0; same && d < items[0]->ndim; d++) {
            same = items[i]->sizes[d] == items[0]->sizes[d];
        }
        if (!same) {
            char s0[1024], s1[1024];
            mt_format_shape(items[0]->ndim, items[0]->sizes, s0, sizeof(s0));
            mt_format_shape(items[i]->ndim, items[i]->sizes, s1, sizeof(s1));
            if (mt_tensor_device(items[0]).type == MT_DEVICE_META) {
                /* torch's meta check (_check_stack_inputs) names entry 0 only */
                PyErr_Format(PyExc_RuntimeError,
                             "stack expects each tensor to be equal size, but got minitorch.Size(%s) at entry 0 ", s0);
                return NULL;
            }
            PyErr_Format(PyExc_RuntimeError,
                         "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %zd", s0,
                         s1, i);
            return NULL;
        }
    }
    return cat_of_views(n, items, wrapped, 0, wrapped);
}

mt_TensorObject *
mt_hstack(Py_ssize_t n, mt_TensorObject *const *items)
{
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "hstack expects a non-empty TensorList");
        return NULL;
    }
    return cat_of_views(n, items, 0, 1, 0);
}

mt_TensorObject *
mt_vstack(Py_ssize_t n, mt_TensorObject *const *items)
{
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "vstack expects a non-empty TensorList");
        return NULL;
    }
    return cat_of_views(n, items, 0, 2, 0);
}

/* ---- autograd: what the ops above record -------------------------------------------------------------- */

/* The ops whose parts are other view ops compute below autograd and record their own node, as torch's
 * do: t() is one TBackward0, not a TransposeBackward0. */
#define BELOW(expr)                                                                                    \
    ({                                                                                                 \
        __typeof__(expr) r_;                                                                           \
        MT_BELOW_AUTOGRAD(r_ = (expr));                                                                \
        r_;                                                                                            \
    })

mt_TensorObject *
mt_transpose(mt_TensorObject *t, int64_t dim0, int64_t dim1)
{
    int64_t dims[2] = {dim0, dim1};
    return recorded(MT_AG_TRANSPOSE, t, BELOW(transpose_impl(t, dim0, dim1)), 2, dims);
}

mt_TensorObject *
mt_permute(mt_TensorObject *t, int ndims, const int64_t *dims)
{
    int64_t wrapped[MT_MAX_DIMS];
    mt_TensorObject *r = BELOW(permute_impl(t, ndims, dims));

    for (int i = 0; r != NULL && i < ndims; i++) {
        int d;
        mt_wrap_dim(dims[i], t->ndim, &d);
        wrapped[i] = d;
    }
    return recorded(MT_AG_PERMUTE, t, r, ndims, wrapped);
}

mt_TensorObject *
mt_select(mt_TensorObject *t, int64_t dim, int64_t index)
{
    int64_t args[2] = {dim, index};
    return recorded(MT_AG_SELECT, t, BELOW(select_impl(t, dim, index)), 2, args);
}

mt_TensorObject *
mt_diagonal(mt_TensorObject *t, int64_t offset, int64_t dim1, int64_t dim2)
{
    int d1, d2;
    int64_t args[3];

    if (mt_wrap_dim(dim1, t->ndim, &d1) < 0 || mt_wrap_dim(dim2, t->ndim, &d2) < 0) {
        return NULL;
    }
    if (d1 == d2) {
        PyErr_Format(PyExc_RuntimeError, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1,
                     (long long)dim2);
        return NULL;
    }
    args[0] = offset;
    args[1] = d1;
    args[2] = d2;
    return recorded(MT_AG_DIAGONAL, t, BELOW(diagonal_impl(t, offset, d1, d2)), 3, args);
}

mt_TensorObject *
mt_slice(mt_TensorObject *t, int dim, int64_t start, int64_t stop, int64_t step)
{
    int64_t args[4] = {dim, start, stop, step};
    return recorded(MT_AG_SLICE, t, BELOW(slice_impl(t, dim, start, stop, step)), 4, args);
}

mt_TensorObject *
mt_t(mt_TensorObject *t)
{
    return recorded(MT_AG_T, t, BELOW(t_impl(t)), 0, NULL);
}

mt_TensorObject *
mt_squeeze(mt_TensorObject *t, int ndims, const int64_t *dims)
{
    mt_ag_view_kind kind = ndims < 0 ? MT_AG_SQUEEZE : ndims == 1 ? MT_AG_SQUEEZE_DIM : MT_AG_SQUEEZE_DIMS;
    return recorded(kind, t, BELOW(squeeze_impl(t, ndims, dims)), 0, NULL);
}

mt_TensorObject *
mt_clone(mt_TensorObject *t)
{
    return recorded(MT_AG_CLONE, t, BELOW(clone_impl(t)), 0, NULL);
}

mt_TensorObject *
mt_clone_in_format(mt_TensorObject *t, mt_memory_format format)
{
    return recorded(MT_AG_CLONE, t, BELOW(clone_in_format_impl(t, format)), 0, NULL);
}

mt_TensorObject *
mt_cat(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim)
{
    mt_TensorObject *r = BELOW(cat_impl(n, tensors, dim));
    int wrapped = 0;

    if (r != NULL && mt_wrap_dim(dim, r->ndim, &wrapped) == 0 && mt_ag_cat(0, n, tensors, wrapped, r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

mt_TensorObject *
mt_stack(Py_ssize_t n, mt_TensorObject *const *items, int64_t dim)
{
    mt_TensorObject *r = BELOW(stack_impl(n, items, dim));
    int wrapped = 0;

    if (r != NULL && mt_wrap_dim(dim, r->ndim, &wrapped) == 0 && mt_ag_cat(1, n, items, wrapped, r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* parts (a tuple or NULL) of t along dim, with one node for all of them recorded */
static PyObject *
recorded_parts(mt_ag_split_kind kind, mt_TensorObject *t, int64_t dim, PyObject *parts)
{
    int wrapped;

    if (parts != NULL && mt_wrap_dim(dim, t->ndim, &wrapped) == 0 && mt_ag_split(kind, t, wrapped, parts) < 0) {
        Py_CLEAR(parts);
    }
    return parts;
}

PyObject *
mt_unbind(mt_TensorObject *t, int64_t dim)
{
    return recorded_parts(MT_AG_UNBIND, t, dim, BELOW(unbind_impl(t, dim)));
}

PyObject *
mt_split(mt_TensorObject *t, int64_t split_size, int64_t dim)
{
    return recorded_parts(MT_AG_SPLIT, t, dim, BELOW(split_impl(t, split_size, dim)));
}

PyObject *
mt_split_with_sizes(mt_TensorObject *t, int n, const int64_t *sizes, int64_t dim)
{
    return recorded_parts(MT_AG_SPLIT_WITH_SIZES, t, dim, BELOW(split_with_sizes_impl(t, n, sizes, dim)));
}

PyObject *
mt_chunk(mt_TensorObject *t, int64_t chunks, int64_t dim)
{
    return recorded_parts(MT_AG_SPLIT, t, dim, BELOW(chunk_impl(t, chunks, dim)));
}

mt_TensorObject *
mt_as_strided(mt_TensorObject *t, int n, const int64_t *sizes, int nstrides, const int64_t *strides, int has_offset,
              int64_t offset)
{
    mt_TensorObject *in[1] = {t};
    mt_TensorObject *r = BELOW(as_strided_impl(t, n, sizes, nstrides, strides, has_offset ? offset : t->offset));
    mt_node *node;

    if (r == NULL || !mt_ag_needed(1, in)) {
        return r;
    }
    node = mt_ag_as_strided_node(0, t, r);
    if (node == NULL || mt_ag_set_output(node, r, 0) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(node);
    return r;
}

mt_TensorObject *
mt_unfold(mt_TensorObject *t, int64_t dim, int64_t size, int64_t step)
{
    int wrapped = 0;
    mt_TensorObject *r = BELOW(unfold_impl(t, dim, size, step, &wrapped));
    int64_t args[3] = {wrapped, size, step};

    return recorded(MT_AG_UNFOLD, t, r, 3, args);
}
