/* gelu.h (cpu): torch's CPU kernels for gelu and its gradient (GeluKernelImpl, GeluBackwardKernelImpl),
 * the floating dtypes, with torch's order of operations and its split of each run into a vector body and a
 * scalar tail (gelu.c says which). */
#ifndef MT_KERNELS_CPU_GELU_H
#define MT_KERNELS_CPU_GELU_H

#include "../iter.h"
#include "../kernel_types.h"

/* The kernel over `it` (operands as kernel_types.h's mt_gelu_kernel_args says). 0, or -1 when the dtype is
 * not a floating one. */
int mt_cpu_gelu(const mt_iter *it, const mt_gelu_kernel_args *args);

#endif
