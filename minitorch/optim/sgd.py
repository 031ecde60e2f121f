"""torch.optim.SGD: stochastic gradient descent, with momentum, dampening, Nesterov and weight decay."""

import minitorch as torch
from minitorch import _C
from minitorch.optim.optimizer import (
    Optimizer, _closure_loss, _check_lr, _to_scalar, _use_grad_for_differentiable,
)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """p -= lr * g, where g is the gradient (plus weight_decay * p), or its momentum buffer
    b = momentum * b + (1 - dampening) * g (b = g at the first step), or g + momentum * b (Nesterov)."""

    _setstate_defaults = {"nesterov": False, "maximize": False, "foreach": None, "differentiable": False,
                          "fused": False}

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            raise RuntimeError("SGD(fused=True) is not supported by minitorch (it has no fused optimizer kernels)")

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter with a gradient; closure() re-evaluates the loss first."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            momentum = group["momentum"]
            buffers = [self.state[p].get("momentum_buffer") for p in params] if momentum != 0 else []
            sgd(params, [p.grad for p in params], buffers, weight_decay=group["weight_decay"], momentum=momentum,
                lr=group["lr"], dampening=group["dampening"], nesterov=group["nesterov"],
                maximize=group["maximize"])
            if momentum != 0:
                for p, buf in zip(params, buffers):
                    self.state[p]["momentum_buffer"] = buf
        return loss


_FUSED_DTYPES = (torch.float32, torch.float64)


def _fused_step_applies(param, grad, buf):
    """Whether _C._sgd_step gives this parameter's update bit for bit: CPU tensors of one shape and one
    dtype, float32 or float64 (any strides), after the first momentum step (which makes the buffer)."""
    dtype = param.dtype
    return (dtype in _FUSED_DTYPES and param.is_cpu and grad.is_cpu and grad.dtype == dtype
            and grad.shape == param.shape
            and (buf is None or (buf.is_cpu and buf.dtype == dtype and buf.shape == param.shape)))


def sgd(params, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov, maximize,
        **_ignored):
    """The update of SGD.step() on lists of tensors (the buffers list is updated with new buffers).

    torch's single-tensor path runs up to five ops per parameter. On the CPU, with grad mode off (step()
    turns it off) and numbers for hyperparameters, _C._sgd_step runs them as one pass over the memory with
    the same bits; other devices and dtypes, a tensor lr, differentiable=True and the first momentum step
    run the ops one by one."""
    lr = _to_scalar(lr)
    fused = (not torch.is_grad_enabled() and type(lr) in (int, float) and type(weight_decay) in (int, float)
             and type(momentum) in (int, float) and type(dampening) in (int, float))
    for i, param in enumerate(params):
        if fused:
            buf = momentum_buffer_list[i] if momentum != 0 else None
            if ((momentum == 0 or buf is not None) and _fused_step_applies(param, grads[i], buf)
                    and _C._sgd_step(param, grads[i], buf, weight_decay, momentum, lr, dampening, bool(nesterov),
                                     bool(maximize))):
                continue
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        if isinstance(lr, torch.Tensor) and lr.requires_grad:
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)
