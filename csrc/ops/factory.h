/* factory.h: what csrc/ops/factory.c offers other files besides its method tables (methods.h): torch's
 * reading of a size given as Python objects, shared with Tensor.set_ (csrc/python/tensor_type.c) until
 * the factories are rows of the op table and the parser reads their sizes. */
#ifndef MT_FACTORY_H
#define MT_FACTORY_H

#include <Python.h>
#include <stdint.h>

/* Parses torch's size arguments: f(2, 3), f((2, 3)), f([2, 3]), f(Size). `args` is a vector of
 * positional arguments. Fills sizes/ndim; -1 with torch's TypeError otherwise. */
int mt_parse_size_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *ndim);

/* Parses one size-like object (tuple/list/Size of ints). */
int mt_parse_size_object(const char *fname, PyObject *obj, int64_t *sizes, int *ndim);

#endif
