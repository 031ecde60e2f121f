"""The activations as layers: modules around their ``functional`` forms that remember the options
(``inplace``, slopes, bounds, softmax's ``dim``) and print them as torch does; and, where torch keeps it,
``MultiheadAttention``."""

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.linear import NonDynamicallyQuantizableLinear
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["ReLU", "LeakyReLU", "ELU", "CELU", "SELU", "SiLU", "Mish", "Hardswish", "Hardsigmoid", "GELU",
           "Softplus", "Hardtanh", "ReLU6", "Tanh", "Sigmoid", "LogSigmoid", "Softmax", "LogSoftmax", "Softmin",
           "Softmax2d", "GLU", "Hardshrink", "Softshrink", "Softsign", "Tanhshrink", "Threshold", "PReLU", "RReLU", "MultiheadAttention"]


class ReLU(Module):
    """max(x, 0) elementwise. With ``inplace=True`` the result overwrites (and is) the input."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """max(input, 0) elementwise (in place with inplace=True)."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        """'inplace=True' when the layer works in place, else nothing."""
        # Only a non-default setting is shown: ReLU() vs ReLU(inplace=True).
        return "inplace=True" if self.inplace else ""


def _inplace_suffix(inplace, first):
    """torch's reprs: ', inplace=True' after other fields (or 'inplace=True' alone), nothing otherwise."""
    return ("inplace=True" if first else ", inplace=True") if inplace else ""


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x."""

    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"negative_slope={self.negative_slope}" + _inplace_suffix(self.inplace, False)


class ELU(Module):
    """x where x > 0, else alpha * (exp(x) - 1)."""

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"alpha={self.alpha}" + _inplace_suffix(self.inplace, False)


class CELU(ELU):
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.celu(input, self.alpha, self.inplace)


class _InplaceActivation(Module):
    """An activation whose only option is inplace; subclasses name their functional form."""

    __constants__ = ["inplace"]
    function = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return type(self).function(input, inplace=self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return _inplace_suffix(self.inplace, True)


class SELU(_InplaceActivation):
    """scale * elu(x, alpha) with the self-normalising constants."""

    function = staticmethod(F.selu)


class SiLU(_InplaceActivation):
    """x * sigmoid(x)."""

    function = staticmethod(F.silu)


class Mish(_InplaceActivation):
    """x * tanh(softplus(x))."""

    function = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6."""

    function = staticmethod(F.hardswish)


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6."""

    function = staticmethod(F.hardsigmoid)


class GELU(Module):
    """x * Phi(x) (approximate='tanh': torch's tanh approximation)."""

    __constants__ = ["approximate"]

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear above threshold."""

    __constants__ = ["beta", "threshold"]

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """clamp(x, min_val, max_val)."""

    __constants__ = ["min_val", "max_val", "inplace"]

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_suffix(self.inplace, False)


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return _inplace_suffix(self.inplace, True)


class _PlainActivation(Module):
    """An activation without options; subclasses name their functional form."""

    function = None

    def forward(self, input):
        """The activation of input, elementwise."""
        return type(self).function(input)


class Tanh(_PlainActivation):
    """tanh(x)."""

    function = staticmethod(F.tanh)


class Sigmoid(_PlainActivation):
    """1 / (1 + exp(-x))."""

    function = staticmethod(F.sigmoid)


class LogSigmoid(_PlainActivation):
    """log(sigmoid(x))."""

    function = staticmethod(F.logsigmoid)


class Softmax(Module):
    """softmax along ``dim``: the elements along it are positive and sum to 1. ``dim=None`` is torch's
    deprecated implicit choice (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """softmax(input, self.dim)."""
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': Softmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed stably. ``dim=None`` is torch's deprecated implicit choice
    (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """log_softmax(input, self.dim)."""
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': LogSoftmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)


class Softmin(Module):
    """softmax(-x) along ``dim``. ``dim=None`` is torch's deprecated implicit choice (with its warning, at
    each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """softmin(input, self.dim)."""
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': Softmin(dim=1)."""
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        """softmax(input, -3)."""
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class GLU(Module):
    """a * sigmoid(b), a and b the halves of the input along ``dim``."""

    __constants__ = ["dim"]

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        """glu(input, self.dim)."""
        return F.glu(input, self.dim)

    def extra_repr(self):
        """'dim=-1': GLU(dim=-1)."""
        return f"dim={self.dim}"


class Hardshrink(Module):
    """0 where |x| <= lambd, else x."""

    __constants__ = ["lambd"]

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        """lambd alone: Hardshrink(0.5)."""
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.softshrink(input, self.lambd)


class Softsign(_PlainActivation):
    """x / (1 + |x|)."""

    function = staticmethod(F.softsign)


class Tanhshrink(_PlainActivation):
    """x - tanh(x)."""

    function = staticmethod(F.tanhshrink)


class Threshold(Module):
    """x where x > threshold, else value."""

    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        """The activation of input, elementwise."""
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"threshold={self.threshold}, value={self.value}" + _inplace_suffix(self.inplace, False)


class PReLU(Module):
    """x where x > 0, else weight * x: a learnt slope, one for all channels or one per channel (dim 1),
    initialised to ``init``."""

    __constants__ = ["num_parameters"]

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(minitorch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        """The slopes set back to init."""
        init.constant_(self.weight, self.init)

    def forward(self, input):
        """prelu(input, self.weight)."""
        return F.prelu(input, self.weight)

    def extra_repr(self):
        """'num_parameters=1': PReLU(num_parameters=1)."""
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """x where x >= 0, else x times a slope drawn from [lower, upper] in training, (lower + upper) / 2 in eval."""

    __constants__ = ["lower", "upper", "inplace"]

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        """rrelu of input in this module's mode."""
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        """The options torch shows between the parentheses of the repr."""
        return f"lower={self.lower}, upper={self.upper}" + _inplace_suffix(self.inplace, False)


class MultiheadAttention(Module):
    """Attention over num_heads heads of embed_dim // num_heads features each: the query, key and value
    projected (in_proj_weight packed, or q/k/v_proj_weight when kdim or vdim differ from embed_dim), scaled
    dot-product attention per head, and out_proj. Parameters are created and initialised in torch's order
    (xavier_uniform_ on the projections, zeros on the biases, xavier_normal_ on bias_k/bias_v), so after
    the same manual_seed they are torch's bit for bit.

    torch's eval-mode fast path (torch._native_multi_head_attention, taken without grad for batch_first
    self-attention) computes the same attention in one kernel; minitorch always runs the composition, whose
    values agree with it to float rounding.
    """

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(minitorch.empty((embed_dim, embed_dim), **factory_kwargs))
            self.k_proj_weight = Parameter(minitorch.empty((embed_dim, self.kdim), **factory_kwargs))
            self.v_proj_weight = Parameter(minitorch.empty((embed_dim, self.vdim), **factory_kwargs))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(minitorch.empty((3 * embed_dim, embed_dim), **factory_kwargs))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(minitorch.empty(3 * embed_dim, **factory_kwargs))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory_kwargs)
        if add_bias_kv:
            self.bias_k = Parameter(minitorch.empty((1, 1, embed_dim), **factory_kwargs))
            self.bias_v = Parameter(minitorch.empty((1, 1, embed_dim), **factory_kwargs))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def __setstate__(self, state):
        if "_qkv_same_embed_dim" not in state:
            state["_qkv_same_embed_dim"] = True
        super().__setstate__(state)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """(attn_output, attn_output_weights or None), as F.multi_head_attention_forward computes them
        (batch_first inputs transposed to sequence-first and back)."""
        is_batched = query.dim() == 3
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask", F._none_or_dtype(attn_mask),
                                             "attn_mask", query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else {
            "use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
            "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        attn_output, attn_output_weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        return attn_output, attn_output_weights

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """torch's merge of attn_mask and key_padding_mask into one mask for its fast path, with torch's mask
        type (1: key padding alone, 2: an attn_mask, with the key padding added when both are given)."""
        mask_type = None
        merged_mask = None
        if key_padding_mask is not None:
            mask_type = 1
            merged_mask = key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                attn_mask_expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                attn_mask_expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(batch_size, self.num_heads, -1, -1)
            merged_mask = attn_mask_expanded
            if key_padding_mask is not None:
                key_padding_mask_expanded = key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1)
                merged_mask = attn_mask_expanded + key_padding_mask_expanded
        return merged_mask, mask_type
