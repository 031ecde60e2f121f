"""minitorch.testing against torch.testing 2.13: assert_close's results and exact messages (values, the
attribute checks, default and given tolerances per dtype, equal_nan, msg= as text and as a callable, nested
sequences and mappings with the failing item's path, numbers, bools, None, NumPy inputs, the TypeErrors and
ValueErrors) and make_tensor's values after manual_seed, its options and its errors. On a CUDA device
(MINITORCH_SIMULATE_GPU=1) the device check and the comparison across devices."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_on  # noqa: E402

import minitorch  # noqa: E402

CHECK = """
def check(*args, **kwargs):
    try:
        torch.testing.assert_close(*args, **kwargs)
        print("close")
    except Exception as e:
        print(type(e).__name__ + ":", e)
"""

SNIPPETS = {
    "tensors": CHECK + """
t = torch.tensor
check(t([1.0, 2.0, 3.0]), t([1.0, 2.0, 3.0]))
check(t([1.0, 2.0, 3.0]), t([1.0, 2.5, 3.0]))
check(t([1.0, 2.0, 3.0]), t([1.0, 2.000001, 3.0]))
check(t([1.0, 2.0, 3.0]), t([1.0, 2.0001, 3.0]))
check(t([[1.0, 2.0], [3.0, 4.0]]), t([[1.1, 2.0], [3.0, 40.0]]))
check(t([1.0, 2.0], dtype=torch.float64), t([1.0, 2.0 + 1e-7], dtype=torch.float64))
check(t([1.0, 2.0], dtype=torch.float64), t([1.0, 2.0 + 1e-6], dtype=torch.float64))
check(t([1.0, 2.0]).half(), t([1.0, 2.001]).half())
check(t([1.0, 2.0]).half(), t([1.0, 2.01]).half())
check(t([1.0, 2.0]).bfloat16(), t([1.0, 2.02]).bfloat16())
check(t([1.0, 2.0]).bfloat16(), t([1.0, 2.1]).bfloat16())
check(t([1, 2, 3]), t([1, 2, 4]))
check(t([1, 2, 3], dtype=torch.uint8), t([1, 5, 4], dtype=torch.uint8))
check(t([True, False]), t([True, True]))
check(t(1.0), t(1.5))
check(t(3), t(4))
check(t([0.0, 1.0]), t([1e-6, 1.0]))
check(t([1.0, 0.0]), t([1.0, 1.0]))
check(t([1.0, float("nan")]), t([1.0, float("nan")]))
check(t([1.0, float("nan")]), t([1.0, float("nan")]), equal_nan=True)
check(t([1.0, 2.0]), t([1.0, float("nan")]))
check(t([float("inf"), 1.0]), t([float("inf"), 1.0]))
check(t([float("inf"), 1.0]), t([float("-inf"), 1.0]))
check(t([1.0, 2.0]), t([1.0, 2.5]), rtol=0.3, atol=0.0)
check(t([1.0, 2.0]), t([1.0, 2.5]), rtol=0.0, atol=0.0)
check(t([1.0, 2.0]), t([1.0, 2.5]), rtol=0.1)
check(t([1.0, 2.0]), t([1.0, 2.5]), atol=0.1)
check(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))
check(t([1.0, 2.0]), t([1.0, 2.0], dtype=torch.float64))
check(t([1.0, 2.0]), t([1.0, 2.0], dtype=torch.float64), check_dtype=False)
check(t([1.0, 2.0]), t([1, 2]), check_dtype=False)
check(t([1.0, 2.5]), t([1, 2]), check_dtype=False)
check(torch.zeros(2, 3).t(), torch.zeros(3, 2), check_stride=True)
check(torch.zeros(2, 3).t(), torch.zeros(3, 2))
check(torch.zeros(3, 2).t(), torch.zeros(2, 3), check_stride=True)
check(torch.zeros(0, 3), torch.zeros(0, 3))
torch.manual_seed(0)
a = torch.randn(4, 5, 6)
b = a.clone(); b[1, 2, 3] += 1e-3; b[3, 4, 5] -= 2e-3; b[0, 0, 0] = 100.0
check(a, b)
check(a, a + 1e-6)
check(torch.nn.Parameter(t([1.0])), t([1.0]))
check(torch.nn.Parameter(t([1.0])), t([1.0]), allow_subclasses=False)
""",
    "messages": CHECK + """
t = torch.tensor
check(t([1.0, 2.0]), t([1.0, 2.5]), msg="custom")
check(t([1.0, 2.0]), t([1.0, 2.5]), msg=lambda m: "Header\\n\\n" + m + "\\n\\nFooter")
check([t(1.0), t(2.0)], [t(1.0), t(3.0)], msg="custom")
check([t(1.0), t(2.0)], [t(1.0)], msg="not used")
check({"a": t([1.0]), "b": [t(2.0), {"c": t([3.0, 4.0])}]}, {"a": t([1.0]), "b": [t(2.0), {"c": t([3.0, 5.0])}]})
check({"a": 1, "b": 2}, {"a": 1, "c": 2})
check({"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3})
check((1, 2.0, True, None), [1, 2.0, True, None])
check((1, 2.0, True, None), [1, 2.5, True, None])
check([True], [False])
check([None], [1])
check(None, None)
check(t([1.0]), 1.0)
check(1.0, t([1.0]))
check("abc", "abc")
check(object(), object()) if False else None
check(1, 1.0)
check(1, 1.0, check_dtype=True)
check(1.0, 1.0 + 1e-8)
check(1.0, 1.1)
check(1, 2)
check(0.0, 1e-6)
check(float("nan"), float("nan"))
check(float("nan"), float("nan"), equal_nan=True)
check(1e300, float("inf"))
check(2.0, 2.5, rtol=0.1)
check(t([1.0]), t([1.0]), rtol=None, atol=1e-3)
""",
    "numpy": CHECK + """
import numpy as np
check(np.array([1.0, 2.0]), np.array([1.0, 2.5]))
check(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
check(np.float32(1.0), np.float32(1.5))
check(np.bool_(True), np.bool_(False))
check(np.array([1.0]), torch.tensor([1.0]))
check(torch.tensor([1.0]), np.array([1.0]))
""",
    "make_tensor": """
from torch.testing import make_tensor
def hexes(t): return [float(v).hex() for v in t.flatten().tolist()]
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16,
              torch.int8, torch.uint8, torch.bool):
    x = make_tensor(3, 4, dtype=dtype, device="cpu")
    print(dtype, x.shape, x.is_contiguous(), hexes(x))
    x = make_tensor((2, 3), dtype=dtype, device="cpu", low=1, high=5, noncontiguous=True)
    print(x.shape, x.stride(), x.is_contiguous(), x.tolist())
    print(make_tensor([5], dtype=dtype, device=torch.device("cpu"), exclude_zero=True, low=0, high=2).tolist())
x = make_tensor(2, 3, dtype=torch.float32, device="cpu", requires_grad=True)
print(x.requires_grad, x.is_leaf, make_tensor(dtype=torch.float32, device="cpu").shape)
print(make_tensor(2, 3, 4, 5, dtype=torch.float32, device="cpu", memory_format=torch.channels_last).stride())
print(hexes(make_tensor(4, dtype=torch.float32, device="cpu", low=-1e38, high=3e38)))
print(make_tensor(4, dtype=torch.int8, device="cpu", low=-1000, high=1000).tolist())
print(make_tensor(3, dtype=torch.int64, device="cpu", low=2 ** 62).tolist())
print(make_tensor(2, 2, dtype=torch.float32, device="cpu", noncontiguous=True, low=3, high=4).shape)
print(make_tensor(1, dtype=torch.float32, device="cpu", noncontiguous=True).stride())
for kwargs in [dict(low=float("nan")), dict(low=5, high=2), dict(low=3, high=3, dtype=torch.int32),
               dict(low=300, dtype=torch.uint8), dict(high=-1, dtype=torch.bool),
               dict(requires_grad=True, dtype=torch.int64), dict(requires_grad=True, dtype=torch.bool),
               dict(noncontiguous=True, memory_format=torch.contiguous_format), dict(dtype="float32")]:
    try:
        kwargs = {"dtype": torch.float32, **kwargs}
        print(make_tensor(3, device="cpu", **kwargs).tolist())
    except Exception as e:
        print(type(e).__name__ + ":", e)
try: make_tensor(3)
except TypeError as e: print(e)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(make_tensor(2, dtype=torch.float32, device="cpu", low=1.5, high=1.5).tolist())
print([(x.category.__name__, str(x.message)) for x in w])
""",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_testing_parity(name):
    if name == "numpy":
        pytest.importorskip("numpy")
    compare(SNIPPETS[name])


def test_assert_close_on_device(device):
    compare_on(device, CHECK + """
a = torch.tensor([1.0, 2.0, 3.0], device=DEV)
check(a, torch.tensor([1.0, 2.0, 3.0], device=DEV))
check(a, torch.tensor([1.0, 2.5, 3.0], device=DEV))
check(a.cpu(), torch.tensor([1.0, 2.0, 3.0]), check_device=False)
check(a.cpu(), torch.tensor([1.0, 2.5, 3.0]), check_device=False)
torch.manual_seed(0)
x = torch.testing.make_tensor(3, 4, dtype=torch.float32, device=DEV)
print(x.device.type == torch.device(DEV).type, x.dtype, x.shape)
""")
    if device == "cuda":
        with pytest.raises(AssertionError) as info:
            minitorch.testing.assert_close(minitorch.ones(2, device="cuda"), minitorch.ones(2))
        assert str(info.value) == "The values for attribute 'device' do not match: cuda:0 != cpu."
        minitorch.testing.assert_close(minitorch.ones(2, device="cuda"), minitorch.ones(2), check_device=False)
