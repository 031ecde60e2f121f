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
T *mt_g_sub(T *a, T *b) { return binary(MT_BINARY_SUB, a, b, NULL, 0); }
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

/* a comparison with 0 as a 1/0 tensor of a's dtype */
static T *
compare_zero(mt_binary_op op, T *a)
{
    mt_scalar zero = int_scalar(0);
    T *mask = binary(op, a, NULL, &zero, 0), *r;

    if (mask == NULL) {
        return NULL;
    }
    r = mt_g_to(mask, a->dtype, mt_tensor_device(a));
    Py_DECREF(mask);
    return r;
}

T *
mt_g_gt_zero(T *a)
{
    return compare_zero(MT_BINARY_GT, a);
}

T *
mt_g_sign(T *a)
{
    T *pos = compare_zero(MT_BINARY_GT, a), *neg = pos != NULL ? compare_zero(MT_BINARY_LT, a) : NULL;
    T *r = neg != NULL ? mt_g_sub(pos, neg) : NULL;

    Py_XDECREF(pos);
    Py_XDECREF(neg);
    return r;
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

/* The saved operand i, or NULL with the number in scalars[1] when the operand was a number. */
static int
operand(mt_node *node, int i, T **t)
{
    *t = NULL;
    if (!node->saved[i].saved || (node->saved[i].tensor == NULL && !node->released)) {
        return 0;   /* not saved, or a number (scalars[1]) */
    }
    *t = mt_ag_unpack(node, i);
    return *t != NULL ? 0 : -1;
}

static int
mul_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *self, *other;
    int rc = 0;

    if (operand(node, 0, &self) < 0 || operand(node, 1, &other) < 0) {
        Py_XDECREF(self);
        return -1;
    }
    if (NEEDS(node, 0)) {
        rc = put(&out[0], other != NULL ? mt_g_mul(grad, other) : mt_g_mul_scalar(grad, node->scalars[1]));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        rc = put(&out[1], mt_g_mul(grad, self));
    }
    Py_XDECREF(self);
    Py_XDECREF(other);
    return rc;
}

static int
div_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *grad = (T *)grads[0], *self, *other;
    int rc = 0;

    if (operand(node, 0, &self) < 0 || operand(node, 1, &other) < 0) {
        Py_XDECREF(self);
        return -1;
    }
    if (NEEDS(node, 0)) {
        rc = put(&out[0], other != NULL ? mt_g_div(grad, other) : mt_g_div_scalar(grad, node->scalars[1]));
    }
    if (rc == 0 && NEEDS(node, 1)) {
        /* -grad * ((self / other) / other) */
        T *q = mt_g_div(self, other), *q2 = q != NULL ? mt_g_div(q, other) : NULL, *ng = mt_g_neg(grad);
        rc = put(&out[1], q2 != NULL && ng != NULL ? mt_g_mul(ng, q2) : NULL);
        Py_XDECREF(q);
        Py_XDECREF(q2);
        Py_XDECREF(ng);
    }
    Py_XDECREF(self);
    Py_XDECREF(other);
    return rc;
}

static mt_derivative d_add = {"AddBackward0", add_backward, NULL};
static mt_derivative d_sub = {"SubBackward0", sub_backward, NULL};
static mt_derivative d_rsub = {"RsubBackward1", rsub_backward, NULL};
static mt_derivative d_mul = {"MulBackward0", mul_backward, NULL};
static mt_derivative d_div = {"DivBackward0", div_backward, NULL};
static mt_derivative d_maximum = {"MaximumBackward0", NULL, NULL};
static mt_derivative d_minimum = {"MinimumBackward0", NULL, NULL};

int
mt_ag_binary_needs_original(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b)
{
    return (op == MT_BINARY_MUL || op == MT_BINARY_DIV) && b != NULL && mt_requires_grad(b) && mt_grad_enabled();
}

int
mt_ag_binary(mt_binary_op op, mt_TensorObject *a, mt_TensorObject *b, mt_scalar number, mt_scalar alpha,
             int reflected, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[2] = {a, b};
    mt_derivative *d;
    mt_node *node;
    int rc = 0;

    if (MT_BINARY_IS_COMPARISON(op) || !mt_ag_needed(2, in)) {
        return 0;
    }
    switch (op) {
    case MT_BINARY_ADD:
        d = &d_add;
        break;
    case MT_BINARY_SUB:
        d = reflected ? &d_rsub : &d_sub;
        break;
    case MT_BINARY_MUL:
        d = &d_mul;
        break;
    case MT_BINARY_DIV:
        d = &d_div;
        break;
    case MT_BINARY_MAXIMUM:
        d = &d_maximum;
        break;
    default:
        d = &d_minimum;
        break;
    }
    if (reflected && op == MT_BINARY_SUB) {
        /* number - tensor is torch's rsub(tensor, number): the tensor is the only input */
        in[0] = b != NULL ? b : a;
        node = mt_ag_node(d, 1, in, 1);
    }
    else {
        node = mt_ag_node(d, 2, in, 1);
    }
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = alpha;
    node->scalars[1] = number;
    if (op == MT_BINARY_MUL || op == MT_BINARY_DIV) {
        /* mul saves each operand for the other's gradient; div saves both for other's */
        mt_TensorObject *self = original != NULL ? original : a;
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
    rc = result == a ? mt_ag_set_inplace_output(node, result, 2, in) : mt_ag_set_output(node, result, 0);

done:
    Py_DECREF(node);
    return rc;
}

/* ---- unary ------------------------------------------------------------------------------------------ */

static int
neg_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    return put(&out[0], mt_g_neg((T *)grads[0]));
}

static int
abs_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *self = mt_ag_unpack(node, 0), *sgn = mt_g_sign(self);
    int rc = put(&out[0], sgn != NULL ? mt_g_mul((T *)grads[0], sgn) : NULL);

    Py_XDECREF(self);
    Py_XDECREF(sgn);
    return rc;
}

/* torch's threshold_backward(grad, result, 0): grad where result > 0, +0 elsewhere */
static int
relu_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *result = mt_ag_unpack(node, 0), *mask = mt_g_gt_zero(result);
    T *masked = mask != NULL ? mt_g_mul((T *)grads[0], mask) : NULL;
    mt_scalar zero = float_scalar(0.0);
    mt_cx_operand x, y;
    int rc;

    /* grad * 0 is -0.0 for a negative grad; adding +0.0 gives threshold_backward's +0.0 */
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.op.tensor = masked;
    y.op.scalar = zero;
    rc = put(&out[0], masked != NULL ? (T *)mt_binary("add", MT_BINARY_ADD, &x, &y, NULL, NULL) : NULL);
    Py_XDECREF(result);
    Py_XDECREF(mask);
    Py_XDECREF(masked);
    return rc;
}

static int
exp_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *result = mt_ag_unpack(node, 0);
    int rc = put(&out[0], result != NULL ? mt_g_mul((T *)grads[0], result) : NULL);

    Py_XDECREF(result);
    return rc;
}

static int
log_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *self = mt_ag_unpack(node, 0);
    int rc = put(&out[0], self != NULL ? mt_g_div((T *)grads[0], self) : NULL);

    Py_XDECREF(self);
    return rc;
}

static int
sqrt_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    /* grad / (2 * result) */
    T *result = mt_ag_unpack(node, 0), *twice = result != NULL ? mt_g_mul_scalar(result, int_scalar(2)) : NULL;
    int rc = put(&out[0], twice != NULL ? mt_g_div((T *)grads[0], twice) : NULL);

    Py_XDECREF(result);
    Py_XDECREF(twice);
    return rc;
}

static int
reciprocal_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    /* -grad * (result * result) */
    T *result = mt_ag_unpack(node, 0), *sq = result != NULL ? mt_g_mul(result, result) : NULL;
    T *ng = sq != NULL ? mt_g_neg((T *)grads[0]) : NULL;
    int rc = put(&out[0], ng != NULL ? mt_g_mul(ng, sq) : NULL);

    Py_XDECREF(result);
    Py_XDECREF(sq);
    Py_XDECREF(ng);
    return rc;
}

static mt_derivative d_neg = {"NegBackward0", neg_backward, NULL};
static mt_derivative d_abs = {"AbsBackward0", abs_backward, NULL};
static mt_derivative d_relu = {"ReluBackward0", relu_backward, NULL};
static mt_derivative d_exp = {"ExpBackward0", exp_backward, NULL};
static mt_derivative d_log = {"LogBackward0", log_backward, NULL};
static mt_derivative d_sqrt = {"SqrtBackward0", sqrt_backward, NULL};
static mt_derivative d_reciprocal = {"ReciprocalBackward0", reciprocal_backward, NULL};

int
mt_ag_unary(mt_unary_op op, mt_TensorObject *t, mt_TensorObject *result, mt_TensorObject *original)
{
    mt_TensorObject *in[1] = {t};
    mt_derivative *d;
    mt_node *node;
    int rc = 0;
    int saves_result = 0, saves_input = 0;

    if (!mt_ag_needed(1, in)) {
        return 0;
    }
    switch (op) {
    case MT_UNARY_NEG:
        d = &d_neg;
        break;
    case MT_UNARY_ABS:
        d = &d_abs;
        saves_input = 1;
        break;
    case MT_UNARY_RELU:
        d = &d_relu;
        saves_result = 1;
        break;
    case MT_UNARY_EXP:
        d = &d_exp;
        saves_result = 1;
        break;
    case MT_UNARY_LOG:
        d = &d_log;
        saves_input = 1;
        break;
    case MT_UNARY_SQRT:
        d = &d_sqrt;
        saves_result = 1;
        break;
    default:
        d = &d_reciprocal;
        saves_result = 1;
        break;
    }
    node = mt_ag_node(d, 1, in, 1);
    if (node == NULL) {
        return -1;
    }
    if (saves_input) {
        rc = mt_ag_save(node, 0, original != NULL ? original : t, 0);
    }
    if (rc == 0) {
        rc = result == t ? mt_ag_set_inplace_output(node, result, 1, in) : mt_ag_set_output(node, result, 0);
    }
    if (rc == 0 && saves_result) {
        rc = mt_ag_save(node, 0, result, 1);
    }
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

/* torch's evenly_distribute_backward (CPU): grad / count at the elements equal to the result, 0 elsewhere */
static int
extreme_backward(mt_node *node, PyObject *const *grads, PyObject **out)
{
    T *self = mt_ag_unpack(node, 0), *result = self != NULL ? mt_ag_unpack(node, 1) : NULL;
    T *mask = result != NULL ? mt_g_eq(self, result) : NULL;
    T *count = mask != NULL ? mt_g_sum_dims(mask, ~0ull, 0) : NULL;
    T *share = count != NULL ? mt_g_div((T *)grads[0], count) : NULL;
    T *fmask = share != NULL ? mt_g_to(mask, share->dtype, mt_tensor_device(share)) : NULL;
    T *spread = fmask != NULL ? mt_g_mul(fmask, share) : NULL;
    mt_scalar zero = float_scalar(0.0);
    int rc = put(&out[0], spread != NULL ? binary(MT_BINARY_ADD, spread, NULL, &zero, 0) : NULL);

    Py_XDECREF(self);
    Py_XDECREF(result);
    Py_XDECREF(mask);
    Py_XDECREF(count);
    Py_XDECREF(share);
    Py_XDECREF(fmask);
    Py_XDECREF(spread);
    return rc;
}

static mt_derivative d_sum0 = {"SumBackward0", sum_backward, NULL};
static mt_derivative d_sum1 = {"SumBackward1", sum_backward, NULL};
static mt_derivative d_mean0 = {"MeanBackward0", mean_backward, NULL};
static mt_derivative d_mean1 = {"MeanBackward1", mean_backward, NULL};
static mt_derivative d_max1 = {"MaxBackward1", extreme_backward, NULL};
static mt_derivative d_min1 = {"MinBackward1", extreme_backward, NULL};
static mt_derivative d_max0 = {"MaxBackward0", NULL, NULL};
static mt_derivative d_min0 = {"MinBackward0", NULL, NULL};

int
mt_ag_reduce(mt_ag_reduction kind, mt_TensorObject *t, int all, uint64_t mask, int keepdim, mt_TensorObject *result)
{
    mt_TensorObject *in[1] = {t};
    static mt_derivative *const rows[6][2] = {{&d_sum1, &d_sum0}, {&d_mean1, &d_mean0}, {&d_max1, &d_max1},
                                              {&d_min1, &d_min1}, {&d_max0, &d_max0}, {&d_min0, &d_min0}};
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

/* torch's mm_mat1_backward: grad @ mat2.t(), or (mat2 @ grad.t()).t() when mat1 was column-major */
static T *
mm_mat1_backward(T *grad, T *mat1, T *mat2, mt_scalar alpha)
{
    T *x, *y, *r;

    if (column_major(mat1)) {
        x = t_of(grad);
        y = mm(mat2, x);
        r = t_of(y);
    }
    else {
        x = t_of(mat2);
        y = NULL;
        r = mm(grad, x);
    }
    Py_XDECREF(x);
    Py_XDECREF(y);
    return maybe_multiply(r, alpha);
}

/* torch's mm_mat2_backward: mat1.t() @ grad, or (grad.t() @ mat1).t() when mat2 was column-major */
static T *
mm_mat2_backward(T *grad, T *mat1, T *mat2, mt_scalar alpha)
{
    T *x, *y, *r;

    if (column_major(mat2)) {
        x = t_of(grad);
        y = mm(x, mat1);
        r = t_of(y);
    }
    else {
        x = t_of(mat1);
        y = NULL;
        r = mm(x, grad);
    }
    Py_XDECREF(x);
    Py_XDECREF(y);
    return maybe_multiply(r, alpha);
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
static mt_derivative d_addmm = {"AddmmBackward0", addmm_backward, NULL};

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
mt_ag_addmm(mt_TensorObject *self, mt_TensorObject *mat1, mt_TensorObject *mat2, mt_scalar beta, mt_scalar alpha,
            mt_TensorObject *result)
{
    mt_TensorObject *in[3] = {self, mat1, mat2};
    mt_node *node;
    int rc;

    if (!mt_ag_needed(3, in)) {
        return 0;
    }
    node = mt_ag_node(&d_addmm, 3, in, 1);
    if (node == NULL) {
        return -1;
    }
    node->scalars[0] = beta;
    node->scalars[1] = alpha;
    rc = mt_ag_save(node, 0, mat1, 0);
    if (rc == 0) {
        rc = mt_ag_save(node, 1, mat2, 0);
    }
    if (rc == 0) {
        rc = mt_ag_set_output(node, result, 0);
    }
    Py_DECREF(node);
    return rc;
}

/* ---- views and copies ------------------------------------------------------------------------------- */

/* zeros shaped like input 0 with grad written into the part the view took */
static T *
scatter_into_zeros(const mt_node *node, T *grad)
{
    const mt_input_meta *m = &node->meta[0];
    T *z = mt_g_zeros(m->ndim, m->sizes, grad->dtype, mt_tensor_device(grad)), *part;

    if (z == NULL) {
        return NULL;
    }
    part = node->flag == MT_AG_SELECT ? mt_select(z, node->ints[0], node->ints[1])
                                      : mt_slice(z, (int)node->ints[0], node->ints[1], node->ints[2], node->ints[3]);
    if (part == NULL || mt_copy_(part, grad) < 0) {
        Py_XDECREF(part);
        Py_DECREF(z);
        return NULL;
    }
    Py_DECREF(part);
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
        return put(&out[0], scatter_into_zeros(node, grad));
    case MT_AG_TO_COPY:
        return put(&out[0], mt_g_to(grad, m->dtype, m->device));
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
    [MT_AG_ALIAS] = {"AliasBackward0", view_backward, NULL},
    [MT_AG_CLONE] = {"CloneBackward0", view_backward, NULL},
    [MT_AG_TO_COPY] = {"ToCopyBackward0", view_backward, NULL},
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

int
mt_ag_split(int unbind, mt_TensorObject *t, int64_t dim, PyObject *outputs)
{
    mt_TensorObject *in[1] = {t};
    Py_ssize_t n = PyTuple_GET_SIZE(outputs);
    mt_node *node;
    int rc = 0;

    if (!mt_ag_needed(1, in) || n > INT_MAX) {
        return 0;
    }
    node = mt_ag_node(unbind ? &d_unbind : &d_split, 1, in, (int)n);
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

static mt_derivative d_index = {"IndexBackward0", NULL, NULL};

int
mt_ag_index(mt_TensorObject *t, mt_TensorObject *result)
{
    return mt_ag_not_implemented(&d_index, 1, &t, result);
}
