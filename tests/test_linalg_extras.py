"""linalg.matmul, linalg.diagonal, linalg.vecdot, linalg.tensorinv, linalg.tensorsolve, linalg.cond,
linalg.matrix_exp / torch.matrix_exp / Tensor.matrix_exp and linalg.lstsq against torch: errors and their
order, out=, dtypes, shapes, empty and batched inputs, non-contiguous inputs, autograd nodes, values
(matrix_exp bit for bit on the CPU: the same polynomials in the same order) and gradients; the refusal of
linalg.eig and linalg.eigvals, whose results are complex. Each test runs on the CPU and on the CUDA device
(MINITORCH_SIMULATE_GPU=1 runs it on the simulated GPU)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare_on  # noqa: E402
from test_more_linalg import HEAD as MORE_LINALG_HEAD, _gpu, _mt, _torch  # noqa: E402

import minitorch  # noqa: E402

# t() prints a result or the exception, g() a node and its next functions
HEAD = MORE_LINALG_HEAD + """
def v(x):
    # to 3 decimals (and -0 as 0): float32 solvers' last bits differ
    return (x.cpu().round(decimals=3) + 0.0) if x.is_floating_point() else x.cpu()
def show(r):
    print(type(r).__name__, [(tuple(x.shape), x.dtype) for x in r])
    print(v(r.solution), v(r.residuals), v(r.rank), v(r.singular_values))
"""


def _run(device, code):
    compare_on(device, HEAD + code)


def _close(mt_result, torch_result, rtol, atol=0.0):
    import torch
    assert str(mt_result.dtype).split(".")[1] == str(torch_result.dtype).split(".")[1]
    assert tuple(mt_result.shape) == tuple(torch_result.shape)
    torch.testing.assert_close(torch.tensor(mt_result.cpu().tolist(), dtype=torch_result.dtype), torch_result,
                               rtol=rtol, atol=atol, equal_nan=True)


# ---- errors, shapes, dtypes, nodes (printed the same) -----------------------------------------------------

def test_matmul_diagonal_vecdot(device):
    _run(device, """
A = torch.tensor([[2., 1., 0.5], [1., 3., 0.25], [0., 1., 4.]], device=DEV)
x = torch.tensor([1., -2., 0.5], device=DEV)
t(lambda: torch.linalg.matmul(A, x).cpu()); t(lambda: torch.linalg.matmul(x, x).cpu())
t(lambda: torch.linalg.matmul(A, A.t()).cpu())
t(lambda: torch.linalg.matmul(torch.ones(2, 3, device=DEV), torch.ones(2, 3, device=DEV)))
t(lambda: torch.linalg.matmul(torch.tensor(2., device=DEV), A)); t(lambda: torch.linalg.matmul(A))
B = torch.arange(24., device=DEV).view(2, 3, 4).clone()
t(lambda: torch.linalg.diagonal(B).cpu()); t(lambda: torch.linalg.diagonal(B, offset=1, dim1=0).cpu())
t(lambda: torch.linalg.diagonal(B, offset=-2, dim1=2, dim2=1).cpu()); t(lambda: torch.linalg.diagonal(x))
t(lambda: torch.linalg.diagonal(B, dim1=1, dim2=1)); t(lambda: torch.linalg.diagonal(B, 1))
print(torch.linalg.diagonal(B)._base is B)
t(lambda: torch.linalg.vecdot(A, x).cpu()); t(lambda: torch.linalg.vecdot(A, A, dim=0).cpu())
t(lambda: torch.linalg.vecdot(x, x).cpu()); t(lambda: torch.linalg.vecdot(x, x, dim=5).cpu())
t(lambda: torch.linalg.vecdot(A.t(), x[:, None], dim=-2).cpu())
t(lambda: torch.linalg.vecdot(A, A, dim=2)); t(lambda: torch.linalg.vecdot(A, x.double()))
t(lambda: torch.linalg.vecdot(torch.ones(3, dtype=torch.long, device=DEV), torch.ones(3, device=DEV)))
t(lambda: torch.linalg.vecdot(x, torch.ones(4, device=DEV)))
t(lambda: torch.linalg.vecdot(A, torch.ones(2, device=DEV)))
t(lambda: torch.linalg.vecdot(torch.ones(2, 0, device=DEV), torch.ones(0, device=DEV)).cpu())
X = A.clone().requires_grad_(); y = x.clone().requires_grad_()
g(torch.linalg.vecdot(X, y)); g(torch.linalg.vecdot(y, y)); g(torch.linalg.matmul(X, X))
g(torch.linalg.diagonal(X))
r = torch.linalg.vecdot(X, y); r.sum().backward(); print(X.grad.cpu(), y.grad.cpu())
""")


def test_tensorinv_tensorsolve(device):
    _run(device, """
A = torch.tensor([[2., 1., 0.5, 0.], [1., 3., 0.25, 1.], [0., 1., 4., 2.], [1., 0., 0., 1.]], device=DEV)
T = A.view(4, 2, 2)
t(lambda: torch.linalg.tensorinv(T, ind=1).cpu()); t(lambda: torch.linalg.tensorinv(A.view(2, 2, 4)).shape)
t(lambda: torch.linalg.tensorinv(A, 1).cpu()); t(lambda: torch.linalg.tensorinv(A.t(), ind=1).cpu())
t(lambda: torch.linalg.tensorinv(A, ind=0)); t(lambda: torch.linalg.tensorinv(A, ind=-1))
t(lambda: torch.linalg.tensorinv(A, ind=3)); t(lambda: torch.linalg.tensorinv(A, ind=2))
t(lambda: torch.linalg.tensorinv(torch.zeros(2, 2, device=DEV), ind=1))
t(lambda: torch.linalg.tensorinv(torch.eye(2, dtype=torch.long, device=DEV), ind=1))
t(lambda: torch.linalg.tensorinv(torch.ones(0, 0, device=DEV), ind=1).cpu())
t(lambda: torch.linalg.tensorinv(A.double(), ind=1).dtype)
b = torch.tensor([1., -1., 2., 0.5], device=DEV)
t(lambda: torch.linalg.tensorsolve(A, b).cpu()); t(lambda: torch.linalg.tensorsolve(T, b).cpu())
t(lambda: torch.linalg.tensorsolve(A.view(2, 2, 4), b.view(2, 2)).cpu())
t(lambda: torch.linalg.tensorsolve(A.view(4, 2, 2), b, dims=(0,)).cpu())
t(lambda: torch.linalg.tensorsolve(A.view(2, 2, 4), b.view(2, 2), dims=[0]).cpu())
t(lambda: torch.linalg.tensorsolve(A.view(2, 2, 4), b))
t(lambda: torch.linalg.tensorsolve(torch.zeros(2, 2, device=DEV), b[:2]))
t(lambda: torch.linalg.tensorsolve(A, b.double())); t(lambda: torch.linalg.tensorsolve(A, b, dims=(5,)))
X = A.clone().requires_grad_()
r = torch.linalg.tensorinv(X.view(2, 2, 4), ind=2); g(r)
print(type(r.grad_fn.next_functions[0][0].next_functions[0][0]).__name__)
r.pow(2).sum().backward(); print(X.grad.cpu())
X.grad = None
r = torch.linalg.tensorsolve(X.view(2, 2, 4), b.view(2, 2)); g(r); r.pow(2).sum().backward(); print(X.grad.cpu())
""")


def test_cond(device):
    _run(device, """
A = torch.tensor([[2., 1., 0.5], [1., 3., 0.25], [0., 1., 4.]], device=DEV)
for p in (None, 2, -2, 1, -1, inf, -inf, 1.0, 'fro', 'nuc'):
    t(lambda: torch.linalg.cond(A, p).cpu())
t(lambda: torch.linalg.cond(A.double(), 1).cpu()); t(lambda: torch.linalg.cond(torch.stack([A, 2 * A]), 'fro').cpu())
Z = torch.zeros(2, 2, device=DEV)
for p in (None, 1, 'fro', 'nuc', -2):
    t(lambda: torch.linalg.cond(Z, p).cpu())
R = torch.tensor([[1., 2., 3.], [0., 1., 5.]], device=DEV)
for p in (None, 2, -2, 1, 1.0, inf, -inf, 'fro', 'nuc'):
    t(lambda: torch.linalg.cond(R, p).cpu())
for p in (3, 3.5, 0, 'foo', 'inf'):
    t(lambda: torch.linalg.cond(A, p))
t(lambda: torch.linalg.cond(A[0])); t(lambda: torch.linalg.cond(A[0], 1)); t(lambda: torch.linalg.cond(A[0], 'fro'))
L = torch.ones(3, 3, dtype=torch.long, device=DEV)
t(lambda: torch.linalg.cond(L)); t(lambda: torch.linalg.cond(L, 1)); t(lambda: torch.linalg.cond(L, 'nuc'))
for p in (None, 1, 'fro', 'nuc'):
    t(lambda: torch.linalg.cond(torch.ones(2, 0, 0, device=DEV), p).cpu())
t(lambda: torch.linalg.cond(torch.ones(2, 0, 3, device=DEV)).cpu())
t(lambda: torch.linalg.cond(torch.ones(2, 0, 3, device=DEV), 1).cpu())
X = A.clone().requires_grad_()
r = torch.linalg.cond(X); g(r); r.backward(); print(X.grad.cpu())
X.grad = None
r = torch.linalg.cond(X, 'nuc'); g(r); r.backward(); print(X.grad.cpu())
g(torch.linalg.cond(X, 1)); g(torch.linalg.cond(X, 'fro'))
""")


def test_matrix_exp(device):
    _run(device, """
A = torch.tensor([[0.5, 1., -0.25], [0., -1., 0.75], [0.125, 0.5, 0.]], device=DEV)
for s in (0., 1e-9, 1e-5, 0.01, 0.1, 0.5, 1., 3., 20.):
    t(lambda: torch.linalg.matrix_exp(A * s).cpu()); t(lambda: torch.linalg.matrix_exp((A * s).double()).cpu())
t(lambda: torch.matrix_exp(torch.stack([A, 3 * A, A / 100])).cpu()); t(lambda: A.t().matrix_exp().cpu())
t(lambda: torch.linalg.matrix_exp(torch.tensor([[nan, 1.], [0., 1.]], device=DEV)).cpu())
t(lambda: torch.linalg.matrix_exp(torch.tensor([[inf, 1.], [0., 1.]], device=DEV)).cpu())
t(lambda: torch.linalg.matrix_exp(torch.tensor([[[nan, 1.], [0., 1.]], [[inf, 1.], [0., 1.]], [[1., 2.], [0., 1.]]],
                                               device=DEV)).cpu())
t(lambda: torch.linalg.matrix_exp(torch.ones(2, 1, 1, device=DEV)).cpu())
t(lambda: torch.linalg.matrix_exp(torch.ones(2, 0, 0, device=DEV)).cpu())
t(lambda: torch.linalg.matrix_exp(A[0])); t(lambda: torch.linalg.matrix_exp(A[:2]))
t(lambda: torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.long, device=DEV)))
t(lambda: torch.linalg.matrix_exp(A, out=torch.empty(0))); t(lambda: torch.matrix_exp())
X = A.clone().requires_grad_()
r = torch.linalg.matrix_exp(X); g(r); r.pow(2).sum().backward(); print(X.grad.cpu())
g(torch.matrix_exp(X)); g(X.matrix_exp()); g(torch.linalg.matrix_exp(X[:1, :1]))
""")


def test_lstsq(device):
    """gels, the driver of both devices (the CPU's default, gelsy, below)."""
    _run(device, """
A = torch.tensor([[2., 1.], [1., 3.], [0., 1.], [1., 1.]], device=DEV)
B = torch.tensor([[1., 0.], [2., 1.], [0., -1.], [1., 1.]], device=DEV)
def lstsq(a, b, *args, **kwargs):
    return torch.linalg.lstsq(a, b, *args, driver='gels', **kwargs)
show(lstsq(A, B)); show(lstsq(A, B[:, 0])); show(lstsq(A.double(), B.double())); show(lstsq(A.t(), B[:2]))
show(lstsq(A[:2], B[:2], None)); show(lstsq(A[:2], B[:2], 0.5))
show(lstsq(torch.stack([A, 2 * A]), B)); show(lstsq(torch.stack([A, 2 * A]), B.t()[0:2]))
show(lstsq(torch.ones(0, 2, device=DEV), torch.ones(0, 3, device=DEV)))
show(lstsq(torch.ones(3, 0, device=DEV), torch.ones(3, 2, device=DEV)))
show(lstsq(A[None], B[None, None])); show(lstsq(A.t()[None].expand(3, 2, 4), B[:2]))
t(lambda: lstsq(A[0], B[0])); t(lambda: lstsq(A, torch.tensor(1., device=DEV)))
t(lambda: lstsq(A, B.double())); t(lambda: lstsq(A, B[None, None]))
t(lambda: lstsq(A, B[:3])); t(lambda: lstsq(A, B[:3, 0])); t(lambda: lstsq(A.long(), B.long()))
t(lambda: lstsq(torch.ones(2, 1, 4, 3, device=DEV), torch.ones(3, 4, 2, device=DEV)))
t(lambda: lstsq(torch.ones(2, 4, 3, device=DEV), torch.ones(4, 2, device=DEV)))
t(lambda: lstsq(torch.ones(2, 4, 3, device=DEV), torch.ones(3, 4, device=DEV)))
t(lambda: torch.linalg.lstsq(A)); t(lambda: torch.linalg.lstsq(A, B, rcond='x'))
X = A.clone().requires_grad_(); Y = B.clone().requires_grad_()
r = lstsq(X, Y); g(r.solution); print(type(r.residuals.grad_fn).__name__, r.rank.grad_fn, r.singular_values.grad_fn)
r.solution.pow(2).sum().backward(); print(v(X.grad), v(Y.grad))
""")


def test_lstsq_cpu_drivers():
    """The CPU's drivers: which results gelsy (the default), gelsd, gelss and gels fill."""
    _run("cpu", """
A = torch.tensor([[2., 1.], [1., 3.], [0., 1.], [1., 1.]], device=DEV)
B = torch.tensor([[1., 0.], [2., 1.], [0., -1.], [1., 1.]], device=DEV)
for d in ('gelsy', 'gelsd', 'gelss', 'gels', 'GELSD'):
    show(torch.linalg.lstsq(A, B, driver=d)); show(torch.linalg.lstsq(A, B[:, 0], driver=d))
    show(torch.linalg.lstsq(torch.stack([A, 2 * A]), B, driver=d)); show(torch.linalg.lstsq(A[:2], B[:2], driver=d))
show(torch.linalg.lstsq(torch.ones(4, 3), B)); show(torch.linalg.lstsq(torch.ones(4, 4, 3), torch.ones(4, 2)))
t(lambda: torch.linalg.lstsq(A, B, driver='qr')); show(torch.linalg.lstsq(A[:2], B[:2], 0.1))
X = A.clone().requires_grad_(); Y = B.clone().requires_grad_()
r = torch.linalg.lstsq(X, Y); g(r.solution)
print(type(r.residuals.grad_fn).__name__, r.rank.grad_fn, r.singular_values.grad_fn)
S = torch.tensor([[1., 2.], [2., 4.], [3., 6.]])
for d in ('gelsy', 'gelsd', 'gelss'):
    show(torch.linalg.lstsq(S, B[:3], driver=d))
show(torch.linalg.lstsq(torch.stack([A, S.repeat(2, 1)[:4]]), B, driver='gelsd'))
X = A.clone().requires_grad_(); Y = B.clone().requires_grad_()
r = torch.linalg.lstsq(X, Y, driver='gelsd'); (r.solution.sum() + 2 * r.residuals.sum()).backward()
print(v(X.grad), v(Y.grad))
X.grad = Y.grad = None
r = torch.linalg.lstsq(X, Y[:, 0], driver='gels'); (r.solution.sum() + r.residuals.sum()).backward()
print(v(X.grad), v(Y.grad))
""")


def test_lstsq_cuda_driver(device):
    """On a CUDA device torch's only driver is gels: no rank, no singular values."""
    if device == "cpu":
        pytest.skip("the CUDA rules")
    A = minitorch.tensor([[2., 1.], [1., 3.], [0., 1.]], device=device)
    B = minitorch.tensor([[1.], [2.], [0.]], device=device)
    r = minitorch.linalg.lstsq(A, B)
    assert tuple(r.rank.shape) == (0,) and tuple(r.singular_values.shape) == (0,)
    assert tuple(r.residuals.shape) == (1,)
    assert minitorch.linalg.lstsq(A, B, driver="GELS").rank.numel() == 0
    with pytest.raises(RuntimeError, match="^torch.linalg.lstsq: `driver` other than `gels` is not supported on CUDA$"):
        minitorch.linalg.lstsq(A, B, driver="gelsd")


def test_out(device):
    _run(device, """
A = torch.tensor([[2., 1., 0.5], [1., 3., 0.25], [0., 1., 4.]], device=DEV)
for o in [torch.empty(0, dtype=torch.float64, device=DEV), torch.empty(0, dtype=torch.int64, device=DEV),
          torch.empty(5, device=DEV), torch.empty(0, device=DEV)]:
    t(lambda: torch.linalg.matmul(A, A, out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.vecdot(A, A, out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.vecdot(A[0], A[1], out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.tensorinv(A, ind=1, out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.tensorsolve(A, A[0], out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.cond(A, out=o).cpu()); print(o.shape, o.dtype)
    t(lambda: torch.linalg.cond(A, 'fro', out=o).cpu()); print(o.shape, o.dtype)
X = A.clone().requires_grad_()
for f in [lambda o: torch.linalg.matmul(X, A, out=o), lambda o: torch.linalg.vecdot(X, A, out=o),
          lambda o: torch.linalg.tensorinv(X, ind=1, out=o), lambda o: torch.linalg.tensorsolve(X, A[0], out=o),
          lambda o: torch.linalg.cond(X, 1, out=o), lambda o: torch.linalg.cond(X, out=o)]:
    o = torch.empty(0, device=DEV); t(lambda: f(o).detach().cpu()); print(type(o.grad_fn).__name__)
""")


def test_eig_refused():
    """torch's linalg.eig and eigvals return complex tensors, which minitorch does not have."""
    A = minitorch.tensor([[2., 1.], [1., 3.]])
    message = (r"^linalg.eig\(\): torch returns a complex result, which minitorch does not support \(it has no "
               r"complex dtype\)$")
    with pytest.raises(NotImplementedError, match=message):
        minitorch.linalg.eig(A)
    with pytest.raises(NotImplementedError, match=message.replace("eig", "eigvals", 1)):
        minitorch.linalg.eigvals(A)
    with pytest.raises(TypeError, match="linalg_eig"):
        minitorch.linalg.eig()


# ---- values and gradients on random inputs ------------------------------------------------------------------

@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_matrix_exp_values(device, dtype_name):
    """ATen's polynomials in its order: torch's bits on the CPU for every degree (the 1-norm picks it), a
    batch (the degree-18 polynomial with scaling and squaring) and non-contiguous input."""
    torch = _torch()
    g = torch.Generator().manual_seed(30)
    dtype = getattr(torch, dtype_name)
    M = torch.randn(5, 5, generator=g, dtype=dtype)
    inputs = [M * s for s in (1e-12, 1e-7, 1e-4, 3e-3, 0.02, 0.08, 0.25, 0.6, 2.0, 9.0)]
    inputs += [torch.randn(3, 2, 4, 4, generator=g, dtype=dtype) * 2, M.t() * 0.3, M[::2, ::2]]
    rtol = 1e-5 if dtype_name == "float32" else 1e-12
    for x in inputs:
        expected = torch.linalg.matrix_exp(x)
        result = minitorch.linalg.matrix_exp(_mt(x, device))
        if _gpu(device):
            _close(result, expected, rtol=rtol, atol=rtol)
        else:
            assert str(result.cpu().tolist()) == str(expected.tolist())


def test_gradients(device):
    """Gradients against torch's (float64): matrix_exp, vecdot, tensorinv, tensorsolve, cond (p None and
    'nuc') and lstsq (the solution's and the residuals', tall, wide and batched)."""
    torch = _torch()
    g = torch.Generator().manual_seed(31)

    def check(fn_torch, fn_mt, *inputs):
        ts = [x.clone().requires_grad_() for x in inputs]
        ms = [_mt(x, device).requires_grad_() for x in inputs]
        fn_torch(*ts).backward()
        fn_mt(*ms).backward()
        for t, m in zip(ts, ms):
            _close(m.grad, t.grad, rtol=1e-7, atol=1e-9)

    def d(*shape):
        return torch.randn(*shape, generator=g, dtype=torch.float64)

    check(lambda a: torch.linalg.matrix_exp(a).pow(2).sum(),
          lambda a: minitorch.linalg.matrix_exp(a).pow(2).sum(), d(4, 4) * 0.7)
    check(lambda a: torch.linalg.matrix_exp(a).sin().sum(),
          lambda a: minitorch.linalg.matrix_exp(a).sin().sum(), d(2, 3, 3))
    check(lambda x, y: torch.linalg.vecdot(x, y, dim=0).pow(2).sum(),
          lambda x, y: minitorch.linalg.vecdot(x, y, dim=0).pow(2).sum(), d(3, 4), d(3, 1))
    check(lambda a: torch.linalg.tensorinv(a, ind=1).pow(2).sum(),
          lambda a: minitorch.linalg.tensorinv(a, ind=1).pow(2).sum(), d(6, 2, 3))
    check(lambda a, b: torch.linalg.tensorsolve(a, b).pow(2).sum(),
          lambda a, b: minitorch.linalg.tensorsolve(a, b).pow(2).sum(), d(2, 3, 6), d(2, 3))
    check(lambda a: torch.linalg.cond(a), lambda a: minitorch.linalg.cond(a), d(4, 4))
    check(lambda a: torch.linalg.cond(a, "nuc"), lambda a: minitorch.linalg.cond(a, "nuc"), d(4, 4))
    for a_shape, b_shape in [((6, 3), (6, 2)), ((3, 5), (3, 2)), ((5, 3), (5,)), ((2, 5, 3), (2, 5))]:
        check(lambda a, b: torch.linalg.lstsq(a, b).solution.pow(2).sum(),
              lambda a, b: minitorch.linalg.lstsq(a, b).solution.pow(2).sum(), d(*a_shape), d(*b_shape))
    # double backward: matrix_exp's backward is itself a matrix_exp, lstsq's is made of minitorch's ops
    def lstsq_loss(m, a):
        return m.linalg.lstsq(a, m.ones(5, 2, dtype=m.float64, device=a.device)).solution.pow(2).sum()

    for make, x in ((lambda m, a: m.linalg.matrix_exp(a).pow(2).sum(), d(4, 4) * 0.5), (lstsq_loss, d(5, 3))):
        t, m = x.clone().requires_grad_(), _mt(x, device).requires_grad_()
        (gt,) = torch.autograd.grad(make(torch, t), t, create_graph=True)
        (gm,) = minitorch.autograd.grad(make(minitorch, m), m, create_graph=True)
        _close(gm, gt, rtol=1e-7, atol=1e-9)
        _close(minitorch.autograd.grad(gm.sin().sum(), m)[0], torch.autograd.grad(gt.sin().sum(), t)[0],
               rtol=1e-7, atol=1e-9)
    if device == "cpu":
        def loss(r):
            return r.solution.sum() + 3 * r.residuals.sum()

        check(lambda a, b: loss(torch.linalg.lstsq(a, b, driver="gelsd")),
              lambda a, b: loss(minitorch.linalg.lstsq(a, b, driver="gelsd")), d(6, 3), d(6, 2))


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_values(device, dtype_name):
    """cond, lstsq (torch's gelsy to its rounding: minitorch solves through the SVD in float64),
    tensorinv and tensorsolve on random and non-contiguous inputs."""
    torch = _torch()
    g = torch.Generator().manual_seed(32)
    dtype = getattr(torch, dtype_name)
    rtol = 1e-4 if dtype_name == "float32" else 1e-10
    A = torch.randn(3, 5, 5, generator=g, dtype=dtype)
    for p in (None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc"):
        _close(minitorch.linalg.cond(_mt(A, device), p), torch.linalg.cond(A, p), rtol=rtol)
        _close(minitorch.linalg.cond(_mt(A, device).transpose(-2, -1), p), torch.linalg.cond(A.mT, p), rtol=rtol)
    for a_shape, b_shape in [((7, 4), (7, 3)), ((4, 7), (4, 2)), ((2, 6, 6), (2, 6)), ((2, 1, 6, 3), (1, 4, 6, 2))]:
        a = torch.randn(*a_shape, generator=g, dtype=dtype)
        b = torch.randn(*b_shape, generator=g, dtype=dtype)
        r, e = minitorch.linalg.lstsq(_mt(a, device), _mt(b, device)), torch.linalg.lstsq(a, b)
        _close(r.solution, e.solution, rtol=rtol, atol=rtol)
        if device == "cpu":
            assert r.rank.tolist() == e.rank.tolist()
            r, e = minitorch.linalg.lstsq(_mt(a, device), _mt(b, device), driver="gelsd"), torch.linalg.lstsq(
                a, b, driver="gelsd")
            for x, y in zip(r, e):
                _close(x, y, rtol=rtol, atol=rtol) if x.dtype.is_floating_point else None
            assert r.rank.tolist() == e.rank.tolist()
    a = torch.randn(6, 2, 3, generator=g, dtype=dtype)
    _close(minitorch.linalg.tensorinv(_mt(a, device), ind=1), torch.linalg.tensorinv(a, ind=1), rtol=rtol, atol=rtol)
    _close(minitorch.linalg.tensorinv(_mt(a, device).permute(1, 2, 0), ind=2),
           torch.linalg.tensorinv(a.permute(1, 2, 0), ind=2), rtol=rtol, atol=rtol)
    b = torch.randn(2, 3, generator=g, dtype=dtype)
    _close(minitorch.linalg.tensorsolve(_mt(a, device).permute(1, 2, 0), _mt(b, device)),
           torch.linalg.tensorsolve(a.permute(1, 2, 0), b), rtol=rtol, atol=rtol)
    _close(minitorch.linalg.tensorsolve(_mt(a, device), _mt(b, device), dims=(0,)),
           torch.linalg.tensorsolve(a, b, dims=(0,)), rtol=rtol, atol=rtol)
