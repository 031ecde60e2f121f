"""RemovableHandle: what registering a hook returns (torch.utils.hooks.RemovableHandle); BackwardHook:
how a module's backward hooks reach the autograd graph.

A handle knows the ordered dict its hook lives in (and the dicts that hold the hook's flags, such as
``with_kwargs``) by weak reference, so a handle kept after its module is gone holds nothing alive.
``handle.remove()`` (or leaving ``with handle:``) takes the hook out; removing twice is harmless.
"""

import functools
import warnings
import weakref

__all__ = ["RemovableHandle", "BackwardHook"]


class RemovableHandle:
    """A handle that removes one hook from the dict it was registered in."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if extra_dict is None:
            extra_dict = []
        elif not isinstance(extra_dict, list):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self):
        """Takes the hook out of its dict and of the flag dicts; a second call does nothing."""
        for ref in (self.hooks_dict_ref,) + self.extra_dict_ref:
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


@functools.lru_cache(maxsize=None)
def _backward_hook_function():
    """The identity Function a module's backward hooks hang on (its node: BackwardHookFunctionBackward)."""
    from minitorch.autograd.function import Function

    class BackwardHookFunction(Function):
        @staticmethod
        def forward(ctx, *tensors):
            return tuple(t.detach() for t in tensors)

        @staticmethod
        def backward(ctx, *grads):
            return grads

    return BackwardHookFunction


class BackwardHook:
    """A module's full backward hooks (torch.utils.hooks.BackwardHook): the module's tensor inputs and
    outputs each pass through one identity node (BackwardHookFunctionBackward); the output node's hook
    sees the gradients of the outputs (and runs the backward pre-hooks, which may replace them), the
    input node's hook sees those of the inputs and runs the user hooks, hook(module, grad_input,
    grad_output), which may replace grad_input. Non-tensor arguments show as None."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn):
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """args with its tensors passed through one identity node (when any requires grad and grad mode
        is on), fn called with that node; and the positions of the tensors."""
        from minitorch import Tensor, is_grad_enabled

        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        passing = [i for i, t in zip(tensors_idx, tensors) if t.requires_grad]
        new_tensors = _backward_hook_function().apply(*(args[i] for i in passing))
        fn(new_tensors[0].grad_fn)
        arg_list = list(args)
        for idx, val in zip(passing, new_tensors):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args):
        """The module's arguments, their tensors routed through the node whose hook runs the user hooks."""
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        """The module's result, its tensors routed through the node whose hook records grad_output."""
        def fn(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    replaced = user_pre_hook(self.module, self.grad_outputs)
                    if replaced is None:
                        continue
                    if len(replaced) != len(self.grad_outputs):
                        raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                           f"got {len(replaced)}, but expected {len(self.grad_outputs)}")
                    self.grad_outputs = replaced
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:
                    warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                                  "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/"
                                  "main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
                                  "for more details.", stacklevel=5)
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients.")
                    self.grad_outputs = None
                return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        res, output_idx = self._apply_on_tensors(fn, args if is_tuple else (args,))
        self.n_outputs = len(args) if is_tuple else 1
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]
