"""minitorch.backends: switches for the libraries behind the ops, as in torch.backends.

Only ``minitorch.backends.cuda.matmul.allow_tf32`` exists: whether float32 matmul on a CUDA device may
use TF32 tensor cores (faster, about 10 bits of mantissa in the products). It is off by default, as in
torch.
"""

from minitorch.backends import cuda  # noqa: F401


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
