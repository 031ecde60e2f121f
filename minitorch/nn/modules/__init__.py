"""The module classes of minitorch.nn, laid out like torch.nn.modules (one file per family) so that
class paths read the same: ``minitorch.nn.modules.linear.Linear``. This file only re-exports."""

from minitorch.nn.modules.module import Module
from minitorch.nn.modules.linear import Identity, Linear
from minitorch.nn.modules.activation import LogSoftmax, ReLU, Softmax
from minitorch.nn.modules.container import ModuleList, Sequential
from minitorch.nn.modules.flatten import Flatten

__all__ = ["Module", "Identity", "Linear", "ReLU", "Softmax", "LogSoftmax", "Sequential", "ModuleList", "Flatten"]
