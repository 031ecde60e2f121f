/* dtype.c: the dtype table (sizes, names, categories), torch's promotion table restricted to the
 * dtypes minitorch has, and the `minitorch.dtype` singletons. Nothing here knows about tensors. */
#include "dtype.h"

#include <structmember.h>

typedef struct {
    const char *name;         /* torch.float32 -> "float32" */
    const char *scalar_name;  /* c10::toString(ScalarType) */
    const char *c_name;       /* the C++ type name torch prints in mm's dtype message */
} dtype_info;

static const dtype_info dtype_table[MT_NUM_DTYPES] = {
    [MT_BOOL] = {"bool", "Bool", "bool"},
    [MT_UINT8] = {"uint8", "Byte", "unsigned char"},
    [MT_INT8] = {"int8", "Char", "signed char"},
    [MT_INT16] = {"int16", "Short", "short int"},
    [MT_INT32] = {"int32", "Int", "int"},
    [MT_INT64] = {"int64", "Long", "long int"},
    [MT_FLOAT32] = {"float32", "Float", "float"},
    [MT_FLOAT64] = {"float64", "Double", "double"},
    [MT_FLOAT16] = {"float16", "Half", "c10::Half"},
    [MT_BFLOAT16] = {"bfloat16", "BFloat16", "c10::BFloat16"},
};

static mt_DtypeObject dtype_objects[MT_NUM_DTYPES];

const char *
mt_dtype_name(mt_dtype d)
{
    return dtype_table[d].name;
}

const char *
mt_dtype_scalar_name(mt_dtype d)
{
    return dtype_table[d].scalar_name;
}

const char *
mt_dtype_c_name(mt_dtype d)
{
    return dtype_table[d].c_name;
}

/* What Python floats become (torch.set_default_dtype): float32 or float64. One value for the process, as in
 * torch. */
static mt_dtype default_float_dtype = MT_FLOAT32;

mt_dtype
mt_default_float_dtype(void)
{
    return default_float_dtype;
}

/* torch's promoteTypes table (c10/core/ScalarType.cpp) over minitorch's dtypes. Not the larger of two:
 * uint8 with int8 needs int16 to hold both. */
#define b1 MT_BOOL
#define u1 MT_UINT8
#define i1 MT_INT8
#define i2 MT_INT16
#define i4 MT_INT32
#define i8 MT_INT64
#define f4 MT_FLOAT32
#define f8 MT_FLOAT64
#define f2 MT_FLOAT16
#define bf MT_BFLOAT16
static const mt_dtype promotion_table[MT_NUM_DTYPES][MT_NUM_DTYPES] = {
    /*        b1  u1  i1  i2  i4  i8  f4  f8  f2  bf */
    /* b1 */ {b1, u1, i1, i2, i4, i8, f4, f8, f2, bf},
    /* u1 */ {u1, u1, i2, i2, i4, i8, f4, f8, f2, bf},
    /* i1 */ {i1, i2, i1, i2, i4, i8, f4, f8, f2, bf},
    /* i2 */ {i2, i2, i2, i2, i4, i8, f4, f8, f2, bf},
    /* i4 */ {i4, i4, i4, i4, i4, i8, f4, f8, f2, bf},
    /* i8 */ {i8, i8, i8, i8, i8, i8, f4, f8, f2, bf},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
    /* bf */ {bf, bf, bf, bf, bf, bf, f4, f8, f4, bf},
};
#undef f2
#undef bf
#undef b1
#undef u1
#undef i1
#undef i2
#undef i4
#undef i8
#undef f4
#undef f8

mt_dtype
mt_promote_types(mt_dtype a, mt_dtype b)
{
    return promotion_table[a][b];
}

int
mt_can_cast(mt_dtype from, mt_dtype to)
{
    if (mt_dtype_is_floating(from) && !mt_dtype_is_floating(to)) {
        return 0;
    }
    if (from != MT_BOOL && to == MT_BOOL) {
        return 0;
    }
    return 1;
}

PyObject *
mt_dtype_object(mt_dtype d)
{
    return (PyObject *)&dtype_objects[d];
}

int
mt_dtype_from_object(PyObject *obj, mt_dtype *out)
{
    if (mt_Dtype_Check(obj)) {
        *out = ((mt_DtypeObject *)obj)->id;
        return 0;
    }
    /* torch accepts the Python types float, int and bool where a dtype is expected */
    if (obj == (PyObject *)&PyFloat_Type) {
        *out = MT_FLOAT64;
        return 0;
    }
    if (obj == (PyObject *)&PyLong_Type) {
        *out = MT_INT64;
        return 0;
    }
    if (obj == (PyObject *)&PyBool_Type) {
        *out = MT_BOOL;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "dtype must be minitorch.dtype, not %s", Py_TYPE(obj)->tp_name);
    return -1;
}

static PyObject *
dtype_repr(mt_DtypeObject *self)
{
    return PyUnicode_FromFormat("minitorch.%s", dtype_table[self->id].name);
}

static PyObject *
dtype_is_floating_point_get(mt_DtypeObject *self, void *closure)
{
    return PyBool_FromLong(mt_dtype_is_floating(self->id));
}

static PyObject *
dtype_is_signed_get(mt_DtypeObject *self, void *closure)
{
    return PyBool_FromLong(mt_dtype_is_signed(self->id));
}

static PyObject *
dtype_is_complex_get(mt_DtypeObject *self, void *closure)
{
    Py_RETURN_FALSE;
}

static PyObject *
dtype_itemsize_get(mt_DtypeObject *self, void *closure)
{
    return PyLong_FromSize_t(mt_dtype_size(self->id));
}

static PyObject *
dtype_scalar_name_get(mt_DtypeObject *self, void *closure)
{
    return PyUnicode_FromString(dtype_table[self->id].scalar_name);
}

static PyObject *
dtype_reduce(mt_DtypeObject *self, PyObject *unused)
{
    /* pickles as the module attribute, like torch's dtypes */
    return PyUnicode_FromString(dtype_table[self->id].name);
}

static PyGetSetDef dtype_getset[] = {
    {"is_floating_point", (getter)dtype_is_floating_point_get, NULL, "True for float16, bfloat16, float32 and float64.", NULL},
    {"is_signed", (getter)dtype_is_signed_get, NULL, "True for dtypes that hold negative values (not bool or uint8).",
     NULL},
    {"is_complex", (getter)dtype_is_complex_get, NULL, "True for complex dtypes (minitorch has none).", NULL},
    {"itemsize", (getter)dtype_itemsize_get, NULL, "Bytes per element.", NULL},
    {"_scalar_name", (getter)dtype_scalar_name_get, NULL,
     "The name torch's messages give the dtype (\"Float\", \"Long\"): c10's ScalarType name.", NULL},
    {NULL},
};

static PyMethodDef dtype_methods[] = {
    {"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
    {NULL},
};

PyTypeObject mt_DtypeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.dtype",
    .tp_basicsize = sizeof(mt_DtypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = (reprfunc)dtype_repr,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
    .tp_doc = "The element type of a Tensor (minitorch.float32, minitorch.int64, ...).",
};

static PyObject *
get_default_dtype(PyObject *module, PyObject *unused)
{
    PyObject *obj = (PyObject *)&dtype_objects[default_float_dtype];
    Py_INCREF(obj);
    return obj;
}

static PyObject *
set_default_dtype(PyObject *module, PyObject *d)
{
    if (!mt_Dtype_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "invalid dtype object: only floating-point types are supported as the "
                                         "default type");
        return NULL;
    }
    if (!mt_dtype_is_floating(((mt_DtypeObject *)d)->id)) {
        PyErr_SetString(PyExc_TypeError, "only floating-point types are supported as the default type");
        return NULL;
    }
    default_float_dtype = ((mt_DtypeObject *)d)->id;
    Py_RETURN_NONE;
}

PyMethodDef mt_dtype_functions[] = {
    {"get_default_dtype", get_default_dtype, METH_NOARGS,
     "get_default_dtype() -> dtype\n\nThe dtype Python floats become (float32 unless set_default_dtype changed it)."},
    {"_set_default_dtype", set_default_dtype, METH_O,
     "_set_default_dtype(d)\n\nSets the dtype Python floats become: a floating-point dtype."},
    {NULL},
};

int
mt_dtype_init(PyObject *module)
{
    static const struct {
        const char *alias;
        mt_dtype d;
    } aliases[] = {
        {"float", MT_FLOAT32}, {"double", MT_FLOAT64}, {"int", MT_INT32}, {"long", MT_INT64},
        {"short", MT_INT16}, {"half", MT_FLOAT16},
    };

    if (PyType_Ready(&mt_DtypeType) < 0) {
        return -1;
    }
    for (int d = 0; d < MT_NUM_DTYPES; d++) {
        /* static singletons: immortal for our purposes, never deallocated */
        PyObject *obj = (PyObject *)&dtype_objects[d];
        Py_SET_TYPE(obj, &mt_DtypeType);
        Py_SET_REFCNT(obj, 1);
        dtype_objects[d].id = (mt_dtype)d;
        Py_INCREF(obj);
        if (PyModule_AddObject(module, dtype_table[d].name, obj) < 0) {
            Py_DECREF(obj);
            return -1;
        }
    }
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        PyObject *obj = (PyObject *)&dtype_objects[aliases[i].d];
        Py_INCREF(obj);
        if (PyModule_AddObject(module, aliases[i].alias, obj) < 0) {
            Py_DECREF(obj);
            return -1;
        }
    }
    Py_INCREF(&mt_DtypeType);
    if (PyModule_AddObject(module, "dtype", (PyObject *)&mt_DtypeType) < 0) {
        Py_DECREF(&mt_DtypeType);
        return -1;
    }
    return 0;
}
