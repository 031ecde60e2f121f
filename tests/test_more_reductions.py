"""nansum, nanmean, aminmax, cummax, cummin, logcumsumexp, bincount, histc, searchsorted, bucketize, isin,
trapezoid, trapz and cumulative_trapezoid against torch: values (bit for bit where torch's CPU kernel accumulates in an order minitorch matches),
dtypes, NaN and tie rules, errors, out=, return types and their repr, grad_fn names and gradients;
gradcheck in float64 on each device."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_on, import_torch  # noqa: E402

import minitorch  # noqa: E402

SNIPPETS = []

HEAD = """
nan, inf = float('nan'), float('inf')
def t(f):
    try:
        r = f()
        print(repr(r), r.dtype if hasattr(r, 'dtype') else '')
    except Exception as e:
        print(type(e).__name__, e)
"""


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(HEAD).strip() + "\n" + textwrap.dedent(code).strip() + "\n",
                                 id=name))


# ---- nansum, nanmean ------------------------------------------------------------------------------------

snip("nansum_forms", """
x = torch.tensor([[1., nan, 3.], [2., 2., nan], [nan, nan, nan]])
t(lambda: torch.nansum(x)); t(lambda: x.nansum(1)); t(lambda: torch.nansum(x, (0, 1), keepdim=True))
t(lambda: torch.nansum(x, dim=[])); t(lambda: torch.nansum(x, 0, dtype=torch.float64)); t(lambda: x.nansum(-1, True))
t(lambda: torch.nansum(torch.tensor([1, 2, 3], dtype=torch.int8))); t(lambda: torch.nansum(torch.tensor([True, True])))
t(lambda: torch.nansum(torch.tensor([1, 2]), dtype=torch.float32)); t(lambda: torch.nansum(torch.tensor(nan)))
t(lambda: torch.nansum(torch.empty(0, 3), 0)); t(lambda: torch.nansum(torch.tensor([-0.0, nan])))
t(lambda: torch.nansum(torch.tensor([1., nan, inf]))); t(lambda: torch.nansum(torch.tensor([inf, -inf, nan])))
t(lambda: torch.nansum(torch.tensor([1.5, nan, 2.25], dtype=torch.float16)))
t(lambda: torch.nansum(torch.tensor([1.5, nan, 2.25], dtype=torch.bfloat16), 0, keepdim=True))
t(lambda: torch.nansum(torch.ones(2, 3).t()[:, ::2], 0))
t(lambda: torch.nansum(x, 2)); t(lambda: torch.nansum(x, (0, 0))); t(lambda: torch.nansum(x, 0, dtype=torch.int32))
t(lambda: torch.nansum(x, keepdim=True))
t(lambda: torch.nansum(1)); t(lambda: x.nansum(1, 2, 3))
""")

snip("nanmean_forms", """
x = torch.tensor([[1., nan, 3.], [2., 2., nan], [nan, nan, nan]])
t(lambda: torch.nanmean(x)); t(lambda: x.nanmean(1)); t(lambda: torch.nanmean(x, 0, keepdim=True))
t(lambda: torch.nanmean(x, dim=[])); t(lambda: torch.nanmean(x, 1, dtype=torch.float64))
t(lambda: torch.nanmean(torch.tensor([1, 2]))); t(lambda: torch.nanmean(torch.tensor([1, 2]), dtype=torch.float32))
t(lambda: torch.nanmean(torch.tensor([True]))); t(lambda: torch.nanmean(torch.empty(0)))
t(lambda: torch.nanmean(torch.empty(0, 3), 0)); t(lambda: torch.nanmean(torch.tensor(nan)))
t(lambda: torch.nanmean(torch.tensor([1.5, nan, 2.25], dtype=torch.float16)))
t(lambda: torch.nanmean(torch.tensor([1.5, nan, 2.25], dtype=torch.bfloat16)))
t(lambda: torch.nanmean(x, 3)); t(lambda: torch.nanmean(x, dtype=torch.int64)); t(lambda: torch.nanmean(x, 3, dtype=torch.int64))
t(lambda: torch.nansum(torch.tensor([1, 2], dtype=torch.int32), dtype=torch.int16))
""")

snip("nan_reductions_out", """
x = torch.tensor([[1., nan, 3.], [2., 2., nan]])
o = torch.empty(2); t(lambda: torch.nansum(x, 1, out=o)); print(o)
o = torch.empty(2, dtype=torch.float64); t(lambda: torch.nansum(x, 1, out=o)); print(o)
t(lambda: torch.nansum(x, 1, dtype=torch.float32, out=torch.empty(2, dtype=torch.float64)))
o = torch.empty(3); t(lambda: torch.nanmean(x, 0, out=o)); print(o)
o = torch.empty(3, dtype=torch.float64); t(lambda: torch.nanmean(x, 0, out=o)); t(lambda: torch.nanmean(x, 0, dtype=torch.float32, out=o))
t(lambda: torch.nansum(torch.tensor([1, 2]), out=torch.empty((), dtype=torch.long)))
t(lambda: torch.nansum(x.requires_grad_(), out=torch.empty(())))
t(lambda: torch.nanmean(x, out=torch.empty(())))
""")

snip("nan_reductions_autograd", """
x = torch.tensor([[1., nan, 3.], [2., 2., nan]], requires_grad=True)
y = torch.nansum(x); print(y.grad_fn.name()); y.backward(); print(x.grad)
x.grad = None; y = x.nansum(1, keepdim=True); y.backward(torch.tensor([[2.], [3.]])); print(x.grad)
x.grad = None; y = torch.nansum(x, 0, dtype=torch.float64); print(y.grad_fn.name(), y.dtype); y.sum().backward(); print(x.grad, x.grad.dtype)
x.grad = None; y = torch.nanmean(x, 1); print(y.grad_fn.name(), [type(f[0]).__name__ if f[0] is not None else None for f in y.grad_fn.next_functions])
y.sum().backward(); print(x.grad)
x.grad = None; y = torch.nanmean(x); y.backward(); print(x.grad)
""")

# ---- aminmax ---------------------------------------------------------------------------------------------

snip("aminmax_forms", """
x = torch.tensor([[1., 3., 3.], [2., -2., 0.]])
t(lambda: torch.aminmax(x)); t(lambda: x.aminmax(dim=1)); t(lambda: torch.aminmax(x, dim=0, keepdim=True))
t(lambda: torch.aminmax(x, dim=-1, keepdim=False)); t(lambda: torch.aminmax(x, keepdim=True))
r = torch.aminmax(x, dim=1); print(r.min, r.max, r[0], len(r), type(r).__name__, type(r).__module__)
mn, mx = torch.aminmax(x); print(mn, mx)
t(lambda: torch.aminmax(torch.tensor([1., nan, 2.]))); t(lambda: torch.aminmax(torch.tensor([[1., nan], [0., 2.]]), dim=1))
t(lambda: torch.aminmax(torch.tensor([True, False]))); t(lambda: torch.aminmax(torch.tensor([5, -3, 7], dtype=torch.int16)))
t(lambda: torch.aminmax(torch.tensor(3.))); t(lambda: torch.aminmax(torch.tensor(3.), dim=0)); t(lambda: torch.aminmax(torch.tensor(3.), dim=-1, keepdim=True))
t(lambda: torch.aminmax(torch.tensor([1.5, -2.25], dtype=torch.float16))); t(lambda: torch.aminmax(torch.tensor([1.5, -2.25], dtype=torch.bfloat16), dim=0))
t(lambda: torch.aminmax(torch.arange(12.).reshape(3, 4).t(), dim=1))
t(lambda: torch.aminmax(torch.empty(0))); t(lambda: torch.aminmax(torch.empty(2, 0), dim=1)); t(lambda: torch.aminmax(torch.empty(2, 0), dim=0))
t(lambda: torch.aminmax(torch.empty(0, 2), dim=1, keepdim=True)); t(lambda: torch.aminmax(x, dim=2)); t(lambda: torch.aminmax(x, 1))
t(lambda: torch.aminmax(torch.empty(0, 2)))
""")

snip("aminmax_out_autograd", """
x = torch.tensor([[1., 3., 3.], [2., 2., 0.]])
a, b = torch.empty(0), torch.empty(0); t(lambda: torch.aminmax(x, dim=1, out=(a, b))); print(a, b)
t(lambda: torch.aminmax(x, out=(torch.empty((), dtype=torch.float64), torch.empty(()))))
t(lambda: torch.aminmax(x, out=(torch.empty(()), torch.empty((), dtype=torch.float64))))
y = x.clone().requires_grad_()
r = torch.aminmax(y, dim=1); print(r.min.grad_fn.name(), r.max.grad_fn is r.min.grad_fn)
(r.min.sum() + 2 * r.max.sum()).backward(); print(y.grad)
y.grad = None; r = torch.aminmax(y); (r.min + 2 * r.max).backward(); print(y.grad)
y.grad = None; r = torch.aminmax(y, dim=0, keepdim=True); r.max.sum().backward(); print(y.grad)
y.grad = None; r = torch.aminmax(y, dim=0); r.min.sum().backward(); print(y.grad)
t(lambda: torch.aminmax(y, out=(torch.empty(()), torch.empty(()))))
""")

# ---- cummax, cummin, logcumsumexp ---------------------------------------------------------------------------

snip("cummax_forms", """
x = torch.tensor([[1., nan, 3., nan, 2.], [3., 1., 1., 2., 0.]])
t(lambda: torch.cummax(x, 1)); t(lambda: x.cummin(1)); t(lambda: torch.cummax(x, 0)); t(lambda: x.cummin(dim=-2))
r = torch.cummax(x, 1); print(r.values, r.indices, type(r).__name__, len(r))
t(lambda: torch.cummin(torch.tensor([3, 1, 1, 2, 0, 0]), 0)); t(lambda: torch.cummax(torch.tensor([3, 1, 3, 2, 3], dtype=torch.int8), 0))
t(lambda: torch.cummax(torch.tensor([True, False, True]), 0)); t(lambda: torch.cummin(torch.tensor([True, False, False]), 0))
t(lambda: torch.cummax(torch.tensor([1., -inf, inf, inf]), 0)); t(lambda: torch.cummin(torch.tensor([nan, 1., nan]), 0))
t(lambda: torch.cummax(torch.tensor([1.5, 2.5, -1.], dtype=torch.float16), 0)); t(lambda: torch.cummin(torch.tensor([1.5, 2.5, -1.], dtype=torch.bfloat16), 0))
t(lambda: torch.cummax(torch.tensor(1.), 0)); t(lambda: torch.cummax(torch.tensor(1.), -1)); t(lambda: torch.cummax(torch.tensor(1.), 5))
t(lambda: torch.cummin(torch.tensor(1.), 1)); t(lambda: torch.cummax(torch.empty(0, 3), 5)); t(lambda: torch.cummax(torch.ones(2, 3), 5))
t(lambda: torch.cummax(torch.arange(12.).reshape(3, 4).t()[:, ::-1] if False else torch.arange(12.).reshape(3, 4).t(), 1))
t(lambda: torch.cummax(x)); t(lambda: torch.cummax(x, 1.5))
""")

snip("cummax_out_autograd", """
x = torch.tensor([[1., 3., 2.], [0., -1., 5.]])
v, i = torch.empty(0), torch.empty(0, dtype=torch.long); t(lambda: torch.cummax(x, 1, out=(v, i))); print(v, i)
t(lambda: torch.cummax(x, 1, out=(torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long))))
t(lambda: torch.cummin(x, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.int32))))
y = x.clone().requires_grad_()
v, i = torch.cummax(y, 1); print(v.grad_fn.name(), i.grad_fn, i.requires_grad); v.sum().backward(); print(y.grad)
y.grad = None; v, i = torch.cummin(y, 0); print(v.grad_fn.name()); (v * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward(); print(y.grad)
s = torch.tensor(2., requires_grad=True); v, i = s.cummax(0); v.backward(); print(s.grad)
t(lambda: torch.cummax(y, 1, out=(torch.empty(0), torch.empty(0, dtype=torch.long))))
""")

snip("logcumsumexp_forms", """
x = torch.tensor([[1., 2., 3.], [-1., 0.5, 10.]])
t(lambda: torch.logcumsumexp(x, 1)); t(lambda: x.logcumsumexp(0)); t(lambda: x.logcumsumexp(dim=-1))
t(lambda: torch.logcumsumexp(torch.tensor([-inf, -inf, 1., inf, inf, nan, 2.]), 0))
t(lambda: torch.logcumsumexp(torch.tensor([inf, -inf, 3.]), 0)); t(lambda: torch.logcumsumexp(torch.tensor([1e300, 1e300], dtype=torch.float64), 0))
t(lambda: torch.logcumsumexp(torch.tensor(2.), 0)); t(lambda: torch.logcumsumexp(torch.tensor(2.), 3)); t(lambda: torch.logcumsumexp(torch.empty(0, 2), 3))
t(lambda: torch.logcumsumexp(torch.empty(0, 2), 0)); t(lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0)); t(lambda: torch.logcumsumexp(torch.tensor([True]), 0))
t(lambda: torch.logcumsumexp(torch.tensor([1., 2.], dtype=torch.float16), 0)); t(lambda: torch.logcumsumexp(torch.tensor([1., 2.], dtype=torch.bfloat16), 0))
t(lambda: torch.logcumsumexp(x.t(), 0)); t(lambda: torch.logcumsumexp(x))
o = torch.empty(0); t(lambda: torch.logcumsumexp(x, 1, out=o)); print(o)
t(lambda: torch.logcumsumexp(x, 1, out=torch.empty(0, dtype=torch.float64)))
y = x.clone().requires_grad_(); t(lambda: torch.logcumsumexp(y, 1, out=torch.empty(0)))
l = torch.logcumsumexp(y, 1); print(l.grad_fn.name()); l.backward(torch.tensor([[1., -2., 0.5], [0., 1., -1.]])); print(y.grad)
y.grad = None; torch.logcumsumexp(y, 0).sum().backward(); print(y.grad)
s = torch.tensor(2., requires_grad=True); torch.logcumsumexp(s, 0).backward(); print(s.grad)
""")


# ---- bincount, histc, searchsorted, bucketize, isin --------------------------------------------------------

snip("bincount", """
t(lambda: torch.bincount(torch.tensor([1, 1, 3]))); t(lambda: torch.bincount(torch.tensor([1, 1, 3]), minlength=6))
t(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([.5, 1., 2.])))
t(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([.5, 1., 2.], dtype=torch.float64)))
t(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1, 2, 3])))
t(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1, 2, 3], dtype=torch.float16)))
t(lambda: torch.bincount(torch.tensor([1, 1, 3], dtype=torch.uint8))); t(lambda: torch.bincount(torch.tensor([4, 0], dtype=torch.int16), minlength=2))
t(lambda: torch.bincount(torch.tensor([], dtype=torch.long))); t(lambda: torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
t(lambda: torch.bincount(torch.tensor([], dtype=torch.long), weights=torch.tensor([]), minlength=2))
t(lambda: torch.bincount(torch.tensor([1, -1]))); t(lambda: torch.bincount(torch.tensor([[1]]))); t(lambda: torch.bincount(torch.tensor(1)))
t(lambda: torch.bincount(torch.tensor([1.]))); t(lambda: torch.bincount(torch.tensor([True]))); t(lambda: torch.bincount(torch.tensor([1., 2.]), minlength=-1))
t(lambda: torch.bincount(torch.tensor([1, 2]), minlength=-1)); t(lambda: torch.bincount(torch.tensor([1, 2]), weights=torch.tensor([1.])))
t(lambda: torch.bincount(torch.tensor([1, 2]), weights=torch.tensor([[1., 2.]]))); t(lambda: torch.tensor([1, 2]).bincount(minlength=4))
t(lambda: torch.tensor([2, 2]).bincount(torch.tensor([0.25, 0.5]))); t(lambda: torch.bincount(torch.tensor([1, 2]), 3))
""")

snip("histc", """
t(lambda: torch.histc(torch.tensor([1., 2, 1]), bins=4, min=0, max=3)); t(lambda: torch.histc(torch.tensor([1., 2, 1]), 4))
t(lambda: torch.histc(torch.tensor([1., 1.]), 4)); t(lambda: torch.histc(torch.tensor([1., 2, 1, nan, 5.])))
t(lambda: torch.histc(torch.tensor([1, 2]))); t(lambda: torch.histc(torch.tensor([1., 2]), bins=0)); t(lambda: torch.histc(torch.tensor([1., 2]), min=3, max=1))
t(lambda: torch.histc(torch.tensor([1., nan]))); t(lambda: torch.histc(torch.tensor([1., inf]))); t(lambda: torch.histc(torch.tensor([1., 2.]), 3, min=nan, max=nan))
t(lambda: torch.histc(torch.tensor([]), 3)); t(lambda: torch.histc(torch.tensor([1., 2.], dtype=torch.float16), 3))
t(lambda: torch.histc(torch.tensor([1., 2.], dtype=torch.float64), 3, -1.5, 2.5)); t(lambda: torch.histc(torch.tensor([1., 2.], requires_grad=True), 3))
t(lambda: torch.histc(torch.tensor([1., 2.], dtype=torch.float64), 3, out=torch.empty(0)))
o = torch.empty(0); t(lambda: torch.histc(torch.tensor([[1., 2.], [3, 4]]), 3, min=1, max=4, out=o)); print(o)
t(lambda: torch.tensor([1., 2.]).histc(3)); t(lambda: torch.tensor([0., 0.1, 0.2, 0.3, 0.7, 1.0]).histc(10, 0, 1))
""")

snip("searchsorted_bucketize", """
b = torch.tensor([1., 3., 5., 7., 9.])
v = torch.tensor([[3., 6., 9.], [3., 6., 9.]])
t(lambda: torch.searchsorted(b, v)); t(lambda: torch.searchsorted(b, v, right=True)); t(lambda: torch.searchsorted(b, v, side='right'))
t(lambda: torch.searchsorted(b, v, side='left', right=True)); t(lambda: torch.searchsorted(b, v, side='middle'))
t(lambda: torch.searchsorted(b, 6)); t(lambda: torch.searchsorted(b, 6.5, out_int32=True)); t(lambda: torch.searchsorted(b, v, out_int32=True))
bb = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
t(lambda: torch.searchsorted(bb, torch.tensor([[3, 6, 9], [3, 6, 9]]))); t(lambda: torch.searchsorted(bb, torch.tensor([[3, 6, 9]])))
t(lambda: torch.searchsorted(bb, torch.tensor([3, 6, 9])))
t(lambda: torch.searchsorted(torch.tensor([5., 1., 3.]), torch.tensor([2., 4.]), sorter=torch.tensor([1, 2, 0])))
t(lambda: torch.searchsorted(torch.tensor([5., 1., 3.]), torch.tensor([2., 4.]), sorter=torch.tensor([1, 2])))
t(lambda: torch.searchsorted(torch.tensor([5., 1., 3.]), torch.tensor([2., 4.]), sorter=torch.tensor([1., 2., 0.])))
t(lambda: torch.searchsorted(torch.tensor([5., 1., 3.]), torch.tensor([2., 4.]), sorter=torch.tensor([1, 2, 3])))
t(lambda: torch.searchsorted(b, torch.tensor([2, 4]))); t(lambda: torch.searchsorted(torch.tensor([1, 3]), torch.tensor([2., 4.])))
t(lambda: torch.searchsorted(torch.tensor([1., 2., nan]), torch.tensor([1.5, nan, 3.])))
t(lambda: torch.searchsorted(torch.tensor([1., 2., nan, nan]), torch.tensor([1.5, nan, 3.]), right=True))
t(lambda: torch.searchsorted(torch.tensor(1.), torch.tensor([1.]))); t(lambda: torch.searchsorted(b, torch.tensor(4.)))
t(lambda: torch.searchsorted(torch.empty(0), torch.tensor([4.]))); t(lambda: torch.searchsorted(bb, torch.tensor(4)))
o = torch.empty(0, dtype=torch.long); t(lambda: torch.searchsorted(b, torch.tensor([4.]), out=o)); print(o)
t(lambda: torch.searchsorted(b, torch.tensor([4.]), out=torch.empty(1)))
t(lambda: torch.searchsorted(b, torch.tensor([4.]), out_int32=True, out=torch.empty(1, dtype=torch.long)))
t(lambda: torch.searchsorted(torch.tensor([True, False]), torch.tensor([True]))); t(lambda: torch.searchsorted(b.half(), torch.tensor([4.]).half()))
t(lambda: torch.searchsorted(b, torch.tensor([[1., 8.], [2., 3.]]).t())); t(lambda: torch.searchsorted(b.requires_grad_(), torch.tensor([4.], requires_grad=True)))
t(lambda: torch.bucketize(torch.tensor([[3, 6, 9]]), torch.tensor([1, 3, 5, 7, 9])))
t(lambda: torch.bucketize(torch.tensor([3., 6, 9]), torch.tensor([1., 3, 5, 7, 9]), right=True, out_int32=True))
t(lambda: torch.bucketize(4, torch.tensor([1, 3, 5, 7, 9]))); t(lambda: torch.bucketize(torch.tensor([3., 6]), torch.tensor([[1., 3], [5, 7]])))
t(lambda: torch.bucketize(torch.tensor([3., 6]), torch.tensor(3.)))
o = torch.empty(0, dtype=torch.int32); t(lambda: torch.bucketize(torch.tensor([3., 6]), torch.tensor([1., 5.]), out_int32=True, out=o)); print(o)
""")

snip("isin", """
t(lambda: torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4]))); t(lambda: torch.isin(torch.tensor([1., 2, nan]), torch.tensor([2, 4, nan])))
t(lambda: torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2., 4]), invert=True))
t(lambda: torch.isin(2, torch.tensor([2, 4]))); t(lambda: torch.isin(torch.tensor([1, 2]), 2)); t(lambda: torch.isin(torch.tensor([1, 2]), 2.5))
t(lambda: torch.isin(torch.tensor([1, 2, 2]), torch.tensor([2, 2]), assume_unique=True)); t(lambda: torch.isin(torch.tensor([True, False]), torch.tensor([1])))
t(lambda: torch.isin(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([-1, 2], dtype=torch.int8)))
t(lambda: torch.isin(torch.tensor([1, 2]), torch.tensor([1, 2]), out=torch.empty(2)))
o = torch.empty(0, dtype=torch.bool); t(lambda: torch.isin(torch.tensor([1, 2]), torch.tensor([1, 5]), out=o)); print(o)
t(lambda: torch.isin(torch.tensor([1., 2.], requires_grad=True), torch.tensor([1.]))); t(lambda: torch.isin(torch.empty(0), torch.tensor([1.])))
t(lambda: torch.isin(torch.tensor(1.), torch.tensor([1.]))); t(lambda: torch.isin(torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1.])))
big = torch.arange(40) % 7
t(lambda: torch.isin(big, torch.tensor([0, 3, 5, 9, 11, 13, 2, 1, 40, 41, 42, 43, 44, 45, 46]))); t(lambda: torch.isin(torch.tensor([3, 1]), torch.arange(30), invert=True))
t(lambda: torch.isin(torch.tensor([1., nan]), torch.tensor([nan] * 20 + [1.]))); t(lambda: torch.isin(torch.tensor([1, 2, 2]), torch.arange(30) * 2, assume_unique=True))
t(lambda: torch.isin(torch.tensor([1, 2]), torch.tensor([], dtype=torch.long))); t(lambda: torch.isin(torch.tensor([1, 2]), torch.tensor([], dtype=torch.long), invert=True))
""")


# ---- trapezoid, trapz, cumulative_trapezoid ------------------------------------------------------------------

snip("trapezoid", """
y = torch.tensor([[1., 2., 4.], [3., 5., 9.]], requires_grad=True)
t(lambda: torch.trapezoid(y).grad_fn.name()); t(lambda: torch.trapezoid(y, torch.tensor([0., 1., 3.])).grad_fn.name())
t(lambda: torch.cumulative_trapezoid(y).grad_fn.name()); t(lambda: torch.cumulative_trapezoid(y, torch.tensor([0., 1., 3.])).grad_fn.name())
t(lambda: torch.trapezoid(y)); t(lambda: torch.trapezoid(y, dx=0.5, dim=0)); t(lambda: torch.trapezoid(y, torch.tensor([0., 1., 3.])))
t(lambda: torch.trapz(y, dx=2)); t(lambda: torch.trapz(y, torch.tensor([0., 1., 3.]))); t(lambda: torch.trapz(y, dim=0))
t(lambda: torch.cumulative_trapezoid(y)); t(lambda: torch.cumulative_trapezoid(y, dx=2., dim=0)); t(lambda: torch.cumulative_trapezoid(y, torch.tensor([0., 1., 3.])))
t(lambda: torch.trapezoid(torch.tensor([1, 2, 4]))); t(lambda: torch.trapezoid(torch.tensor([1, 2, 4]), dx=2))
t(lambda: torch.trapezoid(torch.tensor(1.))); t(lambda: torch.trapezoid(torch.empty(0))); t(lambda: torch.trapezoid(torch.empty(2, 0)))
t(lambda: torch.trapezoid(torch.empty(0, 3, dtype=torch.long), dim=0)); t(lambda: torch.trapezoid(torch.empty(0), torch.empty(0)))
t(lambda: torch.trapezoid(y, torch.tensor([0., 1.]))); t(lambda: torch.cumulative_trapezoid(y, torch.tensor([0., 1.])))
t(lambda: torch.trapezoid(y, torch.tensor([[0., 1., 2.]] * 2))); t(lambda: torch.trapezoid(y, torch.tensor([[0., 1., 2.5]])))
t(lambda: torch.cumulative_trapezoid(torch.tensor([1, 2, 4]))); t(lambda: torch.cumulative_trapezoid(torch.tensor([1, 2, 4]), dx=3))
t(lambda: torch.trapezoid(y, dim=3)); t(lambda: torch.trapezoid(y, torch.tensor([0, 1, 3])))
t(lambda: torch.trapezoid(torch.tensor([True, False]))); t(lambda: torch.trapezoid(y, torch.tensor([True, False, True])))
t(lambda: torch.cumulative_trapezoid(torch.tensor([True, False]))); t(lambda: torch.cumulative_trapezoid(y, torch.tensor([True, False, True])))
t(lambda: torch.trapezoid(y, dx=True)); t(lambda: torch.cumulative_trapezoid(y, dx=True)); t(lambda: torch.trapz(y, dx=True))
t(lambda: torch.cumulative_trapezoid(torch.empty(0))); t(lambda: torch.cumulative_trapezoid(torch.tensor([2.])))
t(lambda: torch.trapezoid(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([0., 1.]))); t(lambda: torch.trapezoid(torch.tensor([1., 2.], dtype=torch.float16), dx=0.1))
z = torch.tensor([[1., 2., 4.], [3., 5., 9.]], requires_grad=True)
(torch.trapezoid(z, torch.tensor([0., 1., 3.])).sum() + torch.cumulative_trapezoid(z, dim=0).sum() * 2 + torch.trapz(z, dx=0.5).sum()).backward(); print(z.grad)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    compare(code)


DEVICE_SNIPPET = """
nan = float('nan')
x = torch.tensor([[1., nan, 3., 2.], [3., 1., 1., nan], [0., -1., 5., 5.]], device=DEV)
print(torch.nansum(x).cpu(), x.nansum(1).cpu(), torch.nanmean(x, 0).cpu(), torch.nanmean(x, (0, 1), keepdim=True).cpu())
r = torch.aminmax(x, dim=1); print(r.min.cpu(), r.max.cpu(), r.min.device.type == DEV)
r = torch.aminmax(torch.tensor([[1, 4], [3, 2]], device=DEV)); print(r.min.cpu(), r.max.cpu())
v, i = torch.cummax(x, 1); print(v.cpu(), i.cpu(), v.device.type == DEV, i.device.type == DEV)
v, i = torch.cummin(x.t(), 1); print(v.cpu(), i.cpu())
print(torch.logcumsumexp(x, 1).cpu(), torch.logcumsumexp(x.t(), 0).cpu())
y = x.clone().requires_grad_()
(torch.nansum(y) + torch.aminmax(y, dim=0).max.sum() + torch.cummax(y, 1).values.sum()).backward(); print(y.grad.cpu())
z = torch.tensor([[1., 2., 3.], [0.5, -1., 2.]], device=DEV, requires_grad=True)
torch.logcumsumexp(z, 1).sum().backward(); print(z.grad.cpu())
"""


COUNTING_DEVICE_SNIPPET = """
x = torch.tensor([4, 0, 1, 4, 2, 9, 4], device=DEV)
print(torch.bincount(x).cpu(), torch.bincount(x, weights=torch.arange(7., device=DEV) / 4, minlength=12).cpu())
y = torch.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 0.1]], device=DEV)
print(torch.histc(y, 4).cpu(), torch.histc(y, 3, min=0, max=5).cpu(), torch.histc(y, 3).device.type == DEV)
b = torch.tensor([[1., 3., 5., 7.], [2., 4., 6., 8.]], device=DEV)
print(torch.searchsorted(b, torch.tensor([[3., 6.], [3., 9.]], device=DEV)).cpu(), torch.searchsorted(b[0], 4.).cpu())
print(torch.searchsorted(b, torch.tensor([[3., 6.], [3., 9.]], device=DEV), side='right', out_int32=True).cpu())
print(torch.searchsorted(torch.tensor([5., 1., 3.], device=DEV), torch.tensor([2., 4.], device=DEV), sorter=torch.tensor([1, 2, 0], device=DEV)).cpu())
print(torch.bucketize(torch.tensor([0., 3., 10.], device=DEV), b[1]).cpu())
print(torch.isin(x, torch.tensor([4, 2], device=DEV)).cpu(), torch.isin(x, torch.arange(3, 40, device=DEV), invert=True).cpu())
"""


def test_counting_device_parity(device):
    compare_on(device, COUNTING_DEVICE_SNIPPET)


def test_device_parity(device):
    compare_on(device, DEVICE_SNIPPET)


# ---- values against torch on random inputs ------------------------------------------------------------


def _inputs(torch, dtype_name, seed):
    """Random tensors with odd sizes, NaNs (floating dtypes), ties (integers), and a non-contiguous view."""
    g = torch.Generator().manual_seed(seed)
    t = torch.randn(5, 37, 7, generator=g, dtype=torch.float64) * 4
    if dtype_name.startswith("float") or dtype_name == "bfloat16":
        t[torch.rand(t.shape, generator=g) < 0.1] = float("nan")
    else:
        t = t.round()
    if dtype_name == "bool":
        return t > 0
    return t.to(getattr(torch, dtype_name))


def _mt(t, device):
    """t as a minitorch tensor on device, built from its values (a non-contiguous t gives a transposed view)."""
    dtype = getattr(minitorch, str(t.dtype).split(".")[1])
    if t.is_contiguous():
        return minitorch.tensor(t.tolist(), dtype=dtype, device=device)
    return minitorch.tensor(t.transpose(0, 2).contiguous().tolist(), dtype=dtype, device=device).transpose(0, 2)


def _same(mt_result, torch_result, summed=False):
    """The same dtype, shape and values, bit for bit (NaN where torch has NaN). `summed`: a sum, which a
    real GPU's reduction adds in its own order (to rounding there)."""
    assert str(mt_result.dtype).split(".")[1] == str(torch_result.dtype).split(".")[1]
    assert tuple(mt_result.shape) == tuple(torch_result.shape)
    got = mt_result.cpu().tolist()
    expected = torch_result.tolist()
    if summed and mt_result.device.type == "cuda" and not os.environ.get("MINITORCH_SIMULATE_GPU"):
        import torch
        torch.testing.assert_close(torch.tensor(got, dtype=torch_result.dtype), torch_result, rtol=1e-5, atol=1e-4,
                                   equal_nan=True)
        return
    assert str(got) == str(expected)


REAL_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int8", "uint8", "bool"]


@pytest.mark.parametrize("dtype_name", REAL_DTYPES)
def test_aminmax_cummax_values(device, dtype_name):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    t = _inputs(torch, dtype_name, 6)
    for tt in (t, t.transpose(0, 2)):
        x = _mt(tt, device)
        for dim in (0, 1, -1):
            r, e = minitorch.aminmax(x, dim=dim), torch.aminmax(tt, dim=dim)
            _same(r.min, e.min)
            _same(r.max, e.max)
            for op in ("cummax", "cummin"):
                r, e = getattr(x, op)(dim), getattr(tt, op)(dim)
                _same(r.values, e.values)
                _same(r.indices, e.indices)
        r, e = minitorch.aminmax(x), torch.aminmax(tt)
        _same(r.min, e.min)
        _same(r.max, e.max)


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "int64", "int16", "bool"])
def test_nansum_values(device, dtype_name):
    """nansum is sum with NaNs as zeros: torch's CPU sums, bit for bit."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    t = _inputs(torch, dtype_name, 7)
    for tt in (t, t.transpose(0, 2)):
        x = _mt(tt, device)
        for dims in (None, 0, 1, (0, 2), -1):
            kw = {} if dims is None else {"dim": dims}
            _same(minitorch.nansum(x, **kw), torch.nansum(tt, **kw), summed=True)
            if dtype_name.startswith("float"):
                _same(minitorch.nanmean(x, keepdim=True, **kw), torch.nanmean(tt, keepdim=True, **kw), summed=True)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_logcumsumexp_values(device, dtype_name):
    """torch's CPU kernel adds in double (float32 too) with log1p(exp(min - max)): the same bits."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    t = _inputs(torch, dtype_name, 8)
    for tt in (t, t.transpose(0, 2)):
        x = _mt(tt, device)
        for dim in (0, 1, 2):
            _same(minitorch.logcumsumexp(x, dim), torch.logcumsumexp(tt, dim))


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "int64", "int32"])
def test_searchsorted_values(device, dtype_name):
    """Random sorted rows (ties included) and values: torch's indices, left and right, with a sorter."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(10)
    rows = (torch.randn(3, 41, generator=g, dtype=torch.float64) * 6).round().to(getattr(torch, dtype_name))
    values = (torch.randn(3, 17, generator=g, dtype=torch.float64) * 7).round().to(getattr(torch, dtype_name))
    rows = rows.sort(-1).values
    b, v = _mt(rows, device), _mt(values, device)
    for right in (False, True):
        assert minitorch.searchsorted(b, v, right=right).cpu().tolist() == torch.searchsorted(rows, values, right=right).tolist()
        assert minitorch.searchsorted(b[1], v, right=right).cpu().tolist() == torch.searchsorted(rows[1], values, right=right).tolist()
        assert minitorch.bucketize(v, b[2], right=right).cpu().tolist() == torch.bucketize(values, rows[2], right=right).tolist()
    perm = torch.randperm(41, generator=g)
    shuffled, sorter = rows[0][perm], perm.argsort()
    got = minitorch.searchsorted(_mt(shuffled, device), v[0], sorter=_mt(sorter, device))
    assert got.cpu().tolist() == torch.searchsorted(shuffled, values[0], sorter=sorter).tolist()


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16"])
def test_histc_values(device, dtype_name):
    """torch's linear bin formula in the input's dtype: the same counts, elements on the edges included."""
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(11)
    t = (torch.randn(1000, generator=g, dtype=torch.float64) * 3).to(getattr(torch, dtype_name))
    t[::50] = t[::50].round()
    x = _mt(t, device)
    for bins, lo, hi in ((100, 0, 0), (7, -2, 3), (13, -2.5, 2.5), (1, 0, 1)):
        _same(minitorch.histc(x, bins, lo, hi), torch.histc(t, bins, lo, hi))


def test_bincount_isin_values(device):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(12)
    t = torch.randint(0, 50, (2000,), generator=g)
    w = torch.randn(2000, generator=g)
    x = _mt(t, device)
    _same(minitorch.bincount(x), torch.bincount(t))
    _same(minitorch.bincount(x, _mt(w, device), minlength=60), torch.bincount(t, w, minlength=60))
    _same(minitorch.bincount(x, _mt(w.double(), device)), torch.bincount(t, w.double()))
    test = torch.randint(0, 80, (30,), generator=g)
    for invert in (False, True):
        _same(minitorch.isin(x, _mt(test, device), invert=invert), torch.isin(t, test, invert=invert))
        _same(minitorch.isin(x[:5], _mt(test, device), invert=invert), torch.isin(t[:5], test, invert=invert))


def test_grads_match_torch(device):
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    g = torch.Generator().manual_seed(9)
    t = torch.randn(4, 9, 5, generator=g, dtype=torch.float64)
    t[0, 1, 2] = float("nan")
    fns = [
        lambda m, a: m.nansum(a, 1),
        lambda m, a: m.nanmean(a, (0, 2), keepdim=True),
        lambda m, a: m.cummax(a.nan_to_num(), 1).values,
        lambda m, a: m.cummin(a.nan_to_num(), 2).values,
        lambda m, a: m.logcumsumexp(a.nan_to_num(), 1),
        lambda m, a: m.aminmax(a.nan_to_num().round(), dim=1).max,
    ]
    for fn in fns:
        tx = t.clone().requires_grad_()
        r = fn(torch, tx)
        w = torch.randn(r.shape, generator=g, dtype=torch.float64)
        (r * w).sum().backward()
        x = minitorch.tensor(t.tolist(), dtype=minitorch.float64, device=device, requires_grad=True)
        r = fn(minitorch, x)
        (r * minitorch.tensor(w.tolist(), dtype=minitorch.float64, device=device)).sum().backward()
        torch.testing.assert_close(torch.tensor(x.grad.cpu().tolist(), dtype=torch.float64), tx.grad, rtol=1e-12,
                                   atol=1e-12, equal_nan=True)


GRADCHECK_CASES = [
    ("nansum", lambda a: a.nansum() + a.nansum(1).sum() * 2),
    ("nanmean", lambda a: a.nanmean(0) * a.nanmean((0, 1), keepdim=True)),
    ("aminmax", lambda a: minitorch.aminmax(a, dim=1).min * 2 + minitorch.aminmax(a, dim=1).max),
    ("aminmax_all", lambda a: minitorch.aminmax(a).max * minitorch.aminmax(a).min),
    ("cummax", lambda a: a.cummax(1).values * a),
    ("cummin", lambda a: a.cummin(0).values.sin()),
    ("logcumsumexp", lambda a: a.logcumsumexp(1) * a.logcumsumexp(0)),
    ("trapezoid", lambda a: minitorch.trapezoid(a, dx=0.5) + minitorch.trapezoid(a * a, minitorch.tensor(
        [0.0, 1.0, 2.5, 4.0], dtype=a.dtype, device=a.device))),
    ("cumulative_trapezoid", lambda a: minitorch.cumulative_trapezoid(a, dim=0) * 2),
]


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    x = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (x,))
