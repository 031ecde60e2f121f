"""minitorch.save / minitorch.load (minitorch/serialization.py): PyTorch's file format both ways, and safe
on untrusted files.

What a user relies on: a file minitorch writes is the file torch 2.13 writes for the same objects (byte
for byte), so torch loads it; a file torch writes loads in minitorch; values (bit for bit), dtypes,
shapes, strides, storage offsets, storage sharing between views, devices (and map_location) and
Parameters' type and requires_grad survive; weights_only=True never runs code from the file and refuses
with torch's messages; a malformed or hostile file raises an exception, never crashes or reads out of
bounds. Tests that need torch skip without it; the CUDA ones run on one simulated GPU in a child process.
"""

import collections
import io
import os
import pickle
import struct
import textwrap
import zipfile

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import minitorch
from minitorch import serialization
from subproc import python_output, run_python

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")

DTYPES = ["float32", "float64", "int32", "int64", "bool"]


def saved(obj, mod=minitorch, **kwargs):
    buf = io.BytesIO()
    mod.save(obj, buf, **kwargs)
    return buf.getvalue()


def loaded(data, mod=minitorch, **kwargs):
    return mod.load(io.BytesIO(data), **kwargs)


def sample(mod, dtype):
    """Tensors of one dtype with random values and every kind of geometry, several on one storage."""
    mod.manual_seed(7)
    base = (mod.randn(4, 6) * 100).to(getattr(mod, dtype)) if dtype != "bool" else mod.randn(4, 6) > 0
    return {
        "base": base,
        "transposed": base.t(),
        "slice": base[1:, 2:5],
        "strided": base.reshape(-1)[3:20:4],
        "expanded": base[0].expand(3, 6),
        "scalar": base[2, 3],
        "empty": base[:, 6:],
        "alone": mod.ones(5, dtype=getattr(mod, dtype)),
    }


def describe(t):
    """Everything a round trip must keep, bit for bit (the values as raw bytes of the whole storage)."""
    values = t.contiguous().tolist()
    return (type(t).__name__, tuple(t.shape), tuple(t.stride()), t.storage_offset(), str(t.dtype).split(".")[-1],
            str(t.device), t.requires_grad, repr(values))


def layer_state_dicts(mod):
    """The state_dict of every nn layer minitorch has (as a model), built alike in torch and minitorch."""
    mod.manual_seed(3)
    nn = mod.nn
    return {
        "Linear": nn.Linear(5, 3).state_dict(),
        "Linear-nobias": nn.Linear(4, 2, bias=False).state_dict(),
        "Sequential": nn.Sequential(nn.Flatten(), nn.Linear(6, 4), nn.ReLU(), nn.Identity(), nn.Linear(4, 2)).state_dict(),
        "ModuleList": nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)]).state_dict(),
        "Conv1d": nn.Conv1d(2, 4, 3, groups=2).state_dict(),
        "Conv2d": nn.Conv2d(3, 2, (2, 3), bias=False).state_dict(),
        "BatchNorm1d": trained_batch_norm(mod, nn.BatchNorm1d(3), (4, 3)).state_dict(),
        "BatchNorm2d": trained_batch_norm(mod, nn.BatchNorm2d(2, momentum=None), (2, 2, 3, 3)).state_dict(),
        "BatchNorm-untracked": nn.BatchNorm1d(2, track_running_stats=False).state_dict(),
        "LayerNorm": nn.LayerNorm([2, 3]).state_dict(),
        "LayerNorm-nobias": nn.LayerNorm(4, bias=False).state_dict(),
        "Embedding": nn.Embedding(6, 3, padding_idx=1).state_dict(),
        "ModuleDict": nn.ModuleDict({"enc": nn.Linear(2, 3), "act": nn.Tanh()}).state_dict(),
        "ParameterList": nn.ParameterList([nn.Parameter(mod.randn(2)), mod.zeros(3)]).state_dict(),
        "Unflatten": nn.Sequential(nn.Linear(4, 6), nn.Unflatten(1, (2, 3))).state_dict(),
    }


def trained_batch_norm(mod, layer, shape):
    """A batch norm layer whose buffers hold what training leaves there: running statistics and an
    int64 num_batches_tracked that a fresh layer has not (set directly: the file format is under test
    here, not the arithmetic of the running statistics)."""
    with mod.no_grad():
        layer.running_mean.copy_(mod.randn(shape[1]))
        layer.running_var.copy_(mod.rand(shape[1]) + 0.5)
        layer.num_batches_tracked.add_(2)
    return layer


OPTIMIZERS = {
    "SGD": ("SGD", dict(lr=0.1)),
    "SGD-momentum": ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3)),
    "Adam": ("Adam", dict(lr=0.01)),
    "Adam-amsgrad": ("Adam", dict(lr=0.01, amsgrad=True, betas=(0.8, 0.99))),
    "AdamW": ("AdamW", dict(lr=0.01, weight_decay=0.1)),
    "RMSprop": ("RMSprop", dict(lr=0.01, alpha=0.9, centered=True)),
    "Adagrad": ("Adagrad", dict(lr=0.1, lr_decay=0.01)),
}


def trained(mod, name, steps=1):
    """(model, optimizer) after `steps` training steps of a small MLP, alike in torch and minitorch. (After
    one step the state is bit for bit torch's; later steps of the optimizers that take a square root
    differ in the last bits, as the README says.)"""
    mod.manual_seed(5)
    model = mod.nn.Sequential(mod.nn.Linear(3, 4), mod.nn.ReLU(), mod.nn.Linear(4, 1))
    cls, kwargs = OPTIMIZERS[name]
    opt = getattr(mod.optim, cls)(model.parameters(), **kwargs)
    x, y = mod.randn(8, 3), mod.randn(8, 1)
    for _ in range(steps):
        opt.zero_grad()
        mod.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    return model, opt


def optimizer_state_dicts(mod):
    """The state_dict of every optimizer minitorch has after a step (momentum buffers, step counts)."""
    return {name: trained(mod, name)[1].state_dict() for name in OPTIMIZERS}


# ---- minitorch -> minitorch ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_round_trip_keeps_values_geometry_and_sharing(dtype):
    src = sample(minitorch, dtype)
    out = loaded(saved(src))
    assert list(out) == list(src)
    for key in src:
        assert describe(out[key]) == describe(src[key]), key
    assert bytes(memoryview(out["base"])) == bytes(memoryview(src["base"]))
    keys = {k: out[k]._storage_key() for k in out}
    # the views of base share one new storage; "alone" has its own; nothing shares with the source
    assert len({keys[k] for k in ("base", "transposed", "slice", "strided", "expanded", "scalar", "empty")}) == 1
    assert keys["alone"] != keys["base"] and keys["base"] != src["base"]._storage_key()
    out["slice"][0, 0] = 1
    assert out["base"][1, 2].item() == 1


def test_parameters_nested_containers_and_python_values():
    p = minitorch.nn.Parameter(minitorch.randn(3))
    frozen = minitorch.nn.Parameter(minitorch.randn(2), requires_grad=False)
    obj = {"model": collections.OrderedDict(w=p, f=frozen), "list": [1, 2.5, "text", None, True, (p, 3)],
           "nested": {"deeper": [{"x": minitorch.tensor(1.5)}]}, "big": 2 ** 70, "neg": -3, "bytes": b"\x00\xff",
           "dtype": minitorch.float64, "device": minitorch.device("cpu"), "size": minitorch.Size([2, 3]),
           "set": {1, 2}, "complex": 1 + 2j, "grad": minitorch.ones(2, requires_grad=True)}
    out = loaded(saved(obj))
    assert type(out["model"]) is collections.OrderedDict and list(out["model"]) == ["w", "f"]
    assert type(out["model"]["w"]) is minitorch.nn.Parameter and out["model"]["w"].requires_grad
    assert type(out["model"]["f"]) is minitorch.nn.Parameter and not out["model"]["f"].requires_grad
    assert out["model"]["w"].tolist() == p.tolist()
    assert out["list"][5][0] is out["model"]["w"]  # one object stays one object
    assert out["list"][:5] == [1, 2.5, "text", None, True]
    assert out["nested"]["deeper"][0]["x"].item() == 1.5
    assert (out["big"], out["neg"], out["bytes"], out["set"], out["complex"]) == (2 ** 70, -3, b"\x00\xff", {1, 2}, 1 + 2j)
    assert out["dtype"] is minitorch.float64 and out["device"] == minitorch.device("cpu")
    assert type(out["size"]) is minitorch.Size and out["size"] == (2, 3)
    assert out["grad"].requires_grad and type(out["grad"]) is minitorch.Tensor


def test_paths_pathlib_and_file_objects(tmp_path):
    t = minitorch.arange(5)
    minitorch.save(t, str(tmp_path / "a.pt"))
    minitorch.save(t, tmp_path / "b.model.pt")
    with open(tmp_path / "c.pt", "wb") as f:
        minitorch.save(t, f)
    for name, archive in (("a.pt", "a"), ("b.model.pt", "b.model"), ("c.pt", "archive")):
        assert zipfile.ZipFile(tmp_path / name).namelist()[0] == archive + "/data.pkl"
        assert minitorch.load(tmp_path / name).tolist() == [0, 1, 2, 3, 4]
        with open(tmp_path / name, "rb") as f:
            assert minitorch.load(f).tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(AttributeError, match="expected 'f' to be string, path, or a file-like object with a 'write'"):
        minitorch.save(t, 3)


def test_records_are_aligned_and_the_layout_is_torchs():
    data = saved({"a": minitorch.ones(3), "b": minitorch.zeros(0), "c": minitorch.arange(7.0)[2:]})
    z = zipfile.ZipFile(io.BytesIO(data))
    assert z.namelist() == ["archive/data.pkl", "archive/.format_version", "archive/.storage_alignment",
                            "archive/byteorder", "archive/data/0", "archive/data/1", "archive/data/2",
                            "archive/version", "archive/.data/serialization_id"]
    for info in z.infolist():
        name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
        assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0, info.filename
        assert info.compress_type == zipfile.ZIP_STORED
    assert z.read("archive/version") == b"3\n" and z.read("archive/byteorder") == b"little"
    assert z.read("archive/data/2") == bytes(memoryview(minitorch.arange(7.0)))
    assert len(z.read("archive/.data/serialization_id")) == 40


# ---- against torch --------------------------------------------------------------------------------------

def build_objects(mod):
    objs = {dtype: sample(mod, dtype) for dtype in DTYPES}
    objs["layers"] = layer_state_dicts(mod)
    objs["optimizers"] = optimizer_state_dicts(mod)
    p = mod.nn.Parameter(mod.arange(4.0))
    objs["mixed"] = {"p": p, "again": p, "view": p.data[1:], "od": collections.OrderedDict(a=1),
                     "meta": [mod.float32, mod.device("cpu"), mod.Size([1, 2]), "s", 1.25, None]}
    return objs


@needs_torch
@pytest.mark.parametrize("key", DTYPES + ["layers", "optimizers", "mixed"])
def test_file_is_byte_identical_to_torchs(key):
    assert saved(build_objects(minitorch)[key]) == saved(build_objects(torch)[key], torch)


@needs_torch
def test_file_name_and_serialization_id_match_torch_for_many_records(tmp_path):
    # the id hashes record names in the order of torch's C++ hash set, which rehashes as it grows
    for count in (1, 13, 14, 40, 300):
        tensors_m = [minitorch.full((i % 3,), float(i)) for i in range(count)]
        tensors_t = [torch.full((i % 3,), float(i)) for i in range(count)]
        minitorch.save(tensors_m, tmp_path / "m.v1.pt")
        torch.save(tensors_t, tmp_path / "m.v1.torch")
        assert (tmp_path / "m.v1.pt").read_bytes() == (tmp_path / "m.v1.torch").read_bytes(), count


@needs_torch
@pytest.mark.parametrize("key", DTYPES + ["layers", "optimizers", "mixed"])
def test_torch_loads_minitorch_files_and_back(key):
    src_m, src_t = build_objects(minitorch)[key], build_objects(torch)[key]
    from_minitorch = loaded(saved(src_m), torch)
    from_torch = loaded(saved(src_t, torch))

    def flat(obj, prefix=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from flat(v, prefix + "." + str(k))
        else:
            yield prefix, obj

    t_items, m_items = dict(flat(from_minitorch)), dict(flat(from_torch))
    assert list(t_items) == list(m_items)
    for name in t_items:
        a, b = t_items[name], m_items[name]
        if isinstance(b, minitorch.Tensor):
            assert describe(a)[1:] == describe(b)[1:], name
            assert type(a).__name__ == type(b).__name__
            assert a.detach().numpy().tobytes() == b.detach().numpy().tobytes(), name
        else:
            assert repr(a).replace("torch", "minitorch") == repr(b)
    if key in DTYPES:
        # storage sharing, as torch has it, both ways
        assert from_minitorch["slice"].untyped_storage().data_ptr() == from_minitorch["base"].untyped_storage().data_ptr()
        assert from_torch["slice"]._storage_key() == from_torch["base"]._storage_key()
        assert from_torch["alone"]._storage_key() != from_torch["base"]._storage_key()


@needs_torch
def test_load_state_dict_from_torch_files():
    # a torch model's state_dict file loads into the same minitorch model, with torch's messages when not
    torch.manual_seed(0)
    tnet = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    mnet = minitorch.nn.Sequential(minitorch.nn.Linear(3, 4), minitorch.nn.ReLU(), minitorch.nn.Linear(4, 2))
    state = loaded(saved(tnet.state_dict(), torch))
    assert repr(mnet.load_state_dict(state)) == repr(tnet.load_state_dict(tnet.state_dict()))
    x = [[0.5, -1.0, 2.0]]
    assert mnet(minitorch.tensor(x)).tolist() == tnet(torch.tensor(x)).tolist()

    def outcome(net, sd, strict):
        try:
            return repr(net.load_state_dict(sd, strict=strict))
        except RuntimeError as e:
            return str(e).replace("minitorch.", "torch.")

    for change in ("drop", "extra", "shape"):
        sds = []
        for mod, net in ((torch, tnet), (minitorch, mnet)):
            sd = loaded(saved(tnet.state_dict(), torch), mod)
            if change == "drop":
                del sd["2.bias"]
            elif change == "extra":
                sd["3.weight"] = mod.zeros(1)
            else:
                sd["0.weight"] = mod.zeros(2, 3)
            sds.append((net, sd))
        for strict in (True, False):
            assert outcome(*sds[1], strict) == outcome(*sds[0], strict), (change, strict)


def resume(mod, name, checkpoint, steps=3):
    """The checkpoint recipe's second half: a fresh model and optimizer load a checkpoint's state_dicts
    and train on; returns the parameters."""
    cls, kwargs = OPTIMIZERS[name]
    model = mod.nn.Sequential(mod.nn.Linear(3, 4), mod.nn.ReLU(), mod.nn.Linear(4, 1))
    opt = getattr(mod.optim, cls)(model.parameters(), **kwargs)
    model.load_state_dict(checkpoint["model"])
    opt.load_state_dict(checkpoint["optimizer"])
    mod.manual_seed(11)
    x, y = mod.randn(8, 3), mod.randn(8, 1)
    for _ in range(steps):
        opt.zero_grad()
        mod.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    return [p.tolist() for p in model.parameters()]


def flat_values(nested):
    """The numbers of nested lists, in order."""
    return [v for item in nested for v in flat_values(item)] if isinstance(nested, list) else [nested]


@needs_torch
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_training_resumes_from_a_checkpoint_of_the_other_library(name):
    # {'model', 'optimizer', 'epoch'} saved by one library, loaded by the other, training goes on as if
    # it had never stopped: SGD's parameters bit for bit, the others' to torch's CPU sqrt (README)
    ckpt = {}
    for mod in (torch, minitorch):
        model, opt = trained(mod, name)
        ckpt[mod] = saved({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 1}, mod)
    expected = resume(torch, name, loaded(ckpt[torch], torch))
    for got in (resume(minitorch, name, loaded(ckpt[torch])), resume(torch, name, loaded(ckpt[minitorch], torch))):
        if name.startswith("SGD"):
            assert got == expected
        else:
            assert flat_values(got) == pytest.approx(flat_values(expected), rel=1e-5, abs=1e-6)
    assert loaded(ckpt[torch])["epoch"] == 1


@pytest.mark.parametrize("mmap", [False, True])
def test_zip64_records_and_offsets(monkeypatch, tmp_path, mmap):
    # Records and offsets past 4 GiB go in zip64 fields. The threshold is lowered here so that a small
    # file has both (a real one needs 4 GiB of memory and disk); zipfile, minitorch and torch read it.
    monkeypatch.setattr(serialization, "_ZIP64_AT", 1000)
    objs = {"big": minitorch.arange(3000.0), "small": minitorch.ones(3), "after": minitorch.arange(700, dtype=minitorch.int32)}
    minitorch.save(objs, tmp_path / "z.pt")
    z = zipfile.ZipFile(tmp_path / "z.pt")
    assert z.testzip() is None and z.getinfo("z/data/0").file_size == 12000
    assert z.getinfo("z/data/2").header_offset > 1000
    libraries = [minitorch] + ([torch] if torch is not None else [])
    for mod in libraries:
        out = mod.load(tmp_path / "z.pt", mmap=mmap)
        assert {k: v.tolist() for k, v in out.items()} == {k: v.tolist() for k, v in objs.items()}


@needs_torch
def test_legacy_files_torch_writes_load():
    src = build_objects(torch)["mixed"]
    src["ints"] = torch.arange(6, dtype=torch.int32).reshape(2, 3).t()
    data = saved(src, torch, _use_new_zipfile_serialization=False)
    for weights_only in (True, False):
        out = loaded(data, weights_only=weights_only)
        assert out["p"].tolist() == [0.0, 1.0, 2.0, 3.0] and type(out["p"]) is minitorch.nn.Parameter
        assert out["again"] is out["p"] and out["view"]._storage_key() == out["p"]._storage_key()
        assert describe(out["ints"])[1:] == describe(minitorch.arange(6, dtype=minitorch.int32).reshape(2, 3).t())[1:]
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file"):
        loaded(pickle.dumps(123, protocol=2) + data[len(pickle.dumps(123, protocol=2)):])
    with pytest.raises(NotImplementedError):
        minitorch.save(1, io.BytesIO(), _use_new_zipfile_serialization=False)


# ---- devices and map_location ---------------------------------------------------------------------------

def test_map_location_forms(tmp_path):
    t = minitorch.arange(4.0)
    data = saved({"t": t, "v": t[1:]})
    calls = []

    def fn(storage, location):
        calls.append((location, str(storage.device), storage.nbytes()))
        return storage

    for map_location in (None, "cpu", minitorch.device("cpu"), {"cpu": "cpu"}, fn, lambda s, loc: None):
        out = loaded(data, map_location=map_location)
        assert out["t"].tolist() == [0.0, 1.0, 2.0, 3.0] and out["v"]._storage_key() == out["t"]._storage_key()
    assert calls == [("cpu", "cpu", 16)]
    with pytest.raises(RuntimeError, match=r"don't know how to restore data location of .* \(tagged with mps\)"):
        loaded(data, map_location="mps")
    with pytest.raises(TypeError, match="map_location must return a storage"):
        loaded(data, map_location=lambda s, loc: 3)


CUDA_SCRIPT = textwrap.dedent("""
    import io, sys
    import minitorch
    a = minitorch.arange(6.0).reshape(2, 3).cuda()
    p = minitorch.nn.Parameter(minitorch.ones(2, device="cuda"))
    buf = io.BytesIO()
    minitorch.save({"a": a, "t": a.t(), "p": p, "c": minitorch.ones(1)}, buf)
    open(sys.argv[1], "wb").write(buf.getvalue())
    data = buf.getvalue()
    out = minitorch.load(io.BytesIO(data))
    print(out["a"].device, out["t"].device, out["p"].device, out["c"].device, type(out["p"]).__name__,
          out["p"].requires_grad, out["t"].stride(), out["t"]._storage_key() == out["a"]._storage_key())
    print(out["t"].cpu().tolist())
    out = minitorch.load(io.BytesIO(data), map_location="cpu")
    print(out["a"].device, out["p"].device, out["t"]._storage_key() == out["a"]._storage_key())
    out = minitorch.load(io.BytesIO(data), map_location={"cpu": "cuda:0"})
    print(out["c"].device, out["a"].device)
    out = minitorch.load(io.BytesIO(data), map_location=lambda s, loc: s.cuda(0) if loc == "cpu" else s.cpu())
    print(out["c"].device, out["a"].device)
    out = minitorch.load(io.BytesIO(data), mmap=False, map_location=minitorch.device("cuda"))
    print(out["c"].device)
    try:
        minitorch.load(io.BytesIO(data), map_location="cuda:1")
    except RuntimeError as e:
        print(e)
""")


def test_cuda_tensors_save_with_their_device_and_load_back(tmp_path):
    path = str(tmp_path / "cuda.pt")
    out = python_output(["-c", CUDA_SCRIPT, path], simulate_gpu=1).splitlines()
    assert out[:6] == [
        "cuda:0 cuda:0 cuda:0 cpu Parameter True (1, 3) True",
        "[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]",
        "cpu cpu True",
        "cuda:0 cuda:0",
        "cuda:0 cpu",
        "cuda:0",
    ]
    assert out[6] == ("Attempting to deserialize object on CUDA device 1 but minitorch.cuda.device_count() is 1. "
                      "Please use minitorch.load with map_location to map your storages to an existing device.")
    z = zipfile.ZipFile(path)
    assert b"cuda:0" in z.read("archive/data.pkl")
    # without a CUDA device: torch's error, and map_location="cpu" fixes it
    code = textwrap.dedent("""
        import sys, minitorch
        try:
            minitorch.load(sys.argv[1])
        except RuntimeError as e:
            print(e)
        print(minitorch.load(sys.argv[1], map_location="cpu")["t"].tolist())
    """)
    out = python_output(["-c", code, path]).splitlines()
    assert out[0] == ("Attempting to deserialize object on a CUDA device but minitorch.cuda.is_available() is False. "
                      "If you are running on a CPU-only machine, please use minitorch.load with "
                      "map_location=minitorch.device('cpu') to map your storages to the CPU.")
    assert out[1] == "[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]"
    if torch is not None and not torch.cuda.is_available():
        with pytest.raises(RuntimeError) as e:
            torch.load(path)
        assert str(e.value).replace("torch.", "minitorch.") == out[0]
        assert torch.load(path, map_location="cpu")["t"].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


# ---- mmap -----------------------------------------------------------------------------------------------

def test_mmap_maps_records_copy_on_write(tmp_path):
    pytest.importorskip("numpy")
    path = tmp_path / "m.pt"
    src = {"a": minitorch.arange(10.0), "v": minitorch.arange(10.0)[3:7], "i": minitorch.arange(3)}
    src["v2"] = src["a"][2:]
    minitorch.save(src, path)
    before = path.read_bytes()
    out = minitorch.load(path, mmap=True)
    assert out["a"].tolist() == list(map(float, range(10))) and out["v2"]._storage_key() == out["a"]._storage_key()
    out["a"][0] = 99.0  # a private mapping: the tensor changes, the file does not
    assert out["v2"].tolist()[0] == 2.0 and out["a"][0].item() == 99.0
    assert path.read_bytes() == before
    assert minitorch.load(str(path), mmap=True, map_location="cpu")["i"].tolist() == [0, 1, 2]
    with open(path, "rb") as f, pytest.raises(ValueError, match="f must be a file path in order to use the mmap"):
        minitorch.load(f, mmap=True)


@needs_torch
def test_mmap_of_legacy_files_raises_torchs_error(tmp_path):
    path = str(tmp_path / "legacy.pt")
    torch.save(torch.ones(2), path, _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError) as e:
        torch.load(path, mmap=True)
    with pytest.raises(RuntimeError) as m:
        minitorch.load(path, mmap=True)
    assert str(m.value) == str(e.value).replace("torch.", "minitorch.")


# ---- weights_only ---------------------------------------------------------------------------------------

class Harmless:
    """A class that is not on the allow-list (loading it must be refused unless allowed)."""

    def __init__(self, x=1):
        self.x = x

    def __eq__(self, other):
        return type(other) is Harmless and other.x == self.x


class Evil:
    def __reduce__(self):
        return (os.system, ("echo minitorch-was-exploited",))


def torch_message(data, **kwargs):
    try:
        loaded(data, torch, **kwargs)
    except Exception as e:
        return type(e), str(e)
    raise AssertionError("torch loaded it")


def minitorch_message(data, **kwargs):
    try:
        loaded(data, **kwargs)
    except Exception as e:
        return type(e), str(e)
    raise AssertionError("minitorch loaded it")


def as_torch(message):
    # minitorch names itself where torch names torch (the documentation URL stays torch's)
    return message.replace("minitorch.", "torch.")


@pytest.mark.filterwarnings("ignore:Detected pickle protocol 4")
@pytest.mark.parametrize("payload", ["os.system", "print", "Harmless", "eval-reduce", "protocol-4"])
def test_weights_only_refuses_globals_with_torchs_message(payload, capfd):
    if payload == "os.system":
        obj = {"x": Evil()}
    elif payload == "print":
        obj = [print]
    elif payload == "Harmless":
        obj = {"h": Harmless(), "t": minitorch.ones(1)}
    elif payload == "eval-reduce":
        obj = None
    else:
        obj = {"a": 1}
    if payload == "eval-reduce":
        data = archive({"data.pkl": b"\x80\x02c__builtin__\neval\nX\x04\x00\x00\x001+1\x85R."})
    elif payload == "protocol-4":
        data = saved(obj, pickle_protocol=4)
    else:
        data = saved(obj)
    kind, message = minitorch_message(data)
    assert kind is pickle.UnpicklingError
    if torch is not None:
        assert (kind, as_torch(message)) == torch_message(data)
    assert "minitorch-was-exploited" not in capfd.readouterr().out


def test_weights_only_false_loads_any_class_and_safe_globals_allow_one():
    data = saved({"h": Harmless(5), "t": minitorch.ones(2)})
    out = loaded(data, weights_only=False)
    assert out["h"] == Harmless(5) and out["t"].tolist() == [1.0, 1.0]
    assert minitorch.serialization.get_safe_globals() == []
    with minitorch.serialization.safe_globals([Harmless]):
        assert minitorch.serialization.get_safe_globals() == [Harmless]
        assert loaded(data)["h"] == Harmless(5)
    assert minitorch.serialization.get_safe_globals() == []
    minitorch.serialization.add_safe_globals([(Harmless, Harmless.__module__ + ".Harmless")])
    try:
        assert loaded(data)["h"] == Harmless(5)
    finally:
        minitorch.serialization.clear_safe_globals()
    with pytest.raises(pickle.UnpicklingError):
        loaded(data)
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        loaded(data, pickle_module=pickle, weights_only=True)
    assert loaded(data, pickle_module=pickle)["h"] == Harmless(5)
    with pytest.warns(UserWarning, match="pickle_load_args only works if `weights_only=False`"):
        assert loaded(saved([1, "a"]), encoding="latin1") == [1, "a"]


def test_import_minitorch_serialization_as_torch_serialization():
    import importlib

    module = importlib.import_module("minitorch.serialization")
    assert module is minitorch.serialization
    assert minitorch.save is module.save and minitorch.load is module.load
    for name in ("add_safe_globals", "safe_globals", "get_safe_globals", "clear_safe_globals"):
        assert callable(getattr(module, name))


# ---- hostile and malformed files ------------------------------------------------------------------------

def archive(records, name="archive"):
    """An archive with the given records (a dict or pairs of name and bytes), written by minitorch's own zip
    writer, which writes what it is given (two records of one name too)."""
    buf = io.BytesIO()
    writer = serialization._ZipWriter(buf, name)
    for key, value in (records.items() if isinstance(records, dict) else records):
        writer.write_record(key, value)
    writer.finish()
    return buf.getvalue()


def _str(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def _int(i):
    if -2 ** 31 <= i < 2 ** 31:
        return b"J" + struct.pack("<i", i)
    raw = pickle.encode_long(i)
    return b"\x8a" + bytes([len(raw)]) + raw


def _tuple(items):
    return b"(" + b"".join(items) + b"t"


def tensor_pickle(numel, offset, size, stride, storage="FloatStorage", key="0", location="cpu"):
    pid = _tuple([_str("storage"), b"ctorch\n" + storage.encode() + b"\n", _str(key), _str(location), _int(numel)])
    return (b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n"
            + _tuple([pid + b"Q", _int(offset), _tuple([_int(s) for s in size]), _tuple([_int(s) for s in stride]),
                      b"\x89", b"ccollections\nOrderedDict\n)R"]) + b"R.")


def tensor_file(numel=6, offset=0, size=(2, 3), stride=(3, 1), record=None, **kwargs):
    record = bytes(range(24)) if record is None else record
    return archive({"data.pkl": tensor_pickle(numel, offset, size, stride, **kwargs), "data/0": record})


def test_hand_built_file_loads():
    # the corpus below changes one thing at a time in this file, which loads
    t = loaded(tensor_file())
    assert tuple(t.shape) == (2, 3) and bytes(memoryview(t)) == bytes(range(24))


HOSTILE = {
    "empty file": b"",
    "not an archive": b"hello world" * 10,
    "only a local header": b"PK\x03\x04" + b"\x00" * 26,
    "record larger than the pickle says": tensor_file(numel=7),
    "record smaller than the pickle says": tensor_file(numel=5),
    "storage shorter than the tensor": tensor_file(size=(3, 3)),
    "offset past the storage": tensor_file(offset=5),
    "negative size": tensor_file(size=(-2, 3)),
    "negative stride": tensor_file(stride=(-3, 1)),
    "negative offset": tensor_file(offset=-1),
    "negative numel": tensor_file(numel=-6),
    "overflowing size": tensor_file(size=(2 ** 62, 2 ** 62), stride=(1, 1)),
    "overflowing stride": tensor_file(size=(2, 3), stride=(2 ** 62, 1)),
    "overflowing offset": tensor_file(offset=2 ** 63 - 1),
    "size beyond int64": tensor_file(size=(2 ** 64, 1)),
    "huge numel without data": tensor_file(numel=2 ** 40),
    "strides and sizes of different lengths": tensor_file(stride=(3,)),
    "dtype minitorch lacks": tensor_file(numel=12, storage="ComplexFloatStorage"),
    "not a storage type": tensor_file(storage="device"),
    "missing record": archive({"data.pkl": tensor_pickle(6, 0, (2, 3), (3, 1))}),
    "no data.pkl": archive({"data/0": b"1234"}),
    "unknown persistent id": archive({"data.pkl": b"\x80\x02" + _tuple([_str("module"), _int(1)]) + b"Q."}),
    "int persistent id": archive({"data.pkl": b"\x80\x02J\x01\x00\x00\x00Q."}),
    "os.system": archive({"data.pkl": b"\x80\x02cos\nsystem\nX\x04\x00\x00\x00echo\x85R."}),
    "subprocess": archive({"data.pkl": b"\x80\x02csubprocess\ncheck_output\n]X\x02\x00\x00\x00ls\x85R."}),
    "getattr chain": archive({"data.pkl": b"\x80\x02cbuiltins\ngetattr\n."}),
    "INST opcode": archive({"data.pkl": b"(S'ls'\nios\nsystem\n."}),
    "STACK_GLOBAL": archive({"data.pkl": b"\x80\x04\x8c\x02os\x8c\x06system\x93."}),
    "reduce on a non-callable": archive({"data.pkl": b"\x80\x02J\x01\x00\x00\x00)R."}),
    "newobj of a function": archive({"data.pkl": b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n)\x81."}),
    "build on a list": archive({"data.pkl": b"\x80\x02]}b."}),
    "setitem on a list": archive({"data.pkl": b"\x80\x02]JAAAAJBBBBs."}),
    "append to a dict": archive({"data.pkl": b"\x80\x02}J\x01\x00\x00\x00a."}),
    "stack underflow": archive({"data.pkl": b"\x80\x02t."}),
    "empty stack at stop": archive({"data.pkl": b"\x80\x02."}),
    "memo miss": archive({"data.pkl": b"\x80\x02h\x05."}),
    "truncated pickle": archive({"data.pkl": b"\x80\x02X\xff\xff\x00\x00abc"}),
    "pickle without stop": archive({"data.pkl": b"\x80\x02N"}),
    "rebuild with a fake storage": archive({"data.pkl": b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n"
                                                        + _tuple([b"}", _int(0), _tuple([]), _tuple([]), b"\x89"])
                                                        + b"R."}),
    "two storages of one key": archive({"data.pkl": b"\x80\x02" + b"(" + tensor_pickle(6, 0, (6,), (1,))[2:-1]
                                        + tensor_pickle(3, 0, (3,), (1,), storage="DoubleStorage")[2:-1] + b"l.",
                                        "data/0": bytes(24)}),
}


def _duplicate_names():
    return archive([("data.pkl", tensor_pickle(6, 0, (2, 3), (3, 1))), ("data/0", bytes(24)), ("data/0", bytes(range(24)))])


def _storage_past_end():
    # the central directory says the record is longer than what follows it in the file (a zip bomb's
    # claim): the pickle asks for 6000 floats, the directory claims 24000 bytes, the file has 24
    data = bytearray(tensor_file(numel=6000, record=bytes(24)))
    entry = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 1)  # data/0 is the second record
    assert data[entry + 46:entry + 60] == b"archive/data/0"
    data[entry + 20:entry + 28] = struct.pack("<II", 24000, 24000)
    return bytes(data)


HOSTILE.update({"duplicate record names": _duplicate_names(), "storage past the end of the file": _storage_past_end()})


@pytest.mark.filterwarnings("ignore:Detected pickle protocol 4")
@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("weights_only", [True, False])
def test_hostile_files_raise(name, weights_only, capfd):
    if not weights_only and name in ("os.system", "subprocess", "INST opcode", "STACK_GLOBAL", "getattr chain"):
        pytest.skip("weights_only=False runs what the file says, by definition")
    with pytest.raises(Exception) as e:
        loaded(HOSTILE[name], weights_only=weights_only)
    assert not isinstance(e.value, (SystemExit, KeyboardInterrupt, MemoryError))
    assert "minitorch-was-exploited" not in capfd.readouterr().out


def test_geometry_errors_say_what_is_wrong():
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 24"):
        loaded(tensor_file(size=(3, 3)))
    with pytest.raises(RuntimeError, match="negative dimension"):
        loaded(tensor_file(size=(-2, 3)))
    with pytest.raises(RuntimeError, match="holds 24 bytes where 28 were expected"):
        loaded(tensor_file(numel=7))
    with pytest.raises(RuntimeError, match="run past the end of the file"):
        loaded(HOSTILE["storage past the end of the file"])
    with pytest.raises(RuntimeError, match="duplicate record name"):
        loaded(HOSTILE["duplicate record names"])
    with pytest.raises(NotImplementedError, match="torch.ComplexFloatStorage"):
        loaded(tensor_file(numel=12, storage="ComplexFloatStorage"))


def test_unknown_file_versions_are_refused(monkeypatch):
    monkeypatch.setattr(serialization, "_FILE_FORMAT_VERSION", b"11\n")
    data = saved(minitorch.ones(1))
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="failed reading file version"):
        loaded(data)


def test_truncated_archives_raise_at_every_cut():
    data = saved({"a": minitorch.arange(40.0), "b": minitorch.ones(3, dtype=minitorch.int64)})
    for cut in range(0, len(data), 7):
        with pytest.raises(Exception):
            loaded(data[:cut])


REAL_FILE = saved({"w": minitorch.arange(12.0).reshape(3, 4), "v": minitorch.arange(12.0).reshape(3, 4).t(),
                   "p": minitorch.nn.Parameter(minitorch.ones(2)), "n": [1, "x", (2.5,)]})


ALLOWED = list(serialization._torch_globals().values())


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")  # a changed byte may be the protocol's
@example(edits=[(258, 46)], cut=None)  # leaves the storage type global itself as the result
@example(edits=[(261, 46)], cut=None)  # stops right after a storage: a bare storage (a TypedStorage, as torch's)
# derandomized (the same 300 files every run, as tests/test_fuzz.py does): a suite that passes passes again;
# MINITORCH_FUZZ_RANDOM=1 draws new files, to hunt for more cases by hand
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=not os.environ.get("MINITORCH_FUZZ_RANDOM"), database=None)
@given(edits=st.lists(st.tuples(st.integers(0, len(REAL_FILE) - 1), st.integers(0, 255)), min_size=1, max_size=8),
       cut=st.none() | st.integers(0, len(REAL_FILE)))
def test_fuzz_mutated_files_load_or_raise(edits, cut):
    data = bytearray(REAL_FILE)
    for at, value in edits:
        data[at] = value
    if cut is not None:
        del data[cut:]
    try:
        out = loaded(bytes(data))
    except Exception:
        return
    # what loads is made of what the allow-list builds
    stack = [out]
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            stack.extend(obj)
        elif isinstance(obj, minitorch.Tensor):
            obj.tolist()  # every element is readable (within its storage)
        elif isinstance(obj, minitorch.TypedStorage):
            obj._untyped_storage.tolist()  # a storage on its own: every byte is readable
        else:
            # a plain value, one of the allowed globals itself (a changed byte can leave `torch.FloatStorage`
            # on the stack unused, as torch's unpickler would), or an instance of an allowed class
            assert (isinstance(obj, (int, float, str, bytes, complex, type(None)))
                    or any(obj is g or (isinstance(g, type) and isinstance(obj, g)) for g in ALLOWED)), type(obj)


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocols(protocol):
    out = loaded(saved({"t": minitorch.arange(3)}, pickle_protocol=protocol), weights_only=False)
    assert out["t"].tolist() == [0, 1, 2]


def test_hostile_file_does_not_crash_a_child_process():
    # a crash (not an exception) would take pytest down; run the whole corpus in a child to see one
    code = textwrap.dedent("""
        import io, sys, pickle
        import minitorch
        data = pickle.load(sys.stdin.buffer)
        raised = 0
        for name, blob in sorted(data.items()):
            try:
                minitorch.load(io.BytesIO(blob))
            except Exception:
                raised += 1
        print(raised, len(data))
    """)
    import subprocess
    import sys
    from subproc import child_env

    proc = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(HOSTILE), capture_output=True,
                          env=child_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    raised, total = map(int, proc.stdout.split())
    assert raised == total


# ---- whole models (weights_only=False, as PyTorch's "save and load the model" tutorial does) -------------

def make_net(mod):
    class Net(mod.nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = mod.nn.Flatten()
            self.stack = mod.nn.Sequential(mod.nn.Linear(4, 3), mod.nn.ReLU(), mod.nn.Linear(3, 2))

        def forward(self, x):
            return self.stack(self.flatten(x))
    return Net


@pytest.fixture
def learner_module(monkeypatch):
    """A module standing for the learner's script, where the model class lives."""
    import sys
    import types

    module = types.ModuleType("learner_script")
    monkeypatch.setitem(sys.modules, "learner_script", module)
    return module


def put_class(module, cls):
    cls.__module__ = module.__name__
    cls.__qualname__ = cls.__name__ = "Net"
    module.Net = cls


def test_whole_models_round_trip(learner_module):
    put_class(learner_module, make_net(minitorch))
    minitorch.manual_seed(0)
    net = learner_module.Net()
    data = saved(net)
    out = loaded(data, weights_only=False)
    assert type(out) is learner_module.Net and repr(out) == repr(net)
    x = minitorch.randn(2, 2, 2)
    assert out(x).tolist() == net(x).tolist()
    kind, message = minitorch_message(data)
    assert kind is pickle.UnpicklingError and "GLOBAL learner_script.Net was not an allowed global" in message


@needs_torch
def test_whole_models_torch_saved_load(learner_module):
    put_class(learner_module, make_net(torch))
    torch.manual_seed(0)
    tnet = learner_module.Net()
    data = saved(tnet, torch)
    kind, message = minitorch_message(data)
    assert (kind, as_torch(message)) == torch_message(data)
    put_class(learner_module, make_net(minitorch))  # the script, run with import minitorch as torch
    out = loaded(data, weights_only=False)
    assert type(out) is learner_module.Net and type(out.stack[0]) is minitorch.nn.Linear
    x = [[[0.5, -1.0], [2.0, 0.25]]]
    assert out(minitorch.tensor(x)).tolist() == tnet(torch.tensor(x)).tolist()


def test_import_minitorch_leaves_serialization_for_its_first_use():
    # zipfile and pickle would double the time `import minitorch` takes
    out = python_output(["-c", "import sys, minitorch\n"
                               "print(sorted(m for m in ('minitorch.serialization', 'zipfile', 'pickle') if m in sys.modules))\n"
                               "from minitorch import save, load\n"
                               "print(save is minitorch.serialization.save, load is minitorch.load)"])
    assert out.split("\n")[:2] == ["[]", "True True"]
