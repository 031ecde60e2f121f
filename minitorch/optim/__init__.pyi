# Type stubs for minitorch.optim.

from typing import Any, Callable, Iterable

from minitorch import Tensor
from minitorch.optim import lr_scheduler as lr_scheduler
from minitorch.optim import swa_utils as swa_utils

_Params = Iterable[Tensor] | Iterable[dict[str, Any]]

class Optimizer:
    """Base class of the optimizers: params (tensors, or dicts of per-group options) and the defaults."""

    defaults: dict[str, Any]
    state: dict[Any, Any]
    param_groups: list[dict[str, Any]]
    def __init__(self, params: _Params, defaults: dict[str, Any]) -> None: ...
    def zero_grad(self, set_to_none: bool = True) -> None: ...
    def step(self, closure: Callable[[], Any] | None = None) -> Any: ...
    def add_param_group(self, param_group: dict[str, Any]) -> None: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state_dict: dict[str, Any]) -> None: ...
    def register_step_pre_hook(self, hook: Callable[..., Any]) -> Any: ...
    def register_step_post_hook(self, hook: Callable[..., Any]) -> Any: ...
    def register_state_dict_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any: ...
    def register_state_dict_post_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any: ...
    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any: ...
    def register_load_state_dict_post_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any: ...

class SGD(Optimizer):
    """Stochastic gradient descent (momentum, dampening, Nesterov, weight decay)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None: ...

class Adam(Optimizer):
    """Adam (amsgrad, weight decay, decoupled_weight_decay)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None: ...

class AdamW(Adam):
    """Adam with decoupled weight decay."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None: ...

class RMSprop(Optimizer):
    """RMSprop (centered, momentum)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None: ...

class Adagrad(Optimizer):
    """Adagrad (lr_decay, initial_accumulator_value)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: bool | None = None) -> None: ...

class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm of the gradients."""

    def __init__(self, params: _Params, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None: ...

class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum (momentum_decay, decoupled_weight_decay)."""

    def __init__(self, params: _Params, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None: ...

class RAdam(Optimizer):
    """RAdam: rectified Adam (decoupled_weight_decay)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None: ...

class Adadelta(Optimizer):
    """Adadelta (rho, eps, weight decay)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None: ...

class Rprop(Optimizer):
    """Rprop: resilient backpropagation (etas, step_sizes)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None: ...

class ASGD(Optimizer):
    """ASGD: averaged stochastic gradient descent (lambd, alpha, t0)."""

    def __init__(self, params: _Params, lr: float | Tensor = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None: ...

class LBFGS(Optimizer):
    """L-BFGS (history_size, max_iter, max_eval, line_search_fn=None or 'strong_wolfe'); step needs a closure."""

    def __init__(self, params: _Params, lr: float | Tensor = 1, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None: ...
    def step(self, closure: Callable[[], Any]) -> Any: ...  # type: ignore[override]
