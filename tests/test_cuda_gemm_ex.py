"""float16 and bfloat16 matrix products on a CUDA device: cublasGemmEx on the 16-bit data, as torch's
CUDA kernels call it, and torch.backends.cuda.matmul's 16-bit settings.

Every product of these dtypes (mm, mv, dot, bmm, matmul with broadcast batches, addmm and its family with
beta and alpha, linear, out=, the products of backward) must give the float32-accumulated values rounded
once, the CPU's values: the inputs are quarters in [-4, 4], so every float32 sum is exact whatever order
cuBLAS adds in and only the final rounding to the 16-bit dtype is left. The operands go to cuBLAS as they
are, without float32 copies (memory_allocated and its peak grow by the output alone); torch's non-batched
GEMM sets the math mode from allow_fp16/bf16_reduced_precision_reduction and restores the default after,
and its split-k setting raises torch's error where torch's cuBLAS GEMM would.

These tests need a CUDA device that is not the simulated GPU (which multiplies float32 copies on the
host, as torch's CPU does): a real GPU, or the emulated-CUDA build (tests/test_cuda_emulated_build.py),
where the host cuBLAS (tests/c/fake_cublas.c) also says which function, types and math mode each call
used; the tests reading those skip on a real GPU.
"""

import ctypes
import os
import random

import pytest

import minitorch
from minitorch import _C

REDUCED = [minitorch.float16, minitorch.bfloat16]
CUDA_TYPE = {minitorch.float16: 2, minitorch.bfloat16: 14}   # cudaDataType_t: CUDA_R_16F, CUDA_R_16BF
CUDA_R_32F = 0
COMPUTE_16F, COMPUTE_32F = 64, 68
DISALLOW_REDUCED_PRECISION_REDUCTION = 16
SPLIT_K_ERROR = ("torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction(..., allow_splitk=False) "
                 "requires the cuBLASLt backend")


@pytest.fixture(scope="module", autouse=True)
def real_cuda():
    if not minitorch.cuda.is_available() or _C._cuda_isSimulated():
        if os.environ.get("MINITORCH_REQUIRE_GPU", "") not in ("", "0"):
            pytest.fail("MINITORCH_REQUIRE_GPU=1 but there is no real CUDA GPU")
        pytest.skip("needs a CUDA device with cuBLAS (a real GPU or the emulated-CUDA build)")


def _fake_cublas():
    path = os.path.join(os.path.dirname(_C.__file__), "libcublas.so.99")
    if not os.path.exists(path):
        return None
    lib = ctypes.CDLL(path)   # the copy cublas.c loaded: the same file, so the same handle
    lib.fake_cublas_last_function.restype = ctypes.c_char_p
    return lib


@pytest.fixture
def fake():
    lib = _fake_cublas()
    if lib is None:
        pytest.skip("reads the emulated-CUDA build's host cuBLAS")
    return lib


def last_call(lib):
    return (lib.fake_cublas_last_function().decode(), lib.fake_cublas_last_ab_type(), lib.fake_cublas_last_c_type(),
            lib.fake_cublas_last_compute_type(), lib.fake_cublas_last_call_math_mode())


@pytest.fixture(autouse=True)
def settings():
    """torch.backends.cuda.matmul as it was, restored after each test."""
    saved = (_C._get_cublas_allow_tf32(), _C._get_cublas_allow_fp16_reduced_precision_reduction(),
             _C._get_cublas_allow_bf16_reduced_precision_reduction(), _C._get_cublas_allow_fp16_accumulation())
    yield minitorch.backends.cuda.matmul
    _C._set_cublas_allow_tf32(saved[0])
    _C._set_cublas_allow_fp16_reduced_precision_reduction(*saved[1])
    _C._set_cublas_allow_bf16_reduced_precision_reduction(*saved[2])
    _C._set_cublas_allow_fp16_accumulation(saved[3])


def quarters(shape, dtype, rng):
    n = 1
    for s in shape:
        n *= s
    return minitorch.tensor([rng.randint(-16, 16) / 4 for _ in range(n)]).reshape(shape).to(dtype)


def assert_same(got, want, what=""):
    assert got.device.type == "cuda" and got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), what
    assert got.cpu().float().tolist() == want.float().tolist(), what


# Each case: a function of tensors, and the shapes of its tensor arguments (made on the CPU, then moved).
# `batched` marks products torch computes with its batched GEMM (or its dot) and float32 the ones that
# reach cuBLAS with a float32 C (addmm's family: the product is scaled and added before one rounding).
F = minitorch.nn.functional
CASES = {
    "mm": (lambda a, b: minitorch.mm(a, b), [(17, 33), (33, 9)]),
    "mm of transposed operands": (lambda a, b: a.t() @ b.t(), [(33, 17), (9, 33)]),
    "mm of a transposed output": (lambda a, b: (b.t() @ a.t()).t(), [(17, 33), (33, 9)]),
    "mm of stepped operands": (lambda a, b: a[::2, 1::3] @ b[::2], [(34, 99), (66, 9)]),
    "mm of row slices": (lambda a, b: a[3:12] @ b[:, 2:7], [(17, 33), (33, 9)]),
    "mv": (lambda a, v: minitorch.mv(a, v), [(17, 33), (33,)]),
    "vector @ matrix": (lambda v, b: v @ b, [(33,), (33, 9)]),
    "dot": (lambda u, v: minitorch.dot(u, v), [(65,), (65,)]),
    "bmm": (lambda a, b: minitorch.bmm(a, b), [(5, 7, 11), (5, 11, 3)]),
    "matmul folded into mm": (lambda a, b: a @ b, [(2, 3, 5, 7), (7, 4)]),
    "matmul broadcasting batches": (lambda a, b: a @ b, [(4, 1, 3, 5), (2, 5, 6)]),
    "matmul of a vector and a batch": (lambda v, b: v @ b, [(7,), (3, 7, 2)]),
    "addmm": (lambda s, a, b: minitorch.addmm(s, a, b, beta=0.5, alpha=-1.5), [(17, 9), (17, 33), (33, 9)]),
    "addmm of a broadcast row": (lambda s, a, b: minitorch.addmm(s, a, b), [(9,), (17, 33), (33, 9)]),
    "linear": (lambda x, w, bias: F.linear(x, w, bias), [(17, 33), (9, 33), (9,)]),
    "linear of a batch": (lambda x, w, bias: F.linear(x, w, bias), [(2, 5, 33), (9, 33), (9,)]),
    "linear without bias": (lambda x, w: F.linear(x, w), [(2, 5, 33), (9, 33)]),
    "addmv": (lambda s, a, v: minitorch.addmv(s, a, v, beta=-2, alpha=0.75), [(17,), (17, 33), (33,)]),
    "baddbmm": (lambda s, a, b: minitorch.baddbmm(s, a, b, beta=2, alpha=0.25), [(5, 7, 3), (5, 7, 11), (5, 11, 3)]),
    "addbmm": (lambda s, a, b: minitorch.addbmm(s, a, b, beta=0.5), [(7, 3), (5, 7, 11), (5, 11, 3)]),
    "in-place addmv_": (lambda s, a, v: s.addmv_(a, v, alpha=3), [(17,), (17, 33), (33,)]),
    "in-place baddbmm_": (lambda s, a, b: s.baddbmm_(a, b, beta=-1), [(5, 7, 3), (5, 7, 11), (5, 11, 3)]),
    "mm with out=": (lambda a, b, o: minitorch.mm(a, b, out=o), [(17, 33), (33, 9), (17, 9)]),
}
FLOAT32_C = {"addmm", "addmm of a broadcast row", "linear", "linear of a batch", "addmv", "baddbmm", "addbmm",
             "in-place addmv_", "in-place baddbmm_"}


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
@pytest.mark.parametrize("name", sorted(CASES))
def test_products_are_the_cpus_values_rounded_once(name, dtype):
    fn, shapes = CASES[name]
    rng = random.Random(hash((name, str(dtype))) & 0xffff)
    args = [quarters(s, dtype, rng) for s in shapes]
    want = fn(*[a.clone() for a in args])
    got = fn(*[a.cuda() for a in args])
    assert_same(got, want, name)


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
@pytest.mark.parametrize("name", sorted(CASES))
def test_products_reach_cublas_as_16_bit_data(name, dtype, fake):
    fn, shapes = CASES[name]
    rng = random.Random(7)
    args = [quarters(s, dtype, rng).cuda() for s in shapes]
    calls = fake.fake_cublas_calls()
    fn(*args)
    function, ab_type, c_type, compute, _ = last_call(fake)
    assert fake.fake_cublas_calls() > calls
    assert function in ("cublasGemmEx", "cublasGemmStridedBatchedEx"), (name, function)
    assert ab_type == CUDA_TYPE[dtype] and compute == COMPUTE_32F
    assert c_type == (CUDA_R_32F if name in FLOAT32_C else CUDA_TYPE[dtype]), name


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
def test_random_products_are_within_a_rounding_of_the_cpu(dtype):
    # any order of float32 additions: the 16-bit results may differ only where the float32 sums straddle a
    # rounding boundary, by one unit in the last place
    minitorch.manual_seed(3)
    a = minitorch.randn(37, 129).to(dtype)
    b = minitorch.randn(129, 23).to(dtype)
    want = (a @ b).float()
    got = (a.cuda() @ b.cuda()).cpu().float()
    ulp = 2.0 ** (-10 if dtype == minitorch.float16 else -7)
    assert ((got - want).abs() <= want.abs() * ulp + 1e-6).all()


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
def test_gradients_of_products(dtype, fake):
    rng = random.Random(11)
    a, b = quarters((6, 9), dtype, rng), quarters((9, 5), dtype, rng)
    s, x, y = quarters((4, 5), dtype, rng), quarters((3, 4, 7), dtype, rng), quarters((3, 7, 5), dtype, rng)
    grads = []
    for device in ("cpu", "cuda"):
        leaves = [t.detach().to(device).requires_grad_() for t in (a, b, s, x, y)]
        ga, gb, gs, gx, gy = leaves
        ((ga @ gb).sum() + minitorch.addmm(gs, gx[0], gy[1], beta=0.5).sum() + (gx @ gy).sum()).backward()
        grads.append([t.grad for t in leaves])
    assert last_call(fake)[0] in ("cublasGemmEx", "cublasGemmStridedBatchedEx")
    for got, want in zip(grads[1], grads[0]):
        assert_same(got, want)


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
def test_no_float32_copies(dtype):
    a = minitorch.ones(64, 128, dtype=dtype, device="cuda")
    b = minitorch.ones(32, 128, dtype=dtype, device="cuda").t()   # a transposed operand: cuBLAS's op T
    a @ b   # the first product creates the device's cuBLAS handle and its workspace
    for product in (lambda: a @ b, lambda: minitorch.bmm(a.expand(3, 64, 128), b.expand(3, 128, 32))):
        minitorch.cuda.synchronize()
        before = minitorch.cuda.memory_allocated()
        minitorch.cuda.reset_peak_memory_stats()
        c = product()
        minitorch.cuda.synchronize()
        size = c.numel() * 2
        assert minitorch.cuda.memory_allocated() - before == size
        assert minitorch.cuda.max_memory_allocated() - before == size
        assert c[0, 0].item() == 128.0 if c.dim() == 2 else c[0, 0, 0].item() == 128.0
        del c


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
def test_math_mode_follows_the_reduction_setting(dtype, fake, settings):
    name = "allow_fp16_reduced_precision_reduction" if dtype == minitorch.float16 else \
        "allow_bf16_reduced_precision_reduction"
    other = minitorch.bfloat16 if dtype == minitorch.float16 else minitorch.float16
    a, b = minitorch.ones(5, 7, dtype=dtype, device="cuda"), minitorch.ones(7, 3, dtype=dtype, device="cuda")
    a @ b
    assert last_call(fake)[4] == 0 and fake.fake_cublas_last_math_mode() == 0
    setattr(settings, name, False)
    a @ b
    # set for the call, the default again after it, as torch's gemm_internal_cublas_*_helper do
    assert last_call(fake)[4] == DISALLOW_REDUCED_PRECISION_REDUCTION
    assert fake.fake_cublas_last_math_mode() == 0
    minitorch.addmm(minitorch.ones(5, 3, dtype=dtype, device="cuda"), a, b, beta=2)
    assert last_call(fake)[4] == DISALLOW_REDUCED_PRECISION_REDUCTION
    # torch's batched GEMM and the other dtype leave the math mode alone
    minitorch.bmm(a.expand(2, 5, 7), b.expand(2, 7, 3))
    assert last_call(fake)[4] == 0
    a.to(other) @ b.to(other)
    assert last_call(fake)[4] == 0
    # TF32 gives way to the 16-bit setting for the call, and float32 keeps its TF32 math
    settings.allow_tf32 = True
    a @ b
    assert last_call(fake)[4] == DISALLOW_REDUCED_PRECISION_REDUCTION and fake.fake_cublas_last_math_mode() == 0
    a.float() @ b.float()
    assert last_call(fake)[0] == "cublasSgemm_v2" and last_call(fake)[4] == 3
    setattr(settings, name, True)
    settings.allow_tf32 = False
    a @ b
    assert last_call(fake)[4] == 0


@pytest.mark.parametrize("dtype", REDUCED, ids=str)
def test_split_k_disallowed_raises_where_torchs_cublas_gemm_would(dtype, settings):
    name = "allow_fp16_reduced_precision_reduction" if dtype == minitorch.float16 else \
        "allow_bf16_reduced_precision_reduction"
    rng = random.Random(5)
    a, b = quarters((5, 7), dtype, rng).cuda(), quarters((7, 3), dtype, rng).cuda()
    v = quarters((7,), dtype, rng).cuda()
    setattr(settings, name, (False, False))
    assert getattr(settings, name + "_split_k") is False
    raising = {
        "mm": lambda: a @ b,
        "mv": lambda: a @ v,
        "addmm": lambda: minitorch.addmm(minitorch.zeros(5, 3, dtype=dtype, device="cuda"), a, b, beta=0.5),
        "linear without bias": lambda: F.linear(a, b.t()),
    }
    for what, op in raising.items():
        with pytest.raises(RuntimeError) as info:
            op()
        assert str(info.value) == SPLIT_K_ERROR, what
    # torch's batched GEMM, its dot (cublasDotEx) and its cuBLASLt addmm (a 1-D bias, beta 1) take no
    # cuBLAS GEMM: no error
    minitorch.bmm(a.expand(2, 5, 7), b.expand(2, 7, 3))
    minitorch.dot(v, v)
    F.linear(a, b.t(), minitorch.ones(3, dtype=dtype, device="cuda"))
    # the other 16-bit dtype, float32 and the CPU are unaffected (torch's CPU reads no cuBLAS setting)
    other = minitorch.bfloat16 if dtype == minitorch.float16 else minitorch.float16
    a.to(other) @ b.to(other)
    a.float() @ b.float()
    assert (a.cpu() @ b.cpu()).dtype == dtype
    setattr(settings, name, (False, True))
    assert_same(a @ b, a.cpu() @ b.cpu())


def test_fp16_accumulation(fake, settings):
    # 2048 + 1 + 1 in float16 steps stays 2048 (its spacing there is 2); in float32 it is 2050
    a = minitorch.tensor([[2048.0, 1.0, 1.0]], dtype=minitorch.float16, device="cuda")
    b = minitorch.ones(3, 1, dtype=minitorch.float16, device="cuda")
    assert (a @ b).item() == 2050.0 and last_call(fake)[3] == COMPUTE_32F
    settings.allow_fp16_accumulation = True
    assert (a @ b).item() == 2048.0 and last_call(fake)[3] == COMPUTE_16F
    minitorch.bmm(a.expand(2, 1, 3), b.expand(2, 3, 1))
    assert last_call(fake)[3] == COMPUTE_16F
    # bfloat16 has no such mode, and a float32 C (addmm's product) accumulates in float32
    a.bfloat16() @ b.bfloat16()
    assert last_call(fake)[3] == COMPUTE_32F
    assert minitorch.addmm(minitorch.zeros(1, 1, dtype=minitorch.float16, device="cuda"), a, b, beta=0.5).item() == 2050.0
    assert last_call(fake)[2:4] == (CUDA_R_32F, COMPUTE_32F)
