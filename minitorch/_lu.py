"""The LU family as torch has it: linalg.lu_factor / lu_factor_ex, linalg.lu, lu_unpack, linalg.lu_solve, the
deprecated torch.lu_solve and torch.lu (torch.functional's Python function), with their Tensor methods. The
numbers come from three private C ops (csrc/ops/linalg.c): _C._linalg_lu_factor_ex (LAPACK getrf's partial
pivoting on (*, m, n), 1-based int32 pivots), _C._linalg_lu_solve (getrs) and _C._linalg_lu_unpack_pivots
(the permutation matrices), which own torch's checks and messages. Each op records one node with torch's
name (LinalgLuFactorExBackward0, LinalgLuBackward0, LuUnpackBackward0, LinalgLuSolveBackward0) whose
backward is torch's formula (FunctionsManual.cpp: lu_factor_ex_backward, linalg_lu_backward,
lu_unpack_backward, linalg_lu_solve_LU and linalg_lu_solve's B part) over minitorch's ops, so it runs on
every device and under create_graph=True. Pivots, info and P have no gradient, as in torch."""

import minitorch
from minitorch import _C
from minitorch._composite import return_type, with_out
from minitorch._linalg import _mT, _reduce_to
from minitorch._triangular import _solve_triangular, _warn_once
from minitorch.autograd.function import Function, _apply

__all__ = ["lu_factor", "lu_factor_ex", "lu", "lu_unpack", "lu_solve", "torch_lu_solve", "torch_lu"]

_SIGNATURES = {
    "lu_factor": ["linalg_lu_factor(Tensor A, *, bool pivot=True, TensorList[2] out=None)"],
    "lu_factor_ex": ["linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False, "
                     "TensorList[3] out=None)"],
    "lu": ["linalg_lu(Tensor A, *, bool pivot=True, TensorList[3] out=None)"],
    "lu_unpack": ["lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True, *, "
                  "TensorList[3] out=None)"],
    "lu_solve": ["linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False, "
                 "Tensor out=None)"],
    "torch_lu_solve": ["lu_solve(Tensor input, Tensor LU_data, Tensor LU_pivots, *, Tensor out=None)"],
    "_lu_with_info": ["_lu_with_info(Tensor input, bool pivot=True, bool check_errors=True)"],
}
_METHOD_SIGNATURES = {
    "lu_solve": ["lu_solve(Tensor LU_data, Tensor LU_pivots)"],
}

_RESULT = {name: return_type(name) for name in (
    "linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu", "lu_unpack", "_lu_with_info")}

_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch "
    "release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\n"
    "should be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)")
_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed "
    "in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
    "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")


def _parse(name, args, kwargs, signatures=_SIGNATURES):
    _, values, _ = _C._parse_args(signatures[name], args, kwargs)
    return values


def _unpack_data(LU):
    # L (*, m, k) with its unit diagonal and U (*, k, n) of the packed factorisation, row-major as torch's
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    L = LU.narrow(-1, 0, k).tril(-1).contiguous()
    L.diagonal(0, -2, -1).fill_(1)
    return L, LU.narrow(-2, 0, k).triu().contiguous()


def _empty(like):
    return minitorch.empty(0, dtype=like.dtype, device=like.device)


# ---- linalg.lu and its backward -------------------------------------------------------------------------------

def _linalg_lu_backward(gL, gU, P, L, U, pivot):
    # linalg_lu_backward (FunctionsManual.cpp), real case: A = P L U with L m x k, U k x n
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = None
        if gL is not None:
            gA = (_mT(L) @ gL).tril(-1)
        if gU is not None:
            term = (gU @ _mT(U)).triu()
            gA = term if gA is None else gA + term
        gA = _solve_triangular(_mT(U), gA, False, False, False)
        gA = _solve_triangular(_mT(L), gA, True, True, True)
    elif m < n:
        # wide: A1 (the first k columns) as the square case, A2's part L^{-T} gU2
        U1 = U.narrow(-1, 0, k)
        gA = None
        if gL is not None:
            gA = _mT(L) @ gL
        if gU is not None:
            term = gU.triu() @ _mT(U)
            gA = -term if gA is None else gA - term
        gA = _solve_triangular(_mT(U1), gA.tril(-1), False, False, False)
        if gU is not None:
            gA = minitorch.cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = _solve_triangular(_mT(L), gA, True, True, True)
        if gU is None:
            gA = minitorch.cat([gA, minitorch.zeros_like(U.narrow(-1, k, n - k))], -1)
    else:
        # tall: A1 (the first k rows) as the square case, A2's part gL2 U^{-T}
        L1 = L.narrow(-2, 0, k)
        gA = None
        if gU is not None:
            gA = gU @ _mT(U)
        if gL is not None:
            term = _mT(L) @ gL.tril(-1)
            gA = -term if gA is None else gA - term
        gA = _solve_triangular(_mT(L1), gA.triu(), True, True, True)
        if gL is not None:
            gA = minitorch.cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
        gA = _solve_triangular(_mT(U), gA, False, False, False)
        if gL is None:
            gA = minitorch.cat([gA, minitorch.zeros_like(L.narrow(-2, k, m - k))], -2)
    return P @ gA if pivot else gA


class _LinalgLu(Function):
    @staticmethod
    def forward(ctx, A, pivot, extra):
        LU, pivots, _ = _C._linalg_lu_factor_ex(A, pivot=pivot, api="linalg.lu")
        P = _C._linalg_lu_unpack_pivots(LU, pivots, pivot)
        L, U = _unpack_data(LU)
        extra[0] = P
        ctx.pivot = pivot
        ctx.save_for_backward(P, L, U)
        return L, U

    @staticmethod
    def backward(ctx, gL, gU):
        P, L, U = ctx.saved_tensors
        return _linalg_lu_backward(gL, gU, P, L, U, ctx.pivot), None, None


def _linalg_lu(A, pivot):
    extra = [None]      # P, which has no gradient
    L, U = _apply(_LinalgLu, "LinalgLuBackward0", None, (A, pivot, extra), {})
    return extra[0], L, U


def lu(*args, **kwargs):
    """(P, L, U) with A = P L U for each m x n matrix of A: P the m x m permutation, L m x k unit lower
    triangular, U k x n upper triangular (k = min(m, n)); partial pivoting as LAPACK's getrf. pivot=False
    (no row exchanges, P empty) works on CUDA only, as in torch."""
    v = _parse("lu", args, kwargs)
    return with_out("linalg_lu", v["out"], lambda: _RESULT["linalg_lu"](*_linalg_lu(v["A"], v["pivot"])))


# ---- lu_factor, lu_factor_ex ---------------------------------------------------------------------------------

class _LuFactorEx(Function):
    @staticmethod
    def forward(ctx, A, pivot, check_errors, api, extra):
        LU, pivots, info = _C._linalg_lu_factor_ex(A, pivot=pivot, check_errors=check_errors, api=api)
        extra[0], extra[1] = pivots, info
        ctx.pivot = pivot
        ctx.save_for_backward(LU, pivots)
        return LU

    @staticmethod
    def backward(ctx, grad):
        # lu_factor_ex_backward: linalg_lu_backward of L's strictly lower and U's upper part of grad
        LU, pivots = ctx.saved_tensors
        m, n = LU.shape[-2], LU.shape[-1]
        k = min(m, n)
        P, L, U = _lu_unpack(LU, pivots, True, ctx.pivot)
        gL = grad.narrow(-1, 0, k).tril(-1)
        gU = grad.narrow(-2, 0, k).triu()
        return _linalg_lu_backward(gL, gU, P, L, U, ctx.pivot), None, None, None, None


def _lu_factor_ex(A, pivot, check_errors, api):
    extra = [None, None]    # pivots and info, which have no gradient
    LU = _apply(_LuFactorEx, "LinalgLuFactorExBackward0", None, (A, pivot, check_errors, api, extra), {})
    return LU, extra[0], extra[1]


def lu_factor(*args, **kwargs):
    """(LU, pivots) of each m x n matrix of A: L (unit diagonal implied) and U packed in LU, pivots the
    1-based int32 row exchanges (LAPACK's); a zero pivot raises RuntimeError (lu_factor_ex reports it)."""
    v = _parse("lu_factor", args, kwargs)
    return with_out("linalg_lu_factor", v["out"], lambda: _RESULT["linalg_lu_factor"](
        *_lu_factor_ex(v["A"], v["pivot"], True, "torch.linalg.lu_factor")[:2]))


def lu_factor_ex(*args, **kwargs):
    """(LU, pivots, info) of linalg.lu_factor: info is 0, or the 1-based index of the first zero pivot (an
    error only with check_errors=True)."""
    v = _parse("lu_factor_ex", args, kwargs)
    return with_out("linalg_lu_factor_ex", v["out"], lambda: _RESULT["linalg_lu_factor_ex"](
        *_lu_factor_ex(v["A"], v["pivot"], v["check_errors"], "torch.linalg.lu_factor_ex")))


# ---- lu_unpack ------------------------------------------------------------------------------------------------

class _LuUnpack(Function):
    @staticmethod
    def forward(ctx, LU_data, LU_pivots, unpack_data, unpack_pivots, extra):
        extra[0] = _C._linalg_lu_unpack_pivots(LU_data, LU_pivots, unpack_pivots)
        ctx.shape = tuple(LU_data.shape)
        if not unpack_data:
            return _empty(LU_data), _empty(LU_data)
        return _unpack_data(LU_data)

    @staticmethod
    def backward(ctx, gL, gU):
        # lu_unpack_backward: L's strictly lower and U's upper triangle, put back where LU packs them
        m, n = ctx.shape[-2], ctx.shape[-1]
        k = min(m, n)
        gL = gL.tril(-1) if gL is not None else None
        gU = gU.triu() if gU is not None else None
        if gL is None and gU is None:
            return None, None, None, None, None
        if m == n:
            gLU = gU if gL is None else (gL if gU is None else gL + gU)
        elif m < n:
            gU = gU if gU is not None else minitorch.zeros(1, dtype=gL.dtype, device=gL.device).expand(
                *ctx.shape[:-2], k, n)
            head = gU.narrow(-1, 0, k) if gL is None else gL + gU.narrow(-1, 0, k)
            gLU = minitorch.cat([head, gU.narrow(-1, k, n - k)], -1)
        else:
            gL = gL if gL is not None else minitorch.zeros(1, dtype=gU.dtype, device=gU.device).expand(
                *ctx.shape[:-2], m, k)
            head = gL.narrow(-2, 0, k) if gU is None else gL.narrow(-2, 0, k) + gU
            gLU = minitorch.cat([head, gL.narrow(-2, k, m - k)], -2)
        return gLU, None, None, None, None


def _lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots):
    extra = [None]      # P, which has no gradient
    L, U = _apply(_LuUnpack, "LuUnpackBackward0", None, (LU_data, LU_pivots, unpack_data, unpack_pivots, extra), {})
    return extra[0], L, U


def lu_unpack(*args, **kwargs):
    """(P, L, U) of a packed LU factorisation from linalg.lu_factor: A = P L U; unpack_data=False leaves L and
    U empty, unpack_pivots=False leaves P empty."""
    v = _parse("lu_unpack", args, kwargs)
    return with_out("lu_unpack", v["out"], lambda: _RESULT["lu_unpack"](*_lu_unpack(
        v["LU_data"], v["LU_pivots"], v["unpack_data"], v["unpack_pivots"])))


# ---- lu_solve -------------------------------------------------------------------------------------------------

def _lu_solve_LU_backward(gX, LU, pivots, X, left, adjoint):
    # linalg_lu_solve_LU (FunctionsManual.cpp), real case
    P, L, U = _lu_unpack(LU, pivots, True, left == adjoint)
    if left != adjoint:
        # gR = U^{-T} op2(-gX) op2(X)^T; gL = (L^{-T} gR U^T).tril(-1)
        gR = _solve_triangular(_mT(U), -(gX @ _mT(X)) if left else -(_mT(gX) @ X), False, True, False)
        gL = _solve_triangular(_mT(L), gR @ _mT(U), True, True, True).tril(-1)
        return gL + gR.triu()
    # gR = -P^T op3(X) op1(op2(gX)) P L^{-T}; gU = (L^T gR U^{-T}).triu()
    gR = -((_mT(P) @ (X @ _mT(gX) if left else _mT(X) @ gX)) @ P)
    gR = _solve_triangular(_mT(L), gR, True, False, True)
    gU = _solve_triangular(_mT(U), _mT(L) @ gR, False, False, False).triu()
    return gR.tril(-1) + gU


class _LuSolve(Function):
    @staticmethod
    def forward(ctx, LU, pivots, B, left, adjoint):
        X = _C._linalg_lu_solve(LU, pivots, B, left=left, adjoint=adjoint)
        ctx.options = (left, adjoint)
        ctx.shapes = (tuple(LU.shape), tuple(B.shape))
        ctx.save_for_backward(LU, pivots, X)
        return X

    @staticmethod
    def backward(ctx, grad):
        # gB = lu_solve(LU, pivots, gX, left, !adjoint); gLU: linalg_lu_solve_LU; each summed back over the
        # batch dims that broadcasting added
        LU, pivots, X = ctx.saved_tensors
        left, adjoint = ctx.options
        gLU = gB = None
        if ctx.needs_input_grad[2]:
            gB = _reduce_to(_lu_solve(LU, pivots, grad, left, not adjoint), ctx.shapes[1])
        if ctx.needs_input_grad[0]:
            gLU = _reduce_to(_lu_solve_LU_backward(grad, LU, pivots, X, left, adjoint), ctx.shapes[0])
        return gLU, None, gB, None, None


def _lu_solve(LU, pivots, B, left, adjoint):
    return _apply(_LuSolve, "LinalgLuSolveBackward0", None, (LU, pivots, B, left, adjoint), {})


def lu_solve(*args, **kwargs):
    """The solution X of A X = B (adjoint: A^T X = B; left=False: X A = B or X A^T = B) given A's (LU, pivots)
    from linalg.lu_factor; batch dims of LU and B broadcast."""
    v = _parse("lu_solve", args, kwargs)
    return with_out("linalg_lu_solve", v["out"], lambda: _lu_solve(v["LU"], v["pivots"], v["B"], v["left"],
                                                                    v["adjoint"]))


def torch_lu_solve(*args, **kwargs):
    """torch.lu_solve (deprecated, with torch's warning once): linalg.lu_solve(LU_data, LU_pivots, input)."""
    v = _parse("torch_lu_solve", args, kwargs)
    _warn_once(_LU_SOLVE_DEPRECATED)
    return with_out("linalg_lu_solve", v["out"], lambda: _lu_solve(v["LU_data"], v["LU_pivots"], v["input"], True,
                                                                    False))


# ---- torch.lu (torch.functional) -------------------------------------------------------------------------------

def _lu_with_info(A, pivot, get_infos):
    # torch.lu and Tensor.lu call torch._lu_with_info(A, pivot=pivot, check_errors=not get_infos), which
    # warns and returns linalg.lu_factor_ex(A, pivot) without checking for errors
    v = _parse("_lu_with_info", (A,), {"pivot": pivot, "check_errors": not get_infos})
    _warn_once(_LU_DEPRECATED)
    return _RESULT["_lu_with_info"](*_lu_factor_ex(v["input"], v["pivot"], False, "torch.linalg.lu_factor_ex"))


def torch_lu(*args, **kwargs):
    """torch.lu (deprecated, with torch's warning once): (LU, pivots) of linalg.lu_factor_ex, and its info
    with get_infos=True; no error for a zero pivot. out: a tuple of 2 (3 with get_infos) tensors written
    with resize_as_ and copy_."""
    from minitorch.functional import _dispatch_flag

    # torch.lu is a boolean_dispatch on get_infos (argument 2) between two Python functions
    infos = _dispatch_flag(args, kwargs, "get_infos", 2)
    return (_lu_with_infos if infos else _lu_no_infos)(*args, **kwargs)


def _lu(A, pivot=True, get_infos=False, out=None):
    result = _lu_with_info(A, pivot, get_infos)
    if out is None:
        return result if get_infos else (result[0], result[1])
    # torch.functional's _check_list_size
    if len(out) - (1 if get_infos else 0) != 2:
        raise TypeError("expected tuple of {} elements but got {}".format(2 + int(get_infos), len(out)))
    if not isinstance(out, (tuple, list)):
        raise TypeError("argument 'out' must be tuple of Tensors, not {}".format(type(out).__name__))
    for i in range(len(out)):
        out[i].resize_as_(result[i]).copy_(result[i])
    return out


def _lu_no_infos(A, pivot=True, get_infos=False, out=None):
    return _lu(A, pivot, get_infos, out)


def _lu_with_infos(A, pivot=True, get_infos=False, out=None):
    return _lu(A, pivot, get_infos, out)


torch_lu.__name__ = torch_lu.__qualname__ = "lu"


# ---- Tensor methods -------------------------------------------------------------------------------------------

def _lu_method(self, pivot=True, get_infos=False):
    # torch's Tensor.lu unpacks the result: a plain tuple either way
    result = _lu_with_info(self, pivot, get_infos)
    return tuple(result) if get_infos else (result[0], result[1])


def _lu_solve_method(self, *args, **kwargs):
    v = _parse("lu_solve", args, kwargs, _METHOD_SIGNATURES)
    _warn_once(_LU_SOLVE_DEPRECATED)
    return _lu_solve(v["LU_data"], v["LU_pivots"], self, True, False)


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, method, doc in [("lu", _lu_method, torch_lu.__doc__),
                              ("lu_solve", _lu_solve_method, torch_lu_solve.__doc__)]:
        method.__name__ = name
        method.__doc__ = doc
        setattr(tensor_type, name, method)
