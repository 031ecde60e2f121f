#!/usr/bin/env bash
# The GPU check: one command for a machine with an NVIDIA GPU, torch, numpy, pytest, Python 3.12 and
# nvcc (no internet needed). It installs minitorch as a learner would (pip, a clean build; the build's
# rule picks this GPU's architecture) and reports what was built, builds in place for the tests, runs the
# whole test suite with a real GPU required (MINITORCH_REQUIRE_GPU=1: a missing GPU fails instead of
# skipping), compares the tutorial's memory numbers with torch's on this GPU (fresh processes, before any
# matmul), runs the tutorial notebook headless when nbclient is installed (wheels in .whl are installed
# first when present), runs the CUDA kernel tests under compute-sanitizer, and prints the benchmark table
# against torch and the build-time table. Budget: under 8 minutes; each step has its own timeout. Exit
# status: 0 when every step passed.
#
#     bash scripts/gpu_check.sh            # everything
#     GPU_CHECK_QUICK=1 bash scripts/gpu_check.sh   # benchmark in its quick mode
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
START=$SECONDS
FAILED=()
step() { printf '\n==== %s (%ds) ====\n' "$*" $((SECONDS - START)); }
BUDGET=${GPU_CHECK_BUDGET:-470}   # seconds for everything; DESIGN.md allows 8 minutes (the later steps get what is left)
run() { # run NAME TIMEOUT CMD...: records a failure instead of stopping, so later steps still report
    local name=$1 limit=$2 left=$((BUDGET - (SECONDS - START)))
    shift 2
    if [ "$left" -lt "$limit" ]; then limit=$left; fi
    if [ "$limit" -le 5 ]; then
        echo "!! no time left for: $name"
        FAILED+=("$name (no time left)")
        return
    fi
    if ! timeout "$limit" "$@"; then
        echo "!! step failed: $name"
        FAILED+=("$name")
    fi
}

step "machine"
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader \
    || echo "nvidia-smi does not work: the build uses the default architecture list"
nvcc --version | tail -1
"$PY" -c "import sys, torch; print('python', sys.version.split()[0], '| torch', torch.__version__, '| torch cuda', torch.version.cuda, '| gpu', torch.cuda.is_available())" || true

# Python packages this machine lacks (the notebook's kernel), as wheels in .whl when the caller brought them
if ls .whl/*.whl > /dev/null 2>&1; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --target /tmp/gpu-check-site .whl/*.whl \
        && export PYTHONPATH="/tmp/gpu-check-site${PYTHONPATH:+:$PYTHONPATH}"
fi

step "the notebook's install cell, as a learner runs it: a clean build, the build's rule picks this GPU"
export MINITORCH_CUDA=1
unset MINITORCH_CUDA_ARCH
rm -rf build/objects
if [ -d .whl ]; then  # no internet here: pip takes setuptools, wheel and the cell's packages from .whl
    export PIP_NO_INDEX=1 PIP_FIND_LINKS="$PWD/.whl"
fi
if "$PY" -c "import nbclient, nbformat, ipykernel" 2>/dev/null; then
    run "install cell" 240 "$PY" scripts/run_notebook.py --install-cell notebooks/gpu_basics.ipynb
else
    echo "nbclient/nbformat/ipykernel are not installed: pip install of the checkout instead"
    run "pip install" 240 "$PY" -m pip install -q --no-build-isolation .
fi
(cd /tmp && "$PY" -m minitorch env) || FAILED+=("python -m minitorch env (the installed copy)")
LOG=${TMPDIR:-/tmp}/minitorch-gpu-check-build.log

step "build in place (the same configuration: the objects are reused)"
if ! timeout 180 "$PY" setup.py build_ext --inplace > "$LOG" 2>&1; then
    tail -40 "$LOG"
    echo "!! the build failed; nothing else can run"
    exit 1
fi
grep "minitorch build:" "$LOG"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"  # the in-place build, for the benchmark and the children
"$PY" -m minitorch || FAILED+=("python -m minitorch")

step "test suite on the GPU (MINITORCH_REQUIRE_GPU=1)"
XDIST=()
if "$PY" -c "import xdist" 2>/dev/null; then
    XDIST=(-n 8 --dist loadfile)  # one file per worker: a file's tests keep their order and process
fi
run "pytest" 220 env MINITORCH_REQUIRE_GPU=1 "$PY" -m pytest -q -p no:cacheprovider --maxfail=25 --durations=5 \
    "${XDIST[@]}"

step "the tutorial's memory numbers against torch on this GPU (fresh processes, no matmul yet)"
run "seed memory sequence" 60 "$PY" - <<'EOF'
import sys
sys.path.insert(0, "tests")
import test_seed_gpu_blocks as seed

blocks = [("2.2 move", seed.BLOCK_2_2_MOVE), ("2.2 copies", seed.BLOCK_2_2_COPIES),
          ("2.3", "import torch\n" + seed.BLOCK_2_3), ("2.4", seed.BLOCK_2_4),
          ("2.2 copies + 2.4", seed.BLOCK_2_2_COPIES + seed.BLOCK_2_4),
          ("all blocks", "".join(seed.BLOCKS))]
bad = 0
for name, source in blocks:
    source += seed.MEMORY
    mt = seed.run_blocks(source, gpus=0, module="minitorch")
    th = seed.run_blocks(source, gpus=0, module="torch")
    same = mt == th
    bad += not same
    print("{:<18} {}".format(name, "same as torch" if same else "DIFFERENT"))
    if not same:
        print("  minitorch:", mt)
        print("  torch:    ", th)
sys.exit(1 if bad else 0)
EOF

step "the tutorial notebook, headless"
if "$PY" -c "import nbclient, nbformat, ipykernel" 2>/dev/null; then
    run "notebook" 90 "$PY" scripts/run_notebook.py notebooks/gpu_basics.ipynb
else
    echo "nbclient/nbformat/ipykernel are not installed: notebook skipped"
fi

step "benchmarks against torch"
if [ -n "${GPU_CHECK_QUICK:-}" ]; then
    run "benchmarks" 90 "$PY" benchmarks/gpu.py --quick
else
    run "benchmarks" 120 "$PY" benchmarks/gpu.py
fi

step "the CUDA kernel tests under compute-sanitizer (memcheck)"
if command -v compute-sanitizer > /dev/null 2>&1; then
    run "compute-sanitizer" 60 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 \
        "$PY" -m pytest -q -p no:cacheprovider -x tests/test_cuda_kernels.py
else
    echo "compute-sanitizer is not installed: skipped"
fi

step "build time: the default architecture list against this GPU's alone"
run "build benchmark" 100 "$PY" benchmarks/build.py

step "done"
if [ ${#FAILED[@]} -gt 0 ]; then
    printf 'failed steps:'
    printf ' [%s]' "${FAILED[@]}"
    printf '\n'
    exit 1
fi
echo "all GPU checks passed in $((SECONDS - START)) s"
