"""Parity corpus for the CPU tensor core: every snippet runs under real torch and under minitorch and
the printed output (values, reprs, dtypes, shapes, strides, exception types and messages) must match.

The expected output is never written down here: it is whatever real torch prints at run time.
`python tests/test_parity_cpu.py [SUBSTRING]` prints each snippet and its torch output (and the
minitorch output when minitorch imports), which is handy while implementing.

Snippets marked ``cuda_dependent`` print something that depends on whether CUDA is available
(``torch.cuda.is_available()``, ``torch.device(0)``): they are skipped when torch and minitorch disagree
on it (minitorch on a real or simulated GPU, torch without one). Those marked ``build_dependent`` also
depend on whether CUDA is built in (``torch.device(0)`` is a CUDA device in a CUDA build even without a
GPU): they are skipped when torch and minitorch are different builds (a CUDA build and a CPU-only one).
"""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, import_minitorch, import_torch, run_snippet, same_build_as_torch  # noqa: E402

SNIPPETS = []  # (id, code, cuda_dependent, build_dependent)


def snip(name, code, cuda_dependent=False, build_dependent=False):
    SNIPPETS.append((name, textwrap.dedent(code).strip() + "\n", cuda_dependent, build_dependent))


# ---------------------------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------------------------
snip("dtype_str_repr", """
for d in [torch.float32, torch.float64, torch.int32, torch.int64, torch.bool]:
    print(d, repr(d), str(d))
""")
snip("dtype_aliases", """
print(torch.float is torch.float32, torch.double is torch.float64)
print(torch.int is torch.int32, torch.long is torch.int64)
print(torch.float, torch.double, torch.int, torch.long)
print(torch.float == torch.float32, torch.float32 != torch.int32)
""")
snip("dtype_attributes", """
for d in [torch.float32, torch.float64, torch.int32, torch.int64, torch.bool]:
    print(d, d.is_floating_point, d.is_signed, d.itemsize)
""")
snip("dtype_type_name", """
print(type(torch.float32).__name__)
print(isinstance(torch.int64, torch.dtype))
print(type(torch.float32))
""")
snip("dtype_hash_set_dict", """
s = {torch.float32, torch.float, torch.float64, torch.double, torch.int64}
print(len(s))
d = {torch.float32: 'f', torch.int64: 'l'}
print(d[torch.float], d[torch.long])
""")
snip("dtype_of_tensors", """
print(torch.tensor([1, 2]).dtype)
print(torch.tensor([1.0]).dtype)
print(torch.tensor([True]).dtype)
print(torch.tensor([1], dtype=torch.int32).dtype)
print(torch.tensor([1], dtype=torch.float64).dtype == torch.double)
""")
snip("dtype_eq_with_other_objects", """
print(torch.float32 == 'float32')
print(torch.float32 == None)
print(torch.int64 in [torch.int32, torch.int64])
""")

# ---------------------------------------------------------------------------------------------
# torch.Size
# ---------------------------------------------------------------------------------------------
snip("size_repr_str", """
s = torch.Size([2, 3])
print(s)
print(repr(s))
print(str(s))
print(torch.Size([]))
print(torch.Size([5]))
print(torch.Size())
print(torch.Size((4, 0, 1)))
""")
snip("size_indexing", """
s = torch.Size([2, 3, 4])
print(s[0], s[-1], s[1])
print(s[1:])
print(type(s[1:]).__name__)
print(s[::-1])
print(len(s))
""")
snip("size_tuple_behaviour", """
s = torch.Size([2, 3])
print(s == (2, 3), s == [2, 3], s == torch.Size([2, 3]), s != (3, 2))
print(isinstance(s, tuple))
print(tuple(s), list(s))
a, b = s
print(a, b)
print(hash(s) == hash((2, 3)))
print(s + (1,))
print(type(s + (1,)).__name__)
""")
snip("size_numel", """
print(torch.Size([2, 3, 4]).numel())
print(torch.Size([]).numel())
print(torch.Size([3, 0]).numel())
""")
snip("size_errors", """
torch.Size([2.5])
torch.Size(['a'])
""")
snip("size_dimensions_past_int64", """
s = torch.Size([2**70, 3])
print(type(s).__name__, len(s), s[0], s[1:], s == (2**70, 3), type(s * 2).__name__, type(s + (1,)).__name__)
print(s)
repr(torch.Size([-2**63 - 1]))
torch.Size([2**63]).numel()
print(torch.Size([2**63 - 1, -2**63]))
torch.Size([2**70, 'a'])
torch.Size([torch.tensor(2.5)])
print(torch.Size([torch.tensor(3), True]))
""")
snip("size_repeat_stays_a_size", """
s = torch.Size([2, 3])
for r in (s * 2, 2 * s, s * 0, s * True, s * torch.tensor(2)):
    print(type(r).__name__, r)
s * 2.5
""")
snip("size_from_tensor_shape", """
x = torch.zeros(2, 3)
print(x.shape == torch.Size([2, 3]))
print(x.size() == (2, 3))
print(type(x.shape).__name__)
print(x.shape[0] * x.shape[1])
""")

# ---------------------------------------------------------------------------------------------
# torch.device
# ---------------------------------------------------------------------------------------------
snip("device_cpu", """
d = torch.device('cpu')
print(d, repr(d), d.type, d.index)
print(type(d).__name__)
""")
snip("device_cuda_strings", """
for s in ['cuda', 'cuda:0', 'cuda:1', 'cuda:12']:
    d = torch.device(s)
    print(str(d), repr(d), d.type, d.index)
""")
snip("device_type_index_pair", """
d = torch.device('cuda', 1)
print(d, repr(d), d.type, d.index)
d = torch.device('cpu', 0)
print(d, repr(d))
print(torch.device('cpu:0'))
""")
snip("device_keywords", """
print(repr(torch.device(type='cuda', index=2)))
print(repr(torch.device(type='cpu')))
""")
snip("device_from_device", """
d = torch.device('cuda:1')
e = torch.device(d)
print(repr(e), e == d)
print(repr(torch.device(torch.device('cpu'))))
""")
snip("device_int_index", """
print(repr(torch.device(0)))
""", cuda_dependent=True, build_dependent=True)
snip("device_negative_int_index", """
torch.device(-1)
""")
snip("device_equality", """
print(torch.device('cuda') == torch.device('cuda:0'))
print(torch.device('cuda') != torch.device('cuda:0'))
print(torch.device('cuda', 0) == torch.device('cuda:0'))
print(torch.device('cpu') == torch.device('cpu'))
print(torch.device('cpu') == torch.device('cpu:0'))
print(torch.device('cuda:0') == torch.device('cuda:1'))
print(torch.device('cpu') == 'cpu')
""")
snip("device_hash_set_dict", """
s = {torch.device('cpu'), torch.device('cpu'), torch.device('cuda'), torch.device('cuda:0'), torch.device('cuda', 0)}
print(len(s))
d = {torch.device('cuda:0'): 'zero', torch.device('cpu'): 'host'}
print(d[torch.device('cuda', 0)], d[torch.device('cpu')])
print(torch.device('cuda') in d)
""")
snip("device_ordering_errors", """
torch.device('cuda') < torch.device('cpu')
torch.device('cpu') <= torch.device('cpu')
torch.device('cuda:0') > torch.device('cuda:1')
torch.device('cuda:0') >= torch.device('cuda:1')
""")
snip("device_error_gpu", """
torch.device('gpu')
""")
snip("device_error_uppercase", """
torch.device('CUDA')
""")
snip("device_error_bad_index_strings", """
torch.device('cuda:x')
torch.device('cuda:01')
torch.device('cuda:-1')
torch.device('cuda:+1')
torch.device('cuda:1 ')
torch.device(' cuda')
torch.device('cuda:')
""")
snip("device_error_empty", """
torch.device('')
""")
snip("device_error_cpu_negative", """
torch.device('cpu:-1')
""")
snip("device_error_index_twice", """
torch.device('cuda:0', 1)
""")
snip("device_error_negative_index_arg", """
torch.device('cuda', -1)
""")
snip("device_of_tensor", """
x = torch.tensor([1, 2])
print(x.device, repr(x.device))
print(x.device == torch.device('cpu'))
print(x.device.type, x.device.index)
print(x.is_cuda, x.get_device())
""")

# ---------------------------------------------------------------------------------------------
# torch.tensor construction
# ---------------------------------------------------------------------------------------------
snip("tensor_from_int_list", """
x = torch.tensor([1, 2, 3])
print(x)
print(x.dtype, x.shape)
""")
snip("tensor_from_float_list", """
x = torch.tensor([1.0, 2.5, -3.25])
print(x)
print(x.dtype, x.shape)
""")
snip("tensor_from_bool_list", """
x = torch.tensor([True, False, True])
print(x)
print(x.dtype)
""")
snip("tensor_from_nested_list", """
x = torch.tensor([[1, 2], [3, 4]])
print(x)
print(x.shape, x.dtype)
""")
snip("tensor_from_tuples", """
print(torch.tensor((1, 2, 3)))
print(torch.tensor(((1.5, 2), (3, 4))))
print(torch.tensor([(1, 2), [3, 4]]))
""")
snip("tensor_from_scalars", """
a = torch.tensor(3)
b = torch.tensor(2.5)
c = torch.tensor(True)
print(a, a.dtype, a.shape, a.dim())
print(b, b.dtype, b.shape)
print(c, c.dtype)
print(torch.tensor(-7), torch.tensor(0.0), torch.tensor(False))
""")
snip("tensor_mixed_inference", """
print(torch.tensor([1, 2.5]).dtype)
print(torch.tensor([True, 2]).dtype)
print(torch.tensor([True, 2.5]).dtype)
print(torch.tensor([[1, 2], [3.0, 4]]).dtype)
print(torch.tensor([True, 2]))
print(torch.tensor([1, 2.5]))
""")
snip("tensor_from_0d_tensors", """
a = torch.tensor(3)
b = torch.tensor(4.5)
print(torch.tensor(a))
print(torch.tensor([a, a]))
print(torch.tensor([a, b]))
print(torch.tensor([torch.tensor(1, dtype=torch.int32), torch.tensor(2, dtype=torch.int32)]).dtype)
""")
snip("tensor_from_tensor_copies", """
a = torch.tensor([1, 2, 3])
b = torch.tensor(a)
b[0] = 100
print(a)
print(b)
""")
snip("tensor_empty_list", """
x = torch.tensor([])
print(x, x.dtype, x.shape)
y = torch.tensor([[]])
print(y, y.shape)
z = torch.tensor([], dtype=torch.int64)
print(z)
""")
snip("tensor_dtype_argument", """
print(torch.tensor([1, 2], dtype=torch.float32))
print(torch.tensor([1, 2], dtype=torch.float64))
print(torch.tensor([1.7, -1.7], dtype=torch.int32))
print(torch.tensor([1.7, -1.7], dtype=torch.int64))
print(torch.tensor([0, 2, 0.5], dtype=torch.bool))
print(torch.tensor([True, False], dtype=torch.float32))
print(torch.tensor(3, dtype=torch.float64))
""")
snip("tensor_device_cpu_argument", """
x = torch.tensor([[1, 2], [3, 4]], device='cpu')
print(x, x.device)
y = torch.tensor([1.0], device=torch.device('cpu'))
print(y.device, y.is_cuda)
""")
snip("tensor_large_ints", """
print(torch.tensor([2**40, -2**40]))
print(torch.tensor(2**62))
print(torch.tensor([2**31 - 1], dtype=torch.int32))
""")
snip("tensor_int_overflow", """
torch.tensor(2**63)
torch.tensor([1, 2**64])
""")
snip("tensor_ragged_longer", """
torch.tensor([[1, 2], [3, 4, 5]])
""")
snip("tensor_ragged_shorter", """
torch.tensor([[1, 2, 3], [4, 5]])
""")
snip("tensor_ragged_deeper", """
torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]])
""")
snip("tensor_error_string", """
torch.tensor('abc')
""")
snip("tensor_error_list_of_strings", """
torch.tensor(['a', 'b'])
""")
snip("tensor_error_int_then_string", """
torch.tensor([1, 'a'])
""")
snip("tensor_error_none", """
torch.tensor(None)
torch.tensor([1, None])
""")
snip("tensor_error_dict_object", """
torch.tensor({})
torch.tensor(object())
""")
snip("tensor_error_scalar_in_nested", """
torch.tensor([[1, 2], 3])
""")
snip("tensor_error_list_after_scalar", """
torch.tensor([1, [2]])
""")
snip("tensor_error_self_referential", """
a = [1, 2]
a.append(a)
torch.tensor(a)
b = []
b.append(b)
torch.tensor(b)
""")
snip("tensor_error_too_many_dims", """
x = [1]
for _ in range(200):
    x = [x]
torch.tensor(x)
""")
snip("tensor_max_dims_ok", """
x = [1]
for _ in range(20):
    x = [x]
t = torch.tensor(x)
print(t.dim(), t.numel(), t.shape)
""")
snip("tensor_error_dtype_not_dtype", """
torch.tensor([1], dtype='float32')
torch.tensor([1], dtype=3)
""")

# ---------------------------------------------------------------------------------------------
# factories
# ---------------------------------------------------------------------------------------------
snip("zeros_ones_basic", """
print(torch.zeros(3))
print(torch.ones(2, 3))
print(torch.zeros(2, 2, dtype=torch.int64))
print(torch.ones(3, dtype=torch.bool))
print(torch.zeros(2, dtype=torch.int32))
print(torch.ones(2, dtype=torch.float64))
""")
snip("zeros_size_forms", """
print(torch.zeros(2, 3).shape)
print(torch.zeros((2, 3)).shape)
print(torch.zeros([2, 3]).shape)
print(torch.zeros(torch.Size([2, 3])).shape)
print(torch.ones(size=(2, 1)).shape)
print(torch.zeros(()).shape, torch.zeros(()))
print(torch.zeros([]).shape)
print(torch.ones(0))
print(torch.ones(2, 0))
""")
snip("zeros_python_type_dtype", """
print(torch.zeros(2, dtype=int))
print(torch.zeros(2, dtype=float))
print(torch.zeros(2, dtype=bool))
""")
snip("zeros_device_argument", """
x = torch.zeros(2, device='cpu')
print(x.device)
y = torch.ones(2, device=torch.device('cpu'), dtype=torch.int32)
print(y)
""")
snip("factory_negative_size", """
torch.zeros(-1)
torch.ones(2, -3)
torch.empty(-2)
torch.full((-1,), 1.0)
""")
snip("factory_bad_size_types", """
torch.zeros(2.5)
torch.zeros('a')
torch.ones((2, 3), 4)
""")
snip("factory_bad_dtype", """
torch.zeros(2, dtype='float32')
torch.ones(2, dtype=3)
""")
snip("empty_shape_dtype", """
x = torch.empty(2, 3)
print(x.shape, x.dtype, x.device)
y = torch.empty((4,), dtype=torch.int64)
print(y.shape, y.dtype, y.is_contiguous(), y.stride())
z = torch.empty(0)
print(z)
print(torch.empty(2, 0).shape)
""")
snip("full_inferred_dtype", """
print(torch.full((2,), 3))
print(torch.full((2,), 3).dtype)
print(torch.full((2, 2), 3.5))
print(torch.full((2,), True))
print(torch.full((2,), False).dtype)
""")
snip("full_dtype_argument", """
print(torch.full((3,), 7, dtype=torch.float64))
print(torch.full((2,), 2.9, dtype=torch.int32))
print(torch.full([2, 2], -1))
print(torch.full(torch.Size([1, 3]), 0.5))
""")
snip("arange_int", """
print(torch.arange(5))
print(torch.arange(2, 8))
print(torch.arange(1, 10, 3))
print(torch.arange(5).dtype)
""")
snip("arange_float", """
print(torch.arange(0.0, 1.0, 0.25))
print(torch.arange(1, 2.5, 0.5))
print(torch.arange(3.0))
print(torch.arange(0, 1, 0.1))
print(torch.arange(0, 1, 0.1).shape)
""")
snip("arange_negative_step", """
print(torch.arange(5, 0, -1))
print(torch.arange(3, -3, -2))
print(torch.arange(1.0, 0.0, -0.25))
""")
snip("arange_dtype", """
print(torch.arange(4, dtype=torch.float32))
print(torch.arange(4, dtype=torch.float64))
print(torch.arange(0, 2, 0.5, dtype=torch.float64))
print(torch.arange(4, dtype=torch.int32))
print(torch.arange(4.0).dtype, torch.arange(0, 4, 1).dtype, torch.arange(0, 4, 1.0).dtype)
""")
snip("arange_empty", """
print(torch.arange(0))
print(torch.arange(3, 3))
""")
snip("arange_errors", """
torch.arange(0, 10, 0)
torch.arange(10, 0)
torch.arange(0, 10, -1)
""")
snip("eye", """
print(torch.eye(3))
print(torch.eye(2, 3))
print(torch.eye(3, 2))
print(torch.eye(2, dtype=torch.int64))
print(torch.eye(0))
print(torch.eye(1, 0).shape)
""")
snip("eye_errors", """
torch.eye(-1)
torch.eye(2, -1)
""")
snip("zeros_like_ones_like", """
a = torch.tensor([[1, 2], [3, 4]])
print(torch.zeros_like(a))
print(torch.ones_like(a))
print(torch.zeros_like(a, dtype=torch.float32))
print(torch.ones_like(a, dtype=torch.float64))
b = torch.tensor([1.5, 2.5])
print(torch.zeros_like(b), torch.ones_like(b).dtype)
""")
snip("zeros_like_of_transposed", """
a = torch.zeros(2, 3).t()
z = torch.zeros_like(a)
print(z.shape, z.stride(), z.is_contiguous())
""")
snip("rand_float32_shapes", """
torch.manual_seed(0)
print(torch.rand(3))
print(torch.rand(2, 3))
print(torch.rand(20))
print(torch.rand(4, 5))
""")
snip("rand_float64", """
torch.manual_seed(0)
print(torch.rand(3, dtype=torch.float64))
print(torch.rand(4, 5, dtype=torch.float64))
""")
snip("randn_float32_shapes", """
torch.manual_seed(0)
print(torch.randn(3))
print(torch.randn(2, 3))
print(torch.randn(20))
print(torch.randn(4, 5))
""")
snip("randn_float64", """
torch.manual_seed(0)
print(torch.randn(3, dtype=torch.float64))
print(torch.randn(20, dtype=torch.float64))
""")
snip("randn_seed_reproducible", """
torch.manual_seed(42)
a = torch.randn(5)
torch.manual_seed(42)
b = torch.randn(5)
print(torch.equal(a, b) if hasattr(torch, 'equal') else bool((a == b).all()))
print(a)
""")
snip("randn_sequence_of_calls", """
torch.manual_seed(1)
print(torch.randn(1))
print(torch.randn(16))
print(torch.randn(17))
print(torch.rand(1))
""")
snip("randn_size_forms", """
torch.manual_seed(0)
print(torch.randn((2, 2)))
print(torch.randn([2, 2]).shape)
print(torch.rand(torch.Size([1, 2])).shape)
print(torch.randn(0).shape)
""")
snip("randn_1000x1000_stats_shape", """
torch.manual_seed(0)
x = torch.randn(1000, 1000)
print(x.shape, x.dtype)
print(x[0, :4])
print(x[999, -3:])
""")
snip("randint_basic", """
torch.manual_seed(0)
print(torch.randint(0, 10, (5,)))
print(torch.randint(3, (2, 2)))
print(torch.randint(-5, 5, (2, 3)))
print(torch.randint(0, 10, (5,)).dtype)
""")
snip("randint_dtypes", """
torch.manual_seed(0)
print(torch.randint(0, 10, (4,), dtype=torch.int32))
print(torch.randint(0, 10, (4,), dtype=torch.float32))
print(torch.randint(0, 10, (4,), dtype=torch.float64))
""")
snip("randint_large_count", """
torch.manual_seed(3)
print(torch.randint(0, 100, (30,)))
""")
snip("randint_errors", """
torch.randint(5, 5, (3,))
torch.randint(0, 10)
""")
snip("manual_seed_int_like", """
torch.manual_seed(123)
a = torch.rand(2)
torch.manual_seed(123)
print(bool((torch.rand(2) == a).all()))
""")

# ---------------------------------------------------------------------------------------------
# conversions / properties
# ---------------------------------------------------------------------------------------------
snip("item_values", """
print(torch.tensor(3).item(), type(torch.tensor(3).item()).__name__)
print(torch.tensor(2.5).item(), type(torch.tensor(2.5).item()).__name__)
print(torch.tensor(True).item(), type(torch.tensor(True).item()).__name__)
print(torch.tensor([7]).item())
print(torch.tensor([[1.25]]).item())
print(torch.tensor(0.1).item())
print(torch.tensor(0.1, dtype=torch.float64).item())
""")
snip("item_error", """
torch.tensor([1.0, 2.0]).item()
torch.tensor([]).item()
""")
snip("tolist", """
print(torch.tensor([[1, 2], [3, 4]]).tolist())
print(torch.tensor([1.5, 2.0]).tolist())
print(torch.tensor(3).tolist())
print(torch.tensor([True, False]).tolist())
print(torch.tensor([0.1]).tolist())
print(torch.zeros(2, 0).tolist())
print(torch.arange(6).view(2, 3).t().tolist())
""")
snip("python_number_conversions", """
print(float(torch.tensor(3)), int(torch.tensor(2.7)), int(torch.tensor(-2.7)))
print(bool(torch.tensor(0)), bool(torch.tensor(0.5)), bool(torch.tensor([1])))
print(float(torch.tensor([[4.5]])))
""")
snip("python_number_conversion_errors", """
float(torch.tensor([1.0, 2.0]))
int(torch.tensor([1, 2]))
bool(torch.tensor([1, 2]))
bool(torch.tensor([]))
""")
snip("tensor_in_if", """
x = torch.tensor([3])
if x > 2:
    print('big')
if torch.tensor(0.0):
    print('nonzero')
else:
    print('zero')
""")
snip("len_and_iteration", """
x = torch.tensor([[1, 2], [3, 4], [5, 6]])
print(len(x))
for row in x:
    print(row)
for v in torch.tensor([1.5, 2.5]):
    print(v, v.dim())
print(list(torch.tensor([1, 2])))
""")
snip("len_0d_error", """
len(torch.tensor(5))
""")
snip("iter_0d_error", """
for v in torch.tensor(5):
    print(v)
""")
snip("numel_size_shape", """
x = torch.zeros(2, 3, 4)
print(x.numel(), x.size(), x.shape)
print(x.size(0), x.size(1), x.size(-1), x.size(-3))
print(x.size(dim=2))
print(x.dim(), x.ndim, x.ndimension())
print(torch.tensor(1.0).size(), torch.tensor(1.0).numel(), torch.tensor(1.0).dim())
""")
snip("size_dim_errors", """
x = torch.zeros(2, 3)
x.size(2)
x.size(-3)
torch.tensor(1).size(0)
""")
snip("element_size_nbytes_itemsize", """
for d in [torch.float32, torch.float64, torch.int32, torch.int64, torch.bool]:
    x = torch.zeros(2, 3, dtype=d)
    print(d, x.element_size(), x.itemsize, x.nbytes)
print(torch.zeros(4, 4).t().nbytes)
""")
snip("device_properties_of_tensor", """
x = torch.ones(2)
print(x.device, x.is_cuda, x.get_device())
print(x.requires_grad)
print(x.is_floating_point(), torch.tensor([1]).is_floating_point())
""")
snip("stride_and_offset", """
x = torch.zeros(2, 3, 4)
print(x.stride(), x.stride(0), x.stride(-1), x.storage_offset(), x.is_contiguous())
print(torch.tensor(1.0).stride())
print(torch.zeros(3, 0).stride())
print(torch.zeros(1, 1).stride())
""")
snip("stride_errors", """
torch.zeros(2, 3).stride(2)
torch.zeros(2, 3).stride(-3)
""")
snip("no_grad_context", """
with torch.no_grad():
    x = torch.ones(2) * 3
    print(x)
print(x.requires_grad)
""")
snip("type_of_tensor", """
x = torch.ones(1)
print(type(x))
print(isinstance(x, torch.Tensor))
print(type(x).__name__)
""")

# ---------------------------------------------------------------------------------------------
# views, reshape, copies
# ---------------------------------------------------------------------------------------------
snip("view_basic", """
a = torch.arange(6)
print(a.view(2, 3))
print(a.view(3, -1))
print(a.view(-1))
print(a.view((2, 3)).shape)
print(a.view(torch.Size([6, 1])).shape)
print(a.view(1, 2, 1, 3).stride())
""")
snip("view_errors", """
a = torch.arange(6)
a.view(4)
a.view(-1, -1)
a.view(4, -1)
a.view(-2, 3)
""")
snip("view_non_contiguous_error", """
a = torch.arange(6).view(2, 3).t()
a.view(6)
a.view(-1)
print(a.view(3, 2).shape)
""")
snip("view_of_transposed_compatible", """
a = torch.arange(24).view(2, 3, 4).transpose(0, 1)
print(a.shape, a.stride())
b = a.view(3, 2, 2, 2)
print(b.stride())
print(a.reshape(6, 4).is_contiguous())
""")
snip("view_shares_storage", """
a = torch.zeros(2, 3)
v = a.view(6)
v[0] = 5
v[4] = 7
print(a)
print(a.view(6).data_ptr() == a.data_ptr())
print(a.view(3, 2).storage_offset())
""")
snip("reshape", """
a = torch.arange(6)
print(a.reshape(2, 3))
print(a.reshape(-1, 2))
print(a.reshape((3, 2)).shape)
t = a.view(2, 3).t()
r = t.reshape(6)
print(r, r.is_contiguous())
print(t.reshape(3, 2).data_ptr() == t.data_ptr())
print(a.reshape(2, 3).data_ptr() == a.data_ptr())
""")
snip("reshape_errors", """
torch.arange(6).reshape(4)
torch.arange(6).reshape(-1, -1)
""")
snip("reshape_zero_sized", """
a = torch.zeros(0, 3)
print(a.reshape(3, 0).shape)
print(a.view(-1).shape)
a.view(-1, 0)
""")
snip("t_and_T", """
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a.t())
print(a.T)
print(a.t().stride(), a.t().is_contiguous())
print(torch.tensor([1, 2]).t())
print(torch.tensor(5).t())
print(a.t().data_ptr() == a.data_ptr())
""")
snip("t_error_3d", """
torch.zeros(2, 3, 4).t()
""")
snip("transpose", """
a = torch.arange(24).view(2, 3, 4)
b = a.transpose(0, 2)
print(b.shape, b.stride())
print(a.transpose(-1, -2).shape)
print(a.transpose(1, 1).stride())
print(torch.transpose(a, 0, 1).shape)
print(b[1, 2, 0], a[0, 2, 1])
""")
snip("transpose_errors", """
a = torch.zeros(2, 3)
a.transpose(0, 2)
a.transpose(-3, 0)
""")
snip("unsqueeze", """
a = torch.tensor([1, 2, 3])
print(a.unsqueeze(0))
print(a.unsqueeze(1))
print(a.unsqueeze(-1).shape, a.unsqueeze(-2).shape)
print(torch.unsqueeze(a, 0).shape)
print(a.unsqueeze(0).stride(), a.unsqueeze(1).stride())
print(torch.tensor(4).unsqueeze(0))
""")
snip("unsqueeze_errors", """
torch.zeros(2, 3).unsqueeze(3)
torch.zeros(2, 3).unsqueeze(-4)
""")
snip("squeeze", """
a = torch.zeros(1, 3, 1, 2)
print(a.squeeze().shape)
print(a.squeeze(0).shape)
print(a.squeeze(1).shape)
print(a.squeeze(-2).shape)
print(torch.squeeze(a).shape)
print(torch.zeros(1, 1).squeeze().shape)
print(torch.tensor([5]).squeeze())
print(a.squeeze().stride())
""")
snip("squeeze_errors", """
torch.zeros(1, 3).squeeze(2)
""")
snip("flatten", """
a = torch.arange(24).view(2, 3, 4)
print(a.flatten().shape)
print(a.flatten(1).shape)
print(a.flatten(0, 1).shape)
print(a.flatten(start_dim=1, end_dim=-1).shape)
print(a.flatten(-2).shape)
print(torch.flatten(a).shape)
print(torch.tensor(3).flatten())
print(a.flatten().data_ptr() == a.data_ptr())
""")
snip("flatten_errors", """
a = torch.zeros(2, 3, 4)
a.flatten(2, 1)
a.flatten(0, 3)
""")
snip("contiguous", """
a = torch.arange(6).view(2, 3)
print(a.contiguous() is a)
t = a.t()
c = t.contiguous()
print(c, c.stride(), c.is_contiguous(), t.is_contiguous())
print(c.data_ptr() == t.data_ptr())
""")
snip("clone", """
a = torch.arange(6).view(2, 3)
b = a.clone()
b[0, 0] = 100
print(a)
print(b)
print(b.data_ptr() == a.data_ptr())
t = a.t().clone()
print(t.stride(), t.is_contiguous())
""")
snip("copy_basic_and_broadcast", """
a = torch.zeros(2, 3)
a.copy_(torch.tensor([1.0, 2.0, 3.0]))
print(a)
r = a.copy_(torch.ones(2, 3))
print(r is a)
a.copy_(torch.tensor(7.0))
print(a)
""")
snip("copy_dtype_converting", """
a = torch.zeros(3, dtype=torch.int64)
a.copy_(torch.tensor([1.9, -1.9, 2.5]))
print(a)
b = torch.zeros(3)
b.copy_(torch.tensor([1, 2, 3]))
print(b)
c = torch.zeros(2, dtype=torch.bool)
c.copy_(torch.tensor([0.0, 0.5]))
print(c)
""")
snip("copy_into_view", """
a = torch.zeros(3, 3)
a[1].copy_(torch.tensor([1.0, 2.0, 3.0]))
a.t()[0].copy_(torch.tensor([9.0, 9.0, 9.0]))
print(a)
""")
snip("copy_errors", """
torch.zeros(2, 3).copy_(torch.ones(4))
torch.zeros(3).copy_(torch.ones(2, 3))
""")
snip("views_share_storage_modify", """
a = torch.arange(12).view(3, 4)
row = a[1]
row[2] = 100
col = a[:, 0]
col[:] = -1
print(a)
t = a.t()
t[3, 2] = 55
print(a)
u = a.unsqueeze(0)
u[0, 0, 1] = 42
print(a[0])
""")
snip("data_ptr_relationships", """
a = torch.arange(12).view(3, 4)
print(a[0].data_ptr() == a.data_ptr())
print(a[1].data_ptr() == a.data_ptr() + 4 * a.element_size())
print(a[:, 1].data_ptr() - a.data_ptr() == a.element_size())
print(a.t().data_ptr() == a.data_ptr())
print(a.clone().data_ptr() == a.data_ptr())
print(a.reshape(12).data_ptr() == a.data_ptr())
print(a.flatten().data_ptr() == a.data_ptr())
""")
snip("strides_after_slicing", """
a = torch.arange(24).view(4, 6)
for v in [a[1], a[:, 2], a[1:3], a[:, ::2], a[::2, 1:5:3], a[1:, 2:].t(), a[-1]]:
    print(v.shape, v.stride(), v.storage_offset(), v.is_contiguous())
""")
snip("contiguous_flags", """
print(torch.zeros(1, 3).t().is_contiguous())
print(torch.zeros(3, 1).t().is_contiguous())
print(torch.zeros(2, 3)[:, :1].is_contiguous())
print(torch.zeros(2, 3)[:1].is_contiguous())
print(torch.zeros(4)[::2].is_contiguous())
print(torch.zeros(0, 3).t().is_contiguous())
""")

# ---------------------------------------------------------------------------------------------
# indexing
# ---------------------------------------------------------------------------------------------
snip("index_int", """
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a[0])
print(a[1, 2])
print(a[-1])
print(a[-1, -3])
print(a[0][1])
print(a[1, 2].dim(), a[1, 2].shape)
""")
snip("index_slices", """
a = torch.arange(10)
print(a[2:5])
print(a[:3])
print(a[7:])
print(a[::3])
print(a[1:8:2])
print(a[-3:])
print(a[:-7])
print(a[5:2])
print(a[100:])
print(a[-100:2])
""")
snip("index_tuple_mixed", """
a = torch.arange(24).view(2, 3, 4)
print(a[1, :, 2])
print(a[:, 1])
print(a[0, 1:, ::2])
print(a[..., 1])
print(a[1, ...])
print(a[:, :, -1].shape)
print(a[0, None].shape)
print(a[None].shape)
print(a[:, None, 1].shape)
""")
snip("index_bool_and_none_0d", """
a = torch.tensor(5)
print(a[()])
print(a[None])
print(a[...])
""")
snip("index_out_of_range", """
a = torch.zeros(3)
a[3]
a[-4]
b = torch.zeros(2, 3)
b[0, 3]
b[2]
b[1, -4]
""")
snip("index_too_many", """
a = torch.zeros(2, 3)
a[0, 0, 0]
torch.tensor(5)[0]
""")
snip("index_negative_step_error", """
torch.arange(5)[::-1]
""")
snip("index_float_error", """
a = torch.arange(5)
a[1.5]
""")
snip("index_str_error", """
a = torch.arange(5)
a['a']
""")
snip("index_with_0d_int_tensor", """
a = torch.arange(10, 20)
i = torch.tensor(3)
print(a[i])
""")
snip("index_result_is_view", """
a = torch.arange(6).view(2, 3)
r = a[1]
print(r.data_ptr() == a.data_ptr() + 3 * a.element_size())
print(r.storage_offset(), r.stride())
s = a[1, 1]
print(s.storage_offset(), s.shape)
""")
snip("setitem_scalar", """
a = torch.zeros(2, 3)
a[0, 1] = 5
a[1] = 2.5
a[:, 2] = -1
print(a)
b = torch.zeros(4, dtype=torch.int64)
b[1:3] = 7
b[-1] = 3.9
print(b)
c = torch.zeros(3, dtype=torch.bool)
c[1] = True
print(c)
""")
snip("setitem_tensor_broadcast", """
a = torch.zeros(3, 4)
a[:] = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(a)
a[1:, 1:3] = torch.tensor([[9.0], [8.0]])
print(a)
a[0] = torch.tensor(6.0)
print(a)
a[2, ::2] = torch.tensor([7, 7])
print(a)
""")
snip("setitem_on_views", """
a = torch.zeros(3, 3)
t = a.t()
t[0] = torch.tensor([1.0, 2.0, 3.0])
print(a)
v = a.view(9)
v[4] = 100
print(a)
a[..., 1] = 0.5
print(a)
""")
snip("setitem_errors", """
a = torch.zeros(2, 3)
a[0] = torch.ones(4)
a[5] = 1
a[0, 0, 0] = 1
a[:, 0] = torch.ones(2, 2)
""")
snip("setitem_overlapping_source", """
y = torch.arange(10.)
y[1:] = y[:-1]
y[:-1] = y[1:]
y[2:5] = y[3:6]
print(y)
z = torch.arange(9.).reshape(3, 3)
z[...] = z.t()
z[1:] = z[:2]
z[1:] = z[:-1].unsqueeze(0)
print(z)
y[...] = y
y[2:5] = y[2:5]
y[::2] = y[1::2]
print(y)
y[1:] = y[:1]
print(y)
z[:, :2] = z[:, 1:]
z[0] = z[:, 0]
print(z)
z[...] = z[0]
print(z)
""")
snip("setitem_advanced_overlapping_source", """
y = torch.arange(10.)
y[[1, 2, 3]] = y[:3]
y[y > 4] = y[:5]
y[torch.tensor([0, 1])] = y[0]
a = torch.arange(5)
a[a[:2]] = 7
print(y, a)
y[[0, 1]] = y[[1, 2]]
y[[0, 1]] = y[::5]
y[y > 8] = y[0:1]
y[y > 4] = y[5]
print(y)
w = torch.arange(12.).reshape(3, 4)
w[[0, 1], 1:] = w[1:, :3]
w[w > 3, True] = w[0, :1]
w[[0, 1], True] = w[2]
print(w)
""")
snip("setitem_expanded_destination", """
e = torch.zeros(3).expand(4, 3)
e[0] = torch.tensor([1.0, 2.0, 3.0])
print(e)
e[0, 0] = 5
print(e)
e[...] = 1
e[:] = torch.ones(3)
e[:, 1] = 7
e[True] = 7
e[:] = torch.ones(5)
e[[0, 1]] = 3
print(e)
e[e == 3] = 4
print(e)
e[:, [0, 2]] = torch.tensor([8.0, 9.0])
print(e)
e[[0, 1]] = torch.arange(6.).reshape(2, 3)
print(e)
e[[0, 9]] = 1
e[[0, 1]] = torch.ones(3, dtype=torch.float64)
e[[0, 1]] = torch.ones(5)
""")
snip("index_bool_scalars_with_masks", """
x = torch.arange(20.).reshape(5, 4) - 7
m = x > 0
print(x[m, True], x[True, m], x[m, True, True], x[True, m, True])
print(x[m, None], x[None, m], x[m, None, True], x[m, True, None], x[m, ...], x[..., m], x[m, True, ...])
print(x[m, torch.tensor(True)], x[torch.tensor(True), m])
x[m, False]
x[False, m]
x[m, torch.tensor(False)]
x[m, 1]
x[m, True, 1:]
y = torch.arange(24.).reshape(2, 3, 4)
k = y[0] > 5
print(y[:, k, True].shape, y[:, True, k].shape, y[True, :, k].shape, y[:, k, None].shape)
print(y[[0, 1], :, True].shape, y[True, :, [0, 1]].shape, y[:, :, [1, 2], True].shape)
x[m, True] = -1
print(x)
x[True, m, True] = torch.arange(20.)[m.flatten()]
print(x)
""")
snip("setitem_dtype_conversion", """
a = torch.zeros(3, dtype=torch.int32)
a[0] = torch.tensor(2.7)
a[1:] = torch.tensor([1.5, -1.5])
print(a)
b = torch.zeros(2)
b[:] = torch.tensor([True, False])
print(b)
""")

# ---------------------------------------------------------------------------------------------
# arithmetic, broadcasting, type promotion
# ---------------------------------------------------------------------------------------------
snip("add_sub_mul_div_float", """
a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([0.5, -1.0, 4.0])
print(a + b)
print(a - b)
print(a * b)
print(a / b)
""")
snip("arith_int", """
a = torch.tensor([7, -7, 3])
b = torch.tensor([2, 2, -4])
print(a + b, (a + b).dtype)
print(a - b)
print(a * b)
print(a / b, (a / b).dtype)
""")
snip("int_true_division", """
print(torch.tensor([1, 2, 3]) / 2)
print(torch.tensor(7) / torch.tensor(2))
print(torch.tensor([1, 2], dtype=torch.int32) / torch.tensor([4, 8], dtype=torch.int32))
print(torch.tensor([1, 0]) / 0)
print(torch.tensor([-1.0, 0.0, 1.0]) / 0)
""")
snip("arith_python_scalars", """
a = torch.tensor([1, 2, 3])
print(a + 1, (a + 1).dtype)
print(a + 1.5, (a + 1.5).dtype)
print(a * True, (a * True).dtype)
print(a - 2)
print(a * 2.0)
f = torch.tensor([1.0, 2.0], dtype=torch.float64)
print(f + 1, (f * 2.5).dtype)
""")
snip("arith_reflected", """
a = torch.tensor([1.0, 2.0, 4.0])
print(1 + a)
print(10 - a)
print(3 * a)
print(1 / a)
print(2 - torch.tensor([1, 2]))
print(8 / torch.tensor([2, 4]))
print(1.5 * torch.tensor([2, 4]))
""")
snip("unary_neg", """
print(-torch.tensor([1.0, -2.0, 0.0]))
print(-torch.tensor([1, -2]))
print((-torch.tensor(3)).dtype)
""")
snip("neg_bool_error", """
-torch.tensor([True, False])
""")
snip("broadcast_shapes", """
a = torch.arange(3).view(3, 1)
b = torch.arange(4)
print(a + b)
print((a * b).shape)
c = torch.ones(2, 1, 3)
d = torch.ones(4, 1)
print((c + d).shape)
print((torch.ones(1) + torch.ones(5, 1)).shape)
print((torch.ones(0, 1) + torch.ones(3)).shape)
""")
snip("broadcast_errors", """
torch.ones(3) + torch.ones(4)
torch.ones(2, 3) + torch.ones(2, 4)
torch.ones(2, 3) * torch.ones(3, 3)
torch.ones(4, 2, 3) - torch.ones(5, 2, 3)
torch.ones(3) / torch.ones(2, 2)
""")
snip("promotion_tensor_tensor", """
i32 = torch.tensor([1, 2], dtype=torch.int32)
i64 = torch.tensor([1, 2])
f32 = torch.tensor([1.0, 2.0])
f64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
b = torch.tensor([True, False])
for x in [i32, i64, f32, f64, b]:
    print([(x + y).dtype for y in [i32, i64, f32, f64, b]])
""")
snip("promotion_0d_tensors", """
i32 = torch.tensor([1, 2], dtype=torch.int32)
f32 = torch.tensor([1.0, 2.0])
print((i32 + torch.tensor(5)).dtype)
print((i32 + torch.tensor(5.0)).dtype)
print((f32 + torch.tensor(5.0, dtype=torch.float64)).dtype)
print((torch.tensor(5) + torch.tensor(5.0, dtype=torch.float64)).dtype)
print((torch.tensor([True]) + torch.tensor(3)).dtype)
print((torch.tensor(3, dtype=torch.int32) + torch.tensor(3)).dtype)
print(i32 + torch.tensor(5.5))
""")
snip("promotion_python_scalars", """
i32 = torch.tensor([1, 2], dtype=torch.int32)
b = torch.tensor([True, False])
print((i32 + 1).dtype, (i32 + 1.0).dtype, (i32 + True).dtype)
print((b + 1).dtype, (b + 1.0).dtype, (b + True).dtype)
print(b + True)
print((torch.tensor([1.0], dtype=torch.float64) + 1.0).dtype)
print((torch.tensor(1) * 2.5).dtype)
""")
snip("bool_arith", """
a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
print(a + b)
print(a * b)
print(a + 1)
print(a / 2)
""")
snip("bool_sub_error", """
torch.tensor([True, False]) - torch.tensor([True, True])
torch.tensor([True]) - True
""")
snip("add_alpha", """
a = torch.tensor([1.0, 2.0])
b = torch.tensor([10.0, 20.0])
print(torch.add(a, b, alpha=2))
print(torch.add(a, 3))
print(a.add(b, alpha=0.5))
print(torch.add(torch.tensor([1, 2]), torch.tensor([1, 1]), alpha=3))
print(torch.sub(a, b, alpha=2))
print(torch.mul(a, b), torch.div(b, a))
""")
snip("add_alpha_errors", """
torch.add(torch.tensor([1, 2]), torch.tensor([1, 1]), alpha=0.5)
""")
snip("inplace_ops", """
a = torch.tensor([1.0, 2.0, 3.0])
r = a.add_(1)
print(r is a, a)
a.sub_(torch.tensor([0.5, 0.5, 0.5]))
print(a)
a.mul_(2)
print(a)
a.div_(4)
print(a)
a.add_(torch.tensor(1.0), alpha=2)
print(a)
""")
snip("inplace_operators", """
a = torch.tensor([1.0, 2.0])
b = a
a += 1
a -= torch.tensor([0.5, 0.5])
a *= 4
a /= 2
print(a, b is a)
i = torch.tensor([1, 2])
j = i
i += 3
i *= 2
i -= 1
print(i, i is j)
""")
snip("inplace_promotion_errors", """
a = torch.tensor([1, 2])
a += 1.5
a.add_(torch.tensor([0.5, 0.5]))
b = torch.tensor([1, 2], dtype=torch.int32)
b.mul_(2.5)
i = torch.tensor([4, 6])
i /= 2
i.div_(2)
t = torch.tensor([True])
t += 1
print(a, b, i)
""")
snip("inplace_promotion_allowed", """
a = torch.tensor([1.0, 2.0])
a += torch.tensor([1, 2])
print(a)
b = torch.tensor([1, 2], dtype=torch.int32)
b += torch.tensor([10, 20])
print(b, b.dtype)
c = torch.tensor([1.0], dtype=torch.float32)
c += torch.tensor([0.5], dtype=torch.float64)
print(c, c.dtype)
d = torch.tensor([1, 2])
d += True
print(d)
""")
snip("inplace_broadcast_errors", """
a = torch.zeros(3)
a += torch.ones(2, 3)
a.add_(torch.ones(4))
print(a)
""")
snip("inplace_on_view_updates_base", """
a = torch.zeros(2, 3)
a[0] += 5
a[:, 1] *= 2
a.t()[2].add_(1)
print(a)
""")
snip("abs_exp_log_sqrt", """
x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 4.0])
print(x.abs())
print(torch.abs(x))
print(torch.exp(torch.tensor([0.0, 1.0, -1.0, 2.0])))
print(torch.log(torch.tensor([1.0, 2.0, 10.0, 0.5])))
print(torch.sqrt(torch.tensor([0.0, 1.0, 2.0, 9.0])))
print(torch.tensor([4.0]).sqrt(), torch.tensor([1.0]).exp(), torch.tensor([1.0]).log())
""")
snip("unary_special_values", """
print(torch.log(torch.tensor([0.0, -1.0])))
print(torch.sqrt(torch.tensor([-1.0])))
print(torch.exp(torch.tensor([100.0, -200.0])))
print(torch.exp(torch.tensor([100.0], dtype=torch.float64)))
""")
snip("unary_int_inputs", """
i = torch.tensor([1, 4, 9])
print(torch.abs(torch.tensor([-3, 2])), torch.abs(torch.tensor([-3, 2])).dtype)
print(torch.sqrt(i), torch.sqrt(i).dtype)
print(torch.exp(torch.tensor([0, 1])).dtype)
print(torch.log(torch.tensor([1, 2], dtype=torch.int32)).dtype)
print(torch.sqrt(torch.tensor([True, False])))
""")
snip("abs_bool_error", """
torch.abs(torch.tensor([True, False]))
""")
snip("unary_float64", """
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
print(torch.exp(x))
print(torch.log(x))
print(torch.sqrt(x))
""")
snip("relu", """
x = torch.tensor([-1.5, 0.0, 2.0, -0.0])
print(torch.relu(x))
print(x.relu())
print(torch.relu(torch.tensor([-3, 4])))
print(torch.relu(torch.tensor([[-1, 2], [3, -4]], dtype=torch.int32)))
""")
snip("relu_bool_error", """
torch.relu(torch.tensor([True, False]))
""")
snip("comparisons", """
a = torch.tensor([1, 2, 3])
b = torch.tensor([3, 2, 1])
print(a == b)
print(a != b)
print(a < b)
print(a <= b)
print(a > b)
print(a >= b)
print((a == b).dtype)
""")
snip("comparisons_scalars_broadcast", """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(a > 2)
print(a == 2.0)
print(2 < a)
print(a <= torch.tensor([1.0, 4.0]))
print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]))
print(torch.tensor(True) == torch.tensor([True, False]))
""")
snip("comparison_broadcast_error", """
torch.ones(3) == torch.ones(4)
torch.ones(2, 3) < torch.ones(3, 2)
""")
snip("tensor_eq_non_tensor", """
a = torch.tensor([1, 2])
print(a == None)
print(a != None)
""")
snip("nan_inf_arith", """
x = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0])
print(x)
print(x + 1)
print(x * 0)
print(x == x)
print(x > 0)
""")

# ---------------------------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------------------------
snip("sum_whole", """
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(a.sum(), a.sum().dtype)
print(torch.sum(a))
print(torch.tensor([1.5, 2.5]).sum())
print(torch.tensor([True, True, False]).sum())
print(torch.tensor([1, 2], dtype=torch.int32).sum().dtype)
print(torch.tensor([1.0], dtype=torch.float64).sum().dtype)
""")
snip("sum_dim", """
a = torch.arange(24).view(2, 3, 4)
print(a.sum(0))
print(a.sum(dim=1))
print(a.sum(-1))
print(a.sum(1, keepdim=True).shape)
print(a.sum(dim=-2, keepdim=True))
print(torch.sum(a, 2).shape)
""")
snip("sum_dtype_arg", """
a = torch.tensor([1, 2, 3])
print(a.sum(dtype=torch.float32))
print(torch.tensor([1.5, 2.5]).sum(dtype=torch.float64))
""")
snip("sum_empty_and_0d", """
print(torch.tensor([]).sum())
print(torch.zeros(0, 3).sum(0))
print(torch.tensor(5).sum())
print(torch.tensor(5).sum(0))
print(torch.tensor(5).sum(-1))
""")
snip("sum_dim_errors", """
a = torch.zeros(2, 3)
a.sum(2)
a.sum(-3)
""")
snip("mean", """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(a.mean())
print(a.mean(0))
print(a.mean(dim=1, keepdim=True))
print(torch.mean(a, -1))
print(torch.tensor([1.0, 2.0], dtype=torch.float64).mean())
print(torch.tensor([]).mean())
""")
snip("mean_int_error", """
torch.tensor([1, 2]).mean()
torch.tensor([1, 2], dtype=torch.int32).mean(0)
torch.tensor([True]).mean()
""")
snip("mean_int_with_dtype", """
print(torch.tensor([1, 2]).mean(dtype=torch.float32))
""")
snip("max_min_whole", """
a = torch.tensor([[3, 7, 1], [9, 2, 5]])
print(a.max(), a.min())
print(torch.max(a), torch.min(a))
print(torch.tensor([1.5, -2.5]).max())
print(torch.tensor([True, False]).max())
print(torch.tensor(4.0).max())
""")
snip("max_min_empty_error", """
torch.tensor([]).max()
torch.tensor([]).min()
""")
snip("max_dim_namedtuple", """
a = torch.tensor([[3, 7, 1], [9, 2, 5]])
r = a.max(dim=1)
print(r)
print(r.values)
print(r.indices)
print(r[0], r[1])
v, i = torch.max(a, 0)
print(v, i)
print(type(r).__name__)
print(len(r))
""")
snip("max_dim_repr_torch_function", """
a = torch.tensor([[1.0, 5.0], [7.0, 2.0]])
print(torch.max(a, dim=1))
print(torch.min(a, dim=0))
print(torch.max(a, 1, keepdim=True))
print(torch.min(a, -1, True))
""")
snip("max_dim_ties_first_index", """
a = torch.tensor([[1, 3, 3], [2, 2, 1]])
print(a.max(1))
print(a.min(1))
print(torch.tensor([5.0, 5.0, 5.0]).max(0))
""")
snip("max_min_nan", """
a = torch.tensor([1.0, float('nan'), 3.0])
print(a.max(), a.min())
print(a.max(0))
""")
snip("max_dim_errors", """
torch.zeros(2, 3).max(2)
torch.zeros(0, 3).max(0)
""")
snip("max_binary", """
print(torch.max(torch.tensor([1, 5]), torch.tensor([3, 2])))
print(torch.min(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0])))
""")
snip("all_any", """
a = torch.tensor([[True, False], [True, True]])
print(a.all(), a.any())
print(a.all(dim=1), a.any(0))
print(torch.all(a), torch.any(a))
print(torch.tensor([1, 2, 0]).all(), torch.tensor([0.0, 0.5]).any())
print(torch.tensor([]).all(), torch.tensor([]).any())
print(torch.tensor([1, 2]).all().dtype)
print(a.all(1, keepdim=True).shape)
""")
snip("argmax_argmin", """
a = torch.tensor([[3, 7, 1], [9, 2, 5]])
print(a.argmax(), torch.argmax(a))
print(a.argmax(dim=1), a.argmax(0))
print(a.argmax(1, keepdim=True))
print(torch.tensor([1.0, 3.0, 3.0]).argmax())
print(a.argmin(), a.argmin(1))
print(torch.tensor(5.0).argmax())
""")
snip("argmax_errors", """
torch.tensor([]).argmax()
torch.zeros(2, 3).argmax(2)
""")
snip("reduce_on_views", """
a = torch.arange(12).view(3, 4).t()
print(a.sum(0), a.sum(1))
print(a[:, ::2].max(0))
print(a.float().mean(1))
""")
snip("float_sum_mean_random", """
torch.manual_seed(0)
x = torch.randn(4, 5)
print(x.sum(), x.mean())
print(x.sum(0))
print(x.mean(1))
print(x.max(), x.argmax())
""")

# ---------------------------------------------------------------------------------------------
# Tensor dtype shortcuts (float(), int(), ...), used by many tutorials
# ---------------------------------------------------------------------------------------------
snip("dtype_shortcut_methods", """
a = torch.tensor([1.7, -2.2, 0.0])
print(a.int(), a.long(), a.bool())
print(a.double())
print(torch.tensor([1, 2]).float())
print(a.float() is a)
""")

# ---------------------------------------------------------------------------------------------
# matmul
# ---------------------------------------------------------------------------------------------
snip("matmul_1d_1d", """
a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])
print(torch.matmul(a, b))
print(a @ b)
print((a @ b).shape)
""")
snip("matmul_1d_2d", """
a = torch.tensor([1.0, 2.0])
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(a @ m)
print(torch.matmul(a, m).shape)
""")
snip("matmul_2d_1d", """
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
v = torch.tensor([1.0, 0.0, -1.0])
print(m @ v)
print(m.matmul(v).shape)
""")
snip("matmul_2d_2d", """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
print(torch.matmul(a, b))
print(a @ b)
print(torch.mm(a, b))
print(a.mm(b))
print(a.matmul(b))
c = torch.arange(6.0).view(2, 3)
print(c @ c.t())
print(c.t() @ c)
""")
snip("matmul_int64", """
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5, 6], [7, 8]])
print(torch.matmul(a, b))
print((a @ b).dtype)
print(torch.tensor([1, 2, 3]) @ torch.tensor([4, 5, 6]))
print(a @ torch.tensor([1, -1]))
print(torch.mm(a, b))
""")
snip("matmul_int32", """
a = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
r = a @ a
print(r, r.dtype)
print(torch.tensor([1, 2], dtype=torch.int32) @ a)
""")
snip("matmul_float64", """
a = torch.tensor([[1.5, 2.0], [3.0, 4.25]], dtype=torch.float64)
print(a @ a)
print(torch.tensor([0.1, 0.2], dtype=torch.float64) @ torch.tensor([0.3, 0.4], dtype=torch.float64))
""")
snip("matmul_bool", """
a = torch.tensor([[True, False], [True, True]])
print(a @ a)
""")
snip("matmul_batched_3d", """
a = torch.arange(12.0).view(2, 2, 3)
b = torch.arange(12.0).view(2, 3, 2)
r = a @ b
print(r)
print(r.shape)
print(torch.matmul(a, b).stride())
""")
snip("matmul_broadcast_batch", """
a = torch.ones(2, 1, 3, 4)
b = torch.arange(40.0).view(5, 4, 2)
r = a @ b
print(r.shape)
print(r[1, 4])
print(r[0, 0])
""")
snip("matmul_3d_1d_and_1d_3d", """
a = torch.arange(12.0).view(2, 2, 3)
v = torch.tensor([1.0, 0.0, 2.0])
print(a @ v)
print((a @ v).shape)
w = torch.tensor([1.0, -1.0])
print(w @ a)
print((w @ a).shape)
""")
snip("matmul_3d_2d_and_2d_3d", """
a = torch.arange(12.0).view(2, 2, 3)
m = torch.ones(3, 4)
print((a @ m).shape)
print(a @ m)
n = torch.arange(4.0).view(2, 2)
print((n @ a).shape)
print(n @ a)
""")
snip("matmul_int_batched", """
a = torch.arange(8).view(2, 2, 2)
print(a @ a)
print((a @ a).dtype)
""")
snip("matmul_with_transposed_inputs", """
a = torch.arange(6.0).view(3, 2).t()
b = torch.arange(6.0).view(2, 3).t()
print(a.is_contiguous(), b.is_contiguous())
print(a @ b)
print(b @ a)
""")
snip("matmul_results_contiguous", """
a = torch.ones(2, 3)
b = torch.ones(3, 4)
r = a @ b
print(r.stride(), r.is_contiguous(), r.dtype)
print((torch.ones(3) @ b).stride())
""")
snip("matmul_empty_dims", """
print(torch.ones(2, 0) @ torch.ones(0, 3))
print((torch.ones(0, 2) @ torch.ones(2, 3)).shape)
print(torch.ones(0) @ torch.ones(0))
""")
snip("matmul_random_float32", """
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.randn(4, 2)
print(a @ b)
""")
snip("matmul_error_2d_2d", """
torch.ones(2, 3) @ torch.ones(2, 2)
torch.matmul(torch.ones(4, 5), torch.ones(4, 5))
torch.mm(torch.ones(2, 3), torch.ones(2, 2))
torch.ones(2, 3).mm(torch.ones(4, 3))
""")
snip("matmul_error_1d_2d", """
torch.ones(3) @ torch.ones(2, 2)
""")
snip("matmul_error_2d_1d", """
torch.ones(2, 3) @ torch.ones(2)
torch.ones(4, 3) @ torch.ones(5)
""")
snip("matmul_error_1d_1d", """
torch.ones(3) @ torch.ones(2)
""")
snip("matmul_error_0d", """
torch.tensor(1.0) @ torch.ones(2, 2)
torch.ones(2, 2) @ torch.tensor(1.0)
torch.tensor(1.0) @ torch.tensor(2.0)
torch.matmul(torch.ones(3), torch.tensor(2.0))
""")
snip("matmul_error_batched", """
torch.ones(2, 3, 4) @ torch.ones(2, 5, 4)
torch.ones(2, 3, 4) @ torch.ones(3, 4, 5)
""")
snip("matmul_error_3d_1d", """
torch.ones(2, 4, 5) @ torch.ones(3)
torch.ones(3) @ torch.ones(2, 4, 5)
""")
snip("matmul_error_3d_2d", """
torch.ones(2, 3, 4) @ torch.ones(5, 6)
torch.ones(5, 6) @ torch.ones(2, 3, 4)
""")
snip("matmul_error_mixed_dtype", """
torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64)
torch.ones(2, 2, dtype=torch.int64) @ torch.ones(2, 2)
torch.ones(2, 2, dtype=torch.int32) @ torch.ones(2, 2, dtype=torch.int64)
""")
snip("matmul_error_mixed_dtype_1d", """
torch.ones(3) @ torch.ones(3, dtype=torch.float64)
torch.ones(2, 3) @ torch.ones(3, dtype=torch.int64)
torch.ones(3, dtype=torch.int64) @ torch.ones(3, 2)
""")
snip("matmul_error_mixed_dtype_batched", """
torch.ones(2, 2, 2) @ torch.ones(2, 2, 2, dtype=torch.float64)
""")
snip("mm_error_non_2d", """
torch.mm(torch.ones(3), torch.ones(3, 3))
torch.mm(torch.ones(3, 3), torch.ones(3))
torch.mm(torch.ones(2, 3, 3), torch.ones(3, 3))
torch.ones(3).mm(torch.ones(3, 3))
""")
snip("mm_error_mixed_dtype", """
torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64))
""")
snip("matmul_python_operand_error", """
torch.ones(2, 2) @ 2
torch.matmul(torch.ones(2), [1.0, 2.0])
""")
snip("matmul_rmatmul_list", """
[[1.0, 2.0]] @ torch.ones(2, 2)
""")

# ---------------------------------------------------------------------------------------------
# .to(), .cpu(), type conversions
# ---------------------------------------------------------------------------------------------
snip("to_dtype", """
x = torch.tensor([1.5, -2.5, 3.0])
print(x.to(torch.int64))
print(x.to(torch.int32))
print(x.to(torch.float64))
print(x.to(torch.bool))
print(x.to(dtype=torch.int64))
print(torch.tensor([1, 2]).to(torch.float32))
""")
snip("to_alias_rules", """
x = torch.tensor([1.0, 2.0])
print(x.to(torch.float32) is x)
print(x.to('cpu') is x)
print(x.to(torch.device('cpu')) is x)
print(x.to(x) is x)
print(x.cpu() is x)
print(x.to() is x)
print(x.to('cpu', torch.float32) is x)
print(x.to(device='cpu') is x)
print(x.to(dtype=torch.float32) is x)
""")
snip("to_copy_true", """
x = torch.tensor([1.0, 2.0])
y = x.to(torch.float32, copy=True)
print(y is x, y.data_ptr() == x.data_ptr())
y[0] = 10
print(x, y)
z = x.to('cpu', copy=True)
print(z is x)
w = x.to(x, copy=True)
print(w is x)
""")
snip("to_device_and_dtype", """
x = torch.tensor([1, 2])
y = x.to('cpu', torch.float64)
print(y, y.device)
z = x.to(torch.device('cpu'), dtype=torch.float32)
print(z)
w = x.to(device='cpu', dtype=torch.int32)
print(w)
print(x.to('cpu', non_blocking=True) is x)
print(x.to(torch.float32, non_blocking=True))
""")
snip("to_tensor_argument", """
x = torch.tensor([1, 2])
other = torch.tensor([0.5], dtype=torch.float64)
y = x.to(other)
print(y, y.dtype)
print(x.to(torch.tensor([1])) is x)
""")
snip("to_preserves_strides", """
x = torch.arange(6).view(2, 3).t()
y = x.to(torch.float32)
print(y, y.stride(), y.is_contiguous())
""")
snip("to_errors", """
x = torch.tensor([1.0])
x.to('gpu')
x.to('cuda:x')
x.to('float32')
""")
snip("cpu_method", """
x = torch.tensor([[1, 2], [3, 4]])
y = x.cpu()
print(y is x, y.device, y.is_cuda)
""")
snip("float_int_long_double_bool_methods", """
x = torch.tensor([0, 1, 2])
print(x.float().dtype, x.double().dtype, x.int().dtype, x.long().dtype, x.bool().dtype)
print(x.long() is x)
print(x.bool())
""")
snip("type_conversion_views_independent", """
x = torch.tensor([1, 2, 3])
y = x.to(torch.float32)
y[0] = 100
print(x, y)
""")

# ---------------------------------------------------------------------------------------------
# printing
# ---------------------------------------------------------------------------------------------
snip("print_int_tensors", """
print(torch.tensor([1, 2, 3]))
print(torch.tensor([[1, 10], [3, 4]]))
print(torch.tensor([-1, 100, 5]))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32))
print(torch.tensor(5, dtype=torch.int32))
""")
snip("print_float_int_mode", """
print(torch.tensor([1.0, 2.0]))
print(torch.tensor([1.0, -20.0, 300.0]))
print(torch.tensor([0.0, 0.0]))
print(torch.tensor([-0.0, 1.0]))
print(torch.tensor([1000.0, 1.0]))
print(torch.tensor([1001.0, 1.0]))
print(torch.tensor([1e8, 1.0]))
print(torch.tensor([123456789.0]))
print(torch.tensor(3.0))
""")
snip("print_float_fixed", """
print(torch.tensor([1.5, 2.25]))
print(torch.tensor([0.1, 0.2, 0.3]))
print(torch.tensor(3.14159))
print(torch.tensor([-1.5, 10.125, 100.0625]))
print(torch.tensor([0.0001, 1.0]))
print(torch.tensor([0.12345678]))
print(torch.tensor([999.5, 1.5]))
""")
snip("print_float_scientific", """
print(torch.tensor([1e-5]))
print(torch.tensor([1e-4, 1e3]))
print(torch.tensor([0.00001, 1.0, 1000.0]))
print(torch.tensor([1.5e10, 2.0]))
print(torch.tensor([1e-10, -1e10]))
print(torch.tensor([1.0, 1e-5, 0.0]))
print(torch.tensor([1e20, 1.0]))
print(torch.tensor([12345.5, 0.5]))
""")
snip("print_nan_inf", """
print(torch.tensor([float('nan')]))
print(torch.tensor(float('nan')))
print(torch.tensor([1.5, float('nan')]))
print(torch.tensor([float('inf'), -float('inf'), 1.0]))
print(torch.tensor([float('inf'), 2.5]))
print(torch.tensor([float('nan'), 1e-6]))
print(torch.tensor([float('inf'), 0.0]))
print(torch.tensor([float('nan'), 1000.0, 1.0]))
""")
snip("print_bool", """
print(torch.tensor([True, False]))
print(torch.tensor([[True], [False]]))
print(torch.tensor(True))
print(torch.tensor([False]))
""")
snip("print_alignment_negative", """
print(torch.tensor([[-1.5, 2.0], [3.0, -4.25]]))
print(torch.tensor([[1, -222], [33, 4]]))
print(torch.tensor([[0.5], [-10.0]]))
""")
snip("print_float64", """
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([0.1, 0.2], dtype=torch.float64))
print(torch.tensor(1.0, dtype=torch.float64))
print(torch.tensor([[1e-8, 1.0]], dtype=torch.float64))
print(torch.tensor([0.1], dtype=torch.float64) + torch.tensor([0.2], dtype=torch.float64))
""")
snip("print_float32_rounding", """
print(torch.tensor([0.1]) + torch.tensor([0.2]))
print(torch.tensor([2.00005, 1.0]))
print(torch.tensor([1.23455, 1.23465]))
print(torch.tensor([0.99999]))
print(torch.tensor([9.99996]))
""")
snip("print_wrapping_int", """
print(torch.arange(30))
print(torch.arange(100))
print(torch.arange(1000))
""")
snip("print_wrapping_float", """
print(torch.arange(30.0))
print(torch.arange(0, 3, 0.1))
print(torch.arange(20.0) * 1e5)
""")
snip("print_wrapping_with_suffix", """
print(torch.arange(30, dtype=torch.int32))
print(torch.arange(20, dtype=torch.float64) / 3)
print(torch.arange(17, dtype=torch.int32))
print(torch.arange(18, dtype=torch.int32))
print(torch.arange(19, dtype=torch.int32))
""")
snip("print_summarized_1d", """
print(torch.arange(2000))
print(torch.arange(1001))
print(torch.arange(1000.0))
print(torch.arange(2000.0) / 7)
print(torch.arange(2000, dtype=torch.int32))
""")
snip("print_summarized_2d", """
print(torch.arange(2500).view(50, 50))
print(torch.arange(2500.0).view(50, 50) / 3)
print(torch.arange(3000).view(3, 1000))
print(torch.arange(3000).view(1000, 3))
""")
snip("print_summarized_3d", """
print(torch.arange(2000).view(10, 10, 20))
""")
snip("print_summarized_random", """
torch.manual_seed(0)
print(torch.randn(1000, 1000))
""")
snip("print_3d_blank_lines", """
print(torch.arange(12).view(2, 2, 3))
print(torch.arange(24.0).view(2, 3, 4))
print(torch.arange(16).view(2, 2, 2, 2))
""")
snip("print_empty_shapes", """
print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.zeros(3, 0))
print(torch.zeros(0, dtype=torch.int64))
print(torch.zeros(0, 2, dtype=torch.int32))
print(torch.zeros(0, dtype=torch.float64))
print(torch.zeros(0, dtype=torch.bool))
print(torch.zeros(2, 0, 3))
""")
snip("print_0d", """
print(torch.tensor(5))
print(torch.tensor(-2.5))
print(torch.tensor(1e-7))
print(torch.tensor(2.0, dtype=torch.float64))
print(torch.tensor(7, dtype=torch.int32))
print(torch.tensor(False))
""")
snip("addmm_values_and_scalars", """
b = torch.tensor([1.0, -2.0, 0.5])
m1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
m2 = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 1.5]])
print(torch.addmm(b, m1, m2))
print(torch.addmm(b, m1, m2, beta=2, alpha=0.5))
print(b.addmm(m1, m2, beta=0))
print(torch.addmm(torch.zeros(2, 1), m1, m2))
print(torch.addmm(b.long(), m1.long(), m2.long(), alpha=0.5))
""")
snip("addmm_errors", """
b = torch.zeros(3); m1 = torch.ones(2, 4); m2 = torch.ones(4, 3)
torch.addmm(b, m1.long(), m2)
torch.addmm(b.double(), m1, m2)
torch.addmm(b, m1, m2.long())
torch.addmm(torch.zeros(4), m1, m2)
torch.addmm(b, m1[0], m2)
torch.addmm(b, m1, m2[0])
torch.addmm(b, m1, torch.ones(5, 3))
torch.addmm(b.bool(), m1.bool(), m2.bool())
torch.addmm(b.double(), m1, torch.ones(5, 3))
torch.addmm(torch.zeros(5, dtype=torch.float64), m1, m2)
torch.addmm(b, m1.long(), m2[0])
torch.addmm(b.double(), m1.double(), m2[0])
""")
snip("repr_equals_str", """
x = torch.tensor([[1.5, 2.0]])
print(repr(x) == str(x))
print(repr(x))
print([torch.tensor(1), torch.tensor([2.0])])
print(f'{torch.tensor(3)}')
""")
snip("print_large_values", """
print(torch.tensor([2**40]))
print(torch.tensor([1e38, -1e38]))
print(torch.tensor([3.4e38]))
print(torch.tensor([1e300], dtype=torch.float64))
""")
snip("print_small_values", """
print(torch.tensor([1e-30, 1e-40]))
print(torch.tensor([5e-324], dtype=torch.float64))
print(torch.tensor([1e-3, 2e-3]))
""")
snip("print_views", """
a = torch.arange(12).view(3, 4)
print(a.t())
print(a[:, 1:3])
print(a[::2, ::3])
print(a.float().t() / 4)
""")
snip("print_mixed_width_columns", """
print(torch.tensor([[1.0, 123.5], [-0.25, 7.0]]))
print(torch.tensor([[1e-5, 1.0], [1.0, 100.0]]))
print(torch.tensor([[100, 2], [3, -4000]]))
""")
snip("print_line_width_edges", """
print(torch.arange(10000, 10025))
print(torch.tensor([123456.5] * 8))
print(torch.full((12,), 1.5e-5))
""")

# ---------------------------------------------------------------------------------------------
# the CPU code blocks of the seed tutorial
# ---------------------------------------------------------------------------------------------
snip("tutorial_is_available", """
import torch

print(torch.cuda.is_available())  # True면 GPU 사용 가능
""", cuda_dependent=True)
snip("tutorial_tensor_is_cuda", """
import torch

data = [
    [1, 2],
    [3, 4]
]

x = torch.tensor(data)
print("초기 상태:", x.is_cuda)  # False
""")
snip("tutorial_matmul_cpu", """
import torch

b = torch.tensor([
    [5, 6],
    [7, 8]
])
a = torch.tensor([
    [1, 1],
    [2, 2]
])
print(torch.matmul(a.cpu(), b))
""")
snip("tutorial_device_pick", """
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.tensor([[1, 2], [3, 4]], device=device)
print(x.device)  # cuda:0 또는 cpu
""", cuda_dependent=True)
snip("tutorial_randn_cpu", """
import torch

x = torch.randn(1000, 1000)
y = x.cpu()
print(y is x, y.shape, y.dtype, y.device)
""")
snip("tutorial_full_cpu_flow", """
import torch

data = [[1, 2], [3, 4]]
x = torch.tensor(data)
print("초기 상태:", x.is_cuda)
x = x.cpu()
x = x.to('cpu')
print("다시 CPU 이동 후:", x.is_cuda)
print(x)
print(x.device)
""")
# Extra groups below probe combinations that are easy to get subtly wrong.
# ---------------------------------------------------------------------------------------------
# more construction / factories edge cases
# ---------------------------------------------------------------------------------------------
snip("tensor_nested_tuple_list_mix_deep", """
x = torch.tensor([[(1, 2), (3, 4)], [[5, 6], (7, 8)]])
print(x.shape)
print(x)
""")
snip("tensor_float_specials", """
print(torch.tensor([float('inf')]).dtype)
print(torch.tensor(float('-inf')))
print(torch.tensor([1, float('nan')]))
""")
snip("tensor_from_range", """
print(torch.tensor(range(5)))
print(torch.tensor(list(range(3))))
""")
snip("tensor_bool_int_promotion_values", """
print(torch.tensor([True, 3, False]))
print(torch.tensor([False, 0.5]))
""")
snip("tensor_float64_precision_inference", """
x = torch.tensor([0.1, 1e-50, 1e50])
print(x)
y = torch.tensor([0.1, 1e-50, 1e50], dtype=torch.float64)
print(y)
""")
snip("tensor_requires_grad_flag_default", """
x = torch.tensor([1.0])
print(x.requires_grad)
""")
snip("ones_like_preserves_dtype", """
for d in [torch.float32, torch.float64, torch.int32, torch.int64, torch.bool]:
    x = torch.zeros(2, dtype=d)
    print(torch.ones_like(x), torch.zeros_like(x).dtype)
""")
snip("full_negative_and_float64_fill", """
print(torch.full((2, 3), -2.5))
print(torch.full((1,), 1e-6))
print(torch.full((), 4))
""")
snip("arange_float_accumulation", """
print(torch.arange(0, 2, 0.3))
print(torch.arange(-1, 1, 0.4))
print(torch.arange(1.5, 4))
print(torch.arange(0.5, 3, 1, dtype=torch.int64))
""")
snip("eye_float64_and_bool", """
print(torch.eye(2, dtype=torch.float64))
print(torch.eye(3, dtype=torch.bool))
""")
snip("randn_then_ops", """
torch.manual_seed(7)
a = torch.randn(2, 3)
b = torch.randn(2, 3)
print(a + b)
print(a * 2 - b)
print(torch.relu(a))
print(a.abs().sqrt())
""")
snip("rand_then_randn_then_randint", """
torch.manual_seed(5)
print(torch.rand(2))
print(torch.randn(2))
print(torch.randint(0, 5, (3,)))
print(torch.rand(2, dtype=torch.float64))
""")
snip("randn_big_then_small", """
torch.manual_seed(0)
a = torch.randn(16)
b = torch.randn(3)
print(a)
print(b)
""")
snip("randint_high_only_kw", """
torch.manual_seed(0)
print(torch.randint(high=4, size=(3,)))
print(torch.randint(low=2, high=4, size=(3,)))
""")

# ---------------------------------------------------------------------------------------------
# more view / index interactions
# ---------------------------------------------------------------------------------------------
snip("view_then_transpose_then_contiguous", """
a = torch.arange(6)
b = a.view(2, 3).t().contiguous().view(6)
print(b)
a[0] = 99
print(b[0])
""")
snip("reshape_view_chain_shares_storage", """
a = torch.zeros(4)
b = a.reshape(2, 2)
b[1, 1] = 3
print(a)
c = a.view(2, 2).t().reshape(4)
c[0] = 7
print(a)
""")
snip("squeeze_unsqueeze_roundtrip", """
a = torch.arange(3)
b = a.unsqueeze(0).unsqueeze(2)
print(b.shape, b.stride())
print(b.squeeze().shape)
b[0, 1, 0] = 50
print(a)
""")
snip("transpose_slice_setitem", """
a = torch.zeros(2, 4)
a.t()[1:3] = 1
print(a)
""")
snip("index_chain_strides", """
a = torch.arange(60).view(3, 4, 5)
b = a[1:, ::2, 1::2]
print(b)
print(b.shape, b.stride(), b.storage_offset())
print(b.transpose(0, 2).stride())
""")
snip("index_negative_slices", """
a = torch.arange(10)
print(a[-5:-1])
print(a[-1:-5])
print(a[-2:])
print(a[:-1:4])
""")
snip("setitem_full_slice_from_list", """
a = torch.zeros(3)
a[:] = torch.tensor([1, 2, 3])
print(a)
""")
snip("setitem_0d", """
a = torch.tensor(1.0)
a[()] = 5
print(a)
a[...] = 6
print(a)
""")

# ---------------------------------------------------------------------------------------------
# more ops
# ---------------------------------------------------------------------------------------------
snip("ops_0d_with_1d", """
a = torch.tensor(2.0)
b = torch.tensor([1.0, 2.0, 3.0])
print(a * b, (a * b).shape)
print(b - a)
print(a + a, (a + a).shape)
""")
snip("ops_on_noncontiguous", """
a = torch.arange(6.0).view(2, 3).t()
print(a + 1)
print(a * a)
print((a + 1).stride())
print(a.exp().stride())
""")
snip("ops_result_strides_broadcast", """
a = torch.ones(3, 1)
b = torch.ones(1, 4)
print((a + b).stride())
print((torch.ones(2, 3).t() + torch.ones(3, 2)).stride())
print((torch.ones(2, 3).t() + torch.ones(2, 3).t()).stride())
""")
snip("division_int_by_zero_tensor", """
print(torch.tensor([1, 2]) / torch.tensor([0, 0]))
print(torch.tensor([0]) / torch.tensor([0]))
""")
snip("float64_arith_repr", """
a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
print(a / 3)
print(a * 1e-5)
""")
snip("int32_overflow_wraps", """
a = torch.tensor([2**31 - 1], dtype=torch.int32)
print(a + 1)
b = torch.tensor([2**62])
print(b * 4)
""")
snip("sum_int32_gives_int64", """
a = torch.tensor([2**31 - 1, 2**31 - 1], dtype=torch.int32)
print(a.sum(), a.sum().dtype)
print(a.sum(0).dtype)
print(torch.tensor([[True, False], [True, True]]).sum(0))
""")
snip("max_int32_dtype", """
a = torch.tensor([[1, 5], [7, 2]], dtype=torch.int32)
print(a.max(), a.max(1))
""")
snip("argmax_on_transposed", """
a = torch.tensor([[1, 9], [8, 2], [3, 4]]).t()
print(a.argmax(), a.argmax(0), a.argmax(1))
""")
snip("relu_float64_and_inplace_absent", """
x = torch.tensor([-1.0, 1.0], dtype=torch.float64)
print(torch.relu(x), x.relu().dtype)
print(x)
""")
snip("comparisons_int_float_mix", """
print(torch.tensor([1, 2, 3]) < 2.5)
print(torch.tensor([1.5]) >= torch.tensor([1]))
print(torch.tensor([1, 2], dtype=torch.int32) == torch.tensor([1, 3]))
""")
snip("comparison_bool_tensors", """
a = torch.tensor([True, False])
print(a == True)
print(a > False)
""")
snip("all_any_dims_and_negative", """
a = torch.tensor([[[1, 0], [1, 1]], [[1, 1], [1, 1]]])
print(a.all(-1))
print(a.any(-3))
print(a.all(0).dtype)
""")
snip("chained_ops_tutorial_style", """
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[0.5, 0.5], [0.5, 0.5]])
z = (x @ y + 1) * 2
print(z)
print(z.sum(), z.mean(), z.max())
print(z.t().contiguous().view(-1))
""")

snip("tensor_type_names_and_conversions", """
x = torch.ones(2)
print(x.type(), x.int().type(), torch.ones(2, dtype=torch.bool).type(), x.double().type(), x.long().type())
print(x.type(torch.float64), x.type('torch.LongTensor'), x.type(dtype='torch.BoolTensor'))
print(x.type(torch.float32) is x, x.type('torch.FloatTensor') is x, x.type(None))
x.type('foo')
x.type('torch.FloatTensor ')
x.type(1)
x.type(torch.float64, 1)
x.type(non_blocking=1)
x.type(torch.float64, False, 3)
x.type(torch.float64, foo=1)
x.type(torch.float64, memory_format=1)
""")
snip("grad_mode_switches", """
import threading
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    seen = []
    worker = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
    worker.start()
    worker.join()
    print("a new thread starts with grad mode on:", seen)
    with torch.enable_grad():
        print(torch.is_grad_enabled())
print(torch.set_grad_enabled(False), torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(1)
torch.set_grad_enabled(None)
with torch.inference_mode():
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode(False):
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
@torch.no_grad
def f():
    return torch.is_grad_enabled()
@torch.enable_grad()
def g():
    return torch.is_grad_enabled()
@torch.inference_mode()
def h():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()
@torch.set_grad_enabled(False)
def k():
    return torch.is_grad_enabled()
print(f(), g(), h(), k(), torch.is_grad_enabled())
def steps():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()
gen = torch.no_grad()(steps)()
print(next(gen), torch.is_grad_enabled(), next(gen))
print(list(torch.autograd.grad_mode.no_grad()(steps)()))
""")
snip("no_grad_decorator", """
@torch.no_grad()
def double(x):
    return x * 2
print(double(torch.ones(2)))
""")
snip("T_on_1d_and_3d", """
print(torch.zeros(3).T.shape)
print(torch.zeros(2, 3, 4).T.shape)
print(torch.zeros(2, 3, 4).T.stride())
print(torch.tensor(2.0).T)
""")
snip("setitem_with_0d_index_tensor", """
x = torch.arange(5)
x[torch.tensor(2)] = 7
print(x)
print(x[torch.tensor(-1)])
""")
snip("scalar_conversion_methods", """
print(torch.tensor(3.5).int(), torch.tensor(-3.5).long())
print(torch.tensor(1, dtype=torch.int32).item(), torch.tensor(2.5, dtype=torch.float64).item())
print(torch.tensor([[7]], dtype=torch.int32).tolist())
""")
snip("view_from_size_one_dims", """
a = torch.tensor([[1, 2]])
print(a.view(2).stride(), a.view(2, 1).stride(), a.view(1, 1, 2).stride())
print(a.t().stride(), a.t().view(2).stride())
""")
snip("matmul_vector_results_dtype", """
print((torch.tensor([1, 2], dtype=torch.int32) @ torch.tensor([3, 4], dtype=torch.int32)).dtype)
print(torch.tensor([1.0, 2.0], dtype=torch.float64) @ torch.tensor([[1.0], [2.0]], dtype=torch.float64))
""")
snip("matmul_tensor_methods_and_function_forms", """
a = torch.arange(4.0).view(2, 2)
print(torch.matmul(a, a).equal(a @ a) if hasattr(a, 'equal') else bool((torch.matmul(a, a) == a @ a).all()))
print(a.matmul(a))
print(a.mm(a.t()))
print(a.__matmul__(a))
""")
snip("transpose_int_list_roundtrip", """
a = torch.arange(6).view(2, 3)
print(a.t().t().stride(), a.t().t().is_contiguous())
print(a.transpose(0, 1).transpose(0, 1).tolist())
""")
snip("ops_with_int32_and_python_float", """
a = torch.tensor([1, 2], dtype=torch.int32)
print(a * 1.5)
print(a / a)
print(a - 1, a + a)
""")
snip("sum_mean_of_noncontiguous_float", """
a = torch.arange(12.0).view(3, 4).t()
print(a.sum(), a.mean(), a.sum(0), a.mean(1))
""")

# ---------------------------------------------------------------------------------------------
# the test
# ---------------------------------------------------------------------------------------------
_ids = [name for name, _, _, _ in SNIPPETS]
assert len(_ids) == len(set(_ids)), "duplicate snippet ids"


def _cuda_available(module):
    cuda = getattr(module, "cuda", None)
    return bool(cuda is not None and cuda.is_available())


def _cuda_availability_differs():
    torch = import_torch()
    if torch is None:
        return False  # compare() skips anyway
    return _cuda_available(torch) != _cuda_available(import_minitorch())


@pytest.mark.parametrize(
    "code,cuda_dependent,build_dependent",
    [pytest.param(code, dep, build, id=name) for name, code, dep, build in SNIPPETS],
)
def test_parity_cpu(code, cuda_dependent, build_dependent):
    if cuda_dependent and _cuda_availability_differs():
        pytest.skip("output depends on CUDA availability, which differs between torch and minitorch")
    if build_dependent and not same_build_as_torch():
        pytest.skip("output depends on whether CUDA is built in, and torch and minitorch are different builds")
    compare(code)


if __name__ == "__main__":  # pragma: no cover - manual helper
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    modules = []
    t = import_torch()
    if t is not None:
        modules.append(("torch", t))
    try:
        modules.append(("minitorch", import_minitorch()))
    except Exception as e:  # noqa: BLE001
        print("(minitorch not importable: %s: %s)" % (type(e).__name__, e))
    for name, code, dep, _ in SNIPPETS:
        if pattern not in name:
            continue
        print("=" * 30, name, "(cuda dependent)" if dep else "")
        print(code, end="")
        outs = []
        for mname, mod in modules:
            out = run_snippet(mod, code)
            outs.append(out.replace("minitorch", "torch"))
            print("-" * 10, mname)
            print(out, end="")
        if len(outs) == 2:
            print("-" * 10, "SAME" if outs[0] == outs[1] else "DIFFERENT")
