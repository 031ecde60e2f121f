import enum
from typing import Any, Sequence

from minitorch import Tensor, device

class DLDeviceType(enum.IntEnum):
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

def to_dlpack(data: Tensor, *, dl_device: Sequence[int] | None = None, copy: bool | None = None) -> Any: ...
def from_dlpack(ext_tensor: Any, *, device: device | str | int | None = None, copy: bool | None = None) -> Tensor: ...
