# Type stubs for the minitorch package: everything minitorch._C exports (see _C.pyi) plus the Python
# helpers defined in __init__.py. Used by type checkers instead of __init__.py, whose C functions are
# re-exported dynamically (_export_functions) where a checker cannot see them.

import builtins
from typing import Any, Callable, Sequence, TypeVar, overload

from minitorch import backends as backends
from minitorch import cuda as cuda
from minitorch import autograd as autograd
from minitorch import nn as nn
from minitorch import optim as optim
from minitorch import functional as functional
from minitorch import utils as utils
from minitorch.autograd import (
    enable_grad as enable_grad,
    inference_mode as inference_mode,
    is_grad_enabled as is_grad_enabled,
    is_inference_mode_enabled as is_inference_mode_enabled,
    no_grad as no_grad,
    set_grad_enabled as set_grad_enabled,
)
from minitorch import version as version
from minitorch import serialization as serialization
from minitorch import linalg as linalg
from minitorch import functional as functional
from minitorch.functional import meshgrid as meshgrid, norm as norm, unique as unique, unique_consecutive as unique_consecutive
from minitorch._C import *  # noqa: F403 - the public C API, re-exported
from minitorch._C import (
    AcceleratorError as AcceleratorError,
    OutOfMemoryError as OutOfMemoryError,
    Size as Size,
    Tensor as Tensor,
    bool as bool,
    device as device,
    double as double,
    dtype as dtype,
    float as float,
    float32 as float32,
    float64 as float64,
    int as int,
    int32 as int32,
    int64 as int64,
    long as long,
    memory_format as memory_format,
    contiguous_format as contiguous_format,
    preserve_format as preserve_format,
    channels_last as channels_last,
    channels_last_3d as channels_last_3d,
    return_types as return_types,
)

_F = TypeVar("_F", bound=Callable[..., Any])

__version__: str

class Generator:
    """A CPU random number generator: torch's mt19937 with its own state (torch.Generator)."""

    device: device
    def __init__(self, device: Any = None) -> None: ...
    def manual_seed(self, seed: builtins.int) -> Generator: ...
    def initial_seed(self) -> builtins.int: ...
    def seed(self) -> builtins.int: ...
    def get_state(self) -> Tensor: ...
    def set_state(self, new_state: Tensor) -> Generator: ...

default_generator: Generator

def manual_seed(seed: builtins.int) -> Generator: ...
def save(obj: Any, f: Any, pickle_module: Any = ..., pickle_protocol: builtins.int = ...,
         _use_new_zipfile_serialization: builtins.bool = ..., _disable_byteorder_record: builtins.bool = ...) -> None: ...
def load(f: Any, map_location: Any = ..., pickle_module: Any = ..., *, weights_only: builtins.bool | None = ...,
         mmap: builtins.bool | None = ..., **pickle_load_args: Any) -> Any: ...
def initial_seed() -> builtins.int: ...
def get_rng_state() -> Tensor: ...
def set_rng_state(new_state: Tensor) -> None: ...
def seed() -> builtins.int: ...
def get_default_dtype() -> dtype: ...
def is_tensor(obj: object) -> builtins.bool: ...
def typename(obj: object) -> builtins.str: ...
def broadcast_shapes(*shapes: Any) -> Size: ...
def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]: ...
def bernoulli(input: Tensor, p: builtins.float | None = None, *, generator: Generator | None = None) -> Tensor: ...
def outer(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor: ...
def ger(input: Tensor, vec2: Tensor, *, out: Tensor | None = None) -> Tensor: ...
def nonzero(input: Tensor, *, as_tuple: builtins.bool = False, out: Tensor | None = None) -> Any: ...
def argwhere(input: Tensor) -> Tensor: ...
def count_nonzero(input: Tensor, dim: builtins.int | Sequence[builtins.int] | None = None) -> Tensor: ...
@overload
def repeat_interleave(input: Tensor, repeats: Tensor | builtins.int, dim: builtins.int | None = None, *,
                      output_size: builtins.int | None = None) -> Tensor: ...
@overload
def repeat_interleave(repeats: Tensor, *, output_size: builtins.int | None = None) -> Tensor: ...
def numel(input: Tensor) -> builtins.int: ...
def set_printoptions(precision: builtins.int | None = None, threshold: builtins.float | None = None,
                     edgeitems: builtins.int | None = None, linewidth: builtins.int | None = None,
                     profile: str | None = None, sci_mode: builtins.bool | None = None) -> None: ...
def get_printoptions() -> dict[str, Any]: ...
