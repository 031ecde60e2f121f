"""DataLoader worker processes (issue 17: num_workers > 0) against torch 2.13.

Real worker processes, as torch's: each worker seeded with base_seed + worker_id (torch's generator,
Python's `random`, NumPy's), worker_init_fn and get_worker_info() inside it, batches in the sampler's order
whatever order the workers finish in, prefetch_factor, persistent workers across epochs, an IterableDataset
copied into every worker (sharded by the dataset itself with get_worker_info), the 'spawn' and 'forkserver'
start methods (datasets pickled: the classes are in data_workers_cases.py), a worker's exception re-raised in
the main process with torch's wrapping, timeout, a killed worker, and no worker process left behind. The
same program runs under torch and minitorch and must print the same. Worker start-up is slow, so each test
uses a few small loaders. The tests skip without torch."""

import gc
import multiprocessing
import os
import re
import warnings

import pytest

import minitorch as mt
from parity import compare, compare_on, normalize, run_snippet

import data_workers_cases as cases

torch = pytest.importorskip("torch")

# every test here starts worker processes
pytestmark = cases.starts_workers

SETUP = """
import functools
from torch.utils.data import (DataLoader, TensorDataset, IterableDataset, BatchSampler, RandomSampler,
    SequentialSampler, get_worker_info)
import data_workers_cases as cases
lib = torch.__name__
x = torch.arange(40).reshape(20, 2).float(); y = torch.arange(20)
ds = TensorDataset(x, y)  # on the host: workers load host tensors (pin_memory=True readies them for DEV)
def rows(loader):
    return [[t.to(DEV, non_blocking=True).tolist() for t in b] for b in loader]
def seeded(loader):
    return [(b["i"].tolist(), b["t"].flatten().tolist(), b["r"].tolist(), b["np"].tolist(), b["w"]) for b in loader]
"""


def test_batches_and_seeds_in_workers(device):
    compare_on(device, SETUP + """
for seed in [0, 3]:
    torch.manual_seed(seed)
    print(rows(DataLoader(ds, batch_size=3, shuffle=True, num_workers=2, pin_memory=True)), torch.rand(1))
    g = torch.Generator().manual_seed(seed)
    dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True, num_workers=3, prefetch_factor=1)
    print(len(dl), rows(dl), torch.rand(1), g.initial_seed())
dl = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 5, True), num_workers=2, prefetch_factor=3)
print(rows(dl), torch.rand(1))
print([[t.tolist() for t in item] for item in DataLoader(ds, batch_size=None, num_workers=2)][:5])
print(list(DataLoader(ds, batch_size=6, num_workers=2, collate_fn=cases.sizes)))
print(get_worker_info())
torch.manual_seed(1)
dl = DataLoader(cases.Seeded(lib, 10), batch_size=3, shuffle=True, num_workers=3,
                worker_init_fn=functools.partial(cases.init_fn, lib))
print(seeded(dl), torch.rand(1))
torch.manual_seed(2)
dl = DataLoader(cases.Seeded(lib, 7), batch_size=2, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print(seeded(dl), torch.rand(1))
del dl  # its workers stop now (left to the garbage collector, a cycle may close their queues first)
print(len(dl), [(b["i"].tolist(), b["w"]) for b in DataLoader(cases.Seeded(lib, 2), batch_size=2)])
""")


def test_iterable_dataset_in_workers():
    compare("""
from torch.utils.data import DataLoader, IterableDataset, get_worker_info
class Shard(IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))
class Whole(IterableDataset):
    def __iter__(self): return iter(range(4))
print(list(DataLoader(Shard(11), batch_size=3, num_workers=2)))
print(list(DataLoader(Shard(11), batch_size=3, num_workers=3, drop_last=True)))
print(list(DataLoader(Shard(5), batch_size=None, num_workers=2)))
print(list(DataLoader(Whole(), batch_size=3, num_workers=2)))
dl = DataLoader(Shard(7), batch_size=2, num_workers=2, persistent_workers=True)
print(list(dl), list(dl))
del dl
""")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # torch's __del__ after its assert
def test_errors():
    compare("""
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(4))
DataLoader(ds, prefetch_factor=2)
DataLoader(ds, num_workers=1, prefetch_factor=-1)
DataLoader(ds, persistent_workers=True)
DataLoader(ds, multiprocessing_context="spawn")
DataLoader(ds, num_workers=1, multiprocessing_context="nope")
DataLoader(ds, num_workers=1, multiprocessing_context=3)
print(type(DataLoader(ds, num_workers=1, multiprocessing_context="spawn").multiprocessing_context).__name__)
iter(DataLoader(ds, num_workers=1, prefetch_factor=0))
""")


METHOD_CLASS = {"spawn": "Spawn", "forkserver": "ForkServer"}  # the start method's Process class: SpawnProcess


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_start_methods(method):
    # The dataset, collate_fn and worker_init_fn are pickled into each worker. The start method does not
    # change torch's batches, so torch runs with its default one (starting a worker that imports torch
    # takes seconds) and minitorch with `method`.
    code = "DEV = 'cpu'\n" + SETUP + """
torch.manual_seed(5)
dl = DataLoader(cases.Seeded(lib, 9), batch_size=2, shuffle=True, num_workers=2, multiprocessing_context=METHOD,
                worker_init_fn=functools.partial(cases.init_fn, lib), persistent_workers=True,
                collate_fn=cases.collate)
print(seeded(dl), torch.rand(1))
print(seeded(dl), torch.rand(1))
print(type(dl._iterator._workers[0]).__name__)
del dl
"""
    expected = normalize(run_snippet(torch, "METHOD = None\n" + code)).replace("\nProcess\n", "\n%sProcess\n" % METHOD_CLASS[method])
    actual = normalize(run_snippet(mt, "METHOD = %r\n" % method + code))
    assert actual == expected


def test_cuda_tensors_in_workers():
    # torch: a forked worker cannot use CUDA once the main process has; a spawned one can (the tensors are
    # pickled into it)
    if not mt.cuda.is_available():
        pytest.skip("no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")
    device = "cuda"
    ds = mt.utils.data.TensorDataset(mt.arange(10, device=device).float(), mt.arange(10, device=device))
    e = _raised(mt, ds)
    assert type(e) is RuntimeError
    lines = str(e).splitlines()
    assert lines[0] == "Caught RuntimeError in DataLoader worker process 0."
    assert lines[-1] == ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
                         "multiprocessing, you must use the 'spawn' start method")
    batches = list(mt.utils.data.DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="spawn"))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert all(t.device.type == "cuda" for b in batches for t in b)


def _raised(lib, dataset, **kwargs):
    """The exception that loading `dataset` with two workers raises, holding no frame: so the iterator, and
    its workers, go when the last reference does (a reference cycle would leave them to the garbage
    collector, which may close the queues before it stops the workers)."""
    loader = lib.utils.data.DataLoader(dataset, batch_size=2, num_workers=2, **kwargs)
    try:
        list(loader)
    except Exception as e:  # noqa: BLE001 -- the caller checks the type
        error = e
    else:
        pytest.fail("no exception")
    cause = error
    while cause is not None:
        cause.__traceback__ = None
        cause = cause.__cause__ or cause.__context__
    return error


def test_worker_exception_is_reraised():
    for error in [ValueError("bad index 3"), KeyError("k"), cases.Bad(1, 2), IndexError("out of range")]:
        got = [_raised(lib, cases.Failing(lib.__name__, 8, 3, error)) for lib in (torch, mt)]
        assert type(got[0]) is type(got[1])
        lines = [str(e).splitlines() for e in got]
        name = type(error).__name__
        assert lines[1][0] == lines[0][0] == f"Caught {name} in DataLoader worker process 1."
        assert lines[1][1] == lines[0][1] == "Original Traceback (most recent call last):"
        assert lines[1][-1] == lines[0][-1]
        assert any("data_workers_cases.py" in line for line in lines[1])


def test_timeout_and_killed_worker():
    got = [_raised(lib, cases.Slow(4, 1.0), timeout=0.3) for lib in (torch, mt)]
    assert [type(e) for e in got] == [RuntimeError, RuntimeError]
    assert str(got[1]) == str(got[0]) == "DataLoader timed out after 0.3 seconds"
    for lib in (torch, mt):
        e = _raised(lib, cases.Killed(6, 1))
        assert type(e) is RuntimeError
        assert re.fullmatch(r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly", str(e)), str(e)
        assert str(e.__cause__) == f"DataLoader worker (pid {str(e).split()[3][:-1]}) is killed by signal: Killed. "
    gc.collect()
    assert multiprocessing.active_children() == []


def _gone(pids):
    return not any(os.path.exists(f"/proc/{pid}") for pid in pids)


def test_no_worker_left_behind():
    data = mt.utils.data
    ds = data.TensorDataset(mt.arange(12))
    it = iter(data.DataLoader(ds, batch_size=2, num_workers=2))
    pids = [w.pid for w in it._workers]
    assert len(list(it)) == 6 and _gone(pids)  # exhausted
    it = iter(data.DataLoader(ds, batch_size=2, num_workers=2))
    next(it)
    pids = [w.pid for w in it._workers]
    del it  # dropped in the middle of an epoch
    gc.collect()
    assert _gone(pids)
    loader = data.DataLoader(ds, batch_size=5, num_workers=2, persistent_workers=True)
    assert len(list(loader)) == 3 and len(list(loader)) == 3
    pids = [w.pid for w in loader._iterator._workers]
    assert not _gone(pids)  # they live from epoch to epoch
    del loader
    gc.collect()
    assert _gone(pids)
    _raised(mt, cases.Failing("minitorch", 8, 0, ValueError("x")))
    gc.collect()
    assert multiprocessing.active_children() == []


def _warnings(lib, code):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code(lib)
    return [re.sub(r" at 0x[0-9a-f]+", "", str(w.message)).replace("minitorch", "torch") for w in caught]


def test_warnings():
    def code(lib):
        class Four(lib.utils.data.IterableDataset):
            def __iter__(self):
                return iter(range(4))

            def __len__(self):
                return 4

        loader = lib.utils.data.DataLoader(Four(), batch_size=None, num_workers=2)
        assert len(loader) == 4
        assert len(list(loader)) == 8
        list(lib.utils.data.DataLoader(Four(), batch_size=2, num_workers=os.cpu_count() + 1))

    expected = _warnings(torch, code)
    assert any("Length of IterableDataset" in w for w in expected)
    assert _warnings(mt, code) == expected


def test_tensors_pickle(device):
    compare_on(device, """
import pickle
for dtype in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
              torch.int16, torch.int8, torch.uint8, torch.bool]:
    t = torch.arange(6).reshape(2, 3).to(dtype).to(DEV)
    for v in [t, t.t(), t[1:, 1:], t[0, 0], t[:0]]:
        u = pickle.loads(pickle.dumps(v))
        print(u.dtype, u.device.type == torch.device(DEV).type, u.cpu(), u.shape, u.stride(), u.storage_offset())
x = torch.arange(3.).to(DEV).requires_grad_()
for v in [x, x * 2]:
    u = pickle.loads(pickle.dumps(v))
    print(u.detach().cpu(), u.requires_grad, u.is_leaf, u.grad_fn)
""")
