"""Convolution layers: the weight (out_channels, in_channels / groups, *kernel_size) and bias as
parameters, initialised as torch does (He-uniform with a = sqrt(5), bias uniform in +-1/sqrt(fan_in), in
that order, so the values match torch's after manual_seed), applied by functional.conv1d/2d/3d; the
transposed layers keep a weight (in_channels, out_channels / groups, *kernel_size) and apply
functional.conv_transpose1d/2d/3d. LazyConv1d/2d/3d take in_channels from their first input."""

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.lazy import LazyModuleMixin
from minitorch.nn.modules.module import Module
from minitorch.nn.modules.utils import _ntuple
from minitorch.nn.parameter import Parameter, UninitializedParameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d",
           "LazyConv2d", "LazyConv3d"]

# sets, as torch's messages print them
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}
_PADDING_STRINGS = {"same", "valid"}


class _ConvNd(Module):
    __constants__ = ["stride", "padding", "dilation", "groups", "padding_mode", "output_padding", "in_channels",
                     "out_channels", "kernel_size"]
    dims = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None, transposed=False, output_padding=0):
        super().__init__()
        n = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in _ntuple(n)(stride)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(n)(kernel_size), _ntuple(n)(stride)
        self.padding = padding if isinstance(padding, str) else _ntuple(n)(padding)
        self.dilation = _ntuple(n)(dilation)
        self.transposed, self.output_padding = transposed, _ntuple(n)(output_padding)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = self._padding_for_pad(n, padding, self.kernel_size, self.dilation)
        factory = {"device": device, "dtype": dtype}
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(minitorch.empty(shape + self.kernel_size, **factory))
        if bias:
            self.bias = Parameter(minitorch.empty(out_channels, **factory))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    @staticmethod
    def _padding_for_pad(n, padding, kernel_size, dilation):
        """The padding as functional.pad takes it (last dim first, before and after), for the padding modes
        other than 'zeros'; 'same' puts the odd element after, as torch does (a list for a padding string)."""
        if not isinstance(padding, str):
            return tuple(p for p in reversed(_ntuple(n)(padding)) for _ in range(2))     # a tuple, as torch's
        pads = [0, 0] * n
        if padding == "same":
            for i, (d, k) in enumerate(zip(reversed(dilation), reversed(kernel_size))):
                total = d * (k - 1)
                pads[2 * i], pads[2 * i + 1] = total // 2, total - total // 2
        return pads

    def _conv_forward(self, input, weight, bias):
        """functional.conv{n}d with the layer's options; a padding mode other than 'zeros' pads with
        functional.pad first and convolves without padding, as torch's layers do."""
        functional = getattr(F, f"conv{self.dims}d")
        if self.padding_mode != "zeros":
            return functional(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight,
                              bias, self.stride, (0,) * self.dims, self.dilation, self.groups)
        return functional(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"

    def reset_parameters(self):
        """torch's initialisation: He-uniform weight (a = sqrt(5)), then the bias uniform in +-1/sqrt(fan_in)."""
        init._reset_weight_and_bias(self.weight, self.bias)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr (non-defaults only, past stride)."""
        n = self.dims
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-D convolution over (N, C, L) input."""

    dims = 1

    def forward(self, input):
        """The convolution of input with the layer's weight and bias."""
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C, H, W) input."""

    dims = 2

    def forward(self, input):
        """The convolution of input with the layer's weight and bias."""
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C, D, H, W) input."""

    dims = 3

    def forward(self, input):
        """The convolution of input with the layer's weight and bias."""
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    """The adjoint of a convolution (a "deconvolution"): each input element spreads the kernel onto the
    output, which grows by the stride."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        padding = _ntuple(self.dims)(padding)       # torch's transposed layers take no padding string
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode,
                         device, dtype, transposed=True, output_padding=output_padding)

    def _output_padding(self, input, output_size):
        """output_padding, or the one that gives the requested output_size (torch's rule and errors)."""
        if output_size is None:
            return self.output_padding
        n = self.dims
        leading = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == leading + n:
            output_size = output_size[leading:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or {leading + n} "
                             f"elements (got {len(output_size)})")
        smallest = [(input.size(d + leading) - 1) * self.stride[d] - 2 * self.padding[d] +
                    self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        largest = [low + self.stride[d] - 1 for d, low in enumerate(smallest)]
        for size, low, high in zip(output_size, smallest, largest):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                                 f"to {largest} (for an input of {input.size()[2:]})")
        return [size - low for size, low in zip(output_size, smallest)]

    def forward(self, input, output_size=None):
        """The transposed convolution of input (output_size picks the output padding)."""
        if self.padding_mode != "zeros":
            raise ValueError(f"Only `zeros` padding mode is supported for {type(self).__name__}")
        functional = getattr(F, f"conv_transpose{self.dims}d")
        return functional(input, self.weight, self.bias, self.stride, self.padding,
                          self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C, L) input."""

    dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C, H, W) input."""

    dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C, D, H, W) input."""

    dims = 3


class _LazyConvXdMixin(LazyModuleMixin):
    """in_channels from the first input (its dim 1, or 0 unbatched), then the convolution's own initialisation."""

    def _init_lazy(self, out_channels, bias, factory):
        self.weight = UninitializedParameter(**factory)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory)

    def reset_parameters(self):
        """The convolution's initialisation, once the shapes are known."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def _get_in_channels(self, input):
        unbatched = self.dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                               f"{self.__class__.__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]

    def initialize_parameters(self, input, *args, **kwargs):
        """The weight (out_channels, in_channels / groups, *kernel_size) and the bias."""
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


def _lazy_conv(base):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        factory = {"device": device, "dtype": dtype}
        LazyModuleMixin.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                                 **factory)
        self._init_lazy(out_channels, bias, factory)

    name = "Lazy" + base.__name__
    return type(name, (_LazyConvXdMixin, base), {
        "cls_to_become": base, "__init__": __init__, "__module__": __name__,
        "__doc__": f"A {base.__name__} whose in_channels the first input decides; it then becomes a {base.__name__}."})


LazyConv1d = _lazy_conv(Conv1d)
LazyConv2d = _lazy_conv(Conv2d)
LazyConv3d = _lazy_conv(Conv3d)
