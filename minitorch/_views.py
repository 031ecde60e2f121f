"""View and scatter ops that torch writes from others, on minitorch's ops so that strides, nodes, checks
and messages are torch's: the matrix transposes mT / mH / H (TransposeBackward0), tensor_split and
hsplit / vsplit / dsplit (SliceBackward0 views), diagflat (DiagEmbedBackward0 of a flat view), msort
(SortBackward0), sum_to_size (SumBackward1 and a view), fill_diagonal_ (a fill through an as_strided view:
CopySlices), is_nonzero, is_floating_point, is_complex; and diag_embed, narrow_copy, slice_scatter,
select_scatter and diagonal_scatter, which torch implements natively, with its results, strides and nodes
(DiagEmbedBackward0, NarrowCopyBackward0, SliceScatterBackward0, SelectScatterBackward0,
DiagonalScatterBackward0). Arguments are parsed with torch's signatures (_C._parse_args). install() puts
the methods and properties on Tensor."""

import warnings

import minitorch
from minitorch._composite import _scalar_type_name, _wrap_dim as _wrap, parse, parse_method, with_out
from minitorch.autograd.function import Function, _apply

__all__ = ["tensor_split", "hsplit", "vsplit", "dsplit", "diag_embed", "diagflat", "narrow_copy", "msort",
           "is_nonzero", "is_floating_point", "is_complex", "slice_scatter", "select_scatter", "diagonal_scatter"]

_TENSOR_SPLIT = ["tensor_split(Tensor input, SymIntArrayRef indices, int64_t dim=0)",
                 "tensor_split(Tensor input, Tensor tensor_indices_or_sections, int64_t dim=0)",
                 "tensor_split(Tensor input, SymInt sections, int64_t dim=0)"]
_FUNCTION_SIGNATURES = {
    "tensor_split": [s + "" for s in _TENSOR_SPLIT],
    "hsplit": ["hsplit(Tensor input, int64_t sections)",
               "hsplit(Tensor input, IntArrayRef indices)"],
    "vsplit": ["vsplit(Tensor input, int64_t sections)",
               "vsplit(Tensor input, IntArrayRef indices)"],
    "dsplit": ["dsplit(Tensor input, int64_t sections)",
               "dsplit(Tensor input, IntArrayRef indices)"],
    "diag_embed": ["diag_embed(Tensor input, int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)"],
    "diagflat": ["diagflat(Tensor input, int64_t offset=0)"],
    "narrow_copy": ["narrow_copy(Tensor input, int64_t dim, SymInt start, SymInt length, *, Tensor out=None)"],
    "msort": ["msort(Tensor input, *, Tensor out=None)"],
    "is_nonzero": ["is_nonzero(Tensor input) -> bool"],
    "is_floating_point": ["is_floating_point(Tensor input) -> bool"],
    "is_complex": ["is_complex(Tensor input) -> bool"],
    "slice_scatter": ["slice_scatter(Tensor input, Tensor src, int64_t dim=0, SymInt? start=None, SymInt? end=None, "
                      "SymInt step=1, *, Tensor out=None)"],
    "select_scatter": ["select_scatter(Tensor input, Tensor src, int64_t dim, SymInt index)"],
    "diagonal_scatter": ["diagonal_scatter(Tensor input, Tensor src, int64_t offset=0, int64_t dim1=0, "
                         "int64_t dim2=1)"],
}
_METHOD_SIGNATURES = {
    "tensor_split": [s.replace("Tensor input, ", "") for s in _FUNCTION_SIGNATURES["tensor_split"]],
    "hsplit": [s.replace("Tensor input, ", "") for s in _FUNCTION_SIGNATURES["hsplit"]],
    "vsplit": [s.replace("Tensor input, ", "") for s in _FUNCTION_SIGNATURES["vsplit"]],
    "dsplit": [s.replace("Tensor input, ", "") for s in _FUNCTION_SIGNATURES["dsplit"]],
    "diag_embed": ["diag_embed(int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)"],
    "diagflat": ["diagflat(int64_t offset=0)"],
    "narrow_copy": ["narrow_copy(int64_t dim, SymInt start, SymInt length)"],
    "msort": ["msort()"],
    "is_nonzero": ["is_nonzero() -> bool"],
    "is_complex": ["is_complex() -> bool"],
    "slice_scatter": ["slice_scatter(Tensor src, int64_t dim=0, SymInt? start=None, SymInt? end=None, "
                      "SymInt step=1)"],
    "select_scatter": ["select_scatter(Tensor src, int64_t dim, SymInt index)"],
    "diagonal_scatter": ["diagonal_scatter(Tensor src, int64_t offset=0, int64_t dim1=0, int64_t dim2=1)"],
    "sum_to_size": ["sum_to_size(SymIntArrayRef size)"],
    "fill_diagonal_": ["fill_diagonal_(Scalar fill_value, bool wrap=False)"],
}


def _parse(name, args, kwargs):
    return parse(_FUNCTION_SIGNATURES[name], args, kwargs)


def _parse_method(name, self, args, kwargs):
    return parse_method(_METHOD_SIGNATURES[name], self, args, kwargs)


def _slice(t, dim, start, end, step=1):
    """at::slice on a wrapped dim: start and end clamped as Python's slices are (None: the ends), as a
    narrow view (SliceBackward0) when the step is 1."""
    size = t.shape[dim]
    start = 0 if start is None else start
    end = size if end is None else end
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, start), size)
    if step == 1:
        return t.narrow(dim, start, end - start)
    return t[(slice(None),) * dim + (slice(start, end, step),)]


# ---- mT, mH, H ---------------------------------------------------------------------------------------------

def _mT(self):
    if self.dim() == 0:
        return self
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.".format(
            self.dim()))
    return self.transpose(-2, -1)


def _mH(self):
    if self.dim() == 0:
        warnings.warn("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
        return self
    if self.dim() < 2:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got {}-D tensor.".format(
            self.dim()))
    return self.transpose(-2, -1)


def _H(self):
    if self.dim() == 0:
        return self
    if self.dim() != 2:
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.{}".format(
            self.dim(), " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""))
    return self.transpose(0, 1)


# ---- tensor_split, hsplit, vsplit, dsplit ------------------------------------------------------------------

def _tensor_split(input, index, v):
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if index == 1:
        t = v["tensor_indices_or_sections"]
        if t.device.type != "cpu":
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be on cpu, but it's on "
                               + str(t.device))
        if t.dtype != minitorch.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               + _scalar_type_name(t.dtype))
        if t.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               "one-dimensional tensor, but got a tensor with {} dims".format(t.dim()))
        if t.dim() == 0:
            return _split_sections(input, int(t.item()), v["dim"])
        return _split_indices(input, t.tolist(), v["dim"])
    if index == 2:
        return _split_sections(input, v["sections"], v["dim"])
    return _split_indices(input, v["indices"], v["dim"])


def _split_sections(input, sections, dim):
    dim = _wrap(dim, input.dim())
    if sections <= 0:
        raise RuntimeError("number of sections must be larger than 0, got {}".format(sections))
    # ATen first makes a std::vector of `sections` tensors
    if sections > 2 ** 60:
        raise RuntimeError("cannot create std::vector larger than max_size()")
    if sections > 2 ** 40:
        raise RuntimeError("std::bad_alloc")
    size = input.shape[dim]
    base, extra = divmod(size, sections)
    parts, start = [], 0
    for i in range(sections):
        n = base + 1 if i < extra else base
        parts.append(_slice(input, dim, start, start + n))
        start += n
    return tuple(parts)


def _split_indices(input, indices, dim):
    dim = _wrap(dim, input.dim())
    parts, start = [], 0
    for end in indices:
        parts.append(_slice(input, dim, start, end))
        start = end
    parts.append(_slice(input, dim, start, input.shape[dim]))
    return tuple(parts)


def tensor_split(*args, **kwargs):
    """Views of input along dim: `sections` parts of nearly equal size (the first size % sections one
    longer), or the parts between the given indices (a list, or a CPU int64 tensor: 0-d for sections)."""
    index, v = _parse("tensor_split", args, kwargs)
    return _tensor_split(v["input"], index, v)


def _hvdsplit(name, input, index, v):
    need, dim = {"hsplit": (1, None), "vsplit": (2, 0), "dsplit": (3, 2)}[name]
    if input.dim() < need:
        raise RuntimeError("torch.{} requires a tensor with at least {} dimension{}, but got a tensor with {} "
                           "dimensions!".format(name, need, "" if name == "hsplit" else "", input.dim()))
    if dim is None:
        dim = 0 if input.dim() == 1 else 1
    if index == 1:
        for i in v["indices"]:
            if i < -2 ** 62:
                raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: {}".format(i))
        return _split_indices(input, v["indices"], dim)
    sections = v["sections"]
    if sections == 0 or input.shape[dim] % sections != 0:
        raise RuntimeError("torch.{} attempted to split along dimension {}, but the size of the dimension {} is not "
                           "divisible by the split_size {}!".format(name, dim, input.shape[dim], sections))
    return _split_sections(input, sections, dim)


def hsplit(*args, **kwargs):
    """tensor_split along dim 1 (dim 0 of a 1-D tensor); a number of sections must divide the size."""
    index, v = _parse("hsplit", args, kwargs)
    return _hvdsplit("hsplit", v["input"], index, v)


def vsplit(*args, **kwargs):
    """tensor_split along dim 0 of a tensor of at least 2 dims; a number of sections must divide the size."""
    index, v = _parse("vsplit", args, kwargs)
    return _hvdsplit("vsplit", v["input"], index, v)


def dsplit(*args, **kwargs):
    """tensor_split along dim 2 of a tensor of at least 3 dims; a number of sections must divide the size."""
    index, v = _parse("dsplit", args, kwargs)
    return _hvdsplit("dsplit", v["input"], index, v)


# ---- diag_embed, diagflat ------------------------------------------------------------------------------------

class _DiagEmbed(Function):
    @staticmethod
    def forward(ctx, input, offset, dim1, dim2):
        ctx.args = (offset, dim1, dim2)
        shape = list(input.shape[:-1])
        n = abs(offset) + input.shape[-1]
        shape.insert(min(dim1, dim2), n)
        shape.insert(max(dim1, dim2), n)
        result = minitorch.zeros(shape, dtype=input.dtype, device=input.device)
        result.diagonal(offset, dim1, dim2).copy_(input)
        return result

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: grad.diagonal(offset, dim1, dim2)
        return grad.diagonal(*ctx.args), None, None, None


def _diag_embed(input, offset, dim1, dim2):
    n = input.dim() + 1
    d1, d2 = _wrap(dim1, n), _wrap(dim2, n)
    if d1 == d2:
        raise RuntimeError("diagonal dimensions cannot be identical {}, {}".format(dim1, dim2))
    if input.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    # ATen's int64 arithmetic: the new size wraps, then zeros() checks it as a SymInt and its strides
    n = (abs(offset) + input.shape[-1] + 2 ** 63) % 2 ** 64 - 2 ** 63
    if n < -2 ** 62:
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: {}".format(n))
    stride = 1
    for size in list(input.shape[:-1]) + [n, n]:
        stride *= max(size, 1)
        if stride >= 2 ** 63:
            raise RuntimeError("Stride calculation overflowed")
    return _apply(_DiagEmbed, "DiagEmbedBackward0", None, (input, offset, d1, d2), {})


def diag_embed(*args, **kwargs):
    """Tensors whose diagonal (offset, in dims dim1 and dim2 of the result) holds input's last dim."""
    _, v = _parse("diag_embed", args, kwargs)
    return _diag_embed(v["input"], v["offset"], v["dim1"], v["dim2"])


def diagflat(*args, **kwargs):
    """The square matrix with input's elements (flattened) on its offset-th diagonal."""
    _, v = _parse("diagflat", args, kwargs)
    return v["input"].contiguous().view(-1).diag(v["offset"])


# ---- narrow_copy -----------------------------------------------------------------------------------------------

class _NarrowCopy(Function):
    @staticmethod
    def forward(ctx, input, dim, start, length):
        ctx.args = (input.shape, input.dtype, input.device, dim, start, length)
        return input.narrow(dim, start, length).clone(memory_format=minitorch.contiguous_format)

    @staticmethod
    def backward(ctx, grad):
        shape, dtype, device, dim, start, length = ctx.args
        # derivatives.yaml: slice_backward(grad, sizes, dim, start, start + length, 1)
        result = minitorch.zeros(shape, dtype=grad.dtype, device=grad.device)
        result.narrow(dim, start, length).copy_(grad)
        return result, None, None, None


def _narrow_copy(input, dim, start, length):
    # ATen's narrow_copy_dense_cpu_out, its checks in its order
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim < 0:
        dim = _wrap(dim, input.dim())
    elif dim >= input.dim():
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an enhancement request "
                           "to PyTorch.)")
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError("start out of range (expected to be in range of [{}, {}], but got {})".format(
            -size, size, start))
    if start < 0:
        start += size
    if length < 0 or start > size - length:
        raise RuntimeError("start ({}) + length ({}) exceeds dimension size ({}).".format(start, length, size))
    return _apply(_NarrowCopy, "NarrowCopyBackward0", None, (input, dim, start, length), {})


def narrow_copy(*args, **kwargs):
    """A contiguous copy of input.narrow(dim, start, length)."""
    _, v = _parse("narrow_copy", args, kwargs)
    return with_out("narrow_copy", v["out"],
                    lambda: _narrow_copy(v["input"], v["dim"], v["start"], v["length"]))


# ---- msort, sum_to_size, fill_diagonal_ ---------------------------------------------------------------------------

def msort(*args, **kwargs):
    """input sorted along dim 0 in ascending order (the values of sort(input, 0))."""
    _, v = _parse("msort", args, kwargs)
    return with_out("msort", v["out"], lambda: v["input"].sort(0)[0])


def _sum_to_size(self, size):
    # torch's is_expandable_to, then at::sum_to: leading dims and the dims that become 1 summed (keepdim)
    size = list(size)
    shape = list(self.shape)
    ok = len(size) <= len(shape) and all(
        s == d or s == 1 for s, d in zip(reversed(size), reversed(shape)))
    if not ok:
        raise RuntimeError("size {{{}}} is not expandable to size {{{}}}.".format(size, shape).replace(",]", "]"))
    if not size:
        return self.sum()
    lead = len(shape) - len(size)
    dims = list(range(lead)) + [i for i in range(lead, len(shape)) if size[i - lead] == 1 and shape[i] != 1]
    result = self.sum(dims, keepdim=True) if dims else self
    return result.view(size) if lead > 0 else result


def _fill_diagonal_(self, fill_value, wrap):
    # ATen's fill_diagonal_: fills through as_strided views of self (CopySlices when self is in a graph)
    n = self.dim()
    if n < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if n > 2 and any(self.shape[i] != height for i in range(1, n)):
        raise RuntimeError("all dimensions of input must be of equal length")
    stride = sum(self.stride())
    size = min(height, width)
    self.as_strided((size,), (stride,), self.storage_offset()).fill_(fill_value)
    if wrap and n == 2 and height > width + 1:
        step = width + 1
        wrap_size = (self.numel() + step - 1) // step - size
        self.as_strided((wrap_size,), (stride,), self.storage_offset() + self.stride(0) * (width + 1)).fill_(fill_value)
    return self


# ---- is_nonzero, is_floating_point, is_complex ------------------------------------------------------------------

def _is_nonzero(input):
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item() != 0)


def is_nonzero(*args, **kwargs):
    """Whether the one element of input is not zero (NaN is); torch's errors for no or several elements."""
    _, v = _parse("is_nonzero", args, kwargs)
    return _is_nonzero(v["input"])


def is_floating_point(*args, **kwargs):
    """Whether input's dtype is a floating point dtype."""
    _, v = _parse("is_floating_point", args, kwargs)
    return v["input"].is_floating_point()


def is_complex(*args, **kwargs):
    """Whether input's dtype is a complex dtype (minitorch has none: False)."""
    _parse("is_complex", args, kwargs)
    return False


# ---- slice_scatter, select_scatter, diagonal_scatter -------------------------------------------------------------

def _clone_preserve_strides(t):
    """torch's clone_preserve_strides: a copy with t's strides and storage offset (a plain clone when t
    overlaps itself)."""
    if any(st == 0 and sz > 1 for st, sz in zip(t.stride(), t.shape)):
        return t.clone()
    span = t.storage_offset() + (1 + sum((sz - 1) * st for sz, st in zip(t.shape, t.stride())) if t.numel() else 0)
    copy = t.as_strided((span,), (1,), 0).clone()
    return copy.as_strided_(t.shape, t.stride(), t.storage_offset())


def _part(kind, t, args):
    if kind == "slice":
        dim, start, end, step = args
        return _slice(t, dim, start, end, step)
    if kind == "select":
        return t.select(*args)
    return t.diagonal(*args)


class _Scatter(Function):
    @staticmethod
    def forward(ctx, input, src, kind, args):
        ctx.kind, ctx.args = kind, args
        output = _clone_preserve_strides(input)
        part = _part(kind, output, args)
        if part.shape != src.shape:
            raise RuntimeError("expected src to have a size equal to the slice of self. src size = {}, slice size = "
                               "{}".format(list(src.shape), list(part.shape)))
        part.copy_(src)
        return output

    @staticmethod
    def backward(ctx, grad):
        # derivatives.yaml: self: <op>_scatter(grad, zeros_like(src), ...); src: grad.<op>(...)
        grad_self = grad_src = None
        if ctx.needs_input_grad[0]:
            grad_self = _scatter(ctx.kind, grad, minitorch.zeros_like(_part(ctx.kind, grad, ctx.args)), ctx.args)
        if ctx.needs_input_grad[1]:
            grad_src = _part(ctx.kind, grad, ctx.args)
        return grad_self, grad_src, None, None


_SCATTER_NODES = {"slice": "SliceScatterBackward0", "select": "SelectScatterBackward0",
                  "diagonal": "DiagonalScatterBackward0"}


def _scatter(kind, input, src, args):
    if kind == "slice":
        dim, start, end, step = args
        if input.dim() == 0:
            raise IndexError("Dimension specified as {} but tensor has no dimensions".format(dim))
        dim = _wrap(dim, input.dim())
        if step <= 0:
            raise RuntimeError("slice step must be positive")
        args = (dim, start, end, step)
    return _apply(_Scatter, _SCATTER_NODES[kind], None, (input, src, kind, args), {})


def slice_scatter(*args, **kwargs):
    """A copy of input with src written into input[start:end:step] along dim (strides kept)."""
    _, v = _parse("slice_scatter", args, kwargs)
    return with_out("slice_scatter", v["out"], lambda: _scatter(
        "slice", v["input"], v["src"], (v["dim"], v["start"], v["end"], v["step"])))


def select_scatter(*args, **kwargs):
    """A copy of input with src written into input.select(dim, index) (strides kept)."""
    _, v = _parse("select_scatter", args, kwargs)
    return _scatter("select", v["input"], v["src"], (v["dim"], v["index"]))


def diagonal_scatter(*args, **kwargs):
    """A copy of input with src written into input.diagonal(offset, dim1, dim2) (strides kept)."""
    _, v = _parse("diagonal_scatter", args, kwargs)
    return _scatter("diagonal", v["input"], v["src"], (v["offset"], v["dim1"], v["dim2"]))


# ---- methods ----------------------------------------------------------------------------------------------------

def _method(name, body):
    def method(self, *args, **kwargs):
        index, v = _parse_method(name, self, args, kwargs)
        return body(self, index, v)
    method.__name__ = name
    method.__doc__ = globals()[name].__doc__ if name in globals() else None
    return method


_METHODS = {
    "tensor_split": lambda self, i, v: _tensor_split(self, i, v),
    "hsplit": lambda self, i, v: _hvdsplit("hsplit", self, i, v),
    "vsplit": lambda self, i, v: _hvdsplit("vsplit", self, i, v),
    "dsplit": lambda self, i, v: _hvdsplit("dsplit", self, i, v),
    "diag_embed": lambda self, i, v: _diag_embed(self, v["offset"], v["dim1"], v["dim2"]),
    "diagflat": lambda self, i, v: self.contiguous().view(-1).diag(v["offset"]),
    "narrow_copy": lambda self, i, v: _narrow_copy(self, v["dim"], v["start"], v["length"]),
    "msort": lambda self, i, v: self.sort(0)[0],
    "is_nonzero": lambda self, i, v: _is_nonzero(self),
    "is_complex": lambda self, i, v: False,
    "slice_scatter": lambda self, i, v: _scatter("slice", self, v["src"], (v["dim"], v["start"], v["end"], v["step"])),
    "select_scatter": lambda self, i, v: _scatter("select", self, v["src"], (v["dim"], v["index"])),
    "diagonal_scatter": lambda self, i, v: _scatter("diagonal", self, v["src"], (v["offset"], v["dim1"], v["dim2"])),
    "sum_to_size": lambda self, i, v: _sum_to_size(self, v["size"]),
    "fill_diagonal_": lambda self, i, v: _fill_diagonal_(self, v["fill_value"], v["wrap"]),
}

_DOCS = {
    "sum_to_size": "self summed to the given size, which must broadcast to self's (self itself when it is it).",
    "fill_diagonal_": "Writes fill_value on the main diagonal (of a 2-D or all-equal-dims tensor), in place; "
                      "wrap=True starts again every width + 1 rows of a tall matrix.",
}


def install(tensor_type):
    """Puts the methods and the mT, mH and H properties on the Tensor type (minitorch/__init__.py imports
    the functions)."""
    for name, body in _METHODS.items():
        method = _method(name, body)
        if method.__doc__ is None:
            method.__doc__ = _DOCS[name]
        setattr(tensor_type, name, method)
    tensor_type.mT = property(_mT, doc="self.transpose(-2, -1): the transposed matrices (at least 2 dims).")
    tensor_type.mH = property(_mH, doc="The conjugate transposed matrices: mT for a real dtype.")
    tensor_type.H = property(_H, doc="The conjugate transpose of a matrix: T of a real 2-D tensor.")
