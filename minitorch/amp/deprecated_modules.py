"""torch.cuda.amp and torch.cpu.amp: torch's deprecated spellings of torch.amp's classes, bound to one
device type, each warning once per construction with torch's FutureWarning. install() makes them
importable (``from torch.cuda.amp import autocast, GradScaler``) although minitorch.cuda is a module."""

import functools
import sys
import types
import warnings

import minitorch
from minitorch.amp import autocast_mode, grad_scaler


def _deprecated(old, new):
    warnings.warn(f"`{old}(args...)` is deprecated. Please use `{new}` instead.", FutureWarning, stacklevel=3)


def _autocast_for(device_type, default_dtype):
    class autocast(autocast_mode.autocast):
        """``torch.<device>.amp.autocast(args...)``: deprecated, ``torch.amp.autocast('<device>', args...)``."""

        def __init__(self, enabled=True, dtype=default_dtype, cache_enabled=True):
            _deprecated(f"torch.{device_type}.amp.autocast", f"torch.amp.autocast('{device_type}', args...)")
            super().__init__(device_type, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)

    return autocast


def _grad_scaler_for(device_type):
    class GradScaler(grad_scaler.GradScaler):
        """``torch.<device>.amp.GradScaler(args...)``: deprecated, ``torch.amp.GradScaler('<device>', args...)``."""

        def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                     enabled=True):
            _deprecated(f"torch.{device_type}.amp.GradScaler", f"torch.amp.GradScaler('{device_type}', args...)")
            super().__init__(device_type, init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)

    return GradScaler


def _deprecated_decorator(name, func):
    @functools.wraps(func)
    def deprecated(fwd=None, **kwargs):
        _deprecated(f"torch.cuda.amp.{name}", f"torch.amp.{name}(args..., device_type='cuda')")
        return func(fwd, device_type="cuda", **kwargs) if fwd is not None else \
            functools.partial(func, device_type="cuda", **kwargs)

    return deprecated


def amp_definitely_not_available():
    return not minitorch.cuda.is_available()


def _module(name, **attributes):
    module = types.ModuleType(name)
    for key, value in attributes.items():
        if isinstance(value, type):
            value.__name__ = value.__qualname__ = key
            value.__module__ = name
        setattr(module, key, value)
    sys.modules[name] = module
    return module


def install(cuda_module, cpu_package):
    """Sets ``cuda_module.amp`` and ``cpu_package.amp`` and registers them for import."""
    cuda_module.amp = _module("minitorch.cuda.amp", autocast=_autocast_for("cuda", minitorch.float16),
                              GradScaler=_grad_scaler_for("cuda"),
                              custom_fwd=_deprecated_decorator("custom_fwd", autocast_mode.custom_fwd),
                              custom_bwd=_deprecated_decorator("custom_bwd", autocast_mode.custom_bwd),
                              amp_definitely_not_available=amp_definitely_not_available,
                              autocast_mode=autocast_mode, grad_scaler=grad_scaler)
    cpu_package.amp = _module("minitorch.cpu.amp", autocast=_autocast_for("cpu", minitorch.bfloat16),
                              GradScaler=_grad_scaler_for("cpu"),
                              autocast_mode=autocast_mode, grad_scaler=grad_scaler)
