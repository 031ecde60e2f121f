"""torch.autocast (torch.amp.autocast): the region that runs some ops in a lower precision, and torch's
functions on the autocast state of the current thread.

The state and the op policies live in C (csrc/python/autocast.c): the ops of minitorch's op table are
cast there, at their one entry (csrc/python/bind.c). The ops written in Python are wrapped once, by
_wrap_python_ops below, to call the same hook with the same table; nothing else here knows a policy.
Autocast runs on the "cpu" and "cuda" device types (a simulated GPU counts as CUDA)."""

import functools
import threading
import warnings

import minitorch
from minitorch import _C

__all__ = ["autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

_KINDS = {"cpu": 0, "cuda": 1}


def _type_name(value):
    cls = type(value)
    return "torch." + cls.__name__ if cls.__module__.startswith("minitorch") else cls.__name__


def _check_bool(value, what):
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be a bool (got {type(value).__name__})")


def _kind(device_type, name):
    """The C state's index of a device type string; torch's errors for anything else."""
    if isinstance(device_type, bytes):  # torch's C++ str parameter takes bytes too
        device_type = device_type.decode()
    if not isinstance(device_type, str):
        raise TypeError(f"{name}(): argument 'device_type' (position 1) must be str, not {_type_name(device_type)}")
    kind = _KINDS.get(minitorch.device(device_type).type)  # torch's message for an unknown device string
    if kind is None:
        raise RuntimeError(f"minitorch autocasts only 'cpu' and 'cuda', not '{device_type}'")
    return kind


def is_autocast_available(device_type):
    """Whether autocast works on ``device_type`` (minitorch: 'cpu' and 'cuda')."""
    return minitorch.device(device_type).type in _KINDS


_NOT_GIVEN = object()


def is_autocast_enabled(device_type=_NOT_GIVEN):
    """Whether autocast is on in this thread for ``device_type`` ('cuda' when not given)."""
    return _C._autocast_is_enabled(1 if device_type is _NOT_GIVEN else _kind(device_type, "is_autocast_enabled"))


def _invalid(name, args, expected):
    got = ", ".join(_type_name(a) for a in args)
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    + "".join(f" * ({e})\n" for e in expected))


def set_autocast_enabled(device_type, enabled=_NOT_GIVEN):
    """Turns autocast on or off for ``device_type`` in this thread (``set_autocast_enabled(flag)``: CUDA)."""
    if enabled is _NOT_GIVEN:
        if not isinstance(device_type, bool):
            _invalid("set_autocast_enabled", (device_type,), ["str device_type, bool enabled", "bool enabled"])
        device_type, enabled = "cuda", device_type
    if not isinstance(enabled, bool):
        raise TypeError(f"set_autocast_enabled(): argument 'enabled' (position 2) must be bool, not "
                        f"{_type_name(enabled)}")
    _C._autocast_set_enabled(_kind(device_type, "set_autocast_enabled"), enabled)
    _track_python_ops()


def _check_dtype(name, dtype, position):
    if not isinstance(dtype, minitorch.dtype):
        raise TypeError(f"{name}(): argument 'dtype' (position {position}) must be torch.dtype, not {_type_name(dtype)}")


def get_autocast_dtype(device_type):
    """The dtype autocast's lower-precision ops use on ``device_type`` in this thread."""
    return _C._autocast_get_dtype(_kind(device_type, "get_autocast_dtype"))


def set_autocast_dtype(device_type, dtype):
    """Sets the dtype autocast's lower-precision ops use on ``device_type`` in this thread."""
    _check_dtype("set_autocast_dtype", dtype, 2)
    _C._autocast_set_dtype(_kind(device_type, "set_autocast_dtype"), dtype)


def _deprecated(old, new):
    warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=3)


def is_autocast_cpu_enabled():
    """Deprecated form of ``is_autocast_enabled('cpu')``."""
    _deprecated("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')")
    return _C._autocast_is_enabled(0)


def set_autocast_cpu_enabled(enabled):
    """Deprecated form of ``set_autocast_enabled('cpu', enabled)``."""
    _check_bool(enabled, "enabled")
    _deprecated("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)")
    _C._autocast_set_enabled(0, enabled)
    _track_python_ops()


def get_autocast_cpu_dtype():
    """Deprecated form of ``get_autocast_dtype('cpu')``."""
    _deprecated("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')")
    return _C._autocast_get_dtype(0)


def set_autocast_cpu_dtype(dtype):
    """Deprecated form of ``set_autocast_dtype('cpu', dtype)``."""
    _check_dtype("set_autocast_cpu_dtype", dtype, 1)
    _deprecated("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)")
    _C._autocast_set_dtype(0, dtype)


def get_autocast_gpu_dtype():
    """Deprecated form of ``get_autocast_dtype('cuda')``."""
    _deprecated("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')")
    return _C._autocast_get_dtype(1)


def set_autocast_gpu_dtype(dtype):
    """Deprecated form of ``set_autocast_dtype('cuda', dtype)``."""
    _check_dtype("set_autocast_gpu_dtype", dtype, 1)
    _deprecated("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)")
    _C._autocast_set_dtype(1, dtype)


autocast_increment_nesting = _C._autocast_increment_nesting
autocast_decrement_nesting = _C._autocast_decrement_nesting
is_autocast_cache_enabled = _C._autocast_is_cache_enabled


def set_autocast_cache_enabled(enabled):
    """Turns autocast's weight cache on or off in this thread."""
    _check_bool(enabled, "enabled")
    _C._autocast_set_cache_enabled(enabled)


clear_autocast_cache = _C._autocast_clear_cache


def _cuda_definitely_not_available():
    return not minitorch.cuda.is_available()


class autocast:
    """A region (``with``) or a function (decorator) where the ops on torch's lists run in ``dtype``
    (float16 on CUDA, bfloat16 on the CPU by default), the numerically sensitive ones in float32, and
    the mixed-input ones in their widest type."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        supported = [minitorch.bfloat16, minitorch.float16]
        if enabled:
            if self.device == "cuda":
                if _cuda_definitely_not_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                                  stacklevel=2)
                    enabled = False
                elif self.fast_dtype == minitorch.bfloat16 and not minitorch.cuda.is_bf16_supported():
                    raise RuntimeError("Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in supported:
                name = self.device.upper()
                warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                              f"{name} Autocast only supports dtypes of "
                              + ", ".join(str(d).replace("minitorch.", "torch.") for d in supported)
                              + " currently.", stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                            f"Did you mean to use autocast as a context manager? For example:\n"
                            f"    with torch.autocast(device_type=...):\n"
                            f"        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


def _cast_inputs(value, device_type, dtype):
    if isinstance(value, minitorch.Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type and value.dtype != minitorch.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_inputs(v, device_type, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast_inputs(v, device_type, dtype) for k, v in value.items()}
    return value


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorator for a custom autograd Function's forward: it runs with the autocast state of the caller
    (or, given ``cast_inputs``, with autocast off and its floating inputs cast to that dtype)."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast_inputs(args, device_type, cast_inputs),
                           **_cast_inputs(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorator for a custom autograd Function's backward: it runs with the autocast state its forward
    had."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd


def _policy_op(func, name):
    """``func`` (an op written in Python) run through the autocast hook under its policy ``name``."""

    @functools.wraps(func)
    def autocast_op(*args, **kwargs):
        cast = _C._autocast_cast(name, args, kwargs)
        if cast is None:
            return func(*args, **kwargs)
        previous = _C._autocast_set_excluded(True)
        try:
            return func(*cast[0], **cast[1])
        finally:
            _C._autocast_set_excluded(previous)

    autocast_op._autocast_policy = name
    return autocast_op


# The Python-written ops of torch's autocast lists, by namespace; linalg's are aten's linalg_<name>.
_PYTHON_OPS = {
    "minitorch": ["conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d", "prelu", "addr", "einsum", "chain_matmul", "cosine_similarity",
                  "layer_norm", "group_norm", "rms_norm", "nuclear_norm", "dist", "pdist", "cdist", "renorm",
                  "logsumexp", "norm", "polar", "quantile", "nanquantile", "stft", "trace", "cholesky",
                  "cholesky_inverse", "cholesky_solve", "inverse", "pinverse", "geqrf", "qr", "svd",
                  "triangular_solve", "bilinear", "cross", "vdot", "tensordot", "index_copy", "atan2",
                  "binary_cross_entropy_with_logits", "kl_div", "cosine_embedding_loss", "hinge_embedding_loss",
                  "margin_ranking_loss", "poisson_nll_loss", "triplet_margin_loss", "ctc_loss",
                  "view_as_complex", "lu_solve", "orgqr", "ormqr", "rnn_tanh_cell", "rnn_relu_cell",
                  "lstm_cell", "gru_cell"],
    "minitorch.nn.functional": [
        "linear", "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "prelu", "scaled_dot_product_attention", "softplus", "layer_norm", "group_norm",
        "rms_norm", "cosine_similarity", "pdist", "poisson_nll_loss", "cosine_embedding_loss", "nll_loss",
        "hinge_embedding_loss", "kl_div", "l1_loss", "smooth_l1_loss", "huber_loss", "mse_loss",
        "margin_ranking_loss", "multilabel_margin_loss", "soft_margin_loss", "triplet_margin_loss",
        "multi_margin_loss", "binary_cross_entropy_with_logits", "binary_cross_entropy", "cross_entropy",
        "ctc_loss", "avg_pool3d", "max_pool3d", "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d",
        "adaptive_max_pool3d", "fractional_max_pool2d", "fractional_max_pool3d", "grid_sample", "bilinear"],
    "minitorch.linalg": ["vecdot", "multi_dot", "vector_norm", "matrix_norm", "cond", "matrix_rank", "solve",
                         "cholesky", "svdvals", "eigvals", "eigvalsh", "inv", "householder_product",
                         "tensorinv", "tensorsolve", "qr", "cholesky_ex", "svd", "eig", "eigh", "lstsq", "inv_ex"],
}


# the threads with autocast on; the Python-written ops are wrapped while there is one
_autocasting_threads = set()
_originals = {}


def _track_python_ops():
    """Wraps the Python-written ops of torch's lists while some thread has autocast on, and puts the plain
    functions back when none has: a wrapper is one more Python frame, which moves the line a warning with
    a stacklevel names, so a program outside autocast keeps torch's lines."""
    if _C._autocast_is_enabled(0) or _C._autocast_is_enabled(1):
        _autocasting_threads.add(threading.get_ident())
    else:
        _autocasting_threads.discard(threading.get_ident())
    if _autocasting_threads and not _originals:
        _wrap_python_ops()
    elif not _autocasting_threads and _originals:
        for (module, name), func in _originals.items():
            setattr(module, name, func)
        _originals.clear()


def _wrap_python_ops():
    import importlib
    import types

    for module_name, names in _PYTHON_OPS.items():
        module = importlib.import_module(module_name)
        prefix = "linalg_" if module_name == "minitorch.linalg" else ""
        for name in names:
            func = vars(module).get(name)  # not getattr: a missing name must not load the list of torch's names
            # C functions of the op table already pass through the hook
            if isinstance(func, types.FunctionType) and not hasattr(func, "_autocast_policy"):
                _originals[(module, name)] = func
                setattr(module, name, _policy_op(func, prefix + name))
