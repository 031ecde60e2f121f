"""torch.optim's Adamax, NAdam, RAdam, Adadelta, Rprop, ASGD, LBFGS and optim.swa_utils against torch 2.13:
every snippet runs under real torch and under minitorch and must print the same.

The models are small stacks of Linear layers built from the same seed (so the same initial weights).
Updates are checked bit for bit (parameters and state as hex floats, float32 and float64) with gradients
both compute exactly: set by hand from seeded random tensors plus a term in the parameter, so each
step depends on every earlier update. Adamax, Rprop and ASGD take no square root and are exact
everywhere; NAdam, RAdam and Adadelta are exact where minitorch's sqrt is torch's (MKL's generic kernels,
on an x86 CPU not made by Intel: README, "Known differences"), elsewhere compared to 5 significant
digits. Training through autograd (matrix products may sum in another order) and LBFGS (whose dot
products torch takes with BLAS) are compared to a relative tolerance. Reprs, defaults, param_groups,
state keys, load_state_dict and errors are compared as printed."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close, torch_sqrt_is_mkl_generic  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []
CLOSE_SNIPPETS = []


def snip(name, code, close=False):
    (CLOSE_SNIPPETS if close else SNIPPETS).append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# a model of Linear layers; each step's gradients are seeded random tensors plus half the parameter, and
# the last layer's bias gets none every third step (the optimizer skips it)
STEPS = """
EXACT = True

def hexes(t):
    values = t.detach().flatten().tolist()
    return [float(v).hex() for v in values] if EXACT else ["%.5g" % v for v in values]

def shown(x):
    if isinstance(x, torch.Tensor):
        return hexes(x) if x.dim() else (x.dtype, x.item())
    return x

def model(dtype):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 3)).to(dtype)

def run(make, steps=15, dtype=torch.float32):
    net = model(dtype)
    params = list(net.parameters())
    opt = make(params)
    for i in range(steps):
        opt.zero_grad()
        for j, p in enumerate(params):
            if j == 3 and i % 3 == 2:
                continue
            p.grad = torch.randn(p.shape, dtype=dtype) + p.detach() * 0.5
        opt.step()
    for p in params:
        print(hexes(p))
    state = opt.state_dict()
    for k, v in state["state"].items():
        print(k, {name: shown(x) for name, x in v.items()})
    print(state["param_groups"])
    return opt
"""

# (optimizer, whether its update takes a square root)
OPTIMIZERS = {
    "adamax": ("torch.optim.Adamax(p)", False),
    "adamax_wd_maximize": ("torch.optim.Adamax(p, lr=0.01, betas=(0.8, 0.95), eps=1e-4, weight_decay=0.1, "
                           "maximize=True)", False),
    "nadam": ("torch.optim.NAdam(p, lr=0.01)", True),
    "nadam_wd_momentum_decay": ("torch.optim.NAdam(p, lr=0.02, weight_decay=0.1, momentum_decay=0.05)", True),
    "nadam_decoupled_maximize": ("torch.optim.NAdam(p, lr=0.02, betas=(0.85, 0.99), weight_decay=0.2, "
                                 "decoupled_weight_decay=True, maximize=True)", True),
    "radam": ("torch.optim.RAdam(p, lr=0.01)", True),
    "radam_wd_betas": ("torch.optim.RAdam(p, lr=0.02, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1)", True),
    "radam_decoupled_maximize": ("torch.optim.RAdam(p, lr=0.02, betas=(0.9, 0.8), weight_decay=0.3, "
                                 "decoupled_weight_decay=True, maximize=True)", True),
    "adadelta": ("torch.optim.Adadelta(p)", True),
    "adadelta_options": ("torch.optim.Adadelta(p, lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1, maximize=True)",
                         True),
    "rprop": ("torch.optim.Rprop(p)", False),
    "rprop_etas_step_sizes": ("torch.optim.Rprop(p, lr=0.03, etas=(0.3, 1.5), step_sizes=(1e-3, 0.05), "
                              "maximize=True)", False),
    "asgd": ("torch.optim.ASGD(p)", False),
    "asgd_averaging": ("torch.optim.ASGD(p, lr=0.05, lambd=1e-2, alpha=0.5, t0=4, weight_decay=0.1)", False),
    "asgd_maximize": ("torch.optim.ASGD(p, lr=0.02, t0=0, maximize=True)", False),
}
for name, (make, takes_sqrt) in OPTIMIZERS.items():
    snip(f"steps_{name}", STEPS + f"""
EXACT = {not takes_sqrt or torch_sqrt_is_mkl_generic()}
opt = run(lambda p: {make})
print(opt)
opt = run(lambda p: {make}, dtype=torch.float64)
""")

snip("defaults_and_reprs", """
p = [torch.zeros(2, requires_grad=True)]
for make in (torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.Adadelta, torch.optim.Rprop,
             torch.optim.ASGD, torch.optim.LBFGS):
    opt = make(p)
    print(opt.defaults)
    print(opt)
    print(opt.state_dict())
torch.set_default_dtype(torch.float64)
opt = torch.optim.NAdam(p)
p[0].grad = torch.ones(2)
opt.step()
print({k: (v.dtype, v.device) for k, v in opt.state[p[0]].items()})
opt = torch.optim.ASGD(p)
opt.step()
print({k: (v.dtype, v.device) for k, v in opt.state[p[0]].items()})
torch.set_default_dtype(torch.float32)
""")

# param groups with their own options; the state saved after a few steps and loaded into a new optimizer
# continues as the original would
snip("groups_and_load_state_dict", STEPS + """
EXACT = False
def groups(make, options):
    for dtype in (torch.float32, torch.float64):
        net = model(dtype)
        p = list(net.parameters())
        opts = [make([{"params": p[:2]}, {"params": p[2:], **options}]) for _ in range(2)]
        for i in range(6):
            torch.manual_seed(i)
            for pp in p:
                pp.grad = torch.randn(pp.shape, dtype=dtype) - pp.detach()
            if i == 3:
                opts[1].load_state_dict(opts[0].state_dict())
            (opts[0] if i < 3 else opts[1]).step()
        print([hexes(pp) for pp in p])
        print(opts[1])
        print(sorted(opts[1].state[p[0]]), [(k, v.dtype) for k, v in opts[1].state[p[2]].items()])

groups(torch.optim.Adamax, {"lr": 0.1, "betas": (0.5, 0.6)})
groups(torch.optim.NAdam, {"lr": 0.1, "momentum_decay": 0.1})
groups(torch.optim.RAdam, {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True})
groups(torch.optim.Adadelta, {"rho": 0.5})
groups(torch.optim.Rprop, {"etas": (0.4, 1.3), "step_sizes": (1e-4, 1.0)})
groups(torch.optim.ASGD, {"t0": 2, "lambd": 0.1})
""")

# a 1-element tensor lr (the steps as with a number; Rprop's initial step sizes and ASGD's eta come from it)
snip("tensor_lr", STEPS + f"""
EXACT = {torch_sqrt_is_mkl_generic()}
for make in (torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.Rprop, torch.optim.ASGD):
    opt = run(lambda p: make(p, lr=torch.tensor([0.05])), steps=4)
    print(opt.param_groups[0]["lr"])
opt = run(lambda p: torch.optim.Adadelta(p, lr=torch.tensor(0.5)), steps=4)
""")

snip("errors", """
p = [torch.zeros(2, requires_grad=True)]
torch.optim.Adamax(p, lr=-1)
torch.optim.Adamax(p, eps=-1)
torch.optim.Adamax(p, betas=(1.0, 0.9))
torch.optim.Adamax(p, betas=(0.9, -0.1))
torch.optim.Adamax(p, weight_decay=-1)
torch.optim.Adamax([])
torch.optim.NAdam(p, momentum_decay=-1)
torch.optim.NAdam(p, betas=(0.9, 1.0))
torch.optim.NAdam(p, lr=torch.tensor([0.1, 0.2]))
torch.optim.RAdam(p, eps=-1e-3)
torch.optim.RAdam(p, weight_decay=-0.5)
torch.optim.Adadelta(p, rho=1.5)
torch.optim.Adadelta(p, rho=-0.1)
torch.optim.Adadelta(p, eps=-1)
torch.optim.Adadelta(p, weight_decay=-1)
torch.optim.Adadelta(p, lr=-2)
torch.optim.Rprop(p, etas=(1.5, 1.2))
torch.optim.Rprop(p, etas=(0.5, 0.9))
torch.optim.Rprop(p, etas=(0, 1.2))
torch.optim.Rprop(p, lr=-0.1)
torch.optim.ASGD(p, weight_decay=-1)
torch.optim.ASGD(p, lr=-1)
torch.optim.LBFGS(p, lr=-1)
torch.optim.LBFGS([{"params": [torch.zeros(1, requires_grad=True)]}, {"params": p}])
opt = torch.optim.LBFGS(p, line_search_fn="backtracking")
p[0].grad = torch.ones(2)
opt.step(lambda: (p[0] + 1).pow(2).sum())
torch.optim.LBFGS(p).step(lambda: (p[0] * 0).sum())
torch.optim.Adamax(p, capturable=True).step()
torch.optim.NAdam(p, capturable=True).step()
torch.optim.RAdam(p, capturable=True).step()
torch.optim.Adadelta(p, capturable=True).step()
torch.optim.Rprop(p, capturable=True).step()
torch.optim.ASGD(p, capturable=True).step()
torch.optim.Adam(p, capturable=True).step()
torch.optim.AdamW(p, capturable=True).step()
torch.optim.RMSprop(p, capturable=True).step()
print(p)
""")

# training through autograd: a mean-squared error of a Linear-Tanh-Linear model on fixed data
TRAIN = """
def train(make, dtype, steps=12):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)).to(dtype)
    x = torch.randn(20, 6, dtype=dtype)
    y = torch.randn(20, 2, dtype=dtype)
    opt = make(net.parameters())
    for t in range(steps):
        def closure():
            opt.zero_grad()
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            return loss
        loss = opt.step(closure)
        print(t, "%.6g" % loss.item())
    print(["%.6g" % v for v in net[0].weight.detach().flatten().tolist()[:8]])
    return opt
"""
for name, (make, _) in OPTIMIZERS.items():
    if name in ("adamax", "nadam", "radam", "adadelta", "rprop", "asgd_averaging"):
        snip(f"train_{name}", TRAIN + f"""
for dtype in (torch.float32, torch.float64):
    train(lambda p: {make}, dtype)
""", close=True)

# float64 only: LBFGS amplifies the float32 products' last bits to about 1e-3 over these 20-odd iterations
# (the float32 iterates are checked on the quadratic below)
snip("train_lbfgs", TRAIN + """
for dtype in (torch.float64,):
    opt = train(lambda p: torch.optim.LBFGS(p, lr=0.5, max_iter=6, history_size=4), dtype, steps=4)
    state = opt.state_dict()["state"][0]
    print({k: (type(v).__name__, len(v) if isinstance(v, list) else None) for k, v in state.items()})
    print(state["func_evals"], state["n_iter"], "%.6g" % float(state["t"]), "%.6g" % state["prev_loss"])
    opt = train(lambda p: torch.optim.LBFGS(p, history_size=3, line_search_fn="strong_wolfe"), dtype, steps=3)
    state = opt.state_dict()["state"][0]
    print(state["func_evals"], state["n_iter"], "%.6g" % float(state["t"]))
""", close=True)

# LBFGS on a separable quadratic (the loss and gradients are element-wise, so exact in both): the
# iterates agree to the rounding of the dot products, and the first step's t is a tensor
snip("lbfgs_quadratic", """
for dtype in (torch.float32, torch.float64):
    for line_search in (None, "strong_wolfe"):
        torch.manual_seed(0)
        w = torch.randn(4, 3, dtype=dtype).requires_grad_()
        b = torch.randn(3, dtype=dtype).requires_grad_()
        scale = torch.rand(4, 3, dtype=dtype) + 0.5
        opt = torch.optim.LBFGS([w, b], lr=1, max_iter=4, history_size=2, line_search_fn=line_search)
        def closure():
            opt.zero_grad()
            loss = (scale * (w - 1) ** 2).sum() + ((b + 2) ** 4).sum()
            loss.backward()
            return loss
        for i in range(3):
            print("%.7g" % opt.step(closure).item())
        print(["%.7g" % v for v in w.detach().flatten().tolist() + b.detach().tolist()])
        print(type(opt.state[w]["t"]).__name__, len(opt.state[w]["old_dirs"]), opt.state[w]["func_evals"])
""", close=True)

# swa_utils: the averaged parameters bit for bit (the batch-norm statistics, means and variances torch
# sums in its own order, to 6 digits), the SWALR schedule, update_bn, errors
snip("swa_utils", """
swa = torch.optim.swa_utils
def hexes(t):
    return [float(v).hex() for v in t.detach().flatten().tolist()]

for dtype in (torch.float32, torch.float64):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.ReLU(),
                                torch.nn.Linear(6, 2)).to(dtype)
    averaged = [swa.AveragedModel(model), swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9)),
                swa.AveragedModel(model, avg_fn=swa.get_ema_avg_fn(0.8)),
                swa.AveragedModel(model, multi_avg_fn=swa.get_swa_multi_avg_fn()),
                swa.AveragedModel(model, avg_fn=swa.get_swa_avg_fn(), use_buffers=True),
                swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9), use_buffers=True)]
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    sched = swa.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
    for i in range(6):
        for p in model.parameters():
            p.grad = torch.randn(p.shape, dtype=dtype) + p.detach()
        model(torch.randn(8, 4, dtype=dtype))
        opt.step()
        sched.step()
        print(sched.get_last_lr())
        for a in averaged:
            a.update_parameters(model)
    for a in averaged:
        print(a.n_averaged, [hexes(p) for p in a.parameters()])
        print([["%.6g" % v for v in b.flatten().tolist()] for b in a.module.buffers()])
    print(averaged[0])
    loader = [(torch.randn(5, 4, dtype=dtype), 0) for _ in range(3)]
    swa.update_bn(loader, averaged[0])
    bn = averaged[0].module[1]
    print(["%.6g" % v for v in bn.running_var.tolist()], bn.momentum, bn.num_batches_tracked, averaged[0].training)
    print(sorted(sched.state_dict()))
    sched2 = swa.SWALR(torch.optim.SGD(model.parameters(), lr=0.5), swa_lr=[0.1], anneal_epochs=2)
    sched2.load_state_dict(sched.state_dict())
    print(sched2.anneal_func(0.5), sched2.last_epoch)
    sched3 = swa.SWALR(torch.optim.SGD(model.parameters(), lr=0.5), swa_lr=0.1, anneal_epochs=0)
    for i in range(3):
        sched3.step()
        print(sched3.get_last_lr())
    sched4 = swa.SWALR(torch.optim.SGD(model.parameters(), lr=0.5), swa_lr=0.1)
    for i in range(12):
        sched4.step()
    print(sched4.get_last_lr())

opt = torch.optim.SGD(model.parameters(), lr=0.5)
swa.SWALR(opt, 0.1, anneal_strategy="exp")
swa.SWALR(opt, 0.1, anneal_epochs=-1)
swa.SWALR(opt, 0.1, anneal_epochs=1.5)
swa.SWALR(opt, [0.1, 0.2])
swa.get_ema_multi_avg_fn(1.5)
swa.get_ema_avg_fn(-0.1)
swa.AveragedModel(model, avg_fn=swa.get_swa_avg_fn(), multi_avg_fn=swa.get_swa_multi_avg_fn())
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_optim_more_parity(code):
    compare(code)


@pytest.mark.parametrize("code", CLOSE_SNIPPETS)
def test_optim_more_close(code):
    compare_close(code, rtol=1e-4, atol=1e-6)


# (constructor, whether its update takes a square root): a CUDA device's sqrt is correctly rounded
# (torch's CUDA kernel) and the CPU's may be MKL's, so those updates are compared to a tolerance
DEVICE_OPTIMIZERS = [
    (lambda p: minitorch.optim.Adamax(p, lr=0.05, weight_decay=0.1), False),
    (lambda p: minitorch.optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True), True),
    (lambda p: minitorch.optim.RAdam(p, lr=0.05), True),
    (lambda p: minitorch.optim.Adadelta(p, weight_decay=0.1), True),
    (lambda p: minitorch.optim.Rprop(p, lr=0.05), False),
    (lambda p: minitorch.optim.ASGD(p, lr=0.05, t0=3), False),
]


@pytest.mark.parametrize("make,takes_sqrt", DEVICE_OPTIMIZERS)
def test_steps_on_the_device(device, make, takes_sqrt):
    """The same updates on the CUDA device (simulated, emulated or real) as on the CPU, with the state on
    the parameter's device (the step counters on the CPU, ASGD's on the device as in torch)."""
    results = []
    for dev in ("cpu", device):
        for dtype in (minitorch.float32, minitorch.float64):
            minitorch.manual_seed(0)
            w = minitorch.randn(4, 3, dtype=dtype).to(dev).requires_grad_()
            opt = make([w])
            for _ in range(8):
                w.grad = minitorch.randn(4, 3, dtype=dtype).to(dev) + w.detach() * 0.5
                opt.step()
            scalar_device = w.device if "eta" in opt.state[w] else minitorch.device("cpu")
            for key, value in opt.state[w].items():
                assert value.device == (w.device if value.dim() else scalar_device), key
            results.append(w.detach().cpu().flatten().tolist())
    if takes_sqrt:
        assert results[2] == pytest.approx(results[0], rel=1e-5)
        assert results[3] == pytest.approx(results[1], rel=1e-12)
    else:
        assert results[2:] == results[:2]
    if device != "cpu":
        # capturable=True keeps the 0-dim state on the device too, with the same update
        minitorch.manual_seed(0)
        w = minitorch.randn(4, 3, dtype=minitorch.float64).to(device).requires_grad_()
        opt = make([w])
        for group in opt.param_groups:
            group["capturable"] = True
        for _ in range(8):
            w.grad = minitorch.randn(4, 3, dtype=minitorch.float64).to(device) + w.detach() * 0.5
            opt.step()
        assert all(value.device == w.device for value in opt.state[w].values())
        assert w.detach().cpu().flatten().tolist() == results[3]


def test_lbfgs_and_averaging_on_the_device(device):
    """LBFGS and AveragedModel on the device give the CPU's values, to the rounding of LBFGS's dot products
    and of the running mean (torch averages with p + (q - p) / (n + 1) on the CPU, lerp on a GPU)."""
    results = []
    for dev in ("cpu", device):
        minitorch.manual_seed(0)
        w = minitorch.randn(4, 3, dtype=minitorch.float64).to(dev).requires_grad_()
        scale = minitorch.arange(12, dtype=minitorch.float64).view(4, 3).to(dev) + 1
        opt = minitorch.optim.LBFGS([w], max_iter=5, history_size=3, line_search_fn="strong_wolfe")

        def closure():
            opt.zero_grad()
            loss = (scale * (w - 1) ** 2).sum()
            loss.backward()
            return loss

        for _ in range(2):
            opt.step(closure)
        assert opt.state[w]["d"].device == w.device
        net = minitorch.nn.Linear(3, 2).to(dev)
        avg = minitorch.optim.swa_utils.AveragedModel(net)
        for i in range(4):
            with minitorch.no_grad():
                net.weight.mul_(0.5).add_(i)
            avg.update_parameters(net)
        assert avg.module.weight.device == net.weight.device
        results.append((w.detach().cpu().flatten().tolist(), avg.module.weight.detach().cpu().flatten().tolist()))
    assert results[1][0] == pytest.approx(results[0][0], rel=1e-12)
    assert results[1][1] == pytest.approx(results[0][1], rel=1e-6)
