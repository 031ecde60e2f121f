"""The rest of torch.linalg's real-valued functions, written as ATen composes them (LinearAlgebra.cpp,
BatchLinearAlgebra.cpp) from minitorch's ops, so values, messages and autograd nodes are torch's:
linalg.matmul (matmul), linalg.diagonal (diagonal), linalg.vecdot (vdot for two vectors, else a product
summed over dim: SumBackward1), linalg.tensorinv and linalg.tensorsolve (linalg.inv / linalg.solve of
the tensor reshaped into a square matrix), linalg.cond (the ratio of extreme singular values, or the
product of the norms of A and its inverse), linalg.matrix_exp / torch.matrix_exp / Tensor.matrix_exp
(ATen's degree-selected Taylor polynomials and scaling and squaring; LinalgMatrixExpBackward0 through
the exponential of a block matrix) and linalg.lstsq (the minimum-norm least-squares solution through
the SVD in float64; torch's driver rules for which of its four results are filled;
LinalgLstsqBackward0). linalg.eig and linalg.eigvals refuse: their results are complex. Arguments are
parsed with torch's signatures (_C._parse_args); install() puts Tensor.matrix_exp on Tensor."""

import math
import struct

import minitorch
from minitorch import _C
from minitorch._composite import return_type, with_out
from minitorch._linalg import (LinAlgError, _check_floating, _format_ord, _inv_ex, _matrix_norm, _mT,
                               _pinv_backward, _solve, _svdvals, _type_name)
from minitorch._matrix_products import _square_check
from minitorch.autograd.function import Function, _apply

__all__ = ["linalg_matmul", "diagonal", "vecdot", "tensorinv", "tensorsolve", "cond", "matrix_exp",
           "linalg_matrix_exp", "lstsq", "eig", "eigvals"]

_SIGNATURES = {
    "linalg_matmul": ["linalg_matmul(Tensor input, Tensor other, *, Tensor out=None)"],
    "diagonal": ["linalg_diagonal(Tensor A, *, int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)"],
    "vecdot": ["linalg_vecdot(Tensor x, Tensor y, *, int64_t dim=-1, Tensor out=None)"],
    "tensorinv": ["linalg_tensorinv(Tensor input, int64_t ind=2, *, Tensor out=None)"],
    "tensorsolve": ["linalg_tensorsolve(Tensor input, Tensor other, IntArrayRef? dims=None, *, Tensor out=None)"],
    "cond": ["linalg_cond(Tensor input, Scalar? p=None, *, Tensor out=None)",
             "linalg_cond(Tensor input, c10::string_view p, *, Tensor out=None)"],
    "linalg_matrix_exp": ["linalg_matrix_exp(Tensor input)"],
    "matrix_exp": ["matrix_exp(Tensor input)"],
    "lstsq": ["linalg_lstsq(Tensor input, Tensor b, double? rcond=None, *, c10::string_view? driver=None, "
              "TensorList[4] out=None)"],
    "eig": ["linalg_eig(Tensor input, *, TensorList[2] out=None)"],
    "eigvals": ["linalg_eigvals(Tensor input, *, Tensor out=None)"],
}
_METHOD_SIGNATURES = {"matrix_exp": ["matrix_exp()"]}


def _parse(name, args, kwargs):
    return _C._parse_args(_SIGNATURES[name], args, kwargs)[1]


_LSTSQ = return_type("linalg_lstsq")


# ---- matmul, diagonal, vecdot ----------------------------------------------------------------------------

def linalg_matmul(*args, **kwargs):
    """Alias of torch.matmul()."""
    v = _parse("linalg_matmul", args, kwargs)
    if v["out"] is None:
        return minitorch.matmul(v["input"], v["other"])
    return minitorch.matmul(v["input"], v["other"], out=v["out"])


def diagonal(*args, **kwargs):
    """Alias of torch.diagonal() with dim1=-2, dim2=-1: the diagonals of each matrix of a batch."""
    v = _parse("diagonal", args, kwargs)
    return v["A"].diagonal(v["offset"], v["dim1"], v["dim2"])


def _vecdot(x, y, dim):
    # ATen's linalg_vecdot for real dtypes: vdot of two vectors, else (x * y).sum(dim)
    _check_floating(x, "linalg.vecdot")
    if x.dtype != y.dtype:
        raise RuntimeError("linalg.vecdot: Expected x and y to have the same dtype, but found x of type {} and y "
                           "of type {} instead".format(_type_name(x.dtype), _type_name(y.dtype)))
    if x.dim() == 1 and y.dim() == 1:
        return minitorch.vdot(x, y)
    return (x * y).sum(dim)


def vecdot(*args, **kwargs):
    """The dot product of x and y (broadcast) along dim: (x * y).sum(dim)."""
    v = _parse("vecdot", args, kwargs)
    return with_out("linalg_vecdot", v["out"], lambda: _vecdot(v["x"], v["y"], v["dim"]))


# ---- tensorinv, tensorsolve ------------------------------------------------------------------------------

class _ReshapeAlias(Function):
    """ATen's _reshape_alias: the view that reshape() makes of a tensor that is not contiguous but whose
    strides allow the shape (the column-major inverse), recorded as ReshapeAliasBackward0."""

    @staticmethod
    def forward(ctx, t, shape):
        ctx.shape = tuple(t.shape)
        return t.view(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


def _reshape(t, shape):
    # ATen's reshape: a view of a contiguous tensor, an alias of a viewable one, else a copy
    if t.is_contiguous() or not (t.requires_grad and minitorch.is_grad_enabled()):
        return t.reshape(shape)
    try:
        t.view(shape)
    except RuntimeError:
        return t.reshape(shape)
    return _apply(_ReshapeAlias, "ReshapeAliasBackward0", None, (t, shape), {})


def _prod(sizes):
    result = 1
    for s in sizes:
        result *= s
    return result


def _tensorinv(A, ind):
    if ind <= 0:
        raise RuntimeError("Expected a strictly positive integer for 'ind', but got {}".format(ind))
    if ind > A.dim():
        raise RuntimeError("ArrayRef: invalid slice, N = {}; size = {}".format(ind, A.dim()))
    front, back = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    n, m = _prod(back), _prod(front)
    if n != m:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           "prod(self.shape[:ind]), but got {} != {}".format(n, m))
    try:
        inverse = _inv_ex(A.reshape(n, n), True, False)[0]
    except LinAlgError as error:
        # torch checks the info itself (_linalg_check_errors(info, "inv")): its message names "inv"
        raise LinAlgError("inv" + str(error)[len("linalg.inv"):]) from None
    return _reshape(inverse, back + front)


def tensorinv(*args, **kwargs):
    """The inverse of A with respect to tensordot over its first ind dims: A reshaped into a square matrix
    (prod(shape[:ind]) rows), inverted, reshaped to shape[ind:] + shape[:ind]."""
    v = _parse("tensorinv", args, kwargs)
    return with_out("linalg_tensorinv", v["out"], lambda: _tensorinv(v["input"], v["ind"]))


def _tensorsolve(A, B, dims):
    if dims is not None:
        A = A.movedim(list(dims), list(range(A.dim() - len(dims), A.dim())))
    result_shape = tuple(A.shape[B.dim():])
    n, m = _prod(result_shape), _prod(B.shape)
    if n != m:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           "prod(self.shape[:other.ndim]), but got {} != {}".format(n, m))
    return _reshape(_solve(A.reshape(n, n), B.flatten(), True, True, False)[0], result_shape)


def tensorsolve(*args, **kwargs):
    """The X of tensordot(A, X, X.ndim) = B: A (dims moved last) reshaped into a square matrix, solved
    against B flattened, reshaped to A.shape[B.ndim:]."""
    v = _parse("tensorsolve", args, kwargs)
    return with_out("linalg_tensorsolve", v["out"], lambda: _tensorsolve(v["input"], v["other"], v["dims"]))


# ---- cond ------------------------------------------------------------------------------------------------

def _cond_check_ord(p):
    if isinstance(p, str):
        if p not in ("fro", "nuc"):
            raise RuntimeError("linalg.cond got an invalid norm type: {}".format(p))
    elif abs(float(p)) not in (1.0, 2.0, float("inf")):
        raise RuntimeError("linalg.cond got an invalid norm type: {}".format(_format_ord(p)))


def _cond_empty(A):
    # NumPy has no condition number of a 0 x 0 matrix: torch returns 0 for each
    return minitorch.zeros(tuple(A.shape[:-2]), dtype=A.dtype, device=A.device)


def _cond_by_inverse(A, p):
    # ATen's _linalg_cond_helper: norm(A) * norm(inv(A)), the inverse of a singular matrix set to inf,
    # 0 * inf (NaN) made inf
    # (in place, as torch: the inverse saved for LinalgInvExBackward0 is modified, so, as in torch, this
    # composite has no gradient)
    inverse, info = _inv_ex(A, False, True)
    inverse.masked_fill_((info > 0).unsqueeze(-1).unsqueeze(-1), float("inf"))
    result = _matrix_norm(A, p, [-2, -1], False, None) * _matrix_norm(inverse, p, [-2, -1], False, None)
    return result.nan_to_num_(float("inf"), float("inf"), float("-inf"))


def _cond(A, p):
    if isinstance(p, str):
        _square_check(A, "linalg.cond(ord={})".format(p))
        _cond_check_ord(p)
        if A.numel() == 0:
            return _cond_empty(A)
        if p == "nuc":
            S = _svdvals(A)
            return S.sum(-1) * S.reciprocal().sum(-1)
        return _cond_by_inverse(A, p)
    if A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    p = 2 if p is None else p
    _cond_check_ord(p)
    if A.numel() == 0:
        return _cond_empty(A)
    if abs(float(p)) == 2.0:
        S = _svdvals(A)
        s_max, s_min = S.narrow(-1, 0, 1), S.narrow(-1, S.shape[-1] - 1, 1)
        return (s_min / s_max if float(p) == -2.0 else s_max / s_min).squeeze(-1)
    # torch names the order as std::to_string prints it: "1" for an integer, "1.000000" or "inf" for a float
    name = "{:f}".format(p) if isinstance(p, float) and abs(p) != float("inf") else str(p)
    _square_check(A, "linalg.cond(ord={})".format(name))
    return _cond_by_inverse(A, p)


def cond(*args, **kwargs):
    """The condition number of each matrix of A in the p-norm: p None / 2 / -2 the ratio of the largest
    and smallest singular values (any shape), otherwise norm(A) * norm(inv(A)) (square; inf when
    singular); 0 for an empty matrix."""
    v = _parse("cond", args, kwargs)
    return with_out("linalg_cond", v["out"], lambda: _cond(v["input"], v["p"]))


# ---- matrix_exp ------------------------------------------------------------------------------------------

def _f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


# the upper bounds of the 1-norm for the degrees 1, 2, 4, 8, 12, 18 (LinearAlgebra.cpp's mexp)
_THETAS = {
    "float": [_f32(t) for t in (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                                5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00)],
    "double": [2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04, 4.991228871115323e-02,
               2.996158913811580e-01, 1.090863719290036e+00],
}

# the coefficients of the optimised polynomials of degree 12 and 18 (Bader, Blanes, Casas 2019), rows of
# b over {I, A, A^2, A^3} and {I, A, A^2, A^3, A^6}
_B12 = [[9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740],
        [5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989],
        [0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230],
        [-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359]]
_B18 = [[0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.],
        [0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04],
        [-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05],
        [-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05],
        [0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05]]


def _coefficient(c, A):
    # ATen keeps the coefficients in the matrix's dtype
    return _f32(c) if A.dtype == minitorch.float32 else c


def _combination(As, coefficients, A):
    # _compute_linear_combination: sum_j c_j As[j], accumulated from zero in order
    result = minitorch.zeros_like(A)
    for M, c in zip(As, coefficients):
        result = result + M * _coefficient(c, A)
    return result


def _powers(A, count):
    # _fill_matrix_powers: the first `count` of I, A, A^2, A^3, A^6
    eye = minitorch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(A.shape)
    As = [eye, A]
    if count > 2:
        As.append(A @ A)
    if count > 3:
        As.append(A @ As[2])
    if count > 4:
        As.append(As[3] @ As[3])
    return As


def _exp_taylor(A, degree):
    """ATen's compute_T1 ... compute_T18 on a batch (b, n, n)."""
    if degree in (1, 2):
        As = _powers(A, degree + 1)
        if degree == 2:
            As[2] = As[2] / 2.0
        return minitorch.stack(As).sum(0)
    if degree == 4:
        As = _powers(A, 3)
        As.append(As[2] @ _combination(As, (1 / 2.0, 1 / 6.0, 1 / 24.0), A))
        return _combination(As, (1.0, 1.0, 0.0, 1.0), A)
    if degree == 8:
        single = A.dtype == minitorch.float32
        r = _f32 if single else float
        sqrt_177 = r(0.1330413469565007072504e+2)
        x3 = r(2. / 3.)
        x1 = r(x3 * ((1. + sqrt_177) / 88.))
        x2 = r(x3 * ((1. + sqrt_177) / 352.))
        x4 = r((-271. + 29. * sqrt_177) / (315. * x3))
        x5 = r((-11. + 11. * sqrt_177) / (1260. * x3))
        x6 = r((-99. + 11. * sqrt_177) / (5040. * x3))
        x7 = r((89. - sqrt_177) / (5040. * x3))
        y2 = r((857. - 58. * sqrt_177) / 630.)
        As = _powers(A, 3)
        As.append(As[2] @ _combination(As[1:3], (x1, x2), A))
        As.append(_combination(As[2:4], (x3, 1.0), A) @ _combination(As[0:4], (x4, x5, x6, x7), A))
        return _combination(As, (1.0, 1.0, y2, 0.0, 1.0), A)
    if degree == 12:
        As = _powers(A, 4)
        Bs = [_combination(As, row, A) for row in _B12]
        Bs[2] = Bs[2] + Bs[3] @ Bs[3]
        return Bs[0] + (Bs[1] + Bs[2]) @ Bs[2]
    As = _powers(A, 5)
    Bs = [_combination(As, row, A) for row in _B18]
    Bs[3] = Bs[3] + Bs[0] @ Bs[4]
    return Bs[1] + (Bs[2] + Bs[3]) @ Bs[3]


def _exp_scale_square(A, norm, theta):
    # compute_T18_scale_square: A / 2^s through the degree-18 polynomial, then squared s times
    s = minitorch.ceil(minitorch.log2(norm / theta)).clamp(min=0)
    scaled = A * minitorch.pow(2, -s).view(-1, 1, 1)
    result = _exp_taylor(scaled, 18)
    pieces = []
    # a NaN or infinite norm makes s so: torch's conversion to int64 leaves it no squarings (the result is NaN)
    for i, times in enumerate(int(t) if math.isfinite(t) else 0 for t in s.tolist()):
        M = result[i]
        for _ in range(times):
            M = M @ M
        pieces.append(M)
    return minitorch.stack(pieces)


def _mexp(A):
    # LinearAlgebra.cpp's mexp on the batch flattened to (b, n, n): a batch of several matrices takes the
    # degree-18 polynomial with scaling and squaring; one matrix the lowest degree its 1-norm allows
    A3 = A.reshape(-1, A.shape[-2], A.shape[-1])
    if A.device.type == "meta":
        return minitorch.empty(A.shape, dtype=A.dtype, device=A.device)    # the degree is chosen by values
    thetas = _THETAS["float" if A.dtype == minitorch.float32 else "double"]
    norm = A3.abs().sum(-2).amax(-1)
    if A3.shape[0] > 1:
        return _exp_scale_square(A3, norm, thetas[5]).view(A.shape)
    value = float(norm[0])
    result = minitorch.full_like(A3, float("nan"))     # a NaN norm leaves the result NaN
    for i, degree in enumerate((1, 2, 4, 8, 12)):
        if (-1.0 if i == 0 else thetas[i - 1]) < value <= thetas[i]:
            result = _exp_taylor(A3, degree)
    if value >= thetas[4]:
        result = _exp_scale_square(A3, norm, thetas[5])
    return result.view(A.shape)


def _matrix_exp_forward(A):
    _square_check(A, "linalg.matrix_exp")
    _check_floating(A, "linalg.matrix_exp")
    n = A.shape[-1]
    if n == 0:
        return A.clone()
    if n == 1:
        return A.exp()
    return _mexp(A)


class _MatrixExp(Function):
    @staticmethod
    def forward(ctx, A):
        ctx.save_for_backward(A)
        return _matrix_exp_forward(A)

    @staticmethod
    def backward(ctx, grad):
        # linalg_matrix_exp_differential (adjoint): the upper right block of exp([[A^T, G], [0, A^T]])
        (A,) = ctx.saved_tensors
        n = A.shape[-1]
        At = _mT(A)
        zeros = minitorch.zeros_like(At)
        meta = minitorch.cat([minitorch.cat([At, grad], -1), minitorch.cat([zeros, At], -1)], -2)
        return _matrix_exp(meta).narrow(-2, 0, n).narrow(-1, n, n)


def _matrix_exp(A):
    return _apply(_MatrixExp, "LinalgMatrixExpBackward0", None, (A,), {})


def linalg_matrix_exp(*args, **kwargs):
    """The matrix exponential of each square matrix of A: sum_k A^k / k! (Taylor polynomials of degree 1 to
    18 chosen by the 1-norm, with scaling and squaring for large norms)."""
    return _matrix_exp(_parse("linalg_matrix_exp", args, kwargs)["input"])


def matrix_exp(*args, **kwargs):
    """Alias of linalg.matrix_exp()."""
    return _matrix_exp(_parse("matrix_exp", args, kwargs)["input"])


def _matrix_exp_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["matrix_exp"], args, kwargs)
    return _matrix_exp(self)


# ---- lstsq -----------------------------------------------------------------------------------------------

_EPS = {minitorch.float32: 1.1920928955078125e-07, minitorch.float64: 2.220446049250313e-16}


def _vector_rhs(A, B):
    # torch's linalg_solve_is_vector_rhs
    return B.dim() == 1 or (A.dim() - 1 == B.dim() and tuple(B.shape) == tuple(A.shape[:-1]))


class _Lstsq(Function):
    @staticmethod
    def forward(ctx, A, B, rcond, driver, extras):
        # the minimum-norm least-squares solution through A's SVD in float64, singular values at or below
        # rcond * the largest counting as zero (batches broadcast through the products); rank and the
        # singular values have A's batch shape, as torch's
        vector = _vector_rhs(A, B)
        B2 = B.unsqueeze(-1) if vector else B
        m, n = A.shape[-2], A.shape[-1]
        A64, B64 = A.double(), B2.double()
        U, S, Vh = _C._linalg_svd(A64, False, True)
        if S.shape[-1] == 0:
            rank = minitorch.zeros(tuple(A.shape[:-2]), dtype=minitorch.int64, device=A.device)
            Sinv = S
        elif driver == "gels":
            # gels takes A to have full rank: no rcond, no rank
            rank, Sinv = None, 1.0 / S
        else:
            keep = S > S.amax(-1, keepdim=True) * rcond
            rank = keep.sum(-1)
            Sinv = minitorch.where(keep, 1.0 / S, minitorch.zeros_like(S))
        X64 = _mT(Vh) @ (Sinv.unsqueeze(-1) * (_mT(U) @ B64))
        empty = minitorch.empty(0, dtype=A.dtype, device=A.device)
        residuals = empty
        if m > n and driver != "gelsy":
            # gelsd and gelss give the residuals only when every matrix has full rank
            if driver == "gels" or int(rank.sum()) == rank.numel() * n:
                r = A64 @ X64 - B64
                # (with no columns LAPACK leaves the residual rows zero)
                residuals = (r * r).sum(-2).to(A.dtype) if n > 0 else minitorch.zeros(
                    tuple(r.shape[:-2]) + (r.shape[-1],), dtype=A.dtype, device=A.device)
        extras[0] = rank if driver != "gels" else minitorch.empty(0, dtype=minitorch.int64, device=A.device)
        extras[1] = (_C._linalg_svd(A, False, False)[1] if driver in ("gelsd", "gelss")
                     else minitorch.empty(0, dtype=A.dtype, device=A.device))
        # torch's solution is the first n rows of a column-major (max(m, n), k) LAPACK buffer
        lead = max(m, n)
        X = X64.squeeze(-1) if vector else X64
        batch = tuple(X.shape[:-1] if vector else X.shape[:-2])
        strides = [1] if vector else [1, lead]
        step = lead * (1 if vector else X.shape[-1])
        for size in reversed(batch):
            strides.insert(0, step)
            step *= size
        X = minitorch.empty_strided(tuple(X.shape), tuple(strides), dtype=A.dtype, device=A.device).copy_(X)
        ctx.vector = vector
        ctx.save_for_backward(A, B, X)
        return X, residuals

    @staticmethod
    def backward(ctx, gX, gL):
        # linalg_lstsq_backward: the solution's part through pinv(A), the residuals' through A X - B
        A, B, X = ctx.saved_tensors
        if ctx.vector:
            B, X = B.unsqueeze(-1), X.unsqueeze(-1)
            gX = gX.unsqueeze(-1) if gX is not None else None
        gA = gB = None
        if gX is not None:
            P = minitorch.linalg.pinv(A)
            if ctx.needs_input_grad[0]:
                gA = _pinv_backward(gX @ _mT(B), A, P)
            if ctx.needs_input_grad[1]:
                gB = _mT(P) @ gX
        if gL is not None and gL.numel() > 0:
            r = A @ X - B
            gL = gL.unsqueeze(-2)
            if ctx.needs_input_grad[0]:
                term = 2 * (gL * r) @ _mT(X)
                gA = term if gA is None else gA + term
            if ctx.needs_input_grad[1]:
                term = -2 * gL * r
                gB = term if gB is None else gB + term
        if gB is not None and ctx.vector:
            gB = gB.squeeze(-1)
        return gA, gB, None, None, None


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq(A, B, rcond, driver):
    if "meta" in (A.device.type, B.device.type):
        _C._no_meta_kernel("aten::linalg_lstsq.out")    # torch's lstsq runs its out= kernel
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.dim() < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype != B.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           "dtype {} and other's dtype {}".format(_type_name(A.dtype), _type_name(B.dtype)))
    diff = A.dim() - B.dim()
    if diff not in (0, 1):
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    vector = _vector_rhs(A, B)
    if A.shape[-2] != (B.shape[-1] if vector else B.shape[-2]):
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size({})".format(
            -1 if vector else -2))
    if diff == 1 and not vector:
        # torch broadcasts A's batch with B's shape less its last dim here (its error; the solution then
        # broadcasts B's matrix)
        _C._infer_size(tuple(A.shape[:-2]), tuple(B.shape[:-1]))
    if A.device != B.device:
        raise RuntimeError("torch.linalg.lstsq: Expected other and input tensors to be on the same device, but got "
                           "other on {} and input on {}".format(B.device, A.device))
    cuda = A.device.type == "cuda"
    if driver is None:
        driver = "gels" if cuda else "gelsy"
    else:
        driver = driver.lower()
        if cuda and driver != "gels":
            raise RuntimeError("torch.linalg.lstsq: `driver` other than `gels` is not supported on CUDA")
        if driver not in _DRIVERS:
            raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.dtype not in _EPS:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if rcond is None:
        rcond = _EPS[A.dtype] * max(A.shape[-2], A.shape[-1])
    extras = [None, None]
    X, residuals = _apply(_Lstsq, "LinalgLstsqBackward0", None, (A, B, rcond, driver, extras), {})
    return _LSTSQ(X, residuals, extras[0], extras[1])


def lstsq(*args, **kwargs):
    """(solution, residuals, rank, singular_values) of the least-squares problem min |A X - B| for each
    matrix of A (*, m, n) and B (*, m, k) or (*, m); the minimum-norm solution when A is rank-deficient.
    As torch on the CPU, the default driver is 'gelsy' (rank; no residuals or singular values); 'gelsd'
    and 'gelss' add the singular values, and the residuals when m > n and A has full rank; 'gels' the
    residuals when m > n, no rank. On a CUDA device only 'gels' exists."""
    v = _parse("lstsq", args, kwargs)
    if v["out"] is not None:
        return _lstsq_out(v["input"], v["b"], v["rcond"], v["driver"], v["out"])
    return _lstsq(v["input"], v["b"], v["rcond"], v["driver"])


_LSTSQ_OUT = return_type("linalg_lstsq_out")
_LSTSQ_NAMES = ("solution", "residuals", "rank", "singular_values")


def _lstsq_out(A, B, rcond, driver, out):
    # torch's linalg_lstsq_out: autograd's refusal, the meta dispatch, the function's own checks, then each out's
    # device and its dtype (any the result can be safely cast to; residuals' check names "solution", as
    # torch's does), and each result resized into its out and copied (cast where the dtypes differ)
    if minitorch.is_grad_enabled() and (A.requires_grad or B.requires_grad):
        raise RuntimeError("linalg_lstsq(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if any(o.device.type == "meta" for o in out):
        _C._no_meta_kernel("aten::linalg_lstsq.out")
    with minitorch.no_grad():
        result = _lstsq(A, B, rcond, driver)
    for name, o in zip(_LSTSQ_NAMES, out):
        if o.device != A.device:
            raise RuntimeError("torch.linalg.lstsq: Expected {0} and input tensors to be on the same device, but got "
                               "{0} on {1} and input on {2}".format(name, o.device, A.device))
    for name, o, r in zip(("solution", "solution", "rank", "singular_values"), out, result):
        if not minitorch.can_cast(r.dtype, o.dtype):
            raise RuntimeError("torch.linalg.lstsq: Expected {0} to be safely castable from {1} dtype, but got {0} "
                               "with dtype {2}".format(name, _type_name(r.dtype), _type_name(o.dtype)))
    # torch computes into out itself (the result's layout) when every dtype is the result's and every
    # non-empty out has its shape (the solution column-major); otherwise into temporaries, copied over
    solution = out[0]
    direct = all(o.dtype == r.dtype and (o.numel() == 0 or tuple(o.shape) == tuple(r.shape))
                 for o, r in zip(out, result))
    direct = direct and (solution.numel() == 0 or (solution.is_contiguous() if solution.dim() < 2
                                                   else solution.mT.is_contiguous()))
    for o, r in zip(out, result):
        if tuple(o.shape) != tuple(r.shape):
            _C._resize_output(o, tuple(r.shape))
            if direct and r.numel() > 0:
                span = 1 + sum((size - 1) * stride for size, stride in zip(r.shape, r.stride()))
                o.resize_(span).as_strided_(tuple(r.shape), r.stride())
        o.copy_(r)
    return _LSTSQ_OUT(*out)


# ---- eig, eigvals ----------------------------------------------------------------------------------------

def _complex_result_error(name):
    # the wording of minitorch's other refusals of a complex result (to(), where())
    return NotImplementedError("{}(): torch returns a complex result, which minitorch does not support (it has no "
                               "complex dtype)".format(name))


def eig(*args, **kwargs):
    """Not in minitorch: torch's eigenvalues and eigenvectors of a general matrix are complex tensors."""
    _parse("eig", args, kwargs)
    raise _complex_result_error("linalg.eig")


def eigvals(*args, **kwargs):
    """Not in minitorch: torch's eigenvalues of a general matrix are a complex tensor."""
    _parse("eigvals", args, kwargs)
    raise _complex_result_error("linalg.eigvals")


def install(tensor_type):
    """Puts Tensor.matrix_exp on the Tensor type (minitorch/__init__.py imports the functions)."""
    _matrix_exp_method.__name__ = "matrix_exp"
    _matrix_exp_method.__doc__ = matrix_exp.__doc__
    tensor_type.matrix_exp = _matrix_exp_method
