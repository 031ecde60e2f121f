"""nn.Linear and nn.Identity.

This file owns the fully connected layer: its parameters (weight of shape (out_features,
in_features), optional bias), torch's initialisation order and bounds (so that seeded layers hold
torch's exact values) and its repr. The arithmetic is ``functional.linear``'s.
"""

import math

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["Identity", "Linear"]


class Identity(Module):
    """Returns its input unchanged; takes (and ignores) any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x @ weight.T + bias.

    ``weight`` has shape (out_features, in_features) and ``bias`` (out_features,); both start as
    U(-1/sqrt(in_features), 1/sqrt(in_features)), drawn weight first, like torch.
    ``device`` and ``dtype`` choose where and how the parameters are created.
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(minitorch.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(minitorch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draws fresh weight and bias values (torch's scheme, in torch's order)."""
        # kaiming_uniform_ with a=sqrt(5) gives U(-1/sqrt(in_features), 1/sqrt(in_features)); see
        # https://github.com/pytorch/pytorch/issues/57109.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")
