"""Linear (the fully connected layer), LazyLinear, Bilinear and Identity.

Linear owns two parameters, ``weight`` of shape (out_features, in_features) and an optional ``bias``
of shape (out_features,), and fills them with random values drawn in torch's order and from torch's
ranges, so that after the same ``manual_seed`` both libraries hold bit-identical layers. The
arithmetic itself is ``functional.linear``.
"""

import math

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.lazy import LazyModuleMixin
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter, UninitializedParameter

__all__ = ["Identity", "Linear", "NonDynamicallyQuantizableLinear", "Bilinear", "LazyLinear"]


class Identity(Module):
    """Returns its input unchanged. Accepts and ignores any constructor arguments, so it can stand
    in for another layer without editing the call."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        """Returns input unchanged."""
        return input


class Linear(Module):
    """y = x @ weight.T + bias, for x of shape (*, in_features).

    Both parameters start uniform in [-1/sqrt(in_features), 1/sqrt(in_features)), the weight drawn
    first. ``device`` and ``dtype`` say where and in which type the parameters are created.
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(
            minitorch.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(minitorch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draws new values: the weight, then the bias, from the default generator."""
        init._reset_weight_and_bias(self.weight, self.bias)

    def forward(self, input):
        """input @ weight.T + bias."""
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        """'in_features=..., out_features=..., bias=...', as torch prints it."""
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear by another name: MultiheadAttention's out_proj, which torch's quantization tools leave
    alone. Prints as torch's (``NonDynamicallyQuantizableLinear(in_features=..., ...)``)."""


class Bilinear(Module):
    """y[..., o] = x1 @ weight[o] @ x2 + bias[o], for x1 of shape (*, in1_features) and x2 of shape
    (*, in2_features); weight (out_features, in1_features, in2_features).

    Both parameters start uniform in [-1/sqrt(in1_features), 1/sqrt(in1_features)), the weight drawn first,
    as torch's."""

    __constants__ = ["in1_features", "in2_features", "out_features"]

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(minitorch.empty((out_features, in1_features, in2_features), device=device,
                                                dtype=dtype))
        if bias:
            self.bias = Parameter(minitorch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draws new values: the weight, then the bias, uniform in +-1/sqrt(in1_features)."""
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        """The bilinear form of input1 and input2 with the layer's weight, plus its bias."""
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        """'in1_features=..., in2_features=..., out_features=..., bias=...', as torch prints it."""
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features the first input's last dim decides; it then becomes a Linear, with the
    weight and bias drawn as Linear draws them."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        factory = {"device": device, "dtype": dtype}
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(**factory)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(**factory)

    def reset_parameters(self):
        """Linear's initialisation, once the shapes are known."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        """in_features from the input's last dim."""
        if self.has_uninitialized_params():
            with minitorch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
