/* reduce.h: host kernels for reductions (sum, max, min, all, any over a set of dims; argmax/argmin and
 * max/min with indices along one dim). They read any host-addressable memory and write a contiguous
 * output; they never raise, allocate tensors or look at devices. Float sums reproduce torch's CPU
 * summation order exactly (see reduce.c), so results match torch to the last bit. */
#ifndef MT_KERNELS_CPU_REDUCE_H
#define MT_KERNELS_CPU_REDUCE_H

#include <stdint.h>

#include "../kernel_types.h"

/* Reduces the dims whose bit is set in `mask` into `out`, a contiguous buffer of the result shape
 * (reduced dims removed, or kept as size 1 when keepdim). `keepdim` matters only for reproducing
 * torch's iteration order. Every output element is written (identity for empty reductions). SUM, MAX
 * and MIN write in's dtype, ALL and ANY bool; `mean` (floating SUM) then divides each sum by the number
 * of reduced elements, as torch's CPU mean does. */
void mt_cpu_reduce(mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean, char *out);

/* argmax/argmin (is_max 1/0) along `dim`, or over the flattened tensor when dim < 0. Writes indices
 * (int64, contiguous, one per output element) and, when `values` is not NULL, the extreme values in
 * the input dtype. Ties give the first index; a NaN wins and the first NaN's index is returned. The
 * reduced extent must not be empty. */
void mt_cpu_arg_reduce(int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices);

/* linalg.vector_norm of a finite order `ord` over the dims in `mask` into `out` (contiguous, of the result
 * shape, keepdim as for mt_cpu_reduce), computed as torch's CPU norm kernel computes it (reduce.c): in is
 * of the result's dtype (torch converts the input first), float32, float64, float16 or bfloat16, and out
 * of the same. An empty reduction gives 0 (inf for a negative order). Returns -1, writing nothing, for
 * another dtype or an infinite order. */
int mt_cpu_vector_norm(const mt_reduce_input *in, double ord, uint64_t mask, int keepdim, char *out);

/* prod over the dims in `mask` into `out` (contiguous, of the result shape, keepdim as for mt_cpu_reduce),
 * multiplied as torch's CPU prod kernel multiplies (reduce.c): in the dtype of `in` and `out` (float32,
 * float64, float16 or bfloat16; torch converts the input first), in torch's order. An empty reduction
 * gives 1. Returns -1, writing nothing, for another dtype. */
int mt_cpu_prod(const mt_reduce_input *in, uint64_t mask, int keepdim, char *out);

/* nll_loss's sums of the n picked losses `loss` (each -input[i, target[i]], times its class weight) of the
 * rows kept (kept NULL: every row) into out[0] and of their class weights `weight` (NULL: no class weights,
 * and out[1] counts the kept rows), all contiguous in `dtype` (float32, float64, float16 or bfloat16),
 * added as torch's CPU kernel adds them (reduce.c). Returns -1, writing nothing, for another dtype. */
int mt_cpu_nll_sum(mt_dtype dtype, const char *loss, const char *weight, const uint8_t *kept, int64_t n, char *out);

/* The intra-op thread count (set_num_threads; by default torch's: see parallel.h): float sums over
 * 32768+ elements follow torch's per-thread split for that many threads to round the same way. */
int mt_cpu_torch_threads(void);

#endif
