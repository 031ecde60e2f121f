"""torch.special and the special-function ops, against torch 2.13: polygamma (n >= 0, from torch's
calc_polygamma and Hurwitz zeta), mvlgamma, i0, frexp and ldexp, and minitorch.special: the kernels of
csrc/kernels/special_math.h (i0e, i1, i1e, ndtri, log_ndtr, erfcx, entr, xlog1py, zeta: torch's Cephes
formulas with the fused multiply-adds torch's x86 build makes of them; float16/bfloat16 entr and xlog1py round
the log to the 16-bit dtype first, as torch's kernels) and the aliases of torch's ops
(expit, gammaln, psi, multigammaln ...). Values are torch's bit for bit on the host (i1 of a float32: within
1 ulp, one float in 80,000 apart; ndtr is erf's composition, erf within 1 ulp), within a few ulps on a CUDA
device; forms (function, method, in place, out=), dtype rules (integer inputs give the default float dtype),
errors, node names, gradients and double backward are torch's. The tests skip without torch."""

import math
import os
import sys

import numpy as np
import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from test_math_ops import DTYPES, FLOATS, assert_same, rng, run_both, specials, to_mt, values  # noqa: E402

torch = pytest.importorskip("torch")

# the unary special functions: (how to call them, the domain of the random inputs, ulps on the host)
UNARY = {
    "i0": ("m.i0(t)", (-30, 30), 0),
    "i0e": ("m.special.i0e(t)", (-30, 30), 0),
    "i1": ("m.special.i1(t)", (-30, 30), 0),
    "i1e": ("m.special.i1e(t)", (-30, 30), 0),
    "ndtri": ("m.special.ndtri(t)", (-0.1, 1.1), 0),
    "log_ndtr": ("m.special.log_ndtr(t)", (-40, 10), 0),
    "erfcx": ("m.special.erfcx(t)", (-30, 60), 0),
    "entr": ("m.special.entr(t)", (-1, 5), 0),
    "ndtr": ("m.special.ndtr(t)", (-10, 10), 2),
}
# a CUDA device computes exp, log and the others with CUDA's functions
DEVICE_ULPS = 4


def ulps_for(name, device):
    return UNARY[name][2] if device == "cpu" else DEVICE_ULPS


def run_close_to_one(fn, arrays, device):
    """As run_both, within 2 ulps of 1 (ndtr: 1 + erf(x) cancels in the lower tail, where erf's last bit is
    most of the result's)."""
    tts = [torch.from_numpy(np.array(a)) for a in arrays]
    try:
        want = fn(torch, *tts)
    except Exception:
        run_both(fn, arrays, device)
        return
    got = fn(mt, *[to_mt(a, device) for a in arrays])
    assert str(got.dtype) == str(want.dtype).replace("torch", "minitorch")
    assert tuple(got.shape) == tuple(want.shape)
    eps = np.finfo(str(want.dtype).split(".")[1]).eps
    np.testing.assert_allclose(np.array(got.cpu().tolist(), dtype=float).reshape(tuple(want.shape)),
                               want.double().numpy(), rtol=0, atol=2 * eps)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_values(device, name, dtype):
    call, (lo, hi), _ = UNARY[name]
    ulps = ulps_for(name, device)
    if name == "ndtr":
        run_both = lambda fn, arrays, device, ulps: run_close_to_one(fn, arrays, device)  # noqa: E731
    else:
        run_both = globals()["run_both"]
    x = values(rng(sorted(UNARY).index(name)), (37, 29), dtype, lo, hi)
    run_both(lambda m, t: eval(call), [x], device, ulps)
    run_both(lambda m, t: eval(call), [x.T[3:, ::2]], device, ulps)
    run_both(lambda m, t: eval(call), [x[:0]], device, ulps)
    run_both(lambda m, t: eval(call), [x[2, 3]], device, ulps)
    if dtype in FLOATS:
        run_both(lambda m, t: eval(call), [specials(dtype)], device, ulps)


@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_worst_ulp_on_many_values(dtype):
    """Many values across each kernel's branches (the 100 intervals of erfcx, both ndtri tails, both
    Chebyshev tables): bit for bit but for i1 of a float32, whose worst is 1 ulp."""
    r = rng(5)
    x = np.concatenate([r.standard_normal(20000) * 3, r.uniform(-100, 100, 20000), r.uniform(0, 1, 20000),
                        np.exp(-r.uniform(0, 700, 2000))]).astype(dtype)
    for name in sorted(UNARY):
        if name == "ndtr":
            continue
        run_both(lambda m, t: eval(UNARY[name][0]), [x], "cpu", UNARY[name][2] if dtype == "float32" else 0)


@pytest.mark.parametrize("name", ["i0", "special.i0e", "special.i1", "special.i1e", "special.ndtri",
                                  "special.log_ndtr", "special.erfcx", "special.entr"])
def test_unary_forms(device, name):
    x = values(rng(3), (4, 5), "float32", 0.05, 0.95)
    f = name.split(".")[-1]
    run_both(lambda m, t: eval("m." + name)(t, out=m.empty(0, dtype=m.float64, device=t.device)), [x], device,
             DEVICE_ULPS)
    run_both(lambda m, t: eval("m." + name)(t.long()), [x * 10], device, DEVICE_ULPS)
    if name == "i0":
        run_both(lambda m, t: t.i0(), [x], device, DEVICE_ULPS)
        run_both(lambda m, t: t.clone().i0_(), [x], device, DEVICE_ULPS)
        run_both(lambda m, t: m.i0_(t.clone()), [x], device, DEVICE_ULPS)
        run_both(lambda m, t: t.long().i0_(), [x * 10], device)
    assert not hasattr(mt, "special_" + f) and not hasattr(torch, "special_" + f)


ALIASES = {"expit": "sigmoid", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv", "gammaln": "lgamma",
           "digamma": "digamma", "psi": "digamma", "sinc": "sinc", "exp2": "exp2", "expm1": "expm1",
           "log1p": "log1p", "round": "round", "i0": "i0", "logit": "logit"}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_aliases(device, name):
    x = values(rng(7), (6, 7), "float32", 0.01, 0.99)
    run_both(lambda m, t: getattr(m.special, name)(t), [x], device, 1)
    run_both(lambda m, t: getattr(m.special, name)(t.long()), [x * 10], device, 1)
    run_both(lambda m, t: getattr(m.special, name)(t, out=m.empty(0, device=t.device)), [x], device, 1)
    got = getattr(mt.special, name)(to_mt(x, device))
    assert mt.equal(got, getattr(mt, ALIASES[name])(to_mt(x, device)))
    a = to_mt(x, device).requires_grad_()
    b = torch.from_numpy(x).requires_grad_()
    assert type(getattr(mt.special, name)(a).grad_fn).__name__ == type(getattr(torch.special, name)(b).grad_fn).__name__


def test_special_module():
    assert set(mt.special.__all__) <= set(torch.special.__all__)
    for name in mt.special.__all__:
        assert callable(getattr(mt.special, name))
    with pytest.raises(AttributeError):
        mt.special.airy_ai


@pytest.mark.parametrize("call", [
    "m.special.softmax(t, 1)", "m.special.softmax(t, 0, dtype=m.float64)", "m.special.log_softmax(t, 1)",
    "m.special.log_softmax(t, -1, dtype=m.float64)", "m.special.logsumexp(t, 1)",
    "m.special.logsumexp(t, (0, 1), keepdim=True)", "m.special.logsumexp(t, 0, out=m.empty(0, device=t.device))",
    "m.special.round(t * 10, decimals=1)", "m.special.logit(t, eps=0.2)", "m.special.logit(t, 0.3)",
    "m.special.multigammaln(t + 2, 3)", "m.special.polygamma(2, t)", "m.special.xlogy(t, 2)",
    "m.special.xlogy(2, t)", "m.special.xlogy(t, t)", "m.special.i0(t)", "m.special.ndtr(t.long())",
    "m.special.ndtr(t, out=m.empty(0, dtype=m.float64, device=t.device))", "m.special.softmax('x', 1)",
    "m.special.xlog1py(t, 'x')", "m.special.logsumexp(t)",
])
def test_module_calls(device, call):
    x = values(rng(9), (3, 4), "float32", 0.01, 0.99)
    run_both(lambda m, t: eval(call), [x], device, 2)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7])
def test_polygamma(device, n, dtype):
    x = values(rng(n), (9, 11), dtype, -10, 20)
    ulps = 0 if device == "cpu" else DEVICE_ULPS
    run_both(lambda m, t: m.polygamma(n, t), [x], device, ulps)
    run_both(lambda m, t: t.polygamma(n), [x], device, ulps)
    run_both(lambda m, t: m.special.polygamma(n, t.t()), [x], device, ulps)
    run_both(lambda m, t: t.clone().polygamma_(n), [x], device, ulps)
    run_both(lambda m, t: m.polygamma(n, t, out=m.empty(0, dtype=m.float64, device=t.device)), [x], device,
             ulps)
    if dtype in FLOATS:
        run_both(lambda m, t: m.polygamma(n, t), [specials(dtype)], device, ulps)


@pytest.mark.parametrize("call", [
    "m.polygamma(-1, t)", "t.polygamma_(-2)", "m.polygamma(1.5, t)", "m.polygamma(t, 2)", "m.polygamma(2)",
    "t.long().polygamma_(2)", "m.special.polygamma(-1, t)", "m.polygamma(2, t, out=m.empty(0, dtype=m.long))",
])
def test_polygamma_errors(call):
    run_both(lambda m, t: eval(call), [values(rng(2), (3,), "float32")], "cpu")


@pytest.mark.parametrize("a,b", [("float32", "float32"), ("float64", "float64"), ("int64", "float32"),
                                 ("int32", "int64"), ("float32", "float64"), ("bool", "float32")])
@pytest.mark.parametrize("op", ["zeta", "xlog1py"])
def test_binary(device, op, a, b):
    r = rng(11)
    x = values(r, (6, 5), a, 0.5, 12)
    y = values(r, (5,), b, -3, 10)
    x[0, :3] = [1.0, 0.0, 2.0] if a != "bool" else x[0, :3]
    ulps = 0 if device == "cpu" else DEVICE_ULPS
    f = "m.special." + op
    run_both(lambda m, s, t: eval(f)(s, t), [x, y], device, ulps)
    run_both(lambda m, s, t: eval(f)(s.t(), t[:, None]), [x, y], device, ulps)
    run_both(lambda m, s, t: eval(f)(s, 2.5), [x, y], device, ulps)
    run_both(lambda m, s, t: eval(f)(3, t), [x, y], device, ulps)
    run_both(lambda m, s, t: eval(f)(s, t, out=m.empty(0, dtype=m.float64, device=t.device)), [x, y], device,
             ulps)


@pytest.mark.parametrize("dtype", FLOATS)
def test_zeta_specials(dtype):
    s = specials(dtype)
    x = np.array([1.0, 0.5, 2.0, 3.0, 2.0, 2.5, 4.0, 1.5], dtype=dtype)
    q = np.array([2.0, 2.0, 0.0, -1.0, -1.5, -1.5, 1e-3, 1e5], dtype=dtype)
    run_both(lambda m, a, b: m.special.zeta(a, b), [x, q], "cpu")
    run_both(lambda m, a, b: m.special.zeta(a[:, None], b), [x, s], "cpu")
    run_both(lambda m, a, b: m.special.xlog1py(a[:, None], b), [np.append(x, 0.0), s], "cpu")


GRAD_CALLS = [
    ("i0", "m.i0(a)"), ("i0e", "m.special.i0e(a)"), ("i1", "m.special.i1(a)"), ("i1e", "m.special.i1e(a)"),
    ("ndtri", "m.special.ndtri(a.sigmoid())"), ("log_ndtr", "m.special.log_ndtr(a)"),
    ("erfcx", "m.special.erfcx(a)"), ("entr", "m.special.entr(a)"), ("ndtr", "m.special.ndtr(a)"),
    ("polygamma2", "m.polygamma(2, a)"), ("polygamma3", "a.polygamma(3)"), ("polygamma0", "m.polygamma(0, a)"),
    ("digamma", "m.digamma(a)"), ("psi", "m.special.psi(a)"), ("trigamma", "m.polygamma(1, a)"),
    ("mvlgamma", "m.mvlgamma(a + 3, 3)"), ("multigammaln", "m.special.multigammaln(a + 2, 1)"),
    ("xlog1py", "m.special.xlog1py(a, b)"), ("xlog1py_number", "m.special.xlog1py(a, 2.0)"),
    ("xlog1py_self", "m.special.xlog1py(3.0, b)"), ("zeta_other", "m.special.zeta(a.detach() + 3, b + 4)"),
    ("zeta_self", "m.special.zeta(a + 3, b.detach() + 4)"), ("zeta_number", "m.special.zeta(3.0, b + 4)"),
    ("ldexp", "m.ldexp(a, b)"), ("frexp", "m.frexp(a)[0]"), ("expit", "m.special.expit(a)"),
    ("gammaln", "m.special.gammaln(a)"),
]


# the lgamma-based values are within a few ulps of torch's, counted at the scale of max(|value|, 1) (a CUDA
# device's lgamma is CUDA's; on the CPU lgamma is torch's SLEEF lgamma bit for bit, tests/test_lgamma_bits.py);
# so are ndtr's (erf's last bit, where 1 + erf cancels)
LGAMMA_BASED = {"mvlgamma", "multigammaln", "gammaln", "ndtr"}


def assert_close(got, want, ulps):
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    w = want.detach().double().numpy()
    eps = np.finfo(str(want.dtype).split(".")[1]).eps
    np.testing.assert_allclose(np.array(got.detach().cpu().tolist(), dtype=float).reshape(w.shape), w, rtol=0,
                               atol=max(ulps, 4) * eps * max(1.0, float(np.abs(w).max())))


def _names(fn):
    names, seen, todo = [], set(), [fn]
    while todo:
        node = todo.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        todo.extend(n for n, _ in node.next_functions)
    return names


@pytest.mark.parametrize("name,call", GRAD_CALLS, ids=[c[0] for c in GRAD_CALLS])
@pytest.mark.parametrize("dtype", FLOATS)
def test_grads(device, name, call, dtype):
    r = rng(13)
    x = values(r, (4, 3), dtype, -3, 3)
    y = values(r, (3,), dtype, -0.9, 3)
    if name.startswith("entr"):
        x = np.abs(x) + 0.1
    x[0, 0] = 0.0 if name.startswith(("i", "xlog1py")) else x[0, 0]
    results = {}
    for m in (torch, mt):
        a = to_mt(x, device) if m is mt else torch.from_numpy(x.copy())
        b = to_mt(y, device) if m is mt else torch.from_numpy(y.copy())
        a.requires_grad_()
        b.requires_grad_()
        out = eval(call)
        inputs = [t for t in (a, b) if t.requires_grad and t.is_leaf]
        try:
            grads = m.autograd.grad(out, inputs, m.ones_like(out), create_graph=True, allow_unused=True)
        except (RuntimeError, NotImplementedError) as e:
            results[m] = (_names(out.grad_fn), type(e).__name__, str(e))
            continue
        second = [m.autograd.grad(g.sum(), inputs, retain_graph=True, allow_unused=True)
                  if g is not None and g.requires_grad else None for g in grads]
        results[m] = (_names(out.grad_fn), out, grads, second)
    want, got = results[torch], results[mt]
    assert got[0] == want[0]
    if isinstance(want[1], str):
        assert got[1:] == want[1:]
        return
    close = assert_close if name in LGAMMA_BASED else assert_same
    close(got[1].detach(), want[1].detach(), 1 if name == "ndtr" else 0 if device == "cpu" else DEVICE_ULPS)
    for g, w in zip(got[2], want[2]):
        assert (g is None) == (w is None)
        if w is not None:
            close(g.detach(), w.detach(), 2 if device == "cpu" else DEVICE_ULPS)
    # second derivatives: chains of several ops, each within its ulps
    for gs, ws in zip(got[3], want[3]):
        assert (gs is None) == (ws is None)
        if ws is not None:
            for g, w in zip(gs, ws):
                assert (g is None) == (w is None)
                if w is not None:
                    close(g, w, 16)


@pytest.mark.parametrize("call", [
    "m.mvlgamma(t + 2, 1)", "m.mvlgamma(t + 2, 4)", "m.mvlgamma((t * 10).long(), 2)", "t.mvlgamma(2)",
    "(t + 3).mvlgamma_(2)", "m.mvlgamma(t + 2, 2, out=m.empty(0))", "m.mvlgamma(t, 2, out=m.empty(0, dtype=m.long))",
    "m.mvlgamma(t, 0)",
    "m.mvlgamma(t > 0, 2)", "(t * 10).long().mvlgamma_(2)", "m.special.multigammaln(t + 5, 5)",
    "m.mvlgamma(t, 1.5)",
])
def test_mvlgamma(call):
    run_both(lambda m, t: eval(call), [values(rng(17), (5, 4), "float32", 0, 3)], "cpu", 2)


@pytest.mark.parametrize("call", [
    "m.frexp(t)", "t.frexp()", "m.frexp(t.double())", "m.frexp(t.half())", "m.frexp(t.bfloat16())",
    "m.frexp(t.long())", "t.frexp(1)", "m.frexp(t)[1]", "m.frexp(t).mantissa", "repr(m.frexp(t[:2]))",
    "type(m.frexp(t)).__name__", "m.ldexp(t, t.long())", "t.ldexp(t)", "m.ldexp(t.long(), t.long())",
    "t.clone().ldexp_(t.long())", "m.ldexp(t, t, out=m.empty(0, dtype=m.float64))", "t.long().ldexp_(t.long())",
    "t.ldexp()", "m.ldexp(t, 2)", "m.frexp(t, out=(m.empty(0), m.empty(0, dtype=m.int32)))",
    "m.frexp(t, out=(m.empty(0, dtype=m.float64), m.empty(0, dtype=m.int32)))",
    "m.frexp(t, out=(m.empty(0), m.empty(0, dtype=m.long)))", "repr(m.frexp(t[:2], out=(m.empty(2), m.empty(2).int())))",
    "m.frexp(t, out=(m.empty(0),))", "m.frexp(t, out=())", "m.frexp(t, out=[m.empty(0), m.empty(0).int(), m.empty(0)])",
    "m.frexp(t, out=(m.empty(0), 5))", "m.frexp(t, out=m.empty(0))", "m.histogram(t, 3, out=(m.empty(3),))",
])
def test_frexp_ldexp(call):
    x = np.concatenate([values(rng(19), (10,), "float32", -100, 100),
                        np.array([0.0, -0.0, 1.0, 0.5, 3.0, 1e-40, -1e-45, 3e38], dtype=np.float32),
                        specials("float32")[:4]])
    if call in ("m.frexp(t)", "t.frexp()", "m.frexp(t.double())", "m.frexp(t.half())", "m.frexp(t.bfloat16())"):
        # the (mantissa, exponent) pair, each compared
        run_both(lambda m, t: eval(call)[0].float(), [x], "cpu")
        run_both(lambda m, t: eval(call)[1], [x], "cpu")
        assert eval(call, {"m": mt, "t": mt.tensor(x)})[0].dtype == eval(call, {"m": mt, "t": mt.tensor(x)[:1]})[0].dtype
        return
    if "out=(m.empty(0), m.empty(0, dtype=m.int32))" in call:
        run_both(lambda m, t: eval(call)[0], [x], "cpu")
        run_both(lambda m, t: eval(call)[1], [x], "cpu")
        return
    if call.startswith(("repr", "type")):
        want = eval(call, {"m": torch, "t": torch.from_numpy(x)})
        assert eval(call, {"m": mt, "t": mt.tensor(x)}) == want.replace("torch.", "minitorch.")
        return
    if "ldexp" in call:
        x = x[:15]      # (the integer conversion of inf, NaN and huge floats is undefined)
    run_both(lambda m, t: eval(call), [x], "cpu")


def test_frexp_every_float64_kind():
    x = np.concatenate([rng(23).standard_normal(1000) * 10.0 ** rng(23).integers(-300, 300, 1000),
                        np.array([5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 2.0 ** -1074])])
    run_both(lambda m, t: m.frexp(t)[0], [x], "cpu")
    run_both(lambda m, t: m.frexp(t)[1], [x], "cpu")


def test_frexp_device(device):
    x = values(rng(29), (4, 5), "float32", -50, 50)
    run_both(lambda m, t: m.frexp(t)[0], [x], device)
    run_both(lambda m, t: m.frexp(t)[1], [x], device)
    run_both(lambda m, t: m.ldexp(t, t.long()), [x / 10], device)


# ---- random fills on torch's CPU generator --------------------------------------------------------------

from parity import compare  # noqa: E402


@pytest.mark.parametrize("seed", [0, 3])
def test_random_fills_match_torch(seed):
    compare(f"""
import torch
torch.manual_seed({seed})
print(torch.empty(20).geometric_(0.3))
print(torch.empty(5, dtype=torch.long).geometric_(0.01))
print(torch.empty(3, 7).t().geometric_(0.6))
print(torch.empty(20, dtype=torch.float64).log_normal_().tolist())
print(torch.empty(3).log_normal_(0.5, 0.25).tolist())
print(torch.randn(2).tolist())
print(torch.empty(4, 5).t().log_normal_().tolist())
print(torch.empty(7, dtype=torch.half).log_normal_())
print(torch.empty(33).cauchy_().tolist())
print(torch.empty(33, dtype=torch.float64).cauchy_(1.5, 0.3).tolist())
print(torch.empty(5, 4).t().cauchy_().tolist())
print(torch.randint_like(torch.empty(3, 4), 10))
r = torch.randint_like(torch.empty(3, 4).t(), -5, 10)
print(r, r.stride())
print(torch.randint_like(torch.empty(3, 4, dtype=torch.long), 100, dtype=torch.int16))
print(torch.randint_like(torch.empty(30), torch.tensor(7)))
print(torch.randint_like(torch.empty(3), 3, requires_grad=True))
print(torch.randn(3).tolist())
g = torch.Generator().manual_seed(5)
print(torch.empty(6).cauchy_(generator=g).tolist())
print(torch.randint_like(torch.empty(6), 0, 9, generator=g))
""")


def test_random_fill_errors_and_nodes():
    compare("""
import torch
torch.ones(2).geometric_(1.5)
torch.ones(2).geometric_(0)
torch.ones(2).geometric_('x')
torch.ones(2).log_normal_(0, 0)
torch.ones(2).log_normal_(0, -1)
torch.ones(2).cauchy_(0, 0)
torch.ones(2, dtype=torch.long).log_normal_()
torch.ones(2, dtype=torch.long).cauchy_()
torch.ones(2, dtype=torch.bool).geometric_(0.5)
torch.randint_like(torch.ones(2), 5, 3)
torch.randint_like('x')
x = torch.ones(3, requires_grad=True).clone()
print(x.geometric_(0.3).grad_fn.name(), x.log_normal_().grad_fn.name(), x.cauchy_().grad_fn.name())
x.sum().backward()
torch.ones(2, requires_grad=True).cauchy_()
""")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("call", ["m.special.ndtri(t)", "m.special.log_ndtr(t)", "m.special.erfcx(t)",
                                  "m.special.zeta(t, t)", "m.special.zeta(t, 2.0)", "m.special.zeta(t, t.float())",
                                  "m.i0(t)", "m.special.i1e(t)", "m.polygamma(1, t)", "m.polygamma(3, t.abs() + 1)"])
def test_16_bit_floats(device, call, dtype):
    """torch has no 16-bit kernel for ndtri, log_ndtr, erfcx and zeta (its dispatch error); the others compute
    in float32, rounded once (polygamma's zeta accumulates in double where torch's does in float: values
    near its poles may differ in the last bit)."""
    x = values(rng(37), (5, 7), "float32", 0.05, 0.95)
    tts = torch.from_numpy(x).to(getattr(torch, dtype))
    mts = to_mt(x, device).to(getattr(mt, dtype))
    try:
        want = eval(call, {"m": torch, "t": tts})
    except NotImplementedError as e:
        with pytest.raises(NotImplementedError) as got:
            eval(call, {"m": mt, "t": mts})
        assert str(got.value) == (str(e) if device == "cpu" else str(e).replace("_cpu", "_cuda"))
        return
    got = eval(call, {"m": mt, "t": mts})
    assert_same(got.float(), want.float(), 0 if device == "cpu" else DEVICE_ULPS)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16_bit_entr_and_xlog1py_round_the_log_as_torch(dtype):
    """torch's CPU kernels take the log of a float16 or bfloat16 in that dtype (c10's std::log and std::log1p
    return one) before the product: every bit pattern of entr, random pairs of xlog1py (with a number on
    either side, and out= of float32), bit for bit."""
    every = np.arange(-32768, 32768, dtype=np.int16)
    y = rng(41).integers(-32768, 32768, every.size).astype(np.int16)

    def bits(m, t):
        nan = t.isnan().numpy()
        return nan, np.where(nan, 0, t.view(m.int16).numpy() if t.dtype != m.float32 else t.numpy().view(np.int32))

    results = {}
    for m in (torch, mt):
        x16, y16 = (m.from_numpy(a.copy()).view(getattr(m, dtype)) for a in (every, y))
        out = m.empty(every.size)
        calls = [m.special.entr(x16), m.special.xlog1py(x16, y16), m.special.xlog1py(x16, 2.5),
                 m.special.xlog1py(0.75, y16), m.special.xlog1py(x16, y16, out=out)]
        results[m] = [bits(m, c) for c in calls]
    for (want_nan, want), (got_nan, got) in zip(results[torch], results[mt]):
        np.testing.assert_array_equal(got_nan, want_nan)
        np.testing.assert_array_equal(got, want)
