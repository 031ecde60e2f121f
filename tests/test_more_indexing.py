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


@pytest.mark.parametrize("code", SNIPPETS)
def test_more_indexing_parity(code):
    compare(code)


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

def _on(t, ref):
    return minitorch.tensor(t, device=ref.device)


GRADCHECK_CASES = [
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
