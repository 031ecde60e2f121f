"""minitorch.backends.cudnn: torch.backends.cudnn's settings and the cuDNN minitorch loads.

On a CUDA device minitorch's convolution goes through cuDNN (loaded with dlopen at first use, as cuBLAS
is: libcudnn.so.9 or .8 on the loader's path, the toolkit's, or the nvidia-cudnn pip wheel's) when
``enabled`` is True and the library can be loaded; ``is_available()`` then says True and ``version()``
gives cudnnGetVersion() (91002 for 9.10.2). Without a library, in a CPU build and on the simulated GPU
(MINITORCH_SIMULATE_GPU) there is no cuDNN: ``is_available()`` is False, ``version()`` None, and
convolution is minitorch's im2col and GEMM. The flags ``enabled``, ``benchmark``, ``deterministic`` and
``allow_tf32`` keep torch's defaults (True, False, False, True), torch's bool checks and messages,
``flags(...)`` and torch.backends' ``disable_global_flags``; under cuDNN ``benchmark`` picks the
algorithm by timing (cached per shape), ``deterministic`` keeps to deterministic algorithms and
``allow_tf32=False`` keeps float32 convolutions off TF32 (cuDNN's FMA math), as torch's. ``benchmark_limit`` is a
plain attribute (None).
"""

import contextlib
import sys
import types
import warnings

import minitorch
from minitorch import backends as _backends

__all__ = ["is_available", "version", "is_acceptable", "flags", "set_flags"]

# torch's defaults; each setter's name as torch's messages say it (allow_tf32's names cuBLAS's, as torch's)
_settings = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}
_setter_names = {"enabled": "set_enabled_cudnn", "benchmark": "set_benchmark_cudnn",
                 "deterministic": "set_deterministic_cudnn", "allow_tf32": "set_allow_tf32_cublas"}

CUDNN_TENSOR_DTYPES = {minitorch.half, minitorch.float, minitorch.double}


def is_available():
    """Whether minitorch can use cuDNN: a CUDA build, a real CUDA device runtime and a libcudnn that loads."""
    return minitorch._C._cudnn_version() is not None


def version():
    """cuDNN's version as an int (91002 for 9.10.2), or None without cuDNN."""
    return minitorch._C._cudnn_version()


def is_acceptable(tensor):
    """Whether cuDNN would take this tensor: False on CPU tensors and other dtypes, as torch's; a float CUDA
    tensor without cuDNN warns (torch's check), then False."""
    if not _settings["enabled"]:
        return False
    if tensor.device.type != "cuda" or tensor.dtype not in CUDNN_TENSOR_DTYPES:
        return False
    if not is_available():
        warnings.warn("minitorch was compiled without cuDNN/MIOpen support: minitorch found no cuDNN library",
                      stacklevel=2)
        return False
    return True


def _set(name, value):
    # torch's _C setters: a bool only
    if not isinstance(value, bool):
        raise RuntimeError("{} expects a bool, but got {}".format(_setter_names[name], type(value).__name__))
    _settings[name] = value


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None, _allow_tf32=None,
              _fp32_precision="none", _depthwise_kernel=None):
    """Sets the given flags (None: unchanged) and returns the previous ones, as torch's. benchmark_limit
    is set only where cuDNN is available (never here); fp32_precision and depthwise_kernel are accepted
    and not recorded."""
    orig_flags = (_settings["enabled"], _settings["benchmark"], None, _settings["deterministic"],
                  _settings["allow_tf32"], "none", None)
    for name, value in (("enabled", _enabled), ("benchmark", _benchmark), ("deterministic", _deterministic),
                        ("allow_tf32", _allow_tf32)):
        if value is not None:
            _set(name, value)
    return orig_flags


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True,
          fp32_precision="none", depthwise_kernel="auto"):
    """Sets the flags inside the block (even after disable_global_flags) and restores them after it."""
    with _backends._allow_nonbracketed_mutation():
        orig_flags = set_flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32, fp32_precision,
                               depthwise_kernel)
    try:
        yield
    finally:
        with _backends._allow_nonbracketed_mutation():
            set_flags(*orig_flags)


def _flag(name):
    def get(module):
        return _settings[name]

    def set(module, value):
        if _backends.flags_frozen():
            raise RuntimeError("not allowed to set {} flags after disable_global_flags; please use flags() "
                               "context manager instead".format(module.__name__))
        _set(name, value)

    return property(get, set)


class CudnnModule(types.ModuleType):
    """This module's type: its flags are properties that check what is assigned, as torch's."""

    enabled = _flag("enabled")
    benchmark = _flag("benchmark")
    deterministic = _flag("deterministic")
    allow_tf32 = _flag("allow_tf32")


benchmark_limit = None

sys.modules[__name__].__class__ = CudnnModule


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
