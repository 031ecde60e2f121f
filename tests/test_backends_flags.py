"""minitorch.backends' switches beyond cuda.matmul: torch.backends.cudnn's flags (recorded, with torch's
defaults, bool checks, messages, flags() and disable_global_flags), mps, cpu's capability, and mkldnn,
mkl and openmp, which minitorch truthfully reports as absent (torch's builds have them).

Each table runs in a fresh process (a flag set by one test must not leak into another) and, where torch
is importable and a CPU build, is checked against torch 2.13's CPU build, which has no cuDNN either.
"""

import pytest

import minitorch
import parity
from subproc import run_python
from test_cuda_api import check_table, probe

SETUP = ("torch.backends.cudnn.enabled, torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic, "
         "torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark_limit")

# Printed by torch 2.13.0+cpu.
FLAGS_TABLE = [
    (SETUP, "(True, False, False, True, None)"),
    ("torch.backends.cudnn.is_available()", "False"),
    ("torch.backends.cudnn.version()", "None"),
    ("torch.backends.cudnn.is_acceptable(torch.zeros(2))", "False"),
    ("torch.backends.cudnn.is_acceptable(torch.zeros(2, dtype=torch.int64))", "False"),
    ("torch.backends.cudnn.is_acceptable(3)", "!! AttributeError: 'int' object has no attribute 'device'"),
    ("type(torch.backends.cudnn).__name__", "'CudnnModule'"),
    ("setattr(torch.backends.cudnn, 'enabled', 1)", "!! RuntimeError: set_enabled_cudnn expects a bool, but got int"),
    ("setattr(torch.backends.cudnn, 'enabled', 'x')", "!! RuntimeError: set_enabled_cudnn expects a bool, but got str"),
    ("setattr(torch.backends.cudnn, 'benchmark', None)",
     "!! RuntimeError: set_benchmark_cudnn expects a bool, but got NoneType"),
    ("setattr(torch.backends.cudnn, 'deterministic', 2.5)",
     "!! RuntimeError: set_deterministic_cudnn expects a bool, but got float"),
    ("setattr(torch.backends.cudnn, 'allow_tf32', 0)",
     "!! RuntimeError: set_allow_tf32_cublas expects a bool, but got int"),
    (SETUP, "(True, False, False, True, None)"),
    ("setattr(torch.backends.cudnn, 'benchmark', True)", "None"),
    ("setattr(torch.backends.cudnn, 'deterministic', True)", "None"),
    ("setattr(torch.backends.cudnn, 'allow_tf32', False)", "None"),
    ("setattr(torch.backends.cudnn, 'enabled', False)", "None"),
    ("setattr(torch.backends.cudnn, 'benchmark_limit', 5)", "None"),
    (SETUP, "(False, True, True, False, 5)"),
    ("torch.backends.cudnn.is_acceptable(torch.zeros(2))", "False"),
    ("inside_flags(enabled=True, benchmark=False, deterministic=False, allow_tf32=True)",
     "(True, False, False, True, 5)"),
    (SETUP, "(False, True, True, False, 5)"),
    ("inside_flags()", "(False, False, False, True, 5)"),
    ("inside_flags(enabled=None, benchmark=None)", "(False, True, False, True, 5)"),
    ("inside_flags(enabled='x')", "!! RuntimeError: set_enabled_cudnn expects a bool, but got str"),
    (SETUP, "(False, True, True, False, 5)"),
    ("torch.backends.flags_frozen()", "False"),
    ("torch.backends.disable_global_flags()", "None"),
    ("torch.backends.flags_frozen()", "True"),
    ("setattr(torch.backends.cudnn, 'enabled', True)",
     "!! RuntimeError: not allowed to set minitorch.backends.cudnn flags after disable_global_flags; please use "
     "flags() context manager instead"),
    ("inside_flags(enabled=True)", "(True, False, False, True, 5)"),
    (SETUP, "(False, True, True, False, 5)"),
    ("torch.backends.mps.is_available()", "False"),
    ("torch.backends.mps.is_built()", "False"),
    ("torch.backends.cpu.get_cpu_capability() in ('AVX512', 'AVX2', 'DEFAULT')", "True"),
]

PRELUDE = """
def inside_flags(**kw):
    with torch.backends.cudnn.flags(**kw):
        return {}
""".format(SETUP)


def run_table(table, module="minitorch", env=None, gpus=0):
    exprs = ["exec({!r}) or 'defined'".format(PRELUDE)] + [expr for expr, _ in table]
    return probe(exprs, gpus=gpus, module=module, env=env)[1:]


def test_cudnn_mps_cpu_flags():
    table = FLAGS_TABLE
    # the loader's answer in a process like the table's (no simulated GPU)
    version = probe(["torch._C._cudnn_version()"], gpus=0)[0] if minitorch._C.has_cuda else "None"
    if version != "None":
        # a CUDA build that found a libcudnn (the loader's path, the toolkit, pip's nvidia-cudnn wheel beside
        # torch): it reports cuDNN as torch's CUDA build does
        answers = {"torch.backends.cudnn.is_available()": "True", "torch.backends.cudnn.version()": version}
        table = [(expr, answers.get(expr, want)) for expr, want in table]
    check_table(table, run_table(table))


def test_flags_table_is_what_torch_prints():
    pytest.importorskip("torch")
    if parity.torch_is_cuda_build():
        pytest.skip("the installed torch is a CUDA build; the table is its CPU build's (a CUDA build ships cuDNN, "
                    "and its benchmark_limit is a real setting that flags() sets, where minitorch's stays a plain "
                    "attribute: see the README)")
    check_table(FLAGS_TABLE, run_table(FLAGS_TABLE, module="torch"))


@pytest.mark.parametrize("capability", [None, "avx2", "default"])
def test_cpu_capability_is_torchs(capability):
    # torch's rule on this CPU, and ATEN_CPU_CAPABILITY overriding it; MINITORCH_CPU_ISA changes nothing
    pytest.importorskip("torch")
    env = {} if capability is None else {"ATEN_CPU_CAPABILITY": capability}
    expr = ["torch.backends.cpu.get_cpu_capability()"]
    want = probe(expr, gpus=0, module="torch", env=env)
    assert probe(expr, gpus=0, env=env) == want
    assert probe(expr, gpus=0, env=dict(env, MINITORCH_CPU_ISA="generic")) == want


def test_libraries_minitorch_does_not_use_are_reported_absent():
    # torch's builds say True for all three; minitorch uses none of them (README, Known differences)
    outcomes = probe(["torch.backends.mkldnn.is_available()", "torch.backends.mkl.is_available()",
                      "torch.backends.openmp.is_available()"], gpus=0)
    assert outcomes == ["False", "False", "False"]


def test_missing_names_say_torch_has_them():
    with pytest.raises(AttributeError, match="has no attribute 'rnn'"):
        minitorch.backends.cudnn.rnn  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'nope'$"):
        minitorch.backends.cudnn.nope  # noqa: B018


def test_is_acceptable_on_a_simulated_cuda_tensor_warns_that_there_is_no_cudnn():
    code = """
import warnings
import minitorch as torch
x = torch.zeros(2, device='cuda')
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(torch.backends.cudnn.is_acceptable(x), torch.backends.cudnn.is_acceptable(x.long()), len(w))
    print(w[0].category.__name__ + ":", w[0].message)
torch.backends.cudnn.enabled = False
print(torch.backends.cudnn.is_acceptable(x))
print(torch.backends.cudnn.is_available(), torch.backends.cudnn.version())
"""
    result = run_python(code, simulate_gpu=1)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "False False 1"
    assert lines[1].startswith("UserWarning: minitorch was compiled without cuDNN/MIOpen support")
    assert lines[2] == "False"
    assert lines[3] == "False None"     # the simulated GPU has no cuDNN, whatever the machine has
