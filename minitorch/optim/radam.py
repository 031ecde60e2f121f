"""torch.optim.RAdam: Adam whose adaptive step is rectified by the variance of its moving average, and
which takes plain momentum steps while that variance is not yet defined (rho_t <= 5)."""

from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _adam_moments, _adam_weight_decay, _check_adam_like, _check_capturable, _get_value,
    _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["RAdam", "radam"]


class RAdam(_LazyStateOptimizer):
    """m, v as Adam's; rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t), rho_inf = 2 / (1 - beta2) - 1;
    p -= lr * m / (1 - beta1**t) * (sqrt(1 - beta2**t) / (sqrt(v) + eps)) * r_t when rho_t > 5, else
    p -= lr * m / (1 - beta1**t)."""

    _setstate_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                          "decoupled_weight_decay": False, "capturable": False}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_adam_like(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]), "exp_avg": _zeros_like(p),
            "exp_avg_sq": _zeros_like(p)}

    def _update(self, group, params, states):
        beta1, beta2 = group["betas"]
        radam(params, [p.grad for p in params], [s["exp_avg"] for s in states],
              [s["exp_avg_sq"] for s in states], [s["step"] for s in states], beta1=beta1, beta2=beta2,
              lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
              decoupled_weight_decay=group["decoupled_weight_decay"], maximize=group["maximize"],
              differentiable=group["differentiable"], capturable=group["capturable"])


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr, weight_decay, eps,
          decoupled_weight_decay=False, maximize=False, differentiable=False, capturable=False,
          **_ignored):
    """The update of RAdam.step() on lists of tensors (rho_t and the rectification are Python floats;
    number / tensor is the tensor's reciprocal times the number, as torch's __rtruediv__ computes it)."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        if capturable:
            _check_capturable(param, [step_t])
        step_t += 1
        step = _get_value(step_t)
        grad = _adam_weight_decay(param, grad, lr, weight_decay, decoupled_weight_decay)
        _adam_moments(exp_avg, exp_avg_sq, grad, beta1, beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps) if differentiable else exp_avg_sq_sqrt.add_(eps)
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq_sqrt
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
