"""minitorch.backends: switches for the libraries behind the ops, as in torch.backends.

``cuda``: ``is_built()`` and the settings of CUDA matmul in ``minitorch.backends.cuda.matmul``
(``allow_tf32``: whether float32 products may use TF32 tensor cores, off by default; the float16 and
bfloat16 reduced-precision reduction and split-k settings and ``allow_fp16_accumulation``), with torch's
defaults. ``cudnn``: torch's flags, recorded (minitorch has no cuDNN). ``cpu``: torch's CPU capability.
``mps``, ``mkldnn``, ``mkl``, ``openmp``: ``is_available()`` (and ``mps.is_built()``), truthfully False:
minitorch uses none of them. ``disable_global_flags()`` and ``flags_frozen()`` as torch's: afterwards the
cudnn flags can be changed only inside ``cudnn.flags(...)``.
"""

import contextlib

_allow_nonbracketed_mutation_flag = True


def disable_global_flags():
    """From now on, the cudnn flags may be set only inside their flags() context manager."""
    global _allow_nonbracketed_mutation_flag
    _allow_nonbracketed_mutation_flag = False


def flags_frozen():
    """True after disable_global_flags()."""
    return not _allow_nonbracketed_mutation_flag


@contextlib.contextmanager
def _allow_nonbracketed_mutation():
    global _allow_nonbracketed_mutation_flag
    old = _allow_nonbracketed_mutation_flag
    _allow_nonbracketed_mutation_flag = True
    try:
        yield
    finally:
        _allow_nonbracketed_mutation_flag = old


from minitorch.backends import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp  # noqa: E402,F401


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): says whether PyTorch has it.
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
