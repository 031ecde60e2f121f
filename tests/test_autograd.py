"""Autograd against torch: every snippet runs under real torch and under minitorch and must print the
same (gradients as exact Python floats via tolist(), node names, next_functions, errors). Snippets that
need no torch check behaviour minitorch must have on its own (memory, threads, reference cycles)."""

import gc
import os
import sys
import textwrap
import threading

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# a helper every snippet can use: the names along a graph
GRAPH = """
def names(t):
    fn = t.grad_fn
    print(type(fn).__name__ if fn is not None else None,
          [(type(n).__name__ if n is not None else None, k) for n, k in (fn.next_functions if fn else ())])
"""

# gradients that come out of a matrix product: torch's BLAS and minitorch's GEMM may sum in another order,
# so these are compared to 5 significant digits
ROUND = """
def r(t):
    return [float("%.5g" % v) for v in t.flatten().tolist()]
"""

# ---- gradients of each op, bit for bit -------------------------------------------------------------

for name, expr in [
    ("add", "a + b"), ("add_alpha", "torch.add(a, b, alpha=2.5)"), ("sub", "a - b"),
    ("sub_alpha", "torch.sub(a, b, alpha=0.5)"), ("mul", "a * b"), ("div", "a / b"),
    ("add_number", "a + 3"), ("radd_number", "3 + a"), ("rsub_number", "2 - a"), ("sub_number", "a - 2"),
    ("mul_number", "a * 1.5"), ("rmul_number", "1.5 * a"), ("div_number", "a / 3"), ("rdiv_number", "3 / b"),
    ("neg", "-a"), ("abs", "a.abs()"), ("relu", "a.relu()"), ("exp", "a.exp()"), ("log", "b.log()"),
    ("reciprocal", "b.reciprocal()"), ("sum", "a.sum()"), ("sum_dim", "a.sum(1)"),
    ("sum_dims_keep", "a.sum((0, 1), keepdim=True)"), ("mean", "a.mean()"), ("mean_dim", "a.mean(0)"),
    ("mean_keep", "a.mean(-1, keepdim=True)"), ("max", "a.max()"), ("min", "a.min()"),
    ("mm", "a @ b.t()"), ("matmul_vec", "a @ b[0]"), ("t", "a.t()"), ("transpose", "a.transpose(0, 1)"),
    ("view", "a.view(15)"), ("reshape", "a.t().reshape(15)"), ("expand", "a[:, :1].expand(3, 5)"),
    ("unsqueeze", "a.unsqueeze(1)"), ("squeeze", "a[:1].squeeze()"), ("permute", "a.permute(1, 0)"),
    ("select", "a[1]"), ("slice", "a[:, 1:4:2]"), ("narrow", "a.narrow(1, 1, 3)"), ("clone", "a.clone()"),
    ("contiguous", "a.t().contiguous()"), ("flatten", "a.flatten()"), ("T", "a.T"),
    ("cat", "torch.cat([a, b], 0)"), ("stack", "torch.stack([a, b], 1)"), ("to_double", "a.double()"),
    ("unbind", "a.unbind(1)[2]"), ("split", "a.split(2, 1)[1]"), ("chunk", "a.chunk(2, 0)[0]"),
]:
    snip(f"grad_{name}", f"""
torch.manual_seed(0)
a = torch.randn(3, 5, requires_grad=True)
b = (torch.rand(3, 5) + 0.5).requires_grad_()
out = {expr}
print(type(out.grad_fn).__name__, out.requires_grad, out.is_leaf)
w = torch.randn(out.shape)
(out * w).sum().backward()
print(a.grad.tolist() if a.grad is not None else None)
print(b.grad.tolist() if b.grad is not None else None)
""")

# the math ops: exact where the forward and backward ops are exactly rounded, else to 5 digits
for name, expr, exact in [
    ("pow_number", "a ** 3", True), ("pow_half", "b ** 0.5", False), ("pow_tensors", "b ** a", False),
    ("rpow", "2 ** a", False), ("square", "a.square()", True), ("pow_zero", "a.pow(0)", True),
    ("sin", "a.sin()", False), ("cos", "a.cos()", False), ("tan", "(a * 0.3).tan()", False),
    ("asin", "(b - 1).asin()", False), ("acos", "(b - 1).acos()", False), ("atan", "a.atan()", False),
    ("sinh", "a.sinh()", False), ("cosh", "a.cosh()", False), ("tanh", "a.tanh()", False),
    ("asinh", "a.asinh()", False), ("acosh", "(b + 1).acosh()", False), ("atanh", "(b - 1).atanh()", False),
    ("sigmoid", "a.sigmoid()", False), ("exp2", "a.exp2()", False), ("expm1", "a.expm1()", False),
    ("log2", "b.log2()", False), ("log10", "b.log10()", False), ("log1p", "b.log1p()", False),
    ("rsqrt", "b.rsqrt()", False), ("erf", "a.erf()", False), ("erfc", "a.erfc()", False), ("erfinv", "(b - 1).erfinv()", False),
    ("floor", "a.floor() * a", True), ("round", "a.round() + a.round(decimals=1) * a", True),
    ("frac", "a.frac()", True), ("sign", "a.sign() * a", True), ("abs", "a.abs()", True),
    ("clamp", "a.clamp(-0.5, 0.5)", True), ("clamp_min", "a.clamp(min=0.1)", True),
    ("clamp_tensor", "a.clamp(b - 1, b)", True), ("clamp_min_t", "torch.clamp_min(a, b - 1)", True),
    ("clamp_max", "a.clamp_max(0.2)", True), ("clip", "torch.clip(a, max=0.3)", True),
    ("where", "torch.where(a > 0, a, b)", True), ("where_number", "torch.where(a > 0, a * 2, 0.5)", True),
    ("addcmul", "torch.addcmul(a, a, b, value=0.5)", True), ("addcdiv", "torch.addcdiv(a, a, b, value=2)", True),
    ("lerp", "torch.lerp(a, b, 0.3) * torch.lerp(a, b * 2, b - 1)", False),
    ("lerp_inplace", "(a * 1).lerp_(b, b * 0.5) + b.lerp(a[0], 0.75)", False),
    ("maximum", "torch.maximum(a, b - 1)", True), ("minimum", "torch.minimum(a, b.round())", True),
    ("fmod", "torch.fmod(a, 0.3) + torch.fmod(a, b)", True), ("remainder", "a % 0.3 + a % b", True),
    ("atan2", "torch.atan2(a, b)", False), ("relu_where", "a.relu()", True),
]:
    show = "print(a.grad.tolist() if a.grad is not None else None, b.grad.tolist() if b.grad is not None else None)" \
        if exact else "print(r(a.grad) if a.grad is not None else None, r(b.grad) if b.grad is not None else None)"
    snip(f"math_{name}", ROUND + f"""
torch.manual_seed(0)
a = torch.randn(3, 5, requires_grad=True)
b = (torch.rand(3, 5) + 0.5).requires_grad_()
out = {expr}
print(type(out.grad_fn).__name__)
(out * torch.randn(out.shape)).sum().backward()
{show}
""")

snip("broadcast_and_reuse", """
torch.manual_seed(1)
x = torch.randn(4, 3, requires_grad=True)
bias = torch.randn(3, requires_grad=True)
s = torch.randn(1, 1, requires_grad=True)
y = x * bias + s - x * x / 2 + x
y.sum().backward()
print(x.grad.tolist(), bias.grad.tolist(), s.grad.tolist())
""")

snip("used_three_times_and_noncontiguous", """
torch.manual_seed(2)
x = torch.randn(5, 4, requires_grad=True)
xt = x.t()
y = xt * 1.7 + xt.exp() * 0.3 - xt.relu() / 3
z = y[:, ::2] * x.t()[:, ::2]
(z.sum(0) * torch.randn(3)).sum().backward()
print(x.grad.tolist())
w = torch.randn(3, 1, 4, requires_grad=True)
u = (w * w.transpose(0, 2) + w.expand(3, 5, 4).mean(1, keepdim=True)).sum()
u.backward()
print(w.grad.tolist())
""")

snip("linear_mlp_grads", ROUND + """
torch.manual_seed(0)
lin1 = torch.nn.Linear(5, 7)
lin2 = torch.nn.Linear(7, 3)
x = torch.randn(6, 5)
out = lin2(lin1(x).relu())
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
loss = ((out - 1) * (out - 1)).mean()
loss.backward()
for p in list(lin1.parameters()) + list(lin2.parameters()):
    print(r(p.grad))
""")

snip("linear_nd_and_vector", ROUND + """
torch.manual_seed(0)
lin = torch.nn.Linear(4, 2)
v = lin(torch.randn(4))
m = lin(torch.randn(2, 3, 4))
print(type(v.grad_fn).__name__, type(m.grad_fn).__name__)
(v.sum() + m.sum()).backward()
print(r(lin.weight.grad), r(lin.bias.grad))
""")

snip("matmul_shapes", ROUND + GRAPH + """
torch.manual_seed(0)
a = torch.randn(2, 3, 4, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
v = torch.randn(4, requires_grad=True)
m = torch.randn(3, 4, requires_grad=True)
for out in [a @ b, a @ v, v @ b, m @ v, v @ v, a @ a.transpose(1, 2)]:
    names(out)
    out.sum().backward()
print(r(a.grad), r(b.grad), r(v.grad), r(m.grad))
""")

snip("grad_fn_names_and_edges", GRAPH + """
x = torch.ones(2, 3, requires_grad=True)
c = torch.ones(2, 3)
for t in [x + 1, 1 + x, 2 - x, x * c, 2 / x, x.sum(), x.sum(0), x[0], x[:, 1:], x[0, 1:], x[None], x[...],
          x[:, :], x[1:, :], x[torch.tensor([0, 1])], x.t().reshape(6), x.view(6).view(2, 3), torch.addmm(torch.ones(3), x, torch.ones(3, 3)), x.unbind(0)[0]]:
    names(t)
print(x.float() is x, x.grad_fn, x.is_leaf, (x * 2).is_leaf)
""")

snip("repr_suffixes", """
x = torch.tensor([1., 2.], requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(x.detach())
print(torch.nn.Parameter(torch.ones(2)))
with torch.no_grad():
    print(x * 2)
""")

snip("accumulate_and_identity", """
x = torch.tensor([1., 2., 3.], requires_grad=True)
(x * x).sum().backward()
g = x.grad
(x * 3).sum().backward()
print(x.grad.tolist(), x.grad is g)
x.grad = None
(x * x * x).sum().backward()
print(x.grad.tolist())
x.grad.zero_()
print(x.grad.tolist())
""")

snip("retain_graph_and_twice", """
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad.tolist())
y.backward()
z = (x + 1).sum()
z.backward(); z.backward()
print(x.grad.tolist())
""")

snip("errors", """
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).backward()
torch.ones(2).sum().backward()
x.add_(1)
x[0] = 5.
torch.tensor(3, requires_grad=True)
torch.arange(3).requires_grad_()
y = x * 2
y.requires_grad = False
y.requires_grad_(False)
print(y.requires_grad_(True) is y)
t = torch.arange(3)
t.requires_grad = True
x.numpy()
torch.ones(2).register_hook(lambda g: g)
torch.ones(2).retain_grad()
x.grad = 0.
x.grad = torch.ones(3)
x.grad = torch.ones(2, dtype=torch.float64)
x.grad = x
torch.autograd.grad((x * 2).sum(), torch.ones(2, requires_grad=True))
torch.autograd.grad((x * 2).sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True)
torch.autograd.grad((x * 2).sum(), [])
(x * 2).backward(torch.ones(3))
x.sum().backward(inputs=[])
""")

snip("version_counter", """
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 2
c = b.log()
b.add_(1)
c.sum().backward()
e = a.exp()
e.mul_(2)
e.sum().backward()
w = torch.tensor([1., 2.], requires_grad=True)
p = a * w
with torch.no_grad():
    w.add_(1)
p.sum().backward()
print(a._version, w._version, b._version)
""")

snip("no_grad_and_manual_sgd", """
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(10, 3)
y = torch.randn(10)
for step in range(5):
    loss = ((x @ w - y) * (x @ w - y)).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    print(loss.item())
print(w.tolist(), w.requires_grad, w.is_leaf)
with torch.no_grad():
    z = w * 2
print(z.requires_grad, z.grad_fn, torch.is_grad_enabled())
""")

snip("hooks_and_retain_grad", """
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
z = y * y
h = x.register_hook(lambda g: g * 10)
y.register_hook(lambda g: print("y hook", g.tolist()))
z.sum().backward()
print(x.grad.tolist(), y.grad.tolist(), y.retains_grad, x.retains_grad)
h.remove()
x.grad = None
(x * 1).sum().backward()
print(x.grad.tolist())
""")

snip("autograd_grad", """
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.tensor([4., 5., 6.], requires_grad=True)
out = (x * y + x * x).sum()
gx, gy = torch.autograd.grad(out, [x, y])
print(gx.tolist(), gy.tolist(), x.grad, y.grad)
mid = x * 3
g, = torch.autograd.grad((mid * mid).sum(), mid)
print(g.tolist())
d, = torch.autograd.grad((x * x * x).sum(), x, create_graph=True)
print(d.tolist(), d.requires_grad)
dd, = torch.autograd.grad(d.sum(), x)
print(dd.tolist())
print(torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True))
""")

snip("backward_inputs", """
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
(x * w).sum().backward(inputs=[w])
print(x.grad, w.grad.tolist())
""")

snip("custom_function", """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * x * k
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x * x * ctx.k, None

x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x, 2.0)
print(y, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad.tolist())
""")

snip("detach_and_data", """
x = torch.tensor([1., 2.], requires_grad=True)
d = x.detach()
print(d.requires_grad, d._base is None, d._is_view())
d.add_(1)
print(x._version, x.tolist())
v = x.data
v.mul_(2)
print(x._version, x.tolist(), v.requires_grad)
y = x * 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)
print(torch.autograd.Variable(x) is x, torch.autograd.Variable(y, requires_grad=True).requires_grad)
""")

snip("inplace_on_views_copyslices", GRAPH + """
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x * 2
v = y[0]
v.mul_(x[1])
names(y); names(v)
y.sum().backward()
print(x.grad.tolist())
z = torch.zeros(2, 3)
w = torch.tensor([1., 2., 3.], requires_grad=True)
z[1] = w * w
z[0, 1:] = 7.
names(z)
(z * z).sum().backward()
print(w.grad.tolist())
a = torch.ones(4, requires_grad=True)
b = a * 3
b[1:3] += a[:2] * 5
b.relu_()
names(b)
b.sum().backward()
print(a.grad.tolist())
out = torch.zeros(3, 2)
h = torch.ones(2, requires_grad=True)
for i in range(3):
    out[i] = h * (i + 1)
out.sum().backward()
print(h.grad.tolist())
c = torch.ones(3, requires_grad=True)
c[0] = 2.
c[1:].add_(1)
""")

snip("node_hooks", """
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y.sum()
h1 = y.grad_fn.register_prehook(lambda go: print("pre", [g.tolist() for g in go]))
h2 = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
z.backward(retain_graph=True)
print(x.grad.tolist())
h2.remove()
x.grad = None
z.backward()
print(x.grad.tolist())
""")

snip("training_loop_by_hand", """
torch.manual_seed(1)
X = torch.randn(64, 3)
Y = (X[:, :1] * 2 - X[:, 1:2]).tanh()
model = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
for step in range(100):
    out = model(X)
    loss = ((out - Y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
    if step % 25 == 0:
        print(step, round(loss.item(), 4))
print(model(X[:3]))
""")

snip("polynomial_fit_by_hand", """
import math
x = torch.arange(-500, 500, dtype=torch.float) * (math.pi / 500)
y = x * 0.5 - x ** 3 * 0.05
torch.manual_seed(0)
a, b, c, d = (torch.randn((), requires_grad=True) for _ in range(4))
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 1e-5 * p.grad
            p.grad = None
print(round(loss.item(), 3), [round(p.item(), 5) for p in (a, b, c, d)])
""")

snip("grad_access_warning_value", """
x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.grad)
""")


snip("index_with_0d_bool_masks", """
T, F = torch.tensor(True), torch.tensor(False)
i01 = torch.tensor([0, 1])
for idx in [T, F, True, False, (slice(None), T), (T, T), (T, 1), (Ellipsis, F), (None, T), (T, slice(0, 1)),
            (T, i01), (i01, T), (F, i01), (T, slice(None), i01), (T, None, F), (Ellipsis, T),
            (torch.tensor([True, False]), T)]:
    x = torch.arange(24., dtype=torch.float64).reshape(2, 3, 4).requires_grad_()
    y = x[idx]
    print(tuple(y.shape), y.grad_fn.name(), [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    y.backward(torch.arange(float(y.numel()), dtype=torch.float64).reshape(y.shape) + 1)
    print(x.grad.tolist())
    w = x.clone()
    v = torch.tensor(7., dtype=torch.float64, requires_grad=True)
    w[idx] = v
    print(w.grad_fn.name(), [type(n).__name__ for n, _ in w.grad_fn.next_functions])
    w.backward(torch.full(w.shape, 2.0, dtype=torch.float64))
    print(x.grad.tolist(), v.grad)
z = torch.tensor(3.0, requires_grad=True)
y = z[T]
y.backward(torch.tensor([5.]))
print(tuple(y.shape), z.grad)
x = torch.arange(6., dtype=torch.float64).reshape(2, 3).requires_grad_()
g, = torch.autograd.grad(x[T].pow(2).sum(), x, create_graph=True)
print(type(g.grad_fn).__name__, g.tolist())
print(torch.autograd.grad(g.sum(), x)[0].tolist())
""")

snip("inplace_comparisons_and_samplers_record_nodes", """
def show(t):
    fn = t.grad_fn
    print(fn.name(), [(type(n).__name__, k) for n, k in fn.next_functions])
x = torch.rand(3, dtype=torch.float64, requires_grad=True)
q = torch.rand(3, dtype=torch.float64, requires_grad=True)
for op in ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"]:
    for other in (0.5, q, torch.tensor(0.5, dtype=torch.float64)):
        y = x * 1
        getattr(y, op)(other)
        show(y)
        y.sum().backward()
        print(x.grad.tolist(), q.grad)
        x.grad = None
y = torch.rand(3, dtype=torch.float64)
y.lt_(q)
show(y)
for op in ["logical_and_", "logical_or_", "logical_xor_"]:
    y = x * 1
    getattr(y, op)(torch.ones(3))
    show(y)
z = (x * 1).view(3)
z.ge_(0.2)
print(z.grad_fn.name(), z._base.grad_fn.name())
try:
    x.eq_(0.5)
except RuntimeError as e:
    print(e)
torch.manual_seed(0)
p = torch.full((3,), 0.5, dtype=torch.float64, requires_grad=True)
for fill in [lambda t: t.bernoulli_(), lambda t: t.bernoulli_(0.3), lambda t: t.bernoulli_(p),
             lambda t: t.exponential_(), lambda t: t.exponential_(2.0)]:
    y = x * 1
    fill(y)
    show(y)
    y.sum().backward()
    print(y.tolist(), x.grad.tolist(), p.grad)
    x.grad = None
    p.grad = None
y = torch.bernoulli(x, 0.5)
print(y.grad_fn.name(), y.requires_grad, y.tolist())
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
for bad in [lambda: x * 1 // 2, lambda: 2 % x, lambda: 2 // x]:
    y = bad()
    print(y.grad_fn.name())
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(e)
for op in ["acosh_", "asinh_", "atanh_"]:
    y = (x * 0.5 + (1.5 if op == "acosh_" else 0.1))
    getattr(y, op)()
    show(y)
    try:
        y.sum().backward()
    except NotImplementedError as e:
        print(e)
""")

snip("requires_grad_tensors_refuse_export_and_resize", """
x = torch.rand(3, requires_grad=True)
for t in (x, x * 2):
    for f in [lambda: t.numpy(), lambda: t.__array__(), lambda: t.__dlpack__(), lambda: t.resize_(2),
              lambda: t.resize_as_(torch.ones(4))]:
        try:
            f()
        except (RuntimeError, BufferError) as e:
            print(type(e).__name__, e)
print(torch.from_dlpack(torch.to_dlpack(x * 2)).tolist() == (x * 2).tolist())
with torch.no_grad():
    try:
        x.resize_(1)
    except RuntimeError as e:
        print(e)
for t in (x, x.view(3, 1).t(), torch.tensor(1., requires_grad=True)):
    y = torch.Tensor(t)
    print(y.grad_fn.name(), tuple(y.shape), y.stride(), y._base is t)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_autograd_parity(code):
    compare(code)


# ---- what needs no torch -------------------------------------------------------------------------------


def test_memory_is_freed_after_backward():
    # no cycles between nodes and tensors: dropping the loss frees the graph at once
    import weakref

    x = minitorch.ones(3, requires_grad=True)
    y = (x * 2).exp()
    ref = weakref.ref(y.grad_fn)
    loss = y.sum()
    del y
    loss.backward()
    del loss
    assert ref() is None
    assert x.grad.tolist() == pytest.approx([2 * 2.718281828459045**2] * 3)


def test_cycles_through_hooks_are_collected():
    import weakref

    x = minitorch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g, y=y: g)     # the hook holds y, y holds its node, the node holds the hook
    ref = weakref.ref(y)
    del y
    gc.collect()
    assert ref() is None


def test_long_chain_frees_without_recursion():
    x = minitorch.ones(2, requires_grad=True)
    y = x
    for _ in range(100000):
        y = y * 1.0
    y.sum().backward()
    del y
    assert x.grad.tolist() == [1.0, 1.0]


def test_backward_in_threads():
    errors = []

    def work(k):
        try:
            for _ in range(50):
                x = minitorch.full((3,), float(k), requires_grad=True)
                ((x * x).sum() * 0.5).backward()
                assert x.grad.tolist() == [float(k)] * 3
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_grad_mode_is_per_thread():
    seen = []
    with minitorch.no_grad():
        t = threading.Thread(target=lambda: seen.append(minitorch.is_grad_enabled()))
        t.start()
        t.join()
        assert not minitorch.is_grad_enabled()
    assert seen == [True]


def test_gradients_on_the_device(device):
    x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], device=device, requires_grad=True)
    w = minitorch.tensor([[0.5], [-1.0]], device=device, requires_grad=True)
    loss = (x @ w).relu().sum() + (x * x).mean()
    loss.backward()
    assert x.grad.device == x.device and w.grad.device == w.device
    cpu_x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    cpu_w = minitorch.tensor([[0.5], [-1.0]], requires_grad=True)
    ((cpu_x @ cpu_w).relu().sum() + (cpu_x * cpu_x).mean()).backward()
    assert x.grad.cpu().flatten().tolist() == pytest.approx(cpu_x.grad.flatten().tolist())
    assert w.grad.cpu().flatten().tolist() == pytest.approx(cpu_w.grad.flatten().tolist())


def test_gradient_crosses_devices(device):
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x.to(device) * 3
    y.sum().backward()
    assert x.grad.device.type == "cpu" and x.grad.tolist() == [3.0, 3.0]


# ---- gradcheck: every derivative against finite differences, in float64, on each device ---------------

GRADCHECK_CASES = [
    ("add", lambda a, b: torch_add(a, b), 2), ("sub_alpha", lambda a, b: minitorch.sub(a, b, alpha=0.5), 2),
    ("mul", lambda a, b: a * b, 2), ("div", lambda a, b: a / (b + 3), 2), ("rsub", lambda a: 2 - a, 1),
    ("neg", lambda a: -a, 1), ("abs", lambda a: (a + 0.05).abs(), 1), ("relu", lambda a: (a + 0.05).relu(), 1),
    ("exp", lambda a: a.exp(), 1), ("log", lambda a: (a * a + 1).log(), 1), ("sqrt", lambda a: (a * a + 1).sqrt(), 1),
    ("reciprocal", lambda a: (a * a + 1).reciprocal(), 1), ("sum", lambda a: a.sum(), 1),
    ("sum_dim", lambda a: a.sum(0), 1), ("mean", lambda a: a.mean(), 1), ("mean_dim", lambda a: a.mean(1, True), 1),
    ("max", lambda a: a.max(), 1), ("mm", lambda a, b: a @ b.t(), 2), ("mv", lambda a, b: a @ b[0], 2),
    ("dot", lambda a, b: a[0] @ b[1], 2), ("bmm", lambda a, b: a.unsqueeze(0) @ b.t().unsqueeze(0), 2),
    ("matmul_fold", lambda a, b: a.unsqueeze(0).expand(2, 3, 4) @ b.t(), 2),
    ("addmm", lambda a, b: minitorch.addmm(b[0, :3], a, b.t(), beta=0.5, alpha=2.0), 2),
    ("views", lambda a: a.t().reshape(12).view(4, 3).transpose(0, 1).permute(1, 0).unsqueeze(0).squeeze(0), 1),
    ("expand", lambda a: a[:1].expand(5, 4), 1), ("select_slice", lambda a: a[1, 1:4] * a[:, 2], 1),
    ("unbind_split", lambda a: a.unbind(1)[2] * a.split(2, 0)[1].sum(), 1),
    ("to_cpu", lambda a: a.to("cpu") * 2, 1), ("clone", lambda a: a.clone() * a, 1),
    ("pow", lambda a, b: a ** 3 + (b * b + 1) ** (a * 0.5) + 2 ** a, 2), ("trig", lambda a: a.sin() * a.cos() + a.tan(), 1),
    ("inverse_trig", lambda a: (a * 0.3).asin() + (a * 0.3).acos() + a.atan(), 1),
    ("hyperbolic", lambda a: a.sinh() + a.cosh() + a.tanh() + a.asinh() + (a * a + 1.5).acosh() + (a * 0.3).atanh(), 1),
    ("exp_log_family", lambda a: a.exp2() + a.expm1() + (a * a + 1).log2() + (a * a + 1).log10() + (a * a).log1p(), 1),
    ("sigmoid_rsqrt_erf", lambda a: a.sigmoid() + (a * a + 1).rsqrt() + a.erf() + a.erfc() + (a * 0.3).erfinv(), 1),
    ("clamp_where", lambda a, b: a.clamp(-0.5, 0.5) + a.clamp(b - 0.5, b + 0.5) + minitorch.where(a > b, a, b * 2), 2),
    ("addc", lambda a, b: minitorch.addcmul(a, a, b, value=0.5) + minitorch.addcdiv(a, b, a * a + 1, value=2), 2),
    ("lerp", lambda a, b: minitorch.lerp(a, b, 0.3) + minitorch.lerp(a, b, b * a) + (a * 1).lerp_(b, b), 2),
    ("max_min_atan2", lambda a, b: minitorch.maximum(a, b) * minitorch.minimum(a, b) + minitorch.atan2(a, b), 2),
    ("fmod_remainder", lambda a, b: minitorch.fmod(a, b + 3) + a % (b + 3), 2),
]


def torch_add(a, b):
    return minitorch.add(a, b, alpha=1.5)


@pytest.mark.parametrize("name,fn,n", [c for c in GRADCHECK_CASES if c[0] != "cat_stack"],
                         ids=[c[0] for c in GRADCHECK_CASES if c[0] != "cat_stack"])
def test_gradcheck(device, name, fn, n):
    minitorch.manual_seed(0)
    inputs = [minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_() for _ in range(n)]
    assert minitorch.autograd.gradcheck(fn, inputs)


def test_gradcheck_cat_stack(device):
    minitorch.manual_seed(0)
    a, b = (minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_() for _ in range(2))
    assert minitorch.autograd.gradcheck(lambda a, b: minitorch.cat([a, b * 2]).sum(0) * minitorch.stack([a, b]).sum(),
                                        (a, b))


def test_gradcheck_finds_a_wrong_formula():
    class Wrong(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = minitorch.randn(3, dtype=minitorch.float64, requires_grad=True)
    assert minitorch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
        minitorch.autograd.gradcheck(Wrong.apply, (x,))


def test_memory_after_backward_is_parameters_and_grads(device):
    # torch's numbers: once the loss is gone, the graph's saved tensors are too; what stays is the
    # parameters, the input and one gradient per parameter (each rounded to 512 bytes)
    if device == "cpu":
        pytest.skip("memory_allocated() counts CUDA memory")
    minitorch.manual_seed(0)
    lin = minitorch.nn.Linear(64, 32).to(device)
    x = minitorch.randn(16, 64, device=device)
    before = minitorch.cuda.memory_allocated()
    loss = lin(x).relu().sum() + (lin(x) * lin(x)).mean()
    loss.backward()
    del loss
    assert minitorch.cuda.memory_allocated() == before + 64 * 32 * 4 + 512
    lin.weight.grad = None
    lin.bias.grad = None
    assert minitorch.cuda.memory_allocated() == before


def test_sgn_records_its_own_node():
    compare(textwrap.dedent("""
    x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
    y = x.sgn()
    print(type(y.grad_fn).__name__, type(x.sign().grad_fn).__name__, y)
    (y * x).sum().backward()
    print(x.grad)
    print(torch.sgn(torch.tensor([True, False])), torch.tensor([-3, 0, 2]).sgn())
    """))


def test_double_backward_through_slice_and_select():
    # the backward of SliceBackward0/SelectBackward0 is itself differentiable (torch's
    # SliceBackwardBackward0/SelectBackwardBackward0), so a second derivative reaches what fed the grad
    compare("""
        torch.manual_seed(0)
        x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
        w = torch.tensor(2., dtype=torch.float64, requires_grad=True)
        g, = torch.autograd.grad(x[:, :1].sum() * x.sum(), x, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), x))
        g, = torch.autograd.grad((x[:, 1:3:2] * w).sum(), x, create_graph=True)
        print(g.grad_fn.name(), torch.autograd.grad(g.sum(), w))
        g, = torch.autograd.grad((x[1] * w * x[1]).sum(), x, create_graph=True)
        print(g, g.grad_fn.name(), torch.autograd.grad(g.sum(), [x, w]))
        h, = torch.autograd.grad(g[1].sum(), w, create_graph=True)
        print(h)
    """)



def test_double_backward_through_inplace_views_and_scans():
    # under create_graph the backward of CopySlices (an in-place write into a view of a non-leaf) and of the
    # scans (cumsum's reversed running sum, cumprod's, the in-place cumsum_/cumprod_) is recorded, so the
    # first gradient has history and the second derivative is torch's; pdist's has none, as in torch
    compare("""
        torch.manual_seed(0)
        x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
        def lower(v):
            w = v.tril(-1)
            w.diagonal(0, -2, -1).fill_(1.0)
            return w
        def scaled(v):
            w = v * 1
            w[0, 0] = 1.0
            w[1:, 1].mul_(3)
            return w
        for name, f in [("tril+fill_", lower), ("setitem+mul_", scaled), ("cumsum", lambda v: v.cumsum(0)),
                        ("cumprod", lambda v: v.cumprod(1)), ("cumsum_", lambda v: (v * 1).cumsum_(0)),
                        ("cumprod_", lambda v: (v * 1).cumprod_(1)), ("logcumsumexp", lambda v: v.logcumsumexp(0)),
                        ("prod", lambda v: v.prod(1)), ("cumprod zeros", lambda v: (v * (v > 0)).cumprod(1)),
                        ("prod zeros", lambda v: (v * (v > 0)).prod(0)), ("pdist", torch.pdist)]:
            g, = torch.autograd.grad((f(x) ** 3).sum(), x, create_graph=True)
            print(name, g.grad_fn is not None)
            try:
                print(torch.autograd.grad((g * g).sum(), x))
            except NotImplementedError as e:
                print(e)
    """)

ITERATION = """
torch.manual_seed(0)
t = torch.randn(3, 2, dtype=torch.float64).to(DEV).requires_grad_()
rows = [r for r in t]
print([type(r.grad_fn).__name__ for r in rows], rows[0].grad_fn is rows[2].grad_fn, [r._version for r in rows])
print([r.grad_fn.name() for r in list(t)], [r.requires_grad for r in iter(t)], len(list(t)), rows[1]._base is t)
print(rows[0].grad_fn.next_functions[0][0].__class__.__name__, [r.is_leaf for r in rows])
loss = sum((k + 1) * (r ** 2).sum() for k, r in enumerate(rows))
loss.backward()
print(t.grad.cpu())
t.grad = None
(rows[1] * torch.tensor([2.0, -1.0], dtype=torch.float64, device=DEV)).sum().backward()
print(t.grad.cpu())
u = (t * 2).t()
print([type(c.grad_fn).__name__ for c in u], [c.shape for c in u])
print(torch.autograd.grad(sum(c.sum() for c in u), t)[0].cpu())
print([c.grad_fn for c in t.detach()], [c.requires_grad for c in t.detach()])
with torch.no_grad():
    print([c.grad_fn for c in t])
x = torch.arange(6, device=DEV).view(3, 2)
for r in x:
    r.add_(1)
print(x.cpu(), [r.cpu().tolist() for r in x], x.unbind(0)[0].grad_fn)
iter(torch.tensor(1.5, device=DEV))
[r for r in torch.tensor(2, device=DEV)]
print(list(torch.zeros(0, 2, device=DEV)), [r.shape for r in torch.zeros(2, 0, device=DEV)])
"""


def test_iteration_is_unbind(device):
    """Tensor.__iter__ is torch's iter(self.unbind(0)): the rows share one UnbindBackward0 node and the
    gradient flows back through it (torch's values); a 0-d tensor raises torch's TypeError."""
    from parity import compare_on
    compare_on(device, ITERATION)
