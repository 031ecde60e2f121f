"""Fractional max pooling against torch 2.13 (F.fractional_max_pool2d/3d, their _with_indices forms,
nn.FractionalMaxPool2d/3d), printed by the same snippet under both: values and gradients bit for bit
(hex floats), indices, the random samples torch draws after manual_seed, node names, reprs and every
error. The `device` tests check the simulated (or real) GPU against the host's bits."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402
from test_nn_pooling_more import SHOW as POOLING_SHOW  # noqa: E402

import minitorch  # noqa: E402

F = minitorch.nn.functional
SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# the pooling tests' show/check/t, and check_pool: check's output with the indices' dtype and grad flag first
SHOW = POOLING_SHOW + """
def check_pool(fn, *inputs):
    out = fn(*inputs)
    print(out[1].dtype, out[1].requires_grad)
    check_pool(lambda *_: out, True, *inputs)
"""


snip("fractional_max_pool2d_values", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for shape, k, out in (((2, 3, 13, 11), 2, (5, 4)), ((2, 3, 13, 11), (3, 2), (7, 9)), ((3, 9, 10), 1, 8),
                          ((1, 2, 12, 12), (4, 3), (9, 10)), ((2, 1, 6, 7), 2, (5, 6)), ((2, 2, 5, 6), 3, 1)):
        x = (torch.randn(shape) * 3).to(dtype).requires_grad_()
        n = shape[0] if len(shape) == 4 else 1
        s = torch.rand(n + 1, shape[-3], 2).to(dtype)
        check_pool(lambda x: F.fractional_max_pool2d(x, k, out, return_indices=True, _random_samples=s), x)
        check_pool(lambda x: F.fractional_max_pool2d_with_indices(x.transpose(-1, -2), k, out, _random_samples=s), x)
# the samples torch draws itself: rand(N, C, 2) in the input's dtype, after the same seed
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    torch.manual_seed(3)
    x = torch.randn(2, 3, 40, 50, dtype=dtype, requires_grad=True)
    check_pool(lambda x: F.fractional_max_pool2d(x, 3, output_ratio=(0.5, 0.7), return_indices=True), x)
    check_pool(lambda x: F.fractional_max_pool2d(x[1], 2, output_size=(30, 33), return_indices=True), x)
    print(F.fractional_max_pool2d(x, (2, 3), output_ratio=[0.25, 0.5]).shape, torch.rand(1).item())
torch.manual_seed(1)
x = torch.randn(2, 3, 7, 8)
print(F.fractional_max_pool2d(x, 2, 4).tolist())
print(F.fractional_max_pool2d(x, 2, 4, None, False, torch.rand(2, 3, 2)).tolist())
""")

snip("fractional_max_pool3d_values", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for shape, k, out in (((2, 2, 9, 8, 10), (2, 3, 2), (5, 4, 6)), ((3, 7, 6, 9), 2, 4), ((1, 2, 5, 6, 7), 1, (4, 5, 6)),
                          ((2, 1, 6, 6, 6), (3, 1, 2), (3, 2, 4))):
        x = (torch.randn(shape) * 3).to(dtype).requires_grad_()
        n = shape[0] if len(shape) == 5 else 1
        s = torch.rand(n, shape[-4], 3).to(dtype)
        check_pool(lambda x: F.fractional_max_pool3d(x, k, out, return_indices=True, _random_samples=s), x)
        check_pool(lambda x: F.fractional_max_pool3d_with_indices(x.permute(*range(x.dim() - 3), -1, -3, -2), k, out,
                                                             _random_samples=s), x)
for dtype in (torch.float32, torch.float16):
    torch.manual_seed(3)
    x = torch.randn(2, 3, 20, 18, 16, dtype=dtype, requires_grad=True)
    check_pool(lambda x: F.fractional_max_pool3d(x, 2, output_ratio=0.5, return_indices=True), x)
    check_pool(lambda x: F.fractional_max_pool3d(x[0], (3, 2, 1), output_size=(12, 15, 13), return_indices=True), x)
    print(torch.rand(1).item())
""")

snip("fractional_max_pool_interval_rounding", SHOW + """
# window starts that the input's dtype decides: computed in float64 they would differ from torch's
for dtype, size, out, u in ((torch.float16, 2444, 1703, 0.0885009765625), (torch.bfloat16, 2323, 929, 0.490234375),
                            (torch.float32, 74487, 3025, 0.3488934636116028)):
    x = torch.zeros(1, 1, 2, size, dtype=dtype)
    samples = torch.tensor([[[u, 0.5]]], dtype=dtype)
    show(F.fractional_max_pool2d(x, (1, 2), (1, out), return_indices=True, _random_samples=samples)[1])
    # 3-D asks for room to spare in every dim: the same starts from one more column and a wider window
    show(F.fractional_max_pool3d(torch.zeros(1, 1, 2, 2, size + 1, dtype=dtype), (1, 1, 3), (1, 1, out),
                                 return_indices=True, _random_samples=torch.tensor([[[0.5, 0.5, u]]], dtype=dtype))[1])
""")

snip("fractional_max_pool_nan_inf_ties", SHOW + """
# ties go to a window's first maximum, a NaN to its last NaN, an all -inf window to its first element
x = torch.tensor([[[[1., 3., 3., 0.], [3., float('nan'), 2., float('nan')], [float('-inf')] * 4,
                    [float('-inf')] * 4, [5., 5., float('nan'), 1.]]]], requires_grad=True)
for s in ([0.1, 0.2], [0.9, 0.7], [0.5, 0.0]):
    check_pool(lambda x: F.fractional_max_pool2d(x, 2, (4, 3), return_indices=True,
                                            _random_samples=torch.tensor([[s]])), x)
    check_pool(lambda x: F.fractional_max_pool2d(x, (1, 2), (3, 2), return_indices=True,
                                            _random_samples=torch.tensor([[s]])), x)
y = x.detach().reshape(1, 1, 5, 2, 2).requires_grad_()
check_pool(lambda y: F.fractional_max_pool3d(y, (2, 1, 1), (3, 1, 1), return_indices=True,
                                        _random_samples=torch.tensor([[[0.3, 0.4, 0.5]]])), y)
""")

snip("fractional_max_pool_double_backward", SHOW + """
torch.manual_seed(0)
x = torch.randn(2, 3, 9, 8, dtype=torch.float64, requires_grad=True)
v = F.fractional_max_pool2d(x, 2, (5, 4), _random_samples=torch.rand(2, 3, 2, dtype=torch.float64))
g = torch.randn(v.shape, dtype=torch.float64, requires_grad=True)
(gx,) = torch.autograd.grad(v, x, g, create_graph=True)
print(type(gx.grad_fn).__name__)
(gg,) = torch.autograd.grad((gx * torch.arange(gx.numel(), dtype=gx.dtype).view(gx.shape)).sum(), g)
show(gg)
y = torch.randn(3, 6, 7, 8, dtype=torch.float64, requires_grad=True)
v = F.fractional_max_pool3d(y, 2, (4, 5, 3), _random_samples=torch.rand(1, 3, 3, dtype=torch.float64))
(gy,) = torch.autograd.grad(v.sum(), y, create_graph=True)
print(type(gy.grad_fn).__name__)
""")

snip("fractional_max_pool_modules", SHOW + """
torch.manual_seed(0)
m = nn.FractionalMaxPool2d(3, output_ratio=0.5, return_indices=True)
print(m, m.kernel_size, m.output_size, m.output_ratio, m.return_indices, m._random_samples, list(m.state_dict()))
x = torch.randn(2, 3, 12, 10, requires_grad=True)
check_pool(m, x)
m = nn.FractionalMaxPool2d((2, 3), output_size=4)
print(m, m.kernel_size, m.output_size, m.output_ratio, m.__constants__)
show(m(x))
s = torch.rand(1, 2, 3)
m = nn.FractionalMaxPool3d(2, (3, 4, 2), _random_samples=s)
print(m, m.kernel_size, m.output_size, m.output_ratio, list(m.state_dict()), list(m.buffers())[0] is s)
show(m(torch.randn(2, 6, 7, 5)))
m = nn.FractionalMaxPool3d((1, 2, 2), output_ratio=(0.5, 0.6, 0.7), return_indices=True)
print(m, m.kernel_size, m.output_size, m.output_ratio)
check_pool(m, torch.randn(1, 2, 6, 7, 5, requires_grad=True))
print(nn.Sequential(nn.FractionalMaxPool2d(2, 3), nn.FractionalMaxPool3d(1, output_ratio=0.5)))
t(lambda: nn.FractionalMaxPool2d(2))
t(lambda: nn.FractionalMaxPool2d(2, 3, 0.5))
t(lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5))
t(lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 1.0)))
t(lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.0)))
t(lambda: nn.FractionalMaxPool2d(0, 3))
t(lambda: nn.FractionalMaxPool3d(0, 3))
t(lambda: nn.FractionalMaxPool3d(-1, 3))
t(lambda: nn.FractionalMaxPool3d((2, 0, 1), 3))
t(lambda: nn.FractionalMaxPool3d([2, 1, -1], 3))
t(lambda: nn.FractionalMaxPool3d(2))
t(lambda: nn.FractionalMaxPool3d(2, 3, 0.5))
t(lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1)))
""")

snip("fractional_max_pool_errors", SHOW + """
torch.manual_seed(0)
x = torch.randn(2, 3, 7, 8)
s = torch.rand(2, 3, 2)
P = lambda x, k, o, s: F.fractional_max_pool2d(x, k, o, _random_samples=s, return_indices=True)
t(lambda: F.fractional_max_pool2d(x, 2))
t(lambda: F.fractional_max_pool2d(x, 2, output_ratio=0.5))
t(lambda: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5, 0.5)))
t(lambda: F.fractional_max_pool2d(x, 2, output_ratio=(1.5, 1.5)))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(7, 8), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 8), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, (2, 9), output_size=(3, 0), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7, 1), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, (2, 2, 2), output_size=(6, 7), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=s.double()))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=s[0]))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=s[:1]))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=torch.rand(3, 3, 2)))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=s[:, :2]))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 7), _random_samples=torch.rand(2, 3, 3)))
t(lambda: F.fractional_max_pool2d(x[0, 0], 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x[None], 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x[:0], 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x[:, :0], 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x[0, :0], 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x, 0, output_size=(3, 3), return_indices=True, _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, (-1, 2), output_size=(3, 3), return_indices=True, _random_samples=s))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(0, 3), return_indices=True))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=(-1, 3)))
t(lambda: F.fractional_max_pool2d(x[0], 2, output_size=(3, -2)))
t(lambda: F.fractional_max_pool2d(x.long(), 2, output_size=(3, 3), _random_samples=s.long()))
t(lambda: F.fractional_max_pool2d(x.long(), 2, output_size=(3, 3), _random_samples=s))
t(lambda: F.fractional_max_pool2d(x.long(), 2, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x, 2.5, output_size=(3, 3)))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=3.0))
t(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=[1.0]))
t(lambda: F.fractional_max_pool2d("a", 2, output_size=3))
t(lambda: F.fractional_max_pool2d("a", 2, output_ratio=(0.5, 0.5)))
t(lambda: P(x[None], [2, 2], [7, 3], s.double()))
t(lambda: P(x, [2, 2], [7, 3], s[0]))
t(lambda: P(x[:, :0], [2, 2], [7, 3], s[0]))
t(lambda: P(x.long(), [2, 2], [7, 3], s.long()))
t(lambda: P(x, [2, 2], [-1, 3], s[0]))
t(lambda: P(x, [2, 2], [3, 3], s.expand(2, 3, 2).contiguous()[:, :, :1].expand(2, 3, 2)))
y = torch.randn(2, 3, 5, 6, 7)
s3 = torch.rand(2, 3, 3)
Q = lambda x, k, o, s: F.fractional_max_pool3d(x, k, o, _random_samples=s, return_indices=True)
t(lambda: F.fractional_max_pool3d(y, 2))
t(lambda: F.fractional_max_pool3d(y, 2, output_ratio=(0.5, 0.5)))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(4, 5, 6), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 5, 6), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 4, 6), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 5, 5), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(4, 5), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, (2, 2), output_size=(3, 4, 5), _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 4, 5), _random_samples=s))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 4, 5), _random_samples=s3.double()))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 4, 5), _random_samples=s3[:1]))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(3, 4, 5), _random_samples=s3[:, :1]))
t(lambda: F.fractional_max_pool3d(y[0, 0], 2, output_size=(3, 3, 3)))
t(lambda: F.fractional_max_pool3d(y[None], 2, output_size=(3, 3, 3)))
t(lambda: F.fractional_max_pool3d(y[:0], 2, output_size=(3, 3, 3)))
t(lambda: F.fractional_max_pool3d(y[:, :, :0], 2, output_size=(3, 3, 3)))
t(lambda: F.fractional_max_pool3d(y, 0, output_size=(3, 3, 3), return_indices=True, _random_samples=s3))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(0, 3, 3)))
t(lambda: F.fractional_max_pool3d(y, 2, output_size=(-1, 3, 3)))
t(lambda: F.fractional_max_pool3d(y.long(), 2, output_size=(3, 3, 3), _random_samples=s3.long()))
t(lambda: F.fractional_max_pool3d(y.int(), 2, output_size=(3, 3, 3)))
t(lambda: Q(y, [2, 2, 2], [4, 3, 3], s3.double()))
t(lambda: Q(y[:, :0], [2, 2, 2], [3, 3, 3], s3.double()))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_fractional_max_pool_parity(code):
    compare(code)


def test_fractional_max_pool_on_device(device):
    """The host's values, indices and gradients on every device, bit for bit."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 9, 10)
    x[0, 0, 1, 2] = float("nan")
    y = minitorch.randn(2, 2, 6, 7, 5)
    cases = [(x, lambda x, s: F.fractional_max_pool2d(x, (2, 3), (6, 5), True, _random_samples=s), 2),
             (x[0], lambda x, s: F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5), return_indices=True,
                                                         _random_samples=s), 2),
             (y, lambda y, s: F.fractional_max_pool3d(y, 2, (4, 5, 3), return_indices=True, _random_samples=s), 3)]
    for t, fn, dims in cases:
        for dtype in (minitorch.float32, minitorch.float16):
            samples = minitorch.rand(2, t.shape[-dims - 1], dims).to(dtype)
            results = []
            for d in ("cpu", device):
                td = t.detach().to(d, dtype).requires_grad_()
                values, indices = fn(td, samples.to(d))
                values.backward(minitorch.ones_like(values) * 0.5 + values.detach().nan_to_num())
                assert values.device.type == d and indices.device.type == d
                results.append([values.detach().cpu(), indices.cpu(), td.grad.cpu()])
            for a, b in zip(*results):
                assert a.equal(b) or (a.isnan().equal(b.isnan()) and a.nan_to_num().equal(b.nan_to_num()))
    # the samples drawn on the device: rand on that device, after the same seed
    minitorch.manual_seed(7)
    indices = F.fractional_max_pool2d(x.to(device), 2, output_size=4, return_indices=True)[1]
    minitorch.manual_seed(7)
    samples = minitorch.rand(2, 3, 2, device=device)
    assert indices.cpu().equal(F.fractional_max_pool2d(x, 2, 4, None, True, samples.cpu())[1])


@pytest.mark.parametrize("dims", [2, 3])
def test_gradcheck(device, dims):
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 6, 7, 5, dtype=minitorch.float64)[..., 0] if dims == 2 else \
        minitorch.randn(2, 3, 6, 7, 5, dtype=minitorch.float64)
    x = x.to(device).requires_grad_()
    samples = minitorch.rand(2, 3, dims, dtype=minitorch.float64, device=device)
    fn = F.fractional_max_pool2d if dims == 2 else F.fractional_max_pool3d
    assert minitorch.autograd.gradcheck(lambda x: fn(x, 2, 3, _random_samples=samples) * 2, (x,))
