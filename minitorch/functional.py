"""torch.functional: the tensor functions torch writes in Python; here broadcast_shapes and
broadcast_tensors (minitorch re-exports them at the top level, as torch does)."""

import minitorch
from minitorch import _C

__all__ = ["broadcast_shapes", "broadcast_tensors"]


def broadcast_shapes(*shapes):
    """The shape that tensors of the given shapes (tuples, lists or single ints) broadcast to."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__") or not hasattr(shape, "__getitem__"):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of ints, "
                               f"got {shape}")
    if not shapes:
        return minitorch.Size([])
    common = [1] * max(len(shape) for shape in shapes)
    for arg, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            elif shape[idx] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                                   f"Mismatching argument at index {arg} had {shape}; but expected shape should "
                                   f"be broadcastable to {common}")
    return minitorch.Size(common)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (views; a tensor that has that shape comes back as
    itself, so autograd records nothing for it)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, minitorch.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    if len(tensors) < 2:
        return tuple(tensors)
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = _C._infer_size(shape, t.shape)
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)
