"""Statistics of samples that torch composes from its reductions (CompositeImplicitAutograd): cov and
corrcoef (aten/native/Correlation.cpp), written with the same ops in the same order, so values, dtypes and
autograd nodes are torch's (SqueezeBackward0, ClampBackward1). Arguments are parsed with torch's
signatures (_C._parse_args); install() puts the methods on Tensor."""

import warnings

import minitorch
from minitorch._composite import parse

__all__ = ["cov", "corrcoef"]

_SIGNATURES = {
    "cov": ["cov(Tensor input, *, int64_t correction=1, Tensor? fweights=None, Tensor? aweights=None)"],
    "corrcoef": ["corrcoef(Tensor input)"],
}
_METHOD_SIGNATURES = {
    "cov": ["cov(*, int64_t correction=1, Tensor? fweights=None, Tensor? aweights=None)"],
    "corrcoef": ["corrcoef()"],
}


# ---- cov, corrcoef ---------------------------------------------------------------------------------------

def _check_weights(name, w, observations, integral):
    if w.dim() > 1:
        raise RuntimeError("cov(): expected {0} to have one or fewer dimensions but got {0} with {1} dimensions"
                           .format(name, w.dim()))
    if integral and (w.is_floating_point() or w.dtype == minitorch.bool):
        raise RuntimeError("cov(): expected {0} to have integral dtype but got {0} with {1} dtype".format(
            name, w.dtype._scalar_name))
    if not integral and not w.is_floating_point():
        raise RuntimeError("cov(): expected {0} to have floating point dtype but got {0} with {1} dtype".format(
            name, w.dtype._scalar_name))
    if w.numel() != observations:
        raise RuntimeError("cov(): expected {} to have the same numel as there are observations in the input but "
                           "got {} != {}".format(name, w.numel(), observations))
    if observations != 0 and not bool(w.min().ge(0)):
        raise RuntimeError("cov(): {} cannot be negative".format(name))


def _cov(input, correction, fweights, aweights):
    # ATen's cov, step by step
    if input.dim() > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with {} "
                           "dimensions".format(input.dim()))
    if input.dtype == minitorch.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.dim() < 2 else input
    observations = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, observations, True)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, observations, False)
        w = aweights if w is None else w * aweights
    if w is not None:
        w_sum = w.sum()
    else:
        w_sum = minitorch.tensor(observations, dtype=minitorch.int64, device=x.device)
    if w is not None and not bool(w_sum.ne(0)):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if bool(norm_factor.le(0)):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=3)
        norm_factor = norm_factor.zero_()
    x = x - avg.unsqueeze(1)
    c = minitorch.mm(x, (x * w if w is not None else x).t())   # (conj() of a real tensor is itself)
    return minitorch.true_divide(c, norm_factor).squeeze()


def cov(*args, **kwargs):
    """The covariance matrix of the variables in input's rows (observations in its columns), with
    `correction` (1: Bessel's), frequency weights and observation weights."""
    _, v = parse(_SIGNATURES["cov"], args, kwargs)
    return _cov(v["input"], v["correction"], v["fweights"], v["aweights"])


def _corrcoef(input):
    # ATen's corrcoef: cov, divided by the deviations on both sides, clipped to [-1, 1]
    if input.dim() > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with {} "
                           "dimensions".format(input.dim()))
    c = _cov(input, 1, None, None)
    if c.dim() == 0:
        return c / c
    stddev = minitorch.sqrt(c.diagonal())
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


def corrcoef(*args, **kwargs):
    """The Pearson correlation coefficients of the variables in input's rows."""
    _, v = parse(_SIGNATURES["corrcoef"], args, kwargs)
    return _corrcoef(v["input"])


def _method(name, compute):
    def method(self, *args, **kwargs):
        _, v = parse(_METHOD_SIGNATURES[name], args, kwargs)
        return compute(self, v)
    method.__name__ = name
    method.__doc__ = globals()[name].__doc__
    return method


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, compute in [("cov", lambda s, v: _cov(s, v["correction"], v["fweights"], v["aweights"])),
                          ("corrcoef", lambda s, v: _corrcoef(s))]:
        setattr(tensor_type, name, _method(name, compute))
