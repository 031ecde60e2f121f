"""nn's activations and losses against torch 2.13: values, gradients (of the input and, for the losses,
of the target), grad_fn names, module reprs and errors, printed by the same snippet under both. Ops
without a transcendental function are compared bit for bit (hex floats); the others within a relative
1e-5 plus 1e-5 (torch's CPU kernels take exp, log and erf from SLEEF or MKL, and a gradient like
1 - tanh(x)**2 magnifies an ulp of tanh(x) where it saturates)."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close, import_torch  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


SHOW = """
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
        if isinstance(x, torch.Tensor) and x.requires_grad:
            show(x.grad, exact)
            x.grad = None
"""

ACTIVATIONS = {
    "leaky_relu": ("F.leaky_relu(x)", True), "leaky_relu_slope": ("F.leaky_relu(x, 0.2)", True),
    "elu": ("F.elu(x)", False), "elu_alpha": ("F.elu(x, alpha=0.5)", False), "selu": ("F.selu(x)", False),
    "celu": ("F.celu(x, alpha=2.0)", False), "gelu": ("F.gelu(x)", False),
    "gelu_tanh": ("F.gelu(x, approximate='tanh')", False), "silu": ("F.silu(x)", False),
    "mish": ("F.mish(x)", False), "softplus": ("F.softplus(x)", False),
    "softplus_beta": ("F.softplus(x * 10, beta=2, threshold=5)", False),
    "hardtanh": ("F.hardtanh(x, -0.5, 0.7)", True), "relu6": ("F.relu6(x * 4)", True),
    "logsigmoid": ("F.logsigmoid(x * 3)", False), "hardswish": ("F.hardswish(x * 4)", True),
    "hardsigmoid": ("F.hardsigmoid(x * 4)", True), "tanh": ("F.tanh(x)", False), "sigmoid": ("F.sigmoid(x)", False),
}
for name, (expr, exact) in ACTIVATIONS.items():
    snip(f"act_{name}", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = (torch.randn(5, 7, dtype=dtype) * 3).requires_grad_()
    x.data[0, :3] = torch.tensor([0.0, -3.0, 3.0], dtype=dtype)
    check(lambda x: {expr}, {exact}, x)
    check(lambda x: {expr}, {exact}, x.detach().t().requires_grad_())
""")

snip("activation_modules", """
import torch.nn as nn
for m in (nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.ELU(), nn.ELU(alpha=0.5, inplace=True), nn.CELU(),
          nn.SELU(), nn.SELU(inplace=True), nn.GELU(), nn.GELU("tanh"), nn.SiLU(), nn.SiLU(True), nn.Mish(),
          nn.Softplus(), nn.Softplus(beta=2, threshold=10), nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.ReLU6(),
          nn.ReLU6(inplace=True), nn.Hardswish(), nn.Hardsigmoid(), nn.Tanh(), nn.Sigmoid(), nn.LogSigmoid()):
    torch.manual_seed(0)
    x = torch.randn(2, 3)
    print(m, [round(v, 5) for v in m(x).flatten().tolist()])
print(nn.Sequential(nn.Linear(2, 3), nn.GELU(), nn.Linear(3, 1), nn.Sigmoid()))
x = torch.randn(4)
y = nn.LeakyReLU(0.1, inplace=True)(x)
print(y is x, x)
""")

snip("activation_errors", """
import torch.nn.functional as F
x = torch.randn(3)
F.gelu(x, approximate="fast")
F.hardtanh(x, 2, 1)
F.leaky_relu(torch.ones(3, requires_grad=True), inplace=True)
""")

LOSSES = {
    "mse": ("F.mse_loss(x, t)", True), "mse_sum": ("F.mse_loss(x, t, reduction='sum')", True),
    "mse_none": ("F.mse_loss(x, t, reduction='none')", True),
    "mse_broadcast": ("F.mse_loss(x, t[0])", True),
    "l1": ("F.l1_loss(x, t)", True), "l1_none": ("F.l1_loss(x, t, reduction='none')", True),
    "smooth_l1": ("F.smooth_l1_loss(x, t)", True), "smooth_l1_beta": ("F.smooth_l1_loss(x, t, beta=0.3, reduction='sum')", True),
    "smooth_l1_zero_beta": ("F.smooth_l1_loss(x, t, beta=0.0)", True),
    "huber": ("F.huber_loss(x, t)", False), "huber_delta": ("F.huber_loss(x, t, delta=0.4, reduction='none')", False),
    "bce": ("F.binary_cross_entropy(x.sigmoid(), p)", False),
    "bce_weight_sum": ("F.binary_cross_entropy(x.sigmoid(), p, weight=w, reduction='sum')", False),
    "bce_target_grad": ("F.binary_cross_entropy(x.sigmoid(), q)", False),
    "bce_logits": ("F.binary_cross_entropy_with_logits(x, p)", False),
    "bce_logits_pos_weight": ("F.binary_cross_entropy_with_logits(x, q, weight=w, pos_weight=w[0] + 1)", False),
    "bce_logits_none": ("F.binary_cross_entropy_with_logits(x * 30, q, reduction='none')", False),
}
for name, (expr, exact) in LOSSES.items():
    snip(f"loss_{name}", SHOW + f"""
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    x = torch.randn(4, 6, dtype=dtype, requires_grad=True)
    t = torch.randn(4, 6, dtype=dtype, requires_grad=True)
    p = torch.rand(4, 6, dtype=dtype)
    q = torch.rand(4, 6, dtype=dtype, requires_grad=True)
    w = torch.rand(6, dtype=dtype)
    check(lambda x, t, q: {expr}, {exact}, x, t, q)
""")

snip("loss_modules_and_errors", """
import torch.nn as nn
import torch.nn.functional as F
for m in (nn.MSELoss(), nn.MSELoss(reduction="sum"), nn.L1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0),
          nn.BCELoss(), nn.BCELoss(weight=torch.ones(3)), nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))):
    torch.manual_seed(0)
    print(m, list(m.state_dict()), "%.6g" % m(torch.rand(2, 3), torch.rand(2, 3)).item())
print(nn.MSELoss(size_average=False).reduction, nn.MSELoss(reduce=False).reduction)
x = torch.rand(3)
F.mse_loss(x, x, reduction="average")
F.binary_cross_entropy(x, x[:2])
F.binary_cross_entropy(x * 2, x)
F.binary_cross_entropy(x, x - 1)
F.binary_cross_entropy_with_logits(x, x[:1])
F.huber_loss(x, x, delta=0)
F.smooth_l1_loss(x, x, beta=-1)
F.mse_loss(x, torch.ones(2, 3))
F.mse_loss(x, torch.ones(4))
F.l1_loss(x, x, weight=torch.ones(3), reduction="mean")
print(F.mse_loss(torch.arange(3.0), torch.arange(3)), F.l1_loss(torch.arange(3.0), torch.tensor([1, 1, 1])))
""")

snip("train_regression_mse_sgd", """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
x = torch.randn(64, 3); y = (x[:, :1] * 2 - x[:, 1:2]).sin()
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for t in range(40):
    loss = loss_fn(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if t % 10 == 9:
        print(t, "%.5g" % loss.item())
""")

snip("double_backward", """
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
for f in (lambda x: F.mse_loss(x, torch.zeros(5, dtype=torch.float64)), lambda x: F.silu(x).sum(),
          lambda x: F.softplus(x).sum(), lambda x: F.leaky_relu(x, 0.1).pow(2).sum()):
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), x)
    print(["%.10g" % v for v in gg.tolist()])
""")


# the in-place forms: torch's node (LeakyReluBackward1, EluBackward1, ...), one version bump, the leaf error,
# the saved result's version check, a view's CopySlices, and gradients bit for bit (hex floats)
INPLACE = """
import torch.nn.functional as F
CASES = [
    ("relu", lambda t: F.relu(t, inplace=True)), ("relu_", lambda t: t.relu_()),
    ("leaky_relu", lambda t: F.leaky_relu(t, 0.2, inplace=True)), ("leaky_relu_", lambda t: F.leaky_relu_(t, 0.2)),
    ("elu", lambda t: F.elu(t, 0.5, inplace=True)), ("elu_", lambda t: F.elu_(t, 0.5)),
    ("selu", lambda t: F.selu(t, inplace=True)), ("celu", lambda t: F.celu(t, 0.7, inplace=True)),
    ("celu1", lambda t: F.celu(t, inplace=True)), ("silu", lambda t: F.silu(t, inplace=True)),
    ("hardtanh", lambda t: F.hardtanh(t, -0.5, 0.5, inplace=True)), ("hardtanh_", lambda t: F.hardtanh_(t, -0.5, 0.5)),
    ("relu6", lambda t: F.relu6(t, inplace=True)), ("hardswish", lambda t: F.hardswish(t, inplace=True)),
    ("hardsigmoid", lambda t: F.hardsigmoid(t, inplace=True)),
]
def run(f):
    try:
        f()
    except Exception as e:
        print("!!", type(e).__name__, str(e)[:220])
def hexes(t):
    return [float(v).hex() for v in t.detach().flatten().tolist()]
"""

snip("inplace_activation_graphs", INPLACE + """
for dtype in (torch.float64, torch.float32):
    for name, fn in CASES:
        x = torch.tensor([-4.0, -1.5, -0.2, 0.05, 0.3, 2.0, 3.5, 7.0], dtype=dtype, requires_grad=True)
        y = x * 1.0
        v0 = y._version
        r = fn(y)
        print(name, dtype, r is y, type(y.grad_fn).__name__,
              [type(n).__name__ for n, _ in y.grad_fn.next_functions], y._version - v0, y.requires_grad)
        # silu's exp is SLEEF's in torch: decimals, compared within 1e-5
        show = (lambda t: t.tolist()) if name == "silu" else hexes
        print("  ", show(y))
        r.backward(torch.arange(1.0, 9.0, dtype=dtype))
        print("  ", show(x.grad))
""")

snip("inplace_activation_errors", INPLACE + """
x = torch.tensor([-1.5, -0.2, 0.05, 0.3, 2.0, 7.0], dtype=torch.float64, requires_grad=True)
for name, fn in CASES:
    print(name)
    run(lambda: fn(x))
    z = x * 1.0
    q = z * z
    fn(z)
    run(lambda: q.sum().backward())
    z = x * 1.0
    zz = fn(z)
    t = zz * 3
    fn(zz)
    run(lambda: t.sum().backward())
    z = x * 1.0
    w = fn(z)
    w.sum().backward()
    run(lambda: w.sum().backward())
    z = x * 1.0
    view = z[1:4]
    fn(view)
    print(type(z.grad_fn).__name__, z.grad_fn.name(), type(view.grad_fn).__name__, view._version, z._version)
    x.grad = None
    z.backward(torch.arange(1.0, 7.0, dtype=torch.float64))
    print(hexes(x.grad))
    x.grad = None
    with torch.no_grad():
        leaf = x.clone().requires_grad_()
        fn(leaf)
        print(leaf.requires_grad, leaf.grad_fn, leaf._version)
    plain = torch.tensor([-1.0, 2.0])
    print(fn(plain).tolist(), plain._version, plain.grad_fn)
""")

snip("inplace_activation_modules_and_double_backward", INPLACE + """
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(inplace=True), torch.nn.Linear(5, 5),
                          torch.nn.LeakyReLU(0.1, inplace=True), torch.nn.Linear(5, 5), torch.nn.ELU(inplace=True),
                          torch.nn.Linear(5, 5), torch.nn.Hardtanh(-0.3, 0.3, inplace=True), torch.nn.Linear(5, 1))
out = net(torch.randn(3, 4))
print(type(out.grad_fn).__name__)
fn = out.grad_fn
names = []
while fn is not None:
    names.append(type(fn).__name__)
    fn = fn.next_functions[0][0]
print(names)
out.sum().backward()
print([p.grad.tolist() for p in net.parameters()])
x = torch.tensor([-3.0, -1.5, -0.2, 0.3, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
for name, fn in CASES + [("hardsigmoid_out_of_place", F.hardsigmoid)]:
    y = fn(x * 1.5)
    g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    print(name, g.tolist(), type(g.grad_fn).__name__)
    # hardsigmoid: torch's NotImplemented node raises "derivative for aten::hardsigmoid_backward ..."
    run(lambda: print(torch.autograd.grad(g.sum(), x)[0].tolist()))
""")


snip("hardsigmoid_double_backward_not_implemented", """
import torch.nn.functional as F
x = torch.tensor([0.5, -1.0, 4.0], dtype=torch.float64, requires_grad=True)
for inplace in (False, True):
    g, = torch.autograd.grad(F.hardsigmoid(x * 1.0, inplace=inplace).pow(2).sum(), x, create_graph=True)
    print(type(g.grad_fn).__name__, [type(n).__name__ for n, _ in g.grad_fn.next_functions], g.requires_grad, g.tolist())
    print([type(n).__name__ for n, _ in g.grad_fn.next_functions[0][0].next_functions])
    try:
        g.sum().backward()
    except RuntimeError as e:
        print(e)
    h, = torch.autograd.grad(F.hardsigmoid(x * 1.0, inplace=inplace).sum(), x, create_graph=True)
    print(type(h.grad_fn).__name__, [type(n).__name__ for n, _ in h.grad_fn.next_functions], h.tolist())
    k, = torch.autograd.grad(F.hardsigmoid(x * 1.0, inplace=inplace).sum(), x)
    print(k.requires_grad, k.grad_fn, k.tolist())
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_nn_functional_parity(code):
    # a snippet that prints hex floats compares them exactly (no decimal number appears in them)
    compare_close(code, rtol=1e-5, atol=1e-5)


GRADCHECK = [
    ("leaky_relu", lambda x, t: minitorch.nn.functional.leaky_relu(x, 0.3)),
    ("elu_selu_celu", lambda x, t: minitorch.nn.functional.elu(x) + minitorch.nn.functional.selu(x)
     + minitorch.nn.functional.celu(x, 0.7)),
    ("gelu", lambda x, t: minitorch.nn.functional.gelu(x) + minitorch.nn.functional.gelu(x, approximate="tanh")),
    ("silu_mish", lambda x, t: minitorch.nn.functional.silu(x) * minitorch.nn.functional.mish(x)),
    ("softplus_logsigmoid", lambda x, t: minitorch.nn.functional.softplus(x, 2.0, 3.0)
     + minitorch.nn.functional.logsigmoid(x)),
    ("hard", lambda x, t: minitorch.nn.functional.hardswish(x * 4) + minitorch.nn.functional.hardsigmoid(x * 4)
     + minitorch.nn.functional.hardtanh(x, -0.4, 0.6)),
    ("mse", lambda x, t: minitorch.nn.functional.mse_loss(x, t)),
    ("smooth_l1_huber", lambda x, t: minitorch.nn.functional.smooth_l1_loss(x, t, beta=0.5)
     + minitorch.nn.functional.huber_loss(x, t, delta=0.5, reduction="sum")),
    ("bce", lambda x, t: minitorch.nn.functional.binary_cross_entropy(x.sigmoid(), t.sigmoid())),
    ("bce_logits", lambda x, t: minitorch.nn.functional.binary_cross_entropy_with_logits(
        x, t.sigmoid(), pos_weight=minitorch.full((4,), 2.0, dtype=minitorch.float64, device=x.device))),
]


@pytest.mark.parametrize("name,fn", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    x, t = (minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_() for _ in range(2))
    # keep x away from the kinks (0, +-3, the clamp bounds), where finite differences straddle two branches
    x.data.add_(minitorch.where(x.detach().abs() < 0.05, 0.1, 0.0).to(device))
    assert minitorch.autograd.gradcheck(fn, (x, t))


# ---- gelu: torch's CPU kernel bit for bit -------------------------------------------------------------


def _gelu_values(rng, n):
    """n values that reach every branch: normal, tiny, large, beyond the saturations, inf, NaN, zeros."""
    import numpy as np

    v = np.concatenate([rng.standard_normal(n) * 3, rng.standard_normal(n) * 1e-4, rng.uniform(-30, 30, n)])
    v[::11] = rng.uniform(-1e-30, 1e-30, v[::11].shape)
    v[1::13] = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e38, -1e38])[np.arange(v[1::13].size) % 7]
    return v


def _gelu_bits(t, lib):
    """The bit patterns of a CPU tensor of either library, NaNs as one value (their payloads are not
    compared), for an exact comparison."""
    import numpy as np

    t = t.detach().contiguous()
    wide = t.to(lib.float64).numpy()
    bits = t.view(lib.int16 if t.element_size() == 2 else lib.int32 if t.element_size() == 4 else lib.int64).numpy()
    return np.where(np.isnan(wide), -1, bits.astype(np.int64))


def test_gelu_bits_match_torch_cpu_kernel():
    """gelu and its gradient, both approximations, every floating dtype: torch's CPU kernel's bits (its
    vector body with SLEEF's tanh and erf or torch's own float erf, and its scalar tail with the C
    library's), on contiguous runs of 1 to 40 elements, a strided input (element by element), rows whose
    contiguous runs have a tail, and a tensor big enough for torch's thread split; and where torch hands
    the call to oneDNN (float32 and bfloat16 approximate='none' on a contiguous input of 2+ elements), the
    bits of oneDNN's gelu_erf."""
    import numpy as np

    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    rng = np.random.default_rng(7)
    shapes = [(n,) for n in range(1, 41)] + [(3, 50), (6, 45), (20001,)]
    for name in ("float32", "float64", "float16", "bfloat16"):
        tdt, mdt = getattr(torch, name), getattr(minitorch, name)
        for approximate in ("none", "tanh"):
            for shape in shapes:
                n = int(np.prod(shape))
                x = torch.tensor(_gelu_values(rng, n)[:n].reshape(shape)).to(tdt)
                g = torch.tensor(rng.standard_normal(n).reshape(shape) * 4).to(tdt)
                views = [lambda a: a]
                if len(shape) == 2:
                    views += [lambda a: a[:, ::2], lambda a: a[:, 3:40]]
                for view in views:
                    xt, gt = view(x).detach().requires_grad_(), view(g)
                    yt = torch.nn.functional.gelu(xt, approximate=approximate)
                    (dt,) = torch.autograd.grad(yt, xt, gt)
                    xm = view(minitorch.tensor(x.to(torch.float64).numpy()).to(mdt)).detach().requires_grad_()
                    gm = view(minitorch.tensor(g.to(torch.float64).numpy()).to(mdt))
                    ym = minitorch.nn.functional.gelu(xm, approximate=approximate)
                    assert type(ym.grad_fn).__name__ == "GeluBackward0"
                    (dm,) = minitorch.autograd.grad(ym, xm, gm)
                    where = (name, approximate, shape, tuple(xt.stride()))
                    assert np.array_equal(_gelu_bits(ym, minitorch), _gelu_bits(yt, torch)), where
                    assert np.array_equal(_gelu_bits(dm, minitorch), _gelu_bits(dt, torch)), where
    # nn.GELU is the same kernel
    x = torch.tensor(_gelu_values(rng, 37)[:37]).float()
    for module, t in ((torch.nn.GELU("tanh"), x), (torch.nn.GELU(), x), (torch.nn.GELU(), x.double()),
                      (torch.nn.GELU(), x.half()), (torch.nn.GELU(), torch.stack([x, x], 1)[:, 0])):
        mmod = minitorch.nn.GELU(module.approximate)
        mt = minitorch.tensor(t.to(torch.float64).numpy()).to(getattr(minitorch, str(t.dtype)[6:]))
        if not t.is_contiguous():
            mt = minitorch.stack([mt, mt], 1)[:, 0]
        assert np.array_equal(_gelu_bits(mmod(mt), minitorch), _gelu_bits(module(t), torch))
    # the gradient of a sum: a broadcast (stride 0) gradient, which torch's vector loop takes as one number
    for name in ("float32", "float64", "bfloat16"):
        for approximate in ("none", "tanh"):
            xt = x.to(getattr(torch, name)).detach().clone().requires_grad_()
            xm = minitorch.tensor(x.numpy()).to(getattr(minitorch, name)).requires_grad_()
            (torch.nn.functional.gelu(xt, approximate=approximate) * 3).sum().backward()
            (minitorch.nn.functional.gelu(xm, approximate=approximate) * 3).sum().backward()
            assert np.array_equal(_gelu_bits(xm.grad, minitorch), _gelu_bits(xt.grad, torch)), (name, approximate)


GELU_UNDER_CAPABILITY = """
import numpy as np, torch, minitorch
g = np.random.default_rng(3)
for name in ("float32", "float64", "float16", "bfloat16"):
    for approximate in ("none", "tanh"):
        for n in (5, 37, 100):
            a = (g.standard_normal((3, n)) * 4).astype(np.float32)
            for view in (lambda t: t, lambda t: t[:, 1:]):
                xt = view(torch.tensor(a).to(getattr(torch, name))).requires_grad_()
                xm = view(minitorch.tensor(a).to(getattr(minitorch, name))).requires_grad_()
                yt, ym = (m.nn.functional.gelu(x, approximate=approximate) for m, x in ((torch, xt), (minitorch, xm)))
                (yt * yt).sum().backward()
                (ym * ym).sum().backward()
                assert ym.tolist() == yt.tolist() and xm.grad.tolist() == xt.grad.tolist(), (name, approximate, n)
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_gelu_bits_under_each_capability(capability):
    """torch's portable build (ATEN_CPU_CAPABILITY=default) has no vector body and fuses nothing, its AVX2
    one takes vectors of 32 bytes; minitorch reads the same variable, so gelu's bits stay torch's."""
    from subproc import python_output

    if import_torch() is None:
        pytest.skip("real torch is not installed")
    out = python_output(GELU_UNDER_CAPABILITY, env={"ATEN_CPU_CAPABILITY": capability})
    assert out.strip() == capability.upper()


# ---- bernoulli and dropout: torch's masks after manual_seed ----------------------------------------

snip("bernoulli", """
for n in (7, 40, 1000):
    torch.manual_seed(n)
    print(torch.empty(n).bernoulli_(0.3).sum().item(), torch.rand(1).item())
    torch.manual_seed(n)
    print(torch.empty(n, dtype=torch.float64).bernoulli_().sum().item())
    torch.manual_seed(n)
    p = torch.rand(n)
    print(torch.bernoulli(p).sum().item(), torch.bernoulli(p.double()).sum().item(), torch.rand(1).item())
torch.manual_seed(2)
print(torch.empty(6, 8).t().bernoulli_(0.5).tolist()[0])
torch.manual_seed(2)
print(torch.empty(6, 8)[:, ::2].bernoulli_(0.5).tolist())
torch.manual_seed(3)
print(torch.empty(5).bernoulli_(0.5), torch.empty(3, dtype=torch.int64).bernoulli_(0.5))
print(torch.bernoulli(torch.ones(3), 0.3), torch.empty(3).bernoulli_(torch.tensor([0.0, 1.0, 0.5])))
torch.empty(3).bernoulli_(1.5)
torch.bernoulli(torch.tensor([1, 0]))
torch.empty(3).bernoulli_(torch.tensor([0.1, 0.9]))
x = torch.tensor([0.5, 0.2], requires_grad=True)
y = torch.bernoulli(x)
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
""")

snip("dropout", """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 6, requires_grad=True)
for p in (0.2, 0.5, 0.9):
    y = F.dropout(x, p)
    print(type(y.grad_fn).__name__, y.tolist())
    y.sum().backward()
    print(x.grad.tolist())
    x.grad = None
print(F.dropout(x, 0.0) is x, F.dropout(x, 0.5, training=False) is x, F.dropout(x, 1.0))
d = nn.Dropout(0.25)
print(d, nn.Dropout2d(0.3, inplace=True), nn.Dropout1d(), nn.Dropout3d(0.1))
print(d(x).tolist())
d.eval()
print(d(x) is x)
torch.manual_seed(1)
print(F.dropout2d(torch.ones(2, 3, 2, 2), 0.5).tolist())
print(F.dropout1d(torch.ones(3, 4), 0.5).tolist(), F.dropout3d(torch.ones(2, 2, 1, 1, 2), 0.5).tolist())
z = torch.ones(5)
print(F.dropout(z, 0.5, inplace=True) is z, z)
F.dropout(x, 1.5)
nn.Dropout(-0.1)
F.dropout1d(torch.ones(2, 2, 2, 2))
F.dropout2d(torch.ones(3), 0.5)
""")

snip("alpha_dropout", """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3, 5, requires_grad=True)
for p in (0.2, 0.5, 0.9):
    for f in (F.alpha_dropout, F.feature_alpha_dropout):
        y = f(x, p, True)
        print(type(y.grad_fn).__name__, y.tolist())
        y.sum().backward()
        print(x.grad.tolist())
        x.grad = None
print(F.alpha_dropout(x, 0.5) is x, F.alpha_dropout(x, 0.0, True) is x, F.alpha_dropout(x, 1.0, True))
print(F.alpha_dropout(x.double().detach(), 0.3, True).tolist())
z = torch.ones(2, 3, 4)
print(F.feature_alpha_dropout(z, 0.5, True, inplace=True) is z, z.tolist())
print(nn.AlphaDropout(), nn.FeatureAlphaDropout(0.3, inplace=True))
d = nn.AlphaDropout(0.4)
print(d(x).tolist())
print(d.eval()(x) is x)
print(torch.dropout(x, 0.5, True).tolist(), torch.feature_dropout(x, 0.5, False) is x)
print(torch.alpha_dropout(x, 0.5, True).tolist(), torch.feature_alpha_dropout(x, 0.5, True).tolist())
w = torch.ones(3, 2, 2)
print(torch.dropout_(w, 0.5, True) is w, torch.alpha_dropout_(w, 0.2, True).tolist())
print(torch.feature_dropout_(w, 0.5, True).tolist(), torch.feature_alpha_dropout_(w, p=0.5, train=True).tolist())
print(F.dropout2d(torch.ones(3), training=False), F.dropout2d(torch.ones(3), 1.0))
F.alpha_dropout(x, 1.5)
nn.AlphaDropout(2)
torch.alpha_dropout(x, 0.5, "yes")
torch.dropout(x)
torch.feature_alpha_dropout(torch.ones(3), 0.5, True)
torch.feature_dropout_(w, p=0.1, train=1)
F.dropout2d(torch.ones(3), 0.5)
""")

snip("gumbel_softmax", """
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
y = F.gumbel_softmax(x)
print(type(y.grad_fn).__name__, [round(v, 5) for v in y.flatten().tolist()])
y[:, 0].sum().backward()
print([round(v, 5) for v in x.grad.flatten().tolist()])
h = F.gumbel_softmax(x, tau=0.3, hard=True, dim=0)
print(type(h.grad_fn).__name__, h.tolist())
print([round(v, 5) for v in F.gumbel_softmax(x.double(), tau=2.0, dim=0).flatten().tolist()])
print(F.gumbel_softmax(x, eps=1e-5).shape)
""")


snip("nll_loss", """
import torch.nn.functional as F
def t(f):
    r = f()
    print([round(v, 5) for v in r.flatten().tolist()] if r.dim() else round(r.item(), 5), type(r.grad_fn).__name__)
torch.manual_seed(0)
x = torch.randn(3, 4)
y = torch.tensor([0, 3, 1])
t(lambda: F.nll_loss(x, y.int()))
t(lambda: F.nll_loss(x, y.float()))
t(lambda: F.nll_loss(x, y[:2]))
t(lambda: F.nll_loss(x, torch.tensor([0, 4, 1])))
t(lambda: F.nll_loss(x, torch.tensor([0, -1, 1])))
t(lambda: F.nll_loss(x, torch.tensor([0, -100, 1])))
t(lambda: F.nll_loss(x, torch.tensor([-100, -100, -100])))
t(lambda: F.nll_loss(x, torch.tensor([-100, -100, -100]), reduction="sum"))
t(lambda: F.nll_loss(torch.randn(4), torch.tensor(2)))
t(lambda: F.nll_loss(torch.randn(()), torch.tensor(2)))
t(lambda: F.nll_loss(x, y, weight=torch.ones(3)))
t(lambda: F.nll_loss(torch.randn(2, 3, 4), torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]])))
t(lambda: F.nll_loss(torch.randn(2, 3, 4), torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]]), reduction="none"))
t(lambda: F.nll_loss(torch.randn(2, 3, 4), torch.tensor([[0, 1, 2], [1, 1, 1]])))
t(lambda: F.nll_loss(x, y, reduction="bad"))
t(lambda: F.nll_loss(x, y.view(3, 1)))
t(lambda: F.nll_loss(x, y, ignore_index=3, reduction="none"))
w = torch.rand(4)
for red in ("mean", "sum", "none"):
    a = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    tg = torch.tensor([1, 0, 3, 3, 2])
    loss = F.nll_loss(a, tg, weight=w.double(), reduction=red, ignore_index=0)
    print(type(loss.grad_fn).__name__, loss.flatten().tolist())
    loss.sum().backward()
    print(a.grad.flatten().tolist())
a = torch.randn(2, 3, 2, 2, requires_grad=True)
loss = torch.nn.NLLLoss()(a, torch.tensor([[[0, 1], [2, 2]], [[1, 1], [0, 2]]]))
loss.backward()
print(loss.item(), a.grad.flatten().tolist())
print(torch.nn.NLLLoss(weight=torch.ones(3), ignore_index=1))
""")


# ---- convolution and pooling ----------------------------------------------------------------------

snip("conv_pool_functional", """
import torch.nn.functional as F
def t(f):
    try:
        y = f(); print(tuple(y.shape), type(y.grad_fn).__name__ if y.grad_fn else None, r(y)[:8])
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.randn(2, 4, 7, 6, dtype=torch.float64, requires_grad=True)
for kw in [dict(), dict(padding=1), dict(stride=2), dict(padding=(2, 1), stride=(2, 3), dilation=(2, 1)), dict(groups=2), dict(padding='same'), dict(padding='valid')]:
    g = kw.get('groups', 1)
    w = torch.randn(6, 4 // g, 3, 2, dtype=torch.float64, requires_grad=True); b = torch.randn(6, dtype=torch.float64, requires_grad=True)
    y = F.conv2d(x, w, b, **kw)
    print(kw, tuple(y.shape), type(y.grad_fn).__name__, r(y)[:6])
    torch.manual_seed(1); gy = torch.randn(y.shape, dtype=torch.float64)
    y.backward(gy)
    print(r(x.grad)[:8], r(w.grad)[:8], r(b.grad)); x.grad = None
y = F.conv1d(torch.randn(2, 3, 9), torch.randn(4, 3, 3), torch.randn(4), padding=1, stride=2); print(r(y)[:8])
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), dict(kernel_size=(2, 3), stride=1, dilation=(2, 1)), dict(kernel_size=3, stride=2, ceil_mode=True)]:
    y = F.max_pool2d(x, **kw); print("max", kw, tuple(y.shape), type(y.grad_fn).__name__, r(y)[:6])
    y.backward(torch.ones_like(y)); print(r(x.grad)[:12]); x.grad = None
    print(F.max_pool2d(x, return_indices=True, **kw)[1].flatten().tolist()[:10])
    y = F.avg_pool2d(x, **{k: v for k, v in kw.items() if k != 'dilation'}); print("avg", tuple(y.shape), type(y.grad_fn).__name__, r(y)[:6])
    y.backward(torch.ones_like(y)); print(r(x.grad)[:12]); x.grad = None
y = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False); print(r(y)[:10])
y.sum().backward(); print(r(x.grad)[:12]); x.grad = None
y = F.avg_pool2d(x, 2, divisor_override=3); print(r(y)[:5])
for o in [(1, 1), 2, (3, 4), (5, None)]:
    y = F.adaptive_avg_pool2d(x, o); print("adaptive", o, tuple(y.shape), type(y.grad_fn).__name__, r(y)[:6])
    y.sum().backward(); print(r(x.grad)[:8]); x.grad = None
xx = torch.randn(2, 3, 5, 5); w3 = torch.randn(8, 3, 3, 3)
t(lambda: F.conv2d(torch.randn(2, 3), w3))
t(lambda: F.conv2d(torch.randn(2, 4, 5, 5), w3))
t(lambda: F.conv2d(torch.randn(2, 3, 2, 2), w3))
t(lambda: F.conv2d(xx, w3, stride=0))
t(lambda: F.conv2d(xx, w3, padding=-1))
t(lambda: F.conv2d(xx, torch.randn(8, 1, 3, 3), groups=3))
t(lambda: F.conv2d(xx, w3, bias=torch.randn(7)))
t(lambda: F.conv2d(xx, w3, padding='same', stride=2))
t(lambda: F.conv2d(xx, w3, padding='bogus'))
t(lambda: F.conv2d(xx, torch.randn(8, 3, 2, 2), padding='same'))
t(lambda: F.conv2d(torch.randn(3, 5, 5), w3))
t(lambda: F.conv2d(xx, w3.double()))
t(lambda: F.conv2d(xx, torch.randn(8, 3, 3)))
t(lambda: F.max_pool2d(xx, 3, padding=2))
t(lambda: F.max_pool2d(xx, 7))
t(lambda: F.max_pool2d(torch.randn(3, 5, 5, requires_grad=True), 2))
""")

snip("conv_modules_and_training", """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
print(nn.Conv2d(3, 8, 3), nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, dilation=2, bias=False), nn.Conv2d(4, 8, 3, padding='same', groups=2), nn.MaxPool2d(2), nn.MaxPool2d(3, 2, 1, ceil_mode=True), nn.AvgPool2d(2), nn.AdaptiveAvgPool2d((1, 1)), nn.Conv1d(3, 4, 3))
c = nn.Conv2d(3, 4, 3); print([round(v, 6) for v in c.weight.flatten().tolist()[:6]], [round(v, 6) for v in c.bias.tolist()])
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)
torch.manual_seed(0)
net = Net(); print(net)
x = torch.randn(16, 1, 28, 28); y = torch.randint(0, 10, (16,))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(5):
    out = net(x)
    loss = F.nll_loss(out - out.exp().sum(1, keepdim=True).log(), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, "%.5f" % loss.item())
for make in ("nn.Conv2d(3, 6, 3, groups=2)", "nn.Conv2d(4, 6, 3, groups=4)", "nn.Conv2d(3, 6, 3, padding='bogus')", "nn.Conv2d(3, 6, 3, padding='same', stride=2)", "nn.Conv2d(3, 6, 3, groups=0)"):
    try: eval(make)
    except Exception as e: print(type(e).__name__, e)
""")


def test_gradcheck_conv_pool(device):
    F = minitorch.nn.functional
    minitorch.manual_seed(0)

    def make(*shape):
        return minitorch.randn(*shape, dtype=minitorch.float64).to(device).requires_grad_()

    x, w, b = make(2, 4, 6, 5), make(6, 2, 3, 2), make(6)
    assert minitorch.autograd.gradcheck(
        lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2), (x, w, b))
    assert minitorch.autograd.gradcheck(lambda x: F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True), (x,))
    assert minitorch.autograd.gradcheck(
        lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), (x,))
    assert minitorch.autograd.gradcheck(lambda x: F.adaptive_avg_pool2d(x, (4, 3)), (x,))
    assert minitorch.autograd.gradcheck(lambda x, w: F.conv1d(x, w, padding="same"), (make(2, 3, 7), make(4, 3, 4)))


# ---- normalisation -----------------------------------------------------------------------------------

snip("batch_norm_layer_norm", """
import torch.nn as nn
import torch.nn.functional as F
def r(t): return [round(v, 5) for v in t.detach().flatten().tolist()]
print(nn.BatchNorm2d(4), nn.BatchNorm1d(3, momentum=None, affine=False), nn.LayerNorm(5), nn.LayerNorm((2, 3), elementwise_affine=False), list(nn.BatchNorm2d(4).state_dict().keys()))
torch.manual_seed(0)
x = torch.randn(3, 4, 3, 2, requires_grad=True)
b = nn.BatchNorm2d(4)
b.weight.data.copy_(torch.randn(4)); b.bias.data.copy_(torch.randn(4))
for step in range(3):
    y = b(x * (step + 1)); print(type(y.grad_fn).__name__, r(y)[:6], r(b.running_mean), r(b.running_var), b.num_batches_tracked)
    torch.manual_seed(step); y.backward(torch.randn(y.shape)); print(r(x.grad)[:8], r(b.weight.grad), r(b.bias.grad)); x.grad = None; b.zero_grad()
b.eval(); y = b(x); print(r(y)[:6]); y.sum().backward(); print(r(x.grad)[:6]); x.grad = None
m = nn.BatchNorm1d(4, momentum=None)
for step in range(3):
    m(torch.randn(5, 4) + step)
print(r(m.running_mean), r(m.running_var))
print(r(nn.BatchNorm1d(4, affine=False, track_running_stats=False)(torch.randn(6, 4, 2))))
l = nn.LayerNorm((3, 2)); l.weight.data.copy_(torch.randn(3, 2)); l.bias.data.copy_(torch.randn(3, 2))
y = l(x); print(type(y.grad_fn).__name__, r(y)[:6]); y.backward(torch.randn(y.shape)); print(r(x.grad)[:8], r(l.weight.grad), r(l.bias.grad))
def t(f):
    try: f()
    except Exception as e: print(type(e).__name__, e)
t(lambda: nn.BatchNorm2d(4)(torch.randn(2, 3, 3, 3)))
t(lambda: nn.BatchNorm2d(4)(torch.randn(2, 4, 3)))
t(lambda: nn.BatchNorm1d(4)(torch.randn(1, 4)))
t(lambda: nn.LayerNorm(4)(torch.randn(2, 3)))
t(lambda: F.layer_norm(torch.randn(2, 3), (3,), torch.ones(2)))
t(lambda: nn.BatchNorm1d(4)(torch.randn(2, 4, 3, 3)))
x64 = torch.randn(4, 3, dtype=torch.float64)
t(lambda: F.batch_norm(x64, torch.zeros(3), torch.ones(3), training=True))
t(lambda: F.batch_norm(x64, None, None, torch.ones(3), None, training=True))
t(lambda: F.batch_norm(torch.randn(4, 3), None, None, torch.ones(3, dtype=torch.float64), None, training=True))
t(lambda: F.batch_norm(x64, torch.zeros(3, dtype=torch.float64), torch.ones(3), training=False))
t(lambda: F.batch_norm(x64, None, None, torch.ones(3, dtype=torch.float64), torch.zeros(3), training=True))
t(lambda: F.layer_norm(x64, (3,), torch.ones(3)))
t(lambda: F.layer_norm(torch.randn(4, 3), (3,), None, torch.zeros(3, dtype=torch.float64)))
t(lambda: nn.LayerNorm(3)(x64))
t(lambda: nn.BatchNorm1d(3)(x64))
""")


# torch's CPU kernels' own order of operations: float32 batch and layer norm bit for bit (hex floats), over
# several training steps (outputs, every grad, running statistics), eval mode and the functional forms. The
# (N, C) batch-norm path sums per thread, so both run with the same thread count.
NORM_HEX = """
import torch.nn as nn
import torch.nn.functional as F
threads = torch.get_num_threads()
torch.set_num_threads(2)
def h(t): return None if t is None else [v.hex() for v in t.detach().flatten().tolist()]
def steps(m, shape, n=3, scale=2.0):
    for step in range(n):
        x = (torch.randn(shape) * scale + 0.5).requires_grad_()
        y = m(x)
        y.backward(torch.randn(shape))
        print(type(y.grad_fn).__name__, h(y), h(x.grad))
        print(h(m.weight.grad) if getattr(m, "weight", None) is not None else None,
              h(m.bias.grad) if getattr(m, "bias", None) is not None else None)
        if getattr(m, "running_mean", None) is not None:
            print(h(m.running_mean), h(m.running_var), m.num_batches_tracked)
        m.zero_grad()
"""

snip("batch_norm_hex", NORM_HEX + """
torch.manual_seed(0)
for shape, momentum in (((4, 3, 5, 7), 0.1), ((6, 5, 8, 8), None), ((2, 4, 3, 3), 0.3)):
    m = nn.BatchNorm2d(shape[1], momentum=momentum)
    with torch.no_grad():
        m.weight.copy_(torch.randn(shape[1])); m.bias.copy_(torch.randn(shape[1]))
    steps(m, shape)
    m.eval()
    steps(m, shape, n=1)
for shape, momentum in (((3, 4, 17), 0.1), ((5, 3, 40), None), ((4, 6, 2), 0.1), ((6, 4, 1), 0.1),
                        ((2, 3), 0.1), ((5, 7), None), ((33, 9), 0.2), ((64, 10), 0.1), ((3, 20), 0.1)):
    m = nn.BatchNorm1d(shape[1], momentum=momentum)
    with torch.no_grad():
        m.weight.copy_(torch.randn(shape[1])); m.bias.copy_(torch.randn(shape[1]))
    steps(m, shape)
    m.eval()
    steps(m, shape, n=1)
steps(nn.BatchNorm1d(4, affine=False), (9, 4))
steps(nn.BatchNorm2d(3, affine=False, track_running_stats=False), (2, 3, 4, 5))
torch.set_num_threads(threads)
""")

snip("batch_norm_functional_hex", NORM_HEX + """
torch.manual_seed(1)
x = (torch.randn(4, 3, 6) * 3).requires_grad_()
w, b = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
rm, rv = torch.randn(3), torch.rand(3) + 0.5
for training in (True, False):
    for weight, bias in ((w, b), (w, None), (None, b), (None, None)):
        y = F.batch_norm(x, rm, rv, weight, bias, training=training, momentum=0.2, eps=1e-3)
        y.backward(torch.randn(y.shape))
        print(training, h(y), h(x.grad), h(w.grad), h(b.grad), h(rm), h(rv))
        x.grad = w.grad = b.grad = None
y = F.batch_norm(x, None, None, w, b, training=True)
y.sum().backward()
print(h(y), h(x.grad), h(w.grad), h(b.grad))
strided = (torch.randn(3, 4, 6) * 2).permute(2, 1, 0).requires_grad_()
for training in (True, False):
    y = F.batch_norm(strided, rm, rv, w, b, training=training, momentum=0.1)
    y.backward(torch.randn(3, 4, 6).permute(2, 1, 0))
    print(training, h(y), h(strided.grad), h(w.grad), h(b.grad), h(rm), h(rv))
    strided.grad = w.grad = b.grad = None
y = F.layer_norm(strided, (3,), w[:3], b[:3])
y.sum().backward()
print(h(y), h(strided.grad), h(w.grad), h(b.grad))
torch.set_num_threads(threads)
""")

snip("layer_norm_hex", NORM_HEX + """
torch.manual_seed(2)
for shape, normalized, affine, bias in (((6, 5), (5,), True, True), ((4, 8), (8,), True, True),
                                        ((3, 13), (13,), False, True), ((2, 3, 24), (24,), True, False),
                                        ((3, 100), (100,), False, False), ((4, 130), (130,), True, True),
                                        ((2, 300), (300,), True, True), ((3, 1000), (1000,), True, True),
                                        ((2, 3, 4, 5), (4, 5), True, True), ((1, 17), (17,), True, True),
                                        ((9, 33), (33,), True, True)):
    m = nn.LayerNorm(normalized, elementwise_affine=affine, bias=bias)
    if affine:
        with torch.no_grad():
            m.weight.copy_(torch.randn(normalized))
            if bias:
                m.bias.copy_(torch.randn(normalized))
    steps(m, shape, n=2)
x = torch.randn(3, 7, requires_grad=True)
y = F.layer_norm(x, (7,), eps=1e-3)
y.backward(torch.randn(3, 7))
print(h(y), h(x.grad))
torch.set_num_threads(threads)
""")


def test_norm_double_backward(device):
    """create_graph through batch and layer norm: the input's second derivative (the first derivative's
    graph is built from the input) against central differences of the first derivative."""
    F = minitorch.nn.functional
    minitorch.manual_seed(0)

    def make(*shape):
        return minitorch.randn(*shape, dtype=minitorch.float64).to(device)

    cases = ((lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), make(3, 4, 5), (make(4), make(4))),
             (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), make(6, 3), (make(3), make(3))),
             (lambda x, w, b: F.layer_norm(x, (11,), w, b), make(3, 11), (make(11), make(11))))
    for f, x0, params in cases:
        v, u, d = make(*x0.shape), make(*x0.shape), make(*x0.shape)

        def first(x):
            x = x.detach().requires_grad_()
            ps = [p.detach().requires_grad_() for p in params]
            grads = minitorch.autograd.grad((f(x, *ps) * v).sum(), [x] + ps, create_graph=True)
            return x, grads

        x, grads = first(x0)
        assert grads[0].requires_grad and grads[1].requires_grad
        (second,) = minitorch.autograd.grad((grads[0] * u).sum(), x)
        eps = 1e-6
        plus, minus = first(x0 + eps * d)[1][0], first(x0 - eps * d)[1][0]
        numeric = ((plus - minus) * u).sum().item() / (2 * eps)
        assert abs((second * d).sum().item() - numeric) < 1e-5 * max(1.0, abs(numeric))


def test_gradcheck_norms(device):
    F = minitorch.nn.functional
    minitorch.manual_seed(0)

    def make(*shape):
        return minitorch.randn(*shape, dtype=minitorch.float64).to(device).requires_grad_()

    x, w, b = make(3, 4, 2, 2), make(4), make(4)
    assert minitorch.autograd.gradcheck(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (x, w, b))
    rm, rv = minitorch.rand(4, dtype=minitorch.float64).to(device), minitorch.rand(4, dtype=minitorch.float64).to(device) + 0.5
    assert minitorch.autograd.gradcheck(lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=False), (x, w, b))
    assert minitorch.autograd.gradcheck(lambda x, w, b: F.layer_norm(x, (2, 2), w, b),
                                        (x, make(2, 2), make(2, 2)))


snip("cross_entropy", """
import torch.nn as nn
import torch.nn.functional as F
def t(f):
    try:
        r = f()
        if isinstance(r, torch.Tensor):
            print([round(v, 5) for v in r.flatten().tolist()] if r.dim() else round(r.item(), 5),
                  type(r.grad_fn).__name__ if r.grad_fn.name() != "DivBackward1" else "Div",
                  [type(n[0]).__name__ for n in r.grad_fn.next_functions if n[0] is not None])
        else:
            print(type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
y = torch.tensor([0, 4, 2, 2])
p = torch.rand(4, 5).softmax(1)
w = torch.rand(5)
t(lambda: F.cross_entropy(x, y))
t(lambda: F.cross_entropy(x, y, reduction="sum"))
t(lambda: F.cross_entropy(x, y, reduction="none"))
t(lambda: F.cross_entropy(x, y, weight=w, ignore_index=2))
t(lambda: F.cross_entropy(x, p, weight=w, reduction="none"))
t(lambda: F.cross_entropy(x[0], y[0]))
t(lambda: F.cross_entropy(torch.randn(2, 3, 4, requires_grad=True), torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]])))
t(lambda: F.cross_entropy(torch.randn(2, 3, 2, 2, requires_grad=True), torch.tensor([[[0, 1], [2, 0]], [[1, 1], [1, 0]]]), reduction="none"))
t(lambda: F.cross_entropy(x, p.long()))
t(lambda: F.cross_entropy(x, p, ignore_index=1))
t(lambda: F.cross_entropy(x, y, label_smoothing=1.5))
t(lambda: F.cross_entropy(x, y[:3]))
t(lambda: F.cross_entropy(x, torch.tensor([0, 9, 1, 1])))
for kw in ({}, {"label_smoothing": 0.1}, {"weight": w}, {"weight": w, "label_smoothing": 0.2, "ignore_index": 4}):
    for target in (y, p):
        if "ignore_index" in kw and target is p:
            continue
        x.grad = None
        loss = nn.CrossEntropyLoss(**kw)(x, target)
        loss.backward()
        print(kw, round(loss.item(), 6), [round(v, 6) for v in x.grad.flatten().tolist()])
print(nn.CrossEntropyLoss(), nn.CrossEntropyLoss(weight=torch.ones(3), label_smoothing=0.1))
""")

snip("train_classifier_crossentropy_adam", """
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(128, 10)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(epoch, "%.5f" % loss.item())
model.eval()
with torch.no_grad():
    print((model(x).argmax(1) == y).float().mean().item())
""")


snip("nn_utils", """
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
x = torch.randn(5, 4)
for norm_type in (2.0, 1, float("inf"), 3):
    model.zero_grad()
    model(x).pow(2).sum().backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=norm_type)
    print(norm_type, round(total.item(), 5), [round(v, 5) for v in model[0].weight.grad.flatten().tolist()])
model.zero_grad()
model(x).pow(2).sum().backward()
nn.utils.clip_grad_value_(model.parameters(), 0.1)
print([round(v, 5) for v in model[2].weight.grad.flatten().tolist()])
print(nn.utils.clip_grad_norm_([], 1.0), nn.utils.clip_grad_norm_(model[0].weight, 100.0).item() > 0)
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, [round(v, 5) for v in vec[:5].tolist()])
nn.utils.vector_to_parameters(vec * 2, model.parameters())
print([round(v, 5) for v in model[0].bias.tolist()])
nn.utils.vector_to_parameters([1, 2], model.parameters())
p = nn.Parameter(torch.ones(2))
p.grad = torch.tensor([float("inf"), 1.0])
nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
""")


snip("embedding", """
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
e = nn.Embedding(10, 3); print(e, nn.Embedding(10, 3, padding_idx=0), [round(v, 4) for v in e.weight.flatten().tolist()[:6]])
print(nn.Embedding(10, 3, padding_idx=-3).padding_idx, nn.Embedding(4, 2, padding_idx=1).weight[1])
idx = torch.tensor([[1, 2], [1, 9]])
y = e(idx); print(type(y.grad_fn).__name__, [type(n[0]).__name__ for n in y.grad_fn.next_functions], y.shape)
y.pow(2).sum().backward(); print([round(v, 4) for v in e.weight.grad.flatten().tolist()])
e2 = nn.Embedding(6, 2, padding_idx=2, scale_grad_by_freq=True)
e2(torch.tensor([2, 2, 3, 3, 3, 1])).sum().backward(); print(e2.weight.grad.tolist(), e2)
def t(f):
    try: print(f())
    except Exception as ex: print(type(ex).__name__, ex)
t(lambda: e(torch.tensor([10])))
t(lambda: e(torch.tensor([-1])))
t(lambda: e(torch.tensor([1.0])))
t(lambda: e(torch.tensor([1], dtype=torch.int32)).shape)
t(lambda: nn.Embedding(10, 3, padding_idx=10))
pre = nn.Embedding.from_pretrained(torch.ones(3, 2)); print(pre, pre.weight.requires_grad, pre(torch.tensor([0])))
""")
