"""The module classes of minitorch.nn, laid out like torch.nn.modules (one file per family) so that
class paths read the same: ``minitorch.nn.modules.linear.Linear``. This file only re-exports."""

from minitorch.nn.modules.module import Module
from minitorch.nn.modules.linear import Identity, Linear
from minitorch.nn.modules.activation import (
    CELU, ELU, GELU, SELU, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish, ReLU, ReLU6,
    MultiheadAttention, Sigmoid, SiLU, Softmax, Softplus, Tanh,
)
from minitorch.nn.modules.conv import Conv1d, Conv2d
from minitorch.nn.modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from minitorch.nn.modules.normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from minitorch.nn.modules.sparse import Embedding
from minitorch.nn.modules.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from minitorch.nn.modules.loss import (
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss,
)
from minitorch.nn.modules.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from minitorch.nn.modules.flatten import Flatten, Unflatten
from minitorch.nn.modules.transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer,
)
from minitorch.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase

__all__ = ["Module", "Identity", "Linear", "ReLU", "Sequential", "ModuleList", "Flatten", "CELU", "ELU", "GELU",
           "SELU", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU", "LogSigmoid", "Mish", "ReLU6", "Sigmoid",
           "SiLU", "Softplus", "Tanh", "BCELoss", "BCEWithLogitsLoss", "HuberLoss", "L1Loss", "MSELoss",
           "SmoothL1Loss", "NLLLoss", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "Conv1d", "Conv2d",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Softmax",
           "LogSoftmax", "CrossEntropyLoss", "Embedding",
           "ModuleDict", "ParameterList", "ParameterDict", "Unflatten", "RNNBase", "RNN", "LSTM", "GRU",
           "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention",
           "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]
