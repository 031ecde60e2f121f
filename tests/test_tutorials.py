"""PyTorch's beginner material (Learning PyTorch with Examples, Learn the Basics, the 60-minute blitz),
run unchanged with `import minitorch as torch`: each script in tests/tutorials/ prints what the tutorial
prints, and minitorch's output must be torch's, character for character.

Each script runs in a child of its own, once under real torch (the script's text with `minitorch` read as
`torch`) and once under this checkout's minitorch, from the same seeds; minitorch's output is read with
its own name as torch's (parity.normalize: `minitorch.Size` is `torch.Size`), and objects' addresses are
not compared. On the simulated GPU the scripts take their `cuda` branches; there the run must succeed and,
unless the script draws random numbers on the device, print what torch's CPU run prints once the device
names are read as the CPU's (the values of the simulated GPU are the CPU's). Skips without torch. Each
script stands alone, as a tutorial page does, so the scripts repeat the tutorials' own code on purpose.
"""

import difflib
import functools
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from parity import normalize
from subproc import child_env

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS_DIR = os.path.join(HERE, "tutorials")
SCRIPTS = sorted(name for name in os.listdir(SCRIPTS_DIR) if name.endswith(".py"))
HAS_TORCH = importlib.util.find_spec("torch") is not None


def _run(code, simulate=None, cwd=SCRIPTS_DIR):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=child_env(simulate, PYTHONHASHSEED="0"))
    assert proc.returncode == 0, "script failed:\n" + proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout


def _source(name):
    with open(os.path.join(SCRIPTS_DIR, name)) as f:
        return f.read()


@functools.lru_cache(maxsize=None)
def torch_output(name):
    """Real torch's output (once per script: both tests compare with it)."""
    return _run(re.sub(r"\bminitorch\b", "torch", _source(name)))


def minitorch_output(name, simulate=None):
    return normalize(_run(_source(name), simulate))


def _on_cpu(text):
    """The simulated GPU's output read as the CPU's: device names and the device= of a repr."""
    text = re.sub(r", device='cuda:0'|device='cuda:0', ", "", text)
    return re.sub(r"\bcuda(:0)?\b", "cpu", text)


def _addresses(text):
    """An object's repr carries its address, which differs between any two runs."""
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", text)


def _assert_same(expected, actual):
    expected, actual = _addresses(expected), _addresses(actual)
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "torch", "minitorch",
                                              lineterm=""))
        pytest.fail("output differs from torch's:\n" + diff[:8000])


@pytest.mark.skipif(not HAS_TORCH, reason="needs torch")
@pytest.mark.parametrize("name", SCRIPTS)
def test_tutorial_matches_torch(name):
    _assert_same(torch_output(name), minitorch_output(name))


# scripts that draw random numbers on the device their idiom picks: a CUDA device draws from minitorch's own
# Philox stream (README, "random"), so on the simulated GPU these print other values than torch's CPU run
DRAW_ON_THE_DEVICE = {"basics_model.py", "examples_tensors.py"}


@pytest.mark.skipif(not HAS_TORCH, reason="needs torch")
@pytest.mark.parametrize("name", SCRIPTS)
def test_tutorial_on_simulated_gpu(name):
    out = minitorch_output(name, simulate=1)
    if name not in DRAW_ON_THE_DEVICE:
        _assert_same(torch_output(name), _on_cpu(out))


if __name__ == "__main__":
    # python tests/test_tutorials.py [NAME ...] [--gpu]: the diffs, by hand
    gpu = "--gpu" in sys.argv
    for script in [a for a in sys.argv[1:] if a != "--gpu"] or SCRIPTS:
        try:
            expected = torch_output(script)
            actual = _on_cpu(minitorch_output(script, 1)) if gpu else minitorch_output(script)
            _assert_same(expected, actual)
            print("SAME", script)
        except BaseException as e:  # noqa: BLE001 -- a report by hand
            print("DIFF", script, "\n", str(e)[:6000])
