# Type stubs for minitorch.linalg.

from minitorch import Tensor, dtype

def vector_norm(input: Tensor, ord: float = 2, dim: int | tuple[int, ...] | list[int] | None = None,
                keepdim: bool = False, *, dtype: dtype | None = None, out: Tensor | None = None) -> Tensor: ...
def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor: ...
