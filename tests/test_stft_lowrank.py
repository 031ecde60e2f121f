"""stft / istft and svd_lowrank / pca_lowrank against torch.

stft: values (torch's view_as_real layout, return_complex=False) to rounding, since torch's FFT (MKL/pocketfft)
and minitorch's float64 DFT round differently; shapes, dtypes and strides exactly; every option (center and the
four pad modes, hop_length, win_length, windows of other dtypes, normalized, onesided, align_to_window), 1-D and
2-D inputs, float32 and float64, every device; the gradient through input and window; torch's checks, messages
and warnings (once per process, checked in fresh interpreters); the refusal of return_complex=True
(NotImplementedError: no complex dtype) and istft's error for a real input.

svd_lowrank / pca_lowrank: after the same manual_seed the random matrices are torch's, so singular values and
the products U diag(S) V^T agree with torch's to the rounding of the QR and SVD kernels (the vectors themselves
may differ in sign); shapes, dtypes, batching, M, wide matrices, every device, gradients, torch's errors."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare, import_torch, normalize  # noqa: E402
from subproc import run_python  # noqa: E402

import minitorch  # noqa: E402
from minitorch.autograd import gradcheck  # noqa: E402

SHOW = """
def show(f):
    try:
        r = f()
        if isinstance(r, tuple):
            print([(t.dtype, t.shape) for t in r])
        else:
            print(r.dtype, r.shape, r.stride())
    except Exception as e:
        print(type(e).__name__, e)
"""

ERRORS = [
    # the Python layer (align_to_window with center, F.pad's checks) then the native op's checks in its order
    """
x = torch.arange(20.)
show(lambda: torch.stft(x, 8))
show(lambda: torch.stft(x, 8, return_complex=False))
for bad in [x.long(), x.int(), x.bool(), x.view(2, 2, 5), x.view(1, 1, 2, 10), torch.tensor(1.), x.half(),
            x.bfloat16(), torch.ones(3, 0), torch.ones(0)]:
    show(lambda: torch.stft(bad, 4, return_complex=False))
    show(lambda: torch.stft(bad, 4, center=False, return_complex=False))
    show(lambda: torch.stft(bad, 4, center=False, return_complex=True))  # the checks before the complex result
for kw in [dict(n_fft=100), dict(n_fft=30, center=False), dict(n_fft=30, win_length=5, center=False),
           dict(n_fft=0), dict(n_fft=-2), dict(n_fft=8, hop_length=0), dict(n_fft=8, hop_length=-3),
           dict(n_fft=8, win_length=9), dict(n_fft=8, win_length=0), dict(n_fft=8, window=torch.ones(7)),
           dict(n_fft=8, window=torch.ones(8, 8)), dict(n_fft=8, window=torch.ones(5), win_length=5),
           dict(n_fft=8, window=torch.ones(8, dtype=torch.float64)), dict(n_fft=8, window=torch.ones(8).long()),
           dict(n_fft=8, window=torch.ones(8).bool()), dict(n_fft=8, window=torch.ones(8).half()),
           dict(n_fft=8, align_to_window=True), dict(n_fft=8, align_to_window=False),
           dict(n_fft=8, center=False, align_to_window=False), dict(n_fft=8, pad_mode="foo"),
           dict(n_fft=8, pad_mode="constant"), dict(n_fft=8, pad_mode="circular"), dict(n_fft=8, pad_mode="replicate"),
           dict(n_fft=8.0), dict(n_fft="8"), dict(n_fft=8, hop_length=2.0), dict(n_fft=8, win_length=None),
           dict(n_fft=8, window=torch.ones(8, device="meta")), dict(n_fft=8, onesided=False, normalized=True),
           dict(n_fft=8, bogus=1)]:
    show(lambda: torch.stft(x, return_complex=False, **kw))
    show(lambda: torch.stft(x.double().view(2, 10), return_complex=False, **kw))
# align_to_window: torch pads `left` zeros each side and counts frames by win_length, so the last frame may not fit
for L, nf, wl, hop in [(20, 7, 4, 2), (21, 8, 3, 3), (21, 8, 5, 2), (20, 8, 4, 2), (22, 7, 6, 3)]:
    show(lambda: torch.stft(torch.arange(float(L)), nf, hop, wl, torch.ones(wl), center=False, align_to_window=True,
                            return_complex=False))
    show(lambda: torch.stft(torch.ones(2, L), nf, hop, wl, None, center=False, align_to_window=True,
                            return_complex=False))
show(lambda: torch.stft([1.0] * 20, 8, return_complex=False))
show(lambda: torch.stft(x, 8, 2, 8, None, True, "reflect", False, None, False))
show(lambda: x.stft(8, 2, 8, None, True, "reflect", False, None, False))
show(lambda: x.stft(8, return_complex=False, window=torch.ones(8)))
show(lambda: x.stft(8))
show(lambda: torch.functional.stft(x, 8, return_complex=False))
""",
    # istft: the parse, the window's device, then the error for a real input
    """
y = torch.ones(5, 3, 2)
for kw in [dict(), dict(window=torch.ones(8)), dict(window=torch.ones(8, device="meta")), dict(length=4),
           dict(return_complex=True), dict(center=False, normalized=True, onesided=False)]:
    show(lambda: torch.istft(y, 8, **kw))
    show(lambda: y.istft(8, **kw))
show(lambda: torch.istft(y, 8.5))
show(lambda: torch.istft(y.long(), 8))
show(lambda: torch.istft(torch.tensor(1.), 8))
show(lambda: torch.functional.istft(y, 8))
""",
    # the low-rank functions: torch's checks, the dtypes of the random matrix and of the results
    """
A = torch.arange(20.).view(5, 4).sin()
for args, kw in [((), {}), ((2,), {}), ((5,), {}), ((-1,), {}), ((2, -1), {}), ((2.5,), {}), ((None, None), {}),
                 ((), dict(M=torch.ones(3))), ((), dict(M=torch.ones(4))), ((2,), dict(M=torch.ones(3, 4))),
                 ((), dict(center=False)), ((), dict(niter=0)), ((), dict(q=2, center=True, niter=1))]:
    for f in [torch.svd_lowrank, torch.pca_lowrank, torch.functional.svd_lowrank, torch.functional.pca_lowrank]:
        for a in [A, A.double(), A.long(), A.bool(), A[0], A.expand(2, 5, 4), torch.ones(0, 4), torch.ones(4, 0), A.t()]:
            show(lambda: f(a, *args, **kw))
show(lambda: torch.svd_lowrank([[1.0]]))
show(lambda: torch.pca_lowrank(None))
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_messages(code):
    compare(SHOW + code)


# ---- warnings: torch's texts, once per process ------------------------------------------------------------------

WARNINGS = """
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    x = torch.arange(20.)
    for f in [lambda: torch.stft(x, 8), lambda: torch.stft(x, 8, return_complex=False),
              lambda: torch.stft(x, 8, return_complex=False), lambda: torch.stft(x, 8, window=torch.ones(8)),
              lambda: torch.stft(x.half(), 8, return_complex=False), lambda: torch.stft(x.half(), 8, return_complex=False),
              lambda: torch.istft(torch.ones(5, 3, 2), 8), lambda: torch.istft(torch.ones(5, 3, 2), 8),
              lambda: torch.istft(torch.ones(5, 3, 2), 8, window=torch.ones(8))]:
        try:
            f()
            print("ok", len(w))
        except Exception as e:
            print(type(e).__name__, len(w))
for m in w:
    print(m.category.__name__, str(m.message).split(" (Triggered internally")[0])
"""


def _fresh_output(module, code):
    proc = run_python("import %s as torch\n" % module + textwrap.dedent(code))
    assert proc.returncode == 0, proc.stderr
    return normalize(proc.stdout)


def test_warnings_once_per_process():
    if import_torch() is None:
        pytest.skip("real torch is not installed")
    assert _fresh_output("minitorch", WARNINGS) == _fresh_output("torch", WARNINGS)


# ---- values ----------------------------------------------------------------------------------------------------

def _torch():
    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    return torch


def _to_torch(torch, t):
    return torch.tensor(t.detach().cpu().tolist(), dtype=getattr(torch, str(t.dtype).split(".")[-1]))


def _to_mini(t, device="cpu"):
    return minitorch.tensor(t.detach().tolist(), dtype=getattr(minitorch, str(t.dtype).split(".")[-1]),
                            device=device)


STFT_CASES = [
    ("default", (37,), dict(n_fft=8)),
    ("hop", (3, 37), dict(n_fft=16, hop_length=3)),
    ("odd_n_fft_short_window", (40,), dict(n_fft=7, win_length=5, window="hann")),
    ("twosided_normalized", (2, 30), dict(n_fft=8, normalized=True, onesided=False)),
    ("no_center", (64,), dict(n_fft=10, window="hann", center=False)),
    ("align_to_window", (2, 33), dict(n_fft=12, win_length=6, window="hann", center=False, align_to_window=True)),
    ("constant", (20,), dict(n_fft=8, pad_mode="constant")),
    ("circular", (20,), dict(n_fft=8, pad_mode="circular")),
    ("replicate", (2, 20), dict(n_fft=8, pad_mode="replicate")),
    ("short_rect", (25,), dict(n_fft=9, win_length=4)),
    ("large", (1000,), dict(n_fft=256, hop_length=64, window="hann")),
]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,shape,kw", STFT_CASES, ids=[c[0] for c in STFT_CASES])
def test_stft_values(device, dtype, name, shape, kw):
    torch = _torch()
    torch.manual_seed(0)
    kw = dict(kw)
    tdt = getattr(torch, dtype)
    x = torch.randn(*shape, dtype=tdt)
    window = torch.hann_window(kw.get("win_length", kw["n_fft"]), dtype=tdt) if kw.pop("window", None) else None
    expected = torch.stft(x, window=window, return_complex=False, **kw)
    got = minitorch.stft(_to_mini(x, device), window=None if window is None else _to_mini(window, device),
                         return_complex=False, **kw)
    assert got.device.type == device
    assert (tuple(got.shape), got.stride(), str(got.dtype)) == (tuple(expected.shape), expected.stride(),
                                                                str(expected.dtype).replace("torch", "minitorch"))
    tol = 1e-5 if dtype == "float32" else 1e-12
    torch.testing.assert_close(_to_torch(torch, got), expected, rtol=tol, atol=tol * expected.abs().max().item())


@pytest.mark.filterwarnings("ignore")
def test_stft_window_dtypes_promote():
    torch = _torch()
    x = torch.randn(30)
    for window in [torch.hann_window(8, dtype=torch.float64), torch.ones(8).long(), torch.ones(8).bool()]:
        expected = torch.stft(x, 8, window=window, return_complex=False)
        got = minitorch.stft(_to_mini(x), 8, window=_to_mini(window), return_complex=False)
        assert str(got.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
        torch.testing.assert_close(_to_torch(torch, got), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.filterwarnings("ignore")
def test_stft_gradients_match_torch(device):
    torch = _torch()
    torch.manual_seed(1)
    x = torch.randn(2, 30, dtype=torch.float64, requires_grad=True)
    w = torch.rand(6, dtype=torch.float64, requires_grad=True)
    weights = torch.randn(2, 5, 11, 2, dtype=torch.float64)
    (torch.stft(x, 8, hop_length=3, win_length=6, window=w, return_complex=False) * weights).sum().backward()
    mx = _to_mini(x, device).requires_grad_()
    mw = _to_mini(w, device).requires_grad_()
    (minitorch.stft(mx, 8, hop_length=3, win_length=6, window=mw, return_complex=False)
     * _to_mini(weights, device)).sum().backward()
    torch.testing.assert_close(_to_torch(torch, mx.grad), x.grad, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(_to_torch(torch, mw.grad), w.grad, rtol=1e-10, atol=1e-12)


@pytest.mark.filterwarnings("ignore")
def test_stft_gradcheck(device):
    minitorch.manual_seed(2)
    x = minitorch.randn(2, 12, dtype=minitorch.float64, device=device).requires_grad_()
    w = minitorch.rand(5, dtype=minitorch.float64, device=device).requires_grad_()
    assert gradcheck(lambda a, b: minitorch.stft(a, 6, hop_length=2, win_length=5, window=b, normalized=True,
                                                 return_complex=False), (x, w))
    assert gradcheck(lambda a: minitorch.stft(a, 4, center=False, onesided=False, return_complex=False), (x,))


@pytest.mark.filterwarnings("ignore")
def test_stft_refusals(device):
    x = minitorch.randn(20, device=device)
    with pytest.raises(NotImplementedError, match="complex dtype"):
        minitorch.stft(x, 8, return_complex=True)
    with pytest.raises(NotImplementedError, match="complex dtype"):
        x.stft(8, window=minitorch.ones(8, device=device), return_complex=True)
    with pytest.raises(RuntimeError, match="^istft requires a complex-valued input tensor"):
        minitorch.istft(minitorch.ones(5, 3, 2, device=device), 8, window=minitorch.ones(8, device=device))
    with pytest.raises(RuntimeError, match="stft input and window must be on the same device"):
        minitorch.stft(x, 8, window=minitorch.ones(8, device="meta"), return_complex=False)


# ---- svd_lowrank / pca_lowrank -----------------------------------------------------------------------------------

LOWRANK_CASES = [
    ("svd_tall", "svd_lowrank", (10, 7), dict(q=4)),
    ("svd_wide", "svd_lowrank", (6, 11), dict(q=3, niter=1)),
    ("svd_batched", "svd_lowrank", (3, 9, 6), dict(niter=0)),
    ("svd_full_rank", "svd_lowrank", (8, 5), dict(q=5)),
    ("svd_M", "svd_lowrank", (9, 7), dict(q=4, M=(1, 7))),
    ("svd_M_wide", "svd_lowrank", (5, 9), dict(q=3, M=(5, 1))),
    ("pca", "pca_lowrank", (12, 6), dict()),
    ("pca_q", "pca_lowrank", (2, 12, 6), dict(q=3, niter=3)),
    ("pca_not_centered", "pca_lowrank", (7, 10), dict(q=4, center=False)),
]


def _product(lib, u, s, v):
    return u.matmul(lib.diag_embed(s)).matmul(v.transpose(-2, -1))


# q as large as the rank: the subspace holds all of A whatever the random matrix, so a CUDA device (whose
# generator is not the CPU's) gives torch's CPU results too
FULL_RANK_CASES = {"svd_batched", "svd_full_rank", "pca"}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,fn,shape,kw", LOWRANK_CASES, ids=[c[0] for c in LOWRANK_CASES])
def test_lowrank_values(device, dtype, name, fn, shape, kw):
    torch = _torch()
    if device != "cpu" and name not in FULL_RANK_CASES:
        pytest.skip("the random matrix comes from the device's generator: compared with torch's CPU draws on the CPU")
    torch.manual_seed(3)
    tdt = getattr(torch, dtype)
    A = torch.randn(*shape, dtype=tdt)
    kw = dict(kw)
    mkw = dict(kw)
    if "M" in kw:
        kw["M"] = torch.randn(*kw["M"], dtype=tdt)
        mkw["M"] = _to_mini(kw["M"], device)
    torch.manual_seed(4)
    U, S, V = getattr(torch, fn)(A, **kw)
    minitorch.manual_seed(4)
    mU, mS, mV = getattr(minitorch, fn)(_to_mini(A, device), **mkw)
    for t, m in zip((U, S, V), (mU, mS, mV)):
        assert tuple(m.shape) == tuple(t.shape) and str(m.dtype).split(".")[-1] == dtype
        assert m.device.type == device
    tol = 1e-4 if dtype == "float32" else 1e-10
    torch.testing.assert_close(_to_torch(torch, mS), S, rtol=tol, atol=tol)
    torch.testing.assert_close(_to_torch(torch, _product(minitorch, mU, mS, mV)), _product(torch, U, S, V),
                               rtol=tol, atol=tol)
    # the columns are orthonormal as torch's
    torch.testing.assert_close(_to_torch(torch, mU.mT @ mU), U.mT @ U, rtol=tol, atol=tol)


def test_lowrank_draws_torch_random_matrix():
    """After the same seed the next random numbers are torch's: the functions drew the same matrices."""
    torch = _torch()
    A = torch.randn(9, 6)
    torch.manual_seed(5)
    torch.svd_lowrank(A, q=3)
    minitorch.manual_seed(5)
    minitorch.svd_lowrank(_to_mini(A), q=3)
    assert minitorch.randn(4).tolist() == torch.randn(4).tolist()


@pytest.mark.parametrize("q", [3, 5])
def test_lowrank_gradients_match_torch(device, q):
    torch = _torch()
    if device != "cpu" and q < 5:
        pytest.skip("the random matrix comes from the device's generator: compared with torch's CPU draws on the CPU")
    torch.manual_seed(6)
    A = torch.randn(8, 5, dtype=torch.float64, requires_grad=True)
    torch.manual_seed(7)
    U, S, V = torch.svd_lowrank(A, q=q)
    # sign-invariant losses: the singular values and the rank-q reconstruction
    (S.sum() + _product(torch, U, S, V).pow(2).sum()).backward()
    mA = _to_mini(A, device).requires_grad_()
    minitorch.manual_seed(7)
    mU, mS, mV = minitorch.svd_lowrank(mA, q=q)
    (mS.sum() + _product(minitorch, mU, mS, mV).pow(2).sum()).backward()
    torch.testing.assert_close(_to_torch(torch, mA.grad), A.grad, rtol=1e-8, atol=1e-10)

    torch.manual_seed(8)
    B = torch.randn(2, 6, 9, dtype=torch.float64, requires_grad=True)
    torch.manual_seed(9)
    torch.pca_lowrank(B, q=2 * q - 4)[1].sum().backward()
    mB = _to_mini(B, device).requires_grad_()
    minitorch.manual_seed(9)
    minitorch.pca_lowrank(mB, q=2 * q - 4)[1].sum().backward()
    torch.testing.assert_close(_to_torch(torch, mB.grad), B.grad, rtol=1e-8, atol=1e-10)


def test_exposed_as_torch_does():
    torch = _torch()
    for name in ["stft", "istft", "svd_lowrank", "pca_lowrank"]:
        assert name in minitorch.functional.__all__ and name in torch.functional.__all__
        assert getattr(minitorch, name) is getattr(minitorch.functional, name)
    assert callable(minitorch.Tensor.stft) and callable(minitorch.Tensor.istft)
