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


# ---- MultiheadAttention ---------------------------------------------------------------------------------------

MHA_STRUCTURE = """
import torch
torch.manual_seed({seed})
m = {make}
print(m)
print(m.out_proj, type(m.out_proj).__name__, isinstance(m.out_proj, torch.nn.Linear))
print([(n, list(p.shape)) for n, p in m.named_parameters()])
print(list(m.state_dict().keys()))
print(m._qkv_same_embed_dim, m.head_dim, m.kdim, m.vdim, m.bias_k is None, m.batch_first)
for p in m.parameters():
    print(p.dtype, p.requires_grad, p.flatten().tolist())
"""

MHA_LAYERS = [
    "torch.nn.MultiheadAttention(8, 2)",
    "torch.nn.MultiheadAttention(6, 3, bias=False, batch_first=True)",
    "torch.nn.MultiheadAttention(4, 1, add_bias_kv=True, add_zero_attn=True, dropout=0.2)",
    "torch.nn.MultiheadAttention(6, 2, kdim=3, vdim=5)",
    "torch.nn.MultiheadAttention(6, 2, kdim=6, vdim=4, add_bias_kv=True, dtype=torch.float64)",
]


@pytest.mark.parametrize("make", MHA_LAYERS)
def test_mha_structure_and_init(make):
    compare(MHA_STRUCTURE.format(seed=11, make=make))


MHA_RUN = """
import torch
torch.manual_seed({seed})
def show(t):
    print(None if t is None else [round(x, 5) + 0.0 for x in t.flatten().tolist()])
m = {make}
{setup}
out, w = m({call})
print(out.shape, type(out.grad_fn).__name__, None if w is None else (w.shape, type(w.grad_fn).__name__))
show(out)
show(w)
out.backward(torch.randn(out.shape, dtype=out.dtype))
for n, p in m.named_parameters():
    print(n)
    show(p.grad)
show(q.grad)
"""

MHA_CASES = [
    # (make, setup, call)
    ("torch.nn.MultiheadAttention(8, 2)", "q = torch.randn(5, 3, 8, requires_grad=True)", "q, q, q"),
    ("torch.nn.MultiheadAttention(8, 2)", "q = torch.randn(5, 3, 8, requires_grad=True)",
     "q, q, q, need_weights=False"),
    ("torch.nn.MultiheadAttention(8, 4, batch_first=True)",
     "q = torch.randn(3, 5, 8, requires_grad=True); kv = torch.randn(3, 7, 8)",
     "q, kv, kv, average_attn_weights=False"),
    ("torch.nn.MultiheadAttention(6, 2, kdim=3, vdim=5)",
     "q = torch.randn(4, 2, 6, requires_grad=True); k = torch.randn(7, 2, 3); v = torch.randn(7, 2, 5)", "q, k, v"),
    ("torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)",
     "q = torch.randn(4, 2, 4, requires_grad=True); kpm = torch.tensor([[False, False, True], [False, True, True]])"
     "; k = torch.randn(3, 2, 4)", "q, k, k, key_padding_mask=kpm"),
    ("torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)",
     "q = torch.randn(4, 2, 4, requires_grad=True); am = torch.rand(4, 3) > 0.5; k = torch.randn(3, 2, 4)",
     "q, k, k, attn_mask=am, need_weights=False"),
    ("torch.nn.MultiheadAttention(8, 2)",
     "q = torch.randn(5, 2, 8, requires_grad=True); am = torch.nn.Transformer.generate_square_subsequent_mask(5)",
     "q, q, q, attn_mask=am, is_causal=True, need_weights=False"),
    ("torch.nn.MultiheadAttention(8, 2)",
     "q = torch.randn(5, 2, 8, requires_grad=True); am = torch.randn(4, 5, 5)", "q, q, q, attn_mask=am"),
    ("torch.nn.MultiheadAttention(8, 2, dtype=torch.float64)",
     "q = torch.randn(5, 8, dtype=torch.float64, requires_grad=True); kpm = torch.tensor([0., 0., -1e9, 0., 0.], "
     "dtype=torch.float64)", "q, q, q, key_padding_mask=kpm"),
    ("torch.nn.MultiheadAttention(8, 2, dropout=0.3)", "q = torch.randn(5, 3, 8, requires_grad=True)", "q, q, q"),
    ("torch.nn.MultiheadAttention(8, 2, dropout=0.3, bias=False)",
     "q = torch.randn(5, 3, 8, requires_grad=True); kpm = torch.rand(3, 5) > 0.7",
     "q, q, q, key_padding_mask=kpm, need_weights=False"),
]


@pytest.mark.parametrize("case", MHA_CASES)
def test_mha_values_and_grads(case):
    make, setup, call = case
    compare_close(MHA_RUN.format(seed=4, make=make, setup=setup, call=call), rtol=1e-4, atol=2e-5)


def test_mha_eval_and_no_grad():
    # torch's fast path (eval, no grad, batch_first self-attention) gives the composition's values
    compare_close("""
import torch
torch.manual_seed(0)
m = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
x = torch.randn(3, 5, 8)
kpm = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
with torch.no_grad():
    for kw in ({}, {"key_padding_mask": kpm}, {"need_weights": False}, {"average_attn_weights": False}):
        o, w = m(x, x, x, **kw)
        print([round(v, 5) + 0.0 for v in o.flatten().tolist()])
        print(None if w is None else [round(v, 5) + 0.0 for v in w.flatten().tolist()])
""", rtol=1e-4, atol=2e-5)


def test_mha_functional_form():
    compare_close("""
import torch
import torch.nn.functional as F
torch.manual_seed(2)
E, H = 6, 3
q = torch.randn(4, 2, E); k = torch.randn(5, 2, E); v = torch.randn(5, 2, E)
w = torch.randn(3 * E, E) * 0.3; b = torch.randn(3 * E); ow = torch.randn(E, E); ob = torch.randn(E)
bk = torch.randn(1, 1, E); bv = torch.randn(1, 1, E)
o, a = F.multi_head_attention_forward(q, k, v, E, H, w, b, bk, bv, True, 0.0, ow, ob, training=False)
print([round(x, 4) for x in o.flatten().tolist()], [round(x, 4) for x in a.flatten().tolist()])
o, a = F.multi_head_attention_forward(q, k, v, E, H, None, b, None, None, False, 0.0, ow, ob,
                                      use_separate_proj_weight=True, q_proj_weight=w[:E], k_proj_weight=w[E:2 * E],
                                      v_proj_weight=w[2 * E:], need_weights=False)
print([round(x, 4) for x in o.flatten().tolist()], a)
sk = torch.randn(2 * H, 3, E // H); sv = torch.randn(2 * H, 3, E // H)
o, a = F.multi_head_attention_forward(q, k, v, E, H, w, b, None, None, False, 0.0, ow, ob, static_k=sk, static_v=sv)
print([round(x, 4) for x in o.flatten().tolist()], a.shape)
""", rtol=1e-4, atol=1e-4)


def test_mha_errors():
    compare("""
import torch
import torch.nn.functional as F
torch.nn.MultiheadAttention(7, 2)
torch.nn.MultiheadAttention(0, 2)
m = torch.nn.MultiheadAttention(8, 2)
x = torch.randn(5, 3, 8)
m(x, x, x, is_causal=True)
m(x[0], x, x)
m(x, x, x[0])
m(x[0, 0], x[0, 0], x[0, 0])
m(x, x, x, key_padding_mask=torch.zeros(3, dtype=torch.bool))
m(x, x, x, key_padding_mask=torch.zeros(3, 4, dtype=torch.bool))
m(x, x, x, key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))
m(x, x, x, key_padding_mask=torch.zeros(3, 5, dtype=torch.int64))
m(x, x, x, attn_mask=torch.zeros(4, 5))
m(x, x, x, attn_mask=torch.zeros(2, 5, 5))
m(x, x, x, attn_mask=torch.zeros(1, 1, 5, 5))
m(x[:, 0], x[:, 0], x[:, 0], attn_mask=torch.zeros(3, 5, 5))
m(x[..., :6], x[..., :6], x[..., :6])
m(x, x[:4], x)
F.multi_head_attention_forward(x, x, x, 8, 2, None, None, None, None, False, 0.0, m.out_proj.weight, None)
F.multi_head_attention_forward(x, x, x, 8, 2, m.in_proj_weight, None, torch.zeros(1, 1, 8), None, False, 0.0,
                               m.out_proj.weight, None)
F.multi_head_attention_forward(x, x, x, 8, 2, None, None, None, None, False, 0.0, m.out_proj.weight, None,
                               use_separate_proj_weight=True, q_proj_weight=torch.zeros(8, 8),
                               k_proj_weight=torch.zeros(8, 7), v_proj_weight=torch.zeros(8, 8))
F.multi_head_attention_forward(x, x, x, 8, 2, m.in_proj_weight, None, None, None, False, 0.0, m.out_proj.weight,
                               None, static_k=torch.zeros(5, 5, 4))
""")


def test_mha_mask_dtype_warning():
    compare("""
import torch
import warnings
m = torch.nn.MultiheadAttention(4, 2)
x = torch.randn(3, 2, 4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    m(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.bool), attn_mask=torch.zeros(3, 3))
print([str(w.message) for w in caught])
""")


# ---- transformer layers ------------------------------------------------------------------------------------------

TRANSFORMER_STRUCTURE = """
import torch
import warnings
torch.manual_seed({seed})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    m = {make}
print([str(w.message) for w in caught])
print(m)
print([(n, list(p.shape)) for n, p in m.named_parameters()])
print(list(m.state_dict().keys()))
for p in m.parameters():
    print(p.dtype, p.flatten().tolist())
"""

TRANSFORMERS = [
    "torch.nn.TransformerEncoderLayer(8, 2, 16)",
    "torch.nn.TransformerEncoderLayer(6, 3, 5, dropout=0.0, activation='gelu', batch_first=True, norm_first=True, "
    "bias=False)",
    "torch.nn.TransformerDecoderLayer(4, 2, 6, activation=torch.nn.GELU(), layer_norm_eps=1e-6)",
    "torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 6), 2)",
    "torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 6, batch_first=True), 2, "
    "torch.nn.LayerNorm(4))",
    "torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 1, 6, batch_first=True), 1, "
    "enable_nested_tensor=False)",
    "torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 6, batch_first=True, norm_first=True), 1)",
    "torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(4, 2, 6), 2, torch.nn.LayerNorm(4))",
    "torch.nn.Transformer(8, 2, 2, 1, 12)",
    "torch.nn.Transformer(4, 2, 1, 1, 6, batch_first=True, norm_first=True, bias=False, dtype=torch.float64)",
]


@pytest.mark.parametrize("make", TRANSFORMERS)
def test_transformer_structure_and_init(make):
    compare(TRANSFORMER_STRUCTURE.format(seed=3, make=make))


TRANSFORMER_RUN = """
import torch
torch.manual_seed({seed})
def show(t):
    print([round(x, 4) + 0.0 for x in t.flatten().tolist()])
m = {make}
{setup}
out = m({call})
print(out.shape, type(out.grad_fn).__name__)
show(out)
out.backward(torch.randn(out.shape, dtype=out.dtype))
for n, p in m.named_parameters():
    print(n)
    show(p.grad)
"""

TRANSFORMER_CASES = [
    ("torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)", "x = torch.randn(5, 3, 8)", "x"),
    ("torch.nn.TransformerEncoderLayer(8, 2, 16)", "x = torch.randn(5, 3, 8)", "x"),       # dropout's masks
    ("torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation='gelu', norm_first=True, batch_first=True)",
     "x = torch.randn(3, 5, 8); kpm = torch.rand(3, 5) > 0.7", "x, src_key_padding_mask=kpm"),
    ("torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=torch.tanh)",
     "x = torch.randn(5, 8); mask = torch.nn.Transformer.generate_square_subsequent_mask(5)",
     "x, src_mask=mask, is_causal=True"),
    ("torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)",
     "x = torch.randn(4, 2, 8); mem = torch.randn(6, 2, 8); mask = torch.nn.Transformer.generate_square_subsequent_mask(4)",
     "x, mem, tgt_mask=mask, memory_key_padding_mask=torch.tensor([[False] * 5 + [True], [False] * 6])"),
    ("torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, torch.nn.LayerNorm(8))",
     "x = torch.randn(5, 2, 8); mask = torch.nn.Transformer.generate_square_subsequent_mask(5)", "x, mask=mask"),
    ("torch.nn.Transformer(8, 2, 2, 2, 12, dropout=0.0)",
     "src = torch.randn(6, 2, 8); tgt = torch.randn(4, 2, 8)",
     "src, tgt, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(4), "
     "src_key_padding_mask=torch.tensor([[False] * 6, [False] * 4 + [True] * 2])"),
    ("torch.nn.Transformer(4, 2, 1, 1, 6, batch_first=True, norm_first=True, dtype=torch.float64)",
     "src = torch.randn(2, 3, 4, dtype=torch.float64); tgt = torch.randn(2, 5, 4, dtype=torch.float64)",
     "src, tgt, tgt_is_causal=True, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(5, "
     "dtype=torch.float64)"),
]


@pytest.mark.parametrize("case", TRANSFORMER_CASES)
def test_transformer_values_and_grads(case):
    make, setup, call = case
    compare_close(TRANSFORMER_RUN.format(seed=8, make=make, setup=setup, call=call), rtol=1e-3, atol=2e-4)


def test_transformer_eval_fast_paths():
    # eval without grad: torch's fused layer and (batch_first, key padding, left-aligned) nested tensors,
    # whose padded positions come back as zeros
    compare_close("""
import torch
import warnings
torch.manual_seed(5)
enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2,
                                  torch.nn.LayerNorm(8)).eval()
x = torch.randn(3, 5, 8)
left = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
scattered = torch.tensor([[False] * 5, [False, True, False, True, False], [False] * 4 + [True]])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.no_grad():
        for kpm in (None, left, scattered):
            print([round(v, 4) + 0.0 for v in enc(x, src_key_padding_mask=kpm).flatten().tolist()])
        print([round(v, 4) + 0.0 for v in enc.layers[0](x, src_key_padding_mask=left).flatten().tolist()])
    print([round(v, 4) + 0.0 for v in enc(x, src_key_padding_mask=left).flatten().tolist()])
print(len(caught))
""", rtol=1e-3, atol=2e-4)


def test_transformer_masks_and_errors():
    compare("""
import torch
T = torch.nn.Transformer
print(T.generate_square_subsequent_mask(4))
print(T.generate_square_subsequent_mask(3, dtype=torch.float64))
print(T.generate_square_subsequent_mask(0))
torch.nn.TransformerEncoderLayer(8, 2, activation="tanh")
torch.nn.TransformerDecoderLayer(8, 2, activation="sigmoid")
m = T(8, 2, 1, 1, 12)
m(torch.randn(5, 2, 8), torch.randn(4, 3, 8))
m(torch.randn(5, 2, 8), torch.randn(4, 2, 6))
torch.nn.TransformerEncoderLayer(8, 2)(torch.randn(5, 2, 8), src_key_padding_mask=torch.zeros(2, 5, dtype=torch.int64))
l = torch.nn.TransformerEncoderLayer(8, 2)
print(l.activation_relu_or_gelu, torch.nn.TransformerEncoderLayer(8, 2, activation='gelu').activation_relu_or_gelu,
      torch.nn.TransformerEncoderLayer(8, 2, activation=torch.nn.ReLU()).activation_relu_or_gelu,
      torch.nn.TransformerEncoderLayer(8, 2, activation=torch.sigmoid).activation_relu_or_gelu)
print(l.activation is torch.nn.functional.relu)
""")


# ---- devices ------------------------------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
def test_mha_and_transformer_on_device(device):
    minitorch.manual_seed(0)
    layers = [nn.MultiheadAttention(8, 2, add_bias_kv=True, dtype=minitorch.float64),
              nn.Transformer(8, 2, 1, 1, 12, dropout=0.0, dtype=minitorch.float64)]
    src = minitorch.randn(5, 2, 8, dtype=minitorch.float64)
    tgt = minitorch.randn(4, 2, 8, dtype=minitorch.float64)
    kpm = minitorch.tensor([[False] * 4 + [True], [False] * 5])
    import copy
    for layer in layers:
        moved = copy.deepcopy(layer).to(device)
        if isinstance(layer, nn.MultiheadAttention):
            cpu = layer(tgt, src, src, key_padding_mask=kpm)[0]
            dev = moved(tgt.to(device), src.to(device), src.to(device), key_padding_mask=kpm.to(device))[0]
        else:
            cpu = layer(src, tgt, src_key_padding_mask=kpm)
            dev = moved(src.to(device), tgt.to(device), src_key_padding_mask=kpm.to(device))
        assert dev.device.type == device
        _same(cpu, dev, 1e-9)
        cpu.sum().backward()
        dev.sum().backward()
        for a, b in zip(layer.parameters(), moved.parameters()):
            assert b.grad.device.type == device
            _same(a.grad, b.grad, 1e-9)
