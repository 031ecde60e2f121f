/* type_info.h: minitorch.finfo and minitorch.iinfo, the numeric limits of a dtype (csrc/python/type_info.c). */
#ifndef MT_TYPE_INFO_H
#define MT_TYPE_INFO_H

#include <Python.h>

/* Readies finfo and iinfo and adds them to `module`. 0 or -1. */
int mt_type_info_init(PyObject *module);

#endif
