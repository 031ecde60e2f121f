"""More convolution and pooling against torch 2.13: the convolution layers' padding modes other than
'zeros' (functional.pad, then a convolution without padding), adaptive max pooling, LPPool and MaxUnpool,
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
    g = torch.randn(first.shape, dtype=first.dtype)
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
t(lambda: nn.Conv2d(2, 2, 3, padding=1, padding_mode="foo"))
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
