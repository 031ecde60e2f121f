"""csrc/kernels/cuda/kernels.cu as host C++ for the CUDA emulation in this directory (cuda_runtime.h).

Used by tests/test_cuda_emulation.py and by setup.py's MINITORCH_CUDA=emulate build. Imports nothing
outside the standard library, so setup.py can load it by path under pip's build isolation."""

import os
import re

LAUNCH = re.compile(r"([A-Za-z_]\w*(?:<[^;()<>]*>)?)\s*<<<(.*?)>>>\s*\((.*?)\);", re.S)
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def rewrite_kernels(source, csrc):
    """kernels.cu for the host: `k<<<grid, block>>>(args);` becomes an emulated launch (emu_launch in
    cuda_runtime.h), and the includes relative to csrc/kernels/cuda become absolute paths under csrc."""
    def launch(match):
        # the arguments are evaluated at the launch, as CUDA evaluates them (a launch may run later, when
        # what they were computed from is gone); the kernel runs on the copies
        name, config, args = match.groups()
        return "{ auto cfg_ = std::make_tuple(%s); auto args_ = std::make_tuple(%s); " \
               "emu_launch(dim3(std::get<0>(cfg_)), dim3(std::get<1>(cfg_)), " \
               "[=] { std::apply(%s, args_); }); }" % (config, args, name)

    expected = source.count("<<<")
    source, count = LAUNCH.subn(launch, source)
    if count != expected:
        raise ValueError("the launch pattern no longer matches every launch (%d of %d rewritten)" % (count, expected))
    here = os.path.join(csrc, "kernels", "cuda")
    source = INCLUDE.sub(lambda m: '#include "%s"' % os.path.normpath(os.path.join(here, m.group(1))), source)
    return "#include <tuple>\n" + source


def rewrite_file(src, dst, csrc):
    """Writes the rewritten src to dst (only when the text changed, so builds stay incremental)."""
    with open(src, encoding="utf-8") as f:
        text = rewrite_kernels(f.read(), csrc)
    if os.path.exists(dst):
        with open(dst, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)
