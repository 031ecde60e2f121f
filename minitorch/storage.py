"""torch.storage: the memory under tensors as Python objects (torch/storage.py's UntypedStorage, TypedStorage and
the legacy per-dtype classes FloatStorage, LongStorage, ...).

A storage object stands for one C storage (csrc/core/storage.h): it holds a tensor on that storage (its
``_holder``) and reads and writes the bytes through views of it (``Tensor._storage_view``). While it lives,
``Tensor.untyped_storage()`` gives that one object for every tensor on the storage, as torch keeps one Python
object per storage: ``a.untyped_storage() is b.untyped_storage()`` exactly when a and b share memory.

UntypedStorage counts bytes; TypedStorage (deprecated in torch, which warns once per process) is an
UntypedStorage read as elements of one dtype; ``FloatStorage(3)`` and kin make TypedStorages of their dtype.
``Tensor.set_`` moves a tensor onto a storage (csrc/ops/inplace_view.c). Pickling a storage writes its
bytes; ``copy.deepcopy`` copies each storage once per memo, shared with the tensors copied beside it.
"""

import collections.abc
import operator
import warnings
import weakref

import minitorch
from minitorch import _C
from minitorch._legacy import _C10_NAMES

__all__ = ["UntypedStorage", "TypedStorage"]

# the one UntypedStorage object of each C storage while it lives (its holder keeps the storage, and so its
# key, alive)
_objects = weakref.WeakValueDictionary()

_UNTYPED_SIGNATURES = [
    "torch.UntypedStorage(*, int64_t allocator=None, Device device=None)",
    "torch.UntypedStorage(int64_t size, *, int64_t allocator=None, Device device=None)",
    "torch.UntypedStorage(PyObject* sequence, *, int64_t allocator=None, Device device=None)",
]

# torch's ScalarType names, which are also the legacy classes' prefixes (FloatStorage, ...)
_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                 "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                 "bool": "Bool"}


def _dtype_name(dtype):
    return str(dtype).split(".")[-1]


def _warn_typed_storage_removal(stacklevel=2):
    """torch's deprecation warning of TypedStorage, once per process."""
    if not getattr(_warn_typed_storage_removal, "has_warned", False):
        _warn_typed_storage_removal.has_warned = True
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
                      "the only storage class. This should only matter to you if you are using storages "
                      "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
                      "tensor.storage()", UserWarning, stacklevel=stacklevel + 1)


def _is_int(x):
    return isinstance(x, int) or (type(x).__module__ == "numpy" and hasattr(x, "__index__")
                                  and not isinstance(x, float))


class _StorageConversions:
    """storage.double(), float(), ...: a copy as a TypedStorage of that dtype, made by the class's _to."""

    def double(self):
        """A copy whose elements are float64."""
        return self._to(minitorch.float64)

    def float(self):
        """A copy whose elements are float32."""
        return self._to(minitorch.float32)

    def half(self):
        """A copy whose elements are float16."""
        return self._to(minitorch.float16)

    def bfloat16(self):
        """A copy whose elements are bfloat16."""
        return self._to(minitorch.bfloat16)

    def long(self):
        """A copy whose elements are int64."""
        return self._to(minitorch.int64)

    def int(self):
        """A copy whose elements are int32."""
        return self._to(minitorch.int32)

    def short(self):
        """A copy whose elements are int16."""
        return self._to(minitorch.int16)

    def char(self):
        """A copy whose elements are int8."""
        return self._to(minitorch.int8)

    def byte(self):
        """A copy whose elements are uint8."""
        return self._to(minitorch.uint8)

    def bool(self):
        """A copy whose elements are bool."""
        return self._to(minitorch.bool)


class UntypedStorage(_StorageConversions):
    """A buffer of bytes on one device: the memory of one or more tensors (torch.UntypedStorage)."""

    is_sparse = False

    def __init__(self, *args, **kwargs):
        index, v, _ = _C._parse_args(_UNTYPED_SIGNATURES, args, kwargs)
        device = minitorch.device("cpu") if v["device"] is None else v["device"]
        if device.type != "cpu":
            # torch takes the device's allocator first: a device this build or machine lacks fails here
            minitorch.empty(0, dtype=minitorch.uint8, device=device)
        if index == 2:
            data = v["sequence"]
            if not isinstance(data, collections.abc.Sequence):
                raise RuntimeError("torch.UntypedStorage(): Expected a sequence type, but got {}".format(
                    type(data).__name__))
            for item in data:
                if not _is_int(item):
                    raise RuntimeError("torch.UntypedStorage(): tried to construct a storage from a sequence ({}), "
                                       "but one of the items was of type {} instead of int".format(
                                           type(data).__name__, type(item).__name__))
            # each value taken modulo 256, as torch stores an int in a byte
            holder = minitorch.tensor([operator.index(item) & 0xFF for item in data], dtype=minitorch.uint8,
                                      device=device)
        else:
            size = v["size"] if index == 1 else 0
            if size < 0:
                # torch's allocator refuses the size, read as an unsigned number of bytes
                raise RuntimeError("[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to "
                                   "have been called with negative number: {}".format(size + 2**64))
            holder = minitorch.empty(size, dtype=minitorch.uint8, device=device)
        self._holder = holder
        _objects[holder._storage_key()] = self

    @classmethod
    def _of(cls, tensor):
        """The UntypedStorage of tensor's storage: the one that exists, or a new one holding tensor."""
        key = tensor._storage_key()
        storage = _objects.get(key)
        if storage is None:
            storage = cls.__new__(cls)
            storage._holder = tensor.detach()
            _objects[key] = storage
        return storage

    def _key(self):
        """The C storage's identity while it lives (save keys storages by it)."""
        return self._holder._storage_key()

    def _bytes(self):
        """A 1-d uint8 tensor over every byte of the storage."""
        return self._holder._storage_view(0, (self.nbytes(),), (1,), minitorch.uint8)

    # size and place

    def nbytes(self):
        """The size of the storage in bytes."""
        return self._holder._storage_nbytes()

    def size(self):
        """The number of elements (bytes for an UntypedStorage)."""
        return self.nbytes()

    def __len__(self):
        return self.nbytes()

    def element_size(self):
        """The size of one element in bytes (1 for an UntypedStorage)."""
        return 1

    def data_ptr(self):
        """The address of the first byte (0 on the meta device)."""
        return self._holder._storage_view(0, (0,), (1,)).data_ptr()

    @property
    def device(self):
        """The device the storage's memory is on."""
        return self._holder.device

    @property
    def is_cuda(self):
        """True when the storage is on a CUDA device."""
        return self.device.type == "cuda"

    def get_device(self):
        """The CUDA device's index, or None for the CPU."""
        return self.device.index

    def type(self, dtype=None, non_blocking=False):
        """The type's name (torch's, e.g. 'torch.FloatStorage'), or with a storage class: a copy as that class."""
        if dtype is None:
            return "torch.storage.UntypedStorage"
        return _convert_type(self, dtype)

    def untyped(self):
        """This storage itself (an UntypedStorage is already untyped)."""
        return self

    def __sizeof__(self):
        return object.__sizeof__(self) + self.nbytes()

    # the bytes

    def _index(self, idx):
        if not _is_int(idx):
            raise TypeError("can't index a torch.UntypedStorage with {}".format(type(idx).__name__))
        n = self.nbytes()
        idx = operator.index(idx)
        if idx < 0:
            idx += n    # (the message names the index counted from the start, as torch's)
        if idx < 0 or idx >= n:
            raise IndexError("index {} out of range for storage of size {}".format(idx, n))
        return idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(self.nbytes())
            if step != 1:
                raise RuntimeError("Trying to slice with a step of {}, but only a step of 1 is supported".format(step))
            return UntypedStorage._of(self._holder._storage_slice(start, max(start, stop)))
        return self._bytes()[self._index(idx)].item()

    def __setitem__(self, idx, value):
        if not isinstance(idx, slice):
            idx = self._index(idx)
        if not _is_int(value):
            raise RuntimeError("can only set storage content with a int types, but got {} instead".format(
                type(value).__name__))
        self._bytes()[idx] = operator.index(value) & 0xFF

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        """The elements as a list of Python numbers."""
        return self._bytes().tolist()

    def __repr__(self):
        info = "[{}.{}(device={}) of size {}]".format(__name__, "UntypedStorage", self.device, self.nbytes())
        if self.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(b) for b in self.tolist()) + "\n" + info

    def fill_(self, value):
        """Writes value into every element (every byte for an UntypedStorage); returns self."""
        if not _is_int(value):
            raise RuntimeError("fill_ expects int, but got {}".format(type(value).__name__))
        self._bytes().fill_(operator.index(value) & 0xFF)
        return self

    def copy_(self, source, non_blocking=None):
        """Copies source's bytes (any device) into this storage, which must have as many."""
        if isinstance(source, TypedStorage):
            source = source._untyped_storage
        if not isinstance(source, UntypedStorage):
            raise TypeError("copy_(): argument 'src' must be a storage, not {}".format(type(source).__name__))
        if source.nbytes() != self.nbytes():
            raise RuntimeError("size does not match, self was {} bytes but src was {} bytes".format(
                self.nbytes(), source.nbytes()))
        self._bytes().copy_(source._bytes(), non_blocking=bool(non_blocking))
        return self

    def clone(self):
        """A copy of this storage, on its device."""
        return UntypedStorage._of(self._bytes().clone())

    def resize_(self, size):
        """Makes the storage `size` bytes long in place (every tensor on it sees the new buffer)."""
        self._holder._storage_resize_(size)
        return self

    def new(self):
        """A new empty storage on this storage's device."""
        return UntypedStorage(0, device=self.device)

    # devices and memory kinds

    def to(self, *, device, non_blocking=False):
        """This storage when it is on `device`, else a copy of it there."""
        device = minitorch.device(device)
        if device.type == "cuda" and device.index is None:
            device = minitorch.device("cuda", minitorch.cuda.current_device())
        if device == self.device:
            return self
        return UntypedStorage._of(self._bytes().to(device, non_blocking=non_blocking))

    def cpu(self):
        """This storage when it is on the CPU, else a copy of it there."""
        return self.to(device="cpu")

    def cuda(self, device=None, non_blocking=False):
        """This storage when it is on that CUDA device, else a copy of it there."""
        if device is None:
            device = "cuda"
        elif _is_int(device):
            device = minitorch.device("cuda", operator.index(device))
        return self.to(device=device, non_blocking=non_blocking)

    def is_pinned(self, device="cuda"):
        """True for page-locked host memory."""
        return self._holder.is_pinned()

    def pin_memory(self, device="cuda"):
        """A copy in page-locked host memory."""
        return UntypedStorage._of(self._bytes().pin_memory())

    def is_shared(self):
        """True when the storage is in shared memory (or on a CUDA device)."""
        return self._holder.is_shared()

    def share_memory_(self):
        """Moves the storage into shared memory in place (processes forked afterwards share it); returns self."""
        self._holder.share_memory_()
        return self

    # typed copies: each byte converted to an element of the dtype (torch's storage.float() and kin,
    # _StorageConversions)

    def _to(self, dtype):
        if not isinstance(dtype, minitorch.dtype):
            raise TypeError("Argument 'dtype' must be torch.dtype, not {}".format(type(dtype).__name__))
        converted = self._bytes().to(dtype)
        if converted.dtype == minitorch.uint8:
            converted = converted.clone()
        return converted._typed_storage()

    # copies and pickles

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        from minitorch._serialization import copy_storage_once

        return UntypedStorage._of(copy_storage_once(self._bytes(), memo))

    def __reduce__(self):
        # torch pickles a storage through its legacy save format, which has no dtype for an UntypedStorage:
        # pickling one fails in torch, with this error (save writes them; copy and deepcopy copy them)
        raise AttributeError("type object 'torch.storage.UntypedStorage' has no attribute 'dtype'")


class _LegacyStorageMeta(type):
    dtype = None

    def __instancecheck__(cls, instance):
        if type(instance) is TypedStorage:
            return instance.dtype == cls.dtype and instance.device.type == cls._device_type
        return type.__instancecheck__(cls, instance)


class TypedStorage(_StorageConversions):
    """An UntypedStorage read as elements of one dtype (torch.TypedStorage, deprecated in torch)."""

    is_sparse = False
    _device_type = None

    def __new__(cls, *args, wrap_storage=None, dtype=None, device=None, _internal=False):
        if not _internal:
            _warn_typed_storage_removal()
        if cls is TypedStorage:
            return super().__new__(cls)
        if cls is _LegacyStorage:
            raise RuntimeError("Only child classes of _LegacyStorage can be instantiated")
        # a legacy class (FloatStorage(...)): a TypedStorage of its dtype on its device kind
        message = ("{}.__new__ received an invalid combination of arguments. Expected one of:\n * no arguments\n"
                   " * (int size)\n * (Sequence data)\n * (*, UntypedStorage wrap_storage)").format(cls)
        if device is not None:
            raise RuntimeError(message + "\nKeyword argument 'device' cannot be specified")
        if dtype is not None:
            raise RuntimeError(message + "\nKeyword argument 'dtype' cannot be specified")
        if wrap_storage is None:
            if len(args) > 1:
                raise RuntimeError(message + "\nToo many positional arguments")
            if len(args) == 1 and not _is_int(args[0]) and not isinstance(args[0], collections.abc.Sequence):
                raise TypeError(message + "\nArgument type not recognized: {}".format(type(args[0])))
            return TypedStorage(*args, dtype=cls.dtype, device=cls._device_type, _internal=True)
        if args:
            raise RuntimeError(message + "\nNo positional arguments should be given when using 'wrap_storage'")
        if not isinstance(wrap_storage, UntypedStorage):
            raise TypeError(message + "\nArgument 'wrap_storage' must be UntypedStorage, but got {}".format(
                type(wrap_storage)))
        if wrap_storage.device.type != cls._device_type:
            raise RuntimeError(message + "\nDevice of 'wrap_storage' must be {}, but got {}".format(
                cls._device_type, wrap_storage.device.type))
        return TypedStorage(wrap_storage=wrap_storage, dtype=cls.dtype, _internal=True)

    def __init__(self, *args, device=None, dtype=None, wrap_storage=None, _internal=False):
        if not _internal:
            _warn_typed_storage_removal()
        message = ("TypedStorage.__init__ received an invalid combination of arguments. Expected one of:\n"
                   " * (*, torch.device device, torch.dtype dtype)\n"
                   " * (int size, *, torch.device device, torch.dtype dtype)\n"
                   " * (Sequence data, *, torch.device device, torch.dtype dtype)\n"
                   " * (*, UntypedStorage wrap_storage, torch.dtype dtype)")
        if wrap_storage is not None:
            if args:
                raise RuntimeError(message + "\nNo positional arguments should be given when using 'wrap_storage'")
            if dtype is None:
                raise RuntimeError(message + "\nArgument 'dtype' must be specified")
            if not isinstance(dtype, minitorch.dtype):
                raise TypeError(message + "\nArgument 'dtype' must be torch.dtype, not {}".format(type(dtype)))
            if device is not None:
                raise RuntimeError(message + "\nArgument 'device' should not be specified when 'wrap_storage' "
                                   "is given")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError(message + "\nArgument 'wrap_storage' must be UntypedStorage, but got {}".format(
                    type(wrap_storage)))
            self.dtype = dtype
            self._untyped_storage = wrap_storage
            return
        self.dtype = minitorch.get_default_dtype() if dtype is None else dtype
        device = minitorch.device("cpu" if device is None else device)
        if len(args) > 1:
            raise RuntimeError(message + "\nToo many positional arguments")
        if not args:
            self._untyped_storage = UntypedStorage(device=device)
        elif _is_int(args[0]):
            self._untyped_storage = UntypedStorage(operator.index(args[0]) * self._element_size(), device=device)
        elif isinstance(args[0], collections.abc.Sequence):
            tensor = minitorch.tensor(args[0], dtype=self.dtype, device=device)
            self._untyped_storage = tensor.untyped_storage()
        else:
            raise TypeError(message + "\nArgument type not recognized: {}".format(type(args[0])))

    def _view(self, storage_offset, size, stride):
        """A plain Tensor of the dtype on this storage with that geometry, checked against the storage."""
        return self._untyped_storage._holder._storage_view(storage_offset, tuple(size), tuple(stride), self.dtype)

    def _elements(self):
        """A 1-d tensor of the dtype over every whole element of the storage."""
        return self._view(0, (self._size(),), (1,))

    def _size(self):
        return self._untyped_storage.nbytes() // self._element_size()

    def _element_size(self):
        if not isinstance(self.dtype, minitorch.dtype):
            raise RuntimeError("expected torch.dtype, but got {}".format(type(self.dtype)))
        return self.dtype.itemsize

    def _new_wrapped_storage(self, untyped_storage):
        return TypedStorage(wrap_storage=untyped_storage, dtype=self.dtype, _internal=True)

    # size and place

    def size(self):
        """The number of elements (bytes for an UntypedStorage)."""
        _warn_typed_storage_removal()
        return self._size()

    def __len__(self):
        _warn_typed_storage_removal()
        return self._size()

    def nbytes(self):
        """The size of the storage in bytes."""
        _warn_typed_storage_removal()
        return self._untyped_storage.nbytes()

    def element_size(self):
        """The size of one element in bytes (1 for an UntypedStorage)."""
        _warn_typed_storage_removal()
        return self._element_size()

    def data_ptr(self):
        """The address of the first byte (0 on the meta device)."""
        _warn_typed_storage_removal()
        return self._untyped_storage.data_ptr()

    @property
    def device(self):
        """The device the storage's memory is on."""
        _warn_typed_storage_removal()
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        """True when the storage is on a CUDA device."""
        _warn_typed_storage_removal()
        return self._untyped_storage.device.type == "cuda"

    def get_device(self):
        """The CUDA device's index, or None for the CPU."""
        _warn_typed_storage_removal()
        return self._untyped_storage.get_device()

    def untyped(self):
        """The UntypedStorage under this one."""
        _warn_typed_storage_removal()
        return self._untyped_storage

    def pickle_storage_type(self):
        """The name of the legacy class of this dtype, as pickles name it ('FloatStorage')."""
        _warn_typed_storage_removal()
        return _SCALAR_NAMES[_dtype_name(self.dtype)] + "Storage"

    def type(self, dtype=None, non_blocking=False):
        """The type's name (torch's, e.g. 'torch.FloatStorage'), or with a storage class: a copy as that class."""
        _warn_typed_storage_removal()
        if dtype is None:
            module = "torch.cuda." if self._untyped_storage.device.type == "cuda" else "torch."
            return module + self.pickle_storage_type()
        return _convert_type(self, dtype)

    def __sizeof__(self):
        _warn_typed_storage_removal()
        return object.__sizeof__(self) + self.nbytes()

    # the elements

    def __getitem__(self, idx):
        _warn_typed_storage_removal()
        if self._untyped_storage.device.type == "meta":
            raise NotImplementedError("Not available for 'meta' device type")
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if type(idx) is not int:
            raise RuntimeError("can't index a {} with {}".format(type(self), type(idx)))
        size = self._size()
        if idx >= size or idx < -size:
            raise IndexError("index {} out of range for storage of size {}".format(idx, size))
        return self._elements()[idx % size].item()

    def __setitem__(self, idx, value):
        _warn_typed_storage_removal()
        self._setitem(idx, value)

    def _setitem(self, idx, value):
        if not isinstance(idx, (int, slice)):
            raise RuntimeError("can't index a {} with {}".format(type(self), type(idx)))
        if isinstance(value, (UntypedStorage, TypedStorage)):
            raise RuntimeError("cannot set item with value type {}".format(type(value)))
        self._elements()[idx] = value

    def __iter__(self):
        _warn_typed_storage_removal()
        return iter(self._elements().tolist())

    def tolist(self):
        """The elements as a list of Python numbers."""
        _warn_typed_storage_removal()
        return self._elements().tolist()

    def __repr__(self):
        _warn_typed_storage_removal()
        info = "[{}.TypedStorage(dtype={}, device={}) of size {}]".format(
            __name__,
            self.dtype, self._untyped_storage.device, self._size())
        if self._untyped_storage.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(x) for x in self._elements().tolist()) + "\n" + info

    def fill_(self, value):
        """Writes value into every element (every byte for an UntypedStorage); returns self."""
        _warn_typed_storage_removal()
        self._setitem(slice(0, self._size()), value)
        return self

    def copy_(self, source, non_blocking=None):
        """Copies source's bytes (a storage of as many bytes, on any device) into this one; returns self."""
        _warn_typed_storage_removal()
        self._untyped_storage.copy_(source, non_blocking)
        return self

    def clone(self):
        """A copy of this storage, on its device."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.clone())

    def resize_(self, size):
        """Makes the storage hold `size` elements in place (tensors on it see the new size)."""
        _warn_typed_storage_removal()
        self._untyped_storage.resize_(size * self._element_size())

    # devices and memory kinds

    def to(self, *, device, non_blocking=False):
        """This storage when it is on `device`, else a copy of it there."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.to(device=device, non_blocking=non_blocking))

    def cpu(self):
        """This storage when it is on the CPU, else a copy of it there."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.cpu())

    def cuda(self, device=None, non_blocking=False):
        """This storage when it is on that CUDA device, else a copy of it there."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.cuda(device, non_blocking))

    def is_pinned(self, device="cuda"):
        """True for page-locked host memory."""
        _warn_typed_storage_removal()
        return self._untyped_storage.is_pinned(device)

    def pin_memory(self, device="cuda"):
        """A copy in page-locked host memory."""
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.pin_memory(device))

    def is_shared(self):
        """True when the storage is in shared memory (or on a CUDA device)."""
        _warn_typed_storage_removal()
        return self._untyped_storage.is_shared()

    def share_memory_(self):
        """Moves the storage into shared memory in place (processes forked afterwards share it); returns self."""
        _warn_typed_storage_removal()
        self._untyped_storage.share_memory_()
        return self

    # converted copies (_StorageConversions)

    def _to(self, dtype):
        _warn_typed_storage_removal()
        if not isinstance(dtype, minitorch.dtype):
            raise TypeError("Argument 'dtype' must be torch.dtype, not {}".format(type(dtype).__name__))
        converted = self._elements().to(dtype)
        if converted.data_ptr() == self.data_ptr():
            converted = converted.clone()
        return converted._typed_storage()

    # copies and pickles

    def __copy__(self):
        _warn_typed_storage_removal()
        return self.clone()

    def __deepcopy__(self, memo):
        _warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.__deepcopy__(memo))

    def __reduce__(self):
        # the bytes of this storage alone, as torch's: two tensors pickled together on one storage load
        # back on two (sharing across a pickle is save's business)
        from minitorch._serialization import _storage_from_bytes

        untyped = self._untyped_storage
        return (_storage_from_bytes, (untyped._holder._storage_bytes(), self.dtype, untyped.device))


def _convert_type(storage, target):
    """storage.type(target), as torch's: a storage of the legacy class target (a class or its dotted name)
    made with as many elements as the storage has bytes, then the bytes copied in (so only the classes of
    1-byte elements succeed; the others fail in copy_ with torch's size message)."""
    if isinstance(target, str):
        module, _, name = target.rpartition(".")
        cls = _LEGACY.get((name, "cuda" if module == "torch.cuda" else "cpu"))
        if cls is None or module not in ("torch", "torch.cuda", "minitorch", "minitorch.cuda"):
            raise AttributeError("module '{}' has no attribute '{}'".format(module, name))
        target = cls
    if not (isinstance(target, type) and issubclass(target, _LegacyStorage)):
        target.is_sparse    # torch asks this first: most objects fail here, with Python's AttributeError
        raise TypeError("type(): expected a storage class or its name, not {}".format(type(target).__name__))
    untyped = storage if isinstance(storage, UntypedStorage) else storage._untyped_storage
    return target(untyped.nbytes()).copy_(untyped)


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """The base of the legacy classes: FloatStorage(...) makes a TypedStorage of float32."""


_LEGACY = {}    # (name, device type) -> class


def _legacy_classes():
    for dtype_name, scalar_name in _SCALAR_NAMES.items():
        for device_type, module in (("cpu", "minitorch"), ("cuda", "minitorch.cuda")):
            name = scalar_name + "Storage"
            _LEGACY[name, device_type] = _LegacyStorageMeta(name, (_LegacyStorage,), {
                "dtype": getattr(minitorch, dtype_name), "_device_type": device_type, "__module__": module,
                "__doc__": "The legacy {} storage class: {}(size) or {}(sequence).".format(
                    dtype_name, name, name)})


_legacy_classes()

_STORAGE_TYPES = (UntypedStorage, TypedStorage)    # what the C argument parser takes as torch.Storage


def is_storage(obj):
    """True for a storage object (UntypedStorage or TypedStorage)."""
    return isinstance(obj, _STORAGE_TYPES)


# ---- the Tensor methods of storages --------------------------------------------------------------------

_SET_SIGNATURES = [
    "set_()",
    "set_(Storage source)",
    "set_(Storage source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)",
    "set_(Tensor source)",
    "set_(Tensor source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)",
]


def _untyped_source(storage, dtype, role):
    """The UntypedStorage of a storage argument: a TypedStorage must be of dtype (torch's message)."""
    if isinstance(storage, TypedStorage):
        if storage.dtype != dtype:
            raise RuntimeError("Expected a Storage of type {} or an UntypedStorage, but got type {} for argument 1 "
                               "'storage'".format(role(dtype), _SCALAR_NAMES[_dtype_name(storage.dtype)]))
        return storage._untyped_storage
    return storage


def untyped_storage(self):
    """The UntypedStorage under this tensor (the same object for every tensor on the storage)."""
    return UntypedStorage._of(self)


def storage(self):
    """The storage under this tensor as a TypedStorage of its dtype (deprecated in torch: it warns once)."""
    _warn_typed_storage_removal()
    return self._typed_storage()


def _typed_storage(self):
    return TypedStorage(wrap_storage=UntypedStorage._of(self), dtype=self.dtype, _internal=True)


def storage_type(self):
    """The legacy storage class of this tensor's dtype and device kind (FloatStorage, ...)."""
    return _LEGACY[_SCALAR_NAMES[_dtype_name(self.dtype)] + "Storage",
                   "cuda" if self.device.type == "cuda" else "cpu"]


def set_(self, *args, **kwargs):
    """Moves this tensor onto another storage (a storage object's, or a tensor's), with a storage offset,
    sizes and strides: the storage grows to hold them."""
    index, v, _ = _C._parse_args(_SET_SIGNATURES, args, kwargs)
    if index == 0:
        holder = minitorch.empty(0, dtype=self.dtype, device=self.device)
        return self._set_(holder, 0, (0,), None)
    source = v["source"]
    if index in (1, 2):
        untyped = _untyped_source(source, self.dtype, lambda d: _C10_NAMES[_dtype_name(d)])
        holder = untyped._holder
        if index == 1:
            return self._set_(holder, 0, (untyped.nbytes() // self.element_size(),), None)
        return self._set_(holder, v["storage_offset"], v["size"], v["stride"])
    if index == 3:
        if source.dtype != self.dtype:
            raise RuntimeError("Could not set tensor of type {} to a tensor of type {}".format(
                _C10_NAMES[_dtype_name(source.dtype)], _C10_NAMES[_dtype_name(self.dtype)]))
        return self._set_(source, source.storage_offset(), source.size(), source.stride())
    return self._set_(source, v["storage_offset"], v["size"], v["stride"])


def is_set_to(self, tensor):
    """True when tensor has this tensor's storage, storage offset, sizes and strides."""
    _, v, _ = _C._parse_args(["is_set_to(Tensor tensor)"], (tensor,), {})
    other = v["tensor"]
    return (self._storage_key() == other._storage_key() and self.storage_offset() == other.storage_offset()
            and self.size() == other.size() and self.stride() == other.stride())


def legacy_storage_tensor(storage, dtype, device_type):
    """Tensor(storage) and FloatTensor(storage): a tensor of dtype over all of storage (torch's legacy
    new(Storage) form)."""
    untyped = _untyped_source(storage, dtype, lambda d: _SCALAR_NAMES[_dtype_name(d)])
    device = minitorch.device("cuda", minitorch.cuda.current_device()) if device_type == "cuda" else "cpu"
    return minitorch.empty(0, dtype=dtype, device=device).set_(untyped)


def install(module, cuda_module, tensor_type):
    """Puts the storage classes on minitorch (and the CUDA legacy classes on minitorch.cuda) and the storage
    methods on Tensor."""
    module.UntypedStorage = UntypedStorage
    module.TypedStorage = TypedStorage
    module.is_storage = is_storage
    for (name, device_type), cls in _LEGACY.items():
        setattr(module if device_type == "cpu" else cuda_module, name, cls)
    for fn in (untyped_storage, storage, _typed_storage, storage_type, set_, is_set_to):
        setattr(tensor_type, fn.__name__, fn)
