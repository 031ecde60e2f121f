"""The ops that pick one element per line (minitorch/_selecting.py: kthvalue, median, nanmedian, mode). The
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


@pytest.mark.parametrize("code", SNIPPETS)
def test_select_ops_parity(code):
    compare(code)


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
        # mode of a line with NaN is std::sort's order of NaN in torch: not compared
        for name in ("median", "nanmedian") + (("mode",) if not t.isnan().any() else ()):
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
