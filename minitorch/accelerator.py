"""torch.accelerator: the device-generic API that PyTorch's current tutorials start with

    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

minitorch's one accelerator is CUDA (a real GPU, or the simulated one), so each function hands over to
minitorch.cuda; the accelerator "available at compilation time" is CUDA when the extension was built
with CUDA (or the simulated GPU is on), None otherwise, as torch's CPU and CUDA builds answer. Streams and
graphs are not part of minitorch."""

import warnings
from collections import OrderedDict

import minitorch
from minitorch import _C

__all__ = ["current_accelerator", "current_device_idx", "current_device_index", "get_device_capability",
           "device_count", "device_index", "empty_cache", "get_memory_info", "is_available",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved", "memory_stats",
           "reset_accumulated_memory_stats", "reset_peak_memory_stats", "set_device_idx", "set_device_index",
           "synchronize"]


def current_accelerator(check_available=False):
    """The accelerator's device (device('cuda'), without an index) in a build that has one, else None; with
    check_available, None also when no device is there at run time."""
    if not (_C.has_cuda or _C._cuda_isSimulated()):
        return None
    if check_available and not is_available():
        return None
    return minitorch.device("cuda")


def is_available():
    """Whether the accelerator can be used now: built, with a driver and at least one device."""
    return current_accelerator() is not None and minitorch.cuda.is_available()


def device_count():
    """The number of accelerator devices (0 without an accelerator)."""
    return minitorch.cuda.device_count() if current_accelerator() is not None else 0


def _require_device():
    if not is_available():
        if current_accelerator() is not None:
            # a CUDA build without a usable GPU: CUDA's first use fails with its error ("Found no NVIDIA driver
            # ...", as torch's CUDA build)
            minitorch.cuda.init()
        raise RuntimeError("Cannot access accelerator device when none is available.")


def _allocator_initialized():
    """Whether the accelerator's allocator exists (CUDA is initialised): before that torch's memory functions
    answer zeros and do nothing; without an accelerator they raise."""
    if current_accelerator() is None:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return minitorch.cuda.is_initialized()


def current_device_index():
    """The index of the accelerator's current device."""
    _require_device()
    return minitorch.cuda.current_device()


def current_device_idx():
    """Deprecated: current_device_index()."""
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def _get_device_index(device, optional=False):
    """torch.accelerator's reading of a device argument: an int is an index; a device (or its string) must
    be the accelerator's type, and gives its index or, with optional, the current one."""
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = minitorch.device(device)
    index = None
    if isinstance(device, minitorch.device):
        acc = current_accelerator()
        if acc is None:
            raise RuntimeError("Accelerator expected")
        if acc.type != device.type:
            raise ValueError(f"{device.type} doesn't match the current accelerator {acc}.")
        index = device.index
    if index is None:
        if not optional:
            raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")
        return current_device_index()
    return index


def set_device_index(device, /):
    """Makes the given device (an index, or a device of the accelerator's type with an index) current."""
    index = _get_device_index(device, optional=False)
    if index >= 0:
        _require_device()
        minitorch.cuda.set_device(index)


def set_device_idx(device, /):
    """Deprecated: set_device_index(device)."""
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def synchronize(device=None, /):
    """Waits for the work queued on the device (the current one by default)."""
    index = _get_device_index(device, optional=True)
    _require_device()
    minitorch.cuda.synchronize(index)


def get_device_capability(device=None, /):
    """What the device supports: {"supported_dtypes": the dtypes a tensor there may have}."""
    _get_device_index(device, optional=True)
    _require_device()
    return {"supported_dtypes": {minitorch.float32, minitorch.float64, minitorch.int64, minitorch.int32,
                                 minitorch.int16, minitorch.int8, minitorch.uint8, minitorch.bool}}


class device_index:
    """Context manager that makes the device of the given index current inside the block (None: no change)."""

    def __init__(self, device, /):
        self.idx = device
        self.prev_idx = -1

    def __enter__(self):
        if self.idx is not None:
            _require_device()
            self.prev_idx = minitorch.cuda.current_device()
            minitorch.cuda.set_device(self.idx)

    def __exit__(self, *exc_info):
        if self.idx is not None and self.prev_idx >= 0:
            minitorch.cuda.set_device(self.prev_idx)


# ---- memory: the caching allocator's statistics of the accelerator's devices -------------------------


def empty_cache():
    """Returns the allocator's unused cached memory to the device."""
    if _allocator_initialized():
        minitorch.cuda.empty_cache()


def memory_stats(device_index=None, /):
    """The allocator's statistics for the device, as torch.cuda.memory_stats."""
    if not _allocator_initialized():
        return OrderedDict()
    return OrderedDict(minitorch.cuda.memory_stats(_get_device_index(device_index, optional=True)))


def memory_allocated(device_index=None, /):
    """Bytes held by tensors on the device."""
    return memory_stats(device_index).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device_index=None, /):
    """The peak of memory_allocated since the start (or the last reset_peak_memory_stats)."""
    return memory_stats(device_index).get("allocated_bytes.all.peak", 0)


def memory_reserved(device_index=None, /):
    """Bytes the allocator holds from the device (tensors and its cache)."""
    return memory_stats(device_index).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device_index=None, /):
    """The peak of memory_reserved."""
    return memory_stats(device_index).get("reserved_bytes.all.peak", 0)


def reset_accumulated_memory_stats(device_index=None, /):
    """Zeroes the allocator's counts of allocations and frees."""
    if _allocator_initialized():
        minitorch.cuda.reset_accumulated_memory_stats(_get_device_index(device_index, optional=True))


def reset_peak_memory_stats(device_index=None, /):
    """Starts the peaks (max_memory_allocated, ...) again from the current values."""
    if _allocator_initialized():
        minitorch.cuda.reset_peak_memory_stats(_get_device_index(device_index, optional=True))


def get_memory_info(device_index=None, /):
    """(free, total) bytes of the device, as the driver reports them."""
    _require_device()
    return minitorch.cuda.mem_get_info(_get_device_index(device_index, optional=True))
