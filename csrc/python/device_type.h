/* device_type.h: minitorch.device's constructor (csrc/python/device_type.c). */
#ifndef MT_DEVICE_TYPE_H
#define MT_DEVICE_TYPE_H

#include <Python.h>

/* Gives minitorch.device its constructor, then readies the type and adds it to the module (core/device.c's
 * mt_device_init). 0 or -1. */
int mt_device_type_init(PyObject *module);

#endif
