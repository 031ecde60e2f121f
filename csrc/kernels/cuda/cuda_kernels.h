/* cuda_kernels.h: the launchers of the CUDA kernels (kernels.cu, extern "C"), which the cuda backend
 * (backend.c) and the cuBLAS translation (cublas.c) call. Plain-data arguments only, so that kernels.cu
 * needs neither Python nor minitorch's object headers. Each selects the device, queues the kernel on the
 * device's legacy default stream (the one stream minitorch uses, so everything stays ordered), checks
 * the launch with cudaGetLastError and returns MT_RT_SUCCESS or the cudaError_t code. They never raise
 * and never synchronize; an error inside a running kernel surfaces at the next synchronizing call.
 *
 * This header must not include CUDA or Python headers. */
#ifndef MT_KERNELS_CUDA_KERNELS_H
#define MT_KERNELS_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/scalar_type.h"
#include "../iter.h"
#include "../kernel_types.h"
#include "../op_math.h"
#include "../kernel_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which kernel path the launches took, counted on the host by the launchers (one increment per
 * launch): a test hook, so that tests can tell that a fast path ran (tests/test_cuda_kernel_paths.py
 * reads the exported array through ctypes). minitorch itself never reads it. */
typedef enum {
    MT_CUDA_PATH_STRIDED = 0,           /* elementwise: the general strided loop */
    MT_CUDA_PATH_CONTIG_VECTOR,         /* elementwise: contiguous, 16-byte vector accesses */
    MT_CUDA_PATH_CONTIG_SCALAR,         /* elementwise: contiguous, element by element (operands
                                           misaligned to each other) */
    MT_CUDA_PATH_REDUCE_GENERAL,        /* reductions: the general strided kernel */
    MT_CUDA_PATH_REDUCE_ROWS,           /* a sum along the innermost dim: a warp or a block per row */
    MT_CUDA_PATH_REDUCE_COLUMNS,        /* a sum along an outer dim: threads across the inner dim */
    MT_CUDA_PATH_REDUCE_SECOND_PASS,    /* the combination of partial sums of a split reduction */
    MT_CUDA_PATH_COUNT
} mt_cuda_path;

extern int64_t mt_cuda_kernel_paths[MT_CUDA_PATH_COUNT];

/* Elementwise launchers take an mt_iter (kernels/iter.h): dims innermost first, byte strides, operand
 * 0 the output, at most this many operands. */
#define MT_CUDA_MAX_OPS 3   /* output + two inputs */

/* mt_binary_kernel_args (kernels/kernel_types.h) plus the inputs that are host values: a Python
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

/* where's operands: out, cond, a, b; each input may be a host value passed by value (is_value[k]). */
typedef struct {
    int itemsize;       /* of out, a and b: 1, 2, 4 or 8 bytes */
    int is_value[3];
    mt_value value[3];
} mt_cuda_where_params;

/* fma's operands: out, a, b, c of one dtype (float32 or float64); each input may be a host value. */
typedef struct {
    mt_dtype dtype;
    int is_value[3];
    mt_value value[3];
} mt_cuda_fma_params;

/* out = cond ? a : b over g (4 operands). */
int mt_cuda_launch_where(int device, const mt_iter *g, const mt_cuda_where_params *p);
/* out = a * b + c rounded once over g (4 operands). */
int mt_cuda_launch_fma(int device, const mt_iter *g, const mt_cuda_fma_params *p);
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

/* Advanced indexing (mt_index_args in kernels/kernel_types.h): element (o, b, a), with o over the rest
 * dims before the index dims and a over those after them (row-major), b over the nb index positions.
 * `offsets` is device memory: nb element offsets into self, then nb into other. A gather copies self's
 * elements to other, a scatter other's (or `value`'s) to self, as bits; threads run in no set order,
 * so a scatter's caller passes each self offset once. */
typedef struct {
    char *self;
    char *other;
    int itemsize;
    int scatter;
    int other_is_value;
    mt_value value;
    int64_t nb;
    const int64_t *offsets;
    int ndim;
    int nbefore;
    int64_t shape[MT_MAX_DIMS];
    int64_t self_strides[MT_MAX_DIMS];
    int64_t other_strides[MT_MAX_DIMS];
} mt_cuda_index_params;

int mt_cuda_launch_index(int device, const mt_cuda_index_params *p);

/* Along one dim (lines.cu): every line of a scan (or whole-line product), and every line of a stable
 * sort, whose scratch runs are device memory for 2 * n values (`runs`) and 2 * n indices (`idx`) per
 * line (outer * inner lines). */
int mt_cuda_launch_scan(int device, const mt_scan_args *args);
int mt_cuda_launch_sort(int device, const mt_sort_args *args, void *runs, int64_t *idx);
/* The indexing ops along one dim (gather.cu; mt_index_dim_args in kernels/kernel_types.h, the pointers
 * in the device's memory). */
int mt_cuda_launch_index_dim(int device, const mt_index_dim_args *p);
/* The windows of convolution and pooling (window.cu; mt_window_args in kernels/kernel_types.h, the
 * pointers in the device's memory). */
int mt_cuda_launch_window(int device, const mt_window_args *a);

/* kernels.cu's launch helpers, for the launchers in the other .cu files: the grid for `work_items`
 * (capped by the device's multiprocessors) and making `device` current (a cudaError_t code). */
unsigned mt_cuda_grid_for(int device, int64_t work_items);
int mt_cuda_select_device(int device);

#ifdef __cplusplus
}
#endif

#endif /* MT_KERNELS_CUDA_KERNELS_H */
