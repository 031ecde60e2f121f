"""minitorch.random: torch.random's functions: the default CPU generator's seeding and state (the same
functions as minitorch's top-level ones) and fork_rng, which puts the CPU and CUDA generators back as
they were when its block ends.
"""

import contextlib
import warnings

import minitorch
from minitorch import get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng"]

_fork_rng_warned_already = False


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Saves the CPU generator's state and that of the given CUDA devices (every device by default, with
    torch's warning when there are several), and restores them when the block ends. enabled=False does
    nothing. device_type: 'cuda' (the default where no other accelerator exists) or 'meta' (nothing)."""
    global _fork_rng_warned_already
    if device_type == "meta":
        yield
        return
    accelerator = minitorch.accelerator.current_accelerator()
    device_type = device_type or (accelerator.type if accelerator is not None else "cuda")
    if device_type != "cuda":
        raise RuntimeError("minitorch has no module of `{}`: minitorch's only accelerator is CUDA".format(device_type))
    device_mod = minitorch.cuda
    if not enabled:
        yield
        return
    if devices is None:
        num_devices = device_mod.device_count()
        if num_devices > 1 and not _fork_rng_warned_already:
            kind = device_type.upper()
            warnings.warn(
                f"{kind} reports that you have {num_devices} available devices, and you have used {_caller} "
                f"without explicitly specifying which devices are being used. For safety, we initialize *every* "
                f"{kind} device by default, which can be quite slow if you have a lot of {kind}s. If you know "
                f"that you are only making use of a few {kind} devices, set the environment variable "
                f"{kind}_VISIBLE_DEVICES or the '{_devices_kw}' keyword argument of {_caller} with the set of "
                "devices you are actually using. For example, if you are using CPU only, set "
                "device.upper()_VISIBLE_DEVICES= or devices=[]; if you are using device 0 only, set "
                f"{kind}_VISIBLE_DEVICES=0 or devices=[0].  To initialize all devices and suppress this "
                f"warning, set the '{_devices_kw}' keyword argument to `range(torch.{device_type}.device_count())`.",
                stacklevel=2)
            _fork_rng_warned_already = True
        devices = list(range(num_devices))
    else:
        # an iterator would be used up by the first of the two passes
        devices = list(devices)
    cpu_rng_state = get_rng_state()
    device_rng_states = [device_mod.get_rng_state(device) for device in devices]
    try:
        yield
    finally:
        set_rng_state(cpu_rng_state)
        for device, device_rng_state in zip(devices, device_rng_states):
            device_mod.set_rng_state(device_rng_state, device)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
