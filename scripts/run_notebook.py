#!/usr/bin/env python3
"""Runs notebooks headless, top to bottom, and fails on the first cell error.

    python scripts/run_notebook.py notebooks/gpu_basics.ipynb [more.ipynb ...]

Each notebook runs in a fresh python3 kernel started with this interpreter (sys.executable), in the
repository root, so the kernel imports the minitorch of the current environment (the one
`pip install -e .` or an in-place build put there), never one from elsewhere on PATH. Cells tagged
`skip-execution` (the Colab install cell) are skipped; each cell may take 300 s (--timeout). On an
error the failing cell's source and its error are printed and the exit status is 1. A cell whose
output carries matplotlib's missing-glyph warning ("Glyph ... missing from font", or mathtext's
"does not have a glyph for") fails too: its plot shows boxes where letters should be. Outputs are
not written back: the committed notebook stays without outputs (--executed-dir DIR writes the
executed copies there, e.g. to render them with nbconvert).

    python scripts/run_notebook.py --install-cell notebooks/gpu_basics.ipynb

runs the other half instead: only the cells tagged `skip-execution` (the install cell), in the
notebook's own folder as Jupyter would, printing what they print. It installs the project for real
(pip), so it is for a machine set aside for it (scripts/gpu_check.sh runs it on a GPU machine).
"""

import argparse
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_TAG = "skip-execution"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# matplotlib's two wordings: text ("Glyph 54665 (...) missing from font(s) DejaVu Sans.") and mathtext
# ("Font 'default' does not have a glyph for '\u2212' [U+2212], substituting with a dummy symbol.")
MISSING_GLYPH = re.compile(r"Glyph \d+ .*missing from font|does not have a glyph for")

try:
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
except ImportError as exc:  # pragma: no cover - depends on the environment
    sys.stderr.write("run_notebook.py needs nbclient, nbformat and ipykernel "
                     "(pip install nbclient ipykernel nbformat): {}\n".format(exc))
    sys.exit(2)


class ThisPythonKernelManager(KernelManager):
    """The python3 kernel, started with this interpreter whatever kernelspec is installed."""

    @property
    def kernel_spec(self):
        spec = super().kernel_spec
        if spec is not None:
            spec.argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        return spec


def _error_text(exc, cell):
    """The error of a failed cell: ename: evalue and the traceback without terminal colours."""
    outputs = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if outputs:
        error = outputs[-1]
        trace = "\n".join(error.get("traceback", []))
        return ANSI.sub("", trace) or "{}: {}".format(error.get("ename"), error.get("evalue"))
    return ANSI.sub("", "{}: {}".format(type(exc).__name__, exc))


def _missing_glyph_warning(cell):
    """The first missing-glyph warning line a cell printed, or None."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            for line in output.get("text", "").splitlines():
                if MISSING_GLYPH.search(line):
                    return line.strip()
    return None


def _print_streams(cell):
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            sys.stdout.write(output.get("text", ""))


def _report_failure(path, index, cell, exc=None):
    print("{}: cell {} failed".format(path, index if index is not None else "?"))
    print("---- source " + "-" * 60)
    print(cell.get("source", "(unknown)"))
    print("---- error " + "-" * 61)
    print(_error_text(exc, cell))


def install_cells(nb):
    """nb reduced to its cells tagged skip-execution, untagged so that they run."""
    cells = [c for c in nb.cells if SKIP_TAG in c.get("metadata", {}).get("tags", [])]
    for cell in cells:
        cell.metadata["tags"] = [t for t in cell.metadata["tags"] if t != SKIP_TAG]
    nb.cells = cells
    return nb


def run(path, timeout, keep_going=False, executed_dir=None, install=False):
    """Executes one notebook; returns the number of cells run. Raises SystemExit(1) on a cell error
    or a missing-glyph warning (with keep_going, after running every cell and printing each failure).
    With executed_dir, the executed notebook (outputs included) is written there under its name. With
    install, only the install cells run, in the notebook's folder, and their output is printed."""
    nb = nbformat.read(path, as_version=4)
    if install:
        nb = install_cells(nb)
    state = {"index": None, "ran": 0}

    def on_cell_start(cell, cell_index, **_):
        state["index"] = cell_index

    def on_cell_executed(cell, cell_index, **_):
        state["ran"] += 1

    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=ThisPythonKernelManager,
        skip_cells_with_tag=SKIP_TAG,
        allow_errors=keep_going,
        resources={"metadata": {"path": os.path.dirname(path) if install else ROOT}},
        on_cell_start=on_cell_start,
        on_cell_executed=on_cell_executed,
    )
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
        index = state["index"]
        if install and index is not None:  # what the install printed says why it failed
            _print_streams(nb.cells[index])
        _report_failure(path, index, nb.cells[index] if index is not None else {}, exc)
        raise SystemExit(1)
    if install:
        for cell in nb.cells:
            _print_streams(cell)
    failed = [(i, c) for i, c in enumerate(nb.cells)
              if any(o.get("output_type") == "error" for o in c.get("outputs", []))]
    for index, cell in failed:
        _report_failure(path, index, cell)
    for index, cell in enumerate(nb.cells):
        glyph = _missing_glyph_warning(cell)
        if glyph:
            print("{}: cell {} drew text its font has no glyphs for (boxes in the plot): {}".format(
                path, index, glyph))
            failed.append((index, cell))
    if executed_dir:
        os.makedirs(executed_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(executed_dir, os.path.basename(path)))
    if failed:
        print("{} of {} cells failed".format(len(failed), state["ran"]))
        raise SystemExit(1)
    return state["ran"]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Execute notebooks headless; exit 1 on any cell error.")
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (default 300)")
    parser.add_argument("--keep-going", action="store_true",
                        help="run every cell even after an error, then report all failing cells")
    parser.add_argument("--executed-dir", metavar="DIR",
                        help="also write each executed notebook, with its outputs, into DIR")
    parser.add_argument("--install-cell", action="store_true",
                        help="run only the install cell (tagged skip-execution), in the notebook's folder")
    args = parser.parse_args(argv)
    for path in args.notebooks:
        path = os.path.abspath(path)
        start = time.perf_counter()
        try:
            ran = run(path, args.timeout, args.keep_going, args.executed_dir, args.install_cell)
        except SystemExit as exc:
            return exc.code
        print("ran {} cells in {:.1f} s ({})".format(ran, time.perf_counter() - start,
                                                     os.path.relpath(path, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
