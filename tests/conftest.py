"""Shared pytest setup: makes tests/ importable (for parity.py) and provides the `device` fixture that
runs a test on "cpu" and, when a CUDA device is present (real or simulated), on "cuda"."""

import os
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
