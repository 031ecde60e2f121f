"""How Module.to reads its arguments: the rules of torch's C++ argument parser for ``to``.

torch checks a ``to(...)`` call against three call forms, in order, and takes the first that fits.
This file holds those forms (written as torch's error message prints them), the values the parser
accepts for each kind of parameter, and the TypeError listing the forms when none fits. Its one
entry point, ``parse_to_args``, turns a call into (device or None, dtype or None, non_blocking).
"""

import minitorch

__all__ = ["parse_to_args"]

_FORMS = (
    # (signature text, positional parameter names, how many leading names are required)
    ("(torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
     "bool copy = False, *, torch.memory_format memory_format = None)",
     ("device", "dtype", "non_blocking", "copy"), 0),
    ("(torch.dtype dtype, bool non_blocking = False, bool copy = False, "
     "*, torch.memory_format memory_format = None)",
     ("dtype", "non_blocking", "copy"), 1),
    ("(Tensor tensor, bool non_blocking = False, bool copy = False, "
     "*, torch.memory_format memory_format = None)",
     ("tensor", "non_blocking", "copy"), 1),
)

# Python's scalar types stand for dtypes; so, oddly, do float and bool values.
_PYTHON_DTYPES = {float: "float64", int: "int64", bool: "bool"}


def _accepts(name, value):
    """Whether the parser takes ``value`` (not None) for the parameter ``name``."""
    if name == "device":
        return isinstance(value, (str, minitorch.device)) or (
            isinstance(value, int) and not isinstance(value, bool))
    if name == "dtype":
        return (isinstance(value, minitorch.dtype) or type(value) in (float, bool)
                or (isinstance(value, type) and value in _PYTHON_DTYPES))
    if name == "tensor":
        return isinstance(value, minitorch.Tensor)
    return isinstance(value, bool)  # non_blocking, copy


def _bind(names, required, args, kwargs):
    """The call's arguments by name under one form, or None when the call does not fit it."""
    if len(args) > len(names):
        return None
    given = dict(zip(names, args))
    for name, value in kwargs.items():
        if name == "memory_format":  # keyword-only in every form; minitorch supports only None
            if value is not None:
                return None
        elif name not in names or name in given:
            return None
        else:
            given[name] = value
    for position, name in enumerate(names):
        value = given.get(name)
        if value is None:
            if position < required:
                return None
        elif not _accepts(name, value):
            return None
    return given


def _label(value):
    # How the parser names an argument's type in its error message.
    if isinstance(value, minitorch.Tensor):
        return "Tensor"
    if isinstance(value, minitorch.dtype):
        return "torch.dtype"
    if isinstance(value, minitorch.device):
        return "torch.device"
    return type(value).__name__


def _no_match(args, kwargs):
    positional = [_label(value) for value in args]
    # Keywords are listed last-given first; after keywords alone a trailing ", " is left.
    keywords = [f"{name}={_label(value)}" for name, value in reversed(kwargs.items())]
    got = ", ".join(positional + keywords) if positional else "".join(k + ", " for k in keywords)
    return TypeError(
        f"to() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        + "".join(f" * {text}\n" for text, _, _ in _FORMS))


def parse_to_args(args, kwargs):
    """(device or None, dtype or None, non_blocking) for a call ``to(*args, **kwargs)``."""
    for _, names, required in _FORMS:
        given = _bind(names, required, args, kwargs)
        if given is not None:
            break
    else:
        raise _no_match(args, kwargs)
    if given.get("copy") is not None:
        raise RuntimeError(".to() does not accept copy argument")
    non_blocking = bool(given.get("non_blocking"))
    if "tensor" in given:
        return given["tensor"].device, given["tensor"].dtype, non_blocking
    device, dtype = given.get("device"), given.get("dtype")
    if device is not None and not isinstance(device, minitorch.device):
        device = minitorch.device(device)  # raises torch's errors for bad strings and indices
    if dtype is not None and not isinstance(dtype, minitorch.dtype):
        python_type = dtype if isinstance(dtype, type) else type(dtype)
        dtype = getattr(minitorch, _PYTHON_DTYPES[python_type])
    return device, dtype, non_blocking
