"""Child process of tests/test_bad_input.py: runs a chunk of calls with ``torch`` bound to one module.

    python tests/bad_input_worker.py MODULE < calls.json

MODULE is ``minitorch`` or ``torch``. stdin holds a JSON list of ``[index, target, args]``: ``target``
is an expression naming the callable (``torch.zeros``, ``t.view``, ``OP``), ``args`` the source text of
its argument list (``(2**62, device='cuda:99')``). Each call gets fresh inputs (see ``make_inputs``), so
a call that mutates its receiver cannot change the next one. With MINITORCH_BAD_INPUT_DEVICE=cuda the
inputs are made on the CUDA device (the simulated GPU in CI).

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


def make_inputs(torch, text, dev):
    ns = {"torch": torch, "nan": math.nan, "inf": math.inf, "dev": dev, "_evil_list": _evil_list}
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
    torch.manual_seed(0)
    for i, target, args in calls:
        out.write("B %d\n" % i)
        out.flush()
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
