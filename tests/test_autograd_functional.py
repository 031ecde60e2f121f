"""torch.autograd.functional against torch: jacobian, hessian, vjp, jvp, vhp and hvp print the same values
(bit for bit, as exact floats through tolist()), the same result structure (a Tensor for a Tensor, tuples
for tuples), the same grad_fn and requires_grad with create_graph, and the same errors."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []

# helpers every snippet can use: a result's structure with exact values, and functions to differentiate
HEAD = """
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp
def show(r):
    if isinstance(r, tuple):
        return "(" + ", ".join(show(e) for e in r) + ")"
    return "T%s%s%s%s" % (list(r.shape), str(r.dtype)[-7:], r.flatten().tolist(), "+g" if r.requires_grad else "")
def f(a):
    return (a.exp() * a).sum(0) if a.dim() > 1 else a.exp() * a.sin()
def g(a, b):
    return (a * b.sum(), a.pow(3).sum() + (b * b.exp()).sum())
def s(a):
    return (a.pow(3) * a.cos()).sum()
def s2(a, b):
    return (a.pow(2) * b.sum() + b.exp().sum()).sum()
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64)
y = torch.randn(2, 3)
xf = x.float()
v3 = torch.randn(3, dtype=torch.float64)
"""


def snip(name, code):
    SNIPPETS.append(pytest.param(HEAD.strip() + "\n" + textwrap.dedent(code).strip() + "\n", id=name))


snip("jacobian", """
print(show(jacobian(f, x)))
print(show(jacobian(f, y)))
print(show(jacobian(g, (xf, y))))
print(show(jacobian(g, (xf,))))
print(show(jacobian(lambda a: (a * 2,), xf)))
print(show(jacobian(lambda a: a.sum(), y)))
print(show(jacobian(lambda a: a @ a.t(), y)))
print(show(jacobian(lambda a: torch.ones(2), x)))
print(show(jacobian(lambda a, b: a * 2, (x, x))))
print(show(jacobian(lambda a: a[1:] * a[:-1], torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))))
""")

snip("jacobian_vectorize_and_forward_mode", """
print(show(jacobian(f, x, vectorize=True)))
print(show(jacobian(g, (xf, y), vectorize=True)))
print(show(jacobian(lambda a, b: a * 2, (x, x), vectorize=True)))
print(show(jacobian(lambda a: a @ a.t(), y, vectorize=True)))
print(show(jacobian(lambda a: a * a.sum(), y, vectorize=True, strategy="forward-mode")))
""")

snip("jacobian_create_graph", """
w = x.clone().requires_grad_()
j = jacobian(f, w, create_graph=True)
print(show(j), type(j.grad_fn).__name__)
j.sum().backward()
print(w.grad.tolist())
j = jacobian(f, x, create_graph=True)
print(show(j), type(j.grad_fn).__name__)
j = jacobian(lambda a: a * 2, w, create_graph=True)
print(show(j), type(j.grad_fn).__name__)
print(show(jacobian(g, (xf.requires_grad_(), y), create_graph=True)))
print(show(jacobian(f, w, create_graph=True, vectorize=True)))
with torch.no_grad():
    print(show(jacobian(f, w)), torch.is_grad_enabled())
""")

snip("hessian", """
print(show(hessian(s, x)))
print(show(hessian(s2, (xf, y))))
print(show(hessian(s2, (xf, y), vectorize=True)))
print(show(hessian(s, x, vectorize=True)))
print(show(hessian(lambda a: (a * a).sum(), x)))
print(show(hessian(lambda a: a.pow(3).sum().reshape(1, 1), x)))
w = x.clone().requires_grad_()
h = hessian(s, w, create_graph=True)
print(show(h), type(h.grad_fn).__name__)
h.sum().backward()
print(w.grad.tolist())
""")

snip("vector_products", """
print(show(vjp(f, x, v3)))
print(show(vjp(g, (xf, y), (torch.ones(3), torch.tensor(2.0)))))
print(show(vjp(lambda a: a.sum(), x)))
print(show(vjp(lambda a, b: (a * 2).sum(), (x, x))))
print(show(jvp(f, x, v3)))
print(show(jvp(g, (xf, y), (torch.ones(3), torch.ones(2, 3)))))
print(show(jvp(lambda a: a.exp(), torch.tensor(2.0))))
print(show(vhp(s, x, v3)))
print(show(hvp(s, x, v3)))
print(show(hvp(s2, (xf, y), (torch.ones(3), torch.ones(2, 3)))))
print(show(vhp(s2, (xf, y), (torch.ones(3), torch.ones(2, 3)))))
print(show(vhp(lambda a: a.exp().sum(), torch.tensor([0.5]))))
print(show(hvp(lambda a: a.exp().sum(), torch.tensor([0.5]))))
w = x.clone().requires_grad_()
out, r = vjp(f, w, v3, create_graph=True)
print(show(out), show(r), type(out.grad_fn).__name__, type(r.grad_fn).__name__)
out, r = jvp(f, w, v3, create_graph=True)
print(show(out), show(r), type(r.grad_fn).__name__)
out, r = vhp(s, w, v3, create_graph=True)
print(show(out), show(r), type(r.grad_fn).__name__)
out, r = hvp(s, w, v3, create_graph=True)
print(show(out), show(r), type(r.grad_fn).__name__)
r.sum().backward()
print(w.grad.tolist())
""")

snip("errors", """
jacobian(lambda a: torch.ones(2), x, strict=True)
jacobian(lambda a, b: a * 2, (x, x), strict=True)
jacobian(lambda a: a * 2, x, strict=True, create_graph=True)
jacobian(f, x, strategy="x")
jacobian(f, x, strategy="forward-mode")
jacobian(f, x, strategy="forward-mode", create_graph=True)
jacobian(f, x, strategy="forward-mode", strict=True)
jacobian(f, x, vectorize=True, strict=True)
jacobian(f, 3)
jacobian(f, (x, 3))
jacobian(f, [x])
jacobian(lambda a: 3, x)
jacobian(lambda a: (a, 3), x)
vjp(f, x)
vjp(f, x, torch.ones(4))
vjp(f, x, 1.0)
vjp(g, (xf, y), torch.ones(4))
vjp(g, (xf, y), (torch.ones(3), torch.ones(2)))
vjp(lambda a: torch.ones(3), x, v3, strict=True)
vjp(lambda a, b: a * 2, (x, x), v3, strict=True)
jvp(f, x)
jvp(lambda a: a * 2, x, v3, strict=True)
jvp(lambda a: torch.ones(3), x, v3, strict=True)
hvp(f, x, torch.ones(3))
hvp(g, (xf, y), (torch.ones(3), torch.ones(2, 3)))
vhp(g, (xf, y), (torch.ones(3), torch.ones(2, 3)))
vhp(lambda a: (a * a).sum(), x)
hessian(f, x)
hessian(g, (xf, y))
hessian(lambda a: a.sum() * 2, x, strict=True)
hessian(lambda a: (a * a).sum(), x, strict=True)
hessian(s, x, outer_jacobian_strategy="forward-mode")
hessian(s, x, outer_jacobian_strategy="bad")
hessian(s, x, vectorize=True, strict=True)
hvp(lambda a: a.sum() * 2, x, v3, strict=True)
print(show(hvp(lambda a: (a * a).sum(), x, v3, strict=True)))
vhp(lambda a: (a * a).sum(), x, v3, strict=True, create_graph=True)
hvp(lambda a: (a * a).sum(), x, v3, strict=True, create_graph=True)
print(show(vhp(lambda a: (a * a).sum(), x, v3, strict=True)))
jacobian(lambda a: a.long(), x)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_functional_parity(code):
    compare(code)


def test_gradients_on_the_device(device):
    x = minitorch.tensor([0.5, 1.5, -2.0], device=device, dtype=minitorch.float64)
    j = minitorch.autograd.functional.jacobian(lambda a: a.exp() * a, x)
    h = minitorch.autograd.functional.hessian(lambda a: a.pow(3).sum(), x)
    assert j.device.type == device and h.device.type == device
    assert j.cpu().tolist() == minitorch.autograd.functional.jacobian(lambda a: a.exp() * a, x.cpu()).tolist()
    assert h.cpu().tolist() == [[3.0, 0.0, 0.0], [0.0, 9.0, 0.0], [0.0, 0.0, -12.0]]
