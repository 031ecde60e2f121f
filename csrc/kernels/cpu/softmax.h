/* softmax.h (cpu): torch's CPU kernels for softmax and log_softmax over a contiguous last dim, float32 and
 * float64, with torch's order of operations (softmax.c says which). */
#ifndef MT_KERNELS_CPU_SOFTMAX_H
#define MT_KERNELS_CPU_SOFTMAX_H

#include <stdint.h>

#include "../kernel_types.h"

/* softmax (log 0) or log_softmax (log 1) of each of `rows` rows of n contiguous elements of `in` into
 * `out` (the same layout). 0, or -1 when the dtype is neither float32 nor float64. */
int mt_cpu_softmax_lastdim(int log, mt_dtype dtype, const void *in, void *out, int64_t rows, int64_t n);

#endif
