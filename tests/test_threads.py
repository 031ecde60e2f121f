"""Thread safety: ops, the allocator and the random generators used from 8 threads at once.

Python code in a notebook may use threads (data loaders, a progress thread, concurrent.futures). The
GIL serialises Python, but minitorch releases it around long C work, so these tests check that:

- ops give the same values from 8 threads as from one (CPU, and the simulated GPU);
- the caching allocator's statistics stay exact when 8 threads allocate and free at once: the
  number of allocations and the requested bytes add up to exactly what the threads asked for, and
  ``memory_allocated()`` comes back to its baseline;
- the generators hand out whole draws: the multiset of 8 threads' ``randn`` results equals the one
  drawn by a single thread from the same seed, and the generator ends in the same state;
- no Python object or reference count is touched where the GIL is released (a static check of the C
  sources, below).

Where the GIL is released (``Py_BEGIN_ALLOW_THREADS``), as of this file:

- csrc/ops/matmul.c: around ``mt_cpu_gemm`` for products of at least MATMUL_GIL_RELEASE_MACS
  multiply-adds (csrc/kernels/cpu/gemm.c, which starts its own worker threads);
- csrc/ops/elementwise.c, reduce.c: around host kernels over more than MT_PARALLEL_GRAIN_SIZE elements
  (MT_RUN_KERNEL in csrc/ops/dispatch.h, which holds the operands' storages meanwhile);
- csrc/core/devices.c: around the runtime's ``memcpy`` (mt_memcpy: host<->device copies, holding the
  storages on both sides), ``synchronize`` and ``mt_caching_allocator_empty_cache``.

Inside those regions only C runs: the region text and the files whose functions they call
(gemm.c, caching_allocator.c, runtime/simulated.c) use no Python API (``test_gil_free_regions``).
The allocator has its own mutex, the simulated runtime another, and gemm's workers share nothing
with Python. Everything else runs with the GIL held, so the generators (mt19937 on the CPU, the
Philox offset on CUDA) and storage reference counts are only changed under the GIL.

The simulated-GPU half runs in a subprocess with MINITORCH_SIMULATE_GPU=1 (``python tests/test_threads.py
gpu``).

``t.data = x`` in one thread while an op on ``t`` runs in another (``check_data_swap``): the setter drops
``t``'s storage, so an op holds the storages its kernel reads and writes (not only the tensor objects) for
as long as the GIL is released (MT_RUN_KERNEL, mt_memcpy), and it keeps the GIL from reading its operands'
geometry until its kernel starts (device allocations keep it too). The swaps give other shapes, ranks and
dtypes; a third thread checks that fresh ``zeros()`` are zeros, which freed memory still being written
would break. Each device runs for MINITORCH_TEST_SWAP_SECONDS (default 2; the issue asked for 10) in a
process of its own (``python tests/test_threads.py swap cpu 2``), so that a crash fails the test cleanly.
"""

import os
import re
import sys
import threading
from collections import Counter

import minitorch as torch
from subproc import python_output, run_file_on_simulated_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
THREADS = 8


def run_threads(fn, n=THREADS):
    """Runs fn(k) in n threads started together; returns their results, re-raising the first error."""
    barrier = threading.Barrier(n)
    results = [None] * n
    errors = []

    def body(k):
        try:
            barrier.wait()
            results[k] = fn(k)
        except BaseException as exc:  # noqa: B902 - reported to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def op_round(a, b, v, device):
    """A round of ops whose results are compared across threads (exact: same kernels, same inputs)."""
    c = a @ b                                   # 128^3 multiply-adds: the GIL is released
    out = [
        c.sum().item(),
        (a + b * 2 - 1).abs().sqrt().mean().item(),
        a[3:50:2, v > 0].sum().item(),
        torch.cat([a, b]).max(0).values.tolist()[:5],
        (a.t().contiguous() @ v).tolist()[:5],
        torch.addmm(v, a, b).sum(1).tolist()[:5],
        a.to(torch.float64).tolist()[7][:3],
    ]
    if device != "cpu":
        out.append(c.cpu().tolist()[1][:4])
        out.append(a.cpu().cuda().sum().item())
    return out


def check_ops(device, rounds):
    torch.manual_seed(0)
    inputs = [(torch.randn(128, 128, device=device), torch.randn(128, 128, device=device),
               torch.randn(128, device=device)) for _ in range(THREADS)]
    expected = [op_round(*inputs[k], device) for k in range(THREADS)]

    def work(k):
        got = None
        for _ in range(rounds):
            got = op_round(*inputs[k], device)
            assert got == expected[k], "thread %d: %r != %r" % (k, got, expected[k])
        return got

    assert run_threads(work) == expected


def check_rng(device, draws):
    """8 threads drawing from the default generator hand out exactly the single-thread draws."""
    torch.manual_seed(1234)
    reference = [tuple(torch.randn(100, device=device).tolist()) for _ in range(THREADS * draws)]
    reference_next = torch.rand(7, device=device).tolist()
    torch.manual_seed(1234)
    chunks = run_threads(lambda k: [tuple(torch.randn(100, device=device).tolist()) for _ in range(draws)])
    got = Counter(c for chunk in chunks for c in chunk)
    assert got == Counter(reference), "the threads' draws are not the single-thread draws"
    assert torch.rand(7, device=device).tolist() == reference_next, "the generator ended in another state"


def check_integer_rng(device, draws):
    torch.manual_seed(99)
    reference = Counter(tuple(torch.randint(0, 1000, (50,), device=device).tolist()) for _ in range(THREADS * draws))
    torch.manual_seed(99)
    chunks = run_threads(lambda k: [tuple(torch.randint(0, 1000, (50,), device=device).tolist())
                                    for _ in range(draws)])
    assert Counter(c for chunk in chunks for c in chunk) == reference


# ---- static check: nothing Pythonic where the GIL is released --------------------------------------

GIL_FREE_FILES = ["csrc/kernels/cpu/gemm.c", "csrc/alloc/caching_allocator.c", "csrc/runtime/simulated.c"]
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_STRING = re.compile(r'"(\\.|[^"\\])*"')
_PY_API = re.compile(r"\b(Py[A-Z_]\w*|_Py\w*)\b")


def _code(text):
    return _STRING.sub('""', _COMMENT.sub(" ", text))


def gil_regions():
    """[(file, line, region code)] for every Py_BEGIN_ALLOW_THREADS ... Py_END_ALLOW_THREADS."""
    regions = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "csrc")):
        for name in files:
            if not name.endswith((".c", ".h", ".cu")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in re.finditer(r"Py_BEGIN_ALLOW_THREADS(.*?)Py_END_ALLOW_THREADS", text, re.S):
                line = text.count("\n", 0, m.start()) + 1
                regions.append((os.path.relpath(path, ROOT), line, _code(m.group(1))))
    return regions


if __name__ != "__main__":
    import pytest

    def test_ops_from_8_threads_cpu():
        check_ops("cpu", rounds=40)

    def test_rng_from_8_threads_cpu():
        check_rng("cpu", draws=100)
        check_integer_rng("cpu", draws=40)

    def test_creation_and_free_from_8_threads_cpu():
        """Storages made and dropped concurrently (the GIL is released inside big matmuls meanwhile)."""
        def work(k):
            total = 0.0
            for i in range(60):
                x = torch.ones(64 + k, 32 + i % 7)
                y = x @ x.t()
                total += y[0, 0].item()
                del x, y
            return total

        expected = sum(float(32 + i % 7) for i in range(60))
        assert run_threads(work) == [expected] * THREADS

    def test_gil_free_regions():
        regions = gil_regions()
        assert regions, "no Py_BEGIN_ALLOW_THREADS found: the documentation above is out of date"
        bad = ["%s:%d uses %s with the GIL released" % (path, line, sorted(set(_PY_API.findall(code))))
               for path, line, code in regions if _PY_API.search(code)]
        assert not bad, "\n".join(bad)
        for rel in GIL_FREE_FILES:
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                code = _code(f.read())
            assert "#include <Python.h>" not in code and not _PY_API.search(code), \
                "%s runs with the GIL released but uses the Python API: %s" % (rel, _PY_API.findall(code)[:5])

    def test_simulated_gpu():
        run_file_on_simulated_gpu(__file__, "gpu", "GPU THREADS OK")

    def _swap_seconds():
        return os.environ.get("MINITORCH_TEST_SWAP_SECONDS", "2")

    def test_data_swap_under_running_ops_cpu():
        out = python_output([os.path.abspath(__file__), "swap", "cpu", _swap_seconds()], timeout=600, cwd=HERE)
        assert "SWAP OK" in out, out[-4000:]

    def test_data_swap_under_running_ops_simulated_gpu():
        out = python_output([os.path.abspath(__file__), "swap", "cuda", _swap_seconds()], simulate_gpu=1,
                            timeout=600, cwd=HERE)
        assert "SWAP OK" in out, out[-4000:]


def _allocator_stats_exact():
    """8 threads allocating and freeing CUDA tensors: the counters add up exactly."""
    sizes = [1, 100, 513, 4096, 300000, 1 << 20, 3 << 20]   # float32 elements: small and large pools
    rounds = 200
    torch.cuda.synchronize()
    before = torch.cuda.memory_stats()
    baseline = torch.cuda.memory_allocated()

    def work(k):
        for _ in range(rounds):
            held = [torch.empty(n, device="cuda") for n in sizes]
            del held
        return 0

    run_threads(work)
    after = torch.cuda.memory_stats()
    n_alloc = THREADS * rounds * len(sizes)
    requested = THREADS * rounds * sum(4 * n for n in sizes)
    checks = {
        "allocation.all.allocated": n_alloc,
        "allocation.all.freed": n_alloc,
        "requested_bytes.all.allocated": requested,
        "requested_bytes.all.freed": requested,
    }
    for key, delta in checks.items():
        assert after[key] - before[key] == delta, "%s: %d, expected +%d" % (key, after[key] - before[key], delta)
    assert torch.cuda.memory_allocated() == baseline
    assert after["allocated_bytes.all.current"] == before["allocated_bytes.all.current"]
    assert after["active.all.current"] == before["active.all.current"]
    assert after["num_ooms"] == before["num_ooms"]
    # the freed blocks went back to the cache: a whole-cache release leaves nothing reserved
    torch.cuda.empty_cache()
    if baseline == 0:
        assert torch.cuda.memory_reserved() == 0


def _gpu_main():
    assert torch.cuda.is_available(), "MINITORCH_SIMULATE_GPU=1 was expected"
    check_ops("cuda", rounds=20)
    print("ops ok", flush=True)
    check_rng("cuda", draws=100)
    check_integer_rng("cuda", draws=25)
    print("rng ok", flush=True)
    _allocator_stats_exact()
    print("allocator ok", flush=True)

    # copies both ways from 8 threads (the GIL is released inside the runtime's memcpy)
    torch.manual_seed(5)
    host = [torch.randn(257, 129) for _ in range(THREADS)]
    sums = [h.sum().item() for h in host]

    def copies(k):
        for _ in range(30):
            d = host[k].cuda()
            back = d.to("cpu", torch.float64).float()
            assert back.sum().item() == sums[k]
        return True

    assert all(run_threads(copies))
    assert torch.cuda.memory_allocated() == 0
    print("GPU THREADS OK")


# ---- t.data = x while ops on t run ------------------------------------------------------------------

SWAP_N = 1 << 18        # elements: past every GIL-release threshold (MT_PARALLEL_GRAIN_SIZE and the others)


def check_data_swap(device, seconds):
    """Ops on shared tensors in 3 threads while a 4th keeps giving them new storages of other shapes, ranks
    and dtypes, and a 5th checks that fresh zeros() are zero. Ops may raise what torch raises for the
    shapes they happen to see (a shape mismatch); nothing may crash, and no freed memory may be written."""
    import time

    def fresh(k):
        shapes = [(SWAP_N,), (SWAP_N // 2,), (512, 512), (4, 8, 8, 2, 2, 2, 16), (3,), (0,), ()]
        dtypes = [torch.float32, torch.float64, torch.int64, torch.float32]
        shape, dtype = shapes[k % len(shapes)], dtypes[(k // len(shapes)) % len(dtypes)]
        return torch.full(shape, 1 + k % 5, dtype=dtype, device=device)

    t = fresh(0)
    m = torch.ones(256, 256, device=device)
    stop = time.time() + seconds
    counts = Counter()
    failures = []

    def guarded(fn):
        def body(k):
            try:
                while time.time() < stop:
                    try:
                        fn(k)
                        counts["ok"] += 1
                    except RuntimeError:
                        counts["raised"] += 1   # e.g. the in-place op's shape no longer matches
            except BaseException as exc:  # noqa: B902 - reported below
                failures.append(exc)
                raise
        return body

    def elementwise(k):
        t.add_(1)
        (t * 2 - t).abs().sum()
        t.mul_(t)
        t.clone()
        t.to(torch.float64)
        if device != "cpu":
            t.cpu()

    def reductions(k):
        t.sum()
        t.sum(0)
        t.mean(-1, keepdim=True) if t.is_floating_point() and t.dim() > 0 else t.max()
        m @ m
        m.add_(t.sum(), alpha=1) if t.is_floating_point() else m.add_(1)

    def swaps(k):
        i = int(time.time() * 1e6)
        t.data = fresh(i)
        m.data = torch.full((256, 256) if i % 3 else (128, 256), 0.5, device=device)

    def zeros(k):
        z = torch.zeros(SWAP_N, device=device)
        nonzero = int((z != 0).sum().item())
        if nonzero:
            failures.append(AssertionError("zeros(%d) had %d non-zero elements" % (SWAP_N, nonzero)))

    threads = [threading.Thread(target=guarded(fn), args=(k,))
               for k, fn in enumerate([elementwise, elementwise, reductions, swaps, zeros])]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if failures:
        raise failures[0]
    assert counts["ok"] > 0, counts
    print("SWAP OK", dict(counts))


if __name__ == "__main__" and sys.argv[1:] == ["gpu"]:
    _gpu_main()

if __name__ == "__main__" and sys.argv[1:2] == ["swap"]:
    if sys.argv[2] != "cpu":
        assert torch.cuda.is_available(), "MINITORCH_SIMULATE_GPU=1 was expected"
    check_data_swap(sys.argv[2], float(sys.argv[3]))
