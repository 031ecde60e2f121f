"""nn.init's structured fills against torch 2.13 (minitorch/nn/init.py): trunc_normal_ draw for draw after
manual_seed and with a generator (both of torch's samplers, float32 and float64, its warning), orthogonal_
(values to float rounding: the QR is minitorch's, not LAPACK's), eye_, dirac_ with groups, sparse_, the
deprecated names' FutureWarning, and every error. On a CUDA device (MINITORCH_SIMULATE_GPU=1) the fills
that draw nothing match torch's CPU values and the random ones keep their invariants."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_close, compare_on  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = {
    "trunc_normal": """
import warnings
def hexes(t): return [float(v).hex() for v in t.flatten().tolist()]
for dtype in (torch.float32, torch.float64):
    for args in [(), (0.5, 2.0, -1.0, 3.0), (0.0, 1.0, 2.0, 3.0), (3.0, 0.5, -1.0, 1.0), (0., 1., -0.1, 0.1),
                 (0., 0.02, -0.04, 0.04)]:
        torch.manual_seed(3)
        w = torch.empty(7, 9, dtype=dtype, requires_grad=True)
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            r = torch.nn.init.trunc_normal_(w, *args)
        print(r is w, w.requires_grad, w.grad_fn, hexes(w), [str(x.message) for x in ws], torch.rand(1).item())
g = torch.Generator().manual_seed(5)
torch.manual_seed(0)
w = torch.empty(30); torch.nn.init.trunc_normal_(w, 0, 1, 1.5, 2.5, generator=g); print(hexes(w))
w = torch.empty(3, 4); torch.nn.init.trunc_normal_(w, std=0.5, generator=g); print(hexes(w), torch.randn(2).tolist())
print(torch.nn.init.trunc_normal_(torch.empty(0, 3)).shape)
m = torch.empty(2, 3, device="meta")
print(torch.nn.init.trunc_normal_(m) is m, torch.nn.init.orthogonal_(m) is m, torch.nn.init.sparse_(m, 0.5) is m,
      torch.nn.init.dirac_(torch.empty(2, 2, 3, device="meta")))
for bad in (2.5, "a", None):
    try: torch.nn.init.trunc_normal_(bad)
    except Exception as e: print(type(e).__name__, e)
""",
    "orthogonal": """
torch.manual_seed(1)
for shape in [(4, 4), (3, 7), (7, 3), (2, 3, 4), (5, 1), (1, 5)]:
    for dtype in (torch.float32, torch.float64):
        w = torch.empty(shape, dtype=dtype)
        r = torch.nn.init.orthogonal_(w, gain=1.5 if len(shape) == 3 else 1)
        print(r is w, w.dtype, [round(v, 5) for v in w.flatten().tolist()])
g = torch.Generator().manual_seed(2)
print([round(v, 5) for v in torch.nn.init.orthogonal_(torch.empty(3, 3), generator=g).flatten().tolist()])
print(torch.rand(2).tolist(), torch.nn.init.orthogonal_(torch.empty(0, 3)).shape)
for bad in [torch.empty(3), torch.empty(())]:
    try: torch.nn.init.orthogonal_(bad)
    except Exception as e: print(type(e).__name__, e)
""",
    "eye_dirac_sparse": """
w = torch.full((3, 5), 7.0, requires_grad=True)
print(torch.nn.init.eye_(w) is w, w, torch.nn.init.eye_(torch.empty(4, 2, dtype=torch.int64)))
for shape, groups in [((4, 2, 3), 1), ((6, 4, 3, 3), 2), ((2, 3, 2, 2, 3), 1), ((6, 1, 3), 3), ((3, 5, 5), 1)]:
    w = torch.randn(shape)
    print(torch.nn.init.dirac_(w, groups) is w, w.flatten().tolist())
torch.manual_seed(4)
for shape, sparsity, std in [((6, 4), 0.5, 0.01), ((5, 3), 0.1, 1.0), ((3, 3), 0.0, 0.01), ((4, 2), 1.0, 1.0)]:
    w = torch.empty(shape)
    print(torch.nn.init.sparse_(w, sparsity, std) is w, [float(v).hex() for v in w.flatten().tolist()])
g = torch.Generator().manual_seed(9)
print(torch.nn.init.sparse_(torch.empty(4, 3), 0.5, generator=g).tolist(), torch.rand(1).item())
for f in [lambda: torch.nn.init.eye_(torch.empty(3)), lambda: torch.nn.init.eye_(torch.empty(2, 2, 2)),
          lambda: torch.nn.init.dirac_(torch.empty(3, 3)), lambda: torch.nn.init.dirac_(torch.empty(1, 1, 1, 1, 1, 1)),
          lambda: torch.nn.init.dirac_(torch.empty(5, 2, 3), 2), lambda: torch.nn.init.sparse_(torch.empty(3), 0.1),
          lambda: torch.nn.init.sparse_(torch.empty(2, 2, 2), 0.1)]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
""",
    "deprecated_names": """
import warnings
init = torch.nn.init
for name, args in [("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()), ("xavier_uniform", ()),
                   ("xavier_normal", ()), ("kaiming_uniform", ()), ("kaiming_normal", ()), ("orthogonal", ()),
                   ("sparse", (0.5,))]:
    torch.manual_seed(0)
    w = torch.empty(3, 4)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = getattr(init, name)(w, *args)
    print(name, getattr(init, name).__name__, r is w, [(x.category.__name__, str(x.message)) for x in ws],
          [round(v, 5) for v in w.flatten().tolist()])
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    w = init.dirac(torch.empty(2, 2, 3))
print([(x.category.__name__, str(x.message)) for x in ws], w.flatten().tolist())
print(hasattr(init, "trunc_normal"), hasattr(init, "zeros"), hasattr(init, "ones"))
""",
}


@pytest.mark.parametrize("name", ["trunc_normal", "eye_dirac_sparse", "deprecated_names"])
def test_init_parity(name):
    compare(SNIPPETS[name])


def test_orthogonal_close():
    # minitorch's QR is its own Householder code, not LAPACK's: the same Q to float rounding
    compare_close(SNIPPETS["orthogonal"], rtol=1e-4, atol=2e-5)


def test_orthogonal_is_orthogonal():
    minitorch.manual_seed(7)
    w = minitorch.nn.init.orthogonal_(minitorch.empty(5, 8, dtype=minitorch.float64), gain=2.0)
    gram = (w @ w.t()).tolist()
    for i in range(5):
        for j in range(5):
            assert abs(gram[i][j] - (4.0 if i == j else 0.0)) < 1e-12


def test_init_on_device(device):
    compare_on(device, """
w = torch.full((3, 5), 7.0, device=DEV)
print(torch.nn.init.eye_(w).cpu().tolist(), w.device.type == DEV)
w = torch.randn(6, 4, 3, 3, device=DEV)
print(torch.nn.init.dirac_(w, 2).cpu().flatten().tolist())
""")
    minitorch.manual_seed(0)
    for args in [(0.0, 1.0, -2.0, 2.0), (0.0, 1.0, 2.0, 3.0)]:
        w = minitorch.nn.init.trunc_normal_(minitorch.empty(50, device=device), *args)
        assert w.device.type == device and args[2] <= w.min().item() and w.max().item() <= args[3]
    w = minitorch.nn.init.sparse_(minitorch.empty(6, 5, device=device), 0.5)
    assert (w == 0).sum(0).tolist() == [3] * 5
    w = minitorch.nn.init.orthogonal_(minitorch.empty(4, 6, device=device, dtype=minitorch.float64))
    assert w.device.type == device
    gram = (w @ w.t()).cpu().tolist()
    assert all(abs(gram[i][j] - (i == j)) < 1e-12 for i in range(4) for j in range(4))
