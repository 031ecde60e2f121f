"""Tests for csrc/ops/convert.c: minitorch.tensor(data), Tensor.tolist(), Tensor.item() and the Python
number protocols built on mt_tensor_item.

Every expectation (dtype, shape, values, exception type and exact message) is written down here, so the
tests run without torch. When real torch is importable, each table case is also evaluated under torch
and must give the same written-down result, which keeps the table honest. The few places where
minitorch must differ (dtypes it does not have, its 64-dimension limit) are listed separately.
"""

import math
import os
import random
import struct
import subprocess
import sys
import warnings

import pytest

import minitorch

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is optional for these tests
    np = None

try:
    import torch as real_torch
except ImportError:  # pragma: no cover - torch is optional
    real_torch = None

needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")
needs_torch = pytest.mark.skipif(real_torch is None, reason="real torch is not installed")

COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)
NUMPY_TYPES = ("float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
               "uint16, uint8, and bool.")


def f32(x):
    """x rounded to float32, as a Python float (what a float32 tensor gives back)."""
    return struct.unpack("f", struct.pack("f", x))[0]


# ---- helper objects used by the table's expressions ------------------------------------------------

class Idx:
    def __index__(self):
        return 7


class Flt:
    def __float__(self):
        return 2.5


class Seq:
    """A sequence that is neither a list nor a tuple."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return i * 1.5


class BadSeq:
    def __len__(self):
        return 2

    def __getitem__(self, i):
        raise KeyError(i)


def self_ref_list():
    a = [1]
    a.append(a)
    return a


def self_ref_empty():
    a = []
    a.append(a)
    return a


def nested(depth, leaf=0):
    x = leaf
    for _ in range(depth):
        x = [x]
    return x


def namespace(mod):
    ns = {
        "torch": mod, "T": mod.tensor, "np": np, "Idx": Idx, "Flt": Flt, "Seq": Seq, "BadSeq": BadSeq,
        "self_ref_list": self_ref_list, "self_ref_empty": self_ref_empty, "nested": nested,
    }
    return ns


# ---- the table ---------------------------------------------------------------------------------------

def ok(dtype, shape, values):
    return ("ok", dtype, tuple(shape), values)


def err(exc, msg):
    return ("err", exc, msg)


INVALID_STR = "new(): invalid data type 'str'"

CASES = [
    # scalars and dtype inference (infer_scalar_type)
    ("T(3)", ok("int64", (), 3)),
    ("T(-2**63)", ok("int64", (), -2**63)),
    ("T(2**63 - 1)", ok("int64", (), 2**63 - 1)),
    ("T(3.5)", ok("float32", (), 3.5)),
    ("T(0.1)", ok("float32", (), f32(0.1))),
    ("T(1e-50)", ok("float32", (), 0.0)),
    ("T(-0.0)", ok("float32", (), -0.0)),
    ("T(float('inf'))", ok("float32", (), math.inf)),
    ("T(True)", ok("bool", (), True)),
    ("T([1, 2.5])", ok("float32", (2,), [1.0, 2.5])),
    ("T([True, 2])", ok("int64", (2,), [1, 2])),
    ("T([True, 2.5])", ok("float32", (2,), [1.0, 2.5])),
    ("T([1, float('nan')])", ok("float32", (2,), [1.0, math.nan])),
    ("T([[1, 2], [3, 4]])", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T(((1, 2), (3, 4)))", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T([(1, 2), [3, 4.5]])", ok("float32", (2, 2), [[1.0, 2.0], [3.0, 4.5]])),
    ("T([range(2), range(2)])", ok("int64", (2, 2), [[0, 1], [0, 1]])),
    ("T(range(5))", ok("int64", (5,), [0, 1, 2, 3, 4])),
    ("T(bytearray(b'ab'))", ok("int64", (2,), [97, 98])),
    ("T(Seq())", ok("float32", (2,), [0.0, 1.5])),
    ("T([1.5, 2**63])", ok("float32", (2,), [1.5, f32(2.0**63)])),
    # empty data: the default dtype, and nothing is stored (so ragged empties pass)
    ("T([])", ok("float32", (0,), [])),
    ("T(())", ok("float32", (0,), [])),
    ("T([[]])", ok("float32", (1, 0), [[]])),
    ("T([[], []])", ok("float32", (2, 0), [[], []])),
    ("T([[], [1]])", ok("float32", (2, 0), [[], []])),
    ("T([[[[]]]])", ok("float32", (1, 1, 1, 0), [[[[]]]])),
    ("T(nested(64))", ok("int64", (1,) * 64, nested(64))),
    # explicit dtype: checked conversions (store_scalar / checked_convert)
    ("T([1, 2], dtype=torch.float64)", ok("float64", (2,), [1.0, 2.0])),
    ("T([0.1], dtype=torch.float64)", ok("float64", (1,), [0.1])),
    ("T([1, 2], dtype=float)", ok("float64", (2,), [1.0, 2.0])),
    ("T([1.7, 2], dtype=int)", ok("int64", (2,), [1, 2])),
    ("T([1, 0], dtype=bool)", ok("bool", (2,), [True, False])),
    ("T(-3.7, dtype=torch.int32)", ok("int32", (), -3)),
    ("T(2.5, dtype=torch.int64)", ok("int64", (), 2)),
    ("T(2.0**63, dtype=torch.int64)", ok("int64", (), -2**63)),
    ("T(-2.0**63, dtype=torch.int64)", ok("int64", (), -2**63)),
    ("T(2147483647.0, dtype=torch.int32)", ok("int32", (), 2147483647)),
    ("T(-2**31, dtype=torch.int32)", ok("int32", (), -2**31)),
    ("T(1e300, dtype=torch.float32)", ok("float32", (), math.inf)),
    ("T(2**63, dtype=torch.float32)", ok("float32", (), f32(2.0**63))),
    ("T(2**64, dtype=torch.float64)", ok("float64", (), 2.0**64)),
    ("T([1, 2**63], dtype=torch.float64)", ok("float64", (2,), [1.0, 2.0**63])),
    ("T(2, dtype=torch.bool)", ok("bool", (), True)),
    ("T(0.5, dtype=torch.bool)", ok("bool", (), True)),
    ("T(-1, dtype=torch.bool)", ok("bool", (), True)),
    ("T(2**64, dtype=torch.bool)", ok("bool", (), True)),
    ("T(float('nan'), dtype=torch.bool)", ok("bool", (), True)),
    ("T(True, dtype=torch.float32)", ok("float32", (), 1.0)),
    ("T(Idx(), dtype=torch.int64)", ok("int64", (), 7)),
    ("T(Idx(), dtype=torch.float32)", ok("float32", (), 7.0)),
    ("T(Idx(), dtype=torch.bool)", ok("bool", (), True)),
    ("T(Flt(), dtype=torch.float32)", ok("float32", (), 2.5)),
    # tensors inside data: a Tensor is one scalar for the shape walk, a sequence when a row is expected
    ("T([T(1.5), T(2)])", ok("float32", (2,), [1.5, 2.0])),
    ("T([T(1, dtype=torch.int32), 2])", ok("int64", (2,), [1, 2])),
    ("T([T(1, dtype=torch.int32), T(2, dtype=torch.int32)])", ok("int32", (2,), [1, 2])),
    ("T([T(1, dtype=torch.int32), 2.5])", ok("float32", (2,), [1.0, 2.5])),
    ("T([T(1.5, dtype=torch.float64), 2.5])", ok("float64", (2,), [1.5, 2.5])),
    ("T([T(True), 2])", ok("int64", (2,), [1, 2])),
    ("T([T(5, dtype=torch.int32), T(True)])", ok("int32", (2,), [5, 1])),
    ("T([T([7])])", ok("int64", (1,), [7])),
    ("T([T([[1.5]])])", ok("float32", (1,), [1.5])),
    ("T([1, T([[1.5]])])", ok("float32", (2,), [1.0, 1.5])),
    ("T([T(1), T([1])])", ok("int64", (2,), [1, 1])),
    ("T([[1, 2], T([3, 4])])", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T([[1, 2], T([3.5, 4])])", ok("float32", (2, 2), [[1.0, 2.0], [3.5, 4.0]])),
    ("T([[True], T([2.5])])", ok("float32", (2, 1), [[1.0], [2.5]])),
    ("T([[1, 2], [3, T(4)]])", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T([[1], [T(2)]])", ok("int64", (2, 1), [[1], [2]])),
    ("T([T(2)], dtype=torch.float32)", ok("float32", (1,), [2.0])),
    ("T([T(True), T(0)], dtype=torch.bool)", ok("bool", (2,), [True, False])),
    # keyword arguments
    ("T(data=[1, 2])", ok("int64", (2,), [1, 2])),
    ("T([1, 2], dtype=None, device=None)", ok("int64", (2,), [1, 2])),
    ("T([1, 2], device='cpu')", ok("int64", (2,), [1, 2])),
    ("T([1, 2], device=torch.device('cpu'))", ok("int64", (2,), [1, 2])),
    ("T([1, 2], pin_memory=False)", ok("int64", (2,), [1, 2])),
    ("T([1.0, 2], requires_grad=False)", ok("float32", (2,), [1.0, 2.0])),

    # errors: strings
    ("T('abc')", err(TypeError, INVALID_STR)),
    ("T(b'ab')", err(TypeError, "new(): invalid data type 'bytes'")),
    ("T('a', dtype=torch.int64)", err(TypeError, INVALID_STR)),
    ("T(['a', 'b'])", err(ValueError, "too many dimensions 'str'")),
    ("T(['ab', [1, 2]])", err(ValueError, "too many dimensions 'str'")),
    ("T(['a'], dtype=torch.int64)", err(ValueError, "too many dimensions 'str'")),
    ("T([1, 'a'])", err(TypeError, INVALID_STR)),
    ("T([[1, 2], [3, 'a']])", err(TypeError, INVALID_STR)),
    ("T([[1, 2], 'ab'])", err(TypeError, INVALID_STR)),
    ("T([[1, 2], [3, 'a', 5]])", err(TypeError, INVALID_STR)),  # the dtype scan runs before the store
    ("T([b'a'])", err(TypeError, "new(): invalid data type 'bytes'")),
    ("T([[], ['a']])", err(TypeError, INVALID_STR)),
    ("T([2**64, 'a'])", err(TypeError, INVALID_STR)),
    # errors: objects without a dtype
    ("T(None)", err(RuntimeError, "Could not infer dtype of NoneType")),
    ("T([1, None])", err(RuntimeError, "Could not infer dtype of NoneType")),
    ("T([2**64, None])", err(RuntimeError, "Could not infer dtype of NoneType")),
    ("T([[], [None]])", err(RuntimeError, "Could not infer dtype of NoneType")),
    ("T({})", err(RuntimeError, "Could not infer dtype of dict")),
    ("T([{}])", err(RuntimeError, "Could not infer dtype of dict")),
    ("T({1, 2})", err(RuntimeError, "Could not infer dtype of set")),
    ("T(object())", err(RuntimeError, "Could not infer dtype of object")),
    ("T(iter([1, 2]))", err(RuntimeError, "Could not infer dtype of list_iterator")),
    ("T(Idx())", err(RuntimeError, "Could not infer dtype of Idx")),
    # errors: shapes
    ("T([[1, 2], [3, 4, 5]])", err(ValueError, "expected sequence of length 2 at dim 1 (got 3)")),
    ("T([[1, 2, 3], [4, 5]])", err(ValueError, "expected sequence of length 3 at dim 1 (got 2)")),
    ("T([[1], []])", err(ValueError, "expected sequence of length 1 at dim 1 (got 0)")),
    ("T([[[1, 2], [3, 4]], [[5, 6], [7]]])", err(ValueError, "expected sequence of length 2 at dim 2 (got 1)")),
    ("T([[1, 2], (3, 4, 5)], dtype=torch.float64)", err(ValueError, "expected sequence of length 2 at dim 1 (got 3)")),
    ("T([[1, 2], []])", err(ValueError, "expected sequence of length 2 at dim 1 (got 0)")),
    ("T([[1, 2], T([3, 4, 5])])", err(ValueError, "expected sequence of length 2 at dim 1 (got 3)")),
    ("T([[1, 2], T([[3, 4]])])", err(ValueError, "expected sequence of length 2 at dim 1 (got 1)")),
    ("T([[1, 2], 3])", err(TypeError, "not a sequence")),
    ("T([[1], T(2)])", err(TypeError, "not a sequence")),
    ("T([1, [2, 3]])", err(TypeError, "'list' object cannot be interpreted as an integer")),
    ("T([1, []])", err(TypeError, "must be real number, not list")),
    ("T(self_ref_list())", err(TypeError, "new(): self-referential lists are incompatible")),
    ("T(self_ref_empty())", err(ValueError, "too many dimensions 'list'")),
    ("T(nested(129))", err(ValueError, "too many dimensions 'list'")),
    ("T(BadSeq())", err(ValueError, "could not determine the shape of object type 'BadSeq'")),
    # errors: n-d tensors where a scalar is expected go through __index__ / __float__
    ("T([T([1, 2]), T([3, 4])])",
     err(TypeError, "only integer tensors of a single element can be converted to an index")),
    ("T([T([1, 2]), [3, 4]])", err(TypeError, "only integer tensors of a single element can be converted to an index")),
    ("T([T([1., 2]), T([3., 4])])", err(ValueError, "only one element tensors can be converted to Python scalars")),
    ("T([[1., 2], [3, T([4., 5])]])", err(ValueError, "only one element tensors can be converted to Python scalars")),
    ("T([T(0.5)], dtype=torch.int64)",
     err(TypeError, "only integer tensors of a single element can be converted to an index")),
    ("T([T(0.5)], dtype=torch.bool)",
     err(TypeError, "only integer tensors of a single element can be converted to an index")),
    # errors: values that do not fit
    ("T(2**63)", err(ValueError, "Overflow when unpacking long long")),
    ("T(-2**63 - 1)", err(ValueError, "Overflow when unpacking long long")),
    ("T([1, 2**63])", err(ValueError, "Overflow when unpacking long long")),
    ("T(2**63, dtype=torch.int32)", err(ValueError, "Overflow when unpacking long long")),
    ("T(3000000000, dtype=torch.int32)", err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T([2**40], dtype=torch.int32)", err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T(2147483647.5, dtype=torch.int32)",
     err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T(-2147483648.5, dtype=torch.int32)",
     err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T(1e20, dtype=torch.int64)", err(RuntimeError, "value cannot be converted to type int64 without overflow")),
    ("T(float('nan'), dtype=torch.int64)",
     err(RuntimeError, "value cannot be converted to type int64 without overflow")),
    ("T(float('inf'), dtype=torch.int64)",
     err(RuntimeError, "value cannot be converted to type int64 without overflow")),
    ("T(float('-inf'), dtype=torch.int32)",
     err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T([1.5, 10**400])", err(OverflowError, "int too large to convert to float")),
    # errors: values of the wrong kind for an explicit dtype
    ("T(None, dtype=torch.float32)", err(TypeError, "must be real number, not NoneType")),
    ("T([1, 'a'], dtype=torch.float32)", err(TypeError, "must be real number, not str")),
    ("T({}, dtype=torch.int64)", err(TypeError, "'dict' object cannot be interpreted as an integer")),
    ("T([1, None], dtype=torch.bool)", err(TypeError, "'NoneType' object cannot be interpreted as an integer")),
    ("T(Flt(), dtype=torch.int64)", err(TypeError, "'Flt' object cannot be interpreted as an integer")),
    ("T(Flt(), dtype=torch.bool)", err(TypeError, "'Flt' object cannot be interpreted as an integer")),
    ("T(1+2j, dtype=torch.float32)", err(TypeError, "must be real number, not complex")),
    # errors: arguments
    ("T()", err(TypeError, 'tensor() missing 1 required positional arguments: "data"')),
    ("T([1, 2], torch.float32)", err(TypeError, "tensor() takes 1 positional argument but 2 were given")),
    ("T([1], data=[2])", err(TypeError, "tensor() got multiple values for argument 'data'")),
    ("T([1, 2], foo=1)", err(TypeError, "tensor() got an unexpected keyword argument 'foo'")),
    ("T([1, 2], dtype='float')", err(TypeError, "tensor(): argument 'dtype' must be torch.dtype, not str")),
    ("T([1, 2], dtype=1)", err(TypeError, "tensor(): argument 'dtype' must be torch.dtype, not int")),
    ("T([1, 2], device=1.5)", err(TypeError, "tensor(): argument 'device' must be torch.device, not float")),
    ("T([1], device=True)", err(TypeError, "tensor(): argument 'device' must be torch.device, not bool")),
    ("T([1], device=-1)", err(RuntimeError, "Device index must not be negative")),
    ("T([1, 2], requires_grad=1)", err(TypeError, "tensor(): argument 'requires_grad' must be bool, not int")),
    ("T([1., 2], requires_grad=None)",
     err(TypeError, "tensor(): argument 'requires_grad' must be bool, not NoneType")),
    ("T([1, 2], pin_memory=None)", err(TypeError, "tensor(): argument 'pin_memory' must be bool, not NoneType")),
    ("T(['a'], device='cuda')", err(ValueError, "too many dimensions 'str'")),  # data errors come first
    # errors: autograd
    ("T([1, 2], requires_grad=True)",
     err(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")),
    ("T([True], requires_grad=True)",
     err(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")),
    # item()
    ("T([1, 2]).item()", err(RuntimeError, "a Tensor with 2 elements cannot be converted to Scalar")),
    ("T([]).item()", err(RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar")),
    ("T([[1., 2], [3, 4]], dtype=torch.float32).item()",
     err(RuntimeError, "a Tensor with 4 elements cannot be converted to Scalar")),
    ("T([1, 2]).__float__()", err(ValueError, "only one element tensors can be converted to Python scalars")),
]

NUMPY_CASES = [
    # arrays keep their dtype; scalars too (numpy.float64 is a float subclass but stays float64)
    ("T(np.array([1.5, 2.5]))", ok("float64", (2,), [1.5, 2.5])),
    ("T(np.array([1, 2]))", ok("int64", (2,), [1, 2])),
    ("T(np.array([1, 2], dtype=np.int32))", ok("int32", (2,), [1, 2])),
    ("T(np.array([0.1, 2], dtype=np.float32))", ok("float32", (2,), [f32(0.1), 2.0])),
    ("T(np.array([True, False]))", ok("bool", (2,), [True, False])),
    ("T(np.array(1.5))", ok("float64", (), 1.5)),
    ("T(np.array(5, dtype=np.int32))", ok("int32", (), 5)),
    ("T(np.empty((0, 3)))", ok("float64", (0, 3), [])),
    ("T(np.empty((2, 0, 3), dtype=np.int32))", ok("int32", (2, 0, 3), [[], []])),
    ("T(np.arange(6.).reshape(2, 3).T)", ok("float64", (3, 2), [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]])),
    ("T(np.arange(6.).reshape(2, 3)[:, ::2])", ok("float64", (2, 2), [[0.0, 2.0], [3.0, 5.0]])),
    ("T(np.array([[1, 2], [3, 4]], order='F'))", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T(np.array([[1, 2], [3, 4]])[:, 0])", ok("int64", (2,), [1, 3])),
    ("T(np.ones(3)[None])", ok("float64", (1, 3), [[1.0, 1.0, 1.0]])),
    ("T(np.frombuffer(b'\\x00' * 9, dtype=np.int64, offset=1))", ok("int64", (1,), [0])),
    ("T(np.frombuffer(b'\\x00' * 17, dtype=np.float64, offset=1), dtype=torch.float32)",
     ok("float32", (2,), [0.0, 0.0])),
    ("T(np.array([[1, 2], [3, 4]], dtype=np.int32), dtype=torch.float32)",
     ok("float32", (2, 2), [[1.0, 2.0], [3.0, 4.0]])),
    ("T(np.array([1.5, 2.5]), requires_grad=True)", ok("float64", (2,), [1.5, 2.5])),
    ("T(np.float64(1.5))", ok("float64", (), 1.5)),
    ("T(np.float32(1.5))", ok("float32", (), 1.5)),
    ("T(np.int32(3))", ok("int32", (), 3)),
    ("T(np.int64(3))", ok("int64", (), 3)),
    ("T(np.bool_(True))", ok("bool", (), True)),
    ("T([np.bool_(False), np.bool_(True)])", ok("bool", (2,), [False, True])),
    ("T([np.bool_(True), 2.5])", ok("float32", (2,), [1.0, 2.5])),
    ("T([np.float64(1.5), 2])", ok("float64", (2,), [1.5, 2.0])),
    ("T([np.float32(1.5), 2])", ok("float32", (2,), [1.5, 2.0])),
    ("T([np.int32(1), 2])", ok("int64", (2,), [1, 2])),
    ("T([np.int32(1), np.int32(2)])", ok("int32", (2,), [1, 2])),
    ("T([np.float64(1.5), 2], dtype=torch.int64)", ok("int64", (2,), [1, 2])),
    ("T([np.int64(0), np.int64(5)], dtype=torch.bool)", ok("bool", (2,), [False, True])),
    ("T([np.float64(0.0), np.float64(5)], dtype=torch.bool)", ok("bool", (2,), [False, True])),
    # NumPy dtypes minitorch lacks still promote to ones it has, as in torch
    ("T([1, np.uint8(255)])", ok("int64", (2,), [1, 255])),
    ("T([np.uint8(255), 1.5])", ok("float32", (2,), [255.0, 1.5])),
    ("T([np.int16(1), 5])", ok("int64", (2,), [1, 5])),
    ("T([np.float16(1.5), 2.5])", ok("float32", (2,), [1.5, 2.5])),
    ("T(np.float16(1.5))", ok("float16", (), 1.5)),
    ("T(np.array([1.5, 65504], dtype=np.float16))", ok("float16", (2,), [1.5, 65504.0])),
    ("T([np.float16(1.5), 2])", ok("float16", (2,), [1.5, 2.0])),
    ("T([np.uint16(1), 2.5])", ok("float32", (2,), [1.0, 2.5])),
    ("T([np.uint8(1)])", ok("uint8", (1,), [1])),
    ("T([np.int8(-1), np.uint8(255)])", ok("int16", (2,), [-1, 255])),
    ("T(np.array([1, 2], dtype=np.uint8))", ok("uint8", (2,), [1, 2])),
    ("T([np.array([1, 2], dtype=np.int16)])", ok("int16", (1, 2), [[1, 2]])),
    ("T(np.array([-3, 2], dtype=np.int8))", ok("int8", (2,), [-3, 2])),
    # ... and convert with an explicit dtype
    ("T(np.array([1, 2], dtype=np.uint8), dtype=torch.int64)", ok("int64", (2,), [1, 2])),
    ("T(np.array([1, 2], dtype=np.uint8), dtype=torch.float32)", ok("float32", (2,), [1.0, 2.0])),
    ("T(np.array([-1, 2], dtype=np.int8), dtype=torch.int32)", ok("int32", (2,), [-1, 2])),
    ("T(np.array([-1, 2], dtype=np.int16), dtype=torch.float64)", ok("float64", (2,), [-1.0, 2.0])),
    ("T(np.array([65535, 2], dtype=np.uint16), dtype=torch.int64)", ok("int64", (2,), [65535, 2])),
    ("T(np.array([2**32 - 1], dtype=np.uint32), dtype=torch.int64)", ok("int64", (1,), [2**32 - 1])),
    ("T(np.array([1, 2**63], dtype=np.uint64), dtype=torch.float64)", ok("float64", (2,), [1.0, 2.0**63])),
    ("T(np.array([0.5, -2.25, 65504, 6e-8, np.inf], dtype=np.float16), dtype=torch.float32)",
     ok("float32", (5,), [0.5, -2.25, 65504.0, 5.960464477539063e-08, math.inf])),
    ("T(np.array([0, 3], dtype=np.uint8), dtype=torch.bool)", ok("bool", (2,), [False, True])),
    ("T(np.array([[1, 2], [3, 4]], dtype=np.uint8).T, dtype=torch.int32)", ok("int32", (2, 2), [[1, 3], [2, 4]])),
    ("T(np.array([[1, 2], [3, 4]], dtype=np.uint8).T, dtype=torch.int32).stride()", ("value", tuple, (1, 2))),
    ("T(np.arange(6.).reshape(2, 3).T).stride()", ("value", tuple, (1, 3))),
    ("T(np.arange(12.).reshape(2, 6)[:, ::2]).stride()", ("value", tuple, (3, 1))),
    # a list of arrays is a nested sequence (and warns once per process; see the test below)
    ("T([np.array([1., 2]), np.array([3, 4])])", ok("float64", (2, 2), [[1.0, 2.0], [3.0, 4.0]])),
    ("T([np.array([1, 2], dtype=np.int32), [3, 4]])", ok("int64", (2, 2), [[1, 2], [3, 4]])),
    ("T([[3, 4], np.array([1.5, 2], dtype=np.float32)])", ok("float32", (2, 2), [[3.0, 4.0], [1.5, 2.0]])),
    # memoryview and array.array are plain sequences
    ("T(memoryview(b'abc'))", ok("int64", (3,), [97, 98, 99])),
    ("T(memoryview(np.array([1.5, 2.5])))", ok("float32", (2,), [1.5, 2.5])),

    # errors
    ("T(np.array(['a']))", err(TypeError, "can't convert np.ndarray of type numpy.str_. The only supported types "
                                          "are: " + NUMPY_TYPES)),
    ("T(np.array(['a']), dtype=torch.int64)",
     err(TypeError, "can't convert np.ndarray of type numpy.str_. The only supported types are: " + NUMPY_TYPES)),
    ("T(np.array([1, 2], dtype=object))",
     err(TypeError, "can't convert np.ndarray of type numpy.object_. The only supported types are: " + NUMPY_TYPES)),
    ("T(np.longdouble(1))",
     err(TypeError, "can't convert np.ndarray of type numpy.longdouble. The only supported types are: "
                    + NUMPY_TYPES)),
    ("T(np.array([1], dtype=np.longdouble))",
     err(TypeError, "can't convert np.ndarray of type numpy.longdouble. The only supported types are: "
                    + NUMPY_TYPES)),
    ("T(np.datetime64('2020'))",
     err(TypeError, "can't convert np.ndarray of type numpy.datetime64. The only supported types are: "
                    + NUMPY_TYPES)),
    ("T([np.bytes_(b'a')])",
     err(TypeError, "can't convert np.ndarray of type numpy.bytes_. The only supported types are: " + NUMPY_TYPES)),
    ("T([np.str_('a')])", err(ValueError, "too many dimensions 'str'")),
    ("T(np.str_('ab'))", err(TypeError, "new(): invalid data type 'numpy.str_'")),
    ("T(np.array([1, 2], dtype='>i4'))",
     err(ValueError, "given numpy array has byte order different from the native byte order. Conversion between "
                     "byte orders is currently not supported.")),
    ("T(np.array([1, 2], dtype=np.int64)[::-1])",
     err(ValueError, "At least one stride in the given numpy array is negative, and tensors with negative strides "
                     "are not currently supported. (You can probably work around this by making a copy of your "
                     "array  with array.copy().) ")),
    ("T(np.zeros(3, dtype=[('a', 'i4'), ('b', 'f8')])['b'])",
     err(ValueError, "given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
                     "reallocate the memory.")),
    ("T([np.array(1.5), 2])", err(TypeError, "len() of unsized object")),
    ("T([np.float32(1.5)], dtype=torch.int64)",
     err(TypeError, "'numpy.float32' object cannot be interpreted as an integer")),
    ("T([np.float32(0.5)], dtype=torch.bool)",
     err(TypeError, "'numpy.float32' object cannot be interpreted as an integer")),
    ("T([np.bool_(True), 2])", err(TypeError, "'numpy.bool' object cannot be interpreted as an integer")),
    ("T([np.int64(2**62)], dtype=torch.int32)",
     err(RuntimeError, "value cannot be converted to type int32 without overflow")),
    ("T([np.uint16(1), 5])",
     err(RuntimeError, "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote UInt16 "
                       "and Long")),
    ("T([5, np.uint32(1)])",
     err(RuntimeError, "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote Long "
                       "and UInt32")),
    ("T(np.array([1.]), pin_memory=True)", err(RuntimeError, "Can't pin tensor constructed from numpy")),
    ("T(np.array([1, 2]), requires_grad=True)",
     err(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")),
]

# Where minitorch must differ from torch: it has no uint16-64/complex dtypes,
# so data that torch would store in one of them is refused with a message that says how to convert.


def unsupported(name):
    return ("minitorch.tensor(): the data has dtype torch.%s, which minitorch does not support; pass dtype= "
            "(float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8 or bool) to convert it" % name)


UNSUPPORTED_CASES = [
    ("T(1+2j)", "complex64"),
    ("T([1, 2j])", "complex64"),
]
UNSUPPORTED_NUMPY_CASES = [
    ("T(np.array([1, 2], dtype=np.uint64))", "uint64"),
    ("T(np.array([1 + 2j]))", "complex128"),
    ("T(np.array([1 + 2j]), dtype=torch.float64)", "complex128"),
]


# ---- running the table -------------------------------------------------------------------------------

def same_values(a, b):
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(same_values(x, y) for x, y in zip(a, b)))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def evaluate(mod, expr):
    """('ok', dtype, shape, values) or ('err', type, message) for expr run with `torch` bound to mod."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(expr, namespace(mod))
        except Exception as exc:  # noqa: BLE001 - the exception is the result
            return ("err", type(exc), str(exc).replace("minitorch", "torch"))
    if isinstance(result, mod.Tensor):
        return ("ok", str(result.dtype).split(".")[-1], tuple(result.shape), result.tolist())
    return ("value", type(result), result)


def check(expected, actual):
    expected = tuple(expected)
    if expected[0] == "err":
        expected = ("err", expected[1], expected[2].replace("minitorch", "torch"))
    assert actual[0] == expected[0], "expected %r, got %r" % (expected, actual)
    if actual[0] == "value":
        assert actual[1] is expected[1] and actual[2] == expected[2], "expected %r, got %r" % (expected, actual)
    elif actual[0] == "err":
        assert actual[1] is expected[1] and actual[2] == expected[2], "expected %r, got %r" % (expected, actual)
    else:
        assert actual[1:3] == expected[1:3], "expected %r, got %r" % (expected, actual)
        assert same_values(expected[3], actual[3]), "expected %r, got %r" % (expected, actual)


@pytest.mark.parametrize("expr,expected", CASES, ids=[c[0] for c in CASES])
def test_tensor_table(expr, expected):
    check(expected, evaluate(minitorch, expr))


@needs_numpy
@pytest.mark.parametrize("expr,expected", NUMPY_CASES, ids=[c[0] for c in NUMPY_CASES])
def test_tensor_table_numpy(expr, expected):
    check(expected, evaluate(minitorch, expr))


@needs_torch
@pytest.mark.parametrize("expr,expected", CASES + (NUMPY_CASES if np is not None else []),
                         ids=[c[0] for c in CASES + (NUMPY_CASES if np is not None else [])])
def test_table_matches_real_torch(expr, expected):
    """The written-down expectation is what torch 2.13 really does."""
    check(expected, evaluate(real_torch, expr))


@pytest.mark.parametrize("expr,name", UNSUPPORTED_CASES, ids=[c[0] for c in UNSUPPORTED_CASES])
def test_dtypes_minitorch_lacks(expr, name):
    check(err(NotImplementedError, unsupported(name)), evaluate(minitorch, expr))


@needs_numpy
@pytest.mark.parametrize("expr,name", UNSUPPORTED_NUMPY_CASES, ids=[c[0] for c in UNSUPPORTED_NUMPY_CASES])
def test_numpy_dtypes_minitorch_lacks(expr, name):
    check(err(NotImplementedError, unsupported(name)), evaluate(minitorch, expr))
    if real_torch is not None and "dtype=" not in expr:
        # the dtype named in the message is the one torch really infers
        result = evaluate(real_torch, expr)
        assert result[0] == "ok" and result[1] == name


def test_more_dims_than_minitorch_stores():
    # torch accepts up to 128 levels of nesting; minitorch stores at most 64 dimensions
    with pytest.raises(NotImplementedError, match="^minitorch supports tensors of at most 64 dimensions, got 70$"):
        minitorch.tensor(nested(70))
    if real_torch is not None:
        assert real_torch.tensor(nested(70)).dim() == 70


# ---- values: random data round-trips ----------------------------------------------------------------

def random_nested(rng, shape, make):
    if not shape:
        return make()
    return [random_nested(rng, shape[1:], make) for _ in range(shape[0])]


def shape_of(data):
    shape = []
    while isinstance(data, list):
        shape.append(len(data))
        if not data:
            break
        data = data[0]
    return tuple(shape)


@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 5), (2, 3, 4), (1, 6, 1), (2, 1, 3, 2, 1), (0,), (3, 0)])
@pytest.mark.parametrize("kind", ["float", "int", "bool", "mixed"])
def test_random_round_trip(shape, kind):
    rng = random.Random(hash((shape, kind)) & 0xFFFF)
    makers = {
        "float": lambda: rng.uniform(-1e3, 1e3),
        "int": lambda: rng.randint(-2**62, 2**62),
        "bool": lambda: rng.random() < 0.5,
        "mixed": lambda: rng.choice([rng.randint(-9, 9), rng.random() < 0.5, rng.uniform(-5, 5)]),
    }
    data = random_nested(rng, list(shape), makers[kind])
    t = minitorch.tensor(data)
    assert tuple(t.shape) == shape
    leaves = []

    def walk(x):
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            leaves.append(x)

    walk(data)
    if kind == "bool":
        want_dtype, convert = minitorch.bool, bool
    elif kind == "int":
        want_dtype, convert = minitorch.int64, int
    elif kind == "float" or any(isinstance(v, float) for v in leaves):
        want_dtype, convert = minitorch.float32, lambda v: f32(float(v))
    elif any(isinstance(v, int) and not isinstance(v, bool) for v in leaves):
        want_dtype, convert = minitorch.int64, int
    else:
        want_dtype, convert = minitorch.bool, bool
    if not leaves:
        want_dtype = minitorch.float32  # empty lists have the default dtype
    assert t.dtype == want_dtype

    def conv(x):
        return [conv(y) for y in x] if isinstance(x, list) else convert(x)

    assert same_values(conv(data) if isinstance(data, list) else convert(data), t.tolist())
    if real_torch is not None:
        ref = real_torch.tensor(data)
        assert str(ref.dtype) == str(t.dtype).replace("minitorch", "torch")
        assert same_values(ref.tolist(), t.tolist())


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
def test_explicit_dtype_random(dtype):
    rng = random.Random(dtype)
    data = [[rng.uniform(-1e4, 1e4) for _ in range(5)] for _ in range(3)]
    t = minitorch.tensor(data, dtype=getattr(minitorch, dtype))
    assert t.dtype == getattr(minitorch, dtype)
    convert = {"float32": f32, "float64": float, "int32": int, "int64": int, "bool": bool}[dtype]
    assert same_values([[convert(v) for v in row] for row in data], t.tolist())
    if real_torch is not None:
        assert same_values(real_torch.tensor(data, dtype=getattr(real_torch, dtype)).tolist(), t.tolist())


@needs_numpy
@pytest.mark.parametrize("np_dtype", ["float64", "float32", "int64", "int32", "bool"])
def test_numpy_random_arrays(np_dtype):
    rng = np.random.default_rng(7)
    base = rng.normal(size=(5, 7, 3)) * 100
    arr = (base > 0) if np_dtype == "bool" else base.astype(np_dtype)
    for view in (arr, arr[::2, 1:, :], arr.transpose(2, 0, 1), arr[:, 3], arr[1:2, ::3, ::-1].copy()):
        t = minitorch.tensor(view)
        assert str(t.dtype) == "minitorch." + np_dtype
        assert tuple(t.shape) == view.shape
        assert t.tolist() == view.tolist()
        if real_torch is not None:
            # a dense permuted array keeps its layout (torch's preserve_format), others become compact
            assert t.stride() == real_torch.tensor(view).stride()
    # the copy is independent of the array
    arr2 = arr.copy()
    t = minitorch.tensor(arr2)
    arr2[...] = 0 if np_dtype != "bool" else False
    assert t.tolist() == arr.tolist()


@needs_numpy
@pytest.mark.parametrize("np_dtype,dtype", [("float32", None), ("int64", None), ("uint8", "int64"),
                                            ("float16", "float32"), ("int16", "float64"), ("bool", None)])
def test_numpy_arrays_are_read_as_numpy_records_them(np_dtype, dtype):
    # a subclass's shape/strides/dtype properties are not the array (torch reads the C fields)
    class Lying(np.ndarray):
        shape = property(lambda self: (1 << 24,))
        strides = property(lambda self: (1 << 40, 8))
        dtype = property(lambda self: np.dtype(np.complex128))

    values = [[0, 1, 2], [3, 4, 5]]
    a = np.array(values).astype(np_dtype).view(Lying)
    kwargs = {"dtype": getattr(minitorch, dtype)} if dtype else {}
    t = minitorch.tensor(a, **kwargs)
    assert tuple(t.shape) == (2, 3)
    assert t.tolist() == np.asarray(a).view(np.ndarray).astype(dtype or np_dtype).tolist()
    assert str(t.dtype) == "minitorch." + (dtype or np_dtype)
    if real_torch is not None:
        real = real_torch.tensor(a, **({"dtype": getattr(real_torch, dtype)} if dtype else {}))
        assert (tuple(real.shape), real.tolist()) == ((2, 3), t.tolist())


@needs_numpy
@pytest.mark.parametrize("np_dtype", ["float32", "float64", "int64", "float16", "uint16"])
def test_misaligned_numpy_data(np_dtype):
    itemsize = np.dtype(np_dtype).itemsize
    raw = bytearray(itemsize * 13)
    a = np.frombuffer(raw, np_dtype, offset=1, count=12).reshape(3, 4)
    a[...] = np.arange(12).reshape(3, 4)
    for view in (a, a.T, a[:, ::2]):
        t = minitorch.tensor(view, dtype=minitorch.float64)
        assert t.tolist() == view.astype("float64").tolist() and tuple(t.shape) == view.shape


# ---- lists that change while they are read -----------------------------------------------------------

class Mutator:
    """An int whose __index__ (and float whose __float__) changes the list it sits in."""

    def __init__(self, owner, change, value=2):
        self.owner, self.change, self.value = owner, change, value

    def __index__(self):
        self.change(self.owner)
        return self.value

    def __float__(self):
        return float(self.__index__())


def mutating_list(change, first=None, rest=(2, 3, 4)):
    owner = []
    owner.extend([Mutator(owner, change)] + list(rest))
    return owner


def refill(owner):
    owner.clear()
    owner.extend([object()] * 100)
    owner.clear()


@pytest.mark.parametrize("dtype", ["int64", "float32", "int32", "bool"])
def test_list_changed_while_read(dtype):
    # torch checks the length once and reads the list's item array as it was then: an item replaced in
    # place is seen, items appended are not; a list emptied meanwhile has its old items read (torch reads
    # them from freed memory; minitorch from a snapshot)
    dt = getattr(minitorch, dtype)
    cast = {"int64": int, "int32": int, "float32": float, "bool": bool}[dtype]

    def swap(owner):
        owner[1] = 99

    assert minitorch.tensor(mutating_list(swap), dtype=dt).tolist() == [cast(v) for v in (2, 99, 3, 4)]
    appended = mutating_list(lambda owner: owner.extend([7] * 50))
    assert minitorch.tensor(appended, dtype=dt).tolist() == [cast(v) for v in (2, 2, 3, 4)]
    assert minitorch.tensor(mutating_list(refill), dtype=dt).tolist() == [cast(v) for v in (2, 2, 3, 4)]
    assert minitorch.tensor(mutating_list(list.clear, rest=(Mutator([], list.clear, 5), 3)), dtype=dt).tolist() == [
        cast(v) for v in (2, 5, 3)]
    # nested: a row emptied before it is reached fails its own length check, as in torch
    inner = [1, 2]
    nested = [[Mutator(inner, list.clear), 1], inner]
    with pytest.raises(ValueError, match=r"^expected sequence of length 2 at dim 1 \(got 0\)$"):
        minitorch.tensor(nested, dtype=dt)
    outer = [[0, 1], [3, 4]]
    outer[0][0] = Mutator(outer, lambda o: o.clear())
    assert minitorch.tensor(outer, dtype=dt).tolist() == [[cast(2), cast(1)], [cast(3), cast(4)]]


@needs_torch
def test_list_changed_while_read_matches_torch_where_torch_is_defined():
    def swap(owner):
        owner[1] = 99

    for change in (swap, lambda owner: owner.append(7)):
        for dtype in ("int64", "float64"):
            assert minitorch.tensor(mutating_list(change), dtype=getattr(minitorch, dtype)).tolist() == \
                real_torch.tensor(mutating_list(change), dtype=getattr(real_torch, dtype)).tolist()


# ---- warnings ----------------------------------------------------------------------------------------

def test_copy_construct_warning():
    src = minitorch.tensor([[1.5, 2.0], [3.0, 4.0]])
    with pytest.warns(UserWarning) as record:
        t = minitorch.tensor(src)
    assert [str(w.message) for w in record] == [COPY_WARNING]
    assert record[0].filename == __file__  # attributed to the caller's line
    assert t.tolist() == src.tolist() and t.dtype == src.dtype
    assert t.data_ptr() != src.data_ptr()  # always a copy
    with pytest.warns(UserWarning, match="^To copy construct"):
        d = minitorch.tensor(src, dtype=minitorch.int32)
    assert d.dtype == minitorch.int32 and d.tolist() == [[1, 2], [3, 4]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            minitorch.tensor(src)


def test_copy_construct_detaches_and_sets_requires_grad():
    src = minitorch.tensor([1.0, 2.0], requires_grad=True)
    assert src.requires_grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert minitorch.tensor(src).requires_grad is False
        assert minitorch.tensor(src, requires_grad=True).requires_grad is True
        with pytest.raises(RuntimeError, match="^Can't pin tensor constructed from a variable$"):
            minitorch.tensor(src, pin_memory=True)
        with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require"):
            minitorch.tensor(minitorch.tensor([1, 2]), requires_grad=True)
        assert minitorch.tensor(minitorch.tensor([1, 2]), dtype=minitorch.float64,
                                requires_grad=True).requires_grad


def test_tensor_data_copy_of_strided_view():
    base = minitorch.tensor([[1, 2, 3], [4, 5, 6]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = minitorch.tensor(base.T)
    assert t.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert t.stride() == (1, 3)  # .to(copy=True) keeps a dense permuted layout, as in torch


@needs_numpy
def test_list_of_ndarrays_warns_once_per_process():
    code = (
        "import warnings, numpy as np, minitorch\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    minitorch.tensor([np.array([1, 2]), np.array([3, 4])])\n"
        "    minitorch.tensor([np.array([1, 2])])\n"
        "print([(x.category.__name__, str(x.message)) for x in w])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__))))
    msg = ("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the "
           "list to a single numpy.ndarray with numpy.array() before converting to a tensor.")
    assert out.stdout.strip() == repr([("UserWarning", msg)])


def test_numpy_is_never_imported():
    code = (
        "import sys, minitorch\n"
        "minitorch.tensor([[1.5, 2], [3, 4]]).tolist()\n"
        "minitorch.tensor([True]).item()\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__))))
    assert out.stdout.strip() == "False"


# ---- requires_grad, pin_memory, devices --------------------------------------------------------------

def test_requires_grad_flag():
    assert minitorch.tensor([1.0, 2.0], requires_grad=True).requires_grad is True
    assert minitorch.tensor([1.0], dtype=minitorch.float64, requires_grad=True).requires_grad is True
    assert minitorch.tensor([1, 2], dtype=minitorch.float32, requires_grad=True).requires_grad is True
    assert minitorch.tensor([1.0]).requires_grad is False
    assert minitorch.tensor([1, 2], requires_grad=False).requires_grad is False


def cuda_init_error():
    """What a CUDA build without a usable GPU raises at CUDA's first use (torch's CUDA build: "Found no NVIDIA
    driver ..." without a driver)."""
    with pytest.raises(RuntimeError) as info:
        minitorch.cuda.init()
    return str(info.value)


def test_pin_memory():
    if minitorch.cuda.is_available():
        t = minitorch.tensor([1.5, 2.5], pin_memory=True)
        assert t.device == minitorch.device("cpu") and t.tolist() == [1.5, 2.5]
    elif minitorch._C.has_cuda:
        # a CUDA build initialises CUDA to pin, as torch's CUDA build
        with pytest.raises(RuntimeError) as info:
            minitorch.tensor([1, 2], pin_memory=True)
        assert str(info.value) == cuda_init_error()
    else:
        with pytest.raises(RuntimeError) as info:
            minitorch.tensor([1, 2], pin_memory=True)
        assert str(info.value) == ("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                                   "allocator is available on this system.")


def test_device_without_cuda():
    if minitorch.cuda.is_available():
        pytest.skip("a CUDA device is present")
    with pytest.raises((AssertionError, RuntimeError)):
        minitorch.tensor([1, 2], device="cuda")
    # an int is an accelerator's device: a CUDA build has CUDA (and fails at its first use), a CPU-only build none
    with pytest.raises(RuntimeError) as info:
        minitorch.tensor([1, 2], device=0)
    assert str(info.value) == (cuda_init_error() if minitorch._C.has_cuda
                               else "Cannot access accelerator device when none is available.")


def test_cpu_device_strings():
    for dev in ("cpu", "cpu:0", minitorch.device("cpu")):
        t = minitorch.tensor([[1, 2]], device=dev)
        assert t.device == minitorch.device("cpu") and t.tolist() == [[1, 2]]


def test_tensor_on_device(device):
    t = minitorch.tensor([[1.5, -2.0], [3.25, 4.0]], device=device)
    assert t.device.type == device
    assert t.dtype == minitorch.float32
    assert t.tolist() == [[1.5, -2.0], [3.25, 4.0]]
    s = minitorch.tensor(7, dtype=minitorch.int32, device=device)
    assert s.device.type == device and s.item() == 7 and s.tolist() == 7
    b = minitorch.tensor([True, False, True], device=device)
    assert b.tolist() == [True, False, True]
    one = minitorch.tensor([[2.5]], device=device)
    assert one.item() == 2.5 and float(one) == 2.5 and int(one) == 2 and bool(one) is True
    assert minitorch.tensor([True], device=device).item() is True
    with pytest.raises(RuntimeError, match="^a Tensor with 4 elements cannot be converted to Scalar$"):
        t.item()
    g = minitorch.tensor([1.0, 2.0], device=device, requires_grad=True)
    assert g.requires_grad and g.device.type == device
    e = minitorch.tensor([], device=device)
    assert e.tolist() == [] and tuple(e.shape) == (0,)


def test_copy_construct_keeps_device(device):
    src = minitorch.tensor([[1, 2], [3, 4]], device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same = minitorch.tensor(src)
        assert same.device == src.device and same.tolist() == [[1, 2], [3, 4]]
        to_cpu = minitorch.tensor(src, device="cpu", dtype=minitorch.float64)
        assert to_cpu.device == minitorch.device("cpu") and to_cpu.tolist() == [[1.0, 2.0], [3.0, 4.0]]
        back = minitorch.tensor(to_cpu, device=device)
        assert back.device.type == device and back.dtype == minitorch.float64


@needs_numpy
def test_numpy_to_device(device):
    arr = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2]
    t = minitorch.tensor(arr, device=device)
    assert t.device.type == device and t.dtype == minitorch.float64
    assert t.tolist() == arr.tolist()


# ---- tolist and item ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,values,expected", [
    ("float32", [0.1, -2.5, 1e30], [f32(0.1), -2.5, f32(1e30)]),
    ("float64", [0.1, -2.5, 1e300], [0.1, -2.5, 1e300]),
    ("int32", [2**31 - 1, -2**31, 0], [2**31 - 1, -2**31, 0]),
    ("int64", [2**63 - 1, -2**63, 5], [2**63 - 1, -2**63, 5]),
    ("bool", [True, False, True], [True, False, True]),
])
def test_tolist_and_item_types(dtype, values, expected):
    t = minitorch.tensor(values, dtype=getattr(minitorch, dtype))
    got = t.tolist()
    assert same_values(expected, got)
    want_type = {"float32": float, "float64": float, "int32": int, "int64": int, "bool": bool}[dtype]
    assert all(type(v) is want_type for v in got)
    for i, v in enumerate(values):
        item = minitorch.tensor(v, dtype=getattr(minitorch, dtype)).item()
        assert type(item) is want_type and same_values(expected[i], item)
        assert minitorch.tensor([[v]], dtype=getattr(minitorch, dtype)).item() == item


def test_tolist_zero_dim_is_a_scalar():
    assert minitorch.tensor(5).tolist() == 5
    assert type(minitorch.tensor(5).tolist()) is int
    assert minitorch.tensor(1.1).tolist() == f32(1.1)
    assert minitorch.tensor(False).tolist() is False


def test_tolist_empty_shapes():
    assert minitorch.tensor([]).tolist() == []
    assert minitorch.tensor([[], []]).tolist() == [[], []]
    if np is not None:
        assert minitorch.tensor(np.zeros((2, 0, 3))).tolist() == [[], []]
        assert minitorch.tensor(np.zeros((2, 3, 0))).tolist() == [[[], [], []], [[], [], []]]


def test_tolist_strided_views():
    base = minitorch.tensor([[1, 2, 3], [4, 5, 6]], dtype=minitorch.int32)
    assert base.T.stride() == (1, 3)
    assert base.T.tolist() == [[1, 4], [2, 5], [3, 6]]
    rng = random.Random(11)
    rows = [[rng.uniform(-9, 9) for _ in range(7)] for _ in range(5)]
    for dtype in (minitorch.float32, minitorch.float64, minitorch.int64, minitorch.bool):
        t = minitorch.tensor(rows, dtype=dtype)
        want = [[v for v in col] for col in zip(*t.tolist())]
        assert t.T.tolist() == want
    try:
        assert base[:, ::2].tolist() == [[1, 3], [4, 6]]
        assert base[1].tolist() == [4, 5, 6]
        assert base[1, 2].item() == 6
    except (NotImplementedError, TypeError):
        pytest.skip("indexing is not implemented yet")


def test_tolist_of_a_size_one_dim_with_a_huge_stride():
    # a dim of size 1 may carry any stride (torch's too): it is never stepped, and its byte stride
    # overflowed (UBSan) in tolist and numpy()
    x = minitorch.arange(3.0)[0:1:2**62]
    assert x.stride() == (2**62,) and x.tolist() == [0.0] and (x + 1).tolist() == [1.0]
    y = minitorch.arange(6.0).view(3, 2)[1:2:2**61]
    assert y.stride() == (2**62, 1) and y.tolist() == [[2.0, 3.0]]
    if np is not None:
        assert x.numpy().tolist() == [0.0] and y.numpy().tolist() == [[2.0, 3.0]]
    if real_torch is not None:
        assert real_torch.arange(6.0).view(3, 2)[1:2:2**61].stride() == y.stride()


def test_item_errors_and_number_protocols():
    with pytest.raises(RuntimeError) as info:
        minitorch.tensor([1, 2]).item()
    assert str(info.value) == "a Tensor with 2 elements cannot be converted to Scalar"
    with pytest.raises(TypeError):
        minitorch.tensor([1]).item(1)
    with pytest.raises(TypeError):
        minitorch.tensor([1]).tolist(1)
    assert float(minitorch.tensor([[2.5]])) == 2.5
    assert int(minitorch.tensor([[2.9]])) == 2
    assert [10, 20, 30][minitorch.tensor(1)] == 20
    assert bool(minitorch.tensor([0.0])) is False
    with pytest.raises(TypeError, match="^only integer tensors of a single element can be converted to an index$"):
        [1, 2][minitorch.tensor(1.0)]


def test_float32_values_round_like_torch():
    data = [0.1, 1 / 3, 3.14159265358979, 1e-40, 3.5e38, -7.25]
    t = minitorch.tensor(data)
    assert same_values([f32(v) for v in data], t.tolist())
    if real_torch is not None:
        assert same_values(real_torch.tensor(data).tolist(), t.tolist())


def test_large_inputs_are_fast_and_correct():
    rng = random.Random(3)
    rows = [[rng.random() for _ in range(257)] for _ in range(301)]
    t = minitorch.tensor(rows, dtype=minitorch.float64)
    assert tuple(t.shape) == (301, 257)
    assert t.tolist() == rows
    ints = [rng.randint(-2**40, 2**40) for _ in range(100003)]
    assert minitorch.tensor(ints).tolist() == ints
