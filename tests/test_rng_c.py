"""Bit-exact checks of the C random generators (csrc/kernels/cpu/rng.c, philox.c).

This file owns the tests of those two C files only: it compiles tests/c/rng_check.c with the
system C compiler, runs command scripts through it, and compares every printed bit pattern
with (a) golden values captured from torch 2.13.0 on x86-64 (`python tests/test_rng_c.py`
prints them again from the installed torch), and (b) the installed torch, live, when it
imports. It must not import minitorch: the generator is tested below the extension module.

Golden scripts start with `capability avx2` so that they check torch's AVX2 kernels (the ones
every current x86-64 CPU runs) on any machine; live comparisons let rng_check detect the
capability exactly as torch does. Values that pass through libm (normals other than the
float32 AVX2 fill) are compared with goldens only on glibc, whose log/sin/cos torch used.
"""

import hashlib
import os
import platform
import shlex
import shutil
import struct
import subprocess
import sys
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [
    os.path.join("csrc", "kernels", "cpu", "rng.c"),
    os.path.join("csrc", "kernels", "cpu", "philox.c"),
    os.path.join("tests", "c", "rng_check.c"),
]

SEEDS = [0, 1, 42, 2**40 + 3]
SIZES = [1, 3, 15, 16, 17, 31, 100, 1000, 12345]


# ---- the scripts ------------------------------------------------------------------------------


def _sizes_script(seed, dt):
    s = ["seed", seed]
    for n in SIZES:
        s += ["rand", dt, n, "randn", dt, n]
    return s


def _cpu_scripts():
    """name -> (script, uses_libm). Scripts are rng_check commands; see rng_check.c."""
    out = {}
    for seed in SEEDS:
        for dt in ("f32", "f64"):
            out["sizes_seed%d_%s" % (seed, dt)] = (_sizes_script(seed, dt), True)
    # float32 randn of >= 16 elements goes through Cephes math only: no libm involved
    out["randn_f32_fill_only"] = (
        ["seed", 7, "randn", "f32", 100000, "randn", "f32", 16, "randn", "f32", 33], False)
    out["rand_only"] = (
        ["seed", 3, "rand", "f32", 5000, "rand", "f64", 5000, "rand", "f32", 7], False)
    out["default_generator"] = (
        ["default", "initial_seed", "rand", "f32", 5, "randn", "f32", 20, "randn", "f64", 3,
         "randint", "i64", 10, 0, 100, "state"], True)
    out["normal_cache"] = (
        ["seed", 3, "randn", "f32", 1, "randn", "f32", 1, "randn", "f64", 3, "randn", "f32", 16,
         "state", "randn", "f64", 1, "randn", "f32", 5, "rand", "f32", 2, "randn", "f32", 1,
         "state", "seed", 3, "state", "randn", "f64", 1], True)
    out["states"] = (
        ["seed", 0, "state", "randn", "f32", 3, "state", "rand", "f64", 1000, "state",
         "seed", 2**64 - 1, "initial_seed", "rand", "f32", 5,
         "seed", 2**63 + 12345, "rand", "f64", 5, "initial_seed", "state"], True)
    for dt in ("f32", "f64"):
        out["normal_mean_std_" + dt] = (
            ["seed", 11, "normal", dt, 5, 0.5, 2.5, 1, "normal", dt, 40, -1.25, 0.3, 1,
             "normal", dt, 40, 3.0, 1.7, 0, "normal", dt, 33, 1e-3, 1e3, 1,
             "normal", dt, 16, 0.1, 1.3, 1], True)
        out["uniform_" + dt] = (
            ["seed", 12, "uniform", dt, 50, -3.3, 7.1, "uniform", dt, 50, 0.1, 0.2,
             "uniform", dt, 7, -1e10, 1e10, "uniform", dt, 9, 5, 5], False)
    bounds = {"i64": (-10**12, 10**13), "i32": (-2**31, 2**31 - 1), "i16": (-300, 3000),
              "i8": (-100, 100), "u8": (0, 256), "bool": (0, 2), "f32": (-10, 10**6),
              "f64": (-10**15, 10**15)}
    for dt, (lo, hi) in bounds.items():
        out["randint_" + dt] = (
            ["seed", 13, "randint", dt, 100, lo, hi, "randint", dt, 100, 0, 2,
             "rand", "f32", 3], False)
    ranges = [(0, 2**28 - 1), (0, 2**28), (-2**24 - 5, 2**24 + 7), (0, 2**30),
              (-2**31, 2**31 - 1), (-(2**40) - 1, 2**41 + 3), (3, 2**53 + 1),
              (-2**62, 2**62), (-2**63, 2**63 - 1), (123456789, 123456790)]
    for dt in ("i64", "i32", "f32", "f64"):
        s = ["seed", 21]
        for lo, hi in ranges:
            if dt == "i32" and (lo < -2**31 or hi > 2**31):
                continue
            s += ["randint", dt, 30, lo, hi]
        s += ["rand", "f32", 2]
        out["randint_ranges_" + dt] = (s, False)
    return out


CPU_SCRIPTS = _cpu_scripts()


# ---- running torch ----------------------------------------------------------------------------


def _torch_lines(script):
    """Runs an rng_check script through torch, returning rng_check's output lines."""
    import torch

    dtypes = {"f32": torch.float32, "f64": torch.float64, "i64": torch.int64,
              "i32": torch.int32, "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8,
              "bool": torch.bool}

    def fmt(t):
        if t.dtype == torch.float32:
            return " ".join("%08x" % (x & 0xFFFFFFFF) for x in t.view(torch.int32).tolist())
        if t.dtype == torch.float64:
            return " ".join("%016x" % (x & 0xFFFFFFFFFFFFFFFF)
                            for x in t.view(torch.int64).tolist())
        return " ".join(str(int(x)) for x in t.tolist())

    g = torch.Generator()
    lines = []
    toks = [str(x) for x in script]
    i = 0
    while i < len(toks):
        c = toks[i]
        if c == "capability":
            line, i = "", i + 2
        elif c == "seed":
            g.manual_seed(int(toks[i + 1]))
            line, i = "", i + 2
        elif c == "default":
            g = torch.Generator()
            line, i = "", i + 1
        elif c == "initial_seed":
            line, i = str(g.initial_seed()), i + 1
        elif c in ("rand", "randn"):
            fn = torch.rand if c == "rand" else torch.randn
            line = fmt(fn(int(toks[i + 2]), dtype=dtypes[toks[i + 1]], generator=g))
            i += 3
        elif c == "uniform":
            t = torch.empty(int(toks[i + 2]), dtype=dtypes[toks[i + 1]])
            line = fmt(t.uniform_(float(toks[i + 3]), float(toks[i + 4]), generator=g))
            i += 5
        elif c == "normal":
            n = int(toks[i + 2])
            if int(toks[i + 5]):
                t = torch.empty(n, dtype=dtypes[toks[i + 1]])
            else:
                t = torch.empty(2 * n, dtype=dtypes[toks[i + 1]])[::2]
            t.normal_(float(toks[i + 3]), float(toks[i + 4]), generator=g)
            line, i = fmt(t), i + 6
        elif c == "randint":
            try:
                with warnings.catch_warnings():
                    # torch warns about float bounds beyond 2^24 / 2^53; the values are the point
                    warnings.simplefilter("ignore")
                    t = torch.randint(int(toks[i + 3]), int(toks[i + 4]), (int(toks[i + 2]),),
                                      dtype=dtypes[toks[i + 1]], generator=g)
                line = fmt(t)
            except RuntimeError:
                line = "error -1"
            i += 5
        elif c == "state":
            line, i = bytes(g.get_state().tolist()).hex(), i + 1
        else:
            raise ValueError("no torch equivalent for " + c)
        lines.append(line)
    return lines


def _digest(line):
    return hashlib.sha256(line.encode()).hexdigest()[:16]


def _golden_from_torch():
    return {name: [_digest(l) for l in _torch_lines(["capability", "avx2"] + script)]
            for name, (script, _) in CPU_SCRIPTS.items()}


# ---- the compiled checker ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def rng_check(tmp_path_factory):
    cc = shlex.split(os.environ.get("CC", "")) or [shutil.which("cc") or shutil.which("gcc") or ""]
    if not shutil.which(cc[0]):
        pytest.skip("no C compiler (cc/gcc) on PATH")
    exe = str(tmp_path_factory.mktemp("rng") / "rng_check")
    cmd = cc + ["-O2", "-I", "csrc"] + SOURCES + ["-lm", "-o", exe]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, "compiling rng_check failed:\n" + r.stderr

    def run(script, env=None):
        r = subprocess.run([exe] + [str(x) for x in script], capture_output=True, text=True,
                           env=env)
        assert r.returncode == 0, r.stderr
        # each line is "<index> <values...>"; keep the values
        return [l.split(" ", 1)[1] if " " in l else "" for l in r.stdout.splitlines()]

    return run


def _glibc():
    return platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


def _first_difference(got, want, script):
    for k, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return "line %d differs (script %s)" % (k, " ".join(map(str, script))[:200])
    return "line count %d != %d" % (len(got), len(want))


# ---- golden values captured from torch 2.13.0 (x86-64, AVX2 kernels, glibc libm) -------------

# name -> sha256[:16] of each output line of the script in CPU_SCRIPTS, as torch printed it.
GOLDEN = {}  # filled in at the end of the file

# Readable anchors from torch's own documentation-style outputs.
ANCHORS = [
    (["seed", 0, "randn", "f32", 3], [[1.5410, -0.2934, -2.1788]]),
    (["seed", 0, "rand", "f32", 3], [[0.4963, 0.7682, 0.0885]]),
]


def _floats(line):
    return [struct.unpack(">f", bytes.fromhex(h))[0] for h in line.split()]


def test_readable_anchors(rng_check):
    for script, want in ANCHORS:
        got = rng_check(["capability", "avx2"] + script)
        vals = [_floats(l) for l in got if l]
        assert [[round(v, 4) for v in vs] for vs in vals] == want


@pytest.mark.parametrize("name", sorted(CPU_SCRIPTS))
def test_cpu_matches_torch_golden(rng_check, name):
    script, uses_libm = CPU_SCRIPTS[name]
    if uses_libm and not _glibc():
        pytest.skip("golden values went through glibc's log/sin/cos")
    got = [_digest(l) for l in rng_check(["capability", "avx2"] + script)]
    want = GOLDEN[name]
    assert got == want, _first_difference(got, want, script)


def test_state_roundtrip_and_errors(rng_check):
    out = rng_check(["seed", 9, "randn", "f64", 1, "roundtrip", "setstate_bad"])
    assert out[2] == "ok"
    assert out[3].split() == ["-3", "-4"]  # MT_RNG_ERR_SIZE, MT_RNG_ERR_INVALID
    out = rng_check(["seed", 5, "initial_seed", "default", "initial_seed"])
    assert out[1] == "5" and out[3] == "67280421310721"


def test_randint_rejects_empty_range(rng_check):
    assert rng_check(["randint", "i64", 3, 5, 5])[0] == "error -1"
    # float32 cannot hold 123456789 and 123456790 apart: torch's bound adjustment empties it
    assert rng_check(["randint", "f32", 3, 123456789, 123456790])[0] == "error -1"


# ---- live comparison with the installed torch -------------------------------------------------


@pytest.fixture(scope="module")
def torch_lines():
    try:
        import torch  # noqa: F401
    except ImportError:
        pytest.skip("torch is not installed")
    return _torch_lines


@pytest.mark.parametrize("name", sorted(CPU_SCRIPTS))
def test_cpu_matches_torch_live(rng_check, torch_lines, name):
    script, _ = CPU_SCRIPTS[name]
    got = rng_check(script)        # capability detected like torch does it
    want = torch_lines(script)
    assert got == want, _first_difference(got, want, script)


def test_set_state_from_torch_bytes(rng_check, torch_lines):
    import torch

    g = torch.Generator().manual_seed(77)
    torch.randn(1, dtype=torch.float64, generator=g)  # leaves a cached normal in the state
    torch.rand(700, generator=g)                      # crosses a twist
    state = bytes(g.get_state().tolist()).hex()
    want = [torch.randn(3, dtype=torch.float64, generator=g), torch.rand(4, generator=g)]
    got = rng_check(["setstate", state, "randn", "f64", 3, "rand", "f32", 4])
    assert got[0] == "0"
    assert got[1] == " ".join("%016x" % (x & 0xFFFFFFFFFFFFFFFF)
                              for x in want[0].view(torch.int64).tolist())
    assert got[2] == " ".join("%08x" % (x & 0xFFFFFFFF) for x in want[1].view(torch.int32).tolist())


DEFAULT_CAPABILITY_SCRIPTS = ["sizes_seed0_f32", "sizes_seed42_f64", "normal_mean_std_f32",
                              "normal_mean_std_f64", "uniform_f32", "uniform_f64"]


def test_cpu_matches_torch_default_capability(rng_check, torch_lines):
    """torch's DEFAULT kernels (no FMA, libm normals): ATEN_CPU_CAPABILITY=default for both."""
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    code = ("import json, sys; sys.path.insert(0, %r); import test_rng_c as t; "
            "print(json.dumps({n: t._torch_lines(t.CPU_SCRIPTS[n][0]) for n in %r}))"
            % (os.path.dirname(os.path.abspath(__file__)), DEFAULT_CAPABILITY_SCRIPTS))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    import json

    want_all = json.loads(r.stdout)
    for name in DEFAULT_CAPABILITY_SCRIPTS:
        script = CPU_SCRIPTS[name][0]
        got = rng_check(script, env=env)
        assert got == want_all[name], name + ": " + _first_difference(got, want_all[name], script)


# ---- Philox ----------------------------------------------------------------------------------


def test_philox_known_answers(rng_check):
    # Random123's kat_vectors for philox4x32_10: zeros, all-ones, and the digits of pi
    want = ("6627e8d5 e169c58d bc57ac4c 9b00dbd8 "
            "408f276d 41c83b0e a20bc7c6 6d5451fd "
            "d16cfe09 94fdcceb 5001e420 24126ea1")
    assert rng_check(["philox_kat"])[0] == want


# The stream definition in philox.h, pinned: the CUDA kernel must print these same values.
# name -> (script, blocks used, sha256[:16] of the values)
PHILOX_GOLDEN = {}  # filled in at the end of the file

PHILOX_SCRIPTS = {
    "rand_f32": ["philox", "rand_f32", 0, 0, 1001],
    "rand_f32_offset": ["philox", "rand_f32", 42, 7, 33],
    "rand_f64": ["philox", "rand_f64", 2**40 + 3, 0, 1001],
    "randn_f32": ["philox", "randn_f32", 42, 0, 4097],
    "randn_f32_offset": ["philox", "randn_f32", 1, 2**32 - 1, 10],
    "randn_f64": ["philox", "randn_f64", 42, 0, 4097],
    "randint_small": ["philox", "randint_-5_5", 3, 0, 1001],
    "randint_wide": ["philox", "randint_0_1000000000000", 3, 0, 1001],
}


def _philox_split(line):
    parts = line.split()
    assert "MISMATCH" not in parts, "an element function disagrees with the fill"
    return int(parts[0]), parts[1:]


@pytest.mark.parametrize("name", sorted(PHILOX_SCRIPTS))
def test_philox_golden(rng_check, name):
    blocks, values = _philox_split(rng_check(PHILOX_SCRIPTS[name])[0])
    want_blocks, want_digest = PHILOX_GOLDEN[name]
    assert blocks == want_blocks
    assert _digest(" ".join(values)) == want_digest


def test_philox_offsets_give_fresh_streams(rng_check):
    # offset counts blocks: a fill at offset k is the offset-0 stream moved on by k blocks
    _, a = _philox_split(rng_check(["philox", "rand_f32", 9, 0, 40])[0])
    blocks, b = _philox_split(rng_check(["philox", "rand_f32", 9, 3, 28])[0])
    assert blocks == 7 and a[12:] == b
    _, c = _philox_split(rng_check(["philox", "randn_f64", 9, 0, 10])[0])
    _, d = _philox_split(rng_check(["philox", "randn_f64", 9, 5, 10])[0])
    assert set(c).isdisjoint(d)


def test_philox_distributions_are_sane(rng_check):
    def vals(kind, n, fmt):
        _, v = _philox_split(rng_check(["philox", kind, 5, 0, n])[0])
        return [struct.unpack(fmt, bytes.fromhex(h))[0] for h in v]

    for kind, fmt in (("randn_f32", ">f"), ("randn_f64", ">d")):
        x = vals(kind, 40000, fmt)
        mean = sum(x) / len(x)
        var = sum((v - mean) ** 2 for v in x) / len(x)
        assert abs(mean) < 0.03 and abs(var - 1) < 0.04, (kind, mean, var)
    for kind, fmt in (("rand_f32", ">f"), ("rand_f64", ">d")):
        x = vals(kind, 40000, fmt)
        assert min(x) >= 0 and max(x) < 1 and abs(sum(x) / len(x) - 0.5) < 0.01
    _, v = _philox_split(rng_check(["philox", "randint_-5_5", 5, 0, 5000])[0])
    assert sorted(set(int(t) for t in v)) == list(range(-5, 5))


def test_philox_math_accuracy(rng_check):
    logf_ulp, sincosf_abs, log_ulp, sincos_abs = map(float, rng_check(["philox_math"])[0].split())
    assert logf_ulp <= 1.0 and sincosf_abs <= 1.2e-7
    assert log_ulp <= 2.5 and sincos_abs <= 5e-16


# ---- the golden values (generated by `python tests/test_rng_c.py BUILT_RNG_CHECK`) -------

GOLDEN.update({
    'default_generator': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'f8702cc69e06d3a9', '25dabbb08e8c8898',
        'c486b8e133e0f986', 'ab281ed7db748ca3', 'fd870c5843ff96ea', '8aed5c93e7309424',
    ],
    'normal_cache': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '27296ab6eeae11bb', 'cc726265265a1322',
        'efbb96ad22e468bd', '5db32c83868a99a1', 'c97d8cd0d9a70b43', '91701734f61b9a4d',
        '510364f2df7e769c', 'd8110e8eabcb3170', '461cccc3abd58f65', '788d574a83932787',
        'e3b0c44298fc1c14', '659bba82f8e23bd5', '435fb6cc012e3672',
    ],
    'normal_mean_std_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'a08d69a48aa246aa', '02221f5138ed6dda',
        '750024644b976daf', 'b44b25a031e53a1e', '96fbc8cad7e14611',
    ],
    'normal_mean_std_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '3bd0762f6306f0ee', '48024a151065e05c',
        '49da9f16405c241f', 'e2b23d81a5342c2e', 'a7cc9112d0393f51',
    ],
    'rand_only': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'f71e9f9f6bb32c6b', 'e8c182381a5120b8',
        '7212721b9be89187',
    ],
    'randint_bool': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '00ea235f848003e9', '02416f7b9c138d59',
        'ab02a76ef2307889',
    ],
    'randint_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '0f7d680c514bbf0d', '362bb3143a038379',
        'ab02a76ef2307889',
    ],
    'randint_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'ca1f1edbdd6e975c', 'e8df97824560f8e9',
        '1eb38446ec06973a',
    ],
    'randint_i16': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '52ee0b178910c3d4', '02416f7b9c138d59',
        'ab02a76ef2307889',
    ],
    'randint_i32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'f6c0964c364c6846', '73e8c8a849132c36',
        '1eb38446ec06973a',
    ],
    'randint_i64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'f4b09c51ab9fe7ec', '73e8c8a849132c36',
        '1eb38446ec06973a',
    ],
    'randint_i8': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'b810a5afacf639cd', '02416f7b9c138d59',
        'ab02a76ef2307889',
    ],
    'randint_ranges_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '36391daab9d2de8c', '9c1d419c9068f2ed',
        '455a5e144c6070cd', 'a0fbd74e1b6140d1', '65a2a6d79c9765d9', 'a3539db482c2ae10',
        '517a18dc40df1b72', '8264bce9594e5f16', '0cc2669775609f2e', 'a30f5c987ab7cb63',
        '85736ea7e35e9268',
    ],
    'randint_ranges_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'e7852c3d792fb2ec', '35c5c1813aa9d2e0',
        '967a82e58b85fda8', '584d3d0a5e8df8c0', '0c5d07f13bdddf39', '6511db486b2603cf',
        '79b71e7d75fe42bc', '084fff9411d2e641', '5e7f9c66849b330f', 'fe15fa5f0a3870fd',
        '56443e5822b41ff8',
    ],
    'randint_ranges_i32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '8f7ae38e45acb91d', 'e4bf55a3e66e1886',
        'ea63e1a8f5c24e84', 'ec522110da083d41', 'e45635e980c848c0', '710278e381f954d3',
        'd07697af8489cf21',
    ],
    'randint_ranges_i64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '8f7ae38e45acb91d', 'e4bf55a3e66e1886',
        'ea63e1a8f5c24e84', 'ec522110da083d41', 'e45635e980c848c0', 'f548140962ff6999',
        'd35453448723cd2f', 'e942ffb59ae2d9e4', '02150706bb181fed', '710278e381f954d3',
        '56443e5822b41ff8',
    ],
    'randint_u8': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'c354f0d9a5d76985', '02416f7b9c138d59',
        'ab02a76ef2307889',
    ],
    'randn_f32_fill_only': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '1cf3c3fc0c6ba6a5', '0ebc7cad8406d368',
        '5b1c2b76d290d7b6',
    ],
    'sizes_seed0_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '5eb27f22d251bbc5', '6e2b8d0276abf608',
        '6e4160e6bce8fe66', '67a6495438aa1905', '763c4311c13356e7', 'd41a0042c39d1261',
        '86f677e7d33ddd12', '50c85776f69ca5da', '017ed443de6b2f2d', '9059b05e2f7b5541',
        '65b35c37ef9f9633', '5fd7a9c1f94957a1', 'b91c86f046c613c0', '1de4b4d7247b7228',
        'f6f488127521b540', 'dfdf4f7f9f474357', '9fee2fa26e802636', '76a8eab04e0dfe5c',
    ],
    'sizes_seed0_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '1107399077367ae1', '20f6ba6719829f33',
        'd5f9fd8a837159a9', '31b1624fce56594e', '13974704ba2c08d8', '521dc4b7e5553e6e',
        'ff149def279d26b6', '80774705669de6fa', 'f905f8067922307f', 'b2c4ad375eb85f29',
        'f820cd00c3a9867c', 'd70f2e81c98fe5ce', '2825c2e9200cdb59', '72dd904e9cfe85bc',
        '3f56fc121aa60598', 'eabdadac33cbcccd', '1a8911ba13f09820', 'c52f114a8885a0b6',
    ],
    'sizes_seed1099511627779_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '17683901fe35468e', 'faf5f553167b53d5',
        'e6a47bb9b13b4f6b', '9555aadc11f6f152', '12d778130215c2fc', '84028cbc88fb08ef',
        'c010383917fc09a5', '630f2fa96ada4d62', 'a5f4a09921901a58', 'e5961b86cbb3bc7d',
        '5414f211b31a7fd4', '3c5e62dbbacf9bff', 'e0e75b5d74cfd182', '1b031a27daa42e69',
        '6ac372202318d179', '5e6f3c7de3c8ae45', '235a05c87a2ec967', '5192f05ccc753806',
    ],
    'sizes_seed1099511627779_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '406b7f4a623b7ea3', 'bea9f21b84860ef9',
        '0ac80156b2cd168b', 'd9c49ee699adc7de', '179ab2c4a5692f7d', 'e21225c8725505be',
        'a8ea334dbe5f9fc7', '4e4e228b39a2ccf5', 'ab391cd9ada2950e', 'e16bb4c7d6930ec0',
        '21959df70c402db6', 'c821ecb5536352ed', '5c4326e01e84ec6e', '18806cec64dd7ade',
        '6914bfd46c9dac84', 'd3a1170565984599', 'ee66eb3c51345ee4', '47b69f82cef4d5be',
    ],
    'sizes_seed1_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '886f5f1cfa80bd2b', 'c915825760f30502',
        '5c8f0f1644977414', '82e8ff8f7897fa73', 'e025def2b6fb7f6d', '3b039d914db359a2',
        '3b95cb649fe63cd5', '903f602aa62feb93', 'deaf40fbbb9a2b36', '472810315ee1d145',
        '2f60228bb774bff4', 'd3ea409e26c83ead', 'b913d49ee22ccd2f', 'a889f3b5e49e112a',
        '378033fe27607f91', 'd9c9ee3eedf5cec4', '84e96cc166c7c073', 'd9d07ce8b07447e7',
    ],
    'sizes_seed1_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '7f4d6234f1381bd3', '9d0ae4078d2a4d0f',
        '9ede1bebbaf2da40', '80ca8e445bedfde3', '720fd3d37f6c9adc', '496733373823808c',
        'a2ca432e55e4c8c3', 'cb727e98fa9e097b', '5096ec81395aafb7', '5a2eb25cc5acc464',
        '6f0d5dc1114b224a', 'd201a051b4128673', '90e9e8c0c09a70c2', 'dd9042a6304ef9ad',
        'caf5962accae8ccd', '680f5a3384a0ee7e', '44025d6bebff07fa', '0a7b83de864c1bff',
    ],
    'sizes_seed42_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '35049b9a54953696', '80f6e081bc9b89bc',
        '4c76fa9985adcb0a', '9c4793bc0f6e7fb6', '233db1319c288d3a', 'ab0d70765d6b51d0',
        '75e5e253c1cf821f', '5c2174d2006ceaea', '9e3ce9108dc20130', 'f12b06cd0ffa6528',
        'b2e68ce6bb70ea8d', 'c8b57b6a17dd827c', '6a6f4ef6d5a02a9b', '09a186d8738613f8',
        '388710b85dbd2c96', 'f8f1a2331b6eab6c', '1a60db83147be035', '2c59feb23cd561ac',
    ],
    'sizes_seed42_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '4ee0cf10c8186046', 'c498d832bc6a0834',
        '4cb681613a7092eb', 'd6e072126b0f4473', '552ef1acfc7af5d5', '37e0345d7c526ba9',
        '0c283c3b9dbac35d', '29ed7e4ea8db6ba7', '2a9efa814470806f', '58ab1bb8227bce97',
        'df8d804a083e575e', '0c2938f545d6527d', '7a52ba374eedbb19', '04bb0a3bf6172a20',
        '4b823fa4e9d90d42', '4e636f33c90463ff', 'cae8b41a9916a2f8', '04d2b607bbea5b98',
    ],
    'states': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '69239dc373577c45', '6ea8eb5ec18357b9',
        '22a99863afab4536', 'a004c2c1d1c222a5', '79bf9b63cb81e990', 'e3b0c44298fc1c14',
        '2cdb26265b4dc65e', '752fb825a2ea5fad', 'e3b0c44298fc1c14', '6315c5639034127b',
        '831f82acb9d1f1e8', '57d81547dd54bbca',
    ],
    'uniform_f32': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', 'e6a30012ddc783d0', '67e2c44d3edc6ba4',
        'a796d73d143fe5ee', 'ee685cff907b01ac',
    ],
    'uniform_f64': [
        'e3b0c44298fc1c14', 'e3b0c44298fc1c14', '653274fd8f9a459c', '3aae306f10c348a0',
        'b07d008f7709ccae', '9400ce421c7b4b07',
    ],
})
PHILOX_GOLDEN.update({
    'rand_f32': (251, '389d16d652cf1ab4'),
    'rand_f32_offset': (9, 'e89fbc270fe8dfb1'),
    'rand_f64': (501, 'a813e6a824591064'),
    'randint_small': (251, '273cb175706c654f'),
    'randint_wide': (501, 'd5f9734134734304'),
    'randn_f32': (1025, '80fe741ed02948e6'),
    'randn_f32_offset': (3, '6a871fc2d8243426'),
    'randn_f64': (2049, '22cad2e6d1f0f270'),
})


# ---- regenerating the goldens -----------------------------------------------------------------


def _print_goldens(exe):
    import torch

    assert torch.backends.cpu.get_cpu_capability() != "DEFAULT", "goldens are AVX2 values"
    print("GOLDEN.update({")
    for name, digests in sorted(_golden_from_torch().items()):
        print("    %r: [" % name)
        for k in range(0, len(digests), 4):
            print("        " + " ".join("%r," % d for d in digests[k:k + 4]))
        print("    ],")
    print("})")
    print("PHILOX_GOLDEN.update({")
    for name, script in sorted(PHILOX_SCRIPTS.items()):
        out = subprocess.run([exe] + [str(x) for x in script], capture_output=True, text=True)
        blocks, values = _philox_split(out.stdout.split(" ", 1)[1])
        print("    %r: (%d, %r)," % (name, blocks, _digest(" ".join(values))))
    print("})")


if __name__ == "__main__":
    # python tests/test_rng_c.py /path/to/rng_check  -> prints the golden blocks from the
    # installed torch (CPU goldens) and from rng_check (Philox goldens, which pin our stream).
    _print_goldens(sys.argv[1])
