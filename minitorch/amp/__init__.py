"""torch.amp: automatic mixed precision. ``autocast`` (autocast_mode.py) runs the ops on torch's lists in
a lower precision; ``GradScaler`` (grad_scaler.py) scales the loss so that float16 gradients do not
underflow. Importing it also provides the deprecated spellings torch keeps, ``torch.cuda.amp`` and
``torch.cpu.amp`` (deprecated_modules below), with their FutureWarnings."""

from minitorch.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from minitorch.amp.grad_scaler import GradScaler
from minitorch.amp import autocast_mode, grad_scaler  # noqa: F401

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
