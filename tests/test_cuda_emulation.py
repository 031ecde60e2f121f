"""The CUDA kernels and the cuBLAS translation, run on the host: a check for machines without a GPU.

csrc/kernels/cuda/kernels.cu is compiled with the host C++ compiler against tests/c/cuda_emu (a stand-in
CUDA runtime: kernels become functions, each launch runs its blocks one after another, each CUDA thread
as a fiber, so __syncthreads and __shared__ behave; launches rewritten by tests/c/cuda_emu/rewrite.py), and csrc/kernels/cuda/cublas.c against
a host cuBLAS (tests/c/fake_cublas.c, with cuBLAS's argument checks). tests/c/cuda_emu_check.cpp then
compares every kernel family (cast, fill, binary, unary, reductions with their split-across-blocks
plans, Philox against csrc/kernels/cpu/philox.c, advanced indexing against csrc/kernels/cpu/index.c)
and mt_cuda_gemm's row-major/column-major mapping, packing, batching, workspace sizes and error texts
with references written there.

What this cannot see: GPU memory semantics, launch limits of a real device, the CUDA math library's
rounding (exp, log), and speed. tests/test_cuda_kernels.py covers those on a real GPU.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSRC = os.path.join(ROOT, "csrc")
KERNELS = os.path.join(CSRC, "kernels", "cuda", "kernels.cu")
EMU_MAJOR = "99"  # a cuBLAS major version no machine has, so only the fake one is ever found

EMU_DIR = os.path.join(ROOT, "tests", "c", "cuda_emu")

sys.path.insert(0, EMU_DIR)
from rewrite import rewrite_kernels  # noqa: E402  (tests/c/cuda_emu/rewrite.py, shared with setup.py)

sys.path.remove(EMU_DIR)


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    if not os.path.exists(KERNELS):
        pytest.skip("this tree has no CUDA kernels")
    cxx = shutil.which("g++") or shutil.which("c++")
    cc = shutil.which("gcc") or shutil.which("cc")
    if cxx is None or cc is None:
        pytest.skip("needs a host C and C++ compiler")
    out = tmp_path_factory.mktemp("cuda_emu")
    with open(KERNELS, encoding="utf-8") as f:
        (out / "kernels_emu.inc").write_text(rewrite_kernels(f.read(), CSRC), encoding="utf-8")
    defines = ["-DMINITORCH_WITH_CUDA=1", '-DMINITORCH_CUDA_VERSION="%s.0"' % EMU_MAJOR]
    steps = [
        [cc, "-std=c11", "-O1", "-fPIC", "-shared", os.path.join(ROOT, "tests", "c", "fake_cublas.c"), "-o",
         str(out / ("libcublas.so." + EMU_MAJOR))],
        [cc, "-std=c11", "-O1", "-c", os.path.join(CSRC, "kernels", "cpu", "philox.c"), "-o", str(out / "philox.o")],
        [cc, "-std=c11", "-O1", "-c", os.path.join(CSRC, "kernels", "cpu", "index.c"), "-o", str(out / "index.o")],
        [cc, "-std=c11", "-O1", "-c", os.path.join(CSRC, "kernels", "cuda", "cublas.c"), "-o", str(out / "cublas.o"),
         "-I" + CSRC] + defines,
        [cxx, "-std=c++20", "-O1", "-pthread", os.path.join(ROOT, "tests", "c", "cuda_emu_check.cpp"),
         os.path.join(EMU_DIR, "emu_runtime.cpp"), str(out / "philox.o"), str(out / "index.o"), str(out / "cublas.o"), "-o",
         str(out / "cuda_emu_check"), "-I" + str(out),
         "-I" + os.path.join(ROOT, "tests", "c", "cuda_emu"), "-I" + CSRC,
         '-DMT_EMU_CUDA_MAJOR="%s"' % EMU_MAJOR] + defines + ["-ldl"],
    ]
    for cmd in steps:
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            if "barrier" in done.stderr and "No such file" in done.stderr:
                pytest.skip("the C++ compiler has no C++20 <barrier>")
            pytest.fail("building the emulation failed:\n%s\n%s" % (" ".join(cmd), done.stderr[-4000:]))
    return out


def run(checker, mode, with_fake_cublas):
    env = dict(os.environ)
    env.pop("CUBLAS_WORKSPACE_CONFIG", None)
    env["CUDA_LAUNCH_BLOCKING"] = "1"  # the checks read results right after each launch
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.pop("MINITORCH_EMU_CUDA_DEVICES", None)
    if with_fake_cublas:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(checker), env.get("LD_LIBRARY_PATH")) if p)
    done = subprocess.run([str(checker / "cuda_emu_check"), mode], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stdout[-6000:] + done.stderr[-2000:]


def test_kernels_match_their_references(checker):
    run(checker, "kernels", False)


def test_cublas_translation_matches_a_reference_gemm(checker):
    run(checker, "cublas", True)


def test_missing_cublas_is_a_clear_error(checker):
    import ctypes.util

    if ctypes.util.find_library("cublas"):
        pytest.skip("an unversioned libcublas.so is installed; the missing-library path cannot be provoked")
    run(checker, "nocublas", False)
