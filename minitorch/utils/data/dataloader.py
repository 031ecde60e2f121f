"""torch.utils.data.DataLoader: batches of a dataset in the sampler's order, collated.

Iterating draws from the random generators exactly as torch's _BaseDataLoaderIter does: when the iterator
is made, one int64 random_() from loader.generator (the default generator when None) for the workers' base
seed, drawn even without workers; then the sampler draws (RandomSampler: at the first batch). So after
manual_seed the batches, and the default generator's state after an epoch, are torch's.

num_workers=0 loads in the calling process (_SingleProcessDataLoaderIter). num_workers > 0 starts worker
processes (_MultiProcessingDataLoaderIter; multiprocessing_context= a start method's name or a context, else
the platform's default; with 'spawn' and 'forkserver' the dataset, collate_fn and worker_init_fn are
pickled). Worker w seeds minitorch's default generator and Python's `random` with base_seed + w (NumPy's with
torch's hash of the two), runs worker_init_fn(w) and answers get_worker_info() (see _utils/worker.py). The
main process sends batch k's indices to the next active worker's index queue, keeps prefetch_factor *
num_workers batches outstanding, and hands results out in the sampler's order whatever order they arrive in
on the one result queue. Batches cross back by pickling. A worker's exception is re-raised in the main
process as torch wraps it ("Caught ValueError in DataLoader worker process 0. Original Traceback ..."), a
worker's death raises "DataLoader worker (pid(s) ...) exited unexpectedly" (a SIGCHLD handler notices it at
once: _utils/signal_handling.py), timeout= bounds each wait. The workers stop when the epoch ends, or when
the iterator is dropped; persistent_workers=True keeps them (and their generators, and the base seed) from
epoch to epoch. An IterableDataset is copied into every worker, each iterating its own copy (the dataset
shards itself with get_worker_info(), as torch's documentation shows); a worker whose copy ran out gets no
more batches. A CUDA tensor cannot be used in a forked worker once the main process has used CUDA (torch's
"Cannot re-initialize CUDA in forked subprocess"); load host tensors and set pin_memory=True, or use 'spawn'.
pin_memory=True pins each batch in the main process as it is handed out.
"""

import atexit
import collections.abc
import itertools
import math
import multiprocessing
import multiprocessing.util  # noqa: F401 -- registers its exit function before ours (below)
import os
import pickle
import queue
import warnings

import minitorch as torch
from minitorch.utils.data._utils import signal_handling
from minitorch.utils.data._utils.collate import _rebuild, default_collate, default_convert
from minitorch.utils.data._utils.fetch import create_fetcher
from minitorch.utils.data._utils.worker import (MP_STATUS_CHECK_INTERVAL, ExceptionWrapper,
                                                _IterableDatasetStopIteration, _numpy, _ResumeIteration,
                                                _worker_loop, get_worker_info)
from minitorch.utils.data.dataset import IterableDataset
from minitorch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' of an iterable dataset."""

    def __iter__(self):
        while True:
            yield None


# True once the interpreter is exiting: workers are then left to multiprocessing's own clean-up (it runs
# after this: atexit runs the last registered first)
_python_exit_status = False


def _set_python_exit_flag():
    global _python_exit_status
    _python_exit_status = True
    signal_handling._worker_pids.clear()  # multiprocessing now terminates the workers: no error for that


atexit.register(_set_python_exit_flag)


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
        self.check_worker_number_rationality()
        self._initialized = True

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context):
        # a start method's name or a multiprocessing context; None: the platform's default start method
        if multiprocessing_context is not None:
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(multiprocessing_context, str):
                valid_start_methods = multiprocessing.get_all_start_methods()
                if multiprocessing_context not in valid_start_methods:
                    raise ValueError("multiprocessing_context option should specify a valid start method in "
                                     f"{valid_start_methods!r}, but got "
                                     f"multiprocessing_context={multiprocessing_context!r}")
                multiprocessing_context = multiprocessing.get_context(multiprocessing_context)
            if not isinstance(multiprocessing_context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or a string "
                                f"specifying the start method, but got multiprocessing_context={multiprocessing_context}")
        self._multiprocessing_context = multiprocessing_context

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
        if self.persistent_workers and self.num_workers > 0:
            # the workers (and their generators) live from epoch to epoch: no new base seed
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def check_worker_number_rationality(self):
        """Warns (as torch does) when num_workers is more than the CPUs this process may run on."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        max_num_worker_suggest = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if max_num_worker_suggest is not None and self.num_workers <= max_num_worker_suggest:
            return
        if max_num_worker_suggest is None:
            suggested = "DataLoader is not able to compute a suggested max number of worker in current system."
        else:
            suggested = ("Our suggested max number of worker in current system is {}{}, which is smaller than what "
                         "this DataLoader is going to create.").format(
                             max_num_worker_suggest, "" if cpuset_checked else " (`cpuset` is not taken into account)")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. {suggested} "
                      "Please be aware that excessive worker creation might get DataLoader running slow or even "
                      "freeze, lower the worker number to avoid potential slowness/freeze if necessary.", stacklevel=2)

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


class _BaseDataLoaderIter:
    """One pass over a DataLoader: what the in-process and the worker-process iterators share."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=4)
        accelerator = torch.cuda.is_available()
        if loader.pin_memory and not accelerator:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=4)
        self._pin_memory = loader.pin_memory and accelerator
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # torch draws the workers' base seed here, with or without workers
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)  # StopIteration ends the epoch

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        if self._pin_memory:
            data = _pin(data)
        self._num_yielded += 1
        if (self._dataset_kind == "iterable" and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                   f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                   f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly configuring the "
                        "IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
            warnings.warn(msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """num_workers=0: each batch fetched in the calling process."""

    def __init__(self, loader):
        super().__init__(loader)
        self._fetcher = create_fetcher(self._dataset_kind, self._dataset, self._auto_collation,
                                       self._collate_fn, self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._fetcher.fetch(index)


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """num_workers > 0: worker processes fetch the batches (see _utils/worker.py).

    Batch k (its index from the sampler, in the main process) goes to the next active worker in turn on that
    worker's index queue as (k, index); at most prefetch_factor * num_workers tasks are outstanding. Results
    arrive on one shared queue in any order: _task_info[k] holds (worker,) while k is out and (worker, data)
    once it arrived before its turn, and _rcvd_idx is the next batch to hand out, so batches come out in the
    sampler's order. An IterableDataset worker that ran out is marked inactive and its pending tasks skipped.
    """

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        if self._prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter")
        context = loader.multiprocessing_context or multiprocessing  # the module: the default start method
        _numpy()  # each worker seeds NumPy: imported once here rather than in every forked worker
        self._worker_init_fn = loader.worker_init_fn
        self._worker_result_queue = context.Queue()
        self._worker_pids_set = False
        self._shutdown = False
        self._workers_done_event = context.Event()
        self._index_queues = []
        self._workers = []
        self._workers_status = []
        for i in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()  # a queue with unread tasks must not block the exit
            w = context.Process(target=_worker_loop, args=(
                self._dataset_kind, self._dataset, index_queue, self._worker_result_queue,
                self._workers_done_event, self._auto_collation, self._collate_fn, self._drop_last,
                self._base_seed, self._worker_init_fn, i, self._num_workers, self._persistent_workers))
            w.daemon = True
            try:
                w.start()
            except (TypeError, AttributeError, pickle.PicklingError):
                warnings.warn("Got pickle error when attempting to start a worker Process. This might be because "
                              "the worker Process arguments are not picklable. Python 3.14+ changed the "
                              "multiprocessing start method in non-Mac POSIX platforms to 'forkserver', which "
                              "requires the worker Process arguments to be picklable. You can also try "
                              "multiprocessing.set_start_method('fork').", stacklevel=4)
                self._shutdown_workers()  # the workers already started
                raise
            self._index_queues.append(index_queue)
            self._workers.append(w)
            self._workers_status.append(True)
        self._data_queue = self._worker_result_queue
        signal_handling._set_worker_pids(id(self), (w.pid for w in self._workers))
        signal_handling._set_SIGCHLD_handler()
        self._worker_pids_set = True
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0  # the next task to send
        self._rcvd_idx = 0  # the next task to hand out
        self._task_info = {}  # task -> (worker,) while out, (worker, data) once it arrived early
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._workers_num_tasks = [0] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            # persistent workers: each starts its next epoch (a fresh fetcher) and says so
            for q in self._index_queues:
                q.put(_ResumeIteration())
            resumed = 0
            while resumed < self._num_workers:
                idx, _ = self._get_data()
                if isinstance(idx, _ResumeIteration):
                    resumed += 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout=MP_STATUS_CHECK_INTERVAL):
        try:
            return True, self._data_queue.get(timeout=timeout)
        except Exception as e:
            # the wait ended without data (or a worker's death interrupted it): did a worker die?
            failed = []
            for worker_id, w in enumerate(self._workers):
                if self._workers_status[worker_id] and not w.is_alive():
                    failed.append(w)
                    self._mark_worker_as_unavailable(worker_id)
            if failed:
                pids = ", ".join(str(w.pid) for w in failed)
                raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from e
            if isinstance(e, queue.Empty):
                return False, None
            raise

    def _get_data(self):
        if self._timeout > 0:
            success, data = self._try_get_data(self._timeout)
            if success:
                return data
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        while True:
            success, data = self._try_get_data()
            if success:
                return data

    def _next_data(self):
        while True:
            # skip the tasks of workers that ran out (IterableDataset): they will not come
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info:
                    if len(info) == 2 or self._workers_status[info[0]]:
                        break
                    del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:  # it arrived earlier
                worker_id, data = self._task_info.pop(self._rcvd_idx)
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if self._dataset_kind == "iterable" and isinstance(data, _IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                if not self._in_order:
                    worker_id = self._task_info.pop(idx)[0]
                    return self._process_data(data, worker_id)
                self._task_info[idx] += (data,)  # early: kept for its turn
            else:
                worker_id = self._task_info.pop(idx)[0]
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)

    def _try_put_index(self):
        max_tasks = self._prefetch_factor * self._num_workers
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):  # the next active worker, if any
            worker_queue_idx = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_queue_idx]:
                if self._in_order or self._workers_num_tasks[worker_queue_idx] < max_tasks // sum(
                        self._workers_status):
                    break
        else:
            return
        self._index_queues[worker_queue_idx].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_queue_idx,)
        self._workers_num_tasks[worker_queue_idx] += 1
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data, worker_idx):
        self._workers_num_tasks[worker_idx] -= 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id, shutdown=False):
        # None stops the worker once it has answered the tasks before it
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        if _python_exit_status or self._shutdown:
            return
        self._shutdown = True
        try:
            self._workers_done_event.set()
            for worker_id in range(len(self._workers)):
                if self._persistent_workers or self._workers_status[worker_id]:
                    self._mark_worker_as_unavailable(worker_id, shutdown=True)
            for w in self._workers:
                w.join(timeout=MP_STATUS_CHECK_INTERVAL)
            for q in self._index_queues:
                q.cancel_join_thread()
                q.close()
        finally:
            if self._worker_pids_set:
                signal_handling._remove_worker_pids(id(self))
                self._worker_pids_set = False
            for w in self._workers:
                if w.is_alive():
                    w.terminate()
                    w.join(timeout=MP_STATUS_CHECK_INTERVAL)

    def __del__(self):
        if hasattr(self, "_shutdown"):  # __init__ got as far as the workers
            self._shutdown_workers()
