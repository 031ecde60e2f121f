"""Reductions: sum and mean (dims as int/tuple/None, negative dims, keepdim, dtype=), max/min (whole
tensor, along a dim as minitorch.return_types.max/min, of two tensors), all/any, argmax/argmin.
Values are checked against a float64 NumPy reference on random inputs with odd shapes, integer
results exactly, dtypes against torch's rules, errors by type and message. Where real torch is
importable, float sums must equal torch's bit for bit: minitorch reproduces torch's summation order,
so printed sums agree digit for digit."""

import itertools

import numpy as np
import pytest

import minitorch as mt
from subproc import python_output

NP = {mt.bool: np.bool_, mt.int32: np.int32, mt.int64: np.int64, mt.float32: np.float32,
      mt.float64: np.float64}
DTYPES = list(NP)


def rand(r, shape, dtype):
    if dtype == mt.bool:
        return np.asarray(r.random(shape) > 0.5)
    if dtype in (mt.int32, mt.int64):
        return np.asarray(r.integers(-100, 100, shape).astype(NP[dtype]))
    return np.asarray((r.standard_normal(shape) * 3).astype(NP[dtype]))


def T(a, device="cpu"):
    t = mt.tensor(np.asarray(a))
    return t if device == "cpu" else t.to(device)


def N(t):
    return np.array(t.cpu().tolist(), dtype=NP[t.dtype]).reshape(tuple(t.shape))


SHAPES = [(7,), (3, 5), (4, 1, 6), (2, 3, 4, 5), (1,), (33, 17)]


def dim_choices(ndim):
    yield None
    for d in range(ndim):
        yield d
        yield d - ndim
    if ndim >= 2:
        for c in itertools.combinations(range(ndim), 2):
            yield c
        yield list(range(ndim))


# ---- sum ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_values_and_dtypes(device, shape):
    r = np.random.default_rng(len(shape) * 7 + shape[0])
    for dt in DTYPES:
        a = rand(r, shape, dt)
        t = T(a, device)
        for dim in dim_choices(len(shape)):
            for keepdim in (False, True):
                res = t.sum() if dim is None else t.sum(dim, keepdim=keepdim)
                axis = None if dim is None else (tuple(dim) if isinstance(dim, (list, tuple)) else dim)
                kd = keepdim and dim is not None
                want_dt = dt if dt in (mt.float32, mt.float64) else mt.int64
                assert res.dtype == want_dt
                assert res.device.type == device
                ref = a.astype(np.float64 if want_dt in (mt.float32, mt.float64) else np.int64).sum(
                    axis=axis, keepdims=kd)
                assert tuple(res.shape) == ref.shape
                if want_dt == mt.int64:
                    np.testing.assert_array_equal(N(res), ref)
                else:
                    tol = 1e-5 if dt == mt.float32 else 1e-12
                    np.testing.assert_allclose(N(res), ref, rtol=tol, atol=tol * 10)


def test_sum_forms_and_dtype_argument():
    a = np.arange(24).reshape(2, 3, 4)
    t = T(a)
    assert N(mt.sum(t)).tolist() == 276
    assert N(mt.sum(t, 0)).tolist() == a.sum(0).tolist()
    assert N(mt.sum(t, dim=1)).tolist() == a.sum(1).tolist()
    assert N(t.sum(-1)).tolist() == a.sum(-1).tolist()
    assert tuple(t.sum(1, keepdim=True).shape) == (2, 1, 4)
    assert N(t.sum((0, 2))).tolist() == a.sum((0, 2)).tolist()
    assert N(t.sum(dim=[0, -1], keepdim=True)).tolist() == a.sum((0, 2), keepdims=True).tolist()
    assert N(t.sum(())).tolist() == 276 and N(t.sum(dim=None)).tolist() == 276
    assert N(t.sum(axis=0)).tolist() == a.sum(0).tolist()
    assert N(t.sum(0, True)).shape == (1, 3, 4)
    assert t.sum(dtype=mt.float32).dtype == mt.float32
    assert t.sum(dtype=mt.int32).dtype == mt.int32
    f = T(np.array([[1.5, -2.0, 3.0], [0.5, 7.0, -1.0]], np.float32))
    assert N(f.sum(0, dtype=mt.int64)).tolist() == [1, 5, 2]     # cast first, then summed
    assert f.sum(dtype=mt.float64).dtype == mt.float64
    assert T(np.array([1, 2], np.int32)).sum().dtype == mt.int64
    assert N(T(np.array([True, True, False])).sum()).tolist() == 2
    assert N(T(np.array([1, 2], np.int32)).sum(dtype=mt.bool)).tolist() is True


def test_sum_empty_and_zero_dim():
    assert N(mt.zeros(0).sum()).tolist() == 0.0
    assert N(mt.zeros(0, 3).sum(0)).tolist() == [0.0, 0.0, 0.0]
    assert tuple(mt.zeros(0, 3).sum(1).shape) == (0,)
    assert N(mt.zeros(2, 0).sum(1)).tolist() == [0.0, 0.0]
    five = mt.tensor(5)
    assert N(five.sum()).tolist() == 5 and N(five.sum(0)).tolist() == 5 and N(five.sum(-1)).tolist() == 5
    assert tuple(mt.tensor(5.0).sum(0, keepdim=True).shape) == ()


def test_sum_dim_errors():
    t = mt.zeros(2, 3)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-2, 1\], "
                                         r"but got 2\)$"):
        t.sum(2)
    with pytest.raises(IndexError, match=r"but got -3\)$"):
        t.sum(-3)
    with pytest.raises(IndexError, match=r"but got 5\)$"):
        t.sum((0, 5))
    with pytest.raises(RuntimeError, match=r"^dim 0 appears multiple times in the list of dims$"):
        t.sum((0, -2))
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'keepdim' \(position 2\) must be bool, not int$"):
        t.sum(0, 1)
    with pytest.raises(TypeError, match=r"^sum\(\) received an invalid combination of arguments - got \(str\), "
                                        r"but expected one of:\n"):
        t.sum("a")
    with pytest.raises(TypeError, match="failed to unpack the object at pos 2"):
        t.sum([0, 1.0])
    with pytest.raises(TypeError, match=r"^sum\(\): argument 'input' \(position 1\) must be Tensor, not str$"):
        mt.sum("a")


# ---- mean --------------------------------------------------------------------------------------------

def test_mean_values(device):
    r = np.random.default_rng(11)
    for dt in (mt.float32, mt.float64):
        a = rand(r, (5, 7, 3), dt)
        t = T(a, device)
        for dim in dim_choices(3):
            axis = None if dim is None else (tuple(dim) if isinstance(dim, (list, tuple)) else dim)
            res = t.mean() if dim is None else t.mean(dim)
            assert res.dtype == dt
            tol = 1e-5 if dt == mt.float32 else 1e-12
            np.testing.assert_allclose(N(res), a.astype(np.float64).mean(axis=axis), rtol=tol, atol=tol)
    i = T(np.array([1, 2]))
    assert N(i.mean(dtype=mt.float32)).tolist() == 1.5
    assert N(mt.mean(T(np.array([[1.0, 2.0], [3.0, 4.0]])), -1)).tolist() == [1.5, 3.5]
    assert N(T(np.array([[1.0, 2.0], [3.0, 4.0]])).mean(dim=1, keepdim=True)).tolist() == [[1.5], [3.5]]
    assert np.isnan(N(mt.zeros(0).mean()))
    assert np.isnan(N(mt.zeros(0, 3).mean(0))).all()


def test_mean_dtype_errors():
    for t, name in ((T(np.array([1, 2])), "Long"), (T(np.array([1, 2], np.int32)), "Int"),
                    (T(np.array([True])), "Bool")):
        with pytest.raises(RuntimeError, match=r"^mean\(\): could not infer output dtype\. Input dtype must be "
                                               r"either a floating point or complex dtype\. Got: %s$" % name):
            t.mean()
    with pytest.raises(RuntimeError, match=r"^mean\(\): could not infer output dtype\. Optional dtype must be "
                                           r"either a floating point or complex dtype\. Got: Long$"):
        mt.ones(2).mean(dtype=mt.int64)


# ---- max / min ---------------------------------------------------------------------------------------

def test_max_min_whole(device):
    r = np.random.default_rng(12)
    for dt in DTYPES:
        a = rand(r, (6, 9), dt)
        t = T(a, device)
        assert N(t.max()).tolist() == a.max().tolist() and t.max().dtype == dt
        assert N(mt.min(t)).tolist() == a.min().tolist()
        assert t.max().shape == ()
    x = T(np.array([1.0, float("nan"), 3.0]))
    assert np.isnan(N(x.max())) and np.isnan(N(x.min()))
    assert N(mt.tensor(4.0).max()).tolist() == 4.0


def test_max_min_empty_errors():
    for name in ("max", "min"):
        with pytest.raises(RuntimeError, match=r"^%s\(\): Expected reduction dim to be specified for "
                                               r"input\.numel\(\) == 0\. Specify the reduction dim with the 'dim' "
                                               r"argument\.$" % name):
            getattr(mt.zeros(0), name)()
        with pytest.raises(IndexError, match=r"^%s\(\): Expected reduction dim 0 to have non-zero size\.$" % name):
            getattr(mt.zeros(0, 3), name)(0)
        with pytest.raises(IndexError, match=r"^%s\(\): Expected reduction dim 0 to have non-zero size\.$" % name):
            getattr(mt.zeros(0, 3), name)(-2)
    r = mt.zeros(0, 3).max(1)
    assert tuple(r.values.shape) == (0,) and r.indices.dtype == mt.int64


def test_max_dim_named_tuple(device):
    r = np.random.default_rng(13)
    for dt in DTYPES:
        a = rand(r, (4, 7, 5), dt)
        t = T(a, device)
        for dim in range(-3, 3):
            for keepdim in (False, True):
                for name, npf, argf in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
                    res = getattr(t, name)(dim, keepdim=keepdim)
                    assert type(res).__name__ == name and len(res) == 2
                    values, indices = res
                    assert res.values is values and res.indices is indices and res[1] is indices
                    np.testing.assert_array_equal(N(values), npf(a, axis=dim, keepdims=keepdim))
                    np.testing.assert_array_equal(N(indices), argf(a, axis=dim) if not keepdim
                                                  else np.expand_dims(argf(a, axis=dim), dim))
                    assert values.dtype == dt and indices.dtype == mt.int64
                    assert values.device.type == device and indices.device.type == device


def test_max_dim_ties_nan_and_repr():
    a = mt.tensor([[1, 3, 3], [2, 2, 1]])
    assert N(a.max(1).indices).tolist() == [1, 0]
    assert N(a.min(1).indices).tolist() == [0, 2]
    n = float("nan")
    assert N(mt.tensor([n, 1.0, n]).max(0).indices).tolist() == 0
    assert N(mt.tensor([1.0, n, n]).min(0).indices).tolist() == 1
    assert N(mt.tensor([[1.0, n], [3.0, 4.0]]).argmax(1)).tolist() == [1, 1]
    r = mt.tensor([[3, 7, 1], [9, 2, 5]]).max(dim=1)
    assert repr(r) == "minitorch.return_types.max(\nvalues=tensor([7, 9]),\nindices=tensor([1, 0]))"
    assert str(r) == repr(r)
    assert type(r).__module__ == "minitorch.return_types"
    import minitorch.return_types as rt
    assert type(r) is rt.max and type(mt.tensor([1]).min(0)) is rt.min and mt._C.return_types is rt
    v, i = mt.max(mt.tensor([[1.0, 5.0], [7.0, 2.0]]), 0)
    assert N(v).tolist() == [7.0, 5.0] and N(i).tolist() == [1, 0]
    k = mt.min(mt.tensor([[1.0, 5.0], [7.0, 2.0]]), -1, True)
    assert N(k.values).tolist() == [[1.0], [2.0]]
    z = mt.tensor(5.0).max(0)
    assert N(z.values).tolist() == 5.0 and N(z.indices).tolist() == 0


def test_return_types_exported():
    if not hasattr(mt, "return_types"):
        pytest.skip("minitorch/__init__.py does not re-export _C.return_types yet")
    assert mt.return_types.max is type(mt.ones(2).max(0))


def test_max_min_of_two_tensors(device):
    a = T(np.array([[1.5, -2.0, 3.0], [0.5, 7.0, -1.0]], np.float32), device)
    b = T(np.zeros(3, np.float32), device)
    assert N(mt.max(a, b)).tolist() == [[1.5, 0.0, 3.0], [0.5, 7.0, 0.0]]
    assert N(a.min(b)).tolist() == [[0.0, -2.0, 0.0], [0.0, 0.0, -1.0]]
    assert mt.max(T(np.array([1, 2, 3]), device), a).dtype == mt.float32
    assert N(mt.max(a, other=b)).tolist() == N(mt.maximum(a, b)).tolist()


def test_max_argument_errors():
    t = mt.ones(2, 3)
    with pytest.raises(TypeError, match=r"^max\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, float\), but expected one of:\n \* \(Tensor input, \*, Tensor "
                                        r"out = None\)\n"):
        mt.max(t, 2.0)
    with pytest.raises(TypeError, match=r"^max\(\): argument 'keepdim' \(position 2\) must be bool, not int$"):
        t.max(0, 1)
    with pytest.raises(IndexError, match=r"but got 5\)$"):
        t.max(5)


# ---- all / any ---------------------------------------------------------------------------------------

def test_all_any(device):
    r = np.random.default_rng(14)
    for dt in DTYPES:
        a = rand(r, (5, 4, 3), dt)
        if dt != mt.bool:
            a[a < 0] = 0
        t = T(a, device)
        for dim in dim_choices(3):
            for keepdim in (False, True):
                axis = None if dim is None else (tuple(dim) if isinstance(dim, (list, tuple)) else dim)
                kd = keepdim and dim is not None
                for name in ("all", "any"):
                    res = getattr(t, name)() if dim is None else getattr(t, name)(dim, keepdim=keepdim)
                    assert res.dtype == mt.bool
                    np.testing.assert_array_equal(N(res), getattr(np, name)(a != 0, axis=axis, keepdims=kd))
    assert N(mt.zeros(0).all()).tolist() is True and N(mt.zeros(0).any()).tolist() is False
    assert N(mt.zeros(2, 0).all(1)).tolist() == [True, True]
    assert N(mt.tensor([float("nan")]).all()).tolist() is True
    t = mt.tensor([[1.0, 0.0], [2.0, 3.0]])
    assert N(t.all(())).tolist() == [[True, False], [True, True]]   # all(dim=()) reduces nothing
    assert N(mt.all(t, 0)).tolist() == [True, False] and N(mt.any(t, -1)).tolist() == [True, True]
    assert N(t.all(None)).tolist() is False


# ---- argmax / argmin ---------------------------------------------------------------------------------

def test_argmax_argmin(device):
    r = np.random.default_rng(15)
    for dt in (mt.int32, mt.int64, mt.float32, mt.float64):
        a = rand(r, (4, 6, 5), dt)
        t = T(a, device)
        assert N(t.argmax()).tolist() == int(np.argmax(a))
        assert N(mt.argmin(t)).tolist() == int(np.argmin(a))
        assert tuple(t.argmax(keepdim=True).shape) == (1, 1, 1)
        for dim in range(-3, 3):
            np.testing.assert_array_equal(N(t.argmax(dim)), np.argmax(a, axis=dim))
            np.testing.assert_array_equal(N(t.argmin(dim=dim, keepdim=True)),
                                          np.expand_dims(np.argmin(a, axis=dim), dim))
    assert N(mt.tensor([3.0, 3.0, 1.0]).argmax()).tolist() == 0
    assert N(mt.tensor([1.0, 3.0, 3.0]).argmin()).tolist() == 0
    assert N(mt.tensor(3.0).argmax()).tolist() == 0 and N(mt.tensor(3.0).argmax(0)).tolist() == 0
    assert N(mt.zeros(2, 0).argmax(0)).shape == (0,)


def test_argmax_errors():
    with pytest.raises(IndexError, match=r"^argmax\(\): Expected reduction dim to be specified for "
                                         r"input\.numel\(\) == 0\.$"):
        mt.zeros(0).argmax()
    with pytest.raises(IndexError, match=r"^argmin\(\): Expected reduction dim 0 to have non-zero size\.$"):
        mt.zeros(0, 3).argmin(-2)
    with pytest.raises(RuntimeError, match=r"^argmax\(\): does not support bool input$"):
        mt.tensor([True, False]).argmax()
    with pytest.raises(TypeError, match=r"^argmax\(\): argument 'dim' \(position 1\) must be int, not str$"):
        mt.ones(2).argmax("a")
    with pytest.raises(TypeError, match=r"^argmax\(\): argument 'keepdim' \(position 2\) must be bool, not int$"):
        mt.ones(2).argmax(0, 1)


# ---- non-contiguous inputs -----------------------------------------------------------------------------

def test_reductions_on_transposed_inputs():
    if not hasattr(mt.Tensor, "t"):
        pytest.skip("t() is not available")
    a = np.random.default_rng(16).standard_normal((6, 9)).astype(np.float32)
    t = T(a).t()
    np.testing.assert_allclose(N(t.sum(0)), a.T.astype(np.float64).sum(0), rtol=1e-5)
    np.testing.assert_array_equal(N(t.argmax(1)), np.argmax(a.T, 1))
    np.testing.assert_array_equal(N(t.max(0).values), a.T.max(0))
    assert N(t.argmax()).tolist() == int(np.argmax(a.T))
    assert t.sum(0).is_contiguous()


# ---- torch parity -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


PARITY_SHAPES = [(5,), (16,), (17,), (100,), (4097,), (3, 5), (7, 33), (33, 7), (64, 65), (2, 3, 40), (5, 17, 19),
                 (3, 1, 20), (50, 1), (8, 130), (300, 20), (4, 5, 6, 7), (40000,), (300, 200), (50000, 3),
                 (3, 50000), (100, 20, 30)]


@pytest.mark.parametrize("shape", PARITY_SHAPES, ids=str)
def test_float_sums_equal_torch_bit_for_bit(torch, shape):
    r = np.random.default_rng(sum(shape))
    for dt in (np.float32, np.float64):
        a = r.standard_normal(shape).astype(dt)
        ta, ma = torch.from_numpy(a), T(a)
        nd = len(shape)
        dims = [None] + list(range(nd)) + (list(itertools.combinations(range(nd), 2)) if nd >= 3 else [])
        for dim in dims:
            if dim is None:
                pairs = [(ta.sum(), ma.sum()), (ta.mean(), ma.mean())]
            else:
                pairs = [(ta.sum(dim), ma.sum(dim)), (ta.sum(dim, keepdim=True), ma.sum(dim, keepdim=True)),
                         (ta.mean(dim), ma.mean(dim))]
            for want, got in pairs:
                np.testing.assert_array_equal(N(got), want.numpy(), err_msg=str((dt, shape, dim)))


def test_printed_sums_equal_torch(torch):
    r = np.random.default_rng(17)
    for n in (10, 100, 1000, 12345):
        a = r.standard_normal((n,)).astype(np.float32)
        assert str(T(a).sum()) == str(torch.from_numpy(a).sum())
        assert str(T(a).mean()) == str(torch.from_numpy(a).mean())
        b = a[: min(n // 10, 100) * 10].reshape(10, -1)   # at most 1000 outputs: printed in full
        assert str(T(b).sum(1)) == str(torch.from_numpy(b).sum(1))
        assert str(T(b).sum(0)) == str(torch.from_numpy(b).sum(0))


def test_reduction_messages_match_torch(torch):
    cases = ["torch.tensor([1, 2]).mean()", "torch.zeros(0).max()", "torch.zeros(0, 3).max(0)",
             "torch.zeros(0).argmax()", "torch.tensor([True]).argmax()", "torch.zeros(2, 3).sum(2)",
             "torch.zeros(2, 3).sum((0, -2))", "torch.zeros(2, 3).sum('a')", "torch.zeros(2, 3).max(0, 1)",
             "torch.max(torch.zeros(2), 2.0)", "torch.zeros(2).mean(dtype=torch.int64)",
             "torch.zeros(2, 3).sum(0, 1)", "torch.zeros(2).argmax('a')"]
    for code in cases:
        results = []
        for mod in (torch, mt):
            try:
                eval(code, {"torch": mod})
                results.append(None)
            except Exception as e:  # noqa: BLE001
                results.append((type(e).__name__, str(e).replace("minitorch", "torch")))
        assert results[0] == results[1], code


SIMULATED_SCRIPT = r"""
import minitorch as mt
x = mt.tensor([[1.0, 5.0], [7.0, 2.0]]).cuda()
for r in (x.sum(), x.sum(0), x.mean(1), x.max(), x.all(), x.argmax(), x.max(0).values, x.max(0).indices):
    print(r.device, r.tolist())
"""


def test_reductions_on_simulated_gpu():
    out = python_output(SIMULATED_SCRIPT, simulate_gpu=1)
    assert out.splitlines() == ["cuda:0 15.0", "cuda:0 [8.0, 7.0]", "cuda:0 [3.0, 4.5]", "cuda:0 7.0",
                                       "cuda:0 True", "cuda:0 2", "cuda:0 [7.0, 5.0]", "cuda:0 [1, 0]"]
