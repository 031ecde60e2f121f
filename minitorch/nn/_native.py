"""The nn ops torch implements natively (ATen's mse_loss, binary_cross_entropy, leaky_relu, gelu, ...),
composed here from minitorch's tensor ops.

Each op is one node in the graph, named as torch names it (MseLossBackward0, GeluBackward0, ...): the
forward runs below autograd in the order torch's CPU kernel evaluates it, and the backward is torch's
formula (tools/autograd/derivatives.yaml and the *_backward kernels), itself made of tensor ops, so it
runs on every device and records a graph under create_graph=True. Ops without a transcendental function
(mse, smooth L1, leaky_relu, hardtanh, hardswish, hardsigmoid) give torch's values bit for bit (Huber's
gradient within an ulp), and so does gelu on the CPU (torch's kernel, kernels/cpu/gelu.c); the others are
within a few ulps (torch's CPU kernels take exp, log and erf
from SLEEF or MKL). Besides the activations and losses: embedding, batch and layer norm (float32
bit for bit: they follow torch's CPU kernels step by step, see the normalisation section), group norm,
xlogy and at::norm (for kl_div and pairwise_distance), pixel shuffle and the resampling ops (nearest and
linear upsampling, and the gather that reflection and replication padding share with the nearest modes);
padding's checks are in _padding.py, convolution and pooling in _conv.py.
"""

import math
import struct

import minitorch
from minitorch.autograd.function import Function, _NotImplemented, _apply, _apply_inplace

# reduction as the kernels take it (torch.nn._reduction)
NONE, MEAN, SUM = 0, 1, 2


def _reduce(loss, reduction):
    return loss if reduction == NONE else loss.mean() if reduction == MEAN else loss.sum()


def _grad_scale(input, reduction):
    """The factor a mean reduction puts on every element's gradient."""
    return 1.0 / input.numel() if reduction == MEAN else 1.0


class _Hidden:
    """An argument kept off the node's edges (a target, a class weight, a running statistic)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


# stands for an omitted optional input (bias=None) that still has its edge slot, as torch's nodes do
_ABSENT = minitorch.empty(0)


class _Edges:
    """What _apply runs for an op whose `edges` name its differentiable inputs: the other tensor
    arguments are hidden from autograd, and an omitted input among the edges keeps its slot."""

    def __init__(self, op):
        self.op = op
        self.setup_context = Function.setup_context

    def forward(self, ctx, *args):
        plain = [a.value if isinstance(a, _Hidden) else (None if a is _ABSENT else a) for a in args]
        return self.op.forward(ctx, *plain)

    def backward(self, ctx, *grads):
        return self.op.backward(ctx, *grads)


_REDUCED_FLOATING = (minitorch.float16, minitorch.bfloat16)



class _NativeOp(Function):
    """A Function whose node carries torch's name and prints as torch's C nodes do. `edges`: the
    positions of the arguments torch differentiates (None: every tensor argument)."""

    node = None
    edges = None

    @classmethod
    def apply(cls, *args):
        if cls.edges is None:
            return _apply(cls, cls.node, None, args, {})
        packed = tuple((_ABSENT if a is None else a) if i in cls.edges else
                       (_Hidden(a) if isinstance(a, minitorch.Tensor) else a) for i, a in enumerate(args))
        return _apply(_Edges(cls), cls.node, None, packed, {})


# ---- losses -----------------------------------------------------------------------------------------


class _PointwiseLoss(_NativeOp):
    """A loss of d = input - target elementwise (and a number, beta or delta): value(d, number) reduced;
    backward: derivative(d, grad, norm, number) for the input and its negation for the target, norm
    being 1/numel under a mean reduction."""

    @classmethod
    def forward(cls, ctx, input, target, reduction, number=None):
        ctx.save_for_backward(input, target)
        ctx.reduction, ctx.number = reduction, number
        return _reduce(cls.value(input - target, number), reduction)

    @classmethod
    def backward(cls, ctx, grad):
        input, target = ctx.saved_tensors
        grad_input = cls.derivative(input - target, grad, _grad_scale(input, ctx.reduction), ctx.number)
        return (grad_input if ctx.needs_input_grad[0] else None,
                -grad_input if ctx.needs_input_grad[1] else None, None, None)


class MseLoss(_PointwiseLoss):
    """d**2. Backward: 2 * d * grad (times 1/numel for a mean)."""

    node = "MseLossBackward0"

    @classmethod
    def value(cls, d, number):
        return d * d

    @classmethod
    def derivative(cls, d, grad, norm, number):
        return d * (2.0 * norm) * grad


class SmoothL1Loss(_PointwiseLoss):
    """0.5 * z**2 / beta where z = |d| < beta, else z - 0.5 * beta."""

    node = "SmoothL1LossBackward0"

    @classmethod
    def value(cls, d, beta):
        z = d.abs()
        return minitorch.where(z < beta, z * 0.5 * z / beta, z - 0.5 * beta)

    @classmethod
    def derivative(cls, d, grad, norm, beta):
        # -norm, norm or norm * d / beta, times grad
        return minitorch.where(d <= -beta, grad * -norm,
                               minitorch.where(d >= beta, grad * norm, d * norm * grad / beta))


class HuberLoss(_PointwiseLoss):
    """0.5 * z**2 where z = |d| < delta, else delta * (z - 0.5 * delta)."""

    node = "HuberLossBackward0"

    @classmethod
    def value(cls, d, delta):
        z = d.abs()
        return minitorch.where(z < delta, z * 0.5 * z, (z - 0.5 * delta) * delta)

    @classmethod
    def derivative(cls, d, grad, norm, delta):
        return minitorch.where(d <= -delta, grad * (-norm * delta),
                               minitorch.where(d >= delta, grad * (norm * delta), d * norm * grad))


def _check_unit_interval(t, name):
    if bool((t < 0).any()) or bool((t > 1).any()):
        raise RuntimeError(f"all elements of {name} should be between 0 and 1")


class BinaryCrossEntropy(_NativeOp):
    """-(target * log(input) + (1 - target) * log(1 - input)), each log clamped at -100, times weight."""

    node = "BinaryCrossEntropyBackward0"
    edges = (0, 1)

    @staticmethod
    def forward(ctx, input, target, weight, reduction):
        _check_unit_interval(input, "input")
        _check_unit_interval(target, "target")
        ctx.save_for_backward(input, target, weight)
        ctx.reduction = reduction
        loss = (target - 1) * (-input).log1p().clamp(min=-100) - target * input.log().clamp(min=-100)
        if weight is not None:
            loss = loss * weight
        return _reduce(loss, reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target, weight = ctx.saved_tensors
        grad_input = grad_target = None
        if ctx.needs_input_grad[0]:
            # grad * (input - target) / max((1 - input) * input, 1e-12)
            grad_input = grad * (input - target) / ((1 - input) * input).clamp(min=1e-12)
            if weight is not None:
                grad_input = grad_input * weight
            if ctx.reduction == MEAN:
                grad_input = grad_input / input.numel()
        if ctx.needs_input_grad[1]:
            # grad * (log(1 - input) - log(input)), each clamped at -100
            grad_target = grad * ((-input).log1p().clamp(min=-100) - input.log().clamp(min=-100))
            if weight is not None:
                grad_target = grad_target * weight
            if ctx.reduction == MEAN:
                grad_target = grad_target / input.numel()
        return grad_input, grad_target, None, None


def _log_sigmoid(x):
    """log(sigmoid(x)) without overflow: min(x, 0) - log1p(exp(-|x|))."""
    return x.clamp(max=0) - (-x.abs()).exp().log1p()


class BinaryCrossEntropyWithLogits(_NativeOp):
    """(1 - target) * input - log_weight * log_sigmoid(input), log_weight = 1 + (pos_weight - 1) * target."""

    node = "BinaryCrossEntropyWithLogitsBackward0"
    edges = (0, 1)

    @staticmethod
    def forward(ctx, input, target, weight, pos_weight, reduction):
        ctx.save_for_backward(input, target, weight, pos_weight)
        ctx.reduction = reduction
        log_sigmoid = _log_sigmoid(input)
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight - 1) * target + 1)
        loss = (1 - target) * input - log_sigmoid
        if weight is not None:
            loss = loss * weight
        return _reduce(loss, reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target, weight, pos_weight = ctx.saved_tensors
        grad_input = grad_target = None
        if ctx.needs_input_grad[0]:
            if pos_weight is not None:
                t = pos_weight * target
                grad_input = ((t + 1 - target) * input.sigmoid() - t) * grad
            else:
                grad_input = (input.sigmoid() - target) * grad
        if ctx.needs_input_grad[1]:
            grad_target = -input * grad
            if pos_weight is not None:
                grad_target = grad_target - (pos_weight - 1) * _log_sigmoid(input) * grad
        grads = []
        for g in (grad_input, grad_target):
            if g is not None and weight is not None:
                g = g * weight
            if g is not None and ctx.reduction == MEAN:
                g = g / input.numel()
            grads.append(g)
        return grads[0], grads[1], None, None, None


class Trilinear(_NativeOp):
    """torch's _trilinear as bilinear calls it: out[b, o] = sum over i, j of x1[b, i] * weight[o, i, j] * x2[b, j]
    (x1 (B, in1), weight (O, in1, in2), x2 (B, in2)), contracted as torch does, x1 with the weight first (one
    GEMM), then with x2 (a batched one). Backward: the same contractions with the output's gradient."""

    node = "TrilinearBackward0"

    @staticmethod
    def forward(ctx, x1, weight, x2):
        ctx.save_for_backward(x1, weight, x2)
        o, in1, in2 = weight.shape
        left = minitorch.matmul(x1, weight.permute(1, 0, 2).reshape(in1, o * in2)).view(-1, o, in2)
        return minitorch.bmm(left, x2.unsqueeze(-1)).squeeze(-1)

    @staticmethod
    def backward(ctx, grad):
        x1, weight, x2 = ctx.saved_tensors
        o, in1, in2 = weight.shape
        grad_x1 = grad_weight = grad_x2 = None
        if ctx.needs_input_grad[0] or ctx.needs_input_grad[2]:
            spread = minitorch.matmul(grad, weight.reshape(o, in1 * in2)).view(-1, in1, in2)   # (B, in1, in2)
            if ctx.needs_input_grad[0]:
                grad_x1 = minitorch.bmm(spread, x2.unsqueeze(-1)).squeeze(-1)
            if ctx.needs_input_grad[2]:
                grad_x2 = minitorch.bmm(x1.unsqueeze(1), spread).squeeze(1)
        if ctx.needs_input_grad[1]:
            outer = (x1.unsqueeze(-1) * x2.unsqueeze(1)).reshape(-1, in1 * in2)
            grad_weight = minitorch.matmul(grad.t(), outer).view(o, in1, in2)
        return grad_x1, grad_weight, grad_x2


def _fused_add_at(out, index, rows, scale):
    """out[index[k]] = fma(scale[k], rows[k], out[index[k]]) for k in order, on float32 out: each product
    and the running sum added exactly (in float64: a product of two floats is exact there) and rounded once,
    as a fused multiply-add does; rows reaching the same out row are added in rounds, the r-th in round r."""
    order = minitorch.argsort(index, stable=True)
    _, group, counts = minitorch.unique_consecutive(index[order], return_inverse=True, return_counts=True)
    rank = minitorch.empty_like(order).scatter_(
        0, order, minitorch.arange(order.numel(), device=out.device) - (counts.cumsum(0) - counts)[group])
    products = rows.double() * scale.double().unsqueeze(1)
    for r in range(int(counts.max()) if counts.numel() else 0):
        at = (rank == r).nonzero().view(-1)
        target = index[at]
        out[target] = (out[target].double() + products[at]).float()
    return out


class EmbeddingBag(_NativeOp):
    """Each bag's rows of weight reduced: mode 0 (sum; each row times its per_sample_weight when given),
    1 (mean), 2 (max, elementwise, the first maximum kept as torch's kernel keeps it). indices and bags (the
    bag of each position) are 1-D; positions at padding_idx are left out (an empty bag gives zeros). The
    rows are added position after position, as torch's kernels add them (float16/bfloat16 in float32).
    Backward: each kept position's share of its bag's gradient added into its weight row (max: the gradient
    of each element to the row it came from); per_sample_weights: the bag's gradient dotted with the row."""

    node = "EmbeddingBagBackward0"
    edges = (0, 1)

    @staticmethod
    def forward(ctx, weight, per_sample_weights, indices, bags, count, mode, padding_idx, scale_grad_by_freq):
        kept = (indices != padding_idx).nonzero().view(-1) if padding_idx is not None else None
        idx, bag = (indices, bags) if kept is None else (indices[kept], bags[kept])
        d = weight.shape[1]
        sizes = minitorch.zeros(count, dtype=minitorch.int64, device=weight.device).index_add_(
            0, bag, minitorch.ones_like(bag))
        ctx.save_for_backward(weight, per_sample_weights, idx, bag, sizes, kept)
        ctx.mode, ctx.scale_grad_by_freq, ctx.num = mode, scale_grad_by_freq, indices.numel()
        if mode == 2:
            return EmbeddingBag._max(ctx, weight, idx, bag, sizes, count)
        wide = weight.float() if weight.dtype in _REDUCED_FLOATING else weight
        rows = wide.index_select(0, idx)
        if per_sample_weights is not None and wide.dtype == minitorch.float32 and padding_idx is None:
            # torch's fbgemm kernel (taken without a padding_idx) fuses each multiply-add
            psw = per_sample_weights if kept is None else per_sample_weights[kept]
            out = EmbeddingBag._fused_sums(rows, psw.float(), bag, sizes, count)
        else:
            if per_sample_weights is not None:
                psw = per_sample_weights if kept is None else per_sample_weights[kept]
                rows = rows * psw.unsqueeze(1)
            out = minitorch.zeros(count, d, dtype=wide.dtype, device=weight.device).index_add_(0, bag, rows)
        if mode == 1:
            out = out / sizes.clamp(min=1).to(wide.dtype).unsqueeze(1)
        return out.to(weight.dtype)

    @staticmethod
    def _fused_sums(rows, psw, bag, sizes, count):
        """Each bag's sum of psw * row, as torch's float kernel (fbgemm) adds them: _fused_add_at."""
        out = minitorch.zeros(count, rows.shape[1], dtype=minitorch.float32, device=rows.device)
        return _fused_add_at(out, bag, rows, psw)

    @staticmethod
    def _max(ctx, weight, idx, bag, sizes, count):
        """The bags' elementwise maxima, one position of every bag at a time: a later row replaces the
        maximum only where it is greater (so a NaN wins only first, as in torch's kernel)."""
        d = weight.shape[1]
        starts = sizes.cumsum(0) - sizes
        rank = minitorch.arange(idx.numel(), device=weight.device) - starts[bag]
        out = minitorch.zeros(count, d, dtype=weight.dtype, device=weight.device)
        argmax = minitorch.full((count, d), -1, dtype=minitorch.int64, device=weight.device)
        for r in range(int(sizes.max()) if count else 0):
            at = (rank == r).nonzero().view(-1)
            b = bag[at]
            rows = weight.index_select(0, idx[at])
            current, current_arg = out[b], argmax[b]
            take = (current_arg < 0) | (rows > current)
            out[b] = minitorch.where(take, rows, current)
            argmax[b] = minitorch.where(take, idx[at].unsqueeze(1).expand(-1, d), current_arg)
        ctx.argmax = argmax
        return out

    @staticmethod
    def backward(ctx, grad):
        weight, per_sample_weights, idx, bag, sizes, kept = ctx.saved_tensors
        d = weight.shape[1]
        grad_weight = grad_psw = None
        if ctx.mode == 2:
            if ctx.needs_input_grad[0]:
                filled = (ctx.argmax >= 0).view(-1).nonzero().view(-1)
                flat = (ctx.argmax * d + minitorch.arange(d, device=grad.device)).view(-1)[filled]
                grad_weight = minitorch.zeros(weight.numel(), dtype=grad.dtype, device=grad.device).index_add_(
                    0, flat, grad.reshape(-1)[filled]).view(weight.shape)
            return grad_weight, None, None, None, None, None, None, None
        rows = grad.index_select(0, bag)
        if ctx.needs_input_grad[0]:
            scale = minitorch.ones(idx.numel(), dtype=grad.dtype, device=grad.device)
            if ctx.scale_grad_by_freq:
                counts = minitorch.zeros(weight.shape[0], dtype=grad.dtype, device=grad.device).index_add_(
                    0, idx, minitorch.ones_like(scale))
                scale = scale / counts[idx]
            if ctx.mode == 1:
                scale = scale / sizes[bag].to(grad.dtype)
            if per_sample_weights is not None:
                scale = scale * (per_sample_weights if kept is None else per_sample_weights[kept])
            grad_weight = minitorch.zeros(weight.shape, dtype=grad.dtype, device=grad.device)
            if grad.dtype == minitorch.float32 and not minitorch.is_grad_enabled():
                grad_weight = _fused_add_at(grad_weight, idx, rows, scale)     # torch's axpy: fused
            else:
                grad_weight.index_add_(0, idx, rows * scale.unsqueeze(1))
        if per_sample_weights is not None and ctx.needs_input_grad[1]:
            dots = (rows * weight.index_select(0, idx)).sum(1)
            grad_psw = dots if kept is None else minitorch.zeros(ctx.num, dtype=grad.dtype,
                                                                 device=grad.device).scatter(0, kept, dots)
        return grad_weight, grad_psw, None, None, None, None, None, None


class Embedding(_NativeOp):
    """weight[indices]: one row of weight per index. Backward: each index's gradient row added into its
    weight row (rows at padding_idx get none; scale_grad_by_freq divides by how often an index occurs)."""

    node = "EmbeddingBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq):
        ctx.save_for_backward(indices)
        ctx.args = (weight.shape, padding_idx, scale_grad_by_freq)
        return weight.index_select(0, indices.reshape(-1)).reshape(list(indices.shape) + [weight.shape[1]])

    @staticmethod
    def backward(ctx, grad):
        (indices,) = ctx.saved_tensors
        shape, padding_idx, scale_grad_by_freq = ctx.args
        flat = indices.reshape(-1)
        rows = grad.reshape(-1, shape[1])
        if padding_idx is not None:
            rows = rows.masked_fill((flat == padding_idx).unsqueeze(1), 0)
        if scale_grad_by_freq:
            counts = minitorch.zeros(shape[0], dtype=grad.dtype, device=grad.device).index_add(
                0, flat, minitorch.ones(flat.shape, dtype=grad.dtype, device=grad.device))
            rows = rows / counts.index_select(0, flat).unsqueeze(1)
        grad_weight = minitorch.zeros(shape, dtype=grad.dtype, device=grad.device).index_add(0, flat, rows)
        return grad_weight, None, None, None


class SoftMarginLoss(_NativeOp):
    """log(1 + exp(-target * input)), reduced; not differentiable in the target."""

    node = "SoftMarginLossBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, input, target, reduction):
        ctx.save_for_backward(input, target)
        ctx.reduction = reduction
        return _reduce((-input * target).exp().log1p(), reduction)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        z = (-target * input).exp()
        grad_input = target * z * -_grad_scale(input, ctx.reduction) / (z + 1) * grad
        return grad_input, None, None


class MultiMarginLoss(_NativeOp):
    """For each sample (a row of input (N, C), or input (C)): the sum over the classes d other than its target
    y of max(0, margin - x[y] + x[d]) ** p (times weight[y]), divided by C; then reduced."""

    node = "MultiMarginLossBackward0"
    edges = (0,)

    @staticmethod
    def _terms(x, target, p, margin, weight):
        """The hinge z = margin - x[y] + x[d] of every (row, class) and where it counts (z > 0, d != y)."""
        rows = x.reshape(-1, x.shape[-1]) if x.dim() else x.reshape(1, 1)
        t = target.reshape(-1, 1)
        z = rows - rows.gather(1, t) + margin
        classes = minitorch.arange(rows.shape[1], device=x.device).unsqueeze(0)
        counts = (z > 0) & (classes != t)
        scale = None if weight is None else weight.index_select(0, t.reshape(-1)).unsqueeze(1)
        return rows, t, z, counts, scale

    @staticmethod
    def forward(ctx, input, target, p, margin, weight, reduction):
        rows, t, z, counts, scale = MultiMarginLoss._terms(input, target, p, margin, weight)
        h = z if p == 1 else z * z
        if scale is not None:
            h = h * scale
        losses = minitorch.where(counts, h, 0.0).sum(1) / rows.shape[1]
        ctx.save_for_backward(input, target, weight)
        ctx.args = (p, margin, reduction)
        if reduction == NONE:
            return losses.reshape(target.shape) if input.dim() > 1 else losses.reshape(())
        return losses.sum() / rows.shape[0] if reduction == MEAN else losses.sum()

    @staticmethod
    def backward(ctx, grad):
        input, target, weight = ctx.saved_tensors
        p, margin, reduction = ctx.args
        rows, t, z, counts, scale = MultiMarginLoss._terms(input, target, p, margin, weight)
        g = 1.0 / (rows.shape[0] * rows.shape[1]) if reduction == MEAN else 1.0 / rows.shape[1]
        h = minitorch.full_like(z, g) if p == 1 else z * (2 * g)
        if scale is not None:
            h = h * scale
        h = minitorch.where(counts, h, 0.0)
        grad_rows = h.scatter(1, t, -h.sum(1, keepdim=True))
        grad_rows = grad_rows * (grad.reshape(-1, 1) if reduction == NONE else grad)
        return grad_rows.reshape(input.shape), None, None, None, None, None


class CtcLoss(_NativeOp):
    """The negative log-likelihood of each sample's target under log_probs (T, N, C), summed over every
    alignment of the extended target l' = blank, l0, blank, l1, ..., blank (Graves et al. 2006): torch's
    alpha recursion in log space, vectorised over the batch and the positions s of l', one step a time
    step. input_lengths and target_lengths are lists of ints (checked by the caller); targets are long,
    (N, S) padded or 1-D concatenated. The backward is torch's: the beta recursion, then
    exp(lp) - (the sum over the s labelled c of exp(alpha + beta + nll - lp)), times the sample's
    gradient, for t below the input length (0 beyond it, and for an infinite loss under zero_infinity)."""

    node = "CtcLossBackward0"
    edges = (0,)

    @staticmethod
    def _extended(log_probs, targets, input_lengths, target_lengths, blank):
        """l' of every sample as (N, 2 * max target length + 1) labels (blank past a sample's own length),
        where a path may skip from s - 2 to s (l'[s] != l'[s - 2]), which s lie within 2 * length + 1, the
        lengths as (N,) tensors and log_probs at l' (T, N, S')."""
        device = log_probs.device
        width = max(target_lengths, default=0)
        lengths = minitorch.tensor(target_lengths, device=device)
        inputs = minitorch.tensor(input_lengths, device=device)
        j = minitorch.arange(width, device=device).unsqueeze(0)
        if targets.dim() == 1:
            offsets = minitorch.tensor([sum(target_lengths[:b]) for b in range(len(target_lengths))],
                                       dtype=minitorch.int64, device=device)
            index = (offsets.unsqueeze(1) + minitorch.minimum(j, (lengths - 1).clamp_min(0).unsqueeze(1)))
            labels = targets[index.clamp(0, max(targets.numel() - 1, 0))] if width else index
        else:
            labels = targets[:, :width]
        labels = minitorch.where(j < lengths.unsqueeze(1), labels, blank)
        n = len(target_lengths)
        blanks = minitorch.full((n, width + 1), blank, dtype=minitorch.int64, device=device)
        ext = minitorch.cat([minitorch.stack([blanks[:, :width], labels], 2).reshape(n, 2 * width), blanks[:, :1]], 1)
        skip = minitorch.cat([minitorch.zeros((n, min(2, ext.shape[1])), dtype=minitorch.bool, device=device),
                              ext[:, 2:] != ext[:, :-2]], 1)
        s = minitorch.arange(ext.shape[1], device=device).unsqueeze(0)
        valid = s < 2 * lengths.unsqueeze(1) + 1
        lp_ext = log_probs.gather(2, ext.unsqueeze(0).expand(log_probs.shape[0], n, ext.shape[1]))
        return ext, skip, valid, s, inputs, lengths, lp_ext

    @staticmethod
    def _log_add3(x1, x2, x3, lp):
        """log(exp(x1) + exp(x2) + exp(x3)) + lp as torch's kernel takes it: around the largest of the three
        (0 when all are -inf)."""
        m = minitorch.maximum(minitorch.maximum(x1, x2), x3)
        m = minitorch.where(m == -math.inf, 0.0, m)
        return ((x1 - m).exp() + (x2 - m).exp() + (x3 - m).exp()).log() + m + lp

    @staticmethod
    def _shifted(x, by):
        """x moved by `by` positions along dim 1 (right for by > 0), -inf where nothing moved in."""
        n, width = x.shape
        pad = minitorch.full((n, abs(by)), -math.inf, dtype=x.dtype, device=x.device)
        if by > 0:
            return minitorch.cat([pad, x], 1)[:, :width]
        return minitorch.cat([x, pad], 1)[:, -by:]

    @classmethod
    def forward(cls, ctx, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
        ext, skip, valid, s, inputs, lengths, lp_ext = cls._extended(log_probs, targets, input_lengths,
                                                                    target_lengths, blank)
        neginf = minitorch.full(ext.shape, -math.inf, dtype=log_probs.dtype, device=log_probs.device)
        alpha = minitorch.where(valid & (s < 2), lp_ext[0], neginf)
        alphas = [alpha]
        for t in range(1, log_probs.shape[0]):
            step = cls._log_add3(alpha, cls._shifted(alpha, 1), minitorch.where(skip, cls._shifted(alpha, 2), neginf),
                                 lp_ext[t])
            alpha = minitorch.where((t < inputs).unsqueeze(1), minitorch.where(valid, step, neginf), alpha)
            alphas.append(alpha)
        # the likelihood: the sum of the last two alphas (just the last one for an empty target)
        end = 2 * lengths.unsqueeze(1)
        l1 = alpha.gather(1, end).squeeze(1)
        l2 = alpha.gather(1, (end - 1).clamp_min(0)).squeeze(1)
        m = minitorch.maximum(l1, l2)
        m = minitorch.where(m == -math.inf, 0.0, m)
        likelihood = minitorch.where(lengths == 0, l1, ((l1 - m).exp() + (l2 - m).exp()).log() + m)
        empty = minitorch.where(lengths == 0, 0.0, -math.inf).to(log_probs.dtype)
        nll = -minitorch.where(inputs == 0, empty, likelihood)
        ctx.save_for_backward(log_probs, ext, skip, valid, s, inputs, lengths, lp_ext, minitorch.stack(alphas), nll)
        ctx.zero_infinity = zero_infinity
        return nll

    @classmethod
    def backward(cls, ctx, grad):
        log_probs, ext, skip, valid, s, inputs, lengths, lp_ext, alphas, nll = ctx.saved_tensors
        neginf = minitorch.full(ext.shape, -math.inf, dtype=log_probs.dtype, device=log_probs.device)
        # beta starts at each sample's last input step with the last blank and the last label
        end = 2 * lengths.unsqueeze(1)
        first = valid & ((s == end) | (s == end - 1))
        skip_back = minitorch.cat([skip[:, 2:], skip[:, :2] & False], 1)  # l'[s + 2] != l'[s]
        beta, betas = neginf, []
        for t in range(log_probs.shape[0] - 1, -1, -1):
            step = cls._log_add3(beta, cls._shifted(beta, -1),
                                 minitorch.where(skip_back, cls._shifted(beta, -2), neginf), lp_ext[t])
            last = (inputs - 1 == t).unsqueeze(1)
            beta = minitorch.where(last, minitorch.where(first, lp_ext[t], neginf),
                                   minitorch.where((t < inputs - 1).unsqueeze(1) & valid, step, neginf))
            betas.append(beta)
        betas = minitorch.stack(betas[::-1])
        posterior = (alphas + betas + nll.view(1, -1, 1) - lp_ext).exp()
        # torch's kernel writes the last step's two terms rather than adding them, so a last label equal to
        # the blank leaves only its own term at that step
        t = minitorch.arange(log_probs.shape[0], device=log_probs.device).view(-1, 1, 1)
        blank_last = (ext.gather(1, (end - 1).clamp_min(0)) == ext[:, :1]) & (end > 0)
        overwritten = (s == end) & blank_last & (t == (inputs - 1).view(1, -1, 1))
        posterior = minitorch.where(overwritten, 0.0, posterior)
        index = ext.unsqueeze(0).expand(posterior.shape)
        collected = minitorch.zeros(log_probs.shape, dtype=log_probs.dtype, device=log_probs.device)
        grad_input = (log_probs.exp() - collected.scatter_add(2, index, posterior)) * grad.view(1, -1, 1)
        infinite = (nll == math.inf).view(1, -1, 1)
        grad_input = minitorch.where(infinite, 0.0 if ctx.zero_infinity else math.nan, grad_input)
        grad_input = minitorch.where(t < inputs.view(1, -1, 1), grad_input, 0.0)
        return grad_input, None, None, None, None, None


def _shuffle(x, factor, up):
    """pixel_shuffle (up) or pixel_unshuffle of x (*, C, H, W) by factor: a reshape, a permute and a
    contiguous copy, as torch's CPU kernels write it."""
    lead, (c, h, w) = list(x.shape[:-3]), x.shape[-3:]
    n = len(lead)
    if up:
        oc = c // (factor * factor)
        v = x.reshape(lead + [oc, factor, factor, h, w])
        order = list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2]
        return v.permute(order).contiguous().reshape(lead + [oc, h * factor, w * factor])
    v = x.reshape(lead + [c, h // factor, factor, w // factor, factor])
    order = list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3]
    return v.permute(order).contiguous().reshape(lead + [c * factor * factor, h // factor, w // factor])


class PixelShuffle(_NativeOp):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r); backward: the gradient unshuffled."""

    node = "PixelShuffleBackward0"
    up = True

    @classmethod
    def forward(cls, ctx, x, factor):
        ctx.factor = factor
        return _shuffle(x, factor, cls.up)

    @classmethod
    def backward(cls, ctx, grad):
        return (PixelUnshuffle if cls.up else PixelShuffle).apply(grad, ctx.factor), None


class PixelUnshuffle(PixelShuffle):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W); backward: the gradient shuffled."""

    node = "PixelUnshuffleBackward0"
    up = False


class ChannelShuffle(_NativeOp):
    """(N, g * k, *) -> (N, k * g, *): channel i * k + j moves to j * g + i (a contiguous result); backward:
    the gradient shuffled back, which is the shuffle with k groups."""

    node = "ChannelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, groups):
        ctx.groups = groups
        shape = list(x.shape)
        return x.reshape([shape[0], groups, shape[1] // groups] + shape[2:]).transpose(1, 2).reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        return ChannelShuffle.apply(grad, grad.shape[1] // ctx.groups), None


class Xlogy(_NativeOp):
    """x * log(y), 0 where x == 0 (NaN where y is NaN), as torch's xlogy (kl_div's term)."""

    node = "XlogyBackward0"

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        nan = minitorch.full((), float("nan"), dtype=y.dtype, device=y.device)
        return minitorch.where(y.isnan(), nan, minitorch.where(x == 0, 0.0, x * y.log()))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return (grad * Xlogy.apply((x != 0).to(y.dtype), y) if ctx.needs_input_grad[0] else None,
                grad * x / y if ctx.needs_input_grad[1] else None)


class Norm(_NativeOp):
    """at::norm(input, p, dim, keepdim), the op torch's C++ composites call (pairwise_distance): the
    vector norm, with torch's norm_backward."""

    node = "NormBackward1"

    @staticmethod
    def forward(ctx, input, p, dim, keepdim):
        result = minitorch.linalg.vector_norm(input, p, dim, keepdim)
        ctx.save_for_backward(input, result)
        ctx.args = (p, dim, keepdim)
        return result

    @staticmethod
    def backward(ctx, grad):
        self, norm = ctx.saved_tensors
        p, dim, keepdim = ctx.args
        if not keepdim and self.dim() != 0:
            # the reduced dims back, in increasing order (a list of them: frobenius_norm's)
            dims = [dim] if isinstance(dim, int) else list(dim) or list(range(self.dim()))
            for d in sorted(x % self.dim() for x in dims):
                grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
        if p == 0.0:
            result = minitorch.zeros_like(self)
        elif p == 1.0:
            result = self.sgn() * grad
        elif p == 2.0:
            result = grad * (self / norm).masked_fill(norm == 0, 0)
        elif math.isinf(p):
            self_abs = self.abs()
            mask = self_abs.eq(norm).logical_or(self_abs.isnan())
            result = self.sgn() * ((grad / mask.sum(dim, True)) * mask)
        elif p < 1.0:
            self_scaled = self.sgn() * self.abs().pow(p - 1).masked_fill(self == 0, 0)
            result = self_scaled * grad * norm.pow(1 - p)
        else:
            self_scaled = self.sgn() * self.abs().pow(p - 1) if p < 2.0 else self * self.abs().pow(p - 2)
            scale_v = (grad / norm.pow(p - 1)).masked_fill(norm == 0, 0)
            result = self_scaled * scale_v
        return result, None, None, None


# ---- activations ------------------------------------------------------------------------------------


class _Activation(_NativeOp):
    """An elementwise activation of one tensor and some numbers: value(x, *args) forward, and the
    derivative as derivative(x, grad, *args). apply_ is the in-place form, recorded as torch records it:
    inplace_node (torch's node of the in-place op; node when None), and, for the ops whose in-place
    backward reads the result (saves_result), the derivative as result_derivative(result, grad, *args)."""

    inplace_node = None
    saves_result = False

    @classmethod
    def apply_(cls, x, *args):
        return _apply_inplace(cls, cls.inplace_node or cls.node, x, args, cls.saves_result)

    @classmethod
    def result_derivative(cls, result, grad, *args):
        raise NotImplementedError

    @classmethod
    def value(cls, x, *args):
        raise NotImplementedError

    @classmethod
    def derivative(cls, x, grad, *args):
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx, x, *args):
        ctx.save_for_backward(x)
        ctx.args = args
        if x.dtype in _REDUCED_FLOATING:
            # torch's kernels compute float16 and bfloat16 in float32 and round each result once
            return cls.value(x.float(), *args).to(x.dtype)
        return cls.value(x, *args)

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        derivative = cls.result_derivative if getattr(ctx, "is_result", False) else cls.derivative
        return (derivative(x, grad, *ctx.args),) + (None,) * len(ctx.args)


class LeakyRelu(_Activation):
    node = "LeakyReluBackward0"
    inplace_node = "LeakyReluBackward1"
    saves_result = True

    @classmethod
    def value(cls, x, slope):
        return minitorch.where(x > 0, x, x * slope)

    @classmethod
    def derivative(cls, x, grad, slope):
        return minitorch.where(x > 0, grad, grad * slope)

    @classmethod
    def result_derivative(cls, result, grad, slope):
        return cls.derivative(result, grad, slope)


class Elu(_Activation):
    """x * scale where x > 0, else alpha * scale * (exp(x * input_scale) - 1) (elu, selu, celu)."""

    node = "EluBackward0"
    inplace_node = "EluBackward1"
    saves_result = True

    @classmethod
    def value(cls, x, alpha, scale, input_scale):
        return minitorch.where(x > 0, x * scale, (x * input_scale).expm1() * (alpha * scale))

    @classmethod
    def derivative(cls, x, grad, alpha, scale, input_scale):
        negative = grad * (input_scale * alpha * scale) * (x * input_scale).exp()
        return minitorch.where(x > 0, grad * scale, negative)

    @classmethod
    def result_derivative(cls, result, grad, alpha, scale, input_scale):
        # torch's elu_backward(is_result=True): the negative side from the result, y + alpha * scale
        return minitorch.where(result > 0, grad * scale, grad * input_scale * (result + alpha * scale))


class Celu(Elu):
    """elu(x, alpha, 1, 1 / alpha); torch's backward takes 1 / alpha with alpha rounded to a float32."""

    node = "CeluBackward0"
    inplace_node = "CeluBackward1"

    @classmethod
    def derivative(cls, x, grad, alpha, scale, input_scale):
        return super().derivative(x, grad, alpha, scale, 1.0 / _float32(alpha))

    @classmethod
    def result_derivative(cls, result, grad, alpha, scale, input_scale):
        return super().result_derivative(result, grad, alpha, scale, 1.0 / _float32(alpha))


def _float32(value):
    return struct.unpack("f", struct.pack("f", value))[0]


class Gelu(_Activation):
    """x * Phi(x) (approximate='none': the normal CDF through erf; 'tanh': torch's tanh approximation).
    On the CPU torch's kernels compute it and its gradient (_C._gelu: torch's bits, its vector body and
    scalar tail included, and oneDNN's where torch takes oneDNN); other devices, and a gradient that must itself be differentiable
    (create_graph=True), compose it from tensor ops below."""

    node = "GeluBackward0"
    SQRT1_2 = 0.7071067811865476
    BETA = math.sqrt(2.0 / math.pi)
    KAPPA = 0.044715

    @classmethod
    def forward(cls, ctx, x, approximate):
        result = minitorch._C._gelu(x, approximate == "tanh", None)
        if result is None:
            return super().forward(ctx, x, approximate)
        ctx.save_for_backward(x)
        ctx.args = (approximate,)
        return result

    @classmethod
    def backward(cls, ctx, grad):
        if not minitorch.is_grad_enabled():
            (x,) = ctx.saved_tensors
            result = minitorch._C._gelu(x, ctx.args[0] == "tanh", grad)
            if result is not None:
                return result, None
        return super().backward(ctx, grad)

    @classmethod
    def value(cls, x, approximate):
        if approximate == "tanh":
            inner = (x + x * x * x * cls.KAPPA) * cls.BETA
            return x * 0.5 * (inner.tanh() + 1)
        return x * 0.5 * ((x * cls.SQRT1_2).erf() + 1)

    @classmethod
    def derivative(cls, x, grad, approximate):
        if approximate == "tanh":
            x_sq = x * x
            inner = (x + x_sq * x * cls.KAPPA) * cls.BETA
            tanh_inner = inner.tanh()
            left_derivative = (tanh_inner + 1) * 0.5
            right_derivative = x * 0.5 * (1 - tanh_inner * tanh_inner) * cls.BETA * (x_sq * (3 * cls.KAPPA) + 1)
            return grad * (left_derivative + right_derivative)
        cdf = ((x * cls.SQRT1_2).erf() + 1) * 0.5
        pdf = (x * x * -0.5).exp() * (2.0 / math.sqrt(math.pi) * cls.SQRT1_2 * 0.5)
        return grad * (cdf + x * pdf)


class Silu(_Activation):
    node = "SiluBackward0"

    @classmethod
    def value(cls, x):
        return x / ((-x).exp() + 1)

    @classmethod
    def derivative(cls, x, grad):
        sigmoid = 1 / ((-x).exp() + 1)
        return grad * sigmoid * (x * (1 - sigmoid) + 1)


class Mish(_Activation):
    node = "MishBackward0"

    @classmethod
    def value(cls, x):
        return x * x.exp().log1p().tanh()

    @classmethod
    def derivative(cls, x, grad):
        tanh_softplus = x.exp().log1p().tanh()
        return grad * (tanh_softplus + x * x.sigmoid() * (1 - tanh_softplus * tanh_softplus))


class Softplus(_Activation):
    """log(1 + exp(beta * x)) / beta, or x where beta * x > threshold."""

    node = "SoftplusBackward0"

    @classmethod
    def value(cls, x, beta, threshold):
        scaled = x * beta
        return minitorch.where(scaled > threshold, x, scaled.exp().log1p() / beta)

    @classmethod
    def derivative(cls, x, grad, beta, threshold):
        z = (x * beta).exp()
        return minitorch.where(x * beta > threshold, grad, grad * z / (z + 1))


class Hardtanh(_Activation):
    """clamp(x, min_val, max_val) (relu6 is hardtanh(x, 0, 6))."""

    node = "HardtanhBackward0"

    @classmethod
    def value(cls, x, min_val, max_val):
        return x.clamp(min_val, max_val)

    @classmethod
    def derivative(cls, x, grad, min_val, max_val):
        zero = minitorch.zeros_like(grad)
        return minitorch.where(x <= min_val, zero, minitorch.where(x >= max_val, zero, grad))


class LogSigmoid(_Activation):
    node = "LogSigmoidBackward0"

    @classmethod
    def value(cls, x):
        return _log_sigmoid(x)

    @classmethod
    def derivative(cls, x, grad):
        negative = x < 0
        z = (-x.abs()).exp()
        max_deriv = minitorch.where(negative, 1.0, 0.0).to(x.dtype)
        sign = minitorch.where(negative, 1.0, -1.0).to(x.dtype)
        return grad * (max_deriv - sign * (z / (z + 1)))


class Hardswish(_Activation):
    """x * relu6(x + 3) / 6."""

    node = "HardswishBackward0"

    @classmethod
    def value(cls, x):
        return x * (x + 3).clamp(0, 6) / 6

    @classmethod
    def derivative(cls, x, grad):
        # torch's kernel: zero up to -3, the slope strictly between -3 and 3, grad from 3 on
        middle = grad * (x / 3 + 0.5)
        return minitorch.where(x <= -3, minitorch.zeros_like(grad), minitorch.where(x < 3, middle, grad))


# torch's kernel writes 1/6 as a float constant (1.0f / 6.0f), in float64 too
_ONE_SIXTH_FLOAT = struct.unpack("f", struct.pack("f", 1.0 / 6.0))[0]


class Hardsigmoid(_Activation):
    """relu6(x + 3) / 6."""

    node = "HardsigmoidBackward0"

    @classmethod
    def value(cls, x):
        return (x + 3).clamp(0, 6) / 6

    @classmethod
    def derivative(cls, x, grad):
        zero = minitorch.zeros_like(grad)
        return minitorch.where(x > -3, minitorch.where(x < 3, grad * _ONE_SIXTH_FLOAT, zero), zero)

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        differentiable = tuple(t for t in (grad, x) if t.requires_grad)
        if not minitorch.is_grad_enabled() or not differentiable:
            return super().backward(ctx, grad)
        # torch has no formula for hardsigmoid_backward's own derivative: under create_graph the gradient
        # comes out of its NotImplemented node, whose backward raises
        return (_NotImplemented.apply("hardsigmoid_backward", lambda: cls.derivative(x, grad), *differentiable),)


class Glu(_NativeOp):
    """a * sigmoid(b), a and b the two halves of the input along dim."""

    node = "GluBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = x.chunk(2, dim)
        return a * (1 / ((-b).exp() + 1))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx.dim)
        sigmoid = 1 / ((-b).exp() + 1)
        return minitorch.cat([sigmoid * grad, (1 - sigmoid) * sigmoid * grad * a], ctx.dim), None


class Hardshrink(_Activation):
    """0 where -lambd <= x <= lambd, else x."""

    node = "HardshrinkBackward0"

    @classmethod
    def value(cls, x, lambd):
        return x.masked_fill((x >= -lambd) & (x <= lambd), 0)

    @classmethod
    def derivative(cls, x, grad, lambd):
        return grad.masked_fill((x >= -lambd) & (x <= lambd), 0)


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""

    node = "SoftshrinkBackward0"

    @classmethod
    def value(cls, x, lambd):
        return minitorch.where(x > lambd, x - lambd, minitorch.where(x < -lambd, x + lambd, 0.0).to(x.dtype))


class Threshold(_Activation):
    """x where x > threshold, else value (in place: the gradient still masked by the input's old values)."""

    node = "ThresholdBackward0"
    inplace_node = "ThresholdBackward1"

    @classmethod
    def value(cls, x, threshold, value):
        return x.masked_fill(x <= threshold, value)

    @classmethod
    def derivative(cls, x, grad, threshold, value):
        return grad.masked_fill(x <= threshold, 0)



class RreluWithNoise(_Activation):
    """x * noise in training (noise: 1 for positive x, a uniform slope for the others), else leaky_relu with
    slope (lower + upper) / 2."""

    node = "RreluWithNoiseBackward0"
    inplace_node = "RreluWithNoiseBackward1"
    saves_result = True

    @classmethod
    def value(cls, x, noise, lower, upper, training):
        if training:
            return x * noise
        return LeakyRelu.value(x, (lower + upper) / 2)

    @classmethod
    def derivative(cls, x, grad, noise, lower, upper, training):
        if training and upper - lower > 1e-6:
            return noise * grad
        return LeakyRelu.derivative(x, grad, (lower + upper) / 2)

    @classmethod
    def result_derivative(cls, result, grad, noise, lower, upper, training):
        return cls.derivative(result, grad, noise, lower, upper, training)


def _sum_to(t, shape):
    """t summed over the dims where shape (of t's rank) has a 1 and t does not."""
    dims = [d for d, (n, s) in enumerate(zip(shape, t.shape)) if n == 1 and s != 1]
    return t.sum(dims, keepdim=True) if dims else t


class PreluKernel(_NativeOp):
    """x where x > 0, else weight * x (weight broadcast over the input)."""

    node = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return minitorch.where(x > 0, x, weight * x)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        positive = x > 0
        grad_input = minitorch.where(positive, grad, weight * grad) if ctx.needs_input_grad[0] else None
        grad_weight = None
        if ctx.needs_input_grad[1]:
            grad_weight = _sum_to(minitorch.where(positive, 0.0, x * grad).to(grad.dtype), weight.shape)
            grad_weight = grad_weight.reshape(weight.shape)
        return grad_input, grad_weight


# ---- normalisation ------------------------------------------------------------------------------------
#
# torch's CPU kernels (aten/src/ATen/native/Normalization.cpp, cpu/batch_norm_kernel.cpp,
# cpu/layer_norm_kernel.cpp, cpu/moments_utils.h) in their order of operations, so float32 values match bit
# for bit: batch norm's per-channel sums accumulated in double, layer norm's eight-lane Welford, the
# backward's sums in eight float lanes (these kernels run torch's AVX2 build on every x86 machine) folded by a
# halving tree, per-thread float buffers split as at::parallel_for splits the rows, and the multiply-adds the
# kernels' compiler contracts into one rounding (a fused multiply-add, here through double). The compiler
# leaves a multiply-add unfused where it would chain through a loop's accumulator (the vector reductions'
# main loops, the scalar Welford tail) and where the product has another use; the choices below were checked
# against torch 2.13 over random shapes. float64 follows the same formulas with plain multiply-adds and
# minitorch's double sums (torch's values to rounding).

_LANES = 8


def _fma(a, b, c):
    """a * b + c rounded once, as torch's compiled kernels fuse it: float32 through double (the product is
    exact there; a double rounding could differ on an exact float32 tie, about once in 2**29 cases); other
    dtypes as a * b + c."""
    if a.dtype != minitorch.float32:
        return a * b + c
    if max(a.numel(), b.numel(), c.numel()) <= 4096:
        return c.addcmul(a, b)      # the same arithmetic in one call (addcmul.c), cheaper for small operands
    return (a.double() * b.double() + c.double()).float()


def _lane_sum(values, centered=None, grad=None):
    """torch's vec::reduce_all(+) over the last dim: the elements accumulated into _LANES float lanes, then
    the lanes folded in halves (fewer elements than lanes: added in order). With `centered` and `grad`
    (values = centered * grad), the trailing partial chunk is multiply-added in one rounding, as the kernel's
    compiled code does."""
    size = values.shape[-1]
    if size < _LANES:
        acc = values[..., 0]
        for i in range(1, size):
            acc = acc + values[..., i]
        return acc
    full = size - size % _LANES
    chunks = values[..., :full].reshape(list(values.shape[:-1]) + [full // _LANES, _LANES])
    acc = chunks[..., 0, :]
    for j in range(1, full // _LANES):
        acc = acc + chunks[..., j, :]
    tail = size - full
    if tail:
        head = acc[..., :tail]
        head = (head + values[..., full:] if centered is None
                else _fma(centered[..., full:], grad[..., full:], head))
        acc = minitorch.cat([head, acc[..., tail:]], -1)
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def _thread_rows(rows, threads):
    """rows (N, C) split as at::parallel_for(0, N, 1) splits them over `threads` threads: (T, chunk, C),
    padded with zeros."""
    n = rows.shape[0]
    threads = max(1, min(threads, n))
    chunk = -(-n // threads)
    pad = threads * chunk - n
    if pad:
        rows = minitorch.cat([rows, minitorch.zeros(pad, rows.shape[1], dtype=rows.dtype, device=rows.device)])
    return rows.reshape(threads, chunk, rows.shape[1])


def _sequential_rows(step, *parts):
    """acc = step(acc, *rows) over the rows of `parts` (each (T, chunk, C)) in order, acc starting at zeros:
    each thread's float buffer."""
    first = parts[0]
    acc = minitorch.zeros(first.shape[0], first.shape[2], dtype=first.dtype, device=first.device)
    for rows in zip(*(p.unbind(1) for p in parts)):
        acc = step(acc, *rows)
    return acc


def _graph_wanted(*tensors):
    """Whether a backward runs under create_graph=True with a differentiable operand: the gradients are
    then built as a graph (torch's values within rounding) rather than in the kernels' exact order."""
    return minitorch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


def _std_sqrt(t):
    """The square root of each element as std::sqrt gives it, correctly rounded: torch's kernels that take
    a scalar square root (batch norm's and layer norm's inverse deviations). Tensor.sqrt on the CPU is
    torch's vector sqrt, MKL's, which can round the other way (README, "Known differences")."""
    return minitorch._C._std_sqrt(t)


def _inv_std(var, eps):
    """1 / sqrt(var + eps) in double (0 where var and eps are 0), in var's dtype."""
    invstd = (_std_sqrt(var.double() + eps).reciprocal()).to(var.dtype)
    return minitorch.where(var == 0, minitorch.zeros_like(invstd), invstd) if eps == 0 else invstd


class BatchNorm(_NativeOp):
    """Per channel (dim 1): (x - mean) / sqrt(var + eps) * weight + bias, the batch's statistics in
    training (the running ones updated in place: momentum * batch + (1 - momentum) * running, the variance
    unbiased), the running ones otherwise; computed as torch's CPU kernels compute it."""

    node = "NativeBatchNormBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, input, weight, bias, running_mean, running_var, training, momentum, eps):
        ctx.training, ctx.eps = training, eps
        ctx.running_mean, ctx.running_var = running_mean, running_var
        if input.dtype in _REDUCED_FLOATING and input.is_contiguous():
            return BatchNorm._forward_reduced(ctx, input, weight, bias, running_mean, running_var, training,
                                              momentum, eps)
        if not input.is_contiguous():
            return BatchNorm._forward_strided(ctx, input, weight, bias, running_mean, running_var, training,
                                              momentum, eps)
        x = input
        channels, dtype = x.shape[1], x.dtype
        image = 1
        for size in x.shape[2:]:
            image *= size
        n = x.numel() // channels
        ctx.image = image
        if training:
            planes = x.reshape(x.shape[0], channels, image)
            mean, var_sum = (BatchNorm._stats_rows(planes[:, :, 0]) if image == 1 else
                             BatchNorm._stats_planes(planes, n))
            invstd = _inv_std(var_sum / n, eps)
            m = _float32(momentum) if dtype == minitorch.float32 else momentum
            keep = _float32(1 - m) if dtype == minitorch.float32 else 1 - m
            if running_mean is not None:
                running_mean.copy_(mean * m + running_mean * keep)
            if running_var is not None:
                unbiased = var_sum / (n - 1)
                running_var.copy_((unbiased.double() * m + (running_var * keep).double()).to(running_var.dtype))
        else:
            mean = running_mean
            invstd = _std_sqrt(running_var + eps).reciprocal()
        alpha = invstd if weight is None else invstd * weight
        beta = -(mean * alpha) if bias is None else _fma(-mean, alpha, bias)
        ctx.save_for_backward(input, mean, invstd, weight)
        planes = x.reshape(x.shape[0], channels, image)
        return _fma(planes, alpha.reshape(1, -1, 1), beta.reshape(1, -1, 1)).reshape(input.shape)

    @staticmethod
    def _forward_reduced(ctx, input, weight, bias, running_mean, running_var, training, momentum, eps):
        """torch's float16/bfloat16 kernels (contiguous input): the statistics summed in float32 and stored in
        the parameters' dtype (the input's, or float32 when the parameters are float32: torch's mixed type);
        bfloat16 statistics are rounded at each step (the mean, the sum of squares, its quotient by n) and the
        running ones updated in bfloat16 arithmetic (c10's operators), float16 ones stay float32 until stored;
        the output x * alpha + beta computed in float32 and rounded once."""
        x, dtype = input, input.dtype
        params = [t for t in (weight, bias, running_mean, running_var) if t is not None]
        param = params[0].dtype if params else dtype
        channels = x.shape[1]
        image = x.numel() // (x.shape[0] * channels) if x.numel() else 1
        n = x.numel() // channels
        planes = x.reshape(x.shape[0], channels, image).float()
        if training:
            # the statistics' own dtype: bfloat16 ones are stored (rounded) between the steps, float16 ones
            # stay float32 until they are stored, as torch 2.13's CPU kernels give them
            work = minitorch.float32 if param == minitorch.float16 else param
            mean, var_sum = (BatchNorm._reduced_stats_rows(planes[:, :, 0], work) if image == 1 else
                             BatchNorm._reduced_stats_planes(planes, n))
            mean, var_sum = mean.to(work), var_sum.to(work)
            # Normalization.cpp's var_sum / n (see _by_count), then InvStd in double, rounded to float32
            invstd = _inv_std(BatchNorm._by_count(var_sum, n), eps)
            BatchNorm._update_running_reduced(running_mean, running_var, mean, var_sum, n, momentum)
            mean, invstd = mean.to(param), invstd.to(param)
            mean_f, invstd_f = mean.float(), invstd.float()
        else:
            mean, mean_f = running_mean, running_mean.float()
            # the transform's own 1 / sqrt(var + eps): in float32 for bfloat16, in double (rounded to float32)
            # for float16, as torch 2.13's values show
            if dtype == minitorch.float16:
                invstd_f = _inv_std(running_var.float(), eps)
            else:
                invstd_f = (running_var.float() + _float32(eps)).sqrt().reciprocal()
            invstd = invstd_f
        alpha = invstd_f if weight is None else invstd_f * weight.float()
        beta = -(mean_f * alpha) if bias is None else _fma(-mean_f, alpha, bias.float())
        ctx.image = image
        ctx.save_for_backward(input, mean, invstd, weight)
        out = _fma(planes, alpha.reshape(1, -1, 1), beta.reshape(1, -1, 1))
        return out.to(dtype).reshape(input.shape)

    @staticmethod
    def _reduced_stats_planes(planes, n):
        """batch_norm_cpu_collect_stats_contiguous_internal over (N, C, image) float32 planes: per channel,
        each plane's vectors (twice torch's float lanes: 16 lanes under AVX-512, 8 otherwise) added as two
        halves into the lanes, the rest of each plane into one float sum, in order; the lanes folded by a
        halving tree into that sum; the same for the squared deviations from the float32 mean."""
        batch, channels, image = planes.shape
        lanes = 16 if minitorch.backends.cpu.get_cpu_capability() == "AVX512" else _LANES
        main = image - image % (2 * lanes)

        def total(values, square):
            def add(acc, v):
                return acc + v * v if square else acc + v

            acc = minitorch.zeros(channels, lanes, dtype=values.dtype, device=values.device)
            halves = values[:, :, :main].reshape(batch, channels, -1, lanes).permute(0, 2, 1, 3)
            for k in range(halves.shape[0] * halves.shape[1]):
                acc = add(acc, halves[k // halves.shape[1], k % halves.shape[1]])
            rest = minitorch.zeros(channels, dtype=values.dtype, device=values.device)
            for b in range(batch):
                for i in range(main, image):
                    rest = add(rest, values[b, :, i])
            while acc.shape[-1] > 1:
                half = acc.shape[-1] // 2
                acc = acc[:, :half] + acc[:, half:]
            return rest + acc[:, 0]

        mean = total(planes, False) / float(n)
        centered = planes - mean.reshape(1, -1, 1)
        return mean, total(centered, True)

    @staticmethod
    def _reduced_stats_rows(rows, param):
        """batch_norm_cpu_collect_stats_channels_last_internal over (N, C) float32 rows: each thread's rows
        added into a float buffer, the buffers added in order; the mean stored in `param` before the squared
        deviations from it are summed the same way."""
        n, threads = rows.shape[0], minitorch.get_num_threads()
        parts = _thread_rows(rows, threads if n > threads else 1)
        mean = (_float_total(_sequential_rows(lambda acc, r: acc + r, parts)) / float(n)).to(param).float()
        centered = _thread_rows(rows - mean, threads if n > threads else 1)
        return mean, _float_total(_sequential_rows(lambda acc, r: _fma(r, r, acc), centered))

    @staticmethod
    def _update_running_reduced(running_mean, running_var, mean, var_sum, n, momentum):
        """momentum * batch + (1 - momentum) * running in the running statistics' dtype: float32 (mixed
        type) or the 16-bit dtype, each operation rounded to it (the variance's product with momentum in
        float32, as c10's 16-bit times float operator gives)."""
        if running_mean is None and running_var is None:
            return
        param = mean.dtype

        def r(t):
            return t.to(param).float()

        m = minitorch.tensor(float(momentum), dtype=param).float()
        keep = r(1 - m)
        if running_mean is not None:
            running_mean.copy_(r(r(m * mean.float()) + r(keep * running_mean.float())))
        if running_var is not None:
            running_var.copy_(m * BatchNorm._by_count(var_sum, n - 1) + r(keep * running_var.float()))

    @staticmethod
    def _by_count(var_sum, n):
        """var_sum / n in float32 as torch's update computes it: c10's bfloat16 divided by an integer is a
        bfloat16 quotient of the integer made bfloat16; float16 (and float32) divide in float32."""
        if var_sum.dtype != minitorch.bfloat16:
            return var_sum.float() / float(n)
        count = minitorch.tensor(float(n), dtype=minitorch.bfloat16).float()
        return (var_sum.float() / count).to(minitorch.bfloat16).float()

    @staticmethod
    def _forward_strided(ctx, input, weight, bias, running_mean, running_var, training, momentum, eps):
        """torch's path for an input that is not contiguous: the mean by a reduction, the variance and the
        running statistics in double, then ((x - mean) * invstd) * weight + bias elementwise."""
        dims, shape = [0] + list(range(2, input.dim())), [1, -1] + [1] * (input.dim() - 2)
        n = input.numel() // input.shape[1]
        if training:
            mean = input.mean(dims)
            centered = input.double() - mean.double().reshape(shape)
            var_sum = (centered * centered).sum(dims)
            invstd = _inv_std(var_sum / n, eps).to(input.dtype)
            if running_mean is not None:
                running_mean.copy_(mean.double() * momentum + running_mean.double() * (1 - momentum))
            if running_var is not None:
                running_var.copy_(var_sum / (n - 1) * momentum + running_var.double() * (1 - momentum))
        else:
            mean, invstd = running_mean, _std_sqrt(running_var + eps).reciprocal()
        ctx.save_for_backward(input, mean, invstd, weight)
        ctx.image = None
        out = (input - mean.reshape(shape)) * invstd.reshape(shape)
        if weight is not None:
            out = out * weight.reshape(shape)
        return out if bias is None else out + bias.reshape(shape)

    @staticmethod
    def _backward_strided(ctx, grad, x, mean, invstd, weight):
        """torch's backward when the input or the gradient is not contiguous: the gradient's sum by a
        reduction, the dot product with the centred input in double, the rest elementwise."""
        dims, shape = [0] + list(range(2, x.dim())), [1, -1] + [1] * (x.dim() - 2)
        n, dtype = x.numel() // x.shape[1], x.dtype
        if not ctx.training:
            mean = ctx.running_mean
            invstd = _std_sqrt(ctx.running_var.double() + ctx.eps).reciprocal().to(dtype)
        grad_sum = grad.sum(dims)
        centered = x - mean.reshape(shape)
        dotp = (centered * grad).double().sum(dims)
        grad_input = None
        if ctx.needs_input_grad[0]:
            if ctx.training:
                k = dotp.to(dtype) * invstd * invstd / float(n)
                grad_mean = (grad_sum / float(n)).reshape(shape)
                grad_input = (grad - grad_mean - centered * k.reshape(shape)) * invstd.reshape(shape)
            else:
                grad_input = grad * invstd.reshape(shape)
            if weight is not None:
                grad_input = grad_input * weight.reshape(shape)
        return (grad_input, (dotp * invstd.double()).to(dtype) if ctx.needs_input_grad[1] else None,
                grad_sum if ctx.needs_input_grad[2] else None, None, None, None, None, None)

    @staticmethod
    def _stats_planes(x, n):
        """Mean and sum of squared deviations per channel of (N, C, image) input: double sums."""
        mean = (x.double().sum((0, 2)) / n).to(x.dtype)
        centered = x - mean.reshape(1, -1, 1)
        return mean, (centered * centered).double().sum((0, 2)).to(x.dtype)

    @staticmethod
    def _stats_rows(x):
        """The same for (N, C) rows, as torch's channels-last kernel sums them: each thread's rows into a
        float buffer, the buffers added in double (N at most the thread count: one buffer, as measured)."""
        n, threads = x.shape[0], minitorch.get_num_threads()
        parts = _thread_rows(x, threads if n > threads else 1)
        mean = (_sequential_rows(lambda acc, r: acc + r, parts).double().sum(0) / n).to(x.dtype)
        centered = _thread_rows(x - mean, threads if n > threads else 1)
        var = _sequential_rows(lambda acc, r: _fma(r, r, acc), centered)
        return mean, var.double().sum(0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, mean, invstd, weight = ctx.saved_tensors
        if _graph_wanted(grad, x, weight):
            return BatchNorm._differentiable_backward(ctx, grad, x, weight)
        if x.dtype in _REDUCED_FLOATING:
            # torch's 16-bit backward kernels compute in float32; the engine rounds each gradient to its
            # input's dtype
            grad, x, mean, invstd = grad.float(), x.float(), mean.float(), invstd.float()
            weight = None if weight is None else weight.float()
        if not (x.is_contiguous() and grad.is_contiguous()):
            return BatchNorm._backward_strided(ctx, grad, x, mean, invstd, weight)
        channels, n = x.shape[1], x.numel() // x.shape[1]
        if not ctx.training:
            # the backward kernel's own 1 / sqrt(var + eps), in double
            invstd = _std_sqrt(ctx.running_var.double() + ctx.eps).reciprocal().to(x.dtype)
        dy = grad
        if ctx.image == 1:
            shape = [1, -1]
            xs, dys = x.reshape(x.shape[0], channels), dy.reshape(x.shape[0], channels)
            sum_, dotp = BatchNorm._grad_sums_rows(xs, dys, mean)
            sum_f, dotp_f = sum_.to(x.dtype), dotp.to(x.dtype)
            k = dotp_f * invstd * invstd / float(n)
            grad_mean = sum_f / float(n)
            grad_weight, grad_bias = dotp_f * invstd, sum_f
        else:
            xs, dys = x.reshape(x.shape[0], channels, ctx.image), dy.reshape(x.shape[0], channels, ctx.image)
            shape = [1, -1, 1]
            centered = xs - mean.reshape(shape)
            sum_ = _lane_sum(dys).double().sum(0)
            dotp = _lane_sum(centered * dys, centered, dys).double().sum(0)
            k = dotp.to(x.dtype) * invstd * invstd / float(n)
            grad_mean = (sum_ / n).to(x.dtype)
            grad_weight, grad_bias = (dotp * invstd.double()).to(x.dtype), sum_.to(x.dtype)
        grad_input = None
        if ctx.needs_input_grad[0]:
            if ctx.training:
                centered = xs - mean.reshape(shape)
                shifted = dys - grad_mean.reshape(shape)
                grad_input = _fma(-centered, k.reshape(shape), shifted)
                if ctx.image == 1 and channels % _LANES:
                    # the channels-last kernel's last partial vector of channels is not contracted
                    main = channels - channels % _LANES
                    plain = shifted[:, main:] - centered[:, main:] * k[main:]
                    grad_input = minitorch.cat([grad_input[:, :main], plain], 1)
                grad_input = grad_input * invstd.reshape(shape)
            else:
                grad_input = dys * invstd.reshape(shape)
            if weight is not None:
                grad_input = grad_input * weight.reshape(shape)
            grad_input = grad_input.reshape(grad.shape)
        return (grad_input, grad_weight if ctx.needs_input_grad[1] else None,
                grad_bias if ctx.needs_input_grad[2] else None, None, None, None, None, None)

    @staticmethod
    def _differentiable_backward(ctx, grad, x, weight):
        """The gradients as a graph of tensor ops from the input (create_graph=True): the statistics
        recomputed from x so that the second derivative is torch's."""
        dims, shape = [0] + list(range(2, x.dim())), [1, -1] + [1] * (x.dim() - 2)
        if ctx.training:
            centered = x - x.mean(dims, keepdim=True)
            invstd = ((centered * centered).mean(dims, keepdim=True) + ctx.eps).rsqrt()
        else:
            centered = x - ctx.running_mean.reshape(shape)
            invstd = (ctx.running_var.reshape(shape) + ctx.eps).rsqrt()
        xhat = centered * invstd
        scale = invstd if weight is None else invstd * weight.reshape(shape)
        grad_input = grad
        if ctx.training:
            grad_input = grad - grad.mean(dims, keepdim=True) - xhat * (grad * xhat).mean(dims, keepdim=True)
        return (grad_input * scale if ctx.needs_input_grad[0] else None,
                (grad * xhat).sum(dims) if ctx.needs_input_grad[1] else None,
                grad.sum(dims) if ctx.needs_input_grad[2] else None, None, None, None, None, None)

    @staticmethod
    def _grad_sums_rows(x, dy, mean):
        """Sum of dy and of (x - mean) * dy per channel of (N, C) rows: per-thread float buffers added in
        double, as torch's channels-last backward kernel does."""
        parts_dy = _thread_rows(dy, minitorch.get_num_threads())
        parts_c = _thread_rows(x - mean, minitorch.get_num_threads())
        sum_ = _sequential_rows(lambda acc, r: acc + r, parts_dy)
        dotp = _sequential_rows(lambda acc, c, r: _fma(c, r, acc), parts_c, parts_dy)
        return sum_.double().sum(0), dotp.double().sum(0)


_CHUNK = 16


def _add_moments(count_add, mean_add, m2_add, count, mean, m2, fused):
    """Welford's merge of (count_add, mean_add, m2_add) into (count, mean, m2), torch's AddMoments (fused:
    the scalar version's contracted multiply-adds) or AddMomentsVec."""
    total = count + count_add
    c = 0.0 if total == 0 else _float32(count_add / total) if mean.dtype == minitorch.float32 else count_add / total
    delta = mean_add - mean
    if fused:
        mean = _fma(delta, minitorch.full_like(delta, c), mean)
        m2 = m2 + _fma(delta * delta * c, minitorch.full_like(delta, float(count)), m2_add)
    else:
        step = delta * c
        mean = mean + step
        m2 = _fma(delta * float(count), step, m2 + m2_add)
    return total, mean, m2


def _row_moments(x):
    """Mean and biased variance of each row of x (M, N) as torch's RowwiseMoments computes them: Welford
    over _LANES float lanes in chunks of _CHUNK vectors, the chunks merged in a cascade, the leftover
    elements in scalar Welford, then the lanes merged in."""
    rows, size = x.shape
    vectors = size // _LANES
    chunks = -(-vectors // _CHUNK)
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()
    zero = minitorch.zeros(rows, _LANES, dtype=x.dtype, device=x.device)
    inv = [_float32(1 / (j + 1)) if x.dtype == minitorch.float32 else 1 / (j + 1) for j in range(_CHUNK)]
    lanes = x[:, :vectors * _LANES].reshape(rows, vectors, _LANES)
    # every chunk's own Welford pass, all chunks at once (the last one may be shorter)
    full = vectors // _CHUNK
    parts = []
    for start, count, n_chunks in ((0, _CHUNK, full), (full * _CHUNK, vectors - full * _CHUNK, 1)):
        if count == 0 or n_chunks == 0:
            continue
        block = lanes[:, start:start + n_chunks * count].reshape(rows, n_chunks, count, _LANES)
        m1 = minitorch.zeros(rows, n_chunks, _LANES, dtype=x.dtype, device=x.device)
        m2 = m1
        for j in range(count):
            value = block[:, :, j]
            delta = value - m1
            m1 = _fma(delta, minitorch.full_like(delta, inv[j]), m1)
            m2 = _fma(delta, value - m1, m2)
        parts += [(count, m1[:, k], m2[:, k]) for k in range(n_chunks)]
    stack = [[0, zero, zero] for _ in range(depth)]
    for i, (count, m1, m2) in enumerate(parts):
        stack[0] = list(_add_moments(count, m1, m2, *stack[0], fused=False))
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            stack[j] = list(_add_moments(*stack[j - 1], *stack[j], fused=False))
            stack[j - 1] = [0, zero, zero]
            mask >>= 1
            j += 1
    for j in range(1, depth):
        stack[0] = list(_add_moments(*stack[j], *stack[0], fused=False))
    count, mean, m2 = 0, x[:, 0] * 0.0, x[:, 0] * 0.0
    for i in range(vectors * _LANES, size):
        value = x[:, i]
        delta = value - mean
        count += 1
        mean = mean + delta / float(count)
        m2 = m2 + delta * (value - mean)
    for lane in range(_LANES):
        count, mean, m2 = _add_moments(vectors, stack[0][1][:, lane], stack[0][2][:, lane], count, mean, m2,
                                       fused=True)
    return mean, m2 / float(size)


def _float_total(buf):
    """The per-thread float buffers added in float, in order (torch's layer-norm backward's second pass)."""
    total = buf[0]
    for t in range(1, buf.shape[0]):
        total = total + buf[t]
    return total


class LayerNorm(_NativeOp):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last len(normalized_shape) dims, computed as
    torch's CPU kernel computes it (RowwiseMoments' Welford statistics, float32 arithmetic)."""

    node = "NativeLayerNormBackward0"
    edges = (0, 2, 3)

    @staticmethod
    def forward(ctx, input, normalized_shape, weight, bias, eps):
        if input.dtype in _REDUCED_FLOATING:
            # torch's CPU kernel computes float16 and bfloat16 in float32 and rounds the result once (the
            # backward then runs in float32 too; the engine rounds the gradients to the inputs' dtypes)
            widened = [None if t is None else t.float() for t in (weight, bias)]
            return LayerNorm.forward(ctx, input.float(), normalized_shape, *widened, eps).to(input.dtype)
        size = 1
        for s in normalized_shape:
            size *= s
        x = input.contiguous().reshape(-1, size)
        ctx.shape, ctx.normalized_shape = input.shape, list(normalized_shape)
        if x.numel() == 0:
            ctx.save_for_backward(input, None, None, weight)
            ctx.eps = eps
            return input.contiguous() * 1.0
        mean, var = _row_moments(x)
        eps_ = _float32(eps) if x.dtype == minitorch.float32 else eps
        rstd = _std_sqrt(var + eps_).reciprocal()
        ctx.save_for_backward(input, mean, rstd, weight)
        ctx.eps = eps
        scaled = (x - mean.unsqueeze(1)) * rstd.unsqueeze(1)
        if weight is None and bias is None:
            return scaled.reshape(input.shape)
        w = weight.reshape(-1) if weight is not None else minitorch.ones_like(scaled)
        b = bias.reshape(-1) if bias is not None else minitorch.zeros_like(scaled)
        return _fma(scaled, w.expand_as(scaled), b.expand_as(scaled)).reshape(input.shape)

    @staticmethod
    def backward(ctx, grad):
        x, mean, rstd, weight = ctx.saved_tensors
        size = 1
        for s in (weight.shape if weight is not None else ctx.normalized_shape):
            size *= s
        if _graph_wanted(grad, x, weight) and x.numel():
            return LayerNorm._differentiable_backward(ctx, grad, x, weight)
        x = x.contiguous().reshape(-1, size)
        rows = x.shape[0]
        dy = grad.contiguous().reshape(rows, size)
        grad_input = grad_weight = grad_bias = None
        if x.numel() == 0:
            zeros = minitorch.zeros(ctx.normalized_shape, dtype=x.dtype, device=x.device)
            return (grad * 0.0 if ctx.needs_input_grad[0] else None, None,
                    zeros if ctx.needs_input_grad[2] else None, zeros if ctx.needs_input_grad[3] else None, None)
        a = rstd.unsqueeze(1)
        threads = minitorch.get_num_threads()
        if weight is not None and ctx.needs_input_grad[2]:
            b = -rstd * mean
            value = _fma(a.expand_as(x), x, b.unsqueeze(1).expand_as(x))
            parts_dy, parts_v = _thread_rows(dy, threads), _thread_rows(value, threads)
            buf = _sequential_rows(lambda acc, r, v: _fma(r, v, acc), parts_dy, parts_v)
            grad_weight = _float_total(buf).reshape(weight.shape)
        if ctx.needs_input_grad[3]:
            parts_dy = _thread_rows(dy, threads)
            buf = _sequential_rows(lambda acc, r: acc + r, parts_dy)
            grad_bias = _float_total(buf).reshape(ctx.normalized_shape)
        if ctx.needs_input_grad[0]:
            if weight is None:
                ds = _lane_sum(dy * x, dy, x)
                db = _lane_sum(dy)
            else:
                g = weight.reshape(1, -1).expand_as(dy)
                dyx = dy * x
                ds = _lane_sum(dyx * g, dyx, g)
                db = _lane_sum(dy * g, dy, g)
            scale = _float32(1 / size) if x.dtype == minitorch.float32 else 1 / size
            bb = _fma(db, mean, -ds) * rstd * rstd * rstd * scale
            cc = _fma(-bb, mean, -(db * rstd * scale))
            scaled_dy = dy * a if weight is None else dy * a * g
            grad_input = _fma(bb.unsqueeze(1).expand_as(x), x, scaled_dy) + cc.unsqueeze(1)
            grad_input = grad_input.reshape(ctx.shape)
        return grad_input, None, grad_weight, grad_bias, None

    @staticmethod
    def _differentiable_backward(ctx, grad, x, weight):
        """The gradients as a graph of tensor ops from the input (create_graph=True)."""
        dims = list(range(x.dim() - len(ctx.normalized_shape), x.dim()))
        centered = x - x.mean(dims, keepdim=True)
        rstd = ((centered * centered).mean(dims, keepdim=True) + ctx.eps).rsqrt()
        xhat = centered * rstd
        g = grad if weight is None else grad * weight
        grad_input = (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True)) * rstd
        batch = list(range(x.dim() - len(dims)))
        grad_weight = ((grad * xhat).sum(batch) if batch else grad * xhat) if ctx.needs_input_grad[2] else None
        grad_bias = (grad.sum(batch) if batch else grad) if ctx.needs_input_grad[3] else None
        return grad_input if ctx.needs_input_grad[0] else None, None, grad_weight, grad_bias, None


class GroupNorm(_NativeOp):
    """(x - mean) / sqrt(var + eps) * weight + bias with the statistics of each group of C / group channels of
    each sample (input (N, C, *)), the statistics from RowwiseMoments as torch's CPU kernel takes them."""

    node = "NativeGroupNormBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, input, weight, bias, group, eps):
        if input.dtype in _REDUCED_FLOATING:
            # torch's CPU kernel computes float16 and bfloat16 in float32 and rounds the result once (as
            # layer norm's)
            widened = [None if t is None else t.float() for t in (weight, bias)]
            return GroupNorm.forward(ctx, input.float(), *widened, group, eps).to(input.dtype)
        n, c = input.shape[0], input.shape[1]
        x = input.contiguous().reshape(n * group, -1) if input.numel() else input.reshape(n * group, 0)
        if x.shape[1]:
            mean, var = _row_moments(x)
        else:
            mean = var = minitorch.zeros(n * group, dtype=input.dtype, device=input.device)
        eps_ = _float32(eps) if x.dtype == minitorch.float32 else eps
        rstd = _std_sqrt(var.clamp(min=0) + eps_).reciprocal()
        ctx.save_for_backward(input, mean, rstd, weight)
        ctx.group = group
        per_channel = [n, c] + [1] * (input.dim() - 2)
        mean_c = mean.reshape(n, group, 1).expand(n, group, c // group).reshape(per_channel)
        rstd_c = rstd.reshape(n, group, 1).expand(n, group, c // group).reshape(per_channel)
        scale = rstd_c if weight is None else rstd_c * weight.reshape([1, c] + [1] * (input.dim() - 2))
        shift = -scale * mean_c
        if bias is not None:
            shift = shift + bias.reshape([1, c] + [1] * (input.dim() - 2))
        return input * scale + shift

    @staticmethod
    def backward(ctx, grad):
        x, mean, rstd, weight = ctx.saved_tensors
        n, c, group = x.shape[0], x.shape[1], ctx.group
        channel_shape = [1, c] + [1] * (x.dim() - 2)
        xg = x.reshape(n, group, -1)
        xhat = ((xg - mean.reshape(n, group, 1)) * rstd.reshape(n, group, 1)).reshape(x.shape)
        g = grad if weight is None else grad * weight.reshape(channel_shape)
        gg, xhg = g.reshape(n, group, -1), xhat.reshape(n, group, -1)
        grad_input = None
        if ctx.needs_input_grad[0]:
            count = gg.shape[2]
            inner = gg - gg.sum(2, keepdim=True) / count - xhg * ((gg * xhg).sum(2, keepdim=True) / count)
            grad_input = (inner * rstd.reshape(n, group, 1)).reshape(x.shape)
        dims = [0] + list(range(2, x.dim()))
        grad_weight = (grad * xhat).sum(dims) if ctx.needs_input_grad[1] else None
        grad_bias = grad.sum(dims) if ctx.needs_input_grad[2] else None
        return grad_input, grad_weight, grad_bias, None, None


# ---- copying and resampling the trailing dims ---------------------------------------------------------


class _TrailingGather(_NativeOp):
    """An op whose every output element of the last `dims` dims is a copy of one input element there (padding
    by reflection or replication, nearest-neighbour upsampling): those dims flattened and read through one
    index (index(input, *args) -> (flat positions, output sizes)), so that the backward adds each output's
    gradient into its input position in torch's kernels' order (output positions in row-major order)."""

    @classmethod
    def index(cls, input, *args):
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx, input, *args):
        flat, out_inner = cls.index(input, *args)
        dim = input.dim() - len(out_inner)
        lead, inner = list(input.shape[:dim]), 1
        for size in input.shape[dim:]:
            inner *= size
        ctx.index = minitorch.tensor(flat, dtype=minitorch.int64, device=input.device)
        ctx.shape, ctx.dim, ctx.inner, ctx.args = input.shape, dim, inner, len(args)
        return input.reshape(lead + [inner]).index_select(dim, ctx.index).reshape(lead + out_inner)

    @classmethod
    def backward(cls, ctx, grad):
        lead = list(ctx.shape[:ctx.dim])
        zeros = minitorch.zeros(lead + [ctx.inner], dtype=grad.dtype, device=grad.device)
        rows = grad.reshape(lead + [ctx.index.numel()])
        return (zeros.index_add(ctx.dim, ctx.index, rows).reshape(ctx.shape),) + (None,) * ctx.args


def _flat_index(sizes, sources):
    """Row-major flat input positions of every output position, from each dim's list of source positions."""
    flat = [0]
    for size, source in zip(sizes, sources):
        flat = [f * size + s for f in flat for s in source]
    return flat


def _compute_scale(input_size, output_size, scale, as_float):
    """torch's compute_scales_value: 1 / scale_factor when one was given, else input / output, in the kernel's
    compute type."""
    value = 1.0 / scale if scale is not None and scale > 0 else (
        _float32(input_size) / output_size if as_float else input_size / output_size)
    return _float32(value) if as_float else value


class _UpsampleNearest(_TrailingGather):
    """Nearest-neighbour upsampling of the last n dims (args: output sizes, scale factors or None). exact: the
    pixel centres' rule of 'nearest-exact'; otherwise torch's floor(index * scale) with its shortcuts for the
    same size and for twice the size."""

    exact = False

    @classmethod
    def index(cls, input, output_size, scales):
        sizes = list(input.shape[input.dim() - len(output_size):])
        sources = []
        for size, out, scale in zip(sizes, output_size, scales):
            if not cls.exact and out == size:
                sources.append(list(range(out)))
            elif not cls.exact and out == 2 * size:
                sources.append([i >> 1 for i in range(out)])
            else:
                step = _compute_scale(size, out, scale, True)
                offset = 0.5 if cls.exact else 0.0
                sources.append([min(int(math.floor(_float32((i + offset) * step))), size - 1) for i in range(out)])
        return _flat_index(sizes, sources), list(output_size)


def _nearest(n, exact):
    name = f"UpsampleNearest{'Exact' if exact else ''}{n}D"
    return type(name, (_UpsampleNearest,), {"node": name + "Backward0", "exact": exact,
                                           "__doc__": f"torch's upsample_nearest{'_exact' if exact else ''}{n}d."})


UPSAMPLE_NEAREST = {(n, exact): _nearest(n, exact) for n in (1, 2, 3) for exact in (False, True)}


def _linear_weights(size, out, align_corners, scale, as_float):
    """torch's compute_indices_weights_linear for one dim: the two source positions and weights of each
    output position, in the kernel's compute type."""
    r = _float32 if as_float else float
    if out == size:
        return list(range(out)), list(range(out)), [1.0] * out, [0.0] * out
    if align_corners:
        ratio = r(r(size - 1) / (out - 1)) if out > 1 else 0.0
    else:
        ratio = _compute_scale(size, out, scale, as_float)
    i0s, i1s, w0s, w1s = [], [], [], []
    for i in range(out):
        if align_corners:
            real = r(ratio * i)
        else:
            real = r(r(ratio * r(i + 0.5)) - 0.5)
            real = 0.0 if real < 0 else real
        i0 = min(int(math.floor(real)), size - 1)
        w1 = min(max(r(real - i0), 0.0), 1.0)
        i0s.append(i0)
        i1s.append(i0 + (1 if i0 < size - 1 else 0))
        w1s.append(w1)
        w0s.append(r(1.0 - w1))
    return i0s, i1s, w0s, w1s


class _UpsampleLinear(_NativeOp):
    """Linear interpolation over the last n dims (args: output sizes, align_corners, scale factors or None),
    as torch's CPU kernel evaluates it: the last dim first, each value t0 * w0 + t1 * w1."""

    @staticmethod
    def _plan(input, output_size, align_corners, scales):
        n = len(output_size)
        as_float = input.dtype != minitorch.float64
        plan = []
        for k, (out, scale) in enumerate(zip(output_size, scales)):
            dim = input.dim() - n + k
            i0, i1, w0, w1 = _linear_weights(input.shape[dim], out, align_corners, scale, as_float)
            shape = [1] * input.dim()
            shape[dim] = out
            tensors = [minitorch.tensor(v, dtype=minitorch.int64, device=input.device) for v in (i0, i1)]
            tensors += [minitorch.tensor(v, dtype=input.dtype, device=input.device).reshape(shape) for v in (w0, w1)]
            plan.append((dim, *tensors))
        return plan

    @staticmethod
    def forward(ctx, input, output_size, align_corners, scales):
        plan = _UpsampleLinear._plan(input, output_size, align_corners, scales)
        x = input
        for dim, i0, i1, w0, w1 in reversed(plan):
            x = x.index_select(dim, i0) * w0 + x.index_select(dim, i1) * w1
        ctx.plan, ctx.shape = plan, input.shape
        return x

    @staticmethod
    def backward(ctx, grad):
        g = grad
        sizes = list(ctx.shape)
        for dim, i0, i1, w0, w1 in ctx.plan:
            shape = list(g.shape)
            shape[dim] = sizes[dim]
            zeros = minitorch.zeros(shape, dtype=g.dtype, device=g.device)
            g = zeros.index_add(dim, i0, g * w0).index_add(dim, i1, g * w1)
        return g, None, None, None


def _linear(n, name):
    return type(name, (_UpsampleLinear,), {"node": name + "Backward0", "__doc__": f"torch's {name.lower()}."})


UPSAMPLE_LINEAR = {1: _linear(1, "UpsampleLinear1D"), 2: _linear(2, "UpsampleBilinear2D"),
                   3: _linear(3, "UpsampleTrilinear3D")}
