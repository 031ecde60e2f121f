"""What a CUDA build of minitorch is, checked without needing a GPU: it was compiled with CUDA where nvcc
exists, its machine code covers the architectures it lists, importing it loads no cuBLAS and creates no
CUDA context, minitorch.version.cuda names the toolkit, and without a driver every CUDA call answers as
torch's CUDA build does on such a machine. A CPU-only build (MINITORCH_CUDA=0, which .ci/run builds and
tests) gives torch's CPU-build answers. minitorch.backends.cuda is checked in both.

The kernels themselves need a real GPU: tests/test_cuda_kernels.py."""

import os
import re
import shutil
import struct
import subprocess

import pytest

import minitorch
from minitorch import _C
from subproc import python_output

NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
             "driver from http://www.nvidia.com/Download/index.aspx")

cuda_build = pytest.mark.skipif(not _C.has_cuda, reason="a CPU-only build of minitorch")
cpu_build = pytest.mark.skipif(_C.has_cuda, reason="checks of a CPU-only build (MINITORCH_CUDA=0; CI builds one)")


def find_nvcc():
    """nvcc where setup.py looks for it: $CUDA_HOME/bin, PATH, /usr/local/cuda/bin."""
    candidates = [os.path.join(os.environ[v], "bin", "nvcc") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    if shutil.which("nvcc"):
        candidates.append(shutil.which("nvcc"))
    candidates.append("/usr/local/cuda/bin/nvcc")
    return next((c for c in candidates if os.path.isfile(c) and os.access(c, os.X_OK)), None)


def no_driver():
    return _C.has_cuda and _C._cuda_driverVersion() == 0 and not _C._cuda_isSimulated()


def fatbin_archs(path):
    """(SASS archs, PTX archs) embedded in an ELF shared object's .nv_fatbin section, read from the
    fatbin headers (magic 0xBA55ED50; each entry: kind 1 = PTX, 2 = ELF/SASS, arch at byte 28)."""
    with open(path, "rb") as f:
        data = f.read()
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = sections[shstrndx][4]

    def name(offset):
        return data[strtab + offset:data.index(b"\0", strtab + offset)].decode()

    sass, ptx = set(), set()
    for sec_name, _type, _flags, _addr, offset, size in sections:
        if name(sec_name) != ".nv_fatbin":
            continue
        pos, end = offset, offset + size
        while pos + 16 <= end:
            magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", data, pos)
            if magic != 0xBA55ED50:
                pos += 8  # fatbins are 8-byte aligned
                continue
            entry, last = pos + header_size, pos + header_size + fat_size
            while entry < last:
                kind, _unused, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
                arch = struct.unpack_from("<I", data, entry + 28)[0]
                (ptx if kind == 1 else sass).add(arch)
                entry += entry_header + payload
            pos = last
    return sass, ptx


# ---- how it was built ------------------------------------------------------------------------------


def test_built_with_cuda_where_nvcc_exists():
    if os.environ.get("MINITORCH_CUDA") == "0":
        assert not _C.has_cuda, "MINITORCH_CUDA=0 must give a CPU-only build"
        return
    if find_nvcc() is None:
        pytest.skip("no nvcc on this machine: a CPU-only build is expected")
    assert _C.has_cuda, ("nvcc is here but minitorch was built without CUDA (if that was meant, run the tests "
                         "with MINITORCH_CUDA=0 set)")


@cuda_build
def test_version_cuda_is_the_toolkit_it_was_compiled_with():
    assert re.fullmatch(r"\d+\.\d+", minitorch.version.cuda)
    assert minitorch.version.cuda == _C.cuda_version
    major, minor = (int(p) for p in minitorch.version.cuda.split("."))
    assert _C._cuda_runtimeVersion() == major * 1000 + minor * 10
    nvcc = find_nvcc()
    if nvcc is not None and not os.environ.get("CUDA_HOME"):
        release = re.search(r"release (\d+\.\d+)", subprocess.run([nvcc, "--version"], capture_output=True,
                                                                   text=True).stdout)
        assert release and release.group(1) == minitorch.version.cuda


def test_build_facts_agree_with_the_extension():
    info = _C._build_info
    assert set(info) == {"cuda", "cuda_version", "archs", "ptx", "arch_rule", "built_at"}
    assert info["cuda"] is _C.has_cuda and info["cuda_version"] == _C.cuda_version
    assert ["sm_" + a for a in info["archs"]] == minitorch.cuda.get_arch_list()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", info["built_at"])
    if _C.has_cuda:
        assert info["ptx"].isdigit() and info["arch_rule"]
    else:
        assert info["archs"] == [] and info["ptx"] is None and info["arch_rule"] is None


@cpu_build
def test_cpu_build_has_no_cuda_version():
    assert minitorch.version.cuda is None
    assert minitorch.cuda.get_arch_list() == []
    assert _C._cuda_runtimeVersion() is None and _C._cuda_driverVersion() is None
    assert _C._cublas_version() is None


@cuda_build
def test_machine_code_for_every_listed_arch_and_ptx_for_the_newest():
    archs = minitorch.cuda.get_arch_list()
    assert archs and all(re.fullmatch(r"sm_\d+", a) for a in archs)
    numbers = sorted(int(a[3:]) for a in archs)
    sass, ptx = fatbin_archs(_C.__file__)
    assert sorted(sass) == numbers
    assert ptx == {int(_C._build_info["ptx"])}
    if (_C._build_info["arch_rule"] or "").startswith("the default list"):
        # the default list: Colab's T4 (sm_75) and the H100/H200 (sm_90) at least
        assert {"sm_75", "sm_90"} <= set(archs)


@cuda_build
def test_cuobjdump_agrees():
    cuobjdump = shutil.which("cuobjdump") or (os.path.join(os.path.dirname(find_nvcc()), "cuobjdump")
                                              if find_nvcc() else None)
    if cuobjdump is None or not os.path.exists(cuobjdump):
        pytest.skip("cuobjdump is not installed")
    out = subprocess.run([cuobjdump, "--list-elf", _C.__file__], capture_output=True, text=True).stdout
    listed = set(re.findall(r"sm_\d+", out))
    assert listed == set(minitorch.cuda.get_arch_list())
    if (_C._build_info["arch_rule"] or "").startswith("the default list"):
        assert {"sm_75", "sm_90"} <= listed


# ---- importing ---------------------------------------------------------------------------------------

IMPORT_PROBE = """
import ctypes, minitorch
maps = open('/proc/self/maps').read()
print('cublas', 'libcublas' in maps)
print('initialized', minitorch.cuda.is_initialized())
try:
    libcuda = ctypes.CDLL('libcuda.so.1')
except OSError:
    print('context none (no driver)')
else:
    ctx = ctypes.c_void_p()
    status = libcuda.cuCtxGetCurrent(ctypes.byref(ctx))
    # 3 = CUDA_ERROR_NOT_INITIALIZED: nobody called cuInit, so there is no context
    print('context', 'none' if status == 3 or not ctx.value else 'current')
"""


def test_import_loads_no_cublas_and_creates_no_cuda_context():
    out = python_output(IMPORT_PROBE, timeout=120)
    assert "cublas False" in out
    assert "initialized False" in out
    assert "context none" in out


# ---- a CUDA build on a machine without a driver (this development machine) -----------------------------


@pytest.mark.skipif(not no_driver(), reason="needs a CUDA build on a machine without an NVIDIA driver")
def test_no_driver_answers_like_torch():
    assert minitorch.cuda.is_available() is False
    assert minitorch.cuda.device_count() == 0
    assert _C._cuda_driverVersion() == 0
    for make in (lambda: minitorch.zeros(1).cuda(), lambda: minitorch.zeros(1, device="cuda"),
                 lambda: minitorch.cuda.current_device(), lambda: minitorch.randn(2, device="cuda")):
        with pytest.raises(RuntimeError) as info:
            make()
        assert str(info.value) == NO_DRIVER
        assert type(info.value) is RuntimeError
    assert minitorch.cuda.is_initialized() is False
    assert minitorch.cuda.memory_allocated() == 0


@pytest.mark.skipif(not no_driver(), reason="needs a CUDA build on a machine without an NVIDIA driver")
def test_no_driver_cublas_version_is_absent_or_a_version():
    version = _C._cublas_version()
    assert version is None or re.fullmatch(r"\d+\.\d+\.\d+", version)


@cpu_build
@pytest.mark.skipif(_C._cuda_isSimulated(), reason="the simulated GPU provides CUDA devices even in a CPU build")
def test_cpu_build_cuda_calls_raise_the_not_compiled_assertion():
    with pytest.raises(AssertionError, match="^minitorch not compiled with CUDA enabled$"):
        minitorch.zeros(1).cuda()
    assert minitorch.cuda.is_available() is False


def test_pin_memory_without_an_accelerator():
    if minitorch.cuda.is_available():
        pytest.skip("an accelerator is present")
    if not hasattr(minitorch.Tensor, "pin_memory"):
        pytest.skip("Tensor.pin_memory is not wired into this build yet")
    if _C.has_cuda:
        # a CUDA build initialises CUDA to pin, as torch's CUDA build, and fails as CUDA's first use does
        with pytest.raises(RuntimeError) as init:
            minitorch.cuda.init()
        with pytest.raises(RuntimeError) as info:
            minitorch.tensor([1.0]).pin_memory()
        assert str(info.value) == str(init.value)
    else:
        with pytest.raises(RuntimeError, match=r"^Cannot access accelerator device when none is available\.$"):
            minitorch.tensor([1.0]).pin_memory()
    assert minitorch.tensor([1.0]).is_pinned() is False


# ---- minitorch.backends.cuda (both builds) ------------------------------------------------------------


def test_backends_cuda_matmul_allow_tf32():
    matmul = minitorch.backends.cuda.matmul
    assert minitorch.backends.cuda.is_built() is bool(_C.has_cuda)
    assert matmul.allow_tf32 is False
    try:
        matmul.allow_tf32 = True
        assert matmul.allow_tf32 is True
        matmul.allow_tf32 = False
        assert matmul.allow_tf32 is False
        with pytest.raises(RuntimeError, match="^set_allow_tf32_cublas expects a bool, but got int$"):
            matmul.allow_tf32 = 1
        with pytest.raises(AttributeError, match="^Unknown attribute foo$"):
            matmul.foo = 1
        with pytest.raises(AttributeError, match="^Unknown attribute foo$"):
            matmul.foo
    finally:
        matmul.allow_tf32 = False


def test_backends_match_torch():
    torch = pytest.importorskip("torch")
    assert torch.backends.cuda.matmul.allow_tf32 is minitorch.backends.cuda.matmul.allow_tf32
    for bad in (1, "yes"):
        messages = []
        for module in (torch, minitorch):
            with pytest.raises(RuntimeError) as info:
                module.backends.cuda.matmul.allow_tf32 = bad
            messages.append(str(info.value))
        assert messages[0] == messages[1]


REDUCTION_SETTINGS = ["allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction"]
MATMUL_SETTINGS = ["allow_tf32", "allow_fp16_reduced_precision_reduction",
                   "allow_fp16_reduced_precision_reduction_split_k", "allow_bf16_reduced_precision_reduction",
                   "allow_bf16_reduced_precision_reduction_split_k", "allow_fp16_accumulation"]


def _private(module, half):
    return (getattr(module._C, "_get_cublas_allow_%s_reduced_precision_reduction" % half),
            getattr(module._C, "_set_cublas_allow_%s_reduced_precision_reduction" % half))


def _outcome(fn):
    """What a call gives: ("ok", value) or (exception type name, message with torch's module name)."""
    try:
        return "ok", fn()
    except Exception as exc:
        return type(exc).__name__, str(exc).replace("minitorch", "torch")


@pytest.fixture
def both_settings():
    """minitorch's and torch's matmul settings, each restored after the test."""
    torch = pytest.importorskip("torch")
    saved = []
    for module in (torch, minitorch):
        m = module.backends.cuda.matmul
        saved.append((module, m.allow_tf32, _private(module, "fp16")[0](), _private(module, "bf16")[0](),
                      m.allow_fp16_accumulation))
    yield torch
    for module, tf32, fp16, bf16, accumulation in saved:
        module._C._set_cublas_allow_tf32(tf32)
        _private(module, "fp16")[1](*fp16)
        _private(module, "bf16")[1](*bf16)
        module._C._set_cublas_allow_fp16_accumulation(accumulation)


def test_backends_cuda_matmul_16_bit_settings_match_torch(both_settings):
    torch = both_settings
    values = [True, False, (True,), [False], (False, True), (False, False), [True, True], (True, False), 1, None, "x",
              (), (1,), (True, 1), (False, None), (True, True, True), 1.0]
    for name in MATMUL_SETTINGS:
        assert getattr(minitorch.backends.cuda.matmul, name) is getattr(torch.backends.cuda.matmul, name), name
    for name in MATMUL_SETTINGS:
        for value in values:
            got = [_outcome(lambda m=module: setattr(m.backends.cuda.matmul, name, value)) for module in
                   (torch, minitorch)]
            assert got[0] == got[1], (name, value, got)
            state = [[getattr(module.backends.cuda.matmul, n) for n in MATMUL_SETTINGS] for module in
                     (torch, minitorch)]
            assert state[0] == state[1], (name, value, state)


def test_backends_cuda_matmul_private_functions_match_torch(both_settings):
    torch = both_settings
    for half in ("fp16", "bf16"):
        calls = [(), (True,), (False,), (True, True), (False, False), (True, False), (False, None), (True, None),
                 (1,), (None,), (True, 1), (False, "no"), (True, True, True)]
        for args in calls:
            got = [_outcome(lambda m=module: _private(m, half)[1](*args)) for module in (torch, minitorch)]
            assert got[0] == got[1], (half, args, got)
            assert _private(torch, half)[0]() == _private(minitorch, half)[0](), (half, args)
        got = [_outcome(lambda m=module: _private(m, half)[1](True, allow_splitk=False)) for module in
               (torch, minitorch)]
        assert got[0] == got[1]
        got = [_outcome(lambda m=module: _private(m, half)[0](1)) for module in (torch, minitorch)]
        assert got[0] == got[1]
    for args in [(), (True,), (False,), (1,), (True, True)]:
        got = [_outcome(lambda m=module: m._C._set_cublas_allow_fp16_accumulation(*args)) for module in
               (torch, minitorch)]
        assert got[0] == got[1], (args, got)
        assert torch._C._get_cublas_allow_fp16_accumulation() is minitorch._C._get_cublas_allow_fp16_accumulation()


def test_16_bit_settings_leave_cpu_products_alone(both_settings):
    """Like torch's CPU kernels, minitorch's host GEMM reads no cuBLAS setting: even the split-k setting
    that makes torch's cuBLAS GEMM raise changes nothing on the CPU."""
    torch = both_settings
    for module in (torch, minitorch):
        m = module.backends.cuda.matmul
        m.allow_fp16_reduced_precision_reduction = (False, False)
        m.allow_bf16_reduced_precision_reduction = (False, False)
        m.allow_fp16_accumulation = True
    for dtype in ("float16", "bfloat16"):
        a = [[0.5, -1.25, 3.0], [2.0, 0.75, -0.5]]
        b = [[1.5, 2.0], [-0.25, 1.0], [3.5, -2.0]]
        got = [(module.tensor(a, dtype=getattr(module, dtype)) @ module.tensor(b, dtype=getattr(module, dtype))
                ).float().tolist() for module in (torch, minitorch)]
        assert got[0] == got[1], dtype
