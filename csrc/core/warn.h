/* warn.h: Python warnings raised from C where torch's C++ warnings appear: at the caller's line. torch's
 * warnings come from C++, so Python attributes them to the user's code; some of minitorch's ops are
 * written in Python around C ones, so a C warning skips the frames of minitorch's own Python files and
 * lands on the first frame outside the package (the user's line), as torch's does. */
#ifndef MT_WARN_H
#define MT_WARN_H

#include <Python.h>

/* PyErr_WarnEx at the first frame outside minitorch's package. 0, or -1 when the warning became an
 * error. */
int mt_warn(PyObject *category, const char *message);

/* mt_warn with a PyUnicode_FromFormat format. */
int mt_warn_format(PyObject *category, const char *format, ...);

#endif
