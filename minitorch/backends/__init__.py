"""minitorch.backends: switches for the libraries behind the ops, as in torch.backends.

Only ``minitorch.backends.cuda.matmul.allow_tf32`` exists: whether float32 matmul on a CUDA device may
use TF32 tensor cores (faster, about 10 bits of mantissa in the products). It is off by default, as in
torch.
"""

from minitorch.backends import cuda  # noqa: F401
