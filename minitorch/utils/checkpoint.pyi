# Type stubs for minitorch.utils.checkpoint: torch.utils.checkpoint's activation checkpointing.

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from minitorch.autograd.function import Function

def detach_variable(inputs: tuple[Any, ...]) -> tuple[Any, ...]: ...
def check_backward_validity(inputs: Iterable[Any]) -> None: ...
def noop_context_fn() -> tuple[AbstractContextManager[Any], AbstractContextManager[Any]]: ...

class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx: Any, run_function: Callable[..., Any], preserve_rng_state: bool, *args: Any) -> Any: ...
    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple[Any, ...]: ...

def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], tuple[AbstractContextManager[Any], AbstractContextManager[Any]]] = ...,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any: ...
def checkpoint_sequential(
    functions: Sequence[Callable[..., Any]] | Any, segments: int, input: Any, use_reentrant: bool | None = None,
    **kwargs: Any,
) -> Any: ...
