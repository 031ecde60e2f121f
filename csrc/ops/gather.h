/* gather.h: the indexing ops along one dim (csrc/ops/gather.c): gather, scatter (a tensor or a number,
 * with reduce='add' / 'multiply'), scatter_add, scatter_reduce, index_select, index_add, index_reduce, index_fill,
 * index_copy and put, and the in-place forms.
 * New references, or NULL with torch's exception. */
#ifndef MT_OPS_GATHER_H
#define MT_OPS_GATHER_H

#include <Python.h>
#include <stdint.h>

#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/kernel_types.h"

PyObject *mt_gather(mt_TensorObject *self, int64_t dim, mt_TensorObject *index);

/* scatter (mode COPY, or the reduction of reduce=; `reduced`: reduce= was given) and scatter_add (add 1):
 * src is a tensor, or NULL with `value` the number. inplace: scatter_ / scatter_add_ (self returned). */
PyObject *mt_scatter(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *src,
                     mt_scalar value, mt_index_dim_mode mode, int reduced, int add, int inplace);

PyObject *mt_index_select(mt_TensorObject *self, int64_t dim, mt_TensorObject *index);

/* index_add: self + alpha * source placed along dim at index; inplace: index_add_. */
PyObject *mt_index_add(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                       mt_scalar alpha, int inplace);

/* self.index_add_(dim, index, source) with each sum in self's dtype (float16 and bfloat16 rounded after
 * every addition), in index order: index_put_'s accumulate=True. Records nothing; 0 or -1. */
int mt_index_add_each_(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source);

/* index_fill: self with value (a number, or the item of the 0-d value_tensor when not NULL) along dim at
 * the int64 index (negative values count from the end); inplace: index_fill_. */
PyObject *mt_index_fill(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *value_tensor,
                        mt_scalar value, int inplace);

/* index_copy: self with source's entries along dim placed at the int64 index; inplace: index_copy_. */
PyObject *mt_index_copy(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                        int inplace);

/* scatter_reduce: self with src's values reduced into the places the index points at along dim (reduce=
 * 'sum', 'prod', 'mean', 'amax' or 'amin'; include_self: self's own value takes part); inplace:
 * scatter_reduce_. */
PyObject *mt_scatter_reduce(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *src,
                            const char *reduce, int include_self, int inplace);

/* index_reduce: index_add's placement with reduce= 'prod', 'mean', 'amax' or 'amin'; inplace: index_reduce_. */
PyObject *mt_index_reduce(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                          const char *reduce, int include_self, int inplace);

/* put: self with source's elements at the int64 index of the flattened self (accumulate: added); inplace:
 * put_. */
PyObject *mt_put(mt_TensorObject *self, mt_TensorObject *index, mt_TensorObject *source, int accumulate, int inplace);

#endif
