/* backend.h: one table of kernels per device kind, the role ATen's DispatchStub plays: `mt_cpu_backend`
 * for memory the host can address (CPU tensors and the simulated GPU), `mt_cuda_backend` for a real
 * CUDA device's memory, which is NULL in a build without CUDA (the one sign of that), and
 * `mt_meta_backend` for the meta device, which has no memory. The op layer
 * picks the table for a device (ops/dispatch.c, mt_backend_for) and calls through it, so no op file
 * chooses between CPU and CUDA code itself.
 *
 * Every entry takes plain geometry and data (kernels/iter.h, kernel_types.h) and a call context, and
 * returns 0, or -1 with ctx->status saying what failed; it never raises, touches Python or sees a
 * tensor object. The op layer turns a status into Python's exception in one place
 * (mt_kernel_result). The cpu entries need no GIL, so the op layer releases it around large calls
 * (`host_memory`); the cuda entries only queue work on the device's stream and are called with the GIL
 * held (cuBLAS's first use looks for the library along Python's import path through a hook).
 *
 * This header must not include Python or CUDA headers. */
#ifndef MT_KERNELS_BACKEND_H
#define MT_KERNELS_BACKEND_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iter.h"
#include "kernel_types.h"

/* ---- what went wrong ------------------------------------------------------------------------------ */

typedef enum {
    MT_KSTATUS_OK = 0,
    MT_KSTATUS_CUDA_ERROR,          /* `code` is a CUDA runtime error and `message` its text: torch's
                                       AcceleratorError "CUDA error: <text>" with its hint lines */
    MT_KSTATUS_OUT_OF_MEMORY,       /* device memory ran out: OutOfMemoryError(message) */
    MT_KSTATUS_NO_MEMORY,           /* host memory ran out: MemoryError */
    MT_KSTATUS_RUNTIME_ERROR,       /* RuntimeError(message): a cuBLAS failure, a missing library, a limit */
    MT_KSTATUS_ACCELERATOR_ERROR    /* AcceleratorError(message), the text as it stands */
} mt_kstatus_kind;

#define MT_KSTATUS_MESSAGE_SIZE 1024    /* holds the caching allocator's whole out-of-memory message */

typedef struct {
    mt_kstatus_kind kind;
    int code;
    char message[MT_KSTATUS_MESSAGE_SIZE];
    char warning[256];              /* a UserWarning to show, also after a success ("" for none) */
} mt_kstatus;

/* Records a failure; returns -1 (the entries' failure return). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline int
mt_kstatus_set(mt_kstatus *st, mt_kstatus_kind kind, int code, const char *fmt, ...)
{
    va_list ap;

    st->kind = kind;
    st->code = code;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof(st->message), fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- a call ----------------------------------------------------------------------------------------- */

/* What every entry gets besides its arguments: the device and where its temporaries come from (the
 * device's caching allocator, as torch takes reduction buffers and the cuBLAS workspace from it; the
 * op layer fills both in), and the status the entry reports into. */
typedef struct mt_kctx {
    int device;     /* the CUDA device ordinal the data lives on; the cpu entries ignore it */
    /* device memory of `device`: 0 with *ptr set (NULL for 0 bytes), or -1 with `st` filled */
    int (*scratch_alloc)(int device, size_t nbytes, void **ptr, mt_kstatus *st);
    void (*scratch_free)(int device, void *ptr);
    mt_kstatus status;
} mt_kctx;

/* float16 and bfloat16: the kernels compute these two dtypes only through the op layer, which gives them
 * float32 as the compute dtype (loads and stores convert: core/scalar_type.h) or float32 copies; they
 * move their elements as 16-bit patterns (casts, fills, where, indexing). vector_norm alone reads them
 * itself, accumulating in float32 as torch's kernel does. An entry asked to compute in one of them
 * refuses instead of writing nothing: -1 with the status set, or 0. */
static inline int
mt_kstatus_reduced_refused(mt_kctx *ctx, const char *entry, mt_dtype dtype)
{
    if (!mt_dtype_is_reduced_floating(dtype)) {
        return 0;
    }
    return mt_kstatus_set(&ctx->status, MT_KSTATUS_RUNTIME_ERROR, 0, "\"%s\" not implemented for '%s' in minitorch",
                          entry, dtype == MT_FLOAT16 ? "Half" : "BFloat16");
}

/* ---- the table -------------------------------------------------------------------------------------- */

typedef struct mt_backend {
    const char *name;   /* "cpu", "cuda" or "meta" */
    int host_memory;    /* its kernels are host code: they need no GIL and may use the host's threads */
    int gemm_takes_reduced; /* its gemm multiplies float16 and bfloat16 operands itself, accumulating in
                               float32 (cuBLAS's GemmEx, as torch's CUDA kernels), into C of their dtype or
                               float32 (mt_gemm_desc); otherwise the op layer multiplies float32 copies */

    /* out = a <op> b over `it` (operands 0 out, 1 a, 2 b; shapes broadcast by the strides). Bit k of
     * `host_values` (k = 1 for a, 2 for b) says that it->data[k] points to one HOST element of that
     * operand's dtype, read once (a Python number or a 0-d CPU tensor next to device tensors). */
    int (*binary)(mt_kctx *ctx, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values);
    /* out = op(in) over `it` (operands 0 out, 1 in) */
    int (*unary)(mt_kctx *ctx, const mt_iter *it, const mt_unary_kernel_args *args);
    /* out = cond ? a : b over `it` (operands 0 out, 1 cond (bool), 2 a, 3 b; a, b and out of one dtype of
     * `itemsize` bytes, moved as bits); `host_values` as for binary, bits 1 to 3 */
    int (*where)(mt_kctx *ctx, const mt_iter *it, int itemsize, unsigned host_values);
    /* out = a * b + c rounded once, the multiply-add torch's kernels are compiled to (operands 0 out, 1 a,
     * 2 b, 3 c, all of `dtype`: float32 or float64); `host_values` as for binary, bits 1 to 3 */
    int (*fma)(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, unsigned host_values);
    /* operand 0 (dst_dtype) := operand 1 (src_dtype) over `it`, converted with C's rules (bool: != 0);
     * equal dtypes copy bits. copy_'s kernel. */
    int (*cast)(mt_kctx *ctx, const mt_iter *it, mt_dtype dst_dtype, mt_dtype src_dtype);
    /* every element of operand 0 (dtype) := value, already converted to dtype */
    int (*fill)(mt_kctx *ctx, const mt_iter *it, mt_dtype dtype, mt_value value);
    /* The dims of `in` whose bit is set in `mask` reduced into the contiguous `out` of the result shape
     * (keepdim decides only the host's iteration order). SUM, MAX, MIN: out has in's dtype (the op
     * layer casts first); ALL, ANY: bool. `mean` makes a SUM each backend's torch mean (the host
     * divides each sum by the count, the GPU multiplies by 1/count as torch's CUDA MeanOps does). Empty
     * reductions write the identity (0, true, false; MAX and MIN never get one). */
    int (*reduce)(mt_kctx *ctx, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int keepdim, int mean,
                  char *out);
    /* linalg.vector_norm of a finite order over the dims of `in` in `mask` into the contiguous `out`, both
     * of the result's dtype (float32, float64, float16 or bfloat16: the op layer converts first), as
     * torch's CPU kernel computes it, its order of operations included; NULL in the cuda and meta
     * backends, where the op layer composes the norm from other ops */
    int (*vector_norm)(mt_kctx *ctx, const mt_reduce_input *in, double ord, uint64_t mask, int keepdim, char *out);
    /* prod over the dims of `in` in `mask` into the contiguous `out`, both of in's dtype (float32, float64,
     * float16 or bfloat16: the op layer converts first), multiplied in that dtype in torch's CPU order; NULL
     * in the cuda and meta backends, where the op layer multiplies along lines (the scan kernel) */
    int (*prod)(mt_kctx *ctx, const mt_reduce_input *in, uint64_t mask, int keepdim, char *out);
    /* nll_loss's total of the n contiguous picked losses `loss` of the kept rows (kept NULL: all) and of
     * their class weights (weight NULL: the kept rows counted) into out[0] and out[1], all of `dtype`
     * (floating), added in torch's CPU order; NULL in the cuda and meta backends (the op layer sums) */
    int (*nll_sum)(mt_kctx *ctx, mt_dtype dtype, const char *loss, const char *weight, const uint8_t *kept,
                   int64_t n, char *out);
    /* softmax (log 0) or log_softmax (log 1) of each of `rows` rows of n contiguous elements of `in` into
     * `out` (float32, float64, float16 or bfloat16), as torch's CPU last-dim kernel computes it, its order
     * of operations included; NULL in the cuda and meta backends, where the op layer composes it from other
     * ops */
    int (*softmax_lastdim)(mt_kctx *ctx, int log, mt_dtype dtype, const void *in, void *out, int64_t rows,
                           int64_t n);
    /* the same along a dim of n elements between `outer` blocks and `inner` elements (a contiguous layout;
     * the floating dtypes), as torch's CPU kernel for a dim
     * other than the last; NULL where softmax_lastdim is */
    int (*softmax_dim)(mt_kctx *ctx, int log, mt_dtype dtype, const void *in, void *out, int64_t outer, int64_t n,
                       int64_t inner);
    /* its gradient from `grad` and the forward's `result` (the same layout) into grad_in, as torch's CPU
     * last-dim backward kernel computes it; NULL where softmax_lastdim is */
    int (*softmax_backward_lastdim)(mt_kctx *ctx, int log, mt_dtype dtype, const void *grad, const void *result,
                                    void *grad_in, int64_t rows, int64_t n);
    /* the same along a dim of n elements between `outer` blocks and `inner` elements, as torch's CPU
     * kernel for a dim other than the last; NULL where softmax_lastdim is */
    int (*softmax_backward_dim)(mt_kctx *ctx, int log, mt_dtype dtype, const void *grad, const void *result,
                                void *grad_in, int64_t outer, int64_t n, int64_t inner);
    /* gelu or its gradient over `it` (kernel_types.h, mt_gelu_kernel_args), as torch's CPU kernels compute
     * them, their split into vector body and scalar tail included; NULL in the cuda and meta backends,
     * where nn.functional composes gelu from other ops */
    int (*gelu)(mt_kctx *ctx, const mt_iter *it, const mt_gelu_kernel_args *args);
    /* argmax (is_max 1) / argmin along `dim`, or over all elements when dim < 0: int64 indices (the
     * first of equal extremes; a NaN wins) and, when `values` is not NULL, the values */
    int (*arg_reduce)(mt_kctx *ctx, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices);
    /* C = A @ B as the descriptor says (m, n, k >= 1): float32 and float64, and float16 and bfloat16
     * where gemm_takes_reduced is set (the cuda backend) */
    int (*gemm)(mt_kctx *ctx, const mt_gemm_desc *desc);
    /* a Philox fill; *blocks := the blocks of the stream it consumed (the caller's offset moves by it) */
    int (*philox)(mt_kctx *ctx, const mt_philox_fill *fill, uint64_t *blocks);
    /* advanced indexing (kernel_types.h): other := self[indices], and self[indices] := other */
    int (*gather)(mt_kctx *ctx, const mt_index_args *args);
    int (*scatter)(mt_kctx *ctx, const mt_index_args *args);
    /* along one dim (kernel_types.h): running sums and products, whole-line products; stable sorts */
    int (*scan)(mt_kctx *ctx, const mt_scan_args *args);
    int (*sort)(mt_kctx *ctx, const mt_sort_args *args);
    /* gather, scatter, scatter_add, index_select, index_add_ (kernel_types.h: mt_index_dim_args) */
    int (*index_dim)(mt_kctx *ctx, const mt_index_dim_args *args);
    /* the windows of convolution and pooling: im2col, col2im, max pooling (kernel_types.h) */
    int (*window)(mt_kctx *ctx, const mt_window_args *args);
    /* one parameter's torch.optim.SGD update over `it` (kernel_types.h, mt_sgd_step_args), in place; NULL
     * in the cuda backend (the optimizers' CUDA path is torch's foreach ops, not a fused step) */
    int (*sgd_step)(mt_kctx *ctx, const mt_iter *it, const mt_sgd_step_args *args);
} mt_backend;

extern const mt_backend mt_cpu_backend;
extern const mt_backend *const mt_cuda_backend;   /* NULL in a build without CUDA */
extern const mt_backend mt_meta_backend;          /* the meta device: every entry succeeds, touching nothing */

#endif
