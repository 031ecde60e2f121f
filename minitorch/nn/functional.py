"""nn.functional: the stateless forms of the layers: ``linear`` and ``relu``.

This file owns how each function maps onto the C core's tensor ops, choosing the op torch's own
kernel would use so that results and error messages (shape and device mismatches) match. It keeps no
state and never checks shapes or devices itself: the ops below raise torch's errors.
"""

import minitorch

__all__ = ["linear", "relu", "relu_"]


def _transpose(weight):
    # Tensor.t() in torch; the C core may expose only the .T property (same view for 2-D).
    t = getattr(weight, "t", None)
    return t() if t is not None else weight.T


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias, for input of shape (*, in_features) and weight of shape
    (out_features, in_features).

    Like torch's kernel: a 2-D input with a bias is one ``addmm`` (so a device mismatch names
    ``wrapper_CUDA_addmm`` and ``mat1``), anything else is ``matmul`` followed by the bias add.
    """
    # torch's parser rejects non-tensors before anything runs; without this a learner passing a list
    # got "'list' object has no attribute 'T'"
    for position, (name, value) in enumerate((("input", input), ("weight", weight), ("bias", bias)), 1):
        if not isinstance(value, minitorch.Tensor) and not (name == "bias" and value is None):
            raise TypeError("linear(): argument '{}' (position {}) must be Tensor, not {}".format(
                name, position, type(value).__name__))
    weight_t = _transpose(weight)
    if input.dim() == 2 and bias is not None:
        addmm = getattr(minitorch, "addmm", None)
        if addmm is not None:
            return addmm(bias, input, weight_t)
    output = minitorch.matmul(input, weight_t)
    if bias is not None:
        output = output + bias
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
