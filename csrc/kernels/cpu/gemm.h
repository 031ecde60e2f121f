/* gemm.h: the host matrix-multiply kernels: C = A @ B (GEMM, optionally over a broadcast batch), y = A @ x
 * (GEMV) and x . y (DOT) for float32, float64, int32 and int64, on operands given as a base pointer and
 * element strides, so transposed, sliced and broadcast views are read in place. These functions know
 * nothing of tensors, devices or Python: they may run with the GIL released and report failure by a
 * return code, never by a Python exception. Integer results wrap around on overflow, as torch's do. */
#ifndef MT_GEMM_H
#define MT_GEMM_H

#include "../kernel_types.h"

#include <stdint.h>

/* Runs the product on the host. Returns 0, or -1 when scratch memory for packing could not be allocated
 * (no Python exception is set; the caller raises MemoryError once it holds the GIL again). Large
 * products use several threads; every element of C is computed with the same arithmetic, in the same
 * order, whatever the number of threads, so results do not depend on it. */
int mt_cpu_gemm(const mt_gemm_desc *desc);

/* y[i * incy] = sum_p a[i * a_rs + p * a_cs] * x[p * incx] for i < m; y must not overlap a or x. */
void mt_cpu_gemv(mt_dtype dtype, int64_t m, int64_t k, const void *a, int64_t a_rs, int64_t a_cs,
                 const void *x, int64_t incx, void *y, int64_t incy);

/* *out = sum_i x[i * incx] * y[i * incy] (one element of dtype). */
void mt_cpu_dot(mt_dtype dtype, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                void *out);

/* The micro-kernel chosen at run time for dtype, e.g. "avx512 8x32"; for benchmarks and bug reports.
 * MINITORCH_CPU_ISA=generic|avx2 caps the instruction set (cpu_features.h; tests use it to run every path). */
const char *mt_cpu_gemm_kernel_name(mt_dtype dtype);

/* Threads used for large products: the host thread pool's setting (parallel.h, set_num_threads). */
int mt_cpu_gemm_num_threads(void);

#endif
