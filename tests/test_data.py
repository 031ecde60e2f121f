"""torch.utils.data (issue 17) and the random ops its samplers use (issue 16: randperm, Tensor.random_,
torch.Generator objects) against torch 2.13.

The same program runs under torch and under minitorch and must print the same: randperm's and random_'s
values for many n, seeds and dtypes (torch's CPU generator bit for bit), the batches a DataLoader yields after
manual_seed (shuffled, with generator=, with samplers, drop_last), random_split's subsets, every kind of
default_collate, the errors, and the default generator's state after an epoch (the next torch.rand()). On the
CUDA device (`device` fixture: the simulated GPU) the datasets hold device tensors and the batches are
torch's CPU batches, on the device. The tests skip without torch."""

import pytest

import minitorch as mt
from parity import compare, normalize, run_snippet

import data_workers_cases as cases

torch = pytest.importorskip("torch")


# ---- randperm, random_, Generator -----------------------------------------------------------------------

def test_randperm_values():
    compare("""
for seed in [0, 1, 42, 2**40 + 3]:
    torch.manual_seed(seed)
    for n in [0, 1, 2, 3, 5, 16, 17, 100, 1000, 4097]:
        print(n, torch.randperm(n).tolist()[-20:])
    g = torch.Generator().manual_seed(seed)
    for dtype in [torch.int64, torch.int32, torch.float32, torch.float64]:
        print(torch.randperm(13, generator=g, dtype=dtype))
    print(torch.randperm(6, dtype=torch.float64, requires_grad=True))
    print(torch.rand(2))
""")


def test_randperm_errors():
    compare("""
torch.randperm(-1)
torch.randperm(3, dtype=torch.bool)
torch.randperm(2**25, dtype=torch.float32)
torch.randperm(3, dtype=torch.int32, requires_grad=True)
torch.randperm(3.0)
torch.randperm(3, generator=1)
""")


def test_random_values():
    compare("""
for seed in [0, 5, 12345]:
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 1)
    for dt in [torch.int64, torch.int32, torch.float32, torch.float64, torch.bool]:
        print(dt, torch.empty(5, dtype=dt).random_().tolist(), torch.empty(5, dtype=dt).random_(generator=g).tolist())
        print(torch.empty(5, dtype=dt).random_(2).tolist(), torch.empty(5, dtype=dt).random_(0, 2, generator=g).tolist())
        if dt != torch.bool:
            print(torch.empty(5, dtype=dt).random_(1, None).tolist(), torch.empty(5, dtype=dt).random_(-7, 100).tolist())
    print(torch.empty((), dtype=torch.int64).random_().item())
    print(torch.empty(4, dtype=torch.int64).random_(-2**63, None).tolist())
    print(torch.empty(4, dtype=torch.float32).random_(-2**63, None).tolist())
    print(torch.empty(4, dtype=torch.int64).random_(-5, 2**40).tolist())
    print(torch.empty(3, dtype=torch.float32).random_(2**24 - 3, 2**24 + 7).tolist())
    print(torch.randint(-2**54, 5, (2,), dtype=torch.float64).tolist())
    print(torch.empty(4, 3).t().random_(10))
    print(torch.empty(0).random_())
    print(torch.rand(2))
for a in [(), (5,), (1, 5), (1, None)]:
    x = torch.zeros(3, requires_grad=True).clone()
    print(x.random_(*a).grad_fn.name(), x._version)
""")


def test_random_errors():
    compare("""
torch.empty(3, dtype=torch.int64).random_(5, 2)
torch.empty(3, dtype=torch.int32).random_(-2**40, None)
torch.empty(3, dtype=torch.int32).random_(2**40)
torch.empty(3, dtype=torch.float32).random_(2**30, None)
torch.empty(3, dtype=torch.bool).random_(-2**63, None)
torch.empty(3, dtype=torch.int32).random_(-2**63, None)
torch.empty(3, dtype=torch.bool).random_(0, 3)
torch.empty(3, dtype=torch.int64).random_(generator=5)
torch.empty(3, dtype=torch.int64).random_(1.5)
torch.empty(3).requires_grad_().random_()
torch.empty(1).expand(3).random_()
""")


def test_generators():
    compare("""
g = torch.Generator()
print(g.initial_seed(), g.device, torch.Generator().manual_seed(-1).initial_seed())
print(type(g.manual_seed(3)).__name__, g.initial_seed())
g.manual_seed(7); s = g.get_state(); a = torch.randperm(10, generator=g)
g.set_state(s); print(a.tolist(), torch.randperm(10, generator=g).tolist(), s.shape)
torch.manual_seed(3); s = torch.get_rng_state(); a = torch.rand(3); torch.set_rng_state(s)
print(a.tolist() == torch.rand(3).tolist())
g1 = torch.Generator().manual_seed(1); g2 = torch.Generator().manual_seed(1)
print(torch.rand(3, generator=g1).tolist() == torch.rand(3, generator=g2).tolist())
print(torch.randn(3, generator=g1), torch.randint(5, (4,), generator=g1))
print(torch.empty(3).uniform_(generator=g1), torch.empty(3).normal_(generator=g1))
torch.manual_seed(11); print(torch.rand(1))
torch.default_generator.manual_seed(11); print(torch.rand(1), torch.initial_seed())
torch.Generator().manual_seed(2**64)
torch.Generator().manual_seed(1.5)
torch.Generator().manual_seed(True)
torch.Generator().manual_seed(torch.tensor(3))
torch.manual_seed(torch.tensor(3)).initial_seed()
""")


def test_generator_does_not_touch_the_default():
    mt.manual_seed(0)
    before = mt.get_rng_state().tolist()
    g = mt.Generator().manual_seed(5)
    mt.randperm(100, generator=g)
    mt.empty(4, dtype=mt.int64).random_(generator=g)
    assert mt.get_rng_state().tolist() == before


# ---- datasets, samplers, DataLoader ----------------------------------------------------------------------

SETUP = """
import collections
import numpy as np
from torch.utils.data import (DataLoader, TensorDataset, Dataset, IterableDataset, random_split, Subset,
    ConcatDataset, StackDataset, RandomSampler, SequentialSampler, SubsetRandomSampler, BatchSampler, default_collate,
    default_convert, get_worker_info, WeightedRandomSampler)
torch.manual_seed(0)
x = torch.arange(20).reshape(10, 2).float().to(DEV); y = torch.arange(10).to(DEV)
ds = TensorDataset(x, y)
def rows(loader):
    return [[t.tolist() for t in b] for b in loader]
"""


def compare_on(device, code):
    """The program under torch on the CPU and under minitorch on `device` (DEV), with the same output."""
    expected = normalize(run_snippet(torch, "DEV = 'cpu'\n" + SETUP + code))
    actual = normalize(run_snippet(mt, "DEV = %r\n" % device + SETUP + code))
    assert actual == expected


@cases.starts_workers
def test_batches_after_manual_seed(device):
    compare_on(device, """
print(len(ds), [t.tolist() for t in ds[3]], ds[3][0].device.type == torch.device(DEV).type)
for seed in [0, 1, 7]:
    torch.manual_seed(seed)
    dl = DataLoader(ds, batch_size=3, shuffle=True)
    print(len(dl), rows(dl), torch.rand(2))
    print(rows(dl), torch.rand(2))
    g = torch.Generator().manual_seed(seed)
    dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True)
    print(len(dl), rows(dl), torch.rand(1), g.initial_seed())
    dl = DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, replacement=True, num_samples=40))
    print(rows(dl), torch.rand(1))
    dl = DataLoader(ds, batch_size=3, sampler=RandomSampler(ds, num_samples=23))
    print(len(dl), rows(dl), torch.rand(1))
    print(list(SubsetRandomSampler([5, 7, 9, 11])), torch.rand(1))
    weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6, 0., 1., 2., 0.5]
    print(list(WeightedRandomSampler(weights, 12)), list(WeightedRandomSampler(weights, 5, replacement=False)),
          list(WeightedRandomSampler(torch.tensor(weights), 1)), torch.rand(1))
    dl = DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(weights, 9, generator=torch.Generator().manual_seed(seed)))
    print(len(dl), rows(dl), len(WeightedRandomSampler(weights, 9)), torch.rand(1))
    # workers load host tensors (a forked worker cannot use CUDA: test_data_workers.py)
    print(rows(DataLoader(TensorDataset(x.cpu(), y.cpu()), batch_size=4, shuffle=True, num_workers=2)), torch.rand(1))
print(next(iter(DataLoader(ds, batch_size=4)))[0].device.type == torch.device(DEV).type)
print(rows(DataLoader(ds, batch_size=4)), rows(DataLoader(ds, batch_size=4, drop_last=True)))
print([t.tolist() for t in next(iter(DataLoader(ds, batch_size=None)))])
dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, True)); print(len(dl), rows(dl))
print(list(BatchSampler(range(10), 3, False)), len(BatchSampler(range(10), 3, False)), len(BatchSampler(range(10), 3, True)))
it = iter(DataLoader(ds, batch_size=3)); print(len(it), next(it)[1].tolist())
""")


def test_random_split(device):
    compare_on(device, """
for seed in [0, 3]:
    torch.manual_seed(seed)
    a, b = random_split(ds, [3, 7]); print([i[1].item() for i in a], b.indices, len(a), len(b))
    parts = random_split(range(30), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))
    print([p.indices for p in parts])
    print([list(p) for p in random_split(range(11), [0.5, 0.5])], [len(p) for p in random_split(range(7), [0.2, 0.2, 0.6])])
    print([list(p) for p in random_split(range(3), [0.1, 0.9])])
    print(torch.rand(1))
random_split(range(10), [3, 8])
random_split(range(10), [1.5, -0.5])
s = Subset(ds, [4, 2]); print(len(s), s[1][1].item(), [t[1].item() for t in s.__getitems__([0, 1])])
""")


def test_collate():
    compare_on("cpu", """
print(default_collate([1, 2, 3]), default_collate([1.5, 2.0]), default_collate([True, False]), default_collate(["a", "b"]))
print(default_collate([(1, 2.0), (3, 4.0)]), default_collate([[1, 2], [3, 4]]))
print(default_collate([{"a": 1, "b": torch.ones(2)}, {"a": 2, "b": torch.zeros(2)}]))
P = collections.namedtuple("P", "x y")
print(default_collate([P(1, 2.5), P(3, 4.5)]))
print(default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
print(default_collate([np.float32(1.5), np.float32(2.5)]), default_collate([np.int32(1), np.int32(2)]))
print(default_collate([np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)]))
print(default_collate([torch.tensor(1), torch.tensor(2)]), default_collate([[torch.ones(1)], [torch.zeros(1)]]))
print(default_convert((np.array([1, 2]), 3, "s")), default_convert({"a": np.float64(1.0)}), default_convert([P(1, 2)]))
default_collate([[1, 2], [3]])
default_collate([object()])
default_collate([np.array(["a"]), np.array(["b"])])
default_collate([torch.ones(2), torch.ones(3)])
""")


@cases.starts_workers
def test_datasets_and_errors():
    compare_on("cpu", """
c = ConcatDataset([ds, TensorDataset(torch.ones(2, 2), torch.zeros(2, dtype=torch.int64))])
print(len(c), c[11], c[-1], c.cumulative_sizes, len(ds + ds))
c[-13]
st = StackDataset(ds, range(10, 20)); print(len(st), st[2], st.__getitems__([1, 3]))
print(next(iter(DataLoader(StackDataset(a=ds, b=range(10)), batch_size=2))))
StackDataset(ds, a=ds)
StackDataset()
StackDataset(ds, range(3))
TensorDataset(torch.ones(3), torch.ones(4))
WeightedRandomSampler([1., 2.], 0)
WeightedRandomSampler([1., 2.], True)
WeightedRandomSampler([1., 2.], 2, replacement=1)
WeightedRandomSampler([[1., 2.]], 2)
list(WeightedRandomSampler([1., 2.], 3, replacement=False))
list(WeightedRandomSampler([1., -2.], 3))
ConcatDataset([])
Dataset()[0]
DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds))
DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(range(3), 2, False))
DataLoader(ds, batch_size=None, drop_last=True)
DataLoader(ds, num_workers=-1)
DataLoader(ds, timeout=-1)
DataLoader(ds, prefetch_factor=2)
DataLoader(ds, persistent_workers=True)
DataLoader(ds, batch_size=0)
DataLoader(ds, batch_size=2, drop_last=1)
RandomSampler(ds, replacement=1)
RandomSampler(ds, num_samples=0)
dl = DataLoader(ds); dl.batch_size = 3
class It(IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n))
    def __len__(self): return self.n
print(list(DataLoader(It(7), batch_size=3)), len(DataLoader(It(7), batch_size=3)), list(DataLoader(It(7), batch_size=3, drop_last=True)))
print(list(DataLoader(It(3), batch_size=None)), list(It(2) + It(3)))
DataLoader(It(3), shuffle=True)
DataLoader(It(3), sampler=[0])
class Sq(Dataset):
    def __len__(self): return 8
    def __getitem__(self, i):
        w = get_worker_info()
        return {"v": i * i, "r": torch.rand(1), "w": -1 if w is None else w.id}
torch.manual_seed(3)
for b in DataLoader(Sq(), batch_size=3, shuffle=True): print(b)
print(torch.rand(1))
torch.manual_seed(5)
print([(b["v"].tolist(), b["r"].flatten().tolist(), b["w"].tolist()) for b in DataLoader(Sq(), batch_size=3, shuffle=True, num_workers=3)], torch.rand(1))
print(get_worker_info())
torch.manual_seed(4)
dl = DataLoader(Sq(), batch_size=2, num_workers=2, worker_init_fn=lambda w: torch.rand(w + 1))
print([(b["r"].flatten().tolist(), b["w"].tolist()) for b in dl], torch.rand(1))
torch.manual_seed(6)
dl = DataLoader(Sq(), batch_size=3, shuffle=True, num_workers=2, persistent_workers=True)
for epoch in range(2):
    print([(b["v"].tolist(), b["r"].flatten().tolist(), b["w"].tolist()) for b in dl], torch.rand(1))
del dl  # its persistent workers stop here, not at a later garbage collection inside another test
""")


def test_import_forms():
    import importlib

    assert importlib.import_module("minitorch.utils.data").DataLoader is mt.utils.data.DataLoader
    from minitorch.utils.data._utils.collate import default_collate

    assert default_collate is mt.utils.data.default_collate
    with pytest.raises(AttributeError, match="DistributedSampler"):
        mt.utils.data.DistributedSampler  # torch.distributed is not part of minitorch


def test_random_ops_on_the_device(device):
    # randperm is drawn on the host for a CUDA device too (torch's own CUDA values differ: README)
    for seed in (0, 9):
        torch.manual_seed(seed)
        mt.manual_seed(seed)
        for dtype in ("int64", "int32", "float32", "float64"):
            got = mt.randperm(37, device=device, dtype=getattr(mt, dtype))
            assert got.device.type == mt.device(device).type and str(got.dtype) == "minitorch." + dtype
            assert got.tolist() == torch.randperm(37, dtype=getattr(torch, dtype)).tolist()
    for dtype in ("int64", "int32", "float32", "float64", "bool"):
        t = mt.empty(1000, dtype=getattr(mt, dtype), device=device)
        top = 2 if dtype == "bool" else 3
        assert sorted(set(t.random_(top).tolist())) == [0, 1, 2][:top]
        values = t.random_(-4 if dtype != "bool" else 0, 2).tolist()
        assert min(values) >= (-4 if dtype != "bool" else 0) and max(values) <= 1
        assert min(t.random_().tolist()) >= 0
    if device != "cpu":
        g = mt.Generator()
        for call in (lambda: mt.randperm(3, device=device, generator=g),
                     lambda: mt.empty(3, device=device).random_(generator=g),
                     lambda: mt.rand(3, device=device, generator=g)):
            with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
                call()


def test_pin_memory(device):
    data = pytest.importorskip("minitorch.utils.data")
    ds = data.TensorDataset(mt.rand(5, 2), mt.arange(5))
    loader = data.DataLoader(ds, batch_size=2, pin_memory=True, collate_fn=lambda b: {"rows": data.default_collate(b)})
    if device == "cpu" and not mt.cuda.is_available():
        with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no accelerator is found"):
            batch = next(iter(loader))
        assert not batch["rows"][0].is_pinned()
    else:
        batches = list(loader)
        assert len(batches) == 3 and all(t.is_pinned() for b in batches for t in b["rows"])
