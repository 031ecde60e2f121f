/* ranges.h: the host kernels of arange, linspace and logspace: each element as torch's CPU kernel rounds
 * it (its vector lanes, fused multiply-adds and per-thread chunks for arange; the fill from both ends
 * for linspace and logspace), into a contiguous array of `dtype`. They never raise, allocate or look at
 * tensors; the op layer (csrc/ops/factory.c) checks the arguments and moves the result to its device. */
#ifndef MT_KERNELS_CPU_RANGES_H
#define MT_KERNELS_CPU_RANGES_H

#include <stdint.h>

#include "../../core/scalar_type.h"

/* arange for a floating dtype: start + step * i, as torch's kernel with the current thread count. */
void mt_cpu_arange_float(char *data, mt_dtype dtype, double start, double step, int64_t size);

/* arange for an integer dtype: start + step * i in int64, wrapping as torch's does; narrower dtypes keep
 * the low bits. */
void mt_cpu_arange_int(char *data, mt_dtype dtype, int64_t start, int64_t step, int64_t size);

/* linspace (steps >= 2): float dtypes step in their own type, integer dtypes in double, truncated on the
 * store (start and end are the values, already fitting the dtype). */
void mt_cpu_linspace(char *data, mt_dtype dtype, double start, double end, int64_t steps);

/* logspace (steps >= 2): base ** (exponents from start and end, `span` = end - start as the dtype gives
 * it, divided in double), each a product and a sum, rounded. */
void mt_cpu_logspace(char *data, mt_dtype dtype, double start, double end, double span, int64_t steps,
                     double base);

#endif
