"""Pooling layers: modules around functional's max_pool1d/2d/3d, avg_pool1d/2d/3d and
adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d/3d, lp_pool1d/2d/3d, max_unpool1d/2d/3d and
fractional_max_pool2d/3d that keep the window options and print them as torch does."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module
from minitorch.nn.modules.utils import _pair, _single, _triple

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "LPPool1d", "LPPool2d", "LPPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "FractionalMaxPool2d",
           "FractionalMaxPool3d"]


class MaxPool2d(Module):
    """The maximum of each window (stride defaults to the kernel size)."""

    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"]

    function = staticmethod(F.max_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        """The pooled input (and the indices of the maxima with return_indices=True)."""
        return self.function(input, self.kernel_size, self.stride, self.padding, self.dilation,
                             ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        """The window options, as torch prints them."""
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each window (stride defaults to the kernel size)."""

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"]

    function = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        """The pooled input."""
        return self.function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        """The window options, as torch prints them."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """The mean over a grid of output_size windows covering the input."""

    __constants__ = ["output_size"]
    function = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        """The pooled input, of spatial size output_size."""
        return self.function(input, self.output_size)

    def extra_repr(self):
        """The output size, as torch prints it."""
        return f"output_size={self.output_size}"


class MaxPool1d(MaxPool2d):
    """The maximum of each window of (N, C, L) input."""

    function = staticmethod(F.max_pool1d)


class MaxPool3d(MaxPool2d):
    """The maximum of each window of (N, C, D, H, W) input."""

    function = staticmethod(F.max_pool3d)


class AvgPool1d(AvgPool2d):
    """The mean of each window of (N, C, L) input (its sizes kept as 1-tuples, as torch's)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(_single(kernel_size), _single(stride if stride is not None else kernel_size),
                         _single(padding), ceil_mode, count_include_pad)

    def forward(self, input):
        """The pooled input."""
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool3d(AvgPool2d):
    """The mean of each window of (N, C, D, H, W) input."""

    function = staticmethod(F.avg_pool3d)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """The mean over output_size windows covering (N, C, L) input."""

    function = staticmethod(F.adaptive_avg_pool1d)


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """The mean over a grid of output_size windows covering (N, C, D, H, W) input."""

    function = staticmethod(F.adaptive_avg_pool3d)


class AdaptiveMaxPool2d(Module):
    """The maximum over a grid of output_size windows covering the input (and, with return_indices,
    where each is)."""

    __constants__ = ["output_size", "return_indices"]
    function = staticmethod(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        """The pooled input, of spatial size output_size (and the indices of the maxima)."""
        return self.function(input, self.output_size, self.return_indices)

    def extra_repr(self):
        """The output size, as torch prints it."""
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """The maximum over output_size windows covering (N, C, L) input."""

    function = staticmethod(F.adaptive_max_pool1d)


class AdaptiveMaxPool3d(AdaptiveMaxPool2d):
    """The maximum over a grid of output_size windows covering (N, C, D, H, W) input."""

    function = staticmethod(F.adaptive_max_pool3d)


class LPPool2d(Module):
    """The norm_type-norm of each window: (sum of x ** p) ** (1 / p) (stride defaults to the kernel size)."""

    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]
    function = staticmethod(F.lp_pool2d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        """The pooled input."""
        return self.function(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        """The window options, as torch prints them."""
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"ceil_mode={self.ceil_mode}"


class LPPool1d(LPPool2d):
    """The norm_type-norm of each window of (N, C, L) input."""

    function = staticmethod(F.lp_pool1d)


class LPPool3d(LPPool2d):
    """The norm_type-norm of each window of (N, C, D, H, W) input."""

    function = staticmethod(F.lp_pool3d)


class MaxUnpool2d(Module):
    """The partial inverse of MaxPool2d: zeros with each input value at its index (forward(input, indices,
    output_size=None))."""

    function = staticmethod(F.max_unpool2d)
    _size = staticmethod(_pair)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = self._size(kernel_size)
        self.stride = self._size(stride if stride is not None else kernel_size)
        self.padding = self._size(padding)

    def forward(self, input, indices, output_size=None):
        """The unpooled input, of the pooling's input size or output_size."""
        return self.function(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        """The window options, as torch prints them."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(MaxUnpool2d):
    """The partial inverse of MaxPool1d."""

    function = staticmethod(F.max_unpool1d)
    _size = staticmethod(_single)


class MaxUnpool3d(MaxUnpool2d):
    """The partial inverse of MaxPool3d."""

    function = staticmethod(F.max_unpool3d)
    _size = staticmethod(_triple)


class FractionalMaxPool2d(Module):
    """The maximum of kernel_size windows at pseudo-random steps that give output_size, or the input's size
    times output_ratio (exactly one of them); _random_samples, a buffer, fixes the steps. torch prints no
    options."""

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]
    function = staticmethod(F.fractional_max_pool2d)
    _size = staticmethod(_pair)

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        self._check_kernel(kernel_size)
        self.kernel_size = self._size(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = self._size(output_size) if output_size is not None else None
        self.output_ratio = self._size(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    @staticmethod
    def _check_kernel(kernel_size):
        pass            # torch checks the 3-D kernel only

    def forward(self, input):
        """The pooled input (and the indices of the maxima with return_indices=True)."""
        return self.function(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                             _random_samples=self._random_samples)


class FractionalMaxPool3d(FractionalMaxPool2d):
    """FractionalMaxPool2d over (N, C, T, H, W) input."""

    function = staticmethod(F.fractional_max_pool3d)
    _size = staticmethod(_triple)

    @staticmethod
    def _check_kernel(kernel_size):
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
