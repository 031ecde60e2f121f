# Type stubs for minitorch.backends.cuda: torch.backends.cuda's matmul.allow_tf32 and is_built().

def is_built() -> bool: ...

class cuBLASModule:
    """The settings of cuBLAS-backed matmul, read and written as attributes."""

    allow_tf32: bool

matmul: cuBLASModule
