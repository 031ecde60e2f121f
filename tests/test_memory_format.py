"""Memory formats: the minitorch.memory_format objects and the memory_format= keyword of clone,
contiguous and is_contiguous (csrc/core/memory_format.c, csrc/ops/shape.c). channels_last is a stride
order, not a new kind of tensor: values, views and ops work on it as on any dense permuted layout.
Snippets run under torch too when it is importable (tests/parity.py)."""

import copy
import pickle

import pytest

import minitorch as torch
from parity import compare

FORMATS = ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d")


def test_the_four_formats_are_singletons():
    for name in FORMATS:
        fmt = getattr(torch, name)
        assert type(fmt) is torch.memory_format
        assert repr(fmt) == str(fmt) == "minitorch." + name
        assert pickle.loads(pickle.dumps(fmt)) is fmt
        assert copy.deepcopy(fmt) is fmt
    assert torch.channels_last != torch.contiguous_format
    with pytest.raises(TypeError, match="cannot create 'minitorch.memory_format' instances"):
        torch.memory_format()


def test_channels_last_strides_and_values():
    x = torch.arange(120.0).reshape(2, 3, 4, 5)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert y.tolist() == x.tolist()
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert y.contiguous().stride() == (60, 20, 5, 1)
    # clone keeps the layout it is given (preserve_format), elementwise results follow it
    assert y.clone().stride() == (60, 1, 15, 3)
    assert (y + 1).stride() == (60, 1, 15, 3)
    z = torch.arange(720.0).reshape(2, 3, 4, 5, 6)
    assert z.contiguous(memory_format=torch.channels_last_3d).stride() == (360, 1, 90, 18, 3)


def test_channels_last_on_the_simulated_gpu(device):
    x = torch.arange(24.0, device=device).reshape(1, 2, 3, 4)
    y = x.clone(memory_format=torch.channels_last)
    assert y.device == x.device and y.stride() == (24, 1, 8, 2)
    assert y.cpu().tolist() == x.cpu().tolist()


@pytest.mark.parametrize("call, error, message", [
    ("torch.ones(2, 3).contiguous(memory_format=torch.channels_last)", RuntimeError,
     "required rank 4 tensor to use channels_last format"),
    ("torch.ones(2, 3, 4, 5).clone(memory_format=torch.channels_last_3d)", RuntimeError,
     "required rank 5 tensor to use channels_last_3d format"),
    ("torch.ones(2, 3).t().contiguous(memory_format=torch.preserve_format)", RuntimeError,
     "preserve memory format is unsupported by the contiguous operator"),
    ("torch.ones(2, 3).contiguous(memory_format=None)", TypeError,
     "contiguous(): argument 'memory_format' must be torch.memory_format, not NoneType"),
    ("torch.ones(2, 3).clone(memory_format=1)", TypeError,
     "clone(): argument 'memory_format' must be torch.memory_format, not int"),
    ("torch.ones(2, 3).is_contiguous(memory_format='channels_last')", TypeError,
     "is_contiguous(): argument 'memory_format' must be torch.memory_format, not str"),
])
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        eval(call)
    assert str(info.value) == message


def test_matches_torch():
    compare("""
y = torch.ones(2, 4, 5, 3).permute(0, 3, 1, 2)
print(y.contiguous(memory_format=torch.channels_last) is y, y.contiguous() is y)
print(y.is_contiguous(memory_format=torch.preserve_format), torch.ones(2, 3).is_contiguous(memory_format=torch.preserve_format))
print(torch.ones(2, 3).contiguous(memory_format=torch.preserve_format).stride())
print(torch.ones(2, 3, 4, 5, 6).is_contiguous(memory_format=torch.channels_last_3d))
print(torch.ones(2, 3, 4, 5).is_contiguous(memory_format=torch.channels_last_3d))
print(torch.ones(2, 3, 4).is_contiguous(memory_format=torch.channels_last))
print(torch.ones(2, 3, 4, 5)[:, :, ::2].clone(memory_format=torch.channels_last).stride())
print(torch.ones(2, 3, 4, 5)[:, :, ::2].contiguous(memory_format=torch.channels_last).stride())
print(torch.ones(2, 3).t().clone(memory_format=None).stride())
for sizes in [(2, 0, 4, 5), (2, 3, 0, 5), (0, 3, 4, 5), (2, 3, 1, 1), (1, 1, 1, 1), (2, 1, 4, 5)]:
    x = torch.ones(*sizes)
    c = x.clone(memory_format=torch.channels_last)
    print(sizes, c.stride(), x.is_contiguous(memory_format=torch.channels_last),
          c.is_contiguous(memory_format=torch.channels_last), c.is_contiguous())
print(torch.ones(1, 3, 1, 1).contiguous(memory_format=torch.channels_last).stride())
x = torch.arange(24.).reshape(1, 2, 3, 4).contiguous(memory_format=torch.channels_last)
print(x)
print(x.reshape(-1))
x.view(-1)
print(torch.clone(x, memory_format=torch.contiguous_format).stride())
torch.ones(2, 3).contiguous(torch.channels_last)
torch.ones(2, 3).clone(torch.channels_last)
torch.ones(2, 3).is_contiguous(foo=1)
""")


def test_conversions_and_factories_match_torch():
    compare("""
y = torch.ones(2, 4, 5, 3).permute(0, 3, 1, 2)
x = torch.ones(2, 3, 4, 5)
print(x.to(memory_format=torch.channels_last).stride(), x.to('cpu', memory_format=torch.channels_last).stride())
print(x.to(torch.float64, memory_format=torch.channels_last).stride(), x.float(memory_format=torch.channels_last).stride())
print(x.double(memory_format=torch.channels_last).stride(), x.cpu(memory_format=torch.channels_last).stride())
print(y.to(torch.float64, memory_format=torch.contiguous_format).stride(), y.float(memory_format=torch.contiguous_format) is y)
print(y.float(memory_format=torch.channels_last) is y, y.float() is y, y.to(memory_format=torch.preserve_format) is y)
print(x.to(memory_format=torch.contiguous_format) is x, x.to(memory_format=None) is x)
print(y.double().stride(), y.to(torch.int32).stride(), y.int(memory_format=None).stride())
torch.ones(2, 3).float(memory_format=1)
torch.ones(2, 3).to(memory_format='channels_last')
torch.ones(2, 3).float(memory_format=torch.channels_last)
torch.ones(2, 3).to(torch.float64, memory_format=torch.channels_last)
print(torch.empty_like(torch.ones(2, 3, 4, 5), memory_format=torch.channels_last).stride())
print(torch.empty_like(y).stride(), torch.empty_like(y, memory_format=torch.contiguous_format).stride())
print(torch.zeros_like(y, memory_format=torch.contiguous_format).stride())
print(torch.ones_like(x, memory_format=torch.channels_last).stride())
print(torch.full_like(x, 1, memory_format=torch.channels_last).stride())
print(torch.rand_like(x, memory_format=torch.channels_last).stride(), torch.randn_like(y).stride())
print(torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride())
print(torch.empty((2, 0, 4, 5), memory_format=torch.channels_last).stride())
print(torch.empty(2, memory_format=None).stride())
torch.empty(2, 3, memory_format=torch.preserve_format)
torch.empty(2, 3, 4, 5, memory_format=torch.channels_last_3d)
torch.empty(2, 3, memory_format=1)
torch.empty_like(torch.ones(2, 3), memory_format=1)
torch.zeros(2, memory_format=torch.contiguous_format)
torch.ones(2, memory_format=torch.contiguous_format)
torch.full((2,), 1.0, memory_format=torch.contiguous_format)
torch.empty_like(torch.ones(2, 3), memory_format=torch.channels_last)
""")


def test_random_values_follow_memory_order_as_torchs():
    compare("""
torch.manual_seed(0)
a = torch.empty(3, 4).t()
a.uniform_()
print(a)
a = torch.empty(3, 20).t()
a.normal_()
print(a[:2])
y = torch.ones(2, 4, 5, 3).permute(0, 3, 1, 2)
print(torch.rand_like(y)[0, 0])
print(torch.randn_like(y)[0, 0])
print(torch.rand_like(torch.ones(2, 3, 4, 5), memory_format=torch.channels_last)[0, 0])
print(torch.randn_like(torch.ones(2, 3, 4, 5), memory_format=torch.channels_last)[0, 0])
print(torch.randn_like(torch.ones(20, 3).t())[:, :4])
b = torch.empty(4, 6)[:, ::2]
b.normal_()
print(b)
b.uniform_()
print(b)
""")


def test_suggested_format_decides_aliasing_like_torch():
    """to(memory_format=...) returns self exactly when the strides already suggest that format
    (c10's is_channels_last_strides_2d, tie-breaks included), over many small layouts."""
    compare("""
import itertools
out = []
for sizes in itertools.product((1, 2, 3), repeat=4):
    base = torch.ones(*sizes)
    for perm in [(0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2), (1, 0, 2, 3), (3, 2, 1, 0)]:
        x = base.permute(*perm)
        out.append((x.to(memory_format=torch.channels_last) is x, x.to(memory_format=torch.contiguous_format) is x,
                    x.is_contiguous(memory_format=torch.channels_last)))
    x = base[:, :, :1]
    out.append((x.to(memory_format=torch.channels_last) is x, x.to(memory_format=torch.contiguous_format) is x))
print(out)
""")
