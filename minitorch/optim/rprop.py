"""torch.optim.Rprop: resilient backpropagation, a per-element step size that grows while the gradient
keeps its sign and shrinks when it flips; only the gradient's sign moves the parameter."""

import minitorch as torch
from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _check_capturable, _check_lr, _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["Rprop", "rprop"]


class Rprop(_LazyStateOptimizer):
    """s = clamp(s * (etaplus if g * g_prev > 0, etaminus if < 0, else 1), *step_sizes); the gradient is
    taken as 0 where its sign flipped; p -= sign(g) * s."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]), "prev": _zeros_like(p),
            "step_size": torch.full_like(p.grad, _to_scalar(group["lr"]))}

    def _update(self, group, params, states):
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        rprop(params, [p.grad for p in params], [s["prev"] for s in states], [s["step_size"] for s in states],
              [s["step"] for s in states], step_size_min=step_size_min, step_size_max=step_size_max,
              etaminus=etaminus, etaplus=etaplus, maximize=group["maximize"], capturable=group["capturable"])


def rprop(params, grads, prevs, step_sizes, state_steps, *, step_size_min, step_size_max, etaminus, etaplus,
          maximize, capturable=False, **_ignored):
    """The update of Rprop.step() on lists of tensors."""
    for param, grad, prev, step_size, step in zip(params, grads, prevs, step_sizes, state_steps):
        grad = grad if not maximize else -grad
        if capturable:
            _check_capturable(param, [step])
        step += 1
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        # where the sign flipped the gradient counts as 0: no move now, and no sign to compare next time
        grad = grad.clone(memory_format=torch.preserve_format)
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
