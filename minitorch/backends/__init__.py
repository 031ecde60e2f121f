"""minitorch.backends: switches for the libraries behind the ops, as in torch.backends.

Only ``minitorch.backends.cuda`` exists: ``is_built()`` and the settings of CUDA matmul in
``minitorch.backends.cuda.matmul`` (``allow_tf32``: whether float32 products may use TF32 tensor cores, off
by default; the float16 and bfloat16 reduced-precision reduction and split-k settings and
``allow_fp16_accumulation``), with torch's defaults.
"""

from minitorch.backends import cuda  # noqa: F401


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
