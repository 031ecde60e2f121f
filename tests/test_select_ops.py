"""The ops that pick one element per line (minitorch/_selecting.py: kthvalue, median, nanmedian, mode), the
products (minitorch/_products.py: cross, linalg.cross, einsum, tensordot, cartesian_prod, block_diag) and the
in-place views (squeeze_, unsqueeze_, t_, transpose_, swapdims_, swapaxes_). The
same snippet under torch and minitorch prints the same values, dtypes, named tuples, node names, gradients
and errors; the device tests run them on every device."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


def show_all(exprs):
    return "".join("print(repr(%s))\n" % e for e in exprs)


snip("kthvalue", show_all([
    "torch.kthvalue(torch.tensor([3., 1., 2., 5., 4.]), 2)", "torch.kthvalue(torch.tensor([3., 1., 2., 5.]), 4, 0)",
    "torch.tensor([[4, 9, -2], [7, 0, 3]]).kthvalue(2)", "torch.tensor([[4, 9, -2], [7, 0, 3]]).kthvalue(1, 0, True)",
    "torch.tensor([[4., 9., -2.], [7., 0., 3.]], dtype=torch.float64).kthvalue(3, dim=-1, keepdim=True)",
    "torch.tensor([[4, 9, -2], [7, 0, 3]], dtype=torch.int32).t().kthvalue(2)",
    "torch.tensor([1., float('nan'), 0.]).kthvalue(3)", "torch.tensor([1., float('nan'), 0.]).kthvalue(2)",
    "torch.tensor(5.).kthvalue(1)", "torch.kthvalue(torch.tensor(5), 1, 0, True)",
    "torch.zeros(0, 3).kthvalue(1, 1)",
    "torch.kthvalue(torch.tensor([1., 2.]), 0)", "torch.kthvalue(torch.tensor([1., 2.]), 3)",
    "torch.kthvalue(torch.tensor([1., 2.]), 1, 1)", "torch.kthvalue(torch.zeros(0, 3), 1, 0)",
    "torch.kthvalue(torch.tensor([True]), 1)", "torch.kthvalue(torch.tensor([1., 2.]))",
    "torch.kthvalue(torch.tensor([1., 2.]), 1, out=None)", "torch.tensor([1., 2.]).kthvalue(1.5)",
    "type(torch.kthvalue(torch.tensor([1., 2.]), 1)).__name__", "torch.kthvalue(torch.tensor([1., 2.]), 1).values",
    "len(torch.kthvalue(torch.tensor([1., 2.]), 1))", "isinstance(torch.tensor([1.]).kthvalue(1), tuple)",
]))

snip("median", show_all([
    "torch.median(torch.tensor([3., 1., 2., 4.]))", "torch.tensor([[3, 1], [2, 4]]).median()",
    "torch.tensor([3., float('nan'), 2.]).median()", "torch.tensor([]).median()",
    "torch.tensor([[1., 2., 2., 1.], [5., 5., 3., 3.]]).median(1)",
    "torch.tensor([[1., 2., 2., 1.], [5., 5., 3., 3.]]).median(0, keepdim=True)",
    "torch.tensor([[1., float('nan'), 0., 2.], [3., 1., 2., 2.]]).median(1)",
    "torch.tensor([[1., float('nan'), float('nan'), 2.], [3., 1., 2., 2.]]).median(-1)",
    "torch.tensor([[4, 9, -2, 5], [7, 0, 3, 3]], dtype=torch.int32).t().median(dim=0)",
    "torch.tensor(5.).median(0)", "torch.tensor(5.).median()", "torch.zeros(0, 3).median(1)",
    "torch.median(torch.zeros(0, 3), 0)", "torch.median(torch.tensor([True]))",
    "torch.median(torch.tensor([True]), 0)", "torch.median(torch.tensor([1., 2.]), 2)",
    "torch.median(torch.tensor([1., 2.]), 0, out=1)", "torch.median(torch.tensor([1., 2.]), keepdim=True)",
    "torch.tensor([], dtype=torch.bool).median()", "torch.tensor([], dtype=torch.int32).nanmedian()",
    "torch.zeros(0, 3, dtype=torch.bool).median(0)", "torch.tensor([True]).median(3)",
    "torch.tensor([True]).kthvalue(5)", "torch.tensor([True]).kthvalue(1, 3)", "torch.zeros(0, 3).kthvalue(2, 0)",
    "torch.zeros(2, 0).kthvalue(1, 0)",
]))

snip("nanmedian", show_all([
    "torch.nanmedian(torch.tensor([3., float('nan'), 1., 2.]))",
    "torch.tensor([float('nan'), float('nan')]).nanmedian()",
    "torch.tensor([[1., float('nan'), 0., 2.], [3., 1., 2., 2.]]).nanmedian(1)",
    "torch.tensor([[float('nan'), float('nan')], [3., 1.]]).nanmedian(1, True)",
    "torch.tensor([[1., float('nan'), 0., 2.], [float('nan'), 1., 2., 2.]], dtype=torch.float64).nanmedian(0)",
    "torch.tensor([4, 1, 3]).nanmedian()", "torch.tensor([[4, 1, 3]]).nanmedian(1)",
    "torch.nanmedian(torch.tensor([True]))", "torch.nanmedian(torch.tensor([True]), 0)",
    "torch.nanmedian(torch.zeros(2, 0), 1)",
]))

snip("mode", show_all([
    "torch.mode(torch.tensor([3., 1., 2., 1., 3., 2., 1.]))", "torch.mode(torch.tensor([2, 1, 2, 1, 3]))",
    "torch.tensor([[1., 2., 2., 1.], [5., 5., 3., 3.]]).mode()", "torch.tensor([[1, 2, 2, 1], [5, 5, 3, 3]]).mode(0)",
    "torch.tensor([[1, 2, 2, 1], [5, 5, 3, 3]], dtype=torch.int32).t().mode(1, keepdim=True)",
    "torch.tensor([True, False, True]).mode()", "torch.tensor([[7., -1., 7.]], dtype=torch.float64).mode(-1)",
    "torch.tensor(5.).mode()", "torch.tensor(5.).mode(0, True)", "torch.zeros(0, 3).mode(1)",
    "torch.mode(torch.zeros(0, 3), 0)", "torch.mode(torch.ones(2), 1)", "torch.mode(torch.ones(2), dim=0, keepdim=1.5)",
]))

snip("autograd", """
a = torch.tensor([[1., 2., 2., 1.], [5., 5., 3., 3.]], requires_grad=True)
print(a.median(), a.median(1), a.nanmedian(), a.nanmedian(1), a.kthvalue(2, 1), a.mode(1))
for f in [lambda: a.median(), lambda: a.nanmedian(), lambda: a.median(1, True).values, lambda: a.nanmedian(0).values,
          lambda: a.kthvalue(3, 1).values, lambda: a.kthvalue(1, 0, True).values, lambda: a.mode(0).values,
          lambda: torch.tensor([1., float('nan'), float('nan')], requires_grad=True).median(),
          lambda: a.t().mode().values]:
    r = f()
    (r * torch.arange(1., r.numel() + 1).reshape(r.shape)).sum().backward()
    print(r.grad_fn.name() if r.grad_fn is not None else None, a.grad)
    a.grad = None
s = torch.tensor(3., requires_grad=True)
r = s.kthvalue(1).values
r.backward()
print(r, s.grad)
print(torch.tensor([1., 2.]).median().requires_grad, a.median(0).indices.requires_grad)
with torch.no_grad():
    print(a.median(1))
""")


DEVICE_CASES = [
    ("kthvalue", lambda x: x.kthvalue(3, 1)),
    ("kthvalue_t", lambda x: minitorch.kthvalue(x.t(), 2, 0, True)),
    ("median", lambda x: x.median()),
    ("median_dim", lambda x: x.t().median(1)),
    ("nanmedian", lambda x: minitorch.where(x > 1, float("nan"), x).nanmedian(1)),
    ("nanmedian_all", lambda x: minitorch.where(x > 1, float("nan"), x).nanmedian()),
    ("mode", lambda x: (x * 2).round().mode(0)),
    ("mode_int", lambda x: (x * 2).round().int().mode(1, keepdim=True)),
]


@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn):
    minitorch.manual_seed(2)
    x = minitorch.randn(4, 5)
    expected = fn(x)
    got = fn(x.to(device))
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert g.device.type == device and g.dtype == e.dtype
        assert str(g.cpu().tolist()) == str(e.tolist())


@pytest.mark.parametrize("n", [15, 16, 17, 33, 100, 257])
def test_mode_replays_torch_unstable_sort(n):
    # lines longer than 16 (and lines with NaN): the index (and for NaN the value) is where libstdc++'s
    # introsort leaves the last element of the longest run
    torch = pytest.importorskip("torch")
    import random
    rng = random.Random(n)
    for kind in range(4):
        rows = []
        for _ in range(6):
            top = rng.choice([2, 3, n // 2 + 1])
            rows.append([float(rng.randint(0, top)) if kind < 2 or rng.random() > 0.3 else float("nan")
                         for _ in range(n)])
        t, m = torch.tensor(rows), minitorch.tensor(rows)
        if kind % 2:
            t, m = t.double().t(), m.double().t()
        dim = kind % 2
        e, g = t.mode(dim), m.mode(dim)
        assert str(g.values.tolist()) == str(e.values.tolist()) and g.indices.tolist() == e.indices.tolist()
        if kind < 2:
            e, g = t.long().mode(dim), m.long().mode(dim)
            assert g.values.tolist() == e.values.tolist() and g.indices.tolist() == e.indices.tolist()


def test_random_parity_with_torch():
    torch = pytest.importorskip("torch")
    import random
    rng = random.Random(5)
    for _ in range(120):
        shape = [rng.randint(1, 7) for _ in range(rng.randint(1, 3))]
        data = [float(rng.randint(-3, 3)) if rng.random() > 0.05 else float("nan") for _ in range(int(torch.Size(shape).numel()))]
        t = torch.tensor(data).reshape(shape)
        m = minitorch.tensor(data).reshape(shape)
        dim = rng.randrange(len(shape))
        for name in ("median", "nanmedian", "mode"):
            e, g = getattr(t, name)(dim), getattr(m, name)(dim)
            assert str(g.values.tolist()) == str(e.values.tolist()), name
            assert g.indices.tolist() == e.indices.tolist(), name
        k = rng.randint(1, shape[dim])
        e, g = t.kthvalue(k, dim, True), m.kthvalue(k, dim, True)
        assert str(g.values.tolist()) == str(e.values.tolist()) and g.indices.tolist() == e.indices.tolist()
        assert str(m.median().item()) == str(t.median().item())
        assert str(m.nanmedian().item()) == str(t.nanmedian().item())


def test_gradcheck(device):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, 5, dtype=minitorch.float64, device=device, requires_grad=True)
    assert minitorch.autograd.gradcheck(
        lambda a: (a.kthvalue(2, 1).values, a.median(), a.median(0).values, a.nanmedian(1, True).values,
                   a.nanmedian(), a.mode(1).values), (a,))


# ---- cross, linalg.cross, einsum, tensordot, cartesian_prod, block_diag (minitorch/_products.py) ----------

snip("cross", show_all([
    "torch.cross(torch.tensor([[1., 2., 3.], [4., 5., 6.]]), torch.tensor([[0.5, -1., 2.], [3., 0., 1.]]), dim=1)",
    "torch.linalg.cross(torch.tensor([[1., 2., 3.], [4., 5., 6.]]), torch.tensor([[0.5, -1., 2.], [3., 0., 1.]]))",
    "torch.tensor([[1., 2., 3.], [4., 5., 6.]]).t().cross(torch.tensor([[0.5, -1., 2.], [3., 0., 1.]]).t(), 0)",
    "torch.cross(torch.ones(3, 3), torch.arange(9.).reshape(3, 3))",
    "torch.linalg.cross(torch.ones(1, 3), torch.arange(6.).reshape(2, 3))",
    "torch.linalg.cross(torch.tensor([[1, 2, 3]]), torch.tensor([[4, 5, 6], [7, 8, 9]]))",
    "torch.cross(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([-4, 5, 6], dtype=torch.int32), 0)",
    "torch.linalg.cross(torch.tensor([1., float('inf'), 3.], dtype=torch.float64), torch.tensor([2., 1., 0.], dtype=torch.float64))",
    "torch.linalg.cross(torch.ones(2), torch.ones(2))", "torch.linalg.cross(torch.ones(3, 2), torch.ones(3, 2), dim=0)",
    "torch.cross(torch.ones(2, 2), torch.ones(2, 2))",
    "torch.linalg.cross(torch.ones(3), torch.ones(3, dtype=torch.float64))",
    "torch.linalg.cross(torch.ones(3), torch.ones(4, 3)[:2])", "torch.linalg.cross(torch.ones(2, 3), torch.ones(4, 3))",
    "torch.linalg.cross(torch.ones(3), torch.ones(3), dim=2)", "torch.cross(torch.ones(3), torch.ones(3), 5)",
    "torch.linalg.cross(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool))",
    "torch.linalg.cross(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([4., 5, 6]))",
    "torch.linalg.cross(torch.ones(0, 3), torch.ones(0, 3))", "torch.linalg.cross(torch.ones(3), 2)",
]) + """
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    p = torch.randn(500, 3, dtype=dt) * 10
    q = torch.randn(500, 3, dtype=dt)
    print(torch.linalg.cross(p, q).tolist() == torch.linalg.cross(p.t().contiguous().t(), q, dim=1).tolist(),
          hash(tuple(torch.linalg.cross(p, q).reshape(-1).tolist())))
    # past 1e300 (float64) and 1e35 (float32) the products overflow unless fused as torch's kernel fuses them
    big = torch.tensor([[3e300, 1e300, -2e300], [1e-300, 5e-310, 2e-300]], dtype=torch.float64)
    print(torch.linalg.cross(big, big.flip(1)).tolist(), torch.linalg.cross(big.float() * 1e-262, big.flip(1).float()).tolist())
x = torch.tensor([[1., 2., 3.], [0.5, -1., 4.]], requires_grad=True)
y = torch.tensor([[2., -1., 0.5]], requires_grad=True)
r = torch.linalg.cross(x, y)
print(r.grad_fn.name(), torch.cross(x, y.expand(2, 3), 1).grad_fn.name())
(r * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward()
print(x.grad, y.grad)
""")

EINSUM_CASES = [
    '"ij,jk->ik", A, B', '"ij,jk", A, B', '"bij,bjk->bik", X, Y', '"ii->i", S', '"ii", S', '"ij->ji", A',
    '"i,i->", v, v', '"i,j->ij", w, v', '"...ij,...jk->...ik", X, Y', '"...ij,jk", X, B', '"ij->", A', '"ij->j", A',
    '"ijk->kji", X', '"bij,bjk", X, Y', '"i,i", v, v', '"ij,ij->ij", A, A', '"ij,kj->ik", A, torch.randn(2, 4)',
    '"iij->ij", torch.randn(3, 3, 2)', '"ij,jk,kl->il", A, B, torch.randn(5, 2)', '"i j , j k -> i k", A, B',
    '"Ab,bc->Ac", A, B', '"ba,cb", A.t(), B.t()', '"...", A', '"...->", A', '"i...->...", X', '"ij,j->i", A, v',
    '"bn,anm,bm->ba", torch.randn(2, 3), torch.randn(4, 3, 5), torch.randn(2, 5)', '"ii->", S',
    '"iji->j", torch.randn(3, 2, 3)', '"ij,jk", [A, B]', 'A, [0, 1], B, [1, 2], [0, 2]', 'A, [..., 1], [1]',
    '"i,i->", torch.arange(3), torch.arange(3)', '"i->", torch.tensor([True, True])',
    '"i,j->ij", torch.arange(2), torch.ones(2, dtype=torch.float64)',
]
snip("einsum", "torch.manual_seed(0)\n"
     "A = torch.randn(3, 4); B = torch.randn(4, 5); S = torch.randn(4, 4); v = torch.randn(4); w = torch.randn(3)\n"
     "X = torch.randn(2, 3, 4); Y = torch.randn(2, 4, 5)\n"
     + "".join("r = torch.einsum(%s)\nprint(r.shape, r.dtype, r.tolist())\n" % c for c in EINSUM_CASES)
     + show_all([
         "torch.einsum('ij,jk', torch.ones(2, 3))", "torch.einsum('ij', torch.ones(2, 3), torch.ones(2))",
         "torch.einsum('i1', torch.ones(2, 3))", "torch.einsum('ijk', torch.ones(2, 3))",
         "torch.einsum('ij->k', torch.ones(2, 3))", "torch.einsum('ij->ii', torch.ones(2, 3))",
         "torch.einsum('ij,jk', torch.ones(2, 3), torch.ones(4, 5))", "torch.einsum('ii', torch.ones(2, 3))",
         "torch.einsum('...ij,...jk', torch.ones(2, 3), torch.ones(4, 5))", "torch.einsum('i...j..', torch.ones(2, 3))",
         "torch.einsum('ij->j->i', torch.ones(2, 3))", "torch.einsum('...i...', torch.ones(2, 3))",
         "torch.einsum('i,i', torch.ones(2), torch.ones(2, dtype=torch.float64))", "torch.einsum('ij')",
         "torch.einsum('ijk...', torch.ones(2, 3))", "torch.einsum('...ij,...jk', torch.ones(2, 2, 3), torch.ones(3, 3, 4))",
         "torch.einsum('ij->i.', torch.ones(2, 3))", "torch.einsum('ij', 3)", "torch.einsum('i,i', torch.ones(2), torch.ones(3))",
     ]) + """
def chain(f):
    names = []
    while f is not None:
        names.append(f.name()); f = f.next_functions[0][0] if f.next_functions else None
    return names
for eq, shape in [("ii->i", (3, 3)), ("iij->j", (2, 2, 3)), ("iji->ij", (3, 2, 3)), ("iii->i", (2, 2, 2))]:
    s = torch.randn(shape, requires_grad=True)
    print(eq, chain(torch.einsum(eq, s).grad_fn))
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
y = torch.randn(4, requires_grad=True)
r = torch.einsum("ij,jk->ik", a, b)
r.sum().backward()
print(r.grad_fn.name(), a.grad.tolist(), b.grad.tolist())
print([torch.einsum(*c).grad_fn.name() for c in [("i,j->ij", y, y), ("ij->ji", a), ("ij", a), ("i,i->", y, y),
                                                   ("bij,bjk->bik", a[None], b[None]), ("ij,jk", a, b)]])
""")

snip("tensordot_cartesian_block_diag", "a = torch.arange(6.).reshape(2, 3)\nb = torch.arange(12.).reshape(3, 4)\n" + show_all([
    "torch.tensordot(a, b, 1)", "torch.tensordot(a, b, ([1], [0]))", "torch.tensordot(a, b, dims=-1)",
    "torch.tensordot(a, b, ([1], [1]))", "torch.tensordot(a, b, ([1, 0], [0]))", "torch.tensordot(a, b.t(), dims=0).shape",
    "torch.tensordot(a, a, 2)", "torch.tensordot(a, a, dims=torch.tensor(2))", "torch.tensordot(a, a, dims=[[0, 1], [0, 1]])",
    "torch.tensordot(a, a, dims=(1, 1))", "torch.tensordot(a, b, 1.5)", "torch.tensordot(a, b.double(), 1)",
    "torch.tensordot(a.t(), b[:, :3], ([0], [1]))", "torch.tensordot(torch.arange(6).reshape(2, 3), torch.arange(3), 1)",
    "torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))", "torch.cartesian_prod(torch.tensor([1, 2]))",
    "torch.cartesian_prod(torch.ones(2, 2))", "torch.cartesian_prod(torch.tensor([1, 2]), torch.ones(2, 2))",
    "torch.cartesian_prod()", "torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([0.5]))",
    "torch.cartesian_prod(torch.tensor([1., 2.]), torch.tensor([3., 4.]), torch.tensor([5., 6.]))",
    "torch.block_diag(torch.ones(2, 2), torch.tensor(3), torch.tensor([4, 5]))", "torch.block_diag()",
    "torch.block_diag(torch.ones(1, 1, 1))", "torch.block_diag(torch.ones(0, 2), torch.ones(2, 0))",
    "torch.block_diag(torch.ones(2, 2, dtype=torch.int32), torch.tensor([True]))",
    "torch.block_diag(torch.arange(6.).reshape(3, 2).t(), torch.tensor([[True]]))",
]) + """
x = torch.ones(2, 2, requires_grad=True)
y = torch.tensor([1., 2.], requires_grad=True)
r = torch.block_diag(x, y)
print(r.grad_fn.name())
(r * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad, y.grad)
print(torch.tensordot(x, x, 1).grad_fn.name(), torch.cartesian_prod(y, y).grad_fn.name())
""")


PRODUCT_DEVICE_CASES = [
    ("cross", lambda x: minitorch.linalg.cross(x[:, :3], x[:, 1:4])),
    ("cross_t", lambda x: minitorch.cross(x[:3].t(), x[1:].t(), dim=1)),
    ("einsum_mm", lambda x: minitorch.einsum("ij,kj->ik", x, x)),
    ("einsum_diag", lambda x: minitorch.einsum("ii->i", x[:, :4])),
    ("einsum_batch", lambda x: minitorch.einsum("...ij,...jk", x[None, :, :2], x[None, :2])),
    ("tensordot", lambda x: minitorch.tensordot(x, x.t(), 1)),
    ("cartesian_prod", lambda x: minitorch.cartesian_prod(x[0], x[1, :2])),
    ("block_diag", lambda x: minitorch.block_diag(x[:2], x[2, :3], x[3, 0])),
]


@pytest.mark.parametrize("name,fn", PRODUCT_DEVICE_CASES, ids=[c[0] for c in PRODUCT_DEVICE_CASES])
def test_product_device_matches_cpu(device, name, fn):
    minitorch.manual_seed(3)
    x = minitorch.randn(4, 5, dtype=minitorch.float64)
    expected = fn(x)
    got = fn(x.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.cpu().tolist() == expected.tolist()


def test_product_gradcheck(device):
    minitorch.manual_seed(0)
    a = minitorch.randn(4, 3, dtype=minitorch.float64, device=device, requires_grad=True)
    b = minitorch.randn(1, 3, dtype=minitorch.float64, device=device, requires_grad=True)
    assert minitorch.autograd.gradcheck(
        lambda a, b: (minitorch.linalg.cross(a, b), minitorch.einsum("ij,kj->ik", a, b), minitorch.einsum("ii->i", a[:3]),
                      minitorch.tensordot(a, b, ([1], [1])), minitorch.block_diag(a, b[0], b[0, 1])), (a, b))


# ---- in-place views: squeeze_, unsqueeze_, t_, transpose_, swapdims_, swapaxes_ (csrc/ops/inplace_view.c) --

snip("inplace_views", """
import torch
x = torch.randn(2, 1, 3)
y = x.squeeze_()
print(y is x, x.shape, x.stride(), x._version)
x = torch.arange(6.).reshape(2, 1, 3, 1)
print(x.squeeze_(1).shape, x.squeeze_((0, 2)).shape, x.unsqueeze_(-1).shape, x.stride(), x._version)
x = torch.arange(6).reshape(2, 3)
print(x.t_(), x.stride(), x.is_contiguous(), x.transpose_(0, 1).shape, x.swapdims_(0, 1).shape, x.swapaxes_(1, 0).shape, x._version)
a = torch.randn(2, 1, 3, requires_grad=True)
for f in [lambda: a.squeeze_(), lambda: a.unsqueeze_(0), lambda: a.t_(), lambda: a[0].unsqueeze_(0), lambda: a.detach().squeeze_(5),
          lambda: torch.ones(3).t_(), lambda: torch.ones(2, 2, 2).t_(), lambda: torch.ones(2).transpose_(0, 3), lambda: torch.ones(2).unsqueeze_(2),
          lambda: torch.ones(2).unsqueeze_(-3), lambda: torch.ones(2).squeeze_((0, 0)), lambda: torch.ones(2).squeeze_(1.5), lambda: torch.ones(2).transpose_(0)]:
    try: print(f().shape)
    except Exception as e: print(type(e).__name__, e)
b = a * 1; b.squeeze_(1); print(b.grad_fn.name(), b.shape)
c = a * 1; c.squeeze_(); print(c.grad_fn.name()); c = a * 1; c.squeeze_((0, 1)); print(c.grad_fn.name(), c.shape)
d = a * 1; d.unsqueeze_(0); print(d.grad_fn.name(), d.shape, [type(n[0]).__name__ for n in d.grad_fn.next_functions])
e = torch.randn(2, 3, requires_grad=True) * 1; e.t_(); print(e.grad_fn.name(), e.shape, e.stride()); e.transpose_(0, 1); print(e.grad_fn.name()); e.swapdims_(0, 1); print(e.grad_fn.name()); e.swapaxes_(0, 1); print(e.grad_fn.name())
w = torch.arange(6., requires_grad=True)
m = w.reshape(2, 1, 3) * 1
m.squeeze_(1); m.unsqueeze_(2); m.t_() if m.dim() <= 2 else m.transpose_(0, 2)
(m * torch.arange(6.).reshape(m.shape)).sum().backward()
print(m.shape, w.grad)
base = torch.zeros(2, 3); vv = base[0]; vv.unsqueeze_(0); print(vv.shape, vv._base is base, base._version, vv._version)
vv.fill_(1.); print(base)
v = (torch.randn(2, 3, requires_grad=True) * 1)[0:1]
v.unsqueeze_(0); print(v.grad_fn.name(), v.shape)
q = torch.ones(2, 3, requires_grad=True)
r = q * 2
r.t_()
r.sum().backward(); print(q.grad)
with torch.no_grad():
    print(a.squeeze_().shape, a.shape)
""")

INPLACE_VIEW_CASES = [
    ("squeeze_", lambda x: x.reshape(2, 1, 10).squeeze_()),
    ("squeeze_dims", lambda x: x.reshape(1, 20, 1).squeeze_((0, 2))),
    ("unsqueeze_", lambda x: x.t().contiguous().unsqueeze_(1)),
    ("t_", lambda x: x.t_()),
    ("transpose_", lambda x: x.reshape(2, 2, 5).transpose_(0, 2)),
    ("swapaxes_", lambda x: x[::2].swapaxes_(1, 0)),
]


@pytest.mark.parametrize("name,fn", INPLACE_VIEW_CASES, ids=[c[0] for c in INPLACE_VIEW_CASES])
def test_inplace_view_device(device, name, fn):
    minitorch.manual_seed(4)
    x = minitorch.randn(4, 5)
    expected = fn(x.clone())
    got = fn(x.to(device))
    assert got.device.type == device and got.shape == expected.shape and got.stride() == expected.stride()
    assert got.cpu().tolist() == expected.tolist()


def test_inplace_view_gradcheck(device):
    minitorch.manual_seed(0)
    a = minitorch.randn(2, 1, 3, dtype=minitorch.float64, device=device, requires_grad=True)

    def f(a):
        r = a * 1
        r.squeeze_(1)
        r.unsqueeze_(0)
        r.transpose_(0, 2)
        r.squeeze_()
        r.t_()
        return r * minitorch.arange(6., dtype=minitorch.float64, device=device).reshape(r.shape)
    assert minitorch.autograd.gradcheck(f, (a,))


# every snippet above (the list is complete here)
@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    compare(code)
