# Type stubs for minitorch.backends.cudnn: torch.backends.cudnn's settings (recorded; minitorch has no cuDNN).

from contextlib import AbstractContextManager
from typing import Any

from minitorch._C import Tensor
from minitorch._C import dtype as _dtype

enabled: bool
benchmark: bool
deterministic: bool
allow_tf32: bool
benchmark_limit: int | None
CUDNN_TENSOR_DTYPES: set[_dtype]

def is_available() -> bool: ...
def version() -> int | None: ...
def is_acceptable(tensor: Tensor) -> bool: ...
def set_flags(
    _enabled: bool | None = None,
    _benchmark: bool | None = None,
    _benchmark_limit: int | None = None,
    _deterministic: bool | None = None,
    _allow_tf32: bool | None = None,
    _fp32_precision: str | None = "none",
    _depthwise_kernel: Any = None,
) -> tuple[Any, ...]: ...
def flags(
    enabled: bool | None = False,
    benchmark: bool | None = False,
    benchmark_limit: int | None = 10,
    deterministic: bool | None = False,
    allow_tf32: bool | None = True,
    fp32_precision: str | None = "none",
    depthwise_kernel: Any = "auto",
) -> AbstractContextManager[None]: ...
