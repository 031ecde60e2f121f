/* matmul.c (python): the bindings of the linear-algebra rows of ops.def (matmul, mm, bmm, mv, dot; addmm and
 * its family addmv, addr, baddbmm, addbmm, with their in-place forms) and the @ operator. torch.mm, torch.bmm and torch.addmm have an overload with a torch.dtype out_dtype; it
 * takes part in the parse (and in its messages) and then raises torch's NotImplementedError for the CPU, as
 * torch does. */
#include "../kernels/cpu/gemm.h"
#include "../ops/matmul.h"
#include "bind.h"

enum {
    M_INPUT,
    M_OTHER,
    M_OUT_DTYPE,
    M_OUT
};

static const char *const matmul_roles[] = {"input", "other|mat2|vec|tensor", "out_dtype", "out", NULL};

static const char *const op_names[] = {"matmul", "mm", "bmm", "mv", "dot"};

/* The out_dtype overload: torch has no CPU kernel for it. */
static PyObject *
no_out_dtype_kernel(const char *op)
{
    PyErr_Format(PyExc_NotImplementedError,
                 "Could not run 'aten::%s.dtype' with arguments from the '%s' backend. This could be because the "
                 "operator doesn't exist for this backend, or was omitted during the selective/custom build "
                 "process (if using custom build).",
                 op, "CPU");
    return NULL;
}

static PyObject *
matmul_call(const mt_call *c)
{
    const mt_arg *out = mt_call_arg(c, M_OUT);

    if (mt_call_arg(c, M_OUT_DTYPE) != NULL) {
        return no_out_dtype_kernel(op_names[c->code]);
    }
    return mt_matmul_op((mt_mm_op)c->code, mt_call_arg(c, M_INPUT)->tensor, mt_call_arg(c, M_OTHER)->tensor,
                       out != NULL ? out->tensor : NULL);
}

/* The @ operator. Like torch's Tensor.__matmul__/__rmatmul__, anything that is not a Tensor gives
 * NotImplemented, so Python raises "unsupported operand type(s) for @". */
static PyObject *
matmul_slot(int code, PyObject *a, PyObject *b, int inplace)
{
    (void)inplace;
    if (!mt_Tensor_Check(a) || !mt_Tensor_Check(b)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return mt_matmul_op((mt_mm_op)code, (mt_TensorObject *)a, (mt_TensorObject *)b, NULL);
}

const mt_binding mt_binding_matmul = {matmul_call, matmul_slot, matmul_roles};

/* ---- addmm ------------------------------------------------------------------------------------------ */

enum {
    A_INPUT,
    A_MAT1,
    A_MAT2,
    A_OUT_DTYPE,
    A_BETA,
    A_ALPHA,
    A_OUT
};

static const char *const addmm_roles[] = {"input", "mat1|mat|vec1|batch1", "mat2|vec|vec2|batch2", "out_dtype",
                                          "beta", "alpha", "out", NULL};

/* beta or alpha (NULL: not in the overload). A complex one: torch converts it to the result's type when it computes, which fails unless its
 * imaginary part is 0 (c10::checked_convert, named by the C++ type). */
static int
real_scalar(const mt_arg *a, mt_dtype dtype, mt_scalar *out)
{
    if (a == NULL) {
        /* the deprecated addmm(beta, input, mat1, mat2) has no alpha: 1 */
        out->kind = MT_INT64;
        out->v.i = 1;
        out->is_uint64 = 0;
        return 0;
    }
    *out = a->scalar;
    if (a->is_complex && a->imag != 0.0) {
        return mt_value_overflow_error(mt_scalar_checked_type_name(dtype));
    }
    return 0;
}

static PyObject *
addmm_call(const mt_call *c)
{
    mt_TensorObject *mat2 = mt_call_arg(c, A_MAT2)->tensor;
    mt_scalar beta, alpha;

    if (mt_call_arg(c, A_OUT_DTYPE) != NULL) {
        return no_out_dtype_kernel("addmm");
    }
    if (mt_bind_refuse_out(c, A_OUT) < 0 || real_scalar(mt_call_arg(c, A_BETA), mat2->dtype, &beta) < 0 ||
        real_scalar(mt_call_arg(c, A_ALPHA), mat2->dtype, &alpha) < 0) {
        return NULL;
    }
    return mt_addmm_family((mt_addmm_kind)c->code, mt_call_arg(c, A_INPUT)->tensor, mt_call_arg(c, A_MAT1)->tensor,
                           mat2, beta, alpha, c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION);
}

const mt_binding mt_binding_addmm = {addmm_call, NULL, addmm_roles};

/* minitorch._C._gemm_info(): which host micro-kernel each dtype uses and how many threads a large
 * product may use; benchmarks print it next to their numbers. */
static PyObject *
gemm_info(PyObject *module, PyObject *unused)
{
    static const mt_dtype dtypes[] = {MT_FLOAT32, MT_FLOAT64, MT_INT32, MT_INT64};
    PyObject *info = PyDict_New();
    PyObject *value = NULL;

    if (info == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        value = PyUnicode_FromString(mt_cpu_gemm_kernel_name(dtypes[i]));
        if (value == NULL || PyDict_SetItemString(info, mt_dtype_name(dtypes[i]), value) < 0) {
            goto error;
        }
        Py_CLEAR(value);
    }
    value = PyLong_FromLong(mt_cpu_gemm_num_threads());
    if (value == NULL || PyDict_SetItemString(info, "threads", value) < 0) {
        goto error;
    }
    Py_DECREF(value);
    return info;

error:
    Py_XDECREF(value);
    Py_DECREF(info);
    return NULL;
}

PyMethodDef mt_matmul_functions[] = {
    {"_gemm_info", (PyCFunction)gemm_info, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};
