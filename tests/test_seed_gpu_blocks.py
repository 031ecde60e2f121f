"""The seed tutorial's GPU code blocks (sections 2.1 to 2.4 of the Korean GPU-basics tutorial),
run with `import torch` meaning minitorch, must print what torch prints.

On the simulated GPU (MINITORCH_SIMULATE_GPU=1) the expected text is what torch 2.13 prints on a real
machine with one GPU, written by hand: the memory numbers from reference section 1.3, the device-mismatch
message from section 2.1 (torch >= 2.8 wording), and the simulated GPU's name where the tutorial prints
get_device_name(0). Without a GPU (no simulation) the expected text is torch's CPU build's for a CPU-only
build, and its CUDA build's on a machine without a driver for a CUDA build. Each run is a fresh process, so these tests run in the plain CPU test run too.
The blocks are copied verbatim from the tutorial; a test checks that the project's own notebook
(notebooks/gpu_basics.ipynb) carries every line of them, so the two copies cannot drift apart. Nothing
here reads files outside the repository.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

import minitorch
import parity

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(minitorch.__file__)))
NOTEBOOK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "notebooks",
                        "gpu_basics.ipynb")

# 2.1 GPU 사용 방법
BLOCK_2_1 = """\
import torch

print(torch.cuda.is_available())  # True면 GPU 사용 가능
"""

# 2.2 GPU 관련 함수들 (the tab before "# x = x.to('cuda')" and the trailing blanks are the seed's)
BLOCK_2_2_MOVE = """\
import torch

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
\t# x = x.to('cuda')
    print("GPU 이동 후:", x.is_cuda)  # True

    # 다시 CPU로 이동
    x = x.cpu()
    # x = x.to('cpu')
    print("다시 CPU 이동 후:", x.is_cuda)  # False
    
# GPU 장치의 텐서
a = torch.tensor([
    [1, 1],
    [2, 2]
]).cuda()

# CPU 장치의 텐서
b = torch.tensor([
    [5, 6],
    [7, 8]
])

# print(torch.matmul(a, b)) # 오류 발생
# RuntimeError: Expected all tensors to be on the same device, but found at least two devices, ~~
print(torch.matmul(a.cpu(), b))
    
"""

# 2.2, "cpu(), cuda()는 새 메모리를 할당하므로 메모리 사용량에 유의"
BLOCK_2_2_COPIES = """\
import torch

x = torch.randn(1000, 1000, device="cuda:0")  # VRAM에 생성
y = x.cpu()  # RAM에 복사본 생성
z = y.cuda()  # VRAM에 또 다른 복사본 생성
# Tip 1: 변수 이름이 같도록 설정하면 가비지 컬렉션으로 정리
# Tip 2: 사용하지 않는 텐서는 del로 정리하기
"""

# 2.3 Tip: 텐서 생성부터 device(CPU, GPU) 지정해버리기 (the seed relies on an earlier `import torch`)
BLOCK_2_3 = """\
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.tensor([[1, 2], [3, 4]], device=device)
print(x.device)  # cuda:0 또는 cpu
"""

# 2.4 GPU 메모리 사용량 확인
BLOCK_2_4 = """\
import torch

# 사용 가능한 GPU 수
print(torch.cuda.device_count())

# 현재 활성화된 GPU ID
print(torch.cuda.current_device())

# GPU 이름
print(torch.cuda.get_device_name(0))

# 실제로 현재 텐서들이 사용하고 있는 메모리 크기
print(f"Allocated: {torch.cuda.memory_allocated() / 1024**2:.2f} MB") 

# PyTorch가 미리 확보해둔 총 GPU 메모리 크기 (캐시 포함)
print(f"Reserved : {torch.cuda.memory_reserved() / 1024**2:.2f} MB")
"""

BLOCKS = [BLOCK_2_1, BLOCK_2_2_MOVE, BLOCK_2_2_COPIES, BLOCK_2_3, BLOCK_2_4]

MEMORY = "\nimport torch as _t\nprint('memory', _t.cuda.memory_allocated(), _t.cuda.memory_reserved())\n"

RUNNER = """\
import sys
import {module}
sys.modules['torch'] = {module}
source = sys.stdin.read()
exec(compile(source, '<seed>', 'exec'), {{'__name__': '__main__'}})
"""

MATMUL_MISMATCH = ("RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cpu, "
                   "different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)")


def run_blocks(source, gpus=1, module="minitorch"):
    """Runs source with `import torch` bound to module in a fresh process; returns (stdout, last stderr line)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MINITORCH_")}
    if gpus:
        environ["MINITORCH_SIMULATE_GPU"] = str(gpus)
    environ["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, environ.get("PYTHONPATH")) if p)
    environ["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run([sys.executable, "-c", RUNNER.format(module=module)], input=source,
                            capture_output=True, text=True, encoding="utf-8", env=environ, timeout=300)
    err_lines = result.stderr.strip().splitlines()
    return result.stdout, (err_lines[-1] if err_lines else "")


def expect_clean(source, gpus=1):
    out, err = run_blocks(source, gpus)
    assert err == "", "the block raised: " + err
    return out


# Lines of the blocks that the notebook changes so that it runs on a CPU runtime too, and how.
NOTEBOOK_ADAPTATIONS = {
    "# GPU 장치의 텐서": "# GPU 장치의 텐서 (GPU가 없으면 CPU에 그대로 둡니다)",
    "]).cuda()": "a = a.cuda() under `if torch.cuda.is_available():`",
}


def test_the_notebook_carries_every_line_of_the_blocks():
    with open(NOTEBOOK, encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    code = set()
    for cell in cells:
        if cell["cell_type"] == "code":
            source = cell["source"]
            code |= {line.strip() for line in ("".join(source) if isinstance(source, list) else source).splitlines()}
    for block in BLOCKS:
        for line in block.splitlines():
            line = line.strip().replace("import torch", "import minitorch as torch")
            if line and line not in NOTEBOOK_ADAPTATIONS:
                assert line in code, line
    for line, adapted in NOTEBOOK_ADAPTATIONS.items():
        assert line not in code and any(line in block for block in BLOCKS), (line, adapted)


# ---- on the simulated GPU: what torch prints on a machine with one GPU -------------------------------


def test_2_1_is_available():
    assert expect_clean(BLOCK_2_1) == "True\n"


def test_2_2_moving_a_tensor_and_matmul_on_the_cpu():
    out = expect_clean(BLOCK_2_2_MOVE + MEMORY)
    assert out == textwrap.dedent("""\
        초기 상태: False
        GPU 이동 후: True
        다시 CPU 이동 후: False
        tensor([[12, 14],
                [24, 28]])
        memory 512 2097152
    """)


def test_2_2_the_commented_out_matmul_raises_torchs_error():
    commented = "# print(torch.matmul(a, b)) # 오류 발생"
    source = BLOCK_2_2_MOVE.replace(commented, commented[2:])
    assert source != BLOCK_2_2_MOVE
    out, err = run_blocks(source)
    assert out == "초기 상태: False\nGPU 이동 후: True\n다시 CPU 이동 후: False\n"
    assert err == MATMUL_MISMATCH


def test_2_2_copies_allocate_device_memory():
    # x and z are 4,000,256-byte blocks of one 20 MiB segment; y lives in host memory
    assert expect_clean(BLOCK_2_2_COPIES + MEMORY) == "memory 8000512 20971520\n"


def test_2_3_device_at_creation():
    assert expect_clean("import torch\n" + BLOCK_2_3 + MEMORY) == "cuda:0\nmemory 512 2097152\n"


def test_2_4_memory_report_in_a_fresh_process():
    assert expect_clean(BLOCK_2_4) == textwrap.dedent("""\
        1
        0
        minitorch simulated GPU
        Allocated: 0.00 MB
        Reserved : 0.00 MB
    """)


def test_2_4_memory_report_after_the_copies_block():
    out = expect_clean(BLOCK_2_2_COPIES + BLOCK_2_4)
    # 8,000,512 / 2**20 = 7.63; 20 MiB reserved
    assert out.splitlines()[-2:] == ["Allocated: 7.63 MB", "Reserved : 20.00 MB"]


def test_all_gpu_blocks_in_notebook_order():
    # One process, the blocks in the tutorial's order, as a Colab notebook runs them. Memory at 2.4:
    # 2.2 leaves a (512 bytes, in a 2 MiB small segment); the copies block adds x and z (4,000,256
    # each, one 20 MiB segment); 2.3 rebinds x to a 2x2 int64 (512, same small segment), freeing the
    # randn x: 512 + 4,000,256 + 512 = 4,001,280 bytes = 3.82 MB allocated, 2 + 20 MiB reserved.
    out = expect_clean(BLOCK_2_1 + BLOCK_2_2_MOVE + BLOCK_2_2_COPIES + BLOCK_2_3 + BLOCK_2_4)
    assert out == textwrap.dedent("""\
        True
        초기 상태: False
        GPU 이동 후: True
        다시 CPU 이동 후: False
        tensor([[12, 14],
                [24, 28]])
        cuda:0
        1
        0
        minitorch simulated GPU
        Allocated: 3.82 MB
        Reserved : 22.00 MB
    """)


# ---- without a GPU: what torch's CPU build prints, and its CUDA build without a driver ---------------------

NOT_COMPILED = "AssertionError: minitorch not compiled with CUDA enabled"
NO_DRIVER = "RuntimeError: " + parity.NO_DRIVER

CPU_EXPECTED = [
    ("2.1", BLOCK_2_1, "False\n", ""),
    ("2.2 move", BLOCK_2_2_MOVE, "초기 상태: False\n", NOT_COMPILED),
    ("2.2 copies", BLOCK_2_2_COPIES, "", NOT_COMPILED),
    ("2.3", "import torch\n" + BLOCK_2_3, "cpu\n", ""),
    ("2.4", BLOCK_2_4, "0\n", NOT_COMPILED),
]


def without_a_gpu(err, cuda_build):
    """The error a block ends with on a machine without a GPU: a CPU build's "not compiled with CUDA enabled", a
    CUDA build's (without a driver) "Found no NVIDIA driver ..." in its place."""
    return NO_DRIVER if cuda_build and err == NOT_COMPILED else err


@pytest.mark.skipif(
    minitorch._C.has_cuda and (minitorch._C._cuda_isSimulated() or minitorch._C._cuda_driverVersion() != 0),
    reason="these are the expectations of a CPU-only build and of a CUDA build without a driver; this is a CUDA "
           "build with a driver, which finds a real GPU or says there is none")
@pytest.mark.parametrize("name, source, out, err", CPU_EXPECTED, ids=[c[0] for c in CPU_EXPECTED])
def test_blocks_without_a_gpu(name, source, out, err):
    assert run_blocks(source, gpus=0) == (out, without_a_gpu(err, minitorch._C.has_cuda))


@pytest.fixture(scope="module")
def cpu_torch():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed: the CPU-build expectations are not compared with torch's output")
    if run_blocks(BLOCK_2_1, gpus=0, module="torch") != ("False\n", ""):
        pytest.skip("the installed torch sees a GPU; these expectations are for a machine without one")
    if parity.torch_is_cuda_build() and not parity.no_nvidia_driver():
        pytest.skip("the installed torch is a CUDA build on a machine with a driver and no GPU; the expectations "
                    "are for a CPU build or a machine without a driver")


@pytest.mark.parametrize("name, source, out, err", CPU_EXPECTED, ids=[c[0] for c in CPU_EXPECTED])
def test_cpu_expectations_are_what_torch_prints(cpu_torch, name, source, out, err):
    got_out, got_err = run_blocks(source, gpus=0, module="torch")
    assert (got_out, got_err.replace("Torch", "minitorch")) == (out, without_a_gpu(err, parity.torch_is_cuda_build()))
