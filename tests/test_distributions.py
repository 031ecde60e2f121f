"""The sampling ops written in minitorch/_distributions.py: normal (four overloads), Tensor.exponential_,
multinomial (the exponential race and the inverse-CDF search with replacement). After manual_seed the
same snippet prints torch's samples bit for bit, and the generator is left where torch leaves it (each
snippet ends with a fresh draw); nodes, gradients and errors are torch's."""

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
    return "".join("print(repr(%s))\n" % e for e in exprs) + "print(torch.rand(3).tolist())\n"


snip("normal", "torch.manual_seed(0)\n" + show_all([
    "torch.normal(torch.zeros(3), 2.)", "torch.normal(1., torch.ones(20, dtype=torch.float64))[-3:]",
    "torch.normal(torch.zeros(2, 1), torch.ones(3))", "torch.normal(2., 3., size=(2,))",
    "torch.normal(2., 3., (2,), dtype=torch.float64)", "torch.normal(2, 3, size=(2, 2))",
    "torch.normal(torch.arange(4.).reshape(2, 2).t(), 0.5)", "torch.normal(mean=torch.zeros(3), std=torch.ones(3))",
    "torch.normal(torch.zeros(3))", "torch.normal(0., 1., size=(2,), requires_grad=True)",
    "torch.normal(torch.zeros(20, dtype=torch.float64), torch.arange(20.))[-2:]",
    "torch.normal(torch.zeros(3), -1.)", "torch.normal(torch.zeros(3), torch.tensor([1., -1., 1.]))",
    "torch.normal(torch.zeros(3, dtype=torch.long), 1.)", "torch.normal(0., 1.)", "torch.normal(0., -1., size=(2,))",
    "torch.normal(torch.zeros(2), torch.ones(3))",
    "torch.normal(torch.zeros(2), 1., generator=torch.Generator().manual_seed(3))",
]) + """
m = torch.zeros(3, requires_grad=True)
s = torch.ones(3, requires_grad=True)
for out in (torch.normal(m, 1.), torch.normal(1., s), torch.normal(m, s), torch.normal(m, torch.ones(2, 1))):
    print(out.grad_fn.name(), [type(f[0]).__name__ if f[0] is not None else None for f in out.grad_fn.next_functions])
    m.grad = s.grad = None
    out.sum().backward()
    print(m.grad, s.grad)
""")

snip("exponential_", "torch.manual_seed(1)\n" + show_all([
    "torch.empty(5).exponential_()", "torch.empty(21).exponential_(2.5)[-3:]",
    "torch.empty(3, dtype=torch.float64).exponential_(0.5)", "torch.empty(4, 3).t().exponential_()",
    "torch.empty(2).exponential_(lambd=3)", "torch.empty(3).exponential_(0.)", "torch.empty(3).exponential_(-1.)",
    "torch.empty(3, dtype=torch.long).exponential_()", "torch.empty(3).exponential_(generator=3)",
    "torch.empty(2).exponential_(generator=torch.Generator().manual_seed(5))",
    "torch.empty(2).exponential_('a')", "torch.empty(2).exponential_(1., 2.)", "torch.empty(2).exponential_(lambd='x')",
]))

snip("geometric_ log_normal_ cauchy_ arguments", "torch.manual_seed(3)\n" + show_all([
    "torch.empty(3).geometric_(p=0.5)", "torch.empty(2).geometric_(0.5, generator=torch.Generator().manual_seed(1))",
    "torch.empty(2).geometric_()", "torch.empty(2).geometric_(0.5, 1.)", "torch.empty(2).geometric_('a')",
    "torch.empty(2).geometric_(0.5, gen=1)", "torch.empty(2).log_normal_(0., 1., 3.)",
    "torch.empty(2).log_normal_(mean='x')", "torch.empty(2).log_normal_(std=0.5)",
    "torch.empty(2).log_normal_(generator=torch.Generator().manual_seed(2))", "torch.empty(2).cauchy_(1., 2., 3.)",
    "torch.empty(2).cauchy_(sigma=2.)", "torch.empty(2).cauchy_('m')", "torch.empty(2).cauchy_(median=1, generator=5)",
]))

snip("multinomial", "torch.manual_seed(2)\n" + show_all([
    "torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 1)", "torch.multinomial(torch.tensor([[0.2, 0.3, 0.5], [1, 0, 3]]), 2)",
    "torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 7, replacement=True)",
    "torch.multinomial(torch.rand(3, 50), 40, replacement=True)[:, -5:]",
    "torch.multinomial(torch.rand(3, 50, dtype=torch.float64), 40, True)[:, :5]",
    "torch.rand(200).multinomial(30)[-4:]", "torch.tensor([[1., 2.], [3., 4.]]).t().multinomial(3, replacement=True)",
    "torch.multinomial(torch.tensor([0., 1., 0.]), 3, replacement=True)", "torch.multinomial(torch.ones(0, 3), 2)",
    "torch.multinomial(torch.tensor([1., 2.]), 0)", "torch.multinomial(torch.tensor([1., 2.]), 3)",
    "torch.multinomial(torch.tensor([1, 2]), 1)", "torch.multinomial(torch.tensor([1., -2.]), 1)",
    "torch.multinomial(torch.tensor([1., -2.]), 2, True)", "torch.multinomial(torch.tensor([1., float('nan')]), 2, True)",
    "torch.multinomial(torch.tensor([1., float('inf')]), 2, True)", "torch.multinomial(torch.tensor([0., 0.]), 1)",
    "torch.multinomial(torch.tensor([0., 0.]), 2, True)", "torch.multinomial(torch.tensor([float('nan'), 1.]), 1)",
    "torch.multinomial(torch.tensor(1.), 1)", "torch.multinomial(torch.ones(2, 2, 2), 1)",
    "torch.multinomial(torch.ones(2), 1.5)", "torch.ones(2).multinomial(1, generator=torch.Generator().manual_seed(0))",
    "torch.ones(2, 3, requires_grad=True).multinomial(2)",
]))


@pytest.mark.parametrize("code", SNIPPETS)
def test_distributions_parity(code):
    compare(code)


def test_on_the_device(device):
    # the device draws from its own generator; shapes, dtypes, ranges and the no-replacement rule hold
    minitorch.manual_seed(0)
    p = minitorch.rand(4, 30, device=device)
    picked = minitorch.multinomial(p, 30)
    assert picked.device.type == device and picked.dtype == minitorch.int64
    assert all(sorted(row) == list(range(30)) for row in picked.tolist())
    assert minitorch.multinomial(p, 50, replacement=True).shape == (4, 50)
    e = minitorch.empty(1000, device=device).exponential_(2.0)
    assert e.device.type == device and bool((e >= 0).all()) and 0.4 < e.mean().item() < 0.6
    n = minitorch.normal(minitorch.full((1000,), 3.0, device=device), 0.1)
    assert n.device.type == device and 2.9 < n.mean().item() < 3.1
