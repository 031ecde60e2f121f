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


def test_isclose_allclose_equal():
    compare("""
torch.manual_seed(3)
a = torch.tensor([1., 2., float('nan'), float('inf'), -float('inf'), 1e-9, 1e10, -0.0])
b = torch.tensor([1.00001, 2.1, float('nan'), float('inf'), float('inf'), 0., 1.00001e10, 0.0])
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), a.isclose(b, rtol=0.1), a.isclose(b, 0, 0))
print(torch.isclose(a.double(), b.double()), torch.isclose(a, b, atol=1e-3, rtol=0))
i, j = torch.tensor([1, 2, 3, 2 ** 40]), torch.tensor([1, 3, 3, 2 ** 40 + 1])
print(torch.isclose(i, j), torch.isclose(i, j, atol=1), torch.isclose(i, j, rtol=0, atol=0))
u, w = torch.tensor([5, 3], dtype=torch.uint8), torch.tensor([3, 5], dtype=torch.uint8)
print(torch.isclose(u, w, atol=2), torch.isclose(torch.tensor([True, False]), torch.tensor([True, True]), atol=2))
x = torch.randn(4, 5)
y = x + torch.randn(4, 5) * 1e-6
print(torch.allclose(x, y), torch.allclose(x, y, rtol=0, atol=0), x.allclose(y, atol=1e-5), torch.allclose(x, x[:1]))
print(torch.isclose(x, x[:1]).shape, torch.isclose(x.t(), y.t()).all())
print(torch.equal(x, x.clone()), torch.equal(x, y), torch.equal(x, x.t()), x.equal(x + 0), torch.equal(a, a))
print(torch.equal(i, i.float()), torch.equal(torch.ones(2), torch.ones(1).expand(2)), torch.equal(torch.ones(2, 3), torch.ones(3, 2)))
print(torch.isclose(x.requires_grad_(), y).requires_grad)
torch.isclose(a, i)
torch.isclose(a, b, rtol=-1)
torch.isclose(a, b, atol=-0.5)
torch.isclose(a, 1.0)
torch.allclose(a, i)
torch.isclose(torch.ones(2), torch.ones(3))
torch.equal(torch.ones(2), 1)
""")
