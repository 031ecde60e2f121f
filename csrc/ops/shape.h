/* shape.h: the C entry points of the shape layer (csrc/ops/shape.c) for other op files: views computed
 * from geometry alone (view, reshape, expand, unsqueeze, ...), torch's stride rules behind them
 * (computeStride, infer_size, dense-stride inference) and the copying joins (cat). Index.c builds
 * __getitem__/__setitem__ on these; matmul or reduce may use them to reshape operands. Every function
 * raises torch's exception and message on bad input. */
#ifndef MT_SHAPE_H
#define MT_SHAPE_H

#include <Python.h>
#include <stdint.h>

#include "../core/memory_format.h"
#include "../core/tensor.h"

/* torch's computeStride: the strides that view a tensor of (old_sizes, old_strides) as new_sizes
 * without copying. 1 with new_strides filled, 0 when no such view exists. Never raises. */
int mt_compute_view_strides(int old_ndim, const int64_t *old_sizes, const int64_t *old_strides, int new_ndim,
                            const int64_t *new_sizes, int64_t *new_strides);

/* torch's infer_size: replaces one -1 in `sizes` so that the product is `numel`; raises torch's
 * "shape '[4]' is invalid for input of size 6" and friends. 0 or -1. */
int mt_infer_size(int ndim, int64_t *sizes, int64_t numel);


/* The name torch uses for a tensor's type in messages: "torch.FloatTensor", "torch.cuda.LongTensor",
 * "MetaFloatType" (Tensor.type() names a meta tensor 'torch.meta.FloatTensor'). */
void mt_tensor_type_string(const mt_TensorObject *t, char *buf, size_t len);

/* New references; NULL with torch's exception. `sizes` may contain -1 where torch allows it. */
mt_TensorObject *mt_view(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_reshape(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_expand(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_unsqueeze(mt_TensorObject *t, int64_t dim);
mt_TensorObject *mt_transpose(mt_TensorObject *t, int64_t dim0, int64_t dim1);
mt_TensorObject *mt_permute(mt_TensorObject *t, int ndims, const int64_t *dims);
mt_TensorObject *mt_select(mt_TensorObject *t, int64_t dim, int64_t index);
/* torch.diagonal: a view of the diagonal of dims dim1 and dim2 (offset above it, below when negative),
 * appended as the last dim; torch's errors for dims out of range or identical. */
mt_TensorObject *mt_diagonal(mt_TensorObject *t, int64_t offset, int64_t dim1, int64_t dim2);
mt_TensorObject *mt_alias(mt_TensorObject *t);

/* torch's slice on a wrapped dim (clamping start/stop like Python slices; step > 0). */
mt_TensorObject *mt_slice(mt_TensorObject *t, int dim, int64_t start, int64_t stop, int64_t step);

/* clone(memory_format=torch.preserve_format): a new tensor on the same device that keeps self's strides
 * when they are dense, else dense strides in self's dim order. */
mt_TensorObject *mt_clone(mt_TensorObject *t);

/* Tensor.view(dtype): the same bytes read as another dtype (torch's view_dtype rules and messages). */
mt_TensorObject *mt_view_dtype(mt_TensorObject *t, mt_dtype dtype);

/* t(): transposes dims 0 and 1 of a tensor of at most 2 dims. */
mt_TensorObject *mt_t(mt_TensorObject *t);

/* squeeze over the given dims (wrapped, each at most once); ndims < 0 squeezes every size-1 dim. */
mt_TensorObject *mt_squeeze(mt_TensorObject *t, int ndims, const int64_t *dims);

/* flatten(start_dim, end_dim): self itself when the range is one dim, as torch returns it. */
mt_TensorObject *mt_flatten(mt_TensorObject *t, int64_t start_dim, int64_t end_dim);

/* unflatten(dim, sizes): sizes may hold one -1. */
mt_TensorObject *mt_unflatten(mt_TensorObject *t, int64_t dim, int nsizes, const int64_t *sizes);

/* as_strided(size, stride, storage_offset): a view of t's storage with that geometry (has_offset 0: t's
 * own offset), with torch's checks (setStrided); unfold(dim, size, step): windows along dim as a new last
 * dim. */
mt_TensorObject *mt_as_strided(mt_TensorObject *t, int n, const int64_t *sizes, int nstrides, const int64_t *strides,
                               int has_offset, int64_t offset);
mt_TensorObject *mt_unfold(mt_TensorObject *t, int64_t dim, int64_t size, int64_t step);

/* set_(storage, storage_offset, size, stride)'s geometry (torch's set_storage_cpu_ and its meta kernel, below
 * autograd): self moved onto `storage` (on self's device) at that offset, with those sizes and strides
 * (NULL: contiguous). The storage grows to hold them unless they are self's own sizes (and strides), which
 * torch keeps and checks against the storage instead. 0, or -1 with torch's error. */
int mt_set_storage_geometry(mt_TensorObject *self, mt_storage *storage, int64_t offset, int n, const int64_t *sizes,
                            int nstrides, const int64_t *strides);

/* empty_strided's checks (lengths, negative sizes, computeStorageNbytes' overflow); *nbytes: the bytes the
 * geometry spans. 0 or -1. */
int mt_check_strided_geometry(int nsizes, const int64_t *sizes, int nstrides, const int64_t *strides, size_t itemsize,
                              int64_t *nbytes);

/* narrow(dim, start, length): start may be negative (counted from the end). */
mt_TensorObject *mt_narrow(mt_TensorObject *t, int64_t dim, int64_t start, int64_t length);

/* clone(memory_format=format) and contiguous(memory_format=format); contiguous returns self itself when
 * it already is. */
mt_TensorObject *mt_clone_in_format(mt_TensorObject *t, mt_memory_format format);
mt_TensorObject *mt_contiguous(mt_TensorObject *t, mt_memory_format format);

/* Tuples of views: unbind(dim), split(split_size, dim), split_with_sizes(sizes, dim), chunk(chunks, dim). */
PyObject *mt_unbind(mt_TensorObject *t, int64_t dim);
PyObject *mt_split(mt_TensorObject *t, int64_t split_size, int64_t dim);
PyObject *mt_split_with_sizes(mt_TensorObject *t, int n, const int64_t *sizes, int64_t dim);
PyObject *mt_chunk(mt_TensorObject *t, int64_t chunks, int64_t dim);

/* torch.cat(tensors, dim) over n tensors (type promotion, torch's checks); stack joins along a new dim,
 * hstack and vstack after atleast_1d / atleast_2d. */
mt_TensorObject *mt_cat(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim);

/* A tuple of tensors from an array of n new references (stolen, also on failure). */
PyObject *mt_tuple_of(mt_TensorObject **items, Py_ssize_t n);
mt_TensorObject *mt_stack(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim);
mt_TensorObject *mt_hstack(Py_ssize_t n, mt_TensorObject *const *tensors);
mt_TensorObject *mt_vstack(Py_ssize_t n, mt_TensorObject *const *tensors);

/* triangle.c: tril (upper 0) and triu (upper 1) of the last two dims, zeroing the elements above (below)
 * diagonal k; in place when inplace (self returned). diag: a vector on the diagonal-th diagonal of a
 * square matrix, or a copy of a matrix's diagonal-th diagonal. New references or NULL. */
PyObject *mt_triangle(mt_TensorObject *t, int upper, int64_t diagonal, int inplace);
PyObject *mt_diag(mt_TensorObject *t, int64_t diagonal);

/* A rows x cols matrix of zeros with the vector v on its k-th diagonal (diag's, and its gradient's). */
mt_TensorObject *mt_diag_embed_2d(mt_TensorObject *v, int64_t rows, int64_t cols, int64_t k);

#endif
