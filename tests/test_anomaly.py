"""Anomaly mode against torch: the switches and their context managers, the forward stack each node keeps,
the warning that names the failing node (and the nodes whose backward made it), the NaN check, and the
version-counter hint. Each snippet runs under real torch and under minitorch and must print the same; a
warning is printed as its category, its first line and the snippet's own frames of the stack it carries
(the library frames differ: torch's Python files are not minitorch's)."""

import os
import sys
import textwrap
import threading
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []


# every snippet: a recorder of warnings that prints the snippet's frames only, and the mode reset at the end
HEAD = """
import warnings
def show(w):
    for x in w:
        text = str(x.message).split(" (Triggered internally")[0]
        lines = text.split("\\n")
        while lines and not lines[0]:
            lines.pop(0)
        print(x.category.__name__, lines[0], [l.strip() for l in lines[1:] if "<snippet>" in l])
def run(f):
    try:
        f()
    except Exception as e:
        print("!!", type(e).__name__, e)
def stack(node):
    print([l.split(",")[1].strip() for l in node.metadata.get("traceback_", []) if "<snippet>" in l])
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom")
class Nan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * float("nan")
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
"""

TAIL = """
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
"""


def snip(name, code):
    SNIPPETS.append(pytest.param(HEAD.strip() + "\n" + textwrap.dedent(code).strip() + "\n" + TAIL.strip() + "\n",
                                 id=name))


snip("switches", """
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True):
    with torch.autograd.set_detect_anomaly(False, False):
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(enabled=True, check_nan=False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.autograd.anomaly_mode.__all__)
print(type(torch.autograd.set_detect_anomaly(False)).__name__)
""")

snip("detect_anomaly_warns_at_creation", """
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    m = torch.autograd.detect_anomaly()
    print(torch.is_anomaly_enabled())
    with m:
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.detect_anomaly(check_nan=False):
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
show(w)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
""")

snip("bad_arguments", """
torch.set_anomaly_enabled()
torch.set_anomaly_enabled("a")
torch.set_anomaly_enabled(1)
torch.set_anomaly_enabled(None)
torch.set_anomaly_enabled(True, "x")
torch.set_anomaly_enabled(True, True, True)
torch.set_anomaly_enabled(check_nan=False)
torch.autograd.set_detect_anomaly(1)
with torch.autograd.detect_anomaly(check_nan="x"):
    pass
torch.autograd.detect_anomaly()(lambda: 1)
""")

snip("stack_in_metadata", """
def make(t):
    return t * 2
with torch.autograd.set_detect_anomaly(True):
    y = make(x)
    z = y.exp().sum()
    b = Bad.apply(x)
stack(y.grad_fn)
stack(z.grad_fn)
stack(z.grad_fn.next_functions[0][0])
stack(b.grad_fn)
print(sorted(y.grad_fn.metadata))
print((x * 3).grad_fn.metadata)
""")

snip("error_in_backward_warns", """
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.set_detect_anomaly(True):
        y = Bad.apply(x)
        run(lambda: y.sum().backward())
        z = x * 3
        z.register_hook(lambda g: 1 / 0)
        run(lambda: z.sum().backward())
    y = Bad.apply(x)
    with torch.autograd.set_detect_anomaly(True):
        run(lambda: y.sum().backward())
    y = Bad.apply(x)
    run(lambda: y.sum().backward())
show(w)
print(x.grad)
""")

snip("nan_check", """
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.set_detect_anomaly(True):
        run(lambda: (x / x).sum().backward())
        print(x.grad)
        run(lambda: Nan.apply(x).sum().backward())
        run(lambda: torch.autograd.grad(Nan.apply(x).sum(), x))
        y = x * 2
        run(lambda: y.backward(torch.tensor([float("nan"), 1.0, 2.0])))
        print(x.grad)
        y = x.sqrt()
        run(lambda: y.sum().backward())
        print(x.grad)
        y = x.sqrt()
        y.register_hook(lambda g: g * 0)
        run(lambda: y.sum().backward())
        print(x.grad)
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (x / x).sum().backward()
        print(x.grad)
    x.grad = None
    (x / x).sum().backward()
    print(x.grad)
show(w)
""")

snip("nan_check_float64_and_views", """
a = torch.tensor([[0.0, 1.0], [2.0, 3.0]], dtype=torch.float64, requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.set_detect_anomaly(True):
        run(lambda: (a.t() / a.t()).sum().backward())
        run(lambda: (a[:, 1] * 2).log().sum().backward())
        print(a.grad)
show(w)
""")

snip("double_backward_names_the_parent", """
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.set_detect_anomaly(True):
        a = x.sqrt()
        g, = torch.autograd.grad(a.sum(), x, create_graph=True)
        print(type(g.grad_fn.metadata["parent_"]).__name__)
        run(lambda: (g * 0).sum().backward())
show(w)
""")

snip("saved_tensor_changed_hint", """
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.set_detect_anomaly(True):
        a = x.exp()
        b = a.exp()
        a.add_(1)
        run(lambda: b.sum().backward())
        c = x.exp()
        c.sum().backward()
        run(lambda: c.sum().backward())
    a = x.exp()
    b = a.exp()
    a.add_(1)
    run(lambda: b.sum().backward())
show(w)
""")

snip("modules_and_optimizer_step", """
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
with torch.autograd.detect_anomaly():
    for _ in range(2):
        opt.zero_grad()
        loss = net(torch.ones(2, 3)).pow(2).mean()
        loss.backward()
        opt.step()
print([p.grad.tolist() for p in net.parameters()])
print(type(loss.grad_fn).__name__, sorted(loss.grad_fn.metadata))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_anomaly_parity(code):
    compare(code)


# ---- what needs no torch -------------------------------------------------------------------------------


def test_mode_is_one_flag_for_all_threads():
    # torch's AnomalyMode is process-wide (unlike grad mode): a thread sees what another set
    seen = []
    with minitorch.autograd.set_detect_anomaly(True, check_nan=False):
        t = threading.Thread(target=lambda: seen.append((minitorch.is_anomaly_enabled(),
                                                         minitorch.is_anomaly_check_nan_enabled())))
        t.start()
        t.join()
    assert seen == [(True, False)]
    assert (minitorch.is_anomaly_enabled(), minitorch.is_anomaly_check_nan_enabled()) == (False, True)


def test_nodes_keep_no_stack_when_off():
    x = minitorch.ones(2, requires_grad=True)
    assert (x * 2).grad_fn.metadata == {}


def test_nan_check_on_the_device(device):
    x = minitorch.tensor([0.0, 1.0], device=device, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minitorch.autograd.set_detect_anomaly(True):
            with pytest.raises(RuntimeError, match=r"^Function 'DivBackward0' returned nan values in its 1th output\.$"):
                (x / x).sum().backward()
            x.sqrt().sum().backward()
    assert x.grad.device.type == device
    assert x.grad.tolist()[1] == 0.5


def test_report_keeps_the_error_when_warnings_are_errors():
    x = minitorch.ones(2, requires_grad=True)

    class Bad(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with minitorch.autograd.set_detect_anomaly(True):
            y = Bad.apply(x)
            with pytest.raises(ValueError, match="boom"):
                y.sum().backward()
