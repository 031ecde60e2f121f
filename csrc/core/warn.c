/* warn.c: see warn.h. The package's folder is read once, from minitorch.__file__, when the first warning
 * is raised. */
#include "warn.h"

#include <stdarg.h>

static PyObject *package_dir;   /* "<...>/minitorch/" (a str), or Py_None when it cannot be known */

static PyObject *
get_package_dir(void)
{
    PyObject *os_path = NULL, *pkg = NULL, *file = NULL, *dir = NULL;

    if (package_dir != NULL) {
        return package_dir;
    }
    pkg = PyImport_ImportModule("minitorch");
    file = pkg != NULL ? PyObject_GetAttrString(pkg, "__file__") : NULL;
    os_path = file != NULL ? PyImport_ImportModule("os.path") : NULL;
    dir = os_path != NULL ? PyObject_CallMethod(os_path, "dirname", "O", file) : NULL;
    if (dir != NULL && PyUnicode_Check(dir)) {
        package_dir = PyUnicode_FromFormat("%U%c", dir, '/');
    }
    if (package_dir == NULL) {
        PyErr_Clear();      /* no package (an embedded test): warn at the innermost frame */
        package_dir = Py_None;
        Py_INCREF(package_dir);
    }
    Py_XDECREF(pkg);
    Py_XDECREF(file);
    Py_XDECREF(os_path);
    Py_XDECREF(dir);
    return package_dir;
}

/* the stacklevel of the first frame outside the package (1: the innermost frame) */
static int
user_stacklevel(void)
{
    PyObject *dir = get_package_dir();
    PyFrameObject *frame = PyEval_GetFrame();
    int level = 1;

    if (dir == Py_None || frame == NULL) {
        return 1;
    }
    Py_INCREF(frame);
    for (;;) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        Py_ssize_t inside = PyUnicode_Tailmatch(code->co_filename, dir, 0, PY_SSIZE_T_MAX, -1);
        PyFrameObject *back;
        Py_DECREF(code);
        if (inside != 1) {
            break;
        }
        back = PyFrame_GetBack(frame);
        if (back == NULL) {
            break;      /* every frame is minitorch's own (python -m minitorch): its outermost */
        }
        Py_DECREF(frame);
        frame = back;
        level++;
    }
    Py_DECREF(frame);
    PyErr_Clear();      /* a failed Tailmatch leaves nothing worth raising over the warning */
    return level;
}

int
mt_warn(PyObject *category, const char *message)
{
    return PyErr_WarnEx(category, message, user_stacklevel());
}

int
mt_warn_format(PyObject *category, const char *format, ...)
{
    va_list va;
    PyObject *message;
    const char *text;
    int rc;

    va_start(va, format);
    message = PyUnicode_FromFormatV(format, va);
    va_end(va);
    if (message == NULL) {
        return -1;
    }
    text = PyUnicode_AsUTF8(message);
    rc = text != NULL ? mt_warn(category, text) : -1;
    Py_DECREF(message);
    return rc;
}
