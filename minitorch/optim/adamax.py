"""torch.optim.Adamax: Adam with the root of the second moment replaced by a decaying maximum of the
gradient's magnitude (the infinity norm), as torch computes it step by step."""

import minitorch as torch
from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _check_adam_like, _check_capturable, _get_value, _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["Adamax", "adamax"]


class Adamax(_LazyStateOptimizer):
    """m = lerp(m, g, 1 - beta1); u = max(beta2 * u, |g| + eps); p -= lr / (1 - beta1**t) * m / u."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_like(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]), "exp_avg": _zeros_like(p),
            "exp_inf": _zeros_like(p)}

    def _update(self, group, params, states):
        beta1, beta2 = group["betas"]
        adamax(params, [p.grad for p in params], [s["exp_avg"] for s in states], [s["exp_inf"] for s in states],
               [s["step"] for s in states], eps=group["eps"], beta1=beta1, beta2=beta2, lr=group["lr"],
               weight_decay=group["weight_decay"], maximize=group["maximize"], capturable=group["capturable"])


def adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr, weight_decay, maximize,
           capturable=False, **_ignored):
    """The update of Adamax.step() on lists of tensors."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_inf, step_t = exp_avgs[i], exp_infs[i], state_steps[i]
        if capturable:
            _check_capturable(param, [step_t])
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** _get_value(step_t))
        param.addcdiv_(exp_avg, exp_inf, value=-clr)
