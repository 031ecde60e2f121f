"""The optimizer base class, as torch/optim/optimizer.py has it.

An optimizer holds `param_groups` (a list of dicts: the group's "params" and its hyperparameters, the
defaults filled in) and `state` (per parameter, e.g. Adam's moving averages), and its subclass's step()
updates every parameter that has a .grad. torch computes the update with one function per parameter on
the CPU (the "single tensor" path) and with list ("foreach") kernels on CUDA; both do the same arithmetic
in the same order, and minitorch runs the single-tensor form on every device.
"""

import functools
import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain

import minitorch as torch
from minitorch.utils.hooks import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_pre_hook", "register_optimizer_step_post_hook"]


class _RequiredParameter:
    """The default of a hyperparameter every param group must give itself."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


def register_optimizer_step_pre_hook(hook):
    """hook(optimizer, args, kwargs) before every optimizer's step()."""
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook):
    """hook(optimizer, args, kwargs) after every optimizer's step()."""
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


def _use_grad_for_differentiable(step):
    """step() runs with grad mode off (on with differentiable=True), whatever the caller's mode is."""

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        with torch.set_grad_enabled(self.defaults["differentiable"]):
            return step(self, *args, **kwargs)

    return wrapper


def _get_value(x):
    """A step counter's value as a Python number."""
    return x.item() if isinstance(x, torch.Tensor) else x


def _to_scalar(x):
    """A 1-element tensor hyperparameter (lr=torch.tensor([0.1])) as a 0-dim one."""
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _check_lr(lr):
    """The learning-rate checks every optimizer's constructor starts with."""
    if isinstance(lr, torch.Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_adam_like(lr, eps, betas, weight_decay):
    """The checks of Adam and its variants (Adamax, NAdam, RAdam), in torch's order."""
    _check_lr(lr)
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _adam_weight_decay(param, grad, lr, weight_decay, decoupled):
    """The Adam family's weight decay: p *= 1 - lr * weight_decay (decoupled) or g + weight_decay * p; returns
    the gradient the update uses."""
    if weight_decay != 0:
        if decoupled:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    return grad


def _adam_moments(exp_avg, exp_avg_sq, grad, beta1, beta2):
    """The Adam family's moving averages, in place: m = lerp(m, g, 1 - beta1); v = beta2 * v + (1 - beta2) g g."""
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)


def _new_scalar_state(param, value, capturable):
    """A 0-dim step counter (or other per-parameter number) of _get_scalar_dtype(): on the CPU, or on the
    parameter's device when capturable."""
    return torch.full((), value, dtype=_get_scalar_dtype(), device=param.device if capturable else "cpu")


def _check_capturable(param, scalars, names="params and state_steps", supports_xla=True):
    """capturable=True's check in torch's update functions: the parameter and its step counter (and other
    0-dim state) on one device of a kind torch can capture in a graph (here: CUDA)."""
    supported = ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if supports_xla else [])
    if not (all(s.device.type == param.device.type for s in scalars) and param.device.type in supported):
        raise AssertionError(f"If capturable=True, {names} must be on supported devices: {supported}.")


def _zeros_like(param):
    """A state tensor of zeros in the parameter's shape, dtype, device and layout."""
    return torch.zeros_like(param, memory_format=torch.preserve_format)


def _step_with_hooks(step):
    """Wraps a subclass's step() once: the global and the optimizer's pre- and post-hooks around it."""

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        self = args[0]
        for pre_hook in chain(_global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, new_kwargs), but got {result}.")
        out = step(*args, **kwargs)
        self._opt_called = True
        for post_hook in chain(self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out

    wrapper.hooked = True
    return wrapper


def _closure_loss(closure):
    """What step(closure) returns: the loss closure() computes (with grad mode on), or None."""
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def _get_scalar_dtype():
    """The dtype of the step counters optimizers keep: float64 when that is the default dtype, else float32."""
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


class Optimizer:
    """Base class of the optimizers: params (tensors, or dicts of per-group options) and the defaults."""

    # options a group pickled by an older torch may lack, filled in when it is unpickled or loaded
    _setstate_defaults = {}

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()

        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + torch.typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks", "_optimizer_state_dict_pre_hooks",
                     "_optimizer_state_dict_post_hooks", "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._setstate_defaults.items():
                group.setdefault(key, value)

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def _patch_step_function(self):
        step = self.__class__.step
        if not getattr(step, "hooked", False):
            self.__class__.step = _step_with_hooks(step)

    # ---- hooks ---------------------------------------------------------------------------------------

    @staticmethod
    def _register(hooks, hook, prepend=False):
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_step_pre_hook(self, hook):
        """hook(optimizer, args, kwargs) before this optimizer's step(); may return new (args, kwargs)."""
        return self._register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """hook(optimizer, args, kwargs) after this optimizer's step()."""
        return self._register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        return self._register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        return self._register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        return self._register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        return self._register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ---- state_dict ------------------------------------------------------------------------------------

    def state_dict(self):
        """{"state": {index: per-parameter state}, "param_groups": [group with "params" as indices]}: the
        parameters are numbered in the order the groups list them, so the dict holds no tensor identity."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {(index[id(k)] if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _cast_state(param, value, group, key):
        """A loaded state tensor moved to its parameter's device (and dtype, for floating parameters);
        the step counter stays as it is unless the group is capturable or fused."""
        if key == "step":
            if group.get("capturable", False) or group.get("fused", False):
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict):
        """Loads a state_dict() of an optimizer with the same group layout (a deep copy of it)."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        group_of = {i: g for g in state_dict["param_groups"] for i in g["params"]}

        def cast(param, value, group, key=None):
            if isinstance(value, torch.Tensor):
                return self._cast_state(param, value, group, key)
            if isinstance(value, dict):
                return {k: cast(param, v, group, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v, group) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = cast(id_map[k], v, group_of.get(k, {}))
            else:
                state[k] = v
        for group, new_group in zip(groups, saved_groups):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ---- gradients and groups ------------------------------------------------------------------------

    def zero_grad(self, set_to_none=True):
        """Forgets every parameter's gradient (p.grad = None), or zeroes it in place (set_to_none=False)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                    continue
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Adds a group (a dict with "params" and any options; the defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        # named parameters come as (name, tensor) pairs
        names = [p[0] for p in params if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " +
                                torch.typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)


class _LazyStateOptimizer(Optimizer):
    """An optimizer whose step() updates, group by group, the parameters that have a gradient: a subclass
    gives _new_state(p, group), a parameter's state (a dict, in the key order state_dict() shows) made at
    its first step, and _update(group, params, states), the update itself."""

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter with a gradient; closure() re-evaluates the loss first."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            for p in params:
                if len(self.state[p]) == 0:
                    self.state[p].update(self._new_state(p, group))
            self._update(group, params, [self.state[p] for p in params])
        return loss

    def _new_state(self, p, group):
        raise NotImplementedError

    def _update(self, group, params, states):
        raise NotImplementedError
