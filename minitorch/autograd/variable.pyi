from minitorch._C import Tensor

class Variable:
    def __new__(cls, data: Tensor, requires_grad: bool = ..., volatile: bool = ...) -> Tensor: ...  # type: ignore[misc]
