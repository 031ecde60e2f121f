/* index_key.c: Tensor.__getitem__ and __setitem__ with torch's rules (torch/csrc/autograd/
 * python_variable_indexing.cpp): reading the key. Basic indices (ints, slices, None, Ellipsis, True/False,
 * 0-d integer tensors) become views built by ops/shape.c; tensor and list indices ("advanced" indexing)
 * are collected and handed to ops/index.c, which gathers them into a new tensor or scatters an assignment.
 * Assigned Python numbers are read here, with torch's overflow check. */
#include "index_key.h"

#include <string.h>

#include "../autograd/autograd.h"
#include "../autograd/record.h"
#include "../core/scalar.h"
#include "../core/tensor.h"
#include "../ops/convert.h"
#include "../ops/index.h"
#include "../ops/shape.h"
#include "tensor_data.h"

/* ---- what counts as what (torch's python_variable_indexing.cpp) ------------------------------------ */

static int
is_numpy_bool(PyObject *obj)
{
    const char *name = Py_TYPE(obj)->tp_name;
    return strcmp(name, "numpy.bool") == 0 || strcmp(name, "numpy.bool_") == 0;
}

/* THPUtils_checkLong: a Python int that is not a bool, or a NumPy integer scalar. */
static int
check_long(PyObject *obj)
{
    if (PyLong_Check(obj)) {
        return !PyBool_Check(obj);
    }
    return strncmp(Py_TYPE(obj)->tp_name, "numpy.", 6) == 0 && Py_TYPE(obj)->tp_as_number != NULL &&
           Py_TYPE(obj)->tp_as_number->nb_index != NULL && !is_numpy_bool(obj) && !PyFloat_Check(obj) &&
           !PySequence_Check(obj);
}

/* THPUtils_unpackLong, with its ValueError on overflow. */
static int
unpack_long(PyObject *obj, int64_t *out)
{
    PyObject *idx = PyNumber_Index(obj);
    int r;

    if (idx == NULL) {
        return -1;
    }
    r = mt_unpack_long(idx, out);
    Py_DECREF(idx);
    return r;
}

static int
is_bool_tensor(PyObject *obj)
{
    return mt_Tensor_Check(obj) &&
           (((mt_TensorObject *)obj)->dtype == MT_BOOL || ((mt_TensorObject *)obj)->dtype == MT_UINT8);
}

/* count_specified_dimensions: how many dims of self a tuple index consumes (a bool mask consumes its
 * ndim; None, Ellipsis and True/False consume none). */
static int64_t
count_specified_dims(PyObject *tuple)
{
    int64_t count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject *obj = PyTuple_GET_ITEM(tuple, i);
        if (mt_Tensor_Check(obj)) {
            count += is_bool_tensor(obj) ? ((mt_TensorObject *)obj)->ndim : 1;
        }
        else if (obj != Py_None && obj != Py_Ellipsis && obj != Py_True && obj != Py_False) {
            count++;
        }
    }
    return count;
}

/* treatSequenceAsTuple: NumPy's heuristic for a non-tuple sequence index such as x[[0, slice(None)]]. */
static int
treat_sequence_as_tuple(PyObject *index)
{
    Py_ssize_t n;

    if (PyTuple_Check(index)) {
        return 1;
    }
    if (mt_Tensor_Check(index) || !PySequence_Check(index)) {
        return 0;
    }
    n = PySequence_Size(index);
    if (n < 0) {
        PyErr_Clear();
        return 0;
    }
    if (n >= 32) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *obj = PySequence_GetItem(index, i);
        int yes;
        if (obj == NULL) {
            PyErr_Clear();
            return 0;
        }
        yes = mt_Tensor_Check(obj) || PySequence_Check(obj) || PySlice_Check(obj) || obj == Py_Ellipsis ||
              obj == Py_None;
        Py_DECREF(obj);
        if (yes) {
            return 1;
        }
    }
    return 0;
}

static PyObject *
wrap_tuple(PyObject *index)
{
    if (treat_sequence_as_tuple(index)) {
        return PySequence_Tuple(index);
    }
    return PyTuple_Pack(1, index);
}

static void
invalid_index(PyObject *obj)
{
    PyErr_Format(PyExc_IndexError,
                 "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices "
                 "(got %s)",
                 Py_TYPE(obj)->tp_name);
}

/* Finds the first str/bytes leaf of a nested index list: torch's infer_scalar_type rejects it. */
static int
check_sequence_leaves(PyObject *obj, int depth)
{
    Py_ssize_t n;

    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (depth > MT_MAX_DIMS || mt_Tensor_Check(obj) || (!PyList_Check(obj) && !PyTuple_Check(obj))) {
        return 0;
    }
    n = PySequence_Fast_GET_SIZE(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (check_sequence_leaves(PySequence_Fast_GET_ITEM(obj, i), depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

/* sequenceToVariable / indexing_tensor_from_data: a bool tensor when the data is all bools, else an
 * int64 tensor (floats are truncated, as torch does). */
static mt_TensorObject *
sequence_to_index(PyObject *seq)
{
    mt_TensorObject *inferred;
    mt_dtype long_dtype = MT_INT64;

    if (check_sequence_leaves(seq, 0) < 0) {
        return NULL;
    }
    inferred = mt_tensor_from_data(seq, NULL);
    if (inferred == NULL) {
        return NULL;
    }
    if (inferred->dtype == MT_BOOL || inferred->dtype == MT_INT64) {
        return inferred;
    }
    Py_DECREF(inferred);
    return mt_tensor_from_data(seq, &long_dtype);
}

/* ---- basic indexing: applySelect, applySlice, applySlicing ---------------------------------------- */

static mt_TensorObject *
apply_select(mt_TensorObject *t, int dim, int64_t index, int64_t real_dim)
{
    int64_t size;

    if (index == 0 && dim == 0 && t->ndim == 0) {
        PyErr_SetString(PyExc_IndexError,
                        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                        "C++ to convert a 0-dim tensor to a number");
        return NULL;
    }
    if (t->ndim > 0 && dim >= t->ndim) {
        /* two Ellipses can push the dim past the end: select's own range check */
        int unused;
        return mt_wrap_dim(dim, t->ndim, &unused) < 0 ? NULL : mt_select(t, unused, index);
    }
    size = dim < t->ndim ? t->sizes[dim] : 0;
    if (index < -size || index >= size) {
        PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %lld with size %lld",
                     (long long)index, (long long)real_dim, (long long)size);
        return NULL;
    }
    return mt_select(t, dim, index);
}

/* t[start:stop:step] along dim. In a tuple of indices (skip_full), a slice that takes the whole dim is
 * skipped, as torch's applySlice does: x[:, 1:] records one SliceBackward0, not two. */
static mt_TensorObject *
apply_slice(mt_TensorObject *t, int dim, PyObject *slice, int skip_full)
{
    Py_ssize_t start, stop, step;

    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) {
        return NULL;
    }
    if (step <= 0) {
        PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
        return NULL;
    }
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    /* two Ellipses can push the dim past the end: at::slice's own range check */
    if (mt_wrap_dim(dim, t->ndim, &dim) < 0) {
        return NULL;
    }
    if (skip_full && step == 1 && (start == 0 || start <= -t->sizes[dim]) &&
        (stop >= t->sizes[dim])) {
        Py_INCREF(t);
        return t;
    }
    return mt_slice(t, dim, start, stop, step);
}

/* The state of applySlicing: the view built so far and the tensor indices met on the way. An entry
 * stands for one dim of the view, except a bool mask, which stands for as many dims as it has (the plan
 * expands it); so an index is recorded at the dim it indexes less the extra dims of the masks before it,
 * as torch's list grows by one entry for a mask. */
typedef struct {
    mt_TensorObject *result;
    int nentries;
    mt_TensorObject *entries[MT_MAX_DIMS + 1];
    int have_tensors;
    int mask_extra;     /* sum over the masks recorded so far of (ndim - 1) */
} slicing;

static void
slicing_clear(slicing *s)
{
    Py_CLEAR(s->result);
    for (int i = 0; i < s->nentries; i++) {
        Py_CLEAR(s->entries[i]);
    }
    s->nentries = 0;
    s->have_tensors = 0;
}

/* recordTensorIndex: steals `index`. A bool mask covers as many dims as it has, and so does a uint8
 * one (torch's deprecated byte mask). */
static int
record_index(slicing *s, int *dim, mt_TensorObject *index)
{
    int position = *dim - s->mask_extra;
    int covered;

    covered = (index->dtype == MT_BOOL || index->dtype == MT_UINT8) && index->ndim > 0 ? index->ndim : 1;

    if (*dim >= MT_MAX_DIMS) {
        Py_DECREF(index);
        PyErr_SetString(PyExc_IndexError, "too many indices");
        return -1;
    }
    while (s->nentries <= position) {
        s->entries[s->nentries++] = NULL;
    }
    Py_XSETREF(s->entries[position], index);
    s->have_tensors = 1;
    s->mask_extra += covered - 1;
    *dim += covered;
    return 0;
}

static int
replace_result(slicing *s, mt_TensorObject *next)
{
    if (next == NULL) {
        return -1;
    }
    Py_SETREF(s->result, next);
    return 0;
}

static int
apply_slicing(mt_TensorObject *self, PyObject *tuple, slicing *s)
{
    int64_t specified = count_specified_dims(tuple);
    int dim = 0;

    s->result = NULL;
    s->nentries = 0;
    s->have_tensors = 0;
    s->mask_extra = 0;
    if (specified > self->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", self->ndim);
        return -1;
    }
    Py_INCREF(self);
    s->result = self;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        PyObject *obj = PyTuple_GET_ITEM(tuple, i);
        if (check_long(obj)) {
            int64_t v;
            if (unpack_long(obj, &v) < 0 || replace_result(s, apply_select(s->result, dim, v, i)) < 0) {
                return -1;
            }
        }
        else if (PySlice_Check(obj)) {
            if (replace_result(s, apply_slice(s->result, dim, obj, 1)) < 0) {
                return -1;
            }
            dim++;
        }
        else if (obj == Py_Ellipsis) {
            dim += (int)(self->ndim - specified);
        }
        else if (obj == Py_None) {
            if (replace_result(s, mt_unsqueeze(s->result, dim)) < 0) {
                return -1;
            }
            dim++;
        }
        else if (PyBool_Check(obj)) {
            mt_TensorObject *index;
            if (replace_result(s, mt_unsqueeze(s->result, dim)) < 0) {
                return -1;
            }
            index = mt_index_from_bool(obj == Py_True);
            if (index == NULL || record_index(s, &dim, index) < 0) {
                return -1;
            }
        }
        else if (mt_Tensor_Check(obj)) {
            mt_TensorObject *t = (mt_TensorObject *)obj;
            if (t->ndim == 0 && mt_dtype_is_integral(t->dtype, 1)) {
                if (t->dtype != MT_BOOL && t->dtype != MT_UINT8) {
                    PyObject *item = mt_tensor_item(t);
                    int64_t v;
                    int r;
                    if (item == NULL) {
                        return -1;
                    }
                    r = unpack_long(item, &v);
                    Py_DECREF(item);
                    if (r < 0 || replace_result(s, apply_select(s->result, dim, v, i)) < 0) {
                        return -1;
                    }
                }
                else {
                    mt_TensorObject *index;
                    int truth;
                    PyObject *item;
                    if (replace_result(s, mt_unsqueeze(s->result, dim)) < 0) {
                        return -1;
                    }
                    item = mt_tensor_item(t);
                    if (item == NULL) {
                        return -1;
                    }
                    truth = PyObject_IsTrue(item);
                    Py_DECREF(item);
                    index = mt_index_from_bool(truth);
                    if (index == NULL || record_index(s, &dim, index) < 0) {
                        return -1;
                    }
                }
            }
            else {
                Py_INCREF(t);
                if (record_index(s, &dim, t) < 0) {
                    return -1;
                }
            }
        }
        else if (PySequence_Check(obj)) {
            mt_TensorObject *index = sequence_to_index(obj);
            if (index == NULL || record_index(s, &dim, index) < 0) {
                return -1;
            }
        }
        else {
            PyObject *idx = PyNumber_Index(obj);
            int64_t v;
            if (idx == NULL) {
                PyErr_Clear();
                invalid_index(obj);
                return -1;
            }
            Py_DECREF(idx);
            if (unpack_long(obj, &v) < 0 || replace_result(s, apply_select(s->result, dim, v, i)) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* ---- Python numbers assigned into tensors ----------------------------------------------------------- */

/* valueToTensor for a non-tensor value: 1 with *out set, -1 with torch's error. */
static int
value_to_scalar(mt_TensorObject *self, PyObject *value, mt_scalar *out)
{
    if (PyBool_Check(value) || is_numpy_bool(value)) {
        int truth = PyObject_IsTrue(value);
        if (truth < 0) {
            return -1;
        }
        if (is_numpy_bool(value)) {
            /* torch: numpy.bool is not an int, a bool or a float to the indexing code */
            goto cannot;
        }
        out->kind = MT_BOOL;
        out->v.i = truth;
    }
    else if (check_long(value)) {
        int64_t v;
        if (unpack_long(value, &v) < 0) {
            return -1;
        }
        out->kind = MT_INT64;
        out->v.i = v;
    }
    else if (PyFloat_Check(value)) {
        out->kind = MT_FLOAT64;
        out->v.d = PyFloat_AS_DOUBLE(value);
    }
    else if (PyComplex_Check(value)) {
        Py_complex z = PyComplex_AsCComplex(value);
        if (z.imag != 0.0 && self->dtype != MT_BOOL) {
            return mt_value_overflow_error(mt_scalar_checked_type_name(self->dtype));
        }
        out->kind = MT_FLOAT64;
        out->v.d = z.real != 0.0 || z.imag == 0.0 ? z.real : 1.0;
    }
    else {
        goto cannot;
    }
    out->is_uint64 = 0;
    if (mt_scalar_checked(*out, self->dtype, out) < 0) {
        return -1;
    }
    return 1;

cannot : {
    char tname[64];
    mt_tensor_type_string(self, tname, sizeof(tname));
    PyErr_Format(PyExc_TypeError, "can't assign a %s to a %s", Py_TYPE(value)->tp_name, tname);
    return -1;
}
}

/* ---- the entry points ---------------------------------------------------------------------------------- */

PyObject *
mt_tensor_getitem(PyObject *self_obj, PyObject *index)
{
    mt_TensorObject *self = (mt_TensorObject *)self_obj;
    PyObject *tuple;
    slicing s;
    PyObject *result = NULL;

    /* the simple forms first, as torch does */
    if (index == Py_None) {
        return (PyObject *)mt_unsqueeze(self, 0);
    }
    if (index == Py_Ellipsis) {
        return (PyObject *)mt_alias(self);
    }
    if (check_long(index)) {
        int64_t v;
        if (unpack_long(index, &v) < 0) {
            return NULL;
        }
        return (PyObject *)apply_select(self, 0, v, 0);
    }
    if (PySlice_Check(index)) {
        return (PyObject *)apply_slice(self, 0, index, 0);
    }
    tuple = wrap_tuple(index);
    if (tuple == NULL) {
        return NULL;
    }
    if (apply_slicing(self, tuple, &s) < 0) {
        goto done;
    }
    if (!s.have_tensors) {
        if (s.result == self) {
            result = (PyObject *)mt_alias(self);
        }
        else {
            result = (PyObject *)s.result;
            Py_INCREF(result);
        }
        goto done;
    }
    result = mt_index_gather(s.result, s.entries, s.nentries);

done:
    slicing_clear(&s);
    Py_DECREF(tuple);
    return result;
}

/* x[i] = v writes through a view of x: torch's error for a leaf that requires grad. 0 or -1. */
static int
setitem_autograd_checks(mt_TensorObject *self)
{
    if (mt_grad_enabled() && self->grad_fn == NULL && self->requires_grad) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a view of a leaf Variable that requires grad is being used in an in-place operation.");
        return -1;
    }
    return 0;
}

int
mt_tensor_setitem(PyObject *self_obj, PyObject *index, PyObject *value_obj)
{
    mt_TensorObject *self = (mt_TensorObject *)self_obj;
    mt_TensorObject *value = NULL;
    mt_TensorObject *target = NULL;
    mt_scalar scalar;
    const mt_scalar *sp = NULL;
    PyObject *tuple = NULL;
    slicing s;
    int r = -1;

    s.result = NULL;
    s.nentries = 0;
    s.have_tensors = 0;
    if (value_obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support deleting items");
        return -1;
    }
    /* valueToTensor comes first: a number that does not fit fails before the index is looked at */
    if (mt_Tensor_Check(value_obj)) {
        value = (mt_TensorObject *)value_obj;
        Py_INCREF(value);
    }
    else {
        if (value_to_scalar(self, value_obj, &scalar) < 0) {
            return -1;
        }
        sp = &scalar;
    }
    if (index == Py_False) {
        r = 0;
        goto done;
    }
    if (index == Py_Ellipsis) {
        target = mt_alias(self);
    }
    else if (index == Py_None || index == Py_True) {
        target = mt_unsqueeze(self, 0);
    }
    else if (check_long(index)) {
        int64_t v;
        if (unpack_long(index, &v) < 0) {
            goto done;
        }
        target = apply_select(self, 0, v, 0);
    }
    else if (PySlice_Check(index)) {
        target = apply_slice(self, 0, index, 0);
    }
    else {
        tuple = wrap_tuple(index);
        if (tuple == NULL || apply_slicing(self, tuple, &s) < 0) {
            goto done;
        }
        if (s.have_tensors) {
            mt_TensorObject *stripped = NULL;
            if (value != NULL) {
                stripped = mt_index_strip_leading_ones(value);
                if (stripped == NULL) {
                    goto done;
                }
            }
            /* index_put_ writes the sliced tensor itself: torch's check of that tensor (a leaf, or a view
             * of one) */
            r = mt_ag_check_inplace(s.result) < 0
                    ? -1
                    : mt_index_put(s.result, s.entries, s.nentries, stripped, sp);
            Py_XDECREF(stripped);
            goto done;
        }
        target = s.result;
        Py_INCREF(target);
    }
    if (target == NULL || setitem_autograd_checks(self) < 0) {
        goto done;
    }
    r = mt_index_copy_to(target, value, sp);
    if (r == 0) {
        /* a copy_ into the view, recorded as torch does (CopySlices on x when x or v is in the graph) */
        r = mt_ag_copy(target, value);
    }

done:
    if (r == 0 && mt_ag_bump(self) < 0) {
        r = -1;
    }
    Py_XDECREF(target);
    Py_XDECREF(value);
    Py_XDECREF(tuple);
    slicing_clear(&s);
    return r;
}

