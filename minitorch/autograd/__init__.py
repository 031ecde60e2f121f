"""minitorch.autograd: grad mode only (no_grad, enable_grad, set_grad_enabled, inference_mode).

minitorch records no autograd graph yet; the grad-mode switches exist so that code written for torch
runs unchanged and reads the same mode torch would report (README, "Known differences")."""

from minitorch.autograd import grad_mode  # noqa: F401
from minitorch.autograd.grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
