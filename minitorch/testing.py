"""minitorch.testing: torch.testing's assert_close and make_tensor for tests written against torch.

assert_close walks two inputs together (sequences item by item, mappings key by key) and compares each
pair of leaves as torch's comparison pairs do, in torch's order: None, bools, Python (and NumPy) numbers,
then tensor-likes (tensors, or two objects torch.as_tensor takes). A mismatch raises torch's exception with
torch's text: the attribute checks (shape, stride, device, dtype), then the values with the default rtol and
atol of the looser dtype, the mismatch statistics and where the greatest differences are. This file only
compares and creates; it changes nothing it is given.
"""

import cmath
import collections.abc
import math
import warnings

import minitorch

__all__ = ["assert_close", "make_tensor"]

# {dtype: (rtol, atol)}: torch's defaults; any other dtype (integers, bool) compares exactly
_DTYPE_PRECISIONS = {
    minitorch.float16: (0.001, 1e-5),
    minitorch.bfloat16: (0.016, 1e-5),
    minitorch.float32: (1.3e-6, 1e-5),
    minitorch.float64: (1e-7, 1e-7),
}
# the dtype torch reads a Python number's tolerances from
_NUMBER_DTYPES = {int: minitorch.int64, float: minitorch.float64, complex: minitorch.float64}


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise, torch's message and the item's path."""

    def __init__(self, type, msg, path=()):
        super().__init__(msg)
        self.type, self.msg, self.path = type, msg, path

    def to_error(self, msg=None):
        if not isinstance(msg, str):
            text = self.msg
            if self.path:
                text += "\n\nThe failure occurred for item " + "".join(str([item]) for item in self.path)
            msg = msg(text) if callable(msg) else text
        return self.type(msg)


class _Unsupported(Exception):
    """This kind of comparison does not handle these inputs: try the next one."""


def _tolerances(dtypes, rtol, atol, path):
    if (rtol is None) ^ (atol is None):
        raise _Mismatch(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no {}."
                        .format("rtol" if rtol is None else "atol"), path)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*[_DTYPE_PRECISIONS.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _mismatch_message(identifier, extra, abs_diff, abs_index, atol, rel_diff, rel_index, rtol):
    equality = rtol == 0 and atol == 0

    def line(kind, diff, index, tol):
        text = ("%s difference: %s" % (kind.title(), diff) if index is None
                else "Greatest %s difference: %s at index %s" % (kind, diff, index))
        return text + ("" if equality else " (up to %s allowed)" % tol) + "\n"

    msg = "%s are not %s!\n\n%s\n" % (identifier, "equal" if equality else "close", extra.strip())
    msg += line("absolute", abs_diff, abs_index, atol) + line("relative", rel_diff, rel_index, rtol)
    return msg.strip()


def _scalar_message(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", "Expected %s but got %s." % (expected, actual), abs_diff, None, atol,
                             rel_diff, None, rtol)


def _tensor_message(actual, expected, matches, rtol, atol):
    shape = matches.shape

    def unravel(flat):
        index = []
        for size in reversed(shape):
            flat, rest = divmod(flat, size)
            index.append(rest)
        return tuple(reversed(index))

    count = matches.numel()
    mismatches = count - int(minitorch.sum(matches))
    extra = "Mismatched elements: %d / %d (%s)" % (mismatches, count, format(mismatches / count, ".1%"))
    actual, expected, matches = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point:
        actual, expected = actual.to(minitorch.int64), expected.to(minitorch.int64)
    abs_diff = minitorch.abs(actual - expected)
    abs_diff[matches] = 0   # only the mismatches count
    max_abs, abs_at = minitorch.max(abs_diff, 0)
    rel_diff = abs_diff / minitorch.abs(expected)
    rel_diff[matches] = 0
    max_rel, rel_at = minitorch.max(rel_diff, 0)
    return _mismatch_message("Tensor-likes", extra, max_abs.item(), unravel(int(abs_at)), atol, max_rel.item(),
                             unravel(int(rel_at)), rtol)


# ---- the comparisons of two leaves, tried in torch's order ------------------------------------------------

def _numpy():
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _compare_none(actual, expected, path, options):
    if not (actual is None or expected is None):
        raise _Unsupported
    return lambda: None if actual is None and expected is None else _fail(
        "None mismatch: %s is not %s" % (actual, expected), path)


def _fail(msg, path):
    raise _Mismatch(AssertionError, msg, path)


def _compare_bools(actual, expected, path, options):
    np = _numpy()
    kinds = (bool,) if np is None else (bool, np.bool_)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    actual, expected = bool(actual), bool(expected)
    # torch's boolean pair drops the item's path: its message never says where
    return lambda: None if actual is expected else _fail("Booleans mismatch: %s is not %s" % (actual, expected), ())


def _compare_numbers(actual, expected, path, options):
    np = _numpy()
    kinds = (int, float, complex) if np is None else (int, float, complex, np.number)
    if not (isinstance(actual, kinds) and isinstance(expected, kinds)):
        raise _Unsupported
    actual, expected = (x.item() if np is not None and isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], options["rtol"],
                             options["atol"], path)

    def compare():
        if options["check_dtype"] and type(actual) is not type(expected):
            _fail("The (d)types do not match: %s != %s." % (type(actual), type(expected)), path)
        if actual == expected:
            return
        if options["equal_nan"] and cmath.isnan(actual) and cmath.isnan(expected):
            return
        diff = abs(actual - expected)
        if cmath.isfinite(diff) and diff <= atol + rtol * abs(expected):
            return
        _fail(_scalar_message(actual, expected, rtol, atol), path)

    return compare


def _as_tensor(value):
    if isinstance(value, minitorch.Tensor):
        return value
    try:
        return minitorch.as_tensor(value)
    except Exception:
        raise _Unsupported from None


def _compare_tensors(actual, expected, path, options):
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not options["allow_subclasses"] and type(actual) is not type(expected):
        raise _Unsupported
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], options["rtol"], options["atol"], path)

    def attribute(name, a, e):
        _fail("The values for attribute '%s' do not match: %s != %s." % (name, a, e), path)

    def compare():
        a, e = actual, expected
        if a.shape != e.shape:
            attribute("shape", a.shape, e.shape)
        if options["check_stride"] and a.stride() != e.stride():
            attribute("stride()", a.stride(), e.stride())
        if options["check_device"] and a.device != e.device:
            attribute("device", a.device, e.device)
        if options["check_dtype"] and a.dtype != e.dtype:
            attribute("dtype", a.dtype, e.dtype)
        if a.device.type == "meta" or e.device.type == "meta":
            return
        if a.device != e.device:
            a, e = a.cpu(), e.cpu()
        if a.dtype != e.dtype:
            common = minitorch.promote_types(a.dtype, e.dtype)
            a, e = a.to(common), e.to(common)
        matches = minitorch.isclose(a, e, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
        if minitorch.all(matches):
            return
        if a.shape == ():
            _fail(_scalar_message(a.item(), e.item(), rtol, atol), path)
        _fail(_tensor_message(a, e, matches, rtol, atol), path)

    return compare


_COMPARISONS = (_compare_none, _compare_bools, _compare_numbers, _compare_tensors)


def _comparisons(actual, expected, path, options):
    """The comparisons of the leaves of two nested inputs, each a function raising _Mismatch; raises
    _Mismatch itself where the nesting differs or no comparison takes a pair of leaves."""
    sequence = collections.abc.Sequence
    if (isinstance(actual, sequence) and not isinstance(actual, str) and isinstance(expected, sequence)
            and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, "The length of the sequences mismatch: %d != %d"
                            % (len(actual), len(expected)), path)
        return [c for i in range(len(actual)) for c in _comparisons(actual[i], expected[i], path + (i,), options)]
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n"
                            "Missing keys in the actual mapping: %s\nAdditional keys in the actual mapping: %s"
                            % (sorted(expected_keys - actual_keys), sorted(actual_keys - expected_keys)), path)
        try:
            keys = sorted(actual_keys)
        except Exception:
            keys = actual_keys
        return [c for key in keys for c in _comparisons(actual[key], expected[key], path + (key,), options)]
    for comparison in _COMPARISONS:
        try:
            return [comparison(actual, expected, path, options)]
        except _Unsupported:
            continue
    raise _Mismatch(TypeError, "No comparison pair was able to handle inputs of type %s and %s."
                    % (type(actual), type(expected)), path)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raises AssertionError unless ``actual`` and ``expected`` are close: for each pair of values,
    |actual - expected| <= atol + rtol * |expected| (the defaults by dtype: float16 1e-3 and 1e-5, bfloat16
    1.6e-2 and 1e-5, float32 1.3e-6 and 1e-5, float64 1e-7 and 1e-7, exact otherwise), with the same shape,
    device and dtype unless told not to check. ``msg`` replaces the message (a callable gets torch's)."""
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype, check_stride=check_stride)
    try:
        comparisons = _comparisons(actual, expected, (), options)
    except _Mismatch as mismatch:
        raise mismatch.to_error() from None
    for compare in comparisons:
        try:
            compare()
        except _Mismatch as mismatch:
            raise mismatch.to_error(msg) from None


# ---- make_tensor ----------------------------------------------------------------------------------------------

_INTEGRAL = (minitorch.uint8, minitorch.int8, minitorch.int16, minitorch.int32, minitorch.int64)
_FLOATING = (minitorch.float16, minitorch.bfloat16, minitorch.float32, minitorch.float64)


def _bounds(dtype, low, high, lowest, highest, default_low, default_high):
    # torch's modify_low_high: the defaults, the checks, clamped to what the dtype holds
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and dtype in _FLOATING:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
                      "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                      FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} only "
                         f"supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype not in _FLOATING:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` filled with random values in [low, high) (by default [-9, 9] for floating and
    integer dtypes, both values for bool) drawn as torch draws them (randint, uniform_), so that after the
    same manual_seed it holds torch's values. ``noncontiguous`` makes it a strided view,
    ``exclude_zero`` replaces zeros by 1 (the smallest normal for floating dtypes)."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
                         f"noncontiguous={noncontiguous} and memory_format={memory_format}")
    if requires_grad and (dtype is minitorch.bool or dtype in _INTEGRAL):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])   # twice the last dim, so that the view skips values
    if dtype is minitorch.bool:
        low, high = _bounds(dtype, low, high, 0, 2, 0, 2)
        result = minitorch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = minitorch.iinfo(dtype)
        # randint cannot draw int64's largest value: its bound is exclusive and held in an int64
        low, high = _bounds(dtype, low, high, info.min, info.max + (dtype is not minitorch.int64), -9, 10)
        result = minitorch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING:
        info = minitorch.finfo(dtype)
        low, high = _bounds(dtype, low, high, info.min, info.max, -9, 9)
        result = minitorch.empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:   # uniform_ needs to - from representable: draw half the range, double it
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor(). To request "
                        "support, file an issue at: https://github.com/pytorch/pytorch/issues")
    if noncontiguous:
        result = result[..., 1::2]   # offset by one to catch offset bugs too
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = minitorch.finfo(dtype).tiny if dtype in _FLOATING else 1
    if dtype in _FLOATING:
        result.requires_grad = requires_grad
    return result


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
