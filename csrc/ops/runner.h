/* runner.h: the one way an op runs a kernel, after its own checks (dispatch.h): a pointwise op's result
 * laid out as TensorIterator lays it out, its iterator and its backend call (mt_run_pointwise); the
 * iterator over tensors of one shape that copy_, fill_ and the fused optimizer steps walk
 * (mt_iter_of_tensors); and the backend call of every other kernel (MT_RUN_BACKEND). dispatch.h decides
 * and raises without allocating; this is where tensors are allocated and kernels run. */
#ifndef MT_RUNNER_H
#define MT_RUNNER_H

#include "dispatch.h"

/* ---- the backend call ------------------------------------------------------------------------------ */

/* result := 0 or -1 (with the exception, mt_kernel_result) after be->ENTRY(&ctx, ...) of `device`'s
 * backend, run under MT_RUN_KERNEL's rule for the GIL and the `n` `operands` when `large`. */
#define MT_RUN_BACKEND(result, device, large, operands, n, ENTRY, ...)                            \
    do {                                                                                           \
        const mt_backend *be_ = mt_backend_for(device);                                            \
        mt_kctx ctx_;                                                                              \
        int rc_;                                                                                   \
        if (be_ == NULL) {                                                                         \
            (result) = -1;                                                                         \
            break;                                                                                 \
        }                                                                                          \
        mt_kctx_init(&ctx_, (device));                                                             \
        MT_RUN_KERNEL(be_, (large), (operands), (n), rc_ = be_->ENTRY(&ctx_, __VA_ARGS__));        \
        (result) = mt_kernel_result(&ctx_, rc_);                                                   \
    } while (0)

/* An iterator over the `n` tensors (NULL entries skipped), all of tensors[0]'s shape, coalesced. */
void mt_iter_of_tensors(mt_iter *it, int n, const mt_TensorObject *const *tensors);

/* torch's reorder_dimensions (TensorIterator) on raw geometry: perm[0] becomes the fastest-moving of the
 * ndim dims of `shape`. The first of the nops operands with an opinion on two dims decides their order: a
 * strictly smaller stride (strides[k][d], 0 for a broadcast dim: no opinion), or for equal strides the
 * smaller size, goes first. */
void mt_reorder_dims(int ndim, const int64_t *shape, int nops, int64_t (*strides)[MT_MAX_DIMS], int *perm);

/* The lines of x along dim as a kernel walks them: `outer` lines before dim times `inner` after it, each
 * of n = x.size(dim) elements (1 for a 0-d x). */
void mt_lines_along(const mt_TensorObject *x, int dim, int64_t *outer, int64_t *n, int64_t *inner);

/* ---- pointwise ops --------------------------------------------------------------------------------- */

/* A pointwise kernel input: a tensor with dims; a 0-d tensor on the op's device, read in place with
 * stride 0; or a value (a Python number, or a 0-d CPU tensor next to another device's tensors, as
 * TensorIterator takes a CPU scalar) converted into `slot`, one element of the compute dtype read with
 * stride 0. */
typedef struct {
    mt_TensorObject *tensor;        /* NULL when the value lives in `slot` or at `device_value` */
    mt_TensorObject *device_value;  /* a 0-d tensor on the op's device (its own dtype), or NULL */
    mt_value slot;
} mt_pointwise_input;

/* Reads op into `in` for an op on `device` computing in `compute`. */
void mt_pointwise_input_init(mt_pointwise_input *in, const mt_operand *op, mt_dtype compute, mt_device device);

/* The backend entry a pointwise op runs, with its arguments (out_dtype is filled in by the runner). */
typedef enum {
    MT_POINTWISE_UNARY,
    MT_POINTWISE_BINARY,
    MT_POINTWISE_WHERE,
    MT_POINTWISE_FMA,
    MT_POINTWISE_GELU   /* the backend's gelu entry, which the caller checked it has */
} mt_pointwise_kind;

typedef struct {
    mt_pointwise_kind kind;
    union {
        mt_unary_kernel_args unary;
        mt_binary_kernel_args binary;
        int where_itemsize;
        mt_dtype fma_dtype;     /* float32 or float64 */
        mt_gelu_kernel_args gelu;
    } args;
} mt_pointwise_kernel;

/* Runs a pointwise op over the broadcast `shape` (ndim dims): into `out` (an in-place op's self, whose
 * shape the caller checked) or, when out is NULL, into a new tensor of `out_dtype` on `device`, laid out
 * as TensorIterator lays it out (the inputs' memory order: contiguous, one shared dense layout, or
 * torch's reorder_dimensions). `in` holds the op's nin inputs (1 to 3, in the kernel's operand order);
 * values read as `value_dtype`. Host kernels over more than one thread's grain run with the GIL
 * released (MT_RUN_KERNEL). Returns a new reference to the output, or NULL with an exception. */
mt_TensorObject *mt_run_pointwise(mt_TensorObject *out, mt_dtype out_dtype, int ndim, const int64_t *shape,
                                  int nin, mt_pointwise_input *in, mt_dtype value_dtype, mt_device device,
                                  mt_pointwise_kernel *kernel);

/* out= of an element-wise op (csrc/python/out.c): `out`, when its dtype, device and shape are the op's
 * result's and it shares no memory with the inputs, becomes the op's first pointwise result in this
 * thread instead of a new tensor, so that the kernel writes it as torch's TensorIterator writes an out=
 * tensor, with no copy after. NULL withdraws an offer not taken. */
void mt_pointwise_offer_out(mt_TensorObject *out);

/* The shortcut of a binary op over two contiguous CPU tensors of one dtype and shape (no promotion, no
 * broadcasting, no values): into `out` (an in-place op's self) or a new contiguous tensor of out_dtype,
 * by the host kernel's contiguous loop. Returns a new reference to the output, or NULL. */
mt_TensorObject *mt_run_binary_contiguous(mt_binary_kernel_args *kargs, mt_TensorObject *out, mt_dtype out_dtype,
                                          mt_TensorObject *x, mt_TensorObject *y);

#endif
