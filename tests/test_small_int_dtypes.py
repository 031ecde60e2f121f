"""The small integer dtypes uint8, int8 and int16 against torch 2.13: torch's promotion table over the eight
dtypes (uint8 with int8 is int16; a Python int never raises an integer tensor's dtype), casts of edge values
between every pair of dtypes (float to uint8 as torch's x86 CPU build gives it), wrapping arithmetic and
torch's integer division rules, the element-wise, comparison, bitwise and shift ops in every pair of dtypes,
reductions and their result dtypes (sums and products of small integers are int64), sort, indexing (a uint8
mask is a deprecated bool mask), gather/scatter, where/masked_fill/clamp, cat and stack of mixed dtypes,
factories and random fills, matmul, repr/tolist/item, NumPy, save/load and the legacy ByteTensor,
CharTensor and ShortTensor classes. Values are compared bit for bit (dtype, shape, values), errors by type
and message; the `device` fixture runs the op tests on the simulated GPU too. The tests skip without
torch."""

import itertools
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402
from test_math_ops import assert_same, rng, run_both  # noqa: E402

torch = pytest.importorskip("torch")

SMALL = ["uint8", "int8", "int16"]
ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64"]
LIMITS = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767)}


def values(seed, shape, dtype):
    """Random values of dtype with its extremes mixed in (so that arithmetic wraps)."""
    r = rng(seed)
    if dtype == "bool":
        return r.random(shape) < 0.5
    if dtype in LIMITS:
        lo, hi = LIMITS[dtype]
        a = r.integers(lo, hi + 1, shape).astype(dtype)
        flat = a.reshape(-1)
        flat[: min(flat.size, 4)] = np.array([lo, hi, 0, 1][: min(flat.size, 4)], dtype=dtype)
        return a
    if dtype in ("int32", "int64"):
        return r.integers(-300, 300, shape).astype(dtype)
    return r.uniform(-300, 300, shape).astype(dtype)


def pairs():
    """Every pair with at least one small integer dtype."""
    return [(a, b) for a, b in itertools.product(ALL, ALL) if a in SMALL or b in SMALL]


# ---- dtypes and promotion ------------------------------------------------------------------------------


def test_dtype_objects():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16, torch.short]:
            print(d, d.is_floating_point, d.is_signed, d.itemsize, d.is_complex, d is torch.int16)
        print(torch.uint8 == torch.uint8, torch.int8 != torch.int16)
        x = torch.tensor([1.5, -1.5, 300.7, -300.2])
        print(x.byte(), x.char(), x.short())
        print(x.byte().dtype, x.char().type(), x.short().type(), torch.tensor([1]).byte().type())
        print(x.type(torch.ByteTensor), x.type('torch.CharTensor'), x.type(torch.ShortTensor))
    """)


def test_promotion_table():
    compare("""
        D = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32,
             torch.float64]
        for a in D:
            print(' '.join(str(torch.add(torch.zeros(2, dtype=a), torch.zeros(2, dtype=b)).dtype) for b in D))
            print(' '.join(str(torch.add(torch.zeros(2, dtype=a), torch.tensor(1, dtype=b)).dtype) for b in D))
            print(' '.join(str(torch.add(torch.tensor(1, dtype=a), torch.zeros(2, dtype=b)).dtype) for b in D))
            print(' '.join(str(torch.cat([torch.zeros(1, dtype=a), torch.zeros(1, dtype=b)]).dtype) for b in D))
            print(' '.join(str(torch.where(torch.tensor([True]), torch.zeros(1, dtype=a), torch.zeros(1, dtype=b))
                               .dtype) for b in D))
    """)


def test_promotion_with_python_numbers():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            a = torch.tensor([1, 2, 3], dtype=d)
            for s in [-1, 2, 300, 2 ** 40, 1.5, True, False, -0.5]:
                print(d, s, (a + s).dtype, (a * s).dtype, (s * a).dtype, torch.where(a > 1, a, s).dtype)
            print(a + -2, a * 300, 2 ** 40 + a, a - True, a + 1.5, 2 - a, a.add(3, alpha=100))
            print(torch.tensor(5, dtype=d) + torch.tensor([1, 2]), torch.tensor([1, 2], dtype=d) + torch.tensor(7))
            print(torch.tensor([1, 2], dtype=d) + torch.tensor(7.5, dtype=torch.float64))
            True - a
        print(torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8))
        print(torch.tensor([200], dtype=torch.uint8) - torch.tensor([100], dtype=torch.int8))
    """)


def test_inplace_cast_rules():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            a = torch.tensor([1, 2, 3], dtype=d)
            a += 300
            print(a)
            a *= torch.tensor([2, 2, 2], dtype=torch.uint8)
            print(a)
            b = torch.tensor([1, 2, 3], dtype=d)
            b += 1.5
            b.add_(torch.tensor([1, 2, 3]))
            b.div_(2)
            print(b)
        c = torch.tensor([1, 2], dtype=torch.uint8)
        c += torch.tensor([1, 2], dtype=torch.int8)
        print(c)
        e = torch.tensor([True, False])
        e += torch.tensor([1, 2], dtype=torch.uint8)
    """)


# ---- conversions ---------------------------------------------------------------------------------------


def test_casts_between_every_pair():
    compare("""
        D = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32,
             torch.float64]
        ints = [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 70005, -70005,
                2 ** 31 - 1, 2 ** 31, 3000000001, -3000000001, 2 ** 40 + 3]
        floats = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 127.9, -128.9, 255.5, 256.0, 300.7, -300.2, 70000.5,
                  3000000001.0, -3000000001.0, 4294967297.0, 1e10, 2.0 ** 40 + 3, 1e20, -1e20,
                  float('nan'), float('inf'), float('-inf')]
        for src in D:
            if src.is_floating_point:
                x = torch.tensor(floats, dtype=src)
            elif src == torch.bool:
                x = torch.tensor([True, False, True])
            else:
                x = torch.tensor(ints).to(src)
            for dst in D:
                print(src, dst, x.to(dst).tolist())
                print(x[::2].to(dst).tolist(), x[:1].to(dst).tolist())
    """)


def test_tensor_from_python_numbers():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            for v in [300, -1, 256, -129, 128, -255, -256, 70000, 1.5, -0.5, -1.5, 255.9, 127.5, -128.5,
                      float('nan'), float('inf'), True, 2 ** 64]:
                print(d, v, torch.tensor([v], dtype=d))
            for v in [70000, -1, -255, -256, -129, 1.5, 255.9, -1.5, float('nan'), True, 2 ** 64 - 1]:
                print(d, v, torch.zeros(2, dtype=d).fill_(v))
            for v in [-1, 300, 1.5]:
                print(torch.full((2,), v, dtype=d))
                t = torch.zeros(3, dtype=d)
                t[1] = v
                print(t)
                t[torch.tensor([True, False, True])] = v
                print(t)
    """)


def test_repr_tolist_item():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            a = torch.tensor([[0, 1, 100], [7, 127, 2]], dtype=d)
            print(a, a.tolist(), a[0, 1].item(), type(a[1, 1].item()), int(a[1, 1]), float(a[0, 2]))
            print(torch.tensor(5, dtype=d), torch.tensor([], dtype=d), torch.zeros(0, 3, dtype=d))
            print(torch.arange(2000).to(d))
            print(repr(-torch.ones(3, dtype=d)), a.element_size(), a.dtype.itemsize, a.nbytes)
            print(bool(torch.tensor([0], dtype=d)), a.is_floating_point(), a.is_signed())
    """)


# ---- arithmetic ----------------------------------------------------------------------------------------

BINARY = ["add", "sub", "mul", "div", "floor_divide", "remainder", "fmod", "maximum", "minimum",
          "bitwise_and", "bitwise_or", "bitwise_xor", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
          "logical_xor", "atan2"]


@pytest.mark.parametrize("a_dtype,b_dtype", pairs())
@pytest.mark.parametrize("op", BINARY)
def test_binary_dtype_pairs(device, op, a_dtype, b_dtype):
    a = values(1, (3, 5), a_dtype)
    b = values(2, (3, 5), b_dtype)
    if op in ("floor_divide", "remainder", "fmod") and not b_dtype.startswith("float"):
        b = np.where(b == 0, np.ones_like(b), b)  # integer division by zero: test_errors
    run_both(lambda m, x, y: getattr(m, op)(x, y), [a, b], device)
    run_both(lambda m, x, y: getattr(m, op)(x[::2, 1::2], y[1, 2]), [a, b], device)


@pytest.mark.parametrize("dtype", SMALL)
def test_integer_arithmetic_rules(device, dtype):
    lo, hi = LIMITS[dtype]
    a = np.array([lo, lo + 1, -1 if lo else 1, 0, 1, 7, hi - 1, hi], dtype=dtype)
    b = np.array([-1 if lo else 3, 3, 2, 5, hi, -7 if lo else 7, 2, hi], dtype=dtype)
    for op in ["add", "sub", "mul", "floor_divide", "remainder", "fmod", "pow", "div"]:
        run_both(lambda m, x, y: getattr(m, op)(x, y), [a, b], device)
    for number in [-1, 2, 3, 300, -7, 2.5]:
        run_both(lambda m, x: x // number, [a], device)
        run_both(lambda m, x: x % number, [a], device)
        run_both(lambda m, x: x * number, [a], device)
        run_both(lambda m, x: x ** abs(number), [a], device)
    for op in ["floor_divide", "remainder", "fmod"]:
        run_both(lambda m, x: getattr(m, op)(x, m.zeros_like(x)), [a], "cpu")
    shifts = np.array([0, 1, 3, 7, 8, 15, 16, 20], dtype=dtype)
    run_both(lambda m, x, y: x << y, [a, shifts], device)
    run_both(lambda m, x, y: x >> y, [a, shifts], device)
    for fn in [lambda m, x: x << 3, lambda m, x: x >> 2, lambda m, x: x >> 30, lambda m, x: ~x,
               lambda m, x: x & 6, lambda m, x: 5 | x]:
        run_both(fn, [a], device)


UNARY = ["neg", "abs", "sign", "sgn", "square", "bitwise_not", "floor", "ceil", "trunc", "round", "relu",
         "logical_not", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "exp", "sqrt", "sin",
         "sigmoid", "reciprocal", "rsqrt", "log1p", "frac"]


@pytest.mark.parametrize("dtype", SMALL)
@pytest.mark.parametrize("op", UNARY)
def test_unary(device, op, dtype):
    a = values(3, (4, 6), dtype)
    if op == "relu":
        run_both(lambda m, x: m.nn.functional.relu(x), [a], device)
        return
    run_both(lambda m, x: getattr(m, op)(x), [a], device, ulps=2)
    run_both(lambda m, x: getattr(x.t(), op)(), [a], device, ulps=2)


@pytest.mark.parametrize("dtype", SMALL)
def test_inplace_unary_and_clamp(device, dtype):
    a = values(4, (3, 7), dtype)
    for fn in [lambda m, x: x.neg_(), lambda m, x: x.abs_(), lambda m, x: x.bitwise_not_(),
               lambda m, x: x.clamp(-5, 100), lambda m, x: x.clamp(min=3), lambda m, x: x.clamp_(max=40),
               lambda m, x: x.clamp(0.5, 3.5), lambda m, x: x.clamp_(0.5), lambda m, x: m.clamp(x, x[0], x[1]),
               lambda m, x: x.sqrt_(), lambda m, x: x.exp_()]:
        run_both(fn, [a], device)


# ---- reductions, scans and sorting ---------------------------------------------------------------------

REDUCTIONS = [lambda m, x: x.sum(), lambda m, x: x.sum(0), lambda m, x: x.sum(1, keepdim=True),
              lambda m, x: x.sum(dtype=x.dtype), lambda m, x: x.prod(), lambda m, x: x.prod(1),
              lambda m, x: x.cumsum(0), lambda m, x: x.cumprod(1), lambda m, x: x.cumsum(1, dtype=x.dtype),
              lambda m, x: x.max(), lambda m, x: x.min(), lambda m, x: x.max(1).values,
              lambda m, x: x.min(0).indices, lambda m, x: x.argmax(), lambda m, x: x.argmin(1),
              lambda m, x: x.amax(0), lambda m, x: x.amin(), lambda m, x: x.all(), lambda m, x: x.any(1),
              lambda m, x: x.mean(), lambda m, x: x.float().mean(), lambda m, x: x.std(),
              lambda m, x: m.count_nonzero(x), lambda m, x: x.sort(1).values, lambda m, x: x.sort(0).indices,
              lambda m, x: x.sort(descending=True, stable=True).indices, lambda m, x: x.argsort(),
              lambda m, x: x.topk(3).values, lambda m, x: x.all(0), lambda m, x: x.sum(dtype=m.float64),
              lambda m, x: x.nonzero(), lambda m, x: x.flip(0),
              lambda m, x: x.norm() if x.is_floating_point() else x.abs().max()]


@pytest.mark.parametrize("dtype", SMALL)
@pytest.mark.parametrize("k", range(len(REDUCTIONS)))
def test_reductions(device, dtype, k):
    a = values(5, (6, 9), dtype)
    # float results (mean of the float copy, std) may differ in the last bits on a GPU: its own sum order
    run_both(REDUCTIONS[k], [a], device, ulps=2)
    run_both(REDUCTIONS[k], [a[::2]], device, ulps=2)


def test_reduction_dtypes_and_errors():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            a = torch.tensor([[100, 120], [90, 127]], dtype=d)
            print(a.sum(), a.sum().dtype, a.prod().dtype, a.cumsum(0).dtype, a.cumprod(0).dtype, a.max().dtype)
            print(a.sum(dtype=d), a.cumsum(0, dtype=d), a.sum(0, dtype=torch.int32))
            print(torch.sum(a, 1), torch.prod(a, 0), a.max(0), a.min(dim=1))
            a.mean()
            a.var()
            a.softmax(0)
            a.log_softmax(0, dtype=torch.float64).sum()
            torch.zeros(0, dtype=d).max()
            print(torch.zeros(0, dtype=d).sum(), torch.zeros(0, dtype=d).prod())
    """)


# ---- indexing and data movement ------------------------------------------------------------------------


def test_indexing_and_masks():
    compare("""
        x = torch.arange(12).reshape(3, 4)
        m = torch.tensor([1, 0, 2], dtype=torch.uint8)
        print(x[m], x[:, torch.tensor([0, 1, 1, 0], dtype=torch.uint8)])
        y = x.clone()
        y[m] = 0
        print(y)
        y[torch.tensor([[1, 0, 0, 1]] * 3, dtype=torch.uint8)] = -5
        print(y)
        x[torch.tensor([1, 0], dtype=torch.uint8)]
        x[torch.tensor([1, 0, 1], dtype=torch.int8)]
        x[torch.tensor([1, 0, 1], dtype=torch.int16)]
        print(x[torch.tensor(1, dtype=torch.uint8)], x[torch.tensor(1, dtype=torch.int16)])
        x.masked_fill(torch.ones(3, 4, dtype=torch.uint8), 1)
        torch.where(torch.tensor([1, 0, 2], dtype=torch.uint8), 1, 0)
        a = torch.tensor([5, 200, 7], dtype=torch.uint8)
        print(a[1], a[1:], a[[0, 2]], a[torch.tensor([True, False, True])], a.masked_fill(a > 6, 255))
        print(torch.where(a > 6, a, torch.tensor([1, 2, 3], dtype=torch.int8)), torch.where(a > 6, a, -1))
        print(torch.where(a > 6, a, 1.5), torch.where(a > 6, a, torch.tensor(300)))
    """)


@pytest.mark.parametrize("dtype", SMALL)
def test_gather_scatter_index(device, dtype):
    a = values(6, (4, 5), dtype)
    src = values(7, (4, 5), dtype)
    idx = rng(8).integers(0, 4, (4, 5))
    for fn in [lambda m, x, s, i: m.gather(x, 0, i), lambda m, x, s, i: x.scatter(0, i, s),
               lambda m, x, s, i: x.scatter_add(0, i, s), lambda m, x, s, i: x.index_select(1, i[0]),
               lambda m, x, s, i: x.index_add(0, i[:, 0], s), lambda m, x, s, i: x[i[0]],
               lambda m, x, s, i: x.scatter(1, i, 3),
               lambda m, x, s, i: x.take(i),
               lambda m, x, s, i: x.masked_select(x > s),
               lambda m, x, s, i: m.where(x > s, x, s), lambda m, x, s, i: x.masked_fill(x > s, 9),
               lambda m, x, s, i: x.tril(), lambda m, x, s, i: x.flip(1).roll(2, 0)]:
        run_both(fn, [a, src, idx], device)


@pytest.mark.parametrize("a_dtype,b_dtype", pairs())
def test_cat_stack_mixed(device, a_dtype, b_dtype):
    a = values(9, (2, 3), a_dtype)
    b = values(10, (2, 3), b_dtype)
    run_both(lambda m, x, y: m.cat([x, y]), [a, b], device)
    run_both(lambda m, x, y: m.stack([x, y], 1), [a, b], device)
    run_both(lambda m, x, y: m.where(x > y, x, y), [a, b], device)


# ---- factories and random numbers ----------------------------------------------------------------------


def test_factories():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            print(torch.zeros(2, 3, dtype=d), torch.ones(2, dtype=d), torch.full((2,), 7, dtype=d))
            print(torch.arange(5, dtype=d), torch.arange(-3, 300, 50, dtype=d), torch.arange(1.5, 9, 2.5, dtype=d))
            print(torch.empty(3, dtype=d).shape, torch.empty(3, dtype=d).dtype, torch.eye(3, dtype=d))
            x = torch.tensor([1, 2], dtype=d)
            print(torch.zeros_like(x), torch.ones_like(x), torch.full_like(x, 3), torch.empty_like(x).dtype)
            print(torch.linspace(0, 100, 7, dtype=d), torch.logspace(0, 3, 4, dtype=d))
            print(torch.zeros(2, dtype=d, requires_grad=False).requires_grad)
            torch.zeros(2, dtype=d, requires_grad=True)
            torch.arange(5, dtype=d).float().requires_grad_()
            print(x.new_zeros(2), x.new_ones(3).dtype, x.new_full((2,), 5), x.new_tensor([1, 2]).dtype)
    """)


def test_random_numbers():
    compare("""
        for d in [torch.uint8, torch.int8, torch.int16]:
            torch.manual_seed(0)
            print(torch.randint(0, 10, (6,), dtype=d), torch.randint(3, (4,), dtype=d))
            print(torch.zeros(6, dtype=d).random_(), torch.zeros(6, dtype=d).random_(5))
            print(torch.zeros(6, dtype=d).random_(2, 9))
            for bounds in [(-1, 5), (0, 300), (0, 256), (-200, 0), (0, 70000)]:
                torch.randint(*bounds, (2,), dtype=d)
                torch.zeros(2, dtype=d).random_(*bounds)
            torch.zeros(2, dtype=d).random_(-2 ** 63, None)
            torch.zeros(2, dtype=d).random_(300)
            torch.rand(2, dtype=d)
            torch.randn(2, dtype=d)
            torch.zeros(2, dtype=d).uniform_()
            torch.randperm(5, dtype=d)
        print(torch.randperm(300, dtype=torch.uint8))
        g = torch.get_rng_state()
        print(g.dtype, g.shape)
        torch.set_rng_state(g)
        torch.set_rng_state(g.long())
    """)


# ---- matmul --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", SMALL)
def test_matmul(device, dtype):
    import minitorch as mt

    if device != "cpu":
        # cuBLAS has no integer products: torch's CUDA error
        x = mt.ones(2, 2, dtype=getattr(mt, dtype), device=device)
        with pytest.raises(NotImplementedError, match="\"addmm_cuda\" not implemented for '%s'" % x.dtype._scalar_name):
            x @ x
        return
    a = values(11, (5, 7), dtype)
    b = values(12, (7, 3), dtype)
    v = values(13, (7,), dtype)
    for fn in [lambda m, x, y, z: x @ y, lambda m, x, y, z: m.mm(x, y), lambda m, x, y, z: x @ z,
               lambda m, x, y, z: z @ z, lambda m, x, y, z: m.mv(x, z), lambda m, x, y, z: m.dot(z, z),
               lambda m, x, y, z: m.bmm(x[None], y[None]), lambda m, x, y, z: m.addmm(x[:, :3], x, y),
               lambda m, x, y, z: m.addmm(x[:, :3], x, y, beta=2, alpha=3), lambda m, x, y, z: y.t() @ x.t(),
               lambda m, x, y, z: x @ y.float(), lambda m, x, y, z: m.matmul(x[None].expand(2, 5, 7), y)]:
        run_both(fn, [a, b, v], device)


def test_matmul_errors():
    compare("""
        a = torch.ones(2, 2, dtype=torch.uint8)
        for other in [torch.ones(2, 2), torch.ones(2, 2, dtype=torch.int8), torch.ones(2, 2, dtype=torch.int16)]:
            a @ other
            other @ a
            torch.mm(a, other)
        print(torch.ones(2, 2, dtype=torch.int16) @ torch.ones(2, 2, dtype=torch.int16))
        torch.addmm(a, a, a, beta=1.5)
        torch.nn.functional.linear(torch.ones(2, 3, dtype=torch.int8), torch.ones(4, 3, dtype=torch.int8))
    """)


# ---- exchange ------------------------------------------------------------------------------------------


def test_numpy_and_save_round_trips(tmp_path):
    import io

    import minitorch as mt

    for name in SMALL:
        a = values(14, (3, 4), name)
        t = mt.from_numpy(a)
        assert str(t.dtype) == "minitorch." + name and t.numpy().dtype == a.dtype
        assert (t.numpy() == a).all() and mt.as_tensor(a).dtype == t.dtype
        back = np.asarray(t[:, 1::2])
        assert back.dtype == a.dtype and (back == a[:, 1::2]).all()
        # minitorch -> torch -> minitorch through files
        buf = io.BytesIO()
        mt.save({"t": t, "v": t[1:, ::2]}, buf)
        loaded = torch.load(io.BytesIO(buf.getvalue()))
        assert str(loaded["t"].dtype) == "torch." + name and loaded["t"].tolist() == a.tolist()
        assert loaded["v"].tolist() == a[1:, ::2].tolist()
        buf = io.BytesIO()
        torch.save({"t": torch.from_numpy(a), "s": torch.from_numpy(a)[2]}, buf)
        mine = mt.load(io.BytesIO(buf.getvalue()))
        assert str(mine["t"].dtype) == "minitorch." + name and mine["t"].tolist() == a.tolist()
        assert mine["s"].tolist() == a[2].tolist()
        buf = io.BytesIO()
        torch.save(torch.from_numpy(a), buf, _use_new_zipfile_serialization=False)
        assert mt.load(io.BytesIO(buf.getvalue())).tolist() == a.tolist()
        path = str(tmp_path / (name + ".pt"))
        torch.save(torch.from_numpy(a), path)
        assert mt.load(path, mmap=True).tolist() == a.tolist()
        # DLPack both ways
        assert torch.from_dlpack(t).tolist() == a.tolist()
        assert mt.from_dlpack(torch.from_numpy(a)).tolist() == a.tolist()


def test_numpy_interplay():
    compare("""
        import numpy as np
        for name in ['uint8', 'int8', 'int16']:
            a = np.array([[1, 2, 3], [4, 5, 6]], dtype=name)
            t = torch.from_numpy(a)
            print(t, torch.as_tensor(a), torch.tensor(a[::-1]), t.numpy().dtype, torch.tensor([a[0, 0]]))
            print(t + np.int8(3), np.int16(3) + t, t * np.ones(3, dtype=name), t == a, t.numpy().sum())
        print(np.sqrt(torch.tensor([4.0])), np.isnan(torch.tensor([1.0, float('nan')])))
    """)


def test_legacy_classes():
    compare("""
        for cls in [torch.ByteTensor, torch.CharTensor, torch.ShortTensor]:
            print(cls([1, 2, 3]), cls(2, 3).shape, cls(2, 3).dtype, cls().shape, cls.__name__)
            print(isinstance(torch.tensor([1], dtype=cls([1]).dtype), cls), isinstance(torch.tensor([1]), cls))
            cls([300])
            cls(torch.tensor([1.0]))
        print(torch.tensor([1.0]).type(torch.ByteTensor).type(), torch.tensor([1]).short().type())
    """)


def test_errors():
    compare("""
        a = torch.tensor([1, 2], dtype=torch.uint8)
        a.requires_grad_()
        torch.tensor([1], dtype=torch.int8, requires_grad=True)
        a // 0
        a % 0
        torch.tensor([1], dtype=torch.int16) // torch.tensor([0], dtype=torch.int16)
        a.bitwise_and(1.5)
        a.float().bitwise_and(a)
        a << 1.5
        a.masked_fill_(torch.tensor([True, False]), 1.5)
        a.masked_fill_(torch.tensor([True, False]), 300)
        torch.tensor([1, 2], dtype=torch.int8).clamp_(0.5)
        a.to(torch.bool) - a.to(torch.bool)
        -torch.tensor([True])
        torch.tensor([3, 4], dtype=torch.int16).index_select(0, torch.tensor([0], dtype=torch.int16))
        torch.tensor([3, 4]).gather(0, torch.tensor([0], dtype=torch.uint8))
        torch.tensor([3, 4]).index_select(0, torch.tensor([0], dtype=torch.uint8))
        torch.zeros(2, dtype=torch.int8).to(torch.float32).to(torch.int8).lerp(a, 0.5)
        print(torch.tensor([-128], dtype=torch.int8) // torch.tensor([-1], dtype=torch.int8))
        print(torch.tensor([-128], dtype=torch.int8).abs(), torch.tensor([-32768], dtype=torch.int16).neg())
        print(torch.tensor([-128], dtype=torch.int8) % torch.tensor([-1], dtype=torch.int8))
        print(torch.tensor([255], dtype=torch.uint8) + 1, torch.tensor([0], dtype=torch.uint8) - 1)
    """)
