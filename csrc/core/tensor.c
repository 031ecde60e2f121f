/* tensor.c: the tensor object below every layer: its lifetime (allocation, the instance dict, the GC slots
 * the Python type installs), its geometry (sizes, strides, offset, dense-stride inference, dim wrapping)
 * and the constructors of new tensors and views over a storage. It computes nothing on tensor data, reads
 * no Python arguments and includes nothing from ops/ or python/: the Python type, its properties and
 * methods are csrc/python/tensor_type.c. */
#include "tensor.h"

#include <stddef.h>
#include <string.h>
#include <structmember.h>

#include "devices.h"

/* ---- lifetime and geometry ------------------------------------------------------------------- */

int
mt_raise_too_many_dims(long long ndim)
{
    /* NotImplementedError, not RuntimeError: torch accepts any number of dims, so this is a gap of
     * minitorch (documented in README.md), not a misuse; it is still a RuntimeError subclass */
    PyErr_Format(PyExc_NotImplementedError, "minitorch supports tensors of at most %d dimensions, got %lld",
                 MT_MAX_DIMS, ndim);
    return -1;
}

int
mt_tensor_set_geometry(mt_TensorObject *t, int ndim, const int64_t *sizes, const int64_t *strides)
{
    /* the heap block of a tensor of many dims is freed after the copy (sizes may point into it) */
    int64_t *old = t->sizes != NULL && t->sizes != t->dims_inline ? t->sizes : NULL;

    Py_CLEAR(t->shape);
    if (ndim > MT_MAX_DIMS) {
        return mt_raise_too_many_dims(ndim);
    }
    if (ndim > MT_INLINE_DIMS) {
        int64_t *block = PyMem_Malloc(sizeof(int64_t) * 2 * (size_t)ndim);
        if (block == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        /* an element loop, not memcpy: GCC turns a memcpy of a variable size into `rep movsq`, whose start-up
         * cost is most of a small view's creation (x[1]: 69 -> 55 ns) */
        for (int d = 0; d < ndim; d++) {
            block[d] = sizes[d];
            block[ndim + d] = strides[d];
        }
        t->sizes = block;
        t->strides = block + ndim;
    }
    else {
        int64_t *inline_sizes = t->dims_inline, *inline_strides = t->dims_inline + MT_INLINE_DIMS;
        for (int d = 0; d < ndim; d++) {
            inline_sizes[d] = sizes[d];
            inline_strides[d] = strides[d];
        }
        t->sizes = inline_sizes;
        t->strides = inline_strides;
    }
    t->ndim = ndim;
    PyMem_Free(old);
    return 0;
}

/* Python 3.11 specializes a method load (t.dim()) on an object whose type has a dict slot only while
 * the object's dict exists (LOAD_METHOD_WITH_DICT; 3.12 also specializes a missing one, and 3.9/3.10
 * specialize nothing). With NULL there, every method call took the generic path (t.dim() 16 -> 35 ns).
 * So on 3.11 every tensor starts out pointing at one shared dict that is empty and stays empty and
 * untracked: whatever writes attributes (tensor_setattro, the __dict__ getter) first swaps in a dict of
 * the tensor's own. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define MT_SHARED_EMPTY_DICT 1
static PyObject *shared_empty_dict = NULL;
#endif

int
mt_tensor_core_init(void)
{
#ifdef MT_SHARED_EMPTY_DICT
    shared_empty_dict = PyDict_New();
    if (shared_empty_dict == NULL) {
        return -1;
    }
#endif
    return 0;
}

/* Makes self->dict the tensor's own (3.11: not the shared empty one). 0 or -1. */
static int
tensor_own_dict(mt_TensorObject *self)
{
#ifdef MT_SHARED_EMPTY_DICT
    if (self->dict == shared_empty_dict) {
        PyObject *own = PyDict_New();
        if (own == NULL) {
            return -1;
        }
        Py_SETREF(self->dict, own);
    }
#endif
    return 0;
}

int
mt_tensor_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    if (tensor_own_dict((mt_TensorObject *)self) < 0) {
        return -1;
    }
    return PyObject_GenericSetAttr(self, name, value);
}

PyObject *
mt_tensor_dict_get(PyObject *self, void *closure)
{
    if (tensor_own_dict((mt_TensorObject *)self) < 0) {
        return NULL;
    }
    return PyObject_GenericGetDict(self, closure);
}

int
mt_tensor_rebind(mt_TensorObject *t, mt_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                 const int64_t *strides)
{
    mt_storage *old = t->storage;

    if (mt_tensor_set_geometry(t, ndim, sizes, strides) < 0) {
        return -1;
    }
    mt_storage_incref(storage);
    t->storage = storage;
    t->offset = offset;
    if (old != NULL) {
        mt_storage_decref(old);
    }
    return 0;
}

mt_TensorObject *
mt_tensor_alloc(PyTypeObject *type)
{
    mt_TensorObject *t = (mt_TensorObject *)type->tp_alloc(type, 0);
    if (t == NULL) {
        return NULL;
    }
    t->storage = NULL;
    t->offset = 0;
    t->ndim = 0;
    t->dtype = MT_FLOAT32;
    t->requires_grad = 0;
    t->sizes = t->dims_inline;
    t->strides = t->dims_inline + MT_INLINE_DIMS;
    t->weakreflist = NULL;
    t->shape = NULL;
    t->grad = NULL;
    t->grad_fn = NULL;
    t->grad_accumulator = NULL;
    t->base = NULL;
    t->hooks = NULL;
    t->version = NULL;
    t->output_nr = 0;
    t->retains_grad = 0;
#ifdef MT_SHARED_EMPTY_DICT
    Py_INCREF(shared_empty_dict);
    t->dict = shared_empty_dict;
#else
    t->dict = NULL;
#endif
    return t;
}

mt_TensorObject *
mt_tensor_from_storage(mt_storage *storage, int ndim, const int64_t *sizes, const int64_t *strides,
                       int64_t offset, mt_dtype dtype)
{
    mt_TensorObject *t = mt_tensor_alloc(&mt_TensorType);
    if (t == NULL) {
        return NULL;
    }
    if (mt_tensor_set_geometry(t, ndim, sizes, strides) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    mt_storage_incref(storage);
    t->storage = storage;
    t->offset = offset;
    t->dtype = dtype;
    return t;
}

mt_TensorObject *
mt_tensor_new_view(const mt_TensorObject *base, int ndim, const int64_t *sizes, const int64_t *strides,
                   int64_t offset)
{
    mt_TensorObject *t = mt_tensor_from_storage(base->storage, ndim, sizes, strides, offset, base->dtype);
    PyObject *root = base->base != NULL ? base->base : (PyObject *)base;

    if (t == NULL) {
        return NULL;
    }
    if (mt_tensor_share_version(t, (mt_TensorObject *)base) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    Py_INCREF(root);
    t->base = root;
    return t;
}

/* A counter of its own for t, version 0. */
static int
version_create(mt_TensorObject *t)
{
    t->version = PyMem_Malloc(sizeof(mt_version));
    if (t->version == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    t->version->refs = 1;
    t->version->value = 0;
    return 0;
}

static void
version_release(mt_TensorObject *t)
{
    if (t->version != NULL && --t->version->refs == 0) {
        PyMem_Free(t->version);
    }
    t->version = NULL;
}

int
mt_tensor_share_version(mt_TensorObject *t, mt_TensorObject *from)
{
    if (from->version == NULL && version_create(from) < 0) {
        return -1;
    }
    version_release(t);
    from->version->refs++;
    t->version = from->version;
    return 0;
}

int
mt_tensor_bump_version(mt_TensorObject *t)
{
    if (mt_tensor_is_inference(t) && !mt_storage_inference_enabled()) {
        /* torch's VariableVersion::bump: an inference tensor has no counter (the change is made, then refused) */
        PyErr_SetString(PyExc_RuntimeError, "Inplace update to inference tensor outside InferenceMode is not "
                        "allowed.You can make a clone to get a normal tensor before doing inplace update.See "
                        "https://github.com/pytorch/rfcs/pull/17 for more details.");
        return -1;
    }
    if (t->version == NULL && version_create(t) < 0) {
        return -1;
    }
    t->version->value++;
    return 0;
}

/* Raises `type` with `prefix` followed by the sizes as torch prints them: "[2, -1, 3]". Returns -1. */
static int
raise_with_sizes(PyObject *type, const char *prefix, int ndim, const int64_t *sizes)
{
    PyObject *list = PyList_New(ndim);
    PyObject *repr = NULL;

    if (list == NULL) {
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return -1;
        }
        PyList_SET_ITEM(list, i, v);
    }
    repr = PyObject_Repr(list);
    if (repr != NULL) {
        PyErr_Format(type, "%s%U", prefix, repr);
    }
    Py_DECREF(list);
    Py_XDECREF(repr);
    return -1;
}

int
mt_check_sizes(int ndim, const int64_t *sizes, mt_dtype dtype, int64_t *numel_out)
{
    int64_t numel = 1;
    int overflow = 0;

    if (ndim > MT_MAX_DIMS) {
        return mt_raise_too_many_dims(ndim);
    }
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            char prefix[96];
            snprintf(prefix, sizeof(prefix), "Trying to create tensor with negative dimension %lld: ",
                     (long long)sizes[i]);
            return raise_with_sizes(PyExc_RuntimeError, prefix, ndim, sizes);
        }
    }
    for (int i = 0; i < ndim; i++) {
        if (__builtin_mul_overflow(numel, sizes[i], &numel)) {
            overflow = 1;
        }
    }
    if (!overflow) {
        int64_t nbytes;
        if (__builtin_mul_overflow(numel, (int64_t)mt_dtype_size(dtype), &nbytes)) {
            overflow = 1;
        }
    }
    if (overflow) {
        return raise_with_sizes(PyExc_RuntimeError, "Storage size calculation overflowed with sizes=", ndim, sizes);
    }
    *numel_out = numel;
    return 0;
}

int
mt_check_external_geometry(PyObject *error, const void *data, size_t nbytes, uint64_t byte_offset, int ndim,
                           const int64_t *sizes, const int64_t *strides, size_t itemsize, size_t *extent_out)
{
    /* Geometry that minitorch did not compute itself is trusted for nothing: a subclass's properties, a
     * hand-made capsule or a corrupt pickle can say anything, and every kernel would read and write
     * wherever it says. Sizes are checked first (torch's own error for a negative one), then the byte
     * extent is computed in unsigned arithmetic with every step checked. */
    char shape[1024], steps[1024];
    uint64_t extent = 0;
    uint64_t end;
    int64_t numel;

    if (ndim < 0 || ndim > MT_MAX_DIMS) {
        PyErr_Format(error, "minitorch supports tensors of 0 to %d dimensions, got %d", MT_MAX_DIMS, ndim);
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            /* torch's check, with torch's message */
            return mt_check_sizes(ndim, sizes, MT_FLOAT32, &numel);
        }
    }
    numel = 1;
    for (int i = 0; i < ndim; i++) {
        if (__builtin_mul_overflow(numel, sizes[i], &numel)) {
            goto overflow;
        }
    }
    if (numel == 0) {
        /* no element: nothing is ever read, whatever the strides say */
        if (extent_out != NULL) {
            *extent_out = 0;
        }
        return 0;
    }
    if (itemsize == 0) {
        PyErr_SetString(error, "a tensor's elements cannot have a size of 0 bytes");
        return -1;
    }
    extent = itemsize;
    for (int i = 0; i < ndim; i++) {
        uint64_t step;
        if (strides[i] < 0) {
            mt_format_shape(ndim, strides, steps, sizeof(steps));
            PyErr_Format(error, "negative strides are not supported, got strides %s", steps);
            return -1;
        }
        if (__builtin_mul_overflow((uint64_t)(sizes[i] - 1), (uint64_t)strides[i], &step) ||
            __builtin_mul_overflow(step, (uint64_t)itemsize, &step) || __builtin_add_overflow(extent, step, &extent)) {
            goto overflow;
        }
    }
    /* no C object spans more than PTRDIFF_MAX bytes, so nothing past that offset is memory it owns */
    if (__builtin_add_overflow(extent, byte_offset, &end) || end > (uint64_t)PTRDIFF_MAX ||
        (uint64_t)(uintptr_t)data > UINTPTR_MAX - end) {
        goto overflow;
    }
    if (data == NULL) {
        PyErr_Format(error, "the memory to view has a NULL data pointer but %llu bytes of elements",
                     (unsigned long long)extent);
        return -1;
    }
    if (end > (uint64_t)nbytes) {
        mt_format_shape(ndim, sizes, shape, sizeof(shape));
        mt_format_shape(ndim, strides, steps, sizeof(steps));
        PyErr_Format(error,
                     "setStorage: sizes %s, strides %s, storage offset %llu, and itemsize %zu requiring a storage "
                     "size of %llu are out of bounds for storage of size %zu",
                     shape, steps, (unsigned long long)(byte_offset / itemsize), itemsize, (unsigned long long)end,
                     nbytes);
        return -1;
    }
    if (extent_out != NULL) {
        *extent_out = (size_t)extent;
    }
    return 0;

overflow:
    mt_format_shape(ndim, sizes, shape, sizeof(shape));
    mt_format_shape(ndim, strides, steps, sizeof(steps));
    PyErr_Format(error, "Storage size calculation overflowed with sizes=%s and strides=%s (and a byte offset of %llu)",
                 shape, steps, (unsigned long long)byte_offset);
    return -1;
}

mt_TensorObject *
mt_tensor_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, mt_dtype dtype, mt_device device)
{
    int64_t numel, extent = 1;
    mt_storage *storage;
    mt_TensorObject *t;

    if (mt_check_sizes(ndim, sizes, dtype, &numel) < 0) {
        return NULL;
    }
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] == 0) {
            extent = 0;
            break;
        }
        extent += (sizes[d] - 1) * strides[d];
    }
    storage = mt_storage_new((size_t)extent * mt_dtype_size(dtype), device);
    if (storage == NULL) {
        return NULL;
    }
    t = mt_tensor_from_storage(storage, ndim, sizes, strides, 0, dtype);
    mt_storage_decref(storage);
    return t;
}

mt_TensorObject *
mt_tensor_empty_format(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device, mt_memory_format format)
{
    int64_t strides[MT_MAX_DIMS];
    int64_t numel;

    /* the sizes first: their checked product bounds every stride the format computes */
    if (mt_check_sizes(ndim, sizes, dtype, &numel) < 0 || mt_memory_format_strides(format, ndim, sizes, strides) < 0) {
        return NULL;
    }
    return mt_tensor_empty_strided(ndim, sizes, strides, dtype, device);
}

mt_TensorObject *
mt_tensor_empty(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device)
{
    return mt_tensor_empty_format(ndim, sizes, dtype, device, MT_CONTIGUOUS_FORMAT);
}

mt_TensorObject *
mt_tensor_empty_like(const mt_TensorObject *like)
{
    return mt_tensor_empty(like->ndim, like->sizes, like->dtype, mt_tensor_device(like));
}

int
mt_geometry_is_non_overlapping_and_dense(int n, const int64_t *sizes, const int64_t *strides)
{
    int perm[MT_MAX_DIMS];
    int64_t require = 1;

    if (n == 1) {
        return sizes[0] < 2 || strides[0] == 1;
    }
    for (int i = 0; i < n; i++) {
        perm[i] = i;
    }
    /* stable sort by stride, dims of size < 2 last */
    for (int i = 1; i < n; i++) {
        int v = perm[i], j = i - 1;
        while (j >= 0) {
            int a = perm[j];
            int a_after_v;
            if (sizes[a] < 2) {
                a_after_v = sizes[v] >= 2;
            }
            else if (sizes[v] < 2) {
                a_after_v = 0;
            }
            else {
                a_after_v = strides[a] > strides[v];
            }
            if (!a_after_v) {
                break;
            }
            perm[j + 1] = a;
            j--;
        }
        perm[j + 1] = v;
    }
    for (int i = 0; i < n; i++) {
        int64_t size = sizes[perm[i]];
        if (size < 2) {
            return 1;
        }
        if (strides[perm[i]] != require) {
            return 0;
        }
        require *= size;
    }
    return 1;
}

/* torch's is_non_overlapping_and_dense: the elements fill a block of memory exactly, in some order. */
int
mt_tensor_is_non_overlapping_and_dense(const mt_TensorObject *t)
{
    return mt_tensor_is_contiguous(t) || mt_geometry_is_non_overlapping_and_dense(t->ndim, t->sizes, t->strides);
}

void
mt_infer_dense_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    /* at::infer_dense_strides: TensorIterator's stable insertion sort of the dims by stride (0-stride
     * dims stay where they are), then dense strides in that order */
    int perm[MT_MAX_DIMS];
    int64_t cur = 1;

    if (ndim == 0) {
        return;
    }
    if (ndim == 1) {
        out[0] = 1;
        return;
    }
    for (int i = 0; i < ndim; i++) {
        perm[i] = ndim - 1 - i;
    }
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int j = 1; j <= i; j++) {
            int dim0 = i - j;
            int64_t s0 = strides[perm[dim0]], s1 = strides[perm[dim1]];
            int cmp;
            if (s0 == 0 || s1 == 0) {
                cmp = 0;
            }
            else if (s0 < s1) {
                cmp = -1;
            }
            else if (s0 > s1) {
                cmp = 1;
            }
            else {
                cmp = sizes[perm[dim0]] > sizes[perm[dim1]] ? 1 : 0;
            }
            if (cmp > 0) {
                int tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            }
            else if (cmp < 0) {
                break;
            }
        }
    }
    for (int i = 0; i < ndim; i++) {
        int d = perm[i];
        out[d] = cur;
        if (sizes[d] > 1) {
            cur *= sizes[d];
        }
    }
}

mt_TensorObject *
mt_tensor_empty_preserving(const mt_TensorObject *like, mt_dtype dtype, mt_device device)
{
    /* torch's empty_like(preserve_format): like's own strides when they are dense (size-1 dims keep
     * theirs too), else dense strides in like's dim order */
    int64_t strides[MT_MAX_DIMS];

    if (mt_tensor_is_non_overlapping_and_dense(like)) {
        memcpy(strides, like->strides, sizeof(int64_t) * (size_t)like->ndim);
    }
    else {
        mt_infer_dense_strides(like->ndim, like->sizes, like->strides, strides);
    }
    return mt_tensor_empty_strided(like->ndim, like->sizes, strides, dtype, device);
}

mt_TensorObject *
mt_tensor_empty_in_format(const mt_TensorObject *like, mt_dtype dtype, mt_device device, mt_memory_format format)
{
    if (format == MT_PRESERVE_FORMAT) {
        return mt_tensor_empty_preserving(like, dtype, device);
    }
    return mt_tensor_empty_format(like->ndim, like->sizes, dtype, device, format);
}

void
mt_format_shape(int ndim, const int64_t *sizes, char *buf, size_t len)
{
    size_t used = 0;
    int n = snprintf(buf, len, "[");
    used = n > 0 ? (size_t)n : 0;
    for (int i = 0; i < ndim && used < len; i++) {
        n = snprintf(buf + used, len - used, i ? ", %lld" : "%lld", (long long)sizes[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < len) {
        snprintf(buf + used, len - used, "]");
    }
}

int64_t
mt_tensor_numel(const mt_TensorObject *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++) {
        n *= t->sizes[i];
    }
    return n;
}

int
mt_tensor_is_contiguous(const mt_TensorObject *t)
{
    return mt_memory_format_is_contiguous(MT_CONTIGUOUS_FORMAT, t->ndim, t->sizes, t->strides);
}

int
mt_wrap_dim(int64_t dim, int ndim, int *out)
{
    int64_t min = ndim > 0 ? -ndim : -1;
    int64_t max = ndim > 0 ? ndim - 1 : 0;
    if (dim < min || dim > max) {
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)min, (long long)max, (long long)dim);
        return -1;
    }
    *out = (int)(dim < 0 ? dim + (ndim > 0 ? ndim : 1) : dim);
    return 0;
}

/* Instance attributes live in self->dict for Tensor and for every subclass (a subclass whose base has a
 * dict gets none of its own, on every Python version): CPython's subtype_traverse/subtype_clear leave it
 * to these functions, which visit and clear it exactly once. */
void
mt_tensor_dealloc(mt_TensorObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    Py_CLEAR(self->dict);
    mt_tensor_clear(self);
    version_release(self);
    if (self->storage != NULL) {
        mt_storage_decref(self->storage);
    }
    if (self->sizes != self->dims_inline) {
        PyMem_Free(self->sizes);
    }
    Py_CLEAR(self->shape);
    type->tp_free((PyObject *)self);
    /* instances of a heap type own a reference to it */
    Py_DECREF(type);
}

int
mt_tensor_traverse(mt_TensorObject *self, visitproc visit, void *arg)
{
    /* the dict (so that t.owner = module cycles are found) and, as for every heap type's instance, the
     * type; nothing else the tensor holds is a Python object that could close a cycle */
#ifdef MT_SHARED_EMPTY_DICT
    if (self->dict != shared_empty_dict) {
        Py_VISIT(self->dict);
    }
#else
    Py_VISIT(self->dict);
#endif
    Py_VISIT(self->grad);
    Py_VISIT(self->grad_fn);
    Py_VISIT(self->base);
    Py_VISIT(self->hooks);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

int
mt_tensor_clear(mt_TensorObject *self)
{
    Py_CLEAR(self->dict);
    Py_CLEAR(self->grad);
    Py_CLEAR(self->grad_fn);
    Py_CLEAR(self->base);
    Py_CLEAR(self->hooks);
    return 0;
}

PyTypeObject *mt_TensorTypePtr = NULL;
