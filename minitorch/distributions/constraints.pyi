# Type stubs for minitorch.distributions.constraints.

from typing import Any, Callable

from minitorch import Tensor

class Constraint:
    """A region over which a variable is valid."""

    is_discrete: bool
    event_dim: int
    def check(self, value: Tensor) -> Tensor: ...

def is_dependent(constraint: Any) -> bool: ...
def dependent_property(fn: Callable[..., Any] | None = None, *, is_discrete: bool = ...,
                       event_dim: int = ...) -> Any: ...
def independent(base_constraint: Constraint, reinterpreted_batch_ndims: int) -> Constraint: ...
def integer_interval(lower_bound: Any, upper_bound: Any) -> Constraint: ...
def interval(lower_bound: Any, upper_bound: Any) -> Constraint: ...
def half_open_interval(lower_bound: Any, upper_bound: Any) -> Constraint: ...
def greater_than(lower_bound: Any) -> Constraint: ...
def greater_than_eq(lower_bound: Any) -> Constraint: ...
def less_than(upper_bound: Any) -> Constraint: ...

dependent: Any
boolean: Constraint
one_hot: Constraint
nonnegative_integer: Constraint
positive_integer: Constraint
real: Constraint
real_vector: Constraint
positive: Constraint
nonnegative: Constraint
unit_interval: Constraint
simplex: Constraint
lower_triangular: Constraint
lower_cholesky: Constraint
square: Constraint
symmetric: Constraint
positive_definite: Constraint
