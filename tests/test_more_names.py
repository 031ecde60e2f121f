"""torch names minitorch has as another name or form, against torch: dist / Tensor.dist, asarray, range,
scalar_tensor, the predicates and identities of real tensors, the functional forms of methods (fill, zero_,
split_with_sizes, ...), the in-place scans and comparisons (cumsum_, addmm_, greater_, ...), the top-level
nn ops with torch's own signatures (batch_norm, kl_div, embedding, ...), pdist, channel_shuffle and the
linear algebra torch keeps for old code (pinverse, qr, frobenius_norm, nuclear_norm): values, dtypes,
errors, warnings, grad_fn names and gradients."""

import os
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, compare_on  # noqa: E402

SNIPPETS = []

HEAD = """
import warnings
warnings.simplefilter('always')
nan, inf = float('nan'), float('inf')
def t(f):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            r = f()
        print(repr(r), r.dtype if hasattr(r, 'dtype') else '', [str(x.message).split(' (Triggered')[0] for x in w])
    except Exception as e:
        print(type(e).__name__, e)
def v(x):
    print(round(float(x), 10) + 0.0)
def g(r):
    print(type(r.grad_fn).__name__, [type(n[0]).__name__ for n in r.grad_fn.next_functions])
"""


def snip(name, code):
    SNIPPETS.append(pytest.param(textwrap.dedent(HEAD).strip() + "\n" + textwrap.dedent(code).strip() + "\n",
                                 id=name))


# ---- dist ------------------------------------------------------------------------------------------------

snip("dist", """
torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True); b = torch.randn(4, dtype=torch.float64, requires_grad=True)
for p in (1, 2, 3, 0.5, 1.5, inf, -1, -inf):
    d = torch.dist(a, b, p); print(p, d.item(), d.grad_fn.name())
    ga, gb = torch.autograd.grad(d, (a, b)); print(ga.sum().item(), gb.tolist())
t(lambda: torch.dist(a, b, 0)); t(lambda: torch.autograd.grad(torch.dist(a, b.detach(), 0), a))
t(lambda: torch.autograd.grad(torch.dist(a, b, 0), (a, b)))
t(lambda: torch.dist(torch.arange(3), torch.arange(3)))
t(lambda: torch.dist(torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool)))
t(lambda: torch.dist(torch.ones(2), torch.ones(3))); t(lambda: torch.dist(torch.ones(2), 2))
t(lambda: torch.dist(torch.ones(2), torch.ones(2), 'a')); t(lambda: torch.dist(torch.ones(2, dtype=torch.half), torch.ones(2)))
t(lambda: torch.dist(torch.ones(2, dtype=torch.half), torch.zeros(2, dtype=torch.half)))
t(lambda: torch.dist(torch.ones(2), torch.zeros(2), out=torch.empty(())))
t(lambda: torch.ones(2).dist(torch.zeros(2), p=1)); t(lambda: torch.ones(2).dist(other=torch.zeros(2)))
x = torch.zeros(3, requires_grad=True); torch.dist(x, torch.zeros(3)).backward(); print(x.grad)
""")

# ---- asarray ---------------------------------------------------------------------------------------------

snip("asarray_tensor", """
t0 = torch.arange(4.)
r = torch.asarray(t0); print(r is t0, r.requires_grad)
r = torch.asarray(t0, copy=True); print(r is t0, r.data_ptr() == t0.data_ptr(), r)
r = torch.asarray(t0, copy=False); print(r is t0)
r = torch.asarray(t0, dtype=torch.float64); print(r.dtype, r.data_ptr() == t0.data_ptr())
t(lambda: torch.asarray(t0, dtype=torch.float64, copy=False))
t(lambda: torch.asarray(t0, dtype=torch.float32, copy=True)); t(lambda: torch.asarray(t0, device='cpu', copy=False))
t(lambda: torch.asarray(t0, 1)); t(lambda: torch.asarray()); t(lambda: torch.asarray(t0, copy=1))
t(lambda: torch.asarray(obj=t0)); t(lambda: torch.asarray(t0, requires_grad=None))
tg = torch.ones(2, requires_grad=True)
t(lambda: torch.asarray(tg * 2)); t(lambda: torch.asarray(tg * 2, requires_grad=True))
t(lambda: torch.asarray(tg * 2, requires_grad=False)); t(lambda: torch.asarray(tg, copy=True))
t(lambda: torch.asarray(tg, dtype=torch.float64)); t(lambda: torch.asarray(tg, dtype=torch.float64, requires_grad=False))
t(lambda: torch.asarray(tg, copy=True, requires_grad=False))
r = torch.asarray(tg, requires_grad=False); print(r is tg, tg.requires_grad)
t1 = torch.ones(2); r = torch.asarray(t1, requires_grad=True); print(r is t1, t1.requires_grad)
t(lambda: torch.asarray(torch.ones(2, dtype=torch.int64), requires_grad=True))
t(lambda: torch.asarray(torch.ones(2, dtype=torch.int64), dtype=torch.float32, requires_grad=True))
t(lambda: torch.asarray(t1, dtype=torch.int64))
""")

snip("asarray_data", """
import numpy as np, array
a = np.arange(3.)
r = torch.asarray(a); a[0] = 9; print(r)
r = torch.asarray(a, copy=True); a[0] = 7; print(r)
t(lambda: torch.asarray(a, dtype=torch.float32, copy=False)); t(lambda: torch.asarray(a, dtype=torch.float32))
t(lambda: torch.asarray(np.arange(3), requires_grad=True)); t(lambda: torch.asarray(np.arange(3.), requires_grad=True))
t(lambda: torch.asarray(np.arange(6.)[::2])); t(lambda: torch.asarray(np.float32(2.5)))
t(lambda: torch.asarray([1, 2, 3])); t(lambda: torch.asarray([1, 2.5])); t(lambda: torch.asarray([1, 2], copy=False))
t(lambda: torch.asarray(3.5)); t(lambda: torch.asarray(True)); t(lambda: torch.asarray('abc'))
t(lambda: torch.asarray([[1, 2], [3, 4]], dtype=torch.float64, requires_grad=True))
t(lambda: torch.asarray([1, 2], requires_grad=True)); t(lambda: torch.asarray([1, 2], dtype=torch.float64, copy=True))
t(lambda: torch.asarray([torch.arange(2.), torch.arange(2.)]))
b = array.array('f', [1, 2, 3])
r = torch.asarray(b); b[0] = 5; print(r)
r = torch.asarray(b, dtype=torch.float32); b[0] = 6; print(r)
t(lambda: torch.asarray(bytearray(b'ab'))); t(lambda: torch.asarray(bytearray(b'ab'), dtype=torch.uint8))
""")

# ---- predicates, identities, functional forms ------------------------------------------------------------

snip("predicates", """
a = torch.arange(6.).reshape(2, 3).requires_grad_(); b = torch.ones(2, 3)
t(lambda: torch.is_same_size(a, b)); t(lambda: a.is_same_size(torch.ones(3))); t(lambda: torch.is_same_size(a, 1))
t(lambda: torch.is_signed(a)); t(lambda: torch.is_signed(torch.ones(1, dtype=torch.uint8)))
t(lambda: torch.is_conj(a)); t(lambda: a.is_conj()); t(lambda: torch.is_neg(a)); t(lambda: a.is_neg())
t(lambda: torch.is_inference(a)); t(lambda: a.is_inference()); t(lambda: torch.is_conj(1))
for f in (torch.resolve_conj, torch.resolve_neg, torch.conj, torch.real, torch.Tensor.conj, torch.Tensor.resolve_conj,
          torch.Tensor.resolve_neg):
    print(f(a) is a)
t(lambda: torch.imag(a)); t(lambda: torch.imag(torch.ones(2, dtype=torch.int32))); t(lambda: torch.real(torch.ones(2, dtype=torch.int32)))
t(lambda: torch.conj(torch.ones(2, dtype=torch.int64))); t(lambda: torch.resolve_conj(1))
r = torch.detach(a); print(r.requires_grad, r is a, r.data_ptr() == a.data_ptr())
t(lambda: torch.get_device(a)); t(lambda: torch.get_device(1))
""")

snip("fill_zero_split", """
a = torch.arange(6.).reshape(2, 3).requires_grad_(); b = torch.ones(2, 3)
r = torch.fill(b, 2.5); print(r, r is b, b)
t(lambda: torch.fill(b, torch.tensor(3.))); t(lambda: torch.fill(b, torch.ones(2)))
t(lambda: torch.fill(torch.ones(2, dtype=torch.int64), 2.7)); t(lambda: torch.fill(torch.ones(2, dtype=torch.int64), torch.tensor(2.7)))
r = torch.fill(a, 1); g(r); r.sum().backward(); print(a.grad)
v = torch.tensor(3., requires_grad=True); r = torch.fill(a, v); g(r); r.sum().backward(); print(v.grad)
c = torch.ones(3); r = torch.zero_(c); print(r is c, c)
t(lambda: torch.zero_(torch.ones(2, requires_grad=True)))
t(lambda: torch.split_with_sizes(a, [1, 2], 1)); t(lambda: a.split_with_sizes([1, 1]))
t(lambda: a.split_with_sizes([1, 3], 1)); t(lambda: a.split_with_sizes(split_sizes=[2], dim=0))
print([p.grad_fn.name() for p in a.split([1, 2], 1)], a.split(1, 1)[0].grad_fn.name(), a.chunk(2)[0].grad_fn.name())
print(a.unbind()[0].grad_fn.name())
""")

snip("scalar_tensor_range", """
t(lambda: torch.scalar_tensor(3)); t(lambda: torch.scalar_tensor(True)); t(lambda: torch.scalar_tensor(2, dtype=torch.int32))
t(lambda: torch.scalar_tensor(torch.ones(1))); t(lambda: torch.scalar_tensor(2, requires_grad=True)); t(lambda: torch.scalar_tensor('a'))
t(lambda: torch.range(1, 4)); t(lambda: torch.range(1, 2, 0.5)); t(lambda: torch.range(0, 3, dtype=torch.int64))
t(lambda: torch.range(1., 4, out=torch.empty(0, dtype=torch.float64))); t(lambda: torch.range(4, 1)); t(lambda: torch.range(1, 4, 0))
t(lambda: torch.range(1, inf)); t(lambda: torch.range(0, 1, 0.1)); t(lambda: torch.range(0, 10, 3, dtype=torch.int32))
t(lambda: torch.range(1, 3, requires_grad=True)); t(lambda: torch.range(5)); t(lambda: torch.range(1, 'a'))
t(lambda: torch.range(3, -2.5, -0.5)); t(lambda: torch.range(0, 1, 0.3, dtype=torch.float64))
""")

# ---- in-place scans and comparisons ----------------------------------------------------------------------

snip("inplace", """
torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
for op in ('cumsum_', 'cumprod_'):
    for dim in (0, 1, -1):
        b = a * 1; r = getattr(b, op)(dim); print(r is b, b._version); g(b)
        (b * torch.arange(4.)).sum().backward(); print(a.grad); a.grad = None
t(lambda: a.clone().cumsum_(1, dtype=torch.float32)); t(lambda: torch.ones(2, dtype=torch.int64).cumsum_(0, dtype=torch.float32))
t(lambda: torch.ones(2).cumsum_(0, dtype=torch.float32)); t(lambda: torch.ones(2, dtype=torch.int32).cumprod_(0))
t(lambda: torch.ones(2).cumsum_(5)); t(lambda: a.cumsum_(0)); t(lambda: torch.ones(2).cumsum_())
c = torch.tensor([[1., 0., 2.], [3., 4., 0.]], requires_grad=True); d = c * 1; d.cumprod_(1); d.sum().backward(); print(c.grad)
m1 = torch.randn(3, 2, dtype=torch.float64, requires_grad=True); m2 = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
b = a * 1; r = b.addmm_(m1, m2, beta=0.5, alpha=2); print(r is b, b._version); g(b)
b.sum().backward(); print(a.grad, m1.grad, m2.grad)
x = torch.randn(3, 4)
t(lambda: x.addmm_(torch.randn(3, 2), torch.randn(3, 4))); t(lambda: x.addmm_(torch.randn(3, 2, dtype=torch.float64), torch.randn(2, 4)))
t(lambda: torch.randn(4).addmm_(torch.randn(4, 2), torch.randn(2, 4))); t(lambda: torch.ones(1, 4).addmm_(torch.randn(3, 2), torch.randn(2, 4)))
for op in ('greater_', 'greater_equal_', 'less_', 'less_equal_', 'not_equal_'):
    y = torch.tensor([[0.5, 1., 2.], [1., -1., 3.]]); r = getattr(y, op)(1.); print(op, r is y, y)
    y = torch.tensor([[0.5, 1., 2.], [1., -1., 3.]]); getattr(y, op)(torch.tensor([1., 2., 0.])); print(y)
t(lambda: torch.ones(2).greater_('a'))
""")

# ---- top-level nn ops ------------------------------------------------------------------------------------

snip("nn_norms", """
torch.manual_seed(0)
x = torch.randn(4, 3, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(3, dtype=torch.float64, requires_grad=True); b = torch.randn(3, dtype=torch.float64)
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
r = torch.batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5, False); g(r); v(r.sum()); print(rm, rv)
r = torch.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5, True); v(r.sum())
t(lambda: torch.batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)); t(lambda: torch.batch_norm(x, w, b, None, None, False, 0.1, 1e-5, False))
r = torch.layer_norm(x, [5], None, None, 1e-5, True); g(r); v(r.sum())
r = torch.layer_norm(x, (3, 5)); v(r.sum()); t(lambda: torch.layer_norm(x, [4]))
r = torch.group_norm(x, 3, w, b); g(r); v(r.sum()); t(lambda: torch.group_norm(x, 2))
r = torch.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False); g(r); v(r.sum())
t(lambda: torch.instance_norm(x, w, b, None, None, False, 0.1, 1e-5, False))
""")

snip("nn_activations", """
torch.manual_seed(0)
x = torch.randn(2, 3, 4, dtype=torch.float64)
for f in (torch.selu, lambda v: torch.celu(v, 0.5), lambda v: torch.threshold(v, 0.1, -2.),
          lambda v: torch.rrelu(v, 0.1, 0.3), lambda v: torch.hardshrink(v, 0.3), lambda v: v.hardshrink(),
          lambda v: torch.prelu(v, torch.tensor([0.25, 0.5, 1.], dtype=torch.float64)),
          lambda v: v.prelu(torch.tensor([0.1], dtype=torch.float64))):
    y = x.clone().requires_grad_(); r = f(y); print(r.grad_fn.name()); v(r.sum())
for f in (torch.selu_, lambda v: torch.celu_(v, 2.), lambda v: torch.threshold_(v, 0., 5.), lambda v: torch.rrelu_(v)):
    y = x.clone(); r = f(y); print(r is y); v(y.sum())
t(lambda: torch.celu(x, 1., True)); t(lambda: torch.selu(x, True)); t(lambda: torch.threshold(x, 0.)); t(lambda: torch.rrelu(x, inplace=True))
t(lambda: torch.selu(torch.ones(2, dtype=torch.int64))); t(lambda: torch.hardshrink(x, lambd='a'))
""")

snip("nn_shapes", """
x = torch.arange(2 * 8 * 2 * 2, dtype=torch.float64).reshape(2, 8, 2, 2).requires_grad_()
r = torch.pixel_shuffle(x, 2); g(r); print(r.shape); r = torch.pixel_unshuffle(r, 2); print(torch.equal(r, x))
r = torch.channel_shuffle(x, 4); g(r); print(r[0, :, 0, 0], r.is_contiguous())
(r * torch.arange(8.).view(1, 8, 1, 1)).sum().backward(); print(x.grad[0, :, 0, 0])
t(lambda: torch.channel_shuffle(x, 3)); t(lambda: torch.channel_shuffle(x, 0)); t(lambda: torch.channel_shuffle(torch.ones(3), 1))
t(lambda: torch.nn.functional.channel_shuffle(torch.arange(6.).view(1, 6, 1), 2))
t(lambda: torch.constant_pad_nd(torch.ones(2, 2), [1, 0, 0, 2], 3.5)); t(lambda: torch.constant_pad_nd(torch.ones(2, 2), [1]))
t(lambda: torch.constant_pad_nd(torch.ones(2, 2), [1] * 6))
r = torch.constant_pad_nd(x, [1, 1]); g(r)
v = torch.tensor([[[1., 3., 2., 5., 4., 0.]]])
t(lambda: torch.max_pool1d_with_indices(v, 2)); t(lambda: torch.max_pool1d_with_indices(v, 3, 1, 1))
t(lambda: torch.max_pool1d_with_indices(v, 2, return_indices=True))
w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True); i = torch.tensor([[0, 2], [4, 0]])
r = torch.embedding(w, i); g(r); print(torch.equal(r, w[i])); r.sum().backward(); print(w.grad)
w.grad = None; torch.embedding(w, i, 0).sum().backward(); print(w.grad)
t(lambda: torch.embedding(i, w))
""")

snip("nn_losses", """
torch.manual_seed(0)
a = torch.randn(4, 3, dtype=torch.float64, requires_grad=True); b = torch.randn(4, 3, dtype=torch.float64)
y = torch.tensor([1., -1., 1., -1.], dtype=torch.float64); p = torch.rand(4, 3, dtype=torch.float64)
for red in (0, 1, 2):
    r = torch.kl_div(a, p, red); print(r.grad_fn.name()); v(r.sum())
    r = torch.kl_div(a, p.log(), red, log_target=True); v(r.sum())
    r = torch.binary_cross_entropy_with_logits(a, p, None, torch.tensor([1., 2., 3.], dtype=torch.float64), red); v(r.sum())
    r = torch.cosine_embedding_loss(a, b, y, 0.1, red); v(r.sum())
    r = torch.hinge_embedding_loss(a, torch.sign(b), 0.5, red); v(r.sum())
    r = torch.margin_ranking_loss(a, b, torch.sign(b), 0.2, red); v(r.sum())
    r = torch.triplet_margin_loss(a, b, p, 1.0, 2., 1e-6, True, red); v(r.sum())
    r = torch.poisson_nll_loss(a, p, True, True, 1e-8, red); v(r.sum())
    r = torch.poisson_nll_loss(a.abs(), p, False, False, 1e-8, red); v(r.sum())
r = torch.cosine_similarity(a, b); g(r); print(r); r = torch.pairwise_distance(a, b, 1.5); print(r.grad_fn.name(), r)
t(lambda: torch.kl_div(a, p, 'mean')); t(lambda: torch.poisson_nll_loss(a, p)); t(lambda: torch.cosine_similarity(a, b, dim=2))
""")

# ---- pdist and the linear algebra torch keeps ------------------------------------------------------------

snip("pdist", """
x = torch.tensor([[1., 2., 0.5], [0., -1., 3.], [2., 2., 2.], [1., 2., 0.5]], dtype=torch.float64, requires_grad=True)
for p in (0., 1., 2., 3., 0.5, inf):
    r = torch.pdist(x, p); g(r); print(p, r); r.sum().backward(); print(x.grad); x.grad = None
t(lambda: torch.pdist(torch.ones(1, 3))); t(lambda: torch.pdist(torch.ones(0, 3))); t(lambda: torch.pdist(torch.ones(3)))
t(lambda: torch.pdist(torch.ones(3, 2), -1)); t(lambda: torch.pdist(torch.ones(3, 2, dtype=torch.int64)))
t(lambda: torch.nn.functional.pdist(x.detach()))
""")

snip("old_linalg", """
m = torch.tensor([[2., 1., 0.5], [0., 3., 1.], [1., -1., 4.], [0.5, 0.5, 0.5]], dtype=torch.float64, requires_grad=True)
r = torch.pinverse(m); g(r); print(r); r = m.pinverse(rcond=0.5); print(r); t(lambda: torch.pinverse(torch.ones(3)))
q = torch.qr(m); print(type(q).__name__, q.Q.shape, q.R.shape); g(q.R)
q = m.qr(some=False); print(q.Q.shape, q.R.shape); t(lambda: torch.qr(torch.ones(2)))
o = (torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.float64)); r = torch.qr(m.detach(), out=o)
print(type(r).__name__, r[0] is o[0], o[1].shape)
t(lambda: torch.frobenius_norm(m, (0, 1))); t(lambda: torch.frobenius_norm(m, 1, True)); t(lambda: torch.frobenius_norm(m, (0, 1, 1)))
t(lambda: torch.frobenius_norm(m, ())); t(lambda: torch.frobenius_norm(torch.ones(2, 2, dtype=torch.int64), (0, 1)))
r = torch.frobenius_norm(m, (0, 1)); g(r); r.backward(); print(m.grad); m.grad = None
r = torch.frobenius_norm(m, [1]); r.sum().backward(); print(m.grad); m.grad = None
t(lambda: torch.nuclear_norm(m)); t(lambda: torch.nuclear_norm(m.detach(), (1, 0), True)); t(lambda: torch.nuclear_norm(m, (0,)))
t(lambda: torch.nuclear_norm(torch.ones(3))); r = torch.nuclear_norm(m); g(r)
""")


@pytest.mark.parametrize("code", SNIPPETS)
def test_parity(code):
    # torch's deprecation warnings come once per process (TORCH_WARN_ONCE), and so do minitorch's; another
    # test file in this process (the leak checks) may have called minitorch's deprecated functions first, which
    # torch's never were here, so minitorch's record of those warnings starts afresh
    from minitorch import _composite, _top_level

    _composite._warned.difference_update({_top_level._QR_DEPRECATED, _top_level._FROBENIUS_DEPRECATED,
                                          _top_level._NUCLEAR_DEPRECATED})
    compare(code)


DEVICE_SNIPPET = """
x = torch.tensor([[1., 2., 0.5], [0., -1., 3.], [2., 2., 2.]], device=DEV, dtype=torch.float64, requires_grad=True)
y = torch.tensor([0.5, -1., 1.], device=DEV, dtype=torch.float64)
r = torch.dist(x, y, 3); print(r.grad_fn.name(), r.detach().cpu()); r.backward(); print(x.grad.cpu()); x.grad = None
r = torch.pdist(x); print(r.grad_fn.name(), r.detach().cpu()); r.sum().backward(); print(x.grad.cpu()); x.grad = None
b = x * 1; b.cumsum_(1); b.sum().backward(); print(x.grad.cpu()); x.grad = None
print(torch.asarray(x, copy=False) is x, torch.asarray(x.detach(), device='cpu').device)
print(torch.fill(x, 2.).detach().cpu(), torch.scalar_tensor(3, device=DEV).device.type == DEV.split(':')[0], torch.get_device(x) >= 0 or DEV == 'cpu')
print(torch.channel_shuffle(torch.arange(6., device=DEV).view(1, 6, 1), 3).cpu().flatten())
"""


def test_device(device):
    compare_on(device, DEVICE_SNIPPET)
