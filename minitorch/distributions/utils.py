"""The helpers torch.distributions.utils gives its distributions: broadcasting parameters, the
probabilities/logits conversions, the standard normal draw the reparameterized samplers share, and
lazy_property (a parameter computed from the other one at first use, then cached on the instance)."""

import functools
import numbers

import minitorch
import minitorch.nn.functional as F

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property", "euler_constant"]

euler_constant = 0.57721566490153286060  # Euler Gamma constant


def broadcast_all(*values):
    """Broadcasts tensors and numbers together; numbers become tensors of the first tensor's dtype and
    device (the default dtype when there is none)."""
    if not all(isinstance(v, (minitorch.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects implementing "
                         "__torch_function__.")
    if not all(isinstance(v, minitorch.Tensor) for v in values):
        options = dict(dtype=minitorch.get_default_dtype())
        for value in values:
            if isinstance(value, minitorch.Tensor):
                options = dict(dtype=value.dtype, device=value.device)
                break
        values = tuple(v if isinstance(v, minitorch.Tensor) else minitorch.tensor(v, **options) for v in values)
    return minitorch.broadcast_tensors(*values)


def _broadcast_parameters(*values):
    """broadcast_all(*values) and the batch shape of a distribution given them: () when every value is
    a number, else the broadcast shape."""
    tensors = broadcast_all(*values)
    if all(isinstance(v, numbers.Number) for v in values):
        return tensors, minitorch.Size()
    return tensors, tensors[0].size()


# the mean and the mode of the location families (Normal, Laplace, MultivariateNormal)
_location = property(lambda self: self.loc, doc="The location parameter loc: the mean and the mode.")


def _standard_normal(shape, dtype, device):
    return minitorch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sums out the rightmost dim dimensions of value."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: sigmoid when binary, else a softmax over the last dimension."""
    if is_binary:
        return minitorch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamps probabilities into [eps, 1 - eps] of their dtype."""
    eps = minitorch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Logits from (clamped) probabilities: log-odds when binary, else the log."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return minitorch.log(ps_clamped) - minitorch.log1p(-ps_clamped)
    return minitorch.log(ps_clamped)


class lazy_property:
    """A method run once, with grad enabled, at first access; its value then replaces the attribute on
    the instance. Read from the class it is a property (so that constraints can be found on the class)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with minitorch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    def __init__(self, wrapped):
        property.__init__(self, wrapped)
