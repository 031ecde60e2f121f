"""Tensor repr/str, character for character as torch 2.13's torch/_tensor_str.py prints it.

This module owns the print options (set_printoptions, get_printoptions, printoptions) and `_str`,
which Tensor.__repr__ and __str__ call. It works only through the Tensor's public surface (shape,
dim, numel, dtype, device, requires_grad, integer and slice indexing, tolist), so it must not
import numpy, torch or the C extension at import time, and it must never copy a whole tensor to
Python when torch would summarize it: the summarized corners are gathered with slicing and only
they are converted with tolist(), so printing a 10**7-element tensor stays fast (CUDA tensors copy
only those corners to the host). Sparse, quantized, complex and nested layouts are out of scope.
"""

import contextlib
import math
import sys

__all__ = ["set_printoptions", "get_printoptions", "printoptions"]


class _PrinterOptions:
    # A plain class instead of torch's dataclass: importing dataclasses costs more than this
    # module is allowed to (import minitorch must stay fast).
    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self):
        self.precision = 4
        self.threshold = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode = None

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"_PrinterOptions({fields})"


PRINT_OPTS = _PrinterOptions()


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set options for printing tensors, as torch.set_printoptions does.

    profile is one of "default", "short", "full" and is applied first; the other arguments
    override it. As in torch, sci_mode is always assigned, so leaving it out resets it to None
    (automatic choice).
    """
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80
        elif profile == "short":
            PRINT_OPTS.precision = 2
            PRINT_OPTS.threshold = 1000
            PRINT_OPTS.edgeitems = 2
            PRINT_OPTS.linewidth = 80
        elif profile == "full":
            PRINT_OPTS.precision = 4
            PRINT_OPTS.threshold = math.inf
            PRINT_OPTS.edgeitems = 3
            PRINT_OPTS.linewidth = 80

    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options, as a dict that can be passed back to set_printoptions()."""
    return {name: getattr(PRINT_OPTS, name) for name in _PrinterOptions.__slots__}


@contextlib.contextmanager
def printoptions(**kwargs):
    """Context manager that changes the print options for its body only."""
    old_options = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old_options)


# Marks an elided run of elements/rows in the nested lists built from the summarized corners.
_ELLIPSIS = object()


class _Formatter:
    """Chooses one layout for every element of a tensor (torch's _Formatter).

    Floats are judged on their nonzero finite values only: all integral -> "int mode" ('{:.0f}'
    plus a '.'); otherwise fixed '{:.4f}'; scientific '{:.4e}' when max/min > 1000, max > 1e8 or
    min < 1e-4 (in float64, as torch casts to double first). The width is the widest of those
    values; zeros, nan and inf do not count towards it, exactly as in torch, so they can come out
    wider than their neighbours.
    """

    def __init__(self, is_floating_point, values):
        self.floating_dtype = is_floating_point
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        if not self.floating_dtype:
            for value in values:
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = [v for v in values if v != 0 and math.isfinite(v)]
        if not nonzero_finite:
            return

        magnitudes = [abs(v) for v in nonzero_finite]
        smallest = min(magnitudes)
        largest = max(magnitudes)

        for value in nonzero_finite:
            if value != math.ceil(value):
                self.int_mode = False
                break

        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        precision = PRINT_OPTS.precision
        if self.sci_mode:
            widths = (len(f"{v:.{precision}e}") for v in nonzero_finite)
        elif self.int_mode:
            # The +1 is the '.' that marks an integral value as floating point.
            widths = (len(f"{v:.0f}") + 1 for v in nonzero_finite)
        else:
            widths = (len(f"{v:.{precision}f}") for v in nonzero_finite)
        self.max_width = max(self.max_width, max(widths))

    def width(self):
        return self.max_width

    def format(self, value):
        if self.floating_dtype:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            text = f"{value}"
        return (self.max_width - len(text)) * " " + text


def _gather_corners(tensor, shape, summarize, edgeitems):
    """The elements torch would show, as nested Python lists with _ELLIPSIS where it elides.

    Along each dim longer than 2*edgeitems only the first and last edgeitems entries are kept
    (when summarizing). A sub-block in which no dim is that long is converted with one tolist()
    call, so the number of C calls grows with the printed corners, not with numel.
    """
    ndim = len(shape)
    limit = 2 * edgeitems
    # untrimmed[d]: no dim from d inwards gets elided, so the sub-block is printed whole.
    untrimmed = [True] * (ndim + 1)
    for depth in range(ndim - 1, -1, -1):
        untrimmed[depth] = untrimmed[depth + 1] and not (summarize and shape[depth] > limit)

    def gather(sub, depth):
        if untrimmed[depth]:
            return sub.tolist()
        size = shape[depth]
        if depth == ndim - 1:
            # A trimmed vector: two slices, never the whole row.
            return sub[:edgeitems].tolist() + [_ELLIPSIS] + sub[-edgeitems:].tolist()
        if size > limit:
            head = [gather(sub[i], depth + 1) for i in range(edgeitems)]
            tail = [gather(sub[i], depth + 1) for i in range(size - edgeitems, size)]
            return head + [_ELLIPSIS] + tail
        return [gather(sub[i], depth + 1) for i in range(size)]

    return gather(tensor, 0)


def _flatten(nested, ndim, out):
    """Append the values of a nested list of depth ndim to out, skipping _ELLIPSIS markers."""
    if ndim == 1:
        out.extend(v for v in nested if v is not _ELLIPSIS)
        return out
    for child in nested:
        if child is not _ELLIPSIS:
            _flatten(child, ndim - 1, out)
    return out


def _vector_str(values, indent, formatter):
    # element_length counts the ", " that follows each element.
    element_length = formatter.width() + 2
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    data = [" ..." if v is _ELLIPSIS else formatter.format(v) for v in values]
    lines = [
        ", ".join(data[i : i + elements_per_line])
        for i in range(0, len(data), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(nested, ndim, indent, formatter):
    if ndim == 1:
        return _vector_str(nested, indent, formatter)
    # dim-1 newlines: one blank line between 2-D slices of a 3-D tensor, two for 4-D, ...
    separator = "," + "\n" * (ndim - 1) + " " * (indent + 1)
    slices = [
        "..." if child is _ELLIPSIS else _nested_str(child, ndim - 1, indent + 1, formatter)
        for child in nested
    ]
    return "[" + separator.join(slices) + "]"


def _tensor_str(tensor, indent):
    """The bracketed body of a non-empty tensor, e.g. '[1, 2]' or '3.1416' for 0-d."""
    is_floating_point = bool(tensor.dtype.is_floating_point)
    if tensor.dim() == 0:
        value = tensor.tolist()
        return _Formatter(is_floating_point, [value]).format(value)

    summarize = tensor.numel() > PRINT_OPTS.threshold
    edgeitems = PRINT_OPTS.edgeitems
    if summarize and not edgeitems:
        # torch shows a lone '...' at the outermost level and nothing else.
        return "[...]"

    shape = tuple(int(s) for s in tensor.shape)
    nested = _gather_corners(tensor, shape, summarize, edgeitems)
    formatter = _Formatter(is_floating_point, _flatten(nested, len(shape), []))
    return _nested_str(nested, len(shape), indent, formatter)


def _add_suffixes(tensor_str, suffixes, indent, force_newline):
    tensor_strs = [tensor_str]
    # torch's count is two more than the true length of the last line; kept for identical wrapping.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        # measured as torch's text ("torch.float64"), so lines break where torch breaks them
        suffix_len = len(suffix.replace("minitorch.", "torch."))
        if force_newline or last_line_len + suffix_len + 2 > PRINT_OPTS.linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def _dtype_name(dtype):
    # 'minitorch.float32' or 'torch.float32' -> 'float32'
    return repr(dtype).rpartition(".")[2]


def _default_dtype_name():
    # Follows minitorch.get_default_dtype() if the package has one; torch's default otherwise.
    package = sys.modules.get("minitorch")
    get_default_dtype = getattr(package, "get_default_dtype", None)
    if get_default_dtype is None:
        return "float32"
    try:
        return _dtype_name(get_default_dtype())
    except Exception:
        return "float32"


def _current_cuda_device():
    # Imported here, and only for CUDA tensors, so that printing CPU tensors (and importing this
    # module) never touches the CUDA layer.
    try:
        import minitorch.cuda

        return minitorch.cuda.current_device()
    except Exception:
        return 0


def _prefix(tensor):
    # torch prints 'tensor(' for Tensor and Parameter, and the class name for other subclasses.
    # Judged by the class hierarchy rather than identity so this file needs no import of the C type.
    cls = type(tensor)
    if cls.__name__ in ("Tensor", "Parameter"):
        return "tensor("
    if any(base.__name__ == "Tensor" for base in cls.__mro__[1:]):
        return cls.__name__ + "("
    return "tensor("


def _grad_fn_name(tensor):
    try:
        grad_fn = getattr(tensor, "grad_fn", None)
    except RuntimeError:
        return "Invalid"
    if grad_fn is None:
        return None
    name = type(grad_fn).__name__
    if name == "CppFunction":
        name = grad_fn.name().rsplit("::", 1)[-1]
    return name


def _str(self, *, tensor_contents=None):
    """repr(tensor): 'tensor(<values>' followed by the device, size, dtype and grad suffixes."""
    prefix = _prefix(self)
    indent = len(prefix)
    suffixes = []

    # Like torch with its default device left at cpu: any non-cpu tensor shows its device, and a
    # CUDA tensor also would if the default device were CUDA but a different index.
    device = self.device
    default_device_type = "cpu"
    if device.type != default_device_type or (
        device.type == "cuda" and _current_cuda_device() != device.index
    ):
        suffixes.append("device='" + str(device) + "'")

    dtype = self.dtype
    dtype_name = _dtype_name(dtype)
    default_dtype_name = _default_dtype_name()
    default_complex_name = "complex128" if default_dtype_name == "float64" else "complex64"
    has_default_dtype = dtype_name in (default_dtype_name, default_complex_name, "int64", "bool")

    if device.type == "meta":
        # No data to show: the shape always, and the dtype unless it is the default float dtype.
        suffixes.append("size=" + str(tuple(int(s) for s in self.shape)))
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=" + repr(dtype))
        tensor_str = "..."
    elif self.numel() == 0:
        # Explicit shape unless it is (0,), as NumPy does.
        if self.dim() != 1:
            suffixes.append("size=" + str(tuple(int(s) for s in self.shape)))
        # With no elements the dtype cannot be guessed from them, so even int64 and bool show it.
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=" + repr(dtype))
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(int(s) for s in self.shape)))
        if not has_default_dtype:
            suffixes.append("dtype=" + repr(dtype))
        if tensor_contents is None:
            tensor_str = _tensor_str(self, indent)
    if tensor_contents is not None:
        tensor_str = tensor_contents

    grad_fn_name = _grad_fn_name(self)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif self.requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)
