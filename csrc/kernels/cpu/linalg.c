/* linalg.c: the host kernels of minitorch.linalg (linalg.h), written out in plain C because minitorch links
 * no LAPACK. Each works on one dense row-major float64 matrix: LU with partial pivoting (LAPACK getf2's
 * pivot choice, zero-pivot rule and reciprocal scaling, so that det's sign and the singular-pivot index
 * agree with torch's), the triangular solves of getrs, Householder QR (dlarfg's reflectors, so R's
 * diagonal has LAPACK's signs), cyclic Jacobi rotations for the symmetric eigenproblem and one-sided
 * (Hestenes) Jacobi for the SVD: simple, and accurate to the last bits for the sizes a learner uses.
 * Nothing here touches Python or tensors; the only failure is "no scratch memory", by return value. */
#include "linalg.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* malloc of count doubles, NULL on overflow or when memory is short (count 0 gives a valid block). */
static double *
alloc_doubles(int64_t count)
{
    if (count < 0 || (uint64_t)count > SIZE_MAX / sizeof(double) - 1) {
        return NULL;
    }
    return (double *)malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
}

/* ---- LU ------------------------------------------------------------------------------------------ */

/* Rows r and q (ncols each) of the row-major b exchanged. */
static void
swap_rows(double *b, int64_t r, int64_t q, int64_t ncols)
{
    double *x = b + r * ncols, *y = b + q * ncols;
    for (int64_t j = 0; j < ncols; j++) {
        double t = x[j];
        x[j] = y[j];
        y[j] = t;
    }
}

int64_t
mt_cpu_lu_rect(double *a, int64_t m, int64_t n, int pivot, int64_t *piv)
{
    int64_t info = 0, steps = m < n ? m : n;

    for (int64_t k = 0; k < steps; k++) {
        int64_t p = k;
        double best = fabs(a[k * n + k]);
        for (int64_t i = k + 1; pivot && i < m; i++) {
            if (fabs(a[i * n + k]) > best) {
                best = fabs(a[i * n + k]);
                p = i;
            }
        }
        piv[k] = p;
        if (a[p * n + k] != 0.0) {
            if (p != k) {
                swap_rows(a, k, p, n);
            }
            double pivot_value = a[k * n + k];
            if (fabs(pivot_value) >= DBL_MIN) {
                double r = 1.0 / pivot_value;
                for (int64_t i = k + 1; i < m; i++) {
                    a[i * n + k] *= r;
                }
            }
            else {
                for (int64_t i = k + 1; i < m; i++) {
                    a[i * n + k] /= pivot_value;
                }
            }
        }
        else if (info == 0) {
            info = k + 1;
        }
        for (int64_t i = k + 1; i < m; i++) {
            double l = a[i * n + k];
            double *row = a + i * n;
            const double *top = a + k * n;
            for (int64_t j = k + 1; j < n; j++) {
                row[j] -= l * top[j];
            }
        }
    }
    return info;
}

int64_t
mt_cpu_lu(double *a, int64_t n, int64_t *piv)
{
    return mt_cpu_lu_rect(a, n, n, 1, piv);
}

/* b := T^{-1} b (n x nrhs) for the lower (forward substitution) or upper (backward) triangle of the n x n
 * matrix whose element (i, k) is t[i * rs + k * cs] (cs, rs swapped: its transpose); unit: a diagonal of
 * ones. getrs' order, skipping a zero coefficient. */
static void
substitute(const double *t, int64_t rs, int64_t cs, int64_t n, int lower, int unit, double *b, int64_t nrhs)
{
    for (int64_t step = 0; step < n; step++) {
        int64_t i = lower ? step : n - 1 - step;
        int64_t k0 = lower ? 0 : i + 1, k1 = lower ? i : n;
        for (int64_t k = k0; k < k1; k++) {
            double c = t[i * rs + k * cs];
            if (c != 0.0) {
                for (int64_t j = 0; j < nrhs; j++) {
                    b[i * nrhs + j] -= c * b[k * nrhs + j];
                }
            }
        }
        if (!unit) {
            double d = t[i * rs + i * cs];
            for (int64_t j = 0; j < nrhs; j++) {
                b[i * nrhs + j] /= d;
            }
        }
    }
}

void
mt_cpu_lu_solve(const double *lu, const int64_t *piv, int64_t n, double *b, int64_t nrhs)
{
    for (int64_t k = 0; k < n; k++) {
        if (piv[k] != k) {
            swap_rows(b, k, piv[k], nrhs);
        }
    }
    substitute(lu, n, 1, n, 1, 1, b, nrhs);
    substitute(lu, n, 1, n, 0, 0, b, nrhs);
}

/* Solves A^T X = B with A's factorisation from mt_cpu_lu (A^T = U^T L^T P^T, getrs' 'T'): b is n x nrhs,
 * overwritten with X. */
static void
lu_solve_transposed(const double *lu, const int64_t *piv, int64_t n, double *b, int64_t nrhs)
{
    substitute(lu, 1, n, n, 1, 0, b, nrhs);
    substitute(lu, 1, n, n, 0, 1, b, nrhs);
    for (int64_t k = n - 1; k >= 0; k--) {
        if (piv[k] != k) {
            swap_rows(b, k, piv[k], nrhs);
        }
    }
}

/* ---- QR ------------------------------------------------------------------------------------------ */

/* x -= tau * v (v^T x) over rows j.. of column c of the row-major matrix x (ld columns), with v = (1,
 * a[j+1..m-1][j]) read from column j of a (lda columns). */
static void
apply_reflector(const double *a, int64_t lda, int64_t m, int64_t j, double tau, double *x, int64_t ld, int64_t c)
{
    double w = x[j * ld + c];
    for (int64_t i = j + 1; i < m; i++) {
        w += a[i * lda + j] * x[i * ld + c];
    }
    w *= tau;
    x[j * ld + c] -= w;
    for (int64_t i = j + 1; i < m; i++) {
        x[i * ld + c] -= w * a[i * lda + j];
    }
}

int
mt_cpu_qr(double *a, int64_t m, int64_t n, double *tau, double *q, int64_t qcols)
{
    int64_t k = m < n ? m : n;

    for (int64_t j = 0; j < k; j++) {
        double alpha = a[j * n + j];
        double scale = 0.0, ssq = 1.0;
        /* the norm of the part below the diagonal, scaled as dnrm2 does (no overflow) */
        for (int64_t i = j + 1; i < m; i++) {
            double x = a[i * n + j];
            if (x != 0.0 || isnan(x)) {
                double ax = fabs(x);
                if (scale < ax || isnan(ax)) {
                    ssq = 1.0 + ssq * (scale / ax) * (scale / ax);
                    scale = ax;
                }
                else {
                    ssq += (ax / scale) * (ax / scale);
                }
            }
        }
        double xnorm = scale * sqrt(ssq);
        if (xnorm == 0.0) {
            tau[j] = 0.0;
        }
        else {
            double beta = -copysign(hypot(alpha, xnorm), alpha);
            double r = 1.0 / (alpha - beta);
            tau[j] = (beta - alpha) / beta;
            for (int64_t i = j + 1; i < m; i++) {
                a[i * n + j] *= r;
            }
            a[j * n + j] = beta;
            for (int64_t c = j + 1; c < n; c++) {
                apply_reflector(a, n, m, j, tau[j], a, n, c);
            }
        }
    }
    if (q != NULL) {
        memset(q, 0, (size_t)(m * qcols) * sizeof(double));
        for (int64_t i = 0; i < qcols; i++) {
            q[i * qcols + i] = 1.0;
        }
        for (int64_t j = k - 1; j >= 0; j--) {
            if (tau[j] != 0.0) {
                for (int64_t c = 0; c < qcols; c++) {
                    apply_reflector(a, n, m, j, tau[j], q, qcols, c);
                }
            }
        }
    }
    return 0;
}

/* LAPACK org2r: the first n columns of Q = H(0) H(1) ... H(k-1), the reflectors in the first k columns of
 * the m x n matrix a (below its diagonal, geqrf's), in place: each H(i) applied to the columns on its right,
 * then its own column made Q's (as org2r does, so the rounding follows LAPACK's order). */
static void
householder_product(double *a, int64_t m, int64_t n, int64_t k, const double *tau)
{
    for (int64_t j = k; j < n; j++) {
        for (int64_t l = 0; l < m; l++) {
            a[l * n + j] = 0.0;
        }
        a[j * n + j] = 1.0;
    }
    for (int64_t i = k - 1; i >= 0; i--) {
        if (i < n - 1) {
            a[i * n + i] = 1.0;
            for (int64_t c = i + 1; c < n && tau[i] != 0.0; c++) {
                apply_reflector(a, n, m, i, tau[i], a, n, c);
            }
        }
        for (int64_t l = i + 1; l < m; l++) {
            a[l * n + i] *= -tau[i];
        }
        a[i * n + i] = 1.0 - tau[i];
        for (int64_t l = 0; l < i; l++) {
            a[l * n + i] = 0.0;
        }
    }
}

/* ---- LDL^T (Bunch-Kaufman) ---------------------------------------------------------------------------- */

/* The 0-based index of the first largest |x[i * stride]| of count values (BLAS idamax's choice). */
static int64_t
first_largest(const double *x, int64_t count, int64_t stride)
{
    int64_t best = 0;
    double top = count > 0 ? fabs(x[0]) : 0.0;
    for (int64_t i = 1; i < count; i++) {
        if (fabs(x[i * stride]) > top) {
            top = fabs(x[i * stride]);
            best = i;
        }
    }
    return best;
}

static void
swap_values(double *x, double *y)
{
    double t = *x;
    *x = *y;
    *y = t;
}

/* LAPACK sytf2's factorisation A = L D L^T of the symmetric n x n matrix a from its lower triangle, in
 * place (uplo 'L'): Bunch-Kaufman's diagonal pivoting (alpha = (1 + sqrt(17)) / 8), D's 1 x 1 and 2 x 2
 * blocks and L's multipliers in the lower triangle, piv 1-based as LAPACK's (k + 1 for a 1 x 1 block at k
 * kept in place, -(p + 1) on both rows of a 2 x 2 block). Returns sytf2's info: 0, or the 1-based index of
 * the first exactly zero diagonal block, where the factorisation goes on. */
static int32_t
ldl_factor(double *a, int64_t n, int32_t *piv)
{
    const double alpha = (1.0 + sqrt(17.0)) / 8.0;
    int32_t info = 0;
#define A_(i, j) a[(i) * n + (j)]

    for (int64_t k = 0; k < n;) {
        int64_t kstep = 1, kp = k;
        double absakk = fabs(A_(k, k)), colmax = 0.0;
        int64_t imax = k;
        if (k < n - 1) {
            imax = k + 1 + first_largest(&A_(k + 1, k), n - k - 1, n);
            colmax = fabs(A_(imax, k));
        }
        /* a NaN diagonal is not singled out (MAX(NaN, colmax) is colmax in the LAPACK torch links) */
        if ((absakk > colmax ? absakk : colmax) == 0.0) {
            if (info == 0) {
                info = (int32_t)(k + 1);
            }
            kp = k;
        }
        else {
            if (absakk >= alpha * colmax) {
                kp = k;
            }
            else {
                /* the largest off-diagonal element of row (and column) imax */
                int64_t jmax = k + first_largest(&A_(imax, k), imax - k, 1);
                double rowmax = fabs(A_(imax, jmax));
                if (imax < n - 1) {
                    jmax = imax + 1 + first_largest(&A_(imax + 1, imax), n - imax - 1, n);
                    rowmax = rowmax > fabs(A_(jmax, imax)) ? rowmax : fabs(A_(jmax, imax));
                }
                if (absakk >= alpha * colmax * (colmax / rowmax)) {
                    kp = k;
                }
                else if (fabs(A_(imax, imax)) >= alpha * rowmax) {
                    kp = imax;
                }
                else {
                    kp = imax;
                    kstep = 2;
                }
            }
            int64_t kk = k + kstep - 1;
            if (kp != kk) {
                /* rows and columns kk and kp of the trailing submatrix exchanged */
                for (int64_t i = kp + 1; i < n; i++) {
                    swap_values(&A_(i, kk), &A_(i, kp));
                }
                for (int64_t j = kk + 1; j < kp; j++) {
                    swap_values(&A_(j, kk), &A_(kp, j));
                }
                swap_values(&A_(kk, kk), &A_(kp, kp));
                if (kstep == 2) {
                    swap_values(&A_(k + 1, k), &A_(kp, k));
                }
            }
            if (kstep == 1) {
                if (k < n - 1) {
                    /* A := A - x x^T / d (syr), then x /= d */
                    double d11 = fabs(A_(k, k)) >= DBL_MIN ? 1.0 / A_(k, k) : A_(k, k);
                    if (fabs(A_(k, k)) < DBL_MIN) {
                        for (int64_t i = k + 1; i < n; i++) {
                            A_(i, k) /= d11;
                        }
                    }
                    for (int64_t j = k + 1; j < n; j++) {
                        if (A_(j, k) != 0.0) {
                            double t = -d11 * A_(j, k);
                            for (int64_t i = j; i < n; i++) {
                                A_(i, j) += A_(i, k) * t;
                            }
                        }
                    }
                    if (fabs(A_(k, k)) >= DBL_MIN) {
                        for (int64_t i = k + 1; i < n; i++) {
                            A_(i, k) *= d11;
                        }
                    }
                }
            }
            else if (k < n - 2) {
                /* the rank-2 update by the 2 x 2 block's inverse (sytf2's, LAPACK 3.5 on) */
                double d21 = A_(k + 1, k);
                double d11 = A_(k + 1, k + 1) / d21;
                double d22 = A_(k, k) / d21;
                double t = 1.0 / (d11 * d22 - 1.0);
                for (int64_t j = k + 2; j < n; j++) {
                    double wk = t * (d11 * A_(j, k) - A_(j, k + 1));
                    double wkp1 = t * (d22 * A_(j, k + 1) - A_(j, k));
                    for (int64_t i = j; i < n; i++) {
                        A_(i, j) = A_(i, j) - (A_(i, k) / d21) * wk - (A_(i, k + 1) / d21) * wkp1;
                    }
                    A_(j, k) = wk / d21;
                    A_(j, k + 1) = wkp1 / d21;
                }
            }
        }
        if (kstep == 1) {
            piv[k] = (int32_t)(kp + 1);
        }
        else {
            piv[k] = piv[k + 1] = (int32_t)-(kp + 1);
        }
        k += kstep;
    }
#undef A_
    return info;
}

/* LAPACK sytrs (uplo 'L'): solves A X = B with A's factorisation from ldl_factor; b is n x nrhs,
 * overwritten with X. Returns -2 for a pivot outside -n..-1, 1..n (nothing solved). */
static int
ldl_solve(const double *ld, const int32_t *piv, int64_t n, double *b, int64_t nrhs)
{
#define L_(i, j) ld[(i) * n + (j)]
    for (int64_t i = 0; i < n; i++) {
        if (piv[i] == 0 || piv[i] > n || piv[i] < -n) {
            return -2;
        }
    }
    /* L D Y = B, from the first block on */
    for (int64_t k = 0; k < n;) {
        if (piv[k] > 0) {
            int64_t kp = piv[k] - 1;
            if (kp != k) {
                swap_rows(b, k, kp, nrhs);
            }
            for (int64_t i = k + 1; i < n; i++) {
                for (int64_t j = 0; j < nrhs; j++) {
                    b[i * nrhs + j] -= L_(i, k) * b[k * nrhs + j];
                }
            }
            double r = 1.0 / L_(k, k);
            for (int64_t j = 0; j < nrhs; j++) {
                b[k * nrhs + j] *= r;
            }
            k += 1;
        }
        else {
            int64_t kp = -piv[k] - 1;
            if (kp != k + 1) {
                swap_rows(b, k + 1, kp, nrhs);
            }
            for (int64_t i = k + 2; i < n; i++) {
                for (int64_t j = 0; j < nrhs; j++) {
                    b[i * nrhs + j] -= L_(i, k) * b[k * nrhs + j];
                }
            }
            for (int64_t i = k + 2; i < n; i++) {
                for (int64_t j = 0; j < nrhs; j++) {
                    b[i * nrhs + j] -= L_(i, k + 1) * b[(k + 1) * nrhs + j];
                }
            }
            double akm1k = L_(k + 1, k);
            double akm1 = L_(k, k) / akm1k;
            double ak = L_(k + 1, k + 1) / akm1k;
            double denom = akm1 * ak - 1.0;
            for (int64_t j = 0; j < nrhs; j++) {
                double bkm1 = b[k * nrhs + j] / akm1k;
                double bk = b[(k + 1) * nrhs + j] / akm1k;
                b[k * nrhs + j] = (ak * bkm1 - bk) / denom;
                b[(k + 1) * nrhs + j] = (akm1 * bk - bkm1) / denom;
            }
            k += 2;
        }
    }
    /* L^T X = Y, from the last block back */
    for (int64_t k = n - 1; k >= 0;) {
        int64_t top = piv[k] > 0 ? k : k - 1;
        for (int64_t c = k; c >= top; c--) {
            for (int64_t j = 0; j < nrhs; j++) {
                double s = 0.0;
                for (int64_t i = k + 1; i < n; i++) {
                    s += b[i * nrhs + j] * L_(i, c);
                }
                b[c * nrhs + j] -= s;
            }
        }
        int64_t kp = (piv[k] > 0 ? piv[k] : -piv[k]) - 1;
        if (kp != k) {
            swap_rows(b, k, kp, nrhs);
        }
        k = top - 1;
    }
#undef L_
    return 0;
}

/* ---- the symmetric eigenproblem ---------------------------------------------------------------------- */

#define JACOBI_MAX_SWEEPS 100

/* Sorts idx[0..n) so that key[idx[...]] is ascending (descending when desc); a stable insertion sort. */
static void
sort_indices(const double *key, int64_t *idx, int64_t n, int desc)
{
    for (int64_t i = 0; i < n; i++) {
        idx[i] = i;
    }
    for (int64_t i = 1; i < n; i++) {
        int64_t v = idx[i], j = i - 1;
        while (j >= 0 && (desc ? key[idx[j]] < key[v] : key[idx[j]] > key[v])) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = v;
    }
}

int
mt_cpu_eigh(double *a, int64_t n, double *w, double *v)
{
    double *vec = alloc_doubles(n * n), *d = alloc_doubles(n);
    int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    double frob = 0.0;

    if (vec == NULL || d == NULL || idx == NULL) {
        free(vec);
        free(d);
        free(idx);
        return -1;
    }
    memset(vec, 0, (size_t)(n * n) * sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        vec[i * n + i] = 1.0;
        for (int64_t j = 0; j < n; j++) {
            frob = hypot(frob, a[i * n + j]);
        }
    }
    double tol = frob * DBL_EPSILON * 1e-3;
    for (int sweep = 0; sweep < JACOBI_MAX_SWEEPS && isfinite(frob); sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < n; p++) {
            for (int64_t q = p + 1; q < n; q++) {
                double apq = a[p * n + q];
                if (fabs(apq) <= tol ||
                    fabs(apq) <= DBL_EPSILON * 0.5 * sqrt(fabs(a[p * n + p])) * sqrt(fabs(a[q * n + q]))) {
                    continue;
                }
                double theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                double t = copysign(1.0, theta) / (fabs(theta) + hypot(1.0, theta));
                double c = 1.0 / sqrt(1.0 + t * t), s = t * c;
                for (int64_t r = 0; r < n; r++) {
                    double xp = a[r * n + p], xq = a[r * n + q];
                    a[r * n + p] = c * xp - s * xq;
                    a[r * n + q] = s * xp + c * xq;
                }
                for (int64_t r = 0; r < n; r++) {
                    double xp = a[p * n + r], xq = a[q * n + r];
                    a[p * n + r] = c * xp - s * xq;
                    a[q * n + r] = s * xp + c * xq;
                }
                a[p * n + q] = 0.0;
                a[q * n + p] = 0.0;
                for (int64_t r = 0; r < n; r++) {
                    double xp = vec[r * n + p], xq = vec[r * n + q];
                    vec[r * n + p] = c * xp - s * xq;
                    vec[r * n + q] = s * xp + c * xq;
                }
                rotated = 1;
            }
        }
        if (!rotated) {
            break;
        }
    }
    for (int64_t i = 0; i < n; i++) {
        d[i] = isfinite(frob) ? a[i * n + i] : NAN;
    }
    sort_indices(d, idx, n, 0);
    for (int64_t t = 0; t < n; t++) {
        w[t] = d[idx[t]];
        if (v != NULL) {
            for (int64_t r = 0; r < n; r++) {
                v[r * n + t] = isfinite(frob) ? vec[r * n + idx[t]] : NAN;
            }
        }
    }
    free(vec);
    free(d);
    free(idx);
    return 0;
}

/* ---- the SVD ----------------------------------------------------------------------------------------- */

/* Fills the columns c of the column-major rows x cols matrix u with ok[c] == 0 so that all columns are
 * orthonormal: each is the first unit vector e_i whose part orthogonal to the accepted columns is large
 * (Gram-Schmidt twice). */
static void
complete_basis(double *u, int64_t rows, int64_t cols, unsigned char *ok)
{
    for (int64_t c = 0; c < cols; c++) {
        if (ok[c]) {
            continue;
        }
        double *x = u + c * rows;
        for (int64_t e = 0; e < rows; e++) {
            memset(x, 0, (size_t)rows * sizeof(double));
            x[e] = 1.0;
            for (int pass = 0; pass < 2; pass++) {
                for (int64_t o = 0; o < cols; o++) {
                    if (!ok[o]) {
                        continue;
                    }
                    const double *y = u + o * rows;
                    double dot = 0.0;
                    for (int64_t i = 0; i < rows; i++) {
                        dot += x[i] * y[i];
                    }
                    for (int64_t i = 0; i < rows; i++) {
                        x[i] -= dot * y[i];
                    }
                }
            }
            double norm = 0.0;
            for (int64_t i = 0; i < rows; i++) {
                norm += x[i] * x[i];
            }
            norm = sqrt(norm);
            if (norm > 0.5) {
                for (int64_t i = 0; i < rows; i++) {
                    x[i] /= norm;
                }
                ok[c] = 1;
                break;
            }
        }
    }
}

/* One-sided Jacobi on the column-major rows x cols matrix w (rows >= cols): rotates pairs of columns
 * until all are orthogonal to working precision, accumulating the rotations into the cols x cols v. */
static void
hestenes(double *w, int64_t rows, int64_t cols, double *v)
{
    for (int sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < cols; p++) {
            for (int64_t q = p + 1; q < cols; q++) {
                double *wp = w + p * rows, *wq = w + q * rows;
                double alpha = 0.0, beta = 0.0, gamma = 0.0;
                for (int64_t i = 0; i < rows; i++) {
                    alpha += wp[i] * wp[i];
                    beta += wq[i] * wq[i];
                    gamma += wp[i] * wq[i];
                }
                if (gamma == 0.0 || fabs(gamma) <= DBL_EPSILON * sqrt(alpha) * sqrt(beta)) {
                    continue;
                }
                double zeta = (beta - alpha) / (2.0 * gamma);
                double t = copysign(1.0, zeta) / (fabs(zeta) + hypot(1.0, zeta));
                double c = 1.0 / sqrt(1.0 + t * t), s = t * c;
                for (int64_t i = 0; i < rows; i++) {
                    double xp = wp[i], xq = wq[i];
                    wp[i] = c * xp - s * xq;
                    wq[i] = s * xp + c * xq;
                }
                double *vp = v + p * cols, *vq = v + q * cols;
                for (int64_t i = 0; i < cols; i++) {
                    double xp = vp[i], xq = vq[i];
                    vp[i] = c * xp - s * xq;
                    vq[i] = s * xp + c * xq;
                }
                rotated = 1;
            }
        }
        if (!rotated) {
            break;
        }
    }
}

int
mt_cpu_svd(const double *a, int64_t m, int64_t n, double *s, double *u, int64_t ucols, double *vh, int64_t vrows)
{
    int tall = m >= n;
    int64_t rows = tall ? m : n, cols = tall ? n : m;
    /* the tall side's left factor: U (m >= n) or Vh's transpose (m < n) */
    int64_t lcols = tall ? ucols : vrows;
    double *w = alloc_doubles(rows * cols), *v = alloc_doubles(cols * cols), *norms = alloc_doubles(cols);
    double *left = u != NULL ? alloc_doubles(rows * lcols) : NULL;
    int64_t *idx = (int64_t *)malloc((size_t)(cols > 0 ? cols : 1) * sizeof(int64_t));
    unsigned char *ok = u != NULL ? (unsigned char *)malloc((size_t)(lcols > 0 ? lcols : 1)) : NULL;
    int rc = -1;

    if (w == NULL || v == NULL || norms == NULL || idx == NULL || (u != NULL && (left == NULL || ok == NULL))) {
        goto done;
    }
    /* w: A (m >= n) or A^T (m < n) column-major, i.e. A^T's or A's row-major layout */
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < n; j++) {
            if (tall) {
                w[j * m + i] = a[i * n + j];
            }
            else {
                w[i * n + j] = a[i * n + j];
            }
        }
    }
    memset(v, 0, (size_t)(cols * cols) * sizeof(double));
    for (int64_t i = 0; i < cols; i++) {
        v[i * cols + i] = 1.0;
    }
    hestenes(w, rows, cols, v);
    for (int64_t j = 0; j < cols; j++) {
        double norm = 0.0;
        for (int64_t i = 0; i < rows; i++) {
            norm = hypot(norm, w[j * rows + i]);
        }
        norms[j] = norm;
    }
    sort_indices(norms, idx, cols, 1);
    for (int64_t t = 0; t < cols; t++) {
        s[t] = norms[idx[t]];
    }
    if (u == NULL) {
        rc = 0;
        goto done;
    }
    /* columns whose singular value is negligible get a direction from the basis completion instead */
    double small = (cols > 0 ? s[0] : 0.0) * DBL_EPSILON * (double)rows;
    for (int64_t t = 0; t < lcols; t++) {
        ok[t] = 0;
        if (t < cols && s[t] > small && s[t] > 0.0) {
            const double *src = w + idx[t] * rows;
            for (int64_t i = 0; i < rows; i++) {
                left[t * rows + i] = src[i] / s[t];
            }
            ok[t] = 1;
        }
    }
    complete_basis(left, rows, lcols, ok);
    if (tall) {
        for (int64_t i = 0; i < m; i++) {
            for (int64_t t = 0; t < ucols; t++) {
                u[i * ucols + t] = left[t * m + i];
            }
        }
        for (int64_t t = 0; t < n; t++) {
            memcpy(vh + t * n, v + idx[t] * n, (size_t)n * sizeof(double));
        }
    }
    else {
        for (int64_t i = 0; i < m; i++) {
            for (int64_t t = 0; t < m; t++) {
                u[i * m + t] = v[idx[t] * m + i];
            }
        }
        memcpy(vh, left, (size_t)(vrows * n) * sizeof(double));
    }
    rc = 0;
done:
    free(w);
    free(v);
    free(norms);
    free(left);
    free(idx);
    free(ok);
    return rc;
}

/* ---- batches ------------------------------------------------------------------------------------------ */

/* malloc of n pivots (a valid block for n = 0), NULL when memory is short. */
static int64_t *
alloc_pivots(int64_t n)
{
    return (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
}

int
mt_cpu_det_batch(double *a, int64_t n, int64_t batch, double *det)
{
    int64_t *piv = alloc_pivots(n);

    if (piv == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n, d = 1.0;
        int flip = 0;
        if (n > 0) {
            mt_cpu_lu(m, n, piv);
        }
        for (int64_t k = 0; k < n; k++) {
            d *= m[k * n + k];
            flip ^= piv[k] != k;
        }
        det[b] = flip ? -d : d;
    }
    free(piv);
    return 0;
}

int
mt_cpu_slogdet_batch(double *a, int64_t n, int64_t batch, double *sign, double *logabs)
{
    int64_t *piv = alloc_pivots(n);

    if (piv == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n, s = 1.0, l = 0.0;
        int flip = 0;
        if (n > 0) {
            mt_cpu_lu(m, n, piv);
        }
        for (int64_t k = 0; k < n; k++) {
            double d = m[k * n + k];
            s *= (double)((d > 0) - (d < 0));
            l += log(fabs(d));
            flip ^= piv[k] != k;
        }
        sign[b] = flip ? -s : s;
        logabs[b] = l;
    }
    free(piv);
    return 0;
}

int
mt_cpu_inv_batch(double *a, int64_t n, int64_t batch, double *out, int32_t *info)
{
    int64_t *piv = alloc_pivots(n);

    if (piv == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n, *r = out + b * n * n;
        info[b] = 0;
        if (n == 0) {
            continue;
        }
        info[b] = (int32_t)mt_cpu_lu(m, n, piv);
        memset(r, 0, (size_t)(n * n) * sizeof(double));
        for (int64_t i = 0; i < n; i++) {
            r[i * n + i] = 1.0;
        }
        mt_cpu_lu_solve(m, piv, n, r, n);
    }
    free(piv);
    return 0;
}

int
mt_cpu_solve_batch(double *a, double *rhs, int64_t n, int64_t k, int left, int64_t batch, int32_t *info)
{
    int64_t *piv = alloc_pivots(n);
    double *scratch = NULL;

    if (piv == NULL) {
        return -1;
    }
    if (!left && n > 0 && k > 0) {
        scratch = alloc_doubles(n * (n > k ? n : k));
        if (scratch == NULL) {
            free(piv);
            return -1;
        }
    }
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n, *r = rhs + b * n * k;
        info[b] = 0;
        if (n == 0) {
            continue;
        }
        if (left) {
            info[b] = (int32_t)mt_cpu_lu(m, n, piv);
            mt_cpu_lu_solve(m, piv, n, r, k);
            continue;
        }
        /* X A = B is A^T X^T = B^T: factor A^T, solve for B^T (n x k), transpose back */
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < n; j++) {
                scratch[j * n + i] = m[i * n + j];
            }
        }
        memcpy(m, scratch, (size_t)(n * n) * sizeof(double));
        info[b] = (int32_t)mt_cpu_lu(m, n, piv);
        for (int64_t i = 0; i < k; i++) {
            for (int64_t j = 0; j < n; j++) {
                scratch[j * k + i] = r[i * n + j];
            }
        }
        mt_cpu_lu_solve(m, piv, n, scratch, k);
        for (int64_t i = 0; i < k; i++) {
            for (int64_t j = 0; j < n; j++) {
                r[i * n + j] = scratch[j * k + i];
            }
        }
    }
    free(scratch);
    free(piv);
    return 0;
}

int
mt_cpu_lu_factor_batch(double *a, int64_t m, int64_t n, int64_t batch, int pivot, int32_t *pivots, int32_t *info)
{
    int64_t k = m < n ? m : n;
    int64_t *piv = alloc_pivots(k);

    if (piv == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch; b++) {
        info[b] = (int32_t)mt_cpu_lu_rect(a + b * m * n, m, n, pivot, piv);
        for (int64_t i = 0; i < k; i++) {
            pivots[b * k + i] = (int32_t)(piv[i] + 1);
        }
    }
    free(piv);
    return 0;
}

/* The 0-based pivots of count 1-based LAPACK ones, or -1 when one is outside 1..n. */
static int
pivots_from_lapack(const int32_t *in, int64_t count, int64_t n, int64_t *out)
{
    for (int64_t i = 0; i < count; i++) {
        if (in[i] < 1 || in[i] > n) {
            return -1;
        }
        out[i] = in[i] - 1;
    }
    return 0;
}

int
mt_cpu_lu_solve_batch(const double *lu, const int32_t *pivots, int64_t n, double *b, int64_t k, int trans,
                      int64_t batch)
{
    int64_t *piv = alloc_pivots(n);
    int rc = 0;

    if (piv == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < batch && rc == 0; i++) {
        if (pivots_from_lapack(pivots + i * n, n, n, piv) < 0) {
            rc = -2;
        }
        else if (trans) {
            lu_solve_transposed(lu + i * n * n, piv, n, b + i * n * k, k);
        }
        else {
            mt_cpu_lu_solve(lu + i * n * n, piv, n, b + i * n * k, k);
        }
    }
    free(piv);
    return rc;
}

int
mt_cpu_lu_permutation_batch(const int32_t *pivots, int64_t npiv, int64_t m, int64_t batch, double *p)
{
    int64_t *rows = alloc_pivots(m);
    int64_t steps = npiv < m ? npiv : m;
    int rc = 0;

    if (rows == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch && rc == 0; b++) {
        const int32_t *in = pivots + b * npiv;
        double *out = p + b * m * m;
        for (int64_t i = 0; i < m; i++) {
            rows[i] = i;
        }
        for (int64_t i = 0; i < steps; i++) {
            if (in[i] < 1 || in[i] > m) {
                rc = -2;
                break;
            }
            int64_t t = rows[i];
            rows[i] = rows[in[i] - 1];
            rows[in[i] - 1] = t;
        }
        /* P^T A = L U takes row rows[i] of A to row i: P[rows[i]][i] = 1 */
        memset(out, 0, (size_t)(m * m) * sizeof(double));
        for (int64_t i = 0; i < m; i++) {
            out[rows[i] * m + i] = 1.0;
        }
    }
    free(rows);
    return rc;
}

int
mt_cpu_qr_batch(double *a, int64_t m, int64_t n, int64_t batch, double *r, int64_t rrows, double *q, int64_t qcols)
{
    int64_t k = m < n ? m : n;
    double *tau = alloc_doubles(k);

    if (tau == NULL) {
        return -1;
    }
    for (int64_t b = 0; b < batch; b++) {
        double *mat = a + b * m * n, *rb = r + b * rrows * n;
        mt_cpu_qr(mat, m, n, tau, q != NULL ? q + b * m * qcols : NULL, qcols);
        for (int64_t i = 0; i < rrows; i++) {
            for (int64_t j = 0; j < n; j++) {
                rb[i * n + j] = j >= i ? mat[i * n + j] : 0.0;
            }
        }
    }
    free(tau);
    return 0;
}

int
mt_cpu_eigh_batch(double *a, int64_t n, int64_t batch, int upper, double *w, double *v)
{
    for (int64_t b = 0; b < batch && n > 0; b++) {
        double *mat = a + b * n * n;
        /* only the UPLO triangle is read, as LAPACK's syevd does */
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n; j++) {
                if (upper) {
                    mat[j * n + i] = mat[i * n + j];
                }
                else {
                    mat[i * n + j] = mat[j * n + i];
                }
            }
        }
        if (mt_cpu_eigh(mat, n, w + b * n, v != NULL ? v + b * n * n : NULL) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- Cholesky and triangular solves ------------------------------------------------------------- */

/* n x n row-major a := its transpose, in place. */
static void
transpose_square(double *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = i + 1; j < n; j++) {
            double t = a[i * n + j];
            a[i * n + j] = a[j * n + i];
            a[j * n + i] = t;
        }
    }
}

int64_t
mt_cpu_cholesky(double *a, int64_t n)
{
    for (int64_t j = 0; j < n; j++) {
        double *rj = a + j * n;
        double ajj = rj[j];
        for (int64_t k = 0; k < j; k++) {
            ajj -= rj[k] * rj[k];
        }
        if (!(ajj > 0.0)) {
            /* not positive (or NaN): potf2 leaves the value on the diagonal and stops */
            rj[j] = ajj;
            return j + 1;
        }
        ajj = sqrt(ajj);
        rj[j] = ajj;
        double scale = 1.0 / ajj;
        for (int64_t i = j + 1; i < n; i++) {
            double *ri = a + i * n;
            double v = ri[j];
            for (int64_t k = 0; k < j; k++) {
                v -= ri[k] * rj[k];
            }
            ri[j] = v * scale;
        }
    }
    return 0;
}

void
mt_cpu_triangular_solve(const double *t, int64_t n, int upper, int unit, double *b, int64_t nrhs)
{
    for (int64_t step = 0; step < n; step++) {
        int64_t i = upper ? n - 1 - step : step;
        int64_t k0 = upper ? i + 1 : 0, k1 = upper ? n : i;
        double *bi = b + i * nrhs;
        for (int64_t k = k0; k < k1; k++) {
            double l = t[i * n + k];
            const double *bk = b + k * nrhs;
            for (int64_t j = 0; j < nrhs; j++) {
                /* trsm skips a zero solution element, not a zero coefficient: 0 * inf stays out */
                if (bk[j] != 0.0) {
                    bi[j] -= l * bk[j];
                }
            }
        }
        if (!unit) {
            double d = t[i * n + i];
            for (int64_t j = 0; j < nrhs; j++) {
                bi[j] /= d;
            }
        }
    }
}

int
mt_cpu_cholesky_batch(double *a, int64_t n, int64_t batch, int upper, int32_t *info)
{
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n;
        /* the upper triangle read as the lower one of the transpose: U = L^T */
        if (upper) {
            transpose_square(m, n);
        }
        info[b] = (int32_t)mt_cpu_cholesky(m, n);
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n; j++) {
                m[i * n + j] = 0.0;
            }
        }
        if (upper) {
            transpose_square(m, n);
        }
    }
    return 0;
}

int
mt_cpu_triangular_solve_batch(double *a, double *rhs, int64_t n, int64_t k, int upper, int left, int unit,
                              int64_t batch)
{
    double *scratch = NULL;

    if (!left && n > 0 && k > 0) {
        scratch = alloc_doubles(n * k);
        if (scratch == NULL) {
            return -1;
        }
    }
    for (int64_t b = 0; b < batch; b++) {
        double *m = a + b * n * n, *r = rhs + b * n * k;
        if (left) {
            mt_cpu_triangular_solve(m, n, upper, unit, r, k);
            continue;
        }
        if (n == 0 || k == 0) {
            continue;
        }
        /* X A = B is A^T X^T = B^T, A^T triangular on the other side */
        transpose_square(m, n);
        for (int64_t i = 0; i < k; i++) {
            for (int64_t j = 0; j < n; j++) {
                scratch[j * k + i] = r[i * n + j];
            }
        }
        mt_cpu_triangular_solve(m, n, !upper, unit, scratch, k);
        for (int64_t i = 0; i < k; i++) {
            for (int64_t j = 0; j < n; j++) {
                r[i * n + j] = scratch[j * k + i];
            }
        }
    }
    free(scratch);
    return 0;
}

int64_t
mt_cpu_first_nan_matrix(const double *a, int64_t count, int64_t batch)
{
    for (int64_t b = 0; b < batch && count > 0; b++) {
        for (int64_t i = 0; i < count; i++) {
            if (isnan(a[b * count + i])) {
                return b;
            }
        }
    }
    return -1;
}

static int
all_finite(const double *a, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        if (!isfinite(a[i])) {
            return 0;
        }
    }
    return 1;
}

static void
fill_nan(double *a, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        a[i] = NAN;
    }
}

int
mt_cpu_svd_batch(const double *a, int64_t m, int64_t n, int64_t batch, double *s, double *u, int64_t ucols,
                 double *vh, int64_t vrows)
{
    int64_t k = m < n ? m : n;

    for (int64_t b = 0; b < batch; b++) {
        const double *mat = a + b * m * n;
        double *ub = u != NULL ? u + b * m * ucols : NULL, *vb = vh != NULL ? vh + b * vrows * n : NULL;
        if (!all_finite(mat, m * n)) {
            /* an infinite element: torch's LAPACK call gives NaN everywhere */
            fill_nan(s + b * k, k);
            if (ub != NULL) {
                fill_nan(ub, m * ucols);
                fill_nan(vb, vrows * n);
            }
            continue;
        }
        if (mt_cpu_svd(mat, m, n, s + b * k, ub, ucols, vb, vrows) < 0) {
            return -1;
        }
    }
    return 0;
}

int
mt_cpu_householder_product_batch(double *a, int64_t m, int64_t n, int64_t batch, const double *tau, int64_t k)
{
    for (int64_t b = 0; b < batch; b++) {
        householder_product(a + b * m * n, m, n, k, tau + b * k);
    }
    return 0;
}

int
mt_cpu_geqrf_batch(double *a, int64_t m, int64_t n, int64_t batch, double *tau)
{
    int64_t k = m < n ? m : n;

    for (int64_t b = 0; b < batch; b++) {
        mt_cpu_qr(a + b * m * n, m, n, tau + b * k, NULL, 0);
    }
    return 0;
}

/* x -= tau * (x v) v^T over columns j.. of row r of the row-major matrix x (ld columns), v as in
 * apply_reflector: a reflector applied from the right. */
static void
apply_reflector_right(const double *a, int64_t lda, int64_t nq, int64_t j, double tau, double *x, int64_t ld,
                      int64_t r)
{
    double *row = x + r * ld;
    double w = row[j];
    for (int64_t i = j + 1; i < nq; i++) {
        w += row[i] * a[i * lda + j];
    }
    w *= tau;
    row[j] -= w;
    for (int64_t i = j + 1; i < nq; i++) {
        row[i] -= w * a[i * lda + j];
    }
}

int
mt_cpu_ormqr_batch(const double *a, int64_t nq, int64_t n, int64_t batch, const double *tau, int64_t k, double *c,
                   int64_t m, int64_t cn, int left, int transpose)
{
    /* Q C = H(0) (H(1) (... H(k-1) C)) and C Q^T take the reflectors from the last; Q^T C and C Q from the
     * first (LAPACK orm2r's order) */
    int forward = left == transpose;

    for (int64_t b = 0; b < batch; b++) {
        const double *ab = a + b * nq * n, *tb = tau + b * k;
        double *cb = c + b * m * cn;
        for (int64_t s = 0; s < k; s++) {
            int64_t i = forward ? s : k - 1 - s;
            if (tb[i] == 0.0) {
                continue;
            }
            for (int64_t l = 0; l < (left ? cn : m); l++) {
                if (left) {
                    apply_reflector(ab, n, nq, i, tb[i], cb, cn, l);
                }
                else {
                    apply_reflector_right(ab, n, nq, i, tb[i], cb, cn, l);
                }
            }
        }
    }
    return 0;
}

int
mt_cpu_ldl_factor_batch(double *a, int64_t n, int64_t batch, int32_t *pivots, int32_t *info)
{
    for (int64_t b = 0; b < batch; b++) {
        double *mat = a + b * n * n;
        /* the strict upper triangle is not read and comes back zero (torch factors tril(A)) */
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = i + 1; j < n; j++) {
                mat[i * n + j] = 0.0;
            }
        }
        info[b] = ldl_factor(mat, n, pivots + b * n);
    }
    return 0;
}

int
mt_cpu_ldl_solve_batch(const double *ld, const int32_t *pivots, int64_t n, double *b, int64_t k, int64_t batch)
{
    for (int64_t i = 0; i < batch; i++) {
        if (ldl_solve(ld + i * n * n, pivots + i * n, n, b + i * n * k, k) < 0) {
            return -2;
        }
    }
    return 0;
}
