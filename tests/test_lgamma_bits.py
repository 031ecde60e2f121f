"""lgamma on the CPU against torch 2.13, bit for bit: torch's x86 kernels (AVX2, AVX-512) run every element,
the tail of a run and strided elements included, through SLEEF's vector lgamma, which minitorch reproduces
(csrc/kernels/sleef_lgamma.h); under ATEN_CPU_CAPABILITY=default both take the C library's. Values: random
ones, the neighbours of lgamma's zeros (1, 2 and the negative ones) bit by bit, where the result is tiny and
the last bits of its terms are most of it, large and subnormal inputs, the negative integers, inf and nan;
every length from 1 to 100; float16 and bfloat16 on all their values (computed in float32 and rounded).
The tests skip without torch."""

import os
import subprocess
import sys

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch")

FLOATS = ["float32", "float64"]
# the first zeros of lgamma below 0 (its zeros above are 1 and 2)
NEGATIVE_ZEROS = [-2.4570247382208006, -2.7476826467274127, -3.1435473209812, -3.9552942848585,
                  -4.0390531627, -4.9991186]


def inputs(dtype):
    r = np.random.default_rng(7)
    info = np.finfo(dtype)
    parts = [r.uniform(-20, 20, 20000), r.uniform(0, 3, 20000), r.uniform(-10, 0.5, 20000),
             np.exp(r.uniform(-80, 80, 5000)), -np.exp(r.uniform(-80, 16, 5000)),
             [0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 1.1, 1.2, 2.3, 7.0, 1e-30, -1e-30, 1e-306, -1e-306,
              info.tiny, info.tiny / 4, -info.tiny / 4, info.smallest_subnormal, 4e36, 1e38, 3e38, 2.0 ** 23 + 1,
              -(2.0 ** 23) + 0.5, 1e300, 2.5e305, 1.7e308, -1e300]]
    parts.append(-np.arange(1, 200, dtype=np.float64))
    with np.errstate(over="ignore"):
        x = np.concatenate([np.asarray(p, dtype=np.float64).astype(dtype) for p in parts])
    ints = np.int32 if dtype == "float32" else np.int64
    for zero in [1.0, 2.0] + NEGATIVE_ZEROS:
        bits = np.array([zero], dtype=dtype).view(ints)
        x = np.concatenate([x, (bits + np.arange(-400, 400)).astype(ints).view(dtype)])
    return x


def assert_same_bits(got, want):
    assert got.dtype == want.dtype
    same = (got.view(np.uint8).reshape(got.size, -1) == want.view(np.uint8).reshape(want.size, -1)).all(axis=1)
    same |= np.isnan(got.ravel()) & np.isnan(want.ravel())
    assert same.all(), (np.nonzero(~same)[0][:5], got.ravel()[~same][:5], want.ravel()[~same][:5])


@pytest.mark.parametrize("dtype", FLOATS)
def test_lgamma_bits(dtype):
    x = inputs(dtype)
    want = torch.lgamma(torch.from_numpy(x)).numpy()
    assert_same_bits(mt.lgamma(mt.from_numpy(x)).numpy(), want)
    assert_same_bits(mt.from_numpy(x).lgamma().numpy(), want)
    assert_same_bits(mt.special.gammaln(mt.from_numpy(x)).numpy(), want)
    t = mt.from_numpy(x.copy())
    assert t.lgamma_() is t
    assert_same_bits(t.numpy(), want)


@pytest.mark.parametrize("dtype", FLOATS)
def test_lgamma_bits_any_length_and_layout(dtype):
    """every length (torch's vector loop and its partial tail), and strided views (copied into a buffer)"""
    x = np.random.default_rng(8).uniform(-6, 6, (120, 101)).astype(dtype)
    x[:, ::7] = 1 + (x[:, ::7] - 1) * 1e-4
    for n in range(1, 101):
        row = x[n, :n]
        assert_same_bits(mt.lgamma(mt.from_numpy(row)).numpy(), torch.lgamma(torch.from_numpy(row)).numpy())
    for view in (lambda m, t: t.t(), lambda m, t: t[::3, 1::2], lambda m, t: t[5:6, :1].expand(40, 33)):
        got = mt.lgamma(view(mt, mt.from_numpy(x))).contiguous().numpy()
        assert_same_bits(got, torch.lgamma(view(torch, torch.from_numpy(x))).contiguous().numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_lgamma_16_bit_all_values(dtype):
    every = torch.arange(65536, dtype=torch.int32).to(torch.int16).view(getattr(torch, dtype))
    want = torch.lgamma(every).float().numpy()
    got = mt.lgamma(mt.tensor(every.float().tolist(), dtype=getattr(mt, dtype))).float().numpy()
    assert_same_bits(got, want)


LGAMMA_UNDER_CAPABILITY = """
import sys
sys.path.insert(0, %r)
from test_lgamma_bits import inputs
import numpy as np, torch, minitorch
for dtype in ("float32", "float64"):
    x = inputs(dtype)
    got = minitorch.lgamma(minitorch.from_numpy(x)).numpy()
    want = torch.lgamma(torch.from_numpy(x)).numpy()
    assert ((got == want) | (np.isnan(got) & np.isnan(want))).all(), dtype
print(torch.backends.cpu.get_cpu_capability())
""" % os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_lgamma_bits_under_each_capability(capability):
    """ATEN_CPU_CAPABILITY=default moves torch's lgamma to the C library's (its portable kernel calls
    std::lgamma), avx2 keeps SLEEF's; minitorch follows the same variable."""
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", LGAMMA_UNDER_CAPABILITY], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == capability.upper()
