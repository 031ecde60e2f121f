/* return_types.c: minitorch.return_types (return_types.h): the table of kinds and their fields, the
 * struct sequence types made from it, and torch's repr of them. */
#include "return_types.h"

#include <string.h>
#include <structmember.h>   /* PyMemberDef: the fields of a struct sequence type (Python < 3.12) */

#define MAX_FIELDS 4
#define PREFIX "minitorch.return_types."

/* every kind, with torch's field names */
static const struct {
    const char *name;
    int n;
    const char *fields[MAX_FIELDS];
} kinds[] = {
    {"max", 2, {"values", "indices"}}, {"min", 2, {"values", "indices"}}, {"sort", 2, {"values", "indices"}},
    {"topk", 2, {"values", "indices"}}, {"kthvalue", 2, {"values", "indices"}},
    {"median", 2, {"values", "indices"}}, {"nanmedian", 2, {"values", "indices"}},
    {"mode", 2, {"values", "indices"}}, {"cummax", 2, {"values", "indices"}}, {"cummin", 2, {"values", "indices"}},
    {"aminmax", 2, {"min", "max"}}, {"frexp", 2, {"mantissa", "exponent"}}, {"histogram", 2, {"hist", "bin_edges"}},
    {"linalg_slogdet", 2, {"sign", "logabsdet"}}, {"slogdet", 2, {"sign", "logabsdet"}},
    {"linalg_inv_ex", 2, {"inverse", "info"}}, {"linalg_solve_ex", 2, {"result", "info"}},
    {"linalg_qr", 2, {"Q", "R"}}, {"qr", 2, {"Q", "R"}}, {"linalg_eigh", 2, {"eigenvalues", "eigenvectors"}},
    {"linalg_svd", 3, {"U", "S", "Vh"}}, {"svd", 3, {"U", "S", "V"}},
    {"linalg_cholesky_ex", 2, {"L", "info"}}, {"triangular_solve", 2, {"solution", "cloned_coefficient"}},
    {"linalg_lstsq", 4, {"solution", "residuals", "rank", "singular_values"}},
    {"linalg_lu_factor", 2, {"LU", "pivots"}}, {"linalg_lu_factor_ex", 3, {"LU", "pivots", "info"}},
    {"linalg_lu", 3, {"P", "L", "U"}}, {"lu_unpack", 3, {"P", "L", "U"}},
    {"_lu_with_info", 3, {"LU", "pivots", "info"}},
    {"linalg_ldl_factor", 2, {"LD", "pivots"}}, {"linalg_ldl_factor_ex", 3, {"LD", "pivots", "info"}},
    {"geqrf", 2, {"a", "tau"}},
};
#define NUM_KINDS (sizeof kinds / sizeof kinds[0])

/* per kind: [0] the result's type, [1] out='s */
static PyTypeObject *types[NUM_KINDS][2];
static PyStructSequence_Field fields[NUM_KINDS][MAX_FIELDS + 1];
static PyStructSequence_Desc descs[NUM_KINDS][2];
static char type_names[NUM_KINDS][2][64];
static char docs[NUM_KINDS][2][96];

static int
kind_of(const char *name)
{
    if (strncmp(name, PREFIX, strlen(PREFIX)) == 0) {
        name += strlen(PREFIX);
    }
    for (size_t k = 0; k < NUM_KINDS; k++) {
        if (strcmp(kinds[k].name, name) == 0) {
            return (int)k;
        }
    }
    return -1;
}

/* torch's repr: "torch.return_types.sort(\nvalues=...,\nindices=...)" */
static PyObject *
return_type_repr(PyObject *self)
{
    /* a struct sequence's type lists its fields, in order, as its members */
    const PyMemberDef *members = Py_TYPE(self)->tp_members;
    PyObject *text = PyUnicode_FromFormat("%s(", Py_TYPE(self)->tp_name);

    for (Py_ssize_t i = 0; text != NULL && i < PyTuple_GET_SIZE(self); i++) {
        PyObject *item = PyUnicode_FromFormat("%s\n%s=%R", i > 0 ? "," : "", members[i].name,
                                              PyTuple_GET_ITEM(self, i));
        Py_SETREF(text, item != NULL ? PyUnicode_Concat(text, item) : NULL);
        Py_XDECREF(item);
    }
    if (text != NULL) {
        PyObject *close = PyUnicode_FromString(")");
        Py_SETREF(text, close != NULL ? PyUnicode_Concat(text, close) : NULL);
        Py_XDECREF(close);
    }
    return text;
}

int
mt_return_type_size(const char *name)
{
    int k = kind_of(name);
    return k < 0 ? -1 : kinds[k].n;
}

PyObject *
mt_return_type_new(const char *name, int out, PyObject *const *items)
{
    int k = kind_of(name);
    PyObject *r;

    if (k < 0) {
        PyErr_Format(PyExc_SystemError, "no return type %s", name);
        return NULL;
    }
    r = PyStructSequence_New(types[k][out ? 1 : 0]);
    if (r == NULL) {
        return NULL;
    }
    for (int i = 0; i < kinds[k].n; i++) {
        Py_INCREF(items[i]);
        PyStructSequence_SET_ITEM(r, i, items[i]);
    }
    return r;
}

PyObject *
mt_return_type_name(const char *ret, PyObject *result)
{
    PyObject *named;

    if (result == NULL || ret == NULL || !PyTuple_CheckExact(result)
        || PyTuple_GET_SIZE(result) != mt_return_type_size(ret)) {
        return result;
    }
    named = mt_return_type_new(ret, 0, &PyTuple_GET_ITEM(result, 0));
    Py_DECREF(result);
    return named;
}

/* PyModule_AddObjectRef, which Python 3.9 lacks: adds obj without stealing the caller's reference. */
static int
add_object_ref(PyObject *module, const char *name, PyObject *obj)
{
    Py_INCREF(obj);
    if (PyModule_AddObject(module, name, obj) < 0) {
        Py_DECREF(obj);
        return -1;
    }
    return 0;
}

int
mt_return_types_init(PyObject *module)
{
    PyObject *rt = PyModule_New("minitorch.return_types");

    if (rt == NULL) {
        return -1;
    }
    for (size_t k = 0; k < NUM_KINDS; k++) {
        for (int i = 0; i < kinds[k].n; i++) {
            fields[k][i].name = kinds[k].fields[i];
            fields[k][i].doc = NULL;
        }
        for (int out = 0; out < 2; out++) {
            PyStructSequence_Desc *d = &descs[k][out];
            snprintf(type_names[k][out], sizeof type_names[k][out], PREFIX "%s%s", kinds[k].name,
                     out ? "_out" : "");
            if (out) {
                snprintf(docs[k][out], sizeof docs[k][out], "what %s() returns when given out= (out's own tensors)",
                         kinds[k].name);
            }
            else {
                snprintf(docs[k][out], sizeof docs[k][out], "%s() result: (%s, %s%s%s)", kinds[k].name,
                         kinds[k].fields[0], kinds[k].fields[1], kinds[k].n > 2 ? ", " : "",
                         kinds[k].n > 2 ? kinds[k].fields[2] : "");
            }
            d->name = type_names[k][out];
            d->doc = docs[k][out];
            d->fields = fields[k];
            d->n_in_sequence = kinds[k].n;
            types[k][out] = PyStructSequence_NewType(d);
            if (types[k][out] == NULL) {
                goto error;
            }
            types[k][out]->tp_repr = return_type_repr;
            if (add_object_ref(rt, type_names[k][out] + strlen(PREFIX), (PyObject *)types[k][out]) < 0) {
                goto error;
            }
        }
    }
    /* `import minitorch.return_types` finds it without a Python file */
    if (add_object_ref(module, "return_types", rt) < 0
        || PyDict_SetItemString(PyImport_GetModuleDict(), "minitorch.return_types", rt) < 0) {
        goto error;
    }
    Py_DECREF(rt);
    return 0;

error:
    Py_DECREF(rt);
    return -1;
}
