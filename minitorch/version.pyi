# Type stubs for minitorch.version: what this build of minitorch is, like torch.version.

__version__: str
cuda: str | None
debug: bool
hip: None
