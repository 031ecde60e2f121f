/* index.h: advanced indexing and the assignments of Tensor.__setitem__ on C values (csrc/python/index_key.c
 * reads the key, builds the view of its basic part and collects the index tensors). */
#ifndef MT_INDEX_H
#define MT_INDEX_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

/* boolToIndexingTensor: True indexes [0] of a new size-1 dim, False nothing of it. */
mt_TensorObject *mt_index_from_bool(int value);

/* dispatch_index: sliced[entries] as a new tensor (an entry NULL: the whole dim), gathered by the device's
 * kernels and recorded for autograd. */
PyObject *mt_index_gather(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries);

/* index_put_: sliced[entries] = value (a tensor) or *scalar (value NULL). 0 or -1. */
int mt_index_put(mt_TensorObject *sliced, mt_TensorObject *const *entries, int nentries, mt_TensorObject *value,
                 const mt_scalar *scalar);

/* index_put (inplace: index_put_): self with values put at the index tensors' places (entries NULL: the
 * whole dim), without the leading 1s of __setitem__'s value; accumulate=True is not supported yet. */
PyObject *mt_index_put_op(mt_TensorObject *self, mt_TensorObject *const *entries, int nentries,
                          mt_TensorObject *values, int accumulate, int inplace);

/* copy_ of value (or *scalar, value NULL) into dst, a basic view of the indexed tensor. 0 or -1. */
int mt_index_copy_to(mt_TensorObject *dst, mt_TensorObject *value, const mt_scalar *scalar);

/* slicePrefix1sSize: the value without its leading size-1 dims (a new reference). */
mt_TensorObject *mt_index_strip_leading_ones(mt_TensorObject *v);

/* self[mask] for a bool mask of self's shape (masked_select), as __getitem__ reads that key. */
PyObject *mt_index_by_mask(mt_TensorObject *self, mt_TensorObject *mask);

/* self[mask] = value, as __setitem__ reads that key (masked_select's backward). 0 or -1. */
int mt_index_put_by_mask(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *value);

/* torch's deprecation warning for index_put_, masked_fill_ and index_fill_ on a tensor whose elements
 * share memory (an expand()ed one): "Use of <op> on expanded tensors is deprecated. ... e.g. <example>";
 * the op writes anyway. 0, or -1 when the warning raises. */
int mt_warn_expanded(const mt_TensorObject *t, const char *op, const char *example);

#endif
