"""The CUDA kernels on a real GPU against minitorch's CPU kernels: every elementwise op, copy/cast,
fill, reduction, random fill and matmul, on random inputs with odd shapes, transposed, sliced and
broadcast operands, in every dtype the op accepts.

These tests need a real GPU: they skip without one, and MINITORCH_REQUIRE_GPU=1 (scripts/gpu_check.sh)
makes that a failure. MINITORCH_KERNEL_TESTS_ON_SIMULATED=1 runs them on the simulated GPU instead,
which checks the tests themselves (the simulated GPU runs the CPU kernels). Integer, bool and basic
float arithmetic must match exactly (IEEE operations round the same on both); exp/log within a few
ulps; float sums within a bound that grows with the number of terms; float32 matmul within a bound
that grows with K (and TF32's 10-bit mantissa when enabled); random numbers bit for bit against the
simulated GPU's host Philox loops, in a second process.
"""

import math
import os
import random
import struct
import zlib

import pytest

import minitorch
from subproc import python_output

DTYPES = [minitorch.bool, minitorch.int32, minitorch.int64, minitorch.float32, minitorch.float64]
FLOATS = [minitorch.float32, minitorch.float64]


def _real_gpu():
    return minitorch.cuda.is_available() and not minitorch._C._cuda_isSimulated()


@pytest.fixture(scope="module")
def dev():
    if _real_gpu():
        return "cuda"
    if os.environ.get("MINITORCH_KERNEL_TESTS_ON_SIMULATED") == "1" and minitorch.cuda.is_available():
        return "cuda"
    if os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0"):
        pytest.fail("MINITORCH_REQUIRE_GPU=1 but there is no real CUDA GPU")
    pytest.skip("needs a real CUDA GPU")


# ---- inputs and comparisons ------------------------------------------------------------------------


def values(dtype, n, rng, special=False):
    if dtype == minitorch.bool:
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype in (minitorch.int32, minitorch.int64):
        return [rng.randint(-20, 20) for _ in range(n)]
    out = [round(rng.gauss(0, 3), 3) for _ in range(n)]
    if special and n > 6:
        out[1], out[3], out[5] = 0.0, -0.0, float("nan")
    return out


def tensor(shape, dtype, rng, special=False):
    n = 1
    for s in shape:
        n *= s
    return minitorch.tensor(values(dtype, n, rng, special), dtype=dtype).reshape(shape)


def flat(t):
    t = t.cpu().reshape(-1) if t.dim() else t.cpu().reshape(1)
    return t.tolist()


def bits(v):
    return struct.pack("<d", v) if isinstance(v, float) else v


def assert_same(got, want, rel=0.0, atol=0.0, what=""):
    """got (any device) equals want (CPU): dtype, shape, and values (exactly unless rel/atol)."""
    assert got.dtype == want.dtype, what
    assert tuple(got.shape) == tuple(want.shape), what
    for i, (g, w) in enumerate(zip(flat(got), flat(want))):
        if isinstance(w, float) and (math.isnan(w) or math.isnan(g)):
            assert math.isnan(g) and math.isnan(w), "{} [{}]: {} vs {}".format(what, i, g, w)
        elif (rel or atol) and not (isinstance(w, float) and math.isinf(w)):
            assert abs(g - w) <= atol + rel * abs(w), "{} [{}]: {} vs {}".format(what, i, g, w)
        else:
            assert bits(g) == bits(w), "{} [{}]: {!r} vs {!r}".format(what, i, g, w)


def layouts(t):
    """The same values as t in several layouts: contiguous, transposed, sliced with steps."""
    out = [("contiguous", t)]
    if t.dim() >= 2:
        out.append(("transposed", t.transpose(0, t.dim() - 1).contiguous().transpose(0, t.dim() - 1)))
    return out


def on(dev, t):
    return t.to(dev)


# ---- copy and cast ---------------------------------------------------------------------------------


@pytest.mark.parametrize("src_dtype", DTYPES, ids=str)
@pytest.mark.parametrize("dst_dtype", DTYPES, ids=str)
def test_cast_every_pair(dev, src_dtype, dst_dtype):
    rng = random.Random(1)
    x = tensor((5, 7), src_dtype, rng, special=dst_dtype in FLOATS + [minitorch.bool])
    want = x.to(dst_dtype)
    xd = on(dev, x)
    assert_same(xd.to(dst_dtype), want, what="to")
    assert_same(xd.t().to(dst_dtype).t(), want, what="transposed to")
    assert_same(xd[::2, 1::3].to(dst_dtype), want[::2, 1::3], what="strided slice to")
    dst = minitorch.zeros(7, 5, dtype=dst_dtype, device=dev).t()   # a non-contiguous destination
    dst.copy_(xd)
    assert_same(dst, want, what="copy_ into a transposed view")
    dst2 = minitorch.zeros(7, 5, dtype=dst_dtype, device=dev).t()
    dst2.copy_(x)                                                   # host -> device, converting
    assert_same(dst2, want, what="copy_ from the host")
    host = minitorch.zeros(7, 5, dtype=dst_dtype).t()
    host.copy_(xd)                                                  # device -> host, converting
    assert_same(host, want, what="copy_ to the host")


def test_copy_broadcast_and_overlap(dev):
    rng = random.Random(2)
    row = on(dev, tensor((1, 6), minitorch.float32, rng))
    big = minitorch.empty(4, 3, 6, device=dev)
    big.copy_(row)
    assert_same(big, row.cpu().expand(4, 3, 6).contiguous())
    x = on(dev, minitorch.arange(10.0))
    # views sharing part of one storage: torch's TensorIterator refuses them, on every device
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        x[1:].copy_(x[:-1])
    x[1:].copy_(x[:-1].clone())
    assert flat(x) == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]


def test_many_dims_and_big_tensors(dev):
    rng = random.Random(3)
    x = tensor((2, 1, 3, 1, 2, 3, 2), minitorch.int64, rng)
    y = on(dev, x).permute(6, 0, 5, 1, 4, 2, 3).contiguous()
    assert_same(y, x.permute(6, 0, 5, 1, 4, 2, 3).contiguous())
    big = minitorch.randn(3, 1000003)
    assert_same(on(dev, big).t().contiguous().t(), big)


def test_fill_zero_eye_arange_full(dev):
    for dtype in DTYPES:
        t = minitorch.empty(3, 5, dtype=dtype, device=dev)
        t.fill_(1)
        assert_same(t, minitorch.ones(3, 5, dtype=dtype))
        t[:, ::2].zero_()
        want = minitorch.ones(3, 5, dtype=dtype)
        want[:, ::2].zero_()
        assert_same(t, want)
        assert_same(minitorch.full((2, 3), 7, dtype=dtype, device=dev), minitorch.full((2, 3), 7, dtype=dtype))
    assert_same(minitorch.eye(5, 7, device=dev), minitorch.eye(5, 7))
    assert_same(minitorch.arange(3, 50, 7, device=dev), minitorch.arange(3, 50, 7))
    assert_same(minitorch.zeros(0, 3, device=dev), minitorch.zeros(0, 3))


# ---- elementwise -------------------------------------------------------------------------------------

BINARY = [
    ("add", lambda a, b: a + b), ("sub", lambda a, b: a - b), ("mul", lambda a, b: a * b),
    ("div", lambda a, b: a / b), ("maximum", minitorch.maximum), ("minimum", minitorch.minimum),
    ("eq", lambda a, b: a == b), ("ne", lambda a, b: a != b), ("lt", lambda a, b: a < b),
    ("le", lambda a, b: a <= b), ("gt", lambda a, b: a > b), ("ge", lambda a, b: a >= b),
    ("add alpha", lambda a, b: minitorch.add(a, b, alpha=2)),
    ("sub alpha", lambda a, b: minitorch.sub(a, b, alpha=3)),
    # exact on both (fmod is exact; pow and atan2 go through the math libraries: tests/test_math_ops.py)
    ("fmod", minitorch.fmod), ("remainder", lambda a, b: a % b), ("floor_divide", lambda a, b: a // b),
]


def _cpu_or_error(fn, *args):
    try:
        return fn(*args), None
    except Exception as exc:  # noqa: BLE001
        return None, exc


@pytest.mark.parametrize("name, fn", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_binary(dev, name, fn, dtype):
    rng = random.Random(zlib.crc32("{} {}".format(name, dtype).encode()))
    cases = [((7,), (7,)), ((3, 1, 5), (4, 5)), ((2, 3), ()), ((0, 3), (3,))]
    for sa, sb in cases:
        a = tensor(sa, dtype, rng, special=True)
        b = tensor(sb, dtype, rng, special=True)
        want, err = _cpu_or_error(fn, a, b)
        if err is not None:
            continue  # torch refuses this combination on every device
        for la, ta in layouts(a):
            got = fn(on(dev, ta), on(dev, b))
            assert_same(got, want, what="{} {} {} {}".format(name, sa, sb, la))
        # a Python number, a 0-d CPU tensor and a 0-d device tensor as the second operand
        scalar = values(dtype, 1, rng)[0]
        want, err = _cpu_or_error(fn, a, scalar)
        if err is None:
            assert_same(fn(on(dev, a), scalar), want, what=name + " scalar")
        zero_d = minitorch.tensor(scalar, dtype=dtype)
        want, err = _cpu_or_error(fn, a, zero_d)
        if err is None:
            assert_same(fn(on(dev, a), zero_d), want, what=name + " 0-d cpu")
            assert_same(fn(on(dev, a), on(dev, zero_d)), want, what=name + " 0-d cuda")


def test_binary_mixed_dtypes_and_in_place(dev):
    rng = random.Random(5)
    for da in DTYPES:
        for db in DTYPES:
            a = tensor((4, 3), da, rng)
            b = tensor((3,), db, rng)
            for name, fn in BINARY[:6]:
                want, err = _cpu_or_error(fn, a, b)
                if err is None:
                    assert_same(fn(on(dev, a), on(dev, b)), want, what="{} {} {}".format(name, da, db))
    x = tensor((5, 4), minitorch.float32, rng)
    xd = on(dev, x)
    y = tensor((4,), minitorch.int64, random.Random(9))
    xd.add_(on(dev, y), alpha=0.5)
    x.add_(y, alpha=0.5)
    assert_same(xd, x)
    i = tensor((5,), minitorch.int32, rng)
    idv = on(dev, i)
    idv.mul_(3)
    i.mul_(3)
    assert_same(idv, i)


UNARY = [("neg", minitorch.neg), ("abs", minitorch.abs), ("relu", minitorch.relu), ("exp", minitorch.exp),
         ("log", minitorch.log), ("sqrt", minitorch.sqrt), ("reciprocal", minitorch.reciprocal)]
# the math ops of issue 16 (op_math.h): exact where they are IEEE operations or rounding, else CUDA's math
# library, a few ulps from the host's
EXACT_MATH = ["square", "sign", "floor", "ceil", "trunc", "round", "frac", "rsqrt"]
LIBM_MATH = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
             "sigmoid", "exp2", "expm1", "log2", "log10", "log1p", "erf", "erfc", "erfinv"]
UNARY += [(name, getattr(minitorch, name)) for name in EXACT_MATH + LIBM_MATH]


@pytest.mark.parametrize("name, fn", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_unary(dev, name, fn, dtype):
    rng = random.Random(7)
    a = tensor((6, 7), dtype, rng, special=True)
    if name in ("log", "sqrt", "rsqrt", "log2", "log10") and dtype in FLOATS:
        a = a.abs()
    want, err = _cpu_or_error(fn, a)
    if err is not None:
        return
    # exp/log and the other functions of LIBM_MATH go through CUDA's math library: a few ulps; the CPU's sqrt
    # may be torch's CPU one (MKL's, within 0.75 ulp), a CUDA device's is correctly rounded
    inexact = name in ["exp", "log", "sqrt"] + LIBM_MATH and want.dtype in FLOATS
    rel = (1e-6 if want.dtype == minitorch.float32 else 2e-15) if inexact else 0.0
    for layout, t in layouts(a):
        assert_same(fn(on(dev, t)), want, rel=rel, what="{} {}".format(name, layout))


# ---- reductions -----------------------------------------------------------------------------------------


def _sum_tolerance(x, dims):
    """|error| of a float sum in any order: about (number of terms) * eps * sum |x|."""
    eps = 2.0 ** -24 if x.dtype == minitorch.float32 else 2.0 ** -53
    mag = x.double().abs().sum(dims) if dims is not None else x.double().abs().sum()
    terms = x.numel() if dims is None else x.numel() // max(1, mag.numel())
    return mag, eps * (terms + 2)


REDUCE_SHAPES = [(7,), (5, 13), (3, 4, 5), (1, 9, 1), (100003,), (20011, 3), (3, 20011)]


@pytest.mark.parametrize("shape", REDUCE_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reductions(dev, shape, dtype):
    rng = random.Random(11)
    if math.prod(shape) > 10000:
        x = (minitorch.randn(*shape) * 4).to(dtype) if dtype != minitorch.bool else minitorch.randn(*shape) > 1
    else:
        x = tensor(shape, dtype, rng, special=False)
    xd = on(dev, x)
    dim_choices = [None] + list(range(x.dim())) + ([(0, x.dim() - 1)] if x.dim() >= 2 else [])
    for dims in dim_choices:
        for keepdim in (False, True):
            kw = {} if dims is None else {"dim": dims, "keepdim": keepdim}
            if dims is None and keepdim:
                continue
            want = x.sum(**kw)
            got = xd.sum(**kw)
            if want.dtype in FLOATS:
                mag, tol = _sum_tolerance(x, dims if dims is None else dims)
                assert_same(got, want, atol=tol * float(mag.max() if mag.dim() else mag) + 1e-30,
                            what="sum {}".format(dims))
            else:
                assert_same(got, want, what="sum {}".format(dims))
            if dtype in FLOATS:
                want = x.mean(**kw)
                assert_same(xd.mean(**kw), want, rel=1e-5 if dtype == minitorch.float32 else 1e-12, atol=1e-6,
                            what="mean {}".format(dims))
            for op in ("all", "any"):
                if dims is None or isinstance(dims, int):
                    kw1 = {} if dims is None else {"dim": dims, "keepdim": keepdim}
                    assert_same(getattr(xd, op)(**kw1), getattr(x, op)(**kw1), what=op)
            if dtype != minitorch.bool and (dims is None or isinstance(dims, int)):
                for op in ("argmax", "argmin"):
                    kw1 = {} if dims is None else {"dim": dims, "keepdim": keepdim}
                    assert_same(getattr(xd, op)(**kw1), getattr(x, op)(**kw1), what=op)
            if isinstance(dims, int):
                for op in ("max", "min"):
                    want, err = _cpu_or_error(lambda t: getattr(t, op)(dim=dims, keepdim=keepdim), x)
                    if err is None:
                        got = getattr(xd, op)(dim=dims, keepdim=keepdim)
                        assert_same(got.values, want.values, what=op + " values")
                        assert_same(got.indices, want.indices, what=op + " indices")
    for op in ("max", "min"):
        want, err = _cpu_or_error(lambda t: getattr(t, op)(), x)
        if err is None:
            assert_same(getattr(xd, op)(), want, what=op)


def test_reduction_ties_nan_and_layouts(dev):
    x = minitorch.tensor([[1.0, 3.0, 3.0, float("nan"), 2.0, float("nan")],
                          [5.0, 5.0, -1.0, -1.0, 0.0, 5.0],
                          [-0.0, 0.0, 0.0, -2.0, -2.0, 7.0]])
    xd = on(dev, x)
    for t, td in ((x, xd), (x.t(), xd.t())):
        for dim in (0, 1, None):
            kw = {} if dim is None else {"dim": dim}
            assert_same(td.argmax(**kw), t.argmax(**kw))
            assert_same(td.argmin(**kw), t.argmin(**kw))
            if dim is not None:
                assert_same(td.max(**kw).indices, t.max(**kw).indices)
                assert_same(td.min(**kw).values, t.min(**kw).values)
    assert_same(on(dev, minitorch.zeros(0, 3)).sum(0), minitorch.zeros(0, 3).sum(0))
    assert_same(on(dev, minitorch.zeros(3, 0)).mean(1), minitorch.zeros(3, 0).mean(1))
    assert_same(on(dev, minitorch.zeros(3, 0, dtype=minitorch.bool)).all(1),
                minitorch.zeros(3, 0, dtype=minitorch.bool).all(1))


# ---- random numbers: the GPU's Philox kernels against the simulated GPU's host loops --------------------

RANDOM_SCRIPT = """
import struct, minitorch as torch
def show(t):
    t = t.cpu().reshape(-1)
    if t.dtype in (torch.float32, torch.float64):
        print(' '.join(float(v).hex() for v in t.tolist()))
    else:
        print(' '.join(str(v) for v in t.tolist()))
torch.manual_seed(1234)
show(torch.rand(1001, device='cuda'))
show(torch.randn(1003, device='cuda'))
show(torch.rand(5, device='cuda', dtype=torch.float64))
show(torch.randn(7, device='cuda', dtype=torch.float64))
show(torch.randint(-5, 10, (33,), device='cuda'))
show(torch.randint(0, 2 ** 40, (9,), device='cuda'))
show(torch.randint(3, 9, (11,), device='cuda', dtype=torch.int32))
x = torch.empty(6, 5, device='cuda')
show(x.uniform_(-2, 3))
show(x.t().normal_(1, 2))
show(torch.randn(4, 4, device='cuda', dtype=torch.float64).normal_(0.5, 0.25))
torch.manual_seed(0)
show(torch.randn(100000, device='cuda')[::997])
"""


def _random_values(simulated):
    return python_output(RANDOM_SCRIPT, simulate_gpu=1 if simulated else None).splitlines()


def test_random_fills_are_bit_identical_to_the_host_philox(dev):
    real = _random_values(simulated=not _real_gpu())
    host = _random_values(simulated=True)
    assert len(real) == len(host)
    for i, (a, b) in enumerate(zip(real, host)):
        assert a == b, "line {} differs".format(i)


# ---- matmul ---------------------------------------------------------------------------------------------

MATMUL_SHAPES = [((1,), (1,)), ((9,), (9,)), ((5, 9), (9,)), ((9,), (9, 4)), ((3, 5), (5, 7)), ((17, 33), (33, 9)),
                 ((64, 129), (129, 31)), ((257, 511), (511, 3)), ((2, 3, 5), (5, 4)), ((4, 1, 3, 5), (2, 5, 6)),
                 ((6, 3, 5), (6, 5, 7))]


def _matmul_tolerance(a, b, dtype, tf32=False):
    k = a.shape[-1]
    eps = 2.0 ** -24 if dtype == minitorch.float32 else 2.0 ** -53
    if tf32:
        eps = 2.0 ** -11
    scale = float(a.abs().max()) * float(b.abs().max()) if a.numel() and b.numel() else 0.0
    return 2 * (k + 2) * eps * scale


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES, ids=str)
def test_matmul_against_float64_on_the_cpu(dev, dtype, sa, sb):
    rng = random.Random(zlib.crc32(repr((sa, sb)).encode()))
    a = tensor(sa, dtype, rng)
    b = tensor(sb, dtype, rng)
    want = (a.double() @ b.double()).to(dtype)
    tol = _matmul_tolerance(a, b, dtype)
    assert_same(on(dev, a) @ on(dev, b), want, atol=tol, what="matmul")
    if a.dim() >= 2 and b.dim() >= 2:
        at = a.transpose(-1, -2).contiguous().transpose(-1, -2)   # column-major operands
        bt = b.transpose(-1, -2).contiguous().transpose(-1, -2)
        assert_same(on(dev, at) @ on(dev, bt), want, atol=tol, what="column-major operands")
        # a with a step of 2 in both of its matrix dims: cuBLAS cannot read it, so it is packed first
        wide = minitorch.stack([a, a * 0], dim=-1).reshape(*a.shape[:-1], 2 * a.shape[-1])
        tall = minitorch.stack([wide, wide * 0], dim=-2).reshape(*a.shape[:-2], 2 * a.shape[-2], 2 * a.shape[-1])
        stepped = on(dev, tall)[..., ::2, ::2]
        assert_same(stepped @ on(dev, b), want, atol=tol, what="stepped")


def test_matmul_tf32_switch(dev):
    rng = random.Random(17)
    a = tensor((65, 257), minitorch.float32, rng)
    b = tensor((257, 33), minitorch.float32, rng)
    want = (a.double() @ b.double()).float()
    try:
        minitorch.backends.cuda.matmul.allow_tf32 = True
        assert_same(on(dev, a) @ on(dev, b), want, atol=_matmul_tolerance(a, b, minitorch.float32, tf32=True))
    finally:
        minitorch.backends.cuda.matmul.allow_tf32 = False
    assert_same(on(dev, a) @ on(dev, b), want, atol=_matmul_tolerance(a, b, minitorch.float32))


WORKSPACE_SCRIPT = """
import minitorch as torch
a = torch.ones(64, 64, device='cuda')
before = torch.cuda.memory_allocated()
c = a @ a
print(torch.cuda.get_device_capability()[0], torch.cuda.memory_allocated() - before - 16384)
"""


def test_cublas_workspace_is_counted_like_torchs(dev):
    if not _real_gpu():
        pytest.skip("the simulated GPU does not use cuBLAS")
    out = python_output(WORKSPACE_SCRIPT, timeout=120, drop=("CUBLAS_WORKSPACE_CONFIG",))
    major, workspace = (int(v) for v in out.split())
    assert workspace == (33554432 if 9 <= major <= 12 else 8519680)
    out = python_output(WORKSPACE_SCRIPT, timeout=120, env={"CUBLAS_WORKSPACE_CONFIG": ":16:8"})
    assert int(out.split()[1]) == 131072


# ---- pinned memory and non_blocking copies ----------------------------------------------------------------


def test_pin_memory_and_non_blocking_round_trip(dev):
    if not hasattr(minitorch.Tensor, "pin_memory"):
        pytest.skip("Tensor.pin_memory is not wired into this build yet")
    rng = random.Random(19)
    x = tensor((300, 7), minitorch.float32, rng)
    p = x.pin_memory()
    assert p.is_pinned() and not x.is_pinned() and p.pin_memory() is p
    assert_same(p, x)
    d = p.cuda(non_blocking=True)
    back = minitorch.empty(300, 7).pin_memory()
    back.copy_(d * 2, non_blocking=True)
    minitorch.cuda.synchronize()
    assert_same(back, x * 2)
    del p  # the pinned block returns to the pool only once its copies are done
    q = minitorch.ones(300, 7).pin_memory()
    assert_same(q.cuda(non_blocking=True).cpu(), minitorch.ones(300, 7))
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        d.pin_memory()
    assert d.is_pinned() is False
