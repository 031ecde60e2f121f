"""Build script for minitorch's C extension, minitorch._C.

The C sources under csrc/ are always compiled. CUDA sources (csrc/kernels/cuda/*.cu) are compiled with
nvcc when CUDA is found, following DESIGN.md: MINITORCH_CUDA=0 forces a CPU-only build, =1 fails loudly
without nvcc, unset means auto. MINITORCH_CUDA_ARCH overrides the GPU architectures ("75;90" or
"current"). This file imports neither numpy nor torch, so it works under pip's build isolation.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ARCHS = ["75", "80", "86", "89", "90", "120"]


def log(msg):
    print("minitorch build: " + msg, flush=True)


def find_nvcc():
    """Returns the path of nvcc, looking where DESIGN.md says: $CUDA_HOME, PATH, /usr/local/cuda."""
    candidates = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "bin", "nvcc"))
    which = shutil.which("nvcc")
    if which:
        candidates.append(which)
    candidates.append("/usr/local/cuda/bin/nvcc")
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.realpath(path)
    return None


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release (\d+)\.(\d+)", out)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def nvcc_known_archs(nvcc):
    out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True).stdout
    return {m.group(1) for m in re.finditer(r"compute_(\d+)", out)}


def cuda_home_of(nvcc):
    """The toolkit's root directory. nvcc may be a wrapper script outside the toolkit (/usr/local/bin/nvcc
    on some machines is `exec /usr/local/cuda-13.0/bin/nvcc "$@"`), so nvcc is asked for its TOP; the
    directory above bin/ is the fallback."""
    try:
        done = subprocess.run([nvcc, "--dryrun", "-E", "-x", "cu", os.devnull], capture_output=True, text=True)
        match = re.search(r"^#\$ TOP=(.*)$", done.stdout + done.stderr, re.M)
        if match:
            top = os.path.realpath(match.group(1).strip())
            if os.path.isfile(os.path.join(top, "include", "cuda_runtime.h")):
                return top
    except OSError:
        pass
    return os.path.dirname(os.path.dirname(nvcc))


def cuda_archs(nvcc):
    """The archs to emit SASS for; PTX is added for the newest one as a forward-compatible fallback."""
    requested = os.environ.get("MINITORCH_CUDA_ARCH", "").strip()
    if requested == "current":
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.split()
        archs = sorted({c.replace(".", "") for c in out}, key=int)
        if not archs:
            raise SystemExit("minitorch build: MINITORCH_CUDA_ARCH=current but nvidia-smi found no GPU")
        return archs
    if requested:
        return [a.strip().replace(".", "").replace("sm_", "") for a in re.split(r"[;, ]+", requested) if a.strip()]
    known = nvcc_known_archs(nvcc)
    return [a for a in DEFAULT_ARCHS if a in known] if known else DEFAULT_ARCHS[:5]


def cuda_mode():
    value = os.environ.get("MINITORCH_CUDA", "auto").strip().lower()
    if value not in ("auto", "0", "1", ""):
        raise SystemExit("minitorch build: MINITORCH_CUDA must be auto, 0 or 1, not %r" % value)
    return value or "auto"


class BuildExt(build_ext):
    """Compiles .cu sources with nvcc into objects, then lets setuptools link them with the C sources."""

    def build_extension(self, ext):
        cu_sources = [s for s in ext.sources if s.endswith(".cu")]
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        mode = cuda_mode()
        nvcc = find_nvcc() if mode != "0" else None
        if mode == "1" and nvcc is None:
            raise SystemExit("minitorch build: MINITORCH_CUDA=1 but nvcc was not found "
                             "($CUDA_HOME/bin, PATH, /usr/local/cuda/bin)")
        if nvcc is None or not cu_sources:
            why = "MINITORCH_CUDA=0" if mode == "0" else ("no nvcc found" if nvcc is None else "no CUDA sources")
            log("CPU-only build (%s)" % why)
        else:
            self.add_cuda(ext, nvcc, cu_sources)
        build_ext.build_extension(self, ext)

    def add_cuda(self, ext, nvcc, cu_sources):
        cuda_home = cuda_home_of(nvcc)
        version = nvcc_version(nvcc)
        archs = cuda_archs(nvcc)
        log("CUDA build: nvcc %d.%d at %s; SASS for %s, PTX for sm_%s"
            % (version[0], version[1], nvcc, ", ".join("sm_" + a for a in archs), archs[-1]))
        gencode = []
        for arch in archs:
            gencode += ["-gencode", "arch=compute_%s,code=sm_%s" % (arch, arch)]
        gencode += ["-gencode", "arch=compute_%s,code=compute_%s" % (archs[-1], archs[-1])]
        objdir = os.path.join(self.build_temp, "cuda_objects")
        os.makedirs(objdir, exist_ok=True)
        objects = []
        for src in cu_sources:
            obj = os.path.join(objdir, os.path.basename(src) + ".o")
            cmd = [nvcc, "-c", src, "-o", obj, "-O3", "-std=c++17", "-Xcompiler", "-fPIC",
                   "-Xfatbin=-compress-all", "-I" + os.path.join(ROOT, "csrc")] + gencode
            log("nvcc " + os.path.relpath(src, ROOT))
            subprocess.check_call(cmd)
            objects.append(obj)
        libdirs = [d for d in (os.path.join(cuda_home, "lib64"), os.path.join(cuda_home, "lib"))
                   if os.path.isdir(d)]
        ext.extra_objects += objects
        ext.define_macros += [("MINITORCH_WITH_CUDA", "1"),
                              ("MINITORCH_CUDA_VERSION", '"%d.%d"' % version),
                              ("MINITORCH_CUDA_ARCHS", '"%s"' % ";".join(archs))]
        ext.include_dirs += [os.path.join(cuda_home, "include")]
        ext.library_dirs += libdirs
        # cudart is linked statically (no libcudart.so needed at run time); cuBLAS is dlopen'ed at the
        # first CUDA matmul, so it is not linked. nvcc's host stubs need the C++ runtime.
        ext.libraries += ["cudart_static", "dl", "rt", "pthread", "stdc++"]


def sources():
    found = sorted(glob.glob(os.path.join("csrc", "**", "*.c"), recursive=True))
    found += sorted(glob.glob(os.path.join("csrc", "kernels", "cuda", "*.cu")))
    return found


# -fno-math-errno: sqrt and friends need not set errno (nothing reads it), so the compiler may use the
# vector square-root instruction; every result stays the correctly rounded one, bit for bit.
extra_compile_args = ["-O3", "-std=c11", "-fno-strict-aliasing", "-fno-math-errno", "-Wall",
                      "-Wno-unused-function", "-Wno-missing-braces"]
if os.environ.get("MINITORCH_DEBUG"):
    extra_compile_args = ["-O0", "-g", "-std=c11", "-Wall"]

setup(
    ext_modules=[
        Extension(
            "minitorch._C",
            sources=sources(),
            include_dirs=[os.path.join(ROOT, "csrc")],
            extra_compile_args=extra_compile_args,
            libraries=["m", "pthread"],
            define_macros=[("PY_SSIZE_T_CLEAN", None)],
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
