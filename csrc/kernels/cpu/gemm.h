/* gemm.h: the host matrix-multiply kernels: C = A @ B (GEMM, optionally over a broadcast batch), y = A @ x
 * (GEMV) and x . y (DOT) for float32, float64, int32 and int64, on operands given as a base pointer and
 * element strides, so transposed, sliced and broadcast views are read in place. These functions know
 * nothing of tensors, devices or Python: they may run with the GIL released and report failure by a
 * return code, never by a Python exception. Integer results wrap around on overflow, as torch's do. */
#ifndef MT_GEMM_H
#define MT_GEMM_H

#include "../../core/scalar_type.h"

#include <stdint.h>

#define MT_GEMM_MAX_BATCH_DIMS 64

/* One (batched) matrix product, described by element strides.
 *   A[i][p] = a[i * a_rs + p * a_cs]    (m x k)
 *   B[p][j] = b[p * b_rs + j * b_cs]    (k x n)
 *   C[i][j] = c[i * c_rs + j * c_cs]    (m x n), overwritten (beta = 0)
 * For each index (t_0, ..., t_{nbatch-1}) of batch_sizes the three base pointers move by
 * sum(t_d * x_bs[d]) elements; a batch stride of 0 broadcasts that operand. C must not overlap A or B,
 * and distinct batch entries of C must not overlap each other. The descriptor is device-agnostic: the
 * CUDA backend's mt_cuda_gemm (csrc/ops/matmul.h) takes the same one. */
typedef struct {
    mt_dtype dtype;
    int64_t m, n, k;
    const void *a;
    int64_t a_rs, a_cs;
    const void *b;
    int64_t b_rs, b_cs;
    void *c;
    int64_t c_rs, c_cs;
    int nbatch;
    int64_t batch_sizes[MT_GEMM_MAX_BATCH_DIMS];
    int64_t a_bs[MT_GEMM_MAX_BATCH_DIMS];
    int64_t b_bs[MT_GEMM_MAX_BATCH_DIMS];
    int64_t c_bs[MT_GEMM_MAX_BATCH_DIMS];
} mt_gemm_desc;

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
 * MINITORCH_GEMM_ISA=generic|avx2|avx512 caps the instruction set (tests use it to run every path). */
const char *mt_cpu_gemm_kernel_name(mt_dtype dtype);

/* Threads used for large products: the host thread pool's setting (parallel.h, set_num_threads). */
int mt_cpu_gemm_num_threads(void);

#endif
