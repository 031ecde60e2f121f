"""Tensor.share_memory_(), Tensor.is_shared() and nn.Module.share_memory() against torch, the memory a forked
process shares (Hogwild), and buffers exported to NumPy, memoryview or DLPack staying valid when the storage
under them moves (share_memory_, resize_): torch frees the old buffer under them, minitorch keeps it for them."""

import multiprocessing
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from parity import compare  # noqa: E402

import minitorch  # noqa: E402


def test_parity():
    compare("""
import copy, pickle
t = torch.arange(6.)
v = t[2:4]
print(t.is_shared(), v.is_shared())
r = v.share_memory_()
print(r is v, t.is_shared(), v.is_shared(), v.data_ptr() - t.data_ptr(), t, v)
v[0] = 10
print(t, t.view(2, 3).is_shared(), t.detach().is_shared(), t.clone().is_shared())
print(copy.deepcopy(t).is_shared(), pickle.loads(pickle.dumps(t)).is_shared(), (t + 1).is_shared())
a = np.ones(3)
n = torch.from_numpy(a)
n.share_memory_()
n[0] = 5
print(a, n, n.is_shared())
e = torch.empty(0)
print(e.share_memory_().is_shared(), e)
g = torch.ones(2, requires_grad=True)
print(g.share_memory_() is g, g.is_shared(), g.requires_grad, g.grad_fn)
b = torch.ones(4, dtype=torch.bfloat16).share_memory_()
print(b.is_shared(), b, torch.ones(3, dtype=torch.int8).share_memory_().is_shared())
p = torch.nn.Parameter(torch.ones(2))
print(p.share_memory_() is p, p.is_shared(), type(p).__name__)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3))
print(m.share_memory() is m, [x.is_shared() for x in m.parameters()], [x.is_shared() for x in m.buffers()])
print(m.state_dict()["0.weight"].is_shared())
try:
    torch.empty(2, device="meta").share_memory_()
except RuntimeError as ex:
    print(ex)
print(torch.empty(2, device="meta").is_shared())
t.resize_(2)
print(t, t.is_shared())
for f in [lambda: t.share_memory_(1), lambda: t.is_shared(1)]:
    try:
        f()
    except TypeError as ex:
        print(type(ex).__name__)
""")


def test_shared_with_forked_processes():
    # Hogwild's mechanism: the processes forked after share_memory_ write into the same memory
    shared = minitorch.zeros(4).share_memory_()
    private = minitorch.zeros(4)
    model = minitorch.nn.Linear(3, 2).share_memory()

    def work(shared, private, model):
        shared += 1
        private += 1
        with minitorch.no_grad():
            model.weight.fill_(7.0)

    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=work, args=(shared, private, model)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [w.exitcode for w in workers] == [0, 0]
    assert shared.tolist() == [2.0, 2.0, 2.0, 2.0] and private.tolist() == [0.0] * 4
    assert model.weight.tolist() == [[7.0] * 3] * 2


def test_shared_storage_cannot_grow():
    t = minitorch.ones(3).share_memory_()
    with pytest.raises(RuntimeError, match="Trying to resize storage that is not resizable"):
        t.resize_(1000)
    assert t.resize_(2).tolist() == [1.0, 1.0] and t.is_shared()


@pytest.mark.parametrize("move", ["share_memory_", "resize_"])
@pytest.mark.parametrize("export", ["numpy", "memoryview", "dlpack"])
def test_exported_buffer_outlives_a_move(move, export):
    t = minitorch.arange(300000, dtype=minitorch.float32)
    if export == "numpy":
        view = t.numpy()
    elif export == "memoryview":
        view = np.asarray(memoryview(t))
    else:
        view = np.from_dlpack(t)
    if move == "share_memory_":
        t.share_memory_()
    else:
        t.resize_(600000)
    t[:300000] = -1.0
    # the old bytes are still there (not freed and reused by the next allocation)
    noise = minitorch.randn(300000)
    assert np.array_equal(view, np.arange(300000, dtype=np.float32))
    del view, noise
    assert t[:2].tolist() == [-1.0, -1.0]


def test_device_tensors_are_shared(device):
    # a CUDA tensor is shared already (share_memory_ does nothing); a CPU tensor once moved
    t = minitorch.ones(3, device=device)
    assert t.is_shared() == (device == "cuda")
    assert t.share_memory_() is t and t.is_shared() and t.tolist() == [1.0, 1.0, 1.0]
