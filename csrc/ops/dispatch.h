/* dispatch.h: the checks every op makes before it runs a kernel, done once here so that all ops agree
 * with torch: type promotion (torch.result_type: dimensioned tensors over 0-d tensors over Python
 * numbers, each only when it is of a higher category bool < integral < floating), the device check of
 * TensorIterator ops (one common device; 0-d CPU tensors ride along as scalars), the in-place cast
 * check, shape broadcasting (with torch's message) and the step from tensors to kernel geometry, the
 * choice of a device's kernels (kernels/backend.h) and the one translation of a kernel's status into
 * Python's exception, memory-overlap checks for written-to tensors, and a small argument collector for
 * METH_FASTCALL | METH_KEYWORDS entry points. Nothing here touches tensor data or allocates tensors. */
#ifndef MT_DISPATCH_H
#define MT_DISPATCH_H

#include <Python.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/backend.h"
#include "../kernels/iter.h"

/* ---- type promotion ------------------------------------------------------------------------------ */

/* torch's ResultTypeState: the promoted dtype of each priority class, MT_NUM_DTYPES while empty. */
typedef struct {
    mt_dtype dim_result;        /* tensors with dim > 0 */
    mt_dtype zero_result;       /* 0-d tensors */
    mt_dtype wrapped_result;    /* Python numbers: float -> default dtype, int -> int64, bool -> bool */
} mt_result_type_state;

void mt_result_type_init(mt_result_type_state *state);
void mt_result_type_add_tensor(mt_result_type_state *state, const mt_TensorObject *t);
void mt_result_type_add_scalar(mt_result_type_state *state, mt_scalar s);
/* The result dtype; MT_NUM_DTYPES only if nothing was added. */
mt_dtype mt_result_type_get(const mt_result_type_state *state);

/* An op operand: a tensor (borrowed) or a number. */
typedef struct {
    mt_TensorObject *tensor;    /* NULL for a number */
    mt_scalar scalar;           /* valid when tensor == NULL */
} mt_operand;

/* torch.result_type over n operands. */
mt_dtype mt_result_type(int n, const mt_operand *ops);

/* The dtype torch uses for a Python number standing alone (float -> default dtype). */
mt_dtype mt_scalar_default_dtype(mt_scalar s);

/* ---- device checks ------------------------------------------------------------------------------- */

/* TensorIterator's device rule. The common device is the device of the first non-CPU tensor among
 * `out` (may be NULL; an in-place op's self) and `inputs` (NULL entries, i.e. Python numbers, are
 * skipped), or the CPU. A 0-d CPU input is accepted next to non-CPU tensors (torch treats it as a
 * scalar); anything else on another device raises RuntimeError "Expected all tensors to be on the same
 * device, but found at least two devices, cuda:0 and cpu!"; when one of the two is the meta device,
 * torch's meta kernels' check speaks instead (mt_raise_meta_device_mismatch). 0 with *common set, or -1. */
int mt_check_same_device(mt_TensorObject *out, int n, mt_TensorObject *const *inputs, mt_device *common);

/* torch's meta kernels' device check (torch._prims_common.check_same_device): the first tensor argument
 * is the expected device, and the first that differs is named: RuntimeError "Tensor on device cpu is not
 * on the expected device meta!". Returns -1. */
int mt_raise_meta_device_mismatch(mt_device expected, mt_device found);

/* torch's NotImplementedError for an op with no meta kernel (its result's shape depends on the data):
 * "aten::_unique2: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel
 * registered. ..." for op "aten::_unique2". Returns -1. */
int mt_raise_no_meta_kernel(const char *op);

/* The in-place and out= rule for an output on `device`: RuntimeError "result type Float can't be cast to
 * the desired output type Long" unless torch.can_cast(result, out); on the meta device torch's meta
 * wording, "Attempting to cast from torch.float32 to out tensor with dtype torch.int64, but this can't be
 * cast because it is not safe!". 0 or -1. */
int mt_check_can_cast(mt_device device, mt_dtype result, mt_dtype out);

/* ---- shapes and kernel geometry ------------------------------------------------------------------ */

/* torch's broadcasting of the n shapes of an op's operands on `device` (a number is a 0-dim shape);
 * raises RuntimeError on mismatch: "The size of tensor a (3) must match the size of tensor b (4) at
 * non-singleton dimension 1" (the CPU and cuda kernels), "Attempting to broadcast a dimension of length
 * 4 at -1! Mismatching argument at index 1 had torch.Size([4]); but expected shape should be
 * broadcastable to [3]" (the meta kernels). out has room for MT_MAX_DIMS and is none of the shapes. */
int mt_broadcast_shapes_on(mt_device device, int n, const int *ndims, const int64_t *const *shapes, int *nout,
                           int64_t *out);

/* The broadcast shape of an op's n (at most MT_ITER_MAX_OPS) operands, NULL for a number: the meta
 * wording when one of them is on the meta device. */
int mt_broadcast_operands(int n, mt_TensorObject *const *tensors, int *nout, int64_t *out);

/* Two shapes with the CPU's wording; out may be a or b. */
int mt_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out);

/* An in-place op's (or copy_'s) output must have the broadcast shape itself: torch's "output with shape
 * [3] doesn't match the broadcast shape [2, 3]" otherwise, on the meta device "output with shape
 * torch.Size([3]) doesn't match the broadcast shape (2, 3)". */
int mt_check_out_shape(mt_device device, const mt_TensorObject *out, int ndim, const int64_t *shape);

/* Adds a tensor operand (its data, sizes and element strides) to a kernel iterator. */
void mt_iter_add_tensor(mt_iter *it, const mt_TensorObject *t);

/* ---- kernels: the backend of a device, and what its status means in Python ----------------------- */

/* The kernels for device d's memory: mt_cpu_backend for memory the host can address (the CPU and the
 * simulated GPU; the device registry knows which), the cuda backend for a real CUDA device. NULL with
 * AssertionError "minitorch not compiled with CUDA enabled" when the build has no CUDA backend (no
 * CUDA device can exist then). */
const mt_backend *mt_backend_for(mt_device d);

/* A call context for kernels on device d: its ordinal, its caching allocator for temporaries, and an
 * empty status. */
void mt_kctx_init(mt_kctx *ctx, mt_device d);

/* The one place a kernel's status becomes Python's: after a call that returned rc, 0 when it succeeded
 * (showing the UserWarning it left, if any: -1 when that raises), else -1 with the status's exception:
 * torch's AcceleratorError "CUDA error: <text>" with its hint lines for a CUDA error, OutOfMemoryError,
 * MemoryError, RuntimeError or AcceleratorError with the status's message. */
int mt_kernel_result(const mt_kctx *ctx, int rc);

/* The same for a status built outside a kernel call (a failed CUDA runtime call: copy.c's async copy). */
int mt_raise_kstatus(const mt_kstatus *st);

/* Runs CALL (a backend entry, assigning its result) with the GIL released when the backend's kernels
 * are host code and `large` says the work pays for releasing it; device kernels only queue work and
 * keep the GIL (cuBLAS's loader may need it). `operands` (an array of `n` tensors, at most
 * MT_KERNEL_MAX_HELD; NULL entries are skipped) are the tensors whose memory the call reads or writes:
 * their storages are held from before the GIL is released until it is back, because another thread may
 * meanwhile give one of them another storage (t.data = x), which would otherwise free memory the kernel
 * is using. The geometry CALL reads must be a copy (an mt_iter, a descriptor), not the tensors' arrays,
 * for the same reason. The caller holds references to the tensor objects. */
#define MT_RUN_KERNEL(be, large, operands, n, CALL)                                                \
    do {                                                                                           \
        if ((be)->host_memory && (large)) {                                                        \
            mt_storage *held_[MT_KERNEL_MAX_HELD];                                                 \
            mt_hold_storages(held_, (n), (operands));                                              \
            Py_BEGIN_ALLOW_THREADS                                                                 \
            CALL;                                                                                  \
            Py_END_ALLOW_THREADS                                                                   \
            mt_release_storages(held_, (n));                                                       \
        }                                                                                          \
        else {                                                                                     \
            CALL;                                                                                  \
        }                                                                                          \
    } while (0)

#define MT_KERNEL_MAX_HELD 4

/* held[i] := the storage of operands[i] (NULL for a NULL entry), each with a reference taken; 0 <= n <=
 * MT_KERNEL_MAX_HELD. mt_release_storages drops them again (with the GIL held). */
void mt_hold_storages(mt_storage **held, int n, const mt_TensorObject *const *operands);
void mt_release_storages(mt_storage **held, int n);

/* ---- memory overlap (torch's at::assert_no_internal_overlap / assert_no_partial_overlap) --------- */

/* torch's has_internal_overlap answering "yes": a stride 0 over a dim of size > 1 (an expand()ed tensor). */
int mt_has_internal_overlap(const mt_TensorObject *t);

/* Raises torch's "unsupported operation: more than one element of the written-to tensor refers to a
 * single memory location. ..." when `out` is expanded (a stride 0 over a dim of size > 1). */
int mt_check_no_internal_overlap(const mt_TensorObject *out);

/* Raises torch's "unsupported operation: some elements of the input tensor and the written-to tensor
 * refer to a single memory location. ..." when `out` and `in` are both dense and share some but not
 * exactly all of their memory. Full overlap (a += a) is fine. */
int mt_check_no_partial_overlap(const mt_TensorObject *out, const mt_TensorObject *in);

/* torch's at::assert_no_overlap (index_put_'s check of its value and indices): the same error when `out`
 * and `in` share any of their memory, full overlap included (only dense layouts are judged). */
int mt_check_no_overlap(const mt_TensorObject *out, const mt_TensorObject *in);
/* 1 when a and b are the same elements (torch's full overlap; partial or none: 0). */
int mt_same_memory(const mt_TensorObject *a, const mt_TensorObject *b);


/* ---- out= --------------------------------------------------------------------------------------- */

/* out= is accepted only as None (or absent): writing into a given tensor is not supported yet, which
 * raises NotImplementedError naming `fname`. 0 or -1. */
int mt_check_out_none(const char *fname, PyObject *out);

#endif
