"""A Python number converted to a tensor's dtype: torch's checked conversion (c10::checked_convert), one
rule wherever a kernel reads a number in its dtype (fill_, full, masked_fill, pad's value, scatter's value,
clamp's bounds, add/sub's alpha, addcmul's value, threshold), with its "value cannot be converted to type
uint8_t without overflow", against torch, on the CPU and on a CUDA device."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare_on  # noqa: E402

SHOW = """
import torch.nn.functional as F
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
          torch.bfloat16, torch.float32, torch.float64]
def show(f):
    try:
        r = f()
    except Exception as e:
        print(type(e).__name__, e)
    else:
        print(r.cpu().tolist(), r.dtype)
"""


def test_fill_every_dtype_and_number(device):
    compare_on(device, SHOW + """
NUMBERS = [-1, 300, -129, 128, -255, -256, 40000, 65504, 65505, 70000, -70000, 2**31, 2**63 - 1, -2**63, 2**63,
           2**64 - 1, 2**64, 1e40, -1e40, 70000.0, 65519.0, 65520.0, 3.5e38, float('inf'), float('-inf'),
           float('nan'), 1.5, -0.5, True, False]
for d in DTYPES:
    for n in NUMBERS:
        print(d, n, end=' ')
        show(lambda: torch.zeros(2, dtype=d, device=DEV).fill_(n))
""")


def test_factories_and_masked_fill(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int32, torch.float16, torch.bool]:
    x = torch.zeros(2, 3, dtype=d, device=DEV)
    m = torch.tensor([[True, False, True], [False, False, True]], device=DEV)
    for n in [-1, 300, 70000, 1e40, float('nan')]:
        print(d, n)
        show(lambda: torch.full((2,), n, dtype=d, device=DEV))
        show(lambda: torch.full_like(x, n))
        show(lambda: x.new_full((2,), n))
        show(lambda: x.masked_fill(m, n))
        show(lambda: x.clone().masked_fill_(m, n))
        show(lambda: x.masked_fill(m, torch.tensor(n)))
        show(lambda: x.masked_fill(m, torch.tensor(n, device=DEV)))
show(lambda: torch.zeros(2, dtype=torch.int8, device=DEV).masked_fill(torch.tensor([True, False], device=DEV), torch.tensor(-129)))
show(lambda: torch.zeros(2, dtype=torch.int8, device=DEV).masked_fill(torch.tensor([True, False], device=DEV), torch.tensor(1e10)))
show(lambda: torch.zeros(2, dtype=torch.uint8, device=DEV).masked_fill(torch.tensor([True, False], device=DEV), torch.tensor(-1)))
""")


def test_pad_and_scatter_values(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int16, torch.float16, torch.float32]:
    x = torch.zeros(1, 2, dtype=d, device=DEV)
    for n in [-1, 300, 1000.0, 70000, 1e6, 1e40]:
        print(d, n)
        show(lambda: F.pad(x, (1, 1), value=n))
        show(lambda: F.pad(x, (1, 1), mode='constant', value=n))
        show(lambda: x.scatter(1, torch.tensor([[1]], device=DEV), n))
        show(lambda: x.clone().scatter_(1, torch.tensor([[0]], device=DEV), n))
i8 = torch.zeros(2, dtype=torch.int8, device=DEV)
show(lambda: i8.scatter(0, torch.tensor([5], device=DEV), 300))
show(lambda: i8.scatter(0, torch.tensor([], dtype=torch.long, device=DEV), 300))
show(lambda: i8.scatter(0, torch.tensor([1], device=DEV), 300, reduce='add'))
""")


def test_clamp_bounds(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int16, torch.int64, torch.float16, torch.bfloat16, torch.float32]:
    x = torch.tensor([0, 5, 100], device=DEV).to(d)
    for lo, hi in [(-1, None), (None, 300), (-300, 5), (-1, 5), (0, 70000), (None, 1e6), (None, 1e40),
                   (float('-inf'), 1e300), (float('nan'), None), (-5.5, 5.5)]:
        print(d, lo, hi)
        show(lambda: x.clamp(lo, hi))
        show(lambda: x.clone().clamp_(lo, hi))
        show(lambda: torch.clip(x, lo, hi))
    show(lambda: x.clamp_min(-300))
    show(lambda: x.clamp_max(300))
    show(lambda: x.clone().clamp_min_(-129))
    show(lambda: x.clamp(torch.tensor(300, device=DEV), None))
show(lambda: torch.zeros(2, dtype=torch.bool, device=DEV).clamp(0, 300))
""")


def test_alpha_and_value(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int64, torch.float16, torch.bfloat16, torch.float32]:
    a = torch.tensor([1, 2], device=DEV).to(d)
    for alpha in [127, 128, -128, -129, 255, -255, 256, -256, 70000, 1e6, 1e40, -2**63, 0.5]:
        print(d, alpha)
        show(lambda: a.add(a, alpha=alpha))
        show(lambda: a.sub(a, alpha=alpha))
        show(lambda: a.clone().add_(a, alpha=alpha))
        show(lambda: torch.sub(a, 1, alpha=alpha))
    for value in [127, 300, -129, -1, 70000, 1e40]:
        print(d, value)
        show(lambda: a.addcmul(a, a, value=value))
        show(lambda: a.clone().addcmul_(a, a, value=value))
        show(lambda: a.float().addcdiv(a, a.float(), value=value))
show(lambda: torch.ones(2, dtype=torch.bool, device=DEV).add(torch.ones(2, dtype=torch.bool, device=DEV), alpha=True))
show(lambda: torch.zeros(0, dtype=torch.int8, device=DEV).addcmul(torch.zeros(0, dtype=torch.int8, device=DEV), torch.zeros(0, dtype=torch.int8, device=DEV), value=300))
show(lambda: torch.ones(2, dtype=torch.int8, device=DEV).addcmul(torch.ones(2, device=DEV), torch.ones(2, dtype=torch.int8, device=DEV), value=1e39))
""")


def test_threshold_and_hardtanh_numbers(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64]:
    x = torch.tensor([0, 3, 9, 200], device=DEV).to(d)
    for t, v in [(1, 300), (300, 1), (1.7, -2.9), (-1, 3), (float('nan'), 1), (1e6, 1), (1, 1e6), (1e40, 3)]:
        print(d, t, v)
        show(lambda: F.threshold(x, t, v))
        show(lambda: F.threshold_(x.clone(), t, v))
    for lo, hi in [(-1.5, 1.5), (-300.0, 1.5), (0.0, 300), (-0.5, 2.5), (-1e30, 1e30), (float('-inf'), float('inf')),
                   (float('nan'), 2), (True, 2), (-2, -1)]:
        print(d, lo, hi)
        show(lambda: F.hardtanh(x, lo, hi))
        show(lambda: F.hardtanh(x.clone(), lo, hi, inplace=True))
    show(lambda: F.relu6(x - 5 if d != torch.uint8 else x))
    show(lambda: F.relu6(x.clone(), inplace=True))
""")


def test_index_add_addmm_and_lerp(device):
    compare_on(device, SHOW + """
for d in [torch.uint8, torch.int8, torch.int32, torch.float16, torch.bfloat16, torch.float32]:
    x = torch.ones(2, 2, device=DEV).to(d)
    for n in [-1, 127, 128, -129, 300, -256, 70000, 1e39, 0.5]:
        print(d, n)
        show(lambda: x.index_add(0, torch.tensor([1], device=DEV), x[:1], alpha=n))
        if d.is_floating_point:  # CUDA has no integer addmm, in torch either
            show(lambda: torch.addmm(x, x, x, beta=n))
            show(lambda: torch.addmm(x, x, x, alpha=n))
            show(lambda: torch.addmm(x, x, x, beta=0, alpha=n))
            show(lambda: x.lerp(x * 2, n))
""")


def test_integer_addmm_beta_and_alpha():
    from parity import compare
    compare(SHOW + """
for d in [torch.uint8, torch.int8, torch.int32]:
    x = torch.ones(2, 2, dtype=d)
    for n in [-1, 127, 128, -129, 300, -256, 1e39, 0.5]:
        print(d, n)
        show(lambda: torch.addmm(x, x, x, beta=n))
        show(lambda: torch.addmm(x, x, x, alpha=n))
        show(lambda: torch.addmm(x, x, x, beta=0, alpha=n))
show(lambda: torch.addmm(torch.zeros(2, 0, dtype=torch.int8), torch.zeros(2, 0, dtype=torch.int8),
                         torch.zeros(0, 0, dtype=torch.int8), beta=300))
""")


def test_uint64_numbers_in_floating_dtypes(device):
    """A Python int in [2**63, 2**64) is torch's uint64 Scalar: its true value in a floating dtype."""
    compare_on(device, SHOW + """
for d in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    z = torch.zeros(2, device=DEV).to(d)
    for n in [2**63, 2**64 - 1]:
        print(d, n)
        show(lambda: z + n)
        show(lambda: z.clamp(max=n))
        show(lambda: z.clamp(min=n))
        show(lambda: z.clamp_max(n))
        show(lambda: z.add(1, alpha=n))
        show(lambda: z.sub(1, alpha=n))
        show(lambda: z.clone().fill_(n))
        show(lambda: torch.full((2,), n, dtype=d, device=DEV))
        show(lambda: z.masked_fill(z == 0, n))
""")


def test_one_element_fills_of_16_bit_floats():
    """torch fills a one-element CPU tensor without the float16/bfloat16 check (an out-of-range number
    becomes inf), and where() makes its number such a tensor; any other size, and masked_fill, check."""
    from parity import compare
    compare(SHOW + """
for d in [torch.float16, torch.bfloat16, torch.float32, torch.int8, torch.uint8]:
    for n in [70000, 70000.0, 1e39, 2**63, 300, float('nan')]:
        print(d, n)
        for f in [lambda: torch.zeros(1, dtype=d).fill_(n), lambda: torch.zeros((), dtype=d).fill_(n),
                  lambda: torch.zeros(2, 1, dtype=d)[0].fill_(n), lambda: torch.zeros(2, dtype=d).fill_(n),
                  lambda: torch.zeros(0, dtype=d).fill_(n), lambda: torch.full((), n, dtype=d),
                  lambda: torch.full((1, 1), n, dtype=d), lambda: torch.full((2,), n, dtype=d),
                  lambda: torch.full_like(torch.zeros(1, dtype=d), n), lambda: torch.zeros(3, dtype=d).new_full((1,), n),
                  lambda: torch.where(torch.zeros(2) > 0, torch.zeros(2, dtype=d), n),
                  lambda: torch.zeros(1, dtype=d).masked_fill(torch.tensor([True]), n)]:
            show(f)
""")
