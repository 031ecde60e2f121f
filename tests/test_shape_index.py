"""Shape ops (csrc/ops/shape.c) and indexing (csrc/ops/index.c): views that share storage (view,
reshape, t, transpose, permute, unsqueeze, squeeze, flatten, unflatten, expand, narrow, select, unbind,
chunk, split), the copies (clone, contiguous, cat, stack, hstack, vstack), __getitem__ (basic indices
as views, advanced indices as copies) and __setitem__ (numbers, broadcast tensors, masks, lists).

Values are checked against NumPy on random data; shapes, strides and storage offsets against values
written out here from torch 2.13 (and against torch itself when it is importable); errors by type and
exact message. Write-through checks prove that views share storage."""

import random
import warnings

import numpy as np
import pytest

import minitorch as mt

try:
    import torch

    HAVE_TORCH = torch.__version__.startswith("2.")
except Exception:  # pragma: no cover - torch is optional
    torch = None
    HAVE_TORCH = False

needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not importable: parity part skipped")

NP = {mt.bool: np.bool_, mt.int32: np.int32, mt.int64: np.int64, mt.float32: np.float32,
      mt.float64: np.float64}


def T(a, device="cpu"):
    t = mt.tensor(np.asarray(a))
    return t if device == "cpu" else t.to(device)


def N(t):
    return np.array(t.cpu().tolist(), dtype=NP[t.dtype]).reshape(tuple(t.shape))


def geometry(t):
    return tuple(t.shape), t.stride(), t.storage_offset()


def rand(shape, seed=0, dtype=np.float32):
    r = np.random.default_rng(seed)
    if dtype == np.bool_:
        return r.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        return r.integers(-50, 50, shape).astype(dtype)
    return (r.standard_normal(shape) * 3).astype(dtype)


def raises(exc, message, fn):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).replace("minitorch", "torch") == message


# ---- view / reshape ---------------------------------------------------------------------------------


def test_view_shares_storage_and_writes_through(device):
    a = np.arange(24, dtype=np.float32)
    x = T(a, device)
    v = x.view(2, 3, 4)
    assert geometry(v) == ((2, 3, 4), (12, 4, 1), 0)
    assert v.is_contiguous()
    v[1, 2, 3] = -7.5
    assert x[23].item() == -7.5
    assert v.data_ptr() == x.data_ptr()
    w = v.view(-1, 6)
    assert geometry(w) == ((4, 6), (6, 1), 0)
    np.testing.assert_array_equal(N(w), N(x).reshape(4, 6))


@pytest.mark.parametrize("spec", [(2, 12), ((2, 12),), ([2, 12],), (-1, 12), (2, -1)])
def test_view_size_forms(spec):
    x = mt.arange(24)
    assert tuple(x.view(*spec).shape) == (2, 12)
    assert tuple(x.view(mt.Size([4, 6])).shape) == (4, 6)
    assert tuple(x.view(size=(3, 8)).shape) == (3, 8)


def test_view_of_non_contiguous_follows_compute_stride():
    x = mt.arange(24).reshape(2, 3, 4)
    # torch's computeStride: dims may be split or merged only inside contiguous chunks
    assert geometry(x[:, :, ::2].view(6, 2)) == ((6, 2), (4, 2), 0)
    assert geometry(x[:, :, ::2].view(12)) == ((12,), (2,), 0)
    assert geometry(x.transpose(0, 1).view(3, 2, 2, 2)) == ((3, 2, 2, 2), (4, 12, 2, 1), 0)
    assert geometry(x[1:].view(3, 4)) == ((3, 4), (4, 1), 12)
    assert geometry(x.unsqueeze(1).view(2, 12)) == ((2, 12), (12, 1), 0)
    assert geometry(mt.tensor(5).view(1, 1)) == ((1, 1), (1, 1), 0)
    assert geometry(mt.tensor(5).view(())) == ((), (), 0)


def test_view_errors():
    a = mt.arange(6)
    raises(RuntimeError, "shape '[4]' is invalid for input of size 6", lambda: a.view(4))
    raises(RuntimeError, "only one dimension can be inferred", lambda: a.view(-1, -1))
    raises(RuntimeError, "invalid shape dimension -2 at index 0 of shape [-2, 3]", lambda: a.view(-2, 3))
    raises(RuntimeError, "shape '[0, -1]' is invalid for input of size 6", lambda: a.view(0, -1))
    raises(RuntimeError, "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
           "dimension size -1 can be any value and is ambiguous", lambda: mt.empty(0).view(0, -1))
    x = mt.arange(24).reshape(2, 3, 4)
    raises(RuntimeError, "view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
           lambda: x.transpose(1, 2).view(2, 12))
    raises(TypeError, "view(): argument 'size' failed to unpack the object at pos 2 with error \"type must "
           "be tuple of ints,but got NoneType\"", lambda: x.view(2, None))
    raises(TypeError, "view() received an invalid combination of arguments - got (str), but expected one of:\n"
           " * (torch.dtype dtype)\n"
           "      didn't match because some of the arguments have invalid types: (!str!)\n"
           " * (tuple of ints size)\n"
           "      didn't match because some of the arguments have invalid types: (!str!)\n",
           lambda: x.view("a"))


def test_reshape_views_when_possible_else_copies(device):
    a = rand((2, 3, 4), 1)
    x = T(a, device)
    r = x.reshape(4, 6)
    assert geometry(r) == ((4, 6), (6, 1), 0) and r.data_ptr() == x.data_ptr()
    t = x.transpose(1, 2)
    c = t.reshape(2, 12)                     # not viewable: a contiguous copy
    assert geometry(c) == ((2, 12), (12, 1), 0)
    np.testing.assert_array_equal(N(c), a.transpose(0, 2, 1).reshape(2, 12))
    c[0, 0] = 99.0
    assert x[0, 0, 0].item() != 99.0
    np.testing.assert_array_equal(N(mt.reshape(x, (-1,))), a.reshape(-1))
    np.testing.assert_array_equal(N(x.reshape(shape=(3, 8))), a.reshape(3, 8))
    np.testing.assert_array_equal(N(x.view_as(mt.empty(6, 4))), a.reshape(6, 4))
    np.testing.assert_array_equal(N(x.reshape_as(mt.empty(8, 3))), a.reshape(8, 3))


def test_view_dtype_reinterprets_bytes(device):
    a = np.array([1.5, -2.0, 0.0, 3.25], dtype=np.float32)
    x = T(a, device)
    v = x.view(mt.int32)
    assert v.dtype == mt.int32 and geometry(v) == ((4,), (1,), 0)
    np.testing.assert_array_equal(N(v), a.view(np.int32))
    w = mt.arange(6, dtype=mt.int32).view(3, 2).view(mt.int64)
    assert geometry(w) == ((3, 1), (1, 1), 0)
    assert geometry(mt.arange(6).view(mt.int32)) == ((12,), (1,), 0)
    v[0] = 0                                            # shares the bytes
    assert x[0].item() == 0.0
    raises(RuntimeError, "self.dim() cannot be 0 to view Long as Int (different element sizes)",
           lambda: mt.tensor(1).view(mt.int32))
    raises(RuntimeError, "self.size(-1) must be divisible by 2 to view Int as Long (different element sizes), "
           "but got 3", lambda: mt.arange(6, dtype=mt.int32).view(2, 3).view(mt.int64))
    raises(RuntimeError, "self.stride(-1) must be 1 to view Long as Int (different element sizes), but got 3",
           lambda: mt.arange(6).view(2, 3).t().view(mt.int32))


# ---- transpose, permute, squeeze, unsqueeze, flatten ------------------------------------------------


def test_transpose_t_permute(device):
    a = rand((2, 3, 4), 2)
    x = T(a, device)
    assert geometry(x.transpose(0, 2)) == ((4, 3, 2), (1, 4, 12), 0)
    np.testing.assert_array_equal(N(x.transpose(0, 2)), a.transpose(2, 1, 0))
    np.testing.assert_array_equal(N(x.swapaxes(0, 1)), a.swapaxes(0, 1))
    np.testing.assert_array_equal(N(mt.swapdims(x, 1, 2)), a.swapaxes(1, 2))
    np.testing.assert_array_equal(N(x.transpose(dim0=-1, dim1=0)), a.swapaxes(-1, 0))
    p = x.permute(2, 0, 1)
    assert geometry(p) == ((4, 2, 3), (1, 12, 4), 0) and not p.is_contiguous()
    np.testing.assert_array_equal(N(p), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(N(mt.permute(x, (1, 2, 0))), a.transpose(1, 2, 0))
    m = x[0]
    assert geometry(m.t()) == ((4, 3), (1, 4), 0)
    np.testing.assert_array_equal(N(mt.t(m)), a[0].T)
    assert geometry(mt.arange(5).t()) == ((5,), (1,), 0)
    m.t()[2, 1] = 123.0          # write through the transposed view
    assert x[0, 1, 2].item() == 123.0


def test_transpose_permute_errors():
    x = mt.arange(24).reshape(2, 3, 4)
    raises(RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D", lambda: x.t())
    raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
           lambda: x.transpose(0, 3))
    raises(TypeError, 'transpose() missing 1 required positional arguments: "dim1"', lambda: x.transpose(0))
    raises(TypeError, "transpose(): argument 'dim1' (position 2) must be int, not float",
           lambda: x.transpose(0, 1.0))
    raises(RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input does not match the "
           "length of the desired ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2",
           lambda: x.permute(2, 0))
    raises(RuntimeError, "permute(): duplicate dims are not allowed.", lambda: x.permute(2, 0, 0))
    raises(TypeError, "transpose(): argument 'input' (position 1) must be Tensor, not list",
           lambda: mt.transpose([1], 0, 1))


def test_unsqueeze_squeeze(device):
    a = rand((2, 1, 3, 1, 4), 3)
    x = T(a, device)
    assert geometry(x.squeeze()) == ((2, 3, 4), (12, 4, 1), 0)
    assert geometry(x.squeeze(1)) == ((2, 3, 1, 4), (12, 4, 4, 1), 0)
    assert geometry(x.squeeze(0)) == ((2, 1, 3, 1, 4), (12, 12, 4, 4, 1), 0)
    assert geometry(x.squeeze((1, 3))) == ((2, 3, 4), (12, 4, 1), 0)
    assert geometry(x.squeeze(1, 3)) == ((2, 3, 4), (12, 4, 1), 0)
    assert geometry(mt.squeeze(x, dim=[1, 3])) == ((2, 3, 4), (12, 4, 1), 0)
    np.testing.assert_array_equal(N(x.squeeze()), a.squeeze())
    y = x.squeeze()
    assert geometry(y.unsqueeze(0)) == ((1, 2, 3, 4), (24, 12, 4, 1), 0)
    assert geometry(y.unsqueeze(-1)) == ((2, 3, 4, 1), (12, 4, 1, 1), 0)
    assert geometry(y[:, :, ::2].unsqueeze(1)) == ((2, 1, 3, 2), (12, 12, 4, 2), 0)
    assert geometry(mt.unsqueeze(mt.tensor(3.0), 0)) == ((1,), (1,), 0)
    assert geometry(mt.tensor(1).squeeze(0)) == ((), (), 0)
    raises(RuntimeError, "dim 1 appears multiple times in the list of dims", lambda: x.squeeze((1, 1)))
    raises(IndexError, "Dimension out of range (expected to be in range of [-4, 3], but got 4)",
           lambda: y.unsqueeze(4))
    raises(TypeError, "unsqueeze(): argument 'dim' (position 1) must be int, not bool", lambda: y.unsqueeze(True))


def test_flatten_unflatten(device):
    a = rand((2, 3, 4), 4)
    x = T(a, device)
    assert geometry(x.flatten()) == ((24,), (1,), 0)
    assert geometry(x.flatten(1)) == ((2, 12), (12, 1), 0)
    assert geometry(x.flatten(0, 1)) == ((6, 4), (4, 1), 0)
    assert x.flatten(1, 1) is x                      # torch returns self here
    assert geometry(mt.tensor(2.0).flatten()) == ((1,), (1,), 0)
    np.testing.assert_array_equal(N(x.transpose(1, 2).flatten(0, 1)), a.transpose(0, 2, 1).reshape(8, 3))
    np.testing.assert_array_equal(N(mt.flatten(x, start_dim=1)), a.reshape(2, 12))
    u = x.unflatten(2, (2, -1))
    assert geometry(u) == ((2, 3, 2, 2), (12, 4, 2, 1), 0)
    np.testing.assert_array_equal(N(u), a.reshape(2, 3, 2, 2))
    raises(RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim", lambda: x.flatten(2, 1))
    raises(RuntimeError, "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in the "
           "input tensor", lambda: x.unflatten(2, (3, 2)))
    raises(RuntimeError, "unflatten: sizes must be non-empty", lambda: x.unflatten(2, ()))


# ---- expand ------------------------------------------------------------------------------------------


def test_expand(device):
    a = rand((3, 1), 5)
    x = T(a, device)
    e = x.expand(2, 3, 4)
    assert geometry(e) == ((2, 3, 4), (0, 1, 0), 0)
    np.testing.assert_array_equal(N(e), np.broadcast_to(a, (2, 3, 4)))
    assert geometry(x.expand(-1, 5)) == ((3, 5), (1, 0), 0)
    assert geometry(x.expand_as(mt.empty(3, 7))) == ((3, 7), (1, 0), 0)
    assert geometry(mt.broadcast_to(x, (2, 3, 2))) == ((2, 3, 2), (0, 1, 0), 0)
    assert geometry(mt.tensor(1.0).expand(3)) == ((3,), (0,), 0)
    x[1, 0] = 42.0                                  # the expanded view sees the write
    assert (N(e)[:, 1, :] == 42.0).all()


def test_expand_errors():
    y = mt.ones(2, 3, 4)
    raises(RuntimeError, "expand(torch.FloatTensor{[2, 3, 4]}, size=[3, 4]): the number of sizes provided (2) "
           "must be greater or equal to the number of dimensions in the tensor (3)", lambda: y.expand(3, 4))
    raises(RuntimeError, "The expanded size of the tensor (5) must match the existing size (4) at non-singleton "
           "dimension 2.  Target sizes: [2, 3, 5].  Tensor sizes: [2, 3, 4]", lambda: y.expand(2, 3, 5))
    raises(RuntimeError, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
           "dimension 0", lambda: mt.ones(3, 1).expand(-1, -1, 4))


# ---- clone / contiguous -------------------------------------------------------------------------------


def test_clone_and_contiguous(device):
    a = rand((2, 3, 4), 6)
    x = T(a, device)
    c = x.clone()
    assert geometry(c) == ((2, 3, 4), (12, 4, 1), 0) and c.data_ptr() != x.data_ptr()
    c[0, 0, 0] = 1000.0
    assert x[0, 0, 0].item() != 1000.0
    # torch's preserve_format: a dense permuted layout keeps its strides ...
    assert geometry(x.transpose(0, 1).clone()) == ((3, 2, 4), (4, 12, 1), 0)
    # ... a non-dense one gets dense strides in the same dim order
    assert geometry(x.transpose(0, 2)[:, ::2].clone()) == ((4, 2, 2), (1, 4, 8), 0)
    assert geometry(mt.ones(3, 1).expand(3, 4).clone()) == ((3, 4), (4, 1), 0)
    np.testing.assert_array_equal(N(mt.clone(x.transpose(0, 2))), a.transpose(2, 1, 0))
    assert x.contiguous() is x
    t = x.transpose(0, 1).contiguous()
    assert geometry(t) == ((3, 2, 4), (8, 4, 1), 0) and t.is_contiguous()
    np.testing.assert_array_equal(N(t), a.transpose(1, 0, 2))
    raises(TypeError, "clone() takes 0 positional arguments but 1 was given", lambda: x.clone(1))


# ---- narrow / select / unbind / chunk / split ------------------------------------------------------


def test_narrow_select_unbind(device):
    a = rand((2, 3, 4), 7)
    x = T(a, device)
    n = x.narrow(1, 1, 2)
    assert geometry(n) == ((2, 2, 4), (12, 4, 1), 4)
    np.testing.assert_array_equal(N(n), a[:, 1:3])
    assert geometry(mt.narrow(x, 1, -1, 1)) == ((2, 1, 4), (12, 4, 1), 8)
    s = x.select(1, -1)
    assert geometry(s) == ((2, 4), (12, 1), 8)
    np.testing.assert_array_equal(N(s), a[:, -1])
    parts = x.unbind(1)
    assert isinstance(parts, tuple) and len(parts) == 3
    assert [geometry(p) for p in parts] == [((2, 4), (12, 1), 4 * i) for i in range(3)]
    parts[2][1, 3] = 55.0
    assert x[1, 2, 3].item() == 55.0
    raises(IndexError, "start out of range (expected to be in range of [-3, 3], but got 4)",
           lambda: x.narrow(1, 4, 0))
    raises(RuntimeError, "start (2) + length (2) exceeds dimension size (3).", lambda: x.narrow(1, 2, 2))
    raises(RuntimeError, "narrow(): length must be non-negative.", lambda: x.narrow(1, 1, -1))
    raises(IndexError, "select(): index 3 out of range for tensor of size [2, 3, 4] at dimension 1",
           lambda: x.select(1, 3))
    raises(IndexError, "select() cannot be applied to a 0-dim tensor.", lambda: mt.tensor(1).select(0, 0))
    raises(IndexError, "Dimension specified as 0 but tensor has no dimensions", lambda: mt.tensor(1).unbind())


def test_chunk_split():
    y = mt.arange(24.0).reshape(2, 3, 4)
    assert [geometry(p) for p in y.chunk(3, 2)] == [((2, 3, 2), (12, 4, 1), 0), ((2, 3, 2), (12, 4, 1), 2)]
    assert [geometry(p) for p in mt.chunk(y, 2, dim=1)] == [((2, 2, 4), (12, 4, 1), 0), ((2, 1, 4), (12, 4, 1), 8)]
    assert len(mt.empty(0, 2).chunk(3)) == 3
    assert [geometry(p) for p in y.split(3, 2)] == [((2, 3, 3), (12, 4, 1), 0), ((2, 3, 1), (12, 4, 1), 3)]
    assert [geometry(p) for p in y.split([1, 3], 2)] == [((2, 3, 1), (12, 4, 1), 0), ((2, 3, 3), (12, 4, 1), 1)]
    assert [geometry(p) for p in mt.split(y, 2, dim=1)] == [((2, 2, 4), (12, 4, 1), 0), ((2, 1, 4), (12, 4, 1), 8)]
    raises(RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0", lambda: y.chunk(0))
    raises(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at "
           "dimension 2), but got split_sizes=[1, 2]", lambda: y.split([1, 2], 2))
    raises(RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of 4",
           lambda: y.split(0, 2))
    raises(RuntimeError, "split expects at least a 1-dimensional tensor", lambda: mt.tensor(1).split(1))


# ---- cat / stack ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_values_and_promotion(device, dim):
    a = rand((2, 3, 4), 8)
    b = rand((2, 3, 4), 9, np.int32)
    c = rand((2, 3, 4), 10, np.float64)
    r = mt.cat([T(a, device), T(b, device), T(c, device)], dim)
    assert r.dtype == mt.float64 and r.is_contiguous() and r.device == T(a, device).device
    np.testing.assert_array_equal(N(r), np.concatenate([a.astype(np.float64), b, c], axis=dim))
    # non-contiguous inputs and the legacy skip of 1-D empty tensors
    t = T(a, device).transpose(0, 2)
    r2 = mt.cat((t, mt.empty(0).to(device), t), dim=1)
    np.testing.assert_array_equal(N(r2), np.concatenate([a.transpose(2, 1, 0)] * 2, axis=1))
    assert mt.cat([T(b, device), T(b, device)]).dtype == mt.int32
    assert mt.cat([mt.ones(2, dtype=mt.bool), mt.ones(1, dtype=mt.int32)]).dtype == mt.int32
    assert tuple(mt.concat([mt.ones(2, 3)] * 2, dim=1).shape) == (2, 6)
    assert tuple(mt.concatenate([mt.ones(2, 3)] * 2, axis=1).shape) == (2, 6)


def test_cat_errors():
    a = mt.ones(2, 3)
    raises(ValueError, "torch.cat(): expected a non-empty list of Tensors", lambda: mt.cat([]))
    raises(RuntimeError, "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for "
           "tensor number 1 in the list.", lambda: mt.cat([a, mt.ones(3, 3)], 1))
    raises(RuntimeError, "Tensors must have same number of dimensions: got 2 and 1", lambda: mt.cat([a, mt.ones(2)]))
    raises(RuntimeError, "zero-dimensional tensor (at position 0) cannot be concatenated",
           lambda: mt.cat([mt.tensor(1.0), mt.tensor(2.0)]))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
           lambda: mt.cat([a, a], 2))
    raises(TypeError, "expected Tensor as element 1 in argument 0, but got int", lambda: mt.cat([a, 1]))
    raises(TypeError, "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
           lambda: mt.cat(a))


@pytest.mark.parametrize("fname", ["cat", "concat", "concatenate", "stack", "hstack", "vstack"])
def test_cat_family_writes_into_out(fname):
    # torch writes into out= and returns it
    f = getattr(mt, fname)
    a = mt.ones(2, 3)
    out = mt.empty(0)
    assert f([a, a], out=out) is out and out.tolist() == f([a, a]).tolist()
    raises(TypeError, "%s(): argument 'out' must be Tensor, not int" % fname, lambda: f([a, a], out=5))
    numpy_name = {"cat": "concatenate", "concat": "concatenate"}.get(fname, fname)
    assert tuple(f([a, a], out=None).shape) == getattr(np, numpy_name)([np.ones((2, 3))] * 2).shape
    # the arguments before out= are checked first, as torch's parser does
    raises(TypeError, "expected Tensor as element 1 in argument 0, but got int", lambda: f([a, 1], out=5))
    if HAVE_TORCH:
        real = getattr(torch, fname)
        with pytest.raises(TypeError) as info:
            real([torch.ones(2, 3)] * 2, out=5)
        assert str(info.value) == "%s(): argument 'out' must be Tensor, not int" % fname


def test_stack_hstack_vstack(device):
    a, b = rand((2, 3), 11), rand((2, 3), 12)
    for dim in (0, 1, 2, -1):
        r = mt.stack([T(a, device), T(b, device)], dim)
        np.testing.assert_array_equal(N(r), np.stack([a, b], axis=dim))
        assert r.is_contiguous()
    assert geometry(mt.stack([mt.tensor(1.0), mt.tensor(2.0)])) == ((2,), (1,), 0)
    np.testing.assert_array_equal(N(mt.hstack([T(a), T(b)])), np.hstack([a, b]))
    np.testing.assert_array_equal(N(mt.vstack([T(a[0]), T(b[0])])), np.vstack([a[0], b[0]]))
    raises(RuntimeError, "stack expects a non-empty TensorList", lambda: mt.stack([]))
    raises(RuntimeError, "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 3] at "
           "entry 1", lambda: mt.stack([mt.ones(2, 3), mt.ones(3, 3)]))
    raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
           lambda: mt.stack([mt.ones(2, 3)] * 2, 3))


# ---- __getitem__ ----------------------------------------------------------------------------------------

BASIC = [
    "[0]", "[-1]", "[1, 2]", "[0, 1, 2]", "[1:]", "[:, 1:]", "[:, ::2]", "[..., 1]", "[..., ::3]", "[None]",
    "[:, None]", "[..., None]", "[None, ..., None]", "[...]", "[:]", "[-5:10]", "[3:1]", "[:, 5:]",
    "[1, ..., 2]", "[0, 0, 0, None]", "[1:2, :, 1::2]",
]


@pytest.mark.parametrize("index", BASIC)
def test_basic_index_is_a_view_matching_numpy(device, index):
    a = rand((2, 3, 4), 13)
    x = T(a, device)
    r = eval("x" + index)
    expected = eval("a" + index)
    assert tuple(r.shape) == expected.shape
    np.testing.assert_array_equal(N(r), expected)
    # a view: the same storage, with NumPy's strides in elements
    if r.numel() > 0:
        assert r.data_ptr() == x.data_ptr() + r.storage_offset() * 4
    if expected.size > 1:
        nonunit = [(s // 4) for s, n in zip(expected.strides, expected.shape) if n > 1]
        assert [s for s, n in zip(r.stride(), r.shape) if n > 1] == nonunit


def test_basic_index_geometry_and_write_through():
    x = mt.arange(24).reshape(2, 3, 4)
    assert geometry(x[None, 1]) == ((1, 3, 4), (24, 4, 1), 12)
    assert geometry(x[True]) == ((1, 2, 3, 4), (24, 12, 4, 1), 0)      # a copy in torch too
    assert geometry(x[False]) == ((0, 2, 3, 4), (24, 12, 4, 1), 0)
    assert geometry(x[mt.tensor(1)]) == ((3, 4), (4, 1), 12)            # a 0-d integer tensor is an int
    assert geometry(x[np.int64(1), np.int32(2)]) == ((4,), (1,), 20)
    assert geometry(x[..., 0, ...]) == ((2, 3), (12, 4), 0)
    assert x[...] is not x and x[()] is not x
    v = x[1, :, 1::2]
    v[...] = -1
    assert x[1].tolist() == [[12, -1, 14, -1], [16, -1, 18, -1], [20, -1, 22, -1]]
    assert mt.tensor(5)[...].tolist() == 5 and mt.tensor(5)[None].tolist() == [5]


def test_getitem_errors():
    x = mt.arange(24).reshape(2, 3, 4)
    z = mt.tensor(5)
    raises(IndexError, "index 2 is out of bounds for dimension 0 with size 2", lambda: x[2])
    raises(IndexError, "index -3 is out of bounds for dimension 0 with size 2", lambda: x[-3])
    raises(IndexError, "index 5 is out of bounds for dimension 1 with size 3", lambda: x[0, 5])
    raises(IndexError, "index 5 is out of bounds for dimension 1 with size 4", lambda: x[..., 5])
    raises(IndexError, "too many indices for tensor of dimension 3", lambda: x[0, 1, 2, 3])
    raises(ValueError, "step must be greater than zero", lambda: x[::-1])
    raises(ValueError, "slice step cannot be zero", lambda: x[::0])
    raises(IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
           "indices (got float)", lambda: x[1.0])
    raises(IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
           "indices (got dict)", lambda: x[{}])
    raises(TypeError, "new(): invalid data type 'str'", lambda: x["a"])
    raises(IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
           "C++ to convert a 0-dim tensor to a number", lambda: z[0])
    raises(IndexError, "slice() cannot be applied to a 0-dim tensor.", lambda: z[:])
    raises(IndexError, "tensors used as indices must be long, int, byte or bool tensors",
           lambda: x[mt.tensor([0.0])])
    raises(ValueError, "Overflow when unpacking long long", lambda: x[2 ** 70])


ADVANCED = [
    "[[0, 1]]", "[[1]]", "[[0, 1], [1, 2]]", "[:, [0, 2]]", "[:, :, [0, 2]]", "[[0, 1], :, [1, 2]]",
    "[:, [0, 1], [1, 2]]", "[:, [-1]]", "[[0, 1], [[0], [1]]]", "[0, [0, 2], 1:3]", "[..., [0, 1]]",
    "[[0, 1], ..., [1, 2]]", "[[0, 0, 0, 0, 0]]", "[1, m[0]]", "[m]", "[m, 0]", "[m, 1:3]", "[x > 20]",
    "[:, [True, False, True]]", "[[True, False]]", "[[]]",
]


@pytest.mark.parametrize("index", ADVANCED)
def test_advanced_index_copies_matching_numpy(device, index):
    a = np.arange(24).reshape(2, 3, 4)
    x = T(a, device)
    m, mn = x[:, :, 0] > 5, a[:, :, 0] > 5
    r = eval("x" + index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = eval("a" + index.replace("m", "mn").replace("x >", "a >"))
    assert tuple(r.shape) == expected.shape
    np.testing.assert_array_equal(N(r), expected)
    if r.numel() > 0:
        before = N(x).copy()
        r.view(-1)[0] = -999                        # a copy: the base does not change
        np.testing.assert_array_equal(N(x), before)


def test_advanced_index_layout_and_dtype():
    x = mt.arange(24).reshape(2, 3, 4)
    assert geometry(x[:, [0, 2]]) == ((2, 2, 4), (8, 4, 1), 0)
    assert geometry(x[[0, 1], :, [1, 2]]) == ((2, 3), (3, 1), 0)
    assert geometry(x[:, [[0, 2], [1, 1]]]) == ((2, 2, 2, 4), (16, 8, 4, 1), 0)
    # torch's TensorIterator keeps the layout of a permuted source
    xt = x.permute(2, 0, 1)
    assert geometry(xt[:, [0, 1]]) == ((4, 2, 3), (1, 4, 8), 0)
    assert geometry(xt[..., [0, 1]]) == ((4, 2, 2), (2, 8, 1), 0)
    assert x[mt.tensor([1, 0], dtype=mt.int32)].tolist()[0][0] == [12, 13, 14, 15]
    assert x.double()[x > 20].tolist() == [21.0, 22.0, 23.0]
    assert x[[1.7]].tolist() == x[[1]].tolist()            # list of floats: truncated to int64


def test_advanced_index_errors():
    x = mt.arange(24).reshape(2, 3, 4)
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 3", lambda: x[:, [5]])
    raises(IndexError, "index 9 is out of bounds for dimension 1 with size 3", lambda: x[[0, 1], [0, 9]])
    raises(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
           lambda: x[[0, 1], [1, 2, 0]])
    raises(IndexError, "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor "
           "[2, 3, 4] at index 0", lambda: x[mt.tensor([True, False, True])])
    raises(IndexError, "index is out of bounds for dimension with size 0", lambda: mt.empty(0, 3)[[0]])


# ---- __setitem__ -----------------------------------------------------------------------------------------

SETS = [
    ("[0]", "1"), ("[0, 1]", "2.5"), ("[:, 0]", "T([1., 2, 3, 4])"), ("[:, 0]", "T([1, 2, 3, 4])"),
    ("[0]", "T(np.ones((1, 1, 3, 4)))"), ("[...]", "7"), ("[None]", "3"), ("[True]", "3"), ("[False]", "3"),
    ("[0, ::2]", "-1"), ("[x > 20]", "0"), ("[x > 20]", "T(np.array([1., 2., 3.], np.float32))"),
    ("[[0, 1]]", "5"), ("[:, [0, 2]]", "T(np.zeros((2, 2, 4), np.float32))"), ("[:, [0, 2]]", "T(np.zeros((2, 1), np.float32))"),
    ("[0, [0, 1], [1, 2]]", "T(np.array([-1., -2.], np.float32))"), ("[:, 1]", "x[:, 0]"), ("[0]", "x[1]"),
    ("[x > 5]", "T(np.array(1., np.float32))"), ("[1][1:3, [0, 3]]", "T(np.array([[1., 2.], [3., 4.]], np.float32))"),
]


@pytest.mark.parametrize("index,value", SETS)
def test_setitem_matches_numpy(device, index, value):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = T(a, device)

    def T_(v):
        return T(v, device)

    exec("x%s = %s" % (index, value), {"x": x, "T": T_, "np": np})
    na = a.copy()
    nindex = index.replace("x >", "a >").replace("None", "np.newaxis")
    nvalue = value.replace("x[", "a[").replace("T(", "np.asarray(")
    if index == "[True]":
        na[np.newaxis] = eval(nvalue)
    elif index != "[False]":
        exec("na%s = %s" % (nindex, nvalue), {"na": na, "a": a.copy(), "np": np})
    np.testing.assert_array_equal(N(x), na)


def test_setitem_number_conversion():
    xi = mt.arange(6, dtype=mt.int32).reshape(2, 3)
    xi[0] = 2.7
    xi[1, 0] = -2.7
    assert xi.tolist() == [[2, 2, 2], [-2, 4, 5]]
    xi[xi > 3] = 1.5                                   # mask fill converts like torch
    assert xi.tolist() == [[2, 2, 2], [-2, 1, 1]]
    xb = mt.zeros(2, 3, dtype=mt.bool)
    xb[0] = 2.5
    xb[1, 1] = float("nan")
    assert xb.tolist() == [[True, True, True], [False, True, False]]
    x = mt.zeros(3)
    x[0] = np.float64(2.5)
    x[1] = np.int64(3)
    x[2] = True
    assert x.tolist() == [2.5, 3.0, 1.0]
    xi[0] = mt.tensor([1.5, 2.5, 3.5])                   # tensors are copied with conversion
    assert xi[0].tolist() == [1, 2, 3]


def test_setitem_errors():
    x = mt.arange(24.0).reshape(2, 3, 4)
    xi = mt.arange(6, dtype=mt.int32).reshape(2, 3)

    def setter(t, index, value):
        def run():
            t[index] = value
        return run

    raises(RuntimeError, "value cannot be converted to type int without overflow", setter(xi, 0, 2 ** 40))
    raises(RuntimeError, "value cannot be converted to type float without overflow", setter(x, 0, 1e40))
    raises(RuntimeError, "value cannot be converted to type int64_t without overflow",
           setter(mt.zeros(2, dtype=mt.int64), 0, float("inf")))
    raises(ValueError, "Overflow when unpacking long long", setter(x, 0, 2 ** 70))
    raises(TypeError, "can't assign a str to a torch.IntTensor", setter(xi, 0, "a"))
    raises(TypeError, "can't assign a numpy.float32 to a torch.FloatTensor", setter(x, 0, np.float32(1)))
    raises(RuntimeError, "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
           "dimension 1.  Target sizes: [2, 4].  Tensor sizes: [3]", setter(x, (slice(None), 0), mt.ones(3)))
    raises(RuntimeError, "expand(torch.FloatTensor{[2, 3, 4]}, size=[3, 4]): the number of sizes provided (2) "
           "must be greater or equal to the number of dimensions in the tensor (3)", setter(x, 0, mt.ones(2, 3, 4)))
    raises(RuntimeError, "Index put requires the source and destination dtypes match, got Float for the "
           "destination and Long for the source.", setter(x, x > 20, mt.tensor([1, 2, 3])))
    raises(RuntimeError, "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of "
           "shape [3]", setter(x, x > 20, mt.tensor([1.0, 2.0])))
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 2", setter(x, [5], 1))
    raises(RuntimeError, "unsupported operation: some elements of the input tensor and the written-to tensor "
           "refer to a single memory location. Please clone() the tensor before performing the operation.",
           setter(x, [0, 1], x[0]))

    def delete():
        del x[0]

    raises(TypeError, "Tensor does not support deleting items", delete)


def test_setitem_int_is_basic_not_advanced():
    # torch treats the int as a select (unlike NumPy, where it joins the list as an advanced index):
    # the list's dim stays in place
    x = mt.zeros(2, 3, 4)
    x[1, 1:3, [0, 3]] = mt.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x[1].tolist() == [[0.0] * 4, [1.0, 0.0, 0.0, 2.0], [3.0, 0.0, 0.0, 4.0]]
    assert tuple(x[1, 1:3, [0, 3]].shape) == (2, 2)


OVERLAP_MESSAGE = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                   "single memory location. Please clone() the tensor before performing the operation.")
INTERNAL_OVERLAP_MESSAGE = ("unsupported operation: more than one element of the written-to tensor refers to a "
                            "single memory location. Please clone() the tensor before performing the operation.")


def test_setitem_refuses_a_source_overlapping_the_destination(device):
    """copy_'s rule, as torch's setitem applies it: a dense source sharing some but not all of the
    destination's memory raises (the values would be read after being overwritten) and nothing is written."""
    x = mt.arange(10.0, device=device)
    y = mt.arange(9.0, device=device).reshape(3, 3)

    def setter(t, index, value):
        def run():
            t[index] = value
        return run

    for t, index, value in [(x, slice(1, None), x[:-1]), (x, slice(None, -1), x[1:]), (x, slice(2, 5), x[3:6]),
                            (y, Ellipsis, y.t()), (y, slice(1, None), y[:2]),
                            (x, slice(1, None), x[:-1].unsqueeze(0)),
                            (x, [1, 2, 3], x[:3]), (x, x > 4, x[:5]), (x, [0, 1], x[0]), (y, [0, 1], y[1:])]:
        before = t.tolist()
        raises(RuntimeError, OVERLAP_MESSAGE, setter(t, index, value))
        assert t.tolist() == before
    # an index tensor in the written-to memory counts too
    a = mt.arange(5, device=device)
    raises(RuntimeError, OVERLAP_MESSAGE, setter(a, a[:2], 7))
    # full overlap, no overlap and layouts torch does not judge (not dense) are written, reading first
    x[...] = x
    x[2:5] = x[2:5]
    x[1:] = x[:1]
    assert x.tolist() == [0.0] * 10
    x = mt.arange(10.0, device=device)
    x[::2] = x[1::2]
    assert x.tolist() == [1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 7.0, 7.0, 9.0, 9.0]
    y[:, :2] = y[:, 1:]
    assert y.tolist() == [[1.0, 2.0, 2.0], [4.0, 5.0, 5.0], [7.0, 8.0, 8.0]]
    x = mt.arange(10.0, device=device)
    x[[0, 1]] = x[[1, 2]]
    if device == "cpu":
        x[x > 8] = x[0:1]           # one bool mask and one CPU value: masked_fill_, no overlap check
        assert x.tolist() == [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0]
    else:
        raises(RuntimeError, OVERLAP_MESSAGE, setter(x, x > 8, x[0:1]))


def test_setitem_into_an_expanded_tensor(device):
    """Basic indexing that leaves several elements on one memory location raises; advanced indexing writes
    with torch's deprecation warnings (index_put_, and masked_fill_ for a mask and one value)."""
    e = mt.zeros(3, device=device).expand(4, 3)

    def setter(index, value):
        def run():
            e[index] = value
        return run

    for index, value in [(Ellipsis, 1), (slice(None), mt.ones(3, device=device)), ((slice(None), 1), 7),
                         (True, 7), (None, 7), (Ellipsis, mt.tensor(3.0))]:
        raises(RuntimeError, INTERNAL_OVERLAP_MESSAGE, setter(index, value))
    e[0] = mt.tensor([1.0, 2.0, 3.0], device=device)
    assert e.tolist() == [[1.0, 2.0, 3.0]] * 4
    index_put = ("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing "
                 "this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor")
    masked_fill = ("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                   "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar")
    for index, value, want, warned in [
            ([0, 1], 3.0, [[3.0] * 3] * 4, [index_put]),
            ((slice(None), [0, 2]), mt.tensor([8.0, 9.0], device=device), [[8.0, 3.0, 9.0]] * 4, [index_put]),
            (lambda: e == 3, 4, [[8.0, 4.0, 9.0]] * 4, [index_put, masked_fill]),
            (lambda: e == 4, mt.tensor(5.0), [[8.0, 5.0, 9.0]] * 4, [index_put, masked_fill]),
            ([0, 1], mt.arange(6.0, device=device).reshape(2, 3), [[3.0, 4.0, 5.0]] * 4, [index_put])]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            e[index() if callable(index) else index] = value     # a mask is taken from e as it is now
        assert e.tolist() == want
        assert [str(w.message) for w in caught] == warned
        assert all(w.category is UserWarning and w.filename == __file__ for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raises(IndexError, "index 9 is out of bounds for dimension 0 with size 4", setter([0, 9], 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raises(UserWarning, index_put, setter([0, 1], 1))


# ---- parity with torch ---------------------------------------------------------------------------------

PARITY_SETUP = """
x = torch.arange(24).reshape(2, 3, 4)
y = torch.arange(24.).reshape(2, 3, 4)
m = x[:, :, 0] > 5
xt = x.permute(2, 0, 1)
"""

PARITY_CASES = [
    "x.view(4, 6)", "x[:, :, ::2].view(6, 2)", "x.transpose(0, 1).view(3, 2, 2, 2)", "x.reshape(-1, 4)",
    "xt.reshape(4, 6)", "xt.flatten(1)", "x.unflatten(2, (2, 2))", "x.expand(2, 2, 3, 4)", "xt.clone()",
    "xt[1:, :, ::2].clone()", "x.narrow(2, 1, 2)", "x.unbind(2)", "x.chunk(3, 2)", "x.split([1, 2], 1)",
    "torch.cat([x, xt.permute(1, 2, 0)], 1)", "torch.stack([y, y], 3)", "torch.cat([x.int(), y])",
    "x[None, 1, ..., None, ::3]", "x[[1, 0], :, [2, 3]]", "xt[[0, 1]]", "xt[:, [0, 1], [0, 1]]", "x[m]",
    "x[m, None]", "y[y > 7.5]", "x[torch.tensor([[0, 1], [1, 0]])]", "x[..., torch.tensor([True, False, True, True])]",
    "x[[True, False], 0]", "x.view(-1, -1)", "x.expand(3, 4)", "torch.cat([x, y[0]])", "x[0, 1, 2, 3]",
    "x[[0], [5]]", "x[::-1]", "x.squeeze((0, 0))", "x.permute(0, 1)", "torch.cat([x, x], 3)", "x.t()",
    "x.view(torch.int32)", "y[:, 1:].view(torch.int32)", "y.view(torch.float64)",
    "x[x > 5, True]", "x[True, x > 5]", "x[x > 5, False]", "x[x > 5, None, True]", "x[:, m, True]",
    "x[:, True, m]", "x[True, :, m]", "x[m, ..., True]", "x[x > 5, torch.tensor(True)]", "x[x > 5, 1]",
]


def _run(mod, code):
    g = {"torch": mod}
    exec(PARITY_SETUP, g)
    try:
        r = eval(code, g)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return (type(e).__name__, str(e).split("\nException raised from")[0].replace("minitorch", "torch"))
    rs = r if isinstance(r, tuple) else (r,)
    return [(tuple(t.shape), t.stride(), t.storage_offset(), str(t.dtype).split(".")[-1], t.tolist()) for t in rs]


@needs_torch
@pytest.mark.parametrize("code", PARITY_CASES)
def test_parity_with_torch(code):
    assert _run(mt, code) == _run(torch, code)


def _random_index(rng):
    k = rng.random()
    if k < 0.15:
        return str(rng.randint(-3, 3))
    if k < 0.3:
        return "%s:%s%s" % (rng.choice(["", "0", "1", "-1", "-5"]), rng.choice(["", "2", "-1", "10"]),
                            rng.choice(["", "", ":2", ":3"]))
    if k < 0.38:
        return "None"
    if k < 0.43:
        return "..."
    if k < 0.47:
        return rng.choice(["True", "False"])
    if k < 0.65:
        return "[%s]" % ", ".join(str(rng.randint(-2, 2)) for _ in range(rng.randint(0, 3)))
    if k < 0.75:
        return "torch.tensor([[%d, %d], [%d, %d]])" % tuple(rng.randint(0, 1) for _ in range(4))
    if k < 0.8:
        return "torch.tensor(%d)" % rng.randint(-1, 1)
    if k < 0.85:
        return "x %s %d" % (rng.choice([">", "<"]), rng.randint(0, 6))     # a full-rank mask
    return "torch.tensor([%s])" % ", ".join(rng.choice(["True", "False"]) for _ in range(rng.randint(1, 3)))


@needs_torch
@pytest.mark.parametrize("seed", range(4))
def test_random_indexing_parity_with_torch(seed):
    """Random mixes of every index kind on random shapes and layouts: same result, strides, error."""
    rng = random.Random(seed)
    for _ in range(150):
        nd = rng.randint(0, 4)
        shape = tuple(rng.randint(1, 3) for _ in range(nd))
        n = int(np.prod(shape)) if shape else 1
        code = "x = torch.arange(%d).reshape(%s)\n" % (n, shape)
        if nd >= 2 and rng.random() < 0.4:
            p = list(range(nd))
            rng.shuffle(p)
            code += "x = x.permute(%s).contiguous().permute(%s)\n" % (p, sorted(range(nd), key=lambda i: p[i]))
        idx = ", ".join(_random_index(rng) for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.6:
            code += "r = x[%s]\n" % idx
        else:
            value = rng.choice(["7", "-1.5", "True", "torch.tensor(3)", "torch.tensor([1, 2])", "x",
                                "x.reshape(-1)[:1]", "x.reshape(-1)[-2:]"])
            code += "x[%s] = %s\nr = x\n" % (idx, value)
        results = []
        for mod in (torch, mt):
            g = {"torch": mod}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(code, g)
                    r = g["r"]
                    results.append((tuple(r.shape), r.stride(), r.storage_offset(), r.tolist()))
                except Exception as e:  # noqa: BLE001
                    results.append((type(e).__name__, str(e).split("\nException raised from")[0]
                                    .replace("minitorch", "torch")))
        assert results[0] == results[1], code
