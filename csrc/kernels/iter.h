/* iter.h: the geometry of an elementwise kernel call and the strided N-d loop the host kernels run
 * inside (TensorIterator's loop, as ATen keeps it beside its kernels). An iterator holds up to
 * MT_ITER_MAX_OPS operands that share one (broadcast) shape, each with its own byte strides; it drops
 * size-1 dimensions, merges dimensions that are contiguous for every operand, and then calls an inner
 * 1-D loop function for each run of the innermost dimension. The CUDA backend takes the same geometry.
 * It knows nothing of dtypes, tensors, devices or Python: callers pass plain sizes and strides (the op
 * layer checks and broadcasts shapes first). */
#ifndef MT_ITER_H
#define MT_ITER_H

#include <stdint.h>
#include <stddef.h>

#include "../core/scalar_type.h"

#define MT_ITER_MAX_OPS 4

typedef struct {
    int ndim;                                   /* dims stored innermost first: shape[0] is the fastest */
    int nops;
    int64_t numel;
    int64_t shape[MT_MAX_DIMS];
    int64_t strides[MT_ITER_MAX_OPS][MT_MAX_DIMS];  /* in bytes */
    char *data[MT_ITER_MAX_OPS];
} mt_iter;

/* The inner loop: n elements, operand k at data[k] advancing by strides[k] bytes. */
typedef void (*mt_loop_fn)(char **data, const int64_t *strides, int64_t n, void *ctx);

/* Starts an iterator over `shape` (outermost first, as tensors store it). */
void mt_iter_init(mt_iter *it, int ndim, const int64_t *shape);

/* Adds an operand given in tensor form (outermost first, strides in elements); it is broadcast to the
 * iterator's shape by aligning trailing dims (size-1 and missing dims get stride 0). */
void mt_iter_add(mt_iter *it, char *data, int ndim, const int64_t *sizes, const int64_t *strides,
                 size_t itemsize);

/* Drops size-1 dims and merges dims that are contiguous for every operand. Call after all adds. */
void mt_iter_coalesce(mt_iter *it);

/* Runs fn over the iterator (single-threaded). Nothing runs when numel is 0. */
void mt_iter_run(const mt_iter *it, mt_loop_fn fn, void *ctx);

/* Like mt_iter_run, on the host thread pool when there are more than MT_PARALLEL_GRAIN_SIZE elements:
 * the elements are cut into ranges of the (coalesced) iteration order and fn runs on pieces of rows.
 * fn must be safe to call concurrently on disjoint pieces (elementwise kernels are). Needs no GIL. */
void mt_iter_run_parallel(const mt_iter *it, mt_loop_fn fn, void *ctx);

/* Like mt_iter_run_parallel, with the elements divided as torch's at::parallel_for divides them: one
 * equal range per thread (min(threads, numel / MT_PARALLEL_GRAIN_SIZE rounded up) of them, each
 * ceil(numel / that) long), for a kernel whose values depend on where each piece of a row starts (a
 * loop that treats a run's whole vectors and its tail differently, as torch's does). */
void mt_iter_run_parallel_as_torch(const mt_iter *it, mt_loop_fn fn, void *ctx);

/* The same with torch's grain of `grain` elements in place of MT_PARALLEL_GRAIN_SIZE (a kernel that passes
 * its own grain to TensorIterator, as gelu's does): min(threads, ceil(numel / grain)) equal ranges. */
void mt_iter_run_parallel_as_torch_grain(const mt_iter *it, int64_t grain, mt_loop_fn fn, void *ctx);

#endif
