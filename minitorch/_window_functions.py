"""The signal-processing windows torch makes as factories: hann_window, hamming_window, blackman_window,
bartlett_window and kaiser_window, and torch.signal.windows' spellings of the same windows.

Each is torch's composite (aten/src/ATen/native/TensorFactories.cpp) step for step over minitorch's ops, in
the window's dtype and on its device: an arange, scaled (by doubles rounded to the window's type first, as
torch's composite rounds them), through cos, so a window carries torch's rounding of each step; kaiser's
kernel is torch's element formula, computed on the host in its math type. Arguments are parsed with torch's overloads (_C._parse_args); the
checks (floating dtype, non-negative length) run in torch's order with its messages.
"""

import math

import minitorch
from minitorch import _C
from minitorch.nn import init as _init  # its float32 rounding helpers (not `from nn.init import`: that
# probes nn.init.__path__, whose module __getattr__ would load the list of torch's names at import)

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]

_OPTIONS = ("*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
            "bool? requires_grad=False")


def _signatures(name, *extra):
    # torch's overloads: (window_length), (window_length, periodic), then each extra positional argument
    heads = ["int64_t window_length", "int64_t window_length, bool periodic"]
    for arg in extra:
        heads.append(heads[-1] + ", double " + arg)
    return ["%s(%s, %s)" % (name, head, _OPTIONS) for head in heads]


_SIGNATURES = {
    "hann_window": _signatures("hann_window"),
    "hamming_window": _signatures("hamming_window", "alpha", "beta"),
    "blackman_window": _signatures("blackman_window"),
    "bartlett_window": _signatures("bartlett_window"),
    "kaiser_window": _signatures("kaiser_window", "beta"),
}

# the C++ names torch's TensorOptions printout gives the dtypes that fail the floating-point check
_CPP_DTYPE_NAMES = {minitorch.bool: "bool", minitorch.uint8: "unsigned char", minitorch.int8: "signed char",
                    minitorch.int16: "short int", minitorch.int32: "int", minitorch.int64: "long int"}


def _options_text(dtype, given):
    # torch's operator<< for TensorOptions as its window checks print it ("(default)": not given)
    layout = "Strided" + ("" if given.get("layout") is not None else " (default)")
    return ("TensorOptions(dtype={}, device={}, layout={}, requires_grad=false (default), pinned_memory=false, "
            "memory_format=(nullopt))".format(_CPP_DTYPE_NAMES.get(dtype, dtype), given["device"],
                                              layout))


def _parse(name, args, kwargs):
    """(values, dtype, device): torch's parse and window_function_checks, the length still unchanged."""
    _, values, _ = _C._parse_args(_SIGNATURES[name], args, kwargs)
    dtype = values.get("dtype") or minitorch.get_default_dtype()
    device = minitorch.device(values["device"]) if values.get("device") is not None else \
        minitorch.get_default_device()
    layout = values.get("layout")
    if layout is not None and layout != minitorch.strided:
        raise RuntimeError("%s is not implemented for sparse types, got: %s" % (name, layout))
    if not dtype.is_floating_point:
        raise RuntimeError("%s expects floating point dtypes, got: %s" % (
            name, _options_text(dtype, {"layout": layout, "device": device})))
    if values["window_length"] < 0:
        raise RuntimeError("%s requires non-negative window_length, got window_length=%d"
                           % (name, values["window_length"]))
    return values, dtype, device


def _window(name, args, kwargs, build):
    """The shared frame: the parse and checks, the empty and one-long windows, the periodic window as the
    first N of a symmetric window of N + 1, requires_grad set on the result."""
    values, dtype, device = _parse(name, args, kwargs)
    length, periodic = values["window_length"], values.get("periodic", True)
    if length <= 1:
        window = minitorch.ones(length, dtype=dtype, device=device)
    else:
        n = length + 1 if periodic else length
        with minitorch.no_grad():
            window = build(minitorch.arange(n, dtype=dtype, device=device), n, values)
        if periodic:
            window = window.narrow(0, 0, n - 1)
    if values.get("requires_grad"):
        window.requires_grad_(True)
    return window


def _in(window, value):
    # torch's composite rounds each double it scales by to the window's type first
    return minitorch.tensor(value, dtype=window.dtype).item()


def _hamming(window, n, alpha, beta):
    window.mul_(_in(window, math.pi * 2.0 / (n - 1))).cos_()
    return window.mul_(_in(window, -beta)).add_(_in(window, alpha))


def hann_window(*args, **kwargs):
    """0.5 - 0.5 cos(2 pi k / (N - 1)): the Hann window of window_length points (periodic: the first
    window_length of window_length + 1)."""
    return _window("hann_window", args, kwargs, lambda w, n, v: _hamming(w, n, 0.5, 0.5))


def hamming_window(*args, **kwargs):
    """alpha - beta cos(2 pi k / (N - 1)), alpha=0.54 and beta=0.46 by default: the Hamming window."""
    return _window("hamming_window", args, kwargs,
                   lambda w, n, v: _hamming(w, n, v.get("alpha", 0.54), v.get("beta", 0.46)))


def _blackman(window, n, values):
    window.mul_(_in(window, math.pi / (n - 1)))
    return window.mul(4).cos_().mul_(_in(window, 0.08)) - window.mul(2).cos_().mul_(0.5) + _in(window, 0.42)


def blackman_window(*args, **kwargs):
    """0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1)): the Blackman window."""
    return _window("blackman_window", args, kwargs, _blackman)


def _bartlett(window, n, values):
    window.mul_(_in(window, 2.0 / (n - 1)))
    first_half = ((n - 1) >> 1) + 1
    window.narrow(0, first_half, n - first_half).mul_(-1).add_(2)
    return window


def bartlett_window(*args, **kwargs):
    """The triangle 1 - |2k / (N - 1) - 1|: the Bartlett window."""
    return _window("bartlett_window", args, kwargs, _bartlett)


def _kaiser_argument(k, alpha, beta, rounded, fma):
    # beta * sqrt(|1 - ((k - alpha) / alpha)^2|) rounded as torch's compiled kernel rounds it: the compiler
    # turns pow(x, 2) into x * x and contracts 1 - x * x into one fused multiply-add; sqrt and each double
    # step are correctly rounded to float32
    ratio = rounded(rounded(k - alpha) / alpha)
    return rounded(beta * rounded(math.sqrt(abs(fma(-ratio, ratio, 1.0)))))


def _kaiser(window, n, values):
    # torch's kernel, element by element in the op's math type (float for the 16-bit types) with i0 its
    # calc_i0 (minitorch's i0), rounded to the window's type once at the end
    dtype = window.dtype
    math_dtype = minitorch.float64 if dtype == minitorch.float64 else minitorch.float32
    rounded = float if math_dtype == minitorch.float64 else _init._to_float32
    fma = _init._fma_to_float64 if math_dtype == minitorch.float64 else _init._fma_to_float32
    alpha = rounded((n - 1) / 2.0)
    beta = rounded(values.get("beta", 12.0))
    arguments = [_kaiser_argument(k, alpha, beta, rounded, fma) for k in window.cpu().tolist()]
    numerator = minitorch.tensor(arguments, dtype=math_dtype).i0()
    denominator = minitorch.tensor(beta, dtype=math_dtype).i0()
    return (numerator / denominator).to(dtype=dtype, device=window.device)


def kaiser_window(*args, **kwargs):
    """i0(beta sqrt(1 - ((k - (N - 1) / 2) / ((N - 1) / 2))^2)) / i0(beta), beta=12 by default: the Kaiser
    window."""
    return _window("kaiser_window", args, kwargs, _kaiser)
