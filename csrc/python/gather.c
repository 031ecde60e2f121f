/* gather.c (python): the binding of the indexing rows of ops.def along one dim: gather, scatter (its
 * src and value overloads, reduce=), scatter_add, scatter_reduce, index_select, index_add, index_reduce,
 * put and the in-place methods. The
 * parser has read every argument; this file picks csrc/ops/gather.h's entry point for the row and the
 * overload that matched, and reads reduce='add' / 'multiply'; and of index_fill, index_copy, masked_fill,
 * masked_select, masked_scatter and take. */
#include <string.h>

#include "../ops/gather.h"
#include "../ops/index.h"
#include "../ops/masked.h"
#include "bind.h"
#include "../core/warn.h"

enum {
    G_INPUT,
    G_DIM,
    G_INDEX,
    G_SRC,
    G_REDUCE,
    G_ALPHA,
    G_SPARSE_GRAD,
    G_OUT,
    G_INDICES,
    G_VALUES,
    G_ACCUMULATE,
    G_INCLUDE_SELF
};

static const char *const gather_roles[] = {"input", "dim", "index|mask", "src|value|source", "reduce", "alpha",
                                           "sparse_grad", "out", "indices", "values", "accumulate", "include_self",
                                           NULL};

static const char reduce_warning[] =
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch "
    "release. Use torch.scatter_reduce instead for more reduction options.";

/* reduce= of scatter: 0 with *mode set (COPY when not given), or -1 with torch's error. */
static int
reduce_mode(const mt_call *c, int tensor_src, mt_index_dim_mode *mode)
{
    static int warned = 0;
    const mt_arg *reduce = mt_call_arg(c, G_REDUCE);

    *mode = MT_INDEX_DIM_COPY;
    if (reduce == NULL || reduce->obj == NULL) {
        return 0;
    }
    if (tensor_src && !warned) {
        warned = 1;
        if (mt_warn(PyExc_UserWarning, reduce_warning) < 0) {
            return -1;
        }
    }
    if (strcmp(reduce->str, "add") == 0) {
        *mode = MT_INDEX_DIM_ADD;
    }
    else if (strcmp(reduce->str, "multiply") == 0) {
        *mode = MT_INDEX_DIM_MULTIPLY;
    }
    else {
        PyErr_SetString(PyExc_RuntimeError, "reduce argument must be either add or multiply.");
        return -1;
    }
    return 0;
}

static PyObject *
gather_call(const mt_call *c)
{
    mt_TensorObject *self = mt_call_arg(c, G_INPUT)->tensor;
    const mt_arg *dim_arg = mt_call_arg(c, G_DIM);
    int64_t dim = dim_arg != NULL ? dim_arg->i : 0;
    const mt_arg *index_arg = mt_call_arg(c, G_INDEX);
    mt_TensorObject *index = index_arg != NULL ? index_arg->tensor : NULL;   /* none for index_put */
    const mt_arg *src = mt_call_arg(c, G_SRC);
    int inplace = c->variant == MT_V_INPLACE_METHOD || c->variant == MT_V_INPLACE_FUNCTION;
    mt_index_dim_mode mode;

    if (mt_bind_refuse_out(c, G_OUT) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_GATHER_GATHER: {
        const mt_arg *sparse = mt_call_arg(c, G_SPARSE_GRAD);
        if (sparse != NULL && sparse->b) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "gather(): sparse_grad=True (a sparse gradient) is not supported by minitorch yet");
            return NULL;
        }
        return mt_gather(self, dim, index);
    }
    case MT_GATHER_SCATTER: {
        int tensor_src = !mt_call_is_scalar(c, G_SRC);
        if (reduce_mode(c, tensor_src, &mode) < 0) {
            return NULL;
        }
        return mt_scatter(self, dim, index, tensor_src ? src->tensor : NULL, src->scalar, mode,
                          mode != MT_INDEX_DIM_COPY, 0, inplace);
    }
    case MT_GATHER_SCATTER_ADD:
        return mt_scatter(self, dim, index, src->tensor, src->scalar, MT_INDEX_DIM_ADD, 0, 1, inplace);
    case MT_GATHER_INDEX_SELECT:
        return mt_index_select(self, dim, index);
    case MT_GATHER_MASKED_FILL: {
        int tensor_value = !mt_call_is_scalar(c, G_SRC);
        return mt_masked_fill(self, index, tensor_value ? src->tensor : NULL, src->scalar, inplace);
    }
    case MT_GATHER_MASKED_SELECT:
        return mt_masked_select(self, index);
    case MT_GATHER_MASKED_SCATTER:
        return mt_masked_scatter(self, index, src->tensor, inplace);
    case MT_GATHER_TAKE:
        return mt_take(self, index);
    case MT_GATHER_INDEX_FILL: {
        int tensor_value = !mt_call_is_scalar(c, G_SRC);
        /* every minitorch dtype is real: torch's refusal, after its check of the index's dtype */
        if (!tensor_value && src->is_complex && index->dtype == MT_INT64) {
            PyErr_SetString(PyExc_RuntimeError,
                            "index_fill_(): Converting complex Scalar to non-complex type is not supported");
            return NULL;
        }
        return mt_index_fill(self, dim, index, tensor_value ? src->tensor : NULL, src->scalar, inplace);
    }
    case MT_GATHER_INDEX_PUT: {
        const mt_arg *indices = mt_call_arg(c, G_INDICES);
        mt_TensorObject *entries[MT_MAX_DIMS + 1];
        if (indices->ntensors > MT_MAX_DIMS) {
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d (got %zd)", self->ndim,
                         indices->ntensors);
            return NULL;
        }
        for (Py_ssize_t k = 0; k < indices->ntensors; k++) {
            entries[k] = (mt_TensorObject *)indices->tensors[k];
        }
        return mt_index_put_op(self, entries, (int)indices->ntensors, mt_call_arg(c, G_VALUES)->tensor,
                               mt_call_arg(c, G_ACCUMULATE)->b, inplace);
    }
    case MT_GATHER_INDEX_COPY:
        return mt_index_copy(self, dim, index, src->tensor, inplace);
    case MT_GATHER_SCATTER_REDUCE:
        return mt_scatter_reduce(self, dim, index, src->tensor, mt_call_arg(c, G_REDUCE)->str,
                                 mt_call_arg(c, G_INCLUDE_SELF)->b, inplace);
    case MT_GATHER_INDEX_REDUCE:
        return mt_index_reduce(self, dim, index, src->tensor, mt_call_arg(c, G_REDUCE)->str,
                               mt_call_arg(c, G_INCLUDE_SELF)->b, inplace);
    case MT_GATHER_PUT:
        return mt_put(self, index, src->tensor, mt_call_arg(c, G_ACCUMULATE)->b, inplace);
    default:
        return mt_index_add(self, dim, index, src->tensor, mt_call_arg(c, G_ALPHA)->scalar, inplace);
    }
}

const mt_binding mt_binding_gather = {gather_call, NULL, gather_roles};
