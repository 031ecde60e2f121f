"""nn.init: functions that fill a tensor in place with starting values for training.

The named schemes (uniform, normal, Xavier/Glorot, Kaiming/He, constants) turn a layer's shape into
a range or a standard deviation and make one draw from the default generator, computed with the
same float steps and in the same order as torch, so that after ``manual_seed(s)`` a layer holds
torch's exact values. The draws themselves are the C core's ``Tensor.uniform_`` / ``normal_``; the
truncated normal, orthogonal and sparse fills make torch's draws in torch's order on top of them, and the
deprecated names without the underscore warn and call the new ones.
For a core without them, ``_uniform_fill`` / ``_normal_fill`` rebuild torch's values from
``rand`` / ``randn`` (the same generator steps) with torch's CPU kernel arithmetic, rounded as it
rounds (one fused multiply-add in the element type), and copy them in. Every function fills the
tensor it is given and returns it; none allocates a parameter.
"""

import math
import struct
import warnings

import minitorch

__all__ = [
    "calculate_gain",
    "uniform_",
    "normal_",
    "constant_",
    "ones_",
    "zeros_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "trunc_normal_",
    "orthogonal_",
    "eye_",
    "dirac_",
    "sparse_",
]


# ---- rounding helpers for the fallback fills ---------------------------------------------------

def _to_float32(x):
    """Rounds a Python float (a double) to the nearest float32, ties to even (C's (float)x)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def _fma_to_float32(x, y, z):
    """x * y + z computed exactly and rounded once to float32 (what fmaf does)."""
    from fractions import Fraction  # only the rare inexact fallback needs it; keeps import light

    exact = Fraction(x) * Fraction(y) + Fraction(z)
    s = float(exact)  # correctly rounded to double
    if Fraction(s) != exact and struct.unpack("<Q", struct.pack("<d", s))[0] & 1 == 0:
        # Round to odd: rounding the double again to float32 is then correct (53 >= 24 + 2 bits),
        # whereas a double that landed exactly on a float32 tie would round the wrong way.
        s = math.nextafter(s, math.inf if exact > s else -math.inf)
    return _to_float32(s)


def _fma_to_float64(x, y, z):
    """x * y + z computed exactly and rounded once to float64 (what fma does)."""
    from fractions import Fraction

    return float(Fraction(x) * Fraction(y) + Fraction(z))


def _lsb_exponent(x, mantissa_bits):
    # The exponent of the last mantissa bit of x (x != 0) in a format with that many bits.
    return math.frexp(x)[1] - mantissa_bits


def _float32_fma_exact_in_double(factor, addend, largest):
    """True when u * factor + addend (u a float32 uniform or normal value, factor and addend
    float32) is exact in double for every |result| <= largest, so plain double arithmetic gives
    fmaf's result after one rounding. The product of two 24-bit mantissas has 48 bits; the sum
    must stay within 53."""
    if largest == 0 or factor == 0:
        return True
    low = _lsb_exponent(factor, 24) - 24
    if addend != 0:
        low = min(low, _lsb_exponent(addend, 24))
    return math.frexp(largest)[1] - low <= 53


def _map_nested(fn, values):
    if isinstance(values, list):
        return [_map_nested(fn, v) for v in values]
    return fn(values)


def _copy_values(tensor, nested, dtype):
    tensor.copy_(minitorch.tensor(nested, dtype=dtype, device=tensor.device))
    return tensor


def _check_uniform_bounds(a, b):
    # torch's check_uniform_bounds (C++ prints doubles with %g's precision).
    if not a <= b:
        raise RuntimeError(
            "uniform_ expects to return a [from, to) range, but found from=%g > to=%g" % (a, b))


def _uniform_fill(tensor, a, b):
    """tensor.uniform_(a, b) from minitorch.rand: torch draws the same unit values u, writes
    fma(u, to - from, from) in the tensor's type (from and to rounded to that type first), and
    turns a result that rounded up to ``to`` into ``from`` so that the range stays [from, to)."""
    _check_uniform_bounds(a, b)
    dtype = tensor.dtype
    unit = minitorch.rand(tensor.shape, dtype=dtype, device=tensor.device)
    if dtype == minitorch.float32:
        low, high = _to_float32(a), _to_float32(b)
        width = _to_float32(high - low)
        largest = max(abs(low), abs(low + width))
        if _float32_fma_exact_in_double(width, low, largest):
            if hasattr(unit, "__mul__") and hasattr(unit, "eq"):
                # u * width and the sum are exact in float64; .float() is the single rounding.
                values = (unit.double() * width + low).float()
                # value == to -> from, as arithmetic: to + (from - to) is exact in float64 here
                # because from and to are float32 values of nearby magnitude.
                at_high = values.eq(high).double()
                return tensor.copy_((values.double() + at_high * (low - high)).float())
            fill = lambda u: _to_float32(u * width + low)  # noqa: E731
        else:
            fill = lambda u: _fma_to_float32(u, width, low)  # noqa: E731
    else:
        low, high = float(a), float(b)
        width = high - low
        fill = lambda u: _fma_to_float64(u, width, low)  # noqa: E731

    def below_high(u):
        value = fill(u)
        return low if value == high else value

    return _copy_values(tensor, _map_nested(below_high, unit.tolist()), dtype)


def _normal_fill(tensor, mean, std):
    """tensor.normal_(mean, std) from minitorch.randn, following torch's two CPU paths: a
    contiguous tensor with 16 or more elements takes the vectorised fill (standard normals
    z, then fma(z, std, mean) in the tensor's type); anything else draws doubles one at a time
    and computes fma(z, std, mean) in double before the cast."""
    if std < 0:
        raise RuntimeError("normal expects std >= 0.0, but found std %g" % std)
    dtype = tensor.dtype
    vectorised = tensor.numel() >= 16 and tensor.is_contiguous()
    if vectorised and dtype == minitorch.float32:
        z = minitorch.randn(tensor.shape, dtype=dtype, device=tensor.device)
        m, s = _to_float32(mean), _to_float32(std)
        # A float32 standard normal from 24-bit uniforms stays below sqrt(-2 ln 2^-24) < 6.
        if _float32_fma_exact_in_double(s, m, 6.0 * abs(s) + abs(m)):
            fill = lambda v: _to_float32(v * s + m)  # noqa: E731
        else:
            fill = lambda v: _fma_to_float32(v, s, m)  # noqa: E731
    elif vectorised:
        z = minitorch.randn(tensor.shape, dtype=dtype, device=tensor.device)
        fill = lambda v: _fma_to_float64(v, std, mean)  # noqa: E731
    else:
        # The one-at-a-time path makes doubles for every dtype, so draw float64 and cast after.
        z = minitorch.randn(tensor.shape, dtype=minitorch.float64, device=tensor.device)
        if dtype == minitorch.float32:
            fill = lambda v: _to_float32(_fma_to_float64(v, std, mean))  # noqa: E731
        else:
            fill = lambda v: _fma_to_float64(v, std, mean)  # noqa: E731
    return _copy_values(tensor, _map_nested(fill, z.tolist()), dtype)


# ---- filling a tensor in place -------------------------------------------------------------------

def _fill(tensor, method, args, generator=None, fallback=None):
    """Calls ``tensor.<method>(*args)`` with autograd off; ``fallback(tensor, *args)`` when the core
    lacks the method. The generator is passed on only when one is given."""
    with minitorch.no_grad():
        # the fallback is for tensors only: anything else fails on the method as in torch
        # (nn.init.uniform_(2.5) used to reach the fallback's bounds check: RuntimeError)
        if isinstance(tensor, minitorch.Tensor) and not hasattr(tensor, method):
            return fallback(tensor, *args)
        if generator is None:
            return getattr(tensor, method)(*args)
        return getattr(tensor, method)(*args, generator=generator)


def _copy_full(tensor, value):
    # The fallback for fill_/zero_: copy in a tensor of the same shape holding ``value``.
    return tensor.copy_(minitorch.full(tensor.shape, value, dtype=tensor.dtype,
                                       device=tensor.device))


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fills ``tensor`` with values drawn uniformly from [a, b); returns it."""
    return _fill(tensor, "uniform_", (a, b), generator, _uniform_fill)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fills ``tensor`` with values drawn from N(mean, std^2); returns it."""
    return _fill(tensor, "normal_", (mean, std), generator, _normal_fill)


def constant_(tensor, val):
    """Fills ``tensor`` with ``val``; returns it."""
    return _fill(tensor, "fill_", (val,), fallback=_copy_full)


def ones_(tensor):
    """Fills ``tensor`` with ones; returns it."""
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fills ``tensor`` with zeros; returns it."""
    return _fill(tensor, "zero_", (), fallback=lambda t: _copy_full(t, 0))


# ---- gains and fans ------------------------------------------------------------------------------

# Layers with no nonlinearity of their own; their recommended gain is 1, as for sigmoid.
_GAIN_ONE = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
             "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' scale steady through ``nonlinearity``: 1 for linear
    layers and sigmoid, 5/3 for tanh, sqrt(2) for relu, sqrt(2 / (1 + slope^2)) for leaky_relu
    (``param`` is the slope, 0.01 by default), 3/4 for selu."""
    if nonlinearity in _GAIN_ONE:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, float) or (isinstance(param, int) and not isinstance(param, bool)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """(fan_in, fan_out) of a weight shaped (out, in, *kernel): in and out times prod(kernel).
    Kept under torch's name: torch code that re-initialises layers by hand calls it."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    kernel_size = math.prod(tensor.shape[2:])
    return tensor.size(1) * kernel_size, tensor.size(0) * kernel_size


def _kaiming_std(tensor, a, mode, nonlinearity):
    # gain / sqrt(fan), the fan chosen by mode; the mode is checked before the tensor's shape.
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def _xavier_std(tensor, gain):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return gain * math.sqrt(2.0 / float(fan_in + fan_out))


# ---- the named schemes ---------------------------------------------------------------------------
# A uniform draw in [-bound, bound) with bound = sqrt(3) * std has standard deviation std.

def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot uniform: U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)); returns ``tensor``."""
    bound = math.sqrt(3.0) * _xavier_std(tensor, gain)
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot normal: N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)); returns ``tensor``."""
    return normal_(tensor, 0.0, _xavier_std(tensor, gain), generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He uniform: U(-bound, bound), bound = gain * sqrt(3 / fan); returns ``tensor``.

    ``nn.Linear`` uses it with ``a=sqrt(5)``, which makes the bound 1 / sqrt(in_features). A tensor
    with no elements is left alone, with a warning.
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He normal: N(0, std^2), std = gain / sqrt(fan); returns ``tensor``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    return normal_(tensor, 0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


# ---- structured fills ---------------------------------------------------------------------------

def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fills ``tensor`` with N(mean, std^2) values restricted to [a, b]; returns it.

    torch 2.13's two samplers, draw for draw: when [a, b] holds more than 30% of the mass, normal draws
    with the values outside the bounds (rounded to the tensor's type) drawn again; otherwise uniform
    candidates in [a, b] accepted where log(U) <= the candidate's log density below the peak.
    """
    if tensor.is_meta:   # no storage to fill (and torch's AttributeError for what is not a tensor)
        return tensor
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)

    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    with minitorch.no_grad():
        if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
            low = tensor.new_tensor(a, device="cpu").item()
            high = tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                outside = (result < low) | (result > high)
                if not outside.any():
                    break
                redraw = minitorch.empty_like(result).normal_(mean, std, generator=generator)
                result = minitorch.where(outside, redraw, result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
        candidates = minitorch.empty_like(tensor)
        accept = minitorch.empty_like(tensor)

        def log_density(values):  # below the peak, in place
            return values.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        pending = accept.uniform_(generator=generator).log_().gt(log_density(candidates))
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = minitorch.where(pending, candidates, result)
                rejected = accept.uniform_(generator=generator).log_().gt(log_density(candidates))
                pending = minitorch.where(pending, rejected, pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def eye_(tensor):
    """Fills a 2-D ``tensor`` with the identity matrix (ones on the main diagonal); returns it."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with minitorch.no_grad():
        minitorch.eye(*tensor.shape, out=tensor, requires_grad=tensor.requires_grad)
    return tensor


def dirac_(tensor, groups=1):
    """Fills a 3-, 4- or 5-D convolution weight so that the convolution passes its input through (in each
    of ``groups`` groups, as many channels as fit); returns it."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.size(0) % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    if tensor.is_meta:
        return tensor
    per_group = tensor.size(0) // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with minitorch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.size(1))):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """Fills ``tensor`` (2-D or more, trailing dimensions flattened) with a (semi-)orthogonal matrix times
    ``gain``: the Q of a normal matrix's QR factorisation, its columns' signs fixed by R's diagonal."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened.t_()
    q, r = minitorch.linalg.qr(flattened)
    q *= minitorch.diag(r, 0).sign()
    if rows < cols:
        q.t_()
    with minitorch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fills a 2-D ``tensor`` with N(0, std^2) values and then zeroes ceil(sparsity * rows) entries of each
    column, at rows from ``randperm`` (torch draws those from the default generator); returns it."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if tensor.is_meta:
        return tensor
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with minitorch.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[minitorch.randperm(rows)[:zeros], col] = 0
    return tensor


# ---- the deprecated names ------------------------------------------------------------------------

def _deprecated(function):
    new_name = function.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return function(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"{old_name}(...): deprecated, calls nn.init.{new_name}."
    return deprecated_init


uniform, normal, constant = _deprecated(uniform_), _deprecated(normal_), _deprecated(constant_)
eye, dirac, orthogonal, sparse = _deprecated(eye_), _deprecated(dirac_), _deprecated(orthogonal_), _deprecated(sparse_)
xavier_uniform, xavier_normal = _deprecated(xavier_uniform_), _deprecated(xavier_normal_)
kaiming_uniform, kaiming_normal = _deprecated(kaiming_uniform_), _deprecated(kaiming_normal_)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)


def _reset_weight_and_bias(weight, bias):
    """The default initialisation of torch's Linear and Conv layers, in its order: He-uniform weight with
    a = sqrt(5) (a bound of 1/sqrt(fan_in)), then the bias uniform in +-1/sqrt(fan_in)."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in = _calculate_fan_in_and_fan_out(weight)[0]
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)
