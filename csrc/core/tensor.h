/* tensor.h: the minitorch.Tensor object: a strided view (sizes, strides, offset, dtype) of a storage.
 * This header is what every op file builds on: creating tensors and views, reading their geometry and
 * their data pointer. The Python type (properties, methods, protocols) is csrc/python/tensor_type.c. */
#ifndef MT_TENSOR_H
#define MT_TENSOR_H

#include <Python.h>
#include <stdint.h>

#include "device.h"
#include "dtype.h"
#include "memory_format.h"
#include "storage.h"

typedef struct mt_version mt_version;

/* MT_MAX_DIMS (scalar_type.h) bounds every shape; this many dims live inside the object. */
#define MT_INLINE_DIMS 6

/* Raises the error for a result of more than MT_MAX_DIMS dims: NotImplementedError (torch would return
 * a tensor; the limit is documented in README.md, "Known differences"). Returns -1. Every op that can
 * add dims (unsqueeze, stack, indexing with None, unflatten, ...) checks before filling its fixed-size
 * arrays. */
int mt_raise_too_many_dims(long long ndim);

typedef struct {
    PyObject_HEAD
    mt_storage *storage;
    int64_t offset;                 /* in elements of `dtype` */
    int ndim;
    mt_dtype dtype;
    int requires_grad;
    int64_t *sizes;                 /* points at dims_inline or at a heap block for ndim > MT_INLINE_DIMS */
    int64_t *strides;               /* in elements */
    int64_t dims_inline[2 * MT_INLINE_DIMS];
    PyObject *weakreflist;
    PyObject *shape;                /* the minitorch.Size of `sizes`, made at the first .shape/.size();
                                     * dropped whenever the geometry changes */
    PyObject *dict;                 /* instance attributes (t.tag = 1), as torch's tensors have; NULL
                                     * until the first one. Subclasses keep theirs here too. */
    /* Autograd's state of the tensor (csrc/autograd/ gives it meaning; core keeps it and frees it). */
    PyObject *grad;                 /* .grad: NULL or a tensor */
    PyObject *grad_fn;              /* the node that made this tensor; NULL for a leaf */
    PyObject *grad_accumulator;     /* a leaf's AccumulateGrad node while it lives: borrowed, the node
                                     * clears it when it goes */
    PyObject *base;                 /* a view's base (never itself a view); NULL when not a view */
    PyObject *hooks;                /* a leaf's backward hooks (a dict: handle id -> callable) or NULL */
    mt_version *version;            /* the version counter, shared with views; NULL until needed */
    int output_nr;                  /* which output of grad_fn this tensor is */
    int retains_grad;               /* retain_grad() was called on this non-leaf */
} mt_TensorObject;

/* The version counter of a tensor and its views: every in-place change bumps it, and autograd compares
 * it with the version a saved tensor had. */
struct mt_version {
    Py_ssize_t refs;
    int64_t value;
};

/* The tensor's current version (0 before any in-place change). */
static inline int64_t
mt_tensor_version(const mt_TensorObject *t)
{
    return t->version != NULL ? t->version->value : 0;
}

/* An inference tensor (torch's): one made under inference_mode, or a view of one; it has no version counter
 * and outside inference_mode takes no in-place change and no part in autograd. */
static inline int
mt_tensor_is_inference(const mt_TensorObject *t)
{
    return t->storage != NULL && t->storage->inference;
}

/* Bumps the version after an in-place change of t's memory. 0, or -1 with MemoryError, or torch's RuntimeError
 * for an inference tensor outside inference_mode. */
int mt_tensor_bump_version(mt_TensorObject *t);

/* Makes `t` share `from`'s version counter (a view, detach()). 0 or -1. */
int mt_tensor_share_version(mt_TensorObject *t, mt_TensorObject *from);

/* Created at module init (a heap type: see tensor.c); mt_TensorType reads like a static type. */
extern PyTypeObject *mt_TensorTypePtr;
#define mt_TensorType (*mt_TensorTypePtr)

#define mt_Tensor_Check(o) PyObject_TypeCheck((o), &mt_TensorType)

int mt_size_init(PyObject *module);

/* The object's lifetime, for the Python type (csrc/python/tensor_type.c) to install as its slots:
 * mt_tensor_core_init runs once before the type is created. */
int mt_tensor_core_init(void);
mt_TensorObject *mt_tensor_alloc(PyTypeObject *type);
void mt_tensor_dealloc(mt_TensorObject *self);
int mt_tensor_traverse(mt_TensorObject *self, visitproc visit, void *arg);
int mt_tensor_clear(mt_TensorObject *self);
int mt_tensor_setattro(PyObject *self, PyObject *name, PyObject *value);
PyObject *mt_tensor_dict_get(PyObject *self, void *closure);

/* Replaces t's geometry (drops its cached Size). 0, or -1 with too many dims / MemoryError. */
int mt_tensor_set_geometry(mt_TensorObject *t, int ndim, const int64_t *sizes, const int64_t *strides);

/* Moves t onto `storage` (a reference of its own) at `offset` with this geometry, dropping its old storage:
 * the step under Tensor.data = and set_ (t keeps its dtype: callers check that the bytes mean the same).
 * 0, or -1 with t unchanged. */
int mt_tensor_rebind(mt_TensorObject *t, mt_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                     const int64_t *strides);

/* A new contiguous tensor with uninitialised memory. NULL with an exception (size overflow, bad size,
 * device errors, out of memory). */
mt_TensorObject *mt_tensor_empty(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device);

/* mt_tensor_empty laid out in `format` (contiguous_format or a channels-last format of the right rank;
 * torch's error otherwise). */
mt_TensorObject *mt_tensor_empty_format(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device,
                                        mt_memory_format format);

/* Same shape, dtype and device as `like`, contiguous. */
mt_TensorObject *mt_tensor_empty_like(const mt_TensorObject *like);

/* torch's is_non_overlapping_and_dense: the elements fill one block of memory, in some dim order. */
int mt_tensor_is_non_overlapping_and_dense(const mt_TensorObject *t);
/* The same on raw geometry (c10's compute_non_overlapping_and_dense: the dims ordered by stride, those of
 * size < 2 last), for layouts no tensor has yet. */
int mt_geometry_is_non_overlapping_and_dense(int n, const int64_t *sizes, const int64_t *strides);

/* torch's infer_dense_strides: dense strides that keep the dim order of (sizes, strides), computed
 * with TensorIterator's stable ordering. */
void mt_infer_dense_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out);

/* A new tensor on `device` of `sizes` laid out with `strides` (non-negative), whose storage holds exactly
 * the elements those reach (torch's empty_strided). */
mt_TensorObject *mt_tensor_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, mt_dtype dtype,
                                         mt_device device);

/* Like `like` but with `dtype` on `device`, keeping a dense permuted layout's strides (torch's
 * preserve_format, used by .to(), clone() and the *_like factories); otherwise dense strides in like's
 * dim order (mt_infer_dense_strides). */
mt_TensorObject *mt_tensor_empty_preserving(const mt_TensorObject *like, mt_dtype dtype, mt_device device);

/* Like `like` (its shape) with `dtype` on `device`, laid out in `format`: preserve_format as
 * mt_tensor_empty_preserving, the others with that format's strides (torch's empty_like(memory_format=)).
 * NULL with torch's error for a channels-last format on the wrong rank. */
mt_TensorObject *mt_tensor_empty_in_format(const mt_TensorObject *like, mt_dtype dtype, mt_device device,
                                           mt_memory_format format);

/* A new tensor object that shares `base`'s storage with the given geometry (strides in elements): a view
 * of `base` (its ._base is base's base, and they share one version counter). */
mt_TensorObject *mt_tensor_new_view(const mt_TensorObject *base, int ndim, const int64_t *sizes,
                                    const int64_t *strides, int64_t offset);

/* A tensor object (of exact type Tensor) over an existing storage; steals nothing, increfs it. */
mt_TensorObject *mt_tensor_from_storage(mt_storage *storage, int ndim, const int64_t *sizes,
                                        const int64_t *strides, int64_t offset, mt_dtype dtype);

/* Checks sizes (non-negative, product and byte size without overflow) and writes the element count.
 * Raises torch's errors. */
int mt_check_sizes(int ndim, const int64_t *sizes, mt_dtype dtype, int64_t *numel);

/* The one check for a geometry that came from outside minitorch (a NumPy array's fields, a DLPack
 * capsule, a pickle) before a tensor is built on memory it does not own: the view starts `byte_offset`
 * bytes past `data`, has `ndim` <= MT_MAX_DIMS dims of non-negative sizes (torch's RuntimeError
 * otherwise) and non-negative strides in elements of `itemsize` bytes, and every byte it can reach must
 * lie inside the `nbytes` bytes at `data` (SIZE_MAX: only the address space bounds it) with no
 * arithmetic overflowing and no NULL data behind elements; `error` (BufferError, RuntimeError) is
 * raised otherwise. *extent (may be NULL) gets the bytes from data + byte_offset to the end of the
 * farthest element, 0 when there are no elements. 0 or -1. */
int mt_check_external_geometry(PyObject *error, const void *data, size_t nbytes, uint64_t byte_offset, int ndim,
                               const int64_t *sizes, const int64_t *strides, size_t itemsize, size_t *extent);

int64_t mt_tensor_numel(const mt_TensorObject *t);
int mt_tensor_is_contiguous(const mt_TensorObject *t);

static inline mt_device
mt_tensor_device(const mt_TensorObject *t)
{
    return t->storage->device;
}

static inline char *
mt_tensor_data(const mt_TensorObject *t)
{
    return (char *)t->storage->data + t->offset * (int64_t)mt_dtype_size(t->dtype);
}

/* Wraps a dimension index like torch: "Dimension out of range (expected to be in range of [-2, 1],
 * but got 2)" (IndexError). A 0-d tensor accepts -1 and 0. Returns 0 with *out set, or -1. */
int mt_wrap_dim(int64_t dim, int ndim, int *out);

/* Writes a shape as torch prints it in messages: "[2, 3]". */
void mt_format_shape(int ndim, const int64_t *sizes, char *buf, size_t len);

/* New minitorch.Size from sizes. */
PyObject *mt_size_new(int ndim, const int64_t *sizes);

#endif
