/* derivatives.c: one row per differentiable op (torch's node name and its backward formula, as
 * tools/autograd/derivatives.yaml and FunctionsManual.cpp write them), and what each op records when it
 * runs (record.h): the node, its edges, the tensors and numbers the formula reads. Formulas compute with
 * minitorch's own ops (the short calls at the top), so they run on every device and are themselves
 * recorded under create_graph=True. A formula computes only the gradients whose edge leads somewhere. */
#include "record.h"

#include <string.h>

#include "../ops/copy.h"
#include "../ops/elementwise.h"
#include "../ops/factory.h"
#include "../ops/gather.h"
#include "../ops/matmul.h"
#include "../ops/reduce.h"
#include "../ops/shape.h"
#include "ops_for_grad.h"

/* ---- the ops gradients are computed with ----------------------------------------------------------- */

static T *
binary(mt_binary_op op, T *a, T *b, mt_scalar *number, int inplace)
{
    mt_cx_operand x, y;

    if (a == NULL || (b == NULL && number == NULL)) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.tensor = a;
    if (b != NULL) {
        y.op.tensor = b;
    }
    else {
        y.op.scalar = *number;
    }
    return (T *)mt_binary(mt_binary_op_name(op), op, &x, &y, NULL, inplace ? a : NULL);
}

T *mt_g_add(T *a, T *b) { return binary(MT_BINARY_ADD, a, b, NULL, 0); }
T *mt_g_add_(T *a, T *b) { return binary(MT_BINARY_ADD, a, b, NULL, 1); }
T *mt_g_mul(T *a, T *b) { return binary(MT_BINARY_MUL, a, b, NULL, 0); }
T *mt_g_div(T *a, T *b) { return binary(MT_BINARY_DIV, a, b, NULL, 0); }
T *mt_g_eq(T *a, T *b) { return binary(MT_BINARY_EQ, a, b, NULL, 0); }
T *mt_g_mul_scalar(T *a, mt_scalar s) { return binary(MT_BINARY_MUL, a, NULL, &s, 0); }
T *mt_g_div_scalar(T *a, mt_scalar s) { return binary(MT_BINARY_DIV, a, NULL, &s, 0); }

T *
mt_g_neg(T *a)
{
    return a != NULL ? (T *)mt_unary(MT_UNARY_NEG, a, 0) : NULL;
}

static mt_scalar
int_scalar(int64_t v)
{
    mt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = MT_INT64;
    s.v.i = v;
    return s;
}

static mt_scalar
float_scalar(double v)
{
    mt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = MT_FLOAT64;
    s.v.d = v;
    return s;
}

T *
mt_g_to(T *a, mt_dtype dtype, mt_device device)
{
    if (a == NULL) {
        return NULL;
    }
    if (a->dtype == dtype && mt_tensor_device(a).type == device.type && mt_tensor_device(a).index == device.index) {
        Py_INCREF(a);
        return a;
    }
    return (T *)mt_to(a, &device, dtype, 0, 0, MT_PRESERVE_FORMAT);
}

T *
mt_g_zeros(int ndim, const int64_t *sizes, mt_dtype dtype, mt_device device)
{
    mt_factory_options opt;

    memset(&opt, 0, sizeof opt);
    opt.dtype = dtype;
    opt.has_device = 1;
    opt.device = device;
    opt.memory_format = MT_CONTIGUOUS_FORMAT;
    return (T *)mt_factory_sized(MT_FACTORY_ZEROS, ndim, sizes, &opt);
}

T *
mt_g_sum_dims(T *a, uint64_t mask, int keepdim)
{
    int64_t dims[MT_MAX_DIMS];
    int n = 0;

    if (a == NULL) {
        return NULL;
    }
    for (int d = 0; d < a->ndim; d++) {
        if (mask >> d & 1) {
            dims[n++] = d;
        }
    }
    return (T *)mt_reduce(MT_REDUCTION_SUM, a, dims, n, keepdim, MT_NUM_DTYPES);
}

T *
mt_g_sum_to(T *a, int ndim, const int64_t *sizes)
{
    int lead = a->ndim - ndim;
    uint64_t mask = 0;
    T *r;

    for (int d = 0; d < lead; d++) {
        mask |= 1ull << d;
    }
    for (int d = lead; d < a->ndim; d++) {
        if (sizes[d - lead] == 1 && a->sizes[d] != 1) {
            mask |= 1ull << d;
        }
    }
    if (mask == 0) {
        Py_INCREF(a);
        r = a;
    }
    else {
        r = mt_g_sum_dims(a, mask, 1);
    }
    if (r != NULL && lead > 0) {
        Py_SETREF(r, mt_view(r, ndim, sizes));
    }
    return r;
}

T *
mt_g_expand(T *a, int ndim, const int64_t *sizes)
{
    return a != NULL ? mt_expand(a, ndim, sizes) : NULL;
}

T *
mt_g_reshape(T *a, int ndim, const int64_t *sizes)
{
    return a != NULL ? mt_reshape(a, ndim, sizes) : NULL;
}

T *
mt_g_unsqueeze_dims(T *a, uint64_t mask, int out_ndim)
{
    T *r;

    if (a == NULL) {
        return NULL;
    }
    Py_INCREF(a);
    r = a;
    for (int d = 0; d < out_ndim && r != NULL; d++) {
        if (mask >> d & 1) {
            Py_SETREF(r, mt_unsqueeze(r, d));
        }
    }
    return r;
}

T *
mt_g_clone_contiguous(T *a)
{
    return a != NULL ? mt_clone_in_format(a, MT_CONTIGUOUS_FORMAT) : NULL;
}

T *
mt_g_copy_(T *dst, T *src)
{
    mt_scalar unused;

    memset(&unused, 0, sizeof unused);
    return dst != NULL && src != NULL ? (T *)mt_tensor_copy_(dst, src, unused, 0, 0.0, 0) : NULL;
}

/* ---- helpers for formulas --------------------------------------------------------------------------- */

#define NEEDS(node, i) ((node)->next[i].node != NULL)

static int
is_one(mt_scalar s)
{
    return mt_scalar_to_double(s) == 1.0;
}

/* torch's maybe_multiply: grad itself when s is 1. Steals grad. */
static T *
maybe_multiply(T *grad, mt_scalar s)
{
    T *r;

    if (grad == NULL || is_one(s)) {
        return grad;
    }
    r = mt_g_mul_scalar(grad, s);
    Py_DECREF(grad);
    return r;
}

/* Sets *out to a new reference of r (steals r); -1 when r is NULL (its error is set). */
static int
put(PyObject **out, T *r)
{
    *out = (PyObject *)r;
    return r != NULL ? 0 : -1;
}

static T *
input_sized(const mt_node *node, int i, T *(*op)(T *, int, const int64_t *), T *grad)
{
    return op(grad, node->meta[i].ndim, node->meta[i].sizes);
}

/* Temporaries of a formula, released together: each step's result is kept (a NULL marks the failure, and
 * every later step given it returns NULL too). */
typedef struct {
    T *t[12];
    int n;
} scratch;

static T *
keep(scratch *s, T *t)
{
    if (t != NULL && s->n < 12) {
        s->t[s->n++] = t;
    }
    return t;
}

static void
drop(scratch *s)
{
    for (int i = 0; i < s->n; i++) {
        Py_DECREF(s->t[i]);
    }
    s->n = 0;
}

static T *
unary(mt_unary_op op, T *a)
{
    return a != NULL ? (T *)mt_unary(op, a, 0) : NULL;
}

static T *
number_op(mt_binary_op op, T *a, double v)
{
    mt_scalar s = float_scalar(v);
    return binary(op, a, NULL, &s, 0);
}

/* the number v op a (v - a is torch's rsub with a number, v ** a its pow(Scalar, Tensor)) */
static T *
number_left(mt_binary_op op, double v, T *a)
{
    mt_cx_operand x, y;

    if (a == NULL) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.scalar = float_scalar(v);
    y.op.tensor = a;
    return (T *)mt_binary(mt_binary_op_name(op), op, &x, &y, NULL, NULL);
}

static T *
number_minus(double v, T *a)
{
    return number_left(MT_BINARY_SUB, v, a);
}

static T *
where(T *cond, T *a, mt_scalar *na, T *b, mt_scalar *nb)
{
    mt_operand x, y;

    if (cond == NULL || (a == NULL && na == NULL) || (b == NULL && nb == NULL)) {
        return NULL;
    }
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.tensor = a;
    if (a == NULL) {
        x.scalar = *na;
    }
    y.tensor = b;
    if (b == NULL) {
        y.scalar = *nb;
    }
    return (T *)mt_where(cond, &x, &y);
}

/* torch's pow_backward: grad * (exponent * self.pow(exponent - 1)), zeros for exponent 0 */
static T *
pow_scalar_backward(T *grad, T *self, mt_scalar exponent)
{
    scratch s = {{0}, 0};
    double e = mt_scalar_to_double(exponent);
    T *r;

    if (e == 0.0) {
        return mt_g_zeros(self->ndim, self->sizes, grad->dtype, mt_tensor_device(grad));
    }
    r = mt_g_mul(grad, keep(&s, number_op(MT_BINARY_MUL, keep(&s, number_op(MT_BINARY_POW, self, e - 1.0)), e)));
    drop(&s);
    return r;
}

/* ---- elementwise ------------------------------------------------------------------------------------ */

static int
add_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    if (NEEDS(node, 0)) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    if (NEEDS(node, 1)) {
        Py_INCREF(grad);
        return put(&out[1], maybe_multiply(grad, node->scalars[0]));
    }
    return 0;
}

static int
sub_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    if (NEEDS(node, 0)) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    if (NEEDS(node, 1)) {
        return put(&out[1], maybe_multiply(mt_g_neg(grad), node->scalars[0]));
    }
    return 0;
}

static int
rsub_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    /* number - alpha * self: only self has an edge */
    return put(&out[0], maybe_multiply(mt_g_neg((T *)grads[0]), node->scalars[0]));
}

/* The tensor saved in slot i (a new reference), or NULL when none was: nothing saved there, or a number
 * (mul and div keep a number operand in scalars[1] and mark its slot, so that a second backward fails as
 * torch's does once the graph is freed). *failed is set when unpacking raised. */
static T *
unpack_or_null(mt_node *node, int i, int *failed)
{
    T *t;

    if (!node->saved[i].saved || (node->saved[i].tensor == NULL && !node->released)) {
        return NULL;
    }
    t = mt_ag_unpack(node, i);
    *failed |= t == NULL;
    return t;
}

/* mul and div (node->ints[0] says which): other may be a number, kept in scalars[1] */
static int
mul_div_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    int divide = node->ints[0] == MT_BINARY_DIV, failed = 0, rc = 0;
    T *grad = (T *)grads[0], *self = unpack_or_null(node, 0, &failed), *other = unpack_or_null(node, 1, &failed);
    scratch s = {{0}, 0};

    if (!failed && !divide && NEEDS(node, 1)) {
        /* grad * self, made before self's gradient as torch's generated MulBackward0 does (the order of the
         * nodes a double backward records decides the order its gradients add up in) */
        rc = put(&out[1], mt_g_mul(grad, self));
    }
    if (!failed && rc == 0 && NEEDS(node, 0)) {
        /* grad * other, or grad / other */
        rc = put(&out[0], other != NULL ? (divide ? mt_g_div(grad, other) : mt_g_mul(grad, other))
                                        : (divide ? mt_g_div_scalar(grad, node->scalars[1])
                                                  : mt_g_mul_scalar(grad, node->scalars[1])));
    }
    if (!failed && rc == 0 && divide && NEEDS(node, 1)) {
        /* -grad * ((self / other) / other) */
        rc = put(&out[1], mt_g_mul(keep(&s, mt_g_neg(grad)), keep(&s, mt_g_div(keep(&s, mt_g_div(self, other)), other))));
    }
    drop(&s);
    Py_XDECREF(self);
    Py_XDECREF(other);
    return failed ? -1 : rc;
}

/* rsub(self, other, alpha) of two tensors, other - alpha * self: torch's inputs in its order (self, other) */
static int
rsub_tensors_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    if (NEEDS(node, 0) && put(&out[0], maybe_multiply(mt_g_neg(grad), node->scalars[0])) < 0) {
        return -1;
    }
    if (NEEDS(node, 1)) {
        Py_INCREF(grad);
        out[1] = (PyObject *)grad;
    }
    return 0;
}

static mt_derivative d_add = {"AddBackward0", add_backward, NULL};
static mt_derivative d_rsub_tensors = {"RsubBackward0", rsub_tensors_backward, NULL};
static mt_derivative d_sub = {"SubBackward0", sub_backward, NULL};
static mt_derivative d_rsub = {"RsubBackward1", rsub_backward, NULL};
static mt_derivative d_mul = {"MulBackward0", mul_div_backward, NULL};
static mt_derivative d_div = {"DivBackward0", mul_div_backward, NULL};

/* The other two-operand ops read their saved operands (self in slot 0, other in 1, the result in 2) and
 * the number operand (scalars[1]); node->ints[0] is the op, ints[1] the overload (0: tensor and number,
 * 1: two tensors, 2: number and tensor). */
enum { OVERLOAD_NUMBER, OVERLOAD_TENSORS, OVERLOAD_REFLECTED };



static int
binary_other_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_binary_op op = (mt_binary_op)node->ints[0];
    int overload = (int)node->ints[1], failed = 0, rc = 0;
    T *grad = (T *)grads[0];
    T *self = unpack_or_null(node, 0, &failed), *other = unpack_or_null(node, 1, &failed);
    T *result = unpack_or_null(node, 2, &failed);
    mt_scalar zero = int_scalar(0);
    scratch s = {{0}, 0};

    if (failed) {
        goto done;
    }
    switch (op) {
    case MT_BINARY_POW:
        if (overload == OVERLOAD_NUMBER) {
            rc = put(&out[0], pow_scalar_backward(grad, self, node->scalars[1]));
            break;
        }
        if (overload == OVERLOAD_REFLECTED) {
            /* number ** exponent: grad * (result * log(number)), 0 where the number is 0 and exponent >= 0 */
            double base = mt_scalar_to_double(node->scalars[1]);
            T *g = keep(&s, mt_g_mul(grad, keep(&s, number_op(MT_BINARY_MUL, result, log(base)))));
            if (base == 0.0) {
                rc = put(&out[0], where(keep(&s, binary(MT_BINARY_GE, other, NULL, &zero, 0)), NULL, &zero, g, NULL));
            }
            else {
                rc = put(&out[0], g != NULL ? (Py_INCREF(g), g) : NULL);
            }
            break;
        }
        if (NEEDS(node, 0)) {
            /* where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1))) */
            T *e1 = keep(&s, number_op(MT_BINARY_SUB, other, 1));
            T *g = keep(&s, mt_g_mul(grad, keep(&s, mt_g_mul(other, keep(&s, binary(MT_BINARY_POW, self, e1, NULL, 0))))));
            rc = put(&out[0], where(keep(&s, binary(MT_BINARY_EQ, other, NULL, &zero, 0)), NULL, &zero, g, NULL));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            /* grad * where(self == 0 & exponent >= 0, 0, result * self.log()) */
            T *cond = keep(&s, mt_g_mul(keep(&s, binary(MT_BINARY_EQ, self, NULL, &zero, 0)),
                                        keep(&s, binary(MT_BINARY_GE, other, NULL, &zero, 0))));
            T *rl = keep(&s, mt_g_mul(result, keep(&s, unary(MT_UNARY_LOG, self))));
            rc = put(&out[1], mt_g_mul(grad, keep(&s, where(cond, NULL, &zero, rl, NULL))));
        }
        break;
    case MT_BINARY_FMOD:
    case MT_BINARY_REMAINDER:
        if (NEEDS(node, 0)) {
            Py_INCREF(grad);
            out[0] = (PyObject *)grad;
        }
        if (overload == OVERLOAD_TENSORS && NEEDS(node, 1)) {
            /* -grad * self.div(other, rounding_mode='trunc' for fmod, 'floor' for remainder) */
            T *q = op == MT_BINARY_FMOD ? keep(&s, unary(MT_UNARY_TRUNC, keep(&s, mt_g_div(self, other))))
                                        : keep(&s, binary(MT_BINARY_FLOOR_DIVIDE, self, other, NULL, 0));
            rc = put(&out[1], mt_g_mul(keep(&s, mt_g_neg(grad)), q));
        }
        break;
    case MT_BINARY_ATAN2: {
        /* recip = (self * self + other * other).reciprocal() */
        T *recip = keep(&s, unary(MT_UNARY_RECIPROCAL, keep(&s, mt_g_add(keep(&s, mt_g_mul(self, self)),
                                                                       keep(&s, mt_g_mul(other, other))))));
        if (NEEDS(node, 0)) {
            rc = put(&out[0], mt_g_mul(keep(&s, mt_g_mul(grad, other)), recip));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_mul(keep(&s, mt_g_mul(grad, keep(&s, mt_g_neg(self)))), recip));
        }
        break;
    }
    case MT_BINARY_HYPOT:
        /* grad * self / result, grad * other / result */
        if (NEEDS(node, 0)) {
            rc = put(&out[0], mt_g_div(keep(&s, mt_g_mul(grad, self)), result));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_div(keep(&s, mt_g_mul(grad, other)), result));
        }
        break;
    case MT_BINARY_LOGADDEXP:
    case MT_BINARY_LOGADDEXP2:
        /* grad / (1 + exp(other - self)) and grad / (1 + exp(self - other)); pow(2, ...) for logaddexp2 */
        for (int k = 0; k < 2 && rc == 0; k++) {
            if (NEEDS(node, k)) {
                T *d = keep(&s, binary(MT_BINARY_SUB, k == 0 ? other : self, k == 0 ? self : other, NULL, 0));
                T *e = keep(&s, op == MT_BINARY_LOGADDEXP ? unary(MT_UNARY_EXP, d) : number_left(MT_BINARY_POW, 2, d));
                rc = put(&out[k], mt_g_div(grad, keep(&s, number_op(MT_BINARY_ADD, e, 1))));
            }
        }
        break;
    case MT_BINARY_XLOGY:
        if (overload == OVERLOAD_REFLECTED) {
            /* xlogy(number, other): grad * self / other */
            rc = put(&out[0], mt_g_div(keep(&s, mt_g_mul_scalar(grad, node->scalars[1])), other));
            break;
        }
        if (NEEDS(node, 0)) {
            /* xlogy(grad, other), 0 where self == 0 and other <= 0 (a number other > 0: no zeros) */
            T *g = keep(&s, binary(MT_BINARY_XLOGY, grad, other, &node->scalars[1], 0));
            T *cond = keep(&s, binary(MT_BINARY_EQ, self, NULL, &zero, 0));
            if (overload == OVERLOAD_TENSORS) {
                T *nonpositive = keep(&s, binary(MT_BINARY_LE, other, NULL, &zero, 0));
                cond = keep(&s, binary(MT_BINARY_LOGICAL_AND, cond, nonpositive, NULL, 0));
            }
            if (overload == OVERLOAD_NUMBER && mt_scalar_to_double(node->scalars[1]) > 0.0) {
                rc = put(&out[0], g != NULL ? (Py_INCREF(g), g) : NULL);
            }
            else {
                rc = put(&out[0], where(cond, NULL, &zero, g, NULL));
            }
        }
        if (rc == 0 && overload == OVERLOAD_TENSORS && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_div(keep(&s, mt_g_mul(grad, self)), other));
        }
        break;
    case MT_BINARY_SPECIAL_XLOG1PY:
        if (overload == OVERLOAD_REFLECTED) {
            /* xlog1py(number, other): grad * self / (other + 1) */
            rc = put(&out[0], mt_g_div(keep(&s, mt_g_mul_scalar(grad, node->scalars[1])),
                                       keep(&s, number_op(MT_BINARY_ADD, other, 1.0))));
            break;
        }
        if (NEEDS(node, 0)) {
            /* xlog1py(grad, other), 0 where self == 0 and other <= -1 (a number other > -1: no zeros) */
            mt_scalar minus_one = int_scalar(-1);
            T *g = keep(&s, binary(MT_BINARY_SPECIAL_XLOG1PY, grad, other, &node->scalars[1], 0));
            T *cond = keep(&s, binary(MT_BINARY_EQ, self, NULL, &zero, 0));
            if (overload == OVERLOAD_TENSORS) {
                T *at_most = keep(&s, binary(MT_BINARY_LE, other, NULL, &minus_one, 0));
                cond = keep(&s, binary(MT_BINARY_LOGICAL_AND, cond, at_most, NULL, 0));
            }
            if (overload == OVERLOAD_NUMBER && mt_scalar_to_double(node->scalars[1]) > -1.0) {
                rc = put(&out[0], g != NULL ? (Py_INCREF(g), g) : NULL);
            }
            else {
                rc = put(&out[0], where(cond, NULL, &zero, g, NULL));
            }
        }
        if (rc == 0 && overload == OVERLOAD_TENSORS && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_div(keep(&s, mt_g_mul(grad, self)), keep(&s, number_op(MT_BINARY_ADD, other, 1.0))));
        }
        break;
    case MT_BINARY_SPECIAL_ZETA:
        /* self: torch's not_implemented("zeta"); other: grad * -self * zeta(self + 1, other) */
        if (overload != OVERLOAD_REFLECTED && NEEDS(node, 0)) {
            PyErr_SetString(PyExc_NotImplementedError, "the derivative for 'zeta' is not implemented.");
            rc = -1;
            break;
        }
        if (overload == OVERLOAD_REFLECTED) {
            mt_cx_operand x, y;
            double v = mt_scalar_to_double(node->scalars[1]);
            T *z;

            memset(&x, 0, sizeof x);
            memset(&y, 0, sizeof y);
            x.op.scalar = float_scalar(v + 1.0);
            y.op.tensor = other;
            z = keep(&s, (T *)mt_binary("special_zeta", MT_BINARY_SPECIAL_ZETA, &x, &y, NULL, NULL));
            rc = put(&out[0], mt_g_mul(keep(&s, mt_g_mul_scalar(grad, float_scalar(-v))), z));
        }
        else if (NEEDS(node, 1)) {
            T *z = keep(&s, binary(MT_BINARY_SPECIAL_ZETA, keep(&s, number_op(MT_BINARY_ADD, self, 1.0)), other,
                                   NULL, 0));
            rc = put(&out[1], mt_g_mul(keep(&s, mt_g_mul(grad, keep(&s, mt_g_neg(self)))), z));
        }
        break;
    case MT_BINARY_COPYSIGN:
        if (NEEDS(node, 0)) {
            /* copysign_tensor_self_backward: grad * (result / self), 0 where self is 0 */
            T *ratio = keep(&s, where(keep(&s, binary(MT_BINARY_EQ, self, NULL, &zero, 0)), NULL, &zero,
                                      keep(&s, mt_g_div(result, self)), NULL));
            rc = put(&out[0], mt_g_mul(grad, ratio));
        }
        if (rc == 0 && overload == OVERLOAD_TENSORS && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_zeros(node->meta[1].ndim, node->meta[1].sizes, node->meta[1].dtype,
                                         node->meta[1].device));
        }
        break;
    case MT_BINARY_FMAX:
    case MT_BINARY_FMIN: {
        /* self's: grad where (self >= other) | other.isnan(), 0 elsewhere (<= for fmin); other's: the rest */
        T *holds = keep(&s, binary(op == MT_BINARY_FMAX ? MT_BINARY_GE : MT_BINARY_LE, self, other, NULL, 0));
        T *wins = keep(&s, binary(MT_BINARY_LOGICAL_OR, holds, keep(&s, unary(MT_UNARY_ISNAN, other)), NULL, 0));
        if (NEEDS(node, 0)) {
            rc = put(&out[0], where(wins, grad, NULL, NULL, &zero));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], where(wins, NULL, &zero, grad, NULL));
        }
        break;
    }
    case MT_BINARY_NEXTAFTER:
        /* torch's: grad where self != other, 0 elsewhere; other's gradient zeros */
        if (NEEDS(node, 0)) {
            rc = put(&out[0], where(keep(&s, mt_g_eq(self, other)), NULL, &zero, grad, NULL));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_zeros(node->meta[1].ndim, node->meta[1].sizes, node->meta[1].dtype,
                                         node->meta[1].device));
        }
        break;
    default: {
        /* maximum / minimum: where(self == other, grad / 2, grad), 0 where the other side wins */
        T *half = keep(&s, where(keep(&s, mt_g_eq(self, other)), keep(&s, mt_g_div_scalar(grad, int_scalar(2))), NULL,
                                 grad, NULL));
        mt_binary_op lose0 = op == MT_BINARY_MAXIMUM ? MT_BINARY_LT : MT_BINARY_GT;
        mt_binary_op lose1 = op == MT_BINARY_MAXIMUM ? MT_BINARY_GT : MT_BINARY_LT;
        if (NEEDS(node, 0)) {
            rc = put(&out[0], where(keep(&s, binary(lose0, self, other, NULL, 0)), NULL, &zero, half, NULL));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], where(keep(&s, binary(lose1, self, other, NULL, 0)), NULL, &zero, half, NULL));
        }
        break;
    }
    }

done:
    drop(&s);
    Py_XDECREF(self);
    Py_XDECREF(other);
    Py_XDECREF(result);
    return failed ? -1 : rc;
}

static mt_derivative d_pow[3] = {{"PowBackward0", binary_other_backward, NULL},
                                 {"PowBackward1", binary_other_backward, NULL},
                                 {"PowBackward2", binary_other_backward, NULL}};
static mt_derivative d_fmod[2] = {{"FmodBackward0", binary_other_backward, NULL},
                                  {"FmodBackward1", binary_other_backward, NULL}};
static mt_derivative d_remainder[2] = {{"RemainderBackward0", binary_other_backward, NULL},
                                       {"RemainderBackward1", binary_other_backward, NULL}};
static mt_derivative d_atan2 = {"Atan2Backward0", binary_other_backward, NULL};
static mt_derivative d_hypot = {"HypotBackward0", binary_other_backward, NULL};
static mt_derivative d_logaddexp = {"LogaddexpBackward0", binary_other_backward, NULL};
static mt_derivative d_logaddexp2 = {"Logaddexp2Backward0", binary_other_backward, NULL};
/* by overload: a number other, two tensors, a number self */
static mt_derivative d_xlogy[3] = {{"XlogyBackward2", binary_other_backward, NULL},
                                   {"XlogyBackward0", binary_other_backward, NULL},
                                   {"XlogyBackward1", binary_other_backward, NULL}};
static mt_derivative d_xlog1py[3] = {{"SpecialXlog1PyBackward2", binary_other_backward, NULL},
                                     {"SpecialXlog1PyBackward0", binary_other_backward, NULL},
                                     {"SpecialXlog1PyBackward1", binary_other_backward, NULL}};
static mt_derivative d_zeta[3] = {{"SpecialZetaBackward2", binary_other_backward, NULL},
                                  {"SpecialZetaBackward0", binary_other_backward, NULL},
                                  {"SpecialZetaBackward1", binary_other_backward, NULL}};
static mt_derivative d_copysign[2] = {{"CopysignBackward1", binary_other_backward, NULL},
                                      {"CopysignBackward0", binary_other_backward, NULL}};
static mt_derivative d_fmax = {"FmaxBackward0", binary_other_backward, NULL};
static mt_derivative d_fmin = {"FminBackward0", binary_other_backward, NULL};
static mt_derivative d_nextafter = {"NextafterBackward0", binary_other_backward, NULL};
static mt_derivative d_maximum = {"MaximumBackward0", binary_other_backward, NULL};
static mt_derivative d_minimum = {"MinimumBackward0", binary_other_backward, NULL};
/* torch's node for an op without a derivative (floor_divide; remainder of a number by a tensor): its
 * backward raises, naming the op */
static int
not_implemented_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_binary_op op = (mt_binary_op)node->ints[0];

    (void)grads;
    (void)out;
    PyErr_Format(PyExc_RuntimeError, "derivative for aten::%s is not implemented", mt_binary_op_name(op));
    return -1;
}

static mt_derivative d_not_implemented = {"NotImplemented", not_implemented_backward, NULL};

/* set_: torch's NotImplemented node over self and the source (a storage's tensor needs none) */
static int
set_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    (void)node;
    (void)grads;
    (void)out;
    PyErr_SetString(PyExc_RuntimeError, "derivative for set_ is not implemented");
    return -1;
}

static mt_derivative d_set = {"NotImplemented", set_backward, NULL};

int
mt_ag_set_(mt_TensorObject *self, mt_TensorObject *source)
{
    mt_TensorObject *in[2] = {self, source};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(&d_set, 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_set_inplace_output(node, self, 2, in);
    Py_DECREF(node);
    return rc;
}

/* torch's grad.zero_() formulas (div with a rounding mode, round(decimals=)): zeros for every input */
static int
zero_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    for (int i = 0; i < node->num_inputs; i++) {
        if (NEEDS(node, i)) {
            out[i] = (PyObject *)mt_g_zeros(grad->ndim, grad->sizes, grad->dtype, mt_tensor_device(grad));
            if (out[i] == NULL) {
                return -1;
            }
        }
    }
    return 0;
}

static mt_derivative d_div_rounding = {"DivBackward2", zero_backward, NULL};

/* an in-place comparison (x.eq_(y)) keeps self's floating dtype: torch records a node whose gradients are
 * zero, Backward0 for a number, Backward1 for a tensor */
static mt_derivative d_compare[][2] = {
    {{"EqBackward0", zero_backward, NULL}, {"EqBackward1", zero_backward, NULL}},
    {{"NeBackward0", zero_backward, NULL}, {"NeBackward1", zero_backward, NULL}},
    {{"LtBackward0", zero_backward, NULL}, {"LtBackward1", zero_backward, NULL}},
    {{"LeBackward0", zero_backward, NULL}, {"LeBackward1", zero_backward, NULL}},
    {{"GtBackward0", zero_backward, NULL}, {"GtBackward1", zero_backward, NULL}},
    {{"GeBackward0", zero_backward, NULL}, {"GeBackward1", zero_backward, NULL}},
};

static int
compare_inplace(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {a, b};
    int n = b != NULL ? 2 : 1;
    mt_node *node;
    int rc;

    /* the logical ops record nothing, in place or not (their outputs are not differentiable) */
    if (result != a || op > MT_BINARY_GE || !mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(&d_compare[op - MT_BINARY_EQ][b != NULL], n, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_set_inplace_output(node, result, n, in);
    Py_DECREF(node);
    return rc;
}

int
mt_ag_div_rounding(mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {a, b};
    int n = b != NULL ? 2 : 1;
    mt_node *node;
    int rc;

    if (a == NULL) {
        /* a number on the left: torch wraps it, a tensor that needs no gradient */
        in[0] = b;
        n = 1;
    }
    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(&d_div_rounding, n, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = result == a ? mt_ag_set_inplace_output(node, result, n, in) : mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

int
mt_ag_binary_needs_original(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b)
{
    /* the formulas that read self, which an in-place op overwrites */
    int reads_self = op == MT_BINARY_MUL || op == MT_BINARY_DIV || op == MT_BINARY_POW || op == MT_BINARY_ATAN2 ||
                     op == MT_BINARY_MAXIMUM || op == MT_BINARY_MINIMUM || op == MT_BINARY_FMOD ||
                     op == MT_BINARY_REMAINDER || (op >= MT_BINARY_XLOGY && op <= MT_BINARY_FMIN) ||
                     op == MT_BINARY_NEXTAFTER || op == MT_BINARY_SPECIAL_XLOG1PY || op == MT_BINARY_SPECIAL_ZETA;
    mt_TensorObject *in[2] = {a, b};
    return reads_self && mt_ag_needed(2, in);
}

int
mt_ag_binary(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b, mt_scalar number, mt_scalar alpha,
             int reflected, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[2] = {a, b};
    int overload = reflected ? OVERLOAD_REFLECTED : b == NULL ? OVERLOAD_NUMBER : OVERLOAD_TENSORS;
    int one_input = 0, saves = 0;     /* saves: bit 0 self, bit 1 other, bit 2 result */
    mt_TensorObject *self = original != NULL ? original : a;
    mt_derivative *d;
    mt_node *node;
    int rc = 0;

    if (MT_BINARY_IS_COMPARISON(op)) {
        return compare_inplace(op, a, b, result);
    }
    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    switch (op) {
    case MT_BINARY_ADD:
        d = &d_add;
        break;
    case MT_BINARY_SUB:
        /* number - tensor is torch's rsub(tensor, number): the tensor is the only input */
        d = reflected ? &d_rsub : &d_sub;
        one_input = reflected;
        break;
    case MT_BINARY_MUL:
        d = &d_mul;
        break;
    case MT_BINARY_DIV:
        d = &d_div;
        break;
    case MT_BINARY_POW:
        d = &d_pow[overload];
        one_input = reflected;
        saves = overload == OVERLOAD_NUMBER ? 1 : overload == OVERLOAD_TENSORS ? 7 : 6;
        break;
    case MT_BINARY_FMOD:
    case MT_BINARY_REMAINDER:
        if (reflected) {
            d = &d_not_implemented;
            one_input = 1;
            break;
        }
        d = op == MT_BINARY_FMOD ? &d_fmod[overload] : &d_remainder[overload];
        saves = overload == OVERLOAD_TENSORS ? 3 : 0;
        break;
    case MT_BINARY_ATAN2:
        d = &d_atan2;
        saves = 3;
        break;
    case MT_BINARY_MAXIMUM:
    case MT_BINARY_MINIMUM:
        d = op == MT_BINARY_MAXIMUM ? &d_maximum : &d_minimum;
        saves = 3;
        break;
    case MT_BINARY_HYPOT:
        d = &d_hypot;
        saves = 7;
        break;
    case MT_BINARY_LOGADDEXP:
    case MT_BINARY_LOGADDEXP2:
        d = op == MT_BINARY_LOGADDEXP ? &d_logaddexp : &d_logaddexp2;
        saves = 3;
        break;
    case MT_BINARY_XLOGY:
        d = &d_xlogy[overload];
        one_input = reflected;
        saves = overload == OVERLOAD_NUMBER ? 1 : overload == OVERLOAD_TENSORS ? 3 : 2;
        break;
    case MT_BINARY_COPYSIGN:
        d = &d_copysign[overload == OVERLOAD_TENSORS];
        saves = 5;
        break;
    case MT_BINARY_FMAX:
    case MT_BINARY_FMIN:
        d = op == MT_BINARY_FMAX ? &d_fmax : &d_fmin;
        saves = 3;
        break;
    case MT_BINARY_NEXTAFTER:
        d = &d_nextafter;
        saves = 3;
        break;
    case MT_BINARY_SPECIAL_XLOG1PY:
        d = &d_xlog1py[overload];
        one_input = reflected;
        saves = overload == OVERLOAD_NUMBER ? 1 : overload == OVERLOAD_TENSORS ? 3 : 2;
        break;
    case MT_BINARY_SPECIAL_ZETA:
        d = &d_zeta[overload];
        one_input = reflected;
        saves = overload == OVERLOAD_NUMBER ? 0 : overload == OVERLOAD_TENSORS ? 3 : 2;
        break;
    default:
        d = &d_not_implemented;    /* floor_divide */
        break;
    }
    node = mt_ag_node(d, one_input ? 1 : 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = alpha;
    node->scalars[1] = number;
    node->ints[0] = op;
    node->ints[1] = overload;
    if (op == MT_BINARY_MUL || op == MT_BINARY_DIV) {
        /* mul saves each operand for the other's gradient; div saves both for other's */
        if (b != NULL && (NEEDS(node, 0) || op == MT_BINARY_DIV) && (rc = mt_ag_save(node, 1, b, 0)) < 0) {
            goto done;
        }
        if (b == NULL) {
            /* torch saves the number as a wrapped tensor, freed like any saved tensor */
            node->saved[1].saved = 1;
        }
        if (NEEDS(node, 1) && (rc = mt_ag_save(node, 0, self, 0)) < 0) {
            goto done;
        }
    }
    if (reflected && (saves & 2)) {
        /* number ** exponent: the exponent is the node's one input */
        saves &= ~2;
        if ((rc = mt_ag_save(node, 1, a, 0)) < 0) {
            goto done;
        }
    }
    if (((saves & 1) && (rc = mt_ag_save(node, 0, self, 0)) < 0) ||
        ((saves & 2) && (rc = mt_ag_save(node, 1, b, 0)) < 0)) {
        goto done;
    }
    rc = result == a ? mt_ag_set_inplace_output(node, result, one_input ? 1 : 2, in)
                     : mt_ag_set_output(node, result, 0);
    if (rc == 0 && (saves & 4)) {
        rc = mt_ag_save(node, 2, result, 1);
    }

done:
    Py_DECREF(node);
    return rc;
}

int
mt_ag_rsub(mt_TensorObject *self, mt_TensorObject *other, mt_scalar alpha, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {self, other};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(&d_rsub_tensors, 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = alpha;
    rc = mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

/* ---- unary ------------------------------------------------------------------------------------------ */

/* What a unary op's node keeps for its formula. */
enum { SAVE_NONE, SAVE_INPUT, SAVE_RESULT };

/* torch's i1_backward and i1e_backward: grad * (i0(x) - result / x) for i1, grad * (i0e(x) - result *
 * (sgn(x) + 1 / x)) for i1e, with x replaced by eps where |x| <= eps (the dtype's epsilon) and 0.5 there */
static T *
bessel_i1_backward(mt_unary_op op, T *grad, T *x, scratch *s)
{
    mt_scalar eps = float_scalar(x->dtype == MT_FLOAT64 ? 2.220446049250313e-16 : 1.1920928955078125e-07);
    mt_scalar half = float_scalar(0.5);
    T *not_tiny = keep(s, binary(MT_BINARY_GT, keep(s, unary(MT_UNARY_ABS, x)), NULL, &eps, 0));
    T *safe = keep(s, where(not_tiny, x, NULL, NULL, &eps));
    T *result = keep(s, unary(op, x));
    T *factor = op == MT_UNARY_SPECIAL_I1
                    ? keep(s, mt_g_mul(result, keep(s, unary(MT_UNARY_RECIPROCAL, safe))))
                    : keep(s, mt_g_mul(result, keep(s, mt_g_add(keep(s, unary(MT_UNARY_SGN, safe)),
                                                                keep(s, unary(MT_UNARY_RECIPROCAL, safe))))));
    T *gradx = keep(s, binary(MT_BINARY_SUB,
                              keep(s, unary(op == MT_UNARY_SPECIAL_I1 ? MT_UNARY_I0 : MT_UNARY_SPECIAL_I0E, safe)),
                              factor, NULL, 0));

    return mt_g_mul(grad, keep(s, where(not_tiny, gradx, NULL, NULL, &half)));
}

/* grad * f(x) for the formulas of the form "grad times something of self or result" */
static T *
unary_formula(mt_unary_op op, T *grad, T *x, scratch *s)
{
    switch (op) {
    case MT_UNARY_NEG:
        return mt_g_neg(grad);
    case MT_UNARY_ABS:
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_SIGN, x)));
    case MT_UNARY_RELU: {
        /* threshold_backward(grad, result, 0): 0 where result <= 0 */
        mt_scalar zero = int_scalar(0);
        return where(keep(s, binary(MT_BINARY_LE, x, NULL, &zero, 0)), NULL, &zero, grad, NULL);
    }
    case MT_UNARY_SQUARE:
        return pow_scalar_backward(grad, x, int_scalar(2));
    case MT_UNARY_SIGN:
    case MT_UNARY_SGN:
    case MT_UNARY_FLOOR:
    case MT_UNARY_CEIL:
    case MT_UNARY_TRUNC:
    case MT_UNARY_ROUND:
        return mt_g_zeros(grad->ndim, grad->sizes, grad->dtype, mt_tensor_device(grad));
    case MT_UNARY_FRAC:
        Py_INCREF(grad);
        return grad;
    case MT_UNARY_EXP:
        return mt_g_mul(grad, x);
    case MT_UNARY_LOG:
        return mt_g_div(grad, x);
    case MT_UNARY_SQRT: /* grad / (2 * result) */
        return mt_g_div(grad, keep(s, mt_g_mul_scalar(x, int_scalar(2))));
    case MT_UNARY_SIN:
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_COS, x)));
    case MT_UNARY_COS:
        return mt_g_mul(grad, keep(s, mt_g_neg(keep(s, unary(MT_UNARY_SIN, x)))));
    case MT_UNARY_TAN: /* grad * (1 + result.pow(2)) */
        return mt_g_mul(grad, keep(s, number_op(MT_BINARY_ADD, keep(s, number_op(MT_BINARY_POW, x, 2)), 1)));
    case MT_UNARY_ASIN: /* grad * (-self * self + 1).rsqrt() */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_RSQRT,
                                            keep(s, number_op(MT_BINARY_ADD, keep(s, mt_g_mul(keep(s, mt_g_neg(x)), x)), 1)))));
    case MT_UNARY_ACOS: /* grad * -((-self * self + 1).rsqrt()) */
        return mt_g_mul(grad, keep(s, mt_g_neg(keep(s, unary(MT_UNARY_RSQRT,
            keep(s, number_op(MT_BINARY_ADD, keep(s, mt_g_mul(keep(s, mt_g_neg(x)), x)), 1)))))));
    case MT_UNARY_ATAN: /* grad / (self * self + 1) */
        return mt_g_div(grad, keep(s, number_op(MT_BINARY_ADD, keep(s, mt_g_mul(x, x)), 1)));
    case MT_UNARY_SINH:
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_COSH, x)));
    case MT_UNARY_COSH:
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_SINH, x)));
    case MT_UNARY_TANH: /* tanh_backward: grad * (1 - result * result) */
        return mt_g_mul(grad, keep(s, number_minus(1, keep(s, mt_g_mul(x, x)))));
    case MT_UNARY_ASINH: /* grad * (self.pow(2) + 1).rsqrt() */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_RSQRT,
                                            keep(s, number_op(MT_BINARY_ADD, keep(s, number_op(MT_BINARY_POW, x, 2)), 1)))));
    case MT_UNARY_ACOSH: /* grad * (self.pow(2) - 1).rsqrt() */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_RSQRT,
                                            keep(s, number_op(MT_BINARY_SUB, keep(s, number_op(MT_BINARY_POW, x, 2)), 1)))));
    case MT_UNARY_ATANH: /* grad * 1 / (1 - self.pow(2)) */
        return mt_g_div(grad, keep(s, number_minus(1, keep(s, number_op(MT_BINARY_POW, x, 2)))));
    case MT_UNARY_EXP2: /* grad * result * ln 2 */
        return number_op(MT_BINARY_MUL, keep(s, mt_g_mul(grad, x)), 0.693147180559945309417232121458176568);
    case MT_UNARY_EXPM1: /* grad * (result + 1) */
        return mt_g_mul(grad, keep(s, number_op(MT_BINARY_ADD, x, 1)));
    case MT_UNARY_LOG2:
        return mt_g_div(grad, keep(s, number_op(MT_BINARY_MUL, x, 0.693147180559945309417232121458176568)));
    case MT_UNARY_LOG10:
        return mt_g_div(grad, keep(s, number_op(MT_BINARY_MUL, x, 2.30258509299404568401799145468436421)));
    case MT_UNARY_LOG1P: /* grad / (self + 1) */
        return mt_g_div(grad, keep(s, number_op(MT_BINARY_ADD, x, 1)));
    case MT_UNARY_ERF: /* 2 / sqrt(pi) * exp(-(self.pow(2))) * grad */
        return mt_g_mul(keep(s, number_op(MT_BINARY_MUL, keep(s, unary(MT_UNARY_EXP, keep(s, mt_g_neg(keep(s,
                                          number_op(MT_BINARY_POW, x, 2)))))), 1.12837916709551257389615890312154517)),
                        grad);
    case MT_UNARY_ERFC: /* -2. / sqrt(M_PI) * exp(-(self.pow(2))) * grad */
        return mt_g_mul(keep(s, number_op(MT_BINARY_MUL, keep(s, unary(MT_UNARY_EXP, keep(s, mt_g_neg(keep(s,
                                          number_op(MT_BINARY_POW, x, 2)))))), -1.12837916709551257389615890312154517)),
                        grad);
    case MT_UNARY_ERFINV: /* 0.5 * sqrt(pi) * exp(self.erfinv().pow(2)) * grad */
        return mt_g_mul(keep(s, number_op(MT_BINARY_MUL, keep(s, unary(MT_UNARY_EXP, keep(s, number_op(MT_BINARY_POW,
                                          keep(s, unary(MT_UNARY_ERFINV, x)), 2)))), 0.886226925452758013649083741671)),
                        grad);
    case MT_UNARY_RECIPROCAL: /* -grad * (result * result) */
        return mt_g_mul(keep(s, mt_g_neg(grad)), keep(s, mt_g_mul(x, x)));
    case MT_UNARY_SIGMOID: /* sigmoid_backward: grad * (1 - result) * result */
        return mt_g_mul(keep(s, mt_g_mul(grad, keep(s, number_minus(1, x)))), x);
    case MT_UNARY_RSQRT: /* -0.5 * grad * result.pow(3) */
        return mt_g_mul(keep(s, number_op(MT_BINARY_MUL, grad, -0.5)), keep(s, number_op(MT_BINARY_POW, x, 3)));
    case MT_UNARY_DEG2RAD: /* deg2rad_backward: grad * (pi / 180) */
        return number_op(MT_BINARY_MUL, grad, 0.017453292519943295769236907684886127134428718885417);
    case MT_UNARY_RAD2DEG:
        return number_op(MT_BINARY_MUL, grad, 57.295779513082320876798154814105170332405472466564);
    case MT_UNARY_SINC: {
        /* sinc_backward: grad * ((pi x) cos(pi x) - sin(pi x)) / (x x pi), 0 where x x pi is 0 */
        mt_scalar zero = int_scalar(0);
        T *pix = keep(s, number_op(MT_BINARY_MUL, x, 3.14159265358979323846));
        T *sq = keep(s, number_op(MT_BINARY_MUL, keep(s, mt_g_mul(x, x)), 3.14159265358979323846));
        T *num = keep(s, binary(MT_BINARY_SUB, keep(s, mt_g_mul(pix, keep(s, unary(MT_UNARY_COS, pix)))),
                                keep(s, unary(MT_UNARY_SIN, pix)), NULL, 0));
        T *g = keep(s, mt_g_div(keep(s, mt_g_mul(grad, num)), sq));
        return where(keep(s, binary(MT_BINARY_EQ, sq, NULL, &zero, 0)), NULL, &zero, g, NULL);
    }
    case MT_UNARY_LGAMMA: /* grad * digamma(self) */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_DIGAMMA, x)));
    case MT_UNARY_DIGAMMA: /* grad * polygamma(1, self) */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_TRIGAMMA, x)));
    case MT_UNARY_TRIGAMMA: /* polygamma(1, x): grad * polygamma(2, self) */
        return mt_g_mul(grad, keep(s, (T *)mt_polygamma(2, x, 0)));
    case MT_UNARY_I0: /* grad * special_i1(self) */
        return mt_g_mul(grad, keep(s, unary(MT_UNARY_SPECIAL_I1, x)));
    case MT_UNARY_SPECIAL_I0E: /* grad * (special_i1e(self) - self.sgn() * result) */
        return mt_g_mul(grad, keep(s, binary(MT_BINARY_SUB, keep(s, unary(MT_UNARY_SPECIAL_I1E, x)),
                                                     keep(s, mt_g_mul(keep(s, unary(MT_UNARY_SGN, x)),
                                                                      keep(s, unary(op, x)))),
                                                     NULL, 0)));
    case MT_UNARY_SPECIAL_I1:
    case MT_UNARY_SPECIAL_I1E:
        return bessel_i1_backward(op, grad, x, s);
    case MT_UNARY_SPECIAL_NDTRI: /* grad * sqrt(2 pi) * (result.square() / 2).exp() */
        return mt_g_mul(keep(s, number_op(MT_BINARY_MUL, grad, 2.5066282746310002)),
                        keep(s, unary(MT_UNARY_EXP, keep(s, number_op(MT_BINARY_DIV, keep(s, unary(MT_UNARY_SQUARE, x)),
                                                                      2.0)))));
    case MT_UNARY_SPECIAL_LOG_NDTR: { /* grad / sqrt(2 pi) * (result + self.pow(2) / 2).neg().exp() */
        T *half_sq = keep(s, number_op(MT_BINARY_DIV, keep(s, number_op(MT_BINARY_POW, x, 2.0)), 2.0));
        T *e = keep(s, unary(MT_UNARY_EXP, keep(s, mt_g_neg(keep(s, mt_g_add(keep(s, unary(op, x)), half_sq))))));
        return mt_g_mul(keep(s, number_op(MT_BINARY_DIV, grad, 2.5066282746310002)), e);
    }
    case MT_UNARY_SPECIAL_ERFCX: /* (2.0 * self * result - 2.0 / sqrt(pi)) * grad */
        return mt_g_mul(keep(s, number_op(MT_BINARY_SUB, keep(s, mt_g_mul(keep(s, number_op(MT_BINARY_MUL, x, 2.0)),
                                                                          keep(s, unary(op, x)))),
                                          1.1283791670955126)),
                        grad);
    case MT_UNARY_SPECIAL_ENTR: /* grad * (-(1 + self.log())) */
        return mt_g_mul(grad, keep(s, mt_g_neg(keep(s, number_op(MT_BINARY_ADD, keep(s, unary(MT_UNARY_LOG, x)), 1.0)))));
    default:
        PyErr_SetString(PyExc_SystemError, "unary op without a formula");
        return NULL;
    }
}

static const struct {
    const char *name;
    int saves;
} unary_info[MT_UNARY_NUM_OPS] = {
    [MT_UNARY_NEG] = {"NegBackward0", SAVE_NONE}, [MT_UNARY_ABS] = {"AbsBackward0", SAVE_INPUT},
    [MT_UNARY_RELU] = {"ReluBackward0", SAVE_RESULT}, [MT_UNARY_SQUARE] = {"PowBackward0", SAVE_INPUT},
    [MT_UNARY_SIGN] = {"SignBackward0", SAVE_NONE}, [MT_UNARY_SGN] = {"SgnBackward0", SAVE_NONE},
    [MT_UNARY_FLOOR] = {"FloorBackward0", SAVE_NONE},
    [MT_UNARY_CEIL] = {"CeilBackward0", SAVE_NONE}, [MT_UNARY_TRUNC] = {"TruncBackward0", SAVE_NONE},
    [MT_UNARY_ROUND] = {"RoundBackward0", SAVE_NONE}, [MT_UNARY_EXP] = {"ExpBackward0", SAVE_RESULT},
    [MT_UNARY_LOG] = {"LogBackward0", SAVE_INPUT}, [MT_UNARY_SQRT] = {"SqrtBackward0", SAVE_RESULT},
    [MT_UNARY_SIN] = {"SinBackward0", SAVE_INPUT}, [MT_UNARY_COS] = {"CosBackward0", SAVE_INPUT},
    [MT_UNARY_TAN] = {"TanBackward0", SAVE_RESULT}, [MT_UNARY_ASIN] = {"AsinBackward0", SAVE_INPUT},
    [MT_UNARY_ACOS] = {"AcosBackward0", SAVE_INPUT}, [MT_UNARY_ATAN] = {"AtanBackward0", SAVE_INPUT},
    [MT_UNARY_SINH] = {"SinhBackward0", SAVE_INPUT}, [MT_UNARY_COSH] = {"CoshBackward0", SAVE_INPUT},
    [MT_UNARY_TANH] = {"TanhBackward0", SAVE_RESULT}, [MT_UNARY_ASINH] = {"AsinhBackward0", SAVE_INPUT},
    [MT_UNARY_ACOSH] = {"AcoshBackward0", SAVE_INPUT}, [MT_UNARY_ATANH] = {"AtanhBackward0", SAVE_INPUT},
    [MT_UNARY_EXP2] = {"Exp2Backward0", SAVE_RESULT}, [MT_UNARY_EXPM1] = {"Expm1Backward0", SAVE_RESULT},
    [MT_UNARY_LOG2] = {"Log2Backward0", SAVE_INPUT}, [MT_UNARY_LOG10] = {"Log10Backward0", SAVE_INPUT},
    [MT_UNARY_LOG1P] = {"Log1PBackward0", SAVE_INPUT}, [MT_UNARY_ERF] = {"ErfBackward0", SAVE_INPUT},
    [MT_UNARY_ERFC] = {"ErfcBackward0", SAVE_INPUT},
    [MT_UNARY_RECIPROCAL] = {"ReciprocalBackward0", SAVE_RESULT},
    [MT_UNARY_SIGMOID] = {"SigmoidBackward0", SAVE_RESULT}, [MT_UNARY_RSQRT] = {"RsqrtBackward0", SAVE_RESULT},
    [MT_UNARY_ERFINV] = {"ErfinvBackward0", SAVE_INPUT}, [MT_UNARY_FRAC] = {"FracBackward0", SAVE_NONE},
    [MT_UNARY_DEG2RAD] = {"Deg2RadBackward0", SAVE_NONE}, [MT_UNARY_RAD2DEG] = {"Rad2DegBackward0", SAVE_NONE},
    [MT_UNARY_SINC] = {"SincBackward0", SAVE_INPUT}, [MT_UNARY_LOGIT] = {"LogitBackward0", SAVE_INPUT},
    [MT_UNARY_LGAMMA] = {"LgammaBackward0", SAVE_INPUT}, [MT_UNARY_DIGAMMA] = {"DigammaBackward0", SAVE_INPUT},
    [MT_UNARY_TRIGAMMA] = {"PolygammaBackward0", SAVE_INPUT}, [MT_UNARY_I0] = {"I0Backward0", SAVE_INPUT},
    /* (the formulas that read the result too compute it again from the input) */
    [MT_UNARY_SPECIAL_I0E] = {"SpecialI0EBackward0", SAVE_INPUT},
    [MT_UNARY_SPECIAL_I1] = {"SpecialI1Backward0", SAVE_INPUT},
    [MT_UNARY_SPECIAL_I1E] = {"SpecialI1EBackward0", SAVE_INPUT},
    [MT_UNARY_SPECIAL_NDTRI] = {"SpecialNdtriBackward0", SAVE_RESULT},
    [MT_UNARY_SPECIAL_LOG_NDTR] = {"SpecialLogNdtrBackward0", SAVE_INPUT},
    [MT_UNARY_SPECIAL_ERFCX] = {"SpecialErfcxBackward0", SAVE_INPUT},
    [MT_UNARY_SPECIAL_ENTR] = {"SpecialEntrBackward0", SAVE_INPUT},
};

/* logit_backward: grad / (self * (1 - self)); without eps (node->flag 0) NaN where self is outside [0, 1],
 * with eps 0 where self is outside [eps, 1 - eps] */
static T *
logit_formula(mt_node *node, T *grad, T *x, scratch *s)
{
    mt_scalar zero = int_scalar(0), nan = float_scalar(Py_NAN);
    double lo = node->flag ? mt_scalar_to_double(node->scalars[0]) : 0.0, hi = node->flag ? 1.0 - lo : 1.0;
    T *g = keep(s, mt_g_div(grad, keep(s, mt_g_mul(x, keep(s, number_minus(1, x))))));
    T *outside = keep(s, binary(MT_BINARY_LOGICAL_OR, keep(s, number_op(MT_BINARY_LT, x, lo)),
                                keep(s, number_op(MT_BINARY_GT, x, hi)), NULL, 0));

    return where(outside, NULL, node->flag ? &zero : &nan, g, NULL);
}

/* the rows, one per op: the node remembers its op in ints[0] */
static mt_derivative unary_rows[MT_UNARY_NUM_OPS];

static int
unary_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_unary_op op = (mt_unary_op)node->ints[0];
    scratch s = {{0}, 0};
    T *x = NULL;
    int rc;

    if (unary_info[op].saves != SAVE_NONE && (x = mt_ag_unpack(node, 0)) == NULL) {
        return -1;
    }
    rc = put(&out[0], op == MT_UNARY_LOGIT ? logit_formula(node, (T *)grads[0], x, &s)
                                           : unary_formula(op, (T *)grads[0], x, &s));
    drop(&s);
    Py_XDECREF(x);
    return rc;
}

/* acosh_, asinh_ and atanh_ have no derivative in torch (derivatives.yaml: not_implemented("inplace
 * version of acosh")): a node of their own whose backward raises */
static int
inplace_hyperbolic_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    mt_unary_op op = (mt_unary_op)node->ints[0];

    (void)grads;
    (void)out;
    PyErr_Format(PyExc_NotImplementedError, "the derivative for 'inplace version of %s' is not implemented.",
                 op == MT_UNARY_ACOSH ? "acosh" : op == MT_UNARY_ASINH ? "asinh" : "atanh");
    return -1;
}

static mt_derivative d_inplace_acosh = {"AcoshBackward1", inplace_hyperbolic_backward, NULL};
static mt_derivative d_inplace_asinh = {"AsinhBackward1", inplace_hyperbolic_backward, NULL};
static mt_derivative d_inplace_atanh = {"AtanhBackward1", inplace_hyperbolic_backward, NULL};

static int
inplace_hyperbolic(mt_unary_op op, mt_TensorObject *t)
{
    mt_TensorObject *in[1] = {t};
    mt_derivative *d = op == MT_UNARY_ACOSH ? &d_inplace_acosh : op == MT_UNARY_ASINH ? &d_inplace_asinh
                                                                                      : &d_inplace_atanh;
    mt_node *node = mt_ag_node(d, 1, in, 1);
    int rc;

    if (node == NULL) {
        return -1;
    }
    node->ints[0] = op;
    rc = mt_ag_set_inplace_output(node, t, 1, in);
    Py_DECREF(node);
    return rc;
}

int
mt_ag_unary_needs_original(mt_unary_op op, mt_TensorObject *t)
{
    /* (called for the in-place forms: those of acosh, asinh and atanh record a node that saves nothing) */
    return unary_info[op].saves == SAVE_INPUT && op != MT_UNARY_ACOSH && op != MT_UNARY_ASINH &&
           op != MT_UNARY_ATANH && mt_ag_needed(1, &t);
}

int
mt_ag_unary(mt_unary_op op, mt_TensorObject *t, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[1] = {t};
    mt_derivative *d = &unary_rows[op];
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    if (d->name == NULL) {
        d->name = unary_info[op].name;
        d->apply = unary_backward;
    }
    if (result == t && (op == MT_UNARY_ACOSH || op == MT_UNARY_ASINH || op == MT_UNARY_ATANH)) {
        return inplace_hyperbolic(op, t);
    }
    node = mt_ag_node(d, 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = op;
    if (unary_info[op].saves == SAVE_INPUT) {
        rc = mt_ag_save(node, 0, original != NULL ? original : t, 0);
    }
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, 1, in) : mt_ag_set_output(node, result, 0);
    }
    if (rc == 0 && unary_info[op].saves == SAVE_RESULT) {
        rc = mt_ag_save(node, 0, result, 1);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_logit(mt_TensorObject *t, double eps, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[1] = {t};
    mt_derivative *d = &unary_rows[MT_UNARY_LOGIT];
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    if (d->name == NULL) {
        d->name = unary_info[MT_UNARY_LOGIT].name;
        d->apply = unary_backward;
    }
    node = mt_ag_node(d, 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = MT_UNARY_LOGIT;
    node->flag = 1;
    node->scalars[0] = float_scalar(eps);
    rc = mt_ag_save(node, 0, original != NULL ? original : t, 0);
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, 1, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* polygamma(n, self): grad * polygamma(n + 1, self) (n in ints[0]) */
static int
polygamma_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *x = mt_ag_unpack(node, 0), *p;
    int rc;

    if (x == NULL) {
        return -1;
    }
    p = (T *)mt_polygamma(node->ints[0] + 1, x, 0);
    rc = put(&out[0], p != NULL ? mt_g_mul((T *)grads[0], p) : NULL);
    Py_XDECREF(p);
    Py_DECREF(x);
    return rc;
}

static mt_derivative d_polygamma = {"PolygammaBackward0", polygamma_backward, NULL};

int
mt_ag_polygamma(int64_t n, mt_TensorObject *t, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[1] = {t};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    node = mt_ag_node(&d_polygamma, 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = n;
    rc = mt_ag_save(node, 0, original != NULL ? original : t, 0);
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, 1, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* ---- clamp, where, addcmul, round(decimals) -------------------------------------------------------- */

/* clamp and its one-sided forms: flag bit 0: a lower bound, bit 1: an upper one; the bounds are numbers
 * (scalars[0], scalars[1]) or saved tensors (slots 1 and 2); self is slot 0. */
static int
clamp_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    int failed = 0, rc = 0, has_lo = node->flag & 1, has_hi = node->flag & 2;
    T *grad = (T *)grads[0], *self = unpack_or_null(node, 0, &failed);
    T *lo = unpack_or_null(node, 1, &failed), *hi = unpack_or_null(node, 2, &failed);
    mt_scalar zero = int_scalar(0);
    scratch s = {{0}, 0};

    if (failed) {
        goto done;
    }
    if (NEEDS(node, 0)) {
        /* grad where lo <= self <= hi */
        T *ge = has_lo ? keep(&s, binary(MT_BINARY_GE, self, lo, &node->scalars[0], 0)) : NULL;
        T *le = has_hi ? keep(&s, binary(MT_BINARY_LE, self, hi, &node->scalars[1], 0)) : NULL;
        T *cond = ge != NULL && le != NULL ? keep(&s, mt_g_mul(ge, le)) : ge != NULL ? ge : le;
        rc = put(&out[0], where(cond, grad, NULL, NULL, &zero));
    }
    if (rc == 0 && node->num_inputs > 1 && NEEDS(node, 1)) {
        /* the lower bound's: grad where self < lo (and lo < hi when both are there) */
        T *cond = keep(&s, binary(MT_BINARY_LT, self, lo, NULL, 0));
        if (has_hi) {
            cond = keep(&s, mt_g_mul(cond, keep(&s, binary(MT_BINARY_LT, lo, hi, NULL, 0))));
        }
        rc = put(&out[1], where(cond, grad, NULL, NULL, &zero));
    }
    if (rc == 0 && node->num_inputs > 2 && NEEDS(node, 2)) {
        /* the upper bound's: grad where self > hi (or hi < lo when both are there) */
        T *cond = keep(&s, binary(MT_BINARY_GT, self, hi, NULL, 0));
        if (has_lo) {
            cond = keep(&s, binary(MT_BINARY_MAXIMUM, cond, keep(&s, binary(MT_BINARY_LT, hi, lo, NULL, 0)), NULL, 0));
        }
        rc = put(&out[2], where(cond, grad, NULL, NULL, &zero));
    }

done:
    drop(&s);
    Py_XDECREF(self);
    Py_XDECREF(lo);
    Py_XDECREF(hi);
    return failed ? -1 : rc;
}

static mt_derivative d_clamp[2] = {{"ClampBackward0", clamp_backward, NULL}, {"ClampBackward1", clamp_backward, NULL}};
static mt_derivative d_clamp_min[2] = {{"ClampMinBackward1", clamp_backward, NULL},
                                       {"ClampMinBackward0", clamp_backward, NULL}};
static mt_derivative d_clamp_max[2] = {{"ClampMaxBackward1", clamp_backward, NULL},
                                       {"ClampMaxBackward0", clamp_backward, NULL}};

int
mt_ag_clamp(int which, mt_TensorObject *t, mt_TensorObject *self, const mt_ag_bound *lo, const mt_ag_bound *hi,
            int scalars, mt_TensorObject *result)
{
    mt_TensorObject *in[3] = {t, scalars ? NULL : lo->tensor, scalars ? NULL : hi->tensor};
    mt_derivative *d = which == 0 ? &d_clamp[scalars != 0] : which == 1 ? &d_clamp_min[scalars != 0]
                                                                        : &d_clamp_max[scalars != 0];
    int n = scalars ? 1 : which == 0 ? 3 : 2;
    mt_node *node;
    int rc;

    if (which == 2 && !scalars) {
        in[1] = in[2];      /* clamp_max(Tensor max): its bound is the second input */
    }
    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(d, n, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->flag = (lo->given ? 1 : 0) | (hi->given ? 2 : 0);
    node->scalars[0] = lo->number;
    node->scalars[1] = hi->number;
    rc = mt_ag_save(node, 0, self, 0);
    if (rc == 0 && lo->tensor != NULL) {
        rc = mt_ag_save(node, 1, lo->tensor, 0);
    }
    if (rc == 0 && hi->tensor != NULL) {
        rc = mt_ag_save(node, 2, hi->tensor, 0);
    }
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, n, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

static int
where_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *cond = mt_ag_unpack(node, 0), *grad = (T *)grads[0];
    mt_scalar zero = int_scalar(0);
    int rc = cond != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        rc = put(&out[0], where(cond, grad, NULL, NULL, &zero));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], where(cond, NULL, &zero, grad, NULL));
    }
    Py_XDECREF(cond);
    return rc;
}

static mt_derivative d_where = {"WhereBackward0", where_backward, NULL};

int
mt_ag_where(mt_TensorObject *cond, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result)
{
    mt_TensorObject *in[2] = {a, b};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(&d_where, 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_save(node, 0, cond, 0);
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* addcmul / addcdiv: self + value * t1 * t2 or self + value * t1 / t2 (flag: 1 for addcdiv) */
static int
addc_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *t1 = mt_ag_unpack(node, 1), *t2 = t1 != NULL ? mt_ag_unpack(node, 2) : NULL;
    mt_scalar value = node->scalars[0];
    scratch s = {{0}, 0};
    int rc = t2 != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
    }
    if (!node->flag) {
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_mul(grad, keep(&s, mt_g_mul_scalar(t2, value))));
        }
        if (rc == 0 && NEEDS(node, 2)) {
            rc = put(&out[2], mt_g_mul(grad, keep(&s, mt_g_mul_scalar(t1, value))));
        }
    }
    else {
        mt_cx_operand v, d;
        memset(&v, 0, sizeof v);
        memset(&d, 0, sizeof d);
        v.op.scalar = value;
        if (rc == 0 && NEEDS(node, 1)) {
            /* grad * (value / t2) */
            d.op.tensor = t2;
            rc = put(&out[1], mt_g_mul(grad, keep(&s, (T *)mt_binary("div", MT_BINARY_DIV, &v, &d, NULL, NULL))));
        }
        if (rc == 0 && NEEDS(node, 2)) {
            /* -grad * ((value * t1) / (t2 * t2)) */
            T *num = keep(&s, mt_g_mul_scalar(t1, value));
            rc = put(&out[2], mt_g_mul(keep(&s, mt_g_neg(grad)), keep(&s, mt_g_div(num, keep(&s, mt_g_mul(t2, t2))))));
        }
    }
    drop(&s);
    Py_XDECREF(t1);
    Py_XDECREF(t2);
    return rc;
}

static mt_derivative d_addc[2] = {{"AddcmulBackward0", addc_backward, NULL}, {"AddcdivBackward0", addc_backward, NULL}};

int
mt_ag_addc(int divide, mt_TensorObject *self, mt_TensorObject *t1, mt_TensorObject *t2, mt_scalar value,
           mt_TensorObject *result)
{
    mt_TensorObject *in[3] = {self, t1, t2};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(3, in)) {
        return 0;
    }
    node = mt_ag_node(&d_addc[divide != 0], 3, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = value;
    node->flag = divide != 0;
    rc = mt_ag_save(node, 1, t1, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 2, t2, 0);
    }
    if (rc == 0) {
        rc = result == self ? mt_ag_set_inplace_output(node, result, 3, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* lerp(self, end, weight): self * (1 - weight) + end * weight. flag: weight is a tensor (input 2). */
static int
lerp_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *weight, *self, *end;
    scratch s = {{0}, 0};
    int rc = 0;

    if (!node->flag) {
        if (NEEDS(node, 0)) {
            rc = put(&out[0], mt_g_mul_scalar(grad, float_scalar(1.0 - mt_scalar_to_double(node->scalars[0]))));
        }
        if (rc == 0 && NEEDS(node, 1)) {
            rc = put(&out[1], mt_g_mul_scalar(grad, node->scalars[0]));
        }
        return rc;
    }
    weight = keep(&s, mt_ag_unpack(node, 2));
    rc = weight != NULL ? 0 : -1;
    if (rc == 0 && NEEDS(node, 0)) {
        rc = put(&out[0], mt_g_mul(grad, keep(&s, number_minus(1.0, weight))));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], mt_g_mul(grad, weight));
    }
    if (rc == 0 && NEEDS(node, 2)) {
        self = keep(&s, mt_ag_unpack(node, 0));
        end = self != NULL ? keep(&s, mt_ag_unpack(node, 1)) : NULL;
        rc = put(&out[2], mt_g_mul(grad, keep(&s, binary(MT_BINARY_SUB, end, self, NULL, 0))));
    }
    drop(&s);
    return rc;
}

static mt_derivative d_lerp[2] = {{"LerpBackward0", lerp_backward, NULL}, {"LerpBackward1", lerp_backward, NULL}};

int
mt_ag_lerp_needs_original(mt_TensorObject *weight)
{
    return weight != NULL && mt_ag_needed(1, &weight);
}

int
mt_ag_lerp(mt_TensorObject *self, mt_TensorObject *end, mt_TensorObject *weight, mt_scalar w,
           mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[3] = {self, end, weight};
    int n = weight != NULL ? 3 : 2;
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(&d_lerp[weight != NULL], n, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = w;
    node->flag = weight != NULL;
    if (weight != NULL) {
        rc = mt_ag_save(node, 2, weight, 0);
        if (rc == 0 && mt_ag_needed(1, &weight)) {
            rc = mt_ag_save(node, 0, original != NULL ? original : self, 0);
            if (rc == 0) {
                rc = mt_ag_save(node, 1, end, 0);
            }
        }
    }
    if (rc == 0) {
        rc = result == self ? mt_ag_set_inplace_output(node, result, n, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

static mt_derivative d_round_decimals = {"RoundBackward1", zero_backward, NULL};

int
mt_ag_round_decimals(mt_TensorObject *t, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, &t)) {
        return 0;
    }
    node = mt_ag_node(&d_round_decimals, 1, &t, 1);
    if (node == NULL) {
        return -1;
    }
    rc = result == t ? mt_ag_set_inplace_output(node, result, 1, &t) : mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

/* ---- reductions ------------------------------------------------------------------------------------- */

/* torch's sum_backward: grad with the reduced dims put back (unless keepdim), expanded to the input. */
static T *
sum_backward_of(const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    T *g = node->flag || node->ints[0] ? (Py_INCREF(grad), grad) : mt_g_unsqueeze_dims(grad, node->mask, m->ndim);
    T *r = g != NULL ? mt_g_expand(g, m->ndim, m->sizes) : NULL;

    Py_XDECREF(g);
    return r;
}

static int
sum_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    return put(&out[0], sum_backward_of(node, (T *)grads[0]));
}

static int
mean_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    const mt_input_meta *m = &node->meta[0];
    int64_t n = 1;
    T *e = sum_backward_of(node, (T *)grads[0]);
    int rc;

    for (int d = 0; d < m->ndim; d++) {
        if (node->ints[0] || (node->mask >> d & 1)) {
            n *= m->sizes[d];
        }
    }
    rc = put(&out[0], e != NULL ? mt_g_div_scalar(e, int_scalar(n)) : NULL);
    Py_XDECREF(e);
    return rc;
}

/* torch's evenly_distribute_backward (CPU): zeros with grad / count where the input equals the result */
static int
extreme_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    int failed = 0;
    T *self = unpack_or_null(node, 0, &failed), *result = unpack_or_null(node, 1, &failed);
    scratch s = {{0}, 0};
    mt_scalar zero = int_scalar(0);
    T *mask = failed ? NULL : keep(&s, mt_g_eq(self, result));
    T *share = keep(&s, mt_g_div((T *)grads[0], keep(&s, mt_g_sum_dims(mask, ~0ull, 0))));
    int rc = put(&out[0], where(mask, share, NULL, NULL, &zero));

    drop(&s);
    Py_XDECREF(self);
    Py_XDECREF(result);
    return rc;
}

static mt_derivative d_sum0 = {"SumBackward0", sum_backward, NULL};
static mt_derivative d_sum1 = {"SumBackward1", sum_backward, NULL};
static mt_derivative d_mean0 = {"MeanBackward0", mean_backward, NULL};
static mt_derivative d_mean1 = {"MeanBackward1", mean_backward, NULL};
static mt_derivative d_max1 = {"MaxBackward1", extreme_backward, NULL};
static mt_derivative d_min1 = {"MinBackward1", extreme_backward, NULL};

int
mt_ag_reduce(mt_ag_reduction kind, mt_TensorObject *t, int all, uint64_t mask, int keepdim, mt_TensorObject *result)
{
    mt_TensorObject *in[1] = {t};
    static mt_derivative *const rows[4][2] = {{&d_sum1, &d_sum0}, {&d_mean1, &d_mean0}, {&d_max1, &d_max1},
                                              {&d_min1, &d_min1}};
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    node = mt_ag_node(rows[kind][all != 0], 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = all;
    node->mask = mask;
    node->flag = keepdim;
    if (kind == MT_AG_MAX || kind == MT_AG_MIN) {
        rc = mt_ag_save(node, 0, t, 0);
    }
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    if (rc == 0 && (kind == MT_AG_MAX || kind == MT_AG_MIN)) {
        rc = mt_ag_save(node, 1, result, 1);
    }
    Py_DECREF(node);
    return rc;
}

/* ---- products ---------------------------------------------------------------------------------------- */

static T *
mm(T *a, T *b)
{
    return a != NULL && b != NULL ? (T *)mt_matmul_op(MT_MM_MM, a, b, NULL) : NULL;
}

static T *
t_of(T *a)
{
    return a != NULL ? mt_t(a) : NULL;
}

static int
column_major(const T *m)
{
    return m->strides[0] == 1 && m->strides[1] == m->sizes[0];
}

/* left @ right, or (right.t() @ left.t()).t() when the operand whose gradient this is was column-major
 * (torch computes it that way round, for the gradient's layout), times alpha. Steals left and right. */
static T *
product_backward(T *left, T *right, int column_major_operand, mt_scalar alpha)
{
    T *r = NULL;

    if (left != NULL && right != NULL) {
        if (column_major_operand) {
            T *rt = t_of(right), *lt = t_of(left), *p = rt != NULL && lt != NULL ? mm(rt, lt) : NULL;
            r = t_of(p);
            Py_XDECREF(rt);
            Py_XDECREF(lt);
            Py_XDECREF(p);
        }
        else {
            r = mm(left, right);
        }
    }
    Py_XDECREF(left);
    Py_XDECREF(right);
    return maybe_multiply(r, alpha);
}

/* torch's mm_mat1_backward (grad @ mat2.t()) and mm_mat2_backward (mat1.t() @ grad) */
static T *
mm_mat1_backward(T *grad, T *mat1, T *mat2, mt_scalar alpha)
{
    Py_INCREF(grad);
    return product_backward(grad, t_of(mat2), column_major(mat1), alpha);
}

static T *
mm_mat2_backward(T *grad, T *mat1, T *mat2, mt_scalar alpha)
{
    Py_INCREF(grad);
    return product_backward(t_of(mat1), grad, column_major(mat2), alpha);
}

static int
mm_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *b = a != NULL ? mt_ag_unpack(node, 1) : NULL;
    mt_scalar one = int_scalar(1);
    int rc = b != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        rc = put(&out[0], mm_mat1_backward(grad, a, b, one));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], mm_mat2_backward(grad, a, b, one));
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static int
addmm_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *b = a != NULL ? mt_ag_unpack(node, 1) : NULL;
    int rc = b != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        Py_INCREF(grad);
        rc = put(&out[0], maybe_multiply(grad, node->scalars[0]));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], mm_mat1_backward(grad, a, b, node->scalars[1]));
    }
    if (rc == 0 && NEEDS(node, 2)) {
        rc = put(&out[2], mm_mat2_backward(grad, a, b, node->scalars[1]));
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static int
bmm_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *b = a != NULL ? mt_ag_unpack(node, 1) : NULL, *x;
    int rc = b != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        x = mt_transpose(b, 1, 2);
        rc = put(&out[0], x != NULL ? (T *)mt_matmul_op(MT_MM_BMM, grad, x, NULL) : NULL);
        Py_XDECREF(x);
    }
    if (rc == 0 && NEEDS(node, 1)) {
        x = mt_transpose(a, 1, 2);
        rc = put(&out[1], x != NULL ? (T *)mt_matmul_op(MT_MM_BMM, x, grad, NULL) : NULL);
        Py_XDECREF(x);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static int
mv_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *v = a != NULL ? mt_ag_unpack(node, 1) : NULL, *x, *y;
    int rc = v != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        /* grad.ger(vec): the outer product, one multiplication per element */
        x = mt_unsqueeze(grad, 1);
        rc = put(&out[0], x != NULL ? mt_g_mul(x, v) : NULL);
        Py_XDECREF(x);
    }
    if (rc == 0 && NEEDS(node, 1)) {
        x = t_of(a);
        y = x != NULL ? (T *)mt_matmul_op(MT_MM_MV, x, grad, NULL) : NULL;
        rc = put(&out[1], y);
        Py_XDECREF(x);
    }
    Py_XDECREF(a);
    Py_XDECREF(v);
    return rc;
}

static int
dot_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *b = a != NULL ? mt_ag_unpack(node, 1) : NULL;
    int rc = b != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        rc = put(&out[0], mt_g_mul(grad, b));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], mt_g_mul(grad, a));
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static mt_derivative d_mm = {"MmBackward0", mm_backward, NULL};
static mt_derivative d_bmm = {"BmmBackward0", bmm_backward, NULL};
static mt_derivative d_mv = {"MvBackward0", mv_backward, NULL};
static mt_derivative d_dot = {"DotBackward0", dot_backward, NULL};
/* addmv: self's gradient beta * grad, mat's alpha * grad.ger(vec), vec's alpha * mat.t().mv(grad) */
static int
addmv_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *a = mt_ag_unpack(node, 0), *v = a != NULL ? mt_ag_unpack(node, 1) : NULL, *x;
    int rc = v != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        Py_INCREF(grad);
        rc = put(&out[0], maybe_multiply(grad, node->scalars[0]));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        x = mt_unsqueeze(grad, 1);
        rc = put(&out[1], maybe_multiply(x != NULL ? mt_g_mul(x, v) : NULL, node->scalars[1]));
        Py_XDECREF(x);
    }
    if (rc == 0 && NEEDS(node, 2)) {
        x = t_of(a);
        rc = put(&out[2], maybe_multiply(x != NULL ? (T *)mt_matmul_op(MT_MM_MV, x, grad, NULL) : NULL,
                                         node->scalars[1]));
        Py_XDECREF(x);
    }
    Py_XDECREF(a);
    Py_XDECREF(v);
    return rc;
}

/* addr: self's gradient beta * grad, vec1's alpha * grad.mv(vec2), vec2's alpha * grad.t().mv(vec1) */
static int
addr_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *v1 = mt_ag_unpack(node, 0), *v2 = v1 != NULL ? mt_ag_unpack(node, 1) : NULL, *x;
    int rc = v2 != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        Py_INCREF(grad);
        rc = put(&out[0], maybe_multiply(grad, node->scalars[0]));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], maybe_multiply((T *)mt_matmul_op(MT_MM_MV, grad, v2, NULL), node->scalars[1]));
    }
    if (rc == 0 && NEEDS(node, 2)) {
        x = t_of(grad);
        rc = put(&out[2], maybe_multiply(x != NULL ? (T *)mt_matmul_op(MT_MM_MV, x, v1, NULL) : NULL,
                                         node->scalars[1]));
        Py_XDECREF(x);
    }
    Py_XDECREF(v1);
    Py_XDECREF(v2);
    return rc;
}

/* baddbmm (node->flag 0) and addbmm (1, grad expanded over the batches first): self's gradient
 * beta * grad, batch1's alpha * grad.bmm(batch2^T), batch2's alpha * batch1^T.bmm(grad) */
static int
baddbmm_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *a = mt_ag_unpack(node, 0), *b = a != NULL ? mt_ag_unpack(node, 1) : NULL, *x, *g = NULL;
    int rc = b != NULL ? 0 : -1;

    if (rc == 0 && NEEDS(node, 0)) {
        T *grad = (T *)grads[0];
        Py_INCREF(grad);
        rc = put(&out[0], maybe_multiply(grad, node->scalars[0]));
    }
    if (rc == 0 && node->flag) {
        int64_t sizes[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
        T *u = mt_unsqueeze((T *)grads[0], 0);
        g = u != NULL ? mt_expand(u, 3, sizes) : NULL;
        Py_XDECREF(u);
        rc = g != NULL ? 0 : -1;
    }
    else if (rc == 0) {
        g = (T *)grads[0];
        Py_INCREF(g);
    }
    if (rc == 0 && NEEDS(node, 1)) {
        x = mt_transpose(b, 1, 2);
        rc = put(&out[1], maybe_multiply(x != NULL ? (T *)mt_matmul_op(MT_MM_BMM, g, x, NULL) : NULL,
                                         node->scalars[1]));
        Py_XDECREF(x);
    }
    if (rc == 0 && NEEDS(node, 2)) {
        x = mt_transpose(a, 1, 2);
        rc = put(&out[2], maybe_multiply(x != NULL ? (T *)mt_matmul_op(MT_MM_BMM, x, g, NULL) : NULL,
                                         node->scalars[1]));
        Py_XDECREF(x);
    }
    Py_XDECREF(g);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return rc;
}

static mt_derivative d_addmm = {"AddmmBackward0", addmm_backward, NULL};
static mt_derivative d_addmv = {"AddmvBackward0", addmv_backward, NULL};
static mt_derivative d_addr = {"AddrBackward0", addr_backward, NULL};
static mt_derivative d_baddbmm = {"BaddbmmBackward0", baddbmm_backward, NULL};
static mt_derivative d_addbmm = {"AddbmmBackward0", baddbmm_backward, NULL};

int
mt_ag_product_op(mt_ag_product kind, mt_TensorObject *a, mt_TensorObject *b, mt_TensorObject *result)
{
    static mt_derivative *const rows[] = {&d_mm, &d_bmm, &d_mv, &d_dot};
    mt_TensorObject *in[2] = {a, b};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(rows[kind], 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_save(node, 0, a, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 1, b, 0);
    }
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

int
mt_ag_addmm_family(int kind, mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta,
                   mt_scalar alpha, mt_TensorObject *result)
{
    static mt_derivative *const rows[] = {&d_addmm, &d_addmv, &d_addr, &d_baddbmm, &d_addbmm};
    mt_TensorObject *in[3] = {self, mat1, mat2};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(3, in)) {
        return 0;
    }
    node = mt_ag_node(rows[kind], 3, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->flag = kind == MT_ADDMM_ADDBMM;
    node->scalars[0] = beta;
    node->scalars[1] = alpha;
    rc = mt_ag_save(node, 0, mat1, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 1, mat2, 0);
    }
    if (rc == 0) {
        rc = result == self ? mt_ag_set_inplace_output(node, result, 3, in) : mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* ---- views and copies ------------------------------------------------------------------------------- */

/* the part of t that a select, slice or diagonal view (the node's flag and ints) takes */
static T *
view_part(const mt_node *node, T *t)
{
    switch (node->flag) {
    case MT_AG_SELECT:
        return mt_select(t, node->ints[0], node->ints[1]);
    case MT_AG_SLICE:
        return mt_slice(t, (int)node->ints[0], node->ints[1], node->ints[2], node->ints[3]);
    default:
        return mt_diagonal(t, node->ints[0], node->ints[1], node->ints[2]);
    }
}

/* The backward of SliceBackward0/SelectBackward0/DiagonalBackward0 as a differentiable op of its grad
 * (torch's slice_backward/select_backward/diagonal_backward): its own gradient takes the same part back out
 * of gg. */
static int
part_backward_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    return put(&out[0], view_part(node, (T *)grads[0]));
}

static mt_derivative d_slice_backward = {"SliceBackwardBackward0", part_backward_backward, NULL};
static mt_derivative d_select_backward = {"SelectBackwardBackward0", part_backward_backward, NULL};
static mt_derivative d_diagonal_backward = {"DiagonalBackwardBackward0", part_backward_backward, NULL};

/* zeros shaped like input 0 with grad written into the part the view took; under create_graph the result
 * records torch's SliceBackwardBackward0 / SelectBackwardBackward0 / DiagonalBackwardBackward0 over grad */
static T *
scatter_into_zeros(const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    T *z = mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)), *part;
    mt_node *bb;
    int rc;

    if (z == NULL) {
        return NULL;
    }
    part = view_part(node, z);
    if (part == NULL || mt_copy_(part, grad) < 0) {
        Py_XDECREF(part);
        Py_DECREF(z);
        return NULL;
    }
    Py_DECREF(part);
    if (!mt_ag_needed(1, &grad)) {
        return z;
    }
    bb = mt_ag_node(node->flag == MT_AG_SELECT  ? &d_select_backward
                    : node->flag == MT_AG_SLICE ? &d_slice_backward
                                                : &d_diagonal_backward,
                    1, &grad, 1);
    if (bb == NULL) {
        Py_DECREF(z);
        return NULL;
    }
    bb->flag = node->flag;
    memcpy(bb->ints, node->ints, sizeof bb->ints);
    rc = mt_ag_set_output(bb, z, 0);
    Py_DECREF(bb);
    if (rc < 0) {
        Py_DECREF(z);
        return NULL;
    }
    return z;
}

/* torch's unfold_backward: zeros shaped like the input with every window's gradient added where the window
 * was, window after window for each element (ATen's CPU kernel's order: the first window first) */
static T *
unfold_backward(const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    int dim = (int)node->ints[0];
    int64_t size = node->ints[1], step = node->ints[2];
    int64_t windows = m->ndim == 0 ? 1 : grad->sizes[dim];
    T *z;

    if (m->ndim == 0) {
        return mt_g_reshape(grad, 0, NULL);
    }
    z = mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad));
    for (int64_t k = size - 1; z != NULL && windows > 0 && k >= 0; k--) {
        T *part = mt_slice(z, dim, k, k + (windows - 1) * step + 1, step);
        T *g = part != NULL ? mt_select(grad, grad->ndim - 1, k) : NULL;
        T *r = g != NULL ? mt_g_add_(part, g) : NULL;
        if (r == NULL) {
            Py_CLEAR(z);
        }
        Py_XDECREF(r);
        Py_XDECREF(g);
        Py_XDECREF(part);
    }
    return z;
}

static int
view_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    const mt_input_meta *m = &node->meta[0];
    int64_t inverse[MT_MAX_DIMS];

    switch ((mt_ag_view_kind)node->flag) {
    case MT_AG_VIEW:
    case MT_AG_UNSAFE_VIEW:
    case MT_AG_SQUEEZE:
    case MT_AG_SQUEEZE_DIM:
    case MT_AG_SQUEEZE_DIMS:
    case MT_AG_SQUEEZE_DIM_INPLACE:
        return put(&out[0], input_sized(node, 0, mt_g_reshape, grad));
    case MT_AG_EXPAND:
        return put(&out[0], mt_g_sum_to(grad, m->ndim, m->sizes));
    case MT_AG_T:
        return put(&out[0], mt_t(grad));
    case MT_AG_TRANSPOSE:
        return put(&out[0], mt_transpose(grad, node->ints[0], node->ints[1]));
    case MT_AG_PERMUTE: {
        const int64_t *dims = (const int64_t *)PyBytes_AS_STRING(node->extra);
        for (int d = 0; d < m->ndim; d++) {
            inverse[dims[d]] = d;
        }
        return put(&out[0], mt_permute(grad, m->ndim, inverse));
    }
    case MT_AG_UNSQUEEZE: {
        int64_t dim = node->ints[0];
        return put(&out[0], mt_squeeze(grad, 1, &dim));
    }
    case MT_AG_SELECT:
    case MT_AG_SLICE:
    case MT_AG_DIAGONAL:
        return put(&out[0], scatter_into_zeros(node, grad));
    case MT_AG_TO_COPY:
        return put(&out[0], mt_g_to(grad, m->dtype, m->device));
    case MT_AG_UNFOLD:
        return put(&out[0], unfold_backward(node, grad));
    default:
        Py_INCREF(grad);
        out[0] = (PyObject *)grad;
        return 0;
    }
}

static mt_derivative view_rows[MT_AG_NUM_VIEWS] = {
    [MT_AG_VIEW] = {"ViewBackward0", view_backward, NULL},
    [MT_AG_UNSAFE_VIEW] = {"UnsafeViewBackward0", view_backward, NULL},
    [MT_AG_EXPAND] = {"ExpandBackward0", view_backward, NULL},
    [MT_AG_T] = {"TBackward0", view_backward, NULL},
    [MT_AG_TRANSPOSE] = {"TransposeBackward0", view_backward, NULL},
    [MT_AG_PERMUTE] = {"PermuteBackward0", view_backward, NULL},
    [MT_AG_UNSQUEEZE] = {"UnsqueezeBackward0", view_backward, NULL},
    [MT_AG_SQUEEZE] = {"SqueezeBackward0", view_backward, NULL},
    [MT_AG_SQUEEZE_DIM] = {"SqueezeBackward1", view_backward, NULL},
    [MT_AG_SQUEEZE_DIMS] = {"SqueezeBackward2", view_backward, NULL},
    [MT_AG_SQUEEZE_DIM_INPLACE] = {"SqueezeBackward4", view_backward, NULL},
    [MT_AG_SELECT] = {"SelectBackward0", view_backward, NULL},
    [MT_AG_SLICE] = {"SliceBackward0", view_backward, NULL},
    [MT_AG_DIAGONAL] = {"DiagonalBackward0", view_backward, NULL},
    [MT_AG_ALIAS] = {"AliasBackward0", view_backward, NULL},
    [MT_AG_CLONE] = {"CloneBackward0", view_backward, NULL},
    [MT_AG_TO_COPY] = {"ToCopyBackward0", view_backward, NULL},
    [MT_AG_UNFOLD] = {"UnfoldBackward0", view_backward, NULL},
};

int
mt_ag_view(mt_ag_view_kind kind, mt_TensorObject *t, mt_TensorObject *result, int n, const int64_t *ints)
{
    mt_TensorObject *in[1] = {t};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    node = mt_ag_node(&view_rows[kind], 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->flag = kind;
    if (kind == MT_AG_PERMUTE) {
        node->extra = PyBytes_FromStringAndSize((const char *)ints, (Py_ssize_t)(sizeof(int64_t) * (size_t)n));
        if (node->extra == NULL) {
            Py_DECREF(node);
            return -1;
        }
    }
    else {
        for (int i = 0; i < n && i < 4; i++) {
            node->ints[i] = ints[i];
        }
    }
    rc = mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

/* ---- as_strided ---------------------------------------------------------------------------------------- */

/* node->extra (int64 bytes): the input's strides and offset, then the result's ndim, sizes, strides and
 * offset (the input's sizes are meta[0]'s) */
typedef struct {
    const int64_t *in_strides;
    int64_t in_offset;
    int out_ndim;
    const int64_t *out_sizes, *out_strides;
    int64_t out_offset;
} strided_geometry;

static strided_geometry
strided_geometry_read(const mt_node *node)
{
    const int64_t *p = (const int64_t *)PyBytes_AS_STRING(node->extra);
    strided_geometry g;

    g.in_strides = p;
    p += node->meta[0].ndim;
    g.in_offset = *p++;
    g.out_ndim = (int)*p++;
    g.out_sizes = p;
    p += g.out_ndim;
    g.out_strides = p;
    p += g.out_ndim;
    g.out_offset = *p;
    return g;
}

/* torch's _maybe_overlapping_memory: dims by increasing stride, each stride past the span of the smaller */
static int
maybe_overlapping(int n, const int64_t *sizes, const int64_t *strides)
{
    int order[MT_MAX_DIMS];
    int64_t reach = 0;

    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && strides[order[j - 1]] > strides[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int i = 0; i < n; i++) {
        if (strides[order[i]] <= reach) {
            return 1;
        }
        reach += strides[order[i]] * (sizes[order[i]] - 1);
    }
    return 0;
}

/* torch's _min_storage_size */
static int64_t
min_storage_size(int n, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    int64_t size = offset + 1;
    for (int i = 0; i < n; i++) {
        if (sizes[i] == 0) {
            return offset;
        }
        size += (sizes[i] - 1) * strides[i];
    }
    return size;
}

/* 0, 1, ..., n - 1 (int64) on device */
static T *
index_range(int64_t n, mt_device device)
{
    mt_device cpu = {MT_DEVICE_CPU, 0};
    T *r = mt_g_zeros(1, &n, MT_INT64, cpu), *moved;
    int64_t *p;

    if (r == NULL) {
        return NULL;
    }
    p = (int64_t *)mt_tensor_data(r);
    for (int64_t i = 0; i < n; i++) {
        p[i] = i;
    }
    moved = mt_g_to(r, MT_INT64, device);
    Py_DECREF(r);
    return moved;
}

/* storage.index_add_(0, positions.reshape(-1), values.reshape(-1)) where positions is `range` viewed with
 * the geometry; 0 or -1 */
static int
add_at_positions(T *storage, T *range, int n, const int64_t *sizes, const int64_t *strides, int64_t offset,
                 T *values)
{
    T *pos = mt_as_strided(range, n, sizes, n, strides, 1, offset), *flat_pos = NULL, *flat = NULL, *r = NULL;
    int64_t numel = values->ndim == 0 ? 1 : -1;
    mt_scalar one;

    memset(&one, 0, sizeof one);
    one.kind = MT_INT64;
    one.v.i = 1;
    if (pos != NULL) {
        flat_pos = mt_reshape(pos, 1, &numel);
    }
    if (flat_pos != NULL) {
        flat = mt_reshape(values, 1, &numel);
    }
    if (flat != NULL) {
        r = (T *)mt_index_add(storage, 0, flat_pos, flat, one, 1);
    }
    Py_XDECREF(pos);
    Py_XDECREF(flat_pos);
    Py_XDECREF(flat);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

/* torch's as_strided_backward (FunctionsManual.cpp): the gradient scattered into a zero "storage" through
 * the result's geometry (index_add_ where it overlaps itself), divided by how often the input's geometry
 * sees each element where that overlaps, then viewed with the input's geometry */
static int
as_strided_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    const mt_input_meta *m = &node->meta[0];
    strided_geometry g = strided_geometry_read(node);
    int64_t osz[MT_MAX_DIMS], ost[MT_MAX_DIMS], isz[MT_MAX_DIMS], ist[MT_MAX_DIMS];
    int on = 0, in = 0, out_overlap, in_overlap;
    int64_t shared, in_eff, out_eff, base, s1, s2;
    T *grad = (T *)grads[0], *storage = NULL, *range = NULL, *r = NULL;
    mt_device device = mt_tensor_device(grad);

    Py_INCREF(grad);
    for (int i = g.out_ndim - 1; i >= 0; i--) {
        if (g.out_sizes[i] == 0) {
            Py_DECREF(grad);
            return put(&out[0], mt_g_zeros(m->ndim, m->sizes, grad->dtype, device));
        }
        if (g.out_sizes[i] == 1 || g.out_strides[i] == 0) {
            int64_t d = i;
            T *next = g.out_sizes[i] == 1 ? mt_squeeze(grad, 1, &d) : mt_g_sum_dims(grad, (uint64_t)1 << i, 0);
            Py_DECREF(grad);
            if ((grad = next) == NULL) {
                return -1;
            }
            continue;
        }
        memmove(osz + 1, osz, sizeof(int64_t) * (size_t)on);
        memmove(ost + 1, ost, sizeof(int64_t) * (size_t)on);
        osz[0] = g.out_sizes[i];
        ost[0] = g.out_strides[i];
        on++;
    }
    out_overlap = maybe_overlapping(on, osz, ost);
    for (int i = m->ndim - 1; i >= 0; i--) {
        if (m->sizes[i] == 0) {
            Py_DECREF(grad);
            return put(&out[0], mt_g_zeros(m->ndim, m->sizes, grad->dtype, device));
        }
        if (m->sizes[i] != 1) {
            memmove(isz + 1, isz, sizeof(int64_t) * (size_t)in);
            memmove(ist + 1, ist, sizeof(int64_t) * (size_t)in);
            isz[0] = m->sizes[i];
            ist[0] = g.in_strides[i];
            in++;
        }
    }
    in_overlap = maybe_overlapping(in, isz, ist);
    shared = g.in_offset < g.out_offset ? g.in_offset : g.out_offset;
    in_eff = g.in_offset - shared;
    out_eff = g.out_offset - shared;
    s1 = min_storage_size(in, isz, ist, in_eff);
    s2 = min_storage_size(on, osz, ost, out_eff);
    base = s1 > s2 ? s1 : s2;
    storage = mt_g_zeros(1, &base, grad->dtype, device);
    if (storage == NULL) {
        goto done;
    }
    if ((in_overlap || out_overlap) && (range = index_range(base, device)) == NULL) {
        goto done;
    }
    if (out_overlap) {
        if (add_at_positions(storage, range, on, osz, ost, out_eff, grad) < 0) {
            goto done;
        }
    }
    else {
        /* copy_ as the public op: under create_graph the copy is recorded (CopySlices), as torch's is */
        T *part = mt_as_strided(storage, on, osz, on, ost, 1, out_eff);
        T *copied = mt_g_copy_(part, grad);
        Py_XDECREF(part);
        if (copied == NULL) {
            goto done;
        }
        Py_DECREF(copied);
    }
    if (in_overlap) {
        int64_t one_size = 1;
        T *count = mt_g_zeros(1, &base, grad->dtype, device), *ones = NULL, *q;
        mt_scalar one;
        int rc = -1;
        memset(&one, 0, sizeof one);
        one.kind = MT_INT64;
        one.v.i = 1;
        if (count != NULL && (ones = mt_g_zeros(1, &one_size, grad->dtype, device)) != NULL &&
            mt_fill_(ones, one) == 0) {
            int64_t numel = 1;
            for (int i = 0; i < in; i++) {
                numel *= isz[i];
            }
            T *many = mt_g_expand(ones, 1, &numel);
            /* the positions are viewed flat, so the ones are too */
            if (many != NULL) {
                rc = add_at_positions(count, range, in, isz, ist, in_eff, many);
                Py_DECREF(many);
            }
        }
        if (rc == 0 && (q = mt_g_div(storage, count)) != NULL) {
            Py_SETREF(storage, q);
        }
        else {
            rc = -1;
        }
        Py_XDECREF(ones);
        Py_XDECREF(count);
        if (rc < 0) {
            goto done;
        }
    }
    r = mt_as_strided(storage, m->ndim, m->sizes, m->ndim, g.in_strides, 1, in_eff);

done:
    Py_DECREF(grad);
    Py_XDECREF(storage);
    Py_XDECREF(range);
    return put(&out[0], r);
}

static mt_derivative d_as_strided0 = {"AsStridedBackward0", as_strided_backward, NULL};
static mt_derivative d_as_strided1 = {"AsStridedBackward1", as_strided_backward, NULL};

mt_node *
mt_ag_as_strided_node(int inplace, mt_TensorObject *t, mt_TensorObject *view)
{
    mt_TensorObject *in[1] = {t};
    mt_node *node = mt_ag_node(inplace ? &d_as_strided1 : &d_as_strided0, 1, in, 1);
    size_t n = (size_t)t->ndim + 3 + 2 * (size_t)view->ndim;
    int64_t *p;

    if (node == NULL) {
        return NULL;
    }
    node->extra = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sizeof(int64_t)));
    if (node->extra == NULL) {
        Py_DECREF(node);
        return NULL;
    }
    p = (int64_t *)PyBytes_AS_STRING(node->extra);
    memcpy(p, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    p += t->ndim;
    *p++ = t->offset;
    *p++ = view->ndim;
    memcpy(p, view->sizes, sizeof(int64_t) * (size_t)view->ndim);
    p += view->ndim;
    memcpy(p, view->strides, sizeof(int64_t) * (size_t)view->ndim);
    p += view->ndim;
    *p = view->offset;
    return node;
}

/* ---- tril, triu, diag -------------------------------------------------------------------------------- */

/* flag: 0 tril, 1 triu, 2 diag of a vector, 3 diag of a matrix; ints[0]: the diagonal */
static int
triangle_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    const mt_input_meta *m = &node->meta[0];

    switch (node->flag) {
    case 0:
    case 1:
        return put(&out[0], (T *)mt_triangle(grad, node->flag, node->ints[0], 0));
    case 2:
        return put(&out[0], (T *)mt_diag(grad, node->ints[0]));
    default:
        return put(&out[0], mt_diag_embed_2d(grad, m->sizes[0], m->sizes[1], node->ints[0]));
    }
}

static mt_derivative triangle_rows[4] = {
    {"TrilBackward0", triangle_backward, NULL},
    {"TriuBackward0", triangle_backward, NULL},
    {"DiagEmbedBackward0", triangle_backward, NULL},
    {"DiagonalBackward0_copy", triangle_backward, NULL},
};

static int
record_triangle(int flag, mt_TensorObject *t, int64_t k, mt_TensorObject *result)
{
    mt_TensorObject *in[1] = {t};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    node = mt_ag_node(&triangle_rows[flag], 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->flag = flag;
    node->ints[0] = k;
    rc = result == t ? mt_ag_set_inplace_output(node, result, 1, in) : mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

int
mt_ag_triangle(int upper, mt_TensorObject *t, int64_t k, mt_TensorObject *result)
{
    return record_triangle(upper ? 1 : 0, t, k, result);
}

int
mt_ag_diag(mt_TensorObject *t, int64_t k, mt_TensorObject *result)
{
    return record_triangle(t->ndim == 1 ? 2 : 3, t, k, result);
}

/* ---- several inputs or outputs --------------------------------------------------------------------- */

static int
cat_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];
    int64_t dim = node->ints[0], offset = 0;

    for (int i = 0; i < node->num_inputs; i++) {
        const mt_input_meta *m = &node->meta[i];
        if (node->flag) {
            /* stack: the input is the dim-th slice */
            if (NEEDS(node, i) && put(&out[i], mt_select(grad, dim, i)) < 0) {
                return -1;
            }
            continue;
        }
        if (m->ndim == 1 && m->sizes[0] == 0) {
            continue;   /* torch's cat skips empty 1-D inputs */
        }
        if (NEEDS(node, i) && put(&out[i], mt_narrow(grad, dim, offset, m->sizes[dim])) < 0) {
            return -1;
        }
        offset += m->sizes[dim];
    }
    return 0;
}

static mt_derivative d_cat = {"CatBackward0", cat_backward, NULL};
static mt_derivative d_stack = {"StackBackward0", cat_backward, NULL};

int
mt_ag_cat(int stack, Py_ssize_t n, mt_TensorObject *const *inputs, int64_t dim, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (n > INT_MAX || !mt_ag_needed((int)n, inputs)) {
        return 0;
    }
    node = mt_ag_node(stack ? &d_stack : &d_cat, (int)n, inputs, 1);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = dim;
    node->flag = stack;
    rc = mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

static int
split_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    /* the outputs' gradients put back together, zeros for those that got none */
    PyObject *sizes = node->extra;
    int64_t dim = node->ints[0];
    const mt_input_meta *m = &node->meta[0];
    mt_TensorObject **parts = PyMem_Calloc((size_t)node->num_outputs + 1, sizeof(mt_TensorObject *));
    mt_dtype dtype = m->dtype;
    mt_device device = m->device;
    int rc = -1;

    if (parts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < node->num_outputs; k++) {
        if (grads[k] != NULL) {
            dtype = ((T *)grads[k])->dtype;
            device = mt_tensor_device((T *)grads[k]);
            break;
        }
    }
    for (int k = 0; k < node->num_outputs; k++) {
        if (grads[k] != NULL) {
            Py_INCREF(grads[k]);
            parts[k] = (T *)grads[k];
        }
        else {
            int64_t shape[MT_MAX_DIMS];
            memcpy(shape, m->sizes, sizeof(int64_t) * (size_t)m->ndim);
            shape[dim] = node->flag ? 1 : PyLong_AsLongLong(PyTuple_GET_ITEM(sizes, k));
            if (node->flag) {
                /* unbind's outputs lack the dim */
                memmove(shape + dim, shape + dim + 1, sizeof(int64_t) * (size_t)(m->ndim - dim - 1));
            }
            parts[k] = mt_g_zeros(node->flag ? m->ndim - 1 : m->ndim, shape, dtype, device);
            if (parts[k] == NULL) {
                goto done;
            }
        }
    }
    rc = put(&out[0], node->flag ? mt_stack(node->num_outputs, parts, dim) : mt_cat(node->num_outputs, parts, dim));

done:
    for (int k = 0; k < node->num_outputs; k++) {
        Py_XDECREF(parts[k]);
    }
    PyMem_Free(parts);
    return rc;
}

static mt_derivative d_unbind = {"UnbindBackward0", split_backward, NULL};
static mt_derivative d_split = {"SplitBackward0", split_backward, NULL};
static mt_derivative d_split_with_sizes = {"SplitWithSizesBackward0", split_backward, NULL};

int
mt_ag_split(mt_ag_split_kind kind, mt_TensorObject *t, int64_t dim, PyObject *outputs)
{
    int unbind = kind == MT_AG_UNBIND;
    mt_TensorObject *in[1] = {t};
    Py_ssize_t n = PyTuple_GET_SIZE(outputs);
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(1, in) || n > INT_MAX) {
        return 0;
    }
    node = mt_ag_node(unbind ? &d_unbind : kind == MT_AG_SPLIT_WITH_SIZES ? &d_split_with_sizes : &d_split, 1, in,
                      (int)n);
    if (node == NULL) {
        return -1;
    }
    node->ints[0] = dim;
    node->flag = unbind;
    node->extra = PyTuple_New(n);
    if (node->extra == NULL) {
        rc = -1;
    }
    for (Py_ssize_t k = 0; k < n && rc == 0; k++) {
        mt_TensorObject *o = (mt_TensorObject *)PyTuple_GET_ITEM(outputs, k);
        PyObject *size = PyLong_FromLongLong(unbind ? 1 : o->sizes[dim]);
        if (size == NULL) {
            rc = -1;
            break;
        }
        PyTuple_SET_ITEM(node->extra, k, size);
        rc = mt_ag_set_output(node, o, (int)k);
    }
    Py_DECREF(node);
    return rc;
}

static int
copy_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    if (NEEDS(node, 0) && put(&out[0], mt_g_zeros(grad->ndim, grad->sizes, grad->dtype, mt_tensor_device(grad))) < 0) {
        return -1;
    }
    if (NEEDS(node, 1)) {
        return put(&out[1], mt_g_to(grad, node->meta[1].dtype, node->meta[1].device));
    }
    return 0;
}

static mt_derivative d_copy = {"CopyBackwards", copy_backward, NULL};

int
mt_ag_copy(mt_TensorObject *self, mt_TensorObject *src)
{
    mt_TensorObject *in[2] = {self, src};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(2, in)) {
        return 0;
    }
    node = mt_ag_node(&d_copy, 2, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_set_inplace_output(node, self, 2, in);
    Py_DECREF(node);
    return rc;
}

int
mt_ag_not_implemented(mt_derivative *d, int n, mt_TensorObject *const *inputs, mt_TensorObject *result)
{
    mt_node *node;
    int rc;

    if (!mt_ag_needed(n, inputs)) {
        return 0;
    }
    node = mt_ag_node(d, n, inputs, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_set_output(node, result, 0);
    Py_DECREF(node);
    return rc;
}

static int
fill_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0];

    if (NEEDS(node, 0) && put(&out[0], mt_g_zeros(grad->ndim, grad->sizes, grad->dtype, mt_tensor_device(grad))) < 0) {
        return -1;
    }
    if (node->num_inputs > 1 && NEEDS(node, 1)) {
        return put(&out[1], mt_g_sum_dims(grad, ~0ull, 0));
    }
    return 0;
}

static mt_derivative fill_rows[] = {
    [MT_AG_FILL_NUMBER] = {"FillBackward2", fill_backward, NULL},
    [MT_AG_FILL_TENSOR] = {"FillBackward3", fill_backward, NULL},
    [MT_AG_FILL_ZERO] = {"ZeroBackward0", fill_backward, NULL},
    [MT_AG_FILL_UNIFORM] = {"UniformBackward0", fill_backward, NULL},
    [MT_AG_FILL_NORMAL] = {"NormalBackward0", fill_backward, NULL},
    [MT_AG_FILL_RANDOM_FROM] = {"RandomBackward0", fill_backward, NULL},
    [MT_AG_FILL_RANDOM_TO] = {"RandomBackward1", fill_backward, NULL},
    [MT_AG_FILL_RANDOM] = {"RandomBackward2", fill_backward, NULL},
};

int
mt_ag_fill(mt_ag_fill_kind kind, mt_TensorObject *self, mt_TensorObject *value)
{
    mt_TensorObject *in[2] = {self, value};
    int n = value != NULL ? 2 : 1;
    mt_node *node;
    int rc;

    if (!mt_ag_needed(n, in)) {
        return 0;
    }
    node = mt_ag_node(&fill_rows[kind], n, in, 1);
    if (node == NULL) {
        return -1;
    }
    rc = mt_ag_set_inplace_output(node, self, n, in);
    Py_DECREF(node);
    return rc;
}
