/* out.c (python): out= for the ops of ops.def that compute a new tensor. bind.c hands a call whose out=
 * was given here when the op has a rule below: the op runs as its functional form (out= cleared; for the
 * reductions and factories with a dtype= the out tensor's dtype and device fill in what was not given, as
 * torch infers them from out), then csrc/ops/out.c writes the result into out with the rule of the op's
 * kind. The rules and messages are torch's, op by op (its TensorIterator ops cast, its structured kernels
 * want the same dtype, and several ops word that their own way). An op with no rule here still refuses
 * out= (mt_bind_refuse_out). */
#include <string.h>

#include "../autograd/autograd.h"
#include "../core/dtype.h"
#include "../ops/copy.h"
#include "../ops/dispatch.h"
#include "../ops/elementwise.h"
#include "../ops/out.h"
#include "../ops/reduce.h"
#include "../ops/runner.h"
#include "../ops/shape.h"
#include "bind.h"
#include "return_types.h"
#include "../core/warn.h"

/* what the op's dtype= and device= mean next to out= */
#define OUT_DTYPE_CHECK 0x1         /* a given dtype must be out's (the structured kernels' message) */
#define OUT_DTYPE_FROM_OUT 0x2      /* no dtype given: out's (sum, cumsum: out decides the accumulation) */
#define OUT_FACTORY 0x4             /* factories: dtype and device come from out; torch's factory messages */
#define OUT_NO_COPY 0x8             /* empty(out=): out is only resized (resize_, no warning) */
#define OUT_RANGE 0x10              /* arange(out=): its own resize warning */
#define OUT_IN_OUT_DTYPE 0x40       /* var, std: a floating input is computed in out's floating dtype */
#define OUT_NONDIFF 0x20            /* no derivative in torch's table (floor_divide's node is NotImplemented):
                                     * no autograd refusal, out may require grad */
#define OUT_TUPLE 0x80              /* out is a tuple of tensors (a kind of return_types.c): sort, max(dim), linalg.qr */
#define OUT_INDICES_FIRST 0x100     /* a (values, indices) pair whose indices are checked first (median) */
#define OUT_RESULT_STRIDES 0x400    /* a resized out takes the result's strides (torch's meta function gives
                                     * them: the column-major matrices of linalg) */
#define OUT_RESIZE_FIRST 0x800      /* out is resized before its dtype is checked (matrix_rank) */
#define OUT_FIRST_OVERLOAD 0x1000   /* the rule of the op's first overload; the next row (same name) has the
                                     * others' (lerp: a tensor weight is a structured kernel) */
#define OUT_FLOATING_OUT 0x2000     /* out must be floating: the rule's message names out's dtype (logsumexp) */
#define OUT_TELL_DTYPE 0x4000       /* the op computes part of its result in out's dtype (mt_call.out_dtype):
                                     * logsumexp sums the exponentials in it */
#define OUT_UNARY 0x8000           /* a unary op (mt_out_rule.unary): a same-dtype rule checks out against
                                     * the result's dtype before the op runs, as torch's TensorIterator
                                     * does before the kernel's dtype dispatch (the input not requiring
                                     * grad: autograd's refusal comes first otherwise) */
#define OUT_REDUCTION_DTYPE 0x10000 /* with OUT_DTYPE_CHECK: make_reduction's words for a dtype= that is not
                                     * out's (nansum) */
#define OUT_COPY 0x200              /* composites that end in out.copy_(result): no refusal, and out records
                                     * CopyBackwards when the result requires grad */
#define OUT_META_CAST 0x20000      /* a meta result: torch's meta function or reference writes out through
                                     * its out_wrapper (mt_out_meta; TensorIterator's ops, cat and the
                                     * reductions that cast do so without the flag) */
#define OUT_META_EXACT 0x40000     /* the same with out_wrapper(exact_dtype=True) */
#define OUT_VECTOR_EMBEDS 0x100000 /* a 1-D input is diag_embed's (diag_out): can_cast(input, out) first, in the
                                     * rule's message, then on meta out_wrapper's cast; else OUT_META_EXACT */
#define OUT_META_REF 0x80000       /* on a meta first argument torch runs the op's Python reference under
                                     * out_wrapper: the result of the op's own dtype rules (dtype= kept, no
                                     * rule of out's dtype before the op), then OUT_META_CAST (nansum,
                                     * nanmean, logsumexp) */
#define OUT_FLOATING_IN 0x200000   /* an integral or bool input is refused before anything else, on every
                                     * device, in the out= overload's own words (nanmean_out) */
#define OUT_COPY_PATH 0x400000     /* with OUT_RESULT_STRIDES, a linalg op that is not a structured kernel
                                     * (householder_product, geqrf, ormqr): only an empty out takes the
                                     * result's strides; one with elements is resized row-major and copied
                                     * into */

struct mt_out_rule {
    const char *name;               /* the function's Python name */
    const char *op;                 /* torch's name for it in the autograd refusal */
    mt_out_rule kind;
    unsigned flags;
    const char *message;            /* MT_OUT_MESSAGE: {r} the result's dtype name, {o} out's; {rc}, {oc}
                                     * their C++ names ("float"); {R}, {O} their legacy type names
                                     * ("torch.FloatTensor") */
    const char *indices_message;    /* OUT_TUPLE with MT_OUT_MESSAGE: the indices' message */
    mt_unary_op unary;              /* OUT_UNARY: the op */
};

#define CAST(name, op) {name, op, MT_OUT_ITER, 0, NULL}
#define NONDIFF(name, op) {name, op, MT_OUT_ITER, OUT_NONDIFF, NULL}
#define FOUND(name, op) {name, op, MT_OUT_MESSAGE, OUT_META_CAST, "Found dtype {o} but expected {r}"}
#define SAME(name, op) {name, op, MT_OUT_SAME, 0, NULL}
#define FACTORY(name, flags) {name, "aten::" name, MT_OUT_SAME, OUT_FACTORY | (flags), NULL}

/* torch's words, verbatim (an internal check's text, for max() and min() of all elements) */
#define CAN_CAST_CHECK                                                                                      \
    "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) to be true, but " \
    "got false.  (Could this error message be improved?  If so, please report an enhancement request to "       \
    "PyTorch.)"
/* median's checks (checkScalarType, then checkSameType), in torch's words */
#define MEDIAN_CHECK(what) "Expected tensor for " what " (while checking arguments for median)"
#define MEDIAN_VALUES MEDIAN_CHECK("'values' to have the same type as tensor for argument #2 'self'; but type {O} " \
                                   "does not equal {R}")
#define MEDIAN_INDICES MEDIAN_CHECK("argument #1 'indices' to have scalar type Long; but got {O} instead")
#define PAIR(name, flags, values, indices)                                                                  \
    {name, name, (values) != NULL ? MT_OUT_MESSAGE : MT_OUT_SAME, OUT_TUPLE | (flags), values, indices}
#define LINALG_TUPLE(name, op) {name, op, MT_OUT_SAME, OUT_TUPLE | OUT_RESULT_STRIDES, NULL, NULL}

#define AMAX_DTYPES                                                                                         \
    "Expected the dtype for input and out to match, but got {r} for input's dtype and {o} for out's dtype."

static const struct mt_out_rule rules[] = {
    /* TensorIterator's element-wise ops: the result cast into out */
    CAST("add", "add"), CAST("sub", "sub"), CAST("subtract", "sub"), CAST("mul", "mul"), CAST("multiply", "mul"),
    CAST("div", "div"), CAST("divide", "div"), CAST("true_divide", "div"), CAST("maximum", "maximum"),
    CAST("minimum", "minimum"), CAST("pow", "pow"), CAST("fmod", "fmod"),
    CAST("remainder", "remainder"), NONDIFF("floor_divide", "floor_divide"), CAST("atan2", "atan2"),
    CAST("arctan2", "atan2"), CAST("hypot", "hypot"), CAST("logaddexp", "logaddexp"),
    CAST("logaddexp2", "logaddexp2"), CAST("xlogy", "xlogy"), CAST("copysign", "copysign"), CAST("fmax", "fmax"),
    CAST("fmin", "fmin"), CAST("nextafter", "nextafter"), NONDIFF("gcd", "gcd"), NONDIFF("lcm", "lcm"),
    {"heaviside", "heaviside", MT_OUT_MESSAGE, OUT_META_CAST,
     "heaviside is not yet implemented for tensors with different dtypes."},
    CAST("logit", "logit"), CAST("polygamma", "polygamma"), CAST("special_xlog1py", "special_xlog1py"),
    CAST("special_zeta", "special_zeta"), CAST("special_xlogy", "xlogy"), CAST("special_logit", "logit"),
    CAST("special_polygamma", "polygamma"),
    /* comparisons, bitwise and logical ops (any out dtype takes their result), floor_divide: not
     * differentiable */
    NONDIFF("eq", "eq"), NONDIFF("ne", "ne"), NONDIFF("lt", "lt"), NONDIFF("le", "le"), NONDIFF("gt", "gt"),
    NONDIFF("ge", "ge"), NONDIFF("not_equal", "ne"), NONDIFF("less", "lt"), NONDIFF("less_equal", "le"),
    NONDIFF("greater", "gt"), NONDIFF("greater_equal", "ge"), NONDIFF("bitwise_and", "bitwise_and"),
    NONDIFF("bitwise_or", "bitwise_or"), NONDIFF("bitwise_xor", "bitwise_xor"),
    NONDIFF("bitwise_left_shift", "bitwise_left_shift"), NONDIFF("bitwise_right_shift", "bitwise_right_shift"),
    NONDIFF("logical_and", "logical_and"), NONDIFF("logical_or", "logical_or"), NONDIFF("logical_xor", "logical_xor"),
    NONDIFF("logical_not", "logical_not"),
    {"isposinf", "isposinf", MT_OUT_MESSAGE, OUT_NONDIFF | OUT_META_EXACT,
     "isposinf does not support non-boolean outputs."},
    {"isneginf", "isneginf", MT_OUT_MESSAGE, OUT_NONDIFF | OUT_META_EXACT,
     "isneginf does not support non-boolean outputs."},
    {"signbit", "signbit", MT_OUT_MESSAGE, OUT_NONDIFF | OUT_META_EXACT,
     "signbit does not support non-boolean outputs."},
    CAST("addcmul", "addcmul"), CAST("addcdiv", "addcdiv"),
    {"lerp", "lerp", MT_OUT_MESSAGE, OUT_FIRST_OVERLOAD | OUT_META_CAST, "Found dtype {o} but expected {r}"},
    CAST("lerp", "lerp"),
    /* the unary ops: mt_out_rule_for_unary, but for square (torch's pow) */
    CAST("square", "pow"),
    /* clamp: the same dtype, in torch's words */
    FOUND("clamp", "clamp"), FOUND("clip", "clamp"), FOUND("clamp_min", "clamp_min"), FOUND("clamp_max", "clamp_max"),
    {"where", "where", MT_OUT_MESSAGE, OUT_META_EXACT, "Expected out type to be {r} but got {o}"},
    {"nan_to_num", "nan_to_num", MT_OUT_MESSAGE, OUT_META_CAST,
     "nan_to_num: dtype of out: {o} should be same as input: {r}"},
    /* reductions and scans */
    {"sum", "sum", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_META_CAST, NULL},
    {"prod", "prod", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_META_CAST, NULL},
    {"cumsum", "cumsum", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_META_CAST, NULL},
    {"cumprod", "cumprod", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_META_CAST, NULL},
    {"nansum", "nansum", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_REDUCTION_DTYPE | OUT_META_REF,
     NULL},
    {"logcumsumexp", "logcumsumexp", MT_OUT_MESSAGE, OUT_META_CAST, "expected scalar_type {r} but found {o}"},
    /* nanmean_out is nansum_out(out) divided in place */
    {"nanmean", "nansum", MT_OUT_SAME,
     OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_REDUCTION_DTYPE | OUT_META_REF | OUT_FLOATING_IN, NULL},
    {"mean", "mean", MT_OUT_CAST, OUT_DTYPE_CHECK, NULL},
    {"var", "var", MT_OUT_CAST, OUT_IN_OUT_DTYPE, NULL}, {"std", "std", MT_OUT_CAST, OUT_IN_OUT_DTYPE, NULL},
    {"logsumexp", "logsumexp", MT_OUT_CAST, OUT_TELL_DTYPE | OUT_FLOATING_OUT | OUT_META_REF,
     "logsumexp(): Expected floating point type for result tensor, but got: {o}"},
    {"special_logsumexp", "logsumexp", MT_OUT_CAST, OUT_TELL_DTYPE | OUT_FLOATING_OUT | OUT_META_REF,
     "logsumexp(): Expected floating point type for result tensor, but got: {o}"},
    {"max", "max", MT_OUT_CAST, OUT_META_CAST, CAN_CAST_CHECK},
    {"min", "min", MT_OUT_CAST, OUT_META_CAST, CAN_CAST_CHECK},
    {"all", "all", MT_OUT_MESSAGE, OUT_META_CAST, "all only supports bool tensor for result, got: {o}"},
    {"any", "any", MT_OUT_MESSAGE, OUT_META_CAST, "any only supports bool tensor for result, got: {o}"},
    SAME("argmax", "argmax"), SAME("argmin", "argmin"),
    {"amax", "amax", MT_OUT_MESSAGE, OUT_META_CAST, AMAX_DTYPES},
    {"amin", "amin", MT_OUT_MESSAGE, OUT_META_CAST, AMAX_DTYPES},
    SAME("linalg_vector_norm", "linalg_vector_norm"),
    {"softmax", "_softmax", MT_OUT_SAME, OUT_META_CAST, NULL},
    {"log_softmax", "_log_softmax", MT_OUT_SAME, OUT_META_EXACT, NULL},
    SAME("_softmax", "_softmax"), SAME("_log_softmax", "_log_softmax"),
    /* joins: cat's cast, with its TypeError */
    {"cat", "cat", MT_OUT_CAT, 0, NULL}, {"concat", "cat", MT_OUT_CAT, 0, NULL},
    {"concatenate", "cat", MT_OUT_CAT, 0, NULL}, {"stack", "stack", MT_OUT_CAT, 0, NULL},
    {"hstack", "cat", MT_OUT_CAT, 0, NULL}, {"vstack", "cat", MT_OUT_CAT, 0, NULL},
    /* structured kernels: the same dtype */
    {"addmm", "addmm", MT_OUT_SAME, OUT_META_EXACT, NULL}, {"addmv", "addmv", MT_OUT_SAME, OUT_META_EXACT, NULL},
    {"baddbmm", "baddbmm", MT_OUT_SAME, OUT_META_EXACT, NULL},
    {"addbmm", "addbmm", MT_OUT_MESSAGE, OUT_META_EXACT, "self and mat2 must have the same dtype, but got {o} and {r}"},
    {"addr", "addr", MT_OUT_ITER, 0, NULL}, {"tril", "tril", MT_OUT_SAME, OUT_META_CAST, NULL},
    {"triu", "triu", MT_OUT_SAME, OUT_META_CAST, NULL},
    {"diag", "diag", MT_OUT_SAME, OUT_VECTOR_EMBEDS | OUT_META_EXACT,
     "diag: result type {r} can't be cast to the desired out= type {o}"},
    SAME("gather", "gather"),
    SAME("scatter", "scatter"), SAME("scatter_add", "scatter_add"),
    {"index_add", "index_add", MT_OUT_SAME, OUT_META_CAST, NULL},
    SAME("index_copy", "index_copy"), SAME("scatter_reduce", "scatter_reduce"), SAME("index_reduce", "index_reduce"),
    {"index_select", "index_select", MT_OUT_MESSAGE, OUT_META_CAST,
     "index_select(): self and result must have the same scalar type"},
    {"masked_select", "masked_select", MT_OUT_MESSAGE, 0,
     "masked_select(): self and result must have the same scalar type"},
    {"take", "take", MT_OUT_MESSAGE, OUT_META_CAST,
     "take(): self and out expected to have the same dtype, but got self.dtype = {r} and out.dtype = {o}"},
    /* factories: out gives the dtype and the device */
    FACTORY("zeros", 0), FACTORY("ones", 0), FACTORY("empty", OUT_NO_COPY), FACTORY("full", 0),
    FACTORY("arange", OUT_RANGE), FACTORY("linspace", 0), FACTORY("logspace", 0), FACTORY("eye", 0),
    FACTORY("rand", 0), FACTORY("randn", 0), FACTORY("randint", 0), FACTORY("randperm", 0),
    /* ops written in Python (_C._write_out): the rule of the op torch's composite ends in */
    {"outer", "mul", MT_OUT_ITER, 0, NULL}, {"ger", "mul", MT_OUT_ITER, 0, NULL},
    {"special_ndtr", "mul", MT_OUT_ITER, 0, NULL}, {"ldexp", "mul", MT_OUT_ITER, 0, NULL},
    {"mvlgamma", "mvlgamma", MT_OUT_CAST, OUT_META_CAST,
     "mvlgamma: result type {r} can't be cast to the desired output type {r}"},
    {"frexp", "frexp", MT_OUT_CAST, OUT_NONDIFF | OUT_META_CAST, NULL}, /* one output on meta: _special_ops.py */
    SAME("msort", "sort"), {"slice_scatter", "slice_scatter", MT_OUT_CAST, 0, NULL},
    {"narrow_copy", "narrow_copy", MT_OUT_MESSAGE, OUT_META_EXACT,
     "Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error message be improved?  "
     "If so, please report an enhancement request to PyTorch.)"},
    SAME("cross", "linalg_cross"), SAME("take_along_dim", "gather"), {"diff", "sub", MT_OUT_ITER, 0, NULL}, SAME("linalg_cross", "linalg_cross"),
    {"histc", "histc", MT_OUT_MESSAGE, OUT_NONDIFF,
     "torch.histogram: input tensor and hist tensor should have the same dtype, but got input {rc} and hist {oc}"},
    {"isin", "isin", MT_OUT_SAME, OUT_NONDIFF, NULL}, {"searchsorted", "searchsorted", MT_OUT_SAME, OUT_NONDIFF, NULL},
    {"bucketize", "bucketize", MT_OUT_SAME, OUT_NONDIFF, NULL},
    {"nonzero", "nonzero", MT_OUT_MESSAGE, OUT_NONDIFF,
     "nonzero: Expected out tensor to have scalar type Long but got scalar type{o}"},
    {"multinomial", "multinomial", MT_OUT_MESSAGE, OUT_NONDIFF, "multinomial expects Long tensor out, got: {o}"},
    {"tensordot", "tensordot", MT_OUT_MESSAGE, OUT_COPY,
     "tensordot: Expected the output tensor to have dtype {r}, but got an output tensor with dtype {o}"},
    {"inverse", "linalg_inv_ex", MT_OUT_SAME, OUT_RESULT_STRIDES, NULL},
    {"linalg_inv", "linalg_inv_ex", MT_OUT_SAME, OUT_RESULT_STRIDES, NULL}, SAME("linalg_det", "_linalg_det"),
    {"linalg_solve", "_linalg_solve_ex", MT_OUT_SAME, OUT_RESULT_STRIDES, NULL}, SAME("linalg_svdvals", "_linalg_svd"),
    SAME("linalg_eigvalsh", "_linalg_eigh"),
    {"linalg_matrix_norm", "linalg_matrix_norm", MT_OUT_MESSAGE, OUT_COPY,
     "linalg.matrix_norm expected out tensor dtype {r} but got: {o}"},
    {"linalg_norm", "linalg_norm", MT_OUT_MESSAGE, OUT_COPY, "linalg.norm expected out tensor dtype {r} but got: {o}"},
    {"linalg_pinv", "linalg_pinv", MT_OUT_CAST, 0,
     "linalg.pinv: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"linalg_cholesky", "linalg_cholesky_ex", MT_OUT_SAME, OUT_RESULT_STRIDES, NULL},
    {"linalg_solve_triangular", "linalg_solve_triangular", MT_OUT_MESSAGE, 0, "expected scalar type {r} but found {o}"},
    {"linalg_lu_solve", "linalg_lu_solve", MT_OUT_SAME, OUT_RESULT_STRIDES, NULL},
    {"linalg_ldl_solve", "linalg_ldl_solve", MT_OUT_SAME, OUT_RESULT_STRIDES | OUT_NONDIFF, NULL},
    {"linalg_householder_product", "linalg_householder_product", MT_OUT_CAST, OUT_RESULT_STRIDES | OUT_COPY_PATH,
     "torch.linalg.householder_product: Expected result to be safely castable from {r} dtype, but got result with "
     "dtype {o}"},
    {"cholesky", "cholesky", MT_OUT_CAST, 0,
     "cholesky: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"cholesky_solve", "cholesky_solve", MT_OUT_CAST, 0,
     "cholesky_solve: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"cholesky_inverse", "cholesky_inverse", MT_OUT_CAST, 0,
     "cholesky_inverse: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"kron", "mul", MT_OUT_ITER, 0, NULL},
    {"inner", "tensordot", MT_OUT_MESSAGE, OUT_COPY,
     "tensordot: Expected the output tensor to have dtype {r}, but got an output tensor with dtype {o}"},
    {"vdot", "vdot", MT_OUT_MESSAGE, 0, "result dtype {o} does not match input dtype {r}"},
    SAME("linalg_multi_dot", "mm"), SAME("renorm", "renorm"),
    /* linalg.matrix_power's powers past 1 and -1 (minitorch/_matrix_products.py writes the others) */
    {"linalg_matrix_power_matmul", "matmul", MT_OUT_MESSAGE, 0,
     "Expected out tensor to have dtype {rc}, but got {oc} instead"},
    /* minitorch/_linalg_extras.py's composites: vecdot ends in sum(out=), the others copy into out */
    {"linalg_vecdot", "sum", MT_OUT_MESSAGE, 0, "linalg.vecdot: Expected out of dtype{r} but found {o}"},
    {"linalg_tensorinv", "linalg_tensorinv", MT_OUT_CAST, OUT_COPY,
     "tensorinv: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"linalg_tensorsolve", "linalg_tensorsolve", MT_OUT_CAST, OUT_COPY,
     "tensorsolve: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"linalg_cond", "linalg_cond", MT_OUT_CAST, OUT_COPY,
     "linalg.cond: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    {"linalg_matrix_rank", "linalg_matrix_rank", MT_OUT_CAST, OUT_NONDIFF | OUT_RESIZE_FIRST,
     "torch.linalg.matrix_rank: Expected result to be safely castable from {r} dtype, but got result with dtype {o}"},
    /* (values, indices) pairs: the structured kernels' message, or the op's own ones */
    PAIR("sort", 0, NULL, NULL), PAIR("topk", 0, NULL, NULL), PAIR("max", 0, NULL, NULL), PAIR("min", 0, NULL, NULL),
    PAIR("aminmax", 0, NULL, NULL),
    PAIR("cummax", 0, "expected scalar_type {r} but found {o}", "expected scalar_type {r} but found {o}"),
    PAIR("cummin", 0, "expected scalar_type {r} but found {o}", "expected scalar_type {r} but found {o}"),
    PAIR("kthvalue", 0, "output values must be of same type as input", "output indices must be of scalar type Long"),
    PAIR("median", OUT_INDICES_FIRST, MEDIAN_VALUES, MEDIAN_INDICES),
    PAIR("nanmedian", OUT_INDICES_FIRST, MEDIAN_VALUES, MEDIAN_INDICES),
    /* the linalg functions' tuples: structured, column-major results */
    LINALG_TUPLE("linalg_slogdet", "_linalg_slogdet"), LINALG_TUPLE("slogdet", "_linalg_slogdet"),
    LINALG_TUPLE("linalg_inv_ex", "linalg_inv_ex"), LINALG_TUPLE("linalg_solve_ex", "_linalg_solve_ex"),
    LINALG_TUPLE("linalg_qr", "linalg_qr"), LINALG_TUPLE("qr", "linalg_qr"),
    LINALG_TUPLE("linalg_eigh", "_linalg_eigh"),
    LINALG_TUPLE("linalg_svd", "_linalg_svd"), LINALG_TUPLE("svd", "_linalg_svd"),
    LINALG_TUPLE("linalg_cholesky_ex", "linalg_cholesky_ex"), LINALG_TUPLE("triangular_solve", "triangular_solve"),
    LINALG_TUPLE("linalg_lu_factor", "linalg_lu_factor_ex"), LINALG_TUPLE("linalg_lu_factor_ex", "linalg_lu_factor_ex"),
    LINALG_TUPLE("linalg_lu", "linalg_lu"), LINALG_TUPLE("lu_unpack", "lu_unpack"),
    /* no derivative in torch's table: out may require grad */
    {"linalg_ldl_factor", "linalg_ldl_factor_ex", MT_OUT_SAME, OUT_TUPLE | OUT_RESULT_STRIDES | OUT_NONDIFF, NULL,
     NULL},
    {"linalg_ldl_factor_ex", "linalg_ldl_factor_ex", MT_OUT_SAME, OUT_TUPLE | OUT_RESULT_STRIDES | OUT_NONDIFF, NULL,
     NULL},
    /* geqrf's checkLinalgCompatibleDtype of each output, ormqr's own same-dtype check */
    {"geqrf", "geqrf", MT_OUT_CAST, OUT_TUPLE | OUT_RESULT_STRIDES | OUT_COPY_PATH,
     "torch.geqrf: Expected a to be safely castable from {r} dtype, but got a with dtype {o}",
     "torch.geqrf: Expected tau to be safely castable from {r} dtype, but got tau with dtype {o}"},
    {"ormqr", "ormqr", MT_OUT_MESSAGE, OUT_RESULT_STRIDES | OUT_COPY_PATH | OUT_META_CAST,
     "torch.ormqr: Expected input and result to have the same dtype, but input has dtype{r} and result has dtype {o}"},
    PAIR("mode", 0, "expected scalar type '{r}' but got '{o}' for values output",
         "expected scalar type '{r}' but got '{o}' for indices output"),
};

/* the rule for `name` whose out is a pair (pair != 0) or one tensor; NULL: none */
static const struct mt_out_rule *
rule_for(const char *name, int pair)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (strcmp(rules[i].name, name) == 0 && !(rules[i].flags & OUT_TUPLE) == !pair) {
            return &rules[i];
        }
    }
    return NULL;
}

const struct mt_out_rule *
mt_out_rule_for(const char *name)
{
    const struct mt_out_rule *rule = rule_for(name, 0);
    return rule != NULL ? rule : rule_for(name, 1);
}

const struct mt_out_rule *
mt_out_rule_for_unary(mt_unary_op op)
{
    /* filled at the op table's build (under the GIL) */
    static struct mt_out_rule unary_rules[MT_UNARY_NUM_OPS];
    struct mt_out_rule *rule = &unary_rules[op];

    if (rule->name == NULL) {
        /* frac keeps its input's dtype: torch's same-dtype check */
        struct mt_out_rule made = MT_UNARY_IS_FLOAT_ONLY(op) && op != MT_UNARY_FRAC
                                      ? (struct mt_out_rule)CAST(NULL, NULL)
                                      : (struct mt_out_rule)FOUND(NULL, NULL);
        made.name = made.op = mt_unary_op_name(op);
        made.flags |= OUT_UNARY;
        if (op == MT_UNARY_ABS || op == MT_UNARY_CEIL || op == MT_UNARY_FLOOR || op == MT_UNARY_TRUNC
            || op == MT_UNARY_FRAC || op == MT_UNARY_SIGN || op == MT_UNARY_SGN) {
            made.flags |= OUT_META_EXACT; /* their torch/_refs take out_wrapper(exact_dtype=True) */
        }
        made.unary = op;
        *rule = made;
    }
    return rule;
}

/* the rule's message with {r} and {o} replaced by the dtype names of the result and out ("Float"), {rc} and
 * {oc} by their C++ names ("float"), {R} and {O} by their legacy type names */
static void
format_message(const char *message, const mt_TensorObject *r, const mt_TensorObject *o, char *buf, size_t len)
{
    char type_name[64];
    size_t n = 0;

    for (const char *p = message; *p != '\0' && n + 1 < len; p++) {
        const char *name = NULL;
        if (p[0] == '{' && (p[1] == 'r' || p[1] == 'o') && p[2] == 'c' && p[3] == '}') {
            name = mt_dtype_c_name(p[1] == 'r' ? r->dtype : o->dtype);
            p += 3;
        }
        else if (p[0] == '{' && (p[1] == 'r' || p[1] == 'o') && p[2] == '}') {
            name = mt_dtype_scalar_name(p[1] == 'r' ? r->dtype : o->dtype);
            p += 2;
        }
        else if (p[0] == '{' && (p[1] == 'R' || p[1] == 'O') && p[2] == '}') {
            mt_tensor_type_string(p[1] == 'R' ? r : o, type_name, sizeof type_name);
            name = type_name;
            p += 2;
        }
        if (name == NULL) {
            buf[n++] = *p;
            continue;
        }
        while (*name != '\0' && n + 1 < len) {
            buf[n++] = *name++;
        }
    }
    buf[n] = '\0';
}

/* torch's check of out against every input it writes over: an expanded out, or an input that shares part
 * (not all; `any`: any, as cat's check) of out's memory */
static int
check_overlaps(const mt_TensorObject *out, const mt_arg *args, int nargs, int out_pos, int any)
{
    int (*check)(const mt_TensorObject *, const mt_TensorObject *) =
        any ? mt_check_no_overlap : mt_check_no_partial_overlap;

    if (mt_check_no_internal_overlap(out) < 0) {
        return -1;
    }
    for (int i = 0; i < nargs; i++) {
        PyObject *obj = args[i].obj;
        if (i == out_pos || obj == NULL) {
            continue;
        }
        if (mt_Tensor_Check(obj)) {
            if (check(out, (mt_TensorObject *)obj) < 0) {
                return -1;
            }
        }
        else if (PyList_Check(obj) || PyTuple_Check(obj)) {
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(obj); j++) {
                PyObject *item = PySequence_Fast_GET_ITEM(obj, j);
                if (mt_Tensor_Check(item) && check(out, (mt_TensorObject *)item) < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* 1 when the memory of storages a and b meets */
static int
storages_meet(const mt_storage *a, const mt_storage *b)
{
    const char *a0 = a->data;
    const char *b0 = b->data;

    return a == b || (a0 < b0 + b->nbytes && b0 < a0 + a->nbytes);
}

/* 1 when the element-wise op may write out itself (mt_pointwise_offer_out): a cast rule's op (or a
 * same-dtype rule's whose result dtype, out's, was checked before the op: same_dtype), out dense, not
 * requiring grad and on the meta device when the inputs are, no tensor argument sharing memory with it (a
 * composite's first step must not overwrite an input it reads later), and none requiring grad while grad
 * mode is on (no node is recorded on out, and autograd's refusal cannot come after out is written). */
static int
offers_out(const struct mt_out_rule *rule, const mt_TensorObject *out, const mt_arg *args, int nargs, int out_pos,
           int same_dtype)
{
    int grad = mt_grad_enabled();

    if ((rule->kind != MT_OUT_ITER && !same_dtype)
        || (rule->flags & ~(unsigned)(OUT_UNARY | OUT_NONDIFF | OUT_META_CAST)) != 0 || out->requires_grad
        || !mt_tensor_is_non_overlapping_and_dense(out)) {
        return 0;
    }
    for (int i = 0; i < nargs; i++) {
        PyObject *obj = args[i].obj;
        if (i == out_pos || obj == NULL) {
            continue;
        }
        if (PyList_Check(obj) || PyTuple_Check(obj)) {
            return 0;
        }
        if (mt_Tensor_Check(obj)) {
            const mt_TensorObject *t = (const mt_TensorObject *)obj;
            int meta = mt_tensor_device(t).type == MT_DEVICE_META;
            /* a meta input's result and an out elsewhere: torch's out_wrapper refuses the copy */
            if ((grad && t->requires_grad) || storages_meet(t->storage, out->storage)
                || meta != (mt_tensor_device(out).type == MT_DEVICE_META)) {
                return 0;
            }
        }
    }
    return 1;
}

/* the factories' messages for a dtype= or device= that is not out's */
static int
check_factory(const mt_TensorObject *out, const mt_arg *dtype, const mt_arg *device)
{
    char want[32];
    char got[32];

    if (dtype != NULL && dtype->obj != NULL && dtype->dtype != out->dtype) {
        PyErr_Format(PyExc_RuntimeError, "dtype %s does not match dtype of out parameter (%s)",
                     mt_dtype_scalar_name(dtype->dtype), mt_dtype_scalar_name(out->dtype));
        return -1;
    }
    if (device != NULL && device->obj != NULL && device->device.type != mt_tensor_device(out).type) {
        mt_device w = {device->device.type, -1};
        mt_device g = {mt_tensor_device(out).type, -1};
        mt_device_format(w, want, sizeof want);
        mt_device_format(g, got, sizeof got);
        PyErr_Format(PyExc_RuntimeError, "device type %s does not match device type of out parameter (%s)", want,
                     got);
        return -1;
    }
    return 0;
}

/* arange's own warning when out has another element count (RangeFactories.cpp), before the resize */
static int
warn_range(const mt_TensorObject *out, const mt_TensorObject *r)
{
    char shape[256];
    char msg[768];
    int64_t n = mt_tensor_numel(out);

    if (n == mt_tensor_numel(r) || n == 0) {
        return 0;   /* the same count: out keeps its shape (see mt_bind_out_call) */
    }
    mt_format_shape(out->ndim, out->sizes, shape, sizeof shape);
    snprintf(msg, sizeof msg,
             "The number of elements in the out tensor of shape %s is %lld which does not match the computed "
             "number of elements %lld. Note that this may occur as a result of rounding error. The out tensor "
             "will be resized to a tensor of shape (%lld,).",
             shape, (long long)n, (long long)mt_tensor_numel(r), (long long)mt_tensor_numel(r));
    if (mt_warn(PyExc_UserWarning, msg) < 0) {
        return -1;
    }
    return mt_resize_((mt_TensorObject *)out, r->ndim, r->sizes, MT_NUM_MEMORY_FORMATS);
}

/* ---- tuples of outputs --------------------------------------------------------------------------------- */

#define MAX_OUTS 3

/* The n tensors given as out= (a tuple or list of n tensors: torch's TypeError otherwise), as new
 * references taken before the op runs (its Python code could change a list). 0 or -1. */
static int
take_tuple(PyObject *seq, int n, int argnum, PyObject **outs)
{
    Py_ssize_t got;

    if (!PyTuple_Check(seq) && !PyList_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "expected tuple of %d elements but got %s", n, Py_TYPE(seq)->tp_name);
        return -1;
    }
    got = PySequence_Fast_GET_SIZE(seq);
    if (got != n) {
        return mt_arg_tuple_size_error(n, got);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!mt_Tensor_Check(item)) {
            PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument %d, but got %s", i, argnum,
                         Py_TYPE(item)->tp_name);
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        outs[i] = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(outs[i]);
    }
    return 0;
}

static void
release_outs(PyObject **outs, int n)
{
    for (int i = 0; i < n; i++) {
        Py_CLEAR(outs[i]);
    }
}

/* A pair's own dtype message for output i (its values or its indices) when out's dtype is not the
 * result's (or, for MT_OUT_CAST, one the result cannot be cast to); 0 or -1 */
static int
check_pair_dtype(const struct mt_out_rule *rule, int i, const mt_TensorObject *result, const mt_TensorObject *out)
{
    char msg[512];

    if (result->dtype == out->dtype || (rule->kind == MT_OUT_CAST && mt_can_cast(result->dtype, out->dtype))) {
        return 0;
    }
    format_message(i == 0 ? rule->message : rule->indices_message, result, out, msg, sizeof msg);
    PyErr_SetString(PyExc_RuntimeError, msg);
    return -1;
}

static int restride(const struct mt_out_rule *rule, const mt_TensorObject *r, mt_TensorObject *out);

/* Writes the functional result (a tuple of n tensors) into outs by the rule and returns
 * return_types.<op>_out of outs. Structured kernels check and resize each output in turn; the pairs with
 * their own messages check both dtypes first, in their own order, then resize. */
static PyObject *
write_tuple(const struct mt_out_rule *rule, int n, PyObject *result, PyObject *const *outs)
{
    mt_TensorObject *r[MAX_OUTS];
    PyObject *written;

    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != n) {
        PyErr_Format(PyExc_SystemError, "%s(): out= expects a tuple of %d results", rule->name, n);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!mt_Tensor_Check(PyTuple_GET_ITEM(result, i))) {
            PyErr_Format(PyExc_SystemError, "%s(): out= expects tensor results", rule->name);
            return NULL;
        }
        r[i] = (mt_TensorObject *)PyTuple_GET_ITEM(result, i);
    }
    for (int i = 0; i < n && !(rule->flags & OUT_NONDIFF); i++) {
        if (mt_out_check_grad(rule->op, (PyObject *)r[i], (mt_TensorObject *)outs[i]) < 0) {
            return NULL;
        }
    }
    if (rule->kind == MT_OUT_MESSAGE || rule->kind == MT_OUT_CAST) {
        int first = (rule->flags & OUT_INDICES_FIRST) ? 1 : 0;
        if (check_pair_dtype(rule, first, r[first], (mt_TensorObject *)outs[first]) < 0 ||
            check_pair_dtype(rule, 1 - first, r[1 - first], (mt_TensorObject *)outs[1 - first]) < 0) {
            return NULL;
        }
    }
    /* OUT_COPY_PATH (geqrf): an output of another dtype sends every output through a temporary */
    int copied = 0;
    for (int i = 0; i < n && (rule->flags & OUT_COPY_PATH); i++) {
        copied |= r[i]->dtype != ((mt_TensorObject *)outs[i])->dtype;
    }
    for (int i = 0; i < n; i++) {
        if (!copied && restride(rule, r[i], (mt_TensorObject *)outs[i]) < 0) {
            return NULL;
        }
        written = mt_out_write((mt_TensorObject *)outs[i], (PyObject *)r[i],
                               rule->kind == MT_OUT_CAST ? MT_OUT_CAST : MT_OUT_SAME, NULL, MT_OUT_META_KERNEL);
        if (written == NULL) {
            return NULL;
        }
        Py_DECREF(written);
    }
    return mt_return_type_new(rule->name, 1, outs);
}

/* the op given a tuple as out=: run as its functional form, its results written into out's */
static PyObject *
tuple_call(const struct mt_out_rule *rule, PyObject *(*call)(const mt_call *), const mt_call *c, int nargs,
           int out_pos)
{
    mt_arg args[MT_PARSE_MAX_PARAMS];
    mt_call fc = *c;
    PyObject *outs[MAX_OUTS] = {NULL};
    PyObject *result;
    PyObject *written = NULL;
    int n = mt_return_type_size(rule->name);

    if (n < 0 || n > MAX_OUTS) {
        PyErr_Format(PyExc_SystemError, "%s(): no return type for out=", rule->name);
        return NULL;
    }
    if (take_tuple(c->args[out_pos].obj, n, out_pos + 1, outs) < 0) {
        return NULL;
    }
    memcpy(args, c->args, sizeof(mt_arg) * (size_t)nargs);
    args[out_pos].obj = NULL;
    args[out_pos].tensor = NULL;
    fc.args = args;
    result = call(&fc);
    if (result != NULL) {
        written = write_tuple(rule, n, result, outs);
        Py_DECREF(result);
    }
    release_outs(outs, MAX_OUTS);
    return written;
}

/* ---- one tensor ----------------------------------------------------------------------------------------- */

/* OUT_RESULT_STRIDES: structured kernels' resize_out, resize_output then as_strided_ to the meta
 * function's strides (the result's own, here), for an out of another shape. 0 or -1. */
static int
restride(const struct mt_out_rule *rule, const mt_TensorObject *r, mt_TensorObject *out)
{
    int same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim) == 0;

    /* a result cast to out's dtype goes through a temporary: out is resized row-major (householder_product) */
    if (!(rule->flags & OUT_RESULT_STRIDES) || same || !mt_tensor_is_non_overlapping_and_dense(r)
        || ((rule->kind == MT_OUT_CAST || rule->kind == MT_OUT_MESSAGE) && out->dtype != r->dtype)
        || (rule->kind == MT_OUT_MESSAGE && !mt_device_equal(mt_tensor_device(out), mt_tensor_device(r)))
        || ((rule->flags & OUT_COPY_PATH) && mt_tensor_numel(out) != 0)) {
        return 0;
    }
    if (mt_out_check_dtype_device(out->dtype, mt_tensor_device(out), r->dtype, mt_tensor_device(r)) < 0 ||
        mt_resize_output(out, r->ndim, r->sizes) < 0) {
        return -1;
    }
    return mt_tensor_set_geometry(out, r->ndim, r->sizes, r->strides);
}

/* how torch writes out= with a meta result for the rule's op: its out_wrapper casting or wanting the same
 * dtype, or its C++ meta function (the rule's own words) */
static mt_out_meta
meta_rule(const struct mt_out_rule *rule)
{
    if (rule->flags & OUT_META_EXACT) {
        return MT_OUT_META_EXACT;
    }
    if ((rule->flags & OUT_META_CAST) || rule->kind == MT_OUT_ITER || rule->kind == MT_OUT_CAT
        || (rule->kind == MT_OUT_CAST && rule->message == NULL)) {
        return MT_OUT_META_CAST;
    }
    return MT_OUT_META_KERNEL;
}

/* the functional result written into out by the rule's kind, in the rule's words */
static PyObject *
write_one(const struct mt_out_rule *rule, PyObject *result, mt_TensorObject *out)
{
    char msg[512];

    if (rule->message != NULL && mt_Tensor_Check(result)) {
        format_message(rule->message, (mt_TensorObject *)result, out, msg, sizeof msg);
    }
    if ((rule->flags & OUT_RESIZE_FIRST) && mt_Tensor_Check(result)
        && mt_resize_output(out, ((mt_TensorObject *)result)->ndim, ((mt_TensorObject *)result)->sizes) < 0) {
        return NULL;
    }
    if (mt_Tensor_Check(result) && restride(rule, (mt_TensorObject *)result, out) < 0) {
        return NULL;
    }
    if ((rule->flags & OUT_COPY) && mt_Tensor_Check(result)) {
        /* the composite's own check (the same dtype, or with MT_OUT_CAST one the result can be cast to:
         * linalg.tensorinv, linalg.cond), resize_output, then Tensor.copy_ (which autograd records) */
        mt_TensorObject *r = (mt_TensorObject *)result;
        PyObject *copied;
        if (r->dtype != out->dtype && (rule->kind != MT_OUT_CAST || !mt_can_cast(r->dtype, out->dtype))) {
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
        if (mt_resize_output(out, r->ndim, r->sizes) < 0) {
            return NULL;
        }
        copied = PyObject_CallMethod((PyObject *)out, "copy_", "O", result);
        if (copied == NULL) {
            return NULL;
        }
        Py_DECREF(copied);
        Py_INCREF(out);
        return (PyObject *)out;
    }
    return mt_out_write(out, result, rule->kind, rule->message != NULL ? msg : NULL, meta_rule(rule));
}

PyObject *
mt_bind_out_call(const struct mt_out_rule *rule, PyObject *(*call)(const mt_call *), const mt_call *c, int nargs,
                 int out_pos, int dtype_pos, int device_pos)
{
    mt_arg args[MT_PARSE_MAX_PARAMS];
    mt_call fc = *c;
    mt_TensorObject *out = (mt_TensorObject *)c->args[out_pos].obj;
    mt_arg *dtype;
    PyObject *result;
    PyObject *written;
    int result_is_out_dtype = 0;
    struct mt_out_rule adjusted;   /* the rule as this call takes it (a 1-D diag, a meta reference) */
    int meta_dispatch;

    if (PyTuple_Check((PyObject *)out) || PyList_Check((PyObject *)out) || (rule->flags & OUT_TUPLE)) {
        const struct mt_out_rule *tuple = rule_for(rule->name, 1);
        if (tuple == NULL) {
            PyErr_Format(PyExc_SystemError, "%s(): out= takes one tensor", rule->name);
            return NULL;
        }
        return tuple_call(tuple, call, c, nargs, out_pos);
    }
    if (!mt_Tensor_Check((PyObject *)out)) {
        /* a number where the parser takes one for a Tensor: torch writes into it as a wrapped number, a
         * new 0-d CPU tensor of the number's own type (int64, float64, bool), and returns that */
        mt_scalar v = c->args[out_pos].scalar;
        mt_TensorObject *wrapped = mt_tensor_empty(0, NULL, v.kind, mt_cpu_device());
        if (wrapped == NULL || mt_fill_(wrapped, v) < 0) {
            Py_XDECREF(wrapped);
            return NULL;
        }
        memcpy(args, c->args, sizeof(mt_arg) * (size_t)nargs);
        args[out_pos].obj = (PyObject *)wrapped;
        args[out_pos].tensor = wrapped;
        fc.args = args;
        written = mt_bind_out_call(rule, call, &fc, nargs, out_pos, dtype_pos, device_pos);
        Py_DECREF(wrapped);
        return written;
    }
    if ((rule->flags & OUT_FLOATING_IN) && c->args[0].obj != NULL && mt_Tensor_Check(c->args[0].obj)
        && !mt_dtype_is_floating(c->args[0].tensor->dtype)) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s(): integral types and 'Bool' are not supported for %s, even for empty tensors.", rule->name,
                     rule->name);
        return NULL;
    }
    if ((rule->flags & OUT_FIRST_OVERLOAD) && c->overload != 0) {
        rule++;
    }
    if ((rule->flags & OUT_VECTOR_EMBEDS) && c->args[0].obj != NULL && mt_Tensor_Check(c->args[0].obj)
        && c->args[0].tensor->ndim == 1) {
        char msg[256];
        if (!mt_can_cast(c->args[0].tensor->dtype, out->dtype)) {
            format_message(rule->message, c->args[0].tensor, out, msg, sizeof msg);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
        adjusted = *rule;
        adjusted.flags = (adjusted.flags & ~(unsigned)OUT_META_EXACT) | OUT_META_CAST;
        adjusted.message = NULL;
        rule = &adjusted;
    }
    /* a meta tensor among the arguments (out too) sends the op to torch's meta function or reference */
    meta_dispatch = out_pos > 0 && c->args[0].obj != NULL && mt_Tensor_Check(c->args[0].obj)
                    && (mt_tensor_device(c->args[0].tensor).type == MT_DEVICE_META
                        || mt_tensor_device(out).type == MT_DEVICE_META);
    if ((rule->flags & OUT_META_REF) && meta_dispatch) {
        adjusted = *rule;
        adjusted.flags = (adjusted.flags & ~(unsigned)(OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT | OUT_FLOATING_OUT
                                                       | OUT_TELL_DTYPE)) | OUT_META_CAST;
        rule = &adjusted;
    }
    if (meta_rule(rule) != MT_OUT_META_KERNEL && meta_dispatch
        && mt_out_check_meta_device(c->args[0].tensor, out) < 0) {
        return NULL;    /* out_wrapper checks out against a first tensor argument before the op runs */
    }
    if ((rule->flags & OUT_FLOATING_OUT) && !mt_dtype_is_floating(out->dtype)) {
        char msg[256];
        format_message(rule->message, out, out, msg, sizeof msg);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    memcpy(args, c->args, sizeof(mt_arg) * (size_t)nargs);
    if ((rule->flags & OUT_UNARY) && rule->kind == MT_OUT_MESSAGE && nargs > 0 && args[0].obj != NULL
        && mt_Tensor_Check(args[0].obj) && !args[0].tensor->requires_grad
        && mt_tensor_device(args[0].tensor).type != MT_DEVICE_META) {
        mt_dtype result_dtype;
        if (mt_unary_result_dtype(rule->unary, args[0].tensor, &result_dtype) < 0) {
            return NULL;
        }
        if (result_dtype == args[0].tensor->dtype && result_dtype != out->dtype) {
            char msg[256];
            format_message(rule->message, args[0].tensor, out, msg, sizeof msg);
            PyErr_SetString(PyExc_RuntimeError, msg);
            return NULL;
        }
        /* checked before the op: its one kernel may write out as a cast rule's does */
        result_is_out_dtype = result_dtype == out->dtype;
    }
    dtype = dtype_pos >= 0 ? &args[dtype_pos] : NULL;
    if (rule->kind != MT_OUT_SAME && rule->kind != MT_OUT_MESSAGE
        && check_overlaps(out, args, nargs, out_pos, rule->kind == MT_OUT_CAT) < 0) {
        return NULL;
    }
    if (rule->flags & OUT_FACTORY) {
        if (check_factory(out, dtype, device_pos >= 0 ? &args[device_pos] : NULL) < 0) {
            return NULL;
        }
        if (mt_out_check_grad(rule->op, NULL, out) < 0) {
            return NULL;
        }
        if (device_pos >= 0) {
            args[device_pos].device = mt_tensor_device(out);
            args[device_pos].obj = (PyObject *)out;  /* given: any non-NULL object marks it */
        }
    }
    if (dtype != NULL && dtype->obj != NULL && (rule->flags & OUT_DTYPE_CHECK) && dtype->dtype != out->dtype) {
        if (rule->flags & OUT_REDUCTION_DTYPE) {
            PyErr_Format(PyExc_RuntimeError, "%s: provided dtype must match dtype of result. Got %s and %s.", rule->op,
                         mt_dtype_scalar_name(out->dtype), mt_dtype_scalar_name(dtype->dtype));
            return NULL;
        }
        (void)mt_out_check_dtype_device(out->dtype, mt_tensor_device(out), dtype->dtype, mt_tensor_device(out));
        return NULL;
    }
    if (dtype != NULL && dtype->obj == NULL && (rule->flags & (OUT_DTYPE_FROM_OUT | OUT_FACTORY))) {
        dtype->dtype = out->dtype;
        dtype->obj = mt_dtype_object(out->dtype);
    }
    args[out_pos].obj = NULL;
    args[out_pos].tensor = NULL;
    fc.args = args;
    if (rule->flags & OUT_TELL_DTYPE) {
        fc.out_dtype = out->dtype;
    }
    if ((rule->flags & OUT_IN_OUT_DTYPE) && args[0].obj != NULL && mt_Tensor_Check(args[0].obj)
        && mt_dtype_is_floating(args[0].tensor->dtype) && mt_dtype_is_floating(out->dtype)
        && args[0].tensor->dtype != out->dtype) {
        /* torch computes these in out's dtype */
        mt_TensorObject *in = mt_copy_to(args[0].tensor, out->dtype, mt_tensor_device(args[0].tensor));
        if (in == NULL) {
            return NULL;
        }
        args[0].obj = (PyObject *)in;
        args[0].tensor = in;
        result = call(&fc);
        Py_DECREF(in);
    }
    else {
        int offered = offers_out(rule, out, c->args, nargs, out_pos, result_is_out_dtype);
        if (offered) {
            mt_pointwise_offer_out(out);
        }
        result = call(&fc);
        if (offered) {
            mt_pointwise_offer_out(NULL);
        }
    }
    if (result == NULL) {
        return NULL;
    }
    if (!(rule->flags & OUT_NONDIFF) && mt_out_check_grad(rule->op, result, out) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    if ((rule->flags & OUT_RANGE) && mt_Tensor_Check(result)) {
        mt_TensorObject *r = (mt_TensorObject *)result;
        if (warn_range(out, r) < 0) {
            Py_DECREF(result);
            return NULL;
        }
        if (mt_tensor_numel(out) == mt_tensor_numel(r) && out->ndim != 1) {
            /* arange fills out in its own shape when the count agrees */
            mt_TensorObject *shaped = mt_view(r, out->ndim, out->sizes);
            Py_DECREF(result);
            if (shaped == NULL) {
                return NULL;
            }
            result = (PyObject *)shaped;
        }
    }
    if (rule->flags & OUT_NO_COPY) {
        mt_TensorObject *r = (mt_TensorObject *)result;
        int rc = mt_resize_(out, r->ndim, r->sizes, MT_NUM_MEMORY_FORMATS);
        Py_DECREF(result);
        if (rc < 0) {
            return NULL;
        }
        Py_INCREF(out);
        return (PyObject *)out;
    }
    written = write_one(rule, result, out);
    Py_DECREF(result);
    return written;
}

/* _C._write_out(name, out, compute): out= for an op written in Python, by the rule of `name` above:
 * compute() gives the functional result (a tensor, or a (values, indices) pair for a pair given as out),
 * which is written into out as bind.c's ops write theirs. Returns out (return_types.<name>_out for a
 * pair). */
static PyObject *
write_out_py(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    const struct mt_out_rule *rule;
    const char *name;
    PyObject *outs[MAX_OUTS] = {NULL};
    PyObject *result;
    PyObject *written = NULL;
    int tuple;
    int n = -1;

    (void)module;
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "_write_out(name, out, compute)");
        return NULL;
    }
    name = PyUnicode_AsUTF8(args[0]);
    if (name == NULL) {
        return NULL;
    }
    tuple = !mt_Tensor_Check(args[1]);
    rule = rule_for(name, tuple);
    if (rule == NULL || (tuple && ((n = mt_return_type_size(name)) < 0 || n > MAX_OUTS))) {
        PyErr_Format(PyExc_SystemError, "%s(): no out= rule for %s", name, tuple ? "a tuple" : "a tensor");
        return NULL;
    }
    if (tuple && take_tuple(args[1], n, 1, outs) < 0) {
        return NULL;
    }
    result = PyObject_CallNoArgs(args[2]);
    if (result == NULL) {
        goto done;
    }
    if (tuple) {
        written = write_tuple(rule, n, result, outs);
    }
    else if ((rule->flags & (OUT_NONDIFF | OUT_COPY))
             || mt_out_check_grad(rule->op, result, (mt_TensorObject *)args[1]) == 0) {
        written = write_one(rule, result, (mt_TensorObject *)args[1]);
    }
    Py_DECREF(result);

done:
    release_outs(outs, MAX_OUTS);
    return written;
}

/* _C._resize_output(tensor, shape): at::native::resize_output, its warning included, for the ops written in
 * Python that draw into out themselves (normal) */
static PyObject *
resize_output_py(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int64_t sizes[MT_MAX_DIMS];
    Py_ssize_t n;

    (void)module;
    if (nargs != 2 || !mt_Tensor_Check(args[0]) || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) > MT_MAX_DIMS) {
        PyErr_SetString(PyExc_TypeError, "_resize_output(tensor, shape: a tuple of ints)");
        return NULL;
    }
    n = PyTuple_GET_SIZE(args[1]);
    for (Py_ssize_t i = 0; i < n; i++) {
        sizes[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(args[1], i));
        if (sizes[i] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (mt_resize_output((mt_TensorObject *)args[0], (int)n, sizes) < 0) {
        return NULL;
    }
    Py_INCREF(args[0]);
    return args[0];
}

/* _C._no_meta_kernel(op): torch's refusal of an op it has no meta kernel for (mt_raise_no_meta_kernel), for
 * the ops written in Python */
static PyObject *
no_meta_kernel_py(PyObject *module, PyObject *op)
{
    const char *name;

    (void)module;
    name = PyUnicode_Check(op) ? PyUnicode_AsUTF8(op) : NULL;
    if (name == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "_no_meta_kernel(op: str)");
        }
        return NULL;
    }
    mt_raise_no_meta_kernel(name);
    return NULL;
}

PyMethodDef mt_out_functions[] = {
    {"_no_meta_kernel", (PyCFunction)no_meta_kernel_py, METH_O,
     "_no_meta_kernel(op)\n\nRaises torch's NotImplementedError for an op with no meta kernel (\"aten::_unique2: "
     "attempted to run this operator with Meta tensors, ...\"), for the ops written in Python."},
    {"_resize_output", (PyCFunction)(void (*)(void))resize_output_py, METH_FASTCALL,
     "_resize_output(tensor, shape) -> tensor\n\ntorch's resize_output: the tensor resized in place to shape (a "
     "tuple), with its deprecation warning when it had elements."},
    {"_write_out", (PyCFunction)(void (*)(void))write_out_py, METH_FASTCALL,
     "_write_out(name, out, compute) -> out\n\nout= for an op written in Python: compute() is its functional "
     "result, written into out (a tensor or a (values, indices) pair) by the op's rule, as the C ops do."},
    {NULL, NULL, 0, NULL},
};

/* ---- Tensor.resize_ and resize_as_ -------------------------------------------------------------------- */

enum {
    Z_INPUT,
    Z_SIZE,
    Z_TEMPLATE,
    Z_MEMORY_FORMAT
};

static const char *const resize_roles[] = {"self|input", "size", "the_template", "memory_format", NULL};

static PyObject *
resize_call(const mt_call *c)
{
    mt_TensorObject *self = mt_call_arg(c, Z_INPUT)->tensor;
    const mt_arg *size = mt_call_arg(c, Z_SIZE);
    const mt_arg *like = mt_call_arg(c, Z_TEMPLATE);
    const mt_arg *format = mt_call_arg(c, Z_MEMORY_FORMAT);
    mt_memory_format f = format->obj != NULL ? format->memory_format : MT_NUM_MEMORY_FORMATS;
    int rc;

    if (like != NULL) {
        rc = mt_resize_(self, like->tensor->ndim, like->tensor->sizes, f);
    }
    else {
        rc = mt_resize_(self, size->nints, size->ints, f);
    }
    if (rc < 0 || mt_tensor_bump_version(self) < 0) {
        return NULL;
    }
    Py_INCREF(self);
    return (PyObject *)self;
}

const mt_binding mt_binding_resize = {resize_call, NULL, resize_roles};
