"""minitorch.save / minitorch.load against torch.save / torch.load on a large state_dict, in one run.

    python benchmarks/save_load.py              # a 256 MiB state_dict
    python benchmarks/save_load.py --gib        # 1 GiB (the issue's figure)
    python benchmarks/save_load.py --mib 64 --repeat 5 --dir /path/on/the/disk/to/measure

The state_dict is a stack of float32 Linear layers (weights and biases, as a model's). Each row is the
best of --repeat runs, minitorch's and torch's taken in turn (each save writes a new file), writing to and reading from files in
--dir (the page cache is warm after the first run, for both libraries alike). "speed" is torch's time over minitorch's: 1.0 is as fast as
torch, above 1.0 faster. The mmap row maps the file (torch: mmap=True as well) and is compared with
the cost of opening the file and reading its central directory (zipfile), its floor.
"""

import argparse
import os
import tempfile
import time
import zipfile

import minitorch

try:
    import torch
except ImportError:
    torch = None


def state_dict(mod, mib):
    """{"layers.<i>.weight": (1024, 1024) float32, "layers.<i>.bias": (1024,)} adding up to about mib MiB."""
    mod.manual_seed(0)
    out = {}
    for i in range(max(1, mib // 4)):
        out["layers.{}.weight".format(i)] = mod.randn(1024, 1024)
        out["layers.{}.bias".format(i)] = mod.randn(1024)
    return out


def measure(cases, repeat, before=None):
    """{name: best time} of each case, the cases run in turn within each repeat (in the opposite order
    every other repeat), so that minitorch and torch meet the same load and the same state of the page
    cache on a shared machine. ``before(name)``, when given, runs untimed before each case."""
    times = {name: [] for name in cases}
    for r in range(repeat):
        for name in (list(cases) if r % 2 == 0 else list(cases)[::-1]):
            if before is not None:
                before(name)
            start = time.perf_counter()
            cases[name]()
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def remove_target(paths):
    """A ``before`` for the save cases: each save writes a new file (removing the last one, 1 GiB of page
    cache, is not part of either library's time)."""
    def before(name):
        if os.path.exists(paths[name]):
            os.remove(paths[name])
    return before


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--gib", action="store_true", help="1 GiB (overrides --mib)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the files go (default: a temporary folder)")
    args = parser.parse_args()
    mib = 1024 if args.gib else args.mib
    folder = tempfile.mkdtemp(dir=args.dir)
    m_path, t_path = os.path.join(folder, "m.pt"), os.path.join(folder, "t.pt")
    try:
        sd_m = state_dict(minitorch, mib)
        sd_t = state_dict(torch, mib) if torch is not None else None
        cases = {"save m": lambda: minitorch.save(sd_m, m_path)}
        if torch is not None:
            cases["save t"] = lambda: torch.save(sd_t, t_path)
        best = measure(cases, args.repeat, remove_target({"save m": m_path, "save t": t_path}))
        del sd_m, sd_t
        cases = {"load m": lambda: minitorch.load(m_path), "mmap m": lambda: minitorch.load(m_path, mmap=True),
                 "floor": lambda: zipfile.ZipFile(m_path).infolist()}
        if torch is not None:
            cases.update({"load t": lambda: torch.load(t_path), "mmap t": lambda: torch.load(t_path, mmap=True)})
        best.update(measure(cases, args.repeat))
        floor = best["floor"]
        rows = [(name, best[key + " m"], best.get(key + " t"))
                for name, key in (("save", "save"), ("load", "load"), ("load mmap=True", "mmap"))]
        size = os.path.getsize(m_path)
    finally:
        for path in (m_path, t_path):
            if os.path.exists(path):
                os.remove(path)
        os.rmdir(folder)
    print("state_dict of {:.0f} MiB ({} tensors), best of {}".format(size / 2 ** 20, 2 * max(1, mib // 4),
                                                                     args.repeat))
    print("{:<16} {:>12} {:>12} {:>8}".format("", "minitorch s", "torch s", "speed"))
    for name, m, t in rows:
        if t is None:
            print("{:<16} {:>12.4f} {:>12} {:>8}".format(name, m, "-", "-"))
        else:
            print("{:<16} {:>12.4f} {:>12.4f} {:>7.2f}x".format(name, m, t, t / m))
    print("{:<16} {:>12.4f}   (opening the file and reading its directory: mmap's floor)".format("zip directory",
                                                                                               floor))


if __name__ == "__main__":
    main()
