"""minitorch.distributions against torch.distributions: after manual_seed the same snippet prints
torch's samples bit for bit (Normal, Categorical, Bernoulli, Uniform, Exponential, OneHotCategorical,
MultivariateNormal, Independent, expand, sample_n) and leaves the generator where torch leaves it; repr,
shapes, constraints and every validation error are torch's text. Values that go through log, exp, erf
or log1p (log_prob, entropy, cdf, kl_divergence, gradients, Laplace's samples, a REINFORCE and an
actor-critic loop) are compared to a few float32 ulps: minitorch's transcendental functions may differ
from torch's MKL/SLEEF ones in the last bit (README, "Known differences"). On a CUDA device (real or
MINITORCH_SIMULATE_GPU=1) the values computed from given tensors are torch's CPU values; the samples
come from the device's own generator, so only their device, shape, dtype and range are checked."""

import os
import sys
import textwrap
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close, compare_on  # noqa: E402

import minitorch  # noqa: E402
from minitorch import distributions as D  # noqa: E402

HEADER = """\
import torch
import warnings
from torch.distributions import (Bernoulli, Categorical, Distribution, Exponential, Independent, Laplace,
    MultivariateNormal, Normal, OneHotCategorical, Uniform, constraints, kl_divergence, register_kl)
"""

EXACT = {}  # snippets whose output must be torch's, character for character
CLOSE = {}  # snippets whose numbers may differ by float rounding


def snip(table, name, code):
    table[name] = HEADER + textwrap.dedent(code)


snip(EXACT, "samples", """
torch.manual_seed(0)
loc = torch.randn(3); scale = torch.rand(3) + 0.5
n = Normal(loc, scale)
print(n.sample(), n.sample((2,)), n.rsample((2, 1)), Normal(0., 1.).sample((3,)), Normal(1., 2.).rsample())
c = Categorical(probs=torch.tensor([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]))
print(c.sample(), c.sample((5,)), c.sample([2, 3]).shape, Categorical(logits=torch.randn(4, 5)).sample((2, 3)))
print(Categorical(torch.rand(7, dtype=torch.float64)).sample((10,)))
print(Bernoulli(torch.tensor([0.2, 0.5, 0.9])).sample((3,)), Bernoulli(0.3).sample((4,)),
      Bernoulli(logits=torch.randn(3)).sample())
u = Uniform(torch.tensor([0., 1.]), torch.tensor([2., 5.]))
print(u.sample((3,)), u.rsample(), Uniform(-1., 1.).sample((2,)))
print(Exponential(torch.tensor([0.5, 2.])).sample((3,)), Exponential(3.).rsample((2,)))
print(OneHotCategorical(torch.tensor([0.2, 0.3, 0.5])).sample((4,)),
      OneHotCategorical(logits=torch.zeros(2, 3)).sample())
A = torch.randn(3, 3); cov = A @ A.T + torch.eye(3)
m = MultivariateNormal(torch.arange(3.), covariance_matrix=cov)
print(m.sample((2,)), m.rsample(), MultivariateNormal(torch.zeros(2, 3), scale_tril=torch.linalg.cholesky(cov)).sample())
ind = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
print(ind.sample(), ind.rsample((2,)).shape)
print(n.expand((2, 3)).sample(), c.expand((4, 2)).sample().shape, Bernoulli(torch.tensor([0.2, 0.7])).expand((3, 2)).sample())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(Normal(0., 1.).sample_n(3))
    print([(x.category.__name__, str(x.message)) for x in w])
print(Normal(torch.zeros(2, dtype=torch.float64), 1.).sample().dtype, Bernoulli(torch.tensor([0.5], dtype=torch.float64)).sample().dtype)
print(torch.rand(3))
""")

snip(EXACT, "shapes and repr", """
torch.manual_seed(1)
print(Normal(0., 1.), Normal(torch.tensor([1.]), 2.), Normal(torch.zeros(2, 3), 2.), Uniform(0., 2.))
print(Bernoulli(logits=torch.tensor(0.3)), Bernoulli(torch.tensor([0.1, 0.2])), Exponential(2.), Laplace(1., 2.))
print(OneHotCategorical(torch.tensor([0.2, 0.8])), MultivariateNormal(torch.zeros(2), torch.eye(2)))
print(MultivariateNormal(torch.zeros(2), precision_matrix=torch.eye(2)), MultivariateNormal(torch.zeros(2), scale_tril=torch.eye(2)))
print(Independent(Normal(torch.zeros(2, 3), 1.), 1), Categorical(logits=torch.zeros(3)), Categorical(torch.ones(2, 3)))
for d in [Normal(torch.zeros(4, 1), torch.ones(3)), Categorical(torch.ones(2, 5)), OneHotCategorical(torch.ones(2, 5)),
          MultivariateNormal(torch.zeros(4, 1, 3), torch.eye(3).expand(2, 3, 3)), Independent(Normal(torch.zeros(2, 3, 4), 1.), 2),
          Bernoulli(0.5), Uniform(torch.zeros(2), 1.), Exponential(torch.ones(2, 2)), Laplace(0., torch.ones(3))]:
    print(type(d).__name__, d.batch_shape, d.event_shape, d._extended_shape((5,)), d.sample((5,)).shape)
d = Normal(torch.zeros(3), 1.).expand([2, 3])
print(d, d.batch_shape, d.loc.stride(), d._validate_args, Categorical(torch.ones(3)).expand((2,)).probs.shape)
print(MultivariateNormal(torch.zeros(2), torch.eye(2)).expand((3,)).covariance_matrix.shape,
      Independent(Normal(torch.zeros(2), 1.), 1).expand((4,)).base_dist.batch_shape,
      OneHotCategorical(torch.ones(3)).expand((2,)).probs.shape, Laplace(0., 1.).expand((2,)).scale)
half = Bernoulli(torch.ones(2) / 2)
print(Normal.has_rsample, Categorical.has_rsample, Bernoulli.has_enumerate_support,
      Independent(Normal(torch.zeros(2), 1.), 1).has_rsample, Independent(half, 1).has_enumerate_support,
      Independent(half, 0).has_enumerate_support)
print(Bernoulli(torch.tensor([0.3, 0.6])).enumerate_support(), Categorical(torch.ones(2, 3)).enumerate_support(False),
      OneHotCategorical(torch.ones(2)).enumerate_support(), Independent(Bernoulli(torch.ones(2) / 2), 1).enumerate_support())
print(Categorical(torch.tensor([0.1, 0.6, 0.3])).mode, Categorical(torch.ones(2, 3)).mean, Bernoulli(torch.tensor([0.5, 0.25, 0.75])).mode,
      OneHotCategorical(torch.tensor([0.1, 0.6, 0.3])).mode, Uniform(0., 2.).mode, Exponential(torch.ones(2)).mode)
print(Normal(torch.tensor([1., 2.]), 3.).mean, Normal(torch.tensor([1., 2.]), 3.).variance, Normal(0., 3.).stddev,
      Uniform(0., 3.).mean, Uniform(0., 3.).variance, Laplace(0., 2.).variance, Exponential(torch.tensor([2., 4.])).mean,
      Exponential(torch.tensor([2., 4.])).variance, MultivariateNormal(torch.ones(2), torch.tensor([[2., 1.], [1., 2.]])).variance)
Normal(torch.zeros(2), 1.).mode, Distribution().mean
Distribution().mode
Independent(Bernoulli(torch.ones(2) / 2), 1).enumerate_support()
""")

snip(EXACT, "constraints", """
print(constraints.real, constraints.positive, constraints.simplex, constraints.unit_interval, constraints.real_vector,
      constraints.interval(0., 2.), constraints.integer_interval(0, 3), constraints.lower_cholesky, constraints.positive_definite,
      constraints.boolean, constraints.one_hot, constraints.nonnegative, constraints.greater_than(1.), constraints.less_than(2.),
      constraints.dependent, constraints.half_open_interval(0, 1), constraints.nonnegative_integer, constraints.positive_integer,
      constraints.greater_than_eq(2), constraints.lower_triangular, constraints.square, constraints.symmetric)
print(Normal.arg_constraints, Categorical.arg_constraints, MultivariateNormal.arg_constraints, Categorical.support,
      Uniform.support, Categorical(torch.ones(3)).support, Independent(Normal(torch.zeros(2), 1.), 1).support,
      Uniform(0., torch.tensor([1., 2.])).support, Uniform(0., 1.).arg_constraints, Bernoulli.support, OneHotCategorical.support)
x = torch.tensor([1., 0., -1., float('nan')])
print(constraints.positive.check(x), constraints.nonnegative.check(x), constraints.real.check(x), constraints.boolean.check(x),
      constraints.unit_interval.check(x), constraints.integer_interval(0, 1).check(x), constraints.half_open_interval(0, 1).check(x))
print(constraints.simplex.check(torch.tensor([[0.5, 0.5], [0.2, 0.2], [1.5, -0.5]])),
      constraints.one_hot.check(torch.tensor([[0., 1.], [1., 1.]])),
      constraints.real_vector.check(torch.tensor([[0., 1.], [float('nan'), 1.]])),
      constraints.independent(constraints.positive, 2).check(torch.ones(3, 2, 2)))
print(constraints.lower_cholesky.check(torch.tensor([[[1., 0.], [2., 3.]], [[1., 1.], [0., 1.]], [[-1., 0.], [0., 1.]]])),
      constraints.positive_definite.check(torch.stack([torch.eye(2), -torch.eye(2), torch.tensor([[2., 1.], [1., 2.]])])),
      constraints.symmetric.check(torch.tensor([[1., 2.], [3., 1.]])), constraints.square.check(torch.ones(2, 3)))
print(constraints.is_dependent(constraints.dependent), constraints.is_dependent(Categorical.support), constraints.is_dependent(constraints.real),
      constraints.positive.event_dim, constraints.simplex.event_dim, constraints.real_vector.event_dim, constraints.boolean.is_discrete,
      Categorical.support.is_discrete, Categorical.support.event_dim, constraints.independent(constraints.boolean, 1).is_discrete)
print([isinstance(c, k) for c in (constraints.nonnegative, constraints.positive, constraints.unit_interval)
       for k in (constraints.greater_than, constraints.greater_than_eq, constraints.interval,
                 constraints.half_open_interval, constraints.integer_interval, constraints.independent,
                 constraints.Constraint)])
constraints.dependent.check(torch.ones(2))
constraints.dependent.event_dim
constraints.independent(constraints.positive, 2).check(torch.ones(3))
constraints.independent(constraints.positive, -1)
""")

snip(EXACT, "validation errors", """
Normal(torch.zeros(2), torch.tensor([1., -1.]))
Normal(0., -1.)
Normal(float('nan'), 1.)
Normal('a', 1.)
Categorical(torch.tensor([0.5, -0.5]))
Categorical(torch.tensor([0.5, 0.5]), torch.tensor([0., 0.]))
Categorical()
Categorical(torch.tensor(0.5))
Categorical(logits=torch.tensor(0.5))
Categorical(logits=torch.tensor([0., float('nan')]))
Bernoulli(torch.tensor([0.5, 1.5]))
Bernoulli()
Uniform(torch.tensor([0., 2.]), torch.tensor([1., 1.]))
Exponential(torch.tensor([0., 1.]))
Laplace(0., 0.)
OneHotCategorical(torch.tensor([[0.5, 0.5], [-1., 2.]]))
MultivariateNormal(torch.zeros(2), covariance_matrix=-torch.eye(2))
MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[1., 2.], [0., 1.]]))
MultivariateNormal(torch.zeros(2), scale_tril=torch.ones(2, 2))
MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[1., 2.], [2., 1.]]))
MultivariateNormal(torch.zeros(2))
MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2))
MultivariateNormal(torch.tensor(0.), torch.eye(2))
MultivariateNormal(torch.zeros(2), torch.ones(2))
MultivariateNormal(torch.zeros(2), scale_tril=torch.ones(2))
MultivariateNormal(torch.zeros(2), precision_matrix=torch.ones(2))
Independent(Normal(torch.zeros(2), 1.), 2)
n = Normal(torch.zeros(2), torch.ones(2))
n.log_prob([0., 1.])
n.log_prob(torch.zeros(3))
n.log_prob(torch.tensor([0., float('nan')]))
Categorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([2]))
Categorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([0.5]))
Categorical(torch.ones(2, 3)).log_prob(torch.zeros(3))
Bernoulli(0.3).log_prob(torch.tensor(0.5))
Uniform(0., 1.).log_prob(torch.tensor([1.5]))
Exponential(1.).log_prob(torch.tensor([-1.]))
OneHotCategorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([1., 1.]))
OneHotCategorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([1., 0., 0.]))
MultivariateNormal(torch.zeros(2), torch.eye(2)).log_prob(torch.zeros(3))
Independent(Normal(torch.zeros(2), 1.), 1).log_prob(torch.tensor([0., float('nan')]))
print(Normal(torch.zeros(2), torch.tensor([1., -1.]), validate_args=False).scale)
print(Uniform(0., 1., validate_args=False).log_prob(torch.tensor([1.5, 0.5])))
print(Categorical(torch.tensor([0.2, 0.8]), validate_args=False).log_prob(torch.tensor([0.5, 1.])))
Distribution.set_default_validate_args(1)
Distribution.set_default_validate_args('yes')
Distribution.set_default_validate_args(False)
print(Normal(0., -1.).scale, Exponential(-1.).log_prob(torch.tensor(-2.)), Normal(0., -1., validate_args=True)._validate_args)
Normal(0., -1., validate_args=True)
Distribution.set_default_validate_args(True)
Normal(0., -1.)
""")

snip(EXACT, "kl registry", """
Normal(0., 1.) and kl_divergence(Bernoulli(0.3), Normal(0., 1.))
kl_divergence(Normal(0., 1.), Bernoulli(0.3))
kl_divergence(Categorical(torch.ones(2)), Normal(0., 1.))
kl_divergence(Independent(Normal(torch.zeros(2), 1.), 1), Independent(Normal(torch.zeros(1, 2), 1.), 2))
kl_divergence(MultivariateNormal(torch.zeros(2), torch.eye(2)), MultivariateNormal(torch.zeros(3), torch.eye(3)))
class MyNormal(Normal):
    pass
@register_kl(MyNormal, Normal)
def _kl(p, q):
    return torch.tensor(42.)
print(kl_divergence(MyNormal(0., 1.), Normal(0., 1.)), kl_divergence(MyNormal(0., 1.), MyNormal(0., 1.)),
      kl_divergence(Normal(0., 1.), MyNormal(0., 1.)))
print(kl_divergence(Normal(0., 1.), Uniform(0., 1.)), kl_divergence(Laplace(0., 1.), Exponential(1.)),
      kl_divergence(Normal(torch.zeros(2), 1.), Exponential(1.)), kl_divergence(Exponential(torch.ones(2)), Uniform(0., 1.)),
      kl_divergence(Laplace(0., 1.), Uniform(0., 1.)))
print(kl_divergence(Uniform(0., 1.), Uniform(torch.tensor([-1., 0.5]), torch.tensor([2., 3.]))),
      kl_divergence(Uniform(torch.tensor([0., -1.]), 2.), Exponential(1.5))[1])
""")

snip(EXACT, "broadcasting, expand and subclasses", """
torch.manual_seed(7)
w = torch.randn(3, requires_grad=True)
n = Normal(w, 1.)
s = n.sample(); print(s.requires_grad, n.rsample().requires_grad, s.grad_fn)
print(Normal(0, 1).sample(), Uniform(0, 1).sample(), Normal(torch.tensor(0.), 1).sample().shape)
c = Categorical(torch.tensor([[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]]))
print(c.sample(), c.sample(torch.Size([2])), c.batch_shape, c.event_shape, c.param_shape, c._num_events)
print(Bernoulli(probs=torch.tensor([0.3, 0.6])), Bernoulli(probs=torch.tensor([0.3, 0.6])).logits,
      Bernoulli(probs=torch.tensor([0.3])).param_shape)
b = Bernoulli(probs=torch.tensor([0.3, 0.6])); _ = b.logits; print(b)
c2 = Categorical(logits=torch.tensor([1., 2., 3.], dtype=torch.float64)); print(c2.entropy(), c2.probs.dtype, c2.sample((3,)))
ind = Independent(MultivariateNormal(torch.zeros(2, 3), torch.eye(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.sample().shape, ind.expand((4,)).batch_shape)
i2 = Independent(Independent(Normal(torch.zeros(2, 3, 4), 1.), 1), 1); print(i2, i2.event_shape, i2.log_prob(torch.zeros(2, 3, 4)))
print(Normal(torch.zeros(3), 1.).log_prob(torch.zeros(2, 1, 3)).shape,
      Categorical(torch.ones(2, 3)).log_prob(torch.tensor([[0], [1]])).shape)
print(Uniform(torch.tensor([0., 0.]), torch.tensor([1., 2.])).expand((3, 2)).sample().shape)
print(OneHotCategorical(torch.ones(2, 3)).sample((2,)).shape, OneHotCategorical(torch.ones(3)).expand((4,)).batch_shape)
print(MultivariateNormal(torch.zeros(3), torch.eye(3)).expand((2,)).sample().shape,
      MultivariateNormal(torch.zeros(2, 3), scale_tril=torch.eye(3)).batch_shape)
Normal(torch.zeros(2), torch.ones(3))
Uniform(torch.zeros(2), torch.ones(3))
Normal([0.], 1.)
n = Normal(0., 1.)
print(n.expand([]).batch_shape, n.expand(torch.Size([2])).loc)
n.expand((2,)).log_prob(torch.ones(3))
print(Categorical(torch.tensor([1., 1., 2.])).probs, Categorical(probs=torch.tensor([[1., 3.]])).logits)
torch.manual_seed(0)
print(Categorical(logits=torch.zeros(1000)).sample((3,)), Categorical(torch.rand(3, 4)).sample((2, 2)))
print(Exponential(torch.tensor([1.])).expand((3,)).rsample(), Laplace(torch.zeros(2, dtype=torch.float64), 1.).rsample().dtype)
class NoArgs(Distribution):
    pass
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    d = NoArgs(); print(d, [str(x.message) for x in w])
class Sub(Normal):
    def __init__(self):
        super().__init__(0., 1.)
Sub().expand((2,))
""")

snip(CLOSE, "log_prob, entropy, cdf", """
torch.manual_seed(0)
loc = torch.randn(3); scale = torch.rand(3) + 0.5
n = Normal(loc, scale)
x = n.sample((4,))
print(n.log_prob(x), n.entropy(), n.cdf(torch.tensor([0.1, 0.2, 0.3])), n.icdf(torch.tensor([0.1, 0.5, 0.9])),
      Normal(0., 1.).log_prob(torch.tensor(0.3)), n.perplexity())
c = Categorical(probs=torch.tensor([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]))
print(c.log_prob(torch.tensor([2, 0])), c.log_prob(torch.tensor([[1], [2]])), c.entropy(), c.logits)
c = Categorical(logits=torch.randn(4, 5)); print(c.probs, c.logits, c.entropy(), c.log_prob(c.sample()))
print(Categorical(torch.tensor([0., 0.5, 0.5])).entropy(), Categorical(logits=torch.tensor([-float('inf'), 0., 1.])).entropy())
b = Bernoulli(torch.tensor([0.2, 0.5, 0.9]))
print(b.log_prob(torch.tensor([1., 0., 1.])), b.entropy(), b.variance, b.logits, b.log_prob(torch.tensor([[1.], [0.]])))
b = Bernoulli(logits=torch.randn(3)); print(b.probs, b.entropy(), b.log_prob(torch.ones(3)))
u = Uniform(torch.tensor([0., 1.]), torch.tensor([2., 5.]))
print(u.log_prob(torch.tensor([1., 4.9])), u.entropy(), u.mean, u.stddev, u.cdf(torch.tensor([0.5, 2.])), u.icdf(torch.tensor([0.5, 0.25])))
e = Exponential(torch.tensor([0.5, 2.]))
print(e.log_prob(torch.tensor([1., 0.2])), e.entropy(), e.cdf(torch.tensor([1., 0.2])), e.icdf(torch.tensor([0.5, 0.9])))
l = Laplace(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))
print(l.sample((3,)), l.rsample(), l.log_prob(torch.tensor([0.3, -1.])), l.entropy(), l.stddev, l.cdf(torch.tensor([0.1, 0.2])),
      l.icdf(torch.tensor([0.1, 0.7])))
oh = OneHotCategorical(torch.tensor([0.2, 0.3, 0.5]))
print(oh.log_prob(torch.tensor([0., 1., 0.])), oh.log_prob(torch.eye(3)), oh.entropy(), oh.variance)
A = torch.randn(3, 3); cov = A @ A.T + torch.eye(3)
m = MultivariateNormal(torch.zeros(3), covariance_matrix=cov)
print(m.log_prob(torch.randn(4, 3)), m.entropy(), m.scale_tril, m.precision_matrix)
m2 = MultivariateNormal(torch.ones(2, 3), precision_matrix=cov)
print(m2.scale_tril, m2.covariance_matrix, m2.log_prob(torch.randn(5, 2, 3)), m2.entropy())
m3 = MultivariateNormal(torch.randn(4, 1, 3), scale_tril=torch.linalg.cholesky(cov).expand(2, 3, 3))
print(m3.log_prob(torch.randn(6, 4, 2, 3)).shape, m3.log_prob(torch.randn(4, 2, 3)), m3.entropy())
ind = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
print(ind.log_prob(torch.randn(2, 3)), ind.entropy(), Independent(Normal(torch.zeros(2, 3), 2.), 2).log_prob(torch.ones(2, 3)))
print(torch.distributions.ExponentialFamily.entropy(Normal(torch.tensor([0.5, 2.]), torch.tensor([1., 3.]))),
      torch.distributions.ExponentialFamily.entropy(Bernoulli(torch.tensor([0.5, 0.2]))),
      torch.distributions.ExponentialFamily.entropy(Exponential(torch.tensor([0.5, 2.]))))
""")

snip(CLOSE, "zero probabilities and utils", """
torch.manual_seed(3)
print(Categorical(torch.ones(2, 3)).sample((0,)), Normal(torch.zeros(2), 1.).sample((0, 2)).shape)
print(Categorical(torch.tensor([0., 0., 1.])).sample((4,)), Bernoulli(torch.tensor([0., 1.])).sample((2,)))
print(Categorical(torch.tensor([0., 0., 1.])).entropy(), Bernoulli(torch.tensor([0., 1.])).entropy(),
      Bernoulli(torch.tensor([0., 1.])).log_prob(torch.tensor([0., 1.])))
print(Categorical(torch.tensor([0., 0.5, 0.5])).log_prob(torch.tensor(0)),
      kl_divergence(Bernoulli(torch.tensor([0., 1.])), Bernoulli(torch.tensor([0., 1.]))))
from torch.distributions import utils
print(utils.probs_to_logits(torch.tensor([0., 0.5, 1.])), utils.probs_to_logits(torch.tensor([0., 0.5, 1.]), is_binary=True),
      utils.logits_to_probs(torch.tensor([0., 1.])), utils.clamp_probs(torch.tensor([0., 1.])))
print(utils.broadcast_all(1., torch.ones(2, dtype=torch.float64)), utils.broadcast_all(1, 2.))
utils.broadcast_all('a')
""")

snip(CLOSE, "kl_divergence", """
p = Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.])); q = Normal(torch.tensor([1., 0.]), torch.tensor([0.5, 1.]))
print(kl_divergence(p, q), kl_divergence(q, p), kl_divergence(Independent(p, 1), Independent(q, 1)))
print(kl_divergence(Categorical(torch.tensor([0.2, 0.3, 0.5])), Categorical(torch.tensor([0.1, 0.6, 0.3]))),
      kl_divergence(Categorical(torch.tensor([0.0, 0.3, 0.7])), Categorical(torch.tensor([0.1, 0.0, 0.9]))),
      kl_divergence(Categorical(logits=torch.tensor([[0., 1., 2.], [1., 1., 1.]])), Categorical(logits=torch.tensor([2., 0., 1.]))))
print(kl_divergence(Bernoulli(torch.tensor([0.2, 0., 1., 0.7])), Bernoulli(torch.tensor([0.4, 0.5, 0., 0.4]))))
print(kl_divergence(Exponential(torch.tensor([1., 2.])), Exponential(torch.tensor([3., 0.5]))),
      kl_divergence(Laplace(torch.tensor([0., 1.]), 1.), Laplace(torch.tensor([1., 1.]), 2.)),
      kl_divergence(OneHotCategorical(torch.tensor([0.2, 0.8])), OneHotCategorical(torch.tensor([0.5, 0.5]))))
print(kl_divergence(Exponential(torch.tensor([1., 2.])), Normal(torch.tensor([1., 2.]), 3.)),
      kl_divergence(Laplace(torch.tensor([0., 1.]), 1.), Normal(0.5, 2.)),
      kl_divergence(Normal(torch.tensor([0., 1.]), 1.), Laplace(0.5, 2.)),
      kl_divergence(Uniform(torch.tensor([0., -1.]), 2.), Normal(0.5, 2.)),
      kl_divergence(Uniform(torch.tensor([0., 1.]), 2.), Exponential(1.5)))
A = torch.tensor([[2., 0.5, 0.], [0.5, 1., 0.2], [0., 0.2, 3.]])
m = MultivariateNormal(torch.zeros(3), A); m2 = MultivariateNormal(torch.ones(2, 3), precision_matrix=A)
m3 = MultivariateNormal(torch.tensor([1., 2., 3.]), scale_tril=torch.linalg.cholesky(A) * 2)
print(kl_divergence(m, m3), kl_divergence(m2, m3), kl_divergence(m3, m2))
""")

snip(CLOSE, "gradients", """
x = torch.tensor([0.3, 0.5], requires_grad=True)
kl_divergence(Normal(x, 1.), Normal(0., 2.)).sum().backward(); print(x.grad)
lg = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
Categorical(logits=lg).log_prob(torch.tensor(1)).backward(); print(lg.grad)
lg.grad = None; Categorical(logits=lg).entropy().backward(); print(lg.grad)
pr = torch.tensor([0.2, 0.6], requires_grad=True)
Bernoulli(pr).log_prob(torch.tensor([1., 0.])).sum().backward(); print(pr.grad)
pr.grad = None; Bernoulli(pr).entropy().sum().backward(); print(pr.grad)
loc = torch.tensor([0.5, -1.], requires_grad=True); sc = torch.tensor([2., 0.5], requires_grad=True)
torch.manual_seed(5)
y = Normal(loc, sc).rsample((3,)); y.sum().backward(); print(y, loc.grad, sc.grad)
loc.grad = sc.grad = None; Normal(loc, sc).log_prob(torch.tensor([0., 1.])).sum().backward(); print(loc.grad, sc.grad)
loc.grad = sc.grad = None; y = Laplace(loc, sc).rsample((3,)); y.sum().backward(); print(y, loc.grad, sc.grad)
rt = torch.tensor(2., requires_grad=True); y = Exponential(rt).rsample((3,)); y.sum().backward(); print(y, rt.grad)
lw = torch.tensor(0., requires_grad=True); y = Uniform(lw, 3.).rsample((2,)); y.sum().backward(); print(y, lw.grad)
L = torch.tensor([[1., 0.], [0.5, 2.]], requires_grad=True); mu = torch.zeros(2, requires_grad=True)
y = MultivariateNormal(mu, scale_tril=L).rsample(); y.sum().backward(); print(y, L.grad)
L.grad = None; MultivariateNormal(mu, scale_tril=L).log_prob(torch.tensor([0.5, 1.])).backward(); print(L.grad, mu.grad)
pl = torch.tensor([0.2, 0.8], requires_grad=True)
torch.manual_seed(2)
y = torch.distributions.OneHotCategoricalStraightThrough(pl).rsample((2,))
(y * torch.tensor([1., 3.])).sum().backward(); print(y, pl.grad)
print(Normal(loc, sc).rsample().grad_fn is not None, Normal(loc, sc).sample().requires_grad, Categorical(logits=lg).probs.requires_grad)
""")

snip(CLOSE, "REINFORCE and actor-critic", """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
for episode in range(5):
    state = torch.randn(4)
    log_probs, rewards = [], []
    for t in range(6):
        m = Categorical(F.softmax(policy(state), dim=-1))
        action = m.sample()
        log_probs.append(m.log_prob(action))
        rewards.append(1.0 if action.item() == 1 else -0.5)
        state = state * 0.9 + torch.randn(4) * 0.1
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.stack([-lp * G for lp, G in zip(log_probs, returns)]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, sum(rewards), loss.item())
actor = nn.Linear(3, 2); critic = nn.Linear(3, 1)
opt = torch.optim.SGD(list(actor.parameters()) + list(critic.parameters()), lr=0.05)
for step in range(4):
    s = torch.randn(5, 3)
    dist = Normal(actor(s), 0.5)
    a = dist.sample()
    value = critic(s).squeeze(-1)
    advantage = -(a ** 2).sum(-1) - value
    loss = -(dist.log_prob(a).sum(-1) * advantage.detach()).mean() + advantage.pow(2).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, loss.item(), a[0].tolist())
print(torch.rand(2))
""")


@pytest.mark.parametrize("name", sorted(EXACT))
def test_same_output_as_torch(name):
    compare(EXACT[name])


@pytest.mark.parametrize("name", sorted(CLOSE))
def test_values_close_to_torch(name):
    compare_close(CLOSE[name], rtol=2e-6, atol=1e-7)


ON_DEVICE = HEADER + """
n = Normal(torch.zeros(3, device=DEV), torch.ones(3, device=DEV))
print(n.log_prob(torch.tensor([0.5, 1., 2.], device=DEV)).cpu(), n.entropy().cpu(), n.cdf(torch.zeros(3, device=DEV)).cpu())
c = Categorical(logits=torch.tensor([[0.1, 0.2, 0.3], [1., 0., -1.]], device=DEV))
print(c.log_prob(torch.tensor([2, 0], device=DEV)).cpu(), c.entropy().cpu(), c.probs.cpu(), c.support, c.mode.cpu())
b = Bernoulli(torch.tensor([0.2, 0.7], device=DEV))
print(b.log_prob(torch.tensor([1., 0.], device=DEV)).cpu(), b.entropy().cpu(), b.mode.cpu(), b.logits.cpu())
u = Uniform(torch.zeros(2, device=DEV), 3.)
print(u.log_prob(torch.tensor([1., 2.], device=DEV)).cpu(), u.entropy().cpu(), u.low.device == u.high.device)
e = Exponential(torch.tensor([1., 2.], device=DEV)); print(e.log_prob(torch.tensor([1., 0.5], device=DEV)).cpu(), e.entropy().cpu())
l = Laplace(torch.tensor([1., 2.], device=DEV), 2.); print(l.log_prob(torch.tensor([1., 0.5], device=DEV)).cpu(), l.entropy().cpu())
o = OneHotCategorical(torch.tensor([0.2, 0.8], device=DEV)); print(o.log_prob(torch.tensor([0., 1.], device=DEV)).cpu(), o.mode.cpu())
cov = torch.tensor([[2., 0.5], [0.5, 1.]], device=DEV)
m = MultivariateNormal(torch.zeros(2, device=DEV), cov)
print(m.log_prob(torch.tensor([[0.5, 1.]], device=DEV)).cpu(), m.entropy().cpu(), m.precision_matrix.cpu())
m2 = MultivariateNormal(torch.ones(2, device=DEV), precision_matrix=cov); print(m2.scale_tril.cpu(), kl_divergence(m, m2).cpu())
i = Independent(n, 1)
print(i.log_prob(torch.zeros(3, device=DEV)).cpu(), kl_divergence(i, Independent(Normal(torch.ones(3, device=DEV), 2.), 1)).cpu())
print(kl_divergence(c, Categorical(torch.tensor([0.2, 0.3, 0.5], device=DEV))).cpu(),
      kl_divergence(b, Bernoulli(torch.tensor([0.5, 0.], device=DEV))).cpu(),
      kl_divergence(u, Uniform(torch.tensor(-1., device=DEV), 3.)).cpu())
x = torch.tensor([0.3, 0.5], device=DEV, requires_grad=True)
Normal(x, 2.).log_prob(torch.ones(2, device=DEV)).sum().backward(); print(x.grad.cpu())
Normal(torch.zeros(2, device=DEV), torch.tensor([1., -1.], device=DEV)).scale.device
Categorical(torch.tensor([0.2, 0.8], device=DEV)).log_prob(torch.tensor([2], device=DEV)).device
"""


def test_values_on_the_device(device):
    # the validation errors print device tensors ("device='cuda:0'"): only their first line is compared
    compare_on(device, ON_DEVICE.replace("Normal(torch.zeros(2, device=DEV), torch.tensor([1., -1.], device=DEV)).scale.device",
                                         "try:\n    Normal(torch.zeros(2, device=DEV), torch.tensor([1., -1.], device=DEV))\n"
                                         "except ValueError as exc:\n    print(str(exc).splitlines()[0])")
               .replace("Categorical(torch.tensor([0.2, 0.8], device=DEV)).log_prob(torch.tensor([2], device=DEV)).device",
                        "try:\n    Categorical(torch.tensor([0.2, 0.8], device=DEV)).log_prob(torch.tensor([2], device=DEV))\n"
                        "except ValueError as exc:\n    print(str(exc).splitlines()[0])"))


def test_samples_on_the_device(device):
    # the device's generator: torch's draws on the CPU only; each sample keeps the device, shape, dtype and range
    minitorch.manual_seed(0)
    dev = minitorch.empty(0, device=device).device
    cov = minitorch.tensor([[2., 0.5], [0.5, 1.]], device=device)
    cases = [
        (D.Normal(minitorch.zeros(3, device=device), 1.), (4, 3), minitorch.float32),
        (D.Categorical(logits=minitorch.randn(2, 5, device=device)), (4, 2), minitorch.int64),
        (D.Bernoulli(minitorch.rand(3, device=device)), (4, 3), minitorch.float32),
        (D.Uniform(minitorch.full((3,), -2., device=device), 5.), (4, 3), minitorch.float32),
        (D.Exponential(minitorch.ones(3, device=device, dtype=minitorch.float64)), (4, 3), minitorch.float64),
        (D.Laplace(minitorch.zeros(3, device=device), 2.), (4, 3), minitorch.float32),
        (D.OneHotCategorical(minitorch.rand(2, 5, device=device)), (4, 2, 5), minitorch.float32),
        (D.MultivariateNormal(minitorch.zeros(2, device=device), cov), (4, 2), minitorch.float32),
        (D.Independent(D.Normal(minitorch.zeros(2, 3, device=device), 1.), 1), (4, 2, 3), minitorch.float32),
    ]
    for dist, shape, dtype in cases:
        for draw in (dist.sample, dist.rsample) if dist.has_rsample else (dist.sample,):
            s = draw((4,))
            assert (s.device, tuple(s.shape), s.dtype) == (dev, shape, dtype), (type(dist).__name__, s)
            assert bool(dist.support.check(s).all()), (type(dist).__name__, s)
            assert bool(minitorch.isfinite(dist.log_prob(s)).all())
    s = D.Categorical(logits=minitorch.randn(2, 5, device=device)).sample((1000,))
    assert set(s.cpu().flatten().tolist()) == {0, 1, 2, 3, 4}


def test_missing_distribution_says_so():
    with pytest.raises(AttributeError) as info:
        D.Gamma
    assert str(info.value).startswith("module 'minitorch.distributions' has no attribute 'Gamma': PyTorch has "
                                      "torch.distributions.Gamma, minitorch does not have it yet")
    assert minitorch.distributions is D and D.Normal.__module__ == "minitorch.distributions.normal"


def test_sample_n_is_deprecated():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        D.Normal(0., 1.).sample_n(2)
    assert [w.category for w in caught] == [FutureWarning] and caught[0].filename == __file__


TYPED_PROGRAM = """\
import minitorch as torch
from minitorch.distributions import Categorical, Normal, constraints, kl_divergence

m = Categorical(logits=torch.zeros(3))
action: torch.Tensor = m.sample()
score: torch.Tensor = m.log_prob(action) + Normal(0.0, 1.0).entropy()
kl: torch.Tensor = kl_divergence(Normal(torch.zeros(2), 1.0), Normal(0.0, 2.0))
positive: constraints.Constraint = constraints.positive
print(m.batch_shape, torch.distributions.Normal(0.0, 1.0).rsample((2,)), positive.check(score), kl)
"""


def test_stubs_type_a_policy_program(tmp_path):
    # the package's stubs (distributions/__init__.pyi, constraints.pyi) under mypy --strict; a wrong
    # parameter type is rejected, which shows the stubs and not Any are checked
    pytest.importorskip("mypy")
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__)))
    env = dict(os.environ, MYPYPATH=root)
    env.pop("PYTHONPATH", None)   # on PYTHONPATH the package counts as installed: its stubs' errors go silent
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(TYPED_PROGRAM)
    bad.write_text("from minitorch.distributions import Normal\nNormal('a', 1.0)\n")
    cache = str(tmp_path / "cache")
    run = [sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", cache, "--strict"]
    result = subprocess.run(run + [str(good)], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    result = subprocess.run(run + [str(bad)], capture_output=True, text=True, env=env)
    assert result.returncode == 1 and 'Argument 1 to "Normal" has incompatible type "str"' in result.stdout
