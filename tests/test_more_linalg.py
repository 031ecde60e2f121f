"""kron, linalg.matrix_power / matrix_power, inner, vdot, chain_matmul, linalg.multi_dot, vander,
linalg.vander, cdist, cov, corrcoef, combinations, renorm, quantile, nanquantile and histogram against
torch: values (bit for bit where minitorch follows torch's arithmetic order), dtypes, errors and their
order, out=, return types and their repr, grad_fn names and gradients; gradcheck in float64 on each
device."""

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
def g(r):
    print(type(r.grad_fn).__name__, [type(n[0]).__name__ for n in r.grad_fn.next_functions])
"""


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(HEAD).strip() + "\n" + textwrap.dedent(code).strip() + "\n",
                                 id=name))


# ---- kron, inner, vdot -----------------------------------------------------------------------------------

snip("kron", """
a = torch.tensor([[1., 2., -1.], [0.5, 3., 4.]]); b = torch.tensor([[2., -3.], [1., 0.25], [7., 1.]])
t(lambda: torch.kron(a, b)); t(lambda: torch.kron(a, b[0])); t(lambda: a.kron(torch.tensor(2)))
t(lambda: torch.kron(torch.tensor([1, 2]), torch.tensor([1., 2.]))); t(lambda: torch.kron(torch.tensor([True]), torch.tensor([True, False])))
t(lambda: torch.kron(torch.arange(24).view(2, 3, 4), torch.tensor([[1, -1]])))
t(lambda: torch.kron(torch.empty(0, 2), b))
o = torch.empty(0); t(lambda: torch.kron(a, b, out=o)); print(o.shape)
t(lambda: torch.kron(a, b, out=torch.empty(0, dtype=torch.int64)))
x = a.clone().requires_grad_(); y = b.clone().requires_grad_()
r = torch.kron(x, y); g(r); (r * r).sum().backward(); print(x.grad, y.grad)
t(lambda: torch.kron(x, y, out=torch.empty(0)))
""")

snip("inner_vdot", """
a = torch.tensor([[1., 2., -1.], [0.5, 3., 4.]]); b = torch.tensor([[2., -3., 1.], [0.25, 7., 1.], [1., 1., 1.]])
t(lambda: torch.inner(a, b)); t(lambda: torch.inner(a[0], a[1])); t(lambda: torch.inner(a, torch.tensor(2.)))
t(lambda: a.inner(b)); t(lambda: torch.inner(torch.tensor(3), a)); t(lambda: torch.inner(torch.ones(2, 3), torch.ones(2, 4)))
t(lambda: torch.inner(torch.tensor([1, 2]), torch.tensor([1., 2.]))); t(lambda: torch.inner(torch.arange(6).view(3, 2), torch.arange(4).view(2, 2)))
t(lambda: torch.vdot(a[0], a[1])); t(lambda: a[0].vdot(b[1])); t(lambda: torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 2])))
t(lambda: torch.vdot(torch.tensor([1, 2]), torch.tensor([1., 2.]))); t(lambda: torch.vdot(torch.tensor([1, 2]), torch.tensor([1, 2, 3])))
t(lambda: torch.vdot(torch.ones(2, 2), torch.ones(2, 2))); t(lambda: torch.vdot(torch.tensor([True]), torch.tensor([True])))
o = torch.empty(0); t(lambda: torch.inner(a, b, out=o)); print(o)
t(lambda: torch.inner(a, b, out=torch.empty(0, dtype=torch.float64))); t(lambda: torch.inner(a, b, out=torch.empty(0, dtype=torch.int64)))
o = torch.empty(3); t(lambda: torch.vdot(a[0], a[1], out=o)); print(o)
t(lambda: torch.vdot(a[0], a[1], out=torch.empty(0, dtype=torch.float64)))
x = a.clone().requires_grad_()
r = torch.inner(x, b); g(r); r.sum().backward(); print(x.grad)
x.grad = None; r = torch.inner(x[0], x[1]); g(r); r.backward(); print(x.grad)
x.grad = None; r = torch.vdot(x[0], x[1]); g(r); r.backward(); print(x.grad)
t(lambda: torch.vdot(x[0], x[1], out=torch.empty(0)))
r = torch.inner(x, b, out=torch.empty(0)); print(r.grad_fn.__class__.__name__)
""")


# ---- matrix_power, chain_matmul, multi_dot ---------------------------------------------------------------

snip("matrix_power", """
m = torch.tensor([[1., 2., 0.], [0.5, -1., 3.], [2., 1., 1.]])
for n in (0, 1, 2, 3, 4, 5, 6, 7, 11):
    t(lambda: torch.linalg.matrix_power(m, n))
d = m.double()
for n in (-1, -2, -3, -6):
    t(lambda: torch.linalg.matrix_power(d, n))
mb = torch.stack([m, m.t(), 2 * m]).double()
t(lambda: torch.matrix_power(mb, 6)); t(lambda: mb.matrix_power(-1)); t(lambda: mb.matrix_power(0))
t(lambda: torch.linalg.matrix_power(torch.tensor([[1, 2], [3, 4]]), 3)); t(lambda: torch.linalg.matrix_power(torch.tensor([[1, 2], [3, 4]]), 0))
t(lambda: torch.linalg.matrix_power(torch.tensor([[1, 2], [3, 4]]), -1)); t(lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2))
t(lambda: torch.linalg.matrix_power(torch.ones(3), 2)); t(lambda: torch.linalg.matrix_power(torch.tensor([[1., 2.], [2., 4.]]), -1))
t(lambda: torch.tensor([[True, False], [True, True]]).matrix_power(2)); t(lambda: torch.linalg.matrix_power(torch.empty(0, 0), 3))
t(lambda: torch.matrix_power(torch.empty(2, 0, 0), -2))
for n in (0, 1, 2, 3, -1, -2, 5):
    t(lambda: torch.linalg.matrix_power(torch.ones(3, 3), n, out=torch.empty(0)))
    t(lambda: torch.linalg.matrix_power(torch.ones(3, 3), n, out=torch.empty(0, dtype=torch.float64)))
    t(lambda: torch.linalg.matrix_power(torch.ones(3, 3), n, out=torch.empty(0, dtype=torch.int64)))
    t(lambda: torch.linalg.matrix_power(torch.ones(3, 3, requires_grad=True), n, out=torch.empty(0)))
    t(lambda: torch.linalg.matrix_power(torch.ones(3, 3), n, out=torch.empty(0, requires_grad=True)))
x = d.clone().requires_grad_()
for n in (0, 1, 2, 3, -1, -2, 5):
    x.grad = None; r = torch.linalg.matrix_power(x, n); print(n, type(r.grad_fn).__name__); r.sum().backward(); print(x.grad)
""")

snip("chain_matmul_multi_dot", """
ms = [torch.arange(s[0] * s[1], dtype=torch.float64).view(s) / 7 - 1 for s in [(5, 2), (2, 7), (7, 3), (3, 4), (4, 1)]]
t(lambda: torch.linalg.multi_dot(ms)); t(lambda: torch.linalg.multi_dot(ms[:2])); t(lambda: torch.linalg.multi_dot(ms[:3]))
t(lambda: torch.linalg.multi_dot(ms[1:4])); t(lambda: torch.linalg.multi_dot([ms[0][0]] + ms[1:4] + [ms[4][:, 0]]))
t(lambda: torch.linalg.multi_dot([ms[1][:, 0], ms[2]])); t(lambda: torch.linalg.multi_dot([torch.ones(3), torch.ones(3)]))
t(lambda: torch.chain_matmul(*ms)); t(lambda: torch.chain_matmul(ms[0])); t(lambda: torch.chain_matmul(ms[0], ms[1]))
t(lambda: torch.functional.chain_matmul(ms[0], ms[1]))
t(lambda: torch.chain_matmul()); t(lambda: torch.chain_matmul(torch.ones(2, 3), torch.ones(2, 3)))
t(lambda: torch.chain_matmul(torch.ones(2, 3), torch.ones(3)))
t(lambda: torch.linalg.multi_dot([torch.ones(2, 3)])); t(lambda: torch.linalg.multi_dot([]))
t(lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(2, 3)])); t(lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 2, 2)]))
t(lambda: torch.linalg.multi_dot([torch.ones(3, 3, 3), torch.ones(3, 2)])); t(lambda: torch.linalg.multi_dot([torch.ones(3), torch.ones(3, 2, 2), torch.ones(2)]))
t(lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)]))
t(lambda: torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 2), torch.ones(2, 2, dtype=torch.int64)))
t(lambda: torch.linalg.multi_dot([torch.ones(2, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)]))
o = torch.empty(0, dtype=torch.float64); t(lambda: torch.linalg.multi_dot(ms, out=o)); print(o)
t(lambda: torch.linalg.multi_dot(ms, out=torch.empty(5, 1)))
t(lambda: torch.chain_matmul(ms[0], out=torch.empty(0, dtype=torch.int64)))
t(lambda: torch.chain_matmul(ms[0], ms[1], out=torch.empty(0)))
xs = [m.clone().requires_grad_() for m in ms]
r = torch.linalg.multi_dot(xs); g(r); r.sum().backward(); print([x.grad for x in xs])
r = torch.linalg.multi_dot(xs[:3]); g(r)
r = torch.chain_matmul(xs[0]); g(r)
t(lambda: torch.linalg.multi_dot(xs[:2], out=torch.empty(0, dtype=torch.float64)))
""")


# ---- vander, combinations --------------------------------------------------------------------------------

snip("vander", """
x = torch.tensor([1., 2., 3., 5.])
t(lambda: torch.vander(x)); t(lambda: torch.vander(x, N=3, increasing=True)); t(lambda: torch.vander(x, 0)); t(lambda: torch.vander(x, 1))
t(lambda: torch.vander(torch.tensor([1, 2, 3], dtype=torch.int8))); t(lambda: torch.vander(torch.tensor([True, False])))
t(lambda: torch.vander(torch.tensor([1.5, 2.], dtype=torch.float16))); t(lambda: torch.vander(torch.empty(0)))
t(lambda: torch.vander(torch.ones(2, 2))); t(lambda: torch.vander(x, -1)); t(lambda: torch.vander(torch.tensor(2.)))
t(lambda: torch.linalg.vander(x)); t(lambda: torch.linalg.vander(x, N=5)); t(lambda: torch.linalg.vander(torch.tensor([[1, 2], [3, 4]])))
t(lambda: torch.linalg.vander(torch.tensor(2.))); t(lambda: torch.linalg.vander(torch.tensor(2.), N=3)); t(lambda: torch.linalg.vander(x, N=1))
t(lambda: torch.linalg.vander(torch.tensor([True, False]))); t(lambda: torch.linalg.vander(torch.tensor([1., 2.], dtype=torch.float16)))
t(lambda: torch.linalg.vander(torch.tensor([1, 2], dtype=torch.uint8)))
y = x.clone().requires_grad_()
r = torch.vander(y); g(r); r = torch.vander(y, increasing=True); print(type(r.grad_fn).__name__)
r = torch.linalg.vander(y); g(r); r.pow(2).sum().backward(); print(y.grad)
""")

snip("combinations", """
a = torch.tensor([1, 2, 3, 4])
t(lambda: torch.combinations(a)); t(lambda: torch.combinations(a, 3)); t(lambda: torch.combinations(a, with_replacement=True))
t(lambda: torch.combinations(a, r=3, with_replacement=True)); t(lambda: torch.combinations(a, 0)); t(lambda: torch.combinations(a, 5))
t(lambda: torch.combinations(a, -1)); t(lambda: torch.combinations(torch.ones(2, 2))); t(lambda: torch.combinations(torch.tensor([1.]), 2))
t(lambda: torch.combinations(torch.empty(0), 2)); t(lambda: torch.combinations(torch.tensor([True, False]), 2))
x = torch.tensor([1., 2., 3.], requires_grad=True)
r = torch.combinations(x, 2); g(r); (r[:, 0] * r[:, 1]).sum().backward(); print(x.grad)
r = torch.combinations(x, 1); g(r)
print(hasattr(torch.Tensor, 'combinations'))
""")


# ---- cov, corrcoef ---------------------------------------------------------------------------------------

snip("cov_corrcoef", """
x = torch.tensor([[1.5, -0.25, 3., 2., 0.5], [0., 1., 4., -2., 1.25], [2., 2., 1., 0., -1.], [0.5, 1.5, -0.5, 2.5, 3.]], dtype=torch.float64)
fw = torch.tensor([1, 2, 0, 3, 1]); aw = torch.tensor([0.5, 1., 2., 0.25, 1.], dtype=torch.float64)
t(lambda: torch.cov(x)); t(lambda: x.cov(correction=0)); t(lambda: torch.cov(x, correction=3)); t(lambda: torch.cov(x[0]))
t(lambda: torch.cov(x, fweights=fw)); t(lambda: torch.cov(x, aweights=aw)); t(lambda: torch.cov(x, fweights=fw, aweights=aw, correction=2))
t(lambda: torch.cov(x, correction=5)); t(lambda: torch.cov(x, correction=9)); t(lambda: torch.cov(x, fweights=fw, correction=7))
t(lambda: torch.cov(torch.tensor([[1, 2, 3], [2, 5, 9]]))); t(lambda: torch.cov(torch.tensor([[True, False], [True, True]])))
t(lambda: torch.cov(torch.tensor([[1., 2, 3]], dtype=torch.float16))); t(lambda: torch.cov(torch.tensor(2.)))
t(lambda: torch.cov(torch.ones(2, 2, 2))); t(lambda: torch.cov(x, fweights=fw.float())); t(lambda: torch.cov(x, fweights=fw[:3]))
t(lambda: torch.cov(x, fweights=fw.view(5, 1))); t(lambda: torch.cov(x, fweights=-fw)); t(lambda: torch.cov(x, aweights=-aw))
t(lambda: torch.cov(x, aweights=fw)); t(lambda: torch.cov(x, aweights=aw[:2])); t(lambda: torch.cov(x, aweights=aw.view(5, 1)))
t(lambda: torch.cov(x, fweights=torch.zeros(5, dtype=torch.int64)))
t(lambda: torch.cov(torch.empty(3, 0))); t(lambda: torch.cov(torch.empty(0, 3))); t(lambda: torch.cov(x.float(), aweights=aw))
t(lambda: torch.corrcoef(x)); t(lambda: x.corrcoef()); t(lambda: torch.corrcoef(x[0])); t(lambda: torch.corrcoef(torch.tensor([[1, 2, 3], [2, 5, 9]])))
t(lambda: torch.corrcoef(torch.tensor([[1., 1, 1], [2, 5, 9]]))); t(lambda: torch.corrcoef(torch.ones(2, 2, 2)))
t(lambda: torch.corrcoef(torch.tensor([[1., 2.]])))
y = x.clone().requires_grad_()
r = torch.cov(y, fweights=fw, aweights=aw); g(r); r.sum().backward(); print(y.grad)
y.grad = None; r = torch.corrcoef(y); g(r); r.sum().backward(); print(y.grad)
""")


# ---- renorm ----------------------------------------------------------------------------------------------

snip("renorm", """
x = torch.tensor([[[1., -2.], [0.5, 3.]], [[0.1, 0.2], [-0.3, 0.25]], [[4., 0.], [0., -4.]]])
for p in (1, 2, 3.5, inf, 0.5):
    for dim in (0, 1, -1):
        t(lambda: torch.renorm(x, p, dim, 1.0))
t(lambda: x.renorm(2, 1, 0.5)); t(lambda: x.clone().renorm_(2, 1, 0.5)); t(lambda: torch.renorm(x, 0, 1, 1.))
t(lambda: torch.renorm(x, -1, 1, 1.)); t(lambda: torch.renorm(x, 2, 3, 1.)); t(lambda: torch.renorm(x, 2, 1, -1.))
t(lambda: torch.renorm(torch.tensor([1, 2, 3]), 2, 0, 1.)); t(lambda: torch.renorm(torch.tensor(3.), 2, 0, 1.))
t(lambda: torch.renorm(x.double(), 2, 0, 1.)); t(lambda: torch.renorm(x.half(), 2, 0, 1.)); t(lambda: torch.renorm(x.bfloat16(), 2, 0, 1.))
t(lambda: torch.renorm(torch.tensor([[0., 0.], [3., 4.]]), 2, 0, 1.)); t(lambda: torch.renorm(torch.tensor([[1, 2], [3, 4]]), 2, 0, 1.))
t(lambda: torch.renorm(x, 2, 0, 1., out=torch.empty(0)))
t(lambda: torch.renorm(x, 2, 0, 1., out=torch.empty(0, dtype=torch.float64)))
y = x.clone().requires_grad_()
r = torch.renorm(y, 2, 0, 1.); g(r)
t(lambda: y.renorm_(2, 0, 1.))
z = y * 1; z.renorm_(2, 0, 1.); g(z)
t(lambda: torch.renorm(y, 2, 0, 1., out=torch.empty(0)))
""")


# ---- quantile, nanquantile -------------------------------------------------------------------------------

snip("quantile_values", """
x = torch.tensor([[0.5, -1., 2., 3.5, 0.25], [1., nan, -2., 4., 0.], [3., 3., 1., -1., 2.5], [0., 0.75, -0.5, 1.5, 5.]])
q = torch.tensor([0., 0.1, 0.5, 0.77, 1.])
for fn in (torch.quantile, torch.nanquantile):
    for interp in ('linear', 'lower', 'higher', 'midpoint', 'nearest'):
        t(lambda: fn(x, q, interpolation=interp)); t(lambda: fn(x, 0.3, dim=1, interpolation=interp))
        t(lambda: fn(x, q, dim=0, keepdim=True, interpolation=interp)); t(lambda: fn(x, torch.tensor(0.4), dim=-1, keepdim=True, interpolation=interp))
t(lambda: x.quantile(0.5)); t(lambda: x.nanquantile(q, 0)); t(lambda: torch.quantile(x, 0.5, keepdim=True))
t(lambda: torch.quantile(x.double(), 0.25, dim=0)); t(lambda: torch.nanquantile(torch.full((2, 3), nan), 0.5, dim=1))
t(lambda: torch.quantile(torch.tensor(3.), 0.5)); t(lambda: torch.quantile(torch.tensor(3.), q, dim=0))
t(lambda: torch.quantile(torch.tensor(3.), q, dim=0, keepdim=True))
""")

snip("quantile_errors_out_autograd", """
x = torch.tensor([[0.5, -1., 2., 3.5, 0.25], [1., 6., -2., 4., 0.], [3., 3., 1., -1., 2.5]])
q = torch.tensor([0., 0.5, 1.])
t(lambda: torch.quantile(x, 1.5)); t(lambda: torch.quantile(x, -0.1)); t(lambda: torch.quantile(x, torch.tensor([0.5, 2.])))
t(lambda: torch.quantile(x, torch.tensor([[0.5]]))); t(lambda: torch.quantile(x, q.double())); t(lambda: torch.quantile(x.long(), 0.5))
t(lambda: torch.quantile(torch.empty(0), 0.5)); t(lambda: torch.quantile(x, 0.5, dim=2)); t(lambda: torch.quantile(x, 0.5, interpolation='foo'))
t(lambda: torch.quantile(torch.empty(0), 0.5, dim=5)); t(lambda: torch.quantile(x.long(), 1.5)); t(lambda: torch.quantile(torch.tensor(3.), 0.5, dim=1))
o = torch.empty(0); t(lambda: torch.quantile(x, 0.5, dim=1, out=o)); print(o)
t(lambda: torch.quantile(x, 0.5, dim=1, out=torch.empty(0, dtype=torch.float64)))
t(lambda: torch.quantile(x, 0.5, dim=9, out=torch.empty(0, dtype=torch.float64)))
t(lambda: torch.nanquantile(x, q, dim=1, out=torch.empty(0))); t(lambda: torch.quantile(x, q, dim=1, out=torch.empty(2)))
y = x.clone().requires_grad_()
for interp in ('linear', 'lower', 'higher', 'midpoint', 'nearest'):
    r = torch.quantile(y, q, dim=1, interpolation=interp); g(r)
    r = torch.quantile(y, 0.3, interpolation=interp); g(r)
    r = torch.nanquantile(y, torch.tensor(0.3), dim=0, keepdim=True, interpolation=interp); g(r)
    y.grad = None; torch.quantile(y, q, dim=1, interpolation=interp).sum().backward(); print(y.grad)
o = torch.empty(0); r = torch.quantile(y, 0.3, dim=1, out=o); print(r is o, type(r.grad_fn).__name__)
t(lambda: torch.quantile(y, 0.3, dim=1, out=torch.empty(0, requires_grad=True)))
""")


# ---- histogram -------------------------------------------------------------------------------------------

snip("histogram", """
x = torch.tensor([[0.5, -1.5, 2., 3.5, 0.25, 1., 1.], [1., 6., -2., 4., 0., 0.75, -0.5], [3., 3., 1., -1., 2.5, 1.25, 2.]])
w = (torch.arange(21.).view(3, 7) % 5) / 4
xn = x.clone(); xn[0, 0] = nan
t(lambda: torch.histogram(x)); t(lambda: torch.histogram(x, 5)); t(lambda: torch.histogram(x, bins=4, range=(-1., 1.)))
t(lambda: torch.histogram(x, 6, weight=w)); t(lambda: torch.histogram(x, 6, weight=w, density=True)); t(lambda: torch.histogram(x, 3, density=True))
t(lambda: x.histogram(3)); t(lambda: x.histogram(torch.tensor([-1., 0., 0.5, 2.])))
t(lambda: torch.histogram(x, torch.tensor([-1., 0., 0.5, 2.]), weight=w, density=True)); t(lambda: torch.histogram(x, torch.tensor([1.])))
t(lambda: torch.histogram(x, torch.tensor([1., 0.5, 2.]))); t(lambda: torch.histogram(xn, 3)); t(lambda: torch.histogram(xn, 3, range=(-1., 1.)))
t(lambda: torch.histogram(x, torch.tensor([-1., 0., 0.5, 2.]).double())); t(lambda: torch.histogram(x, torch.tensor([[-1., 0.]])))
t(lambda: torch.histogram(x, torch.tensor([], dtype=torch.float32))); t(lambda: torch.histogram(x, 0)); t(lambda: torch.histogram(x, -2))
t(lambda: torch.histogram(x, 3, range=(1., 0.))); t(lambda: torch.histogram(x, 3, range=(1., inf))); t(lambda: torch.histogram(x, 3, range=(1., 1.)))
t(lambda: torch.histogram(x, 3, range=(1., 2., 3.))); t(lambda: torch.histogram(x, 3, weight=w.double())); t(lambda: torch.histogram(x, 3, weight=w[0]))
t(lambda: torch.histogram(x.long(), 3)); t(lambda: torch.histogram(x.long(), 3, range=(0., 1.))); t(lambda: torch.histogram(x.double(), 3))
t(lambda: torch.histogram(x.half(), 3)); t(lambda: torch.histogram(x.half(), 3, range=(0., 1.))); t(lambda: torch.histogram(x.long(), torch.tensor([1, 2])))
t(lambda: torch.histogram(x.bfloat16(), 4, range=(-1, 1.5))); t(lambda: torch.histogram(x.bfloat16(), torch.tensor([-1, 0, 1.5], dtype=torch.bfloat16)))
t(lambda: torch.histogram(torch.empty(0), 3)); t(lambda: torch.histogram(torch.empty(0, dtype=torch.long), 3))
t(lambda: torch.histogram(torch.tensor(2.5), 3)); t(lambda: torch.histogram(torch.ones(5), 2))
r = torch.histogram(x, 4); print(type(r).__name__, r.hist, r.bin_edges, r[0] is r.hist)
t(lambda: torch.histogram(x.clone().requires_grad_(), 3))
h, e = torch.empty(0), torch.empty(0)
t(lambda: torch.histogram(x, 3, out=(h, e))); print(h, e)
t(lambda: torch.histogram(x, 3, out=(torch.empty(0, dtype=torch.float64), e)))
t(lambda: torch.histogram(x, 3, out=(h, torch.empty(0, dtype=torch.float64))))
t(lambda: torch.histogram(x, torch.tensor([0., 1.]), out=(torch.empty(5), torch.empty(7))))
t(lambda: torch.histogram(x, 3, out=(torch.empty(5), torch.empty(7))))
t(lambda: torch.histogram(x, 3, range="ab")); t(lambda: torch.histogram(x, 3, range=(1., "a"))); t(lambda: torch.histogram(x, 3, range=3))
t(lambda: x.histogram(3, range=[0, 1])); t(lambda: x.histogram(3, range=(torch.tensor(0.5), 1))); t(lambda: torch.histogram(x, 3, range=()))
t(lambda: x.histogram(3, range=[0, None]))
""")


# ---- cdist -----------------------------------------------------------------------------------------------

snip("cdist", """
a = torch.tensor([[0.5, -1., 2.], [1., 0., 0.], [3., 3., -1.]]); b = torch.tensor([[1., 1., 1.], [0., -2., 0.5], [2., 0., 1.], [0.5, -1., 2.]])
for p in (0., 1., 2., 3., 0.5, inf):
    t(lambda: torch.cdist(a, b, p))
A = torch.arange(90.).view(30, 3) / 17 - 2
t(lambda: torch.cdist(A, b)); t(lambda: torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist'))
t(lambda: torch.cdist(A, b, compute_mode='donot_use_mm_for_euclid_dist'))
t(lambda: torch.cdist(a.unsqueeze(0).expand(2, 3, 3), b)); t(lambda: torch.cdist(torch.stack([a, 2 * a]).unsqueeze(1), torch.stack([b, b - 1, -b])))
t(lambda: torch.cdist(a, b, compute_mode='foo')); t(lambda: torch.cdist(a, b, -1.)); t(lambda: torch.cdist(a[0], b)); t(lambda: torch.cdist(a, b[0]))
t(lambda: torch.cdist(a, b[:, :2])); t(lambda: torch.cdist(a.long(), b.long())); t(lambda: torch.cdist(a, b.double()))
t(lambda: torch.cdist(a.half(), b.half())); t(lambda: torch.cdist(a.double(), b.double(), 1.))
t(lambda: torch.cdist(torch.empty(0, 3), b)); t(lambda: torch.cdist(torch.randn(3, 0), torch.randn(2, 0)))
t(lambda: torch.cdist(torch.ones(2, 3, 4), torch.ones(3, 5, 4)))
t(lambda: torch.cdist(a.long(), b.long(), compute_mode='use_mm_for_euclid_dist')); t(lambda: torch.cdist(a.long(), b.long(), p=1))
t(lambda: torch.cdist(A.half(), b.half())); t(lambda: torch.cdist(A.bfloat16(), b.bfloat16(), 1.))
t(lambda: torch.functional.cdist(a, b, 1.))
x = a.clone().requires_grad_(); y = b.clone().requires_grad_()
for p in (0., 1., 2., 3., 0.5, inf):
    x.grad = y.grad = None; r = torch.cdist(x, y, p); g(r); r.sum().backward(); print(x.grad, y.grad)
X = A.clone().requires_grad_()
r = torch.cdist(X, y); g(r); r.sum().backward(); print(X.grad.sum(0), y.grad)
r = torch.cdist(torch.empty(0, 3, requires_grad=True), y); g(r)
""")


# ---- float16 and bfloat16: each op's refusal (a kernel's dtype dispatch, or its low-precision check) -----------

snip("linalg_16_bit_refusals", """
fs = [torch.linalg.det, torch.linalg.slogdet, torch.logdet, torch.linalg.inv, torch.linalg.inv_ex, torch.linalg.svd,
      torch.linalg.svdvals, torch.svd, torch.linalg.qr, torch.linalg.eigh, torch.linalg.eigvalsh,
      lambda a: torch.linalg.solve(a, a), lambda a: torch.linalg.solve_ex(a, a), torch.linalg.pinv,
      torch.linalg.matrix_rank, torch.linalg.cond, lambda a: torch.linalg.matrix_norm(a, 'nuc'),
      lambda a: torch.linalg.matrix_norm(a, 2), lambda a: torch.linalg.matrix_norm(a, 1), torch.linalg.matrix_norm,
      lambda a: torch.linalg.matrix_power(a, -1), torch.inverse, torch.linalg.lu_factor, torch.linalg.cholesky,
      lambda a: torch.svd_lowrank(a, q=1)]
for dt in (torch.half, torch.bfloat16):
    for shape in ((3, 3), (0, 0), (2, 3, 3), (3, 5), (3,)):
        A = torch.eye(shape[-1], dtype=dt).expand(*shape).contiguous() if len(shape) > 1 and shape[-1] else torch.zeros(shape, dtype=dt)
        for f in fs:
            try:
                r = f(A)
                print('ok')
            except Exception as e:
                print(type(e).__name__, e)
""")


snip("matrix_norm_of_empty_matrices", """
for s in [(0, 0), (2, 0, 3), (2, 3, 0), (0, 3), (3, 0)]:
    for o in (1, -1, inf, -inf):
        for kd in (False, True):
            A = torch.zeros(s, requires_grad=True)
            t(lambda: (lambda r: (r.shape, r.grad_fn is None))(torch.linalg.matrix_norm(A, o, keepdim=kd)))
t(lambda: torch.linalg.matrix_norm(torch.zeros(2, 0, 3), 1, dim=(0, 2)))
t(lambda: torch.linalg.matrix_norm(torch.zeros(2, 0, 3), 1, dtype=torch.float64))
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    compare(code)


DEVICE_SNIPPET = """
m = torch.tensor([[1., 2., 0.], [0.5, -1., 3.], [2., 1., 1.]], device=DEV, dtype=torch.float64)
print(torch.kron(m[:2], m[0]).cpu(), torch.linalg.matrix_power(m, 5).cpu(), torch.linalg.matrix_power(m, -2).cpu())
print(torch.inner(m, m).cpu(), torch.vdot(m[0], m[1]).cpu(), torch.linalg.multi_dot([m[0], m, m, m[:, 1]]).cpu())
print(torch.vander(m[0]).cpu(), torch.linalg.vander(m).cpu(), torch.combinations(m[1], 2).cpu())
print(torch.cov(m, fweights=torch.tensor([1, 2, 1], device=DEV)).cpu(), torch.corrcoef(m).cpu())
print(torch.renorm(m, 2, 0, 1.5).cpu(), torch.quantile(m, torch.tensor([0.25, 0.5], device=DEV, dtype=torch.float64), dim=1).cpu())
print(torch.nanquantile(m, 0.3, interpolation='midpoint').cpu())
r = torch.histogram(m, 4, weight=m.abs(), density=True); print(r.hist.cpu(), r.bin_edges.cpu(), r.hist.device.type == DEV)
for p in (0., 1., 2., 3., float('inf')):
    print(torch.cdist(m, m[:2] + 1, p).cpu())
print(torch.cdist(torch.arange(90., device=DEV, dtype=torch.float64).view(30, 3) / 7, m).sum().cpu())
x = m.clone().requires_grad_()
(torch.kron(x, x).sum() + torch.linalg.matrix_power(x, 3).sum() + torch.cdist(x, x[:2] * 2).sum() + torch.renorm(x, 2, 1, 1.).sum()
 + torch.quantile(x, 0.4, dim=0).sum() + torch.cov(x).sum() + torch.linalg.multi_dot([x, x, x]).sum()).backward()
print(x.grad.cpu())
"""


def test_device_parity(device):
    compare_on(device, DEVICE_SNIPPET)


# ---- values against torch on random inputs ------------------------------------------------------------


def _mt(t, device):
    dtype = getattr(minitorch, str(t.dtype).split(".")[1])
    return minitorch.tensor(t.tolist(), dtype=dtype, device=device)


def _same(mt_result, torch_result):
    """The same dtype, shape and values, bit for bit (NaN where torch has NaN)."""
    assert str(mt_result.dtype).split(".")[1] == str(torch_result.dtype).split(".")[1]
    assert tuple(mt_result.shape) == tuple(torch_result.shape)
    assert str(mt_result.cpu().tolist()) == str(torch_result.tolist())


def _close(mt_result, torch_result, rtol=1e-5, atol=1e-6):
    import torch
    assert str(mt_result.dtype).split(".")[1] == str(torch_result.dtype).split(".")[1]
    torch.testing.assert_close(torch.tensor(mt_result.cpu().tolist(), dtype=torch_result.dtype), torch_result,
                               rtol=rtol, atol=atol, equal_nan=True)


def _torch():
    torch = import_torch()
    if torch is None:
        pytest.skip("torch is not installed")
    return torch


def _gpu(device):
    return device != "cpu" and not os.environ.get("MINITORCH_SIMULATE_GPU")


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_products_values(device, dtype_name):
    """kron, inner, vdot, multi_dot and matrix_power are torch's compositions of mul, dot and mm: kron is
    torch's bits (a product); the others are as close as minitorch's dot and mm are to torch's BLAS."""
    torch = _torch()
    g = torch.Generator().manual_seed(20)
    dtype = getattr(torch, dtype_name)
    a = torch.randn(5, 7, generator=g, dtype=dtype)
    b = torch.randn(3, 7, generator=g, dtype=dtype)
    m = torch.randn(6, 6, generator=g, dtype=dtype) / 3
    ms = [torch.randn(s, generator=g, dtype=dtype) for s in [(9, 4), (4, 11), (11, 3), (3, 8), (8, 5)]]
    same = _close if _gpu(device) else _same
    rtol = 1e-5 if dtype_name == "float32" else 1e-12
    same(minitorch.kron(_mt(a, device), _mt(b, device)), torch.kron(a, b))
    _close(minitorch.inner(_mt(a, device), _mt(b, device)), torch.inner(a, b), rtol=rtol)
    _close(minitorch.vdot(_mt(a[0], device), _mt(b[1], device)), torch.vdot(a[0], b[1]), rtol=rtol)
    _close(minitorch.linalg.multi_dot([_mt(t, device) for t in ms]), torch.linalg.multi_dot(ms), rtol=rtol)
    for n in (2, 3, 4, 7, 13):
        _close(minitorch.linalg.matrix_power(_mt(m, device), n), torch.linalg.matrix_power(m, n), rtol=rtol)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_statistics_values(device, dtype_name):
    """quantile and nanquantile (every interpolation; float64's linear and midpoint modes to an ulp: minitorch's
    float64 lerp_ rounds its product, where torch's fuses it) and histogram: torch's bits; cov and corrcoef
    end in an mm: as close as minitorch's mm is to torch's BLAS."""
    torch = _torch()
    g = torch.Generator().manual_seed(21)
    dtype = getattr(torch, dtype_name)
    x = torch.randn(6, 41, generator=g, dtype=dtype) * 3
    fw = torch.randint(0, 4, (41,), generator=g)
    aw = torch.rand(41, generator=g, dtype=dtype)
    same = _close if _gpu(device) else _same
    mx = _mt(x, device)
    rtol = 1e-5 if dtype_name == "float32" else 1e-12
    _close(minitorch.cov(mx), torch.cov(x), rtol=rtol)
    _close(minitorch.cov(mx, correction=0, fweights=_mt(fw, device), aweights=_mt(aw, device)),
           torch.cov(x, correction=0, fweights=fw, aweights=aw), rtol=rtol)
    _close(minitorch.cov(mx, correction=2, aweights=_mt(aw, device)), torch.cov(x, correction=2, aweights=aw),
           rtol=rtol)
    _close(minitorch.corrcoef(mx), torch.corrcoef(x), rtol=rtol)
    xn = x.clone()
    xn[torch.rand(x.shape, generator=g) < 0.1] = float("nan")
    q = torch.tensor([0.0, 0.13, 0.5, 0.71, 0.999, 1.0], dtype=dtype)
    for interp in ("linear", "lower", "higher", "midpoint", "nearest"):
        same = _close if _gpu(device) or (dtype_name == "float64" and interp in ("linear", "midpoint")) else _same
        for dim in (None, 0, 1):
            same(minitorch.quantile(mx, _mt(q, device), dim=dim, interpolation=interp),
                 torch.quantile(x, q, dim=dim, interpolation=interp))
            same(minitorch.nanquantile(_mt(xn, device), 0.37, dim=dim, keepdim=True, interpolation=interp),
                 torch.nanquantile(xn, 0.37, dim=dim, keepdim=True, interpolation=interp))
    same = _close if _gpu(device) else _same
    w = torch.rand(x.shape, generator=g, dtype=dtype)
    for kwargs in ({}, {"bins": 17}, {"bins": 9, "range": (-2.5, 3.0)}, {"bins": 12, "density": True}):
        r, e = minitorch.histogram(mx, weight=_mt(w, device), **kwargs), torch.histogram(x, weight=w, **kwargs)
        same(r.hist, e.hist)
        same(r.bin_edges, e.bin_edges)
    edges = torch.tensor([-4.0, -1.0, -0.25, 0.0, 0.5, 3.0, 7.5], dtype=dtype)
    r, e = minitorch.histogram(mx, _mt(edges, device)), torch.histogram(x, edges)
    same(r.hist, e.hist)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_cdist_values(device, dtype_name):
    """cdist with p = 0, 1, 2 and inf: torch's bits (p = 2's fused tail included, odd column counts); other p
    to an ulp (a float's powf in double, rounded twice at times); the matrix-product path as close as
    minitorch's mm is to torch's BLAS."""
    torch = _torch()
    g = torch.Generator().manual_seed(22)
    dtype = getattr(torch, dtype_name)
    a = torch.randn(2, 7, 13, generator=g, dtype=dtype)
    b = torch.randn(9, 13, generator=g, dtype=dtype)
    a[0, 1, 2] = float("nan")
    big = torch.randn(40, 13, generator=g, dtype=dtype)
    same = _close if _gpu(device) else _same
    for p in (0.0, 1.0, 2.0, float("inf")):
        same(minitorch.cdist(_mt(a, device), _mt(b, device), p), torch.cdist(a, b, p))
        same(minitorch.cdist(_mt(a[..., :6], device), _mt(b[:, :6], device), p), torch.cdist(a[..., :6], b[:, :6], p))
    for p in (3.0, 0.5, 1.5):
        _close(minitorch.cdist(_mt(a, device), _mt(b, device), p), torch.cdist(a, b, p), rtol=1e-5 if
               dtype_name == "float32" else 1e-12)
    _close(minitorch.cdist(_mt(big, device), _mt(b, device)), torch.cdist(big, b),
           rtol=1e-5 if dtype_name == "float32" else 1e-12)


def test_renorm_values(device):
    torch = _torch()
    g = torch.Generator().manual_seed(23)
    x = torch.randn(5, 7, 3, generator=g, dtype=torch.float64)
    for p in (1.0, 2.0, 3.0, float("inf")):
        for dim in (0, 1, 2):
            _close(minitorch.renorm(_mt(x, device), p, dim, 1.0), torch.renorm(x, p, dim, 1.0), rtol=1e-14,
                   atol=1e-15)


def test_grads_match_torch(device):
    torch = _torch()
    g = torch.Generator().manual_seed(24)
    t = torch.randn(5, 5, generator=g, dtype=torch.float64)
    fns = [
        lambda m, a: m.kron(a[:2], a[:, :3]),
        lambda m, a: m.linalg.matrix_power(a / 3, 5),
        lambda m, a: m.linalg.matrix_power(a + 5 * m.eye(5, dtype=a.dtype, device=a.device), -2),
        lambda m, a: m.inner(a, a[:3]),
        lambda m, a: m.vdot(a[0], a[3]),
        lambda m, a: m.linalg.multi_dot([a[:, :2].t(), a, a, a[:, 1]]),
        lambda m, a: m.linalg.vander(a[0], N=4),
        lambda m, a: m.cov(a, aweights=a[0].abs()),
        lambda m, a: m.corrcoef(a),
        lambda m, a: m.renorm(a, 2, 1, 1.5),
        lambda m, a: m.renorm(a, 1.5, 0, 2.0),
        lambda m, a: m.quantile(a, 0.3, dim=1),
        lambda m, a: m.nanquantile(a, a.new_tensor([0.2, 0.9]), dim=0, interpolation="midpoint"),
        lambda m, a: m.combinations(a[0], 3),
    ] + [(lambda p: lambda m, a: m.cdist(a, a[1:4] * 2, p))(p) for p in (1.0, 2.0, 3.0, 0.5, float("inf"))] + [
        lambda m, a: m.cdist(m.cat([a] * 6), a[:3], compute_mode="use_mm_for_euclid_dist_if_necessary"),
    ]
    for fn in fns:
        tx = t.clone().requires_grad_()
        r = fn(torch, tx)
        w = torch.randn(r.shape, generator=g, dtype=torch.float64)
        (r * w).sum().backward()
        x = minitorch.tensor(t.tolist(), dtype=minitorch.float64, device=device, requires_grad=True)
        r = fn(minitorch, x)
        (r * minitorch.tensor(w.tolist(), dtype=minitorch.float64, device=device)).sum().backward()
        torch.testing.assert_close(torch.tensor(x.grad.cpu().tolist(), dtype=torch.float64), tx.grad, rtol=1e-9,
                                   atol=1e-10)


GRADCHECK_CASES = [
    ("kron", lambda a: minitorch.kron(a, a[:2, :1] * 3)),
    ("matrix_power", lambda a: minitorch.linalg.matrix_power(a[:3, :3], 4)),
    ("matrix_power_negative", lambda a: minitorch.linalg.matrix_power(
        a[:3, :3] + 4 * minitorch.eye(3, dtype=a.dtype, device=a.device), -3)),
    ("inner", lambda a: minitorch.inner(a, a)),
    ("vdot", lambda a: minitorch.vdot(a[0], a[2])),
    ("multi_dot", lambda a: minitorch.linalg.multi_dot([a, a.t(), a, a[0]])),
    ("linalg_vander", lambda a: minitorch.linalg.vander(a[0], N=3)),
    ("cov", lambda a: minitorch.cov(a, fweights=minitorch.tensor([1, 2, 1, 3], device=a.device))),
    ("corrcoef", lambda a: minitorch.corrcoef(a)),
    ("renorm", lambda a: minitorch.renorm(a, 2, 0, 0.5)),
    ("quantile", lambda a: minitorch.quantile(a, 0.35, dim=1)),
    ("cdist", lambda a: minitorch.cdist(a, a[:2] * 2 + 1, 1.5)),
    ("cdist_mm", lambda a: minitorch.cdist(a, a[:2] * 2 + 1, compute_mode="use_mm_for_euclid_dist")),
]


@pytest.mark.parametrize("name,fn", GRADCHECK_CASES, ids=[c[0] for c in GRADCHECK_CASES])
def test_gradcheck(device, name, fn):
    minitorch.manual_seed(0)
    x = minitorch.randn(3, 4, dtype=minitorch.float64).to(device).requires_grad_()
    assert minitorch.autograd.gradcheck(fn, (x,))
