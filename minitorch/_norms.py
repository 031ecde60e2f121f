"""Ops built on vector norms: renorm / Tensor.renorm(_) (ATen's renorm: linalg_vector_norm over all dims
but one, torch's scale factor kernel, one product; one node, RenormBackward0, with FunctionsManual's
renorm_backward), dist / Tensor.dist (at::norm(input - other, p): one node, DistBackward0, with
norm_backward), pdist (the p-norm distance of each pair of rows, PdistBackward0) and cdist
(aten/native/Distance.cpp: for p = 2 on many rows, or when asked, the matrix-product form _euclidean_dist,
EuclideanDistBackward0 under ViewBackward0; otherwise torch's CPU kernel, each distance accumulated column
by column in the input's dtype, CdistBackward0 with _cdist_backward's formulas). Arguments are parsed with
torch's signatures (_C._parse_args); install() puts the methods on Tensor."""

import math
import struct
import types

import minitorch
from minitorch import _C
from minitorch._composite import _wrap_dim, parse, with_out
from minitorch._linalg import _reduce_to
from minitorch._products import _fused_difference
from minitorch.autograd.function import Function, _apply, _apply_inplace, _NoDerivative, _vjp

__all__ = ["renorm", "dist", "cdist", "pdist"]

_SIGNATURES = {
    "renorm": ["renorm(Tensor input, Scalar p, int64_t dim, Scalar maxnorm, *, Tensor out=None)"],
    "dist": ["dist(Tensor input, Tensor other, Scalar p=2)"],
    "pdist": ["pdist(Tensor input, double p=2)"],
}
_METHOD_SIGNATURES = {
    "renorm": ["renorm(Scalar p, int64_t dim, Scalar maxnorm)"],
    "dist": ["dist(Tensor other, Scalar p=2)"],
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


# ---- dist -----------------------------------------------------------------------------------------------

def _norm_backward(grad, self, p, norm):
    """FunctionsManual's norm_backward over all of self's dims (minitorch.nn._native.Norm's), norm kept."""
    from minitorch.nn._native import Norm

    ctx = types.SimpleNamespace(saved_tensors=(self, norm), args=(p, list(range(self.dim())), True))
    return Norm.backward(ctx, grad)[0]


class _Dist(Function):
    @staticmethod
    def forward(ctx, input, other, p):
        diff = input - other
        if not (diff.is_floating_point() or diff.is_complex()):
            raise RuntimeError("norm(): input dtype should be either floating point or complex. Got {} "
                               "instead.".format(diff.dtype._scalar_name))
        result = minitorch.linalg.vector_norm(diff, p)
        ctx.p = p
        ctx.save_for_backward(input, other, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        input, other, result = ctx.saved_tensors
        if ctx.p == 0:
            # norm_backward of p = 0 is an undefined tensor: no gradient for input, and other's negation of it
            # fails as torch's does
            if ctx.needs_input_grad[1]:
                raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                                   "argument #0 'self'")
            return None, None, None
        g = _norm_backward(grad, input - other, ctx.p, result)
        return (_reduce_to(g, input.shape) if ctx.needs_input_grad[0] else None,
                _reduce_to(-g, other.shape) if ctx.needs_input_grad[1] else None, None)


def _dist(input, other, p):
    if isinstance(p, complex):
        raise RuntimeError("linalg.vector_norm: Expected a non-complex scalar as the order of norm.")
    return _apply(_Dist, "DistBackward0", None, (input, other, float(p)), {})


def dist(*args, **kwargs):
    """The p-norm of input - other (broadcast together)."""
    _, v = parse(_SIGNATURES["dist"], args, kwargs)
    return _dist(v["input"], v["other"], v["p"])


def _dist_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["dist"], args, kwargs)
    return _dist(self, v["other"], v["p"])


# ---- pdist ----------------------------------------------------------------------------------------------

def _pair_differences(x):
    # x[i] - x[j] for each pair i < j, in torch's order (row-major over the upper triangle)
    n = x.shape[0]
    i, j = minitorch.triu_indices(n, n, 1, device=x.device)
    return x[i] - x[j]


class _Pdist(Function):
    @staticmethod
    def forward(ctx, x, p):
        ctx.p = p
        ctx.save_for_backward(x)
        return minitorch.linalg.vector_norm(_pair_differences(x), p, -1)

    @staticmethod
    def backward(ctx, grad):
        # _pdist_backward: norm_backward of each pair's distance, added into both rows
        # (torch has no derivative of _pdist_backward: under create_graph its node raises when reached)
        (x,) = ctx.saved_tensors
        with minitorch.no_grad():
            (result,) = _vjp(lambda leaf: minitorch.linalg.vector_norm(_pair_differences(leaf), ctx.p, -1), (x,),
                             (True,), grad)
            result = minitorch.zeros_like(x) if result is None else result    # p = 0: zero
        if minitorch.is_grad_enabled():
            result = _NoDerivative.apply("PdistBackwardBackward0", "_pdist_backward", lambda: result, grad, x)
        return result, None


def pdist(*args, **kwargs):
    """The p-norm distance between each pair of input's rows (i < j), as a vector of n * (n - 1) / 2."""
    _, v = parse(_SIGNATURES["pdist"], args, kwargs)
    input, p = v["input"], v["p"]
    if input.dim() != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: {}D".format(input.dim()))
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if not p >= 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return _apply(_Pdist, "PdistBackward0", None, (input.contiguous(), p), {})


# ---- cdist ----------------------------------------------------------------------------------------------

_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


class _EuclideanDist(Function):
    """ATen's _euclidean_dist: |x1|^2 - 2 x1.x2 + |x2|^2 as one matrix product of padded operands, clamped
    at 0, square-rooted."""

    @staticmethod
    def forward(ctx, x1, x2):
        x1_norm = x1.pow(2).sum(-1, True)
        x2_norm = x2.pow(2).sum(-1, True)
        x1_ = minitorch.cat([x1.mul(-2), x1_norm, minitorch.ones_like(x1_norm)], -1)
        x2_ = minitorch.cat([x2, minitorch.ones_like(x2_norm), x2_norm], -1)
        result = x1_.matmul(x2_.transpose(-2, -1))
        result.clamp_min_(0).sqrt_()
        ctx.save_for_backward(x1, x2, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x1, x2, res = ctx.saved_tensors
        ratio = (grad / res).masked_fill(res == 0, 0)
        g1 = x1 * ratio.sum(-1, True) - ratio.matmul(x2)
        g2 = x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.transpose(-2, -1).matmul(x1)
        return (_reduce_to(g1, x1.shape) if ctx.needs_input_grad[0] else None,
                _reduce_to(g2, x2.shape) if ctx.needs_input_grad[1] else None)


def _cdist_kernel(x1, x2, p):
    """torch's CPU kernel (run_parallel_cdist): for each pair of rows, agg = red(agg, map(|a - b|)) over
    the columns in order, then finish(agg), in the input's dtype; the maximum of p = inf is std::max's (a
    NaN counts only in the first column). For p = 2 torch's compiled loop takes the columns 16 bytes at a
    time (4 floats, 2 doubles) and fuses each step of the columns left over, fma(d, d, agg). p = 0, 1, 2
    and inf give torch's bits; other p agree to an ulp (std::pow of a float through double)."""
    agg = minitorch.zeros(list(x1.shape[:-1]) + [x2.shape[-2]], dtype=x1.dtype, device=x1.device)
    a, b = x1.unsqueeze(-2), x2.unsqueeze(-3)
    m = x1.shape[-1]
    tail = m - m % (4 if x1.dtype == minitorch.float32 else 2)
    p_t = struct.unpack("f", struct.pack("f", p))[0] if x1.dtype == minitorch.float32 else p   # p as scalar_t
    for k in range(m):
        diff = (a[..., k] - b[..., k]).abs()
        if p == 0:
            agg = agg + diff.ceil().clamp(max=1)
        elif p == 1:
            agg = agg + diff
        elif p == 2 and k >= tail:
            # the columns past the last 16 bytes' worth are torch's scalar tail, whose steps the compiler fuses
            agg = _fused_difference(diff, diff, -agg, minitorch.ones_like(agg))
        elif p == 2:
            agg = agg + diff * diff
        elif math.isinf(p):
            agg = minitorch.where(agg < diff, diff, agg)
        else:
            agg = agg + _std_pow(diff, p_t)
    if p == 2:
        return _C._std_sqrt(agg)
    if p in (0, 1) or math.isinf(p):
        return agg
    return _std_pow(agg.double(), 1.0 / p_t).to(x1.dtype)      # std::pow(agg, 1.0 / p) in double


def _std_pow(x, p):
    """std::pow(x, p) of each element: a tensor exponent (pow's general kernel, without the special
    exponents torch's number exponents take: x * x * x for 3, sqrt for 0.5); a float's in double, rounded
    once, as the C library's powf rounds"""
    wide = x.double() if x.dtype == minitorch.float32 else x
    return wide.pow(minitorch.full_like(wide, p)).to(x.dtype)


def _cdist_grad(grad, x1, x2, p, dist):
    """ATen's _cdist_backward for x1: each pair's term by the p-norm's derivative, summed over x2's rows."""
    if p == 0 or grad.numel() == 0 or x1.numel() == 0 or x2.numel() == 0:
        return minitorch.zeros_like(x1)
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    g, d = grad.unsqueeze(-1), dist.unsqueeze(-1)
    if p == 1:
        term = diff.sign() * g
    elif p == 2:
        term = minitorch.where(d == 0, 0.0, g * diff / d)
    elif math.isinf(p):
        term = g * diff.sign() * (diff.abs() == d)
    elif p < 2:
        zero = (d == 0) | ((diff == 0) & (p < 1))
        term = minitorch.where(zero, 0.0, diff.sign() * diff.abs().pow(p - 1) * g / d.pow(p - 1))
    else:
        term = minitorch.where(d == 0, 0.0, diff * diff.abs().pow(p - 2) * g / d.pow(p - 1))
    return _reduce_to(term.sum(-2), x1.shape)


class _Cdist(Function):
    @staticmethod
    def forward(ctx, x1, x2, p, batch, result=None):
        # result: cdist_impl's own for an empty output (no kernel runs)
        ctx.p = p
        if result is None:
            a = x1.expand(batch + list(x1.shape[-2:]))
            b = x2.expand(batch + list(x2.shape[-2:]))
            result = _cdist_kernel(a, b, p)
        ctx.save_for_backward(x1, x2, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x1, x2, result = ctx.saved_tensors
        g1 = _cdist_grad(grad, x1, x2, ctx.p, result) if ctx.needs_input_grad[0] else None
        g2 = (_cdist_grad(grad.transpose(-2, -1), x2, x1, ctx.p, result.transpose(-2, -1))
              if ctx.needs_input_grad[1] else None)
        return g1, g2, None, None


def _cdist_impl(x1, x2, p, mode, use_mm):
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.is_floating_point():
            raise RuntimeError("cdist only supports floating-point dtypes, {} got: {}".format(
                name, t.dtype._scalar_name))
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.device.type != x2.device.type:
        raise RuntimeError("X1 and X2 must have the same device type. X1: {} X2: {}".format(x1.device.type,
                                                                                          x2.device.type))
    if x1.device.type == "cuda" and x1.device != x2.device:
        raise RuntimeError("device of X1 ({}) must match device of X2 ({})".format(x1.device.index, x2.device.index))
    m = 0 if mode is None else mode
    if not 0 <= m <= 2:
        raise RuntimeError("possible modes: 0, 1, 2, but was: {}".format(m))
    r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    batch = list(_C._infer_size(x1.shape[:-2], x2.shape[:-2]))
    product = 1
    for s in batch:
        product *= s
    shape = batch + [r1, r2]
    if r1 == 0 or r2 == 0 or product == 0:
        return minitorch.empty(shape, dtype=x1.dtype, device=x1.device), False
    if c == 0:
        return minitorch.zeros(shape, dtype=x1.dtype, device=x1.device), False
    if use_mm:
        if product == 1:
            a, b = x1, x2
        else:
            a = x1.expand(batch + [r1, c]).reshape(product, r1, c)
            b = x2.expand(batch + [r2, c]).reshape(product, r2, c)
        return _apply(_EuclideanDist, "EuclideanDistBackward0", None, (a, b), {}).view(shape), True
    if x1.dtype not in (minitorch.float32, minitorch.float64):
        raise NotImplementedError("\"cdist\" not implemented for '{}'".format(x1.dtype._scalar_name))
    if x2.dtype != x1.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(x1.dtype._scalar_name, x2.dtype._scalar_name))
    return None, False


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distances between each row of x1 and each row of x2 (batched over leading dims):
    p = 0, 1, 2, inf or any p >= 0. For p = 2 with more than 25 rows on either side (or
    compute_mode='use_mm_for_euclid_dist') the distances come from one matrix product."""
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError("{} is not a valid value for compute_mode".format(compute_mode))
    mode = _COMPUTE_MODES[compute_mode]
    _, v, _ = _C._parse_args(["cdist(Tensor x1, Tensor x2, double p=2, int64_t? compute_mode=None)"],
                             (x1, x2, p, mode), {})
    x1, x2, p = v["x1"], v["x2"], v["p"]
    if x1.dim() < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X1 got: {}D".format(x1.dim()))
    if x2.dim() < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X2 got: {}D".format(x2.dim()))
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: {} X2: {}".format(
            x1.shape[-1], x2.shape[-1]))
    m = 0 if mode is None else mode
    use_mm = (p == 2 and (m == 1 or (m == 0 and (x1.shape[-2] > 25 or x2.shape[-2] > 25)))
              and x1.numel() > 0 and x2.numel() > 0)
    if use_mm:
        return _cdist_impl(x1, x2, p, mode, True)[0]
    # _cdist_forward: one CdistBackward0 node over cdist_impl's checks and kernel
    result, _ = _cdist_impl(x1, x2, p, mode, False)
    batch = list(_C._infer_size(x1.shape[:-2], x2.shape[:-2]))
    return _apply(_Cdist, "CdistBackward0", None, (x1, x2, float(p), batch), {"result": result})


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    methods = [("renorm", _renorm_method, renorm.__doc__), ("renorm_", _renorm_inplace_method, renorm.__doc__),
               ("dist", _dist_method, dist.__doc__)]
    for name, method, doc in methods:
        method.__name__ = name
        method.__doc__ = doc
        setattr(tensor_type, name, method)
