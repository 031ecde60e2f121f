"""Cholesky factorisation and triangular solves, as torch has them: linalg.cholesky / cholesky_ex, the
deprecated torch.cholesky, linalg.solve_triangular, the deprecated torch.triangular_solve, cholesky_solve and
cholesky_inverse, with their Tensor methods. The numbers come from two private C ops (_C._linalg_cholesky_ex:
LAPACK potf2's column order, _C._linalg_solve_triangular: BLAS trsm's substitution order; csrc/ops/linalg.c),
which own torch's checks and messages for those two. cholesky_solve is torch's potrs, two triangular solves,
and cholesky_inverse solves against the identity. Each op records one node with torch's name
(LinalgCholeskyExBackward0, CholeskyBackward0, LinalgSolveTriangularBackward0, TriangularSolveBackward0,
CholeskySolveBackward0, CholeskyInverseBackward0) whose backward is torch's formula (FunctionsManual.cpp:
cholesky_backward, linalg_solve_triangular_backward, triangular_solve_backward, cholesky_solve_backward,
cholesky_inverse_backward) over minitorch's ops, so it runs on every device and under create_graph=True."""


import minitorch
from minitorch import _C
from minitorch._composite import return_type, warn_once as _warn_once, with_out
from minitorch._linalg import _eye_like, _mT, _reduce_to
from minitorch.autograd.function import Function, _apply

__all__ = ["cholesky", "cholesky_ex", "torch_cholesky", "solve_triangular", "triangular_solve", "cholesky_solve",
           "cholesky_inverse"]

_SIGNATURES = {
    "cholesky": ["linalg_cholesky(Tensor A, *, bool upper=False, Tensor out=None)"],
    "cholesky_ex": ["linalg_cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False, "
                    "TensorList[2] out=None)"],
    "torch_cholesky": ["cholesky(Tensor input, bool upper=False, *, Tensor out=None)"],
    "solve_triangular": ["linalg_solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, "
                         "bool unitriangular=False, Tensor out=None)"],
    "triangular_solve": ["triangular_solve(Tensor input, Tensor A, bool upper=True, bool transpose=False, "
                         "bool unitriangular=False, *, TensorList[2] out=None)"],
    "cholesky_solve": ["cholesky_solve(Tensor input, Tensor input2, bool upper=False, *, Tensor out=None)"],
    "cholesky_inverse": ["cholesky_inverse(Tensor input, bool upper=False, *, Tensor out=None)"],
}
_METHOD_SIGNATURES = {
    "cholesky": ["cholesky(bool upper=False)"],
    "triangular_solve": ["triangular_solve(Tensor A, bool upper=True, bool transpose=False, "
                         "bool unitriangular=False)"],
    "cholesky_solve": ["cholesky_solve(Tensor input2, bool upper=False)"],
    "cholesky_inverse": ["cholesky_inverse(bool upper=False)"],
}

_CholeskyExResult = return_type("linalg_cholesky_ex")
_TriangularSolveResult = return_type("triangular_solve")

_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
    "release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
    "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
    "This transform will produce equivalent results for all valid (symmetric positive definite) inputs.")
_TRIANGULAR_SOLVE_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in a "
    "future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not return a "
    "copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
    "X = torch.linalg.solve_triangular(A, B).")


def _parse(name, args, kwargs, signatures=_SIGNATURES):
    _, values, _ = _C._parse_args(signatures[name], args, kwargs)
    return values


def _tril_or_triu(x, upper, diagonal=0):
    return x.triu(diagonal) if upper else x.tril(-diagonal)


# ---- cholesky -------------------------------------------------------------------------------------------------

def _cholesky_backward(gL, upper, L):
    # cholesky_backward: with L lower, Phi = tril(L^H gL) with its diagonal halved;
    # gA = sym(L^{-H} Phi L^{-1})
    if upper:
        L, gL = _mT(L), _mT(gL)
    L_inverse = _solve_triangular(L, _eye_like(L, L.shape[-1]), False, True, False)
    phi = (_mT(L) @ gL).tril()
    phi = phi - 0.5 * phi * _eye_like(phi, phi.shape[-1])
    grad_input = (_mT(L_inverse) @ phi) @ L_inverse
    return (grad_input + _mT(grad_input)) * 0.5


class _CholeskyEx(Function):
    @staticmethod
    def forward(ctx, A, upper, check_errors, api, info):
        if api == "cholesky" and A.numel() == 0:
            # torch.cholesky returns an empty input's copy before any check
            L, info[0] = minitorch.empty_like(A, memory_format=minitorch.contiguous_format), None
        else:
            L, info[0] = _C._linalg_cholesky_ex(A, upper=upper, check_errors=check_errors, api=api)
        ctx.upper = upper
        ctx.save_for_backward(L)
        return L

    @staticmethod
    def backward(ctx, grad):
        (L,) = ctx.saved_tensors
        return _cholesky_backward(grad, ctx.upper, L), None, None, None, None


def _cholesky_ex(A, upper, check_errors, api, node="LinalgCholeskyExBackward0"):
    info = [None]   # the second result, which has no gradient
    L = _apply(_CholeskyEx, node, None, (A, upper, check_errors, api, info), {})
    return L, info[0]


def cholesky(*args, **kwargs):
    """The Cholesky factor L (A = L L^T; upper=True: U with A = U^T U) of each symmetric positive-definite
    matrix of A, read from its lower (upper) triangle; a matrix that is not positive-definite raises
    minitorch.linalg.LinAlgError naming the order of its first failing leading minor."""
    v = _parse("cholesky", args, kwargs)
    return with_out("linalg_cholesky", v["out"], lambda: _cholesky_ex(v["A"], v["upper"], True, "linalg.cholesky")[0])


def cholesky_ex(*args, **kwargs):
    """(L, info) of linalg.cholesky: info is 0, or the order of the first leading minor that is not
    positive-definite (an error only with check_errors=True)."""
    v = _parse("cholesky_ex", args, kwargs)
    return with_out("linalg_cholesky_ex", v["out"], lambda: _CholeskyExResult(
        *_cholesky_ex(v["A"], v["upper"], v["check_errors"], "linalg.cholesky_ex")))


def _torch_cholesky(input, upper):
    return _cholesky_ex(input, upper, True, "cholesky", "CholeskyBackward0")[0]


def torch_cholesky(*args, **kwargs):
    """torch.cholesky (deprecated, with torch's warning once): linalg.cholesky(input, upper=upper)."""
    v = _parse("torch_cholesky", args, kwargs)
    _warn_once(_CHOLESKY_DEPRECATED)
    return with_out("cholesky", v["out"], lambda: _torch_cholesky(v["input"], v["upper"]))


# ---- solve_triangular, triangular_solve -----------------------------------------------------------------------

class _SolveTriangular(Function):
    @staticmethod
    def forward(ctx, A, B, upper, left, unitriangular):
        X = _C._linalg_solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)
        ctx.options = (upper, left, unitriangular)
        ctx.shapes = (tuple(A.shape), tuple(B.shape))
        ctx.save_for_backward(A, X)
        return X

    @staticmethod
    def backward(ctx, grad):
        # linalg_solve_triangular_backward: gB = A^{-H} gX (left) or gX A^{-H}; gA = -gB X^H or -X^H gB on
        # A's triangle (without the diagonal when it is taken as ones); each summed back over the batch
        # dims that broadcasting added
        A, X = ctx.saved_tensors
        upper, left, unitriangular = ctx.options
        gB = _solve_triangular(_mT(A), grad, not upper, left, unitriangular)
        gA = None
        if ctx.needs_input_grad[0]:
            gA = -(gB @ _mT(X)) if left else -(_mT(X) @ gB)
            gA = _reduce_to(_tril_or_triu(gA, upper, 1 if unitriangular else 0), ctx.shapes[0])
        return gA, _reduce_to(gB, ctx.shapes[1]), None, None, None


def _solve_triangular(A, B, upper, left, unitriangular):
    return _apply(_SolveTriangular, "LinalgSolveTriangularBackward0", None, (A, B, upper, left, unitriangular), {})


def solve_triangular(*args, **kwargs):
    """The solution X of A X = B (left=False: X A = B) for triangular A (*, n, n), read from its upper or
    lower triangle (unitriangular: a diagonal of ones assumed), B (*, n, k) or (*, k, n); batch dims
    broadcast. A zero on the diagonal gives infinities and NaNs (no error), as torch's."""
    v = _parse("solve_triangular", args, kwargs)
    return with_out("linalg_solve_triangular", v["out"], lambda: _solve_triangular(
        v["A"], v["B"], v["upper"], v["left"], v["unitriangular"]))


def _check_solver_inputs(name, b, A):
    # torch's linearSolveCheckInputs and its batch broadcasting, after the callers' own dimension checks
    if b.device != A.device:
        raise RuntimeError("Expected b and A to be on the same device, but found b on {} and A on {} instead."
                           .format(b.device, A.device))
    if b.dtype != A.dtype:
        raise RuntimeError("Expected b and A to have the same dtype, but found b of type {} and A of type {} "
                           "instead.".format(b.dtype._scalar_name, A.dtype._scalar_name))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("A must be batches of square matrices, but they are {} by {} matrices"
                           .format(A.shape[-2], A.shape[-1]))
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError("Incompatible matrix sizes for {}: each A matrix is {} by {} but each b matrix is {} by {}"
                           .format(name, A.shape[-1], A.shape[-1], b.shape[-2], b.shape[-1]))
    _C._infer_size(b.shape[:-2], A.shape[:-2])
    if b.dtype not in (minitorch.float32, minitorch.float64) and b.device.type != "meta":
        # the kernel's dtype dispatch (a meta function has none)
        raise NotImplementedError('"{}_{}" not implemented for \'{}\''.format(
            name, "cpu" if b.device.type == "cpu" else "cuda", b.dtype._scalar_name))


class _TriangularSolveOp(Function):
    @staticmethod
    def forward(ctx, b, A, upper, transpose, unitriangular):
        ctx.shapes = (tuple(b.shape), tuple(A.shape))
        batch = _C._infer_size(b.shape[:-2], A.shape[:-2])
        A = A.expand(*batch, *A.shape[-2:])
        X = _C._linalg_solve_triangular(_mT(A) if transpose else A, b, upper=upper != transpose,
                                        unitriangular=unitriangular)
        ctx.options = (upper, transpose, unitriangular)
        ctx.save_for_backward(A, X)
        # the copy of A, laid out column-major as LAPACK leaves it
        return X, _mT(_mT(A).contiguous())

    @staticmethod
    def backward(ctx, gX, gM):
        # triangular_solve_backward: gb solves A^T gb = gX (A gb = gX when transposed); gA = -gb X^T
        # (-X gb^T when transposed) on A's triangle; the copy's gradient adds to A's
        A, X = ctx.saved_tensors
        upper, transpose, unitriangular = ctx.options
        gb = gA = None
        if gX is not None:
            gb = _solve_triangular(A if transpose else _mT(A), gX, upper == transpose, True, unitriangular)
            gA = -(X @ _mT(gb)) if transpose else -(gb @ _mT(X))
            gA = _tril_or_triu(gA, upper, 1 if unitriangular else 0)
        if gM is not None:
            gA = gM if gA is None else gA + gM
        if gb is None:
            # only the copy was used: torch's zeros for b
            gb = minitorch.zeros(1, dtype=A.dtype, device=A.device).expand(ctx.shapes[0])
        return _reduce_to(gb, ctx.shapes[0]), _reduce_to(gA, ctx.shapes[1]), None, None, None


def _triangular_solve(b, A, upper, transpose, unitriangular):
    for arg, t in (("b", b), ("A", A)):
        if t.dim() < 2:
            raise RuntimeError("torch.triangular_solve: Expected {} to have at least 2 dimensions, but it has {} "
                               "dimensions instead".format(arg, t.dim()))
    _check_solver_inputs("triangular_solve", b, A)
    return _TriangularSolveResult(*_apply(_TriangularSolveOp, "TriangularSolveBackward0", None,
                                          (b, A, upper, transpose, unitriangular), {}))


def triangular_solve(*args, **kwargs):
    """torch.triangular_solve (deprecated, with torch's warning once): (solution, cloned_coefficient) of
    A X = b (transpose: A^T X = b) for triangular A, and a copy of A."""
    v = _parse("triangular_solve", args, kwargs)
    _warn_once(_TRIANGULAR_SOLVE_DEPRECATED)
    return with_out("triangular_solve", v["out"], lambda: _triangular_solve(
        v["input"], v["A"], v["upper"], v["transpose"], v["unitriangular"]))


# ---- cholesky_solve, cholesky_inverse -------------------------------------------------------------------------

def _potrs(b, L, upper):
    # LAPACK potrs: L Y = b then L^T X = Y (upper: U^T Y = b then U X = Y)
    first = _C._linalg_solve_triangular(_mT(L) if upper else L, b, upper=False)
    return _C._linalg_solve_triangular(L if upper else _mT(L), first, upper=True)


class _CholeskySolve(Function):
    @staticmethod
    def forward(ctx, b, L, upper):
        X = _potrs(b, L, upper)
        ctx.upper = upper
        ctx.shapes = (tuple(b.shape), tuple(L.shape))
        ctx.save_for_backward(L, X)
        return X

    @staticmethod
    def backward(ctx, grad):
        # cholesky_solve_backward: gb = cholesky_solve(gX, L); with C = gb X^T + (gb X^T)^T,
        # gL = -C L (upper: -L C)
        L, X = ctx.saved_tensors
        gb = _cholesky_solve(grad, L, ctx.upper)
        gL = None
        if ctx.needs_input_grad[1]:
            common = gb @ _mT(X)
            common = common + _mT(common)
            gL = _reduce_to(-(L @ common) if ctx.upper else -(common @ L), ctx.shapes[1])
        return _reduce_to(gb, ctx.shapes[0]), gL, None


def _cholesky_solve(b, L, upper):
    return _apply(_CholeskySolve, "CholeskySolveBackward0", None, (b, L, upper), {})


def _checked_cholesky_solve(b, L, upper):
    if b.dim() < 2:
        raise RuntimeError("b should have at least 2 dimensions, but has {} dimensions instead".format(b.dim()))
    if L.dim() < 2:
        raise RuntimeError("u should have at least 2 dimensions, but has {} dimensions instead".format(L.dim()))
    _check_solver_inputs("cholesky_solve", b, L)
    return _cholesky_solve(b, L, upper)


def cholesky_solve(*args, **kwargs):
    """The solution X of A X = b given A's Cholesky factor (input2: L with A = L L^T, or U with A = U^T U
    when upper); batch dims broadcast."""
    v = _parse("cholesky_solve", args, kwargs)
    return with_out("cholesky_solve", v["out"], lambda: _checked_cholesky_solve(v["input"], v["input2"],
                                                                                v["upper"]))


class _CholeskyInverse(Function):
    @staticmethod
    def forward(ctx, L, upper):
        inverse = _potrs(_eye_like(L, L.shape[-1]).expand(L.shape), L, upper)
        ctx.upper = upper
        ctx.save_for_backward(L, inverse)
        return inverse

    @staticmethod
    def backward(ctx, grad):
        # cholesky_inverse_backward: C = inv (g + g^T) inv; gL = -C L (upper: -L C)
        L, inverse = ctx.saved_tensors
        common = inverse @ ((grad + _mT(grad)) @ inverse)
        return (-(L @ common) if ctx.upper else -(common @ L)), None


def _cholesky_inverse(L, upper):
    if L.dim() < 2:
        if L.device.type == "meta":
            # torch's meta function (squareCheckInputs)
            raise AssertionError("cholesky_inverse: The input tensor must have at least 2 dimensions, got {}".format(
                L.dim()))
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    if L.shape[-1] != L.shape[-2]:
        raise RuntimeError("cholesky_inverse: A must be batches of square matrices, but they are {} by {} matrices"
                           .format(L.shape[-2], L.shape[-1]))
    if L.dtype not in (minitorch.float32, minitorch.float64) and L.device.type != "meta":
        raise NotImplementedError('"cholesky_inverse_out_{}" not implemented for \'{}\''.format(
            "cpu" if L.device.type == "cpu" else "cuda", L.dtype._scalar_name))
    return _apply(_CholeskyInverse, "CholeskyInverseBackward0", None, (L, upper), {})


def cholesky_inverse(*args, **kwargs):
    """The inverse of A = L L^T (upper: U^T U) given its Cholesky factor."""
    v = _parse("cholesky_inverse", args, kwargs)
    return with_out("cholesky_inverse", v["out"], lambda: _cholesky_inverse(v["input"], v["upper"]))


# ---- Tensor methods -------------------------------------------------------------------------------------------

def _cholesky_method(self, *args, **kwargs):
    upper = _parse("cholesky", args, kwargs, _METHOD_SIGNATURES)["upper"]
    _warn_once(_CHOLESKY_DEPRECATED)
    return _torch_cholesky(self, upper)


def _triangular_solve_method(self, *args, **kwargs):
    v = _parse("triangular_solve", args, kwargs, _METHOD_SIGNATURES)
    _warn_once(_TRIANGULAR_SOLVE_DEPRECATED)
    return _triangular_solve(self, v["A"], v["upper"], v["transpose"], v["unitriangular"])


def _cholesky_solve_method(self, *args, **kwargs):
    v = _parse("cholesky_solve", args, kwargs, _METHOD_SIGNATURES)
    return _checked_cholesky_solve(self, v["input2"], v["upper"])


def _cholesky_inverse_method(self, *args, **kwargs):
    return _cholesky_inverse(self, _parse("cholesky_inverse", args, kwargs, _METHOD_SIGNATURES)["upper"])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, method, doc in [("cholesky", _cholesky_method, torch_cholesky.__doc__),
                              ("triangular_solve", _triangular_solve_method, triangular_solve.__doc__),
                              ("cholesky_solve", _cholesky_solve_method, cholesky_solve.__doc__),
                              ("cholesky_inverse", _cholesky_inverse_method, cholesky_inverse.__doc__)]:
        method.__name__ = name
        method.__doc__ = doc
        setattr(tensor_type, name, method)
