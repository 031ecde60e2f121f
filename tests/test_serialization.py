"""Pickling, copy.copy and copy.deepcopy of tensors (minitorch/_serialization.py and the Tensor's
_storage_* methods in csrc/python/tensor_type.c), compared with torch 2.13 when it is installed.

What a user relies on: the result has the source's shape, strides, storage offset, dtype, device,
requires_grad, type (Tensor subclasses, nn.Parameter) and attributes; deepcopy keeps views of one storage
views of one (new) storage; copy.copy shares memory; a pickle never shares memory with anything. A pickle
that lies about its geometry is refused, not read out of bounds."""

import copy
import os
import pickle
import textwrap

import pytest

import minitorch
from subproc import python_output

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")


def pickled(x):
    return pickle.loads(pickle.dumps(x))


ROUND_TRIPS = {"pickle": pickled, "deepcopy": copy.deepcopy, "pickle-protocol-2": lambda x: pickle.loads(
    pickle.dumps(x, protocol=2))}

# expressions (torch spelling) of tensors whose geometry a round trip must keep
SOURCES = [
    "torch.zeros(2, 0, 3)", "torch.zeros(0, 0)", "torch.zeros(0)", "torch.tensor(2.5)",
    "torch.arange(12.).reshape(3, 4).t()", "torch.arange(12.).reshape(3, 4)[1:, 1:3]",
    "torch.arange(3.).expand(2, 3)", "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)[::2]",
    "torch.ones(2, requires_grad=True)", "torch.tensor([True, False])",
    "torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).t()", "torch.arange(10)[3:7:2]",
    "torch.tensor([-1.5, 2.25], dtype=torch.float64)",
]


def describe(t):
    return (type(t).__name__, tuple(t.shape), t.stride(), t.storage_offset(), str(t.dtype).split(".")[-1],
            str(t.device), t.requires_grad, t.tolist(), dict(t.__dict__))


def build(mod, expr):
    return eval(expr, {"torch": mod})


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
@pytest.mark.parametrize("expr", SOURCES)
def test_round_trip_keeps_geometry(expr, how):
    src = build(minitorch, expr)
    out = ROUND_TRIPS[how](src)
    assert out is not src and out.data_ptr() != src.data_ptr()
    assert describe(out) == describe(src)
    if torch is not None:
        assert describe(out)[1:] == describe(ROUND_TRIPS[how](build(torch, expr)))[1:]


@needs_torch
def test_sharing_matches_torch():
    def shares(mod, how):
        base = mod.arange(6.0)
        a, view, again = how([base, base[2:].view(2, 2), base])
        view[0, 0] = 100.0
        return a is again, a.tolist(), view.storage_offset()

    for how in (pickled, copy.deepcopy, copy.copy):
        assert shares(minitorch, how) == shares(torch, how)


def test_deepcopy_keeps_one_storage_per_memo():
    base = minitorch.arange(6.0)
    a, view = copy.deepcopy([base, base[1:].view(5)])
    view[0] = 42.0
    assert a.tolist() == [0.0, 42.0, 2.0, 3.0, 4.0, 5.0] and base.tolist()[1] == 1.0
    assert view.storage_offset() == 1
    # separate deepcopy calls copy separately
    x, y = copy.deepcopy(base), copy.deepcopy(base[1:])
    y[0] = -1.0
    assert x.tolist()[1] == 1.0


def test_copy_copy_shares_memory_like_torch():
    t = minitorch.arange(4.0)[1:]
    t.tag = "x"
    c = copy.copy(t)
    assert c.data_ptr() == t.data_ptr() and c.storage_offset() == 1 and c.tag == "x"
    p = minitorch.nn.Parameter(minitorch.ones(2))
    assert type(copy.copy(p)) is minitorch.nn.Parameter and copy.copy(p).data_ptr() == p.data_ptr()


def test_tensors_take_attributes_like_torch():
    t = minitorch.zeros(2)
    assert t.__dict__ == {} and vars(t) == {}
    t.tag = 1
    assert t.tag == 1 and t.__dict__ == {"tag": 1}
    t.__dict__ = {"other": 2}
    assert t.other == 2 and not hasattr(t, "tag")
    with pytest.raises(TypeError):
        t.__dict__ = 5
    del t.other
    with pytest.raises(AttributeError):
        t.other
    # views are new objects without the attributes, as in torch
    assert minitorch.zeros(2)[0:1].__dict__ == {}
    # every way of writing attributes writes the tensor's own dict, never one another tensor sees
    a, b = minitorch.zeros(1), minitorch.zeros(1)
    vars(a)["x"] = 1
    b.__dict__.update(y=2)
    setattr(minitorch.zeros(1), "z", 3)
    assert (a.__dict__, b.__dict__, minitorch.zeros(1).__dict__) == ({"x": 1}, {"y": 2}, {})
    p = minitorch.nn.Parameter(minitorch.zeros(1))
    p.__dict__["w"] = 4
    assert p.w == 4 and minitorch.nn.Parameter(minitorch.zeros(1)).__dict__ == {}


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
def test_attributes_and_types_survive(how):
    t = minitorch.arange(4.0)
    t.tag = "hello"
    t.nested = {"k": [1, 2]}
    out = ROUND_TRIPS[how](t)
    assert type(out) is minitorch.Tensor and out.__dict__ == t.__dict__
    p = minitorch.nn.Parameter(minitorch.arange(3.0), requires_grad=False)
    p.me = 5
    out = ROUND_TRIPS[how](p)
    assert type(out) is minitorch.nn.Parameter and not out.requires_grad and out.tolist() == [0.0, 1.0, 2.0]
    # torch's Parameter.__deepcopy__ keeps no attributes; its pickle keeps them
    assert out.__dict__ == ({} if how == "deepcopy" else {"me": 5})


class Sub(minitorch.Tensor):
    pass


class SubWithNewEmpty(minitorch.Tensor):
    def new_empty(self, size):
        return minitorch.Tensor._make_subclass(SubWithNewEmpty, minitorch.empty(size), False)


class Slotted(minitorch.Tensor):
    __slots__ = ("slot",)


def test_subclasses_pickle_with_their_type_and_state():
    s = minitorch.Tensor._make_subclass(Sub, minitorch.arange(3.0)[1:], False)
    s.foo = [1]
    out = pickled(s)
    assert type(out) is Sub and out.foo == [1] and out.tolist() == [1.0, 2.0] and out.storage_offset() == 1
    z = minitorch.Tensor._make_subclass(Slotted, minitorch.ones(2), False)
    z.slot = "kept"
    assert pickled(z).slot == "kept" and type(pickled(z)) is Slotted


def test_subclass_deepcopy_follows_torch():
    s = minitorch.Tensor._make_subclass(Sub, minitorch.arange(3.0), False)
    with pytest.raises(RuntimeError, match="non-wrapper subclasses only works for subclass types that implement "
                                           "new_empty"):
        copy.deepcopy(s)
    n = minitorch.Tensor._make_subclass(SubWithNewEmpty, minitorch.arange(3.0)[1:], False)
    n.attr = {"a": 1}
    out = copy.deepcopy(n)
    assert type(out) is SubWithNewEmpty and out.tolist() == [1.0, 2.0] and out.storage_offset() == 1
    assert out.attr == {"a": 1} and out.attr is not n.attr


@needs_torch
def test_subclass_deepcopy_error_matches_torch():
    class TorchSub(torch.Tensor):
        pass

    with pytest.raises(RuntimeError) as real:
        copy.deepcopy(torch.arange(3.0).as_subclass(TorchSub))
    with pytest.raises(RuntimeError) as mini:
        copy.deepcopy(minitorch.Tensor._make_subclass(Sub, minitorch.arange(3.0), False))
    assert str(mini.value) == str(real.value)


def test_deepcopy_of_a_self_referencing_tensor():
    t = minitorch.zeros(2)
    t.me = t
    out = copy.deepcopy(t)
    # torch's algorithm: the inner copy made while copying __dict__ is the one the dict points at
    assert out.me is not t and out.me.me is out.me


def test_pickles_that_lie_about_geometry_are_refused():
    from minitorch import _serialization

    ref = minitorch.arange(4.0)._typed_storage()
    cases = [
        (0, (5,), (1,), "out of bounds for storage of size 16"),
        (3, (2,), (1,), "out of bounds for storage of size 16"),
        (0, (2, 2), (2**62, 1), "overflowed"),
        (-1, (1,), (1,), "invalid storage offset"),
        (2**62, (1,), (1,), "overflowed"),
        (0, (-2,), (1,), "negative dimension"),
        (0, (2,), (-1,), "negative strides"),
        (0, (2, 2), (1,), r"unequal size length \(2\) and stride length \(1\)"),  # torch's set_
    ]
    for offset, size, stride, message in cases:
        with pytest.raises(RuntimeError, match=message):
            _serialization._rebuild_tensor_v2(ref, offset, size, stride, False)
    # in range, and nothing to read, are fine
    assert _serialization._rebuild_tensor_v2(ref, 1, (3,), (1,), False).tolist() == [1.0, 2.0, 3.0]
    assert _serialization._rebuild_tensor_v2(ref, 4, (0, 5), (2**40, 1), False).shape == (0, 5)
    with pytest.raises((RuntimeError, AssertionError)):  # a device that does not exist (or no CUDA build)
        minitorch.Tensor._from_storage_bytes(b"abcd", minitorch.float32, "cuda:99")


def test_old_pickles_still_load():
    # the first format (values, dtype, device, requires_grad) is still readable
    t = minitorch._rebuild_tensor([[1.0, 2.0]], minitorch.float64, minitorch.device("cpu"), True)
    assert t.tolist() == [[1.0, 2.0]] and t.dtype == minitorch.float64 and t.requires_grad


def test_simulated_gpu_round_trips():
    code = textwrap.dedent("""
        import copy, pickle, minitorch
        g = minitorch.arange(6.0, device="cuda").reshape(2, 3).t()
        g.tag = 1
        for out in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
            print(out.device, tuple(out.shape), out.stride(), out.tolist() == g.tolist(), out.tag)
        a, b = copy.deepcopy([g, g[1:]])
        b[0, 0] = 50.0
        print(a[1, 0].item())
        print(minitorch.cuda.memory_allocated() > 0)
    """)
    out = python_output(code, simulate_gpu=1).splitlines()
    assert out[:2] == ["cuda:0 (3, 2) (1, 3) True 1"] * 2
    assert out[2:] == ["50.0", "True"]
