"""torch.cuda's random-number functions and torch.random (fork_rng and the seeding functions): on a machine
without a GPU as torch 2.13's CPU build answers (the seeding calls queued silently, the state getters
initialising CUDA and failing), and on the simulated GPU with torch's semantics: one default generator
per device, its state torch's 16 bytes (seed, then the Philox offset in 32-bit words), the calls made
before initialisation run by it in torch's order. minitorch's CUDA draws are its own Philox stream (README),
so the draws themselves are compared with themselves, not with torch's GPU.

Each table or script runs in a fresh process: what matters is what happens before CUDA is initialised.
"""

import pytest

from subproc import run_python
from test_cuda_api import check_table, probe

import minitorch

ZEROS16 = "torch.zeros(16, dtype=torch.uint8)"

# Printed by torch 2.13.0+cpu; INIT marks the calls that initialise CUDA (they fail as torch.cuda.init()
# fails in the same process: torch's CPU build and minitorch's CPU-only build say "not compiled").
INIT = "INIT"
NO_GPU_TABLE = [
    ("torch.cuda.manual_seed(3)", "None"),
    ("torch.cuda.manual_seed('a')", "!! ValueError: invalid literal for int() with base 10: 'a'"),
    ("torch.cuda.manual_seed(1.5)", "None"),
    ("torch.cuda.manual_seed(None)",
     "!! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"),
    ("torch.cuda.manual_seed(2**64)", "None"),
    ("torch.cuda.manual_seed_all(4)", "None"),
    ("torch.cuda.seed()", "None"),
    ("torch.cuda.seed_all()", "None"),
    ("torch.cuda.set_rng_state(%s)" % ZEROS16, "None"),
    ("torch.cuda.set_rng_state(%s, 'cpu')" % ZEROS16, "None"),
    ("torch.cuda.set_rng_state(5)", "!! AttributeError: 'int' object has no attribute 'clone'"),
    ("torch.cuda.set_rng_state_all([%s])" % ZEROS16, "None"),
    ("torch.cuda.set_rng_state_all(5)", "!! TypeError: 'int' object is not iterable"),
    ("torch.cuda.get_rng_state_all()", "[]"),
    ("torch.cuda.default_generators", "()"),
    ("torch.cuda.is_bf16_supported()", "False"),
    ("torch.cuda.is_bf16_supported(False)", "False"),
    ("torch.manual_seed(5).initial_seed()", "5"),
    ("torch.random.manual_seed(6).initial_seed()", "6"),
    ("torch.random.initial_seed()", "6"),
    ("torch.random.get_rng_state().shape", "torch.Size([5056])"),
    ("torch.cuda.is_initialized()", "False"),
    ("torch.cuda.initial_seed()", INIT),
    ("torch.cuda.get_rng_state()", INIT),
    ("torch.cuda.get_rng_state(0)", INIT),
    ("torch.cuda.get_rng_state('cpu')", INIT),
    ("torch.cuda.init()", INIT),
]


def no_gpu_outcomes(module):
    outcomes = probe([expr for expr, _ in NO_GPU_TABLE], gpus=0, module=module)
    init_outcome = outcomes[-1]
    assert init_outcome.startswith("!! "), "CUDA initialised without a GPU: " + init_outcome
    return [(expr, init_outcome if want == INIT else want) for expr, want in NO_GPU_TABLE], outcomes


def test_without_a_gpu_the_seeding_calls_wait_silently():
    table, outcomes = no_gpu_outcomes("minitorch")
    check_table(table, outcomes)


def test_no_gpu_table_is_what_torch_prints():
    pytest.importorskip("torch")
    table, outcomes = no_gpu_outcomes("torch")
    if outcomes[0] != "None" or probe(["torch.cuda.is_available()"], gpus=0, module="torch") != ["False"]:
        pytest.skip("the installed torch sees a GPU; the table is for torch's CPU build")
    check_table(table, outcomes)


def run_simulated(code, gpus=1):
    result = run_python("import minitorch as torch\n" + code, simulate_gpu=gpus)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.split("\n")[:-1]


def test_state_layout_is_torchs_seed_then_offset():
    lines = run_simulated("""
torch.cuda.manual_seed(7)
print(torch.cuda.is_initialized())
s = torch.cuda.get_rng_state()
print(torch.cuda.is_initialized(), s.dtype, s.shape, s.device)
print(s.tolist())
torch.cuda.manual_seed(2**64 - 2)
print(torch.cuda.get_rng_state()[:8].tolist(), torch.cuda.initial_seed())
torch.cuda.manual_seed(-1)
print(torch.cuda.initial_seed())
torch.cuda.manual_seed(0x0102030405060708)
torch.randn(5, device='cuda')     # float32: 4 values per Philox block, two blocks = 8 words
print(torch.cuda.get_rng_state().tolist())
torch.rand(3, device='cuda', dtype=torch.float64)    # 2 values per block: two more blocks
print(torch.cuda.get_rng_state()[8:].tolist())
""")
    assert lines[0] == "False"
    assert lines[1] == "True minitorch.uint8 minitorch.Size([16]) cpu"
    assert lines[2] == str([7] + [0] * 15)
    assert lines[3] == "{} {}".format([254] + [255] * 7, 2**64 - 2)
    assert lines[4] == str(2**64 - 1)
    assert lines[5] == str([8, 7, 6, 5, 4, 3, 2, 1, 8] + [0] * 7)
    assert lines[6] == str([16] + [0] * 7)


def test_set_rng_state_replays_the_draws():
    lines = run_simulated("""
torch.cuda.manual_seed(123)
torch.rand(7, device='cuda')
state = torch.cuda.get_rng_state()
a = torch.randn(9, device='cuda').tolist()
b = torch.randint(0, 1000, (5,), device='cuda').tolist()
torch.cuda.set_rng_state(state)
print(torch.randn(9, device='cuda').tolist() == a, torch.randint(0, 1000, (5,), device='cuda').tolist() == b)
torch.cuda.set_rng_state(state[:8])          # a seed alone: offset 0
print(torch.cuda.get_rng_state().tolist() == state[:8].tolist() + [0] * 8)
torch.cuda.manual_seed(123)
print(torch.cuda.get_rng_state().tolist() == state[:8].tolist() + [0] * 8)
torch.manual_seed(9)
x = torch.rand(4, device='cuda').tolist()
torch.manual_seed(9)
print(torch.rand(4, device='cuda').tolist() == x, torch.cuda.initial_seed())
""")
    assert lines == ["True True", "True", "True", "True 9"]


def test_set_rng_state_checks():
    lines = run_simulated("""
torch.cuda.init()
def attempt(f):
    try:
        f()
        print('ok')
    except Exception as e:
        print(type(e).__name__, e)
torch.cuda.manual_seed(5)
attempt(lambda: torch.cuda.set_rng_state(torch.zeros(3, dtype=torch.uint8)))
attempt(lambda: torch.cuda.set_rng_state(torch.zeros(16)))
bad = torch.tensor([9, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0], dtype=torch.uint8)
attempt(lambda: torch.cuda.set_rng_state(bad))
print(torch.cuda.get_rng_state().tolist())   # torch sets the seed before it checks the offset
attempt(lambda: torch.cuda.default_generators[0].manual_seed(1.5))
print(torch.cuda.default_generators[0].manual_seed(11) is torch.cuda.default_generators[0],
      torch.cuda.initial_seed())
""")
    assert lines == [
        "RuntimeError RNG state is wrong size",
        "TypeError RNG state must be a torch.ByteTensor",
        "RuntimeError offset must be a multiple of 4",
        str([9] + [0] * 15),
        "RuntimeError manual_seed expected a long, but got float",
        "True 11",
    ]


def test_queued_calls_run_at_initialisation_in_torchs_order():
    # torch runs the queued set_rng_state/seed calls first, then the latest manual_seed and
    # manual_seed_all in the order they were last made: so the last seeding wins, and a state set before
    # initialisation loses to any seed, even one made before it
    lines = run_simulated("""
torch.manual_seed(1)
torch.cuda.manual_seed(2)
print(torch.cuda.is_initialized())
x = torch.zeros(1, device='cuda')       # initialises CUDA, which runs the queue
print(torch.cuda.is_initialized(), torch.cuda.initial_seed())
""")
    assert lines == ["False", "True 2"]
    lines = run_simulated("""
torch.cuda.manual_seed(2)
torch.manual_seed(1)
print(torch.cuda.initial_seed())
""")
    assert lines == ["1"]
    lines = run_simulated("""
torch.manual_seed(1)
torch.cuda.manual_seed(2)
torch.cuda.manual_seed_all(3)
state = torch.tensor([77] + [0] * 15, dtype=torch.uint8)
torch.cuda.set_rng_state(state)
state[0] = 78                           # kept as it was when set (a copy)
print(torch.cuda.initial_seed())
""")
    assert lines == ["3"]
    lines = run_simulated("""
state = torch.tensor([77] + [0] * 15, dtype=torch.uint8)
torch.cuda.set_rng_state(state)
state[0] = 78
print(torch.cuda.initial_seed())
torch.cuda.set_rng_state(state)         # initialised: runs now
print(torch.cuda.initial_seed())
""")
    assert lines == ["77", "78"]


def test_a_queued_call_that_fails_fails_the_initialisation():
    lines = run_simulated("""
torch.cuda.set_rng_state(torch.zeros(3, dtype=torch.uint8))
try:
    torch.zeros(1, device='cuda')
except Exception as e:
    print(type(e).__name__)
    print(str(e).splitlines()[0])
""")
    assert lines == ["DeferredCudaCallError",
                     "CUDA call failed lazily at initialization with error: RNG state is wrong size"]


def test_one_generator_per_device():
    lines = run_simulated("""
torch.cuda.manual_seed_all(3)
print(torch.cuda.default_generators)     # made when CUDA is initialised
torch.cuda.init()
print(len(torch.cuda.default_generators), [g.device for g in torch.cuda.default_generators])
print(all(isinstance(g, torch.Generator) for g in torch.cuda.default_generators))
with torch.cuda.device(1):
    torch.cuda.manual_seed(9)
print([g.initial_seed() for g in torch.cuda.default_generators])
torch.randn(8, device='cuda:1')
print([s[8:].tolist() for s in torch.cuda.get_rng_state_all()])
print(int(torch.cuda.get_rng_state(1)[8]), int(torch.cuda.get_rng_state("cuda:1")[8]),
      int(torch.cuda.get_rng_state(torch.device("cuda", 0))[8]))
torch.cuda.set_rng_state_all([torch.cuda.get_rng_state(1), torch.cuda.get_rng_state(0)])
print([g.initial_seed() for g in torch.cuda.default_generators])
torch.cuda.seed_all()
a, b = [g.initial_seed() for g in torch.cuda.default_generators]
print(a == b, a not in (3, 9))
torch.cuda.seed()
print(torch.cuda.initial_seed() != a, torch.cuda.default_generators[1].initial_seed() == a)
""", gpus=2)
    assert lines.pop(0) == "()"
    assert lines[:3] == ["2 [device(type='cuda', index=0), device(type='cuda', index=1)]", "True", "[3, 9]"]
    assert lines[3] == str([[0] * 8, [8] + [0] * 7])
    assert lines[4] == "8 8 0"
    assert lines[5:] == ["[9, 3]", "True True", "True True"]


def test_fresh_generators_are_seeded_nondeterministically():
    # torch seeds each device's default generator from /dev/urandom at its first use
    first = run_simulated("print(torch.cuda.initial_seed())")
    second = run_simulated("print(torch.cuda.initial_seed())")
    assert first != second


def test_is_bf16_supported_on_the_simulated_gpu():
    # the simulated GPU reports compute capability 9.0
    assert run_simulated("print(torch.cuda.is_bf16_supported(), torch.cuda.is_bf16_supported(False))") == [
        "True True"]


def test_fork_rng_restores_the_cpu_and_cuda_states():
    lines = run_simulated("""
torch.manual_seed(4)
cpu, gpu = torch.get_rng_state(), torch.cuda.get_rng_state()
with torch.random.fork_rng() as value:
    torch.rand(3); torch.rand(5, device='cuda')
    print(value, torch.equal(torch.get_rng_state(), cpu), torch.equal(torch.cuda.get_rng_state(), gpu))
print(torch.equal(torch.get_rng_state(), cpu), torch.equal(torch.cuda.get_rng_state(), gpu))
with torch.random.fork_rng(devices=[]):
    torch.rand(5, device='cuda')
print(torch.equal(torch.get_rng_state(), cpu), torch.equal(torch.cuda.get_rng_state(), gpu))
with torch.random.fork_rng(enabled=False):
    torch.rand(3)
print(torch.equal(torch.get_rng_state(), cpu))
""")
    assert lines == ["None False False", "True True", "True False", "False"]


def test_fork_rng_warns_once_about_several_devices():
    lines = run_simulated("""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    with torch.random.fork_rng():
        pass
    with torch.random.fork_rng():
        pass
    with torch.random.fork_rng(devices=range(2)):
        pass
print(len(w), w[0].category.__name__)
print(w[0].message)
""", gpus=2)
    assert lines[0] == "1 UserWarning"
    assert lines[1].startswith("CUDA reports that you have 2 available devices, and you have used fork_rng without "
                               "explicitly specifying which devices are being used.")


@pytest.mark.parametrize("module", ["minitorch", "torch"])
def test_fork_rng_without_a_gpu(module):
    if module == "torch":
        pytest.importorskip("torch")
    code = """
import {} as torch
torch.manual_seed(0)
with torch.random.fork_rng():
    a = torch.rand(3)
b = torch.rand(3)
print(torch.equal(a, b))
with torch.random.fork_rng(device_type='meta'):
    pass
try:
    torch.cuda.init()
except Exception as e:
    init_error = type(e)
try:
    with torch.random.fork_rng(devices=[0]):
        pass
except Exception as e:
    print(type(e) is init_error)
print(sorted(n for n in ('manual_seed', 'seed', 'initial_seed', 'get_rng_state', 'set_rng_state', 'fork_rng')
             if n in torch.random.__all__))
""".format(module)
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["True", "True",
                                          str(sorted(["manual_seed", "seed", "initial_seed", "get_rng_state",
                                                      "set_rng_state", "fork_rng"]))]


def test_cpu_seed_also_seeds_cuda_lazily():
    lines = run_simulated("""
s = torch.seed()
print(torch.initial_seed() == s, torch.cuda.initial_seed() == s)
""")
    assert lines == ["True True"]


def test_top_level_random_functions_are_torch_random_s():
    assert minitorch.random.manual_seed is minitorch.manual_seed
    assert minitorch.random.get_rng_state is minitorch.get_rng_state
