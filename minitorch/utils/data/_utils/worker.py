"""The DataLoader's worker processes: torch.utils.data._utils.worker.

_worker_loop is what each worker process runs. It seeds Python's `random` and minitorch's default generator
with base_seed + worker_id (and NumPy's global generator with torch's hash of the two), publishes its
WorkerInfo for get_worker_info(), calls worker_init_fn(worker_id), then answers (idx, index) tasks from its
index queue with (idx, batch) on the shared result queue until it receives None. A batch that raises goes
back as an ExceptionWrapper, re-raised in the main process; the end of an IterableDataset's stream goes back
as _IterableDatasetStopIteration; _ResumeIteration (persistent workers) starts a new epoch with a new fetcher.
A worker whose main process has died stops by itself."""

import os
import queue
import random
import sys
import traceback

import minitorch as torch
from minitorch.utils.data._utils.fetch import create_fetcher

__all__ = ["WorkerInfo", "get_worker_info"]

# how long a blocked queue read waits before checking on the other side (torch's value)
MP_STATUS_CHECK_INTERVAL = 5.0


class WorkerInfo:
    """What get_worker_info() returns inside a worker (id, num_workers, seed, dataset); read-only."""

    _initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self._keys = tuple(kwargs.keys())
        self._initialized = True

    def __setattr__(self, key, val):
        if self._initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        body = ", ".join(f"{k}={getattr(self, k)}" for k in self._keys)
        return f"{self.__class__.__name__}({body})"


_worker_info = None


def get_worker_info():
    """The WorkerInfo of this worker process (id, num_workers, seed, dataset: this worker's copy of the
    dataset); None in the main process."""
    return _worker_info


class _KeyErrorMessage(str):
    """A KeyError's message printed as itself (KeyError would print its repr)."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception caught in a worker, as its type and formatted traceback (both picklable)."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        """Raises the same exception type, its message the worker's traceback."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


class _IterableDatasetStopIteration:
    """A worker's IterableDataset copy has run out."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class _ResumeIteration:
    """A persistent worker's next epoch starts (echoed back once the worker has its new fetcher)."""

    def __init__(self, seed=None):
        self.seed = seed


def _numpy_seed(base_seed, worker_id):
    """The four 32-bit words torch seeds NumPy's global generator with in worker `worker_id`: NumPy's
    SeedSequence hashing of (worker_id, base_seed's low and high words, 0)."""
    mask = 0xFFFFFFFF
    hash_const = [0x43B0D7E5]

    def hashmix(value):
        value = (value ^ hash_const[0]) & mask
        hash_const[0] = (hash_const[0] * 0x931E8875) & mask
        value = (value * hash_const[0]) & mask
        return value ^ (value >> 16)

    def mix(x, y):
        result = ((0xCA01F9DD * x) - (0x4973F715 * y)) & mask
        return result ^ (result >> 16)

    pool = [hashmix(v) for v in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    out_const = 0x8B51F9DD
    state = []
    for value in pool:
        value ^= out_const
        out_const = (out_const * 0x58F38DED) & mask
        value = (value * out_const) & mask
        state.append(value ^ (value >> 16))
    return state


def _numpy():
    """NumPy, or None where it is not installed. The main process imports it before it starts workers, so
    that forked workers find it imported (torch imports it with itself)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, done_event, auto_collation, collate_fn,
                 drop_last, base_seed, init_fn, worker_id, num_workers, persistent_workers):
    global _worker_info
    try:
        seed = base_seed + worker_id
        random.seed(seed)
        torch.default_generator.manual_seed(seed)
        numpy = _numpy()
        if numpy is not None:
            numpy.random.seed(_numpy_seed(base_seed, worker_id))
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_exception = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")

        iteration_end = False
        parent = os.getppid()
        while os.getppid() == parent:
            try:
                r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(r, _ResumeIteration):
                data_queue.put((r, None))
                iteration_end = False
                fetcher = create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            if r is None:
                break
            if done_event.is_set() or iteration_end:
                continue  # no more work this epoch: wait for None (or the next epoch)
            idx, index = r
            if init_exception is not None:
                data, init_exception = init_exception, None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == "iterable":
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index, r
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
