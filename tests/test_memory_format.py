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
