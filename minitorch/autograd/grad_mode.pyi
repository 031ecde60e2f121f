from types import TracebackType
from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T", bound="_DecoratorContextManager")

def is_grad_enabled() -> bool: ...
def is_inference_mode_enabled() -> bool: ...

class _DecoratorContextManager:
    def clone(self: _T) -> _T: ...
    def __call__(self, func: _F) -> _F: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...

class no_grad(_DecoratorContextManager):
    prev: bool
    def __init__(self) -> None: ...

class enable_grad(_DecoratorContextManager):
    prev: bool

class set_grad_enabled(_DecoratorContextManager):
    prev: bool
    mode: bool
    def __init__(self, mode: bool) -> None: ...

class inference_mode(_DecoratorContextManager):
    mode: bool
    def __init__(self, mode: bool = True) -> None: ...
