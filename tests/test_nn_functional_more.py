"""More of nn.functional and its layers against torch 2.13: one_hot and padding (functional.pad, the
ZeroPad/ConstantPad/ReflectionPad/ReplicationPad/CircularPad layers), printed by the same snippet under
both. Values and gradients of the copying ops are compared bit for bit (hex floats), the others within a
relative 1e-5 plus 1e-5 (torch's CPU kernels take exp and log from SLEEF or MKL)."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare_close  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


SHOW = """
import torch.nn as nn
import torch.nn.functional as F
def show(t, exact):
    values = t.detach().flatten().tolist()
    print([float(v).hex() for v in values] if exact else values)

def check(fn, exact, *inputs):
    out = fn(*inputs)
    print(type(out.grad_fn).__name__, out.dtype, tuple(out.shape))
    show(out, exact)
    torch.manual_seed(5)
    g = torch.randn(out.shape, dtype=out.dtype)
    out.backward(g)
    for x in inputs:
        if isinstance(x, torch.Tensor) and x.grad is not None:
            show(x.grad, exact)
            x.grad = None

def t(f):
    try:
        r = f()
        print(r if not isinstance(r, torch.Tensor) else (r.dtype, tuple(r.shape), r.tolist()))
    except Exception as e:
        print(type(e).__name__, e)
"""


# ---- one_hot ------------------------------------------------------------------------------------------

snip("one_hot", SHOW + """
torch.manual_seed(0)
x = torch.randint(0, 5, (3, 4))
for n in (-1, 5, 7):
    y = F.one_hot(x, n)
    print(y.dtype, y.shape, y.stride(), y.requires_grad, y.tolist())
print(F.one_hot(torch.tensor(3)), F.one_hot(x.t(), num_classes=6).sum(-1).tolist())
t(lambda: F.one_hot(torch.tensor([], dtype=torch.int64), 3))
t(lambda: F.one_hot(torch.zeros(2, 0, dtype=torch.int64), 3))
t(lambda: F.one_hot(torch.tensor([], dtype=torch.int64)))
t(lambda: F.one_hot(torch.tensor([], dtype=torch.int64), 0))
t(lambda: F.one_hot(torch.tensor([0, 2]), 2))
t(lambda: F.one_hot(torch.tensor([0, 2]), 0))
t(lambda: F.one_hot(torch.tensor([-1, 2])))
t(lambda: F.one_hot(torch.tensor([-1, 2]), 4))
t(lambda: F.one_hot(torch.tensor([0.0, 2.0])))
t(lambda: F.one_hot(torch.tensor([0, 2], dtype=torch.int32)))
t(lambda: F.one_hot(torch.tensor([True])))
t(lambda: F.one_hot(torch.tensor([0, 2]), 2.5))
t(lambda: F.one_hot([0, 2]))
t(lambda: F.one_hot(torch.tensor([0, 2]), num_classes=2.5))
t(lambda: F.one_hot(input=torch.tensor([0, 2]), num_classes=4).shape)
""")


# ---- pad ----------------------------------------------------------------------------------------------

PADS = {
    1: [(1, 2), (0, 3), (3, 0), (-1, 2), (2, -2), (-1, -1)],
    2: [(1, 2, 2, 1), (0, 0, 3, 1), (-1, 2, 1, -2), (2, 0, 0, 0)],
    3: [(1, 1, 2, 0, 0, 3), (-1, 2, 1, 1, 1, -1)],
}
for mode in ("constant", "reflect", "replicate", "circular"):
    for n, pads in PADS.items():
        if mode == "circular":
            # torch's _pad_circular fills a positive pad from the output's far end before a negative pad on the
            # other side has been cut, reading memory it never wrote: no parity to check there
            pads = [p for p in pads if not any(p[k] > 0 > p[k + 1] for k in range(0, len(p), 2))]
        snip(f"pad_{mode}_{n}d", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed({n})
    for shape in ({(2, 3) + (4, 5, 6)[:n]}, {(3,) + (4, 5, 6)[:n]}):
        x = torch.randn(shape, dtype=dtype).requires_grad_()
        for p in {pads}:
            check(lambda x: F.pad(x, p, mode={mode!r}), True, x)
            check(lambda x: F.pad(x.transpose(-1, -2) if x.dim() > 2 else x, p, {mode!r}), True, x)
""")

snip("pad_constant_more", SHOW + """
torch.manual_seed(0)
x = torch.randn(2, 3, 4, requires_grad=True)
check(lambda x: F.pad(x, (1, 1), value=2.5), True, x)
check(lambda x: F.pad(x, (1, 1, 1, 1, 1, 1)), True, x)
check(lambda x: F.pad(x, (-1, -2)), True, x)
check(lambda x: F.pad(x, (0, 0)), True, x)
check(lambda x: F.pad(x, (-4, 1)), True, x)
y = F.pad(x, (1, 1))
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(type(g.grad_fn).__name__, g.shape)
t(lambda: F.pad(x, (-3, -1)))
t(lambda: F.pad(torch.arange(6).reshape(2, 3), (1, 1), value=1.5))
t(lambda: F.pad(torch.arange(6).reshape(2, 3), (0, 1, 1, 0), value=-2))
t(lambda: F.pad(torch.tensor([True, False]), (1, 1), value=1))
t(lambda: F.pad(torch.zeros(()), ()))
t(lambda: F.pad(x, (1,)))
t(lambda: F.pad(x, (1, 1) * 4))
t(lambda: F.pad(torch.zeros(()), (1, 1)))
t(lambda: F.pad(x, (-3, -2)))
t(lambda: F.pad(x, (-5, 1)))
t(lambda: F.pad(x, (1, 1, -4, 0)))
t(lambda: F.pad(x, (1, 1, -3, 0)))
t(lambda: F.pad(x, [1.5, 1]))
t(lambda: F.pad(x, 1))
t(lambda: F.pad(x, (1, 1), "constant", "a"))
t(lambda: F.pad([1], (1, 1)))
t(lambda: F.pad(x, torch.tensor([1, 1])))
t(lambda: F.pad(torch.zeros(3, 4, dtype=torch.float16), (1, 1), value=1e9))
""")

snip("pad_errors", SHOW + """
torch.manual_seed(0)
x3, x4, x5 = torch.randn(2, 3, 4), torch.randn(2, 3, 4, 5), torch.randn(2, 3, 4, 5, 6)
for mode in ("reflect", "replicate", "circular"):
    print("==", mode)
    t(lambda: F.pad(x3, (1, 1), mode=mode, value=1))
    t(lambda: F.pad(x3, (1, 1), mode=mode, value=0).shape)
    t(lambda: F.pad(x3, (1, 1, 1, 1, 1, 1), mode=mode))
    t(lambda: F.pad(x3[0, 0], (1, 1), mode=mode))
    t(lambda: F.pad(torch.zeros(2, 3, 4, 5, 6, 7), (1, 1), mode=mode))
    t(lambda: F.pad(x3, (), mode=mode))
    t(lambda: F.pad(x3, (4, 1), mode=mode))
    t(lambda: F.pad(x3, (5, 1), mode=mode))
    t(lambda: F.pad(x3, (-3, -1), mode=mode))
    t(lambda: F.pad(x3, (-3, -2), mode=mode))
    t(lambda: F.pad(x3, (-5, 1), mode=mode))
    t(lambda: F.pad(x4, (5, 1, 1, 1), mode=mode))
    t(lambda: F.pad(x4, (1, 1, 4, 1), mode=mode))
    t(lambda: F.pad(x4, (-5, 0, 1, 1), mode=mode))
    t(lambda: F.pad(x4, (-5, 0, -4, 0), mode=mode))
    t(lambda: F.pad(x5, (6, 1, 1, 1, 1, 1), mode=mode))
    t(lambda: F.pad(x5, (1, 1, 5, 1, 1, 1), mode=mode))
    t(lambda: F.pad(x5, (1, 1, 1, 1, 4, 1), mode=mode))
    t(lambda: F.pad(x5, (1, 1, 1, 1, -4, 0), mode=mode))
    t(lambda: F.pad(x5, (-6, 0, -5, 0, -4, 0), mode=mode))
    t(lambda: F.pad(torch.zeros(2, 0, 4), (1, 1), mode=mode))
    t(lambda: F.pad(torch.zeros(0, 3, 4), (1, 1), mode=mode))
    t(lambda: F.pad(torch.zeros(3, 0, 5), (1, 1, 1, 1), mode=mode))
    t(lambda: F.pad(torch.zeros(0, 2, 3, 4, 5), (1, 1, 1, 1, 1, 1), mode=mode))
    t(lambda: F.pad(torch.zeros(2, 2, 3, 0, 5), (1, 1, 1, 1, 1, 1), mode=mode))
    t(lambda: F.pad(torch.arange(12).reshape(3, 4), (2, 1), mode=mode))
    t(lambda: F.pad(torch.tensor([[True, False]]), (1, 1), mode=mode))
    t(lambda: F.pad(torch.tensor([[[True, False]]]), (1, 1, 0, 0), mode=mode))
    t(lambda: F.pad(torch.tensor([[[[True, False]]]]), (1, 1, 0, 0, 0, 0), mode=mode))
t(lambda: F.pad(x3, (1, 1), mode="foo"))
""")

snip("pad_modules", SHOW + """
layers = [nn.ZeroPad1d(2), nn.ZeroPad1d((1, 0)), nn.ZeroPad2d(1), nn.ZeroPad2d((1, 0, 2, 1)), nn.ZeroPad3d(1),
          nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 0, 2), -1), nn.ConstantPad3d(1, 0.5),
          nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 0, 2, 1)), nn.ReflectionPad3d(1),
          nn.ReplicationPad1d((2, 1)), nn.ReplicationPad2d(2), nn.ReplicationPad3d((1, 0, 1, 0, 1, 0)),
          nn.CircularPad1d(2), nn.CircularPad2d((1, 0, 2, 1)), nn.CircularPad3d(1)]
for layer in layers:
    torch.manual_seed(0)
    n = len(layer.padding) // 2
    x = torch.randn((2, 3, 4, 5, 6)[:n + 2], requires_grad=True)
    y = layer(x)
    y.backward(torch.ones_like(y))
    print(layer, layer.padding, type(y.grad_fn).__name__, tuple(y.shape), round(y.sum().item(), 4), x.grad.sum().item())
print(nn.Sequential(nn.ReflectionPad2d(1), nn.ZeroPad2d((0, 1, 0, 1))))
t(lambda: nn.CircularPad2d(1)(torch.zeros(2, 3)))
t(lambda: nn.CircularPad1d(1)(torch.zeros(2, 3, 4, 5)))
t(lambda: nn.CircularPad3d(1)(torch.zeros(2, 3, 4)))
t(lambda: nn.ReflectionPad2d(1)(torch.zeros(4)))
""")


# ---- softmin, normalize, distances, kl_div ----------------------------------------------------------

DISTANCES = {
    "softmin": ("F.softmin(x, 1)", "x"), "softmin_dim0": ("F.softmin(x, 0, dtype=torch.float64)", "x"),
    "normalize": ("F.normalize(x)", "x"), "normalize_p1_dim0": ("F.normalize(x, p=1, dim=0)", "x"),
    "normalize_inf": ("F.normalize(x, p=float('inf'), dim=-1)", "x"),
    "normalize_p3": ("F.normalize(x, 3.0, 1)", "x"),
    "cosine_similarity": ("F.cosine_similarity(x, y)", "x, y"),
    "cosine_similarity_dim0": ("F.cosine_similarity(x, y, dim=0, eps=0.5)", "x, y"),
    "cosine_similarity_broadcast": ("F.cosine_similarity(x, y[:1])", "x, y"),
    "pairwise_distance": ("F.pairwise_distance(x, y)", "x, y"),
    "pairwise_distance_p1": ("F.pairwise_distance(x, y, p=1.0, keepdim=True)", "x, y"),
    "pairwise_distance_p3": ("F.pairwise_distance(x, y, 3.0, 1e-3)", "x, y"),
    "pairwise_distance_pinf": ("F.pairwise_distance(x, y, float('inf'))", "x, y"),
    "pairwise_distance_p05": ("F.pairwise_distance(x, y, 0.5)", "x, y"),
    "kl_div_mean": ("F.kl_div(x.log_softmax(1), y.softmax(1))", "x, y"),
    "kl_div_batchmean": ("F.kl_div(x.log_softmax(1), y.softmax(1), reduction='batchmean')", "x, y"),
    "kl_div_sum": ("F.kl_div(x, y.softmax(1), reduction='sum')", "x, y"),
    "kl_div_none": ("F.kl_div(x, y.relu(), reduction='none')", "x, y"),
    "kl_div_log_target": ("F.kl_div(x, y, reduction='batchmean', log_target=True)", "x, y"),
    "kl_div_legacy": ("F.kl_div(x, y.abs(), size_average=False)", "x, y"),
}
for name, (expr, args) in DISTANCES.items():
    snip(name, SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = torch.randn(5, 7, dtype=dtype).requires_grad_()
    y = torch.randn(5, 7, dtype=dtype).requires_grad_()
    check(lambda {args}: {expr}, False, {args})
    check(lambda {args}: {expr}, False, {args.replace("x", "x.detach().t().contiguous().t().requires_grad_()")})
""")

snip("distance_modules_and_errors", SHOW + """
import warnings
torch.manual_seed(0)
x, y = torch.randn(2, 3, 4, 5), torch.randn(2, 3, 4, 5)
for m in (nn.Softmin(1), nn.Softmin(dim=-1), nn.Softmax2d(), nn.CosineSimilarity(), nn.CosineSimilarity(dim=2, eps=0.1),
          nn.PairwiseDistance(), nn.PairwiseDistance(p=1.0, eps=0.0, keepdim=True), nn.KLDivLoss(),
          nn.KLDivLoss(reduction='batchmean', log_target=True), nn.KLDivLoss(reduction='none')):
    out = m(x) if isinstance(m, (nn.Softmin, nn.Softmax2d)) else m(x, y.abs() if isinstance(m, nn.KLDivLoss) else y)
    print(m, tuple(out.shape), [round(v, 4) for v in out.flatten().tolist()[:6]])
print(nn.Softmax2d()(x[0]).sum(0)[0].tolist())
print(F.normalize(torch.zeros(2, 3)), F.cosine_similarity(torch.zeros(3), torch.ones(3), dim=0))
print(F.cosine_similarity(torch.tensor([[1, 2]]), torch.tensor([[2.0, 1.0]])))
print(F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.0, 0.5])), F.kl_div(torch.tensor(-1.0), torch.tensor(0.5),
      reduction='batchmean'))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    F.kl_div(x, y)
    F.kl_div(x, y, reduction='sum')
    F.softmin(x)
    print([str(v.message) for v in w])
t(lambda: nn.Softmax2d()(x[0, 0]))
t(lambda: F.cosine_similarity(torch.tensor([[1, 2]]), torch.tensor([[2, 1]])))
t(lambda: F.cosine_similarity(x, y[..., :3]))
t(lambda: F.cosine_similarity(x, y, dim=4))
t(lambda: F.cosine_similarity(x, y, dim=1.5))
t(lambda: F.pairwise_distance(x, y[..., :3]))
t(lambda: F.pairwise_distance(x, y, p="a"))
t(lambda: F.pairwise_distance(x, y, "a"))
t(lambda: F.cosine_similarity(x, y, 1.5))
t(lambda: F.cosine_similarity(x1=x, x2=y).shape)
t(lambda: F.kl_div(x, y, reduction='foo'))
t(lambda: F.kl_div(x, y.long(), reduction='sum'))
t(lambda: F.kl_div(x, y, reduction='sum', log_target=1))
t(lambda: F.kl_div(x, y[0], reduction='sum'))
""")


# ---- activations ------------------------------------------------------------------------------------

ACTIVATIONS = {
    "glu": ("F.glu(x)", False), "glu_dim0": ("F.glu(x[:4], 0)", False),
    "hardshrink": ("F.hardshrink(x)", True), "hardshrink_lambd": ("F.hardshrink(x, 1.3)", True),
    "softshrink": ("F.softshrink(x)", True), "softshrink_lambd": ("F.softshrink(x, lambd=0.3)", True),
    "softsign": ("F.softsign(x)", True), "tanhshrink": ("F.tanhshrink(x)", False),
    "threshold": ("F.threshold(x, 0.1, 20.0)", True), "threshold_low_value": ("F.threshold(x, 0.5, -2)", True),
    "prelu_scalar": ("F.prelu(x, w[:1])", True), "prelu_channels": ("F.prelu(x, w)", True),
    "rrelu_eval": ("F.rrelu(x)", True), "rrelu_eval_bounds": ("F.rrelu(x, 0.1, 0.6)", True),
    "celu_inplace": ("F.celu_(x * 1, 0.7)", False), "selu_inplace": ("F.selu_(x * 1)", False),
    "threshold_inplace": ("F.threshold(x * 1, 0.2, 1.0, inplace=True)", True),
    "threshold__": ("F.threshold_(x * 1, -0.2, -5.0)", True),
    "rrelu_inplace_eval": ("F.rrelu(x * 1, inplace=True)", True),
}
for name, (expr, exact) in ACTIVATIONS.items():
    snip(f"act_{name}", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = (torch.randn(6, 8, dtype=dtype) * 2).requires_grad_()
    x.data[0, :5] = torch.tensor([0.0, -0.5, 0.5, 0.1, -0.3], dtype=dtype)
    w = torch.linspace(-0.5, 1.5, 8, dtype=dtype).requires_grad_()
    check(lambda x, w: {expr}, {exact}, x, w)
    check(lambda x, w: {expr}, {exact}, x.detach().t().contiguous().t().requires_grad_(), w)
""")

snip("prelu_shapes", SHOW + """
torch.manual_seed(0)
for shape in ((5,), (2, 3), (2, 3, 4), (2, 3, 2, 2)):
    x = torch.randn(shape, requires_grad=True)
    for w in (torch.tensor([0.3], requires_grad=True), torch.linspace(0.1, 0.9, shape[1] if len(shape) > 1 else 1).requires_grad_()):
        y = F.prelu(x, w)
        print(type(y.grad_fn).__name__, [type(n).__name__ if n else None for n, _ in y.grad_fn.next_functions])
        y.backward(torch.ones_like(y) * 0.5)
        show(y, True); show(x.grad, True); show(w.grad, False)
        x.grad = None
print(F.prelu(torch.tensor(-2.0), torch.tensor([0.5])), F.prelu(torch.tensor([-2.0, 3.0]), torch.tensor(0.25)))
""")

snip("rrelu_training", SHOW + """
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = torch.randn(7, 9, dtype=dtype)
    x[0, :2] = 0.0
    for lower, upper in ((1 / 8, 1 / 3), (0.1, 0.9), (0.3, 0.3)):
        xs = x.t().requires_grad_()
        y = F.rrelu(xs, lower, upper, training=True)
        print(type(y.grad_fn).__name__)
        show(y, True)
        y.backward(torch.linspace(-1, 1, 63, dtype=dtype).reshape(9, 7))
        show(xs.grad, True)
    print(torch.rand(2))
    z = x.clone()
    print(F.rrelu(z, training=True, inplace=True) is z, type(F.rrelu_(x.clone().requires_grad_() * 1, 0.2, 0.4, True).grad_fn).__name__)
    show(z, True)
    m = nn.RReLU(0.1, 0.3)
    show(m(x), True)
    m.eval()
    show(m(x), True)
""")

snip("activation_more_modules_and_errors", SHOW + """
for m in (nn.GLU(), nn.GLU(0), nn.Hardshrink(), nn.Hardshrink(0.3), nn.Softshrink(1), nn.Softsign(), nn.Tanhshrink(),
          nn.Threshold(0.1, 20), nn.Threshold(0.1, 20, True), nn.PReLU(), nn.PReLU(4, 0.1), nn.RReLU(),
          nn.RReLU(0.1, 0.3, inplace=True)):
    torch.manual_seed(0)
    x = torch.randn(4, 4)
    print(m, [(n, p.tolist()) for n, p in m.named_parameters()], [round(v, 5) for v in m(x).flatten().tolist()])
print(nn.PReLU(dtype=torch.float64).weight, nn.PReLU(2).state_dict())
m = nn.PReLU(3)
x = torch.randn(2, 3, 4)
m(x).sum().backward(); print(m.weight.grad)
x = torch.randn(4, 6)
t(lambda: F.glu(x[:, :5]))
t(lambda: F.glu(torch.tensor(1.0)))
t(lambda: F.glu(x, 2))
t(lambda: F.glu(x, dim=1.5))
t(lambda: F.glu(torch.tensor([1, 2])))
t(lambda: F.hardshrink(x, lambd="a"))
t(lambda: F.hardshrink(torch.tensor([1, 2])))
t(lambda: F.softshrink(x, -1))
t(lambda: F.softshrink(x.double(), -0.5))
t(lambda: F.softshrink(torch.tensor([1, 2]), -1))
t(lambda: F.softsign(torch.tensor([1, 2])))
t(lambda: F.tanhshrink(torch.tensor([1, 2])))
t(lambda: F.threshold(torch.tensor([-2, -1, 1, 2]), -1.5, 7.9))
t(lambda: F.threshold(x, "a", 2))
t(lambda: F.threshold(x, 0.1))
t(lambda: F.threshold_(x, 0.1, "b"))
t(lambda: F.prelu(x, torch.tensor([0.1, 0.2])))
t(lambda: F.prelu(x, torch.ones(1, 6)))
t(lambda: F.prelu(torch.tensor(1.0), torch.ones(2)))
t(lambda: F.prelu(x, torch.ones(1, dtype=torch.float64)))
t(lambda: F.prelu(x, 0.25))
t(lambda: F.prelu(torch.tensor([1, 2]), torch.tensor([1])))
t(lambda: F.rrelu(x, 0.5, 0.1))
t(lambda: F.rrelu(torch.tensor([1, 2])))
t(lambda: F.rrelu(torch.tensor([1, 2]), training=True))
t(lambda: F.rrelu(x.half(), training=True))
t(lambda: F.rrelu(x.half()).dtype)
t(lambda: F.celu(x, 0.0))
t(lambda: F.celu_(x.clone(), alpha="a"))
t(lambda: F.selu_(1.0))
""")


# ---- normalisation ------------------------------------------------------------------------------------

NORMS = {
    "group_norm": ("F.group_norm(x, 3, w, b)", "(4, 6, 5)"),
    "group_norm_plain": ("F.group_norm(x, 2)", "(3, 6, 2, 3)"),
    "group_norm_one_group": ("F.group_norm(x, 1, w, None, eps=0.1)", "(2, 6)"),
    "group_norm_per_channel": ("F.group_norm(x, 6, w, None)", "(2, 6, 7)"),
    "instance_norm": ("F.instance_norm(x, weight=w, bias=b)", "(3, 6, 5)"),
    "instance_norm_plain": ("F.instance_norm(x, eps=0.01)", "(2, 6, 3, 4)"),
    "rms_norm": ("F.rms_norm(x, [5], w[:5])", "(4, 6, 5)"),
    "rms_norm_two_dims": ("F.rms_norm(x, (6, 5), eps=1e-3)", "(4, 6, 5)"),
    "local_response_norm": ("F.local_response_norm(x, 3)", "(2, 6, 5)"),
    "local_response_norm_4d": ("F.local_response_norm(x, 2, alpha=0.1, beta=0.5, k=2.0)", "(2, 6, 3, 4)"),
    "local_response_norm_5d": ("F.local_response_norm(x, 4, 0.2)", "(2, 6, 3, 2, 2)"),
}
for name, (expr, shape) in NORMS.items():
    snip(name, SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = (torch.randn({shape}, dtype=dtype) * 2 + 1).requires_grad_()
    w = torch.randn(6, dtype=dtype).requires_grad_()
    b = torch.randn(6, dtype=dtype).requires_grad_()
    check(lambda x, w, b: {expr}, False, x, w, b)
""")

snip("norm_modules_and_errors", SHOW + """
torch.manual_seed(0)
for m, shape in ((nn.GroupNorm(2, 4), (3, 4, 5)), (nn.GroupNorm(4, 4, affine=False), (2, 4, 3, 3)),
                 (nn.GroupNorm(1, 4, bias=False), (2, 4)), (nn.InstanceNorm1d(4), (2, 4, 5)),
                 (nn.InstanceNorm1d(4, affine=True), (4, 5)), (nn.InstanceNorm2d(4, track_running_stats=True), (2, 4, 3, 3)),
                 (nn.InstanceNorm3d(4, affine=True, track_running_stats=True, momentum=None), (2, 4, 2, 2, 2)),
                 (nn.RMSNorm(5), (3, 5)), (nn.RMSNorm([4, 5], eps=1e-3, elementwise_affine=False), (2, 4, 5)),
                 (nn.LocalResponseNorm(3), (2, 4, 5)), (nn.LocalResponseNorm(2, 0.1, 0.5, 2.0), (2, 4, 3, 3))):
    x = torch.randn(shape) * 3
    y = m(x)
    print(m, type(y.grad_fn).__name__ if y.grad_fn else None, [(n, v.shape) for n, v in m.state_dict().items()])
    print([round(v, 4) for v in y.flatten().tolist()[:8]])
    if getattr(m, "running_mean", None) is not None:
        print(m.running_mean, m.running_var, m.num_batches_tracked)
        m.eval()
        print([round(v, 4) for v in m(x).flatten().tolist()[:8]])
m = nn.InstanceNorm1d(3)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    m(torch.randn(2, 4, 5))
    print([str(v.message) for v in w])
t(lambda: nn.InstanceNorm1d(3, affine=True)(torch.randn(2, 4, 5)))
t(lambda: nn.InstanceNorm2d(3)(torch.randn(2, 3, 4)))
t(lambda: nn.InstanceNorm1d(3)(torch.randn(2, 3, 1)))
t(lambda: nn.GroupNorm(3, 4))
t(lambda: F.group_norm(torch.randn(4), 2))
t(lambda: F.group_norm(torch.randn(1, 4), 4))
t(lambda: F.group_norm(torch.randn(2, 6, 3), 4))
t(lambda: F.group_norm(torch.randn(2, 6, 3), 3, torch.ones(5)))
t(lambda: F.group_norm(torch.randn(2, 6, 3), 3, None, torch.ones(6, 1)))
t(lambda: F.group_norm(torch.randn(2, 6, 3), 3, torch.ones(6), torch.ones(6, 1)))
t(lambda: F.rms_norm(torch.randn(2, 3, 4), [2, 3]))
t(lambda: F.group_norm(torch.randn(2, 6, 3), 3, torch.ones(6, dtype=torch.float64)))
t(lambda: F.instance_norm(torch.randn(2, 3, 4), use_input_stats=False))
t(lambda: F.instance_norm(torch.randn(2, 3, 4), torch.zeros(2), torch.ones(3)))
t(lambda: F.rms_norm(torch.randn(2, 3), [4]))
t(lambda: F.rms_norm(torch.randn(2, 3), [3], torch.ones(4)))
t(lambda: F.rms_norm(torch.randn(2, 3), []))
t(lambda: F.rms_norm(torch.randn(2, 3), 3).shape)
t(lambda: F.rms_norm(torch.randn(2, 3).half(), [3]).dtype)
t(lambda: F.local_response_norm(torch.randn(2, 3), 2))
t(lambda: F.local_response_norm(torch.randn(0, 3, 2), 2).shape)
""")


# ---- losses -------------------------------------------------------------------------------------------

LOSSES = {
    "hinge_embedding": ("F.hinge_embedding_loss(x, t.sign())", "x"),
    "hinge_embedding_margin": ("F.hinge_embedding_loss(x, t.sign(), margin=0.5, reduction='none')", "x"),
    "margin_ranking": ("F.margin_ranking_loss(x, y, t.sign())", "x, y"),
    "margin_ranking_sum": ("F.margin_ranking_loss(x, y, t.sign(), margin=0.3, reduction='sum')", "x, y"),
    "soft_margin": ("F.soft_margin_loss(x, t.sign())", "x"),
    "soft_margin_none": ("F.soft_margin_loss(x, t, reduction='none')", "x"),
    "multilabel_soft_margin": ("F.multilabel_soft_margin_loss(x, (t > 0).to(x.dtype))", "x"),
    "multilabel_soft_margin_weight": ("F.multilabel_soft_margin_loss(x, t.sigmoid(), weight=y[0].abs(), "
                                      "reduction='none')", "x, y"),
    "cosine_embedding": ("F.cosine_embedding_loss(x, y, t[:, 0].sign())", "x, y"),
    "cosine_embedding_margin": ("F.cosine_embedding_loss(x, y, t[:, 0].sign(), margin=0.2, reduction='sum')", "x, y"),
    "cosine_embedding_1d": ("F.cosine_embedding_loss(x[0], y[0], torch.tensor(-1.0, dtype=x.dtype))", "x, y"),
    "triplet_margin": ("F.triplet_margin_loss(x, y, t)", "x, y"),
    "triplet_margin_swap": ("F.triplet_margin_loss(x, y, t, margin=2.0, p=1, swap=True, reduction='none')", "x, y"),
    "poisson_nll": ("F.poisson_nll_loss(x, t.abs())", "x"),
    "poisson_nll_full": ("F.poisson_nll_loss(x.abs(), t.abs() * 3, log_input=False, full=True, reduction='sum')",
                         "x"),
    "gaussian_nll": ("F.gaussian_nll_loss(x, t, y.abs())", "x, y"),
    "gaussian_nll_homoscedastic": ("F.gaussian_nll_loss(x, t, y[:, 0].abs(), full=True, reduction='none')", "x, y"),
    "gaussian_nll_float_var": ("F.gaussian_nll_loss(x, t, 0.5, eps=0.1)", "x"),
    "multi_margin": ("F.multi_margin_loss(x, c)", "x"),
    "multi_margin_p2": ("F.multi_margin_loss(x, c, p=2, margin=0.5, weight=y[0].detach().abs(), reduction='none')",
                        "x, y"),
    "multi_margin_sum": ("F.multi_margin_loss(x, c, margin=2.0, reduction='sum')", "x"),
    "multi_margin_1d": ("F.multi_margin_loss(x[0], c[0], weight=y[0].detach().abs())", "x"),
    "multi_margin_weight_grad": ("F.multi_margin_loss(x[0], c[0], weight=y[0].abs())", "x, y"),
}
for name, (expr, args) in LOSSES.items():
    snip(f"loss_{name}", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = torch.randn(5, 7, dtype=dtype).requires_grad_()
    y = torch.randn(5, 7, dtype=dtype).requires_grad_()
    t = torch.randn(5, 7, dtype=dtype)
    c = torch.randint(0, 7, (5,))
    check(lambda {args}: {expr}, False, {args})
""")

snip("loss_modules_and_errors", SHOW + """
import warnings
torch.manual_seed(0)
x, y, t = torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)
c = torch.randint(0, 5, (4,))
for m, args in ((nn.HingeEmbeddingLoss(), (x, t.sign())), (nn.HingeEmbeddingLoss(0.5, reduction='sum'), (x, t.sign())),
                (nn.MarginRankingLoss(0.1), (x, y, t.sign())), (nn.SoftMarginLoss(), (x, t.sign())),
                (nn.MultiLabelSoftMarginLoss(torch.ones(5)), (x, (t > 0).float())),
                (nn.CosineEmbeddingLoss(0.1, reduction='none'), (x, y, t[:, 0].sign())),
                (nn.TripletMarginLoss(), (x, y, t)), (nn.TripletMarginLoss(0.5, 1.0, swap=True), (x, y, t)),
                (nn.PoissonNLLLoss(), (x, t.abs())), (nn.PoissonNLLLoss(False, True, eps=1e-3), (x.abs(), t.abs() * 4)),
                (nn.GaussianNLLLoss(), (x, t, y.abs())), (nn.GaussianNLLLoss(full=True, eps=0.5), (x, t, y.abs())),
                (nn.MultiMarginLoss(), (x, c)), (nn.MultiMarginLoss(2, 0.5, torch.linspace(0.5, 1.5, 5)), (x, c))):
    out = m(*args)
    print(m, type(out.grad_fn).__name__ if out.grad_fn else None, [round(v, 5) for v in out.flatten().tolist()],
          list(m.state_dict()))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(F.soft_margin_loss(x, t.sign(), size_average=False).item() > 0, nn.HingeEmbeddingLoss(reduce=False).reduction)
    print(len(w))
t_ = t
def t(f):
    try:
        r = f()
        print(r if not isinstance(r, torch.Tensor) else (r.dtype, tuple(r.shape)))
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: F.soft_margin_loss(x, t_.sign().requires_grad_()))
t(lambda: F.margin_ranking_loss(x, y[0], t_))
t(lambda: F.hinge_embedding_loss(x, t_, margin="a"))
t(lambda: F.hinge_embedding_loss(x, t_, reduction="foo"))
t(lambda: F.cosine_embedding_loss(x, y, t_))
t(lambda: F.cosine_embedding_loss(x, y, t_[0, 0]))
t(lambda: F.cosine_embedding_loss(x[0], y, t_[:, 0]))
t(lambda: F.triplet_margin_loss(x, y, t_, margin=0))
t(lambda: F.triplet_margin_loss(x, y, t_[0]))
t(lambda: nn.TripletMarginLoss(margin=-1))
t(lambda: F.poisson_nll_loss(x, t_, reduction="foo"))
t(lambda: F.gaussian_nll_loss(x, t_, -y.abs()))
t(lambda: F.gaussian_nll_loss(x, t_, -0.5))
t(lambda: F.gaussian_nll_loss(x, t_, y.abs()[:, :2]))
t(lambda: F.gaussian_nll_loss(x, t_, y.abs()[:, :1]))
t(lambda: F.gaussian_nll_loss(x, t_, y.abs(), reduction="foo"))
t(lambda: F.multilabel_soft_margin_loss(x, t_, reduction="foo"))
t(lambda: F.multi_margin_loss(x, c, p=3))
t(lambda: nn.MultiMarginLoss(p=3))
t(lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2)))
t(lambda: F.multi_margin_loss(x, c, weight=torch.ones(2, 2)))
t(lambda: F.multi_margin_loss(x, c, weight=torch.ones(3)))
t(lambda: F.multi_margin_loss(x, c[:3]))
t(lambda: F.multi_margin_loss(x, c.reshape(2, 2)))
t(lambda: F.multi_margin_loss(x[0], c[:2]))
t(lambda: F.multi_margin_loss(x, c + 5))
t(lambda: F.multi_margin_loss(x, c - 5))
t(lambda: F.multi_margin_loss(torch.zeros(2, 0), c[:2]))
t(lambda: F.multi_margin_loss(torch.zeros(2, 3, 4), c[:2]))
t(lambda: F.multi_margin_loss(torch.tensor(0.5), torch.tensor(0)))
""")


# ---- pixel shuffle ------------------------------------------------------------------------------------

snip("pixel_shuffle", SHOW + """
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = torch.randn(2, 18, 2, 3, dtype=dtype).requires_grad_()
    check(lambda x: F.pixel_shuffle(x, 3), True, x)
    check(lambda x: F.pixel_shuffle(x[0], 1), True, x)
    check(lambda x: F.pixel_unshuffle(x.transpose(-1, -2), 1), True, x)
    check(lambda x: F.pixel_unshuffle(F.pixel_shuffle(x, 3), 3) * 2, True, x)
    y = torch.randn(3, 2, 4, 6, 4, dtype=dtype).requires_grad_()
    check(lambda y: F.pixel_unshuffle(y, 2), True, y)
    out = F.pixel_shuffle(x, 3)
    print(out.is_contiguous(), out.stride())
    g, = torch.autograd.grad(F.pixel_shuffle(x, 3).pow(2).sum(), x, create_graph=True)
    print(type(g.grad_fn).__name__)
print(F.pixel_shuffle(torch.arange(8).reshape(1, 8, 1, 1), 2).tolist(), F.pixel_unshuffle(torch.arange(8).reshape(1, 2, 4), 2).tolist())
print(nn.PixelShuffle(3), nn.PixelUnshuffle(2), nn.PixelShuffle(2)(torch.ones(1, 4, 2, 2)).shape)
x = torch.zeros(2, 8, 2, 3)
t(lambda: F.pixel_shuffle(x[0, 0], 2))
t(lambda: F.pixel_shuffle(x, 0))
t(lambda: F.pixel_shuffle(x, 3))
t(lambda: F.pixel_unshuffle(x, 2))
t(lambda: F.pixel_unshuffle(x, 3))
t(lambda: F.pixel_unshuffle(x, -1))
t(lambda: F.pixel_unshuffle(x[0, 0], 1))
t(lambda: F.pixel_shuffle(x, 1.5))
t(lambda: F.pixel_shuffle(x, upscale_factor="a"))
t(lambda: F.pixel_shuffle(torch.zeros(2, 3, 4, 1, 1), 1).shape)
""")


# ---- interpolate --------------------------------------------------------------------------------------

INTERPOLATE = {
    1: ["scale_factor=2", "size=7", "scale_factor=1.7", "size=3", "size=8, mode='nearest-exact'",
        "scale_factor=2, mode='linear'", "size=7, mode='linear', align_corners=True", "size=3, mode='linear'",
        "scale_factor=0.6, mode='linear'", "scale_factor=2.3, mode='linear', recompute_scale_factor=True",
        "size=1, mode='linear', align_corners=True"],
    2: ["scale_factor=2", "size=(5, 7)", "scale_factor=(1.5, 0.5)", "size=(4, 9), mode='nearest-exact'",
        "size=(5, 7), mode='bilinear'", "scale_factor=(1.5, 2.5), mode='bilinear', align_corners=True",
        "size=5, mode='bilinear'", "size=(2, 3), mode='area'", "scale_factor=0.5, mode='area'"],
    3: ["scale_factor=2", "size=(3, 4, 5)", "scale_factor=2, mode='trilinear'",
        "size=(3, 2, 5), mode='trilinear', align_corners=True", "size=(4, 4, 3), mode='nearest-exact'"],
}
for n, calls in INTERPOLATE.items():
    for k, call in enumerate(calls):
        snip(f"interpolate_{n}d_{k}", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed({k})
    x = torch.randn({(2, 3, 4, 3, 5)[:n + 2]}, dtype=dtype).requires_grad_()
    check(lambda x: F.interpolate(x, {call}), False, x)
""")

snip("upsample_modules_and_errors", SHOW + """
import warnings
torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4)
for m in (nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 5), mode='bilinear'), nn.Upsample(scale_factor=(2, 1.5)),
          nn.Upsample(size=5, mode='bilinear', align_corners=True), nn.UpsamplingNearest2d(scale_factor=2),
          nn.UpsamplingBilinear2d(size=(4, 6))):
    y = m(x)
    print(m, type(y.grad_fn).__name__ if y.grad_fn else None, tuple(y.shape), [round(v, 4) for v in y.flatten().tolist()[:8]])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(F.upsample(x, scale_factor=2).shape, F.upsample_nearest(x, size=5).shape,
          [round(v, 4) for v in F.upsample_bilinear(x, scale_factor=2).flatten().tolist()[:6]])
    print([str(v.message) for v in w])
t(lambda: F.interpolate(torch.arange(6).reshape(1, 2, 3), scale_factor=2))
t(lambda: F.interpolate(torch.arange(6).reshape(1, 2, 3), scale_factor=2, mode='linear'))
t(lambda: F.interpolate(x, scale_factor=2, align_corners=True))
t(lambda: F.interpolate(x, size=3, scale_factor=2))
t(lambda: F.interpolate(x))
t(lambda: F.interpolate(x, size=(3,)))
t(lambda: F.interpolate(x, size=(3, 2.5)))
t(lambda: F.interpolate(x, scale_factor=(2, 2, 2)))
t(lambda: F.interpolate(x, size=3, recompute_scale_factor=True))
t(lambda: F.interpolate(x, size=0))
t(lambda: F.interpolate(x, scale_factor=0.1))
t(lambda: F.interpolate(x[0], scale_factor=2, mode='bilinear'))
t(lambda: F.interpolate(x, scale_factor=2, mode='linear'))
t(lambda: F.interpolate(x, scale_factor=2, mode='trilinear'))
t(lambda: F.interpolate(x[0, 0], scale_factor=2))
t(lambda: F.interpolate(x, scale_factor=2, mode='foo'))
t(lambda: F.interpolate(x, scale_factor=2, mode='nearest', antialias=True))
t(lambda: F.interpolate(torch.zeros(1, 0, 3), scale_factor=2))
t(lambda: F.interpolate(torch.zeros(0, 2, 3), scale_factor=2).shape)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_nn_functional_more_parity(code):
    # a snippet that prints hex floats compares them exactly (no decimal number appears in them)
    compare_close(code, rtol=1e-5, atol=1e-5)


F = minitorch.nn.functional
GRADCHECK = [
    ("pad", lambda x, y: F.pad(x, (1, 2), value=0.5).sum() + F.pad(x, (2, 1, 1, 2), "reflect").pow(2).sum()
     + F.pad(x, (2, 1), "replicate").pow(2).sum() + F.pad(x, (3, 1, 1, 0), "circular").pow(2).sum()),
    ("normalize_cosine", lambda x, y: F.normalize(x, dim=-1) * 2 + F.normalize(x, p=3.0)
     + F.cosine_similarity(x, y, dim=1).unsqueeze(1)),
    ("pairwise_distance", lambda x, y: F.pairwise_distance(x, y) + F.pairwise_distance(x, y, 1.5)
     + F.pairwise_distance(x, y, 3.0) + F.pairwise_distance(x, y, 0.5)),
    ("kl_div", lambda x, y: F.kl_div(x, y.abs(), reduction="batchmean") + F.kl_div(x, y, reduction="sum", log_target=True)),
    ("softmin", lambda x, y: F.softmin(x, 1) * y),
    ("activations", lambda x, y: F.glu(x) + F.glu(y) * F.softsign(x[..., :2]) + F.tanhshrink(x[..., 2:]) * 2
     + F.softshrink(x[..., :2] * 3, 0.2) + F.hardshrink(y[..., 2:] * 3, 0.2)),
    ("prelu", lambda x, y: F.prelu(x, y[0, :, 0].contiguous()) + F.prelu(y, x[0, 0, :1].contiguous())),
    ("norms", lambda x, y: F.group_norm(x, 3, y[0, :, 0].contiguous(), y[1, :, 1].contiguous()) * 2
     + F.instance_norm(x, weight=y[0, :, 2].contiguous()) + F.rms_norm(x, [4], y[1, 0]) + F.local_response_norm(y, 2)),
    ("margin_losses", lambda x, y: F.hinge_embedding_loss(x, y.sign()) + F.margin_ranking_loss(x, y, y.sign())
     + F.soft_margin_loss(x, y.detach().sign()) + F.multilabel_soft_margin_loss(x, y.sigmoid())
     + F.cosine_embedding_loss(x[0], y[0], x[0, :, 0].detach().sign()) + F.triplet_margin_loss(x, y, x * 2 - y)),
    ("likelihood_losses", lambda x, y: F.poisson_nll_loss(x, y.exp()) + F.poisson_nll_loss(x.exp(), y.exp() + 1.2,
     log_input=False, full=True) + F.gaussian_nll_loss(x, y, x.exp()) + F.multi_margin_loss(
        x[0], minitorch.tensor([0, 3, 1], device=x.device), p=2,
        weight=minitorch.tensor([0.5, 1.0, 1.5, 2.0], dtype=x.dtype, device=x.device))
     + F.multi_margin_loss(x[1], minitorch.tensor([2, 0, 1], device=x.device), reduction="sum")),
    ("pixel_shuffle", lambda x, y: F.pixel_shuffle(F.pixel_unshuffle(x.reshape(1, 4, 6), 2) * y.reshape(4, 2, 3), 2)),
    ("interpolate", lambda x, y: F.interpolate(x, scale_factor=1.5, mode="linear") * 2
     + F.interpolate(y, size=6, mode="linear", align_corners=True) + F.interpolate(x + y, size=6)),
    ("interpolate_2d", lambda x, y: F.interpolate(x.unsqueeze(0), size=(3, 5), mode="bilinear")
     + F.interpolate(y.unsqueeze(0), scale_factor=(1.5, 1.25), mode="bilinear", align_corners=True)[..., :3, :5]),
    ("threshold_rrelu", lambda x, y: F.threshold(x, 0.1, 2.0) + F.rrelu(y * 3, 0.2, 0.5)),
]


@pytest.mark.parametrize("name,fn", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    x, y = (minitorch.randn(2, 3, 4, dtype=minitorch.float64).to(device).requires_grad_() for _ in range(2))
    assert minitorch.autograd.gradcheck(fn, (x, y))


def test_pad_on_device(device):
    """The same values on every device (the padding ops are copies)."""
    minitorch.manual_seed(0)
    x = minitorch.randn(2, 3, 4, 5)
    for mode in ("constant", "reflect", "replicate", "circular"):
        expected = minitorch.nn.functional.pad(x, (1, 2, 2, 1), mode)
        got = minitorch.nn.functional.pad(x.to(device), (1, 2, 2, 1), mode)
        assert got.device.type == device and got.cpu().equal(expected)
    one_hot = minitorch.nn.functional.one_hot(minitorch.tensor([2, 0, 1]).to(device))
    assert one_hot.device.type == device and one_hot.cpu().tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
