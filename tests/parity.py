"""Parity-test harness: run one snippet of torch code under real torch and under minitorch.

A snippet is ordinary torch code (``torch.tensor(...)``, ``print(x)``, ...). :func:`run_snippet`
executes it statement by statement with ``torch`` bound to the module under test and returns what it
printed. A statement that raises adds one line ``!! <ExceptionTypeName>: <str(exc)>`` and execution
goes on with the next top-level statement, so a single snippet can check several errors.

:func:`compare` runs a snippet under both modules and fails with both outputs and a diff when the
(normalized) outputs differ. It skips when real torch is not importable; a failure to import
minitorch is a test failure.

Snippets own their randomness: a snippet that uses random numbers calls ``torch.manual_seed`` first.

Run ``python tests/parity.py FILE_OR_-`` to print a snippet's output under torch (and minitorch if
importable) by hand.
"""

import ast
import builtins
import contextlib
import difflib
import importlib
import io
import re
import sys
import textwrap
import warnings

__all__ = ["run_snippet", "normalize", "compare", "compare_on", "compare_close", "import_torch", "import_minitorch",
           "torch_sqrt_is_mkl_generic", "torch_is_cuda_build", "minitorch_is_cuda_build", "same_build_as_torch",
           "no_nvidia_driver", "NO_DRIVER"]


def _make_import(module):
    """An ``__import__`` that maps ``torch`` and ``torch.x`` onto ``module`` (and its submodules)."""
    real_import = builtins.__import__
    base = module.__name__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            if name == "torch":
                return module
            mapped = base + name[len("torch"):]
            sub = importlib.import_module(mapped)
            # `import torch.nn` binds the top package; `from torch.nn import X` wants the submodule.
            return sub if fromlist else module
        return real_import(name, globals, locals, fromlist, level)

    return _import


def run_snippet(module, code):
    """Execute ``code`` with ``torch`` bound to ``module``; return everything it printed.

    Each top-level statement runs on its own; an exception in one is reported as
    ``!! <ExceptionTypeName>: <message>`` on its own line and the next statement runs.
    ``import torch`` (and ``import torch.x`` / ``from torch.x import y``) inside the snippet resolve
    to ``module``. Warnings are suppressed (they are not part of the compared output).
    """
    code = textwrap.dedent(code)
    tree = ast.parse(code, filename="<snippet>", mode="exec")
    my_builtins = dict(vars(builtins))
    my_builtins["__import__"] = _make_import(module)
    namespace = {"torch": module, "__name__": "__snippet__", "__builtins__": my_builtins}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for stmt in tree.body:
            unit = ast.Module(body=[stmt], type_ignores=[])
            compiled = compile(unit, "<snippet>", "exec")
            try:
                exec(compiled, namespace)
            except Exception as exc:  # noqa: BLE001 -- every exception is part of the output
                text = out.getvalue()
                if text and not text.endswith("\n"):
                    out.write("\n")
                out.write("!! %s: %s\n" % (type(exc).__name__, exc))
    return out.getvalue()


def normalize(text):
    """minitorch may name itself where torch says 'torch' (or 'Torch' at the start of a sentence);
    nothing else is changed."""
    return text.replace("minitorch not compiled", "Torch not compiled").replace("minitorch", "torch")


def import_torch():
    """Real torch, or None when it is not installed."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return None
    return sys.modules["torch"]


def torch_sqrt_is_mkl_generic():
    """Whether torch's float32 sqrt on this machine is the one minitorch reproduces: MKL's generic SSE
    kernel, which MKL runs on an x86 CPU not made by Intel (README, "Known differences")."""
    import platform

    if platform.machine() not in ("x86_64", "AMD64"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            vendors = [line.split(":", 1)[1].strip() for line in f if line.startswith("vendor_id")]
    except OSError:
        return False
    return bool(vendors) and vendors[0] != "GenuineIntel"


def import_minitorch():
    return importlib.import_module("minitorch")


# What a CUDA build (torch's, or minitorch's) says at CUDA's first use on a machine without an NVIDIA driver
NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
             "from http://www.nvidia.com/Download/index.aspx")


def torch_is_cuda_build(torch=None):
    """Whether the installed torch is a CUDA build (e.g. 2.13.0+cu130, which pip serves on some Pythons), GPU or
    not: its CUDA calls without a GPU fail as a CUDA build's ("Found no NVIDIA driver ...", AcceleratorError)
    where its CPU build says "Torch not compiled with CUDA enabled"."""
    torch = torch if torch is not None else import_torch()
    return torch is not None and torch.version.cuda is not None


def minitorch_is_cuda_build():
    """Whether minitorch was built with CUDA (MINITORCH_CUDA=0 builds it without)."""
    return bool(import_minitorch()._C.has_cuda)


def no_nvidia_driver():
    """Whether this machine has no NVIDIA driver (its libcuda cannot be loaded), as on a CPU-only runtime."""
    import ctypes

    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return True
    return False


def same_build_as_torch():
    """Whether torch and minitorch are the same kind of build (both CUDA, or both CPU-only): only then do they
    answer a CUDA call alike on a machine without a GPU. True when torch is not installed."""
    torch = import_torch()
    return torch is None or torch_is_cuda_build(torch) == minitorch_is_cuda_build()


def _format_failure(code, expected, actual):
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile="torch",
            tofile="minitorch",
        )
    )
    bar = "-" * 70
    return (
        "minitorch output differs from torch\n"
        f"{bar}\nsnippet:\n{textwrap.dedent(code).strip()}\n"
        f"{bar}\ntorch output:\n{expected}"
        f"{bar}\nminitorch output:\n{actual}"
        f"{bar}\ndiff (- torch, + minitorch):\n{diff}"
        f"{bar}\n(repr) torch:     {expected!r}\n(repr) minitorch: {actual!r}\n"
    )


def compare(code):
    """Assert that ``code`` prints the same under torch and minitorch (after :func:`normalize`)."""
    import pytest

    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    minitorch = import_minitorch()  # an ImportError here is a real failure
    expected = normalize(run_snippet(torch, code))
    actual = normalize(run_snippet(minitorch, code))
    if expected != actual:
        pytest.fail(_format_failure(code, expected, actual), pytrace=False)


def compare_on(device, code):
    """:func:`compare` for a minitorch device: ``code`` runs under torch with ``DEV = 'cpu'`` and under
    minitorch with ``DEV = device``, and must print the same (a snippet moves what it prints to the CPU)."""
    import pytest

    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    minitorch = import_minitorch()
    code = textwrap.dedent(code)
    expected = normalize(run_snippet(torch, "DEV = 'cpu'\n" + code))
    actual = normalize(run_snippet(minitorch, "DEV = %r\n" % device + code))
    if expected != actual:
        pytest.fail(_format_failure(code, expected, actual), pytrace=False)


_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)")


def _close(expected, actual, rtol, atol):
    """The two outputs are the same text except for numbers, which may differ by atol + rtol * |torch's|."""
    if _NUMBER.sub("#", expected) != _NUMBER.sub("#", actual):
        return False
    for e, a in zip(_NUMBER.findall(expected), _NUMBER.findall(actual)):
        if e == a:
            continue
        e, a = float(e), float(a)
        if not abs(a - e) <= atol + rtol * abs(e):
            return False
    return True


def compare_close(code, rtol=1e-5, atol=1e-6):
    """:func:`compare` for values torch computes with other math libraries (SLEEF, MKL): every number printed
    may differ by atol + rtol * |torch's value|; all other text must be the same."""
    import pytest

    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    minitorch = import_minitorch()
    expected = normalize(run_snippet(torch, code))
    actual = normalize(run_snippet(minitorch, code))
    if not _close(expected, actual, rtol, atol):
        pytest.fail(_format_failure(code, expected, actual), pytrace=False)


if __name__ == "__main__":  # pragma: no cover - manual helper
    src = sys.stdin.read() if len(sys.argv) < 2 or sys.argv[1] == "-" else open(sys.argv[1]).read()
    t = import_torch()
    if t is not None:
        print("=== torch ===")
        print(run_snippet(t, src), end="")
    try:
        m = import_minitorch()
    except Exception as e:  # noqa: BLE001
        print("=== minitorch: import failed: %s: %s" % (type(e).__name__, e))
    else:
        print("=== minitorch ===")
        print(run_snippet(m, src), end="")
