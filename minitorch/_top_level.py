"""torch's top-level names (and a few Tensor methods) for what minitorch already has under another name or
form: the predicates and identities of real tensors (is_same_size, is_signed, is_conj, is_neg,
is_inference (of Tensor.is_inference, a C method), resolve_conj, resolve_neg, conj, real, imag's error), the
functional forms of methods (detach, get_device, fill, zero_, split_with_sizes), the factories scalar_tensor and
the deprecated range,
the in-place scans cumsum_ / cumprod_ (CumsumBackward0, CumprodBackward0 on the tensor itself), the
linear algebra torch keeps for old code (pinverse, the deprecated qr, frobenius_norm and nuclear_norm:
linalg's functions, with torch's once-per-process warnings), and the in-place comparisons torch spells
out (greater_, less_equal_, ...), and Tensor.apply_ / map_ (a Python callable over the elements). Each is parsed with torch's
signature (_C._parse_args) and calls the op torch's own composite calls, so values, nodes and messages
are that op's. install() puts the methods on Tensor."""

import math
import warnings

import minitorch
from minitorch._composite import _wrap_dim, parse, return_type, warn_once, with_out
from minitorch._special_ops import _CXX_NAMES
from minitorch.autograd.function import Function, _apply, _apply_inplace, _vjp

__all__ = ["is_same_size", "is_signed", "is_conj", "is_neg", "is_inference", "resolve_conj", "resolve_neg",
           "conj", "real", "imag", "detach", "get_device", "fill", "zero_", "split_with_sizes", "scalar_tensor",
           "range", "pinverse", "qr", "frobenius_norm", "nuclear_norm"]

_FACTORY_OPTIONS = ("ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
                    "bool requires_grad=False")
_SIGNATURES = {
    "is_same_size": ["is_same_size(Tensor input, Tensor other) -> bool"],
    "fill": ["fill(Tensor input, Tensor value)", "fill(Tensor input, Scalar value)"],
    "split_with_sizes": ["split_with_sizes(Tensor input, SymIntArrayRef split_sizes, int64_t dim=0)"],
    "scalar_tensor": ["scalar_tensor(Scalar s, *, " + _FACTORY_OPTIONS + ")"],
    "pinverse": ["pinverse(Tensor input, double rcond=1e-15)"],
    "qr": ["qr(Tensor input, bool some=True, *, TensorList[2] out=None)"],
    "frobenius_norm": ["frobenius_norm(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)"],
    "nuclear_norm": ["nuclear_norm(Tensor input, IntArrayRef[2] dim, bool keepdim=False, *, Tensor out=None)",
                     "nuclear_norm(Tensor input, bool keepdim=False, *, Tensor out=None)"],
    "range": ["range(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, " + _FACTORY_OPTIONS + ")"],
}
for _name in ("is_signed", "is_conj", "is_neg", "is_inference", "resolve_conj", "resolve_neg", "conj", "real",
              "imag", "detach", "get_device", "zero_"):
    _SIGNATURES[_name] = ["{}(Tensor input)".format(_name)]
_METHOD_SIGNATURES = {
    "is_same_size": ["is_same_size(Tensor other) -> bool"],
    "split_with_sizes": ["split_with_sizes(SymIntArrayRef split_sizes, int64_t dim=0)"],
    "pinverse": ["pinverse(double rcond=1e-15)"],
    "qr": ["qr(bool some=True)"],
    "cumsum_": ["cumsum_(int64_t dim, *, ScalarType? dtype=None)"],
    "cumprod_": ["cumprod_(int64_t dim, *, ScalarType? dtype=None)"],
    "map_": ["map_(Tensor other, PyObject* callable)"],
}

_RANGE_DEPRECATED = ("torch.range is deprecated and will be removed in a future release because its behavior is "
                     "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                     "[start, end).")


def _input(name, args, kwargs):
    return parse(_SIGNATURES[name], args, kwargs)[1]["input"]


# ---- predicates and identities of real tensors ------------------------------------------------------------
# minitorch's tensors are real and carry no conjugate or negative bit: conj and resolve_* return the tensor
# itself, as torch does for a tensor without the bit.

def is_same_size(*args, **kwargs):
    """True when input and other have the same shape."""
    _, v = parse(_SIGNATURES["is_same_size"], args, kwargs)
    return v["input"].shape == v["other"].shape


def is_signed(*args, **kwargs):
    """True when input's dtype is a signed type."""
    return _input("is_signed", args, kwargs).is_signed()


def is_conj(*args, **kwargs):
    """True when input's conjugate bit is set: never for a real tensor."""
    _input("is_conj", args, kwargs)
    return False


def is_neg(*args, **kwargs):
    """True when input's negative bit is set: never for a real tensor."""
    _input("is_neg", args, kwargs)
    return False


def is_inference(*args, **kwargs):
    """True for an inference tensor: one made under inference_mode (or a view of one)."""
    return _input("is_inference", args, kwargs).is_inference()


def resolve_conj(*args, **kwargs):
    """input with its conjugate bit materialised: input itself for a real tensor."""
    return _input("resolve_conj", args, kwargs)


def resolve_neg(*args, **kwargs):
    """input with its negative bit materialised: input itself for a real tensor."""
    return _input("resolve_neg", args, kwargs)


def conj(*args, **kwargs):
    """The complex conjugate of input: input itself for a real tensor."""
    return _input("conj", args, kwargs)


def real(*args, **kwargs):
    """The real part of input: input itself for a real tensor."""
    return _input("real", args, kwargs)


def imag(*args, **kwargs):
    """The imaginary part of input: torch's error for a real tensor."""
    _input("imag", args, kwargs)
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


# ---- functional forms of methods --------------------------------------------------------------------------

def detach(*args, **kwargs):
    """input.detach()."""
    return _input("detach", args, kwargs).detach()


def get_device(*args, **kwargs):
    """input.get_device(): the CUDA device index, -1 on the CPU."""
    return _input("get_device", args, kwargs).get_device()


def zero_(*args, **kwargs):
    """input.zero_()."""
    return _input("zero_", args, kwargs).zero_()


class _Fill(Function):
    """ATen's fill: a new tensor like input (its strides kept) filled with value; input's gradient is zero,
    a tensor value's the sum of the gradient."""

    @staticmethod
    def forward(ctx, input, value):
        if isinstance(value, minitorch.Tensor) and value.dim() != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with {} "
                               "dimensions.".format(value.dim()))
        return minitorch.empty_like(input).fill_(value)

    @staticmethod
    def backward(ctx, grad):
        return (minitorch.zeros_like(grad) if ctx.needs_input_grad[0] else None,
                grad.sum() if ctx.needs_input_grad[1] else None)


def fill(*args, **kwargs):
    """A new tensor of input's shape, dtype and device filled with value (a number or a 0-dim tensor)."""
    index, v = parse(_SIGNATURES["fill"], args, kwargs)
    node = "FillBackward1" if index == 0 else "FillBackward0"
    return _apply(_Fill, node, None, (v["input"], v["value"]), {})


def split_with_sizes(*args, **kwargs):
    """input's views of the listed sizes along dim."""
    _, v = parse(_SIGNATURES["split_with_sizes"], args, kwargs)
    return v["input"].split(list(v["split_sizes"]), v["dim"])


def _split_with_sizes_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["split_with_sizes"], args, kwargs)
    return self.split(list(v["split_sizes"]), v["dim"])


def _is_same_size_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["is_same_size"], args, kwargs)
    return self.shape == v["other"].shape


# ---- factories --------------------------------------------------------------------------------------------

def scalar_tensor(*args, **kwargs):
    """A 0-dim tensor of s, in the default dtype unless dtype is given."""
    _, v = parse(_SIGNATURES["scalar_tensor"], args, kwargs)
    dtype = v["dtype"] if v["dtype"] is not None else minitorch.get_default_dtype()
    return minitorch.full((), v["s"], dtype=dtype, device=v["device"], requires_grad=v["requires_grad"])


def _range_values(start, end, step, dtype, device):
    # ATen's range: its checks, then start + i * step for i in [0, (end - start) / step], in the accumulate
    # type (double for floating dtypes, int64 for integral ones), cast to dtype
    integral = not (dtype.is_floating_point or dtype.is_complex)
    if integral:
        start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError("unsupported range: {} -> {}".format(_number(start), _number(end)))
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    size = int(math.floor((end - start) / step)) + 1
    if not size < 2 ** 63:
        # torch's size, cast to int64, wraps
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: "
                           "-9223372036854775808")
    acc = minitorch.int64 if integral else minitorch.float64
    steps = minitorch.arange(size, dtype=acc, device=device)
    return (steps * step + start).to(dtype)


def _number(x):
    # a Scalar as c10 prints it: whole doubles without a fraction
    return int(x) if isinstance(x, float) and x.is_integer() else x


def range(*args, **kwargs):
    """Deprecated (torch.arange is the replacement): start, start + step, ... up to and including end, in
    the default dtype unless dtype is given."""
    warnings.warn(_RANGE_DEPRECATED, UserWarning, stacklevel=2)
    _, v = parse(_SIGNATURES["range"], args, kwargs)
    out = v["out"]
    dtype = v["dtype"] or (out.dtype if out is not None else minitorch.get_default_dtype())
    device = v["device"] if out is None else out.device

    def compute():
        result = _range_values(v["start"], v["end"], v["step"], dtype, device)
        return result.requires_grad_() if v["requires_grad"] else result

    return with_out("arange", out, compute)


# ---- in-place scans ---------------------------------------------------------------------------------------

class _Scan(Function):
    """cumsum / cumprod of self written back into it; backward: the functional op's own, through autograd."""

    @staticmethod
    def forward(ctx, self, op, dim, dtype):
        ctx.op, ctx.dim, ctx.dtype = op, dim, dtype
        ctx.save_for_backward(self)
        return getattr(self, op)(dim, dtype=dtype)

    @staticmethod
    def backward(ctx, grad):
        (self,) = ctx.saved_tensors
        (result,) = _vjp(lambda x: getattr(x, ctx.op)(ctx.dim, dtype=ctx.dtype), (self,), (True,), grad)
        return result, None, None, None


def _scan_inplace(op, node):
    def method(self, *args, **kwargs):
        _, v = parse(_METHOD_SIGNATURES[op + "_"], args, kwargs)
        dtype = v["dtype"]
        if dtype is not None and dtype != self.dtype:
            raise RuntimeError("Bad in-place call: input tensor dtype {} and output tensor dtype {} should "
                               "match".format(_CXX_NAMES[str(self.dtype).split(".")[1]],
                                              _CXX_NAMES[str(dtype).split(".")[1]]))
        dim = _wrap_dim(v["dim"], self.dim())
        if self.dtype == minitorch.bool and dtype is None:
            raise NotImplementedError("\"{}_out_{}\" not implemented for 'Bool'".format(op, self.device.type))
        return _apply_inplace(_Scan, node, self, (op, dim, dtype), False)

    method.__name__ = op + "_"
    method.__doc__ = "Tensor.{}_(dim, *, dtype=None): {} in place.".format(op, op)
    return method


# ---- Python callables over the elements ------------------------------------------------------------------

def _element(value, dtype):
    # the callable's result as the tensor's element type (torch unpacks a double, or a bool for bool tensors)
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        if not isinstance(value, bool):
            raise TypeError("must be real number, not {}".format(type(value).__name__))
    if dtype == minitorch.bool:
        return bool(value)
    number = float(value)
    return number if dtype.is_floating_point else int(number)


def _each_element(self, name, values, fn):
    if self.device.type != "cpu":
        raise TypeError("{} is only implemented on CPU tensors".format(name))
    if self.requires_grad and minitorch.is_grad_enabled():
        raise RuntimeError("Can't call {}() on Variable that requires grad. Use var.detach().{}() "
                           "instead.".format(name, name))
    results = [_element(fn(*items), self.dtype) for items in values]
    with minitorch.no_grad():
        self.copy_(minitorch.tensor(results, dtype=self.dtype).view(self.shape))
    return self


def _apply_(self, callable):
    """Tensor.apply_(callable): each element replaced by callable(element), on the CPU (slow: one Python call
    per element)."""
    return _each_element(self, "apply_", ((v,) for v in self.reshape(-1).tolist()), callable)


def _map_(self, *args, **kwargs):
    """Tensor.map_(tensor, callable): each element replaced by callable(element, tensor's element), tensor
    broadcast to self's shape and of self's dtype."""
    _, v = parse(_METHOD_SIGNATURES["map_"], args, kwargs)
    tensor, callable = v["other"], v["callable"]
    if tensor.dtype != self.dtype:
        raise TypeError("map_: expected {} for 'other' (got {})".format(self.type(), tensor.type()))
    other = tensor.expand_as(self).reshape(-1).tolist()
    return _each_element(self, "map_", zip(self.reshape(-1).tolist(), other), callable)


# ---- linear algebra torch keeps for old code --------------------------------------------------------------

_QR_DEPRECATED = ("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                  "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
                  "Q, R = torch.qr(A, some)\nshould be replaced with\n"
                  "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
_FROBENIUS_DEPRECATED = ("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be "
                         "removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` "
                         "instead")
_NUCLEAR_DEPRECATED = ("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed "
                       "in a future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")


def pinverse(*args, **kwargs):
    """linalg.pinv(input, rcond): the pseudo-inverse."""
    _, v = parse(_SIGNATURES["pinverse"], args, kwargs)
    return minitorch.linalg.pinv(v["input"], rcond=v["rcond"])


def _pinverse_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["pinverse"], args, kwargs)
    return minitorch.linalg.pinv(self, rcond=v["rcond"])


def _qr(input, some, out):
    mode = "reduced" if some else "complete"
    return with_out("qr", out, lambda: return_type("qr")(*minitorch.linalg.qr(input, mode)))


def qr(*args, **kwargs):
    """Deprecated (linalg.qr is the replacement): Q and R of input, reduced unless some=False."""
    _, v = parse(_SIGNATURES["qr"], args, kwargs)
    warn_once(_QR_DEPRECATED)
    return _qr(v["input"], v["some"], v["out"])


def _qr_method(self, *args, **kwargs):
    _, v = parse(_METHOD_SIGNATURES["qr"], args, kwargs)
    warn_once(_QR_DEPRECATED)
    return _qr(self, v["some"], None)


def frobenius_norm(*args, **kwargs):
    """Deprecated: at::norm(input, 2, dim, keepdim) over at most two dims."""
    from minitorch.nn._native import Norm

    _, v = parse(_SIGNATURES["frobenius_norm"], args, kwargs)
    warn_once(_FROBENIUS_DEPRECATED)
    input, dim = v["input"], list(v["dim"])
    if len(dim) > 2:
        raise RuntimeError("Expected at most 2 dimensions, but got {} dimensions instead.".format(len(dim)))
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError("norm(): input dtype should be either floating point or complex. Got {} "
                           "instead.".format(input.dtype._scalar_name))
    return with_out("linalg_vector_norm", v["out"], lambda: Norm.apply(input, 2.0, dim, v["keepdim"]))


def nuclear_norm(*args, **kwargs):
    """Deprecated: linalg.matrix_norm(input, 'nuc', dim, keepdim), dim the last two unless given."""
    index, v = parse(_SIGNATURES["nuclear_norm"], args, kwargs)
    warn_once(_NUCLEAR_DEPRECATED)
    dim = list(v["dim"]) if index == 0 else [-2, -1]
    return minitorch.linalg.matrix_norm(v["input"], "nuc", dim, v["keepdim"], out=v["out"])


# ---- in-place comparisons ---------------------------------------------------------------------------------

_INPLACE_ALIASES = {"greater_": "gt_", "greater_equal_": "ge_", "less_": "lt_", "less_equal_": "le_",
                    "not_equal_": "ne_"}


def _inplace_alias(name, target):
    signatures = ["{}(Tensor other)".format(name), "{}(Scalar other)".format(name)]

    def method(self, *args, **kwargs):
        _, v = parse(signatures, args, kwargs)
        return getattr(self, target)(v["other"])

    method.__name__ = name
    method.__doc__ = "Tensor.{}: torch's other name for Tensor.{}.".format(name, target)
    return method


def _identity_method(name):
    function = globals()[name]

    def method(self):
        return function(self)

    method.__name__ = name
    method.__doc__ = function.__doc__
    return method


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    methods = {"split_with_sizes": _split_with_sizes_method, "is_same_size": _is_same_size_method,
               "pinverse": _pinverse_method, "qr": _qr_method}
    for name in ("is_conj", "is_neg", "resolve_conj", "resolve_neg", "conj"):
        methods[name] = _identity_method(name)
    for name, method in methods.items():
        method.__name__ = name
        method.__doc__ = globals()[name].__doc__
        setattr(tensor_type, name, method)
    _apply_.__name__, _map_.__name__ = "apply_", "map_"
    tensor_type.apply_, tensor_type.map_ = _apply_, _map_
    tensor_type.cumsum_ = _scan_inplace("cumsum", "CumsumBackward0")
    tensor_type.cumprod_ = _scan_inplace("cumprod", "CumprodBackward0")
    for name, target in _INPLACE_ALIASES.items():
        setattr(tensor_type, name, _inplace_alias(name, target))
