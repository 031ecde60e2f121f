"""Counting ops, written as torch's CPU kernels compute them on minitorch's ops (so they run on every
device): bincount (each weight added into its bin in the input's order, as torch's loop does), histc
(torch's linear bin formula in the input's dtype, histogramdd's LINEAR_INTERPOLATION, over the edges
torch picks), searchsorted and bucketize (torch's binary search, cus_lower_bound / cus_upper_bound, one
step for every value at once, so NaNs land where torch's land) and isin (torch's two algorithms, chosen
by torch's size rule: every pair compared, or unique, a stable sort and neighbours compared). None of
them is differentiable (bincount with weights that require grad gives a result without a node, where
torch records its NotImplemented one). Arguments are parsed with torch's signatures (_C._parse_args).
install() puts the methods on Tensor."""

import math

import minitorch
from minitorch import _C
from minitorch._composite import parse, parse_method, return_type, with_out

__all__ = ["bincount", "histc", "histogram", "isin", "searchsorted", "bucketize"]

_FUNCTION_SIGNATURES = {
    "bincount": ["bincount(Tensor input, Tensor? weights=None, int64_t minlength=0)"],
    "histc": ["histc(Tensor input, int64_t bins=100, Scalar min=0, Scalar max=0, *, Tensor out=None)"],
    "isin": ["isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, "
             "Tensor out=None)",
             "isin(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, "
             "Tensor out=None)",
             "isin(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False, "
             "Tensor out=None)"],
}
_FUNCTION_SIGNATURES.update({
    "searchsorted": ["searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False, bool right=False, "
                     "c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)",
                     "searchsorted(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, "
                     "c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)"],
    "bucketize": ["bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, "
                  "Tensor out=None)",
                  "bucketize(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False)"],
})
_METHOD_SIGNATURES = {
    "bincount": ["bincount(Tensor? weights=None, int64_t minlength=0)"],
    "histc": ["histc(int64_t bins=100, Scalar min=0, Scalar max=0)"],
}

_HISTOGRAM_RESULT = return_type("histogram")
_INTEGRAL = (minitorch.uint8, minitorch.int8, minitorch.int16, minitorch.int32, minitorch.int64)


# ---- bincount --------------------------------------------------------------------------------------------

def _bincount(input, weights, minlength):
    if input.device.type == "meta" or (weights is not None and weights.device.type == "meta"):
        _C._no_meta_kernel("aten::bincount")
    # ATen's _bincount_cpu: the integral dispatch, then _bincount_cpu_template's checks in its order
    if input.dtype not in _INTEGRAL:
        raise NotImplementedError("\"bincount_cpu\" not implemented for '{}'".format(input.dtype._scalar_name))
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.dim() == 1 and input.numel() == 0:
        return minitorch.zeros(minlength, dtype=minitorch.int64, device=input.device)
    if input.dim() != 1 or input.min().item() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    nbins = max(int(input.max().item()) + 1, minlength)
    index = input.long()
    if weights is None:
        ones = minitorch.ones(input.shape[0], dtype=minitorch.int64, device=input.device)
        return minitorch.zeros(nbins, dtype=minitorch.int64, device=input.device).index_add_(0, index, ones)
    # float32 weights are added in float32, every other dtype in float64 (torch's weight_t)
    dtype = minitorch.float32 if weights.dtype == minitorch.float32 else minitorch.float64
    with minitorch.no_grad():
        return minitorch.zeros(nbins, dtype=dtype, device=input.device).index_add_(0, index, weights.to(dtype))


def bincount(*args, **kwargs):
    """The count of each non-negative integer in a 1-D integral tensor (bins 0 to max(input), at least
    minlength of them), or the sum of the weights that fall in each bin."""
    _, v = parse(_FUNCTION_SIGNATURES["bincount"], args, kwargs)
    return _bincount(v["input"], v["weights"], v["minlength"])


def _bincount_method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["bincount"], self, args, kwargs)
    return _bincount(self, v["weights"], v["minlength"])


# ---- histc -----------------------------------------------------------------------------------------------

def _cpp_double(x, from_data):
    """x as C++'s ostream writes a double (default precision: %g); a NaN that a reduction made is -nan on
    torch's x86 CPU build."""
    if math.isnan(x):
        return "-nan" if from_data or math.copysign(1.0, x) < 0 else "nan"
    return "%g" % x


def _histc(input, bins, lo, hi):
    # ATen's histogram_histc_out: the bins check, histc_select_outer_bin_edges, then the kernel's dtype
    # dispatch and histogramdd's linear formula in the input's dtype
    if bins <= 0:
        raise RuntimeError("torch.histogram(): bins must be > 0, but got {} for dimension 0".format(bins))
    if input.device.type == "meta":
        return minitorch.empty(bins, dtype=input.dtype, device=input.device)    # torch's meta: the shape only
    leftmost, rightmost = float(lo), float(hi)
    from_data = False
    if leftmost == rightmost and input.numel() > 0:
        extrema = minitorch.aminmax(input.detach())
        leftmost, rightmost = float(extrema.min.item()), float(extrema.max.item())
        from_data = True
    if leftmost == rightmost:
        leftmost -= 1
        rightmost += 1
    if math.isinf(leftmost) or math.isinf(rightmost) or math.isnan(leftmost) or math.isnan(rightmost):
        raise RuntimeError("torch.histc: range of [{}, {}] is not finite".format(
            _cpp_double(leftmost, from_data), _cpp_double(rightmost, from_data)))
    if not leftmost < rightmost:
        raise RuntimeError("torch.histc: max must be larger than min")
    if not input.is_floating_point():
        raise NotImplementedError("\"histogram_cpu\" not implemented for '{}'".format(input.dtype._scalar_name))
    with minitorch.no_grad():
        dtype, device = input.dtype, input.device
        # the outer edges as linspace gives them, in the input's dtype
        left = minitorch.tensor(leftmost, dtype=dtype, device=device)
        right = minitorch.tensor(rightmost, dtype=dtype, device=device)
        x = input.reshape(-1)
        x = x[(x >= left) & (x <= right)]
        pos = ((x - left) * bins / (right - left)).long()
        pos = minitorch.where(pos == bins, bins - 1, pos)
        # float16/bfloat16 counts add up in float32 and are rounded once (torch adds in the 16-bit dtype:
        # the same counts up to 2048 in a bin for float16, 256 for bfloat16)
        count_dtype = minitorch.float32 if dtype in (minitorch.float16, minitorch.bfloat16) else dtype
        ones = minitorch.ones(pos.shape[0], dtype=count_dtype, device=device)
        return minitorch.zeros(bins, dtype=count_dtype, device=device).index_add_(0, pos, ones).to(dtype)


def histc(*args, **kwargs):
    """The histogram of a floating tensor: `bins` equal bins between min and max (both 0: the input's
    smallest and largest elements); elements outside them and NaNs are not counted."""
    _, v = parse(_FUNCTION_SIGNATURES["histc"], args, kwargs)
    return with_out("histc", v["out"], lambda: _histc(v["input"], v["bins"], v["min"], v["max"]))


def _histc_method(self, *args, **kwargs):
    _, v = parse_method(_METHOD_SIGNATURES["histc"], self, args, kwargs)
    return _histc(self, v["bins"], v["min"], v["max"])


# ---- histogram -------------------------------------------------------------------------------------------

_HISTOGRAM_SIGNATURES = [
    "histogram(Tensor input, Tensor bins, *, Tensor? weight=None, bool density=False, TensorList[2] out=None)",
    "histogram(Tensor input, int64_t bins=100, *, ArrayRef<double>? range=None, Tensor? weight=None, bool density=False, "
    "TensorList[2] out=None)",
]
_HISTOGRAM_METHOD_SIGNATURES = [
    "histogram(Tensor bins, *, Tensor? weight=None, bool density=False)",
    "histogram(int64_t bins=100, *, ArrayRef<double>? range=None, Tensor? weight=None, bool density=False)",
]
_HALVES = (minitorch.float16, minitorch.bfloat16)


def _c10_name(dtype):
    from minitorch._matrix_products import _type_meta_name
    return _type_meta_name(dtype)


def _histogram_dtype_check(x):
    # the kernel's dispatch: the floating dtypes, float16 and bfloat16
    if not x.is_floating_point():
        raise NotImplementedError("\"histogram_cpu\" not implemented for '{}'".format(x.dtype._scalar_name))


def _histogram_check_inputs(x, bins, weight):
    # ATen's histogramdd_check_inputs for x of shape (M, 1) and one sequence of edges
    if x.dtype != bins.dtype:
        raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input "
                           "with dtype {} and bins for dimension 0 with dtype {}".format(_c10_name(x.dtype),
                                                                                      _c10_name(bins.dtype)))
    if bins.dim() != 1:
        raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got {} dimensions in the "
                           "bins tensor for dimension 0".format(bins.dim()))
    if bins.numel() == 0:
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in the "
                           "bins tensor for dimension 0")
    if weight is not None:
        if weight.dtype != x.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               "have the same dtype, but got input({}), and weight({})".format(
                                   _c10_name(x.dtype), _c10_name(weight.dtype)))
        if weight.dim() != 1 or weight.shape[0] != x.shape[0]:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               "input tensor excluding its innermost dimension, but got input with shape {} and weight "
                               "with shape {}".format(_sizes(x), _sizes(weight)))


def _histogram_prepare_out(x, bin_ct, out):
    # ATen's histogramdd_prepare_out: the out tensors' dtypes, the bin count, then resize_ (no warning)
    hist, edges = out if out is not None else (x, x)
    if hist.dtype != x.dtype:
        raise RuntimeError("torch.histogram: input tensor and hist tensor should have the same dtype, but got input {} "
                           "and hist {}".format(_c10_name(x.dtype), _c10_name(hist.dtype)))
    if edges.dtype != x.dtype:
        raise RuntimeError("torch.histogram: input tensor and bin_edges tensor should have the same dtype, but got "
                           "input {} and bin_edges {} for dimension 0".format(_c10_name(x.dtype),
                                                                              _c10_name(edges.dtype)))
    if bin_ct <= 0:
        raise RuntimeError("torch.histogram(): bins must be > 0, but got {} for dimension 0".format(bin_ct))


def _outer_edges(x, range_):
    # ATen's select_outer_bin_edges: range, or the input's extremes (floating dtypes only), or [0, 1]
    leftmost, rightmost = 0.0, 1.0
    if range_ is not None:
        values = list(range_)
        if len(values) != 2:
            raise RuntimeError("torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, but "
                               "got {}".format(len(values)))
        leftmost, rightmost = values
    elif x.numel() > 0:
        if x.dtype not in (minitorch.float32, minitorch.float64):
            raise NotImplementedError("\"histogramdd\" not implemented for '{}'".format(x.dtype._scalar_name))
        extrema = minitorch.aminmax(x.detach(), dim=0)
        leftmost, rightmost = float(extrema.min.item()), float(extrema.max.item())
    if not (math.isfinite(leftmost) and math.isfinite(rightmost)):
        raise RuntimeError("torch.histogramdd: dimension 0's range [{:g}, {:g}] is not finite".format(
            leftmost, rightmost))
    if not leftmost <= rightmost:
        raise RuntimeError("torch.histogramdd: min should not exceed max, but got min {:g} max {:g} for dimension 0"
                           .format(leftmost, rightmost))
    if leftmost == rightmost:
        leftmost -= 0.5
        rightmost += 0.5
    return leftmost, rightmost


def _histogram_counts(x, weight, density, edges, linear):
    """ATen's histogramdd_cpu_contiguous over the edges: each element's bin by the linear formula checked
    against its neighbouring edges (linear) or by a binary search of them; elements outside the edges and
    NaNs skipped; the last bin closed on the right; weights added chunk by chunk as torch's threads add
    them (the same bits when both run with the same thread count)."""
    dtype, device = x.dtype, x.device
    v = x.reshape(-1)
    n_edges = edges.shape[0]
    left, right = edges[0], edges[-1]
    keep = (v >= left) & (v <= right)
    v = v[keep]
    if linear:
        pos = ((v - left) * (n_edges - 1) / (right - left)).long()
        # upper_bound within edges[max(0, pos - 1) : min(pos + 2, n_edges)]
        lo = (pos - 1).clamp(min=0)
        hi = (pos + 2).clamp(max=n_edges)
        found = lo.clone()
        for k in range(3):
            at = lo + k
            within = at < hi
            edge = edges[at.clamp(max=n_edges - 1)]
            found = found + (within & (edge <= v)).long()
        pos = found - 1
    else:
        pos = minitorch.searchsorted(edges, v, right=True) - 1
    pos = minitorch.where(pos == n_edges - 1, pos - 1, pos)
    count_dtype = minitorch.float32 if dtype in _HALVES else dtype
    if weight is None:
        add = minitorch.ones(pos.shape[0], dtype=count_dtype, device=device)
    else:
        add = weight.reshape(-1)[keep].to(count_dtype)
    # torch's parallel_for (grain 200): the elements in get_num_threads() equal chunks at most, each chunk
    # added into its own histogram in order, the histograms then summed
    n = x.numel()
    chunks = max(1, min(minitorch.get_num_threads(), -(-n // 200)))
    size = -(-n // chunks) if n else 0
    which = keep.nonzero().reshape(-1) // max(size, 1)
    hist = None
    for c in range(chunks):
        part = which == c
        local = minitorch.zeros(n_edges - 1, dtype=count_dtype, device=device).index_add_(0, pos[part], add[part])
        hist = local if hist is None else hist + local
    hist = hist.to(dtype)
    if density:
        hist = hist / hist.sum().item()
        hist = hist / edges.diff()
    return hist


def _histogram(index, v, x):
    bins, weight, density, out = v["bins"], v["weight"], v["density"], v.get("out")
    if any(t is not None and getattr(t, "device", None) is not None and t.device.type == "meta"
           for t in (x, bins if index == 1 else None, weight)):
        _C._no_meta_kernel("aten::histogram.bins_tensor" if isinstance(bins, minitorch.Tensor)
                           else "aten::histogram.bin_ct")
    reshaped = x.reshape(x.numel(), 1)
    weight = None if weight is None else weight.reshape(weight.numel())
    if index == 0:
        _histogram_check_inputs(reshaped, bins, weight)
        _histogram_prepare_out(reshaped, bins.numel() - 1, out)
        _histogram_dtype_check(x)
        with minitorch.no_grad():
            edges = bins.detach().clone()
            compute = (lambda: (_histogram_counts(x.detach(), _detached(weight), density, edges, False), edges))
    else:
        _histogram_prepare_out(reshaped, bins, out)
        leftmost, rightmost = _outer_edges(reshaped, v["range"])
        with minitorch.no_grad():
            edges = minitorch.linspace(leftmost, rightmost, bins + 1, dtype=x.dtype, device=x.device)
        _histogram_check_inputs(reshaped, edges, weight)
        _histogram_dtype_check(x)
        compute = (lambda: (_histogram_counts(x.detach(), _detached(weight), density, edges, True), edges))
    if out is not None:
        with minitorch.no_grad():
            hist, edges = compute()
            out[0].resize_(hist.shape).copy_(hist)
            out[1].resize_(edges.shape).copy_(edges)
        return minitorch.return_types.histogram_out(tuple(out))
    inputs = [t for t in (x, weight) if t is not None and t.requires_grad]
    if inputs and minitorch.is_grad_enabled():
        from minitorch.autograd.function import _NotImplemented
        hist, edges = _NotImplemented.apply("histogram", lambda: compute(), *inputs)
    else:
        with minitorch.no_grad():
            hist, edges = compute()
    return _HISTOGRAM_RESULT(hist, edges)


def _detached(t):
    return None if t is None else t.detach()


def histogram(*args, **kwargs):
    """The histogram of input's values: `bins` equal bins over range (default: the input's smallest and
    largest values), or bins between the edges of a 1-D tensor; weight= weighs each value, density=True
    normalises to a probability density. Returns (hist, bin_edges)."""
    index, v = parse(_HISTOGRAM_SIGNATURES, args, kwargs)
    return _histogram(index, v, v["input"])


def _histogram_method(self, *args, **kwargs):
    index, v = parse(_HISTOGRAM_METHOD_SIGNATURES, args, kwargs)
    return _histogram(index, v, self)


# ---- isin ------------------------------------------------------------------------------------------------

def _isin_sorting(elements, test_elements, assume_unique, invert):
    """ATen's isin_sorting: the elements' uniques and the test elements' uniques sorted together (stably,
    elements first); an element is in the test elements when its sorted neighbour equals it."""
    if assume_unique:
        elements_flat, test_flat, order = elements.reshape(-1), test_elements.reshape(-1), None
    else:
        elements_flat, order = minitorch.unique(elements, sorted=False, return_inverse=True)
        test_flat = minitorch.unique(test_elements, sorted=False)
    everything = minitorch.cat([elements_flat, test_flat])
    ordered, sorted_order = everything.sort(stable=True, dim=0, descending=False)
    duplicate = minitorch.empty(ordered.shape, dtype=minitorch.bool, device=ordered.device)
    if ordered.shape[0] > 0:
        same = ordered[1:] != ordered[:-1] if invert else ordered[1:] == ordered[:-1]
        duplicate[:-1] = same
        duplicate[-1] = invert
    mask = minitorch.empty_like(duplicate).index_copy_(0, sorted_order, duplicate)
    if assume_unique:
        return mask[:elements.numel()].reshape(elements.shape)
    return mask.index_select(0, order.reshape(-1)).reshape(elements.shape)


def _isin(elements, test_elements, assume_unique, invert):
    for t in (elements, test_elements):
        if t.dtype == minitorch.bool:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    with minitorch.no_grad():
        common = minitorch.result_type(elements, test_elements)
        elements, test_elements = elements.to(common), test_elements.to(common)
        if elements.numel() == 0:
            return minitorch.empty(elements.shape, dtype=minitorch.bool, device=elements.device)
        # numpy's heuristic, as torch takes it: every pair compared when the test elements are few
        if test_elements.numel() < int(10.0 * math.pow(elements.numel(), 0.145)):
            # (torch's kernel views the test elements as 1-D: a layout that cannot be viewed so raises)
            pairs = elements.unsqueeze(-1) == test_elements.view(-1)
            found = pairs.any(-1) if pairs.shape[-1] > 0 else minitorch.zeros(elements.shape, dtype=minitorch.bool,
                                                                               device=elements.device)
            return ~found if invert else found
        return _isin_sorting(elements, test_elements, assume_unique, invert)


def isin(*args, **kwargs):
    """Whether each element of `elements` is among `test_elements` (either may be a number), as a bool
    tensor of elements' shape; invert=True: whether it is not."""
    index, v = parse(_FUNCTION_SIGNATURES["isin"], args, kwargs)
    if index == 1:
        elements = minitorch.tensor(v["element"], device=v["test_elements"].device)
        test_elements = v["test_elements"]
        elements = elements.to(minitorch.result_type(v["element"], test_elements))
    elif index == 2:
        elements = v["elements"]
        test_elements = minitorch.tensor(v["test_element"], device=elements.device)
        test_elements = test_elements.to(minitorch.result_type(elements, v["test_element"]))
    else:
        elements, test_elements = v["elements"], v["test_elements"]
    return with_out("isin", v["out"], lambda: _isin(elements, test_elements, v["assume_unique"], v["invert"]))


# ---- searchsorted, bucketize ------------------------------------------------------------------------------

def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _searchsorted(boundaries, values, out_int32, right, side, sorter, out=None):
    # ATen's searchsorted_pre_check, in its order
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got " + side)
        if right and side != "right":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of {} while "
                               "right was True".format(side))
        right = side == "right"
    if sorter is not None:
        if tuple(sorter.shape) != tuple(boundaries.shape):
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                               "tensor {}and got sorter tensor {}".format(_sizes(boundaries), _sizes(sorter)))
        if sorter.dtype != minitorch.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               + sorter.dtype._scalar_name)
        if sorter.numel() > 0 and sorter.device.type != "meta":
            extrema = minitorch.aminmax(sorter)
            if extrema.min.item() < 0 or extrema.max.item() >= sorter.shape[-1]:
                raise RuntimeError("torch.searchsorted(): sorter index out of range")
    if not (values.dim() > 0 or (values.numel() == 1 and boundaries.dim() == 1)):
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           "is 1, but we got boundaries tensor dim({}) and input value's dim({}) numel({})".format(
                               boundaries.dim(), values.dim(), values.numel()))
    if boundaries.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if boundaries.dim() != 1 and (boundaries.dim() != values.dim()
                                  or tuple(boundaries.shape[:-1]) != tuple(values.shape[:-1])):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match, but we got boundaries tensor {} "
                           "and input value tensor {}".format(_sizes(boundaries), _sizes(values)))
    out_dtype = minitorch.int32 if out_int32 else minitorch.int64
    if out is not None and out.dtype != out_dtype:
        raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
                           "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype "
                           "{} and out_int32 flag is {}".format(out.dtype._scalar_name, out_int32))
    with minitorch.no_grad():
        if boundaries.dtype != values.dtype:
            common = minitorch.result_type(boundaries, values)
            boundaries, values = boundaries.to(common), values.to(common)
        if values.dtype == minitorch.bool:
            raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
        shape = values.shape
        if "meta" in (values.device.type, boundaries.device.type):
            return minitorch.empty(shape, dtype=out_dtype, device="meta")   # no data: the shape only
        v = values.reshape(1) if values.dim() == 0 else values
        n = boundaries.shape[-1]
        lo = minitorch.zeros(v.shape, dtype=minitorch.int64, device=v.device)
        hi = minitorch.full(v.shape, n, dtype=minitorch.int64, device=v.device)
        for _ in range(n.bit_length()):
            active = lo < hi
            mid = lo + (hi - lo) // 2
            at = mid.clamp(max=n - 1)
            if sorter is not None:
                at = sorter[at] if boundaries.dim() == 1 else sorter.gather(-1, at)
            mid_val = boundaries[at] if boundaries.dim() == 1 else boundaries.gather(-1, at)
            # cus_upper_bound moves on while !(mid_val > val), cus_lower_bound while !(mid_val >= val)
            on = ~(mid_val > v) if right else ~(mid_val >= v)
            lo = minitorch.where(active & on, mid + 1, lo)
            hi = minitorch.where(active & ~on, mid, hi)
        return lo.reshape(shape).to(out_dtype)


def searchsorted(*args, **kwargs):
    """For each value, the index in the last dim of sorted_sequence where it would be inserted to keep it
    sorted: before equal elements (right=False, side='left') or after them; sorter= gives the order of an
    unsorted sequence. int64 indices, or int32 with out_int32=True."""
    index, v = parse(_FUNCTION_SIGNATURES["searchsorted"], args, kwargs)
    boundaries = v["sorted_sequence"]
    values = v["input"] if index == 0 else minitorch.tensor(v["self"], device=boundaries.device)
    return with_out("searchsorted", v["out"], lambda: _searchsorted(
        boundaries, values, v["out_int32"], v["right"], v["side"], v["sorter"], v["out"]))


def bucketize(*args, **kwargs):
    """searchsorted(boundaries, input) for 1-D boundaries: the bucket of each element."""
    index, v = parse(_FUNCTION_SIGNATURES["bucketize"], args, kwargs)
    boundaries = v["boundaries"]
    values = v["input"] if index == 0 else minitorch.tensor(v["self"], device=boundaries.device)
    if boundaries.dim() != 1:
        raise RuntimeError("boundaries tensor must be 1 dimension, but got dim({})".format(boundaries.dim()))
    out = v.get("out")
    return with_out("bucketize", out, lambda: _searchsorted(boundaries, values, v["out_int32"], v["right"], None,
                                                            None, out))


def install(tensor_type):
    """Puts the methods on the Tensor type (minitorch/__init__.py imports the functions)."""
    methods = {"bincount": _bincount_method, "histc": _histc_method, "histogram": _histogram_method}
    for name, method in methods.items():
        method.__name__ = name
        method.__doc__ = globals()[name].__doc__
        setattr(tensor_type, name, method)
