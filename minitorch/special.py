"""minitorch.special: torch.special's functions that a learner meets. Most are the C ops special_<name> (as
torch binds them in torch._C._special): the aliases of torch's ops (expit is sigmoid, gammaln lgamma, psi and
digamma digamma, multigammaln mvlgamma ...) record the same nodes as those ops, and i0e, i1, i1e, ndtri,
log_ndtr, erfcx, entr, xlog1py and zeta have kernels of their own (csrc/kernels/special_math.h, torch's
Cephes formulas). ndtr is torch's composition (1 + erf(x / sqrt(2))) * 0.5. Everything else of torch.special
says that minitorch does not have it yet."""

import math

from minitorch import _C
from minitorch._C import (special_digamma as digamma, special_entr as entr, special_erf as erf,
                          special_erfc as erfc, special_erfcx as erfcx, special_erfinv as erfinv,
                          special_exp2 as exp2, special_expit as expit, special_expm1 as expm1,
                          special_gammaln as gammaln, special_i0 as i0, special_i0e as i0e, special_i1 as i1,
                          special_i1e as i1e, special_log1p as log1p, special_log_ndtr as log_ndtr,
                          special_log_softmax as log_softmax, special_logit as logit,
                          special_logsumexp as logsumexp, special_ndtri as ndtri, special_polygamma as polygamma,
                          special_psi as psi, special_round as round, special_sinc as sinc,
                          special_softmax as softmax, special_xlog1py as xlog1py, special_xlogy as xlogy,
                          special_zeta as zeta)
from minitorch._composite import parse, with_out
from minitorch._integration import _by_number
from minitorch.autograd.function import Function, _apply
from minitorch.autograd.grad_mode import is_grad_enabled

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i0e",
           "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri",
           "polygamma", "psi", "round", "sinc", "softmax", "xlog1py", "xlogy", "zeta"]

_NDTR = ["special_ndtr(Tensor input, *, Tensor out=None)"]
_MULTIGAMMALN = ["special_multigammaln(Tensor input, int64_t p, *, Tensor out=None)"]


class _AddNumber(Function):
    """t + number as ATen's add(Tensor, Scalar) records it (AddBackward1)"""

    @staticmethod
    def forward(ctx, t, number):
        return t + number

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def _ndtr(x):
    # ATen's special_ndtr: (1 + erf(x * M_SQRT1_2)) * 0.5, its numbers C++ doubles (MulBackward1, AddBackward1)
    e = _C.erf(_by_number(x, math.sqrt(0.5)))
    one_plus = (_apply(_AddNumber, "AddBackward1", None, (e, 1), {}) if e.requires_grad and is_grad_enabled()
                else e + 1)
    return _by_number(one_plus, 0.5)


def ndtr(*args, **kwargs):
    """The standard normal distribution function: (1 + erf(input / sqrt(2))) * 0.5, torch's composition."""
    _, v = parse(_NDTR, args, kwargs)
    return with_out("special_ndtr", v["out"], lambda: _ndtr(v["input"]))


def multigammaln(*args, **kwargs):
    """The multivariate log-gamma function of dimension p: mvlgamma(input, p)."""
    _, v = parse(_MULTIGAMMALN, args, kwargs)
    import minitorch

    return with_out("mvlgamma", v["out"], lambda: minitorch.mvlgamma(v["input"], v["p"]))


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
