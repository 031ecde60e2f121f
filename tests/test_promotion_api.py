"""torch.result_type, torch.can_cast and torch.promote_types: the promotion rules the arithmetic ops follow,
as functions, against torch (every pair of dtypes, tensors of each rank class, Python numbers)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402


def test_promote_types_and_can_cast_every_pair():
    compare("""
ds = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64]
for a in ds:
    print([str(torch.promote_types(a, b)) for b in ds], [torch.can_cast(a, b) for b in ds])
print(torch.promote_types(float, int), torch.can_cast(int, bool), torch.can_cast(from_=torch.float, to=torch.int))
torch.promote_types(torch.int32)
torch.can_cast(1, torch.int32)
torch.can_cast(torch.int32, "float")
""")


def test_result_type_of_tensors_and_numbers():
    compare("""
ds = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float32, torch.float64]
for a in ds:
    x = torch.ones(2, dtype=a)
    z = torch.ones((), dtype=a)
    print([str(torch.result_type(x, torch.ones(3, dtype=b))) for b in ds])
    print([str(torch.result_type(x, torch.ones((), dtype=b))) for b in ds])
    print([str(torch.result_type(z, torch.ones((), dtype=b))) for b in ds])
    print([str(torch.result_type(x, n)) for n in [True, 2, 2.5]], [str(torch.result_type(n, z)) for n in [True, 2, 2.5]])
print(torch.result_type(1, 2.0), torch.result_type(True, False), torch.result_type(3, True))
print(torch.result_type(tensor=torch.ones(2, dtype=torch.int8), other=300))
torch.result_type(1, "a")
torch.result_type(torch.ones(2))
""")
