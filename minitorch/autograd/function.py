"""torch.autograd.Function: an op whose forward and backward the user writes in Python.

``MyOp.apply(*args)`` runs ``forward(ctx, *args)`` with grad mode off, then, when an argument requires
grad, records one node named ``MyOpBackward`` whose backward calls ``MyOp.backward(ctx, *grads)``: one
gradient per argument (None for the ones that are not tensors or need none), as in torch.
"""

from minitorch import _C
from minitorch.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad

__all__ = ["Function", "FunctionCtx"]


class FunctionCtx:
    """What forward() leaves for backward(): saved tensors and any attribute the user sets."""

    def save_for_backward(self, *tensors):
        """Keeps tensors (or None) for backward(); read them back as ctx.saved_tensors."""
        for t in tensors:
            if t is not None and not isinstance(t, _C.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self.to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors given to save_for_backward(), in order."""
        return getattr(self, "to_save", ())

    def mark_non_differentiable(self, *args):
        """Outputs that need no gradient (kept for code written for torch)."""
        self.non_differentiable = args

    def mark_dirty(self, *args):
        """Inputs changed in place by forward() (kept for code written for torch)."""
        self.dirty_tensors = args

    def set_materialize_grads(self, value):
        """Whether backward() gets zeros instead of None for unused outputs (kept for code written for torch)."""
        self.materialize_grads = value


class Function:
    """Base class of user-written differentiable ops: subclass it with static forward and backward."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Computes the outputs from the inputs (override it)."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """The gradients of the inputs from those of the outputs (override it)."""
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Runs forward() and records backward() for autograd."""
        return _apply(cls, cls.__name__ + "Backward", __name__, args, kwargs)

    @staticmethod
    def setup_context(ctx, inputs, output):
        """torch 2's split form: forward(*args) without ctx, then setup_context fills ctx (override it)."""
        raise NotImplementedError("setup_context is not implemented.")



def _apply(cls, node_name, node_module, args, kwargs):
    """Function.apply: forward() with grad mode off, then one node named node_name (its type's module
    node_module; None keeps "builtins", as the nodes of torch's own ops print) whose backward calls
    cls.backward. minitorch's nn ops written this way (minitorch/nn/_native.py) pass torch's node names."""
    ctx = FunctionCtx()
    ctx.needs_input_grad = tuple(isinstance(a, _C.Tensor) and a.requires_grad for a in args)
    custom_setup = cls.setup_context is not Function.setup_context
    with no_grad():
        if custom_setup:
            outputs = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, outputs)
        else:
            outputs = cls.forward(ctx, *args, **kwargs)
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    node = _C._function_record(node_name, ctx, cls.backward, tuple(args), tuple(outs))
    if node is not None and node_module is not None and type(node).__module__ == "builtins":
        type(node).__module__ = node_module
    return outputs


def _apply_inplace(cls, node_name, self, args, saves_result):
    """The in-place form of an op written as a Function (minitorch/nn/_native.py): forward() on self's
    values, written back into self, and one node named node_name whose output is self, as torch records
    its in-place ops (torch's errors for a leaf or a view of one first; one version bump; on a view, the
    base's history is rebased through CopySlices). saves_result: backward reads the result (self after the
    write, version-checked at backward as torch checks a saved output); otherwise forward() saves what it
    needs from a copy of self's old values, which the write leaves alone. Returns self."""
    ctx = FunctionCtx()
    ctx.needs_input_grad = tuple(isinstance(a, _C.Tensor) and a.requires_grad for a in (self,) + tuple(args))
    ctx.is_result = saves_result
    # torch saves a clone of self's old values made in the graph (CloneBackward0), so that a double
    # backward reaches self's history through it
    source = self.clone() if self.requires_grad and not saves_result else self
    with no_grad():
        result = cls.forward(ctx, source, *args)
    if saves_result:
        ctx.to_save = ()    # the node keeps the result itself
    _C._function_record_inplace(node_name, ctx, cls.backward, (self,) + tuple(args), result, saves_result)
    return self


class _NoDerivative(Function):
    """The node of an op that torch's derivatives.yaml marks not_implemented("op") (geqrf, unique): the value
    is compute()'s (apply(node_name, op, compute, *inputs)), and backward raises torch's NotImplementedError
    naming the op."""

    @classmethod
    def apply(cls, node_name, op, compute, *inputs):
        return _apply(cls, node_name, None, (op, compute) + inputs, {})

    @staticmethod
    def forward(ctx, op, compute, *inputs):
        ctx.op_name = op
        return compute()

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("the derivative for '{}' is not implemented.".format(ctx.op_name))


def _vjp(compute, inputs, needs, grad):
    """The backward of an op written as a Function whose derivative is that of compute(*inputs), a composite
    of minitorch's ops: compute's graph run backward from grad, one gradient per input (None where needs[i]
    is false or the input is unused). Under create_graph=True (grad mode on in a backward) compute runs on the
    inputs themselves, so that the gradients have history for the next order."""
    from minitorch.autograd import grad as _grad   # defined after this module's import

    create = is_grad_enabled()
    with enable_grad():
        xs = list(inputs) if create else [x.detach().requires_grad_(bool(n)) for x, n in zip(inputs, needs)]
        wrt = [x for x, n in zip(xs, needs) if n]
        if not wrt:
            return tuple(None for _ in needs)
        got = iter(_grad(compute(*xs), wrt, grad, create_graph=create, allow_unused=True))
    return tuple(next(got) if n else None for n in needs)


class _NotImplemented(_NoDerivative):
    """torch's NotImplemented node: a value computed where torch has no derivative for the op that makes it
    (forward(name, compute, *inputs): compute() below autograd, over the inputs that require grad); its
    backward raises torch's error naming the op."""

    @classmethod
    def apply(cls, name, compute, *inputs):
        return _apply(cls, "NotImplemented", None, (name, compute) + inputs, {})

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{ctx.op_name} is not implemented")