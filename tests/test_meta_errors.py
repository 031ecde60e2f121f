"""The meta device's shape and dtype errors in torch's meta wording.

torch computes meta results with its Python reference and meta functions (torch/_refs,
torch/_meta_registrations.py, torch/_prims), which word several errors differently from its CPU and cuda
kernels: broadcasting ("Attempting to broadcast a dimension of length 4 at -2! ..."), an in-place
output's shape, mm/addmm/matmul/linear ("a and b must have same reduction dim ..."), mv, dot, cat, stack,
conv's channel check, in-place add_/sub_ promotion, reductions over a repeated dim, mean of integers,
the dtype checks of << and >> (and the dtype dispatch errors meta does not have), gather/scatter and
index_select/index_add/index_copy/index_fill/take (whose meta forms check less), layer_norm, embedding,
topk, the dtype check of an in-place op's or out='s result ("Attempting to cast from ...") and out='s device,
the matrix products of mixed dtypes (torch's meta mm does not check them), integer addcdiv and var/std.
Each snippet runs under torch 2.13 and minitorch and must print the same (tests/parity.py), message and
exception type; the same shapes on the CPU keep the CPU wording, and the simulated GPU keeps it too.
"""

import pytest

import minitorch
from parity import compare, compare_on

PRELUDE = """
    import torch
    def M(*s, dtype=None):
        return torch.empty(*s, device='meta', dtype=dtype)
    def B(*s):
        return torch.empty(*s, device='meta', dtype=torch.bool)
"""

# each result's (shape, dtype, strides, device), or the exception
SHOW = """
    def show(f):
        try:
            r = f()
            rs = list(r) if isinstance(r, tuple) else [r]
            print([(t.shape, t.dtype, t.stride(), t.device.type) for t in rs])
        except Exception as e:
            print(type(e).__name__, e)
"""


def test_broadcasting_binary_ops():
    compare(PRELUDE + """
    M(2, 3) + M(4, 3)
    M(2, 3) - M(4, 3)
    M(2, 3) * M(4, 3)
    M(2, 3) / M(4, 3)
    torch.add(M(2, 3), M(4, 3), alpha=2)
    torch.maximum(M(2, 3), M(4, 3))
    torch.pow(M(2, 3), M(4, 3))
    torch.atan2(M(2, 3), M(4, 3))
    torch.remainder(M(2, 3), M(4, 3))
    torch.eq(M(2, 3), M(4, 3))
    M(2, 3) < M(4, 3)
    torch.logical_and(M(2, 3), M(4, 3))
    torch.bitwise_and(M(2, 3, dtype=torch.long), M(4, 3, dtype=torch.long))
    torch.hypot(M(2, 3), M(4, 3))
    torch.floor_divide(M(2, 3), M(4, 3))
    torch.fmax(M(2, 3), M(4, 3))
    M(2, 1) + M(4, 5)
    M(1, 3) + M(4, 5)
    M(2, 3) + M(4, 3, 1)
    M(3) + M(2, 4)
    M(2, 3).sub_(M(4, 3))
    M(2, 3).div_(M(4, 3))
    torch.add(M(2, 3), M(4, 3), out=M(2, 3))
    print((M(2, 1) + M(4, 1, 5)).shape)
    """)


def test_broadcasting_ternary_ops():
    compare(PRELUDE + """
    torch.where(B(2), M(3), M(2))
    torch.where(B(3), M(2), M(2))
    torch.where(B(2), M(2), M(3))
    torch.where(B(2), M(3), 0.)
    torch.where(B(2), 0., M(3))
    torch.where(B(2), M(()), M(3))
    torch.where(B(2), M(3), M(4, 5))
    M(2, 3).where(B(4, 3), 0.)
    torch.addcmul(M(2, 3), M(4, 3), M(2, 3))
    torch.addcmul(M(2, 1), M(3), M(4, 5))
    torch.addcdiv(M(2, 3), M(2, 3), M(4, 3))
    M(2, 3).addcmul(M(2, 3), M(4, 3), value=2)
    torch.lerp(M(2, 3), M(4, 3), 0.5)
    torch.lerp(M(2, 3), M(2, 3), M(4, 3))
    torch.clamp(M(2, 3), M(4, 3))
    torch.clamp(M(2, 3), None, M(4, 3))
    torch.clamp(M(2, 3), M(4, 3), M(2, 3))
    torch.clamp(M(2, 3), M(2, 3), M(4, 3))
    M(2, 3).masked_fill(B(4, 3), 1.)
    M(2, 3).masked_fill(B(4, 3), M(()))
    M(2, 3).masked_fill_(B(4, 3), 1.)
    """)


def test_in_place_output_shape():
    compare(PRELUDE + """
    M(2, 3).add_(M(4, 2, 3))
    M(2, 3).mul_(M(4, 1, 1))
    M(3).mul_(M(4, 1))
    M(()).mul_(M(4))
    M(2, 3).lerp_(M(4, 2, 3), 0.5)
    M(2, 3).addcmul_(M(4, 2, 3), M(2, 3))
    M(2, 3).copy_(M(4, 3))
    M(2, 3).copy_(M(4, 2, 3))
    """)


def test_in_place_add_sub_promotion():
    compare(PRELUDE + """
    M(2, 3, dtype=torch.long).add_(M(2, 3))
    M(2, 3, dtype=torch.long).sub_(M(2, 3))
    M(2, 3, dtype=torch.int).add_(M(2, 3, dtype=torch.float64))
    M(2, 3, dtype=torch.uint8).add_(M(2, 3))
    M(2, 3, dtype=torch.long).add_(1.0)
    M(2, 3, dtype=torch.long).add_(M((), dtype=torch.float))
    M(2, 3, dtype=torch.long).add_(M(2, 3), alpha=1.5)
    M(2, 3, dtype=torch.long).add_(M(4, 3))
    M(2, 3, dtype=torch.bool).add_(M(2, 3, dtype=torch.long))
    M(2, 3, dtype=torch.bool).sub_(M(2, 3))
    print(M(2, 3, dtype=torch.bool).add_(True).dtype)
    print(M(2, 3, dtype=torch.long).add_(M(2, 3, dtype=torch.bool)).dtype)
    print(M(2, 3, dtype=torch.float16).add_(M(2, 3, dtype=torch.double)).dtype)
    print(M(2, 3).add_(M(2, 3, dtype=torch.long)).dtype)
    """)


def test_matrix_products():
    compare(PRELUDE + """
    M(2, 3).mm(M(4, 3))
    M(3).mm(M(3, 4))
    M(2, 3).mm(M(3))
    M(2, 3) @ M(4, 3)
    M(3) @ M(4, 5)
    M(2, 3) @ M(4)
    M(3) @ M(4)
    torch.matmul(M(2, 3), M(2, 3, 4)).shape
    torch.addmm(M(2, 4), M(2, 3), M(4, 3))
    torch.addmm(M(4), M(2, 3), M(4, 3))
    torch.addmm(M(5, 4), M(2, 3), M(3, 4))
    torch.addmm(M(5), M(2, 3), M(3, 4))
    torch.nn.functional.linear(M(2, 3), M(4, 3), M(5))
    torch.nn.functional.linear(M(7, 2, 3), M(4, 3), M(5))
    M(2, 3).mv(M(4))
    M(2, 3).mv(M(3, 1))
    torch.addmv(M(2), M(2, 3), M(4))
    M(3).dot(M(4))
    M(3, 1).dot(M(3))
    M(3).dot(M(3, dtype=torch.double))
    torch.nn.functional.linear(M(2, 5), M(4, 3))
    torch.nn.Linear(3, 4, device='meta')(M(2, 5))
    M(2, 2, 3).bmm(M(2, 4, 3))
    M(2, 2, 3).bmm(M(3, 3, 4))
    M(2, 2, 3) @ M(2, 4, 5)
    print(torch.mm(M(2, 3), M(3, 4)).shape)
    torch.addmm(M(5, 4), M(2, 3), M(4, 4), beta=0)
    print(torch.addmm(M(5, 4), M(2, 3), M(3, 4), beta=0).shape, torch.addmm(M(5), M(2, 3), M(3, 4), beta=0, alpha=2).shape)
    print(torch.addmm(M(4), M(2, 3), M(3, 4), beta=0).shape)
    """)


def test_cat_and_stack():
    compare(PRELUDE + """
    torch.cat([M(2, 3), M(2, 4)])
    torch.cat([M(2, 3), M(3, 4)], 1)
    torch.cat([M(2, 3, 4), M(2, 5, 4)], 2)
    torch.cat([M(2, 3), M(2, 3, 1)])
    torch.cat([M(2, 3), M(2, 3), M(2, 5, 1)])
    torch.cat([M(2, 3), M(4), M(2, 3, 1)])
    torch.cat([M(2, 3), M(4)])
    torch.cat([M(0), M(2, 3), M(2, 4)])
    torch.cat([M(2, 3), M(0), M(2, 4)])
    torch.cat([M(2, 3), M(2, 3)], 5)
    torch.cat([M(()), M(())])
    torch.cat([])
    print(torch.cat([M(0), M(2, 3), M(0)]).shape)
    print(torch.cat([M(2, 3), M(2, 3, dtype=torch.long)]).dtype)
    torch.hstack([M(2, 3), M(3, 3)])
    torch.vstack([M(2, 3), M(2, 4)])
    torch.stack([M(2, 3), M(2, 4)])
    torch.stack([M(2, 3), M(2, 3), M(3, 3)])
    torch.stack([M(2, 3), M(3)])
    torch.stack([M(2, 3), M(2, 4)], 1)
    torch.stack([M(2, 3), M(2, 4)], 2)
    torch.stack([M(2, 3), M(2, 4)], -1)
    torch.stack([M(2, 3), M(2, 3, 1)], 2)
    torch.stack([M(2, 3), M(3)], 2)
    torch.stack([M(2, 3), M(2, 3)], 4)
    torch.stack([])
    print(torch.stack([M(2, 3), M(2, 3)], 2).shape)
    """)


def test_conv_channels():
    compare(PRELUDE + """
    F = torch.nn.functional
    F.conv2d(M(1, 3, 5, 5), M(4, 2, 3, 3))
    F.conv2d(M(3, 5, 5), M(4, 2, 3, 3))
    F.conv2d(M(1, 4, 5, 5), M(4, 2, 3, 3), groups=3)
    F.conv1d(M(1, 3, 5), M(4, 2, 3))
    F.conv3d(M(1, 3, 5, 5, 5), M(4, 2, 3, 3, 3))
    F.conv2d(M(1, 3, 2, 2), M(4, 3, 3, 3))
    torch.nn.Conv2d(3, 4, 3, device='meta')(M(1, 2, 5, 5))
    print(F.conv2d(M(1, 4, 5, 5), M(6, 2, 3, 3), groups=2).shape)
    """)


def test_conv_geometry_on_meta():
    # torch's meta convolution (meta_conv, calc_conv_nd_return_shape), reached when any operand is a meta
    # tensor: the channels, the kernel against the padded input and an output with some positive size are
    # all it checks (Python's ZeroDivisionError and IndexError for a zero stride or a short list); the
    # result where the input lives, contiguous, its dtype; conv1d/2d/3d's own bias dtype check comes
    # first on every device; backward gives unwritten gradients of the operands' shapes
    compare(PRELUDE + SHOW + """
    F = torch.nn.functional
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), stride=0))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), stride=-1))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding=-1))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), dilation=0))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), dilation=-2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 2, 3, 3), groups=2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(5, 2, 3, 3), groups=2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 2, 3, 3), groups=3))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), groups=0))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), groups=-1))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), M(5)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), M(6, 1)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), M(6, dtype=torch.float64)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3, dtype=torch.float64)))
    show(lambda: F.conv2d(M(2, 4, 8, 8, dtype=torch.long), M(6, 4, 3, 3, dtype=torch.long)))
    show(lambda: F.conv2d(M(2, 4, 2, 2), M(6, 4, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding=(1, 2, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), stride=(1, 2, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3)))
    show(lambda: F.conv2d(M(4, 8, 8), M(6, 4, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 5, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding='same'))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding='same', stride=2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding='valid'))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 2, 2), padding='same', dilation=2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), stride=2, padding=1, dilation=2))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(0, 4, 3, 3)))
    show(lambda: F.conv2d(M(0, 4, 8, 8), M(6, 4, 3, 3)))
    show(lambda: F.conv2d(M(2, 0, 8, 8), M(6, 0, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), torch.zeros(6, 4, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), torch.zeros(6)))
    show(lambda: F.conv1d(M(2, 4, 8), M(6, 4, 3), stride=0))
    show(lambda: F.conv1d(M(2, 4, 8), M(6, 4, 3), padding=2, stride=3))
    show(lambda: F.conv1d(M(2, 4, 8), M(6, 4, 9)))
    show(lambda: F.conv3d(M(2, 4, 8, 8, 8), M(6, 4, 3, 3, 3), groups=2))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3)))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 3, 3, 3), groups=2))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), stride=2, output_padding=1))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), stride=2, output_padding=2))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), output_padding=1))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), stride=0))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), padding=-1))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(5, 6, 3, 3)))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), groups=3))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), M(5)))
    show(lambda: F.conv_transpose2d(M(2, 4, 1, 1), M(4, 6, 3, 3), padding=3))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), dilation=0))
    show(lambda: F.conv_transpose1d(M(2, 4, 8), M(4, 6, 3), stride=2, padding=1, output_padding=1, dilation=2))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3, dtype=torch.float64)))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), groups=0))
    show(lambda: torch.nn.Conv2d(4, 6, 3, device='meta')(M(2, 4, 8, 8)))
    show(lambda: torch.nn.Conv2d(4, 6, 3, device='meta', padding=1, padding_mode='reflect')(M(2, 4, 8, 8)))
    show(lambda: torch.nn.ConvTranspose2d(4, 6, 3, device='meta')(M(2, 4, 8, 8)))
    show(lambda: torch.nn.Conv2d(4, 6, 3, device='meta')(M(2, 4, 8, 8).to(memory_format=torch.channels_last)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3).to(memory_format=torch.channels_last)))
    show(lambda: F.conv2d(M(2, 4, 8, 8, dtype=torch.half), M(6, 4, 3, 3, dtype=torch.half)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), stride=[1, 2, 3]))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), torch.zeros(6, dtype=torch.float64)))
    show(lambda: F.conv2d(torch.zeros(2, 4, 8, 8), torch.zeros(6, 4, 3, 3), torch.zeros(6, dtype=torch.float64)))
    show(lambda: F.conv1d(torch.zeros(2, 4, 8), torch.zeros(6, 4, 3), torch.zeros(6, dtype=torch.long)))
    show(lambda: F.conv3d(M(2, 4, 8, 8, 8, dtype=torch.half), M(6, 4, 3, 3, 3), M(6, dtype=torch.bfloat16)))
    show(lambda: F.conv2d(torch.zeros(2, 4, 8, 8), M(6, 4, 3, 3)))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), M(6, dtype=torch.float64)))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), groups=-1))
    show(lambda: F.conv_transpose2d(M(2, 4, 8, 8), M(4, 6, 3, 3), stride=2, output_padding=(1, 2, 3)))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding=(1,), stride=(2,), dilation=(2,)))
    show(lambda: F.conv2d(M(4, 8, 8), M(6, 2, 3, 3), groups=2, padding='same'))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 5, 3, 3), padding='same'))
    show(lambda: F.conv2d(M(2, 4, 8, 8), M(6, 4, 3, 3), padding='bad'))
    show(lambda: F.conv2d(M(2, 4, 8), M(6, 4, 3, 3)))
    def bw():
        x = torch.empty(2, 4, 8, 8, device='meta', requires_grad=True)
        c = torch.nn.Conv2d(4, 6, 3, device='meta')
        y = c(x)
        print(type(y.grad_fn).__name__)
        y.sum().backward()
        print(x.grad.shape, c.weight.grad.shape, c.bias.grad.shape, x.grad.device)
        return y
    show(bw)
    def bw2():
        x = torch.empty(2, 4, 8, 8, device='meta', requires_grad=True)
        w = torch.empty(4, 6, 3, 3, device='meta', requires_grad=True)
        y = F.conv_transpose2d(x, w, stride=2)
        y.sum().backward()
        print(x.grad.shape, w.grad.shape)
        return y
    show(bw2)
    """)


def test_reductions_over_repeated_dims():
    # torch/_refs' reduction_dims: every dim's range, then "duplicate value in the list of dims"
    compare(PRELUDE + """
    M(2, 3).sum((0, 0))
    M(2, 3).sum((0, -2))
    M(()).sum((0, -1))
    M(2, 3).sum((0, 0, 5))
    M(2, 3).mean((1, 1))
    M(2, 3).amax((0, 0), keepdim=True)
    M(2, 3).amin((1, -1))
    M(2, 3).std((0, 0))
    M(2, 3).var((0, 0))
    torch.std_mean(M(2, 3), (0, 0))
    M(2, 3).logsumexp((0, 0))
    M(2, 3).nansum((0, 0))
    torch.nanmean(M(2, 3), (0, 0))
    torch.linalg.vector_norm(M(2, 3), dim=(0, 0))
    M(2, 3).norm(dim=(0, 0))
    M(2, 3).any((0, 0))
    M(2, 3).all((1, 1))
    torch.count_nonzero(M(2, 3), (1, 1))
    torch.sum(M(2, 3), (0, 0), out=M(3))
    M(2, 3).flip((0, 0))
    M(2, 3).flip((0, 0, 5))
    print(M(2, 3).sum((0, 1)).shape, M(2, 3).flip((0, 1)).shape)
    """)


def test_mean_of_integers():
    # torch/_refs' mean checks the dims first and names the dtype as torch.int64
    compare(PRELUDE + """
    M(2, 3, dtype=torch.long).mean()
    M(2, 3, dtype=torch.long).mean(0)
    torch.mean(M(2, 3, dtype=torch.int), 0, True)
    M(2, 3, dtype=torch.bool).mean()
    M(2, 3, dtype=torch.long).mean((0, 0))
    M(2, 3, dtype=torch.long).mean(5)
    M(2, 3).mean(dtype=torch.long)
    M(2, 3).mean(0, dtype=torch.int)
    M(2, 3).mean(5, dtype=torch.long)
    torch.mean(M(2, 3, dtype=torch.long), 0, out=M(3))
    M(2, 3, dtype=torch.long).nanmean()
    M(2, 3).nanmean(dtype=torch.long)
    print(M(2, 3, dtype=torch.long).mean(dtype=torch.double).dtype)
    """)


def test_shift_and_bitwise_dtypes():
    # << and >> are torch ops of their own with a meta dtype check; the bitwise ops, gcd and the unary
    # ops have no dtype dispatch on meta (a float bitwise_and is a float result)
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    M(2, 3) << L(2, 3)
    L(2, 3) << M(2, 3)
    M(2, 3) >> 1
    L(2, 3) << 1.5
    L(2, 3) >> 1j
    M(2, 3, dtype=torch.bool) << 1
    L(2, 3) << M(2, 3, dtype=torch.bool)
    L(2, 3) << M(4, 3)
    L(2, 3) << L(4, 3)
    L(2, 3).__ilshift__(M(2, 3))
    M(2, 3).__irshift__(1)
    L(2, 3) << "a"
    print((L(2, 3) << True).dtype, (M(2, 3, dtype=torch.int) << L(2, 3)).dtype, (1.5 << L(2, 3)).dtype)
    print(L(2, 3).bitwise_left_shift(M(2, 3)).dtype, M(2, 3).bitwise_right_shift(1).dtype)
    print((M(2, 3) & M(2, 3)).dtype, (M(2, 3) | L(2, 3)).dtype, (L(2, 3) ^ 1.5).dtype)
    print(M(2, 3).bitwise_not().dtype, M(2, 3).bitwise_not_().dtype)
    ~M(2, 3)
    print(torch.gcd(M(2, 3), L(2, 3)).dtype, torch.hypot(L(2), L(2)).dtype)
    print(torch.abs(M(2, dtype=torch.bool)).dtype, torch.frac(L(2)).dtype, torch.ceil(M(2, dtype=torch.bool)).dtype)
    """)


def test_gather_and_scatter():
    # torch's meta functions (meta_gather, scatter_shape_check) print shapes as torch.Size and check an
    # index against self and then against src, in two messages
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    M(2, 3).gather(1, M(2, 3))
    M(2, 3).gather(1, M(2, 3, dtype=torch.int16))
    M(2, 3).gather(5, L(2, 3))
    M(2, 3).gather(1, L(2))
    M(2, 3).gather(1, L(3, 3))
    M(2, 3).gather(0, L(2, 5))
    M(()).gather(0, L(2))
    print(M(2, 3).gather(1, L(2, 5)).shape, M(2, 3).gather(1, M(2, 3, dtype=torch.int)).shape)
    M(2, 3).scatter(1, M(2, 3), M(2, 3))
    M(2, 3).scatter(1, L(2, 3), M(2, 3, dtype=torch.double))
    M(2, 3).scatter(5, L(2, 3), M(2, 3))
    M(2, 3).scatter(1, L(2), M(2, 3))
    M(2, 3).scatter(1, L(3, 3), M(3, 3))
    M(2, 3).scatter(1, L(2, 4), M(2, 3))
    M(2, 3).scatter(1, L(2, 3), M(2))
    M(2, 3).scatter(1, L(0, 3), M(5, 5, 5))
    M(2, 3).scatter(1, L(2, 3), M(2, 3), reduce='bad')
    M(2, 3).scatter_add(1, L(3, 3), M(3, 3))
    M(2, 3).scatter_add(1, L(2, 4), M(2, 3))
    M(2, 3).scatter_add(1, L(3, 1), M(1, 1))
    M(2, 3).scatter_reduce(1, L(2, 3), M(2, 3), 'bad')
    M(2, 3).scatter_reduce(1, L(2, 3), M(2, 3), 'max')
    M(2, 3).scatter_reduce(1, L(3, 3), M(2, 3), 'bad')
    print(M(2, 3).scatter(1, L(2, 3), 1.5).shape, M(2, 3).scatter_(1, L(2, 3), M(2, 3), reduce='add').shape)
    """)


def test_index_ops():
    # torch's meta index_select, take and its Python decompositions of index_add/index_copy/index_fill:
    # other messages and types, and fewer checks (no index dtype, an unwrapped dim)
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    print(M(2, 3).index_select(0, M(2)).shape, M(2, 3).index_select(0, L(2, 2)).shape)
    print(M(()).index_select(0, L(2)).shape, M(()).index_select(5, L(2)).shape, M(2, 3).index_select(-1, L(())).shape)
    M(2, 3).index_select(2, L(2))
    M(2, 3).index_select(-3, L(2))
    print(M(2, 3).index_add(0, M(2), M(2, 3)).shape, M(2, 3).index_add(0, L(2), M(2, 3, dtype=torch.double)).dtype)
    print(M(2, 3).index_add(0, L(2), M(2, 4)).shape, M(2, 3).index_add(1, L(()), M(2, 1)).shape)
    M(2, 3).index_add(5, L(2), M(2, 3))
    M(2, 3).index_add(0, L(2, 2), M(2, 3))
    M(2, 3).index_add(0, L(3), M(2, 3))
    M(2, 3).index_add(0, L(2), M(3))
    M(2, 3).index_add(1, L(3), M(3))
    M(2, 3).index_add(1, L(()), M(2, 2))
    M(2, 3, dtype=torch.long).index_add(0, L(2), M(2, 3, dtype=torch.long), alpha=1.5)
    M(2, 3, dtype=torch.int).index_add_(0, L(2), M(2, 3, dtype=torch.int), alpha=True)
    print(M(2, 3, dtype=torch.long).index_add(0, L(2), M(2, 3, dtype=torch.long), alpha=1.0).dtype)
    print(M(2, 3, dtype=torch.bool).index_add(0, L(2), M(2, 3, dtype=torch.bool), alpha=1.5).dtype)
    print(M(()).index_add(0, L(1), M(1)).shape, M(2, 3).index_add_(0, L(2), M(2, 3), alpha=2).shape)
    print(M(2, 3).index_copy(0, M(2), M(2, 3)).shape, M(2, 3).index_copy(0, L(2), M(2, 3, dtype=torch.double)).dtype)
    M(2, 3).index_copy(5, L(2), M(2, 3))
    M(2, 3).index_copy(0, L(2, 2), M(2, 3))
    M(2, 3).index_copy(0, L(2), M(2, 4))
    M(2, 3).index_copy(1, L(2), M(3, 3))
    M(2, 3).index_copy(0, L(3), M(2, 3))
    M(2, 3).index_copy(0, L(2), M(3))
    M(2, 3).index_copy(0, L(2), M(()))
    M(2, 3).index_copy(0, L(()), M(3))
    M(()).index_copy(0, L(1), M(2))
    M(()).index_copy(0, L(1), M(1, 2))
    M(()).index_copy(0, L(2), M(2))
    print(M(2, 3).index_copy(0, L(()), M(1, 3)).shape, M(()).index_copy(0, L(1), M(1)).shape)
    print(M(2, 3).index_copy_(1, L(3), M(2, 3)).shape)
    print(M(2, 3).index_fill(0, M(2), 1.).shape, M(2, 3).index_fill(0, L(()), 1.).shape)
    M(2, 3).index_fill(5, L(2), 1.)
    M(2, 3).index_fill(-3, L(2), 1.)
    M(()).index_fill(1, L(2), 1.)
    M(2, 3).index_fill(0, L(2, 2), 1.)
    M(2, 3).index_fill(0, L(2, 2), M(2))
    M(2, 3).index_fill(0, L(2), M(2))
    print(M(2, 3).index_fill(-2, L(2), 1.).shape, M(()).index_fill(-1, L(2), 1.).shape)
    print(M(2, 3).index_fill(0, L(2), M(())).shape, M(2, 3).index_fill_(0, L(2), M((), dtype=torch.double)).dtype)
    print(M(2, 3, dtype=torch.long).index_fill(0, L(2), 1.5).dtype)
    print(M(2, 3).t().index_fill(0, L(2), 1.).stride(), M(2, 3).t().index_copy(0, L(3), M(3, 2)).stride())
    M(2, 3).take(M(2))
    M(2, 3).take(M(2, dtype=torch.int))
    M(0).take(M(2, dtype=torch.bool))
    M(0).take(L(2))
    print(M(2, 3).take(L(4, 5)).shape)
    """)


def test_index_ops_backward():
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    x = M(2, 3).requires_grad_()
    y = x.index_fill(1, L(2), 2.)
    y.sum().backward()
    print(y.grad_fn.name(), x.grad.shape)
    x = M(2, 3).requires_grad_()
    y = x.index_select(0, L(4))
    y.sum().backward()
    print(y.grad_fn.name(), x.grad.shape)
    x = M(2, 3).requires_grad_()
    y = x.index_copy(0, L(2), M(2, 3))
    y.sum().backward()
    print(y.grad_fn.name(), x.grad.shape)
    x = M(2, 3).requires_grad_()
    s = M(2, 3).requires_grad_()
    y = x.index_add(0, L(2), s, alpha=2)
    y.sum().backward()
    print(y.grad_fn.name(), x.grad.shape, s.grad.shape)
    """)


def test_layer_norm_embedding_topk():
    # layer_norm's meta form is torch/_refs' native_layer_norm (Size-printed shapes, mixed parameter
    # dtypes, mean's error for integers); embedding's and topk's meta functions word their checks apart
    compare(PRELUDE + """
    F = torch.nn.functional
    L = lambda *s: M(*s, dtype=torch.long)
    F.layer_norm(M(2, 3), (4,))
    F.layer_norm(M(2, 3), (2, 3, 4))
    F.layer_norm(M(2, 3), (3,), M(4))
    F.layer_norm(M(2, 3), (3,), M(3), M(4))
    F.layer_norm(M(2, 3), (3,), M(3, 1))
    F.layer_norm(M(2, 3), ())
    F.layer_norm(M(2, 3, dtype=torch.long), (3,))
    F.layer_norm(M(2, 3, dtype=torch.bool), (3,), M(3), M(3))
    torch.nn.LayerNorm(4, device='meta')(M(2, 3))
    print(F.layer_norm(M(2, 3), (3,), M(3, dtype=torch.double)).dtype, F.layer_norm(M(2, 3, dtype=torch.half), (3,)).dtype)
    print(F.layer_norm(M(2, 3).t(), (2,), eps=-1).stride())
    x = M(2, 3).requires_grad_()
    w = M(3, dtype=torch.double).requires_grad_()
    y = F.layer_norm(x, (3,), w, M(3))
    y.sum().backward()
    print(y.dtype, y.grad_fn.name(), x.grad.dtype, w.grad.dtype)
    F.rms_norm(M(2, 3, dtype=torch.long), (3,))
    F.embedding(M(2, 3), M(5, 4))
    F.embedding(L(2, 3), M(5))
    F.embedding(L(2, 3), M(5, 4, 3))
    F.embedding(L(2, 3), M(5, 4), padding_idx=7)
    F.embedding(M(2, 3), M(5, 4), max_norm=1.)
    F.embedding(L(2, 3), M(5), max_norm=1.)
    torch.nn.Embedding(5, 4, device='meta')(M(2, 3))
    print(F.embedding(L(2, 3), M(5, 4)).shape, F.embedding(L(()), M(5, 4)).shape)
    print(F.embedding(M(2, 3, dtype=torch.int), M(5, 4, dtype=torch.long)).dtype)
    print(F.embedding(L(2, 3), M(5, 4), max_norm=1.).shape, torch.embedding_renorm_(M(5, 4), M(2), 1., 2.).shape)
    e = torch.nn.Embedding(5, 4, device='meta', padding_idx=0)
    o = e(M(2, 3, dtype=torch.int))
    o.sum().backward()
    print(o.shape, o.grad_fn.name(), e.weight.grad.shape)
    M(2, 3).topk(4)
    M(2, 3).topk(-1)
    M(2, 3).topk(4, dim=0)
    M(2, 3).topk(2, dim=5)
    M(()).topk(2)
    M(()).topk(-1)
    print(M(()).topk(1)[0].shape, M(2, 3).topk(2)[1].dtype, M(2, 3, dtype=torch.bool).topk(1)[0].dtype)
    """)


def test_in_place_and_out_dtypes():
    # torch's meta functions write a result into self or out= with torch/_prims_common's check
    # ("Attempting to cast from ..."); true division words the CPU check with Python's dtype names;
    # mul_, addcmul_ and addcdiv_ let an integer self take a float result
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    L(2, 3).div_(M(2, 3))
    L(2, 3).div_(2)
    L(2, 3).true_divide_(M(2, 3))
    M(2, 3, dtype=torch.bool).div_(L(2, 3))
    L(2, 3).div_(M(2, 3), rounding_mode='floor')
    L(2, 3).pow_(M(2, 3))
    L(2, 3).pow_(1.5)
    L(2, 3).fmod_(1.5)
    L(2, 3).remainder_(M(2, 3))
    L(2, 3).floor_divide_(M(2, 3))
    L(2, 3).atan2_(M(2, 3))
    L(2, 3).copysign_(M(2, 3))
    L(2, 3).bitwise_and_(M(2, 3))
    M(2, 3, dtype=torch.bool).pow_(L(2, 3))
    L(2, 3).clamp_(0.5)
    L(2, 3).clamp_(M(2, 3))
    L(2, 3).clamp_(max=0.5)
    L(2, 3).clamp_min_(0.5)
    L(2, 3).sqrt_()
    L(2, 3).sin_()
    L(2, 3).sigmoid_()
    L(2, 3).lerp_(M(2, 3), 0.5)
    M(2, 3).lerp(M(2, 3, dtype=torch.double), 0.5)
    torch.add(M(2, 3), M(2, 3), out=L(2, 3))
    torch.mul(L(2, 3), M(2, 3), out=L(2, 3))
    torch.div(L(2, 3), L(2, 3), out=L(2, 3))
    torch.sin(M(2, 3), out=L(2, 3))
    torch.pow(M(2, 3), 2, out=L(2, 3))
    torch.mean(M(2, 3), 0, out=L(3))
    torch.addcmul(M(2, 3), M(2, 3), M(2, 3), out=L(2, 3))
    torch.lerp(M(2, 3), M(2, 3), 0.5, out=L(2, 3))
    L(2, 3).mul_(M(4, 2, 3))
    L(2, 3).addcmul_(M(4, 2, 3), M(2, 3))
    print(L(2, 3).mul_(M(2, 3)).dtype, L(2, 3).mul_(1.5).dtype, M(2, 3, dtype=torch.bool).mul_(L(2, 3)).dtype)
    print(L(2, 3).addcmul_(M(2, 3), M(2, 3)).dtype, L(2, 3).addcdiv_(M(2, 3), M(2, 3), value=2).dtype)
    print(M(2, 3, dtype=torch.bool).addcmul_(L(2, 3), L(2, 3)).dtype, L(2, 3).eq_(M(2, 3)).dtype)
    print(torch.add(L(2, 3), L(2, 3), out=M(2, 3)).dtype, M(2, 3).div_(L(2, 3)).dtype)
    """)


def test_matrix_products_of_mixed_dtypes():
    # torch's meta mm takes self's dtype without a check (bool too); mv and addmm/addmv are decompositions
    # in the promoted dtype (addmv checks first, in Python's names); bmm and baddbmm check in their meta
    # functions' words; addbmm does not check; matmul and linear take whichever of these they reach
    compare(PRELUDE + """
    D = lambda *s: M(*s, dtype=torch.double)
    L = lambda *s: M(*s, dtype=torch.long)
    H = lambda *s: M(*s, dtype=torch.half)
    F = torch.nn.functional
    print(torch.mm(M(2, 3), D(3, 4)).dtype, torch.mm(D(2, 3), M(3, 4)).dtype, torch.mm(L(2, 3), M(3, 4)).dtype)
    print(torch.mm(H(2, 3), M(3, 4, dtype=torch.bfloat16)).dtype)
    print(torch.mm(B(2, 3), B(3, 4)).dtype, torch.mm(B(2, 3), L(3, 4)).dtype)
    print(M(2, 3).mm(M(3, 4, dtype=torch.uint8)).dtype, torch.mm(M(0, 3), D(3, 4)).shape, torch.mm(M(2, 0), D(0, 4)).dtype)
    print((M(2, 3) @ D(3, 4)).dtype, (L(2, 3) @ M(3, 4)).dtype, (M(3) @ D(3, 4)).dtype, (M(2, 3) @ D(3)).dtype)
    print((M(5, 2, 3) @ D(3, 4)).dtype, (M(5, 2, 3) @ D(3)).dtype)
    print(M(2, 3).matmul(L(3, 4)).dtype, M(2, 3).__rmatmul__(D(4, 2)).dtype)
    M(3) @ D(3)
    M(5, 2, 3) @ D(5, 3, 4)
    M(2, 3) @ D(5, 3, 4)
    torch.bmm(M(5, 2, 3), D(5, 3, 4))
    torch.bmm(M(5, 2, 3), D(4, 3, 4))
    torch.bmm(M(5, 2), D(4, 3, 4))
    print(torch.bmm(B(2, 2, 3), B(2, 3, 1)).dtype, torch.mv(M(2, 3), D(3)).dtype)
    print(torch.mv(L(2, 3), B(3)).dtype, torch.mv(B(2, 3), B(3)).dtype)
    print(torch.dot(B(3), B(3)).dtype, torch.dot(L(3), L(3)).dtype)
    print(F.linear(M(2, 3), D(4, 3)).dtype, F.linear(M(2, 3), D(4, 3), M(4)).dtype, F.linear(M(2, 3), M(4, 3), D(4)).dtype)
    print(F.linear(M(5, 2, 3), D(4, 3), M(4)).dtype, F.linear(M(3), D(4, 3), M(4)).dtype, F.linear(M(3), D(4, 3)).dtype)
    print(F.linear(L(2, 3), M(4, 3), L(4)).dtype)
    F.linear(M(5, 3, 2).transpose(1, 2), D(4, 3), M(4))
    print(torch.addmm(M(2, 4), M(2, 3), D(3, 4)).dtype)
    print(torch.addmm(D(2, 4), M(2, 3), M(3, 4)).dtype, torch.addmm(L(4), M(2, 3), M(3, 4)).dtype)
    print(torch.addmm(D(4), M(2, 3), M(3, 4), beta=0).dtype, torch.addmm(L(4), L(2, 3), B(3, 4)).dtype)
    torch.addmm(M(5, 4), M(2, 3), D(3, 4))
    torch.addmv(M(2), M(2, 3), D(3))
    torch.addmv(D(2), M(2, 3), M(4))
    torch.addmv(M(2), M(2, 3), M(4))
    torch.baddbmm(M(5, 2, 4), M(5, 2, 3), D(5, 3, 4))
    torch.baddbmm(M(5, 2, 4), M(5, 2, 3), D(5, 4, 4))
    torch.baddbmm(M(5, 2, 4), M(5, 2), D(5, 3, 4))
    print(torch.baddbmm(B(5, 2, 4), B(5, 2, 3), B(5, 3, 4)).dtype)
    print(torch.addbmm(M(2, 4), M(5, 2, 3), D(5, 3, 4)).dtype, torch.addbmm(L(4), M(5, 2, 3), M(5, 3, 4)).dtype)
    torch.addbmm(M(2, 4), M(5, 2, 3), D(4, 3, 4))
    print(M(2).addmv_(M(2, 3), M(3)).dtype, M(2, 4).addbmm_(M(5, 2, 3), D(5, 3, 4)).dtype)
    print(L(2, 4).addbmm_(M(5, 2, 3), D(5, 3, 4)).dtype)
    M(2).addmv_(M(2, 3), D(3))
    M(2, 2, 4).baddbmm_(M(2, 2, 3), D(2, 3, 4))
    print(torch.addmm(B(2, 4), B(2, 3), B(3, 4)).dtype, torch.addmm(L(2, 4), L(2, 3), L(3, 4), beta=2, alpha=3).dtype)
    print(torch.addmm(H(2, 4), M(2, 3), M(3, 4)).dtype, torch.addmm(L(2, 4), L(2, 3), L(3, 4), beta=1.5).dtype)
    print(torch.mm(M(2, 3), D(3, 4)).stride(), torch.addmm(D(4), M(2, 3), M(3, 4)).stride())
    print(torch.mv(M(0, 3), D(3)).dtype, torch.mv(M(2, 0), D(0)).shape)
    print(torch.outer(M(2), D(3)).dtype)
    torch.tensordot(M(2, 3), D(3, 4), 1)
    torch.einsum('ij,jk->ik', M(2, 3), D(3, 4))
    x = M(2, 3).requires_grad_()
    w = D(3, 4).requires_grad_()
    y = x.mm(w)
    y.sum().backward()
    print(y.dtype, y.grad_fn.name(), x.grad.dtype, w.grad.dtype)
    x = M(2, 3).requires_grad_()
    w = D(4, 3).requires_grad_()
    y = F.linear(x, w, M(4))
    y.sum().backward()
    print(y.dtype, y.grad_fn.name(), x.grad.dtype, w.grad.dtype)
    x = M(5, 2, 3).requires_grad_()
    w = D(3, 4).requires_grad_()
    y = x @ w
    y.sum().backward()
    print(y.dtype, y.grad_fn.name(), x.grad.dtype, w.grad.dtype)
    """)


def test_out_dtype_and_device():
    # torch's meta functions and references write out= through torch/_prims_common's out_wrapper: out
    # resized, then "Attempting to copy from device meta to device cpu, ...", then a safe cast ("Attempting
    # to cast from ...") or, for where, the matrix products, log_softmax and narrow_copy, the same dtype
    # ("Expected out tensor to have dtype torch.float32 but got ..."); gather and scatter keep their
    # structured kernels' words
    compare(PRELUDE + """
    D = lambda *s: M(*s, dtype=torch.double)
    L = lambda *s: M(*s, dtype=torch.long)
    H = lambda *s: M(*s, dtype=torch.half)
    C = torch.empty
    for o in [L(4, 3), D(4, 3), H(4, 3), B(4, 3), C(4, 3), L(5)]:
        for f in [lambda: torch.cat([M(2, 3), M(2, 3)], out=o), lambda: torch.concat([M(2, 3), M(2, 3)], out=o),
                  lambda: torch.vstack([M(2, 3), M(2, 3)], out=o), lambda: torch.hstack([M(4, 1), M(4, 2)], out=o),
                  lambda: torch.take(M(2, 6), L(4, 3), out=o), lambda: torch.index_select(M(2, 3), 0, L(4), out=o),
                  lambda: torch.where(B(4, 3), M(4, 3), 0., out=o), lambda: torch.clamp(M(4, 3), 0, 1, out=o),
                  lambda: torch.clip(M(4, 3), M(4, 3), out=o), lambda: torch.clamp_min(M(4, 3), 0, out=o),
                  lambda: torch.clamp_max(M(4, 3), M(4, 3), out=o), lambda: torch.mm(M(4, 2), M(2, 3), out=o),
                  lambda: torch.matmul(M(4, 2), M(2, 3), out=o), lambda: torch.addmm(M(3), M(4, 2), M(2, 3), out=o),
                  lambda: torch.lerp(M(4, 3), M(4, 3), M(4, 3), out=o), lambda: torch.softmax(M(4, 3), 0, out=o),
                  lambda: torch.log_softmax(M(4, 3), 0, out=o), lambda: torch.tril(M(4, 3), out=o),
                  lambda: torch.triu(M(4, 3), out=o), lambda: torch.index_add(M(4, 3), 0, L(2), M(2, 3), out=o),
                  lambda: torch.nan_to_num(M(4, 3), out=o), lambda: torch.heaviside(M(4, 3), M(4, 3), out=o),
                  lambda: torch.max(M(4, 3), M(4, 3), out=o), lambda: torch.logcumsumexp(M(4, 3), 0, out=o),
                  lambda: torch.mvlgamma(M(4, 3), 1, out=o), lambda: torch.narrow_copy(M(5, 3), 0, 0, 4, out=o),
                  lambda: torch.add(M(4, 3), 1, out=o), lambda: torch.sin(M(4, 3), out=o),
                  lambda: torch.cumsum(M(4, 3), 0, out=o), lambda: torch.gather(M(4, 3), 0, L(4, 3), out=o),
                  lambda: torch.scatter(M(4, 3), 0, L(4, 3), M(4, 3), out=o)]:
            try:
                r = f()
                print(r.dtype, r.device, r.shape)
            except Exception as e:
                print(type(e).__name__, e)
    for o in [L(2, 2, 2), D(2, 2, 2), C(2, 2, 2)]:
        for f in [lambda: torch.stack([M(2, 2), M(2, 2)], out=o), lambda: torch.bmm(M(2, 2, 3), M(2, 3, 2), out=o),
                  lambda: torch.matmul(M(2, 2, 3), M(2, 3, 2), out=o),
                  lambda: torch.baddbmm(M(2, 2, 2), M(2, 2, 3), M(2, 3, 2), out=o)]:
            try:
                print(f().dtype)
            except Exception as e:
                print(type(e).__name__, e)
    for o in [L(2), D(2), C(2)]:
        for f in [lambda: torch.mv(M(2, 3), M(3), out=o), lambda: torch.addmv(M(2), M(2, 3), M(3), out=o),
                  lambda: torch.amax(M(2, 3), 1, out=o), lambda: torch.sum(M(2, 3), 1, out=o),
                  lambda: torch.mean(M(2, 3), 1, out=o), lambda: torch.dot(M(3), M(3), out=o.sum())]:
            try:
                print(f().dtype)
            except Exception as e:
                print(type(e).__name__, e)
    torch.mm(M(2, 3), M(4, 3), out=L(2, 4))
    torch.cat([M(2, 3), M(2, 4)], out=L(4, 3))
    torch.mm(M(2, 3), D(3, 4), out=M(2, 4))
    print(torch.cat([L(2, 3), L(2, 3)], out=M(4, 3)).dtype, torch.clamp(L(2, 3), 0, 1, out=M(2, 3)).dtype)
    print(torch.where(B(2, 3), L(2, 3), L(()), out=L(2, 3)).dtype, torch.index_select(M(2, 3), 0, L(2), out=D(2, 3)).dtype)
    torch.where(B(2, 3), L(2, 3), M(()), out=L(2, 3))
    # out's device against a first tensor argument before the op runs (out keeps its shape), against the
    # result after out is resized otherwise (cat's list)
    for f in [lambda o: torch.clamp(M(2, 3), M(4, 3), out=o), lambda o: torch.mm(M(2, 3), M(4, 3), out=o),
              lambda o: torch.where(B(2, 3), M(4, 3), M(2, 3), out=o), lambda o: torch.cat([M(2, 3), M(2, 3)], out=o),
              lambda o: torch.take(M(2, 3), L(4), out=o), lambda o: torch.add(M(2, 3), M(4, 3), out=o)]:
        o = C(5)
        try:
            f(o)
        except Exception as e:
            print(type(e).__name__, e)
        print(o.shape)
    U = lambda *s: M(*s, dtype=torch.uint8)
    for o in [L(3), U(3), B(3), C(3)]:
        for f in [lambda: torch.all(M(2, 3), 0, out=o), lambda: torch.any(M(2, 3), 0, out=o),
                  lambda: torch.all(U(2, 3), 0, out=o), lambda: torch.signbit(M(3), out=o),
                  lambda: torch.isposinf(M(3), out=o), lambda: torch.isneginf(M(3), out=o)]:
            try:
                print(f().dtype)
            except Exception as e:
                print(type(e).__name__, e)
    o = M(5)
    torch.cat([M(2, 3), M(2, 3)], out=o)
    print(o.shape)
    o = L(5)
    torch.mm(M(2, 3), M(3, 4), out=o)
    print(o.shape)
    """)


def test_out_of_unary_ops_and_reference_reductions():
    # on meta, torch writes the unary ops' out= through their references' out_wrapper: a safe cast (neg,
    # round, bitwise_not, the float ops) or the same dtype (abs, ceil, floor, trunc, frac, sign, sgn:
    # exact_dtype=True); nansum, nanmean and logsumexp are their references too: the result of their own
    # dtype rules (dtype= kept, no floating-out check) cast into out
    compare(PRELUDE + """
    D = lambda *s: M(*s, dtype=torch.double)
    L = lambda *s: M(*s, dtype=torch.long)
    H = lambda *s: M(*s, dtype=torch.half)
    I = lambda *s: M(*s, dtype=torch.int)
    C = torch.empty
    for x in [M(2, 3), L(2, 3), H(2, 3)]:
        for o in [M(0), D(0), L(0), H(0), B(0), C(0), M(3, 2)]:
            for f in [torch.neg, torch.negative, torch.abs, torch.absolute, torch.floor, torch.ceil, torch.trunc,
                      torch.fix, torch.round, torch.frac, torch.sign, torch.sgn, torch.bitwise_not, torch.sin,
                      torch.exp, torch.sqrt, torch.square, torch.reciprocal, torch.sigmoid]:
                try:
                    r = f(x, out=o)
                    print(f.__name__, r.dtype, r.device, r.shape)
                except Exception as e:
                    print(f.__name__, type(e).__name__, e)
    for x in [M(2, 3), I(2, 3), H(2, 3)]:
        for o in [M(0), D(0), L(0), H(0), B(0), C(0)]:
            for f in [lambda: torch.nansum(x, 1, out=o), lambda: torch.nanmean(x.float(), 1, out=o),
                      lambda: torch.logsumexp(x, 1, out=o), lambda: torch.special.logsumexp(x, 1, out=o),
                      lambda: torch.nansum(x, 1, dtype=torch.float64, out=o),
                      lambda: torch.nanmean(x.float(), 1, dtype=torch.float64, out=o)]:
                try:
                    r = f()
                    print(r.dtype, r.device, r.shape)
                except Exception as e:
                    print(type(e).__name__, e)
    """)


def test_meta_out_of_composites_and_cpu_inputs():
    # a meta out among CPU inputs sends the op to torch's meta function too: out_wrapper's "Attempting to
    # copy from device cpu to device meta"; diag_out's can_cast for a 1-D input on every device, then
    # diag_embed's cast or diagonal_copy's exact dtype on meta; take_along_dim's checkDevice of all its
    # tensors; frexp's reference writing each output in turn
    compare(PRELUDE + """
    c = torch.zeros(2, 3)
    o = lambda **k: M(0, **k)
    for f in [lambda: torch.neg(c, out=o()), lambda: torch.add(c, c, out=o()), lambda: torch.sum(c, 1, out=o()),
              lambda: torch.cat([c, c], out=o()), lambda: torch.mm(c, c.t(), out=o()),
              lambda: torch.sin(c, out=o(dtype=torch.float64)), lambda: torch.abs(c, out=o(dtype=torch.float64)),
              lambda: torch.clamp(c, 0, 1, out=o()), lambda: torch.where(c > 0, c, c, out=o()),
              lambda: torch.logsumexp(c, 1, out=o()), lambda: torch.tril(c, out=o()),
              lambda: torch.softmax(c, 1, out=o()), lambda: torch.cumsum(c, 1, out=o()),
              lambda: torch.take(c, torch.tensor([0]), out=o()), lambda: torch.max(c, c, out=o()),
              lambda: torch.mean(c, 1, out=o())]:
        try:
            print(f().shape)
        except Exception as e:
            print(type(e).__name__, e)
    for dev in ('cpu', 'meta'):
        for shape in ((3,), (3, 3)):
            for od in (torch.float32, torch.float64, torch.int64, torch.float16):
                for odev in ('cpu', 'meta'):
                    try:
                        r = torch.diag(torch.zeros(shape, device=dev), out=torch.empty(0, dtype=od, device=odev))
                        print(r.dtype, r.device, r.shape)
                    except Exception as e:
                        print(type(e).__name__, e)
            for idev in ('cpu', 'meta'):
                for odev in ('cpu', 'meta', None):
                    x, i = torch.zeros(3, 4, device=dev), torch.zeros(3, 2, dtype=torch.long, device=idev)
                    try:
                        if odev is None:
                            r = torch.take_along_dim(x, i, 1)
                        else:
                            r = torch.take_along_dim(x, i, 1, out=torch.empty(0, device=odev))
                        print(r.dtype, r.device, r.shape)
                    except Exception as e:
                        print(type(e).__name__, e)
    C = torch.empty
    for out in [(M(0), M(0, dtype=torch.int32)), (C(0), C(0, dtype=torch.int32)), (M(0), C(0, dtype=torch.int32)),
                (C(0), M(0, dtype=torch.int32)), (M(0, dtype=torch.float64), M(0, dtype=torch.int32)),
                (M(0), M(0, dtype=torch.int64)), (M(0, dtype=torch.int64), M(0, dtype=torch.int32)),
                (M(0), M(0, dtype=torch.float16))]:
        for x in (M(3), C(3)):
            try:
                r = torch.frexp(x, out=out)
                print(r.mantissa.shape, r.mantissa.device, r.mantissa.dtype, r.exponent.dtype, r[0] is out[0])
            except Exception as e:
                print(type(e).__name__, e)
    """)


def test_linalg_on_meta():
    # torch's meta functions of the linear algebra: shapes, dtypes and strides (column-major factors, Vh
    # row-major on meta), nodes and meta gradients, and their words (squareCheckInputs' AssertionError,
    # dtypes as torch.int64, linalg.inv_ex, torch.Size); no dtype dispatch error on meta
    compare(PRELUDE + SHOW + """
    for s in [(3, 3), (2, 4, 4), (0, 3, 3), (2, 3, 5), (4, 2), (3,)]:
        for d in (torch.float32, torch.float64, torch.float16, torch.int64):
            A = M(*s, dtype=d)
            for f in [torch.linalg.det, torch.linalg.slogdet, torch.logdet, torch.linalg.inv, torch.linalg.inv_ex,
                      torch.linalg.svd, lambda a: torch.linalg.svd(a, full_matrices=False), torch.linalg.svdvals,
                      torch.svd, torch.linalg.qr, lambda a: torch.linalg.qr(a, 'complete'),
                      lambda a: torch.linalg.qr(a, 'r'), torch.linalg.eigh, torch.linalg.eigvalsh,
                      torch.linalg.cholesky, torch.linalg.cholesky_ex, torch.linalg.pinv, torch.linalg.matrix_rank,
                      lambda a: torch.linalg.matrix_norm(a, 'nuc'), lambda a: torch.linalg.matrix_norm(a, 2),
                      torch.linalg.lu_factor, torch.linalg.lu_factor_ex, torch.linalg.lu,
                      lambda a: torch.linalg.solve(a, M(*s[:-1], 2, dtype=d)),
                      lambda a: torch.linalg.solve_ex(a, M(*s[:-1], dtype=d)),
                      lambda a: torch.linalg.solve_triangular(a, M(*s[:-1], 2, dtype=d), upper=True),
                      lambda a: torch.cholesky_solve(M(*s[:-1], 2, dtype=d), a), torch.cholesky_inverse,
                      lambda a: torch.linalg.lu_solve(a, M(*s[:-1], dtype=torch.int32), M(*s[:-1], 2, dtype=d)),
                      lambda a: torch.lu_unpack(a, M(*s[:-2], min(s[-2:]), dtype=torch.int32)),
                      torch.linalg.cond, lambda a: torch.linalg.matrix_power(a, -2), torch.inverse,
                      lambda a: torch.pca_lowrank(a, q=1)]:
                show(lambda: f(A))
    A = M(3, 3).requires_grad_()
    for f in [torch.linalg.inv, torch.linalg.det, lambda a: torch.linalg.svd(a)[1], lambda a: torch.linalg.qr(a)[1],
              lambda a: torch.linalg.eigh(a)[0], lambda a: torch.linalg.solve(a, M(3))]:
        r = f(A)
        print(r.grad_fn.name())
        g, = torch.autograd.grad(r.sum(), A)
        print(g.shape, g.device.type)
    """)


def test_data_dependent_ops_on_meta():
    # ops whose result's shape does not depend on the data give it on meta (selections, searches, histc,
    # one_hot with num_classes, normal, the triangle indices, matrix_exp); those whose shape does, or that
    # read values, raise torch's "aten::...: attempted to run this operator with Meta tensors" (unique,
    # equal, bincount, histogram, cov, ctc_loss with length tensors, lstsq)
    compare(PRELUDE + SHOW + """
    L = lambda *s: M(*s, dtype=torch.long)
    F = torch.nn.functional
    for f in [lambda: torch.kthvalue(M(3), 1), lambda: torch.kthvalue(M(2, 5), 2, 1, True), lambda: torch.mode(M(3)),
              lambda: torch.mode(M(2, 3), 0), lambda: torch.nanmedian(M(4)), lambda: torch.nanmedian(M(4, 2), 1),
              lambda: torch.median(M(4)), lambda: M(3, 4).kthvalue(1, 0),
              lambda: torch.searchsorted(M(3), M(2)), lambda: torch.searchsorted(M(2, 3), M(2, 5), out_int32=True),
              lambda: torch.bucketize(M(3), M(2)), lambda: torch.bucketize(M(2, 3), M(4), right=True),
              lambda: torch.histc(M(3)), lambda: torch.histc(M(3), 7, 0, 1),
              lambda: F.one_hot(L(3), 4), lambda: F.one_hot(L(2, 3), 0), lambda: F.one_hot(L(0), 4),
              lambda: F.one_hot(L(3)), lambda: F.one_hot(L(3), -3),
              lambda: torch.normal(M(3), M(3)), lambda: torch.normal(M(2, 1), M(3)), lambda: torch.normal(M(3), 2.0),
              lambda: torch.tril_indices(3, 3, device='meta'), lambda: torch.triu_indices(4, 2, 1, device='meta'),
              lambda: torch.linalg.matrix_exp(M(2, 2)), lambda: torch.matrix_exp(M(3, 4, 4, dtype=torch.float64)),
              lambda: torch.unique(M(3)), lambda: torch.unique(M(3), sorted=False), lambda: torch.unique(M(3, 2), dim=1),
              lambda: torch.unique_consecutive(M(3)), lambda: torch.unique_consecutive(M(3, 2), dim=0),
              lambda: M(3).unique(return_counts=True), lambda: torch.equal(M(3), M(3)),
              lambda: torch.equal(torch.zeros(3), M(3)), lambda: torch.equal(M(3), M(4)),
              lambda: torch.bincount(L(3)), lambda: torch.bincount(M(3)), lambda: torch.bincount(L(3), weights=M(3)),
              lambda: torch.histogram(M(4)), lambda: torch.histogram(M(3), torch.zeros(4)),
              lambda: torch.cov(M(3, 4)), lambda: torch.cov(M(3), correction=0), lambda: torch.corrcoef(M(3)),
              lambda: torch.cov(M(2, 2, 2)), lambda: torch.cov(M(3, dtype=torch.bool)),
              lambda: F.ctc_loss(M(5, 2, 4), L(2, 3), L(2), L(2)),
              lambda: torch.linalg.lstsq(M(3, 2), M(3, 1))]:
        show(f)
    """)


def test_clamp_bounds():
    # torch's meta clamp has no kernel: no bool dispatch error and no bound read in the result's dtype
    compare(PRELUDE + """
    U = lambda *s: M(*s, dtype=torch.uint8)
    print(torch.clamp(U(2), 0, 300).dtype, U(2).clamp_(0, 300).dtype, torch.clamp_max(U(2), 300).dtype)
    print(torch.clamp_min(U(2), -5).dtype, torch.clamp(M(2, dtype=torch.half), 1e6).dtype)
    print(torch.clamp(B(2), 0, 1).dtype, torch.clamp(B(2), False, True).dtype, torch.clamp(B(2), B(2)).dtype)
    print(torch.clamp_min(B(2), True).dtype, torch.clamp_max(B(2), 1.5).dtype, torch.clamp(M(()), 0, 1).shape)
    B(2).clamp_(0, 1)
    torch.clamp(U(2), 0, 300, out=U(2))
    torch.clamp(M(2, dtype=torch.long), 2 ** 70)
    torch.clamp(torch.zeros(2, dtype=torch.uint8), 0, 300)
    torch.clamp(torch.zeros(2, dtype=torch.bool), 0, 1)
    """)


def test_meta_matrix_next_to_a_cpu_one():
    # torch's meta mm and bmm check no devices: the result is made where the operand it copies lives (a CPU
    # result is left unwritten: only its shape, dtype and device are compared); mv and dot are decompositions
    # whose products check devices
    compare(PRELUDE + """
    C = torch.empty
    F = torch.nn.functional
    for f in [lambda: torch.mm(M(2, 3), C(3, 4)), lambda: torch.mm(C(2, 3), M(3, 4)), lambda: M(2, 3) @ C(3, 4),
              lambda: C(2, 3) @ M(3, 4), lambda: M(5, 2, 3) @ C(3, 4), lambda: M(2, 3) @ C(3), lambda: C(2, 3) @ M(3),
              lambda: M(3) @ C(3), lambda: torch.bmm(M(2, 2, 3), C(2, 3, 4)), lambda: torch.bmm(C(2, 2, 3), M(2, 3, 4)),
              lambda: F.linear(M(2, 3), C(4, 3)), lambda: F.linear(C(2, 3), M(4, 3)),
              lambda: torch.mm(M(2, 3), C(3, 4, dtype=torch.double)), lambda: M(5, 2, 3) @ C(5, 3, 4),
              lambda: torch.mm(M(2, 3), C(4, 4)), lambda: torch.mm(C(2, 3), M(4, 4)), lambda: torch.mv(C(2, 3), M(4)),
              lambda: torch.mm(M(2, 3), C(3, 4), out=M(2, 4)), lambda: torch.mm(C(2, 3), M(3, 4), out=M(2, 4)),
              lambda: torch.mm(M(2, 3), C(3, 4), out=C(2, 4)), lambda: torch.matmul(M(5, 2, 3), C(3, 4), out=M(1)),
              lambda: torch.mm(C(2, 3), M(3, 4), out=C(2, 4, dtype=torch.double))]:
        try:
            r = f()
            print(r.device, r.dtype, r.shape)
        except Exception as e:
            print(type(e).__name__, e)
    """)


def test_meta_addmm_and_linear_next_to_a_cpu_tensor():
    # torch's meta addmm is its decomposition: mm (a CPU matrix let through, the product where mat1 lives),
    # then product + beta * self, broadcast first, then one device for the two (a CPU scalar self goes with
    # any, beta=0 never looks at self); linear with a bias is that addmm
    compare(PRELUDE + SHOW + """
    C = torch.zeros
    F = torch.nn.functional
    show(lambda: torch.addmm(M(5, 3), C(2, 4), M(4, 3)))
    show(lambda: torch.addmm(C(5, 3), M(2, 4), M(4, 3)))
    show(lambda: torch.addmm(torch.tensor(1.), M(2, 4), M(4, 3)))
    show(lambda: torch.addmm(M(3), C(2, 4), M(4, 3)))
    show(lambda: torch.addmm(M(()), C(2, 4), M(4, 3)))
    show(lambda: torch.addmm(C(3), M(2, 4), C(4, 3)))
    show(lambda: torch.addmm(C(3), C(2, 4), M(4, 3)))
    show(lambda: torch.addmm(C(3), M(2, 4), M(4, 3), beta=0))
    show(lambda: torch.addmm(M(3), C(2, 4), M(4, 3), beta=0))
    show(lambda: torch.addmm(M(3), C(2, 4), M(5, 3)))
    show(lambda: torch.addmm(M(3), C(2, 4), M(4, 3, dtype=torch.float64)))
    show(lambda: torch.addmm(M(3, dtype=torch.float64), M(2, 4), C(4, 3)))
    show(lambda: torch.addmm(C(3, dtype=torch.float64), M(2, 4), M(4, 3)))
    show(lambda: torch.addmm(M(3), M(2, 4), C(4, 3), beta=2, alpha=3))
    show(lambda: F.linear(M(2, 4), C(3, 4), M(3)))
    show(lambda: F.linear(C(2, 4), M(3, 4), C(3)))
    show(lambda: F.linear(M(5, 2, 4), C(3, 4), M(3)))
    show(lambda: F.linear(M(2, 4), M(3, 4), C(3)))
    show(lambda: F.linear(M(2, 4), M(3, 4), torch.tensor(2.)))
    show(lambda: F.linear(C(2, 4), M(3, 4), M(3)))
    show(lambda: F.linear(M(4), C(3, 4), M(3)))
    """)


def test_nothing_leaves_an_empty_meta_tensor():
    # torch refuses to copy out of a meta tensor even when it has no elements; memoryview finds no buffer
    # protocol on torch's tensors (its TypeError); nanmean's out= overload refuses an integer input first,
    # on every device
    compare(PRELUDE + """
    M(0).cpu()
    M(0).tolist()
    M(0).to('cpu')
    M(0, 3).to('cpu', torch.float64)
    torch.empty(0).copy_(M(0))
    print(M(0).to('meta').shape, M(0).clone().shape, M(0, 2).contiguous().shape)
    print(M(0).copy_(torch.empty(0)).shape, M(0).copy_(M(0)).shape)
    memoryview(M(3))
    memoryview(M(0))
    memoryview(torch.nn.Parameter(M(3)))
    torch.nanmean(M(3, dtype=torch.long), out=M(0))
    torch.nanmean(M(3, dtype=torch.long), out=M(0, dtype=torch.long))
    torch.nanmean(M(3, dtype=torch.long), dim=0, out=M(0))
    torch.nanmean(M(3, dtype=torch.int8), dim=(0, 0), out=M(0))
    torch.nanmean(M(3, dtype=torch.long), dtype=torch.float, out=M(0))
    torch.nanmean(B(3), out=M(0))
    torch.nanmean(torch.zeros(3, dtype=torch.long), out=M(0))
    torch.nanmean(torch.zeros(3, dtype=torch.long), out=torch.zeros(0))
    torch.nanmean(M(3, dtype=torch.long), out=torch.zeros(0))
    torch.nanmean(M(3, dtype=torch.long))
    torch.nanmean(M(3), dtype=torch.long, out=M(0))
    print(torch.nanmean(M(3), out=M(0)).shape)
    """)


def test_tensor_indices_on_meta():
    # torch's meta index reads no index value: each index's dtype in turn (int8 is its "byte", uint8 is
    # refused, a RuntimeError), a mask's nonzero() (none on meta; a CPU mask is read, then its shape checked
    # in torch.Size's words), the indices broadcast in torch/_refs' words, no bounds, the result's strides
    # from the restrided source alone (contiguous when it is empty), where self lives; its meta index_put_
    # returns self unchecked (index_put: empty_like(self)), and autograd records both nodes
    compare(PRELUDE + """
    L = torch.long
    def R(*s, dtype=None):
        return torch.empty(*s, device='meta', dtype=dtype, requires_grad=True)
    def show(f):
        try:
            r = f()
            fn = r.grad_fn.__class__.__name__ if r.grad_fn is not None else None
            print(r.shape, r.dtype, r.stride(), r.device.type, fn)
        except Exception as e:
            print(type(e).__name__, e)
    def put(x, key, v):
        x[key] = v
        return x
    show(lambda: M(5, 3)[M((), dtype=L)])
    show(lambda: M(5, 3)[torch.tensor(2)])
    show(lambda: M(5, 3)[M((), dtype=L), M(2, dtype=L)])
    show(lambda: M(0, 3)[M(2, dtype=L)])
    show(lambda: M(5, 0)[M(2, dtype=L)])
    show(lambda: M(5, 3)[M(2, 3, dtype=L).t()])
    show(lambda: M(3, 5).t()[M(2, dtype=L)])
    show(lambda: M(3, 5).t()[:, M(2, dtype=L)])
    show(lambda: M(4, 5, 6).permute(2, 0, 1)[M(2, 1, dtype=L), :, M(3, dtype=L)])
    show(lambda: M(4, 5, 6).permute(2, 0, 1)[:, M(2, 1, dtype=L), M(3, dtype=L)])
    show(lambda: M(4, 5, 6)[..., M(2, dtype=L)])
    show(lambda: M(4, 5, 6)[None, M(2, dtype=L), None, 1:3])
    show(lambda: M(5, 3)[M(2, dtype=torch.uint8)])
    show(lambda: M(5, 3)[M(2, dtype=torch.int8)])
    show(lambda: M(5, 3)[M(5, dtype=torch.bool), M(2, dtype=torch.float)])
    show(lambda: M(5, 3)[M(2, dtype=torch.float), M(5, dtype=torch.bool)])
    show(lambda: M(5, 3)[M(2, dtype=torch.int32), M(2, 1, dtype=L)])
    show(lambda: M(5, 3)[torch.tensor([True, False, True, True, True])])
    show(lambda: M(5, 3)[torch.tensor([True, False, True, True])])
    show(lambda: M(5, 3)[torch.tensor([[True, False, True], [True]*3, [True]*3, [False]*3, [True]*3])])
    show(lambda: torch.zeros(5, 3)[M(2, dtype=L)])
    show(lambda: torch.zeros(5, 3)[M(2, dtype=L), M(3, dtype=L)])
    show(lambda: torch.zeros(5, 3)[M(2, dtype=torch.float)])
    show(lambda: R(5, 3)[M(2, dtype=L)])
    show(lambda: M(5, 3)[[0, 7]])
    show(lambda: M(5, 3)[[[0, 7], [1, 2]]])
    show(lambda: M(5, 3)[M(2, dtype=L), [0, 1, 2]])
    show(lambda: M(5, 3)[torch.tensor([7]), M(1, 3, dtype=L)])
    show(lambda: put(M(5, 3), M(2, dtype=L), 1.0))
    show(lambda: put(M(5, 3), M(2, dtype=L), M(7)))
    show(lambda: put(M(5, 3), (M(2, dtype=L), M(3, dtype=L)), M(7)))
    show(lambda: put(M(5, 3), M(2, dtype=torch.float), M(7)))
    show(lambda: put(M(5, 3), M(5, dtype=torch.bool), 1.0))
    show(lambda: put(M(5, 3), M(4, dtype=torch.bool), 1.0))
    show(lambda: put(M(5, 3), M(4, dtype=torch.bool), M(2)))
    show(lambda: put(M(5, 3), torch.tensor([True, False, True, True]), 1.0))
    show(lambda: put(M(5, 3), torch.tensor([9]), 1.0))
    show(lambda: put(M(5, 3), torch.tensor([9]), M(3, dtype=L)))
    show(lambda: put(M(5, 3), torch.tensor([9]), torch.zeros(3)))
    show(lambda: put(torch.zeros(5, 3), M(2, dtype=L), 1.0))
    show(lambda: put(torch.zeros(5, 3), torch.tensor([1]), M(3)))
    show(lambda: put(torch.zeros(5, 3), torch.tensor([9]), M(3)))
    show(lambda: put(M(5, 3), (slice(None), M(2, dtype=L)), M(9)))
    show(lambda: put(M(5, 3), M(2, dtype=L), M(4, 2, 3)))
    show(lambda: put(M(5, 3).expand(2, 5, 3), M(2, dtype=L), 1.0))
    show(lambda: M(5, 3).index_put_((M(2, dtype=L),), M(4)))
    show(lambda: M(5, 3).index_put_((M(2, dtype=L), M(3, dtype=L)), M(1), accumulate=True))
    show(lambda: M(5, 3).index_put_((M(2, dtype=torch.float),), M(3, dtype=L)))
    show(lambda: M(5, 3).index_put_((), M(3)))
    show(lambda: M(5, 3).index_put_((None,), M(3)))
    show(lambda: M(5, 3).index_put_((M(2, dtype=L),), torch.zeros(3)))
    show(lambda: torch.zeros(5, 3).index_put_((M(2, dtype=L),), torch.zeros(3)))
    show(lambda: torch.zeros(5, 3).index_put_((torch.tensor([9]),), M(3)))
    show(lambda: M(5, 3).t().index_put((M(2, dtype=L),), M(4)))
    show(lambda: torch.index_put(M(5, 3).t(), (M(2, dtype=L),), M(4), True))
    show(lambda: torch.zeros(5, 3).index_put((M(2, dtype=L),), M(4)))
    show(lambda: R(5, 3).index_put((M(2, dtype=L),), M(4)))
    show(lambda: M(5, 3).index_put_([M(2, dtype=L)] * 3, M(4)))
    show(lambda: M(2, 3, 4, 5).permute(0, 2, 3, 1)[:, M(2, dtype=L)])
    show(lambda: M(2, 3, 4, 5).to(memory_format=torch.channels_last)[:, M(2, dtype=L)])
    show(lambda: M(2, 3, 4, 5).to(memory_format=torch.channels_last)[M(2, dtype=L)])
    show(lambda: M(2, 3, 4, 5).to(memory_format=torch.channels_last)[:, :, M(2, dtype=L)])
    show(lambda: M(2, 3, 4, 5).to(memory_format=torch.channels_last)[:, :, :, M(2, 1, dtype=L)])
    show(lambda: M(6, 5)[::2, M(2, 3, dtype=L)])
    show(lambda: M(6, 5, 4)[::2, M(2, 3, dtype=L), 1:])
    show(lambda: M(6, 5, 4).transpose(0, 2)[M(2, 3, dtype=L), :, M(3, dtype=L)])
    show(lambda: M(6, 1, 4)[:, M(2, dtype=L)])
    show(lambda: M(1, 5, 1)[:, M(2, dtype=L)])
    show(lambda: M(6, 5).expand(3, 6, 5)[:, M(2, dtype=L)])
    show(lambda: R(6, 5)[M(2, dtype=L)])
    def bw():
        x = R(6, 5)
        x[M(2, dtype=L), M(3, 1, dtype=L)].sum().backward()
        return x.grad
    show(bw)
    def bw2():
        x = R(6, 5)
        y = x * 2
        y[M(2, dtype=L)] = R(5)
        y.sum().backward()
        return x.grad
    show(bw2)
    def bw3():
        x = R(6, 5)
        v = R(2, 5)
        y = x.index_put((M(2, dtype=L),), v, accumulate=True)
        y.sum().backward()
        return v.grad
    show(bw3)
    show(lambda: R(6, 5).index_put((M(2, dtype=L),), M(4)))
    """)


def test_save_and_load_of_meta_tensors():
    # torch pickles a meta tensor as _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad): no
    # storage record, no storage offset, nothing shared; a load gives meta tensors whatever map_location
    # says (weights_only allows the rebuild); deepcopy clones a meta tensor
    compare(PRELUDE + """
    import io, pickle, copy, zipfile, pickletools
    b = io.BytesIO()
    torch.save({'w': M(2, 3), 'b': M(3, dtype=torch.long), 'v': M(2, 3)[:, 1]}, b)
    z = zipfile.ZipFile(io.BytesIO(b.getvalue()))
    print([(i.filename, i.file_size) for i in z.infolist()])
    pickletools.dis(z.read('archive/data.pkl'))
    def desc(t):
        return (type(t).__name__, tuple(t.shape), str(t.dtype), t.stride(), t.device.type, t.storage_offset(), t.requires_grad)
    lin = torch.nn.Linear(3, 2, device='meta')
    b = io.BytesIO()
    torch.save(lin.state_dict(), b)
    print(sorted(zipfile.ZipFile(io.BytesIO(b.getvalue())).namelist()))
    b.seek(0)
    sd = torch.load(b)
    print({k: desc(v) for k, v in sd.items()})
    b.seek(0)
    print({k: desc(v) for k, v in torch.load(b, map_location='cpu', weights_only=True).items()})
    b = io.BytesIO()
    torch.save([torch.nn.Parameter(M(2, 3)), M(4, 5).t(), M(6)[2:], M(2, dtype=torch.bool).requires_grad_(False)], b)
    b.seek(0)
    print([desc(t) for t in torch.load(b)])
    x = torch.empty(2, 3, device='meta', requires_grad=True)
    y = pickle.loads(pickle.dumps(x))
    print(desc(y))
    print(desc(copy.deepcopy(M(5)[1:])), desc(copy.copy(M(5)[1:])))
    m = torch.nn.Linear(3, 2, device='meta')
    b = io.BytesIO(); torch.save(m.state_dict(), b); b.seek(0)
    m2 = torch.nn.Linear(3, 2, device='meta')
    print(m2.load_state_dict(torch.load(b)))
    b = io.BytesIO(); torch.save({'a': M(2), 'c': torch.arange(3)}, b); b.seek(0)
    r = torch.load(b, weights_only=True)
    print(desc(r['a']), r['c'])
    p = torch.nn.Parameter(M(3, 2).t())
    q = copy.deepcopy(p)
    print(desc(q))
    print(desc(copy.deepcopy(torch.nn.Linear(3, 2, device='meta')).weight))
    """)


def test_integer_addcdiv_and_var():
    # torch's meta addcdiv refuses integer (not bool) operands with its message as a tuple; its meta
    # var and std keep an integer dtype, and var_mean/std_mean fail in their mean
    compare(PRELUDE + """
    L = lambda *s: M(*s, dtype=torch.long)
    L(2, 3).addcdiv_(L(2, 3), L(2, 3))
    torch.addcdiv(M(2, 3), L(2, 3), M(2, 3, dtype=torch.uint8))
    torch.addcdiv(L(2, 3), L(4, 3), L(2, 3))
    torch.addcdiv(M(2, 3), L(2, 3), L(2, 3), out=M(2, 3))
    print(torch.addcdiv(M(2, 3), B(2, 3), B(2, 3)).dtype, M(2, 3).addcdiv_(L(2, 3), B(2, 3)).dtype)
    print(torch.addcdiv(L(2, 3), M(2, 3), L(2, 3)).dtype, torch.addcdiv(M(()), B(2), L(2)).shape)
    print(L(2, 3).std().dtype, L(2, 3).var(0).dtype, M(2, 3, dtype=torch.int).std(1, keepdim=True).shape)
    print(B(2, 3).var().dtype, M(2, 3, dtype=torch.uint8).var(correction=0).dtype, L(2, 3).std(unbiased=False).dtype)
    print(L(0).var().dtype, L(()).std().shape, M(2, 3, dtype=torch.half).var().dtype)
    print(torch.var(L(2, 3), 0, out=M(3)).dtype, torch.std(L(2, 3), 1, out=L(2)).dtype)
    torch.var(M(2, 3), 0, out=L(3))
    torch.var_mean(L(2, 3))
    torch.std_mean(L(2, 3), 0)
    torch.var_mean(L(2, 3), 5)
    L(2, 3).var((0, 0))
    L(2, 3).std(5)
    """)


def test_cpu_keeps_its_wording():
    # the same shapes on the CPU: torch's CPU kernels' messages
    compare("""
    import torch
    E = torch.empty
    E(2, 3) + E(4, 3)
    torch.where(E(2, dtype=torch.bool), E(3), E(2))
    torch.addcmul(E(2, 1), E(3), E(4, 5))
    E(2, 3).masked_fill_(E(4, 3, dtype=torch.bool), 1.)
    E(2, 3).mul_(E(4, 1, 1))
    E(2, 3, dtype=torch.long).add_(E(2, 3))
    E(2, 3, dtype=torch.bool).add_(E(2, 3, dtype=torch.long))
    E(2, 3).mm(E(4, 3))
    torch.addmm(E(5, 4), E(2, 3), E(3, 4))
    torch.addmm(E(5, 4), E(2, 3), E(3, 4), beta=0)
    E(3).mm(E(3, 4))
    E(2, 3).mv(E(4))
    E(3).dot(E(4))
    E(3).dot(E(3, dtype=torch.double))
    torch.cat([E(2, 3), E(2, 4)])
    torch.cat([E(2, 3), E(2, 3, 1)])
    torch.stack([E(2, 3), E(2, 4)])
    torch.stack([E(2, 3), E(2, 4)], 2)
    torch.nn.functional.conv2d(E(1, 3, 5, 5), E(4, 2, 3, 3))
    E(2, 3).sum((0, 0))
    E(()).sum((0, -1))
    E(2, 3).flip((0, 0, 5))
    E(2, 3, dtype=torch.long).mean(5)
    E(2, 3).mean(dtype=torch.long)
    E(2, 3) << E(2, 3, dtype=torch.long)
    E(2, 3, dtype=torch.long) << 1.5
    E(2, 3) & E(2, 3)
    E(2, 3).bitwise_not()
    torch.abs(E(2, dtype=torch.bool))
    I = lambda *s: torch.zeros(*s, dtype=torch.long)
    E(2, 3).gather(1, E(2, 3))
    E(2, 3).gather(1, I(3, 3))
    E(2, 3).scatter(1, I(3, 3), E(3, 3))
    E(2, 3).scatter(1, I(2, 4), E(2, 3))
    E(2, 3).scatter_reduce(1, I(2, 3), E(2, 3), 'bad')
    print(E(2, 3).scatter_reduce(1, I(2, 3), E(2, 3), 'max').shape)
    E(2, 3).index_select(0, E(2))
    E(2, 3).index_select(0, I(2, 2))
    E(2, 3).index_select(2, I(2))
    E(2, 3).index_add(0, I(2, 2), E(2, 3))
    E(2, 3).index_add(0, I(3), E(2, 3))
    E(2, 3).index_copy(0, I(2, 2), E(2, 3))
    E(2, 3).index_copy(0, I(2), E(2, 4))
    E(2, 3).index_copy(0, I(3), E(2, 3))
    E(2, 3).index_fill(0, I(2, 2), 1.)
    E(2, 3).index_fill(0, I(2), E(2))
    E(2, 3).index_fill(5, I(2), 1.)
    E(2, 3).take(E(2))
    F = torch.nn.functional
    F.layer_norm(E(2, 3), (4,))
    F.layer_norm(E(2, 3), (3,), E(4))
    F.layer_norm(E(2, 3, dtype=torch.long), (3,))
    F.layer_norm(E(2, 3), (3,), E(3, dtype=torch.double))
    F.rms_norm(E(2, 3, dtype=torch.long), (3,))
    F.embedding(E(2, 3), E(5, 4))
    F.embedding(E(2, 3), E(5))
    F.embedding(I(2, 3), E(5))
    F.embedding(I(2, 3), E(5, 2, 2))
    F.embedding(I(1), E(5), sparse=True)
    F.embedding(I(1), E(5), max_norm=1.)
    E(2, 3).topk(4)
    E(2, 3).topk(-1)
    E(()).topk(2)
    E(2, 3, dtype=torch.long).div_(E(2, 3))
    E(2, 3, dtype=torch.long).pow_(1.5)
    E(2, 3, dtype=torch.long).mul_(E(2, 3))
    E(2, 3, dtype=torch.long).addcmul_(E(2, 3), E(2, 3))
    E(2, 3, dtype=torch.long).clamp_(0.5)
    E(2, 3, dtype=torch.long).lerp_(E(2, 3), 0.5)
    torch.add(E(2, 3), E(2, 3), out=E(2, 3, dtype=torch.long))
    E(2, 3, dtype=torch.long).addcdiv_(E(2, 3, dtype=torch.long), E(2, 3, dtype=torch.long))
    E(2, 3).addcdiv_(E(2, 3, dtype=torch.bool), E(2, 3, dtype=torch.bool))
    E(2, 3, dtype=torch.long).var()
    torch.std_mean(E(2, 3, dtype=torch.long))
    """)


@pytest.mark.skipif(not minitorch.cuda.is_available(), reason="needs a CUDA device (or MINITORCH_SIMULATE_GPU=1)")
def test_cuda_keeps_the_cpu_wording():
    compare_on("cuda", """
    import torch
    def E(*s, dtype=None):
        return torch.empty(*s, device=DEV, dtype=dtype)
    E(2, 3) + E(4, 3)
    torch.where(E(2, dtype=torch.bool), E(3), E(2))
    E(2, 3).mul_(E(4, 1, 1))
    E(2, 3, dtype=torch.long).add_(E(2, 3))
    E(2, 3).mm(E(4, 3))
    E(3).dot(E(4))
    torch.cat([E(2, 3), E(2, 4)])
    torch.stack([E(2, 3), E(2, 4)])
    E(2, 3).sum((0, 0))
    E(2, 3, dtype=torch.long).mean(5)
    E(2, 3).flip((0, 0, 5))
    E(2, 3, dtype=torch.long).div_(E(2, 3))
    E(2, 3, dtype=torch.long).mul_(E(2, 3))
    torch.add(E(2, 3), E(2, 3), out=E(2, 3, dtype=torch.long))
    """)
