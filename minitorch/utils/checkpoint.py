"""minitorch.utils.checkpoint: torch.utils.checkpoint's activation checkpointing. checkpoint(fn, *args)
runs fn without keeping its intermediate results for backward, and runs it again during backward to
get them, with the random-number state of the first run (so dropout draws the same mask); the
gradients are those of running fn directly. checkpoint_sequential splits a Sequential into segments
so checkpointed.

Both of torch's variants are here, with torch's warnings and errors. The reentrant one
(use_reentrant=True, and torch's default when use_reentrant is not given) is torch's: an
autograd.Function whose backward recomputes and runs a backward of its own. minitorch has no
saved-tensor hooks, so use_reentrant=False is the same recomputation with what that variant adds on
the surface: keyword arguments, context_fn's two contexts (the forward's and the recomputation's),
determinism_check (the recomputed outputs' shapes, dtypes and devices against the forward's), and
gradients for the parameters of a Module (or a Module's method) even when no input requires grad.
torch.autograd.grad() over a checkpointed part and torch's checkpoint debug tracing are not yet."""

import contextlib
import warnings

import minitorch
from minitorch.autograd.function import Function

__all__ = ["checkpoint", "checkpoint_sequential", "detach_variable", "check_backward_validity", "noop_context_fn"]

_DETERMINISM_CHECKS = ["default", "none"]


def detach_variable(inputs):
    """The tensors of a tuple detached, each keeping its requires_grad; other items as they are."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, minitorch.Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    """torch's warning when no input requires grad (the reentrant variant then gives no gradients)."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, minitorch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def noop_context_fn():
    """The default context_fn: no context around the forward or the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def _cuda_devices(args):
    return sorted({a.get_device() for a in args if isinstance(a, minitorch.Tensor) and a.is_cuda})


class _RngState:
    """The CPU generator's state and, once CUDA is initialised, that of the devices the inputs are on."""

    def __init__(self, args):
        self.cpu = minitorch.get_rng_state()
        self.devices = _cuda_devices(args) if minitorch.cuda.is_initialized() else []
        self.device_states = [minitorch.cuda.get_rng_state(d) for d in self.devices]

    def restored(self):
        """A block that runs with these states and puts the surrounding ones back afterwards."""
        stack = contextlib.ExitStack()
        stack.enter_context(minitorch.random.fork_rng(devices=self.devices, device_type="cuda"))
        minitorch.set_rng_state(self.cpu)
        for device, state in zip(self.devices, self.device_states):
            minitorch.cuda.set_rng_state(state, device)
        return stack


def _recompute(ctx, inputs):
    # runs the function again on detached inputs, with the forward's random state when asked to
    rng = ctx.rng.restored() if ctx.rng is not None else contextlib.nullcontext()
    with rng:
        detached = detach_variable(tuple(inputs))
        with minitorch.enable_grad(), ctx.recompute_context:
            outputs = ctx.run_function(*detached, **ctx.kwargs)
    return detached, outputs if isinstance(outputs, tuple) else (outputs,)


def _backward_through(outputs, grads):
    outputs_with_grad, grads_with_grad = [], []
    for out, grad in zip(outputs, grads):
        if isinstance(out, minitorch.Tensor) and out.requires_grad:
            outputs_with_grad.append(out)
            grads_with_grad.append(grad)
    if not outputs_with_grad:
        raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
    minitorch.autograd.backward(outputs_with_grad, grads_with_grad)


class CheckpointFunction(Function):
    """torch's reentrant checkpoint: forward without a graph; backward recomputes and runs backward on
    the recomputed graph, whose input gradients it returns."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        """Runs run_function(*args) without recording a graph, keeping what the recomputation needs."""
        check_backward_validity(args)
        return _checkpoint_forward(ctx, run_function, preserve_rng_state, args, {}, contextlib.nullcontext())

    @staticmethod
    def backward(ctx, *grads):
        """Recomputes the forward with a graph and runs backward through it."""
        detached, outputs = _recompute(ctx, _saved_inputs(ctx))
        _backward_through(outputs, grads)
        return (None, None) + tuple(inp.grad if isinstance(inp, minitorch.Tensor) else None for inp in detached)


def _checkpoint_forward(ctx, run_function, preserve_rng_state, args, kwargs, recompute_context):
    ctx.run_function, ctx.kwargs, ctx.recompute_context = run_function, kwargs, recompute_context
    ctx.rng = _RngState(args) if preserve_rng_state else None
    # tensors are saved (version-checked at backward, as torch's), other arguments kept as they are
    ctx.inputs = [None if isinstance(a, minitorch.Tensor) else a for a in args]
    ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, minitorch.Tensor)]
    ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
    with minitorch.no_grad():
        return run_function(*args, **kwargs)


def _saved_inputs(ctx):
    inputs = list(ctx.inputs)
    for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
        inputs[i] = t
    return inputs


def _metadata(values):
    return [(tuple(v.shape), v.dtype, v.device) if isinstance(v, minitorch.Tensor) else None for v in values]


class _NonReentrantCheckpoint(Function):
    """use_reentrant=False on minitorch: the same recomputation, with keyword arguments, the recompute
    context and the determinism check; `anchor` is a tensor that requires grad, so that the node exists
    when only the parameters of the function need gradients."""

    @staticmethod
    def forward(ctx, anchor, run_function, preserve_rng_state, determinism_check, kwargs, recompute_context,
                *args):
        """Runs run_function(*args, **kwargs) without recording a graph."""
        outputs = _checkpoint_forward(ctx, run_function, preserve_rng_state, args, kwargs, recompute_context)
        ctx.determinism_check = determinism_check
        ctx.forward_metadata = _metadata(outputs if isinstance(outputs, tuple) else (outputs,))
        return outputs

    @staticmethod
    def backward(ctx, *grads):
        """Recomputes the forward, checks it against the first run, and runs backward through it."""
        detached, outputs = _recompute(ctx, _saved_inputs(ctx))
        if ctx.determinism_check == "default" and _metadata(outputs) != ctx.forward_metadata:
            raise RuntimeError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata "
                "than during the forward pass.\n" + "".join(
                    "tensor at position {}:\nsaved metadata: {}\nrecomputed metadata: {}\n".format(i, a, b)
                    for i, (a, b) in enumerate(zip(ctx.forward_metadata, _metadata(outputs))) if a != b))
        _backward_through(outputs, grads)
        return (None,) * 6 + tuple(inp.grad if isinstance(inp, minitorch.Tensor) else None for inp in detached)


def _module_parameters(function):
    module = function if isinstance(function, minitorch.nn.Module) else getattr(function, "__self__", None)
    if isinstance(module, minitorch.nn.Module):
        return [p for p in module.parameters() if p.requires_grad]
    return []


def _use_reentrant(use_reentrant, message):
    if use_reentrant is None:
        warnings.warn(message, stacklevel=3)
        return True
    return use_reentrant


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    """function(*args, **kwargs) without keeping its intermediate results: backward runs it again
    (with the random state of the first run unless preserve_rng_state=False) to get its gradients.
    Pass use_reentrant explicitly (torch warns when it is not; False is torch's recommendation)."""
    use_reentrant = _use_reentrant(
        use_reentrant,
        "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch "
        "2.9, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is "
        "recommended, but if you need to preserve the current default behavior, you can pass "
        "use_reentrant=True. Refer to docs for more details on the differences between the two variants.")
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError("determinism_check should be one of {}, but got {}".format(
            _DETERMINISM_CHECKS, determinism_check))
    forward_context, recompute_context = context_fn()
    if not minitorch.is_grad_enabled():
        with forward_context:
            return function(*args, **kwargs)
    needs_anchor = not any(isinstance(a, minitorch.Tensor) and a.requires_grad for a in args) and bool(
        _module_parameters(function))
    anchor = minitorch.zeros((), requires_grad=True) if needs_anchor else None
    with forward_context:
        return _NonReentrantCheckpoint.apply(anchor, function, preserve, determinism_check, kwargs,
                                             recompute_context, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs a Sequential (or a list of modules or functions) in `segments` parts, each checkpointed but
    the last, so that only the segments' inputs are kept for backward."""
    use_reentrant = _use_reentrant(
        use_reentrant,
        "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed explicitly. "
        "In version 2.9 we will raise an exception if use_reentrant is not passed. use_reentrant=False is "
        "recommended, but if you need to preserve the current default behavior, you can pass "
        "use_reentrant=True. Refer to docs for more details on the differences between the two variants.")
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if isinstance(functions, minitorch.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
