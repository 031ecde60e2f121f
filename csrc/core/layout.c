/* layout.c: minitorch.layout and its singleton minitorch.strided, as torch.layout: printed by name,
 * compared by identity, not constructible and not picklable (torch's are neither). */
#include "layout.h"

static PyObject strided_object;

static PyObject *
layout_repr(PyObject *self)
{
    return PyUnicode_FromString("minitorch.strided");
}

PyTypeObject mt_LayoutType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "minitorch.layout",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = layout_repr,
    .tp_doc = "How a tensor's elements are addressed; minitorch has one layout, minitorch.strided.",
};

PyObject *
mt_layout_strided(void)
{
    Py_INCREF(&strided_object);
    return &strided_object;
}

int
mt_layout_init(PyObject *module)
{
    if (PyType_Ready(&mt_LayoutType) < 0) {
        return -1;
    }
    /* a static singleton, never deallocated */
    Py_SET_TYPE(&strided_object, &mt_LayoutType);
    Py_SET_REFCNT(&strided_object, 1);
    Py_INCREF(&strided_object);
    if (PyModule_AddObject(module, "strided", &strided_object) < 0) {
        Py_DECREF(&strided_object);
        return -1;
    }
    Py_INCREF(&mt_LayoutType);
    if (PyModule_AddObject(module, "layout", (PyObject *)&mt_LayoutType) < 0) {
        Py_DECREF(&mt_LayoutType);
        return -1;
    }
    return 0;
}
