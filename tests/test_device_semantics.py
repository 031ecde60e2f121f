"""Tensors on devices, as torch 2.13 has them: factories take device=, .cuda()/.to()/.cpu() move data
and return self exactly when torch does ('cuda' means the current device), copies work between devices,
every op checks its operands' devices with torch's messages (0-d CPU tensors pass as scalars),
integer matmul on a CUDA device is NotImplementedError, a device ordinal that does not exist fails when
used, and item()/tolist()/repr of CUDA tensors read the data back from the device.

The tests run in this process on the device the run has: "cuda" tests skip without a CUDA device and
run on the simulated GPU (MINITORCH_SIMULATE_GPU=1) or a real one. The messages are torch's, from
shared/reference/torch-semantics.md sections 2.1, 2.3, 2.6, 3.3, 4.2 and 4.3.
This file owns tensor device semantics; the cuda module is tested in test_cuda_api.py, two devices in
test_multi_gpu.py.
"""

import math
import os

import pytest

import minitorch as torch

MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
MM_MISMATCH = ("Expected all tensors to be on the same device, but got {arg} is on {got}, different from "
               "other tensors on {common} (when checking argument in method wrapper_CUDA_{op})")
INVALID_ORDINAL = "CUDA error: invalid device ordinal"


@pytest.fixture
def cuda():
    """'cuda' when a CUDA device (real or simulated) is present; skips (or fails under
    MINITORCH_REQUIRE_GPU=1) otherwise. Tests that use it start on device 0."""
    if not torch.cuda.is_available():
        if os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail("MINITORCH_REQUIRE_GPU=1 but no CUDA device is available")
        pytest.skip("no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")
    torch.cuda.set_device(0)
    return "cuda"


def resolved(device):
    """The device a tensor created with device=`device` lives on ('cuda' gets the current index)."""
    if device == "cuda":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device(device)


def normalized_repr(t):
    return repr(t).replace("minitorch.", "torch.")


def close(a, b):
    """Nested lists of numbers equal, floats within float32 rounding (a real GPU may differ in the last bits)."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
    return a == b and type(a) is type(b)


# ---- factories --------------------------------------------------------------------------------------

FACTORIES = [
    ("zeros", lambda d: torch.zeros(2, 3, device=d), [[0.0] * 3] * 2),
    ("zeros size tuple", lambda d: torch.zeros((2, 3), dtype=torch.int32, device=d), [[0] * 3] * 2),
    ("ones", lambda d: torch.ones(3, device=d), [1.0] * 3),
    ("full", lambda d: torch.full((2,), 7, device=d), [7, 7]),
    ("full float", lambda d: torch.full((2, 2), 2.5, dtype=torch.float64, device=d), [[2.5, 2.5]] * 2),
    ("arange", lambda d: torch.arange(5, device=d), [0, 1, 2, 3, 4]),
    ("arange float", lambda d: torch.arange(0, 2, 0.5, device=d), [0.0, 0.5, 1.0, 1.5]),
    ("eye", lambda d: torch.eye(2, device=d), [[1.0, 0.0], [0.0, 1.0]]),
    ("eye nm", lambda d: torch.eye(2, 3, dtype=torch.int64, device=d), [[1, 0, 0], [0, 1, 0]]),
    ("tensor", lambda d: torch.tensor([[1, 2], [3, 4]], device=d), [[1, 2], [3, 4]]),
    ("tensor float", lambda d: torch.tensor([1.5, -2.0], device=d), [1.5, -2.0]),
    ("tensor bool", lambda d: torch.tensor([True, False], device=d), [True, False]),
    ("tensor dtype", lambda d: torch.tensor([1, 2], dtype=torch.float64, device=d), [1.0, 2.0]),
    ("tensor scalar", lambda d: torch.tensor(3.5, device=d), 3.5),
    ("tensor device object", lambda d: torch.tensor([1], device=torch.device(d)), [1]),
    ("empty shape", lambda d: torch.empty(2, 0, 3, device=d), [[], []]),
]


@pytest.mark.parametrize("name, make, values", FACTORIES, ids=[f[0] for f in FACTORIES])
def test_factories_take_device(device, name, make, values):
    t = make(device)
    assert t.device == resolved(device)
    assert t.is_cuda == (device == "cuda")
    assert t.tolist() == values
    assert t.cpu().tolist() == values


RANDOM_FACTORIES = [
    ("rand", lambda d: torch.rand(4, 5, device=d), torch.float32),
    ("randn", lambda d: torch.randn(4, 5, device=d), torch.float32),
    ("randn float64", lambda d: torch.randn(4, 5, dtype=torch.float64, device=d), torch.float64),
    ("randint", lambda d: torch.randint(0, 10, (4, 5), device=d), torch.int64),
    ("randint low high", lambda d: torch.randint(3, 5, (4, 5), dtype=torch.int32, device=d), torch.int32),
    ("empty", lambda d: torch.empty(4, 5, device=d), torch.float32),
]


@pytest.mark.parametrize("name, make, dtype", RANDOM_FACTORIES, ids=[f[0] for f in RANDOM_FACTORIES])
def test_random_and_empty_factories_take_device(device, name, make, dtype):
    t = make(device)
    assert (t.device, t.dtype, tuple(t.shape)) == (resolved(device), dtype, (4, 5))
    values = [v for row in t.tolist() for v in row]
    if name == "rand":
        assert all(0.0 <= v < 1.0 for v in values)
    if name.startswith("randint"):
        lo, hi = (0, 10) if name == "randint" else (3, 5)
        assert all(lo <= v < hi for v in values)


LIKE = [
    ("zeros_like", lambda x, **kw: torch.zeros_like(x, **kw)),
    ("ones_like", lambda x, **kw: torch.ones_like(x, **kw)),
    ("empty_like", lambda x, **kw: torch.empty_like(x, **kw)),
    ("full_like", lambda x, **kw: torch.full_like(x, 3, **kw)),
    ("rand_like", lambda x, **kw: torch.rand_like(x, **kw)),
    ("randn_like", lambda x, **kw: torch.randn_like(x, **kw)),
]


@pytest.mark.parametrize("name, like", LIKE, ids=[f[0] for f in LIKE])
def test_like_factories_follow_the_input_device_unless_told(cuda, name, like):
    g = torch.ones(2, 3, device="cuda")
    c = torch.ones(2, 3)
    assert like(g).device == torch.device("cuda", 0)
    assert like(c).device == torch.device("cpu")
    assert like(c, device="cuda").device == torch.device("cuda", 0)
    assert like(g, device="cpu").device == torch.device("cpu")
    assert like(g, dtype=torch.float64).dtype == torch.float64
    if name == "full_like":
        assert like(g).tolist() == [[3.0] * 3] * 2


def test_tensor_from_data_with_device_like_the_seed(device):
    dev = torch.device(device)
    x = torch.tensor([[1, 2], [3, 4]], device=dev)
    assert str(x.device) == str(resolved(device))
    assert x.dtype == torch.int64
    assert x.tolist() == [[1, 2], [3, 4]]


# ---- .to(), .cuda(), .cpu() -------------------------------------------------------------------------


def test_to_returns_self_when_nothing_changes(device):
    x = torch.tensor([[1.5, 2.0], [3.0, 4.0]], device=device)
    assert x.to(device) is x
    assert x.to(torch.device(device)) is x
    assert x.to(x.device) is x
    assert x.to(torch.float32) is x
    assert x.to(device, torch.float32) is x
    assert x.to(device=device, dtype=torch.float32) is x
    assert x.to(device, non_blocking=True) is x
    assert x.to(x) is x
    assert x.to() is x
    assert x.to(device, copy=True) is not x
    assert x.to(copy=True).tolist() == x.tolist()


def test_cuda_and_to_cuda_return_self_on_the_current_device(cuda):
    x = torch.randn(3, 4, device="cuda")
    assert x.cuda() is x
    assert x.cuda(0) is x
    assert x.cuda("cuda") is x
    assert x.cuda("cuda:0") is x
    assert x.cuda(torch.device("cuda", 0)) is x
    assert x.cuda(device=None, non_blocking=True) is x
    assert x.to("cuda") is x
    assert x.to("cuda:0") is x
    assert x.to(0) is x
    assert x.to(torch.device("cuda")) is x
    assert x.to("cuda", torch.float32) is x
    assert x.to(torch.float32) is x
    assert x.cpu() is not x
    assert x.to("cuda", copy=True) is not x


def test_cpu_returns_self_for_cpu_tensors():
    c = torch.arange(6)
    assert c.cpu() is c
    assert c.cpu().cpu() is c
    assert c.to("cpu") is c
    assert c.to(torch.device("cpu")) is c


def test_moves_copy_the_data(cuda):
    c = torch.tensor([[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]])
    g = c.cuda()
    assert g is not c and g.device == torch.device("cuda", 0) and g.dtype == torch.float32
    assert g.data_ptr() != c.data_ptr()
    assert g.tolist() == c.tolist()
    back = g.cpu()
    assert back.device == torch.device("cpu") and back.tolist() == c.tolist()
    assert g.to("cpu").tolist() == c.tolist()
    # each is an independent copy
    c.copy_(torch.zeros(2, 3))
    assert g.tolist() == [[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]
    g.copy_(torch.ones(2, 3))
    assert back.tolist() == [[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]
    assert g.cpu().tolist() == [[1.0] * 3] * 2


def test_to_with_device_and_dtype(cuda):
    c = torch.tensor([[1, 2], [3, 4]])
    g = c.to("cuda:0", torch.float64)
    assert (g.device, g.dtype, g.tolist()) == (torch.device("cuda", 0), torch.float64, [[1.0, 2.0], [3.0, 4.0]])
    g2 = c.to(device="cuda", dtype=torch.float32)
    assert (g2.device, g2.dtype) == (torch.device("cuda", 0), torch.float32)
    h = g.to(torch.int32)
    assert (h.device, h.dtype, h.tolist()) == (torch.device("cuda", 0), torch.int32, [[1, 2], [3, 4]])
    back = g.to("cpu", torch.int64)
    assert (back.device, back.dtype, back.tolist()) == (torch.device("cpu"), torch.int64, [[1, 2], [3, 4]])
    # to(other) takes the other tensor's device and dtype
    assert c.to(g).device == torch.device("cuda", 0) and c.to(g).dtype == torch.float64
    assert g.to(c).device == torch.device("cpu") and g.to(c).dtype == torch.int64
    # the dtype conversions keep the device
    for convert, dtype in ((g.float, torch.float32), (g.double, torch.float64), (g.long, torch.int64),
                           (g.int, torch.int32), (g.bool, torch.bool)):
        r = convert()
        assert (r.device, r.dtype) == (torch.device("cuda", 0), dtype)


def test_cuda_rejects_a_non_cuda_device(cuda):
    c = torch.ones(2)
    for bad in ("cpu", torch.device("cpu")):
        with pytest.raises(RuntimeError) as info:
            c.cuda(bad)
        assert str(info.value) == "Invalid device, must be cuda device"


def test_moves_keep_dense_strides_and_compact_the_rest(cuda):
    c = torch.arange(12).view(3, 4)
    t = c.t()
    g = t.cuda()
    assert g.stride() == t.stride() == (1, 4)
    assert g.tolist() == t.tolist()
    assert g.cpu().stride() == (1, 4)
    sliced = c[:, 1:3]
    gs = sliced.cuda()
    assert gs.stride() == (2, 1) and gs.tolist() == [[1, 2], [5, 6], [9, 10]]


def test_copy_between_devices(cuda):
    g = torch.zeros(2, 3, device="cuda")
    g.copy_(torch.tensor([[1, 2, 3], [4, 5, 6]]))          # from the CPU, with a dtype conversion
    assert g.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] and g.dtype == torch.float32
    g.copy_(torch.tensor([7.0, 8.0, 9.0]))                  # broadcast from the CPU
    assert g.tolist() == [[7.0, 8.0, 9.0]] * 2
    c = torch.zeros(2, 3, dtype=torch.int64)
    r = c.copy_(g)                                         # to the CPU
    assert r is c and c.tolist() == [[7, 8, 9]] * 2
    g2 = torch.empty(2, 3, dtype=torch.float64, device="cuda")
    g2.copy_(g)                                            # device to device
    assert g2.tolist() == [[7.0, 8.0, 9.0]] * 2
    g[0] = torch.tensor([1.0, 2.0, 3.0])                   # setitem from a CPU tensor copies too
    assert g.tolist() == [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0]]


# ---- reading CUDA tensors ---------------------------------------------------------------------------


def test_item_tolist_and_python_numbers(cuda):
    assert torch.tensor(3.5, device="cuda").item() == 3.5
    i = torch.tensor([7], device="cuda").item()
    assert i == 7 and type(i) is int
    b = torch.tensor(True, device="cuda").item()
    assert b is True
    assert torch.tensor([[1, 2], [3, 4]], device="cuda").tolist() == [[1, 2], [3, 4]]
    assert torch.tensor(2.5, device="cuda").tolist() == 2.5
    assert float(torch.tensor([0.25], device="cuda")) == 0.25
    assert int(torch.tensor(9, device="cuda")) == 9
    assert bool(torch.tensor([1], device="cuda")) is True
    g = torch.arange(10, device="cuda")
    assert g[3].item() == 3 and g[-1].tolist() == 9


def test_repr_of_cuda_tensors(cuda):
    cases = [
        (torch.tensor([[1, 2], [3, 4]], device="cuda"), "tensor([[1, 2],\n        [3, 4]], device='cuda:0')"),
        (torch.tensor([1.0, 2.0], dtype=torch.float64, device="cuda"),
         "tensor([1., 2.], device='cuda:0', dtype=torch.float64)"),
        (torch.tensor([1.5, 2.25], device="cuda"), "tensor([1.5000, 2.2500], device='cuda:0')"),
        (torch.tensor(3.0, device="cuda"), "tensor(3., device='cuda:0')"),
        (torch.tensor([True, False], device="cuda"), "tensor([ True, False], device='cuda:0')"),
        (torch.tensor([1, 2], dtype=torch.int32, device="cuda"), "tensor([1, 2], device='cuda:0', dtype=torch.int32)"),
        (torch.zeros(0, device="cuda"), "tensor([], device='cuda:0')"),
        (torch.zeros(0, 3, dtype=torch.int64, device="cuda"),
         "tensor([], device='cuda:0', size=(0, 3), dtype=torch.int64)"),
        (torch.arange(2000, device="cuda"), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999], device='cuda:0')"),
    ]
    for t, want in cases:
        assert normalized_repr(t) == want
        assert str(t).replace("minitorch.", "torch.") == want


def test_device_attributes_of_cuda_tensors(cuda):
    g = torch.ones(2, device="cuda")
    assert repr(g.device) == "device(type='cuda', index=0)"
    assert str(g.device) == "cuda:0"
    assert g.device == torch.device("cuda", 0) == torch.device("cuda:0")
    assert g.device != torch.device("cuda")
    assert (g.device.type, g.device.index) == ("cuda", 0)
    assert g.is_cuda and not g.is_cpu and g.get_device() == 0
    c = g.cpu()
    assert (repr(c.device), c.is_cuda, c.is_cpu, c.get_device()) == ("device(type='cpu')", False, True, -1)


# ---- device checks ------------------------------------------------------------------------------------

BINARY_OPS = [
    ("+", lambda a, b: a + b),
    ("-", lambda a, b: a - b),
    ("*", lambda a, b: a * b),
    ("/", lambda a, b: a / b),
    ("torch.add", lambda a, b: torch.add(a, b)),
    ("torch.sub", lambda a, b: torch.sub(a, b)),
    ("torch.mul", lambda a, b: torch.mul(a, b)),
    ("torch.div", lambda a, b: torch.div(a, b)),
    ("Tensor.add", lambda a, b: a.add(b)),
    ("==", lambda a, b: a == b),
    ("<", lambda a, b: a < b),
    (">", lambda a, b: a > b),
]


@pytest.mark.parametrize("name, op", BINARY_OPS, ids=[o[0] for o in BINARY_OPS])
def test_elementwise_ops_refuse_mixed_devices(cuda, name, op):
    g = torch.ones(2, 3, device="cuda")
    c = torch.ones(2, 3)
    for a, b in ((g, c), (c, g)):
        with pytest.raises(RuntimeError) as info:
            op(a, b)
        # the first non-CPU operand is the common device, whichever side it is on
        assert str(info.value) == MISMATCH.format("cuda:0", "cpu")


def test_in_place_ops_refuse_mixed_devices(cuda):
    g = torch.ones(3, device="cuda")
    c = torch.ones(3)
    cases = [lambda: g.add_(c), lambda: c.add_(g), lambda: g.mul_(c), lambda: c.sub_(g), lambda: g.div_(c)]
    for case in cases:
        with pytest.raises(RuntimeError) as info:
            case()
        assert str(info.value) == MISMATCH.format("cuda:0", "cpu")
    with pytest.raises(RuntimeError) as info:
        g += c
    assert str(info.value) == MISMATCH.format("cuda:0", "cpu")
    assert g.tolist() == [1.0, 1.0, 1.0] and c.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("name, op", BINARY_OPS, ids=[o[0] for o in BINARY_OPS])
def test_zero_dim_cpu_tensors_are_scalars(cuda, name, op):
    g = torch.tensor([2.0, 4.0, 6.0], device="cuda")
    s = torch.tensor(2.0)
    for a, b in ((g, s), (s, g)):
        got = op(a, b)
        want = op(a.cpu(), b.cpu())
        assert got.device == torch.device("cuda", 0)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_zero_dim_cpu_tensor_in_place_and_with_promotion(cuda):
    g = torch.tensor([1, 2, 3], device="cuda")
    g.add_(torch.tensor(5))
    assert g.tolist() == [6, 7, 8] and g.device == torch.device("cuda", 0)
    r = g * torch.tensor(0.5)
    assert (r.device, r.dtype, r.tolist()) == (torch.device("cuda", 0), torch.float32, [3.0, 3.5, 4.0])
    r = torch.tensor(10) - g
    assert (r.device, r.dtype, r.tolist()) == (torch.device("cuda", 0), torch.int64, [4, 3, 2])


def test_one_element_cpu_tensors_are_not_scalars(cuda):
    g = torch.ones(3, device="cuda")
    for other in (torch.tensor([2.0]), torch.tensor([[2.0]])):
        for a, b in ((g, other), (other, g)):
            with pytest.raises(RuntimeError) as info:
                a + b
            assert str(info.value) == MISMATCH.format("cuda:0", "cpu")


def test_zero_dim_cuda_tensor_with_a_cpu_tensor_fails(cuda):
    c = torch.ones(3)
    s = torch.tensor(2.0, device="cuda")
    for a, b in ((c, s), (s, c)):
        with pytest.raises(RuntimeError) as info:
            a * b
        assert str(info.value) == MISMATCH.format("cuda:0", "cpu")


MATMUL_OPS = [
    ("@", lambda a, b: a @ b),
    ("torch.matmul", lambda a, b: torch.matmul(a, b)),
    ("torch.mm", lambda a, b: torch.mm(a, b)),
    ("Tensor.mm", lambda a, b: a.mm(b)),
    ("Tensor.matmul", lambda a, b: a.matmul(b)),
]


@pytest.mark.parametrize("name, op", MATMUL_OPS, ids=[o[0] for o in MATMUL_OPS])
def test_matmul_refuses_mixed_devices(cuda, name, op):
    g = torch.ones(2, 3, device="cuda")
    c = torch.ones(3, 2)
    with pytest.raises(RuntimeError) as info:
        op(g, c)
    assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cpu", common="cuda:0", op="mm")
    # the first argument's device is the common one
    with pytest.raises(RuntimeError) as info:
        op(c, g)
    assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cuda:0", common="cpu", op="mm")


def test_vector_matrix_matmul_refuses_mixed_devices(cuda):
    # 1-D @ 2-D is unsqueeze(0).mm(...): the same check as mm
    with pytest.raises(RuntimeError) as info:
        torch.ones(3, device="cuda") @ torch.ones(3, 2)
    assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cpu", common="cuda:0", op="mm")


def test_matmul_with_a_zero_dim_operand_is_a_shape_error_first(cuda):
    with pytest.raises(RuntimeError) as info:
        torch.ones(2, 2, device="cuda") @ torch.tensor(2.0)
    assert str(info.value) == "both arguments to matmul need to be at least 1D, but they are 2D and 0D"


def test_seed_matmul_of_a_cuda_and_a_cpu_tensor(cuda):
    a = torch.tensor([[1, 1], [2, 2]]).cuda()
    b = torch.tensor([[5, 6], [7, 8]])
    # the device check comes before the dtype dispatch, so int64 gives the device error here
    with pytest.raises(RuntimeError) as info:
        torch.matmul(a, b)
    assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cpu", common="cuda:0", op="mm")
    assert torch.matmul(a.cpu(), b).tolist() == [[12, 14], [24, 28]]


@pytest.mark.parametrize(
    "dtype, name",
    [(torch.int64, "Long"), (torch.int32, "Int")],
)
def test_integer_matmul_on_cuda_is_not_implemented(cuda, dtype, name):
    a = torch.tensor([[1, 1], [2, 2]], dtype=dtype, device="cuda")
    b = torch.tensor([[5, 6], [7, 8]], dtype=dtype, device="cuda")
    for op in (lambda: a @ b, lambda: torch.matmul(a, b), lambda: torch.mm(a, b), lambda: a[0] @ b):
        with pytest.raises(NotImplementedError) as info:
            op()
        assert str(info.value) == "\"addmm_cuda\" not implemented for '{}'".format(name)
    with pytest.raises(NotImplementedError) as info:
        a @ b[0]
    assert str(info.value) == "\"addmv_impl_cuda\" not implemented for '{}'".format(name)
    with pytest.raises(NotImplementedError) as info:
        a[0] @ b[0]
    assert str(info.value) == "\"dot\" not implemented for '{}'".format(name)
    # on the CPU the same product works
    assert (a.cpu() @ b.cpu()).tolist() == [[12, 14], [24, 28]]


def test_float_matmul_on_cuda(cuda):
    a = torch.tensor([[1.0, 1.0], [2.0, 2.0]], device="cuda")
    b = torch.tensor([[5.0, 6.0], [7.0, 8.0]], device="cuda")
    r = a @ b
    assert (r.device, r.dtype, r.tolist()) == (torch.device("cuda", 0), torch.float32, [[12.0, 14.0], [24.0, 28.0]])


# ---- device ordinals -------------------------------------------------------------------------------------


def _missing_ordinal():
    return max(7, torch.cuda.device_count())


def test_a_device_that_does_not_exist_fails_when_used(cuda):
    n = _missing_ordinal()
    d = torch.device("cuda:{}".format(n))
    assert (d.type, d.index) == ("cuda", n)
    c = torch.ones(2)
    uses = [
        lambda: torch.zeros(1, device="cuda:{}".format(n)),
        lambda: torch.ones(1, device=d),
        lambda: torch.tensor([1, 2], device=d),
        lambda: torch.randn(2, device=d),
        lambda: c.to(d),
        lambda: c.to("cuda:{}".format(n), torch.float64),
        lambda: c.cuda(n),
        lambda: torch.cuda.set_device(n),
    ]
    for use in uses:
        with pytest.raises(torch.AcceleratorError) as info:
            use()
        assert isinstance(info.value, RuntimeError)
        assert str(info.value).splitlines()[0] == INVALID_ORDINAL
    assert torch.cuda.current_device() == 0


# ---- every op of the CPU core on CUDA tensors ------------------------------------------------------------

A = [[1.5, -2.0, 3.25], [0.5, 4.0, -1.75]]
B = [[2.0, 0.5, -1.0], [3.0, -0.25, 2.0]]

OPS = [
    ("add", lambda a, b: a + b),
    ("add scalar", lambda a, b: a + 2),
    ("radd scalar", lambda a, b: 2 + a),
    ("sub", lambda a, b: a - b),
    ("mul", lambda a, b: a * b),
    ("mul scalar", lambda a, b: a * 0.5),
    ("div", lambda a, b: a / b),
    ("div scalar", lambda a, b: a / 4),
    ("neg", lambda a, b: -a),
    ("add alpha", lambda a, b: torch.add(a, b, alpha=2)),
    ("broadcast", lambda a, b: a + b[0]),
    ("eq", lambda a, b: a == b),
    ("lt", lambda a, b: a < b),
    ("gt scalar", lambda a, b: a > 1),
    ("abs", lambda a, b: torch.abs(a)),
    ("sqrt", lambda a, b: torch.sqrt(torch.abs(a))),
    ("exp", lambda a, b: torch.exp(a)),
    ("log", lambda a, b: torch.log(torch.abs(a))),
    ("relu", lambda a, b: torch.relu(a)),
    ("sum", lambda a, b: a.sum()),
    ("sum dim", lambda a, b: a.sum(1)),
    ("sum int", lambda a, b: a.long().sum(0)),
    ("mean", lambda a, b: a.mean()),
    ("mean dim", lambda a, b: torch.mean(a, 0)),
    ("max", lambda a, b: a.max()),
    ("max dim", lambda a, b: tuple(a.max(1))),
    ("min dim", lambda a, b: tuple(torch.min(a, 0))),
    ("argmax", lambda a, b: a.argmax()),
    ("argmin dim", lambda a, b: a.argmin(1)),
    ("all", lambda a, b: (a > -3).all()),
    ("any", lambda a, b: (a > 3).any()),
    ("matmul", lambda a, b: a @ b.t()),
    ("mm", lambda a, b: torch.mm(a.t(), b)),
    ("matmul vector", lambda a, b: a @ b[0]),
    ("dot", lambda a, b: a[0] @ b[1]),
    ("t", lambda a, b: a.t()),
    ("transpose", lambda a, b: a.transpose(0, 1)),
    ("view", lambda a, b: a.view(3, 2)),
    ("reshape", lambda a, b: a.t().reshape(6)),
    ("squeeze", lambda a, b: a.view(1, 2, 3).squeeze(0)),
    ("unsqueeze", lambda a, b: a.unsqueeze(1)),
    ("flatten", lambda a, b: a.flatten()),
    ("contiguous", lambda a, b: a.t().contiguous()),
    ("clone", lambda a, b: a.clone()),
    ("index", lambda a, b: a[1]),
    ("slice", lambda a, b: a[:, 1:3]),
    ("element", lambda a, b: a[1, 2]),
    ("float to int", lambda a, b: a.int()),
    ("to float64", lambda a, b: a.to(torch.float64)),
    ("zeros_like", lambda a, b: torch.zeros_like(a)),
]


def _setitem(a, b):
    a = a.clone()
    a[0] = b[1]
    a[1, 1] = 9.0
    return a


def _inplace(a, b):
    a = a.clone()
    a.add_(b)
    a.mul_(2)
    a.sub_(b)
    a.div_(4)
    a += 1
    return a


def _copy(a, b):
    a = a.clone()
    a.copy_(b.t().t())
    return a


OPS += [("setitem", _setitem), ("in-place", _inplace), ("copy_", _copy)]


def _as_list(value):
    if isinstance(value, tuple):
        return [_as_list(v) for v in value]
    return value.tolist()


def _devices(value):
    if isinstance(value, tuple):
        return {d for v in value for d in _devices(v)}
    return {value.device}


def _dtypes(value):
    if isinstance(value, tuple):
        return [v.dtype for v in value]
    return [value.dtype]


@pytest.mark.parametrize("name, op", OPS, ids=[o[0] for o in OPS])
def test_cpu_core_ops_work_on_cuda_tensors(cuda, name, op):
    a, b = torch.tensor(A), torch.tensor(B)
    want = op(a, b)
    got = op(a.cuda(), b.cuda())
    assert _devices(got) == {torch.device("cuda", 0)}
    assert _dtypes(got) == _dtypes(want)
    assert close(_as_list(got), _as_list(want)), (name, _as_list(got), _as_list(want))
    # the inputs on the device are unchanged
    assert a.tolist() == A and b.tolist() == B


def test_bool_results_read_back(cuda):
    a = torch.tensor(A, device="cuda")
    assert bool((a == a.clone()).all()) is True
    if (a > 100).any():
        pytest.fail("any() on a CUDA tensor read back the wrong value")


@pytest.mark.parametrize("make", [lambda i: torch.device("cuda", i), lambda i: torch.device("cuda:%d" % i)])
def test_device_index_is_at_most_127(make):
    """c10 keeps a device index in an int8 and wraps larger ones (cuda:300 is cuda:44 in torch);
    minitorch refuses them, whether the index comes as an int or inside the string."""
    assert make(127).index == 127
    for index in (128, 300, 2**31, 2**62):
        with pytest.raises(RuntimeError):
            make(index)


def test_device_index_errors_keep_torchs_order():
    with pytest.raises(RuntimeError, match="must not include an index because index was passed explicitly"):
        torch.device("cuda:0", 2**64)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.device("cuda", 2**64)
    with pytest.raises(RuntimeError, match="Device index must not be negative"):
        torch.device("cuda", -1)
    with pytest.raises(RuntimeError, match=r"at most 127 .*got 2147483648"):
        torch.device("cuda", 2**31)
