"""Laplace (torch.distributions.Laplace): rsample by inverting the CDF at uniform draws in
(eps - 1, 1), torch's Tensor.uniform_ call, so samples equal torch's after manual_seed."""


import minitorch
from minitorch.distributions import constraints
from minitorch.distributions.distribution import Distribution
from minitorch.distributions.utils import _broadcast_parameters, _location

__all__ = ["Laplace"]


class Laplace(Distribution):
    """The Laplace distribution of location loc and scale scale."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    mean = mode = _location

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def __init__(self, loc, scale, validate_args=None):
        (self.loc, self.scale), batch_shape = _broadcast_parameters(loc, scale)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Laplace, batch_shape, _instance, ("loc", "scale"))

    def rsample(self, sample_shape=minitorch.Size()):
        shape = self._extended_shape(sample_shape)
        finfo = minitorch.finfo(self.loc.dtype)
        u = self.loc.new_empty(shape).uniform_(finfo.eps - 1, 1)
        # u in (-1, 1); log1p(-|u|) is finite because |u| < 1
        return self.loc - self.scale * u.sign() * minitorch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -minitorch.log(2 * self.scale) - minitorch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * minitorch.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * minitorch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + minitorch.log(2 * self.scale)
