"""The LU family (linalg.lu_factor, lu_factor_ex, lu, lu_solve, torch.lu_unpack, the deprecated torch.lu_solve
and torch.lu, Tensor.lu and Tensor.lu_solve) against torch: the same snippet under both (values to a
tolerance, since torch calls LAPACK's getrf through MKL/OpenBLAS and minitorch its own float64 kernel; pivots,
shapes, dtypes, strides, node names, warnings, errors and messages exactly), gradients (torch's for the same
losses, gradcheck in float64, double backward), out=, and every device."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare, compare_close  # noqa: E402

import minitorch  # noqa: E402
from minitorch.autograd import gradcheck  # noqa: E402

# every snippet below prints what each call returns (a tensor, or a tuple of them, with dtypes, shapes and
# strides) or raises
SHOW = """
def show(f):
    try:
        r = f()
        if isinstance(r, torch.Tensor):
            print(r, r.dtype, r.shape, r.stride())
        elif isinstance(r, tuple):
            print(type(r).__name__, r, [(t.dtype, t.shape, t.stride()) for t in r])
        else:
            print(r)
    except Exception as e:
        print(type(e).__name__, e)
"""

ERRORS = [
    # lu_factor, lu_factor_ex, lu: shapes, dtypes, pivot=False on the CPU, zero pivots, in torch's order and words
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
for x in [torch.ones(3), A.long(), A.half(), A.bfloat16(), A.bool(), torch.ones(0, 3).long(), torch.zeros(0, 3),
          torch.zeros(2, 0, 0), torch.zeros(3, 3), torch.stack([A, torch.zeros(3, 3)]), torch.tensor([[1., 2], [2, 4]]),
          torch.tensor([[0., 0, 1], [0, 0, 1]]), torch.tensor([[0., 1], [0, 2], [0, 3]])]:
    show(lambda: torch.linalg.lu_factor(x))
    show(lambda: torch.linalg.lu_factor_ex(x))
    show(lambda: torch.linalg.lu_factor_ex(x, check_errors=True))
    show(lambda: torch.linalg.lu(x))
    show(lambda: torch.linalg.lu_factor(x, pivot=False))
    show(lambda: torch.linalg.lu(x, pivot=False))
print(torch.linalg.lu_factor_ex(torch.zeros(3, 3)).info.requires_grad)
""",
    # lu_unpack: the pivots' dtype, the shapes, pivots out of range, unpack_data / unpack_pivots, any dtype
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
LU, piv = torch.linalg.lu_factor(A)
for data, pivots in [(LU, piv), (LU, piv.long()), (LU, piv.float()), (LU[0], piv), (torch.ones(3), piv.float()),
                     (LU[:2], piv), (LU, piv + 5), (LU, piv - 5), (LU.unsqueeze(0), piv), (LU, piv[:2]),
                     (LU.long(), piv), (LU.half(), piv), (LU.bool(), piv), (torch.ones(5, 3), piv),
                     (torch.ones(3, 5), piv), (torch.ones(3, 0), torch.zeros(0, dtype=torch.int32)),
                     (torch.ones(2, 1, 3, 3), piv.expand(2, 1, 3).contiguous()), (torch.ones(2, 3, 3), piv)]:
    show(lambda: torch.lu_unpack(data, pivots))
    show(lambda: torch.lu_unpack(data, pivots, unpack_data=False))
    show(lambda: torch.lu_unpack(data, pivots, unpack_pivots=False))
    show(lambda: torch.lu_unpack(data, pivots, False, False))
""",
    # linalg.lu_solve: the checks of its meta function, in order, and broadcasting
    """
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
LU, piv = torch.linalg.lu_factor(A)
LU2, piv2 = torch.linalg.lu_factor(torch.stack([A, 2 * A]).unsqueeze(1))
for M, p in [(LU, piv), (LU.int(), piv), (LU, piv.long()), (LU[0], piv), (LU[:2], piv), (LU, piv[:2]),
             (LU2, piv2), (LU2, piv2[:1]), (LU.half(), piv)]:
    for B in [torch.ones(3, 2), torch.ones(3), torch.ones(2, 3), torch.ones(4, 3, 2), torch.ones(3, 2).double(),
              torch.ones(3, 2).int(), torch.ones(3, 2, 3, 2), torch.ones(0, 3, 2), torch.ones(3, 0), torch.ones(3, 2).half()]:
        show(lambda: torch.linalg.lu_solve(M, p, B))
        show(lambda: torch.linalg.lu_solve(M, p, B, left=False))
        show(lambda: torch.linalg.lu_solve(M, p, B, adjoint=True))
show(lambda: torch.linalg.lu_solve(torch.zeros(0, 0), torch.zeros(0, dtype=torch.int32), torch.zeros(0, 2)))
""",
    # the deprecated forms: their warning (once), results and errors; torch.lu's out=
    """
import warnings
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
B = torch.tensor([[1., 2], [3, 4], [5, 6]])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    LU, piv = torch.linalg.lu_factor(A)
    show(lambda: torch.lu_solve(B, LU, piv))
    show(lambda: B.lu_solve(LU, piv))
    show(lambda: torch.lu_solve(B, LU, piv.long()))
    show(lambda: torch.lu_solve(B.double(), LU, piv))
    show(lambda: torch.lu_solve(torch.ones(3), LU, piv))
    show(lambda: torch.lu(A))
    show(lambda: torch.lu(A, get_infos=True))
    show(lambda: torch.lu(A, True, True))
    show(lambda: torch.lu(torch.zeros(3, 3)))
    show(lambda: torch.lu(torch.zeros(2, 3, 3), get_infos=True))
    show(lambda: torch.lu(torch.ones(3)))
    show(lambda: torch.lu(A, pivot=False))
    show(lambda: A.lu())
    show(lambda: A.lu(get_infos=True))
    show(lambda: A.lu(False))
    out = (torch.empty(0), torch.empty(0, dtype=torch.int32))
    r = torch.lu(A, out=out)
    print(r is out, out, out[0].stride())
    out3 = [torch.empty(0), torch.empty(0, dtype=torch.int32), torch.empty(5, dtype=torch.int32)]
    r = torch.lu(A, get_infos=True, out=out3)
    print(r is out3, out3)
    show(lambda: torch.lu(A, get_infos=True, out=out))
    show(lambda: torch.lu(A, out=(torch.empty(0),)))
print(len(w), sorted(set(str(x.message).split(" (Triggered internally")[0] for x in w)),
      sorted(set(x.category.__name__ for x in w)))
""",
    # the argument parsers' messages (torch.lu and Tensor.lu parse as torch._lu_with_info)
    """
import warnings
warnings.simplefilter("ignore")
A = torch.ones(3, 3)
for f in [lambda: torch.lu(3), lambda: torch.lu(A, 2), lambda: torch.lu(A, pivot="x"), lambda: A.lu(1.5),
          lambda: torch.lu(A, True, False, None), lambda: A.lu_solve(), lambda: A.lu_solve(A, 3),
          lambda: torch.lu_unpack(A), lambda: torch.linalg.lu_factor(A, True), lambda: torch.linalg.lu_solve(A, A),
          lambda: torch.lu(A, get_infos=1), lambda: torch.lu(A, 1, 0), lambda: torch.linalg.lu(A, pivot=1),
          lambda: torch.linalg.lu_factor_ex(A, check_errors=None), lambda: torch.lu_solve(A, A)]:
    show(f)
""",
    # out=: the dtype rules and messages of each, the autograd refusal, strides of a resized out
    """
import warnings
warnings.simplefilter("ignore")
A = torch.tensor([[4., 2, 1], [2, 5, 3], [1, 3, 6]])
Ag = A.clone().requires_grad_()
LU, piv = torch.linalg.lu_factor(A)
i32 = lambda: torch.empty(0, dtype=torch.int32)
for dt in [torch.float32, torch.float64, torch.int32, torch.int64]:
    show(lambda: torch.linalg.lu_factor(A, out=(torch.empty(0, dtype=dt), i32())))
    show(lambda: torch.linalg.lu_factor(A, out=(torch.empty(0), torch.empty(0, dtype=dt))))
    show(lambda: torch.linalg.lu_factor_ex(A, out=(torch.empty(0), i32(), torch.empty(0, dtype=dt))))
    show(lambda: torch.linalg.lu(A, out=(torch.empty(0, dtype=dt), torch.empty(0), torch.empty(0))))
    show(lambda: torch.linalg.lu(A, out=(torch.empty(0), torch.empty(0), torch.empty(0, dtype=dt))))
    show(lambda: torch.lu_unpack(LU, piv, out=(torch.empty(0), torch.empty(0, dtype=dt), torch.empty(0))))
    show(lambda: torch.linalg.lu_solve(LU, piv, torch.ones(3, 2), out=torch.empty(0, dtype=dt)))
    show(lambda: torch.linalg.lu_solve(LU, piv, torch.ones(3, 2), left=False, adjoint=True, out=torch.empty(5, dtype=dt)))
    show(lambda: torch.lu_solve(torch.ones(3, 2), LU, piv, out=torch.empty(3, 2, dtype=dt)))
show(lambda: torch.linalg.lu_factor(A, out=(torch.empty(2), i32())))
show(lambda: torch.linalg.lu_factor(A, out=(torch.empty(0), i32(), i32())))
show(lambda: torch.linalg.lu_factor(Ag, out=(torch.empty(0), i32())))
show(lambda: torch.linalg.lu_factor_ex(Ag, out=(torch.empty(0), i32(), i32())))
show(lambda: torch.linalg.lu(Ag, out=(torch.empty(0), torch.empty(0), torch.empty(0))))
show(lambda: torch.lu_unpack(LU.clone().requires_grad_(), piv, out=(torch.empty(0), torch.empty(0), torch.empty(0))))
show(lambda: torch.linalg.lu_solve(LU, piv, torch.ones(3, 2, requires_grad=True), out=torch.empty(0)))
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_special_values(code):
    compare(SHOW + code)


VALUES = [
    # well-conditioned random matrices: LU to rounding, pivots exactly, P @ L @ U == A
    """
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    for shape in [(5, 5), (2, 4, 6), (3, 6, 4), (1, 1), (2, 1, 3, 3)]:
        A = torch.randn(*shape, dtype=dt)
        for M in [A, A.transpose(-2, -1), A[..., 1:, :]]:
            LU, piv = torch.linalg.lu_factor(M)
            print(LU, LU.stride(), piv, piv.stride())
            r = torch.linalg.lu_factor_ex(M)
            print(type(r).__name__, r.info, r.info.dtype)
            P, L, U = torch.linalg.lu(M)
            print(P, L, U, P.stride(), L.stride(), U.stride())
            print((P @ L @ U - M).abs().max() < 1e-4)
            P2, L2, U2 = torch.lu_unpack(LU, piv)
            print(torch.equal(P, P2), (L - L2).abs().max() < 1e-5, (U - U2).abs().max() < 1e-5)
""",
    """
torch.manual_seed(1)
for dt in [torch.float32, torch.float64]:
    A = torch.randn(2, 1, 4, 4, dtype=dt) + 3 * torch.eye(4, dtype=dt)
    LU, piv = torch.linalg.lu_factor(A)
    for B in [torch.randn(4, 2, dtype=dt), torch.randn(3, 4, 2, dtype=dt), torch.randn(2, 1, 4, 3, dtype=dt)]:
        for adjoint in [False, True]:
            X = torch.linalg.lu_solve(LU, piv, B, adjoint=adjoint)
            print(X, X.stride())
            Y = torch.linalg.lu_solve(LU, piv, B.transpose(-2, -1), left=False, adjoint=adjoint)
            print(Y, Y.stride())
    print(torch.linalg.lu_solve(LU[0, 0], piv[0, 0], torch.eye(4, dtype=dt)))
    Bn = torch.randn(5, 4, dtype=dt).t()
    print(torch.linalg.lu_solve(LU[1, 0], piv[1, 0], Bn))
    print(torch.linalg.lu_solve(LU.transpose(-2, -1).contiguous().transpose(-2, -1), piv, Bn))
""",
]


@pytest.mark.parametrize("code", VALUES)
def test_values(code):
    compare_close(code, rtol=2e-4, atol=2e-5)


GRADS = [
    """
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(2)
def grad(f, *inputs):
    xs = [t.clone().requires_grad_(t.is_floating_point()) for t in inputs]
    out = f(*xs)
    outs = out if isinstance(out, tuple) else (out,)
    sum((o * torch.linspace(-1, 1, o.numel(), dtype=o.dtype).reshape(o.shape)).sum()
        for o in outs if o.requires_grad).backward()
    return [x.grad for x in xs if x.is_floating_point()]
x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
LU0, piv0 = torch.linalg.lu_factor(x.detach())
for r in [torch.linalg.lu_factor(x), torch.linalg.lu_factor_ex(x), torch.linalg.lu(x), torch.lu(x),
          torch.lu_unpack(x, piv0), torch.linalg.lu_solve(x, piv0, torch.ones(3, 2, dtype=torch.float64)),
          torch.lu_solve(torch.ones(3, 2, dtype=torch.float64), x, piv0)]:
    print([(type(t.grad_fn).__name__, t.requires_grad) for t in r] if isinstance(r, tuple) else type(r.grad_fn).__name__)
for shape in [(4, 4), (2, 5, 3), (2, 3, 5)]:
    A = torch.randn(*shape, dtype=torch.float64)
    LU, piv = torch.linalg.lu_factor(A)
    print(grad(lambda a: torch.linalg.lu_factor(a).LU, A))
    print(grad(lambda a: torch.linalg.lu_factor_ex(a).LU, A))
    print(grad(lambda a: torch.linalg.lu(a)[1:], A))
    print(grad(lambda a: torch.linalg.lu(a).L, A))
    print(grad(lambda a: torch.linalg.lu(a).U, A))
    print(grad(lambda a: torch.lu_unpack(a, piv)[1:], LU))
    print(grad(lambda a: torch.lu_unpack(a, piv).L, LU))
    print(grad(lambda a: torch.lu_unpack(a, piv).U, LU))
A = torch.randn(2, 1, 3, 3, dtype=torch.float64)
LU, piv = torch.linalg.lu_factor(A)
for left in [True, False]:
    for adjoint in [False, True]:
        B = torch.randn(4, 3, 2, dtype=torch.float64)
        B = B if left else B.transpose(-2, -1)
        print(grad(lambda a, b: torch.linalg.lu_solve(a, piv, b, left=left, adjoint=adjoint), LU, B))
print(grad(lambda b, a: torch.lu_solve(b, a, piv), torch.randn(2, 1, 3, 2, dtype=torch.float64), LU))
""",
]


@pytest.mark.parametrize("code", GRADS)
def test_gradients_match_torch(code):
    compare_close(code, rtol=1e-6, atol=1e-8)


def _well_conditioned(device, shape=(2, 3, 3)):
    minitorch.manual_seed(7)
    eye = minitorch.eye(shape[-2], shape[-1], dtype=minitorch.float64)
    return (minitorch.randn(*shape, dtype=minitorch.float64) + 3 * eye).to(device)


GRADCHECK = [
    ("lu_factor", lambda a, b: minitorch.linalg.lu_factor(a).LU),
    ("lu_factor_ex_wide", lambda a, b: minitorch.linalg.lu_factor_ex(minitorch.cat([a, b], -1)).LU),
    ("lu", lambda a, b: minitorch.linalg.lu(a)[1:]),
    ("lu_tall", lambda a, b: minitorch.linalg.lu(minitorch.cat([a, b.transpose(-2, -1)], -2))[1:]),
    ("lu_unpack", lambda a, b: minitorch.lu_unpack(a, minitorch.linalg.lu_factor(a.detach()).pivots)[1:]),
    ("lu_solve", lambda a, b: minitorch.linalg.lu_solve(a, minitorch.linalg.lu_factor(a.detach()).pivots, b)),
    ("lu_solve_adjoint_right", lambda a, b: minitorch.linalg.lu_solve(
        a, minitorch.linalg.lu_factor(a.detach()).pivots, b.transpose(-2, -1), left=False, adjoint=True)),
]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name,fn", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck(device, name, fn):
    a = _well_conditioned(device).requires_grad_()
    b = minitorch.randn(2, 3, 2, dtype=minitorch.float64).to(device).requires_grad_()
    assert gradcheck(fn, (a, b))


def test_double_backward():
    a = _well_conditioned("cpu", (3, 3)).requires_grad_()
    pivots = minitorch.linalg.lu_factor(a.detach()).pivots

    def first_grad(f):
        def g(x):
            with minitorch.enable_grad():
                return minitorch.autograd.grad(f(x), x, create_graph=True)[0]
        return g

    for f in (lambda x: (minitorch.linalg.lu_factor(x).LU ** 2).sum(),
              lambda x: (minitorch.linalg.lu(x).U ** 2).sum() + minitorch.linalg.lu(x).L.sum(),
              lambda x: (minitorch.linalg.lu_solve(x, pivots, x) ** 2).sum()):
        assert gradcheck(first_grad(f), (a,))


def test_p_l_u_reconstruct_non_contiguous():
    minitorch.manual_seed(3)
    base = minitorch.randn(4, 7, 6, dtype=minitorch.float64)
    for A in (base.transpose(-2, -1), base[:, ::2, 1:], base[1]):
        P, L, U = minitorch.linalg.lu(A)
        assert (P @ L @ U - A).abs().max().item() < 1e-12
        LU, piv = minitorch.linalg.lu_factor(A)
        assert minitorch.equal(minitorch.lu_unpack(LU, piv).P, P)


DEVICE_CASES = [
    ("lu_factor_ex", lambda a, b: minitorch.linalg.lu_factor_ex(a)),
    ("lu_factor_wide", lambda a, b: minitorch.linalg.lu_factor(minitorch.cat([a, b], -1))),
    ("lu", lambda a, b: minitorch.linalg.lu(a)),
    ("lu_tall", lambda a, b: minitorch.linalg.lu(minitorch.cat([a, b.transpose(-2, -1)], -2))),
    ("lu_unpack", lambda a, b: minitorch.lu_unpack(*minitorch.linalg.lu_factor(a))),
    ("lu_solve", lambda a, b: minitorch.linalg.lu_solve(*minitorch.linalg.lu_factor(a), b)),
    ("lu_solve_right_adjoint", lambda a, b: minitorch.linalg.lu_solve(*minitorch.linalg.lu_factor(a),
                                                                       b.transpose(-2, -1), left=False, adjoint=True)),
]


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    a = _well_conditioned("cpu").to(dtype)
    b = minitorch.randn(2, 3, 2, dtype=dtype)
    expected = fn(a, b)
    got = fn(a.to(device), b.to(device))
    for e, g in zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]:
        assert g.device.type == device and g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        # the host kernels' values, copied: the same bits on every device
        assert g.cpu().tolist() == e.tolist()


def test_pivot_false_on_cuda(device):
    # torch's CUDA path factors without row exchanges when asked; its CPU one refuses
    a = _well_conditioned("cpu")
    if device == "cpu":
        with pytest.raises(RuntimeError, match="LU without pivoting is not implemented on the CPU"):
            minitorch.linalg.lu_factor(a, pivot=False)
        return
    LU, piv = minitorch.linalg.lu_factor(a.to(device), pivot=False)
    assert piv.cpu().tolist() == [[1, 2, 3]] * 2
    P, L, U = minitorch.linalg.lu(a.to(device), pivot=False)
    assert P.shape == (0,) and (L @ U - a.to(device)).abs().max().item() < 1e-12
