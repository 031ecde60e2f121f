"""The ops that write a tensor's entries through an index or a mask (index_fill, index_copy, index_put and
their in-place forms) against torch: values on every dtype, layouts, errors, gradients and node names printed by
the same snippet under both; gradcheck in float64 and the device path (each op on "cuda" against the CPU)."""

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
i = torch.tensor([4, 0, 4])
"""

# ---- index_fill ------------------------------------------------------------------------------------------

snip("index_fill", PRELUDE + show_all([
    "x.index_fill(1, i, -1.5)", "torch.index_fill(x, 0, torch.tensor([2, -3]), 7)", "x.index_fill(-1, torch.tensor([-1]), 2)",
    "x.index_fill(1, i, torch.tensor(5.))", "x.index_fill(1, i, torch.tensor(5, dtype=torch.int64))",
    "x.index_fill(1, i, value=3)", "x.index_fill(dim=0, index=torch.tensor(1), value=0.25)",
    "x.index_fill(1, torch.tensor([], dtype=torch.long), 3)", "x.t().index_fill(0, i, 1.)", "x.t().index_fill(0, i, 1.).stride()",
    "x.index_fill(1, i, 1.).stride()", "x[:, ::2].index_fill(1, torch.tensor([1]), 9.)",
    "x.long().index_fill(0, torch.tensor([1]), 2.7)", "x.long().index_fill(0, torch.tensor([1]), torch.tensor(-2.5))",
    "x.bool().index_fill(1, i, 3)", "x.bool().index_fill(1, i, torch.tensor(0.))", "x.int().index_fill(1, i, True)",
    "torch.tensor(3.).index_fill(0, torch.tensor([0]), 1)", "torch.tensor(3.).index_fill(0, torch.tensor(0), -1)",
    "torch.tensor(3.).index_fill(-1, torch.tensor([0, 0]), 2)",
    "torch.arange(24.).reshape(2, 3, 4).index_fill(1, torch.tensor([2, 0]), -1)",
    "torch.empty(0, 3).index_fill(1, torch.tensor([1]), 5.)",
    "x.half().index_fill(1, i, 1e6)", "x.to(torch.uint8).index_fill(1, i, -1)", "x.to(torch.uint8).index_fill(1, i, 300)",
    "x.to(torch.int8).index_fill(1, i, torch.tensor(300))", "x.to(torch.int8).index_fill(1, i, 1e10)",
    "x.index_fill(1, i, 2 + 1j)", "x.index_fill(1, i.int(), 2 + 1j)",
]))

snip("index_fill_dtypes", PRELUDE + "".join(
    f"print(x.to(torch.{d}).index_fill(1, i, 1).index_fill(0, torch.tensor([-1]), torch.tensor(0.5)))\n"
    for d in DTYPES))

snip("index_fill_in_place", PRELUDE + """
y = x.clone()
print(y.index_fill_(1, torch.tensor([1, 1, 3]), -2.) is y, y, y._version)
z = x.clone().t()
z.index_fill_(0, torch.tensor([0]), 8.)
print(z, z.stride())
e = torch.zeros(1, 4).expand(3, 4)
print(e.index_fill_(0, torch.tensor([1]), 2.))
print(hasattr(torch, 'index_fill_'), hasattr(torch.Tensor, 'index_fill_'))
i2 = torch.tensor([0, 1])
i2.index_fill_(0, i2, 2)
""")

snip("index_fill_errors", PRELUDE + show_all([
    "x.index_fill(1, i, torch.tensor([5.]))", "x.index_fill(1, i.int(), torch.tensor([5.]))",
    "x.index_fill(1, i.float(), 1)", "x.index_fill(1, i.int(), 1)", "x.index_fill(1, torch.tensor([[0]]), 1)",
    "x.index_fill(1, torch.tensor([[0]]).int(), 1)", "x.index_fill(1, torch.tensor([5]), 1)",
    "x.index_fill(1, torch.tensor([-6]), 1)", "x.index_fill(2, i, 1)", "x.index_fill(-3, i, 1)",
    "torch.tensor(3.).index_fill(0, torch.tensor([1]), 1)", "torch.tensor(3.).index_fill(1, torch.tensor([0]), 1)",
    "x.index_fill(1, i, 'a')", "x.index_fill(1, i)", "torch.index_fill(x, 1, i, 2, out=x)",
    "x.index_fill(1.5, i, 1)", "x.index_fill(1, [0], 1)", "x.index_fill(1, i, torch.tensor(1e10, dtype=torch.float64)).dtype",
    "x.int().index_fill(1, i, torch.tensor(1e10, dtype=torch.float64))",
]))

# ---- index_copy ------------------------------------------------------------------------------------------

snip("index_copy", PRELUDE + """
s = torch.randn(3, 3).round()
""" + show_all([
    "x.index_copy(1, i, s)", "torch.index_copy(x, 0, torch.tensor([2, 0]), s[:2].repeat(1, 2)[:, :5])",
    "x.index_copy(-1, torch.tensor([1]), s[:, :1])", "x.index_copy(dim=1, index=i, source=s)",
    "x.index_copy(1, torch.tensor(2), s[:, :1])", "x.t().index_copy(1, torch.tensor([0, 2]), s[:, :2].repeat(2, 1)[:5])",
    "x.t().index_copy(1, torch.tensor([0, 2]), s[:, :2].repeat(2, 1)[:5]).stride()",
    "x.index_copy(1, i, s.t().contiguous().t())", "x.index_copy(1, torch.tensor([], dtype=torch.long), torch.ones(3, 0))",
    "torch.zeros(2, 3, 4).index_copy(2, torch.tensor([3, 1]), torch.ones(2, 3, 2))",
    "torch.tensor(3.).index_copy(0, torch.tensor([0]), torch.tensor(5.))",
    "torch.tensor(3.).index_copy(0, torch.tensor([0, 0]), torch.ones(2))",
    "torch.zeros(3).index_copy(0, torch.tensor([1]), torch.tensor(2.))",
    "torch.zeros(3).index_copy(0, torch.tensor(1), torch.tensor(2.))",
    "torch.tensor([True, False]).index_copy(0, torch.tensor([1]), torch.tensor([True]))",
    "torch.index_copy(x, 1, i, s, out=torch.empty(3, 5))", "torch.index_copy(x, 1, i, s, out=torch.empty(0))",
]))

snip("index_copy_dtypes", PRELUDE + """
s = torch.randn(3, 3).round() * 3
""" + "".join(f"print(x.to(torch.{d}).index_copy(1, i, s.to(torch.{d})))\n" for d in DTYPES))

snip("index_copy_in_place", PRELUDE + """
s = torch.randn(3, 3).round()
y = x.clone()
print(y.index_copy_(1, torch.tensor([1, 3, 1]), s) is y, y, y._version)
y = x.clone()
y.index_copy_(1, torch.tensor([0, 2]), y[:, :2])
print(y)
y = x.clone()
y.index_copy_(1, torch.tensor([0, 1]), y[:, 1:3].contiguous())
print(torch.zeros(1, 3).expand(2, 3).index_copy_(1, torch.tensor([0]), torch.ones(2, 1)))
z = torch.zeros(5)
z.index_copy_(0, torch.tensor([0, 1]), z[1:3])
i2 = torch.tensor([0, 1])
i2.index_copy_(0, i2, torch.tensor([1, 1]))
print(hasattr(torch, 'index_copy_'))
""")

snip("index_copy_errors", PRELUDE + """
s = torch.randn(3, 3).round()
""" + show_all([
    "x.index_copy(1, i, s.double())", "x.index_copy(1, i.int(), s)", "x.index_copy(1, i.float(), s)",
    "x.index_copy(1, torch.tensor([[0, 2, 1]]), s)", "x.index_copy(1, torch.tensor([0, 5, 1]), s)",
    "x.index_copy(1, torch.tensor([0, -1, 1]), s)", "x.index_copy(1, torch.tensor([0, 1]), s)",
    "x.index_copy(1, i, torch.ones(2, 3))", "x.index_copy(1, i, torch.ones(3, 3, 1))", "x.index_copy(1, i, torch.ones(9))",
    "x.index_copy(0, torch.tensor(1), torch.ones(1, 5))", "x.index_copy(0, torch.tensor([0]), torch.tensor(1.))",
    "torch.zeros(3).index_copy(0, torch.tensor([0, 1]), torch.tensor(1.))",
    "torch.zeros(2, 3, 4).index_copy(1, torch.tensor([0]), torch.ones(2, 1, 5))",
    "torch.tensor(0.).index_copy(0, torch.tensor([0]), torch.ones(2, 2))",
    "torch.zeros(3, 2).index_copy(0, torch.tensor([[0]]).int(), torch.ones(1, 2).double())",
    "x.index_copy(2, i, s)", "torch.index_copy(x, 1, i, s, out=torch.empty(3, 5, dtype=torch.float64))",
    "x.index_copy(1, i, tensor=s)", "x.index_copy(1, i)",
]))

# ---- index_put ------------------------------------------------------------------------------------------

snip("index_put", PRELUDE + """
j = torch.tensor([0, 2])
""" + show_all([
    "x.index_put((j,), torch.tensor(5.))", "x.index_put([j], torch.tensor(5.))", "x.index_put((j,), torch.ones(2, 5) * 3)",
    "torch.index_put(x, (j, torch.tensor([4, 4])), torch.tensor([1., 2.]))", "x.index_put((x > 1,), torch.tensor(-1.))",
    "x.index_put((x > 1,), torch.arange(float((x > 1).sum())))", "x.index_put((j.int(),), torch.ones(5))",
    "x.index_put((torch.tensor([True, False, True]),), torch.ones(5))", "x.index_put((j, j), torch.tensor([7., 8.]))",
    "x.t().index_put((torch.tensor([1, 3]),), torch.ones(2, 3)).stride()", "x.t().index_put((torch.tensor([1]),), torch.ones(3))",
    "x.index_put((torch.tensor([[0], [2]]), torch.tensor([1, 3])), torch.tensor(9.))",
    "x.index_put(indices=(j,), values=torch.tensor(2.))", "x.index_put((j,), torch.ones(1, 2, 5))",
    "x.long().index_put((j,), torch.tensor(3))", "x.bool().index_put((j,), torch.tensor(False))",
    "x.half().index_put((j,), torch.ones(5).half())", "x.bfloat16().index_put((j,), torch.ones(5).bfloat16())",
    "x.to(torch.uint8).index_put((j,), torch.tensor(200, dtype=torch.uint8))",
]))

snip("index_put_in_place", PRELUDE + """
j = torch.tensor([0, 2])
y = x.clone()
print(y.index_put_((j,), torch.ones(5)) is y, y, y._version)
y = x.clone()
print(torch.index_put_(y, (y > 0,), torch.tensor(0.)) is y, y)
print(torch.zeros(1, 3).expand(2, 3).index_put_((torch.tensor([0]),), torch.ones(3)))
""")

snip("index_put_errors", PRELUDE + """
j = torch.tensor([0, 2])
""" + show_all([
    "x.index_put((j,), torch.tensor(5.).double())", "x.index_put((j,), 5.)", "x.index_put(j, torch.tensor(5.))",
    "x.index_put((j, None), torch.tensor(5.))", "x.index_put((), torch.tensor(1.))", "x.index_put((j, j, j), torch.tensor(1.))",
    "x.index_put((j,), torch.ones(3, 5))", "x.index_put((j.float(),), torch.ones(2, 5))",
    "x.index_put((torch.tensor([3]),), torch.ones(5))", "x.index_put((torch.tensor([True]),), torch.ones(5))",
    "torch.index_put(x, (j,), torch.ones(2, 5), out=x)", "x.index_put((j,))", "x.index_put_((j,), x[:2])",
]))

# ---- gradients and nodes ---------------------------------------------------------------------------------

GRAPH = """
def names(t):
    fn = t.grad_fn
    print(type(fn).__name__ if fn is not None else None,
          [(type(n).__name__ if n is not None else None, k) for n, k in (fn.next_functions if fn else ())])
"""

for name, expr in [
    ("index_fill", "a.index_fill(1, torch.tensor([1, 4, 1]), 2.)"),
    ("index_fill_tensor", "a.index_fill(0, torch.tensor([2, 1, 2]), v)"),
    ("index_fill_tensor_negative", "a.index_fill(0, torch.tensor([2, -1, 0]), v)"),
    ("index_fill_negative", "a.index_fill(0, torch.tensor([2, -1, 0]), v.detach())"),
    ("index_fill_tensor_no_grad", "a.index_fill(1, torch.tensor([3]), v.detach())"),
    ("index_fill_in_place", "(a * 1).index_fill_(1, torch.tensor([0, 0]), v)"),
    ("index_fill_view_in_place", "(a * 1)[1:].index_fill_(1, torch.tensor([4]), v)"),
    ("index_copy", "a.index_copy(1, torch.tensor([4, 0, 2]), b[:, :3])"),
    ("index_copy_repeated", "a.index_copy(0, torch.tensor([1, 1]), b[:2])"),
    ("index_copy_in_place", "(a * 1).index_copy_(0, torch.tensor([2]), b[:1])"),
    ("index_copy_noncontiguous", "a.t().index_copy(1, torch.tensor([0, 2]), b.t()[:, :2])"),
    ("index_put", "a.index_put((torch.tensor([2, 0, 2]),), b[:3])"),
    ("index_put_broadcast", "a.index_put((torch.tensor([1]), torch.tensor([0, 4])), v)"),
    ("index_put_mask", "a.index_put((a > 0,), v)"),
    ("index_put_in_place", "(a * 1).index_put_((torch.tensor([1]),), b[0])"),
    ("index_put_function_in_place", "torch.index_put_(a * 1, (torch.tensor([1]), torch.tensor([3])), v)"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
a = torch.randn(3, 5, requires_grad=True)
b = torch.randn(3, 5, requires_grad=True)
v = torch.tensor(1.5, requires_grad=True)
out = {expr}
names(out)
w = torch.randn(out.shape)
(out * w).sum().backward()
print(a.grad.tolist(), b.grad.tolist() if b.grad is not None else None, v.grad)
""")

snip("grad_zero_dim", """
a = torch.tensor(3., requires_grad=True)
s = torch.tensor(2., requires_grad=True)
(a.index_fill(0, torch.tensor([0]), s) * 3 + a.index_copy(0, torch.tensor([0]), s) * 5).backward()
print(a.grad, s.grad)
t = torch.ones(3, requires_grad=True)
(t.index_copy(0, torch.tensor([1]), s) * torch.tensor([1., 2., 3.])).sum().backward()
print(t.grad, s.grad)
""")

snip("grad_in_place_leaf", """
a = torch.ones(3, requires_grad=True)
a.index_fill_(0, torch.tensor([0]), 1.)
a.index_copy_(0, torch.tensor([0]), torch.ones(1))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_index_writes_parity(code):
    compare(code)


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

GRADCHECK_CASES = [
    ("index_fill", lambda a, b: a.index_fill(1, minitorch.tensor([3, 0, 3], device=a.device), b[0, 0]) * b),
    ("index_fill_number", lambda a, b: a.index_fill(0, minitorch.tensor([2], device=a.device), 0.5) * b),
    ("index_copy", lambda a, b: a.index_copy(1, minitorch.tensor([3, 0], device=a.device), b[:, 1:3] * 2)),
    ("index_put", lambda a, b: a.index_put((minitorch.tensor([2, 0], device=a.device),), b[1:3] * 3)),
    ("index_put_mask", lambda a, b: a.index_put((b > 0,), b[0, 0])),
    ("in_place", lambda a, b: (a * 1).index_copy_(0, minitorch.tensor([2, 0], device=a.device), b[:2])
        .index_fill_(1, minitorch.tensor([1], device=a.device), b[2, 2])),
]


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    b = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (a, b))


DEVICE_CASES = [
    ("index_fill", lambda x, s, i: x.index_fill(1, i[0], 3)),
    ("index_fill_t", lambda x, s, i: x.t().index_fill(0, i[1] - 4, s[0, 0])),
    ("index_fill_in_place", lambda x, s, i: x.clone().index_fill_(0, i[2], True)),
    ("index_copy", lambda x, s, i: x.index_copy(1, i[0], s[:, :i.shape[1]])),
    ("index_copy_t", lambda x, s, i: x.t().index_copy(1, i[1], s.t()[:, :i.shape[1]])),
    ("index_copy_in_place", lambda x, s, i: x.clone().index_copy_(0, i[2], s[:i.shape[1]])),
    ("index_put", lambda x, s, i: x.index_put((i[0], i[1] + 1), s[0, :i.shape[1]])),
    ("index_put_t", lambda x, s, i: x.t().index_put((i[2],), s.t()[:i.shape[1]])),
    ("index_put_in_place", lambda x, s, i: x.clone().index_put_((i[3],), s[0, 0])),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    """Random values, repeated indices (the last write wins on every backend), non-contiguous operands."""
    minitorch.manual_seed(1)
    dt = getattr(minitorch, dtype)
    x = (minitorch.randn(7, 9) * 4).to(dt)
    s = (minitorch.randn(7, 9) * 4).to(dt)
    i = minitorch.randint(0, 5, (7, 6))
    expected = fn(x, s, i)
    got = fn(x.to(device), s.to(device), i.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.cpu().tolist() == expected.tolist()


def test_bad_index_raises_on_the_device(device):
    x = minitorch.zeros(2, 3, device=device)
    with pytest.raises(IndexError, match="^index 3 is out of bounds for dimension 1 with size 3$"):
        x.index_fill_(1, minitorch.tensor([0, 3], device=device), 1.0)
    with pytest.raises(IndexError, match=r"^index_copy_\(\): index -1 is out of bounds for dimension 0 with size 2$"):
        x.index_copy_(0, minitorch.tensor([-1], device=device), minitorch.ones(1, 3, device=device))
    assert x.cpu().tolist() == [[0.0] * 3] * 2
