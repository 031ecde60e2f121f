"""Flatten as a layer: merges a range of dimensions into one, via ``Tensor.flatten``."""

from minitorch.nn.modules.module import Module

__all__ = ["Flatten"]


class Flatten(Module):
    """Merges dims ``start_dim``..``end_dim`` into one. The defaults keep dim 0 (the batch) and
    merge all the others: (N, C, H, W) -> (N, C*H*W)."""

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        """input.flatten(start_dim, end_dim)."""
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        """'start_dim=..., end_dim=...', as torch prints it."""
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
