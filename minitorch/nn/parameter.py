"""Parameter: the tensor type that marks a module's learnable state.

Assigning a Parameter to a Module attribute is what registers it (module.py does that); this file
only defines the type: making one (a view of the given tensor's storage, never a copy, built by the
C core's ``Tensor._make_subclass``), printing it under a "Parameter containing:" header, hashing it
by identity, and copying and pickling it without losing the type.
"""

import collections

import minitorch
from minitorch import _serialization

__all__ = ["Parameter"]


class Parameter(minitorch.Tensor):
    """A Tensor that a :class:`~minitorch.nn.Module` counts as one of its parameters.

    ``Parameter(t)`` shares ``t``'s storage, so writes through either are seen by both.
    ``requires_grad`` defaults to True. With no data it is an empty float tensor.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = minitorch.empty(0)
        elif not isinstance(data, minitorch.Tensor):
            # torch does the same, so a list fails with "'list' object has no attribute 'detach'".
            data = data.detach()
        if not isinstance(requires_grad, bool):
            # torch's _make_subclass parser; minitorch's would take any truthy object
            raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, not {}".format(
                type(requires_grad).__name__))
        return minitorch.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, data=None, requires_grad=True):
        # __new__ built the object; this only keeps the arguments away from Tensor.__init__.
        pass

    def __repr__(self):
        # The tensor part still reads "tensor(...)", as in torch.
        return "Parameter containing:\n" + super().__repr__()

    # The C Tensor has its own __str__; torch prints a Parameter the same both ways.
    __str__ = __repr__

    def __hash__(self):
        # Identity, like every torch tensor: optimizers and memo sets keep parameters in sets/dicts.
        return id(self)

    def __deepcopy__(self, memo):
        key = id(self)
        if key not in memo:
            memo[key] = type(self)(self.data.clone(), self.requires_grad)
        return memo[key]

    def __reduce_ex__(self, protocol):
        # torch's: the data (a plain tensor, pickled with its storage and geometry), and the instance
        # attributes when there are any
        # attributes when there are any; the empty OrderedDict is torch's backward_hooks argument
        state = _serialization._get_obj_state(self)
        if not state:
            return (_rebuild_parameter, (self.data, self.requires_grad, collections.OrderedDict()))
        return (_rebuild_parameter_with_state, (self.data, self.requires_grad, collections.OrderedDict(), state))


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    """What unpickling calls (its name is stored in pickles): a Parameter around the data."""
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    """Unpickles a Parameter that had attributes."""
    return _serialization._set_obj_state(Parameter(data, requires_grad), state)
