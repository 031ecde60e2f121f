"""torch.functional: the tensor functions torch writes in Python: broadcast_shapes, broadcast_tensors, meshgrid,
unique, unique_consecutive, norm, split and unravel_index, with atleast_1d/2d/3d, einsum, tensordot,
cartesian_prod, block_diag, chain_matmul, cdist, stft, istft, svd_lowrank, pca_lowrank and lu from the modules
that write them (minitorch re-exports them at the top level, as torch does). Each maps its arguments onto the
C ops as torch's own does (so results, nodes and messages are torch's); where torch hands over to a C++ op
(meshgrid, _unique2, unique_dim), that op is written here from minitorch's ops in the same steps."""

import collections.abc
import warnings

import minitorch
from minitorch import _C
from minitorch.autograd.function import _NoDerivative

__all__ = ["broadcast_shapes", "broadcast_tensors", "meshgrid", "unique", "unique_consecutive", "norm", "split",
           "unravel_index"]


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


def meshgrid(*tensors, indexing=None):
    """Coordinate grids: for 0-d or 1-D tensors of sizes n1, ..., nk, k views of shape (n1, ..., nk), the
    i-th varying along dim i ("ij"); "xy" swaps the roles of the first two (as NumPy's default)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, minitorch.Tensor):
            raise TypeError("meshgrid(): argument 'tensors' (position 1) must be tuple of Tensors, but found "
                            "element of type {} at pos {}".format(type(t).__name__, i))
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for a, b in zip(tensors, tensors[1:]):
        if a.dtype != b.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if a.device != b.device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: ' + str(indexing))
    swap = indexing == "xy" and len(tensors) >= 2
    order = list(tensors)
    if swap:
        order[0], order[1] = order[1], order[0]
    for t in order:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a {}-D "
                               "tensor".format(t.dim()))
    shape = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view = [1] * len(order)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


# the C++ ops torch.unique and torch.unique_consecutive hand over to, parsed as torch parses them
_UNIQUE_SIGNATURES = {
    "_unique2": "_unique2(Tensor input, bool sorted=True, bool return_inverse=False, bool return_counts=False)",
    "unique_dim": "unique_dim(Tensor input, int64_t dim, bool sorted=True, bool return_inverse=False, "
                  "bool return_counts=False)",
    "unique_consecutive": "unique_consecutive(Tensor input, bool return_inverse=False, bool return_counts=False, "
                          "int64_t? dim=None)",
}

_UNIQUE_NODES = {"_unique2": "Unique2Backward0", "unique_dim": "UniqueDimBackward0",
                 "unique_consecutive": "UniqueConsecutiveBackward0"}


def _unique_impl(op, input, consecutive, return_inverse, return_counts, dim):
    """(values, inverse, counts) of input's unique elements (dim None) or slices along dim, sorted
    (unique) or one per run of equal neighbours (unique_consecutive). Equal means ==, so each NaN stands
    alone, as in torch."""
    device = input.device
    if device.type == "meta":
        _C._no_meta_kernel("aten::" + op)  # the count of unique elements is data
    with minitorch.no_grad():
        if dim is None:
            rows = input.reshape(-1, 1)
        else:
            if input.dim() == 0:
                raise IndexError("Dimension specified as {} but tensor has no dimensions".format(dim))
            dim = _wrap(dim, input.dim())
            if input.shape[dim] != 0 and input.numel() == 0:
                raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be "
                                   "applied")
            moved = input.movedim(dim, 0)
            width = 1
            for size in moved.shape[1:]:
                width *= size
            rows = moved.reshape(moved.shape[0], width)
        n = rows.shape[0]
        order = minitorch.arange(n, device=device)
        if not consecutive:
            # lexicographic order of the rows: a stable sort by each column, the last column first
            for col in reversed(range(rows.shape[1])):
                order = order[rows[order, col].sort(stable=True).indices]
        ordered = rows[order]
        starts = minitorch.ones(n, dtype=minitorch.bool, device=device)
        if n > 1:
            starts[1:] = (ordered[1:] != ordered[:-1]).any(1)
        picked = ordered[starts]
        if dim is None:
            values = picked.reshape(-1)
        else:
            values = picked.reshape((picked.shape[0],) + tuple(moved.shape[1:])).movedim(0, dim)
        inverse = minitorch.empty(n, dtype=minitorch.int64, device=device)
        inverse[order] = starts.cumsum(0) - 1
        if dim is None:
            inverse = inverse.reshape(input.shape)
        firsts = starts.nonzero().reshape(-1)
        ends = minitorch.cat([firsts[1:], minitorch.full((1,), n, device=device)]) if n else firsts
        counts = ends - firsts
    if input.requires_grad and minitorch.is_grad_enabled():
        computed = values
        values = _NoDerivative.apply(_UNIQUE_NODES[op], op, lambda: computed, input)
    return values, inverse, counts


def _unique_result(values, inverse, counts, return_inverse, return_counts):
    if return_inverse and return_counts:
        return values, inverse, counts
    if return_inverse:
        return values, inverse
    if return_counts:
        return values, counts
    return values


def _dispatch_flag(args, kwargs, name, index):
    """The truth of a flag as torch's boolean_dispatch reads it before the call is parsed: by keyword, else
    by position, else False (so a tensor there raises bool()'s error first, as in torch)."""
    if name in kwargs:
        return bool(kwargs[name])
    return bool(args[index]) if index < len(args) else False


def unique(*args, **kwargs):
    """unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None): the unique
    elements of input (or its unique slices along dim), sorted, with optionally the index of each
    element's value among them (return_inverse) and how often each occurs (return_counts). (torch's CPU
    unique sorts whatever `sorted` says, and so does minitorch.)"""
    _dispatch_flag(args, kwargs, "return_inverse", 2)
    _dispatch_flag(args, kwargs, "return_counts", 3)
    return _unique(*args, **kwargs)


def _unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    flags = {"sorted": sorted, "return_inverse": return_inverse, "return_counts": return_counts}
    if dim is None:
        op, args = "_unique2", (input,)
    else:
        op, args = "unique_dim", (input, dim)
    v = _C._parse_args([_UNIQUE_SIGNATURES[op]], args, flags)[1]
    return _unique_result(*_unique_impl(op, v["input"], False, v["return_inverse"], v["return_counts"], v.get("dim")),
                          return_inverse, return_counts)


def unique_consecutive(*args, **kwargs):
    """unique_consecutive(input, return_inverse=False, return_counts=False, dim=None): one element (or
    slice along dim) per run of equal neighbours, with optionally each element's run (return_inverse)
    and the runs' lengths (return_counts)."""
    _dispatch_flag(args, kwargs, "return_inverse", 1)
    _dispatch_flag(args, kwargs, "return_counts", 2)
    return _unique_consecutive(*args, **kwargs)


def _unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    v = _C._parse_args([_UNIQUE_SIGNATURES["unique_consecutive"]], (input,),
                       {"return_inverse": return_inverse, "return_counts": return_counts, "dim": dim})[1]
    return _unique_result(*_unique_impl("unique_consecutive", v["input"], True, v["return_inverse"],
                                        v["return_counts"], v["dim"]), return_inverse, return_counts)


def _wrap(dim, ndim):
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range (expected to be in range of [{}, {}], but got {})".format(
            -ndim, ndim - 1, dim))
    return dim % ndim


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The p-norm of input over dim (or all elements), as torch.norm: "fro" and numbers are
    ``linalg.vector_norm``; "nuc" (and "fro" over more than two dims) is ``linalg.matrix_norm``."""
    if input.layout != minitorch.strided:  # torch's first step (so a non-tensor gets its AttributeError)
        raise NotImplementedError("norm(): only strided tensors exist in minitorch")
    # out= goes on to the linalg function, as torch's does (so its rule and messages are that function's)
    out = {} if out is None else {"out": out}
    if dim is not None:
        _dim = [dim] if isinstance(dim, int) else dim
    else:
        _dim = None
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return minitorch.linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype, **out)
        # "nuc", or a string matrix_norm refuses with torch's message, over all dims when none are given
        if _dim is None:
            _dim = list(range(input.dim()))
        return minitorch.linalg.matrix_norm(input, p, _dim, keepdim, dtype=dtype, **out)
    _p = 2.0 if p is None else p
    return minitorch.linalg.vector_norm(input, _p, _dim, keepdim, dtype=dtype, **out)


def split(tensor, split_size_or_sections, dim=0):
    """tensor's views of split_size_or_sections entries each along dim (the last one shorter when the size
    does not divide), or of the listed sizes: Tensor.split, which picks split or split_with_sizes."""
    return tensor.split(split_size_or_sections, dim)


def unravel_index(indices, shape):
    """The coordinates in a tensor of the given shape of each flat (row-major) index in indices: one integer
    tensor per dim of shape, each of indices' shape."""
    if indices.is_complex() or indices.is_floating_point() or indices.dtype == minitorch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (int, collections.abc.Sequence)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if isinstance(shape, int):
        shape = minitorch.Size([shape])
    else:
        for size in shape:
            if not isinstance(size, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(size)}")
        shape = minitorch.Size(shape)
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    # the flat step of each dim: the product of the sizes after it
    steps = [1]
    for size in reversed(shape[1:]):
        steps.insert(0, steps[0] * size)
    steps = minitorch.tensor(steps, device=indices.device, dtype=minitorch.int64)
    sizes = minitorch.tensor(shape, device=indices.device, dtype=minitorch.int64)
    return (indices.unsqueeze(-1).floor_divide(steps) % sizes).unbind(-1)


# torch.functional's products and distances, written in minitorch/_products.py (with cross),
# _matrix_products.py and _norms.py, and atleast_*d (minitorch/_rearrange.py): exposed here as torch does
from minitorch._products import block_diag, cartesian_prod, einsum, tensordot  # noqa: E402
from minitorch._matrix_products import chain_matmul  # noqa: E402
from minitorch._norms import cdist  # noqa: E402
from minitorch._rearrange import atleast_1d, atleast_2d, atleast_3d  # noqa: E402
# stft and istft (minitorch/_spectral.py), svd_lowrank and pca_lowrank (minitorch/_lowrank.py)
from minitorch._spectral import istft, stft  # noqa: E402
from minitorch._lowrank import pca_lowrank, svd_lowrank  # noqa: E402

__all__ += ["einsum", "tensordot", "cartesian_prod", "block_diag", "chain_matmul", "cdist", "atleast_1d",
            "atleast_2d", "atleast_3d", "stft", "istft", "pca_lowrank", "svd_lowrank"]

# torch.lu, written with the rest of the LU family in minitorch/_lu.py
from minitorch._lu import torch_lu as lu  # noqa: E402

__all__ += ["lu"]
