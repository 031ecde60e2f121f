/* factory.c (python): the binding of the factory rows of ops.def (zeros, ones, empty and their *_like
 * forms). The parser has read the size, the input and every option's type and value (dtype, device,
 * requires_grad, memory_format; layout and pin_memory only checked: minitorch has one layout and no pinned
 * memory); out= is refused next, then csrc/ops/factory.h makes the tensor with torch's checks. */
#include "../ops/factory.h"
#include "bind.h"

enum {
    F_SIZE,
    F_INPUT,
    F_DTYPE,
    F_DEVICE,
    F_REQUIRES_GRAD,
    F_MEMORY_FORMAT,
    F_OUT
};

static const char *const factory_roles[] = {"size", "input", "dtype", "device", "requires_grad", "memory_format",
                                            "out", NULL};

static PyObject *
factory_call(const mt_call *c)
{
    const mt_arg *device = mt_call_arg(c, F_DEVICE);
    const mt_arg *format = mt_call_arg(c, F_MEMORY_FORMAT);
    const mt_arg *input = mt_call_arg(c, F_INPUT);
    mt_factory_fill fill = (mt_factory_fill)(c->code & ~MT_FACTORY_LIKE);
    mt_factory_options opt;

    if (mt_bind_refuse_out(c, F_OUT) < 0) {
        return NULL;
    }
    opt.dtype = mt_call_arg(c, F_DTYPE)->dtype;
    opt.has_device = device->obj != NULL;
    opt.device = device->device;
    opt.requires_grad = mt_call_arg(c, F_REQUIRES_GRAD)->b;
    if (input != NULL) {
        opt.memory_format = format->obj != NULL ? format->memory_format : MT_PRESERVE_FORMAT;
        return mt_factory_like(fill, input->tensor, &opt);
    }
    opt.memory_format = format != NULL && format->obj != NULL ? format->memory_format : MT_CONTIGUOUS_FORMAT;
    {
        const mt_arg *size = mt_call_arg(c, F_SIZE);
        return mt_factory_sized(fill, size->nints, size->ints, &opt);
    }
}

const mt_binding mt_binding_factory = {factory_call, NULL, factory_roles};
