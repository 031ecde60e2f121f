"""The windows under convolution and pooling (csrc/ops/window.c: im2col, col2im, max pooling with indices)
and the public ops on them: F.unfold / F.fold / nn.Unfold / nn.Fold against torch 2.13 (values bit for
bit, grad_fn names, reprs, every error), max pooling's NaN and tie rules and its 16-bit dtypes, the
device kernels against the host's bits (the simulated GPU and the emulated-CUDA build run the `device`
tests on "cuda"), and second derivatives through convolution and pooling (create_graph=True)."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close  # noqa: E402

import minitorch  # noqa: E402
from minitorch import _C  # noqa: E402

F = minitorch.nn.functional

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


snip("unfold_fold_values", """
import torch.nn.functional as F
def hexes(t): return [float(v).hex() for v in t.detach().flatten().tolist()]
torch.manual_seed(0)
for shape, kw in [((2, 3, 7, 9), dict(kernel_size=(3, 2), padding=(1, 0))),
                  ((1, 2, 10, 8), dict(kernel_size=3, stride=(2, 3), padding=1, dilation=(2, 1))),
                  ((3, 5, 5), dict(kernel_size=2, stride=2)),
                  ((0, 2, 4, 4), dict(kernel_size=2)),
                  ((2, 1, 6, 5), dict(kernel_size=(1, 1)))]:
    for dtype in (torch.float32, torch.float64):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        u = F.unfold(x, **kw)
        print(tuple(u.shape), u.dtype, type(u.grad_fn).__name__, hexes(u)[:40])
        torch.manual_seed(1)
        g = torch.randn(u.shape, dtype=dtype)
        u.backward(g)
        print(hexes(x.grad)[:40])
        folded = F.fold(g.detach().requires_grad_(), shape[-2:], **kw)
        print(tuple(folded.shape), type(folded.grad_fn).__name__, hexes(folded)[:40])
x = (torch.randn(2, 3, 4, 4) > 0)
print(F.unfold(x, 2).dtype, F.unfold(x, 2).sum().item(), F.fold(F.unfold(x, 2), (4, 4), 2).sum().item())
print(F.unfold(torch.randn(1, 2, 4, 4).half(), 2).dtype, F.fold(torch.randn(1, 8, 9).bfloat16(), 4, 2).dtype)
print(torch.nn.Unfold(2), torch.nn.Fold((5, 5), 2), torch.nn.Unfold((2, 3), dilation=2, padding=1, stride=(1, 2)),
      torch.nn.Fold(4, (1, 2), stride=2))
print(torch.nn.Fold(4, 2, stride=2)(torch.arange(16.).reshape(1, 4, 4)).tolist())
""")

snip("unfold_fold_same_size_windows", """
import torch.nn.functional as F
def hexes(t): return [float(v).hex() for v in t.detach().flatten().tolist()]
# windows that step by one along both dims and keep the width (a 'same' convolution's), whose columns are
# copied as whole shifted blocks of rows: every kernel offset, dilations, offsets past a row, other dtypes
torch.manual_seed(0)
for shape, kw in [((2, 3, 6, 7), dict(kernel_size=3, padding=1)),
                  ((1, 2, 5, 4), dict(kernel_size=(3, 5), padding=(0, 2))),
                  ((1, 1, 4, 6), dict(kernel_size=(2, 3), padding=(2, 2), dilation=(3, 2))),
                  ((1, 2, 3, 3), dict(kernel_size=(1, 3), padding=(1, 3), dilation=3)),
                  ((2, 1, 1, 5), dict(kernel_size=(5, 1), padding=(2, 0))),
                  ((1, 2, 6, 5), dict(kernel_size=(3, 3), padding=(1, 1), stride=(2, 1)))]:
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        x = torch.randn(shape).to(dtype)
        u = F.unfold(x, **kw)
        print(tuple(u.shape), hexes(u))
        print(hexes(F.fold(u, shape[-2:], **kw)))
x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64)
w = torch.randn(2, 3, 3, 3, 3, dtype=torch.float64)
print([round(v, 9) for v in F.conv3d(x, w, padding=1).flatten().tolist()[:50]])
print([round(v, 9) for v in F.conv1d(x[0, :, 0], w[:, :, 0, 0], padding=1).flatten().tolist()])
""")

snip("unfold_fold_errors", """
import torch.nn.functional as F
def t(f):
    try:
        y = f(); print(tuple(y.shape), y.dtype)
    except Exception as e: print(type(e).__name__, e)
x = torch.randn(2, 3, 5, 6)
t(lambda: F.unfold(x, 0))
t(lambda: F.unfold(x, 2, dilation=0))
t(lambda: F.unfold(x, 2, padding=-1))
t(lambda: F.unfold(x, 2, stride=0))
t(lambda: F.unfold(x, 0, padding=-1, stride=0, dilation=0))
t(lambda: F.unfold(torch.randn(5, 5), 2))
t(lambda: F.unfold(torch.randn(2, 0, 5, 5), 2))
t(lambda: F.unfold(torch.randn(0, 5, 5), 2))
t(lambda: F.unfold(torch.randn(2, 3, 5, 0), 2))
t(lambda: F.unfold(x, 7))
t(lambda: F.unfold(x, (7, 2)))
t(lambda: F.unfold(x, (2, 2, 2)))
t(lambda: F.unfold(x, 2, padding=(1, 2, 3)))
t(lambda: F.unfold(x, (2,)))
t(lambda: F.unfold(torch.randn(2, 3, 4, 5, 6), 2))
t(lambda: F.unfold(x.long(), 2))
t(lambda: F.unfold(x.to(torch.uint8), 2))
t(lambda: F.unfold(x, 2.5))
t(lambda: F.unfold(x, 'a'))
t(lambda: F.unfold(3, 2))
t(lambda: F.fold(torch.randn(2, 13, 16), (5, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 15), (5, 5), 2))
t(lambda: F.fold(torch.randn(2, 13, 15), (5, 5), 2))
t(lambda: F.fold(torch.randn(12, 16, 3, 3), (5, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 0))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 0, stride=0, padding=-1))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 2, stride=0, padding=-1, dilation=0))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 2, padding=-1, dilation=0))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 2, padding=-1))
t(lambda: F.fold(torch.randn(2, 12, 16), (0, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 16), (1, 1), 2))
t(lambda: F.fold(torch.randn(2, 12, 0), (1, 1), 2))
t(lambda: F.fold(torch.randn(2, 0, 16), (5, 5), 2))
t(lambda: F.fold(torch.randn(12, 0), (5, 5), 2))
t(lambda: F.fold(torch.randn(0, 12, 16), (5, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 16).to(torch.int8), (5, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5, 5), 2))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), (2, 2, 2)))
t(lambda: F.fold(torch.randn(2, 12, 16), (5, 5), 2, padding=(1, 1, 1)))
""")

snip("max_pool_nan_ties_and_dtypes", """
import torch.nn.functional as F
nan, inf = float('nan'), float('inf')
x = torch.tensor([[[[1., 1., 2., 2.], [1., 1., 2., nan], [nan, 3., -inf, -inf], [nan, nan, -inf, -inf]]]])
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1), dict(kernel_size=2, stride=1, dilation=2),
           dict(kernel_size=3, stride=2, ceil_mode=True)]:
    v, i = F.max_pool2d(x, return_indices=True, **kw)
    print(v.tolist(), i.tolist())
torch.manual_seed(0)
y = torch.randn(2, 3, 9, 7)
for dtype in (torch.float16, torch.bfloat16, torch.float64):
    v, i = F.max_pool2d(y.to(dtype), 3, 2, 1, return_indices=True)
    print(v.dtype, [float(a).hex() for a in v.flatten().tolist()[:20]], i.flatten().tolist()[:20])
x = torch.randn(2, 3, 8, 8, requires_grad=True)
y = F.max_pool2d(x, 3, stride=1, padding=1)
y.backward(torch.arange(float(y.numel())).reshape(y.shape))
print(type(y.grad_fn).__name__, [float(a).hex() for a in x.grad.flatten().tolist()[:30]])
""")


snip("pool_1d_3d_and_integer_pools", """
import torch.nn.functional as F
def hexes(t): return [float(v).hex() for v in t.detach().flatten().tolist()]
def t(f):
    try:
        y = f(); print(tuple(y.shape), y.dtype, type(y.grad_fn).__name__ if y.grad_fn else None)
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x1 = torch.randn(2, 3, 9, requires_grad=True)
x3 = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64, requires_grad=True)
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), dict(kernel_size=2, dilation=2)]:
    y, i = F.max_pool1d(x1, return_indices=True, **kw)
    print(type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__, hexes(y), i.tolist())
    y.backward(torch.arange(float(y.numel())).reshape(y.shape)); print(hexes(x1.grad)); x1.grad = None
    y, i = F.max_pool3d(x3, return_indices=True, **kw)
    print(type(y.grad_fn).__name__, hexes(y)[:20], i.flatten().tolist()[:20])
    y.backward(torch.ones_like(y)); print(hexes(x3.grad)[:30]); x3.grad = None
    kw.pop('dilation', None)
    y = F.avg_pool1d(x1, **kw); print(type(y.grad_fn).__name__, hexes(y))
    y.sum().backward(); print(hexes(x1.grad)); x1.grad = None
    y = F.avg_pool3d(x3, **kw); print(type(y.grad_fn).__name__, hexes(y)[:20])
    y.sum().backward(); print(hexes(x3.grad)[:30]); x3.grad = None
y = F.avg_pool3d(x3, 3, stride=2, padding=1, count_include_pad=False, divisor_override=None); print(hexes(y)[:10])
y = F.adaptive_avg_pool1d(x1, 4); print(type(y.grad_fn).__name__, hexes(y))
for shape, size in [((2, 3, 14, 14), (7, 7)), ((2, 3, 9, 6), (3, 2)), ((3, 9, 15), (3, 5)), ((2, 3, 8, 6), (2, 1))]:
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        x = torch.randn(shape).to(dtype).requires_grad_()
        y = F.adaptive_avg_pool2d(x, size)
        y.backward(torch.randn(y.shape).to(dtype))
        print(type(y.grad_fn).__name__, hexes(y)[:12], hexes(x.grad)[:12])
print(F.max_pool1d(x1[0], 2).shape, F.max_pool3d(x3[0], 2).shape, F.avg_pool1d(x1[0], 2).shape, F.avg_pool3d(x3[0], 2).shape)
xi = torch.arange(60).reshape(1, 3, 4, 5) * 7 % 11
for dtype in (torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool, torch.float16, torch.bfloat16):
    t(lambda: F.max_pool2d(xi.to(dtype), 2, 1, 1, return_indices=True)[1])
    for f in (lambda: F.max_pool2d(xi.to(dtype), 2, 1, 1), lambda: F.avg_pool2d(xi.to(dtype), 3, 1, 1),
              lambda: F.max_pool3d(xi.to(dtype).unsqueeze(0), 2), lambda: F.avg_pool3d(xi.to(dtype).unsqueeze(0), 2),
              lambda: F.avg_pool1d(xi[0].to(dtype), 2), lambda: F.max_pool1d(xi[0].to(dtype), 2)):
        try: print(f())
        except Exception as e: print(type(e).__name__, e)
print(torch.nn.MaxPool1d(2), torch.nn.MaxPool3d(2, 1, 1, ceil_mode=True), torch.nn.AvgPool1d(3), torch.nn.AvgPool1d(3, 2, 1),
      torch.nn.AvgPool3d(2), torch.nn.AdaptiveAvgPool1d(4))
print(torch.nn.MaxPool1d(2)(x1).shape, torch.nn.AvgPool1d(3)(x1).shape, torch.nn.MaxPool3d(2)(x3).shape, torch.nn.AdaptiveAvgPool1d(4)(x1).shape)
t(lambda: F.max_pool1d(torch.randn(8), 2))
t(lambda: F.max_pool1d(x1, 3, padding=2))
t(lambda: F.max_pool1d(x1, 10))
t(lambda: F.max_pool1d(x1, 2, stride=0))
t(lambda: F.max_pool1d(x1.long(), 2))
t(lambda: F.avg_pool1d(torch.randn(8), 2))
t(lambda: F.avg_pool1d(x1, 3, padding=2))
t(lambda: F.avg_pool1d(x1, 10))
t(lambda: F.avg_pool1d(x1, (2, 2)))
t(lambda: F.max_pool3d(torch.randn(6, 6), 2))
t(lambda: F.max_pool3d(x3, 3, padding=2))
t(lambda: F.max_pool3d(x3, 6))
t(lambda: F.max_pool3d(x3, 2, stride=0))
t(lambda: F.avg_pool3d(torch.randn(6, 6), 2))
t(lambda: F.avg_pool3d(x3, 3, padding=2))
t(lambda: F.avg_pool3d(x3, 6))
t(lambda: F.avg_pool3d(x3, 2, divisor_override=0))
t(lambda: F.max_pool2d(torch.ones(1, 2, 4, 4, dtype=torch.bool), 2))
t(lambda: F.adaptive_avg_pool1d(torch.randn(8), 3))
t(lambda: F.adaptive_avg_pool1d(x1, (3, 4)))
t(lambda: F.max_pool1d(torch.randn(0, 3, 8), 2))
""")

snip("conv3d_and_transposed", """
import torch.nn as nn
import torch.nn.functional as F
def r(t): return [round(v, 6) for v in t.detach().flatten().tolist()]
def t(f):
    try:
        y = f(); print(tuple(y.shape), type(y.grad_fn).__name__ if y.grad_fn else None)
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
for fn, xs, ws, kw in [("conv_transpose2d", (2, 3, 5, 5), (3, 4, 3, 3), dict(stride=2, padding=1, output_padding=1)),
                       ("conv_transpose2d", (2, 4, 5, 6), (4, 3, 3, 2), dict(stride=(2, 1), padding=(1, 0), groups=2, dilation=(1, 2))),
                       ("conv_transpose1d", (2, 3, 7), (3, 4, 3), dict(stride=2, padding=1, output_padding=1, dilation=2)),
                       ("conv3d", (2, 3, 4, 5, 5), (4, 3, 2, 2, 2), dict(stride=(1, 2, 1), padding=1)),
                       ("conv_transpose3d", (2, 2, 3, 4, 4), (2, 3, 2, 2, 2), dict(stride=2)),
                       ("conv_transpose2d", (3, 5, 5), (3, 4, 3, 3), dict(stride=2))]:
    x = torch.randn(xs, dtype=torch.float64, requires_grad=True); w = torch.randn(ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(ws[1] * kw.get("groups", 1) if "transpose" in fn else ws[0], dtype=torch.float64, requires_grad=True)
    y = getattr(F, fn)(x, w, b, **kw)
    print(fn, tuple(y.shape), type(y.grad_fn).__name__, r(y)[:12])
    y.backward(torch.randn(y.shape, dtype=torch.float64))
    print(r(x.grad)[:12], r(w.grad)[:12], r(b.grad))
m = nn.ConvTranspose2d(3, 4, (2, 3), stride=2, output_padding=1); print(m, tuple(m.weight.shape), r(m.weight)[:6], r(m.bias))
print(nn.Conv3d(2, 3, 3), r(nn.Conv3d(2, 3, 2).weight)[:5], nn.ConvTranspose1d(2, 3, 3, bias=False, dilation=2), nn.ConvTranspose3d(2, 4, 2, groups=2))
print(nn.ConvTranspose2d(3, 4, 3, padding='same'), list(nn.ConvTranspose2d(3, 4, 3).state_dict().keys()))
x = torch.randn(2, 3, 5, 5)
m = nn.ConvTranspose2d(3, 4, 3, stride=2)
for size in ([12, 12], [11, 12], [2, 4, 12, 12], (11, 11)):
    print(m(x, output_size=size).shape)
t(lambda: m(x, output_size=[14, 12]))
t(lambda: m(x, output_size=[1, 12, 12]))
t(lambda: nn.ConvTranspose2d(3, 4, 3, padding_mode='reflect'))
w = torch.randn(3, 4, 3, 3)
t(lambda: F.conv_transpose2d(torch.randn(2, 3), w))
t(lambda: F.conv_transpose2d(torch.randn(2, 5, 5, 5), w))
t(lambda: F.conv_transpose2d(x, w, bias=torch.randn(5)))
t(lambda: F.conv_transpose2d(x, w, stride=2, output_padding=2))
t(lambda: F.conv_transpose2d(x, w, output_padding=1))
t(lambda: F.conv_transpose2d(x, w, output_padding=(0, 1), stride=(1, 2)))
t(lambda: F.conv_transpose1d(torch.randn(2, 3, 5), torch.randn(3, 4, 3), output_padding=1))
t(lambda: F.conv_transpose3d(torch.randn(2, 3, 5, 5, 5), torch.randn(3, 4, 3, 3, 3), output_padding=1))
t(lambda: F.conv_transpose2d(x, w, stride=0))
t(lambda: F.conv_transpose2d(x, w, padding=-1))
t(lambda: F.conv_transpose2d(x, w, output_padding=-1))
t(lambda: F.conv_transpose2d(x, torch.randn(3, 2, 3, 3), groups=2))
t(lambda: F.conv_transpose2d(x, w.double()))
t(lambda: F.conv3d(torch.randn(2, 3, 5, 5), torch.randn(4, 3, 2, 2, 2)))
t(lambda: F.conv3d(torch.randn(3, 4, 5, 5), torch.randn(4, 3, 2, 2, 2)))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_windows_parity(code):
    # convolutions sum in another order than torch's oneDNN: their snippet rounds to 6 places and is compared
    # within 1e-5; everything else prints hex floats or integers (compared exactly)
    compare_close(code, rtol=1e-5, atol=1e-5)


def _host_values(t):
    return t.cpu().flatten().tolist()


@pytest.mark.parametrize("dtype", [minitorch.float32, minitorch.float64, minitorch.float16, minitorch.bfloat16])
def test_device_kernels_match_the_host(device, dtype):
    """im2col, col2im and max pooling on `device` give the host's bits, on odd geometries (padding on one
    side, strides that skip elements, dilation, windows past the end, 1 and 3 spatial dims)."""
    minitorch.manual_seed(0)
    cases = [([2, 3, 7, 9], [7, 4], [3, 2], [1, 2], [1, 0], [1, 1]),
             ([1, 2, 10, 8], [4, 2], [3, 3], [2, 3], [1, 1], [2, 1]),
             ([2, 2, 11], [5], [3], [2], [1], [2]),
             ([1, 2, 4, 5, 6], [2, 3, 3], [2, 2, 3], [2, 2, 2], [0, 1, 1], [1, 1, 1])]
    for shape, out, kernel, stride, padding, dilation in cases:
        x = minitorch.randn(*shape).to(dtype)
        xd = x.to(device)
        cols = _C._im2col(x, out, kernel, stride, padding, dilation)
        cols_d = _C._im2col(xd, out, kernel, stride, padding, dilation)
        assert _host_values(cols_d) == _host_values(cols)
        image = _C._col2im(cols, shape[2:], out, kernel, stride, padding, dilation)
        image_d = _C._col2im(cols_d, shape[2:], out, kernel, stride, padding, dilation)
        assert _host_values(image_d) == _host_values(image)
        pool_out = [(s + 2 * p - d * (k - 1) - 1) // st + 1 for s, k, st, p, d in
                    zip(shape[2:], kernel, stride, padding, dilation)]
        if all(2 * p <= k for p, k in zip(padding, kernel)):
            values, indices = _C._max_pool_with_indices(x, pool_out, kernel, stride, padding, dilation)
            values_d, indices_d = _C._max_pool_with_indices(xd, pool_out, kernel, stride, padding, dilation)
            assert _host_values(values_d) == _host_values(values)
            assert _host_values(indices_d) == _host_values(indices)


def test_fold_bool_and_fill(device):
    x = (minitorch.arange(16.0).reshape(1, 1, 4, 4) % 3 == 0).to(device)
    cols = _C._im2col(x, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1])
    back = _C._col2im(cols, [4, 4], [3, 3], [2, 2], [1, 1], [0, 0], [1, 1])
    assert back.dtype == minitorch.bool and back.cpu().tolist() == x.cpu().tolist()
    y = minitorch.ones(1, 1, 2, 2, device=device)
    padded = _C._im2col(y, [3, 3], [1, 1], [1, 1], [1, 1], [1, 1], float("-inf"))
    assert padded.cpu().flatten().tolist() == [float("-inf")] * 4 + [1.0] * 2 + [float("-inf"), 1.0, 1.0]


def test_bad_geometry_raises(device):
    """The private ops refuse geometries that describe no windows (the public functions raise torch's errors
    first), never touching memory outside the tensors."""
    x = minitorch.randn(1, 2, 5, 5, device=device)
    bad = [lambda: _C._im2col(x, [2, 2], [0, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._im2col(x, [2, 2], [2, 2], [1, 0], [0, 0], [1, 1]),
           lambda: _C._im2col(x, [2, 2], [2, 2], [1, 1], [-1, 0], [1, 1]),
           lambda: _C._im2col(x, [-2, 2], [2, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._im2col(x, [2, 2, 2], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1]),
           lambda: _C._im2col(x, [2, 2], [2, 2, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._im2col(x, [1] * 4, [1] * 4, [1] * 4, [0] * 4, [1] * 4),
           lambda: _C._im2col(x, [2, 2], [2 ** 40, 2 ** 40], [1, 1], [0, 0], [1, 1]),
           lambda: _C._col2im(minitorch.randn(1, 7, 4, device=device), [5, 5], [2, 2], [2, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._col2im(minitorch.randn(1, 8, 5, device=device), [5, 5], [2, 2], [2, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._col2im(x, [5, 5], [2, 2], [2, 2], [1, 1], [0, 0], [1, 1]),
           lambda: _C._max_pool_with_indices(x.bool(), [2, 2], [2, 2], [2, 2], [0, 0], [1, 1]),
           lambda: _C._col2im(minitorch.ones(1, 4, 4, dtype=minitorch.int32, device=device), [3, 3], [2, 2], [2, 2],
                              [1, 1], [0, 0], [1, 1])]
    for call in bad:
        with pytest.raises(RuntimeError):
            call()
    # windows far outside the image read only the fill and write nothing
    far = _C._im2col(x, [2, 2], [2, 2], [50, 50], [0, 0], [1, 1])
    assert far.shape == (1, 8, 4)
    assert _C._col2im(far, [5, 5], [2, 2], [2, 2], [50, 50], [0, 0], [1, 1]).shape == (1, 2, 5, 5)


def _second_derivative_matches(f, x0, make):
    """d/dx of <grad f(x), u> along d against central differences of the first derivative."""
    v, u, d = make(*f(x0).shape), make(*x0.shape), make(*x0.shape)

    def first(x):
        x = x.detach().requires_grad_()
        (g,) = minitorch.autograd.grad((f(x) * v).sum(), x, create_graph=True)
        return x, g

    x, g = first(x0)
    (second,) = minitorch.autograd.grad((g * g * u).sum(), x)
    eps = 1e-6
    plus, minus = first(x0 + eps * d)[1], first(x0 - eps * d)[1]
    numeric = (((plus * plus) - (minus * minus)) * u).sum().item() / (2 * eps)
    assert abs((second * d).sum().item() - numeric) < 1e-5 * max(1.0, abs(numeric))


def test_double_backward_through_windows(device):
    minitorch.manual_seed(0)

    def make(*shape):
        return minitorch.randn(*shape, dtype=minitorch.float64).to(device)

    w = make(4, 3, 3, 2)
    _second_derivative_matches(lambda x: F.conv2d(x, w, padding=1, stride=(2, 1)).pow(2), make(2, 3, 6, 5), make)
    _second_derivative_matches(lambda x: F.avg_pool2d(x * x, 3, stride=2, padding=1), make(2, 3, 6, 5), make)
    _second_derivative_matches(lambda x: F.max_pool2d(x, 2).pow(3), make(2, 3, 6, 5), make)
    _second_derivative_matches(lambda x: F.fold(F.unfold(x.pow(2), 2, stride=1), (6, 5), 2), make(2, 3, 6, 5), make)
    x = make(2, 3, 6, 5).requires_grad_()
    assert minitorch.autograd.gradcheck(lambda x: F.unfold(x, (2, 3), padding=1, stride=(2, 1)), (x,))
    cols = make(2, 12, 30).requires_grad_()
    assert minitorch.autograd.gradcheck(lambda c: F.fold(c, (5, 6), 2, padding=(1, 0), stride=1), (cols,))
