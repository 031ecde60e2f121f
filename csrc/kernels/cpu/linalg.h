/* linalg.h: the host kernels of minitorch.linalg: LU with partial pivoting and its solves, Householder QR,
 * the symmetric eigenproblem and the SVD, on one dense row-major float64 matrix at a time. They know
 * nothing of tensors, devices or Python and report failure (only "no scratch memory") by their return
 * value; the op layer (csrc/ops/linalg.c) loops over the batch, converts dtypes and moves data between
 * devices. */
#ifndef MT_CPU_LINALG_H
#define MT_CPU_LINALG_H

#include <stdint.h>

/* LAPACK getrf's factorisation P A = L U of the n x n matrix a, in place (L's unit diagonal implicit):
 * piv[k] is the row swapped with row k at step k (0-based; the first largest |a[i][k]|, as idamax picks).
 * Returns getrf's info: 0, or the 1-based index of the first exactly zero pivot (the factorisation goes
 * on past it, as getrf's does). */
int64_t mt_cpu_lu(double *a, int64_t n, int64_t *piv);

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

#endif
