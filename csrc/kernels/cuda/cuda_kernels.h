/* cuda_kernels.h: the GPU kernels as C sees them. Two layers, one header:
 *
 * 1. Launchers (kernels.cu, extern "C"): plain-data arguments only, so that kernels.cu needs neither
 *    Python nor minitorch's object headers. Each selects the device, queues the kernel on the device's
 *    legacy default stream (the one stream minitorch uses, so everything stays ordered), checks the
 *    launch with cudaGetLastError and returns MT_RT_SUCCESS or the cudaError_t code. They never raise
 *    and never synchronize; an error inside a running kernel surfaces at the next synchronizing call.
 *
 * 2. Op-level entry points (cuda_ops.c, not seen by nvcc): the same contracts as the host kernels in
 *    csrc/kernels/cpu/ (an mt_iter, mt_reduce_input, ...), for memory of a real CUDA device. They
 *    return 0, or -1 with a Python exception (torch's AcceleratorError "CUDA error: ..."). In a CPU-only
 *    build they exist too and raise, so op files call them without #ifdefs; they are reached only for
 *    memory the host cannot address, which a CPU-only build never has.
 *
 * This header must not include CUDA headers. */
#ifndef MT_KERNELS_CUDA_KERNELS_H
#define MT_KERNELS_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/scalar_type.h"
#include "../iter.h"
#include "../op_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. launchers (kernels.cu) ------------------------------------------------------------------ */

/* Elementwise launchers take an mt_iter (kernels/iter.h): dims innermost first, byte strides, operand
 * 0 the output, at most this many operands. */
#define MT_CUDA_MAX_OPS 3   /* output + two inputs */

/* mt_binary_kernel_args (kernels/cpu/elementwise.h) plus the inputs that are host values: a Python
 * number or a 0-d CPU tensor already converted to its operand dtype, passed to the kernel by value. */
typedef struct {
    mt_binary_op op;
    mt_dtype dtype;     /* the compute dtype */
    mt_dtype out_dtype;
    mt_dtype in_dtype[2];
    int in_is_value[2];
    mt_value in_value[2];
    double alpha_f;     /* ADD's alpha for floating compute dtypes */
    int64_t alpha_i;    /* ... and for bool and integer ones */
} mt_cuda_binary_params;

typedef struct {
    mt_unary_op op;
    mt_dtype dtype;
    mt_dtype out_dtype;
    mt_dtype in_dtype;
} mt_cuda_unary_params;

/* out = a <op> b over g (3 operands). */
int mt_cuda_launch_binary(int device, const mt_iter *g, const mt_cuda_binary_params *p);
/* out = op(in) over g (2 operands). */
int mt_cuda_launch_unary(int device, const mt_iter *g, const mt_cuda_unary_params *p);
/* out = (dst_dtype) in over g (2 operands): copy_'s cast; same dtypes copy bits. */
int mt_cuda_launch_cast(int device, const mt_iter *g, mt_dtype dst_dtype, mt_dtype src_dtype);
/* Every element of g's operand 0 (elements of `itemsize` bytes) := value's first itemsize bytes. */
int mt_cuda_launch_fill(int device, const mt_iter *g, size_t itemsize, mt_value value);

/* A reduction: the input element for (output o, reduced r) is at
 * data + offset(o over out_shape/out_strides) + offset(r over red_shape/red_strides), with o and r
 * decomposed row-major (outermost dim first; strides in elements). The output is contiguous, o in
 * order. r is also the index argmax/argmin report. `mean_factor` (SUM only, floating outputs; 0 = none)
 * multiplies each sum, as torch's CUDA mean does. Empty reductions write the identity (ALL: true,
 * ANY: false, SUM: 0; MAX/MIN/ARG*: never asked). `scratch` is device memory of at least
 * mt_cuda_reduce_scratch_bytes(...) bytes for splitting long reductions across blocks (NULL when that
 * returns 0). */
typedef struct {
    mt_reduce_op op;
    mt_dtype in_dtype;
    mt_dtype out_dtype;     /* SUM: the accumulation dtype too (float32 sums accumulate in float,
                               like torch's CUDA kernels); MAX/MIN: in_dtype; ALL/ANY: bool */
    const char *data;
    int out_ndim;
    int64_t out_shape[MT_MAX_DIMS];
    int64_t out_strides[MT_MAX_DIMS];
    int red_ndim;
    int64_t red_shape[MT_MAX_DIMS];
    int64_t red_strides[MT_MAX_DIMS];
    double mean_factor;
    char *values;           /* MAX/MIN/SUM/ALL/ANY: the output; ARG*: the values (may be NULL) */
    int64_t *indices;       /* ARG* only */
} mt_cuda_reduce_params;

size_t mt_cuda_reduce_scratch_bytes(int device, const mt_cuda_reduce_params *p);
int mt_cuda_launch_reduce(int device, const mt_cuda_reduce_params *p, void *scratch);

/* Philox fills of n contiguous elements, bit-identical to csrc/kernels/cpu/philox.c's host loops
 * (the stream is defined in csrc/kernels/cpu/philox.h). dtype: float32 or float64 for uniform and
 * normal; any dtype for randint (int64 draws converted as the host cast kernel converts them). */
int mt_cuda_launch_philox_uniform(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                                  double from, double to);
int mt_cuda_launch_philox_normal(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                                 double mean, double std);
int mt_cuda_launch_philox_randint(int device, mt_dtype dtype, void *out, int64_t n, uint64_t seed, uint64_t offset,
                                  int64_t low, int64_t high);

#ifdef __cplusplus
}
#endif

/* ---- 2. op-level entry points (cuda_ops.c) ------------------------------------------------------ */

#ifndef __CUDACC__

#include "../../core/tensor.h"
#include "../cpu/elementwise.h"
#include "../cpu/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mt_cpu_binary's contract (kernels/cpu/elementwise.h) on CUDA device `device`. Bit k of
 * `host_values` (k = 1 for a, 2 for b) says that it->data[k] points to one HOST element of that
 * operand's dtype (args->a_dtype / b_dtype): a Python number or a 0-d CPU tensor, read here and passed
 * by value. Every other operand is device memory of `device`. */
int mt_cuda_binary(int device, const mt_iter *it, const mt_binary_kernel_args *args, unsigned host_values);

/* mt_cpu_unary's contract on CUDA device `device`. */
int mt_cuda_unary(int device, const mt_iter *it, const mt_unary_kernel_args *args);

/* copy_ between two tensors of the same CUDA device (dst already has src's broadcast shape): strided,
 * converting between any two dtypes. */
int mt_cuda_copy(mt_TensorObject *dst, mt_TensorObject *src);

/* Every element of t (any strides) := value's bits (already converted to t's dtype: mt_scalar_store). */
int mt_cuda_fill(mt_TensorObject *t, const void *value);

/* mt_cpu_reduce's contract (kernels/cpu/reduce.h) on CUDA device `device`, writing `out_dtype` into the
 * contiguous `out`. SUM accumulates in out_dtype (float32 in float, as torch's CUDA sum; the input is
 * converted on the fly, so the op layer need not cast first); `mean` 1 makes it torch's CUDA mean
 * (sum * (1/count) in the output dtype; NaN for an empty reduction). */
int mt_cuda_reduce(int device, mt_reduce_op op, const mt_reduce_input *in, uint64_t mask, int mean, char *out,
                   mt_dtype out_dtype);

/* mt_cpu_arg_reduce's contract on CUDA device `device`. */
int mt_cuda_arg_reduce(int device, int is_max, const mt_reduce_input *in, int dim, char *values, int64_t *indices);

/* Philox fills of a contiguous CUDA tensor t from the stream (seed, offset); *blocks receives the
 * number of Philox blocks consumed (what the matching host fill in kernels/cpu/philox.h returns). */
int mt_cuda_philox_uniform(mt_TensorObject *t, uint64_t seed, uint64_t offset, double from, double to,
                           uint64_t *blocks);
int mt_cuda_philox_normal(mt_TensorObject *t, uint64_t seed, uint64_t offset, double mean, double std,
                          uint64_t *blocks);
int mt_cuda_philox_randint(mt_TensorObject *t, uint64_t seed, uint64_t offset, int64_t low, int64_t high,
                           uint64_t *blocks);

/* Raises what torch raises for a failed CUDA call: AcceleratorError "CUDA error: <text>" plus torch's
 * hint lines. Returns -1. */
int mt_cuda_raise(int err);

/* cuBLAS (cublas.c). TF32 for float32 matmul (torch.backends.cuda.matmul.allow_tf32; off by default). */
void mt_cuda_set_allow_tf32(int allow);
int mt_cuda_get_allow_tf32(void);
/* "12.8.4" once libcublas can be loaded (it is loaded here if needed); "" when it cannot. */
const char *mt_cublas_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* __CUDACC__ */

#endif /* MT_KERNELS_CUDA_KERNELS_H */
