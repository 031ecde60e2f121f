/* threads.c (python): torch's intra-op thread API as Python sees it: set_num_threads(int) and get_num_threads(),
 * with torch's argument checks and messages, and torch's CPU capability (_get_cpu_capability, for
 * minitorch.backends.cpu). The threads themselves belong to the host kernels' pool
 * (csrc/kernels/cpu/parallel.c); this file only validates and forwards. The count also decides how
 * float sums over many elements are split (torch splits them per thread, and so rounds differently at
 * each count), so minitorch at N threads prints the sums torch prints at N threads. */
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "../core/scalar.h"
#include "../kernels/cpu/cpu_features.h"
#include "../kernels/cpu/parallel.h"
#include "bind.h"

/* torch's THPUtils_checkLong: a Python int that is not a bool, or a NumPy integer scalar (recognised
 * without importing NumPy: its type lives in the numpy module and converts through __index__). */
static int
is_torch_int(PyObject *obj)
{
    PyTypeObject *type = Py_TYPE(obj);

    if (PyBool_Check(obj)) {
        return 0;
    }
    if (PyLong_Check(obj)) {
        return 1;
    }
    /* NumPy's integer scalars; an ndarray has __index__ too, but torch takes no array for an int */
    return strncmp(type->tp_name, "numpy.", 6) == 0 && strcmp(type->tp_name, "numpy.bool") != 0 &&
           strcmp(type->tp_name, "numpy.bool_") != 0 && strcmp(type->tp_name, "numpy.ndarray") != 0 &&
           type->tp_as_number != NULL && type->tp_as_number->nb_index != NULL;
}

static PyObject *
threads_set_num_threads(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *index;
    int64_t value;
    int r;

    (void)module;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "minitorch.set_num_threads() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "minitorch.set_num_threads() takes exactly one argument (%zd given)", nargs);
        return NULL;
    }
    if (!is_torch_int(args[0])) {
        PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s", Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    index = PyNumber_Index(args[0]);
    if (index == NULL) {
        return NULL;
    }
    /* torch unpacks an int64 and then needs it to fit an int */
    r = mt_unpack_long(index, &value);
    Py_DECREF(index);
    if (r < 0) {
        return NULL;
    }
    if (value > INT32_MAX || value < INT32_MIN) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long");
        return NULL;
    }
    if (value <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "set_num_threads expects a positive integer");
        return NULL;
    }
    mt_parallel_set_num_threads((int)value);
    Py_RETURN_NONE;
}

static PyObject *
threads_get_num_threads(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    (void)args;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "minitorch.get_num_threads() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 0) {
        PyErr_Format(PyExc_TypeError, "minitorch.get_num_threads() takes no arguments (%zd given)", nargs);
        return NULL;
    }
    return PyLong_FromLong(mt_parallel_get_num_threads());
}

/* torch.backends.cpu.get_cpu_capability(): torch's choice on this CPU (ATEN_CPU_CAPABILITY honoured), which
 * is the one whose values minitorch's CPU kernels follow; MINITORCH_CPU_ISA caps minitorch's own vector code
 * without changing values, nor this answer. */
static PyObject *
threads_get_cpu_capability(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    switch (mt_cpu_torch_capability()) {
    case MT_TORCH_CPU_AVX512:
        return PyUnicode_FromString("AVX512");
    case MT_TORCH_CPU_AVX2:
        return PyUnicode_FromString("AVX2");
    default:
        return PyUnicode_FromString("DEFAULT");
    }
}

PyDoc_STRVAR(set_num_threads_doc,
             "set_num_threads(int)\n\n"
             "Sets the number of threads used for intraop parallelism on CPU (matmul, elementwise ops and\n"
             "reductions over many elements). Float sums over 32768+ elements are split per thread as\n"
             "torch splits them, so they round like torch's at the same thread count.");
PyDoc_STRVAR(get_num_threads_doc,
             "get_num_threads() -> int\n\n"
             "Returns the number of threads used for parallelizing CPU operations");

PyMethodDef mt_threads_functions[] = {
    {"set_num_threads", (PyCFunction)(void (*)(void))threads_set_num_threads, METH_FASTCALL | METH_KEYWORDS,
     set_num_threads_doc},
    {"get_num_threads", (PyCFunction)(void (*)(void))threads_get_num_threads, METH_FASTCALL | METH_KEYWORDS,
     get_num_threads_doc},
    {"_get_cpu_capability", threads_get_cpu_capability, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};
