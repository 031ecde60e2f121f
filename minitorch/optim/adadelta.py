"""torch.optim.Adadelta: steps of the size of a moving root-mean-square of the earlier steps divided by
that of the gradients, so that lr (default 1) only scales them, as torch computes it step by step."""

from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _check_capturable, _check_lr, _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(_LazyStateOptimizer):
    """v = rho * v + (1 - rho) * g * g; d = sqrt(u + eps) / sqrt(v + eps) * g;
    u = rho * u + (1 - rho) * d * d; p -= lr * d."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]), "square_avg": _zeros_like(p),
            "acc_delta": _zeros_like(p)}

    def _update(self, group, params, states):
        adadelta(params, [p.grad for p in params], [s["square_avg"] for s in states],
                 [s["acc_delta"] for s in states], [s["step"] for s in states], lr=group["lr"],
                 rho=group["rho"], eps=group["eps"], weight_decay=group["weight_decay"],
                 maximize=group["maximize"], differentiable=group["differentiable"],
                 capturable=group["capturable"])


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps, weight_decay, maximize,
             differentiable=False, capturable=False, **_ignored):
    """The update of Adadelta.step() on lists of tensors."""
    if capturable:
        for param, step in zip(params, state_steps):
            _check_capturable(param, [step], supports_xla=False)
    lr = _to_scalar(lr)
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, state_steps):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
