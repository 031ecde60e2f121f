/* elementwise.c: the elementwise ops as Python sees them: add/sub (alpha=), mul, div (true division),
 * their in-place forms and operators, neg, abs, exp, log, sqrt, relu, reciprocal, maximum/minimum and
 * the six comparisons, as Tensor methods, module functions and number-protocol slots. Each call parses
 * its arguments, runs torch's checks in torch's order (dispatch.h), lays out the result like
 * TensorIterator (the output follows the inputs' memory order), and runs one kernel of the device's
 * backend (kernels/backend.h; CPU tensors of one dtype and shape take the host kernel directly). Python
 * numbers, and 0-d CPU tensors next to another device's tensors, reach the kernel as values (stride 0,
 * on the stack, never temporary tensors); a 0-d tensor on the op's device is read in place with stride
 * 0. A complex Python number never
 * reaches a kernel (minitorch has no complex dtype): complex_binary raises what torch raises, or
 * NotImplementedError where torch would return a complex tensor, and computes eq/ne. add/sub also take
 * torch's deprecated (alpha, other) overload, subtract its (other, alpha) one. This file never touches
 * elements itself. */
#include "elementwise.h"

#include <string.h>

#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../kernels/cpu/elementwise.h"
#include "../kernels/cpu/parallel.h"
#include "dispatch.h"
#include "interop.h"
#include "methods.h"

/* ---- operands as the kernel sees them ------------------------------------------------------------ */

/* A kernel input: a tensor with dims; a 0-d tensor on the op's device, read in place with stride 0; or
 * a value (a Python number, or a 0-d CPU tensor next to another device's tensors, as TensorIterator
 * takes a CPU scalar) converted into `slot`, one element of the compute dtype read with stride 0. */
typedef struct {
    mt_TensorObject *tensor;    /* NULL when the value lives in `slot` or at `device_value` */
    mt_TensorObject *device_value;  /* a 0-d tensor on the op's device (its own dtype), or NULL */
    mt_value slot;
} kernel_input;

/* Reads op into `in` for an op on `device`. */
static void
kernel_input_from_operand(kernel_input *in, const mt_operand *op, mt_dtype compute, mt_device device)
{
    in->device_value = NULL;
    if (op->tensor != NULL && op->tensor->ndim > 0) {
        in->tensor = op->tensor;
        return;
    }
    in->tensor = NULL;
    if (op->tensor != NULL && mt_device_equal(mt_tensor_device(op->tensor), device)) {
        in->device_value = op->tensor;
        return;
    }
    if (op->tensor != NULL) {
        mt_scalar s = mt_scalar_load(op->tensor->dtype, mt_tensor_data(op->tensor));
        mt_scalar_store(s, compute, in->slot.bytes);
    }
    else {
        mt_scalar s = op->scalar;
        if (s.kind == MT_INT64 && s.is_uint64 && mt_dtype_is_floating(compute)) {
            /* a Python int in [2**63, 2**64): its value, not its int64 bit pattern (integer dtypes wrap
             * it, as torch does) */
            s.kind = MT_FLOAT64;
            s.v.d = (double)(uint64_t)s.v.i;
        }
        mt_scalar_store(s, compute, in->slot.bytes);
    }
}

/* ---- result layout (TensorIterator's fast setup and reorder_dimensions) -------------------------- */

typedef struct {
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    int linear;                     /* every tensor shares one dense layout: a single flat loop */
    int out_contiguous;             /* a new output is plain contiguous */
    int64_t out_strides[MT_MAX_DIMS];
    int perm[MT_MAX_DIMS];          /* !linear: perm[0] is the fastest-moving tensor dim */
} layout_plan;

static int
same_sizes(const mt_TensorObject *t, int ndim, const int64_t *shape)
{
    return t->ndim == ndim && memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)ndim) == 0;
}

static int
same_strides(const mt_TensorObject *a, const mt_TensorObject *b)
{
    return memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) == 0;
}

/* torch's reorder_dimensions: sort dims so that the first operand with an opinion (strictly smaller
 * stride; equal strides: smaller size first) decides; broadcast dims have no opinion. */
static void
compute_perm(layout_plan *p, int n, mt_TensorObject *const *ops)
{
    int ndim = p->ndim;
    int64_t st[MT_ITER_MAX_OPS][MT_MAX_DIMS];

    for (int k = 0; k < n; k++) {
        const mt_TensorObject *t = ops[k];
        int off = ndim - t->ndim;
        for (int d = 0; d < off; d++) {
            st[k][d] = 0;
        }
        for (int i = 0; i < t->ndim; i++) {
            st[k][off + i] = (t->sizes[i] == 1 && p->shape[off + i] != 1) ? 0 : t->strides[i];
        }
    }
    for (int i = 0; i < ndim; i++) {
        p->perm[i] = ndim - 1 - i;
    }
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int d0 = p->perm[dim0];
            int d1 = p->perm[dim1];
            int cmp = 0;
            for (int k = 0; k < n; k++) {
                int64_t s0 = st[k][d0];
                int64_t s1 = st[k][d1];
                if (s0 == 0 || s1 == 0) {
                    continue;
                }
                if (s0 < s1) {
                    cmp = -1;
                    break;
                }
                if (s0 > s1) {
                    cmp = 1;
                    break;
                }
                if (p->shape[d0] > p->shape[d1]) {
                    cmp = 1;
                    break;
                }
            }
            if (cmp > 0) {
                int tmp = p->perm[dim0];
                p->perm[dim0] = p->perm[dim1];
                p->perm[dim1] = tmp;
                dim1 = dim0;
            }
            else if (cmp < 0) {
                break;
            }
        }
    }
}

/* Plans the loop and the new output's strides. `out` is the in-place output or NULL; `in` lists the
 * inputs with dims (ndim > 0); `has_values` says some input is a number or 0-d tensor. */
static void
plan_layout(layout_plan *p, mt_TensorObject *out, int nin, mt_TensorObject *const *in, int has_values)
{
    mt_TensorObject *ops[MT_ITER_MAX_OPS];
    int n = 0;
    int all_same_shape = !(has_values && nin > 0);
    int contiguous = 1;
    int dense_same = 1;

    if (out != NULL) {
        ops[n++] = out;
    }
    for (int i = 0; i < nin; i++) {
        ops[n++] = in[i];
        if (!same_sizes(in[i], p->ndim, p->shape)) {
            all_same_shape = 0;
        }
    }
    p->linear = 0;
    p->out_contiguous = 1;
    if (all_same_shape) {
        /* torch's FastSetupType: all contiguous, or all dense with one shared layout */
        for (int k = 0; k < n; k++) {
            contiguous &= mt_tensor_is_contiguous(ops[k]);
        }
        if (contiguous) {
            p->linear = 1;
            return;
        }
        for (int k = 0; k < n; k++) {
            if (!mt_tensor_is_non_overlapping_and_dense(ops[k]) || !same_strides(ops[k], ops[0])) {
                dense_same = 0;
                break;
            }
        }
        if (dense_same && n > 0) {
            p->linear = 1;
            p->out_contiguous = 0;
            memcpy(p->out_strides, ops[0]->strides, sizeof(int64_t) * (size_t)p->ndim);
            return;
        }
    }
    compute_perm(p, n, ops);
    for (int j = 0; j < p->ndim; j++) {
        if (p->perm[j] != p->ndim - 1 - j) {
            p->out_contiguous = 0;
            break;
        }
    }
    if (!p->out_contiguous) {
        int64_t next = 1;
        for (int j = 0; j < p->ndim; j++) {
            p->out_strides[p->perm[j]] = next;
            next *= p->shape[p->perm[j]];
        }
    }
}

static mt_TensorObject *
new_output(const layout_plan *p, mt_dtype dtype, mt_device device)
{
    int64_t numel;
    mt_storage *storage;
    mt_TensorObject *t;

    if (p->out_contiguous) {
        return mt_tensor_empty(p->ndim, p->shape, dtype, device);
    }
    if (mt_check_sizes(p->ndim, p->shape, dtype, &numel) < 0) {
        return NULL;
    }
    storage = mt_storage_new((size_t)numel * mt_dtype_size(dtype), device);
    if (storage == NULL) {
        return NULL;
    }
    t = mt_tensor_from_storage(storage, p->ndim, p->shape, p->out_strides, 0, dtype);
    mt_storage_decref(storage);
    return t;
}

/* Reorders the iterator's dims (stored innermost first) so that dim j is tensor dim perm[j]. */
static void
iter_permute(mt_iter *it, const int *perm)
{
    int64_t shape[MT_MAX_DIMS];
    int64_t strides[MT_ITER_MAX_OPS][MT_MAX_DIMS];
    int n = it->ndim;

    for (int j = 0; j < n; j++) {
        int src = n - 1 - perm[j];
        shape[j] = it->shape[src];
        for (int k = 0; k < it->nops; k++) {
            strides[k][j] = it->strides[k][src];
        }
    }
    memcpy(it->shape, shape, sizeof(int64_t) * (size_t)n);
    for (int k = 0; k < it->nops; k++) {
        memcpy(it->strides[k], strides[k], sizeof(int64_t) * (size_t)n);
    }
}

/* Where a value input's one element lives: the slot, or the 0-d device tensor's memory. */
static char *
input_value_data(kernel_input *in)
{
    return in->device_value != NULL ? mt_tensor_data(in->device_value) : (char *)in->slot.bytes;
}

/* Builds the iterator for out and the inputs; a flat one when the plan allows. */
static void
build_iter(mt_iter *it, const layout_plan *p, mt_TensorObject *out, int nin, kernel_input *in,
           mt_dtype compute)
{
    size_t csize = mt_dtype_size(compute);

    if (p->linear) {
        int64_t numel = mt_tensor_numel(out);
        it->ndim = 1;
        it->nops = 1 + nin;
        it->numel = numel;
        it->shape[0] = numel;
        it->data[0] = mt_tensor_data(out);
        it->strides[0][0] = (int64_t)mt_dtype_size(out->dtype);
        for (int k = 0; k < nin; k++) {
            if (in[k].tensor != NULL) {
                it->data[1 + k] = mt_tensor_data(in[k].tensor);
                it->strides[1 + k][0] = (int64_t)mt_dtype_size(in[k].tensor->dtype);
            }
            else {
                it->data[1 + k] = input_value_data(&in[k]);
                it->strides[1 + k][0] = 0;
            }
        }
        return;
    }
    mt_iter_init(it, p->ndim, p->shape);
    mt_iter_add_tensor(it, out);
    for (int k = 0; k < nin; k++) {
        if (in[k].tensor != NULL) {
            mt_iter_add_tensor(it, in[k].tensor);
        }
        else {
            mt_iter_add(it, input_value_data(&in[k]), 0, NULL, NULL, csize);
        }
    }
    iter_permute(it, p->perm);
    mt_iter_coalesce(it);
}

/* ---- checks -------------------------------------------------------------------------------------- */

static mt_dtype
operand_dtype(const mt_operand *op)
{
    /* what the op sees: a Python float is a double "wrapped number" here, as in torch's sub_check */
    return op->tensor != NULL ? op->tensor->dtype : op->scalar.kind;
}

static int
sub_check(const mt_operand *a, const mt_operand *b)
{
    mt_dtype da = operand_dtype(a);
    mt_dtype db = operand_dtype(b);

    if (da == MT_BOOL && db == MT_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Subtraction, the `-` operator, with two bool tensors is not supported. "
                        "Use the `^` or `logical_xor()` operator instead.");
        return -1;
    }
    if (da == MT_BOOL || db == MT_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Subtraction, the `-` operator, with a bool tensor is not supported. "
                        "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
        return -1;
    }
    return 0;
}

/* alpha= as torch's Scalar takes it: a real number, or a complex one (which no minitorch dtype accepts). */
typedef struct {
    mt_scalar value;            /* a complex alpha: its real part, as a float */
    int is_complex;
} alpha_arg;

/* torch's alpha_check, in its order; `complex_result` says the op's dtype would be complex. */
static int
alpha_check(mt_dtype dtype, int complex_result, const alpha_arg *alpha)
{
    if (alpha->value.kind == MT_BOOL && !alpha->is_complex && (complex_result || dtype != MT_BOOL)) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean alpha only supported for Boolean results.");
        return -1;
    }
    if (complex_result) {
        return 0;
    }
    if (!mt_dtype_is_floating(dtype) && (alpha->value.kind == MT_FLOAT64 || alpha->is_complex)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "For integral input tensors, argument alpha must not be a floating point number.");
        return -1;
    }
    if (alpha->is_complex) {
        PyErr_SetString(PyExc_RuntimeError,
                        "For non-complex input tensors, argument alpha must not be a complex number.");
        return -1;
    }
    return 0;
}

static int
check_inplace_shape(const mt_TensorObject *out, int ndim, const int64_t *shape)
{
    char a[512], b[512];

    if (same_sizes(out, ndim, shape)) {
        return 0;
    }
    mt_format_shape(out->ndim, out->sizes, a, sizeof(a));
    mt_format_shape(ndim, shape, b, sizeof(b));
    PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
    return -1;
}

static const char *const binary_names[MT_BINARY_NUM_OPS] = {
    "add", "sub", "mul", "div", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge",
};

/* ---- the two op drivers -------------------------------------------------------------------------- */

/* Host kernels over more elements than one thread's grain run with the GIL released: they touch no
 * Python object, and the caller holds references to every operand for the whole call. */
static int
run_binary(mt_device device, const mt_iter *it, const mt_binary_kernel_args *kargs, const kernel_input *in)
{
    const mt_backend *be = mt_backend_for(device);
    unsigned host_values = 0;
    mt_kctx ctx;
    int rc;

    if (be == NULL) {
        return -1;
    }
    /* bit k+1: input k is a host value (slot) that a device backend passes by value */
    for (int k = 0; k < 2; k++) {
        if (in[k].tensor == NULL && in[k].device_value == NULL) {
            host_values |= 1u << (k + 1);
        }
    }
    mt_kctx_init(&ctx, device);
    MT_RUN_KERNEL(be, it->numel > MT_PARALLEL_GRAIN_SIZE, rc = be->binary(&ctx, it, kargs, host_values));
    return mt_kernel_result(&ctx, rc);
}

static int
run_unary(mt_device device, const mt_iter *it, const mt_unary_kernel_args *kargs)
{
    const mt_backend *be = mt_backend_for(device);
    mt_kctx ctx;
    int rc;

    if (be == NULL) {
        return -1;
    }
    mt_kctx_init(&ctx, device);
    MT_RUN_KERNEL(be, it->numel > MT_PARALLEL_GRAIN_SIZE, rc = be->unary(&ctx, it, kargs));
    return mt_kernel_result(&ctx, rc);
}

/* The fast path of binary_impl for the most common call, which calls the host kernel directly: two CPU
 * tensors of one dtype, one shape and contiguous memory (and, in place, self being the first of them). Every check of the general path then
 * has a known outcome (no broadcasting, no promotion, one device, a contiguous result); the op must
 * have a kernel for the dtype without promotion (not bool subtraction, not integer division). Returns
 * NULL without an exception when it does not apply. */
static int
fast_binary_applies(mt_binary_op op, const mt_TensorObject *x, const mt_TensorObject *y)
{
    if (x->dtype != y->dtype || x->ndim != y->ndim || x->ndim == 0 ||
        mt_tensor_device(x).type != MT_DEVICE_CPU || mt_tensor_device(y).type != MT_DEVICE_CPU) {
        return 0;
    }
    if ((op == MT_BINARY_SUB && x->dtype == MT_BOOL) || (op == MT_BINARY_DIV && !mt_dtype_is_floating(x->dtype))) {
        return 0;
    }
    if (memcmp(x->sizes, y->sizes, sizeof(int64_t) * (size_t)x->ndim) != 0) {
        return 0;
    }
    return mt_tensor_is_contiguous(x) && mt_tensor_is_contiguous(y);
}

static PyObject *
fast_binary(mt_binary_op op, mt_TensorObject *x, mt_TensorObject *y, mt_TensorObject *self_out)
{
    mt_binary_kernel_args kargs;
    mt_TensorObject *out;
    int64_t n;

    if (self_out != NULL) {
        if (mt_check_no_partial_overlap(self_out, y) < 0) {
            return NULL;
        }
        out = self_out;
        Py_INCREF(out);
    }
    else {
        out = mt_tensor_empty(x->ndim, x->sizes, MT_BINARY_IS_COMPARISON(op) ? MT_BOOL : x->dtype,
                              mt_tensor_device(x));
        if (out == NULL) {
            return NULL;
        }
    }
    kargs.op = op;
    kargs.dtype = x->dtype;
    kargs.out_dtype = out->dtype;
    kargs.a_dtype = x->dtype;
    kargs.b_dtype = x->dtype;
    if (mt_dtype_is_floating(x->dtype)) {
        kargs.alpha.d = 1.0;
    }
    else {
        kargs.alpha.i = 1;
    }
    n = mt_tensor_numel(out);
    if (n > MT_PARALLEL_GRAIN_SIZE) {
        Py_BEGIN_ALLOW_THREADS
        mt_cpu_binary_contiguous(&kargs, mt_tensor_data(out), mt_tensor_data(x), mt_tensor_data(y), n);
        Py_END_ALLOW_THREADS
    }
    else {
        mt_cpu_binary_contiguous(&kargs, mt_tensor_data(out), mt_tensor_data(x), mt_tensor_data(y), n);
    }
    return (PyObject *)out;
}

/* torch.<op>(a, b, alpha=alpha) or, with self_out, a.<op>_(b). a is self for in-place ops. */
static PyObject *
binary_impl(mt_binary_op op, const mt_operand *a, const mt_operand *b, const alpha_arg *alpha,
            mt_TensorObject *self_out)
{
    mt_operand ops[2] = {*a, *b};
    mt_TensorObject *tensors[2] = {a->tensor, b->tensor};
    mt_TensorObject *with_dims[2];
    kernel_input in[2];
    int nin = 0;
    layout_plan plan;
    mt_dtype compute;
    mt_device device;
    mt_binary_kernel_args kargs;
    mt_TensorObject *out = NULL;
    mt_iter it;
    int is_cmp = MT_BINARY_IS_COMPARISON(op);

    if (alpha == NULL && a->tensor != NULL && b->tensor != NULL && (self_out == NULL || self_out == a->tensor) &&
        (self_out == NULL || !is_cmp) && fast_binary_applies(op, a->tensor, b->tensor)) {
        return fast_binary(op, a->tensor, b->tensor, self_out);
    }
    if (op == MT_BINARY_SUB && sub_check(a, b) < 0) {
        return NULL;
    }
    if (self_out != NULL) {
        if (mt_check_no_internal_overlap(self_out) < 0) {
            return NULL;
        }
        for (int k = 0; k < 2; k++) {
            if (tensors[k] != NULL && mt_check_no_partial_overlap(self_out, tensors[k]) < 0) {
                return NULL;
            }
        }
    }
    if (mt_broadcast_shapes(a->tensor ? a->tensor->ndim : 0, a->tensor ? a->tensor->sizes : NULL,
                            b->tensor ? b->tensor->ndim : 0, b->tensor ? b->tensor->sizes : NULL, &plan.ndim,
                            plan.shape) < 0) {
        return NULL;
    }
    if (self_out != NULL && check_inplace_shape(self_out, plan.ndim, plan.shape) < 0) {
        return NULL;
    }
    compute = mt_result_type(2, ops);
    if (op == MT_BINARY_DIV && !mt_dtype_is_floating(compute)) {
        compute = mt_default_float_dtype();
    }
    if (mt_check_same_device(self_out, 2, tensors, &device) < 0) {
        return NULL;
    }
    if (self_out != NULL && !is_cmp && mt_check_can_cast(compute, self_out->dtype) < 0) {
        return NULL;
    }
    if (alpha != NULL && alpha_check(compute, 0, alpha) < 0) {
        return NULL;
    }

    kargs.op = op;
    kargs.dtype = compute;
    kargs.alpha.i = 1;
    if (mt_dtype_is_floating(compute)) {
        kargs.alpha.d = 1.0;
    }
    if (alpha != NULL) {
        /* sub(a, b, alpha) is add(a, b, -alpha), as in torch; the ADD kernel special-cases alpha 1 */
        int negate = op == MT_BINARY_SUB;
        kargs.op = MT_BINARY_ADD;
        if (mt_dtype_is_floating(compute)) {
            double v = mt_scalar_to_double(alpha->value);
            kargs.alpha.d = negate ? -v : v;
        }
        else if (compute == MT_BOOL) {
            kargs.alpha.i = mt_scalar_to_int64(alpha->value) != 0;
        }
        else {
            int64_t v = mt_scalar_to_int64(alpha->value);
            kargs.alpha.i = negate ? (int64_t)(0u - (uint64_t)v) : v;
        }
    }
    for (int k = 0; k < 2; k++) {
        kernel_input_from_operand(&in[k], &ops[k], compute, device);
        if (in[k].tensor != NULL) {
            with_dims[nin++] = in[k].tensor;
        }
    }
    kargs.a_dtype = in[0].tensor != NULL ? in[0].tensor->dtype
                    : in[0].device_value != NULL ? in[0].device_value->dtype : compute;
    kargs.b_dtype = in[1].tensor != NULL ? in[1].tensor->dtype
                    : in[1].device_value != NULL ? in[1].device_value->dtype : compute;
    plan_layout(&plan, self_out, nin, with_dims, nin < 2);

    if (self_out != NULL) {
        out = self_out;
        Py_INCREF(out);
    }
    else {
        out = new_output(&plan, is_cmp ? MT_BOOL : compute, device);
        if (out == NULL) {
            return NULL;
        }
    }
    kargs.out_dtype = out->dtype;
    if (mt_tensor_numel(out) > 0) {
        build_iter(&it, &plan, out, 2, in, compute);
        if (run_binary(device, &it, &kargs, in) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return (PyObject *)out;
}

static PyObject *
unary_impl(mt_unary_op op, mt_TensorObject *t, int inplace)
{
    mt_dtype compute = t->dtype;
    mt_device device = mt_tensor_device(t);
    layout_plan plan;
    kernel_input in;
    mt_unary_kernel_args kargs;
    mt_TensorObject *out = NULL;
    mt_iter it;

    if (t->dtype == MT_BOOL) {
        if (op == MT_UNARY_NEG) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                            "invert a mask, use the `~` or `logical_not()` operator instead.");
            return NULL;
        }
        if (op == MT_UNARY_RELU) {
            PyErr_SetString(PyExc_RuntimeError, "Boolean inputs not supported for relu");
            return NULL;
        }
    }
    if (op >= MT_UNARY_EXP && !mt_dtype_is_floating(compute)) {
        compute = mt_default_float_dtype();
    }
    if (inplace) {
        if (mt_check_no_internal_overlap(t) < 0 || mt_check_can_cast(compute, t->dtype) < 0) {
            return NULL;
        }
    }
    if (op == MT_UNARY_ABS && t->dtype == MT_BOOL) {
        /* torch has no bool kernel for abs: the dispatch macro's message, named per device */
        PyErr_Format(PyExc_NotImplementedError, "\"abs_%s\" not implemented for 'Bool'",
                     device.type == MT_DEVICE_CPU ? "cpu" : "cuda");
        return NULL;
    }

    plan.ndim = t->ndim;
    memcpy(plan.shape, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    in.tensor = t;
    if (t->ndim == 0) {
        plan.linear = 1;
        plan.out_contiguous = 1;
    }
    else {
        plan_layout(&plan, inplace ? t : NULL, 1, &t, 0);
    }
    if (inplace) {
        out = t;
        Py_INCREF(out);
    }
    else {
        out = new_output(&plan, compute, device);
        if (out == NULL) {
            return NULL;
        }
    }
    kargs.op = op;
    kargs.dtype = compute;
    kargs.in_dtype = t->dtype;
    kargs.out_dtype = out->dtype;
    if (mt_tensor_numel(out) > 0) {
        if (t->ndim == 0) {
            /* a 0-d input: read through the tensor path (stride 0 in a one-element loop) */
            mt_iter_init(&it, 0, NULL);
            mt_iter_add_tensor(&it, out);
            mt_iter_add_tensor(&it, t);
            mt_iter_coalesce(&it);
        }
        else {
            build_iter(&it, &plan, out, 1, &in, compute);
        }
        if (run_unary(device, &it, &kargs) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return (PyObject *)out;
}

/* ---- complex Python numbers ---------------------------------------------------------------------- */

/* An operand that may be a complex Python number. minitorch has no complex dtype, so such a number
 * never reaches a kernel: see complex_binary. */
typedef struct {
    mt_operand op;          /* a complex number: its real part as a float scalar */
    int is_complex;
    Py_complex z;
} cx_operand;

/* mt_operand_from_object, also taking complex numbers: 1, 0 (neither a Tensor nor a number, no
 * exception) or -1. */
static int
cx_operand_from_object(PyObject *obj, cx_operand *out)
{
    out->is_complex = 0;
    if (PyComplex_Check(obj)) {
        out->z = PyComplex_AsCComplex(obj);
        if (out->z.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        out->is_complex = 1;
        out->op.tensor = NULL;
        out->op.scalar.kind = MT_FLOAT64;
        out->op.scalar.v.d = out->z.real;
        return 1;
    }
    return mt_operand_from_object(obj, &out->op);
}

/* torch's dtype for an op with a complex number: the complex dtype of the other operand's precision,
 * complex128 when that is float64 (or the default dtype is), else complex64. */
static int
complex_result_is_double(const cx_operand *a, const cx_operand *b)
{
    const cx_operand *ops[2] = {a, b};

    if (mt_default_float_dtype() == MT_FLOAT64) {
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        if (!ops[k]->is_complex && ops[k]->op.tensor != NULL && ops[k]->op.tensor->dtype == MT_FLOAT64) {
            return 1;
        }
    }
    return 0;
}

/* A binary op where a or b (or both) is a complex Python number. torch's checks run in torch's order
 * (bool subtraction, the written-to tensor's overlap, the in-place cast, alpha); then eq/ne, whose
 * result is a bool tensor, are computed from the real part: a real tensor equals a complex number only
 * where the number's imaginary part is 0. The ordered comparisons raise torch's "not implemented for
 * 'ComplexFloat'" and every other op, whose torch result is a complex tensor, raises
 * NotImplementedError: minitorch has no complex dtype. */
static PyObject *
complex_binary(const char *fname, mt_binary_op op, const cx_operand *a, const cx_operand *b, const alpha_arg *alpha,
               mt_TensorObject *self_out)
{
    int is_double = complex_result_is_double(a, b);
    const char *scalar_name = is_double ? "ComplexDouble" : "ComplexFloat";
    mt_operand ra = a->op, rb = b->op;
    const cx_operand *number = b->is_complex ? b : a;
    const cx_operand *other = b->is_complex ? a : b;
    mt_TensorObject *tensor = other->is_complex ? NULL : other->op.tensor;

    if (op == MT_BINARY_SUB && sub_check(&ra, &rb) < 0) {
        return NULL;
    }
    if (self_out != NULL && mt_check_no_internal_overlap(self_out) < 0) {
        return NULL;
    }
    if (self_out != NULL && !MT_BINARY_IS_COMPARISON(op)) {
        PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s", scalar_name,
                     mt_dtype_scalar_name(self_out->dtype));
        return NULL;
    }
    if (alpha != NULL && alpha_check(MT_NUM_DTYPES, 1, alpha) < 0) {
        return NULL;
    }
    if (op == MT_BINARY_EQ || op == MT_BINARY_NE) {
        /* the real operand compared with the number's real part, or with NaN (never equal) when the
         * number has an imaginary part. The compute dtype (a float number's) is the complex dtype's real
         * part, as long as the default dtype is float32 (minitorch's only one). */
        mt_operand cmp[2];
        int k = number == a ? 0 : 1;
        double v = number->z.imag == 0.0 ? number->z.real : Py_NAN;

        if (other->is_complex) {
            /* two numbers: torch.eq wants a Tensor input, so this is never reached from Python */
            PyErr_Format(PyExc_TypeError, "%s(): expected a Tensor operand", fname);
            return NULL;
        }
        cmp[0] = ra;
        cmp[1] = rb;
        cmp[k].scalar.kind = MT_FLOAT64;
        cmp[k].scalar.v.d = v;
        return binary_impl(op, &cmp[0], &cmp[1], NULL, self_out);
    }
    if (MT_BINARY_IS_COMPARISON(op)) {
        /* torch's dispatch error: its comparison kernels have no complex case */
        int cuda = tensor != NULL && mt_tensor_device(tensor).type != MT_DEVICE_CPU;
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for '%s'", binary_names[op],
                     cuda ? "cuda" : "cpu", scalar_name);
        return NULL;
    }
    PyErr_Format(PyExc_NotImplementedError,
                 "%s(): a complex operand gives a %s result, which minitorch does not support (it has no complex "
                 "dtype)",
                 fname, is_double ? "complex128" : "complex64");
    return NULL;
}

PyObject *
mt_elementwise_binary(mt_binary_op op, PyObject *a, PyObject *b)
{
    mt_operand oa, ob;
    int r = mt_operand_from_object(a, &oa);

    if (r > 0) {
        r = mt_operand_from_object(b, &ob);
    }
    if (r < 0) {
        return NULL;
    }
    if (r == 0) {
        PyErr_Format(PyExc_TypeError, "%s(): expected Tensor or Number operands", binary_names[op]);
        return NULL;
    }
    return binary_impl(op, &oa, &ob, NULL, NULL);
}

/* ---- number protocol ----------------------------------------------------------------------------- */

/* Both operands for a slot; 0 means "not ours" (return NotImplemented), -1 an error. */
static int
slot_operands(PyObject *a, PyObject *b, cx_operand *oa, cx_operand *ob)
{
    int r = cx_operand_from_object(a, oa);
    if (r <= 0) {
        return r;
    }
    return cx_operand_from_object(b, ob);
}

/* number / tensor: torch's Tensor.__rtruediv__ is self.reciprocal() * other, which rounds differently
 * from a true division, so it is reproduced as such. */
static PyObject *
reflected_divide(const mt_operand *number, mt_TensorObject *t)
{
    mt_operand recip, num = *number;
    PyObject *r = unary_impl(MT_UNARY_RECIPROCAL, t, 0);
    PyObject *result;

    if (r == NULL) {
        return NULL;
    }
    recip.tensor = (mt_TensorObject *)r;
    result = binary_impl(MT_BINARY_MUL, &recip, &num, NULL, NULL);
    Py_DECREF(r);
    return result;
}

/* torch wraps some operators so that a TypeError means "not mine" (NotImplemented): Python then
 * tries the other operand, and raises its own TypeError if that fails too. */
static PyObject *
type_error_to_not_implemented(PyObject *result)
{
    if (result == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    return result;
}

/* other / tensor for any other that is neither a tensor nor a number (an ndarray, a list): torch's
 * Tensor.__rtruediv__ is `self.reciprocal() * other`, so the multiplication decides (an ndarray
 * computes it through NumPy and __array_wrap__ makes it a tensor). */
static PyObject *
reflected_divide_object(PyObject *other, mt_TensorObject *t)
{
    PyObject *recip = unary_impl(MT_UNARY_RECIPROCAL, t, 0);
    PyObject *result;

    if (recip == NULL) {
        return type_error_to_not_implemented(NULL);
    }
    result = PyNumber_Multiply(recip, other);
    Py_DECREF(recip);
    return type_error_to_not_implemented(result);
}

static PyObject *
slot_binary(mt_binary_op op, PyObject *a, PyObject *b)
{
    cx_operand oa, ob;
    int r = slot_operands(a, b, &oa, &ob);

    if (r < 0) {
        return NULL;
    }
    if (r == 0 && op == MT_BINARY_DIV && !mt_Tensor_Check(a) && mt_Tensor_Check(b)) {
        return reflected_divide_object(a, (mt_TensorObject *)b);
    }
    if (r == 0 || (oa.op.tensor == NULL && ob.op.tensor == NULL)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (oa.is_complex || ob.is_complex) {
        return complex_binary(binary_names[op], op, &oa, &ob, NULL, NULL);
    }
    if (op == MT_BINARY_DIV && oa.op.tensor == NULL) {
        return reflected_divide(&oa.op, ob.op.tensor);
    }
    return binary_impl(op, &oa.op, &ob.op, NULL, NULL);
}

static PyObject *
slot_inplace(mt_binary_op op, PyObject *a, PyObject *b)
{
    cx_operand oa, ob;
    int r;

    if (!mt_Tensor_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    r = slot_operands(a, b, &oa, &ob);
    if (r < 0) {
        return NULL;
    }
    if (r == 0) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (ob.is_complex) {
        /* t += 1j: torch's in-place cast error (its result would be complex) */
        return complex_binary(binary_names[op], op, &oa, &ob, NULL, (mt_TensorObject *)a);
    }
    return binary_impl(op, &oa.op, &ob.op, NULL, (mt_TensorObject *)a);
}

PyObject *
mt_nb_add(PyObject *a, PyObject *b)
{
    return slot_binary(MT_BINARY_ADD, a, b);
}

PyObject *
mt_nb_subtract(PyObject *a, PyObject *b)
{
    return slot_binary(MT_BINARY_SUB, a, b);
}

PyObject *
mt_nb_multiply(PyObject *a, PyObject *b)
{
    return slot_binary(MT_BINARY_MUL, a, b);
}

PyObject *
mt_nb_true_divide(PyObject *a, PyObject *b)
{
    return slot_binary(MT_BINARY_DIV, a, b);
}

PyObject *
mt_nb_inplace_add(PyObject *a, PyObject *b)
{
    return slot_inplace(MT_BINARY_ADD, a, b);
}

PyObject *
mt_nb_inplace_subtract(PyObject *a, PyObject *b)
{
    return slot_inplace(MT_BINARY_SUB, a, b);
}

PyObject *
mt_nb_inplace_multiply(PyObject *a, PyObject *b)
{
    return slot_inplace(MT_BINARY_MUL, a, b);
}

PyObject *
mt_nb_inplace_true_divide(PyObject *a, PyObject *b)
{
    return slot_inplace(MT_BINARY_DIV, a, b);
}

PyObject *
mt_nb_negative(PyObject *a)
{
    if (!mt_Tensor_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return unary_impl(MT_UNARY_NEG, (mt_TensorObject *)a, 0);
}

PyObject *
mt_nb_absolute(PyObject *a)
{
    if (!mt_Tensor_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return unary_impl(MT_UNARY_ABS, (mt_TensorObject *)a, 0);
}

PyObject *
mt_tensor_richcompare(PyObject *a, PyObject *b, int op)
{
    static const mt_binary_op ops[6] = {
        [Py_LT] = MT_BINARY_LT, [Py_LE] = MT_BINARY_LE, [Py_EQ] = MT_BINARY_EQ,
        [Py_NE] = MT_BINARY_NE, [Py_GT] = MT_BINARY_GT, [Py_GE] = MT_BINARY_GE,
    };
    PyObject *result = slot_binary(ops[op], a, b);

    if (result == Py_NotImplemented && op == Py_EQ && mt_Tensor_Check(a) && mt_is_ndarray(b)) {
        /* torch's Tensor.__eq__ alone takes an ndarray: it compares with torch.from_numpy(other), whose
         * TypeError (a dtype it has not) means NotImplemented and whose other errors propagate */
        mt_operand self_op = {(mt_TensorObject *)a}, other_op = {NULL};
        Py_DECREF(result);
        other_op.tensor = mt_tensor_from_numpy(b);
        if (other_op.tensor == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                /* a dtype torch compares (uint8, float16, ...) is a gap of minitorch, not "unequal" */
                PyObject *type, *value, *tb;
                PyErr_Fetch(&type, &value, &tb);
                if (mt_raise_for_numpy_dtype_gap(b) != 0) {
                    Py_XDECREF(type);
                    Py_XDECREF(value);
                    Py_XDECREF(tb);
                    return NULL;
                }
                PyErr_Restore(type, value, tb);
            }
            return type_error_to_not_implemented(NULL);
        }
        result = binary_impl(MT_BINARY_EQ, &self_op, &other_op, NULL, NULL);
        Py_DECREF(other_op.tensor);
        return type_error_to_not_implemented(result);
    }
    /* anything else that is not a tensor or a number (None, str, list) is not ours: Python then falls
     * back to identity for == and != and raises TypeError for ordering, as with torch */
    return result;
}

/* ---- argument parsing and torch's argument-error messages --------------------------------------- */

typedef enum {
    SIG_ALPHA,      /* add, sub, subtract: (Tensor other, *, Number alpha = 1), then a second overload */
    SIG_PLAIN,      /* mul: one signature (Tensor other; numbers convert) */
    SIG_TENSORS,    /* maximum, minimum: (Tensor input, Tensor other) and nothing else */
    SIG_DIV,        /* div: three overloads (rounding_mode) */
    SIG_COMPARE     /* eq, ...: Tensor and Number overloads */
} binary_signature;

/* The second overload of an alpha op, tried when the arguments do not fit the first. */
typedef enum {
    SECOND_NONE,
    SECOND_DEPRECATED,  /* add, sub: (Number alpha, Tensor other), deprecated: a UserWarning, once */
    SECOND_SCALARS      /* subtract: (Number other, Number alpha = 1) */
} second_overload;

typedef struct {
    const char *name;
    mt_binary_op op;
    binary_signature sig;
    second_overload second;
} binary_spec;

static const char *
signature_text(const binary_spec *spec, int method)
{
    switch (spec->sig) {
    case SIG_ALPHA:
        if (spec->second == SECOND_SCALARS) {
            return method ? " * (Tensor other, *, Number alpha = 1)\n * (Number other, Number alpha = 1)\n"
                          : " * (Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)\n"
                            " * (Tensor input, Number other, Number alpha = 1)\n";
        }
        return method ? "(Tensor other, *, Number alpha = 1)"
                      : "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)";
    case SIG_DIV:
        return method ? " * (Tensor other)\n * (Tensor other, *, str rounding_mode)\n"
                        " * (Number other, *, str rounding_mode)\n"
                      : " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        " * (Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)\n"
                        " * (Tensor input, Number other, *, str rounding_mode)\n";
    default:
        return method ? " * (Tensor other)\n * (Number other)\n"
                      : " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        " * (Tensor input, Number other, *, Tensor out = None)\n";
    }
}

/* The message torch gives when no overload matches at all. */
static PyObject *
invalid_combination(const binary_spec *spec, int method, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    if (spec->sig == SIG_PLAIN || spec->sig == SIG_TENSORS) {
        PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"other\"", spec->name);
        return NULL;
    }
    return mt_invalid_combination(spec->name, args, nargs, kwnames,
                                  !(spec->sig == SIG_ALPHA && spec->second != SECOND_SCALARS),
                                  signature_text(spec, method));
}

/* subtract's message for positional arguments that fit neither of its overloads by number: torch marks
 * each argument of the second overload that did not match (every Number argument, as it happens). */
static PyObject *
subtract_mismatch(const binary_spec *spec, int method, PyObject *const *args, Py_ssize_t nargs)
{
    char got[512], marked[512];
    size_t used = 0;

    mt_format_given_args(args, nargs, NULL, got, sizeof(got));
    marked[0] = '\0';
    for (Py_ssize_t i = 0; i < nargs && used < sizeof(marked); i++) {
        int ok = !method && i == 0 && mt_Tensor_Check(args[0]);
        int n = snprintf(marked + used, sizeof(marked) - used, "%s%s%s%s", i > 0 ? ", " : "", ok ? "" : "!",
                         mt_arg_type_name(args[i]), ok ? "" : "!");
        if (n < 0) {
            break;
        }
        used += (size_t)n;
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() received an invalid combination of arguments - got (%s), but expected one of:\n%s"
                 "      didn't match because some of the arguments have invalid types: (%s)\n",
                 spec->name, got, signature_text(spec, method), marked);
    return NULL;
}

/* A method's comparison operand of the wrong type: every overload is listed with the culprit marked. */
static PyObject *
compare_method_type_error(const binary_spec *spec, PyObject *other, int by_keyword)
{
    const char *tn = mt_arg_type_name(other);
    char mark[160];

    if (by_keyword) {
        snprintf(mark, sizeof(mark), "!other=%s!, ", tn);
    }
    else {
        snprintf(mark, sizeof(mark), "!%s!", tn);
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() received an invalid combination of arguments - got (%s%s%s), but expected one of:\n"
                 " * (Tensor other)\n      didn't match because some of the arguments have invalid types: (%s)\n"
                 " * (Number other)\n      didn't match because some of the arguments have invalid types: (%s)\n",
                 spec->name, by_keyword ? "other=" : "", tn, by_keyword ? ", " : "", mark, mark);
    return NULL;
}

/* A Number argument as torch's parser matches it: a Python number (complex included) or a 0-d tensor
 * that does not require grad. Runs no Python code. */
static int
is_number_arg(PyObject *obj)
{
    PyNumberMethods *nb;

    if (mt_Tensor_Check(obj)) {
        const mt_TensorObject *t = (const mt_TensorObject *)obj;
        return t->ndim == 0 && !t->requires_grad;
    }
    if (PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj)) {
        return 1;
    }
    nb = Py_TYPE(obj)->tp_as_number;
    return nb != NULL && !PySequence_Check(obj) && (nb->nb_index != NULL || nb->nb_float != NULL);
}

/* alpha=: a Python number (a complex one too: alpha_check refuses it), or a one-element tensor (torch
 * accepts both as a Number). */
static int
parse_alpha(const char *fname, PyObject *obj, alpha_arg *out)
{
    int r;

    out->is_complex = 0;
    if (PyComplex_Check(obj)) {
        Py_complex z = PyComplex_AsCComplex(obj);
        if (z.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        out->is_complex = 1;
        out->value.kind = MT_FLOAT64;
        out->value.v.d = z.real;
        return 0;
    }
    if (mt_Tensor_Check(obj) && ((mt_TensorObject *)obj)->ndim != 0) {
        /* torch takes a 0-d tensor for a Number; any other tensor is a TypeError */
        return mt_arg_type_error(fname, "alpha", 0, "Number", obj);
    }
    if (mt_Tensor_Check(obj)) {
        PyObject *item = mt_tensor_item((mt_TensorObject *)obj);
        if (item == NULL) {
            return -1;
        }
        r = mt_scalar_from_object(item, &out->value);
        Py_DECREF(item);
    }
    else {
        r = mt_scalar_from_object(obj, &out->value);
    }
    if (r == 0) {
        return mt_arg_type_error(fname, "alpha", 0, "Number", obj);
    }
    return r < 0 ? -1 : 0;
}

/* The op on parsed operands: complex numbers go to complex_binary. */
static PyObject *
binary_call(const char *fname, mt_binary_op op, const cx_operand *a, const cx_operand *b, const alpha_arg *alpha,
            mt_TensorObject *self_out)
{
    if (a->is_complex || b->is_complex) {
        return complex_binary(fname, op, a, b, alpha, self_out);
    }
    return binary_impl(op, &a->op, &b->op, alpha, self_out);
}

static int
kwnames_contain(PyObject *kwnames, const char *name)
{
    if (kwnames == NULL) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), name) == 0) {
            return 1;
        }
    }
    return 0;
}

/* torch warns about its deprecated overloads once per process, whichever comes first. */
static int deprecated_overload_warned = 0;

static int
warn_deprecated_overload(const char *name, int method)
{
    if (deprecated_overload_warned) {
        return 0;
    }
    deprecated_overload_warned = 1;
    if (method) {
        return PyErr_WarnFormat(PyExc_UserWarning, 1,
                                "This overload of %s is deprecated:\n\t%s(Number alpha, Tensor other)\n"
                                "Consider using one of the following signatures instead:\n"
                                "\t%s(Tensor other, *, Number alpha = 1)",
                                name, name, name);
    }
    return PyErr_WarnFormat(PyExc_UserWarning, 1,
                            "This overload of %s is deprecated:\n"
                            "\t%s(Tensor input, Number alpha, Tensor other, *, Tensor out = None)\n"
                            "Consider using one of the following signatures instead:\n"
                            "\t%s(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
                            name, name, name);
}

/* A Number argument as an operand: a 0-d tensor is read as a Python number (a wrapped scalar). */
static int
number_operand(PyObject *obj, cx_operand *out)
{
    PyObject *item;
    int r;

    if (!mt_Tensor_Check(obj)) {
        return cx_operand_from_object(obj, out);
    }
    item = mt_tensor_item((mt_TensorObject *)obj);
    if (item == NULL) {
        return -1;
    }
    r = cx_operand_from_object(item, out);
    Py_DECREF(item);
    return r;
}

/* The second overload of add/sub ((Number alpha, Tensor other), deprecated) and of subtract ((Number
 * other, Number alpha = 1)), tried on arguments the first overload cannot take: self is NULL for the
 * module function, whose overloads start with (Tensor input, ...). Returns 1 when the arguments match
 * it, with *result the op's result (NULL with an exception), or 0 when they do not (no exception). */
static int
second_overload_call(const binary_spec *spec, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, int inplace, PyObject **result)
{
    static const char *const deprecated_method[] = {"alpha", "other", NULL};
    static const char *const deprecated_function[] = {"input", "alpha", "other", "out", NULL};
    static const char *const scalars_method[] = {"other", "alpha", NULL};
    static const char *const scalars_function[] = {"input", "other", "alpha", NULL};
    int deprecated = spec->second == SECOND_DEPRECATED;
    int first = self != NULL ? 0 : 1;   /* where the arguments after input start */
    PyObject *argv[4] = {NULL, NULL, NULL, NULL};
    PyObject *input, *alpha_obj, *other_obj, *out_obj = NULL;
    const char *const *names;
    cx_operand a, b;
    alpha_arg alpha;

    if (spec->second == SECOND_NONE) {
        return 0;
    }
    names = self != NULL ? (deprecated ? deprecated_method : scalars_method)
                         : (deprecated ? deprecated_function : scalars_function);
    if (mt_collect_args(spec->name, args, nargs, kwnames, names, self != NULL ? 2 : 3, argv) < 0) {
        /* an unknown keyword, a repeated argument or too many: not this overload either */
        PyErr_Clear();
        return 0;
    }
    input = self != NULL ? self : argv[0];
    alpha_obj = argv[first + (deprecated ? 0 : 1)];
    other_obj = argv[first + (deprecated ? 1 : 0)];
    if (self == NULL && deprecated) {
        out_obj = argv[3];
    }
    if (input == NULL || other_obj == NULL || (deprecated && alpha_obj == NULL) ||
        !(mt_Tensor_Check(input) || is_number_arg(input)) || (alpha_obj != NULL && !is_number_arg(alpha_obj)) ||
        !(deprecated ? mt_Tensor_Check(other_obj) || is_number_arg(other_obj) : is_number_arg(other_obj))) {
        return 0;
    }
    *result = NULL;
    if (deprecated && warn_deprecated_overload(spec->name, self != NULL) < 0) {
        return 1;
    }
    if (cx_operand_from_object(input, &a) < 0 ||
        (deprecated ? cx_operand_from_object(other_obj, &b) : number_operand(other_obj, &b)) < 0 ||
        (alpha_obj != NULL && parse_alpha(spec->name, alpha_obj, &alpha) < 0) ||
        mt_check_out_none(spec->name, out_obj) < 0) {
        return 1;
    }
    *result = binary_call(spec->name, spec->op, &a, &b, alpha_obj != NULL ? &alpha : NULL,
                          inplace ? (mt_TensorObject *)self : NULL);
    return 1;
}

static PyObject *
binary_method(const binary_spec *spec, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames, int inplace)
{
    static const char *const names_alpha[] = {"other", "alpha", NULL};
    static const char *const names_div[] = {"other", "rounding_mode", NULL};
    static const char *const names_plain[] = {"other", NULL};
    PyObject *argv[2] = {NULL, NULL};
    PyObject *result;
    cx_operand a, b;
    alpha_arg alpha;
    int r;
    binary_spec named;
    char inplace_name[32];
    const char *fname;

    if (inplace) {
        /* torch's messages name the in-place method: add_() */
        snprintf(inplace_name, sizeof(inplace_name), "%s_", spec->name);
        named = *spec;
        named.name = inplace_name;
        spec = &named;
    }
    fname = spec->name;
    if (kwnames == NULL && nargs == 1) {
        argv[0] = args[0];
    }
    else {
        const char *const *names = spec->sig == SIG_ALPHA ? names_alpha
                                   : spec->sig == SIG_DIV ? names_div
                                                          : names_plain;
        if ((nargs >= 2 || (nargs == 1 && kwnames_contain(kwnames, "other"))) &&
            second_overload_call(spec, self, args, nargs, kwnames, inplace, &result)) {
            return result;
        }
        if (nargs > 1 || (nargs == 0 && kwnames == NULL)) {
            if (spec->second == SECOND_SCALARS && nargs == 2 && kwnames == NULL) {
                return subtract_mismatch(spec, 1, args, nargs);
            }
            if (spec->sig == SIG_ALPHA || spec->sig == SIG_PLAIN || spec->sig == SIG_TENSORS) {
                if (nargs > 1) {
                    PyErr_Format(PyExc_TypeError, "%s() takes 1 positional argument but %zd were given", fname,
                                 nargs);
                    return NULL;
                }
            }
            return invalid_combination(spec, 1, args, nargs, kwnames);
        }
        if (mt_collect_args(fname, args, nargs, kwnames, names, 1, argv) < 0) {
            return NULL;
        }
        if (argv[0] == NULL) {
            return invalid_combination(spec, 1, args, nargs, kwnames);
        }
    }
    a.is_complex = 0;
    a.op.tensor = (mt_TensorObject *)self;
    /* maximum/minimum take no number: checked before a number is read (2**64 is a TypeError there) */
    r = spec->sig == SIG_TENSORS && !mt_Tensor_Check(argv[0]) ? 0 : cx_operand_from_object(argv[0], &b);
    if (r < 0) {
        return NULL;
    }
    if (r == 0) {
        if (spec->sig == SIG_COMPARE) {
            return compare_method_type_error(spec, argv[0], nargs == 0);
        }
        if (spec->second == SECOND_SCALARS) {
            return invalid_combination(spec, 1, args, nargs, kwnames);
        }
        mt_arg_type_error(fname, "other", nargs == 0 ? 0 : 1, "Tensor", argv[0]);
        return NULL;
    }
    if (argv[1] != NULL && spec->sig == SIG_DIV) {
        if (argv[1] != Py_None) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "div(): rounding_mode is not supported by minitorch yet");
            return NULL;
        }
        argv[1] = NULL;
    }
    if (argv[1] != NULL && parse_alpha(fname, argv[1], &alpha) < 0) {
        return NULL;
    }
    return binary_call(fname, spec->op, &a, &b, argv[1] != NULL ? &alpha : NULL,
                       inplace ? (mt_TensorObject *)self : NULL);
}

/* torch.<op>(input, other, ...). Every argument is matched and read before out= is looked at: torch
 * raises its argument errors first, and minitorch's out= refusal is a gap, not an argument error. */
static PyObject *
binary_function(const binary_spec *spec, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names_alpha[] = {"input", "other", "alpha", "out", NULL};
    static const char *const names_div[] = {"input", "other", "rounding_mode", "out", NULL};
    static const char *const names_plain[] = {"input", "other", "out", NULL};
    PyObject *argv[4] = {NULL, NULL, NULL, NULL};
    PyObject *alpha_obj = NULL;
    PyObject *out_obj = NULL;
    PyObject *result;
    cx_operand a, b;
    alpha_arg alpha;
    int r;
    const char *fname = spec->name;

    if (kwnames == NULL && nargs == 2) {
        argv[0] = args[0];
        argv[1] = args[1];
    }
    else {
        const char *const *names = spec->sig == SIG_ALPHA ? names_alpha
                                   : spec->sig == SIG_DIV ? names_div
                                                          : names_plain;
        if ((nargs >= 3 || (nargs == 2 && kwnames_contain(kwnames, "other"))) &&
            second_overload_call(spec, NULL, args, nargs, kwnames, 0, &result)) {
            return result;
        }
        if (spec->second == SECOND_SCALARS && nargs == 3 && kwnames == NULL) {
            return subtract_mismatch(spec, 0, args, nargs);
        }
        if (nargs > 2 && (spec->sig == SIG_DIV || spec->sig == SIG_COMPARE)) {
            return invalid_combination(spec, 0, args, nargs, kwnames);
        }
        if (mt_collect_args(fname, args, nargs, kwnames, names, 2, argv) < 0) {
            return NULL;
        }
        if (argv[0] == NULL || argv[1] == NULL) {
            if (spec->sig == SIG_PLAIN || spec->sig == SIG_TENSORS) {
                PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"%s\"", fname,
                             argv[0] == NULL ? "input" : "other");
                return NULL;
            }
            return invalid_combination(spec, 0, args, nargs, kwnames);
        }
        if (spec->sig == SIG_PLAIN || spec->sig == SIG_TENSORS || spec->sig == SIG_COMPARE) {
            out_obj = argv[2];
        }
        else {
            out_obj = argv[3];
            alpha_obj = argv[2];
        }
    }
    /* maximum/minimum and the comparisons take no number input: checked before a number is read */
    r = (spec->sig == SIG_TENSORS || spec->sig == SIG_COMPARE) && !mt_Tensor_Check(argv[0])
            ? 0
            : cx_operand_from_object(argv[0], &a);
    if (r < 0) {
        return NULL;
    }
    /* torch.add(1, t) is accepted (a number converts to a Tensor there); comparisons want a Tensor */
    if (r == 0 || (a.op.tensor == NULL && spec->sig == SIG_COMPARE)) {
        if (spec->sig == SIG_COMPARE || spec->second == SECOND_SCALARS) {
            return invalid_combination(spec, 0, args, nargs, kwnames);
        }
        mt_arg_type_error(fname, "input", 1, "Tensor", argv[0]);
        return NULL;
    }
    r = spec->sig == SIG_TENSORS && !mt_Tensor_Check(argv[1]) ? 0 : cx_operand_from_object(argv[1], &b);
    if (r < 0) {
        return NULL;
    }
    if (r == 0) {
        if (spec->sig == SIG_COMPARE || spec->second == SECOND_SCALARS) {
            return invalid_combination(spec, 0, args, nargs, kwnames);
        }
        mt_arg_type_error(fname, "other", nargs >= 2 ? 2 : 0, "Tensor", argv[1]);
        return NULL;
    }
    if (alpha_obj != NULL && spec->sig == SIG_DIV) {
        if (alpha_obj != Py_None) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "div(): rounding_mode is not supported by minitorch yet");
            return NULL;
        }
        alpha_obj = NULL;
    }
    if ((alpha_obj != NULL && parse_alpha(fname, alpha_obj, &alpha) < 0) || mt_check_out_none(fname, out_obj) < 0) {
        return NULL;
    }
    return binary_call(fname, spec->op, &a, &b, alpha_obj != NULL ? &alpha : NULL, NULL);
}

static PyObject *
unary_method(const char *name, mt_unary_op op, PyObject *self, Py_ssize_t nargs, PyObject *kwnames,
             int inplace)
{
    if (nargs != 0) {
        PyErr_Format(PyExc_TypeError, "TensorBase.%s() takes no arguments (%zd given)", name, nargs);
        return NULL;
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_Format(PyExc_TypeError, "TensorBase.%s() takes no keyword arguments", name);
        return NULL;
    }
    return unary_impl(op, (mt_TensorObject *)self, inplace);
}

static PyObject *
unary_function(const char *name, mt_unary_op op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               int inplace)
{
    static const char *const names[] = {"input", "out", NULL};
    static const char *const names_inplace[] = {"input", NULL};
    PyObject *argv[2] = {NULL, NULL};

    if (kwnames == NULL && nargs == 1) {
        argv[0] = args[0];
    }
    else {
        if (mt_collect_args(name, args, nargs, kwnames, inplace ? names_inplace : names, 1, argv) < 0) {
            return NULL;
        }
        if (argv[0] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"input\"", name);
            return NULL;
        }
    }
    /* torch's parser checks the arguments in order: input before out */
    if (!mt_Tensor_Check(argv[0])) {
        mt_arg_type_error(name, "input", nargs >= 1 ? 1 : 0, "Tensor", argv[0]);
        return NULL;
    }
    if (mt_check_out_tensor(name, argv[1]) < 0) {
        return NULL;
    }
    return unary_impl(op, (mt_TensorObject *)argv[0], inplace);
}

/* ---- the tables ---------------------------------------------------------------------------------- */

static const binary_spec spec_add = {"add", MT_BINARY_ADD, SIG_ALPHA, SECOND_DEPRECATED};
static const binary_spec spec_sub = {"sub", MT_BINARY_SUB, SIG_ALPHA, SECOND_DEPRECATED};
static const binary_spec spec_subtract = {"subtract", MT_BINARY_SUB, SIG_ALPHA, SECOND_SCALARS};
static const binary_spec spec_mul = {"mul", MT_BINARY_MUL, SIG_PLAIN};
static const binary_spec spec_multiply = {"multiply", MT_BINARY_MUL, SIG_PLAIN};
static const binary_spec spec_div = {"div", MT_BINARY_DIV, SIG_DIV};
static const binary_spec spec_divide = {"divide", MT_BINARY_DIV, SIG_DIV};
static const binary_spec spec_true_divide = {"true_divide", MT_BINARY_DIV, SIG_PLAIN};
static const binary_spec spec_maximum = {"maximum", MT_BINARY_MAXIMUM, SIG_TENSORS};
static const binary_spec spec_minimum = {"minimum", MT_BINARY_MINIMUM, SIG_TENSORS};
static const binary_spec spec_eq = {"eq", MT_BINARY_EQ, SIG_COMPARE};
static const binary_spec spec_ne = {"ne", MT_BINARY_NE, SIG_COMPARE};
static const binary_spec spec_lt = {"lt", MT_BINARY_LT, SIG_COMPARE};
static const binary_spec spec_le = {"le", MT_BINARY_LE, SIG_COMPARE};
static const binary_spec spec_gt = {"gt", MT_BINARY_GT, SIG_COMPARE};
static const binary_spec spec_ge = {"ge", MT_BINARY_GE, SIG_COMPARE};
static const binary_spec spec_not_equal = {"not_equal", MT_BINARY_NE, SIG_COMPARE};
static const binary_spec spec_less = {"less", MT_BINARY_LT, SIG_COMPARE};
static const binary_spec spec_less_equal = {"less_equal", MT_BINARY_LE, SIG_COMPARE};
static const binary_spec spec_greater = {"greater", MT_BINARY_GT, SIG_COMPARE};
static const binary_spec spec_greater_equal = {"greater_equal", MT_BINARY_GE, SIG_COMPARE};

/* Tensor.<name>, Tensor.<name>_ and torch.<name> for a binary op. */
#define BINARY_WRAPPERS(NAME)                                                                        \
    static PyObject *tensor_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                   PyObject *kwnames)                                              \
    {                                                                                              \
        return binary_method(&spec_##NAME, self, args, nargs, kwnames, 0);                         \
    }                                                                                              \
    static PyObject *tensor_##NAME##_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                                      PyObject *kwnames)                                           \
    {                                                                                              \
        return binary_method(&spec_##NAME, self, args, nargs, kwnames, 1);                         \
    }                                                                                              \
    static PyObject *func_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs,        \
                                 PyObject *kwnames)                                                \
    {                                                                                              \
        (void)module;                                                                              \
        return binary_function(&spec_##NAME, args, nargs, kwnames);                                \
    }

BINARY_WRAPPERS(add)
BINARY_WRAPPERS(sub)
BINARY_WRAPPERS(subtract)
BINARY_WRAPPERS(mul)
BINARY_WRAPPERS(multiply)
BINARY_WRAPPERS(div)
BINARY_WRAPPERS(divide)
BINARY_WRAPPERS(true_divide)
BINARY_WRAPPERS(maximum)
BINARY_WRAPPERS(minimum)
BINARY_WRAPPERS(eq)
BINARY_WRAPPERS(ne)
BINARY_WRAPPERS(lt)
BINARY_WRAPPERS(le)
BINARY_WRAPPERS(gt)
BINARY_WRAPPERS(ge)
BINARY_WRAPPERS(not_equal)
BINARY_WRAPPERS(less)
BINARY_WRAPPERS(less_equal)
BINARY_WRAPPERS(greater)
BINARY_WRAPPERS(greater_equal)

/* Tensor.<name>, Tensor.<name>_, torch.<name> and torch.<name>_ for a unary op. */
#define UNARY_WRAPPERS(NAME, OP)                                                                     \
    static PyObject *tensor_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                   PyObject *kwnames)                                              \
    {                                                                                              \
        (void)args;                                                                                \
        return unary_method(#NAME, OP, self, nargs, kwnames, 0);                                   \
    }                                                                                              \
    static PyObject *tensor_##NAME##_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,     \
                                      PyObject *kwnames)                                           \
    {                                                                                              \
        (void)args;                                                                                \
        return unary_method(#NAME "_", OP, self, nargs, kwnames, 1);                               \
    }                                                                                              \
    static PyObject *func_##NAME(PyObject *module, PyObject *const *args, Py_ssize_t nargs,        \
                                 PyObject *kwnames)                                                \
    {                                                                                              \
        (void)module;                                                                              \
        return unary_function(#NAME, OP, args, nargs, kwnames, 0);                                 \
    }                                                                                              \
    static PyObject *func_##NAME##_(PyObject *module, PyObject *const *args, Py_ssize_t nargs,     \
                                    PyObject *kwnames)                                             \
    {                                                                                              \
        (void)module;                                                                              \
        return unary_function(#NAME "_", OP, args, nargs, kwnames, 1);                             \
    }

UNARY_WRAPPERS(neg, MT_UNARY_NEG)
UNARY_WRAPPERS(negative, MT_UNARY_NEG)
UNARY_WRAPPERS(abs, MT_UNARY_ABS)
UNARY_WRAPPERS(absolute, MT_UNARY_ABS)
UNARY_WRAPPERS(relu, MT_UNARY_RELU)
UNARY_WRAPPERS(exp, MT_UNARY_EXP)
UNARY_WRAPPERS(log, MT_UNARY_LOG)
UNARY_WRAPPERS(sqrt, MT_UNARY_SQRT)
UNARY_WRAPPERS(reciprocal, MT_UNARY_RECIPROCAL)

#define FASTCALL_KW (METH_FASTCALL | METH_KEYWORDS)
#define METHOD(NAME, DOC) {#NAME, (PyCFunction)(void (*)(void))tensor_##NAME, FASTCALL_KW, DOC}
#define FUNCTION(NAME, DOC) {#NAME, (PyCFunction)(void (*)(void))func_##NAME, FASTCALL_KW, DOC}

PyMethodDef mt_elementwise_tensor_methods[] = {
    METHOD(add, "add(other, *, alpha=1) -> Tensor\n\nself + alpha * other, with broadcasting and type promotion."),
    METHOD(add_, "add_(other, *, alpha=1) -> Tensor\n\nIn-place add; the result keeps self's dtype and shape."),
    METHOD(sub, "sub(other, *, alpha=1) -> Tensor\n\nself - alpha * other."),
    METHOD(sub_, "sub_(other, *, alpha=1) -> Tensor\n\nIn-place sub."),
    METHOD(subtract, "Alias of sub()."),
    METHOD(subtract_, "Alias of sub_()."),
    METHOD(mul, "mul(other) -> Tensor\n\nElementwise product."),
    METHOD(mul_, "mul_(other) -> Tensor\n\nIn-place mul."),
    METHOD(multiply, "Alias of mul()."),
    METHOD(multiply_, "Alias of mul_()."),
    METHOD(div, "div(other) -> Tensor\n\nTrue division: integer inputs give the default float dtype."),
    METHOD(div_, "div_(other) -> Tensor\n\nIn-place true division."),
    METHOD(divide, "Alias of div()."),
    METHOD(divide_, "Alias of div_()."),
    METHOD(true_divide, "Alias of div()."),
    METHOD(true_divide_, "Alias of div_()."),
    METHOD(maximum, "maximum(other) -> Tensor\n\nElementwise maximum (NaN propagates)."),
    METHOD(minimum, "minimum(other) -> Tensor\n\nElementwise minimum (NaN propagates)."),
    METHOD(eq, "eq(other) -> Tensor\n\nElementwise ==, a bool tensor."),
    METHOD(eq_, "eq_(other) -> Tensor\n\nIn-place ==, stored in self's dtype."),
    METHOD(ne, "ne(other) -> Tensor\n\nElementwise !=, a bool tensor."),
    METHOD(ne_, "ne_(other) -> Tensor\n\nIn-place !=."),
    METHOD(lt, "lt(other) -> Tensor\n\nElementwise <, a bool tensor."),
    METHOD(lt_, "lt_(other) -> Tensor\n\nIn-place <."),
    METHOD(le, "le(other) -> Tensor\n\nElementwise <=, a bool tensor."),
    METHOD(le_, "le_(other) -> Tensor\n\nIn-place <=."),
    METHOD(gt, "gt(other) -> Tensor\n\nElementwise >, a bool tensor."),
    METHOD(gt_, "gt_(other) -> Tensor\n\nIn-place >."),
    METHOD(ge, "ge(other) -> Tensor\n\nElementwise >=, a bool tensor."),
    METHOD(ge_, "ge_(other) -> Tensor\n\nIn-place >=."),
    METHOD(not_equal, "Alias of ne()."),
    METHOD(less, "Alias of lt()."),
    METHOD(less_equal, "Alias of le()."),
    METHOD(greater, "Alias of gt()."),
    METHOD(greater_equal, "Alias of ge()."),
    METHOD(neg, "neg() -> Tensor\n\n-self."),
    METHOD(neg_, "neg_() -> Tensor\n\nIn-place negation."),
    METHOD(negative, "Alias of neg()."),
    METHOD(negative_, "Alias of neg_()."),
    METHOD(abs, "abs() -> Tensor\n\nElementwise absolute value."),
    METHOD(abs_, "abs_() -> Tensor\n\nIn-place abs."),
    METHOD(absolute, "Alias of abs()."),
    METHOD(absolute_, "Alias of abs_()."),
    METHOD(relu, "relu() -> Tensor\n\nmax(self, 0) elementwise."),
    METHOD(relu_, "relu_() -> Tensor\n\nIn-place relu."),
    METHOD(exp, "exp() -> Tensor\n\nElementwise e**x (integer inputs give float32)."),
    METHOD(exp_, "exp_() -> Tensor\n\nIn-place exp."),
    METHOD(log, "log() -> Tensor\n\nElementwise natural logarithm (integer inputs give float32)."),
    METHOD(log_, "log_() -> Tensor\n\nIn-place log."),
    METHOD(sqrt, "sqrt() -> Tensor\n\nElementwise square root (integer inputs give float32)."),
    METHOD(sqrt_, "sqrt_() -> Tensor\n\nIn-place sqrt."),
    METHOD(reciprocal, "reciprocal() -> Tensor\n\n1 / self (integer inputs give float32)."),
    METHOD(reciprocal_, "reciprocal_() -> Tensor\n\nIn-place reciprocal."),
    {NULL, NULL, 0, NULL},
};

PyMethodDef mt_elementwise_functions[] = {
    FUNCTION(add, "add(input, other, *, alpha=1) -> Tensor\n\ninput + alpha * other."),
    FUNCTION(sub, "sub(input, other, *, alpha=1) -> Tensor\n\ninput - alpha * other."),
    FUNCTION(subtract, "Alias of sub()."),
    FUNCTION(mul, "mul(input, other) -> Tensor\n\nElementwise product."),
    FUNCTION(multiply, "Alias of mul()."),
    FUNCTION(div, "div(input, other) -> Tensor\n\nTrue division."),
    FUNCTION(divide, "Alias of div()."),
    FUNCTION(true_divide, "Alias of div()."),
    FUNCTION(maximum, "maximum(input, other) -> Tensor\n\nElementwise maximum (NaN propagates)."),
    FUNCTION(minimum, "minimum(input, other) -> Tensor\n\nElementwise minimum (NaN propagates)."),
    FUNCTION(eq, "eq(input, other) -> Tensor\n\nElementwise ==."),
    FUNCTION(ne, "ne(input, other) -> Tensor\n\nElementwise !=."),
    FUNCTION(lt, "lt(input, other) -> Tensor\n\nElementwise <."),
    FUNCTION(le, "le(input, other) -> Tensor\n\nElementwise <=."),
    FUNCTION(gt, "gt(input, other) -> Tensor\n\nElementwise >."),
    FUNCTION(ge, "ge(input, other) -> Tensor\n\nElementwise >=."),
    FUNCTION(not_equal, "Alias of ne()."),
    FUNCTION(less, "Alias of lt()."),
    FUNCTION(less_equal, "Alias of le()."),
    FUNCTION(greater, "Alias of gt()."),
    FUNCTION(greater_equal, "Alias of ge()."),
    FUNCTION(neg, "neg(input) -> Tensor\n\n-input."),
    FUNCTION(neg_, "neg_(input) -> Tensor\n\nIn-place negation."),
    FUNCTION(negative, "Alias of neg()."),
    FUNCTION(negative_, "Alias of neg_()."),
    FUNCTION(abs, "abs(input) -> Tensor\n\nElementwise absolute value."),
    FUNCTION(abs_, "abs_(input) -> Tensor\n\nIn-place abs."),
    FUNCTION(absolute, "Alias of abs()."),
    FUNCTION(relu, "relu(input) -> Tensor\n\nmax(input, 0) elementwise."),
    FUNCTION(relu_, "relu_(input) -> Tensor\n\nIn-place relu."),
    FUNCTION(exp, "exp(input) -> Tensor\n\nElementwise e**x."),
    FUNCTION(exp_, "exp_(input) -> Tensor\n\nIn-place exp."),
    FUNCTION(log, "log(input) -> Tensor\n\nElementwise natural logarithm."),
    FUNCTION(log_, "log_(input) -> Tensor\n\nIn-place log."),
    FUNCTION(sqrt, "sqrt(input) -> Tensor\n\nElementwise square root."),
    FUNCTION(sqrt_, "sqrt_(input) -> Tensor\n\nIn-place sqrt."),
    FUNCTION(reciprocal, "reciprocal(input) -> Tensor\n\n1 / input."),
    FUNCTION(reciprocal_, "reciprocal_(input) -> Tensor\n\nIn-place reciprocal."),
    {NULL, NULL, 0, NULL},
};
