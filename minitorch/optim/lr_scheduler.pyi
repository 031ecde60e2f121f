# Type stubs for minitorch.optim.lr_scheduler.

from typing import Any, Callable, Iterable

from minitorch.optim import Optimizer

class LRScheduler:
    """Base class of the learning-rate schedules."""

    optimizer: Optimizer
    base_lrs: list[Any]
    last_epoch: int
    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state_dict: dict[str, Any]) -> None: ...
    def get_last_lr(self) -> list[Any]: ...
    def get_lr(self) -> list[Any]: ...
    def step(self, epoch: int | None = None) -> None: ...

class LambdaLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
                 last_epoch: int = -1) -> None: ...

class StepLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None: ...

class MultiStepLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None: ...

class ExponentialLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None: ...

class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None: ...

class ReduceLROnPlateau(LRScheduler):
    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr: list[float] | float = 0, eps: float = 1e-8) -> None: ...
    def step(self, metrics: Any, epoch: int | None = None) -> None: ...  # type: ignore[override]

class OneCycleLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, max_lr: float | list[float], total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True, base_momentum: float | list[float] = 0.85,
                 max_momentum: float | list[float] = 0.95, div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None: ...
