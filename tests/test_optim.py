"""torch.optim against torch 2.13: every snippet runs under real torch and under minitorch and must print
the same. Updates are checked with gradients both compute exactly (set by hand from seeded random
tensors): parameters and state bit for bit (as hex floats) after 20 steps, for SGD always, and for the
optimizers that take a square root (Adam, AdamW, RMSprop, Adagrad) where minitorch's sqrt is torch's
(MKL's generic kernels, on an x86 CPU not made by Intel: README, "Known differences"), elsewhere to 5
significant digits. A training loop through autograd is checked to 6 significant digits (matrix products may sum in another order). Learning-rate
schedules (bit for bit), reprs, state_dicts and errors are compared as printed."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, torch_sqrt_is_mkl_generic  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(code).strip() + "\n", id=name))


# 20 steps of an optimizer on two parameters (a matrix and a vector), each step's gradient a seeded
# random tensor plus a term in the parameter (so the trajectory depends on every earlier update)
STEPS = """
EXACT = True

def hexes(t):
    values = t.detach().flatten().tolist()
    exact = EXACT or SQRT_EXACT
    return [float(v).hex() for v in values] if exact else ["%.5g" % v for v in values]

def run(make, steps=20, device="cpu", dtype=torch.float32):
    torch.manual_seed(0)
    w = torch.randn(3, 5, dtype=dtype).to(device).requires_grad_()
    b = torch.randn(5, dtype=dtype).to(device).requires_grad_()
    opt = make([w, b])
    for i in range(steps):
        opt.zero_grad()
        w.grad = (torch.randn(3, 5, dtype=dtype).to(device) + w.detach() * 0.5)
        if i % 3 != 2:          # b sometimes has no gradient: the optimizer skips it
            b.grad = torch.randn(5, dtype=dtype).to(device) - b.detach()
        opt.step()
    print(hexes(w)); print(hexes(b))
    for k, v in opt.state_dict()["state"].items():
        print(k, {name: (hexes(x) if isinstance(x, torch.Tensor) and x.dim() else
                         (x.item() if isinstance(x, torch.Tensor) else x)) for name, x in v.items()})
    return opt
"""

OPTIMIZERS = {
    "sgd": "torch.optim.SGD(p, lr=0.1)",
    "sgd_momentum": "torch.optim.SGD(p, lr=0.05, momentum=0.9)",
    "sgd_nesterov_wd": "torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-2)",
    "sgd_dampening_maximize": "torch.optim.SGD(p, lr=0.01, momentum=0.5, dampening=0.3, maximize=True)",
    "adam": "torch.optim.Adam(p, lr=0.01)",
    "adam_wd_amsgrad": "torch.optim.Adam(p, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True)",
    "adam_maximize_eps": "torch.optim.Adam(p, lr=0.003, eps=1e-3, maximize=True)",
    "adamw": "torch.optim.AdamW(p, lr=0.01)",
    "adamw_amsgrad": "torch.optim.AdamW(p, lr=0.05, weight_decay=0.3, amsgrad=True)",
    "rmsprop": "torch.optim.RMSprop(p, lr=0.01)",
    "rmsprop_centered_momentum": "torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.8, centered=True, "
                                 "weight_decay=0.01)",
    "adagrad": "torch.optim.Adagrad(p, lr=0.1)",
    "adagrad_decay": "torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.1, "
                     "initial_accumulator_value=0.5, eps=1e-5)",
}
for name, make in OPTIMIZERS.items():
    snip(f"steps_{name}", STEPS + f"""
EXACT = {name.startswith("sgd")}
SQRT_EXACT = {torch_sqrt_is_mkl_generic()}
opt = run(lambda p: {make})
print(opt)
opt = run(lambda p: {make}, dtype=torch.float64)
""")

# SGD's step on the CPU runs as one pass over each parameter's memory (_C._sgd_step) after the first
# momentum step: every option alone and together, in both float dtypes, numbers given as ints, parameters
# and gradients of other layouts (transposed, strided, 0-d, empty), and the version counters torch's
# in-place ops leave on the parameters and the buffers
SGD_OPTIONS = {
    "wd": "lr=0.1, weight_decay=0.3",
    "maximize_wd": "lr=0.1, weight_decay=0.3, maximize=True",
    "momentum_dampening_wd": "lr=0.02, momentum=0.7, dampening=0.25, weight_decay=1e-3",
    "nesterov_maximize": "lr=0.03, momentum=0.95, nesterov=True, maximize=True",
    "all": "lr=0.03, momentum=0.8, nesterov=True, weight_decay=0.05, maximize=True",
    "int_numbers": "lr=1, momentum=1, dampening=1, weight_decay=1",
}
for name, options in SGD_OPTIONS.items():
    snip(f"sgd_steps_{name}", STEPS + f"""
opt = run(lambda p: torch.optim.SGD(p, {options}))
opt = run(lambda p: torch.optim.SGD(p, {options}), dtype=torch.float64, steps=7)
""")

snip("sgd_layouts_and_versions", STEPS + """
def layouts(options, dtype):
    torch.manual_seed(0)
    params = [torch.randn(5, 3, dtype=dtype).t().requires_grad_(), torch.randn(4, 10, dtype=dtype)[:, ::2].requires_grad_(),
              torch.randn((), dtype=dtype).requires_grad_(), torch.randn(0, 3, dtype=dtype).requires_grad_(),
              torch.randn(6, dtype=dtype).requires_grad_()]
    opt = torch.optim.SGD(params, **options)
    for i in range(6):
        params[0].grad = torch.randn(3, 5, dtype=dtype) + params[0].detach()
        params[1].grad = torch.randn(5, 4, dtype=dtype).t() * 2
        params[2].grad = torch.randn((), dtype=dtype)
        params[3].grad = torch.randn(0, 3, dtype=dtype)
        params[4].grad = torch.randn(12, dtype=dtype)[::2]
        opt.step()
    for p in params:
        print(hexes(p), p.stride(), p._version)
    for k, v in opt.state_dict()["state"].items():
        buf = v["momentum_buffer"]
        print(k, buf if buf is None else (hexes(buf), buf.stride(), buf._version))

for dtype in (torch.float32, torch.float64):
    layouts(dict(lr=0.1), dtype)
    layouts(dict(lr=0.05, momentum=0.9, weight_decay=0.01), dtype)
    layouts(dict(lr=0.05, momentum=0.6, dampening=0.1, nesterov=False, maximize=True), dtype)
    layouts(dict(lr=0.05, momentum=0.6, nesterov=True, weight_decay=0.2), dtype)
""")

snip("param_groups_and_add_param_group", STEPS + """
torch.manual_seed(0)
a, b, c = torch.randn(4, requires_grad=True), torch.randn(4, requires_grad=True), torch.randn(2, requires_grad=True)
opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
opt.add_param_group({"params": [c], "weight_decay": 0.1})
print(opt)
for p in (a, b, c):
    p.grad = torch.ones_like(p)
opt.step(); opt.step()
print(hexes(a), hexes(b), hexes(c))
sd = opt.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"]), [sorted(v) for v in sd["state"].values()])
opt.zero_grad(set_to_none=False)
print(a.grad, b.grad.requires_grad)
opt.zero_grad()
print(a.grad)
""")

snip("state_dict_round_trip", STEPS + """
EXACT = False
opt = run(lambda p: torch.optim.Adam(p, lr=0.01), steps=3)
torch.manual_seed(1)
w2 = torch.randn(3, 5, requires_grad=True); b2 = torch.randn(5, requires_grad=True)
opt2 = torch.optim.Adam([w2, b2], lr=0.5)
opt2.load_state_dict(opt.state_dict())
print(opt2.param_groups[0]["lr"], opt2.state[w2]["step"], hexes(opt2.state[w2]["exp_avg"]))
print(opt2.state[w2]["exp_avg"] is opt.state_dict()["state"][0]["exp_avg"])
w2.grad = torch.ones(3, 5); b2.grad = torch.ones(5)
opt2.step()
print(hexes(w2))
bad = torch.optim.Adam([w2], lr=0.1)
bad.load_state_dict(opt.state_dict())
bad = torch.optim.Adam([{"params": [w2]}, {"params": [b2]}])
bad.load_state_dict(opt.state_dict())
""")

snip("closure_and_loss", """
torch.manual_seed(0)
x = torch.randn(8, 3); y = torch.randn(8, 1)
w = torch.zeros(3, 1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
def closure():
    opt.zero_grad()
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    return loss
for _ in range(5):
    loss = opt.step(closure)
    print(round(loss.item(), 6))
print(torch.is_grad_enabled())
""")

snip("errors", """
p = [torch.zeros(2, requires_grad=True)]
torch.optim.SGD([], lr=0.1)
torch.optim.SGD(torch.zeros(2), lr=0.1)
torch.optim.SGD(p, lr=-1)
torch.optim.SGD(p, lr=0.1, momentum=-0.5)
torch.optim.SGD(p, lr=0.1, weight_decay=-1)
torch.optim.SGD(p, lr=0.1, nesterov=True)
torch.optim.SGD([torch.zeros(2, requires_grad=True) * 2], lr=0.1)
torch.optim.SGD([1.0], lr=0.1)
torch.optim.SGD({torch.zeros(1)}, lr=0.1)
torch.optim.SGD([p[0], p[0]], lr=0.1)
torch.optim.SGD([{"params": p}, {"params": p}], lr=0.1)
torch.optim.Adam(p, betas=(1.0, 0.999))
torch.optim.Adam(p, betas=(0.9, -0.1))
torch.optim.Adam(p, betas=(0, 0.99))
torch.optim.Adam(p, eps=-1)
torch.optim.AdamW(p, weight_decay=-0.1)
torch.optim.RMSprop(p, alpha=-1)
torch.optim.RMSprop(p, momentum=-1)
torch.optim.Adagrad(p, lr_decay=-1)
torch.optim.Adagrad(p, initial_accumulator_value=-1)
torch.optim.SGD(p, lr=torch.tensor([0.1, 0.2]))
opt = torch.optim.SGD(p, lr=0.1)
opt.add_param_group([p])
opt.add_param_group({"params": p})
""")

snip("adam_with_tensor_lr", STEPS + """
EXACT = False
opt = run(lambda p: torch.optim.Adam(p, lr=torch.tensor(0.01)), steps=4)
opt = run(lambda p: torch.optim.SGD(p, lr=torch.tensor(0.1), momentum=0.9), steps=4)
""")

# ---- learning-rate schedules -----------------------------------------------------------------------

SCHED = """
def trace(make_opt, make_sched, n=25, metric=None):
    p = torch.zeros(2, requires_grad=True)
    opt = make_opt([p])
    sched = make_sched(opt)
    rows = []
    for i in range(n):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(i))
        rows.append((sched.get_last_lr()[0], opt.param_groups[0].get("momentum", opt.param_groups[0].get("betas"))))
    print([(lr.hex() if isinstance(lr, float) else lr, m) for lr, m in rows])
    sd = sched.state_dict()
    print(sorted(k for k in sd))
    return sched
"""
for name, make in {
    "step": "torch.optim.lr_scheduler.StepLR(o, step_size=4, gamma=0.5)",
    "multistep": "torch.optim.lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3)",
    "exponential": "torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.93)",
    "cosine": "torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001)",
    "lambda": "torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e)",
    "onecycle": "torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=25)",
    "onecycle_linear_3phase": "torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, epochs=5, steps_per_epoch=5, "
                              "anneal_strategy='linear', three_phase=True)",
    "multiplicative": "torch.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.9 if e % 2 else 1.1)",
    "constant": "torch.optim.lr_scheduler.ConstantLR(o, factor=0.3, total_iters=4)",
    "linear": "torch.optim.lr_scheduler.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=7)",
    "polynomial": "torch.optim.lr_scheduler.PolynomialLR(o, total_iters=9, power=1.7)",
    "warm_restarts": "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)",
    "warm_restarts_1": "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4)",
    "cyclic": "torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.2, step_size_up=3, step_size_down=5)",
    "cyclic_triangular2": "torch.optim.lr_scheduler.CyclicLR(o, 0.01, [0.3], step_size_up=2, mode='triangular2')",
    "cyclic_exp_range": "torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.3, step_size_up=4, mode='exp_range', "
                        "gamma=0.97, base_momentum=0.7, max_momentum=0.85)",
    "cyclic_scale_fn": "torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.3, step_size_up=4, scale_fn=lambda x: 0.5 ** x, "
                       "scale_mode='iterations', cycle_momentum=False)",
    "sequential": "torch.optim.lr_scheduler.SequentialLR(o, [torch.optim.lr_scheduler.LinearLR(o, 0.2, total_iters=5), "
                  "torch.optim.lr_scheduler.ExponentialLR(o, 0.9), torch.optim.lr_scheduler.StepLR(o, 3)], "
                  "milestones=[5, 12])",
    "chained": "torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(o, 0.5, total_iters=6), "
               "torch.optim.lr_scheduler.ExponentialLR(o, 0.95)])",
}.items():
    snip(f"sched_{name}", SCHED + f"""
trace(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), lambda o: {make})
trace(lambda p: torch.optim.Adam(p, lr=0.1), lambda o: {make})
""")

snip("sched_plateau", SCHED + """
trace(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(o, patience=2),
      metric=lambda i: 1.0 if i > 3 else 2.0 - i)
trace(lambda p: torch.optim.SGD(p, lr=0.1), lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(
    o, mode="max", factor=0.5, patience=1, cooldown=2, min_lr=0.01, threshold_mode="abs"), metric=lambda i: 0.5)
torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.zeros(1, requires_grad=True)]), factor=1.5)
torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.zeros(1, requires_grad=True)]), mode="up")
""")

snip("sched_errors_and_epoch_form", SCHED + """
p = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1)
torch.optim.lr_scheduler.StepLR(p, 2)
torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)
torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1)
torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=0)
torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.1, 0.2], total_steps=10)
torch.optim.lr_scheduler.OneCycleLR(torch.optim.Adagrad([p]), max_lr=0.1, total_steps=10)
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=2)
opt.step(); s.step(); s.step()
s.step()
opt = torch.optim.SGD([p], lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 3, gamma=0.5)
s.step(7)
print(opt.param_groups[0]["lr"], s.last_epoch)
s = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD([p], lr=1.0), [2, 4])
s.step(5)
print(s.get_last_lr())
""")

# ---- training through autograd ----------------------------------------------------------------------

snip("sched_more_errors_and_forms", SCHED + """
p = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
lr_scheduler = torch.optim.lr_scheduler
for make in (lambda: lr_scheduler.ConstantLR(opt, factor=1.5), lambda: lr_scheduler.LinearLR(opt, start_factor=0),
             lambda: lr_scheduler.LinearLR(opt, end_factor=2), lambda: lr_scheduler.MultiplicativeLR(opt, 3),
             lambda: lr_scheduler.MultiplicativeLR(opt, [abs, abs]),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
             lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="x"),
             lambda: lr_scheduler.CyclicLR(opt, 0.1, 0.2, mode="sawtooth"),
             lambda: lr_scheduler.CyclicLR(torch.optim.Adagrad([p]), 0.1, 0.2),
             lambda: lr_scheduler.CyclicLR(opt, [0.1, 0.2], 0.3),
             lambda: lr_scheduler.SequentialLR(opt, [], []),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2)], [3]),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.ReduceLROnPlateau(opt)], []),
             lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(torch.optim.SGD([p]), 2)], []),
             lambda: lr_scheduler.SequentialLR(opt, [3], []),
             lambda: lr_scheduler.ChainedScheduler([]),
             lambda: lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(opt)])):
    try:
        make()
    except Exception as e:
        print(type(e).__name__, e)
# the closed forms (the deprecated step(epoch)) and fractional epochs of the warm restarts
import warnings
warnings.simplefilter("ignore")
for make in (lambda o: lr_scheduler.ConstantLR(o, 0.25, 3), lambda o: lr_scheduler.LinearLR(o, 0.5, 1.0, 4),
             lambda o: lr_scheduler.PolynomialLR(o, 6, 2.0)):
    o = torch.optim.SGD([p], lr=0.3)
    s = make(o)
    for e in (2, 5, 3, 9):
        s.step(e)
        print(o.param_groups[0]["lr"].hex())
o = torch.optim.SGD([p], lr=0.3)
s = lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=3)
for e in (0.5, 1.5, 2.25, 7.9, 20.0, 3):
    s.step(e)
    print(o.param_groups[0]["lr"].hex(), s.T_i, s.T_cur, s.last_epoch)
t = lambda: s.step(-1)
try:
    t()
except ValueError as e:
    print(e)
o = torch.optim.SGD([p], lr=0.3, momentum=0.5)
s = lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, 0.5, total_iters=2),
                                   lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2)], milestones=[3])
for i in range(8):
    o.step()
    s.step()
    print(s.get_last_lr(), o.param_groups[0]["momentum"])
sd = s.state_dict()
print(sorted(sd), [sorted(x) for x in sd["_schedulers"]])
s2 = lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, 0.5, total_iters=2),
                                    lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2)], milestones=[3])
s2.load_state_dict(sd)
print(s2.last_epoch, s2._schedulers[1].last_epoch, isinstance(s2, lr_scheduler.LRScheduler),
      isinstance(lr_scheduler.MultiplicativeLR(o, abs), lr_scheduler.LambdaLR))
""")

snip("train_mlp_sgd_momentum", """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
x = torch.randn(32, 4); y = torch.randn(32, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for step in range(30):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    if step % 5 == 0:
        print(step, "%.6g" % loss.item(), sched.get_last_lr())
""")

snip("train_polynomial_adam", """
import math
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for t in range(60):
    loss = ((model(xx) - y) ** 2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if t % 10 == 9:
        print(t, "%.6g" % loss.item())
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_optim_parity(code):
    compare(code)


def test_steps_on_the_device(device):
    """The same updates on the CUDA device (simulated, emulated or real) as on the CPU."""
    results = []
    for dev in ("cpu", device):
        minitorch.manual_seed(0)
        w = minitorch.randn(4, 3).to(dev).requires_grad_()
        opt = minitorch.optim.Adam([w], lr=0.01, weight_decay=0.1, amsgrad=True)
        for _ in range(5):
            w.grad = minitorch.ones(4, 3).to(dev) * 0.5 - w.detach()
            opt.step()
        assert opt.state[w]["exp_avg"].device == w.device
        assert opt.state[w]["step"].device.type == "cpu"
        results.append(w.detach().cpu().tolist())
    # the same ops; the CPU's float32 sqrt may be MKL's (torch's CPU kernel), a CUDA device's is correctly
    # rounded (torch's CUDA kernel), so the last bits may differ
    assert sum(results[0], []) == pytest.approx(sum(results[1], []), rel=1e-6)


def test_sgd_step_refuses_what_it_cannot_compute():
    """_C._sgd_step, SGD's one-pass update: its own checks, each before anything is written."""
    from minitorch import _C

    p = minitorch.randn(3)
    g = minitorch.randn(3)
    shared = minitorch.randn(4)
    before = p.tolist()
    cases = [
        ((p, g.double(), None, 0.0, 0.0, 0.1, 0.0, False, False),
         "_sgd_step(): expected float32 or float64 tensors of one dtype, but got param float32, grad float64"),
        ((p.half(), g.half(), None, 0.0, 0.0, 0.1, 0.0, False, False),
         "_sgd_step(): expected float32 or float64 tensors of one dtype, but got param float16, grad float16"),
        ((p, minitorch.randn(4), None, 0.0, 0.0, 0.1, 0.0, False, False),
         "_sgd_step(): param, grad and momentum_buffer must have one shape"),
        ((p, g, minitorch.randn(3, 1), 0.0, 0.9, 0.1, 0.0, False, False),
         "_sgd_step(): param, grad and momentum_buffer must have one shape"),
        ((p, g, None, 0.0, 0.9, 0.1, 0.0, False, False),
         "_sgd_step(): momentum_buffer must be given exactly when momentum is not 0"),
        ((p, shared[:3], shared[1:], 0.0, 0.9, 0.1, 0.0, False, False),
         "unsupported operation: some elements of the input tensor"),
        ((minitorch.zeros(1).expand(3), g, None, 0.0, 0.0, 0.1, 0.0, False, False),
         "unsupported operation: more than one element of the written-to tensor"),
        ((p, g, None, 0.0, 0.0, 1e39, 0.0, False, False), "value cannot be converted to type float without overflow"),
        ((p, g, None, 1e39, 0.0, 0.1, 0.0, False, False), "value cannot be converted to type float without overflow"),
    ]
    for args, message in cases:
        with pytest.raises(RuntimeError) as err:
            _C._sgd_step(*args)
        assert str(err.value).startswith(message), str(err.value)
    assert p.tolist() == before and p._version == 0
    # a gradient in the buffer's memory: nothing done, False (SGD then runs torch's ops one by one)
    assert _C._sgd_step(p, g, g, 0.0, 0.9, 0.1, 0.0, False, False) is False
    assert p.tolist() == before and p._version == 0
    leaf = minitorch.randn(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        _C._sgd_step(leaf, g, None, 0.0, 0.0, 0.1, 0.0, False, False)
    with minitorch.no_grad():
        _C._sgd_step(leaf, g, None, 0.0, 0.0, 0.1, 0.0, False, False)
    assert leaf._version == 1


def test_sgd_takes_the_one_pass_update_where_it_is_exact(monkeypatch):
    """SGD.step() on CPU float32/float64 parameters with number hyperparameters runs _C._sgd_step for every
    parameter after the first momentum step; other dtypes, a tensor lr and the first step run torch's ops."""
    import minitorch.optim.sgd as sgd_module

    calls = []
    real = sgd_module._C

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def _sgd_step(self, *args):
            calls.append(args[0].dtype)
            return real._sgd_step(*args)

    monkeypatch.setattr(sgd_module, "_C", Counting())
    for dtype, lr, expected in [(minitorch.float32, 0.1, 2), (minitorch.float64, 0.1, 2),
                                (minitorch.float16, 0.1, 0), (minitorch.float32, minitorch.tensor(0.1), 0)]:
        calls.clear()
        w = minitorch.randn(4, 3).to(dtype).requires_grad_()
        opt = minitorch.optim.SGD([w], lr=lr, momentum=0.9)
        for _ in range(3):
            w.grad = minitorch.ones(4, 3, dtype=dtype)
            opt.step()
        assert calls == [dtype] * expected
