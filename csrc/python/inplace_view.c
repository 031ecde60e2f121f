/* inplace_view.c (python): the binding of the rows of ops.def for the in-place view ops (squeeze_,
 * unsqueeze_, t_, transpose_, swapdims_, swapaxes_, as_strided_). The parser read every argument; the op is
 * csrc/ops/inplace_view.c. */
#include "../ops/inplace_view.h"
#include "bind.h"

enum {
    R_INPUT,
    R_DIM,
    R_DIM1,
    R_SIZE,
    R_STRIDE,
    R_STORAGE_OFFSET
};

static const char *const inplace_view_roles[] = {"input|self", "dim|dim0|axis0", "dim1|axis1", "size", "stride", "storage_offset", NULL};

static PyObject *
inplace_view_call(const mt_call *c)
{
    mt_TensorObject *self = mt_call_arg(c, R_INPUT)->tensor;
    const mt_arg *dim = mt_call_arg(c, R_DIM);
    int64_t dims[2] = {0, 0};

    switch (c->code) {
    case MT_INPLACE_VIEW_SQUEEZE:
        if (dim == NULL) {
            return mt_inplace_view(self, c->code, -1, NULL, 0);
        }
        if (c->overload == 1) {
            return mt_inplace_view(self, c->code, 1, &dim->i, 1);
        }
        return mt_inplace_view(self, c->code, dim->nints, dim->ints, 0);
    case MT_INPLACE_VIEW_UNSQUEEZE:
        dims[0] = dim->i;
        return mt_inplace_view(self, c->code, 1, dims, 0);
    case MT_INPLACE_VIEW_T:
        return mt_inplace_view(self, c->code, 0, NULL, 0);
    case MT_INPLACE_VIEW_AS_STRIDED: {
        const mt_arg *size = mt_call_arg(c, R_SIZE), *stride = mt_call_arg(c, R_STRIDE);
        const mt_arg *offset = mt_call_arg(c, R_STORAGE_OFFSET);
        int has_offset = offset != NULL && offset->obj != NULL && offset->obj != Py_None;
        return mt_as_strided_inplace(self, size->nints, size->ints, stride->nints, stride->ints, has_offset,
                                     has_offset ? offset->i : 0);
    }
    default:
        dims[0] = dim->i;
        dims[1] = mt_call_arg(c, R_DIM1)->i;
        return mt_inplace_view(self, c->code, 2, dims, 0);
    }
}

const mt_binding mt_binding_inplace_view = {inplace_view_call, NULL, inplace_view_roles};
