"""Convolution through cuDNN on a CUDA device: torch.backends.cudnn.is_available() and version() say what
was loaded, and conv1d/2d/3d forward and backward (groups, stride, padding, dilation, bias) through
_C._cudnn_convolution and its backward passes give the CPU's values, with the node torch names
(ConvolutionBackward0); torch.backends.cudnn's flags reach cuDNN (deterministic algorithms only,
benchmark's timed search cached per shape, FMA math unless allow_tf32), a failed cuDNN call raises
torch's RuntimeError "cuDNN error: CUDNN_STATUS_...", enabled=False and create_graph=True take minitorch's
own im2col path.

These tests need a CUDA device with cuDNN: a real GPU with libcudnn, or the emulated-CUDA build
(tests/test_cuda_emulated_build.py), whose host cuDNN (tests/c/fake_cudnn.c) computes the passes with
direct loops and says which algorithm, math type and search each call used; the tests reading those skip
on a real GPU.
"""

import ctypes
import os
import random

import pytest

import minitorch
from minitorch import _C
import minitorch.nn.functional as F

FMA_MATH, TENSOR_OP_MATH, DEFAULT_MATH = 3, 1, 0


@pytest.fixture(scope="module", autouse=True)
def cudnn_device():
    if not minitorch.cuda.is_available() or _C._cuda_isSimulated() or _C._cudnn_version() is None:
        if os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail("MINITORCH_REQUIRE_GPU=1 but there is no real CUDA GPU with cuDNN")
        pytest.skip("needs a CUDA device with cuDNN (a real GPU or the emulated-CUDA build)")


@pytest.fixture(autouse=True)
def default_flags():
    cudnn = minitorch.backends.cudnn
    saved = (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32)
    yield
    cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32 = saved


@pytest.fixture
def fake():
    path = os.path.join(os.path.dirname(_C.__file__), "libcudnn.so.99")
    if not os.path.exists(path):
        pytest.skip("reads the emulated-CUDA build's host cuDNN")
    return ctypes.CDLL(path)    # the copy cudnn.c loaded: the same file, so the same handle


def _values(shape, seed):
    """Quarters in [-2, 2]: products and their sums are exact in float32, whatever the order."""
    rng = random.Random(seed)
    n = 1
    for s in shape:
        n *= s
    return minitorch.tensor([rng.randint(-8, 8) / 4 for _ in range(n)]).view(shape)


CASES = [
    # dims, (N, C, *size), (O, C / groups, *kernel), stride, padding, dilation, groups, bias
    (2, (2, 4, 7, 6), (6, 2, 3, 2), (2, 1), (1, 2), (1, 2), 2, True),
    (2, (1, 3, 5, 5), (4, 3, 3, 3), (1, 1), (0, 0), (1, 1), 1, False),
    (2, (3, 6, 9, 8), (6, 1, 2, 3), (3, 2), (2, 1), (2, 1), 6, True),
    (1, (2, 4, 11), (4, 2, 3), (2,), (1,), (2,), 2, True),
    (3, (1, 2, 4, 5, 4), (3, 2, 2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 1, True),
]


@pytest.mark.parametrize("case", CASES, ids=["2d-groups", "2d-plain", "2d-depthwise", "1d", "3d"])
def test_forward_and_backward_are_the_cpus(case):
    dims, xs, ws, stride, padding, dilation, groups, has_bias = case
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[dims]
    x, w = _values(xs, 1), _values(ws, 2)
    b = _values((ws[0],), 3) if has_bias else None
    results = []
    for device in ("cpu", "cuda"):
        xd = x.to(device).detach().requires_grad_()
        wd = w.to(device).detach().requires_grad_()
        bd = b.to(device).detach().requires_grad_() if has_bias else None
        out = conv(xd, wd, bd, stride=stride, padding=padding, dilation=dilation, groups=groups)
        assert out.grad_fn.name() == "ConvolutionBackward0"
        out.backward(_values(out.shape, 4).to(device))
        results.append([out.detach().cpu(), xd.grad.cpu(), wd.grad.cpu()] + ([bd.grad.cpu()] if has_bias else []))
    for got, want in zip(results[1], results[0]):
        assert got.shape == want.shape and minitorch.equal(got, want)


def test_the_passes_run_in_cudnn(fake):
    x = _values((2, 4, 6, 5), 5).cuda().requires_grad_()
    w = _values((4, 2, 3, 3), 6).cuda().requires_grad_()
    out = F.conv2d(x, w, groups=2, padding=1)
    assert fake.fake_cudnn_last_pass() == 0
    out.sum().backward()
    assert fake.fake_cudnn_last_pass() in (1, 2)    # backward data and filter, in the engine's order
    assert x.grad is not None and w.grad is not None


@pytest.mark.parametrize("dtype", [minitorch.float64, minitorch.float16, minitorch.bfloat16])
def test_other_floating_dtypes(dtype, fake):
    x, w = _values((2, 3, 6, 5), 7).to(dtype), _values((4, 3, 2, 3), 8).to(dtype)
    want = F.conv2d(x.double(), w.double(), stride=2, padding=1).to(dtype)
    got = F.conv2d(x.cuda(), w.cuda(), stride=2, padding=1)
    assert got.dtype == dtype and minitorch.equal(got.cpu(), want)
    # torch's math types: tensor cores for float16, cuDNN's default for the others; 16-bit data computed in float
    assert fake.fake_cudnn_last_math_type() == (TENSOR_OP_MATH if dtype == minitorch.float16 else DEFAULT_MATH)
    assert fake.fake_cudnn_last_compute_type() == (1 if dtype == minitorch.float64 else 0)


def test_allow_tf32_sets_the_math_type(fake):
    x, w = _values((1, 2, 5, 5), 9).cuda(), _values((2, 2, 3, 3), 10).cuda()
    minitorch.backends.cudnn.allow_tf32 = True
    F.conv2d(x, w)
    assert fake.fake_cudnn_last_math_type() == DEFAULT_MATH     # TF32 where the GPU has it
    minitorch.backends.cudnn.allow_tf32 = False
    F.conv2d(x, w)
    assert fake.fake_cudnn_last_math_type() == FMA_MATH


def test_deterministic_and_benchmark_choose_the_algorithm(fake):
    # the fake's heuristics rank algorithm 1 (non-deterministic, 4 KiB workspace) first, its timed search 2
    x, w = _values((1, 2, 6, 7), 11).cuda(), _values((3, 2, 3, 2), 12).cuda()
    F.conv2d(x, w)
    assert fake.fake_cudnn_last_algo() == 1 and fake.fake_cudnn_last_workspace_size() == 4096
    minitorch.backends.cudnn.deterministic = True
    F.conv2d(x, w)
    assert fake.fake_cudnn_last_algo() == 0
    minitorch.backends.cudnn.deterministic = False
    minitorch.backends.cudnn.benchmark = True
    x2 = _values((1, 2, 9, 7), 13).cuda()
    finds = fake.fake_cudnn_find_calls()
    F.conv2d(x2, w)
    assert fake.fake_cudnn_last_algo() == 2 and fake.fake_cudnn_find_calls() == finds + 1
    F.conv2d(x2, w)                 # the same shape: the cached choice, no second search
    assert fake.fake_cudnn_last_algo() == 2 and fake.fake_cudnn_find_calls() == finds + 1


def test_a_failed_call_raises_torchs_error(fake):
    x, w = _values((1, 2, 5, 5), 14).cuda(), _values((2, 2, 3, 3), 15).cuda()
    fake.fake_cudnn_fail_next(2000)
    with pytest.raises(RuntimeError, match=r"^cuDNN error: CUDNN_STATUS_BAD_PARAM$"):
        F.conv2d(x, w)
    fake.fake_cudnn_fail_next(3000)
    with pytest.raises(RuntimeError, match=r"^cuDNN error: CUDNN_STATUS_NOT_SUPPORTED\. This error may appear if "
                                           r"you passed in a non-contiguous input\.$"):
        F.conv2d(x, w)
    assert minitorch.equal(F.conv2d(x, w).cpu(), F.conv2d(x.cpu(), w.cpu()))   # and the next call works


def test_is_available_and_version(fake):
    assert minitorch.backends.cudnn.is_available() is True
    assert minitorch.backends.cudnn.version() == 91002      # the fake's cudnnGetVersion()
    assert minitorch.backends.cudnn.is_acceptable(minitorch.zeros(2, device="cuda")) is True


def test_disabled_and_create_graph_take_the_im2col_path(fake):
    x = _values((1, 2, 5, 6), 16).cuda().requires_grad_()
    w = _values((3, 2, 2, 2), 17).cuda().requires_grad_()
    want = F.conv2d(x.detach().cpu(), w.detach().cpu())
    minitorch.backends.cudnn.enabled = False
    fake.fake_cudnn_fail_next(2000)     # armed: any cuDNN call would fail
    assert minitorch.equal(F.conv2d(x, w).detach().cpu(), want)
    minitorch.backends.cudnn.enabled = True
    fake.fake_cudnn_fail_next(0)
    out = F.conv2d(x, w)
    (gx,) = minitorch.autograd.grad(out.pow(2).sum(), x, create_graph=True)
    assert gx.requires_grad                 # a graph: the differentiable im2col backward
    gx.sum().backward()
    assert w.grad is not None


def test_empty_batch():
    x, w = minitorch.zeros(0, 2, 5, 5, device="cuda", requires_grad=True), _values((3, 2, 3, 3), 18).cuda()
    w.requires_grad_()
    out = F.conv2d(x, w)
    assert out.shape == (0, 3, 3, 3)
    out.sum().backward()
    assert x.grad.shape == x.shape and minitorch.equal(w.grad.cpu(), minitorch.zeros(3, 2, 3, 3))
