"""More view and scatter ops against torch: mT/mH/H, tensor_split/hsplit/vsplit/dsplit, as_strided (and
as_strided_), Tensor.unfold, empty_strided/new_empty_strided, diag_embed, diagflat, narrow_copy,
fill_diagonal_, sum_to_size, msort, is_nonzero/is_floating_point/is_complex, slice/select/diagonal_scatter:
printed by the same snippet under both (values on every dtype, strides and storage offsets, views sharing
storage with in-place writes showing through, out=, errors, gradients and node names); gradcheck in
float64 and the device path (each op on "cuda" against the CPU)."""

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


ATTEMPT = """
def attempt(f):
    try:
        r = f()
        if isinstance(r, torch.Tensor):
            print(repr(r), r.stride(), r.storage_offset(), r.grad_fn.name() if r.grad_fn is not None else None)
        else:
            print(repr(r))
    except Exception as e:
        print(type(e).__name__, e)
"""

PRELUDE = ATTEMPT + """
x = torch.arange(12.).reshape(3, 4)
s = torch.tensor(2.)
"""

# ---- mT, mH, H --------------------------------------------------------------------------------------------

snip("matrix_transposes", PRELUDE + """
torch.manual_seed(0)
y = torch.arange(24).reshape(2, 3, 4)
for name in ["mT", "mH", "H", "T"]:
    attempt(lambda: getattr(x, name))
    attempt(lambda: getattr(y, name))
    attempt(lambda: getattr(torch.arange(3), name))
    attempt(lambda: getattr(s, name) is s)
print(x.mT._base is x._base, x.mT.data_ptr() == x.data_ptr(), y.mT.stride(), y[:, 1:].mH.storage_offset())
g = torch.randn(2, 3, 4, requires_grad=True)
print(g.mT.grad_fn.name(), g[0].H.grad_fn.name(), g.mH.is_contiguous())
z = torch.zeros(2, 3)
z.mT[1, 0] = 7
z.H[2].fill_(1)
print(z)
""")

# ---- tensor_split, hsplit, vsplit, dsplit ------------------------------------------------------------------

snip("tensor_split", PRELUDE + """
torch.manual_seed(0)
for args in [(3,), (5, 1), (2, -1), ([1, 10, -1, 0], 1), ((2,), -1), ([],), (torch.tensor(2),), (torch.tensor([1, 2]),),
             (torch.tensor([3, 1])[::2],), (0,), (-1,), (2, 3), (torch.tensor([1., 2]),), (torch.tensor([[1, 2]]),)]:
    attempt(lambda: torch.tensor_split(x, *args))
attempt(lambda: torch.tensor_split(s, 2))
attempt(lambda: x.tensor_split(2, 1))
attempt(lambda: x.tensor_split(indices=[1], dim=1))
attempt(lambda: x.tensor_split(sections=2))
attempt(lambda: x.tensor_split(tensor_indices_or_sections=torch.tensor(2)))
attempt(lambda: torch.tensor_split(x, 2.5))
parts = torch.tensor_split(x.t(), 3, dim=1)
print([(p.shape, p.stride(), p.storage_offset(), p._base is x._base) for p in parts])
w = torch.randn(5, 4, requires_grad=True)
parts = w.tensor_split([1, 3])
print([p.grad_fn.name() for p in parts])
sum((p * (i + 1)).sum() for i, p in enumerate(parts)).backward()
print(w.grad)
""")

snip("hsplit_vsplit_dsplit", PRELUDE + """
c = torch.arange(24.).reshape(2, 3, 4)
for f in [lambda: torch.hsplit(x, 2), lambda: torch.hsplit(x, 3), lambda: torch.hsplit(x, 0), lambda: torch.hsplit(s, 1),
          lambda: torch.hsplit(torch.arange(4), 2), lambda: torch.hsplit(x, [1, 3]), lambda: torch.vsplit(x, 3),
          lambda: torch.vsplit(x, 2), lambda: torch.vsplit(torch.arange(4), 2), lambda: x.vsplit([1]),
          lambda: torch.dsplit(x, 2), lambda: torch.dsplit(c, 2), lambda: torch.dsplit(c, 3), lambda: c.dsplit([3]),
          lambda: c.hsplit(3), lambda: torch.hsplit(x, torch.tensor([1])), lambda: torch.hsplit(x, 2.5),
          lambda: torch.vsplit(x, -3), lambda: torch.dsplit(c, (1, 1))]:
    attempt(f)
""")

# ---- as_strided, as_strided_, unfold, empty_strided ------------------------------------------------------------

snip("as_strided", PRELUDE + """
for args in [((5, 4), (4, 1)), ((2, 2), (1, 2), 11), ((2,), (1,), -1), ((2, -1), (1, 1)), ((2, 2), (1, -1)),
             ((2, 2), (1,)), ((0, 2), (100, 100), 12), ((0, 2), (100, 100), 13), ((2, 2), (1, 2), 10),
             ([], [], 5), ((3, 3), (0, 1)), ((2, 3), (1, 4), 0)]:
    attempt(lambda: x.as_strided(*args))
attempt(lambda: x[1:].as_strided((2, 2), (1, 2)))
attempt(lambda: torch.as_strided(x.t(), (4,), (3,), storage_offset=1))
attempt(lambda: torch.as_strided(x, size=(2,), stride=(5,), storage_offset=None))
for d in ["float16", "int8", "bool", "int64"]:
    attempt(lambda: torch.arange(6).to(getattr(torch, d)).as_strided((2, 2), (2, 1), 1))
attempt(lambda: torch.arange(6).to(torch.int16).as_strided((3, 3), (2, 1), 1))
v = x.as_strided((2, 2), (1, 4), 1)
print(v._base is x._base, v.data_ptr() - x.data_ptr(), v.is_contiguous())
v.mul_(-1)
print(x)
v[0, 1] = 100.
print(x, v)
""")

snip("as_strided_in_place", PRELUDE + """
y = x.clone()
r = y.as_strided_((2, 2), (1, 2), 1)
print(r is y, y, y.stride(), y.storage_offset(), y._base, y._version)
attempt(lambda: torch.as_strided_(x.clone(), (2,), (3,)))
attempt(lambda: x.clone().as_strided_((2,), (-3,)))
attempt(lambda: x.clone().as_strided_((20,), (3,)))
attempt(lambda: torch.zeros(3, requires_grad=True).as_strided_((2,), (1,)))
a = torch.arange(10., requires_grad=True)
b = a * 1
b.as_strided_((3, 2), (2, 1), 2)
print(b.grad_fn.name(), b)
(b * torch.arange(6.).reshape(3, 2)).sum().backward()
print(a.grad)
""")

snip("unfold", PRELUDE + """
for args in [(0, 2, 1), (1, 2, 2), (1, 5, 1), (1, 0, 1), (1, -1, 1), (1, 2, 0), (1, 2, -1), (2, 2, 1), (-1, 4, 3),
             (1, 3, 2), (1, 4, 1)]:
    attempt(lambda: x.unfold(*args))
attempt(lambda: s.unfold(0, 1, 1))
attempt(lambda: s.unfold(0, 2, 1))
attempt(lambda: s.unfold(1, 1, 1))
attempt(lambda: s.unfold(-1, 1, 5))
attempt(lambda: torch.empty(0, 4).unfold(0, 0, 1))
attempt(lambda: x.unfold(dimension=1, size=3, step=1))
attempt(lambda: x.t().unfold(0, 2, 2))
attempt(lambda: x[:, 1:].unfold(1, 2, 1).unfold(0, 2, 1))
print(hasattr(torch, "unfold"))
u = x.unfold(1, 2, 1)
print(u._base is x._base, u.data_ptr() == x.data_ptr(), u.is_contiguous())
u[0, 1, 1] = -5.
print(x)
x.add_(1)
print(u[2])
""")

snip("empty_strided", ATTEMPT + """
x = torch.arange(12.).reshape(3, 4)
for f in [lambda: torch.empty_strided((2, 3), (1, 2)).stride(), lambda: torch.empty_strided((2, 3), (1,)),
          lambda: torch.empty_strided((2, 3), (1, -2)), lambda: torch.empty_strided((2, -3), (1, 2)),
          lambda: torch.empty_strided((2, 3), (1, 2), dtype=torch.int32).dtype,
          lambda: torch.empty_strided((0, 3), (5, 7)).shape, lambda: torch.empty_strided([], []).shape,
          lambda: x.new_empty_strided((2, 3), (1, 2)).stride(), lambda: x.new_empty_strided((2,), (3,), dtype=torch.int8).dtype,
          lambda: torch.empty_strided((2, 2), (0, 1)).stride(), lambda: torch.empty_strided((2, 3), (1, 2), requires_grad=True).requires_grad,
          lambda: torch.empty_strided((2, 3), (1, 2), dtype=torch.int64, requires_grad=True),
          lambda: torch.empty_strided((2, 3), (3, 1)).is_contiguous()]:
    attempt(f)
e = torch.empty_strided((2, 3), (1, 2), requires_grad=True)
print(e._base, e.is_leaf, e.storage_offset(), e.grad_fn)
e2 = torch.empty_strided((2, 3), (1, 2)).fill_(3.)
print(e2, e2.t().is_contiguous())
""")

# ---- diag_embed, diagflat, narrow_copy ---------------------------------------------------------------------------

snip("diag_embed_diagflat", PRELUDE + """
for f in [lambda: torch.diag_embed(torch.arange(3.)), lambda: torch.diag_embed(torch.arange(6.).reshape(2, 3), 1, 0, 2),
          lambda: torch.diag_embed(torch.arange(6.).reshape(2, 3), -1, 0, -1), lambda: torch.diag_embed(s),
          lambda: torch.diag_embed(x, 0, 1, 1), lambda: torch.diag_embed(x, 0, 1, 3), lambda: torch.diag_embed(torch.tensor([True, False])),
          lambda: x.diag_embed(2), lambda: x.t().diag_embed(dim1=0, dim2=2), lambda: torch.diag_embed(torch.empty(2, 0)),
          lambda: torch.diagflat(x, -1), lambda: torch.diagflat(s), lambda: x.diagflat(), lambda: torch.diagflat(x.t(), offset=2),
          lambda: torch.diagflat(torch.arange(3, dtype=torch.uint8), 1), lambda: torch.diag_embed(x, out=x)]:
    attempt(f)
""")

snip("narrow_copy", PRELUDE + """
for f in [lambda: torch.narrow_copy(x, 1, 1, 2), lambda: torch.narrow_copy(x.t(), 1, 1, 2), lambda: torch.narrow_copy(x, 1, -2, 2),
          lambda: torch.narrow_copy(x, 1, -6, 2), lambda: torch.narrow_copy(x, 1, 3, 2), lambda: torch.narrow_copy(x, 1, 5, 0),
          lambda: torch.narrow_copy(x, 1, 1, -1), lambda: torch.narrow_copy(s, 0, 0, 1), lambda: torch.narrow_copy(x, 2, 0, 1),
          lambda: torch.narrow_copy(x, -3, 0, 1), lambda: x.narrow_copy(0, 1, 1), lambda: x.narrow_copy(dim=-1, start=0, length=0),
          lambda: torch.narrow_copy(x.int(), 0, 2, 1)]:
    attempt(f)
o = torch.empty(0)
attempt(lambda: torch.narrow_copy(x, 0, 1, 1, out=o))
print(o)
attempt(lambda: torch.narrow_copy(x, 0, 1, 1, out=torch.empty(0, dtype=torch.int64)))
attempt(lambda: torch.narrow_copy(x.requires_grad_(), 0, 1, 1, out=torch.empty(0)))
""")

# ---- fill_diagonal_, sum_to_size, msort, is_* ------------------------------------------------------------------------

snip("fill_diagonal", ATTEMPT + """
torch.manual_seed(0)
for f in [lambda: torch.zeros(4, 3).fill_diagonal_(5), lambda: torch.zeros(7, 3).fill_diagonal_(5, wrap=True),
          lambda: torch.zeros(7, 3).fill_diagonal_(5, True), lambda: torch.zeros(3, 3, 3).fill_diagonal_(1),
          lambda: torch.zeros(3, 3, 2).fill_diagonal_(1), lambda: torch.zeros(3).fill_diagonal_(1),
          lambda: torch.zeros(3, 5).fill_diagonal_(2.5, wrap=True), lambda: torch.zeros(3, 5, dtype=torch.int32).fill_diagonal_(2.5),
          lambda: torch.zeros(3, 3, dtype=torch.uint8).fill_diagonal_(300), lambda: torch.zeros(8, 2).fill_diagonal_(True, wrap=True),
          lambda: torch.zeros(5, 6)[1:, ::2].fill_diagonal_(-1), lambda: torch.zeros(3, 3, dtype=torch.bool).fill_diagonal_(1),
          lambda: torch.zeros(3, 3, requires_grad=True).fill_diagonal_(1)]:
    attempt(f)
base = torch.zeros(4, 4)
v = base[1:, 1:]
print(v.fill_diagonal_(9) is v, base, v._version)
a = torch.randn(3, 3, requires_grad=True)
b = a * 2
b.fill_diagonal_(0.5)
print(b.grad_fn.name(), b._version)
b.sum().backward()
print(a.grad)
""")

snip("sum_to_size", PRELUDE + """
torch.manual_seed(0)
for args in [(1, 4), ((3, 1),), ([4],), (2, 4), (), (1, 1), (1, 3, 4), (torch.Size([1]),), (3, 4), ((),)]:
    attempt(lambda: x.sum_to_size(*args))
attempt(lambda: x.sum_to_size(size=(1, 4)))
attempt(lambda: x.sum_to_size(3, 4) is x)
attempt(lambda: torch.arange(6).reshape(2, 3).sum_to_size(1, 3))
attempt(lambda: torch.ones(2, 3, dtype=torch.bool).sum_to_size(3))
attempt(lambda: torch.ones(2, 3, dtype=torch.float16).sum_to_size(2, 1))
w = torch.randn(2, 3, 4, requires_grad=True)
for size in [(3, 1), (1, 4), (4,), (1, 1, 1), (2, 3, 4)]:
    r = w.sum_to_size(size)
    print(r.shape, r.grad_fn.name() if r.grad_fn is not None else None)
w.sum_to_size(3, 1).pow(2).sum().backward()
print(w.grad)
""")

snip("msort", PRELUDE + """
torch.manual_seed(0)
for f in [lambda: torch.msort(torch.tensor([[3, 1], [2, 5], [1, 1]])), lambda: torch.tensor([2., float('nan'), 1]).msort(),
          lambda: torch.msort(s), lambda: torch.msort(x.t()), lambda: torch.msort(torch.tensor([True, False, True])),
          lambda: torch.msort(torch.empty(0, 3))]:
    attempt(f)
o = torch.empty(0)
attempt(lambda: torch.msort(x.flip(0), out=o))
print(o)
attempt(lambda: torch.msort(x, out=torch.empty(0, dtype=torch.int64)))
r = torch.randn(3, requires_grad=True)
attempt(lambda: torch.msort(r, out=torch.empty(0)))
m = torch.msort(r)
print(m.grad_fn.name())
(m * torch.tensor([1., 2., 3.])).sum().backward()
print(r.grad)
""")

snip("predicates", PRELUDE + """
for f in [lambda: torch.is_nonzero(torch.tensor([0.])), lambda: torch.tensor(float('nan')).is_nonzero(),
          lambda: torch.tensor([]).is_nonzero(), lambda: torch.tensor([1, 2]).is_nonzero(), lambda: torch.tensor(False).is_nonzero(),
          lambda: torch.tensor([[3]]).is_nonzero(), lambda: torch.tensor(-0.).is_nonzero(), lambda: torch.tensor(0.5).half().is_nonzero(),
          lambda: torch.is_nonzero(input=torch.tensor(1)), lambda: torch.is_nonzero(3),
          lambda: torch.is_floating_point(x), lambda: torch.is_floating_point(torch.tensor(1)),
          lambda: torch.is_floating_point(torch.tensor(1).bfloat16()), lambda: torch.is_complex(x), lambda: x.is_complex(),
          lambda: torch.is_floating_point(3), lambda: torch.is_complex(3), lambda: torch.is_complex(input=x)]:
    attempt(f)
""")

# ---- slice_scatter, select_scatter, diagonal_scatter -----------------------------------------------------------------

snip("scatters", ATTEMPT + """
a = torch.arange(12.).reshape(3, 4)[:, 1:].t()
e = torch.arange(3.).expand(4, 3)
for f in [lambda: torch.slice_scatter(a, torch.ones(3, 1), 1, 1, 2), lambda: torch.select_scatter(a, torch.ones(3), 0, 1),
          lambda: torch.diagonal_scatter(a, torch.ones(3), 0), lambda: torch.slice_scatter(e, torch.ones(2, 3), 0, 0, 2),
          lambda: torch.slice_scatter(a, torch.ones(3, 2), 1, 1, 2), lambda: torch.slice_scatter(a, torch.ones(3, 2), 1, step=0),
          lambda: torch.slice_scatter(a, torch.ones(3, 2), 3), lambda: torch.slice_scatter(a, torch.ones(1, 3, dtype=torch.int64), start=-1),
          lambda: torch.slice_scatter(a, torch.ones(3, 3), 0, None, None, 1), lambda: torch.slice_scatter(a, torch.ones(2, 3), end=20, step=2),
          lambda: torch.select_scatter(a, torch.ones(4), 0, 3), lambda: torch.select_scatter(a, torch.ones(3), 0, -1),
          lambda: torch.select_scatter(a, torch.ones(4), 0, 0), lambda: torch.select_scatter(torch.tensor(1.), torch.tensor(3.), 0, 0),
          lambda: torch.diagonal_scatter(a, torch.ones(2), 1), lambda: torch.diagonal_scatter(a, torch.ones(2), -1, 1, 0),
          lambda: torch.diagonal_scatter(a, torch.ones(3), 0, 1, 1), lambda: torch.diagonal_scatter(a, torch.ones(5)),
          lambda: a.slice_scatter(torch.ones(1, 3), start=2), lambda: a.select_scatter(torch.ones(3), 1, 0),
          lambda: a.diagonal_scatter(torch.ones(2), offset=1), lambda: torch.slice_scatter(a, torch.ones(1, 3), 0, 1, 2, out=torch.empty(0)),
          lambda: torch.select_scatter(a, torch.ones(3), 0, 0, out=torch.empty(0)),
          lambda: torch.slice_scatter(torch.arange(6).reshape(2, 3), torch.full((2, 1), 2.7), 1, 2),
          lambda: torch.diagonal_scatter(torch.zeros(2, 3, 3, dtype=torch.int8), torch.ones(2, 3, dtype=torch.int8), 0, 1, 2),
          lambda: torch.slice_scatter(torch.zeros(5), torch.tensor([1., 2.]), 0, -4, None, 3)]:
    attempt(f)
print(torch.slice_scatter(a, torch.ones(1, 3), 0, 1, 2)._base, a[1:]._base is not None, torch.slice_scatter(a[1:], torch.ones(1, 3), 0, 1, 2).storage_offset())
""")

snip("scatters_grad", """
torch.manual_seed(0)
p = torch.randn(3, 4, requires_grad=True); q = torch.randn(3, 2, requires_grad=True)
w = torch.arange(12.).reshape(3, 4)
r = torch.slice_scatter(p, q, 1, 1, 4, 2); print(r.grad_fn.name()); (r * w).sum().backward(); print(p.grad, q.grad)
p.grad = None; q2 = torch.randn(4, requires_grad=True); r = torch.select_scatter(p, q2, 0, 1); print(r.grad_fn.name()); (r * w).sum().backward(); print(p.grad, q2.grad)
p.grad = None; q3 = torch.randn(2, requires_grad=True); r = torch.diagonal_scatter(p, q3, 2); print(r.grad_fn.name()); (r * w).sum().backward(); print(p.grad, q3.grad)
r = torch.select_scatter(torch.zeros(3, 4), q2 * 2, 0, 2)
print(r.grad_fn.name(), [n[0].name() if n[0] is not None else None for n in r.grad_fn.next_functions])
d = torch.diag_embed(q, 1)
print(d.grad_fn.name())
(d * torch.arange(27.).reshape(3, 3, 3)).sum().backward()
print(q.grad)
n = torch.narrow_copy(p, 1, 1, 2)
print(n.grad_fn.name(), n.is_contiguous())
(n * torch.arange(6.).reshape(3, 2)).sum().backward()
print(p.grad)
""")

snip("strided_grad", """
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
y = x.as_strided((3, 3), (1, 1), 1)
print(y.grad_fn.name(), y.stride(), y.storage_offset())
(y * torch.arange(9.).reshape(3, 3)).sum().backward(); print(x.grad)
x.grad = None
u = x.unfold(1, 2, 1); print(u.grad_fn.name())
(u * torch.arange(18.).reshape(3, 3, 2)).sum().backward(); print(x.grad)
x.grad = None
v = x.t().as_strided((2, 2), (2, 1), 3)
(v * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); print(x.grad)
x.grad = None
w = x.expand(2, 3, 4).as_strided((2, 2), (1, 4))
(w ** 2).sum().backward(); print(x.grad)
x.grad = None
z = x.clone()
z.as_strided((2,), (5,)).mul_(3)
print(z.grad_fn.name(), z._version)
z.sum().backward(); print(x.grad)
x.grad = None
q = x[1:].as_strided((2, 2), (0, 1), 0)
(q * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); print(x.grad)
g = torch.randn(5, 6, requires_grad=True)
o = g.unfold(0, 3, 1).unfold(1, 2, 2)
print(o.shape, o.stride(), o.grad_fn.name())
(o * torch.randn(o.shape)).sum().backward(); print(g.grad)
h = torch.randn(6, dtype=torch.float16, requires_grad=True)
k = h.unfold(0, 4, 1)
(k * torch.randn(3, 4).half()).sum().backward(); print(h.grad)
t = torch.tensor(3., requires_grad=True)
t.unfold(0, 1, 1).mul(2).sum().backward(); print(t.grad)
e = torch.arange(4., requires_grad=True)
(e.unfold(0, 0, 1).sum() + e.as_strided((0,), (1,)).sum()).backward(); print(e.grad)
""")

# double backward: the backward's scatter into a zero storage is recorded (CopySlices, index_add_), so the
# gradient of an as_strided view has a gradient, overlapping or not
snip("strided_double_grad", """
torch.manual_seed(0)
x = torch.randn(6, dtype=torch.float64, requires_grad=True)
for f in [lambda x: x.as_strided((3, 3), (1, 1)), lambda x: x.as_strided((2, 2), (2, 1), 1),
          lambda x: x.as_strided((2, 3), (3, 1)), lambda x: x.unfold(0, 3, 2), lambda x: x.as_strided((4,), (0,))]:
    g, = torch.autograd.grad((f(x) ** 3).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g ** 2).sum(), x)
    print(g.detach(), gg)
""")

snip("meta", ATTEMPT + """
m = torch.empty(3, 4, device='meta')
for f in [lambda: m.as_strided((2, 2), (1, 2), 1), lambda: m.as_strided((5, 4), (4, 1)), lambda: m.unfold(1, 2, 1),
          lambda: torch.empty_strided((2, 3), (1, 2), device='meta'), lambda: torch.tensor_split(m, 2)[0],
          lambda: torch.slice_scatter(m, m[:1], 0, 0, 1), lambda: torch.diag_embed(m), lambda: m.mT,
          lambda: m.as_strided((2,), (-1,))]:
    attempt(f)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_more_views_parity(code):
    compare(code)


# ---- every dtype: values of the views and scatters -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_parity(dtype):
    compare(ATTEMPT + f"""
torch.manual_seed(0)
x = (torch.randn(4, 5) * 4).to(torch.{dtype})
src = (torch.randn(4, 5) * 3).to(torch.{dtype})
for f in [lambda: x.mT, lambda: x.tensor_split(3, 1), lambda: x.as_strided((3, 3), (1, 2), 2), lambda: x.unfold(1, 3, 2),
          lambda: torch.diag_embed(x[0]), lambda: torch.diagflat(x[:2, :2]), lambda: torch.narrow_copy(x, 1, 2, 2),
          lambda: x.clone().fill_diagonal_(1), lambda: x.sum_to_size(1, 5), lambda: torch.msort(x),
          lambda: torch.slice_scatter(x, src[:2], 0, 1, 3), lambda: torch.select_scatter(x, src[0], 0, 2),
          lambda: torch.diagonal_scatter(x, src[0, :3], 1), lambda: x[1:2, 2:3].is_nonzero()]:
        attempt(f)
""")


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

GRADCHECK_CASES = [
    ("as_strided", lambda a, b: a.as_strided((2, 3), (1, 2), 1) * b[:2, :3]),
    ("as_strided_overlap", lambda a, b: a.as_strided((3, 3), (1, 1), 2)),
    ("as_strided_overlapping_input", lambda a, b: a.expand(2, 3, 4).as_strided((2, 2), (1, 4))),
    ("unfold", lambda a, b: a.unfold(1, 3, 1) * 2),
    ("unfold_step", lambda a, b: a.unfold(0, 2, 1).unfold(1, 2, 2)),
    ("mT", lambda a, b: a.mT @ b),
    ("tensor_split", lambda a, b: a.tensor_split([1, 3], 1)[1] * 3),
    ("diag_embed", lambda a, b: torch_diag_embed(a, b)),
    ("narrow_copy", lambda a, b: minitorch.narrow_copy(a, 1, 1, 2)),
    ("fill_diagonal", lambda a, b: (a * b).fill_diagonal_(2.)),
    ("sum_to_size", lambda a, b: a.sum_to_size(1, 4)),
    ("msort", lambda a, b: minitorch.msort(a)),
    ("slice_scatter", lambda a, b: minitorch.slice_scatter(a, b[:, 1:3], 1, 1, 3)),
    ("select_scatter", lambda a, b: minitorch.select_scatter(a, b[1], 0, 2)),
    ("diagonal_scatter", lambda a, b: minitorch.diagonal_scatter(a, b[0, :3], 1)),
]


def torch_diag_embed(a, b):
    return minitorch.diag_embed(a + b, 1, 0, 2)


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    b = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (a, b))


DEVICE_CASES = [
    ("mT", lambda x, s: x.mT.contiguous()),
    ("tensor_split", lambda x, s: minitorch.cat(x.tensor_split(3, 1), 1)),
    ("as_strided", lambda x, s: x.as_strided((4, 4), (3, 2), 5)),
    ("unfold", lambda x, s: x.t().unfold(1, 3, 2)),
    ("diag_embed", lambda x, s: minitorch.diag_embed(x[:3], -1, 0, 2)),
    ("diagflat", lambda x, s: minitorch.diagflat(x[:2, :3], 1)),
    ("narrow_copy", lambda x, s: minitorch.narrow_copy(x.t(), 0, 2, 3)),
    ("fill_diagonal", lambda x, s: x.clone().fill_diagonal_(3, wrap=True)),
    ("sum_to_size", lambda x, s: x.sum_to_size(7, 1)),
    ("msort", lambda x, s: minitorch.msort(x)),
    ("slice_scatter", lambda x, s: minitorch.slice_scatter(x, s[:3], 0, 1, 7, 2)),
    ("select_scatter", lambda x, s: minitorch.select_scatter(x.t(), s[:, 0], 0, 4)),
    ("diagonal_scatter", lambda x, s: minitorch.diagonal_scatter(x, s[0, :6], -1)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    """Random values, non-contiguous operands."""
    minitorch.manual_seed(1)
    dt = getattr(minitorch, dtype)
    x = (minitorch.randn(7, 9) * 4).to(dt)
    s = (minitorch.randn(7, 9) * 4).to(dt)
    expected = fn(x, s)
    got = fn(x.to(device), s.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.shape == expected.shape and got.stride() == expected.stride()
    assert got.cpu().tolist() == expected.tolist()


def test_views_share_storage(device):
    x = minitorch.arange(12.).reshape(3, 4).to(device)
    base = x if x._base is None else x._base
    for v in [x.mT, x.as_strided((2, 2), (1, 4), 1), x.unfold(1, 2, 1), x.tensor_split(2, 1)[1]]:
        assert v._base is base and v.device == x.device
        v.fill_(-1.)
    assert (x == -1).all().item()
    e = minitorch.empty_strided((2, 3), (1, 2), device=device)
    assert e._base is None and e.stride() == (1, 2) and e.device.type == device
