"""Interop: NumPy (from_numpy, Tensor.numpy, __array__, NumPy scalars and ufuncs), DLPack (__dlpack__,
__dlpack_device__, from_dlpack, to_dlpack; versioned and legacy capsules) and the buffer protocol.

What a user must be able to rely on: no copies (a write on one side is seen on the other), shapes,
strides and dtypes kept, either side may be deleted first, and torch's exceptions where torch has the
same behaviour. Capsules that minitorch cannot import are built here with ctypes so that the consumer
rules (rename on use, the deleter called exactly once) can be watched. The simulated-GPU checks run in a
subprocess with MINITORCH_SIMULATE_GPU=1."""

import ctypes
import gc
import os
import textwrap
import warnings
import weakref

import pytest

import minitorch
from subproc import python_output

np = pytest.importorskip("numpy")

try:
    import torch
except ImportError:  # the parity parts skip
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")

DTYPES = [
    (np.float32, minitorch.float32),
    (np.float64, minitorch.float64),
    (np.int32, minitorch.int32),
    (np.int64, minitorch.int64),
    (np.bool_, minitorch.bool),
]


def raises_like(exc_type, func, *args, **kwargs):
    with pytest.raises(exc_type) as info:
        func(*args, **kwargs)
    return str(info.value)


def torch_error(func):
    """(type, message) of what torch raises."""
    try:
        func()
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return type(e), str(e)
    raise AssertionError("torch did not raise")


def minitorch_error(func):
    try:
        func()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    raise AssertionError("minitorch did not raise")


def random_array(shape, np_dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np_dtype == np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(np_dtype, np.integer):
        return rng.integers(-1000, 1000, size=shape).astype(np_dtype)
    return rng.standard_normal(shape).astype(np_dtype)


def strided_cases(np_dtype):
    base = random_array((5, 7, 3), np_dtype, seed=1)
    return {
        "contiguous": base,
        "transposed": base.transpose(2, 0, 1),
        "sliced": base[1:4, ::2, 1:],
        "column": base[:, 3, :],
        "broadcast": np.broadcast_to(base[0, 0], (4, 3)),
        "zero-d": base[2, 3, 1, ...],
        "empty": base[:, :0],
    }


# ---- NumPy -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("np_dtype,mt_dtype", DTYPES)
@pytest.mark.parametrize("case", ["contiguous", "transposed", "sliced", "column", "broadcast", "zero-d", "empty"])
def test_from_numpy_shares_memory_and_keeps_layout(np_dtype, mt_dtype, case):
    a = strided_cases(np_dtype)[case]
    if case == "broadcast":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the read-only warning, tested below
            t = minitorch.from_numpy(a)
    else:
        t = minitorch.from_numpy(a)
    assert t.dtype == mt_dtype
    assert tuple(t.shape) == a.shape
    assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    assert t.storage_offset() == 0
    assert t.data_ptr() == a.__array_interface__["data"][0]
    assert t.tolist() == a.tolist()
    if a.size and case != "broadcast":
        idx = (0,) * a.ndim
        new = not a[idx] if np_dtype == np.bool_ else a[idx] + 3
        a[idx] = new
        assert t[idx].item() == a[idx].item()
        # (a Python scalar: torch itself refuses t[i] = np.float32(...), and minitorch agrees)
        t[idx] = (a[idx] * 2).item() if np_dtype != np.bool_ else True
        assert a[idx] == t[idx].item()


@needs_torch
@pytest.mark.parametrize("case", ["contiguous", "transposed", "sliced", "column", "zero-d", "empty"])
def test_from_numpy_strides_match_torch(case):
    a = strided_cases(np.float32)[case]
    assert minitorch.from_numpy(a).stride() == torch.from_numpy(a).stride()
    assert tuple(minitorch.from_numpy(a).shape) == tuple(torch.from_numpy(a).shape)


@pytest.mark.parametrize("np_dtype,mt_dtype", DTYPES)
def test_numpy_shares_memory(np_dtype, mt_dtype):
    t = minitorch.from_numpy(random_array((3, 4), np_dtype))
    a = t.numpy()
    assert a.dtype == np.dtype(np_dtype)
    assert a.flags.writeable
    assert a.__array_interface__["data"][0] == t.data_ptr()
    a[1, 2] = a[0, 0] if np_dtype == np.bool_ else 42
    assert t[1, 2].item() == a[1, 2].item()
    t[0, 1] = t[1, 1]
    assert a[0, 1] == a[1, 1]


@pytest.mark.parametrize("view", ["t", "transpose", "slice", "expand", "scalar", "empty"])
def test_numpy_keeps_strides_and_offset(view):
    base = minitorch.arange(24, dtype=minitorch.float64).reshape(2, 3, 4)
    t = {
        "t": base,
        "transpose": base.transpose(0, 2),
        "slice": base[1, 1:, ::2],
        "expand": base[0, 0, :1].expand(3, 5),
        "scalar": base[1, 2, 3],
        "empty": base[:, :0],
    }[view]
    a = t.numpy()
    assert a.shape == tuple(t.shape)
    assert a.strides == tuple(s * 8 for s in t.stride())
    assert a.tolist() == t.tolist()
    assert a.__array_interface__["data"][0] == t.data_ptr()


def test_numpy_of_fresh_tensors_round_trips_values():
    minitorch.manual_seed(0)
    for t in [minitorch.randn(5, 3), minitorch.randint(-9, 9, (4, 6)), minitorch.rand(7) > 0.5,
              minitorch.randn(3, 2, dtype=minitorch.float64), minitorch.tensor(3, dtype=minitorch.int32)]:
        a = t.numpy()
        back = minitorch.from_numpy(a)
        assert back.dtype == t.dtype and back.tolist() == t.tolist()
        assert back.data_ptr() == t.data_ptr()


@needs_torch
def test_numpy_matches_torch():
    values = [[1.5, -2.0, 3.25], [0.0, 7.0, -1.0]]
    for dtype in ["float32", "float64", "int32", "int64", "bool"]:
        a = minitorch.tensor(values, dtype=getattr(minitorch, dtype)).t().numpy()
        b = torch.tensor(values, dtype=getattr(torch, dtype)).t().numpy()
        assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
        assert (a == b).all()


def test_array_protocol():
    t = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
    a = np.asarray(t)
    assert a.dtype == np.float32 and a.tolist() == t.tolist()
    a[0, 0] = 9
    assert t[0, 0].item() == 9  # np.asarray shares memory, as with torch
    nc = t.t()
    b = np.asarray(nc)  # non-contiguous: through __array__, still shared
    b[0, 1] = -1
    assert t[1, 0].item() == -1
    assert np.asarray(nc, dtype=np.float64).dtype == np.float64
    c = np.array(nc, copy=True)
    c[0, 0] = 100
    assert t[0, 0].item() == 9
    assert np.asarray(nc, copy=False).__array_interface__["data"][0] == nc.data_ptr()
    with pytest.raises(ValueError):
        np.asarray(nc, dtype=np.int64, copy=False)
    assert t.__array__().dtype == np.float32
    assert t.__array__(np.float64).dtype == np.float64
    assert t.__array__(dtype=None, copy=True).__array_interface__["data"][0] != t.data_ptr()
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        t.__array__(np.int64, copy=False)


def test_numpy_scalars_are_python_scalars():
    t = minitorch.tensor([1.0, 2.0, 3.0])
    for result, expected in [
        (t + np.float64(2), [3.0, 4.0, 5.0]),
        (np.float64(2) + t, [3.0, 4.0, 5.0]),
        (np.float32(2) * t, [2.0, 4.0, 6.0]),
        (np.int64(1) - t, [0.0, -1.0, -2.0]),
        (t / np.int32(2), [0.5, 1.0, 1.5]),
        (minitorch.full((3,), np.float64(1.5)), [1.5, 1.5, 1.5]),
        (minitorch.zeros(3).fill_(np.int64(4)), [4.0, 4.0, 4.0]),
        (t.add(np.float64(1), alpha=np.int64(2)), [3.0, 4.0, 5.0]),
        (minitorch.add(t, np.float32(1)), [2.0, 3.0, 4.0]),
    ]:
        assert isinstance(result, minitorch.Tensor)
        assert result.dtype == minitorch.float32  # a NumPy scalar is a Python number to torch
        assert result.tolist() == expected
    assert (t > np.float64(1.5)).tolist() == [False, True, True]
    assert minitorch.zeros(np.int64(2), np.int32(3)).shape == (2, 3)
    assert minitorch.full((2,), np.int64(3)).dtype == minitorch.int64


def test_numpy_ufuncs_return_tensors():
    t = minitorch.tensor([0.0, 1.0, 2.0])
    r = np.sin(t)
    assert isinstance(r, minitorch.Tensor)
    assert r.tolist() == pytest.approx([0.0, 0.8414709848, 0.9092974268])
    g = np.greater(t, 0.5)
    assert isinstance(g, minitorch.Tensor) and g.tolist() == [False, True, True]


# ---- operators with NumPy operands ------------------------------------------------------------------
# NumPy defers to tensors (__array_priority__), then torch's own rules decide: == alone converts an
# ndarray (torch.from_numpy), other / t is t.reciprocal() * other, and everything else that is not a
# tensor or a number is NotImplemented, so NumPy computes and __array_wrap__ makes a tensor.

OPERATORS = ["+", "-", "*", "/", "@", "==", "!=", "<", "<=", ">", ">="]


def numpy_operands():
    return {
        "f64": np.array([[2.0, 4.0], [6.0, 8.0]]), "f32": np.array([[2.0, 4.0], [6.0, 8.0]], np.float32),
        "i64": np.array([[2, 1], [1, 3]]), "i32": np.array([[2, 1], [3, 4]], np.int32),
        "bool": np.array([[True, False], [False, True]]), "0-d": np.array(2.0), "row": np.array([1.0, 2.0]),
        "wide": np.zeros(5), "T": np.array([[1.0, 2.0], [3.0, 4.0]]).T, "empty": np.zeros((0, 2)),
        "np.float64": np.float64(2.0), "np.int32": np.int32(3), "np.float32": np.float32(2.0),
        "np.bool_": np.bool_(True), "str": np.array(["a", "b"]), "object": np.array([1, None], dtype=object),
    }


def outcome(mod, expr, **names):
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval(expr, dict(names))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return type(e).__name__
    if isinstance(r, mod.Tensor):
        # torch's __array_wrap__ turns a bool result into uint8, which minitorch has not: it keeps bool
        dtype = str(r.dtype).split(".")[-1].replace("uint8", "bool")
        values = r.int().tolist() if dtype == "bool" else r.tolist()
        return ("tensor", tuple(r.shape), dtype, repr(values))  # repr: nan equals nan
    return (type(r).__name__, repr(r.tolist() if isinstance(r, np.ndarray) else r))


@needs_torch
@pytest.mark.parametrize("op", OPERATORS)
def test_operators_with_numpy_operands_match_torch(op):
    for receiver in ("[[1.0, 2.0], [3.0, 4.0]]", "[[1, 2], [3, 4]]", "[[True, False], [True, True]]"):
        for name, other in numpy_operands().items():
            for expr in ("t %s o" % op, "o %s t" % op):
                got = outcome(minitorch, expr, t=minitorch.tensor(eval(receiver)), o=other)
                want = outcome(torch, expr, t=torch.tensor(eval(receiver)), o=other)
                assert got == want, (expr, receiver, name)


def test_eq_and_reflected_division_with_arrays():
    t = minitorch.tensor([0.1, 2.0])
    a = np.array([0.1, 2.0])
    assert (t == a).tolist() == [False, True] and (a == t).tolist() == [False, True]  # float64 comparison
    assert (t == a.astype(np.float32)).tolist() == [True, True]
    assert (t != a) is True  # torch converts for == only
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        t == np.zeros(5)
    with pytest.raises(ValueError, match="negative"):
        t == a[::-1]
    assert (t == np.array(["a", "b"])) is False
    r = np.array([1.0, 3.0]) / minitorch.tensor([2.0, 4.0])
    assert isinstance(r, minitorch.Tensor) and r.dtype == minitorch.float64 and r.tolist() == [0.5, 0.75]
    with pytest.raises(TypeError, match="unsupported operand"):
        [1, 2] / t
    # dtypes torch compares and minitorch does not have are a documented gap, not "unequal"
    assert (t == a.astype(np.float16)).tolist() == [False, True]  # float16 against float32: float32
    for dtype in (np.complex64, np.uint64):
        with pytest.raises(NotImplementedError, match="which minitorch does not support"):
            t == np.ones(2, dtype)
    with pytest.raises(NotImplementedError, match="which minitorch does not support"):
        np.multiply(t, 1j)


def test_eq_with_arrays_on_the_simulated_gpu():
    code = textwrap.dedent("""
        import numpy as np, minitorch
        g = minitorch.tensor([1.0, 2.0], device="cuda")
        print((g == np.array(2.0)).tolist(), (g == np.array(2.0)).device)
        try:
            g == np.array([1.0, 2.0])
        except RuntimeError as e:
            print(str(e).split(",")[0])
    """)
    out = python_output(code, simulate_gpu=1).splitlines()
    assert out == ["[False, True] cuda:0", "Expected all tensors to be on the same device"]


def test_from_numpy_errors_match_torch():
    ref = torch is not None
    # not an array
    for obj, name in [([1, 2], "list"), (3.0, "float"), (np.float64(1.0), "numpy.float64"),
                      (minitorch.ones(2), "Tensor")]:
        got = minitorch_error(lambda: minitorch.from_numpy(obj))
        assert got == (TypeError, "expected np.ndarray (got %s)" % name)
        if ref and not isinstance(obj, minitorch.Tensor):
            assert got == torch_error(lambda: torch.from_numpy(obj))
    # negative strides, strides not a multiple of the itemsize, byte order: torch's exact errors
    cases = [
        np.arange(6.0)[::-1],
        np.arange(12.0).reshape(3, 4)[:, ::-2],
        np.lib.stride_tricks.as_strided(np.zeros(10, np.int32), (3,), (6,)),
        np.zeros(3, ">f4"),
        np.zeros((2, 2), ">i8").T,
    ]
    for a in cases:
        got = minitorch_error(lambda: minitorch.from_numpy(a))
        assert got[0] is ValueError
        if ref:
            assert got == torch_error(lambda: torch.from_numpy(a))
    msg = minitorch_error(lambda: minitorch.from_numpy(np.arange(6.0)[::-1]))[1]
    assert msg == ("At least one stride in the given numpy array is negative, and tensors with negative strides "
                   "are not currently supported. (You can probably work around this by making a copy of your "
                   "array  with array.copy().) ")


# ---- arrays that lie: a subclass's properties are not what NumPy records ----------------------------

def lying_arrays():
    """ndarray subclasses whose Python-level shape, strides, dtype or __array_interface__ lie about the
    4 float32s NumPy actually holds (torch reads the C fields and ignores them)."""
    def make(**props):
        cls = type("Lying", (np.ndarray,), {k: property(lambda self, v=v: v) for k, v in props.items()})
        return np.arange(4, dtype=np.float32).view(cls)

    return {
        "huge shape": make(shape=(1 << 24,)),
        "negative shape": make(shape=(-5, 3)),
        "huge strides": make(strides=(1 << 40,)),
        "wild data": make(__array_interface__={"data": (16, False), "shape": (4,), "typestr": "<f4", "version": 3}),
        "wider dtype": make(dtype=np.dtype(np.float64)),
        "everything": make(shape=(1 << 20, 3), strides=(8, 4), dtype=np.dtype(np.int64), ndim=2, size=9,
                           itemsize=8, nbytes=72),
    }


@pytest.mark.parametrize("case", sorted(lying_arrays()))
def test_lying_arrays_give_what_numpy_records(case):
    a = lying_arrays()[case]
    base = np.asarray(a).view(np.ndarray)
    t = minitorch.from_numpy(a)
    assert (tuple(t.shape), t.stride(), t.dtype) == ((4,), (1,), minitorch.float32)
    assert t.data_ptr() == base.__array_interface__["data"][0]
    t.fill_(1.0)  # writes 16 bytes, not 64 MiB
    assert base.tolist() == [1.0] * 4
    assert repr(t) == "tensor([1., 1., 1., 1.])" and len(t) == 4 and len(t.unbind()) == 4
    assert memoryview(t).nbytes == 16 and t.__dlpack__() is not None
    c = minitorch.tensor(a)
    assert (tuple(c.shape), c.dtype, c.tolist()) == ((4,), minitorch.float32, [1.0] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the list-of-ndarrays warning
        assert tuple(minitorch.tensor([a, a]).shape) == (2, 4)
    if torch is not None:
        assert tuple(torch.from_numpy(a).shape) == (4,) and torch.tensor(a).dtype == torch.float32


def test_geometry_numpy_cannot_hold_is_refused():
    # as_strided writes whatever it is told; a view past the address space must not reach a kernel
    x = np.zeros(4, np.float32)
    for shape, strides in [((3,), (2**62,)), ((2, 2), (2**62, 2**62)), ((5,), (2**61,))]:
        a = np.lib.stride_tricks.as_strided(x, shape, strides)
        with pytest.raises(ValueError, match="overflowed"):
            minitorch.from_numpy(a)
        with pytest.raises(ValueError, match="overflowed"):
            minitorch.tensor(a)


def test_misaligned_arrays_are_copied_not_read_in_place():
    # torch shares such memory; minitorch's kernels load whole elements, so it copies (README)
    buf = bytearray(4 * 1001)
    a = np.frombuffer(buf, np.float32, offset=1, count=1000)
    a[:] = np.arange(1000, dtype=np.float32)
    t = minitorch.from_numpy(a)
    assert t.data_ptr() % 4 == 0 and t.data_ptr() != a.ctypes.data
    assert (t + 1).tolist() == (a + 1).tolist() and t.sum().item() == float(a.sum())
    w = np.frombuffer(bytearray(8 * 31), np.float64, offset=4, count=30).reshape(5, 6)[:, ::2]
    for u in (minitorch.from_numpy(w), minitorch.from_dlpack(w), minitorch.tensor(w)):
        assert u.tolist() == w.tolist() and u.sum().item() == float(w.sum()) and tuple(u.shape) == (5, 3)
    assert minitorch.from_numpy(w).stride() == (6, 2) and minitorch.from_dlpack(w).stride() == (6, 2)
    if torch is not None:
        assert torch.from_numpy(w).stride() == (6, 2) and (torch.from_numpy(a) + 1).tolist() == (t + 1).tolist()


@pytest.mark.parametrize("versioned", [True, False])
def test_misaligned_capsule_is_copied_and_released_at_once(versioned):
    a = np.arange(8, dtype=np.float32)
    producer = HandMade(a, versioned=versioned)
    producer.shape[0] = 7
    producer.managed.dl_tensor.byte_offset = 2
    capsule = producer.capsule()
    t = minitorch.from_dlpack(capsule)
    expected = np.frombuffer(a.tobytes()[2:30], np.float32).tolist()
    assert t.tolist() == expected and t.mean().item() == pytest.approx(float(np.mean(expected)))
    assert _PyCapsule_IsValid(capsule, b"used_" + producer.name)
    assert producer.deleted == 1  # the copy needs the producer's memory no longer


@pytest.mark.parametrize("np_dtype", [np.uint16, np.uint32, np.uint64,
                                      np.complex64, np.complex128, np.str_, np.object_, np.longdouble,
                                      "datetime64[s]", "V4"])
def test_from_numpy_unsupported_dtypes(np_dtype):
    a = np.zeros(3, dtype=np_dtype)
    kind, msg = minitorch_error(lambda: minitorch.from_numpy(a))
    assert kind is TypeError
    type_name = "numpy." + a.dtype.type.__name__
    assert msg == ("can't convert np.ndarray of type %s. The only supported types are: float64, float32, float16, "
                   "int64, int32, int16, int8, uint8, and bool." % type_name)
    if torch is not None:
        try:
            torch.from_numpy(a)
        except TypeError as e:  # dtypes torch lacks too: the same sentence, torch's longer list
            assert str(e).split(" The only")[0] == msg.split(" The only")[0]
    # the dtype is checked first, as in torch 2.13
    assert minitorch_error(lambda: minitorch.from_numpy(a[::-1]))[0] is TypeError


def test_from_numpy_readonly_warns_once():
    code = textwrap.dedent("""
        import warnings, numpy as np, minitorch
        a = np.zeros(3); a.flags.writeable = False
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = minitorch.from_numpy(a)
            minitorch.from_numpy(a)
        assert t.tolist() == [0.0, 0.0, 0.0]
        print(len(w), w[0].category.__name__, str(w[0].message))
    """)
    out = python_output(code)
    assert out.startswith("1 UserWarning The given NumPy array is not writable, and minitorch does not support "
                          "non-writable tensors.")
    assert out.rstrip().endswith("This type of warning will be suppressed for the rest of this program.")


def test_numpy_errors_match_torch():
    t = minitorch.ones(2, 3).requires_grad_()
    got = minitorch_error(lambda: t.numpy())
    assert got == (RuntimeError,
                   "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    assert minitorch_error(lambda: np.asarray(t)) == got
    assert t.detach().numpy().tolist() == [[1.0] * 3] * 2
    assert t.numpy(force=True).tolist() == [[1.0] * 3] * 2
    assert minitorch_error(lambda: minitorch.ones(2).numpy(True)) == (
        TypeError, "numpy() takes 0 positional arguments but 1 was given")
    if torch is not None:
        assert got == torch_error(lambda: torch.ones(2, 3, requires_grad=True).numpy())
        assert minitorch_error(lambda: minitorch.ones(2).numpy(True)) == torch_error(lambda: torch.ones(2).numpy(True))


# ---- ownership -------------------------------------------------------------------------------------

def owned_array(n=1000):
    a = np.arange(n, dtype=np.float64)
    return a, weakref.ref(a)


def collect():
    for _ in range(3):
        gc.collect()


def test_from_numpy_keeps_array_alive():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    collect()
    assert alive() is not None
    assert t[999].item() == 999.0
    v = t[500:]  # a view keeps it alive too
    del t
    collect()
    assert alive() is not None and v[0].item() == 500.0
    del v
    collect()
    assert alive() is None


def test_numpy_array_keeps_storage_alive():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    arr = t[10:].numpy()
    del t
    collect()
    assert alive() is not None
    assert arr[0] == 10.0
    arr[1] = -5
    assert arr[1] == -5
    del arr
    collect()
    assert alive() is None
    # the tensor side may also go last
    t = minitorch.arange(5)
    arr = t.numpy()
    del arr
    collect()
    assert t.tolist() == [0, 1, 2, 3, 4]


def test_memoryview_keeps_storage_alive():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    m = memoryview(t)
    t.data = minitorch.zeros(2, dtype=minitorch.float64)  # the export holds the old storage
    del t
    collect()
    assert alive() is not None and m[999] == 999.0
    m.release()
    collect()
    assert alive() is None


def test_dlpack_capsule_owns_storage_until_consumed_and_released():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    capsule = t.__dlpack__(max_version=(1, 0))
    del t
    collect()
    assert alive() is not None  # the unconsumed capsule holds the memory
    del capsule
    collect()
    assert alive() is None  # ... and its destructor called the deleter

    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    capsule = t.__dlpack__()
    del t
    u = minitorch.from_dlpack(capsule)
    del capsule
    collect()
    assert alive() is not None and u[7].item() == 7.0  # consumed: the tensor owns it now
    del u
    collect()
    assert alive() is None


def test_from_dlpack_keeps_producer_alive():
    a, alive = owned_array()
    t = minitorch.from_dlpack(a)
    del a
    collect()
    assert alive() is not None and t[3].item() == 3.0
    del t
    collect()
    assert alive() is None


def test_numpy_from_dlpack_keeps_tensor_memory_alive():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    b = np.from_dlpack(t)
    del t
    collect()
    assert alive() is not None and b[999] == 999.0
    del b
    collect()
    assert alive() is None


@needs_torch
def test_torch_round_trip_ownership():
    a, alive = owned_array()
    t = minitorch.from_numpy(a)
    del a
    tt = torch.from_dlpack(t)
    del t
    collect()
    assert alive() is not None and tt[999].item() == 999.0
    del tt
    collect()
    assert alive() is None
    # torch memory inside minitorch, torch side deleted first
    src = torch.arange(10, dtype=torch.int64)
    m = minitorch.from_dlpack(src)
    del src
    collect()
    assert m.tolist() == list(range(10))


# ---- DLPack ----------------------------------------------------------------------------------------

def test_dlpack_device():
    assert minitorch.ones(2).__dlpack_device__() == (1, 0)
    if torch is not None:
        assert minitorch.ones(2).__dlpack_device__() == torch.ones(2).__dlpack_device__()


@pytest.mark.parametrize("np_dtype,mt_dtype", DTYPES)
def test_dlpack_numpy_round_trip(np_dtype, mt_dtype):
    for case, a in strided_cases(np_dtype).items():
        if case == "broadcast":
            continue  # read-only: NumPy refuses to export it through legacy capsules
        t = minitorch.from_dlpack(a)
        assert t.dtype == mt_dtype and tuple(t.shape) == a.shape
        assert t.tolist() == a.tolist()
        if a.size:
            assert t.stride() == tuple(s // a.itemsize for s in a.strides) or a.size == 1
            assert t.data_ptr() == a.__array_interface__["data"][0]
        b = np.from_dlpack(t)
        assert b.dtype == a.dtype and b.shape == a.shape and (b == a).all()
        if a.size > 1:
            assert b.strides == a.strides
        if a.size:
            b[(0,) * a.ndim] = a[(0,) * a.ndim] if np_dtype == np.bool_ else 77
            assert a[(0,) * a.ndim] == b[(0,) * a.ndim]


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
def test_dlpack_torch_round_trip(dtype):
    base = torch.arange(60).reshape(3, 4, 5).to(getattr(torch, dtype))
    for src in [base, base.transpose(0, 2), base[1:, ::2, 2:], base[1, 2, 3], base[:, :0]]:
        m = minitorch.from_dlpack(src)
        assert m.dtype == getattr(minitorch, dtype)
        assert tuple(m.shape) == tuple(src.shape)
        assert m.tolist() == src.tolist()
        if src.numel() > 1:
            assert m.stride() == src.stride()
            assert m.data_ptr() == src.data_ptr()
        back = torch.from_dlpack(m)
        assert back.dtype == src.dtype and back.shape == src.shape and back.stride() == src.stride() or \
            src.numel() <= 1
        assert torch.equal(back, src)
    # writes are shared both ways
    x = torch.zeros(4)
    m = minitorch.from_dlpack(x)
    m[1] = 5
    x[2] = 7
    assert x.tolist() == [0, 5, 7, 0] and m.tolist() == [0, 5, 7, 0]
    y = minitorch.zeros(2, 3).t()
    ty = torch.from_dlpack(y)
    ty[2, 1] = 3
    assert y[2, 1].item() == 3 and ty.stride() == y.stride()


def test_versioned_and_legacy_capsules():
    t = minitorch.arange(6).reshape(2, 3)
    for kwargs, name in [({}, "dltensor"), ({"max_version": None}, "dltensor"),
                         ({"max_version": (0, 8)}, "dltensor"), ({"max_version": (1, 0)}, "dltensor_versioned"),
                         ({"max_version": (1, 3)}, "dltensor_versioned"),
                         ({"max_version": (2, 0)}, "dltensor_versioned")]:
        capsule = t.__dlpack__(**kwargs)
        assert repr(capsule).startswith('<capsule object "%s"' % name)
        u = minitorch.from_dlpack(capsule)
        assert repr(capsule).startswith('<capsule object "used_%s"' % name)
        assert u.tolist() == t.tolist() and u.data_ptr() == t.data_ptr()
    legacy = minitorch.to_dlpack(t)
    assert repr(legacy).startswith('<capsule object "dltensor"')
    assert minitorch.from_dlpack(legacy).tolist() == t.tolist()
    if torch is not None:
        assert torch.from_dlpack(t.__dlpack__(max_version=(1, 0))).tolist() == t.tolist()
        assert torch.from_dlpack(minitorch.to_dlpack(t)).tolist() == t.tolist()
        assert minitorch.from_dlpack(torch.ones(2).__dlpack__(max_version=(1, 0))).tolist() == [1, 1]
        assert minitorch.from_dlpack(torch.utils.dlpack.to_dlpack(torch.ones(2))).tolist() == [1, 1]


def test_dlpack_copy_and_dl_device():
    t = minitorch.arange(4, dtype=minitorch.float32)
    same = minitorch.from_dlpack(t.__dlpack__(copy=False))
    copied = minitorch.from_dlpack(t.__dlpack__(copy=True, max_version=(1, 0)))
    assert same.data_ptr() == t.data_ptr() and copied.data_ptr() != t.data_ptr()
    copied[0] = 9
    assert t[0].item() == 0
    assert minitorch.from_dlpack(t.__dlpack__(dl_device=(1, 0))).data_ptr() == t.data_ptr()
    assert minitorch.from_dlpack(t, copy=True).data_ptr() != t.data_ptr()
    assert minitorch.from_dlpack(t, copy=False).data_ptr() == t.data_ptr()
    assert minitorch.from_dlpack(t, device="cpu").data_ptr() == t.data_ptr()
    assert minitorch.from_dlpack(t.__dlpack__(stream=-1)).tolist() == t.tolist()
    b = np.from_dlpack(t, copy=True)
    b[1] = 50
    assert t[1].item() == 1
    assert np.from_dlpack(t, device="cpu").__array_interface__["data"][0] == t.data_ptr()


def test_dlpack_export_errors_match_torch():
    t = minitorch.arange(4)
    cases = [
        (lambda m: m.ones(2, requires_grad=True).__dlpack__(), BufferError),
        (lambda m: m.arange(4).__dlpack__(stream=1.0), TypeError),
        (lambda m: m.arange(4).__dlpack__(stream=5), AssertionError),
        (lambda m: m.arange(4).__dlpack__(dl_device=(3, 0)), BufferError),
        (lambda m: m.arange(4).__dlpack__(1), TypeError),
    ]
    for make, kind in cases:
        got = minitorch_error(lambda: make(minitorch))
        assert got[0] is kind
        if torch is not None:
            assert got == torch_error(lambda: make(torch))
    assert minitorch_error(lambda: minitorch.ones(2, requires_grad=True).__dlpack__()) == (
        BufferError, "Can't export tensors that require gradient, use tensor.detach()")
    assert minitorch_error(lambda: t.__dlpack__(foo=1)) == (
        TypeError, "Tensor.__dlpack__() got an unexpected keyword argument 'foo'")
    assert minitorch_error(lambda: t.__dlpack__(max_version=3))[0] is TypeError
    assert minitorch_error(lambda: t.__dlpack__(copy="yes"))[0] is TypeError


def test_python_level_signatures_match_torch():
    """numpy() goes through torch's parser; __dlpack__, __array_wrap__ and torch.utils.dlpack.from_dlpack are
    Python functions in torch, so Python itself words their errors."""
    import minitorch.utils.dlpack

    t = minitorch.arange(4.)
    cases = [
        lambda m: m.arange(4.).numpy(1), lambda m: m.arange(4.).numpy(foo=1), lambda m: m.arange(4.).numpy(1, 2),
        lambda m: m.arange(4.).__dlpack__(1, 2), lambda m: m.arange(4.).__dlpack__(stream=-1, foo=2),
        lambda m: m.arange(4.).__array_wrap__(), lambda m: m.from_dlpack(), lambda m: m.from_dlpack(1, 2),
        lambda m: m.from_dlpack(m.arange(2.), dev=None), lambda m: m.utils.dlpack.from_dlpack(),
        lambda m: m.ones(2, 3).size(1, 2), lambda m: m.ones(2, 3).stride(dim=1, foo=2),
        lambda m: m.ones(2, 3).size(1, dim=1), lambda m: m.ones(2, 3).size("a"),
    ]
    for make in cases:
        got = minitorch_error(lambda: make(minitorch))
        assert got[0] is TypeError, got
        if torch is not None:
            assert got == torch_error(lambda: make(torch))
    assert minitorch.from_dlpack is minitorch.utils.dlpack.from_dlpack
    assert minitorch.utils.dlpack.to_dlpack is minitorch.to_dlpack
    assert minitorch.utils.dlpack.from_dlpack(t.__dlpack__(stream=-1)).tolist() == t.tolist()
    assert [(d.name, int(d)) for d in minitorch.utils.dlpack.DLDeviceType][:2] == [("kDLCPU", 1), ("kDLCUDA", 2)]
    if torch is not None:
        assert ([(d.name, int(d)) for d in minitorch.utils.dlpack.DLDeviceType]
                == [(d.name, int(d)) for d in torch.utils.dlpack.DLDeviceType])
        for name in ("__dlpack__", "__array_wrap__"):
            assert getattr(minitorch.Tensor, name).__qualname__ == getattr(torch.Tensor, name).__qualname__


def test_from_dlpack_capsule_errors_match_torch():
    t = minitorch.arange(3)
    for versioned in (False, True):
        capsule = t.__dlpack__(max_version=(1, 0) if versioned else None)
        minitorch.from_dlpack(capsule)
        got = minitorch_error(lambda: minitorch.from_dlpack(capsule))
        assert got == (RuntimeError, "from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                                     "consumed only once, so you might have already constructed a tensor from it "
                                     "once.")
        if torch is not None:
            assert got == torch_error(lambda: torch.from_dlpack(capsule))
            # a capsule torch consumed is used for minitorch too, and the other way round
            c2 = torch.ones(2).__dlpack__(max_version=(1, 0) if versioned else None)
            torch.from_dlpack(c2)
            assert minitorch_error(lambda: minitorch.from_dlpack(c2)) == got
    for obj in (5, [1], "dltensor"):
        got = minitorch_error(lambda: minitorch.from_dlpack(obj))
        assert got[0] is RuntimeError
        if torch is not None:
            assert got == torch_error(lambda: torch.from_dlpack(obj))
    capsule = t.__dlpack__()
    got = minitorch_error(lambda: minitorch.from_dlpack(capsule, copy=True))
    assert got == (AssertionError, "device and copy kwargs not supported when ext_tensor is already a DLPack capsule.")
    assert minitorch.from_dlpack(capsule).tolist() == [0, 1, 2]  # the failed call did not consume it
    assert minitorch_error(lambda: minitorch.to_dlpack(5)) == (
        TypeError, "_to_dlpack(): argument 'data' (position 1) must be Tensor, not int")
    if torch is not None:
        assert minitorch_error(lambda: minitorch.to_dlpack(5)) == torch_error(lambda: torch.to_dlpack(5))


def test_from_dlpack_of_unsupported_numpy_dtype():
    a = np.zeros(3, np.uint16)
    kind, msg = minitorch_error(lambda: minitorch.from_dlpack(a))
    assert kind is BufferError
    assert msg == ("can't convert a DLPack tensor of type uint16. The only supported types are: float64, float32, "
                   "float16, int64, int32, int16, int8, uint8, and bool.")
    h = minitorch.from_dlpack(np.array([0.5, -2.25], np.float16))
    assert h.dtype == minitorch.float16 and h.tolist() == [0.5, -2.25]


@pytest.mark.parametrize("np_dtype", ["uint8", "int8", "int16"])
def test_small_integer_arrays_exchange(np_dtype):
    a = np.array([[0, 1, 2], [3, 4, 5]], dtype=np_dtype)[:, ::2]
    for t in (minitorch.from_numpy(a), minitorch.as_tensor(a), minitorch.from_dlpack(a.copy())):
        assert str(t.dtype) == "minitorch." + np_dtype and t.tolist() == a.tolist()
    t = minitorch.from_numpy(a)
    t += 1
    assert a.tolist() == [[1, 3], [4, 6]]  # the same memory
    back = t.numpy()
    assert back.dtype == np.dtype(np_dtype) and np.from_dlpack(t).dtype == np.dtype(np_dtype)


def test_from_dlpack_falls_back_for_older_producers():
    calls = []

    class OldProducer:
        """A producer from before max_version/copy/dl_device existed."""

        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            calls.append(stream)
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = np.arange(4.0)
    t = minitorch.from_dlpack(OldProducer(a))
    assert t.data_ptr() == a.__array_interface__["data"][0]
    c = minitorch.from_dlpack(OldProducer(a), copy=True)  # copied by the consumer
    assert c.data_ptr() != a.__array_interface__["data"][0] and c.tolist() == [0, 1, 2, 3]
    assert calls == [None, None]


# ---- hand-made capsules: the consumer's rules --------------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


class DLManagedTensorVersioned(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", LEGACY_DELETER)]
DLManagedTensorVersioned._fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                                     ("manager_ctx", ctypes.c_void_p), ("deleter", VERSIONED_DELETER),
                                     ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_PyCapsule_IsValid = ctypes.pythonapi.PyCapsule_IsValid
_PyCapsule_IsValid.restype = ctypes.c_int
_PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# A capsule destructor runs while the capsule is being freed: it must see a raw pointer, never a
# Python reference (which would resurrect the dying object).
CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_PyCapsule_IsValid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))

LEGACY_NAME = b"dltensor"
VERSIONED_NAME = b"dltensor_versioned"


class HandMade:
    """A producer written with ctypes: counts deleter calls and follows the capsule rules (its
    destructor calls the deleter only while the capsule is unconsumed)."""

    def __init__(self, array, versioned=True, device=(1, 0), code=None, bits=None, lanes=1, major=1,
                 strides="array"):
        self.array = array
        self.deleted = 0
        self.shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        if strides == "array":
            self.strides = (ctypes.c_int64 * max(array.ndim, 1))(*[s // array.itemsize for s in array.strides])
        else:
            self.strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        kind = {"f": 2, "i": 0, "u": 1, "b": 6}[array.dtype.kind]
        dl = DLTensor(array.__array_interface__["data"][0], DLDevice(*device), array.ndim,
                      DLDataType(kind if code is None else code, array.itemsize * 8 if bits is None else bits, lanes),
                      self.shape, self.strides, 0)
        self.versioned = versioned
        if versioned:
            self.deleter = VERSIONED_DELETER(self._delete)
            self.managed = DLManagedTensorVersioned(major, 0, None, self.deleter, 0, dl)
            self.name = VERSIONED_NAME
        else:
            self.deleter = LEGACY_DELETER(self._delete)
            self.managed = DLManagedTensor(dl, None, self.deleter)
            self.name = LEGACY_NAME
        self.destructor = CAPSULE_DESTRUCTOR(self._destroy)

    def _delete(self, managed):
        self.deleted += 1

    def _destroy(self, capsule_address):
        if _PyCapsule_IsValid_raw(capsule_address, self.name):
            self._delete(None)  # what the deleter does: the memory is ours, nothing to free

    def capsule(self):
        return _PyCapsule_New(ctypes.addressof(self.managed), self.name,
                              ctypes.cast(self.destructor, ctypes.c_void_p))


@pytest.mark.parametrize("versioned", [True, False])
def test_consumed_capsule_deleter_runs_once_when_tensor_dies(versioned):
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    producer = HandMade(a, versioned=versioned)
    capsule = producer.capsule()
    t = minitorch.from_dlpack(capsule)
    assert not _PyCapsule_IsValid(capsule, producer.name)
    assert _PyCapsule_IsValid(capsule, b"used_" + producer.name)
    assert t.tolist() == a.tolist() and t.data_ptr() == a.__array_interface__["data"][0]
    del capsule
    collect()
    assert producer.deleted == 0  # the consumer owns it now
    v = t[1:]
    del t
    collect()
    assert producer.deleted == 0
    del v
    collect()
    assert producer.deleted == 1


@pytest.mark.parametrize("versioned", [True, False])
def test_unconsumed_capsule_is_freed_by_its_destructor(versioned):
    producer = HandMade(np.arange(3.0), versioned=versioned)
    capsule = producer.capsule()
    del capsule
    collect()
    assert producer.deleted == 1


@pytest.mark.parametrize("kwargs,kind,message", [
    ({"major": 2}, BufferError, "the DLPack tensor has version 2.0, but minitorch supports major version 1 only"),
    ({"code": 1, "bits": 16}, BufferError, "can't convert a DLPack tensor of type uint16."),
    ({"code": 4, "bits": 32}, BufferError, "can't convert a DLPack tensor of type bfloat32."),
    ({"lanes": 4}, BufferError, "minitorch does not support DLPack vector types (lanes=4)"),
    ({"device": (4, 0)}, BufferError, "Unsupported device_type: 4"),
    ({"strides": [-1]}, BufferError, "At least one stride in the given DLPack tensor is negative"),
])
def test_rejected_capsule_is_not_consumed(kwargs, kind, message):
    producer = HandMade(np.arange(3.0), **kwargs)
    capsule = producer.capsule()
    got = minitorch_error(lambda: minitorch.from_dlpack(capsule))
    assert got[0] is kind and got[1].startswith(message)
    assert _PyCapsule_IsValid(capsule, producer.name)  # still the producer's
    del capsule
    collect()
    assert producer.deleted == 1


def crafted(array=None, versioned=True, shape=None, strides="array", byte_offset=0, data=None, ndim=None):
    """A HandMade capsule with some fields overwritten (None: as the array says)."""
    array = np.arange(6.0) if array is None else array
    producer = HandMade(array, versioned=versioned, strides=strides)
    dl = producer.managed.dl_tensor
    if shape is not None:
        producer.shape = (ctypes.c_int64 * len(shape))(*shape)
        dl.shape = producer.shape
        dl.ndim = len(shape)
    if ndim is not None:
        dl.ndim = ndim
    if data is not None:
        dl.data = data or None
    dl.byte_offset = byte_offset
    return producer


# (fields, exception, message start): capsules whose geometry cannot describe memory
CRAFTED = [
    ({"byte_offset": 2**63}, BufferError, "Storage size calculation overflowed"),
    ({"byte_offset": 2**64 - 8}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [2**62, 4], "strides": [4, 1]}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [2**32, 2**32], "strides": [0, 0]}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [3], "strides": [2**62]}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [2, 2], "strides": [2**61, 2**61]}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [2**40, 2**40], "strides": None}, BufferError, "Storage size calculation overflowed"),
    ({"shape": [6], "strides": [1], "data": 2**64 - 16}, BufferError, "Storage size calculation overflowed"),
    ({"ndim": 65}, BufferError, "minitorch supports tensors of at most 64 dimensions, got 65"),
    ({"ndim": -1}, BufferError, "minitorch supports tensors of at most 64 dimensions, got -1"),
    ({"data": 0}, BufferError, "the memory to view has a NULL data pointer"),
    ({"shape": [-5], "strides": [1]}, RuntimeError, "Trying to create tensor with negative dimension -5: [-5]"),
    ({"shape": [2, -1, 3], "strides": [3, 3, 1]}, RuntimeError, "Trying to create tensor with negative dimension"),
]


@pytest.mark.parametrize("versioned", [True, False])
@pytest.mark.parametrize("fields,kind,message", CRAFTED, ids=[str(c[0]) for c in CRAFTED])
def test_crafted_capsules_are_refused_and_not_consumed(fields, kind, message, versioned):
    producer = crafted(versioned=versioned, **fields)
    capsule = producer.capsule()
    got = minitorch_error(lambda: minitorch.from_dlpack(capsule))
    assert got[0] is kind and got[1].startswith(message), got
    assert _PyCapsule_IsValid(capsule, producer.name)
    del capsule
    collect()
    assert producer.deleted == 1


@needs_torch
def test_negative_capsule_shape_matches_torch():
    producer = crafted(shape=[-5], strides=[1])
    capsule = producer.capsule()
    got = minitorch_error(lambda: minitorch.from_dlpack(capsule))
    assert got == torch_error(lambda: torch.from_dlpack(capsule))


def test_crafted_capsules_with_nothing_to_read_are_fine():
    for fields in ({"data": 0, "shape": [0], "strides": [1]}, {"shape": [0, 2**62], "strides": [1, 1]},
                   {"shape": [1, 3], "strides": [2**62, 1]}, {"shape": [1], "strides": [-7]}):
        producer = crafted(**fields)
        t = minitorch.from_dlpack(producer.capsule())
        assert tuple(t.shape) == tuple(fields["shape"])
        assert t.tolist() == ([] if 0 in fields["shape"] else np.arange(6.0)[:t.numel()].reshape(t.shape).tolist())
        del t
        collect()
        assert producer.deleted == 1


def test_dlpack_stream_of_any_size_is_torchs_assertion():
    t = minitorch.arange(4)
    for stream in (2**70, -2**70, 2**63, 5):
        got = minitorch_error(lambda: t.__dlpack__(stream=stream))
        assert got == (AssertionError, "stream should be None on cpu.")
        if torch is not None:
            assert got == torch_error(lambda: torch.arange(4).__dlpack__(stream=stream))
    assert minitorch.from_dlpack(t.__dlpack__(stream=-1)).tolist() == [0, 1, 2, 3]
    # max_version is compared as torch compares it (max_version[0] < 1), whatever the ints' size
    assert _PyCapsule_IsValid(t.__dlpack__(max_version=(2**70, 0)), VERSIONED_NAME)
    assert _PyCapsule_IsValid(t.__dlpack__(max_version=(1, 2**70)), VERSIONED_NAME)
    assert _PyCapsule_IsValid(t.__dlpack__(max_version=(-2**70, 0)), LEGACY_NAME)
    for max_version in (None, (1, 0)):
        got = minitorch_error(lambda: t.__dlpack__(max_version=max_version, dl_device=(1, 2**70)))
        assert got == (TypeError, "_to_dlpack(): argument 'dl_device' failed to unpack the object at pos 2 with "
                                  "error \"Overflow when unpacking long long\"")
        if torch is not None:
            real = torch_error(lambda: torch.arange(4).__dlpack__(max_version=max_version, dl_device=(1, 2**70)))
            assert real[0] is TypeError and real[1].startswith(got[1][:-1])


def test_legacy_capsule_without_strides_is_row_major():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    producer = HandMade(a, versioned=False, strides=None)
    t = minitorch.from_dlpack(producer.capsule())
    assert t.stride() == (12, 4, 1) and t.tolist() == a.tolist()


def test_kdlcudahost_memory_is_host_memory():
    a = np.arange(3.0)
    t = minitorch.from_dlpack(HandMade(a, device=(3, 0)).capsule())
    assert t.device == minitorch.device("cpu") and t.tolist() == [0.0, 1.0, 2.0]


# ---- the buffer protocol ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,fmt,size", [(minitorch.bool, "?", 1), (minitorch.int32, "i", 4),
                                            (minitorch.int64, "q", 8), (minitorch.float32, "f", 4),
                                            (minitorch.float64, "d", 8)])
def test_memoryview(dtype, fmt, size):
    t = minitorch.tensor([[1, 0, 3], [4, 5, 0]], dtype=dtype)
    m = memoryview(t)
    assert m.format == fmt and m.itemsize == size
    assert m.shape == (2, 3) and m.strides == (3 * size, size)
    assert not m.readonly and m.c_contiguous and m.nbytes == 6 * size
    assert m.tolist() == t.tolist()
    m[1, 2] = m[0, 0]
    assert t[1, 2].item() == t[0, 0].item()
    m.release()
    assert np.frombuffer(t, dtype=t.numpy().dtype).tolist() == sum(t.tolist(), [])
    assert bytes(minitorch.tensor([1, 2], dtype=minitorch.int32)) == b"\x01\x00\x00\x00\x02\x00\x00\x00"


def test_memoryview_shapes():
    assert memoryview(minitorch.tensor(2.5)).tolist() == 2.5
    assert memoryview(minitorch.tensor(2.5)).shape == ()
    assert memoryview(minitorch.zeros(3, 0)).shape == (3, 0)
    row = minitorch.arange(12).reshape(3, 4)[1]  # a contiguous view with an offset
    assert memoryview(row).tolist() == [4, 5, 6, 7]
    odd = minitorch.arange(4).reshape(4, 1).expand(4, 1)  # size-1 dims may have any stride
    assert memoryview(odd).strides == (8, 8)


def test_memoryview_errors():
    t = minitorch.arange(6).reshape(2, 3)
    with pytest.raises(BufferError, match="non-contiguous"):
        memoryview(t.t())
    with pytest.raises(BufferError, match="require gradient"):
        memoryview(minitorch.ones(2).requires_grad_())
    # NumPy falls back to __array__ (and its errors) when the buffer is refused
    assert np.asarray(t.t()).tolist() == t.t().tolist()
    if torch is not None:
        assert minitorch_error(lambda: np.asarray(minitorch.ones(2).requires_grad_())) == torch_error(
            lambda: np.asarray(torch.ones(2, requires_grad=True)))


# ---- subprocesses: import hygiene and the simulated GPU ---------------------------------------------

def test_interop_does_not_import_numpy():
    code = textwrap.dedent("""
        import sys, minitorch
        t = minitorch.arange(6).reshape(2, 3)
        memoryview(t).tolist()
        u = minitorch.from_dlpack(t.__dlpack__(max_version=(1, 0)))
        u = minitorch.from_dlpack(t)
        try:
            minitorch.from_numpy([1, 2])
        except TypeError as e:
            print(e)
        print("numpy" in sys.modules)
    """)
    assert python_output(code).split("\n")[:2] == ["expected np.ndarray (got list)", "False"]


SIMULATED_SCRIPT = textwrap.dedent("""
    import numpy as np, minitorch, sys
    sys.path.insert(0, {tests!r})
    from test_interop import HandMade, collect, _PyCapsule_IsValid

    def err(f):
        try:
            f()
        except Exception as e:
            return type(e).__name__ + ": " + str(e)
        return "no error"

    g = minitorch.arange(4, dtype=minitorch.float32).cuda()
    print(g.__dlpack_device__())
    print(err(lambda: g.__dlpack__()))
    print(err(lambda: g.__dlpack__(max_version=(1, 0))))
    print(err(lambda: np.from_dlpack(g)))
    print(err(lambda: minitorch.from_dlpack(g)))
    print(err(lambda: minitorch.ones(2).__dlpack__(dl_device=(2, 0))))
    print(err(lambda: g.__dlpack__(dl_device=(1, 0), copy=False)))
    print(err(lambda: memoryview(g)))
    print(err(lambda: g.numpy()))
    print(err(lambda: np.asarray(g)))
    # a host copy is honest, and allowed
    print(np.from_dlpack(g, device="cpu").tolist(), g.numpy(force=True).tolist())
    print(minitorch.from_dlpack(g.__dlpack__(dl_device=(1, 0))).device)
    # importing CUDA memory into the simulated GPU is refused, and the capsule stays the producer's
    producer = HandMade(np.arange(3.0), device=(2, 0))
    capsule = producer.capsule()
    print(err(lambda: minitorch.from_dlpack(capsule)))
    print(_PyCapsule_IsValid(capsule, producer.name))
    del capsule
    collect()
    print(producer.deleted)
    # host memory still moves onto the simulated GPU by copy
    print(minitorch.from_dlpack(np.arange(3.0), device="cuda").device)
""")


def test_simulated_gpu_refuses_dlpack():
    tests_dir = os.path.dirname(os.path.abspath(__file__))
    out = python_output(SIMULATED_SCRIPT.format(tests=tests_dir), simulate_gpu=1).splitlines()
    simulated = ("BufferError: can't export a tensor on minitorch's simulated GPU through DLPack: its memory is "
                 "host memory, not CUDA memory. Use Tensor.cpu() (or dl_device=(1, 0)) to export a copy in host "
                 "memory.")
    assert out[0] == "(2, 0)"
    assert out[1:6] == [simulated] * 5
    assert out[6] == "BufferError: can't export a cuda:0 tensor to cpu without a copy, and copy=False was given"
    assert out[7].startswith("BufferError: can't export a cuda:0 tensor through the buffer protocol")
    numpy_error = ("TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the "
                   "tensor to host memory first.")
    assert out[8:10] == [numpy_error, numpy_error]
    assert out[10] == "[0.0, 1.0, 2.0, 3.0] [0.0, 1.0, 2.0, 3.0]"
    assert out[11] == "cpu"
    assert out[12].startswith("BufferError: can't import CUDA memory through DLPack while minitorch's CUDA devices "
                              "are the simulated GPU")
    assert out[13:15] == ["1", "1"]
    assert out[15] == "cuda:0"


@needs_torch
def test_dlpack_export_arguments_match_torch():
    # to_dlpack's and __dlpack__'s argument errors come from torch's parser for
    # _to_dlpack(Tensor data, *, IntArrayRef? dl_device=None, bool? copy=None), then torch's own checks
    cases = [
        lambda m, t: m.utils.dlpack.to_dlpack(t, 2),
        lambda m, t: m.utils.dlpack.to_dlpack(),
        lambda m, t: m.utils.dlpack.to_dlpack(t, None),
        lambda m, t: m.utils.dlpack.to_dlpack(t, copy=1),
        lambda m, t: m.utils.dlpack.to_dlpack(t, foo=1),
        lambda m, t: m.utils.dlpack.to_dlpack(3),
        lambda m, t: m.utils.dlpack.to_dlpack(t, dl_device=5),
        lambda m, t: m.utils.dlpack.to_dlpack(t, dl_device=(5, 0)),
        lambda m, t: m.to_dlpack(t, 1),
        lambda m, t: t.__dlpack__(copy=1),
        lambda m, t: t.__dlpack__(copy="a"),
        lambda m, t: t.__dlpack__(2),
        lambda m, t: t.__dlpack__(foo=1),
        lambda m, t: t.__dlpack__(dl_device=5),
        lambda m, t: t.__dlpack__(dl_device=(1, "a")),
        lambda m, t: t.__dlpack__(dl_device=(1, 0, 3)),
        lambda m, t: t.__dlpack__(dl_device=(1,)),
        lambda m, t: t.__dlpack__(dl_device=(1.0, 0)),
        lambda m, t: t.__dlpack__(dl_device=(True, 0)),
        lambda m, t: t.__dlpack__(dl_device=(-2**63, 0)),
        lambda m, t: t.__dlpack__(max_version=(1, 0), copy=1),
        lambda m, t: t.__dlpack__(max_version=(1, 0), dl_device=(1,)),
        lambda m, t: t.__dlpack__(max_version=5),
        lambda m, t: t.__dlpack__(max_version=()),
        lambda m, t: t.__dlpack__(stream=1.0),
        lambda m, t: t.__dlpack__(stream=2**70),
    ]
    for make in cases:
        got = minitorch_error(lambda: make(minitorch, minitorch.ones(3)))
        assert got == torch_error(lambda: make(torch, torch.ones(3)))
    for call in [
        lambda m, t: m.utils.dlpack.to_dlpack(t, dl_device=(1, 0), copy=True),
        lambda m, t: m.utils.dlpack.to_dlpack(data=t),
        lambda m, t: t.__dlpack__(dl_device=[1, 0]),
        lambda m, t: t.__dlpack__(dl_device=()),
        lambda m, t: t.__dlpack__(max_version=(1,)),
        lambda m, t: t.__dlpack__(max_version=(1.5, 0), dl_device=(1, 2**40)),
    ]:
        capsule = call(minitorch, minitorch.arange(3.0))
        assert minitorch.from_dlpack(capsule).tolist() == [0.0, 1.0, 2.0]
