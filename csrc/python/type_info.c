/* type_info.c: minitorch.finfo and minitorch.iinfo, torch's THPFInfo and THPIInfo
 * (torch/csrc/TypeInfo.cpp): an object holding one dtype, whose attributes are that dtype's
 * std::numeric_limits as torch reads them, printed as torch's ostream prints doubles (six significant
 * digits). The constructors read their arguments with the one parser, so their messages are torch's; the
 * dtype facts (which dtypes are floating or integral, integer ranges) are core/scalar_type.h's. */
#include <float.h>
#include <math.h>

#include "../core/dtype.h"
#include "argparse.h"
#include "type_info.h"

typedef struct {
    PyObject_HEAD
    mt_dtype type;
} type_info_object;

static PyTypeObject finfo_type;
static PyTypeObject iinfo_type;

/* std::numeric_limits of the floating dtypes: digits10 gives torch's resolution, 10**-digits10. */
typedef struct {
    int digits10;
    double eps, max, tiny;
} float_limits;

static float_limits
limits_of(mt_dtype d)
{
    switch (d) {
    case MT_FLOAT16:
        return (float_limits){3, 0.0009765625, 65504.0, 6.103515625e-05};
    case MT_BFLOAT16:
        /* the largest finite bfloat16 is 0x7f7f; its smallest normal is float32's */
        return (float_limits){2, 0.0078125, 3.3895313892515355e+38, FLT_MIN};
    case MT_FLOAT32:
        return (float_limits){FLT_DIG, FLT_EPSILON, FLT_MAX, FLT_MIN};
    default:
        return (float_limits){DBL_DIG, DBL_EPSILON, DBL_MAX, DBL_MIN};
    }
}

static PyObject *
type_info_new(PyTypeObject *type, mt_dtype d)
{
    type_info_object *self = (type_info_object *)type->tp_alloc(type, 0);

    if (self != NULL) {
        self->type = d;
    }
    return (PyObject *)self;
}

static mt_parser finfo_parser = MT_PARSER("finfo(ScalarType type)", "finfo()");
static mt_parser iinfo_parser = MT_PARSER("iinfo(ScalarType type)");

static PyObject *
finfo_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    mt_parsed p;
    mt_dtype d;

    if (mt_parse(&finfo_parser, args, PyVectorcall_NARGS(nargsf), kwnames, &p) < 0) {
        return NULL;
    }
    d = p.index == 1 ? mt_default_float_dtype() : p.arg[0].dtype;
    mt_parsed_clear(&p);
    if (!mt_dtype_is_floating(d)) {
        return PyErr_Format(PyExc_TypeError,
                            "torch.finfo() requires a floating point input type. Use torch.iinfo to handle '%s'",
                            ((PyTypeObject *)type)->tp_name);
    }
    return type_info_new((PyTypeObject *)type, d);
}

static PyObject *
iinfo_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    mt_parsed p;
    mt_dtype d;

    if (mt_parse(&iinfo_parser, args, PyVectorcall_NARGS(nargsf), kwnames, &p) < 0) {
        return NULL;
    }
    d = p.arg[0].dtype;
    mt_parsed_clear(&p);
    if (d == MT_BOOL) {
        PyErr_SetString(PyExc_TypeError, "torch.bool is not supported by torch.iinfo");
        return NULL;
    }
    if (!mt_dtype_is_integral(d, 0)) {
        return PyErr_Format(PyExc_TypeError,
                            "torch.iinfo() requires an integer input type. Use torch.finfo to handle '%s'",
                            ((PyTypeObject *)type)->tp_name);
    }
    return type_info_new((PyTypeObject *)type, d);
}

/* finfo(...) and iinfo(...) through tp_new (finfo.__new__(finfo), a call that does not use vectorcall):
 * the type's vectorcall, with the arguments laid out as a vector. */
static PyObject *
type_info_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    return PyVectorcall_Call((PyObject *)type, args, kwargs);
}

static PyObject *
type_info_bits_get(type_info_object *self, void *closure)
{
    return PyLong_FromSize_t(mt_dtype_size(self->type) * 8);
}

static PyObject *
type_info_dtype_get(type_info_object *self, void *closure)
{
    return PyUnicode_FromString(mt_dtype_name(self->type));
}

static PyObject *
finfo_eps_get(type_info_object *self, void *closure)
{
    return PyFloat_FromDouble(limits_of(self->type).eps);
}

static PyObject *
finfo_max_get(type_info_object *self, void *closure)
{
    return PyFloat_FromDouble(limits_of(self->type).max);
}

static PyObject *
finfo_min_get(type_info_object *self, void *closure)
{
    return PyFloat_FromDouble(-limits_of(self->type).max);
}

static PyObject *
finfo_tiny_get(type_info_object *self, void *closure)
{
    return PyFloat_FromDouble(limits_of(self->type).tiny);
}

static PyObject *
finfo_resolution_get(type_info_object *self, void *closure)
{
    return PyFloat_FromDouble(pow(10.0, -limits_of(self->type).digits10));
}

/* The integer dtype's range (scalar_type.h's, which stops at int32). */
static void
int_range(mt_dtype d, int64_t *lo, int64_t *hi)
{
    if (d == MT_INT64) {
        *lo = INT64_MIN;
        *hi = INT64_MAX;
    }
    else {
        mt_dtype_int_range(d, lo, hi);
    }
}

static PyObject *
iinfo_max_get(type_info_object *self, void *closure)
{
    int64_t lo, hi;

    int_range(self->type, &lo, &hi);
    return PyLong_FromLongLong(hi);
}

static PyObject *
iinfo_min_get(type_info_object *self, void *closure)
{
    int64_t lo, hi;

    int_range(self->type, &lo, &hi);
    return PyLong_FromLongLong(lo);
}

/* torch compares the dtypes only (finfo and iinfo alike); there is no ordering and no hash. */
static PyObject *
type_info_richcompare(PyObject *a, PyObject *b, int op)
{
    int same;

    if (op != Py_EQ && op != Py_NE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    same = a == b || ((Py_TYPE(b) == &finfo_type || Py_TYPE(b) == &iinfo_type) &&
                      ((type_info_object *)a)->type == ((type_info_object *)b)->type);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* One "name=value" field of the repr: the value as torch's ostream prints a double (%g). */
static int
append_number(PyObject *parts, const char *name, PyObject *value)
{
    double v = value != NULL ? PyFloat_AsDouble(value) : -1.0;
    char *text;
    PyObject *part;
    int r;

    Py_XDECREF(value);
    if (value == NULL || (v == -1.0 && PyErr_Occurred())) {
        return -1;
    }
    text = PyOS_double_to_string(v, 'g', 6, 0, NULL);
    if (text == NULL) {
        return -1;
    }
    part = PyUnicode_FromFormat("%s=%s", name, text);
    PyMem_Free(text);
    if (part == NULL) {
        return -1;
    }
    r = PyList_Append(parts, part);
    Py_DECREF(part);
    return r;
}

static PyObject *
join_fields(const char *prefix, PyObject *parts, mt_dtype d)
{
    PyObject *sep = NULL, *body = NULL, *result = NULL;

    sep = PyUnicode_FromString(", ");
    if (sep == NULL) {
        goto error;
    }
    body = PyUnicode_Join(sep, parts);
    if (body == NULL) {
        goto error;
    }
    result = PyUnicode_FromFormat("%s(%U, dtype=%s)", prefix, body, mt_dtype_name(d));
error:
    Py_XDECREF(sep);
    Py_XDECREF(body);
    return result;
}

static PyObject *
finfo_repr(type_info_object *self)
{
    PyObject *parts = PyList_New(0);
    PyObject *result = NULL;

    if (parts == NULL || append_number(parts, "resolution", finfo_resolution_get(self, NULL)) < 0 ||
        append_number(parts, "min", finfo_min_get(self, NULL)) < 0 ||
        append_number(parts, "max", finfo_max_get(self, NULL)) < 0 ||
        append_number(parts, "eps", finfo_eps_get(self, NULL)) < 0 ||
        append_number(parts, "smallest_normal", finfo_tiny_get(self, NULL)) < 0 ||
        append_number(parts, "tiny", finfo_tiny_get(self, NULL)) < 0) {
        goto error;
    }
    result = join_fields("finfo", parts, self->type);
error:
    Py_XDECREF(parts);
    return result;
}

static PyObject *
iinfo_repr(type_info_object *self)
{
    PyObject *parts = PyList_New(0);
    PyObject *result = NULL;

    if (parts == NULL || append_number(parts, "min", iinfo_min_get(self, NULL)) < 0 ||
        append_number(parts, "max", iinfo_max_get(self, NULL)) < 0) {
        goto error;
    }
    result = join_fields("iinfo", parts, self->type);
error:
    Py_XDECREF(parts);
    return result;
}

static PyGetSetDef finfo_getset[] = {
    {"bits", (getter)type_info_bits_get, NULL, "The number of bits the dtype occupies.", NULL},
    {"eps", (getter)finfo_eps_get, NULL, "The difference between 1.0 and the next larger representable value.",
     NULL},
    {"max", (getter)finfo_max_get, NULL, "The largest finite value.", NULL},
    {"min", (getter)finfo_min_get, NULL, "The smallest finite value (the most negative).", NULL},
    {"tiny", (getter)finfo_tiny_get, NULL, "The smallest positive normal value (smallest_normal).", NULL},
    {"smallest_normal", (getter)finfo_tiny_get, NULL, "The smallest positive normal value.", NULL},
    {"resolution", (getter)finfo_resolution_get, NULL, "The approximate decimal resolution, 10**-digits10.", NULL},
    {"dtype", (getter)type_info_dtype_get, NULL, "The dtype's name (\"float32\").", NULL},
    {NULL},
};

static PyGetSetDef iinfo_getset[] = {
    {"bits", (getter)type_info_bits_get, NULL, "The number of bits the dtype occupies.", NULL},
    {"max", (getter)iinfo_max_get, NULL, "The largest value.", NULL},
    {"min", (getter)iinfo_min_get, NULL, "The smallest value.", NULL},
    {"dtype", (getter)type_info_dtype_get, NULL, "The dtype's name (\"int64\").", NULL},
    {NULL},
};

static PyTypeObject finfo_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.finfo",
    .tp_basicsize = sizeof(type_info_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "finfo(type) -> finfo\n\nThe numeric limits of a floating dtype (bits, eps, max, min, tiny, "
              "smallest_normal, resolution, dtype); finfo() describes the default dtype.",
    .tp_repr = (reprfunc)finfo_repr,
    .tp_str = (reprfunc)finfo_repr,
    .tp_richcompare = type_info_richcompare,
    .tp_getset = finfo_getset,
    .tp_new = type_info_tp_new,
    .tp_vectorcall = finfo_vectorcall,
};

static PyTypeObject iinfo_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.iinfo",
    .tp_basicsize = sizeof(type_info_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "iinfo(type) -> iinfo\n\nThe numeric limits of an integer dtype (bits, max, min, dtype).",
    .tp_repr = (reprfunc)iinfo_repr,
    .tp_str = (reprfunc)iinfo_repr,
    .tp_richcompare = type_info_richcompare,
    .tp_getset = iinfo_getset,
    .tp_new = type_info_tp_new,
    .tp_vectorcall = iinfo_vectorcall,
};

int
mt_type_info_init(PyObject *module)
{
    if (PyType_Ready(&finfo_type) < 0 || PyType_Ready(&iinfo_type) < 0) {
        return -1;
    }
    Py_INCREF(&finfo_type);
    if (PyModule_AddObject(module, "finfo", (PyObject *)&finfo_type) < 0) {
        Py_DECREF(&finfo_type);
        return -1;
    }
    Py_INCREF(&iinfo_type);
    if (PyModule_AddObject(module, "iinfo", (PyObject *)&iinfo_type) < 0) {
        Py_DECREF(&iinfo_type);
        return -1;
    }
    return 0;
}
