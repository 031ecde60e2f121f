# Type stubs for minitorch.amp: torch.amp's autocast and GradScaler (autocast_mode.pyi, grad_scaler.pyi).

from minitorch.amp import autocast_mode as autocast_mode, grad_scaler as grad_scaler
from minitorch.amp.autocast_mode import (
    autocast as autocast,
    custom_bwd as custom_bwd,
    custom_fwd as custom_fwd,
    is_autocast_available as is_autocast_available,
)
from minitorch.amp.grad_scaler import GradScaler as GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
