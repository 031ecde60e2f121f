"""minitorch.utils: the small helpers torch.utils holds that minitorch's slice needs (hooks)."""

from minitorch.utils import hooks  # noqa: F401


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
