"""The CPU kernels against a float64 (or exact) NumPy reference on random inputs of odd sizes and in the
layouts the kernels read in place: transposed, sliced with steps, broadcast, batched. Sizes straddle
the edges of the GEMM's register tiles and cache blocks and the 32768-element threshold above which
elementwise ops and reductions use several threads, so every path of csrc/kernels/cpu runs: the
GEMM's small-product loop, GEMV, single-thread, shared-B and whole-matrix thread splits; elementwise
fast paths and the strided fallback, serial and threaded; reductions serial and split per thread.

Float tolerances follow the standard error bound of a k-term sum (|error| <= (k + 2) * eps * sum of
|terms|); elementwise results must be exact (IEEE arithmetic rounds the same in NumPy), integer results
exact and wrapping. The whole file runs in a few seconds.
"""

import numpy as np
import pytest

import minitorch

NP = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64}


@pytest.fixture(params=[1, 3])
def threads(request):
    """One thread, and more threads than most CI machines have cores (uneven splits); the rest of the
    suite runs at the default count."""
    saved = minitorch.get_num_threads()
    minitorch.set_num_threads(request.param)
    yield request.param
    minitorch.set_num_threads(saved)


def N(t, dtype=None):
    arr = np.array(t.cpu().tolist())
    return arr.astype(dtype) if dtype is not None else arr


def rand(shape, dtype, rng):
    if dtype.startswith("float"):
        return rng.standard_normal(shape).astype(NP[dtype])
    return rng.integers(-60, 61, size=shape).astype(NP[dtype])


def layouts(arr):
    """(numpy view, minitorch view) pairs of the same values in different memory layouts."""
    t = minitorch.tensor(arr)
    yield arr, t
    # the same matrix stored transposed (column-major)
    tt = minitorch.tensor(np.ascontiguousarray(arr.swapaxes(-1, -2))).transpose(-1, -2)
    yield arr, tt
    # a strided slice of a larger buffer holding the same values
    big = np.zeros(arr.shape[:-2] + (arr.shape[-2] * 2 + 1, arr.shape[-1] * 3 + 2), arr.dtype)
    big[..., 1::2, 2::3][..., :arr.shape[-2], :arr.shape[-1]] = arr
    tb = minitorch.tensor(big)[..., 1::2, 2::3][..., :arr.shape[-2], :arr.shape[-1]]
    yield arr, tb


def check_product(got, a, b, dtype):
    want = a.astype(np.float64) @ b.astype(np.float64)
    if dtype.startswith("int"):
        want = (a.astype(np.int64) @ b.astype(np.int64)).astype(NP[dtype])
        assert np.array_equal(N(got, NP[dtype]), want)
        return
    k = a.shape[-1]
    bound = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    err = np.abs(N(got) - want)
    assert (err <= (k + 2) * np.finfo(NP[dtype]).eps * bound + 1e-300).all(), float((err / bound).max())


# ---- GEMM --------------------------------------------------------------------------------------------

GEMM_SHAPES = [
    (1, 7, 33), (7, 1, 257), (33, 257, 1), (7, 7, 7), (2, 2, 2),           # GEMV, small-product loop
    (33, 33, 257), (257, 33, 7), (257, 257, 33), (100, 300, 70),            # single thread, tile edges
    (257, 1029, 131), (520, 401, 333), (13, 700, 1500), (1500, 130, 17),    # threads share B / columns
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_gemm_odd_sizes_and_layouts(threads, dtype):
    rng = np.random.default_rng(11)
    for m, k, n in GEMM_SHAPES:
        if dtype.startswith("int") and m * k * n > 3e7:
            continue
        a = rand((m, k), dtype, rng)
        b = rand((k, n), dtype, rng)
        for (na, ta), (nb, tb) in zip(layouts(a), layouts(b)):
            check_product(ta @ tb, na, nb, dtype)
        # transposed operands, mixed with a row-major partner
        check_product(minitorch.tensor(np.ascontiguousarray(a.T)).T @ minitorch.tensor(b), a, b, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_batched_and_broadcast_products(threads, dtype):
    rng = np.random.default_rng(12)
    cases = [((3, 33, 65), (3, 65, 7)), ((5, 1, 70, 90), (4, 90, 31)), ((2, 3, 129, 257), (257, 66)),
             ((257, 40), (6, 40, 33)), ((7, 64, 300), (7, 300, 200)), ((2, 300, 301), (2, 301, 290))]
    for sa, sb in cases:
        a, b = rand(sa, dtype, rng), rand(sb, dtype, rng)
        got = minitorch.tensor(a) @ minitorch.tensor(b)
        check_product(got, a, b, dtype)
        # a transposed batch
        bt = minitorch.tensor(np.ascontiguousarray(b.swapaxes(-1, -2))).transpose(-1, -2)
        check_product(minitorch.tensor(a) @ bt, a, b, dtype)
    a, b = rand((4, 57, 91), dtype, rng), rand((4, 91, 45), dtype, rng)
    check_product(minitorch.bmm(minitorch.tensor(a), minitorch.tensor(b)), a, b, dtype)


def test_gemm_bit_identical_across_threads():
    rng = np.random.default_rng(13)
    saved = minitorch.get_num_threads()
    a = minitorch.tensor(rng.standard_normal((517, 1100)).astype(np.float32))
    b = minitorch.tensor(rng.standard_normal((1100, 389)).astype(np.float32))
    wide = minitorch.tensor(rng.standard_normal((20, 1100)).astype(np.float32))
    batch = minitorch.tensor(rng.standard_normal((3, 200, 1100)))
    try:
        results = []
        for n in (1, 2, 3, 4):
            minitorch.set_num_threads(n)
            results.append([(a @ b).tolist(), (wide @ b).tolist(), (batch @ b.double()).tolist(),
                            (a.T.contiguous().T @ b).tolist()])
        for r in results[1:]:
            assert r == results[0]
    finally:
        minitorch.set_num_threads(saved)


def test_integer_products_wrap():
    a = np.full((40, 300), 2 ** 20, np.int32)
    b = np.full((300, 50), 2 ** 15, np.int32)
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)   # wraps like torch's int32 matmul
    assert np.array_equal(N(minitorch.tensor(a) @ minitorch.tensor(b), np.int32), want)


# ---- elementwise -------------------------------------------------------------------------------------

EW_SIZES = [1, 7, 33, 257, 32769, 100003]


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum", "lt"])
def test_elementwise_contiguous_exact(threads, op):
    rng = np.random.default_rng(21)
    for size in EW_SIZES:
        a = rng.standard_normal(size).astype(np.float32)
        b = rng.standard_normal(size).astype(np.float32)
        got = getattr(minitorch, op)(minitorch.tensor(a), minitorch.tensor(b))
        want = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
                "maximum": np.maximum, "lt": np.less}[op](a, b)
        assert np.array_equal(N(got, want.dtype), want), (op, size)


def test_elementwise_strided_broadcast_and_mixed(threads):
    rng = np.random.default_rng(22)
    for rows, cols in [(7, 33), (257, 129), (301, 257)]:
        a = rng.standard_normal((rows, cols)).astype(np.float32)
        b = rng.standard_normal((cols, rows)).astype(np.float64)
        ta, tb = minitorch.tensor(a), minitorch.tensor(b)
        assert np.array_equal(N(ta + tb.T, np.float64), a + b.T)                 # transposed, promoted
        assert np.array_equal(N(ta[::2, 1::3] * 2.5, np.float32), a[::2, 1::3] * np.float32(2.5))
        col = rng.standard_normal((rows, 1)).astype(np.float32)
        assert np.array_equal(N(ta - minitorch.tensor(col), np.float32), a - col)  # broadcast column
        ints = rng.integers(-5, 5, (rows, cols)).astype(np.int32)
        assert np.array_equal(N(minitorch.tensor(ints) + ta, np.float32), ints.astype(np.float32) + a)
        assert np.array_equal(N(minitorch.tensor(ints) * 3, np.int64), ints.astype(np.int64) * 3)
        assert np.array_equal(N(ta.T.abs(), np.float32), np.abs(a.T))
        # a float32 sqrt on the CPU may be torch's (MKL's, within 0.75 ulp of NumPy's): each element the same
        # function of its input, whatever the strides and threads
        assert np.array_equal(N(ta.T.abs().sqrt(), np.float32), N(minitorch.tensor(np.abs(a.T).copy()).sqrt(), np.float32))
        np.testing.assert_allclose(N(ta.T.abs().sqrt(), np.float32), np.sqrt(np.abs(a.T)), rtol=1.8e-7, atol=0)


def test_inplace_on_views_above_grain(threads):
    rng = np.random.default_rng(23)
    base = rng.standard_normal((400, 300)).astype(np.float32)
    other = rng.standard_normal((300,)).astype(np.float32)
    t = minitorch.tensor(base.copy())
    t[::2].add_(minitorch.tensor(other))                   # a strided view written in place
    want = base.copy()
    want[::2] += other
    assert np.array_equal(N(t, np.float32), want)
    t.T.mul_(0.5)
    want *= np.float32(0.5)
    assert np.array_equal(N(t, np.float32), want)


def test_add_alpha_uses_fused_multiply_add(threads):
    rng = np.random.default_rng(24)
    a = rng.standard_normal(50001)
    b = rng.standard_normal(50001)
    got = N(minitorch.add(minitorch.tensor(a), minitorch.tensor(b), alpha=0.3), np.float64)
    assert np.allclose(got, a + 0.3 * b, rtol=1e-15, atol=1e-15)


# ---- reductions --------------------------------------------------------------------------------------


def test_sums_within_bound(threads):
    rng = np.random.default_rng(31)
    for shape in [(1,), (33,), (32769,), (100003,), (257, 129), (7, 40001)]:
        for dtype in (np.float32, np.float64):
            a = rng.standard_normal(shape).astype(dtype)
            t = minitorch.tensor(a)
            eps = np.finfo(dtype).eps
            for dim in [None] + list(range(a.ndim)):
                got = N(t.sum() if dim is None else t.sum(dim))
                want = a.astype(np.float64).sum(axis=dim)
                k = a.size if dim is None else a.shape[dim]
                bound = np.abs(a.astype(np.float64)).sum(axis=dim) * (k + 2) * eps
                assert (np.abs(got - want) <= bound).all(), (shape, dtype, dim)
            if a.ndim == 2:
                got = N(t.T.sum(0))
                assert np.allclose(got, a.astype(np.float64).sum(1), rtol=0, atol=float(bound.max()) + 1e-12)


def test_exact_reductions_above_grain(threads):
    rng = np.random.default_rng(32)
    a = rng.standard_normal((301, 257)).astype(np.float32)
    a[17, 200] = 9.5
    t = minitorch.tensor(a)
    assert t.max().item() == 9.5 and t.min().item() == a.min()
    assert np.array_equal(N(t.max(0).values, np.float32), a.max(0))
    assert np.array_equal(N(t.T.min(1).values, np.float32), a.min(0))
    assert np.array_equal(N((t > -3).all(1), bool), (a > -3).all(1))
    assert (t > 9).any().item() is True and (t > 10).any().item() is False
    i = rng.integers(-2 ** 62, 2 ** 62, 100003)
    assert minitorch.tensor(i).sum().item() == int(i.astype(np.uint64).sum().astype(np.int64))
    nan = a.copy()
    nan[250, 3] = np.nan
    assert np.isnan(minitorch.tensor(nan).max().item())
    assert np.isnan(N(minitorch.tensor(nan).min(0).values)[3])
