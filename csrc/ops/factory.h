/* factory.h: what csrc/ops/factory.c offers other files besides its method tables (methods.h): torch's
 * reading of a size given as Python objects, shared with Tensor.set_ (csrc/python/tensor_type.c) until
 * the factories are rows of the op table and the parser reads their sizes, and the C entry points of the
 * factories that are rows of the op table (csrc/python/factory.c binds them). */
#ifndef MT_FACTORY_H
#define MT_FACTORY_H

#include <Python.h>
#include <stdint.h>

#include "../core/device.h"
#include "../core/dtype.h"
#include "../core/memory_format.h"
#include "../core/tensor.h"

/* Parses torch's size arguments: f(2, 3), f((2, 3)), f([2, 3]), f(Size). `args` is a vector of
 * positional arguments. Fills sizes/ndim; -1 with torch's TypeError otherwise. */
int mt_parse_size_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, int64_t *sizes, int *ndim);

/* Parses one size-like object (tuple/list/Size of ints). */
int mt_parse_size_object(const char *fname, PyObject *obj, int64_t *sizes, int *ndim);

/* What a new tensor is filled with. */
typedef enum {
    MT_FACTORY_EMPTY,
    MT_FACTORY_ZEROS,
    MT_FACTORY_ONES
} mt_factory_fill;

/* The tensor options of a factory call, as the parser read them. */
typedef struct {
    mt_dtype dtype;                     /* MT_NUM_DTYPES: the default float dtype (the input's for *_like) */
    int has_device;
    mt_device device;                   /* when has_device; else the cpu (the input's device for *_like) */
    int requires_grad;
    mt_memory_format memory_format;     /* contiguous_format for zeros/ones/empty, preserve_format for *_like
                                         * unless given */
} mt_factory_options;

/* zeros, ones, empty: a new tensor of the given size (torch's checks: an unsupported memory format,
 * zeros' negative sizes, the device, requires_grad on a non-float dtype). New reference or NULL. */
PyObject *mt_factory_sized(mt_factory_fill fill, int ndim, const int64_t *sizes, const mt_factory_options *opt);

/* zeros_like, ones_like, empty_like: a new tensor shaped like `like`. New reference or NULL. */
PyObject *mt_factory_like(mt_factory_fill fill, mt_TensorObject *like, const mt_factory_options *opt);

#endif
