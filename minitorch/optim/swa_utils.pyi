# Type stubs for minitorch.optim.swa_utils.

from typing import Any, Callable, Iterable, Literal, Sequence

from minitorch import Tensor, device
from minitorch.nn import Module
from minitorch.optim import Optimizer
from minitorch.optim.lr_scheduler import LRScheduler

_AvgFn = Callable[[Tensor, Tensor, Tensor | int], Tensor]
_MultiAvgFn = Callable[[Sequence[Tensor], Sequence[Tensor], Tensor | int], None]

def get_ema_multi_avg_fn(decay: float = 0.999) -> _MultiAvgFn: ...
def get_swa_multi_avg_fn() -> _MultiAvgFn: ...
def get_ema_avg_fn(decay: float = 0.999) -> _AvgFn: ...
def get_swa_avg_fn() -> _AvgFn: ...

class AveragedModel(Module):
    """A copy of a model whose parameters are averaged over update_parameters() calls."""

    module: Module
    n_averaged: Tensor
    avg_fn: _AvgFn | None
    multi_avg_fn: _MultiAvgFn | None
    use_buffers: bool
    def __init__(self, model: Module, device: int | str | device | None = None, avg_fn: _AvgFn | None = None,
                 multi_avg_fn: _MultiAvgFn | None = None, use_buffers: bool = False) -> None: ...
    def forward(self, *args: Any, **kwargs: Any) -> Any: ...
    def update_parameters(self, model: Module) -> None: ...

def update_bn(loader: Iterable[Any], model: Module, device: int | str | device | None = None) -> None: ...

class SWALR(LRScheduler):
    """Anneals each group's lr to swa_lr over anneal_epochs steps, then holds it."""

    anneal_epochs: int
    def __init__(self, optimizer: Optimizer, swa_lr: float | list[float], anneal_epochs: int = 10,
                 anneal_strategy: Literal["cos", "linear"] = "cos", last_epoch: int = -1) -> None: ...
    def get_lr(self) -> list[float]: ...
