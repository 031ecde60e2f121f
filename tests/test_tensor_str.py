"""Tests for minitorch/_tensor_str.py: repr of tensors must be torch 2.13's, character for character.

The golden strings below were printed by torch 2.13.0 (CPU build) and are replayed through a small
pure-Python fake tensor, so these tests need neither torch nor a built minitorch. When torch is
importable, the goldens are re-checked against it and several hundred random tensors are compared
with torch's own repr. Regenerate the golden block with `python tests/test_tensor_str.py`.
The module is loaded by file path because the minitorch package (its C extension) may not be built.
"""

import importlib.util
import math
import pathlib
import random
import struct
import subprocess
import sys

import pytest

MODULE_PATH = pathlib.Path(__file__).resolve().parent.parent / "minitorch" / "_tensor_str.py"


def _load_tensor_str():
    spec = importlib.util.spec_from_file_location("minitorch_tensor_str_under_test", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ts = _load_tensor_str()

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")

NAN = math.nan
INF = math.inf

FLOATING_DTYPES = ("float16", "bfloat16", "float32", "float64")


@pytest.fixture(autouse=True)
def default_printoptions():
    ts.set_printoptions(profile="default")
    if torch is not None:
        torch.set_printoptions(profile="default")
    yield
    ts.set_printoptions(profile="default")
    if torch is not None:
        torch.set_printoptions(profile="default")


# ---------------------------------------------------------------------------------------------
# A duck-typed stand-in for minitorch.Tensor: a strided view over a function of the flat index,
# so a 10**7-element tensor costs nothing until tolist() asks for its values.


class FakeDtype:
    def __init__(self, name, module="torch"):
        self.name = name
        self.module = module
        self.is_floating_point = name in FLOATING_DTYPES
        self.itemsize = {"bool": 1, "float16": 2, "bfloat16": 2, "int32": 4, "float32": 4}.get(name, 8)

    def __repr__(self):
        return f"{self.module}.{self.name}"


class FakeDevice:
    def __init__(self, type="cpu", index=None):
        self.type = type
        self.index = index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class ToListStats:
    def __init__(self):
        self.calls = 0
        self.elements = 0
        self.largest_call = 0


class FakeTensor:
    def __init__(self, element, shape, dtype, device=None, requires_grad=False,
                 offset=0, strides=None, stats=None):
        self.element = element
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device = device or FakeDevice()
        self.requires_grad = requires_grad
        self.offset = offset
        self.strides = strides if strides is not None else _contiguous_strides(self.shape)
        self.stats = stats or ToListStats()

    def _view(self, offset, shape, strides):
        return FakeTensor(self.element, shape, self.dtype, self.device, self.requires_grad,
                          offset, strides, self.stats)

    def dim(self):
        return len(self.shape)

    def numel(self):
        return math.prod(self.shape)

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, key):
        if not self.shape:
            raise IndexError("invalid index of a 0-dim tensor")
        size, stride = self.shape[0], self.strides[0]
        if isinstance(key, int):
            index = key + size if key < 0 else key
            if not 0 <= index < size:
                raise IndexError(key)
            return self._view(self.offset + index * stride, self.shape[1:], self.strides[1:])
        if isinstance(key, slice):
            start, stop, step = key.indices(size)
            length = len(range(start, stop, step))
            return self._view(self.offset + start * stride, (length,) + self.shape[1:],
                              (stride * step,) + self.strides[1:])
        raise TypeError(f"unsupported index {key!r}")

    def tolist(self):
        count = self.numel()
        self.stats.calls += 1
        self.stats.elements += count
        self.stats.largest_call = max(self.stats.largest_call, count)
        return self._nested(self.offset, 0)

    def _nested(self, offset, depth):
        if depth == len(self.shape):
            return self.element(offset)
        stride = self.strides[depth]
        return [self._nested(offset + i * stride, depth + 1) for i in range(self.shape[depth])]


def _contiguous_strides(shape):
    strides = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def _round_to(dtype_name):
    """Python value -> the value a tensor of that dtype would hand back from tolist()."""
    if dtype_name == "float32":
        return lambda v: struct.unpack("f", struct.pack("f", v))[0]
    if dtype_name == "float16":
        return lambda v: struct.unpack("e", struct.pack("e", v))[0]
    if dtype_name == "float64":
        return float
    if dtype_name == "bool":
        return bool
    return int


def _flatten_data(data):
    if not isinstance(data, list):
        return [data], ()
    flat, inner_shape = [], None
    for item in data:
        values, shape = _flatten_data(item)
        flat.extend(values)
        inner_shape = shape
    return flat, (len(data),) + (inner_shape if inner_shape is not None else ())


def fake_from_spec(spec, device=None, dtype_module="torch"):
    """Build a FakeTensor from a golden spec: {'data': nested list} or {'shape', 'affine'}."""
    convert = _round_to(spec["dtype"])
    if "data" in spec:
        flat, shape = _flatten_data(spec["data"])
        values = [convert(v) for v in flat]
        element = values.__getitem__
    else:
        shape = tuple(spec["shape"])
        start, step = spec["affine"]
        if spec["dtype"] in FLOATING_DTYPES:
            # torch: (arange(n, dtype=float64) * step + start).to(dtype)
            element = lambda i: convert(float(i) * step + start)  # noqa: E731
        else:
            element = lambda i: convert(i * step + start)  # noqa: E731
    return FakeTensor(element, shape, FakeDtype(spec["dtype"], dtype_module), device,
                      spec.get("requires_grad", False))


def torch_from_spec(spec):
    """The same tensor built with torch (how the goldens were captured)."""
    dtype = getattr(torch, spec["dtype"])
    if "data" in spec:
        tensor = torch.tensor(spec["data"], dtype=dtype)
    else:
        count = math.prod(spec["shape"])
        start, step = spec["affine"]
        base = torch.float64 if dtype.is_floating_point else torch.int64
        tensor = (torch.arange(count, dtype=base) * step + start).to(dtype).reshape(spec["shape"])
    if spec.get("requires_grad"):
        tensor.requires_grad_(True)
    return tensor


def _str_with_options(tensor, options):
    if options:
        ts.set_printoptions(**options)
    try:
        return ts._str(tensor)
    finally:
        ts.set_printoptions(profile="default")


# ---------------------------------------------------------------------------------------------
# Golden strings (GOLDEN_CASES is at the end of the file; test_golden sits after it)


@needs_torch
def test_goldens_are_what_torch_prints():
    for name, spec, expected in GOLDEN_CASES:
        options = spec.get("options")
        if options:
            torch.set_printoptions(**options)
        try:
            assert repr(torch_from_spec(spec)) == expected, name
        finally:
            torch.set_printoptions(profile="default")


def test_dtype_suffix_uses_the_dtype_repr():
    spec = {"data": [1, 2], "dtype": "int32"}
    fake = fake_from_spec(spec, dtype_module="minitorch")
    assert ts._str(fake) == "tensor([1, 2], dtype=minitorch.int32)"
    empty = fake_from_spec({"shape": (0,), "affine": (0, 1), "dtype": "int64"}, dtype_module="minitorch")
    assert ts._str(empty) == "tensor([], dtype=minitorch.int64)"


# From reference/torch-semantics.md section 3.3 (a CPU build of torch cannot make CUDA tensors).
def test_cuda_device_suffix():
    cuda0 = FakeDevice("cuda", 0)
    matrix = fake_from_spec({"data": [[1, 2], [3, 4]], "dtype": "int64"}, device=cuda0)
    assert ts._str(matrix) == "tensor([[1, 2],\n        [3, 4]], device='cuda:0')"
    vector = fake_from_spec({"data": [1.0, 2.0], "dtype": "float64"}, device=cuda0)
    assert ts._str(vector) == "tensor([1., 2.], device='cuda:0', dtype=torch.float64)"
    grad = fake_from_spec({"data": [0.5], "dtype": "float32", "requires_grad": True},
                          device=FakeDevice("cuda", 1))
    assert ts._str(grad) == "tensor([0.5000], device='cuda:1', requires_grad=True)"
    empty = fake_from_spec({"shape": (0, 2), "affine": (0, 1), "dtype": "float32"}, device=cuda0)
    assert ts._str(empty) == "tensor([], device='cuda:0', size=(0, 2))"


def test_device_suffix_wraps_like_other_suffixes():
    spec = {"shape": (7,), "affine": (100.5, 1.0), "dtype": "float64"}
    text = ts._str(fake_from_spec(spec, device=FakeDevice("cuda", 0)))
    assert text == ("tensor([100.5000, 101.5000, 102.5000, 103.5000, 104.5000, 105.5000, 106.5000],\n"
                    "       device='cuda:0', dtype=torch.float64)")


# ---------------------------------------------------------------------------------------------
# Cost: summarizing must read only the corners.


@pytest.mark.parametrize("shape", [(10**7,), (1000, 10000), (10, 10, 100000), (100000, 3, 40)])
def test_summarized_print_reads_only_the_corners(shape):
    fake = fake_from_spec({"shape": shape, "affine": (0.5, 0.25), "dtype": "float32"})
    text = ts._str(fake)
    assert "..." in text
    # At most (2*edgeitems)**ndim values are printed; allow that and no more.
    assert fake.stats.elements <= 6 ** len(shape)
    # Every innermost dim here is long, so each tolist() is one edge of one row.
    assert fake.stats.largest_call <= 3


def test_small_tensor_is_read_with_one_tolist():
    fake = fake_from_spec({"shape": (4, 5, 6), "affine": (0, 1), "dtype": "int64"})
    ts._str(fake)
    assert fake.stats.calls == 1


def test_import_is_light():
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('m', {str(MODULE_PATH)!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "print(sorted(n for n in ('numpy', 'torch', 'dataclasses', 'minitorch') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------------------
# Print options


def test_printoptions_defaults_and_profiles():
    assert ts.get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}
    ts.set_printoptions(profile="short")
    assert ts.get_printoptions() == {
        "precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80, "sci_mode": None}
    ts.set_printoptions(profile="full", precision=6)
    assert ts.get_printoptions()["threshold"] == math.inf
    assert ts.get_printoptions()["precision"] == 6


def test_set_printoptions_resets_sci_mode_when_omitted():
    ts.set_printoptions(sci_mode=True)
    assert ts.get_printoptions()["sci_mode"] is True
    ts.set_printoptions(precision=3)
    assert ts.get_printoptions()["sci_mode"] is None


def test_printoptions_context_restores():
    fake = fake_from_spec({"data": [1.12345], "dtype": "float32"})
    with ts.printoptions(precision=2):
        assert ts._str(fake) == "tensor([1.12])"
    assert ts._str(fake) == "tensor([1.1235])"


def test_get_printoptions_round_trips():
    ts.set_printoptions(precision=3, linewidth=60, sci_mode=False)
    saved = ts.get_printoptions()
    ts.set_printoptions(profile="default")
    ts.set_printoptions(**saved)
    assert ts.get_printoptions() == saved


@needs_torch
def test_printoptions_match_torch():
    for options in ({}, {"profile": "short"}, {"profile": "full"}, {"precision": 7, "sci_mode": True},
                    {"edgeitems": 0, "threshold": 7, "linewidth": 33}):
        ts.set_printoptions(**options)
        torch.set_printoptions(**options)
        assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
        ts.set_printoptions(profile="default")
        torch.set_printoptions(profile="default")


# ---------------------------------------------------------------------------------------------
# Randomized comparison with torch's own repr.

RANDOM_DTYPES = ("float32", "float32", "float64", "float16", "bfloat16", "int32", "int64", "bool")


def _random_shape(rng):
    kind = rng.random()
    ndim = rng.choice((0, 1, 1, 2, 2, 3, 4))
    if kind < 0.08:
        # empty somewhere
        shape = [rng.randint(0, 4) for _ in range(max(ndim, 1))]
        shape[rng.randrange(len(shape))] = 0
        return tuple(shape)
    if kind < 0.30 and ndim > 0:
        # big enough to summarize, with one or more long dims
        shape = [rng.randint(1, 9) for _ in range(ndim)]
        shape[rng.randrange(ndim)] = rng.randint(7, 3000)
        while math.prod(shape) <= 1000:
            shape[rng.randrange(ndim)] += rng.randint(1, 40)
        return tuple(shape)
    return tuple(rng.randint(1, 7) for _ in range(ndim))


def _random_values(rng, generator, shape, dtype_name):
    if dtype_name == "bool":
        return torch.rand(shape, generator=generator) < rng.random()
    if dtype_name in ("int32", "int64"):
        high = 10 ** rng.randint(1, 9 if dtype_name == "int32" else 18)
        return torch.randint(-high, high, shape, generator=generator, dtype=getattr(torch, dtype_name))
    style = rng.choice(("integral", "normal", "scaled", "log", "tiny", "zeros"))
    if style == "integral":
        values = torch.randint(-10 ** rng.randint(0, 9), 10 ** rng.randint(1, 10), shape,
                               generator=generator).double()
    elif style == "normal":
        values = torch.randn(shape, generator=generator, dtype=torch.float64)
    elif style == "scaled":
        values = torch.randn(shape, generator=generator, dtype=torch.float64) * 10.0 ** rng.randint(-8, 12)
    elif style == "log":
        exponents = torch.rand(shape, generator=generator, dtype=torch.float64) * 24 - 12
        signs = torch.where(torch.rand(shape, generator=generator) < 0.5, -1.0, 1.0).double()
        values = signs * 10.0 ** exponents
    elif style == "tiny":
        values = torch.rand(shape, generator=generator, dtype=torch.float64) * 10.0 ** rng.randint(-9, -3)
    else:
        values = torch.zeros(shape, dtype=torch.float64)
    if values.numel() and rng.random() < 0.3:
        # sprinkle zeros, negative zeros, nan and infinities
        flat = values.reshape(-1)
        for special in rng.sample((0.0, -0.0, NAN, INF, -INF), rng.randint(1, 3)):
            flat[rng.randrange(flat.numel())] = special
    if dtype_name in ("float16", "bfloat16"):
        values = values.clamp(-6e4, 6e4)
    return values.to(getattr(torch, dtype_name))


def _random_options(rng):
    if rng.random() > 0.2:
        return {}
    options = {}
    if rng.random() < 0.5:
        options["precision"] = rng.randint(0, 8)
    if rng.random() < 0.4:
        options["threshold"] = rng.choice((0, 5, 50, 500, 10000))
    if rng.random() < 0.4:
        options["edgeitems"] = rng.randint(0, 5)
    if rng.random() < 0.4:
        options["linewidth"] = rng.randint(10, 200)
    if rng.random() < 0.4:
        options["sci_mode"] = rng.choice((True, False))
    return options


def _random_case(rng, generator):
    dtype_name = rng.choice(RANDOM_DTYPES)
    shape = _random_shape(rng)
    tensor = _random_values(rng, generator, shape, dtype_name)
    if tensor.dim() >= 2 and rng.random() < 0.2:
        tensor = tensor.transpose(0, tensor.dim() - 1)  # a non-contiguous view
    if tensor.dtype.is_floating_point and rng.random() < 0.15:
        tensor.requires_grad_(True)
        if rng.random() < 0.5:
            tensor = tensor * 1  # has a grad_fn
    return tensor, _random_options(rng)


RANDOM_CASES = 600


@needs_torch
@pytest.mark.parametrize("seed", range(4))
def test_random_tensors_match_torch_repr(seed):
    rng = random.Random(seed)
    generator = torch.Generator().manual_seed(seed)
    mismatches = []
    for case in range(RANDOM_CASES // 4):
        tensor, options = _random_case(rng, generator)
        if options:
            torch.set_printoptions(**options)
        try:
            expected = repr(tensor)
        finally:
            torch.set_printoptions(profile="default")
        actual = _str_with_options(tensor, options)
        if actual != expected:
            mismatches.append((case, tuple(tensor.shape), tensor.dtype, options, expected, actual))
    assert not mismatches, "first mismatch: %r (of %d)" % (mismatches[0], len(mismatches))


# ---------------------------------------------------------------------------------------------
# Golden strings, printed by torch 2.13.0: (name, spec, repr). Regenerate with
# `python tests/test_tensor_str.py` (needs torch) and paste the output over this block.

GOLDEN_CASES = [
    ('scalar_float', {'data': 3.14159, 'dtype': 'float32'},
     'tensor(3.1416)'),
    ('scalar_int', {'data': 5, 'dtype': 'int64'},
     'tensor(5)'),
    ('scalar_int32', {'data': -7, 'dtype': 'int32'},
     'tensor(-7, dtype=torch.int32)'),
    ('scalar_bool', {'data': True, 'dtype': 'bool'},
     'tensor(True)'),
    ('scalar_small_sci', {'data': 1e-05, 'dtype': 'float32'},
     'tensor(1.0000e-05)'),
    ('scalar_nan', {'data': NAN, 'dtype': 'float32'},
     'tensor(nan)'),
    ('scalar_neg_inf', {'data': -INF, 'dtype': 'float64'},
     'tensor(-inf, dtype=torch.float64)'),
    ('scalar_neg_zero', {'data': -0.0, 'dtype': 'float32'},
     'tensor(-0.)'),
    ('scalar_integral_float', {'data': 42.0, 'dtype': 'float32'},
     'tensor(42.)'),
    ('empty_float', {'shape': (0,), 'affine': (0, 1), 'dtype': 'float32'},
     'tensor([])'),
    ('empty_int64', {'shape': (0,), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([], dtype=torch.int64)'),
    ('empty_int32', {'shape': (0,), 'affine': (0, 1), 'dtype': 'int32'},
     'tensor([], dtype=torch.int32)'),
    ('empty_bool', {'shape': (0,), 'affine': (0, 1), 'dtype': 'bool'},
     'tensor([], dtype=torch.bool)'),
    ('empty_float64', {'shape': (0,), 'affine': (0, 1), 'dtype': 'float64'},
     'tensor([], dtype=torch.float64)'),
    ('empty_0x3', {'shape': (0, 3), 'affine': (0, 1), 'dtype': 'float32'},
     'tensor([], size=(0, 3))'),
    ('empty_2x0x4_int64', {'shape': (2, 0, 4), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([], size=(2, 0, 4), dtype=torch.int64)'),
    ('empty_requires_grad', {'shape': (0,), 'affine': (0, 1), 'dtype': 'float32', 'requires_grad': True},
     'tensor([], requires_grad=True)'),
    ('int_mode', {'data': [1.0, 2.0], 'dtype': 'float32'},
     'tensor([1., 2.])'),
    ('fixed_mode', {'data': [1.5, 2.25], 'dtype': 'float32'},
     'tensor([1.5000, 2.2500])'),
    ('fixed_rounding_float32', {'data': [0.1, 0.2, 0.30000001, 1.23456789], 'dtype': 'float32'},
     'tensor([0.1000, 0.2000, 0.3000, 1.2346])'),
    ('sci_small', {'data': [1e-05], 'dtype': 'float32'},
     'tensor([1.0000e-05])'),
    ('sci_ratio', {'data': [0.0001, 1000.0], 'dtype': 'float32'},
     'tensor([1.0000e-04, 1.0000e+03])'),
    ('ratio_exactly_1000', {'data': [1.0, 1000.0, 2.5], 'dtype': 'float64'},
     'tensor([   1.0000, 1000.0000,    2.5000], dtype=torch.float64)'),
    ('ratio_just_over_1000', {'data': [1.0, 1000.5], 'dtype': 'float64'},
     'tensor([1.0000e+00, 1.0005e+03], dtype=torch.float64)'),
    ('min_exactly_1e-4', {'data': [0.0001, 0.05], 'dtype': 'float64'},
     'tensor([0.0001, 0.0500], dtype=torch.float64)'),
    ('int_mode_sci_large', {'data': [100000000.0, 1.0], 'dtype': 'float32'},
     'tensor([1.0000e+08, 1.0000e+00])'),
    ('int_mode_1e8_exact', {'data': [100000000.0, 1000000.0], 'dtype': 'float64'},
     'tensor([100000000.,   1000000.], dtype=torch.float64)'),
    ('int_mode_sci_over_1e8', {'data': [123456789.0, 200000000.0], 'dtype': 'float64'},
     'tensor([1.2346e+08, 2.0000e+08], dtype=torch.float64)'),
    ('mixed_signs_large', {'data': [1000000000.0, -3.5, 0.25], 'dtype': 'float32'},
     'tensor([ 1.0000e+09, -3.5000e+00,  2.5000e-01])'),
    ('mixed_signs_fixed', {'data': [-1.5, 2.25, -1000.5], 'dtype': 'float32'},
     'tensor([   -1.5000,     2.2500, -1000.5000])'),
    ('nan_padded', {'data': [1.5, NAN], 'dtype': 'float32'},
     'tensor([1.5000,    nan])'),
    ('inf_int_mode', {'data': [1.0, INF, -INF, NAN], 'dtype': 'float32'},
     'tensor([1., inf, -inf, nan])'),
    ('inf_sci_mode', {'data': [1e-06, INF, NAN, -2000.0], 'dtype': 'float64'},
     'tensor([ 1.0000e-06,         inf,         nan, -2.0000e+03],\n       dtype=torch.float64)'),
    ('zeros', {'data': [0.0, 0.0], 'dtype': 'float32'},
     'tensor([0., 0.])'),
    ('zero_and_neg_inf', {'data': [0.0, -INF], 'dtype': 'float32'},
     'tensor([0., -inf])'),
    ('neg_zero_int_mode', {'data': [-0.0, 1.0], 'dtype': 'float32'},
     'tensor([-0., 1.])'),
    ('neg_zero_fixed_mode', {'data': [-0.0, 0.5], 'dtype': 'float32'},
     'tensor([-0.0000, 0.5000])'),
    ('all_nan', {'data': [NAN, NAN], 'dtype': 'float64'},
     'tensor([nan, nan], dtype=torch.float64)'),
    ('bool_vector', {'data': [True, False], 'dtype': 'bool'},
     'tensor([ True, False])'),
    ('bool_matrix', {'data': [[True, True], [False, True]], 'dtype': 'bool'},
     'tensor([[ True,  True],\n        [False,  True]])'),
    ('int_width_alignment', {'data': [[1, 10], [3, 4]], 'dtype': 'int64'},
     'tensor([[ 1, 10],\n        [ 3,  4]])'),
    ('int32_suffix', {'data': [1, 2], 'dtype': 'int32'},
     'tensor([1, 2], dtype=torch.int32)'),
    ('int64_extremes', {'data': [-9223372036854775808, 1, 9223372036854775807], 'dtype': 'int64'},
     'tensor([-9223372036854775808,                    1,  9223372036854775807])'),
    ('int32_negative', {'data': [[-2147483648, 0], [5, 2147483647]], 'dtype': 'int32'},
     'tensor([[-2147483648,           0],\n        [          5,  2147483647]], dtype=torch.int32)'),
    ('float64_suffix', {'data': [1.0, 2.0], 'dtype': 'float64'},
     'tensor([1., 2.], dtype=torch.float64)'),
    ('float16', {'data': [0.1, 1.5, -2.75, 65504.0], 'dtype': 'float16'},
     'tensor([ 9.9976e-02,  1.5000e+00, -2.7500e+00,  6.5504e+04],\n       dtype=torch.float16)'),
    ('float16_small', {'data': [0.0001, 6.103515625e-05, 1.0], 'dtype': 'float16'},
     'tensor([1.0002e-04, 6.1035e-05, 1.0000e+00], dtype=torch.float16)'),
    ('wrap_arange30', {'shape': (30,), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])'),
    ('wrap_float_vector', {'shape': (40,), 'affine': (-3.0, 0.37), 'dtype': 'float32'},
     'tensor([-3.0000, -2.6300, -2.2600, -1.8900, -1.5200, -1.1500, -0.7800, -0.4100,\n        -0.0400,  0.3300,  0.7000,  1.0700,  1.4400,  1.8100,  2.1800,  2.5500,\n         2.9200,  3.2900,  3.6600,  4.0300,  4.4000,  4.7700,  5.1400,  5.5100,\n         5.8800,  6.2500,  6.6200,  6.9900,  7.3600,  7.7300,  8.1000,  8.4700,\n         8.8400,  9.2100,  9.5800,  9.9500, 10.3200, 10.6900, 11.0600, 11.4300])'),
    ('wrap_nested_rows', {'shape': (3, 25), 'affine': (0.5, 1.25), 'dtype': 'float32'},
     'tensor([[ 0.5000,  1.7500,  3.0000,  4.2500,  5.5000,  6.7500,  8.0000,  9.2500,\n         10.5000, 11.7500, 13.0000, 14.2500, 15.5000, 16.7500, 18.0000, 19.2500,\n         20.5000, 21.7500, 23.0000, 24.2500, 25.5000, 26.7500, 28.0000, 29.2500,\n         30.5000],\n        [31.7500, 33.0000, 34.2500, 35.5000, 36.7500, 38.0000, 39.2500, 40.5000,\n         41.7500, 43.0000, 44.2500, 45.5000, 46.7500, 48.0000, 49.2500, 50.5000,\n         51.7500, 53.0000, 54.2500, 55.5000, 56.7500, 58.0000, 59.2500, 60.5000,\n         61.7500],\n        [63.0000, 64.2500, 65.5000, 66.7500, 68.0000, 69.2500, 70.5000, 71.7500,\n         73.0000, 74.2500, 75.5000, 76.7500, 78.0000, 79.2500, 80.5000, 81.7500,\n         83.0000, 84.2500, 85.5000, 86.7500, 88.0000, 89.2500, 90.5000, 91.7500,\n         93.0000]])'),
    ('suffix_wraps_to_new_line', {'shape': (7,), 'affine': (100.5, 1.0), 'dtype': 'float64'},
     'tensor([100.5000, 101.5000, 102.5000, 103.5000, 104.5000, 105.5000, 106.5000],\n       dtype=torch.float64)'),
    ('suffix_wraps_float64', {'shape': (6,), 'affine': (100.5, 1.0), 'dtype': 'float64'},
     'tensor([100.5000, 101.5000, 102.5000, 103.5000, 104.5000, 105.5000],\n       dtype=torch.float64)'),
    ('suffix_wraps_where_the_line_would_be_80', {'data': [-12345.5, 23456.25, 100.5, -200.75], 'dtype': 'float32', 'requires_grad': True},
     'tensor([-12345.5000,  23456.2500,    100.5000,   -200.7500],\n       requires_grad=True)'),
    ('suffix_fits', {'data': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6], 'dtype': 'int32'},
     'tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6], dtype=torch.int32)'),
    ('suffix_wraps_at_81_columns', {'data': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7], 'dtype': 'int32'},
     'tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7],\n       dtype=torch.int32)'),
    ('suffix_after_wrapped_vector', {'shape': (20,), 'affine': (1.5, 3.25), 'dtype': 'float64'},
     'tensor([ 1.5000,  4.7500,  8.0000, 11.2500, 14.5000, 17.7500, 21.0000, 24.2500,\n        27.5000, 30.7500, 34.0000, 37.2500, 40.5000, 43.7500, 47.0000, 50.2500,\n        53.5000, 56.7500, 60.0000, 63.2500], dtype=torch.float64)'),
    ('two_suffixes_second_wraps', {'shape': (6,), 'affine': (100.5, 1.0), 'dtype': 'float64', 'requires_grad': True},
     'tensor([100.5000, 101.5000, 102.5000, 103.5000, 104.5000, 105.5000],\n       dtype=torch.float64, requires_grad=True)'),
    ('requires_grad', {'data': [[0.5, -1.25], [2.0, 3.0]], 'dtype': 'float32', 'requires_grad': True},
     'tensor([[ 0.5000, -1.2500],\n        [ 2.0000,  3.0000]], requires_grad=True)'),
    ('requires_grad_float64', {'data': [1.0, 2.5], 'dtype': 'float64', 'requires_grad': True},
     'tensor([1.0000, 2.5000], dtype=torch.float64, requires_grad=True)'),
    ('matrix_2d', {'shape': (3, 4), 'affine': (-1.0, 0.75), 'dtype': 'float32'},
     'tensor([[-1.0000, -0.2500,  0.5000,  1.2500],\n        [ 2.0000,  2.7500,  3.5000,  4.2500],\n        [ 5.0000,  5.7500,  6.5000,  7.2500]])'),
    ('tensor_3d_blank_lines', {'shape': (2, 3, 4), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([[[ 0,  1,  2,  3],\n         [ 4,  5,  6,  7],\n         [ 8,  9, 10, 11]],\n\n        [[12, 13, 14, 15],\n         [16, 17, 18, 19],\n         [20, 21, 22, 23]]])'),
    ('tensor_4d_two_blank_lines', {'shape': (2, 2, 2, 3), 'affine': (-0.5, 0.125), 'dtype': 'float32'},
     'tensor([[[[-0.5000, -0.3750, -0.2500],\n          [-0.1250,  0.0000,  0.1250]],\n\n         [[ 0.2500,  0.3750,  0.5000],\n          [ 0.6250,  0.7500,  0.8750]]],\n\n\n        [[[ 1.0000,  1.1250,  1.2500],\n          [ 1.3750,  1.5000,  1.6250]],\n\n         [[ 1.7500,  1.8750,  2.0000],\n          [ 2.1250,  2.2500,  2.3750]]]])'),
    ('single_element_dims', {'shape': (1, 1, 1), 'affine': (7.0, 1), 'dtype': 'float32'},
     'tensor([[[7.]]])'),
    ('summarize_arange2000', {'shape': (2000,), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([   0,    1,    2,  ..., 1997, 1998, 1999])'),
    ('summarize_matrix', {'shape': (40, 50), 'affine': (0.0, 1.0), 'dtype': 'float32'},
     'tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n         4.9000e+01],\n        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n         9.9000e+01],\n        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n         1.4900e+02],\n        ...,\n        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n         1.8990e+03],\n        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n         1.9490e+03],\n        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n         1.9990e+03]])'),
    ('summarize_rows_only', {'shape': (1000, 3), 'affine': (0.25, 0.5), 'dtype': 'float32'},
     'tensor([[2.5000e-01, 7.5000e-01, 1.2500e+00],\n        [1.7500e+00, 2.2500e+00, 2.7500e+00],\n        [3.2500e+00, 3.7500e+00, 4.2500e+00],\n        ...,\n        [1.4958e+03, 1.4962e+03, 1.4968e+03],\n        [1.4972e+03, 1.4978e+03, 1.4982e+03],\n        [1.4988e+03, 1.4992e+03, 1.4998e+03]])'),
    ('summarize_cols_only', {'shape': (3, 400), 'affine': (-600, 3), 'dtype': 'int32'},
     'tensor([[-600, -597, -594,  ...,  591,  594,  597],\n        [ 600,  603,  606,  ..., 1791, 1794, 1797],\n        [1800, 1803, 1806,  ..., 2991, 2994, 2997]], dtype=torch.int32)'),
    ('summarize_3d', {'shape': (10, 10, 20), 'affine': (0.0, 0.001), 'dtype': 'float32'},
     'tensor([[[0.0000e+00, 1.0000e-03, 2.0000e-03,  ..., 1.7000e-02,\n          1.8000e-02, 1.9000e-02],\n         [2.0000e-02, 2.1000e-02, 2.2000e-02,  ..., 3.7000e-02,\n          3.8000e-02, 3.9000e-02],\n         [4.0000e-02, 4.1000e-02, 4.2000e-02,  ..., 5.7000e-02,\n          5.8000e-02, 5.9000e-02],\n         ...,\n         [1.4000e-01, 1.4100e-01, 1.4200e-01,  ..., 1.5700e-01,\n          1.5800e-01, 1.5900e-01],\n         [1.6000e-01, 1.6100e-01, 1.6200e-01,  ..., 1.7700e-01,\n          1.7800e-01, 1.7900e-01],\n         [1.8000e-01, 1.8100e-01, 1.8200e-01,  ..., 1.9700e-01,\n          1.9800e-01, 1.9900e-01]],\n\n        [[2.0000e-01, 2.0100e-01, 2.0200e-01,  ..., 2.1700e-01,\n          2.1800e-01, 2.1900e-01],\n         [2.2000e-01, 2.2100e-01, 2.2200e-01,  ..., 2.3700e-01,\n          2.3800e-01, 2.3900e-01],\n         [2.4000e-01, 2.4100e-01, 2.4200e-01,  ..., 2.5700e-01,\n          2.5800e-01, 2.5900e-01],\n         ...,\n         [3.4000e-01, 3.4100e-01, 3.4200e-01,  ..., 3.5700e-01,\n          3.5800e-01, 3.5900e-01],\n         [3.6000e-01, 3.6100e-01, 3.6200e-01,  ..., 3.7700e-01,\n          3.7800e-01, 3.7900e-01],\n         [3.8000e-01, 3.8100e-01, 3.8200e-01,  ..., 3.9700e-01,\n          3.9800e-01, 3.9900e-01]],\n\n        [[4.0000e-01, 4.0100e-01, 4.0200e-01,  ..., 4.1700e-01,\n          4.1800e-01, 4.1900e-01],\n         [4.2000e-01, 4.2100e-01, 4.2200e-01,  ..., 4.3700e-01,\n          4.3800e-01, 4.3900e-01],\n         [4.4000e-01, 4.4100e-01, 4.4200e-01,  ..., 4.5700e-01,\n          4.5800e-01, 4.5900e-01],\n         ...,\n         [5.4000e-01, 5.4100e-01, 5.4200e-01,  ..., 5.5700e-01,\n          5.5800e-01, 5.5900e-01],\n         [5.6000e-01, 5.6100e-01, 5.6200e-01,  ..., 5.7700e-01,\n          5.7800e-01, 5.7900e-01],\n         [5.8000e-01, 5.8100e-01, 5.8200e-01,  ..., 5.9700e-01,\n          5.9800e-01, 5.9900e-01]],\n\n        ...,\n\n        [[1.4000e+00, 1.4010e+00, 1.4020e+00,  ..., 1.4170e+00,\n          1.4180e+00, 1.4190e+00],\n         [1.4200e+00, 1.4210e+00, 1.4220e+00,  ..., 1.4370e+00,\n          1.4380e+00, 1.4390e+00],\n         [1.4400e+00, 1.4410e+00, 1.4420e+00,  ..., 1.4570e+00,\n          1.4580e+00, 1.4590e+00],\n         ...,\n         [1.5400e+00, 1.5410e+00, 1.5420e+00,  ..., 1.5570e+00,\n          1.5580e+00, 1.5590e+00],\n         [1.5600e+00, 1.5610e+00, 1.5620e+00,  ..., 1.5770e+00,\n          1.5780e+00, 1.5790e+00],\n         [1.5800e+00, 1.5810e+00, 1.5820e+00,  ..., 1.5970e+00,\n          1.5980e+00, 1.5990e+00]],\n\n        [[1.6000e+00, 1.6010e+00, 1.6020e+00,  ..., 1.6170e+00,\n          1.6180e+00, 1.6190e+00],\n         [1.6200e+00, 1.6210e+00, 1.6220e+00,  ..., 1.6370e+00,\n          1.6380e+00, 1.6390e+00],\n         [1.6400e+00, 1.6410e+00, 1.6420e+00,  ..., 1.6570e+00,\n          1.6580e+00, 1.6590e+00],\n         ...,\n         [1.7400e+00, 1.7410e+00, 1.7420e+00,  ..., 1.7570e+00,\n          1.7580e+00, 1.7590e+00],\n         [1.7600e+00, 1.7610e+00, 1.7620e+00,  ..., 1.7770e+00,\n          1.7780e+00, 1.7790e+00],\n         [1.7800e+00, 1.7810e+00, 1.7820e+00,  ..., 1.7970e+00,\n          1.7980e+00, 1.7990e+00]],\n\n        [[1.8000e+00, 1.8010e+00, 1.8020e+00,  ..., 1.8170e+00,\n          1.8180e+00, 1.8190e+00],\n         [1.8200e+00, 1.8210e+00, 1.8220e+00,  ..., 1.8370e+00,\n          1.8380e+00, 1.8390e+00],\n         [1.8400e+00, 1.8410e+00, 1.8420e+00,  ..., 1.8570e+00,\n          1.8580e+00, 1.8590e+00],\n         ...,\n         [1.9400e+00, 1.9410e+00, 1.9420e+00,  ..., 1.9570e+00,\n          1.9580e+00, 1.9590e+00],\n         [1.9600e+00, 1.9610e+00, 1.9620e+00,  ..., 1.9770e+00,\n          1.9780e+00, 1.9790e+00],\n         [1.9800e+00, 1.9810e+00, 1.9820e+00,  ..., 1.9970e+00,\n          1.9980e+00, 1.9990e+00]]])'),
    ('summarize_no_dim_trimmed_but_inner', {'shape': (7, 7, 7, 3), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([[[[   0,    1,    2],\n          [   3,    4,    5],\n          [   6,    7,    8],\n          ...,\n          [  12,   13,   14],\n          [  15,   16,   17],\n          [  18,   19,   20]],\n\n         [[  21,   22,   23],\n          [  24,   25,   26],\n          [  27,   28,   29],\n          ...,\n          [  33,   34,   35],\n          [  36,   37,   38],\n          [  39,   40,   41]],\n\n         [[  42,   43,   44],\n          [  45,   46,   47],\n          [  48,   49,   50],\n          ...,\n          [  54,   55,   56],\n          [  57,   58,   59],\n          [  60,   61,   62]],\n\n         ...,\n\n         [[  84,   85,   86],\n          [  87,   88,   89],\n          [  90,   91,   92],\n          ...,\n          [  96,   97,   98],\n          [  99,  100,  101],\n          [ 102,  103,  104]],\n\n         [[ 105,  106,  107],\n          [ 108,  109,  110],\n          [ 111,  112,  113],\n          ...,\n          [ 117,  118,  119],\n          [ 120,  121,  122],\n          [ 123,  124,  125]],\n\n         [[ 126,  127,  128],\n          [ 129,  130,  131],\n          [ 132,  133,  134],\n          ...,\n          [ 138,  139,  140],\n          [ 141,  142,  143],\n          [ 144,  145,  146]]],\n\n\n        [[[ 147,  148,  149],\n          [ 150,  151,  152],\n          [ 153,  154,  155],\n          ...,\n          [ 159,  160,  161],\n          [ 162,  163,  164],\n          [ 165,  166,  167]],\n\n         [[ 168,  169,  170],\n          [ 171,  172,  173],\n          [ 174,  175,  176],\n          ...,\n          [ 180,  181,  182],\n          [ 183,  184,  185],\n          [ 186,  187,  188]],\n\n         [[ 189,  190,  191],\n          [ 192,  193,  194],\n          [ 195,  196,  197],\n          ...,\n          [ 201,  202,  203],\n          [ 204,  205,  206],\n          [ 207,  208,  209]],\n\n         ...,\n\n         [[ 231,  232,  233],\n          [ 234,  235,  236],\n          [ 237,  238,  239],\n          ...,\n          [ 243,  244,  245],\n          [ 246,  247,  248],\n          [ 249,  250,  251]],\n\n         [[ 252,  253,  254],\n          [ 255,  256,  257],\n          [ 258,  259,  260],\n          ...,\n          [ 264,  265,  266],\n          [ 267,  268,  269],\n          [ 270,  271,  272]],\n\n         [[ 273,  274,  275],\n          [ 276,  277,  278],\n          [ 279,  280,  281],\n          ...,\n          [ 285,  286,  287],\n          [ 288,  289,  290],\n          [ 291,  292,  293]]],\n\n\n        [[[ 294,  295,  296],\n          [ 297,  298,  299],\n          [ 300,  301,  302],\n          ...,\n          [ 306,  307,  308],\n          [ 309,  310,  311],\n          [ 312,  313,  314]],\n\n         [[ 315,  316,  317],\n          [ 318,  319,  320],\n          [ 321,  322,  323],\n          ...,\n          [ 327,  328,  329],\n          [ 330,  331,  332],\n          [ 333,  334,  335]],\n\n         [[ 336,  337,  338],\n          [ 339,  340,  341],\n          [ 342,  343,  344],\n          ...,\n          [ 348,  349,  350],\n          [ 351,  352,  353],\n          [ 354,  355,  356]],\n\n         ...,\n\n         [[ 378,  379,  380],\n          [ 381,  382,  383],\n          [ 384,  385,  386],\n          ...,\n          [ 390,  391,  392],\n          [ 393,  394,  395],\n          [ 396,  397,  398]],\n\n         [[ 399,  400,  401],\n          [ 402,  403,  404],\n          [ 405,  406,  407],\n          ...,\n          [ 411,  412,  413],\n          [ 414,  415,  416],\n          [ 417,  418,  419]],\n\n         [[ 420,  421,  422],\n          [ 423,  424,  425],\n          [ 426,  427,  428],\n          ...,\n          [ 432,  433,  434],\n          [ 435,  436,  437],\n          [ 438,  439,  440]]],\n\n\n        ...,\n\n\n        [[[ 588,  589,  590],\n          [ 591,  592,  593],\n          [ 594,  595,  596],\n          ...,\n          [ 600,  601,  602],\n          [ 603,  604,  605],\n          [ 606,  607,  608]],\n\n         [[ 609,  610,  611],\n          [ 612,  613,  614],\n          [ 615,  616,  617],\n          ...,\n          [ 621,  622,  623],\n          [ 624,  625,  626],\n          [ 627,  628,  629]],\n\n         [[ 630,  631,  632],\n          [ 633,  634,  635],\n          [ 636,  637,  638],\n          ...,\n          [ 642,  643,  644],\n          [ 645,  646,  647],\n          [ 648,  649,  650]],\n\n         ...,\n\n         [[ 672,  673,  674],\n          [ 675,  676,  677],\n          [ 678,  679,  680],\n          ...,\n          [ 684,  685,  686],\n          [ 687,  688,  689],\n          [ 690,  691,  692]],\n\n         [[ 693,  694,  695],\n          [ 696,  697,  698],\n          [ 699,  700,  701],\n          ...,\n          [ 705,  706,  707],\n          [ 708,  709,  710],\n          [ 711,  712,  713]],\n\n         [[ 714,  715,  716],\n          [ 717,  718,  719],\n          [ 720,  721,  722],\n          ...,\n          [ 726,  727,  728],\n          [ 729,  730,  731],\n          [ 732,  733,  734]]],\n\n\n        [[[ 735,  736,  737],\n          [ 738,  739,  740],\n          [ 741,  742,  743],\n          ...,\n          [ 747,  748,  749],\n          [ 750,  751,  752],\n          [ 753,  754,  755]],\n\n         [[ 756,  757,  758],\n          [ 759,  760,  761],\n          [ 762,  763,  764],\n          ...,\n          [ 768,  769,  770],\n          [ 771,  772,  773],\n          [ 774,  775,  776]],\n\n         [[ 777,  778,  779],\n          [ 780,  781,  782],\n          [ 783,  784,  785],\n          ...,\n          [ 789,  790,  791],\n          [ 792,  793,  794],\n          [ 795,  796,  797]],\n\n         ...,\n\n         [[ 819,  820,  821],\n          [ 822,  823,  824],\n          [ 825,  826,  827],\n          ...,\n          [ 831,  832,  833],\n          [ 834,  835,  836],\n          [ 837,  838,  839]],\n\n         [[ 840,  841,  842],\n          [ 843,  844,  845],\n          [ 846,  847,  848],\n          ...,\n          [ 852,  853,  854],\n          [ 855,  856,  857],\n          [ 858,  859,  860]],\n\n         [[ 861,  862,  863],\n          [ 864,  865,  866],\n          [ 867,  868,  869],\n          ...,\n          [ 873,  874,  875],\n          [ 876,  877,  878],\n          [ 879,  880,  881]]],\n\n\n        [[[ 882,  883,  884],\n          [ 885,  886,  887],\n          [ 888,  889,  890],\n          ...,\n          [ 894,  895,  896],\n          [ 897,  898,  899],\n          [ 900,  901,  902]],\n\n         [[ 903,  904,  905],\n          [ 906,  907,  908],\n          [ 909,  910,  911],\n          ...,\n          [ 915,  916,  917],\n          [ 918,  919,  920],\n          [ 921,  922,  923]],\n\n         [[ 924,  925,  926],\n          [ 927,  928,  929],\n          [ 930,  931,  932],\n          ...,\n          [ 936,  937,  938],\n          [ 939,  940,  941],\n          [ 942,  943,  944]],\n\n         ...,\n\n         [[ 966,  967,  968],\n          [ 969,  970,  971],\n          [ 972,  973,  974],\n          ...,\n          [ 978,  979,  980],\n          [ 981,  982,  983],\n          [ 984,  985,  986]],\n\n         [[ 987,  988,  989],\n          [ 990,  991,  992],\n          [ 993,  994,  995],\n          ...,\n          [ 999, 1000, 1001],\n          [1002, 1003, 1004],\n          [1005, 1006, 1007]],\n\n         [[1008, 1009, 1010],\n          [1011, 1012, 1013],\n          [1014, 1015, 1016],\n          ...,\n          [1020, 1021, 1022],\n          [1023, 1024, 1025],\n          [1026, 1027, 1028]]]])'),
    ('summarize_width_from_corners_only', {'shape': (1001,), 'affine': (0.5, 1000.0), 'dtype': 'float64'},
     'tensor([5.0000e-01, 1.0005e+03, 2.0005e+03,  ..., 9.9800e+05, 9.9900e+05,\n        1.0000e+06], dtype=torch.float64)'),
    ('summarize_bool', {'shape': (1200,), 'affine': (0, 1), 'dtype': 'bool'},
     'tensor([False,  True,  True,  ...,  True,  True,  True])'),
    ('huge_vector_int64', {'shape': (10000000,), 'affine': (0, 1), 'dtype': 'int64'},
     'tensor([      0,       1,       2,  ..., 9999997, 9999998, 9999999])'),
    ('huge_matrix_float32', {'shape': (1000, 10000), 'affine': (-5.0, 0.001), 'dtype': 'float32'},
     'tensor([[-5.0000e+00, -4.9990e+00, -4.9980e+00,  ...,  4.9970e+00,\n          4.9980e+00,  4.9990e+00],\n        [ 5.0000e+00,  5.0010e+00,  5.0020e+00,  ...,  1.4997e+01,\n          1.4998e+01,  1.4999e+01],\n        [ 1.5000e+01,  1.5001e+01,  1.5002e+01,  ...,  2.4997e+01,\n          2.4998e+01,  2.4999e+01],\n        ...,\n        [ 9.9650e+03,  9.9650e+03,  9.9650e+03,  ...,  9.9750e+03,\n          9.9750e+03,  9.9750e+03],\n        [ 9.9750e+03,  9.9750e+03,  9.9750e+03,  ...,  9.9850e+03,\n          9.9850e+03,  9.9850e+03],\n        [ 9.9850e+03,  9.9850e+03,  9.9850e+03,  ...,  9.9950e+03,\n          9.9950e+03,  9.9950e+03]])'),
    ('huge_3d_float64', {'shape': (10, 10, 100000), 'affine': (1.0, 1.0), 'dtype': 'float64'},
     'tensor([[[1.0000e+00, 2.0000e+00, 3.0000e+00,  ..., 9.9998e+04,\n          9.9999e+04, 1.0000e+05],\n         [1.0000e+05, 1.0000e+05, 1.0000e+05,  ..., 2.0000e+05,\n          2.0000e+05, 2.0000e+05],\n         [2.0000e+05, 2.0000e+05, 2.0000e+05,  ..., 3.0000e+05,\n          3.0000e+05, 3.0000e+05],\n         ...,\n         [7.0000e+05, 7.0000e+05, 7.0000e+05,  ..., 8.0000e+05,\n          8.0000e+05, 8.0000e+05],\n         [8.0000e+05, 8.0000e+05, 8.0000e+05,  ..., 9.0000e+05,\n          9.0000e+05, 9.0000e+05],\n         [9.0000e+05, 9.0000e+05, 9.0000e+05,  ..., 1.0000e+06,\n          1.0000e+06, 1.0000e+06]],\n\n        [[1.0000e+06, 1.0000e+06, 1.0000e+06,  ..., 1.1000e+06,\n          1.1000e+06, 1.1000e+06],\n         [1.1000e+06, 1.1000e+06, 1.1000e+06,  ..., 1.2000e+06,\n          1.2000e+06, 1.2000e+06],\n         [1.2000e+06, 1.2000e+06, 1.2000e+06,  ..., 1.3000e+06,\n          1.3000e+06, 1.3000e+06],\n         ...,\n         [1.7000e+06, 1.7000e+06, 1.7000e+06,  ..., 1.8000e+06,\n          1.8000e+06, 1.8000e+06],\n         [1.8000e+06, 1.8000e+06, 1.8000e+06,  ..., 1.9000e+06,\n          1.9000e+06, 1.9000e+06],\n         [1.9000e+06, 1.9000e+06, 1.9000e+06,  ..., 2.0000e+06,\n          2.0000e+06, 2.0000e+06]],\n\n        [[2.0000e+06, 2.0000e+06, 2.0000e+06,  ..., 2.1000e+06,\n          2.1000e+06, 2.1000e+06],\n         [2.1000e+06, 2.1000e+06, 2.1000e+06,  ..., 2.2000e+06,\n          2.2000e+06, 2.2000e+06],\n         [2.2000e+06, 2.2000e+06, 2.2000e+06,  ..., 2.3000e+06,\n          2.3000e+06, 2.3000e+06],\n         ...,\n         [2.7000e+06, 2.7000e+06, 2.7000e+06,  ..., 2.8000e+06,\n          2.8000e+06, 2.8000e+06],\n         [2.8000e+06, 2.8000e+06, 2.8000e+06,  ..., 2.9000e+06,\n          2.9000e+06, 2.9000e+06],\n         [2.9000e+06, 2.9000e+06, 2.9000e+06,  ..., 3.0000e+06,\n          3.0000e+06, 3.0000e+06]],\n\n        ...,\n\n        [[7.0000e+06, 7.0000e+06, 7.0000e+06,  ..., 7.1000e+06,\n          7.1000e+06, 7.1000e+06],\n         [7.1000e+06, 7.1000e+06, 7.1000e+06,  ..., 7.2000e+06,\n          7.2000e+06, 7.2000e+06],\n         [7.2000e+06, 7.2000e+06, 7.2000e+06,  ..., 7.3000e+06,\n          7.3000e+06, 7.3000e+06],\n         ...,\n         [7.7000e+06, 7.7000e+06, 7.7000e+06,  ..., 7.8000e+06,\n          7.8000e+06, 7.8000e+06],\n         [7.8000e+06, 7.8000e+06, 7.8000e+06,  ..., 7.9000e+06,\n          7.9000e+06, 7.9000e+06],\n         [7.9000e+06, 7.9000e+06, 7.9000e+06,  ..., 8.0000e+06,\n          8.0000e+06, 8.0000e+06]],\n\n        [[8.0000e+06, 8.0000e+06, 8.0000e+06,  ..., 8.1000e+06,\n          8.1000e+06, 8.1000e+06],\n         [8.1000e+06, 8.1000e+06, 8.1000e+06,  ..., 8.2000e+06,\n          8.2000e+06, 8.2000e+06],\n         [8.2000e+06, 8.2000e+06, 8.2000e+06,  ..., 8.3000e+06,\n          8.3000e+06, 8.3000e+06],\n         ...,\n         [8.7000e+06, 8.7000e+06, 8.7000e+06,  ..., 8.8000e+06,\n          8.8000e+06, 8.8000e+06],\n         [8.8000e+06, 8.8000e+06, 8.8000e+06,  ..., 8.9000e+06,\n          8.9000e+06, 8.9000e+06],\n         [8.9000e+06, 8.9000e+06, 8.9000e+06,  ..., 9.0000e+06,\n          9.0000e+06, 9.0000e+06]],\n\n        [[9.0000e+06, 9.0000e+06, 9.0000e+06,  ..., 9.1000e+06,\n          9.1000e+06, 9.1000e+06],\n         [9.1000e+06, 9.1000e+06, 9.1000e+06,  ..., 9.2000e+06,\n          9.2000e+06, 9.2000e+06],\n         [9.2000e+06, 9.2000e+06, 9.2000e+06,  ..., 9.3000e+06,\n          9.3000e+06, 9.3000e+06],\n         ...,\n         [9.7000e+06, 9.7000e+06, 9.7000e+06,  ..., 9.8000e+06,\n          9.8000e+06, 9.8000e+06],\n         [9.8000e+06, 9.8000e+06, 9.8000e+06,  ..., 9.9000e+06,\n          9.9000e+06, 9.9000e+06],\n         [9.9000e+06, 9.9000e+06, 9.9000e+06,  ..., 1.0000e+07,\n          1.0000e+07, 1.0000e+07]]], dtype=torch.float64)'),
    ('opt_precision_2', {'data': [1.12345, -2.5], 'dtype': 'float32', 'options': {'precision': 2}},
     'tensor([ 1.12, -2.50])'),
    ('opt_precision_6_sci', {'data': [1.12345e-07, 3.0], 'dtype': 'float64', 'options': {'precision': 6}},
     'tensor([1.123450e-07, 3.000000e+00], dtype=torch.float64)'),
    ('opt_sci_mode_true', {'data': [1.5, 2.25], 'dtype': 'float32', 'options': {'sci_mode': True}},
     'tensor([1.5000e+00, 2.2500e+00])'),
    ('opt_sci_mode_true_int_mode', {'data': [1.0, 20.0], 'dtype': 'float32', 'options': {'sci_mode': True}},
     'tensor([1.0000e+00, 2.0000e+01])'),
    ('opt_sci_mode_false', {'data': [1e-05, 1000000000.0], 'dtype': 'float64', 'options': {'sci_mode': False}},
     'tensor([         0.0000, 1000000000.0000], dtype=torch.float64)'),
    ('opt_linewidth_40', {'shape': (4, 9), 'affine': (0.5, 1.0), 'dtype': 'float32', 'options': {'linewidth': 40}},
     'tensor([[ 0.5000,  1.5000,  2.5000,\n          3.5000,  4.5000,  5.5000,\n          6.5000,  7.5000,  8.5000],\n        [ 9.5000, 10.5000, 11.5000,\n         12.5000, 13.5000, 14.5000,\n         15.5000, 16.5000, 17.5000],\n        [18.5000, 19.5000, 20.5000,\n         21.5000, 22.5000, 23.5000,\n         24.5000, 25.5000, 26.5000],\n        [27.5000, 28.5000, 29.5000,\n         30.5000, 31.5000, 32.5000,\n         33.5000, 34.5000, 35.5000]])'),
    ('opt_linewidth_tiny', {'shape': (5,), 'affine': (100, 1), 'dtype': 'int64', 'options': {'linewidth': 5}},
     'tensor([100,\n        101,\n        102,\n        103,\n        104])'),
    ('opt_threshold_5', {'shape': (10,), 'affine': (0, 1), 'dtype': 'int64', 'options': {'threshold': 5}},
     'tensor([0, 1, 2,  ..., 7, 8, 9])'),
    ('opt_threshold_5_matrix', {'shape': (8, 8), 'affine': (0, 1), 'dtype': 'int64', 'options': {'threshold': 5}},
     'tensor([[ 0,  1,  2,  ...,  5,  6,  7],\n        [ 8,  9, 10,  ..., 13, 14, 15],\n        [16, 17, 18,  ..., 21, 22, 23],\n        ...,\n        [40, 41, 42,  ..., 45, 46, 47],\n        [48, 49, 50,  ..., 53, 54, 55],\n        [56, 57, 58,  ..., 61, 62, 63]])'),
    ('opt_edgeitems_1', {'shape': (30, 30), 'affine': (0, 1), 'dtype': 'int64', 'options': {'edgeitems': 1, 'threshold': 10}},
     'tensor([[  0,  ...,  29],\n        ...,\n        [870,  ..., 899]])'),
    ('opt_edgeitems_0_small', {'data': [1, 2, 3], 'dtype': 'int64', 'options': {'edgeitems': 0}},
     'tensor([1, 2, 3], size=(3,))'),
    ('opt_edgeitems_0_summarized', {'shape': (2000,), 'affine': (0, 1), 'dtype': 'int64', 'options': {'edgeitems': 0}},
     'tensor([...], size=(2000,))'),
    ('opt_edgeitems_0_summarized_3d', {'shape': (20, 20, 20), 'affine': (0, 1), 'dtype': 'float32', 'options': {'edgeitems': 0}},
     'tensor([...], size=(20, 20, 20))'),
    ('opt_profile_short', {'shape': (2000,), 'affine': (0.5, 0.001), 'dtype': 'float32', 'options': {'profile': 'short'}},
     'tensor([0.50, 0.50,  ..., 2.50, 2.50])'),
    ('opt_profile_full', {'shape': (1001,), 'affine': (0, 1), 'dtype': 'int64', 'options': {'profile': 'full'}},
     'tensor([   0,    1,    2,    3,    4,    5,    6,    7,    8,    9,   10,   11,\n          12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,\n          24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,\n          36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,\n          48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,\n          60,   61,   62,   63,   64,   65,   66,   67,   68,   69,   70,   71,\n          72,   73,   74,   75,   76,   77,   78,   79,   80,   81,   82,   83,\n          84,   85,   86,   87,   88,   89,   90,   91,   92,   93,   94,   95,\n          96,   97,   98,   99,  100,  101,  102,  103,  104,  105,  106,  107,\n         108,  109,  110,  111,  112,  113,  114,  115,  116,  117,  118,  119,\n         120,  121,  122,  123,  124,  125,  126,  127,  128,  129,  130,  131,\n         132,  133,  134,  135,  136,  137,  138,  139,  140,  141,  142,  143,\n         144,  145,  146,  147,  148,  149,  150,  151,  152,  153,  154,  155,\n         156,  157,  158,  159,  160,  161,  162,  163,  164,  165,  166,  167,\n         168,  169,  170,  171,  172,  173,  174,  175,  176,  177,  178,  179,\n         180,  181,  182,  183,  184,  185,  186,  187,  188,  189,  190,  191,\n         192,  193,  194,  195,  196,  197,  198,  199,  200,  201,  202,  203,\n         204,  205,  206,  207,  208,  209,  210,  211,  212,  213,  214,  215,\n         216,  217,  218,  219,  220,  221,  222,  223,  224,  225,  226,  227,\n         228,  229,  230,  231,  232,  233,  234,  235,  236,  237,  238,  239,\n         240,  241,  242,  243,  244,  245,  246,  247,  248,  249,  250,  251,\n         252,  253,  254,  255,  256,  257,  258,  259,  260,  261,  262,  263,\n         264,  265,  266,  267,  268,  269,  270,  271,  272,  273,  274,  275,\n         276,  277,  278,  279,  280,  281,  282,  283,  284,  285,  286,  287,\n         288,  289,  290,  291,  292,  293,  294,  295,  296,  297,  298,  299,\n         300,  301,  302,  303,  304,  305,  306,  307,  308,  309,  310,  311,\n         312,  313,  314,  315,  316,  317,  318,  319,  320,  321,  322,  323,\n         324,  325,  326,  327,  328,  329,  330,  331,  332,  333,  334,  335,\n         336,  337,  338,  339,  340,  341,  342,  343,  344,  345,  346,  347,\n         348,  349,  350,  351,  352,  353,  354,  355,  356,  357,  358,  359,\n         360,  361,  362,  363,  364,  365,  366,  367,  368,  369,  370,  371,\n         372,  373,  374,  375,  376,  377,  378,  379,  380,  381,  382,  383,\n         384,  385,  386,  387,  388,  389,  390,  391,  392,  393,  394,  395,\n         396,  397,  398,  399,  400,  401,  402,  403,  404,  405,  406,  407,\n         408,  409,  410,  411,  412,  413,  414,  415,  416,  417,  418,  419,\n         420,  421,  422,  423,  424,  425,  426,  427,  428,  429,  430,  431,\n         432,  433,  434,  435,  436,  437,  438,  439,  440,  441,  442,  443,\n         444,  445,  446,  447,  448,  449,  450,  451,  452,  453,  454,  455,\n         456,  457,  458,  459,  460,  461,  462,  463,  464,  465,  466,  467,\n         468,  469,  470,  471,  472,  473,  474,  475,  476,  477,  478,  479,\n         480,  481,  482,  483,  484,  485,  486,  487,  488,  489,  490,  491,\n         492,  493,  494,  495,  496,  497,  498,  499,  500,  501,  502,  503,\n         504,  505,  506,  507,  508,  509,  510,  511,  512,  513,  514,  515,\n         516,  517,  518,  519,  520,  521,  522,  523,  524,  525,  526,  527,\n         528,  529,  530,  531,  532,  533,  534,  535,  536,  537,  538,  539,\n         540,  541,  542,  543,  544,  545,  546,  547,  548,  549,  550,  551,\n         552,  553,  554,  555,  556,  557,  558,  559,  560,  561,  562,  563,\n         564,  565,  566,  567,  568,  569,  570,  571,  572,  573,  574,  575,\n         576,  577,  578,  579,  580,  581,  582,  583,  584,  585,  586,  587,\n         588,  589,  590,  591,  592,  593,  594,  595,  596,  597,  598,  599,\n         600,  601,  602,  603,  604,  605,  606,  607,  608,  609,  610,  611,\n         612,  613,  614,  615,  616,  617,  618,  619,  620,  621,  622,  623,\n         624,  625,  626,  627,  628,  629,  630,  631,  632,  633,  634,  635,\n         636,  637,  638,  639,  640,  641,  642,  643,  644,  645,  646,  647,\n         648,  649,  650,  651,  652,  653,  654,  655,  656,  657,  658,  659,\n         660,  661,  662,  663,  664,  665,  666,  667,  668,  669,  670,  671,\n         672,  673,  674,  675,  676,  677,  678,  679,  680,  681,  682,  683,\n         684,  685,  686,  687,  688,  689,  690,  691,  692,  693,  694,  695,\n         696,  697,  698,  699,  700,  701,  702,  703,  704,  705,  706,  707,\n         708,  709,  710,  711,  712,  713,  714,  715,  716,  717,  718,  719,\n         720,  721,  722,  723,  724,  725,  726,  727,  728,  729,  730,  731,\n         732,  733,  734,  735,  736,  737,  738,  739,  740,  741,  742,  743,\n         744,  745,  746,  747,  748,  749,  750,  751,  752,  753,  754,  755,\n         756,  757,  758,  759,  760,  761,  762,  763,  764,  765,  766,  767,\n         768,  769,  770,  771,  772,  773,  774,  775,  776,  777,  778,  779,\n         780,  781,  782,  783,  784,  785,  786,  787,  788,  789,  790,  791,\n         792,  793,  794,  795,  796,  797,  798,  799,  800,  801,  802,  803,\n         804,  805,  806,  807,  808,  809,  810,  811,  812,  813,  814,  815,\n         816,  817,  818,  819,  820,  821,  822,  823,  824,  825,  826,  827,\n         828,  829,  830,  831,  832,  833,  834,  835,  836,  837,  838,  839,\n         840,  841,  842,  843,  844,  845,  846,  847,  848,  849,  850,  851,\n         852,  853,  854,  855,  856,  857,  858,  859,  860,  861,  862,  863,\n         864,  865,  866,  867,  868,  869,  870,  871,  872,  873,  874,  875,\n         876,  877,  878,  879,  880,  881,  882,  883,  884,  885,  886,  887,\n         888,  889,  890,  891,  892,  893,  894,  895,  896,  897,  898,  899,\n         900,  901,  902,  903,  904,  905,  906,  907,  908,  909,  910,  911,\n         912,  913,  914,  915,  916,  917,  918,  919,  920,  921,  922,  923,\n         924,  925,  926,  927,  928,  929,  930,  931,  932,  933,  934,  935,\n         936,  937,  938,  939,  940,  941,  942,  943,  944,  945,  946,  947,\n         948,  949,  950,  951,  952,  953,  954,  955,  956,  957,  958,  959,\n         960,  961,  962,  963,  964,  965,  966,  967,  968,  969,  970,  971,\n         972,  973,  974,  975,  976,  977,  978,  979,  980,  981,  982,  983,\n         984,  985,  986,  987,  988,  989,  990,  991,  992,  993,  994,  995,\n         996,  997,  998,  999, 1000])'),
]


@pytest.mark.parametrize("name,spec,expected", [pytest.param(*case, id=case[0]) for case in GOLDEN_CASES])
def test_golden(name, spec, expected):
    assert _str_with_options(fake_from_spec(spec), spec.get("options")) == expected


def _print_golden_block():
    def literal(value):
        if isinstance(value, float) and not math.isfinite(value):
            return "NAN" if math.isnan(value) else ("INF" if value > 0 else "-INF")
        if isinstance(value, list):
            return "[" + ", ".join(literal(v) for v in value) + "]"
        if isinstance(value, tuple):
            return "(" + ", ".join(literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k!r}: {literal(v)}" for k, v in value.items()) + "}"
        return repr(value)

    print("GOLDEN_CASES = [")
    for name, spec, _ in GOLDEN_CASES:
        options = spec.get("options")
        if options:
            torch.set_printoptions(**options)
        text = repr(torch_from_spec(spec))
        torch.set_printoptions(profile="default")
        print(f"    ({name!r}, {literal(spec)},\n     {text!r}),")
    print("]")


if __name__ == "__main__":
    _print_golden_block()
