/* inplace_view.h: the in-place view ops (squeeze_, unsqueeze_, t_, transpose_ and its aliases swapdims_ /
 * swapaxes_, as_strided_) as C entry points: self's geometry is changed in place. Their Python forms are rows of
 * csrc/python/ops.def (csrc/python/inplace_view.c reads the arguments). set_ moves self onto another storage
 * (its Python form, with the storage objects, is minitorch/storage.py's Tensor.set_). */
#ifndef MT_INPLACE_VIEW_H
#define MT_INPLACE_VIEW_H

#include <Python.h>

#include "../core/tensor.h"

/* The op table's codes for the family's rows. */
enum {
    MT_INPLACE_VIEW_SQUEEZE,
    MT_INPLACE_VIEW_UNSQUEEZE,
    MT_INPLACE_VIEW_T,
    MT_INPLACE_VIEW_TRANSPOSE,
    MT_INPLACE_VIEW_AS_STRIDED
};

/* self with its geometry replaced by the view the code names (squeeze: ndims -1 for every size-1 dim,
 * else the dims listed, `one_dim` telling squeeze_(dim) from squeeze_(dims); unsqueeze: dims[0];
 * transpose: dims[0], dims[1]), one version bump, and with autograd torch's node for the in-place form.
 * New reference to self, or NULL. */
PyObject *mt_inplace_view(mt_TensorObject *self, int code, int ndims, const int64_t *dims, int one_dim);

/* as_strided_(size, stride, storage_offset): self given as_strided's geometry (has_offset 0: its own
 * offset), AsStridedBackward1. New reference to self, or NULL. */
PyObject *mt_as_strided_inplace(mt_TensorObject *self, int n, const int64_t *sizes, int nstrides,
                                const int64_t *strides, int has_offset, int64_t offset);

/* set_(source, storage_offset, size, stride): self moved onto the storage of `source` (a tensor on it: a
 * storage object's, or set_(Tensor)'s source) with that geometry (strides NULL: contiguous; the storage
 * grows to hold it, as shape.h's mt_set_storage_geometry), one version bump, and torch's NotImplemented
 * node when autograd records. The dtype is self's: the caller checks set_(Tensor)'s. New reference to self,
 * or NULL. */
PyObject *mt_set_(mt_TensorObject *self, mt_TensorObject *source, int64_t offset, int n, const int64_t *sizes,
                  int nstrides, const int64_t *strides);

#endif
