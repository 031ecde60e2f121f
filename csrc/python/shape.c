/* shape.c (python): the binding of the shape rows of ops.def: the views (view, reshape, expand, transpose,
 * permute, squeeze, flatten, narrow, select, as_strided, unfold, ...), the tuples of views (unbind, chunk, split), clone and
 * contiguous, the joins (cat, stack, hstack, vstack), and tril, triu and diag. The parser has read every argument's type; this
 * file picks the C entry point of csrc/ops/shape.h for the overload that matched. One piece of torch's
 * Python is here too: Tensor.split is a Python function in torch that reads a one-element tensor as an int
 * and sends anything that is not an int to split_with_sizes. */
#include "../ops/convert.h"
#include "../ops/dispatch.h"
#include "../ops/shape.h"
#include "bind.h"

enum {
    S_INPUT,
    S_DTYPE,
    S_SIZE,
    S_OTHER,
    S_DIM,
    S_DIM1,
    S_START,
    S_LENGTH,
    S_CHUNKS,
    S_SPLIT,
    S_TENSORS,
    S_MEMORY_FORMAT,
    S_OUT,
    S_OFFSET,
    S_DIM2
};

/* as_strided's and unfold's parameters share the slots of others (a binding has at most MT_BIND_MAX_ROLES) */
#define S_STRIDE S_LENGTH
#define S_STORAGE_OFFSET S_START
#define S_STEP S_CHUNKS

static const char *const shape_roles[] = {
    "input|self|tensor", "dtype", "size|shape|dims|sizes", "other", "dim|dim0|axis0|start_dim|dimension", "dim1|axis1|end_dim",
    "start|index|storage_offset", "length|stride", "chunks|step", "split_size|split_size_or_sections", "tensors", "memory_format", "out", "offset", "dim2", NULL};

static int64_t
int_of(const mt_call *c, int role, int64_t dflt)
{
    const mt_arg *a = mt_call_arg(c, role);
    return a != NULL && a->obj != NULL ? a->i : dflt;
}

/* Tensor.split(split_size, dim): torch's Python reads a one-element tensor with int(), then calls split
 * for an int and split_with_sizes for anything else, each parsing its own arguments. */
static PyObject *
split_call(mt_TensorObject *self, PyObject *split, PyObject *dim)
{
    static mt_parser by_size = MT_PARSER("split(Tensor input, SymInt split_size, int64_t dim=0)");
    static mt_parser by_sizes = MT_PARSER("split_with_sizes(Tensor input, IntArrayRef split_sizes, int64_t dim=0)");
    PyObject *as_int = NULL;
    PyObject *args[3];
    mt_parsed p;
    PyObject *result = NULL;
    int by_int;

    if (split == NULL) {
        /* None: the parser hands a PyObject* given as None over as omitted */
        split = Py_None;
    }
    if (mt_Tensor_Check(split) && mt_tensor_numel((mt_TensorObject *)split) == 1) {
        if ((as_int = PyNumber_Long(split)) == NULL) {
            return NULL;
        }
        split = as_int;
    }
    by_int = mt_arg_is_int(split);
    args[0] = (PyObject *)self;
    args[1] = split;
    args[2] = dim;
    if (mt_parse(by_int ? &by_size : &by_sizes, args, dim != NULL ? 3 : 2, NULL, &p) == 0) {
        result = by_int ? mt_split(self, p.arg[1].i, p.arg[2].i)
                        : mt_split_with_sizes(self, p.arg[1].nints, p.arg[1].ints, p.arg[2].i);
        mt_parsed_clear(&p);
    }
    Py_XDECREF(as_int);
    return result;
}

static PyObject *
shape_call(const mt_call *c)
{
    mt_TensorObject *self = c->code < MT_SHAPE_CAT ? mt_call_arg(c, S_INPUT)->tensor : NULL;
    const mt_arg *size = mt_call_arg(c, S_SIZE);
    const mt_arg *other = mt_call_arg(c, S_OTHER);
    const mt_arg *format = mt_call_arg(c, S_MEMORY_FORMAT);
    const mt_arg *tensors = mt_call_arg(c, S_TENSORS);
    mt_TensorObject *const *items = tensors != NULL ? (mt_TensorObject *const *)tensors->tensors : NULL;
    Py_ssize_t n = tensors != NULL ? tensors->ntensors : 0;

    switch (c->code) {
    case MT_SHAPE_VIEW:
        if (size == NULL) {
            return (PyObject *)mt_view_dtype(self, mt_call_arg(c, S_DTYPE)->dtype);
        }
        return (PyObject *)mt_view(self, size->nints, size->ints);
    case MT_SHAPE_VIEW_AS:
        return (PyObject *)mt_view(self, other->tensor->ndim, other->tensor->sizes);
    case MT_SHAPE_RESHAPE:
        return (PyObject *)mt_reshape(self, size->nints, size->ints);
    case MT_SHAPE_RESHAPE_AS:
        return (PyObject *)mt_reshape(self, other->tensor->ndim, other->tensor->sizes);
    case MT_SHAPE_EXPAND:
        /* implicit= is an autograd detail without effect here */
        return (PyObject *)mt_expand(self, size->nints, size->ints);
    case MT_SHAPE_EXPAND_AS:
        return (PyObject *)mt_expand(self, other->tensor->ndim, other->tensor->sizes);
    case MT_SHAPE_T:
        return (PyObject *)mt_t(self);
    case MT_SHAPE_TRANSPOSE:
        return (PyObject *)mt_transpose(self, int_of(c, S_DIM, 0), int_of(c, S_DIM1, 0));
    case MT_SHAPE_PERMUTE:
        return (PyObject *)mt_permute(self, size->nints, size->ints);
    case MT_SHAPE_UNSQUEEZE:
        return (PyObject *)mt_unsqueeze(self, int_of(c, S_DIM, 0));
    case MT_SHAPE_SQUEEZE: {
        const mt_arg *dim = mt_call_arg(c, S_DIM);
        if (dim == NULL) {
            return (PyObject *)mt_squeeze(self, -1, NULL);
        }
        if (c->overload == 1) {
            return (PyObject *)mt_squeeze(self, 1, &dim->i);
        }
        return (PyObject *)mt_squeeze(self, dim->nints, dim->ints);
    }
    case MT_SHAPE_FLATTEN:
        return (PyObject *)mt_flatten(self, int_of(c, S_DIM, 0), int_of(c, S_DIM1, -1));
    case MT_SHAPE_UNFLATTEN:
        return (PyObject *)mt_unflatten(self, int_of(c, S_DIM, 0), size->nints, size->ints);
    case MT_SHAPE_CONTIGUOUS:
        return (PyObject *)mt_contiguous(self, format->memory_format);
    case MT_SHAPE_CLONE:
        return (PyObject *)mt_clone_in_format(self, format->obj != NULL ? format->memory_format : MT_PRESERVE_FORMAT);
    case MT_SHAPE_NARROW: {
        const mt_arg *start = mt_call_arg(c, S_START);
        int64_t value = start->i;
        if (c->overload == 1) {
            /* narrow(dim, Tensor start, length): the start tensor must hold one integer */
            PyObject *item;
            int r;
            if (start->tensor->ndim != 0 || !mt_dtype_is_integral(start->tensor->dtype, 0)) {
                PyErr_SetString(PyExc_RuntimeError, "start must be an 0-dim integral Tensor.");
                return NULL;
            }
            if ((item = mt_tensor_item(start->tensor)) == NULL) {
                return NULL;
            }
            value = PyLong_AsLongLong(item);
            r = value == -1 && PyErr_Occurred() ? -1 : 0;
            Py_DECREF(item);
            if (r < 0) {
                return NULL;
            }
        }
        return (PyObject *)mt_narrow(self, int_of(c, S_DIM, 0), value, int_of(c, S_LENGTH, 0));
    }
    case MT_SHAPE_DIAGONAL:
        return (PyObject *)mt_diagonal(self, int_of(c, S_OFFSET, 0), int_of(c, S_DIM1, 0), int_of(c, S_DIM2, 1));
    case MT_SHAPE_SELECT:
        return (PyObject *)mt_select(self, int_of(c, S_DIM, 0), int_of(c, S_START, 0));
    case MT_SHAPE_UNBIND:
        return mt_unbind(self, int_of(c, S_DIM, 0));
    case MT_SHAPE_CHUNK:
        return mt_chunk(self, int_of(c, S_CHUNKS, 0), int_of(c, S_DIM, 0));
    case MT_SHAPE_SPLIT:
        return split_call(self, mt_call_given(c, S_SPLIT), mt_call_given(c, S_DIM));
    case MT_SHAPE_AS_STRIDED: {
        const mt_arg *stride = mt_call_arg(c, S_STRIDE), *offset = mt_call_arg(c, S_STORAGE_OFFSET);
        int has_offset = offset != NULL && offset->obj != NULL && offset->obj != Py_None;
        return (PyObject *)mt_as_strided(self, size->nints, size->ints, stride->nints, stride->ints, has_offset,
                                         has_offset ? offset->i : 0);
    }
    case MT_SHAPE_UNFOLD:
        return (PyObject *)mt_unfold(self, int_of(c, S_DIM, 0), size->i, int_of(c, S_STEP, 0));
    default:
        break;
    }
    if (mt_bind_refuse_out(c, S_OUT) < 0) {
        return NULL;
    }
    switch (c->code) {
    case MT_SHAPE_CAT:
        return (PyObject *)mt_cat(n, items, int_of(c, S_DIM, 0));
    case MT_SHAPE_STACK:
        return (PyObject *)mt_stack(n, items, int_of(c, S_DIM, 0));
    case MT_SHAPE_HSTACK:
        return (PyObject *)mt_hstack(n, items);
    default:
        return (PyObject *)mt_vstack(n, items);
    }
}

const mt_binding mt_binding_shape = {shape_call, NULL, shape_roles};

/* tril, triu (codes 0, 1; their in-place forms) and diag (code 2). */
enum {
    TRI_INPUT,
    TRI_DIAGONAL,
    TRI_OUT
};

static const char *const triangle_roles[] = {"input", "diagonal", "out", NULL};

static PyObject *
triangle_call(const mt_call *c)
{
    mt_TensorObject *self = mt_call_arg(c, TRI_INPUT)->tensor;
    int64_t diagonal = int_of(c, TRI_DIAGONAL, 0);

    if (mt_bind_refuse_out(c, TRI_OUT) < 0) {
        return NULL;
    }
    if (c->code == 2) {
        return mt_diag(self, diagonal);
    }
    return mt_triangle(self, c->code, diagonal, c->variant == MT_V_INPLACE_METHOD);
}

const mt_binding mt_binding_triangle = {triangle_call, NULL, triangle_roles};

/* _infer_size(a, b): the shape two shapes broadcast to, with the elementwise ops' message when they do not
 * (torch.broadcast_tensors checks with it). */
enum {
    INFER_A,
    INFER_B
};

static const char *const infer_size_roles[] = {"a", "b", NULL};

static PyObject *
infer_size_call(const mt_call *c)
{
    const mt_arg *a = mt_call_arg(c, INFER_A), *b = mt_call_arg(c, INFER_B);
    int64_t shape[MT_MAX_DIMS];
    int n;

    if (a->nints > MT_MAX_DIMS || b->nints > MT_MAX_DIMS) {
        mt_raise_too_many_dims(a->nints > b->nints ? a->nints : b->nints);
        return NULL;
    }
    if (mt_broadcast_shapes(a->nints, a->ints, b->nints, b->ints, &n, shape) < 0) {
        return NULL;
    }
    return mt_size_new(n, shape);
}

const mt_binding mt_binding_infer_size = {infer_size_call, NULL, infer_size_roles};
