"""scatter_reduce, index_reduce and put (their functions, methods and in-place forms) against torch: the values
bit for bit (every reduction, include_self both ways, float16/bfloat16/integer dtypes, repeated indices, empty
and non-contiguous operands), the errors and their messages, and the gradients (ScatterReduceBackward0,
IndexReduceBackward0, PutBackward0) printed by the same snippet under both; gradcheck in float64 and the device
path (each op on "cuda" against the CPU)."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"]
REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# exact values: floats through float64 (which holds every float16/bfloat16/float32 value), and the dtype
PRELUDE = """
def bits(t):
    print(t.dtype, tuple(t.shape), t.double().tolist() if t.is_floating_point() else t.tolist())
torch.manual_seed(0)
x = torch.randn(4, 6) * 3
s = torch.randn(9, 6) * 3
i = torch.randint(0, 4, (9, 6))
v = torch.randint(0, 4, (9,))
"""

# ---- scatter_reduce ----------------------------------------------------------------------------------------

snip("scatter_reduce_values", PRELUDE + "".join(
    f"bits(x.scatter_reduce(0, i, s, {r!r}, include_self={inc}))\n"
    f"bits(torch.scatter_reduce(x.t(), 1, i[:5].t(), s.t(), {r!r}, include_self={inc}))\n"
    for r in REDUCES for inc in (True, False)))

snip("scatter_reduce_dtypes", PRELUDE + "".join(
    f"bits(x.to(torch.{d}).scatter_reduce(0, i, (s * 2).to(torch.{d}), {r!r}, include_self={inc}))\n"
    for d in DTYPES for r in REDUCES for inc in (True, False)))

snip("scatter_reduce_forms", PRELUDE + """
y = x.clone()
print(y.scatter_reduce_(1, i[:4], s[:4], 'amax') is y, y._version)
bits(y)
o = torch.empty(4, 6)
print(torch.scatter_reduce(x, 0, i, s, 'mean', out=o) is o)
bits(o)
bits(x.scatter_reduce(0, i, s, 'max'))
bits(x.scatter_reduce(0, i, s, 'min', include_self=False))
bits(x.scatter_reduce(0, i.int(), s, reduce='prod'))
bits(x.scatter_reduce(dim=-1, index=i[:4, :3], src=s, reduce='sum', include_self=False))
bits(x[:, ::2].scatter_reduce(0, i[:, :3], s[:, ::2], 'sum'))
bits(x.scatter_reduce(0, torch.empty(0, 6, dtype=torch.long), s, 'mean'))
e = torch.randint(0, 4, (9, 1)).expand(9, 6)
bits(x.scatter_reduce(0, e, s, 'sum'))
bits(x.half().scatter_reduce(0, e, s.half(), 'mean', include_self=False))
bits(x.bfloat16().scatter_reduce(0, e, s.bfloat16(), 'prod'))
bits(torch.empty(0, 6).scatter_reduce(0, torch.empty(0, 6, dtype=torch.long), s, 'amax'))
bits(torch.tensor(5.).scatter_reduce(0, torch.tensor(0), torch.tensor(2.), 'prod'))
bits(torch.tensor([1., float('nan'), 3.]).scatter_reduce(0, torch.tensor([0, 0, 2, 1]), torch.tensor([float('nan'), 2., -1., 4.]), 'amax'))
bits(torch.tensor([1., float('nan'), 3.]).scatter_reduce(0, torch.tensor([0, 0, 2, 1]), torch.tensor([float('nan'), 2., -1., 4.]), 'amin'))
bits(torch.zeros(3, dtype=torch.long).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), torch.tensor([3, 4, -3, -4]), 'mean'))
bits(torch.zeros(3, dtype=torch.long).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([3, 4, -3]), 'mean', include_self=False))
bits(torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'sum'))
bits(torch.ones(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'prod'))
bits(torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'amax', include_self=False))
bits(torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'amin', include_self=False))
bits(torch.ones(2, dtype=torch.float16).scatter_reduce(0, torch.zeros(3000, dtype=torch.long), torch.full((3000,), 3., dtype=torch.float16), 'mean'))
bits(torch.ones(2, dtype=torch.bfloat16).scatter_reduce(0, torch.zeros(3000, dtype=torch.long), torch.full((3000,), 3., dtype=torch.bfloat16), 'mean', include_self=False))
bits(torch.full((3,), 60000., dtype=torch.float16).scatter_reduce(0, torch.tensor([0, 0, 0]), torch.full((3,), 30000., dtype=torch.float16), 'mean'))
""")

snip("scatter_reduce_errors", PRELUDE + """
x.scatter_reduce(0, i, s, 'foo')
x.scatter_reduce(0, i, s, 'add')
x.scatter_reduce(0, i, s, 'multiply')
x.scatter_reduce(0, i.float(), s, 'sum')
x.scatter_reduce(0, i, s.double(), 'sum')
x.scatter_reduce(0, i, s.double(), 'foo')
x.scatter_reduce(0, i + 4, s, 'foo')
x.scatter_reduce(0, i + 4, s, 'sum')
x.scatter_reduce(0, i - 5, s, 'sum', include_self=False)
x.scatter_reduce(2, i, s, 'sum')
x.scatter_reduce(0, torch.zeros(10, 6, dtype=torch.long), s, 'sum')
x.scatter_reduce(0, torch.zeros(3, 7, dtype=torch.long), s, 'sum')
x.scatter_reduce(0, torch.zeros(3, dtype=torch.long), s, 'sum')
x.scatter_reduce(0, i, s)
torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'mean')
torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 5]), torch.tensor([True, False]), 'mean')
torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0, 5]), torch.tensor([True, False]), 'mean', include_self=False)
y = torch.zeros(4)
y.scatter_reduce_(0, torch.tensor([0, 1]), y[1:3], 'sum')
print(y)
""")

# ---- index_reduce ----------------------------------------------------------------------------------------

snip("index_reduce_values", PRELUDE + "".join(
    f"bits(x.index_reduce(0, v, s, {r!r}, include_self={inc}))\n"
    f"bits(torch.index_reduce(x.t(), 1, v, s.t(), {r!r}, include_self={inc}))\n"
    f"bits(x[0].index_reduce(0, v, s[:, 0], {r!r}, include_self={inc}))\n"
    for r in REDUCES[1:] for inc in (True, False)))

snip("index_reduce_dtypes", PRELUDE + "".join(
    f"bits(x.to(torch.{d}).index_reduce(0, v, (s * 2).to(torch.{d}), {r!r}, include_self={inc}))\n"
    f"bits(x[0].to(torch.{d}).index_reduce(0, v, (s[:, 0] * 2).to(torch.{d}), {r!r}, include_self={inc}))\n"
    for d in DTYPES for r in REDUCES[1:] for inc in (True, False)))

snip("index_reduce_forms", PRELUDE + """
y = x.clone()
print(y.index_reduce_(1, torch.tensor([5, 0, 5]), s[:4, :3], 'amin') is y, y._version)
bits(y)
o = torch.empty(4, 6)
print(torch.index_reduce(x, 0, v, s, 'prod', include_self=False, out=o) is o)
bits(o)
bits(x.index_reduce(0, v.int(), s, 'mean'))
bits(x.index_reduce(dim=-1, index=torch.tensor([2, 2]), source=s[:4, :2], reduce='prod'))
bits(x[:, ::2].index_reduce(1, torch.tensor([1, 1]), s[:4, 1::3], 'amax'))
bits(x.index_reduce(0, torch.tensor([], dtype=torch.long), s[:0], 'mean'))
bits(torch.tensor(5.).index_reduce(0, torch.tensor(0), torch.tensor(2.), 'prod'))
bits(torch.ones(2, dtype=torch.float16).index_reduce(0, torch.zeros(3000, dtype=torch.long), torch.full((3000,), 3., dtype=torch.float16), 'mean'))
bits(torch.ones(2, 2, dtype=torch.bfloat16).index_reduce(0, torch.zeros(3000, dtype=torch.long), torch.full((3000, 2), 3., dtype=torch.bfloat16), 'mean', include_self=False))
bits(torch.ones(2, dtype=torch.float16).index_reduce(0, torch.zeros(3, dtype=torch.long), torch.tensor([float('nan'), 2., -1.], dtype=torch.float16), 'amin'))
bits(torch.zeros(3, dtype=torch.long).index_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([3, 4, -3]), 'mean', include_self=False))
""")

snip("index_reduce_errors", PRELUDE + """
x.index_reduce(0, v, s, 'sum')
x.index_reduce(0, v, s, 'max')
x.index_reduce(5, v, s, 'foo')
x.index_reduce(5, v, s, 'prod')
x.index_reduce(0, v + 4, s, 'prod')
x.index_reduce(0, v + 4, s, 'prod', include_self=False)
x.index_reduce(0, v - 4, s, 'amax', include_self=False)
x.index_reduce(0, v - 5, s, 'amax', include_self=False)
x[0].index_reduce(0, v + 4, s[:, 0], 'mean')
x.index_reduce(0, v[None], s, 'prod')
x.index_reduce(0, v.float(), s, 'prod')
x.index_reduce(0, v, s.double(), 'prod')
x.index_reduce(0, v[:3], s, 'prod')
x.index_reduce(0, v, s[:, :5], 'prod')
x.index_reduce(1, v, s, 'prod')
torch.tensor(5.).index_reduce(0, torch.tensor([0]), torch.tensor([2.]), 'prod')
torch.zeros(3, dtype=torch.bool).index_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([True, False, True]), 'amax')
""")

# ---- put -------------------------------------------------------------------------------------------------

snip("put_values", PRELUDE + "".join(
    f"bits(x.to(torch.{d}).put(torch.tensor([[3, -1, 3], [0, 23, -24]]), (s[0] * 7).to(torch.{d}), accumulate={acc}))\n"
    for d in DTYPES + ["bool"] for acc in (False, True)) + """
y = x.t()
print(y.put_(torch.tensor([1, 7, 1]), torch.tensor([1., 2., 3.]), accumulate=True) is y, y._version, y.stride())
bits(y)
bits(x)
bits(torch.put(x, torch.tensor([5, 5]), torch.tensor([1., 2.])))
bits(x.put(torch.tensor([], dtype=torch.long), torch.tensor([])))
bits(torch.zeros(0).put(torch.tensor([], dtype=torch.long), torch.tensor([])))
bits(torch.tensor(2.).put(torch.tensor([0, -1]), torch.tensor([1., 5.]), True))
bits(torch.full((2,), 1000., dtype=torch.float16).put(torch.tensor([0] * 5), torch.full((5,), 0.3, dtype=torch.float16), accumulate=True))
print(x.t().put(torch.tensor([0]), torch.tensor([1.])).stride())
""")

snip("put_errors", PRELUDE + """
x.put(torch.tensor([24]), torch.tensor([1.]))
x.put(torch.tensor([-25]), torch.tensor([1.]))
x.put(torch.tensor([1]), torch.tensor([1., 2.]))
x.put(torch.tensor([1.]), torch.tensor([1.]))
x.put(torch.tensor([1], dtype=torch.int32), torch.tensor([1.]))
x.put(torch.tensor([1]), torch.tensor([1.]).double())
torch.zeros(0).put(torch.tensor([1]), torch.tensor([1.]))
y = torch.zeros(4)
y.put_(torch.tensor([0, 1]), y[1:3])
x.put_(torch.tensor([0]), torch.tensor([1.]), accumulate=2)
w = torch.zeros(3, requires_grad=True)
w.put_(torch.tensor([0]), torch.ones(1).double())
w.scatter_reduce_(0, torch.tensor([0]), torch.ones(1).double(), 'sum')
w.index_reduce_(0, torch.tensor([0]), torch.ones(1), 'foo')
torch.zeros(3, dtype=torch.bool).index_reduce(0, torch.tensor([0, 7]), torch.tensor([True, False]), 'amax', include_self=False)
""")

# ---- gradients ---------------------------------------------------------------------------------------------

GRAD_PRELUDE = PRELUDE + """
def grads(f, *ts):
    ts = [t.detach().clone().requires_grad_() for t in ts]
    out = f(*ts)
    print(type(out.grad_fn).__name__)
    out.backward(torch.arange(float(out.numel())).reshape(out.shape).to(out.dtype) - 3)
    for t in ts:
        bits(t.grad)
x = (x * 2).round() / 2
s = (s * 2).round() / 2
x[0, 0] = 0
s[1, 1] = 0
s[2, 2] = 0
s[3, 2] = 0
"""

snip("scatter_reduce_grad", GRAD_PRELUDE + "".join(
    f"grads(lambda a, b: a.scatter_reduce(0, i, b, {r!r}, include_self={inc}), x, s)\n"
    f"grads(lambda a, b: a.clone().scatter_reduce_(1, i[:4], b[:4], {r!r}, include_self={inc}), x, s)\n"
    for r in REDUCES for inc in (True, False)) + """
grads(lambda a, b: a.scatter_reduce(0, torch.tensor([[0], [0], [1]]), b, 'amax'), torch.tensor([[2.], [1.]]), torch.tensor([[2.], [2.], [0.]]))
grads(lambda a, b: a.scatter_reduce(0, torch.tensor([0, 0, 0]), b, 'prod'), torch.tensor([2., 3.]), torch.tensor([0., 4., 5.]))
grads(lambda a, b: a.scatter_reduce(0, i, b, 'max'), x, s)
grads(lambda a, b: a.scatter_reduce(0, i, b, 'min', include_self=False), x, s)
""")

snip("index_reduce_grad", GRAD_PRELUDE + "".join(
    f"grads(lambda a, b: a.index_reduce(0, v, b, {r!r}, include_self={inc}), x, s)\n"
    f"grads(lambda a, b: a.clone().index_reduce_(1, torch.tensor([5, 0, 5]), b[:4, :3], {r!r}, include_self={inc}), x, s)\n"
    for r in REDUCES[1:] for inc in (True, False)))

snip("put_grad", GRAD_PRELUDE + """
grads(lambda a, b: a.put(torch.tensor([[3, -1], [3, 7]]), b[0, :4]), x, s)
grads(lambda a, b: a.put(torch.tensor([[3, -1], [3, 7]]), b[0, :4], accumulate=True), x, s)
grads(lambda a, b: (a * 1).put_(torch.tensor([3, 3]), b[0, :2]), x, s)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_scatter_reduce_parity(code):
    compare(code)


# ---- gradcheck (float64) and the device path ------------------------------------------------------------

GRADCHECK_CASES = [
    (f"scatter_reduce_{r}_{inc}",
     lambda a, b, r=r, inc=inc: a.scatter_reduce(0, minitorch.tensor([[2, 0, 2, 1], [1, 0, 0, 2]], device=a.device),
                                                 b[:2], r, include_self=inc))
    for r in REDUCES for inc in (True, False)
] + [
    (f"index_reduce_{r}_{inc}",
     lambda a, b, r=r, inc=inc: a.index_reduce(1, minitorch.tensor([3, 0, 3], device=a.device), b[:, :3], r,
                                               include_self=inc))
    for r in REDUCES[1:] for inc in (True, False)
] + [
    ("put", lambda a, b: a.put(minitorch.tensor([5, -1, 0], device=a.device), b[0, :3])),
    ("put_accumulate", lambda a, b: a.put(minitorch.tensor([5, 5, 0], device=a.device), b[0, :3], accumulate=True)),
]


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    # distinct values: amax/amin ties and zeros in prod are not differentiable points
    a = (minitorch.randperm(12).to(minitorch.float64) + 1).reshape(3, 4).to(device).requires_grad_()
    b = (minitorch.randperm(12).to(minitorch.float64) + 0.5).reshape(3, 4).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (a, b))


DEVICE_CASES = [
    (f"scatter_reduce_{r}", lambda x, s, i, v, r=r: x.scatter_reduce(0, i, s, r)) for r in REDUCES
] + [
    (f"scatter_reduce_{r}_exclude", lambda x, s, i, v, r=r: x.t().scatter_reduce(1, i.t(), s.t(), r,
                                                                               include_self=False))
    for r in REDUCES
] + [
    (f"index_reduce_{r}", lambda x, s, i, v, r=r: x.index_reduce(0, v, s, r, include_self=r != "mean"))
    for r in REDUCES[1:]
] + [
    ("put", lambda x, s, i, v: x.t().put(i[:2], s[:2])),
    ("put_accumulate", lambda x, s, i, v: x.clone().put_(i[:2] - 7, s[:2], accumulate=True)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,fn", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_device_matches_cpu(device, name, fn, dtype):
    """Random values, repeated indices (combined in the CPU's order on every backend), non-contiguous operands."""
    minitorch.manual_seed(1)
    dt = getattr(minitorch, dtype)
    x = (minitorch.randn(7, 9) * 4).to(dt)
    s = (minitorch.randn(12, 9) * 4).to(dt)
    i = minitorch.randint(0, 7, (12, 9))
    v = minitorch.randint(0, 7, (12,))
    expected = fn(x, s, i, v)
    if (dtype in ("float16", "bfloat16") and name in ("index_reduce_prod", "index_reduce_mean", "put_accumulate")
            and device != "cpu" and not os.environ.get("MINITORCH_SIMULATE_GPU")):
        # each step rounded to the 16-bit dtype, as torch's CPU loop: a CUDA device has no such kernel
        with pytest.raises(RuntimeError):
            fn(x.to(device), s.to(device), i.to(device), v.to(device))
        return
    got = fn(x.to(device), s.to(device), i.to(device), v.to(device))
    assert got.device.type == device and got.dtype == expected.dtype
    assert got.cpu().tolist() == expected.tolist()


def test_bad_index_raises_on_the_device(device):
    x = minitorch.zeros(2, 3, device=device)
    with pytest.raises(RuntimeError, match="^index 3 is out of bounds for dimension 1 with size 3$"):
        x.scatter_reduce_(1, minitorch.tensor([[0, 3]], device=device), minitorch.ones(1, 2, device=device), "sum")
    with pytest.raises(IndexError, match="^index out of range in self$"):
        x.index_reduce_(0, minitorch.tensor([2], device=device), minitorch.ones(1, 3, device=device), "prod")
    with pytest.raises(IndexError, match="^out of range: tried to access index 6 on a tensor of 6 elements.$"):
        x.put_(minitorch.tensor([6], device=device), minitorch.ones(1, device=device))
    assert x.cpu().tolist() == [[0.0] * 3] * 2
