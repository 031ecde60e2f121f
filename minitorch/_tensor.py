"""The Tensor methods torch writes in Python (torch/_tensor.py): backward(), register_hook(), norm(),
unique(), unique_consecutive(), __hash__; install() also puts on the methods minitorch writes in Python
(bernoulli, exponential_, multinomial: minitorch/_distributions.py).

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


def install(tensor_type):
    """Puts the methods above on the Tensor type."""
    from minitorch._distributions import bernoulli, bernoulli_, exponential_, multinomial_method

    tensor_type.__hash__ = __hash__
    tensor_type.bernoulli = bernoulli
    tensor_type.bernoulli_ = bernoulli_
    tensor_type.exponential_ = exponential_
    multinomial_method.__name__ = "multinomial"
    tensor_type.multinomial = multinomial_method
    tensor_type.backward = backward
    tensor_type.register_hook = register_hook
    tensor_type.norm = norm
    tensor_type.unique = unique
    tensor_type.unique_consecutive = unique_consecutive
