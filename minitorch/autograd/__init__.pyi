from minitorch.autograd import grad_mode as grad_mode
from minitorch.autograd.grad_mode import (
    enable_grad as enable_grad,
    inference_mode as inference_mode,
    is_grad_enabled as is_grad_enabled,
    is_inference_mode_enabled as is_inference_mode_enabled,
    no_grad as no_grad,
    set_grad_enabled as set_grad_enabled,
)
