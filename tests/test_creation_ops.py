"""The creation ops of issue 16 against torch 2.13: linspace and logspace, arange with float steps,
Tensor's new_tensor, new_empty, new_zeros, new_ones and new_full, and tril, triu (and their in-place
forms) and diag, with their gradients. Values must be torch's CPU values bit
for bit (compared through tolist(), every dtype: torch's kernels round in a particular order, fill
linspace from both ends and arange in vector-sized blocks), with torch's dtype, and errors with torch's
type and message. Each call also runs on the CUDA device when there is one (`device` fixture: the
simulated GPU, or the emulated-CUDA build), where minitorch computes the CPU's values. The tests skip
without torch."""

import math

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch")

DTYPES = ["bool", "int32", "int64", "float32", "float64"]


def dtype_name(d):
    return str(d).split(".")[1]


def outcome(mod, fn, device):
    """fn(module, device) as (dtype name, values, requires_grad) or (exception type, message)."""
    try:
        t = fn(mod, device)
    except Exception as exc:  # noqa: BLE001 -- the error is the outcome
        message = str(exc).replace("torch.", "minitorch.")
        return (type(exc).__name__, message)
    if mod is mt and device != "cpu":
        assert t.device.type == "cuda"
    return (dtype_name(t.dtype), t.cpu().tolist(), tuple(t.shape), t.requires_grad)


def assert_same(fn, device):
    """fn under torch (on the CPU) and under minitorch (on `device`): the same values, dtype and shape, or
    the same error (a CPU kernel's name reads _cuda on a CUDA device)."""
    want = outcome(torch, fn, "cpu")
    got = outcome(mt, fn, device)
    if device != "cpu" and isinstance(want[1], str):
        want = (want[0], want[1].replace("_cpu\"", "_cuda\""))
    assert got == want, (got, want)


def dev(mod, device):
    return {} if device == "cpu" else {"device": device}


def dt(mod, name):
    return {} if name is None else {"dtype": getattr(mod, name)}


# ---- linspace and logspace ---------------------------------------------------------------------------

SPACE_CASES = [(0, 1, 5), (-3.7, 12.1, 7), (1.7, 9.6, 0), (1.7, 9.6, 1), (1.7, 9.6, 2), (0, 1, 100),
               (10, -10, 13), (-1e6, 3.3e7, 1001), (5, 5, 4), (0.1, 0.3, 3), (2, 100, 17), (-7, 7, 15),
               (1, 2, 2 ** 15 + 7)]


@pytest.mark.parametrize("dtype", [None] + DTYPES)
@pytest.mark.parametrize("op", ["linspace", "logspace"])
def test_space_values(device, op, dtype):
    for start, end, steps in SPACE_CASES:
        if op == "logspace" and max(abs(start), abs(end)) > 400:
            start, end = start / 1e5, end / 1e5
        assert_same(lambda m, d: getattr(m, op)(start, end, steps, **dt(m, dtype), **dev(m, d)), device)


def test_space_random_values(device):
    r = np.random.default_rng(16)
    for _ in range(60):
        a, b = (float(v) for v in r.uniform(-1000, 1000, 2))
        n = int(r.integers(2, 400))
        for dtype in ("float32", "float64", "int32", "int64"):
            assert_same(lambda m, d: m.linspace(a, b, n, **dt(m, dtype), **dev(m, d)), device)
            base = float(r.uniform(0.5, 3))
            assert_same(lambda m, d: m.logspace(a / 100, b / 100, n, base, **dt(m, dtype), **dev(m, d)), device)


def test_space_arguments(device):
    cases = [
        lambda m, d: m.linspace(0, 1, -1, **dev(m, d)),
        lambda m, d: m.logspace(0, 1, -2, **dev(m, d)),
        lambda m, d: m.linspace(0, 3e9, 3, dtype=m.int32, **dev(m, d)),
        lambda m, d: m.linspace(float("nan"), 3, 3, dtype=m.int64, **dev(m, d)),
        lambda m, d: m.linspace(0, 1j, 3, dtype=m.float32, **dev(m, d)),
        lambda m, d: m.logspace(1j, 2, 3, dtype=m.float64, **dev(m, d)),
        lambda m, d: m.linspace(0, 1, 3, requires_grad=True, **dev(m, d)),
        lambda m, d: m.linspace(0, 1, 3, dtype=m.int64, requires_grad=True, **dev(m, d)),
        lambda m, d: m.linspace(m.tensor(0.5), m.tensor(2.0), 4, **dev(m, d)),
        lambda m, d: m.linspace(m.tensor(3), 9, 4, **dev(m, d)),
        lambda m, d: m.logspace(0, m.tensor(2.0), 3, base=2, **dev(m, d)),
        lambda m, d: m.linspace(m.tensor([0.0]), 1, 3, **dev(m, d)),
        lambda m, d: m.linspace(0, m.tensor([[1.0]]), 3, **dev(m, d)),
        lambda m, d: m.logspace(m.tensor([0.0]), m.tensor([1.0, 2.0]), 3, **dev(m, d)),
        lambda m, d: m.linspace(0, 1, steps=4, **dev(m, d)),
        lambda m, d: m.logspace(start=-2, end=2, steps=5, base=3.0, **dev(m, d)),
        lambda m, d: m.logspace(2, 9, 1, dtype=m.int32, **dev(m, d)),
        lambda m, d: m.logspace(0, 40, 3, base=10, dtype=m.int32, **dev(m, d)),
        lambda m, d: m.linspace(True, False, 1, dtype=m.bool, **dev(m, d)),
        lambda m, d: m.linspace(0, 1, 0, dtype=m.bool, **dev(m, d)),
    ]
    for fn in cases:
        assert_same(fn, device)


def test_space_refuse_what_torch_refuses():
    for call in ("linspace(0, 1)", "linspace(0, 1, 2.5)", "logspace(0, 1, 3, 'x')", "linspace('a', 1, 3)"):
        with pytest.raises(TypeError) as want:
            eval("torch." + call)
        with pytest.raises(TypeError) as got:
            eval("mt." + call)
        assert str(got.value).replace("minitorch.", "torch.") == str(want.value)


def test_space_default_dtype_follows_set_default_dtype():
    old = mt.get_default_dtype()
    try:
        mt.set_default_dtype(mt.float64)
        torch.set_default_dtype(torch.float64)
        assert_same(lambda m, d: m.linspace(0.1, 0.7, 9), "cpu")
    finally:
        mt.set_default_dtype(old)
        torch.set_default_dtype(torch.float32)


def test_set_default_dtype_parity():
    # every float factory, Python floats in tensor() and arithmetic, integer division, nn.Linear and the
    # optimizers' step counters follow the default dtype; reprs name float32 once it is not the default
    from parity import compare

    compare("""
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float32), torch.ones(2).dtype)
print(torch.arange(0., 1., 0.25), torch.full((2,), 1.5).dtype, torch.tensor(2).float(), torch.zeros(1) + 1.5)
print(torch.ones(2, dtype=torch.int64) / 2, torch.tensor(3) * 0.5, torch.randn(2).dtype, torch.linspace(0, 1, 3))
torch.manual_seed(0)
lin = torch.nn.Linear(2, 1)
print(lin.weight.dtype, lin(torch.ones(1, 2)).dtype)
opt = torch.optim.Adam(lin.parameters())
lin(torch.ones(1, 2)).sum().backward()
opt.step()
print(opt.state[lin.weight]["step"])
torch.set_default_dtype(torch.int64)
torch.set_default_dtype("float")
torch.set_default_dtype(dtype=torch.float32)
torch.set_default_dtype(torch.float32)
print(torch.get_default_dtype(), torch.tensor([1.5]))
""")


def test_default_device(device):
    # constructors take the default device; *_like, new_* and explicit devices do not; `with device(...)`
    # blocks nest above set_default_device; None goes back to the CPU
    cpu = mt.device("cpu")
    try:
        mt.set_default_device(device)
        made = [mt.ones(2), mt.zeros(1), mt.empty(1), mt.full((1,), 2.0), mt.tensor([1]), mt.arange(3),
                mt.linspace(0, 1, 2), mt.logspace(0, 1, 2), mt.eye(2), mt.rand(1), mt.randn(1), mt.randint(3, (1,)),
                mt.randperm(3), mt.as_tensor([1.0]), mt.normal(0.0, 1.0, size=(1,)), mt.nn.Linear(2, 2).weight]
        assert [t.device.type for t in made] == [device] * len(made)
        x = mt.ones(1, device="cpu")
        assert [t.device for t in (x, mt.zeros_like(x), x.new_zeros(2), mt.rand_like(x), x.new_tensor([1]))] == [cpu] * 5
        assert mt.get_default_device().type == device and mt.get_default_device().index == (0 if device == "cuda" else None)
        with mt.device("cpu") as d:
            assert d == cpu and mt.ones(1).device == cpu and mt.get_default_device() == cpu
        assert mt.ones(1).device.type == device
        mt.set_default_device(None)
        assert mt.ones(1).device == cpu and mt.get_default_device() == cpu
        with mt.device(device):
            assert mt.zeros(2, 2).device.type == device
        assert mt.zeros(1).device == cpu
    finally:
        mt.set_default_device(None)


def test_default_device_parity():
    from parity import compare

    compare("""
print(repr(torch.get_default_device()))
torch.set_default_device('cpu')
print(repr(torch.get_default_device()), torch.ones(1).device)
with torch.device('cpu') as d:
    print(repr(d), torch.zeros(1).device, repr(torch.get_default_device()))
torch.set_default_device('foo')
torch.set_default_device(torch.device('cpu'))
torch.set_default_device(None)
print(repr(torch.get_default_device()))
""")


# ---- arange ------------------------------------------------------------------------------------------

ARANGE_CASES = [(-3, 3, 0.7), (0, 1, 0.1), (0.5, 5.5, 1.5), (1, 100.3, 0.37), (1e8, 1e8 + 100, 3.3),
                (-7.1, 13.2, 0.013), (0, 10, 3), (2.5, -1.3, -0.11), (0.1, 1e3, 0.1), (10.2,), (5, 1, -1),
                (0, 2 ** 53, 2 ** 50), (-1000.123, -1000.123 + 0.0137 * 70001.5, 0.0137)]


@pytest.mark.parametrize("dtype", [None] + DTYPES)
def test_arange_values(device, dtype):
    for args in ARANGE_CASES:
        assert_same(lambda m, d: m.arange(*args, **dt(m, dtype), **dev(m, d)), device)


def test_arange_random_float_steps(device):
    r = np.random.default_rng(7)
    for _ in range(80):
        a = float(r.uniform(-100, 100))
        step = float(r.uniform(0.01, 3)) * (1 if r.random() < 0.7 else -1)
        b = a + step * float(r.uniform(1, 300))
        for dtype in (None, "float64", "int32", "int64"):
            assert_same(lambda m, d: m.arange(a, b, step, **dt(m, dtype), **dev(m, d)), device)


def test_arange_with_more_elements_than_a_thread_takes():
    """torch splits a long arange into one chunk per thread, and each chunk rounds from its own start."""
    old_mt, old_torch = mt.get_num_threads(), torch.get_num_threads()
    try:
        for threads in (1, 2, 3):
            mt.set_num_threads(threads)
            torch.set_num_threads(threads)
            for dtype in ("float32", "float64"):
                assert_same(lambda m, d: m.arange(-1000.123, 3000.5, 0.0371, **dt(m, dtype)), "cpu")
    finally:
        mt.set_num_threads(old_mt)
        torch.set_num_threads(old_torch)


def test_arange_errors(device):
    cases = [
        lambda m, d: m.arange(-3, 3, 0.7, dtype=m.int64, **dev(m, d)),
        lambda m, d: m.arange(2.5, -1.3, -0.11, dtype=m.int64, **dev(m, d)),
        lambda m, d: m.arange(0, 1, 0, **dev(m, d)),
        lambda m, d: m.arange(0, 1, 0.0, **dev(m, d)),
        lambda m, d: m.arange(0, 1, float("nan"), **dev(m, d)),
        lambda m, d: m.arange(0, float("inf"), 1, **dev(m, d)),
        lambda m, d: m.arange(float("-inf"), 1.5, 0.5, **dev(m, d)),
        lambda m, d: m.arange(0, 1, -0.1, **dev(m, d)),
        lambda m, d: m.arange(5, 1, 1, dtype=m.int32, **dev(m, d)),
        lambda m, d: m.arange(0, 1e300, 1e-300, **dev(m, d)),
        lambda m, d: m.arange(0, 1e30, 1e28, dtype=m.int32, **dev(m, d)),
        lambda m, d: m.arange(0, 3, 1, dtype=m.bool, **dev(m, d)),
        lambda m, d: m.arange(0, 3, 0.5, dtype=m.int32, requires_grad=True, **dev(m, d)),
        lambda m, d: m.arange(0, 3, 0.5, requires_grad=True, **dev(m, d)),
    ]
    for fn in cases:
        assert_same(fn, device)


# ---- Tensor.new_* ------------------------------------------------------------------------------------

def source(m, d, dtype="float64"):
    t = m.tensor([[1.5, -2.25, 3.0], [4.0, 5.5, -6.75]], dtype=getattr(m, dtype))
    return t if d == "cpu" else t.to(d)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.filterwarnings("ignore:To copy construct")
def test_new_factories(device, dtype):
    cases = [
        lambda m, d: source(m, d, dtype).new_zeros(2, 3),
        lambda m, d: source(m, d, dtype).new_zeros((4,)),
        lambda m, d: source(m, d, dtype).new_ones([3, 1], dtype=m.int32),
        lambda m, d: source(m, d, dtype).new_ones(()),
        lambda m, d: source(m, d, dtype).new_empty(0, 5),
        lambda m, d: source(m, d, dtype).new_full((2, 2), 7),
        lambda m, d: source(m, d, dtype).new_full((3,), -2.5),
        lambda m, d: source(m, d, dtype).new_full((3,), True),
        lambda m, d: source(m, d, dtype).new_full((2,), 1e300),
        lambda m, d: source(m, d, dtype).new_full((2,), 3.5, dtype=m.float64),
        lambda m, d: source(m, d, dtype).new_full(size=(1, 2), fill_value=4),
        lambda m, d: source(m, d, dtype).new_tensor([1.7, -2.2, 3]),
        lambda m, d: source(m, d, dtype).new_tensor([[True, False]]),
        lambda m, d: source(m, d, dtype).new_tensor(5, dtype=m.int64),
        lambda m, d: source(m, d, dtype).new_tensor(m.tensor([0.5, 1.5])),
        lambda m, d: source(m, d, dtype).new_tensor([], dtype=m.float32),
        lambda m, d: source(m, d, dtype).new_zeros(2, requires_grad=True),
        lambda m, d: source(m, d, dtype).new_tensor([1.0], requires_grad=True),
        lambda m, d: source(m, d, dtype).new_zeros(-1),
        lambda m, d: source(m, d, dtype).new_ones(2, -3),
    ]
    for fn in cases:
        assert_same(fn, device)


def test_new_tensor_warns_as_torch():
    with pytest.warns(UserWarning) as want:
        torch.ones(2).new_tensor(torch.ones(1))
    with pytest.warns(UserWarning) as got:
        mt.ones(2).new_tensor(mt.ones(1))
    assert [str(w.message) for w in got] == [str(w.message) for w in want]


def test_new_factories_keep_self_device(device):
    src = source(mt, device)
    for t in (src.new_zeros(2), src.new_ones(2), src.new_empty(2), src.new_full((2,), 1), src.new_tensor([1])):
        assert t.device == src.device
    assert src.new_zeros(2, device="cpu").device.type == "cpu"
    assert src.new_tensor([1.0], device="cpu").device.type == "cpu"


def test_new_factories_argument_errors():
    for call in ("new_zeros()", "new_full((2,))", "new_tensor()", "new_ones(2, dtype='x')", "new_empty(2.5)",
                 "new_tensor([1], pin_memory=True)", "new_full((2,), 1, 2)"):
        with pytest.raises(TypeError) as want:
            eval("torch.ones(2)." + call)
        with pytest.raises(TypeError) as got:
            eval("mt.ones(2)." + call)
        assert str(got.value).replace("minitorch.", "torch.") == str(want.value)


# ---- tril, triu, diag ----------------------------------------------------------------------------------

def matrix(m, d, dtype, shape, seed=0):
    r = np.random.default_rng(seed)
    a = r.uniform(-5, 5, shape)
    if dtype == "bool":
        a = a > 0
    elif dtype in ("int32", "int64"):
        a = np.round(a * 10)
    t = m.tensor(a.tolist(), dtype=getattr(m, dtype))
    return t if d == "cpu" else t.to(d)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["tril", "triu"])
def test_triangle_values(device, op, dtype):
    for shape in ((4, 6), (7, 3), (2, 3, 5), (1, 1), (0, 3), (2, 0, 4)):
        for k in (0, 1, -1, 2, -3, 10, -10):
            assert_same(lambda m, d: getattr(m, op)(matrix(m, d, dtype, shape), k), device)
            assert_same(lambda m, d: getattr(matrix(m, d, dtype, shape), op)(diagonal=k), device)
    # non-contiguous input (the result is contiguous, as torch's) and the in-place form on a view
    assert_same(lambda m, d: getattr(m, op)(matrix(m, d, dtype, (5, 4)).t(), 1), device)
    assert_same(lambda m, d: getattr(m, op)(matrix(m, d, dtype, (6, 7))[::2, 1::2]), device)
    assert_same(lambda m, d: m.tril(matrix(m, d, dtype, (4, 6)).t()).contiguous(), device)

    def inplace(m, d):
        t = matrix(m, d, dtype, (5, 6))
        v = t[1:, ::2]
        r = getattr(v, op + "_")(-1)
        assert r is v
        return t
    assert_same(inplace, device)


def test_triangle_special_values_and_strides(device):
    def special(m, d):
        t = m.tensor([[float("nan"), float("inf")], [-0.0, 2.0]])
        return m.triu(t if d == "cpu" else t.to(d), 1)
    assert_same(special, device)
    assert mt.tril(mt.ones(3, 2).t()).stride() == torch.tril(torch.ones(3, 2).t()).stride()


def test_triangle_errors(device):
    for fn in (lambda m, d: m.tril(matrix(m, d, "float32", (3,))),
               lambda m, d: m.triu(matrix(m, d, "float32", ())),
               lambda m, d: matrix(m, d, "int64", (4,)).tril_(),
               lambda m, d: m.diag(matrix(m, d, "float32", (2, 2, 2))),
               lambda m, d: m.diag(matrix(m, d, "float32", ()))):
        assert_same(fn, device)
    # diagonals far past the matrix (torch's int64 size arithmetic wraps for diag of a vector)
    for k in (2 ** 63 - 1, -2 ** 63, 2 ** 40, 2 ** 62, -2 ** 62 + 5):
        assert_same(lambda m, d: m.diag(matrix(m, d, "float32", (2,)), k), device)
        assert_same(lambda m, d: m.diag(matrix(m, d, "float32", (2, 3)), k), device)
        assert_same(lambda m, d: m.tril(matrix(m, d, "float32", (2, 3)), k), device)
        assert_same(lambda m, d: m.triu(matrix(m, d, "float32", (2, 3)), k), device)
    for call in ("tril()", "triu(torch.ones(2, 2), 1.5)", "diag(torch.ones(2), diagonal='x')",
                 "tril(torch.ones(2, 2), 0, 1)"):
        with pytest.raises(TypeError) as want:
            eval("torch." + call)
        with pytest.raises(TypeError) as got:
            eval("mt." + call.replace("torch.", "mt."))
        assert str(got.value).replace("minitorch.", "torch.") == str(want.value)


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_values(device, dtype):
    for shape in ((5,), (1,), (0,), (4, 6), (6, 4), (3, 3), (0, 2)):
        for k in (0, 1, -1, 3, -4, 7, -7):
            assert_same(lambda m, d: m.diag(matrix(m, d, dtype, shape), k), device)
            assert_same(lambda m, d: matrix(m, d, dtype, shape).diag(diagonal=k), device)
    assert_same(lambda m, d: m.diag(matrix(m, d, dtype, (5, 6)).t()[1:, ::2], 1), device)
    assert_same(lambda m, d: m.diag(matrix(m, d, dtype, (9,))[::3], -1), device)


def test_triangle_and_diag_gradients(device):
    def run(m, d, fn, shape):
        x = matrix(m, d, "float64", shape).requires_grad_()
        y = fn(m, x)
        w = matrix(m, d, "float64", tuple(y.shape), seed=1)
        (y * w).sum().backward()
        return type(y.grad_fn).__name__, x.grad.cpu().tolist()

    cases = [(lambda m, x: m.tril(x, 1), (4, 5)), (lambda m, x: x.triu(-1), (2, 3, 4)),
             (lambda m, x: m.diag(x, 1), (4, 5)), (lambda m, x: m.diag(x, -2), (4,)),
             (lambda m, x: (x * 1).tril_(), (3, 3)), (lambda m, x: (x * 1).triu_(2), (3, 5))]
    for fn, shape in cases:
        assert run(mt, device, fn, shape) == run(torch, "cpu", fn, shape)


def test_stride_overflow_of_empty_shapes():
    """c10's restride: a stride past int64 raises even when a size 0 leaves no storage (torch's order: the
    storage size first). Lazy convolutions with a huge kernel size fail at construction through it."""
    from parity import compare

    compare("""
for f in [lambda: torch.empty((0, 0, 2**40, 2**40)), lambda: torch.empty((0, 2**62, 4)), lambda: torch.empty((2**40, 2**40)),
          lambda: torch.empty(0, 2**40, 2**40, 1, memory_format=torch.channels_last),
          lambda: torch.zeros(0).resize_(0, 2**40, 2**40), lambda: torch.nn.Conv2d(0, 3, 2**40),
          lambda: torch.nn.LazyConv2d(3, 2**40), lambda: torch.empty((0, 2**40)).stride()]:
    try:
        print(f())
    except RuntimeError as e:
        print("!!", e)
""")
