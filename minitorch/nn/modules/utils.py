"""torch.nn.modules.utils' argument helpers: an int (or any non-iterable) repeated n times, an iterable as
a tuple, as the layers and functions that take "an int or a tuple" read their sizes."""

import collections.abc
import itertools

__all__ = []


def _ntuple(n, name="parse"):
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(itertools.repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")
