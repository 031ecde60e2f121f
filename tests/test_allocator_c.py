"""Builds tests/c/allocator_check.c with the system C compiler and checks what it prints.

This file owns the pytest side of the allocator's C-level check: compiling the program, running it,
and asserting on the numbers and messages a user would see through torch.cuda.memory_allocated(),
memory_reserved() and torch.OutOfMemoryError. It must not import minitorch (the allocator is tested
here below the extension, so a broken build of the rest cannot hide its failures) and skips, with a
reason, when no C compiler is present.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
SOURCES = [
    CSRC / "runtime" / "simulated.c",
    CSRC / "alloc" / "caching_allocator.c",
    ROOT / "tests" / "c" / "allocator_check.c",
]

MiB = 1 << 20
GiB = 1 << 30

OOM_TAIL = (
    " If reserved but unallocated memory is large try setting"
    " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation"
    " for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html"
    "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
)


def format_size(size):
    """torch's format_size, written again here so the C version is checked against it."""
    if size <= 1024:
        return f"{size} bytes"
    if size <= 1048576:
        return f"{size / 1024:.2f} KiB"
    if size <= 1073741824:
        return f"{size / 1048576:.2f} MiB"
    return f"{size / 1073741824:.2f} GiB"


def oom_message(tried, device, total, free, allocated, reserved):
    return (
        f"CUDA out of memory. Tried to allocate {format_size(tried)}. GPU {device} has a total"
        f" capacity of {format_size(total)} of which {format_size(free)} is free. Of the"
        f" allocated memory {format_size(allocated)} is allocated by PyTorch, and"
        f" {format_size(reserved - allocated)} is reserved by PyTorch but unallocated." + OOM_TAIL
    )


def _compiler():
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def check_binary(tmp_path_factory):
    if sys.platform == "win32":
        pytest.skip("allocator_check.c needs POSIX threads and posix_memalign")
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler found (tried $CC, cc, gcc, clang)")
    exe = tmp_path_factory.mktemp("allocator_check") / "allocator_check"
    cmd = [cc, "-std=c99", "-O2", "-pthread", "-I", str(CSRC)]
    cmd += [str(s) for s in SOURCES] + ["-o", str(exe)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, f"compile failed: {' '.join(cmd)}\n{result.stderr}"
    return exe


def _clean_env(**overrides):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_")}
    env.update(overrides)
    return env


@pytest.fixture(scope="module")
def check_output(check_binary):
    result = subprocess.run(
        [str(check_binary)], capture_output=True, text=True, timeout=120, env=_clean_env()
    )
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert result.returncode == 0 and not failures, (
        "allocator_check failed:\n" + "\n".join(failures) + "\n" + result.stderr
    )
    return result.stdout


def _memory(output, name):
    match = re.search(rf"^{re.escape(name)} allocated=(\d+) reserved=(\d+)$", output, re.M)
    assert match, f"no line for {name}"
    return int(match.group(1)), int(match.group(2))


def _message(output, name):
    match = re.search(rf"^{re.escape(name)} message=(.*)$", output, re.M)
    assert match, f"no message for {name}"
    return match.group(1)


def test_all_checks_pass(check_output):
    assert check_output.rstrip().endswith("ALL OK")


@pytest.mark.parametrize(
    "name, allocated, reserved",
    [
        # x = torch.randn(1000, 1000, device='cuda'), 4,000,000 bytes
        ("example_x", 4000256, 20971520),
        ("example_z", 8000512, 20971520),
        ("example_del_x", 4000256, 20971520),
        ("example_empty_cache", 4000256, 20971520),
        ("example_del_z_empty_cache", 0, 0),
        # torch.tensor([[1, 2], [3, 4]], device='cuda'): 32 bytes
        ("int64_2x2", 512, 2097152),
        ("int64_2x2_with_x", 4000768, 23068672),
        ("float32_2x2", 512, 2097152),
        ("exactly_12MiB", 12 * MiB, 12 * MiB),
        # 5 * 2**20 + 1 float32 elements
        ("float32_5MiB_plus_1", 20972032, 23068672),
        # five 4,000,256-byte blocks in one segment: the fifth takes the whole remainder
        ("five_4000256", 20971520, 20971520),
        ("round_1", 512, 2097152),
        ("round_513", 1024, 2097152),
        ("round_1048576", 1048576, 2097152),
        ("round_1048577", 1049088, 20971520),
        ("round_10485760", 10485760, 10485760),
        ("round_10485761", 10486272, 12582912),
        ("large_remainder_1MiB_not_split", 20971520, 20971520),
        ("large_remainder_1MiB_plus_512_split", 19922432, 20971520),
        ("retry_after", 700 * MiB + 1024, 702 * MiB),
        ("no_caching", 0, 0),
        ("random_freed", 0, 0),
    ],
)
def test_worked_examples(check_output, name, allocated, reserved):
    assert _memory(check_output, name) == (allocated, reserved)


def test_oom_message_on_empty_1gib_device(check_output):
    # The brief's example, with torch's format_size: 1 GiB exactly prints as "1024.00 MiB".
    want = oom_message(2 * GiB, 0, GiB, GiB, 0, 0)
    assert _message(check_output, "oom_2GiB") == want
    assert "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 1024.00 MiB" in want


def test_oom_message_reports_allocated_and_reserved(check_output):
    allocated = 1000 * MiB + 2 * 4000256
    reserved = 1000 * MiB + 20 * MiB
    want = oom_message(16 * MiB, 0, GiB, 4 * MiB, allocated, reserved)
    assert _message(check_output, "oom_full") == want


def test_oom_message_shows_segment_size(check_output):
    # A 6,000,000-byte request needs a 20 MiB segment, and that is what torch reports.
    allocated = 1000 * MiB + 20 * MiB
    want = oom_message(20 * MiB, 0, GiB, 4 * MiB, allocated, allocated)
    assert _message(check_output, "oom_20MiB") == want


def test_threads_end_at_zero(check_output):
    match = re.search(r"^threads allocated=(\d+) reserved=(\d+) allocations=(\d+)", check_output,
                      re.M)
    assert match
    assert (int(match.group(1)), int(match.group(2)), int(match.group(3))) == (0, 0, 8 * 3000)


def _config(check_binary, **env):
    result = subprocess.run(
        [str(check_binary), "config"], capture_output=True, text=True, timeout=60,
        env=_clean_env(**env),
    )
    assert result.returncode == 0, result.stderr
    return dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)


@pytest.mark.parametrize(
    "env, requested, count",
    [
        ({}, "0", "0"),
        ({"MINITORCH_SIMULATE_GPU": ""}, "0", "0"),
        ({"MINITORCH_SIMULATE_GPU": "0"}, "0", "0"),
        ({"MINITORCH_SIMULATE_GPU": "1"}, "1", "1"),
        ({"MINITORCH_SIMULATE_GPU": "3"}, "3", "3"),
    ],
)
def test_simulate_gpu_env(check_binary, env, requested, count):
    report = _config(check_binary, **env)
    assert report["requested"] == requested
    assert report["device_count"] == count
    assert report["config_error"] == ""


def test_simulated_memory_default_and_units(check_binary):
    assert _config(check_binary, MINITORCH_SIMULATE_GPU="1")["total_memory"] == str(16 * GiB)
    report = _config(check_binary, MINITORCH_SIMULATE_GPU="1", MINITORCH_SIMULATE_GPU_MEMORY="2GB")
    assert report["total_memory"] == "2000000000"
    report = _config(check_binary, MINITORCH_SIMULATE_GPU="1",
                     MINITORCH_SIMULATE_GPU_MEMORY="512mib")
    assert report["total_memory"] == str(512 * MiB)


@pytest.mark.parametrize(
    "env, needle",
    [
        ({"MINITORCH_SIMULATE_GPU": "abc"}, "MINITORCH_SIMULATE_GPU='abc' is not a device count"),
        (
            {"MINITORCH_SIMULATE_GPU": "1", "MINITORCH_SIMULATE_GPU_MEMORY": "lots"},
            "MINITORCH_SIMULATE_GPU_MEMORY='lots' is not a memory size",
        ),
        (
            {"MINITORCH_SIMULATE_GPU": "1", "MINITORCH_SIMULATE_GPU_MEMORY": "12 GiB extra"},
            "is not a memory size",
        ),
    ],
)
def test_malformed_settings_are_reported_not_crashes(check_binary, env, needle):
    report = _config(check_binary, **env)
    assert report["requested"] == "-1"
    assert needle in report["config_error"]
    assert report["device_count"] == "0"
    assert report["error_string"] == report["config_error"]


def test_bad_memory_setting_ignored_when_not_simulating(check_binary):
    report = _config(check_binary, MINITORCH_SIMULATE_GPU_MEMORY="lots")
    assert report["requested"] == "0"
    assert report["config_error"] == ""
