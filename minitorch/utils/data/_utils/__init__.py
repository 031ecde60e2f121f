"""The DataLoader's helpers, where torch keeps them (torch.utils.data._utils)."""

from minitorch.utils.data._utils import collate, fetch, signal_handling, worker  # noqa: F401
