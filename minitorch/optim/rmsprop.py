"""torch.optim.RMSprop: the gradient divided by the root of a moving average of its square (centered:
minus the square of the gradient's moving average), with optional momentum."""

from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _check_capturable, _check_lr, _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(_LazyStateOptimizer):
    """v = alpha * v + (1 - alpha) * g * g; p -= lr * g / (sqrt(v) + eps) (through a momentum buffer when
    momentum > 0)."""

    _setstate_defaults = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                          "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]), "square_avg": _zeros_like(p),
            **({"momentum_buffer": _zeros_like(p)} if group["momentum"] > 0 else {}),
            **({"grad_avg": _zeros_like(p)} if group["centered"] else {})}

    def _update(self, group, params, states):
        rmsprop(params, [p.grad for p in params], [s["square_avg"] for s in states],
                [s.get("grad_avg") for s in states], [s.get("momentum_buffer") for s in states],
                [s["step"] for s in states], lr=group["lr"], alpha=group["alpha"], eps=group["eps"],
                weight_decay=group["weight_decay"], momentum=group["momentum"], centered=group["centered"],
                maximize=group["maximize"], capturable=group["capturable"])


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr, alpha, eps,
            weight_decay, momentum, centered, maximize, capturable=False, **_ignored):
    """The update of RMSprop.step() on lists of tensors."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        if capturable:
            _check_capturable(param, [state_steps[i]])
        state_steps[i] += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
