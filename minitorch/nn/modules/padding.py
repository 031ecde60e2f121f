"""The padding layers: modules around ``functional.pad`` that remember the padding (an n-tuple, as
torch stores it) and, for the constant ones, the value, and print them as torch does."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module
from minitorch.nn.modules.utils import _ntuple, _pair, _quadruple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]

_TUPLES = {1: _pair, 2: _quadruple, 3: _ntuple(6)}


class _PadNd(Module):
    """A padding of the last `dims` dims in one mode; the padding printed alone."""

    __constants__ = ["padding"]
    mode = None
    dims = None

    def __init__(self, padding):
        super().__init__()
        self.padding = _TUPLES[self.dims](padding)

    def forward(self, input):
        """input padded."""
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        """The padding tuple."""
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input):
        """input padded circularly (the layer checks the input's dims first, as torch's)."""
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pads the last dim with the values from its other end."""

    dims = 1


class CircularPad2d(_CircularPadNd):
    """Pads the last 2 dims with the values from their other ends."""

    dims = 2


class CircularPad3d(_CircularPadNd):
    """Pads the last 3 dims with the values from their other ends."""

    dims = 3


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]
    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        """input padded with value."""
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        """padding and value."""
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with a constant."""

    dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with a constant."""

    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with a constant."""

    dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding tuple."""
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding tuple."""
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        """The padding tuple."""
        return f"{self.padding}"


class _ReflectionPadNd(_PadNd):
    mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    """Pads the last dim with its reflection about the edge."""

    dims = 1


class ReflectionPad2d(_ReflectionPadNd):
    """Pads the last 2 dims with their reflection about the edges."""

    dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """Pads the last 3 dims with their reflection about the edges."""

    dims = 3


class _ReplicationPadNd(_PadNd):
    mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    """Pads the last dim with copies of its edge values."""

    dims = 1


class ReplicationPad2d(_ReplicationPadNd):
    """Pads the last 2 dims with copies of their edge values."""

    dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """Pads the last 3 dims with copies of their edge values."""

    dims = 3
