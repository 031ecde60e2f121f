"""Leak checks: every op family run thousands of times leaves memory and reference counts as it found them.

A learner's notebook runs the same cell again and again; a leak of one tensor header per call is an
out-of-memory after an afternoon. Each family below (creation, views, indexing, setitem, elementwise,
reductions, matmul, addmm, moves between devices, repr, tolist, nn forward, reference cycles through
tensor attributes, raised errors) is one function that does a round of typical calls. The checks:

- ``test_rss_flat``: after a warm-up, thousands of rounds leave the resident set size
  (/proc/self/statm) flat. Tensors are a few KiB so that a leaked storage shows. Deselected under
  scripts/sanitize.sh: ASan's quarantine keeps freed memory resident on purpose.
- ``test_tracemalloc_flat``: the Python allocator (objects, PyMem blocks, storage headers) is flat.
- ``test_refcounts``: sys.getrefcount of every input (tensors, lists, tuples, dtypes, devices, the
  module objects) is unchanged after many rounds, for successful calls and for calls that raise.
- ``test_simulated_gpu``: the same families on the simulated GPU, in a subprocess with
  MINITORCH_SIMULATE_GPU=1: ``memory_allocated()`` back to its baseline after every family, and the
  reference counts unchanged.

This file runs as a script too (``python tests/test_leaks.py gpu``): that is the subprocess.
"""

import copy
import gc
import io
import os
import sys
import tracemalloc
import warnings

import minitorch as torch
from subproc import run_file_on_simulated_gpu

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


class Inputs:
    """Everything a round touches, made once, so that its reference counts can be watched."""

    def __init__(self, device):
        torch.manual_seed(0)
        self.device = device
        self.dev = torch.device(device)
        self.x = torch.randn(32, 32, device=device)          # 4 KiB: a leaked storage shows in RSS
        self.y = torch.randn(32, 32, device=device)
        self.v = torch.randn(32, device=device)
        self.b = torch.randn(4, 32, 8, device=device)
        self.b4 = torch.randn(2, 8, 4, 4, device=device)
        self.i = torch.arange(32, device=device)
        self.idx = torch.tensor([0, 3, 31], device=device)
        self.mask = self.x > 0
        self.nc = self.x.t()
        self.w = torch.randn(16, 32, device=device)
        self.bias = torch.randn(16, device=device)
        self.data = [[1.5, 2.5, 3.5], [4.0, 5.0, 6.0]]
        self.shape = (8, 128)
        self.float32 = torch.float32
        self.int64 = torch.int64
        self.linear = torch.nn.Linear(32, 16).to(device)
        self.seq = torch.nn.Sequential(torch.nn.Linear(32, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)).to(device)

    def watched(self):
        """(name, object) pairs whose refcounts must not change."""
        names = ["dev", "x", "y", "v", "b", "b4", "i", "idx", "mask", "nc", "w", "bias", "data", "shape", "float32",
                 "int64", "linear", "seq"]
        pairs = [(n, getattr(self, n)) for n in names]
        pairs += [("data[0]", self.data[0]), ("linear.weight", self.linear.weight), ("torch.Tensor", torch.Tensor)]
        return pairs


def creation(s):
    d = s.device
    torch.tensor(s.data, device=d)
    torch.tensor(s.data, dtype=torch.float64, device=d)
    torch.tensor(3.5, device=d)
    torch.tensor([True, False], device=d)
    torch.zeros(s.shape, device=d)
    torch.ones(8, 128, dtype=s.int64, device=d)
    torch.empty(1024, device=d)
    torch.full((32, 32), 2.5, device=d)
    torch.arange(0, 1000, 3, device=d)
    torch.eye(32, device=d)
    torch.rand(32, 32, device=d)
    torch.randn(1024, device=d)
    torch.randint(0, 10, (32, 32), device=d)
    torch.zeros_like(s.x)
    torch.ones_like(s.x, dtype=s.int64)
    torch.full_like(s.x, 7)
    torch.rand_like(s.x)
    torch.randn_like(s.x)
    torch.empty_like(s.nc)
    torch.zeros(0, 3, device=d)


def views(s):
    x = s.x
    x.view(16, 64)
    x.view(-1)
    x.reshape(64, 16)
    s.nc.reshape(-1)          # a copy
    x.t()
    x.T
    x.transpose(0, 1)
    x.permute(1, 0)
    x.unsqueeze(0).squeeze(0)
    x.flatten()
    x.unflatten(1, (4, 8))
    s.v.expand(4, 32)
    x.narrow(0, 2, 5)
    x.select(1, 3)
    x.unbind(0)
    x.chunk(3)
    x.split(5, 1)
    x.split([16, 16])
    s.nc.contiguous()
    x.clone()
    x.detach()
    x.data
    torch.cat([x, s.y], 1)
    torch.stack([x, s.y])
    torch.hstack([s.v, s.v])
    torch.vstack([s.v, s.v])
    torch.broadcast_to(s.v, (3, 32))
    x.shape, x.size(), x.stride(), x.size(1), x.device, x.dtype


def indexing(s):
    x = s.x
    x[0]
    x[1:30:3]
    x[None, ..., 0]
    x[:, -1]
    x[s.idx]
    x[s.mask]
    x[[0, 2, 4]]
    x[s.idx, s.idx]
    x[..., s.idx]
    x[s.i > 16]
    x[torch.tensor(3)]


def setitem(s):
    z = s.x.clone()
    z[0] = 1.5
    z[1:3] = s.y[1:3]
    z[s.mask] = 0.0
    z[s.idx] = s.v
    z[:, 0] = s.v
    z[..., 1] = 2
    z[s.idx, s.idx] = torch.tensor(9.0, device=s.device)
    z[z > 1] = s.y[z > 1]
    # the index writes as functions and methods (index_fill, index_copy, index_put) and their in-place forms
    s.x.index_fill(1, s.idx, 2.0)
    z.index_fill_(0, s.idx, torch.tensor(3.0, device=s.device))
    s.x.index_copy(0, s.idx, s.y[:3])
    z.index_copy_(1, s.idx, s.nc[:, :3])
    s.x.index_put((s.idx, s.idx), s.v[:3])
    z.index_put_((s.mask,), torch.tensor(1.0, device=s.device))


def elementwise(s):
    x, y = s.x, s.y
    x + y, x - y, x * y, x / y
    x + 1, 2 - x, x * 2.5, 1 / (x.abs() + 1)
    x + s.v                    # broadcasting
    s.i + x                    # type promotion
    z = x.clone()
    z += y
    z -= 1
    z *= s.v
    z /= 3
    z.add_(y, alpha=2)
    torch.add(x, y, alpha=0.5)
    -x, abs(x), x.neg(), x.exp(), x.abs().log(), x.abs().sqrt(), x.relu(), x.reciprocal()
    torch.maximum(x, y), torch.minimum(x, y)
    x < y, x <= 0, x == y, x != 1, x > s.v, x >= y
    (x > 0) == (y > 0)
    s.i * 2, s.i // 1 if hasattr(s.i, "__floordiv__") else None


def bitwise(s):
    x, i, m = s.x, s.i, s.mask
    i & 3, i | i, i ^ True, ~i, i << 2, 1 << (i % 8), 1024 >> i, i >> 1, m & m, ~m, True | m
    z = i.clone()
    z &= 5
    z |= 1
    z ^= i
    z <<= 1
    z >>= 2
    torch.logical_and(x, m), torch.logical_or(x, s.nc), torch.logical_xor(m, s.v), x.logical_not()
    x.clone().logical_and_(m), x.clone().logical_not_()
    x.isnan(), x.isinf(), x.isfinite(), x.isposinf(), x.isneginf(), x.isreal(), i.isnan(), m.isinf()
    torch.nan_to_num(x / 0), x.clone().nan_to_num_(1.0, 2.0, -2.0), i.nan_to_num()
    w = s.nc.clone().requires_grad_()
    torch.nan_to_num(w / 0, 1.0).sum().backward()
    for bad in (lambda: x & 1, lambda: ~x, lambda: i.clone().bitwise_and_(1.5), lambda: m << m,
                lambda: x.expand(2, 32, 32).nan_to_num_()):
        try:
            bad()
        except (RuntimeError, TypeError, NotImplementedError):
            pass


def reductions(s):
    x = s.x
    x.sum(), x.mean(), x.sum(0), x.mean(1, keepdim=True), x.sum((0, 1))
    x.max(), x.min(), x.max(0), x.min(1, keepdim=True)
    x.argmax(), x.argmin(1)
    s.mask.all(), s.mask.any(0)
    s.i.sum(), s.b.sum(2)
    torch.sum(x, dim=1), torch.max(x, 1).values, torch.max(x, 1).indices


def matmul(s):
    x, y = s.x, s.y
    x @ y
    x.mm(y)
    torch.matmul(x, s.v)
    torch.mv(x, s.v)
    torch.dot(s.v, s.v)
    torch.bmm(s.b, s.b.transpose(1, 2))
    torch.matmul(s.b.transpose(1, 2), s.b)
    s.nc @ y
    if s.device == "cpu":   # integer matmul is CPU-only, as in torch
        s.i.view(4, 8) @ s.i.view(8, 4)


def addmm(s):
    torch.addmm(s.bias, s.x[:8], s.w.t())
    torch.addmm(s.bias, s.x[:8], s.w.t(), beta=0.5, alpha=2)
    s.bias.addmm(s.x[:16, :16], s.w[:, :16].t())


def moves(s):
    x = s.x
    x.to(torch.float64)
    x.to(s.int64)
    x.double(), x.float(), x.long(), x.int(), x.bool()
    x.cpu()
    x.to("cpu")
    x.to(x)
    x.to(s.device)
    x.to(s.dev, torch.float64, copy=True)
    x.type_as(s.i)
    x.type(), x.type(torch.float64), x.type("torch.LongTensor")
    s.b4.contiguous(memory_format=torch.channels_last)
    s.b4.clone(memory_format=torch.channels_last).to(memory_format=torch.contiguous_format)
    s.b4.float(memory_format=torch.channels_last).is_contiguous(memory_format=torch.channels_last)
    torch.empty_like(s.b4, memory_format=torch.channels_last)
    torch.rand_like(s.b4.permute(0, 2, 3, 1))
    if torch.cuda.is_available():
        c = x.cuda()
        c.cpu()
        c.to("cpu", torch.float64)
        x.to("cuda")
        c.cuda()


def repr_family(s):
    repr(s.x)
    str(s.v)
    repr(s.mask)
    repr(s.i)
    repr(torch.zeros(0, 3, device=s.device))
    repr(torch.arange(2000, device=s.device))
    format(s.x[0, 0], ".3f")
    repr(s.x.shape), repr(s.dev), repr(s.x.dtype)


def tolist_family(s):
    s.x.tolist()
    s.i.tolist()
    s.mask.tolist()
    s.nc.tolist()
    s.x[0, 0].item()
    float(s.x[0, 0]), int(s.i[3]), bool(s.mask[0, 0])
    list(s.v)
    len(s.x)


def nn_forward(s):
    s.linear(s.x)
    with s.linear.register_forward_pre_hook(lambda m, args: None), s.linear.register_forward_hook(lambda m, a, o: o):
        s.linear(s.x)
    with torch.no_grad(), torch.set_grad_enabled(True):
        s.linear(s.v)
    s.seq(s.x)
    torch.nn.functional.linear(s.x, s.w, s.bias)
    torch.nn.functional.relu(s.x)
    s.linear.weight @ s.x.t()
    list(s.seq.parameters())
    s.linear.state_dict()


def cycles(s):
    # reference cycles through tensor attributes: collected by the garbage collector, as in torch
    lin = torch.nn.Linear(4, 4).to(s.device)
    lin.weight.owner = lin
    p = torch.nn.Parameter(s.v.clone())
    p.me = p
    t = s.x[0].clone()
    t.pair = [t, s.w.t()]
    t.__dict__["self"] = t


class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2 * x


def autograd(s):
    # recording, backward, .grad, hooks, retain_grad, autograd.grad, custom Functions, and the errors
    out = s.seq(s.x).relu().mean() + s.linear(s.x).sum()
    out.backward()
    for p in list(s.seq.parameters()) + list(s.linear.parameters()):
        p.grad = None
    w = s.v.clone().requires_grad_()
    h = w.register_hook(lambda g: g * 2)
    mid = w * s.v
    mid.retain_grad()
    (mid * mid).sum().backward(retain_graph=False)
    h.remove()
    torch.autograd.grad((w.exp() * s.v).sum(), w, create_graph=True)[0].sum().backward()
    _Square.apply(w).sum().backward()
    y = (w * w).sum()
    y.backward()
    for bad in (lambda: y.backward(), lambda: (w * 2).backward(), lambda: w.add_(1)):
        try:
            bad()
        except RuntimeError:
            pass
    x = w[1:].t().reshape(-1).unsqueeze(0).expand(3, -1)
    torch.cat([x, x]).unbind(0)[0].sum().backward()
    # autograd.functional and the in-place activations' nodes (a saved result, a view's CopySlices,
    # double backward); anomaly mode is its own family below
    torch.autograd.functional.jacobian(lambda a: a.exp() * a, s.v[:4])
    torch.autograd.functional.hvp(lambda a: (a.pow(3)).sum(), s.v[:4], s.v[4:8])
    torch.autograd.functional.jvp(lambda a: a.sin(), s.v[:4], s.v[4:8], create_graph=True)
    y = w * 1.0
    torch.nn.functional.silu(y, inplace=True)
    torch.nn.functional.elu(y[2:], inplace=True)
    leaky = torch.nn.functional.leaky_relu_(w * 1.0, 0.1)
    g, = torch.autograd.grad(y.pow(2).sum() + leaky.sum(), w, create_graph=True)
    g.sum().backward()



def anomaly(s):
    # anomaly mode: forward stacks, the failing node's warning, the NaN check, double backward
    w = s.v[:8].clone().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            z = (w * w + 1).sqrt()
            g, = torch.autograd.grad(z.sum(), w, create_graph=True)
            try:
                (w / (w * 0)).sum().backward()
            except RuntimeError:
                pass
            _Square.apply(g).sum().backward()


ERROR_CALLS = [
    lambda s: s.x @ s.v.view(2, 16),
    lambda s: s.x.view(7, -1),
    lambda s: s.nc.view(-1),
    lambda s: s.x[40],
    lambda s: s.x.index_fill(1, s.idx + 40, 2.0),
    lambda s: s.x.index_copy(0, s.idx, s.y[:2]),
    lambda s: s.x.index_put((s.idx,), s.v.double()),
    lambda s: s.x[s.i + 100],
    lambda s: s.x[object()],
    lambda s: s.x + s.b,
    lambda s: s.x.sum(5),
    lambda s: torch.zeros(-1, device=s.device),
    lambda s: torch.zeros(2 ** 62, 4, device=s.device),
    lambda s: torch.tensor([[1, 2], [3]], device=s.device),
    lambda s: torch.tensor(s.data, dtype=object),
    lambda s: s.x.to("cuda:99"),
    lambda s: s.x.to("gpu"),
    lambda s: torch.addmm(s.bias, s.x, s.w),
    lambda s: s.linear(s.v[:5]),
    lambda s: s.x.expand(3, 3),
    lambda s: s.x.permute(0, 0),
    lambda s: torch.cat([s.x, s.v]),
    lambda s: s.x.reshape(1, 2, 3),
    lambda s: s.x.unsqueeze(5),
    lambda s: torch.ones([1] * 65),
    lambda s: s.x.__setitem__(0, "a"),
    lambda s: s.x.__setitem__(s.idx, s.y),
    lambda s: s.x.split([1, 2]),
    lambda s: s.x.item(),
    lambda s: bool(s.x),
    lambda s: s.x.uniform_(2, 1),
    lambda s: torch.randint(5, 1, (3,)),
    lambda s: s.x.size(1, 2),
    lambda s: torch.device("cuda", -1),
    lambda s: torch.device("cuda", 300),
    lambda s: s.x.contiguous(memory_format=torch.channels_last),
    lambda s: s.x.clone(memory_format=1),
    lambda s: s.x.type("torch.NoTensor"),
    lambda s: torch.empty(2, memory_format=torch.preserve_format),
    lambda s: torch.nn.functional.linear(s.x[0, 0], s.w),
]


def errors(s):
    for call in ERROR_CALLS:
        try:
            call(s)
        except Exception:  # every one must raise; which is checked by test_every_error_call_raises
            pass


def linalg(s):
    # 32 x 32 matrices (4 KiB: a leaked host copy shows in RSS), every result and named tuple, the errors
    x, nc = s.x, s.nc
    torch.linalg.det(x), torch.linalg.slogdet(nc), torch.logdet(x), torch.linalg.inv(x), torch.linalg.inv_ex(nc)
    torch.linalg.solve(x, s.v), torch.linalg.solve(nc, s.y, left=False), torch.linalg.solve_ex(x, s.b[0, :, :1])
    torch.linalg.svd(x[:8]), torch.linalg.svdvals(s.b), torch.svd(s.w), torch.linalg.qr(x, mode="complete")
    torch.linalg.eigh(x[:8, :8]), torch.linalg.eigvalsh(nc[:4, :4]), torch.linalg.matrix_norm(x[:6, :6], "nuc")
    w = x[:6, :6].clone().requires_grad_()
    (torch.linalg.det(w) + torch.linalg.inv(w).sum() + torch.linalg.svdvals(w).sum()
     + torch.linalg.eigvalsh(w).sum() + torch.linalg.qr(w).R.sum()).backward()
    spd = x @ x.t() + 32 * torch.eye(32, device=s.dev)
    L = torch.linalg.cholesky(spd)
    torch.linalg.cholesky_ex(nc.t() @ nc + torch.eye(32, device=s.dev), upper=True)
    torch.linalg.solve_triangular(L, s.b[0], upper=False), torch.linalg.solve_triangular(nc, x, upper=True, left=False)
    torch.cholesky_solve(x, L), torch.cholesky_inverse(L)
    l6 = L[:6, :6].clone().requires_grad_()
    (torch.linalg.cholesky(l6 @ l6.t()).sum() + torch.cholesky_solve(x[:6], l6).sum()
     + torch.linalg.solve_triangular(l6, x[:6], upper=False).sum() + torch.cholesky_inverse(l6).sum()).backward()
    for bad in (lambda: torch.linalg.inv(torch.zeros(3, 3, device=s.dev)), lambda: torch.linalg.det(s.i),
                lambda: torch.linalg.solve(x, s.w), lambda: torch.linalg.svd(x / 0 * 0),
                lambda: torch.linalg.eigh(x, UPLO="X"), lambda: torch.linalg.qr(x, mode="x"),
                lambda: torch.linalg.cholesky(-spd), lambda: torch.linalg.cholesky_ex(x, check_errors=True),
                lambda: torch.linalg.solve_triangular(x, s.w, upper=True), lambda: torch.cholesky_solve(s.v, L)):
        try:
            bad()
        except (RuntimeError, NotImplementedError):
            pass


def linalg_lu(s):
    # the LU family on 32 x 32 matrices and a batch: every result, named tuple and node, the errors
    x, nc = s.x, s.nc
    LU, piv = torch.linalg.lu_factor(x)
    torch.linalg.lu_factor_ex(nc), torch.linalg.lu(s.b), torch.linalg.lu(x[:8]), torch.lu_unpack(LU, piv)
    torch.linalg.lu_solve(LU, piv, s.b[0]), torch.linalg.lu_solve(LU, piv, nc, left=False, adjoint=True)
    torch.lu_unpack(LU, piv, unpack_data=False), torch.lu_unpack(LU[:, :8], piv[:8], unpack_pivots=False)
    w = x[:6, :6].clone().requires_grad_()
    LU6, piv6 = torch.linalg.lu_factor(w)
    P, L, U = torch.linalg.lu(w)
    (LU6.sum() + L.sum() + U.sum() + torch.linalg.lu_solve(LU6, piv6, w).sum()
     + torch.lu_unpack(LU6, piv6).U.sum()).backward()
    for bad in (lambda: torch.linalg.lu_factor(torch.zeros(3, 3, device=s.dev)), lambda: torch.linalg.lu(s.i),
                lambda: torch.linalg.lu_factor(x, pivot=False) if x.device.type == "cpu" else torch.linalg.lu(s.v),
                lambda: torch.lu_unpack(LU, piv + 100), lambda: torch.lu_unpack(LU, piv.long()),
                lambda: torch.linalg.lu_solve(LU, piv, s.w), lambda: torch.linalg.lu_solve(LU, piv[:3], x)):
        try:
            bad()
        except (RuntimeError, NotImplementedError):
            pass


def linalg_ldl(s):
    # householder_product (with its node and backward), geqrf, ormqr (its backward, double backward too) and
    # the LDL family on 32 x 32 matrices and a batch,
    # their named tuples, NotImplemented nodes and errors
    x, nc = s.x, s.nc
    LD, piv = torch.linalg.ldl_factor(x + nc)
    torch.linalg.ldl_factor_ex(s.b4), torch.linalg.ldl_factor_ex(nc, hermitian=True)
    torch.linalg.ldl_solve(LD, piv, s.b[0]), torch.linalg.ldl_solve(LD, piv.long(), nc)
    torch.linalg.householder_product(s.b, s.b[..., 0, :4]), torch.orgqr(nc, s.v[:16]), x.orgqr(s.v)
    a, tau = torch.geqrf(x + nc)
    torch.ormqr(a, tau, nc), a.ormqr(tau, s.b[0].mT, left=False, transpose=True)
    torch.geqrf(s.b, out=(torch.empty(0, device=s.dev), torch.empty(0, device=s.dev)))
    c = nc.clone().requires_grad_()
    torch.ormqr(a, tau, c).sum().backward()
    torch.autograd.grad(torch.ormqr(a, tau, c).pow(3).sum(), c, create_graph=True)[0].sum().backward()
    w = x[:6, :4].clone().requires_grad_()
    tau = s.v[:3].clone().requires_grad_()
    torch.linalg.householder_product(w, tau).sum().backward()
    torch.linalg.ldl_factor_ex(w[:4]).LD.sum()
    for bad in (lambda: torch.linalg.ldl_factor(torch.zeros(3, 3, device=s.dev)), lambda: torch.linalg.ldl_factor(s.i),
                lambda: torch.linalg.ldl_solve(LD, piv + 100, x), lambda: torch.linalg.ldl_solve(LD, piv.float(), x),
                lambda: torch.linalg.ldl_solve(LD, piv[:3], x), lambda: torch.linalg.householder_product(s.w, s.v),
                lambda: torch.linalg.householder_product(x, s.v.double()), lambda: torch.geqrf(s.v),
                lambda: torch.ormqr(a, tau[:2], nc), lambda: torch.ormqr(a, tau, s.i),
                lambda: torch.geqrf(x.clone().requires_grad_())[0].sum().backward(),
                lambda: torch.linalg.ldl_factor_ex(w[:4]).LD.sum().backward()):
        try:
            bad()
        except (RuntimeError, NotImplementedError):
            pass


def stft_lowrank(s):
    # stft's frames and DFT (a batch, a window, no centre; the backward), the low-rank SVD and PCA, their errors
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.stft(s.v, 8, return_complex=False)
        torch.stft(s.x, 16, hop_length=3, window=s.w[0, :12], win_length=12, normalized=True, return_complex=False)
        s.nc.stft(8, center=False, onesided=False, pad_mode="constant", return_complex=False)
        w = s.x[:2].clone().requires_grad_()
        torch.stft(w, 8, return_complex=False).pow(2).sum().backward()
        torch.svd_lowrank(s.x, q=4), torch.svd_lowrank(s.nc[:8], q=3, niter=1, M=s.v)
        torch.pca_lowrank(s.b, q=2), torch.pca_lowrank(s.w, center=False)
        for bad in (lambda: torch.stft(s.v, 8), lambda: torch.stft(s.v, 8, return_complex=True),
                    lambda: torch.stft(s.i, 8, return_complex=False), lambda: torch.stft(s.b4, 2, return_complex=False),
                    lambda: torch.stft(s.v, 8, window=s.v, return_complex=False), lambda: torch.istft(s.x, 8),
                    lambda: torch.pca_lowrank(s.x, q=-1), lambda: torch.svd_lowrank(s.x, M=s.w)):
            try:
                bad()
            except (RuntimeError, NotImplementedError, ValueError):
                pass


def linalg_extras(s):
    # minitorch/_linalg_extras.py's composites: every result and named tuple, their backward, the errors
    x, nc = s.x[:8, :8], s.nc[:8, :8]
    torch.linalg.matmul(x, s.v[:8]), torch.linalg.diagonal(s.b, offset=1), torch.linalg.vecdot(x, nc)
    torch.linalg.tensorinv(x.reshape(8, 2, 4), ind=1), torch.linalg.tensorsolve(nc.reshape(2, 4, 8), s.v[:8].view(2, 4))
    torch.linalg.cond(x), torch.linalg.cond(nc, 1), torch.linalg.cond(x, "nuc"), torch.linalg.cond(torch.zeros(2, 2))
    torch.linalg.matrix_exp(x * 0.01), torch.matrix_exp(torch.stack([x, nc]) * 0.3), nc.matrix_exp()
    torch.linalg.lstsq(s.x[:, :6], s.b[0]), torch.linalg.lstsq(nc[:, :5], s.v[:8])
    w = x[:4, :4].clone().requires_grad_()
    (torch.linalg.matrix_exp(w).sum() + torch.linalg.lstsq(w, x[:4, :2]).solution.sum() + torch.linalg.cond(w)
     + torch.linalg.tensorinv(w, ind=1).sum() + torch.linalg.vecdot(w, w).sum()).backward()
    for bad in (lambda: torch.linalg.matrix_exp(s.v), lambda: torch.linalg.cond(x, 3),
                lambda: torch.linalg.tensorinv(torch.zeros(2, 2, device=s.dev), ind=1),
                lambda: torch.linalg.tensorsolve(x, s.v), lambda: torch.linalg.lstsq(x, s.v, driver="x"),
                lambda: torch.linalg.vecdot(x, s.i), lambda: torch.linalg.eig(x)):
        try:
            bad()
        except (RuntimeError, NotImplementedError):
            pass


def more_names(s):
    # dist, pdist, asarray and minitorch/_top_level.py's names: results, nodes, backward, the errors
    x, nc = s.x[:6, :5], s.nc[:6, :5]
    w = x.clone().requires_grad_()
    (torch.dist(w, nc, 3) + torch.pdist(w).sum() + torch.fill(w, 2.).sum()
     + sum(p.sum() for p in torch.split_with_sizes(w, [2, 4])) + torch.frobenius_norm(w, (0, 1))).backward()
    c = w * 1
    c.cumsum_(1)
    c.cumprod_(0)
    c.addmm_(x, torch.ones(5, 5, device=s.dev))
    c.sum().backward()
    torch.asarray(x), torch.asarray(nc, copy=True), torch.asarray(x, dtype=torch.float64), torch.asarray([1, 2])
    torch.asarray(bytearray(8), dtype=torch.float32), torch.scalar_tensor(3, device=s.dev)
    torch.channel_shuffle(s.b.reshape(2, 4, -1), 2), torch.is_same_size(x, nc), torch.resolve_conj(x)
    for bad in (lambda: torch.dist(s.i, s.i), lambda: torch.asarray([1], copy=False),
                lambda: torch.asarray(x, dtype=torch.float64, copy=False), lambda: torch.imag(x),
                lambda: torch.pdist(s.v), lambda: torch.channel_shuffle(x, 4), lambda: x.clone().cumsum_(9)):
        try:
            bad()
        except (RuntimeError, ValueError, IndexError):
            pass


def memory_kinds(s):
    # shared memory (share_memory_ in place, under exported arrays that keep the old bytes), inference tensors
    # and their refusals
    x = s.x.cpu().clone()
    a = x.numpy()
    x.share_memory_()
    x.is_shared(), torch.zeros(64, device=s.dev).share_memory_()
    y = torch.ones(1000)
    view = memoryview(y)
    y.resize_(5000)
    del a, view
    with torch.inference_mode():
        z = s.x * 2
        z.add_(1)
    w = s.x.clone().requires_grad_()
    for bad in (lambda: z.add_(1), lambda: z._version, lambda: z.requires_grad_(), lambda: (w * z).sum(),
                lambda: x.resize_(10 ** 6)):
        try:
            bad()
        except RuntimeError:
            pass


def storages(s):
    # storage objects (minitorch/storage.py): slices over exported bytes, set_ in its forms (the storage
    # grown), resizes, typed views, deep copies and files; in-place views of many dims (their geometry on the heap)
    x = s.x.clone()
    u = x.untyped_storage()
    part = u[4:12]
    part[0] = 1
    grown = torch.zeros(4).untyped_storage()
    grown.resize_(grown.nbytes() + 64)
    grown.resize_(8)
    t = x.storage()
    t.tolist(), t.float(), u.clone(), repr(part), x.storage_type()
    y = torch.zeros(2, device=s.dev).set_(s.x.untyped_storage(), 1, (2, 2))
    torch.zeros(2).set_(torch.ones(3).untyped_storage(), 1, (5,)), y.is_set_to(y)
    torch.zeros(2, device=s.dev).set_(s.x), torch.zeros(2).set_(), torch.Tensor(torch.FloatStorage([1, 2]))
    copy.deepcopy([x, u])
    buf = io.BytesIO()
    torch.save([u, torch.tensor([1, 2]).storage()], buf)
    torch.load(io.BytesIO(buf.getvalue()))
    data = bytearray(16)
    torch.frombuffer(data, dtype=torch.int32, offset=4).fill_(1), torch.frombuffer(b"\x01\x02", dtype=torch.uint8)
    torch.asarray(data, dtype=torch.int16), torch.frombuffer(data, dtype=torch.int64, offset=3, count=1)
    many = torch.zeros(1, 1, 1, 1, 1, 1, 1, 2)
    many.unsqueeze_(0).squeeze_(0).t_() if many.dim() <= 2 else many.unsqueeze_(0).squeeze_(0)
    for bad in (lambda: torch.zeros(2).set_(torch.zeros(2, dtype=torch.int64)), lambda: u[100],
                lambda: torch.zeros(2, requires_grad=True).set_(x), lambda: torch.UntypedStorage([1.5]),
                lambda: torch.zeros(3).set_(torch.zeros(2).untyped_storage(), 0, (3,)),
                lambda: torch.frombuffer(data, dtype=torch.int16, count=99),
                lambda: torch.frombuffer(5, dtype=torch.int16),
                lambda: torch.frombuffer(memoryview(data)[::2], dtype=torch.uint8)):
        try:
            bad()
        except (RuntimeError, IndexError, ValueError):
            pass


FAMILIES = {
    "creation": creation,
    "views": views,
    "indexing": indexing,
    "setitem": setitem,
    "elementwise": elementwise,
    "reductions": reductions,
    "matmul": matmul,
    "addmm": addmm,
    "moves": moves,
    "repr": repr_family,
    "tolist": tolist_family,
    "nn_forward": nn_forward,
    "cycles": cycles,
    "errors": errors,
    "autograd": autograd,
    "anomaly": anomaly,
    "bitwise": bitwise,
    "linalg": linalg,
    "stft_lowrank": stft_lowrank,
    "linalg_extras": linalg_extras,
    "linalg_lu": linalg_lu,
    "more_names": more_names,
    "linalg_ldl": linalg_ldl,
    "memory_kinds": memory_kinds,
    "storages": storages,
}
# rounds per check: the cheap families run more often so that every check sees thousands of calls
ROUNDS = {"repr": 300, "errors": 300, "nn_forward": 1000, "creation": 500, "cycles": 500, "autograd": 300,
          "anomaly": 300, "linalg": 200, "stft_lowrank": 200, "linalg_extras": 200, "linalg_lu": 200,
          "more_names": 200, "linalg_ldl": 200, "memory_kinds": 300,
          "storages": 300}
DEFAULT_ROUNDS = 1000


def refcounts(pairs):
    return {name: sys.getrefcount(obj) for name, obj in pairs}


def check_refcounts(family, s, rounds=200):
    fn = FAMILIES[family]
    fn(s)
    gc.collect()
    before = refcounts(s.watched())
    for _ in range(rounds):
        fn(s)
    gc.collect()
    after = refcounts(s.watched())
    return {name: (before[name], after[name]) for name in before if before[name] != after[name]}


# ---- pytest ------------------------------------------------------------------------------------------

if __name__ != "__main__":
    import pytest

    @pytest.fixture(scope="module")
    def cpu_inputs():
        return Inputs("cpu")

    @pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc/self/statm (Linux)")
    @pytest.mark.parametrize("family", sorted(FAMILIES))
    def test_rss_flat(family, cpu_inputs):
        fn = FAMILIES[family]
        rounds = ROUNDS.get(family, DEFAULT_ROUNDS)
        for _ in range(rounds // 4):   # warm-up: allocator caches, lazily built tables
            fn(cpu_inputs)
        gc.collect()
        before = rss_bytes()
        for _ in range(rounds):
            fn(cpu_inputs)
        gc.collect()
        growth = rss_bytes() - before
        # a leaked 4 KiB storage per round would be >= 1.2 MiB here
        assert growth < 1 << 20, "%s: RSS grew by %d bytes over %d rounds" % (family, growth, rounds)

    @pytest.mark.parametrize("family", sorted(FAMILIES))
    def test_tracemalloc_flat(family, cpu_inputs):
        fn = FAMILIES[family]
        rounds = max(100, ROUNDS.get(family, DEFAULT_ROUNDS) // 5)
        for _ in range(20):
            fn(cpu_inputs)
        gc.collect()
        tracemalloc.start()
        try:
            for _ in range(10):
                fn(cpu_inputs)
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(rounds):
                fn(cpu_inputs)
            gc.collect()
            growth = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        # one leaked tensor object (~200 bytes) per round would be >= 20 KB
        assert growth < 16384, "%s: the Python allocator grew by %d bytes over %d rounds" % (family, growth, rounds)

    @pytest.mark.parametrize("family", sorted(FAMILIES))
    def test_refcounts(family, cpu_inputs):
        changed = check_refcounts(family, cpu_inputs)
        assert not changed, "%s: reference counts changed (before, after): %r" % (family, changed)

    def test_every_error_call_raises(cpu_inputs):
        """The errors family exercises raised errors only if each call does raise."""
        for k, call in enumerate(ERROR_CALLS):
            with pytest.raises(Exception):
                call(cpu_inputs)

    def test_cycles_through_attributes_are_collected():
        """A module whose parameter points back at it, a tensor in its own __dict__: gc frees them."""
        import weakref

        lin = torch.nn.Linear(256, 256)
        lin.weight.owner = lin
        refs = [weakref.ref(lin), weakref.ref(lin.weight)]
        p = torch.nn.Parameter(torch.zeros(3))
        p.me = p
        t = torch.zeros(3)
        t.me = [t]

        class Slotted(torch.Tensor):
            __slots__ = ("other",)

        z = torch.Tensor._make_subclass(Slotted, torch.zeros(1), False)
        z.other = z
        refs += [weakref.ref(p), weakref.ref(t), weakref.ref(z)]
        del lin, p, t, z
        gc.collect()
        assert [r() for r in refs] == [None] * len(refs)

    def test_referents_list_the_dict_once():
        p = torch.nn.Parameter(torch.zeros(2))
        p.a = 1
        t = torch.zeros(2)
        t.b = 2
        assert gc.get_referents(p) == [p.__dict__, torch.nn.Parameter]
        assert gc.get_referents(t) == [t.__dict__, torch.Tensor]
        assert gc.get_referents(torch.zeros(1)) == [torch.Tensor]

    def test_simulated_gpu():
        run_file_on_simulated_gpu(__file__, "gpu", "ALL FAMILIES OK")


def _gpu_main():
    """The simulated-GPU run: every family on cuda, memory_allocated() back to baseline after each."""
    assert torch.cuda.is_available(), "MINITORCH_SIMULATE_GPU=1 was expected"
    s = Inputs("cuda")
    torch.cuda.synchronize()
    failures = []
    for family, fn in sorted(FAMILIES.items()):
        fn(s)
        gc.collect()
        baseline = torch.cuda.memory_allocated()
        rounds = max(100, ROUNDS.get(family, DEFAULT_ROUNDS) // 4)
        for _ in range(rounds):
            fn(s)
        gc.collect()
        now = torch.cuda.memory_allocated()
        if now != baseline:
            failures.append("%s: memory_allocated() %d -> %d after %d rounds" % (family, baseline, now, rounds))
        changed = check_refcounts(family, s, rounds=50)
        if changed:
            failures.append("%s: reference counts changed (before, after): %r" % (family, changed))
        print("%-12s rounds=%d memory_allocated=%d" % (family, rounds, now), flush=True)
    # and everything goes back once the inputs are gone
    before_inputs = torch.cuda.memory_allocated()
    del s
    gc.collect()
    if torch.cuda.memory_allocated() != 0:
        failures.append("after deleting every input: memory_allocated() %d (was %d with the inputs)"
                        % (torch.cuda.memory_allocated(), before_inputs))
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("ALL FAMILIES OK")


if __name__ == "__main__" and sys.argv[1:] == ["gpu"]:
    _gpu_main()
