"""minitorch.version: what this build of minitorch is, like torch.version.

``cuda`` is the CUDA toolkit version the extension was compiled with (e.g. '12.8'), or None for a
CPU-only build; it says nothing about the GPU or driver present at run time (see
``python -m minitorch``).
"""

import minitorch as _minitorch
from minitorch import _C

__all__ = ["__version__", "cuda", "debug", "hip"]

__version__ = _minitorch.__version__
cuda = _C.cuda_version
debug = False
hip = None
