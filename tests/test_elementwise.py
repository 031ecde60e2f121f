"""Elementwise ops: add/sub/mul/div (broadcasting, type promotion, Python scalars on either side,
alpha=), the in-place forms and operators, neg/abs/exp/log/sqrt/relu/reciprocal, maximum/minimum and
comparisons. Values are checked against NumPy on random inputs with odd shapes (same-dtype NumPy
arithmetic is IEEE, so float results must match exactly; transcendental functions within 1 ulp),
dtypes against torch's promotion rules, and errors by type and message. Where real torch is
importable, results are also compared with it bit for bit."""

import numpy as np
import pytest

import minitorch as mt
from subproc import python_output

NP = {mt.bool: np.bool_, mt.int32: np.int32, mt.int64: np.int64, mt.float32: np.float32,
      mt.float64: np.float64}
MT = {v: k for k, v in NP.items()}
ORDER = [mt.bool, mt.int32, mt.int64, mt.float32, mt.float64]
DTYPES = ORDER


def rng(seed=0):
    return np.random.default_rng(seed)


def rand(r, shape, dtype, nonzero=False):
    """Random values of a minitorch dtype as a NumPy array (0-d arrays for shape ())."""
    if dtype == mt.bool:
        return np.asarray(r.random(shape) > 0.5)
    if dtype in (mt.int32, mt.int64):
        a = np.asarray(r.integers(-60, 60, shape).astype(NP[dtype]))
        if nonzero:
            a[a == 0] = 7
        return a
    a = np.asarray((r.standard_normal(shape) * 4).astype(NP[dtype]))
    if nonzero:
        a[a == 0] = 1.5
    return a


def T(a, device="cpu"):
    t = mt.tensor(np.asarray(a))
    return t if device == "cpu" else t.to(device)


def N(t):
    """A tensor's values as a NumPy array of the matching dtype and shape."""
    return np.array(t.cpu().tolist(), dtype=NP[t.dtype]).reshape(tuple(t.shape))


def promote(a, b):
    return ORDER[max(ORDER.index(a), ORDER.index(b))]


def is_float(d):
    return d in (mt.float32, mt.float64)


def category(d):
    return 0 if d == mt.bool else (1 if d in (mt.int32, mt.int64) else 2)


def expected_result_type(dims, zeros, scalars):
    """torch.result_type, written out independently: dtypes of dimensioned tensors, of 0-d tensors and
    of Python scalars (bool/int/float); a lower class only counts when of a higher category."""
    def fold(ds):
        out = None
        for d in ds:
            out = d if out is None else promote(out, d)
        return out

    def wrapped(s):
        return mt.bool if isinstance(s, bool) else (mt.int64 if isinstance(s, int) else mt.float32)

    result = None
    for group in (fold(dims), fold(zeros), fold([wrapped(s) for s in scalars])):
        if group is None:
            continue
        if result is None:
            result = group
        elif category(group) > category(result):
            result = promote(result, group) if category(group) > 0 else result
    return result


def np_binary(op, a, b, dtype):
    a = np.asarray(a).astype(NP[dtype])
    b = np.asarray(b).astype(NP[dtype])
    with np.errstate(all="ignore"):
        if op == "add":
            return a + b if dtype != mt.bool else (a | b)
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b if dtype != mt.bool else (a & b)
        if op == "div":
            return a / b
    raise AssertionError(op)


# ---- binary arithmetic: values and dtypes ----------------------------------------------------------

SHAPES = [((7,), (7,)), ((3, 5), (5,)), ((4, 1), (1, 6)), ((2, 3, 1), (3, 9)), ((), (5,)), ((33,), ()),
          ((2, 0, 3), (3,))]


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_binary_tensor_tensor_matches_numpy(device, op, shapes):
    r = rng(hash((op, shapes)) % 1000)
    for da in DTYPES:
        for db in DTYPES:
            if op == "sub" and mt.bool in (da, db):
                continue
            a = rand(r, shapes[0], da)
            b = rand(r, shapes[1], db, nonzero=True)
            res = getattr(mt, op)(T(a, device), T(b, device))
            dims = [d for d, s in ((da, shapes[0]), (db, shapes[1])) if s != ()]
            zeros = [d for d, s in ((da, shapes[0]), (db, shapes[1])) if s == ()]
            want = expected_result_type(dims, zeros, [])
            if op == "div" and not is_float(want):
                want = mt.float32
            assert res.dtype == want, (op, da, db)
            assert tuple(res.shape) == np.broadcast_shapes(shapes[0], shapes[1])
            assert res.device.type == device
            expected = np_binary(op, a, b, want)
            np.testing.assert_array_equal(N(res), expected)


def test_operators_match_functions():
    r = rng(1)
    a = rand(r, (4, 7), mt.float32)
    b = rand(r, (7,), mt.float32, nonzero=True)
    ta, tb = T(a), T(b)
    np.testing.assert_array_equal(N(ta + tb), N(mt.add(ta, tb)))
    np.testing.assert_array_equal(N(ta - tb), N(mt.sub(ta, tb)))
    np.testing.assert_array_equal(N(ta * tb), N(ta.mul(tb)))
    np.testing.assert_array_equal(N(ta / tb), N(ta.div(tb)))
    np.testing.assert_array_equal(N(ta / tb), a / b)
    np.testing.assert_array_equal(N(mt.subtract(ta, tb)), a - b)
    np.testing.assert_array_equal(N(mt.multiply(ta, tb)), a * b)
    np.testing.assert_array_equal(N(mt.divide(ta, tb)), a / b)
    np.testing.assert_array_equal(N(mt.true_divide(ta, tb)), a / b)


SCALARS = [3, -2, 2.5, 0.1, True, False]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_tensor_scalar_arithmetic(device, dtype, scalar):
    r = rng(3)
    a = rand(r, (3, 7), dtype, nonzero=True)
    t = T(a, device)
    want = expected_result_type([dtype], [], [scalar])
    for op, fwd in (("add", lambda x: x + scalar), ("mul", lambda x: x * scalar),
                    ("sub", lambda x: x - scalar)):
        if op == "sub" and (dtype == mt.bool or isinstance(scalar, bool)):
            continue
        res = fwd(t)
        assert res.dtype == want, (op, dtype, scalar)
        np.testing.assert_array_equal(N(res), np_binary(op, a, np.asarray(scalar), want))
    res = t / scalar if scalar not in (0, False) else None
    if res is not None:
        wd = want if is_float(want) else mt.float32
        assert res.dtype == wd
        np.testing.assert_array_equal(N(res), np_binary("div", a, np.asarray(scalar), wd))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [3, -2, 2.5, True], ids=repr)
def test_reflected_operators(device, dtype, scalar):
    r = rng(4)
    a = rand(r, (11,), dtype, nonzero=True)
    t = T(a, device)
    want = expected_result_type([dtype], [], [scalar])
    np.testing.assert_array_equal(N(scalar + t), np_binary("add", a, scalar, want))
    np.testing.assert_array_equal(N(scalar * t), np_binary("mul", a, scalar, want))
    if dtype != mt.bool and not isinstance(scalar, bool):
        res = scalar - t
        assert res.dtype == want
        np.testing.assert_array_equal(N(res), np_binary("sub", scalar, a, want))
    # torch's Tensor.__rtruediv__ is self.reciprocal() * other
    res = scalar / t
    fd = dtype if is_float(dtype) else mt.float32
    with np.errstate(divide="ignore"):
        recip = (np.asarray(1, NP[fd]) / a.astype(NP[fd])).astype(NP[fd])
    want_div = expected_result_type([fd], [], [scalar])
    assert res.dtype == want_div
    np.testing.assert_array_equal(N(res), (recip * np.asarray(scalar).astype(NP[want_div])).astype(NP[want_div]))


def test_promotion_with_zero_dim_tensors():
    i32 = T(np.array([1, 2], np.int32))
    f32 = T(np.array([1.0, 2.0], np.float32))
    assert (i32 + mt.tensor(5)).dtype == mt.int32
    assert (i32 + mt.tensor(5.0)).dtype == mt.float32
    assert (f32 + mt.tensor(5.0, dtype=mt.float64)).dtype == mt.float32
    assert (mt.tensor(5) + mt.tensor(5.0, dtype=mt.float64)).dtype == mt.float64
    assert (mt.tensor([True]) + mt.tensor(3)).dtype == mt.int64
    assert (mt.tensor(3, dtype=mt.int32) + mt.tensor(3)).dtype == mt.int64
    assert (mt.tensor(3, dtype=mt.int32) + 3).dtype == mt.int32
    assert (mt.tensor(3, dtype=mt.int32) + 3.5).dtype == mt.float32
    assert (mt.tensor(True) + True).dtype == mt.bool
    assert (i32 + True).dtype == mt.int32
    assert (T(np.array([1.0], np.float64)) + 1.0).dtype == mt.float64
    np.testing.assert_array_equal(N(i32 + mt.tensor(5.5)), np.array([6.5, 7.5], np.float32))
    assert mt.add(1, 2).dtype == mt.int64 and mt.add(1, 2).item() == 3


def test_integer_wraparound():
    a = T(np.array([2 ** 31 - 1, -2 ** 31], np.int32))
    assert N(a + 1).tolist() == [-2 ** 31, -2 ** 31 + 1]
    assert N(a * 2).tolist() == [-2, 0]
    assert N(mt.tensor(3, dtype=mt.int32) * 10000000000).tolist() == -64771072
    assert N(-T(np.array([-2 ** 63], np.int64))).tolist() == [-2 ** 63]
    assert N(T(np.array([-2 ** 63], np.int64)).abs()).tolist() == [-2 ** 63]


def test_division_special_values():
    assert N(mt.tensor([1, 0]) / 0).tolist()[0] == float("inf")
    assert np.isnan(N(mt.tensor([1, 0]) / 0)[1])
    res = N(mt.tensor([1.0, -1.0, 0.0]) / 0)
    assert res[0] == np.inf and res[1] == -np.inf and np.isnan(res[2])
    assert (mt.tensor([7, -7]) / 2).tolist() == [3.5, -3.5]


def test_broadcast_errors():
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b "
                                           r"\(4\) at non-singleton dimension 1$"):
        mt.ones(2, 3) + mt.ones(2, 4)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b "
                                           r"\(4\) at non-singleton dimension 0$"):
        mt.ones(3) * mt.ones(4)
    with pytest.raises(RuntimeError, match=r"tensor a \(4\) must match the size of tensor b \(5\) at "
                                           r"non-singleton dimension 0"):
        mt.ones(4, 2, 3) - mt.ones(5, 2, 3)
    assert tuple((mt.ones(0, 1) + mt.ones(3)).shape) == (0, 3)


# ---- alpha ------------------------------------------------------------------------------------------

def test_add_sub_alpha_values():
    r = rng(5)
    a = rand(r, (9,), mt.float32)
    b = rand(r, (9,), mt.float32)
    for alpha in (2, -1, 1, 0.5, 3.25):
        got = N(mt.add(T(a), T(b), alpha=alpha))
        want = (b.astype(np.float64) * np.float32(alpha) + a).astype(np.float32)  # one rounding (fma)
        np.testing.assert_array_equal(got, want)
        got = N(T(a).sub(T(b), alpha=alpha))
        want = (b.astype(np.float64) * -np.float32(alpha) + a).astype(np.float32)
        np.testing.assert_array_equal(got, want)
    i = T(np.array([1, 2, 3]))
    assert N(mt.add(i, i, alpha=3)).tolist() == [4, 8, 12]
    assert N(mt.sub(i, 1, alpha=2)).tolist() == [-1, 0, 1]
    assert N(mt.add(i, i, alpha=mt.tensor(2))).tolist() == [3, 6, 9]
    b = T(np.array([True, False]))
    assert N(mt.add(b, b, alpha=True)).tolist() == [True, False]
    assert N(mt.add(b, T(np.array([2.0, 3.0], np.float32)), alpha=2.5)).tolist() == [6.0, 7.5]


def test_alpha_errors():
    i = T(np.array([1, 2]))
    with pytest.raises(RuntimeError, match=r"^For integral input tensors, argument alpha must not be a "
                                           r"floating point number\.$"):
        mt.add(i, i, alpha=0.5)
    with pytest.raises(RuntimeError, match="argument alpha must not be a floating point number"):
        i.sub(1, alpha=2.0)
    with pytest.raises(RuntimeError, match=r"^Boolean alpha only supported for Boolean results\.$"):
        mt.add(T(np.array([1.0, 2.0])), 1, alpha=True)
    with pytest.raises(TypeError, match=r"^add\(\): argument 'alpha' must be Number, not NoneType$"):
        i.add(i, alpha=None)
    with pytest.raises(TypeError, match=r"^mul\(\) got an unexpected keyword argument 'alpha'$"):
        mt.mul(i, 2, alpha=2)


# ---- bool rules -------------------------------------------------------------------------------------

def test_bool_arithmetic_and_errors():
    a = T(np.array([True, False, True]))
    b = T(np.array([True, True, False]))
    assert N(a + b).tolist() == [True, True, True] and (a + b).dtype == mt.bool
    assert N(a * b).tolist() == [True, False, False]
    assert (a + 1).dtype == mt.int64 and N(a + 1).tolist() == [2, 1, 2]
    assert (a / 2).dtype == mt.float32
    with pytest.raises(RuntimeError, match=r"^Subtraction, the `-` operator, with two bool tensors is not "
                                           r"supported\. Use the `\^` or `logical_xor\(\)` operator instead\.$"):
        a - b
    with pytest.raises(RuntimeError, match="with two bool tensors"):
        a - True
    msg = (r"^Subtraction, the `-` operator, with a bool tensor is not supported\. If you are trying to invert "
           r"a mask, use the `~` or `logical_not\(\)` operator instead\.$")
    with pytest.raises(RuntimeError, match=msg):
        a - 1
    with pytest.raises(RuntimeError, match=msg):
        1 - a
    with pytest.raises(RuntimeError, match=r"^Negation, the `-` operator, on a bool tensor is not supported\. "
                                           r"If you are trying to invert a mask, use the `~` or `logical_not\(\)` "
                                           r"operator instead\.$"):
        -a
    with pytest.raises(NotImplementedError, match=r'^"abs_cpu" not implemented for \'Bool\'$'):
        abs(a)
    with pytest.raises(RuntimeError, match=r"^Boolean inputs not supported for relu$"):
        mt.relu(a)


# ---- in-place ---------------------------------------------------------------------------------------

def test_inplace_ops_keep_identity_and_dtype(device):
    r = rng(6)
    a = rand(r, (4, 5), mt.float32)
    b = rand(r, (5,), mt.float32, nonzero=True)
    t = T(a, device)
    same = t
    t += T(b, device)
    t -= 1
    t *= 2.5
    t /= T(b, device)
    assert t is same
    want = ((((a + b) - np.float32(1)) * np.float32(2.5)) / b).astype(np.float32)
    np.testing.assert_array_equal(N(t), want)
    r2 = t.add_(1)
    assert r2 is t
    i = T(np.array([1, 2], np.int32), device)
    i += T(np.array([10, 20]), device)     # int64 operand, int32 result
    assert i.dtype == mt.int32 and N(i).tolist() == [11, 22]
    c = T(np.array([1.0], np.float32), device)
    c += T(np.array([0.5], np.float64), device)
    assert c.dtype == mt.float32 and N(c).tolist() == [1.5]
    d = T(np.array([1, 2]), device)
    d += True
    assert N(d).tolist() == [2, 3]
    f = T(np.array([1.0, 2.0], np.float32), device)
    f.mul_(T(np.array([2, 3]), device))
    assert f.dtype == mt.float32 and N(f).tolist() == [2.0, 6.0]


def test_inplace_cast_errors():
    for fn, src, dst in [(lambda: T(np.array([1, 2])).add_(1.5), "Float", "Long"),
                         (lambda: T(np.array([1, 2], np.int32)).mul_(2.5), "Float", "Int"),
                         (lambda: T(np.array([4, 6])).div_(2), "Float", "Long"),
                         (lambda: T(np.array([True])).add_(1), "Long", "Bool"),
                         (lambda: T(np.array([1])).exp_(), "Float", "Long"),
                         (lambda: T(np.array([1])).sqrt_(), "Float", "Long")]:
        with pytest.raises(RuntimeError,
                           match=r"^result type %s can't be cast to the desired output type %s$" % (src, dst)):
            fn()
    a = T(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="can't be cast"):
        a += 1.5
    with pytest.raises(RuntimeError, match="can't be cast"):
        a /= 2
    assert N(a).tolist() == [1, 2]


def test_inplace_broadcast_and_overlap_errors():
    a = mt.zeros(3)
    with pytest.raises(RuntimeError, match=r"^output with shape \[3\] doesn't match the broadcast shape "
                                           r"\[2, 3\]$"):
        a += mt.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b "
                                           r"\(4\) at non-singleton dimension 0$"):
        a.add_(mt.ones(4))
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape "
                                           r"\[1, 3\]"):
        a.add_(mt.ones(1, 3))
    b = mt.ones(1, 3)
    b.add_(mt.ones(3))
    assert N(b).tolist() == [[2.0, 2.0, 2.0]]
    if hasattr(mt.Tensor, "expand"):
        with pytest.raises(RuntimeError, match=r"^unsupported operation: more than one element of the "
                                               r"written-to tensor refers to a single memory location\. Please "
                                               r"clone\(\) the tensor before performing the operation\.$"):
            mt.ones(3).expand(2, 3).add_(1)


def test_inplace_partial_overlap_error():
    a = mt.arange(6.0) if hasattr(mt, "arange") else None
    try:
        x, y = a[1:], a[:-1]
    except Exception:
        pytest.skip("slicing is not available")
    with pytest.raises(RuntimeError, match=r"^unsupported operation: some elements of the input tensor and "
                                           r"the written-to tensor refer to a single memory location\. Please "
                                           r"clone\(\) the tensor before performing the operation\.$"):
        x.add_(y)
    a.add_(a)   # full overlap is fine
    assert N(a).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]


# ---- unary ------------------------------------------------------------------------------------------

def test_unary_math_matches_numpy(device):
    r = rng(7)
    for dt in DTYPES:
        a = rand(r, (5, 13), dt)
        t = T(a, device)
        pos = T(np.abs(a).astype(NP[dt]) if dt != mt.bool else a, device)
        for name, fn in (("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt)):
            src = pos if name != "exp" else t
            res = getattr(mt, name)(src)
            want_dt = dt if is_float(dt) else mt.float32
            assert res.dtype == want_dt
            with np.errstate(all="ignore"):
                want = fn(N(src).astype(NP[want_dt]))
            got = N(res)
            if name == "sqrt" and device != "cpu":
                np.testing.assert_array_equal(got, want)
            elif name == "sqrt":
                # the CPU's sqrt may be torch's (MKL's: within 0.75 ulp; test_math_ops.py checks it against
                # torch's bit for bit)
                np.testing.assert_allclose(got, want, rtol=1.8e-7 if want_dt == mt.float32 else 3.4e-16, atol=0)
            else:
                # torch uses SLEEF (1 ulp); libm may differ from it in the last place
                np.testing.assert_allclose(got, want, rtol=3e-7 if want_dt == mt.float32 else 1e-15, atol=0)
        if dt == mt.bool:
            continue
        np.testing.assert_array_equal(N(-t), -a)
        np.testing.assert_array_equal(N(t.neg()), -a)
        np.testing.assert_array_equal(N(abs(t)), np.abs(a))
        np.testing.assert_array_equal(N(mt.abs(t)), np.abs(a))
        np.testing.assert_array_equal(N(t.relu()), np.where(a < 0, 0, a).astype(a.dtype))
        assert t.relu().dtype == dt and mt.abs(t).dtype == dt


def test_unary_special_values():
    res = N(mt.log(mt.tensor([0.0, -1.0, 1.0])))
    assert res[0] == -np.inf and np.isnan(res[1]) and res[2] == 0.0
    assert np.isnan(N(mt.sqrt(mt.tensor([-1.0])))[0])
    assert N(mt.exp(mt.tensor([100.0, -200.0]))).tolist() == [np.inf, 0.0]
    relu = N(mt.relu(mt.tensor([-1.5, 0.0, 2.0, -0.0, float("nan")])))
    assert relu[:3].tolist() == [0.0, 0.0, 2.0]
    assert np.signbit(relu[3]) and np.isnan(relu[4])   # relu keeps -0.0 and NaN, like torch
    assert mt.sqrt(mt.tensor([True, False])).tolist() == [1.0, 0.0]
    assert (1 / mt.tensor([2, 4])).tolist() == [0.5, 0.25]


def test_unary_inplace(device):
    a = T(np.array([-1.5, 0.25, 4.0], np.float32), device)
    same = a
    a.abs_().sqrt_()
    assert a is same
    np.testing.assert_array_equal(N(a), np.sqrt(np.abs(np.array([-1.5, 0.25, 4.0], np.float32))))
    b = T(np.array([1, -2]), device)
    assert b.relu_() is b and N(b).tolist() == [1, 0]
    assert mt.relu_(T(np.array([-1.0, 1.0]), device)).tolist() == [0.0, 1.0]
    c = T(np.array([1.0, -2.0]), device)
    mt.neg_(c)
    assert N(c).tolist() == [-1.0, 2.0]


def test_argument_errors():
    t = mt.ones(3)
    with pytest.raises(TypeError, match=r"^add\(\): argument 'other' \(position 2\) must be Tensor, not str$"):
        mt.add(t, "a")
    with pytest.raises(TypeError, match=r"^add\(\): argument 'other' \(position 1\) must be Tensor, not str$"):
        t.add("a")
    with pytest.raises(TypeError, match=r"^add\(\): argument 'input' \(position 1\) must be Tensor, not str$"):
        mt.add("a", t)
    with pytest.raises(TypeError, match=r"^exp\(\): argument 'input' \(position 1\) must be Tensor, not float$"):
        mt.exp(1.0)
    with pytest.raises(TypeError, match=r'^mul\(\) missing 1 required positional arguments: "other"$'):
        t.mul()
    with pytest.raises(TypeError, match=r"^add\(\) got multiple values for argument 'other'$"):
        mt.add(t, t, other=t)
    with pytest.raises(TypeError, match=r"takes no arguments \(1 given\)$"):
        t.exp(1)
    with pytest.raises(TypeError, match=r"^eq\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, str\), but expected one of:\n"):
        mt.eq(t, "a")


# ---- comparisons and maximum/minimum ------------------------------------------------------------------

@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons_match_numpy(device, op):
    r = rng(8)
    npop = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
            "ge": np.greater_equal}[op]
    pyop = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}[op]
    for da in DTYPES:
        for db in DTYPES:
            a = rand(r, (3, 4), da)
            b = rand(r, (4,), db)
            a.flat[0] = 1
            b.flat[0] = 1   # make sure some elements are equal
            res = getattr(mt, op)(T(a, device), T(b, device))
            assert res.dtype == mt.bool
            common = promote(da, db)
            want = npop(a.astype(NP[common]), b.astype(NP[common]))
            np.testing.assert_array_equal(N(res), want)
            np.testing.assert_array_equal(N(getattr(T(a, device), pyop)(T(b, device))), want)
        for s in (1, 2.5, True, -3):
            res = getattr(T(a, device), op)(s)
            common = expected_result_type([da], [], [s])
            np.testing.assert_array_equal(N(res), npop(a.astype(NP[common]), np.asarray(s).astype(NP[common])))


def test_comparisons_with_non_numbers():
    t = mt.tensor([1, 2])
    assert (t == None) is False   # noqa: E711
    assert (t != None) is True    # noqa: E711
    assert (t == "a") is False
    assert (t == [1, 2]) is False
    assert t.__eq__(None) is NotImplemented
    with pytest.raises(TypeError, match=r"^'<' not supported between instances of '.*Tensor' and 'NoneType'$"):
        t < None
    assert N(2 < mt.tensor([1.0, 3.0])).tolist() == [False, True]
    assert N(mt.tensor([16777217]) == 16777217.0).tolist() == [True]   # compared in float32
    nan = mt.tensor([float("nan")])
    assert N(nan == nan).tolist() == [False] and N(nan != nan).tolist() == [True]


def test_unsupported_operands_raise_type_error():
    t = mt.ones(2)
    for fn, sym in ((lambda: t + "a", "+"), (lambda: t * None, r"\*"), (lambda: [1] - t, "-"),
                    (lambda: t / object(), "/")):
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for %s" % sym):
            fn()
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+=:"):
        t += "a"
    assert t.__add__("a") is NotImplemented
    assert t.__radd__(None) is NotImplemented


def test_maximum_minimum(device):
    r = rng(9)
    a = rand(r, (6, 5), mt.float32)
    b = rand(r, (5,), mt.float32)
    a[0, 0] = np.nan
    b[1] = np.nan
    np.testing.assert_array_equal(N(mt.maximum(T(a, device), T(b, device))), np.maximum(a, b))
    np.testing.assert_array_equal(N(mt.minimum(T(a, device), T(b, device))), np.minimum(a, b))
    i = T(np.array([1, 5, 3]), device)
    assert N(i.maximum(T(np.array([2.5, 0.0, 3.0]), device))).tolist() == [2.5, 5.0, 3.0]
    with pytest.raises(TypeError, match=r"^maximum\(\): argument 'other' \(position 2\) must be Tensor, not int$"):
        mt.maximum(i, 1)


def test_inplace_comparisons_and_reciprocal(device):
    a = T(np.array([1.0, 2.0, 3.0], np.float32), device)
    assert a.eq_(2) is a and N(a).tolist() == [0.0, 1.0, 0.0] and a.dtype == mt.float32
    i = T(np.array([1, 2]), device)
    i.lt_(T(np.array([1.5, 1.5]), device))
    assert N(i).tolist() == [1, 0]
    r = T(np.array([2, 4, -8]), device).reciprocal()
    assert r.dtype == mt.float32 and N(r).tolist() == [0.5, 0.25, -0.125]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        T(np.array([2]), device).reciprocal_()


# ---- layout of results -------------------------------------------------------------------------------

def test_result_layout_follows_inputs():
    if not hasattr(mt.Tensor, "t"):
        pytest.skip("t() is not available")
    x = mt.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3)).t()
    assert (x + 1).stride() == (1, 3)
    assert mt.exp(x).stride() == (1, 3)
    assert (x > 0).stride() == (1, 3)
    assert (x + mt.ones(3, 2)).stride() == (1, 3)
    assert (mt.ones(3, 2) + x).stride() == (2, 1)
    assert (mt.ones(4, 1) + mt.ones(3)).stride() == (3, 1)
    np.testing.assert_array_equal(N(x * 2), np.arange(6.0, dtype=np.float32).reshape(2, 3).T * 2)


# ---- devices -----------------------------------------------------------------------------------------

def test_results_stay_on_device(device):
    a = T(np.array([1.0, 2.0], np.float32), device)
    for res in (a + 1, a * a, -a, a.exp(), a == 1, 2 / a, mt.maximum(a, a)):
        assert res.device.type == device


SIMULATED_DEVICE_SCRIPT = r"""
import minitorch as mt
x = mt.tensor([1.0, 2.0]).cuda()
y = mt.tensor([1.0, 2.0])
for f in (lambda: x + y, lambda: y + x, lambda: y.add_(x), lambda: mt.maximum(y, x), lambda: x == y):
    try:
        f()
        print("no error")
    except RuntimeError as e:
        print(e)
r = x + mt.tensor(2.0)
print(r.device, r.tolist())
r = mt.tensor(2.0) * x
print(r.device, r.tolist())
try:
    mt.tensor(2.0).add_(mt.tensor(1.0).cuda())
except RuntimeError as e:
    print(e)
print((x.sum() + mt.tensor(1)).device)
"""


def test_device_mismatch_messages_on_simulated_gpu():
    lines = python_output(SIMULATED_DEVICE_SCRIPT, simulate_gpu=1).splitlines()
    msg = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    assert lines[:5] == [msg] * 5
    assert lines[5] == "cuda:0 [3.0, 4.0]"
    assert lines[6] == "cuda:0 [2.0, 4.0]"
    assert lines[7] == msg
    assert lines[8] == "cuda:0"


# ---- bit-for-bit parity with torch -------------------------------------------------------------------

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def test_parity_with_torch_arithmetic(torch):
    r = rng(10)
    tdt = {mt.bool: torch.bool, mt.int32: torch.int32, mt.int64: torch.int64, mt.float32: torch.float32,
           mt.float64: torch.float64}
    for da in DTYPES:
        for db in DTYPES:
            a = rand(r, (5, 7), da)
            b = rand(r, (7,), db, nonzero=True)
            ta, tb = torch.from_numpy(np.array(a)), torch.from_numpy(np.array(b))
            ma, mb = T(a), T(b)
            for op in ("add", "mul", "div", "sub", "eq", "lt", "maximum"):
                if op == "sub" and mt.bool in (da, db):
                    continue
                want = getattr(torch, op)(ta, tb)
                got = getattr(mt, op)(ma, mb)
                assert tdt[got.dtype] == want.dtype
                np.testing.assert_array_equal(N(got), want.numpy())
            for s in (2, 2.5, 0.1, True):
                for f in (lambda x: x + s, lambda x: x * s, lambda x: s / x, lambda x: x / s,
                          lambda x: torch.add(x, x, alpha=3) if isinstance(x, torch.Tensor) else mt.add(x, x, alpha=3)):
                    want, got = f(ta), f(ma)
                    assert tdt[got.dtype] == want.dtype
                    np.testing.assert_array_equal(N(got), want.numpy())
    x = (r.standard_normal(1000) * 3).astype(np.float32)
    for name in ("exp", "log", "sqrt", "relu", "neg", "abs", "reciprocal"):
        src = np.abs(x) if name in ("log", "sqrt") else x
        want = getattr(torch, name)(torch.from_numpy(src)).numpy()
        got = N(getattr(mt, name)(T(src)))
        if name in ("exp", "log", "sqrt"):
            # torch's CPU build computes these with MKL VML / SLEEF (about 1 ulp); minitorch uses libm
            np.testing.assert_allclose(got, want, rtol=2.5e-7, atol=0)
        else:
            np.testing.assert_array_equal(got, want)


def test_parity_with_torch_messages(torch):
    cases = ["torch.tensor([1, 2]) + 1.5", "torch.tensor([True]) - torch.tensor([True])",
             "torch.tensor([1]).add_(1.5)", "torch.zeros(3).add_(torch.ones(2, 3))",
             "torch.add(torch.tensor([1]), torch.tensor([1]), alpha=0.5)", "-torch.tensor([True])",
             "torch.relu(torch.tensor([True]))", "torch.abs(torch.tensor([True]))",
             "torch.ones(2, 3) + torch.ones(3, 2)", "torch.add(torch.ones(1), 'a')",
             "torch.ones(1).add('a')", "torch.exp(1.0)", "torch.ones(1).mul()",
             "torch.ones(1).eq('a')", "torch.eq(torch.ones(1), None)", "torch.ones(1).div()"]
    for code in cases:
        results = []
        for mod in (torch, mt):
            try:
                eval(code, {"torch": mod})
                results.append(None)
            except Exception as e:  # noqa: BLE001
                results.append((type(e).__name__, str(e).replace("minitorch", "torch")))
        assert results[0] == results[1], code
