"""kthvalue, median, nanmedian and mode: the ops that pick one element per line along a dim (and median /
nanmedian of all elements), composed from minitorch's C ops on every device: a stable sort of each line
(NaN above every number), then the position torch's CPU kernel picks, read back with gather. torch's
median(dim) and nanmedian(dim) order the line by (value, index), so the picked index is the stable sort's;
mode is the smallest of the most frequent values and, as torch's CPU kernel, the last index it has in the
line (with NaN in a line, torch's mode depends on where std::sort leaves NaN, which is not reproduced: here
each NaN counts once, as torch's run count does, and sorts above every number). kthvalue's index among
tied values is the one torch's CPU quickselect (SortingUtils.h's quick_select_template) leaves at position
k - 1: the lines with a tie there are run through the same
quickselect on their values read back to the host.

The values are computed with grad mode off; one node is then recorded with torch's name: KthvalueBackward0,
MedianBackward1, NanmedianBackward1 and ModeBackward0 send the gradient to the picked index (torch's
value_selecting_reduction_backward); MedianBackward0 and NanmedianBackward0 (all elements) share it evenly
among the elements equal to the result (torch's evenly_distribute_backward). The results are the named
tuples minitorch.return_types.kthvalue / median / nanmedian / mode. Arguments are parsed with torch's
signatures (_C._parse_args); install() puts the methods on Tensor."""


import minitorch
from minitorch import _C
from minitorch._composite import parse, parse_method, return_type, with_out

__all__ = ["kthvalue", "median", "nanmedian", "mode"]

_FUNCTION_SIGNATURES = {
    "kthvalue": ["kthvalue(Tensor input, SymInt k, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)"],
    "median": ["median(Tensor input)",
               "median(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)"],
    "nanmedian": ["nanmedian(Tensor input)",
                  "nanmedian(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)"],
    "mode": ["mode(Tensor input, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)"],
}
_METHOD_SIGNATURES = {
    "kthvalue": ["kthvalue(SymInt k, int64_t dim=-1, bool keepdim=False)"],
    "median": ["median()", "median(int64_t dim, bool keepdim=False)"],
    "nanmedian": ["nanmedian()", "nanmedian(int64_t dim, bool keepdim=False)"],
    "mode": ["mode(int64_t dim=-1, bool keepdim=False)"],
}


_RESULT = {name: return_type(name) for name in ("kthvalue", "median", "nanmedian", "mode")}


class _Ctx:
    """What a node's backward reads: the input's geometry, the dim and what was picked."""
    __slots__ = ("input", "dim", "keepdim", "indices", "value", "saved_tensors", "needs_input_grad", "to_save")


# ---- the nodes' backward ----------------------------------------------------------------------------------

def _selecting_backward(ctx, grad):
    # value_selecting_reduction_backward: zeros of the input's shape, grad put at the picked indices
    shape = ctx.input
    if len(shape) == 0:
        return grad.reshape(())
    indices = ctx.indices
    if not ctx.keepdim:
        grad = grad.unsqueeze(ctx.dim)
        indices = indices.unsqueeze(ctx.dim)
    return minitorch.zeros(shape, dtype=grad.dtype, device=grad.device).scatter(ctx.dim, indices, grad)


def _evenly_backward(ctx, grad):
    # evenly_distribute_backward: the elements equal to the result (NaN ones when it is NaN) share grad
    input, value = ctx.saved_tensors
    mask = input.isnan() if bool(value.isnan()) else input == value
    return minitorch.zeros_like(input, dtype=grad.dtype).masked_fill(mask, grad / mask.sum())


def _record(node_name, backward, input, values, ctx):
    if input.requires_grad and minitorch.is_grad_enabled():
        _C._function_record(node_name, ctx, backward, (input,), (values,))


# ---- the picking --------------------------------------------------------------------------------------------

def _wrap_dim(input, dim):
    ndim = max(input.dim(), 1)
    if not -ndim <= dim < ndim:
        input.sort(dim)     # raises torch's IndexError for the dim
    return dim % ndim


def _check_bool(input, kernel):
    if input.dtype == minitorch.bool:
        raise NotImplementedError('"{}" not implemented for \'Bool\''.format(kernel))


def _positions(kind, v, d, n, k):
    """The position in each sorted line (size 1 at d, int64) that `kind` picks."""
    first = v.narrow(d, 0, 1)
    if kind == "kthvalue":
        return minitorch.full_like(first, k - 1, dtype=minitorch.int64)
    if kind == "mode":
        starts = minitorch.cat([minitorch.ones_like(first, dtype=minitorch.bool),
                                v.narrow(d, 1, n - 1) != v.narrow(d, 0, n - 1)], d)
        run = starts.long().cumsum(d) - 1
        counts = minitorch.zeros_like(run).scatter_add(d, run, minitorch.ones_like(run))
        best = counts.argmax(d, keepdim=True)
        return (counts.cumsum(d) - 1).gather(d, best)
    nans = v.isnan().long().sum(d, keepdim=True)
    if kind == "median":
        # a line with NaN gives its first NaN (the first of the NaN block the stable sort ends with)
        middle = (n - 1) // 2
        return middle + (nans > 0).long() * (n - nans - middle)
    # nanmedian: the lower median of the numbers, (count - 1) // 2 truncated (0 when all are NaN)
    table = minitorch.tensor([max(count - 1, 0) // 2 for count in range(n + 1)], device=v.device)
    return table[n - nans]


def _quickselect_index(line, k):
    """The index torch's quick_select_template puts at position k of `line` (NaN above every number)."""
    def gt(a, b):
        return (a != a and b == b) or a > b
    arr, idx = list(line), list(range(len(line)))

    def swap(p, q):
        arr[p], arr[q] = arr[q], arr[p]
        idx[p], idx[q] = idx[q], idx[p]
    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        # the median of three as pivot, at lo
        swap(lo + (hi - lo) // 2, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        p, q, pivot = lo + 1, hi, arr[lo]
        while True:
            p += 1
            while gt(pivot, arr[p]):
                p += 1
            q -= 1
            while gt(arr[q], pivot):
                q -= 1
            if q < p:
                break
            swap(p, q)
        swap(lo, q)
        if q <= k:
            lo = p
        if q >= k:
            hi = q - 1
    return idx[k]


# ---- torch's CPU mode kernel: std::sort (libstdc++'s introsort) of (value, index) pairs by value --------
#
# The sort is not stable, so which index ends a run of equal values (mode's index) is wherever the sort
# leaves it; and NaN compares false both ways, so it lands where the algorithm puts it. Lines of more than
# 16 elements, or holding NaN, are replayed here element by element (Python's float comparisons are C's).

_THRESHOLD = 16


def _std_sort(a):
    """a (a list of (value, index) pairs) sorted in place as libstdc++'s std::sort with `x[0] < y[0]`."""
    def less(p, q):
        return p[0] < q[0]

    def linear_insert(last):
        val = a[last]
        nxt = last - 1
        while less(val, a[nxt]):
            a[last] = a[nxt]
            last = nxt
            nxt -= 1
        a[last] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                val = a[i]
                a[first + 1:i + 1] = a[first:i]
                a[first] = val
            else:
                linear_insert(i)

    def adjust_heap(first, hole, length, value):
        top = hole
        child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if less(a[first + child], a[first + child - 1]):
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and less(a[first + parent], value):
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = value

    def heap_sort(first, last):
        length = last - first
        if length >= 2:
            for parent in range((length - 2) // 2, -1, -1):
                adjust_heap(first, parent, length, a[first + parent])
        while last - first > 1:
            last -= 1
            value = a[last]
            a[last] = a[first]
            adjust_heap(first, 0, last - first, value)

    def median_to_first(result, x, y, z):
        if less(a[x], a[y]):
            pick = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
        else:
            pick = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
        a[result], a[pick] = a[pick], a[result]

    def partition(first, last, pivot):
        while True:
            while less(a[first], a[pivot]):
                first += 1
            last -= 1
            while less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def introsort(first, last, depth):
        while last - first > _THRESHOLD:
            if depth == 0:
                heap_sort(first, last)
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    n = len(a)
    if n > 1:
        introsort(0, n, (n.bit_length() - 1) * 2)
        if n > _THRESHOLD:
            insertion_sort(0, _THRESHOLD)
            for i in range(_THRESHOLD, n):
                linear_insert(i)
        else:
            insertion_sort(0, n)


def _mode_of_line(line):
    """(value, index) of torch's mode kernel on one line: the last of the longest runs of equal values
    after std::sort (a later run wins only when longer; NaN differs from everything)."""
    pairs = [(value, i) for i, value in enumerate(line)]
    _std_sort(pairs)
    best, best_freq, freq = pairs[0] if pairs else (0, 0), 0, 0
    for i, pair in enumerate(pairs):
        freq += 1
        if i == len(pairs) - 1 or pair[0] != pairs[i + 1][0]:
            if freq > best_freq:
                best, best_freq = pair, freq
            freq = 0
    return best


def _mode_replayed(x, d, n, values, indices):
    """values and indices (the dim kept), with the lines torch's unstable sort decides replayed: all of
    them when longer than 16, else those holding NaN."""
    lines = x.movedim(d, -1).reshape(-1, n)
    replay = list(range(lines.shape[0])) if n > _THRESHOLD else \
        lines.isnan().any(1).nonzero().reshape(-1).tolist() if x.is_floating_point() else []
    if not replay:
        return values, indices
    flat_v = values.movedim(d, -1).reshape(-1).tolist()
    flat_i = indices.movedim(d, -1).reshape(-1).tolist()
    for row in replay:
        flat_v[row], flat_i[row] = _mode_of_line(lines[row].tolist())
    shape = values.movedim(d, -1).shape
    fixed_v = minitorch.tensor(flat_v, dtype=values.dtype, device=values.device).reshape(shape).movedim(-1, d)
    fixed_i = minitorch.tensor(flat_i, dtype=minitorch.int64, device=indices.device).reshape(shape).movedim(-1, d)
    return fixed_v, fixed_i


def _kthvalue_tied_indices(x, v, d, n, k, indices):
    """indices, with the lines whose k-th value is tied given torch's quickselect index."""
    picked = v.narrow(d, k - 1, 1)
    tie = minitorch.zeros_like(picked, dtype=minitorch.bool)
    for j in (k - 2, k):
        if 0 <= j < n:
            other = v.narrow(d, j, 1)
            tie = tie | (picked == other) | (picked.isnan() & other.isnan())
    if not bool(tie.any()):
        return indices
    lines = x.movedim(d, -1).reshape(-1, n)
    flat = indices.movedim(d, -1).reshape(-1).tolist()
    for line in tie.movedim(d, -1).reshape(-1).nonzero().reshape(-1).tolist():
        flat[line] = _quickselect_index(lines[line].tolist(), k - 1)
    fixed = minitorch.tensor(flat, dtype=minitorch.int64, device=indices.device)
    return fixed.reshape(indices.movedim(d, -1).shape).movedim(-1, d)


def _select_dim(kind, node_name, input, dim, keepdim, k=None, bool_kernel=None):
    d = _wrap_dim(input, dim)
    x = input.reshape(1) if input.dim() == 0 else input
    n = x.shape[d]
    if n == 0:
        # nanmedian reports as median, as torch's shared kernel does
        raise IndexError("{}(): Expected reduction dim {} to have non-zero size.".format(
            "median" if kind == "nanmedian" else kind, d))
    if kind == "kthvalue" and not 1 <= k <= max(n, 1):
        raise RuntimeError("kthvalue(): selected number k out of range for dimension {}".format(d))
    if bool_kernel is not None:
        _check_bool(input, bool_kernel)
    with minitorch.no_grad():
        if x.numel() == 0 or x.device.type == "meta":
            # no elements, or no data (meta: shapes only)
            shape = list(x.shape)
            shape[d] = 1
            values = minitorch.empty(shape, dtype=x.dtype, device=x.device)
            indices = minitorch.empty(shape, dtype=minitorch.int64, device=x.device)
        else:
            v, i = x.sort(d)
            pos = _positions(kind, v, d, n, k)
            values, indices = v.gather(d, pos), i.gather(d, pos)
            if kind == "kthvalue" and n > 1:
                indices = _kthvalue_tied_indices(x, v, d, n, k, indices)
            elif kind == "mode":
                values, indices = _mode_replayed(x, d, n, values, indices)
        if input.dim() == 0:
            values, indices = values.reshape(()), indices.reshape(())
        elif not keepdim:
            values, indices = values.squeeze(d), indices.squeeze(d)
    ctx = _Ctx()
    ctx.input, ctx.dim, ctx.keepdim, ctx.indices = tuple(input.shape), d, keepdim, indices
    _record(node_name, _selecting_backward, input, values, ctx)
    return _RESULT[kind](values, indices)


def _median_all(kind, node_name, input):
    with minitorch.no_grad():
        x = input.reshape(-1)
        if x.device.type == "meta":
            value = minitorch.empty((), dtype=input.dtype, device=input.device)
        elif x.numel() == 0:
            value = minitorch.full((), float("nan"), dtype=input.dtype if input.is_floating_point()
                                   else minitorch.get_default_dtype(), device=input.device).to(input.dtype)
        else:
            v, _ = x.sort(0)
            value = v.gather(0, _positions(kind, v, 0, x.numel(), None)).reshape(())
    ctx = _Ctx()
    ctx.saved_tensors = (input, value)
    _record(node_name, _evenly_backward, input, value, ctx)
    return value


# ---- the public functions and methods -----------------------------------------------------------------------

def _select_out(kind, v, select):
    """select(keepdim) given out=: kthvalue and mode resize out to the keepdim shape, then squeeze the dim
    in place, as torch's kernels do (so resize_output's warning names the keepdim shape)."""
    if v["out"] is None:
        return select(v["keepdim"])
    squeeze = not v["keepdim"] and v["input"].dim() > 0

    def compute():
        result = select(True)
        if squeeze:
            # out gets the dim back first, so that resize_output keeps an out of the squeezed shape as it is:
            # kthvalue's allocate-or-resize does it for an out of the squeezed rank, mode's compare kernel
            # for any out with at least dim dims
            d = _wrap_dim(v["input"], v["dim"])
            for out, r in zip(v["out"], result):
                if out.dtype == r.dtype and (out.dim() >= d if kind == "mode" else out.dim() == v["input"].dim() - 1):
                    out.unsqueeze_(d)
        return result
    pair = with_out(kind, v["out"], compute)
    if squeeze:
        d = _wrap_dim(v["input"], v["dim"])
        for t in pair:
            t.squeeze_(d)
    return pair


def _kthvalue(v):
    return _select_out("kthvalue", v, lambda keepdim: _select_dim(
        "kthvalue", "KthvalueBackward0", v["input"], v["dim"], keepdim, v["k"], "kthvalue_cpu"))


def _median(kind, index, v):
    name = "Median" if kind == "median" else "Nanmedian"
    if index == 0:
        if v["input"].numel() != 0:
            _check_bool(v["input"], "median_cpu")
        return _median_all(kind, name + "Backward0", v["input"])
    return with_out(kind, v["out"], lambda: _select_dim(
        kind, name + "Backward1", v["input"], v["dim"], v["keepdim"], bool_kernel="median_out"))


def _mode(v):
    return _select_out("mode", v, lambda keepdim: _select_dim("mode", "ModeBackward0", v["input"], v["dim"], keepdim))


def _parse(name, args, kwargs):
    return parse(_FUNCTION_SIGNATURES[name], args, kwargs)


def _parse_method(name, self, args, kwargs):
    return parse_method(_METHOD_SIGNATURES[name], self, args, kwargs)


def kthvalue(*args, **kwargs):
    """The k-th smallest element of each line along dim and its index: (values, indices)."""
    return _kthvalue(_parse("kthvalue", args, kwargs)[1])


def median(*args, **kwargs):
    """The lower median of all elements, or of each line along dim with its index; NaN propagates."""
    return _median("median", *_parse("median", args, kwargs))


def nanmedian(*args, **kwargs):
    """median() ignoring NaN (NaN only where a line is all NaN)."""
    return _median("nanmedian", *_parse("nanmedian", args, kwargs))


def mode(*args, **kwargs):
    """The smallest most frequent value of each line along dim and its last index: (values, indices)."""
    return _mode(_parse("mode", args, kwargs)[1])


def _kthvalue_method(self, *args, **kwargs):
    return _kthvalue(_parse_method("kthvalue", self, args, kwargs)[1])


def _median_method(self, *args, **kwargs):
    return _median("median", *_parse_method("median", self, args, kwargs))


def _nanmedian_method(self, *args, **kwargs):
    return _median("nanmedian", *_parse_method("nanmedian", self, args, kwargs))


def _mode_method(self, *args, **kwargs):
    return _mode(_parse_method("mode", self, args, kwargs)[1])


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    methods = {"kthvalue": _kthvalue_method, "median": _median_method, "nanmedian": _nanmedian_method,
               "mode": _mode_method}
    for name, method in methods.items():
        method.__name__ = name
        method.__doc__ = globals()[name].__doc__
        setattr(tensor_type, name, method)
