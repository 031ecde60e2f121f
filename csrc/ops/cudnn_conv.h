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

/* the input's gradient, of size input_size (N, C, *size), from the output's and the weight */
PyObject *mt_cudnn_convolution_backward_input(const int64_t *input_size, int ndim, mt_TensorObject *grad_output,
                                              mt_TensorObject *weight, const mt_cudnn_args *a);

/* the weight's gradient, of size weight_size (O, C / groups, *kernel), from the output's and the input */
PyObject *mt_cudnn_convolution_backward_weight(const int64_t *weight_size, int ndim, mt_TensorObject *grad_output,
                                               mt_TensorObject *input, const mt_cudnn_args *a);

#endif
