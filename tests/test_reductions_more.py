"""softmax, log_softmax and the reductions a learner meets after sum and mean, against torch: values
(within the last bits where torch's CPU kernel sums or exponentiates in its own vectorised order),
dtypes, errors, grad_fn names and gradients; gradcheck in float64 on each device."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, import_torch  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# ---- softmax, log_softmax --------------------------------------------------------------------------------

snip("softmax_forms", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0]])
print(torch.softmax(x, 1))
print(torch.log_softmax(x, 0))
print(x.softmax(-1), x.log_softmax(dim=1))
print(torch._softmax(x, 1, False), torch._log_softmax(x, 0, False))
print(torch.nn.functional.softmax(x, dim=0), torch.nn.functional.log_softmax(x, 1))
print(torch.softmax(x, 1, torch.float64), x.softmax(0, dtype=torch.float64).dtype)
print(torch.softmax(torch.tensor([1, 2]), 0, dtype=torch.float32))
print(torch.softmax(torch.tensor(3.0), 0), torch.log_softmax(torch.tensor(3.0), -1))
print(torch.softmax(torch.empty(0, 3), 0), torch.softmax(torch.ones(0, dtype=torch.long), 0))
print(torch.softmax(torch.ones(3, 2).t(), 0).stride(), torch.softmax(torch.ones(2, 3, 4).transpose(0, 2), 1).stride())
print(torch.softmax(torch.tensor([1.0, float('inf')]), 0), torch.log_softmax(torch.tensor([-float('inf')] * 2), 0))
print(torch.softmax(torch.tensor([1.0, float('nan')]), 0), torch.log_softmax(torch.tensor([1e30, -1e30]), 0))
""")

snip("softmax_errors", """
torch.softmax(torch.tensor([1, 2]), 0)
torch.log_softmax(torch.tensor([1, 2]), 0)
torch.softmax(torch.ones(2, 3, dtype=torch.long), 0)
torch.log_softmax(torch.ones(2, 3, dtype=torch.int32), 0)
torch.softmax(torch.ones(2, 1, dtype=torch.long), 0)
torch.softmax(torch.tensor([True]), 0)
torch.softmax(torch.tensor([1.0, 2.0]), 0, dtype=torch.int64)
torch.softmax(torch.ones(2, dtype=torch.long), 5)
torch.softmax(torch.tensor([1.0, 2.0]), 2)
torch.softmax(torch.tensor([1.0, 2.0]), -3)
torch._softmax(torch.tensor([1.0, 2.0]), 0, True)
torch._log_softmax(torch.tensor([1.0, 2.0]), 0, True)
torch.softmax(1, 0)
torch.log_softmax(torch.ones(2), 'a')
torch.ones(2).softmax()
torch.ones(2).log_softmax(0, 1)
""")

snip("softmax_modules", """
import warnings
print(torch.nn.Softmax(dim=1), torch.nn.Softmax(), torch.nn.LogSoftmax(dim=-1), torch.nn.LogSoftmax())
print(torch.nn.Sequential(torch.nn.Softmax(1), torch.nn.LogSoftmax(0)))
x = torch.arange(24.0).reshape(2, 3, 4) / 7
print(torch.nn.Softmax(dim=1)(x)[1], torch.nn.LogSoftmax(-1)(x)[0, 1])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = torch.nn.functional.softmax(x)
    b = torch.nn.functional.log_softmax(torch.ones(2, 3))
    c = torch.nn.functional.softmax(torch.ones(5))
    d = torch.nn.Softmax()(torch.ones(2, 2))
print(a.sum(0), b, c, d)
print([(i.category.__name__, str(i.message)) for i in w])
""")

snip("softmax_autograd", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0]], requires_grad=True)
w = torch.tensor([[1.0, -2.0, 3.0], [0.5, 2.0, 1.0]])
y = torch.softmax(x, 1)
z = torch.log_softmax(x, 0)
print(y.grad_fn.name(), z.grad_fn.name(), y.grad_fn.next_functions[0][0].__class__.__name__)
(y * w).sum().backward()
print([[round(v, 6) for v in r] for r in x.grad.tolist()])
x.grad = None
(z * w).sum().backward()
print([[round(v, 6) for v in r] for r in x.grad.tolist()])
u = x.softmax(1, dtype=torch.float64)
print(u.grad_fn.name(), u.grad_fn.next_functions[0][0].__class__.__name__, u.dtype)
s = torch.softmax(torch.tensor(2.0, requires_grad=True), 0)
s.backward()
print(s)
y = torch.softmax(x, 1)
(y * w).sum().backward(retain_graph=True)
with torch.no_grad():
    print(torch.softmax(x, 0).requires_grad)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    compare(code)


# ---- values against torch on random inputs ------------------------------------------------------------


def _random_inputs(torch, dtype):
    """(name, torch tensor, dim): odd sizes along the last and a middle dim, and non-contiguous layouts."""
    g = torch.Generator().manual_seed(0)
    base = torch.randn(5, 7, 33, generator=g, dtype=dtype) * 4
    return [
        ("last", base, -1),
        ("middle", base, 1),
        ("first", base, 0),
        ("transposed", base.transpose(0, 2), 1),
        ("sliced", base[:, ::2, 1:30], -1),
        ("long_row", torch.randn(3, 1000, generator=g, dtype=dtype) * 3, 1),
        ("one", torch.randn(4, 1, generator=g, dtype=dtype), 1),
    ]


TOLERANCES = {"float32": dict(rtol=2e-6, atol=1e-6), "float64": dict(rtol=1e-14, atol=1e-14)}


def _close(mt_result, torch_result, torch, dtype_name):
    """mt_result (a minitorch tensor) equals torch_result within the last bits of dtype."""
    assert str(mt_result.dtype).split(".")[1] == str(torch_result.dtype).split(".")[1]
    assert tuple(mt_result.shape) == tuple(torch_result.shape)
    got = torch.tensor(mt_result.cpu().tolist(), dtype=torch_result.dtype)
    torch.testing.assert_close(got, torch_result, **TOLERANCES[dtype_name], equal_nan=True)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_values(device, dtype_name, op):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    for name, t, dim in _random_inputs(torch, getattr(torch, dtype_name)):
        x = minitorch.tensor(t.contiguous().tolist(), dtype=getattr(minitorch, dtype_name), device=device)
        if name == "transposed":
            x = minitorch.tensor(t.transpose(0, 2).contiguous().tolist(), dtype=x.dtype, device=device).transpose(0, 2)
        elif name == "sliced":
            x = minitorch.tensor(t._base.tolist() if t._base is not None else t.tolist(), dtype=x.dtype,
                                 device=device)[:, ::2, 1:30]
        expected = getattr(torch, op)(t, dim)
        _close(getattr(minitorch, op)(x, dim), expected, torch, dtype_name)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_grads_match_torch(device, op):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(1)
    t = torch.randn(4, 9, 5, generator=g, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 9, 5, generator=g, dtype=torch.float64)
    (getattr(torch, op)(t, 1) * w).sum().backward()
    x = minitorch.tensor(t.tolist(), dtype=minitorch.float64, device=device, requires_grad=True)
    (getattr(minitorch, op)(x, 1) * minitorch.tensor(w.tolist(), dtype=minitorch.float64, device=device)).sum().backward()
    _close(x.grad, t.grad, torch, "float64")


GRADCHECK_CASES = [
    ("softmax", lambda a: a.softmax(1) * a, 1),
    ("softmax_dim0", lambda a: minitorch.softmax(a, 0), 1),
    ("log_softmax", lambda a: a.log_softmax(-1) * a, 1),
    ("log_softmax_dim0", lambda a: minitorch.log_softmax(a.t(), 1), 1),
]


@pytest.mark.parametrize("name,fn,n", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn, n):
    minitorch.manual_seed(0)
    inputs = [minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_() for _ in range(n)]
    assert minitorch.autograd.gradcheck(fn, inputs)


def test_softmax_double_backward(device):
    x = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradgradcheck(lambda a: a.softmax(1), [x]) if hasattr(minitorch.autograd, "gradgradcheck") \
        else True
    y = (x.log_softmax(1) ** 2).sum()
    (g,) = minitorch.autograd.grad(y, x, create_graph=True)
    assert g.grad_fn is not None
