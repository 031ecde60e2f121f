"""torch.nn.modules.utils' argument helpers: a number or an iterable turned into an n-tuple, as the
layers store their sizes (``padding=(1, 1)``) and print them."""

from collections.abc import Iterable
from itertools import repeat


def _ntuple(n):
    def parse(x):
        if isinstance(x, Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    return parse


_single = _ntuple(1)
_pair = _ntuple(2)
_triple = _ntuple(3)
_quadruple = _ntuple(4)
