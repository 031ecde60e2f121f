"""The bad-input matrix: every public entry point of minitorch called with misuse.

Entry points are found by introspection (module functions, Tensor methods and settable properties,
minitorch.cuda's functions, nn's constructors and functions, the operators), so a new function is in
the matrix the day it is added. Each is called with wrong types, wrong arity, unknown keywords, sizes of
2**62, negative sizes, size products past 64 bits, NaN and inf, empty tensors, non-contiguous and
expanded views, more than 64 dimensions and devices that do not exist (see ``ARGS`` below).

Four tests per entry point:

- ``test_no_crash``: every call ends in a returned value that can be used (repr, shape, ...) or in a
  Python exception that is not SystemError. A segfault or abort is reported with the offending call:
  the calls run in a child process (tests/bad_input_worker.py), chunked, and a crash restarts the
  child after the call that killed it.
- ``test_no_crash_simulated_gpu``: the same under MINITORCH_SIMULATE_GPU=1 with every input tensor on
  the simulated GPU, so the misuse reaches the CUDA paths (device checks, copies, the allocator).
- ``test_no_crash_meta``: the same with every input tensor on the meta device, which has no memory, so
  that no entry point reads a meta tensor's missing data.
- ``test_matches_torch`` (needs torch): each call that exists in torch raises an exception of torch's
  type (minitorch's may be a subclass of it) or returns where torch returns. Where torch returns and
  minitorch cannot, minitorch must raise NotImplementedError: the known gaps are listed in
  ``DOCUMENTED_GAPS`` with where they are documented.

Known bugs in files other engineers own are marked xfail(strict=True) with the file and the bug, so
the marks come off (strict: CI fails on XPASS) when the bug is fixed.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

import minitorch
from parity import same_build_as_torch, torch_is_cuda_build
from subproc import child_env

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "bad_input_worker.py")
CHUNK = 4000
# a chunk gets this long before the call in flight is reported as a hang (sanitized builds are slower)
CHUNK_TIMEOUT = 600

try:  # torch only for the comparison; never imported into this process
    import importlib.util

    HAVE_TORCH = importlib.util.find_spec("torch") is not None
except (ImportError, ValueError):
    HAVE_TORCH = False


# ---- the argument lists ------------------------------------------------------------------------------
# Sources of argument lists, evaluated in the worker with the inputs of bad_input_worker.INPUTS bound:
# t (2x3 float32), t2 (3x2), ti (2x3 int64), tb (bool), s (0-d float), si (0-d int), e (empty (0,)),
# e03 (empty (0, 3)), nc (non-contiguous 4x3), ex (expanded 3x4), v (3), b3 (2x3x4), d64 (64 dims), and
# outside memory: lie (lying ndarray subclass), lai (lying array-like), unal (misaligned array), asx (a
# view past the address space), cap* (hand-made DLPack capsules).

ARGS = [
    # arity and types
    "()", "(object())", "('abc')", "(None)", "(1.5)", "(b'x')", "([1, [2]])", "({})", "(1j)",
    "(bogus=1)", "(t, bogus=1)", "(t, object())", "(t, 'abc')", "(t, None)",
    "(t, t, t, t, t, t, t, t)", "(1, 2, 3, 4, 5, 6, 7, 8, 9)",
    # sizes
    "(2**62)", "(-1)", "(-2**63)", "(2**63)", "(2**64)", "(2**32, 2**32)", "(2**31, 2**31, 4)",
    "([2**62, 4])", "((-1, 3))", "([1] * 65)", "(*[1] * 65)", "([2, 2.5])", "((True, 2))",
    # values
    "(nan)", "(inf)", "(-inf)", "(t, nan)", "(t, inf)", "(t, 2**62)", "(t, -2**62)", "(t, 2**64)",
    "(t, 1, 2**62)", "(t, 0, -2**63)", "(t, dim=2**62)", "(t, dim=-2**63)", "(t, dim=nan)",
    # tensors of every awkward kind
    "(t)", "(t, t)", "(t, t2)", "(t2, t)", "(ti, ti)", "(t, ti)", "(tb)", "(tb, tb)", "(s)", "(s, s)",
    "(si)", "(e)", "(e, e)", "(e03)", "(e03, e03)", "(nc)", "(nc, nc)", "(ex)", "(ex, ex)", "(v, v)",
    "(b3, b3)", "(d64)", "(d64, d64)", "([t, e])", "([t, nc])", "([])", "((t, object()))",
    # dtypes and devices
    "(2, dtype='float32')", "(2, dtype=object)", "(t, dtype=torch.int64)", "(2, dtype=torch.bool)",
    "(2, device='cuda:99')", "(2, device='cuda')", "(2, device='gpu')", "(2, device=-1)",
    "(2, device=2**70)", "(2, device='')", "(2, device='cuda:-1')", "(t, device='cuda:99')",
    "(t, 'cuda:99')", "(2, requires_grad='yes')", "(2, 3, out=t)", "(2, 3, out=5)", "([t, t], out=t)",
    "([t, t], out=5)",
    # outside memory that lies (bad_input_worker.INPUTS): lying ndarray subclasses and array-likes, a
    # misaligned array, a view past the address space, hand-made DLPack capsules
    "(lie)", "(lai)", "(unal)", "(t, lie)", "(lie, t)", "(capoff)", "(capneg)", "(capbig)", "(capnull)", "(capdim)",
]

METHOD_ARGS = [
    "()", "(object())", "('abc')", "(None)", "(1.5)", "(1j)", "(bogus=1)", "(t)", "(t, t)", "(t2)",
    "(ti)", "(e)", "(e03)", "(nc)", "(ex)", "(s)", "(d64)", "([1, [2]])", "(2**62)", "(-2**62)",
    "(2**64)", "(-1)", "(-2**63)", "(nan)", "(inf)", "(2**32, 2**32)", "(2**31, 2**31, 4)", "([1] * 65)",
    "(*[1] * 65)", "(dim=2**62)", "(dim=nan)", "(0, 2**62)", "(2**62, 0)", "(0, -2**63)", "(1, 0, 2**62)",
    "(dtype=object)", "(dtype=torch.int64)", "('cuda:99')", "(device='cuda:99')", "('gpu')",
    "(torch.device('cuda', 99))", "(-1, -1, -1)", "(None, None, None, None, None, None)",
    "(1, 2, 3, 4, 5, 6, 7)", "(0, 1, 2, 3, 4, 5, 6, 7, 8)", "(lie)", "(unal)", "(capoff)",
]
# other receivers get a shorter list
RECEIVERS = ["ti", "tb", "e03", "nc", "ex", "s", "d64"]
RECEIVER_ARGS = ["()", "(0)", "(-1)", "(1)", "(t)", "(s)", "(0, 1)", "(2**62)", "(dim=0)", "(1, 2)", "(nan)"]

# operators and protocols: (target, argument lists)
OPERATORS = {
    "op.add": ("(lambda x: t + x)", ["(object())", "('a')", "(None)", "(2**64)", "(e)", "(e03)", "(nc)",
                                     "(t2)", "(d64)", "(nan)", "([1, 2, 3])", "(1j)"]),
    "op.radd": ("(lambda x: x + t)", ["(object())", "('a')", "(None)", "(2**64)", "([1, 2, 3])"]),
    "op.sub_bool": ("(lambda x: tb - x)", ["(tb)", "(True)", "(1)"]),
    "op.mul": ("(lambda x: t * x)", ["(object())", "(2**64)", "(e)", "(t2)", "(inf)"]),
    "op.truediv": ("(lambda x: ti / x)", ["(0)", "(ti * 0)", "(object())", "(e03)", "(nc)"]),
    "op.matmul": ("(lambda x: t @ x)", ["(object())", "(s)", "(e)", "(e03)", "(t)", "(ti)", "(nc)", "(d64)",
                                        "(1)", "(b3)", "(v)"]),
    "op.rmatmul": ("(lambda x: x @ t)", ["(object())", "(1)", "([1, 2])"]),
    "op.iadd": ("(lambda x: t.__iadd__(x))", ["(object())", "(ti)", "(t2)", "(b3)", "(e)", "(1j)"]),
    "op.iadd_int": ("(lambda x: ti.__iadd__(x))", ["(1.5)", "(t)", "(nan)", "(2**64)"]),
    "op.itruediv_int": ("(lambda x: ti.__itruediv__(x))", ["(2)", "(t)"]),
    "op.neg_bool": ("(lambda: -tb)", ["()"]),
    "op.compare": ("(lambda x: t < x)", ["(object())", "('a')", "(None)", "(e03)", "(t2)", "(nan)"]),
    "op.eq": ("(lambda x: t == x)", ["(object())", "('a')", "(None)", "(e03)", "(t2)"]),
    "op.bool": ("(lambda x: bool(x))", ["(t)", "(e)", "(s)", "(ex)"]),
    "op.int": ("(lambda x: int(x))", ["(t)", "(e)", "(s)", "(torch.tensor(nan))", "(torch.tensor(inf))",
                                      "(torch.tensor(2.0**70))"]),
    "op.float": ("(lambda x: float(x))", ["(t)", "(e)", "(si)"]),
    "op.index": ("(lambda x: [0, 1, 2][x])", ["(t)", "(s)", "(si)", "(ti)", "(torch.tensor([1]))"]),
    "op.len": ("(lambda x: len(x))", ["(s)", "(e)", "(d64)"]),
    "op.iter": ("(lambda x: list(x))", ["(s)", "(e)", "(e03)"]),
    "op.format": ("(lambda x, f: format(x, f))", ["(s, '.2f')", "(t, '.2f')", "(s, 'bogus')", "(si, 'x')",
                                                  "(e, '')"]),
    "op.hash": ("(lambda x: hash(x))", ["(t)", "(e)"]),
    "op.getitem": ("t.__getitem__", [
        "(2**62)", "(-2**62)", "(2**64)", "(2)", "(-3)", "(object())", "('a')", "(1.5)", "(nan)",
        "((0, 0, 0))", "((None,) * 70)", "((Ellipsis, Ellipsis))", "([2**62])", "([[0, 1], [2**62]])",
        "(slice(0, 2**64))", "(slice(None, None, 0))", "(slice(None, None, -1))", "(slice(0, 1, 2**62))",
        "(t)", "(ti)", "(ti * 10)", "(-ti * 10)", "(tb)", "(tb[0])", "(e)", "(torch.tensor([True]))",
        "([True, False, True])", "((slice(None), [0, 1, 2, 3]))", "([])", "(([], []))", "({})",
        "((0, slice(None), None, Ellipsis, 0))", "(s)", "(si)", "(torch.tensor(2**40))",
    ]),
    "op.setitem": ("(lambda k, x: t.__setitem__(k, x))", [
        "(0, 'a')", "(0, object())", "(0, None)", "(2**62, 1)", "(slice(None), e)", "(Ellipsis, nan)",
        "(tb, t)", "(ti, 1)", "(ti * 10, 1)", "(0, t)", "(0, [1, 2])", "(0, [1, 2, 3])", "(0, [[1, 2, 3]])",
        "(slice(None), t2)", "(0, 2**64)", "(0, 1j)", "(Ellipsis, d64)", "(Ellipsis, ex[:2, :3])",
        "(slice(None, None, -1), 1)", "(object(), 1)", "(tb[0], 1)",
    ]),
    "op.index_dim": ("(lambda f, *a, **k: getattr(t, f)(*a, **k))", [
        "('gather', 1, ti * 2**40)", "('gather', 2**62, ti)", "('gather', -3, ti)", "('gather', 1, -ti)",
        "('gather', 0, ti[:0])", "('gather', 1, nc.long())", "('gather', 1, tb)", "('scatter', 1, ti * 2**40, 1.0)",
        "('scatter', 1, ti - 2**62, t)", "('scatter', 1, ti % 3, 2**70)", "('scatter', 1, ti % 3, nan)",
        "('scatter', 1, ti % 3, t, reduce='bogus')", "('scatter_add', 1, ti % 3, nc.t())", "('scatter_add', 1, ti % 3, e03)",
        "('scatter_add', 1, ti % 3, d64)", "('index_select', 1, ti[0] * 2**40)", "('index_select', 0, ti[0] - 2**62)",
        "('index_select', 2**62, ti[0])", "('index_select', 0, e.long())", "('index_add', 1, ti[0] % 3, t)",
        "('index_add', 1, ti[0] * 2**40, t)", "('index_add', 1, ti[0] % 3, t, alpha=2**70)",
        "('index_add', 1, ti[0] % 3, t, alpha=object())", "('index_add_', 1, ti[0] % 3, ex[:2, :3])",
        "('scatter_', 1, ti % 3, ex[:2, :3])", "('index_add', 0, ti[:, 0] % 2, d64)",
        "('index_fill', 1, ti[0] * 2**40, 1.0)", "('index_fill', 1, ti[0] - 2**62, t[0, 0])", "('index_fill', 2**62, ti[0], 1)",
        "('index_fill', 1, ti[0] % 3, 2**70)", "('index_fill', 1, ti[0] % 3, nan)", "('index_fill', 1, ti[0] % 3, object())",
        "('index_fill', 1, ti[0] % 3, e)", "('index_fill', 1, ti[0] % 3, 1j)", "('index_fill', 0, e.long(), 1)",
        "('index_fill_', 1, ti[0] % 3, d64)", "('index_copy', 1, ti[0] % 3, t)", "('index_copy', 1, ti[0] * 2**40, t)",
        "('index_copy', 1, -ti[0] - 1, t)", "('index_copy', 2**62, ti[0], t)", "('index_copy', 0, ti[:, 0] % 2, d64)",
        "('index_copy', 1, ti[0] % 3, e03)", "('index_copy', 1, ti[0] % 3, nc)", "('index_copy_', 1, ti[0] % 3, ex[:2, :3])",
        "('index_copy', 1, ti[0] % 3, object())", "('index_put', (ti[0] * 2**40,), t[0])",
        "('index_put', (ti[0] - 2**62,), t[0])", "('index_put', (tb,), s)", "('index_put', (e.long(),), t)",
        "('index_put', (ti[0] % 2,), d64)", "('index_put', (ti[0] % 2,), t[0], accumulate=True)",
        "('index_put', (ti[0] % 2,), nc)", "('index_put', [None], s)", "('index_put', (ti[0] % 2,) * 70, s)",
        "('index_put_', (ti[0] % 2,), ex[:2, :3])", "('index_put', (ti[0] % 2,), 2**70)",
    ]),
    "op.index_dim_expanded": ("(lambda f, *a: getattr(ex, f)(*a))", [
        "('scatter_', 1, torch.zeros(3, 4, dtype=torch.long, device=dev), 1.0)",
        "('index_add_', 0, torch.zeros(3, dtype=torch.long, device=dev), t2.t().expand(3, 4))",
        "('index_fill_', 0, torch.zeros(3, dtype=torch.long, device=dev), 1.0)",
        "('index_copy_', 1, torch.zeros(1, dtype=torch.long, device=dev), t2[:, :1])",
        "('index_put_', (torch.zeros(1, dtype=torch.long, device=dev),), t2[:, 0].view(1, 3)[:, :1].expand(1, 4))",
    ]),
    "op.setitem_expanded": ("(lambda k, x: ex.__setitem__(k, x))", ["(0, 1.0)", "(Ellipsis, t2[0, 0])"]),
    "op.setitem_int": ("(lambda k, x: ti.__setitem__(k, x))", ["(0, 1.5)", "(0, nan)", "(0, inf)",
                                                               "(0, 2**63)", "(0, t[0])"]),
    "op.set_data": ("(lambda x: setattr(t, 'data', x))", ["(object())", "(None)", "(1)", "(d64)", "(e)"]),
    "op.set_requires_grad": ("(lambda x: setattr(ti, 'requires_grad', x))", ["(True)", "('yes')", "(1)"]),
    "op.set_shape": ("(lambda x: setattr(t, 'shape', x))", ["((3, 2))"]),
    # autograd.functional on bad inputs: non-tensors, wrong v, integer and empty tensors, 64 dims
    "op.autograd_functional": ("(lambda f, *a, **k: getattr(torch.autograd.functional, f)(*a, **k))", [
        "('jacobian', lambda x: x * 2, 3)", "('jacobian', lambda x: 3, t)", "('jacobian', lambda x: x * 2, ti)",
        "('jacobian', lambda x: x * 2, e03)", "('jacobian', lambda x: x.sum(), nc)", "('jacobian', object(), t)",
        "('jacobian', lambda x: x * 2, t, strategy='bogus')", "('jacobian', lambda x: x, d64)",
        "('hessian', lambda x: x * 2, t)", "('hessian', lambda x: (x * x).sum(), e)",
        "('vjp', lambda x: x * 2, t, t2)", "('vjp', lambda x: x * 2, t, object())", "('jvp', lambda x: x, t, e)",
        "('hvp', lambda x: (x * x).sum(), t, v)", "('vhp', lambda x: (x * x).sum(), (t, t), (t,))",
        "('vjp', lambda x: x.sum(), t, s, strict=True)", "('jvp', lambda x: x.exp(), ex, t2.t())",
    ]),
    # 64 dims is the most minitorch stores: every op that adds a dim must refuse, not overflow
    "op.d64": ("(lambda f: f(d64))", [
        "(lambda x: x[None])", "(lambda x: x[..., None])", "(lambda x: x.unsqueeze(-1))",
        "(lambda x: torch.stack([x, x]))", "(lambda x: torch.stack([x, x], -1))", "(lambda x: x @ x)",
        "(lambda x: torch.matmul(x, x.view(1)))", "(lambda x: x.sum(0, keepdim=True))", "(lambda x: x + x)",
        "(lambda x: x + torch.ones([1] * 64))", "(lambda x: x.expand(*[2] * 64))", "(lambda x: x.expand(*[2] * 65))",
        "(lambda x: x.view([1] * 64))", "(lambda x: x.reshape(-1))", "(lambda x: x.permute(*range(63, -1, -1)))",
        "(lambda x: x.max(0))", "(lambda x: x.tolist())", "(lambda x: x.unflatten(0, (1, 1)))",
        "(lambda x: x.unflatten(0, (1,) * 64))", "(lambda x: x.flatten())", "(lambda x: x[[0]])",
        "(lambda x: x[torch.tensor([[0]])])", "(lambda x: x[x > 0])", "(lambda x: x.squeeze())",
        "(lambda x: torch.cat([x, x], 5))", "(lambda x: torch.hstack([x, x]))", "(lambda x: torch.vstack([x, x]))",
        "(lambda x: x.transpose(0, 63))", "(lambda x: x.T)", "(lambda x: x.t())", "(lambda x: x.split(1, 63))",
        "(lambda x: x.chunk(2, 10))", "(lambda x: x.unbind(5))", "(lambda x: x.select(3, 0))",
        "(lambda x: x.narrow(3, 0, 1))", "(lambda x: x.contiguous())", "(lambda x: x.clone())",
        "(lambda x: x.to(torch.int32))", "(lambda x: x.mean())", "(lambda x: x.argmax(7))",
        "(lambda x: x.to(torch.uint8).sum(63))", "(lambda x: x.to(torch.int8).cumsum(63))",
        "(lambda x: x.to(torch.int16)[x.to(torch.uint8)])",
        "(lambda x: x.half().sum(63))", "(lambda x: x.bfloat16().softmax(63))", "(lambda x: x.half() @ x)",
        "(lambda x: x.bfloat16().sort(63))", "(lambda x: x.half().cumsum(63))",
        "(lambda x: torch.broadcast_to(x, [3] + [1] * 64))", "(lambda x: x.__setitem__((0,) * 64, 5))",
        "(lambda x: x.__setitem__(None, 5))", "(lambda x: x.sum([0] * 65))",
        "(lambda x: x.softmax(63))", "(lambda x: x.log_softmax(-64))", "(lambda x: x.logsumexp([0] * 65))",
        "(lambda x: x.amax(0, keepdim=True))", "(lambda x: x.var(0, keepdim=True))", "(lambda x: torch.std_mean(x, 0, keepdim=True))",
        "(lambda x: x.norm(dim=63, keepdim=True))", "(lambda x: x.cumsum(63))", "(lambda x: x.cumprod(0))",
        "(lambda x: x.prod(63, keepdim=True))", "(lambda x: x.sort(5))", "(lambda x: x.topk(1, 63))",
        "(lambda x: x.argsort(-64))", "(lambda x: x.median(63, keepdim=True))", "(lambda x: x.kthvalue(1, 5))",
        "(lambda x: x.mode(-64, True))", "(lambda x: x.nanmedian(0))", "(lambda x: x.median())",
    ]),
    # a list whose items' __index__ empties it: argument parsers must read a snapshot
    "op.evil_list": ("(lambda f: f(evil))", [
        "(lambda x: torch.zeros(x))", "(lambda x: torch.ones(x, dtype=torch.int64))", "(lambda x: torch.empty(x))",
        "(lambda x: torch.full(x, 1.5))", "(lambda x: torch.rand(x))", "(lambda x: torch.randn(x))",
        "(lambda x: torch.randint(0, 5, x))", "(lambda x: torch.zeros(2, 2, 2, 2).view(x))",
        "(lambda x: torch.zeros(16).reshape(x))", "(lambda x: torch.zeros(2, 2, 2, 2).permute(x))",
        "(lambda x: torch.zeros(1).expand(x))", "(lambda x: torch.zeros(16).split(x))",
        "(lambda x: torch.zeros(16).unflatten(0, x))", "(lambda x: torch.zeros(2, 1, 2, 1).squeeze(x))",
        "(lambda x: torch.zeros(3, 3, 3, 3).max(x))", "(lambda x: torch.Size(x))", "(lambda x: torch.tensor(x))", "(lambda x: torch.zeros(4)[x])",
        "(lambda x: torch.zeros(4).__setitem__(x, 1))", "(lambda x: torch.broadcast_to(torch.zeros(1), x))",
        "(lambda x: torch.zeros(16).view(x).tolist())", "(lambda x: torch.zeros(3, 3, 3, 3).argmax(x))",
        "(lambda x: torch.arange(x[0], 5))", "(lambda x: torch.zeros(3, 3, 3, 3).to(x))",
        "(lambda x: torch.eye(x[0]))", "(lambda x: torch.zeros(4, 4).flatten(*x[:2]))",
        "(lambda x: torch.zeros(3, 3, 3, 3).sum(x))", "(lambda x: torch.zeros(3, 3, 3, 3).mean(x))",
        "(lambda x: torch.zeros(3, 3, 3, 3).sum(dim=x))", "(lambda x: torch.zeros(3, 3, 3, 3).any(x))",
        "(lambda x: torch.zeros(3, 3, 3, 3).all(x))", "(lambda x: torch.sum(torch.zeros(3, 3, 3, 3), x))",
        "(lambda x: torch.zeros(3, 3, 3, 3).amax(x))", "(lambda x: torch.zeros(3, 3, 3, 3).logsumexp(x))",
        "(lambda x: torch.zeros(3, 3, 3, 3).var(x))", "(lambda x: torch.var_mean(torch.zeros(3, 3, 3, 3), x))",
        "(lambda x: torch.linalg.vector_norm(torch.zeros(3, 3, 3, 3), 2, x))",
    ]),
    # a view of 2**62 elements (hx): anything that needs its elements in memory must fail fast
    "op.huge_view": ("(lambda f: f(hx))", [
        "(lambda x: x.contiguous())", "(lambda x: x.clone())", "(lambda x: x + x)", "(lambda x: x * 2)",
        "(lambda x: x.view(1, -1) + torch.ones(4, 1))", "(lambda x: x.reshape(2, -1).contiguous())",
        "(lambda x: x.to(torch.float64))", "(lambda x: x.cpu())", "(lambda x: x.cuda())", "(lambda x: repr(x))",
        "(lambda x: x.nbytes)", "(lambda x: x[::2 ** 61])", "(lambda x: x.unsqueeze(0).expand(4, -1))",
        "(lambda x: x.unsqueeze(0).expand(2, -1))", "(lambda x: torch.stack([x, x]))", "(lambda x: torch.cat([x, x]))",
        "(lambda x: x[torch.tensor([0, 2 ** 62 - 1])])", "(lambda x: x[x > 0])", "(lambda x: x.exp())",
        "(lambda x: torch.zeros_like(x))", "(lambda x: torch.empty_like(x))", "(lambda x: x.float())",
        "(lambda x: x.view(2 ** 31, 2 ** 31))", "(lambda x: x.unflatten(0, (2 ** 31, -1)))",
        # (not prod, var, std, topk, amax: with a small result torch reads all 2**62 elements)
        "(lambda x: x.softmax(0))", "(lambda x: x.log_softmax(0))", "(lambda x: x.cumsum(0))",
        "(lambda x: x.cumprod(0))", "(lambda x: x.sort())", "(lambda x: x.argsort())",
        "(lambda x: x.median(0))", "(lambda x: x.kthvalue(1))", "(lambda x: x.mode())", "(lambda x: x.median())",
    ]),
    # torch.linalg's matrix functions on every kind of input: non-square, integer and bool, empty,
    # non-contiguous, expanded, 64 dims, a huge square view (2**62 elements: must fail before copying)
    "op.linalg": ("(lambda f, x: f(x))", [
        "(%s, %s)" % (f, x)
        for f in ["torch.linalg.det", "torch.linalg.slogdet", "torch.linalg.inv", "torch.linalg.inv_ex",
                  "torch.linalg.svdvals", "torch.linalg.svd", "torch.linalg.qr", "torch.linalg.eigh",
                  "torch.linalg.eigvalsh", "torch.linalg.matrix_rank", "torch.linalg.pinv",
                  "(lambda a: torch.linalg.matrix_norm(a, 'nuc'))", "(lambda a: torch.linalg.solve(a, a))",
                  "(lambda a: torch.linalg.solve(a, v))", "torch.logdet"]
        for x in ["t", "ti", "tb", "e", "e03", "nc", "ex", "v", "s", "b3", "d64", "hx.view(2 ** 31, 2 ** 31)",
                  "t @ t2", "(t2 @ t).int()"]
    ]),
    # the LU family: factor, unpack and solve with the same bad matrices, and pivots that are not lu_factor's
    "op.linalg_lu": ("(lambda f, x: f(x))", [
        "(%s, %s)" % (f, x)
        for f in ["torch.linalg.lu_factor", "torch.linalg.lu_factor_ex", "torch.linalg.lu", "torch.lu",
                  "(lambda a: torch.linalg.lu_factor(a, pivot=False))",
                  "(lambda a: torch.lu_unpack(*torch.linalg.lu_factor(a)))",
                  "(lambda a: torch.lu_unpack(a, torch.full((3,), 2 ** 31 - 1, dtype=torch.int32)))",
                  "(lambda a: torch.lu_unpack(a, torch.zeros(5, 2, dtype=torch.int32)))",
                  "(lambda a: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), a))",
                  "(lambda a: torch.linalg.lu_solve(a, torch.full(a.shape[:-1], -7, dtype=torch.int32), a, "
                  "left=False))",
                  "(lambda a: torch.lu_solve(a, *torch.linalg.lu_factor(a)))"]
        for x in ["t", "ti", "tb", "e", "e03", "nc", "ex", "v", "s", "b3", "d64", "hx.view(2 ** 31, 2 ** 31)",
                  "t @ t2", "(t2 @ t).int()"]
    ]),
    # stft (frames, window, DFT; its checks in torch's order), istft's refusal, the low-rank SVD and PCA
    "op.stft_lowrank": ("(lambda f, *a, **k: f(*a, **k))", [
        "(torch.stft, %s, %s%s)" % (x, n, k)
        for x in ["v", "t", "e", "e03", "nc", "ex", "ti", "tb", "s", "b3", "d64"]
        for n in ["2", "2**62", "-1", "0", "nan"]
        for k in [", return_complex=False", "", ", return_complex=True"]
    ] + [
        "(torch.stft, t, 2, %s, return_complex=False)" % k
        for k in ["hop_length=2**62", "hop_length=-2**63", "hop_length=0", "win_length=2**62", "win_length=-1",
                  "window=t", "window=e", "window=s", "window=v[:2]", "window=v[:2].int()", "window=nc[0, :2]",
                  "window=v[:1], win_length=1", "pad_mode='bogus'", "pad_mode='circular'", "pad_mode='replicate'",
                  "pad_mode='constant'", "center=False, align_to_window=True", "align_to_window=False",
                  "center=False, win_length=1, window=v[:1], align_to_window=True", "onesided=False, normalized=True",
                  "window=v[:2].to('meta')", "center=False, hop_length=2**62"]
    ] + [
        "(torch.istft, %s, %s%s)" % (x, n, k)
        for x in ["t", "b3", "e03", "ti"] for n in ["2", "2**62", "nan"] for k in ["", ", window=v[:2]", ", length=-1"]
    ] + [
        "(t.stft, 2, return_complex=False)", "(nc.stft, 2, 1, 2, None, False, 'reflect', True, False, False)",
        "(t.istft, 2)", "(b3.istft, 2, window=v[:2].to('meta'))",
    ] + [
        "(%s, %s%s)" % (f, x, k)
        for f in ["torch.svd_lowrank", "torch.pca_lowrank"]
        for x in ["t", "t2", "ti", "tb", "e03", "nc", "ex", "v", "s", "b3", "d64"]
        for k in ["", ", 2**62", ", -1", ", 2", ", 1, -1", ", nan", ", None, 2**62"]
    ] + ["(torch.svd_lowrank, t, 2, 2, t2)", "(torch.svd_lowrank, t, 2, 2, v)", "(torch.svd_lowrank, t2, 2, 1, v[:2])",
         "(torch.svd_lowrank, t, 2, 2, ti)", "(torch.pca_lowrank, t, 2, False, 1)"]),
    # the composites of minitorch/_linalg_extras.py on the same inputs (and as the second operand)
    "op.linalg_extras": ("(lambda f, x: f(x))", [
        "(%s, %s)" % (f, x)
        for f in ["torch.linalg.matrix_exp", "torch.linalg.cond", "(lambda a: torch.linalg.cond(a, 1))",
                  "(lambda a: torch.linalg.cond(a, 'nuc'))", "(lambda a: torch.linalg.tensorinv(a, 1))",
                  "(lambda a: torch.linalg.tensorsolve(a, v))", "(lambda a: torch.linalg.lstsq(a, a))",
                  "(lambda a: torch.linalg.lstsq(a, v, driver='gelsd'))", "(lambda a: torch.linalg.lstsq(t, a))",
                  "(lambda a: torch.linalg.vecdot(a, a))", "(lambda a: torch.linalg.vecdot(t, a))",
                  "(lambda a: torch.linalg.diagonal(a, offset=1))", "(lambda a: torch.linalg.matmul(a, a))"]
        for x in ["t", "ti", "tb", "e", "e03", "nc", "ex", "v", "s", "b3", "d64", "hx.view(2 ** 31, 2 ** 31)",
                  "t @ t2", "(t2 @ t).int()"]
    ]),
    # NumPy operands: lying, misaligned and out-of-range arrays, dtypes minitorch has not
    # a view past the address space only where minitorch reads its geometry (NumPy itself crashes on
    # anything that reads its elements, iterating included)
    "op.numpy_past_address_space": ("(lambda f: f(asx))", [
        "(torch.from_numpy)", "(torch.tensor)", "(torch.from_dlpack)", "(lambda x: t == x)",
        "(lambda x: torch.tensor(x, dtype=torch.int64))",
    ]),
    "op.numpy": ("(lambda f, x: f(x))", [
        "(lambda x: t == x, lie)", "(lambda x: x == t, lie)", "(lambda x: t + x, lie)", "(lambda x: x / t, lie)",
        "(lambda x: t == x, unal)", "(lambda x: x / t, unal)", "(lambda x: t * x, unal)",
        "(lambda x: t == x, lai)", "(lambda x: x / t, lai)",
        "(lambda x: t == x, _np().ones(3, _np().uint8))", "(lambda x: x / t, _np().ones(3) * 1j)",
        "(lambda x: t == x, _np().arange(3.0)[::-1])", "(lambda x: t != x, _np().ones(3))",
        "(lambda x: t < x, _np().ones(3))", "(lambda x: t @ x, _np().ones(3))",
    ]),
    "op.dlpack": ("(lambda **k: t.__dlpack__(**k))", [
        "(stream=2**70)", "(stream=-2**70)", "(stream=2**63)", "(max_version=(2**70, 0))",
        "(max_version=(-2**70, 0))", "(max_version=(1, 2**70))", "(dl_device=(1, 2**70))", "(copy=2**70)",
    ]),
    "op.pickle": ("(lambda x: __import__('pickle').loads(__import__('pickle').dumps(x)))",
                  ["(t)", "(e03)", "(nc)", "(d64)", "(torch.Size([2**62]))", "(torch.device('cuda', 5))"]),
    # asarray on outside memory (buffers, capsules, lying and misaligned arrays), with copy and dtype asked for
    "op.asarray": ("(lambda x, **k: torch.asarray(x, **k))", [
        "(%s%s)" % (x, k)
        for x in ["lie", "lai", "unal", "capoff", "capneg", "capbig", "capnull", "capdim", "b'abc'", "bytearray(b'ab')",
                  "memoryview(b'abcdefgh')[::2]", "__import__('array').array('d', [1.0])", "nc", "d64", "[t, t]"]
        for k in ["", ", copy=False", ", copy=True", ", dtype=torch.float64", ", dtype=torch.float64, copy=False",
                  ", requires_grad=True", ", device='cuda:99'"]
    ]),
    # the names of minitorch/_top_level.py and pdist / channel_shuffle / dist on sizes past what memory holds
    "op.more_names": ("(lambda f: f())", [
        "(lambda: torch.range(0, 2**62))", "(lambda: torch.range(0, 1, 1e-300))",
        "(lambda: torch.range(-2**63, 2**63))",
        "(lambda: torch.range(0, nan))", "(lambda: torch.scalar_tensor(2**64))", "(lambda: torch.fill(d64, 1))",
        "(lambda: torch.split_with_sizes(t, [2**62, -2**62 + 3], 1))",
        "(lambda: torch.split_with_sizes(t, [-1, 4], 1))",
        "(lambda: torch.channel_shuffle(b3, 2**62))", "(lambda: torch.channel_shuffle(b3, -2**63))",
        "(lambda: torch.pdist(e03))", "(lambda: torch.pdist(nc, 2**62))", "(lambda: torch.dist(t, d64))",
        "(lambda: t.clone().cumsum_(2**62))", "(lambda: t.clone().cumprod_(0, dtype=torch.int64))",
        "(lambda: t.clone().addmm_(t, t2))", "(lambda: t.clone().addmm_(t, t2, beta=nan))",
        "(lambda: torch.qr(d64))", "(lambda: torch.frobenius_norm(t, [0, 1, 0]))", "(lambda: torch.nuclear_norm(e03))",
        "(lambda: torch.constant_pad_nd(t, [2**62, 2**62]))", "(lambda: torch.constant_pad_nd(t, [-5, 0]))",
        "(lambda: torch.embedding(t, ti))", "(lambda: torch.max_pool1d_with_indices(b3, 2**62))",
    ]),
    # householder_product, geqrf, ormqr and the LDL family with the bad matrices, and pivots and tau that are
    # not theirs
    "op.linalg_ldl": ("(lambda f, x: f(x))", [
        "(%s, %s)" % (f, x)
        for f in ["torch.linalg.ldl_factor", "torch.linalg.ldl_factor_ex",
                  "(lambda a: torch.linalg.ldl_factor_ex(a, check_errors=True))",
                  "(lambda a: torch.linalg.ldl_solve(*torch.linalg.ldl_factor(a), a))",
                  "(lambda a: torch.linalg.ldl_solve(a, torch.tensor(-2 ** 31, dtype=torch.int32).expand(a.shape[:-1]), "
                  "a))",
                  "(lambda a: torch.linalg.ldl_solve(a, torch.tensor(2 ** 62).expand(a.shape[:-1]), a))",
                  "(lambda a: torch.linalg.householder_product(a, a[..., 0, :]))",
                  "(lambda a: torch.linalg.householder_product(a, torch.ones(1).expand(a.shape[:-2] + (2 ** 40,))))",
                  "(lambda a: torch.orgqr(a, a.diagonal(0, -2, -1)))", "torch.geqrf",
                  "(lambda a: torch.ormqr(*torch.geqrf(a), a))",
                  "(lambda a: torch.ormqr(a, a[..., 0, :], a.mT, left=False, transpose=True))",
                  "(lambda a: torch.ormqr(a, torch.ones(1).expand(a.shape[:-2] + (2 ** 40,)), a))",
                  "(lambda a: torch.ormqr(a, a[..., 0, :], torch.ones(1).expand(a.shape[:-1] + (2 ** 40,))))"]
        for x in ["t", "ti", "tb", "e", "e03", "nc", "ex", "v", "s", "b3", "d64", "hx.view(2 ** 31, 2 ** 31)",
                  "t @ t2", "(t2 @ t).int()"]
    ]),
}

TENSOR_DATA_ARGS = [
    "('abc')", "(['a', 'b'])", "([1, 'a'])", "(None)", "([1, None])", "({})", "(object())",
    "([[1, 2], [3, 4, 5]])", "([[1, 2], 3])", "([1, [2]])", "([2**63])", "([2**64])", "([-2**63 - 1])",
    "([nan, inf, -inf])", "([1j])", "(range(5))", "((i for i in range(3)))", "([t, t])", "([s, s])",
    "([s, t])", "([e])", "(t)", "(nc)", "(d64)", "([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])",
    "(eval('[' * 130 + ']' * 130))", "(eval('[' * 65 + '1' + ']' * 65))", "([1, 2], dtype=object)",
    "([1, 2], dtype=torch.int32, device='cuda:99')", "([1.5], dtype=torch.int64)", "([2**40], dtype=torch.int32)",
    "([1], requires_grad=True)", "([1.0], requires_grad=True)", "(b'abc')", "(bytearray(b'ab'))",
    "([300], dtype=torch.uint8)", "([-256], dtype=torch.uint8)", "([-129], dtype=torch.int8)",
    "([2**40, 1.5], dtype=torch.int16)", "([nan], dtype=torch.int8)", "([-0.5], dtype=torch.uint8)",
    "([1e39], dtype=torch.float16)", "([70000, nan], dtype=torch.float16)", "([1e300], dtype=torch.bfloat16)",
    "([True, 2.5])", "(1, 2)", "(data=[1])", "([1], bogus=1)", "([1], pin_memory=True)",
    "(__import__('array').array('d', [1.0, 2.0]))", "([__import__('decimal').Decimal(1)])",
    "([__import__('fractions').Fraction(1, 3)])",
]


def _public_callables(obj):
    names = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # a property that raises on the class is itself a finding
            names.append(name)
            continue
        if callable(value) and not (isinstance(value, type) and issubclass(value, BaseException)):
            names.append(name)
    return sorted(names)


def _module_functions():
    skip = {"Tensor", "dtype", "return_types", "nn", "cuda"}
    return [n for n in _public_callables(minitorch) if n not in skip and not isinstance(
        getattr(minitorch, n), type(minitorch))]


def _tensor_methods():
    # looked up on the class: a property such as H raises torch's error for a 1-D tensor
    return [n for n in dir(minitorch.Tensor) if not n.startswith("_") and callable(getattr(minitorch.Tensor, n, None))]


def _cuda_functions():
    return [n for n in getattr(minitorch.cuda, "__all__", _public_callables(minitorch.cuda))
            if callable(getattr(minitorch.cuda, n, None))
            and not (isinstance(getattr(minitorch.cuda, n), type)
                     and issubclass(getattr(minitorch.cuda, n), BaseException))]


def _nn_entries():
    entries = []
    for name in _public_callables(minitorch.nn):
        value = getattr(minitorch.nn, name)
        if isinstance(value, type):
            entries.append("nn." + name)
    for name in _public_callables(minitorch.nn.functional):
        if not isinstance(getattr(minitorch.nn.functional, name), type(minitorch)):
            entries.append("nn.functional." + name)
    for name in _public_callables(minitorch.nn.init):
        if not isinstance(getattr(minitorch.nn.init, name), type(minitorch)) and name.endswith(("_", "gain")):
            entries.append("nn.init." + name)
    return entries


NN_ARGS = [
    "(-1, 2)", "(2, -1)", "(2**62, 2**62)", "(2**31, 2**31)", "(2.5, 3)", "('a', 3)", "(2, 3, bias='x')",
    "(2, 3, device='cuda:99')", "(2, 3, device='gpu')", "(2, 3, dtype=torch.int64)", "(2, 3, dtype=object)",
    "(object())", "(t)", "(1, 2, 3, 4, 5, 6)", "(bogus=1)", "(inplace='x')", "(0, 2**62)", "(None)",
    "([1, 2])", "(nan)", "(e03)", "(nc)", "(t, t)", "(t, object())", "(d64)",
]
# layers whose (2**31, 2**31) is valid, just large: 2**31 features (BatchNorm's four vectors, LayerNorm's and
# GroupNorm's two, RMSNorm's and PReLU's weight) are 8 GiB each, which the machine's out-of-memory killer meets
# before any allocator error, in torch too
NN_LARGE_BUT_VALID = {"nn.BatchNorm1d", "nn.BatchNorm2d", "nn.BatchNorm3d", "nn.LayerNorm", "nn.GroupNorm", "nn.RMSNorm", "nn.PReLU"}
# stacks whose second argument is how many deep copies of the first to make: 2**31 or 2**62 copies never
# finish, in torch too (memory runs out first)
NN_COUNTED_COPIES = {"nn.TransformerEncoder", "nn.TransformerDecoder"}
NN_HUGE_COUNTS = {"(2**62, 2**62)", "(2**31, 2**31)", "(0, 2**62)"}
# calls of an nn module on bad inputs
NN_FORWARD = {
    "nn.Linear.forward": ("torch.nn.Linear(3, 2)", ["(t)", "(t2)", "(ti)", "(e03)", "(nc)", "(s)", "(object())",
                                                    "(d64)", "(None)", "(t, t)", "()"]),
    "nn.Sequential.forward": ("torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())",
                              ["(t)", "(t2)", "(ti)", "(e03)", "(object())", "()"]),
    "nn.Module.to": ("torch.nn.Linear(3, 2).to", ["('cuda:99')", "(torch.int64)", "(object())", "(t)",
                                                  "(dtype=object)", "(bogus=1)", "(copy=True)"]),
    "nn.Module.load_state_dict": ("torch.nn.Linear(3, 2).load_state_dict",
                                  ["({})", "({'weight': t})", "({'weight': object()})", "(object())",
                                   "({'weight': t, 'bias': v[:2]})", "({'weight': t, 'bias': v[:2]}, strict=False)"]),
    "nn.ModuleList.getitem": ("torch.nn.ModuleList([torch.nn.ReLU()]).__getitem__",
                              ["(5)", "('a')", "(2**64)", "(slice(0, 2**64))"]),
    "nn.Sequential.getitem": ("torch.nn.Sequential(torch.nn.ReLU()).__getitem__",
                              ["(5)", "('a')", "(2**64)", "(-2)"]),
    "nn.Module.setattr": ("(lambda k, x: setattr(torch.nn.Linear(3, 2), k, x))",
                          ["('weight', t)", "('weight', object())", "('training', 'x')", "(1, 2)"]),
}

CUDA_ARGS = [
    "()", "(99)", "(-1)", "('cuda:99')", "('cpu')", "('gpu')", "(torch.device('cpu'))", "(object())",
    "(2**70)", "(1.5)", "(None)", "(bogus=1)", "(0, 0)", "(True)", "('cuda')",
]


def build_matrix():
    """{entry point name: [(target, args), ...]}."""
    matrix = {}
    for name in _module_functions():
        calls = [("torch." + name, a) for a in ARGS]
        if name == "tensor":
            calls += [("torch.tensor", a) for a in TENSOR_DATA_ARGS]
        matrix["torch." + name] = calls
    for name in _tensor_methods():
        calls = [("t." + name, a) for a in METHOD_ARGS]
        for r in RECEIVERS:
            calls += [("%s.%s" % (r, name), a) for a in RECEIVER_ARGS]
        matrix["Tensor." + name] = calls
    for name, (target, arglist) in OPERATORS.items():
        matrix[name] = [(target, a) for a in arglist]
    for name in _cuda_functions():
        matrix["cuda." + name] = [("torch.cuda." + name, a) for a in CUDA_ARGS]
    for entry in _nn_entries():
        args = [a for a in NN_ARGS if a != "(2**31, 2**31)"] if entry in NN_LARGE_BUT_VALID else NN_ARGS
        if entry in NN_COUNTED_COPIES:
            args = [a for a in args if a not in NN_HUGE_COUNTS]
        matrix[entry] = [("torch." + entry, a) for a in args]
    for name, (target, arglist) in NN_FORWARD.items():
        matrix[name] = [(target, a) for a in arglist]
    return matrix


MATRIX = build_matrix()
ENTRIES = sorted(MATRIX)
CALLS = [(entry, target, args) for entry in ENTRIES for target, args in MATRIX[entry]]


# ---- running it ---------------------------------------------------------------------------------------

def _env(simulate_gpu, device=None):
    if simulate_gpu:
        # every input tensor on the simulated GPU: the same misuse reaches the CUDA paths
        return child_env(1, MINITORCH_BAD_INPUT_DEVICE="cuda", PYTHONFAULTHANDLER=1)
    if device is not None:
        return child_env(MINITORCH_BAD_INPUT_DEVICE=device, PYTHONFAULTHANDLER=1)
    return child_env(PYTHONFAULTHANDLER=1)


def _run_chunk(module, items, env):
    """Runs items [(i, target, args)] in one child; returns (outcomes by i, i of a crash or None, detail)."""
    payload = json.dumps(items)
    # the child works in a fresh temporary folder: an entry point that writes a file (minitorch.save(x, "abc"))
    # writes it there, never into the checkout
    scratch = tempfile.TemporaryDirectory(prefix="minitorch-bad-input-")
    try:
        proc = subprocess.run([sys.executable, WORKER, module], input=payload, capture_output=True, text=True,
                              env=env, timeout=CHUNK_TIMEOUT, cwd=scratch.name)
        stdout, stderr, rc, hung = proc.stdout, proc.stderr, proc.returncode, False
    except subprocess.TimeoutExpired as exc:
        stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        stderr = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        rc, hung = None, True
    finally:
        scratch.cleanup()
    outcomes = {}
    begun = None
    done = False
    if stdout.startswith("NOIMPORT"):
        return None, None, stdout
    for line in stdout.splitlines():
        if line.startswith("B "):
            begun = int(line[2:])
        elif line == "DONE":
            done = True
        elif line.startswith("{"):
            rec = json.loads(line)
            outcomes[rec["i"]] = rec
            begun = None
    if done and rc == 0:
        return outcomes, None, None
    if begun is None:  # died outside a call: report it on the first call it did not finish
        pending = [i for i, _, _ in items if i not in outcomes]
        begun = pending[0] if pending else items[-1][0]
    what = "hang (no answer after %d s)" % CHUNK_TIMEOUT if hung else "crash (exit status %s)" % rc
    return outcomes, begun, what + "\n" + stderr[-3000:]


# Calls torch itself does not return from (it computes for hours), left out of torch's run, so they are not
# compared; minitorch's own answer is still checked for safety: (regex on the call, why)
TORCH_NEVER_RETURNS = [
    (r"^torch\.max_pool1d\(t, 2\*\*62\)$", "torch 2.13's max_pool1d does not return for a kernel of 2**62 on a "
                                          "2x3 input (minitorch raises torch's 'Invalid computed output size')"),
    (r"svd_lowrank(\(|, )\w+, (1|None), 2\*\*62\)$", "torch's svd_lowrank runs niter=2**62 subspace iterations "
                                                    "(minitorch refuses more than 2**31 - 1 with ValueError)"),
]


def run_matrix(module, simulate_gpu=False, device=None):
    """Outcomes for every call of CALLS under `module`, crashes included as {"r": "crash"}; `device`
    puts every input tensor there."""
    env = _env(simulate_gpu, device)
    indexed = [(i, target, args) for i, (_, target, args) in enumerate(CALLS)
               if module != "torch" or not any(re.search(p, target + args) for p, _ in TORCH_NEVER_RETURNS)]
    outcomes = {}
    pending = [indexed[k:k + CHUNK] for k in range(0, len(indexed), CHUNK)]
    # two children at a time: the chunks are independent
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        while pending:
            batch, pending = pending, []
            for items, (got, crashed_at, detail) in zip(batch, pool.map(lambda c: _run_chunk(module, c, env), batch)):
                if got is None:  # the module cannot be imported at all
                    return None
                outcomes.update(got)
                if crashed_at is not None:
                    outcomes[crashed_at] = {"i": crashed_at, "r": "crash", "msg": detail}
                    rest = [item for item in items if item[0] not in outcomes]
                    if rest:
                        pending.append(rest)
    return outcomes


_cache = {}


def outcomes_for(key):
    if key not in _cache:
        if key == "minitorch":
            _cache[key] = run_matrix("minitorch")
        elif key == "minitorch-gpu":
            _cache[key] = run_matrix("minitorch", simulate_gpu=True)
        elif key == "minitorch-meta":
            _cache[key] = run_matrix("minitorch", device="meta")
        else:
            _cache[key] = run_matrix("torch")
    if _cache[key] is None:
        pytest.skip("%s cannot be imported in a child process" % key)
    return _cache[key]


def _calls_of(entry):
    return [(i, target, args) for i, (e, target, args) in enumerate(CALLS) if e == entry]


def _describe(target, args):
    return target + args


# ---- checks ------------------------------------------------------------------------------------------

# a lazy module's uninitialised parameter and buffer have no shape by design: asking for it raises, in torch too
UNSHAPED = {"nn.UninitializedParameter", "nn.UninitializedBuffer"}


def safety_failures(entry, outcomes):
    bad = []
    for i, target, args in _calls_of(entry):
        rec = outcomes.get(i)
        if rec is None:
            bad.append("%s: no outcome recorded" % _describe(target, args))
        elif rec["r"] == "crash":
            bad.append("%s: %s" % (_describe(target, args), rec["msg"]))
        elif rec["r"] in ("halfbuilt", "setup") and entry not in UNSHAPED:
            bad.append("%s: returned an object that fails when used: %s: %s"
                       % (_describe(target, args), rec["exc"], rec["msg"]))
        elif rec["r"] == "raise" and rec["exc"] == "SystemError":
            bad.append("%s: SystemError: %s" % (_describe(target, args), rec["msg"]))
    return bad


# Where torch returns a value and minitorch cannot, it must raise NotImplementedError saying so. The
# gaps are documented in README.md ("Known differences from PyTorch" and the API table); each entry is
# (substring of minitorch's message, where it is documented).
DOCUMENTED_GAPS = [
    ("at most 64 dimensions", "README.md, Known differences: tensors have at most 64 dimensions"),
    ("which minitorch does not support", "README.md, Known differences: five dtypes only"),
    ("out= argument is not supported by minitorch", "README.md API table: out= not yet"),
    ("minitorch splits into at most", "README.md, Known differences: fixed-size limits"),
    ("minitorch.Generator supports only", "README.md, Known differences: one CPU generator"),
]

# Calls whose outcome differs from torch's where torch's own behaviour is an accident of its Python
# layer, not an API promise: (regex on the call, why it is accepted).
ACCEPTED_DIFFERENCES = [
    (r"^\w+\.to\((1\.5|1j|nan|inf)\)$",
     "torch's parser reads any Python float as the dtype float64; minitorch wants a dtype"),
    (r"^torch\.(device|Generator|set_default_device)\(b'x'\)$",
     "torch decodes bytes as a device string; minitorch wants a str"),
    (r"^t\.unflatten\(", "torch's Python unflatten tests `if not sizes` (bool(tensor), 0) before parsing"),
    (r"f\(evil\)", "the list changes under the parser: only the absence of a crash is checked"),
    (r"f\(hx\)", "torch's own checks on a view of 2**62 elements differ; only the absence of a crash (and of a "
                  "hang) is checked"),
    (r"\bcap(off|null|dim|big)\b", "a hand-made capsule whose geometry cannot describe memory: torch builds a "
                                   "tensor on it (or aborts), minitorch refuses it with BufferError"),
    (r"\basx\b", "an as_strided view past the address space: torch builds a tensor on it (and crashes reading "
                 "it), minitorch refuses it with ValueError"),
    (r"^torch\.broadcast_shapes\(2\*\*6[34]\)$", "torch returns a Size holding a size past int64, which fails when "
                                                 "used; minitorch refuses it with torch.Size's own ValueError"),
    (r"^torch\.broadcast_shapes\(\[t, ", "torch's symbolic-shape guard asserts on a tensor inside a shape "
                                       "(AssertionError); minitorch's bool() of the tensor raises RuntimeError"),
    (r"torch\.asarray\(x, \*\*k\)\)\(lie, dtype=torch\.float64, copy=False\)$",
     "the lying ndarray subclass: torch reads one dtype from it, minitorch's from_numpy another"),
    (r"torch\.constant_pad_nd\(t, \[2\*\*62, 2\*\*62\]\)", "torch's output size wraps past int64 (its "
                                                              "'negative padding' RuntimeError); minitorch's "
                                                              "factory refuses the size with TypeError"),
    (r"^torch\.binary_cross_entropy_with_logits\(t, ti\)$", "torch's kernel writes a float result into an "
                                                             "integer target's dtype and refuses; minitorch computes "
                                                             "in the promoted float dtype"),
    (r"^torch\.(Untyped|Byte|Char|Bool)Storage\(-2\*\*63\)$",
     "torch takes a size of INT64_MIN bytes as its mark of an invalid storage and returns one that fails at its "
     "first use; minitorch refuses it with the allocator error torch gives any other negative size"),
]

# where torch's CUDA build (without a GPU) differs from minitorch by a bug of its own
ACCEPTED_CUDA_BUILD_DIFFERENCES = [
    (r"^(torch\.(device|Generator|set_default_device)|\w+\.is_pinned)\(2\*\*62\)$",
     "torch's CUDA build keeps the low byte of an int device index (2**62 is cuda:0, 128 prints as index 65408); "
     "minitorch refuses an index past 127"),
    (r"^torch\.cuda\.reset_peak_memory_stats\(-1\)$",
     "torch's CUDA build raises UnicodeDecodeError (its message holds bytes that are not UTF-8); minitorch raises "
     "its RuntimeError 'invalid argument to reset_peak_memory_stats'"),
]

# where torch's CPU-only build answers a CUDA device by an accident of its dispatcher
ACCEPTED_CPU_BUILD_DIFFERENCES = [
    (r"torch\.asarray\(.*device='cuda:\d+'\)$",
     "torch's CPU-only build copies a buffer, an ndarray or a tensor onto a CUDA device through a dispatcher that "
     "has no CUDA kernel (NotImplementedError listing its backends); minitorch's CPU-only build says 'not compiled "
     "with CUDA' as for every other CUDA allocation"),
]


def _same_kind(m, t):
    # minitorch's exception may be torch's type or a subclass of it (NotImplementedError and
    # OutOfMemoryError are RuntimeErrors in both)
    return t["exc"] in m["mro"]


# what only one kind of build says without a GPU: torch's (and minitorch's MINITORCH_CUDA=0) CPU build, whose
# CUDA functions and classes are missing or placeholders and which has no accelerator for an int device, and a
# CUDA build, which initialises CUDA and finds no driver
BUILD_MESSAGES = ("not compiled with CUDA", "has no attribute '_cuda", "Tried to instantiate dummy base class",
                  "requires CUDA support", "Cannot access accelerator device when none is available",
                  "Found no NVIDIA driver", "CUDA driver version is insufficient")


def torch_failures(entry, mini, real):
    bad = []
    for i, target, args in _calls_of(entry):
        m, t = mini.get(i), real.get(i)
        if m is None or t is None or t["r"] in ("missing", "setup") or m["r"] in ("crash", "missing"):
            continue
        call = _describe(target, args)
        if any(re.search(pattern, call) for pattern, _ in ACCEPTED_DIFFERENCES):
            continue
        if torch_is_cuda_build() and any(re.search(pattern, call) for pattern, _ in ACCEPTED_CUDA_BUILD_DIFFERENCES):
            continue
        if not torch_is_cuda_build() and any(re.search(pattern, call) for pattern, _ in ACCEPTED_CPU_BUILD_DIFFERENCES):
            continue
        if not same_build_as_torch() and any(s in (o.get("msg") or "") for o in (m, t) for s in BUILD_MESSAGES):
            # torch and minitorch are different builds (CUDA and CPU-only): each answers a device call as
            # its own kind of build does without a GPU, which the other cannot show
            continue
        if t["r"] == "raise" and m["r"] == "ok":
            bad.append("%s: torch raises %s (%s); minitorch returns a %s" % (call, t["exc"], t["msg"], m["type"]))
        elif t["r"] == "raise" and m["r"] == "raise" and not _same_kind(m, t):
            bad.append("%s: torch raises %s (%s); minitorch raises %s (%s)"
                       % (call, t["exc"], t["msg"], m["exc"], m["msg"]))
        elif t["r"] in ("ok", "halfbuilt") and m["r"] == "raise":
            if m["exc"] == "NotImplementedError" and any(s in m["msg"] for s, _ in DOCUMENTED_GAPS):
                continue
            bad.append("%s: torch returns a %s; minitorch raises %s (%s)"
                       % (call, t.get("type", "value"), m["exc"], m["msg"]))
    return bad


# ---- known bugs --------------------------------------------------------------------------------------
# entry point -> "file: bug", for a bug found and not yet fixed. Each is xfail(strict=True): fixing the
# bug makes CI fail until the line is removed. None is open.
KNOWN_CRASHES = {}
KNOWN_CRASHES_GPU = dict(KNOWN_CRASHES)
KNOWN_TORCH_MISMATCHES = {}


def _params(known):
    return [pytest.param(e, marks=pytest.mark.xfail(strict=True, reason=known[e])) if e in known else e
            for e in ENTRIES]


@pytest.mark.parametrize("entry", _params(KNOWN_CRASHES))
def test_no_crash(entry):
    bad = safety_failures(entry, outcomes_for("minitorch"))
    assert not bad, "%d bad call(s) of %s:\n%s" % (len(bad), entry, "\n".join(bad))


@pytest.mark.parametrize("entry", _params(KNOWN_CRASHES_GPU))
def test_no_crash_simulated_gpu(entry):
    bad = safety_failures(entry, outcomes_for("minitorch-gpu"))
    assert not bad, "%d bad call(s) of %s:\n%s" % (len(bad), entry, "\n".join(bad))


@pytest.mark.skipif(bool(os.environ.get("MINITORCH_SIMULATE_GPU")),
                    reason="the meta device is the same code with or without a simulated GPU: it runs in the CPU run")
@pytest.mark.parametrize("entry", ENTRIES)
def test_no_crash_meta(entry):
    """Every input tensor on the meta device, which has no memory: no call may read it (a NULL pointer),
    so each returns a meta result or raises."""
    bad = safety_failures(entry, outcomes_for("minitorch-meta"))
    assert not bad, "%d bad call(s) of %s:\n%s" % (len(bad), entry, "\n".join(bad))


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed: the comparison with torch's exception types "
                                           "is skipped")
@pytest.mark.skipif(bool(os.environ.get("MINITORCH_SIMULATE_GPU") or os.environ.get("MINITORCH_SANITIZED")),
                    reason="the comparison with torch (without a GPU) runs once, in the plain CPU run")
@pytest.mark.skipif(minitorch.cuda.is_available(),
                    reason="minitorch sees a GPU here and the torch it is compared with has none: device "
                           "calls would differ for that reason alone")
@pytest.mark.parametrize("entry", _params(KNOWN_TORCH_MISMATCHES))
def test_matches_torch(entry):
    bad = torch_failures(entry, outcomes_for("minitorch"), outcomes_for("torch"))
    assert not bad, "%d call(s) of %s differ from torch:\n%s" % (len(bad), entry, "\n".join(bad))


def test_matrix_size():
    """The matrix covers every kind of entry point (a guard against introspection finding nothing)."""
    kinds = {e.split(".")[0] for e in ENTRIES}
    assert {"torch", "Tensor", "op", "cuda", "nn"} <= kinds
    assert len(CALLS) > 5000
