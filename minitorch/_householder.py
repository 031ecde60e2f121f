"""linalg.householder_product as torch has it, with its alias torch.orgqr and Tensor.orgqr: the first n
columns of the product of the Householder reflectors that geqrf leaves below a matrix's diagonal. The
numbers come from the private C op _C._linalg_householder_product (csrc/ops/linalg.c: LAPACK orgqr's
order, in float64 on the host), which owns torch's checks and messages. The op records one node,
LinalgHouseholderProductBackward0, whose backward is torch's householder_product_backward
(FunctionsManual.cpp) over minitorch's ops (its out-of-place form, so that it runs on every device and
under create_graph=True)."""

import minitorch
from minitorch import _C
from minitorch._composite import with_out
from minitorch.autograd.function import Function, _apply

__all__ = ["householder_product", "orgqr"]

_SIGNATURES = {
    "householder_product": ["linalg_householder_product(Tensor input, Tensor tau, *, Tensor out=None)"],
    "orgqr": ["orgqr(Tensor input, Tensor input2, *, Tensor out=None)"],
}
_METHOD_SIGNATURES = {"orgqr": ["orgqr(Tensor input2)"]}


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


def install(tensor_type):
    """Puts Tensor.orgqr on the Tensor type (minitorch/__init__.py imports the functions)."""
    _orgqr_method.__name__ = "orgqr"
    _orgqr_method.__doc__ = orgqr.__doc__
    tensor_type.orgqr = _orgqr_method
