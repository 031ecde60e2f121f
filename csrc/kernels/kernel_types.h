/* kernel_types.h: what a kernel call is given, the same for every backend (kernels/backend.h): the
 * arguments of the elementwise kernels, a strided reduction input, the strided GEMM descriptor, a
 * Philox fill and the gather/scatter of advanced indexing. Plain data only: element pointers, sizes and
 * strides, dtypes and op numbers, no tensor objects; this header must not include Python or CUDA
 * headers. Each kernel's header says what it does with these (kernels/cpu/elementwise.h, reduce.h,
 * gemm.h; kernels/cuda/cuda_kernels.h). */
#ifndef MT_KERNELS_KERNEL_TYPES_H
#define MT_KERNELS_KERNEL_TYPES_H

#include <stdint.h>

#include "../core/scalar_type.h"
#include "op_math.h"

/* ---- elementwise --------------------------------------------------------------------------------- */

/* What a binary kernel call computes. Operands whose dtype differs from `dtype` are converted on the
 * fly in small blocks (no temporaries); so is the output when `out_dtype` is not the natural result
 * dtype (`dtype`, or bool for comparisons). */
typedef struct {
    mt_binary_op op;
    mt_dtype dtype;             /* the compute dtype */
    mt_dtype out_dtype;
    mt_dtype a_dtype;
    mt_dtype b_dtype;
    union {
        int64_t i;              /* bool (0/1), int32 and int64 compute dtypes */
        double d;               /* floating compute dtypes */
    } alpha;                    /* ADD only; 1 means a plain sum */
    /* POW of a float32 tensor by a Python number: b holds the number rounded to float32 (what torch's
     * vector loop takes), pow_number the number as torch's scalar loop takes it, a double; the host
     * kernel computes each element as torch's loop would (kernels/cpu/elementwise.c) */
    int pow_by_number;
    double pow_number;
    /* b is one value for every element (a number, or a tensor whose strides are 0 wherever its size is not
     * 1): torch's TensorIterator is_scalar, which some of its kernels read differently */
    int scalar_b;
} mt_binary_kernel_args;

typedef struct {
    mt_unary_op op;
    mt_dtype dtype;             /* the compute dtype = natural output dtype */
    mt_dtype out_dtype;
    mt_dtype in_dtype;
    /* 1 when the result is the CPU device's: the host kernel then computes what torch's CPU kernels
     * compute where they differ from its CUDA kernels (a float32 sqrt: MKL's, op_math.h) */
    int torch_cpu;
} mt_unary_kernel_args;

/* gelu (approximate='none', or 'tanh' when `tanh`) over an iterator whose operands are 0 the result, 1 the
 * input; or its gradient (`backward`) with operands 0 the input's gradient, 1 the result's gradient, 2 the
 * input. All three of `dtype` (floating), as torch's GeluKernelImpl / GeluBackwardKernelImpl take them. */
typedef struct {
    mt_dtype dtype;
    int tanh;
    int backward;
    int onednn;     /* torch would hand this call to oneDNN: approximate='none' on a contiguous input of two or
                       more elements (float32, and bfloat16 where oneDNN has AVX-512) */
} mt_gelu_kernel_args;

/* One parameter's update by torch.optim.SGD (torch's single-tensor path), in one pass over the memory
 * of an iterator whose operands are 0 the parameter, 1 its gradient and, when momentum != 0, 2 the
 * momentum buffer, all of `dtype` (float32 or float64). Each element goes through the ops torch's
 * sequence runs, each rounded as that op rounds it (op_math.h: add with alpha, mul, neg), the numbers
 * converted to dtype where torch's ops convert them:
 *     g = grad (maximize: -grad);  weight_decay != 0: g = g + weight_decay * param
 *     momentum != 0: buf = buf * momentum + (1 - dampening) * g;  g = nesterov ? g + momentum * buf : buf
 *     param = param + (-lr) * g
 * The first step's buffer (a copy of g) is made by the caller. */
typedef struct {
    mt_dtype dtype;
    double weight_decay;
    double momentum;
    double dampening;
    double lr;
    int nesterov;
    int maximize;
} mt_sgd_step_args;

/* ---- reductions ---------------------------------------------------------------------------------- */

/* A strided input in tensor form: sizes/strides outermost first, strides in elements. */
typedef struct {
    int ndim;
    const int64_t *sizes;
    const int64_t *strides;
    const char *data;
    mt_dtype dtype;
} mt_reduce_input;

/* ---- matrix products ----------------------------------------------------------------------------- */

#define MT_GEMM_MAX_BATCH_DIMS 64

/* One (batched) matrix product, described by element strides.
 *   A[i][p] = a[i * a_rs + p * a_cs]    (m x k)
 *   B[p][j] = b[p * b_rs + j * b_cs]    (k x n)
 *   C[i][j] = c[i * c_rs + j * c_cs]    (m x n), overwritten (beta = 0)
 * For each index (t_0, ..., t_{nbatch-1}) of batch_sizes the three base pointers move by
 * sum(t_d * x_bs[d]) elements; a batch stride of 0 broadcasts that operand. C must not overlap A or B,
 * and distinct batch entries of C must not overlap each other. The descriptor is device-agnostic: the
 * CUDA backend's GEMM (kernels/cuda/cublas.c) takes the same one.
 *
 * A and B have `dtype`, C has `c_dtype`: the same, except that float16 or bfloat16 operands may ask for
 * a float32 C (each element accumulated in float32 and left unrounded, torch's gemm<Half, float>), only
 * of a backend whose gemm takes those dtypes (backend.h, gemm_takes_reduced). `torch_gemm` says that
 * torch computes this product with its non-batched cuBLAS GEMM (mm, mv, addmm off its cuBLASLt path),
 * the one place torch.backends.cuda.matmul's float16 and bfloat16 reduction settings apply; 0 for its
 * batched GEMM (bmm, baddbmm), its dot (cublasDotEx) and its cuBLASLt addmm. Only the cuda backend reads
 * it, for 16-bit products. */
typedef struct {
    mt_dtype dtype;
    mt_dtype c_dtype;
    int torch_gemm;
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

/* ---- random fills -------------------------------------------------------------------------------- */

typedef enum {
    MT_PHILOX_UNIFORM = 0,      /* fma(u, b - a, a) for u uniform in [0, 1): float32 or float64 */
    MT_PHILOX_NORMAL,           /* fma(z, b, a) for z standard normal: float32 or float64 */
    MT_PHILOX_RANDINT           /* an integer in [low, high) drawn as int64, stored converted: any dtype */
} mt_philox_kind;

/* A fill of n contiguous elements of `dtype` at `out` with elements 0 .. n-1 of the Philox stream
 * (seed, offset) (kernels/cpu/philox.h defines it), bit-identical on every backend. */
typedef struct {
    mt_philox_kind kind;
    mt_dtype dtype;
    void *out;
    int64_t n;
    uint64_t seed;
    uint64_t offset;            /* in Philox blocks */
    double a, b;                /* UNIFORM: from, to; NORMAL: mean, std */
    int64_t low, high;          /* RANDINT (low < high) */
} mt_philox_fill;

/* ---- advanced indexing --------------------------------------------------------------------------- */

/* x[indices] (gather) and x[indices] = v (scatter, index_put_ without accumulate) as kernels see them.
 * Element (o, b, a) of the result (gather) or of the value broadcast to the result's shape (scatter)
 * pairs with one element of the indexed tensor `self`: o runs over the dims before the indexed ones
 * and a over the dims after them (together the `rest` dims, the first `nbefore` of them before; their
 * strides in elements of both sides), b over the nb positions of the broadcast index shape, for which
 * the op layer has computed, in host memory, the element offsets into self (from the index values,
 * checked and wrapped) and into other. Elements are copied as bits, in o, b, a order on the host; the
 * device writes repeated positions in the same order's outcome (the last index wins). */
typedef struct {
    char *self;                     /* the indexed tensor at its first element */
    char *other;                    /* gather: the result; scatter: the value (see other_is_value) */
    mt_dtype dtype;                 /* both sides' */
    int other_is_value;             /* scatter: `other` is ONE element in host memory (a number or a 0-d
                                       CPU tensor), used for every position and passed by value */
    int64_t nb;
    const int64_t *self_offsets;    /* nb entries, host memory */
    const int64_t *other_offsets;   /* nb entries, host memory */
    int ndim;                       /* rest dims */
    int nbefore;
    int64_t shape[MT_MAX_DIMS];
    int64_t self_strides[MT_MAX_DIMS];
    int64_t other_strides[MT_MAX_DIMS];
} mt_index_args;

/* ---- along one dim: scans, products, sorts (kernels/lines.h) -------------------------------------- */

/* A contiguous block seen as (outer, n, inner): its lines are the n elements along the dim, `inner`
 * apart; there are outer * inner of them. */
typedef enum {
    MT_SCAN_SUM,
    MT_SCAN_PROD,
    MT_SCAN_MAX,            /* cummax: the running maximum and where it was (NaN wins, ties: the later) */
    MT_SCAN_MIN,            /* cummin */
    MT_SCAN_LOGADDEXP       /* logcumsumexp: the running log(sum(exp)), floating dtypes only */
} mt_scan_op;

/* out := the inclusive running sum, product, maximum, minimum or log-sum-exp of each line (in and out
 * (outer, n, inner), one dtype), from the first element or, `reverse`, from the last; `exclusive`: each
 * element's own value left out (the first is the identity; SUM and PROD). `total`: out is (outer, inner),
 * each line's whole sum or product. MAX and MIN also write `indices` (int64, laid out as out). */
typedef struct {
    mt_scan_op op;
    mt_dtype dtype;
    int64_t outer, n, inner;
    int reverse;
    int exclusive;
    int total;
    const char *in;
    char *out;
    int64_t *indices;
} mt_scan_args;

/* Each line sorted, stably (equal elements keep their order; NaN sorts above every number, as in torch):
 * values and their int64 positions along the line, both (outer, n, inner). */
typedef struct {
    mt_dtype dtype;
    int64_t outer, n, inner;
    int descending;
    const char *in;
    char *values;
    int64_t *indices;
} mt_sort_args;
/* ---- indexing along one dim ------------------------------------------------------------------------ */

/* What an element of the indexed side receives: src's value, or it combined with src's (scatter_add and
 * index_add_ add, with bool's `or`; scatter's reduce='multiply' multiplies, with bool's `and`). */
typedef enum {
    MT_INDEX_DIM_COPY,
    MT_INDEX_DIM_ADD,
    MT_INDEX_DIM_MULTIPLY,
    MT_INDEX_DIM_AMAX,              /* std::max, except that a NaN in src wins (torch's ReduceMaximum) */
    MT_INDEX_DIM_AMIN
} mt_index_dim_mode;

/* gather, scatter (and its reductions), scatter_add, index_select and index_add_ as kernels see them:
 * dst[p] (mode)= src[p] at every position p of `shape` (row-major), except that the indexed side's
 * position along `dim` is the value of index[p] instead of p[dim]. The indexed side (dst for scatter and
 * index_add_, src for gather and index_select) has stride 0 at `dim` in its strides and moves
 * `indexed_stride` elements per index unit; the index's strides are 0 over the dims it does not vary
 * on. The op layer has checked every index value against `indexed_size`; a kernel skips a value
 * outside [0, indexed_size) rather than touch memory outside the tensor. Strides are in elements of
 * each side's dtype (`dtype` for dst and src, int64 for the index). The host visits positions in
 * row-major order; the device gives each line along `dim` of a scatter one thread that walks it in that
 * order, so repeated indices accumulate and overwrite in the same order, and the values are the same
 * bits, on every backend. */
typedef struct {
    int ndim;                       /* >= 1 (a 0-d operand is passed as one element of size 1) */
    int dim;
    int64_t shape[MT_MAX_DIMS];
    mt_dtype dtype;
    mt_index_dim_mode mode;
    int indexed_dst;                /* 1: dst's position along dim comes from the index; 0: src's */
    int64_t indexed_size;
    int64_t indexed_stride;
    char *dst;
    int64_t dst_strides[MT_MAX_DIMS];
    const char *src;                /* NULL: every position reads `value` */
    int64_t src_strides[MT_MAX_DIMS];
    mt_value value;
    const int64_t *index;           /* the device's memory, like dst and src */
    int64_t index_strides[MT_MAX_DIMS];
} mt_index_dim_args;

/* ---- sliding windows (convolution and pooling) ------------------------------------------------------ */

/* The windows of convolution and pooling over `planes` images of 1 to 3 spatial dims, each image
 * (planes, *size) contiguous. Window w (row-major over out_size) starts at w_d * stride_d - padding_d
 * along dim d and its element k (row-major over kernel) sits dilation_d * k_d further; a position
 * outside [0, size_d) is padding. K is the kernel's element count and L the windows' count.
 *   UNFOLD   (im2col) cols (planes, K, L) := the image's element at each window position, `fill` at
 *            padding; any dtype (elements move as bits).
 *   FOLD     (col2im) image += cols (planes, K, L) at each position inside the image, per plane in (k, l)
 *            order on the host (the device sums each image element's windows in that order); floating
 *            dtypes and bool (or).
 *   MAX_POOL values (planes, L) := each window's largest element (a NaN wins, the last NaN of a window
 *            when there are several) and indices (planes, L) its flat position in the plane, as torch's
 *            max pooling kernels: padding never counts, and a window with no element inside the
 *            image gives -inf (an integer dtype's lowest value) at its first position; every dtype but
 *            bool.
 * Every read and write is checked against the image, so no window geometry can leave the tensors. */
typedef enum {
    MT_WINDOW_UNFOLD,
    MT_WINDOW_FOLD,
    MT_WINDOW_MAX_POOL
} mt_window_op;

#define MT_WINDOW_MAX_DIMS 3

typedef struct {
    mt_window_op op;
    mt_dtype dtype;
    int dims;
    int64_t planes;
    int64_t size[MT_WINDOW_MAX_DIMS];
    int64_t out_size[MT_WINDOW_MAX_DIMS];
    int64_t kernel[MT_WINDOW_MAX_DIMS];
    int64_t stride[MT_WINDOW_MAX_DIMS];
    int64_t padding[MT_WINDOW_MAX_DIMS];
    int64_t dilation[MT_WINDOW_MAX_DIMS];
    mt_value fill;                  /* UNFOLD: padding's value, in dtype */
    char *image;
    char *cols;                     /* UNFOLD and FOLD: (planes, K, L); MAX_POOL: the values (planes, L) */
    int64_t *indices;               /* MAX_POOL: (planes, L) */
} mt_window_args;

#endif
