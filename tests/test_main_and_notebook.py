"""`python -m minitorch` (the environment report and walkthrough) and the tutorial notebook.

The report must never crash: on the CPU, under the simulated GPU and with a malformed
MINITORCH_SIMULATE_GPU. It speaks Korean or English (the locale, or --lang), states what the build
was made for and warns when a GPU has no machine code in it; the walkthrough shows torch's
device-mismatch error and its fix. The notebook must carry the tutorial's code (every seed code block,
with `import minitorch as torch`), be what scripts/make_notebook.py writes (for the address in
pyproject.toml, or none), guard every GPU call, install with visible progress, draw its plot without
missing glyphs, and run top to bottom headless; that last check needs nbclient and ipykernel (CI
installs them) and runs in whatever device setting the suite runs in (CI runs the suite on the CPU
and on the simulated GPU). Nothing here reads files outside the repository.
"""

import ast
import importlib.util
import json
import os
import platform
import re
import signal
import subprocess
import sys
import textwrap
import types
import zipfile

import pytest

import minitorch
from minitorch import __main__ as main_module
from subproc import child_env, run_python

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, "notebooks", "gpu_basics.ipynb")
MAKE_NOTEBOOK = os.path.join(ROOT, "scripts", "make_notebook.py")
ENGLISH = {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
KOREAN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ko_KR.UTF-8", "PYTHONIOENCODING": "utf-8"}
MATMUL_MISMATCH = ("RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cpu, "
                   "different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)")


def _load_make_notebook():
    spec = importlib.util.spec_from_file_location("make_notebook", MAKE_NOTEBOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_notebook = _load_make_notebook()


def _run(args, simulate=None, env=None, stdin=None):
    """python args in a child (this checkout's minitorch), output decoded as UTF-8."""
    return subprocess.run([sys.executable] + list(args), capture_output=True, text=True, encoding="utf-8",
                          timeout=120, cwd=ROOT, input=stdin, env=child_env(simulate, **(env or ENGLISH)))


def _run_main(*args, simulate=None, env=None):
    proc = _run(["-m", "minitorch", *args], simulate, env)
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out
    return proc.returncode, proc.stdout


# ---- python -m minitorch ------------------------------------------------------------------------------

REPORT_LABELS = ["minitorch environment report", "minitorch ", "build ", "GPU code ", "built at ",
                 "CUDA runtime ", "NVIDIA driver ", "cuBLAS ", "cuDNN ", "device runtime ", "GPUs ", "CPU ",
                 "RAM ", "Python "]


@pytest.mark.parametrize("simulate", [None, "1"], ids=["plain", "simulated"])
def test_env_report_only(simulate):
    rc, out = _run_main("env", simulate=simulate)
    assert rc == 0, out
    for label in REPORT_LABELS:
        assert any(line.startswith(label) for line in out.splitlines()), (label, out)
    assert "Python           {}".format(platform.python_version()) in out
    assert "walkthrough" not in out
    if not minitorch._C.has_cuda:
        assert "CUDA build: no" in out
        assert "CUDA runtime     not available in this build" in out
        assert "GPU code         none (CPU-only build)" in out
    else:
        assert "CUDA build: yes (compiled with CUDA {})".format(minitorch._C.cuda_version) in out
        archs = ", ".join(minitorch.cuda.get_arch_list())
        assert "GPU code         machine code (SASS) for {}; PTX for compute_".format(archs) in out


def test_env_report_simulated_gpu():
    rc, out = _run_main("env", simulate="1")
    assert rc == 0, out
    assert "device runtime   simulated" in out
    assert "NOTE: the GPU is SIMULATED (MINITORCH_SIMULATE_GPU)" in out
    assert "GPUs             1" in out
    assert "  GPU 0          minitorch simulated GPU, compute capability 9.0" in out
    assert "16.00 GiB total" in out
    assert "WARNING" not in out  # the simulated GPU needs no device code
    if minitorch._C.has_cuda:
        assert "cuDNN            not used on the simulated GPU" in out


def test_cudnn_versions_read_as_cudnn_writes_them():
    # cudnnGetVersion(): major * 10000 + minor * 100 + patch from cuDNN 9, major * 1000 + ... before
    assert main_module._cudnn_version_text(91002) == "9.10.2"
    assert main_module._cudnn_version_text(90100) == "9.1.0"
    assert main_module._cudnn_version_text(8907) == "8.9.7"


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


def _shape_text():
    return str(minitorch.randn(256, 256).shape)  # what print(x.shape) shows


@pytest.mark.parametrize("simulate", [None, "1"], ids=["plain", "simulated"])
def test_report_and_walkthrough(simulate):
    rc, out = _run_main(simulate=simulate)
    assert "minitorch environment report" in out
    assert ">>> x = torch.randn(256, 256)" in out
    assert "x.device = cpu, x.shape = {}".format(_shape_text()) in out
    assert "step failed" not in out, out
    assert rc == 0, out
    gpu = "GPUs             none" not in out
    if gpu:
        assert ">>> x = x.cuda()" in out
        assert "x.device = cuda:0" in out
        # 256x256 float32 = 262,144 B: a small-pool block in a 2 MiB segment
        assert "memory_allocated=262,144 B, memory_reserved=2,097,152 B" in out
        # the device-mismatch error, in torch's words, then its fix
        mismatch = out.split(">>> torch.matmul(x, w)\n")[1].split(">>> ")[0]
        assert "    " + MATMUL_MISMATCH + "\n" in mismatch
        fix = out.split(">>> y = torch.matmul(x, w.to(x.device))\n")[1].split(">>> ")[0]
        assert "y.device = cuda:0" in fix
        if simulate:
            assert "the simulated GPU (host memory and CPU kernels, no cuBLAS)" in fix
            assert "cuBLAS)" not in fix.replace("no cuBLAS)", "")
            # no cuBLAS workspace on the simulated GPU (a real one may keep it after the matmul)
            assert "memory_allocated=0 B, memory_reserved=0 B" in out.split(">>> del x, w, y")[1]
    else:
        assert "no CUDA device here: the walkthrough stays on the CPU" in out
        assert "device-mismatch error" in out
        assert ">>> y = torch.matmul(x, x)" in out
        assert "y.device = cpu" in out


def test_walkthrough_names_cublas_only_on_a_real_gpu():
    """The simulated GPU is asked to pass for a real one: then the walkthrough says cuBLAS does the
    matmul (as on a real GPU), which it must not say for the simulated device."""
    code = ("import minitorch.__main__ as m\nm._simulated = lambda: False\nm.walkthrough('en')\n")
    proc = _run(["-c", code], simulate="1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "runs where its inputs live: the GPU (cuBLAS)" in proc.stdout
    assert "(simulated) GPU" not in proc.stdout


def test_main_usage_errors():
    for args in (["nonsense"], ["--lang", "fr"], ["--lang"], ["--lang=de", "env"], ["env", "env"], ["train", "env"]):
        proc = _run(["-m", "minitorch", *args])
        assert proc.returncode == 2, (args, proc.stdout + proc.stderr)
        assert proc.stderr.startswith("usage: python -m minitorch [env|train] [--lang en|ko]"), proc.stderr
        assert proc.stdout == "" and "Traceback" not in proc.stderr
    rc, out = _run_main("--help")
    assert rc == 0 and out.startswith("usage: python -m minitorch [env|train] [--lang en|ko]")


@pytest.mark.parametrize("simulate", [None, "1"], ids=["plain", "simulated"])
def test_train_demo(simulate):
    """`python -m minitorch train`: the loss of every epoch on each device, falling, the same numbers on
    the simulated GPU as on the CPU (the same seed and the same kernels), and the accuracy."""
    rc, out = _run_main("train", simulate=simulate)
    assert rc == 0, out
    runs = [[float(line.split("loss ")[1].split()[0]) for line in block.splitlines() if "loss " in line]
            for block in out.split("device: ")[1:]]
    assert len(runs) == (2 if simulate else 1), out
    for losses in runs:
        assert len(losses) == 8 and losses[-1] < losses[0] / 4, out
    assert all(run == runs[0] for run in runs), out
    assert out.count("accuracy on the training points") == len(runs)
    assert ("No CUDA device here" in out) == (not simulate)


def test_report_imports_no_numpy():
    code = ("import sys\nfrom minitorch.__main__ import report\nreport()\n"
            "assert 'numpy' not in sys.modules, 'the report imported numpy'\n")
    proc = run_python(code, simulate_gpu=1, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("when", ["at once", "after a line"])
def test_a_closed_pipe_ends_quietly(when):
    """`python -m minitorch | head`: no BrokenPipeError traceback; exit 0 or killed by SIGPIPE."""
    proc = subprocess.Popen([sys.executable, "-m", "minitorch"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env=child_env(1, **ENGLISH))
    if when == "after a line":
        proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    rc = proc.wait(timeout=120)
    assert rc in (0, -getattr(signal, "SIGPIPE", 13)), (rc, err)
    assert err == "", err


# ---- the language ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "ko_KR.UTF-8"}, "ko"),
    ({"LANG": "ko"}, "ko"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "ko_KR.UTF-8"}, "en"),
    ({"LC_ALL": "ko_KR.eucKR", "LANG": "en_US.UTF-8"}, "ko"),
    ({"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ko_KR.UTF-8"}, "ko"),
    ({"LC_ALL": "", "LC_MESSAGES": "C.UTF-8", "LANG": "ko_KR.UTF-8"}, "en"),
    ({"LC_CTYPE": "ko_KR.UTF-8"}, "en"),
])
def test_language_from_environ_reads_lc_all_lc_messages_lang_in_order(environ, lang):
    assert main_module.language_from_environ(environ) == lang


def test_every_message_has_both_languages_with_the_same_fields():
    fields = re.compile(r"{(\w*)}")
    for key, texts in main_module.MESSAGES.items():
        assert set(texts) == set(main_module.LANGUAGES), key
        assert texts["ko"] and texts["en"], key
        assert sorted(fields.findall(texts["en"])) == sorted(fields.findall(texts["ko"])), key
        assert re.search("[가-힣]", texts["en"]) is None, key


def _value_column(line, label):
    """The display column where the value of a report line that starts with `label` begins."""
    start = len(label) + len(line[len(label):]) - len(line[len(label):].lstrip())
    return main_module._width(line[:start])


@pytest.mark.parametrize("how", ["locale", "--lang ko"])
def test_report_in_korean(how):
    if how == "locale":
        rc, out = _run_main("env", simulate="1", env=KOREAN)
    else:
        rc, out = _run_main("env", "--lang", "ko", simulate="1", env=ENGLISH)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0] == "minitorch 환경 보고서"
    for label in ["빌드", "GPU 코드", "빌드 시각", "CUDA 런타임", "NVIDIA 드라이버", "cuBLAS", "cuDNN",
                  "장치 런타임", "GPU 수", "CPU", "RAM", "Python", "플랫폼"]:
        line = next((row for row in lines if row.startswith(label + "  ")), None)
        assert line is not None, (label, out)
        # Hangul takes two columns: the values line up as in the English report
        assert _value_column(line, label) == main_module.LABEL_WIDTH + 1, line
    # section 3 of the tutorial, in its words
    assert "GPU의 수천 개 코어로 병렬 연산을 하게 해 주는 NVIDIA의 플랫폼" in out
    assert "운영체제(OS)가 GPU를 인식하고 제어하게 해 주는 장치 드라이버" in out
    assert "CNN, RNN, BatchNorm 등 딥러닝 연산을 GPU에서 빠르게 실행해 주는 NVIDIA 라이브러리" in out
    assert "참고: 이 GPU는 시뮬레이션입니다" in out
    assert "  GPU 0          minitorch simulated GPU, 연산 능력(compute capability) 9.0" in out
    assert "environment report" not in out


def test_walkthrough_in_korean_on_the_simulated_gpu():
    rc, out = _run_main(simulate="1", env=KOREAN)
    assert rc == 0, out
    assert "따라 해 보기" in out
    assert "x.device = cpu, x.shape = {}".format(_shape_text()) in out
    assert "    " + MATMUL_MISMATCH in out  # torch's message stays torch's
    assert "해결: w를 x의 장치로 먼저 옮긴다" in out
    assert "시뮬레이션 GPU(호스트 메모리와 CPU 커널, cuBLAS 없음)" in out


def test_lang_en_overrides_a_korean_locale():
    rc, out = _run_main("env", "--lang=en", env=KOREAN)
    assert rc == 0 and out.startswith("minitorch environment report"), out


# ---- build facts and the GPU-code warning ---------------------------------------------------------------

BUILD_INFO = {"cuda": True, "cuda_version": "13.0", "archs": ["75", "80", "86", "89", "90", "120"], "ptx": "120",
              "arch_rule": "default list (no GPU found at build time)", "built_at": "2026-12-04T13:10:00Z"}


def test_build_facts_from_build_info():
    facts = main_module.build_facts(types.SimpleNamespace(_build_info=dict(BUILD_INFO), has_cuda=True,
                                                          cuda_version="12.0", cuda_archs="50"))
    assert facts == BUILD_INFO


def test_build_facts_without_build_info_fall_back_to_the_old_constants():
    facts = main_module.build_facts(types.SimpleNamespace(has_cuda=True, cuda_version="12.8",
                                                          cuda_archs="75;80;90"))
    assert facts == {"cuda": True, "cuda_version": "12.8", "archs": ["75", "80", "90"], "ptx": "90",
                     "arch_rule": None, "built_at": None}
    cpu = main_module.build_facts(types.SimpleNamespace(has_cuda=False, cuda_version=None, cuda_archs=""))
    assert cpu == {"cuda": False, "cuda_version": None, "archs": [], "ptx": None, "arch_rule": None,
                   "built_at": None}
    cpu_info = main_module.build_facts(types.SimpleNamespace(_build_info={
        "cuda": False, "cuda_version": None, "archs": [], "ptx": None, "arch_rule": None, "built_at": None}))
    assert cpu_info == cpu


def test_build_facts_of_this_build():
    facts = main_module.build_facts(minitorch._C)
    assert facts["cuda"] == minitorch._C.has_cuda
    assert ["sm_" + a for a in facts["archs"]] == minitorch.cuda.get_arch_list()


ARCHS = ["75", "80", "86", "89", "90", "120"]


@pytest.mark.parametrize("capability, archs, ptx, status", [
    ("90", ARCHS, "120", "sass"),            # machine code for the GPU itself
    ("75", ARCHS, "120", "sass"),
    ("87", ["80"], "80", "sass"),            # sm_80 code runs on 8.7 (same major, lower minor)
    ("100", ARCHS, "120", "none"),           # no SASS for 10.0, and the PTX is newer than the GPU
    ("121", ARCHS, "120", "sass"),
    ("90", ["75", "80"], "80", "ptx"),       # PTX compiled at first use
    ("120", ["75", "90"], "90", "ptx"),
    ("70", ARCHS, "120", "none"),            # older than everything in the build
    ("90", ["90a"], None, "sass"),
    ("100", ["90a"], "90", "ptx"),           # 90a code runs on 9.0 only
    ("89", ["86"], None, "sass"),
    ("80", ["86"], None, "none"),            # sm_86 code does not run on 8.0
    ("90", [], None, "unknown"),
])
def test_gpu_code_status(capability, archs, ptx, status):
    assert main_module.gpu_code_status(capability, archs, ptx) == status


def test_gpu_code_status_of_the_simulated_gpu_needs_no_code():
    assert main_module.gpu_code_status("90", ["75"], None, simulated=True) == "simulated"
    assert main_module.gpu_code_warning("90", {"archs": ["75"], "ptx": None}, simulated=True) is None


@pytest.mark.parametrize("lang", main_module.LANGUAGES)
def test_gpu_code_warning_texts(lang):
    main_module._use_language(lang)
    try:
        facts = dict(BUILD_INFO)
        assert main_module.gpu_code_warning("90", facts) is None
        ptx = main_module.gpu_code_warning("90", dict(facts, archs=["75", "80"], ptx="80"))
        none = main_module.gpu_code_warning("70", facts)
    finally:
        main_module._use_language("en")
    for text in (ptx, none):
        assert "MINITORCH_CUDA_ARCH=" in text
    assert "MINITORCH_CUDA_ARCH=90 " in ptx and "MINITORCH_CUDA_ARCH=70 " in none
    if lang == "en":
        assert "PTX compiled at first use (slower start)" in ptx
        assert "this build has no code for this GPU (sm_70): kernels will not run" in none
    else:
        assert "PTX를 컴파일해" in ptx and "시작이 느림" in ptx
        assert "커널이 실행되지 않습니다" in none


REPORT_WITH_BUILD_INFO = """\
import minitorch._C as C
import minitorch.__main__ as m
C._build_info = {info!r}
m._runtime_info = lambda: {{"runtime": "cuda", "simulated": False, "config_error": ""}}
m.report({lang!r})
"""


@pytest.mark.parametrize("lang", main_module.LANGUAGES)
def test_report_states_the_build_facts_and_warns_for_a_gpu_without_code(lang):
    """The simulated GPU (compute capability 9.0) posing as a real one, against a build without sm_90
    machine code: the report lists the build's facts and says what to rebuild."""
    info = dict(BUILD_INFO, archs=["75", "80"], ptx="80")
    proc = _run(["-c", REPORT_WITH_BUILD_INFO.format(info=info, lang=lang)], simulate="1")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    out = proc.stdout
    if lang == "en":
        assert "build            CUDA build: yes (compiled with CUDA 13.0)" in out
        assert "GPU code         machine code (SASS) for sm_75, sm_80; PTX for compute_80" in out
        assert "(list chosen by: default list (no GPU found at build time))" in out
        assert "built at         2026-12-04T13:10:00Z" in out
        assert "WARNING: this build has no machine code (SASS) for this GPU (sm_90)" in out
    else:
        assert "빌드             CUDA 빌드: 예 (컴파일한 CUDA 버전: 13.0)" in out
        assert "GPU 코드         기계어(SASS): sm_75, sm_80 / PTX: compute_80" in out
        assert "(목록을 정한 규칙: default list (no GPU found at build time))" in out
        assert "빌드 시각        2026-12-04T13:10:00Z" in out
        assert "주의: 이 빌드에는 이 GPU(sm_90)용 기계어(SASS)가 없어" in out
    assert "MINITORCH_CUDA_ARCH=90 pip install --force-reinstall" in out


def test_report_of_a_cpu_only_build_info():
    info = {"cuda": False, "cuda_version": None, "archs": [], "ptx": None, "arch_rule": None, "built_at": None}
    proc = _run(["-c", REPORT_WITH_BUILD_INFO.format(info=info, lang="en")])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CUDA build: no (CPU-only build, compiled without nvcc)" in proc.stdout
    assert "GPU code         none (CPU-only build)" in proc.stdout
    assert "built at         not recorded by this build" in proc.stdout


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
    proc = subprocess.run([sys.executable, MAKE_NOTEBOOK, "--check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_notebook_has_no_outputs(notebook):
    assert notebook["nbformat"] == 4
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


def test_first_cell_has_title_and_gpu_runtime_reminder(notebook):
    first = notebook["cells"][0]
    assert first["cell_type"] == "markdown"
    text = _source(first)
    assert text.startswith("# ")
    assert "[런타임] → [런타임 유형 변경]" in text and "GPU" in text


def test_install_cell_is_first_code_cell_and_skipped_headless(notebook):
    first_code = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    assert "skip-execution" in first_code["metadata"].get("tags", [])
    text = _source(first_code)
    assert '[sys.executable, "-m", "pip", "install", "-v", source]' in text
    assert "koreanize-matplotlib" in text
    assert "!python --version" in text
    assert "nvcc --version" in text and "nvidia-smi" in text
    others = [c for c in notebook["cells"] if c is not first_code]
    assert not any("skip-execution" in c["metadata"].get("tags", []) for c in others)
    markdown = "\n".join(_source(c) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert "`pip install -v`" in markdown and "전체 로그" in markdown


# ---- the project's address: one place, pyproject.toml ---------------------------------------------------

EXAMPLE = "https://github.com/example-owner/minitorch-exact"


def _write_pyproject(tmp_path, urls):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n\n[project.urls]\n' + urls + '\n[tool.other]\nRepository = "no"\n',
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("urls, expected", [
    ("", None),
    ('Repository = "{}"\n'.format(EXAMPLE), EXAMPLE),
    ('Homepage = "https://example.org"\nRepository = "{}/"  # the code\n'.format(EXAMPLE), EXAMPLE),
    ("repository = '{}'\n".format(EXAMPLE), EXAMPLE),
    ('"Bug Tracker" = "https://example.org/issues"\n', None),
    ('Repository = ""\n', None),
])
def test_repository_url_reads_project_urls(tmp_path, urls, expected):
    path = _write_pyproject(tmp_path, urls)
    assert make_notebook.repository_url(path) == expected
    # the parser for Pythons without tomllib reads the same table
    with open(path, encoding="utf-8") as f:
        fallback = make_notebook._toml_urls_fallback(f.read())
    assert fallback == make_notebook.project_urls(path)


def test_the_committed_notebook_follows_pyproject(notebook):
    """pyproject.toml names no public home yet: the notebook has no badge and installs from an upload."""
    repository = make_notebook.repository_url()
    text = "\n".join(_source(c) for c in notebook["cells"])
    if repository is None:
        assert "colab-badge" not in text and "git+" not in text.replace("pip install git+...", "")
        assert "minitorch는 아직 공개된 주소" in text
    else:
        assert "git+" + repository in text


def _cells(repository):
    nb = make_notebook.build_notebook(repository)
    return [(c["cell_type"], "".join(c["source"]), c["metadata"].get("tags", [])) for c in nb["cells"]]


def test_notebook_without_an_address_installs_from_an_uploaded_copy():
    cells = _cells(None)
    title = cells[0][1]
    assert "colab-badge" not in title and "colab.research.google.com" not in title
    assert "minitorch는 아직 공개된 주소(저장소)가 없습니다" in title
    install_md = cells[1][1]
    assert "`pip install git+...` 로 받을 수 없습니다" in install_md
    assert "zip 파일" in install_md and "[파일]" in install_md
    install = next(text for kind, text, _ in cells if kind == "code")
    assert "git+" not in install
    assert "shutil.unpack_archive(archive" in install and "pyproject.toml" in install


@pytest.mark.parametrize("repository, colab", [
    (EXAMPLE, "https://colab.research.google.com/github/example-owner/minitorch-exact/blob/main/"
              "notebooks/gpu_basics.ipynb"),
    ("https://gitlab.example.org/team/minitorch", None),  # Colab opens notebooks from GitHub only
])
def test_notebook_with_an_address_has_badge_and_pip_install_git(repository, colab):
    cells = _cells(repository)
    title = cells[0][1]
    if colab:
        assert "[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]({})".format(colab) in title
    else:
        assert "colab-badge" not in title
    assert "아직 공개된 주소" not in "\n".join(text for _, text, _ in cells)
    install = next(text for kind, text, _ in cells if kind == "code")
    assert 'source = "git+{}"'.format(repository) in install
    assert "unpack_archive" not in install


def test_generator_option_and_pyproject_agree(tmp_path):
    out = tmp_path / "nb.ipynb"
    proc = subprocess.run([sys.executable, MAKE_NOTEBOOK, str(out), "--repository", EXAMPLE],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(make_notebook.render(
        make_notebook.build_notebook(EXAMPLE)))
    proc = subprocess.run([sys.executable, MAKE_NOTEBOOK, str(out), "--repository", "github.com/x/y"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "https://" in proc.stderr


def test_no_file_sends_learners_to_another_project():
    """The minitorch repository on GitHub under the minitorch organisation is Cornell's MiniTorch course:
    another project, where no learner of this one may be sent."""
    other = "/".join(["github.com", "minitorch", "minitorch"])
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except OSError:
        pytest.skip("git is not installed")
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    named = []
    for name in listed.stdout.splitlines():
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            if other.encode() in f.read():
                named.append(name)
    assert named == []


# ---- the install cell, run with a stand-in for pip ------------------------------------------------------

class _FakePip:
    """subprocess.Popen for the install cell: records the command, gives fixed output and status."""

    def __init__(self, lines, status):
        self.lines, self.status, self.commands = lines, status, []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        assert kwargs.get("stdout") is subprocess.PIPE and kwargs.get("stderr") is subprocess.STDOUT
        return types.SimpleNamespace(stdout=iter(self.lines), wait=lambda: self.status)


def _run_install_cell(monkeypatch, tmp_path, repository, lines, status, colab=False):
    text = next(text for kind, text, _ in _cells(repository) if kind == "code")
    # the IPython shell lines (!pip, !nvcc, ...) are not Python: they do nothing here
    source = "\n".join(re.sub(r"^(\s*)!.*$", r"\1pass", line) for line in text.splitlines())
    fake = _FakePip(lines, status)
    monkeypatch.setattr(subprocess, "Popen", fake)
    monkeypatch.chdir(tmp_path)
    if colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    exec(compile(source, "<install cell>", "exec"), {"__name__": "__main__"})
    return fake


BUILD_LOG = (["Using pip 25.0 from ...\n", "Processing /content/minitorch-src\n",
              "  minitorch build: configure (CUDA 12.8, sm_75)\n", "  gcc -O3 -c csrc/core/tensor.c\n",
              "  minitorch build: C sources (40 files)\n", "  nvcc -c csrc/kernels/cuda/kernels.cu\n",
              "  minitorch build: CUDA sources (1 file)\n", "  minitorch build: link\n",
              "Successfully installed minitorch-exact-0.1.0\n"])


def test_install_cell_prints_only_the_build_stages_and_the_time(monkeypatch, tmp_path, capsys):
    fake = _run_install_cell(monkeypatch, tmp_path, None, BUILD_LOG, 0)
    assert fake.commands == [[sys.executable, "-m", "pip", "install", "-v", ".."]]
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == ["minitorch build: configure (CUDA 12.8, sm_75)", "minitorch build: C sources (40 files)",
                       "minitorch build: CUDA sources (1 file)", "minitorch build: link"]
    assert re.fullmatch(r"minitorch 설치 완료 \(\d+초\)", out[4]) and len(out) == 5


def test_install_cell_shows_the_log_tail_and_raises_on_failure(monkeypatch, tmp_path, capsys):
    lines = ["  minitorch build: configure\n"] + ["log line {}\n".format(i) for i in range(100)]
    with pytest.raises(RuntimeError, match="minitorch 설치 실패"):
        _run_install_cell(monkeypatch, tmp_path, EXAMPLE, lines, 1)
    out = capsys.readouterr().out
    assert "log line 60\n" in out and "log line 99\n" in out and "log line 59\n" not in out


def test_install_cell_in_colab_unpacks_the_uploaded_project(monkeypatch, tmp_path, capsys):
    with pytest.raises(FileNotFoundError, match="zip으로 묶어"):
        _run_install_cell(monkeypatch, tmp_path, None, BUILD_LOG, 0, colab=True)
    with zipfile.ZipFile(tmp_path / "minitorch-main.zip", "w") as archive:
        archive.writestr("minitorch-main/pyproject.toml", "[project]\nname = 'minitorch-exact'\n")
        archive.writestr("minitorch-main/setup.py", "")
    fake = _run_install_cell(monkeypatch, tmp_path, None, BUILD_LOG, 0, colab=True)
    assert fake.commands[0][-1] == os.path.join("minitorch-src", "minitorch-main")
    assert (tmp_path / "minitorch-src" / "minitorch-main" / "pyproject.toml").exists()
    fake = _run_install_cell(monkeypatch, tmp_path, EXAMPLE, BUILD_LOG, 0, colab=True)
    assert fake.commands[0][-1] == "git+" + EXAMPLE


# Distinctive lines of every code block of the tutorial, as the notebook carries them (`import torch`
# becomes `import minitorch as torch`; the GPUtil block stays a markdown sample). The tutorial's own
# text is not in the repository: test_seed_gpu_blocks.py holds its GPU blocks verbatim and checks that
# the notebook carries every line of them.
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


# ---- the plot: Korean labels with a font that has them ----------------------------------------------------

def _has(module):
    return importlib.util.find_spec(module) is not None


PLOT_RUNNER = """\
import importlib.util, io, json, sys, warnings
import matplotlib
matplotlib.use("Agg")
if {hide_font!r}:
    _find_spec = importlib.util.find_spec
    importlib.util.find_spec = lambda name, *args: None if name == "koreanize_matplotlib" else _find_spec(name, *args)
sizes = [128, 256, 512, 1024, 2048]
devices = {devices!r}
# seconds as measured (CPU) and a GPU 20x faster: the axis reaches below 1 ms, where a log scale's
# tick labels need a minus sign (10^-1, 10^-2)
times = {{d: [t / (1 if d == "cpu" else 20) for t in (8e-5, 6e-4, 3.5e-3, 3.4e-2, 2.7e-1)] for d in devices}}
simulated = {simulated!r}
cell = sys.stdin.read()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    exec(compile(cell, "<plot cell>", "exec"), globals())
    import matplotlib.pyplot as plt
    from matplotlib import font_manager
    fig = plt.gcf()
    fig.savefig(io.BytesIO(), format="png", dpi=72)
ax = fig.axes[0]
low, high = ax.get_ylim()
assert low < 0.1 < 1 < high, (low, high)
print(json.dumps({{
    "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
    "legend": [t.get_text() for t in ax.get_legend().get_texts()],
    "font": font_manager.findfont(ax.title.get_fontproperties()),
    "ticks": [t.get_text() for t in ax.get_yticklabels()],
    "warnings": [str(w.message) for w in caught],
}}, ensure_ascii=False))
"""


def _missing_glyphs(plot):
    """matplotlib's warnings about characters its font lacks (drawn as boxes), in both wordings."""
    return [w for w in plot["warnings"] if "missing from font" in w or "does not have a glyph" in w]


def _draw_plot(notebook, devices, simulated, hide_font):
    cell = next(text for text in _code_cells(notebook) if "def use_korean_font" in text)
    runner = PLOT_RUNNER.format(hide_font=hide_font, devices=devices, simulated=simulated)
    proc = _run(["-c", runner], stdin=cell, env=dict(ENGLISH, MPLBACKEND="Agg"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


PLOT_CASES = [(["cpu"], False), (["cpu", "cuda"], True), (["cpu", "cuda"], False)]
PLOT_IDS = ["cpu-only", "simulated-gpu", "gpu"]


@pytest.mark.skipif(not _has("matplotlib"), reason="matplotlib is not installed (pip install matplotlib)")
@pytest.mark.skipif(not _has("koreanize_matplotlib"),
                    reason="koreanize-matplotlib, the notebook's Hangul font, is not installed "
                           "(pip install koreanize-matplotlib)")
@pytest.mark.parametrize("devices, simulated", PLOT_CASES, ids=PLOT_IDS)
def test_plot_draws_korean_labels_with_no_missing_glyphs(notebook, devices, simulated):
    plot = _draw_plot(notebook, devices, simulated, hide_font=False)
    assert not _missing_glyphs(plot), plot["warnings"]
    assert "NanumGothic" in os.path.basename(plot["font"]), plot["font"]
    assert "0.1" in plot["ticks"] and "1" in plot["ticks"], plot["ticks"]  # plain numbers, no 10^-1
    assert plot["xlabel"].startswith("행렬 크기 n") and plot["ylabel"].startswith("시간 (ms")
    if devices == ["cpu"]:
        # only the CPU was timed: the title must not promise a comparison with a GPU
        assert plot["title"] == "CPU의 행렬곱 시간 (이 런타임에는 GPU가 없음)" and plot["legend"] == ["CPU"]
    elif simulated:
        assert plot["title"] == "행렬곱 시간: CPU vs 시뮬레이션 GPU" and plot["legend"] == ["CPU", "시뮬레이션 GPU"]
    else:
        assert plot["title"] == "행렬곱 시간: CPU vs GPU" and plot["legend"] == ["CPU", "GPU"]


@pytest.mark.skipif(not _has("matplotlib"), reason="matplotlib is not installed (pip install matplotlib)")
@pytest.mark.parametrize("devices, simulated", PLOT_CASES, ids=PLOT_IDS)
def test_plot_without_the_korean_font_falls_back_to_english(notebook, devices, simulated):
    plot = _draw_plot(notebook, devices, simulated, hide_font=True)
    assert not _missing_glyphs(plot), plot["warnings"]
    text = " ".join([plot["title"], plot["xlabel"], plot["ylabel"]] + plot["legend"])
    assert re.search("[가-힣]", text) is None, text
    assert ("vs" in plot["title"]) == (devices != ["cpu"]), plot["title"]


@pytest.mark.skipif(bool(_missing_notebook_tools()) or not _has("matplotlib"),
                    reason="needs nbclient, ipykernel, nbformat and matplotlib")
def test_run_notebook_fails_a_plot_with_missing_glyphs(tmp_path):
    text = ("import matplotlib.pyplot as plt\n"
            "plt.rcParams['font.family'] = ['DejaVu Sans']\n"
            "plt.plot([1, 2]); plt.title('행렬곱'); plt.show()")
    # mathtext's wording (a log axis's 10^-1 label in a font without U+2212), printed as matplotlib does
    mathtext = ("import sys\nprint(\"Font 'default' does not have a glyph for '\\\\u2212' [U+2212], "
                "substituting with a dummy symbol.\", file=sys.stderr)")
    cells = [{"cell_type": "code", "id": "plot", "metadata": {}, "source": text, "outputs": [],
              "execution_count": None},
             {"cell_type": "code", "id": "mathtext", "metadata": {}, "source": mathtext, "outputs": [],
              "execution_count": None}]
    path = tmp_path / "boxes.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run_notebook.py"), str(path),
                           "--executed-dir", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cell 0 drew text its font has no glyphs for" in proc.stdout
    assert "cell 1 drew text its font has no glyphs for" in proc.stdout
    assert (tmp_path / "out" / "boxes.ipynb").exists()
