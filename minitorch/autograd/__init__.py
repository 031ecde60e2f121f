"""minitorch.autograd: torch's autograd API over minitorch's C graph and engine.

Every op on a tensor that requires grad records a node (csrc/autograd/); ``backward`` and ``grad``
check their arguments as torch's Python layer does (torch/autograd/__init__.py) and hand the work to
the C engine, which runs the nodes in torch's order. ``Function`` lets a user write an op's forward
and backward in Python; ``Variable`` is the old name torch keeps for a tensor.
"""

import warnings

from minitorch import _C
from minitorch.autograd import anomaly_mode, grad_mode  # noqa: F401
from minitorch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from minitorch.autograd.function import Function  # noqa: F401
from minitorch.autograd.gradcheck import gradcheck  # noqa: F401
from minitorch.autograd.grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from minitorch.autograd.variable import Variable  # noqa: F401

__all__ = ["Variable", "Function", "backward", "grad", "gradcheck", "grad_mode", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
           "detect_anomaly", "set_detect_anomaly"]


def _as_tuple(x):
    return (x,) if isinstance(x, _C.Tensor) else tuple(x)


def _make_grads(outputs, grads):
    """torch's _make_grads: each gradient checked against its output, or ones for a scalar output."""
    if len(grads) < len(outputs):
        grads = list(grads) + [None] * (len(outputs) - len(grads))
    new_grads = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if isinstance(grad, _C.Tensor):
            if grad.shape != out.shape:
                raise RuntimeError("Mismatch in shape: grad_output[" + str(i) + "] has a shape of "
                                   + str(grad.shape) + " and output[" + str(i) + "] has a shape of "
                                   + str(out.shape) + ".")
            new_grads.append(grad)
        elif grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar outputs"
                                       f" but got {out.dtype}")
                new_grads.append(_C.ones_like(out))
            else:
                new_grads.append(None)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(grad).__name__)
    return new_grads


def _grads_tuple(grads, n):
    # torch's _tensor_or_tensors_to_tuple; _make_grads then pairs them with the outputs
    if grads is None:
        return [None] * n
    if isinstance(grads, _C.Tensor):
        return [grads]
    return list(grads)


def _run(tensors, grads, retain_graph, create_graph, inputs, allow_unused, accumulate):
    # an output that needs no grad has no gradient: the engine raises torch's error for it
    grads = [g if g is not None else t for t, g in zip(tensors, grads)]
    return _C._run_backward(tensors, grads, retain_graph, create_graph, inputs, allow_unused, accumulate)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Accumulates into .grad of the leaves the gradients of ``tensors`` (weighted by ``grad_tensors``)."""
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning,
                      stacklevel=2)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
    if inputs is None:
        inputs_tuple = ()
    elif isinstance(inputs, _C.Tensor):
        inputs_tuple = (inputs,)
    elif type(inputs) is dict:
        inputs_tuple = tuple(inputs.values())
    else:
        inputs_tuple = tuple(inputs)
    if inputs is not None and len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = _as_tuple(tensors)
    grads = _make_grads(tensors, _grads_tuple(grad_tensors, len(tensors)))
    if retain_graph is None:
        retain_graph = create_graph
    for t in inputs_tuple:
        if t.grad_fn is not None:
            t.retain_grad()    # as torch does: a non-leaf input gets its .grad through retain_grad
    _run(tensors, grads, retain_graph, create_graph, inputs_tuple, False, True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, as a tuple; nothing goes into .grad."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if is_grads_batched:
        raise NotImplementedError("minitorch: autograd.grad(is_grads_batched=True) is not supported yet")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    is_dict = type(inputs) is dict
    inputs_tuple = tuple(inputs.values()) if is_dict else _as_tuple(inputs)
    if len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _make_grads(outputs, _grads_tuple(grad_outputs, len(outputs)))
    if retain_graph is None:
        retain_graph = create_graph
    result = _run(outputs, grads, retain_graph, create_graph, inputs_tuple, allow_unused, False)
    if materialize_grads:
        result = tuple(g if g is not None else _C.zeros_like(i) for g, i in zip(result, inputs_tuple))
    if is_dict:
        return dict(zip(inputs.keys(), result))
    return result


from minitorch.autograd import functional  # noqa: E402,F401  (it builds on grad above)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
