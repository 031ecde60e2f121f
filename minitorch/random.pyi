# Type stubs for minitorch.random: torch.random's functions.

from collections.abc import Iterable
from contextlib import AbstractContextManager

from minitorch import get_rng_state as get_rng_state
from minitorch import initial_seed as initial_seed
from minitorch import manual_seed as manual_seed
from minitorch import seed as seed
from minitorch import set_rng_state as set_rng_state
from minitorch._C import device as _device

def fork_rng(
    devices: Iterable[_device | str | int] | None = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: str | None = None,
) -> AbstractContextManager[None]: ...
