/* dtype.h: the element types minitorch knows as Python sees them: the `minitorch.dtype` objects, the
 * names torch prints, and torch's promotion and casting rules. The enum, sizes and categories are in
 * scalar_type.h (Python-free, for the kernels). Owns no tensor logic; every dtype question asked
 * anywhere in the code base is answered here or there, once. */
#ifndef MT_DTYPE_H
#define MT_DTYPE_H

#include <Python.h>
#include <stdint.h>

#include "scalar_type.h"

typedef struct {
    PyObject_HEAD
    mt_dtype id;
} mt_DtypeObject;

extern PyTypeObject mt_DtypeType;

#define mt_Dtype_Check(o) PyObject_TypeCheck((o), &mt_DtypeType)

/* Registers the type and creates the singletons; adds float32, float, ... to `module`. */
int mt_dtype_init(PyObject *module);

/* get_default_dtype() and _set_default_dtype(d), the process's default floating-point dtype. */
extern PyMethodDef mt_dtype_functions[];

/* Borrowed reference to the singleton for `d`. */
PyObject *mt_dtype_object(mt_dtype d);

/* Accepts a minitorch.dtype; also Python's float/int/bool classes as torch does. TypeError otherwise.
 * Returns 0 on success, -1 with an exception. */
int mt_dtype_from_object(PyObject *obj, mt_dtype *out);

const char *mt_dtype_name(mt_dtype d);          /* "float32" */
const char *mt_dtype_scalar_name(mt_dtype d);   /* "Float", "Long": as in torch's messages */
const char *mt_dtype_c_name(mt_dtype d);        /* "float", "long int": as in torch's mm dtype message */

/* torch.promote_types */
mt_dtype mt_promote_types(mt_dtype a, mt_dtype b);
/* torch.can_cast (the in-place rule: no float to integral, no non-bool to bool) */
int mt_can_cast(mt_dtype from, mt_dtype to);

/* The default floating dtype (torch.get_default_dtype()). */
mt_dtype mt_default_float_dtype(void);

#endif
