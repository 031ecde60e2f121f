"""nll_loss and cross_entropy against torch 2.13, printed by the same snippet under both: torch's checks in
torch's order (nll_loss_nd's, the kernel's meta checks, the kernel's dtype checks, the target values), the
loss and its gradient bit for bit (hex floats) for every rank, dtype, reduction, class weights and ignored
targets (the (N, C, H, W) kernel adds its sums in the same cascade as the (N, C) one), and the graph torch
records (NllLossBackward0 / NllLoss2DBackward0, and the views of the other ranks)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_on  # noqa: E402

ERRORS = """
F = torch.nn.functional
L = torch.long
def t(f):
    try:
        r = f()
        print(r.dtype, tuple(r.shape), r.grad_fn is not None)
    except Exception as e:
        print(type(e).__name__, e)

x2, y2 = torch.zeros(3, 4), torch.tensor([0, 1, 3])
x4, y4 = torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=L)
grad_w = torch.ones(4, requires_grad=True)
cases = [
    (torch.tensor(1.0), torch.tensor(0), None),
    (torch.zeros(4), torch.tensor([1]), None), (torch.zeros(4), torch.tensor([1, 2]), None),
    (torch.zeros(4), torch.tensor([[1]]), None), (torch.zeros(4), torch.tensor(-100), None),
    (torch.zeros(4), torch.tensor([1]), torch.ones(3)),
    (x2, torch.tensor(1), None), (x2, torch.tensor([0, 1]), None), (x2, y2.view(3, 1), None),
    (x2, torch.tensor([[1, 2, 3]]), None), (x2, y2.int(), None), (x2, y2.view(3, 1).int(), None),
    (x2, y2.int(), torch.ones(5)), (x2, y2, torch.ones(5)), (x2, y2, torch.ones(4, 1)),
    (x2.int(), y2, torch.ones(5)), (x2.int(), y2.int(), None), (x2.int(), y2, None),
    (x2, y2, torch.ones(4, dtype=torch.float64)), (x2.double(), y2, torch.ones(4)),
    (x2, torch.tensor([0, 1, 4]), None), (x2, torch.tensor([0, -1, 2]), None),
    (x2, torch.tensor([0, 1, 9]), torch.ones(4, dtype=torch.float64)),
    (x2, y2, grad_w), (x2.requires_grad_(), y2, grad_w), (x2, y2.int(), grad_w), (x2, torch.tensor([0, 1]), grad_w),
    (x2, y2.to(torch.uint8), None), (x2, y2.to(torch.int16), None),
    (x4, y4, None), (x4, y4[:, :, 0], None), (x4, torch.zeros(2, 4, 6, dtype=L), None),
    (x4, y4, torch.ones(4)), (x4, y4, torch.ones(3, 1)), (x4, y4.to(torch.uint8), None),
    (x4, y4.int(), torch.ones(4)), (x4, y4.to(torch.uint8), torch.ones(3, dtype=torch.float64)),
    (x4.int(), y4.to(torch.uint8), torch.ones(3, dtype=torch.float64)), (x4.int(), y4, None),
    (x4, torch.full((2, 4, 5), 3), None), (x4, torch.full((2, 4, 5), -1), None), (x4, y4, grad_w[:3]),
    (torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=L), None), (torch.zeros(2, 3, 4), torch.zeros(2, 4, 1, dtype=L), None),
    (torch.zeros(2, 3, 4), torch.zeros(2, 4, dtype=L), torch.ones(4)),
    (torch.zeros(2, 3, 4), torch.zeros(2, 4, dtype=torch.uint8), None),
    (torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=L), torch.ones(5)), (torch.zeros(2, 3, 4), torch.zeros(2, 4, dtype=L), grad_w),
    (torch.zeros(0, 4), torch.zeros(0, dtype=L), None), (torch.zeros(0, 4, 2, 2), torch.zeros(0, 2, 2, dtype=L), None),
]
for a in cases:
    for reduction in ("mean", "none"):
        t(lambda: F.nll_loss(*a, reduction=reduction))
    t(lambda: F.cross_entropy(*a))
with torch.no_grad():
    t(lambda: F.nll_loss(x2, y2, weight=grad_w))
"""


def test_errors_in_torchs_order():
    compare(ERRORS)


VALUES = """
F = torch.nn.functional
def hexes(t):
    return [float(v).hex() for v in t.detach().double().flatten().tolist()]
g = torch.Generator().manual_seed(3)
shapes = [(7,), (5, 7), (1, 3), (300, 6), (2, 3, 4, 5), (3, 4, 17, 9), (2, 5, 6), (2, 3, 2, 3, 4), (4, 3, 1, 1)]
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for shape in shapes:
        c = shape[0] if len(shape) == 1 else shape[1]
        tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
        x = torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)
        y = torch.randint(0, c, tshape, generator=g)
        w = (torch.rand(c, generator=g, dtype=torch.float64) + 0.5).to(dtype)
        for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": w}, {"ignore_index": 1},
                   {"weight": w, "ignore_index": 2, "reduction": "none"}, {"weight": w, "ignore_index": 0}):
            xg = x.clone().to(DEV).requires_grad_()
            kw = {k: (v.to(DEV) if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}
            out = F.nll_loss(xg, y.to(DEV), **kw)
            out.backward(torch.ones_like(out) * 0.75)
            print(shape, dtype, sorted(kw), type(out.grad_fn).__name__, tuple(out.shape), hexes(out)[:40],
                  hexes(xg.grad)[:60], xg.grad.stride())
            if dtype in (torch.float32, torch.float64) and len(shape) > 1:
                ce = F.cross_entropy(x.to(DEV), y.to(DEV), **kw)
                print(hexes(ce)[:20])
"""


def test_values_and_gradients_bit_for_bit(device):
    compare_on(device, VALUES)


GRAPH = """
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
y = torch.tensor([2, 0, 1, 1])
for kind, inp, tgt in (("2d", x, y), ("1d", x[0], y[0]), ("4d", x.view(1, 4, 3, 1), y[:3].view(1, 3, 1)),
                       ("3d", x.view(1, 4, 3), y[:3].view(1, 3))):
    for reduction in ("mean", "sum", "none"):
        out = F.nll_loss(inp.log_softmax(1 if inp.dim() > 1 else 0), tgt, reduction=reduction)
        node = out.grad_fn
        print(kind, reduction, type(node).__name__, [type(n).__name__ for n, _ in node.next_functions])
        g, = torch.autograd.grad(out.sum(), x, create_graph=True)
        gg, = torch.autograd.grad((g * g).sum(), x)
        print([float(v).hex() for v in g.detach().flatten().tolist()], [round(v, 12) for v in gg.flatten().tolist()])
out = F.cross_entropy(x, y, weight=torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64), ignore_index=0)
out.backward()
print(float(out).hex(), [float(v).hex() for v in x.grad.flatten().tolist()])
try:
    out.backward()
except RuntimeError as e:
    print(str(e)[:60])
"""


def test_graph_and_double_backward():
    compare(GRAPH)


def test_private_entry_refuses_what_the_checks_would():
    """_C._nll_loss, which nn.functional calls after its checks, refuses any other argument with an exception
    (targets outside the classes, wrong shapes, dtypes or types), never reading past a tensor."""
    import minitorch as mt

    x = mt.randn(3, 4)
    bad = [
        ((x, mt.tensor([0, 1, 9]), None, 1, None), RuntimeError),
        ((x, mt.tensor([0, -5, 2]), None, 0, None), RuntimeError),
        ((mt.randn(2, 3, 2, 2), mt.full((2, 2, 2), 7), None, 2, None), RuntimeError),
        ((x, mt.tensor([0, 1, 2]), None, 5, None), ValueError),
        ((x, mt.tensor([0, 1, 2]), mt.ones(3), 1, None), ValueError),
        ((x, mt.tensor([0, 1, 2]).int(), None, 1, None), ValueError),
        ((x.int(), mt.tensor([0, 1, 2]), None, 1, None), ValueError),
        ((mt.randn(2, 2, 2), mt.zeros(2, 2, dtype=mt.long), None, 1, None), ValueError),
        ((x, mt.tensor([0, 1, 2]), None, 1, 2 ** 70), OverflowError),
        ((x,), TypeError),
        (("a", 1, 2, 3, 4), TypeError),
    ]
    for args, error in bad:
        with pytest.raises(error):
            mt._C._nll_loss(*args)
    assert mt._C._nll_loss(x, mt.tensor([0, -5, 2]), None, 0, -5)[1].item() == 0.0
