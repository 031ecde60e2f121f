"""The activation layers: ``ReLU`` (around ``functional.relu``, remembering ``inplace``), ``Softmax`` and
``LogSoftmax`` (around ``functional.softmax`` / ``log_softmax``, remembering ``dim``)."""

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["ReLU", "Softmax", "LogSoftmax"]


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


class Softmax(Module):
    """softmax along ``dim``: the elements along it are positive and sum to 1. ``dim=None`` is torch's
    deprecated implicit choice (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """softmax(input, self.dim)."""
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': Softmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed stably. ``dim=None`` is torch's deprecated implicit choice
    (with its warning, at each call)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        """log_softmax(input, self.dim)."""
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        """'dim=1': LogSoftmax(dim=1)."""
        return "dim={dim}".format(dim=self.dim)
