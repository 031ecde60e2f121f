"""minitorch.linalg's matrix functions (det, slogdet, logdet, inv, inv_ex, solve, solve_ex, svd, svdvals,
torch.svd, qr, eigh, eigvalsh, matrix_norm, matrix_rank, pinv) against torch: the same snippet under both
(values to a tolerance, since torch calls LAPACK through MKL/OpenBLAS and minitorch its own float64
kernels; shapes, dtypes, strides, node names, errors and messages exactly), reconstructions (A = Q R,
U S Vh, V diag(w) V^T), gradients (gradcheck in float64, and torch's grads for the same loss), the
simulated GPU, and bad input."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare, compare_close  # noqa: E402

import minitorch  # noqa: E402
from minitorch.autograd import gradcheck  # noqa: E402

# ---- errors and messages, exactly ---------------------------------------------------------------------------

ERRORS = [
    # every entry point: wrong dims, non-square, integer dtype, each in torch's order
    """
for f in [torch.linalg.det, torch.det, torch.linalg.slogdet, torch.logdet, torch.linalg.inv, torch.inverse,
          torch.linalg.inv_ex, torch.linalg.eigh, torch.linalg.eigvalsh]:
    for x in [torch.randn(2, 3), torch.ones(2, 2, dtype=torch.long), torch.ones(3), torch.ones(2, 3, dtype=torch.long),
              torch.ones(3, dtype=torch.int32), torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.int32)]:
        try:
            f(x)
        except Exception as e:
            print(type(e).__name__, e)
""",
    """
for f in [torch.linalg.svd, torch.linalg.svdvals, torch.svd, torch.linalg.qr, torch.linalg.matrix_rank,
          torch.linalg.pinv, torch.linalg.matrix_norm]:
    for x in [torch.ones(2, 2, dtype=torch.long), torch.ones(3), torch.ones(3, dtype=torch.long),
              torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.int32)]:
        try:
            f(x)
        except Exception as e:
            print(type(e).__name__, e)
""",
    # singular matrices: inv raises LinAlgError naming the first zero pivot; det is -0; solve raises
    """
S = torch.tensor([[1., 2.], [2., 4.]])
print(torch.linalg.det(S), torch.linalg.slogdet(S), torch.logdet(S))
torch.linalg.inv(S)
torch.inverse(S)
S.inverse()
torch.linalg.inv(torch.stack([torch.eye(2), S]))
torch.linalg.inv(S[None])
torch.linalg.inv_ex(S, check_errors=True)
print(torch.linalg.inv_ex(S).info, torch.linalg.inv_ex(torch.stack([S, torch.eye(2), torch.zeros(2, 2)])).info)
torch.linalg.solve(S, torch.ones(2))
torch.linalg.solve(torch.stack([torch.eye(2), S]), torch.ones(2))
torch.linalg.solve_ex(S, torch.ones(2), check_errors=True)
print(torch.linalg.solve_ex(S, torch.ones(2)).info)
print(issubclass(torch.linalg.LinAlgError, RuntimeError), torch.linalg.LinAlgError.__name__)
try:
    torch.linalg.inv(S)
except torch.linalg.LinAlgError as e:
    print("caught", type(e).__module__)
""",
    # solve's shapes: the vector rule, broadcasting, left=False, dtypes
    """
torch.manual_seed(0)
A = torch.randn(2, 3, 3)
for B in [torch.randn(3), torch.randn(2, 3), torch.randn(4, 3), torch.randn(5, 1, 3, 2), torch.randn(4), torch.randn(2, 4),
          torch.randn(3, 2), torch.randn(4, 3, 1), torch.tensor(1.), torch.randn(3, dtype=torch.float64),
          torch.ones(3, dtype=torch.long)]:
    try:
        X = torch.linalg.solve(A, B)
        print(X.shape, X.stride(), X.dtype)
    except Exception as e:
        print(type(e).__name__, e)
for B in [torch.randn(3), torch.randn(2, 3), torch.randn(2, 4, 3), torch.randn(3, 2)]:
    try:
        print(torch.linalg.solve(A, B, left=False).shape)
    except Exception as e:
        print(type(e).__name__, e)
torch.linalg.solve(torch.randn(2, 3), torch.randn(3))
torch.linalg.solve(torch.randn(3), torch.randn(3))
torch.linalg.solve(torch.ones(3, 3, dtype=torch.long), torch.ones(3))
torch.linalg.solve(torch.randn(3, 3, dtype=torch.float64), torch.randn(3))
""",
    # qr modes, eigh's UPLO, svd's flags
    """
torch.linalg.qr(torch.ones(3, 3), mode='x')
torch.linalg.qr(torch.ones(3), mode='x')
torch.linalg.qr(torch.ones(3, 3, dtype=torch.long), mode='x')
torch.linalg.eigh(torch.ones(3, 3), UPLO='x')
torch.linalg.eigh(torch.ones(2, 3, dtype=torch.long), UPLO='x')
torch.linalg.eigh(torch.ones(3, 3, dtype=torch.long), UPLO='x')
torch.linalg.eigh(torch.ones(3, 3, dtype=torch.long))
print(torch.linalg.eigvalsh(torch.eye(3), UPLO='u'))
print(torch.linalg.qr(torch.ones(3, 2), mode='r').Q)
print(torch.svd(torch.ones(3, 2), compute_uv=False))
torch.linalg.svd(torch.ones(3, 3), True, 1)
""",
    # empty matrices and NaN
    """
for f in [torch.linalg.det, torch.logdet, torch.linalg.inv, torch.linalg.svdvals, torch.linalg.eigvalsh,
          lambda a: torch.linalg.slogdet(a), lambda a: torch.linalg.inv_ex(a), lambda a: torch.linalg.qr(a),
          lambda a: torch.linalg.eigh(a), lambda a: torch.linalg.svd(a), torch.linalg.matrix_rank, torch.linalg.pinv,
          lambda a: torch.linalg.matrix_norm(a, 'nuc')]:
    for x in [torch.zeros(0, 0), torch.zeros(2, 0, 0), torch.zeros(0, 3, 3), torch.zeros(3, 0), torch.zeros(0, 2, 3)]:
        try:
            r = f(x)
            print([(t.shape, t.dtype) for t in r] if isinstance(r, tuple) else (r, r.shape))
        except Exception as e:
            print(type(e).__name__, e)
N = torch.full((2, 2), float('nan'))
print(torch.linalg.det(N), torch.linalg.slogdet(N), torch.linalg.inv(N), torch.linalg.inv_ex(N).info)
print(torch.linalg.eigh(N), torch.linalg.qr(N).R)
torch.linalg.svd(N)
torch.linalg.svdvals(torch.full((2, 2, 2), float('nan')))
print(torch.linalg.svd(torch.tensor([[1., float('inf')], [1., 1.]])))
torch.linalg.matrix_rank(N)
print(torch.linalg.solve(torch.zeros(0, 0), torch.ones(0)), torch.linalg.solve(torch.zeros(2, 0, 0), torch.ones(2, 0, 3)).shape)
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_special_values(code):
    compare(code)


# ---- values, to a tolerance -----------------------------------------------------------------------------------

VALUES = [
    # det / slogdet / logdet / inv on batches, float32 and float64, a non-contiguous input
    """
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    A = torch.randn(2, 3, 4, 4, dtype=dt)
    At = A.transpose(-2, -1)
    for X in [A, At, A[:, :, 1:, 1:], torch.randn(5, 5, dtype=dt).t()]:
        print(torch.linalg.det(X), X.det(), torch.det(X))
        print(torch.linalg.slogdet(X), torch.slogdet(X), X.slogdet())
        print(torch.logdet(X), X.logdet())
        inv = torch.linalg.inv(X)
        print(inv, inv.stride(), inv.is_contiguous(), torch.inverse(X).dtype, X.inverse().shape)
        print(torch.linalg.inv_ex(X))
""",
    # solve: matrix and vector right-hand sides, broadcasting, left=False
    """
torch.manual_seed(1)
for dt in [torch.float32, torch.float64]:
    A = torch.randn(2, 3, 3, dtype=dt) + 3 * torch.eye(3, dtype=dt)
    for B in [torch.randn(3, dtype=dt), torch.randn(2, 3, dtype=dt), torch.randn(2, 3, 4, dtype=dt),
              torch.randn(5, 1, 3, 2, dtype=dt), torch.randn(4, 3, dtype=dt).t()]:
        X = torch.linalg.solve(A, B)
        print(X, X.stride())
    print(torch.linalg.solve(A, torch.randn(4, 3, dtype=dt), left=False))
    print(torch.linalg.solve(A.transpose(-2, -1), torch.randn(2, 3, 2, dtype=dt)))
    print(torch.linalg.solve_ex(A, torch.randn(3, dtype=dt)))
""",
    # svd: values, shapes and strides; singular vectors up to each column's sign; reconstructions
    """
torch.manual_seed(2)
def close(a, b, atol=1e-4):
    return bool(((a - b).abs() <= atol).all())
for dt in [torch.float32, torch.float64]:
    for shape in [(4, 3), (3, 4), (2, 3, 3), (5, 1), (1, 5), (2, 2, 5, 3)]:
        A = torch.randn(*shape, dtype=dt)
        for full in [True, False]:
            U, S, Vh = torch.linalg.svd(A, full_matrices=full)
            k = S.shape[-1]
            print(U.shape, U.stride(), S, S.stride(), Vh.shape, Vh.stride())
            rec = (U[..., :k] * S.unsqueeze(-2)) @ Vh[..., :k, :]
            print(close(rec, A, atol=1e-5), close(U.transpose(-2, -1) @ U, torch.eye(U.shape[-1], dtype=dt), atol=1e-5),
                  close(Vh @ Vh.transpose(-2, -1), torch.eye(Vh.shape[-2], dtype=dt), atol=1e-5))
            print((U[..., :k] * Vh[..., :k, :].sum(-1).unsqueeze(-2)).abs().sum())
        print(torch.linalg.svdvals(A), torch.linalg.svdvals(A.transpose(-2, -1)))
        U, S, V = torch.svd(A)
        print(U.shape, S.shape, V.shape, V.stride(), close((U * S.unsqueeze(-2)) @ V.transpose(-2, -1), A, atol=1e-5))
        U, S, V = torch.svd(A, some=False)
        print(U.shape, V.shape)
        print(A.svd().S)
""",
    # qr: Q and R as LAPACK gives them (R's diagonal signs), every mode
    """
torch.manual_seed(3)
def close(a, b, atol=1e-4):
    return bool(((a - b).abs() <= atol).all())
for dt in [torch.float32, torch.float64]:
    for shape in [(4, 3), (3, 4), (2, 3, 3), (5, 1), (1, 5)]:
        A = torch.randn(*shape, dtype=dt)
        for mode in ['reduced', 'complete', 'r']:
            Q, R = torch.linalg.qr(A, mode=mode)
            print(mode, Q, Q.stride(), R, R.stride())
            if mode != 'r':
                print(close(Q @ R, A, atol=1e-5))
        print(torch.linalg.qr(A.transpose(-2, -1)))
""",
    # eigh / eigvalsh: eigenvalues ascending; eigenvectors up to each column's sign; reconstruction; UPLO
    """
torch.manual_seed(4)
def close(a, b, atol=1e-4):
    return bool(((a - b).abs() <= atol).all())
for dt in [torch.float32, torch.float64]:
    X = torch.randn(2, 4, 4, dtype=dt)
    A = X @ X.transpose(-2, -1) - 2 * torch.eye(4, dtype=dt)
    for uplo in ['L', 'U']:
        w, V = torch.linalg.eigh(A, UPLO=uplo)
        print(w, w.stride(), V.shape, V.stride())
        print(V * torch.where(V.sum(-2, keepdim=True) >= 0, 1.0, -1.0).to(dt))
        print(close((V * w.unsqueeze(-2)) @ V.transpose(-2, -1), A, atol=1e-4))
        print(torch.linalg.eigvalsh(A, uplo))
    print(torch.linalg.eigvalsh(X), torch.linalg.eigvalsh(X, UPLO='U'))
    print(torch.linalg.eigh(torch.eye(3, dtype=dt)), torch.linalg.eigvalsh(torch.tensor([[2., 1.], [1., 2.]], dtype=dt)))
""",
    # norms, rank, pinv
    """
torch.manual_seed(5)
for dt in [torch.float32, torch.float64]:
    A = torch.randn(2, 3, 4, dtype=dt)
    for ord in ['fro', 'nuc', 2, -2, 1, -1, float('inf'), float('-inf')]:
        print(ord, torch.linalg.matrix_norm(A, ord), torch.linalg.matrix_norm(A, ord, keepdim=True).shape,
              torch.linalg.matrix_norm(A, ord, dim=(0, 2)))
    print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(torch.ones(3, 3, dtype=dt)),
          torch.linalg.matrix_rank(A @ A.transpose(-2, -1), hermitian=True), torch.linalg.matrix_rank(A, atol=1.0),
          torch.linalg.matrix_rank(A, 2.5), torch.linalg.matrix_rank(A, rtol=0.5))
    print(torch.linalg.pinv(A), torch.linalg.pinv(A.transpose(-2, -1)), torch.linalg.pinv(torch.ones(3, 2, dtype=dt)))
    print(torch.linalg.pinv(A, rtol=0.5), torch.linalg.pinv(A, atol=1.0), torch.linalg.pinv(A, 0.3))
""",
]


VALUES.append("""
def tr(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
A = torch.arange(24.).reshape(2, 3, 4) - 10
tr(lambda: torch.linalg.matrix_norm(A, 3))
tr(lambda: torch.linalg.matrix_norm(A, 2.5))
tr(lambda: torch.linalg.matrix_norm(A, 'abc'))
tr(lambda: torch.linalg.matrix_norm(A, dim=(0, 1, 2)))
tr(lambda: torch.linalg.matrix_norm(A, dim=(1, 1)))
tr(lambda: torch.linalg.matrix_norm(A, dim=(1, 5)))
tr(lambda: torch.linalg.matrix_norm(A, 'nuc', dim=(-1, 0), keepdim=True))
tr(lambda: torch.linalg.norm(A))
tr(lambda: torch.linalg.norm(A, 2))
tr(lambda: torch.linalg.norm(A, 'nuc'))
tr(lambda: torch.linalg.norm(A[0], 'nuc'))
tr(lambda: torch.linalg.norm(A[0], 2))
tr(lambda: torch.linalg.norm(A[0, 0], 3))
tr(lambda: torch.linalg.norm(A, dim=(0, 1, 2)))
tr(lambda: torch.linalg.norm(A, 'fro', dim=(0, 1, 2)))
tr(lambda: torch.linalg.norm(A, 'fro', dim=1))
tr(lambda: torch.linalg.norm(A, 2, dim=(1, 2)))
tr(lambda: torch.linalg.norm(A, 1, dim=2, keepdim=True))
tr(lambda: torch.linalg.norm(A, float('inf'), dim=(2, 1)))
tr(lambda: torch.linalg.norm(A, dim=1, dtype=torch.float64))
tr(lambda: torch.linalg.norm(A.long()))
tr(lambda: torch.linalg.norm(A[0].long(), 'nuc'))
tr(lambda: torch.norm(A[0], p='nuc'))
tr(lambda: torch.norm(A, p='nuc', dim=(0, 2)))
tr(lambda: torch.norm(A, p='abc'))
tr(lambda: torch.norm(A, p='fro', dim=(0, 1, 2)))
x = A[0].clone().requires_grad_()
print(type(torch.linalg.norm(x).grad_fn).__name__, type(torch.linalg.norm(x, 'nuc').grad_fn).__name__,
      type(torch.linalg.norm(x, 2).grad_fn).__name__, type(torch.norm(x, 'nuc').grad_fn).__name__)
""")


@pytest.mark.parametrize("code", VALUES)
def test_values(code):
    compare_close(code, rtol=2e-4, atol=2e-5)


# ---- gradients -------------------------------------------------------------------------------------------------

GRADS = [
    # node names of every public function
    """
x = torch.randn(3, 3, requires_grad=True)
s = (x @ x.t()).detach().requires_grad_()
for r in [torch.linalg.det(x), torch.det(x), x.det(), torch.linalg.slogdet(x), torch.logdet(s), torch.linalg.inv(x),
          torch.inverse(x), torch.linalg.inv_ex(x), torch.linalg.solve(x, torch.randn(3)), torch.linalg.solve_ex(x, torch.randn(3)),
          torch.linalg.svd(x), torch.linalg.svdvals(x), torch.svd(x), torch.linalg.qr(x), torch.linalg.eigh(x),
          torch.linalg.eigvalsh(x), torch.linalg.matrix_rank(x), torch.linalg.pinv(x), torch.linalg.matrix_norm(x, 'nuc'),
          torch.linalg.matrix_norm(x, 2), torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, 1)]:
    print([type(t.grad_fn).__name__ for t in r] if isinstance(r, tuple) else type(r.grad_fn).__name__)
print(torch.linalg.svdvals(x.detach()).requires_grad, torch.linalg.inv_ex(x).info.requires_grad)
""",
    # torch's grads for the same losses (gauge-invariant ones for svd and eigh)
    """
torch.manual_seed(6)
A0 = torch.randn(2, 4, 4, dtype=torch.float64)
A0 = A0 + 4 * torch.eye(4, dtype=torch.float64)
B0 = torch.randn(4, 3, dtype=torch.float64)
W0 = torch.randn(5, 3, dtype=torch.float64)
S0 = A0 @ A0.transpose(-2, -1)
def grad(f, *inputs):
    xs = [t.clone().requires_grad_() for t in inputs]
    f(*xs).sum().backward()
    return [x.grad for x in xs]
print(grad(lambda a: torch.linalg.det(a), A0))
Z = torch.tensor([[[1., 2., 3.], [2., 4., 6.], [0., 1., 5.]], [[1., 0., 0.], [0., 2., 0.], [0., 0., 3.]],
                  [[0., 0., 0.], [0., 1., 0.], [0., 0., 1.]]], dtype=torch.float64)
print([g + 0.0 for g in grad(lambda a: torch.linalg.det(a) * 2, Z)])   # (+ 0.0: the signs of torch's zeros)
print(grad(lambda a: torch.linalg.slogdet(a).logabsdet * 2, A0))
print(grad(lambda a: torch.logdet(a), S0))
print(grad(lambda a: torch.linalg.inv(a) ** 2, A0))
print(grad(lambda a, b: torch.linalg.solve(a, b) ** 2, A0, B0))
print(grad(lambda a, b: torch.linalg.solve(a, b) ** 2, A0, B0[:, 0]))
print(grad(lambda a, b: torch.linalg.solve(a, b, left=False) ** 2, A0, B0.t()))
print(grad(lambda a: torch.linalg.svdvals(a) ** 2, W0))
print(grad(lambda a: torch.linalg.svdvals(a), W0.t()))
print(grad(lambda a: (lambda r: (r.U * r.S.unsqueeze(-2)) @ r.Vh)(torch.linalg.svd(a, full_matrices=False)) ** 3, W0))
print(grad(lambda a: (lambda r: (r.U @ r.U.transpose(-2, -1)) * 1.5 + (r.Vh.transpose(-2, -1) @ r.Vh))(torch.linalg.svd(a, full_matrices=False)) ** 2, W0))
print(grad(lambda a: (lambda r: (r.U[:, :1] ** 2).sum() + (r.Vh[:1] ** 2).sum() * r.S[0])(torch.linalg.svd(a, full_matrices=False)), W0.t()))
print(grad(lambda a: (lambda r: r.Q.sum(-1) * 2 + r.R.sum(-2) ** 2)(torch.linalg.qr(a)), A0))
print(grad(lambda a: (lambda r: r.Q.sum() + (r.R ** 2).sum())(torch.linalg.qr(a)), W0))
print(grad(lambda a: (lambda r: r.Q.sum() + (r.R ** 2).sum())(torch.linalg.qr(a)), W0.t()))
print(grad(lambda a: torch.linalg.eigvalsh(a) ** 2, S0))
print(grad(lambda a: (lambda r: (r.eigenvectors ** 2) @ r.eigenvalues.unsqueeze(-1) + ((r.eigenvectors[..., :1] ** 4).sum()))(torch.linalg.eigh(a)), S0))
print(grad(lambda a: torch.linalg.pinv(a) ** 2, W0))
print(grad(lambda a: torch.linalg.pinv(a) ** 2, W0.t()))
print(grad(lambda a: torch.linalg.matrix_norm(a, 'nuc') + torch.linalg.matrix_norm(a, 2), W0))
""",
    """
x = torch.randn(3, 2, requires_grad=True)
q = torch.linalg.qr(x, mode='r')
q.R.sum().backward()
q = torch.linalg.qr(x, mode='complete')
q.R.sum().backward()
""",
]


@pytest.mark.parametrize("code", GRADS)
def test_gradients_match_torch(code):
    compare_close(code, rtol=1e-6, atol=1e-8)


GRADCHECK = [
    ("det", lambda a: minitorch.linalg.det(a)),
    ("slogdet", lambda a: minitorch.linalg.slogdet(a).logabsdet),
    ("logdet", lambda a: minitorch.logdet(a @ a.transpose(-2, -1))),
    ("inv", lambda a: minitorch.linalg.inv(a)),
    ("solve", lambda a: minitorch.linalg.solve(a, a[..., :1, :].transpose(-2, -1) * 2)),
    ("solve_left_false", lambda a: minitorch.linalg.solve(a, a[..., 0, :].unsqueeze(-2) + 1, left=False)),
    ("solve_broadcast", lambda a: minitorch.linalg.solve(a, a[0, :, 0] * 2)),
    ("svdvals", lambda a: minitorch.linalg.svdvals(a)),
    ("svd", lambda a: (lambda r: (r.U * r.S.unsqueeze(-2)) @ r.Vh)(minitorch.linalg.svd(a, full_matrices=False))),
    ("svd_wide", lambda a: (lambda r: r.U.abs() + r.S.sum())(minitorch.linalg.svd(a[..., :2, :], full_matrices=False))),
    ("qr", lambda a: minitorch.linalg.qr(a)),
    ("qr_wide", lambda a: minitorch.linalg.qr(a[..., :2, :])),
    ("qr_tall", lambda a: minitorch.linalg.qr(a[..., :2])),
    ("eigvalsh", lambda a: minitorch.linalg.eigvalsh(a + a.transpose(-2, -1))),
    ("eigh", lambda a: (lambda r: (r.eigenvectors * r.eigenvalues.unsqueeze(-2)) @ r.eigenvectors.transpose(-2, -1))(
        minitorch.linalg.eigh(a + a.transpose(-2, -1)))),
    ("pinv", lambda a: minitorch.linalg.pinv(a[..., :2])),
]


@pytest.mark.parametrize("name,fn", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(7)
    a = minitorch.randn(2, 3, 3, dtype=minitorch.float64) + 3 * minitorch.eye(3, dtype=minitorch.float64)
    a = a.to(device).requires_grad_()
    assert gradcheck(fn, (a,))


def test_double_backward_of_inv_det_solve():
    # create_graph=True: the backward formulas are minitorch ops, so their gradients have gradients
    minitorch.manual_seed(8)
    a = (minitorch.randn(3, 3, dtype=minitorch.float64) + 3 * minitorch.eye(3, dtype=minitorch.float64)).requires_grad_()
    def first_grad(f):
        def g(x):
            with minitorch.enable_grad():
                y = x if x.requires_grad else x.detach().requires_grad_()
                return minitorch.autograd.grad(f(y), y, create_graph=True)[0]
        return g

    for f in (lambda x: minitorch.linalg.inv(x).sum(), lambda x: minitorch.linalg.det(x),
              lambda x: (minitorch.linalg.solve(x, x + 1) ** 2).sum(),
              lambda x: (minitorch.linalg.svdvals(x) ** 3).sum()):
        assert gradcheck(first_grad(f), (a,))


# ---- devices ---------------------------------------------------------------------------------------------------

DEVICE_CASES = [
    ("det", lambda a, b: minitorch.linalg.det(a)),
    ("slogdet", lambda a, b: minitorch.linalg.slogdet(a)),
    ("inv_ex", lambda a, b: minitorch.linalg.inv_ex(a)),
    ("solve", lambda a, b: minitorch.linalg.solve(a, b)),
    ("solve_ex_vector", lambda a, b: minitorch.linalg.solve_ex(a, b[..., 0])),
    ("svd", lambda a, b: minitorch.linalg.svd(b)),
    ("svdvals", lambda a, b: minitorch.linalg.svdvals(b)),
    ("qr", lambda a, b: minitorch.linalg.qr(b, mode="complete")),
    ("eigh", lambda a, b: minitorch.linalg.eigh(a)),
    ("pinv", lambda a, b: minitorch.linalg.pinv(b)),
    ("matrix_rank", lambda a, b: minitorch.linalg.matrix_rank(b)),
]


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    minitorch.manual_seed(9)
    a = minitorch.randn(2, 4, 4, dtype=dtype) + 4 * minitorch.eye(4, dtype=dtype)
    b = minitorch.randn(2, 4, 3, dtype=dtype)
    expected = fn(a, b)
    got = fn(a.to(device), b.to(device))
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert g.device.type == device and g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        if name == "pinv":
            # composed from device ops (a GPU's matmul sums in its own order): to rounding
            assert bool(((g.cpu() - e).abs() <= 1e-5).all())
        else:
            # the host kernels' values, copied: the same bits on every device
            assert g.cpu().tolist() == e.tolist()


def test_device_gradients(device):
    minitorch.manual_seed(10)
    a = (minitorch.randn(3, 3, dtype=minitorch.float64) + 3 * minitorch.eye(3, dtype=minitorch.float64))
    grads = []
    for dev in ("cpu", device):
        x = a.clone().to(dev).requires_grad_()
        (minitorch.linalg.det(x) + minitorch.linalg.inv(x).sum() + minitorch.linalg.svdvals(x).sum()).backward()
        assert x.grad.device.type == dev
        grads.append(x.grad.cpu())
    assert bool(((grads[0] - grads[1]).abs() <= 1e-12).all())


def test_device_mismatch(device):
    if device == "cpu":
        pytest.skip("needs a CUDA device")
    a = minitorch.eye(3, device=device)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, but found at least two "
                                           "devices, cuda:0 and cpu!"):
        minitorch.linalg.solve(a, minitorch.ones(3, 2))
    with pytest.raises(minitorch.linalg.LinAlgError, match="The diagonal element 2 is zero"):
        minitorch.linalg.inv(minitorch.tensor([[1., 2.], [2., 4.]], device=device))


# ---- bad input -------------------------------------------------------------------------------------------------

def test_huge_batches_of_empty_matrices():
    # 2**40 matrices of size 0: the results would need 2**40 elements, which raises (as torch's allocator
    # does) instead of looping over the batch
    x = minitorch.zeros(0, 0).expand(2 ** 40, 0, 0)
    for f in (minitorch.linalg.det, minitorch.linalg.inv_ex, minitorch.linalg.slogdet):
        with pytest.raises((RuntimeError, MemoryError)):
            f(x)
    # results without elements come back at once
    assert minitorch.linalg.svdvals(x).shape == (2 ** 40, 0)
    assert minitorch.linalg.eigvalsh(x).shape == (2 ** 40, 0)
    assert minitorch.linalg.qr(x).R.shape == (2 ** 40, 0, 0)
    y = minitorch.zeros(3, 0, 0)
    assert minitorch.linalg.det(y).tolist() == [1.0, 1.0, 1.0]
    assert minitorch.linalg.inv_ex(y).info.tolist() == [0, 0, 0]


def test_broadcast_batch_is_materialised_once():
    a = (minitorch.eye(3, dtype=minitorch.float64) * 2).expand(1000, 3, 3)
    assert minitorch.linalg.det(a).tolist() == [8.0] * 1000
    assert minitorch.linalg.solve(a, minitorch.ones(3, dtype=minitorch.float64)).shape == (1000, 3)


def test_huge_sizes_raise_not_crash():
    # a complete Q of a 2**31 x 1 matrix would need 2**62 elements
    a = minitorch.zeros(1, 1).expand(2 ** 31, 1)
    with pytest.raises((RuntimeError, MemoryError)):
        minitorch.linalg.qr(a, mode="complete")
