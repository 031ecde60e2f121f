"""torch.utils.checkpoint against torch on the CPU: checkpoint() and checkpoint_sequential() give the
values and gradients of the plain run (dropout included: the recomputation draws the forward's mask),
with either variant (use_reentrant=True/False), and torch's warnings and errors. Each snippet runs under
torch and under minitorch and must print the same (parity.compare)."""

import warnings

import pytest

import minitorch
from minitorch.utils import checkpoint as mt_checkpoint
from parity import compare, import_torch

NET = """
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.ReLU(), torch.nn.Dropout(0.4), torch.nn.Linear(7, 6),
                          torch.nn.Tanh(), torch.nn.Dropout(0.2), torch.nn.Linear(6, 3))
x = torch.randn(4, 5, requires_grad=True)
def grads():
    # the tensors (printed to 4 decimals: minitorch's float32 backward of a Linear may differ from torch's
    # in the last bit; the checkpointed run must equal minitorch's own plain run exactly)
    out = [x.grad.clone()] + [p.grad.clone() for p in net.parameters()]
    net.zero_grad()
    x.grad = None
    return out
def same(a, b):
    return len(a) == len(b) and all(torch.equal(u, v) for u, v in zip(a, b))
"""


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_equal_the_plain_run_with_dropout(use_reentrant):
    compare(NET + f"""
torch.manual_seed(1)
y = net(x)
(y * torch.arange(3.0)).sum().backward()
plain = grads()
torch.manual_seed(1)
z = checkpoint(net, x, use_reentrant={use_reentrant})
print(torch.equal(z, y), type(z.grad_fn).__name__ != 'NoneType')
torch.manual_seed(5)  # backward recomputes with the forward's random state, whatever happens meanwhile
(z * torch.arange(3.0)).sum().backward()
print(same(grads(), plain))
print(plain)
print(torch.rand(2))  # and leaves the surrounding state as it found it
""")


def test_preserve_rng_state_false_draws_new_masks():
    compare(NET + """
torch.manual_seed(2)
z = checkpoint(net, x, use_reentrant=True, preserve_rng_state=False)
z.sum().backward()
print(grads())
torch.manual_seed(2)
z = checkpoint(net, x, use_reentrant=False, preserve_rng_state=False)
z.sum().backward()
print(grads())
""")


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential(use_reentrant):
    compare(NET + f"""
torch.manual_seed(3)
y = checkpoint_sequential(net, 3, x, use_reentrant={use_reentrant})
y.pow(2).sum().backward()
print(y, grads())
torch.manual_seed(3)
y = checkpoint_sequential(list(net.children()), 2, x, use_reentrant={use_reentrant}, preserve_rng_state=True)
y.pow(2).sum().backward()
print(y, grads())
""")


def test_several_inputs_non_tensor_arguments_and_outputs():
    compare("""
import torch
from torch.utils.checkpoint import checkpoint
torch.manual_seed(4)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
c = torch.randn(3, 4)
def f(a, scale, b, c):
    return (a * b).sigmoid() * scale + c, (a - b).exp().sum(1)
for reentrant in (True, False):
    u, v = checkpoint(f, a, 2.5, b, c, use_reentrant=reentrant)
    (u.sum() + v.pow(2).sum()).backward()
    # (the outputs' grad_fn differs with use_reentrant=False: torch's records the function's own graph)
    print(u.detach(), v.detach(), a.grad, b.grad, c.grad)
    a.grad = b.grad = None
""")


def test_non_reentrant_takes_keyword_arguments_and_reaches_parameters():
    compare("""
import torch
from torch.utils.checkpoint import checkpoint
torch.manual_seed(6)
lin = torch.nn.Linear(4, 2)
x = torch.randn(5, 4)  # no input requires grad: the parameters still get their gradients
y = checkpoint(lin, x, use_reentrant=False)
y.sum().backward()
print(y.requires_grad, lin.weight.grad, lin.bias.grad)
def f(t, *, power):
    return t.pow(power).sum()
t = torch.randn(3, requires_grad=True)
checkpoint(f, t, power=3, use_reentrant=False).backward()
print(t.grad)
print(checkpoint(f, t, use_reentrant=True, power=3))
""")


def test_reentrant_without_an_input_that_requires_grad():
    compare("""
import torch
from torch.utils.checkpoint import checkpoint
torch.manual_seed(7)
lin = torch.nn.Linear(4, 2)
y = checkpoint(lin, torch.randn(2, 4), use_reentrant=True)
print(y.requires_grad, y.grad_fn)
with torch.no_grad():
    print(checkpoint(lin, torch.randn(2, 4), use_reentrant=False).requires_grad)
""")


def test_errors_match_torch():
    compare("""
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential, detach_variable
f = lambda t: t * 2
t = torch.ones(2, requires_grad=True)
checkpoint(f, t, use_reentrant=True, unknown=1, other=2)
checkpoint(f, t, use_reentrant=True, context_fn=lambda: (None, None))
checkpoint(f, t, use_reentrant=True, debug=True)
checkpoint(f, t, use_reentrant=False, determinism_check='strict')
checkpoint_sequential([f, f], 1, t, use_reentrant=True, unknown=1)
detach_variable([t])
print([type(v).__name__ for v in detach_variable((t, 3))], detach_variable((t,))[0].requires_grad)
""")


def test_context_fn_wraps_forward_and_recomputation():
    compare("""
import contextlib
import torch
from torch.utils.checkpoint import checkpoint
log = []
@contextlib.contextmanager
def tag(name):
    # (only the entries: torch stops the recomputation early, by an exception that skips this exit)
    log.append(name + ' in')
    yield
t = torch.tensor([1.0, 2.0], requires_grad=True)
y = checkpoint(lambda v: v.exp(), t, use_reentrant=False, context_fn=lambda: (tag('forward'), tag('recompute')))
print(log)
y.sum().backward()
print(log, t.grad.tolist())
""")


@pytest.mark.parametrize("name, call", [
    ("checkpoint", lambda m: m.utils.checkpoint.checkpoint(lambda t: t + 1, m.ones(1, requires_grad=True))),
    ("checkpoint_sequential",
     lambda m: m.utils.checkpoint.checkpoint_sequential([lambda t: t + 1], 1, m.ones(1, requires_grad=True))),
])
def test_use_reentrant_not_given_warns_as_torch(name, call):
    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    import torch.utils.checkpoint  # noqa: F401

    messages = []
    for module in (torch, minitorch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call(module)
        messages.append([(w.category, str(w.message)) for w in caught])
        assert result.tolist() == [2.0]
    assert messages[0] == messages[1] and len(messages[0]) == 1, messages


def test_module_attribute_and_names():
    assert minitorch.utils.checkpoint is mt_checkpoint
    assert mt_checkpoint.noop_context_fn()[0].__enter__() is None


@pytest.mark.skipif(not minitorch.cuda.is_available(), reason="needs a CUDA device (MINITORCH_SIMULATE_GPU=1)")
@pytest.mark.parametrize("use_reentrant", [True, False])
def test_the_cuda_generator_state_is_preserved_too(use_reentrant):
    torch = minitorch
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.Dropout(0.5), torch.nn.Linear(7, 3)).cuda()
    x = torch.randn(4, 5, device="cuda", requires_grad=True)
    torch.cuda.manual_seed(3)
    y = net(x)
    y.sum().backward()
    plain = x.grad.clone()
    x.grad = None
    torch.cuda.manual_seed(3)
    z = mt_checkpoint.checkpoint(net, x, use_reentrant=use_reentrant)
    torch.cuda.manual_seed(99)  # backward must draw the forward's mask, not one from this state
    after_seed = torch.cuda.get_rng_state()
    z.sum().backward()
    assert torch.equal(z, y) and torch.equal(x.grad, plain)
    assert torch.equal(torch.cuda.get_rng_state(), after_seed)
