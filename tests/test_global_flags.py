"""The process-wide switches (minitorch/_global_flags.py) and torch's constants against torch 2.13: float32
matmul precision and its interplay with backends.cuda.matmul.allow_tf32 (the mixed-API error included),
deterministic algorithms and their debug mode, warn-always; argument checks, messages and warnings. Every
snippet puts the switches back to their defaults at its end."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

RESET = """
torch.set_float32_matmul_precision("highest")
torch.use_deterministic_algorithms(False)
torch.set_warn_always(False)
"""

SNIPPETS = {
    "constants": """
print(torch.pi, torch.e, torch.inf, torch.nan, torch.newaxis, type(torch.pi), type(torch.inf))
print(torch.zeros(2, 3)[:, torch.newaxis].shape)
""",
    "matmul_precision": """
import warnings
def get():
    try: return torch.get_float32_matmul_precision()
    except RuntimeError as e: return "RuntimeError: " + str(e)
def state(): print(get(), torch.backends.cuda.matmul.allow_tf32)
state()
for level in ("high", "medium", "highest", "high"):
    torch.set_float32_matmul_precision(level); state()
torch.backends.cuda.matmul.allow_tf32 = False; state()
torch.backends.cuda.matmul.allow_tf32 = True; state()
torch.set_float32_matmul_precision("medium"); state()
torch.backends.cuda.matmul.allow_tf32 = True; state()
torch.set_float32_matmul_precision("highest"); state()
torch.backends.cuda.matmul.allow_tf32 = True; state()
torch.backends.cuda.matmul.allow_tf32 = False; state()
for bad in (3, None, b"high"):
    try: torch.set_float32_matmul_precision(bad)
    except Exception as e: print(type(e).__name__, e)
for bad in ("x", "HIGH"):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.set_float32_matmul_precision(bad)
    print([(x.category.__name__, str(x.message).split(" (Triggered internally")[0]) for x in w]); state()
torch.set_float32_matmul_precision(precision="high"); state()
""",
    "deterministic": """
def state():
    print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(),
          torch.get_deterministic_debug_mode())
state()
torch.use_deterministic_algorithms(True); state()
torch.use_deterministic_algorithms(True, warn_only=True); state()
torch.use_deterministic_algorithms(mode=False); state()
for args, kwargs in [((1,), {}), (("x",), {}), ((None,), {}), ((True,), {"warn_only": 1}), ((True, True), {}),
                     ((), {}), ((True,), {"other": 1})]:
    try: torch.use_deterministic_algorithms(*args, **kwargs)
    except Exception as e: print(type(e).__name__, e)
    state()
for mode in ["default", "warn", "error", 0, 1, 2, True, False, 3, -1, "x", "WARN", 1.0, None, [1]]:
    try: torch.set_deterministic_debug_mode(mode)
    except Exception as e: print(repr(mode), type(e).__name__, e)
    state()
""",
    "warn_always": """
print(torch.is_warn_always_enabled())
for v in [True, False, True, 1, "x", None, 0.0]:
    try: torch.set_warn_always(v)
    except Exception as e: print(v, type(e).__name__, e)
    print(torch.is_warn_always_enabled())
try: torch.set_warn_always()
except Exception as e: print(type(e).__name__, e)
try: torch.set_warn_always(b=True)
except Exception as e: print(type(e).__name__, e)
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_flags_parity(name):
    compare(SNIPPETS[name] + RESET)


def test_defaults_after_reset():
    # the snippets above leave the defaults behind (the CUDA matmul flag is read by every later test)
    assert minitorch.get_float32_matmul_precision() == "highest"
    assert minitorch.backends.cuda.matmul.allow_tf32 is False
    assert minitorch.are_deterministic_algorithms_enabled() is False
    assert minitorch.is_warn_always_enabled() is False
