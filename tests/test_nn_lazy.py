"""The lazy layers (LazyLinear, LazyConv1d/2d/3d, LazyBatchNorm1d/2d/3d with UninitializedParameter and
UninitializedBuffer), nn.Buffer, BatchNorm3d and F.max_pool1d/2d/3d_with_indices against torch 2.13, printed by
the same snippet under both: reprs before and after the first forward, the weights drawn after manual_seed,
the errors, and the state each module registers."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

nn = minitorch.nn
SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


SHOW = """
import torch.nn as nn
import torch.nn.functional as F
def t(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
"""

snip("lazy_linear", SHOW + """
torch.manual_seed(0)
l = nn.LazyLinear(4)
print(l, l.weight, l.bias, type(l.weight).__name__, isinstance(l.weight, nn.Parameter), l.weight.requires_grad)
t(lambda: l.weight.shape)
print([n for n, _ in l.named_parameters()], l.has_uninitialized_params())
y = l(torch.randn(2, 3))
print(l, type(l).__name__, type(l.weight).__name__, l.has_uninitialized_params() if hasattr(l, 'has_uninitialized_params') else None)
print(l.weight, l.bias, y)
print(y.grad_fn.name())
print(nn.UninitializedParameter(), nn.UninitializedBuffer(), nn.UninitializedParameter().requires_grad,
      nn.UninitializedBuffer().requires_grad)
l2 = nn.LazyLinear(3, bias=False, dtype=torch.float64)
l2(torch.randn(5, 2, dtype=torch.float64))
print(l2, l2.weight, l2.bias)
l3 = nn.LazyLinear(2)
print(l3(torch.randn(4, 2, 5)).shape, l3.weight.shape)
print(l3(torch.randn(3, 5)).shape)
t(lambda: l3(torch.randn(3, 4)))
""")

snip("lazy_conv", SHOW + """
torch.manual_seed(0)
for cls, shape in ((nn.LazyConv1d, (2, 3, 9)), (nn.LazyConv2d, (1, 2, 5, 5)), (nn.LazyConv3d, (1, 2, 4, 5, 5)),
                   (nn.LazyConv2d, (2, 5, 5)), (nn.LazyConv1d, (3, 7))):
    c = cls(4, 3, padding=1)
    print(c, type(c.weight).__name__)
    out = c(torch.randn(shape))
    print(c, tuple(out.shape), type(c).__name__)
    print(c.weight.flatten()[:6], c.bias)
c = nn.LazyConv2d(4, 2, groups=2, bias=False, stride=2, padding_mode='reflect', padding=1)
print(c, c.bias)
t(lambda: c(torch.randn(1, 3, 4, 4)))
print(c(torch.randn(1, 4, 4, 4)).shape, c)
t(lambda: nn.LazyConv2d(4, 2)(torch.randn(3, 4)))
t(lambda: nn.LazyConv1d(4, 2)(torch.randn(3, 4, 5, 6)))
t(lambda: nn.LazyConv2d(3, 2, groups=2))
""")

snip("lazy_batch_norm", SHOW + """
torch.manual_seed(0)
for cls, shape in ((nn.LazyBatchNorm1d, (4, 3)), (nn.LazyBatchNorm1d, (4, 3, 5)), (nn.LazyBatchNorm2d, (2, 3, 4, 4)),
                   (nn.LazyBatchNorm3d, (2, 3, 2, 2, 2))):
    b = cls(momentum=0.2)
    print(b, b.weight, b.running_mean, b.running_var, b.num_batches_tracked)
    out = b(torch.randn(shape))
    print(b, type(b).__name__, b.running_mean, b.running_var, b.num_batches_tracked, b.weight, b.bias)
    print(sorted(b.state_dict().keys()), out.sum())
print(nn.LazyBatchNorm1d(affine=False, track_running_stats=False))
b = nn.LazyBatchNorm2d(affine=False)
b(torch.randn(2, 3, 2, 2))
print(b, b.weight, b.running_mean)
b = nn.LazyBatchNorm1d(track_running_stats=False)
b(torch.randn(2, 3))
print(b, b.running_mean, list(b.state_dict()))
b = nn.LazyBatchNorm1d(bias=False)
print(b.bias, type(b.weight).__name__, list(b.state_dict()))
b(torch.randn(4, 3))
print(b, b.bias, b.weight, type(b).__name__, [n for n, _ in b.named_parameters()])
print(nn.LazyBatchNorm3d(affine=False, bias=False).bias, nn.BatchNorm2d(3, bias=False))
t(lambda: nn.LazyBatchNorm2d()(torch.randn(2, 3)))
t(lambda: nn.LazyBatchNorm3d()(torch.randn(2, 3, 4, 4)))
""")

snip("batch_norm_3d", SHOW + """
torch.manual_seed(0)
bn = nn.BatchNorm3d(3)
print(bn, [n for n, _ in bn.named_buffers()])
x = torch.randn(2, 3, 2, 3, 2, requires_grad=True)
y = bn(x)
print(y.grad_fn.name(), [float(v).hex() for v in y.flatten().tolist()[:8]], bn.running_mean, bn.running_var)
y.sum().backward()
print(x.grad.flatten()[:5])
bn.eval()
print(bn(x).flatten()[:5])
t(lambda: bn(torch.randn(2, 3, 4)))
print(nn.BatchNorm3d(4, eps=1e-3, momentum=None, affine=False))
""")

snip("buffer", SHOW + """
b = nn.Buffer(torch.ones(2), persistent=False)
print(type(b).__name__, b, b.persistent, isinstance(b, nn.Buffer), isinstance(torch.ones(1), nn.Buffer))
m = nn.Module()
m.b = b
m.c = nn.Buffer(torch.zeros(3))
print(m.state_dict(), [n for n, _ in m.named_buffers()], list(m.parameters()))
m.c = torch.ones(3)
print(m.state_dict())
m.b = nn.Buffer(torch.ones(1))
print(list(m.state_dict()))
m.b = torch.zeros(1)
print(list(m.state_dict()))
print(nn.Buffer(), repr(nn.Buffer(torch.ones(2, requires_grad=True))))
t(lambda: nn.Buffer([1]))
class M(nn.Module):
    def __init__(self):
        self.x = nn.Buffer(torch.ones(1))
t(lambda: M())
m.p = nn.Parameter(torch.ones(1))
def assign_param():
    m.p = nn.Buffer(torch.ones(1))
t(assign_param)
m.z = 5
def assign_attribute():
    m.z = nn.Buffer(torch.ones(1))
t(assign_attribute)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Buffer(torch.tensor([2.0]))
        self.lin = nn.Linear(2, 2)
    def forward(self, x):
        return self.lin(x) * self.scale
print(Net().state_dict().keys(), Net().to(torch.float64).scale.dtype)
""")

snip("max_pool_with_indices", SHOW + """
torch.manual_seed(0)
x = torch.randn(1, 2, 9)
print(F.max_pool1d_with_indices(x, 2))
print(F.max_pool1d_with_indices(x[0], 3, 2, 1, ceil_mode=True))
print(F.max_pool2d_with_indices(torch.randn(1, 2, 4, 5), 2, 1))
print(F.max_pool3d_with_indices(torch.randn(1, 1, 2, 4, 5), (1, 2, 2)))
print(F.max_pool2d_with_indices(torch.randn(1, 4, 5), 2, return_indices=False)[1])
t(lambda: F.max_pool1d_with_indices(torch.randn(2), 2))
t(lambda: F.max_pool1d_with_indices(torch.randn(1, 2, 3), 2, padding=2))
t(lambda: F.max_pool1d_with_indices(torch.randn(1, 2, 3), 0))
t(lambda: F.max_pool2d_with_indices(torch.randn(1, 2, 3), 5))
t(lambda: F.max_pool1d_with_indices(torch.randn(1, 2, 3).mul(5).int(), 2))
t(lambda: F.max_pool1d_with_indices(torch.randn(1, 2, 3), 2.5))
x = torch.randn(1, 2, 7, requires_grad=True)
v, i = F.max_pool1d_with_indices(x, 3)
v.sum().backward()
print(v.grad_fn.name(), x.grad)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_lazy_and_buffer_parity(code):
    compare(code)


def test_lazy_on_device(device):
    """A lazy layer built for a device materialises its parameters there, with the CPU's values after the same
    seed for the CPU-drawn ones."""
    for cls, shape in ((nn.LazyLinear, (2, 3)), (nn.LazyConv2d, (1, 2, 5, 5))):
        args = (4,) if cls is nn.LazyLinear else (4, 3)
        minitorch.manual_seed(0)
        layer = cls(*args, device=device)
        out = layer(minitorch.randn(shape, device=device))
        assert layer.weight.device.type == device and out.device.type == device
        assert type(layer).__name__ == cls.__name__[4:]
    b = nn.LazyBatchNorm2d(device=device)
    b(minitorch.randn(2, 3, 4, 4, device=device))
    assert b.running_mean.device.type == device and b.weight.shape == (3,)
    assert b.num_batches_tracked.device.type == device
