"""The elementwise math ops of issue 16 against torch 2.13: the unary float functions (sin ... erfinv),
the rounding ops (floor, ceil, trunc, frac, round with decimals=), sign/sgn and square; pow and its
operators; clamp/clip; floor_divide, remainder, fmod and atan2. Each op runs through its module
function, Tensor method and in-place forms on random values with odd shapes, non-contiguous views, 0-d
and empty tensors and the special values (nan, +-inf, -0.0, huge and tiny numbers), in every dtype,
on the CPU and on the CUDA device when there is one (`device` fixture: the simulated GPU, or the
emulated-CUDA build). Results must have torch's dtype and shape and torch's values: bit for bit for the
rounding ops, sign, square, reciprocal, rsqrt, pow with integer exponents, clamp and the division-based
ops; within ULPS[op] units in the last place for the transcendental functions, which torch's x86 build
computes with Intel MKL's VML and SLEEF where minitorch uses the C library (README, "Known
differences"). Errors must have torch's type and message. The tests skip without torch."""

import numpy as np
import pytest

import minitorch as mt
from parity import torch_sqrt_is_mkl_generic

torch = pytest.importorskip("torch")

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
FLOATS = ["float32", "float64"]

# ops computed exactly as torch computes them; the others are within ULPS[op] (see the module doc)
UNARY_EXACT = ["floor", "ceil", "trunc", "frac", "round", "sign", "sgn", "square", "reciprocal", "rsqrt",
               "fix", "abs", "neg", "relu"]
UNARY_ULPS = {"exp": 1, "log": 1, "sqrt": 1, "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1,
              "sinh": 1, "cosh": 1, "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "exp2": 1,
              # sigmoid: bit for bit on the host (test_sigmoid_bits); a CUDA device's exp is CUDA's
              "sigmoid": 2,
              "expm1": 1, "log2": 1, "log10": 1, "log1p": 1, "erf": 1, "erfc": 1, "erfinv": 1,
              "arcsin": 1, "arccos": 1, "arctan": 1, "arcsinh": 1, "arccosh": 1, "arctanh": 1}
UNARY = UNARY_EXACT + sorted(UNARY_ULPS)
# the domain random inputs are drawn from, where it is not (-10, 10)
DOMAIN = {"asin": (-1, 1), "acos": (-1, 1), "atanh": (-1, 1), "erfinv": (-1, 1), "arcsin": (-1, 1),
          "arccos": (-1, 1), "arctanh": (-1, 1), "acosh": (1, 50), "arccosh": (1, 50), "log": (0, 100),
          "sqrt": (0, 100), "log2": (0, 100), "log10": (0, 100), "log1p": (-1, 100), "rsqrt": (0, 100)}
SPECIAL = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0,
           1e30, -1e30, 1e-30, -1e-42, 3e38, 1e300, 88.7, -103.9, 710.0]


def rng(seed):
    return np.random.default_rng(seed)


def values(r, shape, dtype, lo=-10, hi=10):
    if dtype == "bool":
        return r.random(shape) < 0.5
    if dtype in ("int32", "int64"):
        return r.integers(-50, 50, shape).astype(dtype)
    return r.uniform(lo, hi, shape).astype(dtype)


def specials(dtype):
    with np.errstate(over="ignore"):
        return np.array(SPECIAL, dtype=dtype)


def to_mt(a, device):
    t = mt.tensor(np.asarray(a))
    return t if device == "cpu" else t.to(device)


def to_np(t):
    """A minitorch or torch tensor's values as a NumPy array of its dtype."""
    name = str(t.dtype).split(".")[1]
    if isinstance(t, torch.Tensor):
        return t.numpy()
    return np.array(t.cpu().tolist(), dtype=name).reshape(tuple(t.shape))


def assert_same(got, want, ulps=0):
    """got (minitorch) has want's (torch) dtype, shape and values: NaN where it has NaN, zeros of the same
    sign, infinities equal, and finite values at most `ulps` units in the last place apart."""
    assert str(got.dtype).split(".")[1] == str(want.dtype).split(".")[1]
    assert tuple(got.shape) == tuple(want.shape)
    g, w = to_np(got), to_np(want)
    if g.dtype.kind != "f":
        np.testing.assert_array_equal(g, w)
        return
    assert np.array_equal(np.isnan(g), np.isnan(w)), (g, w)
    ok = ~np.isnan(w)
    g, w = g[ok], w[ok]
    assert np.array_equal(np.signbit(g[w == 0]), np.signbit(w[w == 0])), "signed zeros differ"
    if ulps == 0:
        np.testing.assert_array_equal(g, w)
        return
    finite = np.isfinite(w)
    np.testing.assert_array_equal(g[~finite], w[~finite])
    diff = np.abs(g[finite].astype(np.float64) - w[finite].astype(np.float64))
    assert np.all(diff <= ulps * np.spacing(np.abs(w[finite])).astype(np.float64)), \
        "more than %d ulp apart: %s vs %s" % (ulps, g[finite][diff > 0][:5], w[finite][diff > 0][:5])


def assert_same_error(fn_mt, fn_torch, device="cpu"):
    """Both raise, with the same type and message (torch's CPU kernel names read _cuda on a CUDA device)."""
    with pytest.raises(Exception) as want:
        fn_torch()
    with pytest.raises(Exception) as got:
        fn_mt()
    message = str(want.value).replace("torch.", "minitorch.")
    if device != "cpu":
        message = message.replace("_vml_cpu", "_cuda").replace("_cpu", "_cuda").replace('"pow"', '"pow_cuda"')
    assert type(got.value).__name__ == type(want.value).__name__, (got.value, want.value)
    assert str(got.value) == message


def run_both(fn, arrays, device, ulps=0):
    """fn(module, *tensors) under minitorch and torch on the same values: same result or same error."""
    mts = [to_mt(a, device) for a in arrays]
    tts = [torch.from_numpy(np.array(a)) for a in arrays]
    try:
        want = fn(torch, *tts)
    except Exception:
        assert_same_error(lambda: fn(mt, *mts), lambda: fn(torch, *tts), device)
        return
    got = fn(mt, *mts)
    if device != "cpu":
        assert got.device.type == "cuda"
    assert_same(got, want, ulps)


# ---- unary ops --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_unary_values(device, op, dtype):
    r = rng(UNARY.index(op))
    ulps = UNARY_ULPS.get(op, 0)
    lo, hi = DOMAIN.get(op, (-10, 10))
    x = values(r, (7, 13), dtype, lo, hi)
    run_both(lambda m, t: getattr(m, op)(t), [x], device, ulps)
    # non-contiguous: a transposed and a sliced view
    run_both(lambda m, t: getattr(m, op)(t.t()), [x], device, ulps)
    run_both(lambda m, t: getattr(t[:, 1::3], op)(), [x], device, ulps)
    # 0-d and empty
    run_both(lambda m, t: getattr(m, op)(t), [x[2, 3]], device, ulps)
    run_both(lambda m, t: getattr(m, op)(t), [x[:0]], device, ulps)
    if dtype in FLOATS:
        run_both(lambda m, t: getattr(m, op)(t), [specials(dtype)], device, ulps)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", UNARY)
def test_unary_inplace(device, op, dtype):
    lo, hi = DOMAIN.get(op, (-10, 10))
    x = values(rng(1), (5, 3), dtype, lo, hi)
    ulps = UNARY_ULPS.get(op, 0)

    def method(m, t):
        t = t.clone()
        r = getattr(t, op + "_")()
        assert r is t
        return t

    run_both(method, [x], device, ulps)
    if hasattr(torch, op + "_"):
        def function(m, t):
            t = t.t().clone().t()
            getattr(m, op + "_")(t)
            return t

        run_both(function, [x], device, ulps)
    else:
        assert not hasattr(mt, op + "_")


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", FLOATS)
def test_sigmoid_bits(dtype, threads):
    """sigmoid on the host is torch's bit for bit: its vector exp on the whole vectors of each contiguous
    run of the range a thread takes, the C library's on the rest, for any length, layout and thread
    count (the ranges are torch's at::parallel_for's)."""
    r = rng(11)
    before = mt.get_num_threads(), torch.get_num_threads()
    mt.set_num_threads(threads)
    torch.set_num_threads(threads)
    try:
        for n in (1, 15, 16, 31, 32, 33, 64, 65, 1000, 32767, 32768, 32769, 65539, 200003):
            x = r.uniform(-30, 30, n).astype(dtype)
            run_both(lambda m, t: m.sigmoid(t), [x], "cpu")
        special = np.array(SPECIAL + [100.0, -104.0, -103.99, 709.78, 709.7827128933840, 709.7827128933841,
                                      -745.2, -1000.0, -1000.5, 3e-39] * 4, dtype=dtype)
        run_both(lambda m, t: m.sigmoid(t), [np.concatenate([special, -special])], "cpu")
        x = r.uniform(-30, 30, (300, 257)).astype(dtype)
        run_both(lambda m, t: m.sigmoid(t[:, :100]), [x], "cpu")          # rows, each its own run
        run_both(lambda m, t: m.sigmoid(t.t()), [x], "cpu")               # strided: the C library's exp
        run_both(lambda m, t: m.sigmoid(t[:1, :1].expand(300, 257)), [x], "cpu")
        run_both(lambda m, t: t.clone().sigmoid_(), [x], "cpu")
        run_both(lambda m, t: m.nn.functional.sigmoid(t[1:]), [x], "cpu")
    finally:
        mt.set_num_threads(before[0])
        torch.set_num_threads(before[1])


SIGMOID_UNDER_CAPABILITY = """
import numpy as np, torch, minitorch
r = np.random.default_rng(1)
for n in (5, 16, 17, 31, 32, 33, 100, 40000, 100001):
    for dtype in ("float32", "float64"):
        x = r.uniform(-30, 30, n).astype(dtype)
        got = minitorch.sigmoid(minitorch.from_numpy(x)).numpy()
        assert (got == torch.sigmoid(torch.from_numpy(x)).numpy()).all(), (n, dtype)
print(torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_sigmoid_bits_under_each_capability(capability):
    """ATEN_CPU_CAPABILITY moves torch's sigmoid to its AVX2 vectors or to the C library's exp alone; minitorch
    follows the same variable, so the bits stay torch's."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", SIGMOID_UNDER_CAPABILITY], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == capability.upper()


def test_unary_forms_exist():
    for op in UNARY:
        for name in (op, op + "_"):
            assert hasattr(mt, name) == hasattr(torch, name), name
            assert hasattr(mt.Tensor, name) == hasattr(torch.Tensor, name), name


@pytest.mark.parametrize("decimals", [-3, -1, 0, 1, 2, 4, 40])
@pytest.mark.parametrize("dtype", DTYPES)
def test_round_decimals(device, dtype, decimals):
    x = values(rng(2), (6, 5), dtype, -1000, 1000)
    run_both(lambda m, t: m.round(t, decimals=decimals), [x], device)
    run_both(lambda m, t: t.t().round(decimals=decimals), [x], device)

    def inplace(m, t):
        t = t.clone()
        assert t.round_(decimals=decimals) is t
        return t

    run_both(inplace, [x], device)
    if dtype in FLOATS:
        run_both(lambda m, t: m.round(t, decimals=decimals), [specials(dtype)], device)


def test_integer_edges(device):
    for dtype, info in (("int32", np.iinfo(np.int32)), ("int64", np.iinfo(np.int64))):
        x = np.array([info.min, info.max, -1, 0, 1, 46341, min(3037000500, info.max)], dtype=dtype)
        for op in ("square", "sign", "abs", "neg", "floor", "round", "sigmoid", "exp2"):
            run_both(lambda m, t: getattr(m, op)(t), [x], device, UNARY_ULPS.get(op, 0))


def test_unary_in_place_cast_errors(device):
    for dtype in ("bool", "int32", "int64"):
        x = values(rng(3), (4,), dtype)
        for op in ("sin", "sigmoid", "frac", "square", "floor", "erfinv"):
            run_both(lambda m, t: getattr(t.clone(), op + "_")(), [x], device)


# ---- pow ----------------------------------------------------------------------------------------------

POW_EXPONENTS = [0, 1, 2, 3, -1, -2, 0.5, -0.5, 2.0, 3.0, -2.0, -1.0, 0.0, 1.0, 2.5, -1.5, 0.1, 7, True, False]


def pow_ulps(dtype, exponent):
    """torch's float32 sqrt is MKL's; other non-integer exponents go through SLEEF's pow on the CPU."""
    if dtype == "float32" and exponent == 0.5:
        return 1
    return 0 if float(exponent).is_integer() and exponent != 7 else 1


@pytest.mark.parametrize("exponent", POW_EXPONENTS, ids=repr)
@pytest.mark.parametrize("dtype", DTYPES)
def test_pow_tensor_scalar(device, dtype, exponent):
    x = values(rng(4), (5, 9), dtype, -4, 4)
    ulps = pow_ulps(dtype, exponent) if dtype in FLOATS else 1
    run_both(lambda m, t: m.pow(t, exponent), [x], device, ulps)
    run_both(lambda m, t: t.t() ** exponent, [x], device, ulps)
    run_both(lambda m, t: t.pow(exponent=exponent), [x[0, 0]], device, ulps)

    def inplace(m, t):
        t = t.clone()
        t **= exponent
        return t

    run_both(inplace, [x], device, ulps)
    if dtype in FLOATS:
        # torch's CUDA kernel takes a float32 tensor's exponent rounded to float (its CPU loop a double, on a
        # run's tail): from 1e30 ** 0.1 on, the two are more than 1 ulp apart, so the reference is the CPU's
        # with the exponent torch's CUDA kernel takes
        rounded = float(np.float32(exponent)) if device != "cpu" and dtype == "float32" else exponent
        run_both(lambda m, t: t ** (exponent if m is mt else rounded), [specials(dtype)], device, ulps)


@pytest.mark.skipif(not torch_sqrt_is_mkl_generic(), reason="torch's sqrt here is not MKL's generic kernel")
def test_sqrt_as_torch():
    """torch's CPU float32 and float64 sqrt are MKL's, which on a CPU not made by Intel are not correctly
    rounded: minitorch's are the same functions, bit for bit on every float of [1, 4) (each binade's pattern
    repeats with the exponent), at the ends of the fast path, on the specials, on integer inputs, strided,
    in place, through ** 0.5 and into a float64 out, and on doubles of every bit pattern; float16 and
    bfloat16 (no MKL) keep the correctly rounded one, and so do the kernels that take a scalar std::sqrt
    (std, vector_norm)."""
    x = np.arange(0x3F800000, 0x40800000, dtype=np.uint32).view(np.float32)
    want = torch.sqrt(torch.from_numpy(x)).numpy()
    assert np.count_nonzero(want != np.sqrt(x)) > 1_000_000           # torch's is not the nearest float here
    assert np.array_equal(mt.sqrt(mt.from_numpy(x)).numpy().view(np.uint32), want.view(np.uint32))
    ends = np.concatenate([np.arange(0x7F7FE000, 0x7F800002, dtype=np.uint32),
                           np.arange(0x007FF000, 0x00801000, dtype=np.uint32),
                           np.arange(0, 16, dtype=np.uint32), np.arange(0x80000000, 0x80000010, dtype=np.uint32),
                           np.uint32([0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001])]).view(np.float32)
    run_both(lambda m, t: m.sqrt(t), [specials("float32")], "cpu")
    run_both(lambda m, t: m.sqrt(t), [ends], "cpu")
    r = rng(13)
    y = (r.uniform(1, 4, (67, 31)) * 2.0 ** r.integers(-100, 100, (67, 31))).astype(np.float32)
    run_both(lambda m, t: m.sqrt(t), [y], "cpu")
    run_both(lambda m, t: t.t().sqrt(), [y], "cpu")
    run_both(lambda m, t: t[:, ::3].sqrt(), [y], "cpu")
    run_both(lambda m, t: t.clone().sqrt_(), [y], "cpu")
    run_both(lambda m, t: t ** 0.5, [y], "cpu")
    run_both(lambda m, t: m.sqrt(t, out=m.empty(0, dtype=m.float64)), [y], "cpu")
    run_both(lambda m, t: m.sqrt(t), [r.integers(0, 1 << 30, 500)], "cpu")
    for dtype in ("float16", "bfloat16"):
        run_both(lambda m, t: m.sqrt(t.to(getattr(m, dtype))).float(), [y], "cpu")
    d = r.integers(0, 1 << 64, 1 << 18, dtype=np.uint64).view(np.float64)
    want = torch.sqrt(torch.from_numpy(d)).numpy()
    assert np.count_nonzero(want[d > 0] != np.sqrt(d[d > 0])) > 1000
    run_both(lambda m, t: m.sqrt(t), [d], "cpu")
    run_both(lambda m, t: t[::3].sqrt(), [d], "cpu")
    run_both(lambda m, t: m.sqrt(t), [np.concatenate([specials("float64"), [5e-324, 2.2e-308, 1.7e308, 4.4e307]])], "cpu")
    # std and vector_norm take std::sqrt of each result, correctly rounded (a float64 std's variance is
    # summed otherwise than torch's Welford, so float32 only there)
    w = r.standard_normal((40, 33))
    run_both(lambda m, t: m.std(t.float(), dim=1), [w], "cpu")
    for dtype in ("float32", "float64"):
        run_both(lambda m, t: m.linalg.vector_norm(t.to(getattr(m, dtype))[:, :2] * 3, dim=1), [w], "cpu")


@pytest.mark.parametrize("threads", [1, 2])
def test_pow_float32_number_as_torch(threads):
    """float32 ** number on the host: torch's CPU loop takes the exponent rounded to float on the whole
    vectors of a contiguous run and as a double (std::pow(float, double)) on the rest, and for a number
    such as 0.3 the two differ by many ulp where |log x| is large; minitorch divides the elements as
    torch does and takes SLEEF's powf on the vectors, so every element is torch's bit for bit."""
    r = rng(12)
    before = mt.get_num_threads(), torch.get_num_threads()
    mt.set_num_threads(threads)
    torch.set_num_threads(threads)
    try:
        for exponent in (0.3, -1.7, 2.5, 4, 5, 7, -3, 1 / 3, -40.1, 1e10, float("inf"), float("-inf")):
            for n in (1, 5, 31, 33, 1000, 70001):
                x = (np.exp(r.uniform(-80, 80, n)) * r.choice([-1, 1], n)).astype("float32")
                run_both(lambda m, t: t ** exponent, [x], "cpu")
                run_both(lambda m, t: m.pow(t[::2], exponent), [x], "cpu")       # strided: the double pow
                run_both(lambda m, t: t.clone().pow_(exponent), [x], "cpu")
            x = np.concatenate([specials("float32"), np.float32([1e-45, 1e-40, 1.2e-38, 3.4e38, -3.4e38])] * 8)
            run_both(lambda m, t: t ** exponent, [x], "cpu")
    finally:
        mt.set_num_threads(before[0])
        torch.set_num_threads(before[1])


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_pow_tensor_tensor(device, a, b):
    r = rng(5)
    x = values(r, (4, 7), a, -3, 3)
    y = values(r, (7,), b, -3, 3)
    if b in ("int32", "int64"):
        y = y % 7 - 2
    run_both(lambda m, s, t: m.pow(s, t), [x, y], device, 1)
    run_both(lambda m, s, t: s ** t[2], [x, y], device, 1)
    run_both(lambda m, s, t: s.t().clone().pow_(t[:4]), [x, y], device, 1)


@pytest.mark.parametrize("base", [2, -3, 1, 0, 2.5, -0.5, True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_pow_scalar_tensor(device, dtype, base):
    y = values(rng(6), (3, 5), dtype, -3, 3)
    ulps = 0 if dtype not in FLOATS and not isinstance(base, float) else 1
    run_both(lambda m, t: m.pow(base, t), [y], device, ulps)
    run_both(lambda m, t: base ** t, [y], device, ulps)
    run_both(lambda m, t: m.pow(self=base, exponent=t), [y], device, ulps)


def test_pow_integer_edges(device):
    x = np.array([3, -3, 2, -1, 1, 0, 7], dtype="int64")
    for e in (40, 63, 64, 5):
        run_both(lambda m, t: t ** e, [x], device)
        run_both(lambda m, t: t.int() ** e, [x], device)
    run_both(lambda m, t: t ** m.tensor([-1, -2, -3, 0, -5, 2, 1]).to(t.device), [x], device)


@pytest.mark.parametrize("call", [
    "m.pow(t, -1)", "t ** -2", "m.pow(t.bool(), -1)", "m.pow(t.bool(), t.bool())", "m.pow(True, t.bool())",
    "t.clone().pow_(2.5)", "m.pow(2, 3)", "m.pow(t, 'a')", "t ** 'a'", "'a' ** t", "t // None", "[1] % t",
    "pow(t, 2, 3)", "t.pow()", "m.pow(t)",
])
def test_pow_errors(device, call):
    x = np.array([2, -3, 0], dtype="int32")
    run_both(lambda m, t: eval(call), [x], device)


# ---- fmod, remainder, floor_divide, atan2 -------------------------------------------------------------

DIVISIONS = ["fmod", "remainder", "floor_divide"]


@pytest.mark.parametrize("op", DIVISIONS + ["atan2", "arctan2"])
@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_binary_math(device, op, a, b):
    r = rng(7)
    x = values(r, (6, 5), a, -20, 20)
    y = values(r, (5,), b, -6, 6)
    if b in ("int32", "int64"):
        y[y == 0] = 3       # integer division by zero: test_integer_division_by_zero
    elif b == "bool" and op in DIVISIONS and device != "cpu":
        y[:] = True
    ulps = 1 if op in ("atan2", "arctan2") else 0
    run_both(lambda m, s, t: getattr(m, op)(s, t), [x, y], device, ulps)
    run_both(lambda m, s, t: getattr(s.t(), op)(t[:, None]), [x, y], device, ulps)

    def inplace(m, s, t):
        s = s.clone()
        assert getattr(s, op + "_")(t) is s
        return s

    run_both(inplace, [x, y], device, ulps)
    if op in DIVISIONS:
        run_both(lambda m, s, t: getattr(m, op)(s, t[1].item()), [x, y], device)


@pytest.mark.parametrize("op", DIVISIONS + ["atan2"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_math_specials(device, op, dtype):
    s = specials(dtype)
    x = np.repeat(s, len(s))
    y = np.tile(s, len(s))
    if op in ("fmod", "remainder"):
        # torch's vectorised fmod (SLEEF's) gives NaN for a subnormal divisor or a quotient past the
        # dtype's range, where the C library's (and torch's own scalar loop) gives the exact remainder
        with np.errstate(all="ignore"):
            odd = (np.abs(y) < np.finfo(dtype).tiny) | ~np.isfinite(x / y)
        y[odd & np.isfinite(x) & (y != 0)] = 1.5
    run_both(lambda m, a, b: getattr(m, op)(a, b), [x, y], device, 1 if op == "atan2" else 0)


def test_operators(device):
    x = values(rng(8), (4, 6), "int64", -30, 30)
    y = np.array([3, -4, 5, -7, 2, 9])
    for call in ("s // t", "s % t", "7 // t", "-7 % t", "s // 4", "s % -4", "2.5 // t", "s.float() % 2.5",
                 "s.double() // t", "s // t.float()", "t ** 2 // 3"):
        run_both(lambda m, s, t: eval(call), [x, y], device)
    for call in ("s //= t", "s %= t", "s **= 2", "s //= 2.5", "s %= t.float()"):
        def inplace(m, s, t):
            s = s.clone()
            exec(call)
            return s

        run_both(inplace, [x, y], device)


def test_integer_division_by_zero():
    # torch raises on the CPU; CUDA kernels do not check (their result is unspecified)
    x = np.array([5, -5, 0], dtype="int32")
    for call in ("m.fmod(s, 0)", "m.remainder(s, s)", "m.floor_divide(s, m.zeros(3, dtype=m.int32))",
                 "s // 0", "7 % s", "m.remainder(s[:0], 0)", "m.fmod(s.float(), 0)"):
        run_both(lambda m, s: eval(call), [x], "cpu")


# ---- clamp ----------------------------------------------------------------------------------------------

CLAMP_BOUNDS = [(0, None), (None, 3), (-2, 2), (2.5, None), (-1.5, 7.5), (3, -3), (float("nan"), None),
                (None, float("nan")), (True, None), (False, True), (-2.0, float("inf"))]


@pytest.mark.parametrize("bounds", CLAMP_BOUNDS, ids=repr)
@pytest.mark.parametrize("dtype", DTYPES)
def test_clamp_numbers(device, dtype, bounds):
    lo, hi = bounds
    x = values(rng(9), (7, 5), dtype, -10, 10)
    run_both(lambda m, t: m.clamp(t, lo, hi), [x], device)
    run_both(lambda m, t: t.t().clip(min=lo, max=hi), [x], device)
    run_both(lambda m, t: t.clone().clamp_(lo, hi), [x], device)
    if lo is not None:
        run_both(lambda m, t: m.clamp_min(t, lo), [x], device)
        run_both(lambda m, t: t.clone().clamp_min_(lo), [x], device)
    if hi is not None:
        run_both(lambda m, t: t.clamp_max(hi), [x], device)
        run_both(lambda m, t: m.clamp_max_(t.clone(), hi), [x], device)
    if dtype in FLOATS:
        # -0.0 at a bound of 0 is the one difference (README, "Known differences")
        s = specials(dtype)
        run_both(lambda m, t: m.clamp(t, lo, hi), [s[(s != 0) | ~np.signbit(s)]], device)


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_clamp_tensors(device, a, b):
    r = rng(10)
    x = values(r, (4, 6), a, -10, 10)
    lo = values(r, (6,), b, -5, 0)
    hi = values(r, (4, 1), b, 0, 5)
    run_both(lambda m, t, s, u: m.clamp(t, s, u), [x, lo, hi], device)
    run_both(lambda m, t, s, u: m.clamp(t, min=s), [x, lo, hi], device)
    run_both(lambda m, t, s, u: t.clip(max=u), [x, lo, hi], device)
    run_both(lambda m, t, s, u: m.clamp_min(t, s), [x, lo, hi], device)
    run_both(lambda m, t, s, u: t.clamp_max(u), [x, lo, hi], device)
    run_both(lambda m, t, s, u: t.clone().clamp_(s, u), [x, lo, hi], device)
    run_both(lambda m, t, s, u: m.clamp(t, s[0], 3), [x, lo, hi], device)


@pytest.mark.parametrize("call", [
    "m.clamp(t)", "m.clip(t)", "t.clamp()", "m.clamp(t, None, None)", "m.clamp(t, 1j)", "m.clamp(t, 'a')",
    "t.clone().clamp_(min=0.5)", "t.int().clamp_max_(2.5)", "t.bool().clamp_(min=2)", "m.clamp(t.bool(), 0, 1)",
    "m.clamp(t.bool(), max=False)", "m.clamp(t, min=m.ones(2, device=t.device))",
    "m.clamp(t, 0, m.ones(3, device=t.device))", "t.clamp_min()", "m.clamp_max(t, None)",
])
def test_clamp_errors(device, call):
    x = np.array([1, 5, -3], dtype="int64")
    run_both(lambda m, t: eval(call), [x], device)


# ---- where ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_where(device, a, b):
    r = rng(11)
    cond = r.random((5, 1, 7)) < 0.4
    x = values(r, (4, 7), a, -9, 9)
    y = values(r, (7,), b, -9, 9)
    run_both(lambda m, c, s, t: m.where(c, s, t), [cond, x, y], device)
    run_both(lambda m, c, s, t: s.t().where(c[:, :, :4].transpose(1, 2), t[:4, None]), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c, s, t[3]), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c[0, 0], s[1, 2], t), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c, s, 2.5), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c, -3, t), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c, True, t[:0]), [cond, x, y], device)
    run_both(lambda m, c, s, t: m.where(c, s, t[1].item()), [cond, x, y], device)


def test_where_specials_and_numbers(device):
    s = specials("float64")
    cond = np.arange(len(s)) % 3 == 0
    run_both(lambda m, c, t: m.where(c, t, -t), [cond, s], device)
    run_both(lambda m, c, t: m.where(c, t.float(), 1), [cond, s], device)
    for a, b in ((1, 0), (1.0, 0), (True, False), (2, 2.5), (False, 7)):
        run_both(lambda m, c: m.where(c, a, b), [cond], device)
        run_both(lambda m, c: m.where(c, self=a, other=b), [cond], device)


@pytest.mark.parametrize("call", [
    "m.where(c.float(), s, s)", "m.where(c.int(), s, s)", "m.where(c, s, s[:2])", "m.where(c, s)",
    "m.where(c, 'a', s)", "s.where(c)", "m.where(s, s, s)", "m.where(c, s, None)",
])
def test_where_errors(device, call):
    x = np.array([1.5, -2.0, 3.0])
    c = np.array([True, False, True])
    run_both(lambda m, c, s: eval(call), [c, x], device)


# ---- addcmul, addcdiv -----------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("value", [1, 0.1, -2, 0.5, True], ids=repr)
@pytest.mark.parametrize("dtypes", [("float32",) * 3, ("float64",) * 3, ("int64",) * 3, ("float32", "float64", "int32"),
                                    ("int32", "float32", "float32"), ("bool", "float64", "float32"),
                                    ("bool",) * 3, ("int64", "int32", "int64")], ids="-".join)
def test_addcmul_addcdiv(device, op, value, dtypes):
    r = rng(12)
    x = values(r, (3, 5), dtypes[0], -5, 5)
    t1 = values(r, (5,), dtypes[1], -5, 5)
    t2 = values(r, (3, 1), dtypes[2], 0.5, 5)
    if dtypes[2] in ("int32", "int64"):
        t2[t2 == 0] = 3
    # torch fuses addcmul's multiply and add, as minitorch's fma kernel does
    ulps = 0
    run_both(lambda m, s, a, b: getattr(m, op)(s, a, b, value=value), [x, t1, t2], device, ulps)
    run_both(lambda m, s, a, b: getattr(s.t(), op)(a[:3, None], b.t()), [x, t1, t2], device, ulps)
    run_both(lambda m, s, a, b: getattr(s.clone(), op + "_")(a, b, value=value), [x, t1, t2], device, ulps)
    run_both(lambda m, s, a, b: getattr(m, op)(s, value, a, b), [x, t1, t2], device, ulps)


def test_addcmul_errors(device):
    x = np.array([1.0, 2.0])
    for call in ("m.addcmul(s, s, s, 0.5)", "m.addcmul(s, s)", "s.addcdiv(s, s, value=1j)", "m.addcdiv(s, s.int(), s.int())",
                 "m.addcmul(s.bool(), s.bool(), s.bool())", "s.int().addcmul_(s, s)", "m.addcmul(s, s, m.ones(3, device=s.device))"):
        run_both(lambda m, s: eval(call), [x], device)


# ---- lerp -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("weight", [0.1, 0.3, 0.5, 0.7, 1 - 0.9, 0.999, -0.3, 1.7, 0, 1, True], ids=repr)
@pytest.mark.parametrize("dtype", FLOATS)
def test_lerp_number_weight(device, weight, dtype):
    # torch's kernel is one fused multiply-add per element (w and w - 1 rounded to the dtype first), as
    # minitorch's fma kernel
    ulps = 0
    r = rng(13)
    x, y = values(r, (5, 37), dtype), values(r, (5, 37), dtype)
    run_both(lambda m, a, b: m.lerp(a, b, weight), [x, y], device, ulps)
    run_both(lambda m, a, b: a.t().lerp(b.t(), weight), [x, y], device, ulps)
    run_both(lambda m, a, b: a.clone().lerp_(b[0], weight), [x, y], device, ulps)
    run_both(lambda m, a, b: m.lerp(a[:, ::3], b[0, ::3], weight), [x, y], device, ulps)


@pytest.mark.parametrize("dtype", FLOATS)
def test_lerp_tensor_weight(device, dtype):
    ulps = 0
    r = rng(14)
    x, y = values(r, (4, 33), dtype), values(r, (4, 33), dtype)
    w = values(r, (4, 33), dtype, -0.5, 1.5)
    w[0, :4] = [0.5, -0.5, 1.0, 0.0]
    run_both(lambda m, a, b, c: m.lerp(a, b, c), [x, y, w], device, ulps)
    run_both(lambda m, a, b, c: a.lerp(b[1], c[:, :1]), [x, y, w], device, ulps)
    run_both(lambda m, a, b, c: a.clone().lerp_(b, c.t().t()), [x, y, w], device, ulps)
    # a 0-dim weight of any dtype is a number; a weight with dims must have input's dtype
    run_both(lambda m, a, b: m.lerp(a, b, m.tensor(0.25, dtype=m.float64)), [x, y], device, ulps)
    run_both(lambda m, a, b: m.lerp(a, b, m.tensor(1)), [x, y], device, ulps)


@pytest.mark.parametrize("call", [
    "m.lerp(s, s.double(), 0.5)", "m.lerp(s, s, s.double())", "m.lerp(s, s, s.long())", "m.lerp(s.long(), s.long(), 2)",
    "m.lerp(s.int(), s.int(), s.int())", "m.lerp(s.bool(), s.bool(), 0.5)", "m.lerp(s, s, 1 + 2j)", "m.lerp(s, s, 1e300)",
    "m.lerp(s, s[:2], 0.5)", "s.lerp_(m.stack([s, s]), 0.5)", "m.lerp(s, 3.0, 0.5)", "m.lerp(s, s)",
    "m.lerp(s, s, s[:1].double())", "m.lerp(s[0], s, 0.5)", "m.lerp(s, s, 1 + 0j)",
])
def test_lerp_errors(device, call):
    x = np.array([1.0, 2.0, 3.5], dtype="float32")
    run_both(lambda m, s: eval(call), [x], device)
