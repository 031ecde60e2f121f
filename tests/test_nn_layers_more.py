"""More layers against torch 2.13: Bilinear (F.bilinear) and EmbeddingBag (F.embedding_bag), printed by
the same snippet under both: initialisation bit for bit after manual_seed, reprs, node names, errors;
values and gradients within a relative 1e-5 where torch sums in another order (its GEMMs), bit for bit
(hex floats) where the order is torch's. The `device` tests check the simulated (or real) GPU against the
host."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare_close  # noqa: E402

import minitorch  # noqa: E402

F = minitorch.nn.functional
SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


SHOW = """
import torch.nn as nn
import torch.nn.functional as F
def show(t, exact=True):
    values = t.detach().flatten().tolist()
    print([float(v).hex() for v in values] if exact and t.dtype.is_floating_point else values)

def chain(t):
    names, f = [], t.grad_fn
    while f is not None:
        names.append(type(f).__name__)
        f = f.next_functions[0][0] if f.next_functions else None
    return names

def t(f):
    try:
        r = f()
        print(r if not isinstance(r, torch.Tensor) else (r.dtype, tuple(r.shape), r.tolist()))
    except Exception as e:
        print(type(e).__name__, e)
"""


# ---- Bilinear ------------------------------------------------------------------------------------------

snip("bilinear", SHOW + """
torch.manual_seed(0)
m = nn.Bilinear(3, 4, 5)
print(m, nn.Bilinear(2, 3, 1, bias=False), nn.Bilinear(2, 3, 1, bias=False).bias)
show(m.weight)
show(m.bias)
print(nn.Bilinear(2, 2, 2, dtype=torch.float64).weight.dtype, [n for n, _ in m.named_parameters()])
for dtype in (torch.float32, torch.float64):
    m = nn.Bilinear(3, 4, 5, dtype=dtype)
    for shape in ((6,), (2, 3), ()):
        a = torch.randn(shape + (3,), dtype=dtype, requires_grad=True)
        b = torch.randn(shape + (4,), dtype=dtype, requires_grad=True)
        y = m(a, b)
        print(chain(y), [type(f).__name__ for f, _ in y.grad_fn.next_functions], y.dtype, tuple(y.shape))
        show(y, False)
        y.backward(torch.randn(y.shape, dtype=dtype))
        show(a.grad, False)
        show(b.grad, False)
        show(m.weight.grad, False)
        show(m.bias.grad, False)
        m.zero_grad()
y = F.bilinear(torch.randn(2, 3, requires_grad=True), torch.randn(2, 4), torch.randn(5, 3, 4))
print(chain(y))
show(F.bilinear(torch.zeros(0, 3), torch.zeros(0, 4), m.weight.float(), m.bias.float()))
print(F.bilinear(torch.arange(6).view(2, 3), torch.arange(8).view(2, 4), torch.arange(60).view(5, 3, 4)).tolist())
w = torch.randn(5, 3, 4)
a, b = torch.randn(6, 3), torch.randn(6, 4)
t(lambda: F.bilinear(a, b[0], w))
t(lambda: F.bilinear(a, b[:5], w))
t(lambda: F.bilinear(a, b[:, :3], w))
t(lambda: F.bilinear(a[:, :2], b, w))
t(lambda: F.bilinear(a, b, w, torch.randn(2)))
t(lambda: F.bilinear(a, b, w, torch.randn(1, 5)))
t(lambda: F.bilinear(a, b, w[0]))
t(lambda: F.bilinear(a.double(), b, w))
t(lambda: F.bilinear(a.double(), b[:2], w))
t(lambda: F.bilinear(a, b, w, torch.randn(5).double()))
t(lambda: F.bilinear(a, b, w, torch.randn(5).long()))
t(lambda: F.bilinear(a.bool(), b.bool(), w.bool()))
t(lambda: F.bilinear(a[0, 0], b[0, 0], w))
t(lambda: F.bilinear(a, b, w, 3))
t(lambda: F.bilinear([1], b, w))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_nn_layers_more_parity(code):
    # a snippet that prints hex floats compares them exactly (no decimal number appears in them)
    compare_close(code, rtol=1e-5, atol=1e-6)


def test_bilinear_on_device(device):
    """The host's values and gradients on every device (to float rounding: the GEMMs)."""
    minitorch.manual_seed(0)
    m = minitorch.nn.Bilinear(3, 4, 5, dtype=minitorch.float64)
    a, b = minitorch.randn(2, 6, 3, dtype=minitorch.float64), minitorch.randn(2, 6, 4, dtype=minitorch.float64)
    results = []
    for d in ("cpu", device):
        m.to(d)
        ad, bd = a.detach().to(d).requires_grad_(), b.detach().to(d).requires_grad_()
        y = m(ad, bd)
        y.sum().backward()
        assert y.device.type == d
        results.append([y.detach().cpu(), ad.grad.cpu(), bd.grad.cpu(), m.weight.grad.cpu(), m.bias.grad.cpu()])
        m.zero_grad()
    for x, y in zip(*results):
        assert minitorch.allclose(x, y, rtol=1e-12, atol=1e-12)
    assert minitorch.autograd.gradcheck(lambda a, b, w: F.bilinear(a, b, w), (
        a[0].to(device).requires_grad_(), b[0].to(device).requires_grad_(),
        m.weight.detach().to(device).requires_grad_()))
