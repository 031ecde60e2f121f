"""minitorch.utils: the small helpers torch.utils holds that minitorch's slice needs (hooks)."""

from minitorch.utils import hooks  # noqa: F401
