"""nn.Module: the base class of every layer, a port of torch/nn/modules/module.py.

This file owns the bookkeeping torch's Module does: parameters, buffers and submodules registered by
attribute assignment, their traversal (``named_parameters``, ``named_modules``, ...), ``state_dict`` and
``load_state_dict``, train/eval, the nested ``repr``, and the in-place conversions (``to``, ``cuda``,
``cpu``, ``float``, ``double``) that keep the same Parameter objects and only swap their data. Error
types and texts are torch's. It does no arithmetic: moving and casting are the tensors' own ``to``,
``cuda`` and ``cpu``, done in C. Hooks, TorchScript, compile and autograd-specific paths are left out.
"""

import itertools
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import minitorch
from minitorch.nn.parameter import Parameter

__all__ = ["Module"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not find and the keys it did not expect."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_, num_spaces):
    # torch's helper: indent every line but the first, leaving blank lines empty.
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


_TENSOR_TYPE_NAMES = {
    "float32": "FloatTensor",
    "float64": "DoubleTensor",
    "int32": "IntTensor",
    "int64": "LongTensor",
    "bool": "BoolTensor",
}


def _typename(obj):
    """torch.typename: 'torch.FloatTensor' for tensors, the qualified class name for the rest."""
    if isinstance(obj, minitorch.Tensor):
        if hasattr(obj, "type"):
            return obj.type()
        dtype_name = str(obj.dtype).rsplit(".", 1)[-1]
        prefix = "torch.cuda." if obj.is_cuda else "torch."
        return prefix + _TENSOR_TYPE_NAMES.get(dtype_name, dtype_name)
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"


# ---- argument parsing for Module.to (torch._C._nn._parse_to) -----------------------------------

_TO_SIGNATURES = (
    "(torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)",
    "(torch.dtype dtype, bool non_blocking = False, bool copy = False, "
    "*, torch.memory_format memory_format = None)",
    "(Tensor tensor, bool non_blocking = False, bool copy = False, "
    "*, torch.memory_format memory_format = None)",
)

# (name, kind, required) for each signature above, in positional order; memory_format is keyword-only.
_TO_PARAMS = (
    (("device", "device", False), ("dtype", "dtype", False), ("non_blocking", "bool", False),
     ("copy", "bool", False)),
    (("dtype", "dtype", True), ("non_blocking", "bool", False), ("copy", "bool", False)),
    (("tensor", "tensor", True), ("non_blocking", "bool", False), ("copy", "bool", False)),
)

# torch's argument parser takes Python scalar types (and, oddly, scalar values) as dtypes.
_PYTHON_DTYPES = {float: "float64", int: "int64", bool: "bool"}


def _arg_type_name(value):
    # The names torch's argument parser prints in "got (...)".
    if isinstance(value, minitorch.Tensor):
        return "Tensor"
    if isinstance(value, minitorch.dtype):
        return "torch.dtype"
    if isinstance(value, minitorch.device):
        return "torch.device"
    return type(value).__name__


def _accepts(kind, value, required):
    if value is None:
        return not required
    if kind == "device":
        return isinstance(value, (str, minitorch.device)) or (
            isinstance(value, int) and not isinstance(value, bool))
    if kind == "dtype":
        return isinstance(value, minitorch.dtype) or type(value) in (float, bool) or (
            isinstance(value, type) and value in _PYTHON_DTYPES)
    if kind == "tensor":
        return isinstance(value, minitorch.Tensor)
    if kind == "bool":
        return isinstance(value, bool)
    return False


def _as_dtype(value):
    if value is None or isinstance(value, minitorch.dtype):
        return value
    if isinstance(value, type):
        return getattr(minitorch, _PYTHON_DTYPES[value])
    # A float or bool value stands for its type, as in torch's parser.
    return getattr(minitorch, _PYTHON_DTYPES[type(value)])


def _match_to_signature(params, args, kwargs):
    if len(args) > len(params):
        return None
    bound = {}
    names = [p[0] for p in params]
    for (name, kind, required), value in zip(params, args):
        if not _accepts(kind, value, required):
            return None
        bound[name] = value
    for name, value in kwargs.items():
        if name == "memory_format":
            if value is not None:
                return None
            continue
        if name not in names or name in bound:
            return None
        kind, required = params[names.index(name)][1:]
        if not _accepts(kind, value, required):
            return None
        bound[name] = value
    for name, kind, required in params:
        if required and name not in bound:
            return None
    return bound


def _parse_to(*args, **kwargs):
    """Parses Module.to's arguments like torch._C._nn._parse_to: (device, dtype, non_blocking)."""
    for index, params in enumerate(_TO_PARAMS):
        bound = _match_to_signature(params, args, kwargs)
        if bound is not None:
            break
    else:
        got = [_arg_type_name(a) for a in args]
        # torch's describer lists keywords last-given first.
        named = ["%s=%s" % (k, _arg_type_name(v)) for k, v in reversed(list(kwargs.items()))]
        if got:
            described = ", ".join(got + named)
        else:
            # torch's describer leaves a separator after each keyword when nothing is positional.
            described = "".join(n + ", " for n in named)
        raise TypeError(
            "to() received an invalid combination of arguments - got (%s), but expected one of:\n%s"
            % (described, "".join(" * %s\n" % s for s in _TO_SIGNATURES)))
    if bound.get("copy") is not None:
        raise RuntimeError(".to() does not accept copy argument")
    non_blocking = bool(bound.get("non_blocking", False))
    if index == 2:
        tensor = bound["tensor"]
        return tensor.device, tensor.dtype, non_blocking
    device = bound.get("device")
    if device is not None and not isinstance(device, minitorch.device):
        # minitorch.device raises torch's errors for bad strings and unavailable indices.
        device = minitorch.device(device)
    return device, _as_dtype(bound.get("dtype")), non_blocking


def _forward_unimplemented(self, *input):
    """Should be overridden by every subclass: the computation run on each call."""
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules; subclass it and define ``forward``.

    Modules hold parameters, buffers and other modules as attributes, registered when they are
    assigned::

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 3)

            def forward(self, x):
                return self.fc(x).relu()

    ``model(x)`` calls ``forward``. ``to``, ``cuda``, ``cpu``, ``float`` and ``double`` convert the
    parameters in place (the same Parameter objects) and return the module.
    """

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'")
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given")
        # object.__setattr__ skips Module.__setattr__, which needs these dicts to exist already.
        super().__setattr__("training", True)
        super().__setattr__("_parameters", {})
        super().__setattr__("_buffers", {})
        super().__setattr__("_non_persistent_buffers_set", set())
        super().__setattr__("_modules", {})
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---- registration --------------------------------------------------------------------------

    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor that is state but not a parameter (saved in state_dict when persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, minitorch.Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)")
        else:
            self._buffers[name] = tensor
            if persistent:
                self._non_persistent_buffers_set.discard(name)
            else:
                self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a Parameter (or None, a placeholder that conversions and state_dict skip)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")

        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)")
        elif getattr(param, "grad_fn", None) is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a child module, reachable as the attribute ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name, module):
        """Alias for :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target):
        """The submodule at the dotted path ``target`` ('' is the module itself)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    # ---- attribute access ----------------------------------------------------------------------

    def __getattr__(self, name):
        # Only called when normal lookup fails: parameters, buffers and submodules live in dicts.
        if "_parameters" in self.__dict__:
            _parameters = self.__dict__["_parameters"]
            if name in _parameters:
                return _parameters[name]
        if "_buffers" in self.__dict__:
            _buffers = self.__dict__["_buffers"]
            if name in _buffers:
                return _buffers[name]
        if "_modules" in self.__dict__:
            modules = self.__dict__["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers,
                            self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{_typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, minitorch.Tensor):
                        raise TypeError(
                            f"cannot assign '{_typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)")
                    self.register_buffer(name, value, name not in self._non_persistent_buffers_set)
                else:
                    super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        # Names that are not Python identifiers (Sequential's '0', '1', ...) are left out.
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(keys)

    def __setstate__(self, state):
        self.__dict__.update(state)
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()

    # ---- conversions ---------------------------------------------------------------------------

    def _apply(self, fn, recurse=True):
        # torch's rule: the converted tensor replaces the parameter's data (param.data = ...), so
        # the Parameter objects a user or an optimizer holds stay valid. Buffers are replaced.
        if recurse:
            for module in self.children():
                module._apply(fn)

        for key, param in self._parameters.items():
            if param is None:
                continue
            with minitorch.no_grad():
                param_applied = fn(param)
            if param_applied is not param:
                param.data = param_applied
            param_grad = param.grad
            if param_grad is not None:
                with minitorch.no_grad():
                    grad_applied = fn(param_grad)
                if grad_applied is not param_grad:
                    param.grad.data = grad_applied

        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        """Calls ``fn`` on every submodule (children first) and then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cuda(self, device=None):
        """Moves every parameter and buffer to a CUDA device, in place; returns self."""
        if device is None:
            return self._apply(lambda t: t.cuda())
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        """Moves every parameter and buffer to the CPU, in place; returns self."""
        return self._apply(lambda t: t.cpu())

    def float(self):
        """Casts floating point parameters and buffers to float32, in place; returns self."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Casts floating point parameters and buffers to float64, in place; returns self."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers, in place; returns self.

        Called like ``Tensor.to``: ``to(device=None, dtype=None, non_blocking=False)``,
        ``to(dtype, non_blocking=False)`` or ``to(tensor, non_blocking=False)``. Only floating
        point dtypes are accepted, and only floating point tensors are cast; integer ones only move.
        """
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex "
                f"dtypes, but got desired dtype={dtype}")

        def convert(t):
            target_dtype = dtype if dtype is not None and t.is_floating_point() else None
            options = {}
            if device is not None:
                options["device"] = device
            if target_dtype is not None:
                options["dtype"] = target_dtype
            if not options:
                return t
            if non_blocking:
                options["non_blocking"] = True
            return t.to(**options)

        return self._apply(convert)

    # ---- state ---------------------------------------------------------------------------------

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer, keyed by dotted name.

        The values share storage with the module's tensors (detached, unless ``keep_vars``).
        """
        if len(args) > 0:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        persistent_buffers = {k: v for k, v in self._buffers.items()
                              if k not in self._non_persistent_buffers_set}
        local_name_params = itertools.chain(self._parameters.items(), persistent_buffers.items())
        local_state = {k: v for k, v in local_name_params if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)

        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, minitorch.Tensor):
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        "expected torch.Tensor or Tensor-like object from checkpoint but "
                        f"received {type(input_param)}")
                    continue
                # Checkpoints from torch 0.3 stored scalars as 1-element vectors.
                if (len(param.shape) == 0 and len(input_param.shape) == 1
                        and input_param.shape[0] == 1):
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append(
                        f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                        "from checkpoint, "
                        f"the shape in current model is {param.shape}.")
                    continue
                try:
                    with minitorch.no_grad():
                        if assign:
                            if isinstance(param, Parameter) and not isinstance(input_param, Parameter):
                                input_param = Parameter(input_param, requires_grad=param.requires_grad)
                            elif isinstance(param, Parameter):
                                input_param.requires_grad_(param.requires_grad)
                            setattr(self, name, input_param)
                        else:
                            param.copy_(input_param)
                except Exception as ex:  # noqa: BLE001 -- reported like torch, with the others
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        f"whose dimensions in the model are {param.size()} and "
                        f"whose dimensions in the checkpoint are {input_param.size()}, "
                        f"an exception occurred : {ex.args}.")
            elif strict:
                missing_keys.append(key)

        extra_state_key = prefix + "_extra_state"
        if strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix):].split(".", 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies parameters and buffers from ``state_dict`` into this module and its children.

        With ``strict`` the keys must match ``state_dict()``'s exactly; a missing or unexpected key
        or a shape mismatch raises torch's RuntimeError. Returns (missing_keys, unexpected_keys).
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys = []
        unexpected_keys = []
        error_msgs = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {k: v for k, v in local_state_dict.items()
                                        if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)

        load(self, state_dict)
        del load

        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if len(missing_keys) > 0:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if len(error_msgs) > 0:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- traversal -----------------------------------------------------------------------------

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        # Deduplicated by identity (torch hashes tensors by id), so a shared parameter appears once.
        memo = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse=True):
        """An iterator over the parameters of this module (and its submodules when ``recurse``)."""
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """An iterator over (dotted name, parameter) pairs, in registration order."""
        yield from self._named_members(lambda module: module._parameters.items(), prefix=prefix,
                                       recurse=recurse, remove_duplicate=remove_duplicate)

    def buffers(self, recurse=True):
        """An iterator over the buffers of this module (and its submodules when ``recurse``)."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """An iterator over (dotted name, buffer) pairs."""
        yield from self._named_members(lambda module: module._buffers.items(), prefix=prefix,
                                       recurse=recurse, remove_duplicate=remove_duplicate)

    def children(self):
        """An iterator over the immediate child modules."""
        for _name, module in self.named_children():
            yield module

    def named_children(self):
        """An iterator over (name, child module) pairs; a module registered twice appears once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self, remove_duplicate=True):
        """An iterator over every module in the tree, self first."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """An iterator over (dotted name, module) pairs for the whole tree, self first as ''."""
        if memo is None:
            memo = set()
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ---- modes and gradients -------------------------------------------------------------------

    def train(self, mode=True):
        """Sets training mode (``training``) on this module and its children; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """Sets evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets ``requires_grad`` on every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Resets the parameters' gradients (minitorch computes none, so they are usually None)."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.requires_grad_(False)
                    p.grad.zero_()

    # ---- printing ------------------------------------------------------------------------------

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        """The text inside this module's parentheses in ``repr``; override it in subclasses."""
        return ""

    def __repr__(self):
        # One line per extra_repr line and per child (indented), or a one-liner when there is
        # only a single extra line and no children.
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str
