"""Parameter and Buffer: the tensor types that mark a module's learnable state and its other state, and the
uninitialised parameters and buffers of the lazy modules.

Assigning a Parameter (or a Buffer) to a Module attribute is what registers it (module.py does that); this file
only defines the types. Parameter: making one (a view of the given tensor's storage, never a copy, built by the
C core's ``Tensor._make_subclass``), printing it under a "Parameter containing:" header, hashing it
by identity, and copying and pickling it without losing the type.
"""

import collections

import minitorch
from minitorch import _serialization

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"]


def _make_subclass(cls, data, requires_grad):
    """Tensor._make_subclass with torch's parser check of requires_grad (minitorch's would take any truthy
    object)."""
    if not isinstance(requires_grad, bool):
        raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, not {}".format(
            type(requires_grad).__name__))
    return minitorch.Tensor._make_subclass(cls, data, requires_grad)


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
        return _make_subclass(cls, data, requires_grad)

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


class _BufferMeta(type(minitorch.Tensor)):
    """Makes isinstance(t, Buffer) true for the tensors Buffer(...) marked (torch's _BufferMeta)."""

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, minitorch.Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(minitorch.Tensor, metaclass=_BufferMeta):
    """A marker for a module's non-parameter state: ``module.name = Buffer(t)`` registers ``t`` as a buffer
    (``persistent=False`` keeps it out of the state_dict). ``Buffer(t)`` is a plain tensor (t detached, with its
    requires_grad) carrying the mark, as in torch."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = minitorch.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


class UninitializedTensorMixin:
    """A lazy module's parameter or buffer before its first forward: no shape yet; materialize() gives it one
    (new, uninitialised memory) and turns it into cls_to_become."""

    def materialize(self, shape, device=None, dtype=None):
        """Storage of the given shape (on the parameter's device, in its dtype unless given), and the type it
        stands for."""
        device = self.data.device if device is None else device
        dtype = self.data.dtype if dtype is None else dtype
        self.data = minitorch.empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        """Not known yet: torch's RuntimeError."""
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")

    def share_memory_(self):
        """Not possible yet: torch's RuntimeError."""
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
            "parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


def is_lazy(param):
    """Whether param is an uninitialised parameter or buffer."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape the first forward of its lazy module decides; it becomes a Parameter."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        data = minitorch.empty(0, device=device, dtype=dtype)
        return _make_subclass(cls, data, requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, minitorch.Tensor):
    """A buffer whose shape the first forward of its lazy module decides; it becomes a Tensor."""

    cls_to_become = minitorch.Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        data = minitorch.empty(0, device=device, dtype=dtype)
        return _make_subclass(cls, data, requires_grad)

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass
