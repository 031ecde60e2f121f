"""Tests for the recurrent layers (nn.RNN, nn.LSTM, nn.GRU and their cells) against real torch.

Structure (parameter names and order, state_dict, repr, seeded weights bit for bit, output shapes, node
names, errors) must print the same as torch's; outputs and gradients are compared to float rounding
(compare_close), since each step's products go through minitorch's GEMM (see README "Known
differences") and torch's float32 CPU LSTM runs in oneDNN. The device tests run the same layers on a
CUDA device (MINITORCH_SIMULATE_GPU=1) and check them against the CPU.
"""

import pytest

from parity import compare, compare_close

import minitorch
import minitorch.nn as nn

# ---- structure: names, order, repr, seeded weights ------------------------------------------------------

STRUCTURE = """
import torch
torch.manual_seed({seed})
m = {make}
print(m)
print(m.extra_repr())
print(m._flat_weights_names)
print([(n, list(p.shape)) for n, p in m.named_parameters()])
print(list(m.state_dict().keys()))
print([[list(w.shape) for w in ws] for ws in m.all_weights])
for p in m.parameters():
    print(p.dtype, p.requires_grad, p.flatten().tolist())
"""

LAYERS = [
    "torch.nn.RNN(3, 5)",
    "torch.nn.RNN(3, 5, 2, 'relu', batch_first=True)",
    "torch.nn.RNN(4, 7, nonlinearity='relu', bias=False, bidirectional=True)",
    "torch.nn.LSTM(10, 20, num_layers=2, batch_first=True)",
    "torch.nn.LSTM(3, 6, proj_size=2, num_layers=2, bidirectional=True, dropout=0.25)",
    "torch.nn.LSTM(3, 6, proj_size=4, bias=False)",
    "torch.nn.GRU(5, 3, 3, dtype=torch.float64)",
    "torch.nn.GRU(2, 4, bidirectional=True, bias=False, batch_first=True)",
    "torch.nn.RNNCell(3, 5)",
    "torch.nn.RNNCell(3, 5, bias=False, nonlinearity='relu')",
    "torch.nn.LSTMCell(4, 3)",
    "torch.nn.GRUCell(4, 3, bias=False, dtype=torch.float64)",
]


@pytest.mark.parametrize("make", LAYERS)
def test_structure_and_init(make):
    compare(STRUCTURE.format(seed=7, make=make))


def test_reset_parameters_and_reprs_in_containers():
    compare("""
import torch
torch.manual_seed(3)
m = torch.nn.Sequential(torch.nn.LSTM(2, 3), torch.nn.GRUCell(3, 2))
print(m)
m[0].reset_parameters()
print(m[0].weight_hh_l0.tolist())
print(torch.nn.LSTM(10, 20, num_layers=2, batch_first=True))
print(torch.nn.RNN(1, 2, dropout=0.5, num_layers=3, bias=False))
print(torch.nn.LSTM(3, 4).mode, torch.nn.RNN(3, 4, nonlinearity='relu').mode, torch.nn.GRU(3, 4).mode)
print(torch.nn.RNN(3, 4, nonlinearity='relu').nonlinearity)
print(isinstance(torch.nn.GRU(2, 2), torch.nn.RNNBase), isinstance(torch.nn.GRUCell(2, 2), torch.nn.RNNCellBase))
""")


# ---- forward and backward ---------------------------------------------------------------------------------

RUN = """
import torch
torch.set_printoptions(precision=6)
torch.manual_seed({seed})
m = {make}
{setup}
x = torch.randn({shape}, dtype=m.weight_ih_l0.dtype).requires_grad_()
out, h = m(x{hidden})
# torch's float32 CPU LSTM without projection runs in oneDNN: one MkldnnRnnLayerBackward0 node
onednn = m.mode == 'LSTM' and m.proj_size == 0 and x.dtype == torch.float32
print(out.shape, None if onednn else out.grad_fn.name())
print(out.detach())
print([t.detach() for t in h] if isinstance(h, tuple) else h.detach())
loss = out.sum() + (h[0].sum() * 0.5 + h[1].pow(2).sum() if isinstance(h, tuple) else h.pow(2).sum())
loss.backward()
print(x.grad)
for n, p in m.named_parameters():
    print(n, p.grad)
torch.set_printoptions(profile='default')
"""

RUNS = [
    ("rnn_tanh", "torch.nn.RNN(3, 5)", "", "4, 2, 3", ""),
    ("rnn_relu_2layers_batch_first", "torch.nn.RNN(3, 5, 2, 'relu', batch_first=True)", "", "2, 6, 3", ""),
    ("rnn_bidirectional_h0",
     "torch.nn.RNN(4, 3, num_layers=2, bidirectional=True, bias=False)",
     "h0 = torch.randn(4, 5, 3, requires_grad=True)", "7, 5, 4", ", h0"),
    ("rnn_unbatched", "torch.nn.RNN(3, 4, 2)", "h0 = torch.randn(2, 4)", "5, 3", ", h0"),
    ("gru", "torch.nn.GRU(3, 5)", "", "4, 3, 3", ""),
    ("gru_bidirectional_batch_first",
     "torch.nn.GRU(5, 4, num_layers=2, bidirectional=True, batch_first=True)",
     "h0 = torch.randn(4, 3, 4)", "3, 6, 5", ", h0"),
    ("gru_unbatched_batch_first", "torch.nn.GRU(2, 3, batch_first=True, bias=False)", "", "4, 2", ""),
    ("lstm_float64", "torch.nn.LSTM(3, 5, num_layers=2, dtype=torch.float64)", "", "4, 2, 3", ""),
    ("lstm_float32", "torch.nn.LSTM(3, 5)", "", "4, 2, 3", ""),
    ("lstm_bidirectional_h0c0",
     "torch.nn.LSTM(4, 3, bidirectional=True, batch_first=True)",
     "hc = (torch.randn(2, 5, 3), torch.randn(2, 5, 3))", "5, 3, 4", ", hc"),
    ("lstm_proj", "torch.nn.LSTM(3, 6, num_layers=2, proj_size=2)", "", "5, 3, 3", ""),
    ("lstm_proj_bidirectional_unbatched",
     "torch.nn.LSTM(3, 6, proj_size=4, bidirectional=True, bias=False, dtype=torch.float64)",
     "hc = (torch.randn(2, 4, dtype=torch.float64), torch.randn(2, 6, dtype=torch.float64))", "5, 3", ", hc"),
    ("lstm_unbatched", "torch.nn.LSTM(3, 4, dtype=torch.float64)", "", "6, 3", ""),
    ("rnn_dropout_train", "torch.nn.RNN(3, 5, num_layers=3, dropout=0.4)", "", "4, 2, 3", ""),
    ("gru_dropout_eval", "torch.nn.GRU(3, 5, num_layers=2, dropout=0.4)", "m.eval()", "4, 2, 3", ""),
    ("lstm_dropout_train_bidirectional",
     "torch.nn.LSTM(3, 5, num_layers=2, dropout=0.5, bidirectional=True, dtype=torch.float64)", "", "4, 2, 3", ""),
]


@pytest.mark.parametrize("make,setup,shape,hidden", [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_forward_backward(make, setup, shape, hidden):
    compare_close(RUN.format(seed=11, make=make, setup=setup, shape=shape, hidden=hidden), rtol=1e-4, atol=1e-5)


CELL_RUN = """
import torch
torch.set_printoptions(precision=6)
torch.manual_seed({seed})
c = {make}
x = torch.randn({shape}, dtype=c.weight_ih.dtype, requires_grad=True)
{setup}
r = c(x{hidden})
r = r if isinstance(r, tuple) else (r,)
print([t.shape for t in r], [t.grad_fn.name() for t in r])
print(r)
sum(t.pow(2).sum() for t in r).backward()
print(x.grad)
for n, p in c.named_parameters():
    print(n, p.grad)
torch.set_printoptions(profile='default')
"""

CELL_RUNS = [
    ("rnncell", "torch.nn.RNNCell(3, 5)", "", "4, 3", ""),
    ("rnncell_relu_h", "torch.nn.RNNCell(3, 5, nonlinearity='relu')", "h = torch.randn(4, 5)", "4, 3", ", h"),
    ("rnncell_unbatched_no_bias", "torch.nn.RNNCell(3, 5, bias=False)", "h = torch.randn(5)", "3", ", h"),
    ("lstmcell", "torch.nn.LSTMCell(3, 5)", "", "4, 3", ""),
    ("lstmcell_hc", "torch.nn.LSTMCell(3, 5)", "hc = (torch.randn(4, 5), torch.randn(4, 5))", "4, 3", ", hc"),
    ("lstmcell_unbatched", "torch.nn.LSTMCell(3, 2, bias=False)", "hc = (torch.randn(2), torch.randn(2))", "3",
     ", hc"),
    ("grucell", "torch.nn.GRUCell(3, 5)", "", "4, 3", ""),
    ("grucell_h_float64", "torch.nn.GRUCell(3, 5, dtype=torch.float64)",
     "h = torch.randn(4, 5, dtype=torch.float64)", "4, 3", ", h"),
    ("grucell_unbatched", "torch.nn.GRUCell(3, 4)", "", "3", ""),
]


@pytest.mark.parametrize("make,setup,shape,hidden", [r[1:] for r in CELL_RUNS], ids=[r[0] for r in CELL_RUNS])
def test_cells(make, setup, shape, hidden):
    compare_close(CELL_RUN.format(seed=5, make=make, setup=setup, shape=shape, hidden=hidden), rtol=1e-4, atol=1e-5)


def test_cell_sequence_matches_layer():
    """A layer with one layer and one direction is its cell applied step by step (same weights)."""
    minitorch.manual_seed(0)
    for layer, cell in ((nn.RNN(3, 4), nn.RNNCell(3, 4)), (nn.GRU(3, 4), nn.GRUCell(3, 4)),
                        (nn.LSTM(3, 4), nn.LSTMCell(3, 4))):
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(cell, name).data.copy_(getattr(layer, name + "_l0").data)
        x = minitorch.randn(5, 2, 3)
        out, h = layer(x)
        state = None
        for t in range(5):
            state = cell(x[t], state)
            step = state[0] if isinstance(state, tuple) else state
            assert minitorch.allclose(out[t], step, atol=1e-6)


def test_node_names():
    compare("""
import torch
torch.manual_seed(0)
for m in (torch.nn.RNN(3, 4), torch.nn.RNN(3, 4, batch_first=True), torch.nn.GRU(3, 4, bidirectional=True),
          torch.nn.LSTM(3, 4, proj_size=2), torch.nn.LSTM(3, 4, dtype=torch.float64),
          torch.nn.RNN(3, 4, nonlinearity='relu', bias=False)):
    out, h = m(torch.randn(5, 2, 3, dtype=m.weight_ih_l0.dtype, requires_grad=True))
    h = h if isinstance(h, tuple) else (h,)
    print(out.grad_fn.name(), [t.grad_fn.name() for t in h])
    print([f[0].name() if f[0] is not None else None for f in out.grad_fn.next_functions][:2])
for c in (torch.nn.RNNCell(3, 4), torch.nn.RNNCell(3, 4, nonlinearity='relu'), torch.nn.LSTMCell(3, 4),
          torch.nn.GRUCell(3, 4)):
    r = c(torch.randn(2, 3, requires_grad=True))
    r = r if isinstance(r, tuple) else (r,)
    print([t.grad_fn.name() for t in r], [f[0].name() for f in r[0].grad_fn.next_functions])
""")


def test_no_grad_and_requires_grad_false():
    compare_close("""
import torch
torch.manual_seed(1)
m = torch.nn.GRU(3, 4, num_layers=2)
with torch.no_grad():
    out, h = m(torch.randn(3, 2, 3))
print(out.requires_grad, out.grad_fn, h)
""")


# ---- errors and warnings ----------------------------------------------------------------------------------

def test_constructor_errors():
    compare("""
import torch
torch.nn.RNN(3, 4, nonlinearity='sigmoid')
torch.nn.RNN(3, 4, proj_size=2)
torch.nn.GRU(3, 4, proj_size=2)
torch.nn.LSTM(3, 4, proj_size=4)
torch.nn.LSTM(3, 4, proj_size=-1)
torch.nn.LSTM(3, 4, dropout=1.5)
torch.nn.LSTM(3, 4, dropout=True)
torch.nn.LSTM(3, 4, dropout='0.1')
torch.nn.GRU(3, 4, bias=1)
torch.nn.GRU(3, 4, batch_first=None)
torch.nn.GRU(3.0, 4)
torch.nn.GRU(3, 4.0)
torch.nn.GRU(0, 4)
torch.nn.GRU(3, 0)
torch.nn.GRU(3, 4, 0)
torch.nn.RNNBase('FOO', 3, 4)
""")


def test_dropout_warning():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.LSTM(3, 4, dropout=0.2)
    assert [str(w.message) for w in caught] == [
        "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
        "num_layers greater than 1, but got dropout=0.2 and num_layers=1"]
    from minitorch.nn.modules import rnn as rnn_module

    assert caught[0].filename == rnn_module.__file__  # stacklevel=2 from RNNBase, as torch's


def test_forward_errors():
    compare("""
import torch
torch.manual_seed(0)
rnn = torch.nn.RNN(10, 20, 1)
rnn(torch.randn(5, 3, 10), torch.randn(2, 3, 20))
rnn(torch.randn(5, 3, 10), torch.randn(1, 4, 20))
rnn(torch.randn(5, 3, 10), torch.randn(3, 20))
rnn(torch.randn(5, 10), torch.randn(1, 1, 20))
rnn(torch.randn(5, 3, 7))
rnn(torch.randn(5, 3, 2, 10))
rnn(torch.randn(10))
rnn(torch.randn(5, 3, 10, dtype=torch.float64))
rnn(torch.randn(0, 3, 10))
gru = torch.nn.GRU(10, 20, bidirectional=True)
gru(torch.randn(5, 3, 10), torch.randn(1, 3, 20))
gru(torch.randn(5, 3, 2, 10))
lstm = torch.nn.LSTM(10, 20, num_layers=2, proj_size=5)
lstm(torch.randn(5, 3, 10), (torch.randn(2, 3, 20), torch.randn(2, 3, 20)))
lstm(torch.randn(5, 3, 10), (torch.randn(2, 3, 5), torch.randn(2, 3, 5)))
lstm(torch.randn(5, 3, 10), (torch.randn(3, 5), torch.randn(2, 3, 20)))
lstm(torch.randn(5, 10), (torch.randn(2, 1, 5), torch.randn(2, 20)))
lstm(torch.randn(5, 3, 10), (torch.randn(2, 3, 5),))
lstm(torch.randn(1, 2, 3, 4))
""")


def test_cell_errors():
    compare("""
import torch
torch.manual_seed(0)
for c in (torch.nn.RNNCell(3, 4), torch.nn.GRUCell(3, 4)):
    try: c(torch.randn(2, 2, 3))
    except Exception as e: print(type(e).__name__, e)
    try: c(torch.randn(2, 3), torch.randn(1, 2, 4))
    except Exception as e: print(type(e).__name__, e)
    try: c(torch.randn(2, 5))
    except Exception as e: print(type(e).__name__, e)
    try: c(torch.randn(2, 3), torch.randn(3, 4))
    except Exception as e: print(type(e).__name__, e)
    try: c(torch.randn(2, 3), torch.randn(2, 5))
    except Exception as e: print(type(e).__name__, e)
c = torch.nn.LSTMCell(3, 4)
c(torch.randn(2, 2, 3))
c(torch.randn(2, 3), (torch.randn(2, 4), torch.randn(1, 2, 4)))
c(torch.randn(2, 3), (torch.randn(3, 4), torch.randn(2, 4)))
c(torch.randn(2, 3), (torch.randn(2, 4), torch.randn(2, 5)))
bad = torch.nn.RNNCell(3, 4)
bad.nonlinearity = 'gelu'
bad(torch.randn(2, 3))
""")


# ---- gradcheck and devices -------------------------------------------------------------------------------

def test_gradcheck(device):
    minitorch.manual_seed(0)
    for m in (nn.LSTM(2, 3, num_layers=2, bidirectional=True, proj_size=2, dtype=minitorch.float64),
              nn.GRU(2, 3, batch_first=True, dtype=minitorch.float64),
              nn.RNN(2, 3, nonlinearity='relu', dtype=minitorch.float64)):
        m.to(device)
        x = minitorch.randn(3, 2, 2, dtype=minitorch.float64, device=device, requires_grad=True)
        assert minitorch.autograd.gradcheck(lambda x: m(x)[0], (x,))
        assert minitorch.autograd.gradcheck(lambda x: m(x)[1][-1], (x,))


def test_gradcheck_parameters(device):
    """The weights' gradients through the functional form of a layer step, checked by finite differences."""
    from minitorch.nn.modules import rnn as rnn_impl

    minitorch.manual_seed(1)

    def make(*shape):
        return minitorch.randn(*shape, dtype=minitorch.float64, device=device).requires_grad_()

    x, h, c = make(4, 2, 3), make(1, 2, 2), make(1, 2, 2)
    w_ih, w_hh, b_ih, b_hh = make(8, 3), make(8, 2), make(8), make(8)

    def lstm(x, h, c, w_ih, w_hh, b_ih, b_hh):
        out, (hn, cn) = rnn_impl._rnn_stack("LSTM", x, (h, c), [(w_ih, w_hh, b_ih, b_hh, None)], 1, 0.0, False,
                                            False, False)
        return out, hn, cn

    assert minitorch.autograd.gradcheck(lstm, (x, h, c, w_ih, w_hh, b_ih, b_hh))

    def gru(x, h, w_ih, w_hh, b_ih, b_hh):
        return rnn_impl._rnn_stack("GRU", x, h, [(w_ih[:6], w_hh[:6], b_ih[:6], b_hh[:6], None)], 1, 0.0, False,
                                   False, False)

    assert minitorch.autograd.gradcheck(gru, (x, h, w_ih, w_hh, b_ih, b_hh))


def _run(m, x, hx=None):
    out, h = m(x, hx)
    h = h if isinstance(h, tuple) else (h,)
    (out.sum() + sum(t.pow(2).sum() for t in h)).backward()
    return [out, *h, x.grad] + [p.grad for p in m.parameters()]


@pytest.mark.parametrize("make", [
    lambda: nn.RNN(3, 4, num_layers=2, batch_first=True),
    lambda: nn.GRU(3, 4, bidirectional=True),
    lambda: nn.LSTM(3, 5, num_layers=2, proj_size=2, bidirectional=True),
])
def test_device_matches_cpu(device, make):
    minitorch.manual_seed(2)
    m = make()
    x = minitorch.randn(5, 2, 3)
    expected = _run(m, x.clone().requires_grad_())
    m.zero_grad()
    moved = m.to(device)
    assert moved is m and all(p.device.type == device for p in m.parameters())
    xd = x.to(device).requires_grad_()
    got = _run(m, xd)
    for e, g in zip(expected, got):
        assert g.device.type == device
        assert minitorch.allclose(g.cpu(), e, atol=1e-5, rtol=1e-4)


def test_cells_on_device(device):
    minitorch.manual_seed(3)
    for cell in (nn.RNNCell(3, 4, device=device), nn.LSTMCell(3, 4, device=device),
                 nn.GRUCell(3, 4, device=device)):
        r = cell(minitorch.randn(2, 3, device=device))
        r = r if isinstance(r, tuple) else (r,)
        assert all(t.device.type == device and t.shape == (2, 4) for t in r)


def test_device_mismatch():
    if not minitorch.cuda.is_available():
        pytest.skip("no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")
    m = nn.GRU(3, 4)
    with pytest.raises(RuntimeError) as info:
        m(minitorch.randn(2, 1, 3), minitorch.zeros(1, 1, 4, device="cuda"))
    assert str(info.value) == ("Input and hidden tensors are not at the same device, found input tensor at cpu "
                               "and hidden tensor at cuda:0")
    m.cuda()
    with pytest.raises(RuntimeError) as info:
        m(minitorch.randn(2, 1, 3, device="cuda"), minitorch.zeros(1, 1, 4))
    assert str(info.value).startswith("Input and hidden tensors are not at the same device")
