"""minitorch.cuda's API (is_available, device_count, current_device, set_device, device, get_device_*,
memory_*, synchronize, mem_get_info, ...) must answer as torch.cuda does: on a CPU-only build as torch's
CPU build does (zeros, no-ops or torch's errors, reference section 2.5), and on a GPU (here the simulated
one) with every accepted spelling of a device: an int, 'cuda', 'cuda:0' or a minitorch.device.

Each table below is evaluated in a fresh process, so it sees the process state a user's first calls
see (CUDA not yet initialised) and runs in the plain CPU test run as well as under simulation. An
outcome is repr(result), or '!! ExceptionType: first line of the message'. The CPU-build table was
printed by torch 2.13.0 (CPU build); where torch names itself, minitorch may say minitorch (see
normalize()). When torch is importable the table is checked against it again.
This file owns the cuda module's API; memory numbers are in test_cuda_memory.py, tensor device
semantics in test_device_semantics.py.
"""

import gc
import json
import os
import re

import pytest

import minitorch
import parity
from parity import torch_is_cuda_build
from subproc import run_python

GiB = 1 << 30


PROBE = """\
import json, sys, warnings
warnings.simplefilter('ignore')
import {module} as torch

def enter(arg):
    with torch.cuda.device(arg):
        return 'entered'

def inside(arg):
    with torch.cuda.device(arg):
        return torch.cuda.current_device()

def enter_of(tensor):
    with torch.cuda.device_of(tensor):
        return 'entered'

outcomes = []
for expr in json.loads(sys.argv[1]):
    try:
        outcomes.append(repr(eval(expr)))
    except Exception as e:
        lines = str(e).splitlines() or ['']
        outcomes.append('!! {{}}: {{}}'.format(type(e).__name__, lines[0]))
print(json.dumps(outcomes))
"""


def probe(exprs, gpus, module="minitorch", env=None):
    """Evaluates each expression in order in one fresh process; returns their outcomes."""
    result = run_python(["-c", PROBE.format(module=module), json.dumps(exprs)], simulate_gpu=gpus, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def normalize(text):
    """torch's self-references and minitorch's compare equal: 'Torch not compiled' (torch) and
    'minitorch not compiled' (minitorch), 'torch._C' and 'minitorch._C', 'PyTorch was compiled ...'."""
    return text.replace("minitorch", "torch").replace("PyTorch", "torch").replace("Torch", "torch")


def check_table(table, outcomes):
    assert len(outcomes) == len(table)
    wrong = ["{}\n    want {}\n    got  {}".format(expr, want, got)
             for (expr, want), got in zip(table, outcomes) if normalize(got) != normalize(want)]
    assert not wrong, "\n".join(wrong)


NOT_COMPILED = "!! AssertionError: minitorch not compiled with CUDA enabled"
NO_ACCELERATOR = "!! RuntimeError: Cannot access accelerator device when none is available."

# Printed by torch 2.13.0+cpu, messages written in minitorch's words.
CPU_BUILD_TABLE = [
    ("torch.cuda.is_available()", "False"),
    ("torch.cuda.device_count()", "0"),
    ("torch.cuda.is_initialized()", "False"),
    ("torch.cuda.current_device()", NOT_COMPILED),
    ("torch.cuda.init()", NOT_COMPILED),
    ("torch.cuda.get_device_name()", NOT_COMPILED),
    ("torch.cuda.get_device_name(0)", NOT_COMPILED),
    ("torch.cuda.get_device_name('cuda:0')", NOT_COMPILED),
    ("torch.cuda.get_device_properties(0)", NOT_COMPILED),
    ("torch.cuda.get_device_properties(-1)", NOT_COMPILED),
    ("torch.cuda.get_device_capability()", NOT_COMPILED),
    ("torch.cuda.get_arch_list()", "[]"),
    ("torch.cuda.memory_allocated()", "0"),
    ("torch.cuda.memory_allocated(0)", "0"),
    ("torch.cuda.memory_allocated('cuda:0')", "0"),
    ("torch.cuda.memory_allocated(torch.device('cuda'))", "0"),
    ("torch.cuda.memory_allocated('cpu')", "0"),
    ("torch.cuda.memory_allocated(-1)", "0"),
    ("torch.cuda.memory_reserved()", "0"),
    ("torch.cuda.memory_reserved(0)", "0"),
    ("torch.cuda.max_memory_allocated()", "0"),
    ("torch.cuda.max_memory_reserved(0)", "0"),
    ("torch.cuda.memory_cached()", "0"),
    ("torch.cuda.max_memory_cached()", "0"),
    ("torch.cuda.memory_stats()", "OrderedDict()"),
    ("torch.cuda.memory_stats(0)", "OrderedDict()"),
    ("torch.cuda.empty_cache()", "None"),
    ("torch.cuda.reset_peak_memory_stats()",
     "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_resetPeakMemoryStats'"),
    ("torch.cuda.reset_peak_memory_stats(0)",
     "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_resetPeakMemoryStats'"),
    ("torch.cuda.reset_accumulated_memory_stats()",
     "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_resetAccumulatedMemoryStats'"),
    ("torch.cuda.memory_summary()", "!! KeyError: 'allocated_bytes.all.current'"),
    ("torch.cuda.memory_summary(0)", "!! KeyError: 'allocated_bytes.all.current'"),
    ("torch.cuda.synchronize()", NOT_COMPILED),
    ("torch.cuda.synchronize(0)", NOT_COMPILED),
    ("torch.cuda.mem_get_info()", NOT_COMPILED),
    ("torch.cuda.mem_get_info(0)", NOT_COMPILED),
    ("torch.cuda.set_device(0)", "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_setDevice'"),
    ("torch.cuda.set_device('cuda:0')", "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_setDevice'"),
    ("torch.cuda.set_device(torch.device('cuda', 1))",
     "!! AttributeError: module 'minitorch._C' has no attribute '_cuda_setDevice'"),
    ("torch.cuda.set_device(-1)", "None"),
    ("torch.cuda.set_device('cuda')",
     "!! ValueError: Expected a torch.device with a specified index or an integer, but got:cuda"),
    ("torch.cuda.set_device(torch.device('cuda'))",
     "!! ValueError: Expected a torch.device with a specified index or an integer, but got:cuda"),
    ("torch.cuda.set_device('cpu')", "!! ValueError: Expected a cuda device, but got: cpu"),
    ("enter(0)", "!! RuntimeError: minitorch was compiled without CUDA support"),
    ("enter('cuda:0')", "!! RuntimeError: minitorch was compiled without CUDA support"),
    ("enter(-1)", "'entered'"),
    ("enter_of(torch.zeros(1))", "'entered'"),
    ("torch.cuda.is_initialized()", "False"),
    ("torch.cuda.OutOfMemoryError is torch.OutOfMemoryError", "True"),
    ("issubclass(torch.OutOfMemoryError, RuntimeError)", "True"),
    ("issubclass(torch.AcceleratorError, RuntimeError)", "True"),
    ("torch.zeros(2).cuda()", NOT_COMPILED),
    ("torch.zeros(2).cuda(device=None)", NOT_COMPILED),
    ("torch.zeros(2).cuda(non_blocking=True)", NOT_COMPILED),
    ("torch.zeros(2).cuda('cuda:7')", NOT_COMPILED),
    ("torch.zeros(2).cuda(0)", NO_ACCELERATOR),
    ("torch.zeros(2).cuda('cpu')", "!! RuntimeError: Invalid device, must be cuda device"),
    ("torch.zeros(2).cuda(torch.device('cpu'))", "!! RuntimeError: Invalid device, must be cuda device"),
    ("torch.zeros(2).to('cuda')", NOT_COMPILED),
    ("torch.zeros(2).to('cuda:0')", NOT_COMPILED),
    ("torch.zeros(2).to(torch.device('cuda'))", NOT_COMPILED),
    ("torch.zeros(2).to('cuda', torch.float64)", NOT_COMPILED),
    ("torch.zeros(2).to('cuda:7')", NOT_COMPILED),
    ("torch.zeros(2).to(0)", NO_ACCELERATOR),
    ("torch.zeros(2, device=0)", NO_ACCELERATOR),
    ("torch.zeros(2, device='cuda')", NOT_COMPILED),
    ("torch.ones(2, device='cuda:0')", NOT_COMPILED),
    ("torch.tensor([1, 2], device='cuda')", NOT_COMPILED),
    ("torch.randn(2, device='cuda')", NOT_COMPILED),
    ("torch.arange(3, device='cuda')", NOT_COMPILED),
    ("torch.empty(0, device='cuda')", NOT_COMPILED),
    ("torch.device('cuda:7')", "device(type='cuda', index=7)"),
    ("torch.zeros(2).cpu().device", "device(type='cpu')"),
    ("torch.zeros(2).to(torch.zeros(1)).device", "device(type='cpu')"),
    ("torch.zeros(2).is_cuda", "False"),
    ("torch.zeros(2).get_device()", "-1"),
    ("torch.cuda.is_initialized()", "False"),
]

cpu_build_only = pytest.mark.skipif(
    minitorch._C.has_cuda, reason="checks of a CPU-only build (MINITORCH_CUDA=0; CI builds one)")


@pytest.fixture(scope="module")
def cpu_build_outcomes():
    return probe([expr for expr, _ in CPU_BUILD_TABLE], gpus=0)


@cpu_build_only
@pytest.mark.parametrize("row", range(len(CPU_BUILD_TABLE)), ids=[expr for expr, _ in CPU_BUILD_TABLE])
def test_cpu_build_without_simulation_behaves_like_torchs_cpu_build(cpu_build_outcomes, row):
    check_table(CPU_BUILD_TABLE[row:row + 1], cpu_build_outcomes[row:row + 1])


def test_cpu_build_table_is_what_torch_prints():
    pytest.importorskip("torch")
    if torch_is_cuda_build():
        pytest.skip("the installed torch is a CUDA build; the table is its CPU build's (the test below compares "
                    "a CUDA build's answers)")
    exprs = [expr for expr, _ in CPU_BUILD_TABLE]
    outcomes = probe(exprs, gpus=0, module="torch")
    if outcomes[0] != "False":
        pytest.skip("the installed torch sees a GPU; the table is for torch's CPU build")
    check_table(CPU_BUILD_TABLE, outcomes)


NO_DRIVER = "!! RuntimeError: " + parity.NO_DRIVER

# Rows of the table above whose answers in a CUDA build without a GPU are allowed to differ from torch's CUDA
# build: the architectures each build compiled for, and torch's message that prints a device index as a char
# (index 0 ends it: "Invalid device argument ").
CUDA_BUILD_OWN_ANSWERS = {"torch.cuda.get_arch_list()", "torch.cuda.reset_peak_memory_stats(0)"}


@pytest.mark.skipif(not minitorch._C.has_cuda or minitorch._C._cuda_isSimulated()
                    or minitorch._C._cuda_driverVersion() != 0,
                    reason="needs a CUDA build of minitorch on a machine without an NVIDIA driver")
def test_cuda_build_without_a_driver_answers_as_torchs():
    # the CPU build's table, asked of torch's CUDA build and of minitorch's on the same machine: the answers must
    # be the same (the no-driver error where the CPU build says "not compiled with CUDA enabled")
    pytest.importorskip("torch")
    if not torch_is_cuda_build():
        pytest.skip("the installed torch is a CPU build; this compares CUDA builds (the test above compares CPU "
                    "builds)")
    exprs = [expr for expr, _ in CPU_BUILD_TABLE if expr not in CUDA_BUILD_OWN_ANSWERS]
    theirs = probe(exprs, gpus=0, module="torch")
    check_table(list(zip(exprs, theirs)), probe(exprs, gpus=0))
    assert theirs[exprs.index("torch.zeros(2).cuda()")] == NO_DRIVER


@pytest.mark.skipif(not minitorch._C.has_cuda, reason="needs a CUDA build of minitorch")
def test_cuda_build_with_no_visible_gpu():
    # with a driver and no visible GPU torch says "No CUDA GPUs are available"; without any driver (the
    # CUDA runtime's error 35 and driver version 0) it says it found no driver
    no_gpu = NO_DRIVER if minitorch._C._cuda_driverVersion() == 0 else "!! RuntimeError: No CUDA GPUs are available"
    table = [
        ("torch.cuda.is_available()", "False"),
        ("torch.cuda.device_count()", "0"),
        ("torch.cuda.memory_allocated()", "0"),
        ("torch.cuda.empty_cache()", "None"),
        ("torch.cuda.current_device()", no_gpu),
        ("torch.zeros(1, device='cuda')", no_gpu),
        ("torch.zeros(1).cuda()", no_gpu),
        ("torch.cuda.reset_peak_memory_stats()", "!! RuntimeError: invalid argument to reset_peak_memory_stats"),
        ("torch.cuda.is_initialized()", "False"),
    ]
    check_table(table, probe([e for e, _ in table], gpus=0, env={"CUDA_VISIBLE_DEVICES": ""}))


INVALID_ORDINAL = "!! AcceleratorError: CUDA error: invalid device ordinal"
SIM_NAME = "'minitorch simulated GPU'"

# What torch prints on a machine with one GPU, the simulated GPU's name and memory put in.
SIMULATED_TABLE = [
    ("torch.cuda.is_initialized()", "False"),
    ("torch.cuda.memory_allocated()", "0"),
    ("torch.cuda.memory_stats()", "OrderedDict()"),
    ("torch.cuda.empty_cache()", "None"),
    ("torch.cuda.is_available()", "True"),
    ("torch.cuda.device_count()", "1"),
    ("torch.device('cuda:7')", "device(type='cuda', index=7)"),
    ("torch.cuda.is_initialized()", "False"),
    ("torch.cuda.current_device()", "0"),
    ("torch.cuda.is_initialized()", "True"),
    ("torch.cuda.init()", "None"),
    ("torch.cuda.get_device_name()", SIM_NAME),
    ("torch.cuda.get_device_name(0)", SIM_NAME),
    ("torch.cuda.get_device_name('cuda:0')", SIM_NAME),
    ("torch.cuda.get_device_name('cuda')", SIM_NAME),
    ("torch.cuda.get_device_name(torch.device('cuda', 0))", SIM_NAME),
    ("torch.cuda.get_device_name(1)", "!! AssertionError: Invalid device id"),
    ("torch.cuda.get_device_name(-1)", "!! AssertionError: Invalid device id"),
    ("torch.cuda.get_device_name('cuda:7')", "!! AssertionError: Invalid device id"),
    ("torch.cuda.get_device_name('cpu')", "!! ValueError: Expected a cuda device, but got: cpu"),
    ("torch.cuda.get_device_properties(0).name", SIM_NAME),
    ("torch.cuda.get_device_properties('cuda:0').total_memory", str(16 * GiB)),
    ("torch.cuda.get_device_capability() == torch.cuda.get_device_capability(0) == "
     "(torch.cuda.get_device_properties(0).major, torch.cuda.get_device_properties(0).minor)", "True"),
    ("torch.cuda.memory_allocated(0)", "0"),
    ("torch.cuda.memory_allocated('cuda:0')", "0"),
    ("torch.cuda.memory_allocated('cuda')", "0"),
    ("torch.cuda.memory_allocated(torch.device('cuda'))", "0"),
    ("torch.cuda.memory_allocated(torch.device('cuda', 0))", "0"),
    ("torch.cuda.memory_allocated('cpu')", "!! ValueError: Expected a cuda device, but got: cpu"),
    ("torch.cuda.memory_allocated(7)", "!! RuntimeError: Invalid device argument 7: did you call init?"),
    ("torch.cuda.memory_reserved(0)", "0"),
    ("torch.cuda.max_memory_allocated('cuda:0')", "0"),
    ("torch.cuda.max_memory_reserved(torch.device('cuda:0'))", "0"),
    ("len(torch.cuda.memory_stats(0)) == len(torch.cuda.memory_stats('cuda:0')) == 123", "True"),
    ("torch.cuda.reset_peak_memory_stats()", "None"),
    ("torch.cuda.reset_peak_memory_stats(0)", "None"),
    ("torch.cuda.reset_peak_memory_stats('cuda:0')", "None"),
    ("torch.cuda.reset_peak_memory_stats(torch.device('cuda'))", "None"),
    ("torch.cuda.memory_summary(0) == torch.cuda.memory_summary('cuda:0') == torch.cuda.memory_summary()", "True"),
    ("torch.cuda.memory_summary(torch.device('cuda', 0), abbreviated=True).count('\\n')", "29"),
    ("torch.cuda.synchronize()", "None"),
    ("torch.cuda.synchronize(0)", "None"),
    ("torch.cuda.synchronize('cuda')", "None"),
    ("torch.cuda.synchronize('cuda:0')", "None"),
    ("torch.cuda.synchronize(torch.device('cuda:0'))", "None"),
    ("torch.cuda.synchronize(7)", INVALID_ORDINAL),
    ("torch.cuda.mem_get_info()", "({0}, {0})".format(16 * GiB)),
    ("torch.cuda.mem_get_info(0)", "({0}, {0})".format(16 * GiB)),
    ("torch.cuda.mem_get_info('cuda:0')", "({0}, {0})".format(16 * GiB)),
    ("torch.cuda.mem_get_info(torch.device('cuda'))", "({0}, {0})".format(16 * GiB)),
    ("torch.cuda.set_device(0)", "None"),
    ("torch.cuda.set_device('cuda:0')", "None"),
    ("torch.cuda.set_device(torch.device('cuda', 0))", "None"),
    ("torch.cuda.set_device(-1)", "None"),
    ("torch.cuda.set_device('cuda')",
     "!! ValueError: Expected a torch.device with a specified index or an integer, but got:cuda"),
    ("torch.cuda.set_device('cpu')", "!! ValueError: Expected a cuda device, but got: cpu"),
    ("torch.cuda.set_device(7)", INVALID_ORDINAL),
    ("torch.cuda.set_device('cuda:1')", INVALID_ORDINAL),
    ("torch.cuda.current_device()", "0"),
    ("inside(0)", "0"),
    ("inside(-1)", "0"),
    ("inside(None)", "0"),
    ("inside('cuda:0')", "0"),
    ("inside(torch.device('cuda'))", "0"),
    ("inside(7)", INVALID_ORDINAL),
    ("enter_of(torch.zeros(1))", "'entered'"),
    ("enter_of(torch.zeros(1, device='cuda'))", "'entered'"),
    ("torch.cuda.current_device()", "0"),
    ("torch.zeros(2).cuda(0).device", "device(type='cuda', index=0)"),
    ("torch.zeros(2).cuda('cuda').device", "device(type='cuda', index=0)"),
    ("torch.zeros(2).cuda(torch.device('cuda', 0)).device", "device(type='cuda', index=0)"),
    ("torch.zeros(2).cuda(device=None, non_blocking=False).device", "device(type='cuda', index=0)"),
    ("torch.zeros(2).to(0).device", "device(type='cuda', index=0)"),
    ("torch.zeros(2, device=0).device", "device(type='cuda', index=0)"),
    ("torch.zeros(2).cuda('cpu')", "!! RuntimeError: Invalid device, must be cuda device"),
    ("torch.zeros(2).cuda(7)", INVALID_ORDINAL),
    ("torch.zeros(2).to('cuda:7')", INVALID_ORDINAL),
    ("torch.zeros(2, device='cuda:1')", INVALID_ORDINAL),
    ("torch.tensor([1, 2], device='cuda:7')", INVALID_ORDINAL),
    ("torch.randn(2, device=torch.device('cuda', 7))", INVALID_ORDINAL),
    ("torch.cuda.memory_allocated()", "0"),
]


@pytest.fixture(scope="module")
def simulated_outcomes():
    return probe([expr for expr, _ in SIMULATED_TABLE], gpus=1)


@pytest.mark.parametrize("row", range(len(SIMULATED_TABLE)), ids=[expr for expr, _ in SIMULATED_TABLE])
def test_simulated_gpu_api_accepts_every_device_spelling(simulated_outcomes, row):
    # rows run in order in one process: each row's expectation assumes the rows above it ran
    check_table(SIMULATED_TABLE[row:row + 1], simulated_outcomes[row:row + 1])


def test_simulated_memory_size_setting():
    table = [
        ("torch.cuda.get_device_properties(0).total_memory", str(GiB)),
        ("torch.cuda.mem_get_info()", "({0}, {0})".format(GiB)),
    ]
    check_table(table, probe([e for e, _ in table], gpus=1, env={"MINITORCH_SIMULATE_GPU_MEMORY": "1GiB"}))


def test_device_properties_repr():
    (text,) = probe(["repr(torch.cuda.get_device_properties(0))"], gpus=1)
    text = eval(text)
    # torch/csrc/cuda/Module.cpp: total_memory and L2_cache_size in whole MiB, uuid as 8-4-4-4-12 hex
    pattern = (r"_CudaDeviceProperties\(name='minitorch simulated GPU', major=\d+, minor=\d+, "
               r"total_memory=16384MB, multi_processor_count=\d+, "
               r"uuid=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}, L2_cache_size=\d+MB\)")
    assert re.fullmatch(pattern, text), text


def test_initialization_is_lazy_and_triggered_by_first_use():
    table = [
        ("torch.cuda.is_initialized()", "False"),
        ("torch.zeros(2).device", "device(type='cpu')"),
        ("torch.cuda.is_available(), torch.cuda.device_count()", "(True, 1)"),
        ("torch.cuda.memory_reserved(), torch.cuda.max_memory_reserved()", "(0, 0)"),
        ("torch.cuda.is_initialized()", "False"),
        ("torch.zeros(2).cuda().device", "device(type='cuda', index=0)"),
        ("torch.cuda.is_initialized()", "True"),
    ]
    check_table(table, probe([e for e, _ in table], gpus=1))


def test_malformed_simulation_setting_is_an_error_at_first_use_not_at_import():
    table = [
        ("torch.cuda.is_available()", "False"),
        ("torch.cuda.device_count()", "0"),
        ("torch.zeros(2).device", "device(type='cpu')"),
    ]
    check_table(table, probe([e for e, _ in table], gpus="abc"))
    (outcome,) = probe(["torch.zeros(1, device='cuda')"], gpus="abc")
    assert outcome.startswith("!! RuntimeError: minitorch simulated GPU: ")
    assert "MINITORCH_SIMULATE_GPU='abc' is not a device count" in outcome


# ---- in this process, on whatever device the run has --------------------------------------------------


@pytest.fixture
def cuda():
    if not minitorch.cuda.is_available():
        if os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail("MINITORCH_REQUIRE_GPU=1 but no CUDA device is available")
        pytest.skip("no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")
    return "cuda"


def test_device_context_manager_restores_the_current_device(cuda):
    torch = minitorch
    before = torch.cuda.current_device()
    with torch.cuda.device(0):
        assert torch.cuda.current_device() == 0
        with torch.cuda.device(None):
            assert torch.cuda.current_device() == 0
        with torch.cuda.device(-1):
            assert torch.cuda.current_device() == 0
        assert torch.zeros(1, device="cuda").device == torch.device("cuda", 0)
    assert torch.cuda.current_device() == before


def test_device_context_manager_exits_cleanly_on_an_exception(cuda):
    torch = minitorch
    with pytest.raises(KeyError):
        with torch.cuda.device("cuda:0"):
            raise KeyError("inside")
    assert torch.cuda.current_device() == 0


def test_synchronize_waits_for_pending_work(cuda):
    torch = minitorch
    x = torch.ones(1000, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.synchronize(x.device)
    assert x.cpu().tolist() == [1.0] * 1000


def test_memory_functions_return_ints(cuda):
    torch = minitorch
    x = torch.ones(10, device="cuda")
    for fn in (torch.cuda.memory_allocated, torch.cuda.memory_reserved, torch.cuda.max_memory_allocated,
               torch.cuda.max_memory_reserved):
        for arg in ((), (0,), ("cuda:0",), (torch.device("cuda"),), (x.device,)):
            value = fn(*arg)
            assert type(value) is int and value >= 512
    free, total = torch.cuda.mem_get_info()
    assert type(free) is int and type(total) is int and 0 < free <= total
    assert total == torch.cuda.get_device_properties(0).total_memory
    del x


def test_mem_get_info_sees_reserved_memory_on_the_simulated_gpu(cuda):
    torch = minitorch
    if not torch._C._cuda_isSimulated():
        pytest.skip("a real GPU's free memory also moves with other processes")
    gc.collect()
    torch.cuda.empty_cache()
    free0, total = torch.cuda.mem_get_info()
    reserved0 = torch.cuda.memory_reserved()
    assert free0 == total - reserved0
    big = torch.empty(33 * 2**19, device="cuda")  # 66 MiB: a new segment of its own
    assert torch.cuda.memory_reserved() - reserved0 == 66 * 2**20
    assert torch.cuda.mem_get_info() == (free0 - 66 * 2**20, total)
    del big
    torch.cuda.empty_cache()
    assert torch.cuda.mem_get_info() == (total - torch.cuda.memory_reserved(), total)


def test_get_device_name_on_the_simulated_gpu(cuda):
    torch = minitorch
    if not torch._C._cuda_isSimulated():
        pytest.skip("a real GPU has its own name")
    assert torch.cuda.get_device_name() == "minitorch simulated GPU"
    assert torch.cuda.get_device_name(0) == torch.cuda.get_device_properties("cuda:0").name


def test_out_of_memory_error_is_a_runtime_error():
    assert minitorch.cuda.OutOfMemoryError is minitorch.OutOfMemoryError
    assert issubclass(minitorch.OutOfMemoryError, RuntimeError)
    assert issubclass(minitorch.AcceleratorError, RuntimeError)
    assert not issubclass(minitorch.OutOfMemoryError, minitorch.AcceleratorError)


def test_public_names_of_the_cuda_module():
    for name in ("is_available", "device_count", "current_device", "set_device", "device", "device_of",
                 "get_device_name", "get_device_properties", "get_device_capability", "memory_allocated",
                 "memory_reserved", "max_memory_allocated", "max_memory_reserved", "reset_peak_memory_stats",
                 "empty_cache", "mem_get_info", "memory_stats", "memory_summary", "synchronize",
                 "is_initialized", "OutOfMemoryError", "init"):
        assert hasattr(minitorch.cuda, name), name
