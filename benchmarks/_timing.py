"""What the benchmark scripts share: the machine's load average (printed before and after a run, since
other work only ever slows a run down) and the best time of several runs of a call."""

import os
import time


def load():
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def best_time(fn, repeats, number):
    """The best, over `repeats` runs, of the mean time of `number` calls of fn (after one warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best
