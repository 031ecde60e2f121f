"""Noticing at once that a DataLoader worker died: torch.utils.data._utils.signal_handling.

The main process registers its workers' pids; a SIGCHLD handler (installed once, from the main thread,
chained to the handler before it) looks at each registered worker without reaping it and raises torch's
RuntimeError when one was killed by a signal or exited with a non-zero code. The iterator turns that into
"DataLoader worker (pid(s) ...) exited unexpectedly" (see _MultiProcessingDataLoaderIter._try_get_data)."""

import os
import signal
import threading

__all__ = []

_worker_pids = {}  # id(iterator) -> its workers' pids
_SIGCHLD_handler_set = False


def _set_worker_pids(key, pids):
    _worker_pids[key] = tuple(pids)


def _remove_worker_pids(key):
    _worker_pids.pop(key, None)


def _error_if_any_worker_fails():
    for pids in list(_worker_pids.values()):
        for pid in pids:
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                continue  # already reaped (a worker that was joined)
            if info is None or info.si_pid == 0:
                continue  # still running
            if info.si_code == os.CLD_EXITED and info.si_status != 0:
                raise RuntimeError(f"DataLoader worker (pid {pid}) exited unexpectedly with exit code "
                                   f"{info.si_status}. Details are lost due to multiprocessing. Rerunning with "
                                   "num_workers=0 may give better error trace.")
            if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
                raise RuntimeError(f"DataLoader worker (pid {pid}) is killed by signal: "
                                   f"{signal.strsignal(info.si_status)}. ")


def _set_SIGCHLD_handler():
    global _SIGCHLD_handler_set
    if _SIGCHLD_handler_set or not hasattr(signal, "SIGCHLD"):
        return
    if threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set from the main thread
    previous = signal.getsignal(signal.SIGCHLD)
    if not callable(previous):
        previous = None

    def handler(signum, frame):
        _error_if_any_worker_fails()
        if previous is not None:
            previous(signum, frame)

    signal.signal(signal.SIGCHLD, handler)
    _SIGCHLD_handler_set = True
