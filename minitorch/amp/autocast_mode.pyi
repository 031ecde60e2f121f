# Type stubs for minitorch.amp.autocast_mode: torch.autocast and the custom Function decorators.

from typing import Any, Callable, TypeVar

from minitorch import dtype as _dtype

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

def is_autocast_available(device_type: str) -> bool: ...

class autocast:
    device: str
    fast_dtype: _dtype
    def __init__(self, device_type: str, dtype: _dtype | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None: ...
    def __enter__(self) -> autocast: ...
    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> bool: ...
    def __call__(self, func: _F) -> _F: ...

def custom_fwd(fwd: Callable[..., Any] | None = None, *, device_type: str,
               cast_inputs: _dtype | None = None) -> Any: ...
def custom_bwd(bwd: Callable[..., Any] | None = None, *, device_type: str) -> Any: ...
