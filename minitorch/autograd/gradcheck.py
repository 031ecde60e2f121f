"""torch.autograd.gradcheck: the gradients autograd computes against central finite differences.

For each input that requires grad and each output, the numerical Jacobian comes from perturbing one
input element at a time by +-eps (in place, under no_grad) and the analytical one from autograd.grad
with a one-hot gradient per output element; they must agree within atol + rtol * |numerical|. As in
torch, the inputs should be float64 for the check to mean anything, and a mismatch raises
GradcheckError (a RuntimeError) unless raise_exception=False, which returns False instead.
"""

import itertools

from minitorch import _C
from minitorch.autograd.grad_mode import no_grad

__all__ = ["gradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the analytical and numerical gradients differ."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,) if isinstance(x, _C.Tensor) else tuple(x)


def _indices(t):
    return list(itertools.product(*[range(n) for n in t.shape]))


def _flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()] if t.numel() else []


def _numerical(func, inputs, i, outputs_n, eps):
    """jac[k][j]: d output k (flattened, per output) / d input i element j."""
    x = inputs[i]
    data = x.detach()
    columns = []
    for idx in _indices(x):
        with no_grad():
            orig = float(data[idx])
            data[idx] = orig - eps
            minus = [_flat(o) for o in _as_tuple(func(*inputs))]
            data[idx] = orig + eps
            plus = [_flat(o) for o in _as_tuple(func(*inputs))]
            data[idx] = orig
        columns.append([[(p - m) / (2 * eps) for p, m in zip(pk, mk)] for pk, mk in zip(plus, minus)])
    return [[[col[k][e] for col in columns] for e in range(len(columns[0][k]) if columns else 0)]
            for k in range(outputs_n)]


def _analytical(outputs, inputs, i):
    """jac[k][e][j]: row e of output k against input i."""
    from minitorch import autograd

    x = inputs[i]
    result = []
    for out in outputs:
        rows = []
        for idx in _indices(out):
            seed = _C.zeros_like(out)
            seed[idx] = 1.0
            g, = autograd.grad(out, x, seed, retain_graph=True, allow_unused=True)
            rows.append(_flat(g) if g is not None else [0.0] * x.numel())
        result.append(rows)
    return result


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True when autograd's gradients of func at inputs match finite differences."""
    inputs = _as_tuple(inputs)
    if not any(isinstance(t, _C.Tensor) and t.requires_grad for t in inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i, x in enumerate(inputs):
        if not (isinstance(x, _C.Tensor) and x.requires_grad):
            continue
        # the perturbations bump the inputs' versions: the graph for the analytical side comes after
        n_out = len([o for o in _as_tuple(func(*inputs)) if isinstance(o, _C.Tensor) and o.requires_grad])
        numerical = _numerical(func, inputs, i, n_out, eps)
        outputs = [o for o in _as_tuple(func(*inputs)) if isinstance(o, _C.Tensor) and o.requires_grad]
        analytical = _analytical(outputs, inputs, i)
        for k in range(len(outputs)):
            for num_row, ana_row in zip(numerical[k], analytical[k]):
                if any(abs(a - n) > atol + rtol * abs(n) for n, a in zip(num_row, ana_row)):
                    if not raise_exception:
                        return False
                    raise GradcheckError(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                         f"numerical:{numerical[k]}\nanalytical:{analytical[k]}\n")
    return True
