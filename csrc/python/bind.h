/* bind.h: the one binding layer between Python and the ops. Every public op is a row of ops.def: torch's
 * signature strings, where it is reachable (minitorch.<name>, Tensor.<name>, the in-place <name>_ forms,
 * Tensor's operator slots), the binding that calls its C function, and its docstring. bind.c turns the
 * table into the module's functions, Tensor's methods and Tensor's number and comparison slots, all served
 * by one generic entry: parse the call with the row's signatures (argparse.c, torch's messages), then call
 * the row's binding with the converted values.
 *
 * A binding (python/<family>.c) reads the parsed values by role, the parameter names it declares, so it
 * never depends on where a parameter sits in one overload or another:
 *
 *     enum { R_INPUT, R_OTHER, R_ALPHA };
 *     static const char *const roles[] = {"input", "other", "alpha", NULL};
 *     static PyObject *call(const mt_call *c)
 *     {
 *         const mt_arg *alpha = mt_call_arg(c, R_ALPHA);   // NULL when this overload has no alpha
 *         ...
 *     }
 *     const mt_binding mt_binding_binary = {call, slot, roles};
 *
 * A role names the same parameter in every form of an op: a method's self is its function form's `Tensor
 * input` (or `Tensor self`), so one binding serves every form. */
#ifndef MT_BIND_H
#define MT_BIND_H

#include <Python.h>

#include "argparse.h"
#include "../kernels/op_math.h"

/* Where a row is reachable from Python. */
#define MT_FUNCTION (1u << 0)           /* minitorch.<name> */
#define MT_METHOD (1u << 1)             /* Tensor.<name>, the signatures without self */
#define MT_INPLACE_METHOD (1u << 2)     /* Tensor.<name>_ */
#define MT_INPLACE_FUNCTION (1u << 3)   /* minitorch.<name>_ */
#define MT_EVERY_FORM (MT_FUNCTION | MT_METHOD | MT_INPLACE_METHOD | MT_INPLACE_FUNCTION)
/* Tensor's operator slots the row serves, through its binding's slot function. */
#define MT_NB_ADD (1u << 4)
#define MT_NB_SUBTRACT (1u << 5)
#define MT_NB_MULTIPLY (1u << 6)
#define MT_NB_TRUE_DIVIDE (1u << 7)
#define MT_NB_INPLACE_ADD (1u << 8)
#define MT_NB_INPLACE_SUBTRACT (1u << 9)
#define MT_NB_INPLACE_MULTIPLY (1u << 10)
#define MT_NB_INPLACE_TRUE_DIVIDE (1u << 11)
#define MT_NB_MATRIX_MULTIPLY (1u << 12)
#define MT_NB_NEGATIVE (1u << 13)
#define MT_NB_ABSOLUTE (1u << 14)
#define MT_RICHCMP_LT (1u << 15)
#define MT_RICHCMP_LE (1u << 16)
#define MT_RICHCMP_EQ (1u << 17)
#define MT_RICHCMP_NE (1u << 18)
#define MT_RICHCMP_GT (1u << 19)
#define MT_RICHCMP_GE (1u << 20)

/* The form a call came through. */
enum {
    MT_V_FUNCTION,
    MT_V_METHOD,
    MT_V_INPLACE_METHOD,
    MT_V_INPLACE_FUNCTION,
    MT_V_COUNT
};

#define MT_BIND_MAX_ROLES 16

/* One call, parsed. */
typedef struct {
    const char *name;               /* as called: "add", "add_" (torch's messages name it so) */
    int code;                       /* the row's code (its op in the family's enum) */
    int variant;                    /* MT_V_* */
    mt_TensorObject *self;          /* method forms: self; NULL for module functions */
    int overload;                   /* which of the row's signatures matched, as ops.def lists them */
    const signed char *pos;         /* per role: its index in args, MT_POS_SELF, or -1 (no such parameter) */
    unsigned scalar_roles;          /* bit r: role r is a Scalar parameter in this overload */
    const mt_arg *args;             /* the values of the form's parameters (a method's without self) */
    mt_arg self_arg;                /* a method's self, as the value of its function form's `Tensor input` */
    mt_dtype out_dtype;             /* given out= whose dtype the op computes in (csrc/python/out.c tells the
                                     * ops with OUT_TELL_DTYPE, logsumexp), else MT_NUM_DTYPES */
} mt_call;

#define MT_POS_SELF (-2)

/* The role's value, or NULL when the matched overload (or this form of it: methods take no out=) has no
 * such parameter. Its obj is NULL when the argument was omitted or None (the value is then the default). */
static inline const mt_arg *
mt_call_arg(const mt_call *c, int role)
{
    int i = c->pos[role];
    return i >= 0 ? &c->args[i] : i == MT_POS_SELF ? &c->self_arg : NULL;
}

/* The object given for the role, or NULL (omitted, None, or no such parameter). */
static inline PyObject *
mt_call_given(const mt_call *c, int role)
{
    const mt_arg *a = mt_call_arg(c, role);
    return a != NULL ? a->obj : NULL;
}

/* 1 when the role is a Scalar parameter in the matched overload (a 0-d tensor given for it is its value,
 * as a Python number would be), 0 otherwise. */
static inline int
mt_call_is_scalar(const mt_call *c, int role)
{
    return (c->scalar_roles >> role) & 1u;
}

/* A family's binding. `call` reads the parsed values and calls the op's C function (new reference, or NULL
 * with an exception). `slot` serves the operator slots of the rows that name one (b is NULL for unary
 * slots; inplace is 1 for the in-place slots): it returns NotImplemented for operands that are not its. */
typedef struct {
    PyObject *(*call)(const mt_call *c);
    PyObject *(*slot)(int code, PyObject *a, PyObject *b, int inplace);
    const char *const *roles;       /* NULL-terminated parameter names; "a|b" names either */
} mt_binding;

/* out= is accepted only as None (or absent) by the ops that do not write into a given tensor yet: -1 with
 * NotImplementedError naming the op when the role was given, else 0. */
int mt_bind_refuse_out(const mt_call *c, int role);

/* out= for the ops that have a rule in csrc/python/out.c: bind.c looks the rule up by the function's name
 * once (NULL: none), and hands a call with out= given to mt_bind_out_call, which runs `call` as the
 * functional form and writes its result into out. nargs counts c->args; *_pos are the form's positions of
 * out, dtype and device (-1: none). */
struct mt_out_rule;
const struct mt_out_rule *mt_out_rule_for(const char *name);
/* The rule of a unary op whose name the table does not list: the ops computed in a floating dtype cast
 * their result into out (TensorIterator's rule), the others keep their input's dtype. */
const struct mt_out_rule *mt_out_rule_for_unary(mt_unary_op op);
PyObject *mt_bind_out_call(const struct mt_out_rule *rule, PyObject *(*call)(const mt_call *), const mt_call *c,
                           int nargs, int out_pos, int dtype_pos, int device_pos);

/* _C._write_out, the same protocol for the ops written in Python */
extern PyMethodDef mt_out_functions[];

/* _C._nll_loss (loss.c): nll_loss's computation, for nn.functional, which has checked its arguments */
extern PyMethodDef mt_loss_functions[];

/* _C._gelu (elementwise.c): gelu and its gradient by torch's CPU kernel */
extern PyMethodDef mt_elementwise_functions[];

/* _C._gemm_info (matmul.c): the host GEMM's micro-kernel per dtype and its thread count */
extern PyMethodDef mt_matmul_functions[];

/* set_num_threads, get_num_threads and _get_cpu_capability (threads.c: the host kernels' thread pool) */
extern PyMethodDef mt_threads_functions[];

/* The bindings, one per family (csrc/python/<family>.c). */
extern const mt_binding mt_binding_binary;      /* elementwise.c: add, sub, mul, div, comparisons ... */
extern const mt_binding mt_binding_rsub;        /* elementwise.c: rsub */
extern const mt_binding mt_binding_unary;       /* elementwise.c: neg, abs, exp, log, sqrt, relu ... */
extern const mt_binding mt_binding_std_sqrt;    /* elementwise.c: _std_sqrt */
extern const mt_binding mt_binding_logit;       /* elementwise.c: logit */
extern const mt_binding mt_binding_polygamma;   /* elementwise.c: polygamma */
extern const mt_binding mt_binding_clamp;       /* elementwise.c: clamp, clip, clamp_min, clamp_max */
extern const mt_binding mt_binding_where;       /* elementwise.c: where */
extern const mt_binding mt_binding_addc;        /* elementwise.c: addcmul, addcdiv */
extern const mt_binding mt_binding_lerp;        /* elementwise.c: lerp */
extern const mt_binding mt_binding_nan_to_num;  /* elementwise.c: nan_to_num */
extern const mt_binding mt_binding_promotion;   /* elementwise.c: result_type, can_cast, promote_types */
extern const mt_binding mt_binding_matmul;      /* matmul.c: matmul, mm, bmm, mv, dot and @ */
extern const mt_binding mt_binding_addmm;       /* matmul.c: addmm */
extern const mt_binding mt_binding_reduce;      /* reduce.c: sum, mean, max, min, all, any, argmax, argmin */
extern const mt_binding mt_binding_copy;        /* copy.c: to, cpu, cuda, float, ..., type_as, type, copy_ */
extern const mt_binding mt_binding_shape;       /* shape.c: view, reshape, transpose, squeeze, split, cat ... */
extern const mt_binding mt_binding_triangle;    /* shape.c: tril, triu, diag */
extern const mt_binding mt_binding_infer_size;  /* shape.c: _infer_size */
extern const mt_binding mt_binding_factory;     /* factory.c: zeros, ones, empty, full and their *_like forms */
extern const mt_binding mt_binding_range;       /* factory.c: arange, eye */
extern const mt_binding mt_binding_space;       /* factory.c: linspace, logspace */
extern const mt_binding mt_binding_random;      /* factory.c: rand, randn, randint, randperm, rand_like, ... */
extern const mt_binding mt_binding_fill;        /* factory.c: Tensor.fill_, zero_, uniform_, normal_, random_ */
extern const mt_binding mt_binding_tensor;      /* factory.c: tensor(data) */
extern const mt_binding mt_binding_tensor_attr; /* tensor_type.c: Tensor.is_contiguous, requires_grad_ */
extern const mt_binding mt_binding_pinned;      /* pinned.c: Tensor.pin_memory, is_pinned */
extern const mt_binding mt_binding_softmax;     /* softmax.c: softmax, log_softmax, _softmax, _log_softmax */
extern const mt_binding mt_binding_reduce_stats; /* reduce_stats.c: logsumexp, amax, amin, var, std, ..., vector_norm */
extern const mt_binding mt_binding_scan;        /* scan.c: cumsum, cumprod, prod */
extern const mt_binding mt_binding_sort;        /* sort.c: sort, argsort, topk */
extern const mt_binding mt_binding_gather;      /* gather.c: gather, scatter, scatter_add, index_select, index_add, index_fill, index_copy, index_put, masked_fill, masked_select, take */
extern const mt_binding mt_binding_rearrange;   /* rearrange.c: flip, roll, repeat, tile, movedim */
extern const mt_binding mt_binding_resize;       /* out.c: Tensor.resize_, resize_as_ */
extern const mt_binding mt_binding_inplace_view; /* inplace_view.c: squeeze_, unsqueeze_, t_, transpose_ */
extern const mt_binding mt_binding_linalg;      /* linalg.c: _linalg_det, _linalg_svd, _linalg_eigh ... */
extern const mt_binding mt_binding_window;      /* window.c: _im2col, _col2im, _max_pool_with_indices */
extern const mt_binding mt_binding_cudnn;       /* cudnn.c: _cudnn_convolution and its backward passes */
extern const mt_binding mt_binding_optim;       /* optim.c: _sgd_step */

/* The codes of mt_binding_cudnn's rows. */
enum {
    MT_CUDNN_CONVOLUTION,
    MT_CUDNN_CONVOLUTION_BACKWARD_INPUT,
    MT_CUDNN_CONVOLUTION_BACKWARD_WEIGHT
};

/* The codes of mt_binding_copy's rows (forms of to and copy_, csrc/ops/copy.h). */
enum {
    MT_COPY_TO,
    MT_COPY_CPU,
    MT_COPY_CUDA,
    MT_COPY_FLOAT,
    MT_COPY_DOUBLE,
    MT_COPY_INT,
    MT_COPY_LONG,
    MT_COPY_BOOL,
    MT_COPY_TYPE_AS,
    MT_COPY_TYPE,
    MT_COPY_COPY_,
    MT_COPY_BYTE,
    MT_COPY_CHAR,
    MT_COPY_SHORT,
    MT_COPY_HALF,
    MT_COPY_BFLOAT16
};

/* The codes of mt_binding_promotion's rows. */
enum {
    MT_PROMOTION_RESULT_TYPE,
    MT_PROMOTION_CAN_CAST,
    MT_PROMOTION_PROMOTE_TYPES
};

/* The codes of mt_binding_shape's rows (csrc/ops/shape.h). */
enum {
    MT_SHAPE_VIEW,
    MT_SHAPE_VIEW_AS,
    MT_SHAPE_RESHAPE,
    MT_SHAPE_RESHAPE_AS,
    MT_SHAPE_EXPAND,
    MT_SHAPE_EXPAND_AS,
    MT_SHAPE_T,
    MT_SHAPE_TRANSPOSE,
    MT_SHAPE_PERMUTE,
    MT_SHAPE_UNSQUEEZE,
    MT_SHAPE_SQUEEZE,
    MT_SHAPE_FLATTEN,
    MT_SHAPE_UNFLATTEN,
    MT_SHAPE_CONTIGUOUS,
    MT_SHAPE_CLONE,
    MT_SHAPE_NARROW,
    MT_SHAPE_SELECT,
    MT_SHAPE_DIAGONAL,
    MT_SHAPE_UNBIND,
    MT_SHAPE_CHUNK,
    MT_SHAPE_SPLIT,
    MT_SHAPE_AS_STRIDED,
    MT_SHAPE_UNFOLD,
    MT_SHAPE_CAT,
    MT_SHAPE_STACK,
    MT_SHAPE_HSTACK,
    MT_SHAPE_VSTACK
};

/* The codes of mt_binding_factory's rows: the fill (csrc/ops/factory.h's mt_factory_fill) or full's, with
 * MT_FACTORY_LIKE for the *_like forms; of mt_binding_random's: the mt_random_kind (with MT_FACTORY_LIKE for
 * rand_like and randn_like) or randint's; MT_FACTORY_NEW marks Tensor's new_empty, new_zeros, new_ones, new_full;
 * of mt_binding_tensor's: 0 for tensor(data), MT_TENSOR_NEW_TENSOR for Tensor.new_tensor. */
#define MT_FACTORY_LIKE 0x10
#define MT_FACTORY_NEW 0x20
#define MT_FACTORY_STRIDED 0x40  /* empty_strided, new_empty_strided */
#define MT_FACTORY_FULL 0x08
#define MT_RANDOM_INT 0x08
#define MT_RANDOM_PERM 0x09
#define MT_TENSOR_NEW_TENSOR 1

/* The codes of mt_binding_range's, mt_binding_pinned's, mt_binding_tensor_attr's and mt_binding_fill's rows. */
enum {
    MT_RANGE_ARANGE,
    MT_RANGE_EYE
};
enum {
    MT_PINNED_PIN_MEMORY,
    MT_PINNED_IS_PINNED,
    MT_PINNED_SHARE_MEMORY,
    MT_PINNED_IS_SHARED
};
enum {
    MT_ATTR_IS_CONTIGUOUS,
    MT_ATTR_REQUIRES_GRAD_,
    MT_ATTR_IS_INFERENCE
};
enum {
    MT_FILL_FILL,
    MT_FILL_ZERO,
    MT_FILL_UNIFORM,
    MT_FILL_NORMAL,
    MT_FILL_RANDOM
};

/* Builds the tables from ops.def (at module init, before anything else uses them). 0 or -1. */
int mt_bind_init(void);

/* The module's functions and Tensor's methods from the table, NULL-terminated, alive for the process. */
PyMethodDef *mt_bind_functions(void);
PyMethodDef *mt_bind_tensor_methods(void);

/* Appends Tensor's operator slots from the table to `slots` (room for `room` entries); returns how many. */
int mt_bind_tensor_slots(PyType_Slot *slots, int room);

/* The number of distinct operator slots (for sizing a slot array). */
#define MT_BIND_MAX_SLOTS 12

/* The codes of mt_binding_gather's rows. */
enum {
    MT_GATHER_GATHER,
    MT_GATHER_SCATTER,
    MT_GATHER_SCATTER_ADD,
    MT_GATHER_INDEX_SELECT,
    MT_GATHER_INDEX_ADD,
    MT_GATHER_MASKED_FILL,
    MT_GATHER_MASKED_SELECT,
    MT_GATHER_TAKE,
    MT_GATHER_INDEX_FILL,
    MT_GATHER_INDEX_COPY,
    MT_GATHER_INDEX_PUT,
    MT_GATHER_MASKED_SCATTER,
    MT_GATHER_SCATTER_REDUCE,
    MT_GATHER_INDEX_REDUCE,
    MT_GATHER_PUT
};

/* The codes of mt_binding_rearrange's rows. */
enum {
    MT_REARRANGE_FLIP,
    MT_REARRANGE_ROLL,
    MT_REARRANGE_REPEAT,
    MT_REARRANGE_TILE,
    MT_REARRANGE_MOVEDIM
};

#endif
