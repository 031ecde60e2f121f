"""The window factories (minitorch/_window_functions.py) against torch 2.13: hann, hamming (alpha, beta),
blackman, bartlett and kaiser (beta) windows, periodic and symmetric, in each floating dtype. bartlett and
kaiser are torch's CPU bits in every dtype, the cosine windows in float16 and bfloat16; in float32 and
float64 their cos is minitorch's (within 1 ulp of torch's MKL cos), which leaves them within 2^-23 (float32)
and 2^-53 (float64) of torch's. Also the overloads' TypeErrors, the checks' messages in torch's order,
requires_grad, the default dtype, and the device (MINITORCH_SIMULATE_GPU=1) giving the host's values."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_on  # noqa: E402

import minitorch  # noqa: E402

LENGTHS = "list(range(0, 40)) + [64, 101, 256, 1000, 4097]"

SNIPPETS = {
    "exact_bits": """
def hexes(t): return [float(v).hex() for v in t.flatten().tolist()]
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for periodic in (True, False):
        for n in %s:
            print(dtype, periodic, n, hexes(torch.bartlett_window(n, periodic, dtype=dtype)))
            for beta in (12.0, 0.0, 0.3, 5.0, 30.0, -2.0):
                print(hexes(torch.kaiser_window(n, periodic, beta, dtype=dtype)))
""" % LENGTHS,
    "cosine_windows_16_bit": """
def hexes(t): return [float(v).hex() for v in t.flatten().tolist()]
for dtype in (torch.float16, torch.bfloat16):
    for periodic in (True, False):
        for n in %s:
            print(dtype, periodic, n, hexes(torch.hann_window(n, periodic, dtype=dtype)),
                  hexes(torch.hamming_window(n, periodic, dtype=dtype)),
                  hexes(torch.hamming_window(n, periodic, 0.6, dtype=dtype)),
                  hexes(torch.hamming_window(n, periodic, 0.62, 0.37, dtype=dtype)),
                  hexes(torch.blackman_window(n, periodic, dtype=dtype)))
""" % LENGTHS,
    "forms_and_errors": """
def show(f):
    try:
        w = f()
        print(w.dtype, w.shape, w.requires_grad, w.is_leaf, w.grad_fn, w.is_contiguous())
    except Exception as e:
        print(type(e).__name__, e)
show(lambda: torch.hann_window(5))
show(lambda: torch.hann_window(5, periodic=False, requires_grad=True))
show(lambda: torch.hann_window(1, requires_grad=True))
show(lambda: torch.blackman_window(window_length=4, dtype=torch.float64))
show(lambda: torch.kaiser_window(5, True, 3))
show(lambda: torch.hamming_window(6, False, 0.5, 0.5, layout=torch.strided, device="cpu", pin_memory=False))
for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
    f = getattr(torch, name)
    for args, kwargs in [((-1,), {}), ((3,), {"dtype": torch.int64}), ((3,), {"dtype": torch.int8, "layout": torch.strided}),
                         ((-1,), {"dtype": torch.bool}), ((3,), {"dtype": torch.int16}), ((3,), {"dtype": torch.int32}),
                         ((3,), {"dtype": torch.uint8}), ((3.0,), {}), ((None,), {}), ((3, True, 1),  {}),
                         ((5, True, 0.5, 0.5, 0.2), {}), ((5,), {"beta": 1.0}), ((5,), {"alpha": 0.6}),
                         ((3,), {"periodic": None}), ((3,), {"window_length": 2}), ((), {})]:
        show(lambda: f(*args, **kwargs))
torch.set_default_dtype(torch.float64)
show(lambda: torch.hann_window(4))
torch.set_default_dtype(torch.float32)
w = torch.kaiser_window(7, requires_grad=True)
(w * w).sum().backward()
print(w.grad.tolist() == (2 * w).tolist())
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_window_parity(name):
    compare(SNIPPETS[name])


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window"])
def test_cosine_windows_within_bound(name):
    # minitorch's cos is within 1 ulp of torch's (MKL's); the window is then within one unit of 2^-24
    # (float32) or 2^-53 (float64) of torch's values, two for blackman's two cosines
    torch = pytest.importorskip("torch")
    for dtype, unit in (("float32", 2.0 ** -24), ("float64", 2.0 ** -53)):
        for periodic in (True, False):
            for n in list(range(0, 40)) + [101, 1000, 4097]:
                for extra in ([(), (0.6, 0.35)] if name == "hamming_window" else [()]):
                    expected = getattr(torch, name)(n, periodic, *extra, dtype=getattr(torch, dtype)).tolist()
                    actual = getattr(minitorch, name)(n, periodic, *extra, dtype=getattr(minitorch, dtype))
                    assert str(actual.dtype) == "minitorch." + dtype and len(actual) == n
                    for e, a in zip(expected, actual.tolist()):
                        assert abs(e - a) <= 2 * unit, (name, dtype, periodic, n, extra, e, a)


def test_windows_on_device(device):
    compare_on(device, """
def hexes(t): return [float(v).hex() for v in t.cpu().flatten().tolist()]
for dtype in (torch.float32, torch.float64, torch.float16):
    for n in (0, 1, 2, 7, 16, 33):
        w = torch.kaiser_window(n, dtype=dtype, device=DEV)
        print(w.device.type == torch.device(DEV).type, w.dtype, hexes(w), hexes(torch.bartlett_window(n, False, dtype=dtype, device=DEV)))
        print([round(v, 5) for v in torch.hann_window(n, dtype=dtype, device=DEV).cpu().tolist()],
              [round(v, 5) for v in torch.blackman_window(n, False, dtype=dtype, device=DEV).cpu().tolist()])
w = torch.hamming_window(5, requires_grad=True, device=DEV)
print(w.requires_grad, w.is_leaf)
for kwargs in [dict(dtype=torch.int64), dict(dtype=torch.bool)]:
    try: torch.hann_window(3, device=DEV, **kwargs)
    except Exception as e: print(type(e).__name__, str(e).replace("cuda:0", "cpu").replace("cuda", "cpu"))
""")
