"""Normalisation layers: BatchNorm1d/2d/3d and their lazy forms (num_features from the first input) (learnable weight and bias, running statistics as buffers,
updated in training mode with momentum or, momentum=None, a cumulative average), InstanceNorm1d/2d/3d (the
same parameters and buffers, statistics per sample), LayerNorm, GroupNorm, RMSNorm and LocalResponseNorm."""

import numbers
import warnings

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.lazy import LazyModuleMixin
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
           "LayerNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "GroupNorm", "RMSNorm", "LocalResponseNorm"]


def _affine_parameters(module, shape, affine, bias, device, dtype):
    """LayerNorm's and GroupNorm's learnable weight and bias of `shape` (registered as None when the layer
    is not affine, or has no bias)."""
    if affine:
        module.weight = Parameter(minitorch.empty(shape, device=device, dtype=dtype))
        if bias:
            module.bias = Parameter(minitorch.empty(shape, device=device, dtype=dtype))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def _reset_affine(weight, bias):
    """The weight ones and the bias zeros (each when there is one)."""
    if weight is not None:
        init.ones_(weight)
    if bias is not None:
        init.zeros_(bias)

class _BatchNorm(Module):
    _version = 2
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, num_features, affine, bias, device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", minitorch.zeros(num_features, **factory))
            self.register_buffer("running_var", minitorch.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked", minitorch.tensor(0, dtype=minitorch.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        """Running mean 0, running variance 1, no batches seen."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        """The running statistics reset, the weight ones and the bias zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def extra_repr(self):
        """The options, as torch prints them."""
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")

    def forward(self, input):
        """The normalised input (in training mode the running statistics take in this batch's)."""
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                            self.weight, self.bias, use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) input."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) input."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) input."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class _LazyNormBase(LazyModuleMixin, _BatchNorm):
    """A batch norm whose num_features the first input's dim 1 decides."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        factory = {"device": device, "dtype": dtype}
        super().__init__(0, eps, momentum, False, False, **factory)
        self.affine, self.track_running_stats = affine, track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(**factory)
            if bias:
                self.bias = UninitializedParameter(**factory)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(**factory)
            self.running_var = UninitializedBuffer(**factory)
            self.num_batches_tracked = minitorch.tensor(0, dtype=minitorch.int64, device=device)

    def reset_parameters(self):
        """The batch norm's initialisation, once the shapes are known."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        """num_features from the input's dim 1."""
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A BatchNorm1d whose num_features the first input decides."""

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A BatchNorm2d whose num_features the first input decides."""

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A BatchNorm3d whose num_features the first input decides."""

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


class LayerNorm(Module):
    """Normalisation over the last dims (normalized_shape), with a learnable elementwise weight and bias."""

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """The weight ones and the bias zeros."""
        _reset_affine(self.weight, self.bias)

    def forward(self, input):
        """The input normalised over its last dims."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        """The options, as torch prints them."""
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_BatchNorm):
    """Normalisation of each channel of each sample; the running statistics (track_running_stats) are the
    samples' average."""

    dims = None

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input):
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        """The normalised input (an unbatched input as a batch of one)."""
        self._check_input_dim(input)
        feature_dim = input.dim() - (self.dims + 1)
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if input.dim() == self.dims + 1:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) input."""

    dims = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) input."""

    dims = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W) input."""

    dims = 3


class GroupNorm(Module):
    """Normalisation over groups of channels of each sample, with a learnable per-channel weight and bias."""

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _affine_parameters(self, num_channels, affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """The weight ones and the bias zeros."""
        _reset_affine(self.weight, self.bias)

    def forward(self, input):
        """group_norm of input."""
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        """The options, as torch prints them."""
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Division by the root mean square over the last dims (normalized_shape), with a learnable weight."""

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(minitorch.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        """The weight ones."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        """rms_norm of x."""
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        """The options, as torch prints them."""
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    """Division by a power of the mean square over neighbouring channels."""

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        """local_response_norm of input."""
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        """The options, as torch prints them."""
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
