"""Shared pytest setup: makes tests/ importable (for parity.py) and provides the `device` fixture that
runs a test on "cpu" and, when a CUDA device is present (real or simulated), on "cuda"."""

import collections
import gc
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minitorch  # noqa: E402


def _cuda_present():
    return minitorch.cuda.is_available()


def _require_gpu():
    return os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0")


def pytest_report_header(config):
    info = minitorch._C._cuda_runtimeInfo()
    return "minitorch: cuda build={} runtime={} devices={} simulated={}".format(
        minitorch._C.has_cuda, info["runtime"], minitorch.cuda.device_count(), info["simulated"])


@pytest.fixture(params=["cpu", "cuda"])
def device(request):
    """Each op test runs on the CPU and on a CUDA device when there is one."""
    if request.param == "cuda" and not _cuda_present():
        if _require_gpu():
            pytest.fail("MINITORCH_REQUIRE_GPU=1 but no CUDA device is available")
        pytest.skip("no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")
    return request.param


def pytest_collection_modifyitems(config, items):
    if _require_gpu() and minitorch._C._cuda_isSimulated():
        raise pytest.UsageError("MINITORCH_REQUIRE_GPU=1 asks for a real GPU, but MINITORCH_SIMULATE_GPU is set")


# ---- one short summary of what was skipped, instead of pages of "s" ------------------------------------

# (pattern of a skip reason, the group it is counted in): most skips have one of a few causes, each with
# one thing to do about it
SKIP_GROUPS = [
    (re.compile(r"torch.*(not installed|not importable)|No module named 'torch'"),
     "parity tests: torch is not installed (pip install torch==2.13.0 to run them)"),
    (re.compile(r"two CUDA devices"),
     "two-GPU tests: MINITORCH_SIMULATE_GPU=2 pytest -m multi_gpu runs them"),
    (re.compile(r"no CUDA device"),
     "GPU tests: no CUDA device here (MINITORCH_SIMULATE_GPU=1 pytest runs them on the simulated GPU)"),
    (re.compile(r"CPU-only build"), "checks of a CPU-only build (MINITORCH_CUDA=0; CI builds one)"),
    (re.compile(r"nbclient"), "notebook tests: nbclient, ipykernel or nbformat is not installed "
                              "(pip install -e '.[notebook]')"),
    (re.compile(r"needs a real (CUDA )?GPU"),
     "real-GPU tests: they need an NVIDIA GPU (scripts/gpu_check.sh runs them there)"),
]


def pytest_collection_finish(session):
    # What exists once the tests are collected (torch and NumPy when present, every test module's objects)
    # lives to the end of the run: moved out of the collector's reach, so that the tests' gc.collect()
    # calls (the leak and ownership checks) look only at what the tests themselves create.
    gc.freeze()


def _skip_group(reason):
    reason = reason.strip().split("\n", 1)[0]  # a long reason (a whole diff) is summed up by its first line
    for pattern, group in SKIP_GROUPS:
        if pattern.search(reason):
            return group
    return reason


def pytest_report_teststatus(report, config):
    # a skipped test prints no "s": the summary at the end says how many were skipped and why
    if report.skipped and not hasattr(report, "wasxfail") and config.get_verbosity() <= 0:
        return "skipped", "", "SKIPPED"
    return None


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    groups = collections.Counter()
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        groups[_skip_group(reason.replace("Skipped: ", "", 1))] += 1
    if not groups:
        return
    terminalreporter.write_sep("-", "skipped: {:,} tests (pytest -rs lists each)".format(sum(groups.values())))
    for group, count in groups.most_common():
        terminalreporter.write_line("{:>7,}  {}".format(count, group))
