"""The padding ops torch implements natively (ATen's constant_pad_nd, reflection_pad{1,2,3}d,
replication_pad{1,2,3}d and the composite _pad_circular), composed here from minitorch's tensor ops.

It owns each op's checks and messages in torch's order and the op's node, named as torch names it
(ConstantPadNdBackward0, ReflectionPad2DBackward0, ...); circular padding is torch's own composition
(an empty output, slices copied in), so its graph is torch's CopySlices chain. Reflection and replication
read the input through one index per output position of the padded dims (flattened; _native's
_TrailingGather, which nearest-neighbour upsampling shares), so the backward adds
the gradient of every output position into its input position in torch's kernel's order (output positions
in row-major order): the values are copies and the gradients torch's bit for bit. The public function and
its argument parsing are nn/functional.py's ``pad``.
"""

import minitorch
from minitorch.nn._native import _flat_index, _NativeOp, _TrailingGather


def _size_list(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


# ---- constant ------------------------------------------------------------------------------------------


def _constant_pad(input, pad, value):
    """torch's constant_pad_nd, below autograd: the negative pads narrow the input first, then (unless no
    pad is positive, where the narrowed input is cloned) an output filled with value receives it."""
    sizes, dims, n_pad = list(input.shape), input.dim(), len(pad) // 2
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if dims < n_pad:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(pad)}while the input has {dims}dimensions.")
    first = dims - n_pad
    narrowed, non_positive = input, True
    for i in range(first, dims):
        before, after = pad[2 * (dims - i - 1)], pad[2 * (dims - i - 1) + 1]
        if before < 0:
            narrowed = narrowed.narrow(i, -before, narrowed.size(i) + before)
        elif before != 0:
            non_positive = False
        if after < 0:
            narrowed = narrowed.narrow(i, 0, narrowed.size(i) + after)
        elif after != 0:
            non_positive = False
    if non_positive:
        return narrowed.clone()
    shape = sizes[:first]
    for i in range(n_pad):
        before, after = pad[len(pad) - 2 * (i + 1)], pad[len(pad) - 2 * (i + 1) + 1]
        size = sizes[first + i] + before + after
        if size < 0:
            raise RuntimeError(f"The input size {sizes[first + i]}, plus negative padding {before} and {after} "
                               f"resulted in a negative output size, which is invalid. Check dimension {first + i} "
                               "of your input.")
        shape.append(size)
    output = minitorch.empty(shape, dtype=input.dtype, device=input.device)
    output.fill_(value)
    window = output
    for i in range(first, dims):
        before, after = pad[2 * (dims - i - 1)], pad[2 * (dims - i - 1) + 1]
        if before > 0:
            window = window.narrow(i, before, window.size(i) - before)
        if after > 0:
            window = window.narrow(i, 0, window.size(i) - after)
    window.copy_(narrowed)
    return output


class ConstantPadNd(_NativeOp):
    """The input surrounded by value (negative pads cut it). Backward: the gradient cut back by the
    negated pads."""

    node = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, input, pad, value):
        ctx.pad = pad
        return _constant_pad(input, pad, value)

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, [-p for p in ctx.pad], 0), None, None


# ---- reflection and replication ------------------------------------------------------------------------


def _source(position, before, size, reflect):
    """The input position an output position of a padded dim reads."""
    c = position - before
    if reflect:
        c = -c if c < 0 else c
        return 2 * (size - 1) - c if c >= size else c
    return min(max(c, 0), size - 1)


class _IndexPad(_TrailingGather):
    """A padding that copies input positions over the last len(pad) / 2 dims (reflect: reflection, else
    replication)."""

    reflect = False

    @classmethod
    def index(cls, input, pad):
        n = len(pad) // 2
        sizes = list(input.shape[input.dim() - n:])
        sources, out = [], []
        for i, size in enumerate(sizes):
            before, after = pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]
            out.append(size + before + after)
            sources.append([_source(j, before, size, cls.reflect) for j in range(out[-1])])
        return _flat_index(sizes, sources), out


def _index_pad(kind, n, reflect):
    return type(f"{kind}Pad{n}d", (_IndexPad,), {"node": f"{kind}Pad{n}DBackward0", "reflect": reflect,
                                                 "__doc__": f"torch's {kind.lower()}_pad{n}d."})


REFLECTION = {n: _index_pad("Reflection", n, True) for n in (1, 2, 3)}
REPLICATION = {n: _index_pad("Replication", n, False) for n in (1, 2, 3)}


def _check_valid_input(input, n):
    """torch's padding::check_valid_input: (n + 1)-D input of non-zero sizes, or (n + 2)-D with a batch
    size that may be 0."""
    batched = input.dim() == n + 2
    sizes = list(input.shape)
    valid = all(sizes[1:]) if batched else (input.dim() == n + 1 and all(sizes))
    if not valid:
        raise RuntimeError(f"Expected {n + 1}D or {n + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {_size_list(sizes)}")


_LETTERS = "DHW"


def _check_output(input, pad, n, replicate):
    """torch's "input is too small" check: the 1-D kernels want an output width, the others any output size."""
    sizes = list(input.shape[input.dim() - n:])
    out = [s + pad[2 * (n - 1 - i)] + pad[2 * (n - 1 - i) + 1] for i, s in enumerate(sizes)]
    if (out[0] >= 1) if n == 1 else any(o >= 1 for o in out):
        return
    letters = _LETTERS[3 - n:]
    if n == 1:
        given = f"W: {sizes[0]}"
    elif n == 2:
        given = f"H: {sizes[0]}, W: {sizes[1]}" + (" " if replicate else "")
    else:
        given = f"D: {sizes[0]} H: {sizes[1]}, W: {sizes[2]}"
    computed = " ".join(f"{letter}: {o}" for letter, o in zip(letters, out))
    raise RuntimeError(f"input ({given}) is too small. Calculated output {computed}")


def _check_dtype(input, name):
    if input.dtype == minitorch.bool:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def reflection_pad(input, pad):
    """torch's reflection_pad{1,2,3}d (n = len(pad) / 2): every pad smaller than its dim's size."""
    n = len(pad) // 2
    _check_valid_input(input, n)
    for k in range(n):
        before, after = pad[2 * k], pad[2 * k + 1]
        dim = input.dim() - 1 - k
        if not (before < input.shape[dim] and after < input.shape[dim]):
            raise RuntimeError(f"Argument #{4 + 2 * k}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({before}, {after}) at dimension {dim} of input "
                               f"{_size_list(input.shape)}")
    _check_output(input, pad, n, False)
    _check_dtype(input, f"reflection_pad{n}d")
    return REFLECTION[n].apply(input, list(pad))


def replication_pad(input, pad):
    """torch's replication_pad{1,2,3}d (n = len(pad) / 2)."""
    n = len(pad) // 2
    _check_valid_input(input, n)
    _check_output(input, pad, n, True)
    _check_dtype(input, f"replication_pad{n}d")
    return REPLICATION[n].apply(input, list(pad))


# ---- circular ------------------------------------------------------------------------------------------


def _slice(t, dim, start, end):
    return t[(slice(None),) * dim + (slice(start, end),)]


def circular_pad(input, pad):
    """torch's _pad_circular: an empty output, the input copied into its middle, then each padded dim's
    ends copied from the opposite side of the output (corners written more than once), all with copy_
    into slices, so that autograd records torch's CopySlices chain."""
    in_shape = list(input.shape)
    n_padded = len(pad) // 2
    n_plain = len(in_shape) - n_padded
    out_shape = in_shape[:n_plain]
    for i in range(n_padded):
        before, after = pad[2 * (n_padded - i - 1)], pad[2 * (n_padded - i - 1) + 1]
        size = in_shape[n_plain + i]
        out_shape.append(size + before + after)
        if not (before <= size and after <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[-1] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for i in range(n_padded):
        dim = n_padded - i + n_plain - 1
        before, after = pad[2 * i], pad[2 * i + 1]
        out_slice = _slice(out_slice, dim, max(before, 0), out_shape[dim] - max(after, 0))
        in_slice = _slice(in_slice, dim, max(-before, 0), in_shape[dim] - max(-after, 0))
    out_slice.copy_(in_slice)
    for i in range(n_padded):
        dim = n_padded - i + n_plain - 1
        before, after = pad[2 * i], pad[2 * i + 1]
        if before > 0:
            _slice(out, dim, 0, before).copy_(
                _slice(out, dim, out_shape[dim] - before - max(after, 0), out_shape[dim] - max(after, 0)))
        if after > 0:
            _slice(out, dim, out_shape[dim] - after, out_shape[dim]).copy_(
                _slice(out, dim, max(before, 0), max(before, 0) + after))
    return out
