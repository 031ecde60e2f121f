"""torch.finfo and torch.iinfo: the numeric limits of each dtype minitorch has, their types, repr,
comparison and the constructors' errors, against torch."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402


def test_finfo_of_each_floating_dtype():
    compare("""
for d in [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.half, torch.float, torch.double, float]:
    f = torch.finfo(d)
    print(f)
    print(repr(f), str(f) == repr(f))
    for name in ['bits', 'eps', 'max', 'min', 'tiny', 'smallest_normal', 'resolution', 'dtype']:
        value = getattr(f, name)
        print(name, type(value).__name__, repr(value))
print(torch.finfo(type=torch.float16).dtype, torch.finfo.__new__(torch.finfo, torch.bfloat16).bits)
print(sorted(n for n in dir(torch.finfo(torch.float32)) if not n.startswith('_')))
""")


def test_finfo_default_follows_the_default_dtype():
    compare("""
print(torch.finfo(), torch.finfo.__new__(torch.finfo))
torch.set_default_dtype(torch.float64)
print(torch.finfo())
torch.set_default_dtype(torch.float32)
print(torch.finfo().dtype)
""")


def test_iinfo_of_each_integer_dtype():
    compare("""
for d in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.short, torch.int, torch.long, int]:
    i = torch.iinfo(d)
    print(i)
    print(repr(i), str(i) == repr(i))
    for name in ['bits', 'max', 'min', 'dtype']:
        value = getattr(i, name)
        print(name, type(value).__name__, repr(value))
print(torch.iinfo(type=torch.int16).max)
print(sorted(n for n in dir(torch.iinfo(torch.int8)) if not n.startswith('_')))
""")


def test_type_info_comparison_hash_and_attributes():
    compare("""
f, g = torch.finfo(torch.float32), torch.finfo(torch.float32)
print(f == g, f != g, f is g, f == torch.finfo(torch.float64), f != torch.finfo(torch.float16))
print(torch.finfo(torch.float16) == torch.finfo(torch.bfloat16), torch.finfo(torch.float) == torch.finfo())
print(torch.iinfo(torch.int8) == torch.iinfo(torch.int8), torch.iinfo(torch.int8) != torch.iinfo(torch.uint8))
print(torch.finfo(torch.float32) == torch.iinfo(torch.int32), torch.iinfo(torch.int32) == torch.finfo(torch.float32))
print(f == 3, f == 'float32', f != None)
print(type(f).__name__, type(torch.iinfo(torch.int8)).__name__, type(f).__hash__)
hash(f)
hash(torch.iinfo(torch.int64))
f < g
f.bits = 3
f.eps = 1.0
f.foo = 1
torch.iinfo(torch.int8).max = 5
import pickle
pickle.dumps(f)
""")


def test_constructor_errors():
    compare("""
torch.finfo(torch.int32)
torch.finfo(torch.uint8)
torch.finfo(torch.bool)
torch.finfo(int)
torch.iinfo(torch.float32)
torch.iinfo(torch.bfloat16)
torch.iinfo(torch.bool)
torch.iinfo(bool)
torch.iinfo(float)
torch.iinfo()
torch.finfo("float32")
torch.iinfo("int32")
torch.finfo(1)
torch.finfo(None)
torch.iinfo(None)
torch.finfo(torch.float32, 1)
torch.iinfo(torch.int32, torch.int32)
torch.finfo(dtype=torch.float32)
torch.iinfo(dtype=torch.int32)
torch.finfo(torch.float32, type=torch.float32)
""")


def test_typical_uses():
    compare("""
x = torch.tensor([1e-30, 1.0, 3e38])
print(x.clamp(min=torch.finfo(x.dtype).tiny), x.clamp(max=torch.finfo(torch.float16).max).half())
print(torch.full((2,), torch.finfo(torch.float32).min), torch.finfo(x.dtype).eps * 2)
print(torch.tensor([torch.iinfo(torch.int64).max, torch.iinfo(torch.int64).min]))
print(torch.zeros(2, dtype=torch.uint8).fill_(torch.iinfo(torch.uint8).max))
m = torch.tensor([[0.5, -1.0]]).masked_fill(torch.tensor([[True, False]]), torch.finfo(torch.float32).min)
print(m, m.softmax(-1))
""")
