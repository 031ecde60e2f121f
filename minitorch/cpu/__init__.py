"""torch.cpu: the CPU's device module. minitorch has the part learners reach for: ``amp`` (torch's
deprecated ``torch.cpu.amp.autocast`` and ``GradScaler``, minitorch/amp/deprecated_modules.py) and
``is_available``."""

__all__ = ["is_available"]


def is_available():
    """Always True: the CPU is always there."""
    return True
