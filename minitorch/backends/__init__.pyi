# Type stubs for minitorch.backends.

from minitorch.backends import cpu as cpu
from minitorch.backends import cuda as cuda
from minitorch.backends import cudnn as cudnn
from minitorch.backends import mkl as mkl
from minitorch.backends import mkldnn as mkldnn
from minitorch.backends import mps as mps
from minitorch.backends import openmp as openmp

def disable_global_flags() -> None: ...
def flags_frozen() -> bool: ...
