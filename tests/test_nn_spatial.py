"""Spatial transformers against torch 2.13: F.affine_grid and F.grid_sample (every mode, padding mode and
align_corners, 4-D and 5-D, float32/float64/float16/bfloat16, dense and strided grids), printed by the same
snippet under both: values and the gradients of input, grid and theta bit for bit (hex floats), node names,
every error message and the align_corners warnings. The `device` tests check the simulated (or real) GPU
against the host's bits."""

import os
import sys
import textwrap
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close, import_torch  # noqa: E402

import minitorch  # noqa: E402

F = minitorch.nn.functional
SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


SHOW = """
import torch.nn.functional as F
def h(t):
    print(type(t.grad_fn).__name__ if t.grad_fn is not None else None, t.dtype, tuple(t.shape))
    print([float(v).hex() for v in t.detach().flatten().tolist()])

def sample(x, g, input_grad=True, **kw):
    x = x.detach().requires_grad_()
    g = g.detach().requires_grad_()
    out = F.grid_sample(x, g, **kw)
    h(out)
    torch.manual_seed(5)
    out.backward(torch.randn(out.shape).to(out.dtype))
    if input_grad:
        h(x.grad)
    h(g.grad)

def t(f):
    try:
        r = f()
        print(r.dtype, tuple(r.shape), type(r.grad_fn).__name__)
    except Exception as e:
        print(type(e).__name__, e)
"""

snip("grid_sample_2d", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    for mode in ('bilinear', 'nearest', 'bicubic'):
        for pad in ('zeros', 'border', 'reflection'):
            for ac in (False, True):
                print(dtype, mode, pad, ac)
                x = torch.randn(2, 3, 5, 7, dtype=dtype)
                g = torch.rand(2, 6, 9, 2, dtype=dtype) * 2.6 - 1.3
                sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)
""")

snip("grid_sample_2d_sizes", SHOW + """
torch.manual_seed(1)
# one-pixel inputs (reflection's empty span), many outputs reading the same pixels, far-away coordinates
for shape, gshape, scale in (((1, 2, 1, 1), (1, 3, 4, 2), 3.0), ((2, 1, 1, 6), (2, 5, 3, 2), 2.0),
                              ((1, 4, 3, 2), (1, 17, 13, 2), 1.1), ((3, 2, 4, 4), (3, 2, 2, 2), 40.0)):
    for mode in ('bilinear', 'nearest', 'bicubic'):
        for pad in ('zeros', 'border', 'reflection'):
            for ac in (False, True):
                x = torch.randn(shape)
                g = (torch.rand(gshape) * 2 - 1) * scale
                sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)
""")

snip("grid_sample_strided", SHOW + """
torch.manual_seed(2)
x = torch.randn(2, 3, 6, 5)
base = torch.rand(2, 2, 9, 11) * 2.4 - 1.2
for grid in (base.permute(0, 2, 3, 1), base.permute(0, 3, 2, 1)[:, ::2], (torch.rand(2, 11, 9, 2) * 2 - 1).transpose(1, 2),
             torch.rand(2, 9, 1, 4)[..., 1:3]):
    for mode in ('bilinear', 'nearest'):
        for pad in ('zeros', 'border', 'reflection'):
            sample(x.transpose(2, 3), grid, mode=mode, padding_mode=pad, align_corners=False)
""")

snip("grid_sample_half", SHOW + """
torch.manual_seed(3)
for dtype in (torch.float16, torch.bfloat16):
    for mode in ('bilinear', 'nearest', 'bicubic'):
        for pad in ('zeros', 'border', 'reflection'):
            x = torch.randn(2, 2, 4, 5).to(dtype)
            g = (torch.rand(2, 3, 4, 2) * 2.4 - 1.2).to(dtype)
            sample(x, g, input_grad=False, mode=mode, padding_mode=pad, align_corners=pad == 'border')
""")

snip("grid_sample_3d", SHOW + """
torch.manual_seed(4)
for dtype in (torch.float32, torch.float64):
    for mode in ('bilinear', 'nearest'):
        for pad in ('zeros', 'border', 'reflection'):
            for ac in (False, True):
                x = torch.randn(2, 3, 4, 5, 3, dtype=dtype)
                g = torch.rand(2, 3, 4, 5, 3, dtype=dtype) * 2.6 - 1.3
                sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)
x = torch.randn(1, 2, 1, 1, 3)
sample(x, torch.rand(1, 2, 2, 2, 3) * 4 - 2, padding_mode='reflection', align_corners=True)
""")

snip("affine_grid", SHOW + """
torch.manual_seed(5)
for ac in (False, True):
    for size in ((2, 3, 5, 7), (2, 1, 4, 6, 3), (2, 3, 1, 4), (2, 3, 1, 1), [2, 1, 3, 2, 2], torch.Size([2, 1, 6, 6])):
        theta = torch.randn(2, len(size) - 2, len(size) - 1, requires_grad=True)
        grid = F.affine_grid(theta, size, align_corners=ac)
        h(grid)
        grid.backward(torch.randn(grid.shape))
        h(theta.grad)
for dtype in (torch.float64, torch.float16, torch.bfloat16):
    h(F.affine_grid(torch.randn(1, 2, 3).to(dtype), (1, 1, 3, 4), align_corners=False))
""")

snip("spatial_transformer", SHOW + """
import torch.nn as nn
# the spatial transformer of PyTorch's tutorial, scaled down: a localisation net predicts theta
torch.manual_seed(0)
loc = nn.Sequential(nn.Conv2d(1, 4, kernel_size=5), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
fc = nn.Sequential(nn.Linear(4 * 4 * 4, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
fc[2].weight.data.zero_()
fc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
x = torch.randn(3, 1, 12, 12)
xs = loc(x).view(-1, 4 * 4 * 4)
theta = fc(xs).view(-1, 2, 3) + 0.1 * torch.randn(3, 2, 3)
grid = F.affine_grid(theta, x.size(), align_corners=False)
out = F.grid_sample(x, grid, align_corners=False)
h(grid)
h(out)
out.sum().backward()
h(fc[2].bias.grad)
h(loc[0].weight.grad)
""")

snip("errors", SHOW + """
x = torch.randn(2, 3, 4, 5)
g = torch.rand(2, 6, 7, 2) * 2 - 1
t(lambda: F.grid_sample(x, g, align_corners=False))
t(lambda: F.grid_sample(x, g[:1], align_corners=False))
t(lambda: F.grid_sample(x, g[..., :1], align_corners=False))
t(lambda: F.grid_sample(x[0], g[0], align_corners=False))
t(lambda: F.grid_sample(x, g.double(), align_corners=False))
t(lambda: F.grid_sample(x.int(), g.int(), align_corners=False))
t(lambda: F.grid_sample(x.int(), g, align_corners=False))
t(lambda: F.grid_sample(x, g.int(), align_corners=False))
t(lambda: F.grid_sample(x.unsqueeze(2).int(), g.unsqueeze(1).expand(2, 2, 6, 7, 2)[..., :1].expand(2, 2, 6, 7, 3), align_corners=False))
t(lambda: F.grid_sample(x[:, :, :0], g, align_corners=False))
t(lambda: F.grid_sample(x, g.unsqueeze(1), align_corners=False))
t(lambda: F.grid_sample(x.unsqueeze(2), torch.rand(2, 3, 3, 3, 3), mode='bicubic', align_corners=False))
t(lambda: F.grid_sample(x.unsqueeze(2), torch.rand(1, 3, 3, 3, 3), mode='bicubic', align_corners=False))
t(lambda: F.grid_sample(x, g, mode='foo'))
t(lambda: F.grid_sample(x, g, padding_mode='foo'))
t(lambda: F.grid_sample(x, g, mode='foo', padding_mode='bar'))
t(lambda: F.grid_sample(x, [1]))
t(lambda: F.grid_sample(x, g, align_corners=1))
t(lambda: F.grid_sample(x[:0], g[:0], align_corners=False))
t(lambda: F.grid_sample(x, g[:, :0], align_corners=False))
t(lambda: F.grid_sample(torch.randn(2, 0, 4, 5), g, align_corners=False))
t(lambda: F.grid_sample(x[:, :, 0], g[:, 0, :, :1], align_corners=False))
t(lambda: F.grid_sample(x[:, :, 0], g[:, 0], align_corners=False))
t(lambda: F.grid_sample(torch.randn(2, 3, 4, 5, 6, 7), torch.rand(2, 1, 1, 1, 1, 4), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3), (3, 3, 4, 5), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3), (2, 3, 0, 5), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3), (2, 3, 0, 5), align_corners=True))
t(lambda: F.affine_grid(torch.randn(2, 3, 3), (2, 3, 4, 5), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 3, 3), [2, 3, 4, 5], align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3), (2, 3, 4, 5, 6), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 3, 4), (2, 3, 4, 5, 6, 7), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 3, 4), (2, 3), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3).int(), (2, 3, 4, 5), align_corners=False))
t(lambda: F.affine_grid(torch.randn(2, 2, 3), torch.Size([2, 3, 4, 5])))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_spatial_parity(code):
    compare(code)


def test_affine_grid_5d_float64():
    """torch's 5-D float64 theta gradient is a bmm whose double sums minitorch adds in another order: within
    an ulp or two."""
    compare_close("""
import torch.nn.functional as F
torch.manual_seed(6)
for ac in (False, True):
    theta = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    grid = F.affine_grid(theta, (2, 1, 4, 6, 3), align_corners=ac)
    print(grid.tolist())
    grid.backward(torch.randn(grid.shape, dtype=torch.float64))
    print(theta.grad.tolist())
""", rtol=1e-14, atol=1e-14)


def test_half_input_gradients():
    """float16 and bfloat16 input gradients: torch adds them up in a way minitorch does not repeat yet (an ulp
    of the dtype apart where several outputs read one pixel)."""
    compare_close("""
import torch.nn.functional as F
torch.manual_seed(3)
for dtype in (torch.float16, torch.bfloat16):
    for mode in ('bilinear', 'nearest', 'bicubic'):
        for pad in ('zeros', 'border', 'reflection'):
            x = torch.randn(2, 2, 4, 5).to(dtype).requires_grad_()
            g = (torch.rand(2, 3, 4, 2) * 2.4 - 1.2).to(dtype)
            out = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=pad == 'border')
            out.backward(torch.randn(out.shape).to(dtype))
            print(x.grad.float().tolist())
""", rtol=2e-2, atol=2e-2)


def test_bicubic_strided_grid():
    """Bicubic sampling through a grid that is not dense: torch's compiler fuses that copy of the kernel's sums
    differently, so values are within a few ulps there (bit for bit for dense grids, as affine_grid makes)."""
    compare_close("""
import torch.nn.functional as F
torch.manual_seed(2)
x = torch.randn(2, 3, 6, 5, requires_grad=True)
for pad in ('zeros', 'border', 'reflection'):
    grid = (torch.rand(2, 2, 9, 11) * 2.4 - 1.2).permute(0, 2, 3, 1).requires_grad_()
    out = F.grid_sample(x, grid, mode='bicubic', padding_mode=pad, align_corners=False)
    print(out.tolist())
    out.backward(torch.randn(out.shape))
    print(x.grad.tolist(), grid.grad.tolist())
    x.grad = None
""", rtol=1e-5, atol=1e-6)


def _warnings(module, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(module)
    return [(w.category.__name__, str(w.message), os.path.basename(w.filename)) for w in caught]


def _warning_calls(torch):
    x, g = torch.randn(1, 1, 3, 3), torch.rand(1, 2, 2, 2)
    torch.nn.functional.grid_sample(x, g)
    torch.nn.functional.affine_grid(torch.randn(1, 2, 3), (1, 1, 3, 3))
    torch.nn.functional.affine_grid(torch.randn(1, 2, 3), (1, 1, 1, 3), align_corners=True)
    torch.nn.functional.grid_sample(x, g, align_corners=True)


def test_align_corners_warnings():
    """torch's warnings (the align_corners default, unit-size grids), attributed to the caller's line."""
    got = _warnings(minitorch, _warning_calls)
    assert [w[0] for w in got] == ["UserWarning"] * 3
    assert all(w[2] == "test_nn_spatial.py" for w in got)
    torch = import_torch()
    if torch is not None:
        assert got == _warnings(torch, _warning_calls)


def test_grid_sample_on_device(device):
    """The host's values and gradients on every device, bit for bit."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 5, 6)
    grid = minitorch.rand(2, 4, 7, 2) * 2.4 - 1.2
    x3, grid3 = minitorch.randn(2, 2, 3, 4, 5), minitorch.rand(2, 2, 3, 4, 3) * 2.4 - 1.2
    theta = minitorch.randn(2, 2, 3)
    cases = [(x, grid, mode, pad) for mode in ("bilinear", "nearest", "bicubic") for pad in ("zeros", "reflection")]
    cases += [(x3, grid3, mode, "border") for mode in ("bilinear", "nearest")]
    for inp, g, mode, pad in cases:
        results = []
        for d in ("cpu", device):
            xd, gd = inp.detach().to(d).requires_grad_(), g.detach().to(d).requires_grad_()
            out = F.grid_sample(xd, gd, mode=mode, padding_mode=pad, align_corners=False)
            out.backward(minitorch.ones_like(out) * 0.5 + out.detach())
            assert out.device.type == d and xd.grad.device.type == d
            results.append([out.detach().cpu(), xd.grad.cpu(), gd.grad.cpu()])
        for a, b in zip(*results):
            assert a.equal(b)
    results = []
    for d in ("cpu", device):
        th = theta.detach().to(d).requires_grad_()
        grid = F.affine_grid(th, (2, 3, 4, 5), align_corners=True)
        grid.backward(grid.detach())
        results.append([grid.detach().cpu(), th.grad.cpu()])
    assert all(a.equal(b) for a, b in zip(*results))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_gradcheck(device, mode):
    minitorch.manual_seed(0)
    x = minitorch.randn(1, 2, 4, 5, dtype=minitorch.float64, device=device).requires_grad_()
    # positions away from pixel borders, where the interpolation is smooth
    g = (minitorch.rand(1, 3, 2, 2, dtype=minitorch.float64) * 1.6 - 0.8).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(
        lambda x, g: F.grid_sample(x, g, mode=mode, padding_mode="border", align_corners=True), (x, g))
    theta = minitorch.randn(2, 2, 3, dtype=minitorch.float64, device=device).requires_grad_()
    assert minitorch.autograd.gradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False), (theta,))
