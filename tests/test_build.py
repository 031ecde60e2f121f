"""setup.py's decisions, checked without a GPU: which architectures a CUDA build compiles for (the
variable, else the build machine's GPU, else the default list), and that a second build in the same
checkout with another configuration gets its own extension (setuptools' build/ folder must never hand
back the first build's objects).

The two-configuration test builds a copy of the checkout twice or three times (about a minute on two
cores); it runs once in CI, in the plain step, like the emulated-CUDA build.
"""

import ast
import re
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_setup():
    """setup.py as a module: its functions without running setup() (it runs only as __main__)."""
    spec = importlib.util.spec_from_file_location("minitorch_setup", os.path.join(ROOT, "setup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


setup_py = load_setup()
KNOWN = {"75", "80", "86", "89", "90", "100", "120"}


def gpus(*caps):
    return lambda: list(caps)


# ---- which architectures ------------------------------------------------------------------------------

def test_no_gpu_and_no_variable_gives_the_default_list():
    archs, ptx, rule = setup_py.cuda_archs(KNOWN, "", gpus())
    assert archs == ["75", "80", "86", "89", "90", "120"] and ptx == "120"
    assert rule.startswith("the default list")


def test_default_list_keeps_only_what_nvcc_knows():
    archs, ptx, _ = setup_py.cuda_archs({"75", "80", "86", "89", "90"}, "", gpus())
    assert archs == ["75", "80", "86", "89", "90"] and ptx == "90"


def test_a_gpu_on_the_build_machine_gives_its_architecture_only():
    archs, ptx, rule = setup_py.cuda_archs(KNOWN, "", gpus("75"))
    assert (archs, ptx) == (["75"], "75")
    assert "the GPU of this machine" in rule and "7.5" in rule


def test_several_gpus_give_each_architecture():
    archs, ptx, _ = setup_py.cuda_archs(KNOWN, "", gpus("80", "90"))
    assert (archs, ptx) == (["80", "90"], "90")


def test_the_variable_wins_over_the_gpu():
    archs, ptx, rule = setup_py.cuda_archs(KNOWN, "sm_90; 75", gpus("80"))
    assert (archs, ptx) == (["75", "90"], "90")
    assert rule == "MINITORCH_CUDA_ARCH=sm_90; 75"


def test_current_asks_the_driver_and_needs_a_gpu():
    archs, ptx, rule = setup_py.cuda_archs(KNOWN, "current", gpus("89"))
    assert (archs, ptx) == (["89"], "89") and rule.startswith("MINITORCH_CUDA_ARCH=current")
    with pytest.raises(SystemExit, match="nvidia-smi found no GPU"):
        setup_py.cuda_archs(KNOWN, "current", gpus())


def test_a_gpu_newer_than_nvcc_runs_the_newest_older_ptx():
    archs, ptx, rule = setup_py.cuda_archs({"75", "80", "90"}, "", gpus("120"))
    assert (archs, ptx) == ([], "90")
    assert "runs the PTX" in rule


def test_a_malformed_variable_is_refused():
    with pytest.raises(SystemExit, match="MINITORCH_CUDA_ARCH"):
        setup_py.cuda_archs(KNOWN, "hopper", gpus())


def test_gpu_compute_capabilities_reads_nvidia_smi(tmp_path, monkeypatch):
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\nprintf '9.0\\n7.5\\n9.0\\n'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    assert setup_py.gpu_compute_capabilities() == ["75", "90"]
    fake.write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed because it could not communicate with the driver'\nexit 9\n")
    assert setup_py.gpu_compute_capabilities() == []
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert setup_py.gpu_compute_capabilities() == []


# ---- two configurations in one checkout ---------------------------------------------------------------

def copy_checkout(dest):
    """The files git tracks (and untracked ones it does not ignore), as a fresh clone would have them."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot copy it as a clone")
    for rel in filter(None, listed.stdout.split("\0")):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))


def build_and_ask(checkout, **env):
    """Builds the checkout in place with env's settings; returns the new extension's _build_info and the
    lines the build printed."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_")}
    full.update(env)
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=checkout, env=full,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    info = subprocess.run([sys.executable, "-c", "from minitorch import _C; print(repr(_C._build_info))"],
                          cwd=checkout, env=full, capture_output=True, text=True, timeout=120)
    assert info.returncode == 0, info.stderr
    return ast.literal_eval(info.stdout), [line for line in done.stdout.splitlines() if line.startswith("minitorch build:")]


@pytest.mark.skipif(bool(os.environ.get("MINITORCH_SANITIZED") or os.environ.get("MINITORCH_SIMULATE_GPU")),
                    reason="builds are checked once, in the plain run")
def test_each_configuration_gets_its_own_extension(tmp_path):
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools is not installed in this environment")
    checkout = tmp_path / "checkout"
    copy_checkout(str(checkout))
    first, lines = build_and_ask(checkout, MINITORCH_CUDA="0")
    assert first["cuda"] is False and first["archs"] == []
    stages = [line.split("]")[0] + "]" for line in lines if "[" in line]
    assert stages == ["minitorch build: [configure]", "minitorch build: [C sources]", "minitorch build: [link]"]
    assert lines[-1].startswith("minitorch build: done in ")

    nvcc = setup_py.find_nvcc()
    if nvcc is not None:
        second, lines = build_and_ask(checkout, MINITORCH_CUDA="1", MINITORCH_CUDA_ARCH="75")
        assert second["cuda"] is True and second["archs"] == ["75"] and second["ptx"] == "75"
        assert second["arch_rule"] == "MINITORCH_CUDA_ARCH=75"
        # every .cu file is named on the line ("gather.cu, kernels.cu, lines.cu compiled by nvcc ...")
        assert any(line.startswith("minitorch build: [CUDA sources] ") and "kernels.cu" in line and " compiled" in line
                   for line in lines)
    else:
        # no nvcc here: a debug build is the other configuration
        second, lines = build_and_ask(checkout, MINITORCH_CUDA="0", MINITORCH_DEBUG="1")
        assert second["cuda"] is False
    assert second["built_at"] >= first["built_at"]
    assert not any(" 0 compiled" in line for line in lines if "[C sources]" in line)

    # back to the first configuration: its objects are reused, and the extension is CPU-only again
    third, lines = build_and_ask(checkout, MINITORCH_CUDA="0")
    assert third["cuda"] is False and third["archs"] == []
    (c_line,) = [line for line in lines if "[C sources]" in line]
    assert ": 1 compiled," in c_line, c_line  # only the build facts (build_info.c) compile again


def test_every_rule_the_build_records_reads_in_korean():
    """python -m minitorch --lang ko prints the build's rule sentence: each one setup.py can write is
    translated, with no English words left but the variable's name and the tools'."""
    from minitorch import __main__ as report

    rules = [setup_py.cuda_archs(KNOWN, "", gpus())[2], setup_py.cuda_archs(KNOWN, "", gpus("90"))[2],
             setup_py.cuda_archs({"75", "90"}, "", gpus("120"))[2],
             setup_py.cuda_archs(KNOWN, "current", gpus("86"))[2], setup_py.cuda_archs(KNOWN, "75;90", gpus())[2]]
    saved = report._state["lang"]
    try:
        report._state["lang"] = "ko"
        for rule in rules:
            words = set(re.findall(r"[a-z]{3,}", report._rule_text(rule)))
            assert words <= {"nvidia", "smi", "nvcc", "current"}, (rule, report._rule_text(rule))
        report._state["lang"] = "en"
        assert report._rule_text(rules[0]) == rules[0]
    finally:
        report._state["lang"] = saved
