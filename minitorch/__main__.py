"""python -m minitorch: what this machine offers minitorch, then a short walkthrough.

The report follows section 3 of the tutorial (CUDA, the NVIDIA driver, cuDNN): what minitorch was
built with, which CUDA pieces it can see, each GPU (or the simulated one), the CPU, RAM and Python.
The walkthrough creates a tensor on the CPU, moves it to the GPU when there is one, multiplies, and
prints the caching allocator's numbers after each step. ``python -m minitorch env`` prints only the
report. Nothing here may crash: every fact is asked for behind a guard, so that a machine with no GPU,
a CPU-only build, a malformed MINITORCH_SIMULATE_GPU and a core still missing a feature all give a
readable line instead of a traceback. It stays fast: no numpy, no cuBLAS load in the report.
"""

import os
import platform
import sys

import minitorch
from minitorch import _C

USAGE = """usage: python -m minitorch [env]

  (no argument)  the environment report, then a short walkthrough on the CPU and the GPU
  env            only the environment report
"""

NOT_IN_BUILD = "not available in this build"
LABEL_WIDTH = 16


def _line(label, value, note=None):
    print("{:<{w}} {}".format(label, value, w=LABEL_WIDTH))
    if note:
        print("{:<{w}} ({})".format("", note, w=LABEL_WIDTH))


def _size(nbytes):
    """Bytes as the tutorial prints them: GiB above 1 GiB, MiB otherwise."""
    if nbytes >= 1024 ** 3:
        return "{:.2f} GiB".format(nbytes / 1024 ** 3)
    return "{:.2f} MiB".format(nbytes / 1024 ** 2)


def _error(exc):
    return "{}: {}".format(type(exc).__name__, exc)


def _version(value):
    """CUDA-style versions: 12080 -> '12.8', 12 -> '12', strings as they are."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 1000:
            return "{}.{}".format(value // 1000, (value % 1000) // 10)
        return str(value)
    return str(value)


def _runtime_info():
    """minitorch._C._cuda_runtimeInfo(), or {} when this build lacks it or it fails."""
    try:
        info = _C._cuda_runtimeInfo()
    except Exception:  # noqa: BLE001 - a report line, never a crash
        return {}
    return info if isinstance(info, dict) else {}


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for row in f:
                if row.lower().startswith(("model name", "hardware", "cpu model")):
                    return row.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _ram():
    """(used, total) bytes of host RAM, from psutil when installed, else /proc/meminfo; or None."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            mem = psutil.virtual_memory()
            return mem.used, mem.total
        except Exception:  # noqa: BLE001
            pass
    try:
        fields = {}
        with open("/proc/meminfo", encoding="ascii", errors="replace") as f:
            for row in f:
                key, _, value = row.partition(":")
                parts = value.split()
                if parts and parts[0].isdigit():
                    fields[key] = int(parts[0]) * 1024
        total = fields["MemTotal"]
        available = fields.get("MemAvailable", fields.get("MemFree", 0))
        return total - available, total
    except (OSError, KeyError):
        return None


def _report_build():
    where = os.path.dirname(os.path.abspath(minitorch.__file__))
    _line("minitorch", "{} ({})".format(getattr(minitorch, "__version__", "unknown"), where))
    if getattr(_C, "has_cuda", False):
        try:
            archs = ", ".join(minitorch.cuda.get_arch_list()) or "none listed"
        except Exception as exc:  # noqa: BLE001
            archs = _error(exc)
        _line("build", "CUDA build: yes (compiled with CUDA {}; GPU code for {})".format(
            getattr(_C, "cuda_version", None) or "?", archs))
    else:
        _line("build", "CUDA build: no (CPU-only build, compiled without nvcc)",
              "to use a real GPU, build on a machine with the CUDA toolkit: pip install -e .")


def _report_cuda_stack(info):
    has_cuda = getattr(_C, "has_cuda", False)
    runtime = _C._cuda_runtimeVersion() if has_cuda else 0
    _line("CUDA runtime", _version(runtime) if runtime else NOT_IN_BUILD,
          "CUDA: NVIDIA's platform for parallel computing on the GPU's thousands of cores; "
          "PyTorch and minitorch run their GPU work through it")
    driver = _C._cuda_driverVersion() if has_cuda else 0
    if driver:
        driver_text = "supports CUDA " + _version(driver)
    else:
        driver_text = "no NVIDIA driver found" if has_cuda else NOT_IN_BUILD
    _line("NVIDIA driver", driver_text,
          "the driver lets the operating system see and control the GPU; "
          "CUDA needs it installed first")
    cublas = _C._cublas_version() if has_cuda else None
    if cublas:
        cublas_text = _version(cublas)
    else:
        cublas_text = "not found (needed only for matmul on a real GPU)" if has_cuda else NOT_IN_BUILD
    _line("cuBLAS", cublas_text,
          "NVIDIA's matrix-multiplication library; minitorch loads it at the first GPU matmul")
    _line("cuDNN", "not used by minitorch",
          "NVIDIA's library of deep-learning kernels (CNN, RNN, BatchNorm); PyTorch uses it "
          "automatically, minitorch has no such layers")


def _report_devices(info):
    runtime = info.get("runtime", "unknown")
    simulated = bool(info.get("simulated"))
    config_error = info.get("config_error") or ""
    _line("device runtime", runtime)
    if config_error:
        _line("", "MINITORCH_SIMULATE_GPU is malformed: {}".format(config_error))
    if simulated:
        _line("", "NOTE: the GPU is SIMULATED (MINITORCH_SIMULATE_GPU): host memory and CPU kernels "
                  "stand in for a CUDA device, so timings are CPU timings")
    try:
        count = minitorch.cuda.device_count()
    except Exception as exc:  # noqa: BLE001
        _line("GPUs", "unknown ({})".format(_error(exc)))
        return
    if count == 0:
        reason = "minitorch.cuda.is_available() is False"
        try:
            minitorch.cuda.init()
        except Exception as exc:  # noqa: BLE001 - the reason, in torch's words
            reason = _error(exc)
        _line("GPUs", "none ({})".format(reason),
              "in Colab: [Runtime] -> [Change runtime type] -> GPU; "
              "without a GPU, MINITORCH_SIMULATE_GPU=1 presents a simulated one")
        return
    _line("GPUs", str(count))
    for index in range(count):
        label = "  GPU {}".format(index)
        try:
            props = minitorch.cuda.get_device_properties(index)
            text = "{}, compute capability {}.{}, {} multiprocessors".format(
                props.name, props.major, props.minor, props.multi_processor_count)
        except Exception as exc:  # noqa: BLE001
            _line(label, _error(exc))
            continue
        try:
            free, total = minitorch.cuda.mem_get_info(index)
            memory = "memory {} total, {} free".format(_size(total), _size(free))
        except Exception as exc:  # noqa: BLE001
            memory = "memory: {} total (free: {})".format(_size(props.total_memory), _error(exc))
        _line(label, text)
        _line("", memory + (" (simulated)" if simulated else ""))


def _report_host():
    _line("CPU", "{}, {} logical cores".format(_cpu_model(), os.cpu_count() or "?"))
    ram = _ram()
    if ram is None:
        _line("RAM", "unknown (no psutil and no /proc/meminfo)")
    else:
        _line("RAM", "{} used / {} total".format(_size(ram[0]), _size(ram[1])))
    _line("Python", "{} ({}, {})".format(platform.python_version(), platform.python_implementation(),
                                          sys.executable))
    _line("platform", platform.platform())


def report():
    """Prints the environment report. Never raises."""
    title = "minitorch environment report"
    print(title)
    print("=" * len(title))
    info = _runtime_info()
    for section in (_report_build, lambda: _report_cuda_stack(info), lambda: _report_devices(info),
                    _report_host):
        try:
            section()
        except Exception as exc:  # noqa: BLE001 - one broken fact must not hide the others
            _line("error", _error(exc))


def _memory():
    try:
        return "memory_allocated={:,} B, memory_reserved={:,} B".format(
            minitorch.cuda.memory_allocated(), minitorch.cuda.memory_reserved())
    except Exception as exc:  # noqa: BLE001
        return "memory: " + _error(exc)


def walkthrough():
    """Runs the CPU -> GPU -> matmul steps with a one-line explanation each. Returns the number of
    steps that failed (a core feature missing), after printing why."""
    title = "walkthrough"
    print(title)
    print("=" * len(title))
    try:
        gpu = minitorch.cuda.is_available()
    except Exception:  # noqa: BLE001
        gpu = False
    failures = 0
    state = {}

    def step(code, explanation, action):
        nonlocal failures
        print(">>> " + code)
        print("    # " + explanation)
        try:
            result = action()
        except Exception as exc:  # noqa: BLE001
            failures += 1
            print("    step failed: " + _error(exc))
            return False
        if result is not None:
            print("    " + str(result))
        if gpu:
            print("    " + _memory())
        return True

    def create():
        minitorch.manual_seed(0)
        state["x"] = minitorch.randn(256, 256)
        return "x.device = {}, x.shape = {}".format(state["x"].device, tuple(state["x"].shape))

    if not step("x = torch.randn(256, 256)", "a 256x256 float32 tensor in host RAM (the CPU's memory)",
                create):
        return failures
    if gpu:
        def move():
            state["x"] = state["x"].cuda()
            return "x.device = {}".format(state["x"].device)

        step("x = x.cuda()",
             "copies its 256 KiB into the GPU's memory (VRAM); the caching allocator reserves a whole "
             "2 MiB segment for it and keeps the rest for later tensors", move)
    else:
        print(">>> torch.cuda.is_available()  # False")
        print("    # no CUDA device here: the walkthrough stays on the CPU "
              "(MINITORCH_SIMULATE_GPU=1 presents a simulated GPU)")

    def matmul():
        state["y"] = minitorch.matmul(state["x"], state["x"])
        if gpu:
            minitorch.cuda.synchronize()
        return "y.device = {}, y[0][0] = {:.4f}".format(state["y"].device, state["y"].tolist()[0][0])

    step("y = torch.matmul(x, x)", "runs where its inputs live: {}".format(
        "the GPU (cuBLAS), so both operands must be on the same device" if gpu else "the CPU"), matmul)

    def release():
        state.clear()
        if gpu:
            minitorch.cuda.empty_cache()
        return None

    step("del x, y" + ("; torch.cuda.empty_cache()" if gpu else ""),
         "frees the tensors; empty_cache() hands the now-empty cached blocks back to the driver"
         if gpu else "frees the tensors", release)
    return failures


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if args not in ([], ["env"]):
        sys.stderr.write(USAGE)
        return 2
    report()
    if args == ["env"]:
        return 0
    print()
    failures = walkthrough()
    if failures:
        print("\n{} walkthrough step(s) failed: this minitorch lacks a feature they need".format(failures))
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.stdout.reconfigure(errors="replace")
    except (AttributeError, ValueError):
        pass
    sys.exit(main())
