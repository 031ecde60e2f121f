"""torch's element-wise math ops beyond issue 16's, against torch 2.13: rsub; hypot, logaddexp, logaddexp2,
xlogy, copysign, fmax, fmin and float_power; deg2rad, rad2deg, sinc, logit (eps=), lgamma, digamma, signbit
and positive; heaviside, nextafter, gcd and lcm. Each op runs through its module function, Tensor method,
in-place forms and out= on random values with odd shapes, broadcasting, non-contiguous views, 0-d and empty
tensors and the special values (nan, +-inf, -0.0, huge and tiny numbers), in every pair of dtypes (integer
inputs promote to the default float dtype where torch's op does; torch's "not implemented" error where it
has no kernel), on the CPU and on the CUDA device when there is one (`device` fixture: the simulated GPU,
or the emulated-CUDA build). Values must be torch's: bit for bit for the exact ops (copysign, fmax, fmin,
rsub, deg2rad, sinc, digamma, heaviside, nextafter, gcd, ...), within ULPS[op] units in the last place for
the others (torch's x86 build computes some with SLEEF where minitorch uses the C library). Gradients must
have torch's node names and values, and double backward runs through minitorch's own ops. The tests skip
without torch."""

import os
import sys

import numpy as np
import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from test_math_ops import DTYPES, FLOATS, assert_same, rng, run_both, specials, to_mt, values  # noqa: E402

torch = pytest.importorskip("torch")

# two-operand ops and how far from torch's values each may be. logaddexp and logaddexp2 are torch's bits on
# the CPU (EXACT_ON_CPU: SLEEF's functions where torch's vector loop takes them); the CUDA device keeps CUDA's
# exp and log1p, max(x, y) plus a log1p term: where the two cancel (a result near 0) the last bits of the
# terms are most of the result's, so their ulps are counted at the scale of 1 (ABSOLUTE); so are lgamma's on
# a CUDA device, whose lgamma is CUDA's (on the CPU it is torch's SLEEF lgamma, bit for bit)
BINARY_ULPS = {"hypot": 1, "logaddexp": 2, "logaddexp2": 2, "xlogy": 1, "copysign": 0, "fmax": 0, "fmin": 0}
ABSOLUTE = {"logaddexp", "logaddexp2", "lgamma"}
EXACT_ON_CPU = {"logaddexp", "logaddexp2"}
BINARY = sorted(BINARY_ULPS)
# the forms torch has for each (a Tensor method always)
INPLACE = {"hypot", "xlogy", "copysign"}
NUMBER_OTHER = {"xlogy", "copysign"}           # op(tensor, number)
NUMBER_SELF = {"xlogy"}                        # op(number, tensor)
HALF = ["float16", "bfloat16"]


def half(m, t, dtype):
    return t.to(getattr(m, dtype))


def compare(op, fn, arrays, device, ulps=None, reduced=None):
    """run_both for `op` within its ulps; for the ops in ABSOLUTE the ulps of max(|value|, 1), and with
    `reduced` (float16, bfloat16: results compared as float32, which holds them) the ulps of that dtype."""
    ulps = BINARY_ULPS[op] if ulps is None else ulps
    if device == "cpu" and op in EXACT_ON_CPU:
        ulps = 0
    if op not in ABSOLUTE and reduced is None:
        run_both(fn, arrays, device, ulps)
        return
    tts = [torch.from_numpy(np.array(a)) for a in arrays]
    try:
        want = fn(torch, *tts)
    except Exception:
        run_both(fn, arrays, device)
        return
    got = fn(mt, *[to_mt(a, device) for a in arrays])
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert tuple(got.shape) == tuple(want.shape)
    w = want.double().numpy()
    g = np.array(got.double().cpu().tolist()).reshape(w.shape)
    assert np.array_equal(np.isnan(g), np.isnan(w))
    finite = np.isfinite(w)
    np.testing.assert_array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)])
    scale = np.abs(w[finite])
    if op in ABSOLUTE:
        scale = np.maximum(scale, 1.0)
    if reduced == "bfloat16":
        spacing = np.spacing(scale.astype(np.float32)).astype(np.float64) * 65536
    else:
        spacing = np.spacing(scale.astype(reduced or str(want.dtype).split(".")[1])).astype(np.float64)
    assert np.all(np.abs(g[finite] - w[finite]) <= ulps * spacing), (g[finite], w[finite])


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_binary_values(device, op, a, b):
    r = rng(11)
    x = values(r, (6, 5), a, -20, 20)
    y = values(r, (5,), b, -6, 6)
    if op == "xlogy" and b not in ("bool",):
        y = np.abs(y)       # log of a negative number: NaN on both, but a few more finite values here
    compare(op, lambda m, s, t: getattr(m, op)(s, t), [x, y], device)
    # a method on non-contiguous, broadcast views
    compare(op, lambda m, s, t: getattr(s.t(), op)(t[:, None]), [x, y], device)
    # 0-d and empty operands
    compare(op, lambda m, s, t: getattr(m, op)(s[0, 0], t), [x, y], device)
    compare(op, lambda m, s, t: getattr(m, op)(s[:0], t), [x, y], device)
    if op in INPLACE:
        def inplace(m, s, t):
            s = s.clone()
            assert getattr(s, op + "_")(t) is s
            return s

        compare(op, inplace, [x, y], device)
    if op in NUMBER_OTHER:
        compare(op, lambda m, s, t: getattr(m, op)(s, 2.5), [x, y], device)
        compare(op, lambda m, s, t: getattr(m, op)(s, -3), [x, y], device)
        compare(op, lambda m, s, t: getattr(s, op)(True), [x, y], device)
    if op in NUMBER_SELF:
        compare(op, lambda m, s, t: getattr(m, op)(3, t), [x, y], device)
        compare(op, lambda m, s, t: getattr(m, op)(0.5, t), [x, y], device)


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_specials(device, op, dtype):
    s = specials(dtype)
    x = np.repeat(s, len(s))
    y = np.tile(s, len(s))
    compare(op, lambda m, a, b: getattr(m, op)(a, b), [x, y], device)


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("dtype", HALF)
def test_binary_reduced_floats(device, op, dtype):
    r = rng(12)
    x = values(r, (7, 3), "float32", -8, 8)
    y = values(r, (3,), "float32", 0.5, 8)
    # within 1 ulp of the 16-bit dtype: torch's 16-bit loops round some intermediate results to it
    compare(op, lambda m, s, t: getattr(m, op)(half(m, s, dtype), half(m, t, dtype)).float(), [x, y], device, 1,
            dtype)
    compare(op, lambda m, s, t: getattr(m, op)(half(m, s, dtype), t).float(), [x, y], device, 1, dtype)


@pytest.mark.parametrize("op", BINARY)
def test_binary_out(device, op):
    r = rng(13)
    x = values(r, (4, 3), "float32")
    y = np.abs(values(r, (3,), "float32")) + 0.5
    for out_dtype in ("float32", "float64", "int64"):
        def with_out(m, s, t):
            out = m.empty(0, dtype=getattr(m, out_dtype), device=s.device)
            r = getattr(m, op)(s, t, out=out)
            assert r is out
            return out

        compare(op, with_out, [x, y], device)


# ---- logaddexp and logaddexp2 on the host: torch's bits ----------------------------------------------

# where each op's result is near 0 (max(x, y) and the log1p term cancel), the values that need every bit
NEAR_ZERO = {"logaddexp": -np.log(2.0), "logaddexp2": -1.0}


def _pair(r, n, op, dtype, spread):
    return [(NEAR_ZERO[op] + r.standard_normal(n) * spread).astype(dtype) for _ in range(2)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("op", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_logaddexp_bits(op, dtype, threads):
    """logaddexp and logaddexp2 on the host are torch's bit for bit: SLEEF's exp (exp2) and log1p on the
    whole pairs of vectors of each contiguous run of a thread's range, the C library's on the rest (every
    length to 100 and past the ranges of two threads), strided operands element by element; near a result of
    0, on random values and the special values."""
    r = rng(31)
    before = mt.get_num_threads(), torch.get_num_threads()
    mt.set_num_threads(threads)
    torch.set_num_threads(threads)
    fn = lambda m, s, t: getattr(m, op)(s, t)  # noqa: E731
    try:
        for n in list(range(1, 101)) + [32768, 32769, 65539, 200003]:
            run_both(fn, _pair(r, n, op, dtype, 1e-2), "cpu")
        run_both(fn, [(r.standard_normal(5000) * 30).astype(dtype) for _ in range(2)], "cpu")
        s = np.array(list(specials(dtype)) + [88.0, -104.0, 709.78, -745.2, -1000.0, 150.0, -150.0], dtype=dtype)
        run_both(fn, [np.repeat(s, len(s)), np.tile(s, len(s))], "cpu")
        x, y = _pair(r, 300 * 257, op, dtype, 1e-2)
        x = x.reshape(300, 257)
        y = y[:257]
        run_both(lambda m, s, t: getattr(m, op)(s[:, :100], t[:100]), [x, y], "cpu")     # rows, each a run
        run_both(lambda m, s, t: getattr(s.t(), op)(t[:, None]), [x, y], "cpu")          # strided
        run_both(lambda m, s, t: getattr(m, op)(s, t[3]), [x, y], "cpu")                 # a broadcast number
        run_both(lambda m, s, t: getattr(m, op)(t[:1], s), [x, y], "cpu")
        run_both(lambda m, s, t: getattr(m, op)(s[:1, :1].expand(300, 257), t[:1].expand(300, 257)), [x, y],
                 "cpu")

        def with_out(m, s, t):
            out = m.empty(0, dtype=s.dtype)
            assert getattr(m, op)(s[::2], t, out=out) is out
            return out

        run_both(with_out, [x, y], "cpu")
    finally:
        mt.set_num_threads(before[0])
        torch.set_num_threads(before[1])


@pytest.mark.parametrize("op", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", HALF)
def test_logaddexp_reduced_bits(op, dtype):
    """float16 and bfloat16 operands: torch's kernel for them computes in float, SLEEF's functions on whole
    vectors of the 16-bit dtype, and rounds; minitorch's values are its bit for bit."""
    r = rng(32)
    fn = lambda m, s, t: getattr(m, op)(half(m, s, dtype), half(m, t, dtype)).float()  # noqa: E731
    for n in list(range(1, 140)) + [40000]:
        run_both(fn, _pair(r, n, op, "float32", 3.0), "cpu")
    x, y = _pair(r, 64 * 65, op, "float32", 1e-2)
    x = x.reshape(64, 65)
    run_both(lambda m, s, t: getattr(m, op)(half(m, s, dtype).t(), half(m, t[:64], dtype)).float(), [x, y],
             "cpu")

    def with_out(m, s, t):
        out = m.empty(0)
        return getattr(m, op)(half(m, s, dtype), half(m, t[:65], dtype), out=out)

    run_both(with_out, [x, y], "cpu")


LOGADDEXP_UNDER_CAPABILITY = """
import numpy as np, torch, minitorch
r = np.random.default_rng(2)
for n in (5, 16, 17, 31, 32, 33, 64, 65, 100, 40000, 100001):
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for op, shift in (("logaddexp", -np.log(2.0)), ("logaddexp2", -1.0)):
            x, y = ((shift + r.standard_normal(n) * 1e-2).astype("float32") for _ in range(2))
            got = getattr(minitorch, op)(minitorch.from_numpy(x).to(getattr(minitorch, dtype)),
                                         minitorch.from_numpy(y).to(getattr(minitorch, dtype))).float().numpy()
            want = getattr(torch, op)(torch.from_numpy(x).to(getattr(torch, dtype)),
                                      torch.from_numpy(y).to(getattr(torch, dtype))).float().numpy()
            assert (got == want).all(), (n, dtype, op)
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_logaddexp_bits_under_each_capability(capability):
    """ATEN_CPU_CAPABILITY moves torch's logaddexp to its AVX2 vectors (whose kernels fuse logaddexp2's last
    multiply-add) or to the C library alone (no fused step); minitorch follows it, so the bits stay torch's."""
    import subprocess

    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", LOGADDEXP_UNDER_CAPABILITY], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == capability.upper()


@pytest.mark.parametrize("call", [
    "m.hypot(s.long(), t.long())", "m.logaddexp(s.int(), t.long())", "m.logaddexp2(s > 0, t > 0)",
    "m.hypot(s, t[:2])", "s.long().xlogy_(t)", "s.long().copysign_(t)", "m.hypot(s, 2)", "m.fmax(s, 2)",
    "m.logaddexp(2, s)", "m.copysign(2, s)", "s.fmax_(t)", "s.int().hypot_(t)",
    "m.hypot(s[:0].long(), t[:0].long())", "m.fmin(s, t[:2])",
])
def test_binary_errors(device, call):
    r = rng(14)
    x = values(r, (3, 3), "float32")
    y = values(r, (3,), "float32")
    run_both(lambda m, s, t: eval(call), [x, y], device)


# ---- rsub ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_rsub(device, a, b):
    r = rng(15)
    x = values(r, (5, 4), a)
    y = values(r, (4,), b)
    run_both(lambda m, s, t: m.rsub(s, t), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s.t(), t[:, None], alpha=2), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, t, alpha=True), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, t, alpha=0.5), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, 3), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, 2.5, alpha=-2), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, 2.5, 3), [x, y], device)
    run_both(lambda m, s, t: m.rsub(s, t[0]), [x, y], device)


@pytest.mark.parametrize("call", [
    "m.rsub(s, t, out=s)", "m.rsub(2, s)", "m.rsub(s, t[:2])", "m.rsub(s, t, alpha=1j)",
    "s.rsub(t)",
])
def test_rsub_errors(call):
    r = rng(16)
    x = values(r, (3, 3), "float32")
    y = values(r, (3,), "float32")
    run_both(lambda m, s, t: eval(call), [x, y], "cpu")


# ---- float_power ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_float_power(device, a, b):
    r = rng(17)
    x = values(r, (5, 3), a, 0.1, 4)
    y = values(r, (3,), b, -3, 3)
    if b in ("int32", "int64"):
        y = np.clip(y, -3, 3)
    run_both(lambda m, s, t: m.float_power(s, t), [x, y], device, 1)
    run_both(lambda m, s, t: s.t().float_power(t[:, None]), [x, y], device, 1)
    run_both(lambda m, s, t: m.float_power(s, 2), [x, y], device, 1)
    run_both(lambda m, s, t: m.float_power(s, -1.5), [x, y], device, 1)
    run_both(lambda m, s, t: m.float_power(2, t), [x, y], device, 1)
    run_both(lambda m, s, t: m.float_power(s, t, out=m.empty(0, dtype=m.float64, device=s.device)), [x, y], device, 1)

    def inplace(m, s, t):
        s = s.double()
        assert s.float_power_(t) is s
        return s

    run_both(inplace, [x, y], device, 1)


@pytest.mark.parametrize("call", [
    "s.float_power_(t)", "s.float_power_(2)", "m.float_power(s, t, out=s)", "m.float_power(s, t[:2])",
])
def test_float_power_errors(call):
    r = rng(18)
    x = values(r, (3, 3), "float32")
    y = values(r, (3,), "float32")
    run_both(lambda m, s, t: eval(call), [x, y], "cpu")


# ---- autograd ------------------------------------------------------------------------------------------

GRAD_CALLS = [
    ("rsub", "m.rsub(a, b, alpha=2)"), ("rsub_number", "m.rsub(a, 3, alpha=0.5)"), ("rsub_plain", "m.rsub(a, b)"),
    ("hypot", "m.hypot(a, b)"), ("logaddexp", "m.logaddexp(a, b)"), ("logaddexp2", "m.logaddexp2(a, b)"),
    ("xlogy", "m.xlogy(a, b.abs())"), ("xlogy_number_self", "m.xlogy(2.5, b.abs())"),
    ("xlogy_number_other", "m.xlogy(a, 3)"), ("copysign", "m.copysign(a, b)"), ("copysign_number", "a.copysign(-2)"),
    ("fmax", "m.fmax(a, b)"), ("fmin", "m.fmin(a, b)"), ("float_power", "m.float_power(a, b)"),
    ("float_power_number", "m.float_power(a.abs(), 1.5)"), ("float_power_number_self", "m.float_power(2, b)"),
]


def _names(m, fn):
    """The node names down the graph of fn's result (a breadth-first walk)."""
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
    r = rng(19)
    x = values(r, (4, 3), dtype, -3, 3)
    y = values(r, (3,), dtype, -3, 3)
    x[0, 0] = 0.0           # copysign's and xlogy's zero cases
    y[1] = x[1, 1]          # fmax's and fmin's ties
    results = {}
    for m in (torch, mt):
        a = to_mt(x, device) if m is mt else torch.from_numpy(x.copy())
        b = to_mt(y, device) if m is mt else torch.from_numpy(y.copy())
        a.requires_grad_()
        b.requires_grad_()
        out = eval(call)
        grads = m.autograd.grad(out, (a, b), m.ones_like(out), create_graph=True, allow_unused=True)
        second = [m.autograd.grad(g.sum(), (a, b), retain_graph=True, allow_unused=True)
                  if g is not None and g.requires_grad else None for g in grads]
        results[m] = (out, _names(m, out.grad_fn), grads, second)
    (want, want_names, want_grads, want_second), (got, got_names, got_grads, got_second) = results[torch], results[mt]
    assert got_names == want_names
    if name in ABSOLUTE:
        # (the ulps of max(|value|, 1), as test_binary_values)
        np.testing.assert_allclose(np.array(got.detach().cpu().tolist()), want.detach().numpy(), rtol=0,
                                   atol=2 * np.finfo(dtype).eps * max(1.0, float(want.detach().abs().max())))
    else:
        assert_same(got.detach(), want.detach(), 1)
    for g, w in zip(got_grads, want_grads):
        assert (g is None) == (w is None)
        if w is not None:
            assert_same(g.detach(), w.detach(), 2)
    for gs, ws in zip(got_second, want_second):
        assert (gs is None) == (ws is None)
        if ws is None:
            continue
        for g, w in zip(gs, ws):
            assert (g is None) == (w is None)
            if w is not None:
                assert_same(g, w, 4)


@pytest.mark.parametrize("op", sorted(INPLACE))
def test_inplace_grads(device, op):
    r = rng(20)
    x = values(r, (3, 4), "float64", 0.5, 3)
    y = values(r, (4,), "float64", 0.5, 3)
    results = {}
    for m in (torch, mt):
        a = to_mt(x, device) if m is mt else torch.from_numpy(x.copy())
        b = to_mt(y, device) if m is mt else torch.from_numpy(y.copy())
        a.requires_grad_()
        b.requires_grad_()
        c = a * 1
        getattr(c, op + "_")(b)
        c.sum().backward()
        results[m] = (type(c.grad_fn).__name__, a.grad, b.grad)
    assert results[mt][0] == results[torch][0]
    assert_same(results[mt][1], results[torch][1], 2)
    assert_same(results[mt][2], results[torch][2], 2)


def test_forms_exist():
    for op in BINARY + ["float_power"]:
        assert hasattr(mt, op) and hasattr(mt.Tensor, op)
    for op in sorted(INPLACE) + ["float_power"]:
        assert hasattr(mt.Tensor, op + "_")
    assert hasattr(mt, "rsub") and not hasattr(mt.Tensor, "rsub")
    assert hasattr(mt, "xlogy_")
    assert not hasattr(mt.Tensor, "logaddexp_") and not hasattr(mt.Tensor, "fmax_")


# ---- unary functions: deg2rad, rad2deg, sinc, logit, lgamma, digamma, signbit, positive ---------------

UNARY_ULPS = {"deg2rad": 0, "rad2deg": 0, "sinc": 0, "logit": 1, "lgamma": 4, "digamma": 0, "signbit": 0}
UNARY = sorted(UNARY_ULPS)
UNARY_INPLACE = {"deg2rad", "rad2deg", "sinc", "logit", "lgamma", "digamma"}
UNARY_DOMAIN = {"logit": (-0.2, 1.2)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_unary_values(device, op, dtype):
    r = rng(21)
    x = values(r, (7, 5), dtype, *UNARY_DOMAIN.get(op, (-10, 10)))
    ulps = 0 if op == "lgamma" and device == "cpu" else UNARY_ULPS[op]
    compare(op, lambda m, t: getattr(m, op)(t), [x], device, ulps)
    compare(op, lambda m, t: getattr(t.t(), op)(), [x], device, ulps)
    compare(op, lambda m, t: getattr(m, op)(t[0, 0]), [x], device, ulps)
    compare(op, lambda m, t: getattr(m, op)(t[:0]), [x], device, ulps)
    if op in UNARY_INPLACE:
        def inplace(m, t):
            t = t.clone()
            assert getattr(t, op + "_")() is t
            return t

        compare(op, inplace, [x], device, ulps)
    for out_dtype in ("float32", "float64", "bool"):
        def with_out(m, t):
            out = m.empty(0, dtype=getattr(m, out_dtype), device=t.device)
            assert getattr(m, op)(t, out=out) is out
            # (compared in the op's own dtype, where the ulps are counted)
            return out.to(getattr(m, op)(t).dtype)

        compare(op, with_out, [x], device, ulps)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", UNARY)
def test_unary_specials(device, op, dtype):
    x = np.concatenate([specials(dtype), np.array([-3.0, -2.5, -1e-8, 1e-8, 0.25, 0.75, 10.0, 1e17, -1e17, 11.5],
                                                  dtype=dtype)])
    compare(op, lambda m, t: getattr(m, op)(t), [x], device, UNARY_ULPS[op])


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", HALF)
def test_unary_reduced_floats(device, op, dtype):
    x = values(rng(22), (3, 7), "float32", *UNARY_DOMAIN.get(op, (-6, 6)))
    x[0, :3] = [0.0, -0.0, 0.5]
    # torch's 16-bit loops round each step to the dtype (logit's 1 - x, x / (1 - x), the log), where minitorch
    # rounds once: 2 ulps of it, 8 for logit (whose x / (1 - x) the rounding of 1 - x near 1 magnifies)
    ulps = 8 if op == "logit" else max(2, UNARY_ULPS[op])
    compare(op, lambda m, t: getattr(m, op)(half(m, t, dtype)).float(), [x], device, ulps, dtype)


@pytest.mark.parametrize("eps", [0.0, 1e-6, 0.2, 0.5, 0.7])
@pytest.mark.parametrize("dtype", DTYPES)
def test_logit_eps(device, dtype, eps):
    x = values(rng(23), (4, 6), dtype, -0.3, 1.3)
    run_both(lambda m, t: m.logit(t, eps), [x], device, 1)
    run_both(lambda m, t: t.t().logit(eps=eps), [x], device, 1)
    run_both(lambda m, t: m.logit(t, eps, out=m.empty(0, device=t.device)), [x], device, 1)

    def inplace(m, t):
        t = t.clone()
        assert t.logit_(eps) is t
        return t

    run_both(inplace, [x], device, 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_positive(device, dtype):
    x = values(rng(24), (3, 4), dtype)
    run_both(lambda m, t: m.positive(t) * 1, [x], device)
    run_both(lambda m, t: (+t) * 1, [x], device)
    t = to_mt(x, device)
    if dtype != "bool":
        assert mt.positive(t) is t and t.positive() is t and +t is t


@pytest.mark.parametrize("call", [
    "m.deg2rad_(t.long())", "t.long().sinc_()", "t.long().logit_(0.1)", "m.signbit(t, out=t)",
    "m.positive(t > 0)", "+(t > 0)", "t.positive(1)", "m.logit(t, 'a')", "m.lgamma(t, out=t.long())",
])
def test_unary_errors(device, call):
    x = values(rng(25), (3, 3), "float32")
    run_both(lambda m, t: eval(call), [x], device)


# ---- heaviside, nextafter, gcd, lcm ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_heaviside(device, dtype):
    r = rng(26)
    x = values(r, (5, 4), dtype, -3, 3).round() if dtype in FLOATS else values(r, (5, 4), dtype, -3, 3)
    y = values(r, (4,), dtype)
    if dtype in FLOATS:
        x[0, :2] = [np.nan, -0.0]
    run_both(lambda m, s, t: m.heaviside(s, t), [x, y], device)
    run_both(lambda m, s, t: s.t().heaviside(t[:, None]), [x, y], device)
    run_both(lambda m, s, t: s.clone().heaviside_(t), [x, y], device)
    run_both(lambda m, s, t: m.heaviside(s, t, out=m.empty(0, dtype=s.dtype, device=s.device)), [x, y], device)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nextafter(device, dtype):
    r = rng(27)
    x = values(r, (5, 4), dtype)
    y = values(r, (4,), dtype)
    run_both(lambda m, s, t: m.nextafter(s, t), [x, y], device)
    run_both(lambda m, s, t: s.t().nextafter(t[:, None]), [x, y], device)
    run_both(lambda m, s, t: s.clone().nextafter_(t), [x, y], device)
    if dtype in FLOATS:
        s = specials(dtype)
        run_both(lambda m, a, b: m.nextafter(a, b), [np.repeat(s, len(s)), np.tile(s, len(s))], device)


@pytest.mark.parametrize("op", ["gcd", "lcm"])
@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_gcd_lcm(device, op, a, b):
    r = rng(28)
    x = values(r, (6, 5), a)
    y = values(r, (5,), b)
    run_both(lambda m, s, t: getattr(m, op)(s, t), [x, y], device)
    run_both(lambda m, s, t: getattr(s.t(), op)(t[:, None]), [x, y], device)
    run_both(lambda m, s, t: getattr(s.clone(), op + "_")(t), [x, y], device)
    run_both(lambda m, s, t: getattr(m, op + "_")(s.clone(), t), [x, y], device)


@pytest.mark.parametrize("call", [
    "m.heaviside(s, t.double())", "m.heaviside(s, 1)", "s.heaviside_(t.double())", "m.nextafter(s.long(), t.long())",
    "m.gcd(s, t)", "m.lcm(s > 0, t > 0)", "m.gcd(s.long(), t)", "m.gcd(s.long(), 2)",
    "m.heaviside(s, t, out=m.empty(0, dtype=m.float64))", "m.gcd(s.int(), t.int(), out=m.empty(0))",
])
def test_binary_more_errors(call):
    x = values(rng(29), (3, 3), "float32")
    y = values(rng(30), (3,), "float32")
    run_both(lambda m, s, t: eval(call), [x, y], "cpu")


UNARY_GRAD_CALLS = [
    ("deg2rad", "m.deg2rad(a)"), ("rad2deg", "a.rad2deg()"), ("sinc", "m.sinc(a)"), ("lgamma", "m.lgamma(a)"),
    ("digamma", "m.digamma(a)"), ("logit", "m.logit(a)"), ("logit_eps", "m.logit(a, eps=0.2)"),
    ("logit_eps_zero", "a.logit(0.0)"), ("positive", "m.positive(a) * 2"), ("nextafter", "m.nextafter(a, b)"),
    ("heaviside", "m.heaviside(a, b)"),
]
# (every op's double backward is compared: digamma's runs through polygamma(2, x))
FIRST_ORDER_ONLY = set()


@pytest.mark.parametrize("name,call", UNARY_GRAD_CALLS, ids=[c[0] for c in UNARY_GRAD_CALLS])
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_grads(device, name, call, dtype):
    r = rng(31)
    x = values(r, (4, 3), dtype, -0.5, 1.5) if name.startswith("logit") else values(r, (4, 3), dtype, -3, 3)
    y = x[0].copy()
    x[0, 0] = 0.0
    if name.startswith("logit"):
        x[1, :3] = [0.0, 1.0, 0.2]
    results = {}
    for m in (torch, mt):
        a = to_mt(x, device) if m is mt else torch.from_numpy(x.copy())
        b = to_mt(y, device) if m is mt else torch.from_numpy(y.copy())
        a.requires_grad_()
        out = eval(call)
        try:
            grads = m.autograd.grad(out, (a,), m.ones_like(out), create_graph=name not in FIRST_ORDER_ONLY)
        except RuntimeError as e:
            results[m] = (type(out.grad_fn).__name__, str(e))
            continue
        g = grads[0]
        second = (m.autograd.grad(g.sum(), (a,), allow_unused=True)[0]
                  if g.requires_grad and name not in FIRST_ORDER_ONLY else None)
        results[m] = (type(out.grad_fn).__name__, out, g, second)
    want, got = results[torch], results[mt]
    assert got[0] == want[0]
    if len(want) == 2:
        assert len(got) == 2 and got[1] == want[1]
        return
    assert_same(got[1].detach(), want[1].detach(), 2)
    assert_same(got[2].detach(), want[2].detach(), 4)
    assert (got[3] is None) == (want[3] is None)
    if want[3] is not None:
        assert_same(got[3], want[3], 8)


def test_more_forms_exist():
    for op in UNARY + ["heaviside", "nextafter", "gcd", "lcm", "positive"]:
        assert hasattr(mt, op) and hasattr(mt.Tensor, op)
    for op in sorted(UNARY_INPLACE) + ["heaviside", "nextafter", "gcd", "lcm"]:
        assert hasattr(mt.Tensor, op + "_")
    for op in ("deg2rad_", "rad2deg_", "sinc_", "logit_", "gcd_", "lcm_"):
        assert hasattr(mt, op)
    assert not hasattr(mt, "lgamma_") and not hasattr(mt.Tensor, "signbit_")
