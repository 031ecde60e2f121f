/* rearrange.c (python): the binding of flip, roll, repeat, tile, movedim and moveaxis (ops.def's
 * rearranging rows): the parser has read the dims; this file calls csrc/ops/rearrange.h. */
#include "../ops/rearrange.h"
#include "bind.h"

enum {
    A_INPUT,
    A_DIMS,
    A_SHIFTS,
    A_SOURCE,
    A_DESTINATION
};

static const char *const rearrange_roles[] = {"input|self", "dims|repeats", "shifts", "source", "destination", NULL};

static PyObject *
rearrange_call(const mt_call *c)
{
    mt_TensorObject *t = mt_call_arg(c, A_INPUT)->tensor;
    const mt_arg *dims = mt_call_arg(c, A_DIMS);

    switch (c->code) {
    case MT_REARRANGE_FLIP:
        return mt_flip(t, dims->nints, dims->ints);
    case MT_REARRANGE_ROLL: {
        const mt_arg *shifts = mt_call_arg(c, A_SHIFTS);
        /* dims omitted: the flattened tensor */
        return mt_roll(t, shifts->nints, shifts->ints, dims->obj != NULL ? dims->nints : 0, dims->ints);
    }
    case MT_REARRANGE_REPEAT:
        return mt_repeat(t, dims->nints, dims->ints);
    case MT_REARRANGE_TILE:
        return mt_tile(t, dims->nints, dims->ints);
    default: {
        const mt_arg *source = mt_call_arg(c, A_SOURCE), *destination = mt_call_arg(c, A_DESTINATION);
        if (c->overload == 1) {
            return mt_movedim(t, 1, &source->i, 1, &destination->i);
        }
        return mt_movedim(t, source->nints, source->ints, destination->nints, destination->ints);
    }
    }
}

const mt_binding mt_binding_rearrange = {rearrange_call, NULL, rearrange_roles};
