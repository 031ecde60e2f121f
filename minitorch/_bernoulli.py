"""Bernoulli sampling (Tensor.bernoulli_, torch.bernoulli) from the generator's uniform stream, as torch's
CPU kernels draw it: element by element in memory order, 1 where a uniform number is below p. A number
p (bernoulli_(0.3)) compares a float64 uniform (53 random bits), a tensor p one of p's own dtype (a
float32 p: 24 bits), so masks match torch's bit for bit after manual_seed, Dropout's included. On a CUDA
device the uniform numbers come from minitorch's CUDA generator (torch's CUDA kernel draws differently).
"""

import minitorch
from minitorch import _C
from minitorch.autograd.function import Function, _apply

# torch's signatures of the three forms (native_functions.yaml), parsed first so a wrong argument gets
# torch's TypeError
_SIGNATURES = {
    "bernoulli": ["bernoulli(Tensor input, *, Generator? generator=None)",
                  "bernoulli(Tensor input, double p, *, Generator? generator=None)"],
    "bernoulli_": ["bernoulli_(Tensor input, Tensor p, *, Generator? generator=None)",
                   "bernoulli_(Tensor input, double p=0.5, *, Generator? generator=None)"],
}

__all__ = ["bernoulli", "bernoulli_"]


def _refuse_integer_p(p):
    """torch's kernel dispatches on p's dtype, floating ones only."""
    if not p.is_floating_point():
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{p.dtype._scalar_name}'")


def _uniform_like(t, dtype, generator):
    """Uniform numbers in [0, 1) shaped like t, drawn in the order torch's serial kernels visit t's
    elements: its dims from the largest stride to the smallest (memory order for a dense tensor)."""
    order = sorted(range(t.dim()), key=lambda d: -t.stride(d))
    u = minitorch.rand([t.shape[d] for d in order], dtype=dtype, generator=generator, device=t.device)
    return u.permute([order.index(d) for d in range(t.dim())])


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills self with 1 (probability p) or 0; p a number or a tensor of probabilities broadcast to self."""
    overload, values, _ = _C._parse_args(_SIGNATURES["bernoulli_"], (self, p), {"generator": generator})
    if overload == 1:
        p = values["p"]     # a number, or a 0-dim tensor's value
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    if self.numel() == 0:
        return self
    with minitorch.no_grad():
        if isinstance(p, minitorch.Tensor):
            _refuse_integer_p(p)
            p = p.expand(self.shape)
            if bool((p < 0).any()) or bool((p > 1).any()):
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")
            mask = _uniform_like(self, p.dtype, generator) < p.to(self.device)
        else:
            mask = _uniform_like(self, minitorch.float64, generator) < p
        return self.copy_(mask)


class _Bernoulli(Function):
    """torch.bernoulli(probabilities): its node (BernoulliBackward0) passes no gradient."""

    @staticmethod
    def forward(ctx, input, generator):
        return bernoulli_(minitorch.empty_like(input), input, generator=generator)

    @staticmethod
    def backward(ctx, grad):
        return minitorch.zeros_like(grad), None


_NO_P = object()


def bernoulli(input, p=_NO_P, *, generator=None):
    """A tensor like input of 1s and 0s: 1 with probability input (or, given p, with probability p)."""
    overload, values, _ = _C._parse_args(_SIGNATURES["bernoulli"], (input,) if p is _NO_P else (input, p),
                                         {"generator": generator})
    if overload == 1:
        return bernoulli_(minitorch.empty_like(input), values["p"], generator=generator)
    _refuse_integer_p(input)
    return _apply(_Bernoulli, "BernoulliBackward0", None, (input, generator), {})
