"""Host-side time per tiny CUDA op: what the host spends before a launch is queued, with no waiting.

    python benchmarks/host_overhead.py
    PYTHONPATH=OUT python benchmarks/host_overhead.py   # the emulated-CUDA build (scripts/build_emulated_cuda.py OUT)

Times N back-to-back ops on 4-element device tensors (add, mul by a Python number, sum, a copy_) without
synchronizing inside the loop, so each figure is Python, argument parsing, the op layer, the backend and
the launcher's host work (plus, on a real GPU, the driver's launch call). On the emulated-CUDA build a
launch only queues a closure, so the figure is minitorch's own host cost; the queue is drained after the
timing. The CPU row is the same add on host tensors, for scale. Best of several rounds, in microseconds.
"""

import sys
import time


def per_op(fn, sync, n, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        sync()
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
        sync()
    return best * 1e6


def main():
    import minitorch as torch

    if not torch.cuda.is_available():
        print("benchmarks/host_overhead.py: skipped, no CUDA device (real, simulated or emulated)")
        return 0
    info = torch._C._cuda_runtimeInfo()
    kind = "simulated" if info["simulated"] else "CUDA runtime {}".format(info.get("runtime"))
    print("device: {} ({})".format(torch.cuda.get_device_name(0), kind))
    a = torch.ones(4, device="cuda")
    b = torch.ones(4, device="cuda")
    c = torch.empty(4, device="cuda")
    x, y = torch.ones(4), torch.ones(4)
    sync = torch.cuda.synchronize
    n = 2000
    rows = [
        ("add of 4 floats (cuda)", lambda: a + b),
        ("mul by a Python float (cuda)", lambda: a * 2.5),
        ("sum of 4 floats (cuda)", lambda: a.sum()),
        ("copy_ of 4 floats (cuda)", lambda: c.copy_(a)),
        ("add of 4 floats (cpu)", lambda: x + y),
    ]
    for label, fn in rows:
        print("{:<34} {:8.2f} us/op".format(label, per_op(fn, sync, n)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
