"""LazyModuleMixin: a layer whose parameter shapes its first input decides (LazyLinear, LazyConv1d/2d/3d,
LazyBatchNorm1d/2d/3d), as torch.nn.modules.lazy has it.

The layer is built with UninitializedParameter / UninitializedBuffer members (nn/parameter.py); a forward
pre-hook runs initialize_parameters(input) on the first call, which gives them shapes and draws their values
with the layer's own reset_parameters (torch's stream: after the same manual_seed the weights are torch's), then
removes itself and turns the module into its ordinary class (cls_to_become: LazyLinear becomes Linear).
"""

from minitorch.nn.parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """The first forward infers the uninitialised parameters' shapes from the input, then the module becomes
    cls_to_become."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def has_uninitialized_params(self):
        """Whether a parameter or buffer of this module (not of its children) still has no shape."""
        for value in list(self._parameters.values()) + list(self._buffers.values()):
            if is_lazy(value):
                return True
        return False

    def initialize_parameters(self, *args, **kwargs):
        """Gives the parameters their shapes from the forward's arguments (each lazy layer defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    @staticmethod
    def _infer_parameters(module, args, kwargs=None):
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        delattr(module, "_initialize_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a dummy "
                           "forward pass to correctly initialize the modules")
