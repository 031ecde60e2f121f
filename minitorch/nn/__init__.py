"""minitorch.nn: neural network building blocks in pure Python on top of minitorch tensors.

This package owns torch.nn's slice that the tutorials use: ``Parameter``, ``Module`` (registration,
traversal, state_dict, in-place ``to``/``cuda``/``cpu``, repr), ``Linear``, the activations (``Softmax``,
``LogSoftmax`` too), losses, convolution, pooling, normalisation, dropout and embedding layers, the
recurrent layers, attention and the transformer layers, ``Identity``, ``Flatten``, ``Sequential``,
``ModuleList``, ``functional``, ``init`` and ``utils`` (``utils.rnn``: padded and packed sequences). Its arithmetic is
the C core's tensor ops: the ops torch has as ATen kernels (losses, activations) are compositions of them
with torch's node names (``_native.py``).
"""

from minitorch.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from minitorch.nn.modules import *  # noqa: F401,F403 - every layer, as torch.nn re-exports them
from minitorch.nn.modules import __all__ as _modules_all
from minitorch.nn import functional, init, utils  # noqa: E402

__all__ = (["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "functional", "init", "utils"]
           + _modules_all)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
