"""Cholesky factorisation and triangular solves (linalg.cholesky, cholesky_ex, torch.cholesky,
linalg.solve_triangular, torch.triangular_solve, cholesky_solve, cholesky_inverse) against torch: the same
snippet under both (values to a tolerance, since torch calls LAPACK through MKL/OpenBLAS and minitorch its
own float64 kernels; shapes, dtypes, strides, node names, warnings, errors and messages exactly), gradients
(torch's for the same losses, gradcheck in float64, double backward), out=, and every device."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare, compare_close  # noqa: E402

import minitorch  # noqa: E402
from minitorch.autograd import gradcheck  # noqa: E402

# every snippet below prints what each call returns (a tensor with its dtype, shape and strides) or raises
SHOW = """
def show(f):
    try:
        r = f()
        print(r if not isinstance(r, torch.Tensor) else (r, r.dtype, r.shape, r.stride()))
    except Exception as e:
        print(type(e).__name__, e)
"""

ERRORS = [
    # shapes, dtypes and the factorisation's failures, in torch's order and words
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
for x in [torch.ones(2, 3), torch.ones(3), A.long(), A.half(), A.bfloat16(), A.bool(), -A, torch.stack([A, -A, A]),
          torch.tensor([[1., 2], [float('nan'), 1]]), torch.zeros(0, 0), torch.zeros(2, 0, 0),
          torch.tensor([[4., 2, 1], [2, 1, 0], [1, 0, 3]]), torch.tensor([[1., 5], [2, 1]])]:
    show(lambda: torch.linalg.cholesky(x))
    show(lambda: torch.linalg.cholesky(x, upper=True))
    show(lambda: torch.linalg.cholesky_ex(x))
    show(lambda: torch.linalg.cholesky_ex(x, check_errors=True))
print(issubclass(type(torch.linalg.cholesky_ex(-A).info), torch.Tensor), torch.linalg.cholesky_ex(-A).info.dtype)
""",
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
for B in [torch.ones(3, 2), torch.ones(2, 3), torch.ones(3), torch.ones(4, 1, 3, 2), torch.ones(3, 2).long(),
          torch.ones(3, 2, dtype=torch.float64), torch.ones(0, 3, 2), torch.ones(3, 0)]:
    for M in [A, A.long(), A.half(), torch.ones(2, 3), torch.stack([A, A]), torch.zeros(3, 3)]:
        show(lambda: torch.linalg.solve_triangular(M, B, upper=True))
        show(lambda: torch.linalg.solve_triangular(M, B, upper=False, left=False))
        show(lambda: torch.linalg.solve_triangular(M, B, upper=False, unitriangular=True))
show(lambda: torch.linalg.solve_triangular(A, torch.ones(3, 2)))
""",
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
for b in [torch.ones(3, 2), torch.ones(3), torch.ones(2, 2), torch.ones(4, 3, 2), torch.ones(3, 2).long(),
          torch.ones(3, 2, dtype=torch.float64), torch.ones(3, 2).half()]:
    for M in [A, A[0], torch.ones(2, 3), torch.stack([A, A]), A.long(), A.half()]:
        show(lambda: torch.cholesky_solve(b, M))
        show(lambda: torch.cholesky_solve(b, M, upper=True))
for M in [A, A[0], torch.ones(2, 3), torch.stack([A, A]), A.long(), A.half(), torch.zeros(0, 0)]:
    show(lambda: torch.cholesky_inverse(M))
    show(lambda: torch.cholesky_inverse(M, upper=True))
""",
    # the deprecated forms: their warning (once), results and errors
    """
import warnings
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(torch.cholesky(A), torch.cholesky(A, True), A.cholesky(upper=True), A.cholesky())
    print(torch.triangular_solve(torch.ones(3, 2), A))
    print(torch.triangular_solve(torch.ones(3, 2), A, upper=False, transpose=True, unitriangular=True))
    r = torch.ones(3, 2).triangular_solve(A, False, True)
    print(r, r.solution.stride(), r.cloned_coefficient.stride())
    print([t.shape for t in torch.triangular_solve(torch.ones(2, 3, 2), torch.stack([A] * 2))])
    print([t.shape for t in torch.triangular_solve(torch.ones(3, 2), torch.stack([A] * 4))])
    for b, M in [(torch.ones(3), A), (torch.ones(3, 2), A[0]), (torch.ones(2, 2), A), (torch.ones(3, 2), A.double()),
                 (torch.ones(3, 2).long(), A.long()), (torch.ones(3, 2), torch.ones(2, 3)),
                 (torch.ones(3, 3, 2), torch.stack([A] * 4))]:
        show(lambda: torch.triangular_solve(b, M))
    show(lambda: torch.cholesky(-A))
print(len(w), sorted(set(str(x.message).split(".")[0] for x in w)), sorted(set(x.category.__name__ for x in w)))
""",
    # out=: the dtype rules and messages of each, the autograd refusal, strides of a resized out
    """
import warnings
warnings.simplefilter("ignore")
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
Ag = A.clone().requires_grad_()
for dt in [torch.float32, torch.float64, torch.int32]:
    show(lambda: torch.linalg.cholesky(A, out=torch.empty(0, dtype=dt)))
    show(lambda: torch.linalg.cholesky_ex(A, out=(torch.empty(0, dtype=dt), torch.empty(0, dtype=torch.int32))))
    show(lambda: torch.linalg.cholesky_ex(A, out=(torch.empty(0), torch.empty(0, dtype=dt))))
    show(lambda: torch.linalg.solve_triangular(A, torch.ones(3, 2), upper=True, out=torch.empty(3, 2, dtype=dt)))
    show(lambda: torch.cholesky(A, out=torch.empty(0, dtype=dt)))
    show(lambda: torch.cholesky_solve(torch.ones(3, 2), A, out=torch.empty(0, dtype=dt)))
    show(lambda: torch.cholesky_inverse(A, out=torch.empty(3, 3, dtype=dt)))
    show(lambda: torch.triangular_solve(torch.ones(3, 2), A, out=(torch.empty(0, dtype=dt), torch.empty(0))))
show(lambda: torch.linalg.cholesky(Ag, out=torch.empty(0)))
show(lambda: torch.linalg.cholesky_ex(Ag, out=(torch.empty(0), torch.empty(0, dtype=torch.int32))))
show(lambda: torch.linalg.solve_triangular(Ag, torch.ones(3, 2), upper=True, out=torch.empty(0)))
show(lambda: torch.cholesky(Ag, out=torch.empty(0)))
show(lambda: torch.cholesky_solve(torch.ones(3, 2), Ag, out=torch.empty(0)))
show(lambda: torch.cholesky_inverse(Ag, out=torch.empty(0)))
show(lambda: torch.triangular_solve(torch.ones(3, 2), Ag, out=(torch.empty(0), torch.empty(0))))
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_special_values(code):
    compare(SHOW + code)


VALUES = [
    """
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    X = torch.randn(2, 5, 5, dtype=dt)
    A = X @ X.transpose(-2, -1) + torch.eye(5, dtype=dt)
    B = torch.randn(2, 5, 3, dtype=dt)
    for M in [A, A.transpose(-2, -1), A[:, 1:, 1:], A[0]]:
        for upper in [False, True]:
            L = torch.linalg.cholesky(M, upper=upper)
            print(L, L.stride(), torch.linalg.cholesky_ex(M, upper=upper).info)
    L = torch.linalg.cholesky(A)
    for upper in [False, True]:
        for left in [True, False]:
            for unit in [False, True]:
                T = L if not upper else L.transpose(-2, -1)
                rhs = B if left else B.transpose(-2, -1)
                X = torch.linalg.solve_triangular(T, rhs, upper=upper, left=left, unitriangular=unit)
                print(X, X.stride())
    print(torch.linalg.solve_triangular(L[0], torch.randn(4, 1, 5, 2, dtype=dt), upper=False).shape)
    print(torch.cholesky_solve(B, L), torch.cholesky_solve(B, L.transpose(-2, -1), upper=True))
    print(torch.cholesky_solve(B[0], L).shape, torch.cholesky_inverse(L), torch.cholesky_inverse(L.transpose(-2, -1), True))
    print(torch.cholesky_inverse(L[0]).stride(), torch.cholesky_solve(B, L).stride())
""",
]


@pytest.mark.parametrize("code", VALUES)
def test_values(code):
    compare_close(code, rtol=2e-4, atol=2e-5)


GRADS = [
    """
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(1)
X = torch.randn(2, 4, 4, dtype=torch.float64)
A0 = X @ X.transpose(-2, -1) + torch.eye(4, dtype=torch.float64)
L0 = torch.linalg.cholesky(A0)
B0 = torch.randn(2, 4, 3, dtype=torch.float64)
def grad(f, *inputs):
    xs = [t.clone().requires_grad_() for t in inputs]
    f(*xs).sum().backward()
    return [x.grad for x in xs]
x = A0[0].clone().requires_grad_()
for r in [torch.linalg.cholesky(x), torch.linalg.cholesky_ex(x), torch.cholesky(x), x.cholesky(),
          torch.linalg.solve_triangular(x, B0[0], upper=True), torch.triangular_solve(B0[0], x),
          torch.cholesky_solve(B0[0], x), torch.cholesky_inverse(x)]:
    print([type(t.grad_fn).__name__ for t in r] if isinstance(r, tuple) else type(r.grad_fn).__name__)
print(torch.linalg.cholesky_ex(x).info.requires_grad)
print(grad(lambda a: torch.linalg.cholesky(a).sin(), A0))
print(grad(lambda a: torch.linalg.cholesky(a, upper=True) ** 3, A0))
print(grad(lambda a: torch.cholesky(a) * 2, A0))
for upper in [False, True]:
    for left in [True, False]:
        for unit in [False, True]:
            T = L0 if not upper else L0.transpose(-2, -1)
            rhs = B0 if left else B0.transpose(-2, -1)
            print(grad(lambda t, b: torch.linalg.solve_triangular(t, b, upper=upper, left=left, unitriangular=unit) ** 2,
                       T, rhs))
print(grad(lambda t, b: torch.linalg.solve_triangular(t, b, upper=False) ** 2, L0[0], B0))
print(grad(lambda t, b: torch.linalg.solve_triangular(t, b, upper=False) ** 2, L0, B0[0]))
for upper in [False, True]:
    for transpose in [False, True]:
        T = L0 if not upper else L0.transpose(-2, -1)
        print(grad(lambda b, t: (lambda r: r.solution ** 2 + r.cloned_coefficient.sum())(
            torch.triangular_solve(b, t, upper=upper, transpose=transpose)), B0, T))
print(grad(lambda b, t: torch.triangular_solve(b, t).cloned_coefficient * 3, B0, L0.transpose(-2, -1)))
print(grad(lambda b, t: torch.triangular_solve(b, t, False).solution ** 2, B0, L0[0]))
for upper in [False, True]:
    T = L0 if not upper else L0.transpose(-2, -1)
    print(grad(lambda b, t: torch.cholesky_solve(b, t, upper) ** 2, B0, T))
    print(grad(lambda t: torch.cholesky_inverse(t, upper) ** 2, T))
print(grad(lambda b, t: torch.cholesky_solve(b, t) ** 2, B0[0], L0))
""",
]


@pytest.mark.parametrize("code", GRADS)
def test_gradients_match_torch(code):
    compare_close(code, rtol=1e-6, atol=1e-8)


def _spd(device):
    minitorch.manual_seed(7)
    x = minitorch.randn(2, 3, 3, dtype=minitorch.float64)
    return (x @ x.transpose(-2, -1) + minitorch.eye(3, dtype=minitorch.float64)).to(device)


GRADCHECK = [
    ("cholesky", lambda a, b: minitorch.linalg.cholesky(a @ a.transpose(-2, -1) + 3 * minitorch.eye(3, dtype=a.dtype, device=a.device))),
    ("cholesky_upper", lambda a, b: minitorch.linalg.cholesky(a @ a.transpose(-2, -1) + 3 * minitorch.eye(3, dtype=a.dtype, device=a.device), upper=True)),
    ("solve_triangular", lambda a, b: minitorch.linalg.solve_triangular(a.tril() + 3 * minitorch.eye(3, dtype=a.dtype, device=a.device), b, upper=False)),
    ("solve_triangular_right_unit", lambda a, b: minitorch.linalg.solve_triangular(a, b.transpose(-2, -1), upper=True, left=False, unitriangular=True)),
    ("cholesky_solve", lambda a, b: minitorch.cholesky_solve(b, a.tril() + 3 * minitorch.eye(3, dtype=a.dtype, device=a.device))),
    ("cholesky_inverse", lambda a, b: minitorch.cholesky_inverse(a.triu() + 3 * minitorch.eye(3, dtype=a.dtype, device=a.device), upper=True)),
]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name,fn", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(8)
    a = minitorch.randn(2, 3, 3, dtype=minitorch.float64).to(device).requires_grad_()
    b = minitorch.randn(2, 3, 2, dtype=minitorch.float64).to(device).requires_grad_()
    assert gradcheck(fn, (a, b))


def test_double_backward():
    minitorch.manual_seed(9)
    a = minitorch.randn(3, 3, dtype=minitorch.float64).requires_grad_()

    def first_grad(f):
        def g(x):
            with minitorch.enable_grad():
                return minitorch.autograd.grad(f(x), x, create_graph=True)[0]
        return g

    spd = lambda x: x @ x.t() + 3 * minitorch.eye(3, dtype=x.dtype)  # noqa: E731
    for f in (lambda x: (minitorch.linalg.cholesky(spd(x)) ** 2).sum(),
              lambda x: (minitorch.linalg.solve_triangular(x.tril() + 3 * minitorch.eye(3, dtype=x.dtype), x, upper=False) ** 2).sum(),
              lambda x: (minitorch.cholesky_inverse(x.tril() + 3 * minitorch.eye(3, dtype=x.dtype)) ** 2).sum()):
        assert gradcheck(first_grad(f), (a,))


DEVICE_CASES = [
    ("cholesky_ex", lambda a, b: minitorch.linalg.cholesky_ex(a)),
    ("cholesky_upper", lambda a, b: minitorch.linalg.cholesky(a, upper=True)),
    ("solve_triangular", lambda a, b: minitorch.linalg.solve_triangular(a, b, upper=True)),
    ("solve_triangular_right", lambda a, b: minitorch.linalg.solve_triangular(a, b.transpose(-2, -1), upper=False, left=False)),
    ("cholesky_solve", lambda a, b: minitorch.cholesky_solve(b, minitorch.linalg.cholesky(a))),
    ("cholesky_inverse", lambda a, b: minitorch.cholesky_inverse(minitorch.linalg.cholesky(a))),
]


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    a = _spd("cpu").to(dtype)
    b = minitorch.randn(2, 3, 2, dtype=dtype)
    expected = fn(a, b)
    got = fn(a.to(device), b.to(device))
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert g.device.type == device and g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        # the host kernels' values, copied: the same bits on every device
        assert g.cpu().tolist() == e.tolist()
