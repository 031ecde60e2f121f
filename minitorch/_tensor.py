"""The Tensor methods torch writes in Python (torch/_tensor.py): backward(), register_hook(), norm(),
unique(), unique_consecutive(), __hash__, __array__, __array_wrap__, __dlpack__; install() also puts on
the methods minitorch writes in Python (bernoulli, exponential_, geometric_, log_normal_, cauchy_,
multinomial: minitorch/_distributions.py).

minitorch/__init__.py installs them on the C Tensor type; the graph and the engine are C
(csrc/autograd/), and these only check arguments as torch does and call into it."""

import collections

from minitorch import _C

__all__ = ["backward", "register_hook", "norm", "unique", "unique_consecutive"]


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Computes the gradient of this tensor with respect to the graph's leaves (into their .grad)."""
    from minitorch import autograd

    autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def register_hook(self, hook):
    """Calls hook(grad) on this tensor's gradient during backward; a returned tensor replaces it.
    Returns a handle whose remove() takes the hook out."""
    from minitorch.utils.hooks import RemovableHandle

    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self._backward_hooks is None:
        self._backward_hooks = collections.OrderedDict()
        if self.grad_fn is not None:
            self.grad_fn._register_hook_dict(self)
    handle = RemovableHandle(self._backward_hooks)
    self._backward_hooks[handle.id] = hook
    return handle


def __hash__(self):
    """A tensor hashes by identity (== compares values elementwise), as torch's do."""
    return id(self)


def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """minitorch.norm(self, p, dim, keepdim, dtype=dtype)."""
    from minitorch.functional import norm as _norm

    return _norm(self, p, dim, keepdim, dtype=dtype)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """minitorch.unique(self, ...): the unique elements (or slices along dim), sorted."""
    from minitorch.functional import unique as _unique

    return _unique(self, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts, dim=dim)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """minitorch.unique_consecutive(self, ...): one element (or slice) per run of equal neighbours."""
    from minitorch.functional import unique_consecutive as _unique_consecutive

    return _unique_consecutive(self, return_inverse=return_inverse, return_counts=return_counts, dim=dim)


def __array__(self, dtype=None, copy=None):
    """What numpy.asarray(tensor) calls: the shared array of numpy(), converted to dtype; copy=True always
    copies and copy=False raises ValueError when a copy would be needed (NumPy 2's copy=, which torch's
    __array__ lacks)."""
    return _C._tensor_array(self, dtype, copy)


def __array_wrap__(self, array, context=None, return_scalar=False):
    """Turns the result of a NumPy ufunc applied to tensors back into a tensor (from_numpy)."""
    return _C._array_wrap(array)


def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
    """Exports the tensor as a DLPack capsule that shares its memory (the array API's protocol): a
    "dltensor_versioned" capsule when max_version >= (1, 0), else a legacy "dltensor" one. copy=True
    exports a copy; dl_device=(1, 0) asks for host memory. stream: the consumer's CUDA stream (-1: no
    synchronisation; None on the CPU). Raises BufferError for tensors that require grad, unsupported
    devices, copy=False when a copy is needed, and tensors on the simulated GPU."""
    _C._dlpack_check(self, stream)
    if max_version is None or max_version[0] < 1:
        return _C._to_dlpack(self, dl_device=dl_device, copy=copy)
    return _C._to_dlpack_versioned(self, dl_device=dl_device, copy=copy)


def install(tensor_type):
    """Puts the methods above on the Tensor type."""
    from minitorch._distributions import (bernoulli, bernoulli_, cauchy_, exponential_, geometric_, log_normal_,
                                          multinomial_method)

    tensor_type.__hash__ = __hash__
    for method in (__array__, __array_wrap__, __dlpack__):
        method.__qualname__ = "Tensor." + method.__name__
        setattr(tensor_type, method.__name__, method)
    tensor_type.bernoulli = bernoulli
    tensor_type.bernoulli_ = bernoulli_
    tensor_type.exponential_ = exponential_
    tensor_type.geometric_ = geometric_
    tensor_type.log_normal_ = log_normal_
    tensor_type.cauchy_ = cauchy_
    multinomial_method.__name__ = "multinomial"
    tensor_type.multinomial = multinomial_method
    tensor_type.backward = backward
    tensor_type.register_hook = register_hook
    tensor_type.norm = norm
    tensor_type.unique = unique
    tensor_type.unique_consecutive = unique_consecutive
