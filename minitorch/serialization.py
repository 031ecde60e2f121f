"""``minitorch.save`` and ``minitorch.load`` in PyTorch's own file format (torch/serialization.py and
caffe2/serialize/inline_container.cc), so that a file moves between minitorch and torch 2.13 both ways.

The format: a zip archive (every record stored, never compressed) whose records sit in one folder named
after the file ("archive" for a file object): ``data.pkl``, a protocol-2 pickle of the object in which
each storage is a persistent id ``('storage', torch.<Type>Storage, key, location, numel)``; the records
``.format_version``, ``.storage_alignment``, ``byteorder``; one record ``data/<key>`` per storage with
its bytes, starting at a multiple of 64 in the file (padding in a local extra field "FB", as torch's
writer does); then ``version`` and ``.data/serialization_id``. The pickle names torch's functions and
classes (``torch._utils._rebuild_tensor_v2``, ``torch.FloatStorage``, ``torch.float32``...); loading
maps those names back to minitorch's objects (the same table both ways: ``_torch_globals``).

Storages are minitorch.storage's objects, as torch's: a tensor pickles as its TypedStorage; save keys
storages by identity, so views of one storage are written once and load back as views of one storage
(a storage saved on its own loads as a TypedStorage, an UntypedStorage as one of bytes); a map_location
function gets and returns an UntypedStorage; load checks each tensor's geometry against its storage before
building it.

Loading is safe on untrusted files by default (``weights_only=True``, as torch 2.6 and later): the
pickle is read by the allow-list unpickler (_weights_only_unpickler.py), every size and offset in the
archive is checked against the file before memory is allocated or read, and anything malformed raises
an exception. Files written by ``torch.save(..., _use_new_zipfile_serialization=False)`` load too.
"""

import bisect
import collections
import io
import os
import pickle
import re
import struct
import sys
import threading
import types
import warnings
import zipfile
import zlib

import minitorch
from minitorch import _serialization, _weights_only_unpickler
from minitorch.storage import _SCALAR_NAMES, TypedStorage, UntypedStorage

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals", "safe_globals",
           "default_restore_location", "location_tag", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `minitorch.load` "
    "from `False` to `True`. Re-running `minitorch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)

_STORAGE_ALIGNMENT = 64
_FILE_FORMAT_VERSION = b"3\n"  # what torch 2.13 writes (kMinProducedFileFormatVersion)
_MAX_READ_VERSION = 10  # the newest record format torch 2.13 reads (kMaxSupportedFileFormatVersion)


# ---- the names torch files use for minitorch's objects --------------------------------------------------

class _StorageType:
    """What ``torch.FloatStorage`` and the other typed storage classes are when a file is loaded: only
    their dtype matters (torch.serialization.StorageType). ``dtype`` is None for a dtype minitorch lacks."""

    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name = name
        self.dtype = dtype

    def __repr__(self):
        return "StorageType(dtype={})".format(self.dtype if self.dtype is not None else self.name)


# torch's storage class names a file may hold: the legacy classes of minitorch's dtypes (minitorch/storage.py's
# table) carry the dtype's name; those of dtypes minitorch lacks carry None
_STORAGE_TYPE_NAMES = dict(
    {scalar + "Storage": dtype for dtype, scalar in _SCALAR_NAMES.items()},
    ComplexFloatStorage=None, ComplexDoubleStorage=None, QInt8Storage=None, QUInt8Storage=None,
    QInt32Storage=None, QUInt4x2Storage=None, QUInt2x4Storage=None, UntypedStorage="uint8")

_DTYPE_NAMES = ("float32", "float64", "int32", "int64", "bool", "uint8", "int8", "int16", "float16", "bfloat16")

_torch_globals_cache = {}


def _torch_globals():
    """{torch's full name: minitorch object} for everything a torch file may name that minitorch has.

    It is the weights-only allow-list, what the full unpickler resolves torch's names to, and (reversed)
    the names save writes."""
    if not _torch_globals_cache:
        from minitorch.nn import parameter

        table = {
            "collections.OrderedDict": collections.OrderedDict,
            "collections.Counter": collections.Counter,
            "torch.nn.parameter.Parameter": minitorch.nn.Parameter,
            "torch.Size": minitorch.Size,
            "torch.Tensor": minitorch.Tensor,
            "torch.device": minitorch.device,
            "_codecs.encode": _codecs_encode,
            "builtins.bytearray": bytearray,
            "builtins.set": set,
            "builtins.complex": complex,
            "torch._utils._rebuild_tensor": _rebuild_tensor,
            "torch._utils._rebuild_tensor_v2": _serialization._rebuild_tensor_v2,
            "torch._utils._rebuild_meta_tensor_no_storage": _serialization._rebuild_meta_tensor_no_storage,
            "torch._utils._rebuild_parameter": parameter._rebuild_parameter,
            "torch._utils._rebuild_parameter_with_state": parameter._rebuild_parameter_with_state,
            "torch._tensor._rebuild_from_type_v2": _serialization._rebuild_from_type_v2,
        }
        for name in _DTYPE_NAMES:
            table["torch." + name] = getattr(minitorch, name)
        for name, dtype in _STORAGE_TYPE_NAMES.items():
            table["torch." + name] = _StorageType(name, None if dtype is None else getattr(minitorch, dtype))
        # an UntypedStorage is saved under its class's full name and loads as a TypedStorage of bytes
        table["torch.storage.UntypedStorage"] = table["torch.UntypedStorage"]
        _torch_globals_cache.update(table)
    return _torch_globals_cache


def _codecs_encode(obj, encoding="utf-8", errors="strict"):
    # how protocol 2 spells bytes: _codecs.encode(str, "latin1"); a file gets a str and a codec name
    # through, nothing else
    import codecs

    if type(obj) is not str or type(encoding) is not str:
        raise pickle.UnpicklingError("_codecs.encode expects (str, str)")
    return codecs.encode(obj, encoding, errors)


def _rebuild_tensor(storage, storage_offset, size, stride):
    """torch._utils._rebuild_tensor: files of torch before 1.0 name it."""
    return _serialization._rebuild_tensor_v2(storage, storage_offset, size, stride, False)


def _saved_names():
    """{id(object): (module, name)}: what save writes for minitorch's objects (torch's names)."""
    names = {}
    for full, obj in _torch_globals().items():
        if full.startswith("torch."):
            module, _, name = full.rpartition(".")
            names[id(obj)] = (module, name)
    return names


def _storage_type_for(dtype):
    return _torch_globals()["torch." + _STORAGE_TYPE_BY_DTYPE[str(dtype)]]


_STORAGE_TYPE_BY_DTYPE = {"minitorch." + dtype: name for name, dtype in _STORAGE_TYPE_NAMES.items()
                          if dtype and name != "UntypedStorage"}


# ---- locations ------------------------------------------------------------------------------------------

def location_tag(storage):
    """The location string save writes for a storage: "cpu" or "cuda:<index>" (torch's tags)."""
    device = storage.device
    if device.type == "cpu":
        return "cpu"
    return "{}:{}".format(device.type, device.index)


def _validate_cuda_device(location):
    """The device a "cuda..." location names, or torch's RuntimeError when it is not there."""
    device = minitorch.device(location)
    if not minitorch.cuda.is_available():
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but minitorch.cuda.is_available() is False. "
            "If you are running on a CPU-only machine, please use minitorch.load with "
            "map_location=minitorch.device('cpu') to map your storages to the CPU.")
    index = minitorch.cuda.current_device() if device.index is None else device.index
    count = minitorch.cuda.device_count()
    if index >= count:
        raise RuntimeError(
            f"Attempting to deserialize object on CUDA device {index} but minitorch.cuda.device_count() is "
            f"{count}. Please use minitorch.load with map_location to map your storages to an existing device.")
    return minitorch.device("cuda", index)


def default_restore_location(storage, location):
    """The storage moved to the device its location tag names (torch's default_restore_location)."""
    if location == "cpu":
        return storage.cpu()
    if location == "cuda" or re.match("cuda(:|[0-9]+)", location):
        return storage.to(device=_validate_cuda_device(location))
    raise RuntimeError("don't know how to restore data location of minitorch.storage.UntypedStorage (tagged with "
                       + location + ")")


def _get_restore_location(map_location):
    if map_location is None:
        return default_restore_location
    if isinstance(map_location, dict):
        return lambda storage, location: default_restore_location(storage, map_location.get(location, location))
    if isinstance(map_location, (str, bytes)):
        target = map_location.decode("ascii") if isinstance(map_location, bytes) else map_location
        return lambda storage, location: default_restore_location(storage, target)
    if isinstance(map_location, minitorch.device):
        return lambda storage, location: default_restore_location(storage, str(map_location))

    def restore_location(storage, location):
        result = map_location(storage, location)
        if result is None:
            result = default_restore_location(storage, location)
        if not isinstance(result, UntypedStorage):
            raise TypeError("map_location must return a storage (the one it was given, or storage.cpu(), "
                            "storage.cuda(...)), not {}".format(type(result).__name__))
        return result
    return restore_location


# ---- the zip archive ------------------------------------------------------------------------------------

_U32 = 0xFFFFFFFF
_ZIP64_AT = _U32  # sizes and offsets from here on go in zip64 fields (the 32-bit field then holds _U32)
_CRC_IN_THREAD_BYTES = 1 << 22


def _string_hash(data):
    """libstdc++'s std::hash<std::string> (64-bit _Hash_bytes, seed 0xc70f6907): the record name hash
    torch combines into .data/serialization_id."""
    mask = (1 << 64) - 1
    mul = (0xC6A4A793 << 32) + 0x5BD1E995

    def shift_mix(v):
        return v ^ (v >> 47)
    n = len(data)
    h = (0xC70F6907 ^ (n * mul)) & mask
    aligned = n & ~7
    for (word,) in struct.iter_unpack("<Q", data[:aligned]):
        h = ((h ^ ((shift_mix((word * mul) & mask) * mul) & mask)) * mul) & mask
    if n & 7:
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * mul) & mask
    h = shift_mix((shift_mix(h) * mul) & mask)
    return h


def _hash_combine(seed, value):
    # c10::hash_combine on 64-bit size_t
    return (seed ^ ((value + 0x9E3779B9 + (seed << 6) + (seed >> 2)) & ((1 << 64) - 1))) & ((1 << 64) - 1)


def _unordered_set_order(names):
    """The order in which libstdc++'s unordered_set<std::string> holds ``names`` inserted in this order
    (torch iterates its set of written record names to hash them).

    The set is one singly linked list in which each bucket's nodes are adjacent: a node goes to the front
    of its bucket's run, or to the front of the list when its bucket is empty; a rehash reinserts the
    nodes in list order by the same rule. Here the list is kept as runs, fronts last, so both are appends.
    """
    hashes = [_string_hash(name.encode()) for name in names]
    bucket_count, next_resize = 1, 0
    runs, order = {}, []  # bucket -> its nodes (front last); buckets in list order (front last)
    for count, (name, h) in enumerate(zip(names, hashes)):
        if count + 1 > next_resize:  # _Prime_rehash_policy::_M_need_rehash, max_load_factor 1
            min_buckets = max(count + 1, 0 if next_resize else 11)
            if min_buckets >= bucket_count:
                bucket_count, next_resize = _next_bucket(max(min_buckets + 1, bucket_count * 2))
                nodes = [node for bkt in reversed(order) for node in reversed(runs[bkt])]
                runs, order = {}, []
                for node in nodes:
                    _insert_node(runs, order, node, node[1] % bucket_count)
            else:
                next_resize = bucket_count
        _insert_node(runs, order, (name, h), h % bucket_count)
    return [node[0] for bkt in reversed(order) for node in reversed(runs[bkt])]


def _insert_node(runs, order, node, bkt):
    run = runs.get(bkt)
    if run is None:
        runs[bkt] = [node]
        order.append(bkt)
    else:
        run.append(node)


def _next_bucket(n):
    """(bucket count, next resize) of _Prime_rehash_policy::_M_next_bkt: a fixed table for small sizes,
    then the first prime of libstdc++'s list not below n."""
    fast = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)
    if n < len(fast):
        return fast[n], fast[n]
    primes = _prime_list()
    i = bisect.bisect_left(primes, n)
    if i == len(primes):
        raise OverflowError("too many records for one archive")
    return primes[i], primes[i]


_primes_cache = []


def _prime_list():
    if not _primes_cache:
        # libstdc++'s __prime_list, as far as any archive needs (it grows by about 2x per rehash)
        _primes_cache.extend([
            17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127,
            137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409,
            439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493,
            1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087,
            5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411,
            17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201,
            53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607,
            147793, 159871, 172933, 187091, 202409, 218971, 236897, 256279, 277261, 299951, 324503, 351061,
            379787, 410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483,
            976369, 1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859, 1832561, 1982627,
            2144977, 2320627, 2510653, 2716249, 2938679, 3179303, 3439651, 3721303, 4026031, 4355707,
            4712381, 5098259, 5515729, 5967347, 6456007, 6984629, 7556579, 8175383, 8844859, 9569143])
    return _primes_cache


def _field32(value):
    """A size or offset as a 32-bit zip field: the value, or _U32 when it is in a zip64 field instead."""
    return _U32 if value >= _ZIP64_AT else value


def _zip64_extra(size, header_at):
    """The zip64 extra field of a record: its sizes and header offset where they do not fit 32 bits."""
    fields = (struct.pack("<QQ", size, size) if size >= _ZIP64_AT else b"") + \
        (struct.pack("<Q", header_at) if header_at >= _ZIP64_AT else b"")
    return struct.pack("<HH", 1, len(fields)) + fields if fields else b""


class _ZipWriter:
    """Writes an archive exactly as torch's PyTorchStreamWriter (miniz) does: stored records, a data
    descriptor after each non-empty one, data aligned to 64 bytes, a zip64 end of central directory."""

    def __init__(self, file, archive_name):
        self.file = file
        self.prefix = archive_name + "/"
        self.offset = 0
        self.entries = []
        self.names = []
        self.combined_crc = 0

    def write_record(self, name, data):
        """Appends a record; ``data`` is any bytes-like object (a storage's memoryview is not copied)."""
        full = (self.prefix + name).encode("utf-8")
        view = memoryview(data).cast("B") if not isinstance(data, bytes) else data
        size = len(view)
        header_at = self.offset
        zip64 = size >= _ZIP64_AT or header_at >= _ZIP64_AT
        start = header_at + 30 + len(full) + 4
        zip64_extra = _zip64_extra(size, header_at)
        start += len(zip64_extra)
        pad = -start % _STORAGE_ALIGNMENT
        extra = zip64_extra + b"FB" + struct.pack("<H", pad) + b"Z" * pad
        flags = 0x0808 if size else 0x0800
        write = self.file.write
        write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra)))
        write(full)
        write(extra)
        crc = 0
        if size >= _CRC_IN_THREAD_BYTES:
            # the CRC goes in the descriptor after the data, so it is computed while the data is written
            # (zlib.crc32 and the write both release the GIL)
            result = []
            thread = threading.Thread(target=lambda: result.append(zlib.crc32(view)))
            thread.start()
            try:
                write(view)
            finally:
                thread.join()
            crc = result[0]
        elif size:
            crc = zlib.crc32(view)
            write(view)
        if size:
            if zip64:
                write(struct.pack("<IIQQ", 0x08074B50, crc, size, size))
            else:
                write(struct.pack("<IIII", 0x08074B50, crc, size, size))
        self.offset = header_at + 30 + len(full) + len(extra) + size + ((24 if zip64 else 16) if size else 0)
        self.entries.append((full, flags, crc, size, header_at))
        self.names.append(name)
        if size:  # torch combines the CRCs of non-empty records only
            self.combined_crc = _hash_combine(self.combined_crc, crc)

    def finish(self):
        """version, .data/serialization_id, the central directory and the end records."""
        self.write_record("version", _FILE_FORMAT_VERSION)
        name_hash = 0
        for name in _unordered_set_order(self.names):
            name_hash = _hash_combine(name_hash, _string_hash(name.encode()))
        self.write_record(".data/serialization_id", "{:020d}{:020d}".format(name_hash, self.combined_crc).encode())
        cd_start = self.offset
        parts = []
        for full, flags, crc, size, header_at in self.entries:
            extra = _zip64_extra(size, header_at)
            parts.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc,
                                     _field32(size), _field32(size), len(full), len(extra), 0, 0, 0, 0,
                                     _field32(header_at)))
            parts.append(full)
            parts.append(extra)
        cd = b"".join(parts)
        count = len(self.entries)
        zip64_eocd_at = cd_start + len(cd)
        tail = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, 0, 0, count, count, len(cd), cd_start)
        tail += struct.pack("<IIQI", 0x07064B50, 0, zip64_eocd_at, 1)
        tail += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF),
                            _field32(len(cd)), _field32(cd_start), 0)
        self.file.write(cd + tail)
        self.offset += len(cd) + len(tail)


def _archive_name(path):
    # torch's basename(): the file's name without folders and its last extension; a name that is not
    # ASCII is written through a Python file object, which torch names "archive"
    try:
        path.encode("ascii")
    except UnicodeEncodeError:
        return "archive"
    base = re.split(r"[/\\]", path)[-1]
    dot = base.rfind(".")
    return base[:dot] if dot >= 0 else base


class _ZipReader:
    """The records of a torch archive, every size and offset checked against the file before use."""

    def __init__(self, file):
        self.file = file
        file.seek(0, os.SEEK_END)
        self.file_size = file.tell()
        file.seek(0)
        try:
            self.zip = zipfile.ZipFile(file)
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OverflowError, struct.error,
                EOFError, NotImplementedError, UnicodeDecodeError) as e:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: failed finding central "
                               "directory ({})".format(e)) from None
        if not infos:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: archive does not contain any files")
        first = infos[0].filename
        if "/" not in first:
            raise RuntimeError("file in archive is not in a subdirectory: " + first)
        self.prefix = first[:first.index("/") + 1]
        self.records = {}
        for info in infos:
            if info.filename in self.records:
                raise RuntimeError("PytorchStreamReader failed reading zip archive: duplicate record name "
                                   + info.filename)
            self.records[info.filename] = info
        version_name = ".data/version" if self.has(".data/version") else "version"
        version = self.get(version_name).strip() if self.has(version_name) else b""
        if not version.isdigit() or not (1 <= int(version) <= _MAX_READ_VERSION):
            raise RuntimeError("PytorchStreamReader failed reading file version: {!r} is not a version this "
                               "reader supports (1 to {})".format(version, _MAX_READ_VERSION))

    def has(self, name):
        return self.prefix + name in self.records

    def _info(self, name):
        info = self.records.get(self.prefix + name)
        if info is None:
            raise RuntimeError("PytorchStreamReader failed locating file {}: file not found".format(name))
        return info

    def data_offset(self, name, nbytes):
        """Where a stored record's ``nbytes`` bytes start in the file (checked to lie inside it)."""
        info = self._info(name)
        if info.file_size != nbytes:
            raise RuntimeError("PytorchStreamReader: record {} holds {} bytes where {} were expected"
                               .format(name, info.file_size, nbytes))
        if info.compress_type != zipfile.ZIP_STORED or info.compress_size != nbytes:
            return None
        self.file.seek(info.header_offset)
        header = self.file.read(30)
        if len(header) != 30 or header[:4] != b"PK\x03\x04":
            raise RuntimeError("PytorchStreamReader failed reading zip archive: bad local header of " + name)
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        start = info.header_offset + 30 + name_len + extra_len
        if start + nbytes > self.file_size:
            raise RuntimeError("PytorchStreamReader failed reading record {}: its {} bytes run past the end of "
                               "the file".format(name, nbytes))
        return start

    def get(self, name, limit=1 << 62):
        """A small record's bytes."""
        info = self._info(name)
        if info.file_size > limit:
            raise RuntimeError("PytorchStreamReader: record {} is too large".format(name))
        start = self.data_offset(name, info.file_size)
        if start is None:
            return self._read_compressed(info)
        self.file.seek(start)
        return self.file.read(info.file_size)

    def read_into(self, name, buffer, start):
        """Fills ``buffer`` (a writable byte memoryview) with the record's bytes, which data_offset said
        start at ``start`` (None: a compressed record)."""
        nbytes = len(buffer)
        if start is None:
            buffer[:] = self._read_compressed(self._info(name))
            return
        self.file.seek(start)
        done = 0
        while done < nbytes:
            n = self.file.readinto(buffer[done:])
            if not n:
                raise RuntimeError("PytorchStreamReader failed reading record {}: the file ends early".format(name))
            done += n

    def _read_compressed(self, info):
        # a record someone compressed with another zip tool; the size was checked against the directory
        try:
            with self.zip.open(info) as f:
                data = f.read(info.file_size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError) as e:
            raise RuntimeError("PytorchStreamReader failed reading record {}: {}".format(info.filename, e)) from None
        if len(data) != info.file_size:
            raise RuntimeError("PytorchStreamReader failed reading record {}: wrong size".format(info.filename))
        return data


# ---- save -----------------------------------------------------------------------------------------------

class _Pickler(pickle._Pickler):
    """The pickle torch.save writes: storages as persistent ids, minitorch's objects under torch's names.

    The pure-Python pickler, because it lets a global be written under another name (C pickler's
    save_global insists on importing it); a file's pickle is small (the storages are records)."""

    def __init__(self, file, protocol, storages):
        super().__init__(file, protocol)
        self.storages = storages  # storage key -> (record key, UntypedStorage), in first-seen order
        self.dtypes = {}  # storage key -> the dtype it is saved as
        self.names = _saved_names()

    def persistent_id(self, obj):
        if isinstance(obj, TypedStorage):
            untyped, dtype, numel = obj._untyped_storage, obj.dtype, obj._size()
            storage_type = _storage_type_for(dtype)
        elif isinstance(obj, UntypedStorage):
            untyped, dtype, numel = obj, minitorch.uint8, obj.nbytes()
            storage_type = _torch_globals()["torch.storage.UntypedStorage"]
        else:
            return None
        storage_key = untyped._key()
        if untyped.device.type != "meta" and untyped.data_ptr() != 0 and \
                self.dtypes.setdefault(storage_key, dtype) != dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        entry = self.storages.get(storage_key)
        if entry is None:
            entry = self.storages[storage_key] = (str(len(self.storages)), untyped)
        return ("storage", storage_type, entry[0], location_tag(untyped), numel)

    def save_global(self, obj, name=None):
        spelled = self.names.get(id(obj))
        if spelled is None:
            return super().save_global(obj, name)
        module, name = spelled
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + module.encode("utf-8") + b"\n" + name.encode("utf-8") + b"\n")
        self.memoize(obj)



# functions (the rebuild functions) and dtypes (which reduce to their name) are written by save_global;
# classes reach it without the table
_Pickler.dispatch = dict(pickle._Pickler.dispatch)
_Pickler.dispatch[types.FunctionType] = _Pickler.save_global
_Pickler.dispatch[minitorch.dtype] = _Pickler.save_global
_Pickler.dispatch[_StorageType] = _Pickler.save_global


def _check_pickle_module(pickle_module):
    # torch looks at the module's name first (_check_dill_version), so that anything but a module raises
    # AttributeError there; minitorch pickles with the standard module only
    if pickle_module.__name__ != "pickle" or pickle_module is not pickle:
        raise NotImplementedError("minitorch.save and minitorch.load use the standard pickle module only, "
                                  "not {}".format(pickle_module.__name__))


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True)

    Saves an object to a file in PyTorch's format: ``f`` is a path (str or os.PathLike) or a binary file
    object with ``write``. Tensors keep their dtype, geometry, device and storage sharing.
    """
    _check_pickle_module(pickle_module)
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("minitorch.save writes the zip format only; minitorch.load reads the legacy "
                                  "format torch writes with _use_new_zipfile_serialization=False")
    storages = {}
    data = io.BytesIO()
    _Pickler(data, pickle_protocol, storages).dump(obj)
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        with open(path, "wb") as file:
            _write_archive(file, _archive_name(path), data.getvalue(), storages, _disable_byteorder_record)
    else:
        if not callable(f.write):
            raise TypeError("Buffer of {} has no callable attribute 'write'".format(str(type(f)).strip("<>")))
        _write_archive(f, "archive", data.getvalue(), storages, _disable_byteorder_record)
        f.flush()


def _write_archive(file, archive_name, pickled, storages, disable_byteorder_record):
    writer = _ZipWriter(file, archive_name)
    writer.write_record("data.pkl", pickled)
    writer.write_record(".format_version", b"1")
    writer.write_record(".storage_alignment", str(_STORAGE_ALIGNMENT).encode())
    if not disable_byteorder_record:
        writer.write_record("byteorder", sys.byteorder.encode())
    for key, untyped in storages.values():
        # a CPU storage is written from its own memory; a device storage is copied to the host first
        data = memoryview(untyped._bytes()) if untyped.device.type == "cpu" else untyped._holder._storage_bytes()
        writer.write_record("data/" + key, data)
    writer.finish()


# ---- load -----------------------------------------------------------------------------------------------

def add_safe_globals(safe_globals):
    """Marks functions and classes as safe for ``weights_only`` load (each one, or a (global, "module.name")
    pair naming it as the file does)."""
    _weights_only_unpickler._add_safe_globals(safe_globals)


def get_safe_globals():
    """The globals the user marked safe for ``weights_only`` load."""
    return _weights_only_unpickler._get_safe_globals()


def clear_safe_globals():
    """Forgets every global the user marked safe."""
    _weights_only_unpickler._clear_safe_globals()


class safe_globals(_weights_only_unpickler._safe_globals):
    """Context manager that marks globals safe for ``weights_only`` load inside its block."""


def _weights_only_message(message):
    # torch.load's _get_wo_message
    docs = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
            "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        updated = ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                   "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                   f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                   "the recommended steps in the following error message.\n\tWeightsUnpickler error: " + message)
    else:
        updated = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
        if not re.search(r"whose module (\S+) is blocked", message):
            updated += ("Please file an issue with the following so that we can make "
                        "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
        updated += "\n\n" + message
    return updated + docs


class _FullUnpickler(pickle.Unpickler):
    """``weights_only=False``: any global is imported (the caller trusts the file). torch's names resolve
    to minitorch's objects: those of the allow-list table, then ``torch.<path>`` as ``minitorch.<path>``
    (a whole model torch saved names its layers ``torch.nn.modules.linear.Linear``); torch itself is
    never imported."""

    def find_class(self, module, name):
        obj = _torch_globals().get(module + "." + name)
        if obj is not None:
            return obj
        if module == "torch" or module.startswith("torch."):
            mirrored = "minitorch" + module[len("torch"):]
            try:
                return super().find_class(mirrored, name)
            except (ImportError, AttributeError):
                raise pickle.UnpicklingError("the file names {}.{}, which minitorch does not have ({}.{})"
                                             .format(module, name, mirrored, name)) from None
        return super().find_class(module, name)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """load(f, map_location=None, pickle_module=pickle, *, weights_only=True, mmap=None, **pickle_load_args)

    Loads an object saved by ``minitorch.save`` or ``torch.save``. ``map_location`` (a device, a string, a
    dict from saved to new locations, or a function ``(storage, location) -> storage``) says where
    storages go; by default each goes where it was saved. ``weights_only=True`` (the default) refuses
    any global outside the allow-list; ``mmap=True`` maps the storages from the file (a path) instead of
    reading them.
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_module is not None:
        _check_pickle_module(pickle_module)
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.")
    if "encoding" not in pickle_load_args:
        pickle_load_args["encoding"] = "utf-8"
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return _load_file(file, f, map_location, weights_only, bool(mmap), pickle_load_args)
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as e:
        if "seek" in str(e) or "tell" in str(e):
            raise type(e)(str(e) + ". You can only minitorch.load from a file that is seekable. Please pre-load "
                          "the data into a buffer like io.BytesIO and try to load from it instead.") from None
        raise
    return _load_file(f, f, map_location, weights_only, bool(mmap), pickle_load_args)


def _load_file(file, f, map_location, weights_only, mmap, pickle_load_args):
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    if magic == b"PK\x03\x04":
        if mmap and not isinstance(f, (str, os.PathLike)):
            raise ValueError("f must be a file path in order to use the mmap argument")
        reader = _ZipReader(file)
        mapped = _map_file(f) if mmap else None
        return _unpickle(io.BytesIO(reader.get("data.pkl")), _zip_storage_loader(reader, map_location, mapped),
                         weights_only, pickle_load_args)
    if mmap:
        name = "" if not isinstance(f, str) else f"{f}, "
        raise RuntimeError("mmap can only be used with files saved with "
                           f"`minitorch.save({name}_use_new_zipfile_serialization=True), "
                           "please minitorch.save your checkpoint with this option in order to use mmap.")
    from minitorch import _legacy_serialization

    return _legacy_serialization.load(file, _get_restore_location(map_location), weights_only, pickle_load_args,
                                      _unpickle)


def _unpickle(data, persistent_load, weights_only, pickle_load_args):
    if weights_only:
        unpickler = _weights_only_unpickler.Unpickler(data, _torch_globals(), persistent_load,
                                                      encoding=pickle_load_args.get("encoding", "utf-8"))
        try:
            return unpickler.load()
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(_weights_only_message(str(e))) from None
    unpickler = _FullUnpickler(data, **pickle_load_args)
    unpickler.persistent_load = persistent_load
    return unpickler.load()


def _storage_dtype(storage_type):
    """The minitorch dtype of a storage type a file names, or NotImplementedError for one minitorch lacks."""
    if type(storage_type) is not _StorageType:
        raise pickle.UnpicklingError("a storage's type must be one of torch's storage classes, not {!r}"
                                     .format(storage_type))
    if storage_type.dtype is None:
        raise NotImplementedError("minitorch cannot load a torch.{}: it has the dtypes float32, float64, float16, "
                                  "bfloat16, int64, int32, int16, int8, uint8 and bool only"
                                  .format(storage_type.name))
    return storage_type.dtype


def _check_persistent_id(saved_id):
    """(dtype, key, location, numel) of a zip-format persistent id, each checked."""
    if type(saved_id) is not tuple or len(saved_id) != 5:
        raise pickle.UnpicklingError("a storage's persistent id must be a tuple of 5 items, got {!r}"
                                     .format(saved_id)[:200])
    typename, storage_type, key, location, numel = saved_id
    if isinstance(location, bytes):
        location = location.decode("ascii")
    if typename not in ("storage", b"storage") or type(key) is not str or type(location) is not str:
        raise pickle.UnpicklingError("malformed storage persistent id {!r}".format(saved_id)[:200])
    if type(numel) is not int or numel < 0:
        raise RuntimeError("a storage's size must be a non-negative int, got {!r}".format(numel))
    return _storage_dtype(storage_type), key, location, numel


def _zip_storage_loader(reader, map_location, mapped):
    """The persistent_load of a zip archive: each storage read (or mapped) once, then restored."""
    restore_location = _get_restore_location(map_location)
    loaded = {}

    def persistent_load(saved_id):
        dtype, key, location, numel = _check_persistent_id(saved_id)
        ref = loaded.get(key)
        if ref is None:
            name = "data/" + key
            itemsize = dtype.itemsize
            nbytes = numel * itemsize
            if mapped is not None:
                start = reader.data_offset(name, nbytes)
                if start is None:
                    raise RuntimeError("mmap needs stored (uncompressed) records; {} is compressed".format(name))
                tensor = _mapped_tensor(mapped, start, numel, dtype)
            else:
                start = reader.data_offset(name, nbytes)  # the size and place, checked before allocating
                tensor = minitorch.empty(numel, dtype=dtype)
                if nbytes:
                    reader.read_into(name, memoryview(tensor).cast("B"), start)
            ref = loaded[key] = TypedStorage(wrap_storage=restore_location(tensor.untyped_storage(), location),
                                             dtype=dtype, _internal=True)
        elif ref.dtype != dtype:
            raise RuntimeError("storage {} is loaded as {} and as {}".format(key, ref.dtype, dtype))
        return ref
    return persistent_load


def _map_file(f):
    """A private (copy-on-write) mapping of the whole file, as torch's UntypedStorage.from_file(shared=False):
    a tensor's writes stay in memory and never reach the file."""
    import mmap as mmap_module

    with open(f, "rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            raise RuntimeError("cannot mmap an empty file")
        return mmap_module.mmap(file.fileno(), 0, access=mmap_module.ACCESS_COPY)


def _mapped_tensor(mapped, start, numel, dtype):
    """A 1-d tensor over ``numel`` elements of the mapping from byte ``start`` (no copy); it keeps the
    mapping alive. NumPy wraps the memory: the C core takes external memory through from_numpy."""
    try:
        import numpy
    except ImportError:
        raise RuntimeError("minitorch.load(mmap=True) needs NumPy (pip install numpy)") from None
    np_dtype = {"minitorch.float32": numpy.float32, "minitorch.float64": numpy.float64,
                "minitorch.int32": numpy.int32, "minitorch.int64": numpy.int64,
                "minitorch.bool": numpy.bool_, "minitorch.uint8": numpy.uint8, "minitorch.int8": numpy.int8,
                "minitorch.int16": numpy.int16, "minitorch.float16": numpy.float16,
                "minitorch.bfloat16": numpy.int16}[str(dtype)]
    if numel == 0:
        return minitorch.empty(0, dtype=dtype)
    # NumPy has no bfloat16: its bits are mapped as int16 and viewed as bfloat16
    return minitorch.from_numpy(numpy.frombuffer(mapped, dtype=np_dtype, count=numel, offset=start)).view(dtype)
