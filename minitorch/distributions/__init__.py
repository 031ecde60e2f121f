"""minitorch.distributions: torch.distributions' parameterizable probability distributions, the part
that policy-gradient and variational code uses (Normal, Categorical, Bernoulli, Uniform, Exponential,
Laplace, OneHotCategorical, MultivariateNormal, Independent), their constraints and kl_divergence.
Each is written as torch 2.13 writes it, on minitorch's ops: after manual_seed the samples are torch's
on the CPU, log_prob and entropy are torch's arithmetic in torch's order, and rsample and log_prob
carry gradients. Distributions torch has and this package lacks say so (minitorch/_missing.py)."""

from minitorch.distributions import constraints
from minitorch.distributions.bernoulli import Bernoulli
from minitorch.distributions.categorical import Categorical
from minitorch.distributions.distribution import Distribution
from minitorch.distributions.exp_family import ExponentialFamily
from minitorch.distributions.exponential import Exponential
from minitorch.distributions.independent import Independent
from minitorch.distributions.kl import kl_divergence, register_kl
from minitorch.distributions.laplace import Laplace
from minitorch.distributions.multivariate_normal import MultivariateNormal
from minitorch.distributions.normal import Normal
from minitorch.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from minitorch.distributions.uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "ExponentialFamily", "Exponential", "Independent", "Laplace",
           "MultivariateNormal", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Uniform",
           "constraints", "kl_divergence", "register_kl"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
