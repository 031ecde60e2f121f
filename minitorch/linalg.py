"""minitorch.linalg: torch.linalg's slice: ``vector_norm`` (the C op ``linalg_vector_norm``, as torch
binds it), ``cross`` (minitorch/_products.py), and the matrix functions of minitorch/_linalg.py: ``det``,
``slogdet``, ``inv``, ``inv_ex``, ``solve``, ``solve_ex``, ``svd``, ``svdvals``, ``qr``, ``eigh``,
``eigvalsh``, ``norm``, ``matrix_norm``, ``matrix_rank``, ``pinv``, the Cholesky factorisation and
triangular solves of minitorch/_triangular.py (``cholesky``, ``cholesky_ex``, ``solve_triangular``), the
matrix products of minitorch/_matrix_products.py (``matrix_power``, ``multi_dot``, ``vander``) and the
exception ``LinAlgError`` (a RuntimeError) that a singular matrix raises. They take float32 and float64
matrices and batches of them (``(*, n, n)``) on every device. minitorch/_linalg_extras.py adds ``matmul``,
``diagonal``, ``vecdot``, ``tensorinv``, ``tensorsolve``, ``cond``, ``matrix_exp`` and ``lstsq`` (``eig`` and
``eigvals`` say that their complex results are not supported); minitorch/_householder.py
``householder_product`` and minitorch/_ldl.py ``ldl_factor``, ``ldl_factor_ex`` and ``ldl_solve``. Everything
else of torch.linalg says that minitorch does not have it yet."""

from minitorch._C import linalg_vector_norm as vector_norm
from minitorch._products import linalg_cross as cross
from minitorch._matrix_products import linalg_matrix_power as matrix_power, linalg_vander as vander, multi_dot
from minitorch._linalg import (LinAlgError, det, eigh, eigvalsh, inv, inv_ex, matrix_norm, matrix_rank, norm,
                               pinv, qr, slogdet, solve, solve_ex, svd, svdvals)
from minitorch._triangular import cholesky, cholesky_ex, solve_triangular
from minitorch._lu import lu, lu_factor, lu_factor_ex, lu_solve
from minitorch._householder import householder_product
from minitorch._ldl import ldl_factor, ldl_factor_ex, ldl_solve
# the composites of minitorch/_linalg_extras.py (eig and eigvals only refuse: their results are complex)
from minitorch._linalg_extras import (cond, diagonal, eig, eigvals, linalg_matmul as matmul,
                                      linalg_matrix_exp as matrix_exp, lstsq, tensorinv, tensorsolve, vecdot)
_EXTRAS = ["matmul", "diagonal", "vecdot", "tensorinv", "tensorsolve", "cond", "matrix_exp", "lstsq", "eig",
           "eigvals"]

__all__ = ["vector_norm", "cross", "det", "slogdet", "inv", "inv_ex", "solve", "solve_ex", "svd", "svdvals",
           "qr", "eigh", "eigvalsh", "norm", "matrix_norm", "matrix_rank", "pinv", "cholesky", "cholesky_ex",
           "solve_triangular", "matrix_power", "multi_dot", "vander", "LinAlgError"] + _EXTRAS
# the LU family (minitorch/_lu.py): lu, lu_factor, lu_factor_ex, lu_solve
__all__ += ["lu", "lu_factor", "lu_factor_ex", "lu_solve"]
# householder_product (minitorch/_householder.py) and the LDL family (minitorch/_ldl.py)
__all__ += ["householder_product", "ldl_factor", "ldl_factor_ex", "ldl_solve"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
