/* elementwise.c (python): the bindings of the elementwise rows of ops.def, and Tensor's arithmetic and
 * comparison operators. A binding reads the values argparse.c converted (a Tensor argument given a number
 * arrives as that number, a Scalar argument given a 0-d tensor as its value) and calls the op's C entry
 * point (csrc/ops/elementwise.h); the operators read their two operands directly, without the parser, and
 * leave anything that is not a tensor or a number to Python (NotImplemented). What the op does with the
 * values, and every check past the argument types, is the op's. */
#include <string.h>

#include "../ops/elementwise.h"
#include "bind.h"
#include "interop.h"

/* ---- binary ops ------------------------------------------------------------------------------------- */

enum {
    B_INPUT,
    B_OTHER,
    B_ALPHA,
    B_OUT,
    B_ROUNDING_MODE
};

static const char *const binary_roles[] = {"input|self", "other|exponent|values", "alpha", "out", "rounding_mode",
                                           NULL};

/* A parsed argument as an operand: a tensor, or a number (a Scalar parameter given a 0-d tensor is its
 * value, a wrapped number in torch's promotion). */
static void
operand_from_arg(const mt_arg *a, int scalar, mt_cx_operand *out)
{
    out->is_complex = 0;
    if (a->tensor != NULL && !scalar) {
        out->op.tensor = a->tensor;
        return;
    }
    out->op.tensor = NULL;
    out->op.scalar = a->scalar;
    if (a->is_complex) {
        out->is_complex = 1;
        out->z.real = a->scalar.v.d;
        out->z.imag = a->imag;
    }
}

static PyObject *
binary_call(const mt_call *c)
{
    const mt_arg *alpha = mt_call_arg(c, B_ALPHA);
    mt_cx_operand a, b;
    mt_alpha alpha_value;

    operand_from_arg(mt_call_arg(c, B_INPUT), mt_call_is_scalar(c, B_INPUT), &a);
    operand_from_arg(mt_call_arg(c, B_OTHER), mt_call_is_scalar(c, B_OTHER), &b);
    if (mt_call_given(c, B_ROUNDING_MODE) != NULL) {
        const mt_arg *mode = mt_call_arg(c, B_ROUNDING_MODE);
        int trunc = mode->len == 5 && memcmp(mode->str, "trunc", 5) == 0;
        if (!trunc && !(mode->len == 5 && memcmp(mode->str, "floor", 5) == 0)) {
            PyErr_Format(PyExc_RuntimeError,
                         "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode->str);
            return NULL;
        }
        if (mt_bind_refuse_out(c, B_OUT) < 0) {
            return NULL;
        }
        return mt_div_rounding(c->name, trunc, &a, &b, c->variant == MT_V_INPLACE_METHOD ? c->self : NULL);
    }
    if (alpha != NULL && alpha->obj != NULL) {
        alpha_value.value = alpha->scalar;
        alpha_value.is_complex = alpha->is_complex;
    }
    else {
        alpha = NULL;
    }
    if (mt_bind_refuse_out(c, B_OUT) < 0) {
        return NULL;
    }
    /* in place: Tensor.<op>_ on self, minitorch.<op>_ on its input */
    return mt_binary(c->name, (mt_binary_op)c->code, &a, &b, alpha != NULL ? &alpha_value : NULL,
                     c->variant == MT_V_INPLACE_METHOD     ? c->self
                     : c->variant == MT_V_INPLACE_FUNCTION ? a.op.tensor
                                                           : NULL);
}

/* A slot operand: a tensor or a Python number (complex included). 1, 0 (neither: not ours) or -1. */
static int
slot_operand(PyObject *obj, mt_cx_operand *out)
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
        out->op.scalar.is_uint64 = 0;
        return 1;
    }
    if (mt_Tensor_Check(obj)) {
        out->op.tensor = (mt_TensorObject *)obj;
        return 1;
    }
    out->op.tensor = NULL;
    return mt_scalar_from_object(obj, &out->op.scalar);
}

/* torch wraps some operators so that a TypeError means "not mine" (NotImplemented): Python then tries the
 * other operand, and raises its own TypeError if that fails too. */
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
 * Tensor.__rtruediv__ is `self.reciprocal() * other`, so the multiplication decides (an ndarray computes
 * it through NumPy and __array_wrap__ makes it a tensor). */
static PyObject *
reflected_divide_object(PyObject *other, mt_TensorObject *t)
{
    PyObject *recip = mt_unary(MT_UNARY_RECIPROCAL, t, 0);
    PyObject *result;

    if (recip == NULL) {
        return type_error_to_not_implemented(NULL);
    }
    result = PyNumber_Multiply(recip, other);
    Py_DECREF(recip);
    return type_error_to_not_implemented(result);
}

/* tensor == ndarray: torch's Tensor.__eq__ alone takes an ndarray; it compares with
 * torch.from_numpy(other), whose TypeError (a dtype it has not) means NotImplemented and whose other
 * errors propagate. */
static PyObject *
equal_ndarray(mt_TensorObject *t, PyObject *array)
{
    mt_cx_operand self_op, other_op;
    PyObject *result;

    memset(&self_op, 0, sizeof(self_op));
    memset(&other_op, 0, sizeof(other_op));
    self_op.op.tensor = t;
    other_op.op.tensor = mt_tensor_from_numpy(array);
    if (other_op.op.tensor == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            /* a dtype torch compares (uint8, float16, ...) is a gap of minitorch, not "unequal" */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            if (mt_raise_for_numpy_dtype_gap(array) != 0) {
                Py_XDECREF(type);
                Py_XDECREF(value);
                Py_XDECREF(tb);
                return NULL;
            }
            PyErr_Restore(type, value, tb);
        }
        return type_error_to_not_implemented(NULL);
    }
    result = mt_binary(mt_binary_op_name(MT_BINARY_EQ), MT_BINARY_EQ, &self_op, &other_op, NULL, NULL);
    Py_DECREF(other_op.op.tensor);
    return type_error_to_not_implemented(result);
}

/* a + b, a - b, a * b, a / b (either operand may be the number), a == b and the other comparisons; and
 * a += b ... with a the tensor written to. */
static PyObject *
binary_slot(int code, PyObject *a, PyObject *b, int inplace)
{
    mt_binary_op op = (mt_binary_op)code;
    mt_cx_operand oa, ob;
    int r;

    if (inplace && !mt_Tensor_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    r = slot_operand(a, &oa);
    if (r > 0) {
        r = slot_operand(b, &ob);
    }
    if (r < 0) {
        return NULL;
    }
    if (r == 0 && !inplace && op == MT_BINARY_DIV && !mt_Tensor_Check(a) && mt_Tensor_Check(b)) {
        return reflected_divide_object(a, (mt_TensorObject *)b);
    }
    if (r == 0 && op == MT_BINARY_EQ && mt_Tensor_Check(a) && mt_is_ndarray(b)) {
        return equal_ndarray((mt_TensorObject *)a, b);
    }
    if (r == 0) {
        /* anything else that is not a tensor or a number (None, str, list) is not ours: Python then falls
         * back to identity for == and != and raises TypeError for the others, as with torch */
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (inplace) {
        /* t += 1j: torch's in-place cast error (its result would be complex), from mt_binary */
        return mt_binary(mt_binary_op_name(op), op, &oa, &ob, NULL, (mt_TensorObject *)a);
    }
    if (oa.op.tensor == NULL && ob.op.tensor == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (op == MT_BINARY_DIV && oa.op.tensor == NULL && !oa.is_complex && !ob.is_complex) {
        return mt_binary_reflected_divide(&oa.op, ob.op.tensor);
    }
    if (op == MT_BINARY_MUL && oa.op.tensor == NULL && !oa.is_complex) {
        /* number * t is torch's __rmul__, mul(t, number): the number second (a float16 or bfloat16 mul
         * reads a second-operand number at its own value) */
        return mt_binary(mt_binary_op_name(op), op, &ob, &oa, NULL, NULL);
    }
    return mt_binary(mt_binary_op_name(op), op, &oa, &ob, NULL, NULL);
}

const mt_binding mt_binding_binary = {binary_call, binary_slot, binary_roles};

/* torch.rsub(input, other, alpha=1): other - alpha * input */
static PyObject *
rsub_call(const mt_call *c)
{
    const mt_arg *alpha = mt_call_arg(c, B_ALPHA);
    mt_cx_operand a, b;
    mt_alpha alpha_value;

    operand_from_arg(mt_call_arg(c, B_INPUT), mt_call_is_scalar(c, B_INPUT), &a);
    operand_from_arg(mt_call_arg(c, B_OTHER), mt_call_is_scalar(c, B_OTHER), &b);
    if (alpha != NULL && alpha->obj != NULL) {
        alpha_value.value = alpha->scalar;
        alpha_value.is_complex = alpha->is_complex;
    }
    return mt_rsub(c->name, &a, &b, alpha != NULL && alpha->obj != NULL ? &alpha_value : NULL);
}

const mt_binding mt_binding_rsub = {rsub_call, NULL, binary_roles};

/* ---- unary ops -------------------------------------------------------------------------------------- */

enum {
    U_INPUT,
    U_OUT,
    U_DECIMALS
};

static const char *const unary_roles[] = {"input", "out", "decimals", NULL};

static PyObject *
unary_call(const mt_call *c)
{
    const mt_arg *decimals = mt_call_arg(c, U_DECIMALS);
    int inplace = c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION;

    if (mt_bind_refuse_out(c, U_OUT) < 0) {
        return NULL;
    }
    if (decimals != NULL) {
        return mt_round_decimals(mt_call_arg(c, U_INPUT)->tensor, decimals->i, inplace);
    }
    return mt_unary((mt_unary_op)c->code, mt_call_arg(c, U_INPUT)->tensor, inplace);
}

/* -a, abs(a) */
static PyObject *
unary_slot(int code, PyObject *a, PyObject *b, int inplace)
{
    (void)b;
    (void)inplace;
    if (!mt_Tensor_Check(a)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return mt_unary((mt_unary_op)code, (mt_TensorObject *)a, 0);
}

const mt_binding mt_binding_unary = {unary_call, unary_slot, unary_roles};

static PyObject *
std_sqrt_call(const mt_call *c)
{
    return mt_std_sqrt(mt_call_arg(c, U_INPUT)->tensor);
}

const mt_binding mt_binding_std_sqrt = {std_sqrt_call, NULL, unary_roles};

/* _C._gelu(input, approximate_tanh, grad): gelu or its gradient by torch's CPU kernel (ops/elementwise.h,
 * mt_gelu_kernel), for nn.functional's gelu; None where the device has no such kernel. grad may be None. */
static PyObject *
gelu_py(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    int tanh_form;

    (void)module;
    if (nargs != 3 || !mt_Tensor_Check(args[0]) || (args[2] != Py_None && !mt_Tensor_Check(args[2]))) {
        PyErr_SetString(PyExc_TypeError, "_gelu(input, approximate_tanh, grad): a tensor, a bool, a tensor or None");
        return NULL;
    }
    tanh_form = PyObject_IsTrue(args[1]);
    if (tanh_form < 0) {
        return NULL;
    }
    return mt_gelu_kernel((mt_TensorObject *)args[0], args[2] != Py_None ? (mt_TensorObject *)args[2] : NULL,
                          tanh_form);
}

PyMethodDef mt_elementwise_functions[] = {
    {"_gelu", (PyCFunction)(void (*)(void))gelu_py, METH_FASTCALL,
     "_gelu(input, approximate_tanh, grad) -> Tensor or None\n\ngelu of input (grad None) or its gradient, as "
     "torch's CPU kernel computes them; None where the device has no such kernel."},
    {NULL, NULL, 0, NULL},
};

/* ---- logit ------------------------------------------------------------------------------------------ */

enum {
    G_INPUT,
    G_EPS,
    G_OUT
};

static const char *const logit_roles[] = {"input", "eps", "out", NULL};

static PyObject *
logit_call(const mt_call *c)
{
    if (mt_bind_refuse_out(c, G_OUT) < 0) {
        return NULL;
    }
    return mt_logit(mt_call_arg(c, G_INPUT)->tensor, mt_call_given(c, G_EPS) != NULL ? &mt_call_arg(c, G_EPS)->d : NULL,
                    c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_logit = {logit_call, NULL, logit_roles};

/* ---- polygamma -------------------------------------------------------------------------------------- */

enum {
    P_N,
    P_INPUT,
    P_OUT
};

static const char *const polygamma_roles[] = {"n", "input", "out", NULL};

static PyObject *
polygamma_call(const mt_call *c)
{
    if (mt_bind_refuse_out(c, P_OUT) < 0) {
        return NULL;
    }
    return mt_polygamma(mt_call_arg(c, P_N)->i, mt_call_arg(c, P_INPUT)->tensor,
                        c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_polygamma = {polygamma_call, NULL, polygamma_roles};

/* ---- clamp ------------------------------------------------------------------------------------------ */

enum {
    C_INPUT,
    C_MIN,
    C_MAX,
    C_OUT
};

static const char *const clamp_roles[] = {"input", "min", "max", "out", NULL};

/* The bound of role r as an operand, or NULL when not given (omitted or None). */
static const mt_cx_operand *
clamp_bound(const mt_call *c, int role, mt_cx_operand *out, int *scalars)
{
    const mt_arg *a = mt_call_arg(c, role);

    if (a == NULL || a->obj == NULL) {
        return NULL;
    }
    *scalars |= mt_call_is_scalar(c, role);
    operand_from_arg(a, mt_call_is_scalar(c, role), out);
    return out;
}

static PyObject *
clamp_call(const mt_call *c)
{
    mt_cx_operand lo_op, hi_op;
    const mt_cx_operand *lo, *hi;
    int scalars = 0;

    if (mt_bind_refuse_out(c, C_OUT) < 0) {
        return NULL;
    }
    lo = clamp_bound(c, C_MIN, &lo_op, &scalars);
    hi = clamp_bound(c, C_MAX, &hi_op, &scalars);
    return mt_clamp((mt_clamp_kind)c->code, mt_call_arg(c, C_INPUT)->tensor, lo, hi, scalars,
                    c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_clamp = {clamp_call, NULL, clamp_roles};

/* ---- where ------------------------------------------------------------------------------------------ */

enum {
    W_CONDITION,
    W_INPUT,
    W_OTHER,
    W_OUT
};

static const char *const where_roles[] = {"condition", "input|self", "other", "out", NULL};

static PyObject *
where_call(const mt_call *c)
{
    mt_cx_operand a, b;

    if (mt_call_arg(c, W_INPUT) == NULL) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "_C.where(condition): the one-argument form is minitorch.where's (nonzero(condition, "
                        "as_tuple=True), in minitorch/_composite.py)");
        return NULL;
    }
    if (mt_bind_refuse_out(c, W_OUT) < 0) {
        return NULL;
    }
    operand_from_arg(mt_call_arg(c, W_INPUT), mt_call_is_scalar(c, W_INPUT), &a);
    operand_from_arg(mt_call_arg(c, W_OTHER), mt_call_is_scalar(c, W_OTHER), &b);
    if (a.is_complex || b.is_complex) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "where(): a complex operand gives a complex result, which minitorch does not support (it has "
                        "no complex dtype)");
        return NULL;
    }
    return mt_where(mt_call_arg(c, W_CONDITION)->tensor, &a.op, &b.op);
}

const mt_binding mt_binding_where = {where_call, NULL, where_roles};

/* ---- addcmul, addcdiv -------------------------------------------------------------------------------- */

enum {
    A_INPUT,
    A_TENSOR1,
    A_TENSOR2,
    A_VALUE,
    A_OUT
};

static const char *const addc_roles[] = {"input", "tensor1", "tensor2", "value", "out", NULL};

static PyObject *
addc_call(const mt_call *c)
{
    const mt_arg *value = mt_call_arg(c, A_VALUE);
    mt_scalar one = {.kind = MT_INT64, .v.i = 1, .is_uint64 = 0};

    if (mt_bind_refuse_out(c, A_OUT) < 0) {
        return NULL;
    }
    return mt_addcmul((mt_addc_kind)c->code, mt_call_arg(c, A_INPUT)->tensor, mt_call_arg(c, A_TENSOR1)->tensor,
                      mt_call_arg(c, A_TENSOR2)->tensor, value != NULL && value->obj != NULL ? value->scalar : one,
                      value != NULL && value->obj != NULL && value->is_complex && value->imag != 0.0,
                      c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_addc = {addc_call, NULL, addc_roles};

/* ---- lerp ------------------------------------------------------------------------------------------------ */

enum {
    L_INPUT,
    L_END,
    L_WEIGHT,
    L_OUT
};

static const char *const lerp_roles[] = {"input", "end", "weight", "out", NULL};

static PyObject *
lerp_call(const mt_call *c)
{
    const mt_arg *weight = mt_call_arg(c, L_WEIGHT);
    int number = mt_call_is_scalar(c, L_WEIGHT);

    if (mt_bind_refuse_out(c, L_OUT) < 0) {
        return NULL;
    }
    return mt_lerp(mt_call_arg(c, L_INPUT)->tensor, mt_call_arg(c, L_END)->tensor, number ? NULL : weight->tensor,
                   weight->scalar, number && weight->is_complex && weight->imag != 0.0,
                   c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_lerp = {lerp_call, NULL, lerp_roles};

/* ---- nan_to_num --------------------------------------------------------------------------------------- */

enum {
    N_INPUT,
    N_NAN,
    N_POSINF,
    N_NEGINF,
    N_OUT
};

static const char *const nan_to_num_roles[] = {"input", "nan", "posinf", "neginf", "out", NULL};

/* a `double?` parameter: its value, or NULL when omitted or None (the op's default) */
static const double *
optional_double(const mt_call *c, int role)
{
    return mt_call_given(c, role) != NULL ? &mt_call_arg(c, role)->d : NULL;
}

static PyObject *
nan_to_num_call(const mt_call *c)
{
    if (mt_bind_refuse_out(c, N_OUT) < 0) {
        return NULL;
    }
    return mt_nan_to_num(mt_call_arg(c, N_INPUT)->tensor, optional_double(c, N_NAN), optional_double(c, N_POSINF),
                         optional_double(c, N_NEGINF),
                         c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_nan_to_num = {nan_to_num_call, NULL, nan_to_num_roles};

/* ---- result_type, can_cast, promote_types: the promotion rules the ops above follow ------------------- */

enum {
    P_TENSOR,
    P_OTHER,
    P_SCALAR,
    P_SCALAR1,
    P_SCALAR2,
    P_FROM,
    P_TO
};

static const char *const promotion_roles[] = {"tensor", "other", "scalar", "scalar1", "scalar2", "from_|type1",
                                              "to|type2", NULL};

/* adds one result_type operand to the state: a tensor, or a number (a Scalar parameter) */
static int
add_operand(mt_result_type_state *state, const mt_call *c, int role)
{
    const mt_arg *a = mt_call_arg(c, role);

    if (a->tensor != NULL && !mt_call_is_scalar(c, role)) {
        mt_result_type_add_tensor(state, a->tensor);
        return 0;
    }
    if (a->is_complex) {
        PyErr_SetString(PyExc_NotImplementedError, "result_type(): minitorch has no complex dtype yet");
        return -1;
    }
    mt_result_type_add_scalar(state, a->scalar);
    return 0;
}

static PyObject *
promotion_call(const mt_call *c)
{
    /* result_type's overloads: (tensor, other), (scalar, tensor), (tensor, other: a number), (scalar1, scalar2) */
    static const int first[] = {P_TENSOR, P_SCALAR, P_TENSOR, P_SCALAR1};
    static const int second[] = {P_OTHER, P_TENSOR, P_OTHER, P_SCALAR2};
    mt_result_type_state state;
    PyObject *r;

    switch (c->code) {
    case MT_PROMOTION_RESULT_TYPE:
        mt_result_type_init(&state);
        if (add_operand(&state, c, first[c->overload]) < 0 || add_operand(&state, c, second[c->overload]) < 0) {
            return NULL;
        }
        r = mt_dtype_object(mt_result_type_get(&state));
        Py_XINCREF(r);
        return r;
    case MT_PROMOTION_CAN_CAST:
        return PyBool_FromLong(mt_can_cast(mt_call_arg(c, P_FROM)->dtype, mt_call_arg(c, P_TO)->dtype));
    default:
        r = mt_dtype_object(mt_promote_types(mt_call_arg(c, P_FROM)->dtype, mt_call_arg(c, P_TO)->dtype));
        Py_XINCREF(r);
        return r;
    }
}

const mt_binding mt_binding_promotion = {promotion_call, NULL, promotion_roles};
