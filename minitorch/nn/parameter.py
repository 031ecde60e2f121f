"""nn.Parameter: the Tensor subclass that a Module registers as one of its parameters.

This file owns the Parameter type only: how one is made (sharing the storage of the tensor it wraps,
through the C core's ``Tensor._make_subclass``), how it prints (torch's "Parameter containing:"
header), and how it is copied and pickled. It holds no module logic and allocates no memory of its own.
"""

import minitorch

__all__ = ["Parameter"]


class Parameter(minitorch.Tensor):
    """A Tensor that a :class:`~minitorch.nn.Module` treats as one of its parameters.

    Assigning a Parameter as a Module attribute registers it (it then appears in ``parameters()``
    and ``state_dict()``); assigning a plain Tensor does not. ``Parameter(data)`` shares ``data``'s
    storage; ``requires_grad`` defaults to True, as in torch.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = minitorch.empty(0)
        elif not isinstance(data, minitorch.Tensor):
            # torch takes this path for tensor-likes and fails on anything else with
            # "'list' object has no attribute 'detach'".
            data = data.detach()
        # _make_subclass returns a `cls` object that views data's storage, as torch does for
        # plain tensors: no copy, so Parameter(t) and t see each other's writes.
        return minitorch.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, data=None, requires_grad=True):
        # Everything happened in __new__; this only keeps Tensor.__init__ from seeing the arguments.
        pass

    def __repr__(self):
        # torch prints the tensor with the prefix 'tensor(' (not 'Parameter(') under this header.
        return "Parameter containing:\n" + super().__repr__()

    # torch's str(p) is object.__str__ -> Parameter.__repr__; the C Tensor may define its own str.
    __str__ = __repr__

    # torch hashes every tensor by identity; sets and dicts of parameters (optimizers, memo sets)
    # rely on it.
    def __hash__(self):
        return id(self)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(_clone(self.data), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.data, self.requires_grad))


def _clone(tensor):
    """A copy with its own storage (Tensor.clone when the core has it)."""
    if hasattr(tensor, "clone"):
        return tensor.clone()
    out = minitorch.empty_like(tensor)
    out.copy_(tensor)
    return out


def _rebuild_parameter(data, requires_grad):
    """Unpickling entry point: a Parameter around the unpickled data."""
    return Parameter(data, requires_grad)
