"""minitorch.linalg: torch.linalg's slice: ``vector_norm`` (the C op ``linalg_vector_norm``, as torch
binds it) and ``cross`` (minitorch/_products.py). Everything else of torch.linalg says that minitorch does not have it yet."""

from minitorch._C import linalg_vector_norm as vector_norm
from minitorch._products import linalg_cross as cross

__all__ = ["vector_norm", "cross"]


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
