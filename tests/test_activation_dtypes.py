"""nn.functional's activations (and their in-place forms and modules) on integer and bool tensors:
torch's "not implemented for 'Long'" dispatch errors where its kernels are floating-only, and its
integer results where they are not (hardtanh, relu6, threshold, relu, softmax's errors), against torch;
on a CUDA device, the names of torch's CUDA kernels."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from parity import compare  # noqa: E402

import minitorch  # noqa: E402

CALLS = """
import torch.nn as nn
import torch.nn.functional as F
CALLS = [
    lambda x: F.leaky_relu(x), lambda x: F.leaky_relu(x, 0.2, inplace=True), lambda x: F.leaky_relu_(x),
    lambda x: F.elu(x), lambda x: F.elu(x, inplace=True), lambda x: F.elu_(x), lambda x: F.selu(x),
    lambda x: F.selu(x, inplace=True), lambda x: F.selu_(x), lambda x: F.celu(x), lambda x: F.celu_(x),
    lambda x: F.celu(x, alpha=0.), lambda x: F.gelu(x), lambda x: F.gelu(x, approximate='tanh'),
    lambda x: F.gelu(x, approximate='bad'), lambda x: F.silu(x), lambda x: F.silu(x, inplace=True),
    lambda x: F.mish(x), lambda x: F.mish(x, inplace=True), lambda x: F.softplus(x), lambda x: F.softplus(x, beta=0),
    lambda x: F.hardswish(x), lambda x: F.hardswish(x, inplace=True), lambda x: F.hardsigmoid(x),
    lambda x: F.hardsigmoid(x, inplace=True), lambda x: F.logsigmoid(x), lambda x: F.hardtanh(x),
    lambda x: F.hardtanh_(x), lambda x: F.hardtanh(x, -2.5, 2.5), lambda x: F.hardtanh(x, 0., 6.),
    lambda x: F.hardtanh(x, 2., 1.), lambda x: F.relu6(x), lambda x: F.relu6(x, inplace=True), lambda x: F.relu(x),
    lambda x: F.relu_(x), lambda x: F.threshold(x, 1, 2), lambda x: F.threshold_(x, 1.5, -2),
    lambda x: F.softmax(x, 0), lambda x: F.log_softmax(x, 0), lambda x: F.softmin(x, 0), lambda x: F.glu(x),
    lambda x: F.hardshrink(x), lambda x: F.softshrink(x), lambda x: F.rrelu(x), lambda x: F.tanhshrink(x),
    lambda x: F.softsign(x), lambda x: F.sigmoid(x), lambda x: F.tanh(x),
    lambda x: F.layer_norm(x, (2,)), lambda x: F.layer_norm(x, (3,)), lambda x: F.layer_norm(x, (2,), torch.ones(2)),
    lambda x: nn.LeakyReLU()(x), lambda x: nn.ELU(inplace=True)(x), lambda x: nn.SELU()(x), lambda x: nn.CELU()(x),
    lambda x: nn.GELU()(x), lambda x: nn.SiLU(inplace=True)(x), lambda x: nn.Mish()(x), lambda x: nn.Softplus()(x),
    lambda x: nn.Hardswish()(x), lambda x: nn.Hardsigmoid(inplace=True)(x), lambda x: nn.LogSigmoid()(x),
    lambda x: nn.Hardtanh(-2, 2)(x), lambda x: nn.ReLU6(inplace=True)(x), lambda x: nn.Threshold(1, 2)(x),
    lambda x: nn.LayerNorm(2)(x),
]
"""


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "bool"])
def test_activations_on_integer_and_bool_tensors(dtype):
    compare(CALLS + """
for k, f in enumerate(CALLS):
    x = torch.tensor([[-3, 0], [2, 9]]).to(torch.%s)
    try:
        r = f(x)
    except Exception as e:
        print(k, type(e).__name__, e)
    else:
        print(k, r.tolist(), r.dtype, r is x, x.tolist())
""" % dtype)


CUDA_KERNELS = {
    "leaky_relu": "leaky_relu_cuda", "elu": "elu_cuda", "selu": "elu_cuda", "celu": "elu_cuda",
    "gelu": "GeluCUDAKernelImpl", "silu": "silu_cuda", "mish": "mish_cuda", "softplus": "softplus_cuda",
    "hardswish": "hardswish_cuda", "hardsigmoid": "hardsigmoid_cuda", "logsigmoid": "log_sigmoid_forward_cuda",
}


@pytest.mark.parametrize("name", sorted(CUDA_KERNELS))
def test_cuda_kernel_names(device, name):
    """On a CUDA device the message names torch's CUDA kernel (not checked against torch: its CPU build
    has none); the values of a floating input are the CPU's (gelu's to float rounding: the CPU's are torch's
    CPU kernel's, the device's composed of other ops)."""
    F = minitorch.nn.functional
    x = minitorch.tensor([[-3, 0], [2, 9]], device=device)
    kernel = CUDA_KERNELS[name] if device == "cuda" else None
    with pytest.raises(NotImplementedError) as info:
        getattr(F, name)(x)
    if kernel is not None:
        assert str(info.value) == "\"%s\" not implemented for 'Long'" % kernel
    got, want = getattr(F, name)(x.float()).tolist(), getattr(F, name)(x.float().cpu()).tolist()
    if name == "gelu":
        assert sum(got, []) == pytest.approx(sum(want, []), rel=1e-6, abs=1e-6)
    else:
        assert got == want


def test_threshold_and_layer_norm_on_device(device):
    F = minitorch.nn.functional
    x = minitorch.tensor([[-3, 0], [2, 9]], device=device)
    with pytest.raises(NotImplementedError, match="\"threshold_%s\" not implemented for 'Bool'" % device):
        F.threshold(x > 0, 1, 2)
    with pytest.raises(NotImplementedError, match="\"LayerNormKernelImpl\" not implemented for 'Long'"):
        F.layer_norm(x, (2,))
    assert F.hardtanh(x, -2.5, 2.5).tolist() == [[-2, 0], [2, 2]]
    assert F.relu6(x.to(minitorch.uint8)).tolist() == [[6, 0], [2, 6]]
