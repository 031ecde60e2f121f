/* matmul.h: csrc/ops/matmul.c's C entry points (the Python forms are csrc/python/matmul.c's, through the op
 * table), and the hook through which the CUDA backend plugs its GEMM in. */
#ifndef MT_MATMUL_H
#define MT_MATMUL_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/gemm.h"

/* The ops, as the op table's codes name them. */
typedef enum {
    MT_MM_MATMUL,
    MT_MM_MM,
    MT_MM_BMM,
    MT_MM_MV,
    MT_MM_DOT
} mt_mm_op;

/* torch.<op>(a, b, out=out) (out NULL: not given), with torch's checks in torch's order. New reference (out
 * itself when given), or NULL with torch's exception. */
PyObject *mt_matmul_op(mt_mm_op op, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *out);

/* torch.matmul(a, b) with torch's dispatch to dot/mv/mm/bmm, checks and messages. New reference, or NULL
 * with an exception. */
PyObject *mt_matmul(mt_TensorObject *a, mt_TensorObject *b);

/* torch.addmm(input, mat1, mat2, beta=beta, alpha=alpha): beta * input + alpha * (mat1 @ mat2), input
 * broadcast to the product's shape, with torch's checks in torch's order (csrc/ops/addmm.c). */
PyObject *mt_addmm(mt_TensorObject *input, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta,
                   mt_scalar alpha);

/* The CUDA backend's GEMM (csrc/kernels/cuda/, cuBLAS), for operands in real device memory on CUDA
 * device `device_index`. Same descriptor as mt_cpu_gemm: C = A @ B over the batch, strides in elements,
 * a batch stride of 0 broadcasts, up to MT_GEMM_MAX_BATCH_DIMS batch dims (cuBLAS's strided-batched call
 * covers one; the backend loops over the others). m, n, k >= 1; dtype is MT_FLOAT32 or MT_FLOAT64 (torch
 * has no CUDA kernel for integer products, so those raise before reaching it). Called with the GIL held;
 * returns 0, or -1 with a Python exception set.
 *
 * The strides are the views' own: row-major and transposed (column-major) operands map onto cuBLAS's
 * transpose flags (C is written row-major: compute C^T = B^T A^T, see llm.c's note on the trick); any
 * other layout (e.g. a slice with a step in both dims) is the backend's to copy first. The stride of a
 * dimension of size 1 carries no information and may be 0 (dot gives m = n = 1 with a_rs = c_rs = c_cs
 * = 0), so leading dimensions must be derived with max(1, ...) as cuBLAS requires.
 *
 * Until the CUDA backend defines this function the module still links (the symbol is weak), and a matmul
 * on real CUDA memory raises RuntimeError; the simulated GPU never gets here (its memory is host memory
 * and runs mt_cpu_gemm). */
int mt_cuda_gemm(int device_index, const mt_gemm_desc *desc);

/* The device check of torch's generated CUDA wrappers, for the ops built on matmul (addmm): when any of
 * the (at most 4) tensors is on CUDA, the first one's device is the reference and the first that differs
 * is named with `names[i]` and `method` ("wrapper_CUDA_addmm"). 0 or -1 with torch's RuntimeError. */
int mt_matmul_check_devices(const char *method, int n, mt_TensorObject *const *tensors, const char *const *names);

#endif
