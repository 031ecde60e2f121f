"""softmax, log_softmax and the reductions a learner meets after sum and mean, against torch: values
(torch's bits where minitorch follows torch's CPU kernel, within the last bits elsewhere), dtypes,
errors, grad_fn names and gradients; gradcheck in float64 on each device."""

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


# ---- logsumexp, amax/amin, var/std, var_mean/std_mean, norm and linalg.vector_norm -------------------

STATS_HEAD = "def t(f):\n    try:\n        r = f()\n        print(repr(r))\n    except Exception as e:\n        print(type(e).__name__ + ':', e)\nx = torch.tensor([[1.,2,3],[4,0,-1]], requires_grad=True)\n"

snip("stats_forms", STATS_HEAD + "for f in (lambda: torch.logsumexp(x,1), lambda: torch.logsumexp(x,(0,1)), lambda: torch.amax(x), lambda: torch.amax(x,0), lambda: x.amin(1,True),\n          lambda: torch.var(x), lambda: torch.var(x,0), lambda: torch.var(x,0,unbiased=False), lambda: torch.var(x, correction=0), lambda: x.std(1), lambda: torch.std(x, unbiased=False),\n          lambda: torch.var_mean(x,1), lambda: torch.std_mean(x), lambda: torch.norm(x), lambda: x.norm(1), lambda: torch.norm(x, float('inf'), 1), lambda: torch.linalg.vector_norm(x), lambda: torch.linalg.vector_norm(x, 1, 0), lambda: torch.norm(x, p='fro', dim=(0,1))):\n  t(f)\n")
snip("stats_edge_cases_and_errors", STATS_HEAD + "t(lambda: torch.logsumexp(torch.tensor([1,2]), 0))\nt(lambda: torch.logsumexp(torch.tensor([1,2])))\nt(lambda: torch.logsumexp(torch.empty(0,2), 0))\nt(lambda: torch.logsumexp(torch.tensor([float('inf'), 1.]), 0))\nt(lambda: torch.logsumexp(torch.tensor([-float('inf'), -float('inf')]), 0))\nt(lambda: torch.amax(torch.empty(0,2), 0))\nt(lambda: torch.amax(torch.empty(0,2), 1))\nt(lambda: torch.amax(torch.empty(0,2)))\nt(lambda: torch.amax(torch.tensor([1,5]), 0))\nt(lambda: torch.amax(torch.tensor([True,False])))\nt(lambda: torch.amax(x, (0,0)))\nt(lambda: torch.var(torch.tensor([1,2])))\nt(lambda: torch.var_mean(torch.tensor([1,2])))\nt(lambda: torch.var(torch.tensor([1.])))\nt(lambda: torch.std_mean(torch.tensor([1.])))\nt(lambda: torch.var(torch.empty(0)))\nt(lambda: torch.var(torch.empty(0,3), 1))\nt(lambda: torch.var(x, 0, unbiased=True, correction=1))\nt(lambda: torch.var(x, correction=2.5))\nt(lambda: torch.var(x, 1, correction=3))\nt(lambda: torch.var(torch.ones(2,3), ()))\nt(lambda: torch.var_mean(torch.ones(2,3),1, keepdim=True))\nt(lambda: torch.norm(torch.tensor([1,2])))\nt(lambda: torch.linalg.vector_norm(torch.tensor([1,2])))\nt(lambda: torch.norm(x, 0))\nt(lambda: torch.norm(x, 3, 1))\nt(lambda: torch.norm(x, -float('inf')))\nt(lambda: torch.linalg.vector_norm(x, dtype=torch.float64))\nt(lambda: torch.linalg.vector_norm(torch.empty(0,3), float('inf')))\nt(lambda: torch.linalg.vector_norm(torch.empty(0,3), float('inf'), 1))\nt(lambda: torch.linalg.vector_norm(torch.ones(2), 2, dtype=torch.int64))\nt(lambda: torch.linalg.vector_norm(torch.ones(2,dtype=torch.float64), 2, dtype=torch.float32))\nt(lambda: torch.linalg.vector_norm(torch.empty(2,0), -1, 1))\nt(lambda: torch.linalg.vector_norm(torch.empty(2,0), -0.5))\nt(lambda: torch.linalg.vector_norm(1))\nt(lambda: torch.linalg.vector_norm(torch.ones(2), 'fro'))\nt(lambda: torch.norm(torch.ones(2,3), dim=1, p=2))\nt(lambda: torch.ones(2,3).norm(dim=1, p=2, keepdim=True))\nt(lambda: torch.ones(2,3).norm(2, 1, True, torch.float64))\nt(lambda: torch.var(torch.ones(1), 'x', 'y'))\nt(lambda: torch.var_mean(torch.ones(1), 'x', 'y'))\nt(lambda: torch.logsumexp(torch.ones(1), 'x'))\n")
snip("stats_grads_and_nodes", STATS_HEAD + 'for name, f in [("lse", lambda a: torch.logsumexp(a, 1)), ("lse_k", lambda a: torch.logsumexp(a, (0,), True)), ("amax", lambda a: a.amax()), ("amin1", lambda a: a.amin(1)),\n                ("var", lambda a: a.var()), ("var1", lambda a: a.var(1)), ("var0k", lambda a: a.var(0, keepdim=True, correction=0)), ("std", lambda a: a.std()), ("std1", lambda a: torch.std(a, 1, unbiased=False)),\n                ("vm", lambda a: torch.var_mean(a, 1)[0] * 2 + torch.var_mean(a, 1)[1]), ("sm", lambda a: sum(torch.std_mean(a))),\n                ("vm_v", lambda a: torch.var_mean(a)[0]), ("vm_m", lambda a: torch.var_mean(a, 0)[1]),\n                ("n2", lambda a: a.norm()), ("n1", lambda a: a.norm(1, 1)), ("ninf", lambda a: a.norm(float(\'inf\'), 0)), ("n3", lambda a: torch.linalg.vector_norm(a, 3, 1)),\n                ("n05", lambda a: torch.linalg.vector_norm(a, 0.5)), ("n15", lambda a: torch.linalg.vector_norm(a, 1.5, 0, True)), ("n0", lambda a: torch.linalg.vector_norm(a, 0)),\n                ("nd", lambda a: torch.linalg.vector_norm(a, dtype=torch.float64))]:\n    a = torch.tensor([[1.,2,3,-2],[4,0,-1,4],[0.5,0.5,-3,2]], requires_grad=True)\n    y = f(a)\n    w = torch.arange(float(y.numel())).reshape(y.shape).to(y.dtype) + 1\n    (y * w).sum().backward()\n    print(name, y.grad_fn.name(), None if a.grad is None else [[round(v, 5) for v in r] for r in a.grad.tolist()])\n')

snip("stats_argument_forms", STATS_HEAD + """
t(lambda: x.amax(None))
t(lambda: x.amin(dim=None, keepdim=True))
t(lambda: torch.amax(x, 'x'))
t(lambda: x.norm('abc'))
t(lambda: x.norm(1j))
t(lambda: torch.linalg.vector_norm(x, 2j))
t(lambda: torch.norm(x, p=None))
""")

snip("stats_warnings", """
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(torch.var(torch.tensor([1.0])), torch.std(torch.tensor(2.0)), torch.std_mean(torch.tensor([1.0])))
    print(torch.var(torch.empty(0, 3), 1), torch.var(torch.ones(2, 3), 1, correction=3))
    print(torch.var(torch.ones(2, 3), 1, correction=2))
# minitorch's warnings leave out torch's C++ source location
print([(i.category.__name__, str(i.message).split(" (Triggered internally")[0]) for i in w])
""")


# ---- cumsum, cumprod, prod ----------------------------------------------------------------------------

snip("scan_forms_and_errors", STATS_HEAD + 't(lambda: torch.cumsum(x, 1)); t(lambda: x.cumsum(0)); t(lambda: torch.cumprod(x, 1)); t(lambda: x.cumprod(-2))\nt(lambda: torch.prod(x)); t(lambda: x.prod(1)); t(lambda: x.prod(0, True)); t(lambda: torch.prod(x, 1, dtype=torch.float64))\nt(lambda: torch.cumsum(torch.tensor([1,2,3]), 0)); t(lambda: torch.cumsum(torch.tensor([True,True]), 0)); t(lambda: torch.cumsum(torch.tensor([1,2,3], dtype=torch.int32), 0))\nt(lambda: torch.cumsum(torch.tensor([1,2,3], dtype=torch.int32), 0, dtype=torch.int32)); t(lambda: torch.cumprod(torch.tensor([1.5,2,3]), 0, dtype=torch.int64))\nt(lambda: torch.prod(torch.tensor([1,2,3], dtype=torch.int32))); t(lambda: torch.prod(torch.tensor([True, False]))); t(lambda: torch.prod(torch.empty(0))); t(lambda: torch.prod(torch.empty(2,0), 1))\nt(lambda: torch.cumsum(torch.tensor(3.), 0)); t(lambda: torch.prod(torch.tensor(3.), 0)); t(lambda: torch.cumsum(torch.empty(0,3), 1))\nt(lambda: torch.cumsum(x, 2)); t(lambda: torch.prod(x, 5)); t(lambda: torch.cumsum(x)); t(lambda: torch.cumsum(torch.ones(3,4).t(), 0).stride())\nt(lambda: torch.prod(torch.tensor([2**40, 2**40]))); t(lambda: torch.cumprod(torch.tensor([2**40, 2**40, 3]), 0))\n')
snip("scan_grads_with_zeros", STATS_HEAD + 'for name, f in [("cumsum", lambda a: a.cumsum(1)), ("cumsum0", lambda a: torch.cumsum(a, 0, dtype=torch.float64)), ("cumprod", lambda a: a.cumprod(1)), ("cumprod0", lambda a: a.cumprod(0)),\n                ("prod", lambda a: a.prod()), ("prod1", lambda a: a.prod(1)), ("prod0k", lambda a: a.prod(0, keepdim=True))]:\n    for vals in ([[1.,2,3,-2],[4,0.5,-1,4],[0.5,0.5,-3,2]], [[1.,0,3,-2],[4,0,-1,0],[0.5,0.5,0,2]], [[1.,0,3,0],[4,2,-1,1],[0.5,0.5,3,2]]):\n        a = torch.tensor(vals, requires_grad=True)\n        y = f(a)\n        w = torch.arange(float(y.numel())).reshape(y.shape).to(y.dtype) + 1\n        (y * w).sum().backward()\n        print(name, y.grad_fn.name(), None if a.grad is None else [[round(v, 5) for v in r] for r in a.grad.tolist()])\n')

snip("scan_double_backward", """
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.5, -1.0]], requires_grad=True)
(g,) = torch.autograd.grad((x.prod(1) * torch.tensor([1.0, 2.0])).sum(), x, create_graph=True)
print(g, g.grad_fn is not None)
g.sum().backward()
print(x.grad)
""")


# ---- sort, argsort, topk --------------------------------------------------------------------------------

snip("sort_topk", STATS_HEAD.replace("x = torch.tensor([[1.,2,3],[4,0,-1]], requires_grad=True)",
                                     "x = torch.tensor([[3.,1,2,1],[0,-1,5,float('nan')]], requires_grad=True)") + "t(lambda: torch.sort(x)); t(lambda: x.sort(0, True)); t(lambda: torch.sort(x, stable=True, descending=True)); t(lambda: torch.argsort(x)); t(lambda: x.argsort(0, descending=True)); t(lambda: torch.argsort(x, stable=True, dim=1))\nt(lambda: torch.topk(x, 2)); t(lambda: x.topk(1, 0)); t(lambda: torch.topk(x, 3, largest=False))\nt(lambda: torch.topk(x, 5)); t(lambda: torch.topk(x, -1)); t(lambda: torch.topk(x, 0)); t(lambda: torch.topk(x, 2, 3)); t(lambda: torch.sort(x, 2))\nt(lambda: torch.sort(torch.tensor(3.))); t(lambda: torch.topk(torch.tensor(3.), 1)); t(lambda: torch.topk(torch.tensor(3.), 2)); t(lambda: torch.sort(torch.empty(0,3)))\nt(lambda: torch.sort(torch.tensor([True,False,True]))); t(lambda: torch.topk(torch.tensor([True,False,True]), 2)); t(lambda: torch.sort(torch.tensor([3,1,2],dtype=torch.int32), descending=True))\nt(lambda: torch.sort(x)[0].grad_fn.name()); t(lambda: torch.topk(x,2).values.grad_fn.name()); t(lambda: torch.sort(x).indices.requires_grad)\nt(lambda: torch.sort(x, stable=None).values.grad_fn.name())\nt(lambda: torch.sort(torch.ones(3,4).t(), 0).values.stride()); t(lambda: torch.sort(torch.ones(3,4).t(), 0).indices.stride())\nt(lambda: torch.topk(torch.ones(3,4).t(), 2, 0).values.stride())\nt(lambda: torch.topk(torch.ones(3,4), 2, 0).values.stride())\nt(lambda: torch.sort(torch.tensor([2, 1, 2, 1, 2, 0]), stable=True))\nt(lambda: torch.sort(torch.tensor([2., 1, 2, 1, 2, 0]), descending=True, stable=True))\nt(lambda: type(torch.sort(x)).__name__); t(lambda: torch.return_types.sort.__module__); t(lambda: list(torch.topk(x, 1)._fields) if hasattr(torch.topk(x,1), '_fields') else torch.topk(x,1).values)\nv, i = torch.sort(torch.tensor([3, 1, 2])); print(v, i)\n")


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


STATS_OPS = [
    ("logsumexp", lambda m, x: m.logsumexp(x, 1)),
    ("logsumexp_all", lambda m, x: m.logsumexp(x, (0, 1, 2))),
    ("amax", lambda m, x: m.amax(x, (0, 2))),
    ("amin", lambda m, x: x.amin(1, keepdim=True)),
    ("var", lambda m, x: m.var(x)),
    ("var_dim", lambda m, x: m.var(x, 1)),
    ("std_dim", lambda m, x: x.std((0, 2), correction=0)),
    ("var_mean", lambda m, x: m.var_mean(x, -1)[0]),
    ("var_mean_mean", lambda m, x: m.var_mean(x, -1)[1]),
    ("norm", lambda m, x: m.norm(x)),
    ("norm_1", lambda m, x: x.norm(1, 2)),
    ("norm_inf", lambda m, x: m.linalg.vector_norm(x, float("inf"), 0)),
    ("norm_3", lambda m, x: m.linalg.vector_norm(x, 3, (1, 2))),
]


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("name,fn", STATS_OPS, ids=[c[0] for c in STATS_OPS])
def test_stats_values(device, dtype_name, name, fn):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(2)
    for t in (torch.randn(5, 7, 33, generator=g, dtype=getattr(torch, dtype_name)) * 3,
              torch.randn(33, 7, 5, generator=g, dtype=getattr(torch, dtype_name)).transpose(0, 2)):
        x = minitorch.tensor(t.transpose(0, 2).contiguous().tolist(), dtype=getattr(minitorch, dtype_name),
                             device=device)
        x = x.transpose(0, 2) if not t.is_contiguous() else minitorch.tensor(t.tolist(), dtype=x.dtype, device=device)
        _close(fn(minitorch, x), fn(torch, t), torch, dtype_name)


# ---- linalg.vector_norm: torch's CPU kernel, bit for bit -------------------------------------------------

# row lengths around torch's 32-byte steps (8 floats, 4 doubles, 16 bfloat16) and their tails
NORM_LENGTHS = list(range(1, 41)) + [47, 63, 64, 65, 77, 127, 128, 129, 255, 300]

NORM_FORMS = [
    ("rows", lambda m, a: m.linalg.vector_norm(a, dim=-1)),
    ("cols", lambda m, a: m.linalg.vector_norm(a, dim=0)),
    ("all", lambda m, a: m.linalg.vector_norm(a)),
    ("transposed_all", lambda m, a: m.linalg.vector_norm(a.t())),
    ("transposed_rows_keepdim", lambda m, a: m.linalg.vector_norm(a.t(), dim=-1, keepdim=True)),
    ("transposed_cols", lambda m, a: m.linalg.vector_norm(a.t(), 2, 0)),
    ("strided_rows", lambda m, a: m.linalg.vector_norm(a[:, ::2], dim=1)),
    ("strided_all", lambda m, a: m.linalg.vector_norm(a[:, ::2])),
    ("method", lambda m, a: a.norm(dim=1, keepdim=True)),
    ("float64", lambda m, a: m.linalg.vector_norm(a, dim=1, dtype=m.float64)),
    ("p1", lambda m, a: m.linalg.vector_norm(a, 1, -1)),
    ("p3_cols", lambda m, a: m.norm(a, 3, 0)),
    ("p0.5", lambda m, a: m.linalg.vector_norm(a, 0.5, 1)),
    ("p-1.5", lambda m, a: m.linalg.vector_norm(a, -1.5)),
    ("p0", lambda m, a: m.linalg.vector_norm(a, 0, 1)),
]


def _skip_real_gpu(device, what):
    """torch's CPU kernel for `what` (the norm, softmax) is the host kernels': the CPU's and the simulated
    GPU's. A real CUDA device composes it from other ops (torch's CUDA kernel has an order of its own)."""
    if device == "cuda" and not minitorch._C._cuda_isSimulated():
        pytest.skip("a real CUDA device's %s is not torch's CPU kernel's" % what)


def _norm_input(t, device):
    return minitorch.tensor(t.tolist(), dtype=getattr(minitorch, str(t.dtype).split(".")[1]), device=device)


def _same_bits(got, want):
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert tuple(got.shape) == tuple(want.shape)
    assert got.cpu().tolist() == want.tolist()


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "bfloat16", "float16"])
def test_vector_norm_bits_are_torchs(device, dtype_name):
    """linalg.vector_norm and norm give torch's CPU bits: a 2-norm over a contiguous last dim in torch's
    32-byte vector lanes, its tail's fused multiply-adds included; other layouts and orders (float16
    always) as torch's sequential loop; float16 and bfloat16 accumulate in float32."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "norm")
    g = torch.Generator().manual_seed(6)
    for n in NORM_LENGTHS:
        t = (torch.randn(7, n, generator=g, dtype=torch.float64) * 3).to(getattr(torch, dtype_name))
        x = _norm_input(t, device)
        for name, fn in NORM_FORMS:
            if name == "float64" and dtype_name == "float64":
                continue
            _same_bits(fn(minitorch, x), fn(torch, t))
        if dtype_name in ("bfloat16", "float16"):
            # converted to float32 first, so a contiguous row takes float32's vectors
            _same_bits(minitorch.linalg.vector_norm(x, dim=1, dtype=minitorch.float32),
                       torch.linalg.vector_norm(t, dim=1, dtype=torch.float32))
    t = torch.randn(5, 6, 37, generator=g, dtype=torch.float64).to(getattr(torch, dtype_name))
    x = _norm_input(t, device)
    for dims in [(0,), (1,), (2,), (0, 1), (1, 2), (0, 2), None]:
        for keepdim in (False, True):
            _same_bits(minitorch.linalg.vector_norm(x, dim=dims, keepdim=keepdim),
                       torch.linalg.vector_norm(t, dim=dims, keepdim=keepdim))
            _same_bits(minitorch.linalg.vector_norm(x.permute(2, 0, 1), dim=dims, keepdim=keepdim),
                       torch.linalg.vector_norm(t.permute(2, 0, 1), dim=dims, keepdim=keepdim))


def test_vector_norm_of_one_element_is_abs(device):
    """Reducing only dims of size 1 (or a 0-d tensor) gives torch's abs(x), whose square would under- or
    overflow; the order 0 gives x != 0."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    t = torch.tensor([[1e-30], [-3e-39], [1e30], [0.0]])
    x = _norm_input(t, device)
    for fn in (lambda m, a: m.linalg.vector_norm(a, dim=1), lambda m, a: m.linalg.vector_norm(a, 3, 1, True),
               lambda m, a: m.linalg.vector_norm(a[2:3]), lambda m, a: a[0, 0].norm(),
               lambda m, a: m.linalg.vector_norm(a, 0, -1), lambda m, a: m.linalg.vector_norm(a, 2, 1, dtype=m.float64),
               lambda m, a: m.linalg.vector_norm(a.t(), 2, 0, True).stride()):
        got, want = fn(minitorch, x), fn(torch, t)
        if isinstance(want, tuple):
            assert got == want
        else:
            _same_bits(got, want)


def test_vector_norm_bits_over_threads(device):
    """One norm over 32768+ elements of a layout torch reduces element by element is summed in its threads'
    pieces: the same thread count gives torch's bits."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "norm")
    if torch.get_num_threads() != minitorch.get_num_threads():
        pytest.skip("torch and minitorch use different thread counts here")
    g = torch.Generator().manual_seed(7)
    for dtype_name in ("float32", "float64"):
        t = torch.randn(300, 500, generator=g, dtype=getattr(torch, dtype_name))
        x = minitorch.from_numpy(t.numpy()).to(device)
        for p in (2, 1, 3):
            _same_bits(minitorch.linalg.vector_norm(x[:, ::3], p), torch.linalg.vector_norm(t[:, ::3], p))
            _same_bits(minitorch.linalg.vector_norm(x, p, 0), torch.linalg.vector_norm(t, p, 0))
        _same_bits(minitorch.linalg.vector_norm(x), torch.linalg.vector_norm(t))


def test_norm_users_bits_are_torchs(device):
    """What is built on the norms inherits their bits: F.normalize, cosine_similarity, pairwise_distance,
    renorm, clip_grad_norm_'s total norm and the clipped gradients, Embedding's max_norm renormalisation."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "norm")
    g = torch.Generator().manual_seed(8)
    t = torch.randn(9, 37, generator=g)
    x = _norm_input(t, device)
    for dim in (1, 0, -1):
        _same_bits(minitorch.nn.functional.normalize(x, dim=dim), torch.nn.functional.normalize(t, dim=dim))
    _same_bits(minitorch.nn.functional.normalize(x, p=1.0), torch.nn.functional.normalize(t, p=1.0))
    t2 = torch.randn(9, 37, generator=g)
    x2 = _norm_input(t2, device)
    _same_bits(minitorch.nn.functional.cosine_similarity(x, x2), torch.nn.functional.cosine_similarity(t, t2))
    for p in (2.0, 1.0, 3.0):
        _same_bits(minitorch.nn.functional.pairwise_distance(x, x2, p), torch.nn.functional.pairwise_distance(t, t2, p))
        _same_bits(minitorch.renorm(x, p, 0, 2.0), torch.renorm(t, p, 0, 2.0))
    for norm_type in (2.0, 1.0, 3.0):
        grads = [torch.randn(*s, generator=g) for s in [(33, 17), (17,), (5, 3, 7), (1000,)]]
        params_t = [torch.nn.Parameter(torch.zeros(gr.shape)) for gr in grads]
        params_m = [minitorch.nn.Parameter(minitorch.zeros(*gr.shape, device=device)) for gr in grads]
        for pt, pm, gr in zip(params_t, params_m, grads):
            pt.grad = gr.clone()
            pm.grad = _norm_input(gr, device)
        _same_bits(minitorch.nn.utils.clip_grad_norm_(params_m, 0.5, norm_type),
                   torch.nn.utils.clip_grad_norm_(params_t, 0.5, norm_type))
        for pt, pm in zip(params_t, params_m):
            _same_bits(pm.grad, pt.grad)
    w = torch.randn(40, 37, generator=g) * 2
    idx = torch.tensor([[3, 9, 9, 0], [39, 17, 3, 21]])
    wm = _norm_input(w, device)
    want = torch.nn.functional.embedding(idx, w, max_norm=1.0)     # renormalises w's rows in place
    _same_bits(minitorch.nn.functional.embedding(_norm_input(idx, device), wm, max_norm=1.0), want)
    _same_bits(wm, w)


NORM_UNDER_CAPABILITY = """
import torch, minitorch
g = torch.Generator().manual_seed(9)
for dtype in (torch.float32, torch.float64, torch.bfloat16):
    for n in list(range(1, 41)) + [77, 300]:
        t = torch.randn(7, n, generator=g).to(dtype)
        x = minitorch.tensor(t.tolist(), dtype=getattr(minitorch, str(dtype)[6:]))
        for dim in (1, 0):
            assert minitorch.linalg.vector_norm(x, dim=dim).tolist() == torch.linalg.vector_norm(t, dim=dim).tolist()
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_vector_norm_bits_under_each_capability(capability):
    """torch's portable build (ATEN_CPU_CAPABILITY=default) fuses none of the norm's multiply-adds; minitorch
    reads the same variable, so the bits stay torch's."""
    import subprocess

    if import_torch() is None:
        pytest.skip("torch is not installed")
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", NORM_UNDER_CAPABILITY], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == capability.upper()


# ---- softmax and log_softmax over the last dim: torch's CPU kernel, bit for bit -----------------------------

# around torch's vectors (16 and 8 float32 lanes, 8 and 4 float64) and their tails, and longer rows
SOFTMAX_LENGTHS = list(range(1, 41)) + [47, 63, 64, 65, 77, 127, 128, 129, 255, 300, 1000, 4099]


def _softmax_bits(got, want):
    """got (minitorch) and want (torch) hold the same bits, a NaN wherever the other has one."""
    import numpy as np

    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert tuple(got.shape) == tuple(want.shape)
    a, b = got.cpu().numpy(), want.numpy()
    view = np.uint32 if a.dtype == np.float32 else np.uint64
    nan = np.isnan(b)
    assert (np.isnan(a) == nan).all()
    assert (a.view(view)[~nan] == b.view(view)[~nan]).all()


SOFTMAX_FORMS = [
    ("function", lambda m, op, a: getattr(m, op)(a, -1)),
    ("method", lambda m, op, a: getattr(a, op)(dim=1)),
    ("functional", lambda m, op, a: getattr(m.nn.functional, op)(a, dim=-1)),
    ("module", lambda m, op, a: (m.nn.LogSoftmax(1) if op == "log_softmax" else m.nn.Softmax(1))(a)),
    ("transposed", lambda m, op, a: getattr(m, op)(a.t().contiguous().t(), 1)),
    ("strided", lambda m, op, a: getattr(m, op)(a[:, ::2], 1)),
    ("0-d", lambda m, op, a: getattr(m, op)(a[0, 0], 0)),
]


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_last_dim_bits_are_torchs(device, dtype_name, op):
    """softmax and log_softmax over the last dim give torch's CPU bits for any row length: its max and sum
    in its vector lanes (the tails' elements too) and their order of adding the lanes, SLEEF's exp and
    log, log_softmax's (x - max) - log(sum) and softmax's e * (1 / sum); strided inputs as a contiguous
    copy."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    g = torch.Generator().manual_seed(10)
    for n in SOFTMAX_LENGTHS:
        t = torch.randn(5, n, generator=g, dtype=getattr(torch, dtype_name)) * 4
        x = _norm_input(t, device)
        for name, fn in SOFTMAX_FORMS:
            if name == "strided" and n < 2:
                continue
            _softmax_bits(fn(minitorch, op, x), fn(torch, op, t))
    # cross_entropy's log_softmax over the classes (each sample's loss: the mean's sum is nll_loss's)
    t = torch.randn(64, 10, generator=g, dtype=getattr(torch, dtype_name)) * 3
    target = torch.randint(0, 10, (64,), generator=g)
    _softmax_bits(minitorch.nn.functional.cross_entropy(_norm_input(t, device), _norm_input(target, device),
                                                        reduction="none"),
                  torch.nn.functional.cross_entropy(t, target, reduction="none"))


def _r16_bits(got, want):
    """got (minitorch) and want (torch), float16 or bfloat16, hold the same bits, a NaN wherever the other
    has one (torch's vector conversions may keep a NaN's payload)."""
    torch = import_torch()
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert tuple(got.shape) == tuple(want.shape)
    nan = torch.isnan(want)
    assert minitorch.isnan(got).cpu().tolist() == nan.tolist()
    got_bits = torch.tensor(got.cpu().view(minitorch.int16).tolist(), dtype=torch.int16).reshape(want.shape)
    assert (got_bits[~nan] == want.view(torch.int16)[~nan]).all()


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_last_dim_16bit_bits_are_torchs(device, dtype_name, op):
    """float16 and bfloat16 over the last dim: torch's reduced-precision kernels, bit for bit. softmax in
    float32 (the max and the sum in float vectors, the tail's exp the C library's), rounded once;
    log_softmax rounds the sum and its log to the dtype on the way, as torch's buffers of the dtype do."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    g = torch.Generator().manual_seed(14)
    dtype = getattr(torch, dtype_name)
    for n in SOFTMAX_LENGTHS:
        t = (torch.randn(5, n, generator=g) * 4).to(dtype)
        if n > 2:
            t[1, n // 2] = -float("inf")
            t[2, 1] = float("nan")
            t[3] = -float("inf")
        x = _norm_input(t, device)
        for name, fn in SOFTMAX_FORMS:
            if name == "strided" and n < 2:
                continue
            _r16_bits(fn(minitorch, op, x), fn(torch, op, t))


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_last_dim_grads_are_torchs(device, dtype_name, op):
    """The backward passes over the last dim are torch's CPU kernel's bits: softmax's (g - sum(g * y)) * y
    with the sum in torch's lanes, log_softmax's g - exp(y) * sum(g) with SLEEF's exp, the product fused
    into the subtraction (16-bit dtypes in float32, rounded once); strided and expanded gradients too."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    g = torch.Generator().manual_seed(15)
    dtype = getattr(torch, dtype_name)
    same = _r16_bits if dtype.itemsize == 2 else _softmax_bits
    for n in SOFTMAX_LENGTHS:
        t = (torch.randn(4, n, generator=g) * 4).to(dtype)
        w = torch.randn(4, 2 * n, generator=g).to(dtype)[:, ::2]
        t.requires_grad_()
        (getattr(torch, op)(t, -1) * w).sum().backward()
        x = _norm_input(t.detach(), device).requires_grad_()
        (getattr(minitorch, op)(x, -1) * _norm_input(w.contiguous(), device)[:, :]).sum().backward()
        same(x.grad, t.grad)
        t.grad = None
        getattr(torch, op)(t.t().contiguous().t(), 1).sum().backward()
        x.grad = None
        getattr(minitorch, op)(x.t().contiguous().t(), 1).sum().backward()
        same(x.grad, t.grad)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_last_dim_specials(device, dtype_name, op):
    """Rows with inf, -inf and NaN, rows of -inf only, huge and tiny values: torch's values (a NaN where
    torch has one; the zeros' signs too)."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    inf, nan = float("inf"), float("nan")
    g = torch.Generator().manual_seed(11)
    for n in (1, 2, 3, 5, 8, 16, 17, 33):
        base = torch.randn(n, generator=g, dtype=torch.float64) * 4
        rows = [base.clone() for _ in range(6)]
        rows[0][n // 2] = inf
        rows[1][n - 1] = -inf
        rows[2][0] = nan
        rows[3][:] = -inf
        rows[4][:] = inf
        rows[5] = base * 1e30
        rows += [torch.zeros(n), -torch.zeros(n), torch.tensor([1e-40, -3e38] * n)[:n], base * 1e-30]
        t = torch.stack(rows).to(getattr(torch, dtype_name))
        _softmax_bits(getattr(minitorch, op)(_norm_input(t, device), -1), getattr(torch, op)(t, -1))


def test_softmax_last_dim_bits_over_threads(device):
    """Rows are split among torch's threads whole, so the bits do not depend on the thread count."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    before = minitorch.get_num_threads(), torch.get_num_threads()
    g = torch.Generator().manual_seed(12)
    try:
        for threads in (2, 3):
            minitorch.set_num_threads(threads)
            torch.set_num_threads(threads)
            for dtype in (torch.float32, torch.float64):
                for shape in ((3000, 37), (40, 5001)):
                    t = torch.randn(*shape, generator=g, dtype=dtype) * 5
                    x = minitorch.from_numpy(t.numpy()).to(device)
                    for op in ("softmax", "log_softmax"):
                        _softmax_bits(getattr(minitorch, op)(x, 1), getattr(torch, op)(t, 1))
    finally:
        minitorch.set_num_threads(before[0])
        torch.set_num_threads(before[1])


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16"])
def test_softmax_other_dim_bits_are_torchs(device, dtype_name):
    """Over a dim other than the last, softmax and log_softmax (every floating dtype) and both backward
    passes are torch's bits: softmax's columns in vectors within torch's
    per-thread ranges (the rest one by one with the C library's exp), log_softmax's and the backward
    passes' chunks of the inner columns; for 1, 2 and 3 threads, -inf and NaN among the values, strided
    inputs."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    _skip_real_gpu(device, "softmax")
    before = minitorch.get_num_threads(), torch.get_num_threads()
    g = torch.Generator().manual_seed(16)
    dtype = getattr(torch, dtype_name)
    same = _r16_bits if dtype.itemsize == 2 else _softmax_bits
    try:
        for threads in (1, 2, 3):
            minitorch.set_num_threads(threads)
            torch.set_num_threads(threads)
            for shape, dim in (((5, 7, 33), 1), ((5, 7, 33), 0), ((300, 3), 0), ((2, 3, 4, 5), 1), ((4, 1, 3), 1),
                               ((2, 40, 2000), 1), ((1, 5, 1), 1), ((1000, 31), 0), ((3, 257, 19), -2)):
                t = (torch.randn(*shape, generator=g) * 4).to(dtype)
                w = torch.randn(*shape, generator=g).to(dtype)
                x = _norm_input(t, device)
                ops = ("softmax", "log_softmax")
                for op in ops:
                    tg, xg = t.clone().requires_grad_(), x.detach().requires_grad_()
                    (getattr(torch, op)(tg, dim) * w).sum().backward()
                    (getattr(minitorch, op)(xg, dim) * _norm_input(w, device)).sum().backward()
                    same(xg.grad, tg.grad)
                if t.numel() > 10:
                    t.view(-1)[3] = -float("inf")
                    t.view(-1)[7] = float("nan")
                    x = _norm_input(t, device)
                for op in ops:
                    same(getattr(minitorch, op)(x, dim), getattr(torch, op)(t, dim))
                    same(getattr(minitorch, op)(x.transpose(0, -1), dim),
                         getattr(torch, op)(t.transpose(0, -1), dim))
    finally:
        minitorch.set_num_threads(before[0])
        torch.set_num_threads(before[1])


SOFTMAX_UNDER_CAPABILITY = """
import numpy as np, torch, minitorch
g = torch.Generator().manual_seed(13)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for n in list(range(1, 41)) + [77, 300, 4099]:
        t = (torch.randn(7, n, generator=g) * 4).to(dtype)
        if dtype.itemsize == 2:
            x = minitorch.from_numpy(t.view(torch.int16).numpy()).view(getattr(minitorch, str(dtype)[6:]))
        else:
            x = minitorch.from_numpy(t.numpy())
        for op in ("softmax", "log_softmax"):
            if dtype.itemsize > 2 and n > 1:
                # another dim: torch's kernel for it, in vectors of this capability's lanes
                got, want = getattr(minitorch, op)(x.t(), 0).numpy(), getattr(torch, op)(t.t(), 0).numpy()
                assert (got.view(np.uint8) == want.view(np.uint8)).all(), (dtype, n, op, 0)
            got = getattr(minitorch, op)(x, -1)
            want = getattr(torch, op)(t, -1)
            # the backward pass, from the result as the gradient
            xg, tg = x.detach().requires_grad_(), t.detach().requires_grad_()
            getattr(minitorch, op)(xg, -1).backward(got.detach())
            getattr(torch, op)(tg, -1).backward(want.detach())
            for got, want in ((got, want), (xg.grad, tg.grad)):
                if dtype.itemsize == 2:
                    got, want = got.view(minitorch.int16), want.view(torch.int16)
                got, want = got.detach().numpy(), want.detach().numpy()
                assert (got.view(np.uint8) == want.view(np.uint8)).all(), (dtype, n, op)
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_softmax_last_dim_bits_under_each_capability(capability):
    """ATEN_CPU_CAPABILITY moves torch's kernels (forward and backward) to 32-byte vectors or to the C
    library's exp and log, lane by lane, unfused; minitorch reads the same variable, so the bits stay
    torch's."""
    import subprocess

    if import_torch() is None:
        pytest.skip("torch is not installed")
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", SOFTMAX_UNDER_CAPABILITY], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == capability.upper()


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "int64"])
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_scan_values_are_torchs(device, dtype_name, op):
    """cumsum and cumprod accumulate as torch's CPU kernel does: the same bits (float32 in double)."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(3)
    t = torch.randn(6, 50, 7, generator=g, dtype=torch.float64) * 2
    t = t.round() if dtype_name == "int64" else t
    t = t.to(getattr(torch, dtype_name))
    for dim in (0, 1, 2):
        x = minitorch.tensor(t.tolist(), dtype=getattr(minitorch, dtype_name), device=device)
        assert getattr(x, op)(dim).cpu().tolist() == getattr(t, op)(dim).tolist()
        assert getattr(x.transpose(0, 2), op)(dim).cpu().tolist() == getattr(t.transpose(0, 2), op)(dim).tolist()


def test_prod_values(device):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(4)
    t = torch.rand(5, 9, 6, generator=g, dtype=torch.float64) + 0.5
    for dtype_name in ("float32", "float64"):
        tt = t.to(getattr(torch, dtype_name))
        x = minitorch.tensor(tt.tolist(), dtype=getattr(minitorch, dtype_name), device=device)
        _close(x.prod(), tt.prod(), torch, dtype_name)
        _close(x.prod(1), tt.prod(1), torch, dtype_name)
        _close(x.transpose(0, 2).prod(0, keepdim=True), tt.transpose(0, 2).prod(0, keepdim=True), torch, dtype_name)


PROD_SHAPES = [  # (shape, how to view it, dim or None for every element)
    ((1,), None, None), ((5,), None, None), ((63,), None, None), ((64,), None, None), ((129,), None, None),
    ((1000,), None, None), ((40000,), None, None), ((70001,), None, None), ((7, 1), None, 0), ((7, 300), None, 1),
    ((7, 300), None, 0), ((300, 70), None, 0), ((5, 33, 6), None, 1), ((33, 6), "t", 0), ((9, 130), "t", 1),
    ((40, 2000), None, 0), ((3, 40000), None, 1), ((2000, 40), "t", 0), ((4, 5, 6), "slice", 2),
]


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16"])
def test_prod_bits_are_torchs(dtype_name):
    """prod on the CPU multiplies in the dtype, in the order of torch's kernel (its 32-byte vector lanes, the
    leftover elements, the columns of an outer reduction, the threads' pieces of a long one): torch's bits,
    keepdim and dtype= too."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(6)
    for shape, view, dim in PROD_SHAPES:
        t = (torch.rand(shape, generator=g, dtype=torch.float64) * 0.2 + 0.9).to(getattr(torch, dtype_name))
        x = minitorch.from_numpy(t.view(torch.int16 if t.element_size() == 2 else t.dtype).numpy().copy())
        x = x.view(getattr(minitorch, dtype_name))
        if view == "t":
            t, x = t.t(), x.t()
        elif view == "slice":
            t, x = t[:, 1:, ::2], x[:, 1:, ::2]
        pairs = [(x.prod(), t.prod()), (x.prod(dtype=minitorch.float64), t.prod(dtype=torch.float64))]
        if dim is not None:
            pairs += [(x.prod(dim), t.prod(dim)), (x.prod(dim, keepdim=True), t.prod(dim, keepdim=True))]
        for got, want in pairs:
            assert tuple(got.shape) == tuple(want.shape)
            assert got.double().tolist() == want.double().tolist(), (shape, view, dim)
    # specials: a NaN anywhere, infinities, zeros, and a 16-bit product that overflows on the way
    for vals in ([1.0, float("nan")] * 40, [float("inf"), 0.0] * 3, [250.0] * 70 + [0.001] * 70):
        t = torch.tensor(vals).to(getattr(torch, dtype_name))
        x = minitorch.tensor(vals).to(getattr(minitorch, dtype_name))
        assert str(x.prod().item()) == str(t.prod().item())


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16"])
def test_nll_loss_totals_are_torchs(dtype_name):
    """nll_loss (and cross_entropy, whose mean it is) of (N, C) or (C) input adds the picked losses in a
    cascade of partial sums on the CPU, as torch's kernel does: the same bits for every batch size around the
    cascade's steps, with class weights, ignored targets and both reductions, and nll_loss's gradients (whose
    mean divides by the same total weight)."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(7)
    for n in (1, 2, 15, 16, 17, 64, 255, 256, 257, 1000, 4097):
        x = torch.randn(n, 6, generator=g, dtype=torch.float64).to(getattr(torch, dtype_name))
        y = torch.randint(0, 6, (n,), generator=g)
        w = torch.rand(6, generator=g, dtype=torch.float64).to(x.dtype) + 0.5
        mx = minitorch.from_numpy(x.view(torch.int16 if x.element_size() == 2 else x.dtype).numpy().copy())
        mx, my, mw = mx.view(getattr(minitorch, dtype_name)), minitorch.from_numpy(y.numpy()), None
        mw = minitorch.from_numpy(w.view(torch.int16 if w.element_size() == 2 else w.dtype).numpy().copy())
        mw = mw.view(getattr(minitorch, dtype_name))
        for kwargs in ({}, {"reduction": "sum"}, {"weight": True}, {"ignore_index": 2}, {"weight": True, "ignore_index": 4}):
            tk, mk = dict(kwargs), dict(kwargs)
            if "weight" in kwargs:
                tk["weight"], mk["weight"] = w, mw
            if dtype_name in ("float32", "float64"):
                want = torch.nn.functional.cross_entropy(x, y, **tk)
                assert str(minitorch.nn.functional.cross_entropy(mx, my, **mk).item()) == str(want.item()), (n, kwargs)
            tx, mxg = x.clone().requires_grad_(), mx.clone().requires_grad_()
            want = torch.nn.functional.nll_loss(tx, y, **tk)
            got = minitorch.nn.functional.nll_loss(mxg, my, **mk)
            assert str(got.item()) == str(want.item()), (n, kwargs)
            want.backward()
            got.backward()
            assert mxg.grad.double().tolist() == tx.grad.double().tolist(), (n, kwargs)
    one = torch.randn(5, generator=g).to(getattr(torch, dtype_name))
    mone = minitorch.tensor(one.float().tolist()).to(getattr(minitorch, dtype_name))
    assert minitorch.nn.functional.nll_loss(mone, minitorch.tensor(3)).item() == \
        torch.nn.functional.nll_loss(one, torch.tensor(3)).item()


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "int64", "int32"])
def test_sort_values_are_torchs(device, dtype_name):
    """Random rows (ties included, for the integer dtypes): stable sorts and topk give torch's values and
    indices."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(5)
    t = torch.randn(4, 37, 6, generator=g, dtype=torch.float64) * 5
    t = (t.round() if dtype_name.startswith("int") else t).to(getattr(torch, dtype_name))
    x = minitorch.tensor(t.tolist(), dtype=getattr(minitorch, dtype_name), device=device)
    for dim in (0, 1, -1):
        for descending in (False, True):
            v, i = x.sort(dim=dim, descending=descending, stable=True)
            tv, ti = t.sort(dim=dim, descending=descending, stable=True)
            assert v.cpu().tolist() == tv.tolist() and i.cpu().tolist() == ti.tolist()
            assert x.argsort(dim=dim, descending=descending, stable=True).cpu().tolist() == ti.tolist()
        if dtype_name.startswith("float"):
            for largest in (True, False):
                v, i = x.topk(3, dim, largest)
                tv, ti = t.topk(3, dim, largest)
                assert v.cpu().tolist() == tv.tolist() and i.cpu().tolist() == ti.tolist()


def test_sort_topk_backward_matches_torch():
    compare(textwrap.dedent("""
torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
v, i = x.sort(1, descending=True); print(type(v.grad_fn).__name__)
(v * torch.arange(5.)).sum().backward(); print(x.grad.tolist())
x.grad = None
v, i = torch.sort(x, dim=0, stable=True); print(type(v.grad_fn).__name__); (v * v).sum().backward(); print(x.grad.tolist())
x.grad = None
v, i = x.topk(2, dim=1); print(type(v.grad_fn).__name__); (v * torch.tensor([1., 10.])).sum().backward(); print(x.grad.tolist())
x.grad = None
v, i = x.topk(2, dim=0, largest=False); v.sum().backward(); print(x.grad.tolist())
s = torch.tensor(3.0, requires_grad=True); v, i = s.sort(); v.backward(); print(s.grad)
    """))


def test_sort_topk_gradcheck(device):
    minitorch.manual_seed(0)
    x = minitorch.randn(3, 4, dtype=minitorch.float64, device=device, requires_grad=True)
    assert minitorch.autograd.gradcheck(lambda a: a.sort(1, descending=True).values * a, (x,))
    assert minitorch.autograd.gradcheck(lambda a: a.topk(2, dim=0).values.sin(), (x,))


GRADCHECK_CASES = [
    ("softmax", lambda a: a.softmax(1) * a, 1),
    ("softmax_dim0", lambda a: minitorch.softmax(a, 0), 1),
    ("log_softmax", lambda a: a.log_softmax(-1) * a, 1),
    ("log_softmax_dim0", lambda a: minitorch.log_softmax(a.t(), 1), 1),
    ("logsumexp", lambda a: minitorch.logsumexp(a, 1) * minitorch.logsumexp(a, (0, 1), keepdim=True), 1),
    ("amax_amin", lambda a: a.amax(0) + a.amin((0, 1)), 1),
    ("var", lambda a: a.var() + a.var(1) * 2 + minitorch.var(a, 0, keepdim=True, correction=0).sum(), 1),
    ("std", lambda a: a.std() + a.std(1, unbiased=False) * 2, 1),
    ("var_mean", lambda a: minitorch.var_mean(a, 1)[0] * 3 + minitorch.var_mean(a, 1)[1], 1),
    ("std_mean", lambda a: minitorch.std_mean(a)[0] * minitorch.std_mean(a)[1], 1),
    ("norms", lambda a: a.norm() + a.norm(1, 1).sum() + minitorch.linalg.vector_norm(a, 3, 0).sum()
     + minitorch.linalg.vector_norm(a, 1.5) + minitorch.linalg.vector_norm(a, float("inf")), 1),
    ("cumsum_cumprod", lambda a: a.cumsum(1) * a.cumprod(0), 1),
    ("cumprod_zeros", lambda a: (a * minitorch.tensor([1.0, 0.0, 1.0, 0.0], dtype=a.dtype, device=a.device)).cumprod(1), 1),
    ("prod", lambda a: a.prod() + a.prod(1).sum() + a.prod(0, keepdim=True).sum(), 1),
    ("prod_zeros", lambda a: (a * minitorch.tensor([1.0, 0.0, 1.0, 1.0], dtype=a.dtype, device=a.device)).prod(1), 1),
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
