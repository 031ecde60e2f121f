"""minitorch.backends.cuda: torch.backends.cuda's ``matmul`` settings and ``is_built()``.

``matmul`` is an object whose attributes read and write flags kept in the C core (torch's cuBLASModule),
global to the process, with torch's defaults: ``allow_tf32`` (False: float32 CUDA matmul in full
precision; True runs cuBLAS in CUBLAS_TF32_TENSOR_OP_MATH), ``allow_fp16_reduced_precision_reduction``
and ``allow_bf16_reduced_precision_reduction`` (True: a float16 or bfloat16 product computed with cuBLAS's
GEMM may reduce in reduced precision; False sets CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION around
it), each also settable as a tuple ``(allow_reduced_precision, allow_splitk)`` and read back in halves
through ``..._split_k``, and ``allow_fp16_accumulation`` (False: float16 products accumulate in float32).
They can be set in every build, as in torch's CPU build; only CUDA matmul reads them.
"""

from minitorch import _C, _global_flags

__all__ = ["is_built", "cuBLASModule", "matmul"]


def is_built():
    """True when minitorch was compiled with CUDA (not whether a GPU is present)."""
    return bool(_C.has_cuda)


class cuBLASModule:
    """The settings of cuBLAS-backed matmul, read and written as attributes."""

    @staticmethod
    def _parse_reduction_setting(value, attr_name):
        # torch's: a bool (split-k allowed), or a tuple or list of one or two bools
        def _ensure_bool(obj, which):
            if isinstance(obj, bool):
                return obj
            raise TypeError(f"{attr_name} expects a bool for {which}, but got {type(obj)!r}")

        if isinstance(value, bool):
            return value, True
        if isinstance(value, (list, tuple)):
            if not value:
                raise TypeError(f"{attr_name} expects at least one boolean argument")
            if len(value) > 2:
                raise TypeError(f"{attr_name} expects at most two boolean arguments")
            allow_reduced_precision = _ensure_bool(value[0], "allow_reduced_precision")
            if len(value) == 1:
                return allow_reduced_precision, True
            return allow_reduced_precision, _ensure_bool(value[1], "allow_splitk")
        raise TypeError(f"{attr_name} expects a bool or a tuple/list of bools, but got {type(value)!r}")

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _C._get_cublas_allow_tf32()
        if name == "allow_fp16_reduced_precision_reduction":
            return _C._get_cublas_allow_fp16_reduced_precision_reduction()[0]
        if name == "allow_fp16_reduced_precision_reduction_split_k":
            return _C._get_cublas_allow_fp16_reduced_precision_reduction()[1]
        if name == "allow_bf16_reduced_precision_reduction":
            return _C._get_cublas_allow_bf16_reduced_precision_reduction()[0]
        if name == "allow_bf16_reduced_precision_reduction_split_k":
            return _C._get_cublas_allow_bf16_reduced_precision_reduction()[1]
        if name == "allow_fp16_accumulation":
            return _C._get_cublas_allow_fp16_accumulation()
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            # torch's legacy setter: it also moves get_float32_matmul_precision's level
            return _global_flags._legacy_allow_tf32_set(value)
        if name == "allow_fp16_reduced_precision_reduction":
            return _C._set_cublas_allow_fp16_reduced_precision_reduction(
                *self._parse_reduction_setting(value, "allow_fp16_reduced_precision_reduction"))
        if name == "allow_bf16_reduced_precision_reduction":
            return _C._set_cublas_allow_bf16_reduced_precision_reduction(
                *self._parse_reduction_setting(value, "allow_bf16_reduced_precision_reduction"))
        if name == "allow_fp16_accumulation":
            return _C._set_cublas_allow_fp16_accumulation(value)
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
