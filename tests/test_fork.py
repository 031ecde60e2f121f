"""CUDA after fork: a child of a process that initialised CUDA must get torch's error, not a hang.

A CUDA context does not survive fork(). torch marks the child "in bad fork" (pthread_atfork) and every
lazy initialisation there raises RuntimeError: "Cannot re-initialize CUDA in forked subprocess. To use
CUDA with multiprocessing, you must use the 'spawn' start method". minitorch does the same in
csrc/core/devices.c. These tests fork from a subprocess running with MINITORCH_SIMULATE_GPU=1 (so the
test process itself never forks with threads running) and check in the child, each under a timeout:

- tensor creation on cuda, ``.cuda()``, ``.to('cuda')``, ``cuda.current_device()``, ``cuda.synchronize()``
  raise that RuntimeError;
- ``cuda.memory_allocated()`` returns 0 and ``cuda.is_initialized()`` is False, as torch's do there
  (``is_initialized()`` is ``_initialized and not _is_in_bad_fork()``; the memory functions return
  zeros when CUDA is not initialised), ``cuda.empty_cache()`` does nothing, and dropping a CUDA tensor
  inherited from the parent does not crash;
- CPU work in the child goes on normally, and the parent's CUDA keeps working after the fork;
- a child forked before CUDA was initialised may initialise it;
- the same through ``multiprocessing`` with the 'fork' start method.
"""

import os
import textwrap

import pytest

from subproc import run_python

HERE = os.path.dirname(os.path.abspath(__file__))
MESSAGE = ("Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use "
           "the 'spawn' start method")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

PRELUDE = textwrap.dedent('''
    import json, os, sys, traceback
    import minitorch as torch

    def outcome(fn):
        try:
            r = fn()
        except Exception as exc:
            return ["raise", type(exc).__name__, str(exc)]
        return ["ok", repr(r)]

    def in_child(probes, timeout=60):
        """Runs {name: fn} in a forked child; returns {name: outcome}. The child is killed (and the
        probes reported as hung) if it does not answer within `timeout` seconds."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                result = {name: outcome(fn) for name, fn in probes.items()}
                os.write(w, json.dumps(result).encode())
            finally:
                os._exit(0)
        os.close(w)
        import select, signal, time
        data = b""
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"__hang__": True}
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        result = json.loads(data.decode()) if data else {}
        result["__status__"] = status
        return result
''')


def run(code):
    proc = run_python(PRELUDE + textwrap.dedent(code), simulate_gpu=1, cwd=HERE)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    import json
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_cuda_in_a_child_after_cuda_init_raises_torchs_error():
    got = run('''
        x = torch.ones(3, device="cuda")              # initialises CUDA in the parent
        h = torch.arange(6.0)
        allocated = torch.cuda.memory_allocated()
        res = in_child({
            "zeros": lambda: torch.zeros(2, device="cuda"),
            "tensor": lambda: torch.tensor([1, 2], device="cuda"),
            "randn": lambda: torch.randn(2, device="cuda"),
            "dot_cuda": lambda: h.cuda(),
            "to_cuda": lambda: h.to("cuda"),
            "to_cuda0": lambda: h.to(torch.device("cuda", 0)),
            "current_device": lambda: torch.cuda.current_device(),
            "synchronize": lambda: torch.cuda.synchronize(),
            "init": lambda: torch.cuda.init(),
            "memory_allocated": lambda: torch.cuda.memory_allocated(),
            "memory_reserved": lambda: torch.cuda.memory_reserved(),
            "is_initialized": lambda: torch.cuda.is_initialized(),
            "is_available": lambda: torch.cuda.is_available(),
            "empty_cache": lambda: torch.cuda.empty_cache(),
            "cpu_work": lambda: (h * 2).sum().item(),
            "drop_inherited": lambda: globals().pop("x") is not None,
        })
        # the parent is not affected
        res["parent_after"] = outcome(lambda: (torch.ones(2, device="cuda") + x[:2]).tolist())
        res["parent_allocated"] = outcome(lambda: torch.cuda.memory_allocated() == allocated)
        print(json.dumps(res))
    ''')
    assert "__hang__" not in got, "the child hung"
    assert got["__status__"] == 0
    for name in ["zeros", "tensor", "randn", "dot_cuda", "to_cuda", "to_cuda0", "current_device", "synchronize",
                 "init"]:
        assert got[name] == ["raise", "RuntimeError", MESSAGE], (name, got[name])
    assert got["memory_allocated"] == ["ok", "0"]
    assert got["memory_reserved"] == ["ok", "0"]
    assert got["is_initialized"] == ["ok", "False"]
    assert got["is_available"] == ["ok", "True"]
    assert got["empty_cache"] == ["ok", "None"]
    assert got["cpu_work"] == ["ok", "30.0"]
    assert got["drop_inherited"] == ["ok", "True"]
    assert got["parent_after"] == ["ok", "[2.0, 2.0]"]
    assert got["parent_allocated"] == ["ok", "True"]


def test_a_child_forked_before_cuda_init_may_use_cuda():
    got = run('''
        h = torch.arange(4.0)
        res = in_child({
            "cuda": lambda: h.cuda().sum().item(),
            "memory_allocated": lambda: (torch.ones(1, device="cuda"), torch.cuda.memory_allocated())[1],
        })
        res["parent_is_initialized"] = outcome(lambda: torch.cuda.is_initialized())
        print(json.dumps(res))
    ''')
    assert "__hang__" not in got
    assert got["cuda"] == ["ok", "6.0"]
    assert got["memory_allocated"] == ["ok", "512"]
    assert got["parent_is_initialized"] == ["ok", "False"]


def test_grandchild_and_repeated_forks():
    """Every later fork of an initialised process is a bad fork too; none hangs."""
    got = run('''
        torch.zeros(1, device="cuda")
        results = [in_child({"zeros": lambda: torch.zeros(1, device="cuda")}) for _ in range(5)]
        nested = in_child({"nested": lambda: in_child({"zeros": lambda: torch.zeros(1, device="cuda")})["zeros"]})
        print(json.dumps({"results": results, "nested": nested}))
    ''')
    for r in got["results"]:
        assert r["zeros"] == ["raise", "RuntimeError", MESSAGE]
    assert got["nested"]["nested"][0] == "ok"
    assert MESSAGE in got["nested"]["nested"][1]


def test_multiprocessing_fork_start_method():
    got = run('''
        import multiprocessing as mp

        def worker(q):
            try:
                torch.ones(2, device="cuda")
                q.put(["ok"])
            except Exception as exc:
                q.put(["raise", type(exc).__name__, str(exc)])

        torch.ones(1, device="cuda")
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=worker, args=(q,))
        p.start()
        p.join(60)
        hung = p.is_alive()
        if hung:
            p.kill()
        print(json.dumps({"hung": hung, "answer": None if hung else q.get(timeout=10)}))
    ''')
    assert not got["hung"]
    assert got["answer"] == ["raise", "RuntimeError", MESSAGE]
