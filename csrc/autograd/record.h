/* record.h: what an op calls after computing its result, so that autograd records it (derivatives.c).
 * Each call is cheap when nothing requires grad: it returns 0 at once unless grad mode is on and an input
 * requires grad. Each takes the op's C values (the inputs, the numbers and dims it was called with, the
 * result) and returns 0, or -1 with an exception (the caller then drops the result). */
#ifndef MT_AUTOGRAD_RECORD_H
#define MT_AUTOGRAD_RECORD_H

#include <Python.h>

#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/op_math.h"
#include "autograd.h"

/* a OP b (either may be a number: tensor NULL), alpha (add/sub); in place when result is a (then
 * `original` is a's value before the op when the formula needs it, else NULL). reflected: the number was
 * the left operand (2 - x is torch's rsub). */
int mt_ag_binary(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b, mt_scalar number, mt_scalar alpha,
                 int reflected, mt_TensorObject *result, mt_TensorObject *original);

/* rsub(self, other, alpha) of two tensors: torch's RsubBackward0 (a number other is mt_ag_binary's reflected
 * sub, RsubBackward1) */
int mt_ag_rsub(mt_TensorObject *self, mt_TensorObject *other, mt_scalar alpha, mt_TensorObject *result);

/* div(a, b, rounding_mode=...): DivBackward2 over the tensors among a and b (b NULL: a number), whose
 * gradients are zeros; in place when result is a. */
int mt_ag_div_rounding(mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result);

/* 1 when an in-place a.OP_(b) must keep a copy of a's old value for its formula (mul_, div_, pow_, ...). */
int mt_ag_binary_needs_original(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b);

/* 1 when an in-place t.OP_() must keep a copy of t's old value for its formula (sin_, log_, ...). */
int mt_ag_unary_needs_original(mt_unary_op op, mt_TensorObject *t);

/* OP(t) (result may be t for the in-place form). */
int mt_ag_unary(mt_unary_op op, mt_TensorObject *t, mt_TensorObject *result, mt_TensorObject *original);

/* logit(t, eps) with an eps: LogitBackward0 keeping eps (logit without one is mt_ag_unary's). */
int mt_ag_logit(mt_TensorObject *t, double eps, mt_TensorObject *result, mt_TensorObject *original);

/* polygamma(n, t): PolygammaBackward0 keeping n (digamma's second derivative is polygamma(1, t)'s row). */
int mt_ag_polygamma(int64_t n, mt_TensorObject *t, mt_TensorObject *result, mt_TensorObject *original);

/* A bound of clamp: not given, a tensor, or a number (tensor NULL). */
typedef struct {
    int given;
    mt_TensorObject *tensor;
    mt_scalar number;
} mt_ag_bound;

/* clamp (which 0), clamp_min (1), clamp_max (2) of t, computed: self is t's value before an in-place
 * clamp_ (or t); scalars: the bounds came as numbers (torch's Scalar overload). */
int mt_ag_clamp(int which, mt_TensorObject *t, mt_TensorObject *self, const mt_ag_bound *lo, const mt_ag_bound *hi,
                int scalars, mt_TensorObject *result);

/* where(cond, a, b) (a or b NULL: a number). */
int mt_ag_where(mt_TensorObject *cond, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result);

/* addcmul (divide 0) / addcdiv (1), result self for the in-place form. */
int mt_ag_addc(int divide, mt_TensorObject *self, mt_TensorObject *t1, mt_TensorObject *t2, mt_scalar value,
               mt_TensorObject *result);

/* lerp(self, end, weight): weight a tensor, or NULL for the number w (result self for lerp_; original: self's
 * value before lerp_ when mt_ag_lerp_needs_original says the formula reads it, else NULL). */
int mt_ag_lerp_needs_original(mt_TensorObject *weight);
int mt_ag_lerp(mt_TensorObject *self, mt_TensorObject *end, mt_TensorObject *weight, mt_scalar w,
               mt_TensorObject *result, mt_TensorObject *original);

/* round(decimals=d) with d != 0 (result t for round_). */
int mt_ag_round_decimals(mt_TensorObject *t, mt_TensorObject *result);

/* The reductions: sum/mean over the dims in mask (all: every dim, torch's full reduction overload),
 * keepdim; max/min of the whole tensor. */
typedef enum {
    MT_AG_SUM,
    MT_AG_MEAN,
    MT_AG_MAX,
    MT_AG_MIN
} mt_ag_reduction;
int mt_ag_reduce(mt_ag_reduction kind, mt_TensorObject *t, int all, uint64_t mask, int keepdim,
                 mt_TensorObject *result);

/* The products: mm, bmm, mv, dot; addmm. */
typedef enum {
    MT_AG_MM,
    MT_AG_BMM,
    MT_AG_MV,
    MT_AG_DOT
} mt_ag_product;
int mt_ag_product_op(mt_ag_product kind, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result);
/* addmm and its family (kind: matmul.h's mt_addmm_kind): AddmmBackward0, AddmvBackward0, AddrBackward0,
 * BaddbmmBackward0, AddbmmBackward0; result self for the in-place forms. */
int mt_ag_addmm_family(int kind, mt_TensorObject *self, mt_TensorObject *a, mt_TensorObject *b, mt_scalar beta,
                       mt_scalar alpha, mt_TensorObject *result);

/* The one-input ops that make a view or a copy: ints are the op's integer arguments. */
typedef enum {
    MT_AG_VIEW,             /* view, and reshape when it is a view */
    MT_AG_UNSAFE_VIEW,      /* reshape's copy, matmul's fold */
    MT_AG_EXPAND,
    MT_AG_T,
    MT_AG_TRANSPOSE,        /* ints: dim0, dim1 (wrapped) */
    MT_AG_PERMUTE,          /* ints: the dims (wrapped), n = ndim */
    MT_AG_UNSQUEEZE,        /* ints: dim */
    MT_AG_SQUEEZE,          /* squeeze() */
    MT_AG_SQUEEZE_DIM,      /* squeeze(dim) */
    MT_AG_SQUEEZE_DIMS,     /* squeeze(dims) */
    MT_AG_SQUEEZE_DIM_INPLACE,  /* squeeze_(dim), inside matmul */
    MT_AG_SELECT,           /* ints: dim, index (wrapped) */
    MT_AG_SLICE,            /* ints: dim, start, stop, step (clamped) */
    MT_AG_DIAGONAL,         /* ints: offset, dim1, dim2 (wrapped) */
    MT_AG_ALIAS,
    MT_AG_CLONE,
    MT_AG_TO_COPY,          /* to(), cpu(), cuda(), float(), ... when they copy */
    MT_AG_UNFOLD,           /* ints: dim (wrapped), size, step */
    MT_AG_NUM_VIEWS
} mt_ag_view_kind;
int mt_ag_view(mt_ag_view_kind kind, mt_TensorObject *t, mt_TensorObject *result, int n, const int64_t *ints);

/* as_strided (AsStridedBackward0) / as_strided_ (inplace: AsStridedBackward1) of t as it is now, to the
 * geometry of view: a new node (its output not yet set), or NULL with an exception. */
mt_node *mt_ag_as_strided_node(int inplace, mt_TensorObject *t, mt_TensorObject *view);

/* cat / stack of n tensors along dim (wrapped for the result). */
int mt_ag_cat(int stack, Py_ssize_t n, mt_TensorObject *const *inputs, int64_t dim, mt_TensorObject *result);

/* unbind / split (and chunk) / split_with_sizes: the outputs (a tuple) of t along dim, under torch's node for
 * each (UnbindBackward0, SplitBackward0, SplitWithSizesBackward0). */
typedef enum { MT_AG_SPLIT, MT_AG_UNBIND, MT_AG_SPLIT_WITH_SIZES } mt_ag_split_kind;
int mt_ag_split(mt_ag_split_kind kind, mt_TensorObject *t, int64_t dim, PyObject *outputs);

/* self.copy_(src), after the copy: self's old history is cut off (its gradient is zero) and src's gradient
 * is self's, summed back to src's shape and cast to its dtype and device. */
int mt_ag_copy(mt_TensorObject *self, mt_TensorObject *src);

/* The in-place fills: fill_(number) FillBackward2, fill_(0-d tensor) FillBackward3, zero_, uniform_,
 * normal_: self's gradient is zero (value's, for FillBackward3, the sum of self's). */
typedef enum {
    MT_AG_FILL_NUMBER,
    MT_AG_FILL_TENSOR,
    MT_AG_FILL_ZERO,
    MT_AG_FILL_UNIFORM,
    MT_AG_FILL_NORMAL,
    MT_AG_FILL_RANDOM_FROM,  /* random_(from, to) and random_(from, None): RandomBackward0 */
    MT_AG_FILL_RANDOM_TO,    /* random_(to): RandomBackward1 */
    MT_AG_FILL_RANDOM        /* random_(): RandomBackward2 */
} mt_ag_fill_kind;
int mt_ag_fill(mt_ag_fill_kind kind, mt_TensorObject *self, mt_TensorObject *value);

/* tril / triu (upper 1) of t with diagonal k: TrilBackward0 / TriuBackward0 (result t: the in-place form);
 * diag(t, k): DiagEmbedBackward0 for a vector t, DiagonalBackward0_copy for a matrix. */
int mt_ag_triangle(int upper, mt_TensorObject *t, int64_t k, mt_TensorObject *result);
int mt_ag_diag(mt_TensorObject *t, int64_t k, mt_TensorObject *result);


/* An op minitorch has no derivative for yet: the result gets a node of torch's name whose backward raises
 * NotImplementedError, so a graph through it fails loudly instead of giving wrong gradients. */
int mt_ag_not_implemented(mt_derivative *d, int n, mt_TensorObject *const *inputs, mt_TensorObject *result);

/* After set_ moved self onto the storage of `source`: torch's NotImplemented node as self's history (a
 * view's base rebased, as for any in-place op), when self or source requires grad. 0 or -1. */
int mt_ag_set_(mt_TensorObject *self, mt_TensorObject *source);

/* softmax (log 0) / log_softmax (log 1) of t along dim (wrapped): SoftmaxBackward0 / LogSoftmaxBackward0,
 * saving the result (autograd/softmax.c). */
int mt_ag_softmax(int log, mt_TensorObject *t, int dim, mt_TensorObject *result);

/* nll_loss of input (ops/loss.c): NllLossBackward0 (NllLoss2DBackward0 for a 4-d input), keeping the rows'
 * classes, which rows were kept (NULL: all), their class weights (NULL: none given) and the total weight of
 * a mean (else NULL); formula in autograd/loss.c. */
int mt_ag_nll_loss(mt_TensorObject *input, int reduction, mt_TensorObject *classes, mt_TensorObject *kept,
                   mt_TensorObject *weights, mt_TensorObject *total, mt_TensorObject *result);

/* The reductions built from others (ops/reduce_stats.c), over the dims in mask (all: torch's dim=None),
 * keepdim: logsumexp, amax/amin, var/std (number: the correction), var_mean/std_mean (result2: the mean),
 * linalg.vector_norm (number: ord), nansum, aminmax (result: the min, result2: the max). Nodes of torch's
 * names; formulas in autograd/reduce_stats.c. */
typedef enum {
    MT_AG_LOGSUMEXP,
    MT_AG_AMAX,
    MT_AG_AMIN,
    MT_AG_VAR,
    MT_AG_STD,
    MT_AG_VAR_MEAN,
    MT_AG_STD_MEAN,
    MT_AG_VECTOR_NORM,
    MT_AG_NANSUM,
    MT_AG_AMINMAX
} mt_ag_reduce_stat;
int mt_ag_reduce_stats(mt_ag_reduce_stat kind, mt_TensorObject *t, uint64_t mask, int keepdim, int all, double number,
                       mt_TensorObject *result, mt_TensorObject *result2);

/* cumsum, cumprod (along dim, wrapped), prod of every element, prod along dim (keepdim), cummax/cummin
 * (indices: their indices, saved), logcumsumexp: CumsumBackward0, CumprodBackward0, ProdBackward0,
 * ProdBackward1, CummaxBackward0, CumminBackward0, LogcumsumexpBackward0 (autograd/scan.c). */
typedef enum {
    MT_AG_CUMSUM,
    MT_AG_CUMPROD,
    MT_AG_PROD,
    MT_AG_PROD_DIM,
    MT_AG_CUMMAX,
    MT_AG_CUMMIN,
    MT_AG_LOGCUMSUMEXP
} mt_ag_scan_kind;
int mt_ag_scan(mt_ag_scan_kind kind, mt_TensorObject *t, int dim, int keepdim, mt_TensorObject *result,
               mt_TensorObject *indices);

/* Runs `expr` with grad mode off: a composite op that records one node for itself (addmm) computes its
 * parts below autograd, as torch's do. */
#define MT_BELOW_AUTOGRAD(expr)                                                                    \
    do {                                                                                           \
        int prev_grad_ = mt_set_grad_enabled(0);                                                   \
        expr;                                                                                      \
        mt_set_grad_enabled(prev_grad_);                                                           \
    } while (0)

/* ---- the indexing ops along one dim (gather.c) ---- */

/* gather(self, dim, index): GatherBackward0 (dim wrapped). */
int mt_ag_gather(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *result);

typedef enum {
    MT_AG_SCATTER_SRC,      /* scatter(dim, index, src): ScatterBackward0 */
    MT_AG_SCATTER_VALUE,    /* scatter(dim, index, value): ScatterBackward1 */
    MT_AG_SCATTER_ADD,      /* scatter_add: ScatterAddBackward0 */
    MT_AG_SCATTER_REDUCE    /* scatter(..., reduce=): torch's NotImplemented node */
} mt_ag_scatter_kind;
/* result is self for scatter_ / scatter_add_; src NULL for a number. */
int mt_ag_scatter(mt_ag_scatter_kind kind, mt_TensorObject *self, int64_t dim, mt_TensorObject *index,
                  mt_TensorObject *src, mt_TensorObject *result);

/* scatter_reduce (vector 0) and index_reduce (vector 1) along dim with the kernel's mode (naming: 1 for
 * reduce='mean', 2 for the names 'max' and 'min', whose gradient torch refuses, 0 otherwise):
 * ScatterReduceBackward0 / IndexReduceBackward0 (torch's scatter_reduce_backward / index_reduce_backward).
 * original: self's values before the op (self out of place, a copy an in-place form made before writing;
 * NULL when no node is needed); result is self for the in-place forms. */
int mt_ag_reduce_along(int vector, mt_TensorObject *original, mt_TensorObject *self, int64_t dim,
                       mt_TensorObject *index, mt_TensorObject *src, int mode, int naming, int include_self,
                       mt_TensorObject *result);

/* put(self, index, source, accumulate): PutBackward0; result is self for put_. */
int mt_ag_put(mt_TensorObject *self, mt_TensorObject *index, mt_TensorObject *source, int accumulate,
              mt_TensorObject *result);

/* sort (stable=: the second overload's node), topk: values picked from t along dim at indices, which
 * keep t's dims (torch's value_selecting_reduction_backward with keepdim). */
typedef enum {
    MT_AG_SORT,
    MT_AG_SORT_STABLE,
    MT_AG_TOPK
} mt_ag_sort_kind;
int mt_ag_sort(mt_ag_sort_kind kind, mt_TensorObject *t, int64_t dim, mt_TensorObject *values, mt_TensorObject *indices);

/* max(dim) / min(dim) (is_max 0): MaxBackward0 / MinBackward0 over the values, scattering the gradient to
 * the indices (dim wrapped). */
int mt_ag_max_dim(int is_max, mt_TensorObject *t, int64_t dim, int keepdim, mt_TensorObject *values,
                  mt_TensorObject *indices);

/* Advanced indexing (csrc/ops/index.c's plan) as its nodes need it: t's dims, permuted by perm when
 * `permuted`, are `before` dims, `nidx` indexed dims and the rest; the index tensors broadcast to `bndim`
 * dims; `positions` (1-D int64 on t's device) holds each broadcast index position's row-major place
 * within the block of indexed dims. nidx 0 (only 0-d masks): the node's backward raises. */
typedef struct {
    int before, nidx, bndim;
    const int64_t *bshape;
    int permuted;
    const int64_t *perm;
    int accumulate;             /* index_put_(accumulate=True): t's gradient is grad itself */
} mt_ag_index_plan;

/* result = t[indices]: IndexBackward0 (an accumulating index_put into zeros). */
int mt_ag_index(mt_TensorObject *t, mt_TensorObject *result, const mt_ag_index_plan *plan,
                mt_TensorObject *positions);

/* t[indices] = value, after the write (value NULL: a number): IndexPutBackward0 on t (through CopySlices
 * when t is a view) when result is t; result: index_put's new tensor, whose node takes t's history. */
int mt_ag_index_put(mt_TensorObject *t, mt_TensorObject *value, const mt_ag_index_plan *plan,
                    mt_TensorObject *positions, mt_TensorObject *result);

/* index_select: IndexSelectBackward0; index_add (result self for index_add_): IndexAddBackward0. */
int mt_ag_index_select(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *result);
int mt_ag_index_add(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                    mt_scalar alpha, mt_TensorObject *result);
/* index_fill (value_tensor NULL: a number, IndexFillBackward0; else IndexFillBackward1) with `positions`
 * the index's distinct values, on self's device; index_copy: IndexCopyBackward0. result is self
 * for the in-place forms. */
int mt_ag_index_fill(mt_TensorObject *self, int64_t dim, mt_TensorObject *positions, mt_TensorObject *value_tensor,
                     mt_TensorObject *result);
int mt_ag_index_copy(mt_TensorObject *self, int64_t dim, mt_TensorObject *index, mt_TensorObject *source,
                     mt_TensorObject *result);

/* ---- flip, roll, repeat (rearrange.c) ---- */

typedef enum {
    MT_AG_FLIP,     /* mask: the flipped dims */
    MT_AG_ROLL,     /* n shifts, dims (NULL: the flattened tensor) */
    MT_AG_REPEAT    /* n repeats */
} mt_ag_rearrange_kind;
int mt_ag_rearrange(mt_ag_rearrange_kind kind, mt_TensorObject *t, mt_TensorObject *result, uint64_t mask, int n,
                    const int64_t *ints, const int64_t *dims);

/* ---- masked_fill, masked_select, take (masked.c) ---- */

/* masked_fill (value_tensor NULL: a number, MaskedFillBackward0; else MaskedFillBackward1); result is self
 * for masked_fill_. */
int mt_ag_masked_fill(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *value_tensor,
                      mt_TensorObject *result);
/* masked_select with mask broadcast to the selection's shape: MaskedSelectBackward0. */
int mt_ag_masked_select(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *result);
/* masked_scatter (result self for masked_scatter_) with the mask expanded to the result's shape:
 * MaskedScatterBackward0. */
int mt_ag_masked_scatter(mt_TensorObject *self, mt_TensorObject *mask, mt_TensorObject *source,
                         mt_TensorObject *result);
/* take with the flattened, wrapped index positions: TakeBackward0. */
int mt_ag_take(mt_TensorObject *self, mt_TensorObject *positions, mt_TensorObject *result);

/* ---- nan_to_num (nan_to_num.c) ---- */

/* nan_to_num(t) (result t for nan_to_num_; self: t's value before it, which the formula reads):
 * NanToNumBackward0. mt_ag_nan_to_num_needs_original says whether nan_to_num_ must keep that value. */
int mt_ag_nan_to_num_needs_original(mt_TensorObject *t);
int mt_ag_nan_to_num(mt_TensorObject *self, mt_TensorObject *t, mt_TensorObject *result);

/* ---- the in-place view ops (inplace_view.c) ---- */

/* The node of an in-place view op (csrc/ops/inplace_view.h's code and arguments) over self as it is
 * before its geometry changes: SqueezeBackward3/4/5, UnsqueezeBackward1, TBackward1, TransposeBackward1.
 * The caller makes self its output once the geometry is replaced. New reference or NULL. */
mt_node *mt_ag_inplace_view_node(int code, mt_TensorObject *self, int ndims, const int64_t *dims, int one_dim);

#endif
