"""torch.autograd.Variable: the name old code uses for a tensor (torch keeps it as a no-op wrapper).

``Variable(t)`` returns a new tensor over t's values outside the graph (a leaf), with requires_grad as
given, as torch's does; ``isinstance(x, Variable)`` is true for every tensor.
"""

from minitorch import _C

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, _C.Tensor)


class Variable(metaclass=_VariableMeta):
    """A leaf tensor over data's values (requires_grad as given): tensors and Variables are one thing."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, _C.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
