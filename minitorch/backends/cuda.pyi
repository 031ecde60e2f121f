# Type stubs for minitorch.backends.cuda: torch.backends.cuda's matmul settings and is_built().

from typing import Any

def is_built() -> bool: ...

class cuBLASModule:
    """The settings of cuBLAS-backed matmul, read and written as attributes."""

    allow_tf32: bool
    # set as a bool or a tuple/list (allow_reduced_precision, allow_splitk); read back as a bool
    allow_fp16_reduced_precision_reduction: Any
    allow_bf16_reduced_precision_reduction: Any
    allow_fp16_reduced_precision_reduction_split_k: bool
    allow_bf16_reduced_precision_reduction_split_k: bool
    allow_fp16_accumulation: bool

matmul: cuBLASModule
