/* loss.c (python): _C._nll_loss, the binding of nll_loss's computation (csrc/ops/loss.c) for
 * nn.functional.nll_loss and cross_entropy, which parse and check the arguments with torch's messages
 * first (minitorch/nn/functional.py); this reads the plain values they pass. */
#include "../ops/loss.h"
#include "bind.h"

/* _C._nll_loss(input, target, weight, reduction, ignore_index): weight a tensor or None, reduction 0 (none),
 * 1 (mean) or 2 (sum), ignore_index an int, or None when no target equals it. */
static PyObject *
nll_loss_py(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    mt_TensorObject *weight = NULL;
    long long reduction, ignore_index = 0;

    (void)module;
    if (nargs != 5 || !mt_Tensor_Check(args[0]) || !mt_Tensor_Check(args[1]) ||
        (args[2] != Py_None && !mt_Tensor_Check(args[2])) || !PyLong_Check(args[3]) ||
        (args[4] != Py_None && !PyLong_Check(args[4]))) {
        PyErr_SetString(PyExc_TypeError,
                        "_nll_loss(input, target, weight, reduction, ignore_index): tensors input and target, a tensor "
                        "or None, an int and an int or None");
        return NULL;
    }
    if (args[2] != Py_None) {
        weight = (mt_TensorObject *)args[2];
    }
    reduction = PyLong_AsLongLong(args[3]);
    if (args[4] != Py_None) {
        ignore_index = PyLong_AsLongLong(args[4]);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (reduction < MT_LOSS_NONE || reduction > MT_LOSS_SUM) {
        PyErr_Format(PyExc_ValueError, "_nll_loss: reduction %lld is not 0, 1 or 2", reduction);
        return NULL;
    }
    return mt_nll_loss((mt_TensorObject *)args[0], (mt_TensorObject *)args[1], weight, (int)reduction,
                       args[4] != Py_None, (int64_t)ignore_index);
}

PyMethodDef mt_loss_functions[] = {
    {"_nll_loss", (PyCFunction)(void (*)(void))nll_loss_py, METH_FASTCALL,
     "_nll_loss(input, target, weight, reduction, ignore_index) -> Tensor\n\nnll_loss of checked arguments: input "
     "(N, C), (C) or (N, C, H, W), target int64 of its shape without C; ignore_index None when no target equals "
     "it."},
    {NULL, NULL, 0, NULL},
};
