/* matmul.c (python): the binding of the matrix-product rows of ops.def (matmul, mm, bmm, mv, dot) and the @
 * operator. torch.mm and torch.bmm have a second overload (input, mat2, torch.dtype out_dtype, *, out=None);
 * it takes part in the parse (and in its messages) and then raises torch's NotImplementedError for the CPU,
 * as torch does. */
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

static PyObject *
matmul_call(const mt_call *c)
{
    const mt_arg *out = mt_call_arg(c, M_OUT);

    if (mt_call_arg(c, M_OUT_DTYPE) != NULL) {
        PyErr_Format(PyExc_NotImplementedError,
                     "Could not run 'aten::%s.dtype' with arguments from the '%s' backend. This could be "
                     "because the operator doesn't exist for this backend, or was omitted during the "
                     "selective/custom build process (if using custom build).",
                     op_names[c->code], "CPU");
        return NULL;
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
