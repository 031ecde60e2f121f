/* index.c: advanced indexing (ATen's TensorIndexing.h / AdvancedIndex) and the assignments of
 * Tensor.__setitem__, on C values: the view a key's basic part selected and the index tensors met on the way
 * (csrc/python/index_key.c reads the key). The plan (make_info) is made here (the index values are read and
 * checked on the host) and gathered into a new tensor, or scattered on assignment, by the gather and scatter
 * kernels of the tensor's device, so a CUDA tensor's storage stays on its device. Assignments of numbers and
 * tensors go through copy.c. This file owns no tensor type logic and no dtype conversion of its own. */
#include "index.h"

#include <stdio.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/index.h"
#include "../autograd/record.h"
#include "convert.h"
#include "copy.h"
#include "dispatch.h"
#include "gather.h"
#include "runner.h"
#include "masked.h"
#include "shape.h"
#include "../core/warn.h"

/* boolToIndexingTensor: True indexes [0] of a new size-1 dim, False nothing of it. */
mt_TensorObject *
mt_index_from_bool(int value)
{
    int64_t n = value ? 1 : 0;
    mt_TensorObject *t = mt_tensor_empty(1, &n, MT_INT64, mt_cpu_device());
    if (t != NULL && value) {
        *(int64_t *)mt_tensor_data(t) = 0;
    }
    return t;
}

/* ---- advanced indexing (ATen's make_info / AdvancedIndex) ---------------------------------------- */

/* One index tensor as int64 values on the host, with the geometry torch's TensorIterator would see. */
typedef struct {
    int ndim;
    int64_t sizes[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS];   /* layout only: decides the result's strides */
    int64_t *values;                /* contiguous over sizes; owned */
} index_array;

typedef struct {
    mt_TensorObject *base;          /* the sliced tensor, permuted so that the indexed dims are adjacent */
    int before, nidx, after;        /* base dims: before | indexed | after */
    int nindex;                     /* == nidx */
    index_array idx[MT_MAX_DIMS];
    int bndim;
    int64_t bshape[MT_MAX_DIMS];    /* the broadcast shape of the index tensors */
    int rndim;
    int64_t rshape[MT_MAX_DIMS];    /* the result shape */
    int permuted;                   /* base is self.permute(perm) (else self itself) */
    int64_t perm[MT_MAX_DIMS];
    int meta;                       /* torch's meta index: the indices' values are never read (NULL) */
} adv_plan;

static void
plan_clear(adv_plan *p)
{
    for (int k = 0; k < p->nindex; k++) {
        PyMem_Free(p->idx[k].values);
        p->idx[k].values = NULL;
    }
    p->nindex = 0;
    Py_CLEAR(p->base);
}

/* A tensor in host memory with t's values in `dtype` (t itself when host code can read it and the
 * dtype is right): moved first when needed (same dtype, a plain transfer), then converted there. */
static mt_TensorObject *
readable_on_host(mt_TensorObject *t, mt_dtype dtype)
{
    mt_TensorObject *host = mt_host_readable(t);
    mt_TensorObject *conv;

    if (host == NULL || host->dtype == dtype) {
        return host;
    }
    conv = mt_copy_to(host, dtype, mt_tensor_device(host));
    Py_DECREF(host);
    return conv;
}

/* Fills an index_array from an int32/int64 index tensor. */
static int
index_array_from_tensor(index_array *a, mt_TensorObject *t)
{
    mt_TensorObject *host = readable_on_host(t, MT_INT64);
    mt_TensorObject *contig;
    int64_t n;

    if (host == NULL) {
        return -1;
    }
    contig = mt_tensor_contiguous(host);
    Py_DECREF(host);
    if (contig == NULL) {
        return -1;
    }
    n = mt_tensor_numel(contig);
    a->ndim = t->ndim;
    memcpy(a->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(a->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    a->values = PyMem_Malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (a->values == NULL) {
        Py_DECREF(contig);
        PyErr_NoMemory();
        return -1;
    }
    if (n > 0) {
        memcpy(a->values, mt_tensor_data(contig), sizeof(int64_t) * (size_t)n);
    }
    Py_DECREF(contig);
    return 0;
}

/* expandTensors for one mask: its nonzero() coordinates become mask->ndim 1-D index arrays, each with
 * the stride (mask->ndim) of a column of nonzero's (N, ndim) result. */
static int
mask_to_indices(adv_plan *p, mt_TensorObject *mask)
{
    mt_TensorObject *host;
    int k = mask->ndim;
    int64_t count;
    int64_t *coords[MT_MAX_DIMS];

    if (mt_tensor_device(mask).type == MT_DEVICE_META) {
        /* the result's length is the count of true elements: a meta mask cannot say it (torch's meta
         * nonzero, behind nonzero, where(condition) and mask indexing alike) */
        PyErr_SetString(PyExc_NotImplementedError,
                        "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
                        "correct data-independent implementation does not exist. This implementation returns a "
                        "fake value, assuming all elements of the tensor are non-zero. To enable this "
                        "registration, please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' "
                        "to True.");
        return -1;
    }
    host = readable_on_host(mask, MT_BOOL);
    if (host == NULL) {
        return -1;
    }
    /* count, then record coordinates (row-major, like nonzero) */
    count = mt_cpu_nonzero(mt_tensor_data(host), k, host->sizes, host->strides, NULL);
    for (int j = 0; j < k; j++) {
        index_array *a = &p->idx[p->nindex + j];
        a->ndim = 1;
        a->sizes[0] = count;
        a->strides[0] = k;
        a->values = PyMem_Malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
        coords[j] = a->values;
        if (a->values == NULL) {
            for (int q = 0; q < j; q++) {
                PyMem_Free(p->idx[p->nindex + q].values);
                p->idx[p->nindex + q].values = NULL;
            }
            Py_DECREF(host);
            PyErr_NoMemory();
            return -1;
        }
    }
    mt_cpu_nonzero(mt_tensor_data(host), k, host->sizes, host->strides, coords);
    p->nindex += k;
    Py_DECREF(host);
    return 0;
}

static int
broadcast_into(int *nout, int64_t *out, int n, const int64_t *sizes)
{
    int64_t res[MT_MAX_DIMS];
    int nr = n > *nout ? n : *nout;
    for (int i = 0; i < nr; i++) {
        int ia = *nout - nr + i, ib = n - nr + i;
        int64_t a = ia >= 0 ? out[ia] : 1;
        int64_t b = ib >= 0 ? sizes[ib] : 1;
        if (a != b && a != 1 && b != 1) {
            return -1;
        }
        res[i] = a == 1 ? b : a;
    }
    memcpy(out, res, sizeof(int64_t) * (size_t)nr);
    *nout = nr;
    return 0;
}

/* make_info: checks, expands masks, broadcasts the indices, moves the indexed dims together.
 * `entries` are the recorded indices (NULL where a dim is not indexed). */
/* A bool mask covering self's dims from `first` on must have their sizes: torch's IndexError otherwise, in
 * its CPU kernel's words (the mask's dim) or, `meta`, its meta function's (the mask's place among the
 * indices, `position`, and torch.Size). */
static int
check_mask_shape(const mt_TensorObject *mask, const mt_TensorObject *self, int first, int meta, int position)
{
    char shape_a[1024], shape_b[1024];

    for (int j = 0; j < mask->ndim; j++) {
        int src = first + j;
        int wrapped;
        if (mt_wrap_dim(src, self->ndim, &wrapped) < 0) {
            return -1;
        }
        if (mask->sizes[j] != self->sizes[src]) {
            mt_format_shape(mask->ndim, mask->sizes, shape_a, sizeof(shape_a));
            mt_format_shape(self->ndim, self->sizes, shape_b, sizeof(shape_b));
            PyErr_Format(PyExc_IndexError,
                         meta ? "The shape of the mask minitorch.Size(%s) at index %d does not match the shape of the "
                                "indexed tensor minitorch.Size(%s) at index %d"
                              : "The shape of the mask %s at index %d does not match the shape of the indexed tensor "
                                "%s at index %d",
                         shape_a, meta ? position : j, shape_b, src);
            return -1;
        }
    }
    return 0;
}

/* torch dispatches an index op to its meta function when any of its tensors is a meta tensor (value may
 * be NULL): the result lies where self does. */
static int
dispatches_to_meta(const mt_TensorObject *self, mt_TensorObject *const *entries, int nentries,
                   const mt_TensorObject *value)
{
    int meta = mt_tensor_device(self).type == MT_DEVICE_META
               || (value != NULL && mt_tensor_device(value).type == MT_DEVICE_META);

    for (int i = 0; !meta && i < nentries; i++) {
        meta = entries[i] != NULL && mt_tensor_device(entries[i]).type == MT_DEVICE_META;
    }
    return meta;
}

/* torch's meta index (meta_index_Tensor) on its indices, one after the other: the dtype (int8, not uint8,
 * is its "byte"), a mask's nonzero() (none for a meta mask; a CPU one is read) and then its shape, in
 * torch.Size's words; an index of integers is recorded without its values. */
static int
meta_entries(adv_plan *p, mt_TensorObject *self, mt_TensorObject *const *entries, int nentries, int *positions,
             int *count)
{
    for (int i = 0; i < nentries; i++) {
        mt_TensorObject *t = entries[i];
        if (t == NULL) {
            (*count)++;
            continue;
        }
        if (t->dtype != MT_INT64 && t->dtype != MT_INT32 && t->dtype != MT_INT8 && t->dtype != MT_BOOL) {
            PyErr_SetString(PyExc_RuntimeError, "tensors used as indices must be long, int, byte or bool tensors");
            return -1;
        }
        if (t->dtype == MT_INT8 || t->dtype == MT_BOOL) {
            int first = p->nindex;
            if (*count + t->ndim > MT_MAX_DIMS) {
                PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", self->ndim);
                return -1;
            }
            for (int j = 0; j < t->ndim; j++) {
                positions[first + j] = *count + j;
            }
            if (mask_to_indices(p, t) < 0) {
                return -1;
            }
            if (*count + t->ndim > self->ndim) {
                PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", self->ndim);
                return -1;
            }
            if (check_mask_shape(t, self, *count, 1, i) < 0) {
                return -1;
            }
            *count += t->ndim;
        }
        else {
            index_array *a = &p->idx[p->nindex];
            if (*count >= self->ndim) {
                (*count)++;     /* counted for the error below */
                continue;
            }
            a->ndim = t->ndim;
            memcpy(a->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
            memcpy(a->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
            a->values = NULL;
            positions[p->nindex++] = *count;
            (*count)++;
        }
    }
    if (*count > self->ndim) {
        PyErr_Format(PyExc_RuntimeError, "too many indices for tensor of dimension %d (got %d)", self->ndim, *count);
        return -1;
    }
    return 0;
}

static int
make_plan(adv_plan *p, mt_TensorObject *self, mt_TensorObject *const *entries, int nentries, int meta)
{
    int positions[MT_MAX_DIMS];     /* the dim of self each index array applies to */
    int count = 0;                  /* dims of self covered so far */
    int first = -1, last = -1, contiguous = 1;
    char shape_a[1024];

    p->base = NULL;
    p->nindex = 0;
    p->meta = meta;
    if (meta) {
        int ndims[MT_MAX_DIMS];
        const int64_t *shapes[MT_MAX_DIMS];
        if (meta_entries(p, self, entries, nentries, positions, &count) < 0) {
            goto error;
        }
        /* torch/_refs' broadcasting of the indices, in its words */
        for (int k = 0; k < p->nindex; k++) {
            ndims[k] = p->idx[k].ndim;
            shapes[k] = p->idx[k].sizes;
        }
        p->bndim = 0;
        if (p->nindex > 0
            && mt_broadcast_shapes_on(mt_meta_device(), p->nindex, ndims, shapes, &p->bndim, p->bshape) < 0) {
            goto error;
        }
        goto placed;
    }
    if (nentries > self->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d (got %d)", self->ndim, nentries);
        return -1;
    }
    for (int i = 0; i < nentries; i++) {
        mt_TensorObject *t = entries[i];
        if (t != NULL && t->dtype != MT_INT64 && t->dtype != MT_INT32 && t->dtype != MT_BOOL && t->dtype != MT_UINT8) {
            PyErr_SetString(PyExc_IndexError, "tensors used as indices must be long, int, byte or bool tensors");
            return -1;
        }
    }
    for (int i = 0; i < nentries; i++) {
        mt_TensorObject *t = entries[i];
        mt_device d;
        if (t == NULL) {
            count++;
            continue;
        }
        d = mt_tensor_device(t);
        if (d.type != MT_DEVICE_CPU && !mt_device_equal(d, mt_tensor_device(self))) {
            char name[32];
            mt_device_format(mt_tensor_device(self), name, sizeof(name));
            PyErr_Format(PyExc_RuntimeError,
                         "indices should be either on cpu or on the same device as the indexed tensor (%s)", name);
            goto error;
        }
        if (t->dtype == MT_BOOL || t->dtype == MT_UINT8) {
            if (t->dtype == MT_UINT8 &&
                mt_warn(PyExc_UserWarning,
                        "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.") < 0) {
                goto error;
            }
            if (check_mask_shape(t, self, count, 0, 0) < 0) {
                goto error;
            }
            if (count + t->ndim > MT_MAX_DIMS) {
                PyErr_SetString(PyExc_IndexError, "too many indices");
                goto error;
            }
            for (int j = 0; j < t->ndim; j++) {
                positions[p->nindex + j] = count + j;
            }
            if (mask_to_indices(p, t) < 0) {
                goto error;
            }
            count += t->ndim;
        }
        else {
            positions[p->nindex] = count;
            if (index_array_from_tensor(&p->idx[p->nindex], t) < 0) {
                goto error;
            }
            p->nindex++;
            count++;
        }
    }
    if (count > self->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d (got %d)", self->ndim, count);
        goto error;
    }
    /* broadcast all index shapes together */
    p->bndim = 0;
    for (int k = 0; k < p->nindex; k++) {
        if (broadcast_into(&p->bndim, p->bshape, p->idx[k].ndim, p->idx[k].sizes) < 0) {
            PyObject *list = PyList_New(0);
            PyObject *sep = NULL, *joined = NULL;
            if (list == NULL) {
                goto error;
            }
            for (int q = 0; q < p->nindex; q++) {
                PyObject *s;
                mt_format_shape(p->idx[q].ndim, p->idx[q].sizes, shape_a, sizeof(shape_a));
                s = PyUnicode_FromString(shape_a);
                if (s == NULL || PyList_Append(list, s) < 0) {
                    Py_XDECREF(s);
                    Py_DECREF(list);
                    goto error;
                }
                Py_DECREF(s);
            }
            sep = PyUnicode_FromString(", ");
            joined = sep != NULL ? PyUnicode_Join(sep, list) : NULL;
            if (joined != NULL) {
                PyErr_Format(PyExc_IndexError,
                             "shape mismatch: indexing tensors could not be broadcast together with shapes %U", joined);
            }
            Py_XDECREF(sep);
            Py_XDECREF(joined);
            Py_DECREF(list);
            goto error;
        }
    }
placed:
    /* hasContiguousSubspace, else transposeToFront */
    for (int k = 0; k < p->nindex; k++) {
        if (first < 0) {
            first = positions[k];
        }
        else if (positions[k] != last + 1) {
            contiguous = 0;
        }
        last = positions[k];
    }
    p->permuted = !contiguous;
    if (contiguous) {
        Py_INCREF(self);
        p->base = self;
        p->before = first;
    }
    else {
        int64_t *perm = p->perm;
        char used[MT_MAX_DIMS] = {0};
        int n = 0;
        for (int k = 0; k < p->nindex; k++) {
            perm[n++] = positions[k];
            used[positions[k]] = 1;
        }
        for (int d = 0; d < self->ndim; d++) {
            if (!used[d]) {
                perm[n++] = d;
            }
        }
        p->base = mt_permute(self, self->ndim, perm);
        if (p->base == NULL) {
            goto error;
        }
        p->before = 0;
    }
    p->nidx = p->nindex;
    p->after = p->base->ndim - p->before - p->nidx;
    /* AdvancedIndex: an empty indexed dim needs an empty index (torch's meta function does not check) */
    if (!meta) {
        int zero_dim = 0, zero_index = 0;
        for (int k = 0; k < p->nidx; k++) {
            zero_dim |= p->base->sizes[p->before + k] == 0;
        }
        for (int d = 0; d < p->bndim; d++) {
            zero_index |= p->bshape[d] == 0;
        }
        if (zero_dim && !zero_index) {
            PyErr_SetString(PyExc_IndexError, "index is out of bounds for dimension with size 0");
            goto error;
        }
    }
    p->rndim = p->before + p->bndim + p->after;
    if (p->rndim > MT_MAX_DIMS) {
        mt_raise_too_many_dims(p->rndim);
        goto error;
    }
    memcpy(p->rshape, p->base->sizes, sizeof(int64_t) * (size_t)p->before);
    memcpy(p->rshape + p->before, p->bshape, sizeof(int64_t) * (size_t)p->bndim);
    memcpy(p->rshape + p->before + p->bndim, p->base->sizes + p->before + p->nidx, sizeof(int64_t) * (size_t)p->after);
    return 0;

error:
    plan_clear(p);
    return -1;
}

/* The strides torch's TensorIterator gives the result of an index op. When every operand has the
 * result's shape and they are all contiguous (or all dense with equal strides), it takes that layout
 * directly ("fast setup"); otherwise it orders the dims by the strides of its inputs (the source
 * restrided to the result shape, then each index), falling back on row-major when that order is the
 * natural one. */
static void
result_strides(const adv_plan *p, int64_t *out)
{
    int n = p->rndim;
    int nops = 1 + p->nidx;
    int64_t ops[MT_MAX_DIMS + 1][MT_MAX_DIMS];      /* after compute_strides (broadcast dims: 0) */
    int64_t raw[MT_MAX_DIMS + 1][MT_MAX_DIMS];      /* the operands' own strides */
    int64_t idx_sizes[MT_MAX_DIMS];
    int perm[MT_MAX_DIMS];
    int inverted = 1;

    if (n == 0) {
        return;
    }
    if (p->meta && mt_tensor_numel(p->base) == 0) {
        nops = 0;   /* torch's meta function: an empty source's result is contiguous */
        goto contiguous;
    }
    /* operand 0: the source, with stride 0 across the index dims */
    for (int d = 0; d < p->before; d++) {
        ops[0][d] = p->base->strides[d];
    }
    for (int d = 0; d < p->bndim; d++) {
        ops[0][p->before + d] = 0;
    }
    for (int d = 0; d < p->after; d++) {
        ops[0][p->before + p->bndim + d] = p->base->strides[p->before + p->nidx + d];
    }
    memcpy(raw[0], ops[0], sizeof(int64_t) * (size_t)n);
    /* the indices: expanded to the broadcast shape, then reshaped to [1]*before + B + [1]*after */
    for (int k = 0; k < (p->meta ? 0 : p->nidx); k++) {
        const index_array *a = &p->idx[k];
        int64_t exp_strides[MT_MAX_DIMS];
        int64_t sizes1[MT_MAX_DIMS], strides1[MT_MAX_DIMS];
        int off = p->bndim - a->ndim;
        for (int d = 0; d < p->bndim; d++) {
            int od = d - off;
            if (od < 0) {
                exp_strides[d] = 0;
            }
            else if (a->sizes[od] != p->bshape[d]) {
                exp_strides[d] = 0;
            }
            else {
                exp_strides[d] = a->strides[od];
            }
        }
        for (int d = 0; d < n; d++) {
            sizes1[d] = 1;
        }
        memcpy(sizes1 + p->before, p->bshape, sizeof(int64_t) * (size_t)p->bndim);
        if (!mt_compute_view_strides(p->bndim, p->bshape, exp_strides, n, sizes1, strides1)) {
            /* reshape would copy: a contiguous layout */
            int64_t s = 1;
            for (int d = n - 1; d >= 0; d--) {
                strides1[d] = s;
                s *= sizes1[d] > 1 ? sizes1[d] : 1;
            }
        }
        for (int d = 0; d < n; d++) {
            /* compute_strides: a broadcast size-1 dim gets stride 0 */
            ops[1 + k][d] = (sizes1[d] == 1 && p->rshape[d] != 1) ? 0 : strides1[d];
            raw[1 + k][d] = strides1[d];
        }
        memcpy(idx_sizes, sizes1, sizeof(int64_t) * (size_t)n);
    }
    if (p->meta) {
        nops = 1;   /* torch's meta function orders the dims by the restrided source alone */
    }
    /* fast setup: only when the indices have the result's shape (no un-indexed dims of size > 1) */
    if (!p->meta && p->nidx > 0 && memcmp(idx_sizes, p->rshape, sizeof(int64_t) * (size_t)n) == 0) {
        int all_contiguous = 1, all_dense = 1, same_strides = 1;
        for (int o = 0; o < nops; o++) {
            all_contiguous &= mt_memory_format_is_contiguous(MT_CONTIGUOUS_FORMAT, n, p->rshape, raw[o]);
            all_dense &= mt_geometry_is_non_overlapping_and_dense(n, p->rshape, raw[o]);
            same_strides &= memcmp(raw[o], raw[0], sizeof(int64_t) * (size_t)n) == 0;
        }
        if (all_contiguous) {
            int64_t s = 1;
            for (int d = n - 1; d >= 0; d--) {
                out[d] = s;
                s *= p->rshape[d] > 1 ? p->rshape[d] : 1;
            }
            return;
        }
        if (all_dense && same_strides) {
            memcpy(out, raw[0], sizeof(int64_t) * (size_t)n);
            return;
        }
    }
    /* reorder_dimensions: perm[0] is the fastest dim */
    mt_reorder_dims(n, p->rshape, nops, ops, perm);
    for (int i = 0; i < n; i++) {
        if (perm[i] != n - 1 - i) {
            inverted = 0;
        }
    }
    if (inverted) {
contiguous:
        {
            int64_t s = 1;
            for (int d = n - 1; d >= 0; d--) {
                out[d] = s;
                s *= p->rshape[d] > 1 ? p->rshape[d] : 1;
            }
        }
        return;
    }
    {
        int64_t next = 1;
        for (int i = 0; i < n; i++) {
            out[perm[i]] = next;
            next *= p->rshape[perm[i]];
        }
    }
}

/* The element offsets of the index positions (kernels/cpu/index.h's mt_cpu_index_offsets over the plan's
 * host index values): out[b] weighs index k's value by weights[k]; other_out, when not NULL, gets the
 * positions' offsets by other_strides. An index value out of range raises torch's IndexError, naming the
 * index's position among the indices. */
static int
index_offsets(const adv_plan *p, const int64_t *weights, const int64_t *other_strides, int64_t *out,
              int64_t *other_out)
{
    mt_index_values iv;
    int bad_k;
    int64_t bad_value;

    iv.nidx = p->nidx;
    for (int k = 0; k < p->nidx; k++) {
        iv.ndim[k] = p->idx[k].ndim;
        iv.sizes[k] = p->idx[k].sizes;
        iv.values[k] = p->idx[k].values;
    }
    iv.dim_sizes = p->base->sizes + p->before;
    iv.bndim = p->bndim;
    iv.bshape = p->bshape;
    if (mt_cpu_index_offsets(&iv, weights, other_strides, out, other_out, &bad_k, &bad_value) < 0) {
        PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %d with size %lld",
                     (long long)bad_value, bad_k, (long long)iv.dim_sizes[bad_k]);
        return -1;
    }
    return 0;
}

/* The kernels' description of the plan (kernels/kernel_types.h): `other` is the result (gather) or the
 * value broadcast to the result's shape (scatter), with its strides over the result dims. The offsets
 * of the index positions are computed here, in host memory, checking every index value first;
 * args->self_offsets holds the one PyMem block of both tables (index_args_clear frees it). */
static int
index_args(const adv_plan *p, char *other, const int64_t *other_strides, mt_index_args *args)
{
    const mt_TensorObject *base = p->base;
    int64_t nb = 1;
    int64_t *offsets;

    for (int d = 0; d < p->bndim; d++) {
        nb *= p->bshape[d];
    }
    args->self = mt_tensor_data(base);
    args->other = other;
    args->dtype = base->dtype;
    args->other_is_value = 0;
    args->nb = nb;
    args->nbefore = p->before;
    args->ndim = p->before + p->after;
    for (int d = 0; d < p->before; d++) {
        args->shape[d] = p->rshape[d];
        args->self_strides[d] = base->strides[d];
        args->other_strides[d] = other_strides[d];
    }
    for (int d = 0; d < p->after; d++) {
        args->shape[p->before + d] = p->rshape[p->before + p->bndim + d];
        args->self_strides[p->before + d] = base->strides[p->before + p->nidx + d];
        args->other_strides[p->before + d] = other_strides[p->before + p->bndim + d];
    }
    offsets = PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)(nb > 0 ? nb : 1));
    if (offsets == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    args->self_offsets = offsets;
    args->other_offsets = offsets + nb;
    if (index_offsets(p, base->strides + p->before, other_strides + p->before, offsets, offsets + nb) < 0) {
        PyMem_Free(offsets);
        return -1;
    }
    return 0;
}

static void
index_args_clear(mt_index_args *args)
{
    PyMem_Free((int64_t *)args->self_offsets);
    args->self_offsets = NULL;
}

/* Runs the device's gather (scatter 0) or scatter kernel. */
static int
run_index(mt_device device, const mt_index_args *args, int scatter)
{
    int r;

    if (scatter) {
        MT_RUN_BACKEND(r, device, 0, NULL, 0, scatter, args);
    }
    else {
        MT_RUN_BACKEND(r, device, 0, NULL, 0, gather, args);
    }
    return r;
}

/* ---- autograd: where the indexed elements lie ----------------------------------------------------------- */

/* Each broadcast index position's row-major place within the block of the base's indexed dims, as a
 * 1-D int64 tensor on `device` (the nodes' formulas place gradients with it). The values were checked by
 * index_args; an empty result's are checked here. */
static mt_TensorObject *
linear_positions(const adv_plan *p, mt_device device)
{
    int64_t nb = 1, w = 1;
    int64_t weights[MT_MAX_DIMS];
    mt_TensorObject *host, *r;

    for (int d = 0; d < p->bndim; d++) {
        nb *= p->bshape[d];
    }
    /* row-major over the indexed dims */
    for (int k = p->nidx - 1; k >= 0; k--) {
        weights[k] = w;
        w *= p->base->sizes[p->before + k];
    }
    if (p->meta) {
        /* no values to place: the node's positions are as unread as the result (zeros where there is memory) */
        mt_scalar zero;
        memset(&zero, 0, sizeof zero);
        zero.kind = MT_INT64;
        r = mt_tensor_empty(1, &nb, MT_INT64, device);
        if (r != NULL && mt_fill_(r, zero) < 0) {
            Py_CLEAR(r);
        }
        return r;
    }
    host = mt_tensor_empty(1, &nb, MT_INT64, mt_cpu_device());
    if (host == NULL) {
        return NULL;
    }
    if (index_offsets(p, weights, NULL, (int64_t *)mt_tensor_data(host), NULL) < 0) {
        Py_DECREF(host);
        return NULL;
    }
    if (device.type == MT_DEVICE_CPU) {
        return host;
    }
    r = mt_copy_to(host, MT_INT64, device);
    Py_DECREF(host);
    return r;
}

/* Records IndexBackward0 (result = sliced[...]) or IndexPutBackward0 (sliced[...] = value, result NULL;
 * value NULL for a number; the node's input is `from`: sliced itself, or the tensor sliced is an
 * out-of-place index_put's copy of) when autograd needs it. */
static int
record_indexing(const adv_plan *p, mt_TensorObject *sliced, mt_TensorObject *result, mt_TensorObject *value,
                mt_TensorObject *from, int accumulate)
{
    mt_TensorObject *in[2] = {result != NULL ? sliced : from, value};
    mt_ag_index_plan plan;
    mt_TensorObject *positions;
    int rc;

    if (!mt_ag_needed(result != NULL ? 1 : 2, in)) {
        return 0;
    }
    plan.before = p->nidx > 0 ? p->before : 0;
    plan.nidx = p->nidx;
    plan.bndim = p->bndim;
    plan.bshape = p->bshape;
    plan.permuted = p->permuted;
    plan.perm = p->perm;
    plan.accumulate = accumulate;
    positions = linear_positions(p, mt_tensor_device(sliced));
    if (positions == NULL) {
        return -1;
    }
    rc = result != NULL ? mt_ag_index(sliced, result, &plan, positions)
                        : mt_ag_index_put(from, value, &plan, positions, sliced);
    Py_DECREF(positions);
    return rc;
}

/* dispatch_index: self[indices] as a new tensor, gathered by the device's kernels. */
PyObject *
mt_index_gather(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries)
{
    adv_plan p;
    int64_t strides[MT_MAX_DIMS];
    mt_TensorObject *out = NULL;
    mt_index_args args;
    int64_t numel;

    if (make_plan(&p, sliced, entries, nentries, dispatches_to_meta(sliced, entries, nentries, NULL)) < 0) {
        return NULL;
    }
    result_strides(&p, strides);
    out = mt_tensor_empty_strided(p.rndim, p.rshape, strides, sliced->dtype, mt_tensor_device(sliced));
    if (out == NULL) {
        goto error;
    }
    numel = mt_tensor_numel(out);
    if (numel > 0 && !p.meta) {
        if (index_args(&p, mt_tensor_data(out), strides, &args) < 0) {
            goto error;
        }
        if (run_index(mt_tensor_device(sliced), &args, 0) < 0) {
            index_args_clear(&args);
            goto error;
        }
        index_args_clear(&args);
    }
    if (record_indexing(&p, sliced, out, NULL, NULL, 0) < 0) {
        goto error;
    }
    plan_clear(&p);
    return (PyObject *)out;

error:
    Py_XDECREF(out);
    plan_clear(&p);
    return NULL;
}

/* ---- assignment: copy_ into a basic view, index_put_ for tensor indices ---------------------------- */

/* slicePrefix1sSize: the value's shape without leading 1s. */
mt_TensorObject *
mt_index_strip_leading_ones(mt_TensorObject *v)
{
    int skip = 0;
    while (skip < v->ndim && v->sizes[skip] == 1) {
        skip++;
    }
    if (skip == 0) {
        Py_INCREF(v);
        return v;
    }
    /* a view as torch's value.view(slicePrefix1sSize(...)), which autograd records (ViewBackward0) */
    return mt_view(v, v->ndim - skip, v->sizes + skip);
}

/* at::indexing::copy_to: dst = value, a number or a tensor broadcast to dst's shape. A number or a
 * 0-d tensor fills dst (fill_ refuses an expanded dst); a tensor of dst's shape, or one expanded to it,
 * is copied with copy_'s checks, so x[1:] = x[:-1] and y[...] = y.t() raise torch's overlap error
 * instead of reading values already overwritten. */
int
mt_index_copy_to(mt_TensorObject *dst, mt_TensorObject *value, const mt_scalar *scalar)
{
    mt_TensorObject *view, *src;
    int r;

    if (scalar != NULL || value->ndim == 0) {
        if (mt_check_no_internal_overlap(dst) < 0) {
            return -1;
        }
        return scalar != NULL ? mt_fill_(dst, *scalar) : mt_copy_(dst, value);
    }
    if (value->ndim == dst->ndim && memcmp(value->sizes, dst->sizes, sizeof(int64_t) * (size_t)dst->ndim) == 0) {
        return mt_copy_checked_(dst, value, 0);
    }
    view = mt_index_strip_leading_ones(value);
    if (view == NULL) {
        return -1;
    }
    src = mt_expand(view, dst->ndim, dst->sizes);
    Py_DECREF(view);
    if (src == NULL) {
        return -1;
    }
    r = mt_copy_checked_(dst, src, 0);
    Py_DECREF(src);
    return r;
}

static int
expandable_to(int n, const int64_t *shape, int nd, const int64_t *desired)
{
    if (n > nd) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int64_t s = shape[n - 1 - i], t = desired[nd - 1 - i];
        if (s != t && s != 1) {
            return 0;
        }
    }
    return 1;
}

int
mt_warn_expanded(const mt_TensorObject *t, const char *op, const char *example)
{
    char msg[300];

    if (!mt_has_internal_overlap(t)) {
        return 0;
    }
    snprintf(msg, sizeof(msg),
             "Use of %s on expanded tensors is deprecated. Please clone() the tensor before performing this "
             "operation. This also applies to advanced indexing e.g. %s",
             op, example);
    return mt_warn(PyExc_UserWarning, msg);
}

static int index_put_values(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries,
                            mt_TensorObject *value, const mt_scalar *scalar, mt_TensorObject *graph_value,
                            mt_TensorObject *from, int accumulate);

/* index_put_: sliced[indices] = value (accumulate: += value), in torch's order: the warning for an
 * expanded tensor, one bool mask with one value as masked_fill_ (not when accumulating), the overlap
 * checks; the node's input is `from` (see record_indexing). */
/* torch's meta index_put_ returns self: nothing checked, nothing read or written; autograd still records
 * its node (over a plan that reads no index values). */
static int
meta_index_put(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries, mt_TensorObject *value,
               mt_TensorObject *from, int accumulate)
{
    mt_TensorObject *in[2] = {from, value};
    adv_plan p;
    int r;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    if (make_plan(&p, sliced, entries, nentries, 1) < 0) {
        return -1;
    }
    r = record_indexing(&p, sliced, NULL, value, from, accumulate);
    plan_clear(&p);
    return r;
}

static int
index_put_from(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries, mt_TensorObject *value,
               const mt_scalar *scalar, mt_TensorObject *from, int accumulate)
{
    int masked_fill;
    int have_mask = 0, covered = 0;

    if (dispatches_to_meta(sliced, entries, nentries, value)) {
        return meta_index_put(sliced, entries, nentries, value, from, accumulate);
    }
    masked_fill = !accumulate && (scalar != NULL || (mt_tensor_numel(value) == 1 &&
                                                     mt_tensor_device(value).type == MT_DEVICE_CPU));
    if (mt_warn_expanded(sliced, "index_put_", "tensor[indices] = tensor") < 0) {
        return -1;
    }
    /* canDispatchToMaskedFill: one bool mask on sliced's device (whose shape is checked here, in torch's
     * order) and one value in host memory fill with value.item(), which converts (with torch's overflow
     * check) instead of requiring equal dtypes */
    for (int i = 0; masked_fill && i < nentries; i++) {
        mt_TensorObject *t = entries[i];
        if (t == NULL) {
            covered++;
        }
        else if ((t->dtype != MT_BOOL && t->dtype != MT_UINT8) ||
                 !mt_device_equal(mt_tensor_device(t), mt_tensor_device(sliced)) || have_mask) {
            masked_fill = 0;
        }
        else {
            if (check_mask_shape(t, sliced, covered, 0, 0) < 0) {
                return -1;
            }
            /* torch dispatches a byte mask to masked_fill_ too, which takes bool masks only */
            if (mt_check_masked_fill_mask(t) < 0) {
                return -1;
            }
            have_mask = 1;
            covered += t->ndim;
        }
    }
    if (masked_fill && have_mask) {
        /* masked_fill_, with its own warning for an expanded tensor after index_put_'s */
        if (mt_warn_expanded(sliced, "masked_fill_", "tensor[mask] = scalar") < 0) {
            return -1;
        }
        if (scalar == NULL) {
            PyObject *item = mt_tensor_item(value);
            mt_scalar s;
            int ok;
            if (item == NULL) {
                return -1;
            }
            ok = mt_scalar_from_object(item, &s);
            Py_DECREF(item);
            if (ok < 0 || mt_scalar_checked(s, sliced->dtype, &s) < 0) {
                return -1;
            }
            return index_put_values(sliced, entries, nentries, NULL, &s, value, from, 0);
        }
        return index_put_values(sliced, entries, nentries, NULL, scalar, NULL, from, 0);
    }
    /* at::assert_no_overlap of the written-to tensor with the value and with each index */
    if (value != NULL && mt_check_no_overlap(sliced, value) < 0) {
        return -1;
    }
    for (int i = 0; i < nentries; i++) {
        if (entries[i] != NULL && mt_check_no_overlap(sliced, entries[i]) < 0) {
            return -1;
        }
    }
    return index_put_values(sliced, entries, nentries, value, scalar, value, from, accumulate);
}

int
mt_index_put(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries, mt_TensorObject *value,
             const mt_scalar *scalar)
{
    return index_put_from(sliced, entries, nentries, value, scalar, sliced, 0);
}

PyObject *
mt_index_put_op(mt_TensorObject *self, mt_TensorObject *const *entries, int nentries, mt_TensorObject *values,
                int accumulate, int inplace)
{
    mt_TensorObject *target;

    if (nentries == 0 && !dispatches_to_meta(self, entries, nentries, values)) {
        /* torch's _index_put_impl_ reads the strides of a first index that is not there */
        PyErr_SetString(PyExc_RuntimeError, "sym_strides() called on an undefined Tensor");
        return NULL;
    }
    if (inplace) {
        if (mt_ag_check_inplace(self) < 0 || index_put_from(self, entries, nentries, values, NULL, self, accumulate) < 0 ||
            mt_ag_bump(self) < 0) {
            return NULL;
        }
        Py_INCREF(self);
        return (PyObject *)self;
    }
    /* torch's index_put: self.clone(preserve_format).index_put_(...), recorded as one node on self */
    target = mt_tensor_empty_preserving(self, self->dtype, mt_tensor_device(self));
    if (target == NULL) {
        return NULL;
    }
    if (mt_copy_(target, self) < 0 || index_put_from(target, entries, nentries, values, NULL, self, accumulate) < 0) {
        Py_DECREF(target);
        return NULL;
    }
    return (PyObject *)target;
}

/* mt_index_put after its checks: the plan, the value's shape, dtype and device, and the scatter; then
 * IndexPutBackward0 over sliced and graph_value (the value tensor given, NULL for a number). */
/* accumulate=True: the base's indexed dims as one, (before, N, after), and the value broadcast to the
 * result's shape as (before, nb, after), added along the middle dim at each position in index order
 * (torch's CPU loop is serial when it accumulates), on a contiguous copy that is written back. */
static int
accumulate_values(const adv_plan *p, mt_TensorObject *value)
{
    mt_TensorObject *base = p->base, *work = NULL, *block = NULL, *vexp = NULL, *vblock = NULL, *pos = NULL;
    int64_t bsizes[MT_MAX_DIMS], vsizes[MT_MAX_DIMS];
    mt_device device = mt_tensor_device(base);
    int r = -1;

    memcpy(bsizes, base->sizes, sizeof(int64_t) * (size_t)p->before);
    memcpy(vsizes, base->sizes, sizeof(int64_t) * (size_t)p->before);
    bsizes[p->before] = 1;
    for (int k = 0; k < p->nidx; k++) {
        bsizes[p->before] *= base->sizes[p->before + k];
    }
    vsizes[p->before] = 1;
    for (int d = 0; d < p->bndim; d++) {
        vsizes[p->before] *= p->bshape[d];
    }
    memcpy(bsizes + p->before + 1, base->sizes + p->before + p->nidx, sizeof(int64_t) * (size_t)p->after);
    memcpy(vsizes + p->before + 1, base->sizes + p->before + p->nidx, sizeof(int64_t) * (size_t)p->after);
    MT_BELOW_AUTOGRAD({
        pos = linear_positions(p, device);
        work = pos != NULL ? mt_contiguous(base, MT_CONTIGUOUS_FORMAT) : NULL;
        block = work != NULL ? mt_view(work, p->before + 1 + p->after, bsizes) : NULL;
        if (block != NULL) {
            mt_TensorObject *stripped = mt_index_strip_leading_ones(value);
            vexp = stripped != NULL ? mt_expand(stripped, p->rndim, p->rshape) : NULL;
            Py_XDECREF(stripped);
        }
        vblock = vexp != NULL ? mt_reshape(vexp, p->before + 1 + p->after, vsizes) : NULL;
        if (vblock != NULL && mt_index_add_each_(block, p->before, pos, vblock) == 0) {
            r = work == base ? 0 : mt_copy_(base, work);
        }
    });
    Py_XDECREF(pos);
    Py_XDECREF(work);
    Py_XDECREF(block);
    Py_XDECREF(vexp);
    Py_XDECREF(vblock);
    return r;
}

static int
index_put_values(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries, mt_TensorObject *value,
                 const mt_scalar *scalar, mt_TensorObject *graph_value, mt_TensorObject *from, int accumulate)
{
    adv_plan p;
    mt_TensorObject *fill = NULL, *src = NULL;
    int64_t vstrides[MT_MAX_DIMS];
    mt_index_args args;
    int64_t numel = 1;
    int by_value;
    int r = -1;

    if (make_plan(&p, sliced, entries, nentries, 0) < 0) {
        return -1;
    }
    if (scalar != NULL) {
        fill = mt_tensor_empty(0, NULL, sliced->dtype, mt_cpu_device());
        if (fill == NULL || mt_fill_(fill, *scalar) < 0) {
            goto done;
        }
        value = fill;
    }
    if (!expandable_to(value->ndim, value->sizes, p.rndim, p.rshape)) {
        char a[1024], b[1024];
        mt_format_shape(value->ndim, value->sizes, a, sizeof(a));
        mt_format_shape(p.rndim, p.rshape, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError,
                     "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s", a,
                     b);
        goto done;
    }
    if (value->dtype != sliced->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "Index put requires the source and destination dtypes match, got %s for the destination and %s "
                     "for the source.",
                     mt_dtype_scalar_name(sliced->dtype), mt_dtype_scalar_name(value->dtype));
        goto done;
    }
    if (value->ndim > 0 && !mt_device_equal(mt_tensor_device(value), mt_tensor_device(sliced))) {
        char a[32], b[32];
        mt_device_format(mt_tensor_device(sliced), a, sizeof(a));
        mt_device_format(mt_tensor_device(value), b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError,
                     "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", a, b);
        goto done;
    }
    if (accumulate) {
        /* a 0-d value elsewhere moves to the indexed tensor's device first, as torch's */
        src = !mt_device_equal(mt_tensor_device(value), mt_tensor_device(sliced)) ? mt_copy_to(value, value->dtype, mt_tensor_device(sliced))
                                             : (Py_INCREF(value), value);
        if (src == NULL || (mt_tensor_numel(sliced) > 0 && accumulate_values(&p, src) < 0)) {
            goto done;
        }
        r = record_indexing(&p, sliced, NULL, graph_value, from, 1);
        goto done;
    }
    /* the value as the kernel reads it: in place on the indexed tensor's device, or (a 0-d tensor
     * elsewhere, or a number) as one element in host memory that the kernel takes by value */
    by_value = !mt_device_equal(mt_tensor_device(value), mt_tensor_device(sliced));
    src = by_value ? readable_on_host(value, value->dtype) : value;
    if (src == NULL) {
        goto done;
    }
    if (!by_value) {
        Py_INCREF(src);
    }
    /* the value broadcast over the result dims */
    for (int d = 0; d < p.rndim; d++) {
        int vd = d - (p.rndim - src->ndim);
        vstrides[d] = (vd < 0 || src->sizes[vd] == 1) ? 0 : src->strides[vd];
    }
    for (int d = 0; d < p.rndim; d++) {
        numel *= p.rshape[d];
    }
    if (numel > 0) {
        if (index_args(&p, mt_tensor_data(src), vstrides, &args) < 0) {
            goto done;
        }
        args.other_is_value = by_value;
        r = run_index(mt_tensor_device(sliced), &args, 1);
        index_args_clear(&args);
        if (r < 0) {
            goto done;
        }
    }
    r = record_indexing(&p, sliced, NULL, graph_value, from, 0);

done:
    Py_XDECREF(fill);
    Py_XDECREF(src);
    plan_clear(&p);
    return r;
}


/* A bool mask key as __getitem__ and __setitem__ read it: a mask of one or more dims indexes self itself;
 * a 0-d one indexes a new leading dim of self with boolToIndexingTensor. *target and *index are new
 * references; 0 or -1. */
static int
mask_key(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject **target, mt_TensorObject **index)
{
    PyObject *item;
    int truth;

    if (mask->ndim > 0) {
        Py_INCREF(self);
        Py_INCREF(mask);
        *target = self;
        *index = mask;
        return 0;
    }
    item = mt_tensor_item(mask);
    if (item == NULL) {
        return -1;
    }
    truth = PyObject_IsTrue(item);
    Py_DECREF(item);
    if (truth < 0 || (*index = mt_index_from_bool(truth)) == NULL) {
        return -1;
    }
    if ((*target = mt_unsqueeze(self, 0)) == NULL) {
        Py_CLEAR(*index);
        return -1;
    }
    return 0;
}

PyObject *
mt_index_by_mask(mt_TensorObject *self, mt_TensorObject *mask)
{
    mt_TensorObject *target, *index;
    PyObject *result;

    if (mask_key(self, mask, &target, &index) < 0) {
        return NULL;
    }
    result = mt_index_gather(target, &index, 1);
    Py_DECREF(target);
    Py_DECREF(index);
    return result;
}

int
mt_index_put_by_mask(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *value)
{
    mt_TensorObject *target, *index;
    int rc;

    if (mask_key(self, mask, &target, &index) < 0) {
        return -1;
    }
    rc = mt_index_put(target, &index, 1, value, NULL);
    Py_DECREF(target);
    Py_DECREF(index);
    return rc;
}
