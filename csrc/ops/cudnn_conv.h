/* cudnn_conv.h: the convolution ops through cuDNN (csrc/ops/cudnn_conv.c), torch's cudnn_convolution and
 * its two backward passes, for minitorch/nn/_conv.py, which takes them for CUDA tensors when
 * torch.backends.cudnn is enabled and cuDNN can be loaded, and records the node (ConvolutionBackward0)
 * itself. New references, or NULL with an exception. */
#ifndef MT_OPS_CUDNN_CONV_H
#define MT_OPS_CUDNN_CONV_H

#include <Python.h>
#include <stdint.h>

#include "../core/tensor.h"

/* the geometry (`dims` values in each list, 1 to 3) and torch.backends.cudnn's flags */
typedef struct {
    int dims;
    const int64_t *padding, *stride, *dilation;
    int64_t groups;
    int benchmark, deterministic, allow_tf32;
} mt_cudnn_args;

/* input (N, C, *size) with weight (O, C / groups, *kernel): (N, O, *out) */
PyObject *mt_cudnn_convolution_forward(mt_TensorObject *input, mt_TensorObject *weight, const mt_cudnn_args *a);

/* a gradient from the output's: of_weight 0, the input's (size (N, C, *size)) from the weight (other); of_weight
 * 1, the weight's (size (O, C / groups, *kernel)) from the input (other) */
PyObject *mt_cudnn_convolution_backward(const int64_t *size, int ndim, mt_TensorObject *grad_output,
                                        mt_TensorObject *other, int of_weight, const mt_cudnn_args *a);

#endif
