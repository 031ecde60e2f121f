"""Tests for nn.utils.rnn (pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence,
unpad_sequence, unpack_sequence, PackedSequence) and the recurrent layers on packed input, against real torch.

Packing, padding, reprs, node names and errors print exactly as torch's; a recurrent layer's outputs and
gradients are compared to float rounding (compare_close), as in tests/test_rnn.py. The device tests run the
same calls on a CUDA device (MINITORCH_SIMULATE_GPU=1) and check them against the CPU.
"""

import pytest

from parity import compare, compare_close

import minitorch
import minitorch.nn as nn
from minitorch.nn.utils import rnn as R

# ---- padding and packing ----------------------------------------------------------------------------------------

SETUP = """
import torch
R = torch.nn.utils.rnn
torch.manual_seed(0)
a = torch.randn(4, 2, requires_grad=True)
b = torch.randn(2, 2, requires_grad=True)
c = torch.randn(3, 2, requires_grad=True)
"""


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
def test_pad_sequence(dtype):
    compare(SETUP + f"""
a, b, c = (t.detach().to({dtype}).requires_grad_() for t in (a, b, c))
p = R.pad_sequence([a, b, c])
print(p, type(p.grad_fn).__name__)
print(R.pad_sequence([a, b, c], batch_first=True, padding_value=-1.5, padding_side="left"))
print(R.pad_sequence((a, c), True, 7))
print(R.pad_sequence(torch.ones(2, 3)))
print(R.pad_sequence([torch.ones(2, 3, 1), torch.zeros(0, 3, 1)], batch_first=True).shape)
p.sum().backward()
print(a.grad, b.grad)
""")


def test_pack_and_pad_round_trip():
    compare(SETUP + """
ps = R.pack_sequence([a, c, b])
print(ps)
print(type(ps.data.grad_fn).__name__, ps._fields, isinstance(ps, tuple), len(ps))
ps2 = R.pack_sequence([a, b, c], enforce_sorted=False)
print(ps2)
out, lens = R.pad_packed_sequence(ps2, batch_first=True, total_length=6)
print(out, lens, type(out.grad_fn).__name__)
out, lens = R.pad_packed_sequence(ps, padding_value=9.0)
print(out, lens, type(out.grad_fn).__name__)
print(R.unpack_sequence(ps2))
print(R.unpad_sequence(R.pad_sequence([a, b, c], batch_first=True), torch.tensor([4, 2, 3]), batch_first=True))
padded = R.pad_sequence([a, b, c])
print(R.unpad_sequence(padded, torch.tensor([4, 2, 3])), padded.shape)
x = torch.randn(3, 5, 2, requires_grad=True)
p = R.pack_padded_sequence(x, torch.tensor([2, 5, 3]), batch_first=True, enforce_sorted=False)
print(p)
back, lens = R.pad_packed_sequence(p, batch_first=True)
print(torch.equal(back[1], x[1]), lens)
(p.data * torch.arange(p.data.numel()).view(p.data.shape)).sum().backward()
print(x.grad)
d, bs, si, ui = ps2
print(bs, si, ui)
g = R.pad_packed_sequence(ps2)[0]
g.sum().backward()
print(a.grad, b.grad, c.grad)
print(R.invert_permutation(torch.tensor([2, 0, 3, 1])), R.invert_permutation(None))
""")


def test_packed_sequence_object():
    compare(SETUP + """
ps = R.pack_sequence([a, b, c], enforce_sorted=False)
print(ps.to(torch.float64).data.dtype, ps.to(torch.float32) is ps, ps.to("cpu") is ps)
print(ps.double().sorted_indices, ps.float().data.dtype, ps.long().data.dtype, ps.int().data.dtype)
print(ps.short().data.dtype, ps.char().data.dtype, ps.byte().data.dtype, ps.is_cuda, ps.cpu() is ps)
print(R.PackedSequence(torch.ones(2), torch.tensor([1, 1]), torch.tensor([0])))
print(R.PackedSequence((torch.ones(2), torch.tensor([2]))))
R.PackedSequence([torch.ones(2)])
print(ps == tuple(ps), ps[1], ps.batch_sizes)
""")


def test_packing_errors():
    compare("""
import torch
R = torch.nn.utils.rnn
x = torch.randn(5, 3, 2)
R.pack_padded_sequence(x, [5, 3, 0])
R.pack_padded_sequence(x, [5, 3])
R.pack_padded_sequence(x, [2, 3, 1])
R.pack_padded_sequence(x, [2, 3, 1], batch_first=True)
R.pack_padded_sequence(x, torch.tensor([[5, 3, 1]]))
R.pack_padded_sequence(x[:0], [5, 3, 1])
print(R.pack_padded_sequence(x, torch.tensor([5, 3, 1.5])).batch_sizes)
R.pack_sequence([torch.ones(1), torch.ones(3)])
R.pad_packed_sequence(R.pack_sequence([torch.ones(3), torch.ones(1)]), total_length=2)
R.pad_sequence([])
R.pad_sequence(5)
R.pad_sequence([torch.tensor(1.)])
R.pad_sequence([torch.ones(2)], padding_side="up")
R.pad_sequence([torch.ones(2, 3), torch.ones(1, 4)])
R.pad_sequence([torch.ones(2)], 1)
R.pad_sequence([1, 2])
R.pad_sequence([torch.ones(2)], False, "a")
R.PackedSequence([torch.ones(2)])
R.unpad_sequence(torch.ones(3, 2), torch.tensor([1, 2]), batch_first=True)
""")


# ---- recurrent layers on packed input ---------------------------------------------------------------------------

RUN = """
import torch
R = torch.nn.utils.rnn
def show(t):
    print([round(x, 5) + 0.0 for x in t.flatten().tolist()])
torch.manual_seed({seed})
m = {make}
dt = m.weight_ih_l0.dtype
seqs = [torch.randn(n, m.input_size, dtype=dt, requires_grad=True) for n in {lengths}]
ps = R.pack_sequence(seqs, enforce_sorted={enforce})
{hidden}
out, h = m(ps{hx})
print(type(out).__name__, out.data.shape, out.batch_sizes, out.sorted_indices, out.unsorted_indices,
      type(out.data.grad_fn).__name__)
show(out.data)
hs = h if isinstance(h, tuple) else (h,)
for x in hs:
    print(x.shape, type(x.grad_fn).__name__)
    show(x)
(out.data.sum() + sum((x * x).sum() for x in hs)).backward()
for s in seqs:
    show(s.grad)
for n, p in m.named_parameters():
    print(n)
    show(p.grad)
padded, lens = R.pad_packed_sequence(out, batch_first=True)
show(padded)
print(lens)
"""

LAYERS = [
    "torch.nn.RNN(3, 4)",
    "torch.nn.RNN(3, 4, nonlinearity='relu', bidirectional=True, num_layers=2)",
    "torch.nn.GRU(3, 4, num_layers=2, bidirectional=True)",
    "torch.nn.GRU(2, 3, bias=False, batch_first=True)",
    "torch.nn.LSTM(3, 4)",
    "torch.nn.LSTM(3, 5, batch_first=True, num_layers=2)",
    "torch.nn.LSTM(3, 4, bidirectional=True, proj_size=2, num_layers=2, dtype=torch.float64)",
]


@pytest.mark.parametrize("make", LAYERS)
@pytest.mark.parametrize("enforce", [True, False])
def test_rnn_packed(make, enforce):
    lengths = "(5, 3, 3, 1)" if enforce else "(2, 5, 1, 3)"
    compare_close(RUN.format(seed=1, make=make, lengths=lengths, enforce=enforce, hidden="", hx=""),
                  rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("make", [LAYERS[2], LAYERS[4], LAYERS[6]])
def test_rnn_packed_with_initial_state(make):
    # h0 is given in the caller's batch order: torch permutes it into the sorted order and back
    hidden = ("shape = (m.num_layers * (2 if m.bidirectional else 1), 4)\n"
              "h0 = torch.randn(*shape, m.proj_size or m.hidden_size, dtype=dt)\n"
              "hx = (h0, torch.randn(*shape, m.hidden_size, dtype=dt)) if m.mode == 'LSTM' else h0")
    compare_close(RUN.format(seed=2, make=make, lengths="(2, 5, 1, 3)", enforce=False, hidden=hidden, hx=", hx"),
                  rtol=1e-4, atol=2e-5)


def test_rnn_packed_dropout_masks_are_torchs():
    compare_close(RUN.format(seed=3, make="torch.nn.GRU(3, 4, num_layers=3, dropout=0.4)", lengths="(4, 2, 2)",
                             enforce=True, hidden="", hx=""), rtol=1e-4, atol=2e-5)


def test_rnn_packed_errors():
    compare("""
import torch
R = torch.nn.utils.rnn
m = torch.nn.GRU(3, 4)
m(R.pack_sequence([torch.randn(2, 3)]), torch.randn(1, 2, 4))
m(R.pack_sequence([torch.randn(2, 2)]))
m(R.pack_sequence([torch.randn(2, 3, dtype=torch.float64)]))
torch.nn.LSTM(3, 4)(R.pack_sequence([torch.randn(2, 3)]), (torch.zeros(1, 1, 4),))
""")


# ---- devices -----------------------------------------------------------------------------------------------------

def test_packing_on_device(device):
    minitorch.manual_seed(0)
    seqs = [minitorch.randn(n, 2, device=device) for n in (2, 4, 1)]
    packed = R.pack_sequence(seqs, enforce_sorted=False)
    assert packed.data.device.type == device and packed.batch_sizes.device.type == "cpu"
    assert packed.sorted_indices.device.type == device and packed.is_cuda == (device == "cuda")
    padded, lengths = R.pad_packed_sequence(packed)
    assert padded.device.type == device and lengths.tolist() == [2, 4, 1]
    for a, b in zip(R.unpack_sequence(packed), seqs):
        assert minitorch.equal(a.cpu(), b.cpu())
    moved = packed.to("cpu")
    assert moved.data.device.type == "cpu" and moved.sorted_indices.device.type == "cpu"


@pytest.mark.parametrize("make", [lambda: nn.LSTM(3, 4, bidirectional=True, num_layers=2, dtype=minitorch.float64),
                                  lambda: nn.GRU(3, 4, dtype=minitorch.float64)])
def test_rnn_packed_device_matches_cpu(device, make):
    minitorch.manual_seed(0)
    m = make()
    seqs = [minitorch.randn(n, 3, dtype=minitorch.float64) for n in (2, 5, 3)]
    cpu_seqs = [s.clone().requires_grad_() for s in seqs]
    dev_seqs = [s.to(device).requires_grad_() for s in seqs]
    import copy
    moved = copy.deepcopy(m).to(device)
    out_cpu, h_cpu = m(R.pack_sequence(cpu_seqs, enforce_sorted=False))
    out_dev, h_dev = moved(R.pack_sequence(dev_seqs, enforce_sorted=False))
    assert out_dev.data.device.type == device
    assert minitorch.allclose(out_cpu.data, out_dev.data.cpu(), rtol=1e-10, atol=1e-10)
    h_cpu = h_cpu[0] if isinstance(h_cpu, tuple) else h_cpu
    h_dev = h_dev[0] if isinstance(h_dev, tuple) else h_dev
    assert minitorch.allclose(h_cpu, h_dev.cpu(), rtol=1e-10, atol=1e-10)
    (out_cpu.data.sum() + h_cpu.sum()).backward()
    (out_dev.data.sum() + h_dev.sum()).backward()
    for a, b in zip(cpu_seqs, dev_seqs):
        assert minitorch.allclose(a.grad, b.grad.cpu(), rtol=1e-10, atol=1e-10)


def test_rnn_packed_gradcheck(device):
    minitorch.manual_seed(4)
    m = nn.LSTM(2, 3, bidirectional=True, dtype=minitorch.float64).to(device)
    seqs = [minitorch.randn(n, 2, dtype=minitorch.float64, device=device, requires_grad=True) for n in (3, 1, 2)]

    def f(*xs):
        out, (h, c) = m(R.pack_sequence(list(xs), enforce_sorted=False))
        return out.data, h, c

    assert minitorch.autograd.gradcheck(f, tuple(seqs))
