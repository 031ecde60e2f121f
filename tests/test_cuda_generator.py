"""CUDA generators as torch's: Generator('cuda') objects (torch's default seed, offset 0, the current device,
torch's 16-byte state) and CUDA generators (those or torch.cuda.default_generators) as the generator= of every
random op, with torch's check_generator at the draw: a CPU result wants a CPU generator, a CUDA result a CUDA
one (only the device type is compared). A draw with a CUDA generator uses and advances that generator's seed
and offset exactly as the device's default one would, and leaves the default one alone. Without a (simulated)
GPU, Generator('cuda') fails as in torch's CPU build (a CUDA build without a driver: as in torch's CUDA build).
Each script runs in a fresh process.
"""

import pytest

import minitorch
import parity
from test_cuda_api import check_table, probe
from test_cuda_random import run_simulated

CPU_WANTS = "Expected a 'cpu' device type for generator but found 'cuda'"
CUDA_WANTS = "Expected a 'cuda' device type for generator but found 'cpu'"

# Printed by torch 2.13.0+cpu (no CUDA library, no accelerator)
NO_CUDA_LIBRARY = (
    "!! RuntimeError: Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are trying to use "
    "some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The "
    "CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common "
    "culprit is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this has occurred by "
    "using ldd on your binary to see if there is a dependency on *_cuda.so library.")
NO_GPU_TABLE = [
    ("torch.Generator('cuda')", NO_CUDA_LIBRARY),
    ("torch.Generator(device='cuda:0')", NO_CUDA_LIBRARY),
    ("torch.Generator(device=torch.device('cuda'))", NO_CUDA_LIBRARY),
    ("torch.Generator('meta')", "!! RuntimeError: META device type not an accelerator."),
    ("torch.Generator(0)", "!! RuntimeError: Cannot access accelerator device when none is available."),
    ("torch.Generator(1.5)", "!! TypeError: Generator(): argument 'device' (position 1) must be torch.device, not "
                             "float"),
    ("torch.Generator(device=1.5)", "!! TypeError: Generator(): argument 'device' must be torch.device, not float"),
    ("torch.Generator('cpu', 'cpu')", "!! TypeError: Generator() takes from 0 to 1 positional arguments but 2 were "
                                      "given"),
    ("torch.Generator('cpu:0').device", "device(type='cpu')"),
    ("torch.Generator(None).initial_seed()", "67280421310721"),
    ("torch.cuda.is_initialized()", "False"),
]


# Printed by torch 2.13.0+cu130 on a machine without an NVIDIA driver (its first line)
INSUFFICIENT_DRIVER = "!! AcceleratorError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"


def no_gpu_table(without_a_driver):
    """NO_GPU_TABLE, or as a CUDA build answers it on a machine without a driver: a CUDA generator (an int
    device is a CUDA one there) fails at the CUDA runtime's first call."""
    if not without_a_driver:
        return NO_GPU_TABLE
    return [(expr, INSUFFICIENT_DRIVER if want == NO_CUDA_LIBRARY or expr == "torch.Generator(0)" else want)
            for expr, want in NO_GPU_TABLE]


def test_without_a_gpu_generator_cuda_fails_as_torchs():
    table = no_gpu_table(minitorch._C.has_cuda and minitorch._C._cuda_driverVersion() == 0)
    check_table(table, probe([expr for expr, _ in table], gpus=0, module="minitorch"))


def test_no_gpu_table_is_what_torch_prints():
    pytest.importorskip("torch")
    if probe(["torch.cuda.is_available()"], gpus=0, module="torch") != ["False"]:
        pytest.skip("the installed torch sees a GPU; the table is for a machine without one")
    if parity.torch_is_cuda_build() and not parity.no_nvidia_driver():
        pytest.skip("the installed torch is a CUDA build on a machine with a driver and no GPU; the tables are for a "
                    "CPU build and for a machine without a driver")
    table = no_gpu_table(parity.torch_is_cuda_build())
    check_table(table, probe([expr for expr, _ in table], gpus=0, module="torch"))


def test_a_new_cuda_generator():
    lines = run_simulated("""
g = torch.Generator('cuda')
print(g.device, torch.Generator(device='cuda:0').device, torch.Generator(device=torch.device('cuda')).device)
print(torch.Generator(0).device, torch.Generator('cuda:1').device)
print(g.initial_seed(), g.get_state().dtype, g.get_state().shape, g.get_state().tolist())
print(repr(g).startswith('<minitorch._C.Generator object at 0x'), isinstance(g, torch.Generator))
print(g.manual_seed(-1) is g, g.initial_seed(), g.get_state()[:8].tolist())
torch.rand(5, device='cuda', generator=g)     # float32: 4 values a Philox block, 2 blocks = 8 words
print(g.get_state()[8:].tolist())
state = g.get_state()
a = torch.randn(3, device='cuda', generator=g).tolist()
print(g.set_state(state) is g, torch.randn(3, device='cuda', generator=g).tolist() == a)
g.set_state(state[:8])
print(g.get_state().tolist() == state[:8].tolist() + [0] * 8)
for bad in (torch.zeros(3, dtype=torch.uint8), torch.tensor([1] + [0] * 7 + [6] + [0] * 7, dtype=torch.uint8)):
    try:
        g.set_state(bad)
    except RuntimeError as e:
        print(e)
try:
    g.set_state(torch.zeros(16))
except TypeError as e:
    print(e)
s = g.seed()
print(g.initial_seed() == s, g.get_state()[8:].tolist())
""", gpus=2)
    assert lines == [
        "cuda:0 cuda:0 cuda:0",
        "cuda:0 cuda:1",
        "67280421310721 minitorch.uint8 minitorch.Size([16]) " + str([1, 209, 156, 241, 48, 61, 0, 0] + [0] * 8),
        "True True",
        "True 18446744073709551615 " + str([255] * 8),
        str([8] + [0] * 7),
        "True True",
        "True",
        "RNG state is wrong size",
        "offset must be a multiple of 4",
        "RNG state must be a torch.ByteTensor",
        "True " + str([0] * 8),
    ]


def test_the_current_device_names_a_new_generator():
    lines = run_simulated("""
torch.cuda.set_device(1)
print(torch.Generator('cuda').device)
""", gpus=2)
    assert lines == ["cuda:1"]


# Each op drawn on a CUDA tensor, as `f(g)`: the same values with a new generator seeded s as with the
# default generator after torch.cuda.manual_seed(s), and the default generator not advanced by the first.
CUDA_OPS = """
x = torch.zeros(6, 5, device='cuda')
p = torch.rand(3, 7, device='cuda')
OPS = {
    'rand': lambda g: torch.rand(9, device='cuda', generator=g),
    'rand float64': lambda g: torch.rand(3, 2, device='cuda', dtype=torch.float64, generator=g),
    'rand float16': lambda g: torch.rand(7, device='cuda', dtype=torch.float16, generator=g),
    'randn': lambda g: torch.randn(4, 3, device='cuda', generator=g),
    'randint': lambda g: torch.randint(-5, 40, (11,), device='cuda', generator=g),
    'rand_like': lambda g: torch.rand_like(x, generator=g),
    'randn_like': lambda g: torch.randn_like(x, generator=g),
    'randint_like': lambda g: torch.randint_like(x, 3, 9, generator=g),
    'uniform_': lambda g: x.clone().uniform_(-2, 3, generator=g),
    'normal_': lambda g: x.t().clone().normal_(1, 2, generator=g),
    'random_': lambda g: x.clone().random_(0, 1000, generator=g),
    'random_ full': lambda g: torch.empty(5, dtype=torch.int64, device='cuda').random_(generator=g),
    'exponential_': lambda g: x.clone().exponential_(2, generator=g),
    'geometric_': lambda g: x.clone().geometric_(0.3, generator=g),
    'log_normal_': lambda g: x.clone().log_normal_(0, 0.5, generator=g),
    'cauchy_': lambda g: x.clone().cauchy_(generator=g),
    'bernoulli': lambda g: torch.bernoulli(p, generator=g),
    'bernoulli p': lambda g: torch.bernoulli(p, 0.4, generator=g),
    'bernoulli_': lambda g: x.clone().bernoulli_(p[0, :5], generator=g),
    'normal': lambda g: torch.normal(p, 2.0, generator=g),
    'normal size': lambda g: torch.normal(0.0, 1.0, (4,), device='cuda', generator=g),
    'multinomial': lambda g: torch.multinomial(p, 4, generator=g),
    'multinomial replacement': lambda g: p.multinomial(9, True, generator=g),
    'nn.init.uniform_': lambda g: torch.nn.init.uniform_(x.clone(), generator=g),
    'nn.init.normal_': lambda g: torch.nn.init.normal_(x.clone(), generator=g),
    'nn.init.trunc_normal_': lambda g: torch.nn.init.trunc_normal_(x.clone(), generator=g),
    'nn.init.kaiming_uniform_': lambda g: torch.nn.init.kaiming_uniform_(x.clone(), generator=g),
    'nn.init.xavier_normal_': lambda g: torch.nn.init.xavier_normal_(x.clone(), generator=g),
}
"""


def test_every_random_op_draws_from_the_given_cuda_generator():
    lines = run_simulated(CUDA_OPS + """
for name, f in OPS.items():
    torch.cuda.manual_seed(11)
    g = torch.Generator('cuda').manual_seed(3)
    before = torch.cuda.get_rng_state()
    got = f(g)
    untouched = torch.cuda.get_rng_state().tolist() == before.tolist()
    after = g.get_state()
    torch.cuda.manual_seed(3)
    want = f(None)
    same = got.tolist() == want.tolist() and got.device == want.device and got.dtype == want.dtype
    print(name, same, untouched, after.tolist() == torch.cuda.get_rng_state().tolist(), after[8:].tolist() != [0] * 8)
""")
    assert len(lines) > 20
    assert [line for line in lines if not line.endswith(" True True True True")] == []


def test_the_default_cuda_generator_as_generator_argument():
    lines = run_simulated("""
torch.cuda.init()     # torch's default_generators are made when CUDA is initialised
g0 = torch.cuda.default_generators[0]
g0.manual_seed(5)
a = torch.rand(6, device='cuda', generator=g0).tolist()
b = torch.randn(3, device='cuda', generator=g0).tolist()
torch.cuda.manual_seed(5)
print(torch.rand(6, device='cuda').tolist() == a, torch.randn(3, device='cuda').tolist() == b)
g = torch.Generator('cuda:1').manual_seed(5)      # only the device type is checked
print(torch.rand(6, device='cuda', generator=g).tolist() == a)
""", gpus=2)
    assert lines == ["True True", "True"]


def test_the_generator_must_be_of_the_results_device_type():
    lines = run_simulated(CUDA_OPS + """
cpu_g = torch.Generator()
for name, f in OPS.items():
    try:
        f(cpu_g)
        print(name, 'no error')
    except RuntimeError as e:
        print(e)
cuda_g = torch.Generator('cuda')
xc, pc = torch.zeros(3, 4), torch.rand(2, 5)
for f in (lambda: torch.rand(3, generator=cuda_g), lambda: torch.randn(2, dtype=torch.float64, generator=cuda_g),
          lambda: torch.rand(3, dtype=torch.bfloat16, generator=cuda_g),
          lambda: torch.randint(0, 3, (2,), generator=cuda_g), lambda: torch.randperm(6, generator=cuda_g),
          lambda: torch.rand_like(xc, generator=cuda_g), lambda: xc.uniform_(generator=cuda_g),
          lambda: xc.normal_(generator=cuda_g), lambda: xc.random_(generator=cuda_g),
          lambda: xc.exponential_(generator=cuda_g), lambda: xc.geometric_(0.5, generator=cuda_g),
          lambda: xc.log_normal_(generator=cuda_g), lambda: xc.cauchy_(generator=cuda_g),
          lambda: torch.bernoulli(pc, generator=cuda_g), lambda: torch.normal(pc, 1.0, generator=cuda_g),
          lambda: torch.multinomial(pc, 2, generator=cuda_g), lambda: pc.multinomial(4, True, generator=cuda_g),
          lambda: torch.nn.init.uniform_(xc, generator=cuda_g),
          lambda: list(torch.utils.data.RandomSampler(range(5), generator=cuda_g)),
          lambda: torch.utils.data.random_split(range(5), [2, 3], generator=cuda_g),
          lambda: list(torch.utils.data.DataLoader(range(5), shuffle=True, generator=cuda_g))):
    try:
        f()
        print('no error')
    except RuntimeError as e:
        print(e)
print(torch.rand(3, device='meta', generator=cuda_g).shape, torch.randperm(3, device='meta', generator=cpu_g).shape)
""")
    n_cuda_ops = len([line for line in lines if line == "%s" % CUDA_WANTS])
    assert n_cuda_ops > 20 and lines[:n_cuda_ops] == [CUDA_WANTS] * n_cuda_ops
    assert lines[n_cuda_ops:] == [CPU_WANTS] * 21 + ["minitorch.Size([3]) minitorch.Size([3])"]


def test_randperm_on_cuda_follows_torchs_generator_rules():
    # torch's CUDA randperm sorts 0..n-1 by random keys from a CUDA generator (Randperm.cu): a CUDA
    # generator= is used and advanced, a CPU one refused; without one, minitorch draws on the host (README)
    lines = run_simulated("""
g = torch.Generator('cuda').manual_seed(4)
before = torch.cuda.get_rng_state()
cpu_before = torch.get_rng_state()
a = torch.randperm(50, device='cuda', generator=g)
print(a.device, a.dtype, sorted(a.tolist()) == list(range(50)), a.tolist() != list(range(50)))
print(g.get_state()[8:].tolist(), torch.cuda.get_rng_state().tolist() == before.tolist(),
      torch.get_rng_state().tolist() == cpu_before.tolist())
g.manual_seed(4)
print(torch.randperm(50, device='cuda', dtype=torch.float32, generator=g).tolist() == a.float().tolist())
print(torch.randperm(0, device='cuda', generator=g).tolist(), g.get_state()[8:].tolist())
try:
    torch.randperm(5, device='cuda', generator=torch.Generator())
except RuntimeError as e:
    print(e)
""")
    assert lines == ["cuda:0 minitorch.int64 True True", str([100] + [0] * 7) + " True True", "True",
                     "[] " + str([100] + [0] * 7), CUDA_WANTS]
