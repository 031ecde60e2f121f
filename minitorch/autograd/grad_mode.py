"""Grad mode: the per-thread switches torch.autograd.grad_mode keeps.

Each thread starts with grad mode on and inference mode off, as in torch. ``no_grad``,
``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` are context managers that restore the
previous mode on exit, and decorators (``@no_grad`` or ``@no_grad()``) that apply the mode for the
duration of each call, or of each step of a generator. The mode itself lives in C (per thread), where
every op reads it to decide whether autograd records a node.
"""

import functools
import inspect

from minitorch import _C

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]

is_grad_enabled = _C.is_grad_enabled
is_inference_mode_enabled = _C.is_inference_mode_enabled
_set_grad = _C._set_grad_enabled


def _wrap_generator(manager_factory, gen_func):
    # the mode holds while the generator runs, not while its caller does between steps
    @functools.wraps(gen_func)
    def wrapper(*args, **kwargs):
        gen = gen_func(*args, **kwargs)
        try:
            with manager_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with manager_factory():
                        gen.close()
                    raise
                except BaseException as exc:
                    with manager_factory():
                        response = gen.throw(exc)
                else:
                    with manager_factory():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper


class _DecoratorContextManager:
    """A context manager usable as a decorator; each decorated call runs under a fresh copy."""

    def clone(self):
        """A fresh manager of the same kind, for one decorated call."""
        return self.__class__()

    def __call__(self, func):
        if inspect.isclass(func):
            raise RuntimeError("Torch grad mode decorators can only decorate functions, not classes")
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also usable as a bare decorator: ``@no_grad`` is ``@no_grad()``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class _GradSwitch(_NoParamDecoratorContextManager):
    """Sets grad mode to the class's ``_mode`` on entry and restores the previous mode on exit."""

    _mode = False

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad(self._mode)

    def __exit__(self, *exc):
        _set_grad(self.prev)


class no_grad(_GradSwitch):
    """Turns grad mode off for a block or a function."""

    _mode = False

    def __init__(self):
        self.prev = False


class enable_grad(_GradSwitch):
    """Turns grad mode on for a block or a function (inside a no_grad block, say)."""

    _mode = True


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode to ``mode`` at once; as a context manager, the previous mode comes back on exit."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self.prev = is_grad_enabled()
        self.mode = mode
        _set_grad(mode)

    def __call__(self, orig_func):
        _set_grad(self.prev)
        return super().__call__(orig_func)

    def __enter__(self):
        _set_grad(self.mode)

    def __exit__(self, *exc):
        _set_grad(self.prev)

    def __str__(self):
        return f"{type(self).__module__}.{type(self).__name__}(mode={self.mode})"

    __repr__ = __str__

    def clone(self):
        """A fresh manager with the same mode, for one decorated call."""
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Inference mode (``mode=True``) turns grad mode off as well, and the tensors made in it are inference
    tensors; ``inference_mode(False)`` turns inference mode off and grad mode on, as torch's guard does."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self.prev = (is_grad_enabled(), is_inference_mode_enabled())
        _set_grad(not self.mode)
        _C._set_inference_mode(self.mode)

    def __exit__(self, *exc):
        _set_grad(self.prev[0])
        _C._set_inference_mode(self.prev[1])

    def clone(self):
        """A fresh manager with the same mode, for one decorated call."""
        return self.__class__(self.mode)
