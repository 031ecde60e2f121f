from minitorch.autograd import functional as functional
from minitorch.autograd import anomaly_mode as anomaly_mode
from minitorch.autograd.anomaly_mode import detect_anomaly as detect_anomaly, set_detect_anomaly as set_detect_anomaly
from minitorch.autograd import grad_mode as grad_mode
from minitorch.autograd.grad_mode import (
    enable_grad as enable_grad,
    inference_mode as inference_mode,
    is_grad_enabled as is_grad_enabled,
    is_inference_mode_enabled as is_inference_mode_enabled,
    no_grad as no_grad,
    set_grad_enabled as set_grad_enabled,
)
from typing import Any, Sequence

from minitorch._C import Tensor
from minitorch.autograd.function import Function as Function
from minitorch.autograd.gradcheck import gradcheck as gradcheck
from minitorch.autograd.variable import Variable as Variable

def backward(tensors: Tensor | Sequence[Tensor], grad_tensors: Tensor | Sequence[Tensor | None] | None = ...,
             retain_graph: bool | None = ..., create_graph: bool = ..., grad_variables: Any = ...,
             inputs: Tensor | Sequence[Tensor] | None = ...) -> None: ...
def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Tensor | Sequence[Tensor | None] | None = ..., retain_graph: bool | None = ...,
         create_graph: bool = ..., only_inputs: bool = ..., allow_unused: bool | None = ...,
         is_grads_batched: bool = ..., materialize_grads: bool = ...) -> tuple[Tensor | None, ...]: ...
