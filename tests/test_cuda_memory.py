"""The CUDA caching allocator seen from Python: memory_allocated(), memory_reserved(), memory_stats(),
memory_summary(), empty_cache() and out-of-memory errors must print torch's numbers and text.

Every scenario runs in a fresh Python process on the simulated GPU (MINITORCH_SIMULATE_GPU=1, or =2 for
the per-device scenarios), because the numbers depend on everything the process allocated before. So
these tests run, and must pass, in the plain CPU test run as well as under simulation. The expected
numbers are PyTorch's, derived by hand from c10/cuda/CUDACachingAllocator.cpp in
shared/reference/torch-semantics.md section 1 (the comment above each expectation says why). They hold on
a real GPU too, as long as no CUDA matmul has run (the cuBLAS workspace, reference 1.4).
This file owns the Python-level allocator tests; the C-level ones are in test_allocator_c.py.
"""

import json
import textwrap

import pytest

from subproc import run_python

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30

ONE_GIB_DEVICE = {"MINITORCH_SIMULATE_GPU_MEMORY": "1GiB"}

PRELUDE = """\
import minitorch as torch

def m(label):
    print('{}: {} {}'.format(label, torch.cuda.memory_allocated(), torch.cuda.memory_reserved()))

def stat(key):
    return torch.cuda.memory_stats()[key]
"""

# The end of torch's out-of-memory message (two double spaces included). Its wording moved between
# releases: "...PYTORCH_CUDA_ALLOC_CONF=... (https://pytorch.org/docs/stable/notes/cuda.html#environment-
# variables)" up to about 2.9, "PYTORCH_ALLOC_CONF=..." with the same link in early 2026 (2.10), and, since
# pytorch/pytorch#172327 (January 2026), the text below: it is what torch 2.11+ prints in 2026 CI logs
# (e.g. huggingface/trl#5750, May 2026), so it is torch 2.13's. Reference 1.5 quotes the older text.
OOM_TAIL = (
    " If reserved but unallocated memory is large try setting"
    " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation"
    " for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html"
    "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
)


def run(code, gpus=1, env=None):
    """The stdout of PRELUDE + code in a fresh simulated-GPU process; fails on a non-zero exit."""
    result = run_python(PRELUDE + textwrap.dedent(code), simulate_gpu=gpus, env=env)
    assert result.returncode == 0, "child process failed:\n" + result.stdout + result.stderr
    return result.stdout


def lines(text):
    return textwrap.dedent(text).strip("\n") + "\n"


def format_size(size):
    """torch's format_size (CUDACachingAllocator.cpp): thresholds are <=, so 1 GiB is '1024.00 MiB'."""
    if size <= 1024:
        return "{} bytes".format(size)
    if size <= 1048576:
        return "{:.2f} KiB".format(size / 1024)
    if size <= 1073741824:
        return "{:.2f} MiB".format(size / 1048576)
    return "{:.2f} GiB".format(size / 1073741824)


def oom_message(tried, total, free, allocated, reserved, device=0):
    return (
        "CUDA out of memory. Tried to allocate {}. GPU {} has a total capacity of {} of which {} is free."
        " Of the allocated memory {} is allocated by PyTorch, and {} is reserved by PyTorch but"
        " unallocated.".format(format_size(tried), device, format_size(total), format_size(free),
                               format_size(allocated), format_size(reserved - allocated))
        + OOM_TAIL
    )


def test_format_size_helper_matches_the_reference():
    # reference 1.5: <= thresholds, two decimals
    assert format_size(1024) == "1024 bytes"
    assert format_size(1025) == "1.00 KiB"
    assert format_size(MiB) == "1024.00 KiB"
    assert format_size(GiB) == "1024.00 MiB"
    assert format_size(2 * GiB) == "2.00 GiB"
    assert format_size(16971264) == "16.19 MiB"


# ---- the acceptance numbers and the worked example of reference 1.3 ----------------------------


def test_acceptance_sequence():
    out = run("""
        x = torch.randn(1000, 1000, device='cuda')
        m('x')
        z = x.cpu().cuda()
        m('z')
        del x
        torch.cuda.empty_cache()
        m('del x, empty_cache')
        del z
        torch.cuda.empty_cache()
        m('del z, empty_cache')
    """)
    assert out == lines("""
        x: 4000256 20971520
        z: 8000512 20971520
        del x, empty_cache: 4000256 20971520
        del z, empty_cache: 0 0
    """)


def test_reference_worked_example_step_by_step():
    # 4,000,000 bytes round to 4,000,256 in the large pool; a 20 MiB segment is split; the D2H copy
    # allocates nothing on the device; z takes the best-fit remainder; x cannot merge with z.
    out = run("""
        x = torch.randn(1000, 1000, device='cuda')
        m('x')
        y = x.cpu()
        m('y = x.cpu()')
        z = y.cuda()
        m('z = y.cuda()')
        del x
        m('del x')
        torch.cuda.empty_cache()
        m('empty_cache')
        print('peak', torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
        print('inactive_split', stat('inactive_split.all.current'), stat('inactive_split_bytes.all.current'))
        del z
        m('del z')
        torch.cuda.empty_cache()
        m('del z, empty_cache')
    """)
    assert out == lines("""
        x: 4000256 20971520
        y = x.cpu(): 4000256 20971520
        z = y.cuda(): 8000512 20971520
        del x: 4000256 20971520
        empty_cache: 4000256 20971520
        peak 8000512 20971520
        inactive_split 2 16971264
        del z: 0 20971520
        del z, empty_cache: 0 0
    """)


def test_small_tensors_use_a_2mib_segment():
    out = run("""
        a = torch.tensor([[1, 2], [3, 4]], device='cuda')
        m('int64 2x2')
        del a
        torch.cuda.empty_cache()
        b = torch.tensor([[1., 2.], [3., 4.]], device='cuda')
        m('float32 2x2')
        print(stat('allocation.all.allocated'), stat('requested_bytes.all.current'))
    """)
    # 32 bytes (16 for float32) round to 512 in the small pool, which grows by 2 MiB segments
    assert out == lines("""
        int64 2x2: 512 2097152
        float32 2x2: 512 2097152
        2 16
    """)


def test_small_tensor_together_with_x():
    out = run("""
        x = torch.randn(1000, 1000, device='cuda')
        a = torch.tensor([[1, 2], [3, 4]], device='cuda')
        m('x and a')
    """)
    assert out == lines("""
        x and a: 4000768 23068672
    """)


def test_12mib_tensor_reserves_exactly_12mib():
    out = run("""
        t = torch.empty(3 * 2**20, device='cuda')
        m('12 MiB float32')
        print(stat('segment.all.current'), stat('inactive_split.all.current'))
    """)
    # 10 MiB and more: a segment of the request rounded up to 2 MiB, nothing left to split
    assert out == lines("""
        12 MiB float32: 12582912 12582912
        1 0
    """)


def test_5mib_plus_one_float32():
    out = run("""
        t = torch.empty(5 * 2**20 + 1, device='cuda')
        m('5*2**20+1 float32')
    """)
    # 20,971,524 bytes -> 20,972,032; segment 2 MiB * ceil(.) = 23,068,672; the 2,096,640-byte rest is
    # more than 1 MiB, so the block is split and only the rounded request counts as allocated
    assert out == lines("""
        5*2**20+1 float32: 20972032 23068672
    """)


@pytest.mark.parametrize(
    "nbytes, allocated, reserved",
    [
        (1, 512, 2 * MiB),
        (512, 512, 2 * MiB),
        (513, 1024, 2 * MiB),
        (MiB, MiB, 2 * MiB),                         # exactly 1 MiB is still the small pool
        (MiB + 1, MiB + 512, 20 * MiB),              # large pool, a 20 MiB segment
        (10 * MiB - 512, 10 * MiB - 512, 20 * MiB),  # under 10 MiB: 20 MiB segment, the rest split off
        (10 * MiB - 1, 10 * MiB, 10 * MiB),          # rounds to 10 MiB, so the segment rule sees 10 MiB
        (10 * MiB, 10 * MiB, 10 * MiB),              # 10 MiB exactly: its own segment
        (10 * MiB + 1, 10 * MiB + 512, 12 * MiB),    # 12 MiB segment, 2,096,640 bytes split off
        (19 * MiB + 1, 20 * MiB, 20 * MiB),          # remainder under 1 MiB: the whole block counts
    ],
)
def test_rounding_and_segment_sizes(nbytes, allocated, reserved):
    # bool tensors have one byte per element, so any request size can be made
    out = run("""
        t = torch.empty({}, dtype=torch.bool, device='cuda')
        m('t')
        print(stat('requested_bytes.all.current'))
    """.format(nbytes))
    assert out == "t: {} {}\n{}\n".format(allocated, reserved, nbytes)


def test_five_blocks_of_4000256_share_one_segment():
    out = run("""
        xs = []
        for i in range(5):
            xs.append(torch.randn(1000, 1000, device='cuda'))
            m(str(i + 1))
        print('requested', stat('requested_bytes.all.current'), 'segments', stat('segment.all.current'))
        xs.append(torch.randn(1000, 1000, device='cuda'))
        m('6')
    """)
    # the 5th gets the whole 4,970,496-byte rest (not more than 1 MiB would remain after a split)
    assert out == lines("""
        1: 4000256 20971520
        2: 8000512 20971520
        3: 12000768 20971520
        4: 16001024 20971520
        5: 20971520 20971520
        requested 20000000 segments 1
        6: 24971776 41943040
    """)


def test_best_fit_takes_the_smallest_block_that_is_large_enough():
    out = run("""
        a = torch.empty(3 * 2**20, device='cuda')     # 12 MiB, own segment
        b = torch.empty(4 * 2**20, device='cuda')     # 16 MiB, own segment
        del a, b
        m('cached 12 MiB and 16 MiB')
        c = torch.empty(11 * 2**20, dtype=torch.bool, device='cuda')
        m('11 MiB request')
        d = torch.empty(14 * 2**20, dtype=torch.bool, device='cuda')
        m('14 MiB request')
        e = torch.empty(3 * 2**19, dtype=torch.bool, device='cuda')
        m('1.5 MiB request')
        print(stat('num_device_alloc'))
    """)
    # 11 MiB takes the 12 MiB block (best fit), whole because only 1 MiB would remain; had it taken
    # the 16 MiB block it would be split and count 11 MiB. 14 MiB takes the 16 MiB block and splits it
    # (2 MiB > 1 MiB remains). 1.5 MiB fits that 2 MiB rest, whole (512 KiB would remain). No new
    # segment is ever made.
    assert out == lines("""
        cached 12 MiB and 16 MiB: 0 29360128
        11 MiB request: 12582912 29360128
        14 MiB request: 27262976 29360128
        1.5 MiB request: 29360128 29360128
        2
    """)


def test_free_blocks_merge_with_free_neighbours():
    out = run("""
        x = torch.empty(10**6, device='cuda')
        y = torch.empty(10**6, device='cuda')
        z = torch.empty(10**6, device='cuda')
        m('x y z')
        del y
        del x
        m('del y, del x')
        print('inactive_split', stat('inactive_split.all.current'))
        w = torch.empty(2 * 10**6, device='cuda')
        m('w')
        del w, z
        print('inactive_split', stat('inactive_split.all.current'))
        torch.cuda.empty_cache()
        m('empty_cache')
    """)
    # x and y merge into one 8,000,512-byte free block, the best fit for w's 8,000,000 bytes (whole:
    # 512 bytes would remain). Without merging, w would take the 8,970,752-byte tail instead and
    # memory_allocated() would read 12,971,008. Freeing everything merges the segment back whole,
    # and empty_cache releases it.
    assert out == lines("""
        x y z: 12000768 20971520
        del y, del x: 4000256 20971520
        inactive_split 2
        w: 12000768 20971520
        inactive_split 0
        empty_cache: 0 0
    """)


def test_empty_cache_releases_only_whole_free_segments():
    out = run("""
        big = torch.empty(3 * 2**20, device='cuda')                  # own 12 MiB segment
        x = torch.randn(1000, 1000, device='cuda')                   # 20 MiB segment
        x2 = torch.randn(1000, 1000, device='cuda')                  # same segment
        s1 = torch.zeros(1, device='cuda')                           # 2 MiB small segment
        s2 = torch.zeros(1, device='cuda')
        m('all live')
        del big, x2, s2
        m('freed big, x2, s2')
        torch.cuda.empty_cache()
        m('empty_cache')
        print(stat('num_device_free'), stat('segment.all.current'))
        del x, s1
        torch.cuda.empty_cache()
        m('all freed, empty_cache')
        print(stat('num_device_alloc'), stat('num_device_free'))
    """)
    assert out == lines("""
        all live: 20584448 35651584
        freed big, x2, s2: 4000768 35651584
        empty_cache: 4000768 23068672
        1 2
        all freed, empty_cache: 0 0
        3 3
    """)


def test_zero_size_tensors_allocate_nothing():
    out = run("""
        a = torch.empty(0, device='cuda')
        b = torch.tensor([], device='cuda')
        c = torch.zeros(0, 3, device='cuda')
        m('empty tensors')
        print(torch.cuda.is_initialized(), stat('allocation.all.allocated'), a.device, b.shape, c.shape)
    """)
    assert out == lines("""
        empty tensors: 0 0
        True 0 cuda:0 minitorch.Size([0]) minitorch.Size([0, 3])
    """)


def test_views_keep_the_block_alive():
    out = run("""
        x = torch.randn(1000, 1000, device='cuda')
        v = x.view(-1)
        row = x[3]
        del x
        m('views alive')
        del v
        m('row alive')
        del row
        m('all gone')
    """)
    assert out == lines("""
        views alive: 4000256 20971520
        row alive: 4000256 20971520
        all gone: 0 20971520
    """)


def test_each_factory_makes_exactly_one_allocation():
    out = run("""
        x = torch.zeros(1000, 1000, device='cuda')
        cases = [
            ('zeros', lambda: torch.zeros(1000, 1000, device='cuda')),
            ('ones', lambda: torch.ones(1000, 1000, device='cuda')),
            ('empty', lambda: torch.empty(1000, 1000, device='cuda')),
            ('full', lambda: torch.full((1000, 1000), 2.5, device='cuda')),
            ('rand', lambda: torch.rand(1000, 1000, device='cuda')),
            ('randn', lambda: torch.randn(1000, 1000, device='cuda')),
            ('randint', lambda: torch.randint(0, 10, (1000, 1000), dtype=torch.int32, device='cuda')),
            ('arange', lambda: torch.arange(10**6, dtype=torch.float32, device='cuda')),
            ('eye', lambda: torch.eye(1000, device='cuda')),
            ('zeros_like', lambda: torch.zeros_like(x)),
            ('ones_like', lambda: torch.ones_like(x)),
            ('empty_like', lambda: torch.empty_like(x)),
            ('full_like', lambda: torch.full_like(x, 7.0)),
            ('rand_like', lambda: torch.rand_like(x)),
            ('randn_like', lambda: torch.randn_like(x)),
            ('tensor', lambda: torch.tensor([[1.5] * 1000] * 1000, device='cuda')),
            ('to', lambda: torch.ones(1000, 1000).to('cuda')),
            ('cuda', lambda: torch.ones(1000, 1000).cuda()),
            ('to dtype', lambda: torch.ones(1000, 1000, dtype=torch.int32, device='cuda').to(torch.float32)),
        ]
        for name, make in cases:
            before = stat('allocation.all.allocated')
            t = make()
            allocated = torch.cuda.memory_allocated()
            n = stat('allocation.all.allocated') - before
            del t
            print(name, n, allocated - torch.cuda.memory_allocated())
    """)
    names = ["zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "eye", "zeros_like",
             "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "tensor", "to", "cuda"]
    want = "".join("{} 1 4000256\n".format(n) for n in names)
    # the int32 source of 'to dtype' is freed after the float32 copy exists: two allocations, one kept
    want += "to dtype 2 4000256\n"
    assert out == want


# ---- statistics -----------------------------------------------------------------------------------


def test_max_memory_and_reset_peak_memory_stats():
    out = run("""
        x = torch.randn(1000, 1000, device='cuda')
        z = x.cpu().cuda()
        del x
        print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
        torch.cuda.reset_peak_memory_stats()
        print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
        del z
        torch.cuda.empty_cache()
        print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
        torch.cuda.reset_peak_memory_stats(0)
        print(torch.cuda.max_memory_allocated(0), torch.cuda.max_memory_reserved('cuda:0'))
        big = torch.empty(3 * 2**20, device='cuda')
        del big
        print(torch.cuda.max_memory_allocated(torch.device('cuda:0')), torch.cuda.max_memory_reserved())
        print(stat('allocated_bytes.all.allocated'), stat('allocated_bytes.all.freed'))
    """)
    # peaks are reset to the current values, not to zero
    assert out == lines("""
        8000512 20971520
        4000256 20971520
        4000256 20971520
        0 0
        12582912 12582912
        20583424 20583424
    """)


def test_reset_peak_memory_stats_before_first_use_initializes():
    # torch resolves device=None through current_device(), which initialises CUDA
    out = run("""
        print(torch.cuda.is_initialized())
        torch.cuda.reset_peak_memory_stats()
        print(torch.cuda.is_initialized(), torch.cuda.max_memory_allocated())
    """)
    assert out == "False\nTrue 0\n"


def test_memory_functions_before_first_use_do_not_initialize():
    out = run("""
        print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated(),
              torch.cuda.max_memory_reserved(), torch.cuda.memory_allocated(0), torch.cuda.memory_reserved('cuda:0'))
        print(repr(torch.cuda.memory_stats()))
        torch.cuda.empty_cache()
        d = torch.device('cuda')
        print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_initialized())
        t = torch.zeros(1, device='cuda')
        print(torch.cuda.is_initialized())
    """)
    assert out == lines("""
        0 0 0 0 0 0
        OrderedDict()
        True 1 False
        True
    """)


MEMORY_STAT_KEYS = sorted(
    ["{}.{}.{}".format(stat, pool, metric)
     for stat in ("allocation", "segment", "active", "inactive_split", "allocated_bytes", "reserved_bytes",
                  "active_bytes", "inactive_split_bytes", "requested_bytes")
     for pool in ("all", "large_pool", "small_pool")
     for metric in ("current", "peak", "allocated", "freed")]
    + ["{}.{}".format(stat, metric)
       for stat in ("oversize_allocations", "oversize_segments")
       for metric in ("current", "peak", "allocated", "freed")]
    # torch/cuda/memory.py (2.13) documents num_oom_rejections with the other event counters; the
    # per-private-pool reserved_bytes_by_private_pools dict is empty without CUDA graphs, so it adds
    # no flattened key.
    + ["num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc", "num_device_free",
       "num_oom_rejections", "max_split_size"]
)


def test_memory_stats_keys_and_values():
    out = run("""
        import json
        x = torch.randn(1000, 1000, device='cuda')
        s = torch.cuda.memory_stats()
        print(type(s).__name__, list(s) == sorted(s))
        print(json.dumps(dict(s)))
    """)
    head, body = out.split("\n", 1)
    assert head == "OrderedDict True"
    stats = json.loads(body)
    assert sorted(stats) == MEMORY_STAT_KEYS
    assert len(stats) == 123
    assert all(isinstance(v, int) for v in stats.values())
    nonzero = {k: v for k, v in stats.items() if v}
    want = {"max_split_size": -1, "num_device_alloc": 1}  # SIZE_MAX cast to int64 is -1, as torch prints
    for stat, value in (("allocation", 1), ("active", 1), ("segment", 1), ("inactive_split", 1),
                        ("allocated_bytes", 4000256), ("active_bytes", 4000256), ("requested_bytes", 4000000),
                        ("reserved_bytes", 20971520), ("inactive_split_bytes", 16971264)):
        for pool in ("all", "large_pool"):
            for metric in ("current", "peak", "allocated"):
                want["{}.{}.{}".format(stat, pool, metric)] = value
    assert nonzero == want


def test_memory_stats_small_pool_and_counts_after_frees():
    out = run("""
        a = torch.zeros(3, device='cuda')
        b = torch.zeros(300, device='cuda')
        del a
        s = torch.cuda.memory_stats('cuda:0')
        for k in ('allocation', 'active', 'segment', 'inactive_split', 'allocated_bytes', 'requested_bytes',
                  'reserved_bytes', 'inactive_split_bytes'):
            print(k, [s[k + '.small_pool.' + f] for f in ('current', 'peak', 'allocated', 'freed')],
                  s[k + '.large_pool.allocated'])
    """)
    # a (512) and b (1,536) are carved from one 2 MiB segment; freeing a leaves a free 512-byte block
    # in front of b: two inactive split blocks (a's hole and the tail) while b is alive
    assert out == lines("""
        allocation [1, 2, 2, 1] 0
        active [1, 2, 2, 1] 0
        segment [1, 1, 1, 0] 0
        inactive_split [2, 2, 2, 0] 0
        allocated_bytes [1536, 2048, 2048, 512] 0
        requested_bytes [1200, 1212, 1212, 12] 0
        reserved_bytes [2097152, 2097152, 2097152, 0] 0
        inactive_split_bytes [2095616, 2096640, 2097152, 1536] 0
    """)


SUMMARY_X = """\
|===========================================================================|
|                  PyTorch CUDA memory summary, device ID 0                 |
|---------------------------------------------------------------------------|
|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |
|===========================================================================|
|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
|---------------------------------------------------------------------------|
| Allocated memory      |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from large pool |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Active memory         |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from large pool |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Requested memory      |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from large pool |   3906 KiB |   3906 KiB |   3906 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| GPU reserved memory   |  20480 KiB |  20480 KiB |  20480 KiB |      0 B   |
|       from large pool |  20480 KiB |  20480 KiB |  20480 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Non-releasable memory |  16573 KiB |  16573 KiB |  16573 KiB |      0 B   |
|       from large pool |  16573 KiB |  16573 KiB |  16573 KiB |      0 B   |
|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |
|---------------------------------------------------------------------------|
| Allocations           |       1    |       1    |       1    |       0    |
|       from large pool |       1    |       1    |       1    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Active allocs         |       1    |       1    |       1    |       0    |
|       from large pool |       1    |       1    |       1    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| GPU reserved segments |       1    |       1    |       1    |       0    |
|       from large pool |       1    |       1    |       1    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Non-releasable allocs |       1    |       1    |       1    |       0    |
|       from large pool |       1    |       1    |       1    |       0    |
|       from small pool |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Oversize allocations  |       0    |       0    |       0    |       0    |
|---------------------------------------------------------------------------|
| Oversize GPU segments |       0    |       0    |       0    |       0    |
|===========================================================================|
"""


def _abbreviate(summary):
    return "".join(line + "\n" for line in summary.splitlines() if "from large pool" not in line
                   and "from small pool" not in line)


def test_memory_summary_layout():
    out = run("""
        import json
        x = torch.randn(1000, 1000, device='cuda')
        print(json.dumps([torch.cuda.memory_summary(), torch.cuda.memory_summary(0, abbreviated=True),
                          torch.cuda.memory_summary(device='cuda:0', abbreviated=False)]))
    """)
    full, abbreviated, by_name = json.loads(out)
    assert full == SUMMARY_X
    assert abbreviated == _abbreviate(SUMMARY_X)
    assert by_name == SUMMARY_X
    assert all(len(line) == 77 for line in full.splitlines())


def test_memory_summary_before_first_use_is_all_zeros():
    out = run("""
        import json
        print(json.dumps([torch.cuda.is_initialized(), torch.cuda.memory_summary(), torch.cuda.is_initialized()]))
    """)
    before, summary, after = json.loads(out)
    assert (before, after) == (False, True)
    assert "| Allocated memory      |      0 B   |      0 B   |      0 B   |      0 B   |" in summary.splitlines()
    assert len(summary.splitlines()) == len(SUMMARY_X.splitlines())


def test_memory_summary_matches_torch_formatting_of_the_same_stats():
    pytest.importorskip("torch")
    from unittest import mock

    import torch.cuda.memory as torch_memory

    out = run("""
        import json
        keep = [torch.randn(1000, 1000, device='cuda') for _ in range(40)]
        keep += [torch.zeros(10, device='cuda') for _ in range(1500)]
        del keep[::3]
        try:
            torch.empty(2**29, device='cuda')
        except torch.OutOfMemoryError:
            pass
        print(json.dumps([dict(torch.cuda.memory_stats()), torch.cuda.memory_summary(),
                          torch.cuda.memory_summary(abbreviated=True)]))
    """, env=ONE_GIB_DEVICE)
    stats, full, abbreviated = json.loads(out)
    with mock.patch.object(torch_memory, "memory_stats", lambda device=None: stats), \
            mock.patch.object(torch_memory, "_get_device_index", lambda device, optional=False: 0):
        assert full == torch_memory.memory_summary()
        assert abbreviated == torch_memory.memory_summary(abbreviated=True)


# ---- out of memory ----------------------------------------------------------------------------------

def test_oom_2gib_on_a_1gib_device_then_a_small_allocation_works():
    out = run("""
        import json
        try:
            t = torch.empty(2**29, device='cuda')          # 2 GiB of float32
            print('no error')
        except torch.cuda.OutOfMemoryError as e:
            print(json.dumps([type(e).__name__, isinstance(e, RuntimeError), str(e)]))
        m('after OOM')
        s = torch.ones(3, device='cuda')
        m('small')
        print(s.tolist(), stat('num_ooms'), stat('num_alloc_retries'))
    """, env=ONE_GIB_DEVICE)
    first, rest = out.split("\n", 1)
    name, is_runtime_error, message = json.loads(first)
    assert (name, is_runtime_error) == ("OutOfMemoryError", True)
    assert message == oom_message(2 * GiB, GiB, GiB, 0, 0)
    assert message.startswith("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
                              "1024.00 MiB of which 1024.00 MiB is free. Of the allocated memory 0 bytes is "
                              "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.")
    assert rest == lines("""
        after OOM: 0 0
        small: 512 2097152
        [1.0, 1.0, 1.0] 1 1
    """)


def test_oom_message_reports_live_and_cached_memory():
    out = run("""
        import json
        x = torch.randn(1000, 1000, device='cuda')
        try:
            torch.randn(2**15, 2**14, device='cuda')
        except torch.OutOfMemoryError as e:
            print(json.dumps(str(e)))
        m('after')
        print(torch.cuda.mem_get_info())
    """, env=ONE_GIB_DEVICE)
    first, rest = out.split("\n", 1)
    # "1004.00 MiB is free": the simulated device has no CUDA context, so free = total - reserved
    assert json.loads(first) == oom_message(2 * GiB, GiB, GiB - 20 * MiB, 4000256, 20 * MiB)
    assert "of which 1004.00 MiB is free. Of the allocated memory 3.81 MiB is allocated by PyTorch, and " \
           "16.19 MiB is reserved by PyTorch but unallocated." in json.loads(first)
    assert rest == "after: 4000256 20971520\n({}, {})\n".format(GiB - 20 * MiB, GiB)


def test_oom_frees_cached_segments_before_failing():
    out = run("""
        import json
        cached = torch.empty(3 * 2**20, device='cuda')
        del cached
        m('cached')
        try:
            torch.empty(2**29, device='cuda')
        except torch.OutOfMemoryError as e:
            print(json.dumps(str(e)))
        m('after')
        print(stat('num_alloc_retries'), stat('num_ooms'), stat('num_device_free'))
    """, env=ONE_GIB_DEVICE)
    cached, message, after, counts = out.splitlines()
    assert cached == "cached: 0 12582912"
    # the cached 12 MiB segment is released and the allocation retried before the error is raised
    assert json.loads(message) == oom_message(2 * GiB, GiB, GiB, 0, 0)
    assert (after, counts) == ("after: 0 0", "1 1 1")


def test_oom_retry_after_freeing_the_cache_succeeds():
    out = run("""
        a = torch.empty(600 * 2**18, device='cuda')    # 600 MiB
        del a
        b = torch.empty(700 * 2**18, device='cuda')    # 700 MiB: fits only once the cache is released
        m('b')
        print(stat('num_alloc_retries'), stat('num_ooms'))
    """, env=ONE_GIB_DEVICE)
    assert out == "b: {0} {0}\n1 0\n".format(700 * MiB)


def test_oom_reports_the_segment_size_not_the_tensor_size():
    out = run("""
        import json
        filler = torch.empty(1010 * 2**18, device='cuda')  # 1010 MiB, 14 MiB left on the device
        try:
            x = torch.randn(1000, 1000, device='cuda')     # 4 MB, but needs a 20 MiB segment
        except torch.OutOfMemoryError as e:
            print(json.dumps(str(e)))
    """, env=ONE_GIB_DEVICE)
    assert json.loads(out) == oom_message(20 * MiB, GiB, 14 * MiB, 1010 * MiB, 1010 * MiB)


def test_oom_more_than_1eb():
    out = run("""
        import json
        try:
            torch.empty(2**58, device='cuda')        # 2**60 bytes
        except torch.OutOfMemoryError as e:
            print(json.dumps(str(e)))
        m('after')
        print(stat('num_ooms'))
    """)
    assert out == lines("""
        "CUDA out of memory. Tried to allocate more than 1EB memory."
        after: 0 0
        0
    """)


def test_out_of_memory_error_is_exported_like_torch():
    out = run("""
        print(torch.cuda.OutOfMemoryError is torch.OutOfMemoryError, issubclass(torch.OutOfMemoryError, RuntimeError),
              torch.OutOfMemoryError.__name__)
    """)
    assert out == "True True OutOfMemoryError\n"


# ---- no caching -------------------------------------------------------------------------------------


def test_no_cuda_memory_caching_bypasses_the_statistics():
    # torch's PYTORCH_NO_CUDA_MEMORY_CACHING path is a plain cudaMalloc/cudaFree that never touches
    # the caching allocator's statistics
    out = run("""
        x = torch.arange(10, device='cuda')
        y = torch.randn(1000, 1000, device='cuda')
        m('live')
        print(x.tolist(), (y.cpu().cuda().cpu().tolist() == y.tolist()))
        del x, y
        torch.cuda.empty_cache()
        m('freed')
        print(stat('num_device_alloc'), stat('allocation.all.allocated'), torch.cuda.max_memory_allocated())
    """, env={"MINITORCH_NO_CUDA_MEMORY_CACHING": "1"})
    assert out == lines("""
        live: 0 0
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] True
        freed: 0 0
        0 0 0
    """)


# ---- threads ----------------------------------------------------------------------------------------


def test_eight_threads_allocating_and_freeing_end_with_exact_statistics():
    # The cache is first filled with 16 segments of exactly 12 MiB and one small segment. Each thread
    # then holds at most two 12 MiB tensors (an exact fit for a cached segment, never split) and a few
    # 512-byte blocks, so no interleaving can need a new segment: every number below is exact.
    out = run("""
        import threading
        warm = [torch.empty(3 * 2**20, device='cuda') for _ in range(16)]
        warm.append(torch.zeros(1, device='cuda'))
        del warm
        m('warm')
        ROUNDS = 100
        errors = []
        barrier = threading.Barrier(8)

        def work(seed):
            try:
                barrier.wait()
                for k in range(ROUNDS):
                    a = torch.empty(3 * 2**20, device='cuda')
                    b = torch.ones(3 * 2**20, device='cuda')
                    small = [torch.full((1 + (seed * 31 + k * 7 + j) % 128,), float(j), device='cuda')
                             for j in range(6)]
                    moved = small[0].cpu().cuda()
                    assert moved.tolist() == [0.0] * len(moved.tolist())
                    del a, b, small, moved
            except BaseException as e:
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print('errors', errors)
        m('joined')
        print(stat('allocation.all.current'), stat('allocation.all.allocated'), stat('active.all.current'),
              stat('requested_bytes.all.current'), stat('segment.all.current'), stat('num_device_alloc'))
        print(stat('allocated_bytes.all.allocated') == stat('allocated_bytes.all.freed'))
        torch.cuda.empty_cache()
        m('empty_cache')
        print(stat('segment.all.current'), stat('num_device_free'), stat('inactive_split.all.current'))
    """)
    allocations = 17 + 8 * 100 * (2 + 6 + 1)
    assert out == lines("""
        warm: 0 {reserved}
        errors []
        joined: 0 {reserved}
        0 {allocations} 0 0 17 17
        True
        empty_cache: 0 0
        0 17 0
    """).format(reserved=16 * 12 * MiB + 2 * MiB, allocations=allocations)


def test_threads_with_random_sizes_leave_nothing_allocated():
    out = run("""
        import random, threading
        errors = []

        def work(seed):
            rng = random.Random(seed)
            try:
                live = []
                for k in range(300):
                    n = rng.choice([1, 7, 300, 5000, 2**18 + 3, 2**20, 3 * 2**20 + 11])
                    live.append(torch.empty(n, dtype=rng.choice([torch.bool, torch.float32]), device='cuda'))
                    if len(live) > 4 or rng.random() < 0.3:
                        live.pop(rng.randrange(len(live)))
                del live
            except BaseException as e:
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print('errors', errors)
        print(torch.cuda.memory_allocated(), stat('allocation.all.current'), stat('allocation.all.allocated'),
              stat('active_bytes.all.current'), stat('requested_bytes.all.current'))
        torch.cuda.empty_cache()
        m('empty_cache')
        print(stat('inactive_split.all.current'), stat('inactive_split_bytes.all.current'),
              stat('num_device_alloc') == stat('num_device_free'))
    """)
    assert out == lines("""
        errors []
        0 0 2400 0 0
        empty_cache: 0 0
        0 0 True
    """)


# ---- several devices ---------------------------------------------------------------------------------


def test_statistics_are_per_device():
    out = run("""
        x = torch.randn(1000, 1000, device='cuda:1')
        for d in (0, 1, 'cuda:1', torch.device('cuda', 1)):
            print(d, torch.cuda.memory_allocated(d), torch.cuda.memory_reserved(d))
        m('current device 0')
        with torch.cuda.device(1):
            m('inside cuda.device(1)')
        y = x.to('cuda:0')
        z = y.to(1)
        print(torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1), torch.cuda.max_memory_allocated(1))
        print(y.device, z.device, y.tolist() == x.tolist() == z.tolist())
        del x, z
        torch.cuda.empty_cache()
        print(torch.cuda.memory_reserved(0), torch.cuda.memory_reserved(1))
        torch.cuda.reset_peak_memory_stats(1)
        print(torch.cuda.max_memory_allocated(1), torch.cuda.max_memory_allocated(0))
        print(torch.cuda.mem_get_info(1)[0] == torch.cuda.mem_get_info(1)[1])
    """, gpus=2)
    assert out == lines("""
        0 0 0
        1 4000256 20971520
        cuda:1 4000256 20971520
        cuda:1 4000256 20971520
        current device 0: 0 0
        inside cuda.device(1): 4000256 20971520
        4000256 8000512 8000512
        cuda:0 cuda:1 True
        20971520 0
        0 4000256
        True
    """)


def test_set_device_changes_where_cuda_allocates():
    out = run("""
        torch.cuda.set_device(1)
        a = torch.zeros(2, 2, device='cuda')
        b = torch.tensor([1, 2]).cuda()
        print(a.device, b.device, torch.cuda.current_device())
        print(torch.cuda.memory_allocated(), torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1))
    """, gpus=2)
    assert out == "cuda:1 cuda:1 1\n1024 0 1024\n"
