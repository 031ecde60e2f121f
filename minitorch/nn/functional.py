"""nn.functional: the stateless forms of the layers: ``linear``, ``relu``, ``softmax`` and ``log_softmax``.

This file owns how each function maps onto the C core's tensor ops, choosing the op torch's own
kernel would use so that results and error messages (shape and device mismatches) match. It keeps no
state and never checks shapes or devices itself: the ops below raise torch's errors.
"""

import minitorch

__all__ = ["linear", "relu", "relu_", "softmax", "log_softmax"]

import warnings


def _flatten_nd_linear(input, weight_t, bias):
    """torch's _flatten_nd_linear: the input's leading dims folded into the rows of one addmm (a 1-D
    input is one row), the result viewed back to (*, out_features)."""
    sizes = input.shape
    rows = 1
    for size in sizes[:-1]:
        rows *= size
    result = minitorch.addmm(bias, input.reshape(rows, sizes[-1]), weight_t)
    return result.view(*sizes[:-1], result.shape[1])


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias, for input of shape (*, in_features) and weight of shape
    (out_features, in_features).

    Like torch's kernel (aten/native/Linear.cpp), which decides the error a mismatch raises: with a
    bias, a 2-D input is one ``addmm`` (so a device mismatch names ``wrapper_CUDA_addmm`` and a dtype
    mismatch ``mat1 and mat2``), and so is a contiguous input with its leading dims folded into rows
    when the bias is 1-D or has a single dim other than 1; anything else is ``matmul`` followed by an
    in-place bias add.
    """
    # torch's parser rejects non-tensors before anything runs; without this a learner passing a list
    # got "'list' object has no attribute 'T'"
    for position, (name, value) in enumerate((("input", input), ("weight", weight), ("bias", bias)), 1):
        if not isinstance(value, minitorch.Tensor) and not (name == "bias" and value is None):
            raise TypeError("linear(): argument '{}' (position {}) must be Tensor, not {}".format(
                name, position, type(value).__name__))
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are {}D and {}D".format(
            input.dim(), weight.dim()))
    weight_t = weight.t()
    if bias is not None:
        if input.dim() == 2:
            return minitorch.addmm(bias, input, weight_t)
        if input.is_contiguous() and (bias.dim() == 1 or sum(size != 1 for size in bias.shape) == 1):
            return _flatten_nd_linear(input, weight_t, bias)
    output = minitorch.matmul(input, weight_t)
    if bias is not None:
        output.add_(bias)
    return output


def relu(input, inplace=False):
    """max(input, 0) elementwise; with ``inplace`` the input is overwritten and returned."""
    if inplace:
        return relu_(input)
    return minitorch.relu(input)


def relu_(input):
    """In-place relu: overwrites ``input`` and returns it."""
    op = getattr(minitorch, "relu_", None)
    if op is not None:
        return op(input)
    return input.copy_(minitorch.relu(input))


def _get_softmax_dim(name, ndim, stacklevel):
    """torch's implicit dim for a softmax called without one (deprecated, so it warns): 0 for 0-, 1- and
    3-D inputs, else 1."""
    warnings.warn(
        "Implicit dimension choice for {} has been deprecated. Change the call to include dim=X as an "
        "argument.".format(name),
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(input) / exp(input).sum(dim) along dim; ``dtype`` converts the input first. Without ``dim``,
    torch's deprecated implicit choice (with its warning)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(input, dim)), computed stably; ``dtype`` converts the input first. Without ``dim``,
    torch's deprecated implicit choice (with its warning)."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
