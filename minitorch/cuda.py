"""minitorch.cuda: torch.cuda's device and memory API.

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
import traceback
import warnings

from minitorch import _C
from minitorch import Generator as _Generator  # defined before minitorch/__init__.py imports this module
from minitorch._C import OutOfMemoryError  # noqa: F401

__all__ = [
    "OutOfMemoryError", "current_device", "device", "device_count", "device_of", "empty_cache",
    "get_arch_list", "get_device_capability", "get_device_name", "get_device_properties", "get_rng_state",
    "get_rng_state_all", "init", "initial_seed", "is_available", "is_bf16_supported", "is_initialized",
    "manual_seed", "manual_seed_all", "max_memory_allocated", "max_memory_reserved", "mem_get_info",
    "memory_allocated", "memory_reserved", "memory_stats", "memory_summary", "reset_peak_memory_stats",
    "seed", "seed_all", "set_device", "set_rng_state", "set_rng_state_all", "synchronize",
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
