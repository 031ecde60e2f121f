"""torch's special-function ops that ATen writes as compositions with a derivative of their own: mvlgamma
(the sum of lgamma over arange(-p/2 + 1/2, 1/2, 1/2) + x, MvlgammaBackward0), ldexp (input * 2 ** other,
LdexpBackward0) and frexp (mantissa and exponent, FrexpBackward0; the C library's frexp on the bits). Each
forward is the same composition as torch's on minitorch's C ops, run below autograd, so the values are
torch's; the node is recorded with torch's name and formula (minitorch.autograd.function._apply)."""

import math

import minitorch
from minitorch import _C
from minitorch._composite import no_arguments, parse, parse_method, return_type, with_out
from minitorch.autograd.function import Function, _apply, _apply_inplace

__all__ = ["mvlgamma", "ldexp", "frexp"]

_FUNCTION_SIGNATURES = {
    "mvlgamma": ["mvlgamma(Tensor input, int64_t p, *, Tensor out=None)"],
    "ldexp": ["ldexp(Tensor input, Tensor other, *, Tensor out=None)"],
    "frexp": ["frexp(Tensor input, *, TensorList[2] out=None)"],
}
_METHOD_SIGNATURES = {
    "mvlgamma": ["mvlgamma(int64_t p)"],
    "mvlgamma_": ["mvlgamma_(int64_t p)"],
    "ldexp": ["ldexp(Tensor other)"],
    "ldexp_": ["ldexp_(Tensor other)"],
}


# ---- mvlgamma -------------------------------------------------------------------------------------------

def _mvlgamma_check(input, p):
    if input.dtype == minitorch.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


def _mvlgamma_terms(input, p, dtype):
    # arange(-p/2 + 1/2, 1/2, 1/2) + input[..., None]: the p arguments of lgamma per element
    args = minitorch.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=dtype, device=input.device)
    return args.add(input.unsqueeze(-1))


def _mvlgamma_value(input, p, dtype):
    return _mvlgamma_terms(input, p, dtype).lgamma_().sum(-1).add_(float(p * (p - 1)) * math.log(math.pi) * 0.25)


class _Mvlgamma(Function):
    @staticmethod
    def forward(ctx, input, p):
        dtype = input.dtype if input.is_floating_point() else minitorch.get_default_dtype()
        ctx.p = p
        ctx.save_for_backward(input)
        return _mvlgamma_value(input, p, dtype)

    @staticmethod
    def backward(ctx, grad):
        # mvlgamma_backward: grad * (arange(-p/2 + 1/2, 1/2, 1/2) + self[..., None]).digamma_().sum(-1)
        (input,) = ctx.saved_tensors
        return grad * _mvlgamma_terms(input, ctx.p, input.dtype).digamma_().sum(-1), None


class _MvlgammaInplace(Function):
    @staticmethod
    def forward(ctx, input, p):
        ctx.p = p
        ctx.save_for_backward(input)
        return _mvlgamma_value(input, p, input.dtype)

    backward = _Mvlgamma.backward


def mvlgamma(*args, **kwargs):
    """The multivariate log-gamma function of dimension p: sum of lgamma(input - j/2) for j < p, plus
    p (p - 1) / 4 log(pi) (integer inputs give the default float dtype)."""
    _, v = parse(_FUNCTION_SIGNATURES["mvlgamma"], args, kwargs)
    _mvlgamma_check(v["input"], v["p"])
    return with_out("mvlgamma", v["out"],
                    lambda: _apply(_Mvlgamma, "MvlgammaBackward0", None, (v["input"], v["p"]), {}))


def _mvlgamma_method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["mvlgamma"], self, args, kwargs)
    _mvlgamma_check(self, v["p"])
    return _apply(_Mvlgamma, "MvlgammaBackward0", None, (self, v["p"]), {})


def _mvlgamma__method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["mvlgamma_"], self, args, kwargs)
    _mvlgamma_check(self, v["p"])
    if not self.is_floating_point():
        # torch's check that the floating result can be written into self
        raise RuntimeError("mvlgamma: result type {} can't be cast to the desired output type {}".format(
            self.dtype._scalar_name, minitorch.get_default_dtype()._scalar_name))
    return _apply_inplace(_MvlgammaInplace, "MvlgammaBackward0", self, (v["p"],), False)


# ---- ldexp ----------------------------------------------------------------------------------------------

class _Ldexp(Function):
    @staticmethod
    def forward(ctx, input, other):
        power = minitorch.pow(2.0, other)
        ctx.save_for_backward(input, other)
        return minitorch.mul(input, power)

    @staticmethod
    def backward(ctx, grad):
        # self: grad * 2 ** other; other: grad * self * 2 ** other * ln 2
        input, other = ctx.saved_tensors
        power = minitorch.exp2(other)
        g_input = grad * power if ctx.needs_input_grad[0] else None
        g_other = grad * input * power * math.log(2.0) if ctx.needs_input_grad[1] else None
        return g_input, g_other


def ldexp(*args, **kwargs):
    """input * 2 ** other, elementwise (torch's mul(input, pow(2.0, other)))."""
    _, v = parse(_FUNCTION_SIGNATURES["ldexp"], args, kwargs)
    return with_out("ldexp", v["out"], lambda: _apply(_Ldexp, "LdexpBackward0", None, (v["input"], v["other"]), {}))


def _ldexp_method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["ldexp"], self, args, kwargs)
    return _apply(_Ldexp, "LdexpBackward0", None, (self, v["other"]), {})


def _ldexp__method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["ldexp_"], self, args, kwargs)
    if not self.is_floating_point():
        # mul's out= check on self (its words as torch's ldexp_ says them)
        raise RuntimeError("ldexp can't be cast to the desired output type {}".format(self.dtype._scalar_name))
    # torch's ldexp_out(self, self, other): mul's TensorIterator checks of the written-to self (its memory
    # overlap, then the broadcast shape), and one in-place node
    other = v["other"]
    if any(stride == 0 and size > 1 for size, stride in zip(self.shape, self.stride())):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")
    shape = list(_C._infer_size(self.shape, other.shape))
    if shape != list(self.shape):
        raise RuntimeError("output with shape {} doesn't match the broadcast shape {}".format(list(self.shape), shape))
    return _apply_inplace(_Ldexp, "LdexpBackward0", self, (other,), False)


# ---- frexp ----------------------------------------------------------------------------------------------

_Frexp = return_type("frexp")
_FrexpOut = return_type("frexp_out")

# the C++ names of torch's frexp out= messages
_CXX_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def _frexp_out(input, out):
    # torch's frexp.Tensor_out: each output's dtype checked (the mantissa's is input's, the exponent's int32),
    # then resized (resize_output) and written; the outputs record no node (the parser checked out's count)
    mantissa, exponent = out
    if "meta" in (input.device.type, mantissa.device.type, exponent.device.type):
        # a meta tensor among them runs torch's reference, whose out_wrapper writes each output in turn: out
        # resized, the device ("Attempting to copy from device meta to device cpu, ..."), a safe cast
        values = _frexp_values(input)
        for target, value in zip(out, values):
            _C._write_out("frexp", target, lambda: value)
        return _FrexpOut(mantissa, exponent)
    if mantissa.dtype != input.dtype:
        raise RuntimeError("minitorch.frexp() expects mantissa to have dtype {} but got {}".format(
            _CXX_NAMES[str(input.dtype).split(".")[1]], _CXX_NAMES[str(mantissa.dtype).split(".")[1]]))
    if exponent.dtype != minitorch.int32:
        raise RuntimeError("minitorch.frexp() expects exponent to have int dtype but got {}".format(
            _CXX_NAMES[str(exponent.dtype).split(".")[1]]))
    values = _frexp_values(input)
    if (input.requires_grad or mantissa.requires_grad) and minitorch.is_grad_enabled():
        raise RuntimeError("frexp(): functions with out=... arguments don't support automatic differentiation, but "
                           "one of the arguments requires grad.")
    for target, value in zip(out, values):
        _C._resize_output(target, tuple(value.shape))
        with minitorch.no_grad():
            target.copy_(value)
    return _FrexpOut(mantissa, exponent)


def _frexp_values(input):
    # the C library's frexp on float64 (which holds every value of the floating dtypes exactly): a finite,
    # nonzero x is m 2^e with 0.5 <= |m| < 1; zeros, inf and NaN keep x with exponent 0. A subnormal is
    # scaled by 2^64 first (exactly) so that its exponent field holds its exponent.
    x = input.double()
    special = (x == 0) | ~minitorch.isfinite(x)
    tiny = x.abs() < 2.2250738585072014e-308
    scaled = minitorch.where(tiny, x * 18446744073709551616.0, x)
    bits = scaled.view(minitorch.int64)
    field = (bits >> 52) & 0x7FF
    exponent = field - 1022 - minitorch.where(tiny, 64, 0)
    mantissa = ((bits & ~(0x7FF << 52)) | (1022 << 52)).view(minitorch.float64)
    mantissa = minitorch.where(special, x, mantissa).to(input.dtype)
    exponent = minitorch.where(special, 0, exponent).to(minitorch.int32)
    return mantissa, exponent


class _FrexpFn(Function):
    @staticmethod
    def forward(ctx, input):
        mantissa, exponent = _frexp_values(input)
        ctx.save_for_backward(exponent)
        ctx.mark_non_differentiable(exponent)
        return mantissa, exponent

    @staticmethod
    def backward(ctx, grad_mantissa, grad_exponent):
        # mantissa: grad / exponent.exp2()
        (exponent,) = ctx.saved_tensors
        return grad_mantissa / exponent.exp2()


def _frexp(input):
    if not input.is_floating_point():
        raise RuntimeError("minitorch.frexp() only supports floating-point dtypes")
    return _Frexp(*_apply(_FrexpFn, "FrexpBackward0", None, (input,), {}))


def frexp(*args, **kwargs):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent and 0.5 <= |mantissa| < 1 (exponent int32;
    zeros, inf and NaN keep their value with exponent 0); floating dtypes only."""
    _, v = parse(_FUNCTION_SIGNATURES["frexp"], args, kwargs)
    if v["out"] is not None:
        if not v["input"].is_floating_point():
            raise RuntimeError("minitorch.frexp() only supports floating-point dtypes")
        return _frexp_out(v["input"], v["out"])
    return _frexp(v["input"])


def _frexp_method(self, *args, **kwargs):
    no_arguments("frexp", args, kwargs)
    return _frexp(self)


def install(tensor_type):
    """Adds the Tensor methods of this file's ops."""
    methods = {"mvlgamma": _mvlgamma_method, "mvlgamma_": _mvlgamma__method, "ldexp": _ldexp_method,
               "ldexp_": _ldexp__method, "frexp": _frexp_method}
    for name, method in methods.items():
        method.__name__ = name
        method.__doc__ = globals()[name.rstrip("_")].__doc__
        setattr(tensor_type, name, method)
