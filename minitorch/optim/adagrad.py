"""torch.optim.Adagrad: the gradient divided by the root of the sum of its squares so far, with a learning
rate that decays as lr / (1 + (t - 1) * lr_decay)."""

import minitorch as torch
from minitorch.optim.optimizer import (
    Optimizer, _closure_loss, _check_lr, _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """s += g * g; p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps). Its state exists from the
    start (torch creates it in the constructor, so state_dict() has it before any step)."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        if fused:
            raise RuntimeError("Adagrad(fused=True) is not supported by minitorch (it has no fused optimizer "
                               "kernels)")
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                state["sum"] = torch.full_like(p, initial_accumulator_value, memory_format=torch.preserve_format)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter with a gradient; closure() re-evaluates the loss first."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            states = [self.state[p] for p in params]
            adagrad(params, [p.grad for p in params], [s["sum"] for s in states], [s["step"] for s in states],
                    lr=group["lr"], weight_decay=group["weight_decay"], lr_decay=group["lr_decay"],
                    eps=group["eps"], maximize=group["maximize"])
        return loss


def adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay, eps, maximize, **_ignored):
    """The update of Adagrad.step() on lists of tensors."""
    lr = _to_scalar(lr)
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
