"""minitorch.cuda: torch.cuda's device, memory, stream and event API.

Answers come from the C device layer (minitorch._C._cuda_*): the device runtime (a real GPU, or the
simulated GPU under MINITORCH_SIMULATE_GPU) and its caching allocator, which keeps PyTorch's rules
and statistics, so memory_allocated() and memory_reserved() print PyTorch's numbers. Before CUDA is
initialised the memory functions return zeros and empty_cache() does nothing, as in torch.

The random-number functions (torch.cuda.random's) act on each device's default generator
(default_generators, one per device once CUDA is initialised, their state in torch's layout). As in
torch, those that need no answer (manual_seed, manual_seed_all, seed, seed_all, set_rng_state) are
queued until CUDA is initialised, by whichever call does it, and then run in torch's order: the other
calls first, then the latest manual_seed and manual_seed_all in the order they were last made. So they
are silently kept on a machine without a GPU; get_rng_state and initial_seed initialise CUDA.
"""

import collections
import operator
import threading
import traceback
import warnings

from minitorch import _C
from minitorch import Generator as _Generator  # defined before minitorch/__init__.py imports this module
from minitorch._C import OutOfMemoryError  # noqa: F401

__all__ = [
    "Event", "OutOfMemoryError", "Stream", "StreamContext", "current_device", "current_stream", "default_stream",
    "device", "device_count", "device_of", "empty_cache",
    "get_arch_list", "get_device_capability", "get_device_name", "get_device_properties", "get_rng_state",
    "get_rng_state_all", "init", "initial_seed", "is_available", "is_bf16_supported", "is_initialized",
    "manual_seed", "manual_seed_all", "max_memory_allocated", "max_memory_reserved", "mem_get_info",
    "memory_allocated", "memory_reserved", "memory_stats", "memory_summary", "reset_peak_memory_stats",
    "seed", "seed_all", "set_device", "set_rng_state", "set_rng_state_all", "set_stream", "stream", "synchronize",
]


def is_available():
    """True if a CUDA device can be used. Never raises."""
    return _C._cuda_getDeviceCount() > 0


def device_count():
    """The number of CUDA devices (0 when there are none). Never raises."""
    return _C._cuda_getDeviceCount()


def is_initialized():
    """True once CUDA has been initialised in this process (by the first use of a device)."""
    return _C._cuda_isInitialized()


def init():
    """Initialises CUDA now instead of at first use; raises torch's errors if it cannot."""
    _C._cuda_init()


_lazy_init = init


def _device_index(device, optional=False):
    """torch.cuda._get_device_index: an int, 'cuda:N' or a device names an index. With optional=True,
    None, an index-less device and (as in torch) any other object mean the current device, which is None
    when CUDA is not available (torch's _get_current_device_index); otherwise they raise ValueError."""
    if isinstance(device, str):
        device = _C.device(device)
    index = None
    if isinstance(device, _C.device):
        if device.type != "cuda":
            raise ValueError("Expected a cuda device, but got: {}".format(device))
        index = device.index
    elif isinstance(device, globals()["device"]):
        return device.idx
    elif isinstance(device, int):
        # bools are ints here, as in torch
        index = int(device)
    if index is None:
        if not optional:
            raise ValueError("Expected a torch.device with a specified index or an integer, but got:{}".format(device))
        if not is_available():
            return None
        init()
        index = _C._cuda_getDevice()
    return index


def current_device():
    """The index of the current CUDA device."""
    init()
    return _C._cuda_getDevice()


def _has_runtime():
    # False only for a CPU-only build without the simulated GPU, where torch's CPU build lacks the
    # private functions below and fails the way reproduced here
    return _C._cuda_isCompiled()


def _missing(name):
    return AttributeError("module 'minitorch._C' has no attribute '{}'".format(name))


def set_device(device):
    """Makes `device` the current CUDA device; a negative index does nothing."""
    index = _device_index(device)
    if index is not None and index >= 0:
        if not _has_runtime():
            raise _missing("_cuda_setDevice")
        _C._cuda_setDevice(index)


def _exchange_device(index):
    """Makes `index` current and returns the previous current device (-1 in, -1 out)."""
    if index < 0:
        return -1
    if not _has_runtime():
        raise RuntimeError("minitorch was compiled without CUDA support")
    previous = current_device()
    if previous != index:
        _C._cuda_setDevice(index)
    return previous


class device:
    """Context manager that makes `device` current inside the block and restores the previous one."""

    def __init__(self, device):
        self.idx = _device_index(device, optional=True) if device is not None else -1
        self.prev_idx = -1

    def __enter__(self):
        # idx is None when CUDA is not available and no index was named: nothing to switch
        self.prev_idx = _exchange_device(-1 if self.idx is None else self.idx)

    def __exit__(self, *exc):
        self.idx = _exchange_device(self.prev_idx)
        return False


class device_of(device):
    """device(...) for the device a tensor lives on (a no-op for CPU tensors)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


def synchronize(device=None):
    """Waits until all work on the device has finished."""
    init()  # torch initialises CUDA before it looks at the argument
    _C._cuda_synchronize(_device_index(device, optional=True))


# ---- streams and events -----------------------------------------------------------------------------
#
# torch's Stream and Event over the device runtime's streams and events (minitorch._C._cuda_stream*,
# _cuda_event*): real CUDA streams and events on a GPU; on the simulated GPU, streams that are always
# idle and events that keep the host clock, so elapsed_time() measures the work in between. As torch
# does, Stream() hands out one of 32 streams per device and priority, made at first use and never
# destroyed, and each thread has a current stream per device (the default stream, cuda_stream 0, until
# set_stream or `with stream(s):` changes it). minitorch queues every kernel and copy on the default
# stream whatever the current stream is: its streams are blocking streams, so every ordering torch
# promises (an event recorded after some work, wait_stream, synchronize) holds, and nothing runs
# concurrently (README, Known differences).

_STREAMS_PER_POOL = 32           # torch's kStreamsPerPool
_MAX_STREAM_PRIORITIES = 4       # torch's max_compile_time_stream_priorities
_EVENT_BLOCKING_SYNC, _EVENT_DISABLE_TIMING, _EVENT_INTERPROCESS = 0x01, 0x02, 0x04
_stream_pools = {}               # (device, priority index) -> [handle, ...] made so far
_stream_counters = {}            # (device, priority index) -> streams handed out so far
_current_streams = threading.local()


def _requires_cuda_build(name):
    # torch's CPU build has no CUDA stream classes; a CUDA build without a GPU fails later, at _lazy_init
    if not _has_runtime():
        raise RuntimeError(name)


# torch's C10_CUDA_CHECK text for the CUDA runtime's error 35, which its CUDA build raises on a machine
# without an NVIDIA driver where it asks the runtime for the current device before initialising CUDA
_INSUFFICIENT_DRIVER = (
    "CUDA error: CUDA driver version is insufficient for CUDA runtime version\n"
    "Search for `cudaErrorInsufficientDriver' in "
    "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.\n"
    "For more detailed error information, run with CUDA_LOG_FILE=stderr\n"
    "Device-side assertions were explicitly omitted for this error check; the error probably arose while "
    "initializing the DSA handlers.")


def _check_driver():
    """Raises torch's AcceleratorError for a CUDA build on a machine without an NVIDIA driver: what torch's
    Stream(), Stream.priority_range(), Generator('cuda') and is_current_stream_capturing() raise there (not the
    lazy initialisation's "Found no NVIDIA driver ...")."""
    if _C.has_cuda and not _C._cuda_isSimulated() and _C._cuda_driverVersion() == 0:
        raise _C.AcceleratorError(_INSUFFICIENT_DRIVER)


_C_LONG_MAX = (1 << 63) - 1


def _event_flag(value):
    """One of Event's flags read as torch's Event reads it (CPython's "b" conversion: an int in [0, 255])."""
    value = operator.index(value)
    if not -_C_LONG_MAX - 1 <= value <= _C_LONG_MAX:
        raise OverflowError("Python int too large to convert to C long")
    if value < 0:
        raise OverflowError("unsigned byte integer is less than minimum")
    if value > 255:
        raise OverflowError("unsigned byte integer is greater than maximum")
    return value


def _priority_range(index):
    least, greatest = _C._cuda_streamPriorityRange(index)
    return least, max(greatest, -_MAX_STREAM_PRIORITIES + 1)


def _pool_stream(index, priority):
    # torch's getStreamFromPool: the priority clamped to the range, then round robin over the pool
    least, greatest = _priority_range(index)
    level = min(max(-int(priority), 0), least - greatest)
    key = (index, level)
    pool = _stream_pools.setdefault(key, [])
    slot = _stream_counters.get(key, 0) % _STREAMS_PER_POOL
    _stream_counters[key] = _stream_counters.get(key, 0) + 1
    if slot == len(pool):
        pool.append(_C._cuda_streamCreate(index, -level))
    # torch's stream id: the slot, the priority level and a bit saying "not the default stream"
    return Stream._from_parts((slot << 5) | (level << 1) | 1, index, pool[slot], -level)


def _default_stream(index):
    return Stream._from_parts(0, index, 0, 0)


def _checked_stream_device(device):
    init()
    index = _device_index(device, optional=True)
    if index < 0 or index >= device_count():
        raise _C.AcceleratorError("CUDA error: invalid device ordinal")
    return index


class Stream:
    """A CUDA stream of one device: a queue whose work runs in order. Stream() hands out a stream of the
    current device (of `device`, if given) with the given priority (lower numbers run first; clamped to
    Stream.priority_range()). As a `with` block (through torch.cuda.stream) it becomes the current stream.

    minitorch runs its kernels and copies on the default stream in any case (see the section comment)."""

    def __new__(cls, device=None, priority=0, **kwargs):
        _requires_cuda_build("minitorch.cuda.Stream requires CUDA support")
        if device is None or kwargs:
            return cls._new(priority, kwargs)
        with globals()["device"](device):
            return cls._new(priority, kwargs)

    @classmethod
    def _new(cls, priority, kwargs):
        # torch's C constructor, on the current device: the runtime is asked for it first (without a driver, its
        # error), then the arguments are read
        _check_driver()
        if kwargs:
            if set(kwargs) != {"stream_id", "device_index", "device_type"}:
                name = sorted(set(kwargs) - {"stream_id", "device_index", "device_type"}) or ["stream_id"]
                raise TypeError("Stream.__new__() got an unexpected keyword argument '{}'".format(name[0]))
            return _stream_from_id(kwargs["stream_id"], kwargs["device_index"])
        return _pool_stream(_checked_stream_device(None), priority)

    @classmethod
    def _from_parts(cls, stream_id, index, handle, priority):
        self = object.__new__(cls)
        self.stream_id, self.device_index, self.device_type = stream_id, index, 1  # DeviceType::CUDA
        self.cuda_stream, self._priority = handle, priority
        return self

    @property
    def device(self):
        """The device the stream belongs to."""
        return _C.device("cuda", self.device_index)

    @property
    def priority(self):
        """The stream's priority (0, or negative for a higher one)."""
        return self._priority

    @staticmethod
    def priority_range():
        """(least, greatest) stream priority: (0, -1) to (0, -3), as the device allows."""
        _check_driver()
        return _priority_range(_checked_stream_device(None))

    def query(self):
        """True when all the work queued on this stream has finished."""
        return _C._cuda_streamQuery(self.device_index, self.cuda_stream)

    def synchronize(self):
        """Waits until all the work queued on this stream has finished."""
        _C._cuda_streamSynchronize(self.device_index, self.cuda_stream)

    def wait_event(self, event):
        """Makes the stream's later work wait for `event` (returns at once)."""
        event.wait(self)

    def wait_stream(self, stream):
        """Makes the stream's later work wait for the work queued on `stream` so far."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        """Records `event` (a new Event if None) on this stream and returns it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    @property
    def _as_parameter_(self):
        import ctypes

        return ctypes.c_void_p(self.cuda_stream)

    def __cuda_stream__(self):
        return (0, self.cuda_stream)

    def __eq__(self, other):
        if isinstance(other, Stream):
            return (self.cuda_stream, self.device_index) == (other.cuda_stream, other.device_index)
        return False

    def __hash__(self):
        return hash((self.cuda_stream, self.device))

    def __repr__(self):
        return "<minitorch.cuda.Stream device={} cuda_stream={:#x}>".format(self.device, self.cuda_stream)


if not _C.has_cuda and not _C._cuda_isSimulated():
    # torch's CPU build defines priority_range on its C stream class, whose placeholder there has none (the
    # simulated GPU makes even a CPU-only build a CUDA one)
    del Stream.priority_range


def _stream_from_id(stream_id, index):
    # Stream(stream_id=, device_index=, device_type=): a stream current_stream() or another Stream named
    if stream_id == 0:
        return _default_stream(index)
    slot, level = stream_id >> 5, (stream_id >> 1) & 0xF
    pool = _stream_pools.get((index, level), [])
    if not stream_id & 1 or slot >= len(pool):
        raise RuntimeError("Unrecognized stream stream {} (I didn't recognize the stream type, {})".format(
            stream_id, level))
    return Stream._from_parts(stream_id, index, pool[slot], -level)


def _current_stream_table():
    table = getattr(_current_streams, "by_device", None)
    if table is None:
        table = _current_streams.by_device = {}
    return table


def current_stream(device=None):
    """The current thread's current stream on `device` (the current device by default)."""
    index = _checked_stream_device(device)
    return _current_stream_table().get(index) or _default_stream(index)


def default_stream(device=None):
    """The default stream of `device` (the current device by default): cuda_stream 0."""
    return _default_stream(_checked_stream_device(device))


def set_stream(stream):
    """Makes `stream` current on its device, and its device the current device (None: no-op). The `with
    torch.cuda.stream(s):` form restores the previous one afterwards."""
    if stream is None:
        return
    stream_id, index, _ = stream.stream_id, stream.device_index, stream.device_type  # read first, as torch
    target = _stream_from_id(stream_id, index)
    if current_device() != index:
        set_device(index)
    _current_stream_table()[index] = target


def is_current_stream_capturing():
    """False: minitorch has no CUDA graphs, so no stream is ever capturing."""
    _requires_cuda_build("Tried to instantiate dummy base class _cuda_isCurrentStreamCapturing")
    _check_driver()
    return False


class StreamContext:
    """Makes `stream` current inside the block (and its device's), restoring both afterwards; does
    nothing for None or when no CUDA device is available."""

    def __init__(self, stream):
        self.stream = stream
        self.idx = _device_index(None, optional=True)
        if self.idx is None:
            self.idx = -1
        self.src_prev_stream = None
        self.dst_prev_stream = None

    def __enter__(self):
        cur_stream = self.stream
        if cur_stream is None or self.idx == -1:
            return
        self.src_prev_stream = current_stream(None)
        if self.src_prev_stream.device != cur_stream.device:
            with device(cur_stream.device):
                self.dst_prev_stream = current_stream(cur_stream.device)
        set_stream(cur_stream)

    def __exit__(self, *exc):
        cur_stream = self.stream
        if cur_stream is None or self.idx == -1:
            return
        if self.src_prev_stream.device != cur_stream.device:
            set_stream(self.dst_prev_stream)
        set_stream(self.src_prev_stream)


def stream(stream):
    """`with torch.cuda.stream(s):` makes s the current stream inside the block (None: no-op)."""
    return StreamContext(stream)


class Event:
    """A CUDA event: a marker in a stream's work, to wait for, to order streams by, or (with
    enable_timing=True) to time the GPU work between two of them with elapsed_time(). Made on the
    device of the stream it is first recorded on."""

    def __new__(cls, enable_timing=False, blocking=False, interprocess=False, external=False):
        _requires_cuda_build("Tried to instantiate dummy base class Event")
        enable_timing, blocking, interprocess, external = (_event_flag(flag) for flag in (
            enable_timing, blocking, interprocess, external))
        self = object.__new__(cls)
        self._flags = ((0 if enable_timing else _EVENT_DISABLE_TIMING) | (_EVENT_BLOCKING_SYNC if blocking else 0)
                       | (_EVENT_INTERPROCESS if interprocess else 0))
        self._handle, self._device_index = 0, -1
        return self

    @classmethod
    def from_ipc_handle(cls, device, handle):
        """Not yet in minitorch: CUDA interprocess events."""
        raise NotImplementedError("minitorch does not support CUDA interprocess events (Event.from_ipc_handle)")

    @property
    def cuda_event(self):
        """The cudaEvent_t as an int (0 until the first record)."""
        return self._handle

    @property
    def device(self):
        """The event's device, known from its first record (None before)."""
        return _C.device("cuda", self._device_index) if self._handle else None

    @property
    def _as_parameter_(self):
        import ctypes

        return ctypes.c_void_p(self._handle)

    def record(self, stream=None):
        """Records the event on `stream` (the current stream by default), whose device must be the event's."""
        if stream is None:
            stream = current_stream()
        if not isinstance(stream, Stream):
            raise TypeError("record(): argument 'stream' must be Stream, not {}".format(type(stream).__name__))
        if not self._handle:
            self._handle = _C._cuda_eventCreate(stream.device_index, self._flags)
            self._device_index = stream.device_index
        if self._device_index != stream.device_index:
            raise RuntimeError("Event device {} does not match recording stream's device {}.".format(
                self._device_index, stream.device_index))
        _C._cuda_eventRecord(self._device_index, self._handle, stream.cuda_stream)

    def wait(self, stream=None):
        """Makes the later work of `stream` (the current stream by default) wait for this event."""
        if stream is None:
            stream = current_stream()
        if self._handle:
            _C._cuda_streamWaitEvent(stream.device_index, stream.cuda_stream, self._handle)

    def query(self):
        """True when the work recorded before the event has finished (True for an event never recorded)."""
        return _C._cuda_eventQuery(self._handle) if self._handle else True

    def elapsed_time(self, end_event):
        """Milliseconds between this event's record and end_event's (both recorded and completed, both
        made with enable_timing=True)."""
        if (self._flags | end_event._flags) & _EVENT_DISABLE_TIMING:
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        if not (self._handle and end_event._handle):
            raise ValueError("Both events must be recorded before calculating elapsed time.")
        if not (self.query() and end_event.query()):
            raise RuntimeError("Both events must be completed before calculating elapsed time.")
        return _C._cuda_eventElapsedTime(self._handle, end_event._handle)

    def synchronize(self):
        """Waits until the work recorded before the event has finished."""
        if self._handle:
            _C._cuda_eventSynchronize(self._handle)

    def ipc_handle(self):
        """Not yet in minitorch: CUDA interprocess events."""
        raise NotImplementedError("minitorch does not support CUDA interprocess events (Event.ipc_handle)")

    def __del__(self):
        handle = getattr(self, "_handle", 0)
        if handle:
            self._handle = 0
            try:
                _C._cuda_eventDestroy(self._device_index, handle)
            except Exception:
                pass  # torch only warns when cudaEventDestroy fails

    def __repr__(self):
        if self._handle:
            return "<minitorch.cuda.Event {:#x}>".format(self._handle)
        return "<minitorch.cuda.Event uninitialized>"


def _record_stream(self, stream):
    """Tensor.record_stream(s): marks the tensor's memory as used by work on stream `s`. minitorch queues
    all device work on the default stream, so freed memory is never reused early and this only checks."""
    if not isinstance(stream, Stream):
        raise RuntimeError("unknown parameter type")
    if not self.is_cuda:
        raise NotImplementedError("Could not run 'aten::record_stream' with arguments from the '{}' backend.".format(
            {"cpu": "CPU", "meta": "Meta"}.get(self.device.type, self.device.type)))


class _CudaDeviceProperties:
    """What get_device_properties returns; printed like torch's."""

    def __init__(self, info):
        self.name = info["name"]
        self.major = info["major"]
        self.minor = info["minor"]
        self.total_memory = info["total_memory"]
        self.multi_processor_count = info["multi_processor_count"]
        self.L2_cache_size = info["L2_cache_size"]
        raw = info["uuid"].hex()
        self.uuid = "-".join((raw[:8], raw[8:12], raw[12:16], raw[16:20], raw[20:]))

    def __repr__(self):
        return (
            "_CudaDeviceProperties(name='{}', major={}, minor={}, total_memory={}MB, "
            "multi_processor_count={}, uuid={}, L2_cache_size={}MB)".format(
                self.name, self.major, self.minor, self.total_memory // (1024 * 1024),
                self.multi_processor_count, self.uuid, self.L2_cache_size // (1024 * 1024))
        )


def get_device_properties(device=None):
    """Name, compute capability, memory and multiprocessor count of a CUDA device."""
    init()
    index = _device_index(device, optional=True)
    if index < 0 or index >= device_count():
        raise AssertionError("Invalid device id")
    return _CudaDeviceProperties(_C._cuda_getDeviceProperties(index))


def get_device_name(device=None):
    """The device's name, e.g. 'NVIDIA H200' (or 'minitorch simulated GPU')."""
    return get_device_properties(device).name


def get_device_capability(device=None):
    """(major, minor) compute capability."""
    props = get_device_properties(device)
    return props.major, props.minor


def get_arch_list():
    """The GPU architectures this build has machine code for, e.g. ['sm_75', 'sm_90']."""
    if not _C.has_cuda:
        return []
    return ["sm_" + arch for arch in _C.cuda_archs.split(";") if arch]


def mem_get_info(device=None):
    """(free, total) bytes of the whole device, as the driver sees them (other processes included)."""
    if device is None:
        device = current_device()
    index = _device_index(device, optional=True)
    init()  # torch's cudart() initialises CUDA after the argument is checked
    return _C._cuda_memGetInfo(index)


def memory_stats(device=None):
    """The caching allocator's statistics, torch's keys, sorted; empty before CUDA is initialised."""
    if not is_initialized():
        return collections.OrderedDict()
    stats = _C._cuda_memoryStats(_device_index(device, optional=True))
    return collections.OrderedDict(sorted(stats.items()))


def _stat(device, key):
    if not is_initialized():
        return 0
    return _C._cuda_memoryStats(_device_index(device, optional=True)).get(key, 0)


def memory_allocated(device=None):
    """Bytes held by live tensors (in allocator blocks, so rounded as torch rounds them)."""
    return _stat(device, "allocated_bytes.all.current")


def max_memory_allocated(device=None):
    """The peak of memory_allocated() since start or the last reset_peak_memory_stats()."""
    return _stat(device, "allocated_bytes.all.peak")


def memory_reserved(device=None):
    """Bytes the caching allocator holds from the device: live tensors plus cached free blocks."""
    return _stat(device, "reserved_bytes.all.current")


def max_memory_reserved(device=None):
    """The peak of memory_reserved() since start or the last reset."""
    return _stat(device, "reserved_bytes.all.peak")


def memory_cached(device=None):
    """Deprecated: memory_reserved()."""
    warnings.warn("torch.cuda.memory_cached has been renamed to torch.cuda.memory_reserved", FutureWarning)
    return memory_reserved(device)


def max_memory_cached(device=None):
    """Deprecated: max_memory_reserved()."""
    warnings.warn("torch.cuda.max_memory_cached has been renamed to torch.cuda.max_memory_reserved", FutureWarning)
    return max_memory_reserved(device)


def _reset_stats(private_name, public_name, device):
    # torch checks the argument first (ValueError for a cpu device), then calls the private function
    # (missing in a CPU-only build), which rejects an index of None
    index = _device_index(device, optional=True)
    if not _has_runtime():
        raise _missing(private_name)
    if index is None:
        raise RuntimeError("invalid argument to " + public_name)
    getattr(_C, private_name)(index)


def reset_peak_memory_stats(device=None):
    """Sets every peak statistic to its current value."""
    _reset_stats("_cuda_resetPeakMemoryStats", "reset_peak_memory_stats", device)


def reset_accumulated_memory_stats(device=None):
    """Sets the cumulative allocated/freed counters to zero."""
    _reset_stats("_cuda_resetAccumulatedMemoryStats", "reset_accumulated_memory_stats", device)


def empty_cache():
    """Returns cached segments that hold no tensor to the device. Memory used by live tensors, and free
    pieces of segments that still hold one, stay reserved."""
    if is_initialized():
        _C._cuda_emptyCache()


def _summary_size(value, scale_by):
    # torch's table scales every cell of a row by the row's first ("all") value
    units = ["B  ", "KiB", "MiB", "GiB", "TiB", "PiB"]
    unit = 0
    while unit + 1 < len(units) and scale_by >= 768 * 1024:
        value //= 1024
        scale_by /= 1024
        unit += 1
    return "{:6d} {}".format(value, units[unit])


def _summary_count(value, scale_by):
    units = [" ", "K", "M"]
    unit = 0
    while unit + 1 < len(units) and scale_by >= 750 * 1000:
        value //= 1000
        scale_by /= 1000
        unit += 1
    return "{:7d} {} ".format(value, units[unit])


def memory_summary(device=None, abbreviated=False):
    """A 75-column table of the allocator's statistics, laid out like torch.cuda.memory_summary()."""
    index = _device_index(device, optional=True)
    stats = memory_stats(index)
    if not stats:
        # torch fails the same way before CUDA is initialised: there are no statistics yet
        raise KeyError("allocated_bytes.all.current")
    rule, double = "-" * 75, "=" * 75
    rows = [
        double,
        " {:16} PyTorch CUDA memory summary, device ID {:<17d} ".format("", index),
        rule,
        "  {:9} CUDA OOMs: {:<12d} | {:6} cudaMalloc retries: {:<8d}  ".format(
            "", stats["num_ooms"], "", stats["num_alloc_retries"]),
        double,
        "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ",
    ]
    fields = ("current", "peak", "allocated", "freed")
    pooled = [
        ("allocated_bytes", "Allocated memory", _summary_size),
        ("active_bytes", "Active memory", _summary_size),
        ("requested_bytes", "Requested memory", _summary_size),
        ("reserved_bytes", "GPU reserved memory", _summary_size),
        ("inactive_split_bytes", "Non-releasable memory", _summary_size),
        ("allocation", "Allocations", _summary_count),
        ("active", "Active allocs", _summary_count),
        ("segment", "GPU reserved segments", _summary_count),
        ("inactive_split", "Non-releasable allocs", _summary_count),
    ]
    for key, title, fmt in pooled:
        rows.append(rule)
        pools = [("all", title)]
        if not abbreviated:
            pools += [("large_pool", "      from large pool"), ("small_pool", "      from small pool")]
        scales = [stats["{}.all.{}".format(key, f)] for f in fields]
        for pool, label in pools:
            cells = [fmt(stats["{}.{}.{}".format(key, pool, f)], s) for f, s in zip(fields, scales)]
            rows.append(" {:<21} | {} ".format(label, " | ".join(cells)))
    for key, title in (("oversize_allocations", "Oversize allocations"), ("oversize_segments", "Oversize GPU segments")):
        rows.append(rule)
        cells = [_summary_count(stats["{}.{}".format(key, f)], stats["{}.{}".format(key, f)]) for f in fields]
        rows.append(" {:<21} | {} ".format(title, " | ".join(cells)))
    rows.append(double)
    return "|" + "|\n|".join(rows) + "|\n"


# ---- random numbers: each device's default generator ------------------------------------------------

default_generators = ()  # one Generator per device, made when CUDA is initialised (torch's)

class _CudaGenerator(_Generator):
    """A CUDA device's default generator: a minitorch.Generator whose _handle is that device's C generator."""

    def __init__(self, index):
        self._handle = _C._cuda_default_generator(index)
        self.device = _C.device("cuda", index)


_queued_calls = []  # (callable, the stack where it was made) queued before CUDA is initialised
_queued_seed_calls = {}  # "seed" / "seed_all": the latest of each, in the order they were last made


class DeferredCudaCallError(Exception):
    """A call queued before CUDA was initialised failed when initialisation ran it."""


def _lazy_call(callable, seed_kind=None):
    # torch's _lazy_call: runs now if CUDA is initialised, else queues (a seed only keeps the latest)
    if is_initialized():
        callable()
    elif seed_kind is not None:
        _queued_seed_calls.pop(seed_kind, None)
        _queued_seed_calls[seed_kind] = (callable, traceback.format_stack())
    else:
        _queued_calls.append((callable, traceback.format_stack()))


def _run_queued_calls():
    # the C layer calls this once, right after it initialised CUDA (whatever asked for it)
    global default_generators

    default_generators = tuple(_CudaGenerator(index) for index in range(device_count()))
    calls = _queued_calls + list(_queued_seed_calls.values())
    _queued_calls.clear()
    _queued_seed_calls.clear()
    for call, stack in calls:
        try:
            call()
        except Exception as e:
            raise DeferredCudaCallError(
                "CUDA call failed lazily at initialization with error: {}\n\n"
                "CUDA call was originally invoked at:\n\n{}".format(e, "".join(stack))) from e


_C._cuda_setInitHook(_run_queued_calls)


def _rng_device(device):
    # torch.cuda.random's reading of `device`: a string or an int names a device, whose index (the current
    # device's when it has none, even for 'cpu', as in torch) picks the generator
    if isinstance(device, str):
        device = _C.device(device)
    elif isinstance(device, int):
        device = _C.device("cuda", device)
    return device


def _rng_generator(device):
    index = device.index
    if index is None:
        index = current_device()
    return default_generators[index]


def get_rng_state(device="cuda"):
    """The random number generator state of a device (the current one by default) as a uint8 tensor: the
    seed and the Philox offset, 8 bytes each, as torch lays them out. Initialises CUDA."""
    init()
    return _rng_generator(_rng_device(device)).get_state()


def get_rng_state_all():
    """get_rng_state() of every device ([] without one)."""
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state(new_state, device="cuda"):
    """Restores a state that get_rng_state returned (queued until CUDA is initialised)."""
    if not is_initialized():
        # kept for later: the caller may change its tensor meanwhile
        new_state = new_state.clone(memory_format=_C.contiguous_format)
    device = _rng_device(device)
    _lazy_call(lambda: _rng_generator(device).set_state(new_state))


def set_rng_state_all(new_states):
    """set_rng_state(state, i) for the i-th state."""
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def manual_seed(seed):
    """Seeds the current device's generator (queued until CUDA is initialised; silently kept without one)."""
    seed = int(seed)
    _lazy_call(lambda: default_generators[current_device()].manual_seed(seed), "seed")


def manual_seed_all(seed):
    """Seeds every device's generator (queued until CUDA is initialised; silently kept without one)."""
    seed = int(seed)

    def seed_every_device():
        for i in range(device_count()):
            default_generators[i].manual_seed(seed)

    _lazy_call(seed_every_device, "seed_all")


def seed():
    """Seeds the current device's generator with a non-deterministic number (queued as manual_seed)."""
    _lazy_call(lambda: default_generators[current_device()].seed())


def seed_all():
    """Seeds every device's generator with one non-deterministic number (queued as manual_seed)."""
    def seed_every_device():
        for i in range(device_count()):
            if i == 0:
                random_seed = default_generators[0].seed()
            else:
                default_generators[i].manual_seed(random_seed)

    _lazy_call(seed_every_device)


def initial_seed():
    """The seed of the current device's generator. Initialises CUDA."""
    init()
    return default_generators[current_device()].initial_seed()


def is_bf16_supported(including_emulation=True):
    """Whether the current device supports bfloat16: compute capability 8.0 or newer, or (with
    including_emulation) one where a bfloat16 tensor can be made. False without a device."""
    if not is_available():
        return False
    index = current_device()
    if get_device_properties(index).major >= 8:
        return True
    if not including_emulation:
        return False
    try:
        _C.tensor([1.0], dtype=_C.bfloat16, device=index)
        return True
    except Exception:
        return False


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
