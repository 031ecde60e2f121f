"""torch.nn.utils.rnn: padded batches of variable-length sequences and their packed form.

``PackedSequence`` is torch's named tuple (data, batch_sizes, sorted_indices, unsorted_indices): the time
steps of every sequence laid end to end, longest sequences first at each step. The functions here are
torch's Python functions over its two C++ ops, written with minitorch's ops: ``_pack_padded_sequence``
(one node, PackPaddedSequenceBackward0, with torch's checks and messages) and ``_pad_packed_sequence``
(a composition: a filled tensor and a copy per run of equal batch sizes, as ATen writes it), and
``pad_sequence`` (parsed as torch's C++ op, composed as ATen's kernel). The recurrent layers
(nn/modules/rnn.py) take and return PackedSequence.
"""

from collections.abc import Iterable
from typing import NamedTuple

import minitorch
from minitorch import _C
from minitorch.nn import _native

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: minitorch.Tensor
    batch_sizes: minitorch.Tensor
    sorted_indices: "minitorch.Tensor | None"
    unsorted_indices: "minitorch.Tensor | None"


def bind(optional, fn):
    if optional is None:
        return None
    return fn(optional)


class PackedSequence(PackedSequence_):
    """The packed form of a batch of sequences; made by pack_padded_sequence and pack_sequence, never by hand.

    data: (sum of lengths, *) the steps, batch_sizes: how many sequences each time step holds (on the
    CPU), sorted_indices / unsorted_indices: the permutation that sorted the batch by length and its
    inverse (None when the batch came sorted)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices))

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, bind(self.sorted_indices, lambda t: t.pin_memory()),
                          bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def to(self, *args, **kwargs):
        """data moved or converted as Tensor.to does; the indices follow data's device; self when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        non_blocking = kwargs.get("non_blocking", False)
        memory_format = kwargs.get("memory_format", minitorch.preserve_format)

        def call_to(t):
            return t.to(data.device, non_blocking=non_blocking, memory_format=memory_format)

        sorted_indices = bind(self.sorted_indices, call_to)
        unsorted_indices = bind(self.unsorted_indices, call_to)
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cuda(self, *args, **kwargs):
        ex = minitorch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        ex = minitorch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=minitorch.double)

    def float(self):
        return self.to(dtype=minitorch.float)

    def half(self):
        return self.to(dtype=minitorch.half)

    def long(self):
        return self.to(dtype=minitorch.long)

    def int(self):
        return self.to(dtype=minitorch.int)

    def short(self):
        return self.to(dtype=minitorch.short)

    def char(self):
        return self.to(dtype=minitorch.int8)

    def byte(self):
        return self.to(dtype=minitorch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        if batch_sizes.device.type != "cpu":
            raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be created "
                             "manually. They should be instantiated by functions like pack_sequence and "
                             "pack_padded_sequences in nn.utils.rnn. "
                             "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return data, batch_sizes, sorted_indices, unsorted_indices
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def _packed_sequence_init(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    data, batch_sizes, sorted_indices, unsorted_indices = _packed_sequence_init_args(
        data, batch_sizes, sorted_indices, unsorted_indices)
    return PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)


def invert_permutation(permutation):
    """The inverse of a permutation of 0..n-1 (None stays None)."""
    if permutation is None:
        return None
    output = minitorch.empty_like(permutation, memory_format=minitorch.contiguous_format)
    output.scatter_(0, permutation, minitorch.arange(0, permutation.numel(), device=permutation.device))
    return output


# ---- the two C++ ops ----------------------------------------------------------------------------------------

def _check_long_tensor(tensor, name="lengths"):
    if not (tensor.dim() == 1 and tensor.device.type == "cpu" and tensor.dtype == minitorch.int64):
        raise RuntimeError(f"'{name}' argument should be a 1D CPU int64 tensor, but got {tensor.dim()}D "
                           f"{tensor.device} {tensor.dtype._scalar_name} tensor")


class _PackPadded(_native._NativeOp):
    """ATen's _pack_padded_sequence: the (seq, batch, *) input's valid steps laid end to end, one block per
    run of equal lengths. Backward: the gradient scattered back into zeros of the input's shape."""

    node = "PackPaddedSequenceBackward0"
    edges = (0,)

    @staticmethod
    def forward(ctx, input, lengths, batch_first):
        if batch_first:
            input = input.transpose(0, 1)
        batch_size = input.size(1)
        steps, batch_sizes, prev_l = [], [], 0
        for i in range(batch_size):
            l = lengths[batch_size - 1 - i]
            if l > prev_l:
                current = batch_size - i
                steps.append(input[prev_l:l, :current].contiguous().view(-1, *input.shape[2:]))
                batch_sizes.extend([current] * (l - prev_l))
                prev_l = l
        ctx.batch_sizes, ctx.shape, ctx.batch_first = batch_sizes, tuple(input.shape), batch_first
        return minitorch.cat(steps)

    @staticmethod
    def backward(ctx, grad):
        grad_input = minitorch.zeros(ctx.shape, dtype=grad.dtype, device=grad.device)
        offset = 0
        for step, size in enumerate(ctx.batch_sizes):
            grad_input[step, :size] = grad[offset:offset + size]
            offset += size
        if ctx.batch_first:
            grad_input = grad_input.transpose(0, 1)
        return grad_input, None, None


def _pack_padded_sequence(input, lengths, batch_first):
    """(data, batch_sizes), with ATen's checks in its order."""
    lengths = lengths.contiguous()
    _check_long_tensor(lengths)
    steps_input = input.transpose(0, 1) if batch_first else input
    batch_size = steps_input.size(1)
    values = lengths.tolist()
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(values) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(values)} "
                           f"(batch_size={batch_size})")
    if values[batch_size - 1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    for i in range(batch_size - 1):
        if values[batch_size - 1 - i] > values[batch_size - 2 - i]:
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                               "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
    data = _PackPadded.apply(input, values, batch_first)
    batch_sizes = [sum(1 for l in values if l > t) for t in range(values[0])]
    return data, minitorch.tensor(batch_sizes, dtype=minitorch.int64)


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """ATen's _pad_packed_sequence, op for op: a filled (steps, batch, *) tensor with each run of equal
    batch sizes copied in, and each sequence's length."""
    batch_sizes = batch_sizes.contiguous()
    _check_long_tensor(batch_sizes, "lengths")
    sizes = batch_sizes.tolist()
    max_batch_size = sizes[0]
    max_real_seq_length = len(sizes)
    max_seq_length = max_real_seq_length
    if total_length > 0:
        if total_length < max_seq_length:
            raise RuntimeError(f"Expected total_length to be at least the length of the longest sequence in input, "
                               f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    output = minitorch.full((max_seq_length, max_batch_size) + tuple(data.shape[1:]), padding_value,
                            dtype=data.dtype, device=data.device)
    lengths = [0] * max_batch_size
    position = max_batch_size - 1
    data_offset, prev_batch_size, prev_i = 0, max_batch_size, 0
    for i in range(max_real_seq_length + 1):
        batch_size = sizes[i] if i != max_real_seq_length else 0
        if batch_size != prev_batch_size:
            count = prev_batch_size * (i - prev_i)
            tmp = data[data_offset:data_offset + count]
            output[prev_i:i, :prev_batch_size].copy_(tmp.view(i - prev_i, prev_batch_size, *data.shape[1:]))
            data_offset += count
            prev_i = i
        for _ in range(prev_batch_size - batch_size):
            lengths[position] = i
            position -= 1
        prev_batch_size = batch_size
    if batch_first:
        output = output.transpose(0, 1)
    return output, minitorch.tensor(lengths, dtype=minitorch.int64)


# ---- torch.nn.utils.rnn's functions ---------------------------------------------------------------------

def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """A PackedSequence of the padded batch input ((T, B, *), or (B, T, *) with batch_first) whose sequences
    have the given lengths; enforce_sorted=False sorts the batch first (and records the permutation)."""
    if not isinstance(lengths, minitorch.Tensor):
        lengths = minitorch.as_tensor(lengths, dtype=minitorch.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=minitorch.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = minitorch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return _packed_sequence_init(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """(padded batch, lengths): the inverse of pack_padded_sequence, padded to total_length steps when given."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                  max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


_PAD_SEQUENCE = ['pad_sequence(TensorList sequences, bool batch_first=False, double padding_value=0.0, '
                 'c10::string_view padding_side="right")']


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """The sequences (each (L_i, *)) stacked into one (max L, B, *) tensor ((B, max L, *) with batch_first),
    padded with padding_value on the right (or the left)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    args = _C._parse_args(_PAD_SEQUENCE, (sequences, batch_first, padding_value, padding_side), {})[1]
    sequences, batch_first = args["sequences"], args["batch_first"]
    padding_value, padding_side = args["padding_value"], args["padding_side"]
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    if sequences[0].dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    trailing_dims = tuple(sequences[0].shape[1:])
    max_len = max(seq.size(0) for seq in sequences)
    out_dims = ((len(sequences), max_len) if batch_first else (max_len, len(sequences))) + trailing_dims
    out = minitorch.full(out_dims, padding_value, dtype=sequences[0].dtype, device=sequences[0].device)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences a padded batch holds (the inverse of pad_sequence). Without batch_first the
    padded batch is transposed in place, as torch's does."""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = minitorch.arange(max_length, device=lengths.device)
    if len(padded_sequences) != len(lengths):     # zip(strict=True)'s error (Python 3.9 has no strict=)
        raise ValueError("zip() argument 2 is {} than argument 1".format(
            "shorter" if len(lengths) < len(padded_sequences) else "longer"))
    for seq, length in zip(padded_sequences.unbind(0), lengths):    # iteration's rows, as torch's (unbind)
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    """A PackedSequence of a list of sequences of decreasing length (any order with enforce_sorted=False)."""
    lengths = minitorch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds (the inverse of pack_sequence)."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
