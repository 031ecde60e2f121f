/* linalg.c (python): the binding of the rows of ops.def for the linear-algebra forward computations
 * (_linalg_det, _linalg_slogdet, _linalg_inv_ex, _linalg_solve_ex, _linalg_svd, _linalg_qr, _linalg_eigh,
 * _linalg_cholesky_ex, _linalg_solve_triangular, _linalg_lu_factor_ex, _linalg_lu_solve, _linalg_lu_unpack_pivots,
 * _linalg_householder_product, _linalg_geqrf, _linalg_ormqr, _linalg_ldl_factor_ex, _linalg_ldl_solve).
 * The parser read every argument; the op runs its own checks (csrc/ops/linalg.c). */
#include "../ops/linalg.h"
#include "bind.h"

enum {
    R_A,
    R_B,
    R_LEFT,
    R_CHECK_ERRORS,
    R_EX,
    R_LOGDET,
    R_FULL_MATRICES,
    R_COMPUTE_UV,
    R_MODE,
    R_UPLO,
    R_COMPUTE_V,
    R_UPPER,
    R_UNITRIANGULAR,
    R_API
};

/* the LU, Householder and LDL families' parameters share the slots of others (a binding has at most MT_BIND_MAX_ROLES) */
static const char *const linalg_roles[] = {"A", "B|tau", "left", "check_errors", "ex", "logdet|unpack_pivots",
                                           "full_matrices", "compute_uv", "mode|pivots|other", "UPLO",
                                           "compute_v|adjoint|transpose", "upper|pivot", "unitriangular", "api", NULL};

static int
flag(const mt_call *c, int role)
{
    const mt_arg *a = mt_call_arg(c, role);
    return a != NULL && a->b;
}

static PyObject *
linalg_call(const mt_call *c)
{
    mt_TensorObject *A = mt_call_arg(c, R_A)->tensor;

    switch (c->code) {
    case MT_LINALG_DET:
        return mt_linalg_det(A);
    case MT_LINALG_SLOGDET:
        return mt_linalg_slogdet(A, flag(c, R_LOGDET));
    case MT_LINALG_INV_EX:
        return mt_linalg_inv_ex(A, flag(c, R_CHECK_ERRORS), flag(c, R_EX) ? "linalg.inv_ex" : "linalg.inv");
    case MT_LINALG_SOLVE_EX:
        return mt_linalg_solve_ex(A, mt_call_arg(c, R_B)->tensor, flag(c, R_LEFT), flag(c, R_CHECK_ERRORS),
                                  flag(c, R_EX) ? "torch.linalg.solve_ex" : "torch.linalg.solve");
    case MT_LINALG_SVD:
        return mt_linalg_svd(A, flag(c, R_FULL_MATRICES), flag(c, R_COMPUTE_UV));
    case MT_LINALG_QR:
        return mt_linalg_qr(A, mt_call_arg(c, R_MODE)->str);
    case MT_LINALG_CHOLESKY_EX:
        return mt_linalg_cholesky_ex(A, flag(c, R_UPPER), flag(c, R_CHECK_ERRORS), mt_call_arg(c, R_API)->str);
    case MT_LINALG_SOLVE_TRIANGULAR:
        return mt_linalg_solve_triangular(A, mt_call_arg(c, R_B)->tensor, flag(c, R_UPPER), flag(c, R_LEFT),
                                          flag(c, R_UNITRIANGULAR));
    case MT_LINALG_LU_FACTOR_EX:
        return mt_linalg_lu_factor_ex(A, flag(c, R_UPPER), flag(c, R_CHECK_ERRORS), mt_call_arg(c, R_API)->str);
    case MT_LINALG_LU_SOLVE:
        return mt_linalg_lu_solve(A, mt_call_arg(c, R_MODE)->tensor, mt_call_arg(c, R_B)->tensor, flag(c, R_LEFT),
                                  flag(c, R_COMPUTE_V));
    case MT_LINALG_LU_UNPACK_PIVOTS:
        return mt_linalg_lu_unpack_pivots(A, mt_call_arg(c, R_MODE)->tensor, flag(c, R_LOGDET));
    case MT_LINALG_HOUSEHOLDER_PRODUCT:
        return mt_linalg_householder_product(A, mt_call_arg(c, R_B)->tensor);
    case MT_LINALG_GEQRF:
        return mt_linalg_geqrf(A);
    case MT_LINALG_ORMQR:
        return mt_linalg_ormqr(A, mt_call_arg(c, R_B)->tensor, mt_call_arg(c, R_MODE)->tensor, flag(c, R_LEFT),
                               flag(c, R_COMPUTE_V));
    case MT_LINALG_LDL_FACTOR_EX:
        return mt_linalg_ldl_factor_ex(A, flag(c, R_CHECK_ERRORS), mt_call_arg(c, R_API)->str);
    case MT_LINALG_LDL_SOLVE:
        return mt_linalg_ldl_solve(A, mt_call_arg(c, R_MODE)->tensor, mt_call_arg(c, R_B)->tensor);
    default:
        return mt_linalg_eigh(A, mt_call_arg(c, R_UPLO)->str, flag(c, R_COMPUTE_V));
    }
}

const mt_binding mt_binding_linalg = {linalg_call, NULL, linalg_roles};
