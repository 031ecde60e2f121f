/* elementwise.h: host kernels for elementwise ops (binary arithmetic, comparisons, maximum/minimum,
 * unary math). They run over an mt_iter whose operand 0 is the output, and they work on any memory the
 * host can address (CPU tensors and the simulated GPU). They never raise, allocate tensors or look at
 * devices; the op layer (csrc/ops/elementwise.c) has already checked and promoted everything. */
#ifndef MT_KERNELS_CPU_ELEMENTWISE_H
#define MT_KERNELS_CPU_ELEMENTWISE_H

#include <stdint.h>

#include "../../core/scalar_type.h"
#include "../iter.h"

typedef enum {
    MT_BINARY_ADD = 0,      /* out = a + alpha * b (alpha in the compute dtype) */
    MT_BINARY_SUB,          /* out = a - b (sub with alpha != 1 is ADD with -alpha, as in torch) */
    MT_BINARY_MUL,
    MT_BINARY_DIV,          /* floating dtypes only */
    MT_BINARY_MAXIMUM,      /* NaN-propagating, like torch.maximum */
    MT_BINARY_MINIMUM,
    MT_BINARY_EQ,           /* comparisons: bool output */
    MT_BINARY_NE,
    MT_BINARY_LT,
    MT_BINARY_LE,
    MT_BINARY_GT,
    MT_BINARY_GE,
    MT_BINARY_NUM_OPS
} mt_binary_op;

typedef enum {
    MT_UNARY_NEG = 0,       /* int and floating dtypes */
    MT_UNARY_ABS,
    MT_UNARY_RELU,          /* x < 0 ? 0 : x: keeps NaN and -0.0 as torch does */
    MT_UNARY_EXP,           /* floating dtypes only */
    MT_UNARY_LOG,
    MT_UNARY_SQRT,
    MT_UNARY_RECIPROCAL,    /* 1 / x */
    MT_UNARY_NUM_OPS
} mt_unary_op;

#define MT_BINARY_IS_COMPARISON(op) ((op) >= MT_BINARY_EQ)

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
} mt_binary_kernel_args;

typedef struct {
    mt_unary_op op;
    mt_dtype dtype;             /* the compute dtype = natural output dtype */
    mt_dtype out_dtype;
    mt_dtype in_dtype;
} mt_unary_kernel_args;

/* Runs the kernel over `it` (operands: 0 out, 1 a, 2 b). */
void mt_cpu_binary(const mt_iter *it, const mt_binary_kernel_args *args);

/* Runs the kernel over `it` (operands: 0 out, 1 in). */
void mt_cpu_unary(const mt_iter *it, const mt_unary_kernel_args *args);

/* The common case without an iterator: out, a and b contiguous with n elements each, all of dtype
 * args->dtype (out: bool for comparisons). Threads above MT_PARALLEL_GRAIN_SIZE elements. */
void mt_cpu_binary_contiguous(const mt_binary_kernel_args *args, char *out, const char *a, const char *b,
                              int64_t n);

#endif
