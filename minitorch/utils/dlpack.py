"""torch.utils.dlpack: exchanging tensors with other libraries through DLPack without copying memory.

from_dlpack takes any DLPack producer (an object with __dlpack__, such as a NumPy array, a torch or CuPy
tensor, a minitorch tensor) or a capsule; the C side (csrc/ops/interop.c) reads the capsule."""

import enum

from minitorch import _C

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h), as __dlpack_device__ returns them."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


to_dlpack = _C._to_dlpack


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor sharing the memory of any DLPack producer: an object with __dlpack__ or a DLPack capsule
    (versioned or legacy), which is consumed. device= moves the result (a copy); copy=True always
    copies."""
    return _C._from_dlpack(ext_tensor, device, copy)
