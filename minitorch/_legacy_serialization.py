"""Loading files in torch's format before 1.6 (what ``torch.save(..., _use_new_zipfile_serialization=False)``
still writes): pickles one after another in one stream, then the storages' bytes.

The stream: the magic number, the protocol version (1001) and a dict of system facts, each a small
pickle; the object's pickle, in which storages are persistent ids ``('storage', torch.<Type>Storage,
key, location, numel, view_metadata)``; the list of storage keys; then for each key, an int64 element
count and the storage's bytes. Each storage is made where it will live (its location, through
map_location) while unpickling, because tensors are built on it before its bytes follow; the bytes are
then copied in. Every count is checked against the persistent id and the file before memory is used.

The older tar format (torch before 0.4) is not read.
"""

import os
import struct

import minitorch
from minitorch.storage import TypedStorage

__all__ = ["load"]

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001


def load(file, restore_location, weights_only, pickle_load_args, unpickle):
    """The object of a legacy file, its storages restored by ``restore_location``.

    ``unpickle(stream, persistent_load, weights_only, pickle_load_args)`` reads one pickle (serialization.py
    decides which unpickler)."""
    from minitorch import serialization

    start = file.tell()
    file.seek(start + 257)
    if file.read(5) == b"ustar":
        if weights_only:
            raise RuntimeError("Cannot use ``weights_only=True`` with files saved in the legacy .tar format. "
                               + serialization.UNSAFE_MESSAGE)
        raise NotImplementedError("minitorch.load does not read the .tar format of torch before 0.4")
    file.seek(start)

    def no_persistent_id(saved_id):
        raise RuntimeError("Invalid magic number; corrupt file?")

    if unpickle(file, no_persistent_id, weights_only, pickle_load_args) != MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol_version = unpickle(file, no_persistent_id, weights_only, pickle_load_args)
    if protocol_version != PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {protocol_version}")
    unpickle(file, no_persistent_id, weights_only, pickle_load_args)  # sys_info: little endian, type sizes

    storages = {}  # key -> (TypedStorage where it lives, numel)

    def persistent_load(saved_id):
        if type(saved_id) is not tuple or len(saved_id) != 6:
            raise RuntimeError("a storage's persistent id must be a tuple of 6 items")
        if saved_id[5] is not None:
            raise NotImplementedError("minitorch.load does not read storage views of the legacy format")
        dtype, key, location, numel = serialization._check_persistent_id(saved_id[:5])
        entry = storages.get(key)
        if entry is None:
            empty = minitorch.empty(numel, dtype=dtype).untyped_storage()
            entry = storages[key] = (TypedStorage(wrap_storage=restore_location(empty, location), dtype=dtype,
                                                  _internal=True), numel)
        elif entry[0].dtype != dtype or entry[1] != numel:
            raise RuntimeError("storage {} is named with two dtypes or sizes".format(key))
        return entry[0]

    result = unpickle(file, persistent_load, weights_only, pickle_load_args)
    keys = unpickle(file, no_persistent_id, weights_only, pickle_load_args)
    if type(keys) is not list:
        raise RuntimeError("the legacy file's storage keys must be a list")
    position = file.tell()
    file.seek(0, os.SEEK_END)
    end = file.tell()
    file.seek(position)
    for key in keys:
        if key not in storages:
            raise RuntimeError(f"storage key {key!r} not found in deserialized_objects")
        ref, numel = storages[key]
        header = file.read(8)
        if len(header) != 8 or struct.unpack("<q", header)[0] != numel:
            raise RuntimeError("storage {}: the file's element count does not match its pickle".format(key))
        nbytes = numel * ref._element_size()
        if file.tell() + nbytes > end:
            raise RuntimeError("storage {}: its {} bytes run past the end of the file".format(key, nbytes))
        device = ref._untyped_storage.device
        host = ref._elements() if device.type == "cpu" else minitorch.empty(numel, dtype=ref.dtype)
        view = memoryview(host).cast("B")
        done = 0
        while done < nbytes:
            n = file.readinto(view[done:])
            if not n:
                raise RuntimeError("storage {}: the file ends early".format(key))
            done += n
        if device.type != "cpu":
            ref._elements().copy_(host)
    return result
