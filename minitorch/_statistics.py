"""Statistics of samples that torch composes from its reductions (CompositeImplicitAutograd): cov and
corrcoef (aten/native/Correlation.cpp), quantile and nanquantile (aten/native/Sorting.cpp: a sort, ranks,
gather and an in-place lerp), written with the same ops in the same order, so values, dtypes and autograd
nodes are torch's (SqueezeBackward0, ClampBackward1; SqueezeBackward4 over TransposeBackward1,
LerpBackward1 or GatherBackward0). Arguments are parsed with torch's
signatures (_C._parse_args); install() puts the methods on Tensor."""

import warnings

import minitorch
from minitorch import _C
from minitorch._composite import _wrap_dim, parse

__all__ = ["cov", "corrcoef", "quantile", "nanquantile"]

_SIGNATURES = {
    "cov": ["cov(Tensor input, *, int64_t correction=1, Tensor? fweights=None, Tensor? aweights=None)"],
    "corrcoef": ["corrcoef(Tensor input)"],
}
for _name in ("quantile", "nanquantile"):
    _SIGNATURES[_name] = [
        _name + "(Tensor input, Tensor q, int64_t? dim=None, bool keepdim=False, *, "
        "c10::string_view interpolation=\"linear\", Tensor out=None)",
        _name + "(Tensor input, double q, int64_t? dim=None, bool keepdim=False, *, "
        "c10::string_view interpolation=\"linear\", Tensor out=None)"]
_METHOD_SIGNATURES = {
    "cov": ["cov(*, int64_t correction=1, Tensor? fweights=None, Tensor? aweights=None)"],
    "corrcoef": ["corrcoef()"],
}
for _name in ("quantile", "nanquantile"):
    _METHOD_SIGNATURES[_name] = [
        _name + "(Tensor q, int64_t? dim=None, bool keepdim=False, *, c10::string_view interpolation=\"linear\")",
        _name + "(double q, int64_t? dim=None, bool keepdim=False, *, c10::string_view interpolation=\"linear\")"]


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


def _scalar_true(t):
    # ATen's is_scalar_tensor_true: at::equal with a one, which has no meta kernel
    if t.device.type == "meta":
        _C._no_meta_kernel("aten::equal")
    return bool(t)


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
    if w is not None and not _scalar_true(w_sum.ne(0)):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if _scalar_true(norm_factor.le(0)):
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


# ---- quantile, nanquantile -------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_checks(input, q):
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (minitorch.float32, minitorch.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if input.dtype != q.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if input.device != q.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")


def _quantile_output_shape(dim, input, q, keepdim, wrapped_dim):
    shape = []
    if dim is not None and input.dim() > 0:
        shape = list(input.shape)
        if keepdim:
            shape[wrapped_dim] = 1
        else:
            del shape[wrapped_dim]
    elif keepdim:
        shape = [1] * input.dim()
    if q.dim() > 0:
        shape.insert(0, q.numel())
    return shape


def _quantile_compute(input, q, dim, interpolation, ignore_nan, wrapped_dim, out_shape):
    # ATen's quantile_compute, step by step
    if input.device.type == "cpu" and not bool(q.ge(0).logical_and_(q.le(1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is None:
        ordered = input.flatten().sort()[0]
    else:
        ordered = input.unsqueeze(-1).transpose(wrapped_dim, -1).sort()[0]
    if q.dim() == 0:
        out_shape = [q.numel()] + out_shape
    in_shape = out_shape[1:] + [0]
    in_shape[-1] = ordered.shape[-1]
    ordered = ordered.view(in_shape)
    if ordered.shape[-1] > 2 ** 24:
        raise RuntimeError("quantile() input tensor is too large")
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not_().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last_index = ordered.shape[-1] - 1
        scaled, any_nan = minitorch.broadcast_tensors(q * last_index, ordered.isnan().any(-1, True))
        ranks = minitorch.masked_fill(scaled, any_nan, last_index)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    ranks_below = ranks.to(minitorch.int64)
    values_below = ordered.gather(-1, ranks_below)
    if interpolation in ("linear", "midpoint"):
        weights = minitorch.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - ranks_below
        ranks_above = ranks.ceil_().to(minitorch.int64)
        values_above = ordered.gather(-1, ranks_above)
        values_below.lerp_(values_above, weights)
    if q.dim() == 0:
        values_below.squeeze_(-1)
    else:
        values_below.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return values_below


def _quantile(name, index, v, input, ignore_nan):
    q, dim, out = v["q"], v["dim"], v.get("out")
    if index == 1:
        # the double overload: its own range check, then q as a tensor of input's dtype
        if not 0 <= q <= 1:
            raise RuntimeError("quantile() q must be in the range [0, 1] but got {:g}".format(q))
        q = minitorch.tensor(q, dtype=input.dtype, device=input.device)
    interpolation = v["interpolation"]
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
                           "got " + interpolation)
    if out is not None:
        if out.dtype != input.dtype:
            raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
        if out.device != input.device:
            raise RuntimeError("quantile() out tensor must be on the same device as the input tensor")
    _quantile_checks(input, q)
    wrapped_dim = _wrap_dim(0 if dim is None else dim, input.dim())
    out_shape = _quantile_output_shape(dim, input, q, v["keepdim"], wrapped_dim)
    if out is None:
        return _quantile_compute(input, q, dim, interpolation, ignore_nan, wrapped_dim, out_shape)
    # quantile_out: resize_output, then out.copy_ (CopyBackwards, or the refusal of a leaf out)
    if out.requires_grad and out.grad_fn is None and minitorch.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    with minitorch.no_grad():
        _C._resize_output(out, tuple(out_shape))
    return out.copy_(_quantile_compute(input, q, dim, interpolation, ignore_nan, wrapped_dim, out_shape))


def quantile(*args, **kwargs):
    """The q-th quantiles of input (flattened, or along dim), q a number or a 1-D tensor in [0, 1];
    interpolation between the two nearest elements: linear, lower, higher, midpoint or nearest. A NaN
    in a row makes its quantiles NaN."""
    index, v = parse(_SIGNATURES["quantile"], args, kwargs)
    return _quantile("quantile", index, v, v["input"], False)


def nanquantile(*args, **kwargs):
    """quantile() over the elements that are not NaN (NaN where a row has none)."""
    index, v = parse(_SIGNATURES["nanquantile"], args, kwargs)
    return _quantile("nanquantile", index, v, v["input"], True)


def _quantile_method(name, ignore_nan):
    def method(self, *args, **kwargs):
        index, v = parse(_METHOD_SIGNATURES[name], args, kwargs)
        return _quantile(name, index, v, self, ignore_nan)
    method.__name__ = name
    method.__doc__ = globals()[name].__doc__
    return method


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
    tensor_type.quantile = _quantile_method("quantile", False)
    tensor_type.nanquantile = _quantile_method("nanquantile", True)
