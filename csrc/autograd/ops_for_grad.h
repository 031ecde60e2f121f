/* ops_for_grad.h: the ops the engine and the formulas compute gradients with, as short C calls on tensors
 * (csrc/autograd/derivatives.c). Each is the public op itself (elementwise, shape, reduce, matmul, copy),
 * so it runs on every device and records a node when grad mode is on (create_graph=True). New references
 * or NULL with an exception; a NULL argument gives NULL (the error is already set). */
#ifndef MT_AUTOGRAD_OPS_FOR_GRAD_H
#define MT_AUTOGRAD_OPS_FOR_GRAD_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"

typedef mt_TensorObject T;

T *mt_g_add(T *a, T *b);                /* a + b */
T *mt_g_add_(T *a, T *b);               /* a += b (a is returned, with a new reference) */
T *mt_g_mul(T *a, T *b);
T *mt_g_div(T *a, T *b);
T *mt_g_mul_scalar(T *a, mt_scalar s);
T *mt_g_div_scalar(T *a, mt_scalar s);
T *mt_g_neg(T *a);
T *mt_g_eq(T *a, T *b);                 /* a == b, bool */
T *mt_g_to(T *a, mt_dtype dtype, mt_device device);     /* a copy unless it already is */
T *mt_g_zeros(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device);
T *mt_g_sum_dims(T *a, uint64_t mask, int keepdim);     /* sum over the dims in mask */
T *mt_g_sum_to(T *a, int ndim, const int64_t *sizes);   /* torch's at::sum_to */
T *mt_g_expand(T *a, int ndim, const int64_t *sizes);
T *mt_g_reshape(T *a, int ndim, const int64_t *sizes);
T *mt_g_unsqueeze_dims(T *a, uint64_t mask, int out_ndim);  /* size-1 dims inserted at the dims in mask */
T *mt_g_clone_contiguous(T *a);
T *mt_g_copy_(T *dst, T *src);          /* dst.copy_(src) (dst is returned, with a new reference) */

#endif
