"""torch.optim.ASGD: averaged stochastic gradient descent, SGD with a decaying step size eta_t whose
parameters' running average (from step t0 on) is kept as the state "ax"."""

import minitorch as torch
from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _check_capturable, _check_lr, _get_scalar_dtype, _get_value, _new_scalar_state, _to_scalar,
    _zeros_like,
)

__all__ = ["ASGD", "asgd"]


class ASGD(_LazyStateOptimizer):
    """p *= 1 - lambd * eta; p -= eta * g; ax += (p - ax) * mu (ax = p while mu is 1);
    eta = lr / (1 + lambd * lr * t)**alpha; mu = 1 / max(1, t - t0). Its step, eta and mu are 0-dim tensors
    on the parameter's device (torch keeps them there whether or not capturable)."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, True),
            "eta": torch.as_tensor(_to_scalar(group["lr"]), device=p.device,
                                   dtype=_get_scalar_dtype()).clone().detach(),
            "mu": _new_scalar_state(p, 1.0, True), "ax": _zeros_like(p)}

    def _update(self, group, params, states):
        asgd(params, [p.grad for p in params], [s["ax"] for s in states], [s["mu"] for s in states],
             [s["eta"] for s in states], [s["step"] for s in states], lambd=group["lambd"], lr=group["lr"],
             t0=group["t0"], alpha=group["alpha"], weight_decay=group["weight_decay"],
             maximize=group["maximize"], capturable=group["capturable"])


def asgd(params, grads, axs, mus, etas, state_steps, *, lambd, lr, t0, alpha, weight_decay, maximize, capturable=False,
         **_ignored):
    """The update of ASGD.step() on lists of tensors: eta and mu are read back as Python floats, and the
    new ones, computed in Python, stored in their tensors (rounded to their dtype)."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        mu, ax, eta, step_t = mus[i], axs[i], etas[i], state_steps[i]
        if capturable:
            _check_capturable(param, [mu, eta, step_t], "params, mus, etas, and state_steps")
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        eta_value = _get_value(eta)
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = _get_value(step_t)
        eta.copy_(torch.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(torch.as_tensor(1 / max(1, step - t0)))
