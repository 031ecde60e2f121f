/* index.h: the host gather and scatter of advanced indexing (x[indices], x[indices] = v) over the plain
 * description of kernel_types.h (mt_index_args), for memory the host can address. They copy elements as
 * bits and never raise, check indices (the op layer has) or look at tensors and devices. */
#ifndef MT_KERNELS_CPU_INDEX_H
#define MT_KERNELS_CPU_INDEX_H

#include "../kernel_types.h"

/* other := self[...] (scatter 0) or self[...] := other (scatter 1), in (o, b, a) order, so a repeated
 * index's last value wins. 0, or -1 when the offset tables of the inner dims cannot be allocated. */
int mt_cpu_index(const mt_index_args *args, int scatter);

/* The true elements of a bool array (ndim dims of `sizes`, `strides` in elements), in row-major order as
 * nonzero lists them: returns their count and, when coords is not NULL, sets coords[d][i] to the d-th
 * coordinate of the i-th (each coords[d] has room for the count). */
int64_t mt_cpu_nonzero(const char *data, int ndim, const int64_t *sizes, const int64_t *strides, int64_t **coords);

#endif
