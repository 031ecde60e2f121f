"""Element-wise math and sort: minitorch against NumPy and torch (when installed), in the same run.

    python benchmarks/ops.py              # minitorch's default thread count for minitorch and torch
    python benchmarks/ops.py --quick      # fewer repeats (a smoke run)

What it measures, on float32 (1e7 elements for the element-wise ops, 1e6 for sort): sin, exp, pow(x, 2.5),
clamp(x, -0.5, 0.5), where(x > 0, x, y), and sort; on float16 and bfloat16 (1e7 elements): add, mul, exp and
relu (NumPy's float16 stands in for bfloat16, which it lacks). Each figure is the best of several runs, the three
libraries taking turns; torch runs with minitorch's thread count (NumPy's ufuncs use one thread). Ratios are
speeds, minitorch's over the other's (above 1: minitorch is faster). The acceptance rows are the op-breadth
issue's: >= 1.0x torch and NumPy for the float32 element-wise ops, >= 0.8x torch for sort and for the 16-bit
ops.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time, load  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--no-torch", action="store_true")
    args = p.parse_args()

    import numpy as np

    import minitorch as mt
    torch = None
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            pass
    threads = mt.get_num_threads()
    if torch is not None:
        torch.set_num_threads(threads)
    print("minitorch ops benchmark; python %s; %s; %d threads for minitorch and torch" % (
        sys.version.split()[0], load(), threads))
    n, ns = 10 ** 7, 10 ** 6
    rng = np.random.default_rng(0)
    xa = rng.standard_normal(n, dtype=np.float32)
    ya = rng.standard_normal(n, dtype=np.float32)
    sa = rng.standard_normal(ns, dtype=np.float32)
    libs = {"numpy": None, "minitorch": mt}
    if torch is not None:
        libs["torch"] = torch
    data = {}
    for name, lib in libs.items():
        if lib is None:
            data[name] = (xa, ya, sa)
        else:
            data[name] = (lib.from_numpy(xa.copy()), lib.from_numpy(ya.copy()), lib.from_numpy(sa.copy()))

    # float16 and bfloat16 copies (NumPy has no bfloat16: its float16 stands in for both)
    half = {}
    for name, lib in libs.items():
        x, y, _ = data[name]
        if lib is None:
            half[name] = {"f16": (x.astype(np.float16), y.astype(np.float16))}
            half[name]["bf16"] = half[name]["f16"]
        else:
            half[name] = {"f16": (x.to(lib.float16), y.to(lib.float16)),
                          "bf16": (x.to(lib.bfloat16), y.to(lib.bfloat16))}

    def reduced_ops(name, lib):
        table = {}
        for kind in ("f16", "bf16"):
            hx, hy = half[name][kind]
            table["add " + kind] = (lambda a=hx, b=hy: a + b)
            table["mul " + kind] = (lambda a=hx, b=hy: a * b)
            table["exp " + kind] = (lambda a=hx: (np if lib is None else lib).exp(a))
            table["relu " + kind] = ((lambda a=hx: np.maximum(a, 0)) if lib is None else (lambda a=hx: lib.relu(a)))
        return table

    def ops(name):
        x, y, s = data[name]
        if name == "numpy":
            return {"sin": lambda: np.sin(x), "exp": lambda: np.exp(x), "pow 2.5": lambda: np.power(x, 2.5),
                    "clamp": lambda: np.clip(x, -0.5, 0.5), "where": lambda: np.where(x > 0, x, y),
                    "sort 1e6": lambda: np.sort(s), **reduced_ops(name, None)}
        lib = libs[name]
        return {"sin": lambda: lib.sin(x), "exp": lambda: lib.exp(x), "pow 2.5": lambda: lib.pow(x, 2.5),
                "clamp": lambda: lib.clamp(x, -0.5, 0.5), "where": lambda: lib.where(x > 0, x, y),
                "sort 1e6": lambda: lib.sort(s), **reduced_ops(name, lib)}

    table = {name: ops(name) for name in libs}
    repeats, rounds = (2, 2) if args.quick else (4, 3)
    results = {}
    for op in table["numpy"]:
        best = {}
        for _ in range(rounds):
            for name in libs:
                t = best_time(table[name][op], repeats, 1)
                best[name] = min(best.get(name, t), t)
        results[op] = best
    print("%-10s %12s %12s %12s %10s %10s" % ("op", "minitorch ms", "numpy ms", "torch ms", "vs numpy", "vs torch"))
    for op, best in results.items():
        th = best.get("torch")
        print("%-10s %12.2f %12.2f %12s %10.2f %10s" % (
            op, best["minitorch"] * 1e3, best["numpy"] * 1e3, "%.2f" % (th * 1e3) if th else "-",
            best["numpy"] / best["minitorch"], "%.2f" % (th / best["minitorch"]) if th else "-"))
    print("acceptance (speed ratios from this run)")
    for op, best in results.items():
        reduced = op.endswith("16")
        bounds = [("torch", 0.8)] if op.startswith("sort") or reduced else [("torch", 1.0), ("numpy", 1.0)]
        for lib, bound in bounds:
            if lib not in best:
                continue
            r = best[lib] / best["minitorch"]
            print("  %-28s %6.2f   %s" % ("%s vs %s (>= %.1fx)" % (op, lib, bound), r, "met" if r >= bound else
                                          "NOT MET"))
    print("after: %s" % load())


if __name__ == "__main__":
    main()
