"""Tests for minitorch.nn: parity snippets against real torch, plus checks that need no torch.

The parity snippets are torch code run under real torch and under minitorch (tests/parity.py); the
printed output must match after "minitorch" is replaced by "torch". They cover reprs, seeded
initial values (bit for bit: ``tolist()`` prints every float's shortest repr), traversal order,
state_dict, in-place conversions, errors and forward results. The other tests check identities and
storage sharing directly, carry torch's seeded values as constants (so they run without torch), and
exercise the CUDA paths when minitorch has a device (run the file again with
MINITORCH_SIMULATE_GPU=1). `python tests/test_nn.py [SUBSTRING]` prints snippets' outputs by hand.
"""

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import compare, import_minitorch, import_torch, run_snippet  # noqa: E402

import minitorch  # noqa: E402
import minitorch.nn as nn  # noqa: E402

SNIPPETS = []  # (id, code, pytest marks)

# Known gaps in the C core, each an xfail that turns into a plain failure-if-wrong test the moment
# the core gains the feature (so the snippet is enforced from then on).
CORE_LACKS_AUTOGRAD = pytest.mark.xfail(
    not hasattr(minitorch.Tensor, "backward"), strict=True,
    reason="minitorch records no autograd graph: outputs have no grad_fn/requires_grad")
CORE_LACKS_ADDMM = pytest.mark.xfail(
    not hasattr(minitorch, "addmm"), strict=True,
    reason="the C core has no addmm, so Linear's 2-D errors are matmul's, not addmm's")
CORE_LACKS_FLATTEN = pytest.mark.xfail(
    not hasattr(minitorch.Tensor, "flatten"), strict=True,
    reason="the C core has no Tensor.flatten yet")


def snip(name, code, marks=()):
    SNIPPETS.append((name, textwrap.dedent(code).strip() + "\n", marks))


# ---------------------------------------------------------------------------------------------
# reprs
# ---------------------------------------------------------------------------------------------
snip("repr_layers", """
import torch.nn as nn
print(nn.Linear(4, 3))
print(repr(nn.Linear(2, 5, bias=False)))
print(nn.ReLU())
print(nn.ReLU(inplace=True))
print(nn.Identity(54, unused='x'))
print(nn.Flatten())
print(nn.Flatten(0, 2))
print(nn.Module())
""")
snip("repr_sequential_nested", """
import torch.nn as nn
model = nn.Sequential(
    nn.Linear(4, 8),
    nn.ReLU(),
    nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Sequential(nn.Identity())),
    nn.Linear(8, 2),
)
print(model)
print(nn.Sequential())
print(str(nn.Sequential(nn.ReLU())))
""")
snip("repr_custom_module_extra_repr", """
import torch.nn as nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.act = nn.ReLU()
    def extra_repr(self):
        return 'width=3,\\nnote=two lines'
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(3, 1)
        self.empty = None
        self.add_module('none_child', None)
    def forward(self, x):
        return self.head(self.block.act(self.block.fc(x)))
print(Net())
print(Block())
""")
snip("repr_modulelist", """
import torch.nn as nn
print(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)]))
print(nn.ModuleList())
print(nn.Sequential(nn.Linear(2, 2), nn.ModuleList([nn.ReLU(), nn.ReLU()])))
""")
snip("repr_parameter", """
import torch.nn as nn
p = nn.Parameter(torch.tensor([1.0, 2.5, -3.0]))
print(p)
print(repr(p))
print(str(p))
print(nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), requires_grad=False))
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(nn.Parameter(torch.tensor([1.5], dtype=torch.float64)))
print(nn.Parameter())
print(nn.Parameter(torch.tensor(2.5)))
""")
snip("parameter_type", """
import torch.nn as nn
t = torch.tensor([1.0, 2.0])
p = nn.Parameter(t)
print(type(p))
print(type(p).__name__, isinstance(p, torch.Tensor), isinstance(p, nn.Parameter))
print(p.requires_grad, p.is_leaf, p.dtype, p.shape, p.device)
print(nn.Parameter(t, False).requires_grad)
print(type(p.data), type(p.detach()), p.detach().requires_grad)
print(type(nn.Linear(2, 2)))
print(issubclass(nn.Parameter, torch.Tensor))
""")
snip("parameter_errors_and_edge_cases", """
import torch.nn as nn
nn.Parameter(torch.tensor([1, 2]))
nn.Parameter([1.0, 2.0])
p = nn.Parameter(torch.tensor([1.0, 2.0]))
q = nn.Parameter(p)
print(type(q).__name__, q.data_ptr() == p.data_ptr(), q is p, len({p, q}))
torch.manual_seed(0)
lin = nn.Linear(0, 3)
print(lin.weight, lin.bias)
print(torch.rand(2).tolist())
print(nn.Linear(3, 2).weight.T.shape)
""")
snip("parameter_shares_storage", """
import torch.nn as nn
t = torch.tensor([1.0, 2.0, 3.0])
p = nn.Parameter(t)
t.copy_(torch.tensor([7.0, 8.0, 9.0]))
print(p)
print(p.data_ptr() == t.data_ptr())
""")

# ---------------------------------------------------------------------------------------------
# seeded initialisation: torch's exact values
# ---------------------------------------------------------------------------------------------
snip("init_linear_seed0", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(4, 3)
print(lin.weight)
print(lin.bias)
print(lin.weight.tolist())
print(lin.bias.tolist())
""")
snip("init_linear_sizes_dtypes", """
import torch.nn as nn
torch.manual_seed(123)
for i, o in [(1, 1), (7, 5), (33, 2), (2, 17)]:
    lin = nn.Linear(i, o)
    print(i, o, lin.weight.tolist(), lin.bias.tolist())
lin = nn.Linear(5, 3, dtype=torch.float64)
print(lin.weight.dtype, lin.weight.tolist(), lin.bias.tolist())
lin = nn.Linear(6, 4, bias=False)
print(lin.bias, lin.weight.tolist())
print(torch.rand(3).tolist())
""")
snip("init_sequential_then_randn", """
import torch.nn as nn
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
for name, p in model.named_parameters():
    print(name, p.tolist())
print(torch.randn(4).tolist())
""")
snip("init_functions", """
import math
import torch.nn as nn
torch.manual_seed(7)
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, a=math.sqrt(5)) is w)
print(w.tolist())
nn.init.uniform_(w, -2.0, 3.5)
print(w.tolist())
nn.init.uniform_(w)
print(w.tolist())
nn.init.normal_(w, 0.5, 2.0)
print(w.tolist())
big = torch.empty(4, 8)
nn.init.normal_(big, -1.0, 0.25)
print(big.tolist())
nn.init.xavier_uniform_(w)
print(w.tolist())
nn.init.xavier_normal_(big, gain=2.0)
print(big.tolist())
nn.init.kaiming_normal_(big, nonlinearity='relu')
print(big.tolist())
nn.init.kaiming_uniform_(w, mode='fan_out', nonlinearity='relu')
print(w.tolist())
d = torch.empty(20, dtype=torch.float64)
nn.init.normal_(d, 3.0, 0.1)
print(d.tolist())
nn.init.uniform_(d, -1.0, 1.0)
print(d.tolist())
print(nn.init.zeros_(w))
print(nn.init.ones_(w))
print(nn.init.constant_(w, 0.25))
print(torch.rand(2).tolist())
""")
snip("init_uniform_upper_bound_maps_to_lower", """
import torch.nn as nn
torch.manual_seed(1)
x = torch.empty(2000)
nn.init.uniform_(x, 100.0, 100.001)
v = x.tolist()
print(min(v), max(v), v[54], v[122])
torch.manual_seed(5)
x = torch.empty(3000)
nn.init.uniform_(x, 100.0, 103.0)
v = x.tolist()
print(min(v), max(v), sum(1 for e in v if e == 100.0))
""")
snip("init_helpers_and_errors", """
import torch.nn as nn
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('linear'))
print(nn.init.calculate_gain('leaky_relu'), nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('selu'))
nn.init.calculate_gain('swish')
nn.init.calculate_gain('leaky_relu', True)
nn.init.kaiming_uniform_(torch.empty(3))
nn.init.kaiming_uniform_(torch.empty(3, 3), mode='fan_avg')
nn.init.uniform_(torch.empty(3), 1.0, 0.0)
print(nn.init.kaiming_uniform_(torch.empty(0, 3)).shape)
""")

# ---------------------------------------------------------------------------------------------
# structure: parameters, children, state_dict
# ---------------------------------------------------------------------------------------------
snip("shapes_and_counts", """
import torch.nn as nn
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3, bias=False))
print(model[0].weight.shape, model[0].bias.shape, model[2].weight.shape, model[2].bias)
print(sum(p.numel() for p in model.parameters()))
print(len(list(model.parameters())), len(list(model.parameters(recurse=False))))
print([type(p).__name__ for p in model.parameters()])
print(model[0].in_features, model[0].out_features)
""")
snip("traversal_order", """
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.head = nn.Linear(3, 1)
        self.register_buffer('scale', torch.tensor([2.0]))
        self.register_buffer('step', torch.tensor(0))
        self.register_buffer('scratch', torch.zeros(2), persistent=False)
        self.register_buffer('nothing', None)
net = Net()
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
for name, b in net.named_buffers():
    print(name, b)
print([name for name, _ in net.named_children()])
print([type(m).__name__ for m in net.children()])
for name, m in net.named_modules():
    print(repr(name), type(m).__name__)
print(len(list(net.modules())))
print([n for n, _ in net.named_parameters(prefix='net')])
print([n for n, _ in net.named_parameters(recurse=False)], [n for n, _ in net.head.named_parameters()])
""")
snip("shared_parameters_deduplicated", """
import torch.nn as nn
shared = nn.Linear(2, 2)
model = nn.Sequential(shared, nn.ReLU(), shared)
print(len(list(model.parameters())), [n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_parameters(remove_duplicate=False)])
print([n for n, _ in model.named_modules()])
print(len(list(model.modules())), len(list(model.children())))
print(list(model.state_dict().keys()))
""")
snip("state_dict_keys_values", """
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
sd = model.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd['0.weight'])
print(sd['2.bias'])
print(type(sd['0.weight']), sd['0.weight'].requires_grad)
print(sd['0.weight'].data_ptr() == model[0].weight.data_ptr())
print(model.state_dict(keep_vars=True)['0.bias'] is model[0].bias)
print(list(model.state_dict(prefix='m.').keys()))
print(nn.ReLU().state_dict())
print(sd._metadata)
""")
snip("load_state_dict", """
import torch.nn as nn
torch.manual_seed(0)
a = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
b = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
w = b[0].weight
print(a[0].weight.tolist() == b[0].weight.tolist())
print(b.load_state_dict(a.state_dict()))
print(b[0].weight is w, a[0].weight.tolist() == b[0].weight.tolist(), a[2].bias.tolist() == b[2].bias.tolist())
print(b[0].weight.data_ptr() == a[0].weight.data_ptr())
r = b.load_state_dict({'0.weight': torch.zeros(2, 3)}, strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
print(b[0].weight)
b.load_state_dict({'0.weight': torch.zeros(2, 3)})
sd = a.state_dict()
sd['extra.weight'] = torch.zeros(1)
sd['2.gamma'] = torch.zeros(1)
b.load_state_dict(sd)
sd = a.state_dict()
sd['0.weight'] = torch.zeros(3, 3)
b.load_state_dict(sd)
sd = a.state_dict()
del sd['2.bias']
sd['0.bias'] = torch.ones(5)
sd['junk'] = torch.ones(1)
b.load_state_dict(sd)
sd = a.state_dict()
sd['0.bias'] = [1.0, 2.0]
b.load_state_dict(sd)
b.load_state_dict([1, 2])
print(nn.Linear(2, 2, bias=False).load_state_dict({'weight': torch.ones(2, 2)}))
""")
snip("load_state_dict_dtype_and_buffers", """
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer('count', torch.tensor([0, 0]))
torch.manual_seed(3)
src = M()
dst = M().double()
print(dst.load_state_dict({'lin.weight': torch.tensor([[1, 2], [3, 4]]), 'lin.bias': src.lin.bias, 'count': torch.tensor([5, 6])}))
print(dst.lin.weight)
print(dst.lin.bias.dtype, dst.count)
""")

# ---------------------------------------------------------------------------------------------
# attribute registration
# ---------------------------------------------------------------------------------------------
snip("setattr_registration", """
import torch.nn as nn
m = nn.Module()
m.w = nn.Parameter(torch.ones(2))
m.t = torch.ones(2)
m.child = nn.Linear(1, 1)
m.x = 3
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
print('w' in m.__dict__, 't' in m.__dict__, 'child' in m.__dict__, m.x)
m.w = None
print(m.w, list(m._parameters.keys()))
m.w = nn.Parameter(torch.zeros(1))
del m.w
print(list(m._parameters.keys()), hasattr(m, 'w'))
del m.child
print(list(m._modules.keys()))
m.child = nn.ReLU()
m.child = None
print(m.child, m)
m.register_buffer('buf', torch.ones(1))
m.buf = torch.zeros(3)
print(m.buf, list(m.state_dict().keys()))
m.buf = None
print(list(m.state_dict().keys()))
m.register_parameter('p', None)
print(m.p, list(m.state_dict().keys()))
lin = nn.Linear(2, 2)
lin.bias = None
print(lin, list(lin.state_dict().keys()))
""")
snip("setattr_errors", """
import torch.nn as nn
lin = nn.Linear(2, 2)
lin.weight = torch.zeros(2, 2)
lin.weight = 3
lin.weight = torch.zeros(2, 2, dtype=torch.float64)
m = nn.Sequential(nn.ReLU())
setattr(m, '0', torch.ones(1))
m.register_buffer('b', torch.ones(1))
m.b = 'text'
m.register_buffer('c', [1])
m.register_buffer('a.b', torch.ones(1))
m.register_buffer('', torch.ones(1))
m.register_buffer('training', torch.ones(1))
m.register_buffer(3, torch.ones(1))
m.register_parameter('x.y', None)
m.register_parameter('', None)
m.register_parameter('z', torch.ones(1))
m.register_parameter('forward', None)
m.add_module('bad', 3)
m.add_module('a.b', nn.ReLU())
m.add_module('', nn.ReLU())
m.add_module('train', nn.ReLU())
m.add_module(5, nn.ReLU())
class Early(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
Early()
class Early2(nn.Module):
    def __init__(self):
        self.l = nn.Linear(1, 1)
Early2()
class Early3(nn.Module):
    def __init__(self):
        self.register_buffer('b', torch.ones(1))
Early3()
nn.Module(3)
nn.Module(x=3)
""")
snip("getattr_errors", """
import torch.nn as nn
lin = nn.Linear(2, 2)
lin.device
print(hasattr(lin, 'device'))
nn.Sequential().weight
print(getattr(lin, 'dtype', 'no dtype'))
class Custom(nn.Module):
    pass
Custom().device
""")
snip("dir_lists_members", """
import torch.nn as nn
lin = nn.Linear(2, 2)
d = dir(lin)
print('weight' in d, 'bias' in d, 'forward' in d, 'in_features' in d, d == sorted(d))
s = nn.Sequential(nn.ReLU(), nn.ReLU())
print('0' in dir(s), '_modules' in dir(s))
m = nn.Module()
m.register_buffer('buf', torch.ones(1))
print('buf' in dir(m))
""")

# ---------------------------------------------------------------------------------------------
# modes, requires_grad, zero_grad, apply
# ---------------------------------------------------------------------------------------------
snip("train_eval", """
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU()))
print(model.training, model[1][0].training)
print(model.eval() is model, model.training, model[0].training, model[1][0].training)
print(model.train() is model, model[1][0].training)
model[1].train(False)
print(model.training, model[1].training, model[1][0].training)
model.train('yes')
""")
snip("requires_grad_zero_grad_apply", """
import torch.nn as nn
lin = nn.Linear(2, 2)
print(lin.requires_grad_(False) is lin, [p.requires_grad for p in lin.parameters()])
torch.manual_seed(0)
lin = nn.Linear(2, 2).requires_grad_(False)
print(lin.weight)
lin.requires_grad_()
print(lin.bias.requires_grad)
print(lin.zero_grad(), lin.weight.grad)
lin.zero_grad(set_to_none=False)
seen = []
model = nn.Sequential(nn.Linear(1, 1), nn.ReLU())
print(model.apply(lambda m: seen.append(type(m).__name__)) is model, seen)
""")

# ---------------------------------------------------------------------------------------------
# conversions: in place, same Parameter objects
# ---------------------------------------------------------------------------------------------
snip("to_in_place_same_objects", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
w, b = lin.weight, lin.bias
ids = [id(p) for p in lin.parameters()]
print(lin.cpu() is lin, lin.to('cpu') is lin, lin.to(torch.device('cpu')) is lin)
print(lin.to(torch.float64) is lin)
print([id(p) for p in lin.parameters()] == ids, lin.weight is w, lin.bias is b)
print(lin.weight.dtype, lin.bias.dtype, type(lin.weight).__name__, lin.weight.requires_grad)
print(lin.bias)
print(lin.float() is lin, lin.weight.dtype, lin.weight is w)
print(lin.double() is lin, lin.bias.dtype, lin.bias is b)
print(lin.to(dtype=torch.float32) is lin, lin.weight.dtype)
print(lin.to('cpu', torch.float64).weight.dtype, lin.weight is w)
print(lin.to(torch.zeros(1)).weight.dtype)
print(lin.to(device='cpu', dtype=torch.float64, non_blocking=True).weight.dtype)
print(lin.to().weight.dtype, lin.to(None).weight.dtype, lin.to(float).weight.dtype)
print(lin.to(torch.float32, False).weight.dtype)
print(lin.weight)
""")
snip("to_buffers_replaced_int_kept", """
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer('scale', torch.tensor([1.5, 2.5]))
        self.register_buffer('count', torch.tensor([1, 2]))
        self.idx = nn.Parameter(torch.tensor([3, 4]), requires_grad=False)
m = M()
scale, count, idx = m.scale, m.count, m.idx
m.to(torch.float64)
print(m.scale.dtype, m.count.dtype, m.idx.dtype, m.lin.weight.dtype)
print(m.scale is scale, m.count is count, m.idx is idx)
m.float()
print(m.scale.dtype, m.count.dtype, m.idx.dtype)
m.double()
print(m.scale, m.count, m.idx)
print([n for n, _ in m.named_parameters()], list(m.state_dict().keys()))
""")
snip("to_errors", """
import torch.nn as nn
lin = nn.Linear(2, 2)
lin.to(torch.int64)
lin.to(torch.int32)
lin.to(torch.bool)
lin.to('cpu', torch.int64)
lin.to(dtype=torch.long)
lin.to(torch.tensor([1, 2]))
lin.to(int)
lin.to('float32')
lin.to('cuda:x')
lin.to('gpu')
lin.to('cpu', 'cpu')
lin.to(torch.float32, torch.float32)
lin.to([1])
lin.to(foo=1)
lin.to('cpu', bar='x', foo=1)
lin.to(c=1, a='x', b=1.5)
lin.to(torch.float32, non_blocking=1)
lin.to(torch.zeros(1), dtype=torch.float32)
lin.to(torch.float32, copy=True)
lin.to('cpu', copy=False)
lin.to('cpu', None, False, False)
print(lin.weight.dtype)
""")

# ---------------------------------------------------------------------------------------------
# forward
# ---------------------------------------------------------------------------------------------
snip("forward_linear", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(4, 3)
x = torch.randn(2, 4)
with torch.no_grad():
    y = lin(x)
    print(y)
    print(y.shape, y.dtype, type(y).__name__, y.requires_grad)
    print(lin(torch.randn(4)))
    print(lin(torch.randn(2, 5, 4)).shape)
    print(lin.forward(x).tolist() == y.tolist())
""")
snip("forward_linear_errors_follow_torchs_path", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 3).double()
F = nn.functional
for x in (torch.ones(2), torch.ones(3), torch.ones(4, 2), torch.ones(2, 2, 3), torch.ones(2, 2, 2, 2),
          torch.ones(2, 2, 2).transpose(0, 1), torch.ones(4, 2, 2)[::2], torch.ones(2, dtype=torch.int64)):
    for f in (lambda: lin(x), lambda: F.linear(x, lin.weight), lambda: F.linear(x, lin.weight, lin.bias)):
        try:
            print(f().shape)
        except RuntimeError as e:
            print(e)
print(F.linear(torch.ones(2, 2, 2, dtype=torch.float64).transpose(0, 1), lin.weight, lin.bias).shape)
try:
    F.linear(torch.ones(2, 2, 2).transpose(0, 1), lin.weight.float(), lin.bias)
except RuntimeError as e:
    print(e)
# which bias shapes take the flattened addmm (torch: 1-D, or one dim other than 1)
for dtype in (torch.float32, torch.float64):
    w = torch.ones(2, 3, dtype=dtype)
    for sizes in [(4, 2, 3), (3,), (5, 4, 2, 3), (2, 3)]:
        for bias in [(2,), (1, 2), (4, 1, 2), (2, 2), (1, 1, 1, 2), (5, 1, 1, 2), (8, 2), (3,), (3, 1), (1, 1), (0, 2)]:
            try:
                print(F.linear(torch.ones(*sizes), w, torch.ones(*bias, dtype=dtype)).shape)
            except RuntimeError as e:
                print(e)
for args in [(torch.tensor(1.), torch.ones(2, 3)), (torch.ones(3), torch.tensor(1.)), (torch.ones(3), torch.ones(3)),
             (torch.ones(3), torch.ones(3), torch.ones(1)), (torch.ones(2, 3), torch.ones(2, 3, 3))]:
    try:
        print(F.linear(*args).shape)
    except RuntimeError as e:
        print(e)
""")
snip("forward_hooks", """
import torch.nn as nn
torch.manual_seed(0)
torch.set_grad_enabled(False)
lin = nn.Linear(2, 2)
order = []
h1 = lin.register_forward_pre_hook(lambda m, args: order.append("pre1"))
h2 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
h3 = lin.register_forward_pre_hook(lambda m, args: order.append("pre0"), prepend=True)
h4 = lin.register_forward_hook(lambda m, args, out: order.append(("post", tuple(out.shape))))
h5 = lin.register_forward_hook(lambda m, args, out: out + 100)
y = lin(torch.ones(3, 2))
print(order, y.tolist() == (lin.bias + 100).expand(3, 2).tolist())
print(type(h1).__name__, type(h1).__module__, h2.id - h1.id, h5.id - h4.id)
for h in (h2, h5):
    h.remove()
h2.remove()
print(lin(torch.ones(1, 2)).tolist() == (lin.weight.sum(1) + lin.bias).reshape(1, 2).tolist())
with lin.register_forward_hook(lambda m, args, out: out * 0) as h:
    print(lin(torch.ones(1, 2)).tolist())
print(lin(torch.ones(1, 2)).abs().sum().item() > 0)
k = lin.register_forward_pre_hook(lambda m, args, kwargs: ((args[0] * 2,), kwargs), with_kwargs=True)
w = lin.register_forward_hook(lambda m, args, kwargs, out: out.shape, with_kwargs=True)
print(lin(torch.ones(4, 2)))
k.remove()
w.remove()
bad = lin.register_forward_pre_hook(lambda m, args, kwargs: 3, with_kwargs=True)
lin(torch.ones(1, 2))
bad.remove()
seen = []
always = lin.register_forward_hook(lambda m, args, out: seen.append("always"), always_call=True)
plain = lin.register_forward_hook(lambda m, args, out: seen.append("plain"))
lin(torch.ones(1, 3))
print(seen)
lin(torch.ones(1, 2)).shape
print(seen)
always.remove()
plain.remove()
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
calls = []
seq[0].register_forward_hook(lambda m, a, o: calls.append(type(m).__name__))
seq[1].register_forward_pre_hook(lambda m, a: calls.append(type(m).__name__))
seq(torch.ones(1, 2)).shape
print(calls)
print(seq.get_parameter("0.weight").shape)
seq.get_parameter("0.nothing")
seq.get_parameter("1")
seq.get_buffer("0.weight")
seq.get_parameter("2.weight")
torch.set_grad_enabled(True)
""")
snip("backward_hooks", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
seen = []
def hook(module, grad_input, grad_output):
    seen.append((type(module).__name__, [None if g is None else [round(v, 5) for v in g.flatten().tolist()]
                                         for g in grad_input], [round(v, 5) for v in grad_output[0].flatten().tolist()]))
def pre_hook(module, grad_output):
    seen.append(("pre", [round(v, 5) for v in grad_output[0].flatten().tolist()]))
    return (grad_output[0] * 2,)
h = lin.register_full_backward_hook(hook)
p = lin.register_full_backward_pre_hook(pre_hook)
x = torch.randn(4, 3, requires_grad=True)
y = lin(x)
print(type(y.grad_fn).__name__, type(y.grad_fn).__module__)
y.sum().backward()
print(seen)
print(x.grad, lin.weight.grad)
seen.clear()
h.remove(); p.remove()
lin(x).sum().backward()
print(seen)
# a hook that replaces grad_input, on a module inside a Sequential
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
model[0].register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
x = torch.randn(2, 3, requires_grad=True)
model(x).sum().backward()
print(x.grad)
# no input requires grad: the hook fires on the outputs' gradients, with None inputs
lin2 = nn.Linear(2, 2)
lin2.register_full_backward_hook(lambda m, gi, go: seen.append((gi, go[0].shape)))
lin2(torch.ones(1, 2)).sum().backward()
print(seen)
lin2.register_full_backward_hook(lambda m, gi, go: (torch.ones(1, 2),))
lin2(torch.ones(1, 2)).sum().backward()
""")
snip("module_dict_parameter_list_unflatten", """
torch.manual_seed(0)
d = nn.ModuleDict({'a': nn.Linear(2,3), 'b': nn.ReLU()}); print(d); print(list(d.keys()), len(d), 'a' in d)
d['c'] = nn.Tanh(); print(d)
pl = nn.ParameterList([nn.Parameter(torch.ones(2,3)), nn.Parameter(torch.zeros(4))]); print(pl)
u = nn.Unflatten(1, (2, 5)); print(u, u(torch.ones(3,10)).shape)
print(nn.ModuleDict(), nn.ParameterList())
class M(nn.Module):
    def __init__(self):
        super().__init__(); self.ps = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])
print(M(), [n for n,_ in M().named_parameters()], list(M().state_dict()))
try: d['x'] = 3
except Exception as e: print(type(e).__name__, e)
try: nn.ModuleDict([1])
except Exception as e: print(type(e).__name__, e)
print(d.pop('b'), list(d.items())[0][0], [k for k in d])
p = nn.ParameterList([torch.ones(2)]); print(type(p[0]).__name__, len(p), p[0].requires_grad)
p.append(nn.Parameter(torch.zeros(1))); print(len(p), [t.shape for t in p])
m = nn.ModuleDict([('x', nn.Linear(1, 1))]); print(m, sum(1 for _ in m.parameters()))
try: nn.Unflatten(1, [2, 'a'])
except Exception as e: print(type(e).__name__, e)
""")
snip("parameter_dict", """
from collections import OrderedDict
torch.manual_seed(0)
pd = nn.ParameterDict({'b': nn.Parameter(torch.randn(2, 3)), 'a': torch.randn(2, dtype=torch.float64), 'c': 3})
print(pd)
print(list(pd.keys()), len(pd), 'a' in pd, 'z' in pd, type(pd['a']).__name__, pd['a'].requires_grad, pd['c'])
print([n for n, _ in pd.named_parameters()], list(pd.state_dict()))
pd['d'] = torch.ones(1); pd.update([('e', torch.zeros(2)), ('a', torch.ones(3))])
print(list(pd), [list(v.shape) for k, v in pd.items() if k != 'c'])
print(pd.pop('b').shape, pd.popitem()[0], pd.get('zz', 5), list(reversed(pd)))
print(pd.setdefault('f', torch.ones(2, 2)).shape, list(pd.copy().keys()))
q = nn.ParameterDict(OrderedDict([('y', torch.ones(1)), ('x', torch.ones(1))])) | nn.ParameterDict({'w': torch.ones(1)})
print(list(q), list(q.fromkeys(['k', 'j'])))
del pd['a']; print(list(pd.keys())); pd.clear(); print(len(pd), pd)
class M(nn.Module):
    def __init__(self):
        super().__init__(); self.ps = nn.ParameterDict({'w': nn.Parameter(torch.ones(2))})
print(M(), list(M().state_dict()))
pd[1] = torch.ones(1)
pd(torch.ones(1))
nn.ParameterDict(5)
nn.ParameterDict([1])
nn.ParameterDict([('a', torch.ones(1), 3)])
nn.ParameterDict().popitem()
nn.ParameterDict()['missing']
""")
snip("module_type", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 3)
lin.register_buffer("steps", torch.zeros(1, dtype=torch.int64))
print(lin.type(torch.float64) is lin, lin.weight.dtype, lin.steps.dtype)
print(lin.type('torch.IntTensor').weight.dtype, lin.bias.dtype, lin.steps.dtype)
lin.type('nope')
""")
snip("forward_output_has_grad_fn", """
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(4, 3)
y = lin(torch.randn(2, 4))
print(y)
print(y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)
print(lin(torch.randn(4)))
print(nn.Linear(4, 3, bias=False)(torch.randn(2, 4)))
print(nn.ReLU()(y))
""", marks=(CORE_LACKS_AUTOGRAD,))
snip("forward_linear_no_bias_and_double", """
import torch.nn as nn
torch.manual_seed(1)
lin = nn.Linear(5, 2, bias=False)
x = torch.randn(3, 5)
with torch.no_grad():
    print(lin(x))
    lin.double()
    print(lin(x.double()))
""")
snip("forward_sequential_relu", """
import torch.nn as nn
torch.manual_seed(2)
model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 2))
x = torch.randn(4, 3)
with torch.no_grad():
    print(model(x))
    print(model[:2](x))
    h = model[0](x)
    print(nn.ReLU()(h))
    print(nn.Identity()(x) is x)
""")
snip("forward_flatten", """
import torch.nn as nn
print(nn.Flatten()(torch.randn(2, 3, 4)).shape)
print(nn.Flatten(0, 1)(torch.randn(2, 3, 4)).shape)
print(nn.Flatten(-2)(torch.randn(2, 3, 4)).shape)
""", marks=(CORE_LACKS_FLATTEN,))
snip("forward_relu_inplace", """
import torch.nn as nn
x = torch.tensor([[-1.0, 2.0], [0.5, -3.0]])
y = nn.ReLU(inplace=True)(x)
print(y is x, x)
z = torch.tensor([-2.0, 0.0, 3.0])
print(nn.functional.relu(z), z)
print(nn.functional.relu(z, inplace=True) is z, z)
""")
snip("functional_linear", """
import torch.nn.functional as F
torch.manual_seed(3)
x = torch.randn(2, 3)
w = torch.randn(4, 3)
b = torch.randn(4)
print(F.linear(x, w, b))
print(F.linear(x, w))
print(F.linear(torch.randn(3), w, b))
""")
snip("forward_shape_errors", """
import torch.nn as nn
lin = nn.Linear(4, 3)
lin(torch.randn(2, 5))
lin(torch.randn(3, 2, 5))
nn.Linear(4, 3, bias=False)(torch.randn(2, 5))
nn.Module()(torch.randn(1))
""")
snip("forward_int_input_error", """
import torch.nn as nn
lin = nn.Linear(2, 2)
lin(torch.tensor([[1, 2]]))
""", marks=(CORE_LACKS_ADDMM,))

# ---------------------------------------------------------------------------------------------
# containers
# ---------------------------------------------------------------------------------------------
snip("sequential_indexing", """
import torch.nn as nn
from collections import OrderedDict
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(len(model), model[0], model[-1], model[1])
print(model[1:])
print(type(model[:1]).__name__, len(model[::2]), model[5:])
print([type(m).__name__ for m in model])
model[5]
model[-4]
model['a']
named = nn.Sequential(OrderedDict([('fc', nn.Linear(1, 1)), ('act', nn.ReLU())]))
print(named)
print(named.fc, named[1], list(named.state_dict().keys()))
print(named[0:1])
""")
snip("sequential_mutation", """
import torch.nn as nn
s = nn.Sequential(nn.Linear(1, 2))
print(s.append(nn.ReLU()) is s, len(s))
s.insert(0, nn.Identity())
s.extend([nn.Linear(2, 2), nn.ReLU()])
print(s)
del s[1]
print(s)
print(s.pop(0), len(s))
s[0] = nn.Linear(9, 9)
print(s[0])
del s[1:]
print(s)
s.insert(5, nn.ReLU())
print(s + nn.Sequential(nn.ReLU()))
s2 = nn.Sequential(nn.ReLU())
s2 += nn.Sequential(nn.Identity())
print(s2)
print(s2 * 2)
s + 3
""")
snip("modulelist_basics", """
import torch.nn as nn
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
print(len(ml), type(ml[0]).__name__, ml[-1].out_features)
ml.append(nn.ReLU())
print([n for n, _ in ml.named_parameters()])
print(type(ml[1:]).__name__, len(ml[1:]))
ml.extend(5)
ml[7]
""")

# ---------------------------------------------------------------------------------------------
# a small training-style model, as a learner writes it
# ---------------------------------------------------------------------------------------------
snip("custom_model_end_to_end", """
import torch.nn as nn
class MLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(n_hidden, n_out)
    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
torch.manual_seed(0)
model = MLP(4, 5, 2)
print(model)
print(sum(p.numel() for p in model.parameters()))
x = torch.randn(3, 4)
with torch.no_grad():
    print(model(x))
model.double()
print(model(x.double()).dtype)
print(model.fc1.weight.dtype)
""")


# ---------------------------------------------------------------------------------------------
# the parity test
# ---------------------------------------------------------------------------------------------
_ids = [name for name, _, _ in SNIPPETS]
assert len(_ids) == len(set(_ids)), "duplicate snippet ids"


@pytest.mark.parametrize(
    "code", [pytest.param(code, id=name, marks=marks) for name, code, marks in SNIPPETS])
def test_nn_parity(code):
    compare(code)


# ---------------------------------------------------------------------------------------------
# tests that need no torch
# ---------------------------------------------------------------------------------------------

# torch 2.13: manual_seed(0); nn.Linear(4, 3) -- every float as float32 (repr of the double).
TORCH_LINEAR_4_3_SEED0_WEIGHT = [
    [-0.003743410110473633, 0.26822179555892944, -0.4115225672721863, -0.3679695129394531],
    [-0.19257718324661255, 0.13407868146896362, -0.009906589984893799, 0.39644473791122437],
    [-0.04437202215194702, 0.1323062777519226, -0.15110653638839722, -0.09828269481658936],
]
TORCH_LINEAR_4_3_SEED0_BIAS = [-0.4776742458343506, -0.33114105463027954, -0.20611155033111572]
TORCH_LINEAR_4_3_SEED0_REPR = (
    "Parameter containing:\n"
    "tensor([[-0.0037,  0.2682, -0.4115, -0.3680],\n"
    "        [-0.1926,  0.1341, -0.0099,  0.3964],\n"
    "        [-0.0444,  0.1323, -0.1511, -0.0983]], requires_grad=True)"
)


def test_linear_seed0_matches_torch_constants():
    minitorch.manual_seed(0)
    lin = nn.Linear(4, 3)
    assert lin.weight.tolist() == TORCH_LINEAR_4_3_SEED0_WEIGHT
    assert lin.bias.tolist() == TORCH_LINEAR_4_3_SEED0_BIAS
    assert repr(lin.weight) == TORCH_LINEAR_4_3_SEED0_REPR
    assert str(lin.weight) == TORCH_LINEAR_4_3_SEED0_REPR


def test_parameter_is_tensor_subclass_sharing_storage():
    t = minitorch.tensor([1.0, 2.0, 3.0])
    p = nn.Parameter(t)
    assert isinstance(p, minitorch.Tensor) and type(p) is nn.Parameter
    assert p.requires_grad is True
    assert p.data_ptr() == t.data_ptr()
    assert nn.Parameter(t, requires_grad=False).requires_grad is False
    assert type(p.data) is minitorch.Tensor
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"
    # hashable by identity, like torch tensors: optimizers keep parameters in sets and dicts
    assert len({p, p, nn.Parameter(t)}) == 2


def test_module_conversions_keep_parameter_objects():
    lin = nn.Linear(5, 4)
    before = [id(p) for p in lin.parameters()]
    values = lin.weight.tolist()
    assert lin.cpu() is lin
    assert lin.to(minitorch.float64) is lin
    assert [id(p) for p in lin.parameters()] == before
    assert lin.weight.dtype == minitorch.float64 and type(lin.weight) is nn.Parameter
    assert lin.weight.requires_grad
    assert lin.float() is lin and lin.weight.dtype == minitorch.float32
    assert lin.weight.tolist() == values  # float32 -> float64 -> float32 is exact
    assert [id(p) for p in lin.parameters()] == before


def test_module_to_rejects_integer_dtypes_with_torchs_text():
    lin = nn.Linear(2, 2)
    with pytest.raises(TypeError) as info:
        lin.to(minitorch.int64)
    text = str(info.value).replace("minitorch", "torch")
    assert text == ("nn.Module.to only accepts floating point or complex dtypes, "
                    "but got desired dtype=torch.int64")
    assert lin.weight.dtype == minitorch.float32


def test_module_has_no_device_attribute():
    with pytest.raises(AttributeError) as info:
        nn.Linear(2, 2).device
    assert str(info.value) == "'Linear' object has no attribute 'device'"


def test_state_dict_shares_storage_and_load_copies():
    minitorch.manual_seed(0)
    a = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    b = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    sd = a.state_dict()
    assert list(sd) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert sd["0.weight"].data_ptr() == a[0].weight.data_ptr()
    assert type(sd["0.weight"]) is minitorch.Tensor
    w = b[0].weight
    result = b.load_state_dict(sd)
    assert repr(result) == "<All keys matched successfully>"
    assert b[0].weight is w and w.data_ptr() != a[0].weight.data_ptr()
    assert w.tolist() == a[0].weight.tolist()
    with pytest.raises(RuntimeError) as info:
        b.load_state_dict({"0.weight": minitorch.zeros(2, 3)})
    assert str(info.value) == (
        "Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "
        '"0.bias", "2.weight", "2.bias". ')


def test_deepcopy_and_pickle():
    minitorch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    clone = copy.deepcopy(model)
    assert clone[0].weight is not model[0].weight
    assert type(clone[0].weight) is nn.Parameter
    assert clone[0].weight.data_ptr() != model[0].weight.data_ptr()
    assert clone[0].weight.tolist() == model[0].weight.tolist()
    assert repr(clone) == repr(model)
    try:
        pickle.dumps(minitorch.zeros(1))
    except TypeError:
        pytest.skip("the C core cannot pickle tensors yet")
    restored = pickle.loads(pickle.dumps(model))
    assert type(restored[0].bias) is nn.Parameter
    assert restored[0].bias.tolist() == model[0].bias.tolist()


def test_uniform_fallback_matches_core_draws():
    # nn.init rebuilds uniform_ from rand when the core has no Tensor.uniform_; both routes must
    # consume the generator the same way: the value after init is torch's next rand.
    from minitorch.nn import init

    minitorch.manual_seed(11)
    x = minitorch.empty(7, 9)
    init._uniform_fill(x, -0.25, 0.75)
    after_fallback = minitorch.rand(3).tolist()
    minitorch.manual_seed(11)
    y = minitorch.empty(7, 9)
    init.uniform_(y, -0.25, 0.75)
    assert x.tolist() == y.tolist()
    assert minitorch.rand(3).tolist() == after_fallback
    values = [v for row in x.tolist() for v in row]
    assert all(-0.25 <= v < 0.75 for v in values)


def test_minitorch_exposes_nn_after_plain_import():
    # `import torch` alone makes torch.nn usable; tutorials write torch.nn.Linear(...).
    code = "import minitorch; print(minitorch.nn.Linear(2, 3))"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "Linear(in_features=2, out_features=3, bias=True)\n"


# ---------------------------------------------------------------------------------------------
# CUDA (a real or simulated device): MINITORCH_SIMULATE_GPU=1 pytest tests/test_nn.py
# ---------------------------------------------------------------------------------------------
needs_cuda = pytest.mark.skipif(
    not minitorch.cuda.is_available(),
    reason="no CUDA device (set MINITORCH_SIMULATE_GPU=1 to use the simulated GPU)")


@needs_cuda
def test_cuda_moves_in_place():
    minitorch.manual_seed(0)
    lin = nn.Linear(4, 3)
    cpu_values = (lin.weight.tolist(), lin.bias.tolist())
    ids = [id(p) for p in lin.parameters()]
    assert lin.cuda() is lin
    assert [id(p) for p in lin.parameters()] == ids
    assert lin.weight.device == minitorch.device("cuda:0")
    assert lin.bias.is_cuda and type(lin.weight) is nn.Parameter and lin.weight.requires_grad
    # torch wraps the suffixes here too (its _add_suffixes, linewidth 80)
    assert repr(lin.weight) == TORCH_LINEAR_4_3_SEED0_REPR.replace(
        "]], requires_grad=True)", "]], device='cuda:0',\n       requires_grad=True)")
    assert (lin.weight.tolist(), lin.bias.tolist()) == cpu_values
    assert lin.cpu() is lin
    assert lin.weight.device == minitorch.device("cpu")
    assert [id(p) for p in lin.parameters()] == ids
    assert (lin.weight.tolist(), lin.bias.tolist()) == cpu_values
    assert lin.to("cuda") is lin and lin.weight.is_cuda
    assert lin.to("cpu", minitorch.float64) is lin
    assert lin.weight.device == minitorch.device("cpu") and lin.weight.dtype == minitorch.float64
    assert lin.to(minitorch.device("cuda", 0), minitorch.float32) is lin
    assert lin.weight.is_cuda and lin.weight.dtype == minitorch.float32
    assert lin.cuda(0) is lin and lin.weight.device == minitorch.device("cuda:0")
    assert [id(p) for p in lin.parameters()] == ids


@needs_cuda
def test_cuda_buffers_and_state_dict():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)
            self.register_buffer("count", minitorch.tensor([1, 2]))

    m = M().cuda()
    assert m.count.is_cuda and m.count.dtype == minitorch.int64
    m.to(minitorch.float64)
    assert m.count.dtype == minitorch.int64 and m.lin.weight.dtype == minitorch.float64
    sd = m.state_dict()
    assert all(t.is_cuda for t in sd.values())
    cpu_model = M().double()
    cpu_model.load_state_dict(sd)  # copies across devices into the CPU parameters
    assert not cpu_model.lin.weight.is_cuda
    assert cpu_model.lin.weight.tolist() == m.lin.weight.tolist()


@needs_cuda
def test_cuda_forward_matches_cpu():
    minitorch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
    x = minitorch.randn(4, 5)
    expected = model(x).tolist()
    model.cuda()
    y = model(x.cuda())
    assert y.device == minitorch.device("cuda:0")
    assert tuple(y.shape) == (4, 3)
    for row_y, row_e in zip(y.tolist(), expected):
        for a, b in zip(row_y, row_e):
            assert abs(a - b) <= 1e-5 * max(1.0, abs(b))


@needs_cuda
def test_cuda_linear_rejects_cpu_input():
    lin = nn.Linear(4, 3).cuda()
    with pytest.raises(RuntimeError) as info:
        lin(minitorch.randn(2, 4))
    assert str(info.value).startswith("Expected all tensors to be on the same device")
    with pytest.raises(RuntimeError) as info:
        lin(minitorch.randn(4))
    assert str(info.value).startswith("Expected all tensors to be on the same device")


@needs_cuda
def test_linear_created_on_cuda():
    lin = nn.Linear(3, 2, device="cuda")
    assert lin.weight.device == minitorch.device("cuda:0") and lin.bias.is_cuda
    bound = 1 / 3 ** 0.5
    values = [v for row in lin.weight.tolist() for v in row] + lin.bias.tolist()
    assert all(-bound <= v < bound for v in values)
    assert len(set(values)) == len(values)


if __name__ == "__main__":  # pragma: no cover - manual helper
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    modules = []
    t = import_torch()
    if t is not None:
        modules.append(("torch", t))
    modules.append(("minitorch", import_minitorch()))
    for name, code, _ in SNIPPETS:
        if pattern not in name:
            continue
        print("=" * 30, name)
        print(code, end="")
        outs = []
        for mname, mod in modules:
            out = run_snippet(mod, code)
            outs.append(out.replace("minitorch", "torch"))
            print("-" * 10, mname)
            print(out, end="")
        if len(outs) == 2:
            print("-" * 10, "SAME" if outs[0] == outs[1] else "DIFFERENT")
