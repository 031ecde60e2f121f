"""Parameters flattened into one vector and back (torch.nn.utils.convert_parameters)."""

import minitorch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(param, old_device):
    """The device all parameters must share (torch refuses parameters on several)."""
    if old_device is None:
        return param.device
    if param.device != old_device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_device


def parameters_to_vector(parameters):
    """The parameters' values, flattened and concatenated into one 1-D tensor."""
    device = None
    vec = []
    for param in parameters:
        device = _check_same_device(param, device)
        vec.append(param.view(-1))
    return minitorch.cat(vec)


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of vec into the parameters' .data (the inverse of parameters_to_vector)."""
    if not isinstance(vec, minitorch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {minitorch.typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_same_device(param, device)
        num = param.numel()
        param.data = vec[pointer:pointer + num].view_as(param).data
        pointer += num
