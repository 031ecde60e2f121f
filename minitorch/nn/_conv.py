"""Convolution and pooling (torch's convolution, max_pool2d, avg_pool2d, unfold and fold) on three C ops
that see the windows of an image (csrc/ops/window.c, one kernel per device):

    _C._im2col   the image (N, C, *size) as columns (N, C * K, L): K kernel offsets by L windows,
    _C._col2im   columns added back into an image (the adjoint of im2col),
    _C._max_pool_with_indices   each window's maximum and its flat position, as torch's kernel.

So convolution = the weight (O, C * K) times the columns, one batched GEMM (per group); average pooling
= the columns' sum over K divided by the window's element count; and the backward passes go through
col2im (convolution's input gradient, average pooling) or an addition at the indices (max pooling, as
an op of torch's ...BackwardBackward0 name whose own backward gathers there). Adaptive max pooling
gathers its windows through a table of their positions (one per shape) and picks each window's element
by torch's rule, as fractional max pooling does through a table per plane (its windows start at torch's
random intervals); max unpooling writes each value at its index (scatter) and reads its gradient back there
(gather). Each op is one node with torch's name (ConvolutionBackward0, MaxPool2DWithIndicesBackward0,
AvgPool2DBackward0, AdaptiveAvgPool2DBackward0, AdaptiveAvgPool3DBackward0, AdaptiveMaxPool2DBackward0,
FractionalMaxPool2DBackward0, MaxUnpool2DBackward0, Im2ColBackward0, Col2ImBackward0), and the backward passes are made of differentiable ops (im2col and
col2im are each other's nodes), so create_graph=True works through them. On a CUDA device with cuDNN
loaded and torch.backends.cudnn.enabled, convolution's three passes are cuDNN's instead (_C._cudnn_convolution
and its backward passes, the same node). The GEMM sums in another order than torch's oneDNN kernels, so convolution values
agree to float rounding, not bit for bit; pooling's values are torch's.
"""

import itertools

import minitorch
from minitorch import _C
from minitorch.nn._native import _NativeOp


def _padded(input, padding, value=0.0, extra=None):
    """input (N, C, *spatial) with `padding` added before and after each spatial dim (extra: more after),
    filled with value."""
    extra = extra or [0] * len(padding)
    if not any(padding) and not any(extra):
        return input
    spatial = input.shape[2:]
    shape = list(input.shape[:2]) + [s + 2 * p + e for s, p, e in zip(spatial, padding, extra)]
    out = minitorch.full(shape, value, dtype=input.dtype, device=input.device)
    out[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, spatial))] = input
    return out


def _out_size(size, kernel, stride, padding, dilation, ceil_mode=False):
    """The windows' count along one dim (torch's pooling_output_shape; without ceil_mode, convolution's)."""
    numerator = size + 2 * padding - dilation * (kernel - 1) - 1
    out = (numerator + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1        # the last window must start inside the input or its left padding
    return out


def _product(values):
    p = 1
    for v in values:
        p *= v
    return p


class Im2Col(_NativeOp):
    """input (N, C, *size) -> columns (N, C * K, L), or unbatched (C, *size) -> (C * K, L) (torch's im2col,
    under F.unfold); backward: col2im."""

    node = "Im2ColBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, input, out_size, kernel, stride, padding, dilation):
        unbatched = input.dim() == len(kernel) + 1          # (C, *size): columns (C * K, L)
        ctx.args = (list(input.shape[-len(kernel):]), out_size, kernel, stride, padding, dilation)
        cols = _C._im2col(input.unsqueeze(0) if unbatched else input, out_size, kernel, stride, padding, dilation)
        return cols.squeeze(0) if unbatched else cols

    @staticmethod
    def backward(ctx, grad):
        return (Col2Im.apply(grad, *ctx.args),) + (None,) * 5


class Col2Im(_NativeOp):
    """columns (N, C * K, L) -> image (N, C, *image_size), or unbatched (C * K, L) -> (C, *image_size)
    (torch's col2im, under F.fold); backward: im2col."""

    node = "Col2ImBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, cols, image_size, out_size, kernel, stride, padding, dilation):
        unbatched = cols.dim() == 2                         # (C * K, L): an image (C, *image_size)
        ctx.args = (out_size, kernel, stride, padding, dilation)
        image = _C._col2im(cols.unsqueeze(0) if unbatched else cols, image_size, out_size, kernel, stride, padding,
                           dilation)
        return image.squeeze(0) if unbatched else image

    @staticmethod
    def backward(ctx, grad):
        return (Im2Col.apply(grad, *ctx.args),) + (None,) * 6


def _correlate(x, weight, geometry, groups):
    """Convolution's forward: x (N, C, *size) against weight (O, C / G, *kernel) as (N, O, L): the
    columns of x times the weight, one batched GEMM ((G, O / G, C / G * K) times (N, G, C / G * K, L))."""
    n, o = x.shape[0], weight.shape[0]
    cols = Im2Col.apply(x, *geometry)                                               # (N, C * K, L)
    windows = cols.shape[2]
    return minitorch.matmul(weight.reshape(groups, o // groups, -1),
                            cols.view(n, groups, cols.shape[1] // groups, windows)).view(n, o, windows)


def _spread(y, weight, geometry, groups, image_size):
    """The adjoint of _correlate: y (N, O, L) through the weight (O, C / G, *kernel) back onto an
    (N, C, *image_size) image (the columns weight^T y, then col2im)."""
    n, o, windows = y.shape[0], weight.shape[0], _product(y.shape[2:])
    w = weight.reshape(groups, o // groups, -1)
    cols = minitorch.matmul(w.transpose(1, 2), y.reshape(n, groups, o // groups, windows))  # (N, G, C / G * K, L)
    return Col2Im.apply(cols.reshape(n, w.shape[2] * groups, windows), image_size, *geometry)


def _weight_grad(y, x, weight, geometry, groups):
    """The gradient of _correlate(x, weight) for y (N, O, L) as the output's gradient: y times x's
    columns, summed over the batch, in weight's shape."""
    n, o = x.shape[0], weight.shape[0]
    cols = Im2Col.apply(x, *geometry)
    windows = cols.shape[2]
    cols = cols.view(n, groups, cols.shape[1] // groups, windows)
    return minitorch.matmul(y.reshape(n, groups, o // groups, windows), cols.transpose(2, 3)).sum(0).reshape(
        weight.shape)


def _add_bias(out, bias):
    if bias is not None:
        out += bias.view([1, -1] + [1] * (out.dim() - 2))
    return out


def _bias_grad(ctx, grad, index):
    return grad.sum([0] + list(range(2, grad.dim()))) if ctx.has_bias and ctx.needs_input_grad[index] else None


_CUDNN_DTYPES = (minitorch.float32, minitorch.float64, minitorch.float16, minitorch.bfloat16)


def _cudnn_flags(input):
    """(benchmark, deterministic, allow_tf32) of torch.backends.cudnn when convolution on input goes through
    cuDNN, as torch's: a tensor of a real CUDA device (the simulated GPU has no cuDNN), a dtype cuDNN
    takes, backends.cudnn.enabled, and a libcudnn minitorch could load; else None (im2col and GEMM)."""
    if input.device.type != "cuda" or input.dtype not in _CUDNN_DTYPES:
        return None
    cudnn = minitorch.backends.cudnn
    if not cudnn.enabled or _C._cudnn_version() is None:
        return None
    return cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32


class Convolution(_NativeOp):
    """input (N, C, *spatial) with weight (O, C / groups, *kernel): out (N, O, *out_size). On CUDA with
    cuDNN (_cudnn_flags) each pass is one cuDNN call (forward, backward data, backward filter), with the
    flags the forward saw; a backward under create_graph=True takes the differentiable im2col path."""

    node = "ConvolutionBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, dilation, groups):
        ctx.save_for_backward(input, weight)
        kernel = list(weight.shape[2:])
        out_size = [_out_size(s, k, st, p, d) for s, k, st, p, d in
                    zip(input.shape[2:], kernel, stride, padding, dilation)]
        ctx.geometry, ctx.groups, ctx.has_bias = (out_size, kernel, stride, padding, dilation), groups, bias is not None
        ctx.cudnn = _cudnn_flags(input)
        if ctx.cudnn is not None:
            out = _C._cudnn_convolution(input, weight, padding, stride, dilation, groups, *ctx.cudnn)
            return _add_bias(out, bias)
        out = _correlate(input, weight, ctx.geometry, groups)
        return _add_bias(out.view([input.shape[0], weight.shape[0]] + out_size), bias)

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        grad_input = grad_weight = None
        if ctx.cudnn is not None and not minitorch.is_grad_enabled():
            geometry = (ctx.geometry[3], ctx.geometry[2], ctx.geometry[4], ctx.groups) + ctx.cudnn
            if ctx.needs_input_grad[0]:
                grad_input = _C._cudnn_convolution_backward_input(list(input.shape), grad, weight, *geometry)
            if ctx.needs_input_grad[1]:
                grad_weight = _C._cudnn_convolution_backward_weight(list(weight.shape), grad, input, *geometry)
            return grad_input, grad_weight, _bias_grad(ctx, grad, 2), None, None, None, None
        if ctx.needs_input_grad[0]:
            grad_input = _spread(grad, weight, ctx.geometry, ctx.groups, list(input.shape[2:]))
        if ctx.needs_input_grad[1]:
            grad_weight = _weight_grad(grad, input, weight, ctx.geometry, ctx.groups)
        return grad_input, grad_weight, _bias_grad(ctx, grad, 2), None, None, None, None


class MetaConvolution(_NativeOp):
    """torch's meta convolution (meta_conv), either kind: a result of the shape the caller computed, where
    input lives, with input's dtype and nothing written; backward gives each operand an unwritten
    gradient of its own shape and dtype (meta_convolution_backward)."""

    node = "ConvolutionBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, input, weight, bias, shape):
        ctx.save_for_backward(input, weight)
        ctx.bias = bias
        return input.new_empty(shape)

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        return (input.new_empty(input.shape) if ctx.needs_input_grad[0] else None,
                weight.new_empty(weight.shape) if ctx.needs_input_grad[1] else None,
                ctx.bias.new_empty(ctx.bias.shape) if ctx.needs_input_grad[2] else None, None)


class ConvolutionTranspose(_NativeOp):
    """input (N, C_in, *spatial) with weight (C_in, C_out / groups, *kernel): the adjoint of the
    convolution with that weight, out (N, C_out, *out_size) (torch's convolution with transposed=True)."""

    node = "ConvolutionBackward0"
    edges = (0, 1, 2)

    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, dilation, groups, output_padding):
        ctx.save_for_backward(input, weight)
        kernel = list(weight.shape[2:])
        spatial = list(input.shape[2:])
        image_size = [(s - 1) * st - 2 * p + d * (k - 1) + op + 1 for s, st, p, d, k, op in
                      zip(spatial, stride, padding, dilation, kernel, output_padding)]
        # the input's positions are the windows of a convolution over the output
        ctx.geometry, ctx.groups, ctx.has_bias = (spatial, kernel, stride, padding, dilation), groups, bias is not None
        out = _spread(input, weight, ctx.geometry, groups, image_size)
        return _add_bias(out, bias)

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        grad_input = grad_weight = None
        if ctx.needs_input_grad[0]:
            grad_input = _correlate(grad, weight, ctx.geometry, ctx.groups).view(input.shape)
        if ctx.needs_input_grad[1]:
            grad_weight = _weight_grad(input, grad, weight, ctx.geometry, ctx.groups)
        return grad_input, grad_weight, _bias_grad(ctx, grad, 2), None, None, None, None, None


class _Pool(_NativeOp):
    """A pooling op that also takes an unbatched (C, H, W) input itself, as torch's kernels do (so the
    node is the pooling's, not a squeeze's)."""

    @classmethod
    def forward(cls, ctx, input, *args):
        ctx.unbatched = input.dim() == len(args[0]) + 1       # args[0]: the kernel (or output) size
        out = cls.pool(ctx, input.unsqueeze(0) if ctx.unbatched else input, *args)
        if not ctx.unbatched:
            return out
        return tuple(t.squeeze(0) for t in out) if isinstance(out, tuple) else out.squeeze(0)

    @classmethod
    def backward(cls, ctx, grad, *indices_grad):
        # a pooling with indices has a second output, the indices: never differentiable
        if hasattr(cls, "gradient"):        # max pooling: one op of torch's name, batched or not
            (indices,) = ctx.saved_tensors
            shape = ctx.shape[1:] if ctx.unbatched else ctx.shape
            return (cls.gradient.apply(grad, indices, shape),) + (None,) * cls.arguments
        grads = cls.unpool(ctx, grad.unsqueeze(0) if ctx.unbatched else grad)
        return (grads[0].squeeze(0) if ctx.unbatched else grads[0],) + grads[1:]


def max_pool(input, kernel, stride, padding, dilation, ceil_mode):
    """(values, indices) of torch's max pooling of (N, C, *spatial) input, below autograd."""
    out_size = [_out_size(s, k, st, p, d, ceil_mode) for s, k, st, p, d in
                zip(input.shape[2:], kernel, stride, padding, dilation)]
    return _C._max_pool_with_indices(input, out_size, kernel, stride, padding, dilation)


class MaxPool(_Pool):
    """The largest value of each window (padding never counts; a NaN wins) and where it is (a flat index
    into the input's spatial dims, torch's return_indices=True), from one kernel call; the indices are not
    differentiable. Backward: the gradient goes to the element each maximum came from, added up where
    windows overlap."""

    node = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def pool(ctx, input, kernel, stride, padding, dilation, ceil_mode):
        values, indices = max_pool(input, kernel, stride, padding, dilation, ceil_mode)
        ctx.save_for_backward(indices)
        ctx.shape = input.shape
        return values, indices

    arguments = 5       # after the input: kernel, stride, padding, dilation, ceil_mode


class MaxPool3D(MaxPool):
    node = "MaxPool3DWithIndicesBackward0"


def _window_sums(input, geometry, wide=True):
    """Each window's elements of (N, C, *size) input added one after another, as torch's pooling kernels
    add them (16-bit dtypes in float32, unless not wide): (N, C, *out_size)."""
    n, c = input.shape[:2]
    cols = _C._im2col(input, *geometry).view([n, c, _product(geometry[1])] + list(geometry[0]))
    if wide and input.dtype in (minitorch.float16, minitorch.bfloat16):
        cols = cols.float()
    sums = cols.select(2, 0).clone()
    for k in range(1, cols.shape[2]):
        sums += cols.select(2, k)
    return sums


def _spread_windows(share, spatial, geometry):
    """The adjoint of _window_sums: share (N, C, *out_size) added to every element of its window."""
    n, c = share.shape[:2]
    k, windows = _product(geometry[1]), _product(geometry[0])
    cols = share.reshape(n, c, 1, windows).expand(n, c, k, windows).reshape(n, c * k, windows)
    return Col2Im.apply(cols, spatial, *geometry)


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
        spatial = list(input.shape[2:])
        out_size = [_out_size(s, k, st, p, 1, ceil_mode) for s, k, st, p in zip(spatial, kernel, stride, padding)]
        geometry = (out_size, kernel, stride, padding, [1] * len(kernel))
        n, c = input.shape[:2]
        if divisor_override:
            divisor = float(divisor_override)
        else:
            divisor = AvgPool._divisors(spatial, out_size, kernel, stride, padding, count_include_pad, input)
        ctx.args = (spatial, geometry, divisor)
        sums = _window_sums(input, geometry)
        if not input.dtype.is_floating_point:       # torch's int64 kernel: the sum over the count, truncated
            return minitorch.div(sums, divisor, rounding_mode="trunc").to(input.dtype)
        return (sums / divisor).to(input.dtype)

    @staticmethod
    def unpool(ctx, grad):
        spatial, geometry, divisor = ctx.args
        return (_spread_windows(grad / divisor, spatial, geometry),) + (None,) * 6


class AvgPool3D(AvgPool):
    node = "AvgPool3DBackward0"


def _adaptive_bounds(size, out):
    """torch's adaptive windows along one dim: [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _adaptive_average(input, output_size, wide):
    """torch's adaptive average pooling of (N, C, *spatial) input, below autograd: each window's sum over
    its sizes, one dim after another (16-bit dtypes summed in float32 where wide, as torch's 2-D kernel; in
    their own dtype otherwise, as its 3-D kernel). Windows that tile the input are summed in torch's order
    (its values bit for bit); irregular ones (they may overlap by one element) to float rounding."""
    spatial = list(input.shape[2:])
    if all(o > 0 and s % o == 0 for s, o in zip(spatial, output_size)):
        kernel = [s // o for s, o in zip(spatial, output_size)]
        out = _window_sums(input, (list(output_size), kernel, kernel, [0] * len(kernel), [1] * len(kernel)), wide)
        for k in kernel:
            out = out / k
        return out.to(input.dtype)
    # the result first: torch's size checks and allocation errors come before the loop over its windows
    result = minitorch.empty(list(input.shape[:2]) + list(output_size), dtype=input.dtype, device=input.device)
    if result.numel() == 0:
        return result
    dims = list(range(2, input.dim()))
    source = input.float() if wide and input.dtype in (minitorch.float16, minitorch.bfloat16) else input
    means = []
    for window in itertools.product(*(_adaptive_bounds(s, o) for s, o in zip(spatial, output_size))):
        out = source[(slice(None), slice(None)) + tuple(slice(a, b) for a, b in window)].sum(dims)
        for a, b in window:
            out = out / (b - a)
        means.append(out)
    return result.copy_(minitorch.stack(means, -1).view(result.shape))


def _adaptive_spread(grad, spatial):
    """The adjoint of _adaptive_average: grad (N, C, *output_size) over its sizes, added to every element
    of its window (torch's backward kernel)."""
    output_size = list(grad.shape[2:])
    if all(o > 0 and s % o == 0 for s, o in zip(spatial, output_size)):
        kernel = [s // o for s, o in zip(spatial, output_size)]
        for k in kernel:
            grad = grad / k
        return _spread_windows(grad, spatial, (output_size, kernel, kernel, [0] * len(kernel), [1] * len(kernel)))
    grad_x = minitorch.zeros(list(grad.shape[:2]) + list(spatial), dtype=grad.dtype, device=grad.device)
    for index, window in zip(itertools.product(*(range(o) for o in output_size)),
                             itertools.product(*(_adaptive_bounds(s, o) for s, o in zip(spatial, output_size)))):
        share = grad[(slice(None), slice(None)) + tuple(slice(i, i + 1) for i in index)]
        for a, b in window:
            share = share / (b - a)
        grad_x[(slice(None), slice(None)) + tuple(slice(a, b) for a, b in window)] += share
    return grad_x


class AdaptiveAvgPool(_Pool):
    """The mean over output_size windows that tile the input as evenly as they can (they may overlap by
    one element when the sizes do not divide). Backward: one op of torch's name (its own backward pools
    again)."""

    node = "AdaptiveAvgPool2DBackward0"
    wide = True

    @classmethod
    def pool(cls, ctx, input, output_size):
        return _adaptive_average(input, output_size, cls.wide)

    @classmethod
    def backward(cls, ctx, grad):
        return cls.gradient.apply(grad, ctx.saved_input), None

    @classmethod
    def forward(cls, ctx, input, output_size):
        ctx.saved_input = input     # the gradient op's second edge (torch's `self`)
        return super().forward(ctx, input, output_size)


class AdaptiveAvgPool2DBackward(_NativeOp):
    """The backward of adaptive average pooling as an op (torch's ...BackwardBackward0 under
    create_graph=True): the output's gradient spread over the windows; its own backward pools again
    (and gives the input zeros, as torch's formula)."""

    node = "AdaptiveAvgPool2DBackwardBackward0"
    edges = (0, 1)

    @classmethod
    def forward(cls, ctx, grad, input):
        ctx.shape = input.shape
        dims = cls.pool.dims
        for i in range(1, grad.dim()):
            if grad.shape[i] == 0:
                raise RuntimeError(f"adaptive_avg_pool{dims}d_backward(): Expected grad_output to have non-zero size "
                                   f"for non-batch dimensions, but grad_output has sizes {list(grad.shape)} with "
                                   f"dimension {i} being empty")
        unbatched = input.dim() == dims + 1
        ctx.output_size = list(grad.shape[-dims:])
        spatial = list(input.shape[-dims:])
        out = _adaptive_spread(grad.unsqueeze(0) if unbatched else grad, spatial)
        return out.squeeze(0) if unbatched else out

    @classmethod
    def backward(cls, ctx, grad_grad):
        return (cls.pool.apply(grad_grad, ctx.output_size),
                minitorch.zeros(ctx.shape, dtype=grad_grad.dtype, device=grad_grad.device))


class AdaptiveAvgPool3D(AdaptiveAvgPool):
    node = "AdaptiveAvgPool3DBackward0"
    wide = False


class AdaptiveAvgPool3DBackward(AdaptiveAvgPool2DBackward):
    node = "AdaptiveAvgPool3DBackwardBackward0"


AdaptiveAvgPool.dims, AdaptiveAvgPool3D.dims = 2, 3
AdaptiveAvgPool.gradient, AdaptiveAvgPool3D.gradient = AdaptiveAvgPool2DBackward, AdaptiveAvgPool3DBackward
AdaptiveAvgPool2DBackward.pool, AdaptiveAvgPool3DBackward.pool = AdaptiveAvgPool, AdaptiveAvgPool3D


_ADAPTIVE_WINDOWS = {}


def _adaptive_windows(spatial, output_size):
    """The windows of adaptive pooling as a table (L, K) of flat positions in an input plane (L output
    positions, K the most elements a window has), each window's elements in the order torch's kernel
    visits them (row-major). A window shorter than K along a dim repeats its last element there, which
    changes neither the maximum nor which element the kernel picks (the repeats come after their
    original, in the same order). Built on the host once per shape."""
    key = (tuple(spatial), tuple(output_size))
    table = _ADAPTIVE_WINDOWS.get(key)
    if table is None:
        n = len(spatial)
        table = minitorch.zeros([1] * 2 * n, dtype=minitorch.int64)
        stride = 1
        for d in reversed(range(n)):
            bounds = _adaptive_bounds(spatial[d], output_size[d])
            k = max(end - start for start, end in bounds)
            rows = [[min(start + j, end - 1) * stride for j in range(k)] for start, end in bounds]
            shape = [1] * 2 * n
            shape[d], shape[n + d] = len(bounds), k
            table = table + minitorch.tensor(rows, dtype=minitorch.int64).view(shape)
            stride *= spatial[d]
        table = table.reshape(_product(output_size), -1)
        _ADAPTIVE_WINDOWS[key] = table
    return table


def adaptive_max_pool(input, output_size):
    """(values, indices) of torch's adaptive max pooling of (N, C, *spatial) input, below autograd: each
    window's first maximum, or its last NaN when it has one (torch's kernel keeps an element that is
    greater or NaN); indices are flat positions in the input plane."""
    n, c = input.shape[:2]
    spatial = list(input.shape[2:])
    shape = [n, c] + list(output_size)
    # the results first: torch's size checks and allocation errors come before the table of windows
    values = minitorch.empty(shape, dtype=input.dtype, device=input.device)
    indices = minitorch.empty(shape, dtype=minitorch.int64, device=input.device)
    if values.numel() == 0:
        return values, indices
    table = _adaptive_windows(spatial, output_size).to(input.device)
    windows, k = table.shape
    planes = input.reshape(n, c, _product(spatial))
    candidates = planes.index_select(2, table.flatten()).view(n, c, windows, k)
    indices.copy_(table.expand(n, c, windows, k).gather(3, _window_pick(candidates)).view(shape))
    return values.copy_(planes.gather(2, indices.view(n, c, windows)).view(shape)), indices


def _window_pick(candidates):
    """The position in each window (the last dim of candidates, in the order torch's kernels visit it) of
    the element the max-pooling kernels keep (an element that is greater, or NaN): the first maximum, or
    the last NaN when the window has one; with the last dim kept (size 1)."""
    k = candidates.shape[-1]
    position = minitorch.arange(k, device=candidates.device)
    first_max = ((candidates == candidates.amax(-1, keepdim=True)) * (k - position)).argmax(-1)
    nan = candidates.isnan()
    last_nan = (nan * (position + 1)).argmax(-1)
    return minitorch.where(nan.any(-1), last_nan, first_max).unsqueeze(-1)


def _fractional_starts(samples, size, out, pool):
    """torch's generate_intervals for one dim of every plane: the window starts (N, C, out), int64, from
    each plane's sample (N, C), in the samples' dtype as torch's kernel computes them in its scalar type
    (so float16 rounds after each operation): trunc((i + u) * alpha) - trunc(u * alpha) with alpha =
    (size - pool) / (out - 1), the last window ending at the input's end."""
    starts = minitorch.full(list(samples.shape) + [out], size - pool, dtype=minitorch.int64, device=samples.device)
    if out > 1:
        dtype, device = samples.dtype, samples.device
        alpha = (minitorch.tensor(size - pool, dtype=dtype, device=device) /
                 minitorch.tensor(out - 1, dtype=dtype, device=device))
        u = samples.unsqueeze(-1)
        i = minitorch.arange(out - 1, device=device).to(dtype)
        starts[..., :-1] = ((i + u) * alpha).to(minitorch.int64) - (u * alpha).to(minitorch.int64)
    return starts


def fractional_max_pool(input, kernel, output_size, samples):
    """(values, indices) of torch's fractional max pooling of (N, C, *spatial) input, below autograd: windows
    of the kernel's size starting where _fractional_starts puts them (2-D: the plane's first sample drives
    the width, its second the height; 3-D: time, height, width in order), each window's first maximum or its
    last NaN (indices: flat positions in the input plane). A window of no element (a kernel size of 0 or less,
    which torch accepts) gives -inf at its start."""
    n, c = input.shape[:2]
    spatial, dims = list(input.shape[2:]), len(kernel)
    shape = [n, c] + list(output_size)
    values = minitorch.empty(shape, dtype=input.dtype, device=input.device)
    indices = minitorch.empty(shape, dtype=minitorch.int64, device=input.device)
    if values.numel() == 0:
        return values, indices
    drivers = (1, 0) if dims == 2 else (0, 1, 2)
    table = minitorch.zeros([n, c] + [1] * 2 * dims, dtype=minitorch.int64, device=input.device)
    stride = 1
    for d in reversed(range(dims)):
        starts = _fractional_starts(samples[:n, :, drivers[d]], spatial[d], output_size[d], kernel[d])
        offsets = minitorch.arange(max(kernel[d], 1), device=input.device)
        view = [n, c] + [1] * 2 * dims
        view[2 + d], view[2 + dims + d] = output_size[d], offsets.numel()
        table = table + ((starts.unsqueeze(-1) + offsets) * stride).view(view)
        stride *= spatial[d]
    windows = _product(output_size)
    table = table.reshape(n, c, windows, -1)
    if any(k <= 0 for k in kernel):
        return values.fill_(float("-inf")), indices.copy_(table[..., 0].view(shape))
    planes = input.reshape(n, c, stride)
    candidates = planes.gather(2, table.view(n, c, -1)).view(table.shape)
    indices.copy_(table.gather(3, _window_pick(candidates)).view(shape))
    return values.copy_(planes.gather(2, indices.view(n, c, windows)).view(shape)), indices


def _add_at_indices(grad, indices, shape):
    """grad (N, C, *out_size) added into zeros of shape (N, C, *spatial) at indices (flat positions in each
    plane), one output after another as torch's max-pooling backward kernels add them: float16 and
    bfloat16 rounded after each addition (an element that several outputs reach is summed in rounds, the
    r-th output reaching it in round r)."""
    n, c = shape[:2]
    grad_x = minitorch.zeros(n, c, _product(shape[2:]), dtype=grad.dtype, device=grad.device)
    if grad.dtype not in (minitorch.float16, minitorch.bfloat16):
        return grad_x.scatter_add_(2, indices.reshape(n, c, -1), grad.reshape(n, c, -1)).view(shape)
    planes = minitorch.arange(n * c, device=grad.device).view(n, c, 1) * grad_x.shape[2]
    targets = (indices.reshape(n, c, -1) + planes).flatten()
    values = grad.reshape(-1)
    order = minitorch.argsort(targets, stable=True)
    _, group, counts = minitorch.unique_consecutive(targets[order], return_inverse=True, return_counts=True)
    rank = minitorch.empty_like(order).scatter_(
        0, order, minitorch.arange(order.numel(), device=grad.device) - (counts.cumsum(0) - counts)[group])
    flat = grad_x.view(-1)
    for r in range(int(rank.max()) + 1 if rank.numel() else 0):
        chosen = rank == r
        flat.index_add_(0, targets[chosen], values[chosen])
    return grad_x.view(shape)


class _IndexedGradient(_NativeOp):
    """The backward of a max pooling as an op of its own (torch's ...BackwardBackward0 under
    create_graph=True): the output's gradient added at the indices; its own backward gathers there."""

    edges = (0,)

    @staticmethod
    def forward(ctx, grad, indices, shape):
        # grad and shape may be unbatched (C, ...): indices (N, C, ...) always have the batch dim
        ctx.save_for_backward(indices)
        ctx.grad_shape = grad.shape
        return _add_at_indices(grad.view(indices.shape), indices, list(indices.shape[:2]) + list(shape[-(
            indices.dim() - 2):])).view(shape)

    @staticmethod
    def backward(ctx, grad_grad):
        (indices,) = ctx.saved_tensors
        n, c = indices.shape[:2]
        picked = grad_grad.reshape(n, c, -1).gather(2, indices.reshape(n, c, -1))
        return picked.view(ctx.grad_shape), None, None


class AdaptiveMaxPool2DBackward(_IndexedGradient):
    node = "AdaptiveMaxPool2DBackwardBackward0"


class MaxPool2DWithIndicesBackward(_IndexedGradient):
    node = "MaxPool2DWithIndicesBackwardBackward0"


class MaxPool3DWithIndicesBackward(_IndexedGradient):
    node = "MaxPool3DWithIndicesBackwardBackward0"


MaxPool.gradient, MaxPool3D.gradient = MaxPool2DWithIndicesBackward, MaxPool3DWithIndicesBackward


class AdaptiveMaxPool3DBackward(_IndexedGradient):
    node = "AdaptiveMaxPool3DBackwardBackward0"


class AdaptiveMaxPool(_Pool):
    """The largest value of output_size windows that tile the input as evenly as they can (torch's
    adaptive windows), and where each is. Backward: as max pooling's, to the element each maximum came
    from."""

    node = "AdaptiveMaxPool2DBackward0"

    @staticmethod
    def pool(ctx, input, output_size):
        values, indices = adaptive_max_pool(input, output_size)
        ctx.save_for_backward(indices)
        ctx.shape = input.shape
        return values, indices

    gradient = AdaptiveMaxPool2DBackward
    arguments = 1       # after the input: output_size


class AdaptiveMaxPool3D(AdaptiveMaxPool):
    node = "AdaptiveMaxPool3DBackward0"
    gradient = AdaptiveMaxPool3DBackward


class FractionalMaxPool2DBackward(_IndexedGradient):
    """As the other max poolings' gradient op, with the pooling's input as a second edge (torch's `self`,
    whose gradient is zeros), so that the gradient of a constant output gradient is in the graph too."""

    node = "FractionalMaxPool2DBackwardBackward0"
    edges = (0, 2)

    @staticmethod
    def forward(ctx, grad, indices, input):
        ctx.input_shape = input.shape
        return _IndexedGradient.forward(ctx, grad, indices, input.shape)

    @staticmethod
    def backward(ctx, grad_grad):
        picked = _IndexedGradient.backward(ctx, grad_grad)[0]
        return picked, None, minitorch.zeros(ctx.input_shape, dtype=grad_grad.dtype, device=grad_grad.device)


class FractionalMaxPool3DBackward(FractionalMaxPool2DBackward):
    node = "FractionalMaxPool3DBackwardBackward0"


class FractionalMaxPool(_Pool):
    """The largest value of each window of fractional max pooling (fractional_max_pool), and where it is;
    the random samples are no edge of the graph. Backward: as max pooling's, to the element each maximum
    came from."""

    node = "FractionalMaxPool2DBackward0"
    edges = (0,)

    @classmethod
    def forward(cls, ctx, input, *args):
        ctx.saved_input = input     # the gradient op's second edge
        return super().forward(ctx, input, *args)

    @classmethod
    def backward(cls, ctx, grad, *indices_grad):
        (indices,) = ctx.saved_tensors
        return (cls.gradient.apply(grad, indices, ctx.saved_input),) + (None,) * cls.arguments

    @staticmethod
    def pool(ctx, input, kernel, output_size, samples):
        values, indices = fractional_max_pool(input, kernel, output_size, samples)
        ctx.save_for_backward(indices)
        ctx.shape = input.shape
        return values, indices

    gradient = FractionalMaxPool2DBackward
    arguments = 3       # after the input: kernel, output_size, samples


class FractionalMaxPool3D(FractionalMaxPool):
    node = "FractionalMaxPool3DBackward0"
    gradient = FractionalMaxPool3DBackward


class MaxUnpool(_NativeOp):
    """The partial inverse of max pooling: zeros of (*leading, *output_size) with each input element
    written at its index (a flat position in its output plane). Backward: the output's gradient read back
    at the indices (torch's max_pool_double_backward: a gather between views)."""

    node = "MaxUnpool2DBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, input, indices, output_size):
        ctx.save_for_backward(indices)
        ctx.dims = len(output_size)
        leading = list(input.shape[:-ctx.dims])
        out = minitorch.zeros(leading + [_product(output_size)], dtype=input.dtype, device=input.device)
        if input.numel():
            out.scatter_(-1, indices.reshape(leading + [-1]), input.reshape(leading + [-1]))
        return out.view(leading + list(output_size))

    @staticmethod
    def backward(ctx, grad):
        (indices,) = ctx.saved_tensors
        if indices.numel() == 0:
            return minitorch.zeros(indices.shape, dtype=grad.dtype, device=grad.device), None, None
        size = list(indices.shape[:-ctx.dims]) + [-1]
        return grad.contiguous().view(size).gather(-1, indices.view(size)).view(indices.shape), None, None


class MaxUnpool3D(MaxUnpool):
    node = "MaxUnpool3DBackward0"
