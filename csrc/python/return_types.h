/* return_types.h: minitorch.return_types, the named tuples that ops returning several tensors give back
 * (torch.return_types: `sort` -> (values, indices)), each kind also as `<kind>_out`, what the op returns
 * when given out=. One table of kinds and fields; the types are struct sequences printed as torch prints
 * them. The ops themselves return plain tuples: bind.c names them by the signature's `-> T`. */
#ifndef MT_PYTHON_RETURN_TYPES_H
#define MT_PYTHON_RETURN_TYPES_H

#include <Python.h>

/* Creates every type and the module minitorch.return_types (also _C.return_types). 0 or -1. */
int mt_return_types_init(PyObject *module);

/* The number of fields of kind `name` ("sort"; "minitorch.return_types.sort" also reads), or -1 when
 * there is no such kind (no exception). */
int mt_return_type_size(const char *name);

/* A new `name` (or `name`_out when `out`) holding `items`, its size many (references taken); NULL with
 * SystemError for an unknown kind. */
PyObject *mt_return_type_new(const char *name, int out, PyObject *const *items);

/* The signature's `-> minitorch.return_types.<kind>` applied to an op's plain tuple: a new reference to the
 * named tuple, or `result` itself (stolen) when it is not a plain tuple of the kind's size. NULL passes. */
PyObject *mt_return_type_name(const char *ret, PyObject *result);

#endif
