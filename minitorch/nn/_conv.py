"""Convolution and pooling (torch's convolution, max_pool2d, avg_pool2d), composed from minitorch's tensor
ops: a window op reads the input through kernel_size strided slices, one per kernel offset, so that

    convolution = the slices stacked into columns (im2col) times the weight, one GEMM per group,
    max pooling = the largest value across the slices (and which slice it came from),
    average pooling = their sum over the window's element count,

and the backward passes add the gradient back through the same slices (col2im). Each op is one node
with torch's name (ConvolutionBackward0, MaxPool2DWithIndicesBackward0, AvgPool2DBackward0,
AdaptiveAvgPool2DBackward0). The GEMM
sums in another order than torch's oneDNN kernels, so values agree to float rounding, not bit for bit.
"""

import itertools

import minitorch
from minitorch.nn._native import _NativeOp


def _padded(input, padding, value=0.0, extra=None):
    """input (N, C, *spatial) with `padding` added before and after each spatial dim (extra: more after,
    for ceil_mode's last window), filled with value."""
    extra = extra or [0] * len(padding)
    if not any(padding) and not any(extra):
        return input
    spatial = input.shape[2:]
    shape = list(input.shape[:2]) + [s + 2 * p + e for s, p, e in zip(spatial, padding, extra)]
    out = minitorch.full(shape, value, dtype=input.dtype, device=input.device)
    out[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, spatial))] = input
    return out


def _window_slices(kernel, stride, dilation, out_size):
    """For each kernel offset (row-major), the slices of the padded input its elements come from."""
    for offset in itertools.product(*(range(k) for k in kernel)):
        yield tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                    for o, d, s, n in zip(offset, dilation, stride, out_size))


def _out_size(size, kernel, stride, padding, dilation, ceil_mode=False):
    numerator = size + 2 * padding - dilation * (kernel - 1) - 1
    out = (numerator + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1        # the last window must start inside the input or its left padding
    return out


def _columns(x, kernel, stride, dilation, out_size):
    """im2col: (N, C, K, *out_size), K = the kernel's element count, from the padded input x."""
    everything = (slice(None), slice(None))
    return minitorch.stack([x[everything + s] for s in _window_slices(kernel, stride, dilation, out_size)], 2)


def _add_columns(grad_x, cols, kernel, stride, dilation, out_size):
    """col2im: adds each offset's column block (N, C, K, *out_size) back into grad_x at its slices."""
    everything = (slice(None), slice(None))
    for k, s in enumerate(_window_slices(kernel, stride, dilation, out_size)):
        grad_x[everything + s] += cols[:, :, k]


class Convolution(_NativeOp):
    """input (N, C, *spatial) with weight (O, C / groups, *kernel): out (N, O, *out_size)."""

    node = "ConvolutionBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def _group_matrices(cols, groups):
        """The columns of each group as (N * prod(out_size), C_g * K) matrices."""
        n, c, k = cols.shape[:3]
        out_size = cols.shape[3:]
        dims = [0] + list(range(3, cols.dim())) + [1, 2]
        for g in range(groups):
            block = cols[:, g * (c // groups):(g + 1) * (c // groups)]
            yield block.permute(dims).reshape(-1, (c // groups) * k), out_size

    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, dilation, groups):
        ctx.save_for_backward(input, weight)
        ctx.args = (stride, padding, dilation, groups, bias is not None)
        kernel = weight.shape[2:]
        out_size = [_out_size(s, k, st, p, d) for s, k, st, p, d in
                    zip(input.shape[2:], kernel, stride, padding, dilation)]
        cols = _columns(_padded(input, padding), kernel, stride, dilation, out_size)
        o = weight.shape[0] // groups
        outs = []
        for g, (matrix, _) in enumerate(Convolution._group_matrices(cols, groups)):
            w = weight[g * o:(g + 1) * o].reshape(o, -1)
            outs.append(minitorch.matmul(matrix, w.t()))
        out = outs[0] if groups == 1 else minitorch.cat(outs, 1)
        n = input.shape[0]
        out = out.reshape([n] + out_size + [weight.shape[0]]).permute([0, len(out_size) + 1] +
                                                                      list(range(1, len(out_size) + 1)))
        if bias is not None:
            out = out + bias.reshape([1, -1] + [1] * len(out_size))
        return out.contiguous()

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        stride, padding, dilation, groups, has_bias = ctx.args
        kernel, out_size = weight.shape[2:], list(grad.shape[2:])
        o, cg = weight.shape[0] // groups, weight.shape[1]
        ndim = len(out_size)
        # grad as (N * prod(out_size), O)
        grad_rows = grad.permute([0] + list(range(2, ndim + 2)) + [1]).reshape(-1, weight.shape[0])
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[1]:
            cols = _columns(_padded(input, padding), kernel, stride, dilation, out_size)
            parts = []
            for g, (matrix, _) in enumerate(Convolution._group_matrices(cols, groups)):
                parts.append(minitorch.matmul(grad_rows[:, g * o:(g + 1) * o].t(), matrix))
            grad_weight = (parts[0] if groups == 1 else minitorch.cat(parts, 0)).reshape(weight.shape)
        if ctx.needs_input_grad[0]:
            k = 1
            for size in kernel:
                k *= size
            blocks = []
            for g in range(groups):
                w = weight[g * o:(g + 1) * o].reshape(o, -1)
                block = minitorch.matmul(grad_rows[:, g * o:(g + 1) * o], w)        # (N*P, C_g*K)
                block = block.reshape([input.shape[0]] + out_size + [cg, k])
                blocks.append(block.permute([0, ndim + 1, ndim + 2] + list(range(1, ndim + 1))))
            cols = blocks[0] if groups == 1 else minitorch.cat(blocks, 1)
            padded_shape = list(input.shape[:2]) + [s + 2 * p for s, p in zip(input.shape[2:], padding)]
            grad_x = minitorch.zeros(padded_shape, dtype=grad.dtype, device=grad.device)
            _add_columns(grad_x, cols, kernel, stride, dilation, out_size)
            grad_input = grad_x[(slice(None), slice(None)) +
                                tuple(slice(p, p + s) for p, s in zip(padding, input.shape[2:]))]
        if has_bias and ctx.needs_input_grad[2]:
            grad_bias = grad.sum([0] + list(range(2, ndim + 2)))
        return grad_input, grad_weight, grad_bias, None, None, None, None


def _max_pool_columns(input, kernel, stride, padding, dilation, ceil_mode):
    """The windows of a max pooling as columns (N, C, K, *out_size), padding and ceil_mode's overhang
    filled with -inf, and the overhang per dim."""
    spatial = input.shape[2:]
    out_size = [_out_size(s, k, st, p, d, ceil_mode) for s, k, st, p, d in
                zip(spatial, kernel, stride, padding, dilation)]
    extra = [max(0, (n - 1) * st + d * (k - 1) + 1 - (s + 2 * p)) for n, st, d, k, s, p in
             zip(out_size, stride, dilation, kernel, spatial, padding)]
    return _columns(_padded(input, padding, float("-inf"), extra), kernel, stride, dilation, out_size), extra


def max_pool_indices(input, kernel, stride, padding, dilation, ceil_mode):
    """Where each window's maximum is, as a flat index into the input's spatial dims (torch's
    return_indices=True)."""
    with minitorch.no_grad():
        cols, _ = _max_pool_columns(input, kernel, stride, padding, dilation, ceil_mode)
        which = cols.max(2)[1]
    spatial, out_size = input.shape[2:], which.shape[2:]
    index = minitorch.zeros(which.shape, dtype=minitorch.int64, device=which.device)
    for axis in range(len(kernel)):
        tail = 1
        for size in kernel[axis + 1:]:
            tail *= size
        offset = (which // tail) % kernel[axis]
        positions = minitorch.arange(out_size[axis], device=which.device) * stride[axis] - padding[axis]
        positions = positions.reshape([out_size[axis]] + [1] * (len(kernel) - axis - 1))
        index = index * spatial[axis] + positions + offset * dilation[axis]
    return index


class _Pool(_NativeOp):
    """A pooling op that also takes an unbatched (C, H, W) input itself, as torch's kernels do (so the
    node is the pooling's, not a squeeze's)."""

    @classmethod
    def forward(cls, ctx, input, *args):
        ctx.unbatched = input.dim() == 3
        out = cls.pool(ctx, input.unsqueeze(0) if ctx.unbatched else input, *args)
        return out.squeeze(0) if ctx.unbatched else out

    @classmethod
    def backward(cls, ctx, grad):
        grads = cls.unpool(ctx, grad.unsqueeze(0) if ctx.unbatched else grad)
        return (grads[0].squeeze(0) if ctx.unbatched else grads[0],) + grads[1:]


class MaxPool(_Pool):
    """The largest value of each window (padding counts as -inf). Backward: the gradient goes to the
    element each maximum came from (the first, on ties), added up where windows overlap."""

    node = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def pool(ctx, input, kernel, stride, padding, dilation, ceil_mode):
        cols, extra = _max_pool_columns(input, kernel, stride, padding, dilation, ceil_mode)
        values, which = cols.max(2)
        ctx.save_for_backward(which)
        ctx.args = (input.shape, kernel, stride, padding, dilation, extra)
        return values

    @staticmethod
    def unpool(ctx, grad):
        (which,) = ctx.saved_tensors
        shape, kernel, stride, padding, dilation, extra = ctx.args
        padded = list(shape[:2]) + [s + 2 * p + e for s, p, e in zip(shape[2:], padding, extra)]
        grad_x = minitorch.zeros(padded, dtype=grad.dtype, device=grad.device)
        zero = minitorch.zeros((), dtype=grad.dtype, device=grad.device)
        everything = (slice(None), slice(None))
        for k, s in enumerate(_window_slices(kernel, stride, dilation, list(grad.shape[2:]))):
            grad_x[everything + s] += minitorch.where(which == k, grad, zero)
        return (grad_x[everything + tuple(slice(p, p + n) for p, n in zip(padding, shape[2:]))],
                None, None, None, None, None)


class AvgPool(_Pool):
    """The mean of each window: its sum over the window's element count (count_include_pad: padding
    included, ceil_mode's overhang never), or over divisor_override."""

    node = "AvgPool2DBackward0"

    @staticmethod
    def _divisors(spatial, out_size, kernel, stride, padding, count_include_pad, like):
        """The element count of each window, shaped (*out_size), as torch's kernel computes it."""
        counts = []
        for s, n, k, st, p in zip(spatial, out_size, kernel, stride, padding):
            row = []
            for i in range(n):
                start = i * st - p
                end = min(start + k, s + p)
                size = end - start                      # with padding, without the overhang
                start, end = max(start, 0), min(end, s)
                row.append(size if count_include_pad else end - start)
            counts.append(row)
        grid = minitorch.ones([], dtype=like.dtype, device=like.device)
        for axis, row in enumerate(counts):
            t = minitorch.tensor(row, dtype=like.dtype, device=like.device)
            grid = grid * t.reshape([len(row)] + [1] * (len(counts) - axis - 1))
        return grid

    @staticmethod
    def pool(ctx, input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
        spatial = input.shape[2:]
        out_size = [_out_size(s, k, st, p, 1, ceil_mode) for s, k, st, p in zip(spatial, kernel, stride, padding)]
        extra = [max(0, (n - 1) * st + k - (s + 2 * p)) for n, st, k, s, p in
                 zip(out_size, stride, kernel, spatial, padding)]
        cols = _columns(_padded(input, padding, 0.0, extra), kernel, stride, [1] * len(kernel), out_size)
        if divisor_override:
            divisor = float(divisor_override)
        else:
            divisor = AvgPool._divisors(spatial, out_size, kernel, stride, padding, count_include_pad, input)
        ctx.args = (input.shape, kernel, stride, padding, extra, divisor)
        return cols.sum(2) / divisor

    @staticmethod
    def unpool(ctx, grad):
        shape, kernel, stride, padding, extra, divisor = ctx.args
        share = grad / divisor
        padded = list(shape[:2]) + [s + 2 * p + e for s, p, e in zip(shape[2:], padding, extra)]
        grad_x = minitorch.zeros(padded, dtype=grad.dtype, device=grad.device)
        everything = (slice(None), slice(None))
        for s in _window_slices(kernel, stride, [1] * len(kernel), list(grad.shape[2:])):
            grad_x[everything + s] += share
        return (grad_x[everything + tuple(slice(p, p + n) for p, n in zip(padding, shape[2:]))],
                None, None, None, None, None, None)


def _adaptive_bounds(size, out):
    """torch's adaptive windows along one dim: [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


class AdaptiveAvgPool(_Pool):
    """The mean over output_size windows that tile the input as evenly as they can (they may overlap by
    one element when the sizes do not divide)."""

    node = "AdaptiveAvgPool2DBackward0"

    @staticmethod
    def pool(ctx, input, output_size):
        ctx.shape = input.shape
        rows, cols = _adaptive_bounds(input.shape[2], output_size[0]), _adaptive_bounds(input.shape[3],
                                                                                        output_size[1])
        ctx.bounds = rows, cols
        return minitorch.stack([minitorch.stack([input[:, :, h0:h1, w0:w1].mean([-1, -2]) for w0, w1 in cols], -1)
                                for h0, h1 in rows], -2)

    @staticmethod
    def unpool(ctx, grad):
        grad_x = minitorch.zeros(ctx.shape, dtype=grad.dtype, device=grad.device)
        rows, cols = ctx.bounds
        for i, (h0, h1) in enumerate(rows):
            for j, (w0, w1) in enumerate(cols):
                grad_x[:, :, h0:h1, w0:w1] += grad[:, :, i:i + 1, j:j + 1] / ((h1 - h0) * (w1 - w0))
        return grad_x, None
