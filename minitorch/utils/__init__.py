"""minitorch.utils: the small helpers torch.utils holds that minitorch's slice needs (hooks, dlpack, and data
and checkpoint: imported at their first use, so that `import minitorch` stays fast)."""

from minitorch.utils import dlpack, hooks  # noqa: F401


def __getattr__(name):
    # Python calls this only after the name was not found (PEP 562): data and checkpoint are imported at
    # their first use (importing one sets the attribute); any other name: says whether PyTorch has it.
    if name in ("data", "checkpoint"):
        import importlib

        return importlib.import_module("minitorch.utils." + name)
    from minitorch._missing import module_attribute_error

    raise module_attribute_error(__name__, name)
