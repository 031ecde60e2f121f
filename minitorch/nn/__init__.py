"""minitorch.nn: neural network building blocks in pure Python on top of minitorch tensors.

This package owns torch.nn's slice that the tutorials use: ``Parameter``, ``Module`` (registration,
traversal, state_dict, in-place ``to``/``cuda``/``cpu``, repr), ``Linear``, ``ReLU``, ``Softmax``, ``LogSoftmax``, ``Identity``,
``Flatten``, ``Sequential``, ``ModuleList``, ``functional`` and ``init``. It must stay free of tensor
arithmetic of its own: every computation is a call into the C core.
"""

from minitorch.nn.parameter import Parameter
from minitorch.nn.modules import (
    Flatten,
    Identity,
    Linear,
    Module,
    ModuleList,
    LogSoftmax,
    ReLU,
    Sequential,
    Softmax,
)
from minitorch.nn import functional, init  # noqa: E402

__all__ = [
    "Parameter",
    "Module",
    "Identity",
    "Linear",
    "ReLU",
    "Softmax",
    "LogSoftmax",
    "Sequential",
    "ModuleList",
    "Flatten",
    "functional",
    "init",
]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
