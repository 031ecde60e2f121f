"""Storage objects (minitorch/storage.py) against torch: Tensor.untyped_storage()/storage(), UntypedStorage,
TypedStorage and the legacy classes, Tensor.set_ and is_set_to, Tensor(storage), storages through
pickle, copy.deepcopy and save/load; and torch.frombuffer, a tensor over another object's memory."""

import copy
import io
import pickle
import warnings

import pytest

import minitorch
from parity import compare, compare_on, import_torch

GPU = pytest.mark.skipif(not minitorch.cuda.is_available(), reason="needs a CUDA device (or the simulated GPU)")


def test_untyped_storage_of_tensors_and_views():
    compare("""
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
s = x.untyped_storage()
print(s is x.untyped_storage(), s is x[1].untyped_storage(), s is x.t().untyped_storage())
print(s is torch.arange(6.).untyped_storage())
print(len(s), s.nbytes(), s.size(), s.element_size(), s.device, s.is_cuda, s.get_device(), s.type())
print(s.data_ptr() == x.data_ptr(), x[1].data_ptr() - s.data_ptr())
print(s)
print(s[4], s[-1], s.tolist()[:8], list(s)[4:8])
print(s[4:8], s[4:8].data_ptr() - s.data_ptr(), s[20:100].nbytes(), s[5:2].nbytes())
print(torch.tensor([True, False]).untyped_storage())
print(torch.empty(0).untyped_storage())
print(torch.tensor(3, dtype=torch.int16).untyped_storage().tolist())
print(torch.is_storage(s), torch.is_storage(x.storage()), torch.is_storage(x), torch.is_storage([1]))
""")


def test_untyped_storage_writes_and_errors():
    compare("""
x = torch.zeros(2)
s = x.untyped_storage()
s[7] = 64
print(x)
s[0:4] = 1
print(s.tolist())
s[0] = 300
s[1] = -1
print(s[0], s[1])
s.fill_(257)
print(s.tolist())
sl = s[4:8]
sl[3] = 0
print(x, s[7])
s[1.5]
s['a']
s[8]
s[-9]
s[::2]
s[0] = 1.5
s[0] = None
s.fill_(1.5)
s.copy_(torch.zeros(3).untyped_storage())
s.copy_(torch.ones(2).untyped_storage())
print(x)
s.copy_(torch.tensor([1., 2.]).storage())
print(x)
""")


def test_untyped_storage_constructors():
    compare("""
print(torch.UntypedStorage(4).nbytes(), torch.UntypedStorage().nbytes(), torch.UntypedStorage(2, device='cpu').device)
print(torch.UntypedStorage([1, 2, 255, 256, -1]))
print(torch.UntypedStorage(()))
torch.UntypedStorage([1.5])
torch.UntypedStorage([1, 'a'])
torch.UntypedStorage(2, 3)
torch.UntypedStorage(foo=2)
torch.UntypedStorage(-1)
torch.UntypedStorage(None)
print(torch.UntypedStorage(3, device='meta'))
print(torch.empty(2, 3, device='meta').untyped_storage())
""")


def test_untyped_storage_copies_conversions_and_resize():
    compare("""
x = torch.tensor([1., 2.])
s = x.untyped_storage()
c = s.clone()
print(c is s, c.data_ptr() != s.data_ptr(), c.tolist() == s.tolist())
c[0] = 9
print(x, s.cpu() is s, s.to(device='cpu') is s, copy.copy(s).data_ptr() != s.data_ptr())
f = s.float()
print(type(f).__name__, f.dtype, f.size(), f[7], s.double().dtype, s.byte().tolist() == s.tolist())
print(s.byte().data_ptr() != s.data_ptr(), s.bool().dtype, s.long().size(), s.half()[6], s.bfloat16().dtype)
print(s.int().dtype, s.short().dtype, s.char()[7], s.untyped() is s)
s.resize_(12)
print(s.nbytes(), x, s[:8].tolist() == [0, 0, 128, 63, 0, 0, 0, 64])
s.resize_(4)
print(s.nbytes(), x.untyped_storage().nbytes(), s.tolist())
s.resize_(0)
print(s)
print(s.is_shared(), s.is_pinned())
""".replace("copy.copy", "__import__('copy').copy"))


def test_typed_storage():
    compare("""
x = torch.arange(6, dtype=torch.float32)
t = x.storage()
print(type(t).__name__, t is x.storage(), t.untyped() is x.untyped_storage(), t._untyped_storage is x.untyped_storage())
print(t)
print(t[1], t[-1], len(t), t.size(), t.dtype, t.device, t.nbytes(), t.element_size(), t.data_ptr() == x.data_ptr())
print(t.tolist(), list(t), t.type(), t.pickle_storage_type(), t.is_cuda, t.get_device(), x.storage_type())
t[0] = 7
t[1:3] = 5
print(x)
t.fill_(2.5)
print(x)
t[6]
t[-7]
t[0:2]
t[1.0]
t['a'] = 1
t[0] = x.untyped_storage()
t.copy_(torch.ones(2, dtype=torch.int64).storage())
t.copy_(torch.ones(6, dtype=torch.int32).storage())
print(x)
d = t.double()
print(d.dtype, d.tolist(), t.int(), t.bool().dtype, t.float().data_ptr() != t.data_ptr())
print(t.clone().tolist(), t.clone().data_ptr() != t.data_ptr(), t.cpu().data_ptr() == t.data_ptr())
t.type('torch.DoubleStorage')
t.type(torch.IntStorage)
print(t.type('torch.ByteStorage').size(), t.type(torch.CharStorage)[4], t.untyped().type(torch.BoolStorage).dtype)
t.type('torch.NoStorage')
t.type(torch.float32)
print(torch.tensor([1, 2]).storage(), torch.tensor([True]).storage(), torch.empty(0).storage())
print(torch.tensor([1., 2.], dtype=torch.float16).storage(), torch.tensor([1.5], dtype=torch.bfloat16).storage())
print(torch.tensor(3.5).storage()[0], torch.tensor([1, 2]).storage().untyped().tolist())
print(x[2:].storage().size(), torch.empty(2, device='meta').storage())
torch.empty(2, device='meta').storage()[0]
t.resize_(2)
print(t, x.shape, x.untyped_storage().nbytes())
""")


def test_typed_storage_constructors_and_legacy_classes():
    compare("""
print(torch.TypedStorage([1, 2], dtype=torch.int16))
print(torch.TypedStorage([1, 2]).dtype, torch.TypedStorage().size(), torch.TypedStorage(3, dtype=torch.int16).size())
print(torch.TypedStorage(wrap_storage=torch.tensor([1., 2.]).untyped_storage(), dtype=torch.float32))
print(torch.TypedStorage(wrap_storage=torch.UntypedStorage([0, 0, 128, 63, 1]), dtype=torch.float32))
torch.TypedStorage(1, wrap_storage=torch.UntypedStorage(4), dtype=torch.float32)
torch.TypedStorage(wrap_storage=torch.UntypedStorage(4))
torch.TypedStorage(wrap_storage=torch.UntypedStorage(4), dtype='float')
torch.TypedStorage(wrap_storage=torch.UntypedStorage(4), dtype=torch.float32, device='cpu')
torch.TypedStorage(wrap_storage=torch.zeros(2), dtype=torch.float32)
torch.TypedStorage(1, 2)
torch.TypedStorage(1.5)
print(torch.FloatStorage([1, 2]), torch.ByteStorage([1, 2]), torch.BoolStorage([1, 0]), torch.HalfStorage([1, 0]))
print(torch.LongStorage(2).size(), torch.DoubleStorage().size(), torch.BFloat16Storage([1]).type())
print(torch.IntStorage([3]), torch.ShortStorage([4]), torch.CharStorage([-5]))
print(torch.FloatStorage(wrap_storage=torch.UntypedStorage([0, 0, 128, 63])))
torch.FloatStorage(1, 2)
torch.FloatStorage(1.5)
torch.FloatStorage(device='cpu')
torch.FloatStorage(dtype=torch.float32)
torch.FloatStorage(3, wrap_storage=torch.UntypedStorage(4))
torch.FloatStorage(wrap_storage=torch.zeros(1))
torch.storage._LegacyStorage(2)
print(isinstance(torch.FloatStorage(2), torch.FloatStorage), isinstance(torch.FloatStorage(2), torch.DoubleStorage))
print(isinstance(torch.FloatStorage(2), torch.TypedStorage), isinstance(torch.zeros(1).storage(), torch.FloatStorage))
print(torch.FloatStorage.dtype, torch.cuda.FloatStorage.dtype, torch.zeros(1, dtype=torch.int64).storage_type())
""")


def test_set_():
    compare("""
x = torch.arange(6.)
y = torch.zeros(2)
v = y._version
print(y.set_(x) is y, y, y.untyped_storage() is x.untyped_storage(), y._version - v, y.is_set_to(x))
print(torch.zeros(2).set_(x.untyped_storage()), torch.zeros(2).set_(x.storage()))
print(torch.zeros(2).set_(x.untyped_storage(), 1, (2, 2)), torch.zeros(2).set_(x.untyped_storage(), 1, [2], [2]))
print(torch.zeros(2).set_(source=x.untyped_storage(), storage_offset=2, size=(2,)))
print(torch.zeros(2).set_(x, 1, (2, 2), (1, 2)).stride(), torch.zeros(3, 2).t().set_(x, 0, (2, 3)).stride())
print(torch.zeros(2).set_(x.untyped_storage(), 4, (0,), (1,)), torch.zeros(2).set_(x.untyped_storage(), 1, [], []))
print(torch.zeros(2).set_(), torch.zeros(2).set_().untyped_storage().nbytes())
print(torch.zeros(2, dtype=torch.float64).set_(x.untyped_storage()))
print(torch.zeros(2, dtype=torch.int16).set_(torch.tensor([1, 2], dtype=torch.int16).untyped_storage()))
print(x.is_set_to(x), x[1:].is_set_to(x[1:]), x.is_set_to(x.view(2, 3)), x.is_set_to(x.clone()))
x.is_set_to(5)
torch.zeros(2).set_(5)
torch.zeros(2).set_(x, 0)
torch.zeros(2).set_(torch.zeros(2, dtype=torch.int64))
torch.zeros(2).set_(torch.zeros(2, dtype=torch.int64).storage())
torch.zeros(2, dtype=torch.int64).set_(x, 0, (2,), (1,))
torch.zeros(2).set_(x.untyped_storage(), -1, (2,), (1,))
torch.zeros(2).set_(x.untyped_storage(), 0, (-2,), (1,))
torch.zeros(2).set_(x.untyped_storage(), 0, (2,), (-1,))
torch.zeros(2).set_(x.untyped_storage(), 0, (2,), (1, 1))
torch.zeros(3).set_(torch.zeros(2).untyped_storage(), 0, (3,))
torch.zeros(3).set_(torch.zeros(2).untyped_storage(), 0, (3,), (1,))
torch.zeros(2, device='meta').set_(x.untyped_storage())
torch.zeros(2).set_(torch.ones(2, device='meta'))
print(torch.zeros(3, device='meta').set_(torch.zeros(2, device='meta').untyped_storage(), 0, (5,)).shape)
""")


def test_set_grows_the_storage_it_is_given():
    compare("""
u = torch.ones(2)
t = torch.zeros(2).set_(u.untyped_storage(), 1, (3,))
print(u.untyped_storage().nbytes(), t[0], t.shape, u)
s = torch.UntypedStorage(6)
print(torch.zeros(2).set_(s, 1, (3,)).shape, s.nbytes())
w = torch.zeros(4, dtype=torch.int16)
print(torch.zeros(2).set_(w.untyped_storage(), 1, (2,), (1,)))
""".replace("print(torch.zeros(2).set_(w.untyped_storage(), 1, (2,), (1,)))",
            "torch.zeros(2).set_(w.untyped_storage(), 1, (2,), (1,))"))


def test_set_and_autograd():
    compare("""
x = torch.arange(6., requires_grad=True)
torch.zeros(2, requires_grad=True).set_(x)
y = torch.zeros(2, requires_grad=True) * 1
y.set_(torch.ones(2))
print(y, y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(torch.zeros(6).set_(x).grad_fn.name(), torch.zeros(6).set_(x.untyped_storage()).requires_grad)
b = torch.zeros(6, requires_grad=True)
v = (b * 1)[:3]
v.set_(torch.ones(2))
print(v, v.grad_fn.name())
with torch.no_grad():
    print(torch.zeros(3, requires_grad=True).set_(torch.ones(2)))
""")


def test_legacy_constructors_of_storages():
    compare("""
x = torch.arange(4.)
print(torch.Tensor(x.storage()), torch.Tensor(x.untyped_storage()), torch.FloatTensor(x.storage()))
t = torch.Tensor(x.untyped_storage())
t[0] = 9
print(x, t.untyped_storage() is x.untyped_storage())
print(torch.ByteTensor(torch.UntypedStorage([1, 2, 3])), torch.DoubleTensor(torch.DoubleStorage([1, 2])))
torch.LongTensor(x.storage())
torch.Tensor(torch.zeros(2, dtype=torch.int64).storage())
print(x.new(x.storage()) if False else x.new(x.untyped_storage()))
""")


def test_storages_through_pickle_deepcopy_and_save():
    compare("""
import io, pickle, copy
x = torch.arange(6.)
t = pickle.loads(pickle.dumps(x[2:].storage()))
print(t, t.data_ptr() != x.data_ptr())
u = pickle.loads(pickle.dumps(x.untyped_storage()))
print(u.nbytes(), u.tolist()[4:8])
a, b = pickle.loads(pickle.dumps([x[:2], x[2:]]))
print(a.untyped_storage() is b.untyped_storage())
s = x.untyped_storage()
a, b, c = copy.deepcopy([x[:2], s, x[1:]])
print(b is a.untyped_storage(), c.untyped_storage() is b, b is not s, a, c)
buf = io.BytesIO()
y = torch.arange(2, dtype=torch.uint8)
torch.save([y.untyped_storage(), x.storage(), x[1:], y], buf)
buf.seek(0)
r = torch.load(buf)
print(r)
print(r[2].untyped_storage() is r[1]._untyped_storage, r[3].untyped_storage() is r[0]._untyped_storage)
buf = io.BytesIO()
torch.save([x, x.untyped_storage()], buf)
buf = io.BytesIO()
torch.save({'s': torch.tensor([1, 2]).storage()}, buf)
buf.seek(0)
print(torch.load(buf, weights_only=False), torch.load(io.BytesIO(buf.getvalue()), map_location=lambda s, loc: s))
""")


def test_files_with_storages_move_between_minitorch_and_torch():
    torch = import_torch()
    if torch is None:
        pytest.skip("real torch is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = minitorch.arange(6, dtype=minitorch.uint8)
        buf = io.BytesIO()
        minitorch.save([x.untyped_storage(), x[1:], minitorch.tensor([1, 2]).storage()], buf)
        theirs = torch.load(io.BytesIO(buf.getvalue()))
        assert type(theirs[0]) is torch.storage.TypedStorage and theirs[0].dtype == torch.uint8
        assert theirs[1].untyped_storage().data_ptr() == theirs[0].data_ptr()
        assert theirs[2].tolist() == [1, 2] and theirs[2].dtype == torch.int64
        tx = torch.arange(6, dtype=torch.uint8)
        buf = io.BytesIO()
        torch.save([tx.untyped_storage(), tx[1:], torch.tensor([1, 2]).storage()], buf)
        ours = minitorch.load(io.BytesIO(buf.getvalue()))
        assert type(ours[0]) is minitorch.TypedStorage and ours[0].dtype == minitorch.uint8
        assert ours[1].untyped_storage() is ours[0]._untyped_storage and ours[1].tolist() == [1, 2, 3, 4, 5]
        assert ours[2].tolist() == [1, 2] and ours[2].dtype == minitorch.int64


def test_typed_storage_warns_once_per_process():
    from minitorch import storage

    storage._warn_typed_storage_removal.has_warned = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minitorch.zeros(2).storage()
        minitorch.zeros(2).storage().tolist()
        minitorch.FloatStorage(2)
        minitorch.zeros(2).untyped_storage().tolist()
    assert [str(w.message)[:40] for w in caught] == ["TypedStorage is deprecated. It will be r"]
    assert caught[0].category is UserWarning and caught[0].filename == __file__


def test_a_slice_keeps_its_bytes_when_the_storage_is_resized():
    x = minitorch.arange(4, dtype=minitorch.uint8)
    s = x.untyped_storage()
    part = s[1:3]
    s.resize_(1000)
    s.resize_(0)
    del x, s
    assert part.tolist() == [1, 2]
    part[0] = 7
    assert part.tolist() == [7, 2]


def test_storage_objects_that_lie_are_refused():
    class Liar(minitorch.UntypedStorage):
        pass

    liar = Liar.__new__(Liar)
    liar._holder = "not a tensor"
    for call in (lambda: minitorch.zeros(2).set_(liar), lambda: minitorch.zeros(2).set_(liar, 0, (1,)),
                 lambda: minitorch.Tensor(liar), lambda: len(liar), lambda: liar[0]):
        with pytest.raises((TypeError, AttributeError)):
            call()
    typed = minitorch.TypedStorage.__new__(minitorch.TypedStorage)
    typed.dtype = minitorch.float32
    typed._untyped_storage = [1, 2]
    with pytest.raises(AttributeError):
        minitorch.zeros(2).set_(typed)
    typed._untyped_storage = minitorch.UntypedStorage(3)
    typed.dtype = "float32"
    with pytest.raises((TypeError, RuntimeError, KeyError)):
        typed[0]
    # a holder whose storage is smaller than its claimed geometry cannot be read past its end
    s = minitorch.UntypedStorage(4)
    s._holder = minitorch.zeros(1, dtype=minitorch.uint8)
    assert s.nbytes() == 1 and len(s.tolist()) == 1
    with pytest.raises(RuntimeError, match="out of bounds"):
        minitorch.zeros(1).set_(s, 0, (1,), (1,))


@GPU
def test_storages_on_the_gpu():
    compare_on("cuda", """
x = torch.arange(4., device=DEV)
s = x.untyped_storage()
on = DEV.split(':')[0]
print(s.device.type == on, s.is_cuda == (on == 'cuda'), s.nbytes(), s is x[1:].untyped_storage())
c = s.cpu()
print(c.device, c.tolist()[4:8], (c is s) == (on == 'cpu'))
g = c.to(device=DEV)
print(g.device.type == on, g.tolist() == c.tolist(), s.clone().device.type == on)
t = x.storage()
print(t.device.type == on, t.tolist(), t.cpu().device, t.type().replace('.cuda', ''), x.storage_type().__name__)
print(torch.zeros(2, device=DEV).set_(s, 1, (2,)).tolist(), s[4:12].tolist(), s[4:12].device.type == on)
""")


def test_set_across_devices_is_refused():
    if not minitorch.cuda.is_available():
        pytest.skip("needs a CUDA device (or the simulated GPU)")
    x = minitorch.zeros(2, device="cuda")
    with pytest.raises(RuntimeError, match='on device "cpu" to a storage on different device "cuda:0"'):
        minitorch.zeros(2).set_(x.untyped_storage())
    for legacy in (minitorch.FloatTensor, minitorch.Tensor):     # torch's set_ onto a CPU tensor refuses it
        with pytest.raises(RuntimeError, match='on device "cpu" to a storage on different device "cuda:0"'):
            legacy(x.untyped_storage())
    assert minitorch.cuda.FloatTensor(x.untyped_storage()).device.type == "cuda"
    assert minitorch.cuda.FloatStorage(3).device.type == "cuda"


def test_frombuffer():
    compare("""
import array
b = bytearray(b'\\x01\\x02\\x03\\x04')
t = torch.frombuffer(b, dtype=torch.int16)
print(t, torch.frombuffer(b, dtype=torch.int16, count=1, offset=2), torch.frombuffer(b, dtype=torch.uint8, offset=1))
b[0] = 9
t[1] = 7
print(t, b)
print(torch.frombuffer(b'\\x00\\x00\\x80\\x3f', dtype=torch.float32), torch.frombuffer(array.array('f', [1, 2]), dtype=torch.float32))
print(torch.frombuffer(b, dtype=torch.float16, requires_grad=True), torch.frombuffer(b'\\x01\\x00', dtype=torch.bool))
print(torch.frombuffer(memoryview(b)[1:3], dtype=torch.uint8), torch.frombuffer(b, dtype=torch.int16, count=-5))
torch.frombuffer(b, dtype=torch.int16, offset=1)
torch.frombuffer(b, dtype=torch.int16, count=3)
torch.frombuffer(b, dtype=torch.int16, count=2**62)
torch.frombuffer(b, dtype=torch.int16, count=0)
torch.frombuffer(b'', dtype=torch.int16)
torch.frombuffer(b, dtype=torch.int16, offset=-1)
torch.frombuffer(b, dtype=torch.int16, offset=4)
torch.frombuffer(b, torch.int16)
torch.frombuffer(b)
torch.frombuffer(b, dtype=torch.int16, requires_grad=True)
torch.frombuffer(b, dtype=torch.int16, count=1.5)
torch.frombuffer(b, dtype=torch.int16, device='cpu')
torch.frombuffer(None, dtype=torch.int16)
torch.frombuffer(torch.zeros(2), dtype=torch.uint8)
torch.frombuffer(memoryview(b)[::2], dtype=torch.uint8)
""")


def test_frombuffer_keeps_the_buffer_and_lets_it_go():
    data = bytearray(8)
    t = minitorch.frombuffer(data, dtype=minitorch.int32, offset=4)
    with pytest.raises(BufferError):
        data.extend(b"x")       # exported: the tensor holds the buffer
    t.fill_(5)
    assert data[4:] == bytearray(b"\x05\x00\x00\x00")
    del t
    data.extend(b"x")           # released with the tensor's storage
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minitorch.frombuffer(b"\x01\x02", dtype=minitorch.uint8)
    assert all("not writable" in str(w.message) for w in caught)
