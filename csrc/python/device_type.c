/* device_type.c: the constructor of minitorch.device, torch's THPDevice_pynew: its two signatures read by
 * the one parser, so its messages are torch's. The type itself (repr, comparison, hash, pickling) and the
 * reading of device strings are csrc/core/device.c's. */
#include "../core/device.h"
#include "argparse.h"
#include "device_type.h"

static mt_parser device_parser = MT_PARSER("device(Device device)",
                                           "device(c10::string_view type, int64_t? index=-1)");

/* The (type, index) overload's first check: a type string that carries an index of its own. -1 with
 * torch's RuntimeError, or 0 with *d the string's device (or its own error, -1). */
static int
check_type_string(PyObject *type_str, mt_device *d)
{
    if (mt_device_from_object(type_str, d) < 0) {
        return -1;
    }
    if (d->index >= 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "type (string) must not include an index because index was passed explicitly: %U", type_str);
        return -1;
    }
    return 0;
}

/* The type string of a (type, index) call, given by position or keyword; NULL when there is none. */
static PyObject *
given_type_string(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *obj = nargs > 0 ? args[0] : NULL;

    for (Py_ssize_t k = 0; obj == NULL && kwnames != NULL && k < PyTuple_GET_SIZE(kwnames); k++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "type") == 0) {
            obj = args[nargs + k];
        }
    }
    return obj != NULL && PyUnicode_Check(obj) ? obj : NULL;
}

static PyObject *
device_vectorcall(PyObject *type, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    mt_parsed p;
    mt_device d;
    int r = 0;

    (void)type;
    if (mt_parse(&device_parser, args, nargs, kwnames, &p) < 0) {
        /* torch reads the index only after checking the type string: an index past int64 given with a
         * "cuda:0" string is the string's error */
        PyObject *type_str = given_type_string(args, nargs, kwnames);
        if (type_str != NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyObject *exc_type, *exc, *tb;
            PyErr_Fetch(&exc_type, &exc, &tb);
            if (check_type_string(type_str, &d) == 0) {
                PyErr_Restore(exc_type, exc, tb);
            }
            else {
                Py_XDECREF(exc_type);
                Py_XDECREF(exc);
                Py_XDECREF(tb);
            }
        }
        return NULL;
    }
    d = p.arg[0].device;
    if (p.index == 1) {
        r = check_type_string(p.arg[0].obj, &d);
        if (r == 0 && p.arg[1].obj != NULL) {
            r = mt_device_index_checked(p.arg[1].i, &d.index);
        }
    }
    mt_parsed_clear(&p);
    return r < 0 ? NULL : mt_device_new(d);
}

/* device(...) through tp_new (a call that does not use vectorcall): the same, with the arguments laid out
 * as a vector. */
static PyObject *
device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    Py_ssize_t nkw = kwargs != NULL ? PyDict_GET_SIZE(kwargs) : 0;
    PyObject **stack = PyMem_Malloc(sizeof(PyObject *) * (size_t)(nargs + nkw + 1));
    PyObject *kwnames = NULL;
    PyObject *key, *value;
    PyObject *result = NULL;
    Py_ssize_t pos = 0, k = 0;

    if (stack == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        stack[i] = PyTuple_GET_ITEM(args, i);
    }
    if (nkw > 0) {
        kwnames = PyTuple_New(nkw);
        if (kwnames == NULL) {
            goto error;
        }
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            Py_INCREF(key);
            PyTuple_SET_ITEM(kwnames, k, key);
            stack[nargs + k++] = value;
        }
    }
    result = device_vectorcall((PyObject *)type, stack, (size_t)nargs, kwnames);
error:
    Py_XDECREF(kwnames);
    PyMem_Free(stack);
    return result;
}

int
mt_device_type_init(PyObject *module)
{
    mt_DeviceType.tp_new = device_new;
    mt_DeviceType.tp_vectorcall = device_vectorcall;
    return mt_device_init(module);
}
