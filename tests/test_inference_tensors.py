"""Inference tensors as torch makes them: every tensor made under inference_mode (factories, op results, module
outputs, copies) except views of normal tensors is an inference tensor (is_inference()); outside
inference_mode it takes no in-place change (in-place ops, out=, resize_), cannot be saved for backward nor
require grad, and has no version counter. Each snippet runs under torch and minitorch and must print the
same."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SHOW = """
def show(f):
    try:
        r = f()
        print("ok", (r.is_inference(), r.requires_grad) if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(type(e).__name__, e)
"""

SNIPPETS = [
    # what inference_mode makes, and what it does not
    """
x0 = torch.ones(3)
with torch.inference_mode():
    x = torch.ones(3)
    v = x0.view(3)
    c = x0.clone()
    d = x0.detach()
    o = torch.zeros(3)
    torch.add(x0, 1, out=o)
    r = torch.ones(2, requires_grad=True)
    m = torch.empty(2, device="meta")
    n = torch.from_numpy(np.ones(2))
    print([t.is_inference() for t in (x, v, c, d, o, r, m, n)], r.requires_grad)
    x.add_(1)
    x[0] = 3
    print(x, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    show(lambda: x._version)
    with torch.inference_mode(False):
        print(torch.ones(2).is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(x.is_inference(), x[0].is_inference(), (x + 1).is_inference(), x.view(3).is_inference(), x.detach().is_inference())
print(torch.is_inference(x), torch.is_inference(x0), x.data.is_inference(), x.clone().is_inference())
with torch.no_grad():
    print(torch.ones(2).is_inference())
""",
    # outside inference_mode: no in-place change, no saving for backward, no requires_grad, no version
    """
x0 = torch.ones(3)
with torch.inference_mode():
    x = torch.ones(3)
w = torch.ones(3, requires_grad=True)
def setitem():
    x[0] = 5
for f in [lambda: x.add_(1), lambda: x.zero_(), lambda: x.copy_(x0), lambda: x[0].fill_(2), setitem,
          lambda: x.resize_(2), lambda: x.uniform_(), lambda: torch.add(x0, 1, out=x), lambda: torch.ones(3, out=x),
          lambda: torch.sort(x0, out=(x, torch.empty(0, dtype=torch.long))), lambda: x.clamp_(0, 1),
          lambda: x.requires_grad_(), lambda: x.requires_grad_(False), lambda: x._version, lambda: x * w,
          lambda: x + w, lambda: torch.nn.functional.linear(x, torch.ones(2, 3, requires_grad=True)),
          lambda: torch.nn.Parameter(x), lambda: x.sum(), lambda: x0.copy_(x), lambda: x.numpy().sum(),
          lambda: torch.exp(w) * x, lambda: (w * 2).mul_(x)]:
    show(f)
with torch.no_grad():
    show(lambda: x.add_(1))
    show(lambda: x * w)
try:
    x.requires_grad = True
except RuntimeError as e:
    print(e)
print(x)
""",
    # a model evaluated under inference_mode, its outputs used afterwards
    """
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
inp = torch.randn(5, 3)
with torch.inference_mode():
    y = m(inp)
print(y.is_inference(), y.requires_grad, y.grad_fn)
show(lambda: m(y[:, :1].repeat(1, 3)).sum().backward())
show(lambda: m(y.clone()[:, :1].expand(5, 3)).sum())
show(lambda: torch.nn.functional.cross_entropy(m(inp), y.argmax(1)).backward())
show(lambda: torch.nn.functional.mse_loss(m(inp), y))
show(lambda: torch.nn.functional.mse_loss(m(inp), y.clone()).backward())
print([p.grad is not None for p in m.parameters()])
""",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    compare("import numpy as np\n" + SHOW + code)


def test_custom_function_cannot_save_an_inference_tensor():
    class Scale(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            (b,) = ctx.saved_tensors
            return grad * b, None

    with minitorch.inference_mode():
        b = minitorch.ones(2)
    a = minitorch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        Scale.apply(a, b)
    Scale.apply(a, b.clone()).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]


def test_thread_local(device):
    import threading

    seen = []
    with minitorch.inference_mode():
        thread = threading.Thread(target=lambda: seen.append(minitorch.ones(2, device=device).is_inference()))
        thread.start()
        thread.join()
        seen.append(minitorch.ones(2, device=device).is_inference())
    assert seen == [False, True]
