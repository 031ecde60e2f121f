"""`python -m minitorch` (the environment report and walkthrough) and the tutorial notebook.

The report must never crash: on the CPU, under the simulated GPU and with a malformed
MINITORCH_SIMULATE_GPU. The notebook must carry the tutorial's code (every seed code block, with
`import minitorch as torch`), be what scripts/make_notebook.py writes, guard every GPU call, and run
top to bottom headless; that last check needs nbclient and ipykernel (CI installs them) and runs in
whatever device setting the suite runs in (CI runs the suite on the CPU and on the simulated GPU).
"""

import ast
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys

import pytest

from subproc import run_python

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, "notebooks", "gpu_basics.ipynb")
SEED = os.path.join(ROOT, "..", "shared", "seed", "000_95e1f1e835871e14.txt")
COLAB_URL = "https://colab.research.google.com/github/minitorch/minitorch/blob/main/notebooks/gpu_basics.ipynb"


def _run_main(*args, simulate=None):
    proc = run_python(["-m", "minitorch", *args], simulate_gpu=simulate, cwd=ROOT, timeout=120)
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    return proc.returncode, proc.stdout


# ---- python -m minitorch ------------------------------------------------------------------------------

REPORT_LABELS = ["minitorch environment report", "minitorch ", "build ", "CUDA runtime ", "NVIDIA driver ",
                 "cuBLAS ", "cuDNN ", "device runtime ", "GPUs ", "CPU ", "RAM ", "Python "]


@pytest.mark.parametrize("simulate", [None, "1"], ids=["plain", "simulated"])
def test_env_report_only(simulate):
    rc, out = _run_main("env", simulate=simulate)
    assert rc == 0, out
    for label in REPORT_LABELS:
        assert any(line.startswith(label) for line in out.splitlines()), (label, out)
    assert "Python           {}".format(platform.python_version()) in out
    assert "walkthrough" not in out
    import minitorch

    if not minitorch._C.has_cuda:
        assert "CUDA build: no" in out
        assert "CUDA runtime     not available in this build" in out
    else:
        assert "CUDA build: yes" in out


def test_env_report_simulated_gpu():
    rc, out = _run_main("env", simulate="1")
    assert rc == 0, out
    assert "device runtime   simulated" in out
    assert "NOTE: the GPU is SIMULATED (MINITORCH_SIMULATE_GPU)" in out
    assert "GPUs             1" in out
    assert "  GPU 0          minitorch simulated GPU, compute capability 9.0" in out
    assert "16.00 GiB total" in out


def test_env_report_two_simulated_gpus():
    rc, out = _run_main("env", simulate="2")
    assert rc == 0, out
    assert "GPUs             2" in out
    assert "  GPU 1          minitorch simulated GPU" in out


def test_env_report_malformed_simulation_setting_does_not_crash():
    rc, out = _run_main("env", simulate="lots")
    assert rc == 0, out
    assert "MINITORCH_SIMULATE_GPU is malformed" in out
    assert "GPUs             none (RuntimeError: " in out


@pytest.mark.parametrize("simulate", [None, "1"], ids=["plain", "simulated"])
def test_report_and_walkthrough(simulate):
    rc, out = _run_main(simulate=simulate)
    assert "minitorch environment report" in out
    assert ">>> x = torch.randn(256, 256)" in out
    assert "x.device = cpu, x.shape = (256, 256)" in out
    assert ">>> y = torch.matmul(x, x)" in out
    assert "step failed" not in out, out
    assert rc == 0, out
    gpu = "GPUs             none" not in out
    if gpu:
        assert ">>> x = x.cuda()" in out
        assert "x.device = cuda:0" in out
        assert "y.device = cuda:0" in out
        # 256x256 float32 = 262,144 B: a small-pool block in a 2 MiB segment
        assert "memory_allocated=262,144 B, memory_reserved=2,097,152 B" in out
        if simulate:
            # no cuBLAS workspace on the simulated GPU (a real one may keep it after the matmul)
            assert "memory_allocated=0 B, memory_reserved=0 B" in out.split(">>> del x, y")[1]
    else:
        assert "no CUDA device here: the walkthrough stays on the CPU" in out
        assert "y.device = cpu" in out


def test_main_usage_errors():
    proc = run_python(["-m", "minitorch", "nonsense"], cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    assert "usage: python -m minitorch [env]" in proc.stderr
    rc, out = _run_main("--help")
    assert rc == 0 and out.startswith("usage: python -m minitorch [env]")


def test_report_imports_no_numpy():
    code = ("import sys\nfrom minitorch.__main__ import report\nreport()\n"
            "assert 'numpy' not in sys.modules, 'the report imported numpy'\n")
    proc = run_python(code, simulate_gpu=1, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---- the notebook's structure -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def notebook():
    with open(NOTEBOOK, encoding="utf-8") as f:
        return json.load(f)


def _source(cell):
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def _code_cells(notebook):
    return [_source(c) for c in notebook["cells"] if c["cell_type"] == "code"]


def test_notebook_is_what_the_generator_writes():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_notebook.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_notebook_has_no_outputs(notebook):
    assert notebook["nbformat"] == 4
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


def test_first_cell_has_title_badge_and_gpu_runtime_reminder(notebook):
    first = notebook["cells"][0]
    assert first["cell_type"] == "markdown"
    text = _source(first)
    assert text.startswith("# ")
    badge = "[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]({})".format(COLAB_URL)
    assert badge in text
    assert "[런타임] → [런타임 유형 변경]" in text and "GPU" in text


def test_install_cell_is_first_code_cell_and_skipped_headless(notebook):
    first_code = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    assert "skip-execution" in first_code["metadata"].get("tags", [])
    text = _source(first_code)
    assert "!pip install -q git+https://github.com/minitorch/minitorch" in text
    assert "pip install -q -e .." in text
    assert "!python --version" in text
    assert "nvcc --version" in text and "nvidia-smi" in text
    others = [c for c in notebook["cells"] if c is not first_code]
    assert not any("skip-execution" in c["metadata"].get("tags", []) for c in others)


# Distinctive lines of every code block of the tutorial (shared/seed), as the notebook carries them
# (`import torch` becomes `import minitorch as torch`; the GPUtil block stays a markdown sample).
SEED_CODE_LINES = [
    # 2.1
    "print(torch.cuda.is_available())  # True면 GPU 사용 가능",
    "# PyTorch, TensorFlow 등 주류 딥러닝 프레임워크는 초기부터 산업 표준이 되어버린 NVIDIA CUDA를 중심으로 개발됨",
    # 2.2, first block
    "x = torch.tensor(data)",
    'print("초기 상태:", x.is_cuda)  # False',
    "x = x.cuda() # copy임",
    "# x = x.to('cuda')",
    'print("GPU 이동 후:", x.is_cuda)  # True',
    "x = x.cpu()",
    'print("다시 CPU 이동 후:", x.is_cuda)  # False',
    # 2.2, the device-mismatch block
    "# print(torch.matmul(a, b)) # 오류 발생",
    "# RuntimeError: Expected all tensors to be on the same device, but found at least two devices, ~~",
    "print(torch.matmul(a.cpu(), b))",
    # 2.2, the copies block
    'x = torch.randn(1000, 1000, device="cuda:0")  # VRAM에 생성',
    "y = x.cpu()  # RAM에 복사본 생성",
    "z = y.cuda()  # VRAM에 또 다른 복사본 생성",
    "# Tip 1: 변수 이름이 같도록 설정하면 가비지 컬렉션으로 정리",
    "# Tip 2: 사용하지 않는 텐서는 del로 정리하기",
    # 2.3
    'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")',
    "x = torch.tensor([[1, 2], [3, 4]], device=device)",
    "print(x.device)  # cuda:0 또는 cpu",
    # 2.4, psutil
    'print(f"CPU 사용률: {psutil.cpu_percent(interval=1)}%")',
    "mem = psutil.virtual_memory()",
    'print(f"사용 중 메모리: {mem.used / 1024**3:.2f} GB / 전체 {mem.total / 1024**3:.2f} GB")',
    # 2.4, torch.cuda
    "print(torch.cuda.device_count())",
    "print(torch.cuda.current_device())",
    "print(torch.cuda.get_device_name(0))",
    'print(f"Allocated: {torch.cuda.memory_allocated() / 1024**2:.2f} MB")',
    'print(f"Reserved : {torch.cuda.memory_reserved() / 1024**2:.2f} MB")',
]

SEED_GPUTIL_LINES = [
    "# !pip install gputil",
    "import GPUtil",
    "gpus = GPUtil.getGPUs()",
    'print(f"사용률: {gpu.load * 100:.1f}%")',
    'print(f"메모리 사용량: {gpu.memoryUsed}MB / {gpu.memoryTotal}MB")',
]


def _stripped_lines(text):
    return {line.strip() for line in text.splitlines()}


def test_seed_lines_are_the_seeds():
    if not os.path.exists(SEED):
        pytest.skip("shared/seed is not beside the repository")
    with open(SEED, encoding="utf-8") as f:
        seed = _stripped_lines(f.read())
    for line in SEED_CODE_LINES + SEED_GPUTIL_LINES:
        assert line.strip() in seed, line


def test_every_seed_code_block_is_in_a_code_cell(notebook):
    code = set()
    for text in _code_cells(notebook):
        code |= _stripped_lines(text)
    for line in SEED_CODE_LINES:
        assert line.strip() in code, line


def test_gputil_is_a_markdown_sample_not_executed(notebook):
    markdown = "\n".join(_source(c) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for line in SEED_GPUTIL_LINES:
        assert line in markdown, line
    assert not any("GPUtil" in text for text in _code_cells(notebook))


def test_code_cells_import_minitorch_as_torch(notebook):
    cells = _code_cells(notebook)[1:]
    for text in cells:
        lines = _stripped_lines(text)
        assert "import torch" not in lines, text
        if re.search(r"(?<![\w.])torch\.", text):
            assert "import minitorch as torch" in lines, text


def test_notebook_covers_the_extras(notebook):
    code = "\n".join(_code_cells(notebook))
    markdown = "\n".join(_source(c) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert "torch.cuda.mem_get_info()" in code and "torch.cuda.empty_cache()" in code
    assert "torch.cuda.synchronize()" in code and "matplotlib" in code
    assert "torch.nn.Linear(3, 2)" in code and "linear.cuda()" in code and "linear.device" in code
    assert 'print(f"{type(e).__name__}: {e}")' in code
    assert "20 MiB" in markdown and "캐싱 할당기" in markdown


def _is_gpu_call(node):
    """x.cuda(...), or any call with device="cuda..." among its keywords."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
        return True
    return any(k.arg == "device" and isinstance(k.value, ast.Constant)
               and str(k.value.value).startswith("cuda") for k in node.keywords)


def _guarded(parents):
    for parent in parents:
        if isinstance(parent, ast.Try):
            return True
        if isinstance(parent, ast.If):
            test = ast.unparse(parent.test)
            if "cuda.is_available()" in test or "is_cuda" in test:
                return True
    return False


def test_every_gpu_call_is_guarded(notebook):
    """So that the notebook runs on a CPU runtime: each .cuda()/device="cuda" call sits under an
    `if torch.cuda.is_available()` (or `.is_cuda`) or inside a try block."""
    for text in _code_cells(notebook)[1:]:
        tree = ast.parse(text)

        def visit(node, parents):
            if _is_gpu_call(node):
                assert _guarded(parents), ast.unparse(node)
            for child in ast.iter_child_nodes(node):
                visit(child, parents + [node])

        visit(tree, [])


# ---- the notebook, executed ------------------------------------------------------------------------------

def _missing_notebook_tools():
    return [name for name in ("nbclient", "ipykernel", "nbformat") if importlib.util.find_spec(name) is None]


@pytest.mark.skipif(bool(_missing_notebook_tools()),
                    reason="nbclient/ipykernel/nbformat not installed (pip install -e '.[notebook]')")
def test_notebook_runs_headless():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run_notebook.py"), NOTEBOOK],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    with open(NOTEBOOK, encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    executed = [c for c in cells
                if c["cell_type"] == "code" and "skip-execution" not in c["metadata"].get("tags", [])]
    assert "ran {} cells in ".format(len(executed)) in proc.stdout


@pytest.mark.skipif(bool(_missing_notebook_tools()),
                    reason="nbclient/ipykernel/nbformat not installed (pip install -e '.[notebook]')")
def test_run_notebook_skips_tagged_cells_and_reports_the_failing_cell(tmp_path):
    cells = [
        {"cell_type": "code", "id": "skipped", "metadata": {"tags": ["skip-execution"]},
         "source": "raise SystemExit('a skip-execution cell ran')", "outputs": [], "execution_count": None},
        {"cell_type": "code", "id": "ok", "metadata": {}, "source": "import minitorch\nvalue = 1",
         "outputs": [], "execution_count": None},
        {"cell_type": "code", "id": "bad", "metadata": {}, "source": "broken = value + missing_name",
         "outputs": [], "execution_count": None},
    ]
    path = tmp_path / "broken.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run_notebook.py"), str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cell 2 failed" in proc.stdout
    assert "broken = value + missing_name" in proc.stdout
    assert "NameError: name 'missing_name' is not defined" in proc.stdout
    assert "a skip-execution cell ran" not in proc.stdout
