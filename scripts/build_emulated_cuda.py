"""Builds minitorch's emulated-CUDA test build (setup.py with MINITORCH_CUDA=emulate) into a directory
outside the checkout, leaving the in-place build alone.

    python scripts/build_emulated_cuda.py OUT_DIR

OUT_DIR/minitorch then is the Python package with its extension, libmt_cudart_emu.so (the emulated CUDA
runtime, tests/c/cuda_emu), libcublas.so.99 (the host cuBLAS, tests/c/fake_cublas.c) and libcudnn.so.99
(the host cuDNN, tests/c/fake_cudnn.c); run anything
with PYTHONPATH=OUT_DIR. MINITORCH_EMU_CUDA_DEVICES (default 1) and MINITORCH_EMU_CUDA_MEMORY set the
emulated devices at run time. Object files go to OUT_DIR/build, so a rebuild into the same directory is
incremental. A test tool: the kernels run on the host, slowly, with none of a GPU's numerics.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(out_dir, quiet=False):
    """Builds into out_dir; returns the path of the package directory. Raises CalledProcessError (with
    the build's output) on failure."""
    out_dir = os.path.abspath(out_dir)
    package = os.path.join(out_dir, "minitorch")
    os.makedirs(out_dir, exist_ok=True)
    # the pure-Python part of the package, as it is in the checkout (extension modules excluded)
    shutil.copytree(os.path.join(ROOT, "minitorch"), package, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.so", "*.so.*", "__pycache__"))
    env = dict(os.environ, MINITORCH_CUDA="emulate")
    cmd = [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", out_dir,
           "--build-temp", os.path.join(out_dir, "build")]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if not quiet or done.returncode != 0:
        sys.stdout.write(done.stdout)
        sys.stderr.write(done.stderr)
    done.check_returncode()
    return package


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    args = parser.parse_args()
    start = time.monotonic()
    package = build(args.out_dir)
    print("emulated CUDA build in %s (%.1f s); run with PYTHONPATH=%s"
          % (package, time.monotonic() - start, os.path.abspath(args.out_dir)))


if __name__ == "__main__":
    main()
