/* elementwise.c: the elementwise ops: add/sub (alpha=), mul, div (true division), maximum/minimum, the
 * six comparisons, the bitwise and logical ops, their in-place forms, and the unary ops (neg, abs, exp, log,
 * sqrt, relu, reciprocal, ..., bitwise_not, logical_not and the isnan family). Each op runs
 * torch's checks in torch's order (dispatch.h), lays out the result like TensorIterator (the output follows
 * the inputs' memory order), and runs one kernel of the device's backend (kernels/backend.h; CPU tensors
 * of one dtype and shape take the host kernel directly). Python numbers, and 0-d CPU tensors next to
 * another device's tensors, reach the kernel as values (stride 0, on the stack, never temporary tensors);
 * a 0-d tensor on the op's device is read in place with stride 0. A complex Python number never reaches a
 * kernel (minitorch has no complex dtype): complex_binary raises what torch raises, or NotImplementedError
 * where torch would return a complex tensor, and computes eq/ne. Its entry points take C values
 * (elementwise.h); the Python forms (functions, methods, operators) are csrc/python/elementwise.c's. This
 * file never touches elements itself. */
#include "elementwise.h"

#include <math.h>
#include <string.h>

#include "../core/devices.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../autograd/record.h"
#include "copy.h"
#include "factory.h"
#include "dispatch.h"
#include "runner.h"
#include "reduce.h"
#include "shape.h"
#include "../core/warn.h"

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

/* alpha= (elementwise.h) */
typedef mt_alpha alpha_arg;

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

static const char *const binary_names[MT_BINARY_NUM_OPS] = {
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "fmod", "remainder", "floor_divide", "atan2",
    "xlogy", "copysign", "hypot", "logaddexp", "logaddexp2", "fmax", "fmin", "heaviside", "nextafter",
    "nextafter", "nextafter", "gcd", "lcm",
    "special_xlog1py", "special_zeta",
    "bitwise_and", "bitwise_or", "bitwise_xor", "lshift", "rshift",
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
};

/* &, |, ^, << and >>: bool and integer kernels only (no bool shifts), torch's dispatch error otherwise */
static int
binary_is_bitwise(mt_binary_op op)
{
    return op >= MT_BINARY_BITWISE_AND && op <= MT_BINARY_RSHIFT;
}

static int
bitwise_has_kernel(mt_binary_op op, mt_dtype dtype)
{
    return !mt_dtype_is_floating(dtype) && !(dtype == MT_BOOL && op >= MT_BINARY_LSHIFT);
}

/* Whether torch has a kernel of op for the compute dtype among the bitwise ops and those with floating
 * kernels only (hypot, logaddexp) or integer ones only (gcd, lcm); the other ops have one for every dtype. */
static int
binary_has_kernel(mt_binary_op op, mt_dtype compute)
{
    return (!binary_is_bitwise(op) || bitwise_has_kernel(op, compute)) &&
           !(MT_BINARY_IS_FLOAT_ONLY(op) && !mt_dtype_is_floating(compute)) &&
           !(MT_BINARY_IS_INTEGER_ONLY(op) && (mt_dtype_is_floating(compute) || compute == MT_BOOL)) &&
           !(op == MT_BINARY_SPECIAL_ZETA && mt_dtype_is_reduced_floating(compute));
}

/* torch's name for an op's kernel: special_zeta's is zeta_cpu */
static const char *
kernel_name(const char *name)
{
    return strncmp(name, "special_", 8) == 0 ? name + 8 : name;
}

/* torch's error for an op without a kernel for the compute dtype (binary_has_kernel), raised even for
 * empty operands (its dtype dispatch comes before the loop); 0 when the op has one. torch's meta
 * functions have no such dispatch: a float bitwise_and or gcd on meta is a float result. */
static int
bitwise_kernel_check(mt_binary_op op, mt_dtype compute, mt_device device)
{
    if (binary_has_kernel(op, compute) || device.type == MT_DEVICE_META) {
        return 0;
    }
    PyErr_Format(PyExc_NotImplementedError, "\"%s_%s\" not implemented for '%s'", kernel_name(binary_names[op]),
                 device.type == MT_DEVICE_CPU ? "cpu" : "cuda", mt_dtype_scalar_name(compute));
    return -1;
}

/* logical_and/or/xor: comparisons for the kernels; torch records nothing for them, in place neither */
static int
binary_is_logical(mt_binary_op op)
{
    return op >= MT_BINARY_LOGICAL_AND;
}

/* ---- the two op drivers -------------------------------------------------------------------------- */

/* Whether a broadcast shape holds any element: its product can overflow (the allocation reports that),
 * so no product is taken here. */
static int
shape_is_empty(int ndim, const int64_t *shape)
{
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 0) {
            return 1;
        }
    }
    return 0;
}

/* The ops past add ... minimum that have dtype rules or checks of their own (binary_kernel_check):
 * integer and bool inputs take the general path. */
static int
binary_checks_dtype(mt_binary_op op)
{
    return op == MT_BINARY_DIV ||
           (op > MT_BINARY_MINIMUM && !MT_BINARY_IS_COMPARISON(op) && !binary_is_bitwise(op));
}

static PyObject *binary_impl(mt_binary_op op, const mt_operand *a, const mt_operand *b, const mt_alpha *alpha,
                             mt_TensorObject *self_out);

/* Whether the divisor b (a number, or a tensor on the CPU) has a zero: -1 with an exception on failure. */
static int
divisor_has_zero(const mt_operand *b)
{
    mt_operand eq_operands[2];
    PyObject *eq, *any;
    int found;

    if (b->tensor == NULL) {
        return mt_scalar_to_double(b->scalar) == 0.0;
    }
    eq_operands[0] = *b;
    eq_operands[1].tensor = NULL;
    eq_operands[1].scalar.kind = MT_INT64;
    eq_operands[1].scalar.is_uint64 = 0;
    eq_operands[1].scalar.v.i = 0;
    eq = binary_impl(MT_BINARY_EQ, &eq_operands[0], &eq_operands[1], NULL, NULL);
    if (eq == NULL) {
        return -1;
    }
    any = mt_reduce(MT_REDUCTION_ANY, (mt_TensorObject *)eq, NULL, 0, 0, MT_NUM_DTYPES);
    Py_DECREF(eq);
    if (any == NULL) {
        return -1;
    }
    found = *(const uint8_t *)mt_tensor_data((mt_TensorObject *)any) != 0;
    Py_DECREF(any);
    return found;
}

/* torch's kernel-time errors of the ops that have them, for the compute dtype on `device`: no bool kernel
 * for pow and the divisions, and integer division by zero on the CPU. */
static int
binary_kernel_check(mt_binary_op op, mt_dtype compute, mt_device device, const mt_operand *b)
{
    static const char *const cpu_names[MT_BINARY_NUM_OPS] = {
        [MT_BINARY_POW] = "pow", [MT_BINARY_FMOD] = "fmod_cpu", [MT_BINARY_REMAINDER] = "remainder_cpu",
        [MT_BINARY_FLOOR_DIVIDE] = "div_floor_cpu",
    };
    static const char *const cuda_names[MT_BINARY_NUM_OPS] = {
        [MT_BINARY_POW] = "pow_cuda", [MT_BINARY_FMOD] = "fmod_cuda", [MT_BINARY_REMAINDER] = "remainder_cuda",
        [MT_BINARY_FLOOR_DIVIDE] = "div_floor_cuda",
    };
    int cpu = device.type == MT_DEVICE_CPU;
    int zero;

    if (cpu_names[op] == NULL || mt_dtype_is_floating(compute)) {
        return 0;
    }
    if (compute == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for 'Bool'",
                     cpu ? cpu_names[op] : cuda_names[op]);
        return -1;
    }
    if (op == MT_BINARY_POW || !cpu) {
        return 0;
    }
    zero = divisor_has_zero(b);
    if (zero > 0) {
        PyErr_SetString(PyExc_RuntimeError, "ZeroDivisionError");
    }
    return zero != 0 ? -1 : 0;
}

/* Whether an in-place op may write its compute dtype into self_out. torch's meta functions differ by op:
 * mul_ writes any result (an integer self times a float stays an integer), true division's reference
 * words the CPU check with Python's dtype names, and the others word torch/_prims_common's check
 * (mt_check_can_cast). 0 or -1. */
static int
binary_inplace_cast_check(mt_binary_op op, mt_dtype compute, const mt_TensorObject *self_out)
{
    mt_device device = mt_tensor_device(self_out);

    if (device.type != MT_DEVICE_META || (op != MT_BINARY_MUL && op != MT_BINARY_DIV)) {
        return mt_check_can_cast(device, compute, self_out->dtype);
    }
    if (op == MT_BINARY_DIV && compute != self_out->dtype && !mt_can_cast(compute, self_out->dtype)) {
        PyErr_Format(PyExc_RuntimeError,
                     "result type minitorch.%s can't be cast to the desired output type minitorch.%s",
                     mt_dtype_name(compute), mt_dtype_name(self_out->dtype));
        return -1;
    }
    return 0;
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
    if (mt_dtype_is_reduced_floating(x->dtype) || (op == MT_BINARY_SUB && x->dtype == MT_BOOL) ||
        (binary_checks_dtype(op) && !mt_dtype_is_floating(x->dtype)) || !binary_has_kernel(op, x->dtype)) {
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
    mt_binary_kernel_args kargs = {0};

    if (self_out != NULL && mt_check_no_partial_overlap(self_out, y) < 0) {
        return NULL;
    }
    kargs.op = op;
    kargs.dtype = x->dtype;
    kargs.a_dtype = x->dtype;
    kargs.b_dtype = x->dtype;
    if (mt_dtype_is_floating(x->dtype)) {
        kargs.alpha.d = 1.0;
    }
    else {
        kargs.alpha.i = 1;
    }
    return (PyObject *)mt_run_binary_contiguous(&kargs, self_out, MT_BINARY_IS_COMPARISON(op) ? MT_BOOL : x->dtype, x,
                                                y);
}

/* Whether an operand is one value for every element: a number, or a tensor whose strides are 0 wherever its
 * size is not 1 (torch's TensorIterator is_scalar) */
static int
one_value(const mt_operand *op)
{
    const mt_TensorObject *t = op->tensor;
    if (t == NULL) {
        return 1;
    }
    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] != 1 && t->strides[d] != 0) {
            return 0;
        }
    }
    return 1;
}

/* The operands of an op whose common dtype is float16 or bfloat16, which the kernel computes in float32:
 * as torch's CPU TensorIterator, a tensor of another dtype is first converted to the common dtype
 * (converted[k], a new reference) and a number rounded to it, so the kernel sees only values of the
 * 16-bit dtype. mul, div and floor_divide take a number (or 0-d tensor) second operand at its own value,
 * as torch's reduced-float kernels of those read the original scalar in float32. */
static int
reduced_operands(mt_binary_op op, mt_dtype compute, mt_operand *ops, mt_TensorObject **converted)
{
    for (int k = 0; k < 2; k++) {
        mt_TensorObject *t = ops[k].tensor;
        if (k == 1 && (op == MT_BINARY_MUL || op == MT_BINARY_DIV || op == MT_BINARY_FLOOR_DIVIDE) &&
            (t == NULL || t->ndim == 0)) {
            continue;
        }
        if (t == NULL) {
            mt_value v;
            mt_scalar_store(ops[k].scalar, compute, v.bytes);
            ops[k].scalar = mt_scalar_load(compute, v.bytes);
        }
        else if (t->dtype != compute) {
            converted[k] = mt_copy_to(t, compute, mt_tensor_device(t));
            if (converted[k] == NULL) {
                Py_CLEAR(converted[0]);
                return -1;
            }
            ops[k].tensor = converted[k];
        }
    }
    return 0;
}

/* The alpha the add kernel runs with: sub(a, b, alpha) is add(a, b, -alpha), negated as c10's Scalar
 * negates: an int's 64 bits wrap into a signed int (-(-2**63) is -2**63, -(2**64 - 1) is 1), for a
 * floating result too. */
static mt_scalar
kernel_alpha(mt_binary_op op, const alpha_arg *alpha)
{
    mt_scalar v = alpha->value;

    if (op != MT_BINARY_SUB) {
        return v;
    }
    if (v.kind == MT_FLOAT64) {
        v.v.d = -v.v.d;
    }
    else {
        v.v.i = (int64_t)(0u - (uint64_t)v.v.i);
        v.is_uint64 = 0;
    }
    return v;
}

/* torch's add kernel reads alpha in the result's dtype with c10's overflow check (mt_scalar_checked), so
 * int8's sub takes alpha=128 and refuses -128. */
static int
alpha_check_conversion(mt_binary_op op, mt_dtype compute, const alpha_arg *alpha)
{
    mt_scalar unused;

    return mt_scalar_checked(kernel_alpha(op, alpha), compute, &unused);
}

/* torch's meta add_/sub_ (meta_binop_inplace_alpha) refuses an integer self with a float other and a bool
 * self with any other that is not bool, before its other checks, in its own words. 0 or -1 raised. */
static int
meta_add_inplace_check(const mt_TensorObject *self, const mt_operand *other)
{
    mt_dtype o = operand_dtype(other);

    if (mt_dtype_is_integral(self->dtype, 0) && mt_dtype_is_floating(o)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Promotion of int.add/sub_(float) in in-place ops are not possible due to element size "
                        "change.");
        return -1;
    }
    if (self->dtype == MT_BOOL && o != MT_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Promotion of bool.add/sub_(others) in in-place ops are not possible due to element size "
                        "change.");
        return -1;
    }
    return 0;
}

/* torch.<op>(a, b, alpha=alpha) or, with self_out, a.<op>_(b). a is self for in-place ops. `pow_number`:
 * the exponent of pow(Tensor, Scalar) as a double (b holds it too), or NULL (mt_binary_kernel_args). */
static PyObject *
binary_run(mt_binary_op op, const mt_operand *a, const mt_operand *b, const alpha_arg *alpha,
           mt_TensorObject *self_out, const double *pow_number)
{
    mt_operand ops[2] = {*a, *b};
    mt_TensorObject *tensors[2] = {a->tensor, b->tensor};
    mt_pointwise_input in[2];
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    mt_dtype compute, kernel_dtype;
    mt_device device;
    mt_pointwise_kernel kernel = {MT_POINTWISE_BINARY};
    mt_binary_kernel_args *kargs = &kernel.args.binary;
    int is_cmp = MT_BINARY_IS_COMPARISON(op);
    mt_TensorObject *converted[2] = {NULL, NULL};
    PyObject *result;

    if (pow_number == NULL && alpha == NULL && a->tensor != NULL && b->tensor != NULL && (self_out == NULL || self_out == a->tensor) &&
        (self_out == NULL || !is_cmp) && fast_binary_applies(op, a->tensor, b->tensor)) {
        return fast_binary(op, a->tensor, b->tensor, self_out);
    }
    if (self_out != NULL && (op == MT_BINARY_ADD || op == MT_BINARY_SUB) &&
        mt_tensor_device(self_out).type == MT_DEVICE_META && meta_add_inplace_check(self_out, b) < 0) {
        return NULL;
    }
    if (op == MT_BINARY_SUB && sub_check(a, b) < 0) {
        return NULL;
    }
    if (op == MT_BINARY_HEAVISIDE && operand_dtype(a) != operand_dtype(b)) {
        PyErr_SetString(PyExc_RuntimeError, "heaviside is not yet implemented for tensors with different dtypes.");
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
    if (mt_broadcast_operands(2, tensors, &ndim, shape) < 0) {
        return NULL;
    }
    if (self_out != NULL && mt_check_out_shape(mt_tensor_device(self_out), self_out, ndim, shape) < 0) {
        return NULL;
    }
    compute = mt_result_type(2, ops);
    if (MT_BINARY_PROMOTES_TO_FLOAT(op) && !mt_dtype_is_floating(compute)) {
        compute = mt_default_float_dtype();
    }
    if (mt_check_same_device(self_out, 2, tensors, &device) < 0) {
        return NULL;
    }
    if (self_out != NULL && !is_cmp && binary_inplace_cast_check(op, compute, self_out) < 0) {
        return NULL;
    }
    if (alpha != NULL && (alpha_check(compute, 0, alpha) < 0 || alpha_check_conversion(op, compute, alpha) < 0)) {
        return NULL;
    }
    if (bitwise_kernel_check(op, compute, device) < 0) {
        return NULL;
    }
    if (!shape_is_empty(ndim, shape) && binary_kernel_check(op, compute, device, b) < 0) {
        return NULL;
    }

    kernel_dtype = mt_dtype_compute(compute);
    if (mt_dtype_is_reduced_floating(compute) && reduced_operands(op, compute, ops, converted) < 0) {
        return NULL;
    }
    kargs->op = op;
    if (op == MT_BINARY_NEXTAFTER && mt_dtype_is_reduced_floating(compute)) {
        /* torch steps to the next float16 or bfloat16 value, which the float32 kernels must be told */
        kargs->op = compute == MT_FLOAT16 ? MT_BINARY_NEXTAFTER_HALF : MT_BINARY_NEXTAFTER_BFLOAT16;
    }
    kargs->dtype = kernel_dtype;
    kargs->scalar_b = one_value(&ops[1]);
    /* the host's loop (torch's CPU kernel); a CUDA device's takes the float b, as torch's CUDA kernel */
    kargs->pow_by_number = pow_number != NULL && compute == MT_FLOAT32 && device.type == MT_DEVICE_CPU;
    kargs->pow_number = pow_number != NULL ? *pow_number : 0.0;
    kargs->alpha.i = 1;
    if (mt_dtype_is_floating(compute)) {
        kargs->alpha.d = 1.0;
    }
    if (alpha != NULL) {
        /* sub(a, b, alpha) is add(a, b, -alpha), as in torch; the ADD kernel special-cases alpha 1 */
        mt_scalar v = kernel_alpha(op, alpha);
        kargs->op = MT_BINARY_ADD;
        if (mt_dtype_is_floating(compute)) {
            double d = mt_scalar_to_double(v);
            if (mt_dtype_is_reduced_floating(compute)) {
                /* torch's 16-bit kernels take alpha in their own dtype */
                d = mt_reduced_to_float(compute, mt_float_to_reduced(compute, (float)d));
            }
            kargs->alpha.d = d;
        }
        else if (compute == MT_BOOL) {
            kargs->alpha.i = mt_scalar_to_int64(v) != 0;
        }
        else {
            kargs->alpha.i = mt_scalar_to_int64(v);
        }
    }
    for (int k = 0; k < 2; k++) {
        mt_pointwise_input_init(&in[k], &ops[k], kernel_dtype, device);
    }
    kargs->a_dtype = in[0].tensor != NULL ? in[0].tensor->dtype
                     : in[0].device_value != NULL ? in[0].device_value->dtype : kernel_dtype;
    kargs->b_dtype = in[1].tensor != NULL ? in[1].tensor->dtype
                     : in[1].device_value != NULL ? in[1].device_value->dtype : kernel_dtype;
    result = (PyObject *)mt_run_pointwise(self_out, is_cmp ? MT_BOOL : compute, ndim, shape, 2, in, kernel_dtype,
                                          device, &kernel);
    Py_XDECREF(converted[0]);
    Py_XDECREF(converted[1]);
    return result;
}

static PyObject *
binary_impl(mt_binary_op op, const mt_operand *a, const mt_operand *b, const alpha_arg *alpha,
            mt_TensorObject *self_out)
{
    return binary_run(op, a, b, alpha, self_out, NULL);
}

static const char *const unary_names[MT_UNARY_NUM_OPS] = {
#define UNARY_NAME_(OP, name, S) [MT_UNARY_##OP] = #name,
    MT_UNARY_ALL_OPS(UNARY_NAME_, _)
#undef UNARY_NAME_
};

const char *
mt_unary_op_name(mt_unary_op op)
{
    return unary_names[op];
}

/* The compute dtype of a unary op on t (torch's rules), or -1 with torch's error for a bool input that
 * the op refuses with a message of its own. Float-only ops compute integer and bool inputs in the default
 * float dtype; square of a bool is pow(x, 2), an int64; sign of a bool is the bool (computed as int64). */
static int
unary_dtypes(mt_unary_op op, const mt_TensorObject *t, mt_dtype *compute, mt_dtype *result)
{
    *compute = t->dtype;
    if (MT_UNARY_IS_PREDICATE(op) || op == MT_UNARY_BITWISE_NOT) {
        /* every dtype computes in its own (bitwise_not's floating error is unary_no_kernel's); float16
         * and bfloat16 in float32, which keeps every value */
        *result = MT_UNARY_IS_PREDICATE(op) ? MT_BOOL : *compute;
        *compute = mt_dtype_compute(*compute);
        return 0;
    }
    if (MT_UNARY_IS_FLOAT_ONLY(op) && !mt_dtype_is_floating(t->dtype) && op != MT_UNARY_FRAC) {
        *compute = mt_default_float_dtype();
    }
    *result = *compute;
    /* float16 and bfloat16 compute in float32, each result rounded to the 16-bit dtype */
    *compute = mt_dtype_compute(*compute);
    if (t->dtype != MT_BOOL) {
        return 0;
    }
    if (op == MT_UNARY_NEG) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                        "invert a mask, use the `~` or `logical_not()` operator instead.");
        return -1;
    }
    if (op == MT_UNARY_RELU) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean inputs not supported for relu");
        return -1;
    }
    if (op == MT_UNARY_SQUARE || op == MT_UNARY_SIGN || op == MT_UNARY_SGN) {
        *compute = MT_INT64;
    }
    *result = op == MT_UNARY_SIGN || op == MT_UNARY_SGN ? MT_BOOL : *compute;
    return 0;
}

int
mt_unary_result_dtype(mt_unary_op op, const mt_TensorObject *t, mt_dtype *result)
{
    mt_dtype compute;

    return unary_dtypes(op, t, &compute, result);
}

/* torch's dispatch error for a dtype an op has no kernel for (abs and the rounding ops of a bool, frac of
 * an integer), named per device as torch's kernels are; 0 when the op has one. torch's meta functions
 * have no such dispatch: every dtype has a meta result. */
static int
unary_no_kernel(mt_unary_op op, const mt_TensorObject *t)
{
    int cpu = mt_tensor_device(t).type == MT_DEVICE_CPU;
    const char *suffix = cpu ? "_cpu" : "_cuda";

    if (mt_tensor_device(t).type == MT_DEVICE_META) {
        return 0;
    }
    if (t->dtype == MT_BOOL && (op == MT_UNARY_FLOOR || op == MT_UNARY_CEIL || op == MT_UNARY_TRUNC ||
                                op == MT_UNARY_ROUND)) {
        suffix = cpu ? "_vml_cpu" : "_cuda";
    }
    else if (!((t->dtype == MT_BOOL && op == MT_UNARY_ABS) ||
               (op == MT_UNARY_FRAC && !mt_dtype_is_floating(t->dtype)) ||
               (op == MT_UNARY_BITWISE_NOT && mt_dtype_is_floating(t->dtype)) ||
               /* ndtri, log_ndtr and erfcx: float32 and float64 kernels only */
               (mt_dtype_is_reduced_floating(t->dtype) &&
                (op == MT_UNARY_SPECIAL_NDTRI || op == MT_UNARY_SPECIAL_LOG_NDTR || op == MT_UNARY_SPECIAL_ERFCX)))) {
        return 0;
    }
    PyErr_Format(PyExc_NotImplementedError, "\"%s%s\" not implemented for '%s'", kernel_name(unary_names[op]),
                 suffix, mt_dtype_scalar_name(t->dtype));
    return -1;
}

/* op(t) into a new tensor or t itself (inplace), below autograd; torch_cpu as mt_unary_kernel_args's */
static PyObject *
unary_compute(mt_unary_op op, mt_TensorObject *t, int inplace, int torch_cpu)
{
    mt_dtype compute, result;
    mt_pointwise_input in = {t, NULL};
    mt_pointwise_kernel kernel = {MT_POINTWISE_UNARY};

    if (unary_dtypes(op, t, &compute, &result) < 0) {
        return NULL;
    }
    if (inplace) {
        if (mt_check_no_internal_overlap(t) < 0 || mt_check_can_cast(mt_tensor_device(t), result, t->dtype) < 0) {
            return NULL;
        }
    }
    if (unary_no_kernel(op, t) < 0) {
        return NULL;
    }
    kernel.args.unary.op = op;
    kernel.args.unary.dtype = compute;
    kernel.args.unary.in_dtype = t->dtype;
    kernel.args.unary.torch_cpu = torch_cpu;
    return (PyObject *)mt_run_pointwise(inplace ? t : NULL, result, t->ndim, t->sizes, 1, &in, compute,
                                        mt_tensor_device(t), &kernel);
}

static PyObject *
unary_impl(mt_unary_op op, mt_TensorObject *t, int inplace)
{
    return unary_compute(op, t, inplace, mt_tensor_device(t).type == MT_DEVICE_CPU);
}

PyObject *
mt_std_sqrt(mt_TensorObject *t)
{
    return unary_compute(MT_UNARY_SQRT, t, 0, 0);
}

/* ---- gelu ------------------------------------------------------------------------------------------- */

PyObject *
mt_gelu_kernel(mt_TensorObject *x, mt_TensorObject *grad, int tanh_form)
{
    mt_device device = mt_tensor_device(x);
    const mt_backend *be;
    mt_pointwise_input in[2] = {{grad != NULL ? grad : x, NULL}, {x, NULL}};
    mt_pointwise_kernel kernel = {MT_POINTWISE_GELU};

    if (device.type != MT_DEVICE_CPU || !mt_dtype_is_floating(x->dtype)) {
        Py_RETURN_NONE;
    }
    if (grad != NULL && (grad->dtype != x->dtype || !mt_device_equal(mt_tensor_device(grad), device) ||
                         grad->ndim != x->ndim ||
                         memcmp(grad->sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim) != 0)) {
        Py_RETURN_NONE;
    }
    be = mt_backend_for(device);
    if (be == NULL) {
        return NULL;
    }
    if (be->gelu == NULL) {
        Py_RETURN_NONE;
    }
    kernel.args.gelu.dtype = x->dtype;
    kernel.args.gelu.tanh = tanh_form;
    kernel.args.gelu.backward = grad != NULL;
    /* torch's gelu_out_cpu / gelu_backward_out_cpu take oneDNN for these (use_mkldnn(self)) */
    kernel.args.gelu.onednn = !tanh_form && mt_tensor_is_contiguous(x) && mt_tensor_numel(x) > 1 &&
                              (x->dtype == MT_FLOAT32 || x->dtype == MT_BFLOAT16);
    return (PyObject *)mt_run_pointwise(NULL, x->dtype, x->ndim, x->sizes, grad != NULL ? 2 : 1, in, x->dtype,
                                        device, &kernel);
}

/* ---- where ------------------------------------------------------------------------------------------ */

static PyObject *
where_compute(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b, int check_numbers)
{
    /* torch's where: a bool condition; the result dtype is a's and b's (the condition's is not part of it),
     * the shape all three broadcast; tensor values of another dtype are converted first, so that the
     * kernel only selects bits */
    mt_operand ops[3] = {{cond, {0}}, *a, *b};
    mt_TensorObject *tensors[3] = {cond, a->tensor, b->tensor};
    mt_TensorObject *converted[3] = {NULL, NULL, NULL};
    mt_pointwise_input in[3];
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    mt_pointwise_kernel kernel = {MT_POINTWISE_WHERE};
    mt_dtype result;
    mt_device device;
    mt_TensorObject *out = NULL;
    mt_TensorObject *bool_cond = NULL;
    PyObject *r;

    if (cond->dtype == MT_UINT8) {
        /* torch still takes a uint8 condition, with a deprecation warning, as the bool one it stands for */
        if (mt_warn(PyExc_UserWarning,
                    "where received a uint8 condition tensor. This behavior is deprecated and will be removed in a "
                    "future version of PyTorch. Use a boolean condition instead.") < 0) {
            return NULL;
        }
        bool_cond = mt_copy_to(cond, MT_BOOL, mt_tensor_device(cond));
        if (bool_cond == NULL) {
            return NULL;
        }
        r = where_compute(bool_cond, a, b, check_numbers);
        Py_DECREF(bool_cond);
        return r;
    }
    if (cond->dtype != MT_BOOL) {
        PyErr_Format(PyExc_RuntimeError,
                     "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                     mt_dtype_scalar_name(cond->dtype));
        return NULL;
    }
    if (mt_broadcast_operands(3, tensors, &ndim, shape) < 0) {
        return NULL;
    }
    result = mt_result_type(2, &ops[1]);
    if (mt_check_same_device(NULL, 3, tensors, &device) < 0) {
        return NULL;
    }
    for (int k = 1; k < 3; k++) {
        /* a number is converted to the result's dtype with c10's overflow check, as torch fills a one-element
         * tensor with it: on the CPU that fill does not check float16 and bfloat16 (see mt_fill_checks) */
        if (check_numbers && ops[k].tensor == NULL && mt_fill_checks(result, 1, device) &&
            mt_scalar_checked(ops[k].scalar, result, &ops[k].scalar) < 0) {
            return NULL;
        }
    }
    for (int k = 1; k < 3; k++) {
        mt_TensorObject *t = ops[k].tensor;
        if (t != NULL && t->dtype != result &&
            (t->ndim > 0 || mt_device_equal(mt_tensor_device(t), device))) {
            converted[k] = mt_copy_to(t, result, mt_tensor_device(t));
            if (converted[k] == NULL) {
                goto error;
            }
            ops[k].tensor = converted[k];
        }
    }
    for (int k = 0; k < 3; k++) {
        mt_pointwise_input_init(&in[k], &ops[k], k == 0 ? MT_BOOL : result, device);
    }
    kernel.args.where_itemsize = (int)mt_dtype_size(result);
    out = mt_run_pointwise(NULL, result, ndim, shape, 3, in, result, device, &kernel);
error:
    for (int k = 1; k < 3; k++) {
        Py_XDECREF(converted[k]);
    }
    return (PyObject *)out;
}

/* ---- pow ------------------------------------------------------------------------------------------ */

static PyObject *
unary_then_binary(mt_unary_op first, mt_binary_op op, mt_TensorObject *x, const mt_operand *other, int x_first,
                  mt_TensorObject *self_out)
{
    PyObject *tmp = unary_impl(first, x, 0);
    mt_operand ops[2];
    PyObject *result;

    if (tmp == NULL) {
        return NULL;
    }
    ops[x_first ? 0 : 1].tensor = (mt_TensorObject *)tmp;
    ops[x_first ? 1 : 0] = *other;
    result = binary_impl(op, &ops[0], &ops[1], NULL, self_out);
    Py_DECREF(tmp);
    return result;
}

/* tensor ** number as torch's pow(Tensor, Scalar) computes it: exponents 0 and 1 without pow, and for
 * floating results 0.5, -0.5, -1, 2, 3 and -2 as sqrt, rsqrt, reciprocal, x*x, x*x*x and 1/(x*x) (torch's
 * PowKernel.cpp); other exponents of a float32 tensor as torch's CPU loop takes them: its vector loop
 * with the exponent rounded to float, its scalar loop std::pow(float, double) (the host kernel follows
 * torch's division of the elements; a CUDA device takes the float, as torch's CUDA kernel). */
static PyObject *
pow_tensor_scalar(mt_TensorObject *base, const mt_operand *exp, mt_TensorObject *self_out)
{
    mt_operand ops[2], number;
    mt_dtype result;
    double e = mt_scalar_to_double(exp->scalar);
    PyObject *converted, *r;

    ops[0].tensor = base;
    ops[1] = *exp;
    if (!mt_dtype_is_floating(base->dtype) && exp->scalar.kind == MT_INT64 && !exp->scalar.is_uint64 &&
        exp->scalar.v.i < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Integers to negative integer powers are not allowed.");
        return NULL;
    }
    result = mt_result_type(2, ops);
    if (self_out != NULL &&
        (mt_check_no_internal_overlap(self_out) < 0 ||
         mt_check_can_cast(mt_tensor_device(self_out), result, self_out->dtype) < 0)) {
        return NULL;
    }
    if (mt_dtype_is_integral(result, 0)) {
        /* the integer kernel reads the exponent as the element type (c10's checked conversion) */
        mt_scalar checked;
        if (mt_scalar_checked(exp->scalar, result, &checked) < 0) {
            return NULL;
        }
    }
    if (e == 1.0) {
        /* base * 1 in the result dtype: the values, converted */
        return binary_impl(MT_BINARY_MUL, &ops[0], &ops[1], NULL, self_out);
    }
    if (e == 0.0 && result == MT_BOOL) {
        /* every element True: base | True */
        ops[1].scalar.v.i = 1;
        return binary_impl(MT_BINARY_MAXIMUM, &ops[0], &ops[1], NULL, self_out);
    }
    if (!mt_dtype_is_floating(result) || !(e == 0.5 || e == -0.5 || e == -1.0 || e == 2.0 || e == 3.0 ||
                                             e == -2.0)) {
        return binary_run(MT_BINARY_POW, &ops[0], &ops[1], NULL, self_out, &e);
    }
    if (result == MT_FLOAT16) {
        /* torch's float16 kernel has no special exponents: pow in float32 of the exponent rounded to
         * float16 (bfloat16 takes the special cases, each product rounded to bfloat16) */
        return binary_run(MT_BINARY_POW, &ops[0], &ops[1], NULL, self_out, NULL);
    }
    if (e == 0.5 || e == -0.5 || e == -1.0) {
        /* the float-only unary ops: an integer base is computed in the default float dtype, the result's */
        return unary_impl(e == 0.5 ? MT_UNARY_SQRT : e == -0.5 ? MT_UNARY_RSQRT : MT_UNARY_RECIPROCAL, base,
                          self_out != NULL);
    }
    converted = base->dtype == result ? (Py_INCREF(base), (PyObject *)base)
                                      : (PyObject *)mt_copy_to(base, result, mt_tensor_device(base));
    if (converted == NULL) {
        return NULL;
    }
    number.tensor = NULL;
    number.scalar.kind = MT_FLOAT64;
    number.scalar.is_uint64 = 0;
    number.scalar.v.d = 1.0;
    if (e == 2.0) {
        r = unary_impl(MT_UNARY_SQUARE, (mt_TensorObject *)converted, self_out != NULL);
    }
    else if (e == 3.0) {
        ops[0].tensor = (mt_TensorObject *)converted;
        r = unary_then_binary(MT_UNARY_SQUARE, MT_BINARY_MUL, (mt_TensorObject *)converted, &ops[0], 1, self_out);
    }
    else {
        r = unary_then_binary(MT_UNARY_SQUARE, MT_BINARY_DIV, (mt_TensorObject *)converted, &number, 0, self_out);
    }
    Py_DECREF(converted);
    return r;
}

/* ---- complex Python numbers ---------------------------------------------------------------------- */

/* An operand that may be a complex Python number (elementwise.h): such a number never reaches a kernel,
 * see complex_binary. */
typedef mt_cx_operand cx_operand;

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
    if ((MT_BINARY_IS_COMPARISON(op) && !binary_is_logical(op)) || binary_is_bitwise(op)) {
        /* torch's dispatch error: its comparison and bitwise kernels have no complex case */
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

/* ---- C entry points ---------------------------------------------------------------------------- */


PyObject *
mt_binary(const char *fname, mt_binary_op op, const cx_operand *a, const cx_operand *b, const alpha_arg *alpha,
          mt_TensorObject *self_out)
{
    mt_TensorObject *ta = a->op.tensor, *tb = b->op.tensor, *original = NULL;
    mt_scalar one = {MT_INT64, {1}, 0};
    PyObject *r;

    if (a->is_complex || b->is_complex) {
        return complex_binary(fname, op, a, b, alpha, self_out);
    }
    if (self_out != NULL) {
        if (!binary_is_logical(op) && mt_ag_check_inplace(self_out) < 0) {
            return NULL;
        }
        if (mt_ag_binary_needs_original(op, self_out, tb)) {
            original = mt_clone(self_out);
            if (original == NULL) {
                return NULL;
            }
        }
    }
    if (op == MT_BINARY_POW && ta != NULL && tb == NULL) {
        r = pow_tensor_scalar(ta, &b->op, self_out);
    }
    else {
        r = binary_impl(op, &a->op, &b->op, alpha, self_out);
    }
    if (r != NULL && self_out != NULL && mt_ag_bump(self_out) < 0) {
        Py_CLEAR(r);
    }
    if (r != NULL) {
        /* a number on the left: torch calls the tensor's method (x.add(2) for 2 + x), or rsub for 2 - x */
        int reflected = ta == NULL;
        mt_scalar number = reflected ? a->op.scalar : b->op.scalar;
        if (mt_ag_binary(op, reflected ? tb : ta, reflected ? NULL : tb, number, alpha != NULL ? alpha->value : one,
                         reflected, (mt_TensorObject *)r, original) < 0) {
            Py_CLEAR(r);
        }
    }
    Py_XDECREF(original);
    return r;
}

PyObject *
mt_rsub(const char *fname, const mt_cx_operand *self, const mt_cx_operand *other, const mt_alpha *alpha)
{
    mt_scalar one = {MT_INT64, {1}, 0};
    PyObject *r;

    if (other->op.tensor == NULL || self->is_complex || other->is_complex) {
        /* other a number: number - alpha * self, the reflected sub (RsubBackward1) */
        return mt_binary(fname, MT_BINARY_SUB, other, self, alpha, NULL);
    }
    r = binary_impl(MT_BINARY_SUB, &other->op, &self->op, alpha, NULL);
    if (r != NULL && mt_ag_rsub(self->op.tensor, other->op.tensor, alpha != NULL ? alpha->value : one,
                                (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

/* div with rounding_mode, below autograd: floor is floor_divide's kernel (torch's div_floor); trunc is
 * trunc(a / b) for floating dtypes (torch's div_trunc computes exactly that) and, for integers, C's
 * truncating quotient, composed as (a - fmod(a, b)) // b, which is exact and raises torch's
 * ZeroDivisionError through fmod. */
static PyObject *
div_rounding_impl(int trunc, const mt_operand *a, const mt_operand *b, mt_TensorObject *self_out)
{
    mt_operand ops[2] = {*a, *b};
    mt_dtype compute = mt_result_type(2, ops);
    PyObject *r;
    PyObject *rem;
    PyObject *num;
    mt_operand n;
    mt_operand rm;

    if (compute == MT_BOOL) {
        PyErr_Format(PyExc_NotImplementedError, "\"div_%s_cpu\" not implemented for 'Bool'", trunc ? "trunc" : "floor");
        return NULL;
    }
    if (!trunc) {
        return binary_impl(MT_BINARY_FLOOR_DIVIDE, a, b, NULL, self_out);
    }
    if (mt_dtype_is_floating(compute)) {
        r = binary_impl(MT_BINARY_DIV, a, b, NULL, self_out);
        if (r == NULL) {
            return NULL;
        }
        rem = unary_impl(MT_UNARY_TRUNC, (mt_TensorObject *)r, 1);
        if (rem == NULL) {
            Py_DECREF(r);
            return NULL;
        }
        Py_DECREF(rem);
        return r;
    }
    rem = binary_impl(MT_BINARY_FMOD, a, b, NULL, NULL);
    if (rem == NULL) {
        return NULL;
    }
    rm.tensor = (mt_TensorObject *)rem;
    num = binary_impl(MT_BINARY_SUB, a, &rm, NULL, NULL);
    Py_DECREF(rem);
    if (num == NULL) {
        return NULL;
    }
    n.tensor = (mt_TensorObject *)num;
    r = binary_impl(MT_BINARY_FLOOR_DIVIDE, &n, b, NULL, self_out);
    Py_DECREF(num);
    return r;
}

PyObject *
mt_div_rounding(const char *fname, int trunc, const mt_cx_operand *a, const mt_cx_operand *b,
                mt_TensorObject *self_out)
{
    mt_TensorObject *ta = a->op.tensor, *tb = b->op.tensor;
    PyObject *r;

    if (a->is_complex || b->is_complex) {
        return complex_binary(fname, MT_BINARY_DIV, a, b, NULL, self_out);
    }
    if (self_out != NULL && mt_ag_check_inplace(self_out) < 0) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = div_rounding_impl(trunc, &a->op, &b->op, self_out));
    if (r != NULL && self_out != NULL && mt_ag_bump(self_out) < 0) {
        Py_CLEAR(r);
    }
    if (r != NULL && mt_ag_div_rounding(ta, tb, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt_binary_reflected_divide(const mt_operand *number, mt_TensorObject *t)
{
    cx_operand recip, num;
    PyObject *r = mt_unary(MT_UNARY_RECIPROCAL, t, 0);
    PyObject *result;

    if (r == NULL) {
        return NULL;
    }
    memset(&recip, 0, sizeof recip);
    memset(&num, 0, sizeof num);
    recip.op.tensor = (mt_TensorObject *)r;
    num.op = *number;
    result = mt_binary("mul", MT_BINARY_MUL, &recip, &num, NULL, NULL);
    Py_DECREF(r);
    return result;
}

PyObject *
mt_unary(mt_unary_op op, mt_TensorObject *t, int inplace)
{
    mt_TensorObject *original = NULL;
    PyObject *r;

    if (inplace && !MT_UNARY_IS_PREDICATE(op)) {
        /* torch records nothing for logical_not_ (not even the leaf check); bitwise_not_ checks */
        if (mt_ag_check_inplace(t) < 0) {
            return NULL;
        }
        if (op != MT_UNARY_BITWISE_NOT && mt_ag_unary_needs_original(op, t)) {
            /* the formula reads the input, which the op overwrites */
            original = mt_clone(t);
            if (original == NULL) {
                return NULL;
            }
        }
    }
    r = unary_impl(op, t, inplace);
    if (r != NULL && inplace && mt_ag_bump(t) < 0) {
        Py_CLEAR(r);
    }
    /* bitwise_not and the predicates have no derivative (torch's non-differentiable outputs) */
    if (r != NULL && !MT_UNARY_IS_PREDICATE(op) && op != MT_UNARY_BITWISE_NOT &&
        mt_ag_unary(op, t, (mt_TensorObject *)r, original) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(original);
    return r;
}

/* logit with eps, below autograd: torch's kernel takes x < lo ? lo : (x > hi ? hi : x) for lo = eps and
 * hi = 1 - eps in the result's dtype (so lo when eps > 0.5 makes them cross, unlike clamp) before
 * log(x / (1 - x)); an integer input is converted first */
static PyObject *
logit_eps_compute(mt_TensorObject *t, double eps, int inplace)
{
    mt_TensorObject *x = t, *converted = NULL;
    mt_operand ops[2], bound;
    mt_dtype result;
    PyObject *below = NULL, *above = NULL, *inner = NULL, *z = NULL, *r = NULL;

    if (mt_unary_result_dtype(MT_UNARY_LOGIT, t, &result) < 0) {
        return NULL;
    }
    if (inplace &&
        (mt_check_no_internal_overlap(t) < 0 || mt_check_can_cast(mt_tensor_device(t), result, t->dtype) < 0)) {
        return NULL;
    }
    if (t->dtype != result && (x = converted = mt_copy_to(t, result, mt_tensor_device(t))) == NULL) {
        return NULL;
    }
    memset(ops, 0, sizeof ops);
    memset(&bound, 0, sizeof bound);
    ops[0].tensor = x;
    ops[1].scalar.kind = MT_FLOAT64;
    ops[1].scalar.v.d = eps;
    below = binary_impl(MT_BINARY_LT, &ops[0], &ops[1], NULL, NULL);
    ops[1].scalar.v.d = 1.0 - eps;
    above = below != NULL ? binary_impl(MT_BINARY_GT, &ops[0], &ops[1], NULL, NULL) : NULL;
    if (above != NULL) {
        inner = mt_where((mt_TensorObject *)above, &ops[1], &ops[0]);
    }
    if (inner != NULL) {
        bound.scalar.kind = MT_FLOAT64;
        bound.scalar.v.d = eps;
        ops[1].scalar.kind = MT_FLOAT64;
        ops[1].tensor = (mt_TensorObject *)inner;
        z = mt_where((mt_TensorObject *)below, &bound, &ops[1]);
    }
    if (z != NULL) {
        r = unary_impl(MT_UNARY_LOGIT, (mt_TensorObject *)z, 1);
    }
    if (r != NULL && inplace) {
        Py_DECREF(r);
        r = mt_copy_(t, (mt_TensorObject *)z) < 0 ? NULL : (Py_INCREF(t), (PyObject *)t);
    }
    Py_XDECREF(z);
    Py_XDECREF(inner);
    Py_XDECREF(above);
    Py_XDECREF(below);
    Py_XDECREF(converted);
    return r;
}

PyObject *
mt_logit(mt_TensorObject *t, const double *eps, int inplace)
{
    mt_TensorObject *original = NULL;
    PyObject *r;

    if (eps == NULL) {
        return mt_unary(MT_UNARY_LOGIT, t, inplace);
    }
    if (inplace && mt_ag_check_inplace(t) < 0) {
        return NULL;
    }
    if (inplace && mt_ag_unary_needs_original(MT_UNARY_LOGIT, t) && (original = mt_clone(t)) == NULL) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = logit_eps_compute(t, *eps, inplace));
    if (r != NULL && inplace && mt_ag_bump(t) < 0) {
        Py_CLEAR(r);
    }
    if (r != NULL && mt_ag_logit(t, *eps, (mt_TensorObject *)r, original) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(original);
    return r;
}

/* polygamma(n, t) below autograd: digamma's and trigamma's kernels for n 0 and 1; beyond, torch's
 * calc_polygamma, (-1)^(n + 1) exp(lgamma(n + 1)) zeta(n + 1, x), whose factor is computed in the result's
 * dtype (float32's in float, float16's and bfloat16's too) and multiplies zeta's result */
static PyObject *
polygamma_compute(int64_t n, mt_TensorObject *t, int inplace)
{
    mt_operand ops[2];
    mt_dtype result;
    PyObject *z, *r = NULL;

    if (n <= 1) {
        return unary_impl(n == 0 ? MT_UNARY_DIGAMMA : MT_UNARY_TRIGAMMA, t, inplace);
    }
    if (mt_unary_result_dtype(MT_UNARY_DIGAMMA, t, &result) < 0) {
        return NULL;
    }
    if (inplace &&
        (mt_check_no_internal_overlap(t) < 0 || mt_check_can_cast(mt_tensor_device(t), result, t->dtype) < 0)) {
        return NULL;
    }
    memset(ops, 0, sizeof ops);
    ops[0].scalar.kind = MT_FLOAT64;
    ops[0].scalar.v.d = (double)(n + 1);
    ops[1].tensor = t;
    if (mt_dtype_is_reduced_floating(result)) {
        /* torch's zeta<Half> accumulates in float (zeta has no 16-bit kernel of its own): in float32, rounded */
        mt_TensorObject *wide = mt_copy_to(t, MT_FLOAT32, mt_tensor_device(t));
        PyObject *z32;
        if (wide == NULL) {
            return NULL;
        }
        ops[1].tensor = wide;
        z32 = binary_impl(MT_BINARY_SPECIAL_ZETA, &ops[0], &ops[1], NULL, NULL);
        Py_DECREF(wide);
        z = z32 != NULL ? (PyObject *)mt_copy_to((mt_TensorObject *)z32, result, mt_tensor_device(t)) : NULL;
        Py_XDECREF(z32);
    }
    else {
        z = binary_impl(MT_BINARY_SPECIAL_ZETA, &ops[0], &ops[1], NULL, NULL);
    }
    if (z == NULL) {
        return NULL;
    }
    ops[0].tensor = (mt_TensorObject *)z;
    ops[1].tensor = NULL;
    ops[1].scalar.kind = MT_FLOAT64;
    ops[1].scalar.v.d = result == MT_FLOAT64 ? (n % 2 ? 1.0 : -1.0) * exp(lgamma((double)n + 1.0))
                                             : (double)((n % 2 ? 1.0f : -1.0f) * expf(lgammaf((float)n + 1.0f)));
    r = binary_impl(MT_BINARY_MUL, &ops[0], &ops[1], NULL, (mt_TensorObject *)z);
    if (r != NULL && inplace) {
        Py_DECREF(r);
        r = mt_copy_(t, (mt_TensorObject *)z) < 0 ? NULL : (Py_INCREF(t), (PyObject *)t);
    }
    Py_DECREF(z);
    return r;
}

PyObject *
mt_polygamma(int64_t n, mt_TensorObject *t, int inplace)
{
    mt_TensorObject *original = NULL;
    PyObject *r;

    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "polygamma(n, x) does not support negative n.");
        return NULL;
    }
    if (inplace && mt_ag_check_inplace(t) < 0) {
        return NULL;
    }
    if (inplace && mt_ag_unary_needs_original(MT_UNARY_DIGAMMA, t) && (original = mt_clone(t)) == NULL) {
        return NULL;
    }
    MT_BELOW_AUTOGRAD(r = polygamma_compute(n, t, inplace));
    if (r != NULL && inplace && mt_ag_bump(t) < 0) {
        Py_CLEAR(r);
    }
    if (r != NULL && mt_ag_polygamma(n, t, (mt_TensorObject *)r, original) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(original);
    return r;
}

/* records WhereBackward0 on where's result r (NULL passes through) */
static PyObject *
where_record(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b, PyObject *r)
{
    if (r != NULL && mt_ag_where(cond, a->tensor, b->tensor, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

PyObject *
mt_where(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b)
{
    return where_record(cond, a, b, where_compute(cond, a, b, 1));
}

PyObject *
mt_where_cast(mt_TensorObject *cond, const mt_operand *a, const mt_operand *b)
{
    return where_record(cond, a, b, where_compute(cond, a, b, 0));
}


static PyObject *
round_decimals_compute(mt_TensorObject *t, int64_t decimals, int inplace);

PyObject *
mt_round_decimals(mt_TensorObject *t, int64_t decimals, int inplace)
{
    PyObject *r;

    if (inplace && mt_ag_check_inplace(t) < 0) {
        return NULL;
    }
    /* decimals=0 of a float is torch's plain round kernel, recorded as the decimals overload (RoundBackward1) */
    r = decimals == 0 && mt_dtype_is_floating(t->dtype) ? unary_impl(MT_UNARY_ROUND, t, inplace)
                                                        : round_decimals_compute(t, decimals, inplace);
    if (r != NULL && inplace && mt_ag_bump(t) < 0) {
        Py_CLEAR(r);
    }
    if (r != NULL && mt_ag_round_decimals(t, (mt_TensorObject *)r) < 0) {
        Py_CLEAR(r);
    }
    return r;
}

static PyObject *
round_decimals_compute(mt_TensorObject *t, int64_t decimals, int inplace)
{
    /* torch's round_decimals kernel: nearbyint(x * 10**d) / 10**d, or nearbyint(x / 10**-d) * 10**-d for
     * d < 0, with 10**d a double rounded to the tensor's dtype, each step rounded in that dtype */
    int negative = decimals < 0;
    mt_operand x, ten;
    PyObject *scaled, *result;

    if (!mt_dtype_is_floating(t->dtype)) {
        /* decimals=0 runs torch's plain round kernel, even for integers (whose round() is a copy) */
        int cpu = mt_tensor_device(t).type == MT_DEVICE_CPU;
        PyErr_Format(PyExc_NotImplementedError, "\"round_%s\" not implemented for '%s'",
                     !cpu ? "cuda" : decimals == 0 ? "vml_cpu" : "cpu", mt_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (decimals == 0) {
        return unary_impl(MT_UNARY_ROUND, t, inplace);
    }
    if (inplace && mt_check_no_internal_overlap(t) < 0) {
        return NULL;
    }
    if (mt_dtype_is_reduced_floating(t->dtype)) {
        /* float16 and bfloat16: the same steps in float32, the result rounded once */
        mt_TensorObject *x32 = mt_copy_to(t, MT_FLOAT32, mt_tensor_device(t));
        PyObject *r32 = x32 != NULL ? round_decimals_compute(x32, decimals, 0) : NULL;
        Py_XDECREF(x32);
        if (r32 == NULL) {
            return NULL;
        }
        if (inplace) {
            result = mt_copy_(t, (mt_TensorObject *)r32) < 0 ? NULL : (Py_INCREF(t), (PyObject *)t);
        }
        else {
            result = (PyObject *)mt_copy_to((mt_TensorObject *)r32, t->dtype, mt_tensor_device(t));
        }
        Py_DECREF(r32);
        return result;
    }
    x.tensor = t;
    ten.tensor = NULL;
    ten.scalar.kind = MT_FLOAT64;
    ten.scalar.is_uint64 = 0;
    ten.scalar.v.d = pow(10.0, negative ? -(double)decimals : (double)decimals);
    scaled = binary_impl(negative ? MT_BINARY_DIV : MT_BINARY_MUL, &x, &ten, NULL, NULL);
    if (scaled == NULL) {
        return NULL;
    }
    if (mt_tensor_numel((mt_TensorObject *)scaled) > 0) {
        result = unary_impl(MT_UNARY_ROUND, (mt_TensorObject *)scaled, 1);
        if (result == NULL) {
            Py_DECREF(scaled);
            return NULL;
        }
        Py_DECREF(result);
    }
    x.tensor = (mt_TensorObject *)scaled;
    result = binary_impl(negative ? MT_BINARY_MUL : MT_BINARY_DIV, &x, &ten, NULL, inplace ? t : NULL);
    Py_DECREF(scaled);
    return result;
}

const char *
mt_binary_op_name(mt_binary_op op)
{
    return binary_names[op];
}
