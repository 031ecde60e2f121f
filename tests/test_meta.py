"""The meta device, as shape-reasoning code uses it: tensors with a shape, strides and a dtype and no data.

Factories, `.to('meta')`, `with torch.device('meta'):`, repr (`tensor(..., device='meta', size=(2, 3))`),
ops that give meta results of torch's shape, dtype and strides without touching memory (element-wise ops,
matmul, reductions, views, joins, indexing, softmax, nn layers, autograd), torch's errors for what needs
data (`item`, `tolist`, `numpy`, copies out, nonzero, masks) and for mixing meta and CPU tensors, and
`nn.Module.to('meta')` / `to_empty`. Each snippet runs under torch 2.13 and minitorch and must print the
same (tests/parity.py). Where torch's meta functions word a shape error differently from its CPU kernels,
tests/test_meta_errors.py compares them.
The bad-input matrix runs every entry point on meta inputs (tests/test_bad_input.py, test_no_crash_meta).
"""

import pytest

import minitorch
from parity import compare


def test_factories_and_repr():
    compare("""
        import torch
        print(torch.empty(2, 3, device='meta'))
        print(torch.zeros(2, 3, device='meta', dtype=torch.int64))
        print(torch.ones(4, device='meta', dtype=torch.float64))
        print(torch.full((2,), 3, device='meta'))
        print(torch.full((2,), 3.5, device='meta'))
        print(torch.rand(2, 2, device='meta'))
        print(torch.randn(5, device='meta', dtype=torch.float16))
        print(torch.randint(0, 5, (3,), device='meta'))
        print(torch.arange(5, device='meta'))
        print(torch.arange(0, 1, 0.25, device='meta'))
        print(torch.tensor([1, 2], device='meta'))
        print(torch.tensor([[1.0, 2.0]], device='meta'))
        print(torch.tensor(True, device='meta'))
        print(torch.tensor(3.0, device='meta'))
        print(torch.empty(0, device='meta'))
        print(torch.empty(2, 0, device='meta', dtype=torch.bool))
        print(torch.empty((), device='meta'))
        print(torch.empty(2, device='meta', requires_grad=True))
        print(torch.empty(2, device='meta:0'))
        print(torch.linspace(0, 1, 5, device='meta'))
        print(torch.eye(3, device='meta'))
        print(torch.randperm(4, device='meta'))
        print(torch.empty(10**12, device='meta').shape)
        print(str(torch.empty(2, device='meta')))
    """)


def test_like_and_new_factories():
    compare("""
        import torch
        m = torch.empty(2, 3, device='meta')
        c = torch.ones(2, 3)
        print(torch.zeros_like(m), torch.ones_like(m, dtype=torch.int32), torch.empty_like(m))
        print(torch.rand_like(m), torch.randn_like(m), torch.full_like(m, 7))
        print(torch.zeros_like(c, device='meta'))
        print(c.new_zeros(2, device='meta'), m.new_ones(3), m.new_empty((2,)), m.new_full((1,), 2.0))
        print(m.new_tensor([1, 2]))
        print(torch.empty_like(m.t()).stride())
    """)


def test_properties():
    compare("""
        import torch
        m = torch.empty(2, 3, device='meta')
        c = torch.ones(2, 3)
        print(m.device, repr(m.device), m.is_meta, c.is_meta, m.is_cuda, m.is_cpu, m.get_device())
        print(m.shape, m.stride(), m.dtype, m.numel(), m.dim(), len(m))
        print(m.nbytes, m.element_size(), m.itemsize, m.data_ptr(), m.storage_offset(), m[1].storage_offset())
        print(m.type(), m.double().type(), m.is_contiguous(), m.contiguous() is m, m.is_pinned())
        print(torch.device('meta'), torch.device('meta') == m.device)
    """)


def test_to_meta():
    compare("""
        import torch
        c = torch.ones(2, 3)
        print(c.to('meta'), c.to(device='meta'), c.to('meta', torch.float64))
        print(c.to(torch.device('meta')).is_meta)
        m = c.to('meta')
        print(m.to('meta') is m, m.to(device='meta', dtype=torch.float32) is m)
        print(m.to(torch.int32), m.float(), m.double(), m.half(), m.bool())
        print(m.clone(), m.permute(1, 0).clone().stride(), m.t().contiguous().stride())
        print(m.copy_(c), m.copy_(torch.ones(3)))
        m.copy_(torch.ones(4))
    """)


def test_with_device_block():
    compare("""
        import torch
        with torch.device('meta'):
            print(torch.ones(2), torch.zeros(2, 2, dtype=torch.int64), torch.tensor([1.0]))
            print(torch.nn.Linear(2, 3).weight)
        print(torch.ones(2))
        torch.set_default_device('meta')
        print(torch.empty(3))
        torch.set_default_device(None)
        print(torch.empty(1).device)
    """)


def test_random_factories_draw_nothing():
    """Random factories and fills on the meta device leave the default generator where it was."""
    compare("""
        import torch
        torch.manual_seed(0)
        torch.randn(2, device='meta'); torch.rand(3, device='meta'); torch.randint(0, 4, (2,), device='meta')
        torch.randperm(3, device='meta'); torch.nn.Linear(3, 3, device='meta')
        m = torch.empty(4, device='meta')
        m.uniform_(); m.normal_(); m.bernoulli_(0.5); m.random_(); m.exponential_()
        torch.multinomial(m, 2); torch.nn.functional.dropout(m)
        print(torch.randn(3))
    """)


def test_elementwise_and_promotion():
    compare("""
        import torch
        m = torch.empty(2, 3, device='meta')
        mi = torch.empty(2, 3, device='meta', dtype=torch.int32)
        print(m + m, m * 2, 2 - m, m / m, -m, m.exp(), m.relu(), m.abs(), m ** 2, m ** m)
        print(mi + 1.5, mi + mi, mi // 2, mi / 2, mi + torch.empty(3, device='meta', dtype=torch.float16))
        print(m + torch.empty(3, device='meta'), m + torch.empty(1, 1, device='meta', dtype=torch.float64))
        print(m + torch.tensor(1.0), m > 0, (m == m).dtype, torch.where(m > 0, m, 0.0))
        print(torch.clamp(m, 0, 1), m.masked_fill(m > 0, 1.0), torch.isclose(m, m))
        print(m.exp_(), m.add_(1), m.fill_(1), m.zero_(), m.uniform_(), m.normal_(), m.bernoulli())
        print(m.unsqueeze(0).expand(4, 2, 3).stride())
    """)


def test_device_mismatch():
    compare("""
        import torch
        m = torch.empty(2, 3, device='meta')
        c = torch.ones(2, 3)
        m + c
        c + m
        m * c
        torch.where(m > 0, c, m)
        torch.cat([m, c])
        torch.cat([c, m])
        c.copy_(m)
        print(m + torch.tensor(2.0), m.sum() + c.sum(), c.sum() + m)
    """)


def test_matmul_and_linear():
    compare("""
        import torch
        import torch.nn.functional as F
        m = torch.empty(2, 3, device='meta')
        w = torch.empty(4, 3, device='meta')
        print(m @ w.t(), torch.mm(m, w.t()).stride(), m @ torch.empty(3, device='meta'))
        print(torch.empty(5, 2, 3, device='meta') @ torch.empty(3, 4, device='meta'))
        print(torch.bmm(torch.empty(5, 2, 3, device='meta'), torch.empty(5, 3, 4, device='meta')))
        print(F.linear(m, w), F.linear(m, w, torch.empty(4, device='meta')))
        print(torch.addmm(torch.empty(4, device='meta'), m, w.t()))
        print(torch.outer(torch.empty(2, device='meta'), torch.empty(3, device='meta')))
    """)


def test_reductions_and_softmax():
    compare("""
        import torch
        import torch.nn.functional as F
        m = torch.empty(2, 3, device='meta')
        print(m.sum(), m.sum(0), m.sum(1, keepdim=True), m.mean(), m.var(), m.std(1), m.norm())
        print(m.max(), m.argmax(), m.max(dim=0), m.min(1).indices, m.prod(), m.cumsum(0))
        print(m.sort()[0], m.argsort(), m.topk(1)[0], m.all(), m.any(), (m == m).all())
        print(m.int().sum(), m.bool().sum(), m.sum(dtype=torch.float64))
        print(m.softmax(-1), F.log_softmax(m, dim=0), F.softmax(m, dim=1).sum(1).shape)
        print(F.mse_loss(m, m), F.cross_entropy(m, torch.empty(2, dtype=torch.long, device='meta')))
    """)


def test_views_joins_and_indexing():
    compare("""
        import torch
        m = torch.empty(2, 3, 4, device='meta')
        print(m.view(6, 4), m.reshape(-1).shape, m.t().stride() if m.dim() == 2 else m.transpose(0, 2).stride())
        print(m.permute(2, 0, 1).stride(), m.unsqueeze(1).shape, m[0].squeeze().shape, m.flatten(1).shape)
        print(m.narrow(1, 1, 2).stride(), m.select(2, 1).stride(), m.diagonal().shape, m.unbind(0))
        print(m.chunk(2, 2), m.split(1, 0)[0].storage_offset(), m.expand(5, 2, 3, 4).stride())
        print(m[0, 1:], m[:, None, ..., ::2].stride(), m[1, 2, 3], m[-1].storage_offset())
        print(torch.cat([m, m]).shape, torch.cat([m, m], dim=2).stride(), torch.stack([m, m], 1).stride())
        print(m.flip(0).stride(), m.roll(1).shape, m.repeat(2, 1, 1).shape, torch.tril(m[0]))
        print(m.index_select(0, torch.tensor([1, 0, 1], device='meta')))
        print(m.gather(0, torch.zeros(1, 3, 4, dtype=torch.long, device='meta')))
        print(m.take(torch.tensor([0, 5], device='meta')))
        print(m.repeat_interleave(2).shape, list(m)[1].storage_offset())
        m.view(5)
        m[2]
        m[:, 5]
        m.sum(dim=3)
        m.expand(3, 3)
    """)


def test_nn_layers_and_modules():
    compare("""
        import torch
        from torch import nn
        torch.manual_seed(0)
        lin = nn.Linear(3, 4, device='meta')
        print(lin, lin.weight, lin.bias)
        print(lin(torch.empty(5, 3, device='meta')))
        cpu = nn.Linear(3, 4)
        print(cpu.to('meta') is cpu, cpu.weight, cpu(torch.empty(2, 3, device='meta')))
        conv = nn.Conv2d(3, 8, 3, padding=1, device='meta')
        print(conv(torch.empty(1, 3, 10, 10, device='meta')))
        seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to('meta')
        print(seq(torch.empty(7, 4, device='meta')))
        back = lin.to_empty(device='cpu')
        print(back is lin, lin.weight.shape, lin.weight.device, lin.bias.dtype, lin.weight.requires_grad)
        print(nn.Linear(2, 2, device='meta').to_empty(device='meta').weight)
    """)


def test_autograd():
    compare("""
        import torch
        x = torch.empty(3, 2, device='meta', requires_grad=True)
        y = (x * 2).exp().sum()
        print(y)
        y.backward()
        print(x.grad)
        lin = torch.nn.Linear(3, 2, device='meta')
        out = lin(torch.empty(5, 3, device='meta'))
        print(out)
        out.sum().backward()
        print(lin.weight.grad, lin.bias.grad)
        z = torch.empty(4, device='meta', requires_grad=True)
        print(z.abs(), z.roll(1), z.chunk(2), torch.diag(z), z.clamp(0, 1), z.pow(2), z.take(torch.tensor([0], device='meta')))
        g = torch.autograd.grad((z * z).sum(), z)
        print(g)
    """)


def test_data_reading_errors():
    compare("""
        import torch
        import torch.utils.dlpack
        m = torch.empty(2, 3, device='meta')
        s = torch.empty((), device='meta')
        m.item()
        s.item()
        float(s)
        int(s)
        bool(s)
        m.any().item()
        m.tolist()
        s.tolist()
        m.numpy()
        m.__array__()
        m.cpu()
        m.to('cpu')
        m.to(device='cpu', dtype=torch.float64)
        print(format(s, ''))
        format(s, '.2f')
        m.pin_memory()
        m.__dlpack__()
        m.__dlpack_device__()
        torch.utils.dlpack.to_dlpack(m)
        torch.nonzero(m)
        m.nonzero()
        torch.argwhere(m)
        torch.where(m > 0)
        m[m > 0]
        torch.masked_select(m, m > 0)
        m.masked_select(torch.ones(2, 3, dtype=torch.bool))
        m.repeat_interleave(torch.tensor([1, 2], device='meta'), dim=0)
        torch.allclose(m, m)
    """)


def test_meta_takes_no_device_memory():
    before = (minitorch.cuda.memory_allocated(), minitorch.cuda.memory_reserved()) \
        if minitorch.cuda.is_available() else (0, 0)
    m = minitorch.empty(1 << 40, device="meta")
    y = (m * 2).sum()
    after = (minitorch.cuda.memory_allocated(), minitorch.cuda.memory_reserved()) \
        if minitorch.cuda.is_available() else (0, 0)
    assert before == after
    assert m.nbytes == 4 << 40 and m.data_ptr() == 0 and y.is_meta
    compare("""
        import torch
        print(torch.empty(1000, 1000, device='meta').nbytes, torch.empty(1000, 1000, device='meta').data_ptr())
    """)


@pytest.mark.skipif(not minitorch.cuda.is_available(), reason="no CUDA device (set MINITORCH_SIMULATE_GPU=1)")
def test_meta_and_cuda():
    m = minitorch.empty(2, 3, device="meta")
    c = minitorch.ones(2, 3, device="cuda")
    with pytest.raises(RuntimeError, match=r"^Tensor on device cuda:0 is not on the expected device meta!$"):
        m + c
    with pytest.raises(NotImplementedError, match=r"^Cannot copy out of meta tensor; no data!$"):
        m.cuda()
    assert c.to("meta").is_meta and c.to("meta").shape == (2, 3)
