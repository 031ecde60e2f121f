"""Tests for attention and the transformer layers (F.scaled_dot_product_attention, nn.MultiheadAttention,
F.multi_head_attention_forward, nn.Transformer*) against real torch.

Structure (parameter names and order, state_dict, repr, seeded weights bit for bit, shapes, node names,
errors) must print the same as torch's; outputs and gradients are compared to float rounding
(compare_close): the products go through minitorch's GEMM, and torch's CPU flash-attention kernel sums
in blocks (see README "Known differences"). The device tests run the same calls on a CUDA device
(MINITORCH_SIMULATE_GPU=1) and check them against the CPU.
"""

import pytest

from parity import compare, compare_close

import minitorch
import minitorch.nn as nn
import minitorch.nn.functional as F

# ---- scaled_dot_product_attention -------------------------------------------------------------------------

SDPA = """
import torch
import torch.nn.functional as F
torch.manual_seed({seed})
def show(t):
    print([round(x, 5) + 0.0 for x in t.flatten().tolist()])
q = torch.randn({q}, dtype={dtype}).requires_grad_()
k = torch.randn({k}, dtype={dtype}).requires_grad_()
v = torch.randn({v}, dtype={dtype}).requires_grad_()
{setup}
out = F.scaled_dot_product_attention(q, k, v{kwargs})
print(out.shape, out.dtype, out.stride(), type(out.grad_fn).__name__)
show(out)
g = torch.randn(out.shape, dtype={dtype})
out.backward(g)
show(q.grad)
show(k.grad)
show(v.grad)
"""

SDPA_CASES = [
    # (q, k, v, setup, kwargs)
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "", ""),
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "", ", is_causal=True"),
    ("1, 2, 6, 4", "1, 2, 6, 4", "1, 2, 6, 4", "", ", is_causal=True, scale=0.3"),
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "m = torch.rand(5, 7) > 0.4", ", attn_mask=m"),
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "m = torch.randn(2, 1, 5, 7, dtype=q.dtype)", ", attn_mask=m"),
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "m = torch.rand(5, 7) > 0.4", ", attn_mask=m, is_causal=True"),
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 6", "", ""),                      # value's head size differs: math
    ("3, 5, 8", "3, 7, 8", "3, 7, 8", "", ", scale=-0.7"),                     # 3-D: math
    ("5, 4", "7, 4", "7, 3", "", ", is_causal=True"),                          # 2-D: math
    ("2, 3, 5, 8", "2, 3, 7, 8", "2, 3, 7, 8", "m = torch.randn(3, 5, 7, dtype=q.dtype)", ", attn_mask=m"),
    ("2, 4, 5, 8", "2, 2, 7, 8", "2, 2, 7, 8", "", ", enable_gqa=True"),
    ("2, 4, 5, 8", "2, 1, 7, 8", "2, 1, 7, 8", "", ""),                        # broadcast heads: math
    ("1, 2, 4, 4", "1, 2, 4, 4", "1, 2, 4, 4", "m = torch.zeros(4, 4, dtype=torch.bool); m[1:, 0] = True",
     ", attn_mask=m"),                                                         # a fully masked row is 0
    ("3, 5, 4", "3, 5, 4", "3, 5, 4", "m = torch.zeros(5, 5, dtype=torch.bool); m[2:, :2] = True",
     ", attn_mask=m"),
    ("1, 1, 2, 4", "1, 1, 0, 4", "1, 1, 0, 3", "", ""),                        # empty sequence
]


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("case", SDPA_CASES)
def test_sdpa_values_and_grads(case, dtype):
    q, k, v, setup, kwargs = case
    compare_close(SDPA.format(seed=5, q=q, k=k, v=v, setup=setup, kwargs=kwargs, dtype=dtype), rtol=1e-4, atol=1e-5)


def test_sdpa_dropout_masks_are_torchs():
    # the math path's dropout draws torch's Bernoulli mask after manual_seed
    compare_close(SDPA.format(seed=2, q="2, 2, 4, 4", k="2, 2, 6, 4", v="2, 2, 6, 4", setup="torch.manual_seed(9)",
                              kwargs=", dropout_p=0.4", dtype="torch.float32"), rtol=1e-4, atol=1e-5)


def test_sdpa_reduced_precision():
    compare_close("""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 3, 4) for _ in range(3))
for dt in (torch.float16, torch.bfloat16):
    o = F.scaled_dot_product_attention(q.to(dt), k.to(dt), v.to(dt))
    print(o.dtype, o.float())
    o = F.scaled_dot_product_attention(q[0].to(dt).requires_grad_(), k[0].to(dt), v[0].to(dt))
    print(o.dtype, type(o.grad_fn).__name__, o.float())
""", rtol=1e-2, atol=1e-2)


def test_sdpa_errors():
    compare("""
import torch
import torch.nn.functional as F
S = F.scaled_dot_product_attention
q = torch.randn(2, 3, 5, 8); k = torch.randn(2, 3, 7, 8); v = torch.randn(2, 3, 7, 8)
S(q, k.double(), v)
S(q, k, v[..., 0])
S(q[0, 0, 0], k, v)
S(q, k, v, attn_mask=torch.ones(5, 7, dtype=torch.int64))
S(q, k, v, attn_mask=torch.ones(5, 7, dtype=torch.float64))
S(q, k, v, attn_mask=torch.ones(5, 7, dtype=torch.bool), is_causal=True, dropout_p=0.1)
S(q, k, v, attn_mask=torch.ones(5, 6))
S(q, k[..., :6], v)
S(q, k[:, :2], v[:, :2], enable_gqa=True)
S(q, k, v, dropout_p=1.5)
S(q, k, v, dropout_p=-1)
S(q, k, v, attn_mask=torch.zeros(7))
S(q, k, v, 1)
S(q, k, v, None, 0.0, False, None, False, 1)
S(q, k, v, dropout_p="a")
S(q, k, v, is_causal=1)
S(q, k, v, foo=1)
S(q, [1], v)
S(q, k)
print(S(q[..., :0], k[..., :0], v).shape)
""")


# ---- devices ------------------------------------------------------------------------------------------------

def _same(a, b, tol=1e-5):
    assert minitorch.allclose(a.cpu(), b.cpu(), rtol=tol, atol=tol)


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"dropout_p": 0.0, "scale": 0.2}])
def test_sdpa_device_matches_cpu(device, kwargs):
    minitorch.manual_seed(0)
    q, k, v = (minitorch.randn(2, 2, 5, 4, dtype=minitorch.float64) for _ in range(3))
    mask = minitorch.rand(5, 5) > 0.3
    for attn_mask in (None, mask):
        if attn_mask is not None and kwargs.get("is_causal"):
            continue
        cpu = [t.clone().requires_grad_() for t in (q, k, v)]
        dev = [t.detach().to(device).requires_grad_() for t in (q, k, v)]
        m_dev = None if attn_mask is None else attn_mask.to(device)
        out_cpu = F.scaled_dot_product_attention(*cpu, attn_mask=attn_mask, **kwargs)
        out_dev = F.scaled_dot_product_attention(*dev, attn_mask=m_dev, **kwargs)
        assert out_dev.device.type == device
        _same(out_cpu, out_dev)
        out_cpu.sum().backward()
        out_dev.sum().backward()
        for a, b in zip(cpu, dev):
            _same(a.grad, b.grad)


def test_sdpa_gradcheck(device):
    minitorch.manual_seed(1)
    q, k, v = (minitorch.randn(1, 2, 3, 4, dtype=minitorch.float64, device=device, requires_grad=True)
               for _ in range(3))
    mask = minitorch.tensor([[True, False, True], [False, False, False], [True, True, True]], device=device)
    assert minitorch.autograd.gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask),
                                        (q, k, v))
    assert minitorch.autograd.gradcheck(
        lambda a, b, c: F.scaled_dot_product_attention(a[0], b[0], c[0], is_causal=True), (q, k, v))
