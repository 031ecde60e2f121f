"""out= and Tensor.resize_/resize_as_: torch's out= protocol on every op that has it in minitorch.

An op given out= computes what its functional form computes, then writes it into out by the rule of its
kind: TensorIterator ops cast the result into out's dtype ("result type Float can't be cast to the desired
output type Long"), structured kernels want the same dtype, the reductions and scans with dtype= take out's
dtype as theirs, the factories take out's dtype and device, several ops word the refusal their own way.
Then at::native::resize_output (its warning when out had elements), a copy through out's strides, and out
itself is returned. Snippets run under torch and minitorch and must print the same; warnings are printed
by the snippets themselves (the harness hides them otherwise).
"""

import os
import sys
import warnings

import pytest

import minitorch as mt

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402

WARN = """
import warnings
def show(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
            print(r.dtype, tuple(r.shape), r.stride(), r.tolist())
        except Exception as e:
            print("!!", type(e).__name__, e)
    for x in w:
        print("warn:", x.category.__name__, str(x.message).split(" (Triggered internally")[0])
"""


def test_elementwise_out_casts_like_tensoriterator():
    compare(WARN + """
a = torch.tensor([1.5, -2.0, 3.25]); i = torch.tensor([1, -2, 3]); b = torch.tensor([True, False, True])
E = lambda d: torch.empty(0, dtype=d)
for d in [torch.bool, torch.int32, torch.int64, torch.float32, torch.float64]:
    show(lambda: torch.add(i, i, out=E(d)))
    show(lambda: torch.add(a, 2, alpha=3, out=E(d)))
    show(lambda: torch.mul(b, b, out=E(d)))
    show(lambda: torch.div(i, 2, out=E(d)))
    show(lambda: torch.sin(i, out=E(d)))
    show(lambda: torch.exp(a, out=E(d)))
    show(lambda: torch.eq(a, 1.5, out=E(d)))
    show(lambda: torch.gt(i, 0, out=E(d)))
    show(lambda: torch.bitwise_and(i, 6, out=E(d)))
    show(lambda: torch.logical_or(a, b, out=E(d)))
    show(lambda: torch.maximum(a, a, out=E(d)))
    show(lambda: torch.pow(i, 2, out=E(d)))
    show(lambda: torch.remainder(a, 2, out=E(d)))
    show(lambda: torch.floor_divide(i, 2, out=E(d)))
    show(lambda: torch.atan2(a, a, out=E(d)))
    show(lambda: torch.addcmul(a, a, a, value=2, out=E(d)))
    show(lambda: torch.lerp(a, a * 2, 0.25, out=E(d)))
    show(lambda: torch.square(i, out=E(d)))
""")


def test_same_dtype_ops_use_torch_words():
    compare(WARN + """
a = torch.tensor([1.5, -2.0, float('nan')]); i = torch.tensor([1, -2, 3])
E = lambda d: torch.empty(0, dtype=d)
for d in [torch.int64, torch.float32, torch.float64]:
    show(lambda: torch.neg(a, out=E(d)))
    show(lambda: torch.abs(i, out=E(d)))
    show(lambda: torch.floor(a, out=E(d)))
    show(lambda: torch.round(a, decimals=1, out=E(d)))
    show(lambda: torch.sign(i, out=E(d)))
    show(lambda: torch.clamp(a, 0, 1, out=E(d)))
    show(lambda: torch.clip(i, max=0, out=E(d)))
    show(lambda: torch.clamp_min(a, 0, out=E(d)))
    show(lambda: torch.where(a > 0, a, a, out=E(d)))
    show(lambda: torch.nan_to_num(a, out=E(d)))
    show(lambda: torch.tril(a.expand(3, 3), out=E(d)))
    show(lambda: torch.gather(a, 0, i.abs() - 1, out=E(d)))
    show(lambda: torch.index_select(a, 0, i.abs() - 1, out=E(d)))
    show(lambda: torch.masked_select(a, a > 0, out=E(d)))
    show(lambda: torch.take(a, i.abs() - 1, out=E(d)))
    show(lambda: torch.softmax(a, 0, out=E(d)))
    show(lambda: torch.argmax(a, out=E(d)))
show(lambda: torch.bitwise_not(i, out=E(torch.float32)))
show(lambda: torch.all(a, out=E(torch.float32)))
show(lambda: torch.any(a, 0, out=E(torch.bool)))
""")


def test_same_dtype_check_comes_before_the_kernel_dispatch():
    # torch's TensorIterator checks out's dtype before the kernel's dtype dispatch ("not implemented for"),
    # and after autograd's refusal
    compare(WARN + """
f = torch.tensor([1.5, -2.0]); i = torch.tensor([1, 2]); b = torch.tensor([True, False])
E = lambda d: torch.empty(0, dtype=d)
for d in [torch.int64, torch.int32, torch.float32, torch.float64, torch.bool]:
    show(lambda: torch.frac(i, out=E(d)))
    show(lambda: torch.frac(b, out=E(d)))
    show(lambda: torch.bitwise_not(f, out=E(d)))
    show(lambda: torch.ceil(b, out=E(d)))
    show(lambda: torch.trunc(i, out=E(d)))
    show(lambda: torch.abs(b, out=E(d)))
    show(lambda: torch.neg(b, out=E(d)))
    show(lambda: torch.sign(b, out=E(d)))
    show(lambda: torch.logical_not(f, out=E(d)))
    show(lambda: torch.abs(f.requires_grad_(), out=E(d)))
    f.requires_grad_(False)
""")


def test_reductions_scans_and_joins():
    compare(WARN + """
a = torch.arange(6.).reshape(2, 3); i = torch.arange(6).reshape(2, 3)
E = lambda d: torch.empty(0, dtype=d)
for d in [torch.int32, torch.int64, torch.float32, torch.float64]:
    show(lambda: torch.sum(a, 0, out=E(d)))
    show(lambda: torch.sum(i, (0, 1), keepdim=True, out=E(d)))
    show(lambda: torch.sum(a, 1, dtype=torch.float32, out=E(d)))
    show(lambda: torch.prod(i, 1, out=E(d)))
    show(lambda: torch.cumsum(i, 1, out=E(d)))
    show(lambda: torch.cumprod(a, 0, dtype=torch.float64, out=E(d)))
    show(lambda: torch.mean(a, 1, out=E(d)))
    show(lambda: torch.mean(i, 1, out=E(d)))
    show(lambda: torch.var(a, 1, out=E(d)))
    show(lambda: torch.std(a, 0, keepdim=True, out=E(d)))
    show(lambda: torch.amax(a, 1, out=E(d)))
    show(lambda: torch.max(a, out=E(d)))
    show(lambda: torch.cat([a, i], out=E(d)))
    show(lambda: torch.cat([i, i], 1, out=E(d)))
    show(lambda: torch.stack([a, a], 2, out=E(d)))
    show(lambda: torch.hstack([i, a], out=E(d)))
    show(lambda: torch.vstack([i, i], out=E(d)))
""")


def test_factories_take_out_dtype_and_device():
    compare(WARN + """
E = lambda d: torch.empty(0, dtype=d)
for d in [torch.int64, torch.float32, torch.float64]:
    show(lambda: torch.zeros(2, 3, out=E(d)))
    show(lambda: torch.ones((4,), out=E(d)))
    show(lambda: torch.full((2,), 2.5, out=E(d)))
    show(lambda: torch.eye(2, 3, out=E(d)))
    show(lambda: torch.linspace(0, 5, 4, out=E(d)))
    show(lambda: torch.arange(1, 4, out=E(d)))
    show(lambda: torch.zeros(2, dtype=torch.float32, out=E(d)))
    show(lambda: torch.arange(3, dtype=torch.int64, out=E(d)))
torch.manual_seed(0)
show(lambda: torch.rand(3, out=E(torch.float64)))
show(lambda: torch.randn(2, 2, out=E(torch.float32)))
show(lambda: torch.randint(5, (4,), out=E(torch.float32)))
show(lambda: torch.randperm(5, out=E(torch.int64)))
show(lambda: torch.rand(3, out=E(torch.int64)))
show(lambda: torch.arange(5, out=torch.empty(3)))
show(lambda: torch.arange(5, out=torch.empty(5, 1)))
o = torch.empty(2, 3)
print(torch.empty(4, out=o) is o, o.shape, o.stride())
show(lambda: torch.zeros(2, out=torch.ones(3, requires_grad=True)))
""")


def test_resize_warning_strides_and_overlap():
    compare(WARN + """
a = torch.tensor([1., 2., 3.])
show(lambda: torch.add(a, 1, out=torch.empty(5)))
show(lambda: torch.add(a, 1, out=torch.empty(0)))
show(lambda: torch.add(a, 1, out=torch.empty(3, 1)))
show(lambda: torch.sum(a, 0, out=torch.empty(3)))
o = torch.zeros(6)
show(lambda: torch.mul(a, 2, out=o[::2]))
print(o.tolist())
p = torch.zeros(3, 2)
show(lambda: torch.neg(torch.ones(2, 3), out=p.t()))
print(p.tolist())
show(lambda: torch.add(a, 1, out=a))
print(a.tolist())
q = torch.arange(6.)
show(lambda: torch.add(q[:3], 1, out=q[1:4]))
q2 = torch.arange(12.)
show(lambda: torch.cat([q2[:6], q2[6:]], out=q2))
show(lambda: torch.add(a, 1, out=torch.ones(1).expand(3)))
show(lambda: torch.add(2, 3, out=5))
show(lambda: torch.mul(2.5, 2, out=1.0))
show(lambda: torch.sin(a, out=1.5))
v = torch.zeros(2)
r = torch.add(a, a, out=v)
print(r is v, v._version)
""")


def test_autograd_refusal():
    compare(WARN + """
x = torch.ones(3, requires_grad=True); a = torch.ones(3)
E = lambda: torch.empty(0)
show(lambda: torch.add(x, 1, out=E()))
show(lambda: torch.subtract(x, 1, out=E()))
show(lambda: torch.true_divide(x, 2, out=E()))
show(lambda: torch.clip(x, 0, out=E()))
show(lambda: torch.absolute(x, out=E()))
show(lambda: torch.arctan2(x, x, out=E()))
show(lambda: torch.sum(x, 0, out=E()))
show(lambda: torch.cat([x, x], out=E()))
show(lambda: torch.add(a, 1, out=x))
show(lambda: torch.eq(x, 1, out=E()))
show(lambda: torch.floor_divide(x, 1, out=E()))
with torch.no_grad():
    show(lambda: torch.add(x, 1, out=E()))
    show(lambda: torch.add(a, 1, out=x))
print(x.tolist(), x.requires_grad, x.is_leaf)
""")


def test_pairs_values_and_indices():
    """sort, topk, max/min(dim), kthvalue, median, nanmedian, mode given out=(values, indices): each op's
    own dtype messages, resize_output per tensor (kthvalue and mode through the keepdim shape), the pair
    returned as return_types.<op>_out holding out's own tensors."""
    compare(WARN + """
torch.manual_seed(0)
x = torch.randn(3, 5)
x[1, 2] = x[1, 4] = -5.0
x[2, 0] = float('nan')
r = x.nan_to_num().round()   # mode: lines without NaN (torch's answer for NaN depends on std::sort)
def pair(f, d1=torch.float32, d2=torch.int64, n=0, shape=None):
    v, i = torch.empty(n, dtype=d1), torch.empty(n, dtype=d2)
    if shape is not None:
        v, i = v.reshape(shape), i.reshape(shape)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f((v, i))
            print(type(r).__name__, r.values is v, r[1] is i, tuple(v.shape), tuple(i.shape), v.tolist(), i.tolist())
        except Exception as e:
            print("!!", type(e).__name__, e)
    for x_ in w:
        print("warn:", str(x_.message).split(" This behavior")[0])
ops = [lambda o: torch.sort(x, 1, out=o), lambda o: torch.sort(x, dim=0, descending=True, stable=True, out=o),
       lambda o: torch.topk(x, 2, out=o), lambda o: torch.topk(x, 2, 0, largest=False, out=o),
       lambda o: torch.max(x, 1, out=o), lambda o: torch.min(x, 0, keepdim=True, out=o),
       lambda o: torch.kthvalue(x, 2, 1, out=o), lambda o: torch.kthvalue(x, 3, 0, keepdim=True, out=o),
       lambda o: torch.median(x, 1, out=o), lambda o: torch.nanmedian(x, 1, out=o),
       lambda o: torch.mode(r, 1, out=o), lambda o: torch.mode(r, 0, True, out=o)]
for f in ops:
    pair(f)
    pair(f, torch.float64)
    pair(f, d2=torch.int32)
    pair(f, torch.int64, torch.float32)
    pair(f, n=4)
    pair(f, n=3, shape=(3, 1))
    pair(f, n=8, shape=(2, 2, 2))
    pair(f, n=1, shape=())
    pair(lambda o: f(list(o)))
    pair(lambda o: f(o[:1]))
    pair(lambda o: f((o[0], 1)))
v, i = torch.empty(0), torch.empty(0, dtype=torch.long)
print(torch.sort(torch.tensor([2., 1.]), out=(v, i)))
xg = x.clone().requires_grad_()
for f in [lambda o: torch.sort(xg, 1, out=o), lambda o: torch.max(xg, 1, out=o), lambda o: torch.kthvalue(xg, 1, out=o),
          lambda o: torch.median(xg, 1, out=o), lambda o: torch.mode(xg.detach().requires_grad_(), 1, out=o), lambda o: torch.topk(xg, 1, out=o)]:
    pair(f)
with torch.no_grad():
    pair(lambda o: torch.kthvalue(xg, 1, out=o))
""")


def test_ops_written_in_python():
    """The composites take out= as torch's do: the rule of the op each ends in (outer: mul's cast and its
    second warning for another dtype; cross, norm and the linalg functions: structured; nonzero and
    multinomial: their own messages; tensordot, matrix_norm and linalg.norm: a copy_ autograd records).
    Values are rounded: minitorch's linear algebra agrees with torch's to rounding, not bit for bit."""
    compare(WARN.replace("r.tolist()", "[round(v, 4) for v in r.reshape(-1).tolist()]") + """
torch.manual_seed(0)
a = torch.randn(3); b = torch.randn(3); m = torch.randn(3, 3) + 3 * torch.eye(3); i = torch.tensor([1, 0, 2])
fs = [lambda o: torch.outer(a, b, out=o), lambda o: torch.ger(a, b, out=o), lambda o: torch.outer(i, i, out=o),
      lambda o: torch.cross(a.view(1, 3), b.view(1, 3), dim=1, out=o), lambda o: torch.linalg.cross(a, b, out=o),
      lambda o: torch.nonzero(a > 0, out=o), lambda o: torch.norm(m, out=o), lambda o: torch.norm(m, dim=1, out=o),
      lambda o: torch.norm(m, p='nuc', out=o), lambda o: torch.tensordot(m, m, 1, out=o),
      lambda o: torch.inverse(m, out=o), lambda o: torch.linalg.inv(m, out=o), lambda o: torch.linalg.det(m, out=o),
      lambda o: torch.linalg.solve(m, a, out=o), lambda o: torch.linalg.matrix_norm(m, out=o),
      lambda o: torch.linalg.norm(m, out=o), lambda o: torch.linalg.svdvals(m, out=o),
      lambda o: torch.linalg.eigvalsh(m, out=o), lambda o: torch.linalg.pinv(m, out=o),
      lambda o: torch.linalg.matrix_rank(m, out=o), lambda o: torch.multinomial(a.abs(), 2, out=o)]
for f in fs:
    for d in [torch.float32, torch.float64, torch.int64, torch.bool]:
        show(lambda: f(torch.empty(2, dtype=d)))
print(torch.nonzero(a, as_tuple=True, out=torch.empty(0, dtype=torch.long)))
mg = m.clone().requires_grad_()
for f in [lambda o: torch.outer(mg[0], a, out=o), lambda o: torch.cross(mg[0], a, dim=0, out=o),
          lambda o: torch.linalg.inv(mg, out=o), lambda o: torch.linalg.det(mg, out=o),
          lambda o: torch.linalg.pinv(mg, out=o), lambda o: torch.norm(mg, out=o)]:
    show(lambda: f(torch.empty(0)))
for f in [lambda o: torch.linalg.matrix_norm(mg, out=o), lambda o: torch.linalg.norm(mg, out=o),
          lambda o: torch.tensordot(mg, mg, 1, out=o)]:
    o = torch.empty(0)
    f(o)
    print(o.requires_grad, type(o.grad_fn).__name__, o.is_leaf)
""")


def test_lerp_and_logsumexp_words():
    # lerp's tensor-weight overload is a structured kernel (torch's "Found dtype" words), its number-weight
    # one a cast; logsumexp wants a floating out whatever the input
    compare(WARN + """
a = torch.tensor([1.0, 2.0, 3.0]); w = torch.full((3,), 0.25); i = torch.tensor([1, 2, 3])
for d in [torch.int64, torch.bool, torch.float32, torch.float64]:
    show(lambda: torch.lerp(a, a * 3, w, out=torch.empty(0, dtype=d)))
    show(lambda: torch.lerp(a, a * 3, 0.25, out=torch.empty(0, dtype=d)))
    show(lambda: torch.logsumexp(a, 0, out=torch.empty(0, dtype=d)))
    show(lambda: torch.logsumexp(i, 0, out=torch.empty(0, dtype=d)))
""")


def test_matmul_family_resizes_out():
    """matmul/mm/bmm/mv/dot resize an out of another shape as torch does: resize_output's warning, with
    matmul's own steps (a vector times a matrix resizes out to [1, n] and squeezes it back; mv_out lets an
    out of one element, or of one per row, stand in as addmv's input, whose checks then name it)."""
    compare(WARN.replace("print(r.dtype, tuple(r.shape), r.stride(), r.tolist())",
                         "print(r.dtype, tuple(r.shape), r.stride(), [round(x, 4) for x in r.reshape(-1).tolist()])")
            + """
torch.manual_seed(0)
A = torch.randn(3, 4); B = torch.randn(4, 5); v = torch.randn(4); b3 = torch.randn(2, 3, 4); c3 = torch.randn(2, 4, 5)
fs = [lambda o: torch.mm(A, B, out=o), lambda o: torch.matmul(A, B, out=o), lambda o: torch.mv(A, v, out=o),
      lambda o: torch.dot(v, v, out=o), lambda o: torch.bmm(b3, c3, out=o), lambda o: torch.matmul(v, B, out=o),
      lambda o: torch.matmul(A, v, out=o), lambda o: torch.matmul(v, v, out=o), lambda o: torch.matmul(b3, B, out=o),
      lambda o: torch.matmul(b3, v, out=o), lambda o: torch.matmul(b3, c3, out=o), lambda o: torch.matmul(A, c3, out=o),
      lambda o: torch.matmul(v, c3, out=o)]
for f in fs:
    for shape in [(0,), (7,), (2, 2), (1, 5), (5,), (1,), (), (3,), (3, 1)]:
        show(lambda: f(torch.empty(shape)))
    show(lambda: f(torch.empty(0, dtype=torch.float64)))
    show(lambda: f(torch.empty(6, dtype=torch.float64)))
v2 = torch.randn(2)
for f in [lambda o: torch.dot(v, v2, out=o), lambda o: torch.dot(v, v.double(), out=o),
          lambda o: torch.dot(A, v, out=o), lambda o: torch.mm(A, v.view(1, 4), out=o)]:
    show(lambda: f(torch.empty(3)))
""")


def test_linalg_tuples():
    """The linalg functions that return several tensors take a tuple as out= (structured: each output
    checked and resized in turn, column-major where torch's are) and return torch's
    return_types.<op>_out. Values as magnitudes: the signs of eigen- and singular vectors are arbitrary."""
    compare("""
import warnings
torch.manual_seed(0)
m = torch.randn(3, 3) + 3 * torch.eye(3)
E = lambda d=torch.float32, n=0: torch.empty(n, dtype=d)
cases = [(lambda o: torch.linalg.slogdet(m, out=o), 2, None), (lambda o: torch.slogdet(m, out=o), 2, None),
         (lambda o: torch.linalg.inv_ex(m, out=o), 2, torch.int32),
         (lambda o: torch.linalg.solve_ex(m, m[0], out=o), 2, torch.int32),
         (lambda o: torch.linalg.qr(m, out=o), 2, None), (lambda o: torch.linalg.eigh(m + m.T, out=o), 2, None),
         (lambda o: torch.linalg.svd(m, out=o), 3, None), (lambda o: torch.svd(m, out=o), 3, None)]
for f, n, d2 in cases:
    for variant in range(4):
        d = [d2 if (i == 1 and d2 is not None) else torch.float32 for i in range(n)]
        o = tuple(E(d[i] if variant != 1 else torch.float32, 2 if variant == 3 else 0) if variant != 2
                  else E(torch.float64) for i in range(n))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = f(o)
                print(type(r).__name__, r._fields, [r[i] is o[i] for i in range(n)], [t.dtype for t in r],
                      [t.stride() for t in r], [[round(abs(x), 3) for x in t.reshape(-1).tolist()] for t in r])
            except Exception as e:
                print("!!", type(e).__name__, e)
        print(len(w))
    f(o[:1])
print(repr(torch.linalg.qr(m, out=(E(), E()))).split("(")[0])
mg = m.clone().requires_grad_()
torch.linalg.inv_ex(mg, out=(E(), E(torch.int32)))
torch.linalg.qr(mg, out=(E(), E()))
""")


def test_normal_draws_into_out():
    # normal_out: the samples drawn in out's own dtype after resize_output to the broadcast shape (a tensor
    # mean with a number std broadcasts with out's shape too); with a size, resize_ without a warning
    compare("""
import warnings
m = torch.zeros(3); s = torch.ones(3) * 2
fs = [lambda o: torch.normal(m, s, out=o), lambda o: torch.normal(m, 2.0, out=o),
      lambda o: torch.normal(1.0, s, out=o), lambda o: torch.normal(0., 1., (3,), out=o)]
for f in fs:
    for o in [torch.empty(0), torch.empty(3), torch.empty(2), torch.empty(3, dtype=torch.float64),
              torch.empty(0, dtype=torch.int64), torch.empty(3, 1)]:
        torch.manual_seed(0)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = f(o)
                print(r is o, r.dtype, tuple(r.shape), r.reshape(-1).tolist())
            except Exception as e:
                print("!!", type(e).__name__, e)
        print(len(w))
torch.normal(m.clone().requires_grad_(), s, out=torch.empty(0))
torch.normal(m, -1.0, out=torch.empty(0))
torch.normal(m, -s, out=torch.empty(0))
""")


def test_addmm_and_isinf_family():
    compare(WARN + """
a = torch.tensor([1., -float('inf'), float('inf')])
fs = [lambda o: torch.isneginf(a, out=o), lambda o: torch.isposinf(a, out=o),
      lambda o: torch.addmm(torch.zeros(2, 2), torch.ones(2, 3), torch.ones(3, 2), out=o),
      lambda o: torch.addmm(torch.zeros(2), torch.ones(2, 3), torch.ones(3, 2), beta=2, alpha=0.5, out=o),
      lambda o: torch.addmm(torch.zeros(2, 2, requires_grad=True), torch.ones(2, 3), torch.ones(3, 2), out=o)]
for f in fs:
    for d in [torch.bool, torch.float32, torch.float64]:
        for n in [0, 5]:
            show(lambda: f(torch.empty(n, dtype=d)))
""")


def test_warnings_point_at_the_caller():
    # ops written in Python warn from C as torch's C++ does: at the user's line, not minitorch's own files
    for f in [lambda o: mt.kthvalue(mt.ones(2, 3), 1, out=o), lambda o: mt.sort(mt.ones(2, 3), out=o)]:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f((mt.empty(1), mt.empty(1, dtype=mt.int64)))
        assert [os.path.basename(x.filename) for x in w] == ["test_out.py"] * 2, [x.filename for x in w]


def test_resize_():
    compare("""
a = torch.arange(6.)
print(a.resize_(2, 2), a.stride(), a._version)
print(a.resize_(3, 3).shape, a.stride())
print(a.resize_((2, 3)), a.resize_([3, 2]).shape)
b = torch.arange(6.).view(2, 3).t()
print(b.resize_(3, 2), b.stride())
print(b.resize_(2, 3), b.stride())
print(torch.ones(4)[::2].resize_(2).stride(), torch.ones(4)[::2].resize_(3).stride())
print(torch.ones(4).expand(2, 4).resize_(2, 4).stride())
c = torch.zeros(2, 3, 4, 5)
print(c.resize_(2, 3, 4, 5, memory_format=torch.channels_last).stride())
print(c.resize_(1, 2, 3, 4, memory_format=torch.contiguous_format).stride())
a.resize_(2, 3, memory_format=torch.channels_last)
a.resize_(-1)
a.resize_(2 ** 62)
a.resize_(2.5)
a.resize_()
print(a.resize_as_(torch.ones(1, 2)), a.resize_as_(torch.ones(2, 1)).stride())
print(torch.resize_as_(torch.zeros(2), torch.ones(1, 1)))
print(a.resize_(0), a.numel())
x = torch.ones(3, requires_grad=True)
x.resize_(2)
with torch.no_grad():
    x.resize_(2)
v = torch.ones(4)
w = v[1:]
w.resize_(2)
print(w, v)
z = torch.tensor(5.)
print(z.resize_(1), z.resize_(()), z.resize_(1, 1, 1).shape)
""")


def test_resize_grows_shared_storage():
    # views keep their storage: growing it copies the old elements to the front and every view follows
    v = mt.arange(4.)
    w = v[1:3]
    w.resize_(5)
    assert w[:3].tolist() == [1.0, 2.0, 3.0]
    w.fill_(7.0)
    assert v.tolist() == [0.0, 7.0, 7.0, 7.0]
    assert v.untyped_storage().nbytes() >= 6 * 4 if hasattr(v, "untyped_storage") else True
    np = pytest.importorskip("numpy")
    n = mt.from_numpy(np.ones(3))
    with pytest.raises(RuntimeError, match=r"^Trying to resize storage that is not resizable$"):
        n.resize_(5)
    assert n.resize_(2).tolist() == [1.0, 1.0]


def test_out_on_the_devices(device):
    a = mt.tensor([1.0, 2.0, 3.0], device=device)
    out = mt.empty(0, device=device, dtype=mt.float64)
    assert mt.add(a, a, out=out) is out and out.device == a.device and out.tolist() == [2.0, 4.0, 6.0]
    out = mt.empty(2, device=device)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert mt.sum(a.view(1, 3), 1, out=out).tolist() == [6.0]
    assert "was resized since it had shape [2]" in str(w[0].message)
    z = mt.zeros(2, 2, out=mt.empty(0, device=device))
    assert z.device == a.device and z.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    m = mt.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], device=device)
    for op, want in [(lambda o: mt.sort(m, 1, out=o), ([[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]], [[1, 2, 0], [0, 2, 1]])),
                     (lambda o: mt.max(m, 1, out=o), ([3.0, 5.0], [0, 1])),
                     (lambda o: mt.kthvalue(m, 2, 1, out=o), ([2.0, 4.0], [2, 2])),
                     (lambda o: mt.mode(m, 0, out=o), ([0.0, 1.0, 2.0], [1, 0, 0]))]:
        v, i = mt.empty(0, device=device), mt.empty(0, dtype=mt.int64, device=device)
        r = op((v, i))
        assert r.values is v and r.indices is i and v.device == m.device and (v.tolist(), i.tolist()) == want
    inv = mt.linalg.inv(mt.tensor([[2.0, 0.0], [0.0, 4.0]], device=device), out=mt.empty(0, device=device))
    assert inv.tolist() == [[0.5, 0.0], [0.0, 0.25]] and inv.stride() == (1, 2)
    if device == "cuda":
        with pytest.raises(RuntimeError, match=r"^Expected all tensors to be on the same device, but found at least "
                                               r"two devices, cuda:0 and cpu!$"):
            mt.add(a, a, out=mt.empty(3))
        with pytest.raises(RuntimeError, match=r"^Expected out tensor to have device cpu, but got cuda:0 instead$"):
            mt.softmax(a.cpu(), 0, out=mt.empty(3, device=device))
        with pytest.raises(RuntimeError, match=r"^device type cpu does not match device type of out parameter "
                                               r"\(cuda\)$"):
            mt.zeros(2, device="cpu", out=mt.empty(0, device=device))
        big = mt.empty(0, device=device)
        big.resize_(1000)
        big.fill_(1.0)
        assert big.sum().item() == 1000.0


def test_elementwise_out_written_in_place_of_the_result():
    """An element-wise op writes an out= of its result's dtype and shape directly (through out's own
    strides); an out that shares memory with an input, is not dense, or needs a cast takes the copy."""
    compare("""
a = torch.arange(12.).reshape(3, 4) / 7; b = torch.arange(4.) - 1.5
outs = lambda: [torch.empty(3, 4), torch.empty(4, 3).t(), torch.empty(3, 8)[:, ::2], torch.empty(3, 4, dtype=torch.float64),
                torch.empty(2, 2), torch.empty(0)]
ops = [lambda o: torch.add(a, b, alpha=2, out=o), lambda o: torch.mul(a, 3, out=o), lambda o: torch.exp(a, out=o),
       lambda o: torch.addcmul(a, a, b, value=2, out=o), lambda o: torch.pow(b, a, out=o),
       lambda o: torch.sub(b, a, out=o), lambda o: torch.div(a, b, rounding_mode='floor', out=o)]
import warnings
warnings.simplefilter("ignore")
for op in ops:
    for o in outs():
        r = op(o)
        print(r is o, o.dtype, tuple(o.shape), o.stride(), o.tolist())
x = a.clone(); torch.add(x, b, out=x); print(x.tolist())
x = a.clone(); torch.addcmul(x, x, b, value=2, out=x); print(x.tolist())
x = a.clone(); torch.addcmul(b, x, x, out=x); print(x.tolist())
x = a.clone().t(); torch.mul(x, x, out=x); print(x.stride(), x.tolist())
w = torch.ones(3, 4, requires_grad=True)
with torch.no_grad():
    o = torch.empty(3, 4); torch.mul(w, a, out=o); print(o.tolist(), o.requires_grad, o.grad_fn)
try:
    torch.mul(w, a, out=torch.empty(3, 4))
except RuntimeError as e:
    print("!!", e)
""")


def test_elementwise_out_allocates_nothing(device):
    a = mt.rand(1000, device=device)
    b = mt.rand(1000, device=device)
    out = mt.empty(1000, device=device)
    want = [(a + b).tolist(), a.exp().tolist(), (a * 2).tolist(), (a > b).tolist()]
    flags = mt.empty(1000, dtype=mt.bool, device=device)
    if device == "cuda":
        mt.cuda.reset_peak_memory_stats()
    base = mt.cuda.memory_allocated() if device == "cuda" else 0
    got = [mt.add(a, b, out=out).tolist(), mt.exp(a, out=out).tolist(), mt.mul(a, 2, out=out).tolist(),
           mt.gt(a, b, out=flags).tolist()]
    assert got == want
    if device == "cuda":
        assert mt.cuda.max_memory_allocated() == base
