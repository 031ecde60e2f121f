# Type stubs for minitorch.testing: torch.testing's comparison and random-tensor helpers.

from typing import Any, Callable, Sequence

from minitorch import Tensor, device, dtype, memory_format

def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None: ...
def make_tensor(*shape: int | Sequence[int], dtype: dtype, device: str | device, low: float | None = None,
                high: float | None = None, requires_grad: bool = False, noncontiguous: bool = False,
                exclude_zero: bool = False, memory_format: memory_format | None = None) -> Tensor: ...
