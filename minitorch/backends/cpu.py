"""minitorch.backends.cpu: torch.backends.cpu's ``get_cpu_capability()``."""

from minitorch import _C

__all__ = ["get_cpu_capability"]


def get_cpu_capability():
    """torch's CPU capability on this CPU, 'AVX512', 'AVX2' or 'DEFAULT', chosen by torch's rule
    (ATEN_CPU_CAPABILITY overrides it, as torch's): the code paths whose values minitorch's CPU kernels
    reproduce. MINITORCH_CPU_ISA, which caps minitorch's own vector code, changes neither."""
    return _C._get_cpu_capability()


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
