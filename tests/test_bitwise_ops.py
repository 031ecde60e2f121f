"""The bitwise, logical and float-classification ops of issue 16 against torch 2.13: bitwise_and/or/xor,
bitwise_left_shift/right_shift and bitwise_not with their operators (& | ^ << >> ~, reflected and in-place),
logical_and/or/xor/not, isnan, isinf, isfinite, isposinf, isneginf, isreal and nan_to_num. Each op runs
through its module function, Tensor method and in-place forms on random values with odd shapes, broadcasting,
non-contiguous views, 0-d and empty tensors, in every pair of dtypes, on the CPU and on the CUDA device when
there is one (`device` fixture: the simulated GPU, or the emulated-CUDA build). Results must have torch's
dtype, shape and values bit for bit (shifts by negative or too wide amounts included, as torch's CPU kernels
give them); errors must have torch's type and message. The autograd part checks which results torch makes
differentiable (only nan_to_num's: NanToNumBackward0). The tests skip without torch."""

import itertools
import os
import sys

import numpy as np
import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402
from test_math_ops import DTYPES, assert_same, assert_same_error, rng, run_both, specials, to_mt, values  # noqa: E402

torch = pytest.importorskip("torch")

BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]
PREDICATES = ["isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "logical_not"]
OPERATORS = {"bitwise_and": "__and__", "bitwise_or": "__or__", "bitwise_xor": "__xor__",
             "bitwise_left_shift": "__lshift__", "bitwise_right_shift": "__rshift__"}
NUMBERS = [3, -2, True, False, 1.5, 0]


def operand(seed, shape, dtype):
    """Random values; shift amounts are small so that most shifts keep bits."""
    x = values(rng(seed), shape, dtype)
    return x


# ---- bitwise and logical binary ops -------------------------------------------------------------------


@pytest.mark.parametrize("a_dtype,b_dtype", list(itertools.product(DTYPES, DTYPES)))
@pytest.mark.parametrize("op", BITWISE + LOGICAL)
def test_binary_dtype_pairs(device, op, a_dtype, b_dtype):
    a = operand(1, (3, 5), a_dtype)
    b = operand(2, (3, 5), b_dtype)
    if op.endswith("shift") and b_dtype not in ("bool", "float32", "float64"):
        b = np.abs(b) % 9
    run_both(lambda m, x, y: getattr(m, op)(x, y), [a, b], device)
    # broadcasting, non-contiguous and 0-d operands, and the method form
    run_both(lambda m, x, y: getattr(x.t(), op)(y[:, :3].t()[:, :1]), [a, b], device)
    run_both(lambda m, x, y: getattr(m, op)(x[::2, 1::2], y[1, 2]), [a, b], device)
    run_both(lambda m, x, y: getattr(m, op)(x[1, 1], y), [a, b], device)
    run_both(lambda m, x, y: getattr(m, op)(x[:0], y[:1]), [a, b], device)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", BITWISE)
def test_bitwise_numbers(device, op, dtype):
    a = operand(3, (4, 7), dtype)
    for n in NUMBERS:
        run_both(lambda m, x: getattr(m, op)(x, n), [a], device)
        run_both(lambda m, x: getattr(m, op)(n, x), [a], device)
        run_both(lambda m, x: getattr(x, OPERATORS[op])(n), [a], device)
    run_both(lambda m, x: 5 & x, [a], device)
    run_both(lambda m, x: True | x, [a], device)
    run_both(lambda m, x: 7 ^ x, [a], device)
    run_both(lambda m, x: 1 << x, [a], device)
    run_both(lambda m, x: 1024 >> x, [a], device)
    run_both(lambda m, x: 2.5 & x, [a], device)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_shift_amounts(device, dtype):
    """Negative amounts and amounts of at least the width, as torch's CPU kernels give them."""
    width = 32 if dtype == "int32" else 64
    amounts = np.arange(-width - 6, width + 6).astype(dtype)
    for base in (-5, 5, 1, -1, 2 ** 30 + 7):
        x = np.full(amounts.shape, base, dtype=dtype)
        run_both(lambda m, t, s: t << s, [x, amounts], device)
        run_both(lambda m, t, s: t >> s, [x, amounts], device)
    run_both(lambda m, t: t << 2 ** 40, [x], device)
    run_both(lambda m, t: t >> -1, [x], device)
    run_both(lambda m, t: m.bitwise_left_shift(t, width - 1), [x], device)
    big = values(rng(5), (1000,), dtype)
    shifts = rng(6).integers(-3, width + 3, (1000,)).astype(dtype)
    run_both(lambda m, t, s: m.bitwise_left_shift(t, s), [big, shifts], device)
    run_both(lambda m, t, s: m.bitwise_right_shift(t, s), [big, shifts], device)


@pytest.mark.parametrize("a_dtype,b_dtype", list(itertools.product(DTYPES, DTYPES)))
@pytest.mark.parametrize("op", BITWISE + LOGICAL)
def test_binary_inplace(device, op, a_dtype, b_dtype):
    a = operand(7, (2, 3, 4), a_dtype)
    b = operand(8, (3, 1), b_dtype)
    if op.endswith("shift") and b_dtype in ("int32", "int64"):
        b = np.abs(b) % 9

    def inplace(m, x, y):
        z = x.clone()
        r = getattr(z, op + "_")(y)
        assert r is z
        return z

    run_both(inplace, [a, b], device)
    run_both(lambda m, x, y: getattr(y.clone(), op + "_")(x), [a, b], device)   # shape error
    if op in OPERATORS:
        def operator(m, x, y):
            z = x.clone()
            w = z
            if op == "bitwise_and":
                z &= y
            elif op == "bitwise_or":
                z |= y
            elif op == "bitwise_xor":
                z ^= y
            elif op == "bitwise_left_shift":
                z <<= y
            else:
                z >>= y
            assert z is w
            return z

        run_both(operator, [a, b], device)
        for n in NUMBERS:
            run_both(lambda m, x: getattr(x.clone(), op + "_")(n), [a], device)


def test_binary_type_errors():
    t, m = torch.tensor([1, 2]), mt.tensor([1, 2])
    for fn in (lambda x: x & "a", lambda x: x | None, lambda x: [1] ^ x, lambda x: x << 1j,
               lambda x: x.logical_and(1), lambda x: x.logical_or(True),
               lambda x: type(x).logical_xor(x, 2.0), lambda x: x.bitwise_and("a"),
               lambda x: x.bitwise_and(1j)):
        assert_same_error(lambda: fn(m), lambda: fn(t))
    for fn in (lambda x: x.__and__("a"), lambda x: x.__rlshift__(None), lambda x: x.__ior__([1]),
               lambda x: x.__iand__("a")):
        assert fn(t) is NotImplemented and fn(m) is NotImplemented


# ---- bitwise_not and ~ --------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_bitwise_not(device, dtype):
    x = operand(9, (5, 6), dtype)
    run_both(lambda m, t: m.bitwise_not(t), [x], device)
    run_both(lambda m, t: t.t().bitwise_not(), [x], device)
    run_both(lambda m, t: ~t[1::2], [x], device)
    run_both(lambda m, t: ~t[2, 3], [x], device)
    run_both(lambda m, t: m.bitwise_not(t[:0]), [x], device)

    def inplace(m, t):
        z = t.t()
        assert z.bitwise_not_() is z
        return z

    run_both(inplace, [x], device)
    run_both(lambda m, t: t[:1].expand(3, 6).bitwise_not_(), [x], device)


# ---- logical_not and the predicates -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", PREDICATES)
def test_predicates(device, op, dtype):
    x = operand(10, (4, 9), dtype)
    run_both(lambda m, t: getattr(m, op)(t), [x], device)
    run_both(lambda m, t: getattr(t.t(), op)(), [x], device)
    run_both(lambda m, t: getattr(m, op)(t[::2, 1::3]), [x], device)
    run_both(lambda m, t: getattr(m, op)(t[1, 1]), [x], device)
    run_both(lambda m, t: getattr(m, op)(t[:0]), [x], device)
    if dtype in ("float32", "float64"):
        run_both(lambda m, t: getattr(m, op)(t), [specials(dtype)], device)
    if dtype == "int64":
        run_both(lambda m, t: getattr(m, op)(t), [np.array([0, 1, -1, 2 ** 62, -2 ** 63])], device)
    # the result's layout follows the input's, as torch's
    for view in (lambda t: t.t(), lambda t: t[:1].expand(3, 9), lambda t: t[::2]):
        mtv, tv = view(to_mt(x, device)), view(torch.from_numpy(x))
        assert getattr(mtv, op)().stride() == getattr(tv, op)().stride()


@pytest.mark.parametrize("dtype", DTYPES)
def test_logical_not_inplace(device, dtype):
    x = operand(11, (3, 4), dtype)
    if dtype in ("float32", "float64"):
        x[0, :] = [np.nan, 0.0, -0.0, np.inf]

    def inplace(m, t):
        z = t.t()
        assert z.logical_not_() is z
        return z

    run_both(inplace, [x], device)
    run_both(lambda m, t: t[:1].expand(3, 4).logical_not_(), [x], device)


# ---- nan_to_num ---------------------------------------------------------------------------------------


NAN_TO_NUM_ARGS = [((), {}), ((1.0,), {}), ((1.0, 2.0, -3.0), {}), ((), {"nan": 7}), ((), {"posinf": 1e300}),
                   ((), {"neginf": -1e300, "nan": True}), ((None, None, 5.5), {}), ((), {"posinf": float("inf")})]


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_to_num(device, dtype):
    x = specials(dtype) if dtype in ("float32", "float64") else operand(12, (21,), dtype)
    for args, kwargs in NAN_TO_NUM_ARGS:
        run_both(lambda m, t: m.nan_to_num(t, *args, **kwargs), [x], device)
        run_both(lambda m, t: t.reshape(3, 7).t().nan_to_num(*args, **kwargs), [x], device)

        def inplace(m, t):
            z = t.reshape(7, 3).t()
            assert z.nan_to_num_(*args, **kwargs) is z
            assert m.nan_to_num_(z, *args, **kwargs) is z
            return z

        run_both(inplace, [x], device)
    run_both(lambda m, t: m.nan_to_num(t[:0]), [x], device)
    run_both(lambda m, t: m.nan_to_num(t[3]), [x], device)
    run_both(lambda m, t: t[:1].expand(3, 1).nan_to_num_(), [x], device)
    for view in (lambda t: t.reshape(3, 7).t(), lambda t: t[:1].expand(3, 5), lambda t: t[::2]):
        mtv, tv = view(to_mt(x, device)), view(torch.from_numpy(x))
        assert mtv.nan_to_num().stride() == tv.nan_to_num().stride()
        if dtype not in ("float32", "float64"):
            assert mtv.nan_to_num().data_ptr() != mtv.data_ptr()


def test_nan_to_num_argument_errors():
    t, m = torch.tensor([1.0]), mt.tensor([1.0])
    for fn in (lambda x: x.nan_to_num("a"), lambda x: x.nan_to_num(1j), lambda x: x.nan_to_num(1, 2, 3, 4),
               lambda x: x.nan_to_num(posinf=[1])):
        assert_same_error(lambda: fn(m), lambda: fn(t))
    assert_same(m.nan_to_num(mt.tensor(2.0)), t.nan_to_num(torch.tensor(2.0)))


# ---- autograd -----------------------------------------------------------------------------------------


def test_nan_to_num_grad(device):
    x = specials("float64")
    a = to_mt(x, device).requires_grad_()
    b = torch.from_numpy(x).requires_grad_()
    ra, rb = mt.nan_to_num(a, 1.0, 2.0), torch.nan_to_num(b, 1.0, 2.0)
    assert type(ra.grad_fn).__name__ == type(rb.grad_fn).__name__ == "NanToNumBackward0"
    g = values(rng(13), x.shape, "float64")
    ra.backward(to_mt(g, device))
    rb.backward(torch.from_numpy(g))
    assert_same(a.grad, b.grad)
    # in place on a non-leaf: the formula reads the input before the op
    a.grad = None
    b.grad = None
    ca, cb = a * 1, b * 1
    ca.nan_to_num_()
    cb.nan_to_num_()
    assert type(ca.grad_fn).__name__ == type(cb.grad_fn).__name__ == "NanToNumBackward0"
    (ca * ca).sum().backward()
    (cb * cb).sum().backward()
    assert_same(a.grad, b.grad)


def test_autograd_behaviour():
    """What torch records (nothing, except for nan_to_num) and refuses, in one snippet."""
    compare("""
        a = torch.tensor([1.0, float('nan'), float('inf')], requires_grad=True)
        for f in (torch.isnan, torch.isinf, torch.isfinite, torch.isposinf, torch.isneginf, torch.isreal,
                  torch.logical_not):
            r = f(a)
            print(r, r.requires_grad, r.grad_fn)
        r = torch.logical_and(a, a); print(r, r.requires_grad)
        r = torch.logical_xor(a, a * 2); print(r, r.grad_fn)
        print(torch.nan_to_num(a))
        a.nan_to_num_()
        a.bitwise_not_()
        a.bitwise_and_(1)
        a & 1
        ~a
        c = a * 1
        v = c._version
        c.logical_not_(); print(c, c._version - v)
        c = a * 2
        c.logical_and_(a); print(c)
        a.logical_not_(); print(a, a.grad_fn, a._version)
        x = torch.ones(3, dtype=torch.int64); v = x._version; x.nan_to_num_(); print(x._version - v)
        x = torch.ones(3); v = x._version; x.nan_to_num_(); print(x._version - v)
        x = torch.ones(3, dtype=torch.int32); v = x._version; x &= 2; x <<= 1; print(x, x._version - v)
    """)


def test_reprs_and_errors():
    compare("""
        i = torch.tensor([[5, -3, 0], [7, 1, -8]], dtype=torch.int32)
        l = torch.tensor([1, 2, 3])
        b = torch.tensor([True, False, True])
        f = torch.tensor([1.5, float('nan'), -float('inf')])
        print(i & l, i | 2, i ^ True, ~i, i << 2, i >> 1, 1 << l, 100 >> l, True & b, b ^ b, ~b)
        print(torch.bitwise_and(3, l), torch.bitwise_left_shift(2, i), l.bitwise_right_shift(1))
        print(torch.logical_and(f, l), torch.logical_or(b, i), torch.logical_xor(f, f), torch.logical_not(i))
        print(torch.isnan(f), torch.isinf(f), torch.isfinite(f), torch.isposinf(f), torch.isneginf(f), torch.isreal(f))
        print(torch.nan_to_num(f), torch.nan_to_num(f, 0.5, 9, -9), torch.nan_to_num(f.double()))
        f & 1
        f | f
        f ^ l
        f << 1
        l >> 1.5
        b << b
        b >> 1.0
        torch.bitwise_not(f)
        ~f
        l & 2 ** 64
        b.clone().bitwise_or_(1)
        l.clone().bitwise_xor_(1.5)
        torch.tensor([], dtype=torch.float64) & 1
        torch.bitwise_and(f, 1j)
        l.__and__(1j)
        torch.logical_and(l, torch.ones(2))
        l.clone().logical_and_(torch.ones(2, 1))
        torch.ones(3).expand(2, 3).logical_not_()
        torch.ones(3).expand(2, 3).nan_to_num_()
        print(torch.ones(3, dtype=torch.int64).expand(2, 3).nan_to_num_())
    """)


def test_forms_exist():
    for name in BITWISE + LOGICAL + PREDICATES + ["bitwise_not", "nan_to_num"]:
        assert hasattr(mt, name) == hasattr(torch, name)
        assert hasattr(mt.Tensor, name) == hasattr(torch.Tensor, name)
        assert hasattr(mt.Tensor, name + "_") == hasattr(torch.Tensor, name + "_"), name
        assert hasattr(mt, name + "_") == hasattr(torch, name + "_"), name
    for name in ("and", "or", "xor", "lshift", "rshift"):
        for form in ("__%s__", "__r%s__", "__i%s__"):
            assert hasattr(mt.Tensor, form % name)
