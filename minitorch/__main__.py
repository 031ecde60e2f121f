"""python -m minitorch: what this machine offers minitorch, then a short walkthrough.

The report follows section 3 of the tutorial (CUDA, the NVIDIA driver, cuDNN): what minitorch was
built for (CUDA version, the GPU architectures it has machine code for, when), which CUDA pieces it
can see, each GPU (or the simulated one) and whether the build has code for it, the CPU, RAM and
Python. The walkthrough creates a tensor on the CPU, moves it to the GPU when there is one, shows the
device-mismatch error and its fix, multiplies, and prints the caching allocator's numbers after each
step. ``python -m minitorch env`` prints only the report.

Both are printed in Korean or English: ``--lang ko|en``, else the locale (LC_ALL, LC_MESSAGES, LANG,
the first one set, as POSIX reads them). Every sentence lives once, in MESSAGES, with both languages
side by side; the code that prints it exists once.

Nothing here may crash: every fact is asked for behind a guard, so that a machine with no GPU, a
CPU-only build, a malformed MINITORCH_SIMULATE_GPU and a core still missing a feature all give a
readable line instead of a traceback. It stays fast: no numpy, no cuBLAS load in the report.
"""

import os
import platform
import re
import signal
import sys
import unicodedata

import minitorch
from minitorch import _C

LANGUAGES = ("en", "ko")
LABEL_WIDTH = 16

# Every sentence the report and the walkthrough print, in both languages. {name} fields are filled by
# _t(); technical names (CUDA, cuBLAS, sm_90) and code stay as they are in both.
MESSAGES = {
    "usage": {
        "en": ("usage: python -m minitorch [env|train] [--lang en|ko]\n"
               "\n"
               "  (no argument)  the environment report, then a short walkthrough on the CPU and the GPU\n"
               "  env            only the environment report\n"
               "  train          a one-minute training run on every device (the loss falling, epoch by epoch)\n"
               "  --lang en|ko   the language (default: from LC_ALL, LC_MESSAGES or LANG)\n"),
        "ko": ("usage: python -m minitorch [env|train] [--lang en|ko]\n"
               "\n"
               "  (인자 없음)    환경 보고서를 출력한 뒤 CPU와 GPU에서 짧게 따라 해 보기\n"
               "  env            환경 보고서만 출력\n"
               "  train          장치마다 1분 남짓 학습해 보기 (에포크마다 손실이 줄어드는 모습)\n"
               "  --lang en|ko   출력 언어 (기본값: LC_ALL, LC_MESSAGES, LANG 순으로 확인)\n"),
    },
    "report_title": {"en": "minitorch environment report", "ko": "minitorch 환경 보고서"},
    "train_title": {
        "en": "Training a small classifier (2-64-64-3 MLP, Adam, cross entropy) on {n} spiral points, {epochs} epochs",
        "ko": "작은 분류기(2-64-64-3 MLP, Adam, 교차 엔트로피)를 나선 데이터 {n}개로 {epochs} 에포크 학습합니다",
    },
    "train_device": {"en": "device: {device}", "ko": "장치: {device}"},
    "train_epoch": {"en": "  epoch {epoch}: loss {loss:.4f}  ({ms:.0f} ms)",
                    "ko": "  에포크 {epoch}: 손실 {loss:.4f}  ({ms:.0f} ms)"},
    "train_accuracy": {"en": "  accuracy on the training points: {accuracy:.1f}%",
                       "ko": "  학습 데이터 정확도: {accuracy:.1f}%"},
    "train_no_gpu": {
        "en": "No CUDA device here: only the CPU ran (MINITORCH_SIMULATE_GPU=1 adds a simulated one).",
        "ko": "CUDA 장치가 없어 CPU에서만 학습했습니다 (MINITORCH_SIMULATE_GPU=1 로 시뮬레이션 GPU를 쓸 수 있습니다).",
    },
    "label_build": {"en": "build", "ko": "빌드"},
    "label_gpu_code": {"en": "GPU code", "ko": "GPU 코드"},
    "label_built_at": {"en": "built at", "ko": "빌드 시각"},
    "label_cuda_runtime": {"en": "CUDA runtime", "ko": "CUDA 런타임"},
    "label_driver": {"en": "NVIDIA driver", "ko": "NVIDIA 드라이버"},
    "label_device_runtime": {"en": "device runtime", "ko": "장치 런타임"},
    "label_gpus": {"en": "GPUs", "ko": "GPU 수"},
    "label_gpu_n": {"en": "  GPU {index}", "ko": "  GPU {index}"},
    "label_platform": {"en": "platform", "ko": "플랫폼"},
    "label_error": {"en": "error", "ko": "오류"},
    "not_in_build": {"en": "not available in this build", "ko": "이 빌드에는 없음"},
    "unknown": {"en": "unknown", "ko": "알 수 없음"},
    "cuda_build_yes": {"en": "CUDA build: yes (compiled with CUDA {version})",
                       "ko": "CUDA 빌드: 예 (컴파일한 CUDA 버전: {version})"},
    "cuda_build_no": {"en": "CUDA build: no (CPU-only build, compiled without nvcc)",
                      "ko": "CUDA 빌드: 아니요 (nvcc 없이 컴파일한 CPU 전용 빌드)"},
    "cuda_build_no_note": {
        "en": "to use a real GPU, build on a machine with the CUDA toolkit: pip install -e .",
        "ko": "실제 GPU를 쓰려면 CUDA 툴킷이 있는 머신에서 다시 빌드: pip install -e .",
    },
    "gpu_code": {"en": "machine code (SASS) for {sass}; PTX for {ptx}",
                 "ko": "기계어(SASS): {sass} / PTX: {ptx}"},
    "gpu_code_none": {"en": "none (CPU-only build)", "ko": "없음 (CPU 전용 빌드)"},
    "gpu_code_none_listed": {"en": "none listed", "ko": "목록 없음"},
    "arch_rule": {"en": "list chosen by: {rule}", "ko": "목록을 정한 규칙: {rule}"},
    "gpu_code_note": {
        "en": "SASS is machine code a GPU runs as it is; PTX is compiled by the driver at first use, "
              "for a GPU with no SASS here",
        "ko": "SASS는 GPU가 바로 실행하는 기계어이고, PTX는 SASS가 없는 GPU를 위해 "
              "드라이버가 처음 쓸 때 컴파일하는 중간 코드이다",
    },
    "arch_rule_unknown": {"en": "not recorded by this build", "ko": "이 빌드에는 기록되지 않음"},
    "built_at_unknown": {"en": "not recorded by this build", "ko": "이 빌드에는 기록되지 않음"},
    "cuda_runtime_note": {
        "en": "CUDA: NVIDIA's platform for parallel computing on the GPU's thousands of cores; "
              "PyTorch and minitorch run their GPU work through it",
        "ko": "CUDA: GPU의 수천 개 코어로 병렬 연산을 하게 해 주는 NVIDIA의 플랫폼. "
              "PyTorch와 minitorch는 CUDA를 통해 GPU 연산을 수행한다",
    },
    "driver_supports": {"en": "supports CUDA {version}", "ko": "지원하는 CUDA 버전: {version}"},
    "driver_none": {"en": "no NVIDIA driver found", "ko": "NVIDIA 드라이버를 찾지 못함"},
    "driver_note": {
        "en": "the driver lets the operating system see and control the GPU; CUDA needs it installed first",
        "ko": "운영체제(OS)가 GPU를 인식하고 제어하게 해 주는 장치 드라이버. CUDA를 쓰려면 먼저 설치되어 있어야 한다",
    },
    "cublas_missing": {"en": "not found (needed only for matmul on a real GPU)",
                       "ko": "찾지 못함 (실제 GPU에서 행렬곱을 할 때만 필요)"},
    "cublas_note": {
        "en": "NVIDIA's matrix-multiplication library; minitorch loads it at the first GPU matmul",
        "ko": "NVIDIA의 행렬곱 라이브러리. minitorch는 GPU에서 처음 행렬곱을 할 때 불러온다",
    },
    "cudnn_loaded": {"en": "{version} (loaded: convolution on the GPU goes through it)",
                     "ko": "{version} (불러옴: GPU 합성곱에 사용)"},
    "cudnn_missing": {"en": "not found (convolution on the GPU then uses minitorch's own kernels)",
                      "ko": "찾지 못함 (GPU 합성곱은 minitorch 자체 커널로 계산)"},
    "cudnn_simulated": {"en": "not used on the simulated GPU", "ko": "시뮬레이션 GPU에서는 쓰지 않음"},
    "cudnn_note": {
        "en": "NVIDIA's library of deep-learning kernels (CNN, RNN, BatchNorm); like PyTorch, minitorch uses "
              "it for convolution (Conv1d/2d/3d) when it finds it (libcudnn.so.9 or .8, e.g. pip's "
              "nvidia-cudnn-cu12)",
        "ko": "CNN, RNN, BatchNorm 등 딥러닝 연산을 GPU에서 빠르게 실행해 주는 NVIDIA 라이브러리. PyTorch처럼 "
              "minitorch도 찾으면 합성곱(Conv1d/2d/3d)에 쓴다 (libcudnn.so.9 또는 .8, 예: pip의 nvidia-cudnn-cu12)",
    },
    "simulate_malformed": {"en": "MINITORCH_SIMULATE_GPU is malformed: {error}",
                           "ko": "MINITORCH_SIMULATE_GPU 값이 잘못됨: {error}"},
    "simulated_note": {
        "en": "NOTE: the GPU is SIMULATED (MINITORCH_SIMULATE_GPU): host memory and CPU kernels "
              "stand in for a CUDA device, so timings are CPU timings",
        "ko": "참고: 이 GPU는 시뮬레이션입니다 (MINITORCH_SIMULATE_GPU). 호스트 메모리와 CPU 커널이 "
              "CUDA 장치를 대신하므로 시간도 CPU의 시간입니다",
    },
    "gpus_unknown": {"en": "unknown ({error})", "ko": "알 수 없음 ({error})"},
    "gpus_none": {"en": "none ({reason})", "ko": "없음 ({reason})"},
    "not_available_reason": {"en": "minitorch.cuda.is_available() is False",
                             "ko": "minitorch.cuda.is_available()가 False"},
    "gpus_none_note": {
        "en": "in Colab: [Runtime] -> [Change runtime type] -> GPU; "
              "without a GPU, MINITORCH_SIMULATE_GPU=1 presents a simulated one",
        "ko": "Colab에서는 [런타임] → [런타임 유형 변경] → GPU 선택. "
              "GPU가 없으면 MINITORCH_SIMULATE_GPU=1로 시뮬레이션 GPU를 쓸 수 있다",
    },
    "gpu_props": {"en": "{name}, compute capability {major}.{minor}, {sms} multiprocessors",
                  "ko": "{name}, 연산 능력(compute capability) {major}.{minor}, 멀티프로세서 {sms}개"},
    "gpu_memory": {"en": "memory {total} total, {free} free", "ko": "메모리 전체 {total}, 여유 {free}"},
    "gpu_memory_error": {"en": "memory: {total} total (free: {error})",
                         "ko": "메모리 전체 {total} (여유: {error})"},
    "simulated_suffix": {"en": " (simulated)", "ko": " (시뮬레이션)"},
    "warn_ptx": {
        "en": "WARNING: this build has no machine code (SASS) for this GPU (sm_{cc}): its kernels run "
              "from PTX compiled at first use (slower start). Rebuild for it: "
              "MINITORCH_CUDA_ARCH={cc} pip install --force-reinstall <where you installed minitorch from>",
        "ko": "주의: 이 빌드에는 이 GPU(sm_{cc})용 기계어(SASS)가 없어 커널을 처음 쓸 때 PTX를 컴파일해 "
              "실행합니다 (시작이 느림). 이 GPU용으로 다시 빌드하세요: "
              "MINITORCH_CUDA_ARCH={cc} pip install --force-reinstall <minitorch를 설치한 곳>",
    },
    "warn_none": {
        "en": "WARNING: this build has no code for this GPU (sm_{cc}): kernels will not run on it. Rebuild: "
              "MINITORCH_CUDA_ARCH={cc} pip install --force-reinstall <where you installed minitorch from>",
        "ko": "주의: 이 빌드에는 이 GPU(sm_{cc})에서 돌아갈 코드가 없어 커널이 실행되지 않습니다. 다시 빌드하세요: "
              "MINITORCH_CUDA_ARCH={cc} pip install --force-reinstall <minitorch를 설치한 곳>",
    },
    "cpu_cores": {"en": "{model}, {count} logical cores", "ko": "{model}, 논리 코어 {count}개"},
    "ram_unknown": {"en": "unknown (no psutil and no /proc/meminfo)",
                    "ko": "알 수 없음 (psutil도 /proc/meminfo도 없음)"},
    "ram": {"en": "{used} used / {total} total", "ko": "사용 중 {used} / 전체 {total}"},
    # the walkthrough
    "walkthrough_title": {"en": "walkthrough", "ko": "따라 해 보기"},
    "step_failed": {"en": "step failed: {error}", "ko": "단계 실패: {error}"},
    "expected_error": {"en": "no error was raised, but torch raises RuntimeError here",
                       "ko": "오류가 나지 않았지만 torch는 여기서 RuntimeError를 냅니다"},
    "explain_create": {"en": "a 256x256 float32 tensor in host RAM (the CPU's memory)",
                       "ko": "호스트 RAM(CPU의 메모리)에 256x256 float32 텐서를 만든다"},
    "explain_move": {
        "en": "copies its 256 KiB into the GPU's memory (VRAM); the caching allocator reserves a whole "
              "2 MiB segment for it and keeps the rest for later tensors",
        "ko": "256 KiB를 GPU 메모리(VRAM)로 복사한다. 캐싱 할당기는 2 MiB 세그먼트를 통째로 확보해 "
              "나머지는 다음 텐서를 위해 남겨 둔다",
    },
    "explain_move_simulated": {
        "en": "copies its 256 KiB into the (simulated) GPU's memory; the caching allocator reserves a whole "
              "2 MiB segment for it and keeps the rest for later tensors",
        "ko": "256 KiB를 (시뮬레이션) GPU 메모리로 복사한다. 캐싱 할당기는 2 MiB 세그먼트를 통째로 확보해 "
              "나머지는 다음 텐서를 위해 남겨 둔다",
    },
    "no_gpu": {
        "en": "no CUDA device here: the walkthrough stays on the CPU "
              "(MINITORCH_SIMULATE_GPU=1 presents a simulated GPU)",
        "ko": "CUDA 장치가 없어 CPU에서만 진행한다 (MINITORCH_SIMULATE_GPU=1이면 시뮬레이션 GPU를 쓸 수 있다)",
    },
    "no_gpu_mismatch": {
        "en": "with a GPU, the next step would show the device-mismatch error: x on cuda:0 times w on the "
              "CPU raises RuntimeError; the fix is w.to(x.device)",
        "ko": "GPU가 있으면 여기서 장치 불일치 오류를 보여 준다: cuda:0의 x와 CPU의 w를 곱하면 RuntimeError가 "
              "나고, w.to(x.device)로 옮기면 해결된다",
    },
    "explain_cpu_tensor": {"en": "another tensor, made on the CPU", "ko": "CPU에 텐서를 하나 더 만든다"},
    "explain_mismatch": {
        "en": "x is on cuda:0 and w on the CPU: all the tensors of an op must be on the same device, "
              "so this raises",
        "ko": "x는 cuda:0, w는 CPU에 있다. 연산하는 텐서는 모두 같은 장치에 있어야 하므로 오류가 난다",
    },
    "explain_fix": {
        "en": "the fix: move w to x's device first (or create it there with device=x.device)",
        "ko": "해결: w를 x의 장치로 먼저 옮긴다 (또는 처음부터 device=x.device로 만든다)",
    },
    "explain_matmul_cpu": {"en": "runs where its inputs live: the CPU",
                           "ko": "입력이 있는 곳에서 실행된다: CPU"},
    "explain_matmul_gpu": {
        "en": "runs where its inputs live: the GPU (cuBLAS), so both operands must be on the same device",
        "ko": "입력이 있는 곳에서 실행된다: GPU(cuBLAS). 그래서 두 텐서가 같은 장치에 있어야 한다",
    },
    "explain_matmul_simulated": {
        "en": "runs where its inputs live: the simulated GPU (host memory and CPU kernels, no cuBLAS), "
              "so both operands must be on the same device",
        "ko": "입력이 있는 곳에서 실행된다: 시뮬레이션 GPU(호스트 메모리와 CPU 커널, cuBLAS 없음). "
              "그래서 두 텐서가 같은 장치에 있어야 한다",
    },
    "explain_release_gpu": {
        "en": "frees the tensors; empty_cache() hands the now-empty cached blocks back to the driver",
        "ko": "텐서를 해제한다. empty_cache()는 비게 된 캐시 블록을 드라이버에 돌려준다",
    },
    "explain_release_cpu": {"en": "frees the tensors", "ko": "텐서를 해제한다"},
    "failures": {
        "en": "{count} walkthrough step(s) failed: this minitorch lacks a feature they need",
        "ko": "따라 해 보기 {count}단계가 실패했습니다: 이 minitorch에 필요한 기능이 없습니다",
    },
}

_state = {"lang": "en"}


def _t(key, **fields):
    """MESSAGES[key] in the current language, with its {fields} filled."""
    text = MESSAGES[key][_state["lang"]]
    return text.format(**fields) if fields else text


def language_from_environ(environ):
    """'ko' when the locale's messages are Korean, else 'en'. POSIX order: the first of LC_ALL,
    LC_MESSAGES and LANG that is set and not empty decides (LC_ALL=C over LANG=ko_KR is English)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


def _use_language(lang):
    _state["lang"] = lang if lang in LANGUAGES else language_from_environ(os.environ)


def _width(text):
    """Terminal columns of text: Hangul and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _line(label, value, notes=()):
    """`label` padded to LABEL_WIDTH columns, then `value`; each note below it, in parentheses."""
    pad = " " * max(LABEL_WIDTH - _width(label), 0)
    print("{}{} {}".format(label, pad, value))
    for note in [notes] if isinstance(notes, str) else notes:
        print("{} ({})".format(" " * LABEL_WIDTH, note))


def _size(nbytes):
    """Bytes as the tutorial prints them: GiB above 1 GiB, MiB otherwise."""
    if nbytes >= 1024 ** 3:
        return "{:.2f} GiB".format(nbytes / 1024 ** 3)
    return "{:.2f} MiB".format(nbytes / 1024 ** 2)


def _error(exc):
    return "{}: {}".format(type(exc).__name__, exc)


def _version(value):
    """CUDA-style versions: 12080 -> '12.8', 12 -> '12', strings as they are."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 1000:
            return "{}.{}".format(value // 1000, (value % 1000) // 10)
        return str(value)
    return str(value)


# ---- what the build is for -----------------------------------------------------------------------------

def build_facts(module):
    """What the extension `module` (minitorch._C) was built for, as _C._build_info states it:
    {"cuda", "cuda_version", "archs", "ptx", "arch_rule", "built_at"}. An extension without
    _build_info gives what its has_cuda / cuda_version / cuda_archs ("75;80;...") say, with PTX for the
    newest arch (setup.py always adds it) and no rule or date."""
    info = getattr(module, "_build_info", None)
    if isinstance(info, dict):
        archs = [str(a) for a in (info.get("archs") or [])]
        return {
            "cuda": bool(info.get("cuda")),
            "cuda_version": info.get("cuda_version"),
            "archs": archs,
            "ptx": str(info["ptx"]) if info.get("ptx") else None,
            "arch_rule": info.get("arch_rule"),
            "built_at": info.get("built_at"),
        }
    cuda = bool(getattr(module, "has_cuda", False))
    listed = getattr(module, "cuda_archs", "") or ""
    archs = [a.strip() for a in str(listed).split(";") if a.strip()] if cuda else []
    return {
        "cuda": cuda,
        "cuda_version": getattr(module, "cuda_version", None) if cuda else None,
        "archs": archs,
        "ptx": archs[-1] if archs else None,
        "arch_rule": None,
        "built_at": None,
    }


def _arch_number(arch):
    """'86' -> 86, 'sm_90a' -> 90, '120' -> 120; None when it holds no number."""
    match = re.search(r"(\d+)", str(arch))
    return int(match.group(1)) if match else None


def gpu_code_status(capability, archs, ptx, simulated=False):
    """How a GPU of compute capability `capability` ("86" for 8.6) runs a build with machine code
    (SASS) for `archs` and PTX for `ptx`:

    - "simulated": the simulated GPU runs host code; no device code is needed;
    - "sass": the build has machine code the GPU runs: its own arch, or one of the same major version
      and a lower or equal minor (sm_80 code runs on 8.6), as CUDA's binary compatibility allows
      ("90a"-style arch-specific code runs on that arch only);
    - "ptx": no such machine code, but PTX of an arch <= the GPU's, which the driver compiles at
      first use (a slower start);
    - "none": no code the GPU can run: its kernels fail to launch;
    - "unknown": the build lists neither (nothing to judge by)."""
    if simulated:
        return "simulated"
    if not archs and not ptx:
        return "unknown"
    gpu = _arch_number(capability)
    if gpu is None:
        return "unknown"
    for arch in archs:
        number = _arch_number(arch)
        if number is None:
            continue
        specific = str(arch).rstrip().endswith(("a", "f"))
        if number == gpu or (not specific and number // 10 == gpu // 10 and number % 10 <= gpu % 10):
            return "sass"
    number = _arch_number(ptx) if ptx else None
    if number is not None and number <= gpu:
        return "ptx"
    return "none"


def gpu_code_warning(capability, facts, simulated=False):
    """The warning to print under a GPU of compute capability `capability` ("86") for a build
    described by build_facts(), in the current language; None when the build has machine code for it
    (or the GPU is simulated, or there is nothing to judge by)."""
    status = gpu_code_status(capability, facts.get("archs") or [], facts.get("ptx"), simulated)
    if status == "ptx":
        return _t("warn_ptx", cc=capability)
    if status == "none":
        return _t("warn_none", cc=capability)
    return None


# ---- the report ----------------------------------------------------------------------------------------

def _runtime_info():
    """minitorch._C._cuda_runtimeInfo(), or {} when this build lacks it or it fails."""
    try:
        info = _C._cuda_runtimeInfo()
    except Exception:  # noqa: BLE001 - a report line, never a crash
        return {}
    return info if isinstance(info, dict) else {}


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for row in f:
                if row.lower().startswith(("model name", "hardware", "cpu model")):
                    return row.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or _t("unknown")


def _ram():
    """(used, total) bytes of host RAM, from psutil when installed, else /proc/meminfo; or None."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            mem = psutil.virtual_memory()
            return mem.used, mem.total
        except Exception:  # noqa: BLE001
            pass
    try:
        fields = {}
        with open("/proc/meminfo", encoding="ascii", errors="replace") as f:
            for row in f:
                key, _, value = row.partition(":")
                parts = value.split()
                if parts and parts[0].isdigit():
                    fields[key] = int(parts[0]) * 1024
        total = fields["MemTotal"]
        available = fields.get("MemAvailable", fields.get("MemFree", 0))
        return total - available, total
    except (OSError, KeyError):
        return None


# The sentences setup.py records as the rule that chose the GPU architectures, in Korean
RULE_KO = [
    ("the default list (no GPU found on this machine)", "기본 목록 (빌드한 컴퓨터에 GPU가 없음)"),
    ("the GPU of this machine", "빌드한 컴퓨터의 GPU"),
    ("compute capability", "연산 능력"),
    ("; nvcc is older than the GPU, which runs the PTX", "; nvcc가 GPU보다 오래되어 GPU는 PTX를 실행"),
    ("(a host emulation of CUDA, for tests)", "(테스트용으로 호스트에서 흉내 낸 CUDA)"),
]


def _rule_text(rule):
    """The build's rule sentence in the current language."""
    if rule is None:
        return _t("arch_rule_unknown")
    if _state["lang"] == "ko":
        for english, korean in RULE_KO:
            rule = rule.replace(english, korean)
    return rule


def _report_build(facts):
    where = os.path.dirname(os.path.abspath(minitorch.__file__))
    _line("minitorch", "{} ({})".format(getattr(minitorch, "__version__", _t("unknown")), where))
    if not facts["cuda"]:
        _line(_t("label_build"), _t("cuda_build_no"), _t("cuda_build_no_note"))
        _line(_t("label_gpu_code"), _t("gpu_code_none"))
    else:
        _line(_t("label_build"), _t("cuda_build_yes", version=facts["cuda_version"] or "?"))
        sass = ", ".join("sm_" + a for a in facts["archs"]) or _t("gpu_code_none_listed")
        ptx = "compute_" + facts["ptx"] if facts["ptx"] else _t("gpu_code_none_listed")
        _line(_t("label_gpu_code"), _t("gpu_code", sass=sass, ptx=ptx),
              (_t("arch_rule", rule=_rule_text(facts["arch_rule"])), _t("gpu_code_note")))
    _line(_t("label_built_at"), facts["built_at"] or _t("built_at_unknown"))


def _report_cuda_stack(info):
    has_cuda = getattr(_C, "has_cuda", False)
    runtime = _C._cuda_runtimeVersion() if has_cuda else 0
    _line(_t("label_cuda_runtime"), _version(runtime) if runtime else _t("not_in_build"),
          _t("cuda_runtime_note"))
    driver = _C._cuda_driverVersion() if has_cuda else 0
    if driver:
        driver_text = _t("driver_supports", version=_version(driver))
    else:
        driver_text = _t("driver_none") if has_cuda else _t("not_in_build")
    _line(_t("label_driver"), driver_text, _t("driver_note"))
    cublas = _C._cublas_version() if has_cuda else None
    if cublas:
        cublas_text = _version(cublas)
    else:
        cublas_text = _t("cublas_missing") if has_cuda else _t("not_in_build")
    _line("cuBLAS", cublas_text, _t("cublas_note"))
    cudnn = _C._cudnn_version() if has_cuda else None
    if cudnn:
        cudnn_text = _t("cudnn_loaded", version=_cudnn_version_text(cudnn))
    elif has_cuda:
        cudnn_text = _t("cudnn_simulated") if info.get("simulated") else _t("cudnn_missing")
    else:
        cudnn_text = _t("not_in_build")
    _line("cuDNN", cudnn_text, _t("cudnn_note"))


def _cudnn_version_text(value):
    """cudnnGetVersion()'s int as a version: 91002 -> '9.10.2' (cuDNN 9: major * 10000), 8907 -> '8.9.7'."""
    if value >= 90000:
        return "{}.{}.{}".format(value // 10000, (value % 10000) // 100, value % 100)
    return "{}.{}.{}".format(value // 1000, (value % 1000) // 100, value % 100)


def _report_devices(info, facts):
    runtime = info.get("runtime", _t("unknown"))
    simulated = bool(info.get("simulated"))
    config_error = info.get("config_error") or ""
    _line(_t("label_device_runtime"), runtime)
    if config_error:
        _line("", _t("simulate_malformed", error=config_error))
    if simulated:
        _line("", _t("simulated_note"))
    try:
        count = minitorch.cuda.device_count()
    except Exception as exc:  # noqa: BLE001
        _line(_t("label_gpus"), _t("gpus_unknown", error=_error(exc)))
        return
    if count == 0:
        reason = _t("not_available_reason")
        try:
            minitorch.cuda.init()
        except Exception as exc:  # noqa: BLE001 - the reason, in torch's words
            reason = _error(exc)
        _line(_t("label_gpus"), _t("gpus_none", reason=reason), _t("gpus_none_note"))
        return
    _line(_t("label_gpus"), str(count))
    for index in range(count):
        label = _t("label_gpu_n", index=index)
        try:
            props = minitorch.cuda.get_device_properties(index)
            text = _t("gpu_props", name=props.name, major=props.major, minor=props.minor,
                      sms=props.multi_processor_count)
        except Exception as exc:  # noqa: BLE001
            _line(label, _error(exc))
            continue
        try:
            free, total = minitorch.cuda.mem_get_info(index)
            memory = _t("gpu_memory", total=_size(total), free=_size(free))
        except Exception as exc:  # noqa: BLE001
            memory = _t("gpu_memory_error", total=_size(props.total_memory), error=_error(exc))
        _line(label, text)
        _line("", memory + (_t("simulated_suffix") if simulated else ""))
        warning = gpu_code_warning("{}{}".format(props.major, props.minor), facts, simulated)
        if warning:
            _line("", warning)


def _report_host():
    _line("CPU", _t("cpu_cores", model=_cpu_model(), count=os.cpu_count() or "?"))
    ram = _ram()
    if ram is None:
        _line("RAM", _t("ram_unknown"))
    else:
        _line("RAM", _t("ram", used=_size(ram[0]), total=_size(ram[1])))
    _line("Python", "{} ({}, {})".format(platform.python_version(), platform.python_implementation(),
                                          sys.executable))
    _line(_t("label_platform"), platform.platform())


def report(lang=None):
    """Prints the environment report, in `lang` ('en' or 'ko'; default: the locale's). Never raises."""
    _use_language(lang)
    title = _t("report_title")
    print(title)
    print("=" * _width(title))
    info = _runtime_info()
    try:
        facts = build_facts(_C)
    except Exception:  # noqa: BLE001 - a malformed _build_info: report a build that states nothing
        facts = build_facts(None)
    for section in (lambda: _report_build(facts), lambda: _report_cuda_stack(info),
                    lambda: _report_devices(info, facts), _report_host):
        try:
            section()
        except Exception as exc:  # noqa: BLE001 - one broken fact must not hide the others
            _line(_t("label_error"), _error(exc))


# ---- the walkthrough -----------------------------------------------------------------------------------

def _memory():
    try:
        return "memory_allocated={:,} B, memory_reserved={:,} B".format(
            minitorch.cuda.memory_allocated(), minitorch.cuda.memory_reserved())
    except Exception as exc:  # noqa: BLE001
        return "memory: " + _error(exc)


def _simulated():
    try:
        return bool(_C._cuda_isSimulated())
    except Exception:  # noqa: BLE001 - a build without the query: ask the device's name
        try:
            return minitorch.cuda.get_device_name(0) == "minitorch simulated GPU"
        except Exception:  # noqa: BLE001
            return False


def walkthrough(lang=None):
    """Runs the CPU -> GPU -> device mismatch -> matmul steps with a one-line explanation each, in
    `lang` ('en' or 'ko'; default: the locale's). Returns the number of steps that failed (a core
    feature missing), after printing why."""
    _use_language(lang)
    title = _t("walkthrough_title")
    print(title)
    print("=" * _width(title))
    try:
        gpu = minitorch.cuda.is_available()
    except Exception:  # noqa: BLE001
        gpu = False
    simulated = gpu and _simulated()
    failures = 0
    state = {}

    def step(code, explanation, action, raises=None):
        """Prints the code and why (a line or several), runs it, prints its result (or, with raises, the exception it must
        raise, as torch words it) and the allocator's numbers on a GPU. False when it failed."""
        nonlocal failures
        print(">>> " + code)
        for line in [explanation] if isinstance(explanation, str) else explanation:
            print("    # " + line)
        try:
            result = action()
        except Exception as exc:  # noqa: BLE001
            if raises is not None and isinstance(exc, raises):
                print("    " + _error(exc))
                return True
            failures += 1
            print("    " + _t("step_failed", error=_error(exc)))
            return False
        if raises is not None:
            failures += 1
            print("    " + _t("step_failed", error=_t("expected_error")))
            return False
        if result is not None:
            print("    " + str(result))
        if gpu:
            print("    " + _memory())
        return True

    def create():
        minitorch.manual_seed(0)
        state["x"] = minitorch.randn(256, 256)
        return "x.device = {}, x.shape = {}".format(state["x"].device, state["x"].shape)

    if not step("x = torch.randn(256, 256)", _t("explain_create"), create):
        return failures
    if gpu:
        def move():
            state["x"] = state["x"].cuda()
            return "x.device = {}".format(state["x"].device)

        step("x = x.cuda()", _t("explain_move_simulated" if simulated else "explain_move"), move)

        def make_w():
            state["w"] = minitorch.ones(256, 256)
            return "w.device = {}".format(state["w"].device)

        step("w = torch.ones(256, 256)", _t("explain_cpu_tensor"), make_w)
        step("torch.matmul(x, w)", _t("explain_mismatch"),
             lambda: minitorch.matmul(state["x"], state["w"]), raises=RuntimeError)
    else:
        print(">>> torch.cuda.is_available()  # False")
        print("    # " + _t("no_gpu"))
        print("    # " + _t("no_gpu_mismatch"))

    def matmul():
        other = state.get("w")
        other = state["x"] if other is None else other.to(state["x"].device)
        state["y"] = minitorch.matmul(state["x"], other)
        if gpu:
            minitorch.cuda.synchronize()
        return "y.device = {}, y[0][0] = {:.4f}".format(state["y"].device, state["y"].tolist()[0][0])

    if gpu:
        explanation = (_t("explain_fix"),
                       _t("explain_matmul_simulated" if simulated else "explain_matmul_gpu"))
        step("y = torch.matmul(x, w.to(x.device))", explanation, matmul)
    else:
        step("y = torch.matmul(x, x)", _t("explain_matmul_cpu"), matmul)

    def release():
        state.clear()
        if gpu:
            minitorch.cuda.empty_cache()
        return None

    if gpu:
        step("del x, w, y; torch.cuda.empty_cache()", _t("explain_release_gpu"), release)
    else:
        step("del x, y", _t("explain_release_cpu"), release)
    return failures


# ---- the command ---------------------------------------------------------------------------------------

def _parse(args):
    """(command, lang) from the arguments, or None when they are not a valid command line.
    command: 'all', 'env', 'train' or 'help'; lang: 'en', 'ko' or None (the locale's)."""
    command, lang = "all", None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-h", "--help", "help"):
            return "help", lang
        if arg in ("env", "train") and command == "all":
            command = arg
        elif arg == "--lang" and rest:
            lang = rest.pop(0)
            if lang not in LANGUAGES:
                return None
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
            if lang not in LANGUAGES:
                return None
        else:
            return None
    return command, lang


def _make_stdout_fit(lang):
    """Korean needs an encoding with Hangul: a stdout that cannot print it (an ASCII locale) is
    switched to UTF-8 rather than printing question marks."""
    try:
        if lang == "ko":
            "한".encode(sys.stdout.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        try:
            sys.stdout.reconfigure(encoding="utf-8", errors="replace")
        except (AttributeError, ValueError):
            pass


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    parsed = _parse(args)
    if parsed is None:
        _use_language(None)
        sys.stderr.write(_t("usage"))
        return 2
    command, lang = parsed
    _use_language(lang)
    lang = _state["lang"]
    _make_stdout_fit(lang)
    if command == "help":
        print(_t("usage"), end="")
        return 0
    if command == "train":
        from minitorch import _train_demo

        return _train_demo.run(_t)
    report(lang)
    if command == "env":
        return 0
    print()
    failures = walkthrough(lang)
    if failures:
        print("\n" + _t("failures", count=failures))
        return 1
    return 0


if __name__ == "__main__":
    # `python -m minitorch | head`: when the reader goes away, end quietly as command-line tools do
    # (killed by SIGPIPE), not with a BrokenPipeError traceback.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        sys.stdout.reconfigure(errors="replace")
    except (AttributeError, ValueError):
        pass
    sys.exit(main())
