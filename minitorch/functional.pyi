# Type stubs for minitorch.functional.

from typing import Any

from minitorch import Tensor, dtype

def norm(input: Tensor, p: str | float | None = "fro", dim: Any = None, keepdim: bool = False,
         out: Tensor | None = None, dtype: dtype | None = None) -> Tensor: ...
