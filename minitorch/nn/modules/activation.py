"""ReLU as a layer: a module around ``functional.relu`` that remembers one flag, ``inplace``."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["ReLU"]


class ReLU(Module):
    """max(x, 0) elementwise. With ``inplace=True`` the result overwrites (and is) the input."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        """max(input, 0) elementwise (in place with inplace=True)."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        """'inplace=True' when the layer works in place, else nothing."""
        # Only a non-default setting is shown: ReLU() vs ReLU(inplace=True).
        return "inplace=True" if self.inplace else ""
