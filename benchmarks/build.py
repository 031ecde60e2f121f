"""Build-time benchmark: a clean CUDA build of minitorch for the default architecture list against one
for a single architecture (what a build on a machine with a GPU compiles), and a second build in the
same place with nothing changed.

    python benchmarks/build.py               # default list vs MINITORCH_CUDA_ARCH=90
    python benchmarks/build.py --arch 75     # vs another single architecture

Each build runs `python setup.py build_ext --inplace` in a fresh copy of the checkout (the files git
tracks, as a clone has them), so nothing is reused from earlier builds; the printed stage lines are the
build's own. Needs nvcc (a CPU-only machine prints why it cannot run). The default list is passed
explicitly, so that a machine with a GPU, where the build would otherwise choose that GPU alone, measures
it too.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_setup():
    """setup.py as a module (it calls setup() only when run as __main__)."""
    spec = importlib.util.spec_from_file_location("minitorch_setup", os.path.join(ROOT, "setup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def copy_checkout(dest):
    """The files git tracks, as a clone has them; without git, the sources a build reads."""
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = ["setup.py", "pyproject.toml", "README.md", "LICENSE"]
        for top in ("csrc", "minitorch", os.path.join("tests", "c")):
            for folder, _, files in os.walk(os.path.join(ROOT, top)):
                listed += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files
                           if not f.endswith((".so", ".o", ".pyc"))]
    for rel in filter(None, listed):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))


def timed_build(checkout, archs):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_")}
    env.update(MINITORCH_CUDA="1", MINITORCH_CUDA_ARCH=archs)
    start = time.monotonic()
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=checkout, env=env,
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise SystemExit("the build failed (MINITORCH_CUDA_ARCH=%s)" % archs)
    for line in done.stdout.splitlines():
        if line.startswith("minitorch build:"):
            print("    " + line)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="90", help="the single architecture (default 90: H100/H200)")
    args = parser.parse_args()
    setup_py = load_setup()
    nvcc = setup_py.find_nvcc()
    if nvcc is None:
        raise SystemExit("no nvcc here: a CUDA build cannot be timed")
    default, _, _ = setup_py.cuda_archs(setup_py.nvcc_known_archs(nvcc), "", lambda: [])
    print("python %s; %d CPUs; nvcc at %s" % (sys.version.split()[0], os.cpu_count() or 0, nvcc))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, archs in (("default list (%s)" % ", ".join(default), ";".join(default)),
                             ("one architecture (%s)" % args.arch, args.arch)):
            checkout = os.path.join(tmp, "arch-" + archs.replace(";", "-"))
            copy_checkout(checkout)
            print("clean build, " + label)
            rows.append((label, timed_build(checkout, archs)))
        print("second build in the same checkout, nothing changed")
        rows.append(("rebuild, nothing changed (%s)" % args.arch, timed_build(checkout, args.arch)))
    print()
    print("| build | seconds |")
    print("|---|---|")
    for label, seconds in rows:
        print("| %s | %.1f |" % (label, seconds))
    print()
    print("one architecture is %.2fx faster than the default list (the target is at least 3x)"
          % (rows[0][1] / rows[1][1]))


if __name__ == "__main__":
    main()
