"""Fresh interpreters for the tests.

minitorch reads its environment once per process (MINITORCH_SIMULATE_GPU, the thread count, the GEMM
kernel), and some checks need a process of their own (fork, import hygiene, a crash that must not take
pytest down). Every such child imports this checkout's minitorch and starts from this process's
environment without its MINITORCH_* settings, so that a CI step's own setting never leaks into a test
that chose another.
"""

import os
import subprocess
import sys

import minitorch

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__)))


def child_env(simulate_gpu=None, drop=(), **env):
    """os.environ less MINITORCH_* (and the names in drop), importing this minitorch first.

    simulate_gpu: a number of simulated GPUs (MINITORCH_SIMULATE_GPU), None or 0 for none. env: variables to
    add or replace (values are str()'d)."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_") and k not in drop}
    if simulate_gpu:
        out["MINITORCH_SIMULATE_GPU"] = str(simulate_gpu)
    out.update({k: str(v) for k, v in env.items()})
    out["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, out.get("PYTHONPATH")) if p)
    return out


def run_python(code_or_args, simulate_gpu=None, env=None, timeout=300, cwd=PACKAGE_PARENT, stdin=None, drop=()):
    """Runs `python -c code` (a str) or `python *args` (a list) in child_env(); returns the
    CompletedProcess with text stdout and stderr."""
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else list(code_or_args)
    return subprocess.run([sys.executable] + args, input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env=child_env(simulate_gpu, drop, **(env or {})))


def python_output(code_or_args, simulate_gpu=None, env=None, timeout=300, cwd=PACKAGE_PARENT, stdin=None,
                  drop=()):
    """run_python() that must succeed: returns its stdout, fails the test with the child's output if not."""
    proc = run_python(code_or_args, simulate_gpu, env, timeout, cwd, stdin, drop)
    assert proc.returncode == 0, "child process failed:\n" + proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout


def run_file_on_simulated_gpu(path, arg, marker, timeout=600):
    """Runs the test file `path` as a script with `arg` on one simulated GPU and checks that it printed
    `marker` (for tests whose GPU half needs MINITORCH_SIMULATE_GPU from the start of the process)."""
    out = python_output([os.path.abspath(path), arg], simulate_gpu=1, timeout=timeout,
                        cwd=os.path.dirname(os.path.abspath(path)))
    assert marker in out, out[-4000:]
