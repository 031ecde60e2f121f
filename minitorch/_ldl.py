"""The LDL family as torch has it: linalg.ldl_factor_ex, linalg.ldl_factor and linalg.ldl_solve. The numbers
come from two private C ops (csrc/ops/linalg.c): _C._linalg_ldl_factor_ex (LAPACK sytrf's Bunch-Kaufman
factorisation of the lower triangle, LAPACK's pivot encoding) and _C._linalg_ldl_solve (sytrs), which own
torch's checks and messages. torch has no derivative for either: a result computed from an input that
requires grad carries torch's NotImplemented node, whose backward raises "derivative for
aten::linalg_ldl_factor_ex is not implemented". hermitian= changes nothing for real matrices (hetrf is
sytrf there)."""

from minitorch import _C
from minitorch._composite import return_type, with_out
from minitorch.autograd.function import _NotImplemented

__all__ = ["ldl_factor_ex", "ldl_factor", "ldl_solve"]

_SIGNATURES = {
    "ldl_factor_ex": ["linalg_ldl_factor_ex(Tensor input, *, bool hermitian=False, bool check_errors=False, "
                      "TensorList[3] out=None)"],
    "ldl_factor": ["linalg_ldl_factor(Tensor input, *, bool hermitian=False, TensorList[2] out=None)"],
    "ldl_solve": ["linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False, "
                  "Tensor out=None)"],
}

_RESULT = {name: return_type(name) for name in ("linalg_ldl_factor", "linalg_ldl_factor_ex")}


def _parse(name, args, kwargs):
    _, values, _ = _C._parse_args(_SIGNATURES[name], args, kwargs)
    return values


def _ldl_factor_ex(A, check_errors, api):
    extra = [None, None]    # pivots and info: integers, no node

    def compute():
        LD, extra[0], extra[1] = _C._linalg_ldl_factor_ex(A, check_errors=check_errors, api=api)
        return LD

    LD = _NotImplemented.apply("linalg_ldl_factor_ex", compute, A)
    return LD, extra[0], extra[1]


def ldl_factor_ex(*args, **kwargs):
    """(LD, pivots, info) of each symmetric n x n matrix of A (its lower triangle read): A = P L D L^T P^T
    by Bunch-Kaufman pivoting, D's 1 x 1 and 2 x 2 blocks and L packed in LD, pivots LAPACK's 1-based int32
    (negative for a 2 x 2 block), info sytrf's (the first zero block)."""
    v = _parse("ldl_factor_ex", args, kwargs)
    return with_out("linalg_ldl_factor_ex", v["out"], lambda: _RESULT["linalg_ldl_factor_ex"](
        *_ldl_factor_ex(v["input"], v["check_errors"], "torch.linalg.ldl_factor_ex")))


def ldl_factor(*args, **kwargs):
    """(LD, pivots) of linalg.ldl_factor_ex, raising torch's error for a singular block."""
    v = _parse("ldl_factor", args, kwargs)
    return with_out("linalg_ldl_factor", v["out"], lambda: _RESULT["linalg_ldl_factor"](
        *_ldl_factor_ex(v["input"], True, "torch.linalg.ldl_factor")[:2]))


def ldl_solve(*args, **kwargs):
    """The solution X of A X = B given A's (LD, pivots) from linalg.ldl_factor; batch dims of LD and B
    broadcast."""
    v = _parse("ldl_solve", args, kwargs)
    LD, pivots, B = v["LD"], v["pivots"], v["B"]
    return with_out("linalg_ldl_solve", v["out"], lambda: _NotImplemented.apply(
        "linalg_ldl_solve", lambda: _C._linalg_ldl_solve(LD, pivots, B), LD, B))
