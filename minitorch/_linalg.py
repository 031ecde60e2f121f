"""The linear algebra of torch.linalg a learner meets, and its top-level and Tensor forms: det, slogdet,
logdet, inv / inverse / inv_ex, solve / solve_ex, svd / svdvals / torch.svd, qr, eigh / eigvalsh,
norm / matrix_norm, matrix_rank and pinv. The numbers come from the private C ops (_C._linalg_det, _linalg_slogdet,
_linalg_inv_ex, _linalg_solve_ex, _linalg_svd, _linalg_qr, _linalg_eigh; csrc/ops/linalg.c), which own
torch's checks and messages; this module parses the public calls with torch's signatures, records one node
per op with torch's name (LinalgDetBackward0, LinalgSlogdetBackward0, LinalgInvExBackward0,
LinalgSolveExBackward0, LinalgSvdBackward0, LinalgQrBackward0, LinalgEighBackward0, LinalgPinvBackward0)
and writes their backward with torch's formulas (FunctionsManual.cpp: linalg_det_backward,
slogdet_backward, linalg_solve_backward, svd_backward, linalg_qr_backward, linalg_eig_backward,
pinv_backward) over minitorch's ops, so they run on every device and create_graph=True works. The ops
torch composes (logdet, torch.svd, the norms, matrix_rank) are the same compositions, so they record
torch's nodes (WhereBackward0, TransposeBackward0, SumBackward1, AmaxBackward0, LinalgVectorNormBackward0). The results
are the named tuples minitorch.return_types.linalg_slogdet, slogdet, linalg_inv_ex, linalg_solve_ex,
linalg_svd, svd, linalg_qr and linalg_eigh. install() puts the methods on Tensor."""


import minitorch
from minitorch import _C
from minitorch._composite import return_type, with_out
from minitorch.autograd.function import Function, _apply

__all__ = ["det", "slogdet", "logdet", "inv", "inv_ex", "inverse", "solve", "solve_ex", "svd", "svdvals",
           "torch_svd", "qr", "eigh", "eigvalsh", "norm", "matrix_norm", "matrix_rank", "pinv", "trace",
           "LinAlgError"]

LinAlgError = _C._LinAlgError
LinAlgError.__module__ = "minitorch._C"

_SIGNATURES = {
    "det": ["linalg_det(Tensor A, *, Tensor out=None)"],
    "torch_det": ["det(Tensor input)"],
    "slogdet": ["linalg_slogdet(Tensor A, *, TensorList[2] out=None)"],
    "torch_slogdet": ["slogdet(Tensor input, *, TensorList[2] out=None)"],
    "logdet": ["logdet(Tensor input)"],
    "trace": ["trace(Tensor input)"],
    "inv": ["linalg_inv(Tensor A, *, Tensor out=None)"],
    "inverse": ["inverse(Tensor input, *, Tensor out=None)"],
    "inv_ex": ["linalg_inv_ex(Tensor A, *, bool check_errors=False, TensorList[2] out=None)"],
    "solve": ["linalg_solve(Tensor A, Tensor B, *, bool left=True, Tensor out=None)"],
    "solve_ex": ["linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False, "
                 "TensorList[2] out=None)"],
    "svd": ["linalg_svd(Tensor A, bool full_matrices=True, *, c10::string_view? driver=None, "
            "TensorList[3] out=None)"],
    "svdvals": ["linalg_svdvals(Tensor A, *, c10::string_view? driver=None, Tensor out=None)"],
    "torch_svd": ["svd(Tensor input, bool some=True, bool compute_uv=True, *, TensorList[3] out=None)"],
    "qr": ["linalg_qr(Tensor A, c10::string_view mode=\"reduced\", *, TensorList[2] out=None)"],
    "eigh": ["linalg_eigh(Tensor A, c10::string_view UPLO=\"L\", *, TensorList[2] out=None)"],
    "eigvalsh": ["linalg_eigvalsh(Tensor A, c10::string_view UPLO=\"L\", *, Tensor out=None)"],
    "matrix_norm": ["linalg_matrix_norm(Tensor input, Scalar ord, IntArrayRef dim={-2,-1}, bool keepdim=False, *, "
                    "ScalarType? dtype=None, Tensor out=None)",
                    "linalg_matrix_norm(Tensor input, c10::string_view ord=\"fro\", IntArrayRef dim={-2,-1}, "
                    "bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)"],
    "norm": ["linalg_norm(Tensor input, Scalar? ord=None, IntArrayRef[1]? dim=None, bool keepdim=False, *, "
             "ScalarType? dtype=None, Tensor out=None)",
             "linalg_norm(Tensor input, c10::string_view ord, IntArrayRef[1]? dim=None, bool keepdim=False, *, "
             "ScalarType? dtype=None, Tensor out=None)"],
    "matrix_rank": ["linalg_matrix_rank(Tensor input, *, double? atol=None, double? rtol=None, bool hermitian=False, "
                    "Tensor out=None)",
                    "linalg_matrix_rank(Tensor input, double tol, bool hermitian=False, *, Tensor out=None)"],
    "pinv": ["linalg_pinv(Tensor input, *, double? atol=None, double? rtol=None, bool hermitian=False, "
             "Tensor out=None)",
             "linalg_pinv(Tensor input, double rcond, bool hermitian=False, *, Tensor out=None)"],
}
_METHOD_SIGNATURES = {
    "det": ["det()"],
    "slogdet": ["slogdet()"],
    "logdet": ["logdet()"],
    "trace": ["trace()"],
    "inverse": ["inverse()"],
    "svd": ["svd(bool some=True, bool compute_uv=True)"],
}


def _parse(name, args, kwargs):
    _, values, _ = _C._parse_args(_SIGNATURES[name], args, kwargs)
    return values


_RESULT = {name: return_type(name) for name in (
    "linalg_slogdet",
    "slogdet",
    "linalg_inv_ex",
    "linalg_solve_ex",
    "linalg_svd",
    "svd",
    "linalg_qr",
    "linalg_eigh",
)}


# ---- helpers the backward formulas share -------------------------------------------------------------------

def _mT(x):
    return x.transpose(-2, -1)


def _eye_like(x, n):
    return minitorch.eye(n, dtype=x.dtype, device=x.device)


def _diag_embed(v):
    return v.unsqueeze(-1) * _eye_like(v, v.shape[-1])


def _diagonal(m):
    return (m * _eye_like(m, m.shape[-1])).sum(-1)


def _reduce_to(grad, shape):
    """grad summed over the dims that broadcasting gave it beyond `shape` (leading dims and size-1 dims)."""
    lead = grad.dim() - len(shape)
    if lead > 0:
        grad = grad.sum(list(range(lead)))
    dims = [d for d, (want, got) in enumerate(zip(shape, grad.shape)) if want == 1 and got != 1]
    return grad.sum(dims, keepdim=True) if dims else grad


def _needs_grad(*tensors):
    return minitorch.is_grad_enabled() and any(t.requires_grad for t in tensors)


# ---- det, slogdet, logdet ----------------------------------------------------------------------------------

def _adjugate_transpose_times(A, d):
    # d * A^{-T}, per matrix (torch's linalg_det_backward / slogdet_backward for an invertible A)
    n = A.shape[-1]
    return _solve(_mT(A), d.unsqueeze(-1).unsqueeze(-1) * _eye_like(A, n), True, False, True)[0]


class _Det(Function):
    @staticmethod
    def forward(ctx, A):
        result = _C._linalg_det(A)
        ctx.save_for_backward(A, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        # linalg_det_backward: grad * det * A^{-T}; at a singular A (det 0) torch's gradient is 0 (the
        # solve's infinities are not let through)
        A, result = ctx.saved_tensors
        gA = _adjugate_transpose_times(A, grad * result)
        singular = result == 0
        if A.device.type != "meta" and bool(singular.any()):
            gA = minitorch.where(singular.unsqueeze(-1).unsqueeze(-1), minitorch.zeros_like(gA), gA)
        return gA


class _Slogdet(Function):
    @staticmethod
    def forward(ctx, A, logdet):
        sign, logabsdet = _C._linalg_slogdet(A, logdet=logdet)
        ctx.save_for_backward(A)
        return sign, logabsdet

    @staticmethod
    def backward(ctx, gsign, glogabsdet):
        (A,) = ctx.saved_tensors
        return _adjugate_transpose_times(A, glogabsdet), None


def _det(A):
    return _apply(_Det, "LinalgDetBackward0", None, (A,), {})


def _slogdet(A, logdet=False):
    return _apply(_Slogdet, "LinalgSlogdetBackward0", None, (A, logdet), {})


def det(*args, **kwargs):
    """The determinant of each square matrix of A (batches: (*, n, n)); a 0 x 0 matrix has determinant 1."""
    v = _parse("det", args, kwargs)
    return with_out("linalg_det", v["out"], lambda: _det(v["A"]))


def torch_det(*args, **kwargs):
    """Alias of linalg.det()."""
    v = _parse("torch_det", args, kwargs)
    return _det(v["input"])


def slogdet(*args, **kwargs):
    """(sign, logabsdet) of each square matrix of A: det(A) = sign * exp(logabsdet); sign 0 and -inf for a
    singular matrix."""
    v = _parse("slogdet", args, kwargs)
    return with_out("linalg_slogdet", v["out"], lambda: _RESULT["linalg_slogdet"](*_slogdet(v["A"])))


def torch_slogdet(*args, **kwargs):
    """Alias of linalg.slogdet() (its result is return_types.slogdet)."""
    v = _parse("torch_slogdet", args, kwargs)
    return with_out("slogdet", v["out"], lambda: _RESULT["slogdet"](*_slogdet(v["input"])))


def _logdet(A):
    sign, logabsdet = _slogdet(A, True)
    return minitorch.where(sign == -1.0, float("nan"), logabsdet)


def logdet(*args, **kwargs):
    """log(det(A)) of each square matrix: NaN where the determinant is negative, -inf where it is 0."""
    return _logdet(_parse("logdet", args, kwargs)["input"])


# ---- inv, solve ----------------------------------------------------------------------------------------------

class _InvEx(Function):
    @staticmethod
    def forward(ctx, A, check_errors, ex, info):
        inverse, info[0] = _C._linalg_inv_ex(A, check_errors=check_errors, ex=ex)
        ctx.save_for_backward(inverse)
        return inverse

    @staticmethod
    def backward(ctx, grad):
        (inverse,) = ctx.saved_tensors
        inverse_t = _mT(inverse)
        return -(inverse_t @ (grad @ inverse_t)), None, None, None


def _inv_ex(A, check_errors, ex):
    info = [None]   # forward's second result, which has no gradient (torch's info has no grad_fn)
    inverse = _apply(_InvEx, "LinalgInvExBackward0", None, (A, check_errors, ex, info), {})
    return inverse, info[0]


def inv(*args, **kwargs):
    """The inverse of each square matrix of A (LU with partial pivoting); a singular matrix raises
    minitorch.linalg.LinAlgError naming its first zero pivot."""
    v = _parse("inv", args, kwargs)
    return with_out("linalg_inv", v["out"], lambda: _inv_ex(v["A"], True, False)[0])


def inverse(*args, **kwargs):
    """Alias of linalg.inv()."""
    v = _parse("inverse", args, kwargs)
    return with_out("inverse", v["out"], lambda: _inv_ex(v["input"], True, False)[0])


def inv_ex(*args, **kwargs):
    """(inverse, info) of each square matrix of A: info is 0, or the 1-based index of the first zero pivot
    of a singular matrix (an error only with check_errors=True)."""
    v = _parse("inv_ex", args, kwargs)
    return with_out("linalg_inv_ex", v["out"],
                    lambda: _RESULT["linalg_inv_ex"](*_inv_ex(v["A"], v["check_errors"], True)))


class _SolveEx(Function):
    @staticmethod
    def forward(ctx, A, B, left, check_errors, ex, info):
        result, info[0] = _C._linalg_solve_ex(A, B, left=left, check_errors=check_errors, ex=ex)
        ctx.left = left
        # torch's linalg_solve_is_vector_rhs
        ctx.vector = B.dim() == 1 or (A.dim() - 1 == B.dim() and tuple(B.shape) == tuple(A.shape[:-1]))
        ctx.save_for_backward(A, B, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        # linalg_solve_backward: gB = A^{-T} gX (left) or gX A^{-T}; gA = -gB X^T or -X^T gB, each summed
        # back over the batch dims that broadcasting added
        A, B, X = ctx.saved_tensors
        if ctx.vector:
            grad = grad.unsqueeze(-1)
            X = X.unsqueeze(-1)
        gB = _solve(_mT(A), grad, ctx.left, False, True)[0]
        gA = -(gB @ _mT(X)) if ctx.left else -(_mT(X) @ gB)
        if ctx.vector:
            gB = gB.squeeze(-1)
        return _reduce_to(gA, A.shape), _reduce_to(gB, B.shape), None, None, None, None


def _solve(A, B, left, check_errors, ex):
    info = [None]
    result = _apply(_SolveEx, "LinalgSolveExBackward0", None, (A, B, left, check_errors, ex, info), {})
    return result, info[0]


def solve(*args, **kwargs):
    """The solution X of A X = B (left=False: X A = B) for square A (*, n, n) and B (*, n, k), or B a vector
    (*, n) when it is 1-D or has A's batch shape; batch dims broadcast. A singular A raises
    minitorch.linalg.LinAlgError."""
    v = _parse("solve", args, kwargs)
    return with_out("linalg_solve", v["out"], lambda: _solve(v["A"], v["B"], v["left"], True, False)[0])


def solve_ex(*args, **kwargs):
    """(result, info) of linalg.solve: info is 0, or the first zero pivot's 1-based index of a singular A
    (an error only with check_errors=True)."""
    v = _parse("solve_ex", args, kwargs)
    return with_out("linalg_solve_ex", v["out"], lambda: _RESULT["linalg_solve_ex"](
        *_solve(v["A"], v["B"], v["left"], v["check_errors"], True)))


# ---- svd ------------------------------------------------------------------------------------------------------

def _svd_backward(gU, gS, gVh, U, S, Vh, full_matrices):
    # svd_backward (FunctionsManual.cpp), real case
    m, n = U.shape[-2], Vh.shape[-1]
    k = S.shape[-1]
    if full_matrices:
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = gU.narrow(-1, 0, k) if gU is not None else None
        gVh = gVh.narrow(-2, 0, k) if gVh is not None else None
    if gU is None and gVh is None:
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)) @ Vh
    V = _mT(Vh)
    gV = _mT(gVh) if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E = E + _eye_like(E, k)       # the diagonal, 0 so far, set to 1
    gA = None
    if gU is not None:
        UhgU = _mT(U) @ gU
        gA = (UhgU - _mT(UhgU)) * S.unsqueeze(-2)
    if gV is not None:
        VhgV = _mT(V) @ gV
        term = S.unsqueeze(-1) * (VhgV - _mT(VhgV))
        gA = term if gA is None else gA + term
    gA = gA / E
    if gS is not None:
        gA = gA + _diag_embed(gS)
    if m > n and gU is not None:
        gA = U @ gA
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U @ (_mT(U) @ gUSinv)
        return gA @ Vh
    if m < n and gV is not None:
        gA = gA @ Vh
        gVSinv = gV / S.unsqueeze(-2)
        gA = gA + _mT(gVSinv) - (_mT(gVSinv) @ V) @ Vh
        return U @ gA
    return U @ (gA @ Vh) if m >= n else (U @ gA) @ Vh


class _Svd(Function):
    @staticmethod
    def forward(ctx, A, full_matrices, compute_uv):
        U, S, Vh = _C._linalg_svd(A, full_matrices, compute_uv)
        ctx.full_matrices = full_matrices
        ctx.save_for_backward(U, S, Vh)
        # all three are the node's outputs even for svdvals (as torch's _linalg_svd), so that the saved
        # U and Vh keep their history for a double backward
        return U, S, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        U, S, Vh = ctx.saved_tensors
        return _svd_backward(gU, gS, gVh, U, S, Vh, ctx.full_matrices), None, None


def _svd(A, full_matrices):
    return _apply(_Svd, "LinalgSvdBackward0", None, (A, full_matrices, True), {})


def _svdvals(A):
    if _needs_grad(A):
        return _apply(_Svd, "LinalgSvdBackward0", None, (A, False, True), {})[1]
    return _C._linalg_svd(A, False, False)[1]


def svd(*args, **kwargs):
    """(U, S, Vh) with A = U diag(S) Vh: S descending; full_matrices=False keeps min(m, n) columns of U and
    rows of Vh. The signs of singular vectors are arbitrary (as in torch, which takes LAPACK's)."""
    v = _parse("svd", args, kwargs)
    return with_out("linalg_svd", v["out"], lambda: _RESULT["linalg_svd"](*_svd(v["A"], v["full_matrices"])))


def svdvals(*args, **kwargs):
    """The singular values of each matrix of A, descending."""
    v = _parse("svdvals", args, kwargs)
    return with_out("linalg_svdvals", v["out"], lambda: _svdvals(v["A"]))


def _torch_svd(input, some, compute_uv):
    if input.dim() < 2:
        raise RuntimeError("linalg.svd: input should have at least 2 dimensions, but has {} dimensions "
                           "instead".format(input.dim()))
    if not compute_uv:
        S = _svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        U = minitorch.zeros(batch + (m, m), dtype=input.dtype, device=input.device)
        V = minitorch.zeros(batch + (n, n), dtype=input.dtype, device=input.device)
        return _RESULT["svd"](U, S, V)
    U, S, Vh = _svd(input, not some)
    return _RESULT["svd"](U, S, _mT(Vh))


def torch_svd(*args, **kwargs):
    """torch.svd: (U, S, V) with A = U diag(S) V^T (V, not Vh); some=False gives the full U and V;
    compute_uv=False gives zero U and V."""
    v = _parse("torch_svd", args, kwargs)
    return with_out("svd", v["out"], lambda: _torch_svd(v["input"], v["some"], v["compute_uv"]))


# ---- qr -------------------------------------------------------------------------------------------------------

def _qr_backward_square(gQ, gR, Q, R):
    # m >= n: gA = (gQ + Q copyltu(M)) R^{-T} with M = R gR^T - gQ^T Q
    M = R @ _mT(gR) - _mT(gQ) @ Q
    low = M.tril(-1)
    sym = low + _mT(low) + _diag_embed(_diagonal(M))
    return _solve(_mT(R), gQ + Q @ sym, False, False, True)[0]


class _Qr(Function):
    @staticmethod
    def forward(ctx, A, mode):
        Q, R = _C._linalg_qr(A, mode)
        ctx.mode = mode
        ctx.save_for_backward(A, Q, R)
        return Q, R

    @staticmethod
    def backward(ctx, gQ, gR):
        A, Q, R = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                               "through linalg.qr.")
        m, n = A.shape[-2], A.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                               "nrows > ncols.")
        if gQ is None:
            gQ = minitorch.zeros_like(Q)
        if gR is None:
            gR = minitorch.zeros_like(R)
        if m >= n:
            return _qr_backward_square(gQ, gR, Q, R), None
        # A = Q [X | Y], R = [U | V]: X's part as a square QR with gQ + Y gV^T, Y's part Q gV
        Y = A.narrow(-1, m, n - m)
        U, gU, gV = R.narrow(-1, 0, m), gR.narrow(-1, 0, m), gR.narrow(-1, m, n - m)
        gX = _qr_backward_square(gQ + Y @ _mT(gV), gU, Q, U)
        return minitorch.cat([gX, Q @ gV], -1), None


def qr(*args, **kwargs):
    """(Q, R) with A = Q R, Q with orthonormal columns and R upper triangular (Householder reflections, R's
    diagonal signs as LAPACK's); mode 'reduced' (min(m, n) columns), 'complete' (Q m x m) or 'r' (Q empty)."""
    v = _parse("qr", args, kwargs)
    return with_out("linalg_qr", v["out"], lambda: _RESULT["linalg_qr"](
        *_apply(_Qr, "LinalgQrBackward0", None, (v["A"], v["mode"]), {})))


# ---- eigh -----------------------------------------------------------------------------------------------------

def _eigh_backward(gL, gV, L, V):
    # linalg_eig_backward for a Hermitian A: V (diag(gL) + skew(V^T gV) / (2 E)) V^T, E_ij = L_j - L_i: the
    # gradient is symmetric, as torch's (the derivative along symmetric directions)
    n = L.shape[-1]
    if gV is None:
        return (V * gL.unsqueeze(-2)) @ _mT(V)
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    eye = _eye_like(E, n)
    E = E + eye
    VhgV = _mT(V) @ gV
    inner = ((VhgV - _mT(VhgV)) * 0.5) / E
    inner = inner * (1 - eye)
    if gL is not None:
        inner = inner + _diag_embed(gL)
    return V @ (inner @ _mT(V))


class _Eigh(Function):
    @staticmethod
    def forward(ctx, A, UPLO):
        L, V = _C._linalg_eigh(A, UPLO, True)
        ctx.save_for_backward(L, V)
        return L, V         # both outputs even for eigvalsh, so that the saved V keeps its history

    @staticmethod
    def backward(ctx, gL, gV):
        L, V = ctx.saved_tensors
        return _eigh_backward(gL, gV, L, V), None, None


def eigh(*args, **kwargs):
    """(eigenvalues, eigenvectors) of each symmetric matrix of A, read from its lower (UPLO='L') or upper
    triangle: eigenvalues ascending, eigenvectors the orthonormal columns (signs arbitrary, as in torch)."""
    v = _parse("eigh", args, kwargs)
    return with_out("linalg_eigh", v["out"], lambda: _RESULT["linalg_eigh"](
        *_apply(_Eigh, "LinalgEighBackward0", None, (v["A"], v["UPLO"]), {})))


def eigvalsh(*args, **kwargs):
    """The eigenvalues of each symmetric matrix of A, ascending."""
    v = _parse("eigvalsh", args, kwargs)
    return with_out("linalg_eigvalsh", v["out"], lambda: _eigvalsh(v["A"], v["UPLO"]))


def _eigvalsh(A, UPLO):
    if _needs_grad(A):
        return _apply(_Eigh, "LinalgEighBackward0", None, (A, UPLO), {})[0]
    return _C._linalg_eigh(A, UPLO, False)[0]


# ---- norms, rank, pinv ----------------------------------------------------------------------------------------

def _matrix_norm(A, ord, dim, keepdim, dtype):
    fn = "linalg.matrix_norm"
    # torch checks the order first
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError("{}: Order {} not supported.".format(fn, ord))
    elif abs(ord) not in (1, 2, float("inf")):
        raise RuntimeError("{}: Order {} not supported.".format(fn, _format_ord(ord)))
    if A.dim() < 2:
        raise RuntimeError("{}: The input tensor A must have at least 2 dimensions.".format(fn))
    # the singular values' orders want float32 or float64 (the SVD's LAPACK dtypes)
    _check_floating(A, fn, allow_low_precision=ord != "nuc" and (isinstance(ord, str) or abs(ord) != 2))
    if len(dim) != 2:
        raise RuntimeError("{}: dim must be a 2-tuple. Got {}".format(fn, " ".join(str(d) for d in dim)))
    A.size(dim[0]), A.size(dim[1])      # torch's IndexError for a dim out of range
    d0, d1 = dim[0] % A.dim(), dim[1] % A.dim()
    if d0 == d1:
        raise RuntimeError("{}: dims must be different. Got ({}, {})".format(fn, dim[0], dim[1]))
    if dtype is not None:
        A = A.to(dtype)
    if ord == "fro":
        return minitorch.linalg.vector_norm(A, 2, (d0, d1), keepdim)
    if ord == "nuc" or abs(ord) == 2:
        # the singular values of the matrices at dims (d0, d1), moved last
        S = _svdvals(A.movedim((d0, d1), (-2, -1)))
        if ord == "nuc":
            result = S.sum(-1)
        else:
            result = S.amax(-1) if ord > 0 else S.amin(-1)
        if keepdim:
            for d in sorted((d0, d1)):
                result = result.unsqueeze(d)
        return result
    # torch's order: the 1-norm of each column (rows for inf), then the max (min) of those
    inner, outer = (d0, d1) if abs(ord) == 1 else (d1, d0)
    if ord > 0 and A.shape[outer] == 0:
        # the largest of no sums: torch's zeros, made without a node (amax itself refuses an empty dim)
        shape = [1 if i in (d0, d1) else n for i, n in enumerate(A.shape) if keepdim or i not in (d0, d1)]
        return minitorch.zeros(shape, dtype=A.dtype, device=A.device)
    if not keepdim and inner < outer:
        outer -= 1
    sums = minitorch.linalg.vector_norm(A, 1, (inner,), keepdim)
    return sums.amax(outer, keepdim=keepdim) if ord > 0 else sums.amin(outer, keepdim=keepdim)


def _check_floating(A, fn, allow_low_precision=True):
    # ATen's checkFloatingOrComplex
    if not A.dtype.is_floating_point:
        raise RuntimeError("{}: Expected a floating point or complex tensor as input. Got {}".format(
            fn, _type_name(A.dtype)))
    if not allow_low_precision and A.dtype in (minitorch.float16, minitorch.bfloat16):
        raise RuntimeError("{}: Low precision dtypes not supported. Got {}".format(fn, _type_name(A.dtype)))


def _format_ord(ord):
    # as C++ streams a double: 3, 2.5, inf
    return "{:g}".format(float(ord))


def _type_name(dtype):
    return dtype._scalar_name


def matrix_norm(*args, **kwargs):
    """The ord-norm of each matrix at dims `dim`: 'fro' (default), 'nuc' (sum of singular values), 2 / -2
    (largest / smallest singular value), 1 / -1 (largest / smallest column sum of |A|), inf / -inf (rows)."""
    _, v, _ = _C._parse_args(_SIGNATURES["matrix_norm"], args, kwargs)
    return with_out("linalg_matrix_norm", v["out"], lambda: _matrix_norm(v["input"], v["ord"], list(v["dim"]),
                                                                          v["keepdim"], v["dtype"]))


def _norm(A, ord, dim, keepdim, dtype):
    # torch's linalg_norm: a matrix norm for ord given with two dims (or a 2-D input without dim), else a
    # vector norm (ord None: the 2-norm of all the elements, the Frobenius norm)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. Got {}".format(
                list(dim)))
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                           "Got {}D.".format(A.dim()))
    if isinstance(ord, str) or (ord is not None and ((dim is not None and len(dim) == 2) or
                                                     (dim is None and A.dim() == 2))):
        return _matrix_norm(A, ord, list(dim) if dim is not None else [0, 1], keepdim, dtype)
    return minitorch.linalg.vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def norm(*args, **kwargs):
    """The matrix norm (ord a string, or a number with two dims or a 2-D input: see matrix_norm) or the
    vector norm (see vector_norm; ord None: the 2-norm of the elements over dim, all by default)."""
    _, v, _ = _C._parse_args(_SIGNATURES["norm"], args, kwargs)
    dim = v["dim"]
    return with_out("linalg_norm", v["out"], lambda: _norm(
        v["input"], v["ord"], list(dim) if dim is not None else None, v["keepdim"], v["dtype"]))


def _matrix_rank(A, atol, rtol, hermitian):
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A.dtype not in (minitorch.float32, minitorch.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    with minitorch.no_grad():
        S = eigvalsh(A).abs() if hermitian else _svdvals(A)
        if rtol is None:
            eps = 1.1920928955078125e-07 if A.dtype == minitorch.float32 else 2.220446049250313e-16
            rtol = 0.0 if atol is not None and atol > 0 else eps * max(A.shape[-2], A.shape[-1])
        atol = 0.0 if atol is None else atol
        if S.shape[-1] == 0:
            return minitorch.zeros(tuple(A.shape[:-2]), dtype=minitorch.int64, device=A.device)
        smax = S.amax(-1, keepdim=True)
        tol = minitorch.clamp(smax * rtol, min=atol)
        return (S > tol).sum(-1)


def matrix_rank(*args, **kwargs):
    """The number of singular values (|eigenvalues| with hermitian=True) above max(atol, rtol * the largest);
    by default rtol is eps * max(m, n)."""
    index, v, _ = _C._parse_args(_SIGNATURES["matrix_rank"], args, kwargs)
    atol, rtol = (v["tol"], 0.0) if index == 1 else (v["atol"], v["rtol"])
    return with_out("linalg_matrix_rank", v["out"],
                    lambda: _matrix_rank(v["input"], atol, rtol, v["hermitian"]))


class _Pinv(Function):
    @staticmethod
    def forward(ctx, A, atol, rtol):
        U, S, Vh = _C._linalg_svd(A, False, True)
        if rtol is None:
            eps = 1.1920928955078125e-07 if A.dtype == minitorch.float32 else 2.220446049250313e-16
            rtol = 0.0 if atol is not None and atol > 0 else eps * max(A.shape[-2], A.shape[-1])
        atol = 0.0 if atol is None else atol
        if S.shape[-1] == 0:
            P = minitorch.zeros(tuple(A.shape[:-2]) + (A.shape[-1], A.shape[-2]), dtype=A.dtype, device=A.device)
        else:
            tol = minitorch.clamp(S.amax(-1, keepdim=True) * rtol, min=atol)
            Sinv = minitorch.where(S > tol, 1.0 / S, minitorch.zeros_like(S))
            P = (_mT(Vh) * Sinv.unsqueeze(-2)) @ _mT(U)
        ctx.save_for_backward(A, P)
        return P

    @staticmethod
    def backward(ctx, grad):
        A, P = ctx.saved_tensors
        return _pinv_backward(grad, A, P), None, None


def _pinv_backward(grad, A, P):
    # pinv_backward (FunctionsManual.cpp), real case: the gradient for A of a loss of P = pinv(A)
    m, n = A.shape[-2], A.shape[-1]
    Pt, gt = _mT(P), _mT(grad)
    if m <= n:
        K = gt @ P
        KPt = K @ Pt
        return -_mT(P @ K) + KPt - (A @ P) @ KPt + (Pt @ P) @ (gt - K @ A)
    K = P @ gt
    PtK = Pt @ K
    return -_mT(K @ P) + ((gt - A @ K) @ P) @ Pt + PtK - (PtK @ P) @ A


def pinv(*args, **kwargs):
    """The Moore-Penrose pseudo-inverse of each matrix of A (by the SVD): singular values at or below
    max(atol, rtol * the largest) count as zero."""
    index, v, _ = _C._parse_args(_SIGNATURES["pinv"], args, kwargs)
    return with_out("linalg_pinv", v["out"], lambda: _pinv(index, v))


def _pinv(index, v):
    A = v["input"]
    if A.dim() < 2 or A.dtype not in (minitorch.float32, minitorch.float64):
        raise RuntimeError("linalg.pinv({}{{{}}}): expected a tensor with 2 or more dimensions of float, double, "
                           "cfloat or cdouble types".format(_type_name(A.dtype), list(A.shape)))
    if v["hermitian"]:
        raise NotImplementedError("linalg.pinv(hermitian=True) is not supported by minitorch yet")
    atol, rtol = (None, v["rcond"]) if index == 1 else (v["atol"], v["rtol"])
    return _apply(_Pinv, "LinalgPinvBackward0", None, (A, atol, rtol), {})


# ---- trace -------------------------------------------------------------------------------------------------

class _Trace(Function):
    @staticmethod
    def forward(ctx, input):
        if input.dim() != 2:
            raise RuntimeError("trace: expected a matrix, but got tensor with dim {}".format(input.dim()))
        if input.dtype == minitorch.bool:
            raise NotImplementedError('"trace" not implemented for \'Bool\'')
        ctx.shape = tuple(input.shape)
        d = input.diagonal()
        if not input.is_floating_point():
            return d.sum()      # integers sum into int64, as sum() does
        # torch's CPU kernel adds the diagonal in double, then rounds once to the input's dtype
        return d.double().sum().to(input.dtype)

    @staticmethod
    def backward(ctx, grad):
        # trace_backward: grad on the diagonal of zeros of the input's shape
        g = minitorch.zeros(ctx.shape, dtype=grad.dtype, device=grad.device)
        g.diagonal().copy_(grad.expand(min(ctx.shape)))
        return g


def trace(*args, **kwargs):
    """The sum of the main diagonal of a 2-D tensor (integers sum into int64)."""
    v = _parse("trace", args, kwargs)
    return _apply(_Trace, "TraceBackward0", None, (v["input"],), {})


def _trace_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["trace"], args, kwargs)
    return _apply(_Trace, "TraceBackward0", None, (self,), {})


# ---- Tensor methods -------------------------------------------------------------------------------------------

def _det_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["det"], args, kwargs)
    return _det(self)


def _slogdet_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["slogdet"], args, kwargs)
    return _RESULT["slogdet"](*_slogdet(self))


def _logdet_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["logdet"], args, kwargs)
    return _logdet(self)


def _inverse_method(self, *args, **kwargs):
    _C._parse_args(_METHOD_SIGNATURES["inverse"], args, kwargs)
    return _inv_ex(self, True, False)[0]


def _svd_method(self, *args, **kwargs):
    _, v, _ = _C._parse_args(_METHOD_SIGNATURES["svd"], args, kwargs)
    return _torch_svd(self, v["some"], v["compute_uv"])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    for name, method, doc in [("det", _det_method, torch_det.__doc__),
                              ("slogdet", _slogdet_method, torch_slogdet.__doc__),
                              ("logdet", _logdet_method, logdet.__doc__),
                              ("trace", _trace_method, trace.__doc__),
                              ("inverse", _inverse_method, inverse.__doc__),
                              ("svd", _svd_method, torch_svd.__doc__)]:
        method.__name__ = name
        method.__doc__ = doc
        setattr(tensor_type, name, method)
