"""Registers, spills and stack of every CUDA kernel, as ptxas reports them, for a few architectures.

    python scripts/ptxas_table.py                 # sm_75 and sm_90
    python scripts/ptxas_table.py --arch 80 120   # others
    python scripts/ptxas_table.py --full          # one row per kernel instead of one per family

Compiles each csrc/kernels/cuda/*.cu with the build's nvcc flags (setup.py: -O3, C++17) and
`-Xptxas -v` for each architecture (machine code only; nothing is linked or kept) and prints, per
kernel family (a template's instantiations together: the largest register count among them) or per
kernel, the registers per thread and the bytes of local memory spilled (stores + loads) and of stack
frame. Exits 1 when any kernel spills, so a check can run it. Needs nvcc, no GPU.
"""

import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FUNCTION = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+)'")
USED = re.compile(r"Used (\d+) registers")
SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")


def find_nvcc():
    """setup.py's nvcc (it runs setup() only as __main__, so importing it just defines its functions)."""
    sys.path.insert(0, ROOT)
    try:
        import setup
    finally:
        sys.path.pop(0)
    return setup.find_nvcc()


def demangle(names):
    try:
        done = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
        out = done.stdout.splitlines()
        if len(out) == len(names):
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    return names


def family(name):
    """A kernel's template family: its name without the namespace and template arguments."""
    name = name.replace("(anonymous namespace)::", "")
    if name.startswith("void "):
        name = name[len("void "):]
    return re.sub(r"<.*>", "", name.split("(")[0]).strip()


def ptxas(nvcc, src, arch):
    """[(mangled kernel, registers, stack, spill stores, spill loads)] for one file and architecture."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nvcc, "-c", src, "-o", os.path.join(tmp, "k.o"), "-O3", "-std=c++17", "-I" + os.path.join(ROOT, "csrc"),
               "-gencode", "arch=compute_{0},code=sm_{0}".format(arch), "-Xptxas", "-v"]
        done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("nvcc failed:\n" + done.stderr[-4000:])
    rows, current = [], None
    for line in done.stderr.splitlines():
        m = FUNCTION.search(line)
        if m:
            current = [m.group(1), 0, 0, 0, 0]
            rows.append(current)
            continue
        if current is None:
            continue
        m = SPILL.search(line)
        if m:
            current[2], current[3], current[4] = (int(g) for g in m.groups())
        m = USED.search(line)
        if m:
            current[1] = int(m.group(1))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", nargs="+", default=["75", "90"])
    parser.add_argument("--full", action="store_true", help="one row per kernel")
    args = parser.parse_args()
    nvcc = find_nvcc()
    if nvcc is None:
        print("scripts/ptxas_table.py needs nvcc (none found)")
        return 0
    table = collections.OrderedDict()   # row name -> {arch: [kernels, max regs, max stack, spill bytes]}
    for src in sorted(glob.glob(os.path.join(ROOT, "csrc", "kernels", "cuda", "*.cu"))):
        for arch in args.arch:
            rows = ptxas(nvcc, src, arch)
            names = demangle([r[0] for r in rows])
            for (mangled, regs, stack, stores, loads), name in zip(rows, names):
                key = name if args.full else family(name)
                cell = table.setdefault(key, {}).setdefault(arch, [0, 0, 0, 0])
                cell[0] += 1
                cell[1] = max(cell[1], regs)
                cell[2] = max(cell[2], stack)
                cell[3] += stores + loads
    width = max([len(k) for k in table] + [6])
    head = "{:<{w}}".format("kernel" if args.full else "kernel family", w=width)
    for arch in args.arch:
        head += " | sm_{:<3} n  regs stack spill".format(arch)
    print(head)
    print("-" * len(head))
    spills = 0
    for key, cells in table.items():
        line = "{:<{w}}".format(key, w=width)
        for arch in args.arch:
            n, regs, stack, spill = cells.get(arch, [0, 0, 0, 0])
            line += " | {:>8} {:>5} {:>5} {:>5}".format(n, regs, stack, spill)
            spills += spill
        print(line)
    total = {arch: sum(c.get(arch, [0])[0] for c in table.values()) for arch in args.arch}
    print("kernels per architecture: " + ", ".join("sm_{}: {}".format(a, n) for a, n in total.items()))
    print("spilled bytes (stores + loads), all kernels: {}".format(spills))
    return 1 if spills else 0


if __name__ == "__main__":
    sys.exit(main())
