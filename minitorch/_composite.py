"""ATen ops that torch writes as compositions of other ops (CompositeImplicitAutograd in its
native_functions.yaml), written here the same way on minitorch's C ops: outer/ger, nonzero/argwhere and
the one-argument where, count_nonzero, repeat_interleave, float_power, positive; and as_tensor, which
torch writes around tensor() (the data itself when it already is a tensor of the dtype and device asked
for, a NumPy array's memory shared). Because each is the same composition as torch's, autograd records
torch's nodes (outer is MulBackward0, repeat_interleave with a number ends in ViewBackward0 over
CloneBackward0, ...), and the checks come in torch's order with torch's messages.
Arguments are parsed with torch's signatures (the C parser, _C._parse_args), so a wrong call gets torch's
TypeError. install() puts the methods on Tensor."""

import warnings

import minitorch
from minitorch import _C

__all__ = ["outer", "ger", "nonzero", "argwhere", "where", "count_nonzero", "repeat_interleave", "as_tensor", "asarray",
           "frombuffer", "isclose", "allclose", "equal", "float_power", "positive"]

# torch's Python signatures of each op: as a function, and as a Tensor method (without `input` and `out`,
# as torch's generated methods have them)
_FUNCTION_SIGNATURES = {
    "as_tensor": ["as_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None)"],
    "asarray": ["asarray(PyObject* obj, *, ScalarType? dtype=None, Device? device=None, bool? copy=None, "
                "bool? requires_grad=None)"],
    "frombuffer": ["frombuffer(PyObject* buffer, *, ScalarType dtype, int64_t count=-1, int64_t offset=0, "
                   "bool requires_grad=False)"],
    "outer": ["outer(Tensor input, Tensor vec2, *, Tensor out=None)"],
    "ger": ["ger(Tensor input, Tensor vec2, *, Tensor out=None)"],
    "nonzero": ["nonzero(Tensor input, *, bool as_tuple=False, Tensor out=None)"],
    "argwhere": ["argwhere(Tensor input)"],
    "isclose": ["isclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)"],
    "allclose": ["allclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False) "
                 "-> bool"],
    "equal": ["equal(Tensor input, Tensor other) -> bool"],
    "positive": ["positive(Tensor input)"],
    "float_power": ["float_power(Tensor input, Tensor exponent, *, Tensor out=None)",
                    "float_power(Scalar self, Tensor exponent, *, Tensor out=None)",
                    "float_power(Tensor input, Scalar exponent, *, Tensor out=None)"],
    "count_nonzero": ["count_nonzero(Tensor input, int64_t? dim=None)", "count_nonzero(Tensor input, IntArrayRef dim)"],
    "repeat_interleave": ["repeat_interleave(Tensor input, Tensor repeats, int64_t? dim=None, *, SymInt? output_size=None)",
                          "repeat_interleave(Tensor repeats, *, SymInt? output_size=None)",
                          "repeat_interleave(Tensor input, SymInt repeats, int64_t? dim=None, *, SymInt? output_size=None)"],
}
_METHOD_SIGNATURES = {
    "outer": ["outer(Tensor vec2)"],
    "ger": ["ger(Tensor vec2)"],
    "nonzero": ["nonzero()", "nonzero(*, bool as_tuple)"],
    "argwhere": ["argwhere()"],
    "isclose": ["isclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)"],
    "allclose": ["allclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False) -> bool"],
    "equal": ["equal(Tensor other) -> bool"],
    "float_power": ["float_power(Tensor exponent)", "float_power(Scalar exponent)"],
    "float_power_": ["float_power_(Tensor exponent)", "float_power_(Scalar exponent)"],
    "count_nonzero": ["count_nonzero(int64_t? dim=None)", "count_nonzero(IntArrayRef dim)"],
    "repeat_interleave": ["repeat_interleave(Tensor repeats, int64_t? dim=None, *, SymInt? output_size=None)",
                          "repeat_interleave(SymInt repeats, int64_t? dim=None, *, SymInt? output_size=None)"],
}


def parse(signatures, args, kwargs):
    """(overload index, {parameter: value}) of a call parsed as torch parses it with these signatures (the
    ops written in Python share this)."""
    index, values, _ = _C._parse_args(signatures, args, kwargs)
    return index, values


def parse_method(signatures, self, args, kwargs):
    """As parse, for a Tensor method called on self (which becomes `input`; a method has no out=)."""
    index, values = parse(signatures, args, kwargs)
    values["input"] = self
    values.setdefault("out", None)
    return index, values


def _parse(name, args, kwargs):
    return parse(_FUNCTION_SIGNATURES[name], args, kwargs)


def _parse_method(name, self, args, kwargs):
    return parse_method(_METHOD_SIGNATURES[name], self, args, kwargs)


def return_type(name):
    """A maker of torch.return_types.<name> (the named tuples of csrc/python/return_types.c), called with the
    items: return_type("sort")(values, indices)."""
    cls = getattr(_C.return_types, name)
    return lambda *items: cls(items)


_warned = set()


def warn_once(message):
    """torch's TORCH_WARN_ONCE: once per process, pointing at the caller of the public function calling this."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def with_out(name, out, compute):
    """compute() when out is None; otherwise its result written into out (a tensor, or a tuple of them) by
    torch's out= rule for `name`, as the C ops write theirs (_C._write_out): the autograd refusal, the op's
    dtype check, resize_output and its warning. Returns what torch returns: out, or return_types.<name>_out
    of the tuple."""
    if out is None:
        return compute()
    return _C._write_out(name, out, compute)


# ---- outer ----------------------------------------------------------------------------------------------

def _outer(name, input, vec2):
    # ATen's outer: both 1-D, then input as a column times vec2 (so the node is MulBackward0)
    for arg, t in (("self", input), ("vec2", vec2)):
        if t.dim() != 1:
            raise RuntimeError("outer: Expected 1-D argument {}, but got {}-D".format(arg, t.dim()))
    return input.reshape(-1, 1) * vec2


def outer(*args, **kwargs):
    """The outer product of two 1-D tensors: out[i, j] = input[i] * vec2[j]."""
    _, v = _parse("outer", args, kwargs)
    return with_out("outer", v["out"], lambda: _outer("outer", v["input"], v["vec2"]))


_GER_DEPRECATED = "torch.ger is deprecated and will be removed in a future PyTorch release. Use torch.outer instead."


def ger(*args, **kwargs):
    """Alias of outer() (deprecated, with torch's warning)."""
    _, v = _parse("ger", args, kwargs)
    warnings.warn(_GER_DEPRECATED, UserWarning, stacklevel=2)
    return with_out("ger", v["out"], lambda: _outer("ger", v["input"], v["vec2"]))


# ---- nonzero, argwhere, where(condition), count_nonzero -------------------------------------------------

def _nonzero(input):
    """The (N, input.dim()) int64 coordinates of input's nonzero elements (NaN counts), row-major."""
    with minitorch.no_grad():
        mask = (input != 0).reshape(-1)
        flat = minitorch.arange(mask.shape[0], device=input.device)[mask]
        if input.dim() == 0 or flat.shape[0] == 0:
            return minitorch.zeros(flat.shape[0], input.dim(), dtype=minitorch.int64, device=input.device)
        columns, rest = [], flat
        for size in reversed(input.shape):
            columns.append(rest % size)
            rest = rest // size
        return minitorch.stack(columns[::-1], dim=1)


def _nonzero_tuple(input):
    """nonzero's columns, one 1-D tensor per dim (a 0-d input counts as 1-D, as torch's nonzero_numpy)."""
    coords = _nonzero(input.reshape(1) if input.dim() == 0 else input)
    return tuple(coords.unbind(1))


def nonzero(*args, **kwargs):
    """The indices of the nonzero elements: an (N, input.dim()) int64 tensor, or with as_tuple=True one
    1-D tensor per dim."""
    _, v = _parse("nonzero", args, kwargs)
    if v["as_tuple"]:
        if v["out"] is not None:
            raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
        return _nonzero_tuple(v["input"])
    return with_out("nonzero", v["out"], lambda: _nonzero(v["input"]))


def _nonzero_method(self, *args, **kwargs):
    index, v = _parse_method("nonzero", self, args, kwargs)
    return _nonzero_tuple(self) if index == 1 and v["as_tuple"] else _nonzero(self)


def argwhere(*args, **kwargs):
    """nonzero(input): the (N, input.dim()) indices of the nonzero elements."""
    _, v = _parse("argwhere", args, kwargs)
    return _nonzero(v["input"])


def _argwhere_method(self, *args, **kwargs):
    _parse_method("argwhere", self, args, kwargs)
    return _nonzero(self)


def where(*args, **kwargs):
    """where(condition, input, other): input where condition holds, other elsewhere (the C op);
    where(condition) alone: nonzero(condition, as_tuple=True)."""
    if len(args) + len(kwargs) == 1 and (args or "condition" in kwargs):
        condition = args[0] if args else kwargs["condition"]
        if isinstance(condition, minitorch.Tensor):
            return _nonzero_tuple(condition)
    return _C.where(*args, **kwargs)


def _count_nonzero(input, dim):
    dims = [] if dim is None else [dim] if isinstance(dim, int) else list(dim)
    with minitorch.no_grad():
        return (input != 0).sum(dims)


def count_nonzero(*args, **kwargs):
    """The number of nonzero elements (over dim, an int or a tuple of ints, or all), as int64."""
    _, v = _parse("count_nonzero", args, kwargs)
    return _count_nonzero(v["input"], v["dim"])


def _count_nonzero_method(self, *args, **kwargs):
    _, v = _parse_method("count_nonzero", self, args, kwargs)
    return _count_nonzero(self, v["dim"])


# ---- repeat_interleave ----------------------------------------------------------------------------------

def _wrap_dim(dim, ndim):
    """dim as an index in [0, ndim) (a 0-d tensor has one dim here), or torch's IndexError."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
            -n, n - 1, dim))
    return dim % n


def _repeats_to_index(repeats, output_size):
    """repeat_interleave(repeats): each i repeated repeats[i] times (ATen's repeat_interleave_common)."""
    if repeats.dtype not in (minitorch.int64, minitorch.int32):
        raise NotImplementedError('"repeat_interleave_cpu" not implemented for \'{}\''.format(
            repeats.dtype._scalar_name))
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.shape[0] == 0:
        return minitorch.empty_like(repeats)
    if repeats.is_meta and output_size is None:
        raise RuntimeError("cannot repeat_interleave a meta tensor without output_size")
    with minitorch.no_grad():
        cumsum = repeats.cumsum(0)
        total = cumsum[-1].item() if output_size is None else output_size
        if bool((repeats < 0).any()):
            raise RuntimeError("repeats can not be negative")
        if cumsum[-1].item() != total:
            raise RuntimeError("allocated size does not match required size")
        # position p of the result holds the i with cumsum[i - 1] <= p < cumsum[i]: the count of the
        # cumulative sums at or below p
        positions = minitorch.arange(total, device=repeats.device, dtype=repeats.dtype)
        return (cumsum.reshape(1, -1) <= positions.reshape(-1, 1)).sum(1).to(repeats.dtype)


def _repeat_interleave(input, repeats, dim, output_size):
    if isinstance(repeats, minitorch.Tensor):
        if dim is None:
            input, dim = input.flatten(), 0
        dim = _wrap_dim(dim, input.dim())
        if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.shape[0] == 1):
            repeats = repeats.reshape(1).expand(input.shape[dim])
        elif repeats.dim() == 1:
            if repeats.shape[0] != input.shape[dim]:
                raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) "
                                   "= {} and input.size({}) = {}".format(repeats.shape[0], dim, input.shape[dim]))
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return input.index_select(dim, _repeats_to_index(repeats, output_size))
    # a number of repeats: every slice along dim repeated in place, as a view expanded and copied
    flat = input if dim is not None else input.flatten()
    dim = _wrap_dim(0 if dim is None else dim, input.dim())
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    flat = flat.unsqueeze(dim + 1)
    shape = list(flat.shape)
    shape[dim + 1] = repeats
    flat = flat.expand(shape)
    if output_size is not None and output_size != repeats * shape[dim]:
        raise RuntimeError("repeat_interleave: Invalid output_size, expected {} but got {}".format(
            repeats * shape[dim], output_size))
    return flat.clone(memory_format=minitorch.contiguous_format).flatten(dim, dim + 1)


def repeat_interleave(*args, **kwargs):
    """Each element (or each slice along dim) repeated: repeats is a number, or a tensor of counts, one
    per slice. repeat_interleave(repeats) alone: each index i repeated repeats[i] times."""
    index, v = _parse("repeat_interleave", args, kwargs)
    if index == 1:
        return _repeats_to_index(v["repeats"], v["output_size"])
    return _repeat_interleave(v["input"], v["repeats"], v["dim"], v["output_size"])


def _repeat_interleave_method(self, *args, **kwargs):
    _, v = _parse_method("repeat_interleave", self, args, kwargs)
    return _repeat_interleave(self, v["repeats"], v["dim"], v["output_size"])


# ---- isclose, allclose, equal ------------------------------------------------------------------------------

def _isclose(input, other, rtol, atol, equal_nan):
    # ATen's isclose: equality, NaN == NaN when asked, then |input - other| <= atol + rtol * |other| where the
    # difference is finite, computed in the default dtype for integer and bool tensors
    if input.dtype != other.dtype:
        raise RuntimeError("{} did not match {}".format(input.dtype._scalar_name, other.dtype._scalar_name))
    if rtol < 0:
        raise RuntimeError("rtol must be greater than or equal to zero, but got {}".format(_number(rtol)))
    if atol < 0:
        raise RuntimeError("atol must be greater than or equal to zero, but got {}".format(_number(atol)))
    with minitorch.no_grad():
        close = input == other
        if equal_nan and input.is_floating_point():
            close = close | (input.isnan() & other.isnan())
        if rtol == 0 and atol == 0:
            return close
        if not input.is_floating_point():
            input, other = input.to(minitorch.get_default_dtype()), other.to(minitorch.get_default_dtype())
        allowed = (other * rtol).abs() + atol
        actual = (input - other).abs()
        return close | (actual.isfinite() & (actual <= allowed))


def _number(x):
    # a double in a C++ message: integral values without ".0" (c10's formatting)
    return int(x) if x == int(x) else x


def isclose(*args, **kwargs):
    """Whether each element of input is close to other's: |input - other| <= atol + rtol * |other| (or equal;
    NaNs equal each other with equal_nan=True)."""
    _, v = _parse("isclose", args, kwargs)
    return _isclose(v["input"], v["other"], v["rtol"], v["atol"], v["equal_nan"])


def allclose(*args, **kwargs):
    """Whether every element of input is close to other's (isclose(...).all())."""
    _, v = _parse("allclose", args, kwargs)
    return bool(_isclose(v["input"], v["other"], v["rtol"], v["atol"], v["equal_nan"]).all())


def _equal(input, other):
    if "meta" in (input.device.type, other.device.type):
        _C._no_meta_kernel("aten::equal")
    if input.shape != other.shape:
        return False
    with minitorch.no_grad():
        return bool((input == other).all())


def equal(*args, **kwargs):
    """True when input and other have the same shape and equal elements (NaN equals nothing)."""
    _, v = _parse("equal", args, kwargs)
    return _equal(v["input"], v["other"])


def _isclose_method(self, *args, **kwargs):
    _, v = _parse_method("isclose", self, args, kwargs)
    return _isclose(self, v["other"], v["rtol"], v["atol"], v["equal_nan"])


def _allclose_method(self, *args, **kwargs):
    _, v = _parse_method("allclose", self, args, kwargs)
    return bool(_isclose(self, v["other"], v["rtol"], v["atol"], v["equal_nan"]).all())


def _equal_method(self, *args, **kwargs):
    _, v = _parse_method("equal", self, args, kwargs)
    return _equal(self, v["other"])


# ---- float_power ----------------------------------------------------------------------------------------

def _double_number(x):
    # a number as float_power takes it: a double, or a complex number left for pow's complex-dtype error
    return x if isinstance(x, complex) else float(x)


def _float_power(base, exponent, out=None):
    # ATen's float_power: pow in float64, each tensor converted first (ToCopyBackward0 under PowBackward),
    # a number exponent or base as a double (minitorch has no complex dtype, so never complex128)
    double = minitorch.float64
    if out is not None and out.dtype != double:
        raise RuntimeError("the output given to float_power has dtype {} but the operation's result requires "
                           "dtype {}".format(_scalar_type_name(out.dtype), _scalar_type_name(double)))
    base = base.to(double) if isinstance(base, minitorch.Tensor) else _double_number(base)
    exponent = exponent.to(double) if isinstance(exponent, minitorch.Tensor) else _double_number(exponent)
    if out is not None:
        return minitorch.pow(base, exponent, out=out)
    return minitorch.pow(base, exponent)


def _scalar_type_name(dtype):
    # c10's ScalarType names in messages: Float, Double, Long, ...
    names = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
             "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}
    return names[str(dtype).split(".")[-1]]


def float_power(*args, **kwargs):
    """input ** exponent computed in float64 (the result is float64 whatever the inputs' dtypes)."""
    _, v = _parse("float_power", args, kwargs)
    return _float_power(v.get("input", v.get("self")), v["exponent"], v["out"])


def _float_power_method(self, *args, **kwargs):
    _, v = _parse_method("float_power", self, args, kwargs)
    return _float_power(self, v["exponent"])


def _float_power__method(self, *args, **kwargs):
    _, v = _parse_method("float_power_", self, args, kwargs)
    if self.dtype != minitorch.float64:
        raise RuntimeError("the base given to float_power_ has dtype {} but the operation's result requires dtype "
                           "Double".format(_scalar_type_name(self.dtype)))
    exponent = v["exponent"]
    return self.pow_(exponent.to(minitorch.float64) if isinstance(exponent, minitorch.Tensor) else float(exponent))


# ---- positive -------------------------------------------------------------------------------------------

def _positive(input):
    # ATen's positive: input itself (no node, no copy), refused for bool
    if input.dtype == minitorch.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def positive(*args, **kwargs):
    """input itself (+input); a bool tensor is refused."""
    _, v = _parse("positive", args, kwargs)
    return _positive(v["input"])


def no_arguments(name, args, kwargs):
    """torch's TypeError for arguments given to a Tensor method that takes none (its C base class's)."""
    if args or kwargs:
        raise TypeError("TensorBase.{}() takes no arguments ({} given)".format(name, len(args) + len(kwargs)))


def _positive_method(self, *args, **kwargs):
    no_arguments("positive", args, kwargs)
    return _positive(self)


# ---- as_tensor ------------------------------------------------------------------------------------------

def as_tensor(*args, **kwargs):
    """data as a tensor, copying only when it must: a tensor of the dtype and device asked for is returned
    itself (otherwise converted, as .to() does, with its node), a NumPy array's memory is shared when its
    dtype is kept on the CPU, anything else is read as tensor(data) reads it."""
    _, v = _parse("as_tensor", args, kwargs)
    data, dtype, device = v["data"], v["dtype"], v["device"]
    if isinstance(data, minitorch.Tensor):
        return data.to(device=device if device is not None else data.device, dtype=dtype or data.dtype)
    if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray":
        try:
            shared = minitorch.from_numpy(data)
        except TypeError:
            shared = None
        if shared is not None:
            return shared.to(device=device if device is not None else "cpu", dtype=dtype or shared.dtype)
    return minitorch.tensor(data, dtype=dtype, device=device)


# ---- asarray --------------------------------------------------------------------------------------------

_ASARRAY_REQUIRES_GRAD = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                          "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
                          "warning.")
def _is_ndarray(obj):
    return type(obj).__module__ == "numpy" and type(obj).__name__ == "ndarray"


def frombuffer(*args, **kwargs):
    """A 1-d CPU tensor over `count` elements (-1: all) of an object's buffer from byte `offset`, sharing its
    memory (a read-only buffer too, after torch's warning)."""
    _, v = _parse("frombuffer", args, kwargs)
    tensor = _C._frombuffer(v["buffer"], v["dtype"], v["count"], v["offset"])
    _check_requires_grad(tensor, v["requires_grad"])
    return tensor.requires_grad_(v["requires_grad"])


def _check_requires_grad(tensor, requires_grad):
    """torch's set_requires_grad check for a tensor made from outside memory (frombuffer, asarray)."""
    if requires_grad and not (tensor.is_floating_point() or tensor.is_complex()):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _aliasable(obj, dtype):
    """The tensor obj's memory already is (a tensor, a DLPack capsule, a NumPy array, a buffer); None when obj
    is none of these (asarray's cases 1 to 4, in its order)."""
    if isinstance(obj, minitorch.Tensor):
        return obj
    if type(obj).__name__ == "PyCapsule":
        return minitorch.from_dlpack(obj)
    if _is_ndarray(obj):
        return minitorch.from_numpy(obj)
    if type(obj).__module__ == "numpy":
        return None     # a NumPy scalar is read as a number
    try:
        memoryview(obj).release()
    except TypeError:
        return None
    return _C._frombuffer(obj, dtype if dtype is not None else minitorch.get_default_dtype(), -1, 0)


def asarray(*args, **kwargs):
    """obj as a tensor, sharing memory where it can: a tensor, a DLPack capsule, a NumPy array or an object
    with the buffer protocol is aliased unless copy=True or the dtype/device asked for differ (copy=False then
    raises); anything else is read as tensor(obj) reads it (copy=False raises). requires_grad, when given,
    is set on the result (a non-leaf asked for False is detached); unspecified, the tensor's own is kept."""
    _, v = _parse("asarray", args, kwargs)
    obj, dtype, device, copy, requires_grad = v["obj"], v["dtype"], v["device"], v["copy"], v["requires_grad"]
    if device is not None and not isinstance(device, minitorch.device):
        device = minitorch.device(device)
    tensor = _aliasable(obj, dtype)
    if tensor is None:
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        tensor = minitorch.tensor(obj, dtype=dtype, device=device)
    else:
        if requires_grad is None and tensor.requires_grad:
            warn_once(_ASARRAY_REQUIRES_GRAD)
        if requires_grad is None:
            requires_grad = tensor.requires_grad
        wrong_device = device is not None and device != tensor.device
        wrong_dtype = dtype is not None and dtype != tensor.dtype
        if copy or (copy is None and (wrong_device or wrong_dtype)):
            if wrong_device or wrong_dtype:
                tensor = tensor.to(device=device or tensor.device, dtype=dtype or tensor.dtype, copy=bool(copy))
            else:
                tensor = tensor.clone()
        elif wrong_device:
            raise ValueError("can't alias tensor from device '{}' to '{}'.".format(tensor.device, device))
        elif wrong_dtype:
            raise ValueError("can't alias tensor with dtype '{}' into dtype '{}'.".format(
                tensor.dtype._scalar_name, dtype._scalar_name))
    _check_requires_grad(tensor, requires_grad)
    if tensor.is_leaf:
        tensor.requires_grad_(bool(requires_grad))
    elif not requires_grad:
        tensor = tensor.detach()
    return tensor


def _outer_method(self, *args, **kwargs):
    _, v = _parse_method("outer", self, args, kwargs)
    return _outer("outer", self, v["vec2"])


def _ger_method(self, *args, **kwargs):
    _, v = _parse_method("ger", self, args, kwargs)
    warnings.warn(_GER_DEPRECATED, UserWarning, stacklevel=2)
    return _outer("ger", self, v["vec2"])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    methods = {"outer": _outer_method, "ger": _ger_method, "nonzero": _nonzero_method,
               "argwhere": _argwhere_method, "count_nonzero": _count_nonzero_method,
               "repeat_interleave": _repeat_interleave_method, "isclose": _isclose_method,
               "allclose": _allclose_method, "equal": _equal_method, "float_power": _float_power_method,
               "float_power_": _float_power__method, "positive": _positive_method}
    for name, method in methods.items():
        method.__name__ = name
        method.__doc__ = globals()[name.rstrip("_")].__doc__
        setattr(tensor_type, name, method)
    # +t is torch's Tensor.positive
    tensor_type.__pos__ = _positive_method
