"""Build script for minitorch's C extension, minitorch._C.

The C sources under csrc/ are always compiled. CUDA sources (csrc/kernels/cuda/*.cu) are compiled with
nvcc when CUDA is found, following DESIGN.md: MINITORCH_CUDA=0 forces a CPU-only build, =1 fails loudly
without nvcc, unset means auto. MINITORCH_CUDA_ARCH overrides the GPU architectures ("75;90" or
"current"). This file imports neither numpy nor torch, so it works under pip's build isolation.

MINITORCH_CUDA=emulate is a test build for machines without a GPU (scripts/build_emulated_cuda.py,
tests/test_cuda_emulated_build.py): the CUDA configuration of the extension, with kernels.cu compiled by
the host C++ compiler against the emulated CUDA runtime in tests/c/cuda_emu and a host cuBLAS
(tests/c/fake_cublas.c), both shipped next to the extension as shared libraries. Never for users.
"""

import concurrent.futures
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig

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
    if value not in ("auto", "0", "1", "", "emulate"):
        raise SystemExit("minitorch build: MINITORCH_CUDA must be auto, 0, 1 or emulate, not %r" % value)
    return value or "auto"


class BuildExt(build_ext):
    """Compiles .cu sources with nvcc into objects, then lets setuptools link them with the C sources."""

    def build_extension(self, ext):
        cu_sources = [s for s in ext.sources if s.endswith(".cu")]
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        mode = cuda_mode()
        if mode == "emulate":
            self.add_emulated_cuda(ext, cu_sources)
            self.compile_in_parallel()
            build_ext.build_extension(self, ext)
            return
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

    # ---- MINITORCH_CUDA=emulate -------------------------------------------------------------------------

    def add_emulated_cuda(self, ext, cu_sources):
        """kernels.cu through the host C++ compiler, the CUDA runtime and cuBLAS from tests/c (see the
        docstring at the top); the extension gets the macros of a real CUDA build."""
        emu_dir = os.path.join(ROOT, "tests", "c", "cuda_emu")
        spec = importlib.util.spec_from_file_location("mt_cuda_emu_rewrite", os.path.join(emu_dir, "rewrite.py"))
        rewrite = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(rewrite)
        cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
        cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
        if cxx is None or cc is None:
            raise SystemExit("minitorch build: MINITORCH_CUDA=emulate needs a host C and C++ compiler")
        cxx, cc = cxx.split(), cc.split()
        csrc = os.path.join(ROOT, "csrc")
        objdir = os.path.abspath(os.path.join(self.build_temp, "cuda_emulated"))
        libdir = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        os.makedirs(objdir, exist_ok=True)
        os.makedirs(libdir, exist_ok=True)
        opt = ["-O0", "-g"] if os.environ.get("MINITORCH_DEBUG") else ["-O1"]
        log("emulated CUDA build (MINITORCH_CUDA=emulate): kernels.cu on the host, runtime and cuBLAS from "
            "tests/c, libraries in " + libdir)
        runtime_lib = os.path.join(libdir, "libmt_cudart_emu.so")
        jobs = [cxx + ["-std=c++17", "-fPIC", "-shared", "-pthread"] + opt + [
            "-I" + emu_dir, os.path.join(emu_dir, "emu_runtime.cpp"), "-o", runtime_lib,
            "-Wl,-soname,libmt_cudart_emu.so"]]
        objects = []
        for src in cu_sources:
            host_src = os.path.join(objdir, os.path.basename(src) + ".cpp")
            rewrite.rewrite_file(src, host_src, csrc)
            obj = host_src + ".o"
            jobs.append(cxx + ["-std=c++17", "-fPIC", "-c", host_src, "-o", obj] + opt + [
                "-I" + emu_dir, "-I" + csrc, "-I" + sysconfig.get_paths()["include"], "-fno-strict-aliasing",
                "-Wno-unused-function"])
            objects.append(obj)
        for cmd in jobs:
            log(" ".join(cmd[:1] + [os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd[1:]]))
        run_parallel(jobs)
        # cuBLAS: dlopen'ed by cublas.c as libcublas.so.<major of MINITORCH_CUDA_VERSION>; found through the
        # extension's RPATH ($ORIGIN), which is searched before LD_LIBRARY_PATH and the system
        subprocess.check_call(cc + ["-std=c11", "-fPIC", "-shared"] + opt + [
            "-DMT_FAKE_CUBLAS_EMU", "-I" + os.path.join(ROOT, "tests", "c"), os.path.join(ROOT, "tests", "c", "fake_cublas.c"),
            "-o", os.path.join(libdir, "libcublas.so." + EMULATED_CUDA_MAJOR), "-L" + libdir, "-lmt_cudart_emu",
            "-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"])
        ext.extra_objects += objects
        # relink (and recompile the C sources, which include the emulated cuda_runtime.h) when these change
        ext.depends += objects + [os.path.join(emu_dir, "cuda_runtime.h"), runtime_lib]
        ext.define_macros += [("MINITORCH_WITH_CUDA", "1"),
                              ("MINITORCH_CUDA_VERSION", '"%s.0"' % EMULATED_CUDA_MAJOR),
                              ("MINITORCH_CUDA_ARCHS", '"90"')]
        ext.include_dirs.insert(0, emu_dir)  # its cuda_runtime.h is the one cuda_runtime.c includes
        ext.library_dirs += [libdir]
        ext.libraries += ["mt_cudart_emu", "dl", "pthread", "stdc++"]
        ext.extra_link_args += ["-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"]
        # -O1 builds in a fraction of -O3's time; at -O1 GCC warns of maybe-uninitialized values it cannot
        # follow, which the normal build does not see
        ext.extra_compile_args = [a if not a.startswith("-O") else opt[0] for a in ext.extra_compile_args]
        ext.extra_compile_args += ["-Wno-maybe-uninitialized"]

    def compile_in_parallel(self):
        """Compiles the C sources on every core (the emulated build runs inside a test, so it is timed).
        Uses the compiler's internal steps; a setuptools without them compiles one file at a time."""
        compiler = self.compiler
        if not all(hasattr(compiler, name) for name in ("_setup_compile", "_get_cc_args", "_compile")):
            return

        def compile_all(sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
                        extra_postargs=None, depends=None):
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                futures = [pool.submit(compiler._compile, obj, build[obj][0], build[obj][1], cc_args, extra_postargs,
                                       pp_opts) for obj in objects if obj in build]
                for f in futures:
                    f.result()
            return objects

        compiler.compile = compile_all


EMULATED_CUDA_MAJOR = "99"  # libcublas.so.99: a cuBLAS major no machine has, so only the fake one is found


def run_parallel(commands):
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for cmd, rc in zip(commands, pool.map(subprocess.call, commands)):
            if rc != 0:
                raise SystemExit("minitorch build: failed (%d): %s" % (rc, " ".join(cmd)))


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
