"""nn.Flatten: the module form of ``Tensor.flatten(start_dim, end_dim)``."""

from minitorch.nn.modules.module import Module

__all__ = ["Flatten"]


class Flatten(Module):
    """Flattens dims start_dim..end_dim into one (default: all but the batch dim)."""

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
