"""nn.ReLU: the module form of ``functional.relu``; it holds only the ``inplace`` flag."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["ReLU"]


class ReLU(Module):
    """max(x, 0) elementwise. With ``inplace=True`` the input tensor is overwritten."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""
