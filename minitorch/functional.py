"""torch.functional: the tensor functions torch writes in Python: broadcast_shapes, broadcast_tensors and
norm (minitorch re-exports them at the top level, as torch does). Each maps its arguments onto the C ops
as torch's own does (so results, nodes and messages are torch's)."""

import collections.abc

import minitorch
from minitorch import _C

__all__ = ["broadcast_shapes", "broadcast_tensors", "norm"]


def broadcast_shapes(*shapes):
    """The shape that tensors of the given shapes (tuples, lists or single ints) broadcast to."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, collections.abc.Sequence):
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
    if any(not -2**63 <= size < 2**63 for size in common):
        raise ValueError("Overflow when unpacking long long")   # torch.Size's own check
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


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The p-norm of input over dim (or all elements), as torch.norm: "fro" and numbers are
    ``linalg.vector_norm``; "nuc" and the matrix norms of other strings are not supported yet."""
    if out is not None:
        raise NotImplementedError("norm(): the out= argument is not supported by minitorch yet")
    if dim is not None:
        _dim = [dim] if isinstance(dim, int) else dim
    else:
        _dim = None
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return minitorch.linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype)
        if p != "nuc" and p != "fro":
            raise RuntimeError("linalg.matrix_norm: Order {} not supported.".format(p))
        raise NotImplementedError("norm(): p={!r} (a matrix norm) is not supported by minitorch yet".format(p))
    _p = 2.0 if p is None else p
    return minitorch.linalg.vector_norm(input, _p, _dim, keepdim, dtype=dtype)
