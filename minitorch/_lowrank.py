"""Randomized low-rank SVD and PCA: svd_lowrank and pca_lowrank (torch._lowrank, Halko, Martinsson and Tropp's
algorithms 4.4 and 5.1). Pure compositions of minitorch's ops (randn, matmul, linalg.qr, linalg.svd), in the same
steps and with the same random draws as torch's, so after manual_seed the random matrices are torch's and the
results agree with torch's to the rounding of the QR and SVD kernels (singular vectors up to sign); autograd runs
through the ops. Dense tensors only (minitorch has no sparse layout)."""

import minitorch

__all__ = ["svd_lowrank", "pca_lowrank"]

_MAX_NITER = 2**31 - 1


def _floating_dtype(A):
    # torch._linalg_utils.get_floating_dtype: the float dtypes themselves, float32 for any other
    return A.dtype if A.dtype in (minitorch.float16, minitorch.float32, minitorch.float64) else minitorch.float32


def _approximate_basis(A, q, niter=2, M=None):
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M (Algorithm 4.4: a Gaussian sketch
    and niter subspace iterations, each followed by a QR), without forming A - M."""
    niter = 2 if niter is None else niter
    if niter > _MAX_NITER:
        # torch runs such a loop (for centuries); minitorch refuses it
        raise ValueError(f"niter(={niter}) is more subspace iterations than minitorch runs (at most {_MAX_NITER})")
    R = minitorch.randn(A.shape[-1], q, dtype=_floating_dtype(A), device=A.device)
    X = A.matmul(R)
    if M is not None:
        X = X - M.matmul(R)
    Q = minitorch.linalg.qr(X).Q
    for _ in range(niter):
        X = A.mH.matmul(Q)
        if M is not None:
            X = X - M.mH.matmul(Q)
        Q = minitorch.linalg.qr(X).Q
        X = A.matmul(Q)
        if M is not None:
            X = X - M.matmul(Q)
        Q = minitorch.linalg.qr(X).Q
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) with A - M approximately U diag(S) V^H: U is (*, m, q), S (*, q), V (*, n, q), from a random
    subspace of q columns refined by niter power iterations (Algorithm 5.1). M, broadcast to A's shape, is
    subtracted without being formed."""
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    # the algorithm works on a tall matrix: a wide one is transposed, and U and V swap at the end
    wide = m < n
    if wide:
        A = A.mH
        if M is not None:
            M = M.mH
    Q = _approximate_basis(A, q, niter=niter, M=M)
    B = Q.mH.matmul(A)
    if M is not None:
        B = B - Q.mH.matmul(M)
    U, S, Vh = minitorch.linalg.svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    if wide:
        U, V = V, U
    return U, S, V


def pca_lowrank(A, q=None, center=True, niter=2):
    """svd_lowrank of A with its column means subtracted (center=True) or as it is: (U, S, V), V's columns the
    principal directions, S**2 / (m - 1) the covariance's eigenvalues. q defaults to min(6, m, n)."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter, M=None)
    C = A.mean(dim=(-2,), keepdim=True)
    return svd_lowrank(A - C, q, niter=niter, M=None)
