"""Sequential and ModuleList: modules whose children form a numbered list (and ModuleDict, keyed
children, ParameterList, numbered parameters, and ParameterDict, keyed parameters).

The children are ordinary submodules named "0", "1", ... (a Sequential built from an OrderedDict
keeps the names given), so traversal, state_dict keys ("0.weight") and most of the repr come from
Module. This file adds the list behaviour: indexing by position or slice, len, iteration, edits
that renumber the children afterwards, ``+`` and ``*``; Sequential's forward, which passes the
input through each child in turn; and ModuleList's repr, which folds runs of identical children
into one line ("(0-2): 3 x Linear(...)").
"""

import itertools
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from operator import index as _as_int

import minitorch
from minitorch.nn.modules.module import Module, _indent
from minitorch.nn.parameter import Parameter

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _position(container, idx):
    """``idx`` (negative counts from the end) as a position in 0..len-1, or torch's IndexError."""
    size = len(container)
    idx = _as_int(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


def _renumber(container):
    """Renames the children "0".."n-1" in their current order (after a deletion)."""
    container._modules = OrderedDict(
        (str(i), child) for i, child in enumerate(container._modules.values()))


def _put_at(container, index, module):
    """Moves the children named index..n-1 up by one name and puts ``module`` under ``index``."""
    children = container._modules
    for i in reversed(range(index, len(children))):
        children[str(i + 1)] = children[str(i)]
    children[str(index)] = module


def _hide_numbers(names):
    return [name for name in names if not name.isdigit()]


class Sequential(Module):
    """A chain of modules: ``forward`` feeds its input to the first and each output to the next.

    Built from modules (named "0", "1", ...) or from one OrderedDict of named modules. An int index
    gives a module; a slice gives a new Sequential holding the same module objects.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            named = args[0].items()
        else:
            named = ((str(i), module) for i, module in enumerate(args))
        for name, module in named:
            self.add_module(name, module)

    def forward(self, input):
        """Runs the modules in order, each on the previous one's output."""
        for module in self:
            input = module(input)
        return input

    def _name_at(self, idx):
        return list(self._modules)[_position(self, idx)]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._name_at(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._name_at(idx), module)

    def __delitem__(self, idx):
        names = list(self._modules)[idx] if isinstance(idx, slice) else [self._name_at(idx)]
        for name in names:
            delattr(self, name)
        _renumber(self)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __dir__(self):
        return _hide_numbers(super().__dir__())

    def append(self, module):
        """Adds ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential):
        """Appends every module of ``sequential`` (any iterable); returns self."""
        for module in sequential:
            self.append(module)
        return self

    def insert(self, index, module):
        """Puts ``module`` before position ``index`` (len(self) appends); returns self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        size = len(self._modules)
        if not -size <= index <= size:
            raise IndexError(f"Index out of range: {index}")
        _put_at(self, index + size if index < 0 else index, module)
        return self

    def pop(self, key):
        """Removes the module at position ``key`` and returns it."""
        module = self[key]
        del self[key]
        return module

    def _check_sequential(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, "
                             f"but {type(other)} is given.")

    def __add__(self, other):
        self._check_sequential(other)
        return Sequential(*self, *other)

    def __iadd__(self, other):
        self._check_sequential(other)
        start = len(self)
        for i, module in enumerate(other):
            self.add_module(str(start + i), module)
        return self

    def _check_factor(self, other):
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")

    def __mul__(self, other):
        self._check_factor(other)
        return Sequential(*(list(self) * other))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __imul__(self, other):
        self._check_factor(other)
        size = len(self)
        for repeat in range(1, other):
            for i in range(size):
                self.add_module(str(repeat * size + i), self._modules[str(i)])
        return self


class ModuleList(Module):
    """A Python-list-like holder of modules. Unlike a plain list, its modules are registered, so
    they are moved, saved and printed with the parent. It has no forward of its own."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _name_at(self, idx):
        # A ModuleList's children are always addressed by the name of their position.
        return str(_position(self, idx))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._name_at(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._name_at(idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            names = [str(i) for i in range(len(self._modules))[idx]]
        else:
            names = [self._name_at(idx)]
        for name in names:
            delattr(self, name)
        _renumber(self)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __dir__(self):
        return _hide_numbers(super().__dir__())

    def append(self, module):
        """Adds ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        """Appends every module of the iterable ``modules``; returns self."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        start = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(start + i), module)
        return self

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def insert(self, index, module):
        """Puts ``module`` before position ``index``."""
        _put_at(self, index, module)

    def pop(self, key):
        """Removes the module at position ``key`` and returns it."""
        module = self[key]
        del self[key]
        return module

    def __repr__(self):
        if len(self) == 0:
            return self._get_name() + "()"
        lines = []
        start = 0
        for text, run in itertools.groupby(repr(module) for module in self):
            count = len(list(run))
            if count == 1:
                lines.append(_indent(f"({start}): {text}"))
            else:
                lines.append(_indent(f"({start}-{start + count - 1}): {count} x {text}"))
            start += count
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict-like holder of modules, in insertion order; its modules are registered as children under
    their keys (so traversal, state_dict and the repr come from Module)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        """Removes every module."""
        self._modules.clear()

    def pop(self, key):
        """Removes the module under key and returns it."""
        module = self[key]
        del self[key]
        return module

    def keys(self):
        """The keys, in order."""
        return self._modules.keys()

    def items(self):
        """(key, module) pairs, in order."""
        return self._modules.items()

    def values(self):
        """The modules, in order."""
        return self._modules.values()

    def update(self, modules):
        """Adds the modules of a mapping, or of an iterable of (key, module) pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        if isinstance(modules, (OrderedDict, ModuleDict, Mapping)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, m in enumerate(modules):
            if not isinstance(m, Iterable):
                raise TypeError("ModuleDict update sequence element #" + str(j) + " should be Iterable; is"
                                + type(m).__name__)
            if not len(m) == 2:
                raise ValueError("ModuleDict update sequence element #" + str(j) + " has length " + str(len(m))
                                 + "; 2 is required")
            self[m[0]] = m[1]


class ParameterList(Module):
    """A list-like holder of Parameters, registered as the parameters "0", "1", ... (a tensor given is
    made a Parameter)."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _name_at(self, idx):
        return str(_position(self, idx))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self)[idx])
        return getattr(self, self._name_at(idx))

    def __setitem__(self, idx, param):
        setattr(self, self._name_at(idx), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return _hide_numbers(super().__dir__())

    def append(self, value):
        """Adds a parameter at the end; returns self."""
        new_idx = len(self)
        self._size += 1
        setattr(self, str(new_idx), _as_parameter(value))
        return self

    def extend(self, values):
        """Appends every value of the iterable; returns self."""
        if not isinstance(values, Iterable) or isinstance(values, minitorch.Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        """One line per entry: a parameter's dtype and size, as torch prints them."""
        lines = []
        for i, p in enumerate(self):
            if isinstance(p, minitorch.Tensor):
                size = "x".join(str(s) for s in p.size())
                device = "" if p.device.type == "cpu" else f" ({p.device})"
                kind = "Parameter containing" if isinstance(p, Parameter) else "Tensor containing"
                lines.append(f"  ({i}): {kind}: [{p.dtype} of size {size}{device}]")
            else:
                lines.append(f"  ({i}): Object of type: {type(p).__name__}")
        return "\n".join(lines)


class ParameterDict(Module):
    """A dict-like holder of Parameters, registered as parameters under their (string) keys in insertion
    order (a tensor given is made a Parameter; other objects are kept as attributes)."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other):
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other):
        self.update(other)
        return self

    def copy(self):
        """A new ParameterDict holding the same parameter objects."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        """self[key], first set to default when key is absent."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        """Removes every entry."""
        for key in list(self._keys):
            del self[key]

    def pop(self, key):
        """Removes key; returns its value."""
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        """Removes the last entry; returns (key, value)."""
        key, _ = self._keys.popitem()
        self._keys[key] = None
        value = self[key]
        del self[key]
        return key, value

    def get(self, key, default=None):
        """self[key], or default when key is absent."""
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        """A new ParameterDict with each key set to default."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        """The keys, in insertion order."""
        return self._keys.keys()

    def items(self):
        """(key, value) pairs, in insertion order."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """The values, in insertion order."""
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """Adds the entries of an OrderedDict or ParameterDict (in order), of another mapping (sorted by key),
        or of an iterable of (key, value) pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, value in parameters.items():
                self[key] = value
        elif isinstance(parameters, Mapping):
            for key, value in sorted(parameters.items()):
                self[key] = value
        else:
            for j, pair in enumerate(parameters):
                if not isinstance(pair, Iterable):
                    raise TypeError("ParameterDict update sequence element #" + str(j) + " should be Iterable; is"
                                    + type(pair).__name__)
                if not len(pair) == 2:
                    raise ValueError("ParameterDict update sequence element #" + str(j) + " has length "
                                     + str(len(pair)) + "; 2 is required")
                self[pair[0]] = pair[1]

    def extra_repr(self):
        """One line per entry: a tensor's type name and size, as torch prints them."""
        lines = []
        for key, p in self.items():
            if isinstance(p, minitorch.Tensor):
                size = "x".join(str(s) for s in p.size())
                device = "" if p.device.type == "cpu" else f" ({p.device})"
                kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
                lines.append(f"  ({key}): {kind} containing: [{minitorch.typename(p)} of size {size}{device}]")
            else:
                lines.append(f"  ({key}): Object of type: {type(p).__name__}")
        return "\n".join(lines)


def _as_parameter(value):
    """A tensor given to a ParameterList becomes a Parameter (other objects are kept as they are)."""
    if isinstance(value, minitorch.Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value
