"""Scaled dot-product attention as torch 2.13's CPU build runs it, composed from minitorch's tensor ops.

torch's ``scaled_dot_product_attention`` checks its inputs, then picks a backend: on the CPU either its
flash-attention kernel (one node, ``ScaledDotProductFlashAttentionForCpuBackward0``) or the "math"
composition (``_scaled_dot_product_attention_math``: scaled matmuls, an in-place mask add, the safe
softmax that gives 0 to a fully masked row, dropout, a matmul). This file makes torch's choice by
torch's rules (sdp_utils_cpp's gates, in their order) on every device and runs the chosen one: the
math path as torch's op sequence (so its nodes are torch's), the flash kernel as one node whose values
are the same attention computed in one pass (they agree with torch's blocked kernel to float rounding).
Argument parsing and the public function live in functional.py; this file holds no state.
"""

import math

import minitorch
from minitorch._legacy import _C10_NAMES
from minitorch.nn import _native

_REDUCED = (minitorch.float16, minitorch.bfloat16)
_FLASH_DTYPES = (minitorch.float32, minitorch.float64, minitorch.float16, minitorch.bfloat16)


def _c10_name(dtype):
    return _C10_NAMES[str(dtype).split(".")[-1]]


def validate_input(query, key, value, attn_mask):
    """torch's validate_sdpa_input: one dtype, one device, at least 2-D, and a mask of a usable dtype."""
    if not (query.dtype == key.dtype and query.dtype == value.dtype):
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_c10_name(query.dtype)} key.dtype: {_c10_name(key.dtype)} and value.dtype: "
                           f"{_c10_name(value.dtype)} instead.")
    if not (query.device == key.device and query.device == value.device):
        raise RuntimeError(f"Expected query, key, and value to have the same device type, but got query.device: "
                           f"{query.device} key.device: {key.device} and value.device: {value.device} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype not in (minitorch.bool, minitorch.float32, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {_c10_name(attn_mask.dtype)} and  query.dtype: "
                           f"{_c10_name(query.dtype)} instead.")


def _mask_shape_fits(query, key, attn_mask):
    """sdp_utils_cpp's check_attn_mask_shape (its size(-2) raises IndexError for a 1-D mask, as torch's)."""
    if attn_mask is None:
        return True
    if attn_mask.requires_grad:
        return False
    rows, cols = attn_mask.size(-2), attn_mask.size(-1)
    if rows not in (query.size(2), 1) or cols not in (key.size(2), 1):
        return False
    if attn_mask.dim() == 2:
        return True
    return (attn_mask.dim() == 4 and attn_mask.size(0) in (1, query.size(0))
            and attn_mask.size(1) in (1, query.size(1)))


def _heads_fit(query, key, value, enable_gqa):
    """check_batch_size_and_num_heads_dense<supports_gqa=true> with check_grouped_query_attention."""
    if not (query.size(0) == key.size(0) == value.size(0)):
        return False
    q_heads, k_heads, v_heads = query.size(-3), key.size(-3), value.size(-3)
    if enable_gqa:
        return k_heads == v_heads and q_heads % k_heads == 0
    return q_heads == k_heads == v_heads


def use_flash(query, key, value, attn_mask, dropout_p, enable_gqa):
    """torch's use_flash_attention_cpp: its gates in their order (each one's failure falls back to math)."""
    if dropout_p > 0.0:
        return False
    if not (query.dim() == key.dim() == value.dim() == 4):
        return False
    if not _heads_fit(query, key, value, enable_gqa):
        return False
    if not _mask_shape_fits(query, key, attn_mask):
        return False
    if not (query.size(-1) == key.size(-1) == value.size(-1)):
        return False
    if query.size(-2) == 0 or key.size(-2) == 0:
        return False
    if query.stride(-1) != 1 or key.stride(-1) != 1 or value.stride(-1) != 1:
        return False
    return query.dtype in _FLASH_DTYPES


def convert_boolean_mask(attn_mask, dtype):
    """torch's convert_boolean_attn_mask: True keeps a position (0), False removes it (-inf)."""
    if attn_mask is None or attn_mask.dtype != minitorch.bool:
        return attn_mask
    zero = minitorch.zeros((), dtype=dtype, device=attn_mask.device)
    return minitorch.where(attn_mask.logical_not(), -math.inf, zero)


def _scale(query, scale):
    """sdp::calculate_scale: the given scale, or 1/sqrt(head size), in double."""
    if scale is not None:
        return scale
    return 1.0 / math.sqrt(query.size(-1)) if query.size(-1) else math.inf


def _group_heads(query, key, value, enable_gqa):
    """pre_process_group_query_attention_input: key and value heads repeated to the query's."""
    if not enable_gqa:
        return key, value
    q_heads, k_heads, v_heads = query.size(-3), key.size(-3), value.size(-3)
    if q_heads % k_heads != 0 or q_heads % v_heads != 0:
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    if q_heads == k_heads == v_heads:
        return key, value
    return key.repeat_interleave(q_heads // k_heads, -3), value.repeat_interleave(q_heads // v_heads, -3)


def _causal_mask(query, key, dtype):
    rows, cols = query.size(-2), key.size(-2)
    keep = minitorch.ones((rows, cols), dtype=minitorch.bool, device=query.device).tril()
    return convert_boolean_mask(keep, dtype)


def _softmax_rows(x):
    """softmax over the last dim, a row whose every entry is -inf giving zeros (torch's _safe_softmax)."""
    out = x.softmax(-1)
    masked_rows = x.eq(-math.inf).all(-1, keepdim=True)
    return minitorch.where(masked_rows, minitorch.zeros((), dtype=out.dtype, device=out.device), out)


class SafeSoftmax(_native._NativeOp):
    """torch's _safe_softmax: softmax, with fully masked rows 0. Backward: softmax's, from the result."""

    node = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x):
        result = _softmax_rows(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return result * (grad - (grad * result).sum(-1, keepdim=True))


def math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """torch's _scaled_dot_product_attention_math, op for op (attn_mask already converted to numbers)."""
    from minitorch.nn import functional as F

    origin = query.dtype
    if origin in _REDUCED:
        query, key, value = query.float(), key.float(), value.float()
    negative = scale is not None and scale < 0.0
    factor = math.sqrt(abs(scale) if negative else _scale(query, scale))
    query = query * (0.0 - factor if negative else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
        attn_mask = _causal_mask(query, key, query.dtype)
    key, value = _group_heads(query, key, value, enable_gqa)
    attn = minitorch.matmul(query, key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        attn.add_(attn_mask)
    attn = SafeSoftmax.apply(attn)
    if dropout_p > 0.0:
        try:
            F._check_dropout_p(dropout_p)
        except ValueError as error:     # ATen's dropout raises the same words as a RuntimeError
            raise RuntimeError(str(error)) from None
        attn = F._dropout(attn, dropout_p, True, False, None)
    return minitorch.matmul(attn, value).to(origin)


class FlashAttentionForCpu(_native._NativeOp):
    """torch's _scaled_dot_product_flash_attention_for_cpu: softmax(q k^T * scale + mask) v in one node
    (q, k, v differentiable; the mask is not). Reduced-precision inputs are computed in float32 and
    rounded once, as torch's kernel accumulates them."""

    node = "ScaledDotProductFlashAttentionForCpuBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, query, key, value, attn_mask, is_causal, scale):
        origin = query.dtype
        q, k, v = (t.float() if origin in _REDUCED else t for t in (query, key, value))
        groups = q.size(1) // k.size(1)
        if groups != 1:
            k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
        scores = minitorch.matmul(q, k.transpose(-2, -1)) * _scale(q, scale)
        if attn_mask is not None:
            scores = scores + attn_mask
        if is_causal:
            scores = scores + _causal_mask(q, k, scores.dtype)
        probs = _softmax_rows(scores)
        ctx.save_for_backward(q, k, v, probs)
        ctx.factor, ctx.groups, ctx.origin = _scale(q, scale), groups, origin
        return minitorch.matmul(probs, v).to(origin)

    @staticmethod
    def backward(ctx, grad):
        q, k, v, probs = ctx.saved_tensors
        grad = grad.to(q.dtype)
        grad_v = minitorch.matmul(probs.transpose(-2, -1), grad)
        grad_probs = minitorch.matmul(grad, v.transpose(-2, -1))
        grad_scores = probs * (grad_probs - (grad_probs * probs).sum(-1, keepdim=True))
        grad_q = minitorch.matmul(grad_scores, k) * ctx.factor
        grad_k = minitorch.matmul(grad_scores.transpose(-2, -1), q) * ctx.factor
        if ctx.groups != 1:
            b, h, s, e = grad_k.shape
            grad_k = grad_k.view(b, h // ctx.groups, ctx.groups, s, e).sum(2)
            b, h, s, e = grad_v.shape
            grad_v = grad_v.view(b, h // ctx.groups, ctx.groups, s, e).sum(2)
        return (grad_q.to(ctx.origin), grad_k.to(ctx.origin), grad_v.to(ctx.origin), None, None, None)


def flash_attention(query, key, value, attn_mask, dropout_p, is_causal, scale):
    if dropout_p != 0.0:
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0")
    return FlashAttentionForCpu.apply(query, key, value, attn_mask, is_causal, scale)


def scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """torch's at::scaled_dot_product_attention after its parser: validate, choose, convert the mask, run."""
    validate_input(query, key, value, attn_mask)
    if query.size(-2) == 0 or key.size(-2) == 0:
        # torch's answer for an empty sequence: zeros, tied to every input through a sum times 0
        zeros = minitorch.zeros(tuple(query.shape[:-1]) + (value.size(-1),), dtype=query.dtype, device=query.device)
        return zeros + (query.sum() + key.sum() + value.sum()) * 0
    flash = use_flash(query, key, value, attn_mask, dropout_p, enable_gqa)
    attn_mask = convert_boolean_mask(attn_mask, query.dtype)
    if flash:
        return flash_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)
    return math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
