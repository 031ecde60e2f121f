"""GPU benchmark: minitorch against torch, measured in the same process on the same GPU.

    python benchmarks/gpu.py            # the full table (about a minute on an H200)
    python benchmarks/gpu.py --quick    # smaller sizes, for a smoke run

Rows: matmul at n = 4096 in float32, TF32 (allow_tf32 on), float64, float16 and bfloat16 (TFLOP/s; a
dtype minitorch lacks prints its error in minitorch's column, torch's figure stays); elementwise add of
2**26 float32s (GB/s moved, and as a fraction of the device-to-device copy bandwidth measured the same
way); .cuda() and .cpu() of 1 GiB from pageable and from pinned host memory (GB/s); and the latency of
a 4-element add (microseconds per op, queued back to back); a multiply by a Python float, a float32 to
float64 cast and float32 sums (all elements, the inner and the outer dim of a square matrix), in GB/s
read and written. Every timing is preceded by warm-up runs
and bracketed by cuda.synchronize(); each number is the best of several repetitions. The last column is
minitorch / torch for throughputs and torch / minitorch for latency, so above 1 always means minitorch
is faster. A row minitorch cannot run yet prints its error instead of a number.
"""

import argparse
import sys
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke run, not a measurement")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--allow-simulated", action="store_true",
                   help="run on the simulated GPU too (checks this script, measures nothing useful)")
    return p.parse_args()


def best_of(fn, sync, reps, inner=1):
    """Best wall time of `inner` back-to-back calls, after two warm-up rounds."""
    for _ in range(2):
        fn()
    sync()
    best = float("inf")
    for _ in range(reps):
        sync()
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t) / inner)
    return best


class Library:
    def __init__(self, module):
        self.m = module
        self.name = module.__name__

    def sync(self):
        self.m.cuda.synchronize()


def row(label, unit, results, higher_is_better=True):
    mt, th = results.get("minitorch"), results.get("torch")

    def cell(v):
        if isinstance(v, str):
            return v[:40]
        return "{:10.2f}".format(v) if v is not None else "{:>10}".format("-")

    ratio = ""
    if isinstance(mt, float) and isinstance(th, float) and mt > 0 and th > 0:
        ratio = "{:6.2f}".format(mt / th if higher_is_better else th / mt)
    print("{:<40} {:<8} {:>12} {:>12} {:>8}".format(label, unit, cell(mt), cell(th), ratio))


def measure(libs, fn):
    out = {}
    for lib in libs:
        try:
            out[lib.name] = fn(lib)
        except Exception as exc:  # noqa: BLE001 - a row, not a crash
            out[lib.name] = "{}: {}".format(type(exc).__name__, exc).splitlines()[0]
    return out


def bench_matmul(lib, n, dtype_name, tf32, reps):
    m = lib.m
    dtype = getattr(m, dtype_name)
    a = m.randn(n, n, device="cuda", dtype=dtype)
    b = m.randn(n, n, device="cuda", dtype=dtype)
    old = m.backends.cuda.matmul.allow_tf32
    m.backends.cuda.matmul.allow_tf32 = tf32
    try:
        t = best_of(lambda: a @ b, lib.sync, reps)
    finally:
        m.backends.cuda.matmul.allow_tf32 = old
    return 2.0 * n ** 3 / t / 1e12


def bench_add(lib, n, reps):
    m = lib.m
    a = m.randn(n, device="cuda")
    b = m.randn(n, device="cuda")
    t = best_of(lambda: a + b, lib.sync, reps)
    return 3 * 4 * n / t / 1e9


def bench_mul_scalar(lib, n, reps):
    m = lib.m
    a = m.randn(n, device="cuda")
    t = best_of(lambda: a * 2.5, lib.sync, reps)
    return 2 * 4 * n / t / 1e9


def bench_cast(lib, n, reps):
    m = lib.m
    a = m.randn(n, device="cuda")
    t = best_of(lambda: a.double(), lib.sync, reps)
    return (4 + 8) * n / t / 1e9


def bench_sum(lib, n, dim, reps):
    """GB/s read by a float32 sum over all elements (dim None) or one dim of a square matrix."""
    m = lib.m
    side = int(n ** 0.5)
    a = m.randn(side, side, device="cuda")
    fn = (lambda: a.sum()) if dim is None else (lambda: a.sum(dim))
    t = best_of(fn, lib.sync, reps)
    return 4 * side * side / t / 1e9


def bench_d2d(lib, n, reps):
    m = lib.m
    a = m.randn(n, device="cuda")
    b = m.empty(n, device="cuda")
    t = best_of(lambda: b.copy_(a), lib.sync, reps)
    return 2 * 4 * n / t / 1e9


def bench_transfer(lib, nbytes, direction, pinned, reps):
    m = lib.m
    n = nbytes // 4
    if direction == "h2d":
        host = m.ones(n)
        if pinned:
            host = host.pin_memory()
        t = best_of(lambda: host.cuda(non_blocking=pinned), lib.sync, reps)
    else:
        dev = m.ones(n, device="cuda")
        if pinned:
            dst = m.empty(n).pin_memory()
            t = best_of(lambda: dst.copy_(dev, non_blocking=True), lib.sync, reps)
        else:
            t = best_of(lambda: dev.cpu(), lib.sync, reps)
    return nbytes / t / 1e9


def bench_latency(lib, reps):
    m = lib.m
    a = m.ones(4, device="cuda")
    b = m.ones(4, device="cuda")
    return best_of(lambda: a + b, lib.sync, reps, inner=1000) * 1e6


def main():
    args = parse_args()
    import minitorch

    if not minitorch.cuda.is_available() or (minitorch._C._cuda_isSimulated() and not args.allow_simulated):
        print("benchmarks/gpu.py: skipped, it needs a real CUDA GPU (minitorch.cuda.is_available() is False "
              "or the GPU is simulated)")
        return 0
    libs = [Library(minitorch)]
    try:
        import torch

        if torch.cuda.is_available():
            libs.append(Library(torch))
        else:
            print("(torch is installed without a usable GPU: minitorch only)")
    except ImportError:
        print("(torch is not installed: minitorch only)")
    n_mm = 1024 if args.quick else 4096
    n_add = 2 ** 20 if args.quick else 2 ** 26
    n_copy = (64 << 20) if args.quick else (1 << 30)
    reps = 2 if args.quick else args.reps
    print("GPU: {} | minitorch CUDA {} | torch {}".format(
        minitorch.cuda.get_device_name(0), minitorch.version.cuda,
        libs[1].m.__version__ if len(libs) > 1 else "-"))
    print("{:<40} {:<8} {:>12} {:>12} {:>8}".format("benchmark", "unit", "minitorch", "torch", "ratio"))
    for dtype_name, tf32, label in (("float32", False, "fp32"), ("float32", True, "tf32"), ("float64", False, "fp64"),
                                    ("float16", False, "fp16"), ("bfloat16", False, "bf16")):
        row("matmul {} n={}".format(label, n_mm), "TFLOP/s",
            measure(libs, lambda lib: bench_matmul(lib, n_mm, dtype_name, tf32, reps)))
    add = measure(libs, lambda lib: bench_add(lib, n_add, reps))
    d2d = measure(libs, lambda lib: bench_d2d(lib, n_add, reps))
    row("add float32 n=2**{}".format(n_add.bit_length() - 1), "GB/s", add)
    # the targets: >= 0.85 of the copy bandwidth, >= 0.95x torch (the ratio column above)
    row("  add as a fraction of D2D copy", "", {k: add[k] / d2d[k] if isinstance(add.get(k), float) and
                                             isinstance(d2d.get(k), float) else d2d.get(k) for k in add})
    row("D2D copy_ float32", "GB/s", d2d)
    row("mul by a Python float", "GB/s", measure(libs, lambda lib: bench_mul_scalar(lib, n_add, reps)))
    row("cast float32 -> float64", "GB/s", measure(libs, lambda lib: bench_cast(lib, n_add, reps)))
    for dim, label in ((None, "all"), (1, "dim=1 (inner)"), (0, "dim=0 (outer)")):
        row("sum {}, {s}x{s} float32".format(label, s=int(n_add ** 0.5)), "GB/s",
            measure(libs, lambda lib: bench_sum(lib, n_add, dim, reps)))
    for direction in ("h2d", "d2h"):
        for pinned in (False, True):
            label = "{} {} {}".format(".cuda()" if direction == "h2d" else ".cpu()",
                                       "pinned" if pinned else "pageable", "1 GiB" if not args.quick else "64 MiB")
            row(label, "GB/s", measure(libs, lambda lib: bench_transfer(lib, n_copy, direction, pinned, reps)))
    row("latency: add of 4 floats", "us/op", measure(libs, lambda lib: bench_latency(lib, reps)),
        higher_is_better=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
