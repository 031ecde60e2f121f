"""nn.CTCLoss, F.ctc_loss and torch.ctc_loss against torch 2.13, printed by the same snippet under both:
losses and gradients of log_probs in float32 (within a relative 1e-5: torch takes exp and log from SLEEF)
and float64 (within 1e-10), padded and concatenated targets, tensor, tuple and list lengths, unbatched
input, each reduction, zero_infinity, a blank other than 0, repeated labels and a target holding the
blank; node names, the module's repr and torch's errors. A long float32 case compares errors against
torch's float64 gradient; the `device` test checks the simulated (or real) GPU against the host."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare_close, import_torch  # noqa: E402
from test_nn_layers_more import SHOW as LAYERS_SHOW  # noqa: E402

import minitorch  # noqa: E402

F = minitorch.nn.functional
SNIPPETS = []

# the printing helpers (chain, t) of the layer tests, and a run of one loss and its gradient
SHOW = LAYERS_SHOW + """
torch.manual_seed(0)

def run(lp, *args, **kwargs):
    lp = lp.detach().requires_grad_()
    loss = F.ctc_loss(lp, *args, **kwargs)
    print(loss.dtype, tuple(loss.shape), loss.tolist(), chain(loss))
    (loss if loss.dim() == 0 else loss.sum()).backward()
    print(lp.grad.tolist())
"""


def snip(name, code, dtypes=("float32", "float64")):
    for dtype in dtypes:
        body = SHOW + f"dtype = torch.{dtype}\n" + textwrap.dedent(code).strip() + "\n"
        SNIPPETS.append(pytest.param(body, 1e-5 if dtype == "float32" else 1e-10, id=f"{name}-{dtype}"))


snip("padded_each_reduction", """
lp = torch.randn(9, 3, 6, dtype=dtype).log_softmax(2)
targets = torch.tensor([[1, 2, 2, 5], [3, 3, 3, 0], [4, 1, 0, 0]])
for reduction in ("mean", "sum", "none"):
    run(lp, targets, torch.tensor([9, 7, 5]), torch.tensor([4, 3, 2]), reduction=reduction)
""")

snip("concatenated_tuple_and_list_lengths", """
lp = torch.randn(8, 3, 5, dtype=dtype).log_softmax(2)
targets = torch.tensor([1, 1, 2, 4, 3, 2, 2])
run(lp, targets, (8, 6, 8), (3, 1, 3))
run(lp, targets, [8, 6, 8], [3, 1, 3], reduction="sum")
run(lp, targets.int(), torch.tensor([8, 6, 8], dtype=torch.int32), torch.tensor([3, 1, 3], dtype=torch.int16),
    reduction="none")
""")

snip("unbatched", """
lp = torch.randn(7, 4, dtype=dtype).log_softmax(1)
for reduction in ("mean", "sum", "none"):
    run(lp, torch.tensor([1, 3, 3]), torch.tensor(7), torch.tensor(3), reduction=reduction)
run(lp, torch.tensor([[2, 1]]), (6,), (2,), reduction="none")
""")

snip("blank_not_zero_and_target_holding_the_blank", """
lp = torch.randn(7, 3, 5, dtype=dtype).log_softmax(2)
run(lp, torch.tensor([[0, 1, 1], [4, 0, 0], [1, 3, 3]]), torch.tensor([7, 5, 6]), torch.tensor([3, 2, 2]), blank=3)
run(lp, torch.tensor([[0, 2, 2], [3, 4, 0], [1, 2, 1]]), torch.tensor([7, 5, 6]), torch.tensor([3, 2, 3]), blank=2,
    reduction="none")
run(lp, torch.tensor([[1, 0, 2], [0, 0, 0], [2, 1, 0]]), torch.tensor([7, 5, 6]), torch.tensor([3, 3, 3]),
    reduction="sum")
""")

snip("empty_targets_and_empty_inputs", """
lp = torch.randn(5, 4, 4, dtype=dtype).log_softmax(2)
targets = torch.tensor([[1, 2], [3, 3], [1, 1], [2, 0]])
run(lp, targets, torch.tensor([5, 0, 0, 3]), torch.tensor([0, 0, 2, 1]), reduction="none")
run(lp, targets, torch.tensor([5, 4, 2, 3]), torch.tensor([0, 1, 2, 0]))
""")

snip("impossible_alignments_and_zero_infinity", """
lp = torch.randn(6, 3, 5, dtype=dtype).log_softmax(2)
targets = torch.tensor([[1, 1, 2], [3, 4, 2], [2, 2, 2]])
il, tl = torch.tensor([6, 2, 4]), torch.tensor([3, 3, 3])
for zero_infinity in (False, True):
    for reduction in ("mean", "sum", "none"):
        run(lp, targets, il, tl, reduction=reduction, zero_infinity=zero_infinity)
""")

snip("module_and_torch_op", """
lp = torch.randn(6, 2, 5, dtype=dtype).log_softmax(2).requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 4, 0]])
il, tl = torch.tensor([6, 5]), torch.tensor([3, 2])
for m in (nn.CTCLoss(), nn.CTCLoss(blank=4, reduction="sum", zero_infinity=True)):
    print(m, m.blank, m.reduction, m.zero_infinity)
loss = nn.CTCLoss(reduction="none")(lp, targets, il, tl)
print(loss.tolist(), chain(loss), [type(f).__name__ for f, _ in loss.grad_fn.next_functions])
print(torch.ctc_loss(lp, targets, il, tl).tolist())
print(torch.ctc_loss(lp, targets, [6, 5], [3, 2], 0, 1, True).tolist())
print(torch.ctc_loss(lp, targets, il, tl, blank=0, reduction=2, zero_infinity=True).tolist())
print(chain(F.ctc_loss(lp[:, 0], targets[0], il[0], tl[0], reduction="none")))
""", dtypes=("float32",))

snip("errors", """
lp = torch.randn(6, 2, 5, dtype=dtype).log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 4, 0]])
il, tl = torch.tensor([6, 5]), torch.tensor([3, 2])
t(lambda: F.ctc_loss(lp, targets, torch.tensor([7, 5]), tl))
t(lambda: F.ctc_loss(lp, targets, torch.tensor([-1, 5]), tl))
t(lambda: F.ctc_loss(lp, targets, il, torch.tensor([-1, 2])))
t(lambda: F.ctc_loss(lp, targets, il, torch.tensor([4, 2])))
t(lambda: F.ctc_loss(lp, targets, il, tl, blank=5))
t(lambda: F.ctc_loss(lp, targets, il, tl, blank=-1))
t(lambda: F.ctc_loss(lp, targets, il.float(), tl))
t(lambda: F.ctc_loss(lp, targets, il, tl.double()))
t(lambda: F.ctc_loss(lp, targets, il.bool(), tl))
t(lambda: F.ctc_loss(lp.half(), targets, il, tl))
t(lambda: F.ctc_loss(lp.long(), targets, il, tl))
t(lambda: F.ctc_loss(lp, targets, torch.tensor([6]), tl))
t(lambda: F.ctc_loss(lp, targets, il, torch.tensor([3, 2, 1])))
t(lambda: F.ctc_loss(lp, targets[:1], il, tl))
t(lambda: F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), il, tl))
t(lambda: F.ctc_loss(lp, targets.unsqueeze(0), il, tl))
t(lambda: F.ctc_loss(lp.unsqueeze(0), targets, il, tl))
t(lambda: F.ctc_loss(lp[0, 0], targets, il, tl))
t(lambda: F.ctc_loss(lp[:, :0], targets[:0], il[:0], tl[:0]))
t(lambda: F.ctc_loss(lp, targets, il, tl, reduction="batchmean"))
t(lambda: F.ctc_loss(lp, targets, [6, 5.0], tl))
t(lambda: F.ctc_loss(lp, targets, (6, 5), tl))
t(lambda: F.ctc_loss(lp, targets, 6, tl))
t(lambda: torch.ctc_loss(lp, targets, il, tl, 0, 1, 1))
t(lambda: nn.CTCLoss(reduction="foo")(lp, targets, il, tl))
""", dtypes=("float32",))


@pytest.mark.parametrize("code,rtol", SNIPPETS)
def test_ctc_loss_parity(code, rtol):
    compare_close(code, rtol=rtol, atol=rtol / 10)


def test_ctc_loss_long_float32_error_is_torchs():
    """With a loss in the hundreds, float32 gradients carry an error of about ulp(loss) (alpha + beta + nll
    cancel): minitorch's float32 gradient is as far from torch's float64 one as torch's float32 gradient
    is, and its float64 gradient is torch's to 1e-12."""
    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    torch.manual_seed(1)
    x = (torch.randn(60, 5, 20) * 3).log_softmax(2)
    targets, il, tl = torch.randint(1, 4, (5, 25)), torch.randint(40, 61, (5,)), torch.randint(5, 25, (5,))
    grads = {}
    for name in ("float32", "float64"):
        for lib, functional in ((torch, torch.nn.functional), (minitorch, F)):
            lp = lib.tensor(x.tolist(), dtype=getattr(lib, name)).requires_grad_()
            loss = functional.ctc_loss(lp, lib.tensor(targets.tolist()), lib.tensor(il.tolist()),
                                       lib.tensor(tl.tolist()), reduction="sum")
            loss.backward()
            grads[lib.__name__, name] = torch.tensor(lp.grad.tolist(), dtype=torch.float64)
            assert loss.item() > 500
    reference = grads["torch", "float64"]
    assert (grads["minitorch", "float64"] - reference).abs().max() < 1e-12
    torch_error = (grads["torch", "float32"] - reference).abs().max()
    assert (grads["minitorch", "float32"] - reference).abs().max() <= 2 * torch_error


def test_ctc_loss_on_device(device):
    """The host's losses and gradients on every device (targets and lengths may stay on the host)."""
    minitorch.manual_seed(0)
    lp = minitorch.randn(8, 3, 6, dtype=minitorch.float64).log_softmax(2)
    targets = minitorch.tensor([[1, 2, 2, 5], [3, 3, 3, 0], [4, 1, 0, 0]])
    il, tl = minitorch.tensor([8, 3, 5]), minitorch.tensor([4, 3, 2])
    for kw in (dict(), dict(reduction="none", zero_infinity=True), dict(reduction="sum", blank=5)):
        results = []
        for d in ("cpu", device):
            lpd = lp.detach().to(d).requires_grad_()
            loss = F.ctc_loss(lpd, targets.to(d) if d == "cpu" else targets, il, tl.to(d), **kw)
            (loss if loss.dim() == 0 else loss.sum()).backward()
            assert loss.device.type == d and lpd.grad.device.type == d
            results.append([loss.detach().cpu(), lpd.grad.cpu()])
        for a, b in zip(*results):
            assert minitorch.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True)
