"""geqrf (torch.geqrf, Tensor.geqrf) and ormqr (torch.ormqr, Tensor.ormqr) against torch: the same snippet
under both (values to a tolerance, since torch calls LAPACK's geqrf/ormqr and minitorch its own float64
kernels; shapes, dtypes, strides, node names, errors and messages exactly), ormqr's gradients (torch's for
the same losses, gradcheck, double backward), out=, and every device."""

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
            print(type(r).__name__, [(t.dtype, t.shape, t.stride(), type(t.grad_fn).__name__) for t in r])
        else:
            print(r)
    except Exception as e:
        print(type(e).__name__, e)
"""

ERRORS = [
    # geqrf: dimensions, dtypes, empty inputs, the method, keywords, no derivative
    """
A = torch.tensor([[2., 1], [1, 3], [0.5, -1]])
for x in [A, A.t(), A[::2], A.double(), torch.ones(3), torch.tensor(1.), A.long(), A.half(), A.bfloat16(),
          A.bool(), torch.zeros(0, 3), torch.zeros(2, 0, 3), torch.zeros(3, 0).long(), A.expand(2, 3, 2)]:
    show(lambda: torch.geqrf(x), False)
    show(lambda: x.geqrf(), False)
show(lambda: torch.geqrf(input=A), False)
show(lambda: torch.geqrf())
show(lambda: A.geqrf(1))
a, tau = torch.geqrf(A.clone().requires_grad_())
print(type(a.grad_fn).__name__, a.grad_fn is tau.grad_fn)
show(lambda: a.sum().backward())
print(torch.geqrf(A).a.shape, torch.geqrf(A).tau.shape)
""",
    # ormqr: its checks in torch's order and words, for both sides
    """
D = torch.float64
def T(*s, dtype=D):
    return torch.ones(*s, dtype=dtype)
a, tau = torch.geqrf(torch.tensor([[2., 1, 0], [1, 3, 1], [0.5, -1, 2], [1, 1, 1], [0, 2, -1]], dtype=D))
C = torch.arange(10, dtype=D).reshape(5, 2)
cases = [(a, tau, C), (a[0], tau, C), (a, tau, C[0]), (a, tau, T(4, 2)), (a, tau[:2], C), (a, T(4), C),
         (a, torch.tensor(1., dtype=D), C), (a, torch.tensor(1., dtype=D), T(4, 2)), (a, tau[None], C),
         (a.expand(2, 5, 3), tau, C), (a.expand(2, 5, 3), tau.expand(2, 3), C),
         (a.expand(2, 5, 3), tau.expand(3, 3), C.expand(2, 5, 2)), (a.expand(2, 5, 3), tau.expand(2, 3), C.expand(3, 5, 2)),
         (a.expand(1, 5, 3), tau.expand(1, 3), C.expand(2, 5, 2)), (T(2, 5, 3), T(2), T(2, 5, 2)),
         (T(2, 5, 3), T(2, 2), T(5, 2)), (T(5, 3), T(2, dtype=torch.float32), T(5, 2)),
         (a, tau.float(), C), (a, tau, C.float()), (a.long(), tau, C.long()), (a.long(), tau.long(), C.long()),
         (a.half(), tau.half(), C.half()), (a.bfloat16(), tau.bfloat16(), C.bfloat16()),
         (a.bool(), tau.bool(), C.bool()), (T(5, 0, dtype=torch.long), T(0, dtype=torch.long), C.long()),
         (a[:, :0], tau[:0], C), (a, tau, T(5, 0)), (T(0, 0), T(0), T(0, 4)), (T(0, 5, 3), T(0, 3), T(0, 5, 2)),
         (T(2, 3), T(2), T(2, 4)), (T(2, 3), T(3), T(2, 4)), (T(3, 5), T(3), T(3, 2)), (T(3, 5), T(5), T(3, 2)),
         (torch.tensor([[1.]]), torch.tensor([1.]), torch.tensor([[1.]]).expand(1, 1))]
for x, t, c in cases:
    show(lambda: torch.ormqr(x, t, c), False)
for x, t, c in [(a, tau, C.t()), (a, tau, T(2, 5)), (T(3, 2), T(2), T(2, 3)), (T(3, 2), T(2), T(3, 3)),
                (T(4, 3), T(3), T(3, 4)), (T(4, 3), T(3), T(2, 4)), (T(4, 3), T(2), T(2, 4)), (T(2, 3), T(2), T(4, 2)),
                (T(2, 4, 3), T(2, 3), T(2, 4, 2)), (T(2, 2, 3), T(2, 2), T(2, 4, 2)), (T(2, 2, 3), T(2, 3), T(2, 4, 2))]:
    for transpose in [False, True]:
        show(lambda: torch.ormqr(x, t, c, left=False, transpose=transpose), False)
show(lambda: torch.ormqr(a, tau, C, True, True), False)
show(lambda: a.ormqr(tau, C, transpose=True), False)
show(lambda: torch.ormqr(input=a, input2=tau, input3=C), False)
show(lambda: torch.ormqr(a, tau, C, left=1))
show(lambda: torch.ormqr(a, tau, C, transpose=None))
show(lambda: torch.ormqr(a, tau))
""",
    # a meta operand: torch's meta function (its own size checks, torch.dtype names)
    """
D = torch.float64
def M(*s, dtype=D):
    return torch.empty(*s, dtype=dtype, device="meta")
def T(*s, dtype=D):
    return torch.ones(*s, dtype=dtype)
for x, t, c in [(M(5, 3), M(3), M(5, 2)), (M(5, 3), M(2), M(5, 2)), (M(5, 3), M(4), M(5, 2)), (M(5, 3), M(3), M(4, 2)),
                (M(2, 3), M(3), M(2, 4)), (M(5, 3, dtype=torch.long), M(3, dtype=torch.long), M(5, 2, dtype=torch.long)),
                (M(5, 3), M(3, dtype=torch.float32), M(5, 2)), (M(5, 3), M(3), M(5, 2, dtype=torch.float32)),
                (T(5, 3), M(3), T(5, 2)), (M(5, 3), T(3), T(5, 2)), (T(5, 3), T(3), M(5, 2)),
                (T(5, 3), M(3, dtype=torch.float32), T(5, 2)), (M(2, 5, 3), M(2, 3), M(2, 5, 2)),
                (M(2, 5, 3), M(3, 3), M(2, 5, 2))]:
    show(lambda: torch.ormqr(x, t, c))
    show(lambda: torch.ormqr(x, t, c, left=False))
show(lambda: torch.geqrf(M(3, 3)))
show(lambda: torch.geqrf(M(3)))
show(lambda: torch.geqrf(T(3, 3), out=(M(0), T(0))))
show(lambda: torch.geqrf(T(3, 3, dtype=torch.long).to("meta")))
""",
    # out=: each output's dtype rule, the autograd refusal, the strides of an empty and of a resized out
    """
import warnings
warnings.simplefilter("ignore")
D = torch.float64
A = torch.tensor([[2., 1, 0], [1, 3, 1], [0.5, -1, 2], [1, 1, 1], [0, 2, -1]], dtype=D)
a, tau = torch.geqrf(A)
C = torch.arange(10, dtype=D).reshape(5, 2)
def E(dtype=D, *s):
    return torch.empty(*(s or (0,)), dtype=dtype)
for d1, d2 in [(D, D), (torch.float32, D), (D, torch.float32), (torch.int64, D), (D, torch.int64), (torch.float16, D),
               (torch.float32, torch.float32)]:
    show(lambda: torch.geqrf(A, out=(E(d1), E(d2))))
    show(lambda: torch.geqrf(A.float(), out=(E(d1), E(d2))))
for o in [E(), E(torch.float32), E(torch.int64), E(D, 5, 2), E(D, 3), E(D, 2, 5), torch.empty(2, 5, dtype=D).t(),
          E(D, 5, 2).requires_grad_()]:
    show(lambda: torch.ormqr(a, tau, C, out=o))
    show(lambda: torch.ormqr(a, tau, C.t(), left=False, out=o))
for outs in [(E(), E(D, 3)), (E(D, 5, 3), E(D, 3)), (torch.empty(3, 5, dtype=D).t(), E(D, 3)), (E(D, 1), E(D, 1)),
             [E(), E()]]:
    show(lambda: torch.geqrf(A, out=outs))
show(lambda: torch.geqrf(A, out=E()))
show(lambda: torch.geqrf(A, out=(E(),)))
show(lambda: torch.geqrf(A, out=(E().requires_grad_(), E())))
show(lambda: torch.geqrf(A.clone().requires_grad_(), out=(E(), E())))
show(lambda: torch.ormqr(a.clone().requires_grad_(), tau, C, out=E()))
show(lambda: torch.ormqr(a, tau, C, out=E(D).to("meta")))
r = torch.ormqr(a, tau, C, out=E())
print(r, torch.ormqr(a, tau, C))
""",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors_and_special_values(code):
    compare(SHOW + code)


VALUES = [
    # geqrf: tall, wide, square, batched, transposed and sliced inputs, rank-deficient columns
    """
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    for shape in [(5, 3), (3, 5), (4, 4), (1, 1), (6, 1), (1, 6), (2, 3, 5, 4)]:
        A = torch.randn(*shape, dtype=dt)
        a, tau = torch.geqrf(A)
        print(a, tau, a.stride(), tau.stride())
        print(torch.geqrf(A.transpose(-2, -1)), A.geqrf())
    print(torch.geqrf(torch.randn(8, 6, dtype=dt)[::2, 1::2]))
    print(torch.geqrf(torch.tensor([[1., 2, 3], [0, 0, 0], [0, 0, 0]], dtype=dt)))
    print(torch.geqrf(torch.tensor([[0., 2], [0, 1], [0, 3]], dtype=dt)))
""",
    # ormqr of geqrf's reflectors (orthogonal Q) and of arbitrary ones, on both sides, transposed or not
    """
torch.manual_seed(1)
for dt in [torch.float32, torch.float64]:
    for m, n in [(5, 3), (4, 4), (3, 5)]:
        a, tau = torch.geqrf(torch.randn(m, n, dtype=dt))
        for left in [True, False]:
            for transpose in [False, True]:
                C = torch.randn(m, 3, dtype=dt) if left else torch.randn(2, m, dtype=dt)
                Y = torch.ormqr(a, tau, C, left, transpose)
                print(Y, Y.stride())
    V = torch.randn(2, 3, 6, 4, dtype=dt)
    t = torch.rand(2, 3, 4, dtype=dt) + 0.5
    print(torch.ormqr(V, t, torch.randn(2, 3, 6, 2, dtype=dt)))
    print(torch.ormqr(V, t, torch.randn(2, 3, 5, 6, dtype=dt), left=False, transpose=True))
    print(torch.ormqr(V[..., :2], t[..., :2], torch.randn(2, 3, 6, 1, dtype=dt).transpose(-2, -1), left=False))
    a, tau = torch.geqrf(torch.randn(6, 4, dtype=dt))
    Q = torch.linalg.householder_product(a, tau)
    print((torch.ormqr(a, tau, torch.eye(6, dtype=dt))[:, :4] - Q).abs().max() < 1e-5)
""",
]


@pytest.mark.parametrize("code", VALUES)
def test_values(code):
    compare_close(code, rtol=2e-4, atol=2e-5)


GRADS = [
    """
torch.manual_seed(2)
def grad(f, *inputs):
    xs = [t.clone().requires_grad_() for t in inputs]
    out = f(*xs)
    (out * torch.linspace(-1, 1, out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
    return [x.grad for x in xs]
for m, n in [(5, 3), (4, 4), (3, 5)]:
    a, tau = torch.geqrf(torch.randn(m, n, dtype=torch.float64))
    for left in [True, False]:
        for transpose in [False, True]:
            C = torch.randn(m, 2, dtype=torch.float64) if left else torch.randn(3, m, dtype=torch.float64)
            print(grad(lambda x, t, c: torch.ormqr(x, t, c, left, transpose), a, tau, C))
            print(type(torch.ormqr(a, tau, C.requires_grad_(), left, transpose).grad_fn).__name__)
V = torch.randn(2, 5, 3, dtype=torch.float64)
print(grad(lambda x, t, c: x.ormqr(t, c), V, torch.rand(2, 3, dtype=torch.float64), torch.randn(2, 5, 4, dtype=torch.float64)))
print(grad(lambda t, c: torch.ormqr(V[0], t, c), torch.rand(3, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64)))
print(grad(lambda x: torch.ormqr(x, torch.rand(3, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64)), V[0]))
print(grad(torch.ormqr, torch.zeros(3, 0, dtype=torch.float64), torch.zeros(0, dtype=torch.float64),
           torch.ones(3, 2, dtype=torch.float64)))
""",
]


@pytest.mark.parametrize("code", GRADS)
def test_gradients_match_torch(code):
    compare_close(code, rtol=1e-6, atol=1e-8)


def _operands(device, left):
    minitorch.manual_seed(7)
    V = minitorch.randn(2, 5, 3, dtype=minitorch.float64).to(device)
    tau = (minitorch.rand(2, 3, dtype=minitorch.float64) + 0.5).to(device)
    C = minitorch.randn(*((2, 5, 2) if left else (2, 4, 5)), dtype=minitorch.float64).to(device)
    return V, tau, C


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_gradcheck(device, left, transpose):
    V, tau, C = _operands(device, left)
    assert gradcheck(lambda v, t, c: minitorch.ormqr(v, t, c, left, transpose),
                     (V.requires_grad_(), tau.requires_grad_(), C.requires_grad_()))


def test_ormqr_double_backward():
    V, tau, C = _operands("cpu", False)

    def first_grad(v, t, c):
        with minitorch.enable_grad():
            y = minitorch.ormqr(v, t, c, left=False, transpose=True)
            return minitorch.autograd.grad((y ** 3).sum(), (v, t, c), create_graph=True)

    assert gradcheck(first_grad, (V.requires_grad_(), tau.requires_grad_(), C.requires_grad_()))


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64], ids=["float32", "float64"])
def test_device_matches_cpu(device, dtype):
    minitorch.manual_seed(3)
    A = minitorch.randn(2, 5, 4, dtype=dtype)
    C = minitorch.randn(2, 5, 3, dtype=dtype)
    expected = minitorch.geqrf(A)
    got = minitorch.geqrf(A.to(device))
    ys = [minitorch.ormqr(*expected, C), minitorch.ormqr(*got, C.to(device))]
    for e, g in list(zip(expected, got)) + [tuple(ys)]:
        assert g.device.type == device and g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        # the host kernels' values, copied: the same bits on every device
        assert g.cpu().tolist() == e.tolist()


def test_meta_shapes():
    Y = minitorch.ormqr(minitorch.empty(2, 5, 3, device="meta"), minitorch.empty(2, 3, device="meta"),
                        minitorch.empty(2, 4, 5, device="meta"), left=False)
    assert Y.device.type == "meta" and Y.shape == (2, 4, 5) and Y.stride() == (20, 1, 4)
    with pytest.raises(NotImplementedError, match="aten::geqrf: attempted to run this operator with Meta tensors"):
        minitorch.geqrf(minitorch.empty(3, 3, device="meta"))
