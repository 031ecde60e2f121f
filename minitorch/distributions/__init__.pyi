# Type stubs for minitorch.distributions.

from typing import Any, Callable, Sequence

from minitorch import Size, Tensor
from minitorch.distributions import constraints as constraints
from minitorch.distributions.constraints import Constraint

_Shape = Size | Sequence[int]
_Param = Tensor | float

class Distribution:
    """The base class of the distributions: batch and event shapes, validation, sampling."""

    has_rsample: bool
    has_enumerate_support: bool
    @staticmethod
    def set_default_validate_args(value: bool) -> None: ...
    def __init__(self, batch_shape: Size = ..., event_shape: Size = ..., validate_args: bool | None = None) -> None: ...
    def expand(self, batch_shape: _Shape, _instance: Any = None) -> Distribution: ...
    @property
    def batch_shape(self) -> Size: ...
    @property
    def event_shape(self) -> Size: ...
    @property
    def arg_constraints(self) -> dict[str, Constraint]: ...
    @property
    def support(self) -> Constraint | None: ...
    @property
    def mean(self) -> Tensor: ...
    @property
    def mode(self) -> Tensor: ...
    @property
    def variance(self) -> Tensor: ...
    @property
    def stddev(self) -> Tensor: ...
    def sample(self, sample_shape: _Shape = ...) -> Tensor: ...
    def rsample(self, sample_shape: _Shape = ...) -> Tensor: ...
    def sample_n(self, n: int) -> Tensor: ...
    def log_prob(self, value: Tensor) -> Tensor: ...
    def cdf(self, value: Tensor) -> Tensor: ...
    def icdf(self, value: Tensor) -> Tensor: ...
    def enumerate_support(self, expand: bool = True) -> Tensor: ...
    def entropy(self) -> Tensor: ...
    def perplexity(self) -> Tensor: ...

class ExponentialFamily(Distribution):
    """A distribution of the exponential family (entropy and KL from the log normalizer)."""

class Normal(ExponentialFamily):
    """The normal distribution of mean loc and standard deviation scale."""

    loc: Tensor
    scale: Tensor
    def __init__(self, loc: _Param, scale: _Param, validate_args: bool | None = None) -> None: ...

class Uniform(Distribution):
    """The uniform distribution on [low, high)."""

    low: Tensor
    high: Tensor
    def __init__(self, low: _Param, high: _Param, validate_args: bool | None = None) -> None: ...

class Exponential(ExponentialFamily):
    """The exponential distribution of rate `rate`."""

    rate: Tensor
    def __init__(self, rate: _Param, validate_args: bool | None = None) -> None: ...

class Laplace(Distribution):
    """The Laplace distribution of location loc and scale scale."""

    loc: Tensor
    scale: Tensor
    def __init__(self, loc: _Param, scale: _Param, validate_args: bool | None = None) -> None: ...

class Bernoulli(ExponentialFamily):
    """1 with probability probs (or sigmoid(logits)), else 0."""

    probs: Tensor
    logits: Tensor
    @property
    def param_shape(self) -> Size: ...
    def __init__(self, probs: _Param | None = None, logits: _Param | None = None,
                 validate_args: bool | None = None) -> None: ...

class Categorical(Distribution):
    """A categorical distribution over the last dimension of probs or logits."""

    probs: Tensor
    logits: Tensor
    @property
    def param_shape(self) -> Size: ...
    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None: ...

class OneHotCategorical(Distribution):
    """One-hot samples of a categorical distribution."""

    @property
    def probs(self) -> Tensor: ...
    @property
    def logits(self) -> Tensor: ...
    @property
    def param_shape(self) -> Size: ...
    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None: ...

class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical whose rsample passes the gradient of probs straight through."""

class MultivariateNormal(Distribution):
    """The multivariate normal distribution (covariance, precision or scale_tril)."""

    loc: Tensor
    covariance_matrix: Tensor
    precision_matrix: Tensor
    scale_tril: Tensor
    def __init__(self, loc: Tensor, covariance_matrix: Tensor | None = None, precision_matrix: Tensor | None = None,
                 scale_tril: Tensor | None = None, validate_args: bool | None = None) -> None: ...

class Independent(Distribution):
    """A base distribution with rightmost batch dimensions reinterpreted as event dimensions."""

    base_dist: Distribution
    reinterpreted_batch_ndims: int
    def __init__(self, base_distribution: Distribution, reinterpreted_batch_ndims: int,
                 validate_args: bool | None = None) -> None: ...

def kl_divergence(p: Distribution, q: Distribution) -> Tensor: ...
def register_kl(type_p: type, type_q: type) -> Callable[[Callable[..., Tensor]], Callable[..., Tensor]]: ...
