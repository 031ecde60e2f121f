"""Ops built on vector norms: renorm / Tensor.renorm(_) (ATen's renorm: linalg_vector_norm over all dims
but one, torch's scale factor kernel, one product; one node, RenormBackward0, with FunctionsManual's
renorm_backward). Arguments are parsed with torch's signatures (_C._parse_args); install() puts the
methods on Tensor."""

import types

import minitorch
from minitorch._composite import _wrap_dim, parse, with_out
from minitorch.autograd.function import Function, _apply, _apply_inplace

__all__ = ["renorm"]

_SIGNATURES = {
    "renorm": ["renorm(Tensor input, Scalar p, int64_t dim, Scalar maxnorm, *, Tensor out=None)"],
}
_METHOD_SIGNATURES = {
    "renorm": ["renorm(Scalar p, int64_t dim, Scalar maxnorm)"],
}

_HALVES = (minitorch.float16, minitorch.bfloat16)


# ---- renorm ----------------------------------------------------------------------------------------------

def _renorm_check(input, p, maxnorm):
    # renorm's meta function, in its order (the dim is wrapped after it)
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if not float(p) > 0.0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if not float(maxnorm) >= 0.0:
        raise RuntimeError("renorm: expected maxnorm to be >= 0 but got {:g}".format(float(maxnorm)))
    if input.dim() <= 1:
        raise RuntimeError("renorm: input needs at least 2 dimensions, got {} dimensions".format(input.dim()))


def _norms(input, p, dim):
    """linalg_vector_norm over every dim but dim, kept; float16 and bfloat16 in float32 (torch's CUDA
    accumulate type, which renorm asks for on every device)."""
    dims = [d for d in range(input.dim()) if d != dim]
    dtype = minitorch.float32 if input.dtype in _HALVES else None
    return minitorch.linalg.vector_norm(input, float(p), dims, True, dtype=dtype), dims


def _scale_factor(norm, maxnorm, dtype):
    # renorm_scale_factor's kernel in the norm's dtype, cast to the input's
    eps = minitorch.tensor(1e-7, dtype=norm.dtype, device=norm.device)
    top = minitorch.tensor(float(maxnorm), dtype=norm.dtype, device=norm.device)
    factor = minitorch.where(norm > top, top / (norm + eps), minitorch.ones_like(norm))
    return factor.to(dtype)


class _Renorm(Function):
    @staticmethod
    def forward(ctx, input, p, dim, maxnorm):
        ctx.args = (p, dim, maxnorm)
        ctx.save_for_backward(input)
        norm, _ = _norms(input, p, dim)
        return input * _scale_factor(norm, maxnorm, input.dtype)

    @staticmethod
    def backward(ctx, grad):
        (self,) = ctx.saved_tensors
        p, dim, maxnorm = ctx.args
        return _renorm_backward(grad, self, p, dim, maxnorm), None, None, None


def _renorm_backward(grad, self, p, dim, maxnorm):
    # FunctionsManual's renorm_backward, with norm_backward as torch writes it (minitorch.nn._native.Norm)
    from minitorch.nn._native import Norm

    norm, dims = _norms(self, p, dim)
    acc = norm.dtype
    grad_output = (self * grad).sum(dims, keepdim=True, dtype=acc)
    nb = Norm.backward(types.SimpleNamespace(saved_tensors=(self, norm), args=(float(p), dims, True)),
                       grad_output)[0]
    invnorm = (norm + 1e-7).reciprocal()
    factor = invnorm * float(maxnorm)
    return minitorch.where(norm > float(maxnorm), factor * grad - (factor * invnorm) * nb, grad)


def _renorm(input, p, dim, maxnorm):
    _renorm_check(input, p, maxnorm)
    dim = _wrap_dim(dim, input.dim())
    return _apply(_Renorm, "RenormBackward0", None, (input, p, dim, maxnorm), {})


def renorm(*args, **kwargs):
    """input with each slice along dim (its sub-tensor input.select(dim, i)) scaled down, where its p-norm
    exceeds maxnorm, to a norm of maxnorm."""
    _, v = parse(_SIGNATURES["renorm"], args, kwargs)
    return with_out("renorm", v["out"], lambda: _renorm(v["input"], v["p"], v["dim"], v["maxnorm"]))


def _renorm_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["renorm"], args, kwargs)
    return _renorm(self, v["p"], v["dim"], v["maxnorm"])


def _renorm_inplace_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["renorm"], args, kwargs)
    _renorm_check(self, v["p"], v["maxnorm"])
    dim = _wrap_dim(v["dim"], self.dim())
    return _apply_inplace(_Renorm, "RenormBackward0", self, (v["p"], dim, v["maxnorm"]), False)


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, method in [("renorm", _renorm_method), ("renorm_", _renorm_inplace_method)]:
        method.__name__ = name
        method.__doc__ = renorm.__doc__
        setattr(tensor_type, name, method)
