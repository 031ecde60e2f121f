"""linalg.householder_product as torch has it, with its alias torch.orgqr and Tensor.orgqr: the first n
columns of the product of the Householder reflectors that geqrf leaves below a matrix's diagonal. The
numbers come from the private C op _C._linalg_householder_product (csrc/ops/linalg.c: LAPACK orgqr's
order, in float64 on the host), which owns torch's checks and messages. The op records one node,
LinalgHouseholderProductBackward0, whose backward is torch's householder_product_backward
(FunctionsManual.cpp) over minitorch's ops (its out-of-place form, so that it runs on every device and
under create_graph=True).

geqrf (LAPACK's compact QR: R above the diagonal, the reflectors below, and their scalars tau) and ormqr
(those reflectors applied to a matrix) live here too, from the private C ops _C._linalg_geqrf and
_C._linalg_ormqr. torch has no derivative for geqrf (its node GeqrfBackward0 raises); ormqr's node
OrmqrBackward0 differentiates the reflector-by-reflector product over minitorch's ops."""

import minitorch
from minitorch import _C
from minitorch._composite import no_arguments, return_type, with_out
from minitorch.autograd.function import Function, _apply, _NoDerivative, _vjp

__all__ = ["householder_product", "orgqr", "geqrf", "ormqr"]

_SIGNATURES = {
    "householder_product": ["linalg_householder_product(Tensor input, Tensor tau, *, Tensor out=None)"],
    "orgqr": ["orgqr(Tensor input, Tensor input2, *, Tensor out=None)"],
    "geqrf": ["geqrf(Tensor input, *, TensorList[2] out=None)"],
    "ormqr": ["ormqr(Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False, *, "
              "Tensor out=None)"],
}
_METHOD_SIGNATURES = {
    "orgqr": ["orgqr(Tensor input2)"],
    "ormqr": ["ormqr(Tensor input2, Tensor input3, bool left=True, bool transpose=False)"],
}
_GEQRF = return_type("geqrf")


def _parse(name, args, kwargs, signatures=_SIGNATURES):
    _, values, _ = _C._parse_args(signatures[name], args, kwargs)
    return values


def _reflect(v, t, K, left):
    # (I - t v v^T) K (left) or K (I - t v v^T): apply_simple_transformation's out-of-place form
    t = t.unsqueeze(-1)
    if left:
        return K - (t * v) * v.mT.matmul(K)
    return K - K.matmul(t * v) * v.mT


def _householder_product_backward(grad, result, input_, tau):
    # householder_product_backward (FunctionsManual.cpp), real case: K_i = H_{i+1..k} Q_grad^T H_{1..i-1}
    # updated reflector by reflector, H(sigma_i) being H(tau_i)'s inverse
    if input_.numel() == 0 or tau.numel() == 0:
        return None, None
    m, n, k = input_.shape[-2], input_.shape[-1], tau.shape[-1]
    V = input_.tril(-1)
    V.diagonal(0, -2, -1).fill_(1.0)
    first = V.narrow(-1, 0, k)
    sigma = tau / (tau * (first * first).sum(-2) - 1.0)
    K = result.matmul(grad.mT)
    K = _reflect(V.narrow(-1, 0, 1), sigma.narrow(-1, 0, 1), K, True)
    v_grads, tau_grads = [], []
    for i in range(k):
        v = V.narrow(-1, i, 1)
        t = tau.narrow(-1, i, 1)
        vi = v.narrow(-2, i, m - i)
        vHK = vi.mT.matmul(K.narrow(-2, i, m - i))
        Kv = K.narrow(-1, i, m - i).matmul(vi)
        tu = t.unsqueeze(-1)
        v_grads.append((-tu * vHK).squeeze(-2) - (tu * Kv).squeeze(-1))
        tau_grads.append((-vHK.narrow(-1, i, m - i).matmul(vi)).squeeze(-1))
        if i != k - 1:
            K = _reflect(V.narrow(-1, i + 1, 1), sigma.narrow(-1, i + 1, 1), K, True)
            K = _reflect(v, t, K, False)
    input_grad = minitorch.stack(v_grads, -1)
    if k < n:
        zeros = minitorch.zeros(*input_.shape[:-1], n - k, dtype=input_.dtype, device=input_.device)
        input_grad = minitorch.cat([input_grad, zeros], -1)
    # the forward reads only the strictly lower triangle of input
    return input_grad.tril(-1), minitorch.cat(tau_grads, -1)


class _HouseholderProduct(Function):
    @staticmethod
    def forward(ctx, A, tau):
        Q = _C._linalg_householder_product(A, tau)
        ctx.save_for_backward(A, tau, Q)
        return Q

    @staticmethod
    def backward(ctx, grad):
        A, tau, Q = ctx.saved_tensors
        return _householder_product_backward(grad, Q, A, tau)


def _householder_product(A, tau):
    return _apply(_HouseholderProduct, "LinalgHouseholderProductBackward0", None, (A, tau), {})


def householder_product(*args, **kwargs):
    """The first n columns of H_1 ... H_k for each m x n matrix of A (m >= n >= k), H_i = I - tau_i v_i v_i^T
    with v_i the i-th column of A below the diagonal (a one on it): Q of linalg.qr from geqrf's output."""
    v = _parse("householder_product", args, kwargs)
    return with_out("linalg_householder_product", v["out"], lambda: _householder_product(v["input"], v["tau"]))


def orgqr(*args, **kwargs):
    """Alias of linalg.householder_product (LAPACK's name)."""
    v = _parse("orgqr", args, kwargs)
    return with_out("linalg_householder_product", v["out"], lambda: _householder_product(v["input"], v["input2"]))


def _orgqr_method(self, *args, **kwargs):
    v = _parse("orgqr", args, kwargs, _METHOD_SIGNATURES)
    return _householder_product(self, v["input2"])


# ---- geqrf, ormqr ------------------------------------------------------------------------------------------

def _geqrf(A):
    return _GEQRF(*_NoDerivative.apply("GeqrfBackward0", "geqrf", lambda: _C._linalg_geqrf(A), A))


def geqrf(*args, **kwargs):
    """LAPACK's geqrf of each m x n matrix of input as (a, tau): R in a's upper triangle, the Householder
    reflectors of Q below its diagonal (an implicit one on it), tau their min(m, n) scalars; the form
    householder_product (orgqr) and ormqr take."""
    v = _parse("geqrf", args, kwargs)
    out = v["out"]
    if out is not None and any(t.device.type == "meta" for t in out):
        _C._no_meta_kernel("aten::geqrf.a")     # torch has no meta function for geqrf's out= form either
    return with_out("geqrf", out, lambda: _geqrf(v["input"]))


def _apply_reflectors(A, tau, C, left, transpose):
    # ormqr over minitorch's ops (its backward's differentiable form): Q = H_0 ... H_{k-1}, applied to C
    # one reflector at a time in LAPACK orm2r's order
    k = tau.shape[-1]
    V = A.narrow(-1, 0, k).tril(-1)
    V.diagonal(0, -2, -1).fill_(1.0)
    order = range(k) if left == transpose else range(k - 1, -1, -1)
    for i in order:
        C = _reflect(V.narrow(-1, i, 1), tau.narrow(-1, i, 1), C, left)
    return C


class _Ormqr(Function):
    @staticmethod
    def forward(ctx, A, tau, C, left, transpose):
        ctx.left, ctx.transpose = left, transpose
        ctx.save_for_backward(A, tau, C)
        return _C._linalg_ormqr(A, tau, C, left, transpose)

    @staticmethod
    def backward(ctx, grad):
        A, tau, C = ctx.saved_tensors
        grads = _vjp(lambda a, t, c: _apply_reflectors(a, t, c, ctx.left, ctx.transpose), (A, tau, C),
                     ctx.needs_input_grad[:3], grad)
        return grads + (None, None)


def _ormqr(A, tau, C, left, transpose):
    return _apply(_Ormqr, "OrmqrBackward0", None, (A, tau, C, left, transpose), {})


def ormqr(*args, **kwargs):
    """op(Q) other (left) or other op(Q) for Q the product of the Householder reflectors of geqrf's (input,
    input2), op(Q) = Q^T when transpose: LAPACK's ormqr, without forming Q."""
    v = _parse("ormqr", args, kwargs)
    return with_out("ormqr", v["out"], lambda: _ormqr(v["input"], v["input2"], v["input3"], v["left"],
                                                      v["transpose"]))


def _geqrf_method(self, *args, **kwargs):
    no_arguments("geqrf", args, kwargs)
    return _geqrf(self)


def _ormqr_method(self, *args, **kwargs):
    v = _parse("ormqr", args, kwargs, _METHOD_SIGNATURES)
    return _ormqr(self, v["input2"], v["input3"], v["left"], v["transpose"])


def install(tensor_type):
    """Puts Tensor.orgqr, Tensor.geqrf and Tensor.ormqr on the Tensor type (minitorch/__init__.py imports the
    functions)."""
    for name, method, function in (("orgqr", _orgqr_method, orgqr), ("geqrf", _geqrf_method, geqrf),
                                   ("ormqr", _ormqr_method, ormqr)):
        method.__name__ = name
        method.__doc__ = function.__doc__
        setattr(tensor_type, name, method)
