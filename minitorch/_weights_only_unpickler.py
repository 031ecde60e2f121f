"""The unpickler behind ``minitorch.load(weights_only=True)``: torch's allow-list unpickler
(torch/_weights_only_unpickler.py) with its opcodes, rules and messages, for minitorch's objects.

It interprets the pickle opcodes itself instead of subclassing ``pickle.Unpickler``: a global is
looked up in an allow-list (never imported), only allow-listed callables are called (REDUCE, NEWOBJ),
only allow-listed types get state (BUILD) and only lists and dicts are filled. Anything else raises
``pickle.UnpicklingError`` with torch's text, so a hostile file cannot run code; a malformed one
raises an exception too (a truncated stream, a stack or memo reference that is not there).

What the allow-list holds (torch's names of minitorch's objects) is the caller's: serialization.py.
The globals a user adds (``add_safe_globals``/``safe_globals``) are kept here, as in torch.
"""

import _compat_pickle
import pickle
import struct
import warnings
from collections import Counter, OrderedDict
from pickle import UnpicklingError

__all__ = ["Unpickler", "UnpicklingError"]

# the opcodes torch's weights-only unpickler accepts (protocol 2 and what older protocols share with it)
_OP = {name: getattr(pickle, name)[0] for name in (
    "APPEND", "APPENDS", "BINFLOAT", "BINGET", "BININT", "BININT1", "BININT2", "BINPERSID", "BINPUT",
    "BINUNICODE", "BUILD", "EMPTY_DICT", "EMPTY_LIST", "EMPTY_SET", "EMPTY_TUPLE", "GLOBAL", "LONG1",
    "LONG_BINGET", "LONG_BINPUT", "MARK", "NEWFALSE", "NEWOBJ", "NEWTRUE", "NONE", "PROTO", "REDUCE",
    "SETITEM", "SETITEMS", "SHORT_BINSTRING", "STOP", "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3")}

# torch refuses these modules with their own message, whatever the user allow-listed
_blocklisted_modules = ["sys", "os", "posix", "nt"]

_marked_safe_globals_set = set()


def _add_safe_globals(safe_globals):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set.union(set(safe_globals))


def _get_safe_globals():
    return list(_marked_safe_globals_set)


def _clear_safe_globals():
    global _marked_safe_globals_set
    _marked_safe_globals_set = set()


def _remove_safe_globals(globals_to_remove):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set - set(globals_to_remove)


class _safe_globals:
    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        _add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):
        _remove_safe_globals(self.safe_globals)


def _get_user_allowed_globals():
    """{"module.qualname": object} for the globals the user marked safe (torch's checks and messages)."""
    rc = {}
    for f in _marked_safe_globals_set:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(
                    f"Expected tuple of length 2 (global, str of callable full path), but got tuple of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(
                    f"Expected second item in tuple to be str of callable full path, but got: {type(f[1])}")
            f, name = f
            rc[name] = f
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def _read_global(readline):
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    if (module, name) in _compat_pickle.NAME_MAPPING:
        module, name = _compat_pickle.NAME_MAPPING[(module, name)]
    elif module in _compat_pickle.IMPORT_MAPPING:
        module = _compat_pickle.IMPORT_MAPPING[module]
    return module, name


def _unsupported_global_message(full_path):
    # torch names builtins without their module ("GLOBAL print"), others in full
    if full_path.startswith("builtins"):
        rest = full_path[len("builtins"):]
        full_path = rest[1:] if rest[:1] == "." else "builtins" + rest
    return (f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
            f"Please use `minitorch.serialization.add_safe_globals([{full_path}])` or the "
            f"`minitorch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
            "if you trust this class/function.")


class Unpickler:
    """Reads one pickle from ``file`` (read/readline), resolving globals through ``allowed_globals``
    (full torch path -> object) and the user's safe globals, and persistent ids through
    ``persistent_load``."""

    def __init__(self, file, allowed_globals, persistent_load, *, encoding="utf-8"):
        self.read = file.read
        self.readline = file.readline
        self.allowed_globals = allowed_globals
        self.persistent_load = persistent_load
        self.encoding = encoding
        self.memo = {}

    def _read_exactly(self, n):
        data = self.read(n)
        if len(data) != n:
            raise UnpicklingError("pickle data was truncated")
        return data

    def _unpack(self, fmt, n):
        return struct.unpack(fmt, self._read_exactly(n))[0]

    def load(self):
        try:
            return self._load()
        except IndexError:
            raise UnpicklingError("unpickling stack underflow") from None

    def _load(self):
        metastack = []
        stack = []
        user_globals = _get_user_allowed_globals()
        allowed = self.allowed_globals
        allowed_values = set(map(id, allowed.values())) | set(map(id, user_globals.values()))
        read = self._read_exactly
        while True:
            key = self.read(1)
            if not key:
                raise EOFError("Ran out of input")
            op = key[0]
            if op == _OP["GLOBAL"]:
                module, name = _read_global(self.readline)
                full_path = f"{module}.{name}"
                if module in _blocklisted_modules:
                    raise UnpicklingError(
                        f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked.")
                if full_path in allowed:
                    stack.append(allowed[full_path])
                elif full_path in user_globals:
                    stack.append(user_globals[full_path])
                else:
                    raise UnpicklingError(_unsupported_global_message(full_path))
            elif op == _OP["NEWOBJ"]:
                args = stack.pop()
                cls = stack.pop()
                if id(cls) not in allowed_values or not isinstance(cls, type):
                    raise UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted "
                                          f"via `add_safe_globals` but got {cls}")
                if type(args) is not tuple:
                    raise UnpicklingError("NEWOBJ expected an argument tuple")
                stack.append(cls(*args) if cls is allowed.get("torch.nn.parameter.Parameter")
                             else cls.__new__(cls, *args))
            elif op == _OP["REDUCE"]:
                args = stack.pop()
                func = stack[-1]
                if id(func) not in allowed_values:
                    msg = f"Trying to call reduce for unrecognized function {func}"
                    if hasattr(func, "__self__"):
                        msg += f" which belongs to {func.__self__}"
                    raise UnpicklingError(msg)
                if type(args) is not tuple:
                    raise UnpicklingError("REDUCE expected an argument tuple")
                stack[-1] = func(*args)
            elif op == _OP["BUILD"]:
                state = stack.pop()
                inst = stack[-1]
                self._build(inst, state, allowed_values)
            elif op == _OP["APPEND"]:
                item = stack.pop()
                if type(stack[-1]) is not list:
                    raise UnpicklingError(f"Can only append to lists, but got {type(stack[-1])}")
                stack[-1].append(item)
            elif op == _OP["APPENDS"]:
                items = stack
                stack = metastack.pop()
                if type(stack[-1]) is not list:
                    raise UnpicklingError(f"Can only extend lists, but got {type(stack[-1])}")
                stack[-1].extend(items)
            elif op == _OP["SETITEM"]:
                value = stack.pop()
                k = stack.pop()
                self._check_set_item_target(stack, "SETITEM")
                stack[-1][k] = value
            elif op == _OP["SETITEMS"]:
                items = stack
                stack = metastack.pop()
                self._check_set_item_target(stack, "SETITEMS")
                if len(items) % 2:
                    raise UnpicklingError("odd number of items for SETITEMS")
                for i in range(0, len(items), 2):
                    stack[-1][items[i]] = items[i + 1]
            elif op == _OP["MARK"]:
                metastack.append(stack)
                stack = []
            elif op == _OP["TUPLE"]:
                items = stack
                stack = metastack.pop()
                stack.append(tuple(items))
            elif op == _OP["TUPLE1"]:
                stack[-1] = (stack[-1],)
            elif op == _OP["TUPLE2"]:
                if len(stack) < 2:
                    raise IndexError
                stack[-2:] = [(stack[-2], stack[-1])]
            elif op == _OP["TUPLE3"]:
                if len(stack) < 3:
                    raise IndexError
                stack[-3:] = [(stack[-3], stack[-2], stack[-1])]
            elif op == _OP["NONE"]:
                stack.append(None)
            elif op == _OP["NEWFALSE"]:
                stack.append(False)
            elif op == _OP["NEWTRUE"]:
                stack.append(True)
            elif op == _OP["EMPTY_TUPLE"]:
                stack.append(())
            elif op == _OP["EMPTY_LIST"]:
                stack.append([])
            elif op == _OP["EMPTY_DICT"]:
                stack.append({})
            elif op == _OP["EMPTY_SET"]:
                stack.append(set())
            elif op == _OP["BININT"]:
                stack.append(self._unpack("<i", 4))
            elif op == _OP["BININT1"]:
                stack.append(read(1)[0])
            elif op == _OP["BININT2"]:
                stack.append(self._unpack("<H", 2))
            elif op == _OP["BINFLOAT"]:
                stack.append(self._unpack(">d", 8))
            elif op == _OP["BINUNICODE"]:
                strlen = self._unpack("<I", 4)
                stack.append(str(read(strlen), "utf-8", "surrogatepass"))
            elif op == _OP["SHORT_BINSTRING"]:
                data = read(read(1)[0])
                stack.append(data if self.encoding == "bytes" else data.decode(self.encoding, "strict"))
            elif op == _OP["BINPERSID"]:
                pid = stack.pop()
                if type(pid) is not tuple and type(pid) is not int:
                    raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
                if type(pid) is tuple and len(pid) > 0 and pid[0] not in ("storage", b"storage"):
                    raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
                stack.append(self.persistent_load(pid))
            elif op in (_OP["BINGET"], _OP["LONG_BINGET"]):
                idx = read(1)[0] if op == _OP["BINGET"] else self._unpack("<I", 4)
                if idx not in self.memo:
                    raise UnpicklingError(f"Memo value not found at index {idx}")
                stack.append(self.memo[idx])
            elif op in (_OP["BINPUT"], _OP["LONG_BINPUT"]):
                idx = read(1)[0] if op == _OP["BINPUT"] else self._unpack("<I", 4)
                self.memo[idx] = stack[-1]
            elif op == _OP["LONG1"]:
                stack.append(pickle.decode_long(read(read(1)[0])))
            elif op == _OP["PROTO"]:
                proto = read(1)[0]
                if proto != 2:
                    warnings.warn(
                        f"Detected pickle protocol {proto} in the checkpoint, which was not the default pickle "
                        "protocol used by `minitorch.load` (2). The weights_only Unpickler might not support all "
                        "instructions implemented by this protocol, please file an issue for adding support if "
                        "you encounter this.", stacklevel=2)
            elif op == _OP["STOP"]:
                return stack.pop()
            else:
                raise UnpicklingError(f"Unsupported operand {op}")

    def _build(self, inst, state, allowed_values):
        # torch's rules: OrderedDict and allow-listed types get their state; a Parameter its own
        # __setstate__; nothing else
        if type(inst) is OrderedDict:
            if not isinstance(state, dict):
                raise UnpicklingError("BUILD state of an OrderedDict must be a dict")
            inst.__dict__.update(state)
        elif id(type(inst)) in allowed_values:
            if hasattr(inst, "__setstate__"):
                inst.__setstate__(state)
                return
            slotstate = None
            if isinstance(state, tuple) and len(state) == 2:
                state, slotstate = state
            if state:
                inst.__dict__.update(state)
            if slotstate:
                for k, v in slotstate.items():
                    setattr(inst, k, v)
        else:
            raise UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                                  f"via `add_safe_globals`, but got {type(inst)}")

    @staticmethod
    def _check_set_item_target(stack, opcode):
        if type(stack[-1]) not in (dict, OrderedDict, Counter):
            raise UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                                  f"collections.Counter, but got {type(stack[-1])}")
