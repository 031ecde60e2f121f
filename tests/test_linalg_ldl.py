"""linalg.householder_product (torch.orgqr, Tensor.orgqr), the LDL family (linalg.ldl_factor_ex,
ldl_factor, ldl_solve) and linalg.lstsq's out= against torch: the same snippet under both (values to a
tolerance, since torch calls LAPACK's orgqr/sytrf/sytrs and minitorch its own float64 kernels; pivots,
shapes, dtypes, strides, node names, errors and messages exactly), householder_product's gradients (torch's
for the same losses, gradcheck, double backward), out=, and every device."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare, compare_close  # noqa: E402

import minitorch  # noqa: E402
from minitorch.autograd import gradcheck  # noqa: E402

SHOW = """
def show(f, values=True):
    try:
        r = f()
        if isinstance(r, torch.Tensor):
            print(r if values else "", r.dtype, r.shape, r.stride(), type(r.grad_fn).__name__)
        elif isinstance(r, tuple):
            print(type(r).__name__, r, [(t.dtype, t.shape, t.stride()) for t in r])
        else:
            print(r)
    except Exception as e:
        print(type(e).__name__, e)
"""

ERRORS = [
    # householder_product: its checks in torch's order and words
    """
A = torch.tensor([[2., 1], [1, 3], [0.5, -1]])
tau = torch.tensor([1.2, 0.4])
for a, t in [(A, tau), (A[0], tau), (A.t(), tau), (A, torch.ones(3)), (A, torch.tensor(1.)), (A, tau.reshape(1, 2)),
             (A.expand(2, 3, 2), tau), (A.expand(2, 3, 2), tau.expand(3, 2)), (A.expand(2, 3, 2), tau.expand(2, 2)),
             (A, tau.double()), (A.long(), tau.long()), (A.half(), tau.half()), (A.bfloat16(), tau.bfloat16()),
             (torch.zeros(3, 0).long(), torch.zeros(0).long()), (A, tau[:0]), (A[:, :0], tau[:0]),
             (torch.zeros(0, 0), tau[:0]), (torch.zeros(2, 0, 0), torch.zeros(2, 0)), (A.bool(), tau.bool())]:
    # (the values: test_values, to rounding)
    show(lambda: torch.linalg.householder_product(a, t), False)
    show(lambda: torch.orgqr(a, t), False)
    show(lambda: a.orgqr(t), False)
show(lambda: torch.linalg.householder_product(A))
show(lambda: torch.orgqr(A))
show(lambda: A.orgqr())
""",
    # ldl_factor_ex / ldl_factor: shapes, dtypes, singular blocks, empty inputs
    """
A = torch.tensor([[4., 2, 1], [2, -5, 3], [1, 3, 6]])
for x in [torch.ones(3), torch.ones(2, 3), A.long(), A.half(), A.bfloat16(), A.bool(), torch.zeros(0, 0).half(),
          torch.zeros(0, 0).long(), torch.zeros(2, 0, 0), torch.zeros(3, 3), torch.stack([A, torch.zeros(3, 3)]),
          torch.tensor([[0., 1], [1, 0]]), torch.tensor([[1., 2], [3, 4]]), torch.tensor([[1., 1], [1, 1]]),
          torch.tensor([[float('nan'), 1], [1, 2]])]:
    show(lambda: torch.linalg.ldl_factor_ex(x))
    show(lambda: torch.linalg.ldl_factor_ex(x, hermitian=True, check_errors=True))
    show(lambda: torch.linalg.ldl_factor(x))
show(lambda: torch.linalg.ldl_factor_ex())
show(lambda: torch.linalg.ldl_factor(A, True))
show(lambda: torch.linalg.ldl_factor_ex(A, check_errors=1))
""",
    # ldl_solve: its checks in torch's order, pivots' dtypes and values, broadcasting
    """
A = torch.tensor([[4., 2, 1], [2, -5, 3], [1, 3, 6]])
LD, piv = torch.linalg.ldl_factor(A)
B = torch.tensor([[1., 2], [3, 4], [5, 6]])
for M, p, b in [(LD, piv, B), (LD, piv.long(), B), (LD, piv.short(), B), (LD, piv.float(), B), (LD, piv.bool(), B),
                (LD[0], piv, B), (LD[:2], piv, B), (LD, piv[:2], B), (LD, piv, B[0]), (LD, piv, B[:2]),
                (LD, piv, B.double()), (LD.long(), piv, B.long()), (LD.half(), piv, B.half()),
                (LD, piv, B.expand(2, 3, 2)), (LD.expand(2, 3, 3), piv.expand(2, 3), B),
                (LD.expand(2, 3, 3), piv.expand(2, 3), B.expand(3, 3, 2)), (LD.expand(2, 3, 3), piv, B),
                (LD, piv.expand(2, 3), B), (LD, torch.zeros(3, dtype=torch.int32), B), (LD, piv + 5, B),
                (LD, piv - 5, B), (LD, torch.tensor(1, dtype=torch.int32), B),
                (torch.zeros(0, 0), torch.zeros(0, dtype=torch.int32), torch.zeros(0, 2)),
                (torch.zeros(0, 0).half(), torch.zeros(0, dtype=torch.int32), torch.zeros(0, 2).half()),
                (LD, piv, B[:, :0])]:
    show(lambda: torch.linalg.ldl_solve(M, p, b))
    show(lambda: torch.linalg.ldl_solve(M, p, b, hermitian=True))
show(lambda: torch.linalg.ldl_solve(LD))
show(lambda: torch.linalg.ldl_solve(LD, piv, B, True))
""",
    # autograd: torch has no derivative for the LDL family (NotImplemented)
    """
A = torch.tensor([[4., 2, 1], [2, -5, 3], [1, 3, 6]], requires_grad=True)
r = torch.linalg.ldl_factor_ex(A)
print(type(r.LD.grad_fn).__name__, r.LD.requires_grad, r.pivots.requires_grad, r.info.requires_grad)
show(lambda: r.LD.sum().backward())
LD, piv = torch.linalg.ldl_factor(A.detach())
B = torch.ones(3, 2, requires_grad=True)
X = torch.linalg.ldl_solve(LD, piv, B)
print(type(X.grad_fn).__name__)
show(lambda: X.sum().backward())
print(type(torch.linalg.ldl_solve(LD.requires_grad_(), piv, B.detach()).grad_fn).__name__)
print(torch.linalg.ldl_solve(LD.detach(), piv, B.detach()).grad_fn)
""",
    # out=: the dtype rules, the autograd refusal (householder_product only), strides of a resized out
    """
import warnings
warnings.simplefilter("ignore")
A = torch.tensor([[4., 2, 1], [2, -5, 3], [1, 3, 6]])
Ag = A.clone().requires_grad_()
LD, piv = torch.linalg.ldl_factor(A)
i32 = lambda: torch.empty(0, dtype=torch.int32)
tau = torch.tensor([1.2, 0.4])
for dt in [torch.float32, torch.float64, torch.float16, torch.int32, torch.int64]:
    show(lambda: torch.linalg.ldl_factor(A, out=(torch.empty(0, dtype=dt), i32())))
    show(lambda: torch.linalg.ldl_factor(A, out=(torch.empty(0), torch.empty(0, dtype=dt))))
    show(lambda: torch.linalg.ldl_factor_ex(A, out=(torch.empty(0), i32(), torch.empty(0, dtype=dt))))
    show(lambda: torch.linalg.ldl_solve(LD, piv, torch.ones(3, 2), out=torch.empty(0, dtype=dt)))
    show(lambda: torch.linalg.householder_product(A, tau, out=torch.empty(0, dtype=dt)), False)
    show(lambda: torch.orgqr(A.expand(2, 3, 3), tau.expand(2, 2), out=torch.empty(0, dtype=dt)), False)
show(lambda: torch.linalg.ldl_solve(LD, piv, torch.ones(3, 2), out=torch.empty(3, 2)))
show(lambda: torch.linalg.householder_product(A, tau, out=torch.empty(3, 3)), False)
show(lambda: torch.linalg.ldl_factor(A, out=(torch.empty(0),)))
# no derivative, so no refusal (torch's out then carries a NotImplemented node; minitorch's none)
print([t.shape for t in torch.linalg.ldl_factor(Ag, out=(torch.empty(0), i32()))])
print(torch.linalg.ldl_solve(LD, piv, torch.ones(3, 2, requires_grad=True), out=torch.empty(0)).stride())
show(lambda: torch.linalg.householder_product(Ag, tau, out=torch.empty(0)))
show(lambda: torch.orgqr(Ag, tau, out=torch.empty(0)))
""",
    # linalg.lstsq(out=): each out's dtype (any the result casts to safely; residuals' check names solution),
    # shapes and strides per driver, the autograd refusal, the tuple's size, a meta out
    """
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([[1., 2, 0], [0, 1, 1], [1, 0, 1], [2, 1, 0], [0, 0, 3]], dtype=torch.float64)
b = torch.tensor([[1., 0], [2, 1], [0, 1], [1, 1], [3, 2]], dtype=torch.float64)
D, L = torch.float64, torch.int64
def mk(*d):
    return [torch.empty(0, dtype=q) for q in d]
def outs(r):
    return type(r).__name__, [(tuple(q.shape), q.stride(), q.dtype) for q in r]
for driver in [None, "gelsy", "gelsd", "gelss", "gels"]:
    for B in [b, b[:, 0]]:
        o = mk(D, D, L, D)
        r = torch.linalg.lstsq(x, B, driver=driver, out=o)
        print(outs(r), r.rank is o[2], r.solution is o[0])
        print([q.tolist() if q.dtype == L else [round(v, 6) for v in q.flatten().tolist()] for q in o])
for d in [(torch.int32, D, L, D), (D, torch.int32, L, D), (D, D, torch.bool, D), (D, D, torch.float32, D),
          (D, D, L, torch.float32), (D, D, L, torch.int32), (D, torch.float32, L, torch.float32),
          (torch.float16, D, L, D)]:
    show(lambda: outs(torch.linalg.lstsq(x, b, driver="gelsd", out=mk(*d))))
show(lambda: outs(torch.linalg.lstsq(x.float(), b.float(), out=mk(D, D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x, b, out=[torch.empty(3, 2, dtype=D)] + mk(D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x, b, out=[torch.empty(2, 2, dtype=D)] + mk(D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x, b, out=mk(D, D, L, D)[:3])))
show(lambda: outs(torch.linalg.lstsq(x, b, out=tuple(mk(D, D, L, D)))))
show(lambda: outs(torch.linalg.lstsq(x, b, out=torch.empty(0))))
show(lambda: outs(torch.linalg.lstsq(x.clone().requires_grad_(), b, out=mk(D, D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x, b, out=[torch.empty(0, dtype=D, device="meta")] + mk(D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x.long(), b, out=mk(D, D, L, D))))
show(lambda: outs(torch.linalg.lstsq(x, b, driver="foo", out=mk(D, D, L, D))))
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_special_values(code):
    compare(SHOW + code)


VALUES = [
    # householder_product of random reflectors and scalars (any V and tau: the product, not only geqrf's Q)
    """
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    for m, n, k in [(5, 3, 3), (4, 4, 4), (6, 4, 2), (3, 3, 0), (1, 1, 1), (7, 2, 1)]:
        V = torch.randn(m, n, dtype=dt)
        tau = torch.rand(k, dtype=dt) + 0.5
        Q = torch.linalg.householder_product(V, tau)
        print(Q, Q.stride())
        print(torch.orgqr(V.t().contiguous().t(), tau), V.orgqr(tau))
    V = torch.randn(2, 3, 5, 4, dtype=dt)
    tau = torch.rand(2, 3, 3, dtype=dt) + 0.5
    Q = torch.linalg.householder_product(V, tau)
    print(Q, Q.stride())
""",
    # ldl_factor: random, symmetric indefinite, singular and structured matrices (2 x 2 blocks); the pivots
    # exactly, LD to rounding; ldl_solve against the original matrix
    """
torch.manual_seed(1)
def mats(dt):
    yield torch.randn(5, 5, dtype=dt)
    S = torch.randn(6, 6, dtype=dt)
    yield S + S.t()
    yield torch.tensor([[0., 1, 2], [1, 0, 3], [2, 3, 0]], dtype=dt)
    yield torch.tensor([[1., 2, 3], [2, 4, 6], [3, 6, 9]], dtype=dt)
    yield torch.tensor([[0., 0, 1], [0, 0, 0], [1, 0, 0]], dtype=dt)
    yield torch.tensor([[1e-3, 5, 0.1, 2], [5, 1e-3, 0.2, 3], [0.1, 0.2, 1e-3, 7], [2, 3, 7, 1e-3]], dtype=dt)
    yield torch.randn(3, 4, 4, dtype=dt)
    D = torch.randn(8, 8, dtype=dt)
    yield D @ D.t() - 2 * torch.eye(8, dtype=dt)
for dt in [torch.float32, torch.float64]:
    for A in mats(dt):
        LD, piv, info = torch.linalg.ldl_factor_ex(A)
        print(LD, LD.stride(), piv, info)
        B = torch.randn(*A.shape[:-1], 2, dtype=dt)
        if (info == 0).all():
            X = torch.linalg.ldl_solve(LD, piv, B)
            As = A.tril() + A.tril(-1).transpose(-2, -1)
            print(X.stride(), ((As @ X - B).abs().max() < 1e-3).item())
""",
]


@pytest.mark.parametrize("code", VALUES)
def test_values(code):
    compare_close(code, rtol=2e-4, atol=2e-5)


def test_ldl_above_lapack_block_size():
    # sytrf works in blocks of 64 columns: a 100 x 100 matrix's LD agrees with torch's to rounding and the
    # pivots exactly (minitorch's unblocked sytf2 makes the same choices)
    compare_close("""
torch.manual_seed(5)
S = torch.randn(100, 100, dtype=torch.float64)
A = S + S.t()
LD, piv, info = torch.linalg.ldl_factor_ex(A)
print(piv.tolist(), info)
print(LD.abs().max() < 1e6, LD.stride())
X = torch.linalg.ldl_solve(LD, piv, torch.ones(100, 3, dtype=torch.float64))
print(X)
""", rtol=1e-6, atol=1e-8)


GRADS = [
    """
torch.manual_seed(2)
def grad(f, *inputs):
    xs = [t.clone().requires_grad_() for t in inputs]
    out = f(*xs)
    (out * torch.linspace(-1, 1, out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
    return [x.grad for x in xs]
def reflectors(*shape, k):
    # random reflectors with geqrf's scalars (tau = 2 / |v|^2, v's first element 1): orthogonal products
    V = torch.randn(*shape, dtype=torch.float64)
    below = V.tril(-1).narrow(-1, 0, k)
    return V, 2 / (1 + (below * below).sum(-2))
for m, n, k in [(4, 4, 4), (5, 3, 3), (6, 4, 2), (3, 2, 1)]:
    V, tau = reflectors(m, n, k=k)
    print(grad(torch.linalg.householder_product, V, tau))
    print(type(torch.linalg.householder_product(V.requires_grad_(), tau).grad_fn).__name__)
V = torch.randn(2, 5, 3, dtype=torch.float64)
print(grad(torch.orgqr, V, torch.rand(2, 3, dtype=torch.float64)))
print(grad(torch.linalg.householder_product, torch.zeros(3, 0, dtype=torch.float64),
           torch.zeros(0, dtype=torch.float64)))
""",
]


@pytest.mark.parametrize("code", GRADS)
def test_gradients_match_torch(code):
    compare_close(code, rtol=1e-6, atol=1e-8)


def _reflectors(device, shape=(2, 5, 3), k=3):
    minitorch.manual_seed(7)
    V = minitorch.randn(*shape, dtype=minitorch.float64).to(device)
    tau = (minitorch.rand(*shape[:-2], k, dtype=minitorch.float64) + 0.5).to(device)
    return V, tau


@pytest.mark.parametrize("k", [3, 2])
def test_householder_gradcheck(device, k):
    V, tau = _reflectors(device, k=k)
    assert gradcheck(minitorch.linalg.householder_product, (V.requires_grad_(), tau.requires_grad_()))


def test_householder_double_backward():
    V, tau = _reflectors("cpu", (4, 3))

    def first_grad(v, t):
        with minitorch.enable_grad():
            q = minitorch.linalg.householder_product(v, t)
            return minitorch.autograd.grad((q ** 3).sum(), (v, t), create_graph=True)

    assert gradcheck(first_grad, (V.requires_grad_(), tau.requires_grad_()))


def _symmetric(dtype):
    minitorch.manual_seed(3)
    S = minitorch.randn(2, 5, 5, dtype=minitorch.float64)
    return (S + S.transpose(-2, -1)).to(dtype)


DEVICE_CASES = [
    ("householder_product", lambda a, b: minitorch.linalg.householder_product(a, a[..., 0, :3].abs())),
    ("ldl_factor_ex", lambda a, b: minitorch.linalg.ldl_factor_ex(a)),
    ("ldl_solve", lambda a, b: minitorch.linalg.ldl_solve(*minitorch.linalg.ldl_factor(a), b)),
]


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    a = _symmetric(dtype)
    b = minitorch.randn(2, 5, 2, dtype=dtype)
    expected = fn(a, b)
    got = fn(a.to(device), b.to(device))
    for e, g in zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]:
        assert g.device.type == device and g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        # the host kernels' values, copied: the same bits on every device
        assert g.cpu().tolist() == e.tolist()


def test_meta_shapes():
    a = minitorch.empty(2, 5, 5, device="meta")
    LD, piv, info = minitorch.linalg.ldl_factor_ex(a)
    assert (LD.shape, LD.stride(), piv.shape, piv.dtype, info.shape) == ((2, 5, 5), (25, 1, 5), (2, 5),
                                                                          minitorch.int32, (2,))
    X = minitorch.linalg.ldl_solve(LD, piv, minitorch.empty(2, 5, 3, device="meta"))
    assert X.device.type == "meta" and X.shape == (2, 5, 3) and X.stride() == (15, 1, 5)
    Q = minitorch.linalg.householder_product(minitorch.empty(5, 3, device="meta"), minitorch.empty(2, device="meta"))
    assert Q.device.type == "meta" and Q.shape == (5, 3) and Q.stride() == (1, 5)
