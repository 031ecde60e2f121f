"""CPU benchmark: minitorch against NumPy and torch (when installed), measured side by side.

    python benchmarks/cpu.py                  # all cores (minitorch's default thread count)
    python benchmarks/cpu.py --threads 1      # one thread for all three libraries
    python benchmarks/cpu.py --quick          # fewer sizes and repeats (a smoke run)

What it prints: GEMM GFLOP/s at n = 256, 512, 1024, 2048 in float32 and float64; add, mul and sum over
1e6 and 1e7 float32 elements; the latency of tiny operations (a 4-element add, a 2x2 matmul,
x.to('cpu'), x.shape, x[1], and the factories zeros(2, 2), full((2, 2), 1.), arange(10), randn(3)); the
wall time of `import minitorch` against `import numpy`; and at the end the acceptance ratios of the CPU
performance issue, each marked met or not met. The import probes run without PYTHONDONTWRITEBYTECODE, so
that they time what every import after the first costs on an install (pip compiles NumPy's bytecode when
it installs it; an editable minitorch writes its own at the first import), not the compiler.

How it measures. The script re-runs itself in a child process whose environment has OPENBLAS_CORETYPE
and OPENBLAS_L2_SIZE removed (some machines set them, and e.g. OPENBLAS_CORETYPE=Haswell halves
OpenBLAS's float32 speed on AVX-512 CPUs), so NumPy runs its best kernel; the three libraries are then
measured in that one process, taking turns, with the same thread count (OpenBLAS/OpenMP/MKL variables,
minitorch.set_num_threads, torch.set_num_threads). The child also sets OPENBLAS_THREAD_TIMEOUT=4
(unless it is set): by default OpenBLAS's worker threads spin for about 70 ms after each product before
they sleep, so when the libraries take turns, the call that follows a NumPy GEMM shares the cores with
them (on 2 cores, minitorch's n=1024 float32 GEMM measured 135 GFLOP/s right after a NumPy GEMM and 180
in a loop; with the threads asleep, the same in both). minitorch's threads sleep at once, torch's
OpenMP threads after a few milliseconds.
Each figure is the best of several runs, because other work on the machine only ever makes a run
slower; the load average is printed before and after.
Ratios are minitorch's speed over the other library's (above 1: minitorch is faster), except the
latency rows, which give minitorch's time over the other's (below 1: minitorch is faster).
"""

import argparse
import json
import os
import subprocess
import sys
import time
import timeit

CLEARED = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MINITORCH_NUM_THREADS")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=0, help="threads for every library (0: minitorch's default)")
    p.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args()


def load():
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


# ---- the parent: clean environment, import times, then the child --------------------------------------


def child_env(threads):
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    for var in THREAD_VARS:
        env[var] = str(threads)
    env.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")     # NumPy's threads sleep after a product (docstring)
    return env


def default_threads():
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    out = subprocess.run([sys.executable, "-c", "import minitorch; print(minitorch.get_num_threads())"],
                         capture_output=True, text=True, env=env, check=True)
    return int(out.stdout.strip())


IMPORT_PROBE = "import time; t = time.perf_counter(); import %s; print(time.perf_counter() - t)"


def import_times(env, rounds):
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    best = {"minitorch": float("inf"), "numpy": float("inf")}
    for _ in range(rounds):
        for mod in best:
            out = subprocess.run([sys.executable, "-c", IMPORT_PROBE % mod], capture_output=True, text=True,
                                 env=env, check=True)
            best[mod] = min(best[mod], float(out.stdout.strip()))
    return best


def parent(args):
    threads = args.threads or default_threads()
    env = child_env(threads)
    print("minitorch CPU benchmark, %s" % time.strftime("%Y-%m-%d %H:%M:%S"))
    print("python %s; %s; %d CPUs online" % (sys.version.split()[0], load(), os.cpu_count() or 0))
    print("environment for all measurements: %s unset; %s=%d" % (
        ", ".join(CLEARED), "=".join(THREAD_VARS), threads))
    sys.stdout.flush()
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--threads", str(threads)]
    if args.quick:
        cmd.append("--quick")
    if args.no_torch:
        cmd.append("--no-torch")
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True)
    results = None
    for line in proc.stdout.splitlines():
        if line.startswith("RESULTS "):
            results = json.loads(line[len("RESULTS "):])
        else:
            print(line)
    if proc.returncode != 0 or results is None:
        sys.exit("benchmark child failed (exit %d)" % proc.returncode)

    imports = import_times(env, 3 if args.quick else 7)
    print()
    print("import time (fresh interpreter, best of %d)" % (3 if args.quick else 7))
    print("  import minitorch  %7.1f ms" % (imports["minitorch"] * 1e3))
    print("  import numpy      %7.1f ms" % (imports["numpy"] * 1e3))
    print("  minitorch/numpy   %7.2f (time ratio)" % (imports["minitorch"] / imports["numpy"]))
    results["import"] = imports
    print()
    acceptance(results)
    print()
    print("after: %s" % load())


def acceptance(r):
    rows = []
    gemm = r["gemm"]

    def ratio(key, lib):
        g = gemm.get(key)
        return g["minitorch"] / g[lib] if g and g.get(lib) else None

    for n in (1024, 2048):
        rows.append(("float32 GEMM n=%d vs NumPy (>= 0.90x)" % n, ratio("float32 %d" % n, "numpy"), 0.9, ">="))
        rows.append(("float64 GEMM n=%d vs NumPy (>= 0.80x)" % n, ratio("float64 %d" % n, "numpy"), 0.8, ">="))
        rows.append(("float32 GEMM n=%d vs torch (>= 1.00x)" % n, ratio("float32 %d" % n, "torch"), 1.0, ">="))
    add = r["elementwise"].get("add 1e7")
    rows.append(("add 1e7 float32 vs NumPy (>= 1.00x)", add["numpy"] / add["minitorch"] if add else None, 1.0, ">="))
    for op in ("add 4 elements", "matmul 2x2"):
        lat = r["latency"][op]
        rows.append(("%s latency vs NumPy (<= 1.00x)" % op, lat["minitorch"] / lat["numpy"], 1.0, "<="))
        if lat.get("torch"):
            rows.append(("%s latency vs torch (<= 0.33x)" % op, lat["minitorch"] / lat["torch"], 0.33, "<="))
    imp = r["import"]
    rows.append(("import minitorch vs import numpy (<= 1.00x)", imp["minitorch"] / imp["numpy"], 1.0, "<="))
    print("acceptance (ratios from this run)")
    for name, value, bound, op in rows:
        if value is None:
            print("  %-48s %8s   not measured" % (name, "-"))
            continue
        ok = value >= bound if op == ">=" else value <= bound
        print("  %-48s %8.2f   %s" % (name, value, "met" if ok else "NOT MET"))


# ---- the child: the three libraries in one process ---------------------------------------------------


def best_of(fn, reps):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def take_turns(runs, reps, rounds, pause):
    """Best time per library; the libraries take turns `rounds` times, in short blocks, so that each
    gets several chances at a quiet moment of a shared machine. A pause before each block lets the
    previous library's spinning worker threads go to sleep."""
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            if pause:
                time.sleep(pause)
            fn()  # warm-up: thread pools, page faults
            best[name] = min(best[name], best_of(fn, reps))
    return best


def blas_info(np):
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed (pip install threadpoolctl): NumPy's BLAS kernel unknown"
    parts = []
    for pool in threadpool_info():
        if pool.get("user_api") == "blas" and "numpy" in pool.get("filepath", "") + pool.get("prefix", ""):
            parts.append("%s %s, kernel %s, %s threads" % (pool.get("internal_api"), pool.get("version"),
                                                          pool.get("architecture"), pool.get("num_threads")))
    if not parts:
        parts = ["%s %s, kernel %s, %s threads" % (p.get("internal_api"), p.get("version"), p.get("architecture"),
                                                   p.get("num_threads"))
                 for p in threadpool_info() if p.get("user_api") == "blas"]
    return "; ".join(parts) or "no BLAS found by threadpoolctl"


def fmt(x, spec="%10.1f"):
    return spec % x if x is not None else "%10s" % "-"


def child(args):
    import numpy as np

    import minitorch

    torch = None
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            torch = None
    threads = args.threads
    minitorch.set_num_threads(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    info = minitorch._C._gemm_info()
    print("minitorch: GEMM kernels %s; %d threads (get_num_threads)" % (
        ", ".join("%s %s" % (k, v) for k, v in info.items() if k != "threads"), minitorch.get_num_threads()))
    print("numpy %s: %s" % (np.__version__, blas_info(np)))
    if torch is not None:
        print("torch %s: %d threads (get_num_threads)" % (torch.__version__, torch.get_num_threads()))
    else:
        print("torch: not installed (its columns are left out)")
    libs = ["minitorch", "numpy"] + (["torch"] if torch is not None else [])
    results = {"gemm": {}, "elementwise": {}, "latency": {}}
    rng = np.random.default_rng(0)
    quick = args.quick

    # GEMM
    print()
    print(load())
    head = "%-8s %6s" % ("GEMM", "n") + "".join("%11s" % l for l in libs) + "   GF/s;  mt/np" + (
        "  mt/torch" if torch is not None else "")
    print(head)
    sizes = (256, 1024) if quick else (256, 512, 1024, 2048)
    for dtype in ("float32", "float64"):
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(dtype)
            b = rng.standard_normal((n, n)).astype(dtype)
            ma, mb = minitorch.tensor(a), minitorch.tensor(b)
            runs = {"minitorch": lambda: ma @ mb, "numpy": lambda: a @ b}
            if torch is not None:
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                runs["torch"] = lambda: ta @ tb
            reps = max(2, min(10, int(8e8 / (2 * n ** 3))))
            best = take_turns(runs, 2 if quick else reps, 2 if quick else 8, 0.15)
            gf = {k: 2 * n ** 3 / t / 1e9 for k, t in best.items()}
            results["gemm"]["%s %d" % (dtype, n)] = gf
            line = "%-8s %6d" % (dtype, n) + "".join(fmt(gf.get(l), "%11.1f") for l in libs)
            line += "         %6.2f" % (gf["minitorch"] / gf["numpy"])
            if torch is not None:
                line += "  %8.2f" % (gf["minitorch"] / gf["torch"])
            print(line, flush=True)

    # elementwise and sum
    print()
    print(load())
    print("%-14s" % "float32 op" + "".join("%11s" % l for l in libs) + "   ms;    np/mt" +
          ("  torch/mt" if torch is not None else ""))
    for count, label in ((10 ** 6, "1e6"), (10 ** 7, "1e7")):
        a = rng.standard_normal(count).astype(np.float32)
        b = rng.standard_normal(count).astype(np.float32)
        ma, mb = minitorch.tensor(a), minitorch.tensor(b)
        if torch is not None:
            ta, tb = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
        for op in ("add", "mul", "sum"):
            if op == "add":
                runs = {"minitorch": lambda: ma + mb, "numpy": lambda: a + b}
                if torch is not None:
                    runs["torch"] = lambda: ta + tb
            elif op == "mul":
                runs = {"minitorch": lambda: ma * mb, "numpy": lambda: a * b}
                if torch is not None:
                    runs["torch"] = lambda: ta * tb
            else:
                runs = {"minitorch": lambda: ma.sum(), "numpy": lambda: a.sum()}
                if torch is not None:
                    runs["torch"] = lambda: ta.sum()
            reps = 10 if count == 10 ** 6 else 3
            best = take_turns(runs, 5 if quick else reps, 2 if quick else 8, 0.05)
            ms = {k: t * 1e3 for k, t in best.items()}
            results["elementwise"]["%s %s" % (op, label)] = ms
            line = "%-14s" % ("%s %s" % (op, label)) + "".join(fmt(ms.get(l), "%11.3f") for l in libs)
            line += "         %6.2f" % (ms["numpy"] / ms["minitorch"])
            if torch is not None:
                line += "  %8.2f" % (ms["torch"] / ms["minitorch"])
            print(line, flush=True)

    # latency of tiny ops
    print()
    print(load())
    print("%-14s" % "latency" + "".join("%11s" % l for l in libs) + "   ns;    mt/np" +
          ("  mt/torch" if torch is not None else ""))
    envs = {"minitorch": minitorch, "numpy": None, "torch": torch}
    # (name, statement, NumPy's statement: None where NumPy has no counterpart)
    cases = [
        ("add 4 elements", "a + b", "a + b"),
        ("matmul 2x2", "m @ m", "m @ m"),
        ("x.to('cpu')", "x.to('cpu')", None),
        ("x.shape", "x.shape", "x.shape"),
        ("x[1]", "x[1]", "x[1]"),
        ("zeros(2, 2)", "T.zeros(2, 2)", "np.zeros((2, 2), np.float32)"),
        ("full 2x2", "T.full((2, 2), 1.)", "np.full((2, 2), 1., np.float32)"),
        ("arange(10)", "T.arange(10)", "np.arange(10)"),
        ("randn(3)", "T.randn(3)", "rng.standard_normal(3, np.float32)"),
    ]
    namespaces = {}
    for lib in libs:
        if lib == "numpy":
            namespaces[lib] = {"a": np.ones(4, np.float32), "b": np.ones(4, np.float32),
                               "m": np.ones((2, 2), np.float32), "x": np.ones((3, 4), np.float32),
                               "np": np, "rng": np.random.default_rng(0)}
        else:
            mod = envs[lib]
            namespaces[lib] = {"a": mod.ones(4), "b": mod.ones(4), "m": mod.ones(2, 2), "x": mod.ones(3, 4),
                               "T": mod}
    number = 20000 if quick else 100000
    for name, stmt, np_stmt in cases:
        best = {}
        for _ in range(2 if quick else 5):
            for lib in libs:
                if lib == "numpy" and np_stmt is None:
                    continue  # NumPy has no devices
                code = np_stmt if lib == "numpy" else stmt
                t = min(timeit.repeat(code, globals=namespaces[lib], number=number, repeat=3)) / number
                best[lib] = min(best.get(lib, float("inf")), t)
        ns = {k: v * 1e9 for k, v in best.items()}
        results["latency"][name] = ns
        line = "%-14s" % name + "".join(fmt(ns.get(l), "%11.0f") for l in libs)
        line += "         %6s" % ("%.2f" % (ns["minitorch"] / ns["numpy"]) if "numpy" in ns else "-")
        if torch is not None:
            line += "  %8.2f" % (ns["minitorch"] / ns["torch"])
        print(line, flush=True)
    print("RESULTS " + json.dumps(results))


def main():
    args = parse_args()
    if args.child:
        child(args)
    else:
        parent(args)


if __name__ == "__main__":
    main()
