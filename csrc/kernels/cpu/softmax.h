/* softmax.h (cpu): torch's CPU kernels for softmax and log_softmax over a contiguous last dim and their
 * backward passes, the floating dtypes, with torch's order of operations (softmax.c says which). */
#ifndef MT_KERNELS_CPU_SOFTMAX_H
#define MT_KERNELS_CPU_SOFTMAX_H

#include <stdint.h>

#include "../kernel_types.h"

/* softmax (log 0) or log_softmax (log 1) of each of `rows` rows of n contiguous elements of `in` into
 * `out` (the same layout). 0, or -1 when the dtype is not a floating one. */
int mt_cpu_softmax_lastdim(int log, mt_dtype dtype, const void *in, void *out, int64_t rows, int64_t n);

/* softmax (log 0) or log_softmax (log 1) along a dim of n elements with `outer` blocks before it and
 * `inner` elements after it, contiguous (the floating dtypes; -1 for another), as torch's kernel for a dim other than the last (its thread split included:
 * softmax.c). 0 when done. */
int mt_cpu_softmax_dim(int log, mt_dtype dtype, const void *in, void *out, int64_t outer, int64_t n, int64_t inner);

/* their gradients (torch's _softmax_backward_data / _log_softmax_backward_data over the last dim): from
 * the gradient `grad` and the forward's `result`, rows by n contiguous, into grad_in. 0, or -1 when the
 * dtype is not a floating one. */
int mt_cpu_softmax_backward_lastdim(int log, mt_dtype dtype, const void *grad, const void *result, void *grad_in,
                                    int64_t rows, int64_t n);

/* the same along a dim of n elements between `outer` blocks and `inner` elements (inner > 1), as torch's
 * kernel for a dim other than the last. 0, or -1 when the dtype is not a floating one. */
int mt_cpu_softmax_backward_dim(int log, mt_dtype dtype, const void *grad, const void *result, void *grad_in,
                                int64_t outer, int64_t n, int64_t inner);

#endif
