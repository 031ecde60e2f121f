/* out.c (python): out= for the ops of ops.def that compute a new tensor. bind.c hands a call whose out=
 * was given here when the op has a rule below: the op runs as its functional form (out= cleared; for the
 * reductions and factories with a dtype= the out tensor's dtype and device fill in what was not given, as
 * torch infers them from out), then csrc/ops/out.c writes the result into out with the rule of the op's
 * kind. The rules and messages are torch's, op by op (its TensorIterator ops cast, its structured kernels
 * want the same dtype, and several ops word that their own way). An op with no rule here still refuses
 * out= (mt_bind_refuse_out). */
#include <string.h>

#include "../core/dtype.h"
#include "../ops/copy.h"
#include "../ops/dispatch.h"
#include "../ops/out.h"
#include "../ops/shape.h"
#include "bind.h"

/* what the op's dtype= and device= mean next to out= */
#define OUT_DTYPE_CHECK 0x1         /* a given dtype must be out's (the structured kernels' message) */
#define OUT_DTYPE_FROM_OUT 0x2      /* no dtype given: out's (sum, cumsum: out decides the accumulation) */
#define OUT_FACTORY 0x4             /* factories: dtype and device come from out; torch's factory messages */
#define OUT_NO_COPY 0x8             /* empty(out=): out is only resized (resize_, no warning) */
#define OUT_RANGE 0x10              /* arange(out=): its own resize warning */
#define OUT_IN_OUT_DTYPE 0x40       /* var, std, logsumexp: a floating input is computed in out's floating dtype */
#define OUT_NONDIFF 0x20            /* no derivative in torch's table (floor_divide's node is NotImplemented):
                                     * no autograd refusal, out may require grad */

struct mt_out_rule {
    const char *name;               /* the function's Python name */
    const char *op;                 /* torch's name for it in the autograd refusal */
    mt_out_rule kind;
    unsigned flags;
    const char *message;            /* MT_OUT_MESSAGE: {r} the result's dtype name, {o} out's */
};

#define CAST(name, op) {name, op, MT_OUT_CAST, 0, NULL}
#define NONDIFF(name, op) {name, op, MT_OUT_CAST, OUT_NONDIFF, NULL}
#define FOUND(name, op) {name, op, MT_OUT_MESSAGE, 0, "Found dtype {o} but expected {r}"}
#define SAME(name, op) {name, op, MT_OUT_SAME, 0, NULL}
#define FACTORY(name, flags) {name, "aten::" name, MT_OUT_SAME, OUT_FACTORY | (flags), NULL}

/* torch's words, verbatim (an internal check's text, for max() and min() of all elements) */
#define CAN_CAST_CHECK                                                                                      \
    "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) to be true, but " \
    "got false.  (Could this error message be improved?  If so, please report an enhancement request to "       \
    "PyTorch.)"
#define AMAX_DTYPES                                                                                         \
    "Expected the dtype for input and out to match, but got {r} for input's dtype and {o} for out's dtype."

static const struct mt_out_rule rules[] = {
    /* TensorIterator's binary ops: the result cast into out */
    CAST("add", "add"), CAST("sub", "sub"), CAST("subtract", "sub"), CAST("mul", "mul"), CAST("multiply", "mul"),
    CAST("div", "div"), CAST("divide", "div"), CAST("true_divide", "div"), CAST("maximum", "maximum"),
    CAST("minimum", "minimum"), CAST("pow", "pow"), CAST("square", "pow"), CAST("fmod", "fmod"),
    CAST("remainder", "remainder"), NONDIFF("floor_divide", "floor_divide"), CAST("atan2", "atan2"),
    CAST("arctan2", "atan2"),
    /* comparisons, bitwise and logical ops (any out dtype takes their result), floor_divide: not
     * differentiable */
    NONDIFF("eq", "eq"), NONDIFF("ne", "ne"), NONDIFF("lt", "lt"), NONDIFF("le", "le"), NONDIFF("gt", "gt"),
    NONDIFF("ge", "ge"), NONDIFF("not_equal", "ne"), NONDIFF("less", "lt"), NONDIFF("less_equal", "le"),
    NONDIFF("greater", "gt"), NONDIFF("greater_equal", "ge"), NONDIFF("bitwise_and", "bitwise_and"),
    NONDIFF("bitwise_or", "bitwise_or"), NONDIFF("bitwise_xor", "bitwise_xor"),
    NONDIFF("bitwise_left_shift", "bitwise_left_shift"), NONDIFF("bitwise_right_shift", "bitwise_right_shift"),
    NONDIFF("logical_and", "logical_and"), NONDIFF("logical_or", "logical_or"), NONDIFF("logical_xor", "logical_xor"),
    NONDIFF("logical_not", "logical_not"),
    CAST("addcmul", "addcmul"), CAST("addcdiv", "addcdiv"), CAST("lerp", "lerp"),
    /* the unary ops computed in a floating dtype: cast too */
    CAST("exp", "exp"), CAST("log", "log"), CAST("sqrt", "sqrt"), CAST("reciprocal", "reciprocal"), CAST("sin", "sin"),
    CAST("cos", "cos"), CAST("tan", "tan"), CAST("asin", "asin"), CAST("arcsin", "asin"), CAST("acos", "acos"),
    CAST("arccos", "acos"), CAST("atan", "atan"), CAST("arctan", "atan"), CAST("sinh", "sinh"), CAST("cosh", "cosh"),
    CAST("tanh", "tanh"), CAST("asinh", "asinh"), CAST("arcsinh", "asinh"), CAST("acosh", "acosh"),
    CAST("arccosh", "acosh"), CAST("atanh", "atanh"), CAST("arctanh", "atanh"), CAST("sigmoid", "sigmoid"),
    CAST("exp2", "exp2"), CAST("expm1", "expm1"), CAST("log2", "log2"), CAST("log10", "log10"), CAST("log1p", "log1p"),
    CAST("rsqrt", "rsqrt"), CAST("erf", "erf"), CAST("erfinv", "erfinv"),
    /* the unary ops that keep their input's dtype, and clamp: the same dtype, in torch's words */
    FOUND("neg", "neg"), FOUND("negative", "neg"), FOUND("abs", "abs"), FOUND("absolute", "abs"), FOUND("sign", "sign"),
    FOUND("sgn", "sgn"), FOUND("floor", "floor"), FOUND("ceil", "ceil"), FOUND("trunc", "trunc"), FOUND("fix", "trunc"),
    FOUND("round", "round"), FOUND("frac", "frac"), FOUND("bitwise_not", "bitwise_not"), FOUND("clamp", "clamp"),
    FOUND("clip", "clamp"), FOUND("clamp_min", "clamp_min"), FOUND("clamp_max", "clamp_max"),
    {"where", "where", MT_OUT_MESSAGE, 0, "Expected out type to be {r} but got {o}"},
    {"nan_to_num", "nan_to_num", MT_OUT_MESSAGE, 0, "nan_to_num: dtype of out: {o} should be same as input: {r}"},
    /* reductions and scans */
    {"sum", "sum", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT, NULL},
    {"prod", "prod", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT, NULL},
    {"cumsum", "cumsum", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT, NULL},
    {"cumprod", "cumprod", MT_OUT_SAME, OUT_DTYPE_CHECK | OUT_DTYPE_FROM_OUT, NULL},
    {"mean", "mean", MT_OUT_CAST, OUT_DTYPE_CHECK, NULL},
    {"var", "var", MT_OUT_CAST, OUT_IN_OUT_DTYPE, NULL}, {"std", "std", MT_OUT_CAST, OUT_IN_OUT_DTYPE, NULL},
    {"logsumexp", "logsumexp", MT_OUT_CAST, OUT_IN_OUT_DTYPE, NULL},
    {"max", "max", MT_OUT_CAST, 0, CAN_CAST_CHECK}, {"min", "min", MT_OUT_CAST, 0, CAN_CAST_CHECK},
    {"all", "all", MT_OUT_MESSAGE, 0, "all only supports bool tensor for result, got: {o}"},
    {"any", "any", MT_OUT_MESSAGE, 0, "any only supports bool tensor for result, got: {o}"},
    SAME("argmax", "argmax"), SAME("argmin", "argmin"),
    {"amax", "amax", MT_OUT_MESSAGE, 0, AMAX_DTYPES}, {"amin", "amin", MT_OUT_MESSAGE, 0, AMAX_DTYPES},
    SAME("linalg_vector_norm", "linalg_vector_norm"), SAME("softmax", "_softmax"), SAME("log_softmax", "_log_softmax"),
    SAME("_softmax", "_softmax"), SAME("_log_softmax", "_log_softmax"),
    /* joins: cat's cast, with its TypeError */
    {"cat", "cat", MT_OUT_CAT, 0, NULL}, {"concat", "cat", MT_OUT_CAT, 0, NULL},
    {"concatenate", "cat", MT_OUT_CAT, 0, NULL}, {"stack", "stack", MT_OUT_CAT, 0, NULL},
    {"hstack", "cat", MT_OUT_CAT, 0, NULL}, {"vstack", "cat", MT_OUT_CAT, 0, NULL},
    /* structured kernels: the same dtype */
    SAME("tril", "tril"), SAME("triu", "triu"), SAME("diag", "diag"), SAME("gather", "gather"),
    SAME("scatter", "scatter"), SAME("scatter_add", "scatter_add"), SAME("index_add", "index_add"),
    {"index_select", "index_select", MT_OUT_MESSAGE, 0,
     "index_select(): self and result must have the same scalar type"},
    {"masked_select", "masked_select", MT_OUT_MESSAGE, 0,
     "masked_select(): self and result must have the same scalar type"},
    {"take", "take", MT_OUT_MESSAGE, 0,
     "take(): self and out expected to have the same dtype, but got self.dtype = {r} and out.dtype = {o}"},
    /* factories: out gives the dtype and the device */
    FACTORY("zeros", 0), FACTORY("ones", 0), FACTORY("empty", OUT_NO_COPY), FACTORY("full", 0),
    FACTORY("arange", OUT_RANGE), FACTORY("linspace", 0), FACTORY("logspace", 0), FACTORY("eye", 0),
    FACTORY("rand", 0), FACTORY("randn", 0), FACTORY("randint", 0), FACTORY("randperm", 0),
};

const struct mt_out_rule *
mt_out_rule_for(const char *name)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (strcmp(rules[i].name, name) == 0) {
            return &rules[i];
        }
    }
    return NULL;
}

/* the rule's message with {r} and {o} replaced by the dtype names */
static void
format_message(const char *message, mt_dtype r, mt_dtype o, char *buf, size_t len)
{
    size_t n = 0;

    for (const char *p = message; *p != '\0' && n + 1 < len; p++) {
        const char *name = NULL;
        if (p[0] == '{' && (p[1] == 'r' || p[1] == 'o') && p[2] == '}') {
            name = mt_dtype_scalar_name(p[1] == 'r' ? r : o);
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
    if (PyErr_WarnEx(PyExc_UserWarning, msg, 1) < 0) {
        return -1;
    }
    return mt_resize_((mt_TensorObject *)out, r->ndim, r->sizes, MT_NUM_MEMORY_FORMATS);
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
    char msg[512];

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
    memcpy(args, c->args, sizeof(mt_arg) * (size_t)nargs);
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
        result = call(&fc);
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
    if (rule->message != NULL && mt_Tensor_Check(result)) {
        format_message(rule->message, ((mt_TensorObject *)result)->dtype, out->dtype, msg, sizeof msg);
    }
    written = mt_out_write(out, result, rule->kind, rule->message != NULL ? msg : NULL);
    Py_DECREF(result);
    return written;
}

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
