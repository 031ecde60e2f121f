"""Shape and arrangement ops that torch composes from others (CompositeImplicitAutograd in its
native_functions.yaml), written the same way on minitorch's ops so that the nodes, strides, checks and
messages are torch's: fliplr / flipud (FlipBackward0), ravel, atleast_1d / atleast_2d / atleast_3d,
column_stack / row_stack / dstack (CatBackward0), take_along_dim (GatherBackward0), diff
(SubBackward0 of two narrows); and rot90 (Rot90Backward0) and tril_indices / triu_indices, which torch
implements natively, with torch's node and results. Arguments are parsed with torch's signatures
(_C._parse_args). install() puts the methods on Tensor."""

import minitorch
from minitorch import _C
from minitorch._composite import _wrap_dim as _wrap, parse, parse_method, with_out
from minitorch.autograd.function import Function, _apply

__all__ = ["fliplr", "flipud", "rot90", "ravel", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack",
           "row_stack", "dstack", "take_along_dim", "diff", "tril_indices", "triu_indices"]

_FUNCTION_SIGNATURES = {
    "fliplr": ["fliplr(Tensor input)"],
    "flipud": ["flipud(Tensor input)"],
    "rot90": ["rot90(Tensor input, int64_t k=1, IntArrayRef dims={0,1})"],
    "ravel": ["ravel(Tensor input)"],
    "atleast_1d": ["atleast_1d(Tensor input)", "atleast_1d(TensorList tensors)"],
    "atleast_2d": ["atleast_2d(Tensor input)", "atleast_2d(TensorList tensors)"],
    "atleast_3d": ["atleast_3d(Tensor input)", "atleast_3d(TensorList tensors)"],
    "column_stack": ["column_stack(TensorList tensors, *, Tensor out=None)"],
    "row_stack": ["row_stack(TensorList tensors, *, Tensor out=None)"],
    "dstack": ["dstack(TensorList tensors, *, Tensor out=None)"],
    "take_along_dim": ["take_along_dim(Tensor input, Tensor indices, int64_t? dim=None, *, Tensor out=None)"],
    "diff": ["diff(Tensor input, int64_t n=1, int64_t dim=-1, Tensor? prepend=None, Tensor? append=None, *, "
             "Tensor out=None)"],
    "tril_indices": ["tril_indices(int64_t row, int64_t col, int64_t offset=0, *, ScalarType? dtype=None, "
                     "Layout? layout=None, Device? device=None, bool? pin_memory=False)"],
    "triu_indices": ["triu_indices(int64_t row, int64_t col, int64_t offset=0, *, ScalarType? dtype=None, "
                     "Layout? layout=None, Device? device=None, bool? pin_memory=False)"],
}
_METHOD_SIGNATURES = {
    "fliplr": ["fliplr()"],
    "flipud": ["flipud()"],
    "rot90": ["rot90(int64_t k=1, IntArrayRef dims={0,1})"],
    "ravel": ["ravel()"],
    "take_along_dim": ["take_along_dim(Tensor indices, int64_t? dim=None)"],
    "diff": ["diff(int64_t n=1, int64_t dim=-1, Tensor? prepend=None, Tensor? append=None)"],
}


def _parse(name, args, kwargs):
    return parse(_FUNCTION_SIGNATURES[name], args, kwargs)


def _parse_method(name, self, args, kwargs):
    return parse_method(_METHOD_SIGNATURES[name], self, args, kwargs)


# ---- flips and rotations ----------------------------------------------------------------------------------

def _fliplr(input):
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def _flipud(input):
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip(0)


def _rot90_checks(input, k, dims):
    if len(dims) != 2:
        raise RuntimeError("expected total rotation dims == 2, but got dims = {}".format(len(dims)))
    if input.dim() < 2:
        raise RuntimeError("expected total dims >= 2, but got total dims = {}".format(input.dim()))
    d0, d1 = _wrap(dims[0], input.dim()), _wrap(dims[1], input.dim())
    if d0 == d1:
        raise RuntimeError("expected rotation dims to be different, but got dim0 = {} and dim1 = {}".format(
            dims[0], dims[1]))
    return (4 + k % 4) % 4, dims


def _rot90_values(input, k, dims):
    # ATen's rot90: a flip and a transposed view of it, or a flip of both dims, or a contiguous clone
    if k == 1:
        return input.flip(dims[1]).transpose_(dims[0], dims[1])
    if k == 2:
        return input.flip(dims)
    if k == 3:
        return input.flip(dims[0]).transpose_(dims[0], dims[1])
    return input.clone(memory_format=minitorch.contiguous_format)


class _Rot90(Function):
    @staticmethod
    def forward(ctx, input, k, dims):
        ctx.k, ctx.dims = k, dims
        return _rot90_values(input, k, dims)

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: grad.rot90(-k, dims)
        return _rot90(grad, -ctx.k, ctx.dims), None, None


def _rot90(input, k, dims):
    k, dims = _rot90_checks(input, k, list(dims))
    return _apply(_Rot90, "Rot90Backward0", None, (input, k, dims), {})


def fliplr(*args, **kwargs):
    """input.flip(1): the columns in reverse order (input must be at least 2-D)."""
    _, v = _parse("fliplr", args, kwargs)
    return _fliplr(v["input"])


def flipud(*args, **kwargs):
    """input.flip(0): the rows in reverse order (input must be at least 1-D)."""
    _, v = _parse("flipud", args, kwargs)
    return _flipud(v["input"])


def rot90(*args, **kwargs):
    """input rotated by k quarter turns in the plane of dims, from the first dim towards the second."""
    _, v = _parse("rot90", args, kwargs)
    return _rot90(v["input"], v["k"], v["dims"])


# ---- ravel, atleast_nd ----------------------------------------------------------------------------------

def ravel(*args, **kwargs):
    """input.contiguous().view(-1): a 1-D view when input is contiguous, else of a contiguous copy."""
    _, v = _parse("ravel", args, kwargs)
    return v["input"].contiguous().view(-1)


def _atleast(n, t):
    d = t.dim()
    if d >= n:
        return t
    if d == 0:
        return t.reshape((1,) * n)
    if n == 2 or d == 2:
        return t.unsqueeze(0) if n == 2 else t.unsqueeze(-1)
    return t.unsqueeze(0).unsqueeze(-1)


def _atleast_nd(n, name, tensors):
    # torch.atleast_*d(*tensors): one tensor gives a tensor, several (or a sequence) a tuple
    if len(tensors) == 1:
        tensors = tensors[0]
    index, v = parse(_FUNCTION_SIGNATURES[name], (tensors,), {})
    if index == 0:
        return _atleast(n, v["input"])
    return tuple(_atleast(n, t) for t in v["tensors"])


def atleast_1d(*tensors):
    """Each tensor with at least 1 dim (a 0-d one reshaped to (1,)); a tuple for several."""
    return _atleast_nd(1, "atleast_1d", tensors)


def atleast_2d(*tensors):
    """Each tensor with at least 2 dims (a 1-D one as a row); a tuple for several."""
    return _atleast_nd(2, "atleast_2d", tensors)


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims (a 1-D one as (1, n, 1), a 2-D one with a trailing 1); a tuple for
    several."""
    return _atleast_nd(3, "atleast_3d", tensors)


# ---- column_stack, row_stack, dstack -----------------------------------------------------------------------

def column_stack(*args, **kwargs):
    """The tensors as columns side by side: 0-D and 1-D ones become (n, 1) columns, then hstack."""
    _, v = _parse("column_stack", args, kwargs)
    tensors = v["tensors"]
    if len(tensors) == 0:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    columns = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors]
    return minitorch.hstack(columns, **({} if v["out"] is None else {"out": v["out"]}))


def row_stack(*args, **kwargs):
    """Alias of vstack()."""
    _, v = _parse("row_stack", args, kwargs)
    return minitorch.vstack(v["tensors"], **({} if v["out"] is None else {"out": v["out"]}))


def dstack(*args, **kwargs):
    """The tensors joined along a third dim, each made at least 3-D first (atleast_3d)."""
    _, v = _parse("dstack", args, kwargs)
    tensors = v["tensors"]
    if len(tensors) == 0:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return minitorch.cat([_atleast(3, t) for t in tensors], 2,
                         **({} if v["out"] is None else {"out": v["out"]}))


# ---- take_along_dim -------------------------------------------------------------------------------------

def _check_take_along_dim_devices(input, *others):
    """ATen's checkDevice of take_along_dim's tensors (out too) against input's device, before anything else."""
    for t in others:
        if t is not None and t.device != input.device:
            raise RuntimeError("Expected tensor to have {} Device, but got tensor with {} Device (while checking "
                               "arguments for torch.take_along_dim():)".format(input.device, t.device))


def _take_along_dim(input, indices, dim):
    if dim is None:
        return input.view(-1).gather(0, indices.view(-1))
    if indices.dtype != minitorch.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got {}".format(
            indices.dtype._scalar_name))
    if input.dim() != indices.dim():
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           "but got {} dimensions for input, and {} dimensions for indices".format(
                               input.dim(), indices.dim()))
    d = _wrap(dim, input.dim())
    # _take_along_dim_helper: both broadcast to one shape except along dim
    sizes = list(input.shape)
    sizes[d] = indices.shape[d]
    shape = list(_C._infer_size(sizes, indices.shape))
    indices = indices.broadcast_to(shape)
    shape[d] = input.shape[d]
    return input.broadcast_to(shape).gather(d, indices)


def take_along_dim(*args, **kwargs):
    """input's values at indices along dim (the two broadcast against each other except along dim); without
    dim, indices into the flattened input."""
    _, v = _parse("take_along_dim", args, kwargs)
    _check_take_along_dim_devices(v["input"], v["indices"], v["out"])
    return with_out("take_along_dim", v["out"], lambda: _take_along_dim(v["input"], v["indices"], v["dim"]))


# ---- diff -----------------------------------------------------------------------------------------------------

def _diff(input, n, dim, prepend, append):
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError("order must be non-negative but got {}".format(n))
    for other in (prepend, append):
        if other is None:
            continue
        d = _wrap(dim, input.dim())
        if other.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for i in range(input.dim()):
            if i != d and other.shape[i] != input.shape[i]:
                raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input "
                                   "except along the differencing dimension; input.size({0}) = {1}, but got "
                                   "tensor.size({0}) = {2}".format(i, input.shape[i], other.shape[i]))
    if n == 0 and prepend is None and append is None:
        result = minitorch.zeros_like(input)
        result.copy_(input)
        return result
    d = _wrap(dim, input.dim())
    if prepend is not None or append is not None:
        input = minitorch.cat([t for t in (prepend, input, append) if t is not None], d)
    for _ in range(min(n, input.shape[d])):     # once empty, more rounds change nothing
        length = max(input.shape[d] - 1, 0)
        later, earlier = input.narrow(d, min(1, input.shape[d]), length), input.narrow(d, 0, length)
        input = minitorch.logical_xor(later, earlier) if input.dtype == minitorch.bool else later - earlier
    return input


def diff(*args, **kwargs):
    """The n-th forward difference along dim (input[..., 1:] - input[..., :-1], n times), after prepend and
    append are joined on; for bool tensors, logical_xor."""
    _, v = _parse("diff", args, kwargs)
    return with_out("diff", v["out"], lambda: _diff(v["input"], v["n"], v["dim"], v["prepend"], v["append"]))


# ---- tril_indices, triu_indices -----------------------------------------------------------------------------

_INT64 = 1 << 64


def _wrap64(x):
    """x as C++'s int64_t arithmetic leaves it (wrapping around)."""
    x %= _INT64
    return x - _INT64 if x >= _INT64 // 2 else x


def _tril_size(row, col, offset):
    # ATen's get_tril_size, in int64 arithmetic
    if row == 0 or col == 0:
        return 0
    first = min(col, _wrap64(1 + offset)) if offset > 0 else int(_wrap64(row + offset) > 0)
    last = max(0, min(col, _wrap64(row + offset)))
    rows = max(0, min(row, _wrap64(row + offset)))
    trapezoid = _wrap64(last - first + 1)
    size = _wrap64(_wrap64(first + last) * trapezoid) >> 1
    if rows - trapezoid > 0:
        size = _wrap64(size + _wrap64((rows - trapezoid) * col))
    return size


def _tri_indices(name, v):
    row, col, offset = v["row"], v["col"], v["offset"]
    dtype = v["dtype"] if v["dtype"] is not None else minitorch.int64
    if row < 0:
        raise RuntimeError("row must be non-negative, got{}".format(row))
    if col < 0:
        raise RuntimeError("col must be non-negative, got{}".format(col))
    if name == "tril_indices":
        size = _tril_size(row, col, offset)
    else:
        size = _wrap64(row * col - _tril_size(row, col, _wrap64(offset - 1)))
    # the result is allocated first, as torch's: its size errors (negative, overflowing, out of memory)
    result = minitorch.empty((2, size), dtype=dtype, device=v["device"])
    if dtype not in (minitorch.int32, minitorch.int64):
        raise NotImplementedError('"{}" not implemented for \'{}\''.format(name, dtype._scalar_name))
    if size == 0 or result.device.type == "meta":
        return result
    r = minitorch.arange(row, device=v["device"]).reshape(row, 1)
    # a lower triangle reaches no further than column row + offset - 1 (an upper one this large would not fit)
    c = minitorch.arange(min(col, max(row + offset, 0)) if name == "tril_indices" else col, device=v["device"])
    mask = c <= r + offset if name == "tril_indices" else c >= r + offset
    result.copy_(mask.nonzero().t())
    return result


def tril_indices(*args, **kwargs):
    """The (2, N) coordinates of the lower triangle (on and below diagonal `offset`) of a row x col matrix,
    row by row."""
    _, v = _parse("tril_indices", args, kwargs)
    return _tri_indices("tril_indices", v)


def triu_indices(*args, **kwargs):
    """The (2, N) coordinates of the upper triangle (on and above diagonal `offset`) of a row x col matrix,
    row by row."""
    _, v = _parse("triu_indices", args, kwargs)
    return _tri_indices("triu_indices", v)


# ---- methods --------------------------------------------------------------------------------------------------

def _fliplr_method(self, *args, **kwargs):
    _parse_method("fliplr", self, args, kwargs)
    return _fliplr(self)


def _flipud_method(self, *args, **kwargs):
    _parse_method("flipud", self, args, kwargs)
    return _flipud(self)


def _rot90_method(self, *args, **kwargs):
    _, v = _parse_method("rot90", self, args, kwargs)
    return _rot90(self, v["k"], v["dims"])


def _ravel_method(self, *args, **kwargs):
    _parse_method("ravel", self, args, kwargs)
    return self.contiguous().view(-1)


def _take_along_dim_method(self, *args, **kwargs):
    _, v = _parse_method("take_along_dim", self, args, kwargs)
    _check_take_along_dim_devices(self, v["indices"])
    return _take_along_dim(self, v["indices"], v["dim"])


def _diff_method(self, *args, **kwargs):
    _, v = _parse_method("diff", self, args, kwargs)
    return _diff(self, v["n"], v["dim"], v["prepend"], v["append"])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, method in [("fliplr", _fliplr_method), ("flipud", _flipud_method), ("rot90", _rot90_method),
                         ("ravel", _ravel_method), ("take_along_dim", _take_along_dim_method),
                         ("diff", _diff_method)]:
        method.__name__ = name
        method.__doc__ = globals()[name].__doc__
        setattr(tensor_type, name, method)
