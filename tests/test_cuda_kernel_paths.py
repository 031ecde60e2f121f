"""The CUDA kernels' fast paths, checked against the CPU results with the path each launch took.

csrc/kernels/cuda/kernels.cu has, besides the general strided kernels, a contiguous elementwise path
(16-byte vectors after a scalar peel, or element by element when the operands are misaligned to each
other) and sum kernels over rows and columns (with a second pass when a sum is split across blocks).
Its launchers count the path each launch takes in `mt_cuda_kernel_paths` (cuda_kernels.h), an array
the extension exports; these tests read it through ctypes, so each asserts both the values (against
the CPU kernels, on random data, at every alignment, sizes that are not multiples of the vector width,
tiny and large) and that the path meant for the case ran: a fast path skipped or taken wrongly fails
here.

They need CUDA kernels that really run: a real GPU, or the emulated-CUDA build
(tests/test_cuda_emulated_build.py runs this file on it). The simulated GPU runs the host kernels,
so they skip there, as on a CPU-only build.
"""

import ctypes
import math

import pytest

import minitorch as torch

PATHS = ["strided", "contig_vector", "contig_scalar", "reduce_general", "reduce_rows", "reduce_columns",
         "reduce_second_pass"]


def _counters():
    if not torch._C.has_cuda or not torch.cuda.is_available() or torch._C._cuda_isSimulated():
        pytest.skip("needs CUDA kernels that run: a real GPU or the emulated-CUDA build")
    lib = ctypes.CDLL(torch._C.__file__)
    return (ctypes.c_int64 * len(PATHS)).in_dll(lib, "mt_cuda_kernel_paths")


@pytest.fixture(scope="module")
def paths():
    return _counters()


def run(paths, fn):
    """fn()'s result (synchronized) and the launches per path it made."""
    before = list(paths)
    out = fn()
    torch.cuda.synchronize()
    return out, {name: paths[i] - before[i] for i, name in enumerate(PATHS) if paths[i] != before[i]}


def flat(t):
    return t.cpu().reshape(-1).tolist()


def same(got, want, rel=0.0, scale=None):
    """Equal elements (bit for bit, NaN and the sign of zero included), or within rel * (scale + 1),
    scale being |want| or the sum of the magnitudes a sum was taken over."""
    got, want = flat(got), flat(want)
    scale = flat(scale) if scale is not None else [abs(w) for w in want]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, float) and math.isnan(w):
            assert isinstance(g, float) and math.isnan(g), (i, g, w)
        elif rel:
            assert abs(g - w) <= rel * (scale[i] + 1), (i, g, w)
        else:
            assert g == w and (not isinstance(w, float) or math.copysign(1, g) == math.copysign(1, w)), (i, g, w)


DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16", "bfloat16"]
VECTOR = {"float32": 4, "float64": 2, "int64": 2, "int32": 4, "bool": 16, "float16": 8, "bfloat16": 8}
FLOATING = ["float32", "float64", "float16", "bfloat16"]
REDUCED = ["float16", "bfloat16"]


def data(dtype, n, seed):
    torch.manual_seed(seed)
    if dtype == "bool":
        return torch.randint(0, 2, (n,)).bool()
    if dtype in ("int32", "int64"):
        return torch.randint(-40, 40, (n,), dtype=getattr(torch, dtype))
    return torch.randn(n, dtype=getattr(torch, dtype)) * 4


BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "maximum": torch.maximum, "minimum": torch.minimum,
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def binary_cases():
    for dtype in DTYPES:
        for op in BINARY:
            if (op == "sub" and dtype == "bool") or (op == "div" and dtype not in FLOATING):
                continue
            yield dtype, op


@pytest.mark.parametrize("dtype,op", list(binary_cases()))
def test_binary_contiguous_every_alignment(paths, dtype, op):
    fn = BINARY[op]
    n_max = 70
    a_cpu, b_cpu = data(dtype, n_max + 40, 1), data(dtype, n_max + 40, 2)
    a_dev, b_dev = a_cpu.cuda(), b_cpu.cuda()
    v = VECTOR[dtype]
    for offset in range(v + 1):
        for n in (1, v - 1 or 1, v + 1, 3 * v + 2, n_max):
            x, y = a_dev[offset:offset + n], b_dev[offset:offset + n]
            out, took = run(paths, lambda: fn(x, y))
            same(out, fn(a_cpu[offset:offset + n], b_cpu[offset:offset + n]))
            # a new output is aligned: inputs at another alignment are read element by element
            want = "contig_vector" if offset % v == 0 and n >= v else "contig_scalar"
            assert took == {want: 1}, (offset, n, took)
            if op not in ("add", "sub", "mul") or dtype == "bool":
                continue
            # in place, every operand shares the misalignment: a peel of (v - offset % v) % v elements
            inplace = a_dev.clone()
            _, took = run(paths, lambda: getattr(inplace[offset:offset + n], op + "_")(y))
            same(inplace[offset:offset + n], fn(a_cpu[offset:offset + n], b_cpu[offset:offset + n]))
            head = (v - offset % v) % v
            want = "contig_vector" if n - min(head, n) >= v else "contig_scalar"
            assert took == {want: 1}, ("in place", offset, n, took)


@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_operands_misaligned_to_each_other(paths, dtype):
    a_cpu, b_cpu = data(dtype, 300, 3), data(dtype, 300, 4)
    a_dev, b_dev = a_cpu.cuda(), b_cpu.cuda()
    op = (lambda p, q: p * q) if dtype == "bool" else (lambda p, q: p + q)
    out, took = run(paths, lambda: op(a_dev[1:258], b_dev[0:257]))
    same(out, op(a_cpu[1:258], b_cpu[0:257]))
    assert took == {"contig_scalar": 1}
    # the output misaligned against aligned inputs
    dst = torch.zeros(300, dtype=a_dev.dtype, device="cuda")
    out, took = run(paths, lambda: dst[3:259].copy_(a_dev[0:256]))
    same(dst[3:259], a_cpu[0:256])
    assert took == {"contig_scalar": 1}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "float16", "bfloat16"])
def test_scalar_operands(paths, dtype):
    a_cpu = data(dtype, 1031, 5)
    a_dev = a_cpu.cuda()
    k = 2.5 if dtype in FLOATING else 3
    for fn in (lambda a: a * k, lambda a: k - a, lambda a: a + k, lambda a: a > k, lambda a: a.add(a, alpha=k)):
        out, took = run(paths, lambda: fn(a_dev))
        same(out, fn(a_cpu))
        assert took == {"contig_vector": 1}, took
    # a 0-d device tensor is one device element read once per thread
    s_cpu = data(dtype, 1, 6)[0]
    s_dev = s_cpu.cuda()
    out, took = run(paths, lambda: a_dev - s_dev)
    same(out, a_cpu - s_cpu)
    assert took == {"contig_vector": 1}
    v = VECTOR[dtype]   # one vector in: the new output and the input equally aligned
    out, took = run(paths, lambda: torch.maximum(s_dev, a_dev[v:]))
    same(out, torch.maximum(s_cpu, a_cpu[v:]))
    assert took == {"contig_vector": 1}


def test_strided_and_mixed_dtypes_take_the_general_path(paths):
    a_cpu = torch.randn(37, 41)
    b_cpu = torch.randn(41, 37)
    a_dev, b_dev = a_cpu.cuda(), b_cpu.cuda()
    out, took = run(paths, lambda: a_dev + b_dev.t())
    same(out, a_cpu + b_cpu.t())
    assert took == {"strided": 1}
    i_cpu = torch.randint(-5, 5, (37, 41), dtype=torch.int32)
    out, took = run(paths, lambda: a_dev * i_cpu.cuda())
    same(out, a_cpu * i_cpu)
    assert took.get("strided") == 1
    # a broadcast row is neither dense nor one element
    out, took = run(paths, lambda: a_dev + a_dev[0])
    same(out, a_cpu + a_cpu[0])
    assert took == {"strided": 1}


@pytest.mark.parametrize("n", [1, 5, 4099, 2 ** 17 + 3])
def test_large_and_tiny_float32(paths, n):
    a_cpu, b_cpu = data("float32", n, 7), data("float32", n, 8)
    a_dev, b_dev = a_cpu.cuda(), b_cpu.cuda()
    out, took = run(paths, lambda: a_dev * b_dev + a_dev)
    same(out, a_cpu * b_cpu + a_cpu)
    assert took == {"contig_vector" if n >= 4 else "contig_scalar": 2}


UNARY = {"neg": lambda a: -a, "abs": lambda a: a.abs(), "relu": lambda a: a.relu(), "exp": lambda a: a.exp(),
         "log": lambda a: a.abs().log(), "sqrt": lambda a: a.abs().sqrt(), "reciprocal": lambda a: a.reciprocal()}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "float16", "bfloat16"])
@pytest.mark.parametrize("op", list(UNARY))
def test_unary(paths, dtype, op):
    if op in ("exp", "log", "sqrt", "reciprocal") and dtype not in FLOATING:
        pytest.skip("promotes to float first")
    fn = UNARY[op]
    a_cpu = data(dtype, 203, 9)
    a_dev = a_cpu.cuda()
    v = VECTOR[dtype]   # one vector in, so that input and new output are equally aligned
    out, took = run(paths, lambda: fn(a_dev[v:]))
    # exp and log: the GPU's math library may differ from the host's in the last place; a sqrt on the CPU may
    # be torch's CPU one (MKL's, within 0.75 ulp), the GPU's is correctly rounded
    # be torch's CPU one (MKL's, within 0.75 ulp), the GPU's is correctly rounded (16-bit results: the float
    # results' last-place differences can round to one 16-bit ulp apart)
    rel = (4e-3 if dtype in REDUCED else 1e-6) if op in ("exp", "log", "sqrt") else 0.0
    same(out, fn(a_cpu[v:]), rel=rel)
    assert took.get("contig_vector", 0) >= 1 and "strided" not in took, took


@pytest.mark.parametrize("src", DTYPES)
def test_casts_and_copies(paths, src):
    a_cpu = data(src, 1100, 10)
    a_dev = a_cpu.cuda()
    for dst in DTYPES:
        conv = getattr(torch, dst)
        # every pair has a kernel but those between a 16-bit floating dtype and a non-floating one
        fast = (src not in REDUCED and dst not in REDUCED) or (src in FLOATING and dst in FLOATING)
        want = {"contig_vector": 1} if fast else {"strided": 1}
        if dst != src:
            out, took = run(paths, lambda: a_dev[16:1030].to(conv))
            same(out, a_cpu[16:1030].to(conv))
            assert took == want, (dst, took)
        # into a view at an offset: the same misalignment on both sides keeps the vectors
        target = torch.zeros(1100, dtype=conv, device="cuda")
        out, took = run(paths, lambda: target[3:1030].copy_(a_dev[3:1030]))
        same(target[3:1030], a_cpu[3:1030].to(conv))
        assert took == want, (dst, took)
    # a transposed copy is strided
    m_cpu = data(src, 35 * 33, 11).reshape(35, 33)
    out, took = run(paths, lambda: m_cpu.cuda().t().contiguous())
    same(out, m_cpu.t().contiguous())
    assert took.get("strided") == 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill(paths, dtype):
    value = True if dtype == "bool" else (7 if dtype.startswith("int") else -1.5)
    x = torch.zeros(1000, dtype=getattr(torch, dtype), device="cuda")
    _, took = run(paths, lambda: x[5:998].fill_(value))
    want = torch.zeros(1000, dtype=getattr(torch, dtype))
    want[5:998] = value
    same(x, want)
    assert took == {"contig_vector": 1}


SUM_DTYPES = ["float32", "float64", "int64", "int32"]


def close(got, want, dtype, magnitude):
    same(got, want, rel=1e-6 if dtype == "float32" else (1e-14 if dtype == "float64" else 0.0), scale=magnitude)


@pytest.mark.parametrize("dtype", SUM_DTYPES)
@pytest.mark.parametrize("shape,dim,path", [
    ((37, 101), 1, "reduce_rows"),          # a warp per row
    ((5, 9000), 1, "reduce_rows"),          # a block per row
    ((1, 3), 1, "reduce_rows"),             # tiny
    ((101, 37), 0, "reduce_columns"),       # columns, element by element (37 is odd)
    ((3000, 64), 0, "reduce_columns"),      # vector columns, split across blocks
    ((6, 50, 8), 1, "reduce_columns"),      # a middle dim
    ((4099,), 0, "reduce_rows"),            # everything
])
def test_sums(paths, dtype, shape, dim, path):
    n = 1
    for s in shape:
        n *= s
    a_cpu = data(dtype, n + 1, 12)[1:].reshape(*shape)   # an offset view: the rows' peel
    a_dev = a_cpu.cuda()
    magnitude = a_cpu.abs().sum(dim) if dtype.startswith("float") else None
    out, took = run(paths, lambda: a_dev.sum(dim))
    close(out, a_cpu.sum(dim), dtype, magnitude)
    assert took.get(path) == 1 and "reduce_general" not in took, took
    if dtype.startswith("float"):
        out, took = run(paths, lambda: a_dev.mean(dim))
        close(out, a_cpu.mean(dim), dtype, a_cpu.abs().mean(dim))
        assert took.get(path) == 1, took


def test_long_sums_take_a_second_pass(paths):
    a_cpu = torch.randn(3, 2 ** 17 + 5)
    a_dev = a_cpu.cuda()
    out, took = run(paths, lambda: a_dev.sum(1))
    close(out, a_cpu.sum(1), "float32", a_cpu.abs().sum(1))
    assert took == {"reduce_rows": 1, "reduce_second_pass": 1}, took
    out, took = run(paths, lambda: a_dev.t().contiguous().sum(0))
    close(out, a_cpu.sum(1), "float32", a_cpu.abs().sum(1))
    assert took.get("reduce_columns") == 1 and took.get("reduce_second_pass") == 1, took
    out, took = run(paths, lambda: a_dev.sum())
    close(out, a_cpu.sum(), "float32", a_cpu.abs().sum())
    assert took == {"reduce_rows": 1, "reduce_second_pass": 1}, took


def test_other_reductions_take_the_general_path(paths):
    a_cpu = torch.randn(33, 65)
    a_dev = a_cpu.cuda()
    out, took = run(paths, lambda: a_dev.max(1).values)
    same(out, a_cpu.max(1).values)
    assert took == {"reduce_general": 1}
    out, took = run(paths, lambda: a_dev[:, ::2].sum(1))
    close(out, a_cpu[:, ::2].sum(1), "float32", a_cpu[:, ::2].abs().sum(1))
    assert took == {"reduce_general": 1}


def test_gpu_benchmark_skips_cleanly_without_a_real_gpu():
    """benchmarks/gpu.py (run by scripts/gpu_check.sh on a GPU) imports and skips where no real GPU is."""
    import os
    import subprocess
    import sys

    if torch._C.has_cuda and torch.cuda.is_available() and not torch._C._cuda_isSimulated():
        pytest.skip("a CUDA device is present: the benchmark would run")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, os.path.join(root, "benchmarks", "gpu.py"), "--quick"], cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "skipped" in done.stdout, done.stdout + done.stderr
