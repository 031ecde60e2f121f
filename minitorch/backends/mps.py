"""minitorch.backends.mps: torch.backends.mps's ``is_available()`` and ``is_built()``: False, as minitorch
has no Metal (Apple GPU) backend."""

__all__ = ["is_built", "is_available"]


def is_built():
    """False: minitorch is never built with MPS."""
    return False


def is_available():
    """False: minitorch has no MPS device."""
    return False


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
