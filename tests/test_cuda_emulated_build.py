"""The device test suite on an emulated-CUDA build of the whole extension: a check of the CUDA C code
(csrc/runtime/cuda_runtime.c, csrc/kernels/cuda/backend.c, cublas.c, cudnn.c, kernels.cu) on machines
without a GPU.

scripts/build_emulated_cuda.py builds minitorch in its CUDA configuration (MINITORCH_WITH_CUDA, the
real cuda_runtime.c, the cuda backend and cublas.c) into a temporary directory, with kernels.cu compiled
by the host C++ compiler and the CUDA runtime, cuBLAS and cuDNN emulated on the host
(tests/c/cuda_emu/emu_runtime.cpp, tests/c/fake_cublas.c, tests/c/fake_cudnn.c). The emulated device memory is unreadable to the host (a host dereference of a
device pointer is a SIGSEGV), kernels, memsets and pinned async copies are queued as on a stream, and
the emulated cuBLAS checks that every matrix lies in the current device's memory. The device tests then
run against that build in a subprocess and must pass:

  - test_device_semantics, test_cuda_api, test_cuda_kernels, test_cuda_gemm_ex, test_cuda_streams, test_cuda_cudnn
    (one emulated device; test_cuda_cudnn's convolutions through the host cuDNN against the CPU's, its flags,
    algorithm choice and error messages;
    test_cuda_kernels runs its "real GPU" tests, cuBLAS included, since the build is not the simulated GPU,
    and test_cuda_gemm_ex its float16/bfloat16 cublasGemmEx tests, reading the host cuBLAS's record of
    each call);
  - test_multi_gpu and test_cuda_streams' two-device test (two emulated devices);
  - the op tests that take the `device` fixture (test_elementwise, test_math_ops, test_more_math_ops, test_reduce,
    test_matmul, test_shape_index with advanced indexing's gather and scatter, test_reductions_more,
    test_more_reductions, test_bitwise_ops, test_small_int_dtypes, test_half_dtypes, test_windows,
    test_special),
    which run every op on "cuda" too.

Left out: test_cuda_memory and test_seed_gpu_blocks run every scenario in a subprocess that sets
MINITORCH_SIMULATE_GPU, so on any build they test the simulated runtime (the simulated-GPU CI step covers
them); test_cuda_api's CPU-build table compares with torch's CPU build and sees no device. What the
emulation cannot see: the CUDA math library's rounding, a real GPU's memory model and launch limits.

Skipped under MINITORCH_SANITIZED and MINITORCH_SIMULATE_GPU (the other CI steps run the suite in those
settings; this build is checked once, in the plain run).
"""

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")

ONE_DEVICE = ["test_device_semantics.py", "test_cuda_api.py", "test_cuda_kernels.py", "test_cuda_kernel_paths.py",
              "test_cuda_gemm_ex.py",
              "test_elementwise.py", "test_math_ops.py", "test_more_math_ops.py", "test_autograd.py",
              "test_reduce.py", "test_matmul.py", "test_memory_format.py", "test_shape_index.py",
              "test_reductions_more.py", "test_more_reductions.py", "test_data.py", "test_index_ops.py",
              "test_bitwise_ops.py",
              "test_anomaly.py", "test_autograd_functional.py", "test_select_ops.py",
              "test_small_int_dtypes.py", "test_half_dtypes.py", "test_linalg.py", "test_windows.py",
              "test_special.py", "test_scatter_reduce.py", "test_cuda_streams.py", "test_cuda_cudnn.py"]
DESELECT_ONE = ["test_cuda_api.py::test_cpu_build_table_is_what_torch_prints"]
TWO_DEVICES = ["test_multi_gpu.py", "test_cuda_streams.py::test_streams_and_events_of_two_devices"]

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("MINITORCH_SANITIZED") or os.environ.get("MINITORCH_SIMULATE_GPU")),
    reason="the emulated-CUDA build is checked once, in the plain run")

PROBE = """\
#include <tuple>
#include <deque>
#include <mutex>
#include <ucontext.h>
#include <sys/mman.h>
int main() { auto t = std::make_tuple(1, 2.0); return std::apply([](int a, double b) { return a + (int)b; }, t) - 3; }
"""


def _compilers_missing(tmp):
    cxx = shutil.which("g++") or shutil.which("c++")
    cc = shutil.which("gcc") or shutil.which("cc")
    if cxx is None or cc is None:
        return "needs a host C and C++ compiler"
    src = os.path.join(tmp, "probe.cpp")
    with open(src, "w") as f:
        f.write(PROBE)
    done = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", src], capture_output=True, text=True)
    if done.returncode != 0:
        return "the C++ compiler lacks C++17 or the POSIX headers the emulation needs: " + done.stderr[-300:]
    return None


@pytest.fixture(scope="module")
def emulated_build(tmp_path_factory):
    if not os.path.exists(os.path.join(ROOT, "csrc", "kernels", "cuda", "kernels.cu")):
        pytest.skip("this tree has no CUDA kernels")
    out = str(tmp_path_factory.mktemp("emulated_cuda"))
    why = _compilers_missing(out)
    if why:
        pytest.skip(why)
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import build_emulated_cuda
    finally:
        sys.path.pop(0)
    start = time.monotonic()
    try:
        build_emulated_cuda.build(out, quiet=True)
    except subprocess.CalledProcessError as e:
        pytest.fail("the emulated-CUDA build failed:\n%s\n%s" % (e.stdout[-3000:], e.stderr[-3000:]))
    print("emulated-CUDA build: %.1f s" % (time.monotonic() - start))
    return out


def _run_suite(out, files, devices, deselect=()):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_") and k != "CUDA_VISIBLE_DEVICES"
           and k != "CUDA_LAUNCH_BLOCKING"}
    env["MINITORCH_EMU_CUDA_DEVICES"] = str(devices)
    env["PYTHONPATH"] = out
    env["PYTHONFAULTHANDLER"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", ROOT, "-x", "-rfE"]
    cmd += [os.path.join(TESTS, f) for f in files]
    for d in deselect:
        cmd += ["--deselect", os.path.join(TESTS, d)]
    # cwd is the build: `python -m pytest` puts it first on sys.path, and so does every `python -c`
    # the tests start, so they all import the emulated build
    done = subprocess.run(cmd, cwd=out, env=env, capture_output=True, text=True, timeout=900)
    text = done.stdout + done.stderr
    assert done.returncode == 0, "the device tests failed on the emulated-CUDA build:\n" + text[-8000:]
    passed = re.search(r"(\d+) passed", text)
    assert passed, text[-3000:]
    return int(passed.group(1)), text


def _python(out, code, timeout=120):
    """`python -c code` on the build in out (one emulated device), its output captured."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_") and k != "CUDA_VISIBLE_DEVICES"}
    env["PYTHONPATH"] = out
    return subprocess.run([sys.executable, "-c", code], cwd=out, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _check_it_is_the_emulated_build(out):
    code = ("import minitorch as t; i = t._C._cuda_runtimeInfo(); "
            "print(t.__file__, t._C.has_cuda, i['runtime'], i['simulated'], t.cuda.device_count())")
    done = _python(out, code)
    assert done.returncode == 0, done.stdout + done.stderr
    path, has_cuda, runtime, simulated, count = done.stdout.split()
    assert path.startswith(out) and has_cuda == "True" and runtime == "cuda" and simulated == "False"
    assert count == "1"


def test_device_tests_pass_on_one_emulated_device(emulated_build):
    _check_it_is_the_emulated_build(emulated_build)
    passed, text = _run_suite(emulated_build, ONE_DEVICE, devices=1, deselect=DESELECT_ONE)
    # the CUDA half of these files runs here: hundreds of tests, not a handful that happen not to skip
    assert passed >= 500, text[-3000:]


def test_multi_gpu_tests_pass_on_two_emulated_devices(emulated_build):
    passed, text = _run_suite(emulated_build, TWO_DEVICES, devices=2)
    assert passed >= 15 and "skipped" not in text.splitlines()[-1], text[-3000:]


def test_host_dereference_of_device_memory_crashes(emulated_build):
    """The emulation's point: device memory is not host memory. Reading a CUDA tensor's data pointer on
    the host must kill the process (SIGSEGV) with the emulation's message, never return bytes."""
    code = ("import ctypes, minitorch as t; x = t.ones(4).cuda(); "
            "print(ctypes.c_float.from_address(x.data_ptr()).value)")
    done = _python(emulated_build, code)
    assert done.returncode == -11, (done.returncode, done.stdout, done.stderr)
    assert "host access to device memory" in done.stderr and done.stdout == ""


def test_without_cudnn_convolution_falls_back(emulated_build, tmp_path):
    """The same build with no cuDNN library next to it: is_available() False, version() None, and CUDA
    convolution (forward and backward) through minitorch's im2col and cuBLAS, with the CPU's values."""
    copy = str(tmp_path / "no_cudnn")
    shutil.copytree(os.path.join(emulated_build, "minitorch"), os.path.join(copy, "minitorch"), symlinks=True,
                    ignore=shutil.ignore_patterns("libcudnn.so*", "__pycache__"))
    code = ("import minitorch as t, minitorch.nn.functional as F\n"
            "x = (t.arange(2 * 4 * 5 * 6.) % 7 / 4 - 0.75).view(2, 4, 5, 6); w = (t.arange(6 * 2 * 3 * 2.) % 5 / 4 - 0.5).view(6, 2, 3, 2)\n"
            "xc, wc = x.cuda().requires_grad_(), w.cuda().requires_grad_(); x.requires_grad_(); w.requires_grad_()\n"
            "a = F.conv2d(x, w, stride=(2, 1), padding=1, dilation=(1, 2), groups=2); a.sum().backward()\n"
            "b = F.conv2d(xc, wc, stride=(2, 1), padding=1, dilation=(1, 2), groups=2); b.sum().backward()\n"
            "print(t.backends.cudnn.is_available(), t.backends.cudnn.version(), t.equal(a, b.cpu()), "
            "t.equal(x.grad, xc.grad.cpu()), t.equal(w.grad, wc.grad.cpu()), b.grad_fn.name())\n")
    done = _python(copy, code, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["False", "None", "True", "True", "True", "ConvolutionBackward0"]
