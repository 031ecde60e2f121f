"""Module, the base class of every layer, and the bookkeeping all layers share.

A module keeps its state in three ordered registries, filled by ordinary attribute assignment
(``self.fc = Linear(...)``, ``self.w = Parameter(...)``) or by the ``register_*`` methods:

    _parameters   name -> Parameter, or None for a declared but absent slot (Linear(bias=False))
    _buffers      name -> Tensor or None; those in _non_persistent_buffers_set skip state_dict
    _modules      name -> child Module or None

Everything else here is a walk over those registries: the ``named_*`` iterators, ``state_dict`` and
``load_state_dict``, train/eval, the nested repr, and the in-place conversions (``to``, ``cuda``,
``cpu``, ``float``, ``double``), which keep every Parameter object and only swap the storage behind
it, and the forward hooks ``__call__`` runs around ``forward``. Errors use PyTorch's exception types
and texts, so code written for torch fails the same way. Nothing here computes on tensors: moving and
casting are the tensors' own methods. Backward hooks need autograd, which minitorch does not have.
"""

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import minitorch
from minitorch.nn.modules._to_args import parse_to_args
from minitorch.nn.parameter import Buffer, Parameter
from minitorch.utils.hooks import BackwardHook, RemovableHandle

__all__ = ["Module"]


# ---- small helpers -------------------------------------------------------------------------------

def _join(prefix, name):
    """Dotted path of ``name`` under ``prefix`` ('' is the root)."""
    return f"{prefix}.{name}" if prefix else name


def _indent(text, spaces=2):
    """Indents every line of ``text`` but the first, so a child's repr nests under its parent.
    Lines holding only whitespace become empty."""
    first, *rest = text.split("\n")
    pad = " " * spaces
    return "\n".join([first] + [pad + line if line.strip() else "" for line in rest])


_TENSOR_CLASS_NAMES = {
    "float32": "FloatTensor",
    "float64": "DoubleTensor",
    "int32": "IntTensor",
    "int64": "LongTensor",
    "bool": "BoolTensor",
}


def _type_label(obj):
    """How torch's error messages name a value's type (torch.typename): 'torch.FloatTensor' for a
    tensor, 'int' for builtins, 'package.module.Class' for everything else."""
    if isinstance(obj, minitorch.Tensor):
        if hasattr(obj, "type"):
            return obj.type()
        dtype = str(obj.dtype).rsplit(".", 1)[-1]
        return ("torch.cuda." if obj.is_cuda else "torch.") + _TENSOR_CLASS_NAMES.get(dtype, dtype)
    # Classes and functions are named themselves; any other object is named by its class.
    named = obj if hasattr(obj, "__qualname__") or hasattr(obj, "__name__") else type(obj)
    name = named.__qualname__ if hasattr(named, "__qualname__") else named.__name__
    module = getattr(named, "__module__", "") or ""
    return name if module in ("", "builtins") else f"{module}.{name}"


def _discard(name, *places):
    """Removes ``name`` from each dict or set given, wherever it is present."""
    for place in places:
        if isinstance(place, set):
            place.discard(name)
        else:
            place.pop(name, None)


def _check_member_name(module, kind, name, registry):
    """The name rules register_parameter and register_buffer share ('parameter' or 'buffer')."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {_type_label(name)}")
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"")
    if name == "":
        raise KeyError(f"{kind} name can't be empty string \"\"")
    if hasattr(module, name) and name not in registry:
        raise KeyError(f"attribute '{name}' already exists")


class _IncompatibleKeys(namedtuple("IncompatibleKeys", "missing_keys unexpected_keys")):
    """What load_state_dict returns. Its repr names the class, so the class carries torch's name."""

    __slots__ = ()

    def __repr__(self):
        if self.missing_keys or self.unexpected_keys:
            return super().__repr__()
        return "<All keys matched successfully>"

    __str__ = __repr__


# The per-module hook registries (hook id -> hook, or -> True for a flag), made by __init__ and by
# __setstate__ for modules pickled without them.
_HOOK_DICTS = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
               "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_backward_hooks",
               "_backward_pre_hooks")


# torch's Module.forward is a plain function of this name, which shows in the TypeError Python
# raises when it is called with keyword arguments; keeping the name keeps that message.
def _forward_unimplemented(self, *input):
    """The computation a subclass defines; the base class has none."""
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules; subclass it and define ``forward``::

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 3)      # registered as a child module

            def forward(self, x):
                return self.fc(x).relu()

    ``model(x)`` runs ``forward``. ``to``, ``cuda``, ``cpu``, ``float`` and ``double`` convert in
    place, keep the Parameter objects, and return the module.
    """

    dump_patches = False
    _version = 1  # saved in state_dict()._metadata for every module
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False:
            if kwargs:
                raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                                f"argument '{next(iter(kwargs))}'")
            if args:
                raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                                f"but {len(args) + 1} were given")
        # Bypass our own __setattr__, which expects these to exist already.
        super().__setattr__("training", True)
        super().__setattr__("_parameters", {})
        super().__setattr__("_buffers", {})
        super().__setattr__("_non_persistent_buffers_set", set())
        super().__setattr__("_modules", {})
        for name in _HOOK_DICTS:
            super().__setattr__(name, OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        # torch's Module._call_impl: pre-hooks may replace the arguments, hooks the result; a hook
        # registered with always_call=True runs even when forward or an earlier hook raised.
        result = None
        called = set()
        try:
            for hook_id, hook in list(self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    out = hook(self, args, kwargs)
                    if out is not None:
                        if not (isinstance(out, tuple) and len(out) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {out}.")
                        args, kwargs = out
                else:
                    out = hook(self, args)
                    if out is not None:
                        args = out if isinstance(out, tuple) else (out,)
            backward_hook = None
            if self._backward_hooks or self._backward_pre_hooks:
                backward_hook = BackwardHook(self, list(self._backward_hooks.values()),
                                             list(self._backward_pre_hooks.values()))
                args = backward_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in list(self._forward_hooks.items()):
                called.add(hook_id)
                out = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                if out is not None:
                    result = out
            if backward_hook is not None:
                result = backward_hook.setup_output_hook(result)
        except Exception:
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called and hook_id not in called:
                    try:
                        out = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                        if out is not None:
                            result = out
                    except Exception as e:
                        warnings.warn("forward hook with ``always_call=True`` raised an exception that was "
                                      f"silenced as another error was raised in forward: {e}")
            raise
        return result

    def _run_forward_hook(self, hook_id, hook, args, kwargs, result):
        if hook_id in self._forward_hooks_with_kwargs:
            return hook(self, args, kwargs, result)
        return hook(self, args, result)

    # ---- hooks -----------------------------------------------------------------------------------

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Runs ``hook(module, args)`` before every forward; a non-None result replaces the positional
        arguments (a non-tuple becomes a 1-tuple). With ``with_kwargs``: ``hook(module, args,
        kwargs)`` returning None or ``(new_args, new_kwargs)``. Returns a RemovableHandle."""
        handle = RemovableHandle(self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Runs ``hook(module, args, output)`` after every forward; a non-None result replaces the
        output. With ``with_kwargs``: ``hook(module, args, kwargs, output)``; with ``always_call`` it
        runs even when forward raised. Returns a RemovableHandle."""
        handle = RemovableHandle(self._forward_hooks, extra_dict=[self._forward_hooks_with_kwargs,
                                                                  self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """Runs ``hook(module, grad_input, grad_output)`` when the gradients of the module's inputs have been
        computed (grad_input: one entry per positional argument, None for non-tensors); a non-None
        result replaces grad_input. Returns a RemovableHandle."""
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Runs ``hook(module, grad_output)`` when the gradients of the module's outputs are known, before
        those of its inputs are computed; a non-None result replaces grad_output. Returns a
        RemovableHandle."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """torch's deprecated non-full backward hook (on the last op of the output), not built:
        NotImplementedError pointing to register_full_backward_hook."""
        raise NotImplementedError("minitorch does not support the deprecated Module.register_backward_hook; "
                                  "use register_full_backward_hook")

    # ---- registering members ---------------------------------------------------------------------

    def register_parameter(self, name, param):
        """Adds a Parameter, or None: a slot that conversions and state_dict skip."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_member_name(self, "parameter", name, self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_label(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and getattr(param, "grad_fn", None) is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor that is state but not a parameter; state_dict saves it when persistent."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_member_name(self, "buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, minitorch.Tensor):
            raise TypeError(f"cannot assign '{_type_label(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Adds a child module (or None), reachable as the attribute ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_label(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_type_label(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        """Same as :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target):
        """The module at the dotted path ``target``; '' is this module."""
        if target == "":
            return self
        module = self
        for step in target.split("."):
            if not hasattr(module, step):
                raise AttributeError(f"{module._get_name()} has no attribute `{step}`")
            module = getattr(module, step)
            if not isinstance(module, Module):
                raise AttributeError(f"`{step}` is not an nn.Module")
        return module

    def _get_member(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module, name

    def get_parameter(self, target):
        """The Parameter at the dotted path ``target`` ('fc.weight')."""
        module, name = self._get_member(target)
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at the dotted path ``target``."""
        module, name = self._get_member(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(module, name)

    # ---- attribute access ------------------------------------------------------------------------

    def __setattr__(self, name, value):
        # Assignment decides the registry by the value's type first, then by where the name already
        # lives; anything else is a plain attribute.
        state = self.__dict__
        params, modules = state.get("_parameters"), state.get("_modules")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _discard(name, state, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_label(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _discard(name, state, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_label(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
        elif isinstance(value, Buffer) or (state.get("_buffers") is not None and name in state["_buffers"]):
            if value is not None and not isinstance(value, minitorch.Tensor):
                raise TypeError(f"cannot assign '{_type_label(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            persistent = value.persistent if isinstance(value, Buffer) else name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
        else:
            super().__setattr__(name, value)

    def __getattr__(self, name):
        # Python calls this only when normal lookup fails; registered members live in registries.
        state = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in state and name in state[registry]:
                return state[registry][name]
        if name.startswith("_"):  # dunder probes of copy, pickle, NumPy: no list to consult
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        # says so when torch.nn.Module has the name (a method minitorch lacks)
        from minitorch._missing import instance_attribute_message

        raise AttributeError(instance_attribute_message(type(self), name, "torch.nn.Module"))

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
        names = (dir(type(self)) + list(self.__dict__) + list(self._parameters)
                 + list(self._modules) + list(self._buffers))
        # Sequential's '0', '1', ... are not identifiers, so they are left out.
        return sorted(name for name in names if not name[0].isdigit())

    def __setstate__(self, state):
        self.__dict__.update(state)
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()
        for name in _HOOK_DICTS:
            if name not in self.__dict__:
                super().__setattr__(name, OrderedDict())

    # ---- walking the tree ------------------------------------------------------------------------

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """Yields (dotted name, module) for this module ('' by default) and every descendant, depth
        first. A module reachable by two paths is yielded once unless ``remove_duplicate=False``."""
        seen = set() if memo is None else memo
        if self in seen:
            return
        if remove_duplicate:
            seen.add(self)
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(seen, _join(prefix, name), remove_duplicate)

    def modules(self, remove_duplicate=True):
        """Every module of the tree, this one first."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_children(self):
        """Yields (name, child) for the direct children; a child registered twice comes once."""
        seen = set()
        for name, child in self._modules.items():
            if child is not None and child not in seen:
                seen.add(child)
                yield name, child

    def children(self):
        """The direct children."""
        for _, child in self.named_children():
            yield child

    def _named_tensors(self, registry, prefix, recurse, remove_duplicate):
        # Parameters or buffers of the whole tree (or of this module only), registration order.
        # A tensor shared by several modules is yielded once (by identity) unless remove_duplicate
        # is False.
        owners = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                  if recurse else [(prefix, self)])
        seen = set()
        for path, owner in owners:
            for name, tensor in getattr(owner, registry).items():
                if tensor is None or id(tensor) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(tensor))
                yield _join(path, name), tensor

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Yields (dotted name, parameter) pairs, in registration order."""
        yield from self._named_tensors("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """The parameters of this module and, with ``recurse``, of its descendants."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Yields (dotted name, buffer) pairs, in registration order."""
        yield from self._named_tensors("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        """The buffers of this module and, with ``recurse``, of its descendants."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn):
        """Calls ``fn`` on every descendant (deepest first), then on this module; returns self."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ---------------------------------------------------------------------

    def train(self, mode=True):
        """Sets ``training`` to ``mode`` here and in every descendant; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self):
        """Same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets ``requires_grad`` on every parameter; returns self."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Drops (or zeroes) every parameter's gradient (minitorch computes none, so few exist)."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                param.grad.requires_grad_(False)
                param.grad.zero_()

    # ---- converting in place ---------------------------------------------------------------------

    def _apply(self, fn, recurse=True):
        # Replaces each tensor t of the tree by fn(t), children first. A parameter (and its
        # gradient) keeps its identity, only its .data is swapped, so references held elsewhere
        # (an optimizer) stay valid; a buffer is simply replaced in the registry. torch code calls
        # and overrides this method by this name, so it keeps it.
        if recurse:
            for child in self.children():
                child._apply(fn)

        def swap(tensor):
            with minitorch.no_grad():
                converted = fn(tensor)
            if converted is not tensor:
                tensor.data = converted

        for param in self._parameters.values():
            if param is not None:
                swap(param)
                if param.grad is not None:
                    swap(param.grad)
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
        return self

    def to_empty(self, *, device, recurse=True):
        """Moves every parameter and buffer to ``device`` as uninitialised tensors of the same shapes and
        dtypes (the step after building a module on the meta device); returns self."""
        return self._apply(lambda t: minitorch.empty_like(t, device=device), recurse=recurse)

    def share_memory(self):
        """Moves every parameter and buffer (and gradient) to shared memory (Tensor.share_memory_), so that
        processes forked afterwards train the same weights (Hogwild); returns self."""
        return self._apply(lambda t: t.share_memory_())

    def cuda(self, device=None):
        """Moves every parameter and buffer to a CUDA device; returns self."""
        if device is None:
            return self._apply(lambda t: t.cuda())
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        """Moves every parameter and buffer to the CPU; returns self."""
        return self._apply(lambda t: t.cpu())

    def float(self):
        """Casts floating point parameters and buffers to float32; returns self."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        """Casts floating point parameters and buffers to float64; returns self."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def type(self, dst_type):
        """Casts every parameter and buffer to ``dst_type`` (a dtype or a type name such as
        'torch.DoubleTensor', integer types included); returns self."""
        return self._apply(lambda t: t.type(dst_type))

    def half(self):
        """Casts floating point parameters and buffers to float16; returns self."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        """Casts floating point parameters and buffers to bfloat16; returns self."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers; returns self.

        Takes what ``Tensor.to`` takes: ``to(device=None, dtype=None, non_blocking=False)``,
        ``to(dtype, non_blocking=False)`` or ``to(tensor, non_blocking=False)``. The dtype must be a
        floating point one, and only floating point tensors are cast; the others only move.
        """
        device, dtype, non_blocking = parse_to_args(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, "
                            f"but got desired dtype={dtype}")

        def convert(t):
            changes = {}
            if device is not None:
                changes["device"] = device
            if dtype is not None and t.is_floating_point():
                changes["dtype"] = dtype
            if not changes:
                return t
            if non_blocking:
                changes["non_blocking"] = True
            return t.to(**changes)

        return self._apply(convert)

    # ---- saving and loading ----------------------------------------------------------------------

    def _own_state(self):
        # This module's entries in state_dict: parameters, then persistent buffers (None skipped).
        for name, param in self._parameters.items():
            if param is not None:
                yield name, param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                yield name, buf

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict of every parameter and persistent buffer of the tree, by dotted name.

        Values share storage with the module's tensors (detached unless ``keep_vars``). The older
        positional form ``state_dict(destination, prefix, keep_vars)`` is accepted too.
        """
        positional = dict(zip(("destination", "prefix", "keep_vars"), args))
        if destination is None:
            destination = positional.get("destination")
        if prefix == "":
            prefix = positional.get("prefix", "")
        if keep_vars is False:
            keep_vars = positional.get("keep_vars", False)

        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, tensor in self._own_state():
            destination[prefix + name] = tensor if keep_vars else tensor.detach()
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                 keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies the tensors of ``state_dict`` into this module's parameters and buffers.

        Every module of the tree is visited (a shared one under each of its paths). A key this
        model lacks is "unexpected", a tensor it has but ``state_dict`` lacks is "missing"; with
        ``strict`` either is an error. Shape mismatches and failed copies are always errors, all
        reported in one RuntimeError. With ``assign`` the given tensors replace the module's
        instead of being copied into them. Returns (missing_keys, unexpected_keys).
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None) or {}
        entries = dict(state_dict)
        missing, unexpected, errors = [], [], []
        for path, module in self.named_modules(remove_duplicate=False):
            prefix = path + "." if path else ""
            module_assign = assign or metadata.get(path, {}).get("assign_to_params_buffers", False)
            module._load_own_state(entries, prefix, module_assign, missing, unexpected, errors)

        if strict:
            headlines = []
            if missing:
                headlines.append("Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{key}"' for key in missing)))
            if unexpected:
                headlines.append("Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{key}"' for key in unexpected)))
            errors = headlines + errors
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load_own_state(self, entries, prefix, assign, missing, unexpected, errors):
        # One module's share of load_state_dict: fill its own tensors from entries[prefix + name],
        # then flag the keys under prefix that name nothing here (neither own tensor nor child).
        own = dict(self._own_state())
        for name, current in own.items():
            key = prefix + name
            if key in entries:
                error = self._load_tensor(name, key, current, entries[key], assign)
                if error:
                    errors.append(error)
            else:
                missing.append(key)

        extra_state = prefix + "_extra_state"  # torch's get/set_extra_state, unsupported here
        if extra_state in entries:
            unexpected.append(extra_state)
        for key in entries:
            if key.startswith(prefix) and key != extra_state:
                head, dot, _ = key[len(prefix):].partition(".")
                if head not in (self._modules if dot else own):
                    unexpected.append(key)

    def _load_tensor(self, name, key, current, value, assign):
        # Loads one entry; returns an error message, or None on success.
        if not isinstance(value, minitorch.Tensor):
            return (f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(value)}")
        if len(current.shape) == 0 and tuple(value.shape) == (1,):
            value = value[0]  # very old checkpoints saved scalars as 1-element vectors
        if value.shape != current.shape:
            return (f"size mismatch for {key}: copying a param with shape {value.shape} from "
                    f"checkpoint, the shape in current model is {current.shape}.")
        try:
            with minitorch.no_grad():
                if not assign:
                    current.copy_(value)
                    return None
                if isinstance(current, Parameter):
                    if isinstance(value, Parameter):
                        value.requires_grad_(current.requires_grad)
                    else:
                        value = Parameter(value, requires_grad=current.requires_grad)
                setattr(self, name, value)
        except Exception as exc:  # noqa: BLE001 -- reported with the other errors, as torch does
            return (f'While copying the parameter named "{key}", whose dimensions in the model are '
                    f"{current.size()} and whose dimensions in the checkpoint are {value.size()}, "
                    f"an exception occurred : {exc.args}.")
        return None

    # ---- printing --------------------------------------------------------------------------------

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text inside this module's parentheses in its repr; subclasses override it."""
        return ""

    def __repr__(self):
        # Name(extra) on one line when there is a single extra line and no child; otherwise one
        # line per extra line and per child "(name): repr", indented under the name.
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): {_indent(repr(child))}" for name, child in self._modules.items()]
        if len(lines) == 1 and not children:
            body = lines[0]
        elif lines or children:
            body = "\n  " + "\n  ".join(lines + children) + "\n"
        else:
            body = ""
        return f"{self._get_name()}({body})"
