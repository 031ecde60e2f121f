"""torch.autograd.functional: Jacobians, Hessians and their products with vectors, for a function of tensors.

Each entry point calls the user's function on copies of the inputs that require grad and differentiates
its outputs with ``minitorch.autograd.grad``, with torch's arguments, torch's result structure (a Tensor
for a Tensor, a tuple for a tuple, nested for Jacobians and Hessians) and torch's errors. minitorch has no
forward-mode AD: ``jvp`` and ``hvp`` use the double-backward trick, as torch's own ``jvp`` and ``hvp`` do
(so the arithmetic is torch's); ``strategy="forward-mode"`` computes the same Jacobian in reverse mode.
``vectorize=True`` asks torch to batch the backward passes with vmap; minitorch runs them one after the
other, which gives the same Jacobian.
"""

from minitorch import _C
from minitorch.autograd import grad as _grad
from minitorch.autograd.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_Tensor = _C.Tensor


# ---- arguments and results ---------------------------------------------------------------------------


def _tensors(value, arg_name, fn_name):
    """(given as a tuple, the tensors as a tuple); torch's TypeError for anything but tensors."""
    given_tuple = isinstance(value, tuple)
    items = value if given_tuple else (value,)
    for i, item in enumerate(items):
        if isinstance(item, _Tensor):
            continue
        where = f"the value at index {i}" if given_tuple else f"the given {arg_name}"
        raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                        f"{where} has type {type(item)}.")
    return given_tuple, items


def _unpack(result, as_tuple):
    """The result as the caller gave it: as_tuple is a flag, or (outer flag, inner flag) for a nested
    result (a Jacobian's rows per output, columns per input)."""
    if isinstance(as_tuple, tuple):
        outer, inner = as_tuple
        if not inner:
            result = tuple(row[0] for row in result)
        return result if outer else result[0]
    return result if as_tuple else result[0]


def _differentiable(tensors, create_graph, need_graph):
    """The tensors the user's function sees: views of them (create_graph, the caller's graph goes on) or
    detached copies that require grad when need_graph."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
                 for t in tensors)


def _detached(tensors, create_graph):
    """The results as they leave: detached unless create_graph; nested tuples handled level by level."""
    if isinstance(tensors[0], _Tensor):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(_detached(t, create_graph) for t in tensors)


def _check_v(v, against, against_is_tuple):
    if len(v) != len(against):
        if against_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(against)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, against)):
        if a.size() != b.size():
            where = f"Entry {i} in " if against_is_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {b.size()} but got {a.size()}.")


def _prepare_v(v, fn_name, create_graph, against, against_is_tuple):
    _, v = _tensors(v, "v", fn_name)
    v = _differentiable(v, create_graph, False)
    _check_v(v, against, against_is_tuple)
    return v


_STRICT_NO_GRAD = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be "
               "computed in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with "
                "respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                "should ensure that your function is twice differentiable and that the jacobian depends on the "
                "inputs (this would be violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the "
               "input. This is not allowed in strict mode. You should ensure that your function is thrice "
               "differentiable and that the hessian depends on the inputs.",
}


def _strict_requires_grad(tensors, kind, strict):
    """strict mode: each of the tensors (outputs, gradients) must exist and require grad."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT_NO_GRAD[kind].format(i=i))


def _grads(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad (None for each input when none does)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return _grad(tuple(o for o, _ in kept), inputs, tuple(g for _, g in kept), allow_unused=True,
                 create_graph=create_graph, retain_graph=retain_graph)


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _zeros_for_none(grads, like, strict, create_graph, stage):
    """Each missing gradient as zeros shaped like its reference (strict mode: torch's error instead)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            g = _C.zeros_like(like[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _single_scalar_output(outputs, outputs_tuple, fn_name):
    if outputs_tuple or not isinstance(outputs[0], _Tensor):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")


def _v_for_single_element(v, tensors, what):
    if v is None and (len(tensors) != 1 or tensors[0].nelement() != 1):
        raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")


# ---- products with a vector ----------------------------------------------------------------------------


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at the inputs (v may be omitted for a
    one-element output)."""
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, "inputs", "vjp")
        inputs = _differentiable(inputs, create_graph, True)
        outputs_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function", "vjp")
        _strict_requires_grad(outputs, "outputs", strict)
        if v is not None:
            v = _prepare_v(v, "vjp", create_graph, outputs, outputs_tuple)
        else:
            _v_for_single_element(v, outputs, "the user-provided function returns")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _zeros_for_none(_grads(outputs, inputs, v, create_graph=create_graph), inputs, strict,
                                 create_graph, "back")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product at the inputs, by the double-backward trick as in
    torch (v may be omitted for a one-element input)."""
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, "inputs", "jvp")
        inputs = _differentiable(inputs, create_graph, True)
        if v is not None:
            v = _prepare_v(v, "jvp", create_graph, inputs, inputs_tuple)
        else:
            _v_for_single_element(v, inputs, "the input to the user-provided function is")
        outputs_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function", "jvp")
        _strict_requires_grad(outputs, "outputs", strict)
        # u -> J^T u is linear in u; differentiating it with respect to u, along v, gives J v
        dummies = tuple(_C.zeros_like(o, requires_grad=True) for o in outputs)
        vjps = _grads(outputs, inputs, dummies, create_graph=True)
        _strict_requires_grad(vjps, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _zeros_for_none(_grads(vjps, dummies, v, create_graph=create_graph), outputs, strict,
                                 create_graph, "back_trick")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), outputs_tuple))


def _hessian_setup(func, inputs, v, create_graph, strict, fn_name):
    """The inputs, v, the function's single output and its gradient (with its graph)."""
    inputs_tuple, inputs = _tensors(inputs, "inputs", fn_name)
    inputs = _differentiable(inputs, create_graph, True)
    if v is not None:
        v = _prepare_v(v, fn_name, create_graph, inputs, inputs_tuple)
    else:
        _v_for_single_element(v, inputs, "the input to the user-provided function is")
    outputs_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function", fn_name)
    _strict_requires_grad(outputs, "outputs", strict)
    _single_scalar_output(outputs, outputs_tuple, fn_name)
    jac = _grads(outputs, inputs, create_graph=True)
    _strict_requires_grad(jac, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H): the vector-Hessian product of a scalar function at the inputs."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _hessian_setup(func, inputs, v, create_graph,
                                                                              strict, "vhp")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _zeros_for_none(_grads(jac, inputs, v, create_graph=create_graph), inputs, strict, create_graph,
                                 "double_back")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v): the Hessian-vector product of a scalar function at the inputs, by the
    double-backward trick as in torch."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _hessian_setup(func, inputs, v, create_graph,
                                                                              strict, "hvp")
        dummies = tuple(_C.zeros_like(t, requires_grad=True) for t in inputs)
        double_back = _grads(jac, inputs, dummies, create_graph=True)
        _strict_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _zeros_for_none(_grads(double_back, dummies, v, create_graph=create_graph), inputs, strict,
                                 create_graph, "double_back_trick")
    return (_unpack(_detached(outputs, create_graph), outputs_tuple),
            _unpack(_detached(result, create_graph), inputs_tuple))


# ---- whole Jacobians and Hessians ----------------------------------------------------------------------


def _jacobian_rows(outputs, inputs, create_graph, strict):
    """For each output, for each input, the gradients of the output's elements one by one (a list of
    tensors shaped like the input)."""
    table = []
    for i, out in enumerate(outputs):
        columns = tuple([] for _ in inputs)
        flat = out.reshape(-1)
        for k in range(out.nelement()):
            row = _grads((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
            for j, (g, inp) in enumerate(zip(row, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. "
                                           "This is not allowed in strict mode.")
                    g = _C.zeros_like(inp)
                elif strict and create_graph and not g.requires_grad:
                    raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                       "This is not allowed in strict mode when create_graph=True.")
                columns[j].append(g)
        table.append(columns)
    return table


def _jacobian_rows_vectorized(outputs, inputs, create_graph):
    """vectorize=True: one backward per element of all the outputs together (torch batches them with vmap),
    each with a one-hot vector over the flattened outputs."""
    numels = [o.nelement() for o in outputs]
    flat = tuple(o.reshape(-1) for o in outputs)
    total = sum(numels)
    columns = tuple([] for _ in inputs)
    for k in range(total):
        onehot = []
        start = 0
        for o, n in zip(outputs, numels):
            e = o.new_zeros(n)
            if start <= k < start + n:
                e[k - start] = 1
            onehot.append(e)
            start += n
        row = _grads(flat, inputs, tuple(onehot), retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(row, inputs)):
            columns[j].append(g if g is not None else _C.zeros_like(inp))
    table = [tuple([] for _ in inputs) for _ in outputs]
    for j in range(len(inputs)):
        start = 0
        for i, n in enumerate(numels):
            table[i][j].extend(columns[j][start:start + n])
            start += n
    return table


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of func at the inputs: a Tensor of shape output.shape + input.shape, or nested tuples
    (per output, then per input) when func returns a tuple or inputs is a tuple.

    strategy="forward-mode" gives the same Jacobian, computed in reverse mode (minitorch has no forward-mode
    AD); torch's errors for the combinations it refuses are kept."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
                               'are not supported together (yet). Please either set `strict=False` or '
                               '`strategy="reverse-mode"`.')
        _tensors(inputs, "inputs", "jacobian")
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, "inputs", "jacobian")
        inputs = _differentiable(inputs, create_graph, True)
        outputs_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function", "jacobian")
        _strict_requires_grad(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                                   "supported together. Please either set `strict=False` or `vectorize=False`.")
            table = _jacobian_rows_vectorized(outputs, inputs, create_graph)
        else:
            table = _jacobian_rows(outputs, inputs, create_graph, strict)
        result = tuple(tuple(_C.stack(columns[j], dim=0).view(out.size() + inputs[j].size())
                             for j in range(len(inputs)))
                       for out, columns in zip(outputs, table))
        return _unpack(_detached(result, create_graph), (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function at the inputs: a Tensor of shape input.shape + input.shape, or a
    tuple of tuples (per pair of inputs) when inputs is a tuple. The outer Jacobian's "forward-mode" is
    computed in reverse mode, as jacobian() does."""
    inputs_tuple, inputs = _tensors(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar(*args):
        out = func(*args)
        out_tuple, outs = _tensors(out, "outputs of the user-provided function", "hessian")
        _strict_requires_grad(outs, "outputs", strict)
        if out_tuple or not isinstance(out, _Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single "
                               "element")
        return out.squeeze()

    def gradient(*args):
        jac = jacobian(scalar, args, create_graph=True)
        _strict_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _unpack(result, (inputs_tuple, inputs_tuple))
