"""Flatten and Unflatten as layers: merge a range of dimensions into one (``Tensor.flatten``), or split
one into several (``Tensor.unflatten``)."""

from minitorch.nn.modules.module import Module

__all__ = ["Flatten", "Unflatten"]


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


class Unflatten(Module):
    """Splits dim ``dim`` into ``unflattened_size``: (N, 10) with Unflatten(1, (2, 5)) -> (N, 2, 5)."""

    __constants__ = ["dim", "unflattened_size"]

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)):
                raise TypeError("unflattened_size must be tuple of ints, but found type " +
                                type(unflattened_size).__name__)
            for i, size in enumerate(unflattened_size):
                if not isinstance(size, int):
                    raise TypeError("unflattened_size must be tuple of ints, but found element of type "
                                    f"{type(size).__name__} at pos {i}")
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        """input.unflatten(dim, unflattened_size)."""
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        """'dim=..., unflattened_size=...', as torch prints it."""
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
