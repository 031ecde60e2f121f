"""More indexing, shape and matrix-product ops against torch: index_put with accumulate=True, masked_scatter,
addmv, addr, baddbmm, addbmm and the rest of the shape ops, printed by the same snippet under both (values
on every dtype, odd shapes, non-contiguous operands, out=, in-place forms, errors, gradients and node names);
gradcheck in float64 and the device path (each op on "cuda" against the CPU)."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


def show_all(exprs):
    return "".join("print(repr(%s))\n" % e for e in exprs)


PRELUDE = """
torch.manual_seed(0)
x = (torch.randn(3, 5) * 4).round()
j = torch.tensor([2, 0, 2, 2])
"""

# ---- index_put(accumulate=True) ------------------------------------------------------------------------

snip("index_put_accumulate", PRELUDE + show_all([
    "x.index_put((j,), torch.ones(5), accumulate=True)", "x.index_put((j,), torch.ones(4, 5) * 0.5, True)",
    "torch.index_put(x, (j, torch.tensor([4, 4, 4, 1])), torch.tensor([1., 2., 3., 4.]), accumulate=True)",
    "x.index_put((x > 1,), torch.tensor(-1.), accumulate=True)",
    "x.index_put((x > 1,), torch.arange(float((x > 1).sum())), accumulate=True)",
    "x.index_put((j.int(),), torch.ones(5), accumulate=True)",
    "x.index_put((torch.tensor([True, False, True]),), torch.ones(5), accumulate=True)",
    "x.t().index_put((torch.tensor([1, 3, 1]),), torch.ones(3, 3), accumulate=True)",
    "x.t().index_put((torch.tensor([1, 3, 1]),), torch.ones(3, 3), accumulate=True).stride()",
    "x.index_put((torch.tensor([[0], [2]]), torch.tensor([1, 1, 3])), torch.tensor(9.), accumulate=True)",
    "x.index_put(indices=(j,), values=torch.tensor(2.), accumulate=True)",
    "x.index_put((j,), torch.ones(1, 4, 5), accumulate=True)",
    "x.index_put((torch.tensor([], dtype=torch.long),), torch.tensor(1.), accumulate=True)",
    "torch.arange(60.).reshape(3, 4, 5).index_put((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 1]), torch.tensor([4, 4, 0])), torch.tensor([1., 2., 3.]), accumulate=True)",
    "torch.arange(60.).reshape(3, 4, 5)[:, :, ::2].index_put((torch.tensor([0, 0, 2]),), torch.ones(4, 3), accumulate=True)",
    "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).index_put((torch.tensor([3, 3]), torch.tensor([1, 1]), torch.tensor([2, 2])), torch.tensor([5., 7.]), accumulate=True)",
]))

# non-adjacent index tensors (the indexed dims go first) and a view of a 3-d tensor
snip("index_put_accumulate_transposed", """
x = torch.arange(60.).reshape(3, 4, 5)
i = torch.tensor([0, 2, 0, 0])
k = torch.tensor([4, 4, 4, 1])
print(x.index_put((i, torch.tensor([0, 1, 0, 0]), k), torch.tensor([1., 2., 3., 4.]), accumulate=True).sum())
y = x.clone()
y[:, 1:3].index_put_((torch.tensor([1, 1, 0]),), torch.ones(3, 2, 5), accumulate=True)
print(y)
z = x.clone().transpose(0, 2)
print(z.index_put_((torch.tensor([0, 0, 3]), torch.tensor([1, 1, 1])), torch.tensor([[1.5], [2.25], [3.125]]), True))
""")

# repeated indices add every value in index order: the bits of torch's CPU loop, 16-bit dtypes rounded
# after each addition
snip("index_put_accumulate_dtypes", """
torch.manual_seed(0)
x = torch.randn(4, 6) * 3
i = torch.randint(0, 4, (40,))
v = torch.randn(40, 6) * 5
""" + "".join(
    f"y = x.to(torch.{d})\n"
    f"print(y.index_put((i,), v.to(torch.{d}), accumulate=True))\n"
    f"print(y.t().index_put((torch.tensor([1, 5, 1, 1]),), v[:4, :4].t().to(torch.{d}), accumulate=True))\n"
    f"print(y.index_put((i[:12] % 4, i[12:24] % 6), v[0, 0].to(torch.{d}), accumulate=True))\n"
    for d in DTYPES))

snip("index_put_accumulate_in_place", PRELUDE + """
y = x.clone()
print(y.index_put_((j,), torch.ones(5), accumulate=True) is y, y, y._version)
print(torch.index_put_(y, (y > 0,), torch.tensor(0.5), True) is y, y)
print(torch.zeros(3).index_put_((torch.tensor([1, 1]),), torch.tensor([2., 5.]), accumulate=True))
print(torch.zeros(3, dtype=torch.long).index_put_((torch.tensor([1, 1, -1]),), torch.tensor([2, 5, 7]), accumulate=True))
""")

snip("index_put_accumulate_errors", PRELUDE + """
def attempt(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
attempt(lambda: x.index_put((torch.tensor([3]),), torch.tensor(1.), accumulate=True))
attempt(lambda: x.index_put((torch.tensor([-4]),), torch.tensor(1.), accumulate=True))
attempt(lambda: x.index_put((j,), torch.tensor(1., dtype=torch.float64), accumulate=True))
attempt(lambda: x.index_put((j,), torch.ones(3, 5), accumulate=True))
attempt(lambda: x.index_put((j, j, j), torch.tensor(1.), accumulate=True))
attempt(lambda: x.index_put((j.float(),), torch.tensor(1.), accumulate=True))
attempt(lambda: x.index_put_((j,), x[0], accumulate=True))
""")

snip("index_put_accumulate_grad", """
a = torch.arange(20.).reshape(4, 5).requires_grad_()
v = torch.tensor([1., 2., 3.], requires_grad=True)
r = a.index_put((torch.tensor([0, 0, 3]),), torch.ones(5) * v.sum(), accumulate=True)
print(r.grad_fn.name(), [(f.name(), k) for f, k in r.grad_fn.next_functions])
r.pow(2).sum().backward()
print(a.grad, v.grad)
b = a.detach().clone().requires_grad_()
c = b * 1
c.index_put_((torch.tensor([1, 1]), torch.tensor([2, 2])), v[:2] * 2, accumulate=True)
print(c.grad_fn.name(), c._version)
(c * c).sum().backward()
print(b.grad, v.grad)
w = torch.ones(3, 4, requires_grad=True)
u = torch.randn(2, 4, requires_grad=True)
s = w.index_put((torch.tensor([0, 0]),), u, accumulate=True)
g, = torch.autograd.grad(s.sum() * 2, u)
print(g)
""")

# ---- masked_scatter -------------------------------------------------------------------------------------

MASKED = """
torch.manual_seed(0)
x = (torch.randn(3, 5) * 4).round()
m = torch.randn(3, 5) > 0
s = torch.arange(1., 16.)
def attempt(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
"""

snip("masked_scatter", MASKED + show_all([
    "x.masked_scatter(m, s)", "torch.masked_scatter(x, m, s)", "torch.masked_scatter(x, m, source=s * 2)",
    "x.masked_scatter(m[0], s)", "x.masked_scatter(m[:, :1], s)", "x[0].masked_scatter(m, s)",
    "x[0].masked_scatter(m, s).stride()", "x.t().masked_scatter(m.t(), s)", "x.t().masked_scatter(m.t(), s).stride()",
    "x.masked_scatter(m, s.reshape(3, 5))", "x.masked_scatter(m, s[::2])", "x.masked_scatter(torch.zeros_like(m), s[:0])",
    "x.masked_scatter(torch.ones_like(m), s)", "torch.tensor(2.).masked_scatter(torch.tensor(True), s)",
    "torch.empty(0, 3).masked_scatter(torch.ones(3, dtype=torch.bool), s)",
]))

snip("masked_scatter_dtypes", MASKED + "".join(
    f"print(x.to(torch.{d}).masked_scatter(m, (s * 1.7 - 9).to(torch.{d})))\n"
    f"print(x.to(torch.{d}).t().clone().masked_scatter_(m.t(), (s * 1.7 - 9).to(torch.{d})[1::2]))\n"
    for d in DTYPES))

snip("masked_scatter_in_place", MASKED + """
y = x.clone()
print(y.masked_scatter_(m, s) is y, y, y._version)
z = x.clone().t()
z.masked_scatter_(m.t(), s)
print(z, z.stride())
w = x.clone()
w.masked_scatter_(m[1], w[2].clone().repeat(3))
print(w)
print(hasattr(torch, 'masked_scatter_'), hasattr(torch.Tensor, 'masked_scatter_'))
""")

snip("masked_scatter_errors", MASKED + """
import warnings
warnings.simplefilter("always")
attempt(lambda: x.masked_scatter(m.to(torch.uint8), s))
attempt(lambda: x.masked_scatter(m.long(), s))
attempt(lambda: x.masked_scatter(m, s[:3]))
attempt(lambda: x.masked_scatter(m, s.double()))
attempt(lambda: x.masked_scatter(torch.tensor([True, False, True, True]), s))
attempt(lambda: torch.zeros(1, 5).expand(3, 5).masked_scatter_(m, s))
attempt(lambda: x.masked_scatter(m, 1.0))
attempt(lambda: torch.masked_scatter(x, m, s, out=x))
attempt(lambda: x.clone().masked_scatter_(m.long(), s.double()))
""")

snip("masked_scatter_grad", """
torch.manual_seed(0)
m = torch.tensor([[True, False, True], [False, True, True]])
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(7, requires_grad=True)
r = a.masked_scatter(m, b)
print(r.grad_fn.name(), [(f.name(), k) for f, k in r.grad_fn.next_functions])
r.pow(2).sum().backward()
print(a.grad, b.grad)
c = a * 1
c.masked_scatter_(m, b * 2)
print(c.grad_fn.name(), c._version)
a2 = torch.randn(3, requires_grad=True)
r2 = a2.masked_scatter(m, b.reshape(7, 1)[:4])
r2.sum().backward()
print(a2.grad)
b3 = torch.randn(2, 2, requires_grad=True)
g, = torch.autograd.grad(torch.zeros(2, 3).masked_scatter(m, b3).pow(2).sum(), b3)
print(g)
""")

# ---- addmv, addr, baddbmm, addbmm -------------------------------------------------------------------------

PRODUCTS = """
torch.manual_seed(0)
def r(*shape):
    return (torch.randn(*shape) * 3).round()
def attempt(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
"""

snip("addmv", PRODUCTS + """
M, v, b = r(3, 5), r(5), r(3)
print(torch.addmv(b, M, v), b.addmv(M, v, beta=2, alpha=-3), torch.addmv(b[:1], M, v, beta=0.5))
print(torch.addmv(torch.tensor(2.), M.t().contiguous().t(), v), torch.addmv(b, M[:, ::2], v[:3]))
print(torch.addmv(torch.full((3,), float('nan')), M, v, beta=0), torch.addmv(b, M, v, alpha=0))
print(torch.addmv(b, torch.zeros(3, 0), torch.zeros(0), beta=2), torch.addmv(torch.zeros(0), torch.zeros(0, 4), r(4)))
print(torch.addmv(b.long(), M.long(), v.long(), beta=2, alpha=3), torch.addmv(b.long(), M.long(), v.long(), alpha=1.5))
o = torch.empty(3)
print(torch.addmv(b, M, v, out=o) is o, o)
y = b.clone()
print(y.addmv_(M, v, alpha=2) is y, y, y._version)
print(torch.addmv(0.5, b, M, v), torch.addmv(0.5, b, 2, M, v))
attempt(lambda: torch.addmv(b, M, r(4)))
attempt(lambda: torch.addmv(r(2), M, v))
attempt(lambda: torch.addmv(b, M[None], v))
attempt(lambda: torch.addmv(b, M, v.double()))
attempt(lambda: torch.addmv(b.bool(), M.bool(), v.bool()))
attempt(lambda: r(1).addmv_(M, v))
attempt(lambda: torch.addmv(b, M, v, out=torch.empty(3, dtype=torch.float64)))
attempt(lambda: torch.addmv(b.long(), M.long(), v.long(), beta=1e30))
""")

snip("addr", PRODUCTS + """
u, v, A = r(3), r(4), r(3, 4)
print(torch.addr(A, u, v), A.addr(u, v, beta=2, alpha=-3), torch.addr(A[:1], u, v, beta=0.5), torch.addr(A[0], u, v))
print(torch.addr(torch.full((3, 4), float('nan')), u, v, beta=0), torch.addr(A.t().contiguous().t(), u[::1], v))
print(torch.addr(A, u.long(), v.long()), torch.addr(A.long(), u, v), torch.addr(A.double(), u, v).dtype)
print(torch.addr(A.long(), u.long(), v.long(), beta=2, alpha=-1))
B = torch.randn(3, 4) > 0
print(torch.addr(B, u > 0, v > 0), torch.addr(B, u > 0, v > 0, beta=False), torch.addr(B, u > 0, v > 0, alpha=0, beta=2))
o = torch.empty(3, 4, dtype=torch.float64)
print(torch.addr(A, u, v, out=o) is o, o)
y = A.clone()
print(y.addr_(u, v, alpha=0.5) is y, y, y._version)
attempt(lambda: torch.addr(A, u[None], v))
attempt(lambda: torch.addr(A, u, v[None]))
attempt(lambda: torch.addr(r(2, 4), u, v))
attempt(lambda: torch.addr(A.long(), u.long(), v.long(), beta=0.5))
attempt(lambda: torch.addr(A.long(), u.long(), v.long(), alpha=0.5))
attempt(lambda: torch.addr(A, u, v, beta=True))
attempt(lambda: r(4).addr_(u, v))
attempt(lambda: A.long().addr_(u, v))
""")

snip("baddbmm_addbmm", PRODUCTS + """
b1, b2, C, D = r(2, 3, 5), r(2, 5, 4), r(2, 3, 4), r(3, 4)
print(torch.baddbmm(C, b1, b2), C.baddbmm(b1, b2, beta=2, alpha=-3), torch.baddbmm(D, b1, b2, beta=0.5))
print(torch.baddbmm(torch.full((2, 3, 4), float('nan')), b1, b2, beta=0), torch.baddbmm(C, b1.transpose(1, 2).contiguous().transpose(1, 2), b2))
print(torch.addbmm(D, b1, b2), D.addbmm(b1, b2, beta=2, alpha=-3), torch.addbmm(D[0], b1, b2, beta=0.5))
print(torch.addbmm(torch.full((3, 4), float('nan')), b1, b2, beta=0), torch.addbmm(D, b1[:0], b2[:0], beta=2))
print(torch.addbmm(D.long(), b1.long(), b2.long(), alpha=2), torch.baddbmm(C.int(), b1.int(), b2.int(), beta=-1))
o = torch.empty(2, 3, 4)
print(torch.baddbmm(C, b1, b2, out=o) is o, o)
o2 = torch.empty(3, 4)
print(torch.addbmm(D, b1, b2, out=o2) is o2, o2)
y = C.clone()
print(y.baddbmm_(b1, b2, alpha=2) is y, y._version)
z = D.clone()
print(z.addbmm_(b1, b2, beta=0) is z, z, z._version)
attempt(lambda: torch.baddbmm(C, b1, r(2, 6, 4)))
attempt(lambda: torch.baddbmm(C, b1[0], b2))
attempt(lambda: torch.baddbmm(C, b1, b2[0]))
attempt(lambda: torch.baddbmm(C.double(), b1, b2))
attempt(lambda: torch.baddbmm(C, b1, b2.double()))
attempt(lambda: torch.baddbmm(C.bool(), b1.bool(), b2.bool()))
attempt(lambda: r(1, 3, 4).baddbmm_(b1, b2))
attempt(lambda: torch.addbmm(D, b1, r(2, 6, 4)))
attempt(lambda: torch.addbmm(D, b1, r(3, 5, 4)))
attempt(lambda: torch.addbmm(r(2, 4), b1, b2))
attempt(lambda: torch.addbmm(C, b1, b2))
attempt(lambda: torch.addbmm(D.double(), b1, b2))
attempt(lambda: torch.addbmm(D, b1.double(), b2))
attempt(lambda: torch.baddbmm(C, b1, b2, out=torch.empty(1, dtype=torch.float64)))
attempt(lambda: torch.addbmm(D, b1, b2, out=torch.empty(1, dtype=torch.float64)))
""")

# the 16-bit and integer dtypes: torch's rounding (float16/bfloat16 in float32, rounded once per op)
snip("products_dtypes", PRODUCTS + "".join(
    f"M, v, b = (torch.randn(3, 5) * 3).to(torch.{d}), (torch.randn(5) * 2).to(torch.{d}), (torch.randn(3) * 3).to(torch.{d})\n"
    f"print(torch.addmv(b, M, v, beta=2, alpha=3))\n"
    f"u, w, A = (torch.randn(3) * 3).to(torch.{d}), (torch.randn(4) * 3).to(torch.{d}), (torch.randn(3, 4) * 3).to(torch.{d})\n"
    f"print(torch.addr(A, u, w, beta=3, alpha=2), torch.addr(A, u, w))\n"
    f"b1, b2, C = (torch.randn(2, 3, 5) * 2).to(torch.{d}), (torch.randn(2, 5, 4) * 2).to(torch.{d}), (torch.randn(2, 3, 4) * 3).to(torch.{d})\n"
    f"print(torch.baddbmm(C, b1, b2, beta=2), torch.addbmm(C[0], b1, b2, alpha=3))\n"
    for d in DTYPES[:-1]) + "print(torch.addr(torch.ones(2, 3) > 0, torch.tensor([True, False]), torch.tensor([True, False, True]), beta=False))\n")

snip("products_grad", PRODUCTS + """
M, v, b = r(3, 5).requires_grad_(), r(5).requires_grad_(), r(3).requires_grad_()
y = torch.addmv(b, M, v, beta=2, alpha=-3)
print(y.grad_fn.name(), [(f.name(), k) for f, k in y.grad_fn.next_functions])
y.pow(2).sum().backward()
print(M.grad, v.grad, b.grad)
u, w, A = r(3).requires_grad_(), r(4).requires_grad_(), r(4).requires_grad_()
y = torch.addr(A, u, w, beta=0.5, alpha=2)
print(y.grad_fn.name())
y.pow(2).sum().backward()
print(u.grad, w.grad, A.grad)
b1, b2, C = r(2, 3, 5).requires_grad_(), r(2, 5, 4).requires_grad_(), r(3, 4).requires_grad_()
y = torch.baddbmm(C, b1, b2, beta=3)
print(y.grad_fn.name())
y.pow(2).sum().backward()
print(b1.grad, b2.grad, C.grad)
b1.grad = b2.grad = C.grad = None
y = torch.addbmm(C, b1, b2, alpha=0.5)
print(y.grad_fn.name())
y.pow(2).sum().backward()
print(b1.grad, b2.grad, C.grad)
z = C * 1
z.addbmm_(b1, b2)
print(z.grad_fn.name(), z._version)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_more_indexing_parity(code):
    compare(code)


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

def _on(t, ref):
    return minitorch.tensor(t, device=ref.device)


GRADCHECK_CASES = [
    ("masked_scatter", lambda a, b: a.masked_scatter(b > 0, b.flatten() * 2)),
    ("masked_scatter_in_place", lambda a, b: (a * 1).masked_scatter_(a[0] > 0, b.flatten())),
    ("addmv", lambda a, b: minitorch.addmv(a[:, 0], a, b[0], beta=0.5, alpha=2)),
    ("addr", lambda a, b: minitorch.addr(a, a[:, 1], b[2], beta=2, alpha=-1)),
    ("baddbmm", lambda a, b: minitorch.baddbmm(a[None], a[None, :, :3], b[None, :3], alpha=3)),
    ("addbmm", lambda a, b: minitorch.addbmm(a[:, :3], a.reshape(2, 3, 2), b.reshape(2, 2, 3), beta=2)),
    ("in_place_products", lambda a, b: (a * 1).addr_(a[:, 0], b[0])[None].baddbmm_(a[None, :, :3], b[None, :3])),
    ("index_put_accumulate", lambda a, b: a.index_put((_on([2, 0, 2], a),), b[:3] * 3, accumulate=True)),
    ("index_put_accumulate_in_place",
     lambda a, b: (a * 1).index_put_((_on([1, 1], a), _on([3, 3], a)), b[0, :2], accumulate=True)),
]


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    b = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (a, b))


DEVICE_CASES = [
    ("masked_scatter", lambda x, s, i: x.masked_scatter(i[:, :1] > 2, s.t())),
    ("masked_scatter_in_place", lambda x, s, i: x.clone().masked_scatter_(s > 0, s.repeat(2, 1)[1:])),
    ("index_put_accumulate", lambda x, s, i: x.index_put((i[0],), s[:6], accumulate=True)),
    ("index_put_accumulate_t", lambda x, s, i: x.t().index_put((i[1], i[2]), s[0, :6], accumulate=True)),
    ("index_put_accumulate_in_place", lambda x, s, i: x.clone().index_put_((i[3],), s[0, 0], accumulate=True)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    """Random values, repeated indices (added in index order on every backend), non-contiguous operands."""
    minitorch.manual_seed(1)
    dt = getattr(minitorch, dtype)
    x = (minitorch.randn(7, 9) * 4).to(dt)
    s = (minitorch.randn(7, 9) * 4).to(dt)
    i = minitorch.randint(0, 5, (7, 6))
    expected = fn(x, s, i)
    got = fn(x.to(device), s.to(device), i.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.cpu().tolist() == expected.tolist()


PRODUCT_CASES = [
    ("addmv", lambda x, s: minitorch.addmv(x[:, 0], x, s[:, 0], beta=2, alpha=3)),
    ("addr", lambda x, s: x.t().addr(s[:, 1], s[0], alpha=2)),
    ("baddbmm", lambda x, s: minitorch.baddbmm(x[:3, :3], x[:6].reshape(2, 3, 9)[:, :, :4], s[:8].reshape(2, 4, 7)[:, :, :3])),
    ("addbmm", lambda x, s: x[:3, :3].clone().addbmm_(x[:3].reshape(3, 3, 3)[:, :, :2], s[:6].reshape(3, 2, 7)[:, :, 3:6])),
]


@pytest.mark.parametrize("dtype", DTYPES[:-1])
@pytest.mark.parametrize("name,fn", PRODUCT_CASES, ids=[c[0] for c in PRODUCT_CASES])
def test_products_device_matches_cpu(device, name, fn, dtype):
    """Small whole numbers (exact sums on every backend), non-contiguous operands."""
    minitorch.manual_seed(2)
    dt = getattr(minitorch, dtype)
    x = (minitorch.randn(7, 9) * 2).round().to(dt)
    s = (minitorch.randn(9, 7) * 2).round().to(dt)
    expected = fn(x, s)
    cuda_kernel = {"addmv": "addmv_impl_cuda", "baddbmm": "baddbmm_cuda", "addbmm": "addmm_cuda"}.get(name)
    if device == "cuda" and cuda_kernel is not None and not dt.is_floating_point:
        # torch's CUDA BLAS products have no integer kernels
        with pytest.raises(NotImplementedError, match=cuda_kernel):
            fn(x.to(device), s.to(device))
        return
    got = fn(x.to(device), s.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.cpu().tolist() == expected.tolist()
