#!/usr/bin/env python3
"""Writes notebooks/gpu_basics.ipynb: the Korean GPU-basics tutorial (sections 1 to 3) as a
Colab-ready notebook for ``import minitorch as torch``, followed by hands-on extras (allocator memory,
device mismatch, nn.Linear on the GPU, CPU vs GPU matmul timing).

The notebook is generated so that it stays reproducible and reviewable: edit the cells here, run
``python scripts/make_notebook.py`` and commit both files. ``--check`` exits 1 when the committed
notebook differs from what this script writes (the tests use it). The output has no outputs or
execution counts and fixed cell ids, so the same script always writes the same bytes. nbformat
validates the result when it is installed; the file is plain JSON either way.

Every cell must run top to bottom on a CPU-only runtime, under MINITORCH_SIMULATE_GPU=1 and on a GPU:
GPU code is guarded with ``torch.cuda.is_available()``. The first code cell (the install) is tagged
``skip-execution`` so headless runs (scripts/run_notebook.py) test the local build instead.

The project's public address is read from one place, ``Repository`` in pyproject.toml's
``[project.urls]`` (``--repository URL`` overrides it). With an address the notebook has the Colab
badge (GitHub addresses) and installs with ``pip install git+URL``; without one it says so and
installs from a copy of the project uploaded to the Colab session. The plot's Korean labels use the
NanumGothic font that the PyPI package koreanize-matplotlib ships (Colab has no Hangul font).
"""

import argparse
import json
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(ROOT, "notebooks", "gpu_basics.ipynb")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
NOTEBOOK_PATH = "notebooks/gpu_basics.ipynb"  # where the notebook lives in the repository
COLAB_BADGE = "https://colab.research.google.com/assets/colab-badge.svg"

CELLS = []


def md(text):
    """A markdown cell: a string, or a function of the project's address (None when it has none)."""
    CELLS.append(("markdown", text, []))


def code(text, tags=()):
    """A code cell: a string, or a function of the project's address (None when it has none)."""
    CELLS.append(("code", text, list(tags)))


def _dedent(text):
    return textwrap.dedent(text).strip("\n")


# ---- the project's address -----------------------------------------------------------------------------

def _toml_urls_fallback(text):
    """The `key = "value"` pairs of pyproject's [project.urls] table, for Pythons without tomllib
    (3.9, 3.10): enough for that table's one-line strings, nothing more."""
    urls, inside = {}, False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line.split("#", 1)[0].replace(" ", "") == "[project.urls]"
            continue
        match = re.match(r"""^(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*=\s*(?:"([^"]*)"|'([^']*)')""", line)
        if inside and match:
            key = match.group(1) or match.group(2)
            urls[key] = match.group(3) if match.group(3) is not None else match.group(4)
    return urls


def project_urls(path=PYPROJECT):
    """pyproject.toml's [project.urls] table, as a dict."""
    with open(path, "rb") as f:
        data = f.read().decode("utf-8")
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        return _toml_urls_fallback(data)
    return dict(tomllib.loads(data).get("project", {}).get("urls", {}))


def repository_url(path=PYPROJECT):
    """The project's public address: the `Repository` key of [project.urls] (the one place it is
    written), or None while the project has no public home."""
    for key, value in project_urls(path).items():
        if key.strip().lower() == "repository" and value.strip():
            return value.strip().rstrip("/")
    return None


def colab_url(repository):
    """The notebook's "Open in Colab" address for a GitHub repository, else None (Colab opens
    notebooks from GitHub only)."""
    match = re.match(r"^https://github\.com/([^/\s]+)/([^/\s]+?)(?:\.git)?/?$", repository or "")
    if not match:
        return None
    return "https://colab.research.google.com/github/{}/{}/blob/main/{}".format(
        match.group(1), match.group(2), NOTEBOOK_PATH)


# ---- title and install -------------------------------------------------------------------------------

def title(repository):
    badge = colab_url(repository)
    if badge:
        where = "[![Open In Colab]({})]({})".format(COLAB_BADGE, badge)
    elif repository:  # Colab opens notebooks from GitHub only
        where = ("> minitorch의 주소: <{}>. 이 노트북을 Colab에서 열려면 파일을 내려받아 Colab에 올리세요"
                 "([파일] → [노트북 업로드]).".format(repository))
    else:
        where = ("> **minitorch는 아직 공개된 주소(저장소)가 없습니다.** 그래서 \"Open in Colab\" 배지도 없습니다.\n"
                 "> 이 노트북 파일을 Colab에 직접 올려서 열고([파일] → [노트북 업로드]), 0장의 안내대로 프로젝트 사본을 올려 설치하세요.")
    return _dedent("""
        # 🎲[AI] GPU 기본 개념 및 Colab에서 GPU 사용하기

        {where}

        > **먼저 런타임을 GPU로 바꾸세요.** Colab 상단 메뉴에서 **[런타임] → [런타임 유형 변경]** 을 누르고
        > **하드웨어 가속기 → GPU** (예: T4)를 고른 뒤 저장합니다. 런타임을 바꾸면 새로 시작되므로 맨 위 셀부터 다시 실행하세요.

        이 노트북은 PyTorch 대신 **minitorch** 를 `import minitorch as torch` 로 불러 씁니다.
        minitorch는 PyTorch와 같은 이름·같은 출력을 내도록 만든 작은 텐서 라이브러리라서, 아래 코드는 `import torch` 로 바꿔도 그대로 동작합니다
        (3장 끝의 minitorch 환경 보고서 셀만 빼고요).

        * GPU가 없는 CPU 런타임에서도 모든 셀이 오류 없이 실행됩니다. GPU가 필요한 부분은 `torch.cuda.is_available()` 로 확인한 뒤 건너뛰었다고 알려 줍니다.
        * GPU 없이 GPU 코드 경로를 체험하려면, minitorch를 import 하기 **전에** 환경 변수 `MINITORCH_SIMULATE_GPU=1` 을 설정하세요
          (노트북에서는 런타임을 다시 시작한 직후 `%env MINITORCH_SIMULATE_GPU=1` 셀을 먼저 실행). 호스트 메모리로 흉내 낸 "minitorch simulated GPU"가 나타납니다.
        """).format(where=where)


def install_text(repository):
    if repository:
        source = _dedent("""
            아래 셀은 minitorch를 [{url}]({url})에서 받아 이 런타임에서 빌드합니다 (`pip install git+{url}`).
            """).format(url=repository)
    else:
        source = _dedent("""
            **minitorch는 아직 공개된 주소(GitHub 저장소 등)가 없어서 `pip install git+...` 로 받을 수 없습니다.**
            대신 갖고 있는 프로젝트 사본을 이 Colab 세션에 올려서 설치합니다.

            1. 프로젝트 폴더(`pyproject.toml`, `setup.py`, `csrc/`, `minitorch/` 가 든 폴더)를 zip 파일 하나로 묶습니다.
            2. Colab 왼쪽의 **[파일]** 패널(폴더 아이콘)에 zip 파일을 끌어다 놓아 `/content` 에 올립니다.
            3. 아래 셀을 실행하면 zip을 풀고, `pyproject.toml` 이 있는 폴더를 찾아 `pip install` 합니다.
            """)
    return _dedent("""
        ## 0. minitorch 설치

        {source}

        GPU 런타임에서는 C 소스와 CUDA 소스를 모두 컴파일하므로 몇 분 걸립니다. 셀은 빌드 단계(설정 → C 소스 → CUDA 소스 → 링크)마다
        `minitorch build:` 로 시작하는 줄을 하나씩 보여 주고, 끝나면 걸린 시간을 출력합니다. 실패하면 로그의 마지막 40줄을 보여 줍니다.
        pip은 원래 빌드 출력을 숨깁니다. 전체 로그(컴파일러 명령 한 줄 한 줄)를 보려면 `pip install -v` 로 설치하세요
        (예: 새 셀에서 `!pip install -v <폴더 또는 주소>`).
        """).format(source=source)


def install_code(repository):
    if repository:
        where = _dedent("""
            if "google.colab" in sys.modules:
                source = "git+{url}"
            else:  # 프로젝트의 notebooks/ 폴더에서 열었을 때는 프로젝트 폴더를 설치합니다
                source = ".."
            """).format(url=repository)
    else:
        where = _dedent("""
            if "google.colab" in sys.modules:
                # minitorch는 아직 공개 주소가 없습니다: [파일] 패널에 올린 zip을 풀고 프로젝트 폴더를 찾습니다
                for archive in glob.glob("*.zip"):  # Colab의 작업 폴더는 /content
                    shutil.unpack_archive(archive, "minitorch-src")
                found = sorted(glob.glob("minitorch-src/pyproject.toml") + glob.glob("minitorch-src/*/pyproject.toml")
                               + glob.glob("*/pyproject.toml"))
                if not found:
                    raise FileNotFoundError("minitorch 프로젝트 폴더를 zip으로 묶어 왼쪽 [파일] 패널에 먼저 올리세요")
                source = os.path.dirname(found[0])
            else:  # 프로젝트의 notebooks/ 폴더에서 열었을 때는 프로젝트 폴더를 설치합니다
                source = ".."
            """)
    return _dedent("""
        # minitorch 설치: 빌드 단계마다 한 줄씩 보여 줍니다
        import glob, os, shutil, subprocess, sys, time

        !pip install -q koreanize-matplotlib  # 그래프의 한글 글꼴 (나눔고딕)

        {where}

        start = time.time()
        log = []
        pip = subprocess.Popen([sys.executable, "-m", "pip", "install", "-v", source],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in pip.stdout:  # -v: pip이 빌드 출력을 보여 줍니다. 그중 단계 줄만 출력
            log.append(line)
            if "minitorch build:" in line:
                print(line.strip(), flush=True)
        if pip.wait() != 0:
            print("".join(log[-40:]))
            raise RuntimeError("minitorch 설치 실패: 위의 로그 마지막 40줄에 원인이 있습니다")
        print(f"minitorch 설치 완료 ({{time.time() - start:.0f}}초)")

        # 실행 환경 확인: Python, CUDA 컴파일러(nvcc), GPU와 드라이버(nvidia-smi)
        !python --version
        !command -v nvcc && nvcc --version || echo "nvcc 없음"
        !command -v nvidia-smi && nvidia-smi || echo "nvidia-smi 없음 (GPU 런타임이 아닙니다)"
        """).format(where=where)


md(title)
md(install_text)
code(install_code, tags=["skip-execution"])

# ---- 1. GPU -----------------------------------------------------------------------------------------

md("""
## 1. GPU

### 1.1 GPU(Graphic Processing Unit)란?

Graphic 처리를 위해 등장한 연산장치로, **수천 개의 코어**로 구성되어 있어 **병렬 연산**에 매우 강력한 장치

#### GPU vs CPU

| 항목 | CPU (Central Processing Unit) | GPU (Graphics Processing Unit) |
|---|---|---|
| 주요 목적 | 범용 연산, 시스템 제어 | 대규모 데이터 병렬 연산 처리 |
| 코어 수 | 적지만 고성능 (수 개 ~ 수십 개) | 많고 단순한 코어 수천 개 |
| 처리 방식 | 직렬 처리(Sequential Processing) | 병렬 처리(Parallel Processing) |
| 단일 작업 성능 | 강함 | 상대적으로 약함 |
| 대규모 연산 성능 | 약함 | 매우 강함 |
| 사용 예시 | OS 실행, 논리 제어, 앱 실행 등 | 딥러닝, 그래픽 처리, 행렬 연산 등 |
| 적합한 작업 | 복잡한 조건문, 분기 처리 | 반복적이고 유사한 연산의 대량 처리 |

> **요약:** CPU는 똑똑한 소수의 작업자, GPU는 단순하지만 많은 작업자

#### TPU(Tensor Processing Unit)

* 구글이 개발한 특수 하드웨어로, 주로 딥러닝과 머신러닝 작업을 최적화하기 위해 설계
* **고속 연산:** TPU는 특히 행렬 연산과 같은 수학적 작업을 빠르게 처리할 수 있어, 딥러닝 모델 학습과 추론에서 높은 성능
* **맞춤형 설계:** CPU나 GPU보다 딥러닝에 특화된 설계로, 텐서 연산에 최적화되어 있음
* 구글은 자사의 TPU 하드웨어 설계를 공개하지 않고(❌), 클라우드 등 서비스 형태로만 제공
""")

md("""
### 1.2 GPU 메모리 (VRAM)란?

텐서, 모델, 연산 중간값을 저장하는 공간 (GPU 내부에 위치)

* VRAM 공간이 부족하면 **OOM(Out of Memory)** 에러 발생
* CPU는 RAM에 데이터를 저장하지만, GPU는 VRAM에 저장
* CPU는 VRAM에 직접 접근 불가, GPU는 RAM에 직접 접근 불가 → 그래서 데이터를 **복사해서 옮겨야** 합니다 (`.cuda()`, `.cpu()`)
""")

# ---- 2. Colab ---------------------------------------------------------------------------------------

md("""
## 2. Google Colab에서 GPU 사용하기

* Google Colab == 웹 브라우저에서 클라우드 CPU/GPU/TPU를 무료로 이용해 Python 코드를 실행할 수 있는 환경

### 2.1 GPU 사용 방법

1. Colab 들어가서 상단 메뉴에서 **[런타임] → [런타임 유형 변경]** 클릭
2. **하드웨어 가속기 → GPU** 선택
3. 이후 아래 코드를 통해 GPU 사용 가능 여부 확인
""")

code("""
import minitorch as torch

print(torch.cuda.is_available())  # True면 GPU 사용 가능

# PyTorch, TensorFlow 등 주류 딥러닝 프레임워크는 초기부터 산업 표준이 되어버린 NVIDIA CUDA를 중심으로 개발됨
""")

md("""
### 2.2 GPU 관련 함수들

PyTorch에서는 연산 대상이 되는 **모든 텐서가 동일한 장치**(device, 예: CPU의 RAM 혹은 GPU의 VRAM)에 있어야 함에 유의해야 한다.
서로 다른 장치(device)에 있는 텐서끼리 연산을 수행하면 오류가 발생한다.

* 데이터 뿐 아니라 **모델도 마찬가지**임!

| 기능 | 코드 예시 | 설명 |
|---|---|---|
| GPU 사용 가능 여부 확인 | `torch.cuda.is_available()` | GPU 사용 가능한 환경인지 확인 |
| 텐서를 GPU로 이동 | `x.cuda()` 또는 `x.to('cuda')` | CPU → GPU |
| 텐서를 CPU로 이동 | `x.cpu()` 또는 `x.to('cpu')` | GPU → CPU |
| 장치 확인 | `x.device` | 텐서의 현재 장치 정보 출력 |
| 장치 일치 필수 | `x + y` 연산 시 | x와 y는 동일 device에 있어야 함 |
| 모델을 GPU로 이동 | `linear.cuda()` | CPU → GPU |
| 모델을 CPU로 이동 | `linear.cpu()` | GPU → CPU |
| 장치 확인 | `linear.device` ❌ | 모델은 현재 장치를 출력하는 기능 ❌ (4.3에서 직접 확인) |
""")

code("""
import minitorch as torch

data = [
    [1, 2],
    [3, 4]
]

# CPU 상의 Tensor 생성
x = torch.tensor(data)
print("초기 상태:", x.is_cuda)  # False

# GPU로 이동
if torch.cuda.is_available():
    x = x.cuda() # copy임
    # x = x.to('cuda')
    print("GPU 이동 후:", x.is_cuda)  # True

    # 다시 CPU로 이동
    x = x.cpu()
    # x = x.to('cpu')
    print("다시 CPU 이동 후:", x.is_cuda)  # False
""")

md("""
아래 셀은 GPU에 있는 `a` 와 CPU에 있는 `b` 를 곱하려다 오류가 나는 예입니다.
원문은 `.cuda()` 를 가드 없이 호출하지만, CPU 런타임에서도 실행되도록 GPU가 있을 때만 `a` 를 GPU로 옮기고,
주석 처리된 오류 줄은 `try`/`except` 안에서 **실제로 실행해** 오류 메시지를 출력합니다.
원문 주석의 메시지(`found at least two devices, ~~`)는 예전 PyTorch의 문구이고, PyTorch 2.8 이후(와 minitorch)는 행렬곱에서
`Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 ...` 처럼 어느 인자가 어디에 있는지 알려 줍니다.
""")

code("""
import minitorch as torch

# GPU 장치의 텐서 (GPU가 없으면 CPU에 그대로 둡니다)
a = torch.tensor([
    [1, 1],
    [2, 2]
])
if torch.cuda.is_available():
    a = a.cuda()

# CPU 장치의 텐서
b = torch.tensor([
    [5, 6],
    [7, 8]
])

# print(torch.matmul(a, b)) # 오류 발생
# RuntimeError: Expected all tensors to be on the same device, but found at least two devices, ~~
if a.is_cuda:
    try:
        print(torch.matmul(a, b))
    except RuntimeError as e:
        print(f"{type(e).__name__}: {e}")
else:
    print("GPU가 없어 a도 CPU에 있으므로 이 오류는 GPU 런타임에서만 볼 수 있습니다.")

print(torch.matmul(a.cpu(), b))
""")

md("""
`cpu()`, `cuda()`는 **새 메모리를 할당**(복사)하므로 메모리 사용량에 유의
""")

code("""
import minitorch as torch

if torch.cuda.is_available():
    x = torch.randn(1000, 1000, device="cuda:0")  # VRAM에 생성
    y = x.cpu()  # RAM에 복사본 생성
    z = y.cuda()  # VRAM에 또 다른 복사본 생성
    # Tip 1: 변수 이름이 같도록 설정하면 가비지 컬렉션으로 정리
    # Tip 2: 사용하지 않는 텐서는 del로 정리하기
    print(x.device, y.device, z.device)
else:
    print("GPU가 없어 건너뜁니다 (4.1에서 이 세 텐서가 쓰는 메모리를 단계별로 살펴봅니다).")
""")

md("""
### 2.3 Tip: 텐서 생성부터 device(CPU, GPU) 지정해버리기
""")

code("""
import minitorch as torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.tensor([[1, 2], [3, 4]], device=device)
print(x.device)  # cuda:0 또는 cpu
""")

md("""
### 2.4 현재 CPU, GPU 메모리 사용량 확인

| 항목 | CPU 메모리 (RAM) | GPU 메모리 (VRAM) |
|---|---|---|
| 위치 | 시스템 전체 메모리 | 그래픽카드 전용 메모리 |
| 역할 | 일반 프로그램 실행 | 그래픽 처리, 딥러닝 연산 |
| 예시 | 엑셀, 브라우저 등 | Tensor, 모델 파라미터 등 |

#### CPU 메모리 사용량 확인

`psutil` 은 Colab에 기본으로 설치되어 있습니다. 없는 환경에서는 Linux의 `/proc` 파일을 직접 읽어 비슷한 값을 구합니다.
""")

code("""
import os
import time

try:
    import psutil
except ImportError:  # psutil이 없으면 /proc/stat, /proc/meminfo를 직접 읽습니다 (Linux)
    psutil = None

if psutil is not None:
    # CPU 사용률 (%)
    print(f"CPU 사용률: {psutil.cpu_percent(interval=1)}%")

    # 메모리 사용 현황
    mem = psutil.virtual_memory()
    print(f"사용 중 메모리: {mem.used / 1024**3:.2f} GB / 전체 {mem.total / 1024**3:.2f} GB")
elif os.path.exists("/proc/meminfo"):
    def cpu_times():
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        return values[3] + values[4], sum(values)  # (idle + iowait, 전체)

    idle0, total0 = cpu_times()
    time.sleep(1)
    idle1, total1 = cpu_times()
    print(f"CPU 사용률: {100 * (1 - (idle1 - idle0) / max(total1 - total0, 1)):.1f}%")

    meminfo = {}
    with open("/proc/meminfo") as f:
        for line in f:
            key, value = line.split(":")
            meminfo[key] = int(value.split()[0]) * 1024  # kB → B
    used = meminfo["MemTotal"] - meminfo["MemAvailable"]
    print(f"사용 중 메모리: {used / 1024**3:.2f} GB / 전체 {meminfo['MemTotal'] / 1024**3:.2f} GB")
else:
    print("psutil이 없습니다: !pip install psutil 후 다시 실행하세요.")
""")

md("""
#### GPU 메모리 사용량 확인

`current_device()` 와 `get_device_name(0)` 은 GPU가 없으면 오류를 내므로 GPU가 있을 때만 부릅니다.
`memory_allocated()` / `memory_reserved()` 는 GPU가 없거나 아직 쓰지 않았으면 0을 돌려줍니다.
""")

code("""
import minitorch as torch

# 사용 가능한 GPU 수
print(torch.cuda.device_count())

if torch.cuda.is_available():
    # 현재 활성화된 GPU ID
    print(torch.cuda.current_device())

    # GPU 이름
    print(torch.cuda.get_device_name(0))

# 실제로 현재 텐서들이 사용하고 있는 메모리 크기
print(f"Allocated: {torch.cuda.memory_allocated() / 1024**2:.2f} MB")

# PyTorch가 미리 확보해둔 총 GPU 메모리 크기 (캐시 포함)
print(f"Reserved : {torch.cuda.memory_reserved() / 1024**2:.2f} MB")
""")

md("""
**or** — `GPUtil` 패키지로도 볼 수 있습니다. GPUtil은 내부에서 `nvidia-smi` 를 실행하므로 실제 NVIDIA GPU가 있는 런타임에서만 동작합니다.
그래서 이 노트북에서는 실행하지 않고 코드만 소개합니다 (GPU 런타임이라면 새 코드 셀에 붙여 넣어 실행해 보세요).

```python
# !pip install gputil
import GPUtil

gpus = GPUtil.getGPUs()
for gpu in gpus:
    print(f"GPU: {gpu.name}")
    print(f"사용률: {gpu.load * 100:.1f}%")
    print(f"메모리 사용량: {gpu.memoryUsed}MB / {gpu.memoryTotal}MB")
```
""")

# ---- 3. CUDA, driver, cuDNN --------------------------------------------------------------------------

md("""
## 3. CUDA, NVIDIA Driver, cuDNN가 뭐지?

### 3.1 CUDA (Compute Unified Device Architecture)

* NVIDIA에서 개발한 GPU를 이용한 병렬 연산을 가능하게 해주는 컴퓨팅 플랫폼 및 프로그래밍 모델
* CUDA는 GPU의 수천 개 코어를 활용해 대규모 데이터를 병렬로 처리할 수 있도록 해준다.
* PyTorch, TensorFlow 등 딥러닝 프레임워크는 CUDA를 통해 GPU 연산을 수행한다.
* ✅ **요약:** GPU 병렬 처리 플랫폼(모델)

### 3.2 NVIDIA Driver

* GPU를 운영체제(OS)에서 인식하고 제어하기 위한 장치 드라이버
* CUDA 및 cuDNN과 같은 라이브러리를 사용하려면 먼저 설치되어 있어야 한다.
* OS ↔ GPU 간의 기본 통신을 담당한다.
* ✅ **요약:** GPU를 작동시키기 위한 필수 드라이버

### 3.3 cuDNN (CUDA Deep Neural Network library)

* NVIDIA가 제공하는 딥러닝 연산 최적화 라이브러리
* CNN, RNN, BatchNorm 등의 연산을 GPU에서 고속 실행할 수 있도록 해준다.
* PyTorch, TensorFlow 등 프레임워크에서 자동으로 사용되며, 성능 향상에 필수적이다.
* ✅ **요약:** 딥러닝 연산을 GPU에서 빠르게 수행하게 해주는 라이브러리

#### 지금 이 런타임은?

minitorch는 cuDNN을 쓰지 않습니다 (합성곱·RNN 층이 없고, GPU 행렬곱은 cuBLAS로 합니다). 대신 위의 정보를 한 번에 보여 주는
보고서를 갖고 있습니다 (터미널에서는 `python -m minitorch env`, 영어로는 `--lang en`).
설치된 minitorch가 어떤 CUDA 버전과 어떤 GPU 아키텍처(SASS 기계어, PTX)로 언제 빌드되었는지, CUDA 런타임·드라이버 버전,
각 GPU의 이름·연산 능력(compute capability)·메모리, CPU, RAM, Python 버전을 출력합니다.
지금 GPU에 맞는 기계어가 빌드에 없으면 어떻게 다시 빌드하면 되는지도 알려 줍니다.
""")

code("""
from minitorch.__main__ import report

report(lang="ko")
""")

# ---- 4. beyond the seed ------------------------------------------------------------------------------

md("""
## 4. 더 알아보기 (실습)

### 4.1 allocated vs reserved vs 장치 전체 메모리

2.2의 `x`, `y`, `z` 를 다시 만들면서, 단계마다 세 가지 숫자를 찍어 봅니다.

* `torch.cuda.memory_allocated()`: **살아 있는 텐서**가 차지하는 바이트 (512 B 단위로 반올림된 블록 크기)
* `torch.cuda.memory_reserved()`: PyTorch의 **캐싱 할당기**(caching allocator)가 드라이버에게서 받아(`cudaMalloc`) 쥐고 있는 바이트 = 텐서 + 캐시
* `torch.cuda.mem_get_info()`: 드라이버가 보는 **장치 전체**의 `(free, total)`. CUDA 컨텍스트, 다른 프로세스까지 포함하며 `nvidia-smi` 의 숫자와 같습니다
""")

code("""
import minitorch as torch

MiB = 1024**2

def show(step):
    allocated = torch.cuda.memory_allocated()
    reserved = torch.cuda.memory_reserved()
    free, total = torch.cuda.mem_get_info()
    print(f"allocated {allocated:>9,} B ({allocated / MiB:4.2f} MiB) | reserved {reserved / MiB:5.2f} MiB"
          f" | 장치 전체 사용 {(total - free) / MiB:9.2f} MiB  ← {step}")

if torch.cuda.is_available():
    # 앞 셀들이 GPU에 남긴 텐서(a, x, z 등)를 지우고 캐시를 비워 0에서 시작합니다.
    for name in ("a", "x", "y", "z"):
        globals().pop(name, None)
    torch.cuda.empty_cache()
    show("시작 (빈 상태)")

    x = torch.randn(1000, 1000, device="cuda:0")  # VRAM에 생성
    show("x = randn(cuda:0)")
    y = x.cpu()  # RAM에 복사본 생성
    show("y = x.cpu()")
    z = y.cuda()  # VRAM에 또 다른 복사본 생성
    show("z = y.cuda()")
    del x
    show("del x")
    torch.cuda.empty_cache()
    show("empty_cache()")
    del z
    show("del z")
    torch.cuda.empty_cache()
    show("empty_cache()")
else:
    print("GPU가 없어 건너뜁니다. GPU 런타임(또는 MINITORCH_SIMULATE_GPU=1)에서 다시 실행해 보세요.")
""")

md("""
GPU에서 실행하면 다음과 같은 숫자가 나옵니다 (다른 텐서가 없는 상태에서 시작했을 때).

| 단계 | allocated | reserved | 이유 |
|---|---|---|---|
| `x = torch.randn(1000, 1000, device="cuda:0")` | 4,000,256 B (3.81 MiB) | 20 MiB | float32 100만 개 = 4,000,000 B → 512 B 단위로 올림. 캐시에 빈 블록이 없으니 할당기가 **20 MiB 세그먼트**를 `cudaMalloc` 으로 한 번에 받아, 앞부분을 x에 주고 나머지 16.19 MiB는 캐시로 보관 |
| `y = x.cpu()` | 3.81 MiB | 20 MiB | 복사본은 RAM에 생기므로 VRAM은 그대로 |
| `z = y.cuda()` | 7.63 MiB | **20 MiB** | 새 `cudaMalloc` 없이 캐시에 남아 있던 16.19 MiB 블록에서 잘라 씀 |
| `del x` | 3.81 MiB | 20 MiB | x의 블록은 할당기의 캐시로 돌아갈 뿐, 드라이버에 반환되지 않음 |
| `torch.cuda.empty_cache()` | 3.81 MiB | 20 MiB | 세그먼트 안에 z가 살아 있어서 반환할 수 있는 "완전히 빈 세그먼트"가 없음 |
| `del z` | 0 | 20 MiB | 빈 블록들이 합쳐져 통째로 빈 20 MiB 세그먼트가 되지만 여전히 캐시에 보관 |
| `torch.cuda.empty_cache()` | 0 | 0 | 이제 빈 세그먼트를 드라이버에 돌려줌 |

**왜 reserved는 계속 20 MiB일까?** `cudaMalloc` / `cudaFree` 는 느리고 GPU 전체를 동기화시키기도 합니다.
그래서 PyTorch(와 minitorch)의 캐싱 할당기는 1 MiB보다 크고 10 MiB보다 작은 요청에 대해 20 MiB짜리 세그먼트를 한 번에 받아 잘라 쓰고
(1 MiB 이하의 작은 텐서는 2 MiB 세그먼트), 텐서가 해제되어도 그 메모리를 캐시에 남겨 다음 할당에 재사용합니다.

* **`del x` 가 하는 일:** 이름 `x` 를 지웁니다. 그 텐서를 가리키는 이름이 더 없으면 텐서의 블록이 **캐시로** 돌아가 allocated가 줄어듭니다.
  하지 않는 일: reserved를 줄이지 않고, 다른 이름(예: `w = x`)이 같은 텐서를 가리키고 있으면 아무것도 해제하지 않습니다.
* **`empty_cache()` 가 하는 일:** 텐서가 하나도 남지 않은 캐시 세그먼트를 드라이버에 돌려줍니다 → reserved와 `nvidia-smi` 의 사용량이 줄어 **다른 프로세스**가 쓸 수 있게 됩니다.
  하지 않는 일: 살아 있는 텐서를 지우지 않으므로 allocated는 그대로이고, 살아 있는 블록이 하나라도 있는 세그먼트는 돌려주지 못합니다.
  같은 프로그램 안에서 쓸 수 있는 메모리를 늘려 주지도 않습니다 (캐시는 원래 재사용되니까요). 자주 부르면 다음 할당 때 다시 `cudaMalloc` 하느라 느려질 뿐입니다.
* **장치 전체 사용(`mem_get_info`)** 은 allocated·reserved보다 큽니다. CUDA 컨텍스트(수백 MiB)와 다른 프로세스가 쓰는 메모리까지 들어가기 때문입니다.
  시뮬레이션 GPU에서는 컨텍스트가 없으므로 reserved와 같은 값이 됩니다.
""")

md("""
### 4.2 장치 불일치(device mismatch) 오류와 해결

연산하는 텐서들이 서로 다른 장치에 있으면 `RuntimeError` 가 납니다. 행렬곱(`matmul`)과 덧셈(`+`)은 오류 문장이 조금 다릅니다.
""")

code("""
import minitorch as torch

if torch.cuda.is_available():
    w = torch.randn(2, 3, device="cuda")  # GPU
    v = torch.randn(3, 2)                 # CPU
    u = torch.randn(2, 3)                 # CPU

    try:
        torch.matmul(w, v)
    except RuntimeError as e:
        print(f"{type(e).__name__}: {e}")

    try:
        w + u
    except RuntimeError as e:
        print(f"{type(e).__name__}: {e}")

    # 해결: 한쪽을 다른 쪽 장치로 옮깁니다 (보통 device를 한 번 정하고 모두 .to(device))
    print(torch.matmul(w, v.to(w.device)).device)  # cuda:0
    print((w + u.cuda()).device)                  # cuda:0

    # 예외: 0차원(스칼라) CPU 텐서는 GPU 텐서와 함께 써도 됩니다
    print((w + torch.tensor(1.0)).device)          # cuda:0
else:
    # GPU가 없는 런타임에서 cuda 텐서를 만들려고 하면 어떤 오류가 나는지 봅니다
    try:
        torch.zeros(1, device="cuda")
    except (AssertionError, RuntimeError) as e:
        print(f"{type(e).__name__}: {e}")
""")

md("""
* 오류 메시지의 `cuda:0 and cpu` / `mat2 is on cpu` 부분이 어느 텐서가 어디에 있는지 알려 줍니다.
* 가장 흔한 해결책은 2.3의 팁처럼 `device` 를 처음에 한 번 정하고, 데이터와 모델을 모두 `.to(device)` 로 옮기는 것입니다.
* 스칼라(0차원) CPU 텐서만은 예외로 허용됩니다. 원소가 1개라도 1차원 텐서(`torch.tensor([1.0])`)는 허용되지 않습니다.
""")

md("""
### 4.3 모델(`nn.Linear`)을 GPU로 옮기기

모델을 GPU로 옮긴다는 것은 **모델의 파라미터(weight, bias) 텐서를 GPU로 옮기는 것**입니다.
`linear.cuda()` 는 파라미터를 제자리에서 옮기고 모델 자신을 돌려주므로 `linear = linear.cuda()` 처럼 다시 대입하지 않아도 됩니다.
""")

code("""
import minitorch as torch

torch.manual_seed(0)
linear = torch.nn.Linear(3, 2)
print(linear)
for name, p in linear.named_parameters():
    print(name, tuple(p.shape), p.device)

if torch.cuda.is_available():
    moved = linear.cuda()  # 파라미터를 GPU로 옮기고 모델 자신을 돌려줌
    print(moved is linear)  # True
    for name, p in linear.named_parameters():
        print(name, p.device)  # cuda:0

    inputs = torch.randn(4, 3)  # CPU 입력 → 모델(GPU)과 장치가 달라 오류
    try:
        linear(inputs)
    except RuntimeError as e:
        print(f"{type(e).__name__}: {e}")
    print(linear(inputs.cuda()).device)  # 입력도 GPU로 옮기면 OK: cuda:0

# 모델에는 .device 속성이 없습니다
try:
    linear.device
except AttributeError as e:
    print(f"{type(e).__name__}: {e}")

# 모델의 장치가 궁금하면 파라미터에게 물어봅니다
print(next(linear.parameters()).device)

linear.cpu()  # 다시 CPU로 (GPU → CPU)
print(next(linear.parameters()).device)  # cpu
""")

md("""
**왜 `linear.device` 는 `AttributeError` 일까?** 모듈은 파라미터를 담는 그릇일 뿐이고, 파라미터마다 다른 장치에 있을 수도 있습니다
(예: 큰 모델을 여러 GPU에 나눠 올릴 때). 그래서 `nn.Module` 에는 "모델의 장치" 라는 속성이 없고,
필요하면 `next(model.parameters()).device` 처럼 파라미터의 장치를 확인합니다.
""")

md("""
### 4.4 CPU vs GPU 행렬곱 속도

n×n 행렬 두 개를 곱하는 시간을 크기별로 잽니다. GPU 시간을 잴 때는 반드시 **`torch.cuda.synchronize()`** 로 앞뒤를 감쌉니다.

* GPU 연산은 **비동기**입니다. `torch.matmul` 은 GPU에 일(커널)을 맡기고 곧바로 돌아오므로,
  동기화 없이 재면 계산 시간이 아니라 "일을 맡기는 시간"만 재게 됩니다.
* 그래서 시작 전에 한 번(앞서 맡긴 일이 끝나길 기다림), 끝난 뒤에 한 번(이번 계산이 정말 끝날 때까지 기다림) `synchronize()` 를 부릅니다.
* 첫 호출은 cuBLAS 라이브러리 로딩, 작업 공간 확보 같은 준비 비용이 들어 있으므로 한 번 먼저 실행(워밍업)한 뒤에 잽니다.
""")

code("""
import time
import minitorch as torch

sizes = [128, 256, 512, 1024, 2048]
devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])

def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()

def time_matmul(n, device, repeat=3):
    a = torch.randn(n, n, device=device)
    b = torch.randn(n, n, device=device)
    torch.matmul(a, b)  # 워밍업
    best = float("inf")
    for _ in range(repeat):
        sync(device)  # 앞서 맡긴 GPU 작업이 끝난 뒤 시작
        start = time.perf_counter()
        torch.matmul(a, b)
        sync(device)  # 이번 행렬곱이 끝날 때까지 기다린 뒤 멈춤
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        if elapsed > 1.0:  # 충분히 오래 걸리면 한 번으로 충분
            break
    return best

times = {device: [time_matmul(n, device) for n in sizes] for device in devices}

names = {"cpu": "CPU", "cuda": "GPU"}
print(f"{'n':>5} | " + " | ".join(f"{names[d]:>4} ms  GFLOP/s" for d in devices)
      + (" | GPU 속도 배율" if "cuda" in times else ""))
for i, n in enumerate(sizes):
    flops = 2 * n**3
    row = " | ".join(f"{times[d][i] * 1e3:7.2f} {flops / times[d][i] / 1e9:8.1f}" for d in devices)
    if "cuda" in times:
        row += f" | {times['cpu'][i] / times['cuda'][i]:9.1f}x"
    print(f"{n:>5} | {row}")

simulated = torch.cuda.is_available() and torch.cuda.get_device_name(0) == "minitorch simulated GPU"
if simulated:
    print("(시뮬레이션 GPU는 호스트 메모리와 CPU 커널로 동작하므로 속도 차이가 없습니다)")
""")

md("""
그래프의 한글은 **나눔고딕** 글꼴로 씁니다. Colab에는 한글 글꼴이 없어서 그냥 그리면 글자가 네모(□)로 깨집니다.
설치 셀에서 받은 `koreanize-matplotlib` 패키지에 이 글꼴 파일이 들어 있어, 아래 셀이 그 파일을 matplotlib에 등록합니다
(한글 글꼴이 없으면 그래프 글자를 영어로 씁니다).
""")

code("""
import importlib.util
import os

try:
    import matplotlib.pyplot as plt
    from matplotlib import font_manager, ticker
except ImportError:
    plt = None


def use_korean_font():
    \"\"\"koreanize-matplotlib 패키지에 든 나눔고딕 글꼴을 matplotlib에 등록합니다. 글꼴이 없으면 False.
    (패키지를 import 하지 않고 글꼴 파일만 씁니다: 그 패키지는 Python 3.12부터 없는 distutils를 불러옵니다.)\"\"\"
    spec = importlib.util.find_spec("koreanize_matplotlib")
    font = os.path.join(os.path.dirname(spec.origin), "fonts", "NanumGothic.ttf") if spec else ""
    if not os.path.exists(font):
        return False
    font_manager.fontManager.addfont(font)
    plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # 나눔고딕에 없는 글자는 DejaVu Sans로
    plt.rcParams["axes.unicode_minus"] = False  # 빼기 기호는 '-'로 (나눔고딕에는 '−'가 없습니다)
    return True


if plt is None:
    print("matplotlib이 없어 그래프 대신 위의 표를 보세요 (!pip install matplotlib).")
else:
    if use_korean_font():
        gpu = "시뮬레이션 GPU" if simulated else "GPU"
        title = f"행렬곱 시간: CPU vs {gpu}" if "cuda" in times else "CPU의 행렬곱 시간 (이 런타임에는 GPU가 없음)"
        xlabel, ylabel = "행렬 크기 n (n×n 행렬 두 개의 곱, float32)", "시간 (ms, 로그 눈금)"
    else:
        print("한글 글꼴이 없어 그래프의 글자를 영어로 씁니다 (!pip install koreanize-matplotlib 후 다시 실행).")
        gpu = "simulated GPU" if simulated else "GPU"
        title = f"matmul time: CPU vs {gpu}" if "cuda" in times else "matmul time on the CPU (no GPU in this runtime)"
        xlabel, ylabel = "n  (n x n @ n x n, float32)", "time (ms, log scale)"

    fig, ax = plt.subplots(figsize=(6, 4))
    for device, marker in zip(devices, "os"):
        ax.plot(sizes, [t * 1e3 for t in times[device]], marker=marker, label="CPU" if device == "cpu" else gpu)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{y:g}"))  # 10⁻¹ 대신 0.1
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    plt.show()
""")

md("""
* 작은 행렬에서는 GPU가 크게 빠르지 않거나 오히려 느릴 수 있습니다. 커널을 띄우는 고정 비용(수 µs)이 계산 시간보다 크기 때문입니다.
* 행렬이 커질수록 수천 개의 코어가 모두 일하게 되어 GPU의 이점이 커집니다 (n³에 비례하는 계산량).
* 이 측정에는 CPU ↔ GPU **복사 시간이 빠져 있습니다** (텐서를 처음부터 GPU에 만들었기 때문). 매번 데이터를 옮기면 이점이 줄어드니,
  데이터와 모델은 GPU에 한 번 올려 두고 계속 쓰는 것이 좋습니다.
""")

# ---- 5. training ---------------------------------------------------------------------------------------

md("""
## 5. 학습하기: 작은 분류기를 CPU와 GPU에서

이제 GPU 위에서 실제로 모델을 **학습**해 봅니다. 학습 한 단계는 언제나 같은 네 줄입니다.

1. **순전파**: `loss = loss_fn(model(x), y)`. 이때 autograd가 연산마다 노드(`grad_fn`)를 기록해 계산 그래프를 만듭니다.
2. **역전파**: `loss.backward()`. 그래프를 거꾸로 따라가며 파라미터마다 `.grad` 를 채웁니다.
3. **갱신**: `optimizer.step()`. `.grad` 로 파라미터를 조금 움직입니다 (여기서는 Adam).
4. **초기화**: `optimizer.zero_grad()`. 다음 단계를 위해 `.grad` 를 비웁니다 (기본값은 `None` 으로 만들기).

데이터는 내려받지 않고 직접 만듭니다: 세 갈래 나선 위의 점 (x, y) 과 그 점이 속한 갈래(0, 1, 2)가 정답입니다.
`DataLoader` 가 매 에포크마다 데이터를 섞어 64개씩 묶어 줍니다.
""")

code("""
import math
import time
import minitorch as torch
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset

def make_spirals(points_per_class=300, classes=3, seed=0):
    torch.manual_seed(seed)
    xs, ys = [], []
    for c in range(classes):
        r = torch.linspace(0.05, 1.0, points_per_class)
        angle = torch.linspace(0.0, 4.0, points_per_class) + c * (2 * math.pi / classes)
        angle = angle + torch.randn(points_per_class) * 0.15
        xs.append(torch.stack([r * angle.sin(), r * angle.cos()], 1))
        ys.append(torch.full((points_per_class,), c, dtype=torch.int64))
    return torch.cat(xs), torch.cat(ys)

X, Y = make_spirals()
print(X.shape, X.dtype, Y.shape, Y.dtype)
""")

code("""
import minitorch as torch
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset

def make_model():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))

def train(device, epochs=15, seed=0):
    torch.manual_seed(seed)                       # 장치와 상관없이 같은 초기 가중치, 같은 배치 순서
    model = make_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)
    losses, seconds = [], []
    for epoch in range(epochs):
        start = time.perf_counter()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)   # 배치를 모델과 같은 장치로
            loss = loss_fn(model(xb), yb)           # 1. 순전파
            optimizer.zero_grad()                   # 4. (이전 단계의) 기울기 비우기
            loss.backward()                         # 2. 역전파
            optimizer.step()                        # 3. 갱신
            total += loss.item() * len(xb)
        if device == "cuda":
            torch.cuda.synchronize()
        seconds.append(time.perf_counter() - start)
        losses.append(total / len(X))
    model.eval()
    with torch.no_grad():
        accuracy = (model(X.to(device)).argmax(1).cpu() == Y).float().mean().item()
    return model, losses, seconds, accuracy

devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
results = {device: train(device) for device in devices}
for device, (model, losses, seconds, accuracy) in results.items():
    print(f"{device:>4}: 손실 {losses[0]:.4f} -> {losses[-1]:.4f}, 에포크당 {sum(seconds) / len(seconds) * 1e3:.1f} ms, "
          f"정확도 {accuracy * 100:.1f}%")
""")

md("""
같은 시드(`torch.manual_seed(0)`)로 시작했으므로 CPU와 GPU의 손실 곡선은 거의 겹칩니다. 작은 모델과 작은 배치에서는
GPU가 빠르지 않습니다: 연산 하나하나가 너무 작아서 커널을 띄우는 고정 비용이 계산 시간보다 크기 때문입니다 (4.4절의 작은 행렬과 같은 이유).
""")

code("""
if plt is None:
    print("matplotlib이 없어 그래프를 그리지 않습니다.")
else:
    korean = use_korean_font()
    names = {"cpu": "CPU", "cuda": ("시뮬레이션 GPU" if korean else "simulated GPU") if simulated else "GPU"}
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
    for device, marker in zip(devices, "os"):
        model, losses, seconds, accuracy = results[device]
        left.plot(range(1, len(losses) + 1), losses, marker=marker, label=names[device])
        right.plot(range(1, len(seconds) + 1), [s * 1e3 for s in seconds], marker=marker, label=names[device])
    left.set_title("에포크별 손실" if korean else "loss per epoch")
    right.set_title("에포크당 시간 (ms)" if korean else "time per epoch (ms)")
    for ax in (left, right):
        ax.set_xlabel("에포크" if korean else "epoch")
        ax.grid(True, alpha=0.3)
        ax.legend()
    plt.show()
""")

md("""
### 5.1 학습 중의 GPU 메모리

순전파는 역전파에 필요한 중간 결과(활성값)를 **저장**해 둡니다. 그래서 `loss.backward()` 전에는 메모리가 늘어 있고,
역전파가 끝나면 저장했던 텐서가 풀려 줄어듭니다. `optimizer.zero_grad()` (기본값 `set_to_none=True`)는 `.grad` 텐서를 놓아 줍니다.
Adam은 파라미터마다 두 개의 상태 텐서(`exp_avg`, `exp_avg_sq`)를 처음 `step()` 할 때 만듭니다.
""")

code("""
import minitorch as torch
from minitorch import nn

def mib(n):
    return f"{n / 2**20:7.3f} MiB"

if torch.cuda.is_available():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 10)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(256, 512, device="cuda")
    y = torch.randint(0, 10, (256,), device="cuda")
    print("파라미터만          ", mib(torch.cuda.memory_allocated()))
    loss = nn.functional.cross_entropy(model(x), y)
    print("순전파 뒤 (활성값 저장)", mib(torch.cuda.memory_allocated()))
    loss.backward()
    print("역전파 뒤 (.grad 생김) ", mib(torch.cuda.memory_allocated()))
    optimizer.step()
    print("첫 step 뒤 (Adam 상태)", mib(torch.cuda.memory_allocated()))
    optimizer.zero_grad()
    del loss
    print("zero_grad 뒤          ", mib(torch.cuda.memory_allocated()))
    print("예약된 메모리 (캐시)   ", mib(torch.cuda.memory_reserved()))
else:
    print("GPU가 없어 건너뜁니다.")
""")

md("""
### 5.2 계산 그래프 그려 보기

`loss.grad_fn` 에서 시작해 `next_functions` 를 따라가면 autograd가 기록한 그래프 전체를 볼 수 있습니다.
아래 함수는 그 그래프를 그림으로 그립니다 (micrograd의 `draw_dot` 과 같은 생각). 잎(leaf) 쪽의 `AccumulateGrad` 는
파라미터의 `.grad` 에 기울기를 더하는 노드입니다.
""")

code("""
import minitorch as torch
from minitorch import nn

def graph_levels(root):
    \"\"\"grad_fn 그래프의 노드를 손실에서의 거리(깊이)별로 모읍니다.\"\"\"
    depth, order, edges = {root: 0}, [root], []
    for node in order:
        for child, _ in node.next_functions:
            if child is None:
                continue
            edges.append((node, child))
            if child not in depth:
                depth[child] = depth[node] + 1
                order.append(child)
    levels = {}
    for node in order:
        levels.setdefault(depth[node], []).append(node)
    return levels, edges

def draw_graph(loss):
    levels, edges = graph_levels(loss.grad_fn)
    for d in sorted(levels):
        print("  " * d + ", ".join(type(n).__name__ for n in levels[d]))
    if plt is None:
        return
    position = {}
    for d, nodes in levels.items():
        for i, node in enumerate(nodes):
            position[node] = ((i + 1) / (len(nodes) + 1), -d)
    fig, ax = plt.subplots(figsize=(7, 0.8 * len(levels) + 1))
    for parent, child in edges:
        (x0, y0), (x1, y1) = position[parent], position[child]
        ax.annotate("", xy=(x1, y1 + 0.15), xytext=(x0, y0 - 0.15), arrowprops=dict(arrowstyle="->", color="gray"))
    for node, (x, y) in position.items():
        leaf = type(node).__name__ == "AccumulateGrad"
        ax.text(x, y, type(node).__name__, ha="center", va="center", fontsize=8,
                bbox=dict(boxstyle="round", fc="#e8f4e8" if leaf else "#e8eef8", ec="gray"))
    ax.set_xlim(0, 1)
    ax.set_ylim(-len(levels), 0.5)
    ax.axis("off")
    plt.show()

small = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 3))
loss = nn.functional.cross_entropy(small(X[:4]), Y[:4])
print(loss)
draw_graph(loss)
""")

md("""
## 정리

* GPU는 단순한 코어 수천 개로 대규모 병렬 연산(행렬곱 등)을 빠르게 처리하고, 데이터는 GPU 전용 메모리(VRAM)에 있어야 합니다.
* `torch.cuda.is_available()` 로 확인하고, `device` 를 한 번 정해 텐서와 모델을 `.to(device)` 로 옮깁니다. 연산하는 텐서는 모두 같은 장치에 있어야 합니다.
* `.cuda()` / `.cpu()` 는 복사본을 만듭니다. `memory_allocated()` 는 텐서가 쓰는 양, `memory_reserved()` 는 캐싱 할당기가 쥐고 있는 양입니다.
* GPU 시간을 잴 때는 `torch.cuda.synchronize()` 를 잊지 마세요.
* 학습 한 단계는 순전파 → `loss.backward()` → `optimizer.step()` → `optimizer.zero_grad()` 입니다. autograd가 순전파를
  기록해 두었다가 역전파에서 거꾸로 따라가며, 그동안 저장된 활성값이 GPU 메모리를 차지합니다.
""")


# ---- writing ----------------------------------------------------------------------------------------

def build_notebook(repository=None):
    """The notebook as a dict, for a project whose public address is `repository` (None: it has
    none, and the notebook says so and installs from an uploaded copy)."""
    cells = []
    for index, (kind, text, tags) in enumerate(CELLS):
        text = text(repository) if callable(text) else _dedent(text)
        cell = {
            "cell_type": kind,
            "id": "cell-{:02d}".format(index),
            "metadata": {"tags": tags} if tags else {},
            "source": text.splitlines(keepends=True),
        }
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "accelerator": "GPU",
            "colab": {"provenance": [], "gpuType": "T4"},
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def render(notebook):
    """The notebook as nbformat writes it (sorted keys, one-space indent, UTF-8 kept)."""
    try:
        import nbformat
    except ImportError:
        nbformat = None
    if nbformat is not None:
        nbformat.validate(nbformat.from_dict(notebook))
    return json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default=DEFAULT_OUTPUT, help="where to write the notebook")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file differs from what would be written")
    parser.add_argument("--repository", metavar="URL",
                        help="the project's public address (default: Repository in pyproject.toml's "
                             "[project.urls]; none there: the notebook installs from an uploaded copy)")
    args = parser.parse_args(argv)
    repository = args.repository.rstrip("/") if args.repository else repository_url()
    if repository and not re.match(r"^https://\S+$", repository):
        parser.error("--repository / [project.urls] Repository must be an https:// address, not %r" % repository)
    text = render(build_notebook(repository))
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("{} is out of date: run python scripts/make_notebook.py".format(args.output))
            return 1
        print("{} is up to date".format(args.output))
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote {} ({} cells)".format(args.output, len(CELLS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
