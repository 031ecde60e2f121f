# Type stubs for minitorch.functional.

from typing import Any

from minitorch import Size, Tensor, dtype

def broadcast_shapes(*shapes: Any) -> Size: ...
def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]: ...
def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, out: Tensor | None = None,
         dtype: dtype | None = None) -> Tensor: ...
