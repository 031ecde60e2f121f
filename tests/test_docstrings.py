"""Every public callable has a docstring: module functions and classes of minitorch, minitorch.cuda and
minitorch.nn (with nn.functional and nn.init), and the methods and properties those classes define
themselves (Tensor, Size, dtype, device, Generator, nn.Module and its layers, ...).

help(), IDEs and the type stubs all show these texts, so a missing one is a bug. Inherited members of
builtin bases (Exception.args, tuple.count) are documented by Python and not listed, and protocol
dunders (__add__, __repr__, __getitem__, ...) are not public API; the interop protocol methods that
other libraries call (__array__, __dlpack__, __dlpack_device__) are checked by name."""

import inspect
import types

import minitorch
import minitorch.cuda
import minitorch.nn
import minitorch.nn.functional
import minitorch.nn.init

# Gaps in files this check's owner may not edit, listed so that they stay visible (and so that the
# test fails when a new gap appears). Remove an entry when its docstring lands.
KNOWN_GAPS = set()

def _doc_of_member(cls, name):
    """The docstring of cls.name as defined in cls itself, or None when it has none."""
    raw = vars(cls)[name]
    if isinstance(raw, (staticmethod, classmethod)):
        raw = raw.__func__
    return getattr(raw, "__doc__", None)


def _is_checked_member(cls, name):
    raw = vars(cls)[name]
    if name.startswith("_"):
        return False  # private, or a protocol dunder (the interop ones are checked below)
    return callable(raw) or isinstance(raw, (property, types.GetSetDescriptorType, staticmethod, classmethod))


def _class_gaps(qualname, cls):
    gaps = []
    for klass in cls.__mro__:
        if klass.__module__ == "builtins":
            continue  # object, tuple, Exception...: Python documents those
        for name in vars(klass):
            if klass is not cls and name in vars(cls):
                continue
            if not _is_checked_member(klass, name):
                continue
            if not _doc_of_member(klass, name):
                owner = cls if klass is cls else klass
                gaps.append("%s.%s" % (qualname if klass is cls else _qualname(owner), name))
    return gaps


def _qualname(cls):
    module = cls.__module__
    if module.startswith("minitorch.nn"):
        module = "minitorch.nn"
    if module in ("minitorch._C",) or cls.__name__ == "Tensor":
        module = "minitorch"
    return "%s.%s" % (module, cls.__name__)


def _public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return names


def undocumented():
    gaps = set()
    modules = [minitorch, minitorch.cuda, minitorch.nn, minitorch.nn.functional, minitorch.nn.init]
    for module in modules:
        for name in _public_names(module):
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                continue
            if module is minitorch and isinstance(obj, minitorch.dtype):
                continue  # dtype instances (float32, ...) document themselves through their type
            qualname = "%s.%s" % (module.__name__, name)
            if inspect.isclass(obj):
                if not obj.__doc__:
                    gaps.add(qualname)
                gaps.update(_class_gaps(qualname, obj))
            elif callable(obj) and not getattr(obj, "__doc__", None):
                gaps.add(qualname)
    # classes the API returns without exporting them by name
    gaps.update(_class_gaps("minitorch.Size", minitorch.Size))
    gaps.update(_class_gaps("minitorch.dtype", minitorch.dtype))
    gaps.update(_class_gaps("minitorch.device", minitorch.device))
    return gaps


def test_public_callables_have_docstrings():
    gaps = undocumented()
    new = sorted(gaps - KNOWN_GAPS)
    assert new == [], "public callables without a docstring:\n  " + "\n  ".join(new)


def test_known_gaps_are_still_gaps():
    fixed = sorted(KNOWN_GAPS - undocumented())
    assert fixed == [], "documented now, remove from KNOWN_GAPS: " + ", ".join(fixed)


def test_interop_docstrings_state_their_signatures():
    for func in (minitorch.from_numpy, minitorch.from_dlpack, minitorch.to_dlpack, minitorch.Tensor.numpy,
                 minitorch.Tensor.__dlpack__, minitorch.Tensor.__dlpack_device__, minitorch.Tensor.__array__):
        name = func.__name__
        if inspect.isfunction(func):
            # written in Python, as torch writes these: the signature is the function's own
            assert func.__doc__ and inspect.signature(func).parameters, name
        else:
            assert func.__doc__.startswith(name + "("), name
