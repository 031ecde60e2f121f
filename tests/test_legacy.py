"""torch's legacy constructors (minitorch/_legacy.py): Tensor(...) and the typed classes FloatTensor,
DoubleTensor, IntTensor, LongTensor, BoolTensor (and minitorch.cuda's), isinstance checks against them
and Tensor.type with a typed class, printed by the same snippet under torch and minitorch."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

CODE = """
import numpy as np
for make in ("torch.Tensor()", "torch.Tensor(2, 3).shape", "torch.Tensor([1, 2])", "torch.Tensor([[1, 2], [3, 4]])",
             "torch.Tensor((2, 3))", "torch.Tensor(torch.Size([2, 3])).shape", "torch.Tensor(torch.ones(2, dtype=torch.long))",
             "torch.Tensor([True, False])", "torch.Tensor(torch.tensor(3.))", "torch.Tensor(np.arange(3))",
             "torch.Tensor([np.float64(1.5)])", "torch.Tensor(0).shape", "torch.Tensor([]).shape",
             "torch.Tensor(2, device='cpu').shape", "torch.FloatTensor([1, 2])", "torch.LongTensor([1.7, 2])",
             "torch.IntTensor(2).shape", "torch.BoolTensor([1, 0])", "torch.DoubleTensor()", "torch.DoubleTensor([[1], [2]])",
             "torch.LongTensor(torch.ones(2, dtype=torch.long))", "torch.FloatTensor(2, 3).is_contiguous()",
             "torch.Tensor(3.5)", "torch.Tensor(-1)", "torch.Tensor('ab')", "torch.Tensor([1, 'a'])", "torch.Tensor(None)",
             "torch.Tensor(2, 3, dtype=torch.float64)",
             "torch.FloatTensor(torch.ones(2, dtype=torch.long))", "torch.FloatTensor(2, device='cuda')",
             "torch.FloatTensor([[1], [2, 3]])"):
    try:
        value = eval(make)
        print(make, repr(value), getattr(value, "dtype", ""))
    except Exception as e:
        print(make, "!!", type(e).__name__, str(e).split(chr(10))[0])
x = torch.ones(2)
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.DoubleTensor), isinstance(x.long(), torch.LongTensor),
      isinstance(x, torch.cuda.FloatTensor), isinstance(3, torch.FloatTensor), isinstance(x, torch.Tensor))
print(torch.FloatTensor, torch.cuda.LongTensor, torch.FloatTensor.dtype, torch.cuda.BoolTensor.is_cuda, torch.IntTensor.__name__)
print(issubclass(torch.FloatTensor, torch.Tensor), x.type(), x.type(torch.DoubleTensor), x.type(torch.IntTensor).type())
y = torch.Tensor(x)
print(y is x, y.data_ptr() == x.data_ptr())
"""


def test_legacy_constructors_parity():
    compare(CODE)


def test_cuda_typed_classes(device):
    if device == "cpu":
        pytest.skip("the CUDA typed classes need a CUDA device")
    t = minitorch.cuda.FloatTensor([1, 2])
    assert t.device.type == "cuda" and t.dtype == minitorch.float32 and isinstance(t, minitorch.cuda.FloatTensor)
    assert not isinstance(t, minitorch.FloatTensor) and minitorch.cuda.LongTensor(3).shape == (3,)
    with pytest.raises(RuntimeError, match="legacy constructor expects device type: cuda but device type: cpu"):
        minitorch.cuda.IntTensor(2, device="cpu")
