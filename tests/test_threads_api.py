"""minitorch.set_num_threads / get_num_threads and the host thread pool behind them
(csrc/ops/threads.c, csrc/kernels/cpu/parallel.c).

What a user sees: torch's default thread count, torch's argument checks and messages, results that do
not depend on the thread count (GEMM, elementwise ops, exact reductions), float sums that follow torch's
per-thread split at every count, and a pool that keeps working when several Python threads use it at
once or after fork(). Where torch is installed the defaults and messages are also checked against it.
"""

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import minitorch
from parity import import_torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREAD_VARS = ("MINITORCH_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@pytest.fixture
def restore_threads():
    saved = minitorch.get_num_threads()
    yield
    minitorch.set_num_threads(saved)


def run_python(code, **env):
    """Runs code in a fresh interpreter with no thread variable inherited, plus `env`."""
    full_env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    full_env.update({k: str(v) for k, v in env.items()})
    full_env["PYTHONPATH"] = ROOT + os.pathsep + full_env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=full_env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


def outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 -- the exception is the value under test
        return (type(e).__name__, str(e).replace("minitorch", "torch"))


# ---- the API -------------------------------------------------------------------------------------------


def test_get_and_set(restore_threads):
    n = minitorch.get_num_threads()
    assert isinstance(n, int) and n >= 1
    for value in (1, 3, 2, 7):
        assert minitorch.set_num_threads(value) is None
        assert minitorch.get_num_threads() == value
    minitorch.set_num_threads(np.int64(2))
    assert minitorch.get_num_threads() == 2
    minitorch.set_num_threads(np.int32(3))
    assert minitorch.get_num_threads() == 3


BAD_CALLS = [
    ((0,), {}, ("RuntimeError", "set_num_threads expects a positive integer")),
    ((-4,), {}, ("RuntimeError", "set_num_threads expects a positive integer")),
    ((1.5,), {}, ("RuntimeError", "set_num_threads expects an int, but got float")),
    (("2",), {}, ("RuntimeError", "set_num_threads expects an int, but got str")),
    ((None,), {}, ("RuntimeError", "set_num_threads expects an int, but got NoneType")),
    ((True,), {}, ("RuntimeError", "set_num_threads expects an int, but got bool")),
    ((np.bool_(True),), {}, ("RuntimeError", "set_num_threads expects an int, but got numpy.bool")),
    ((2 ** 31,), {}, ("ValueError", "Overflow when unpacking long")),
    ((-2 ** 31 - 1,), {}, ("ValueError", "Overflow when unpacking long")),
    ((2 ** 63,), {}, ("ValueError", "Overflow when unpacking long long")),
    ((), {}, ("TypeError", "torch.set_num_threads() takes exactly one argument (0 given)")),
    ((1, 2), {}, ("TypeError", "torch.set_num_threads() takes exactly one argument (2 given)")),
    ((), {"int": 2}, ("TypeError", "torch.set_num_threads() takes no keyword arguments")),
]


@pytest.mark.parametrize("args,kwargs,expected", BAD_CALLS)
def test_set_num_threads_errors(restore_threads, args, kwargs, expected):
    before = minitorch.get_num_threads()
    assert outcome(minitorch.set_num_threads, *args, **kwargs) == expected
    assert minitorch.get_num_threads() == before


def test_get_num_threads_takes_no_arguments():
    assert outcome(minitorch.get_num_threads, 1) == (
        "TypeError", "torch.get_num_threads() takes no arguments (1 given)")


def test_errors_match_torch():
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    saved = torch.get_num_threads()
    try:
        for args, kwargs, expected in BAD_CALLS:
            got = outcome(torch.set_num_threads, *args, **kwargs)
            assert got == expected, (args, kwargs, got)
        assert outcome(torch.get_num_threads, 1) == outcome(minitorch.get_num_threads, 1)
    finally:
        torch.set_num_threads(saved)


PROBE = "import minitorch; print(minitorch.get_num_threads())"


def test_default_is_torchs():
    """torch's default: the physical cores, or MKL_NUM_THREADS / OMP_NUM_THREADS up to that many."""
    cores = int(run_python(PROBE))
    assert cores >= 1
    assert run_python(PROBE, OMP_NUM_THREADS=1) == "1"
    assert run_python(PROBE, MKL_NUM_THREADS=1, OMP_NUM_THREADS=cores) == "1"
    assert run_python(PROBE, OMP_NUM_THREADS=cores + 5) == str(cores)
    # minitorch's own variable is taken as given (tests use it to run more threads than cores)
    assert run_python(PROBE, MINITORCH_NUM_THREADS=cores + 2) == str(cores + 2)
    torch = import_torch()
    if torch is not None:
        code = "import torch, minitorch; print(torch.get_num_threads() == minitorch.get_num_threads())"
        assert run_python(code) == "True"
        assert run_python(code, OMP_NUM_THREADS=1) == "True"


def test_functions_are_exported():
    assert minitorch.set_num_threads is minitorch._C.set_num_threads
    assert minitorch.get_num_threads is minitorch._C.get_num_threads
    assert "intraop" in minitorch.set_num_threads.__doc__


# ---- results do not depend on the thread count ----------------------------------------------------------


def snapshot(rng):
    """Products, elementwise results and exact reductions big enough to use several threads."""
    a = rng.standard_normal((301, 517)).astype(np.float32)
    b = rng.standard_normal((517, 263)).astype(np.float32)
    c = rng.standard_normal((5, 90, 70))
    d = rng.standard_normal((5, 70, 33))
    x = rng.standard_normal((333, 401)).astype(np.float32)
    y = rng.standard_normal((401,)).astype(np.float32)
    ta, tb, tc, td = (minitorch.tensor(v) for v in (a, b, c, d))
    tx, ty = minitorch.tensor(x), minitorch.tensor(y)
    ti = minitorch.tensor(rng.integers(-1000, 1000, (300, 400)))
    out = [ta @ tb, ta[::2, 1:].T.contiguous().T @ tb[1:, ::3], tc @ td, tx + ty, tx.T * 3.5,
           (tx - ty).relu(), tx / (ty.abs() + 1), tx.exp(), ti.sum(), ti.sum(0), ti.max(1).values, tx.max(),
           tx.min(0).values, (tx > 0).all(1), (tx > 3).any(), ti @ minitorch.tensor(rng.integers(-9, 9, (400, 37)))]
    return [r.tolist() for r in out]


def test_results_independent_of_thread_count(restore_threads):
    results = []
    for n in (1, 2, 3, 8):
        minitorch.set_num_threads(n)
        results.append(snapshot(np.random.default_rng(5)))
    for r in results[1:]:
        assert r == results[0]


def test_float_sums_follow_torch_at_each_thread_count(restore_threads):
    """torch splits a sum over 32768+ elements per thread, so its rounding depends on the count."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    saved = torch.get_num_threads()
    rng = np.random.default_rng(6)
    try:
        for n in (1, 2, 3, 5):
            torch.set_num_threads(n)
            minitorch.set_num_threads(n)
            for arr in (rng.standard_normal(100003).astype(np.float32), rng.standard_normal((64, 3001)),
                        rng.standard_normal((2049, 129)).astype(np.float32)):
                tt, mt = torch.from_numpy(arr), minitorch.tensor(arr)
                assert mt.sum().item() == tt.sum().item(), (n, arr.shape)
                for dim in range(arr.ndim):
                    got = np.array(mt.sum(dim).tolist(), dtype=arr.dtype)
                    assert np.array_equal(got, tt.sum(dim).numpy()), (n, arr.shape, dim)
    finally:
        torch.set_num_threads(saved)


# ---- the pool under concurrency and fork -----------------------------------------------------------------


def test_concurrent_python_threads(restore_threads):
    """Several Python threads running large ops at once (the GIL is released): one of them gets the
    pool, the others run on their own thread, and every result is right."""
    minitorch.set_num_threads(2)
    rng = np.random.default_rng(7)
    inputs = [(rng.standard_normal((400, 300)).astype(np.float32), rng.standard_normal((300, 350)).astype(np.float32),
               rng.standard_normal(200001).astype(np.float32)) for _ in range(4)]
    errors = []

    def work(i):
        a, b, v = inputs[i]
        ta, tb, tv = minitorch.tensor(a), minitorch.tensor(b), minitorch.tensor(v)
        want_mm = a.astype(np.float64) @ b.astype(np.float64)
        for _ in range(5):
            got = np.array((ta @ tb).tolist())
            if np.abs(got - want_mm).max() > 1e-3:
                errors.append(("mm", i))
            if not np.array_equal(np.array((tv + tv).tolist(), np.float32), v + v):
                errors.append(("add", i))
            if abs(tv.sum().item() - float(v.astype(np.float64).sum())) > 1e-2:
                errors.append(("sum", i))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_pool_works_after_fork():
    code = """
        import os, numpy as np, minitorch
        minitorch.set_num_threads(2)
        a = minitorch.tensor(np.arange(300 * 300, dtype=np.float32).reshape(300, 300) / 1e4)
        before = (a @ a).tolist()
        v = minitorch.ones(100000)
        pid = os.fork()
        if pid == 0:
            ok = (a @ a).tolist() == before and (v + v).sum().item() == 200000.0
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print(os.WEXITSTATUS(status), (a @ a).tolist() == before)
    """
    if not hasattr(os, "fork"):
        pytest.skip("no fork() on this platform")
    assert run_python(code) == "0 True"
