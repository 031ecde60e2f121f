"""torch.utils.data.DataLoader: batches of a dataset in the sampler's order, collated.

Iterating draws from the random generators exactly as torch's _BaseDataLoaderIter does: when the iterator
is made, one int64 random_() from loader.generator (the default generator when None) for the workers' base
seed, drawn even without workers; then the sampler draws (RandomSampler: at the first batch). So after
manual_seed the batches, and the default generator's state after an epoch, are torch's.

Loading happens in the calling process. num_workers > 0 is accepted for map-style datasets and gives
torch's batches in torch's order (each batch fetched with the default generator and Python's `random` in
the state that batch's worker would have: torch seeds worker w with base_seed + w and hands batches to
workers in turn; persistent_workers=True keeps those states, and the base seed, across epochs);
get_worker_info() says which worker is loading. An IterableDataset with workers, which
torch copies into every worker process, raises NotImplementedError.
"""

import collections.abc
import math
import random
import warnings

import minitorch as torch
from minitorch.utils.data._utils.collate import _rebuild, default_collate, default_convert
from minitorch.utils.data.dataset import IterableDataset
from minitorch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' of an iterable dataset."""

    def __iter__(self):
        while True:
            yield None


class WorkerInfo:
    """What get_worker_info() returns while a worker loads (id, num_workers, seed, dataset)."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def __repr__(self):
        items = ", ".join("{}={}".format(k, self.__dict__[k]) for k in ("id", "num_workers", "seed", "dataset"))
        return "WorkerInfo({})".format(items)


_worker_info = None


def get_worker_info():
    """The WorkerInfo of the worker loading now, None in the main process."""
    return _worker_info


class DataLoader:
    """Iterates over a dataset in batches: torch.utils.data.DataLoader's arguments and checks."""

    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; "
                             "use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading "
                             "(num_workers > 0), but got num_workers={}".format(num_workers))

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = "iterable"
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, "
                                 f"but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, "
                                 f"but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 f"but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = "map"

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")

        if sampler is None:
            if self._dataset_kind == "iterable":
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self._initialized = True

    def __setattr__(self, attr, val):
        if self._initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                          "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        if self.num_workers > 0 and self._dataset_kind == "iterable":
            raise NotImplementedError("minitorch's DataLoader loads in the calling process: num_workers > 0 "
                                      "is supported for map-style datasets only, not for an IterableDataset "
                                      "(torch copies it into each worker process)")
        if self.persistent_workers and self.num_workers > 0:
            # torch keeps the workers (and their generators) from epoch to epoch: no new base seed
            if self._iterator is None:
                self._iterator = _DataLoaderIter(self)
            else:
                self._iterator._reset()
            return self._iterator
        return _DataLoaderIter(self)

    def __len__(self):
        if self._dataset_kind == "iterable":
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)


def _pin(data):
    """data with every tensor (and anything with a pin_memory method) in pinned host memory, containers
    rebuilt as torch's pin_memory rebuilds them."""
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        return _rebuild(data, {k: _pin(v) for k, v in data.items()})
    if isinstance(data, tuple):
        if hasattr(data, "_fields"):  # namedtuple
            return type(data)(*(_pin(d) for d in data))
        return type(data)(_pin(d) for d in data)
    if isinstance(data, collections.abc.Sequence):
        return _rebuild(data, [_pin(d) for d in data])
    return data


class _DataLoaderIter:
    """One pass over a DataLoader."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._collate_fn = loader.collate_fn
        self._num_workers = loader.num_workers
        self._loader = loader
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=3)
        accelerator = torch.cuda.is_available()
        if loader.pin_memory and not accelerator:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._pin_memory = loader.pin_memory and accelerator
        self._sampler_iter = iter(self._index_sampler)
        # torch draws the workers' base seed here, with or without workers
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._num_yielded = 0
        self._dataset_iter = iter(self._dataset) if self._dataset_kind == "iterable" else None
        self._ended = False
        self._workers = None  # per worker: [default generator state, Python random state]
        if self._num_workers > 0:
            self._start_workers()

    def __iter__(self):
        return self

    def _reset(self):
        # the next epoch of persistent workers: batch k goes to worker k % num_workers again
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = self._loader._IterableDataset_len_called

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)

    def _start_workers(self):
        # Worker w of torch seeds torch (and Python's random) with base_seed + w and calls worker_init_fn.
        global _worker_info
        main_torch, main_random = torch.get_rng_state(), random.getstate()
        self._workers = []
        try:
            for w in range(self._num_workers):
                seed = self._base_seed + w
                random.seed(seed)
                torch.default_generator.manual_seed(seed)  # the CPU generator only: CUDA is not touched
                _worker_info = WorkerInfo(id=w, num_workers=self._num_workers, seed=seed, dataset=self._dataset)
                if self._loader.worker_init_fn is not None:
                    self._loader.worker_init_fn(w)
                self._workers.append([torch.get_rng_state(), random.getstate()])
        finally:
            _worker_info = None
            torch.set_rng_state(main_torch)
            random.setstate(main_random)

    def _fetch(self, index):
        if self._dataset_kind == "iterable":
            if self._ended:
                raise StopIteration
            if not self._auto_collation:
                return self._collate_fn(next(self._dataset_iter))
            data = []
            for _ in index:
                try:
                    data.append(next(self._dataset_iter))
                except StopIteration:
                    self._ended = True
                    break
            if len(data) == 0 or (self._drop_last and len(data) < len(index)):
                raise StopIteration
            return self._collate_fn(data)
        if not self._auto_collation:
            return self._collate_fn(self._dataset[index])
        getitems = getattr(self._dataset, "__getitems__", None)
        if getitems:
            return self._collate_fn(getitems(index))
        return self._collate_fn([self._dataset[i] for i in index])

    def _fetch_in_worker(self, index):
        # torch hands batch k to worker k % num_workers; that worker's RNG states stand in for its process
        global _worker_info
        w = self._num_yielded % self._num_workers
        state = self._workers[w]
        main_torch, main_random = torch.get_rng_state(), random.getstate()
        torch.set_rng_state(state[0])
        random.setstate(state[1])
        _worker_info = WorkerInfo(id=w, num_workers=self._num_workers, seed=self._base_seed + w,
                                  dataset=self._dataset)
        try:
            return self._fetch(index)
        finally:
            _worker_info = None
            state[0], state[1] = torch.get_rng_state(), random.getstate()
            torch.set_rng_state(main_torch)
            random.setstate(main_random)

    def __next__(self):
        index = next(self._sampler_iter)  # StopIteration ends the epoch
        data = self._fetch_in_worker(index) if self._workers is not None else self._fetch(index)
        if self._pin_memory:
            data = _pin(data)
        self._num_yielded += 1
        if (self._dataset_kind == "iterable" and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warnings.warn(f"Length of IterableDataset {self._dataset} was reported to be "
                          f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                          f"{self._num_yielded} samples have been fetched. ", stacklevel=2)
        return data
