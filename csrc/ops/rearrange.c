/* rearrange.c: flip, roll, repeat, tile and movedim with torch's checks and messages. They move
 * elements only, so they are composed from device-generic pieces: index_select along each dim (flip
 * and roll, with the positions computed on the host), an expanded view copied out (repeat, tile) and a
 * permuted view (movedim); each computes below autograd and records torch's one node (FlipBackward0,
 * RollBackward0, RepeatBackward0; movedim is permute's view, PermuteBackward0). This file owns these
 * ops' semantics, not kernels or argument parsing. */
#include "rearrange.h"

#include <string.h>

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "copy.h"
#include "gather.h"
#include "reduce.h"
#include "shape.h"

typedef mt_TensorObject T;

/* positions[i] = (i - shift) mod n (flip: n - 1 - i) as an int64 tensor on `device`. */
static T *
positions(int64_t n, int flip, int64_t shift, mt_device device)
{
    T *host = mt_tensor_empty(1, &n, MT_INT64, mt_cpu_device());
    T *r;
    int64_t *p;

    if (host == NULL) {
        return NULL;
    }
    p = (int64_t *)mt_tensor_data(host);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = flip ? n - 1 - i : (i - shift) % n;
        p[i] = v < 0 ? v + n : v;
    }
    if (device.type == MT_DEVICE_CPU) {
        return host;
    }
    r = mt_copy_to(host, MT_INT64, device);
    Py_DECREF(host);
    return r;
}

/* t with positions(...) selected along dim (a new contiguous tensor); steals t. */
static T *
select_along(T *t, int dim, int flip, int64_t shift)
{
    T *idx, *r;

    if (t == NULL) {
        return NULL;
    }
    idx = positions(t->sizes[dim], flip, shift, mt_tensor_device(t));
    r = idx != NULL ? (T *)mt_index_select(t, dim, idx) : NULL;
    Py_XDECREF(idx);
    Py_DECREF(t);
    return r;
}

static T *
contiguous_copy(T *t)
{
    T *r = mt_tensor_empty_format(t->ndim, t->sizes, t->dtype, mt_tensor_device(t), MT_CONTIGUOUS_FORMAT);
    if (r != NULL && mt_copy_(r, t) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* r (a contiguous result; stolen) laid out as torch's flip lays its result, empty_like(t) in preserve_format:
 * a permuted dense t's strides, or dense strides in t's dim order. */
static T *
laid_out_like(T *r, const T *t)
{
    T *out;

    if (r == NULL || mt_tensor_is_contiguous(t)) {
        return r;
    }
    out = mt_tensor_empty_preserving(t, r->dtype, mt_tensor_device(r));
    if (out != NULL && mt_copy_(out, r) < 0) {
        Py_CLEAR(out);
    }
    Py_DECREF(r);
    return out;
}

PyObject *
mt_flip(T *t, int ndims, const int64_t *dims)
{
    uint64_t seen = 0;
    int wrapped[MT_MAX_DIMS];
    T *r;

    /* torch's meta function checks flip's dims as a reduction's (every range, then repeats); its CPU and
     * cuda kernels check each dim in turn */
    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        if (mt_reduce_dims_mask(mt_tensor_device(t), dims, ndims, t->ndim, &seen) < 0) {
            return NULL;
        }
    }
    else {
        for (int i = 0; i < ndims; i++) {
            if (mt_wrap_dim(dims[i], t->ndim, &wrapped[i]) < 0) {
                return NULL;
            }
            if (seen >> wrapped[i] & 1) {
                PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims", wrapped[i]);
                return NULL;
            }
            seen |= 1ull << wrapped[i];
        }
    }
    MT_BELOW_AUTOGRAD({
        r = contiguous_copy(t);
        for (int d = 0; d < t->ndim && r != NULL; d++) {
            if ((seen >> d & 1) && t->sizes[d] > 1) {
                r = select_along(r, d, 1, 0);
            }
        }
        r = laid_out_like(r, t);
    });
    if (r != NULL && mt_ag_rearrange(MT_AG_FLIP, t, r, t->ndim > 0 ? seen : 0, 0, NULL, NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

PyObject *
mt_roll(T *t, int nshifts, const int64_t *shifts, int ndims, const int64_t *dims)
{
    int64_t flat;
    T *r = NULL;

    if (nshifts == 0) {
        PyErr_SetString(PyExc_RuntimeError, "`shifts` required");
        return NULL;
    }
    for (int i = 0; i < nshifts; i++) {
        if (shifts[i] < -(INT64_C(1) << 62)) {
            /* c10::SymInt keeps the most negative values for symbolic ints */
            PyErr_SetString(PyExc_RuntimeError, "SymIntArrayRef expected to contain only concrete integers");
            return NULL;
        }
    }
    if (nshifts != ndims && !(ndims == 0 && nshifts == 1)) {
        PyErr_Format(PyExc_RuntimeError, "shifts and dimensions must align. shifts: %d, dims:%d", nshifts, ndims);
        return NULL;
    }
    if (mt_tensor_numel(t) == 0) {
        /* torch returns a copy of an empty tensor before looking at the dims */
        MT_BELOW_AUTOGRAD(r = contiguous_copy(t));
    }
    else if (ndims == 0) {
        /* the flattened tensor rolled, in t's shape */
        flat = mt_tensor_numel(t);
        MT_BELOW_AUTOGRAD({
            T *f = mt_reshape(t, 1, &flat);
            T *rolled = f != NULL && flat > 0 ? select_along(f, 0, 0, shifts[0]) : f;
            r = rolled != NULL ? mt_view(rolled, t->ndim, t->sizes) : NULL;
            Py_XDECREF(rolled);
        });
    }
    else {
        int wrapped[MT_MAX_DIMS];
        for (int i = 0; i < ndims; i++) {
            if (mt_wrap_dim(dims[i], t->ndim, &wrapped[i]) < 0) {
                return NULL;
            }
        }
        MT_BELOW_AUTOGRAD({
            r = contiguous_copy(t);
            for (int i = 0; i < ndims && r != NULL; i++) {
                int d = t->ndim > 0 ? wrapped[i] : 0;
                if (t->ndim > 0 && t->sizes[d] > 0) {
                    r = select_along(r, d, 0, shifts[i]);
                }
            }
        });
    }
    if (r != NULL && mt_ag_rearrange(MT_AG_ROLL, t, r, 0, nshifts, shifts, ndims > 0 ? dims : NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

PyObject *
mt_repeat(T *t, int n, const int64_t *repeats)
{
    int64_t padded[MT_MAX_DIMS], wide[MT_MAX_DIMS], expanded[MT_MAX_DIMS], sizes[MT_MAX_DIMS];
    int lead = n - t->ndim, nw = 0;
    T *r = NULL;

    if (n < t->ndim) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
        return NULL;
    }
    if (n > MT_MAX_DIMS) {
        mt_raise_too_many_dims(n);
        return NULL;
    }
    for (int d = 0; d < n; d++) {
        padded[d] = d < lead ? 1 : t->sizes[d - lead];
        /* wrapping as torch's int64 product does (a wrapped negative size is its error below) */
        sizes[d] = (int64_t)((uint64_t)padded[d] * (uint64_t)repeats[d]);
    }
    for (int d = 0; d < n; d++) {
        if (sizes[d] < 0) {
            char shape[1024];
            mt_format_shape(n, sizes, shape, sizeof(shape));
            PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: %s",
                         (long long)sizes[d], shape);
            return NULL;
        }
    }
    /* t as [r0, s0, r1, s1, ...] (a size-1 dim for each repeat > 1, expanded), copied out as the result */
    for (int d = 0; d < n; d++) {
        if (repeats[d] != 1) {
            if (nw >= MT_MAX_DIMS) {
                mt_raise_too_many_dims(nw + 1);
                return NULL;
            }
            wide[nw] = 1;
            expanded[nw++] = repeats[d];
        }
        if (nw >= MT_MAX_DIMS) {
            mt_raise_too_many_dims(nw + 1);
            return NULL;
        }
        wide[nw] = padded[d];
        expanded[nw++] = padded[d];
    }
    MT_BELOW_AUTOGRAD({
        T *v = mt_reshape(t, nw, wide);
        T *e = v != NULL ? mt_expand(v, nw, expanded) : NULL;
        T *c = e != NULL ? contiguous_copy(e) : NULL;
        r = c != NULL ? mt_view(c, n, sizes) : NULL;
        Py_XDECREF(v);
        Py_XDECREF(e);
        Py_XDECREF(c);
    });
    if (r != NULL && mt_ag_rearrange(MT_AG_REPEAT, t, r, 0, n, repeats, NULL) < 0) {
        Py_CLEAR(r);
    }
    return (PyObject *)r;
}

PyObject *
mt_tile(T *t, int n, const int64_t *dims)
{
    int64_t repeats[MT_MAX_DIMS];
    int lead = t->ndim > n ? t->ndim - n : 0;

    if (n > MT_MAX_DIMS) {
        mt_raise_too_many_dims(n);
        return NULL;
    }
    /* torch's tile: dims padded with leading ones to t's dims, then repeat */
    for (int d = 0; d < lead; d++) {
        repeats[d] = 1;
    }
    memcpy(repeats + lead, dims, sizeof(int64_t) * (size_t)n);
    return mt_repeat(t, lead + n, repeats);
}

static int
format_dims(int n, const int64_t *dims, char *buf, size_t len)
{
    mt_format_shape(n, dims, buf, len);
    return 0;
}

PyObject *
mt_movedim(T *t, int n, const int64_t *source, int m, const int64_t *destination)
{
    int src[MT_MAX_DIMS], dst[MT_MAX_DIMS];
    int64_t perm[MT_MAX_DIMS];
    char taken_src[MT_MAX_DIMS] = {0}, taken_dst[MT_MAX_DIMS] = {0};
    char a[1024], b[1024];
    int rest = 0;

    if (n != m) {
        format_dims(n, source, a, sizeof(a));
        format_dims(m, destination, b, sizeof(b));
        PyErr_Format(PyExc_RuntimeError,
                     "movedim: Invalid source or destination dims: source (%s dims) should contain the same number "
                     "of dims as destination (%s dims)",
                     a, b);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (mt_wrap_dim(source[i], t->ndim, &src[i]) < 0 || mt_wrap_dim(destination[i], t->ndim, &dst[i]) < 0) {
            return NULL;
        }
    }
    for (int i = 0; i < n; i++) {
        if (taken_src[src[i]]++) {
            format_dims(n, source, a, sizeof(a));
            PyErr_Format(PyExc_RuntimeError, "movedim: repeated dim in `source` (%s)", a);
            return NULL;
        }
    }
    for (int i = 0; i < n; i++) {
        if (taken_dst[dst[i]]++) {
            format_dims(m, destination, b, sizeof(b));
            PyErr_Format(PyExc_RuntimeError, "movedim: repeated dim in `destination` (%s)", b);
            return NULL;
        }
    }
    /* the moved dims where they go; the others, in order, in the places left */
    for (int d = 0; d < t->ndim; d++) {
        perm[d] = -1;
    }
    for (int i = 0; i < n; i++) {
        perm[dst[i]] = src[i];
    }
    for (int d = 0; d < t->ndim; d++) {
        if (perm[d] >= 0) {
            continue;
        }
        while (taken_src[rest]) {
            rest++;
        }
        perm[d] = rest++;
    }
    return (PyObject *)mt_permute(t, t->ndim, perm);
}
