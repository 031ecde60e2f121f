"""A small program using minitorch's public API, checked by mypy (tests/test_typing.py) against the
type stubs (minitorch/*.pyi). It also runs: tests/test_typing.py executes it on the CPU."""

from __future__ import annotations

from collections import OrderedDict

import minitorch as torch
import minitorch.nn.functional as F
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset, random_split

# creation
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.zeros(2, 2, dtype=torch.float32)
c = torch.ones((2, 3), device="cpu")
r = torch.randn(4, 3)
i = torch.arange(0, 10, 2, dtype=torch.int64)
e = torch.eye(3)
f = torch.full((2, 2), 1.5)
torch.manual_seed(0)

# ops and properties
s: torch.Tensor = a + b * 2 - 1.0
m = a @ c
shape: torch.Size = m.shape
n: int = shape[0] + m.size(1) + m.numel() + m.dim()
strides: tuple[int, ...] = m.stride()
dt: torch.dtype = m.dtype
dev: torch.device = m.device
mx = m.max(dim=1)
values: torch.Tensor = mx.values
total: float = float(m.sum())
item = m.mean().item()
flat = m.reshape(-1).view(2, 3).t().contiguous()
parts = torch.split(r, 2)
stacked = torch.stack([a, b], dim=0)
mask: torch.Tensor = a > 1.5
as_list = r.tolist()
bits: torch.Tensor = (i & 3) | (1 << i) ^ ~i >> 1
i2 = i.clone()
i2 &= 1
i2 <<= 2
both: torch.Tensor = torch.logical_and(mask, ~mask).logical_or(torch.isnan(a))
clean: torch.Tensor = torch.nan_to_num(a, nan=0.0, posinf=1.0).isfinite() & a.isinf().logical_not()

# devices and dtypes
if torch.cuda.is_available():
    g = a.cuda()
    g2 = a.to("cuda:0", torch.float64)
    g3 = a.to(torch.device("cuda", 0))
    back = g.cpu()
    used: int = torch.cuda.memory_allocated()
    reserved: int = torch.cuda.memory_reserved(0)
    peak: int = torch.cuda.max_memory_allocated()
    torch.cuda.empty_cache()
    torch.cuda.synchronize()
    name: str = torch.cuda.get_device_name(0)
    stats = torch.cuda.memory_stats()
    summary: str = torch.cuda.memory_summary()
    free, total_mem = torch.cuda.mem_get_info()
    with torch.cuda.device(0):
        torch.cuda.set_device(0)
count: int = torch.cuda.device_count()
built: bool = torch.backends.cuda.is_built()
tf32: bool = torch.backends.cuda.matmul.allow_tf32
cuda_version: str | None = torch.version.cuda
d64 = a.to(torch.float64).double().float().long().int()

# nn
layer = nn.Linear(2, 3)
out: torch.Tensor = layer(a)
w: nn.Parameter = layer.weight
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
model2 = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2))]))
y = model(a)
y2 = F.relu(F.linear(a, layer.weight, layer.bias))
params = list(model.parameters())
state = model.state_dict()
model.load_state_dict(state)
model = model.to("cpu").float().eval()
nn.init.zeros_(layer.weight)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x).relu()


net = Net()
z = net(a)

# interop
mv = memoryview(a)
cap = a.__dlpack__()
a2 = torch.from_dlpack(a)
kind, index = a.__dlpack_device__()

with torch.no_grad():
    pass

# data loading
perm: torch.Tensor = torch.randperm(5, generator=torch.Generator().manual_seed(1))
dataset = TensorDataset(torch.rand(6, 2), torch.arange(6))
train, test = random_split(dataset, [4, 2])
for xb, yb in DataLoader(train, batch_size=2, shuffle=True):
    pass
n_batches: int = len(DataLoader(dataset, batch_size=4))


def anomaly_and_functional() -> None:
    with torch.autograd.detect_anomaly(check_nan=False):
        flag: bool = torch.is_anomaly_enabled()
    with torch.autograd.set_detect_anomaly(True):
        flag = torch.is_anomaly_check_nan_enabled()
    torch.set_anomaly_enabled(False)
    x = torch.ones(3)
    jac = torch.autograd.functional.jacobian(lambda t: t * 2, x)
    hess = torch.autograd.functional.hessian(lambda t: (t * t).sum(), x, vectorize=True)
    out, prod = torch.autograd.functional.vjp(lambda t: t.exp(), x, torch.ones(3))
    print(flag, jac, hess, out, prod)

# more layers: padding modes, adaptive max pooling, LPPool, MaxUnpool, Bilinear, EmbeddingBag
img = torch.randn(1, 2, 6, 6)
padded_conv = nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect")
mode_name: str = padded_conv.padding_mode
pooled, where = F.adaptive_max_pool2d(img, (3, 3), return_indices=True)
unpooled: torch.Tensor = nn.MaxUnpool2d(2)(*F.max_pool2d(img, 2, return_indices=True))
lp: torch.Tensor = nn.LPPool2d(2, 2)(img) + F.lp_pool2d(img, 3.0, 2)
amp = nn.AdaptiveMaxPool1d(3, return_indices=True)
bil: torch.Tensor = nn.Bilinear(4, 5, 2)(torch.randn(3, 4), torch.randn(3, 5))
bag = nn.EmbeddingBag(10, 3, mode="sum")
bagged: torch.Tensor = bag(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2])) + F.embedding_bag(
    torch.tensor([[0, 1]]), bag.weight)
values_1d, indices_1d = F.max_pool1d(torch.randn(1, 2, 6), 2, return_indices=True)
unpool_1d: torch.Tensor = F.max_unpool1d(values_1d, indices_1d, 2)

# windows, nn.init's structured fills, torch.testing and the global switches
window: torch.Tensor = torch.hann_window(8) * torch.kaiser_window(8, False, 5.0, dtype=torch.float64).float()
conv_weight = nn.init.dirac_(torch.empty(4, 4, 3), groups=2)
ortho: torch.Tensor = nn.init.orthogonal_(torch.empty(3, 5), gain=2.0) + nn.init.trunc_normal_(torch.empty(3, 5), std=0.02)
torch.testing.assert_close(window, window.clone(), rtol=0.0, atol=0.0, msg=lambda m: m)
made: torch.Tensor = torch.testing.make_tensor(2, 3, dtype=torch.float32, device="cpu", low=-1, high=1)
torch.set_float32_matmul_precision("high")
precision: str = torch.get_float32_matmul_precision()
torch.set_float32_matmul_precision("highest")
torch.use_deterministic_algorithms(False, warn_only=False)
level: int = torch.get_deterministic_debug_mode()
half_turn: float = torch.pi / 2 + torch.e
