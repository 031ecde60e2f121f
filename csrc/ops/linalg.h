/* linalg.h: the forward computations of minitorch.linalg as C entry points (det, slogdet, inv_ex, solve_ex,
 * svd, qr, eigh, cholesky_ex, solve_triangular, the LU family: lu_factor_ex, lu_solve, lu_unpack's
 * permutation; householder_product, geqrf, ormqr, the LDL family: ldl_factor_ex, ldl_solve), each with torch's checks and
 * messages, and the exception type torch raises for a singular or non-convergent input
 * (minitorch._C._LinAlgError, a RuntimeError). Their rows in csrc/python/ops.def are private (_linalg_*):
 * minitorch/_linalg.py, _triangular.py, _lu.py and _ldl.py parse the public calls, call these with grad mode
 * off and record torch's nodes. */
#ifndef MT_LINALG_H
#define MT_LINALG_H

#include <Python.h>

#include "../core/tensor.h"

/* The op table's codes for the family's rows. */
enum {
    MT_LINALG_DET,
    MT_LINALG_SLOGDET,
    MT_LINALG_INV_EX,
    MT_LINALG_SOLVE_EX,
    MT_LINALG_SVD,
    MT_LINALG_QR,
    MT_LINALG_EIGH,
    MT_LINALG_CHOLESKY_EX,
    MT_LINALG_SOLVE_TRIANGULAR,
    MT_LINALG_LU_FACTOR_EX,
    MT_LINALG_LU_SOLVE,
    MT_LINALG_LU_UNPACK_PIVOTS,
    MT_LINALG_HOUSEHOLDER_PRODUCT,
    MT_LINALG_LDL_FACTOR_EX,
    MT_LINALG_LDL_SOLVE,
    MT_LINALG_GEQRF,
    MT_LINALG_ORMQR
};

/* linalg.det(A): a tensor of A's batch shape. */
PyObject *mt_linalg_det(mt_TensorObject *A);

/* linalg.slogdet(A) as (sign, logabsdet); logdet: the checks name "logdet" (torch.logdet's). */
PyObject *mt_linalg_slogdet(mt_TensorObject *A, int logdet);

/* linalg.inv_ex(A) as (inverse, info); check_errors raises _LinAlgError for a singular matrix, naming
 * api_name ("linalg.inv" or "linalg.inv_ex"). */
PyObject *mt_linalg_inv_ex(mt_TensorObject *A, int check_errors, const char *api_name);

/* linalg.solve_ex(A, B, left=) as (result, info), B a vector or a matrix per torch's rule, batch dims
 * broadcast; check_errors raises _LinAlgError naming api_name ("torch.linalg.solve" or
 * "torch.linalg.solve_ex"). */
PyObject *mt_linalg_solve_ex(mt_TensorObject *A, mt_TensorObject *B, int left, int check_errors,
                             const char *api_name);

/* linalg.svd(A, full_matrices) as (U, S, Vh); without compute_uv, U and Vh are empty. */
PyObject *mt_linalg_svd(mt_TensorObject *A, int full_matrices, int compute_uv);

/* linalg.qr(A, mode) as (Q, R); mode is "reduced", "complete" or "r" (torch's error otherwise). */
PyObject *mt_linalg_qr(mt_TensorObject *A, const char *mode);

/* linalg.eigh(A, UPLO) as (eigenvalues, eigenvectors); without compute_v the eigenvectors are empty. */
PyObject *mt_linalg_eigh(mt_TensorObject *A, const char *uplo, int compute_v);

/* linalg.cholesky_ex(A, upper=) as (L, info); check_errors raises _LinAlgError for a matrix that is not
 * positive-definite, naming api_name ("linalg.cholesky", "linalg.cholesky_ex" or "cholesky"). */
PyObject *mt_linalg_cholesky_ex(mt_TensorObject *A, int upper, int check_errors, const char *api_name);

/* linalg.solve_triangular(A, B, upper=, left=, unitriangular=): X of A X = B or X A = B, batch dims
 * broadcast, in A's dtype (float32 or float64; torch's NotImplementedError otherwise). */
PyObject *mt_linalg_solve_triangular(mt_TensorObject *A, mt_TensorObject *B, int upper, int left, int unitriangular);

/* linalg.lu_factor_ex(A, pivot=) as (LU, pivots, info) for m x n matrices: LU column-major, pivots int32
 * 1-based (*, min(m, n)); check_errors raises torch's RuntimeError for a zero pivot, naming api_name
 * ("torch.linalg.lu_factor" or "torch.linalg.lu_factor_ex"; "linalg.lu" names linalg.lu in the checks).
 * pivot=False is CUDA's only, as in torch. */
PyObject *mt_linalg_lu_factor_ex(mt_TensorObject *A, int pivot, int check_errors, const char *api_name);

/* linalg.lu_solve(LU, pivots, B, left=, adjoint=): X of A X = B, A^H X = B, X A = B or X A^H = B with A = P L U,
 * batch dims of LU and B broadcast. */
PyObject *mt_linalg_lu_solve(mt_TensorObject *LU, mt_TensorObject *pivots, mt_TensorObject *B, int left,
                             int adjoint);

/* lu_unpack's checks and its permutation P (*, m, m) in LU's dtype; an empty tensor without unpack_pivots. */
PyObject *mt_linalg_lu_unpack_pivots(mt_TensorObject *LU, mt_TensorObject *pivots, int unpack_pivots);

/* linalg.householder_product(A, tau): the first n columns of the product of the Householder reflectors
 * (geqrf's) stored below A's diagonal (m x n, m >= n) with their scalars tau (*, k), k <= n; column-major. */
PyObject *mt_linalg_householder_product(mt_TensorObject *A, mt_TensorObject *tau);

/* geqrf(A) as (a, tau): LAPACK geqrf's compact QR of each m x n matrix (R in a's upper triangle, the
 * reflectors below it; a column-major), tau (*, min(m, n)). */
PyObject *mt_linalg_geqrf(mt_TensorObject *A);

/* ormqr(A, tau, C, left, transpose): op(Q) C or C op(Q) for Q the product of the reflectors of geqrf's
 * (A, tau), op(Q) = Q^T when transpose; column-major, C's shape. */
PyObject *mt_linalg_ormqr(mt_TensorObject *A, mt_TensorObject *tau, mt_TensorObject *C, int left, int transpose);

/* linalg.ldl_factor_ex(A) as (LD, pivots, info): LAPACK sytrf's Bunch-Kaufman factorisation of A's lower
 * triangle, LD column-major, pivots int32 in LAPACK's encoding; check_errors raises torch's internal assert
 * for a zero block, naming api_name ("torch.linalg.ldl_factor" or "torch.linalg.ldl_factor_ex"). */
PyObject *mt_linalg_ldl_factor_ex(mt_TensorObject *A, int check_errors, const char *api_name);

/* linalg.ldl_solve(LD, pivots, B): X of A X = B with A's (LD, pivots) from ldl_factor_ex (any integer
 * pivots), batch dims of LD and B broadcast; column-major. */
PyObject *mt_linalg_ldl_solve(mt_TensorObject *LD, mt_TensorObject *pivots, mt_TensorObject *B);

/* Adds _LinAlgError to the module. */
int mt_linalg_init(PyObject *module);

#endif
