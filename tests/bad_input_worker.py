"""Child process of tests/test_bad_input.py: runs a chunk of calls with ``torch`` bound to one module.

    python tests/bad_input_worker.py MODULE < calls.json

MODULE is ``minitorch`` or ``torch``. stdin holds a JSON list of ``[index, target, args]``: ``target``
is an expression naming the callable (``torch.zeros``, ``t.view``, ``OP``), ``args`` the source text of
its argument list (``(2**62, device='cuda:99')``). Each call gets fresh inputs (see ``make_inputs``), so
a call that mutates its receiver cannot change the next one. With MINITORCH_BAD_INPUT_DEVICE=cuda the
inputs are made on the CUDA device (the simulated GPU in CI), with =meta on the meta device.

Before each call the worker writes ``B <index>`` and flushes, after it one JSON line with the outcome,
so when the process dies (segfault, abort, sanitizer) the parent knows which call killed it. Outcomes:

- ``{"i": i, "r": "missing"}``: the target does not exist in MODULE;
- ``{"i": i, "r": "ok", "type": ...}``: the call returned; a returned tensor (or tuple/list of tensors)
  is then used (repr, shape, dtype, device, numel) and, if that raises, the outcome is ``halfbuilt``;
- ``{"i": i, "r": "raise", "exc": name, "mro": [...], "msg": first line}``.

This file must not import minitorch or torch at module level: MODULE decides which.
"""

import gc
import importlib
import json
import math
import os
import re
import sys
import warnings

# The inputs a call may name, built fresh for each call (only those its text mentions, in this order).
# Under MINITORCH_BAD_INPUT_DEVICE=cuda the tensors live on the (simulated) GPU.
INPUTS = [
    ("t", "torch.randn(2, 3, device=dev)"),
    ("t2", "torch.randn(3, 2, device=dev)"),
    ("ti", "torch.tensor([[1, 2, 3], [4, 5, 6]], device=dev)"),
    ("tb", "torch.tensor([[False, False, True], [True, True, True]], device=dev)"),
    ("s", "torch.tensor(1.5, device=dev)"),
    ("si", "torch.tensor(2, device=dev)"),
    ("e", "torch.empty(0, device=dev)"),
    ("e03", "torch.empty(0, 3, device=dev)"),
    ("nc", "torch.randn(3, 4, device=dev).t()"),
    ("ex", "torch.randn(3, 1, device=dev).expand(3, 4)"),
    ("v", "torch.randn(3, device=dev)"),
    ("b3", "torch.randn(2, 3, 4, device=dev)"),
    ("d64", "torch.ones([1] * 64, device=dev)"),
    ("evil", "_evil_list()"),
    ("hx", "torch.ones(1, device=dev).expand(2 ** 62)"),
    # outside memory that lies: ndarray subclasses whose Python-level geometry is not NumPy's, an
    # array-like whose __array_interface__ points at address 16, a misaligned array, a view past the
    # address space, and hand-made DLPack capsules (an overflowing byte_offset, a negative or overflowing
    # shape, NULL data, 65 dims)
    ("lie", "_lying_array()"),
    ("lai", "_LyingArrayLike()"),
    ("unal", "_np().frombuffer(bytearray(25), _np().float32, offset=1, count=6).reshape(2, 3)"),
    ("asx", "_np().lib.stride_tricks.as_strided(_np().zeros(4, _np().float32), (3,), (2 ** 62,))"),
    ("capoff", "_capsule(byte_offset=2 ** 63)"),
    ("capneg", "_capsule(shape=(-5, 3))"),
    ("capbig", "_capsule(shape=(2 ** 62, 4))"),
    ("capnull", "_capsule(data=False)"),
    ("capdim", "_capsule(ndim=65)"),
]
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Shrinker:
    """An int-like whose __index__ empties the list it sits in and refills it (so the list's storage
    is freed and reallocated): C code that keeps reading the list after calling __index__ reads freed
    memory."""

    def __init__(self, owner):
        self.owner = owner

    def __index__(self):
        self.owner.clear()
        self.owner.extend([object()] * 100)
        self.owner.clear()
        return 2

    def __int__(self):
        return self.__index__()


def _evil_list():
    evil = []
    evil.extend([_Shrinker(evil), 2, _Shrinker(evil), 2])
    return evil


def _np():
    import numpy

    return numpy


def _lying_array():
    np = _np()
    props = {"shape": (1 << 24,), "strides": (1 << 40,), "dtype": np.dtype(np.float64), "size": 1 << 24,
             "__array_interface__": {"data": (16, False), "shape": (1 << 24,), "typestr": "<f8", "version": 3}}
    cls = type("Lying", (np.ndarray,), {k: property(lambda self, v=v: v) for k, v in props.items()})
    return np.arange(6, dtype=np.float32).reshape(2, 3).view(cls)


class _LyingArrayLike:
    """Not an array: only its __array_interface__ claims 4 MiB of float32 at address 16."""

    __array_interface__ = {"data": (16, False), "shape": (1 << 20,), "typestr": "<f4", "version": 3}


_KEEP = []  # the memory and structures behind hand-made capsules live as long as the process


def _capsule(byte_offset=0, shape=(6,), data=True, ndim=None):
    """A "dltensor_versioned" capsule over 6 float32s, with some fields made up."""
    import ctypes

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                    ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]

    class Managed(ctypes.Structure):
        pass

    deleter_type = ctypes.CFUNCTYPE(None, ctypes.POINTER(Managed))
    Managed._fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("ctx", ctypes.c_void_p),
                        ("deleter", deleter_type), ("flags", ctypes.c_uint64), ("dl", DLTensor)]
    buf = (ctypes.c_float * 6)(*range(6))
    dims = (ctypes.c_int64 * 65)(*(list(shape) + [1] * (65 - len(shape))))
    deleter = deleter_type(lambda m: None)
    dl = DLTensor(ctypes.addressof(buf) if data else None, 1, 0, len(shape) if ndim is None else ndim, 2, 32, 1,
                  dims, None, byte_offset)
    managed = Managed(1, 0, None, deleter, 0, dl)
    _KEEP.append((buf, dims, deleter, managed))
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(managed), b"dltensor_versioned", None)


def make_inputs(torch, text, dev):
    ns = {"torch": torch, "nan": math.nan, "inf": math.inf, "dev": dev, "_evil_list": _evil_list, "_np": _np,
          "_lying_array": _lying_array, "_LyingArrayLike": _LyingArrayLike, "_capsule": _capsule}
    used = set(_NAME.findall(text))
    for name, expr in INPUTS:
        if name in used:
            ns[name] = eval(expr, ns)
    return ns


def _exc_record(i, exc):
    msg = str(exc).split("\n", 1)[0][:300]
    return {
        "i": i,
        "r": "raise",
        "exc": type(exc).__name__,
        "mro": [k.__name__ for k in type(exc).__mro__],
        "msg": msg,
    }


def _use(result, tensor_type, nn_module):
    """Touches a returned object the way a user would; raises if it is half-built."""
    items = result if isinstance(result, (tuple, list)) else [result]
    for item in items[:8]:
        if isinstance(item, tensor_type):
            repr(item)
            item.shape, item.dtype, item.device, item.numel(), item.stride()
    if not isinstance(result, nn_module):
        # minitorch's own objects (Size, device, dtype, return types...); an nn.Module's repr runs
        # user-level Python (ReLU(inplace=t) fails there in torch too) and is not checked
        repr(result)


def main():
    module = sys.argv[1]
    try:
        torch = importlib.import_module(module)
    except ImportError as exc:
        sys.stdout.write("NOIMPORT %s\n" % exc)
        sys.stdout.flush()
        return
    tensor_type = torch.Tensor
    calls = json.load(sys.stdin)
    out = sys.stdout
    warnings.simplefilter("ignore")
    dev = os.environ.get("MINITORCH_BAD_INPUT_DEVICE", "cpu")
    check_use = module != "torch"  # torch's own objects are not under test
    for i, target, args in calls:
        out.write("B %d\n" % i)
        out.flush()
        # each call's inputs from its own seed: a call that draws random numbers where the other library
        # does not (or raises before drawing them) must not change the inputs of the calls after it
        torch.manual_seed(i)
        try:
            ns = make_inputs(torch, target + args, dev)
        except Exception as exc:
            rec = _exc_record(i, exc)
            rec["r"] = "setup"
            out.write(json.dumps(rec) + "\n")
            continue
        try:
            fn = eval(target, ns)
        except AttributeError:
            out.write(json.dumps({"i": i, "r": "missing"}) + "\n")
            continue
        except Exception as exc:  # a receiver that cannot even be built
            rec = _exc_record(i, exc)
            rec["r"] = "setup"
            out.write(json.dumps(rec) + "\n")
            continue
        ns["__fn"] = fn
        try:
            result = eval("__fn" + args, ns)
        except BaseException as exc:  # noqa: B902 - SystemError and friends are what we look for
            if isinstance(exc, KeyboardInterrupt):
                raise
            out.write(json.dumps(_exc_record(i, exc)) + "\n")
            continue
        try:
            if check_use:
                _use(result, tensor_type, torch.nn.Module)
        except BaseException as exc:  # noqa: B902
            rec = _exc_record(i, exc)
            rec["r"] = "halfbuilt"
            out.write(json.dumps(rec) + "\n")
            continue
        out.write(json.dumps({"i": i, "r": "ok", "type": type(result).__name__}) + "\n")
        del result
        if target.endswith("set_printoptions"):
            torch.set_printoptions(profile="default")
        if i % 200 == 0:
            gc.collect()
    out.write("DONE\n")
    out.flush()


if __name__ == "__main__":
    main()
