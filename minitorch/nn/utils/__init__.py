"""torch.nn.utils: gradient clipping, parameter <-> vector conversions and (``rnn``) padded and packed
sequences."""

from minitorch.nn.utils.clip_grad import (  # noqa: F401
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from minitorch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from minitorch.nn.utils import rnn  # noqa: F401

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "rnn"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
