"""Anomaly mode, as torch.autograd.anomaly_mode has it.

While the mode is on, every node records the Python stack of the forward call that made it; a backward
that fails then warns with that stack before its error goes on, and (with ``check_nan``) a backward that
returns NaN is an error naming the node. The mode is one flag for the whole process, kept in C
(csrc/autograd/anomaly.c), as torch keeps it.
"""

import warnings

from minitorch import _C

__all__ = ["detect_anomaly", "set_detect_anomaly"]


class detect_anomaly:
    """Context manager that turns anomaly mode on for its block (``check_nan``: NaN gradients are errors)
    and warns, once per use, that it slows the program down."""

    def __init__(self, check_nan=True) -> None:
        self.prev = _C.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        _C.set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        _C.set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Sets anomaly mode at once (a function call); as a context manager, the previous mode comes back on
    exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = _C.is_anomaly_enabled()
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        _C.set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        _C.set_anomaly_enabled(self.prev, self.prev_check_nan)
