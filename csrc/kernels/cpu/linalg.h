/* linalg.h: the host kernels of minitorch.linalg: LU with partial pivoting (square and rectangular), its
 * solves and permutations, Householder QR,
 * the symmetric eigenproblem and the SVD, on one dense row-major float64 matrix, and each op's loop over a
 * batch of them. They know nothing of tensors, devices or Python and report failure (only "no scratch
 * memory") by their return value; the op layer (csrc/ops/linalg.c) converts dtypes and moves data between
 * devices. */
#ifndef MT_CPU_LINALG_H
#define MT_CPU_LINALG_H

#include <stdint.h>

/* LAPACK getrf's factorisation P A = L U of the n x n matrix a, in place (L's unit diagonal implicit):
 * piv[k] is the row swapped with row k at step k (0-based; the first largest |a[i][k]|, as idamax picks).
 * Returns getrf's info: 0, or the 1-based index of the first exactly zero pivot (the factorisation goes
 * on past it, as getrf's does). */
int64_t mt_cpu_lu(double *a, int64_t n, int64_t *piv);

/* mt_cpu_lu of the m x n matrix a: min(m, n) steps (getrf's rectangular factorisation, L m x k and U k x n
 * packed in a); pivot 0: no row exchanges (piv[k] == k), the factorisation torch's CUDA path offers. */
int64_t mt_cpu_lu_rect(double *a, int64_t m, int64_t n, int pivot, int64_t *piv);

/* Solves A X = B with A's factorisation from mt_cpu_lu: b is n x nrhs, overwritten with X. */
void mt_cpu_lu_solve(const double *lu, const int64_t *piv, int64_t n, double *b, int64_t nrhs);

/* geqrf + orgqr: the Householder QR of the m x n matrix a (in place: R in its upper triangle, the
 * reflectors below), with LAPACK's sign convention (R's diagonal is -sign(a_kk) * the column norm, left
 * unchanged when the part below the diagonal is already zero). When q is not NULL it receives the first
 * qcols columns (min(m, n) <= qcols <= m) of Q as an m x qcols matrix. tau has room for min(m, n).
 * Returns 0. */
int mt_cpu_qr(double *a, int64_t m, int64_t n, double *tau, double *q, int64_t qcols);

/* The eigenvalues (ascending, into w) and, when v is not NULL, the orthonormal eigenvectors (the columns of
 * the n x n matrix v) of the symmetric n x n matrix a, overwritten (cyclic Jacobi rotations). Returns 0,
 * or -1 when scratch memory could not be allocated. */
int mt_cpu_eigh(double *a, int64_t n, double *w, double *v);

/* The singular values (descending, into s: min(m, n) of them) of the m x n matrix a (one-sided Jacobi)
 * and, when u is not NULL, U (m x ucols, ucols = min(m, n) or m) and Vh (vrows x n, vrows = min(m, n) or
 * n), the columns beyond the rank completed to an orthonormal basis. a is left unchanged. Returns 0, or -1
 * when scratch memory could not be allocated. */
int mt_cpu_svd(const double *a, int64_t m, int64_t n, double *s, double *u, int64_t ucols, double *vh,
               int64_t vrows);

/* LAPACK potf2's Cholesky factorisation A = L L^T of the n x n matrix a, in place: L in its lower
 * triangle (only the lower triangle of a is read; the upper is left as it is). Returns potf2's info: 0,
 * or the 1-based order of the first leading minor that is not positive-definite (a NaN included), where
 * the factorisation stops. */
int64_t mt_cpu_cholesky(double *a, int64_t n);

/* Solves T X = B for the n x n triangular t (its upper or lower triangle read; unit: a diagonal of ones
 * assumed, the stored one unread) by substitution in BLAS trsm's order: each element of b subtracts its
 * terms in column order (skipping those whose solution element is zero) and then divides by the
 * diagonal; b is n x nrhs, overwritten with X. A zero on the diagonal gives infinities and NaNs, as
 * trsm's. */
void mt_cpu_triangular_solve(const double *t, int64_t n, int upper, int unit, double *b, int64_t nrhs);

/* ---- batches: `batch` matrices one after another, each result at its own stride ---------------------
 * Each returns 0, or -1 when scratch memory could not be allocated. */

/* det of each n x n matrix of a (overwritten with its LU): (-1)^(row swaps) * prod(diag(U)), 1 for 0 x 0. */
int mt_cpu_det_batch(double *a, int64_t n, int64_t batch, double *det);

/* sign and log|det| of each n x n matrix of a (overwritten with its LU). */
int mt_cpu_slogdet_batch(double *a, int64_t n, int64_t batch, double *sign, double *logabs);

/* out := the inverse of each n x n matrix of a (overwritten with its LU); info: getrf's info of each. */
int mt_cpu_inv_batch(double *a, int64_t n, int64_t batch, double *out, int32_t *info);

/* Solves A X = B (left) or X A = B for each n x n A of a (overwritten) and its B in rhs (n x k when left,
 * k x n otherwise; overwritten with X); info: getrf's info of each A. */
int mt_cpu_solve_batch(double *a, double *rhs, int64_t n, int64_t k, int left, int64_t batch, int32_t *info);

/* mt_cpu_lu_rect of each m x n matrix of a (overwritten with L and U): pivots gets min(m, n) 1-based int32
 * pivots per matrix (LAPACK's), info getrf's info. */
int mt_cpu_lu_factor_batch(double *a, int64_t m, int64_t n, int64_t batch, int pivot, int32_t *pivots,
                           int32_t *info);

/* getrs: solves A X = B (trans: A^T X = B) for each n x n factorisation in lu with its n 1-based pivots; b
 * is n x k per matrix, overwritten with X. -2: a pivot outside 1..n (nothing past it solved). */
int mt_cpu_lu_solve_batch(const double *lu, const int32_t *pivots, int64_t n, double *b, int64_t k, int trans,
                          int64_t batch);

/* The m x m permutation matrix P (A = P L U) of each batch element's npiv 1-based pivots, the row swaps
 * applied to the identity in order (at most m of them). -2: a pivot outside 1..m. */
int mt_cpu_lu_permutation_batch(const int32_t *pivots, int64_t npiv, int64_t m, int64_t batch, double *p);

/* mt_cpu_qr of each m x n matrix of a (overwritten): r gets its first rrows rows of R (rrows x n, zero below
 * the diagonal), q (when not NULL) its first qcols columns of Q (m x qcols). */
int mt_cpu_qr_batch(double *a, int64_t m, int64_t n, int64_t batch, double *r, int64_t rrows, double *q,
                    int64_t qcols);

/* mt_cpu_eigh of each n x n matrix of a (overwritten), reading only its upper (or lower) triangle, as
 * LAPACK's syevd does: w gets n values per matrix, v (when not NULL) n x n vectors. */
int mt_cpu_eigh_batch(double *a, int64_t n, int64_t batch, int upper, double *w, double *v);

/* The Cholesky factor of each n x n matrix of a, in place: L (upper: U = L^T from the upper triangle,
 * as potrf's uplo 'U'), the other triangle zeroed; info: mt_cpu_cholesky's of each. */
int mt_cpu_cholesky_batch(double *a, int64_t n, int64_t batch, int upper, int32_t *info);

/* Solves A X = B (left) or X A = B for each triangular n x n A of a (overwritten) and its B in rhs (n x k
 * when left, k x n otherwise; overwritten with X). */
int mt_cpu_triangular_solve_batch(double *a, double *rhs, int64_t n, int64_t k, int upper, int left, int unit,
                                  int64_t batch);

/* LAPACK orgqr: each m x n matrix of a (m >= n >= k) holds k Householder reflectors below its diagonal (as
 * geqrf leaves them) with their k scalars in tau; overwritten with the first n columns of their product
 * H(0) ... H(k-1). */
int mt_cpu_householder_product_batch(double *a, int64_t m, int64_t n, int64_t batch, const double *tau, int64_t k);

/* LAPACK geqrf of each m x n matrix of a, in place (mt_cpu_qr's factorisation: R in the upper triangle, the
 * reflectors below the diagonal); tau gets min(m, n) scalars per matrix. */
int mt_cpu_geqrf_batch(double *a, int64_t m, int64_t n, int64_t batch, double *tau);

/* LAPACK ormqr: each nq x n matrix of a holds k Householder reflectors of length nq in its first k columns
 * (as geqrf leaves them) with their k scalars in tau; each m x cn matrix of c (m == nq when left, cn == nq
 * otherwise) is overwritten with op(Q) C (left) or C op(Q), Q = H(0) ... H(k-1), op(Q) = Q^T when transpose. */
int mt_cpu_ormqr_batch(const double *a, int64_t nq, int64_t n, int64_t batch, const double *tau, int64_t k, double *c,
                       int64_t m, int64_t cn, int left, int transpose);

/* LAPACK sytrf (uplo 'L', Bunch-Kaufman) of the lower triangle of each symmetric n x n matrix of a, in
 * place: D and L in the lower triangle, the strict upper one zeroed; pivots gets n 1-based int32 pivots per
 * matrix in LAPACK's encoding (negative on both rows of a 2 x 2 block), info sytrf's (the first zero block). */
int mt_cpu_ldl_factor_batch(double *a, int64_t n, int64_t batch, int32_t *pivots, int32_t *info);

/* sytrs: solves A X = B for each n x n factorisation of mt_cpu_ldl_factor_batch in ld with its pivots; b is
 * n x k per matrix, overwritten with X. -2: a pivot outside -n..-1, 1..n (nothing past it solved). */
int mt_cpu_ldl_solve_batch(const double *ld, const int32_t *pivots, int64_t n, double *b, int64_t k, int64_t batch);

/* The index of the first of `batch` blocks of `count` values of a that holds a NaN, or -1. */
int64_t mt_cpu_first_nan_matrix(const double *a, int64_t count, int64_t batch);

/* mt_cpu_svd of each m x n matrix of a: s gets min(m, n) values per matrix, u (when not NULL) m x ucols and
 * vh vrows x n; a matrix with an infinite element gets NaN everywhere, as torch's LAPACK call gives. */
int mt_cpu_svd_batch(const double *a, int64_t m, int64_t n, int64_t batch, double *s, double *u, int64_t ucols,
                     double *vh, int64_t vrows);

#endif
