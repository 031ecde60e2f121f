"""minitorch.backends.cuda: torch.backends.cuda's ``matmul.allow_tf32`` and ``is_built()``.

``matmul`` is an object whose attributes read and write flags kept in the C core (torch's cuBLASModule):
``minitorch.backends.cuda.matmul.allow_tf32 = True`` makes the next float32 CUDA matmul run cuBLAS in
CUBLAS_TF32_TENSOR_OP_MATH. The flag takes a bool only and is global to the process.
"""

from minitorch import _C

__all__ = ["is_built", "matmul"]


def is_built():
    """True when minitorch was compiled with CUDA (not whether a GPU is present)."""
    return bool(_C.has_cuda)


class cuBLASModule:
    """The settings of cuBLAS-backed matmul, read and written as attributes."""

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _C._get_cublas_allow_tf32()
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            return _C._set_cublas_allow_tf32(value)
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
