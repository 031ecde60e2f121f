"""Build script for minitorch's C extension, minitorch._C.

The C sources under csrc/ are always compiled. CUDA sources (csrc/kernels/cuda/*.cu) are compiled with
nvcc when CUDA is found, following DESIGN.md: MINITORCH_CUDA=0 forces a CPU-only build, =1 fails loudly
without nvcc, unset means auto. MINITORCH_CUDA_ARCH overrides the GPU architectures ("75;90" or
"current"). This file imports neither numpy nor torch, so it works under pip's build isolation.

MINITORCH_CUDA=emulate is a test build for machines without a GPU (scripts/build_emulated_cuda.py,
tests/test_cuda_emulated_build.py): the CUDA configuration of the extension, with kernels.cu compiled by
the host C++ compiler against the emulated CUDA runtime in tests/c/cuda_emu and a host cuBLAS
(tests/c/fake_cublas.c) and cuDNN (tests/c/fake_cudnn.c), all shipped next to the extension as shared
libraries. Never for users.

Which GPU architectures get machine code (SASS), in this order: MINITORCH_CUDA_ARCH when set ("75;90",
or "current" for the GPUs nvidia-smi reports); else the GPU of the build machine when the driver reports
one (a Colab build compiles for its own GPU only, a few times faster); else the default list. PTX of the
newest architecture is always added. The build prints which rule chose the list.

A build prints one line per stage (configure, C sources, CUDA sources, link) and its total time, each
starting with "minitorch build:" (the notebook's install cell shows just those lines of `pip install -v`).
It compiles on every core, nvcc beside the C compiler. Object files are kept in build/objects/, one folder
per configuration (compiler, flags, CUDA architectures), each keyed by the content of its source and of
every header under csrc/: a second build in the same checkout compiles only what changed, and a build with
another configuration (MINITORCH_CUDA, MINITORCH_CUDA_ARCH, MINITORCH_DEBUG, CFLAGS) never reuses another
configuration's objects. The extension is always linked again, so it always matches the configuration.
"""

import concurrent.futures
import glob
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time

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


def gpu_compute_capabilities():
    """The compute capabilities of the GPUs the driver reports ("75", "90"), or [] when there is no driver,
    no GPU or no nvidia-smi. Asks nvidia-smi, which ships with the driver."""
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    caps = {c.replace(".", "") for c in done.stdout.split() if re.fullmatch(r"\d+\.\d+", c)}
    return sorted(caps, key=int)


def cuda_archs(known, requested, gpu_caps):
    """(SASS archs, PTX arch, the rule that chose them) for nvcc's known archs, MINITORCH_CUDA_ARCH's value
    and a function returning the build machine's GPUs (gpu_compute_capabilities). A GPU newer than nvcc
    gets no SASS; the PTX of the newest older architecture that nvcc knows runs on it instead."""
    requested = requested.strip()
    if requested and requested != "current":
        archs = [a.strip().replace(".", "").replace("sm_", "") for a in re.split(r"[;, ]+", requested) if a.strip()]
        if not all(a.isdigit() for a in archs):
            raise SystemExit("minitorch build: MINITORCH_CUDA_ARCH must list architectures such as '75;90' "
                             "or say 'current', not %r" % requested)
        archs = sorted(set(archs), key=int)
        return archs, archs[-1], "MINITORCH_CUDA_ARCH=%s" % requested
    caps = gpu_caps()
    if requested == "current" and not caps:
        raise SystemExit("minitorch build: MINITORCH_CUDA_ARCH=current but nvidia-smi found no GPU")
    if caps:
        why = ("MINITORCH_CUDA_ARCH=current" if requested else "the GPU of this machine") + \
            " (nvidia-smi: compute capability %s)" % ", ".join("%s.%s" % (c[:-1], c[-1]) for c in caps)
        sass = [c for c in caps if not known or c in known]
        older = sorted((k for k in known if int(k) <= int(caps[-1])), key=int)
        if sass and sass[-1] == caps[-1]:
            return sass, sass[-1], why
        if not older:
            raise SystemExit("minitorch build: nvcc knows no architecture for compute capability %s" % caps[-1])
        return sass, older[-1], why + "; nvcc is older than the GPU, which runs the PTX"
    default = [a for a in DEFAULT_ARCHS if a in known] if known else DEFAULT_ARCHS[:5]
    return default, default[-1], "the default list (no GPU found on this machine)"


def cuda_mode():
    value = os.environ.get("MINITORCH_CUDA", "auto").strip().lower()
    if value not in ("auto", "0", "1", "", "emulate"):
        raise SystemExit("minitorch build: MINITORCH_CUDA must be auto, 0, 1 or emulate, not %r" % value)
    return value or "auto"


class BuildExt(build_ext):
    """Compiles the C sources (cached, on every core) while nvcc compiles the .cu sources beside them, then
    lets setuptools link everything; records what the extension was built for (build_info.c)."""

    def build_extension(self, ext):
        started = time.monotonic()
        # always link (build_ext's check and the compiler's own): the cached objects, not the extension, are
        # what a build reuses, and reused objects are older than the extension of another configuration
        self.force = self.compiler.force = True
        cu_sources = [s for s in ext.sources if s.endswith(".cu")]
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        facts = {"cuda_version": "", "archs": [], "ptx": "", "rule": ""}
        cuda_jobs = []
        mode = cuda_mode()
        if mode == "emulate":
            self.add_emulated_cuda(ext, cu_sources, facts)
        else:
            nvcc = find_nvcc() if mode != "0" else None
            if mode == "1" and nvcc is None:
                raise SystemExit("minitorch build: MINITORCH_CUDA=1 but nvcc was not found "
                                 "($CUDA_HOME/bin, PATH, /usr/local/cuda/bin)")
            if nvcc is None or not cu_sources:
                why = "MINITORCH_CUDA=0" if mode == "0" else ("no nvcc found" if nvcc is None else "no CUDA sources")
                log("[configure] CPU-only build (%s)" % why)
            else:
                cuda_jobs = self.add_cuda(ext, nvcc, cu_sources, facts)
        ext.sources.append(self.write_build_info(facts))
        self.compile_with_cache(ext, cuda_jobs)
        build_ext.build_extension(self, ext)
        log("[link] %s (%.1f s)" % (os.path.basename(self.get_ext_fullpath(ext.name)), time.monotonic() - self.compiled_at))
        log("done in %.1f s" % (time.monotonic() - started))

    def add_cuda(self, ext, nvcc, cu_sources, facts):
        """Configures the CUDA build and returns its nvcc jobs (not yet started)."""
        cuda_home = cuda_home_of(nvcc)
        version = nvcc_version(nvcc)
        archs, ptx, rule = cuda_archs(nvcc_known_archs(nvcc), os.environ.get("MINITORCH_CUDA_ARCH", ""),
                                      gpu_compute_capabilities)
        log("[configure] CUDA build: nvcc %d.%d at %s; machine code (SASS) for %s, PTX for sm_%s; chosen by %s"
            % (version[0], version[1], nvcc, ", ".join("sm_" + a for a in archs) or "no architecture", ptx, rule))
        facts.update(cuda_version="%d.%d" % version, archs=archs, ptx=ptx, rule=rule)
        gencode = []
        for arch in archs:
            gencode += ["-gencode", "arch=compute_%s,code=sm_%s" % (arch, arch)]
        gencode += ["-gencode", "arch=compute_%s,code=compute_%s" % (ptx, ptx)]
        flags = ["-O3", "-std=c++17", "-Xcompiler", "-fPIC", "-Xfatbin=-compress-all", "--threads", "0",
                 "-I" + os.path.join(ROOT, "csrc")] + gencode
        jobs = []
        for src in cu_sources:
            obj = self.cached_object(src, "nvcc", [nvcc] + flags)
            jobs.append((src, obj, [nvcc, "-c", src, "-o", obj] + flags))
            ext.extra_objects.append(obj)
        libdirs = [d for d in (os.path.join(cuda_home, "lib64"), os.path.join(cuda_home, "lib"))
                   if os.path.isdir(d)]
        ext.define_macros += [("MINITORCH_WITH_CUDA", "1"), ("MINITORCH_CUDA_VERSION", '"%d.%d"' % version)]
        ext.include_dirs += [os.path.join(cuda_home, "include")]
        ext.library_dirs += libdirs
        # cudart is linked statically (no libcudart.so needed at run time); cuBLAS is dlopen'ed at the
        # first CUDA matmul, so it is not linked. nvcc's host stubs need the C++ runtime.
        ext.libraries += ["cudart_static", "dl", "rt", "pthread", "stdc++"]
        return jobs

    def write_build_info(self, facts):
        """build_info.c: the build's facts as C strings (module.c publishes them as _C._build_info)."""
        os.makedirs(self.build_temp, exist_ok=True)
        path = os.path.join(self.build_temp, "build_info.c")
        values = [("mt_build_cuda_version", facts["cuda_version"]), ("mt_build_cuda_archs", ";".join(facts["archs"])),
                  ("mt_build_cuda_ptx", facts["ptx"]), ("mt_build_arch_rule", facts["rule"]),
                  ("mt_build_time", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(build_epoch())))]
        with open(path, "w", encoding="utf-8") as f:
            f.write("/* Written by setup.py for each build: what this extension was built for. */\n")
            for name, value in values:
                f.write("const char %s[] = \"%s\";\n" % (name, value.replace("\\", "\\\\").replace('"', '\\"')))
        return path

    # ---- compiling with a cache ------------------------------------------------------------------------

    def cached_object(self, src, kind, command):
        """The object file of src in the cache folder of this configuration (kind and command)."""
        config = hashlib.sha256(repr((kind, command, sys.version)).encode()).hexdigest()[:16]
        rel = os.path.relpath(os.path.abspath(src), ROOT)
        if rel.startswith(".."):
            rel = os.path.basename(src)
        return os.path.join(self.objects_dir(), "%s-%s" % (kind, config), rel + ".o")

    def objects_dir(self):
        """build/objects in the checkout; the build's temporary folder where the checkout is read-only."""
        path = os.path.join(ROOT, "build", "objects")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            path = os.path.join(os.path.abspath(self.build_temp), "objects")
        return path

    def up_to_date(self, obj, key):
        try:
            with open(obj + ".key", encoding="ascii") as f:
                return f.read() == key and os.path.exists(obj)
        except OSError:
            return False

    def compile_with_cache(self, ext, cuda_jobs):
        """Replaces the compiler's compile step for this extension: objects come from the cache when their
        source and the headers are unchanged, the others compile on every core, and the nvcc jobs run
        beside them (setuptools links only after all of them finished)."""
        compiler = self.compiler
        headers = headers_digest(ext.include_dirs)

        def compile_all(sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
                        extra_postargs=None, depends=None):
            macros, _, extra_postargs, pp_opts, _ = compiler._setup_compile(
                output_dir, macros, include_dirs, [], depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
            command = list(compiler.compiler_so) + cc_args + list(extra_postargs)
            work, objects = [], []
            for src in sources:
                obj = self.cached_object(src, "cc", command)
                objects.append(obj)
                key = source_key(src, headers)
                if not self.up_to_date(obj, key):
                    work.append((obj, src, key))
            for src, obj, cmd in cuda_jobs:
                key = source_key(src, headers)
                if not self.up_to_date(obj, key):
                    work.append((obj, src, key))
            cuda_objects = {obj for _, obj, _ in cuda_jobs}
            commands = {obj: cmd for _, obj, cmd in cuda_jobs}

            def build(job):
                obj, src, key = job
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                if os.path.exists(obj + ".key"):
                    os.remove(obj + ".key")
                if obj in cuda_objects:
                    subprocess.check_call(commands[obj])
                else:
                    compiler._compile(obj, src, os.path.splitext(src)[1], cc_args, extra_postargs, pp_opts)
                with open(obj + ".key", "w", encoding="ascii") as f:
                    f.write(key)
                return time.monotonic()

            begun = time.monotonic()
            # the nvcc jobs first: they are the longest, and the C files fill the other cores meanwhile
            work.sort(key=lambda job: job[0] not in cuda_objects)
            c_work = [job for job in work if job[0] not in cuda_objects]
            c_end = cuda_end = begun
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                for job, end in zip(work, pool.map(build, work)):
                    if job[0] in cuda_objects:
                        cuda_end = max(cuda_end, end)
                    else:
                        c_end = max(c_end, end)
            log("[C sources] %d files on %d cores: %d compiled, %d unchanged (%.1f s)"
                % (len(sources), os.cpu_count() or 1, len(c_work), len(sources) - len(c_work), c_end - begun))
            if cuda_jobs:
                names = ", ".join(os.path.basename(src) for src, _, _ in cuda_jobs)
                if len(work) > len(c_work):
                    log("[CUDA sources] %s compiled by nvcc beside the C sources (%.1f s)" % (names, cuda_end - begun))
                else:
                    log("[CUDA sources] %s unchanged" % names)
            self.compiled_at = time.monotonic()
            return objects

        compiler.compile = compile_all

    # ---- MINITORCH_CUDA=emulate -------------------------------------------------------------------------

    def add_emulated_cuda(self, ext, cu_sources, facts):
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
        log("[configure] emulated CUDA build (MINITORCH_CUDA=emulate): kernels.cu on the host, runtime and "
            "cuBLAS from tests/c, libraries in " + libdir)
        facts.update(cuda_version=EMULATED_CUDA_MAJOR + ".0", archs=["90"], ptx="90",
                     rule="MINITORCH_CUDA=emulate (a host emulation of CUDA, for tests)")
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
        # cuDNN: the host one (tests/c/fake_cudnn.c) under a name no machine has, which cudnn.c is told to load
        subprocess.check_call(cc + ["-std=c11", "-fPIC", "-shared"] + opt + [
            "-I" + os.path.join(ROOT, "tests", "c"), os.path.join(ROOT, "tests", "c", "fake_cudnn.c"),
            "-o", os.path.join(libdir, EMULATED_CUDNN), "-L" + libdir, "-lmt_cudart_emu",
            "-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"])
        ext.extra_objects += objects
        ext.define_macros += [("MINITORCH_WITH_CUDA", "1"),
                              ("MINITORCH_CUDA_VERSION", '"%s.0"' % EMULATED_CUDA_MAJOR),
                              ("MINITORCH_CUDNN_LIBRARY", '"%s"' % EMULATED_CUDNN)]
        ext.include_dirs.insert(0, emu_dir)  # its cuda_runtime.h is the one cuda_runtime.c includes
        ext.library_dirs += [libdir]
        ext.libraries += ["mt_cudart_emu", "dl", "pthread", "stdc++"]
        ext.extra_link_args += ["-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"]
        # -O1 builds in a fraction of -O3's time; at -O1 GCC warns of maybe-uninitialized values it cannot
        # follow, which the normal build does not see
        ext.extra_compile_args = [a if not a.startswith("-O") else opt[0] for a in ext.extra_compile_args]
        ext.extra_compile_args += ["-Wno-maybe-uninitialized"]


def build_epoch():
    """The build's time: SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    try:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    except (KeyError, ValueError):
        return int(time.time())


def headers_digest(include_dirs):
    """One hash of every header (and X-macro table, *.def) in the project's include folders: a header change
    recompiles everything, which is simpler and safer than tracking which source includes which header."""
    digest = hashlib.sha256()
    for folder in include_dirs:
        folder = os.path.abspath(folder)
        if not folder.startswith(ROOT + os.sep):
            continue
        # *.def: X-macro tables (csrc/python/ops.def), included like headers
        paths = glob.glob(os.path.join(folder, "**", "*.h"), recursive=True)
        paths += glob.glob(os.path.join(folder, "**", "*.def"), recursive=True)
        for path in sorted(paths):
            digest.update(path.encode())
            with open(path, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()


def source_key(src, headers):
    with open(src, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest() + " " + headers


EMULATED_CUDA_MAJOR = "99"  # libcublas.so.99: a cuBLAS major no machine has, so only the fake one is found
EMULATED_CUDNN = "libcudnn.so.99"  # the same for cuDNN


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
# -fno-trapping-math: nothing reads the floating-point exception flags either, so the compiler may compute
# both sides of a float comparison's choice (and vectorise such loops) and round to an integer in one
# instruction; values are unchanged (no contraction, no reassociation: those are other flags).
extra_compile_args = ["-O3", "-std=c11", "-fno-strict-aliasing", "-fno-math-errno", "-fno-trapping-math", "-Wall",
                      "-Wno-unused-function", "-Wno-missing-braces"]
if os.environ.get("MINITORCH_DEBUG"):
    extra_compile_args = ["-O0", "-g", "-std=c11", "-Wall"]

if __name__ == "__main__":  # setuptools runs this file as __main__; tests import its functions
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
