"""Two CUDA devices, as torch has them: tensors on different devices refuse to meet in an op (torch's
messages name both devices), copies between devices work, 'cuda' means the current device,
set_device() and the cuda.device() context manager change it (and the manager restores it), and the
allocator keeps statistics per device.

Every test here needs two devices and skips otherwise: CI runs them with MINITORCH_SIMULATE_GPU=2
(`pytest -m multi_gpu`). Each test starts and ends on device 0. Fresh-process numbers for two devices
are in test_cuda_memory.py; the single-device semantics in test_device_semantics.py.
"""

import gc
import threading

import pytest

import minitorch as torch

pytestmark = [
    pytest.mark.multi_gpu,
    pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices (MINITORCH_SIMULATE_GPU=2)"),
]

MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
MM_MISMATCH = ("Expected all tensors to be on the same device, but got {arg} is on {got}, different from "
               "other tensors on {common} (when checking argument in method wrapper_CUDA_mm)")

CUDA0 = torch.device("cuda", 0)
CUDA1 = torch.device("cuda", 1)


@pytest.fixture(autouse=True)
def on_device_0():
    torch.cuda.set_device(0)
    yield
    torch.cuda.set_device(0)


def test_device_count_and_names():
    assert torch.cuda.device_count() >= 2
    assert torch.cuda.is_available()
    for index in (0, 1):
        props = torch.cuda.get_device_properties(index)
        assert torch.cuda.get_device_name(index) == props.name
        assert torch.cuda.get_device_name("cuda:{}".format(index)) == props.name
        assert torch.cuda.get_device_capability(torch.device("cuda", index)) == (props.major, props.minor)
        free, total = torch.cuda.mem_get_info(index)
        assert 0 < free <= total == props.total_memory


def test_factories_and_moves_on_device_1():
    a = torch.arange(6, device="cuda:1")
    b = torch.tensor([[1.5, 2.5]], device=CUDA1)
    c = torch.zeros(2, device=1)
    assert a.device == b.device == c.device == CUDA1
    assert a.get_device() == 1 and a.is_cuda
    assert str(a.device) == "cuda:1"
    assert a.tolist() == [0, 1, 2, 3, 4, 5] and b.tolist() == [[1.5, 2.5]]
    assert repr(a) == "tensor([0, 1, 2, 3, 4, 5], device='cuda:1')"
    assert torch.zeros_like(a).device == CUDA1
    assert torch.ones_like(a, device="cuda:0").device == CUDA0


def test_copies_between_devices():
    x0 = torch.randn(3, 4, device="cuda:0")
    x1 = x0.to("cuda:1")
    assert x1.device == CUDA1 and x1.tolist() == x0.tolist()
    assert x1.data_ptr() != x0.data_ptr()
    assert x0.to(1).device == CUDA1
    assert x0.cuda(1).device == CUDA1
    assert x0.to(torch.device("cuda:1"), torch.float64).dtype == torch.float64
    back = x1.cuda(0)
    assert back.device == CUDA0 and back.tolist() == x0.tolist()
    assert x1.cpu().tolist() == x0.tolist()
    # copy_ across devices, with a dtype conversion and broadcasting
    y1 = torch.zeros(3, 4, dtype=torch.float64, device="cuda:1")
    assert y1.copy_(x0) is y1
    assert y1.cuda(0).to(torch.float32).tolist() == x0.tolist()
    y1.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda:0"))
    assert y1.tolist() == [[1.0, 2.0, 3.0, 4.0]] * 3
    # a non-contiguous source keeps its strides on the other device
    t = x0.t().to("cuda:1")
    assert t.stride() == (1, 4) and t.tolist() == x0.t().tolist()


def test_identity_rules_with_two_devices():
    x0 = torch.ones(2, device="cuda:0")
    x1 = torch.ones(2, device="cuda:1")
    assert x1.to("cuda:1") is x1
    assert x1.cuda(1) is x1
    assert x1.to(1) is x1
    # 'cuda' means the current device (0 here), so these move x1
    assert x1.cuda() is not x1 and x1.cuda().device == CUDA0
    assert x1.to("cuda").device == CUDA0
    assert x0.cuda() is x0 and x0.to("cuda") is x0
    torch.cuda.set_device(1)
    try:
        assert x1.cuda() is x1 and x1.to("cuda") is x1
        assert x0.cuda().device == CUDA1
        assert x0.to("cuda") is not x0
    finally:
        torch.cuda.set_device(0)


def test_current_device_decides_where_cuda_goes():
    torch.cuda.set_device(1)
    try:
        assert torch.cuda.current_device() == 1
        assert torch.zeros(1, device="cuda").device == CUDA1
        assert torch.tensor([1, 2], device="cuda").device == CUDA1
        assert torch.ones(2).cuda().device == CUDA1
        assert torch.ones(2).to("cuda").device == CUDA1
        assert torch.randn(2, device=torch.device("cuda")).device == CUDA1
        # explicit indices are unaffected
        assert torch.zeros(1, device="cuda:0").device == CUDA0
        # a CUDA tensor not on the current device still prints its device
        assert repr(torch.zeros(1, device="cuda:0")) == "tensor([0.], device='cuda:0')"
    finally:
        torch.cuda.set_device(0)
    for spelling in (1, "cuda:1", CUDA1):
        torch.cuda.set_device(spelling)
        assert torch.cuda.current_device() == 1
        torch.cuda.set_device(0)
    torch.cuda.set_device(-1)  # negative: no-op
    assert torch.cuda.current_device() == 0


def test_device_context_manager():
    with torch.cuda.device(1):
        assert torch.cuda.current_device() == 1
        assert torch.zeros(1, device="cuda").device == CUDA1
        with torch.cuda.device("cuda:0"):
            assert torch.cuda.current_device() == 0
        assert torch.cuda.current_device() == 1
        with torch.cuda.device(None):
            assert torch.cuda.current_device() == 1
        with torch.cuda.device(-1):
            assert torch.cuda.current_device() == 1
    assert torch.cuda.current_device() == 0
    with torch.cuda.device(CUDA1):
        assert torch.cuda.current_device() == 1
    assert torch.cuda.current_device() == 0
    x1 = torch.ones(1, device="cuda:1")
    with torch.cuda.device_of(x1):
        assert torch.cuda.current_device() == 1
    with torch.cuda.device_of(torch.ones(1)):
        assert torch.cuda.current_device() == 0


def test_device_context_manager_restores_after_set_device_inside():
    # torch's __exit__ always switches back to the device current at __enter__
    with torch.cuda.device(0):
        torch.cuda.set_device(1)
        assert torch.cuda.current_device() == 1
    assert torch.cuda.current_device() == 0
    with torch.cuda.device(1):
        torch.cuda.set_device(0)
    assert torch.cuda.current_device() == 0


def test_device_context_manager_restores_on_exception():
    with pytest.raises(ValueError):
        with torch.cuda.device(1):
            raise ValueError("inside")
    assert torch.cuda.current_device() == 0


def test_current_device_is_per_thread():
    # cudaSetDevice is per host thread: a new thread starts on device 0
    torch.cuda.set_device(1)
    seen = []
    try:
        thread = threading.Thread(target=lambda: seen.append(torch.cuda.current_device()))
        thread.start()
        thread.join()
    finally:
        torch.cuda.set_device(0)
    assert seen == [0]


@pytest.mark.parametrize(
    "name, op",
    [
        ("+", lambda a, b: a + b),
        ("*", lambda a, b: a * b),
        ("torch.sub", lambda a, b: torch.sub(a, b)),
        ("==", lambda a, b: a == b),
        ("add_", lambda a, b: a.clone().add_(b)),
    ],
    ids=["+", "*", "torch.sub", "==", "add_"],
)
def test_elementwise_ops_refuse_two_cuda_devices(name, op):
    x0 = torch.ones(3, device="cuda:0")
    x1 = torch.ones(3, device="cuda:1")
    with pytest.raises(RuntimeError) as info:
        op(x0, x1)
    assert str(info.value) == MISMATCH.format("cuda:0", "cuda:1")
    with pytest.raises(RuntimeError) as info:
        op(x1, x0)
    assert str(info.value) == MISMATCH.format("cuda:1", "cuda:0")


def test_zero_dim_tensor_on_another_cuda_device_is_not_a_scalar():
    x0 = torch.ones(3, device="cuda:0")
    s1 = torch.tensor(2.0, device="cuda:1")
    with pytest.raises(RuntimeError) as info:
        x0 * s1
    assert str(info.value) == MISMATCH.format("cuda:0", "cuda:1")
    # a 0-d CPU tensor still is one, on either device
    assert (torch.ones(3, device="cuda:1") * torch.tensor(2.0)).device == CUDA1


def test_cpu_and_device_1():
    x1 = torch.ones(2, 2, device="cuda:1")
    c = torch.ones(2, 2)
    with pytest.raises(RuntimeError) as info:
        c + x1
    assert str(info.value) == MISMATCH.format("cuda:1", "cpu")
    with pytest.raises(RuntimeError) as info:
        x1 @ c
    assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cpu", common="cuda:1")


def test_matmul_refuses_two_cuda_devices():
    a0 = torch.ones(2, 3, device="cuda:0")
    b1 = torch.ones(3, 2, device="cuda:1")
    for op in (lambda a, b: a @ b, torch.matmul, torch.mm):
        with pytest.raises(RuntimeError) as info:
            op(a0, b1)
        assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cuda:1", common="cuda:0")
        with pytest.raises(RuntimeError) as info:
            op(b1.t(), a0.t())
        assert str(info.value) == MM_MISMATCH.format(arg="mat2", got="cuda:0", common="cuda:1")
    r = a0 @ b1.to("cuda:0")
    assert r.device == CUDA0 and r.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    r1 = a0.to(1) @ b1
    assert r1.device == CUDA1 and r1.tolist() == [[3.0, 3.0], [3.0, 3.0]]


def test_integer_matmul_on_device_1_is_not_implemented():
    a = torch.ones(2, 2, dtype=torch.int64, device="cuda:1")
    with pytest.raises(NotImplementedError) as info:
        a @ a
    assert str(info.value) == "\"addmm_cuda\" not implemented for 'Long'"


def test_ops_run_on_device_1():
    a = torch.tensor([[1.0, -2.0], [3.0, 4.0]], device="cuda:1")
    assert (a + 1).device == CUDA1 and (a + 1).tolist() == [[2.0, -1.0], [4.0, 5.0]]
    assert a.sum().device == CUDA1 and a.sum().item() == 6.0
    assert torch.relu(a).tolist() == [[1.0, 0.0], [3.0, 4.0]]
    assert a.t().contiguous().device == CUDA1
    assert a[1].tolist() == [3.0, 4.0]


def test_statistics_are_kept_per_device():
    gc.collect()  # tensors held by garbage cycles (e.g. tracebacks of earlier tests) must not be freed midway
    torch.cuda.empty_cache()
    allocated = [torch.cuda.memory_allocated(i) for i in (0, 1)]
    reserved = [torch.cuda.memory_reserved(i) for i in (0, 1)]
    x1 = torch.empty(3 * 2**20, device="cuda:1")       # 12 MiB: a segment of its own
    assert torch.cuda.memory_allocated(1) - allocated[1] == 12 * 2**20
    assert torch.cuda.memory_reserved(1) - reserved[1] == 12 * 2**20
    assert torch.cuda.memory_allocated("cuda:1") == torch.cuda.memory_allocated(CUDA1)
    assert torch.cuda.memory_allocated(0) == allocated[0]
    assert torch.cuda.memory_allocated() == allocated[0]
    with torch.cuda.device(1):
        assert torch.cuda.memory_allocated() == torch.cuda.memory_allocated(1)
        assert torch.cuda.memory_stats() == torch.cuda.memory_stats(1)
    y0 = x1.to("cuda:0")
    assert torch.cuda.memory_allocated(0) - allocated[0] == 12 * 2**20
    assert torch.cuda.memory_allocated(1) - allocated[1] == 12 * 2**20
    assert torch.cuda.max_memory_allocated(1) >= torch.cuda.memory_allocated(1)
    torch.cuda.reset_peak_memory_stats(1)
    assert torch.cuda.max_memory_allocated(1) == torch.cuda.memory_allocated(1)
    del x1, y0
    assert [torch.cuda.memory_allocated(i) for i in (0, 1)] == allocated
    # empty_cache releases cached segments on every device, not only the current one
    torch.cuda.empty_cache()
    assert [torch.cuda.memory_reserved(i) for i in (0, 1)] == reserved
    summary = torch.cuda.memory_summary(1)
    assert "PyTorch CUDA memory summary, device ID 1 " in summary


def test_synchronize_each_device():
    for spelling in (0, 1, "cuda:1", CUDA1, None):
        torch.cuda.synchronize(spelling)
    assert torch.cuda.current_device() == 0


def test_missing_ordinal_with_two_devices():
    n = torch.cuda.device_count()
    with pytest.raises(torch.AcceleratorError) as info:
        torch.zeros(1, device="cuda:{}".format(n))
    assert str(info.value).splitlines()[0] == "CUDA error: invalid device ordinal"
    with pytest.raises(AssertionError) as info:
        torch.cuda.get_device_properties(n)
    assert str(info.value) == "Invalid device id"
