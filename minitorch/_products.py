"""Products of tensors that torch writes outside its element-wise and matmul kernels: cross and
linalg.cross (torch's one node, LinalgCrossBackward0, recorded over a forward composed from minitorch's
C ops), and torch.functional's einsum, tensordot, cartesian_prod, combinations and block_diag, composed
from the view, reduction and bmm ops in the steps torch's own take (aten/native/Linear.cpp for einsum
and tensordot, TensorShape.cpp for combinations), so autograd records the nodes of those ops. Arguments
are parsed with torch's signatures (_C._parse_args); install() puts Tensor.cross on Tensor."""

import warnings

import minitorch
from minitorch import _C
from minitorch._composite import with_out
from minitorch.autograd.function import Function, _apply

__all__ = ["cross", "linalg_cross", "einsum", "tensordot", "cartesian_prod", "block_diag", "combinations"]

_SIGNATURES = {
    "cross": ["cross(Tensor input, Tensor other, int64_t? dim=None, *, Tensor out=None)"],
    "linalg_cross": ["linalg_cross(Tensor input, Tensor other, *, int64_t dim=-1, Tensor out=None)"],
}
_METHOD_SIGNATURES = {
    "cross": ["cross(Tensor other, int64_t? dim=None)"],
}


# ---- cross ----------------------------------------------------------------------------------------------

def _fused_difference(x1, y1, x2, y2):
    """x1 * y1 - x2 * y2 as torch's CPU kernel computes it: fma(x1, y1, -(x2 * y2)), the second product
    rounded and the first exact. float32 and float64 through addcmul, whose kernel is that fused
    multiply-add (with value 1); the other dtypes have no fused form."""
    z = x2 * y2
    if x1.dtype in (minitorch.float32, minitorch.float64):
        return minitorch.addcmul(-z, x1, y1)
    return x1 * y1 - z


def _cross_values(a, b, dim):
    # (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0)
    def comp(t, i):
        return t.narrow(dim, i, 1)
    return minitorch.cat([_fused_difference(comp(a, 1), comp(b, 2), comp(a, 2), comp(b, 1)),
                          _fused_difference(comp(a, 2), comp(b, 0), comp(a, 0), comp(b, 2)),
                          _fused_difference(comp(a, 0), comp(b, 1), comp(a, 1), comp(b, 0))], dim)


class _LinalgCross(Function):
    @staticmethod
    def forward(ctx, input, other, dim):
        ctx.dim = dim
        ctx.save_for_backward(input, other)
        shape = minitorch.broadcast_shapes(input.shape, other.shape)
        return _cross_values(input.expand(shape), other.expand(shape), dim)

    @staticmethod
    def backward(ctx, grad):
        input, other = ctx.saved_tensors
        shape = grad.shape
        gi = go = None
        if ctx.needs_input_grad[0]:
            gi = _sum_to(_linalg_cross(other.expand(shape), grad, ctx.dim), input.shape)
        if ctx.needs_input_grad[1]:
            go = _sum_to(_linalg_cross(grad, input.expand(shape), ctx.dim), other.shape)
        return gi, go, None


def _sum_to(grad, shape):
    dims = [d for d, (want, got) in enumerate(zip(shape, grad.shape)) if want == 1 and got != 1]
    return grad.sum(dims, keepdim=True) if dims else grad


def _linalg_cross(input, other, dim):
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if input.size(dim) != 3 or other.size(dim) != 3:
        raise RuntimeError("linalg.cross: inputs dimension {} must have length 3. Got {} and {}".format(
            dim, input.size(dim), other.size(dim)))
    minitorch.broadcast_tensors(input, other)     # torch's message for shapes that do not broadcast
    if input.dtype == minitorch.bool:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if input.dtype != other.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(_type_name(input.dtype),
                                                                         _type_name(other.dtype)))
    if input.device != other.device:
        # the same-device check of the element-wise ops, with its message
        input + other
    return _apply(_LinalgCross, "LinalgCrossBackward0", None, (input, other, dim % input.dim()), {})


def _type_name(dtype):
    return dtype._scalar_name


_cross_warned = False


def _cross(input, other, dim):
    global _cross_warned
    if dim is None:
        if not _cross_warned:
            _cross_warned = True
            warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                          "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                          "The default value of dim will change to agree with that of linalg.cross in a future "
                          "release.", UserWarning, stacklevel=3)
        for d, size in enumerate(input.shape):
            if size == 3:
                dim = d
                break
        else:
            raise RuntimeError("no dimension of size 3 in input")
    return _linalg_cross(input, other, dim)


def cross(*args, **kwargs):
    """The cross product of 3-vectors along dim (without dim: the first dim of size 3, deprecated)."""
    _, v, _ = _C._parse_args(_SIGNATURES["cross"], args, kwargs)
    return with_out("cross", v["out"], lambda: _cross(v["input"], v["other"], v["dim"]))


def linalg_cross(*args, **kwargs):
    """The cross product of 3-vectors along dim (default -1), broadcasting the other dims."""
    _, v, _ = _C._parse_args(_SIGNATURES["linalg_cross"], args, kwargs)
    return with_out("linalg_cross", v["out"], lambda: _linalg_cross(v["input"], v["other"], v["dim"]))


def _cross_method(self, *args, **kwargs):
    _, v, _ = _C._parse_args(_METHOD_SIGNATURES["cross"], args, kwargs)
    return _cross(self, v["other"], v["dim"])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    _cross_method.__name__ = "cross"
    _cross_method.__doc__ = cross.__doc__
    tensor_type.cross = _cross_method


# ---- einsum (torch.functional.einsum over ATen's einsum, Linear.cpp) ---------------------------------------

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _label_of_sublist_item(n):
    # torch.functional.einsum's parse_subscript, comparisons and all
    if n == Ellipsis:
        return "..."
    if n >= 0 and n < 26:
        return chr(ord("A") + n)
    if n >= 26 and n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def _sumproduct_pair(left, right, sum_dims):
    """left and right (aligned, same ndim) multiplied and summed over sum_dims, keeping them as size 1:
    the dims in both become the batch of one bmm, as ATen's sumproduct_pair does."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for d in range(left.dim()):
        sl, sr = left.shape[d] != 1, right.shape[d] != 1
        if d in sum_dims:
            if sl and sr:
                sum_size *= left.shape[d]
            elif sl:
                left = left.sum(d, True)
            elif sr:
                right = right.sum(d, True)
        elif sl and sr:
            lro.append(d)
            lro_size *= left.shape[d]
        elif sl:
            lo.append(d)
            lo_size *= left.shape[d]
        else:
            ro.append(d)
            ro_size *= right.shape[d]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [0] * len(lperm)
    for position, d in enumerate(lperm):
        operm[d] = position
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return minitorch.bmm(left, right).view(out_size).permute(operm)


def _diagonal_at(op, prev, d):
    """op's diagonal over dims prev and d, in dim prev, as torch's einsum takes it: a view (DiagonalBackward0,
    then the movedim's PermuteBackward0)."""
    return op.diagonal(0, prev, d).movedim(-1, prev)


def _einsum(equation, operands):
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    ELL = "..."
    op_labels = [[]]
    seen_ellipsis = False
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if seen_ellipsis:
                raise RuntimeError("einsum(): found '.' for operand {} for which an ellipsis was already found"
                                   .format(len(op_labels) - 1))
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError("einsum(): found '.' for operand {} that is not part of any ellipsis"
                                   .format(len(op_labels) - 1))
            i += 2
            op_labels[-1].append(ELL)
            seen_ellipsis = True
        elif c == ",":
            op_labels.append([])
            if len(op_labels) > len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            seen_ellipsis = False
        elif c.isascii() and c.isalpha():
            op_labels[-1].append(c)
        else:
            raise RuntimeError("einsum(): invalid subscript given at index {} in the equation string, subscripts "
                               "must be in [a-zA-Z]".format(i))
        i += 1
    if len(op_labels) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    count = {}
    ell_ndim = 0
    for n, (op, labels) in enumerate(zip(operands, op_labels)):
        nlabels = len(labels) - (ELL in labels)
        for label in labels:
            if label != ELL:
                count[label] = count.get(label, 0) + 1
        if ELL in labels:
            ell_ndim = max(ell_ndim, op.dim() - nlabels)
            if nlabels > op.dim():
                raise RuntimeError("einsum(): the number of subscripts in the equation ({}) is more than the number "
                                   "of dimensions ({}) for operand {}".format(nlabels, op.dim(), n))
        elif nlabels != op.dim():
            raise RuntimeError("einsum(): the number of subscripts in the equation ({}) does not match the number "
                               "of dimensions ({}) for operand {} and no ellipsis was given"
                               .format(nlabels, op.dim(), n))

    # the aligned order: the output's dims (the ellipsis' where it goes), then the contracted ones
    index = {}
    position = 0
    ell_index = 0
    ell_in_output = False
    order = sorted(count, key=_LETTERS.index)
    if arrow < 0:
        position = ell_ndim
        ell_in_output = True
        for label in order:
            if count[label] == 1:
                index[label] = position
                position += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index = position
                position += ell_ndim
                ell_in_output = True
            elif c.isascii() and c.isalpha():
                if count.get(c, 0) == 0 or c in index:
                    raise RuntimeError("einsum(): output subscript {}{}".format(
                        c, " appears more than once in the output" if c in index
                        else " does not appear in the equation for any input operand"))
                index[c] = position
                position += 1
            else:
                raise RuntimeError("einsum(): invalid subscript given at index {} in the equation string, "
                                   "subscripts must be in [a-zA-Z]".format(len(lhs) + 2 + i))
            i += 1
    out_ndim = position
    if not ell_in_output:
        ell_index = position
        position += ell_ndim
    for label in order:
        if label not in index:
            index[label] = position
            position += 1

    # diagonals for repeated labels, size-1 dims for missing ones, then each operand in the aligned order
    label_size = {}
    ell_sizes = [1] * ell_ndim
    dim_counts = [0] * position
    ops = []
    for n, (operand, labels) in enumerate(zip(operands, op_labels)):
        op = operand
        perm = [-1] * position
        d = 0
        for label in labels:
            if label == ELL:
                covered = operand.dim() - (len(labels) - 1)
                for j in range(ell_ndim - covered, ell_ndim):
                    if op.shape[d] != 1:
                        if ell_sizes[j] != 1 and ell_sizes[j] != op.shape[d]:
                            raise RuntimeError(
                                "einsum(): dimension {} covered by ellipsis in operand {}has size {} which does not "
                                "broadcast with previously seen ellipsis with size {} for the respective dimension"
                                .format(d, n, op.shape[d], ell_sizes[j]))
                        ell_sizes[j] = op.shape[d]
                        dim_counts[ell_index + j] += 1
                    perm[ell_index + j] = d
                    d += 1
            elif perm[index[label]] == -1:
                if op.shape[d] != 1:
                    if label_size.get(label, 1) not in (1, op.shape[d]):
                        raise RuntimeError("einsum(): subscript {} has size {} for operand {} which does not broadcast "
                                           "with previously seen size {}".format(label, op.shape[d], n,
                                                                                 label_size[label]))
                    label_size[label] = op.shape[d]
                    dim_counts[index[label]] += 1
                perm[index[label]] = d
                d += 1
            else:
                prev = perm[index[label]]
                if op.shape[d] != op.shape[prev]:
                    raise RuntimeError("einsum(): subscript {} is repeated for operand {} but the sizes don't match, "
                                       "{} != {}".format(label, n, op.shape[d], op.shape[prev]))
                op = _diagonal_at(op, prev, d)
        for k in range(position):
            if perm[k] == -1:
                op = op.unsqueeze(d)
                perm[k] = d
                d += 1
        ops.append(op.permute(perm))

    # contract left to right, summing each dim as soon as no later operand has it
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_ndim, position):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    if position > out_ndim:
        if len(operands) > 1:
            return ops[0].view(list(ops[0].shape)[:out_ndim])
        return ops[0].sum(list(range(out_ndim, position)))
    return ops[0]


def einsum(*args):
    """Sums of products of the operands' elements, the dims named by an Einstein-summation equation
    ('ij,jk->ik', 'bij,bjk->bik', 'ii->i', '...ij,...jk->...ik', ...), or in the sublist format."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], _C.Tensor):
        # the sublist format: operand, [labels], operand, [labels], ..., [output labels]
        equation = ",".join("".join(_label_of_sublist_item(s) for s in labels) for labels in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_label_of_sublist_item(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    _, v, _ = _C._parse_args(["einsum(c10::string_view equation, TensorList tensors, *, IntArrayRef? path=None)"],
                             (equation, operands), {})
    equation, operands = v["equation"], v["tensors"]
    return _einsum(equation, list(operands))


# ---- tensordot, cartesian_prod, block_diag (torch.functional and ATen's Linear.cpp / TensorShape.cpp) -----

def _tensordot(a, b, dims_a, dims_b):
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    ca = [d % a.dim() if a.dim() else d for d in dims_a]
    cb = [d % b.dim() if b.dim() else d for d in dims_b]
    csize = 1
    for da, db in zip(ca, cb):
        sa, sb = a.size(da), b.size(db)
        if sa != sb:
            if sa == 1:
                a = a.sum(da, True)     # a broadcast dim: summed first, as ATen's tensordot does
            elif sb == 1:
                b = b.sum(db, True)
            else:
                raise RuntimeError("contracted dimensions need to match, but first has size {} in dim {} and second "
                                   "has size {} in dim {}".format(sa, da, sb, db))
        csize *= a.size(da)
    free_a = [d for d in range(a.dim()) if d not in ca]
    free_b = [d for d in range(b.dim()) if d not in cb]
    size_a = size_b = 1
    for d in free_a:
        size_a *= a.size(d)
    for d in free_b:
        size_b *= b.size(d)
    shape = [a.size(d) for d in free_a] + [b.size(d) for d in free_b]
    if size_a == 1 and size_b == 1:
        # one number: a dot product of the contracted elements (DotBackward0), as ATen's tensordot takes it
        # (reshape to the shape a tensor has is the tensor itself there)
        left, right = a.permute(free_a + ca), b.permute(cb + free_b)
        left = left if left.dim() == 1 else left.reshape(csize)
        right = right if right.dim() == 1 else right.reshape(csize)
        return minitorch.dot(left, right).reshape(shape)
    left = a.permute(free_a + ca).reshape(size_a, csize)
    right = b.permute(cb + free_b).reshape(csize, size_b)
    return minitorch.mm(left, right).reshape(shape)


def tensordot(a, b, dims=2, out=None):
    """Sums the products of a's and b's elements over the last `dims` dims of a and the first of b, or over
    the dims listed in dims=(dims_a, dims_b)."""
    # torch.functional.tensordot's reading of dims, then ATen's tensordot's parsing
    if isinstance(dims, bool) or not isinstance(dims, (tuple, list, _C.Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           "containing two lists, but got dims={}".format(dims))
    dims_a, dims_b = [], []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if isinstance(dims, _C.Tensor):
        if dims.numel() > 1:
            assert dims.size()[0] == 2
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            count = int(dims.item())
            if count < 0:
                raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
            dims_a, dims_b = list(range(-count, 0)), list(range(count))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError("tensordot expects dims < ndim_a or ndim_b, but got dims={}".format(dims))
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    kwargs = {} if out is None else {"out": out}
    _, v, _ = _C._parse_args(["tensordot(Tensor input, Tensor other, IntArrayRef dims_self, IntArrayRef dims_other, "
                              "*, Tensor out=None)"], (a, b, dims_a, dims_b), kwargs)
    return with_out("tensordot", v["out"], lambda: _tensordot(v["input"], v["other"], list(v["dims_self"]),
                                                              list(v["dims_other"])))


def cartesian_prod(*tensors):
    """The cartesian product of 1-D tensors: one row per combination (meshgrid, flattened, stacked)."""
    tensors = _C._parse_args(["cartesian_prod(TensorList tensors)"], (tensors,), {})[1]["tensors"]
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError("Expect a 1D vector, but got shape {}".format(list(t.shape)))
    if len(tensors) == 1:
        return tensors[0]
    grids = minitorch.meshgrid(*tensors, indexing="ij")
    return minitorch.stack([g.flatten() for g in grids], 1)


def _triu_mask(n, dims, diagonal, device):
    """ATen's _triu_mask: True where the grid indices i, j, k, ... increase (i <= j <= ... with diagonal)."""
    index = minitorch.arange(n, dtype=minitorch.int64, device=device)
    grids = minitorch.meshgrid(*([index] * dims), indexing="ij")
    mask = minitorch.full(grids[0].shape, True, dtype=minitorch.bool, device=device)
    for i in range(dims - 1):
        mask = mask * (grids[i] <= grids[i + 1] if diagonal else grids[i] < grids[i + 1])
    return mask


def combinations(*args, **kwargs):
    """The r-length combinations of a 1-D tensor's elements, one per row, in lexicographic order of their
    positions (with_replacement=True: an element may repeat)."""
    _, v, _ = _C._parse_args(["combinations(Tensor input, int64_t r=2, bool with_replacement=False)"], args, kwargs)
    return _combinations(v["input"], v["r"], v["with_replacement"])


def _combinations(input, r, with_replacement):
    # ATen's combinations: meshgrid of r copies, each masked by _triu_mask, stacked
    if input.dim() != 1:
        raise RuntimeError("Expect a 1D vector, but got shape {}".format(list(input.shape)))
    if r < 0:
        raise RuntimeError("Expect a non-negative number, but got {}".format(r))
    if r == 0:
        return minitorch.empty(0, dtype=input.dtype, device=input.device)
    grids = minitorch.meshgrid(*([input] * r), indexing="ij")
    mask = _triu_mask(input.numel(), r, with_replacement, input.device)
    return minitorch.stack([g.masked_select(mask) for g in grids], 1)


class _BlockDiag(Function):
    @staticmethod
    def forward(ctx, *tensors):
        shapes = [(1, 1) if t.dim() == 0 else (1, t.shape[0]) if t.dim() == 1 else tuple(t.shape) for t in tensors]
        ctx.shapes = shapes
        ctx.original = [tuple(t.shape) for t in tensors]
        dtype = tensors[0].dtype
        for t in tensors[1:]:
            # torch's promotion of the inputs' dtypes (as tensors with dims, so no number rule applies)
            dtype = (minitorch.empty(0, dtype=dtype) + minitorch.empty(0, dtype=t.dtype)).dtype
        result = minitorch.zeros(sum(s[0] for s in shapes), sum(s[1] for s in shapes), dtype=dtype,
                                 device=tensors[0].device)
        row = col = 0
        for t, (rows, cols) in zip(tensors, shapes):
            result[row:row + rows, col:col + cols] = t.reshape(rows, cols)
            row += rows
            col += cols
        return result

    @staticmethod
    def backward(ctx, grad):
        grads = []
        row = col = 0
        for (rows, cols), shape in zip(ctx.shapes, ctx.original):
            grads.append(grad[row:row + rows, col:col + cols].reshape(shape))
            row += rows
            col += cols
        return tuple(grads)


def block_diag(*tensors):
    """A block-diagonal matrix of the tensors (0-d as 1x1, 1-D as one row), zeros elsewhere."""
    tensors = tuple(_C._parse_args(["block_diag(TensorList tensors)"], (tensors,), {})[1]["tensors"])
    for n, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {} "
                               "dimensions".format(n, t.dim()))
    if not tensors:
        return minitorch.empty(1, 0)
    for t in tensors[1:]:
        if t.device != tensors[0].device:
            raise RuntimeError("torch.block_diag: input tensors must all be on the same device. Input 0 is on "
                               "device {} and input {} is on device {}.".format(tensors[0].device, tensors.index(t),
                                                                              t.device))
    return _apply(_BlockDiag, "BlockDiagBackward0", None, tensors, {})
