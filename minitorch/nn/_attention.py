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
        attn = F._dropout(attn, dropout_p, True, False)
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


# ---- multi-head attention (torch.nn.functional's Python code, step for step) ----------------------------------


def _pad_last(mask):
    """mask with one 0 appended along its last dim (F.pad(mask, (0, 1)) of a mask that needs no gradient)."""
    zeros = minitorch.zeros(tuple(mask.shape[:-1]) + (1,), dtype=mask.dtype, device=mask.device)
    return minitorch.cat([mask, zeros], -1)


def mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """torch's _mha_shape_check: whether the input is batched, with its assertions."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                 f" but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                     f" but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                if attn_mask.shape != expected_shape:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected_shape} but got "
                                         f"{attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """torch's _canonical_mask: a bool mask turned into 0 / -inf of target_type; a float one kept."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype != minitorch.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        import warnings

        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not is_float:
        mask = minitorch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, minitorch.Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _split_heads(proj, count, size):
    """(..., count * size) -> count tensors (...,  size), made contiguous as torch's packed projection does."""
    proj = proj.unflatten(-1, (count, size)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
    return [proj[i] for i in range(count)]


def in_projection_packed(q, k, v, w, b=None):
    """torch's _in_projection_packed: one linear for self-attention, two when key is value, else three."""
    from minitorch.nn.functional import linear

    E = q.size(-1)
    if k is v:
        if q is k:
            return _split_heads(linear(q, w, b), 3, E)
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        return [linear(q, w_q, b_q)] + _split_heads(linear(k, w_kv, b_kv), 2, E)
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """torch's _in_projection: three linears, with its shape assertions."""
    from minitorch.nn.functional import linear

    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if w.shape != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and b.shape != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {b.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _check_static(static, name, bsz, num_heads, head_dim):
    if static.size(0) != bsz * num_heads:
        raise AssertionError(f"expecting {name}.size(0) of {bsz * num_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """torch.nn.functional.multi_head_attention_forward: (tgt_len, bsz, E) (or unbatched (tgt_len, E)) query,
    key and value; returns the attention output and, with need_weights, the attention weights (averaged
    over the heads with average_attn_weights)."""
    from minitorch.nn import functional as F

    is_batched = mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len, _, _ = key.shape
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", none_or_dtype(attn_mask), "attn_mask",
                                      query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if attn_mask.shape != correct_2d_size:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{correct_2d_size}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if attn_mask.shape != correct_3d_size:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{correct_3d_size}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = minitorch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = minitorch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    else:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")

    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        k = _check_static(static_k, "static_k", bsz, num_heads, head_dim)
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        v = _check_static(static_v, "static_v", bsz, num_heads, head_dim)

    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = minitorch.cat([k, minitorch.zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = minitorch.cat([v, minitorch.zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)

    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        _B, _Nt, E = q.shape
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            # torch.baddbmm(attn_mask, q_scaled, k^T): the product, then the mask added (beta = alpha = 1)
            attn_output_weights = minitorch.bmm(q_scaled, k.transpose(-2, -1)) + attn_mask
        else:
            attn_output_weights = minitorch.bmm(q_scaled, k.transpose(-2, -1))
        attn_output_weights = F.softmax(attn_output_weights, dim=-1)
        if dropout_p > 0.0:
            attn_output_weights = F.dropout(attn_output_weights, p=dropout_p)
        attn_output = minitorch.bmm(attn_output_weights, v)
        attn_output = attn_output.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = F.linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.mean(dim=1)
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = F.linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None
