"""Pickling and copy.deepcopy of tensors, ported from torch/_tensor.py (``__reduce_ex__``,
``__deepcopy__``) and torch/_utils.py (the rebuild functions, the object state helpers).

What each keeps, as in torch 2.13: the shape, strides and storage offset (a view stays a view of a
storage as large as its source's), dtype, device, requires_grad, the type of a Tensor subclass and the
instance attributes (``__dict__`` and ``__slots__``). The storage rules:

- a pickle holds each tensor's whole storage; tensors pickled together do not share memory once loaded
  (torch's pickle does the same; sharing across a pickle is torch.save's business);
- ``copy.copy`` shares the storage (the reduce arguments are reused as they are);
- ``copy.deepcopy`` copies each storage once per memo, so two views of one storage stay two views of one
  (new) storage.

A tensor pickles as its TypedStorage (minitorch/storage.py, whose pickle is the storage's bytes) and its
geometry; ``copy_storage_once`` decides which storage a deep copy lands on. save/load builds on the same
storage objects. The C core only provides the storage itself (its identity, bytes, copies and checked
views: the ``_storage_*`` methods of Tensor).
"""

import collections
import copy
import copyreg

import minitorch

__all__ = ["copy_storage_once", "deepcopy_tensor", "reduce_tensor"]


def _storage_from_bytes(data, dtype, device):
    """What unpickling a TypedStorage calls (its name is stored in pickles): a new storage holding data."""
    return minitorch.Tensor._from_storage_bytes(data, dtype, device)._typed_storage()


def copy_storage_once(t, memo):
    """A plain Tensor with t's geometry on the copy of t's storage made for ``memo`` (a dict).

    The first tensor met on a storage copies all of it; later ones become views of that copy, so tensors
    that shared a storage share its copy. The source is kept alive in the memo (as copy.deepcopy keeps
    what it copied), because the storage's key is only unique while the storage lives.
    """
    key = ("minitorch.storage", t._storage_key())
    holder = memo.get(key)
    if holder is None:
        new = t._storage_copy()
        memo[key] = new
        memo.setdefault(id(memo), []).append(t)
        return new
    return holder._storage_view(t.storage_offset(), tuple(t.size()), t.stride(), t.dtype)


# ---- pickling -----------------------------------------------------------------------------------------

def _get_obj_state(obj):
    # torch._utils._get_obj_state: the instance dict (and slots), or None/{} when there is nothing
    getstate_fn = getattr(obj, "__getstate__", None)
    if getstate_fn:
        return getstate_fn()
    slots_to_save = copyreg._slotnames(obj.__class__)
    if slots_to_save:
        return (obj.__dict__, {name: getattr(obj, name) for name in slots_to_save if hasattr(obj, name)})
    return obj.__dict__


def _set_obj_state(obj, state):
    # torch._utils._set_obj_state
    if isinstance(state, tuple):
        if not len(state) == 2:
            raise RuntimeError(f"Invalid serialized state: {state}")
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    if dict_state:
        for k, v in dict_state.items():
            setattr(obj, k, v)
    if slots_state:
        for k, v in slots_state.items():
            setattr(obj, k, v)
    return obj


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks=None, metadata=None):
    """What unpickling a Tensor calls (its name is stored in pickles; torch.save writes torch's).

    backward_hooks is the empty OrderedDict torch writes (hooks are never saved) and metadata the
    conjugate/negative bits minitorch has no use for.
    """
    from minitorch.storage import TypedStorage

    if not isinstance(storage, TypedStorage):
        raise TypeError("_rebuild_tensor_v2(): expected a storage, got {}".format(type(storage).__name__))
    t = storage._view(storage_offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    """What unpickling a meta tensor calls (torch's name is stored): a meta tensor has no storage to
    write, so none is shared and the storage offset is not kept, as in torch."""
    return minitorch.empty_strided(size, stride, dtype=dtype, device="meta", requires_grad=requires_grad)


def _rebuild_from_type_v2(func, new_type, args, state):
    """Unpickles a Tensor subclass or a tensor with attributes (torch._tensor._rebuild_from_type_v2)."""
    ret = func(*args)
    if type(ret) is not new_type:
        ret = minitorch.Tensor._make_subclass(new_type, ret, ret.requires_grad)
    setstate = getattr(ret.__class__, "__setstate__", None)
    if setstate is not None:
        ret.__setstate__(state)
    else:
        ret = _set_obj_state(ret, state)
    return ret


def _reduce_ex_internal(t):
    # torch's arguments, the empty backward_hooks included, so that torch.save's pickle is torch's
    if t.is_meta:
        return (_rebuild_meta_tensor_no_storage, (t.dtype, tuple(t.size()), t.stride(), t.requires_grad))
    return (_rebuild_tensor_v2, (t._typed_storage(), t.storage_offset(), tuple(t.size()), t.stride(),
                                 t.requires_grad, collections.OrderedDict()))


def reduce_tensor(t, proto):
    """Tensor.__reduce_ex__."""
    state = _get_obj_state(t)
    if type(t) is minitorch.Tensor and not state:
        return _reduce_ex_internal(t)
    func, args = _reduce_ex_internal(t)
    return (_rebuild_from_type_v2, (func, type(t), args, state))


# ---- copy.deepcopy ------------------------------------------------------------------------------------

def deepcopy_tensor(t, memo):
    """Tensor.__deepcopy__ (nn.Parameter has its own, as in torch)."""
    if id(t) in memo:
        return memo[id(t)]
    # a meta tensor has no storage to copy once: torch clones it
    new_tensor = t.detach().clone() if t.is_meta else copy_storage_once(t, memo)
    if type(t) is not minitorch.Tensor:
        # torch builds the copy with self.new_empty([]) and refuses a subclass whose new_empty does not
        # return the subclass (Tensor's own returns a plain Tensor)
        new_empty = getattr(type(t), "new_empty", None)
        shell = new_empty(t, []) if new_empty is not None else new_tensor
        if type(shell) is not type(t):
            raise RuntimeError(
                "The default implementation of __deepcopy__() for non-wrapper subclasses "
                "only works for subclass types that implement new_empty() and for which "
                "that function returns another instance of the same subclass. You should "
                "either properly implement new_empty() for your subclass or override "
                "__deepcopy__() if it is intended behavior for new_empty() to return "
                "an instance of a different type."
            )
        shell.data = new_tensor
        new_tensor = shell
    if t.requires_grad:
        new_tensor.requires_grad_()
    if type(t) is not minitorch.Tensor:
        for slot in copyreg._slotnames(t.__class__):
            if hasattr(t, slot):
                setattr(new_tensor, slot, copy.deepcopy(getattr(t, slot), memo))
    new_tensor.__dict__ = copy.deepcopy(t.__dict__, memo)
    memo[id(t)] = new_tensor
    return new_tensor
