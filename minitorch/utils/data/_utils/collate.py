"""default_collate and default_convert: how the DataLoader turns a list of samples into a batch (tensors
stacked, Python floats -> float64, ints and bools -> int64/bool tensors, NumPy arrays and scalars -> tensors,
strings kept, containers collated field by field), with torch's errors. NumPy is imported only when a
sample is a NumPy object."""

import collections.abc
import copy
import re

import minitorch as torch

__all__ = ["default_collate", "default_convert", "collate"]

# NumPy dtypes of strings and objects, which are not made into tensors
np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}")


def _is_numpy(obj):
    return type(obj).__module__ == "numpy"


def _numpy_as_tensor(data):
    # torch.as_tensor of a NumPy array or scalar (or a list of scalars): the array's own dtype
    import numpy

    return torch.from_numpy(numpy.asarray(data))


def _rebuild(elem, items):
    """A container of elem's type holding `items` (a dict: key -> value, else a sequence), as torch does:
    a mutable one copied and updated, another rebuilt by its type, a plain dict/list when that fails."""
    is_mapping = isinstance(elem, collections.abc.Mapping)
    try:
        if isinstance(elem, (collections.abc.MutableMapping, collections.abc.MutableSequence)):
            clone = copy.copy(elem)
            if is_mapping:
                clone.update(items)
            else:
                for i, item in enumerate(items):
                    clone[i] = item
            return clone
        return type(elem)(items)
    except TypeError:
        return dict(items) if is_mapping else list(items)


def default_convert(data):
    """Each NumPy array or scalar in `data` as a tensor, containers kept (a tuple becomes a list)."""
    if isinstance(data, torch.Tensor):
        return data
    if _is_numpy(data) and type(data).__name__ not in ("str_", "string_"):
        if type(data).__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return _numpy_as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild(data, [default_convert(d) for d in data])
    return data


def _collate_tensors(batch):
    return torch.stack(batch, 0)


def _collate_numpy_array(batch):
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_numpy_as_tensor(b) for b in batch], collate_fn_map=default_collate_fn_map)


def _collate_leaf(batch, collate_fn_map):
    """The collated batch of non-container samples, or None when no rule of the map takes them."""
    elem = batch[0]
    elem_type = type(elem)
    if elem_type in collate_fn_map:
        return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
    for collate_type in collate_fn_map:
        if isinstance(elem, collate_type):
            return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if _is_numpy(elem) and collate_fn_map is default_collate_fn_map:
        import numpy

        if isinstance(elem, numpy.ndarray):
            return _collate_numpy_array(batch)
        if isinstance(elem, (numpy.bool_, numpy.number, numpy.object_)):
            return _numpy_as_tensor(batch)
    return None


def collate(batch, *, collate_fn_map=None):
    """torch's general collate: the first matching rule of collate_fn_map (by type, then isinstance) for
    leaves, containers collated field by field."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        out = _collate_leaf(batch, collate_fn_map)
        if out is not None:
            return out
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild(elem, {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                               for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        columns = [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        if isinstance(elem, tuple):
            return columns  # a tuple sample gives a list, as in torch
        return _rebuild(elem, columns)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


default_collate_fn_map = {
    torch.Tensor: lambda batch, *, collate_fn_map=None: _collate_tensors(batch),
    float: lambda batch, *, collate_fn_map=None: torch.tensor(batch, dtype=torch.float64),
    int: lambda batch, *, collate_fn_map=None: torch.tensor(batch),
    str: lambda batch, *, collate_fn_map=None: batch,
    bytes: lambda batch, *, collate_fn_map=None: batch,
}


def default_collate(batch):
    """The DataLoader's default collate_fn (batch: a list of samples)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
