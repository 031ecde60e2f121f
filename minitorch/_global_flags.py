"""The process-wide switches training scripts set first: float32 matmul precision, deterministic algorithms,
warn-always. Each keeps torch's state, its argument checks and its messages; this file owns the state and
must not make any op read it (see README: minitorch's ops are deterministic already and its only
reduced-precision path is CUDA matmul's TF32, read from ``backends.cuda.matmul.allow_tf32``).

Matmul precision follows torch 2.13's two APIs at once: ``set_float32_matmul_precision`` sets the named
level and the per-backend precisions (CUDA matmul: tf32 or ieee, oneDNN matmul: ieee, tf32 or bf16), while
the legacy ``backends.cuda.matmul.allow_tf32`` setter moves the level to "high" or "highest" and the CUDA
precision only. Reading the level when the two disagree raises torch's "mix of the legacy and new APIs"
error.
"""

import warnings

from minitorch import _C

_LEVELS = ("highest", "high", "medium")
# the oneDNN matmul precision each level sets (torch's CUDA one is "tf32" below "highest")
_MKLDNN_FOR_LEVEL = {"highest": "ieee", "high": "tf32", "medium": "bf16"}
_state = {"matmul_level": "highest", "mkldnn_matmul": "none", "deterministic": False, "warn_only": False,
          "warn_always": False}

_MIXED_API_MESSAGE = (
    "PyTorch is checking the matmul precision without a specific backend name,Current status indicate that "
    "you have used mix of the legacy and new APIs to set the matmul precision. We suggest only using the new "
    "API for matmul precision. See also: "
    "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices")


def set_float32_matmul_precision(precision: str) -> None:
    """Sets how float32 matrix products may round: "highest" (full float32), "high" (TF32 allowed on
    CUDA) or "medium" (bfloat16 allowed too). Sets ``backends.cuda.matmul.allow_tf32`` accordingly."""
    if isinstance(precision, bytes):
        precision = precision.decode()  # torch's binding takes bytes as a str
    if not isinstance(precision, str):
        raise RuntimeError("set_float32_matmul_precision expects a str, but got " + type(precision).__name__)
    if precision not in _LEVELS:
        warnings.warn(precision + " is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _state["matmul_level"] = precision
    _state["mkldnn_matmul"] = _MKLDNN_FOR_LEVEL[precision]
    _C._set_cublas_allow_tf32(precision != "highest")


def get_float32_matmul_precision() -> str:
    """The level set_float32_matmul_precision last set ("highest" by default)."""
    level, mkldnn = _state["matmul_level"], _state["mkldnn_matmul"]
    if ((_C._get_cublas_allow_tf32() and level == "highest") or (mkldnn == "bf16" and level != "medium")
            or (mkldnn == "tf32" and level != "high")):
        raise RuntimeError(_MIXED_API_MESSAGE)
    return level


def _legacy_allow_tf32_set(value):
    # backends.cuda.matmul.allow_tf32 = value: torch's legacy setter also moves the level
    _C._set_cublas_allow_tf32(value)
    _state["matmul_level"] = "high" if value else "highest"


def _check_bool(value, message):
    if not isinstance(value, bool):
        raise TypeError(message + type(value).__name__)


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Records whether ops must be deterministic (``warn_only``: warn instead of raising). minitorch's
    ops are deterministic on every device, so no op consults it."""
    _check_bool(mode, "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not ")
    _check_bool(warn_only, "_set_deterministic_algorithms(): argument 'warn_only' must be bool, not ")
    _state["deterministic"], _state["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether use_deterministic_algorithms(True) is in effect."""
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether use_deterministic_algorithms was called with warn_only=True."""
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    """The same switch as a level: "default" or 0 (off), "warn" or 1 (warn only), "error" or 2 (on)."""
    if not isinstance(debug_mode, (int, str)):
        raise TypeError("debug_mode must be str or int, but got " + str(type(debug_mode)))
    if isinstance(debug_mode, str):
        names = ("default", "warn", "error")
        if debug_mode not in names:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               + debug_mode)
        debug_mode = names.index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError("invalid value of debug_mode, expected 0, 1, or 2, but got " + str(int(debug_mode)))
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """0, 1 or 2: the level set_deterministic_debug_mode would set for the current switches."""
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_warn_always(b: bool, /) -> None:
    """Records whether warnings torch gives once per process should be given every time."""
    if not isinstance(b, bool):
        raise RuntimeError("setWarnOnlyOnce expects a bool, but got " + type(b).__name__)
    _state["warn_always"] = b


def is_warn_always_enabled() -> bool:
    """Whether set_warn_always(True) is in effect."""
    return _state["warn_always"]
