"""Products of matrices and vectors that torch composes from mul, mm and matmul (aten/native/LinearAlgebra.cpp,
CompositeImplicitAutograd): kron, linalg.matrix_power (negative powers through linalg.inv), inner (through
tensordot), vdot (dot's kernel, VdotBackward0), chain_matmul and linalg.multi_dot (torch's cheapest
parenthesisation), and vander / linalg.vander (cumulative products of the powers). Each is written with
the same ops in the same order as ATen's, so values, dtypes and autograd nodes are torch's
(UnsafeViewBackward0, MmBackward0, ViewBackward0, LinalgInvExBackward0, CloneBackward0, CopyBackwards,
CumprodBackward0). Arguments are parsed with torch's signatures (_C._parse_args); install() puts the
methods on Tensor."""

import warnings

import minitorch
from minitorch import _C
from minitorch._composite import parse, with_out
from minitorch._legacy import _C10_NAMES
from minitorch._products import _tensordot
from minitorch.autograd.function import Function, _apply

__all__ = ["kron", "matrix_power", "linalg_matrix_power", "inner", "vdot", "chain_matmul", "multi_dot",
           "vander", "linalg_vander"]

_SIGNATURES = {
    "kron": ["kron(Tensor input, Tensor other, *, Tensor out=None)"],
    "linalg_matrix_power": ["linalg_matrix_power(Tensor A, int64_t n, *, Tensor out=None)"],
    "matrix_power": ["matrix_power(Tensor input, int64_t n, *, Tensor out=None)"],
    "inner": ["inner(Tensor input, Tensor other, *, Tensor out=None)"],
    "vdot": ["vdot(Tensor input, Tensor other, *, Tensor out=None)"],
    "chain_matmul": ["chain_matmul(TensorList matrices, *, Tensor out=None)"],
    "multi_dot": ["linalg_multi_dot(TensorList tensors, *, Tensor out=None)"],
    "vander": ["vander(Tensor x, int64_t? N=None, bool increasing=False)"],
    "linalg_vander": ["linalg_vander(Tensor x, *, SymInt? N=None)"],
}
_METHOD_SIGNATURES = {
    "kron": ["kron(Tensor other)"],
    "matrix_power": ["matrix_power(int64_t n)"],
    "inner": ["inner(Tensor other)"],
    "vdot": ["vdot(Tensor other)"],
}

def _type_meta_name(dtype):
    """c10's name of a dtype, as multi_dot's and histogram's messages print it ("float", "long int")"""
    return _C10_NAMES[str(dtype).split(".")[-1]]


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


class _UnsafeView(Function):
    """ATen's _unsafe_view: a view (torch's error for a layout that cannot be viewed so) recorded as
    UnsafeViewBackward0."""

    @staticmethod
    def forward(ctx, t, shape):
        ctx.shape = t.shape
        return t.view(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


def _unsafe_view(t, shape):
    if t.requires_grad and minitorch.is_grad_enabled():
        return _apply(_UnsafeView, "UnsafeViewBackward0", None, (t, shape), {})
    return t.view(shape)


# ---- kron ------------------------------------------------------------------------------------------------

def _kron(input, other):
    # ATen's KronImpl: both padded to the same rank, interleaved as (a_i, 1) and (1, b_i), multiplied
    ndim = max(input.dim(), other.dim())
    pad_a, pad_b = ndim - input.dim(), ndim - other.dim()
    a_shape, b_shape, result_shape = [], [], []
    for i in range(ndim):
        sa = 1 if i < pad_a else input.shape[i - pad_a]
        sb = 1 if i < pad_b else other.shape[i - pad_b]
        a_shape += [sa, 1]
        b_shape += [1, sb]
        result_shape.append(sa * sb)
    return _unsafe_view(_unsafe_view(input, a_shape) * _unsafe_view(other, b_shape), result_shape)


def kron(*args, **kwargs):
    """The Kronecker product of input and other: blocks input[i] * other, over as many dims as the larger
    of the two has."""
    _, v = parse(_SIGNATURES["kron"], args, kwargs)
    return with_out("kron", v["out"], lambda: _kron(v["input"], v["other"]))


# ---- matrix_power ----------------------------------------------------------------------------------------

def _square_check(A, name):
    if A.dim() < 2:
        raise RuntimeError("{}: The input tensor A must have at least 2 dimensions.".format(name))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("{}: A must be batches of square matrices, but they are {} by {} matrices".format(
            name, A.shape[-2], A.shape[-1]))


def _matrix_power(A, n):
    # ATen's linalg_matrix_power_impl: identity, copy, inverse, the small powers, then the binary powers
    _square_check(A, "linalg.matrix_power")
    if n == 0:
        eye = minitorch.eye(A.shape[-2], dtype=A.dtype, device=A.device)
        return A.clone(memory_format=minitorch.contiguous_format).copy_(eye)
    if n == 1:
        return A.clone(memory_format=minitorch.contiguous_format)
    if n == -1:
        return minitorch.linalg.inv(A)
    a = minitorch.linalg.inv(A) if n < 0 else A
    n = abs(n)
    if n == 2:
        return minitorch.matmul(a, a)
    if n == 3:
        return minitorch.matmul(minitorch.matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else minitorch.matmul(z, z)
        if bit == 1:
            result = z if result is None else minitorch.matmul(result, z)
    return result


def _resize_and_copy(out, source, shape):
    if out.requires_grad and out.grad_fn is None and minitorch.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    with minitorch.no_grad():
        _C._resize_output(out, shape)
    return out.copy_(source)


def _matrix_power_out(A, n, out):
    if out is None:
        return _matrix_power(A, n)
    # linalg_matrix_power_out: checkLinalgCompatibleDtype first, then the rule of the op that writes out
    _square_check(A, "linalg.matrix_power")
    if not minitorch.can_cast(A.dtype, out.dtype):
        raise RuntimeError("matrix_power: Expected result to be safely castable from {} dtype, but got result with "
                           "dtype {}".format(A.dtype._scalar_name, out.dtype._scalar_name))
    if n in (0, 1):
        # resize_output (below autograd), then out.copy_ (CopyBackwards, or the refusal of a leaf out)
        return _resize_and_copy(out, minitorch.eye(A.shape[-2], dtype=A.dtype, device=A.device) if n == 0 else A,
                                tuple(A.shape))
    if n == -1:
        # linalg_inv_out: autograd's refusal, then the structured kernel's dtype check, before the inverse
        if minitorch.is_grad_enabled() and (A.requires_grad or out.requires_grad):
            raise RuntimeError("linalg_inv_ex(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        if out.dtype != A.dtype:
            raise RuntimeError("Expected out tensor to have dtype {}, but got {} instead".format(
                _type_meta_name(A.dtype), _type_meta_name(out.dtype)))
        return with_out("linalg_inv", out, lambda: _matrix_power(A, n))
    return with_out("linalg_matrix_power_matmul", out, lambda: _matrix_power(A, n))


def linalg_matrix_power(*args, **kwargs):
    """A (a square matrix or a batch of them) to the integer power n: the identity for n = 0, repeated
    squaring, and the inverse's power for n < 0."""
    _, v = parse(_SIGNATURES["linalg_matrix_power"], args, kwargs)
    return _matrix_power_out(v["A"], v["n"], v["out"])


def matrix_power(*args, **kwargs):
    """Alias of linalg.matrix_power()."""
    _, v = parse(_SIGNATURES["matrix_power"], args, kwargs)
    return _matrix_power_out(v["input"], v["n"], v["out"])


# ---- inner, vdot -----------------------------------------------------------------------------------------

def _inner(input, other):
    # ATen's inner: a product with a 0-d operand, else tensordot over both last dims
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes {} and {}"
                           .format(_sizes(input), _sizes(other)))
    return _tensordot(input, other, [-1], [-1])


def inner(*args, **kwargs):
    """The sums of products over the last dim of input and of other (a product when either is 0-d)."""
    _, v = parse(_SIGNATURES["inner"], args, kwargs)
    return with_out("inner", v["out"], lambda: _inner(v["input"], v["other"]))


class _Vdot(Function):
    @staticmethod
    def forward(ctx, input, other):
        ctx.save_for_backward(input, other)
        return minitorch.dot(input, other)

    @staticmethod
    def backward(ctx, grad):
        input, other = ctx.saved_tensors
        gi = other * grad if ctx.needs_input_grad[0] else None
        go = grad * input if ctx.needs_input_grad[1] else None
        return gi, go


def _vdot(input, other):
    # real tensors: dot's checks and kernel (vdot conjugates its first argument, a no-op for them)
    if minitorch.is_grad_enabled() and (input.requires_grad or other.requires_grad):
        return _apply(_Vdot, "VdotBackward0", None, (input, other), {})
    return minitorch.dot(input, other)


def vdot(*args, **kwargs):
    """The dot product of two 1-D tensors, the first conjugated."""
    _, v = parse(_SIGNATURES["vdot"], args, kwargs)
    return with_out("vdot", v["out"], lambda: _vdot(v["input"], v["other"]))


# ---- chain_matmul, multi_dot -----------------------------------------------------------------------------

def _chain_order(tensors):
    """ATen's matrix_chain_order: s[i][j], the split of tensors i..j with the fewest multiplications."""
    n = len(tensors)
    p = [t.shape[0] for t in tensors] + [tensors[-1].shape[1]]
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = None
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if m[i][j] is None or q < m[i][j]:
                    m[i][j], s[i][j] = q, k
    return s


def _chain_product(tensors, order, i, j):
    if i == j:
        return tensors[i]
    return minitorch.mm(_chain_product(tensors, order, i, order[i][j]),
                        _chain_product(tensors, order, order[i][j] + 1, j))


def _multi_dot(given):
    # ATen's multi_dot_impl, its checks in its order
    n = len(given)
    if n < 2:
        raise RuntimeError("multi_dot(): expected at least 2 tensors but got {}".format(n))
    tensors, out_shape = list(given), []
    for index, where in ((0, "first"), (n - 1, "last")):
        t = given[index]
        if t.dim() == 1:
            tensors[index] = t.unsqueeze(0 if index == 0 else -1)
        elif t.dim() == 2:
            out_shape.append(t.shape[0 if index == 0 else 1])
        else:
            raise RuntimeError("multi_dot(): the {} tensor must be 1D or 2D but got {}D".format(where, t.dim()))
    for i in range(1, n - 1):
        if given[i].dim() != 2:
            raise RuntimeError("multi_dot(): tensor {} must be 2D but got {}D".format(i, given[i].dim()))
    dtype, device = tensors[0].dtype, tensors[0].device
    for i in range(1, n):
        if tensors[i].dtype != dtype:
            raise RuntimeError("multi_dot(): all tensors must have be the same dtype but tensor 0 is {} and "
                               "tensor {} {}".format(_type_meta_name(dtype), i, _type_meta_name(tensors[i].dtype)))
        if tensors[i].device != device:
            raise RuntimeError("multi_dot(): all tensors must be on the same device but tensor 0 is on {} and tensor "
                               "{} on {}".format(device, i, tensors[i].device))
        if tensors[i - 1].shape[-1] != tensors[i].shape[0]:
            raise RuntimeError("multi_dot(): tensors {} and {} with shapes {} and {} cannot be multiplied".format(
                i - 1, i, _sizes(given[i - 1]), _sizes(given[i])))
    if n == 2:
        return minitorch.mm(tensors[0], tensors[1]).view(out_shape)
    if n == 3:
        a, b, c, d = tensors[0].shape[0], tensors[1].shape[0], tensors[2].shape[0], tensors[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            return minitorch.mm(tensors[0], minitorch.mm(tensors[1], tensors[2])).view(out_shape)
        return minitorch.mm(minitorch.mm(tensors[0], tensors[1]), tensors[2]).view(out_shape)
    return _chain_product(tensors, _chain_order(tensors), 0, n - 1).view(out_shape)


def _multi_dot_out(given, out):
    if out is not None and given:
        dtype, device = given[0].dtype, given[0].device
        # (the shape checks come first)
        _multi_dot(given)
        if out.dtype != dtype:
            raise RuntimeError("multi_dot(): expected out tensor to have dtype {} but got {}".format(
                _type_meta_name(dtype), _type_meta_name(out.dtype)))
        if out.device != device:
            raise RuntimeError("multi_dot(): expected out tensor to be on device {} but got {}".format(
                device, out.device))
    return with_out("linalg_multi_dot", out, lambda: _multi_dot(given))


def multi_dot(*args, **kwargs):
    """The product of two or more matrices (the first and last may be vectors), multiplied in the order
    that takes the fewest multiplications."""
    _, v = parse(_SIGNATURES["multi_dot"], args, kwargs)
    return _multi_dot_out(list(v["tensors"]), v["out"])


_chain_matmul_warned = False


def chain_matmul(*matrices, out=None):
    """The product of one or more 2-D matrices (deprecated: linalg.multi_dot takes a list)."""
    global _chain_matmul_warned
    kwargs = {} if out is None else {"out": out}
    _, v = parse(_SIGNATURES["chain_matmul"], (matrices,), kwargs)
    if not _chain_matmul_warned:
        _chain_matmul_warned = True
        warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                      "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                      "multiple parameters.", UserWarning, stacklevel=2)
    matrices = list(v["matrices"])
    for t in matrices:
        if t.dim() != 2:
            raise RuntimeError("Tensor dimension is {}, expected 2 instead.".format(t.dim()))
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        if v["out"] is None:
            return matrices[0].clone()
        return _resize_and_copy(v["out"], matrices[0], tuple(matrices[0].shape))
    return _multi_dot_out(matrices, v["out"])


# ---- vander ----------------------------------------------------------------------------------------------

def _linalg_vander(x, N):
    # ATen's linalg_vander_symint: the cumulative product of x repeated N - 1 times along a new last dim,
    # after a column of ones (integral x gives int64, as cumprod promotes)
    if not (x.dtype in (minitorch.float32, minitorch.float64) or (x.dtype != minitorch.bool and
                                                                  not x.is_floating_point())):
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, but got {}".format(
            x.dtype._scalar_name))
    x_ = x.unsqueeze(-1) if x.dim() == 0 else x
    n = x_.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    result = minitorch.cumprod(x_.unsqueeze(-1).expand(list(x_.shape) + [n - 1]), -1)
    ones = result.new_ones(list(x_.shape) + [1])
    return minitorch.cat([ones, result], -1)


def _vander(x, N, increasing):
    # ATen's vander: ones, x copied into columns 1.., their cumulative product copied over them, flipped
    # unless increasing (integral and bool x give int64, as cumprod promotes)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0]
    if N is not None:
        n = N
        if n < 0:
            raise RuntimeError("N must be non-negative.")
    result = minitorch.empty((x.shape[0], n), dtype=minitorch.promote_types(x.dtype, minitorch.int64),
                             device=x.device)
    if n > 0:
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(minitorch.cumprod(result[:, 1:], 1))
    return result if increasing else minitorch.flip(result, [1])


def vander(*args, **kwargs):
    """The Vandermonde matrix of a 1-D x: columns x^(N-1), ..., x^0 (increasing=True: x^0 first)."""
    _, v = parse(_SIGNATURES["vander"], args, kwargs)
    return _vander(v["x"], v["N"], v["increasing"])


def linalg_vander(*args, **kwargs):
    """The Vandermonde matrices of x's last dim: x^0, x^1, ..., x^(N-1) along a new last dim."""
    _, v = parse(_SIGNATURES["linalg_vander"], args, kwargs)
    return _linalg_vander(v["x"], v["N"])


# ---- Tensor methods ----------------------------------------------------------------------------------------

def _method(name, compute):
    def method(self, *args, **kwargs):
        _, v = parse(_METHOD_SIGNATURES[name], args, kwargs)
        return compute(self, v)
    method.__name__ = name
    return method


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, compute, doc in [("kron", lambda s, v: _kron(s, v["other"]), kron.__doc__),
                               ("matrix_power", lambda s, v: _matrix_power(s, v["n"]), matrix_power.__doc__),
                               ("inner", lambda s, v: _inner(s, v["other"]), inner.__doc__),
                               ("vdot", lambda s, v: _vdot(s, v["other"]), vdot.__doc__)]:
        method = _method(name, compute)
        method.__doc__ = doc
        setattr(tensor_type, name, method)
