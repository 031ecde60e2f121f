"""The ops minitorch composes from its C ops as torch's ATen does (minitorch/_composite.py: outer/ger,
nonzero/argwhere/where(condition), count_nonzero, repeat_interleave) and torch.functional's meshgrid,
unique and unique_consecutive (minitorch/functional.py). The same snippet under torch and minitorch
prints the same values, dtypes, node names, gradients and errors; each runs on every device."""

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


snip("outer", show_all([
    "torch.outer(torch.arange(3.), torch.tensor([1., -2.]))", "torch.ger(torch.arange(3), torch.tensor([2, 5]))",
    "torch.arange(2).outer(torch.tensor([0.5, 1.5, 2.]))", "torch.tensor([True, False]).outer(torch.tensor([True]))",
    "torch.outer(torch.ones(0), torch.ones(2))", "torch.outer(torch.arange(4.)[::2], torch.arange(6.)[1::3])",
    "torch.outer(torch.ones(2, 2), torch.ones(2))", "torch.outer(torch.ones(2), torch.ones(2, 2))",
    "torch.outer(torch.ones(2), 3)", "torch.ones(2).outer(3)", "torch.ones(2).ger(torch.ones(()))",
    "torch.outer(torch.ones(2), torch.ones(2), out=None)", "torch.outer(torch.ones(2))",
]) + """
a = torch.arange(3., requires_grad=True)
b = torch.tensor([1., -2.], requires_grad=True)
o = torch.outer(a, b)
print(o, o.grad_fn.name(), [type(f[0]).__name__ for f in o.grad_fn.next_functions])
(o * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()
print(a.grad, b.grad)
""")

snip("nonzero", show_all([
    "torch.nonzero(torch.tensor([[0., 1.5], [float('nan'), 0.]]))", "torch.tensor([0, 3, 0, -1]).nonzero()",
    "torch.nonzero(torch.tensor(5))", "torch.nonzero(torch.tensor(0))", "torch.tensor(2.).nonzero(as_tuple=True)",
    "torch.tensor(0.).nonzero(as_tuple=True)", "torch.nonzero(torch.tensor([[True, False], [True, True]]), as_tuple=True)",
    "torch.nonzero(torch.zeros(2, 0, 3))", "torch.nonzero(torch.zeros(2, 0, 3), as_tuple=True)",
    "torch.arange(24).reshape(2, 3, 4).transpose(0, 2).remainder(5).nonzero()",
    "torch.nonzero(torch.ones(2), as_tuple=False)", "torch.nonzero(torch.ones(2), as_tuple=None)",
    "torch.ones(2).nonzero(1)", "torch.nonzero([1, 2])", "torch.ones(2).nonzero(as_tuple='yes')",
    "torch.argwhere(torch.tensor([[0, 2], [3, 0]]))", "torch.tensor([0., 1.]).argwhere()", "torch.argwhere(torch.tensor(1))",
    "torch.where(torch.tensor([[0, 1], [1, 1]]))", "torch.where(torch.tensor(True))",
    "torch.where(condition=torch.tensor([0., 2.]))", "torch.where(torch.tensor([True, False]), 1., 0.)",
    "torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([3, 4]))",
    "torch.ones(2, requires_grad=True).nonzero().requires_grad",
]))

snip("count_nonzero", show_all([
    "torch.count_nonzero(torch.tensor([[0, 1], [2, 0]]), dim=0)", "torch.count_nonzero(torch.tensor([[0., 1], [2, 0]]), dim=(0, 1))",
    "torch.tensor([True, False]).count_nonzero()", "torch.count_nonzero(torch.tensor([[0., float('nan')], [3, 0]]), 1)",
    "torch.count_nonzero(torch.zeros(2, 0), dim=[1])", "torch.tensor(3).count_nonzero()", "torch.ones(2, 3).count_nonzero(-1)",
    "torch.ones(2).count_nonzero(1.5)", "torch.ones(2).count_nonzero(2)", "torch.count_nonzero(torch.ones(2, 2), (0, 0))",
    "torch.ones(2, requires_grad=True).count_nonzero().requires_grad",
]))

snip("repeat_interleave", show_all([
    "torch.arange(3).repeat_interleave(2)", "torch.arange(6.).reshape(2, 3).repeat_interleave(2)",
    "torch.arange(6.).reshape(2, 3).repeat_interleave(2, dim=1)", "torch.arange(6.).reshape(2, 3).repeat_interleave(3, dim=-2)",
    "torch.arange(6).reshape(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=0)",
    "torch.arange(6).reshape(2, 3).repeat_interleave(torch.tensor([0, 2, 1]), dim=1)",
    "torch.arange(6).reshape(2, 3).repeat_interleave(torch.tensor(2))", "torch.arange(6).reshape(2, 3).repeat_interleave(torch.tensor([2]), dim=1)",
    "torch.repeat_interleave(torch.tensor([1, 0, 2]))", "torch.repeat_interleave(torch.tensor([1, 2], dtype=torch.int32))",
    "torch.repeat_interleave(torch.tensor([], dtype=torch.long))", "torch.repeat_interleave(torch.tensor([2, 1]), output_size=3)",
    "torch.ones(0).repeat_interleave(3)", "torch.ones(2).repeat_interleave(0)", "torch.tensor(7.).repeat_interleave(3)",
    "torch.tensor([True, False]).repeat_interleave(2)", "torch.arange(4).t().repeat_interleave(2, dim=0, output_size=8)",
    "torch.repeat_interleave(torch.arange(3.), 2)", "torch.repeat_interleave(torch.arange(3.), torch.tensor([3, 0, 1]))",
    "torch.arange(3.).repeat_interleave(-1)", "torch.arange(3.).repeat_interleave(torch.tensor([1, 2]))",
    "torch.arange(3.).repeat_interleave(torch.tensor([[1, 2]]))", "torch.arange(3.).repeat_interleave(torch.tensor([1., 2, 3]))",
    "torch.arange(3.).repeat_interleave(torch.tensor([1, -2, 3]))", "torch.arange(3.).repeat_interleave(2, dim=3)",
    "torch.arange(3.).repeat_interleave(torch.tensor([1, 1, 1]), dim=1)",
    "torch.ones(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=0, output_size=4)",
    "torch.ones(2, 3).repeat_interleave(2, dim=0, output_size=5)",
    "torch.repeat_interleave(torch.tensor([[1, 2]]))", "torch.repeat_interleave(torch.tensor([True]))",
    "torch.repeat_interleave(torch.tensor([1, -1]))", "torch.arange(3.).repeat_interleave(2.5)",
    "torch.repeat_interleave(torch.arange(3.), 2.5)",
]) + """
y = torch.arange(6.).reshape(2, 3).requires_grad_()
for r in (y.repeat_interleave(2), y.repeat_interleave(2, dim=1), y.repeat_interleave(torch.tensor([1, 2]), dim=0)):
    chain, f = [], r.grad_fn
    while f is not None and f.next_functions:
        chain.append(f.name())
        f = f.next_functions[0][0]
    print(chain, r.stride())
    y.grad = None
    (r * torch.arange(float(r.numel())).reshape(r.shape)).sum().backward()
    print(y.grad)
""")


snip("split_and_unravel_index", show_all([
    "torch.split(torch.arange(10.), 3)", "torch.split(torch.arange(10.), [3, 7])",
    "torch.split(torch.arange(12).reshape(3, 4), split_size_or_sections=3, dim=1)",
    "torch.split(tensor=torch.arange(4), split_size_or_sections=5)", "torch.split([1, 2], 1)",
    "torch.split(torch.arange(10.), 3.5)", "torch.split(torch.arange(10.), [3, 3])", "torch.split(torch.arange(3))",
    "torch.split(torch.arange(3), 2, 1)", "torch.split(torch.arange(3), split_size=1)",
    "torch.split(torch.arange(3), 1, dim=0, foo=1)", "torch.split.__module__", "torch.functional.split is torch.split",
    "torch.functional.atleast_2d is torch.atleast_2d", "torch.functional.atleast_3d(torch.tensor(1.)).shape",
    "torch.unravel_index(torch.tensor([4, 7, 0]), (2, 4))", "torch.unravel_index(torch.tensor(5), (2, 3))",
    "torch.unravel_index(torch.tensor([[1234], [5678]]), (10, 10, 10, 10))",
    "torch.unravel_index(torch.tensor([[1, 5], [2, 3]], dtype=torch.int32), [2, 3])",
    "torch.unravel_index(torch.tensor([3], dtype=torch.uint8), torch.Size([2, 2]))",
    "torch.unravel_index(torch.tensor([9, -1]), (2, 4))", "torch.unravel_index(torch.tensor([1]), 4)",
    "torch.unravel_index(torch.tensor([1]), ())", "torch.unravel_index(torch.tensor([1]), [0, 4])",
    "torch.unravel_index(7, (2, 4))", "torch.unravel_index(torch.tensor([1.5]), (2, 4))",
    "torch.unravel_index(torch.tensor([True]), [2, 3])", "torch.unravel_index(torch.tensor([1]), (2, -4))",
    "torch.unravel_index(torch.tensor([1]), (2.0, 3))", "torch.unravel_index(torch.tensor([1]), 'ab')",
    "torch.unravel_index(torch.tensor([1]), {2: 3})", "torch.functional.unravel_index is torch.unravel_index",
]))

snip("meshgrid", show_all([
    "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij')", "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')",
    "torch.meshgrid([torch.arange(2.), torch.tensor(5.), torch.arange(3.)], indexing='xy')",
    "torch.meshgrid((torch.arange(2),), indexing='ij')", "torch.meshgrid(torch.tensor(1.), indexing='ij')",
    "[g.stride() for g in torch.meshgrid(torch.arange(2), torch.arange(3), torch.arange(4), indexing='xy')]",
    "torch.meshgrid(torch.ones(2), torch.ones(2, dtype=torch.int64), indexing='ij')",
    "torch.meshgrid(torch.ones(2), indexing='foo')", "torch.meshgrid(indexing='ij')", "torch.meshgrid(torch.arange(2))",
]) + """
a = torch.arange(2., requires_grad=True)
gx, gy = torch.meshgrid(a, torch.arange(3.), indexing='xy')
print(gx.grad_fn.name(), gx.grad_fn.next_functions[0][0].name(), gx.shape, gy.requires_grad)
(gx * torch.arange(6.).reshape(3, 2)).sum().backward()
print(a.grad)
""")

snip("unique", show_all([
    "torch.unique(torch.tensor([3, 1, 2, 3, 1, 5, 0, 7, 2]))",
    "torch.unique(torch.tensor([3, 1, 2, 3, 1, 5, 0, 7, 2]), sorted=False, return_inverse=True, return_counts=True)",
    "torch.unique(torch.tensor([[2, 1], [1, 3]]), return_inverse=True)",
    "torch.unique(torch.tensor([float('nan'), 1., float('nan'), 1., -0., 0.]), return_counts=True)",
    "torch.unique(torch.tensor([True, False, True]), return_counts=True)", "torch.unique(torch.tensor(3.))",
    "torch.unique(torch.tensor([]), return_inverse=True, return_counts=True)",
    "torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True, return_counts=True)",
    "torch.unique(torch.tensor([[1, 2, 1], [3, 4, 3]]), dim=1, return_inverse=True)",
    "torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]).t(), dim=-1, return_counts=True)",
    "torch.unique(torch.arange(24).reshape(2, 3, 4) % 3, dim=1, return_inverse=True, return_counts=True)",
    "torch.unique(torch.ones(2, 0), dim=1, return_counts=True)", "torch.unique(torch.ones(0, 2), dim=0, return_inverse=True)",
    "torch.unique(torch.ones(2, 0), dim=0)", "torch.unique(torch.ones(2, 2), dim=2)", "torch.unique(torch.tensor(5), dim=0)",
    "torch.tensor([2., 2., 1.]).unique(return_counts=True)", "torch.tensor([[1, 1], [0, 0]]).unique(dim=0)",
    "torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True)",
    "torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), dim=0, return_counts=True)",
    "torch.unique_consecutive(torch.tensor([float('nan'), float('nan'), 1.]))", "torch.unique_consecutive(torch.tensor(3))",
    "torch.unique_consecutive(torch.tensor([]), return_inverse=True, return_counts=True)",
    "torch.tensor([[5, 5, 4]]).unique_consecutive(dim=1, return_inverse=True)",
    "torch.unique([1, 2])",
]) + """
a = torch.tensor([2., 1., 2.], requires_grad=True)
for u in (torch.unique(a), torch.unique_consecutive(a), torch.unique(a, return_inverse=True)[0]):
    print(u, u.grad_fn.name(), [type(f[0]).__name__ for f in u.grad_fn.next_functions])
    try:
        u.sum().backward()
    except NotImplementedError as e:
        print("NotImplementedError", e)
print(torch.unique(a, return_inverse=True)[1].requires_grad)
""")

@pytest.mark.parametrize("code", SNIPPETS)
def test_composite_ops_parity(code):
    compare(code)


DEVICE_CASES = [
    ("outer", lambda x: minitorch.outer(x[0], x[1])),
    ("nonzero", lambda x: (x > 0).t().nonzero()),
    ("nonzero_tuple", lambda x: minitorch.where(x.t() > 0.5)),
    ("count_nonzero", lambda x: (x > 0).count_nonzero(1)),
    ("repeat_interleave", lambda x: x.t().repeat_interleave(3, dim=1)),
    ("repeat_interleave_tensor", lambda x: x.repeat_interleave(minitorch.tensor([2, 0, 1, 3, 1], device=x.device), dim=1)),
    ("meshgrid", lambda x: minitorch.meshgrid(x[0], x[1, :3], indexing="xy")),
    ("unique", lambda x: minitorch.unique((x * 2).round(), return_inverse=True, return_counts=True)),
    ("unique_dim", lambda x: minitorch.unique((x > 0).int(), dim=1, return_inverse=True, return_counts=True)),
    ("unique_consecutive", lambda x: (x > 0).reshape(-1).unique_consecutive(return_inverse=True, return_counts=True)),
]


@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn):
    minitorch.manual_seed(2)
    x = minitorch.randn(4, 5)
    expected = fn(x)
    got = fn(x.to(device))
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert g.device.type == device and g.dtype == e.dtype and g.cpu().tolist() == e.tolist()


def test_gradcheck(device):
    minitorch.manual_seed(0)
    a = minitorch.randn(3, dtype=minitorch.float64, device=device, requires_grad=True)
    b = minitorch.randn(2, 3, dtype=minitorch.float64, device=device, requires_grad=True)
    reps = minitorch.tensor([2, 0, 1], device=device)
    assert minitorch.autograd.gradcheck(lambda a, b: minitorch.outer(a, b[0]) + b.repeat_interleave(2, dim=0)[1:4]
                                        + b.repeat_interleave(reps, dim=1).sum(), (a, b))
