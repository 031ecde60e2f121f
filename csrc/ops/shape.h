/* shape.h: the C entry points of the shape layer (csrc/ops/shape.c) for other op files: views computed
 * from geometry alone (view, reshape, expand, unsqueeze, ...), torch's stride rules behind them
 * (computeStride, infer_size, dense-stride inference) and the copying joins (cat). Index.c builds
 * __getitem__/__setitem__ on these; matmul or reduce may use them to reshape operands. Every function
 * raises torch's exception and message on bad input. */
#ifndef MT_SHAPE_H
#define MT_SHAPE_H

#include <Python.h>
#include <stdint.h>

#include "../core/tensor.h"

/* torch's computeStride: the strides that view a tensor of (old_sizes, old_strides) as new_sizes
 * without copying. 1 with new_strides filled, 0 when no such view exists. Never raises. */
int mt_compute_view_strides(int old_ndim, const int64_t *old_sizes, const int64_t *old_strides, int new_ndim,
                            const int64_t *new_sizes, int64_t *new_strides);

/* torch's infer_size: replaces one -1 in `sizes` so that the product is `numel`; raises torch's
 * "shape '[4]' is invalid for input of size 6" and friends. 0 or -1. */
int mt_infer_size(int ndim, int64_t *sizes, int64_t numel);


/* The name torch uses for a tensor's type in messages: "torch.FloatTensor", "torch.cuda.LongTensor". */
void mt_tensor_type_string(const mt_TensorObject *t, char *buf, size_t len);

/* New references; NULL with torch's exception. `sizes` may contain -1 where torch allows it. */
mt_TensorObject *mt_view(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_reshape(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_expand(mt_TensorObject *t, int ndim, const int64_t *sizes);
mt_TensorObject *mt_unsqueeze(mt_TensorObject *t, int64_t dim);
mt_TensorObject *mt_transpose(mt_TensorObject *t, int64_t dim0, int64_t dim1);
mt_TensorObject *mt_permute(mt_TensorObject *t, int ndims, const int64_t *dims);
mt_TensorObject *mt_select(mt_TensorObject *t, int64_t dim, int64_t index);
mt_TensorObject *mt_alias(mt_TensorObject *t);

/* torch's slice on a wrapped dim (clamping start/stop like Python slices; step > 0). */
mt_TensorObject *mt_slice(mt_TensorObject *t, int dim, int64_t start, int64_t stop, int64_t step);

/* clone(memory_format=torch.preserve_format): a new tensor on the same device that keeps self's strides
 * when they are dense, else dense strides in self's dim order. */
mt_TensorObject *mt_clone(mt_TensorObject *t);

/* torch.cat(tensors, dim) over n tensors (type promotion, torch's checks). */
mt_TensorObject *mt_cat(Py_ssize_t n, mt_TensorObject *const *tensors, int64_t dim);

#endif
