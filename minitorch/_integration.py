"""The trapezoid rule, as torch composes it (aten/native/Integration.cpp, CompositeImplicitAutograd):
trapezoid / trapz and cumulative_trapezoid over samples y spaced by a number dx or at points x, written
with the same ops in the same order, so values, dtypes and nodes are torch's (MulBackward1 for a number
dx, DivBackward1 with points x, CumsumBackward0 for the cumulative form with a number). Arguments are
parsed with torch's signatures (_C._parse_args)."""

import minitorch
from minitorch._composite import _wrap_dim, parse
from minitorch.autograd.function import Function, _apply

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid"]

_SIGNATURES = {
    name: ["{}(Tensor y, Tensor x, *, int64_t dim=-1)".format(name),
           "{}(Tensor y, *, {} dx=1, int64_t dim=-1)".format(name, "double" if name == "trapz" else "Scalar")]
    for name in ("trapezoid", "trapz", "cumulative_trapezoid")
}


class _ByNumber(Function):
    """t * number or t / number as ATen's mul/div(Tensor, Scalar) record them (MulBackward1, DivBackward1:
    C++ calls them with a double; Python's operators wrap the number as a tensor)"""

    @staticmethod
    def forward(ctx, t, number, divide):
        ctx.number, ctx.divide = number, divide
        return t / number if divide else t * number

    @staticmethod
    def backward(ctx, grad):
        return (grad / ctx.number if ctx.divide else grad * ctx.number), None, None


def _by_number(t, number, divide=False):
    if t.requires_grad and minitorch.is_grad_enabled():
        return _apply(_ByNumber, "DivBackward1" if divide else "MulBackward1", None, (t, number, divide), {})
    return t / number if divide else t * number


def _size(y, dim):
    """y.size(dim), with torch's error for a 0-d y"""
    if y.dim() == 0:
        raise IndexError("Dimension specified as {} but tensor has no dimensions".format(dim))
    return y.shape[_wrap_dim(dim, y.dim())]


def _ends(t, dim):
    """t without its last and without its first element along dim (torch's slice(dim, 0, -1), slice(dim, 1))"""
    n = t.shape[dim]
    return t.narrow(dim, 0, max(n - 1, 0)), t.narrow(dim, min(1, n), max(n - 1, 0))


def _spacing(name, y, x, dim):
    """x's differences along dim, viewed so that they broadcast against y's"""
    if y.dtype == minitorch.bool or x.dtype == minitorch.bool:
        raise RuntimeError("{}: received a bool input for `x` or `y`, but bool is not supported".format(name))
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("{}: There must be one `x` value for each sample point".format(name))
        sizes = [1] * y.dim()
        sizes[dim] = x.shape[0]
        x = x.view(sizes)
    elif x.dim() < y.dim():
        x = x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    left, right = _ends(x, dim)
    return right - left


def _real_dx(name, dx):
    if isinstance(dx, (bool, complex)):
        raise RuntimeError("{}: Currently, we only support dx as a real number.".format(name))
    return float(dx)


def _trapezoid(name, index, v):
    y, dim = v["y"], v["dim"]
    if index == 0:
        dim = _wrap_dim(dim, y.dim())
        if y.shape[dim] == 0:
            return _zeros_except(y, dim)
        dx = _spacing("trapezoid", y, v["x"], dim)
        left, right = _ends(y, dim)
        return _by_number(((left + right) * dx).sum(dim), 2.0, divide=True)
    if _size(y, dim) == 0:
        return _zeros_except(y, _wrap_dim(dim, y.dim()))
    if y.dtype == minitorch.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    dx = _real_dx("trapezoid", v["dx"])
    return _by_number(y.sum(dim) - _by_number(y.select(dim, 0) + y.select(dim, -1), 0.5), dx)


def _zeros_except(y, dim):
    sizes = list(y.shape)
    del sizes[dim]
    return minitorch.zeros(sizes, dtype=y.dtype, device=y.device)


def trapezoid(*args, **kwargs):
    """The trapezoid rule along dim: the integral of samples y spaced dx apart (a number) or taken at the
    points x."""
    index, v = parse(_SIGNATURES["trapezoid"], args, kwargs)
    return _trapezoid("trapezoid", index, v)


def trapz(*args, **kwargs):
    """Alias of trapezoid() (its dx is a float)."""
    index, v = parse(_SIGNATURES["trapz"], args, kwargs)
    return _trapezoid("trapz", index, v)


def cumulative_trapezoid(*args, **kwargs):
    """The running trapezoid rule along dim: one element fewer than y along dim."""
    index, v = parse(_SIGNATURES["cumulative_trapezoid"], args, kwargs)
    y = v["y"]
    dim = _wrap_dim(v["dim"], y.dim())
    if index == 0:
        dx = _spacing("cumulative_trapezoid", y, v["x"], dim)
        left, right = _ends(y, dim)
        return _by_number(((left + right) * dx).cumsum(dim), 2.0, divide=True)
    if y.dtype == minitorch.bool:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
    dx = _real_dx("cumulative_trapezoid", v["dx"])
    left, right = _ends(y, dim)
    return _by_number(left + right, dx / 2.0).cumsum(dim)
