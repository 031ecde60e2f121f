"""The activations as layers: modules around their ``functional`` forms that remember the options
(``inplace``, slopes, bounds, softmax's ``dim``) and print them as torch does."""

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["ReLU", "LeakyReLU", "ELU", "CELU", "SELU", "SiLU", "Mish", "Hardswish", "Hardsigmoid", "GELU",
           "Softplus", "Hardtanh", "ReLU6", "Tanh", "Sigmoid", "LogSigmoid", "Softmax", "LogSoftmax", "Softmin",
           "Softmax2d", "GLU", "Hardshrink", "Softshrink", "Softsign", "Tanhshrink", "Threshold", "PReLU", "RReLU"]


class ReLU(Module):
    """max(x, 0) elementwise. With ``inplace=True`` the result overwrites (and is) the input."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """max(input, 0) elementwise (in place with inplace=True)."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        """'inplace=True' when the layer works in place, else nothing."""
        # Only a non-default setting is shown: ReLU() vs ReLU(inplace=True).
        return "inplace=True" if self.inplace else ""


def _inplace_suffix(inplace, first):
    """torch's reprs: ', inplace=True' after other fields (or 'inplace=True' alone), nothing otherwise."""
    return ("inplace=True" if first else ", inplace=True") if inplace else ""


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x."""

    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"negative_slope={self.negative_slope}" + _inplace_suffix(self.inplace, False)


class ELU(Module):
    """x where x > 0, else alpha * (exp(x) - 1)."""

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"alpha={self.alpha}" + _inplace_suffix(self.inplace, False)


class CELU(ELU):
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.celu(input, self.alpha, self.inplace)


class _InplaceActivation(Module):
    """An activation whose only option is inplace; subclasses name their functional form."""

    __constants__ = ["inplace"]
    function = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return type(self).function(input, inplace=self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return _inplace_suffix(self.inplace, True)


class SELU(_InplaceActivation):
    """scale * elu(x, alpha) with the self-normalising constants."""

    function = staticmethod(F.selu)


class SiLU(_InplaceActivation):
    """x * sigmoid(x)."""

    function = staticmethod(F.silu)


class Mish(_InplaceActivation):
    """x * tanh(softplus(x))."""

    function = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6."""

    function = staticmethod(F.hardswish)


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6."""

    function = staticmethod(F.hardsigmoid)


class GELU(Module):
    """x * Phi(x) (approximate='tanh': torch's tanh approximation)."""

    __constants__ = ["approximate"]

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear above threshold."""

    __constants__ = ["beta", "threshold"]

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """clamp(x, min_val, max_val)."""

    __constants__ = ["min_val", "max_val", "inplace"]

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_suffix(self.inplace, False)


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return _inplace_suffix(self.inplace, True)


class _PlainActivation(Module):
    """An activation without options; subclasses name their functional form."""

    function = None

    def forward(self, input):
        """The activation of input, elementwise."""
        return type(self).function(input)


class Tanh(_PlainActivation):
    """tanh(x)."""

    function = staticmethod(F.tanh)


class Sigmoid(_PlainActivation):
    """1 / (1 + exp(-x))."""

    function = staticmethod(F.sigmoid)


class LogSigmoid(_PlainActivation):
    """log(sigmoid(x))."""

    function = staticmethod(F.logsigmoid)


class Softmax(Module):
    """softmax along ``dim``: the elements along it are positive and sum to 1. ``dim=None`` is torch's
    deprecated implicit choice (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """softmax(input, self.dim)."""
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': Softmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed stably. ``dim=None`` is torch's deprecated implicit choice
    (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """log_softmax(input, self.dim)."""
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': LogSoftmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)


class Softmin(Module):
    """softmax(-x) along ``dim``. ``dim=None`` is torch's deprecated implicit choice (with its warning, at
    each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """softmin(input, self.dim)."""
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': Softmin(dim=1)."""
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        """softmax(input, -3)."""
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class GLU(Module):
    """a * sigmoid(b), a and b the halves of the input along ``dim``."""

    __constants__ = ["dim"]

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """glu(input, self.dim)."""
        return F.glu(input, self.dim)

    def extra_repr(self):
        """'dim=-1': GLU(dim=-1)."""
        return f"dim={self.dim}"


class Hardshrink(Module):
    """0 where |x| <= lambd, else x."""

    __constants__ = ["lambd"]

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        """lambd alone: Hardshrink(0.5)."""
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.softshrink(input, self.lambd)


class Softsign(_PlainActivation):
    """x / (1 + |x|)."""

    function = staticmethod(F.softsign)


class Tanhshrink(_PlainActivation):
    """x - tanh(x)."""

    function = staticmethod(F.tanhshrink)


class Threshold(Module):
    """x where x > threshold, else value."""

    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"threshold={self.threshold}, value={self.value}" + _inplace_suffix(self.inplace, False)


class PReLU(Module):
    """x where x > 0, else weight * x: a learnt slope, one for all channels or one per channel (dim 1),
    initialised to ``init``."""

    __constants__ = ["num_parameters"]

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(minitorch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        """The slopes set back to init."""
        init.constant_(self.weight, self.init)

    def forward(self, input):
        """prelu(input, self.weight)."""
        return F.prelu(input, self.weight)

    def extra_repr(self):
        """'num_parameters=1': PReLU(num_parameters=1)."""
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """x where x >= 0, else x times a slope drawn from [lower, upper] in training, (lower + upper) / 2 in eval."""

    __constants__ = ["lower", "upper", "inplace"]

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        """rrelu of input in this module's mode."""
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"lower={self.lower}, upper={self.upper}" + _inplace_suffix(self.inplace, False)
