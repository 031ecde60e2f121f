/* index.h: the host gather and scatter of advanced indexing (x[indices], x[indices] = v) over the plain
 * description of kernel_types.h (mt_index_args), for memory the host can address, and the element offsets
 * the op layer gives them, from the index values. They copy elements as bits and never raise or look at
 * tensors and devices; an index value out of range is returned to the op layer, which raises. */
#ifndef MT_KERNELS_CPU_INDEX_H
#define MT_KERNELS_CPU_INDEX_H

#include "../kernel_types.h"

/* other := self[...] (scatter 0) or self[...] := other (scatter 1), in (o, b, a) order, so a repeated
 * index's last value wins. 0, or -1 when the offset tables of the inner dims cannot be allocated. */
int mt_cpu_index(const mt_index_args *args, int scatter);

/* The index arrays of an advanced index as the op layer read them into host memory: one per indexed dim,
 * each int64 and contiguous over its own ndim[k] sizes, which broadcast (right-aligned) to bshape. */
typedef struct {
    int nidx;
    int ndim[MT_MAX_DIMS];
    const int64_t *sizes[MT_MAX_DIMS];
    const int64_t *values[MT_MAX_DIMS];
    const int64_t *dim_sizes;       /* the indexed dims' sizes: index k's values lie in [-size, size) */
    int bndim;
    const int64_t *bshape;
} mt_index_values;

/* For each of the nb positions of bshape in row-major order, out[b] := the sum over the indices of their
 * value there (a negative one wrapped, + dim_sizes[k]) times weights[k]; other_out, when not NULL, := the
 * sum over the bshape dims of the position times other_strides. 0, or -1 at the first value (positions,
 * then indices, in order) out of its range: *bad_k is its index's place among the indices, *bad_value it. */
int mt_cpu_index_offsets(const mt_index_values *iv, const int64_t *weights, const int64_t *other_strides,
                         int64_t *out, int64_t *other_out, int *bad_k, int64_t *bad_value);

/* The true elements of a bool array (ndim dims of `sizes`, `strides` in elements), in row-major order as
 * nonzero lists them: returns their count and, when coords is not NULL, sets coords[d][i] to the d-th
 * coordinate of the i-th (each coords[d] has room for the count). */
int64_t mt_cpu_nonzero(const char *data, int ndim, const int64_t *sizes, const int64_t *strides, int64_t **coords);

#endif
