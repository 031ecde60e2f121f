"""The pixel shuffle layers: modules around ``functional.pixel_shuffle`` and ``pixel_unshuffle`` that remember
the factor and print it as torch does."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """(*, C * r * r, H, W) rearranged to (*, C, H * r, W * r)."""

    __constants__ = ["upscale_factor"]

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        """pixel_shuffle(input, self.upscale_factor)."""
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        """'upscale_factor=3': PixelShuffle(upscale_factor=3)."""
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H * r, W * r) rearranged to (*, C * r * r, H, W)."""

    __constants__ = ["downscale_factor"]

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        """pixel_unshuffle(input, self.downscale_factor)."""
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        """'downscale_factor=2': PixelUnshuffle(downscale_factor=2)."""
        return f"downscale_factor={self.downscale_factor}"
