/* generator.h: minitorch.Generator's C half and the CUDA devices' default generators (the module functions
 * below), and the C generator behind a Generator object for the random factories' generator= argument. */
#ifndef MT_GENERATOR_H
#define MT_GENERATOR_H

#include <Python.h>

struct mt_cpu_generator;

/* The C generator behind a minitorch.Generator (its `_handle`, a capsule made by _C._generator_new or
 * _C._default_generator): NULL with TypeError for anything else. */
struct mt_cpu_generator *mt_generator_from_object(PyObject *obj);

/* _generator_new, _default_generator, _generator_manual_seed, ..., _cuda_generator_get_state, ...
 * (NULL-terminated). */
extern PyMethodDef mt_generator_functions[];

#endif
