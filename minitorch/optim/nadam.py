"""torch.optim.NAdam: Adam with Nesterov momentum, whose momentum coefficient mu_t warms up with
momentum_decay (their running product is kept as state), as torch computes it step by step."""

from minitorch.optim.optimizer import (
    _LazyStateOptimizer, _adam_moments, _adam_weight_decay, _check_adam_like, _check_capturable, _get_value,
    _new_scalar_state, _to_scalar, _zeros_like,
)

__all__ = ["NAdam", "nadam"]


class NAdam(_LazyStateOptimizer):
    """mu_t = beta1 * (1 - 0.96**(t * momentum_decay) / 2); m and v as Adam's;
    p -= lr * ((1 - mu_t) / (1 - prod mu) * g + mu_{t+1} / (1 - prod mu * mu_{t+1}) * m)
    / (sqrt(v / (1 - beta2**t)) + eps)."""

    _setstate_defaults = {"maximize": False, "foreach": None, "capturable": False, "differentiable": False,
                          "decoupled_weight_decay": False}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_like(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _new_state(self, p, group):
        return {
            "step": _new_scalar_state(p, 0.0, group["capturable"]),
            "mu_product": _new_scalar_state(p, 1.0, group["capturable"]), "exp_avg": _zeros_like(p),
            "exp_avg_sq": _zeros_like(p)}

    def _update(self, group, params, states):
        beta1, beta2 = group["betas"]
        nadam(params, [p.grad for p in params], [s["exp_avg"] for s in states],
              [s["exp_avg_sq"] for s in states], [s["mu_product"] for s in states],
              [s["step"] for s in states], beta1=beta1, beta2=beta2, lr=group["lr"],
              weight_decay=group["weight_decay"], momentum_decay=group["momentum_decay"], eps=group["eps"],
              decoupled_weight_decay=group["decoupled_weight_decay"], maximize=group["maximize"],
              differentiable=group["differentiable"], capturable=group["capturable"])


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, *, beta1, beta2, lr, weight_decay,
          momentum_decay, eps, decoupled_weight_decay=False, maximize=False, differentiable=False,
          capturable=False, **_ignored):
    """The update of NAdam.step() on lists of tensors. The momentum coefficients are Python floats; the
    running product is a tensor of the step counter's dtype, read back as a float for the step sizes."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, mu_product, step_t = exp_avgs[i], exp_avg_sqs[i], mu_products[i], state_steps[i]
        if capturable:
            _check_capturable(param, [mu_product, step_t], "params, mu_products and state_steps")
        step_t += 1
        step = _get_value(step_t)
        bias_correction2 = 1 - beta2 ** step
        grad = _adam_weight_decay(param, grad, lr, weight_decay, decoupled_weight_decay)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        _adam_moments(exp_avg, exp_avg_sq, grad, beta1, beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if differentiable:
            # torch scales the tensors (so autograd sees the coefficients) instead of passing value=
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            param.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            param.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - mu_product_next)), denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            param.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - _get_value(mu_product)))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
