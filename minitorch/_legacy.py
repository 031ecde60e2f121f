"""torch's legacy constructors, kept by torch for old code and still common in tutorials: Tensor(...)
itself, and the typed tensor classes FloatTensor, DoubleTensor, IntTensor, LongTensor, BoolTensor, ByteTensor,
CharTensor, ShortTensor (and
minitorch.cuda's). Each call is one of torch's legacy forms (torch/csrc/utils/tensor_new.cpp):

    Tensor()                    an empty 1-D tensor
    Tensor(2, 3), Tensor(Size)  an uninitialised tensor of that size
    Tensor([1, 2]), Tensor(a)   the data, converted to the class's dtype (no dtype inference)
    Tensor(other)               other itself, as a new tensor object on the same memory
    Tensor(storage)             a tensor over all of a storage object (minitorch/storage.py)

Tensor.new(...) takes the same forms in the tensor's own dtype and device kind.

Tensor(...) makes the default dtype; the typed classes their own dtype and device kind. isinstance(t,
FloatTensor) asks t's dtype and device, as torch's tensortype metaclass does."""

import minitorch
from minitorch import _C

__all__ = ["tensortype", "legacy_new", "install"]

# torch's legacy signatures (without the hidden new(int64_t cdata))
_SIGNATURES = [
    "new(*, Device? device=None)",
    "new(Storage storage)",
    "new(Tensor other)",
    "new(Tensor other, *, Device? device=None)|hidden",
    "new(SymIntArrayRef size, *, Device? device=None)",
    "new(PyObject* data, *, Device? device=None)",
]

# c10's names of the dtypes, as its TensorOptions print them
_C10_NAMES = {"float32": "float", "float64": "double", "int32": "int", "int64": "long int", "bool": "bool",
              "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
              "float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def _options(dtype, device):
    return ("TensorOptions(dtype={}, device={}, layout=Strided, requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))".format(
                _C10_NAMES[str(dtype).split(".")[-1]], device))


def legacy_new(dtype, device_type, args, kwargs):
    """A legacy constructor call: dtype None for Tensor(...) (the default dtype, any device), or a typed
    class's dtype and device kind ("cpu" or "cuda")."""
    if len(args) == 1 and not isinstance(args[0], (int, minitorch.Size, minitorch.Tensor)) and \
            not minitorch.is_storage(args[0]) and hasattr(type(args[0]), "__len__"):
        # new(sequence) also binds to new(size) in torch's parser, which then reads it as data unless it
        # is a Size (its ints are never unpacked)
        index, v, _ = 5, _C._parse_args(_SIGNATURES[5:], args, kwargs)[1], None
    else:
        index, v, _ = _C._parse_args(_SIGNATURES, args, kwargs)
    device = v.get("device")
    if device is not None:
        device = minitorch.device(device)
        if device_type is not None and device.type != device_type:
            raise RuntimeError("legacy constructor expects device type: {} but device type: {} was passed".format(
                device_type, device.type))
    if device is None:
        device = minitorch.device(device_type or "cpu")
    typed = dtype is not None
    dtype = dtype or minitorch.get_default_dtype()
    if index == 0:
        return minitorch.empty(0, dtype=dtype, device=device)
    if index == 1:
        from minitorch.storage import legacy_storage_tensor

        return legacy_storage_tensor(v["storage"], dtype, device_type)
    if index in (2, 3):
        other = v["other"]
        if typed and (other.dtype != dtype or other.device.type != device.type):
            raise TypeError("expected {} (got {})".format(_options(dtype, device), _options(other.dtype, other.device)))
        return other[...]   # torch's alias(other): a view of all of it (AliasBackward0)
    if index == 4:
        return minitorch.empty(v["size"], dtype=dtype, device=device)
    return _from_sequence(v["data"], dtype, device)


def _from_sequence(data, dtype, device):
    if isinstance(data, (str, bytes)):
        raise TypeError("new(): invalid data type '{}'".format(type(data).__name__))
    if not hasattr(type(data), "__getitem__") or not hasattr(type(data), "__len__"):
        raise TypeError("new(): data must be a sequence (got {})".format(type(data).__name__))
    return minitorch.tensor(data, dtype=dtype, device=device)


class tensortype(type):
    """The type of the typed tensor classes: calling one is its legacy constructor, and
    isinstance(t, FloatTensor) is t.dtype == float32 on a CPU device."""

    def __instancecheck__(cls, obj):
        return (isinstance(obj, minitorch.Tensor) and obj.dtype == cls.dtype
                and (obj.device.type == "cuda") == cls.is_cuda)

    def __call__(cls, *args, **kwargs):
        if cls.is_cuda and not (_C.has_cuda or _C._cuda_isSimulated()):
            raise TypeError("type {}.{} not available. Torch not compiled with CUDA enabled.".format(
                cls.__module__, cls.__name__))
        return legacy_new(cls.dtype, "cuda" if cls.is_cuda else "cpu", args, kwargs)


def _typed(name, dtype, is_cuda):
    return tensortype(name, (), {"dtype": dtype, "is_cuda": is_cuda,
                                 "__module__": "minitorch.cuda" if is_cuda else "minitorch",
                                 "__doc__": "The legacy {} constructor ({}{}).".format(
                                     name, "CUDA, " if is_cuda else "", dtype)})


_TYPED = [("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("IntTensor", "int32"),
          ("LongTensor", "int64"), ("BoolTensor", "bool"), ("ByteTensor", "uint8"), ("CharTensor", "int8"),
          ("ShortTensor", "int16"), ("HalfTensor", "float16"), ("BFloat16Tensor", "bfloat16")]


def _tensor_new(cls, *args, **kwargs):
    """Tensor(...): torch's legacy constructor (minitorch/_legacy.py)."""
    if cls is not minitorch.Tensor:
        raise TypeError("{} cannot be constructed this way; minitorch.Tensor subclasses are made with "
                        "Tensor._make_subclass".format(cls.__name__))
    return legacy_new(None, None, args, kwargs)


def _tensor_new_method(self, *args, **kwargs):
    """Tensor.new(...): the legacy constructor of self's dtype and device kind (new(2, 3), new(data), new(other),
    new())."""
    return legacy_new(self.dtype, self.device.type, args, kwargs)


def _type(self, *args, **kwargs):
    """Tensor.type(): the type name, or a copy converted to a type given by name or by typed class."""
    def name(cls):
        return "{}.{}".format(cls.__module__.replace("minitorch", "torch"), cls.__name__)

    if args and isinstance(args[0], tensortype):
        args = (name(args[0]),) + args[1:]
    if isinstance(kwargs.get("dtype"), tensortype):
        kwargs["dtype"] = name(kwargs["dtype"])
    return _c_type(self, *args, **kwargs)


_c_type = None


def install(module, cuda_module, tensor_type):
    """Puts the typed classes on minitorch and minitorch.cuda, the legacy constructor on Tensor and the
    typed-class form on Tensor.type."""
    global _c_type
    for name, dtype in _TYPED:
        setattr(module, name, _typed(name, getattr(minitorch, dtype), False))
        setattr(cuda_module, name, _typed(name, getattr(minitorch, dtype), True))
    tensor_type.__new__ = staticmethod(_tensor_new)
    _c_type = tensor_type.type
    _type.__name__ = "type"
    tensor_type.type = _type
    _tensor_new_method.__name__ = "new"
    tensor_type.new = _tensor_new_method
