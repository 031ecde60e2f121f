# Type stubs for minitorch.cpu (torch.cpu): is_available and the deprecated torch.cpu.amp.

from typing import Any

amp: Any

def is_available() -> bool: ...
