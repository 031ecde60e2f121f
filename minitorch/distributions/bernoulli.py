"""Bernoulli (torch.distributions.Bernoulli), given probs or logits (the other is computed at first use):
sample through torch.bernoulli, log_prob and entropy through binary_cross_entropy_with_logits as torch."""


import minitorch
from minitorch.distributions import constraints
from minitorch.distributions.exp_family import ExponentialFamily
from minitorch.distributions.utils import (_broadcast_parameters, broadcast_all, lazy_property, logits_to_probs,
                                          probs_to_logits)
import minitorch.nn.functional as F

__all__ = ["Bernoulli"]


def _one_parameter(probs, logits):
    """torch's check that exactly one of probs and logits is given (Bernoulli, Categorical)."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _expand_probs_or_logits(self, new, param_shape):
    """expand()'s copy of whichever of probs and logits the instance holds, as `new._param` too."""
    for name in ("probs", "logits"):
        if name in self.__dict__:
            setattr(new, name, getattr(self, name).expand(param_shape))
            new._param = getattr(new, name)


class Bernoulli(ExponentialFamily):
    """1 with probability probs (or sigmoid(logits)), else 0."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_parameter(probs, logits)
        (self._param,), batch_shape = _broadcast_parameters(probs if probs is not None else logits)
        setattr(self, "probs" if probs is not None else "logits", self._param)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = minitorch.Size(batch_shape)
        _expand_probs_or_logits(self, new, batch_shape)
        super(Bernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = float("nan")
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=minitorch.Size()):
        shape = self._extended_shape(sample_shape)
        with minitorch.no_grad():
            return minitorch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        values = minitorch.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values

    @property
    def _natural_params(self):
        return (minitorch.logit(self.probs),)

    def _log_normalizer(self, x):
        return minitorch.log1p(minitorch.exp(x))
