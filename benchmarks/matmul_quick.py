"""Quick CPU matmul benchmark: GF/s of minitorch's host GEMM against NumPy (and torch when installed),
measured in the same run on square float32/float64 products.

    python benchmarks/matmul_quick.py                 # n = 256, 512, 1024, 2048, all threads
    python benchmarks/matmul_quick.py --threads 1     # single core (sets the thread env vars first)
    python benchmarks/matmul_quick.py --sizes 512,1024

Each library's time is the best of several runs; the libraries take turns three times so that all of
them see about the same machine load. NumPy's number depends on the BLAS it was built with and on OPENBLAS_CORETYPE (forcing Haswell
halves OpenBLAS's float32 speed on AVX-512 machines), so the header prints what ran.
"""

import argparse
import os
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="256,512,1024,2048")
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--threads", type=int, default=0, help="0: each library's default")
    p.add_argument("--no-torch", action="store_true")
    return p.parse_args()


def best_time(fn, reps):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    args = parse_args()
    if args.threads:
        # must be set before the libraries start their thread pools
        for var in ("MINITORCH_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(args.threads)
    import numpy as np

    import minitorch

    torch = None
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            torch = None

    info = minitorch._C._gemm_info()
    print("minitorch kernels: %s; threads %d" % (
        ", ".join("%s %s" % (k, v) for k, v in info.items() if k != "threads"), info["threads"]))
    try:
        cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        blas = "%s %s" % (cfg.get("name"), cfg.get("version"))
    except Exception:  # noqa: BLE001 -- older numpy
        blas = "unknown BLAS"
    print("numpy %s (%s), OPENBLAS_CORETYPE=%s" % (np.__version__, blas,
                                                    os.environ.get("OPENBLAS_CORETYPE", "<unset>")))
    if torch is not None:
        print("torch %s, %d threads" % (torch.__version__, torch.get_num_threads()))
    print()
    header = "%-8s %6s %12s %12s" % ("dtype", "n", "minitorch", "numpy")
    if torch is not None:
        header += " %12s" % "torch"
    header += "   minitorch/numpy"
    print(header + "   (GF/s)")

    rng = np.random.default_rng(0)
    for dtype in args.dtypes.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            a = rng.standard_normal((n, n)).astype(dtype)
            b = rng.standard_normal((n, n)).astype(dtype)
            ma, mb = minitorch.tensor(a), minitorch.tensor(b)
            runs = {"minitorch": lambda: ma @ mb, "numpy": lambda: a @ b}
            if torch is not None:
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                runs["torch"] = lambda: ta @ tb
            reps = max(3, min(20, int(4e9 / (2 * n ** 3))))
            best = {name: float("inf") for name in runs}
            for _ in range(3):
                for name, fn in runs.items():
                    # Each library runs in a block after a pause: OpenBLAS and OpenMP worker threads spin
                    # for a while after a call and would slow down whatever runs next on the same cores.
                    time.sleep(0.25)
                    fn()  # warm-up: thread pools, page faults, kernel choice
                    best[name] = min(best[name], best_time(fn, reps))
            gf = {name: 2 * n ** 3 / t / 1e9 for name, t in best.items()}
            line = "%-8s %6d %12.1f %12.1f" % (dtype, n, gf["minitorch"], gf["numpy"])
            if torch is not None:
                line += " %12.1f" % gf["torch"]
            line += "   %.2f" % (gf["minitorch"] / gf["numpy"])
            print(line, flush=True)


if __name__ == "__main__":
    main()
