/* cudnn.c (python): the binding of the cuDNN convolution rows of ops.def (_cudnn_convolution and its two
 * backward passes, which minitorch/nn/_conv.py calls for CUDA tensors when torch.backends.cudnn is
 * enabled and cuDNN is loaded). The parser read every value; the ops check the
 * operands (csrc/ops/cudnn_conv.c). */
#include "../ops/cudnn_conv.h"
#include "bind.h"

enum {
    R_INPUT,
    R_WEIGHT,
    R_GRAD_OUTPUT,
    R_SIZE,
    R_PADDING,
    R_STRIDE,
    R_DILATION,
    R_GROUPS,
    R_BENCHMARK,
    R_DETERMINISTIC,
    R_ALLOW_TF32
};

static const char *const cudnn_roles[] = {"input", "weight", "grad_output", "size", "padding", "stride", "dilation",
                                          "groups", "benchmark", "deterministic", "allow_tf32", NULL};

static PyObject *
cudnn_call(const mt_call *c)
{
    const mt_arg *lists[3];
    const mt_arg *size;
    mt_cudnn_args a;

    lists[0] = mt_call_arg(c, R_PADDING);
    lists[1] = mt_call_arg(c, R_STRIDE);
    lists[2] = mt_call_arg(c, R_DILATION);
    a.dims = lists[0]->nints;
    for (int i = 1; i < 3; i++) {
        if (lists[i]->nints != a.dims) {
            return PyErr_Format(PyExc_RuntimeError, "%s(): padding, stride and dilation must have one length",
                                c->name);
        }
    }
    a.padding = lists[0]->ints;
    a.stride = lists[1]->ints;
    a.dilation = lists[2]->ints;
    a.groups = mt_call_arg(c, R_GROUPS)->i;
    a.benchmark = mt_call_arg(c, R_BENCHMARK)->b;
    a.deterministic = mt_call_arg(c, R_DETERMINISTIC)->b;
    a.allow_tf32 = mt_call_arg(c, R_ALLOW_TF32)->b;
    if (c->code == MT_CUDNN_CONVOLUTION) {
        return mt_cudnn_convolution_forward(mt_call_arg(c, R_INPUT)->tensor, mt_call_arg(c, R_WEIGHT)->tensor, &a);
    }
    size = mt_call_arg(c, R_SIZE);
    if (c->code == MT_CUDNN_CONVOLUTION_BACKWARD_INPUT) {
        return mt_cudnn_convolution_backward(size->ints, size->nints, mt_call_arg(c, R_GRAD_OUTPUT)->tensor,
                                             mt_call_arg(c, R_WEIGHT)->tensor, 0, &a);
    }
    return mt_cudnn_convolution_backward(size->ints, size->nints, mt_call_arg(c, R_GRAD_OUTPUT)->tensor,
                                         mt_call_arg(c, R_INPUT)->tensor, 1, &a);
}

const mt_binding mt_binding_cudnn = {cudnn_call, NULL, cudnn_roles};
