"""nn.functional: the stateless forms of the layers: ``linear``, the activations (``softmax`` and
``log_softmax`` too) and the losses.

This file owns how each function maps onto the C core's tensor ops and the ops of nn/_native.py and
nn/_conv.py, choosing what torch's own function would call so that results, nodes and error messages
match: a function that stands for one of torch's C++ ops parses its arguments with that op's signature
(torch's TypeError for a wrong one), then makes torch's checks in torch's order. It keeps no state.
"""

import math
import warnings

import minitorch
from minitorch import _C
from minitorch._norms import pdist  # noqa: F401  (F.pdist is torch.pdist)
from minitorch.nn import _attention, _conv, _grid_sample, _native, _padding, _reduction
from minitorch.nn.modules.utils import _pair, _single, _triple

__all__ = ["linear", "relu", "relu_", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus",
           "hardtanh", "relu6", "logsigmoid", "hardswish", "hardsigmoid", "tanh", "sigmoid", "mse_loss", "l1_loss",
           "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "dropout",
           "dropout1d", "dropout2d", "dropout3d", "nll_loss", "conv1d", "conv2d", "conv3d",
           "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "max_pool1d", "max_pool2d", "max_pool3d",
           "avg_pool1d", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool3d", "unfold", "fold",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d",
           "lp_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d",
           "fractional_max_pool3d", "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices",
           "bilinear", "embedding_bag",
           "adaptive_avg_pool2d", "batch_norm", "layer_norm", "softmax", "log_softmax", "cross_entropy", "embedding",
           "one_hot", "pad", "normalize", "softmin", "cosine_similarity", "pairwise_distance", "kl_div", "glu",
           "hardshrink", "softshrink", "softsign", "tanhshrink", "threshold", "threshold_", "prelu", "rrelu", "rrelu_",
           "celu_", "selu_", "group_norm", "instance_norm", "rms_norm", "local_response_norm", "hinge_embedding_loss",
           "margin_ranking_loss", "soft_margin_loss", "multilabel_soft_margin_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "multi_margin_loss", "ctc_loss",
           "pixel_shuffle", "pixel_unshuffle", "interpolate", "upsample", "upsample_nearest", "upsample_bilinear",
           "scaled_dot_product_attention", "multi_head_attention_forward", "affine_grid", "grid_sample",
           "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices"]


def _flatten_nd_linear(input, weight_t, bias):
    """torch's _flatten_nd_linear: the input's leading dims folded into the rows of one addmm (a 1-D
    input is one row), the result viewed back to (*, out_features)."""
    sizes = input.shape
    rows = 1
    for size in sizes[:-1]:
        rows *= size
    result = minitorch.addmm(bias, input.reshape(rows, sizes[-1]), weight_t)
    return result.view(*sizes[:-1], result.shape[1])


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias, for input of shape (*, in_features) and weight of shape
    (out_features, in_features).

    Like torch's kernel (aten/native/Linear.cpp), which decides the error a mismatch raises: with a
    bias, a 2-D input is one ``addmm`` (so a device mismatch names ``wrapper_CUDA_addmm`` and a dtype
    mismatch ``mat1 and mat2``), and so is a contiguous input with its leading dims folded into rows
    when the bias is 1-D or has a single dim other than 1; anything else is ``matmul`` followed by an
    in-place bias add.
    """
    # torch's parser rejects non-tensors before anything runs; without this a learner passing a list
    # got "'list' object has no attribute 'T'"
    for position, (name, value) in enumerate((("input", input), ("weight", weight), ("bias", bias)), 1):
        if not isinstance(value, minitorch.Tensor) and not (name == "bias" and value is None):
            raise TypeError("linear(): argument '{}' (position {}) must be Tensor, not {}".format(
                name, position, type(value).__name__))
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are {}D and {}D".format(
            input.dim(), weight.dim()))
    weight_t = weight.t()
    if bias is not None:
        if input.dim() == 2:
            return minitorch.addmm(bias, input, weight_t)
        if input.is_contiguous() and (bias.dim() == 1 or sum(size != 1 for size in bias.shape) == 1):
            return _flatten_nd_linear(input, weight_t, bias)
    output = minitorch.matmul(input, weight_t)
    if bias is not None:
        output.add_(bias)
    return output


def relu(input, inplace=False):
    """max(input, 0) elementwise; with ``inplace`` the input is overwritten and returned."""
    if inplace:
        return relu_(input)
    return minitorch.relu(input)


def relu_(input):
    """In-place relu: overwrites ``input`` and returns it."""
    op = getattr(minitorch, "relu_", None)
    if op is not None:
        return op(input)
    return input.copy_(minitorch.relu(input))


# ---- torch's argument parser in front of the ops torch writes in C++ --------------------------------------

# torch's signatures (native_functions.yaml) of the C++ ops these functions stand for: each function parses
# its call with them first, so a wrong argument gets torch's TypeError and message
_SIGNATURES = {
    "elu": ["elu(Tensor input, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1)"],
    "elu_": ["elu_(Tensor input, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1)"],
    "celu": ["celu(Tensor input, Scalar alpha=1.0)"],
    "selu": ["selu(Tensor input)"],
    "leaky_relu": ["leaky_relu(Tensor input, Scalar negative_slope=0.01)"],
    "leaky_relu_": ["leaky_relu_(Tensor input, Scalar negative_slope=0.01)"],
    "hardtanh": ["hardtanh(Tensor input, Scalar min_val=-1, Scalar max_val=1)"],
    "hardtanh_": ["hardtanh_(Tensor input, Scalar min_val=-1, Scalar max_val=1)"],
    "relu6": ["relu6(Tensor input)"],
    "gelu": ["gelu(Tensor input, *, c10::string_view approximate=\"none\")"],
    "silu": ["silu(Tensor input)"],
    "mish": ["mish(Tensor input)"],
    "softplus": ["softplus(Tensor input, Scalar beta=1, Scalar threshold=20)"],
    "log_sigmoid": ["log_sigmoid(Tensor input)"],
    "hardswish": ["hardswish(Tensor input)"],
    "hardsigmoid": ["hardsigmoid(Tensor input)"],
    "dropout": ["dropout(Tensor input, double p, bool train)"],
    "dropout_": ["dropout_(Tensor self, double p, bool train)"],
    "feature_dropout": ["feature_dropout(Tensor input, double p, bool train)"],
    "feature_dropout_": ["feature_dropout_(Tensor self, double p, bool train)"],
    "alpha_dropout": ["alpha_dropout(Tensor input, double p, bool train)"],
    "alpha_dropout_": ["alpha_dropout_(Tensor self, double p, bool train)"],
    "feature_alpha_dropout": ["feature_alpha_dropout(Tensor input, double p, bool train)"],
    "feature_alpha_dropout_": ["feature_alpha_dropout_(Tensor self, double p, bool train)"],
    "nll_loss_nd": ["nll_loss_nd(Tensor input, Tensor target, Tensor? weight=None, int64_t reduction=1, "
                    "SymInt ignore_index=-100)"],
    "cross_entropy_loss": ["cross_entropy_loss(Tensor input, Tensor target, Tensor? weight=None, int64_t reduction=1, "
                           "SymInt ignore_index=-100, double label_smoothing=0.0)"],
    "embedding_renorm_": ["embedding_renorm_(Tensor input, Tensor indices, double max_norm, double norm_type)"],
    "embedding": ["embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
                  "bool sparse=False)"],
    "layer_norm": ["layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, Tensor? bias=None, "
                   "double eps=1e-05, bool cudnn_enable=True)"],
    "avg_pool2d": ["avg_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=None, "
                   "IntArrayRef[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
                   "int64_t? divisor_override=None)"],
    "grid_sampler": ["grid_sampler(Tensor input, Tensor grid, int64_t interpolation_mode, int64_t padding_mode, "
                     "bool align_corners)"],
    "max_pool2d": ["max_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=None, "
                   "IntArrayRef[2] padding=0, IntArrayRef[2] dilation=1, bool ceil_mode=False)"],
    "adaptive_avg_pool2d": ["adaptive_avg_pool2d(Tensor input, SymIntArrayRef[2] output_size)"],
    "adaptive_avg_pool1d": ["adaptive_avg_pool1d(Tensor input, IntArrayRef[1] output_size)"],
    "adaptive_avg_pool3d": ["adaptive_avg_pool3d(Tensor input, SymIntArrayRef[3] output_size)"],
    "bilinear": ["bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None)"],
    "max_unpool2d": ["max_unpool2d(Tensor input, Tensor indices, SymIntArrayRef[2] output_size)"],
    "max_unpool3d": ["max_unpool3d(Tensor input, Tensor indices, SymIntArrayRef[3] output_size, IntArrayRef[3] stride, "
                     "IntArrayRef[3] padding)"],
    "fractional_max_pool2d": ["fractional_max_pool2d(Tensor input, IntArrayRef[2] kernel_size, "
                              "IntArrayRef[2] output_size, Tensor random_samples)"],
    "fractional_max_pool3d": ["fractional_max_pool3d(Tensor input, IntArrayRef[3] kernel_size, "
                              "IntArrayRef[3] output_size, Tensor random_samples)"],
    "adaptive_max_pool1d": ["adaptive_max_pool1d(Tensor input, IntArrayRef[1] output_size)"],
    "adaptive_max_pool2d": ["adaptive_max_pool2d(Tensor input, IntArrayRef[2] output_size)"],
    "adaptive_max_pool3d": ["adaptive_max_pool3d(Tensor input, IntArrayRef[3] output_size)"],
    "max_pool1d": ["max_pool1d(Tensor input, IntArrayRef[1] kernel_size, IntArrayRef[1] stride=None, "
                   "IntArrayRef[1] padding=0, IntArrayRef[1] dilation=1, bool ceil_mode=False)"],
    "max_pool1d_with_indices": ["max_pool1d_with_indices(Tensor input, IntArrayRef[1] kernel_size, "
                                "IntArrayRef[1] stride=None, IntArrayRef[1] padding=0, IntArrayRef[1] dilation=1, "
                                "bool ceil_mode=False)"],
    "max_pool3d": ["max_pool3d(Tensor input, IntArrayRef[3] kernel_size, IntArrayRef[3] stride=None, "
                   "IntArrayRef[3] padding=0, IntArrayRef[3] dilation=1, bool ceil_mode=False)"],
    "max_pool2d_with_indices": ["max_pool2d_with_indices(Tensor input, IntArrayRef[2] kernel_size, "
                                "IntArrayRef[2] stride=None, IntArrayRef[2] padding=0, IntArrayRef[2] dilation=1, "
                                "bool ceil_mode=False)"],
    "max_pool3d_with_indices": ["max_pool3d_with_indices(Tensor input, IntArrayRef[3] kernel_size, "
                                "IntArrayRef[3] stride=None, IntArrayRef[3] padding=0, IntArrayRef[3] dilation=1, "
                                "bool ceil_mode=False)"],
    "avg_pool1d": ["avg_pool1d(Tensor input, IntArrayRef[1] kernel_size, IntArrayRef[1] stride=[], "
                   "IntArrayRef[1] padding=0, bool ceil_mode=False, bool count_include_pad=True)"],
    "avg_pool3d": ["avg_pool3d(Tensor input, IntArrayRef[3] kernel_size, IntArrayRef[3] stride=None, "
                   "IntArrayRef[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
                   "int64_t? divisor_override=None)"],
    "im2col": ["im2col(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] dilation, IntArrayRef[2] padding, "
               "IntArrayRef[2] stride)"],
    "col2im": ["col2im(Tensor input, SymIntArrayRef[2] output_size, IntArrayRef[2] kernel_size, "
               "IntArrayRef[2] dilation, IntArrayRef[2] padding, IntArrayRef[2] stride)"],
    "hinge_embedding_loss": ["hinge_embedding_loss(Tensor input, Tensor target, double margin=1.0, "
                             "int64_t reduction=1)"],
    "margin_ranking_loss": ["margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, double margin=0.0, "
                            "int64_t reduction=1)"],
    "soft_margin_loss": ["soft_margin_loss(Tensor input, Tensor target, int64_t reduction=1)"],
    "cosine_embedding_loss": ["cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, double margin=0.0, "
                              "int64_t reduction=1)"],
    "triplet_margin_loss": ["triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, double margin=1.0, "
                            "double p=2, double eps=1e-06, bool swap=False, int64_t reduction=1)"],
    "poisson_nll_loss": ["poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, double eps, "
                         "int64_t reduction)"],
    "multi_margin_loss": ["multi_margin_loss(Tensor input, Tensor target, Scalar p=1, Scalar margin=1, "
                          "Tensor? weight=None, int64_t reduction=1)"],
    "ctc_loss": ["ctc_loss(Tensor log_probs, Tensor targets, IntArrayRef input_lengths, IntArrayRef target_lengths, "
                 "int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=False)",
                 "ctc_loss(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, "
                 "int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=False)"],
    "group_norm": ["group_norm(Tensor input, int64_t num_groups, Tensor? weight=None, Tensor? bias=None, "
                   "double eps=1e-05, bool cudnn_enabled=True)"],
    "instance_norm": ["instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                      "Tensor? running_var, bool use_input_stats, double momentum, double eps, bool cudnn_enabled)"],
    "rms_norm": ["rms_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, double? eps=None)"],
    "celu_": ["celu_(Tensor input, Scalar alpha=1.0)"],
    "selu_": ["selu_(Tensor input)"],
    "glu": ["glu(Tensor input, int64_t dim=-1)"],
    "hardshrink": ["hardshrink(Tensor input, Scalar lambd=0.5)"],
    "softshrink": ["softshrink(Tensor input, Scalar lambd=0.5)"],
    "threshold": ["threshold(Tensor input, Scalar threshold, Scalar value)"],
    "threshold_": ["threshold_(Tensor input, Scalar threshold, Scalar value)"],
    "prelu": ["prelu(Tensor input, Tensor weight)"],
    "rrelu": ["rrelu(Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
              "Generator? generator=None)"],
    "rrelu_": ["rrelu_(Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
               "Generator? generator=None)"],
    "cosine_similarity": ["cosine_similarity(Tensor x1, Tensor x2, int64_t dim=1, double eps=1e-08)"],
    "pairwise_distance": ["pairwise_distance(Tensor x1, Tensor x2, double p=2, double eps=1e-06, bool keepdim=False)"],
    "kl_div": ["kl_div(Tensor input, Tensor target, int64_t reduction=1, *, bool log_target=False)"],
    "pixel_shuffle": ["pixel_shuffle(Tensor input, int64_t upscale_factor)"],
    "pixel_unshuffle": ["pixel_unshuffle(Tensor input, int64_t downscale_factor)"],
    "one_hot": ["one_hot(Tensor input, int64_t num_classes=-1)"],
    "pad": ["pad(Tensor input, SymIntArrayRef pad, c10::string_view mode=\"constant\", double? value=None)"],
    "conv1d": ["conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, "
               "SymIntArrayRef[1] padding=0, SymIntArrayRef[1] dilation=1, SymInt groups=1)",
               "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, "
               "c10::string_view padding=\"valid\", SymIntArrayRef[1] dilation=1, SymInt groups=1)"],
    "conv3d": ["conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[3] stride=1, "
               "SymIntArrayRef[3] padding=0, SymIntArrayRef[3] dilation=1, SymInt groups=1)",
               "conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[3] stride=1, "
               "c10::string_view padding=\"valid\", SymIntArrayRef[3] dilation=1, SymInt groups=1)"],
    "conv_transpose1d": ["conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, "
                         "SymIntArrayRef[1] padding=0, SymIntArrayRef[1] output_padding=0, SymInt groups=1, "
                         "SymIntArrayRef[1] dilation=1)"],
    "conv_transpose2d": ["conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, "
                         "SymIntArrayRef[2] padding=0, SymIntArrayRef[2] output_padding=0, SymInt groups=1, "
                         "SymIntArrayRef[2] dilation=1)"],
    "conv_transpose3d": ["conv_transpose3d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[3] stride=1, "
                         "SymIntArrayRef[3] padding=0, SymIntArrayRef[3] output_padding=0, SymInt groups=1, "
                         "SymIntArrayRef[3] dilation=1)"],
    "conv2d": ["conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, "
               "SymIntArrayRef[2] padding=0, SymIntArrayRef[2] dilation=1, SymInt groups=1)",
               "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, "
               "c10::string_view padding=\"valid\", SymIntArrayRef[2] dilation=1, SymInt groups=1)"],
    "batch_norm": ["batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
                   "bool training, double momentum, double eps, bool cudnn_enabled)"],
    "binary_cross_entropy_with_logits": ["binary_cross_entropy_with_logits(Tensor input, Tensor target, "
                                         "Tensor? weight=None, Tensor? pos_weight=None, int64_t reduction=1)"],
    "constant_pad_nd": ["constant_pad_nd(Tensor input, SymIntArrayRef pad, Scalar value=0)"],
    "channel_shuffle": ["channel_shuffle(Tensor input, SymInt groups)"],
    "pdist": ["pdist(Tensor input, double p=2)"],
    "scaled_dot_product_attention": ["scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, "
                                     "Tensor? attn_mask=None, double dropout_p=0.0, bool is_causal=False, *, "
                                     "double? scale=None, bool enable_gqa=False)"],
}


def _parse(op, *args, **kwargs):
    """The call's values by parameter name, parsed as torch parses a call of its C++ op `op`."""
    return _C._parse_args(_SIGNATURES[op], args, kwargs)[1]


# ---- activations ------------------------------------------------------------------------------------


def _activation(op, input, args, inplace):
    """op applied to input; in place: its values written into input, which is returned, with torch's node
    for the in-place form (LeakyReluBackward1, EluBackward1, HardtanhBackward0, ...)."""
    return op.apply_(input, *args) if inplace else op.apply(input, *args)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x."""
    _parse("leaky_relu_" if inplace else "leaky_relu", input, negative_slope)
    _require_floating(input, "leaky_relu_cpu", "leaky_relu_cuda")
    return _activation(_native.LeakyRelu, input, (negative_slope,), inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _parse("elu_" if inplace else "elu", input, alpha)
    _require_floating(input, "elu_cpu", "elu_cuda")
    return _activation(_native.Elu, input, (alpha, 1.0, 1.0), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(x, alpha) with the self-normalising constants."""
    _parse("selu", input)
    _require_floating(input, "elu_cpu", "elu_cuda")
    return _activation(_native.Elu, input, (_SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def celu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""
    _parse("celu_" if inplace else "celu", input, alpha)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _require_floating(input, "elu_cpu", "elu_cuda")
    return _activation(_native.Celu, input, (alpha, 1.0, 1.0 / alpha), inplace)


def celu_(*args, **kwargs):
    """celu_(input, alpha=1.0): celu in place (torch's C++ op itself, so the call is parsed as given)."""
    parsed = _parse("celu_", *args, **kwargs)
    return celu(parsed["input"], parsed["alpha"], inplace=True)


def selu_(*args, **kwargs):
    """selu_(input): selu in place (torch's C++ op itself)."""
    return selu(_parse("selu_", *args, **kwargs)["input"], inplace=True)


def gelu(input, approximate="none"):
    """x * Phi(x), Phi the standard normal CDF (approximate='tanh': torch's tanh approximation)."""
    _parse("gelu", input, approximate=approximate)
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _require_floating(input, "GeluKernelImpl", "GeluCUDAKernelImpl")
    return _native.Gelu.apply(input, approximate)


def silu(input, inplace=False):
    """x * sigmoid(x)."""
    _parse("silu", input)
    _require_floating(input, "silu_cpu", "silu_cuda")
    return _activation(_native.Silu, input, (), inplace)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    _parse("mish", input)
    _require_floating(input, "mish_cpu", "mish_cuda")
    return _activation(_native.Mish, input, (), inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, linear above threshold."""
    _parse("softplus", input, beta, threshold)
    _require_floating(input, "softplus_cpu", "softplus_cuda")
    return _native.Softplus.apply(input, beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """clamp(x, min_val, max_val); an integer input keeps its dtype, its bounds truncated (torch's
    hardtanh_out)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    _parse("hardtanh_" if inplace else "hardtanh", input, min_val, max_val)
    if input.dtype == minitorch.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if not input.is_floating_point():
        low, high = _checked(min_val, minitorch.int64), _checked(max_val, minitorch.int64)
        if input.dtype == minitorch.uint8 and (low < 0 or high < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
        return input.clamp_(low, high) if inplace else input.clamp(low, high)
    _checked(min_val, input.dtype), _checked(max_val, input.dtype)  # clamp's overflow check of its bounds
    return _activation(_native.Hardtanh, input, (min_val, max_val), inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """hardtanh in place (torch's C++ op itself: its parser first, then the bounds)."""
    _parse("hardtanh_", input, min_val, max_val)
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6)."""
    _parse("relu6", input)
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input):
    """log(sigmoid(x))."""
    _parse("log_sigmoid", input)
    _require_floating(input, "log_sigmoid_cpu", "log_sigmoid_forward_cuda")
    return _native.LogSigmoid.apply(input)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    _parse("hardswish", input)
    _require_floating(input, "hardswish_cpu", "hardswish_cuda")
    return _activation(_native.Hardswish, input, (), inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    _parse("hardsigmoid", input)
    _require_floating(input, "hardsigmoid_cpu", "hardsigmoid_cuda")
    return _activation(_native.Hardsigmoid, input, (), inplace)


def tanh(input):
    """tanh(x) (the Tensor method)."""
    return input.tanh()


def sigmoid(input):
    """1 / (1 + exp(-x)) (the Tensor method)."""
    return input.sigmoid()


def _require_floating(input, kernel, cuda_kernel=None):
    """torch's dispatch error for a kernel written for floating dtypes only (named `cuda_kernel` on a CUDA
    device where torch's CUDA kernel has a name of its own)."""
    if not input.is_floating_point():
        if cuda_kernel is not None and input.device.type == "cuda":
            kernel = cuda_kernel
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._scalar_name}'")


def _checked(number, dtype):
    """The Python number as a kernel of `dtype` reads it: converted with torch's overflow check
    ("value cannot be converted to type int8_t without overflow"), an integer truncated or wrapped. Two
    elements: torch skips the float16 check for a one-element fill, not for a kernel's number."""
    return minitorch.full((2,), number, dtype=dtype)[0].item()


def glu(input, dim=-1):
    """a * sigmoid(b), a and b the first and second half of input along dim."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    _parse("glu", input, dim)
    wrapped = dim + input.dim() if dim < 0 else dim
    if not 0 <= wrapped < input.dim():
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, {input.dim() - 1}], "
                         f"but got {dim})")
    if input.shape[wrapped] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {wrapped} is size {input.shape[wrapped]}")
    _require_floating(input, "glu_cpu")
    return _native.Glu.apply(input, wrapped)


def hardshrink(*args, **kwargs):
    """hardshrink(input, lambd=0.5): 0 where |x| <= lambd, else x (torch's C++ op itself, so the call is
    parsed as given)."""
    parsed = _parse("hardshrink", *args, **kwargs)
    input = parsed["input"]
    _require_floating(input, "hardshrink_cpu")
    return _native.Hardshrink.apply(input, parsed["lambd"])


_DTYPE_MAX = {"Float": 3.4028234663852886e+38, "Double": 1.7976931348623157e+308, "Half": 65504.0,
              "BFloat16": 3.3895313892515355e+38}


def softshrink(*args, **kwargs):
    """softshrink(input, lambd=0.5): x - lambd above lambd, x + lambd below -lambd, else 0 (torch's C++ op
    itself, so the call is parsed as given)."""
    parsed = _parse("softshrink", *args, **kwargs)
    input, lambd = parsed["input"], parsed["lambd"]
    _require_floating(input, "softshrink_check")
    name = input.dtype._scalar_name
    if not 0 <= lambd <= _DTYPE_MAX[name]:
        raise RuntimeError(f"lambda must be in range [0, {_DTYPE_MAX[name]:g}] for input dtype {name}, but found "
                           f"{lambd:g}")
    return _native.Softshrink.apply(input, lambd)


def softsign(input):
    """x / (1 + |x|) (torch's composition)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x) (torch's composition)."""
    return input - input.tanh()


def _threshold_args(input, threshold, value):
    """The numbers as torch's kernel converts them, with its overflow check: the threshold to the computation's
    dtype (float32 for a 16-bit input), the value to the input's; an integer input truncates."""
    if input.dtype == minitorch.bool:
        _require_floating(input, "threshold_cpu", "threshold_cuda")
    compute = minitorch.float32 if input.dtype in (minitorch.float16, minitorch.bfloat16) else input.dtype
    checked = _checked(threshold, compute), _checked(value, input.dtype)
    return (threshold, value) if input.is_floating_point() else checked


def _threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    if inplace:
        return threshold_(input, threshold, value)
    _parse("threshold", input, threshold, value)
    return _native.Threshold.apply(input, *_threshold_args(input, threshold, value))


threshold = _threshold


def threshold_(*args, **kwargs):
    """threshold_(input, threshold, value): threshold in place (torch's C++ op itself)."""
    parsed = _parse("threshold_", *args, **kwargs)
    input = parsed["input"]
    return _native.Threshold.apply_(input, *_threshold_args(input, parsed["threshold"], parsed["value"]))


def prelu(*args, **kwargs):
    """prelu(input, weight): x where x > 0, else weight * x, weight one number or one per channel (dim 1)
    (torch's C++ op itself, so the call is parsed as given)."""
    parsed = _parse("prelu", *args, **kwargs)
    input, weight = parsed["input"], parsed["weight"]
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {input.dtype._scalar_name} and "
                           f"{weight.dtype._scalar_name}")
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    _require_floating(input, "prelu_cpu")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return _native.PreluKernel.apply(input, weight)


def _rrelu_noise(input, lower, upper, generator):
    """torch's CPU rrelu noise: for each non-positive element in order, one uniform double in [lower, upper)
    (the bounds first rounded to the input's compute type) rounded to that type; 1 elsewhere."""
    compute = minitorch.float64 if input.dtype == minitorch.float64 else minitorch.float32
    if compute == minitorch.float32:
        lower, upper = _native._float32(lower), _native._float32(upper)
    negative = input.contiguous() <= 0
    count = int(negative.sum().item())
    draws = minitorch.rand(count, dtype=minitorch.float64, device=input.device, generator=generator)
    noise = minitorch.ones(input.shape, dtype=compute, device=input.device)
    noise[negative] = (draws * (upper - lower) + lower).to(compute)
    return noise


def _rrelu(input, lower, upper, training, generator, inplace):
    for name, bound in (("lower", lower), ("upper", upper)):
        if not inplace and not math.isfinite(bound):
            raise RuntimeError(f"rrelu: {name} bound must be finite, got {bound}")
    if not lower <= upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training and input.dtype not in (minitorch.float32, minitorch.float64):
        # torch's CPU training kernel has float and double only
        raise NotImplementedError(f"\"rrelu_with_noise_out_cpu\" not implemented for '{input.dtype._scalar_name}'")
    _require_floating(input, "leaky_relu_cpu")
    noise = _rrelu_noise(input, lower, upper, generator) if training else minitorch.empty_like(input)
    args = (noise, lower, upper, bool(training))
    return _native.RreluWithNoise.apply_(input, *args) if inplace else _native.RreluWithNoise.apply(input, *args)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """x where x >= 0, else x times a slope: drawn uniformly from [lower, upper] for each element in training,
    (lower + upper) / 2 otherwise."""
    if inplace:
        return rrelu_(input, lower, upper, training)
    parsed = _parse("rrelu", input, lower, upper, training)
    return _rrelu(input, lower, upper, training, parsed["generator"], False)


def rrelu_(*args, **kwargs):
    """rrelu_(input, lower=1/8, upper=1/3, training=False, generator=None): rrelu in place (torch's C++ op
    itself)."""
    parsed = _parse("rrelu_", *args, **kwargs)
    return _rrelu(parsed["input"], parsed["lower"], parsed["upper"], parsed["training"],
                  parsed["generator"], True)


# ---- losses -------------------------------------------------------------------------------------------


def _broadcast_pair(input, target, size_average=None, reduce=None, reduction="mean"):
    """The regression losses' common start: torch's warning when the shapes differ, the legacy
    size_average/reduce turned into a reduction, and input and target broadcast together."""
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", stacklevel=3)
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    input, target = minitorch.broadcast_tensors(input, target)
    return input, target, reduction


def _weighted(loss, weight, reduction):
    """torch's Python path for a loss with weight=: loss * weight, reduced (mean: divided by the weights' sum)."""
    if weight.size() != loss.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = loss * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return minitorch.sum(weighted)
    if reduction == "mean":
        return minitorch.sum(weighted) / minitorch.sum(weight)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum) of (input - target)**2."""
    input, target, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if weight is not None:
        return _weighted(minitorch.pow(input - target, 2), weight, reduction)
    return _native.MseLoss.apply(input, target, _reduction.get_enum(reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum) of |input - target| (torch composes it of sub, abs and mean too)."""
    input, target, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if weight is not None:
        return _weighted(minitorch.abs(input - target), weight, reduction)
    return _native._reduce((input - target).abs(), _reduction.get_enum(reduction))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared below beta, absolute above it (beta=0: l1_loss)."""
    input, target, reduction = _broadcast_pair(input, target, size_average, reduce, reduction)
    if beta == 0.0:
        return _native._reduce((input - target).abs(), _reduction.get_enum(reduction))
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return _native.SmoothL1Loss.apply(input, target, _reduction.get_enum(reduction), beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Squared below delta, delta * absolute above it."""
    input, target, reduction = _broadcast_pair(input, target, reduction=reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        return _weighted(_native.HuberLoss.apply(input, target, _native.NONE, delta), weight, reduction)
    return _native.HuberLoss.apply(input, target, _reduction.get_enum(reduction), delta)


def _reduction_enum(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _reduction.legacy_get_enum(size_average, reduce)
    return _reduction.get_enum(reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(target * log(input) + (1 - target) * log(1 - input)), input probabilities in [0, 1]."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(minitorch.broadcast_shapes(target.size(), weight.size()))
    return _native.BinaryCrossEntropy.apply(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target) computed stably from the logits (pos_weight scales the
    positive term)."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return _native.BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction_enum)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """The negative log likelihood of class indices: -input[n, target[n]] (times the class weight), for input
    of log-probabilities (N, C), (C) or (N, C, d1, ...) and target (N), () or (N, d1, ...)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    reduction_enum = _reduction.get_enum(reduction)
    _parse("nll_loss_nd", input, target, weight, reduction_enum, ignore_index)
    return _nll_loss_nd(input, target, weight, reduction_enum, ignore_index)


def _nll_loss_nd(input, target, weight, reduction_enum, ignore_index):
    """torch's nll_loss_nd, for arguments already parsed (nll_loss's, or cross_entropy's): its checks and those
    of the kernel it calls (nll_loss for 1 or 2 dims, nll_loss2d for the others), in torch's order, then the
    loss computed in C (csrc/ops/loss.c), with torch's node (NllLossBackward0, NllLoss2DBackward0)."""
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() == 1:
        if target.dim() == 1 and target.shape[0] != 1:
            raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    else:
        batch = target.shape[0] if target.dim() > 0 else 0
        if input.shape[0] != batch:
            raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({batch}).")
    n_classes = input.shape[0] if input.dim() == 1 else input.shape[1]
    spatial = input.dim() > 2
    if spatial and input.dim() != 4:
        # other ranks go through the 2-D kernel as (N, C, 1, -1) and (N, 1, -1)
        if list(target.shape[1:]) != list(input.shape[2:]):
            raise RuntimeError(f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got "
                               f"{list(target.shape)}")
        n = input.shape[0]
        result = _nll_loss_nd(input.contiguous().view(n, n_classes, 1 if input.numel() else 0, -1 if input.numel() else 0),
                              target.contiguous().view(n, 1 if target.numel() else 0, -1 if target.numel() else 0),
                              weight, reduction_enum, ignore_index)
        return result.view([n] + list(input.shape[2:])) if reduction_enum == _native.NONE else result
    _check_no_requires_grad(weight, "weight", "nll_loss2d_forward" if spatial else "nll_loss_forward")
    if spatial and target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    if not spatial and target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dtype not in (minitorch.int64, minitorch.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._scalar_name}")
    if spatial:
        if weight is not None and weight.numel() != n_classes:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        if list(target.shape[1:]) != list(input.shape[2:]):
            raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
    elif weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}")
    # the kernel's own: the input's dtype, the weight's, then the target values
    if not input.is_floating_point():
        frame = "nll_loss2d_forward_out_frame" if spatial else "nll_loss_out_frame"
        raise NotImplementedError(f'"{frame}" not implemented for \'{input.dtype._scalar_name}\'')
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found {weight.dtype._scalar_name}")
    if spatial and target.dtype != minitorch.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._scalar_name}")
    ignoring = not (_check_targets(target, n_classes, ignore_index) and not 0 <= ignore_index < n_classes)
    if spatial and weight is not None:
        weight = weight.reshape(-1)     # the 2-D kernel reads any weight of C elements
    return _C._nll_loss(input, target.long(), weight, reduction_enum, ignore_index if ignoring else None)


def _check_targets(target, n_classes, ignore_index):
    """torch's IndexError for the first class index outside [0, n_classes) (ignore_index aside). Returns
    whether every target is in [0, n_classes). A meta target has no values to check, as in torch."""
    if target.numel() == 0 or target.is_meta or (int(target.min()) >= 0 and int(target.max()) < n_classes):
        return True
    for t in target.reshape(-1).tolist():
        if t != ignore_index and not 0 <= t < n_classes:
            raise IndexError(f"Target {t} is out of bounds.")
    return False


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """The cross entropy of logits input (N, C) (or (C), or (N, C, d1, ...)) against class indices or,
    when target has input's shape, class probabilities: nll_loss(log_softmax(input, 1), target) for
    indices; label_smoothing mixes in the uniform distribution (torch's composition, node for node)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    reduction_enum = _reduction.get_enum(reduction)
    _parse("cross_entropy_loss", input, target, weight, reduction_enum, ignore_index, label_smoothing)
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{target.dtype._scalar_name}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probabilities(input, target, weight, reduction_enum, label_smoothing, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim)
    return _nll_loss_nd(input.log_softmax(class_dim), target, weight, reduction_enum, ignore_index)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """x where the target is 1, max(0, margin - x) where it is -1 (torch's composition), reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    _parse("hinge_embedding_loss", input, target, margin, reduction_enum)
    zeros = minitorch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min_(0)
    output_margin = minitorch.where(target != 1, margin_clamp, zeros)
    output_self = minitorch.where(target != -1, input, zeros)
    return _native._reduce(output_margin + output_self, reduction_enum)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin), reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    _parse("margin_ranking_loss", input1, input2, target, margin, reduction_enum)
    return _native._reduce((-target * (input1 - input2) + margin).clamp_min_(0), reduction_enum)


def _check_no_requires_grad(t, name, op):
    """torch's refusal of a gradient for an argument its op has no derivative for."""
    if t is not None and t.requires_grad and minitorch.is_grad_enabled():
        raise RuntimeError(f"The function '{op}' is not differentiable with respect to argument '{name}'. This input "
                           "cannot have requires_grad True.")


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)), reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    _parse("soft_margin_loss", input, target, reduction_enum)
    _check_no_requires_grad(target, "target", "soft_margin_loss")
    return _native.SoftMarginLoss.apply(input, target, reduction_enum)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The binary cross entropy of sigmoid(input) against each class's 0/1 target, averaged over the classes
    (torch's composition), then reduced over the samples."""
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(input1, input2) where the target is 1, max(0, cos - margin) where it is -1 (torch's
    composition), reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    _parse("cosine_embedding_loss", input1, input2, target, margin, reduction_enum)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1 or input2.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + 1e-12
    mag_square2 = (input2 * input2).sum(dim) + 1e-12
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = minitorch.zeros_like(cos)
    output_pos = minitorch.where(target == 1, 1 - cos, zeros)
    output_neg = minitorch.where(target == -1, (cos - margin).clamp_min_(0), zeros)
    return _native._reduce(output_pos + output_neg, reduction_enum)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the pairwise p-norm distance (swap: the
    smaller of d(anchor, negative) and d(positive, negative)), reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _parse("triplet_margin_loss", anchor, positive, negative, margin, p, eps, swap, reduction_enum)
    if not anchor.dim() == positive.dim() == negative.dim():
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, and negative "
                           f"{negative.dim()}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minitorch.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _native._reduce((margin + dist_pos - dist_neg).clamp_min(0), reduction_enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """exp(input) - target * input (log_input), else input - target * log(input + eps); full adds Stirling's
    term where the target is above 1. Reduced."""
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    reduction_enum = _reduction.get_enum(reduction)
    _parse("poisson_nll_loss", input, target, log_input, full, eps, reduction_enum)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)
    return _native._reduce(loss, reduction_enum)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 * (log(var) + (input - target)**2 / var) with var clamped at eps (full: plus 0.5 * log(2 pi)),
    var of input's shape or one short of it (torch's composition). Reduced."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * minitorch.ones_like(input)
    elif minitorch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = minitorch.unsqueeze(var, -1)
        elif input.dim() == var.dim() and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with minitorch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (minitorch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The multi-class hinge loss: for each sample, the mean over the other classes of
    max(0, margin - x[target] + x[class]) ** p (times weight[target]). Reduced."""
    reduction_enum = _reduction_enum(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _parse("multi_margin_loss", input, target, p, margin, weight, reduction_enum)
    dims = input.dim()
    if not ((dims == 2 and input.size(1) != 0) or (dims == 1 and input.size(0) != 0) or dims == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    frames = 1 if dims <= 1 else input.size(0)
    classes = 1 if dims == 0 else input.size(-1)
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{frames}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    if weight is not None and (weight.dim() > 1 or weight.numel() != classes):
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {list(weight.shape)}")
    if target.numel() and (bool((target < 0).any()) or bool((target >= classes).any())):
        raise RuntimeError("target out of range")
    _check_no_requires_grad(weight, "weight", "multi_margin_loss")
    return _native.MultiMarginLoss.apply(input, target, p, margin, weight, reduction_enum)


def _ctc_check(ok, message):
    """torch's check in ctc_loss_allocate_outputs: message with the op it names."""
    if not ok:
        raise RuntimeError(f"{message} (while checking arguments for ctc_loss_allocate_outputs)")


def _ctc_check_lengths(log_probs, targets, input_lengths, target_lengths, blank):
    """torch's checks of log_probs (T, N, C), targets and the lengths (lists), in its order."""
    _ctc_check(log_probs.dim() == 3, f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional tensor "
                                     f"for argument #1 'log_probs'")
    _ctc_check(1 <= targets.dim() <= 2, f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor for "
                                        f"argument #2 'targets'")
    batch, labels = log_probs.shape[1], log_probs.shape[2]
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        _ctc_check(length >= 0, f"Expected target_lengths to have value at least 0, but got value {length}")
    expected = sum(target_lengths) if targets.dim() == 1 else batch
    _ctc_check(targets.shape[0] == expected, f"Expected tensor to have size {expected} at dimension 0, but got size "
                                             f"{targets.shape[0]} for argument #2 'targets'")
    if targets.dim() == 2:
        longest = max(target_lengths, default=0)
        _ctc_check(targets.shape[1] >= longest, f"Expected tensor to have size at least {longest} at dimension 1, but "
                                                f"got size {targets.shape[1]} for argument #2 'targets'")
    for length in input_lengths:
        _ctc_check(length >= 0, f"Expected input_lengths to have value at least 0, but got value {length}")
        _ctc_check(length <= log_probs.shape[0], f"Expected input_lengths to have value at most "
                                                 f"{log_probs.shape[0]}, but got value {length}")


def torch_ctc_loss(*args, **kwargs):
    """torch.ctc_loss: the CTC loss of log_probs (T, N, C) or (T, C) with the lengths as tensors or
    sequences of ints and the reduction as torch's number (0 when omitted, as torch's binding parses it);
    F.ctc_loss calls it."""
    v = _parse("ctc_loss", *args, **kwargs)
    log_probs, targets, blank, reduction = v["log_probs"], v["targets"], v["blank"], v["reduction"]
    given = [t for t in (log_probs, targets, v["input_lengths"], v["target_lengths"]) if isinstance(t, minitorch.Tensor)]
    if len(given) == 4 and any(t.device.type == "meta" for t in given):
        _C._no_meta_kernel("aten::_ctc_loss.Tensor")    # lengths as tensors: their values are data
    lengths = []
    for name in ("input_lengths", "target_lengths"):
        value = v[name]
        if isinstance(value, minitorch.Tensor):
            if value.is_floating_point() or value.is_complex() or value.dtype == minitorch.bool:
                raise RuntimeError(f"{name} must be integral")
            value = value.reshape(-1).tolist()
        lengths.append(list(value))
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    targets = targets.to(device=lp.device, dtype=minitorch.int64)
    if lp.dtype not in (minitorch.float32, minitorch.float64):
        kernel = "ctc_loss_cuda" if lp.device.type == "cuda" else "ctc_loss_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{lp.dtype._scalar_name}'")
    if lp.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    _ctc_check_lengths(lp, targets, lengths[0], lengths[1], blank)
    res = _native.CtcLoss.apply(lp, targets, lengths[0], lengths[1], blank, v["zero_infinity"])
    if v["zero_infinity"]:
        res = minitorch.where(res == math.inf, minitorch.zeros((), dtype=res.dtype, device=res.device), res)
    if reduction == _native.MEAN:
        return (res / minitorch.tensor(lengths[1], dtype=res.dtype, device=res.device).clamp_min(1)).mean()
    if reduction == _native.SUM:
        return res.sum()
    return res if batched else res.squeeze(0)


torch_ctc_loss.__name__ = torch_ctc_loss.__qualname__ = "ctc_loss"


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The Connectionist Temporal Classification loss: minus the log of the summed probability of every
    alignment of each target to its input (targets padded (N, S) or concatenated); 'mean' divides each
    sample's loss by its target length (at least 1) before the batch mean."""
    return torch_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction.get_enum(reduction),
                          zero_infinity)


def _class_weight(weight, ndim):
    """A class weight shaped to broadcast along dim 1 of an ndim-dim input."""
    return weight.view([1, -1] + [1] * (ndim - 2)) if ndim > 1 else weight


def _cross_entropy_probabilities(input, target, weight, reduction_enum, label_smoothing, class_dim):
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}")
    log_p = input.log_softmax(class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = log_p * target
    if weight is not None:
        terms = terms * _class_weight(weight, input.dim())
    if reduction_enum == _native.NONE:
        return -terms.sum(class_dim)
    if reduction_enum == _native.SUM:
        return -terms.sum()
    if input.numel() == 0:
        return (-terms.sum()).fill_(float("nan"))
    return -terms.sum() / (input.numel() // n_classes)


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    log_p = input.log_softmax(class_dim)
    nll = nll_loss(log_p, target, weight, None, ignore_index, None, reduction)
    n_classes = log_p.shape[class_dim]
    ignore_mask, kept = target == ignore_index, target != ignore_index
    if weight is not None:
        smooth = -(log_p * _class_weight(weight, log_p.dim())).sum(class_dim)
    else:
        smooth = -log_p.sum(class_dim)
    smooth = smooth.masked_fill(ignore_mask, 0.0)
    if reduction == "mean":
        if weight is not None:
            smooth = smooth.sum() / weight.gather(0, target.masked_select(kept).flatten()).sum()
        else:
            smooth = smooth.sum() / kept.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / n_classes)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    """weight's rows at the indices of input: a tensor of input's shape plus weight's embedding dim."""
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    _parse("embedding", weight, input, -1 if padding_idx is None else padding_idx, scale_grad_by_freq, sparse)
    if max_norm is not None:
        input = input.contiguous()
        with minitorch.no_grad():
            _embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    if weight.dim() != 2:
        if weight.is_meta:
            raise AssertionError(f"'weight' must be 2-D, got {weight.dim()}-D")
        raise RuntimeError("'weight' must be 2-D")
    if sparse:
        raise NotImplementedError("embedding(sparse=True) is not supported by minitorch (it has no sparse tensors)")
    if weight.is_meta:
        # torch's meta function (torch/_meta_registrations.py): its own wording, and no values to check
        if input.dtype not in (minitorch.int64, minitorch.int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                               f"types: Long, Int; but got {input.dtype} instead")
        return _native.Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)
    if input.dtype not in (minitorch.int64, minitorch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    if input.numel() and (bool((input < 0).any()) or bool((input >= weight.shape[0]).any())):
        raise IndexError("index out of range in self")
    return _native.Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)


def _embedding_renorm_(*args, **kwargs):
    """torch.embedding_renorm_(input, indices, max_norm, norm_type): each row of the 2-D input that indices
    name (once each, in sorted order) whose norm_type-norm exceeds max_norm, scaled by
    max_norm / (norm + 1e-7) as torch's kernel scales it (the row times that number); one in-place write,
    so input's version goes up by one, changed rows or not."""
    v = _parse("embedding_renorm_", *args, **kwargs)
    input, indices, max_norm, norm_type = v["input"], v["indices"], v["max_norm"], v["norm_type"]
    if input.is_meta:
        # torch's meta function checks nothing and has nothing to change
        return input
    if input.dim() != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for embedding_renorm_)")
    if indices.dtype not in (minitorch.int64, minitorch.int32):
        raise RuntimeError("Expected tensor for argument #2 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.type()} instead (while checking arguments for "
                           "embedding_renorm_)")
    changed, rows = [], []
    with minitorch.no_grad():
        for i in sorted(set(indices.reshape(-1).tolist())):
            row = input.select(0, i)
            if not row.is_floating_point():
                # (at::norm's check, which torch's kernel meets at its first row)
                raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                                   f"{row.dtype._scalar_name} instead.")
            norm = row.norm(norm_type).item()
            if norm > max_norm:
                changed.append(i % input.shape[0])
                # the kernel's row *= scale: a number the C++ op converts to the row's dtype first
                rows.append(row * minitorch.tensor(max_norm / (norm + 1e-7), dtype=row.dtype, device=row.device))
    index = minitorch.tensor(changed, dtype=minitorch.int64, device=input.device)
    return input.index_copy_(0, index, minitorch.stack(rows) if rows else input[:0])


_EMBEDDING_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Each bag of weight's rows reduced by mode ('sum', 'mean' or 'max'): a 2-D input is one bag per row,
    a 1-D input is cut into bags at offsets (include_last_offset: the last offset ends the last bag);
    per_sample_weights scale the rows (mode 'sum'); rows at padding_idx are left out. (torch's function,
    its checks in its order.)"""
    if weight.dtype == minitorch.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = minitorch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _EMBEDDING_BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        with minitorch.no_grad():
            _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if sparse:
        raise NotImplementedError("embedding_bag(sparse=True) is not supported by minitorch (it has no sparse "
                                  "tensors)")
    return _embedding_bag(weight, input, offsets, scale_grad_by_freq, _EMBEDDING_BAG_MODES[mode],
                          per_sample_weights, include_last_offset, padding_idx)


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, per_sample_weights, include_last_offset,
                   padding_idx):
    """torch's embedding_bag op: its checks, then the bags (the bag of each position from offsets)."""
    for t in (indices, offsets):
        if t.dtype not in (minitorch.int64, minitorch.int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                               f"types: Long, Int; but got {t.type()} instead (while checking arguments for "
                               "embedding_bag)")
    if not weight.dtype.is_floating_point:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {weight.type()} instead (while checking arguments "
                           "for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                           f"'per_sample_weights'; but type {weight.type()} does not equal "
                           f"{per_sample_weights.type()} (while checking arguments for embedding_bag)")
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-num} through {num - 1}, but "
                               f"got {padding_idx}")
        padding_idx %= num
    # (torch takes int32 indices and offsets as they are, and converts a mixed pair to int64)
    offsets_type = offsets.type() if indices.dtype == offsets.dtype else "torch.LongTensor"
    indices, offsets = indices.long(), offsets.long()
    n = indices.numel()
    count = offsets.numel() - (1 if include_last_offset else 0)
    if offsets.numel():
        if offsets[0].item() != 0:
            # torch's message ends with offsets[0] printed as C++ prints a 0-dim tensor
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                               f"position 0. However, got {offsets[0].item()}\n[ {offsets_type}{{}} ]")
        if offsets[-1].item() > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                               f"{offsets[-1].item()}")
    bad = ((indices < 0) | (indices >= num)).nonzero().view(-1)
    if bad.numel():
        at = bad[0].item()
        if mode == 2:
            raise RuntimeError("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                               f"{indices[at].item()}")
        raise RuntimeError(f"Index {at} of input takes value {indices[at].item()} which is not in the valid range "
                           f"[0, {num})")
    # the bag of each position: how many bag starts (after the first) lie at or before it
    starts = offsets[1:count] if count > 0 else offsets[:0]
    bags = minitorch.zeros(n + 1, dtype=minitorch.int64, device=indices.device).index_add_(
        0, starts, minitorch.ones_like(starts)).cumsum(0)[:n]
    if count <= 0 or (include_last_offset and offsets.numel()):
        n_used = offsets[-1].item() if count > 0 else 0      # positions past the last offset belong to no bag
        if n_used < n:
            keep = minitorch.arange(n_used, device=indices.device)
            indices, bags = indices[keep], bags[keep]
            if per_sample_weights is not None:
                per_sample_weights = per_sample_weights[:n_used]
    return _native.EmbeddingBag.apply(weight, per_sample_weights, indices, bags, max(count, 0), mode, padding_idx,
                                      scale_grad_by_freq)


# c10's names of the dtypes, as its messages print a dtype
_C10_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
                    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                    "uint8": "unsigned char", "bool": "bool"}


def bilinear(input1, input2, weight, bias=None):
    """out[..., o] = sum over i, j of input1[..., i] * weight[o, i, j] * input2[..., j] (+ bias[o]): torch's
    bilinear (its checks, then _trilinear over the flattened batch)."""
    _parse("bilinear", input1, input2, weight, bias)
    tensors = [("input1", input1), ("input2", input2), ("weight", weight)] + ([("bias", bias)] if bias is not None
                                                                              else [])
    if any(t.dtype != input1.dtype for _, t in tensors):
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {_C10_DTYPE_NAMES[str(t.dtype).split('.')[-1]]}" for name, t in tensors))
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} "
                               f"and {input2.shape[i]}")
    for name, x, d in (("input1", input1, 1), ("input2", input2, 2)):
        if x.size(x.dim() - 1) != weight.size(d):
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {x.size(x.dim() - 1)} but "
                               f"expected {weight.size(d)}")
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.size(0)} but expected "
                           f"{weight.size(0)}")
    if input1.dtype == minitorch.bool:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    out_size = list(input1.shape[:-1]) + [weight.shape[0]]
    out = _native.Trilinear.apply(input1.reshape(-1, input1.shape[-1]), weight,
                                  input2.reshape(-1, input2.shape[-1])).reshape(out_size)
    return out + bias if bias is not None else out


# ---- convolution and pooling ---------------------------------------------------------------------------


def _tuple(value, n, name):
    """An int or a sequence of n ints, as a list of n ints (torch's _ntuple / expand_param_if_needed)."""
    if isinstance(value, int):
        return [value] * n
    value = list(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match the "
                           f"convolution dimensions, but got {name}={value}")
    return value


def _meta_convolution(input, weight, bias, stride, padding, dilation, groups, output_padding):
    """torch's meta convolution (meta_conv and its calc_conv_nd_return_shape), which the op reaches when
    any operand is a meta tensor: the channels of a convolution, the kernel against the padded input,
    an output that has some positive size; no check of stride, padding, dilation, groups, bias or dtypes
    (Python's own errors for a zero stride or too short a list)."""
    spatial, kernel = list(input.shape[2:]), tuple(weight.shape[2:])
    transposed = output_padding is not None
    if transposed:
        out_channels = groups * weight.shape[1]
    else:
        out_channels = weight.shape[0]
        if weight.shape[1] * groups != input.shape[1]:
            raise RuntimeError("Invalid channel dimensions")

    def spread(value):
        value = [value] if isinstance(value, int) else list(value)
        return value * len(spatial) if len(value) == 1 else value

    stride, padding, dilation = spread(stride), spread(padding), spread(dilation)
    if transposed:
        output_padding = spread(output_padding)
        sizes = [(spatial[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + output_padding[i]
                 + 1 for i in range(len(spatial))]
    else:
        padded = [spatial[i] + 2 * padding[i] for i in range(len(spatial))]
        effective = [dilation[i] * (kernel[i] - 1) + 1 for i in range(len(spatial))]
        if any(p < e for p, e in zip(padded, effective)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, effective))}). Kernel size can't be greater than actual "
                               "input size")
        sizes = [(spatial[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                 for i in range(len(spatial))]
    if not any(size > 0 for size in sizes):
        raise RuntimeError(f"Given input size per channel: {spatial}. Calculated output size per channel: {sizes}. "
                           "Output size is too small")
    shape = [input.shape[0], 0 if input.shape[1] == 0 else out_channels] + sizes
    return _conv.MetaConvolution.apply(input, weight, bias, shape)


def _convolution(input, weight, bias, stride, padding, dilation, groups, dims, output_padding=None):
    """torch's convolution (its checks in its order) for conv{dims}d, or conv_transpose{dims}d when
    output_padding is given (a weight of (in_channels, out_channels / groups, *kernel)); with a meta
    operand, torch's meta convolution once the padding is numbers."""
    transposed = output_padding is not None
    name = f"conv_transpose{dims}d" if transposed else f"conv{dims}d"
    meta = any(t is not None and t.is_meta for t in (input, weight, bias))
    if not transposed and bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_C10_DTYPE_NAMES[str(input.dtype).split('.')[-1]]}) and bias type "
                           f"({_C10_DTYPE_NAMES[str(bias.dtype).split('.')[-1]]}) should be the same")
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == dims + 1:
        return _convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, dims,
                            output_padding).squeeze(0)
    if meta and not isinstance(padding, str):
        return _meta_convolution(input, weight, bias, stride, padding, dilation, groups, output_padding)
    # the parser makes stride and dilation lists of the op's dims; the kernel checks them against the weight's
    stride = _tuple(_tuple(stride, dims, "stride"), weight.dim() - 2, "stride")
    dilation = _tuple(_tuple(dilation, dims, "dilation"), weight.dim() - 2, "dilation")
    if weight.dim() != dims + 2:
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight "
                           f"{list(weight.shape)}, but got {input.dim()}-dimensional input of size "
                           f"{list(input.shape)} instead")
    kernel = list(weight.shape[2:])
    if input.is_meta and not transposed and weight.shape[1] * groups != input.shape[1]:
        raise RuntimeError("Invalid channel dimensions")     # torch's meta convolution (meta_conv) checks first
    if any(v <= 0 for v in stride):
        raise RuntimeError("non-positive stride is not supported")
    if isinstance(padding, str):
        if padding == "valid":
            padding = [0] * dims
        elif padding == "same":
            if any(v != 1 for v in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            padding = [t // 2 for t in total]
            extra = [t - t // 2 * 2 for t in total]
            if any(extra):     # an even kernel: the extra zero goes after, as torch pads
                warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a "
                              "zero-padded copy of the input be created", stacklevel=3)
                input = _conv._padded(input, [0] * dims, 0.0, extra)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _tuple(padding, dims, "padding")
    if meta:
        return _meta_convolution(input, weight, bias, stride, padding, dilation, groups, output_padding)
    if any(v < 0 for v in padding):
        raise RuntimeError("negative padding is not supported")
    if transposed:
        output_padding = _tuple(output_padding, dims, "output_padding")
        if any(v < 0 for v in output_padding):
            raise RuntimeError("negative output_padding is not supported")
    if weight.shape[0] % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{list(weight.shape)}] instead")
    given = "transposed=1" if transposed else f"groups={groups}"
    channels = weight.shape[0] if transposed else weight.shape[1] * groups
    if input.shape[1] != channels:
        raise RuntimeError(f"Given {given}, weight of size {list(weight.shape)}, expected "
                           f"input{list(input.shape)} to have {channels} channels, but got "
                           f"{input.shape[1]} channels instead")
    out_channels = weight.shape[1] * groups if transposed else weight.shape[0]
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given {'transposed=1, ' if transposed else ''}weight of size {list(weight.shape)}, "
                           f"expected bias to be 1-dimensional with {out_channels} elements, but got bias of size "
                           f"{list(bias.shape)} instead")
    if transposed:
        if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
            axes = ["depth", "height", "width"][-max(dims, 2):]
            rows = [output_padding, stride, dilation] if dims > 1 else [[0] + output_padding, [1] + stride,
                                                                        [1] + dilation]
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
                f"{what}_{axis}: {v}" for what, values in zip(("output_padding", "stride", "dilation"), rows)
                for axis, v in zip(axes, values)))
    else:
        padded = [s + 2 * p for s, p in zip(input.shape[2:], padding)]
        effective = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
        if any(p < e for p, e in zip(padded, effective)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, effective))}). Kernel size can't be greater than actual "
                               "input size")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the same or "
                           "input should be a MKLDNN tensor and weight is a dense tensor")
    if transposed:
        return _conv.ConvolutionTranspose.apply(input, weight, bias, stride, padding, dilation, groups,
                                                output_padding)
    return _conv.Convolution.apply(input, weight, bias, stride, padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution of (N, C, L) input with weight (O, C / groups, k)."""
    _parse("conv1d", input, weight, bias, stride, padding, dilation, groups)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution of (N, C, H, W) input with weight (O, C / groups, kh, kw)."""
    _parse("conv2d", input, weight, bias, stride, padding, dilation, groups)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution of (N, C, D, H, W) input with weight (O, C / groups, kd, kh, kw)."""
    _parse("conv3d", input, weight, bias, stride, padding, dilation, groups)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of conv1d: (N, C_in, L) input with weight (C_in, C_out / groups, k)."""
    _parse("conv_transpose1d", input, weight, bias, stride, padding, output_padding, groups, dilation)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, output_padding)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of conv2d: (N, C_in, H, W) input with weight (C_in, C_out / groups, kh, kw)."""
    _parse("conv_transpose2d", input, weight, bias, stride, padding, output_padding, groups, dilation)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, output_padding)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of conv3d: (N, C_in, D, H, W) input with weight (C_in, C_out / groups, kd, kh, kw)."""
    _parse("conv_transpose3d", input, weight, bias, stride, padding, output_padding, groups, dilation)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, output_padding)


def _pool_rank(input, name, dims):
    """The pooling op's first look at its input's rank."""
    if name == "avg_pool2d":
        input.size(-3)      # torch reads the channel count first: its IndexError for fewer dims
    elif input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"non-empty {dims + 1}D or {dims + 2}D (batch mode) tensor expected for input")


def _window_ints(*params):
    """torch's 2-D and 3-D pooling ops read their window parameters (ints or lists of them; None for a
    default) as C ints first (c10's safe_downcast), before anything else."""
    for param in params:
        for v in [param] if isinstance(param, int) else param or ():
            if not -2 ** 31 <= v < 2 ** 31:
                _checked(v, minitorch.int32)    # torch's "value cannot be converted to type int without overflow"


def _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode, name, dims=2):
    """torch's pooling checks in its order (the op's own rank check, the output-size checks one dim after
    another, then its shape check): (kernel, stride, padding, dilation) as lists."""
    _pool_rank(input, name, dims)
    kernel = _tuple(kernel_size, dims, "kernel_size")
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(
        stride, dims, "stride")
    padding, dilation = _tuple(padding, dims, "padding"), _tuple(dilation, dims, "dilation")
    for st, k, p, d in zip(stride, kernel, padding, dilation):     # torch's pooling_output_shape
        if st == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        reach = d * (k - 1) + 1
        if p > (reach // 2 if reach >= 0 else -(-reach // 2)):     # C's division, toward zero
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    axes = "THW"[-dims:]
    for values, what, label in ((kernel, "kernel size", "k"), (stride, "stride", "d"),
                                (dilation, "dilation", "dilation")):     # torch's pool2d/pool3d_shape_check
        if any(v <= 0 for v in values):
            raise RuntimeError(f"{what} should be greater than zero, but got " + " ".join(
                f"{label}{axis}: {v}" for axis, v in zip(axes, values)))
    shape = list(input.shape)
    if dims == 2 and not ((input.dim() == 3 and all(shape)) or (input.dim() == 4 and all(shape[1:]))):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           + str(shape))
    if dims == 3 and not all(shape[1:] if input.dim() == 5 else shape):
        caller = "avg_pool3d()" if name == "avg_pool3d" else "max_pool3d_with_indices_out_cpu_template()"
        raise RuntimeError(f"{caller}: Expected input's non-batch dimensions to have positive length, but input has "
                           f"a shape of {shape} and non-batch dimension 0 has length zero!")
    spatial = list(input.shape[-dims:])
    out = [_conv._out_size(s, k, st, p, d, ceil_mode) for s, k, st, p, d in
           zip(spatial, kernel, stride, padding, dilation)]
    if name == "avg_pool3d" and any(s < k for s, k in zip(spatial, kernel)):
        raise RuntimeError(f"input image (T: {spatial[0]} H: {spatial[1]} W: {spatial[2]}) smaller than kernel size "
                           f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    if any(n < 1 for n in out):
        c = input.shape[-dims - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, [c] + spatial))}). Calculated output size: "
                           f"({'x'.join(map(str, [c] + out))}). Output size is too small")
    return kernel, stride, padding, dilation


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, dims):
    """max_pool2d/3d after the parser: torch's checks, then the values (and where each maximum is)."""
    name = f"max_pool{dims}d"
    _window_ints(kernel_size, stride, padding, dilation)
    kernel, stride, padding, dilation = _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode, name, dims)
    if input.dtype == minitorch.bool:
        raise NotImplementedError(f'"{name}" not implemented for \'Bool\'')
    op = _conv.MaxPool3D if dims == 3 else _conv.MaxPool
    values, indices = op.apply(input, kernel, stride, padding, dilation, ceil_mode)
    return (values, indices) if return_indices else values


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window (and, with return_indices, where it is)."""
    if return_indices:      # torch's boolean dispatch: the op of that name, its parser and messages
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    _parse("max_pool2d", input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode)
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window of (N, C, D, H, W) input."""
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    _parse("max_pool3d", input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode)
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window of (N, C, L) input: max_pool2d over (N, C, 1, L)."""
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    _parse("max_pool1d", input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode)
    if input.dim() not in (2, 3) or not all(input.shape[-2:] if input.dim() == 3 else input.shape):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    kernel = _tuple(kernel_size, 1, "kernel_size")
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(
        stride, 1, "stride")
    padding, dilation = _tuple(padding, 1, "padding"), _tuple(dilation, 1, "dilation")
    if kernel[0] <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {kernel[0]}")
    if stride[0] <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {stride[0]}")
    if padding[0] < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {padding[0]}")
    if padding[0] > kernel[0] // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got "
                           f"padding={padding[0]} and kernel_size={kernel[0]}")
    if dilation[0] <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {dilation[0]}")
    out = _conv._out_size(input.shape[-1], kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"max_pool1d_impl" not implemented for \'{input.dtype._scalar_name}\'')
    # 1-D windows are 2-D ones of height 1 (torch's 1-D op keeps its int64 parameters: no C-int check here)
    values, _ = _conv.MaxPool.apply(input.unsqueeze(-2), [1] + kernel, [1] + stride, [0] + padding,
                                    [1] + dilation, ceil_mode)
    return values.squeeze(-2)


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, dims):
    name = f"avg_pool{dims}d"
    _window_ints(kernel_size, stride, padding)
    if dims == 3:
        _pool_rank(input, name, dims)       # torch's 3-D op looks at the rank first, its 2-D one after
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    kernel, stride, padding, _ = _pool_args(input, kernel_size, stride, padding, 1, ceil_mode, name, dims)
    # torch's CPU kernels: the floating dtypes (not 16-bit ones in 3-D) and int64
    kernels = (minitorch.float32, minitorch.float64, minitorch.int64) + (
        () if dims == 3 else (minitorch.float16, minitorch.bfloat16))
    if input.dtype not in kernels:
        kernel_name = "avg_pool3d_out_frame" if dims == 3 else name
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'{input.dtype._scalar_name}\'')
    op = _conv.AvgPool3D if dims == 3 else _conv.AvgPool
    return op.apply(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window."""
    _parse("avg_pool2d", input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window of (N, C, D, H, W) input."""
    _parse("avg_pool3d", input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


def _one_int(op, name, value, input):
    """torch's 1-D pooling checks: input of 2 or 3 dims, and a size list of one int."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {op})")
    value = [value] if isinstance(value, int) else list(value)
    if len(value) != 1:
        raise RuntimeError(f"{op}() argument '{name}' should contain one int (got {len(value)})")
    return value


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each kernel_size window of (N, C, L) input: avg_pool2d over (N, C, 1, L)."""
    _parse("avg_pool1d", input, kernel_size, [] if stride is None else stride, padding, ceil_mode, count_include_pad)
    kernel = _one_int("avg_pool1d", "kernel_size", kernel_size, input)
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        _one_int("avg_pool1d", "stride", stride, input)
    padding = _one_int("avg_pool1d", "padding", padding, input)
    return _avg_pool(input.unsqueeze(-2), [1] + kernel, [1] + stride, [0] + padding, ceil_mode, count_include_pad,
                     None, 2).squeeze(-2)


def _window_checks(op, lists, kernel, dilation, padding, stride):
    """torch's checks shared by im2col and col2im: each list has two values, then the kernel, stride,
    dilation and padding values (in the op's order)."""
    for name, value in lists:
        if len(value) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
    checks = {"kernel": (all(v > 0 for v in kernel), "kernel size should be greater than zero, but got "
                         f"kernel_height: {kernel[0]} kernel_width: {kernel[1]}"),
              "dilation": (all(v > 0 for v in dilation), "dilation should be greater than zero, but got "
                           f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}"),
              "padding": (all(v >= 0 for v in padding), "padding should be non-negative, but got "
                          f"pad_height: {padding[0]} pad_width: {padding[1]}"),
              "stride": (all(v > 0 for v in stride), "stride should be greater than zero, but got "
                         f"stride_height: {stride[0]} stride_width: {stride[1]}")}
    order = ("kernel", "dilation", "padding", "stride") if op == "im2col" else ("kernel", "stride", "dilation",
                                                                               "padding")
    for name in order:
        ok, message = checks[name]
        if not ok:
            raise RuntimeError(message)


def _window_dtype(op, input):
    if not (input.dtype.is_floating_point or input.dtype == minitorch.bool):
        raise NotImplementedError(f'"{op}_out_{input.device.type}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _tuple_text(values):
    return "(" + ", ".join(str(v) for v in values) + ")"


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding kernel_size blocks of (N, C, H, W) (or unbatched (C, H, W)) input as columns
    (N, C * prod(kernel_size), L), L blocks (torch's im2col)."""
    kernel, dilation, padding, stride = (_pair(v) for v in (kernel_size, dilation, padding, stride))
    _parse("im2col", input, kernel, dilation, padding, stride)
    kernel, dilation, padding, stride = (list(v) for v in (kernel, dilation, padding, stride))
    _window_checks("im2col", (("kernel_size", kernel), ("dilation", dilation), ("padding", padding),
                              ("stride", stride)), kernel, dilation, padding, stride)
    shape = list(input.shape)
    input.size(1), input.size(2)      # torch reads these first: its IndexError for fewer dims
    if not ((input.dim() == 3 and all(shape)) or (input.dim() == 4 and all(shape[1:]))):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {shape}")
    spatial = shape[-2:]
    out_size = [_conv._out_size(s, k, st, p, d) for s, k, st, p, d in zip(spatial, kernel, stride, padding, dilation)]
    if any(n < 1 for n in out_size):
        raise RuntimeError(f"Given input with spatial size {_tuple_text(spatial)}, kernel_size={_tuple_text(kernel)}, "
                           f"dilation={_tuple_text(dilation)}, padding={_tuple_text(padding)}, calculated shape of "
                           f"the array of sliding blocks as {_tuple_text(out_size)}, but its components must be at "
                           "least one.")
    _window_dtype("im2col", input)
    return _conv.Im2Col.apply(input, out_size, kernel, stride, padding, dilation)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Columns (N, C * prod(kernel_size), L) (or unbatched (C * prod(kernel_size), L)) summed back into
    an (N, C, *output_size) image: each block's values added at its positions (torch's col2im)."""
    size, kernel, dilation, padding, stride = (_pair(v) for v in (output_size, kernel_size, dilation, padding,
                                                                 stride))
    _parse("col2im", input, size, kernel, dilation, padding, stride)
    size, kernel, dilation, padding, stride = (list(v) for v in (size, kernel, dilation, padding, stride))
    _window_checks("col2im", (("output_size", size), ("kernel_size", kernel), ("dilation", dilation),
                              ("padding", padding), ("stride", stride)), kernel, dilation, padding, stride)
    shape = list(input.shape)
    if not ((input.dim() == 2 and all(shape)) or (input.dim() == 3 and all(shape[1:]))):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {shape}")
    k = kernel[0] * kernel[1]
    if shape[-2] % k != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={shape[-2]} and kernel_size={_tuple_text(kernel)}.")
    blocks = [(s + 2 * p - (d * (k - 1) + 1)) // st + 1 for s, k, st, p, d in zip(size, kernel, stride, padding,
                                                                                  dilation)]
    described = (f"Given output_size={_tuple_text(size)}, kernel_size={_tuple_text(kernel)}, "
                 f"dilation={_tuple_text(dilation)}, padding={_tuple_text(padding)}, stride={_tuple_text(stride)}, ")
    if shape[-1] != blocks[0] * blocks[1]:
        raise RuntimeError(described + "expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={shape[-1]}.")
    if any(b < 1 for b in blocks):
        raise RuntimeError(described + f"calculated shape of the array of sliding blocks as {_tuple_text(blocks)}, "
                           "which is too small (non-positive).")
    _window_dtype("col2im", input)
    return _conv.Col2Im.apply(input, size, blocks, kernel, stride, padding, dilation)


def _list_with_default(out_size, defaults):
    """An output size with None entries filled from the input's trailing sizes (torch's _list_with_default)."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def adaptive_avg_pool2d(input, output_size):
    """The mean over output_size windows that tile the input as evenly as they can."""
    out = _list_with_default(output_size, input.size())
    _parse("adaptive_avg_pool2d", input, out)
    if input.dim() not in (3, 4):
        raise RuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got " + str(list(input.shape)))
    out = [out, out] if isinstance(out, int) else list(out)
    if out == [1, 1]:
        return input.mean([-1, -2], keepdim=True)       # torch's own shortcut (MeanBackward1)
    return _conv.AdaptiveAvgPool.apply(input, out)


def adaptive_avg_pool1d(input, output_size):
    """The mean over output_size windows that tile (N, C, L) input: adaptive_avg_pool2d over (N, C, 1, L)."""
    _parse("adaptive_avg_pool1d", input, output_size)
    out = _one_int("adaptive_avg_pool1d", "output_size", output_size, input)
    return adaptive_avg_pool2d(input.unsqueeze(-2), [1] + out).squeeze(-2)


def adaptive_avg_pool3d(input, output_size):
    """The mean over output_size windows that tile (N, C, D, H, W) input as evenly as they can (torch's
    checks in its order: the output size, its 1x1x1 shortcut, then the input)."""
    out = _parse("adaptive_avg_pool3d", input, _list_with_default(output_size, input.size()))["output_size"]
    out = list(out)
    if len(out) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if any(v < 0 for v in out):
        raise RuntimeError("adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{out[0]}, {out[1]},{out[2]}}}")
    if out == [1, 1, 1]:
        return input.mean([-1, -2, -3], keepdim=True)       # torch's own shortcut (MeanBackward1)
    if input.dim() not in (4, 5):
        raise RuntimeError("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got " + str(list(input.shape)))
    _check_non_batch_sizes("adaptive_avg_pool3d", input)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"adaptive_avg_pool3d_cpu" not implemented for \'{input.dtype._scalar_name}\'')
    return _conv.AdaptiveAvgPool3D.apply(input, out)


def _adaptive_max_pool(input, output_size, dims, name):
    """torch's adaptive_max_pool{dims}d (its checks in its order): (values, indices)."""
    shape = list(input.shape)
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: {shape}")
    _check_non_batch_sizes(name, input)
    output_size = list(output_size)
    if len(output_size) != dims:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {dims}")
    for v in output_size:
        if v < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {v}: {shape[:-dims] + output_size}")
    if not input.dtype.is_floating_point:
        kernel = "adaptive_max_pool3d_cpu" if dims == 3 else name
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype._scalar_name}\'')
    op = _conv.AdaptiveMaxPool3D if dims == 3 else _conv.AdaptiveMaxPool
    return op.apply(input, output_size)


def _check_non_batch_sizes(name, input):
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {i} being empty")


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """The maximum over output_size windows that tile the input as evenly as they can, and where each
    is (a flat position in its input plane)."""
    output_size = _list_with_default(output_size, input.size())
    output_size = _parse("adaptive_max_pool2d", input, output_size)["output_size"]
    return _adaptive_max_pool(input, output_size, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d_with_indices over (N, C, D, H, W) input."""
    output_size = _list_with_default(output_size, input.size())
    output_size = _parse("adaptive_max_pool3d", input, output_size)["output_size"]
    return _adaptive_max_pool(input, output_size, 3, "adaptive_max_pool3d")


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d_with_indices over (N, C, 1, L), as torch's adaptive_max_pool1d."""
    _parse("adaptive_max_pool1d", input, output_size)
    out = _one_int("adaptive_max_pool1d", "output_size", output_size, input)
    _check_non_batch_sizes("adaptive_max_pool1d", input)
    values, indices = _adaptive_max_pool(input.unsqueeze(-2), [1] + out, 2, "adaptive_max_pool2d")
    return values.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The maximum over output_size windows that tile (N, C, L) input (and, with return_indices, where)."""
    result = adaptive_max_pool1d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maximum over output_size windows that tile the input (and, with return_indices, where)."""
    result = adaptive_max_pool2d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The maximum over output_size windows that tile (N, C, D, H, W) input (and, with return_indices, where)."""
    result = adaptive_max_pool3d_with_indices(input, output_size)
    return result if return_indices else result[0]


def _fractional_max_pool(input, kernel_size, output_size, samples, dims):
    """torch's fractional_max_pool{dims}d op (its checks in its order: the sizes, the input, the pool
    against the input, the output's allocation, the random samples, the dtype): (values, indices)."""
    name = f"fractional_max_pool{dims}d"
    v = _parse(name, input, kernel_size, output_size, samples)
    kernel, out = list(v["kernel_size"]), list(v["output_size"])
    three = "three " if dims == 3 else ""
    for what, sizes in (("kernel_size", kernel), ("output_size", out)):
        if len(sizes) != dims:
            raise RuntimeError(f"{name}: {what} must either be a single Int or tuple of {three}Ints")
    caller = f"{name}()" if dims == 2 else f"{name}_out()"
    shape = list(input.shape)
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{caller}: Expected {dims + 1}D or {dims + 2}D tensor, but got: {shape}")
    for i in range(1, input.dim()):
        if shape[i] == 0:
            raise RuntimeError(f"{caller}: Expected input to have non-zero size for non-batch dimensions, but "
                               f"got{shape} with dimension {i} being empty.")
    # torch's order: 2-D height then width (out + pool - 1 <= in); 3-D time, width, height (strictly less)
    checks = ((0, "height"), (1, "width")) if dims == 2 else ((0, "time"), (2, "width"), (1, "height"))
    for axis, what in checks:
        size, last = shape[input.dim() - dims + axis], out[axis] + kernel[axis] - 1
        if last > size or (dims == 3 and last == size):
            raise RuntimeError(f"{caller}: pool {what} {kernel[axis]} too large relative to input {what} {size}")
    for size in out:
        if size < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {size}: {shape[:-dims] + out}")
    samples = v["random_samples"]
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch = 1 if input.dim() == dims + 1 else shape[0]
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != shape[-dims - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got {samples.shape[2]}.")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{name}_out_frame" not implemented for \'{input.dtype._scalar_name}\'')
    op = _conv.FractionalMaxPool3D if dims == 3 else _conv.FractionalMaxPool
    return op.apply(input, kernel, out, samples)


def _fractional_output_size(input, output_size, output_ratio, dims):
    """torch's Python side of fractional pooling: output_size, or the input's size times output_ratio
    (truncated); torch's errors when neither is given or the ratio has too many entries."""
    name = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is not None:
        return output_size
    if dims == 2 and len(output_ratio) > 2:
        raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
    ratio = (_pair if dims == 2 else _triple)(output_ratio)
    return [int(input.size(d - dims) * ratio[d]) for d in range(dims)]


def _fractional_samples(input, samples, dims):
    """The random samples: the given ones, or torch's draw (one per dim for every plane, in the input's
    dtype, so that they are torch's after the same manual_seed)."""
    if samples is not None:
        return samples
    n_batch = 1 if input.dim() == dims + 1 else input.size(0)
    return minitorch.rand(n_batch, input.size(-dims - 1), dims, dtype=input.dtype, device=input.device)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """The maximum of kernel_size windows at pseudo-random steps that give output_size (or the input's size
    times output_ratio), and where each is (a flat position in its input plane)."""
    output_size = _fractional_output_size(input, output_size, output_ratio, 2)
    samples = _fractional_samples(input, _random_samples, 2)
    return _fractional_max_pool(input, kernel_size, output_size, samples, 2)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """fractional_max_pool2d_with_indices over (N, C, T, H, W) input."""
    output_size = _fractional_output_size(input, output_size, output_ratio, 3)
    samples = _fractional_samples(input, _random_samples, 3)
    return _fractional_max_pool(input, kernel_size, output_size, samples, 3)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The maximum of kernel_size windows at pseudo-random steps (and, with return_indices, where)."""
    result = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio,
                                                _random_samples=_random_samples)
    return result if return_indices else result[0]


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """fractional_max_pool2d over (N, C, T, H, W) input."""
    result = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio,
                                                _random_samples=_random_samples)
    return result if return_indices else result[0]


# ---- torch's top-level forms whose signatures are not F's (torch.max_pool2d, torch.adaptive_max_pool1d):
# its C++ ops, parsed as they are; the others (torch.conv2d, torch.avg_pool1d, ...) are F's functions ----


def _top_level_max_pool(name, pool):
    def max_pool(*args, **kwargs):
        v = _parse(name, *args, **kwargs)
        return pool(v["input"], v["kernel_size"], v["stride"] or None, v["padding"], v["dilation"], v["ceil_mode"])
    max_pool.__name__ = max_pool.__qualname__ = name
    max_pool.__doc__ = f"torch.{name}: F.{name} without return_indices (torch's op)."
    return max_pool


torch_max_pool1d = _top_level_max_pool("max_pool1d", max_pool1d)
torch_max_pool2d = _top_level_max_pool("max_pool2d", max_pool2d)
torch_max_pool3d = _top_level_max_pool("max_pool3d", max_pool3d)


def torch_adaptive_max_pool1d(*args, **kwargs):
    """torch.adaptive_max_pool1d: the maximum over output_size windows that tile (N, C, L) input and where
    each is, always both (torch's op)."""
    v = _parse("adaptive_max_pool1d", *args, **kwargs)
    return adaptive_max_pool1d_with_indices(v["input"], v["output_size"])


torch_adaptive_max_pool1d.__name__ = torch_adaptive_max_pool1d.__qualname__ = "adaptive_max_pool1d"

_REDUCTION_NAMES = {_native.NONE: "none", _native.MEAN: "mean", _native.SUM: "sum"}


def _top_level(name, call, doc):
    """torch.<name>, torch's C++ op: the call parsed with its signature, then call(values) (F's function)."""
    def op(*args, **kwargs):
        return call(_parse(name, *args, **kwargs))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


torch_batch_norm = _top_level("batch_norm", lambda v: batch_norm(
    v["input"], v["running_mean"], v["running_var"], v["weight"], v["bias"], v["training"], v["momentum"], v["eps"]),
    "torch.batch_norm: F.batch_norm with torch's argument order (weight and bias first) and cudnn_enabled.")
torch_layer_norm = _top_level("layer_norm", lambda v: layer_norm(
    v["input"], v["normalized_shape"], v["weight"], v["bias"], v["eps"]),
    "torch.layer_norm: F.layer_norm with cudnn_enable.")
torch_group_norm = _top_level("group_norm", lambda v: group_norm(
    v["input"], v["num_groups"], v["weight"], v["bias"], v["eps"]),
    "torch.group_norm: F.group_norm with cudnn_enabled.")
torch_instance_norm = _top_level("instance_norm", lambda v: instance_norm(
    v["input"], v["running_mean"], v["running_var"], v["weight"], v["bias"], v["use_input_stats"], v["momentum"],
    v["eps"]), "torch.instance_norm: F.instance_norm with torch's argument order and cudnn_enabled.")
torch_selu = _top_level("selu", lambda v: selu(v["input"]), "torch.selu: F.selu without inplace.")
torch_celu = _top_level("celu", lambda v: celu(v["input"], v["alpha"]), "torch.celu: F.celu without inplace.")
torch_threshold = _top_level("threshold", lambda v: threshold(v["input"], v["threshold"], v["value"]),
                             "torch.threshold: F.threshold without inplace.")
torch_rrelu = _top_level("rrelu", lambda v: _rrelu(v["input"], v["lower"], v["upper"], v["training"],
                                                   v["generator"], False),
                         "torch.rrelu: F.rrelu with a generator and without inplace.")
def _binary_cross_entropy_with_logits(v):
    # torch's op itself: no size check (its operands broadcast), its kernel's dtype error
    input = v["input"]
    if not (input.is_floating_point() or input.is_complex()):
        raise NotImplementedError(f"\"log_sigmoid_{input.device.type}\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    return _native.BinaryCrossEntropyWithLogits.apply(input, v["target"], v["weight"], v["pos_weight"],
                                                      v["reduction"])


torch_binary_cross_entropy_with_logits = _top_level(
    "binary_cross_entropy_with_logits", _binary_cross_entropy_with_logits,
    "torch.binary_cross_entropy_with_logits: the op F's calls after its size check, its reduction a number.")
torch_cosine_embedding_loss = _top_level("cosine_embedding_loss", lambda v: cosine_embedding_loss(
    v["input1"], v["input2"], v["target"], v["margin"], reduction=_REDUCTION_NAMES.get(v["reduction"], v["reduction"])),
    "torch.cosine_embedding_loss: F's, its reduction a number.")
torch_hinge_embedding_loss = _top_level("hinge_embedding_loss", lambda v: hinge_embedding_loss(
    v["input"], v["target"], v["margin"], reduction=_REDUCTION_NAMES.get(v["reduction"], v["reduction"])),
    "torch.hinge_embedding_loss: F's, its reduction a number.")
torch_margin_ranking_loss = _top_level("margin_ranking_loss", lambda v: margin_ranking_loss(
    v["input1"], v["input2"], v["target"], v["margin"], reduction=_REDUCTION_NAMES.get(v["reduction"], v["reduction"])),
    "torch.margin_ranking_loss: F's, its reduction a number.")
torch_triplet_margin_loss = _top_level("triplet_margin_loss", lambda v: triplet_margin_loss(
    v["anchor"], v["positive"], v["negative"], v["margin"], v["p"], v["eps"], v["swap"],
    reduction=_REDUCTION_NAMES.get(v["reduction"], v["reduction"])),
    "torch.triplet_margin_loss: F's, its reduction a number.")
torch_poisson_nll_loss = _top_level("poisson_nll_loss", lambda v: poisson_nll_loss(
    v["input"], v["target"], v["log_input"], v["full"], eps=v["eps"],
    reduction=_REDUCTION_NAMES.get(v["reduction"], v["reduction"])),
    "torch.poisson_nll_loss: F's, every argument required and the reduction a number.")
torch_embedding = _top_level("embedding", lambda v: embedding(
    v["indices"], v["weight"], v["padding_idx"] if v["padding_idx"] >= 0 else None,
    scale_grad_by_freq=v["scale_grad_by_freq"], sparse=v["sparse"]),
    "torch.embedding: F.embedding with weight first and padding_idx -1 for none.")
def _constant_pad_nd(v):
    # constant_pad_nd's own checks, in its words, before F.pad's constant mode
    input, sizes = v["input"], v["pad"]
    if len(sizes) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(sizes)}")
    if input.dim() < len(sizes) // 2:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(sizes)}while the input has {input.dim()}dimensions.")
    return pad(input, sizes, "constant", v["value"])


torch_constant_pad_nd = _top_level("constant_pad_nd", _constant_pad_nd, "torch.constant_pad_nd: F.pad's constant mode.")
torch_max_pool1d_with_indices = _top_level("max_pool1d_with_indices", lambda v: max_pool1d_with_indices(
    v["input"], v["kernel_size"], v["stride"] or None, v["padding"], v["dilation"], v["ceil_mode"]),
    "torch.max_pool1d_with_indices: F.max_pool1d_with_indices without return_indices.")


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, dims, size):
    """torch's power-average pooling, composed as torch composes it: (sum of x ** p over each window) ** (1 / p)
    through avg_pool{dims}d times the window's size (sign(out) * relu(|out|) keeps a zero sum's gradient
    zero); p = +-inf: max pooling of |x|."""
    max_pool, avg_pool = {1: (max_pool1d, avg_pool1d), 2: (max_pool2d, avg_pool2d), 3: (max_pool3d, avg_pool3d)}[dims]
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (minitorch.sign(out) * relu(minitorch.abs(out))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x ** norm_type over each kernel_size window of (N, C, L) input) ** (1 / norm_type)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x ** norm_type over each kernel_size window) ** (1 / norm_type)."""
    kw, kh = _pair(kernel_size)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, kw * kh)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x ** norm_type over each kernel_size window of (N, C, D, H, W) input) ** (1 / norm_type)."""
    kd, kw, kh = _triple(kernel_size)
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, kd * kw * kh)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """The unpooled spatial size: the pooling's input size, or output_size (with or without its leading two
    dims) when it is one a max pooling of these options maps onto input's size (torch's rule and errors)."""
    input_size = input.size()
    n = len(kernel_size)
    default_size = [(input_size[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(n):
            min_size, max_size = default_size[d] - stride[d], default_size[d] + stride[d]
            if not (min_size < output_size[d] < max_size):
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and '
                                 f'{max_size})')
        ret = output_size
    for d in range(n):
        if ret[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={ret[d]}")
    return ret


def _max_unpool(input, indices, output_size, dims):
    """torch's max_unpool2d / max_unpool3d kernels after their shape checks: the dtype, then the indices'
    range (the last bad one named, as torch's kernel reports it), then the scatter."""
    if input.numel() == 0:
        return _conv.MaxUnpool.apply(input, indices, output_size)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"max_unpool{dims}d" not implemented for \'{input.dtype._scalar_name}\'')
    plane = _conv._product(output_size)
    bad = ((indices < 0) | (indices >= plane)).flatten()
    if bad.any():
        index = indices.flatten()[bad.nonzero()[-1, 0]].item()
        raise RuntimeError(f"Found an invalid max index: {index} (output volumes are of size "
                           f"{'x'.join(str(v) for v in output_size)})")
    return (_conv.MaxUnpool3D if dims == 3 else _conv.MaxUnpool).apply(input, indices, output_size)


def _max_unpool2d(input, indices, output_size):
    """torch's max_unpool2d op (its checks in its order)."""
    output_size = list(_parse("max_unpool2d", input, indices, output_size)["output_size"])
    if indices.dtype != minitorch.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype._scalar_name}")
    if len(output_size) != 2:
        raise RuntimeError("There should be exactly two elements (height, width) in output_size, but got "
                           f"{len(output_size)} elements.")
    if input.dim() not in (3, 4):
        raise RuntimeError("Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    _check_unpool_shapes("max_unpooling2d_forward_out_cpu()", input, indices)
    return _max_unpool(input, indices, output_size, 2)


def _check_unpool_shapes(name, input, indices):
    if input.shape != indices.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) "
                           f"but got indices tensor with shape: {list(indices.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch dimensions, but got "
                               f"{list(input.shape)} with dimension {i} being empty.")


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool1d: zeros with each input value at its index (max_unpool2d over
    (N, C, L, 1), as torch's)."""
    kernel_size = _single(kernel_size)
    stride = _single(stride) if stride is not None else kernel_size
    padding = _single(padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    output_size = output_size + [1] if isinstance(output_size, list) else output_size + (1,)
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool2d: zeros with each input value at its index."""
    kernel_size = _pair(kernel_size)
    stride = _pair(stride) if stride is not None else kernel_size
    padding = _pair(padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool2d(input, indices, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool3d: zeros with each input value at its index."""
    kernel_size = _triple(kernel_size)
    stride = _triple(stride) if stride is not None else kernel_size
    padding = _triple(padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    args = _parse("max_unpool3d", input, indices, output_size, stride, padding)
    output_size, stride, padding = (list(args[k]) for k in ("output_size", "stride", "padding"))
    if indices.dtype != minitorch.int64:
        raise RuntimeError("elements in indices should be type int64")
    if input.dim() not in (4, 5):
        raise RuntimeError("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    for name, value in (("output_size", output_size), ("stride", stride), ("padding", padding)):
        if len(value) != 3:
            raise RuntimeError(f"There should be exactly three elements (depth, height, width) in {name}, but got"
                               f"{'' if name == 'output_size' else ':'} {len(value)} elements.")
    _check_unpool_shapes("max_unpooling3d_forward_out_cpu()", input, indices)
    if any(v <= 0 for v in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: {stride}")
    return _max_unpool(input, indices, output_size, 3)


# ---- normalisation --------------------------------------------------------------------------------------


def _check_param_dtypes(input, *params):
    """torch's CPU normalisation kernels' dtype checks (mixed_data_type.h): parameters of another dtype than
    the input are accepted only as float32 ones of a float16 or bfloat16 input (torch's mixed type; the
    parameters checked first); after the first defined parameter, one of yet another dtype fails the
    kernel's data access."""
    if input.device.type != "cpu":
        return
    defined = [p for p in params if p is not None]
    if not defined:
        return
    if defined[0].dtype != input.dtype:
        if any(p.dtype != minitorch.float32 for p in defined):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input.dtype not in (minitorch.float16, minitorch.bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    for p in defined:
        if p.dtype != input.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found {p.dtype._scalar_name}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalises each channel (dim 1) by the batch's mean and variance (training; the running
    statistics, when given, are updated in place) or by the running statistics (eval)."""
    if training:
        size = input.shape
        per_channel = size[0]
        for s in size[2:]:
            per_channel *= s
        if per_channel == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    channels = input.shape[1] if input.dim() > 1 else None
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if not training and t is None:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    _check_param_dtypes(input, weight, bias, running_mean, running_var)
    return _native.BatchNorm.apply(input, weight, bias, running_mean, running_var, training, momentum, eps)


def _check_normalized_shape(input, normalized_shape, params, separator=", ", meta=False):
    """torch's _check_layer_norm_inputs (and rms_norm's, whose message has no separator after the '*'):
    normalized_shape as a list, after checking that each (name, parameter) given has that shape and the input
    ends with it. `meta`: as layer_norm's meta function (native_layer_norm in torch/_refs) words them, with
    the shapes printed as a Size."""
    normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if not normalized_shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in params:
        if t is not None and list(t.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{t.shape if meta else list(t.shape)} and normalized_shape = {normalized_shape}")
    n = len(normalized_shape)
    if input.dim() < n or list(input.shape[input.dim() - n:]) != normalized_shape:
        if meta:
            raise RuntimeError(f"Given normalized_shape={normalized_shape}, expected input with shape "
                               f"{normalized_shape}, but got input of size {input.shape}")
        raise RuntimeError(f"Given normalized_shape={normalized_shape}, expected input with shape "
                           f"[*{separator}{', '.join(map(str, normalized_shape))}], but got input of "
                           f"size{list(input.shape)}")
    return normalized_shape


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the last len(normalized_shape) dims (which must be normalized_shape)."""
    _parse("layer_norm", input, normalized_shape, weight, bias, eps)
    normalized_shape = _check_normalized_shape(input, normalized_shape, (("weight", weight), ("bias", bias)),
                                               meta=input.is_meta)
    if input.is_meta:
        # torch's meta layer_norm is its Python reference: an integer input fails in its mean (mean's
        # message), and the parameters may have another dtype (the result keeps the input's)
        if not input.is_floating_point():
            input.mean(-1)
        weight = weight if weight is None else weight.to(input.dtype)
        bias = bias if bias is None else bias.to(input.dtype)
    _check_param_dtypes(input, weight, bias)
    _require_floating(input, "LayerNormKernelImpl")
    return _native.LayerNorm.apply(input, normalized_shape, weight, bias, eps)


def _verify_batch_size(size):
    per_channel = size[0]
    for s in size[2:]:
        per_channel *= s
    if per_channel == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalises each group of C / num_groups channels of each sample by its own mean and variance."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    _parse("group_norm", input, num_groups, weight, bias, eps, True)
    channels = input.shape[1]
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != channels):
            # torch's bias message prints the weight's shape ([0] without a weight)
            shown = [0] if weight is None else list(weight.shape)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, but "
                               f"got {name} of shape {shown} and input of shape {list(input.shape)}")
    _check_param_dtypes(input, weight, bias)
    return _native.GroupNorm.apply(input, weight, bias, num_groups, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalises each channel of each sample by its own statistics (torch's composition: batch_norm of the
    input viewed as one sample of N * C channels; running statistics averaged over the samples)."""
    if use_input_stats:
        size = input.size()
        spatial = 1
        for s in size[2:]:
            spatial *= s
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")
    _parse("instance_norm", input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    repeat = [None if t is None else t.repeat(b) for t in (weight, bias, running_mean, running_var)]
    shape = [1, b * c] + list(input.shape[2:])
    out = batch_norm(input.contiguous().view(shape), repeat[2], repeat[3], repeat[0], repeat[1], use_input_stats,
                     momentum, eps)
    with minitorch.no_grad():
        for stat, repeated in ((running_mean, repeat[2]), (running_var, repeat[3])):
            if stat is not None:
                stat.copy_(repeated.view(b, c).mean(0, False))
    return out.view(input.shape)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input**2) + eps) over the last len(normalized_shape) dims, times weight (eps None:
    the compute dtype's machine epsilon); torch's composition, in float32 for float16 and bfloat16."""
    _parse("rms_norm", input, normalized_shape, weight, eps)
    normalized_shape = _check_normalized_shape(input, normalized_shape, (("weight", weight),), separator="")
    _require_floating(input, "rms_norm")
    dims = [input.dim() - i - 1 for i in range(len(normalized_shape))]
    compute = minitorch.float32 if input.dtype in (minitorch.float16, minitorch.bfloat16) else input.dtype
    if eps is None:
        eps = 2.220446049250313e-16 if compute == minitorch.float64 else 1.1920928955078125e-07
    upcast = input.to(compute)
    result = upcast.mul(upcast.pow(2).mean(dims, keepdim=True).add_(eps).rsqrt()).type_as(input)
    if weight is not None:
        result = result.mul(weight)
    return result


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of the squares of the `size` neighbouring channels) ** beta (torch's
    composition; for inputs above 3-D the window's average is an avg_pool2d over the input viewed with its
    spatial dims flattened, where torch takes avg_pool3d: the same values and final node)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality{' ' * 26}input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        padded = div.shape
        div = avg_pool2d(div.view(padded[0], 1, padded[2], -1), (size, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ---- dropout ------------------------------------------------------------------------------------------


def _check_dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


_ALPHA_DROPOUT_ALPHA = 1.7580993408473766  # SELU's scale times its alpha, as torch writes it for alpha dropout


def _dropout(input, p, training, inplace, feature=False, alpha=False):
    """torch's CPU dropout (ATen's _dropout_impl): p == 0, eval mode or an empty input give the input itself;
    p == 1 the input times a zero; else a Bernoulli(1 - p) mask, one value per element or, for feature
    dropout, per channel (dim 1), and the input times it (MulBackward0). Plain dropout divides the mask by
    1 - p. Alpha dropout keeps the mean and variance SELU gives: with a = 1 / sqrt((alpha^2 p + 1)(1 - p)),
    the input times mask * a, plus (mask - 1) * alpha * a + alpha * a * p (AddBackward0). (torch's CUDA
    kernel for plain dropout is one fused op, NativeDropoutBackward0, with its own generator stream.)"""
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = minitorch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if not feature:
        noise = minitorch.empty_like(input)
    elif input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    else:
        noise = input.new_empty(list(input.shape[:2]) + [1] * (input.dim() - 2))
    noise.bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / math.sqrt((_ALPHA_DROPOUT_ALPHA * _ALPHA_DROPOUT_ALPHA * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_ALPHA_DROPOUT_ALPHA * a).add_(_ALPHA_DROPOUT_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(shift)


def _dropout_op(op, inplace, *args, **kwargs):
    """torch's op `op` (dropout, feature_dropout, alpha_dropout, feature_alpha_dropout), or its in-place
    form: its arguments parsed as torch parses them, then _dropout."""
    values = _parse(op + "_" if inplace else op, *args, **kwargs)
    return _dropout(values["self" if inplace else "input"], values["p"], values["train"], inplace, "feature" in op,
                    "alpha" in op)


def torch_dropout_op(op, inplace):
    """torch.dropout, torch.alpha_dropout_, ...: the op `op` (in place: `op`_) as torch has it at the top
    level, (input, p, train) with no defaults."""
    name = op + "_" if inplace else op

    def function(*args, **kwargs):
        return _dropout_op(op, inplace, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}(input, p, train): F.{op.replace('feature_dropout', 'dropout2d')}'s op."
    return function


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability p and scales the others by 1 / (1 - p) (training only)."""
    _check_dropout_p(p)
    return _dropout_op("dropout", inplace, input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and the result is
    scaled and shifted to keep the input's mean and variance (training only)."""
    _check_dropout_p(p)
    return _dropout_op("alpha_dropout", inplace, input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (dim 1)."""
    _check_dropout_p(p)
    return _dropout_op("feature_alpha_dropout", inplace, input, p, training)


def _unbatched_feature_dropout(input, p, training, inplace, batched):
    if batched:
        return _dropout_op("feature_dropout", inplace, input, p, training)
    return _dropout_op("feature_dropout", inplace, input.unsqueeze(0), p, training).squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, L) or (C, L) input."""
    _check_dropout_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, input.dim() == 3)


def _warn_feature_dims(name, input, spatial):
    if input.dim() not in (spatial + 1, spatial + 2):
        warnings.warn(f"{name}: Received a {input.dim()}-D input to {name}, which is deprecated and will result in "
                      "an error in a future release. To retain the behavior and silence this warning, please use "
                      f"dropout instead. Note that {name} exists to provide channel-wise dropout on inputs with "
                      f"{spatial} spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      f"{spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, H, W) input (a 3-D input is taken as (N, C, L), as torch does)."""
    _check_dropout_p(p)
    _warn_feature_dims("dropout2d", input, 2)
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _dropout_op("feature_dropout", inplace, input, p, training)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, D, H, W) or (C, D, H, W) input."""
    _check_dropout_p(p)
    _warn_feature_dims("dropout3d", input, 3)
    return _unbatched_feature_dropout(input, p, training, inplace, input.dim() == 5)


def _get_softmax_dim(name, ndim, stacklevel):
    """torch's implicit dim for a softmax called without one (deprecated, so it warns): 0 for 0-, 1- and
    3-D inputs, else 1."""
    warnings.warn(
        "Implicit dimension choice for {} has been deprecated. Change the call to include dim=X as an "
        "argument.".format(name),
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(input) / exp(input).sum(dim) along dim; ``dtype`` converts the input first. Without ``dim``,
    torch's deprecated implicit choice (with its warning)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(input, dim)), computed stably; ``dtype`` converts the input first. Without ``dim``,
    torch's deprecated implicit choice (with its warning)."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A sample from the Gumbel-softmax distribution over dim: softmax((logits + g) / tau) with g = -log(e),
    e standard exponential noise from the generator; hard=True gives the one-hot of its maximum with the
    soft sample's gradient (y_hard - y_soft.detach() + y_soft), as torch computes it."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    # (torch asks for legacy_contiguous_format: for a new tensor, contiguous strides)
    gumbels = -minitorch.empty_like(logits, memory_format=minitorch.contiguous_format).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = minitorch.zeros_like(logits, memory_format=minitorch.contiguous_format).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input, dim): the smallest elements along dim get the most weight."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


# ---- distances -------------------------------------------------------------------------------------------


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input divided by its p-norm along dim (at least eps)."""
    denom = input.norm(p, dim, keepdim=True)
    if out is None:
        return input / denom.clamp_min(eps).expand_as(input)
    return minitorch.div(input, denom.clamp_min_(eps).expand_as(input), out=out)


def cosine_similarity(*args, **kwargs):
    """cosine_similarity(x1, x2, dim=1, eps=1e-8): the cosine of the angle between x1 and x2 along dim
    (broadcast together), each divided by its norm (at least eps) first, as torch's composite does. (torch's
    own C++ op, so the call is parsed as given.)"""
    parsed = _parse("cosine_similarity", *args, **kwargs)
    x1, x2, dim, eps = parsed["x1"], parsed["x2"], parsed["dim"], parsed["eps"]
    common = minitorch.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common._scalar_name}")
    x1 = x1 if x1.is_floating_point() else x1.to(common)
    x2 = x2 if x2.is_floating_point() else x2.to(common)
    if x1.shape != x2.shape:
        x1, x2 = minitorch.broadcast_tensors(x1, x2)
    x1_norm = minitorch.linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    x2_norm = minitorch.linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with minitorch.no_grad():
        x1_norm.clamp_min_(eps)
        x2_norm.clamp_min_(eps)
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def pairwise_distance(*args, **kwargs):
    """pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False): the p-norm of x1 - x2 + eps along the last
    dim. (torch's own C++ op, so the call is parsed as given.)"""
    parsed = _parse("pairwise_distance", *args, **kwargs)
    x1, x2, p, eps, keepdim = (parsed[name] for name in ("x1", "x2", "p", "eps", "keepdim"))
    return _native.Norm.apply(x1 - x2 + eps, p, max(x1.dim(), x2.dim()) - 1, keepdim)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The Kullback-Leibler divergence of target from input (log-probabilities): target * (log(target) - input)
    (log_target: target given as log-probabilities); 'batchmean' divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction_enum = _reduction.legacy_get_enum(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        reduction_enum = _reduction.get_enum("sum" if reduction == "batchmean" else reduction)
    reduced = torch_kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def torch_kl_div(*args, **kwargs):
    """torch.kl_div: the op F.kl_div calls, its reduction a number (no 'batchmean', no warning)."""
    v = _parse("kl_div", *args, **kwargs)
    input, target, log_target = v["input"], v["target"], v["log_target"]
    if not input.is_floating_point() or not target.is_floating_point():
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        output = target.exp() * (target - input)
    else:
        output = _native.Xlogy.apply(target, target) - target * input
    return _native._reduce(output, v["reduction"])


# ---- indices and padding ---------------------------------------------------------------------------------


def one_hot(*args, **kwargs):
    """one_hot(input, num_classes=-1): an int64 tensor of input's shape plus one dim of num_classes (-1: input's
    largest value + 1) holding 1 at each index of input and 0 elsewhere. (torch's own C++ op, so the call is
    parsed as given.)"""
    parsed = _parse("one_hot", *args, **kwargs)
    input, num_classes = parsed["input"], parsed["num_classes"]
    if input.dtype != minitorch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    shape = list(input.shape)
    if input.device.type == "meta" and num_classes != -1:
        # torch's meta one_hot compares the indices with arange(num_classes): the shape only
        if num_classes < 0:
            raise RuntimeError("upper bound and lower bound inconsistent with step sign")
        return minitorch.empty(shape + [num_classes], dtype=input.dtype, device=input.device)
    if input.device.type == "meta":
        input.max().item()      # num_classes=-1 reads the largest index: torch's meta error
    if input.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return minitorch.empty(shape + [num_classes], dtype=input.dtype, device=input.device)
    if input.min().item() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = input.max().item() + 1
    elif num_classes <= input.max().item():
        raise RuntimeError("Class values must be smaller than num_classes.")
    result = minitorch.zeros(shape + [num_classes], dtype=input.dtype, device=input.device)
    return result.scatter_(-1, input.unsqueeze(-1), 1)


def pixel_shuffle(*args, **kwargs):
    """pixel_shuffle(input, upscale_factor): (*, C * r * r, H, W) rearranged to (*, C, H * r, W * r) (torch's C++
    op itself, so the call is parsed as given)."""
    parsed = _parse("pixel_shuffle", *args, **kwargs)
    input, factor = parsed["input"], parsed["upscale_factor"]
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {factor}")
    if input.shape[-3] % (factor * factor):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={input.shape[-3]} is not divisible by {factor * factor}")
    return _native.PixelShuffle.apply(input, factor)


def channel_shuffle(*args, **kwargs):
    """channel_shuffle(input, groups): (N, C, *) with its channels as a (groups, C / groups) grid read by
    columns (torch's C++ op itself, so the call is parsed as given)."""
    parsed = _parse("channel_shuffle", *args, **kwargs)
    input, groups = parsed["input"], parsed["groups"]
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if input.shape[1] % groups != 0:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {input.shape[1]} channels and "
                           f"{groups} groups.")
    return _native.ChannelShuffle.apply(input, groups)


def pixel_unshuffle(*args, **kwargs):
    """pixel_unshuffle(input, downscale_factor): (*, C, H * r, W * r) rearranged to (*, C * r * r, H, W) (torch's
    C++ op itself, so the call is parsed as given)."""
    parsed = _parse("pixel_unshuffle", *args, **kwargs)
    input, factor = parsed["input"], parsed["downscale_factor"]
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {factor}")
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={input.shape[dim]} is not divisible by {factor}")
    return _native.PixelUnshuffle.apply(input, factor)


# ---- resampling ---------------------------------------------------------------------------------------

_UPSAMPLE_NAMES = {1: "W", 2: "H, W", 3: "D, H, W"}


def _upsample(input, output_size, scale_factors, mode, align_corners):
    """torch's upsample_* ops after F.interpolate's parsing: the output size (from the scale factors, truncated,
    when none was given), torch's checks, then the op."""
    n = input.dim() - 2
    if output_size is None:
        output_size = [int(float(input.shape[2 + i]) * scale_factors[i]) for i in range(n)]
    else:
        scale_factors = None
    output_size = list(output_size)
    scales = list(scale_factors) if scale_factors is not None else [None] * n
    sizes = list(input.shape)
    if input.numel() == 0 and not all(sizes[1:]):
        raise RuntimeError(f"Non-empty {n + 2}D data tensor expected but got a tensor with sizes {sizes}")
    if not (all(s > 0 for s in sizes[2:]) and all(o > 0 for o in output_size)):
        letters = "DHW"[3 - n:]
        given = ", ".join(f"{a}: {b}" for a, b in zip(letters, sizes[2:]))
        wanted = ", ".join(f"{a}: {b}" for a, b in zip(letters, output_size))
        joint = ") and output (" if n == 1 else ") output ("
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}{joint}{wanted})")
    if mode in ("nearest", "nearest-exact"):
        _require_floating(input, "compute_indices_weights_nearest")
        return _native.UPSAMPLE_NEAREST[n, mode == "nearest-exact"].apply(input, output_size, scales)
    _require_floating(input, "compute_indices_weights_linear")
    return _native.UPSAMPLE_LINEAR[n].apply(input, output_size, align_corners, scales)


_LINEAR_MODES = {"linear": 3, "bilinear": 4, "trilinear": 5}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """input resampled to size (or scaled by scale_factor) over its spatial dims (input (N, C, d1, ...)):
    mode 'nearest', 'nearest-exact', 'linear' (3-D), 'bilinear' (4-D), 'trilinear' (5-D) or 'area' (4-D)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input with "
                                 f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                                 "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                                 "...,oK) format.")
            if not all(isinstance(x, int) or (isinstance(x, minitorch.Tensor) and not x.is_floating_point())
                       for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(x) for x in size]}")
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [math.floor(float(input.size(i + 2) * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    if antialias or mode in ("bicubic", "lanczos"):
        raise NotImplementedError(f"interpolate(mode={mode!r}, antialias={antialias}) is not supported by minitorch yet")
    if input.dim() in (3, 4, 5) and mode in ("nearest", "nearest-exact"):
        return _upsample(input, output_size, scale_factors, mode, None)
    if mode == "area" and input.dim() == 4:
        return adaptive_avg_pool2d(input, output_size)
    if mode == "area" and input.dim() in (3, 5):
        raise NotImplementedError(f"interpolate(mode='area') of a {input.dim()}-D input is not supported by minitorch "
                                  "yet")
    if mode in _LINEAR_MODES and input.dim() == _LINEAR_MODES[mode]:
        return _upsample(input, output_size, scale_factors, mode, align_corners)
    wanted = {"linear": "3D", "bilinear": "4D", "trilinear": "5D"}
    if mode in wanted and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {wanted[mode]} input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the "
                              "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                              f"(got {mode})")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated: interpolate, with torch's warning."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='nearest'), with torch's warning."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='bilinear', align_corners=True), with torch's warning."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input, pad, mode="constant", value=None):
    """input padded on its last len(pad) / 2 dims, pad = (before_last, after_last, before_second_last, ...);
    mode 'constant' (with value, default 0; negative pads cut), 'reflect', 'replicate' or 'circular'
    (these three on the last 1, 2 or 3 dims of a batched or unbatched input)."""
    # value is a double, as torch's: -1 fills a uint8 input only after the overflow check of -1.0, which fails
    value = _parse("pad", input, pad, mode, value)["value"]
    pad = list(pad)
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > input.dim() * 2:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if mode == "constant":
        return _padding.ConstantPadNd.apply(input, pad, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    n = len(pad) // 2
    if n not in (1, 2, 3) or input.dim() not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "reflect":
        return _padding.reflection_pad(input, pad)
    if mode == "replicate":
        return _padding.replication_pad(input, pad)
    return _padding.circular_pad(input, pad)


# ---- attention ------------------------------------------------------------------------------------------


def scaled_dot_product_attention(*args, **kwargs):
    """softmax(query @ key^T * scale + attn_mask) @ value over the last two dims, with dropout on the
    attention weights; a bool mask keeps its True positions; is_causal keeps the lower triangle.
    Runs what torch's CPU build runs (its flash kernel or its math composition, chosen by torch's rules)."""
    # (query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None, enable_gqa=False),
    # parsed as torch's C++ op parses them
    args = _parse("scaled_dot_product_attention", *args, **kwargs)
    return _attention.scaled_dot_product_attention(
        args["query"], args["key"], args["value"], args["attn_mask"], args["dropout_p"], args["is_causal"],
        args["scale"], args["enable_gqa"])


# torch.nn.functional's multi-head attention and its helpers (the transformer layers call the helpers too)
multi_head_attention_forward = _attention.multi_head_attention_forward
_mha_shape_check = _attention.mha_shape_check
_canonical_mask = _attention.canonical_mask
_none_or_dtype = _attention.none_or_dtype
_in_projection_packed = _attention.in_projection_packed
_in_projection = _attention.in_projection


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)


# ---- spatial transformers --------------------------------------------------------------------------------


def _warn_align_corners_default():
    warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.", stacklevel=3)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps theta (N, 2, 3) (or (N, 3, 4)) for
    an output of the given size, for grid_sample."""
    if align_corners is None:
        _warn_align_corners_default()
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _grid_sample.AffineGridGenerator.apply(theta, [int(s) for s in size], align_corners)


_GRID_MODES = {"bilinear": _grid_sample.BILINEAR, "nearest": _grid_sample.NEAREST, "bicubic": _grid_sample.BICUBIC}
_GRID_PADDINGS = {"zeros": _grid_sample.ZEROS, "border": _grid_sample.BORDER, "reflection": _grid_sample.REFLECTION}


def _grid_sampler_checks(input, grid, mode):
    """torch's grid_sampler checks (GridSamplerUtils.h) in its order."""
    if input.device != grid.device:
        raise RuntimeError("grid_sampler(): expected input and grid to be on same device, but input is on "
                           f"{input.device} and grid is on {grid.device}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but "
                           f"got grid with sizes {list(grid.shape)}")
    for i in range(2, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")
    rank = 4 if input.dim() == 4 else 5
    if mode == _grid_sample.BICUBIC and input.dim() != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dim() != rank or grid.dim() != rank:
        raise RuntimeError(f"grid_sampler(): expected {rank}D input and grid with same number of dimensions, but "
                           f"got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if not input.is_floating_point():
        kernel = "grid_sampler_2d_cpu_kernel_impl" if rank == 4 else "grid_sampler3d_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype._scalar_name}\'')
    if grid.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._scalar_name} but found {grid.dtype._scalar_name}")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """The input (N, C, H, W) (or (N, C, D, H, W)) read at the grid's positions (N, H_out, W_out, 2), x then
    y in [-1, 1], interpolated by mode, outside the input by padding_mode."""
    if mode not in _GRID_MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in _GRID_PADDINGS:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        _warn_align_corners_default()
        align_corners = False
    mode_enum, padding_enum = _GRID_MODES[mode], _GRID_PADDINGS[padding_mode]
    _parse("grid_sampler", input, grid, mode_enum, padding_enum, align_corners)
    _grid_sampler_checks(input, grid, mode_enum)
    op = _grid_sample.GridSampler3D if input.dim() == 5 else _grid_sample.GridSampler
    return op.apply(input, grid, mode_enum, padding_enum, align_corners)


# torch's names for the pooling functions that always return the indices too
def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """max_pool1d's values and where each maximum is: torch's op of that name, a rank check and then
    max_pool2d_with_indices over (N, C, 1, L) (its checks, its dtypes)."""
    _parse("max_pool1d_with_indices", input, kernel_size, [] if stride is None else stride, padding, dilation,
           ceil_mode)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for max_pool1d)")
    kernel = _tuple(kernel_size, 1, "kernel_size")
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(
        stride, 1, "stride")
    padding, dilation = _tuple(padding, 1, "padding"), _tuple(dilation, 1, "dilation")
    values, indices = _max_pool(input.unsqueeze(-2), [1] + kernel, [1] + stride, [0] + padding, [1] + dilation,
                                ceil_mode, True, 2)
    return values.squeeze(-2), indices.squeeze(-2)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """max_pool2d's values and where each maximum is."""
    _parse("max_pool2d_with_indices", input, kernel_size, [] if stride is None else stride, padding, dilation,
           ceil_mode)
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """max_pool3d's values and where each maximum is."""
    input.is_cuda   # torch's Python wrapper reads this first: a non-tensor fails with AttributeError
    _parse("max_pool3d_with_indices", input, kernel_size, [] if stride is None else stride, padding, dilation,
           ceil_mode)
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 3)
