"""torch.optim.Adam (and, with decoupled_weight_decay=True, AdamW): moving averages of the gradient and
of its square, bias-corrected, as torch computes them step by step."""

import minitorch as torch
from minitorch.optim.optimizer import (
    Optimizer, _adam_moments, _adam_weight_decay, _check_adam_like, _check_capturable, _closure_loss, _get_value,
    _new_scalar_state, _to_scalar, _use_grad_for_differentiable,
)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    """m = lerp(m, g, 1 - beta1); v = beta2 * v + (1 - beta2) * g * g;
    p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)."""

    _setstate_defaults = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
                          "differentiable": False, "decoupled_weight_decay": False, "fused": None}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_like(lr, eps, betas, weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float)) or
                (isinstance(betas[0], torch.Tensor) and isinstance(betas[1], torch.Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, torch.Tensor) and beta.numel() != 1:
                raise ValueError(f"Tensor betas[{i}] must be 1-element")
        defaults = {"lr": lr, "betas": tuple(map(_to_scalar, betas)), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        if fused:
            raise RuntimeError(f"{type(self).__name__}(fused=True) is not supported by minitorch (it has no fused "
                               "optimizer kernels)")


    def _init_group(self, group, params):
        """The state of each parameter with a gradient, created at its first step: the step counter is a
        0-dim tensor of _get_scalar_dtype() on the CPU (on the parameter's device when capturable)."""
        for p in params:
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _new_scalar_state(p, 0.0, group["capturable"])
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError("`requires_grad` is not supported for `step` in differentiable mode")
        return [self.state[p] for p in params]

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter with a gradient; closure() re-evaluates the loss first."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            states = self._init_group(group, params)
            beta1, beta2 = group["betas"]
            adam(params, [p.grad for p in params], [s["exp_avg"] for s in states],
                 [s["exp_avg_sq"] for s in states], [s.get("max_exp_avg_sq") for s in states],
                 [s["step"] for s in states], amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2, lr=group["lr"],
                 weight_decay=group["weight_decay"], eps=group["eps"], maximize=group["maximize"],
                 decoupled_weight_decay=group["decoupled_weight_decay"], capturable=group["capturable"])
        return loss


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad, beta1, beta2, lr,
         weight_decay, eps, maximize, decoupled_weight_decay=False, capturable=False, **_ignored):
    """The update of Adam.step() on lists of tensors. The bias corrections are Python floats (doubles),
    converted to the parameters' dtype where they meet a tensor, as in torch."""
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        if capturable:
            _check_capturable(param, [step_t])
        step_t += 1
        grad = _adam_weight_decay(param, grad, lr, weight_decay, decoupled_weight_decay)
        _adam_moments(exp_avg, exp_avg_sq, grad, beta1, beta2)
        step = _get_value(step_t)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if amsgrad:
            max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sqs[i], exp_avg_sq))
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)
