"""minitorch.backends.mkl: torch.backends.mkl's ``is_available()``: False, where torch's own builds say
True, because minitorch does not use Intel MKL (its CPU kernels and their thread pool are its own)."""

__all__ = ["is_available"]


def is_available():
    """False: minitorch does not use MKL."""
    return False


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
