"""RemovableHandle: what registering a hook returns (torch.utils.hooks.RemovableHandle).

A handle knows the ordered dict its hook lives in (and the dicts that hold the hook's flags, such as
``with_kwargs``) by weak reference, so a handle kept after its module is gone holds nothing alive.
``handle.remove()`` (or leaving ``with handle:``) takes the hook out; removing twice is harmless.
"""

import weakref

__all__ = ["RemovableHandle"]


class RemovableHandle:
    """A handle that removes one hook from the dict it was registered in."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if extra_dict is None:
            extra_dict = []
        elif not isinstance(extra_dict, list):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self):
        """Takes the hook out of its dict and of the flag dicts; a second call does nothing."""
        for ref in (self.hooks_dict_ref,) + self.extra_dict_ref:
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
