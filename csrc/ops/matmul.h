/* matmul.h: csrc/ops/matmul.c's C entry points (the Python forms are csrc/python/matmul.c's, through the op
 * table), and the device check the ops built on matmul share. */
#ifndef MT_MATMUL_H
#define MT_MATMUL_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

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

/* The product a @ b of float16 or bfloat16 operands (matmul's shapes: mm, mv or bmm; one dtype, one device,
 * checked by the caller) in float32, each element accumulated in float32 and not rounded to their dtype:
 * what addmm and its family scale and add before rounding once. On a CUDA device the 16-bit operands go
 * to cuBLAS as they are (torch's gemm<Half, float>), elsewhere float32 copies are multiplied; torch_gemm:
 * whether torch computes it with its non-batched cuBLAS GEMM (kernels/kernel_types.h, mt_gemm_desc).
 * Not recorded by autograd. New reference, or NULL with an exception. */
mt_TensorObject *mt_matmul_reduced_in_float32(const mt_TensorObject *a, const mt_TensorObject *b, int torch_gemm);

/* torch.addmm(input, mat1, mat2, beta=beta, alpha=alpha): beta * input + alpha * (mat1 @ mat2), input
 * broadcast to the product's shape, with torch's checks in torch's order (csrc/ops/addmm.c). */
PyObject *mt_addmm(mt_TensorObject *input, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta,
                   mt_scalar alpha);

/* addmm and its family: beta * input + alpha * product, where the product of a and b is mat1 @ mat2 (MM),
 * mat @ vec (MV), the outer product of vec1 and vec2 (R), batch1 @ batch2 per batch (BADDBMM) or summed
 * over the batches (ADDBMM); inplace: the op's `_` form, which writes input. */
typedef enum {
    MT_ADDMM_MM,
    MT_ADDMM_MV,
    MT_ADDMM_R,
    MT_ADDMM_BADDBMM,
    MT_ADDMM_ADDBMM
} mt_addmm_kind;
PyObject *mt_addmm_family(mt_addmm_kind kind, mt_TensorObject *input, mt_TensorObject *a, mt_TensorObject *b,
                          mt_scalar beta, mt_scalar alpha, int inplace);

/* torch's meta checks (meta_mm; the mv decomposition, which addmv's meta goes through too): "a must be
 * 2D", "b must be 2D", "a and b must have same reduction dim, but got [2, 3] X [4, 3]."; "matrix @ vector
 * expected, got 2, 2", "size mismatch, got input (2x3), vec (4)". 0 or -1 with the RuntimeError. */
int mt_meta_mm_check(int a_ndim, const int64_t *a, int b_ndim, const int64_t *b);
int mt_meta_mv_check(int mat_ndim, const int64_t *mat, int vec_ndim, const int64_t *vec);

/* The device check of torch's generated CUDA wrappers, for the ops built on matmul (addmm): when any of
 * the (at most 4) tensors is on CUDA, the first one's device is the reference and the first that differs
 * is named with `names[i]` and `method` ("wrapper_CUDA_addmm"). 0 or -1 with torch's RuntimeError. */
int mt_matmul_check_devices(const char *method, int n, mt_TensorObject *const *tensors, const char *const *names);

#endif
