"""torch.accelerator (minitorch/accelerator.py): the device-generic API of PyTorch's current tutorials,
handing over to minitorch.cuda. With a device (the simulated GPU) it answers as torch's CUDA build does;
without one, every call that needs a device raises torch's error; a CPU-only build answers as torch's
CPU build, a CUDA build as torch's CUDA build (compared with torch when both are the same kind of build)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, same_build_as_torch  # noqa: E402

import minitorch  # noqa: E402

A = minitorch.accelerator
NO_DEVICE = "Cannot access accelerator device when none is available."


def test_tutorial_idiom():
    # "Learn the Basics": device = torch.accelerator.current_accelerator().type if ... else "cpu"
    chosen = A.current_accelerator().type if A.is_available() else "cpu"
    expected = "cuda" if minitorch.cuda.is_available() else "cpu"
    assert chosen == expected
    model = minitorch.nn.Linear(3, 2).to(chosen)
    assert model(minitorch.ones(1, 3, device=chosen)).device.type == expected


def test_with_a_device(device):
    if device == "cpu":
        pytest.skip("needs the (simulated) GPU")
    assert A.current_accelerator() == minitorch.device("cuda") and A.current_accelerator(check_available=True)
    assert A.device_count() == minitorch.cuda.device_count() and A.current_device_index() == 0
    before = A.memory_allocated()
    x = minitorch.ones(1000, device="cuda")
    assert A.memory_allocated() == before + 4096 == minitorch.cuda.memory_allocated()
    assert A.max_memory_allocated(0) >= A.memory_allocated() and A.memory_reserved("cuda:0") >= 4096
    assert A.memory_stats()["allocated_bytes.all.current"] == A.memory_allocated()
    del x
    A.empty_cache()
    A.reset_peak_memory_stats()
    A.synchronize()
    A.synchronize(0)
    with A.device_index(0):
        assert A.current_device_index() == 0
    A.set_device_index("cuda:0")
    assert minitorch.float32 in A.get_device_capability()["supported_dtypes"]
    with pytest.raises(ValueError, match="cpu doesn't match the current accelerator cuda"):
        A.synchronize("cpu")
    with pytest.raises(ValueError, match="Expected a torch.device with a specified index or an integer, but got:cuda"):
        A.set_device_index("cuda")


def test_without_a_device():
    if A.is_available():
        pytest.skip("a (simulated) GPU is present")
    assert A.device_count() == 0 and A.current_accelerator(check_available=True) is None
    device_calls = (A.current_device_index, A.get_memory_info, A.synchronize, lambda: A.set_device_index(0),
                    lambda: A.device_index(0).__enter__(), A.get_device_capability)
    memory_calls = (A.memory_stats, A.memory_allocated, A.max_memory_reserved, A.empty_cache,
                    A.reset_peak_memory_stats, A.reset_accumulated_memory_stats)
    if minitorch._C.has_cuda:
        # a CUDA build (as torch's): the allocator's functions answer zeros before CUDA is initialised, and the
        # calls that need a device fail as CUDA's first use does ("Found no NVIDIA driver ..." without a driver)
        with pytest.raises(RuntimeError) as init:
            minitorch.cuda.init()
        for call in device_calls:
            with pytest.raises(RuntimeError) as info:
                call()
            assert str(info.value) == str(init.value)
        assert [call() for call in memory_calls] == [{}, 0, 0, None, None, None]
    else:
        for call in device_calls + memory_calls:
            with pytest.raises(RuntimeError, match=NO_DEVICE):
                call()
    A.set_device_index(-1)          # a negative index is a no-op, as in torch
    with A.device_index(None):
        pass


@pytest.mark.skipif(minitorch.cuda.is_available(), reason="minitorch sees a GPU here; torch is compared without one")
def test_parity_without_a_device():
    if not same_build_as_torch():
        pytest.skip("torch and minitorch are different builds (CUDA and CPU-only): a CUDA build has an accelerator")
    compare("""
A = torch.accelerator
print(A.is_available(), A.current_accelerator(), A.current_accelerator(check_available=True), A.device_count())
A.current_device_index()
print(A.memory_allocated(), A.memory_stats(), A.max_memory_reserved(0), A.empty_cache(), A.reset_peak_memory_stats())
A.get_memory_info()
A.synchronize()
A.synchronize('cpu')
A.set_device_index(0)
A.set_device_index('cuda')
A.set_device_index(-1)
print(A.current_accelerator().type if A.is_available() else 'cpu')
""")
