# Type stubs for minitorch.backends.

from minitorch.backends import cuda as cuda
