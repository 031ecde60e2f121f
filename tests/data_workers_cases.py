"""Datasets and functions for the DataLoader worker-process tests (tests/test_data_workers.py).

They live in a module so that workers started with 'spawn' or 'forkserver' can unpickle them (pickle names
a class or function by its module). Each takes the tensor library's module name ("torch" or "minitorch"),
so one class serves both libraries."""

import importlib
import os
import random
import signal
import time

import numpy as np
import pytest

# For tests that start worker processes. Under the ASan build a forked worker can deadlock in the sanitizer's
# allocator, whose lock another thread held at fork; the plain and simulated-GPU runs cover the workers.
starts_workers = pytest.mark.skipif(bool(os.environ.get("MINITORCH_SANITIZED")),
                                    reason="ASan build: a forked worker can deadlock in the sanitizer's allocator")


class Seeded:
    """Map-style: item i with what the loading worker's generators give (torch, Python, NumPy) and who it is."""

    def __init__(self, lib, n):
        self.lib = lib
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        torch = importlib.import_module(self.lib)
        info = torch.utils.data.get_worker_info()
        where = "main" if info is None else f"{info.id}/{info.num_workers} seed={info.seed} {type(info.dataset).__name__}"
        return {"i": i, "t": torch.rand(1), "r": random.random(), "np": float(np.random.rand()), "w": where}


def init_fn(lib, worker_id):
    """A worker_init_fn (bound to the library with functools.partial): moves the worker's generators."""
    torch = importlib.import_module(lib)
    torch.rand(worker_id + 1)
    random.random()


def collate(batch):
    """A collate_fn: default_collate of the library the batch's tensors come from."""
    lib = type(batch[0]["t"]).__module__.split(".")[0]
    return importlib.import_module(lib).utils.data.default_collate(batch)


def sizes(batch):
    """A collate_fn: the samples' labels and how many there were."""
    return [int(label) for _, label in batch], len(batch)


class Bad(Exception):
    """An exception that cannot be made from one message."""

    def __init__(self, a, b):
        super().__init__(f"{a} and {b}")


class Failing:
    """Raises `error` (an exception instance) when item `at` is loaded."""

    def __init__(self, lib, n, at, error):
        self.lib, self.n, self.at, self.error = lib, n, at, error

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.at:
            raise self.error
        return importlib.import_module(self.lib).tensor(i)


class Slow:
    """Each item takes `seconds` to load."""

    def __init__(self, n, seconds):
        self.n, self.seconds = n, seconds

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(self.seconds)
        return i


class Killed:
    """The worker loading item `at` is killed by SIGKILL (after a pause, so the main process is waiting)."""

    def __init__(self, n, at):
        self.n, self.at = n, at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.at:
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGKILL)
        return i
