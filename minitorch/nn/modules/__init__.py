"""The module classes of minitorch.nn, laid out like torch.nn.modules (one file per family) so that
class paths read the same: ``minitorch.nn.modules.linear.Linear``. This file only re-exports."""

from minitorch.nn.modules.module import Module
from minitorch.nn.modules.linear import Bilinear, Identity, LazyLinear, Linear
from minitorch.nn.modules.activation import (
    CELU, ELU, GELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish,
    MultiheadAttention, PReLU, ReLU, ReLU6, RReLU, Sigmoid, SiLU, Softmax, Softmax2d, Softmin, Softplus, Softshrink,
    Softsign, Tanh, Tanhshrink, Threshold,
)
from minitorch.nn.modules.distance import CosineSimilarity, PairwiseDistance
from minitorch.nn.modules.pixelshuffle import PixelShuffle, PixelUnshuffle
from minitorch.nn.modules.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from minitorch.nn.modules.conv import (
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, LazyConv1d, LazyConv2d, LazyConv3d,
)
from minitorch.nn.modules.pooling import (
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d,
    AvgPool1d, AvgPool2d, AvgPool3d, FractionalMaxPool2d, FractionalMaxPool3d, LPPool1d, LPPool2d, LPPool3d,
    MaxPool1d, MaxPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,
)
from minitorch.nn.modules.normalization import (
    BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm, LocalResponseNorm,
    LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, RMSNorm,
)
from minitorch.nn.modules.sparse import Embedding, EmbeddingBag
from minitorch.nn.modules.dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout
from minitorch.nn.modules.loss import (
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss,
    HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss,
    PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss, TripletMarginLoss,
)
from minitorch.nn.modules.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from minitorch.nn.modules.flatten import Flatten, Unflatten
from minitorch.nn.modules.fold import Fold, Unfold
from minitorch.nn.modules.padding import (
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
    ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d,
    ZeroPad3d,
)
from minitorch.nn.modules.transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer,
)
from minitorch.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase

__all__ = ["Module", "Identity", "Linear", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "BatchNorm3d",
           "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "ReLU", "Sequential", "ModuleList", "Flatten", "CELU", "ELU", "GELU",
           "SELU", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU", "LogSigmoid", "Mish", "ReLU6", "Sigmoid",
           "SiLU", "Softplus", "Tanh", "BCELoss", "BCEWithLogitsLoss", "HuberLoss", "L1Loss", "MSELoss",
           "SmoothL1Loss", "NLLLoss", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Conv1d", "Conv2d",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Softmax",
           "LogSoftmax", "CrossEntropyLoss", "Embedding",
           "ModuleDict", "ParameterList", "ParameterDict", "Unflatten", "RNNBase", "RNN", "LSTM", "GRU",
           "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "Fold", "Unfold", "Conv3d", "ConvTranspose1d",
           "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "MaxPool3d", "AvgPool1d",
           "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d",
           "LPPool1d", "LPPool2d", "LPPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
           "FractionalMaxPool2d", "FractionalMaxPool3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "Softmin", "Softmax2d", "CosineSimilarity",
           "PairwiseDistance", "KLDivLoss", "GLU", "Hardshrink", "Softshrink", "Softsign", "Tanhshrink", "Threshold",
           "PReLU", "RReLU", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "RMSNorm",
           "LocalResponseNorm", "HingeEmbeddingLoss", "MarginRankingLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss", "MultiMarginLoss",
           "CTCLoss", "PixelShuffle", "PixelUnshuffle", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d",
           "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer", "Bilinear", "EmbeddingBag"]
