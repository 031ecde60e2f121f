"""nn.functional: the stateless forms of the layers: ``linear``, the activations (``softmax`` and
``log_softmax`` too) and the losses.

This file owns how each function maps onto the C core's tensor ops and the ops of nn/_native.py and
nn/_conv.py, choosing what torch's own function would call so that results, nodes and error messages
match: a function that stands for one of torch's C++ ops parses its arguments with that op's signature
(torch's TypeError for a wrong one), then makes torch's checks in torch's order. It keeps no state.
"""

import warnings

import minitorch
from minitorch import _C
from minitorch.nn import _attention, _conv, _native, _reduction

__all__ = ["linear", "relu", "relu_", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus",
           "hardtanh", "relu6", "logsigmoid", "hardswish", "hardsigmoid", "tanh", "sigmoid", "mse_loss", "l1_loss",
           "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "dropout",
           "dropout1d", "dropout2d", "dropout3d", "nll_loss", "conv1d", "conv2d", "max_pool2d", "avg_pool2d",
           "adaptive_avg_pool2d", "batch_norm", "layer_norm", "softmax", "log_softmax", "cross_entropy", "embedding",
           "scaled_dot_product_attention", "multi_head_attention_forward"]


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
    "feature_dropout": ["feature_dropout(Tensor input, double p, bool train)"],
    "nll_loss_nd": ["nll_loss_nd(Tensor input, Tensor target, Tensor? weight=None, int64_t reduction=1, "
                    "SymInt ignore_index=-100)"],
    "cross_entropy_loss": ["cross_entropy_loss(Tensor input, Tensor target, Tensor? weight=None, int64_t reduction=1, "
                           "SymInt ignore_index=-100, double label_smoothing=0.0)"],
    "embedding": ["embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
                  "bool sparse=False)"],
    "layer_norm": ["layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, Tensor? bias=None, "
                   "double eps=1e-05, bool cudnn_enable=True)"],
    "avg_pool2d": ["avg_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=None, "
                   "IntArrayRef[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
                   "int64_t? divisor_override=None)"],
    "max_pool2d": ["max_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=[], "
                   "IntArrayRef[2] padding=0, IntArrayRef[2] dilation=1, bool ceil_mode=False)"],
    "adaptive_avg_pool2d": ["adaptive_avg_pool2d(Tensor input, SymIntArrayRef[2] output_size)"],
    "conv1d": ["conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, "
               "SymIntArrayRef[1] padding=0, SymIntArrayRef[1] dilation=1, SymInt groups=1)",
               "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, "
               "c10::string_view padding=\"valid\", SymIntArrayRef[1] dilation=1, SymInt groups=1)"],
    "conv2d": ["conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, "
               "SymIntArrayRef[2] padding=0, SymIntArrayRef[2] dilation=1, SymInt groups=1)",
               "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, "
               "c10::string_view padding=\"valid\", SymIntArrayRef[2] dilation=1, SymInt groups=1)"],
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
    return _activation(_native.LeakyRelu, input, (negative_slope,), inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _parse("elu_" if inplace else "elu", input, alpha)
    return _activation(_native.Elu, input, (alpha, 1.0, 1.0), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(x, alpha) with the self-normalising constants."""
    _parse("selu", input)
    return _activation(_native.Elu, input, (_SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def celu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""
    _parse("celu", input, alpha)
    return _activation(_native.Celu, input, (alpha, 1.0, 1.0 / alpha), inplace)


def gelu(input, approximate="none"):
    """x * Phi(x), Phi the standard normal CDF (approximate='tanh': torch's tanh approximation)."""
    _parse("gelu", input, approximate=approximate)
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _native.Gelu.apply(input, approximate)


def silu(input, inplace=False):
    """x * sigmoid(x)."""
    _parse("silu", input)
    return _activation(_native.Silu, input, (), inplace)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    _parse("mish", input)
    return _activation(_native.Mish, input, (), inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, linear above threshold."""
    _parse("softplus", input, beta, threshold)
    return _native.Softplus.apply(input, beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """clamp(x, min_val, max_val)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    _parse("hardtanh_" if inplace else "hardtanh", input, min_val, max_val)
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
    return _native.LogSigmoid.apply(input)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    _parse("hardswish", input)
    return _activation(_native.Hardswish, input, (), inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    _parse("hardsigmoid", input)
    return _activation(_native.Hardsigmoid, input, (), inplace)


def tanh(input):
    """tanh(x) (the Tensor method)."""
    return input.tanh()


def sigmoid(input):
    """1 / (1 + exp(-x)) (the Tensor method)."""
    return input.sigmoid()


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
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if target.dtype not in (minitorch.int64,):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._scalar_name}")
    n_classes = input.shape[0] if input.dim() == 1 else input.shape[1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}")
    if input.dim() == 1:
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    elif input.dim() == 2 and target.dim() != 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif input.dim() > 2 and list(target.shape) != [input.shape[0]] + list(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got "
                           f"{list(target.shape)}")
    _check_targets(target, n_classes, ignore_index)
    if input.dim() <= 2:
        return _native.NllLoss.apply(input, target, weight, reduction_enum, ignore_index)
    if input.dim() == 4:
        return _native.NllLoss2d.apply(input, target, weight, reduction_enum, ignore_index)
    # torch's nll_loss_nd: other ranks go through the 2-D kernel as (N, C, 1, -1)
    n = input.shape[0]
    empty = input.numel() == 0
    as_4d = input.contiguous().view(n, n_classes, 0 if empty else 1, 0 if empty else -1)
    as_3d = target.contiguous().view(n, 0 if target.numel() == 0 else 1, 0 if target.numel() == 0 else -1)
    result = _native.NllLoss2d.apply(as_4d, as_3d, weight, reduction_enum, ignore_index)
    return result.view([n] + list(input.shape[2:])) if reduction_enum == _native.NONE else result


def _check_targets(target, n_classes, ignore_index):
    """torch's IndexError for the first class index outside [0, n_classes) (ignore_index aside)."""
    classes = minitorch.where(target != ignore_index, target, 0)
    if bool((classes < 0).any()) or bool((classes >= n_classes).any()):
        for t in target.tolist():
            if t != ignore_index and not 0 <= t < n_classes:
                raise IndexError(f"Target {t} is out of bounds.")


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
    return nll_loss(input.log_softmax(class_dim), target, weight, None, ignore_index, None, reduction)


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
        raise NotImplementedError("embedding(max_norm=) is not supported by minitorch yet")
    if sparse:
        raise NotImplementedError("embedding(sparse=True) is not supported by minitorch (it has no sparse tensors)")
    if input.dtype not in (minitorch.int64, minitorch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    if input.numel() and (bool((input < 0).any()) or bool((input >= weight.shape[0]).any())):
        raise IndexError("index out of range in self")
    return _native.Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)


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


def _convolution(input, weight, bias, stride, padding, dilation, groups, dims):
    name = f"conv{dims}d"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == dims + 1:
        return _convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, dims).squeeze(0)
    # the parser makes stride and dilation lists of the op's dims; the kernel checks them against the weight's
    stride = _tuple(_tuple(stride, dims, "stride"), weight.dim() - 2, "stride")
    dilation = _tuple(_tuple(dilation, dims, "dilation"), weight.dim() - 2, "dilation")
    if weight.dim() != dims + 2:
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight "
                           f"{list(weight.shape)}, but got {input.dim()}-dimensional input of size "
                           f"{list(input.shape)} instead")
    kernel = list(weight.shape[2:])
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
    if any(v < 0 for v in padding):
        raise RuntimeError("negative padding is not supported")
    if weight.shape[0] % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{list(weight.shape)}] instead")
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
                           f"input{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
                           f"{input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    padded = [s + 2 * p for s, p in zip(input.shape[2:], padding)]
    effective = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
    if any(p < e for p, e in zip(padded, effective)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, effective))}). Kernel size can't be greater than actual "
                           "input size")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the same or "
                           "input should be a MKLDNN tensor and weight is a dense tensor")
    return _conv.Convolution.apply(input, weight, bias, stride, padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution of (N, C, L) input with weight (O, C / groups, k)."""
    _parse("conv1d", input, weight, bias, stride, padding, dilation, groups)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution of (N, C, H, W) input with weight (O, C / groups, kh, kw)."""
    _parse("conv2d", input, weight, bias, stride, padding, dilation, groups)
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode, name):
    if input.dim() not in (3, 4):
        raise RuntimeError(f"non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel = _tuple(kernel_size, 2, "kernel_size")
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(
        stride, 2, "stride")
    padding, dilation = _tuple(padding, 2, "padding"), _tuple(dilation, 2, "dilation")
    if any(v <= 0 for v in stride):
        raise RuntimeError(f"{name}: stride must be greater than zero, but got {stride}")
    for p, k, d in zip(padding, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    out = [_conv._out_size(s, k, st, p, d, ceil_mode) for s, k, st, p, d in
           zip(input.shape[-2:], kernel, stride, padding, dilation)]
    if any(n < 1 for n in out):
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")
    return kernel, stride, padding, dilation


def _batched(fn, input, *args):
    """fn on a 4-D input; a 3-D (unbatched) input goes through as a batch of one."""
    if input.dim() == 3:
        return fn(input.unsqueeze(0), *args).squeeze(0)
    return fn(input, *args)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each kernel_size window (and, with return_indices, where it is)."""
    _parse("max_pool2d", input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode)
    kernel, stride, padding, dilation = _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode,
                                                   "max_pool2d")
    values = _conv.MaxPool.apply(input, kernel, stride, padding, dilation, ceil_mode)
    if return_indices:
        return values, _batched(_conv.max_pool_indices, input, kernel, stride, padding, dilation, ceil_mode)
    return values


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window."""
    _parse("avg_pool2d", input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    kernel, stride, padding, _ = _pool_args(input, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return _conv.AvgPool.apply(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)


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


# ---- normalisation --------------------------------------------------------------------------------------


def _check_param_dtypes(input, *params):
    """torch's CPU normalisation kernels' dtype checks: parameters of another dtype than the input are
    accepted only as float32 ones of a reduced-precision input (which minitorch lacks); after the first
    defined parameter, one of yet another dtype fails the kernel's data access."""
    if input.device.type != "cpu":
        return
    defined = [p for p in params if p is not None]
    if not defined:
        return
    if defined[0].dtype != input.dtype:
        if any(p.dtype != minitorch.float32 for p in defined):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
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
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    _check_param_dtypes(input, weight, bias, running_mean, running_var)
    return _native.BatchNorm.apply(input, weight, bias, running_mean, running_var, training, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the last len(normalized_shape) dims (which must be normalized_shape)."""
    _parse("layer_norm", input, normalized_shape, weight, bias, eps)
    normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {normalized_shape}")
    n = len(normalized_shape)
    if input.dim() < n or list(input.shape[input.dim() - n:]) != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={normalized_shape}, expected input with shape "
                           f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{list(input.shape)}")
    _check_param_dtypes(input, weight, bias)
    return _native.LayerNorm.apply(input, normalized_shape, weight, bias, eps)


# ---- dropout ------------------------------------------------------------------------------------------


def _check_dropout_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout(input, p, training, inplace, noise_shape):
    """torch's CPU dropout: a Bernoulli(1 - p) mask of noise_shape (the input's, or one value per channel),
    divided by 1 - p, times the input (MulBackward0). p == 0, eval mode or an empty input: the input itself.
    (torch's CUDA kernel is one fused op, NativeDropoutBackward0, with its own generator stream.)"""
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = minitorch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if noise_shape is None:
        noise = minitorch.empty_like(input)
    else:
        noise = minitorch.empty(noise_shape, dtype=input.dtype, device=input.device)
    noise.bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability p and scales the others by 1 / (1 - p) (training only)."""
    _check_dropout_p(p)
    _parse("dropout", input, p, training)
    return _dropout(input, p, training, inplace, None)


def _feature_dropout(input, p, training, inplace):
    """Zeroes whole channels (dim 1) with probability p, as torch's feature_dropout."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _dropout(input, p, training, inplace, list(input.shape[:2]) + [1] * (input.dim() - 2))


def _unbatched_feature_dropout(input, p, training, inplace, batched):
    if batched:
        return _feature_dropout(input, p, training, inplace)
    return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


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
    return _feature_dropout(input, p, training, inplace)


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
