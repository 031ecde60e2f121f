"""Property-based tests (hypothesis) against NumPy and torch.

Random shapes, dtypes, values and indices, several thousand examples in all, each checked against a
reference: NumPy for values and shapes, torch (when installed; those parts skip without it) for
result dtypes, matmul's shape-or-error and repr. Examples are derandomized (the same ones every run,
so a CI failure reproduces locally), there is no deadline (sanitized builds are slow) and no example
database is written.

- broadcasting: the result shape of every binary op is NumPy's broadcast shape, or the op raises
  RuntimeError exactly when NumPy cannot broadcast; the values equal NumPy's;
- type promotion: the result dtype of tensor-tensor, tensor-scalar and tensor-0-d-tensor ops equals
  torch's;
- matmul: the result shape equals torch's, or minitorch raises the exception type torch raises;
- indexing and views: values equal torch's (NumPy's without torch, where the two agree) for basic and
  advanced indices, NumPy's for the view ops, and __setitem__ writes what NumPy's writes;
- repr: never fails, and equals torch's (with "minitorch" read as "torch") for CPU tensors.
"""

import math
import operator

import pytest

np = pytest.importorskip("numpy")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import minitorch  # noqa: E402

try:
    import torch as real_torch
except ImportError:  # the torch parts skip
    real_torch = None

needs_torch = pytest.mark.skipif(real_torch is None, reason="torch is not installed")

FUZZ = settings(derandomize=True, deadline=None, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

DTYPES = ["float32", "float64", "int32", "int64", "bool"]
NP = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64, "bool": np.bool_}


def mt(array):
    """A minitorch tensor with array's values, shape and dtype (through a contiguous copy)."""
    return minitorch.tensor(np.array(array, order="C", copy=True))


def tt(array):
    return real_torch.tensor(np.array(array, order="C", copy=True))


def to_numpy(t):
    dtype = NP[str(t.dtype).split(".")[-1]]
    return np.array(t.tolist(), dtype=dtype).reshape(tuple(t.shape))


def shapes(min_dims=0, max_dims=4, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=max_side)


def arrays(dtype, shape):
    if dtype == "bool":
        elements = st.booleans()
    elif dtype.startswith("int"):
        elements = st.integers(-50, 50)
    else:
        elements = st.floats(-100, 100, width=32)
    return hnp.arrays(NP[dtype], shape, elements=elements)


# ---- broadcasting -----------------------------------------------------------------------------------

BINARY = {
    "add": (operator.add, np.add),
    "sub": (operator.sub, np.subtract),
    "mul": (operator.mul, np.multiply),
    "maximum": (minitorch.maximum, np.maximum),
    "lt": (operator.lt, np.less),
    "eq": (operator.eq, np.equal),
}


@st.composite
def broadcast_pair(draw):
    """Two shapes that broadcast together (most of the time) or do not."""
    if draw(st.booleans()):
        pair = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, min_side=0,
                                                      max_side=4))
        return pair.input_shapes
    return draw(shapes()), draw(shapes())


@settings(FUZZ, max_examples=500)
@given(pair=broadcast_pair(), op=st.sampled_from(sorted(BINARY)), data=st.data())
def test_broadcasting(pair, op, data):
    mt_op, np_op = BINARY[op]
    a = data.draw(arrays("float64", pair[0]))
    b = data.draw(arrays("float64", pair[1]))
    try:
        expected = np_op(a, b)
    except ValueError:
        with pytest.raises(RuntimeError, match="must match the size of tensor b"):
            mt_op(mt(a), mt(b))
        return
    result = mt_op(mt(a), mt(b))
    assert tuple(result.shape) == expected.shape
    np.testing.assert_array_equal(to_numpy(result), expected)



# ---- type promotion ---------------------------------------------------------------------------------

SCALARS = {"int": 3, "float": 2.5, "bool": True, "neg_int": -7, "big_float": 1e10}
PROMOTING = ["add", "mul", "sub", "maximum", "div", "lt"]


def _apply(mod, op, x, y):
    if op == "add":
        return x + y
    if op == "mul":
        return x * y
    if op == "sub":
        return x - y
    if op == "div":
        return x / y
    if op == "lt":
        return x < y
    return mod.maximum(x, y)


def _operand(mod, kind, dtype, zero_dim):
    if kind == "scalar":
        return SCALARS[dtype]
    shape = () if zero_dim else (2, 3)
    return mod.ones(shape, dtype=getattr(mod, dtype)) if dtype != "bool" else mod.ones(shape) > 0


def _outcome(mod, op, left, right):
    try:
        r = _apply(mod, op, left, right)
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return "raises " + type(exc).__name__
    return str(r.dtype).split(".")[-1]


@needs_torch
@settings(FUZZ, max_examples=600)
@given(op=st.sampled_from(PROMOTING), a=st.sampled_from(DTYPES), b=st.sampled_from(DTYPES + sorted(SCALARS)),
       a0=st.booleans(), b0=st.booleans(), swap=st.booleans())
def test_type_promotion(op, a, b, a0, b0, swap):
    kinds = ("tensor", "scalar" if b in SCALARS else "tensor")
    outcomes = []
    for mod in (minitorch, real_torch):
        left = _operand(mod, kinds[0], a, a0)
        right = _operand(mod, kinds[1], b, b0)
        if swap and not (op == "maximum" and kinds[1] == "scalar"):
            left, right = right, left
        outcomes.append(_outcome(mod, op, left, right))
    assert outcomes[0] == outcomes[1], "%s %s(%s%s, %s%s) swap=%s" % (outcomes, op, a, "[0-d]" if a0 else "", b,
                                                                      "[0-d]" if b0 else "", swap)



# ---- matmul shapes ----------------------------------------------------------------------------------

@st.composite
def matmul_shapes(draw):
    nd_a = draw(st.integers(0, 4))
    nd_b = draw(st.integers(0, 4))
    k = draw(st.integers(0, 4))
    side = st.integers(0, 3)
    a = [draw(side) for _ in range(nd_a)]
    b = [draw(side) for _ in range(nd_b)]
    if draw(st.integers(0, 3)):   # usually make the inner dims agree
        if nd_a >= 1:
            a[-1] = k
        if nd_b >= 2:
            b[-2] = k
        elif nd_b == 1:
            b[0] = k
    return tuple(a), tuple(b)


def _matmul_outcome(mod, a, b, fn):
    x = mod.ones(a) if mod is real_torch else minitorch.ones(a)
    y = mod.ones(b) if mod is real_torch else minitorch.ones(b)
    try:
        r = fn(mod, x, y)
    except Exception as exc:  # noqa: BLE001
        return "raises " + type(exc).__name__
    return tuple(r.shape)


MATMULS = {
    "matmul": lambda mod, x, y: mod.matmul(x, y),
    "@": lambda mod, x, y: x @ y,
    "mm": lambda mod, x, y: mod.mm(x, y),
    "bmm": lambda mod, x, y: mod.bmm(x, y),
    "mv": lambda mod, x, y: mod.mv(x, y),
    "dot": lambda mod, x, y: mod.dot(x, y),
}


@needs_torch
@settings(FUZZ, max_examples=600)
@given(ab=matmul_shapes(), name=st.sampled_from(sorted(MATMULS)))
def test_matmul_shape_or_error(ab, name):
    a, b = ab
    got = _matmul_outcome(minitorch, a, b, MATMULS[name])
    want = _matmul_outcome(real_torch, a, b, MATMULS[name])
    assert got == want, "%s%s: minitorch %s, torch %s" % (name, ab, got, want)



@settings(FUZZ, max_examples=400)
@given(ab=matmul_shapes(), data=st.data())
def test_matmul_values(ab, data):
    """Where NumPy can multiply, minitorch gives its shape and values (float64, exact small ints)."""
    a_shape, b_shape = ab
    if not a_shape or not b_shape:
        return
    a = data.draw(hnp.arrays(np.float64, a_shape, elements=st.integers(-4, 4).map(float)))
    b = data.draw(hnp.arrays(np.float64, b_shape, elements=st.integers(-4, 4).map(float)))
    try:
        expected = np.matmul(a, b)
    except ValueError:
        with pytest.raises(RuntimeError):
            minitorch.matmul(mt(a), mt(b))
        return
    result = minitorch.matmul(mt(a), mt(b))
    assert tuple(result.shape) == expected.shape
    np.testing.assert_array_equal(to_numpy(result), expected)



# ---- indexing and views ----------------------------------------------------------------------------

@st.composite
def index_for(draw, shape):
    """A torch/NumPy index for `shape`: ints, slices, None, Ellipsis, int lists, bool masks, in valid
    positions (an out-of-range one now and then)."""
    parts = []
    dim = 0
    used_ellipsis = False
    n = draw(st.integers(0, len(shape) + 1))
    advanced = 0
    for _ in range(n):
        kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ellipsis", "list", "mask"]))
        if kind == "none":
            parts.append(None)
            continue
        if kind == "ellipsis":
            if not used_ellipsis:
                used_ellipsis = True
                parts.append(Ellipsis)
            continue
        if dim >= len(shape):
            break
        size = shape[dim]
        if kind == "int":
            if size == 0:
                continue
            parts.append(draw(st.integers(-size, size - 1)))
        elif kind == "slice":
            start = draw(st.none() | st.integers(-size - 2, size + 2))
            stop = draw(st.none() | st.integers(-size - 2, size + 2))
            step = draw(st.none() | st.integers(1, 3))
            parts.append(slice(start, stop, step))
        elif kind == "list":
            if size == 0 or advanced:
                continue
            advanced += 1
            parts.append(draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=3)))
        else:
            if advanced:
                continue
            advanced += 1
            parts.append(np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)), dtype=bool))
        dim += 1
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]
    return tuple(parts)


def _to_index(mod, index):
    if isinstance(index, tuple):
        return tuple(_to_index(mod, i) for i in index)
    if isinstance(index, np.ndarray):
        return mod.tensor(index.tolist(), dtype=mod.bool) if index.size else mod.zeros(0) > 0
    return index


def _to_mt_index(index):
    return _to_index(minitorch, index)


def numpy_agrees(index):
    """NumPy and torch differ where an int sits next to an advanced index (NumPy counts the int as
    advanced) and where an advanced index follows an Ellipsis on empty dims; elsewhere they agree."""
    parts = index if isinstance(index, tuple) else (index,)
    advanced = [isinstance(p, (list, np.ndarray)) for p in parts]
    if not any(advanced):
        return True
    if any(isinstance(p, int) for p in parts):
        return False
    return not any(p is Ellipsis for p in parts)


def reference_getitem(a, index):
    """(shape, values) or the exception type, from torch when installed, else from NumPy."""
    if real_torch is not None:
        try:
            r = tt(a)[_to_index(real_torch, index)]
        except IndexError:
            return IndexError
        return tuple(r.shape), np.array(r.tolist(), dtype=a.dtype).reshape(tuple(r.shape))
    if not numpy_agrees(index):
        return None
    try:
        r = a[index]
    except IndexError:
        return IndexError
    return np.shape(r), np.asarray(r)


@settings(FUZZ, max_examples=1000)
@given(data=st.data(), shape=shapes(max_dims=4), dtype=st.sampled_from(DTYPES))
def test_getitem_matches_reference(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    index = data.draw(index_for(shape))
    expected = reference_getitem(a, index)
    if expected is None:
        return
    if expected is IndexError:
        with pytest.raises(IndexError):
            mt(a)[_to_mt_index(index)]
        return
    result = mt(a)[_to_mt_index(index)]
    assert tuple(result.shape) == expected[0], (index, result.shape, expected[0])
    np.testing.assert_array_equal(to_numpy(result), expected[1])


@settings(FUZZ, max_examples=400)
@given(data=st.data(), shape=shapes(min_dims=1, max_dims=4), dtype=st.sampled_from(["float64", "int64"]))
def test_setitem_matches_numpy(data, shape, dtype):
    a = data.draw(arrays(dtype, shape))
    index = data.draw(index_for(shape))
    value = data.draw(st.integers(-9, 9))
    if not numpy_agrees(index):
        return
    expected = a.copy()
    try:
        expected[index] = value
    except IndexError:
        with pytest.raises(IndexError):
            mt(a)[_to_mt_index(index)] = value
        return
    t = mt(a)
    t[_to_mt_index(index)] = value
    np.testing.assert_array_equal(to_numpy(t), expected)



VIEW_OPS = ["transpose", "permute", "reshape", "view_flat", "unsqueeze", "flatten", "expand", "narrow",
            "select", "squeeze", "t_T", "chunk_cat", "contiguous"]


@st.composite
def view_case(draw):
    shape = draw(shapes(min_dims=1, max_dims=4))
    op = draw(st.sampled_from(VIEW_OPS))
    return shape, op, draw(st.randoms(use_true_random=False))


def _view(mod_is_np, x, shape, op, rnd):
    nd = len(shape)
    if op == "transpose":
        d0, d1 = rnd.randrange(nd), rnd.randrange(nd)
        return np.swapaxes(x, d0, d1) if mod_is_np else x.transpose(d0, d1)
    if op == "permute":
        perm = list(range(nd))
        rnd.shuffle(perm)
        return np.transpose(x, perm) if mod_is_np else x.permute(*perm)
    if op == "reshape":
        # -1 is ambiguous next to a 0-size dim, so -1 only where the rest is non-empty
        rest = tuple(shape[2:])
        first = -1 if all(rest) and nd >= 2 else int(np.prod(shape[:2]))
        target = (first,) + rest if nd >= 2 else (-1,)
        return np.reshape(x, target) if mod_is_np else x.reshape(*target)
    if op == "view_flat":
        return np.reshape(x, (-1,)) if mod_is_np else x.contiguous().view(-1)
    if op == "unsqueeze":
        d = rnd.randrange(-nd - 1, nd + 1)
        return np.expand_dims(x, d) if mod_is_np else x.unsqueeze(d)
    if op == "flatten":
        return np.reshape(x, (-1,)) if mod_is_np else x.flatten()
    if op == "expand":
        target = tuple(2 if s == 1 else s for s in shape)
        target = (3,) + target
        return np.broadcast_to(x, target) if mod_is_np else x.expand(*target)
    if op == "narrow":
        d = rnd.randrange(nd)
        start = rnd.randrange(shape[d] + 1)
        length = rnd.randrange(shape[d] - start + 1)
        sl = [slice(None)] * nd
        sl[d] = slice(start, start + length)
        return x[tuple(sl)] if mod_is_np else x.narrow(d, start, length)
    if op == "select":
        d = rnd.randrange(nd)
        if shape[d] == 0:
            return x
        i = rnd.randrange(-shape[d], shape[d])
        return np.take(x, i, axis=d) if mod_is_np else x.select(d, i)
    if op == "squeeze":
        return np.squeeze(x) if mod_is_np else x.squeeze()
    if op == "t_T":
        return x.T if mod_is_np else x.permute(*reversed(range(nd)))
    if op == "chunk_cat":
        d = rnd.randrange(nd)
        return x if mod_is_np else minitorch.cat(x.chunk(2, d) or [x], d) if shape[d] else x
    return x if mod_is_np else x.contiguous()


@settings(FUZZ, max_examples=600)
@given(case=view_case(), data=st.data())
def test_views_match_numpy(case, data):
    shape, op, rnd = case
    a = data.draw(arrays("float32", shape))
    state = rnd.getstate()
    expected = _view(True, a, shape, op, rnd)
    rnd.setstate(state)
    base = mt(a)
    if data.draw(st.booleans()) and len(shape) >= 2:
        # the same values through a non-contiguous base
        base = mt(np.swapaxes(a, 0, 1)).transpose(0, 1)
    result = _view(False, base, shape, op, rnd)
    assert tuple(result.shape) == expected.shape, (op, shape)
    np.testing.assert_array_equal(to_numpy(result), expected)
    # a view shares its base's storage: a write through contiguous() copies, a view does not
    assert result.contiguous().is_contiguous()



# ---- repr -------------------------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.5, 1e-5, 1e-8, 123456789.0, 1e12, 3.14159265, math.nan, math.inf, -math.inf, 0.1]


@st.composite
def repr_case(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(shapes(max_dims=3, max_side=5) | st.sampled_from([(1001,), (40, 40), (3, 400), (0,), (2, 0, 3)]))
    if dtype == "bool":
        elements = st.booleans()
    elif dtype.startswith("int"):
        bound = 2 ** 31 - 1 if dtype == "int32" else 2 ** 63 - 1
        elements = st.integers(-bound, bound) | st.integers(-20, 20)
    else:
        elements = st.sampled_from(SPECIAL) | st.floats(allow_nan=True, allow_infinity=True,
                                                         width=32 if dtype == "float32" else 64) | \
            st.integers(-1000, 1000).map(float)
    size = int(np.prod(shape))
    if size > 64:  # big tensors: a few distinct values, so that drawing stays cheap
        values = draw(st.lists(elements, min_size=1, max_size=4))
        flat = [values[i % len(values)] for i in range(size)]
        array = np.array(flat, dtype=NP[dtype]).reshape(shape)
    else:
        array = draw(hnp.arrays(NP[dtype], shape, elements=elements))
    return array


@settings(FUZZ, max_examples=500)
@given(array=repr_case(), fn=st.sampled_from([repr, str]))
def test_repr_never_fails_and_matches_torch(array, fn):
    t = mt(array)
    text = fn(t)
    assert text.startswith("tensor(")
    if real_torch is not None:
        assert text.replace("minitorch", "torch") == fn(tt(array)), array



@FUZZ
@given(array=repr_case(), data=st.data())
def test_repr_of_views_and_cuda(array, data):
    """repr of non-contiguous views, and of CUDA copies when a (simulated) GPU is present."""
    t = mt(array)
    if t.dim() >= 2:
        t = t.transpose(0, t.dim() - 1)
    text = repr(t)
    if real_torch is not None:
        ref = tt(array)
        if ref.dim() >= 2:
            ref = ref.transpose(0, ref.dim() - 1)
        assert text.replace("minitorch", "torch") == repr(ref)
    if minitorch.cuda.is_available():
        c = t.cuda()
        assert repr(c).endswith("device='cuda:0')") or "device='cuda:0'" in repr(c)
