"""The functions torch writes in Python (torch/functional.py): ``norm``.

Each maps its arguments onto the C ops as torch's own does (so results, nodes and messages are
torch's); it computes nothing itself."""

import minitorch

__all__ = ["norm"]


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
