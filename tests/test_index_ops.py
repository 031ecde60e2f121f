"""The indexing ops along a dim (gather, scatter, scatter_add, index_select, index_add and their in-place
forms) against torch: values, dtypes, errors, gradients and node names printed by the same snippet under
both; gradcheck in float64 and the device path (each op on "cuda" against the CPU) on each device."""

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


PRELUDE = """
x = torch.arange(6.).reshape(2, 3)
i = torch.tensor([[1], [0]])
"""

# ---- values and dtypes ---------------------------------------------------------------------------------

snip("gather", PRELUDE + show_all([
    "x.gather(1, i)", "torch.gather(x, 0, torch.tensor([[1, 0, 1]]))", "x.gather(-1, torch.tensor([[2, 2, 0, 1]] * 2))",
    "x.gather(1, i.int())", "x.long().gather(1, i)", "x.bool().gather(0, torch.tensor([[0, 1, 0]]))",
    "x.double().gather(1, torch.tensor([[2], [0]]))", "x.int().gather(1, torch.tensor([[0, 0]]))",
    "x.t().gather(0, torch.tensor([[1, 0], [2, 2]]))", "x.gather(1, torch.tensor([[1, 0, 2]]).expand(2, 3))",
    "x.gather(1, torch.zeros(2, 0, dtype=torch.long))", "x.gather(1, torch.zeros(0, dtype=torch.long))",
    "x.gather(1, torch.zeros(0))", "torch.tensor(5.).gather(0, torch.tensor([0, 0]))",
    "torch.tensor(5.).gather(0, torch.tensor(0))", "torch.gather(x, 1, i, sparse_grad=False)",
    "x.gather(0, torch.tensor([[1, 1, 1]] * 3))", "x.gather(1, i).stride()", "x.t().gather(1, i).stride()",
]))

snip("scatter", PRELUDE + show_all([
    "x.scatter(1, i, 5.)", "x.scatter(1, i, 2)", "x.long().scatter(1, i, 2.5)", "x.scatter(1, i, True)",
    "x.scatter(1, i, torch.tensor(7.))", "x.scatter(1, i, value=3)", "x.scatter(1, i, src=torch.ones(2, 2))",
    "torch.scatter(x, 1, i, torch.ones(2, 2) * 4)", "x.scatter(0, torch.tensor([[1, 0, 1]]), -x)",
    "x.scatter(1, torch.tensor([[2, 2], [0, 0]]), 2., reduce='add')",
    "x.scatter(1, torch.tensor([[2, 2], [0, 0]]), torch.ones(2, 2) * 3, reduce='multiply')",
    "x.long().scatter(1, i, 2, reduce='multiply')", "x.bool().scatter(1, i, False)",
    "x.scatter(1, torch.tensor([[2, 2, 2]]), torch.tensor([[10., 20., 30.]]))",
    "x.scatter(0, torch.zeros(0, 5, dtype=torch.long), x)", "x.scatter(0, torch.zeros(0, 5, dtype=torch.long), 1.)",
    "x.t().scatter(1, torch.tensor([[1]]), 1.)", "x.t().scatter(1, torch.tensor([[1]]), 1.).stride()",
    "torch.tensor(5.).scatter(0, torch.tensor(0), torch.tensor(2.))",
]))

snip("scatter_add", PRELUDE + show_all([
    "x.scatter_add(1, torch.tensor([[2, 2], [0, 0]]), torch.ones(2, 2))",
    "torch.scatter_add(x, 0, torch.tensor([[1, 1, 1], [1, 0, 1]]), x * 10)",
    "x.long().scatter_add(1, torch.tensor([[2, 2], [0, 0]]), torch.ones(2, 2).long())",
    "x.bool().scatter_add(1, torch.tensor([[2, 2], [0, 0]]), torch.ones(2, 2).bool())",
    "x.int().scatter_add(1, torch.tensor([[2, 2], [0, 0]]), torch.full((2, 2), 2147483647, dtype=torch.int32))",
    "torch.tensor(5.).scatter_add(0, torch.tensor([0, 0]), torch.tensor([1., 2.]))",
    "x.scatter_add(1, torch.tensor([[1, 1, 1]]).t()[:2], x.t())",
]))

snip("index_select", PRELUDE + show_all([
    "x.index_select(1, torch.tensor([2, 0, 2]))", "torch.index_select(x, 0, torch.tensor([1, 1, 0]))",
    "x.index_select(-1, torch.tensor([1]).int())", "x.t().index_select(1, torch.tensor([1, 0]))",
    "x.index_select(0, torch.tensor(1))", "x.index_select(0, torch.zeros(0, dtype=torch.long))",
    "x.bool().index_select(1, torch.tensor([0, 0]))", "x.long()[0].index_select(0, torch.tensor([2, 1, 0, 2]))",
    "torch.tensor(5.).index_select(0, torch.tensor([0]))", "torch.tensor(5.).index_select(0, torch.tensor(0))",
    "x.t().index_select(1, torch.tensor([1, 0])).stride()",
    "torch.arange(24).reshape(2, 3, 4).index_select(1, torch.tensor([2, 0]))",
]))

snip("index_add", PRELUDE + show_all([
    "x.index_add(1, torch.tensor([0, 0]), torch.ones(2, 2), alpha=2)",
    "torch.index_add(x, 0, torch.tensor([1, 1]), torch.ones(2, 3) * 5)",
    "x.index_add(1, torch.tensor([0]), torch.ones(2, 1), alpha=0.5)",
    "x.long().index_add(1, torch.tensor([0]), torch.ones(2, 1).long(), alpha=0.5)",
    "x.long().index_add(1, torch.tensor([0]), torch.ones(2, 1).long(), alpha=3)",
    "x.int().index_add(0, torch.tensor([1]), torch.ones(1, 3).int(), alpha=2.5)",
    "x.bool().index_add(1, torch.tensor([2, 2]), torch.ones(2, 2).bool())",
    "x.bool().index_add(0, torch.tensor([1, 1]), torch.ones(2, 3).bool(), alpha=2)",
    "x.index_add(1, torch.zeros(0, dtype=torch.long), torch.ones(2, 0))",
    "x.index_add(1, torch.tensor([2, 0]).int(), x[:, :2].t().contiguous().t())",
    "torch.tensor(5.).index_add(0, torch.tensor([0]), torch.tensor(2.))",
    "torch.tensor(5.).index_add(0, torch.tensor(0), torch.tensor(2.))",
    "x.t().index_add(1, torch.tensor([1]), torch.ones(3, 1)).stride()",
]))

snip("in_place", PRELUDE + """
y = x.clone()
print(y.scatter_(1, i, 9.) is y, y)
print(y.scatter_(0, torch.tensor([[1, 1, 0]]), torch.tensor([[7., 8., 9.]])), y._version)
print(y.scatter_(0, torch.tensor([[1]]), 2., reduce='multiply'))
print(y.scatter_add_(1, torch.tensor([[0, 0]]), torch.ones(1, 2)))
print(y.index_add_(0, torch.tensor([0, 1, 0]), torch.ones(3, 3), alpha=-1), y._version)
print(hasattr(torch, 'scatter_'), hasattr(torch, 'index_add_'), hasattr(torch.Tensor, 'index_select_'))
z = torch.zeros(3).expand(2, 3)
z.scatter_(1, i, 1.)
x.scatter_(0, torch.tensor([[1]]), x, reduce='add')
x.index_add_(0, torch.tensor([0]), x[:1])
""")

# ---- errors, in torch's order ------------------------------------------------------------------------

snip("errors", PRELUDE + show_all([
    "x.gather(1, torch.tensor([[-1], [0]]))", "x.gather(1, torch.tensor([[5], [0]]))",
    "x.gather(0, torch.tensor([[5], [0]]))", "x.gather(1, torch.tensor([[0, 7], [9, 0]]))",
    "x.gather(2, i)", "x.gather(5, i.float())", "x.gather(1, torch.tensor([1, 0]))", "x.gather(1, i.float())",
    "x.gather(1, i.bool())", "x.gather(1, torch.tensor([[1, 0], [1, 1], [0, 0]]))",
    "torch.tensor(5.).gather(0, torch.tensor(1))", "x.gather(1, torch.tensor(0))",
    "x.scatter(1, torch.tensor([[-1], [0]]), 5.)", "x.scatter(1, torch.tensor([[3], [0]]), 5.)",
    "x.scatter(1, torch.tensor([[4, 7], [9, 0]]), 1.)", "x.scatter(1, i, torch.ones(2, 1, dtype=torch.float64))",
    "x.scatter(1, i.float(), 1.)", "x.scatter(1, torch.tensor([1]), 2.)", "x.scatter(1, i, torch.ones(2, 1, 1))",
    "x.scatter(0, torch.tensor([[1, 1, 1, 1]]), 1.)", "x.scatter(0, torch.tensor([[1, 1, 1]] * 3), x)",
    "x.scatter(0, torch.tensor([[1, 1, 1]] * 2), x[:1])", "x.scatter(0, torch.tensor([[1]]), 1., reduce='foo')",
    "x.scatter(0, torch.tensor([[1]]), x, reduce='foo')", "x.scatter(2, i, 1.)", "x.scatter(0, torch.zeros(1, 5, dtype=torch.long), 1.)",
    "x.scatter_add(1, i.float(), x)", "x.scatter_add(1, i, x.double())", "x.scatter_add(-3, i, x)",
    "x.scatter_add(0, torch.tensor([[1, 1, 1, 1]]), torch.ones(3, 4))", "x.scatter_add(1, torch.tensor([1]), x)",
    "x.index_select(1, torch.tensor([-1]))", "x.index_select(1, torch.tensor([3]))", "x.index_select(0, torch.tensor([2]))",
    "x.index_select(-1, torch.tensor([7, 9]))", "x.index_select(0, torch.tensor([7, 9]))",
    "x[0].index_select(0, torch.tensor([5]))", "x.t().index_select(0, torch.tensor([5]))",
    "x.t().long().index_select(1, torch.tensor([5]))", "torch.tensor(5.).index_select(0, torch.tensor([1]))",
    "x.index_select(1, torch.tensor([[1]]))", "x.index_select(1, torch.tensor([1.]))",
    "x.index_select(0, torch.tensor([[1]]).float())", "x.index_select(2, torch.tensor([1]))",
    "x.index_add(1, torch.tensor([3]), torch.ones(2, 1))", "x.index_add(1, torch.tensor([-1]), torch.ones(2, 1))",
    "x.index_add(1, torch.tensor([4, 7]), torch.ones(2, 2))",
    "x.index_add(1, torch.tensor([0, 0]), torch.ones(2, 3))", "x.index_add(1, torch.tensor([0, 0]), torch.ones(2, 2, dtype=torch.float64))",
    "x.index_add(1, torch.tensor([0]).float(), torch.ones(2, 1))", "x.index_add(1, torch.tensor([[0]]), torch.ones(2, 1))",
    "x.index_add(1, torch.tensor([[0]]).float(), torch.ones(2, 1))", "x.index_add(1, torch.tensor([0]), torch.ones(3, 1))",
    "x.index_add(1, torch.tensor([0]), torch.ones(2, 1, 1))", "x.index_add(1, torch.tensor([0, 1]), torch.ones(3, 2))",
    "x.index_add(0, torch.tensor([0]), torch.ones(1, 2))", "x.index_add(1, torch.tensor([0]), torch.ones(2))",
    "x.index_add(1, torch.tensor([0]), torch.tensor(1.))", "x.index_add(2, torch.tensor([0]), x)",
    "x[0].index_add(0, torch.tensor([1]), torch.tensor(3.))",
    "torch.tensor(5.).index_add(0, torch.tensor([0]), torch.tensor([2.]))",
]))

# ---- gradients and nodes ---------------------------------------------------------------------------------

GRAPH = """
def names(t):
    fn = t.grad_fn
    print(type(fn).__name__ if fn is not None else None,
          [(type(n).__name__ if n is not None else None, k) for n, k in (fn.next_functions if fn else ())])
"""

for name, expr in [
    ("gather", "a.gather(1, torch.tensor([[0, 0, 4], [1, 3, 3], [2, 2, 2]]))"),
    ("gather_dim0_negative_dim", "a.gather(-2, torch.tensor([[2, 2, 0, 1, 1]]))"),
    ("gather_noncontiguous", "a.t().gather(1, torch.tensor([[0, 2], [1, 1], [2, 0], [0, 0], [1, 2]]))"),
    ("scatter_src", "a.scatter(1, torch.tensor([[0, 1], [3, 3], [4, 2]]), b[:, :2])"),
    ("scatter_value", "a.scatter(1, torch.tensor([[0, 1], [3, 3], [4, 2]]), 2.5)"),
    ("scatter_reduce", "a.scatter(1, torch.tensor([[0, 1], [3, 3], [4, 2]]), 2.5, reduce='add')"),
    ("scatter_add", "a.scatter_add(0, torch.tensor([[0, 0, 1, 2, 2], [0, 0, 0, 0, 0]]), b[:2])"),
    ("index_select", "a.index_select(1, torch.tensor([4, 0, 4, 4]))"),
    ("index_select_dim0", "a.index_select(0, torch.tensor([2, 2]))"),
    ("index_add", "a.index_add(1, torch.tensor([1, 1, 0]), b[:, :3], alpha=2.5)"),
    ("index_add_dim0", "a.index_add(0, torch.tensor([2, 0, 2]), b)"),
    ("scatter_in_place", "(a * 1).scatter_(1, torch.tensor([[0], [3], [4]]), b[:, :1])"),
    ("scatter_add_in_place", "(a * 1).scatter_add_(1, torch.tensor([[0, 0]] * 3), b[:, 1:3])"),
    ("index_add_in_place", "(a * 1).index_add_(0, torch.tensor([1, 1]), b[:2], alpha=-1)"),
    ("view_in_place", "(a * 1)[1:].index_add_(1, torch.tensor([4]), b[1:, :1])"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
a = torch.randn(3, 5, requires_grad=True)
b = torch.randn(3, 5, requires_grad=True)
out = {expr}
names(out)
w = torch.randn(out.shape)
try:
    (out * w).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
print(a.grad.tolist() if a.grad is not None else None)
print(b.grad.tolist() if b.grad is not None else None)
""")

snip("grad_scatter_src_larger_than_index", """
a = torch.randn(2, 3, requires_grad=True)
s = torch.randn(2, 3, requires_grad=True)
a.scatter(1, torch.tensor([[1], [0]]), s).sum().backward()
""")

snip("grad_zero_dim", """
a = torch.tensor(3., requires_grad=True)
s = torch.tensor(2., requires_grad=True)
(a.gather(0, torch.tensor([0, 0])).sum() * 2 + a.index_select(0, torch.tensor([0])) * 3
 + a.index_add(0, torch.tensor([0]), s, alpha=4)).backward()
print(a.grad, s.grad)
""")

snip("double_backward", """
torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
y = (a.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]])) ** 2).sum()
g, = torch.autograd.grad(y, a, create_graph=True)
print(type(g.grad_fn).__name__)
g.sum().backward()
print(a.grad.tolist())
""")


# ---- the backward of advanced indexing (IndexBackward0, IndexPutBackward0) and of max(dim)/min(dim) -------

for name, expr in [
    ("index_tensor", "a[torch.tensor([0, 2, 0])]"), ("index_list_dim1", "a[:, [0, 2, 2]]"), ("index_mask", "a[a > 0]"),
    ("index_apart", "a[[0, 2], :, [1, 1]]"), ("index_broadcast", "a[[[0], [2]], [1, 3]]"), ("index_int_then_list", "a[1, [3, 3, 3]]"),
    ("index_negative", "a[..., [-1, 0, -1]]"), ("index_empty", "a[:, torch.tensor([], dtype=torch.long)]"),
    ("index_noncontiguous", "a.transpose(0, 2)[[4, 4, 0]]"), ("index_mixed", "a[[0, 1], 1:3, [[2], [4]]]"),
    ("index_mask_2d", "a[a.sum(2) > 0]"), ("index_mask_dim1", "a[:, a[0, :, 0] > 0]"), ("index_int32", "a[torch.tensor([1, 1]).int()]"),
    ("max_dim", "a.max(1)[0]"), ("min_dim_keepdim", "a.min(-1, keepdim=True).values"), ("max_dim0", "torch.max(a, 0).values"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
a = torch.randn(3, 4, 5, requires_grad=True)
out = {expr}
names(out)
w = torch.randn(out.shape)
(out * w).sum().backward()
print(a.grad.tolist())
""")

for name, stmt in [
    ("put_number", "y[torch.tensor([0, 2])] = 1."), ("put_mask_tensor", "y[y > 0] = v0"),
    ("put_repeated", "y[torch.tensor([0, 2, 0])] = v[:1]"), ("put_dim1", "y[:, [1, 3]] = v[:, :1]"),
    ("put_view", "y[1, [3, 3]] = v[0, :2]"), ("put_broadcast", "y[[0, 1], [[2], [4]]] = v[:2, :2]"),
    ("put_mask_element", "y[y > 0] = v[0, 0]"), ("put_leading_ones", "y[[-1]] = v[:1].unsqueeze(0)"),
    ("put_mask_number", "y[y > 0] = 0.5"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
b = torch.randn(4, 5, requires_grad=True)
v = torch.randn(4, 5, requires_grad=True)
v0 = torch.tensor(2.5, requires_grad=True)
y = b * 1
{stmt}
names(y)
w = torch.randn(y.shape)
(y * w).sum().backward()
print(b.grad.tolist(), v.grad.tolist() if v.grad is not None else None, v0.grad)
""")

snip("index_double_backward", GRAPH + """
torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((x[[0, 0, 2]] ** 2).sum(), x, create_graph=True)
names(g)
g.sum().backward()
print(x.grad.tolist())
v, i = x.max(1)
g, = torch.autograd.grad((v ** 2).sum(), x, create_graph=True)
names(g)
""")

snip("put_errors", """
a = torch.randn(3, requires_grad=True)
a[torch.tensor([0])] = 1.
b = a * 1
b[torch.tensor([5])] = 1.
print(type(b.grad_fn).__name__)
""")


# ---- flip, roll, repeat, tile, movedim ------------------------------------------------------------------

snip("rearrange", PRELUDE + show_all([
    "x.flip(0)", "x.flip(-1, 0)", "torch.flip(x, [1])", "x.flip([])", "x.flip(0, 0)", "x.flip(2)", "x.t().flip(0)",
    "x.long().flip(1)", "torch.tensor(3.).flip(0)", "torch.empty(0, 3).flip(0, 1)", "x.flip(1).stride()",
    # flip lays its result out as empty_like(x): a permuted input's strides, a strided one's dense order
    "x.t().flip(1).stride()", "x.t().flip(0, 1).stride()", "x[:, ::2].flip(0).stride()",
    "torch.zeros(2, 3, 4).permute(2, 0, 1).flip(1).stride()", "torch.zeros(4, 3).t()[:, 1:].flip(0).stride()",
    "x.roll(1)", "x.roll(1, 1)", "x.roll((1, -1), (0, 1))", "torch.roll(x, 7, 0)", "x.roll(-8, -1)", "x.roll((1,), (0, 1))",
    "x.roll(1, 2)", "x.roll([])", "x.t().roll(1)", "x.bool().roll(2, 1)", "torch.tensor(3.).roll(1)", "torch.empty(0, 2).roll(1, 0)",
    "x.repeat(2)", "x.repeat(2, 1)", "x.repeat(1, 2, 2)", "x.repeat(-1, 2)", "x.repeat(0, 2)", "x.repeat()", "x.t().repeat(2, 2)",
    "x.int().repeat(1, 3)", "torch.tensor(3.).repeat(2)", "torch.tensor(3.).repeat(())", "x.repeat(2, 1).stride()",
    "x.tile(2)", "x.tile((2,))", "torch.tile(x, (1, 1, 2))", "x.tile(())", "x.tile(-1)",
    "x.movedim(0, 1)", "x.movedim((0, 1), (1, 0))", "x.movedim(0, 2)", "x.movedim((0, 0), (1, 0))", "x.movedim((0, 1), (0, 0))",
    "x.movedim((0, 1), (1,))", "torch.movedim(torch.zeros(2, 3, 4), (0, 2), (2, 0)).shape",
    "torch.zeros(2, 3, 4, 5).moveaxis(-1, 1).shape", "torch.moveaxis(x, 0, -1).stride()", "x.swapaxes(0, 1)", "x.swapdims(0, 1)",
]))

for name, expr in [
    ("flip", "a.flip(0, 2)"), ("roll", "a.roll((1, -2), (2, 0))"), ("roll_flat", "a.roll(4)"),
    ("repeat", "a.repeat(2, 1, 1, 3)"), ("tile", "a.tile((2, 1))"), ("movedim", "a.movedim(0, -1)"),
    ("swapaxes", "a.swapaxes(0, 2)"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
a = torch.randn(3, 4, 5, requires_grad=True)
out = {expr}
names(out)
w = torch.randn(out.shape)
(out * w).sum().backward()
print(a.grad.tolist())
""")


# ---- masked_fill, masked_select, take --------------------------------------------------------------------

snip("masked", PRELUDE + """
m = torch.tensor([True, False, True])
""" + show_all([
    "x.masked_fill(m, 2.)", "x.masked_fill(m, torch.tensor(2.))", "x.masked_fill(m.float(), 2.)", "x.masked_fill(m.long(), 2.)",
    "x.masked_fill(m.int(), 2.)", "x.masked_fill(m, torch.ones(3))", "x.long().masked_fill(m, 2.5)",
    "x.masked_fill(torch.tensor([[True], [False]]), 7)", "x.masked_fill(torch.ones(2, 2, 3, dtype=torch.bool), 1.)",
    "x.masked_fill(torch.ones(4, dtype=torch.bool), 1.)", "x.int().masked_fill(m, 2**40)", "x.bool().masked_fill(m, 5)",
    "torch.masked_fill(x, m, value=3)", "x.masked_fill(m, torch.tensor(2, dtype=torch.long))",
    "x.long().masked_fill(m, torch.tensor(2.5))", "x.t().masked_fill(torch.tensor([True, False]), -1.)",
    "x.clone().masked_fill_(m, 9.)", "x.clone().masked_fill_(torch.ones(2, 2, 3, dtype=torch.bool), 1.)",
    "x.masked_select(m)", "x.masked_select(m.int())", "torch.ones(3).masked_select(torch.tensor([[True], [False]]))",
    "x.masked_select(torch.ones(4, dtype=torch.bool))", "torch.masked_select(x, m)",
    "x.t().masked_select(torch.tensor([[True], [False], [True]]))", "x.masked_select(torch.zeros(2, 3, dtype=torch.bool))",
    "x.take(torch.tensor([0, -1, 5]))", "x.take(torch.tensor([[6]]))", "x.take(torch.tensor([-7]))",
    "x.take(torch.tensor([1]).int())", "x.take(torch.tensor([1.]))", "x.t().take(torch.tensor([1, 2]))",
    "torch.take(x, torch.tensor(3))", "torch.empty(0).take(torch.tensor([0]))",
    "torch.empty(0).take(torch.tensor([], dtype=torch.long))", "x.take(torch.tensor([[1, 1], [-6, 0]]))",
]))

for name, expr in [
    ("masked_fill", "a.masked_fill(a > 0, 2.)"), ("masked_fill_broadcast", "a[0].masked_fill(a > 0, -1)"),
    ("masked_fill_tensor", "a.masked_fill(a > 0.5, b[0, 0, 0])"), ("masked_fill_in_place", "(a * 1).masked_fill_(b > 0, 0.)"),
    ("masked_select", "a.masked_select(b > 0)"), ("masked_select_broadcast", "a[:1].masked_select(b > 0)"),
    ("take", "a.take(torch.tensor([[0, 5, -1], [5, 5, 0]]))"), ("take_noncontiguous", "a.transpose(0, 2).take(torch.tensor([3, 3]))"),
]:
    snip(f"grad_{name}", GRAPH + f"""
torch.manual_seed(0)
a = torch.randn(3, 4, 5, requires_grad=True)
b = torch.randn(3, 4, 5, requires_grad=True)
out = {expr}
names(out)
w = torch.randn(out.shape)
(out * w).sum().backward()
print(a.grad.tolist(), b.grad.tolist() if b.grad is not None else None)
""")


# loops of more than one grain, which the host shares among its threads along a dim other than the
# indexed one: repeated indices must still combine in torch's order, bit for bit
snip("large_repeated_indices", """
def hexes(t): return [float(v).hex() for v in t.flatten().tolist()]
torch.manual_seed(0)
for dim in range(3):
    x = torch.randn(20, 30, 70)
    i = torch.randint(0, x.shape[dim], x.shape)
    src = torch.randn(x.shape)
    print(hexes(x.clone().scatter_add_(dim, i, src)[:3]))
    print(hexes(x.clone().scatter_reduce_(dim, i, src, "prod")[:2]))
    print(hexes(x.clone().scatter_(dim, i, src)[:2]))
    print(hexes(x.gather(dim, i)[:2]))
    j = torch.randint(0, x.shape[dim], (x.shape[dim] * 2,))
    print(hexes(torch.zeros(x.shape).index_add_(dim, j, torch.cat([src, src], dim))[:3]))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_index_ops_parity(code):
    compare(code)


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

IDX = [[0, 0, 3], [1, 3, 3], [2, 2, 0]]

GRADCHECK_CASES = [
    ("gather", lambda a, b: a.gather(1, minitorch.tensor(IDX, device=a.device))),
    ("scatter", lambda a, b: a.scatter(1, minitorch.tensor([[0, 1], [3, 2], [1, 0]], device=a.device), b[:, :2])),
    ("scatter_value", lambda a, b: a.scatter(0, minitorch.tensor([[0, 1, 2, 0]], device=a.device), 1.5) * b),
    ("scatter_add", lambda a, b: a.scatter_add(1, minitorch.tensor(IDX, device=a.device), b[:, :3])),
    ("index_select", lambda a, b: a.index_select(1, minitorch.tensor([3, 0, 3], device=a.device)) * 2),
    ("index_add", lambda a, b: a.index_add(1, minitorch.tensor([1, 1, 0, 2], device=a.device), b, alpha=-0.5)),
    ("in_place", lambda a, b: (a * 1).index_add_(0, minitorch.tensor([2, 2, 0], device=a.device), b)
        .scatter_add_(1, minitorch.tensor(IDX, device=a.device), b.t()[:3, :3])),
    ("advanced_index", lambda a, b: a[[0, 2, 0]] * b[:, [3, 3, 1, 0]] + a[b > 0].sum()),
    ("index_put", lambda a, b: put(a * 1, b)),
    ("max_min_dim", lambda a, b: a.max(1).values * b.min(1, keepdim=True).values.t()),
    ("masked_take", lambda a, b: a.masked_fill(b > 0.3, 2.0) * b.masked_fill(a > 0, b[0, 0]) + a.masked_select(b > 0).sum()
        + b.take(minitorch.tensor([[0, 11], [-1, 0]], device=a.device)).sum()),
    ("rearrange", lambda a, b: a.flip(1).roll((1, 2), (0, 1)) * b.repeat(1, 2)[:, 2:6] + a.tile(2, 1)[1:4].movedim(0, 1).t()),
]


def put(y, b):
    y[[0, 2], 1:3] = b[:2, :2]
    y[:, [-1]] = 0.5
    return y


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    b = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (a, b))


DEVICE_CASES = [
    ("gather", lambda x, s, i: x.gather(1, i)),
    ("gather_t", lambda x, s, i: x.t().gather(0, i.t())),
    ("scatter", lambda x, s, i: x.scatter(1, i, s)),
    ("scatter_value", lambda x, s, i: x.scatter(1, i, -2.0)),
    ("scatter_reduce_add", lambda x, s, i: x.scatter(1, i, s, reduce="add")),
    ("scatter_reduce_multiply", lambda x, s, i: x.scatter(1, i, 1.5, reduce="multiply")),
    ("scatter_add", lambda x, s, i: x.scatter_add(1, i, s)),
    ("scatter_add_dim0", lambda x, s, i: x.t().contiguous().scatter_add(0, i.t(), s.t())),
    ("index_select", lambda x, s, i: x.index_select(1, i[0])),
    ("index_select_dim0", lambda x, s, i: x.index_select(0, i[1] % 7)),
    ("index_add", lambda x, s, i: x.index_add(1, i[0], s[:, :i.shape[1]], alpha=3)),
    ("index_add_dim0", lambda x, s, i: x.index_add(0, i[1] % 7, s[:i.shape[1]])),
    ("in_place", lambda x, s, i: x.clone().scatter_add_(1, i, s).index_add_(1, i[2], s[:, :i.shape[1]])),
    ("flip_roll", lambda x, s, i: x.t().flip(0, 1).roll((3, -2), (1, 0)) + s.t().roll(5)),
    ("repeat_tile", lambda x, s, i: x.t().repeat(2, 1, 3).tile(2, 1, 1, 1)),
    ("masked_fill", lambda x, s, i: x.t().masked_fill(s.t() > s.t()[0], True)),
    ("masked_select", lambda x, s, i: x.t().masked_select(s.t() > 0)),
    ("take", lambda x, s, i: x.t().take(i - 3)),
]


@pytest.mark.filterwarnings("ignore:The reduce argument of torch.scatter")
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool"])
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    """Random values, many repeated indices (the device's order of adds must be the host's, bit for
    bit), non-contiguous operands."""
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
    with pytest.raises(RuntimeError, match="^index 3 is out of bounds for dimension 1 with size 3$"):
        x.scatter_(1, minitorch.tensor([[0, 3]], device=device), 1.0)
    with pytest.raises(RuntimeError, match="^index -1 is out of bounds for dimension 0 with size 2$"):
        x.index_add_(0, minitorch.tensor([-1], device=device), minitorch.ones(1, 3, device=device))
    with pytest.raises(IndexError, match="^index out of range in self$"):
        x.index_select(0, minitorch.tensor([2], device=device))
    assert x.cpu().tolist() == [[0.0] * 3] * 2


def test_large_scatter_add_on_the_device(device):
    minitorch.manual_seed(2)
    src = minitorch.randn(50000)
    idx = minitorch.randint(0, 17, (50000,))
    expected = minitorch.zeros(17).scatter_add(0, idx, src)
    got = minitorch.zeros(17, device=device).scatter_add(0, idx.to(device), src.to(device))
    assert got.cpu().tolist() == expected.tolist()
