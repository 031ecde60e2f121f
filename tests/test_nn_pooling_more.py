"""More convolution and pooling against torch 2.13: the convolution layers' padding modes other than
'zeros' (functional.pad, then a convolution without padding), adaptive max pooling, 3-D adaptive average
pooling, LPPool, MaxUnpool and torch's top-level forms (torch.max_pool2d, torch.conv2d, ...),
printed by the same snippet under both. Pooled values and gradients are compared bit for bit (hex floats);
convolutions within a relative 1e-5 (their GEMM sums in another order than oneDNN). The `device` tests
check the simulated (or real) GPU against the host's bits."""

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

def check(fn, exact, *inputs):
    out = fn(*inputs)
    first = out[0] if isinstance(out, tuple) else out
    print(type(first.grad_fn).__name__, first.dtype, tuple(first.shape))
    show(first, exact)
    if isinstance(out, tuple):
        show(out[1])
    torch.manual_seed(5)
    g = torch.randn(first.shape).to(first.dtype)
    first.backward(g)
    for x in inputs:
        if isinstance(x, torch.Tensor) and x.grad is not None:
            show(x.grad, exact)
            x.grad = None

def t(f):
    try:
        r = f()
        if isinstance(r, tuple):
            print([(v.dtype, tuple(v.shape), v.tolist()) for v in r])
        else:
            print(r if not isinstance(r, torch.Tensor) else (r.dtype, tuple(r.shape), r.tolist()))
    except Exception as e:
        print(type(e).__name__, e)
"""


# ---- convolution padding modes -------------------------------------------------------------------------

snip("conv_padding_modes", SHOW + """
torch.manual_seed(0)
for mode in ("reflect", "replicate", "circular", "zeros"):
    for cls, shape, kw in ((nn.Conv1d, (2, 3, 7), dict(padding=2)),
                           (nn.Conv2d, (2, 3, 6, 5), dict(padding=(1, 2), stride=2)),
                           (nn.Conv3d, (1, 2, 4, 5, 4), dict(padding=1, dilation=(1, 2, 1))),
                           (nn.Conv2d, (3, 6, 5), dict(padding="same", kernel_size=(2, 3))),
                           (nn.Conv1d, (2, 3, 7), dict(padding="valid", bias=False))):
        kw = dict(kw)
        k = kw.pop("kernel_size", 3)
        m = cls(shape[1 if len(shape) == int(cls.__name__[4]) + 2 else 0],
                4, k, padding_mode=mode, **kw)
        print(m, m._reversed_padding_repeated_twice, m.padding_mode)
        check(lambda x: m(x), False, torch.randn(shape, requires_grad=True))
        print(type(m(torch.randn(shape)).grad_fn.next_functions[0][0]).__name__)
        print(m.weight.grad.sum().item())
t(lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"))
t(lambda: nn.ConvTranspose1d(2, 2, 3, padding_mode="circular"))
t(lambda: nn.Conv1d(2, 2, 3, padding=5, padding_mode="reflect")(torch.randn(1, 2, 4)))
t(lambda: nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular")(torch.randn(2, 4, 4)))
try:
    nn.Conv2d(2, 2, 3, padding=1, padding_mode="foo")
except ValueError as e:     # the set of modes prints in the order of the process's string hashes
    print(sorted(str(e).replace(",", " ").replace("{", " ").replace("}", " ").split()))
for cls in (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d):
    m = cls(2, 2, 3)
    m.padding_mode = "circular"
    t(lambda: m(torch.randn((1, 2) + (3,) * int(cls.__name__[13]))))
state = nn.Conv2d(2, 2, 3).__dict__.copy()
del state["padding_mode"]
m = nn.Conv2d.__new__(nn.Conv2d)
m.__setstate__(state)
print(m.padding_mode)
""")



# ---- adaptive max pooling ------------------------------------------------------------------------------

snip("adaptive_max_pool_values", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    for shape, out in (((2, 3, 7), 3), ((3, 10), 4), ((2, 3, 5), 5), ((1, 2, 4), 7), ((2, 1, 9), (1,))):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        check(lambda x: F.adaptive_max_pool1d(x, out, return_indices=True), True, x)
    for shape, out in (((2, 3, 7, 5), 3), ((3, 6, 9), (4, 2)), ((1, 2, 5, 6), (5, None)), ((2, 2, 3, 4), (7, 9)),
                       ((1, 1, 8, 8), (2, 4)), ((2, 2, 5, 5), 1)):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        check(lambda x: F.adaptive_max_pool2d(x, out, True), True, x)
        check(lambda x: F.adaptive_max_pool2d(x.transpose(-1, -2), out), True, x)
    for shape, out in (((1, 2, 5, 4, 7), (2, 3, 4)), ((2, 3, 4, 5), 3), ((1, 1, 3, 6, 2), (None, 4, 5))):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        check(lambda x: F.adaptive_max_pool3d(x, out, return_indices=True), True, x)
for dtype in (torch.float16, torch.bfloat16):
    x = (torch.randn(2, 3, 6, 7) * 4).round().to(dtype).requires_grad_()
    check(lambda x: F.adaptive_max_pool2d(x, (4, 3), return_indices=True), True, x)
    check(lambda x: F.adaptive_max_pool3d(x, (2, 4, 3), return_indices=True), True, x)
# ties go to the first element of a window, a NaN to the last NaN, an all -inf window to its first element
x = torch.tensor([[1., float('nan'), 3., float('nan'), 2., 2.], [float('-inf')] * 6, [4., 4., 1., 4., 4., 0.]],
                 requires_grad=True)
for out in (1, 2, 3, 4, 5, 6, 8):
    check(lambda x: F.adaptive_max_pool1d(x, out, True), True, x)
    check(lambda x: F.adaptive_max_pool2d(x.view(3, 2, 3), (2, out), True), True, x)
x = torch.randint(0, 3, (2, 3, 5, 7)).float().requires_grad_()
check(lambda x: F.adaptive_max_pool2d(x, (3, 4), True), True, x)
check(lambda x: nn.AdaptiveMaxPool3d((2, 2, 3))(x), True, x)
x = torch.randn(2, 3, 6, 5, requires_grad=True)
y = F.adaptive_max_pool2d(x, (4, 3))
g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
print(type(g.grad_fn).__name__)
show(g)
g.sum().backward()
show(x.grad)
""")

snip("adaptive_max_pool_api", SHOW + """
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6, requires_grad=True)
for m in (nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool1d(2, True), nn.AdaptiveMaxPool2d((2, None)),
          nn.AdaptiveMaxPool2d(4, return_indices=True), nn.AdaptiveMaxPool3d((None, 2, 1)), nn.AdaptiveMaxPool3d(2, True)):
    r = m(x[0] if isinstance(m, nn.AdaptiveMaxPool1d) else x)
    print(m, m.return_indices, m.output_size, type(r).__name__, len(r) if isinstance(r, tuple) else None)
v, i = F.adaptive_max_pool1d(x[0], 3, True)
print(type(v.grad_fn).__name__, [type(f).__name__ for f, _ in v.grad_fn.next_functions], i.requires_grad, i.grad_fn)
v, i = F.adaptive_max_pool2d(x, 3, True)
print(type(v.grad_fn).__name__, type(F.adaptive_max_pool2d(x[0], 3).grad_fn).__name__, i.dtype, i.is_contiguous())
v, i = F.adaptive_max_pool3d(x, 3, True)
print(type(v.grad_fn).__name__, type(F.adaptive_max_pool3d_with_indices(x[0], 3)[0].grad_fn).__name__)
print(F.adaptive_max_pool2d_with_indices(x, 2)[1].tolist() == F.adaptive_max_pool2d(x, 2, True)[1].tolist())
print(F.adaptive_max_pool1d_with_indices(x[0], 2)[1].tolist())
y = torch.randn(1, 2, 4, 4)
for name, z in (("max_pool1d", y[0]), ("max_pool2d", y), ("max_pool3d", y[None])):
    f, g = getattr(F, name), getattr(F, name + "_with_indices")
    print(name, f(z, 2, return_indices=True)[1].tolist() == g(z, 2)[1].tolist())
    t(lambda: f(z, "a", return_indices=True))
    t(lambda: g(z, 2, padding="b"))
    t(lambda: g([1.0], 2))
    t(lambda: f(z[0, 0, 0], 2, return_indices=True))
x = torch.arange(24.).reshape(1, 2, 3, 4)
t(lambda: F.adaptive_max_pool2d(x.long(), 2))
t(lambda: F.adaptive_max_pool2d(x.int(), 2))
t(lambda: F.adaptive_max_pool2d(x.bool(), 2))
t(lambda: F.adaptive_max_pool2d(x.to(torch.uint8), 2))
t(lambda: F.adaptive_max_pool2d(x[0, 0], 2))
t(lambda: F.adaptive_max_pool2d(x, (2, 3, 4)))
t(lambda: F.adaptive_max_pool2d(x, (2,)))
t(lambda: F.adaptive_max_pool2d(x, 0))
t(lambda: F.adaptive_max_pool2d(x, -1))
t(lambda: F.adaptive_max_pool2d(x, (3, -2)))
t(lambda: F.adaptive_max_pool2d(torch.zeros(1, 2, 0, 3), 2))
t(lambda: F.adaptive_max_pool2d(torch.zeros(0, 2, 3, 3), 2))
t(lambda: F.adaptive_max_pool2d(torch.zeros(0, 3, 3), 2))
t(lambda: F.adaptive_max_pool2d(torch.zeros(2, 0, 3, 3), 2))
t(lambda: F.adaptive_max_pool2d(torch.zeros(1, 0, 2, 2).bool(), (2, 3, 4)))
t(lambda: F.adaptive_max_pool2d(torch.zeros(0, 1, 2, 2).bool(), (-1, 3)))
t(lambda: F.adaptive_max_pool2d(x.bool(), (2, 3, 4)))
t(lambda: F.adaptive_max_pool2d(x, 2.5))
t(lambda: F.adaptive_max_pool2d(x, (2, "a")))
t(lambda: F.adaptive_max_pool2d(x, "a"))
t(lambda: F.adaptive_max_pool2d(x, (None, None)))
t(lambda: F.adaptive_max_pool2d(x[0, 0], (None, None)))
t(lambda: F.adaptive_max_pool1d(x[0].long(), 2, True))
t(lambda: F.adaptive_max_pool1d(x, 2))
t(lambda: F.adaptive_max_pool1d(x[0], (2, 3)))
t(lambda: F.adaptive_max_pool1d(x[0], 0))
t(lambda: F.adaptive_max_pool1d(x[0], -2))
t(lambda: F.adaptive_max_pool1d(x[0], "a"))
t(lambda: F.adaptive_max_pool1d(x[0, 0], 2))
t(lambda: F.adaptive_max_pool1d(torch.zeros(2, 0, 3), 2))
t(lambda: F.adaptive_max_pool1d(torch.zeros(2, 0, 3), (2, 3)))
t(lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 0), 2))
t(lambda: F.adaptive_max_pool1d(x[0].bool(), 2))
t(lambda: F.adaptive_max_pool3d(x, 2, return_indices=True))
t(lambda: F.adaptive_max_pool3d(x.unsqueeze(0).long(), (1, 2, 3)))
t(lambda: F.adaptive_max_pool3d(x.unsqueeze(0).bool(), (1, 2, 3)))
t(lambda: F.adaptive_max_pool3d(x[0], 2))
t(lambda: F.adaptive_max_pool3d(x, (2, 2)))
t(lambda: F.adaptive_max_pool3d(x.unsqueeze(0), (1, -2, 3)))
t(lambda: F.adaptive_max_pool3d(torch.zeros(1, 1, 2, 0, 3), 2))
""")


# ---- adaptive average pooling in 3-D ---------------------------------------------------------------------

snip("adaptive_avg_pool3d_values", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    # windows that tile the input: torch's values bit for bit
    for shape, out in (((2, 3, 4, 6, 8), 2), ((1, 2, 6, 4, 9), (3, 2, 3)), ((3, 4, 6, 8), (None, 2, 4)),
                       ((1, 1, 2, 2, 2), 2), ((2, 1, 4, 4, 4), (1, 1, 2))):
        x = torch.randn(shape).to(dtype).requires_grad_()
        check(lambda x: F.adaptive_avg_pool3d(x, out), True, x)
        check(lambda x: nn.AdaptiveAvgPool3d(out)(x), True, x)
for dtype in (torch.float32, torch.float64):
    # irregular windows (overlapping by one element): to float rounding
    for shape, out in (((2, 3, 5, 7, 4), 3), ((1, 2, 4, 5, 6), (3, 2, 4)), ((2, 5, 3, 7), (2, None, 5)),
                       ((1, 1, 2, 3, 2), (4, 5, 3))):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        check(lambda x: F.adaptive_avg_pool3d(x, out), False, x)
x = torch.randn(1, 2, 4, 5, 6, requires_grad=True)
check(lambda x: F.adaptive_avg_pool3d(x, 1), True, x)
check(lambda x: F.adaptive_avg_pool3d(x, (1, 1, 1)), True, x)
check(lambda x: F.adaptive_avg_pool3d(x, 0), True, x)
check(lambda x: F.adaptive_avg_pool3d(x.transpose(2, 4), (2, 5, 2)), True, x)
for out in ((2, 5, 3), (3, 2, 4)):
    x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64, requires_grad=True)
    y = F.adaptive_avg_pool3d(x, out)
    g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    print(type(g.grad_fn).__name__, [type(f).__name__ for f, _ in g.grad_fn.next_functions])
    show(g, False)
    g.pow(2).sum().backward()
    show(x.grad, False)
x = torch.randn(2, 4, 6, 6, requires_grad=True)
for out in ((3, 2), (4, 5)):
    y = F.adaptive_avg_pool2d(x, out)
    g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    print(type(g.grad_fn).__name__, [type(f).__name__ for f, _ in g.grad_fn.next_functions])
    show(g, False)
""")

snip("adaptive_avg_pool3d_api", SHOW + """
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 5, 6)
for m in (nn.AdaptiveAvgPool3d(2), nn.AdaptiveAvgPool3d((None, 2, 3)), nn.AdaptiveAvgPool3d([1, None, 2])):
    print(m, m.output_size, m.__constants__, tuple(m(x).shape))
print(type(F.adaptive_avg_pool3d(x.requires_grad_(), 2).grad_fn).__name__)
x = torch.randn(1, 2, 4, 5, 6)
t(lambda: F.adaptive_avg_pool3d(x[0, 0], 2))
t(lambda: F.adaptive_avg_pool3d(x.unsqueeze(0), 2))
t(lambda: F.adaptive_avg_pool3d(x, (2, 2)))
t(lambda: F.adaptive_avg_pool3d(x, (2, 2, 2, 2)))
t(lambda: F.adaptive_avg_pool3d(x, (2, -2, 2)))
t(lambda: F.adaptive_avg_pool3d(x, 2.5))
t(lambda: F.adaptive_avg_pool3d(x, "a"))
t(lambda: F.adaptive_avg_pool3d(x, None))
t(lambda: F.adaptive_avg_pool3d(x, (2, 2.0, 3)))
t(lambda: F.adaptive_avg_pool3d(x, (2, 3)))
t(lambda: F.adaptive_avg_pool3d(x.long(), 2))
t(lambda: F.adaptive_avg_pool3d(x.bool(), 2))
t(lambda: F.adaptive_avg_pool3d(x.long(), 1))
t(lambda: F.adaptive_avg_pool3d(torch.zeros(0, 2, 3, 3, 3), 2))
t(lambda: F.adaptive_avg_pool3d(torch.zeros(1, 0, 3, 3, 3), 2))
t(lambda: F.adaptive_avg_pool3d(torch.zeros(1, 2, 0, 3, 3), 2))
t(lambda: F.adaptive_avg_pool3d(torch.zeros(2, 0, 3, 3), 2))
t(lambda: F.adaptive_avg_pool3d(torch.zeros(1, 2, 0, 3, 3), 1))
t(lambda: F.adaptive_avg_pool3d(torch.randn(4, 5, 6), 1))
t(lambda: F.adaptive_avg_pool3d(torch.randn(5, 6), 1))
t(lambda: F.adaptive_avg_pool3d(torch.randn(5, 6), (2, 2)))
""")


# ---- torch's top-level forms: F's functions where torch's are the same ops, its own signatures where not ----

snip("top_level_forms", SHOW + """
torch.manual_seed(0)
print([getattr(torch, n) is getattr(F, n) for n in ("adaptive_avg_pool1d", "avg_pool1d", "bilinear", "conv1d",
       "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "adaptive_max_pool1d",
       "max_pool1d", "max_pool2d", "max_pool3d")])
print([getattr(torch, n).__name__ for n in ("adaptive_max_pool1d", "max_pool1d", "max_pool2d", "max_pool3d")])
x = torch.randn(2, 3, 7, requires_grad=True)
x4 = torch.randn(1, 2, 6, 7, requires_grad=True)
x5 = torch.randn(1, 2, 4, 6, 5, requires_grad=True)
check(lambda x: torch.adaptive_max_pool1d(x, 3), True, x)
check(lambda x: torch.adaptive_max_pool1d(input=x[0], output_size=[4]), True, x)
check(lambda x: torch.adaptive_avg_pool1d(x, 3), True, x)
check(lambda x: torch.avg_pool1d(x, 3, None, 1, True, False), True, x)
check(lambda x: torch.max_pool1d(x, 2), True, x)
check(lambda x: torch.max_pool1d(x, 3, None, 1, 1, True), True, x)
check(lambda x: torch.max_pool1d(x[0], kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True), True, x)
check(lambda x: torch.max_pool2d(x4, 2), True, x4)
check(lambda x: torch.max_pool2d(x4, (2, 3), [], 1, 1, True), True, x4)
check(lambda x: torch.max_pool2d(x4[0], 3, 2, 1), True, x4)
check(lambda x: torch.max_pool3d(x5, 2), True, x5)
check(lambda x: torch.max_pool3d(x5, (2, 1, 3), [1, 2, 1], 0, 1, True), True, x5)
check(lambda x: torch.max_pool3d(x4, 2), True, x4)
w = torch.randn(4, 3, 2)
check(lambda x: torch.conv1d(x, w, None, 2, 1), False, x)
check(lambda x: torch.conv2d(x4, torch.randn(3, 2, 2, 3), torch.randn(3), padding="same"), False, x4)
check(lambda x: torch.conv3d(x5, torch.randn(3, 2, 2, 2, 2), None, 2), False, x5)
check(lambda x: torch.conv_transpose1d(x, torch.randn(3, 2, 2)), False, x)
check(lambda x: torch.conv_transpose2d(x4, torch.randn(2, 3, 2, 2), None, 2, 0, 1), False, x4)
check(lambda x: torch.conv_transpose3d(x5, torch.randn(2, 3, 2, 2, 2)), False, x5)
check(lambda x: torch.bilinear(x[0].T, x[1].T, torch.randn(5, 3, 3)), False, x)
x = x.detach()
t(lambda: torch.adaptive_max_pool1d(x, 3, True))
t(lambda: torch.adaptive_max_pool1d(x, 3, return_indices=True))
t(lambda: torch.adaptive_max_pool1d(x, (3, 2)))
t(lambda: torch.adaptive_max_pool1d(x4, 3))
t(lambda: torch.adaptive_max_pool1d(x, None))
t(lambda: torch.adaptive_max_pool1d(x))
t(lambda: torch.adaptive_max_pool1d(x.long(), 2))
t(lambda: torch.max_pool1d(x, 2, return_indices=True))
t(lambda: torch.max_pool1d(x, 2, 1, 0, 1, True, True))
t(lambda: torch.max_pool1d(x4, 2))
t(lambda: torch.max_pool1d(x, 2.5))
t(lambda: torch.max_pool1d(x))
t(lambda: torch.max_pool1d(x, 2, 0))
t(lambda: torch.max_pool2d(x4, 2, return_indices=True))
t(lambda: torch.max_pool2d(x4, 2, 1, 0, 1, False, True))
t(lambda: torch.max_pool2d(x5, 2))
t(lambda: torch.max_pool2d(x4.detach().bool(), 2))
t(lambda: torch.max_pool2d(x4, 2, foo=1))
t(lambda: torch.max_pool3d(x5, 2, return_indices=True))
t(lambda: torch.max_pool3d(x5.detach().long(), 2))
t(lambda: torch.max_pool3d(x, 2))
print(torch.max_pool1d(torch.arange(12.).view(2, 6), 3, 2, 1).tolist())
print(torch.max_pool2d(torch.arange(36.).view(1, 6, 6), 3, 2, 1).tolist())
print(torch.adaptive_max_pool1d(torch.arange(12.).view(2, 6), 4)[1].tolist())
""")


# ---- the pooling ops' input checks in torch's order ------------------------------------------------------

snip("pool_input_checks", SHOW + """
for shape in [(), (4,), (3, 4), (2, 3, 4), (1, 2, 3, 4), (1, 1, 2, 3, 4), (1, 1, 1, 2, 3, 4), (2, 0, 4, 4),
              (0, 2, 4, 4), (2, 0, 4), (2, 4, 0), (0, 4, 4), (1, 2, 0, 4), (2, 0, 4, 4, 4), (0, 2, 4, 4, 4),
              (1, 2, 4, 0, 4)]:
    x = torch.zeros(shape)
    print(shape)
    for pool in (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d, F.max_pool1d, F.max_pool2d, F.max_pool3d):
        t(lambda: pool(x, 2))
    t(lambda: F.max_pool2d(x.requires_grad_(), 2))
t(lambda: F.avg_pool2d(torch.zeros(4), 2, divisor_override=0))
t(lambda: F.avg_pool3d(torch.zeros(4), 2, divisor_override=0))
t(lambda: F.avg_pool2d(torch.zeros(4), 2, stride=0))
t(lambda: F.avg_pool2d(torch.zeros(2, 0, 4), 2, stride=0))
t(lambda: F.avg_pool2d(torch.zeros(2, 0, 4), 2, padding=3))
t(lambda: F.avg_pool2d(torch.zeros(2, 0, 4), 2, padding=1))
t(lambda: F.avg_pool2d(torch.zeros(2, 0, 4), 5))
t(lambda: F.avg_pool3d(torch.zeros(2, 0, 4, 4), 2, padding=3))
t(lambda: F.avg_pool3d(torch.zeros(2, 0, 4, 4), 2, stride=0))
t(lambda: F.avg_pool3d(torch.zeros(2, 0, 4, 4), 5))
t(lambda: F.avg_pool1d(torch.zeros(2, 0, 4), 2, padding=3))
t(lambda: F.avg_pool1d(torch.zeros(2, 0, 4), 2, padding=1))
t(lambda: F.avg_pool3d(torch.zeros(1, 2, 0, 4, 4), 2, divisor_override=0))
t(lambda: F.avg_pool3d(torch.zeros(1, 2, 4, 4, 4), 2, stride=0, divisor_override=0))
t(lambda: F.avg_pool3d(torch.zeros(1, 2, 4, 4, 4), 8, divisor_override=0))
t(lambda: F.avg_pool2d(torch.zeros(2, 4, 4, 4, 4), 2, divisor_override=0))
t(lambda: F.avg_pool2d(torch.zeros(2, 4, 4, 4), 2, stride=0, divisor_override=0))
""")


# ---- LPPool --------------------------------------------------------------------------------------------

snip("lp_pool", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 3, 7, dtype=dtype, requires_grad=True)
    for p, k, st, ceil in ((2, 3, None, False), (1, 2, 1, False), (3.5, 3, 2, True), (float("inf"), 2, None, False),
                           (-float("inf"), 3, 2, True), (0.5, 2, 2, False), (2.0, (3,), None, False)):
        check(lambda x: F.lp_pool1d(x.abs() if p < 1 else x, p, k, st, ceil), False, x)
    x = torch.randn(2, 3, 6, 7, dtype=dtype, requires_grad=True)
    for p, k, st, ceil in ((2, 3, None, False), (1, (2, 3), 1, False), (3.0, 3, (2, 1), True),
                           (float("inf"), 2, None, True), (-float("inf"), (3, 2), 2, False), (1.5, 2, 2, False)):
        check(lambda x: F.lp_pool2d(x.abs() if p == 1.5 else x, p, k, st, ceil), False, x)
        check(lambda x: F.lp_pool2d(x[0], p, k, st, ceil), False, x)
    x = torch.randn(1, 2, 5, 6, 4, dtype=dtype, requires_grad=True)
    for p, k, st, ceil in ((2, 2, None, False), (1, (2, 3, 2), 1, False), (4, 3, (2, 1, 2), True),
                           (float("inf"), 2, None, False)):
        check(lambda x: F.lp_pool3d(x, p, k, st, ceil), False, x)
x = torch.zeros(1, 2, 4, requires_grad=True)
check(lambda x: F.lp_pool1d(x, 2, 2), True, x)
y = F.lp_pool2d(torch.randn(1, 1, 4, 4, requires_grad=True), 2, 2)
f = y.grad_fn
names = []
while f is not None:
    names.append(type(f).__name__)
    f = f.next_functions[0][0] if f.next_functions else None
print(names)
print(type(F.lp_pool1d(x, float("inf"), 2).grad_fn).__name__, type(F.lp_pool1d(x, -float("inf"), 2).grad_fn).__name__)
for m in (nn.LPPool1d(2, 3), nn.LPPool1d(1.5, 2, 1, True), nn.LPPool2d(2, (2, 3)), nn.LPPool2d(3, 2, stride=(1, 2)),
          nn.LPPool3d(2, 2), nn.LPPool3d(float("inf"), (1, 2, 2), ceil_mode=True)):
    print(m, m.norm_type, m.kernel_size, m.stride, m.ceil_mode)
torch.manual_seed(1)
x = torch.randn(2, 2, 6, 6, 6, requires_grad=True)
check(lambda x: nn.LPPool1d(2, 3)(x[0, 0, 0]), False, x)
check(lambda x: nn.LPPool2d(3, (2, 3), 2)(x[0]), False, x)
check(lambda x: nn.LPPool3d(1, 2)(x), False, x)
t(lambda: F.lp_pool2d(torch.randn(1, 1, 4, 4), 2, (2, 2, 2)))
t(lambda: F.lp_pool3d(torch.randn(1, 1, 4, 4, 4), 2, (2, 2)))
t(lambda: F.lp_pool2d(torch.randn(1, 1, 4, 4), 2, 5))
t(lambda: F.lp_pool1d(torch.randn(1, 1, 4), 2, 0))
t(lambda: F.lp_pool2d(torch.arange(16).reshape(1, 1, 4, 4), 2, 2))
t(lambda: F.lp_pool2d(torch.randn(1, 1, 4, 4), torch.tensor(2.0), 2))
""")


# ---- MaxUnpool -----------------------------------------------------------------------------------------

snip("max_unpool", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    x = torch.randn(2, 3, 9, dtype=dtype)
    v, i = F.max_pool1d(x, 3, 2, 1, return_indices=True)
    v.requires_grad_()
    check(lambda v: F.max_unpool1d(v, i, 3, 2, 1), True, v)
    check(lambda v: F.max_unpool1d(v, i, 3, 2, 1, output_size=[10]), True, v)
    check(lambda v: nn.MaxUnpool1d(3, 2, 1)(v[0], i[0], output_size=(2, 3, 8)), True, v)
    x = torch.randn(2, 3, 7, 6, dtype=dtype)
    v, i = F.max_pool2d(x, (2, 3), return_indices=True)
    v.requires_grad_()
    check(lambda v: F.max_unpool2d(v, i, (2, 3)), True, v)
    check(lambda v: F.max_unpool2d(v, i, (2, 3), output_size=(7, 7)), True, v)
    check(lambda v: nn.MaxUnpool2d((2, 3))(v[1], i[1], output_size=torch.Size([2, 3, 7, 6])), True, v)
    v, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    v.requires_grad_()
    check(lambda v: F.max_unpool2d(v, i, 3, 2, 1, (7, 6)), True, v)
    x = torch.randn(1, 2, 5, 4, 6, dtype=dtype)
    v, i = F.max_pool3d(x, 2, return_indices=True)
    v.requires_grad_()
    check(lambda v: F.max_unpool3d(v, i, 2), True, v)
    check(lambda v: nn.MaxUnpool3d(2)(v, i, (5, 4, 7)), True, v)
    check(lambda v: F.max_unpool3d(v[0], i[0], (2, 2, 2), stride=(2, 2, 2), padding=0, output_size=[1, 2, 5, 5, 6]), True, v)
v, i = F.max_pool2d(torch.randn(1, 2, 4, 4), 2, return_indices=True)
v.requires_grad_()
y = F.max_unpool2d(v, i, 2)
g, = torch.autograd.grad(y.pow(2).sum(), v, create_graph=True)
print(type(g.grad_fn).__name__, type(y.grad_fn).__name__, i.requires_grad)
show(g)
g.sum().backward()
show(v.grad)
print(nn.MaxUnpool1d(2), nn.MaxUnpool2d(2, stride=1), nn.MaxUnpool3d((1, 2, 2), padding=1), nn.MaxUnpool2d(3, 2, (1, 0)))
m = nn.MaxUnpool2d([2, 3])
print(m.kernel_size, m.stride, m.padding, m)
""")

snip("max_unpool_errors", SHOW + """
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4)
v, i = F.max_pool2d(x, 2, return_indices=True)
t(lambda: F.max_unpool2d(v, i, 2, output_size=(6, 5)))
t(lambda: F.max_unpool2d(v, i, 2, output_size=(5,)))
t(lambda: F.max_unpool2d(v, i, 2, output_size=5))
t(lambda: F.max_unpool2d(v, i, 2, output_size=[-1, 4]))
t(lambda: F.max_unpool2d(v, i, 2, padding=3))
t(lambda: F.max_unpool2d(v, i * 0 + 3, 2, stride=0))
j = i.clone()
j[0, 1, 1, 0] = 16
t(lambda: F.max_unpool2d(v, j, 2))
j[0, 1, 1, 0] = -3
t(lambda: F.max_unpool2d(v, j, 2))
t(lambda: F.max_unpool2d(v, i.int(), 2))
t(lambda: F.max_unpool2d(v, i.float(), 2))
t(lambda: F.max_unpool2d(v, i[..., :1], 2))
t(lambda: F.max_unpool2d(v[0, 0], i[0, 0], 2))
t(lambda: F.max_unpool2d(v.unsqueeze(0), i.unsqueeze(0), 2))
for dtype in (torch.int64, torch.int32, torch.uint8, torch.bool):
    t(lambda: F.max_unpool2d(v.to(dtype), i, 2))
t(lambda: F.max_unpool2d(torch.zeros(0, 2, 2, 2).long(), torch.zeros(0, 2, 2, 2, dtype=torch.long), 2))
t(lambda: F.max_unpool2d(torch.zeros(1, 0, 2, 2), torch.zeros(1, 0, 2, 2, dtype=torch.long), 2))
t(lambda: F.max_unpool2d(torch.zeros(1, 2, 0, 2), torch.zeros(1, 2, 0, 2, dtype=torch.long), 2))
t(lambda: F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 2, 2, dtype=torch.long), 2))
v1, i1 = F.max_pool1d(x[0], 2, return_indices=True)
t(lambda: F.max_unpool1d(v1, i1, 2, output_size=(2, 4, 5)))
t(lambda: F.max_unpool1d(v1, i1, 2, output_size=(2, 4)))
t(lambda: F.max_unpool1d(v1[0], i1[0], 2))
t(lambda: F.max_unpool1d(v1.unsqueeze(0), i1.unsqueeze(0), 2))
x3 = torch.randn(1, 2, 4, 4, 4)
v3, i3 = F.max_pool3d(x3, 2, return_indices=True)
j3 = i3.clone()
j3[0, 1, 1, 0, 1] = 64
t(lambda: F.max_unpool3d(v3, j3, 2))
t(lambda: F.max_unpool3d(v3, i3, 2, padding=-1))
t(lambda: F.max_unpool3d(v3, i3, 2, stride=0))
t(lambda: F.max_unpool3d(v3, i3, 2, stride=(1, 0, 1)))
t(lambda: F.max_unpool3d(v3, i3, 2, stride=-1))
t(lambda: F.max_unpool3d(v3[0, 0], i3[0, 0], 2))
t(lambda: F.max_unpool3d(v3.long(), i3, 2))
t(lambda: F.max_unpool3d(v3, i3[..., :1], 2))
t(lambda: F.max_unpool3d(v3, i3.int(), 2))
t(lambda: F.max_unpool3d(v3[:, :, 0], i3[:, :, 0].int(), 2))
t(lambda: F.max_unpool3d(torch.zeros(1, 0, 2, 2, 2), torch.zeros(1, 0, 2, 2, 2, dtype=torch.long), 2))
t(lambda: F.max_unpool3d(v3, i3, 2, output_size=(4, 4, 6)))
""")


# ---- max pooling with indices: one kernel call, torch's backward ----------------------------------------

snip("max_pool_indices", SHOW + """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    x = (torch.randn(2, 3, 9, 8) * 0.1).round().to(dtype).requires_grad_()
    check(lambda x: F.max_pool2d(x, 3, 1, 1, return_indices=True), True, x)
    check(lambda x: F.max_pool2d(x[0], (3, 2), (2, 1), 1, return_indices=True), True, x)
    check(lambda x: F.max_pool1d(x[0], 3, 1, 1, return_indices=True), True, x)
    check(lambda x: F.max_pool3d(x, 2, 1, return_indices=True), True, x)
    check(lambda x: nn.MaxPool2d(3, 1, 1, return_indices=True)(x), True, x)
v, i = F.max_pool2d(torch.randn(1, 2, 5, 5, requires_grad=True), 2, return_indices=True)
print(type(v.grad_fn).__name__, i.requires_grad, i.grad_fn, i.dtype)
for pool in (lambda x: F.max_pool2d(x, 2, 1), lambda x: F.max_pool3d(x, 2, 1), lambda x: F.adaptive_max_pool2d(x, 3),
             lambda x: F.adaptive_max_pool3d(x, (2, 3, 4))):
    x = torch.randn(2, 3, 5, 6, requires_grad=True)
    g, = torch.autograd.grad(pool(x).pow(2).sum(), x, create_graph=True)
    print(type(g.grad_fn).__name__)
    show(g)
    g.sum().backward()
    show(x.grad)
""")

# ---- the window parameters' checks, in torch's order ----------------------------------------------------

snip("window_parameter_errors", SHOW + """
torch.manual_seed(0)
x, y, r = torch.randn(1, 2, 5, 5), torch.randn(1, 2, 5, 5, 5), torch.randn(2, 5)
for pool in (F.max_pool2d, F.avg_pool2d):
    t(lambda: pool(x, 2, -1, 5))          # the output-size checks, one dim after another, come first
    t(lambda: pool(x, 0, 1, -1))
    t(lambda: pool(x, -1, 1))             # the half-kernel check divides as C does
    t(lambda: pool(x, 2, 1, (-1, 5)))
    t(lambda: pool(x, 0, 1))
    t(lambda: pool(x, 2, -1))
    t(lambda: pool(x, 2, 2 ** 31))        # C ints: before the rank check
    t(lambda: pool(x[0, 0, 0], 2, 2 ** 31))
    t(lambda: pool(x, 2, 1, 2 ** 40))
    t(lambda: pool(x, -2 ** 31 - 1))
for pool in (F.max_pool3d, F.avg_pool3d):
    t(lambda: pool(y, 0, 1))
    t(lambda: pool(y, 2, -1))
    t(lambda: pool(y, 2, 1, -1))
    t(lambda: pool(y, 2 ** 31))
    t(lambda: pool(x[0, 0], 2, 2 ** 31))
t(lambda: F.max_pool2d(x, 0, 1, 0, 0))
t(lambda: F.max_pool2d(x, 2, 1, 0, (1, 0)))
t(lambda: F.max_pool2d(x, 1, 1, 0, 2 ** 31))
t(lambda: F.max_pool3d(y, 2, 1, 0, 0))
t(lambda: F.avg_pool2d(x, 2, 2 ** 31, 0, False, True, 0))
t(lambda: F.avg_pool3d(y, 2, 2 ** 31, 0, False, True, 0))
t(lambda: F.avg_pool1d(r, 1, 2 ** 62))
t(lambda: F.avg_pool1d(r, 0, 1))
t(lambda: F.lp_pool1d(r, 2, 2, 2 ** 31))
t(lambda: nn.MaxPool2d(2, 2 ** 31)(x))
t(lambda: nn.AvgPool2d(2, 2 ** 31)(x))
# max_pool1d has its own checks and keeps int64 parameters
t(lambda: F.max_pool1d(r, 0))
t(lambda: F.max_pool1d(r, -1))
t(lambda: F.max_pool1d(r, 2, dilation=0))
t(lambda: F.max_pool1d(r, 2, padding=-1))
t(lambda: F.max_pool1d(r, 1, 2 ** 62))
t(lambda: torch.max_pool1d(r, 1, 2 ** 40))
""")

@pytest.mark.parametrize("code", SNIPPETS)
def test_nn_pooling_more_parity(code):
    # a snippet that prints hex floats compares them exactly (no decimal number appears in them)
    compare_close(code, rtol=1e-5, atol=1e-6)


def test_conv_padding_modes_on_device(device):
    """The same padded convolution on every device (to float rounding: the GEMM)."""
    minitorch.manual_seed(0)
    for mode in ("reflect", "replicate", "circular"):
        m = minitorch.nn.Conv2d(3, 4, 3, padding=(2, 1), padding_mode=mode)
        x = minitorch.randn(2, 3, 5, 6)
        expected = m(x)
        got = m.to(device)(x.to(device))
        assert got.device.type == device and minitorch.allclose(got.cpu(), expected, rtol=1e-5, atol=1e-6)
        m.to("cpu")


def test_adaptive_max_pool_on_device(device):
    """The host's values, indices and gradients on every device, bit for bit."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 7, 9)
    x[0, 0, 1, 2] = float("nan")
    for x, fn in [(x, fn) for x in (x, x.bfloat16()) for fn in (lambda x: F.adaptive_max_pool2d(x, (3, 4), True), lambda x: F.adaptive_max_pool1d(x[0], 4, True),
               lambda x: F.adaptive_max_pool3d(x, (2, 5, 2), True))]:
        results = []
        for d in ("cpu", device):
            xd = x.detach().to(d).requires_grad_()
            values, indices = fn(xd)
            values.backward(minitorch.ones_like(values) * 0.5 + values.detach().nan_to_num())
            assert values.device.type == d and indices.device.type == d
            results.append([values.cpu(), indices.cpu(), xd.grad.cpu()])
        for a, b in zip(*results):
            assert a.equal(b) or (a.isnan().equal(b.isnan()) and a.nan_to_num().equal(b.nan_to_num()))


def test_adaptive_avg_pool3d_on_device(device):
    """The host's values and gradients on every device: bit for bit where the windows tile the input."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 4, 6, 8)
    for out, exact in (((2, 3, 4), True), ((3, 4, 5), False), (1, True)):
        for dtype in (minitorch.float32, minitorch.bfloat16):
            results = []
            for d in ("cpu", device):
                xd = x.detach().to(d, dtype).requires_grad_()
                y = F.adaptive_avg_pool3d(xd, out)
                y.backward(minitorch.arange(y.numel(), dtype=y.dtype, device=d).view(y.shape))
                assert y.device.type == d
                results.append([y.detach().cpu(), xd.grad.cpu()])
            for a, b in zip(*results):
                assert a.equal(b) if exact else minitorch.allclose(a, b, rtol=1e-2, atol=1e-3)


def test_top_level_forms_on_device(device):
    """torch.max_pool2d and torch.adaptive_max_pool1d: the host's values on every device."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 7, 6)
    for fn in (lambda x: minitorch.max_pool2d(x, 3, 2, 1), lambda x: minitorch.max_pool1d(x[0], 2),
               lambda x: minitorch.max_pool3d(x, 2, ceil_mode=True),
               lambda x: minitorch.adaptive_max_pool1d(x[0], 4)[1]):
        got = fn(x.to(device))
        assert got.device.type == device and got.cpu().equal(fn(x))


def test_lp_pool_on_device(device):
    """The host's values and gradients on every device (to float rounding: pow)."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 6, 7, dtype=minitorch.float64)
    for fn in (lambda x: F.lp_pool2d(x, 2, 3, 2), lambda x: F.lp_pool1d(x[0], 3.0, 2),
               lambda x: F.lp_pool3d(x, 1, (1, 2, 2)), lambda x: F.lp_pool2d(x, float("inf"), 2)):
        results = []
        for d in ("cpu", device):
            xd = x.detach().to(d).requires_grad_()
            y = fn(xd)
            y.sum().backward()
            assert y.device.type == d
            results.append([y.detach().cpu(), xd.grad.cpu()])
        for a, b in zip(*results):
            assert minitorch.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("fn", [lambda x: F.lp_pool2d(x, 2, 2) + F.lp_pool2d(x.abs() + 0.1, 1.5, (1, 2), 1)[..., :2, :2],
                                lambda x: F.adaptive_max_pool2d(x, (4, 3)) * 2 + F.adaptive_max_pool1d(x, 3),
                                lambda x: F.adaptive_avg_pool3d(x.view(1, 2, 2, 2, 5), (3, 1, 4)),
                                lambda x: F.adaptive_avg_pool3d(x.view(2, 2, 2, 5), (2, 2, 5))],
                         ids=["lp_pool", "adaptive_max_pool", "adaptive_avg_pool3d", "adaptive_avg_pool3d_tiled"])
def test_gradcheck(device, fn):
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 4, 5, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (x,))



def test_max_unpool_on_device(device):
    """The host's values and gradients on every device, bit for bit."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 7, 8)
    v, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    v3, i3 = F.max_pool3d(x, 2, return_indices=True)
    v1, i1 = F.max_pool1d(x[0], 3, 2, 1, return_indices=True)
    for fn, v, i in ((lambda v, i: F.max_unpool2d(v, i, 3, 2, 1, (7, 8)), v, i),
                     (lambda v, i: F.max_unpool3d(v, i, 2, output_size=(3, 7, 9)), v3, i3),
                     (lambda v, i: F.max_unpool1d(v[0], i[0], 3, 2, 1, [8]), v1, i1)):
        results = []
        for d in ("cpu", device):
            vd = v.detach().to(d).requires_grad_()
            y = fn(vd, i.to(d))
            y.backward(minitorch.arange(y.numel(), dtype=y.dtype, device=d).view(y.shape))
            assert y.device.type == d
            results.append([y.detach().cpu(), vd.grad.cpu()])
        for a, b in zip(*results):
            assert a.equal(b)
    with pytest.raises(RuntimeError, match="Found an invalid max index: 99 "):
        F.max_unpool2d(v.to(device), (i * 0 + 99).to(device), 3, 2, 1)
