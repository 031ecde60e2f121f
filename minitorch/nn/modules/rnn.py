"""Recurrent layers: RNN (tanh or relu), LSTM (with an optional projection), GRU, and their one-step cells.

The layers register their weights under torch's names and in torch's order (``weight_ih_l0``,
``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, ``weight_hr_l0``, then ``..._reverse``, layer by
layer) and draw them all uniform in +-1/sqrt(hidden_size) in that order, so that after the same
``manual_seed`` both libraries hold the same weights. The arithmetic is torch's CPU composition
(aten/native/RNN.cpp) written with minitorch's ops: the forward direction projects the whole sequence
through ``weight_ih`` at once and then steps ``linear_hh(h) + x_t`` through the cell; the reverse
direction steps the reversed sequence with each step's own input projection; the step outputs are
stacked along time, a bidirectional layer concatenates both directions on the feature dim, and
dropout (training mode only) follows every layer but the last. A PackedSequence input runs torch's packed
layers (RNN.cpp's PackedLayer and ReversedPackedLayer): the whole data projected through ``weight_ih`` at
once, then each time step on as many sequences as it holds, the hidden states of sequences that have ended
set aside (forward) or those of sequences that start joining in (reverse), so that the final hidden state of
each sequence is the one after its own last step.
"""

import math
import numbers
import warnings

import minitorch
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter
from minitorch.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# ---- one time step, as RNN.cpp's cells (x_proj: the input already projected through weight_ih) ----

def _simple_step(nonlinearity, x_proj, hx, w_hh, b_hh):
    return nonlinearity(F.linear(hx, w_hh, b_hh).add_(x_proj))


def _lstm_step(x_proj, hidden, w_hh, b_hh, w_hr):
    hx, cx = hidden
    gates = F.linear(hx, w_hh, b_hh).add_(x_proj)
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = ingate.sigmoid()
    forgetgate = forgetgate.sigmoid()
    cellgate = cellgate.tanh()
    outgate = outgate.sigmoid()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    if w_hr is not None:
        hy = minitorch.matmul(hy, w_hr.t())
    return hy, cy


def _gru_step(x_proj, hx, w_hh, b_hh):
    igates = x_proj.chunk(3, 1)
    hgates = F.linear(hx, w_hh, b_hh).chunk(3, 1)
    reset_gate = (hgates[0] + igates[0]).sigmoid()
    input_gate = (hgates[1] + igates[1]).sigmoid()
    new_gate = igates[2].add(hgates[2] * reset_gate).tanh()
    return (hx - new_gate).mul_(input_gate).add_(new_gate)


def _step_function(mode):
    """(x_proj, hidden, w_hh, b_hh, w_hr) -> new hidden, for the mode's cell."""
    if mode == "LSTM":
        return _lstm_step
    if mode == "GRU":
        return lambda x, h, w_hh, b_hh, w_hr: _gru_step(x, h, w_hh, b_hh)
    act = minitorch.tanh if mode == "RNN_TANH" else minitorch.relu
    return lambda x, h, w_hh, b_hh, w_hr: _simple_step(act, x, h, w_hh, b_hh)


def _output_of(mode, hidden):
    return hidden[0] if mode == "LSTM" else hidden


def _run_direction(mode, input, hidden, params, reverse):
    """One direction of one layer over input (seq, batch, features): (stacked outputs, final hidden)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = params
    step = _step_function(mode)
    outputs = []
    if reverse:
        for x in reversed(input.unbind(0)):
            hidden = step(F.linear(x, w_ih, b_ih), hidden, w_hh, b_hh, w_hr)
            outputs.append(_output_of(mode, hidden))
        outputs.reverse()
    else:
        for x_proj in F.linear(input, w_ih, b_ih).unbind(0):
            hidden = step(x_proj, hidden, w_hh, b_hh, w_hr)
            outputs.append(_output_of(mode, hidden))
    if not outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return minitorch.stack(outputs, 0), hidden


def _hidden_slice(mode, hidden, start, end):
    if mode == "LSTM":
        return hidden[0].narrow(0, start, end - start), hidden[1].narrow(0, start, end - start)
    return hidden.narrow(0, start, end - start)


def _hidden_concat(mode, hiddens):
    if mode == "LSTM":
        return minitorch.cat([h for h, _ in hiddens], 0), minitorch.cat([c for _, c in hiddens], 0)
    return minitorch.cat(hiddens, 0)


def _run_packed_direction(mode, data, batch_sizes, hidden, params, reverse):
    """One direction of one layer over packed data (steps laid end to end, batch_sizes[t] rows for step t):
    (output data, final hidden of every sequence), as RNN.cpp's PackedLayer / ReversedPackedLayer."""
    w_ih, w_hh, b_ih, b_hh, w_hr = params
    step = _step_function(mode)
    projected = F.linear(data, w_ih, b_ih)
    outputs = []
    if not reverse:
        finished, offset, last_batch_size = [], 0, batch_sizes[0]
        for batch_size in batch_sizes:
            step_input = projected.narrow(0, offset, batch_size)
            offset += batch_size
            dec = last_batch_size - batch_size
            if dec > 0:
                finished.append(_hidden_slice(mode, hidden, last_batch_size - dec, last_batch_size))
                hidden = _hidden_slice(mode, hidden, 0, last_batch_size - dec)
            last_batch_size = batch_size
            hidden = step(step_input, hidden, w_hh, b_hh, w_hr)
            outputs.append(_output_of(mode, hidden))
        finished.append(hidden)
        finished.reverse()
        return minitorch.cat(outputs, 0), _hidden_concat(mode, finished)
    initial = hidden
    offset, last_batch_size = data.size(0), batch_sizes[-1]
    hidden = _hidden_slice(mode, initial, 0, last_batch_size)
    for batch_size in reversed(batch_sizes):
        if batch_size > last_batch_size:
            hidden = _hidden_concat(mode, [hidden, _hidden_slice(mode, initial, last_batch_size, batch_size)])
        step_input = projected.narrow(0, offset - batch_size, batch_size)
        offset -= batch_size
        last_batch_size = batch_size
        hidden = step(step_input, hidden, w_hh, b_hh, w_hr)
        outputs.append(_output_of(mode, hidden))
    outputs.reverse()
    return minitorch.cat(outputs, 0), hidden


def _check_attributes(input, params, hiddens):
    """RNN.cpp's check_attributes: every hidden state and parameter on the input's device."""
    for name, tensors in (("hidden", hiddens), ("parameter", params)):
        for t in tensors:
            if t is not None and t.device != input.device:
                raise RuntimeError(
                    f"Input and {name} tensors are not at the same device, found input tensor at "
                    f"{input.device} and {name} tensor at {t.device}")


def _rnn_stack(mode, input, hx, layer_params, num_layers, dropout, train, bidirectional, batch_first,
               batch_sizes=None):
    """RNN.cpp's _rnn_impl: the layers one after another; returns (output, final hiddens per layer/direction).

    hx is a tensor (num_layers * num_directions, batch, hidden), or for LSTM the pair (h0, c0). With
    batch_sizes (a list), input is a PackedSequence's data and so is the output."""
    if batch_sizes is not None:
        def run(layer_input, hidden, params, reverse):
            return _run_packed_direction(mode, layer_input, batch_sizes, hidden, params, reverse)
        batch_first = False
    else:
        def run(layer_input, hidden, params, reverse):
            return _run_direction(mode, layer_input, hidden, params, reverse)
    if batch_first:
        input = input.transpose(0, 1)
    num_directions = 2 if bidirectional else 1
    if mode == "LSTM":
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = list(hx.unbind(0))
    finals = []
    layer_input = input
    for layer in range(num_layers):
        index = layer * num_directions
        out, final = run(layer_input, hiddens[index], layer_params[index], False)
        finals.append(final)
        if bidirectional:
            rev_out, rev_final = run(layer_input, hiddens[index + 1], layer_params[index + 1], True)
            finals.append(rev_final)
            out = minitorch.cat([out, rev_out], out.dim() - 1)
        layer_input = out
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    output = layer_input
    if batch_first:
        output.transpose_(0, 1)  # in place, as torch's (TransposeBackward1)
    if mode == "LSTM":
        return output, (minitorch.stack([h for h, _ in finals], 0), minitorch.stack([c for _, c in finals], 0))
    return output, minitorch.stack(finals, 0)


class RNNBase(Module):
    """The parameters, checks and repr shared by RNN, LSTM and GRU; ``mode`` is 'RNN_TANH', 'RNN_RELU',
    'LSTM' or 'GRU'."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        factory = {"device": device, "dtype": dtype}
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                shapes = [("weight_ih_l{}{}", (gate_size, layer_input_size)),
                          ("weight_hh_l{}{}", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for pattern, shape in shapes:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, Parameter(minitorch.empty(shape, **factory)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        """The weights in registration order (None for one set to None)."""
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters, one list per layer and direction."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """Packs the weights into one buffer for cuDNN in torch; minitorch has no cuDNN, so nothing to do."""

    def reset_parameters(self):
        """Every parameter uniform in +-1/sqrt(hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _layer_params(self):
        """(w_ih, w_hh, b_ih, b_hh, w_hr) per layer and direction, None where absent."""
        return [tuple(getattr(self, p.format(layer, suffix), None)
                      for p in ("weight_ih_l{}{}", "weight_hh_l{}{}", "bias_ih_l{}{}", "bias_hh_l{}{}",
                                "weight_hr_l{}{}"))
                for layer in range(self.num_layers)
                for suffix in (("", "_reverse") if self.bidirectional else ("",))]

    def check_input(self, input, batch_sizes):
        """The input's dtype, dim count and feature size."""
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                             f"Convert input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. "
                               f"Expected {self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        """(num_layers * num_directions, batch, proj_size or hidden_size)."""
        mini_batch = self._mini_batch(input, batch_sizes)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def _mini_batch(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        """Raises torch's RuntimeError when hx's shape is not the expected one."""
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        """The input and the hidden state's shape."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """hx reordered along the batch (only packed sequences have a permutation)."""
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self):
        """The sizes, then each option that is not its default, as torch prints them."""
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _zeros(self, input, size, batch_sizes=None):
        num_directions = 2 if self.bidirectional else 1
        batch = self._mini_batch(input, batch_sizes)
        return minitorch.zeros(self.num_layers * num_directions, batch, size, dtype=input.dtype,
                               device=input.device)

    def _forward_one_hidden(self, input, hx):
        """RNN and GRU: the checks of torch's forward, then the layer stack."""
        name = "RNN" if self.mode.startswith("RNN") else self.mode
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(
                        f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        _check_attributes(input, self._flat_weights, [hx])
        output, hidden = _rnn_stack(self.mode, input, hx, self._layer_params(), self.num_layers, self.dropout,
                                    self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


    def _forward_packed(self, packed, hx):
        """A PackedSequence in, a PackedSequence out: hx given in the caller's batch order is permuted into the
        packed (sorted) order, and the final hidden state permuted back, as torch's forward does."""
        input, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = batch_sizes.tolist()
        if hx is None:
            if self.mode == "LSTM":
                real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
                hx = (self._zeros(input, real_hidden_size, sizes), self._zeros(input, self.hidden_size, sizes))
            else:
                hx = self._zeros(input, self.hidden_size, sizes)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        if self.mode != "LSTM":     # torch's LSTM.forward checks the shapes of padded input only
            self.check_forward_args(input, hx, sizes)
        elif len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        _check_attributes(input, self._flat_weights, list(hx) if self.mode == "LSTM" else [hx])
        output, hidden = _rnn_stack(self.mode, input, hx, self._layer_params(), self.num_layers, self.dropout,
                                    self.training, self.bidirectional, False, sizes)
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), self.permute_hidden(
            hidden, unsorted_indices)


class RNN(RNNBase):
    """Elman RNN: h_t = nonlinearity(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), nonlinearity 'tanh' or 'relu'.

    RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, device=None, dtype=None); forward(input, hx=None) returns
    (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """(output, h_n): output (seq, batch, num_directions * hidden_size) (batch first if batch_first),
        h_n (num_layers * num_directions, batch, hidden_size); unbatched input drops the batch dim."""
        return self._forward_one_hidden(input, hx)


class GRU(RNNBase):
    """Gated recurrent unit layers (reset, update and new gates, as torch orders them in the weights).

    GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, device=None, dtype=None); forward(input, hx=None) returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        """(output, h_n), shaped as RNN's."""
        return self._forward_one_hidden(input, hx)


class LSTM(RNNBase):
    """Long short-term memory layers (input, forget, cell and output gates), with an optional projection
    of the hidden state to proj_size.

    LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, proj_size=0, device=None, dtype=None); forward(input, hx=None) with
    hx = (h_0, c_0) returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        """(num_layers * num_directions, batch, hidden_size)."""
        mini_batch = self._mini_batch(input, batch_sizes)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        """The input, then h_0's and c_0's shapes."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        """Both states reordered along the batch (only packed sequences have a permutation)."""
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        """(output, (h_n, c_n)): output's last dim is num_directions * (proj_size or hidden_size)."""
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zeros(input, real_hidden_size), self._zeros(input, self.hidden_size))
        elif is_batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        else:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        _check_attributes(input, self._flat_weights, list(hx))
        output, (h_n, c_n) = _rnn_stack(self.mode, input, hx, self._layer_params(), self.num_layers,
                                        self.dropout, self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


class RNNCellBase(Module):
    """weight_ih (num_chunks * hidden_size, input_size), weight_hh (num_chunks * hidden_size, hidden_size)
    and the optional biases, all uniform in +-1/sqrt(hidden_size) in that order."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(minitorch.empty((num_chunks * hidden_size, input_size), **factory))
        self.weight_hh = Parameter(minitorch.empty((num_chunks * hidden_size, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(minitorch.empty(num_chunks * hidden_size, **factory))
            self.bias_hh = Parameter(minitorch.empty(num_chunks * hidden_size, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        """The sizes, then bias and nonlinearity when not their defaults, as torch prints them."""
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        """Every parameter uniform in +-1/sqrt(hidden_size), in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, zeros_count):
        """input and hx with a batch dim (zeros for a missing hx), and whether input had one."""
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = minitorch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = zeros if zeros_count == 1 else (zeros, zeros)
        elif not is_batched:
            hx = hx.unsqueeze(0) if zeros_count == 1 else (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        return input, hx, is_batched

    def _check_cell(self, input, hiddens):
        """RNN.cpp's check_rnn_cell_forward_input and _hidden."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.weight_ih.size(1)}")
        hidden_size = self.weight_hh.size(1)
        for label, hx in enumerate(hiddens):
            if input.size(0) != hx.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                                   f"{hx.size(0)}")
            if hx.size(1) != hidden_size:
                raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected "
                                   f"{hidden_size}")

    def _check_dims(self, input, hx):
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = nonlinearity(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """h' of shape (batch, hidden_size), or (hidden_size,) for unbatched input."""
        self._check_dims(input, hx)
        input, hx, is_batched = self._batched(input, hx, 1)
        if self.nonlinearity == "tanh":
            act = minitorch.tanh
        elif self.nonlinearity == "relu":
            act = minitorch.relu
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check_cell(input, [hx])
        ret = _simple_step(act, F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from input and (h, c)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        """(h', c'), each (batch, hidden_size), or (hidden_size,) for unbatched input."""
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        input, hx, is_batched = self._batched(input, hx, 2)
        self._check_cell(input, hx)
        h, c = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh, None)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h' from input and h."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        """h' of shape (batch, hidden_size), or (hidden_size,) for unbatched input."""
        self._check_dims(input, hx)
        input, hx, is_batched = self._batched(input, hx, 1)
        self._check_cell(input, [hx])
        ret = _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
