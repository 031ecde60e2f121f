"""Writes minitorch/_torch_api.py: the public names of torch's API, for the messages about missing names.

    pip install torch==2.13.0
    python scripts/torch_api_names.py              # rewrites minitorch/_torch_api.py
    python scripts/torch_api_names.py --check      # exit status 1 if the file differs from this torch

When a name minitorch lacks is looked up (``minitorch.linspace``, ``x.half``, ``import
minitorch.optim``), minitorch/_missing.py reads the generated file to tell whether PyTorch has that
name, and if so says that minitorch does not have it yet. The file holds torch's full lists, not torch
minus minitorch: lookups reach it only after they failed, so a name minitorch gains never needs the
file regenerated.

What counts as public: a name that does not start with "_" in ``dir()`` of each mirrored namespace
(NAMESPACES below), less the standard-library and typing helpers a torch module happens to import
(``torch.os``, ``torch.nn.functional.Optional``) and its own submodules (they are attributes only once
imported, so the list would depend on what ran before); and every package or .py file under torch/ whose
dotted path has no component starting with "_" (``optim``, ``utils.data``, ``nn.utils.rnn``), which is
what ``import torch.<path>`` can load. The file is found on disk, not by importing every submodule,
so that optional dependencies of some of them do not change the list.
"""

import argparse
import importlib
import os
import sys
import textwrap
import types

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(os.path.dirname(HERE), "minitorch", "_torch_api.py")
EXPECTED_TORCH = "2.13.0"

# Module namespaces that minitorch mirrors (minitorch.<rest> for torch.<rest>), then the classes whose
# instances minitorch has (a Tensor, an nn.Module).
NAMESPACES = (
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.cuda",
    "torch.autograd",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils",
    "torch.backends",
    "torch.backends.cuda",
    "torch.distributions",
)
CLASSES = ("torch.Tensor", "torch.nn.Module")

WIDTH = 100


def _is_torch_name(module_name):
    return module_name == "torch" or module_name.startswith("torch.")


def public_names(obj):
    """The public names of a module or class, without the helpers its module imported."""
    names = set()
    for name in dir(obj):
        if name.startswith("_") or name == "TYPE_CHECKING":  # typing's flag, imported by some modules
            continue
        value = getattr(obj, name, None)
        if value is obj:
            continue  # torch.torch: the package itself
        if isinstance(value, types.ModuleType):
            # not torch.os, torch.nn.functional.math; and not obj's own submodules, which are attributes
            # only once something imported them (SUBMODULES lists them whatever was imported)
            own = isinstance(obj, types.ModuleType) and value.__name__ == obj.__name__ + "." + name
            keep = _is_torch_name(value.__name__) and not own
        else:
            # not `from typing import Optional`, `from collections.abc import Callable`, `DType = int`
            owner = getattr(value, "__module__", None)
            keep = not isinstance(obj, types.ModuleType) or not isinstance(owner, str) or _is_torch_name(owner)
        if not keep:
            continue
        names.add(name)
    return names


def submodules(torch):
    """Every importable public torch submodule, as a dotted path below torch ('utils.data')."""
    root = os.path.dirname(torch.__file__)
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        public = all(p.isidentifier() and not p.startswith("_") for p in parts)
        if not public or (parts and "__init__.py" not in filenames):
            dirnames[:] = []  # private, data or namespace-less folders: nothing below is importable
            continue
        dirnames.sort()
        if parts:
            found.add(".".join(parts))
        for filename in filenames:
            stem, ext = os.path.splitext(filename)
            if ext == ".py" and stem != "__init__" and stem.isidentifier() and not stem.startswith("_"):
                found.add(".".join(parts + [stem]))
    return found


def _wrapped(names):
    """Names as the lines of a triple-quoted string, wrapped at WIDTH."""
    return textwrap.fill(" ".join(sorted(names)), WIDTH, break_on_hyphens=False, break_long_words=False)


def render(torch):
    """The text of minitorch/_torch_api.py for the imported torch."""
    # Import every namespace before listing any: importing one can add attributes to its parent.
    objects = {name: importlib.import_module(name) for name in NAMESPACES}
    for name in CLASSES:
        module_name, _, attr = name.rpartition(".")
        objects[name] = getattr(importlib.import_module(module_name), attr)
    tables = {name: public_names(obj) for name, obj in objects.items()}
    out = [
        "# Generated by scripts/torch_api_names.py from torch {} (python scripts/torch_api_names.py);".format(
            torch.__version__.split("+")[0]),
        "# do not edit. Data only: the public names of torch's API, read by minitorch/_missing.py when a",
        "# lookup of a name minitorch lacks has already failed, never at `import minitorch`.",
        "",
        'TORCH_VERSION = "{}"'.format(torch.__version__.split("+")[0]),
        "",
        "# For each namespace: its public attributes (methods and properties for the classes).",
        "NAMES = {",
    ]
    for name, names in tables.items():
        out.append('    "{}": frozenset("""'.format(name))
        out.append(_wrapped(names))
        out.append('""".split()),')
    out.append("}")
    out.append("")
    out.append("# Every public torch submodule, as its path below torch (import torch.<path>).")
    out.append('SUBMODULES = frozenset("""')
    out.append(_wrapped(submodules(torch)))
    out.append('""".split())')
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the checked-in file; write nothing")
    args = parser.parse_args()
    import torch

    version = torch.__version__.split("+")[0]
    if version != EXPECTED_TORCH:
        print("warning: torch {} is installed; the checked-in list comes from torch {}".format(
            version, EXPECTED_TORCH), file=sys.stderr)
    text = render(torch)
    if args.check:
        with open(OUTPUT, encoding="utf-8") as f:
            same = f.read() == text
        print("{} {} torch {}".format(OUTPUT, "matches" if same else "differs from", version))
        return 0 if same else 1
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote {} from torch {}".format(OUTPUT, version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
