/* pinned.c (python): the binding of Tensor.pin_memory and Tensor.is_pinned (rows of ops.def); the pinning
 * itself is csrc/ops/pinned.c's. */
#include "../ops/pinned.h"
#include "bind.h"

static const char *const pinned_roles[] = {"device", NULL};

static PyObject *
pinned_call(const mt_call *c)
{
    const mt_arg *device = mt_call_arg(c, 0);
    const mt_device *given = device->obj != NULL ? &device->device : NULL;
    int r;

    if (c->code == MT_PINNED_PIN_MEMORY) {
        return mt_tensor_pin_memory(c->self, given);
    }
    r = mt_tensor_is_pinned(c->self, given);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

const mt_binding mt_binding_pinned = {pinned_call, NULL, pinned_roles};
