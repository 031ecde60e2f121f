/* elementwise.h: host kernels for elementwise ops (binary arithmetic, comparisons, maximum/minimum,
 * unary math). They run over an mt_iter whose operand 0 is the output, and they work on any memory the
 * host can address (CPU tensors and the simulated GPU). They never raise, allocate tensors or look at
 * devices; the op layer (csrc/ops/elementwise.c) has already checked and promoted everything. */
#ifndef MT_KERNELS_CPU_ELEMENTWISE_H
#define MT_KERNELS_CPU_ELEMENTWISE_H

#include <stdint.h>

#include "../iter.h"
#include "../kernel_types.h"

/* Runs the kernel over `it` (operands: 0 out, 1 a, 2 b). */
void mt_cpu_binary(const mt_iter *it, const mt_binary_kernel_args *args);

/* Runs the kernel over `it` (operands: 0 out, 1 in). */
void mt_cpu_unary(const mt_iter *it, const mt_unary_kernel_args *args);

/* Runs where over `it` (operands: 0 out, 1 cond (bool), 2 a, 3 b; elements of itemsize 1, 4 or 8). */
void mt_cpu_where(const mt_iter *it, int itemsize);

/* out = a * b + c rounded once over `it` (operands: 0 out, 1 a, 2 b, 3 c; all float32 or float64). */
void mt_cpu_fma(const mt_iter *it, mt_dtype dtype);

/* One torch.optim.SGD update over `it` (operands: 0 the parameter, 1 its gradient, 2 the momentum buffer
 * when args->momentum != 0; all of args->dtype, float32 or float64), in place (kernel_types.h). */
void mt_cpu_sgd_step(const mt_iter *it, const mt_sgd_step_args *args);

/* The common case without an iterator: out, a and b contiguous with n elements each, all of dtype
 * args->dtype (out: bool for comparisons). Threads above MT_PARALLEL_GRAIN_SIZE elements. */
void mt_cpu_binary_contiguous(const mt_binary_kernel_args *args, char *out, const char *a, const char *b,
                              int64_t n);

#endif
