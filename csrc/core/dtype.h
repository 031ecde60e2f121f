/* dtype.h: the element types minitorch knows, their sizes, names and promotion rules, and the Python
 * `minitorch.dtype` objects that stand for them. Owns no tensor logic; every dtype question asked
 * anywhere in the code base is answered here, once. */
#ifndef MT_DTYPE_H
#define MT_DTYPE_H

#include <Python.h>
#include <stdint.h>

/* Order matters only for the tables in dtype.c. */
typedef enum {
    MT_BOOL = 0,
    MT_INT32,
    MT_INT64,
    MT_FLOAT32,
    MT_FLOAT64,
    MT_NUM_DTYPES
} mt_dtype;

typedef struct {
    PyObject_HEAD
    mt_dtype id;
} mt_DtypeObject;

extern PyTypeObject mt_DtypeType;

#define mt_Dtype_Check(o) PyObject_TypeCheck((o), &mt_DtypeType)

/* Registers the type and creates the singletons; adds float32, float, ... to `module`. */
int mt_dtype_init(PyObject *module);

/* Borrowed reference to the singleton for `d`. */
PyObject *mt_dtype_object(mt_dtype d);

/* Accepts a minitorch.dtype; also Python's float/int/bool classes as torch does. TypeError otherwise.
 * Returns 0 on success, -1 with an exception. */
int mt_dtype_from_object(PyObject *obj, mt_dtype *out);

size_t mt_dtype_size(mt_dtype d);
const char *mt_dtype_name(mt_dtype d);          /* "float32" */
const char *mt_dtype_scalar_name(mt_dtype d);   /* "Float", "Long": as in torch's messages */
const char *mt_dtype_c_name(mt_dtype d);        /* "float", "long int": as in torch's mm dtype message */
int mt_dtype_is_floating(mt_dtype d);
int mt_dtype_is_integral(mt_dtype d, int include_bool);

/* torch.promote_types */
mt_dtype mt_promote_types(mt_dtype a, mt_dtype b);
/* torch.can_cast (the in-place rule: no float to integral, no non-bool to bool) */
int mt_can_cast(mt_dtype from, mt_dtype to);

/* The default floating dtype (torch.get_default_dtype()). */
mt_dtype mt_default_float_dtype(void);

#endif
