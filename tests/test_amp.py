"""Automatic mixed precision (minitorch/amp, csrc/python/autocast.c): torch.autocast's state functions and
their errors, the op policies of torch's CPU list (run against torch, whose CPU build autocasts on the
CPU), gradients through the casts, GradScaler's arithmetic and state after training steps with an
injected inf, and the CUDA list's policies on a CUDA device (the simulated GPU in CI) against torch's
documented behaviour, since the torch here has no CUDA."""

import threading
import warnings

import pytest

import minitorch
from parity import compare, compare_close

needs_cuda = pytest.mark.skipif(not minitorch.cuda.is_available(),
                                reason="no CUDA device (set MINITORCH_SIMULATE_GPU=1)")
no_cuda = pytest.mark.skipif(minitorch.cuda.is_available(), reason="torch here has no CUDA: compared without one")


# ---- state and errors ------------------------------------------------------------------------------

def test_state_functions_and_their_errors():
    compare("""
import torch
print(torch.autocast is torch.amp.autocast, torch.amp.is_autocast_available('cpu'))
print(torch.is_autocast_enabled(), torch.is_autocast_enabled('cpu'), torch.is_autocast_cpu_enabled())
print(torch.get_autocast_dtype('cpu'), torch.get_autocast_dtype('cuda'))
print(torch.get_autocast_cpu_dtype(), torch.get_autocast_gpu_dtype(), torch.is_autocast_cache_enabled())
torch.set_autocast_enabled('cpu', True)
print(torch.is_autocast_enabled('cpu'), torch.is_autocast_cpu_enabled())
torch.set_autocast_enabled('cpu', False)
torch.set_autocast_dtype('cpu', torch.float16)
print(torch.get_autocast_dtype('cpu'))
torch.set_autocast_dtype('cpu', torch.bfloat16)
print(torch.autocast_increment_nesting(), torch.autocast_increment_nesting())
print(torch.autocast_decrement_nesting(), torch.autocast_decrement_nesting())
torch.set_autocast_cache_enabled(False)
print(torch.is_autocast_cache_enabled())
torch.set_autocast_cache_enabled(True)
torch.clear_autocast_cache()
torch.get_autocast_dtype('foo')
torch.is_autocast_enabled('foo')
torch.autocast('foo')
torch.autocast(3)
torch.set_autocast_enabled('cpu', 1)
torch.is_autocast_enabled(torch.device('cpu'))
""")


def test_region_nesting_decorator_and_unsupported_dtype():
    compare("""
import torch, warnings
with torch.autocast('cpu'):
    print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    with torch.autocast('cpu', dtype=torch.float16):
        print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
        with torch.autocast('cpu', enabled=False):
            print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    print(torch.get_autocast_dtype('cpu'), torch.is_autocast_enabled('cpu'))
print(torch.is_autocast_enabled('cpu'))
@torch.autocast('cpu', dtype=torch.float16)
def f(a, b):
    return torch.is_autocast_enabled('cpu'), (a @ b).dtype
print(f(torch.ones(2, 2), torch.ones(2, 2)), torch.is_autocast_enabled('cpu'))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.autocast('cpu', dtype=torch.float64) as ac:
        print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    print([(x.category.__name__, str(x.message)) for x in w])
torch.autocast('cpu')(3)
""")


def test_deprecated_spellings_warn_as_torch():
    compare("""
import torch, warnings
from torch.cpu.amp import autocast as cpu_autocast
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.cpu.amp.autocast():
        print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    with cpu_autocast(dtype=torch.float16):
        print((torch.ones(2, 2) @ torch.ones(2, 2)).dtype)
    s = torch.cpu.amp.GradScaler()
    print([(x.category.__name__, str(x.message)) for x in w], s.is_enabled())
""")


@no_cuda
def test_cuda_without_a_gpu_warns_and_disables():
    compare("""
import torch, warnings
from torch.cuda.amp import autocast, GradScaler
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.autocast('cuda'):
        print(torch.is_autocast_enabled('cuda'))
    with autocast():
        print(torch.is_autocast_enabled())
    for s in [torch.amp.GradScaler(), GradScaler(), torch.amp.GradScaler('cuda', enabled=False)]:
        print(s.is_enabled(), s.get_scale(), s.state_dict(), s.scale(torch.ones(2)))
    print([(x.category.__name__, str(x.message)) for x in w])
""")


def test_state_is_per_thread():
    seen = []
    with minitorch.autocast("cpu", dtype=minitorch.float16):
        worker = threading.Thread(target=lambda: seen.append((minitorch.is_autocast_enabled("cpu"),
                                                              minitorch.get_autocast_dtype("cpu"),
                                                              (minitorch.ones(2, 2) @ minitorch.ones(2, 2)).dtype)))
        worker.start()
        worker.join()
        assert (minitorch.ones(2, 2) @ minitorch.ones(2, 2)).dtype == minitorch.float16
    assert seen == [(False, minitorch.bfloat16, minitorch.float32)]


# ---- the CPU list -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_cpu_policies(dtype):
    compare(f"""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
a, b = torch.randn(3, 4), torch.randn(4, 5)
x3, w3 = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
img, k = torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3)
lin = torch.nn.Linear(4, 5)
with torch.autocast('cpu', dtype=torch.{dtype}):
    print(torch.mm(a, b).dtype, torch.matmul(a, b).dtype, (a @ b).dtype, a.mm(b).dtype, torch.bmm(x3, w3).dtype)
    print(torch.addmm(torch.zeros(5), a, b).dtype, torch.baddbmm(torch.zeros(3, 5), x3, w3).dtype)
    print(lin(a).dtype, F.linear(a, lin.weight).dtype, F.conv2d(img, k).dtype, torch.conv2d(img, k).dtype)
    print(F.prelu(img, torch.tensor([0.25])).dtype, torch.mv(a, b[:, 0]).dtype, a.double().mm(b.double()).dtype)
    h = torch.mm(a, b)
    print(F.mse_loss(h, torch.zeros(3, 5)).dtype, F.cross_entropy(h, torch.tensor([0, 1, 2])).dtype)
    print(F.nll_loss(h, torch.tensor([0, 1, 4])).dtype, F.l1_loss(h, h).dtype, F.binary_cross_entropy_with_logits(h, torch.ones(3, 5)).dtype)
    print(torch.softmax(h, 1).dtype, h.exp().dtype, h.sum().dtype, F.layer_norm(h, (5,)).dtype, h.relu().dtype)
    print(torch.cat([h, a[:, :1].expand(3, 5)]).dtype, torch.stack([h, h]).dtype, torch.cat([h, h.double()]).dtype)
    print(torch.mm(a.int(), b.int()).dtype, torch.mm(a, b, out=torch.empty(3, 5)).dtype)
    print(torch.prod(h).dtype, torch.cdist(a, a).dtype)
""")


def test_cpu_values_and_grads_through_the_casts():
    compare_close("""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.ReLU(), torch.nn.Linear(7, 3))
x, y = torch.randn(4, 5), torch.tensor([0, 2, 1, 2])
with torch.autocast('cpu', dtype=torch.bfloat16):
    out = net(x)
    loss = F.cross_entropy(out, y)
print(out.dtype, out.grad_fn.name(), loss.dtype)
print(out.float())
print(loss)
loss.backward()
for p in net.parameters():
    print(p.grad.dtype, p.grad)
""", rtol=2e-2, atol=1e-2)


# ---- GradScaler ---------------------------------------------------------------------------------------

SCALER_RUN = """
import torch
import torch.nn.functional as F
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
scaler = torch.amp.GradScaler('cpu', init_scale=2.**10, growth_factor=3.0, backoff_factor=0.25, growth_interval=2)
x, t = torch.randn(6, 4), torch.randn(6, 2)
for step in range(7):
    opt.zero_grad()
    with torch.autocast('cpu', dtype=torch.bfloat16, enabled=AUTOCAST):
        loss = F.mse_loss(net(x), t)
    scaled = scaler.scale(loss)
    print(step, scaled.dtype, scaled)
    scaled.backward()
    if step in (2, 5):
        net[0].weight.grad[0, 0] = float('inf') if step == 2 else float('nan')
    scaler.step(opt)
    scaler.update()
    print(scaler.get_scale(), scaler.state_dict(), scaler._scale.dtype, scaler._growth_tracker.dtype)
print(net[0].weight, net[2].bias)
"""


@pytest.mark.parametrize("autocast", [False, True])
def test_grad_scaler_steps_with_an_injected_inf(autocast):
    compare_close("AUTOCAST = %r\n" % autocast + SCALER_RUN, rtol=2e-2, atol=1e-3)


def test_grad_scaler_state_machine_and_errors():
    compare("""
import torch
net = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.5)
s = torch.amp.GradScaler('cpu')
s.step(opt)
s.unscale_(opt)
s.update()
print(s.get_scale(), s.is_enabled(), s.get_growth_factor(), s.get_backoff_factor(), s.get_growth_interval())
s.scale(net(torch.ones(1, 3)).sum()).backward()
print(net.weight.grad)
s.unscale_(opt)
print(net.weight.grad)
s.unscale_(opt)
s.step(opt)
s.step(opt)
s.unscale_(opt)
s.update()
print(s.get_scale(), s.state_dict())
s.step(opt, closure=lambda: 0)
print(s.scale([torch.ones(2), (torch.ones(1), torch.ones(3))]))
s.scale(3)
net.weight.grad = net.weight.grad.half()
s.unscale_(opt)
s2 = torch.amp.GradScaler('cpu', growth_factor=1.0)
s3 = torch.amp.GradScaler('cpu', backoff_factor=1.0)
s4 = torch.amp.GradScaler('cpu', enabled=False)
print(s4.state_dict(), s4.get_scale(), s4.scale(torch.ones(1)))
s5 = torch.amp.GradScaler('cpu')
s5.load_state_dict({})
s5.load_state_dict({'scale': 8.0, 'growth_factor': 4.0, 'backoff_factor': 0.125, 'growth_interval': 3, '_growth_tracker': 2})
print(s5.state_dict(), s5.scale(torch.ones(2)))
s5.update(2.0)
s5.update(torch.tensor(4.0))
print(s5.get_scale())
s5.update(torch.tensor([1.0, 2.0]))
""")


def test_unscale_and_update_kernels():
    compare("""
import torch
g1, g2 = torch.tensor([1.5, -3.0, 1e-3]), torch.tensor([2.0, float('inf')])
found, inv = torch.zeros(()), torch.tensor(0.125)
torch._amp_foreach_non_finite_check_and_unscale_([g1, g2], found, inv)
print(g1, g2, found)
h = torch.tensor([1.0, 3.0], dtype=torch.float16)
found2 = torch.zeros(())
torch._amp_foreach_non_finite_check_and_unscale_([h], found2, torch.tensor(1 / 3))
print(h, found2)
scale, tracker = torch.tensor(3.0e38), torch.tensor(1, dtype=torch.int32)
for inf in [0.0, 0.0, 1.0, 0.0]:
    torch._amp_update_scale_(scale, tracker, torch.tensor(inf), 2.0, 0.3, 2)
    print(scale, tracker)
""")


def test_weight_cache_keeps_grads_right():
    compare_close("""
import torch
torch.manual_seed(0)
w = torch.randn(4, 4, requires_grad=True)
x = torch.randn(2, 4)
for cache in (True, False):
    w.grad = None
    with torch.autocast('cpu', cache_enabled=cache):
        y = torch.mm(torch.mm(x, w), w)
    y.float().sum().backward()
    print(y.dtype, w.grad)
""", rtol=2e-2, atol=1e-2)


def test_cast_node_pickled_scaler_and_custom_function_decorators():
    compare("""
import torch, pickle
a = torch.randn(2, 3, requires_grad=True)
with torch.autocast('cpu'):
    y = torch.mm(a, torch.randn(3, 2))
print(y.grad_fn.name(), [f[0].name() if f[0] else None for f in y.grad_fn.next_functions])
s = torch.amp.GradScaler('cpu', init_scale=16.0)
s.scale(torch.ones(1))
s2 = pickle.loads(pickle.dumps(s))
print(s2.state_dict(), s2._scale)
class F(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type='cpu', cast_inputs=torch.float32)
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        print('fwd', torch.is_autocast_enabled('cpu'), x.dtype)
        return x @ w
    @staticmethod
    @torch.amp.custom_bwd(device_type='cpu')
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        print('bwd', torch.is_autocast_enabled('cpu'), g.dtype)
        return g @ w.t(), x.t() @ g
x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 2, requires_grad=True)
with torch.autocast('cpu'):
    out = F.apply(x.bfloat16(), w)
print(out.dtype)
out.sum().backward()
print(x.grad.dtype, w.grad.dtype)
""")


# ---- the CUDA list (torch's documented policies; the torch here has no CUDA) -----------------------------

@needs_cuda
def test_cuda_policies():
    t = minitorch
    a, b = t.randn(3, 4, device="cuda"), t.randn(4, 5, device="cuda")
    h16 = t.randn(3, 5, device="cuda").half()
    with t.autocast("cuda"):
        assert t.is_autocast_enabled() and t.get_autocast_dtype("cuda") == t.float16
        assert (a @ b).dtype == t.float16 and t.mv(a, b[:, 0]).dtype == t.float16
        assert t.nn.functional.linear(a, b.t()).dtype == t.float16
        for r in [h16.exp(), h16.log(), h16.pow(2), t.softmax(h16, 1), h16.sum(), h16.cumsum(0),
                  t.nn.functional.layer_norm(h16, (5,)), t.nn.functional.mse_loss(h16, h16),
                  t.nn.functional.cross_entropy(h16, t.tensor([0, 1, 2], device="cuda"))]:
            assert r.dtype == t.float32
        assert h16.sum(dtype=t.float16).dtype == t.float16
        assert t.addcmul(h16, h16, h16.float()).dtype == t.float32
        assert t.addcmul(h16, h16, h16).dtype == t.float16
        assert t.cat([h16, h16]).dtype == t.float16 and h16.relu().dtype == t.float16
        # the CPU's list is not the CUDA one: a CPU tensor in a CUDA region is not cast
        assert t.mm(a.cpu(), b.cpu()).dtype == t.float32
        with pytest.raises(RuntimeError, match=r"binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast"):
            t.nn.functional.binary_cross_entropy(h16.sigmoid(), t.ones(3, 5, device="cuda"))
        with t.autocast("cuda", dtype=t.bfloat16):
            assert (a @ b).dtype == t.bfloat16
    assert (a @ b).dtype == t.float32 and not t.is_autocast_enabled()


@needs_cuda
def test_cuda_training_with_grad_scaler_matches_the_cpu():
    def run(device, autocast_dtype):
        minitorch.manual_seed(0)
        net = minitorch.nn.Sequential(minitorch.nn.Linear(4, 8), minitorch.nn.Tanh(),
                                      minitorch.nn.Linear(8, 2)).to(device)
        opt = minitorch.optim.SGD(net.parameters(), lr=0.1)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            scaler = minitorch.amp.GradScaler(device, init_scale=2.0**10, growth_interval=2)
        x, target = minitorch.randn(6, 4).to(device), minitorch.randn(6, 2).to(device)
        scales = []
        for step in range(5):
            opt.zero_grad()
            with minitorch.autocast(device, dtype=autocast_dtype):
                out = net(x)
                loss = minitorch.nn.functional.mse_loss(out, target)
            assert out.dtype == autocast_dtype and loss.dtype == minitorch.float32
            scaler.scale(loss).backward()
            assert net[0].weight.grad.dtype == minitorch.float32
            if step == 2:
                net[0].weight.grad[0, 0] = float("inf")
            scaler.step(opt)
            scaler.update()
            scales.append(scaler.get_scale())
        return scales, scaler.state_dict(), [p.detach().cpu() for p in net.parameters()]

    cpu = run("cpu", minitorch.float16)
    cuda = run("cuda", minitorch.float16)
    assert cpu[0] == cuda[0] == [1024.0, 2048.0, 1024.0, 1024.0, 2048.0]
    assert cpu[1] == cuda[1]
    for p, q in zip(cpu[2], cuda[2]):
        assert minitorch.allclose(p, q)


def test_python_ops_are_wrapped_only_while_autocast_is_on():
    plain = minitorch.nn.functional.linear
    with minitorch.autocast("cpu"):
        assert minitorch.nn.functional.linear is not plain
        assert minitorch.nn.functional.linear(minitorch.ones(2, 3), minitorch.ones(4, 3)).dtype == minitorch.bfloat16
    assert minitorch.nn.functional.linear is plain
