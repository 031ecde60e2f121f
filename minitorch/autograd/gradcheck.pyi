from typing import Any, Callable

class GradcheckError(RuntimeError): ...

def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = ..., atol: float = ..., rtol: float = ...,
              raise_exception: bool = ..., nondet_tol: float = ..., check_undefined_grad: bool = ...,
              check_grad_dtypes: bool = ..., check_batched_grad: bool = ..., check_batched_forward_grad: bool = ...,
              check_forward_ad: bool = ..., check_backward_ad: bool = ..., fast_mode: bool = ...,
              masked: bool | None = ...) -> bool: ...
