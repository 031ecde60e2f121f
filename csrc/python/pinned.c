/* pinned.c (python): the binding of Tensor.pin_memory, is_pinned, share_memory_ and is_shared (rows of
 * ops.def); the pinning and sharing themselves are csrc/ops/pinned.c's. */
#include "../ops/pinned.h"
#include "bind.h"

static const char *const pinned_roles[] = {"device", NULL};

static PyObject *
pinned_call(const mt_call *c)
{
    const mt_arg *device = mt_call_arg(c, 0);   /* (pin_memory's and is_pinned's only) */
    const mt_device *given = device != NULL && device->obj != NULL ? &device->device : NULL;
    int r;

    switch (c->code) {
    case MT_PINNED_PIN_MEMORY:
        return mt_tensor_pin_memory(c->self, given);
    case MT_PINNED_SHARE_MEMORY:
        return mt_tensor_share_memory_(c->self);
    case MT_PINNED_IS_SHARED:
        return PyBool_FromLong(mt_tensor_is_shared(c->self));
    default:
        break;
    }
    r = mt_tensor_is_pinned(c->self, given);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

const mt_binding mt_binding_pinned = {pinned_call, NULL, pinned_roles};
