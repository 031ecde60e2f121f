"""Fold and Unfold as layers: F.fold and F.unfold (torch's col2im and im2col) with their arguments kept
on the module, as torch.nn.modules.fold has them."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sums sliding blocks (N, C * prod(kernel_size), L) back into an (N, C, *output_size) image."""

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        """F.fold(input, ...) with the module's arguments."""
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        """The arguments as given, as torch prints them."""
        return ("output_size={output_size}, kernel_size={kernel_size}, dilation={dilation}, padding={padding}, "
                "stride={stride}".format(**self.__dict__))


class Unfold(Module):
    """The sliding kernel_size blocks of an (N, C, H, W) input as columns (N, C * prod(kernel_size), L)."""

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        """F.unfold(input, ...) with the module's arguments."""
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        """The arguments as given, as torch prints them."""
        return "kernel_size={kernel_size}, dilation={dilation}, padding={padding}, stride={stride}".format(
            **self.__dict__)
