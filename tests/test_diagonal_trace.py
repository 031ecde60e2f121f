"""torch.diagonal (a view: DiagonalBackward0, and DiagonalBackwardBackward0 under create_graph) and
torch.trace (TraceBackward0), against torch: values, shapes, strides, storage offsets, errors, gradients."""

import os
import sys

import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402


def test_diagonal_views_and_errors():
    compare("""
torch.manual_seed(0)
x = torch.randn(2, 3, 4)
for args in [(), (1,), (-1,), (2, 1, 2), (-2, 2, 0), (0, -1, -3), (5,), (-7,), (2 ** 62,), (-2 ** 63,), (1, 0, 2)]:
    d = x.diagonal(*args)
    print(args, tuple(d.shape), d.stride(), d.storage_offset(), d._base is x, d.tolist())
print(torch.diagonal(x, offset=1, dim1=2, dim2=0).tolist())
print(torch.diagonal(x.transpose(0, 2), 1).tolist())
print(torch.ones(0, 3).diagonal().shape, torch.ones(3, 0).diagonal(-1).shape)
e = torch.arange(9.).reshape(3, 3)
e.diagonal().fill_(-1.0)
print(e)
e.diagonal(1).mul_(10)
print(e)
torch.diagonal(x, 0, 0, 0)
torch.diagonal(x, 0, 0, -3)
torch.diagonal(x, 0, 0, 3)
torch.diagonal(x, 0, -4, 1)
torch.ones(3).diagonal()
torch.tensor(1.).diagonal()
torch.diagonal(x, 1.5)
torch.diagonal(x, dim3=1)
""")


def test_diagonal_and_trace_gradients():
    compare("""
torch.manual_seed(1)
x = torch.randn(3, 4, requires_grad=True)
d = x.diagonal(1)
print(d.grad_fn.name(), d.grad_fn.next_functions[0][0].name())
(d * torch.arange(3.)).sum().backward()
print(x.grad)
x.grad = None
g, = torch.autograd.grad((x.diagonal(-1) ** 2).sum(), x, create_graph=True)
print(g.grad_fn.name(), g)
g.sum().backward()
print(x.grad)
t = x.trace()
print(t, t.grad_fn.name(), t.grad_fn.next_functions[0][0].name())
x.grad = None
(t * 3).backward()
print(x.grad)
y = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.trace, (y,)), torch.autograd.gradcheck(lambda a: a.diagonal(-1), (y,)))
""")


def test_trace_values_dtypes_and_errors():
    compare("""
torch.manual_seed(2)
for dtype in [torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.uint8]:
    m = (torch.randn(37, 41) * 100).to(dtype)
    r = torch.trace(m)
    print(dtype, r.dtype, r.item(), m.t().trace().item(), m[::2, 1::3].trace().item())
print(torch.trace(torch.ones(0, 3)), torch.trace(torch.ones(0, 3, dtype=torch.int32)))
torch.trace(torch.ones(3))
torch.trace(torch.ones(2, 2, 2))
torch.trace(torch.ones(2, 2, dtype=torch.bool))
torch.trace(torch.ones(2, 2), 1)
""")


def test_on_the_devices(device):
    x = mt.arange(24.0, device=device).reshape(2, 3, 4)
    d = x.diagonal(1, 1, 2)
    assert d.device == x.device and d.tolist() == x.cpu().diagonal(1, 1, 2).tolist()
    assert d.stride() == (12, 5) and d.storage_offset() == 1
    d.zero_()
    assert x[0, 0, 1].item() == 0.0 and x[1, 2, 3].item() == 0.0
    m = mt.arange(12.0, device=device).reshape(3, 4).requires_grad_()
    t = m.trace()
    assert t.item() == 15.0 and t.device == m.device
    t.backward()
    assert m.grad.tolist() == [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]]


@pytest.mark.parametrize("args", [(0, 0, 1), (3, 1, 0), (-2, 0, 1)])
def test_diagonal_matches_numpy(args):
    np = pytest.importorskip("numpy")
    a = np.arange(60.0).reshape(3, 4, 5)
    want = np.diagonal(a, *args)
    got = mt.from_numpy(a).diagonal(*args)
    assert got.tolist() == want.tolist()
